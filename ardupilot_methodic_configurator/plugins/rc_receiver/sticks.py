# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The stick step: one stick at a time, which channel moved and which way it went.

The step asks for the vehicle's sticks one after the other ("push the pitch stick fully forward
and hold it"), a non-centring throttle first, and watches every input channel.  Each channel is
either near the centre or at least ``MOVED_US`` below or above it; where it has stayed for
``REST_S`` is where it rests.  A centring stick (roll, pitch, yaw, steering, a rover's throttle)
is the channel that rested near the centre since the stick was asked for and went to an end; a
copter's or plane's throttle is the channel that rested at one end for ``THROTTLE_REST_S`` and
went to the other (a reversed one idles at the upper end).  The channel must stay there for
``HOLD_S``; nothing of the kind within ``STICK_TIMEOUT_S`` is "no movement".  A stick still held
from the previous request, or let go of, is not taken for the one asked now: letting go brings a
centring stick back to the centre, and a throttle falls to its end through the centre without
resting; a throttle only held up for a moment does not rest there, so lowering it again is not a
reversed push.  A program that rests its sticks before each push needs only ``REST_S``.

A channel that already answered an earlier stick of this test is the wrong stick pushed (roll again
when yaw is asked for), not this one's answer: the step keeps waiting for the stick asked for.
Only if nothing else moved by the timeout is that channel this stick's answer too (one channel
driven by two sticks, a mixer set up wrong), so the verdict still names it.

What the observation means is decided afterwards, from the parameters known then (they may be
read after the user moved the stick): the channel ``RCMAP_*`` names, and ArduPilot's convention
for the raw input it reports in RC_CHANNELS, before ``RCn_REVERSED``: roll right, throttle up and
yaw right (a rover's steering right and throttle forward) raise the PWM, pitch forward lowers it.
``RCn_REVERSED`` = 1 turns the expected direction round.

Pure logic on the caller's clock; a program-owned transmitter (demo, SITL) is told which stick
to push through `StickTest.wanted`, and rests them all for ``SETTLE_S`` first, and longer (up to
``REST_WAIT_S`` more) until the check has seen every channel rest where it is.  The step begins
with the first channel values: before RC_CHANNELS arrives (or while a receiver is not yet
decoded) nothing can rest or move, and a push made then would start from no rest at all.

A rest is seen in two readings of the receiver at least ``REST_S`` apart, and a hold in two at
least ``HOLD_S`` apart, on the vehicle's clock (a telemetry radio delays readings by varying
amounts, and a stalled link delivers them in a burst), not in one reading that
the polls keep showing: a stream at 1 Hz (the rate a vehicle falls back to after a reconnection)
would otherwise make a single stale value, sent before the transmitter's new position reached the
flight controller, a rest, and the stick's way back from it a reversed push.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ... import _
from .evidence import stick_role
from .firmware import RCMAP_DEFAULTS, VehicleFamily, centring, family_parameters, stick_channel
from .snapshot import Finding, Severity, StickOutcome, StickPrompt, StickResult
from .wording import stick_action, stick_name

MID_US = 1500
# Far enough from both the value before the push and the centre to be a stick at its end.
MOVED_US = 200
HOLD_S = 0.5
REST_S = 0.3
THROTTLE_REST_S = 1.5
STICK_TIMEOUT_S = 20.0
# A program-owned transmitter rests every stick this long before it pushes the next one.
SETTLE_S = 0.6
# ... and at most this much longer while a channel the check sees has not rested yet (values that
# reach the check late); a switch channel that never keeps still must not hold the step for ever.
REST_WAIT_S = 3.0
# Roll right, pitch forward, throttle up, yaw right: does the raw PWM go up?
PUSH_RAISES_PWM: dict[str, bool] = {"roll": True, "pitch": False, "throttle": True, "yaw": True}
# RCMAP_ROLL -> "roll"
_AXIS_OF_PARAMETER = {name: name.removeprefix("RCMAP_").lower() for name in RCMAP_DEFAULTS}


