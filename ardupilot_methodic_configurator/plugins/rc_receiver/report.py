# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The evidence report of one receiver test: JSON for tools, Markdown for people (`report_markdown`).

The JSON follows ``rc_receiver_report.schema.json`` (shipped in ``amc_rc_receiver/data``; its
``$id`` and ``schema_version`` name the version, and a change that breaks readers gets a new
number).  Both files are built from one `RCReceiverState` snapshot, so they always agree with
what the view showed.  Times in the timeline are seconds since the test started; the only wall
clock time is ``generated_at`` (UTC).  In the methodic configurator the report is saved into the
vehicle's directory under fixed names, so the latest evidence sits beside the parameter files.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

from ... import _
from .report_markdown import build_markdown
from .report_modes import mode_slots_json
from .snapshot import FailsafeStatus, RCReceiverState
from .wording import stick_outcome_text
from .wording.channels import mode_slot_text

SCHEMA_VERSION = 3
SCHEMA_ID = "https://github.com/amc-rc-receiver/amc-rc-receiver/schemas/rc_receiver_report-3.schema.json"
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
    check = state.guided
    events: list[tuple[float, dict[str, Any]]] = []
    # First, so that at the same instant a stick's answer precedes the switch it led to.
    for stick in check.sticks:
        if stick.at is not None:
            text = stick_outcome_text(check.family, stick)
            events.append((stick.at, {"kind": "stick", "text": text}))
    for event in check.transmitter_events:
        kind = "transmitter_on" if event.on else "transmitter_off"
        events.append((event.at, {"kind": kind, "by": "program" if event.by_program else "user"}))
    for status, at in state.failsafe_transitions:
        kind = "failsafe" if status is FailsafeStatus.ACTIVE else "recovery"
        events.append((at, {"kind": kind}))
    for link_event in check.link_events:
        events.append((link_event.at, {"kind": "link", "text": link_event.text}))
    for visit in check.mode_slots:
        events.append((visit.at, {"kind": "mode_slot", "text": mode_slot_text(visit)}))
    for message in check.radio_messages:
        events.append(
            (message.at, {"kind": "statustext", "severity": message.severity, "text": message.text})
        )
    events.sort(key=lambda item: item[0])
    return [{"t_s": _relative(state, at), **entry} for at, entry in events]


