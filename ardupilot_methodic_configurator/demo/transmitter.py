# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A simulated RC transmitter whose sticks are a pure function of physics time.

Channel values are computed from the time the physics back end is simulating, so the same frame
always yields the same sticks and tests are deterministic; only a pilot script standing for a
person (`Transmitter.play_script` with a clock) keeps that person's wall clock.  The
only mutable state is the on/off switch and the stick held for the check's stick step, guarded by
a lock because a UI thread sets them while the back end thread reads them.

Like a real transmitter's model memory, a `StickLayout` says which channel each stick goes out on
(the channel order, "AETR" by default: aileron, elevator, throttle, rudder on CH1-CH4) and which
sticks it reverses.  Set up right, it follows ArduPilot's convention: roll right, throttle up and
yaw right raise the PWM, pitch forward lowers it.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

PWM_MIN = 1000
PWM_MAX = 2000
PWM_MID = 1500
# The four sticks, by the RCMAP_* name of each, and the letter a channel order gives each.
STICK_AXES = ("roll", "pitch", "throttle", "yaw")
_ORDER_LETTERS = {"A": "roll", "E": "pitch", "T": "throttle", "R": "yaw"}
# Each stick pushed the way the check's stick step asks (roll right, pitch forward, throttle up,
# yaw right), on a transmitter set up the way ArduPilot expects.
_PUSHED_PWM = {"roll": PWM_MAX, "pitch": PWM_MIN, "throttle": PWM_MAX, "yaw": PWM_MAX}


@dataclass(frozen=True)
class StickLayout:
    """Which channel each stick goes out on (``order``, e.g. "AETR" or "TAER") and which are reversed."""

    order: str = "AETR"
    reversed: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if sorted(self.order.upper()) != sorted(_ORDER_LETTERS):
            raise ValueError(f"a channel order names A, E, T and R once each, got {self.order!r}")
        unknown = set(self.reversed) - set(STICK_AXES)
        if unknown:
            raise ValueError(f"unknown stick {sorted(unknown)[0]!r}; the sticks are {', '.join(STICK_AXES)}")

    def index(self, axis: str) -> int:
        """The 0-based channel ``axis`` goes out on."""
        return [_ORDER_LETTERS[letter] for letter in self.order.upper()].index(axis)

    def output(self, axis: str, pwm: int) -> int:
        """What the transmitter sends for a stick at ``pwm`` as set up right: mirrored if reversed."""
        return 2 * PWM_MID - pwm if axis in self.reversed else pwm


# A pilot script rests every stick this long, then pushes the next one for the other time.
SCRIPT_REST_S = 1.0
SCRIPT_PUSH_S = 1.2


@dataclass(frozen=True)
class _Script:
    axes: tuple[str, ...]
    throttle_centres: bool
    # A person's hand keeps the wall clock, not the simulation's (which falls behind on a busy
    # machine and would hold a stick longer than the person does).
    clock: Callable[[], float] | None = None


@dataclass(frozen=True)
class _Hold:
    axis: str | None
    pushed: bool
    throttle_centres: bool


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
        layout: StickLayout | None = None,
    ) -> None:
        if not 5 <= channel_count <= 12:
            raise ValueError(f"channel_count must be 5..12 (SITL JSON has rc_1..rc_12), got {channel_count}")
        if switch_period_s <= 0:
            raise ValueError(f"switch_period_s must be positive, got {switch_period_s}")
        self._channel_count = channel_count
        self._switch_period_s = switch_period_s
        self._sticks = sticks
        self._layout = layout if layout is not None else StickLayout()
        self._lock = threading.Lock()
        self._on = on
        self._hold: _Hold | None = None
        self._script: _Script | None = None
        # Switches held where a program put them (1-based channel -> PWM), over sweeps and sticks.
        self._switch_holds: dict[int, int] = {}

    @property
    def layout(self) -> StickLayout:
        return self._layout

    def hold_sticks(self, axis: str | None, *, pushed: bool = False, throttle_centres: bool = False) -> None:
        """Rest every stick (centred, the throttle down or, for a rover, centred), ``axis`` pushed
        the stick step's way once ``pushed``; the switch stays put.  `release_sticks` ends it."""
        if axis is not None and axis not in STICK_AXES:
            raise ValueError(f"unknown stick {axis!r}; the sticks are {', '.join(STICK_AXES)}")
        with self._lock:
            self._hold = _Hold(axis, pushed, throttle_centres)

    def release_sticks(self) -> None:
        """Back to the sweeps (or the pilot script)."""
        with self._lock:
            self._hold = None

    def hold_switch(self, channel: int, pwm: int) -> None:
        """Hold the switch on ``channel`` (1-based) at ``pwm`` until `release_switches`; the
        sticks and the other switches go on as they were."""
        if not 1 <= channel <= self._channel_count:
            raise ValueError(f"channel {channel} is outside 1..{self._channel_count}")
        with self._lock:
            self._switch_holds[channel] = int(pwm)

    def release_switches(self) -> None:
        with self._lock:
            self._switch_holds.clear()

    def play_script(
        self,
        axes: tuple[str, ...],
        *,
        throttle_centres: bool = False,
        clock: Callable[[], float] | None = None,
    ) -> None:
        """Instead of the sweeps, a pilot who pushes one stick after the other, the way a receiver
        check's stick step asks for them in ``axes``: every stick at rest for ``SCRIPT_REST_S``,
        then the next one pushed for ``SCRIPT_PUSH_S``, over and over; the switch stays put.  The
        pilot keeps ``clock`` if given, else the simulation's time."""
        unknown = set(axes) - set(STICK_AXES)
        if unknown:
            raise ValueError(f"unknown stick {sorted(unknown)[0]!r}; the sticks are {', '.join(STICK_AXES)}")
        with self._lock:
            self._script = _Script(tuple(axes), throttle_centres, clock) if axes else None

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
        with self._lock:
            hold, script = self._hold, self._script
            switches = tuple(self._switch_holds.items())
        if hold is None and script is not None:
            hold = _scripted_hold(script, t)
        if hold is None:
            sweeps = [stick.pwm(t) for stick in self._sticks[:4]]
            positions = dict(zip(STICK_AXES, sweeps + [PWM_MID] * (4 - len(sweeps)), strict=True))
            # The switch holds each position for half a period, starting low.
            switch = SWITCH_HIGH if math.floor(2.0 * t / self._switch_period_s) % 2 else SWITCH_LOW
        else:
            positions = dict.fromkeys(STICK_AXES, PWM_MID)
            if not hold.throttle_centres:
                positions["throttle"] = PWM_MIN
            if hold.axis is not None and hold.pushed:
                positions[hold.axis] = _PUSHED_PWM[hold.axis]
            switch = SWITCH_LOW
        values = [PWM_MID] * 4
        for axis, pwm in positions.items():
            values[self._layout.index(axis)] = self._layout.output(axis, pwm)
        values.append(switch)
        values.extend(PWM_MID for _ in range(self._channel_count - len(values)))
        for channel, pwm in switches:
            values[channel - 1] = pwm
        return tuple(values)


def _scripted_hold(script: _Script, t: float) -> _Hold:
    """Where the pilot script has the sticks at time ``t``."""
    if script.clock is not None:
        t = script.clock()
    turn = SCRIPT_REST_S + SCRIPT_PUSH_S
    index, within = divmod(t % (turn * len(script.axes)), turn)
    return _Hold(script.axes[int(index)], within >= SCRIPT_REST_S, script.throttle_centres)