# Readings kept for the stick step between two snapshots: 12 s of a 5 Hz stream that changes
# every time (a poll normally brings one or two).
MAX_UNSEEN_READINGS = 60


class UnseenReadings:
    """The RC_CHANNELS the stick step has not seen yet, oldest first: a busy check polls seldom,
    and a push held long enough may come and go between two polls.  A run of repeats is kept as
    its first reading and its latest: only the time moves on (a stick held, or at rest, until
    then).  Kept as the message's raw values, turned into channel numbers only in the stick step."""

    def __init__(self) -> None:
        self._readings: deque[tuple[float, int, Sequence[int]]] = deque(maxlen=MAX_UNSEEN_READINGS)
        # Whether the newest entry stands for the repeats that came after a change.
        self._run_kept = False

    def add(self, sent_at: float, chancount: int, raw_pwm: Sequence[int], *, repeat: bool) -> None:
        readings = self._readings
        if not repeat or not self._run_kept:
            readings.append((sent_at, chancount, raw_pwm))
            self._run_kept = repeat
        else:
            readings[-1] = (sent_at, chancount, raw_pwm)

    def all(self) -> tuple[tuple[float, int, Sequence[int]], ...]:
        """Each as (when sent, chancount, the raw values): `reading_pwm` makes channel numbers of
        them, only when the stick step looks."""
        return tuple(self._readings)

    def clear(self) -> None:
        self._readings.clear()
        self._run_kept = False


def stick_axes(family: VehicleFamily) -> tuple[str, ...]:
    """The sticks of ``family`` in the order the step asks for them: a throttle that rests at an
    end first, so that it is down before any centring stick is asked for."""
    table = family_parameters(family)
    names = table.sticks if table is not None else tuple(RCMAP_DEFAULTS)
    axes = [_AXIS_OF_PARAMETER[name] for name in names]
    return tuple(sorted(axes, key=lambda axis: centring(family, axis)))


def axis_parameter(axis: str) -> str:
    return f"RCMAP_{axis.upper()}"


@dataclass(frozen=True)
class StickObservation:
    """What happened when one stick was asked for; no channel and not skipped: nothing moved."""

    axis: str
    moved_channel: int | None = None
    rest_us: int | None = None
    end_us: int | None = None
    skipped: bool = False
    at: float | None = None


_LOW, _CENTRE, _HIGH = -1, 0, 1


def _zone(value: int) -> int:
    if value >= MID_US + MOVED_US:
        return _HIGH
    if value <= MID_US - MOVED_US:
        return _LOW
    return _CENTRE


@dataclass
class _Channel:
    """Which zone one channel is in and since when, and where it rested in each zone since the
    stick was asked for."""

    zone: int
    since: float
    rested: dict[int, int]


@dataclass
class _Candidate:
    channel: int
    rest_us: int
    raised: bool
    since: float
    end_us: int


def _pushed(candidate: _Candidate | None, number: int, rest: int, value: int, read_at: float) -> _Candidate:
    """The push ``candidate`` followed by one more reading, ``number`` at ``value``: the same push,
    its end moved on, or a new one from ``read_at`` (another channel, or the other way)."""
    raised = value > rest
    if candidate is None or candidate.channel != number or candidate.raised != raised:
        return _Candidate(number, rest, raised, read_at, value)
    candidate.end_us = max(candidate.end_us, value) if raised else min(candidate.end_us, value)
    return candidate


