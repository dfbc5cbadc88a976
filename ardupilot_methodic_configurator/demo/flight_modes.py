# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The simulated vehicle's flight mode, switched by its mode channel the way ArduPilot does.

ArduPilot reads the mode channel's raw PWM into six slots (below 1231 µs slot 1, then 1361, 1491,
1621, 1750), takes a new position once it held 200 ms, and asks for the slot's mode
(``FLTMODEn``, Rover ``MODEn``) only when the position changes.  A disarmed vehicle enters most
modes; the ones it refuses on the ground here are those seen refused by real SITL of
"V4.7.0-dev": Copter and Heli SMART_RTL, FLOWHOLD, FOLLOW and AUTO_RTL ("Mode change to SMARTRTL
failed: init failed"), Rover AUTO without a mission and SMART_RTL ("Flight mode change failed").
The vehicle then stays in its mode and reports it in HEARTBEAT.custom_mode.  Pure logic on the
caller's clock; the demo states these facts in its own words (it never imports the check).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

_SLOT_STARTS = (1231, 1361, 1491, 1621, 1750)
_VALID_ABOVE, _VALID_BELOW = 900, 2200
DEBOUNCE_S = 0.2


@dataclass(frozen=True)
class ModeRules:
    """One firmware's mode switch: its parameter names, the modes it refuses and what it says."""

    channel_parameter: str
    slot_prefix: str
    default_channel: int
    refused: dict[int, str]  # mode number -> the text ArduPilot sends when it refuses it
    start_mode: int = 0


_COPTER_REFUSED = {
    21: "Mode change to SMARTRTL failed: init failed",
    22: "Mode change to FLOWHOLD failed: init failed",
    23: "Mode change to FOLLOW failed: init failed",
    27: "Mode change to AUTO RTL failed: No return path or landing sequence found",
}
COPTER_MODES = ModeRules("FLTMODE_CH", "FLTMODE", 5, _COPTER_REFUSED)
# A plane without Q_ENABLE says so and stays where it is when asked for a QuadPlane mode.
PLANE_MODES = ModeRules("FLTMODE_CH", "FLTMODE", 8, dict.fromkeys(range(17, 24), "Q_ENABLE 0"))
ROVER_MODES = ModeRules(
    "MODE_CH", "MODE", 8, {10: "Flight mode change failed", 12: "Flight mode change failed"}
)


def six_position_slot(pwm: int) -> int | None:
    """The slot 1..6 ArduPilot reads from ``pwm``, None outside its valid range."""
    if not _VALID_ABOVE < pwm < _VALID_BELOW:
        return None
    return 1 + sum(1 for start in _SLOT_STARTS if pwm >= start)


class FlightModeSwitch:
    """The mode a vehicle is in, following its mode channel; ``parameter`` reads its values."""

    def __init__(self, rules: ModeRules, parameter: Callable[[str], float | None]) -> None:
        self._rules = rules
        self._parameter = parameter
        self.mode = rules.start_mode
        self._position: int | None = None
        self._pending: int | None = None
        self._pending_since = 0.0

    def on_input(self, channels: Sequence[int], now: float) -> str | None:
        """One frame of RC input; the refusal text when the switch asked for a mode it refuses."""
        value = self._parameter(self._rules.channel_parameter)
        channel = self._rules.default_channel if value is None else int(value)
        if not 1 <= channel <= len(channels):
            return None
        slot = six_position_slot(channels[channel - 1])
        if slot is None or slot == self._position:
            self._pending = None
            return None
        if slot != self._pending:
            self._pending, self._pending_since = slot, now
            return None
        if now - self._pending_since < DEBOUNCE_S:
            return None
        self._position, self._pending = slot, None
        wanted = self._parameter(f"{self._rules.slot_prefix}{slot}")
        if wanted is None:
            return None
        refusal = self._rules.refused.get(int(wanted))
        if refusal is None:
            self.mode = int(wanted)
        return refusal
