# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A simulated RC transmitter whose sticks are a pure function of physics time.

Channel values are computed from the time the physics back end is simulating, never from a
wall clock, so the same frame always yields the same sticks and tests are deterministic.  The
only mutable state is the on/off switch, guarded by a lock because a UI thread flips it while
the back end thread reads it.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass

PWM_MIN = 1000
PWM_MAX = 2000
PWM_MID = 1500


@dataclass(frozen=True)
class StickSweep:
    """One stick moving as a sine wave: ``centre + amplitude * sin(2π t / period + phase)``."""

    period_s: float
    phase_rad: float = 0.0
    centre: int = PWM_MID
    amplitude: int = 400

    def pwm(self, t: float) -> int:
        value = self.centre + self.amplitude * math.sin(2.0 * math.pi * t / self.period_s + self.phase_rad)
        return max(PWM_MIN, min(PWM_MAX, round(value)))


# Different periods per stick make every channel visibly distinct in a bar display.
DEFAULT_STICKS: tuple[StickSweep, ...] = (
    StickSweep(period_s=4.0),  # CH1 roll
    StickSweep(period_s=5.0, phase_rad=math.pi / 2),  # CH2 pitch
    StickSweep(period_s=6.0, phase_rad=math.pi),  # CH3 throttle
    StickSweep(period_s=7.0, phase_rad=3 * math.pi / 2),  # CH4 yaw
)
SWITCH_LOW = 1100
SWITCH_HIGH = 1900


class Transmitter:
    """Animates CH1-CH4 as stick sweeps, CH5 as a two-position switch, CH6+ centred.

    ``channels(t)`` returns the PWM values (µs) for physics time ``t`` in seconds, or ``None``
    while the transmitter is switched off (the back end then omits the ``rc`` object, which is
    how ArduPilot SITL sees "no RC pulses").
    """

    def __init__(
        self,
        channel_count: int = 8,
        *,
        on: bool = True,
        switch_period_s: float = 4.0,
        sticks: tuple[StickSweep, ...] = DEFAULT_STICKS,
    ) -> None:
        if not 5 <= channel_count <= 12:
            raise ValueError(f"channel_count must be 5..12 (SITL JSON has rc_1..rc_12), got {channel_count}")
        if switch_period_s <= 0:
            raise ValueError(f"switch_period_s must be positive, got {switch_period_s}")
        self._channel_count = channel_count
        self._switch_period_s = switch_period_s
        self._sticks = sticks
        self._lock = threading.Lock()
        self._on = on

    @property
    def channel_count(self) -> int:
        return self._channel_count

    @property
    def on(self) -> bool:
        with self._lock:
            return self._on

    def set_on(self, on: bool) -> None:
        with self._lock:
            self._on = bool(on)

    def channels(self, t: float) -> tuple[int, ...] | None:
        if not self.on:
            return None
        return self.sticks_at(t)

    def sticks_at(self, t: float) -> tuple[int, ...]:
        """The stick positions at time ``t`` regardless of the on/off switch."""
        values = [stick.pwm(t) for stick in self._sticks[:4]]
        values.extend(PWM_MID for _ in range(4 - len(values)))
        # The switch holds each position for half a period, starting low.
        values.append(SWITCH_HIGH if math.floor(2.0 * t / self._switch_period_s) % 2 else SWITCH_LOW)
        values.extend(PWM_MID for _ in range(self._channel_count - len(values)))
        return tuple(values)