class StickTest:
    """The observations of one stick step, fed the latest PWM of every channel on each update."""

    def __init__(self) -> None:
        self._observations: dict[str, StickObservation] = {}
        self._asked_at: float | None = None
        self._watching_since: float | None = None
        self._channels: dict[int, _Channel] = {}
        self._candidate: _Candidate | None = None
        # A hold of a channel that answered an earlier stick: this stick's answer only at the timeout.
        self._taken_candidate: _Candidate | None = None
        self._taken_hold: StickObservation | None = None
        # How long a channel must stay in a zone to rest there, for the stick asked for now.
        self._rest_s = REST_S
        # When `update` could next change anything with the same values (`next_change_at`).
        self._next_change: float | None = -math.inf
        # Grows with every change the snapshot shows (a stick answered, a program push begun).
        self.version = 0

    def restart(self) -> None:
        self._next_change = -math.inf
        self._observations.clear()
        self._channels.clear()
        self._start_over()
        self.version += 1

    def _start_over(self) -> None:
        """Ask for the next stick: where the channels rested before no longer counts, how long
        each has been in its zone does."""
        self._asked_at = None
        self._watching_since = None
        for channel in self._channels.values():
            channel.rested.clear()
        self._candidate = None
        self._taken_candidate = None
        self._taken_hold = None

    def pause(self) -> None:
        """Telemetry stopped: the current stick is asked for again once it is back."""
        self._next_change = -math.inf
        self._channels.clear()
        if self._asked_at is not None:
            self._start_over()
            self.version += 1

    def observations(self) -> Mapping[str, StickObservation]:
        return dict(self._observations)

    def current(self, axes: tuple[str, ...]) -> str | None:
        for axis in axes:
            if axis not in self._observations:
                return axis
        return None

    def done(self, axes: tuple[str, ...]) -> bool:
        return self.current(axes) is None

    def prompt(self, axes: tuple[str, ...], *, by_program: bool) -> StickPrompt | None:
        axis = self.current(axes)
        if axis is None:
            return None
        pushed = not by_program or self._watching_since is not None
        return StickPrompt(axis, axes.index(axis) + 1, len(axes), by_program, pushed)

    def wanted(self, axes: tuple[str, ...]) -> tuple[str, bool] | None:
        """For a program-owned transmitter: the stick to move and whether to push it now."""
        axis = self.current(axes)
        if axis is None:
            return None
        return axis, self._watching_since is not None

    def next_change_at(self) -> float | None:
        """The earliest time at which `update` with the same channel values could change anything:
        a settle, a rest, a hold or the timeout running out; None when nothing is asked for."""
        return self._next_change

    def _find_next_change(self, axes: tuple[str, ...], by_program: bool) -> float | None:
        if self.current(axes) is None:
            return None
        asked_at, watching = self._asked_at, self._watching_since
        if asked_at is None:
            return -math.inf
        if watching is None and not by_program:
            return -math.inf
        unrested = self._rest_deadlines()
        if watching is None:
            if not unrested:
                return asked_at + SETTLE_S
            return max(asked_at + SETTLE_S, min(*unrested, asked_at + SETTLE_S + REST_WAIT_S))
        times = [watching + STICK_TIMEOUT_S, *unrested]
        if self._candidate is not None:
            times.append(self._candidate.since + HOLD_S)
        return min(times)

    def _rest_deadlines(self) -> list[float]:
        """When each channel not yet resting in its zone will have rested there."""
        return [
            channel.since + self._rest_s
            for channel in self._channels.values()
            if channel.zone not in channel.rested
        ]

    def skip(self, axes: tuple[str, ...], now: float) -> None:
        axis = self.current(axes)
        if axis is not None:
            self._record(StickObservation(axis, skipped=True, at=now))

    def update(
        self,
        now: float,
        axes: tuple[str, ...],
        pwm: Mapping[int, int],
        *,
        by_program: bool,
        family: VehicleFamily = VehicleFamily.UNKNOWN,
        read_at: float | None = None,
    ) -> None:
        """``pwm`` is the newest reading of the receiver, taken at ``read_at`` (``now`` if None)."""
        try:
            self._update(now, axes, pwm, by_program, family, read_at=now if read_at is None else read_at)
        finally:
            self._next_change = self._find_next_change(axes, by_program)

    def _update(
        self,
        now: float,
        axes: tuple[str, ...],
        pwm: Mapping[int, int],
        by_program: bool,
        family: VehicleFamily,
        *,
        read_at: float,
    ) -> None:
        axis = self.current(axes)
        if axis is None or not pwm:
            return
        if self._asked_at is None:
            self._asked_at = now
            self.version += 1
        centres = centring(family, axis)
        self._rest_s = REST_S if by_program or centres else THROTTLE_REST_S
        self._remember(read_at, pwm, self._rest_s)
        if self._watching_since is None:
            if by_program and not self._program_may_push(now):
                return
            self._watching_since = now
            self.version += 1
        self._follow(now, read_at, axis, pwm, centres)

    def _program_may_push(self, now: float) -> bool:
        asked_at = self._asked_at
        assert asked_at is not None
        if now < asked_at + SETTLE_S:
            return False
        if now >= asked_at + SETTLE_S + REST_WAIT_S:
            return True
        return not self._rest_deadlines()

    def _remember(self, read_at: float, pwm: Mapping[int, int], rest_s: float) -> None:
        for number, value in pwm.items():
            zone = _zone(value)
            channel = self._channels.get(number)
            if channel is None:
                channel = self._channels[number] = _Channel(zone, read_at, {})
            elif channel.zone != zone:
                channel.zone, channel.since = zone, read_at
            if read_at - channel.since >= rest_s:
                channel.rested[zone] = value

    def _follow(self, now: float, read_at: float, axis: str, pwm: Mapping[int, int], centres: bool) -> None:
        """Hold times run on the readings' clock, as rests do: a burst of delayed readings must not
        shorten a push the person held long enough."""
        taken = {
            observation.moved_channel
            for answered, observation in self._observations.items()
            if answered != axis and observation.moved_channel is not None
        }
        best = self._best_move(pwm, centres, taken)
        if best is None:
            self._candidate = None
            self._note_taken_hold(read_at, axis, pwm, centres)
            if self._watching_since is not None and now >= self._watching_since + STICK_TIMEOUT_S:
                self._record(self._taken_hold or StickObservation(axis, at=now))
            return
        number, rest = best
        candidate = self._candidate = _pushed(self._candidate, number, rest, pwm[number], read_at)
        if read_at >= candidate.since + HOLD_S:
            self._record(StickObservation(axis, number, candidate.rest_us, candidate.end_us, at=now))

    def _note_taken_hold(self, read_at: float, axis: str, pwm: Mapping[int, int], centres: bool) -> None:
        """Remember a hold of a channel that answered an earlier stick (see the module's words)."""
        if self._taken_hold is not None:
            return
        moved = self._best_move(pwm, centres, set())
        if moved is None:
            self._taken_candidate = None  # let go before it was held
            return
        number, rest = moved
        held = self._taken_candidate = _pushed(self._taken_candidate, number, rest, pwm[number], read_at)
        if read_at >= held.since + HOLD_S:
            self._taken_hold = StickObservation(axis, number, held.rest_us, held.end_us, at=read_at)

    def _best_move(self, pwm: Mapping[int, int], centres: bool, taken: set[int]) -> tuple[int, int] | None:
        """The channel at an end that moved there the most from where it rested, and that rest;
        none of the ``taken`` ones."""
        best: tuple[int, int] | None = None
        for number, value in pwm.items():
            zone = _zone(value)
            channel = self._channels.get(number)
            if zone == _CENTRE or channel is None or number in taken:
                continue
            start = channel.rested.get(_CENTRE if centres else -zone)
            if start is None or abs(value - start) < MOVED_US:
                continue
            if best is None or abs(value - start) > abs(pwm[best[0]] - best[1]):
                best = (number, start)
        return best

    def _record(self, observation: StickObservation) -> None:
        self._next_change = -math.inf
        self._observations[observation.axis] = observation
        self._start_over()
        self.version += 1


