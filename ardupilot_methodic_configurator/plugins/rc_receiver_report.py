# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The evidence report of one receiver test: JSON for tools, Markdown for people.

The JSON follows ``rc_receiver_report.schema.json`` (shipped in ``amc_rc_receiver/data``; its
``$id`` and ``schema_version`` name the version, and a change that breaks readers gets a new
number).  Both files are built from one `RCReceiverState` snapshot, so they always agree with
what the view showed.  Times in the timeline are seconds since the test started; the only wall
clock time is ``generated_at`` (UTC).  In the methodic configurator the report is saved into the
vehicle's directory under fixed names, so the latest evidence sits beside the parameter files.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

from .. import _
from .rc_receiver_snapshot import FailsafeStatus, RCReceiverState, VerdictResult
from .rc_receiver_wording import role_label, verdict_label

SCHEMA_VERSION = 1
SCHEMA_ID = "https://github.com/amc-rc-receiver/amc-rc-receiver/schemas/rc_receiver_report-1.schema.json"
REPORT_BASENAME = "rc_receiver_report"
_DISTRIBUTIONS = ("amc-rc-receiver", "ardupilot_methodic_configurator")


def _tool() -> dict[str, Any]:
    for name in _DISTRIBUTIONS:
        try:
            return {"name": name, "version": metadata.version(name)}
        except metadata.PackageNotFoundError:
            continue
    return {"name": "rc_receiver", "version": None}


def _relative(state: RCReceiverState, at: float | None) -> float | None:
    return None if at is None else round(max(0.0, at - state.test_started_at), 3)


def _timeline(state: RCReceiverState) -> list[dict[str, Any]]:
    check = state.check
    events: list[tuple[float, dict[str, Any]]] = []
    for event in check.transmitter_events:
        kind = "transmitter_on" if event.on else "transmitter_off"
        events.append((event.at, {"kind": kind, "by": "program" if event.by_program else "user"}))
    for status, at in state.failsafe_transitions:
        kind = "failsafe" if status is FailsafeStatus.ACTIVE else "recovery"
        events.append((at, {"kind": kind}))
    for message in check.radio_messages:
        events.append(
            (message.at, {"kind": "statustext", "severity": message.severity, "text": message.text})
        )
    events.sort(key=lambda item: item[0])
    return [{"t_s": _relative(state, at), **entry} for at, entry in events]


def build_report(state: RCReceiverState, *, generated_at: datetime | None = None) -> dict[str, Any]:
    """The JSON report (a dict ready for ``json.dumps``) of ``state``."""
    check = state.check
    verdict = check.verdict
    when = generated_at or datetime.now(timezone.utc)
    return {
        "$schema": SCHEMA_ID,
        "schema_version": SCHEMA_VERSION,
        "generated_at": when.astimezone(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z"),
        "tool": _tool(),
        "vehicle": {
            "system_id": check.system_id,
            "component_id": check.component_id,
            "family": check.family.value,
            "mav_type": check.mav_type,
            "firmware": check.firmware,
        },
        "verdict": {
            "result": verdict.result.value,
            "detail": verdict.detail,
            "failsafe_latency_s": None
            if verdict.failsafe_latency_s is None
            else round(verdict.failsafe_latency_s, 3),
            "latency_from": verdict.latency_from,
        },
        "test": {
            "duration_s": _relative(state, state.now),
            "guide_step": check.guide.step.value,
            "automatic": check.guide.automatic,
            "failsafe_observed_s": _relative(state, state.failsafe_observed_at),
            "recovery_observed_s": _relative(state, state.recovery_observed_at),
        },
        "receiver": {
            "present": state.receiver_present,
            "failsafe": state.failsafe.value,
            "rssi": state.rssi,
            "chancount": state.chancount,
            "detected_protocol": check.detected_protocol,
        },
        "findings": [
            {
                "code": finding.code,
                "severity": finding.severity.value,
                "parameter": finding.parameter,
                "value": finding.value,
                "step_file_value": finding.step_file_value,
                "message": finding.message,
                "action": finding.action,
            }
            for finding in check.findings
        ],
        "parameters": [
            {
                "name": entry.name,
                "value": entry.value,
                "source": entry.source.value,
                "attempts": entry.attempts,
            }
            for entry in check.parameters
        ],
        "step_file": check.step_file,
        "channels": [
            {
                "number": channel.number,
                "role": channel.role,
                "last_us": channel.last_us,
                "min_us": channel.min_us,
                "max_us": channel.max_us,
                "span_us": channel.span_us,
                "moved": channel.moved,
                "is_stick": channel.is_stick,
            }
            for channel in check.channels
        ],
        "flight_mode": None
        if check.flight_mode is None
        else {
            "channel": check.flight_mode.channel,
            "pwm_us": check.flight_mode.pwm,
            "slot": check.flight_mode.slot,
            "mode_number": check.flight_mode.mode_number,
            "mode_name": check.flight_mode.mode_name,
        },
        "timeline": _timeline(state),
        "streams": [
            {
                "message": request.message_name,
                "requested_interval_us": request.interval_us,
                "outcome": request.outcome.value,
                "reason": request.reason,
                "rate_hz": round(
                    state.rc_channels_rate_hz
                    if request.message_name == "RC_CHANNELS"
                    else state.sys_status_rate_hz,
                    2,
                ),
            }
            for request in state.interval_requests
        ],
    }


def _cell(value: object) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value).replace("|", "\\|")


