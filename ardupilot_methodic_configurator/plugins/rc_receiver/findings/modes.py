# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Findings about the flight-mode switch, from what the vehicle did during the test.

- a slot whose mode the vehicle did not enter (it said so, "Mode change to SMARTRTL failed: init
  failed" / "Flight mode change failed", or kept reporting another mode in its HEARTBEAT): a
  warning, since the receiver works and the vehicle may enter it elsewhere (most refusals on the
  ground are a missing position, mission or path);
- a slot visited with the switch within 15 µs of a band's end: a small drift selects the
  neighbouring mode, so a warning.

Pure functions of the judged slot visits (`rc_receiver.modes.judge_slots`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .... import _
from ..firmware import VehicleFamily, mode_channel
from ..modes import NEAR_BAND_END_US, SLOT_CENTRE_US, near_band_end, slot_parameter
from ..snapshot import Finding, ModeOutcome, ModeSlotVisit, Severity


def _mode_text(visit: ModeSlotVisit) -> str:
    if visit.mode_name is not None:
        return visit.mode_name
    return "" if visit.mode_number is None else _("mode {number}").format(number=visit.mode_number)


def mode_not_entered(family: VehicleFamily, visits: Iterable[ModeSlotVisit]) -> Iterable[Finding]:
    for visit in visits:
        if visit.outcome is not ModeOutcome.REFUSED:
            continue
        name = slot_parameter(family, visit.slot)
        if visit.failure_text is not None:
            message = _(
                'Slot {slot} ({name} = {mode}): the flight controller did not enter the mode: "{text}".'
            ).format(slot=visit.slot, name=name, mode=_mode_text(visit), text=visit.failure_text)
        else:
            message = _(
                "Slot {slot} ({name} = {mode}): the flight controller did not enter the mode; it kept "
                "reporting {reported}."
            ).format(
                slot=visit.slot,
                name=name,
                mode=_mode_text(visit),
                reported=visit.reported_name or _("another mode"),
            )
        yield Finding(
            "mode_not_entered",
            Severity.WARNING,
            message,
            _(
                "Put a mode into {name} that the vehicle can enter where it flies, or give it what the mode "
                "needs (a position estimate, a mission, a path home)."
            ).format(name=name),
            name,
            None if visit.mode_number is None else float(visit.mode_number),
        )


def mode_pwm_near_band_end(
    family: VehicleFamily, mode_channel: int | None, visits: Iterable[ModeSlotVisit]
) -> Iterable[Finding]:
    for visit in visits:
        end = near_band_end(visit.pwm)
        if end is None or mode_channel is None:
            continue
        yield Finding(
            "mode_pwm_near_band_end",
            Severity.WARNING,
            _(
                "In slot {slot} the mode channel CH{channel} sat at {pwm} µs, within {near} µs of the "
                "band end at {end} µs: a small drift selects the neighbouring mode."
            ).format(slot=visit.slot, channel=mode_channel, pwm=visit.pwm, near=NEAR_BAND_END_US, end=end),
            _("Set the transmitter's switch position for slot {slot} to about {centre} µs.").format(
                slot=visit.slot, centre=SLOT_CENTRE_US[visit.slot - 1]
            ),
            slot_parameter(family, visit.slot),
            None,
        )


def mode_findings(
    family: VehicleFamily, values: Mapping[str, float], visits: tuple[ModeSlotVisit, ...]
) -> tuple[Finding, ...]:
    channel = mode_channel(family, dict(values))
    return (*mode_not_entered(family, visits), *mode_pwm_near_band_end(family, channel, visits))