def judge_stick(
    axis: str, family: VehicleFamily, values: Mapping[str, float], observation: StickObservation | None
) -> StickResult:
    """What one observation means with the parameters known now."""
    parameter = axis_parameter(axis)
    channel = stick_channel(parameter, values)
    role = stick_role(family, parameter)
    if observation is None:
        return StickResult(axis, role, parameter, channel)
    if observation.skipped:
        return StickResult(axis, role, parameter, channel, StickOutcome.SKIPPED, at=observation.at)
    moved, rest, end = observation.moved_channel, observation.rest_us, observation.end_us
    if moved is None or rest is None or end is None:
        return StickResult(axis, role, parameter, channel, StickOutcome.NO_MOVEMENT, at=observation.at)
    reversed_value = values.get(f"RC{moved}_REVERSED")
    if moved != channel:
        outcome = StickOutcome.WRONG_CHANNEL
    else:
        expect_raise = PUSH_RAISES_PWM[axis] != (reversed_value == 1)
        outcome = StickOutcome.CORRECT if (end > rest) == expect_raise else StickOutcome.REVERSED
    return StickResult(
        axis, role, parameter, channel, outcome, moved, rest, end, reversed_value, observation.at
    )


def judge_sticks(
    family: VehicleFamily, values: Mapping[str, float], observations: Mapping[str, StickObservation]
) -> tuple[StickResult, ...]:
    return tuple(judge_stick(axis, family, values, observations.get(axis)) for axis in stick_axes(family))


