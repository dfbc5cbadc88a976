# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Channel roles and movement: which input is a stick or the mode switch, and did it move?

The roles come from the vehicle's own parameters (``RCMAP_*`` and the flight-mode channel), the
range each channel covered from every RC_CHANNELS of the test.  A channel "moved" once the
distance between the lowest and highest PWM seen reaches ``MOVED_SPAN_US``: big enough that a
noisy or trimmed stick at rest never counts, small enough for the travel of any transmitter before
RC calibration.  Values read while RC failsafe is active are held values, not input, so they never
widen a range.  Memory is bounded by the 16 RC input channels ArduPilot has.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .. import _
from .rc_receiver_check_state import ChannelEvidence, FlightModeReading
from .rc_receiver_vehicle import (
    MAX_RC_CHANNEL,
    FamilyParameters,
    VehicleFamily,
    family_parameters,
    mode_channel,
    mode_name,
    mode_slot,
    stick_channels,
)

MOVED_SPAN_US = 400
_PWM_NO_VALUE = (0, 65535)

# RCMAP parameter -> role key, per family (Rover steers with the roll channel).
_ROLES: dict[str, str] = {
    "RCMAP_ROLL": "roll",
    "RCMAP_PITCH": "pitch",
    "RCMAP_THROTTLE": "throttle",
    "RCMAP_YAW": "yaw",
}
_ROVER_ROLES: dict[str, str] = {"RCMAP_ROLL": "steering", "RCMAP_THROTTLE": "throttle"}
FLIGHT_MODE_ROLE = "flight_mode"


def role_label(role: str | None) -> str:
    """The role's name as a person reads it."""
    labels = {
        "roll": _("Roll"),
        "pitch": _("Pitch"),
        "throttle": _("Throttle"),
        "yaw": _("Yaw"),
        "steering": _("Steering"),
        FLIGHT_MODE_ROLE: _("Flight mode"),
    }
    return labels.get(role or "", "")


def channel_roles(family: VehicleFamily, values: Mapping[str, float]) -> dict[int, str]:
    """Channel number -> role for the sticks and the flight-mode channel of ``family``."""
    known = dict(values)
    table = _ROVER_ROLES if family is VehicleFamily.ROVER else _ROLES
    roles = {number: table[name] for number, name in stick_channels(family, known).items() if name in table}
    channel = mode_channel(family, known)
    if channel is not None:
        roles.setdefault(channel, FLIGHT_MODE_ROLE)
    return roles


class ChannelSpans:
    """Lowest, highest and latest PWM of each RC input channel during one test."""

    def __init__(self) -> None:
        self._last: dict[int, int] = {}
        self._min: dict[int, int] = {}
        self._max: dict[int, int] = {}
        # Grows whenever a value changes, so `evidence` is rebuilt only when it would differ.
        self.version = 0
        self._evidence: tuple[int, dict[int, str], tuple[ChannelEvidence, ...]] | None = None
        # The previous RC_CHANNELS: a receiver at rest repeats it, and a repeat changes nothing.
        self._previous: tuple[int, tuple[int, ...], bool] | None = None

    def observe(self, chancount: int, raw_pwm: Sequence[int], *, live: bool) -> None:
        """Take one RC_CHANNELS; ``live`` is False while RC failsafe holds the values."""
        reading = (chancount, tuple(raw_pwm))
        previous = self._previous
        if previous is not None and previous[:2] == reading and (previous[2] or not live):
            return  # the latest values are these already and, if live, within the spans
        self._previous = (*reading, live)
        last, lowest, highest = self._last, self._min, self._max
        for index in range(min(chancount, MAX_RC_CHANNEL, len(raw_pwm))):
            value = int(raw_pwm[index])
            if value in _PWM_NO_VALUE:
                continue
            number = index + 1
            if last.get(number) != value:
                last[number] = value
                self.version += 1
            if live:
                low, high = lowest.get(number), highest.get(number)
                if low is None or value < low:
                    lowest[number] = value
                    self.version += 1
                if high is None or value > high:
                    highest[number] = value
                    self.version += 1

    def last(self, number: int) -> int | None:
        return self._last.get(number)

    def lowest(self, number: int) -> int | None:
        return self._min.get(number)

    def restart(self) -> None:
        self._last.clear()
        self._min.clear()
        self._max.clear()
        self._previous = None
        self.version += 1

    def evidence(self, roles: Mapping[int, str]) -> tuple[ChannelEvidence, ...]:
        """Every channel seen or given a role, in channel order."""
        memo = self._evidence
        if memo is not None and memo[0] == self.version and memo[1] == roles:
            return memo[2]
        evidence = self._build_evidence(roles)
        self._evidence = (self.version, dict(roles), evidence)
        return evidence

    def _build_evidence(self, roles: Mapping[int, str]) -> tuple[ChannelEvidence, ...]:
        numbers = sorted(set(self._last) | set(roles))
        result = []
        for number in numbers:
            low, high = self._min.get(number), self._max.get(number)
            role = roles.get(number)
            result.append(
                ChannelEvidence(
                    number=number,
                    role=role,
                    last_us=self._last.get(number),
                    min_us=low,
                    max_us=high,
                    moved=low is not None and high is not None and high - low >= MOVED_SPAN_US,
                    is_stick=role is not None and role != FLIGHT_MODE_ROLE,
                )
            )
        return tuple(result)


def flight_mode_reading(
    family: VehicleFamily, values: Mapping[str, float], pwm_of: Mapping[int, int]
) -> FlightModeReading | None:
    """The mode channel, its PWM, the slot it selects and that slot's mode for ``family``."""
    table: FamilyParameters | None = family_parameters(family)
    channel = mode_channel(family, dict(values))
    if table is None or channel is None:
        return None
    pwm = pwm_of.get(channel)
    slot = mode_slot(pwm)
    number = values.get(f"{table.mode_slot_prefix}{slot}") if slot is not None else None
    return FlightModeReading(
        channel=channel,
        pwm=pwm,
        slot=slot,
        mode_number=None if number is None else int(number),
        mode_name=mode_name(family, number),
        channel_is_default=table.mode_channel not in values,
    )