def build_markdown(report: dict[str, Any]) -> str:
    """The Markdown report for people, from the JSON report (so both always say the same)."""
    verdict = report["verdict"]
    vehicle = report["vehicle"]
    lines = [
        "# "
        + _("RC receiver check: {result}").format(result=verdict_label(VerdictResult(verdict["result"]))),
        "",
        verdict["detail"],
        "",
        _("Vehicle: {family}, system {system}, component {component}, firmware {firmware}.").format(
            family=vehicle["family"],
            system=_cell(vehicle["system_id"]),
            component=_cell(vehicle["component_id"]),
            firmware=_cell(vehicle["firmware"]),
        ),
        _("Report generated {when} by {tool} {version}.").format(
            when=report["generated_at"], tool=report["tool"]["name"], version=_cell(report["tool"]["version"])
        ),
    ]
    if verdict["failsafe_latency_s"] is not None:
        lines.append(_("RC failsafe latency: {latency:.2f} s.").format(latency=verdict["failsafe_latency_s"]))
    lines += ["", "## " + _("Findings"), ""]
    if report["findings"]:
        for finding in report["findings"]:
            lines.append(f"- **{finding['severity']}** {finding['message']} {finding['action']}")
    else:
        lines.append(_("No findings."))
    lines += ["", "## " + _("Channels"), ""]
    lines += [
        "| " + " | ".join((_("channel"), _("role"), _("lowest"), _("highest"), _("moved"))) + " |",
        "|---|---|---|---|---|",
    ]
    for channel in report["channels"]:
        moved = _("yes") if channel["moved"] else _("no")
        role = role_label(channel["role"]) or "–"
        lines.append(
            f"| CH{channel['number']} | {role} | {_cell(channel['min_us'])} | "
            f"{_cell(channel['max_us'])} | {moved} |"
        )
    mode = report["flight_mode"]
    if mode is not None:
        lines += [
            "",
            _("Flight mode channel CH{channel}: {pwm} µs, slot {slot}, {mode}.").format(
                channel=mode["channel"],
                pwm=_cell(mode["pwm_us"]),
                slot=_cell(mode["slot"]),
                mode=_cell(mode["mode_name"]),
            ),
        ]
    lines += ["", "## " + _("Timeline"), ""]
    for event in report["timeline"]:
        text = event.get("text") or event["kind"]
        lines.append(f"- {event['t_s']:.2f} s: {text}")
    lines += [
        "",
        "## " + _("Parameters"),
        "",
        "| " + _("name") + " | " + _("value") + " | " + _("source") + " |",
    ]
    lines.append("|---|---|---|")
    for entry in report["parameters"]:
        lines.append(f"| {entry['name']} | {_cell(entry['value'])} | {entry['source']} |")
    lines += ["", "## " + _("Telemetry streams"), ""]
    for stream in report["streams"]:
        lines.append(
            _("- {message}: {outcome}, {rate} Hz").format(
                message=stream["message"], outcome=stream["outcome"], rate=stream["rate_hz"]
            )
        )
    return "\n".join(lines) + "\n"


def report_paths(path: str | Path) -> tuple[Path, Path]:
    """The JSON and Markdown files for ``path`` (either suffix given, or none: both added)."""
    base = Path(path)
    if base.suffix.lower() in (".json", ".md"):
        base = base.with_suffix("")
    return base.with_name(base.name + ".json"), base.with_name(base.name + ".md")


def write_report(state: RCReceiverState, path: str | Path) -> tuple[Path, Path]:
    """Write both files for ``state`` next to each other; returns their paths.  May raise OSError."""
    json_path, markdown_path = report_paths(path)
    report = build_report(state)
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    markdown_path.write_text(build_markdown(report), encoding="utf-8")
    return json_path, markdown_path


def save_to_vehicle_directory(state: RCReceiverState) -> tuple[Path, Path] | None:
    """In the methodic configurator: write into the vehicle directory; None when there is none."""
    directory = state.check.report_directory
    if not directory:
        return None
    return write_report(state, Path(directory) / REPORT_BASENAME)
