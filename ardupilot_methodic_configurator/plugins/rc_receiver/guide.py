# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The guided transmitter-off test: which step it is on.

On real hardware only the user can move the sticks and switch the transmitter, so the check asks
for each step (one stick at a time, see `rc_receiver.sticks`; "Switch the transmitter off now" ->
*It is off*, "Switch it back on" -> *It is on*) and times the flight controller's reaction from
the confirmation.  Where the program owns the transmitter (the demo, SITL) it moves its sticks and
switches it itself at the same steps, and times the reaction from the switch.  The failsafe must
come within the failsafe timeout plus ``FAILSAFE_MARGIN_S``; a failsafe that came shortly before
the user's confirmation (up to ``LATE_CONFIRMATION_S``) still counts, since people switch first
and click second.  "No failsafe" also waits until that much has passed on the vehicle's own clock
(``time_boot_ms`` of its RC_CHANNELS), up to ``SLOW_VEHICLE_FACTOR`` times as long: SITL on a
loaded machine runs slower than real time, and its failsafe timeout runs on its clock.

Evidence never skips a step.  A failsafe or recovery seen before the test asks for it (the
transmitter was still off when the check connected, and was switched on later) stays in the
timeline, but only what comes after the transmitter went off counts for the steps: the stick step
still runs (it waits while RC failsafe is active, since held values cannot move) and the off/on
cycle is still asked for.  A failsafe and a recovery count once they held for ``HOLD_S``: a
receiver health bit that flips on every message proves neither.

Pure logic on the caller's clock; what it keeps
is bounded.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .evidence import reading_pwm
from .firmware import VehicleFamily, mode_channel
from .modes import aux_switch_channels, slot_modes
from .snapshot import (
    FailsafeStatus,
    GuideState,
    GuideStep,
    TransmitterEvent,
)
from .sticks import StickObservation, StickTest
from .switches import SwitchHold, SwitchTest

# The keys a person answers the guided test with, in the terminal view and the window alike.
KEY_OFF, KEY_ON, KEY_SKIP, KEY_RESET = "o", "i", "s", "r"
FAILSAFE_MARGIN_S = 2.0
LATE_CONFIRMATION_S = 5.0
RECOVERY_WAIT_S = 10.0
# "No failsafe" waits for the vehicle's clock at most this many times the wait on ours.
SLOW_VEHICLE_FACTOR = 4.0
# A stick that still changes by this much after the transmitter went off is live input.
STILL_MOVING_US = 50
# The receiver may need a moment to notice the transmitter is gone before its output settles.
SETTLE_AFTER_OFF_S = 0.5
MAX_TRANSMITTER_EVENTS = 20
# A failsafe, or a recovery, is evidence once it held this long: longer than two SYS_STATUS
# periods at the 5 Hz the check asks for, so a bit flipping on every message never counts.
HOLD_S = 0.5


@dataclass(frozen=True)
class GuideInputs:
    """What the guide looks at on each update."""

    now: float
    telemetry_live: bool
    transitions: tuple[tuple[FailsafeStatus, float], ...]
    failsafe_timeout_s: float
    automatic: bool
    throttle_us: int | None = None
    stick_pwm: Mapping[int, int] | None = None
    # The latest PWM of every input channel, and the vehicle's sticks in the stick step's order.
    channel_pwm: Mapping[int, int] | None = None
    # When the vehicle sent the newest RC_CHANNELS (the values in ``channel_pwm``), its clock
    # mapped onto ours (when it was read, from a vehicle that keeps no time).
    channels_read_at: float | None = None
    # Every RC_CHANNELS since the last update, oldest first and the newest (``channel_pwm``) last,
    # a run of repeats as its first and latest (when sent, as ``channels_read_at``; chancount and
    # the raw values): the stick step sees each, not only the newest.  Empty when none came.
    new_readings: tuple[tuple[float, int, Sequence[int]], ...] = ()
    stick_axes: tuple[str, ...] = ()
    family: VehicleFamily = VehicleFamily.UNKNOWN
    # The program moves the transmitter's sticks itself (demo, SITL), with or without its switch.
    program_sticks: bool = False
    # The vehicle's own clock (time_boot_ms of its newest RC_CHANNELS) in seconds, once known.
    vehicle_clock_s: float | None = None
    # The flight controller reports RC failsafe now.
    failsafe_active: bool = False
    # For the switch step: the parameters known (the mode channel, FLTMODEn, RCn_OPTION) and the
    # number of channels the receiver delivers.
    values: Mapping[str, float] | None = None
    delivered: int | None = None


