# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Tk view's own words: frame titles, row names, buttons and their tooltips, the report dialogs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from .... import _
from ..snapshot import (
    FailsafeStatus,
)
from . import relative_time_text, yes_no_unknown_text


def view_label(name: str) -> str:
    """The fixed words of the Tk view: frame titles, row names, buttons and empty lists."""
    labels: dict[str, str] = {
        "title": _("RC receiver check"),
        "channels": _("Channels"),
        "extra_channels": _("Channels beyond CH5"),
        "status": _("Receiver status"),
        "guided_test": _("Guided transmitter test"),
        "findings": _("Parameter findings"),
        "no_findings": _("No findings yet."),
        "streams": _("Telemetry streams"),
        "radio_messages": _("Flight controller messages about the radio"),
        "no_radio_messages": _("None yet."),
        "guidance": _("How to check the receiver"),
        "receiver_seen": _("Receiver seen by the flight controller:"),
        "failsafe": _("RC failsafe:"),
        "failsafe_observed": _("Failsafe observed during this test:"),
        "recovery_observed": _("Recovery observed:"),
        "protocol": _("Protocol the flight controller decodes:"),
        "off": _("It is off"),
        "on": _("It is on"),
        "skip": _("Skip this stick"),
        "skip_switches": _("Skip the switches"),
        "save": _("Save report…"),
        "reset": _("Start a new test"),
        "held_values": _("RC failsafe: these are the last values held, not live input."),
        "unavailable": _("Unavailable"),
        "unknown": _("unknown"),
        "save_title": _("Save report"),
        "report_files": _("Report (JSON and Markdown)"),
        "all_files": _("All files"),
        "needs_flight_controller": _("The RC receiver check needs a connected flight controller."),
    }
    return labels[name]


def extra_channel_headers() -> tuple[str, str, str, str, str]:
    """The column titles of the table of the channels beyond CH5."""
    return _("Channel"), _("PWM"), _("Range"), _("Role"), _("Switch")


ButtonName = Literal["off", "on", "skip", "save", "reset"]


def button_tooltip(name: ButtonName) -> str:
    """What a button of the guided test does, shown while the pointer rests on it."""
    tips = {
        "off": _(
            "Press once the transmitter is switched off: the failsafe latency is timed from here, "
            "and the flight controller must report RC failsafe."
        ),
        "on": _(
            "Press once the transmitter is switched back on: RC failsafe must clear and the "
            "channels must move again."
        ),
        "skip": _("Pass over this stick; the verdict names it as not checked."),
        "save": _("Write what this test found as JSON and Markdown, for the vehicle's records."),
        "reset": _(
            "Forget the failsafe and recovery seen so far and the sticks checked, and start the "
            "test again. The parameters on the flight controller are not touched."
        ),
    }
    return tips[name]


def channel_name(number: int) -> str:
    return _("CH{number}").format(number=number)


def rssi_name(link_quality: bool) -> str:
    """The RSSI row's name: CRSF link quality where ``RC_OPTIONS`` bit 11 says so."""
    return _("Link quality") if link_quality else _("Receiver RSSI")


def pwm_text(pwm: int) -> str:
    return _("{pwm} µs").format(pwm=pwm)


def rssi_value_text(rssi: int, maximum: int, link_quality: bool) -> str:
    text = _("LQ {rssi} / {maximum}") if link_quality else _("RSSI {rssi} / {maximum}")
    return text.format(rssi=rssi, maximum=maximum)


def rate_text(rate_hz: float) -> str:
    return _("{rate:.1f} Hz").format(rate=rate_hz)


def failsafe_text(failsafe: FailsafeStatus) -> str:
    words = {FailsafeStatus.ACTIVE: _("active"), FailsafeStatus.NOT_ACTIVE: _("not active")}
    return words.get(failsafe, _("unknown"))


def protocol_text(protocol: str | None) -> str:
    """The protocol the flight controller announced it decodes, if it did."""
    return protocol or _("not announced yet")


def status_value_texts() -> list[str]:
    """Every value the receiver status column shows (one time of the longest), to size it once."""
    seen = [yes_no_unknown_text(present) for present in (None, True, False)]
    failsafe = [failsafe_text(status) for status in FailsafeStatus]
    times = [relative_time_text(False, None, 0.0), relative_time_text(True, 888.8, 0.0)]
    return [*seen, *failsafe, *times, protocol_text(None)]


def replace_report_question(files: Sequence[str]) -> str:
    return _("The report is saved as two files, and these exist already:\n{files}\n\nReplace them?").format(
        files="\n".join(files)
    )


def report_saved_text(json_file: str, markdown_file: str) -> str:
    return _("Report saved: {json} and {markdown}").format(json=json_file, markdown=markdown_file)


def report_failed_text(error: BaseException) -> str:
    return _("The report could not be saved: {error}").format(error=error)