def build_report(state: RCReceiverState, *, generated_at: datetime | None = None) -> dict[str, Any]:
    """The JSON report (a dict ready for ``json.dumps``) of ``state``."""
    check = state.guided
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
        "link": {
            "kind": state.link_kind,
            "foreign_datagrams": state.foreign_datagrams,
            "impostor_datagrams": state.impostor_datagrams,
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
        "extra_channels": [
            {
                "number": channel.number,
                "pwm_us": channel.pwm,
                "min_us": channel.min_us,
                "max_us": channel.max_us,
                "span_us": channel.span_us,
                "role": channel.role,
                "option": channel.option,
                "function": channel.function,
                "switch_position": None if channel.position is None else channel.position.value,
                "reversed": channel.reversed_channel,
            }
            for channel in check.extra_channels
        ],
        "sticks": [
            {
                "axis": stick.axis,
                "role": stick.role,
                "parameter": stick.parameter,
                "channel": stick.channel,
                "outcome": stick.outcome.value,
                "moved_channel": stick.moved_channel,
                "rest_us": stick.rest_us,
                "end_us": stick.end_us,
                "reversed_parameter": stick.reversed_parameter,
            }
            for stick in check.sticks
        ],
        "flight_mode": None
        if check.flight_mode is None
        else {
            "channel": check.flight_mode.channel,
            "pwm_us": check.flight_mode.pwm,
            "slot": check.flight_mode.slot,
            "mode_number": check.flight_mode.mode_number,
            "mode_name": check.flight_mode.mode_name,
            "reported_mode_number": check.flight_mode.reported_mode_number,
            "reported_mode_name": check.flight_mode.reported_mode_name,
            "near_band_end_us": check.flight_mode.near_band_end,
        },
        "mode_slots": mode_slots_json(check.mode_slots, state.test_started_at),
        "timeline": _timeline(state),
        # ArduPilot's own pre-arm checks, asked by the check (issue 28): each answer in the order asked.
        "prearm": [
            {
                "moment": answer.moment.value,
                "asked_s": _relative(state, answer.asked_at),
                "outcome": answer.outcome,
                "result": answer.result,
                "complete": answer.complete,
                "refusals": list(answer.refusals),
            }
            for answer in check.prearm
        ],
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


class ReportPathError(ValueError):
    """A report path that names no file (empty), in our words."""


class ReportWriteError(OSError):
    """The report could not be written; the message names the file and the reason in our words."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


# New files get the permissions the user's umask gives, as a plain open() would (mkstemp's are 0600).
_UMASK = os.umask(0)
os.umask(_UMASK)


def report_paths(path: str | Path) -> tuple[Path, Path]:
    """The JSON and Markdown files for ``path``.

    Either suffix names both files (``PATH.json`` and ``PATH.md``), no suffix adds both; a folder
    (one that exists, ``.``, ``/`` or a path ending in a separator) gets the default names inside
    it; a leading ``~`` is the user's home, as a shell would read it.
    """
    text = os.fspath(path)
    if not text.strip():
        raise ReportPathError(_("the report path is empty: name a file or a folder"))
    base = Path(text).expanduser()
    if text.endswith(("/", os.sep)) or base.name in ("", ".", "..") or base.is_dir():
        base = base / REPORT_BASENAME
    elif base.suffix.lower() in (".json", ".md"):
        base = base.with_suffix("")
    return base.with_name(base.name + ".json"), base.with_name(base.name + ".md")


def earlier_report_base(path: str | Path, number: int) -> Path:
    """Where the report of the ``number``-th test before a reconnection goes: beside ``path``'s."""
    json_path, _markdown = report_paths(path)
    base = json_path.with_suffix("")
    return base.with_name(f"{base.name}-before-reconnect-{number}")


def write_report(state: RCReceiverState, path: str | Path) -> tuple[Path, Path]:
    """Write both files for ``state`` next to each other; returns their paths.

    Both are written to temporary files in their folder first and renamed into place only when both
    are complete, so a full disk or a bad name leaves the previous report whole.  A name that is a
    symbolic link or a folder is refused: the report replaces regular files only, never what a link
    points at.  Raises `ReportWriteError` when the report cannot be written.
    """
    json_path, markdown_path = report_paths(path)
    report = build_report(state)
    try:
        _write_pair(json_path, markdown_path, report)
    except ReportWriteError:
        raise
    except OSError as error:
        where = error.filename if error.filename else json_path.parent
        raise ReportWriteError(
            _("{path}: {reason}").format(path=where, reason=error.strerror or type(error).__name__)
        ) from error
    return json_path, markdown_path


def _write_pair(json_path: Path, markdown_path: Path, report: dict[str, Any]) -> None:
    contents = (
        (json_path, (json.dumps(report, indent=2, ensure_ascii=False) + "\n").encode("utf-8")),
        (markdown_path, build_markdown(report).encode("utf-8")),
    )
    json_path.parent.mkdir(parents=True, exist_ok=True)
    for target, _content in contents:
        _refuse_unless_replaceable(target)
    written: list[tuple[str, Path]] = []
    try:
        for target, content in contents:
            written.append((_write_temporary(target, content), target))
        for temporary, target in written:
            _refuse_unless_replaceable(target)
            os.replace(temporary, target)
    finally:
        for temporary, _target in written:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)


def existing_report_files(path: str | Path) -> tuple[Path, ...]:
    """Those of the two report files for ``path`` that exist already (what saving replaces)."""
    return tuple(target for target in report_paths(path) if os.path.lexists(target))


def _refuse_unless_replaceable(target: Path) -> None:
    try:
        found = os.lstat(target)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(found.st_mode):
        raise ReportWriteError(
            _("{path} is a symbolic link; the report is not written through it").format(path=target)
        )
    if not stat.S_ISREG(found.st_mode):
        raise ReportWriteError(_("{path} exists and is not a regular file").format(path=target))


def _write_temporary(target: Path, content: bytes) -> str:
    """``content`` in a new file beside ``target`` (created exclusively, so no link is followed)."""
    descriptor, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(descriptor, 0o666 & ~_UMASK)
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(content)
            stream.flush()
            os.fsync(stream.fileno())
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    return temporary


def save_to_vehicle_directory(state: RCReceiverState) -> tuple[Path, Path] | None:
    """In the methodic configurator: write into the vehicle directory; None when there is none."""
    directory = state.guided.report_directory
    if not directory:
        return None
    return write_report(state, Path(directory) / REPORT_BASENAME)
