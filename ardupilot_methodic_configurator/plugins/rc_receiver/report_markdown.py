# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Markdown report for people, made from the JSON report, so that both always say the same.

Every text that did not come from this program (a STATUSTEXT, a file name, a parameter name) is
escaped, so that it shows as it is and cannot start a heading or a table.
"""

from __future__ import annotations

from typing import Any

from ... import _
from .readings import readable_text
from .report_modes import mode_slots_markdown
from .snapshot import ExtraChannel, SwitchPosition, VerdictResult
from .wording import prearm_moment_label, stick_outcome_label, verdict_label
from .wording.channels import extra_channel_role_text, role_label, switch_position_label

# Characters that mean something to Markdown where they stand: escaped in every text that did
# not come from this program, so that a STATUSTEXT cannot start a heading or a table.
_MARKDOWN = str.maketrans({char: "\\" + char for char in "\\`*_[]<>#|~"})


def _text(value: object) -> str:
    """A text of the vehicle's (or any field of the report) as Markdown that shows it as it is."""
    return readable_text(value).translate(_MARKDOWN)


def _cell(value: object) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, int):
        return str(value)
    return _text(value)


def _channel_cell(number: object) -> str:
    return f"CH{number}" if isinstance(number, int) else "–"


def _extra_channel_lines(entries: list[dict[str, Any]]) -> list[str]:
    """The table of the delivered channels beyond CH5 (none: no lines)."""
    if not entries:
        return []
    headers = (_("channel"), _("PWM"), _("lowest"), _("highest"), _("role"), _("switch"))
    lines = ["", "### " + _("Channels beyond CH5"), "", "| " + " | ".join(headers) + " |"]
    lines.append("|---|---|---|---|---|---|")
    for entry in entries:
        channel = ExtraChannel(
            number=entry["number"],
            role=entry["role"],
            option=entry["option"],
            function=entry["function"],
        )
        position = entry["switch_position"]
        cells = (
            f"CH{entry['number']}",
            _cell(entry["pwm_us"]),
            _cell(entry["min_us"]),
            _cell(entry["max_us"]),
            _text(extra_channel_role_text(channel)),
            switch_position_label(None if position is None else SwitchPosition(position)) or "–",
        )
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def build_markdown(report: dict[str, Any]) -> str:
    """The Markdown report for people, from the JSON report (so both always say the same)."""
    verdict = report["verdict"]
    vehicle = report["vehicle"]
    lines = [
        "# "
        + _("RC receiver check: {result}").format(result=verdict_label(VerdictResult(verdict["result"]))),
        "",
        _text(verdict["detail"]),
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
    link = report.get("link")
    if link is not None:
        lines.append(
            _(
                "Link: {kind}; datagrams from other addresses ignored: {foreign}, of them in the "
                "vehicle's name: {impostor}."
            ).format(
                kind=_cell(link["kind"]),
                foreign=link["foreign_datagrams"],
                impostor=link["impostor_datagrams"],
            )
        )
    if verdict["failsafe_latency_s"] is not None:
        lines.append(_("RC failsafe latency: {latency:.2f} s.").format(latency=verdict["failsafe_latency_s"]))
    lines += ["", "## " + _("Findings"), ""]
    if report["findings"]:
        for finding in report["findings"]:
            message, action = _text(finding["message"]), _text(finding["action"])
            lines.append(f"- **{finding['severity']}** {message} {action}")
    else:
        lines.append(_("No findings."))
    if report.get("prearm"):
        lines += ["", "## " + _("ArduPilot's pre-arm checks"), ""]
        for answer in report["prearm"]:
            said = "; ".join(f"“{_text(text)}”" for text in answer["refusals"])
            if not said:
                said = (
                    _("no receiver-related failure")
                    if answer["outcome"] == "accepted"
                    else _cell(answer["result"] or answer["outcome"])
                )
            lines.append(f"- {prearm_moment_label(answer['moment'])}: {said}")
    if report["sticks"]:
        lines += ["", "## " + _("Sticks"), ""]
        headers = (_("stick"), _("expected channel"), _("moved channel"), _("from"), _("to"), _("result"))
        lines += ["| " + " | ".join(headers) + " |", "|---|---|---|---|---|---|"]
        for stick in report["sticks"]:
            cells = (
                role_label(stick["role"]),
                f"CH{stick['channel']} ({stick['parameter']})",
                _channel_cell(stick["moved_channel"]),
                _cell(stick["rest_us"]),
                _cell(stick["end_us"]),
                stick_outcome_label(stick["outcome"]),
            )
            lines.append("| " + " | ".join(cells) + " |")
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
    lines += _extra_channel_lines(report.get("extra_channels") or [])
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
    lines += mode_slots_markdown(report.get("mode_slots") or [])
    lines += ["", "## " + _("Timeline"), ""]
    for event in report["timeline"]:
        text = _text(event["text"]) if event.get("text") else event["kind"]
        lines.append(f"- {event['t_s']:.2f} s: {text}")
    lines += [
        "",
        "## " + _("Parameters"),
        "",
        "| " + _("name") + " | " + _("value") + " | " + _("source") + " |",
    ]
    lines.append("|---|---|---|")
    for entry in report["parameters"]:
        lines.append(f"| {_cell(entry['name'])} | {_cell(entry['value'])} | {entry['source']} |")
    lines += ["", "## " + _("Telemetry streams"), ""]
    for stream in report["streams"]:
        lines.append(
            _("- {message}: {outcome}, {rate} Hz").format(
                message=stream["message"], outcome=stream["outcome"], rate=stream["rate_hz"]
            )
        )
    return "\n".join(lines) + "\n"