Transitions = tuple[tuple[FailsafeStatus, float], ...]


def _held(transitions: Transitions, index: int, now: float) -> bool:
    """Whether the status that began at ``transitions[index]`` lasted `HOLD_S` (up to ``now``)."""
    ends = transitions[index + 1][1] if index + 1 < len(transitions) else now
    return ends - transitions[index][1] >= HOLD_S


def first_failsafe_after(transitions: Transitions, start: float | None, now: float) -> float | None:
    """Time of the first failsafe that held, at or after ``start`` less the late-confirmation
    grace; ``None`` before ``start`` exists (nothing counts before the transmitter went off).

    One that began within the grace must still be active at ``start``: a failsafe that had
    already cleared when the transmitter was switched off is not this test's.
    """
    if start is None:
        return None
    earliest = start - LATE_CONFIRMATION_S
    for index, (status, at) in enumerate(transitions):
        if status is not FailsafeStatus.ACTIVE or at < earliest or not _held(transitions, index, now):
            continue
        cleared_before_start = index + 1 < len(transitions) and transitions[index + 1][1] < start
        if at < start and cleared_before_start:
            continue
        return at
    return None


def recovery_after(transitions: Transitions, failsafe_at: float, now: float) -> float | None:
    """Time of the first recovery after the failsafe at ``failsafe_at`` that held."""
    for index, (status, at) in enumerate(transitions):
        if status is FailsafeStatus.NOT_ACTIVE and at >= failsafe_at and _held(transitions, index, now):
            return at
    return None