def stick_findings(family: VehicleFamily, sticks: Iterable[StickResult]) -> Iterable[Finding]:
    """A reversed stick or one on the wrong channel fails the test; a stick that never moved warns."""
    for stick in sticks:
        name = stick_name(family, stick.axis)
        if stick.outcome is StickOutcome.REVERSED and stick.moved_channel is not None:
            yield _reversed_finding(family, stick, name)
        elif stick.outcome is StickOutcome.WRONG_CHANNEL and stick.moved_channel is not None:
            yield Finding(
                "stick_wrong_channel",
                Severity.BLOCKING,
                _(
                    "You moved the {stick} stick and CH{moved} moved, but {parameter} = {channel} makes "
                    "CH{channel} the {stick} channel."
                ).format(
                    stick=name, moved=stick.moved_channel, parameter=stick.parameter, channel=stick.channel
                ),
                _(
                    "Set the transmitter's channel order so that {stick} is on CH{channel} (ArduPilot's "
                    "default order is AETR: roll, pitch, throttle and yaw on CH1 to CH4), or set {parameter} "
                    "to {moved} and reboot the flight controller."
                ).format(
                    stick=name, channel=stick.channel, parameter=stick.parameter, moved=stick.moved_channel
                ),
                stick.parameter,
                float(stick.channel),
            )
        elif stick.outcome is StickOutcome.NO_MOVEMENT:
            yield Finding(
                "stick_not_moved",
                Severity.WARNING,
                _("No channel moved within {seconds:g} s of asking for the {stick} stick.").format(
                    seconds=STICK_TIMEOUT_S, stick=name
                ),
                _(
                    "Check that the transmitter sends this stick (its model's mixer and channel order) and "
                    "repeat the test."
                ),
                stick.parameter,
                float(stick.channel),
            )


def _reversed_finding(family: VehicleFamily, stick: StickResult, name: str) -> Finding:
    channel = stick.moved_channel
    reversed_name = f"RC{channel}_REVERSED"
    went_up = (stick.end_us or 0) > (stick.rest_us or 0)
    went = _("went up") if went_up else _("went down")
    expected = _("down") if went_up else _("up")
    flipped = 0 if stick.reversed_parameter == 1 else 1
    return Finding(
        "stick_reversed",
        Severity.BLOCKING,
        _(
            "You pushed the {stick} stick {direction} and CH{channel} {went} ({rest} → {end} µs): ArduPilot "
            "expects {expected} here. The {stick} input is reversed."
        ).format(
            stick=name,
            direction=stick_action(family, stick.axis),
            channel=channel,
            went=went,
            rest=stick.rest_us,
            end=stick.end_us,
            expected=expected,
        ),
        _(
            "Reverse CH{channel} in the transmitter (channel or servo reverse); only where the transmitter "
            "cannot, set {parameter} = {value}."
        ).format(channel=channel, parameter=reversed_name, value=flipped),
        reversed_name,
        stick.reversed_parameter,
    )
