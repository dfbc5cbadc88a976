# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The sentences of the channels, the flight-mode switch and the switch step, for every view.

A channel's role and range (CH1-CH5 and those beyond, with their auxiliary function and the
switch position ArduPilot reads), the mode switch's reading with the mode the vehicle reports,
what the switch step asks and has seen, and each visited slot with what the vehicle did: worded
once for the Tk view, the terminal view, the report and the verdict.  Pure functions of snapshot
fields, through `_()`.
"""

from __future__ import annotations

from .... import _
from ..evidence import FLIGHT_MODE_ROLE
from ..modes import IDLE_S, NEAR_BAND_END_US
from ..snapshot import (
    ChannelEvidence,
    ExtraChannel,
    FlightModeReading,
    ModeOutcome,
    ModeSlotVisit,
    SwitchPosition,
    SwitchPrompt,
)


def role_label(role: str | None) -> str:
    """The role's name as a person reads it."""
    labels = {
        "roll": _("Roll"),
        "pitch": _("Pitch"),
        "throttle": _("Throttle"),
        "collective": _("Collective"),
        "yaw": _("Yaw"),
        "steering": _("Steering"),
        FLIGHT_MODE_ROLE: _("Flight mode"),
    }
    return labels.get(role or "", "")


def channel_role_text(channel: ChannelEvidence | None) -> str:
    if channel is None or channel.role is None:
        return ""
    return role_label(channel.role)


def channel_span_text(channel: ChannelEvidence | None) -> str:
    """The range a channel covered and whether it counts as moved."""
    if channel is None or channel.min_us is None or channel.max_us is None:
        return ""
    if channel.moved:
        return _("moved {low}–{high}").format(low=channel.min_us, high=channel.max_us)
    return _("span {span} µs").format(span=channel.span_us)


def switch_position_label(position: SwitchPosition | None) -> str:
    """The auxiliary switch position ArduPilot reads, in words ("" when it reads none)."""
    labels = {
        SwitchPosition.LOW: _("low"),
        SwitchPosition.MIDDLE: _("middle"),
        SwitchPosition.HIGH: _("high"),
    }
    return "" if position is None else labels[position]


def option_function_text(channel: ExtraChannel) -> str:
    """The channel's ``RCn_OPTION`` by ArduPilot's name, else its number ("" when it has none)."""
    if channel.option is None:
        return ""
    return channel.function or _("option {number}").format(number=channel.option)


def extra_channel_role_text(channel: ExtraChannel) -> str:
    """What a channel beyond CH5 does: its stick or mode role, its auxiliary function, or both."""
    role = role_label(channel.role)
    function = option_function_text(channel)
    if role and function:
        return _("{role} + {function}").format(role=role, function=function)
    return role or function or _("no function")


def extra_channel_span_text(channel: ExtraChannel) -> str:
    return "" if channel.span_us is None else _("span {span} µs").format(span=channel.span_us)


def flight_mode_text(reading: FlightModeReading | None) -> str:
    if reading is None:
        return ""
    if reading.slot is None:
        return _("Flight mode channel CH{channel}: no valid position").format(channel=reading.channel)
    mode = reading.mode_name or (
        _("mode {number}").format(number=reading.mode_number)
        if reading.mode_number is not None
        else _("unknown")
    )
    text = _("Flight mode channel CH{channel}: {pwm} µs, slot {slot}: {mode}").format(
        channel=reading.channel, pwm=reading.pwm, slot=reading.slot, mode=mode
    )
    if reading.channel_is_default:
        text += " " + _("(default channel)")
    if reading.reported_mode_number is not None:
        text += "; " + _("the flight controller reports {mode}").format(
            mode=reading.reported_mode_name or _("mode {number}").format(number=reading.reported_mode_number)
        )
    if reading.near_band_end is not None:
        text += " " + _("(within {near} µs of the band end at {end} µs)").format(
            near=NEAR_BAND_END_US, end=reading.near_band_end
        )
    return text


def _channel_list(channels: tuple[int, ...]) -> str:
    return ", ".join(f"CH{channel}" for channel in channels)


def switch_instruction(prompt: SwitchPrompt) -> str:
    """The switch step: what is asked of the person (or what the program does), and what was seen."""
    parts = []
    if prompt.by_program:
        if prompt.mode_channel is not None:
            parts.append(
                _("The program moves its mode switch (CH{channel}) through the six slots.").format(
                    channel=prompt.mode_channel
                )
            )
        if prompt.aux_channels:
            parts.append(
                _("It flips each aux switch once: {channels}.").format(
                    channels=_channel_list(prompt.aux_channels)
                )
            )
    else:
        if prompt.mode_channel is not None:
            parts.append(
                _("Flip the mode switch (CH{channel}) through all its positions.").format(
                    channel=prompt.mode_channel
                )
            )
        if prompt.aux_channels:
            parts.append(
                _("Flip each aux switch once: {channels}.").format(
                    channels=_channel_list(prompt.aux_channels)
                )
            )
        parts.append(
            _("The test goes on once all were seen, or {seconds:g} s after the last change.").format(
                seconds=IDLE_S
            )
        )
    if prompt.mode_channel is not None:
        seen = ", ".join(str(slot) for slot in prompt.slots_seen) or _("none")
        parts.append(_("Slots seen: {slots}.").format(slots=seen))
    if prompt.aux_channels:
        flipped = _channel_list(prompt.aux_flipped) or _("none")
        parts.append(_("Aux switches flipped: {channels}.").format(channels=flipped))
    return " ".join(parts)


def mode_outcome_label(outcome: ModeOutcome) -> str:
    labels = {
        ModeOutcome.ENTERED: _("entered"),
        ModeOutcome.REFUSED: _("not entered"),
        ModeOutcome.UNCONFIRMED: _("not confirmed"),
    }
    return labels[outcome]


def mode_slot_text(visit: ModeSlotVisit) -> str:
    """One visited slot: its mode and what the vehicle did (e.g. "slot 3 LOITER: entered")."""
    mode = visit.mode_name or (
        _("mode {number}").format(number=visit.mode_number) if visit.mode_number is not None else _("unknown")
    )
    return _("slot {slot} {mode}: {outcome}").format(
        slot=visit.slot, mode=mode, outcome=mode_outcome_label(visit.outcome)
    )


def mode_slots_text(slots: tuple[ModeSlotVisit, ...]) -> str:
    """The slots visited during the test, for the verdict and the views; empty when none."""
    if not slots:
        return ""
    ordered = sorted(slots, key=lambda visit: visit.slot)
    return _("Mode switch: {slots}.").format(slots="; ".join(mode_slot_text(visit) for visit in ordered))