class TransmitterGuide:
    """Keeps the transmitter switches of one test and works out the current step."""

    def __init__(self) -> None:
        self._events: deque[TransmitterEvent] = deque(maxlen=MAX_TRANSMITTER_EVENTS)
        self._off: TransmitterEvent | None = None
        self._on: TransmitterEvent | None = None
        self._throttle_while_off: int | None = None
        self._off_range: dict[int, tuple[int, int]] = {}
        # Telemetry was not live at some update after "off", before "no failsafe" was concluded.
        self._blind_while_off = False
        self._concluded_no_failsafe = False
        # The vehicle's clock at the first update after "off" (None: not yet, or it keeps none).
        self._off_vehicle_s: float | None = None
        self._state = GuideState()
        self._sticks = StickTest()
        self._switches = SwitchTest()
        self._axes: tuple[str, ...] = ()
        # Grows with every switch and restart: what `update` starts from changed.
        self.version = 0

    @property
    def events(self) -> tuple[TransmitterEvent, ...]:
        return tuple(self._events)

    def unchanged_at(self, now: float) -> bool:
        """Whether `update` with the same inputs at ``now`` gives what it gave last: the test is
        done, or it waits for nothing timed (nothing switched off; in the stick step, no settle,
        rest, hold or timeout ran out since)."""
        step = self._state.step
        if step is GuideStep.DONE:
            return True
        if self._off is not None:
            return False
        if step is GuideStep.FLIP_SWITCHES:
            change_at = self._switches.next_change_at()
            return change_at is None or now < change_at
        if step is not GuideStep.MOVE_STICKS:
            return True
        change_at = self._sticks.next_change_at()
        return change_at is None or now < change_at

    @property
    def stick_observations(self) -> Mapping[str, StickObservation]:
        return self._sticks.observations()

    @property
    def sticks_version(self) -> int:
        return self._sticks.version

    @property
    def switches(self) -> SwitchTest:
        """The switch step and the mode switch's evidence (fed message by message by the tracker)."""
        return self._switches

    @property
    def state(self) -> GuideState:
        return self._state

    def restart(self) -> None:
        self.version += 1
        self._events.clear()
        self._start_failsafe_part(None)
        self._sticks.restart()
        self._switches.restart()
        self._state = GuideState(automatic=self._state.automatic)

    def note_switch(self, on: bool, at: float, *, by_program: bool) -> None:
        """The transmitter went ``on`` or off at ``at``: switched by the program or confirmed."""
        event = TransmitterEvent(on, at, by_program)
        self.version += 1
        self._events.append(event)
        if on:
            self._on = event
        else:
            # A new "off" starts the failsafe part of the test again.
            self._start_failsafe_part(event)

    def _start_failsafe_part(self, off: TransmitterEvent | None) -> None:
        """The failsafe part of the test from its start: ``off`` the switch-off it begins with, if any."""
        self._off = off
        self._on = None
        self._throttle_while_off = None
        self._off_range.clear()
        self._blind_while_off = False
        self._concluded_no_failsafe = False
        self._off_vehicle_s = None

    def skip_stick(self, now: float) -> None:
        """The user passes over the stick asked for now; the verdict says it was not checked."""
        if self._state.step is GuideStep.MOVE_STICKS:
            self._sticks.skip(self._axes, now)
            self.version += 1
        elif self._state.step is GuideStep.FLIP_SWITCHES:
            self._switches.skip(now)
            self.version += 1

    def wanted_switch(self) -> SwitchHold | None:
        """For the program that owns the transmitter: the switch to hold now, if any."""
        return self._switches.wanted()

    def wanted_stick(self) -> tuple[str, bool] | None:
        """For the program that owns the transmitter: the stick to hold, and whether pushed yet."""
        if self._state.step is not GuideStep.MOVE_STICKS:
            return None
        return self._sticks.wanted(self._axes)

    def wanted_transmitter(self) -> bool | None:
        """For the program that owns the transmitter: the position the current step asks for."""
        step = self._state.step
        if step is GuideStep.SWITCH_OFF:
            return False
        if step is GuideStep.SWITCH_ON:
            return True
        return None

    def update(self, inputs: GuideInputs) -> GuideState:
        off, on = self._off, self._on
        self._axes = inputs.stick_axes
        sticks = self._sticks
        # RC failsafe before the stick step is over (the transmitter still off when the check
        # connected): the channels hold their last values, so the stick step waits.  Once the
        # sticks are done, a failsafe before "off" is a person who switched first and clicks next.
        failsafe_before_test = off is None and inputs.failsafe_active and not sticks.done(self._axes)
        if off is None and not sticks.done(self._axes):
            if inputs.telemetry_live and not failsafe_before_test:
                readings = (
                    ((sent_at, reading_pwm(count, raw)) for sent_at, count, raw in inputs.new_readings)
                    if inputs.new_readings
                    else ((inputs.channels_read_at, inputs.channel_pwm or {}),)
                )
                for read_at, pwm in readings:
                    sticks.update(
                        inputs.now,
                        self._axes,
                        pwm,
                        by_program=inputs.program_sticks,
                        family=inputs.family,
                        read_at=read_at,
                    )
            else:
                sticks.pause()
        switches = self._switches
        values = dict(inputs.values or {})
        mode_ch = mode_channel(inputs.family, values) if values else None
        # Only live readings are evidence: the last values kept after a lost link visit no slot.
        live_pwm = inputs.channel_pwm if inputs.telemetry_live else None
        switches.observe_pwm(None if mode_ch is None or not live_pwm else live_pwm.get(mode_ch), inputs.now)
        live = inputs.telemetry_live and not failsafe_before_test
        if off is None and live and sticks.done(self._axes) and not switches.done():
            switches.update(
                inputs.now,
                mode_ch,
                aux_switch_channels(inputs.family, values, inputs.delivered, mode_ch),
                inputs.channel_pwm or {},
                by_program=inputs.program_sticks,
                slot_modes=slot_modes(inputs.family, values),
            )
        failsafe_at = first_failsafe_after(inputs.transitions, None if off is None else off.at, inputs.now)
        wait_s = inputs.failsafe_timeout_s + FAILSAFE_MARGIN_S
        deadline = None if off is None else off.at + wait_s
        if off is not None and self._off_vehicle_s is None:
            self._off_vehicle_s = inputs.vehicle_clock_s
        recovered_at = (
            None if failsafe_at is None else recovery_after(inputs.transitions, failsafe_at, inputs.now)
        )
        if off is not None and failsafe_at is None:
            self._watch_while_off(inputs, off.at)
            if not inputs.telemetry_live and not self._concluded_no_failsafe:
                self._blind_while_off = True
        # "No failsafe came" is a conclusion from silence: only sound if the telemetry was live
        # until it was drawn (a link lost meanwhile, a reboot, proves nothing either way).
        # A failsafe reported but never held (a flipping health bit) is not "no failsafe" either:
        # the test waits rather than blame the receiver's failsafe setting.
        flapping = off is not None and any(
            status is FailsafeStatus.ACTIVE
            and at >= off.at - LATE_CONFIRMATION_S
            and not _held(inputs.transitions, index, inputs.now)
            for index, (status, at) in enumerate(inputs.transitions)
        )
        no_failsafe = (
            off is not None
            and failsafe_at is None
            and not flapping
            and deadline is not None
            and inputs.now > deadline
            and self._vehicle_waited(inputs, wait_s, deadline)
            and not self._blind_while_off
        )
        self._concluded_no_failsafe = self._concluded_no_failsafe or no_failsafe
        no_recovery = (
            on is not None
            and failsafe_at is not None
            and recovered_at is None
            and inputs.now > on.at + RECOVERY_WAIT_S
        )
        step = self._step(
            inputs,
            off,
            on,
            sticks_done=sticks.done(self._axes),
            switches_done=switches.done(),
            failsafe_at=failsafe_at,
            recovered=recovered_at is not None,
            no_failsafe=no_failsafe,
            no_recovery=no_recovery,
            failsafe_before_test=failsafe_before_test,
        )
        self._state = GuideState(
            step=step,
            automatic=inputs.automatic,
            off_at=None if off is None else off.at,
            off_by_program=off is not None and off.by_program,
            on_at=None if on is None else on.at,
            failsafe_deadline=deadline,
            failsafe_at=failsafe_at,
            recovered_at=recovered_at,
            failsafe_before_test=failsafe_before_test and inputs.telemetry_live,
            no_failsafe=no_failsafe,
            no_recovery=no_recovery,
            throttle_while_off_us=self._throttle_while_off,
            channels_moving_while_off=any(
                high - low >= STILL_MOVING_US for low, high in self._off_range.values()
            ),
            stick=sticks.prompt(self._axes, by_program=inputs.program_sticks)
            if step is GuideStep.MOVE_STICKS
            else None,
            switches=switches.prompt() if step is GuideStep.FLIP_SWITCHES else None,
        )
        return self._state

    def _vehicle_waited(self, inputs: GuideInputs, wait_s: float, deadline: float) -> bool:
        """Whether ``wait_s`` has passed since "off" on the vehicle's own clock too (or it keeps
        none, or ours has waited ``SLOW_VEHICLE_FACTOR`` times as long)."""
        start, latest = self._off_vehicle_s, inputs.vehicle_clock_s
        if start is None or latest is None or latest < start:
            return True
        return latest - start > wait_s or inputs.now > deadline + (SLOW_VEHICLE_FACTOR - 1.0) * wait_s

    def _watch_while_off(self, inputs: GuideInputs, off_at: float) -> None:
        if inputs.now < off_at + SETTLE_AFTER_OFF_S:
            return
        if inputs.throttle_us is not None:
            self._throttle_while_off = inputs.throttle_us
        for number, pwm in (inputs.stick_pwm or {}).items():
            low, high = self._off_range.get(number, (pwm, pwm))
            self._off_range[number] = (min(low, pwm), max(high, pwm))

    @staticmethod
    def _step(
        inputs: GuideInputs,
        off: TransmitterEvent | None,
        on: TransmitterEvent | None,
        *,
        sticks_done: bool,
        switches_done: bool,
        failsafe_at: float | None,
        recovered: bool,
        no_failsafe: bool,
        no_recovery: bool,
        failsafe_before_test: bool,
    ) -> GuideStep:
        if recovered or no_recovery or (no_failsafe and on is not None):
            return GuideStep.DONE
        if failsafe_at is not None or no_failsafe:
            # Failsafe came (or never will): the transmitter has to come back on.
            return GuideStep.WAIT_RECOVERY if on is not None else GuideStep.SWITCH_ON
        if off is not None:
            return GuideStep.WAIT_FAILSAFE
        if not inputs.telemetry_live or failsafe_before_test:
            return GuideStep.WAIT_TELEMETRY
        if not sticks_done:
            return GuideStep.MOVE_STICKS
        if not switches_done:
            return GuideStep.FLIP_SWITCHES
        return GuideStep.SWITCH_OFF
