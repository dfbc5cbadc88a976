# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The stick step, driven directly: `StickTest` on the caller's clock and plain channel values,
`judge_sticks` on the parameters, and the simulated transmitter's own sticks for every channel
order and reversal a transmitter can be set to.  The same step met over MAVLink, through the data
model, is in tests/plugins/test_data_model_rc_receiver_sticks.py.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amc_rc_receiver.demo.transmitter import STICK_AXES, StickLayout, Transmitter
from amc_rc_receiver.plugins.rc_receiver.evidence import reading_pwm
from amc_rc_receiver.plugins.rc_receiver.firmware import VehicleFamily
from amc_rc_receiver.plugins.rc_receiver.snapshot import Severity, StickOutcome
from amc_rc_receiver.plugins.rc_receiver.sticks import (
    HOLD_S,
    MAX_UNSEEN_READINGS,
    REST_S,
    SETTLE_S,
    STICK_TIMEOUT_S,
    THROTTLE_REST_S,
    StickObservation,
    StickTest,
    UnseenReadings,
    judge_stick,
    judge_sticks,
    stick_axes,
    stick_findings,
)
from tests.support.tiers import examples

pytestmark = pytest.mark.pure

COPTER_AXES = ("throttle", "roll", "pitch", "yaw")
CENTRED = {1: 1500, 2: 1500, 3: 1500, 4: 1500}
PERSON_TICK_S = 0.1


def hold(
    test: StickTest, axes: tuple[str, ...], start: float, seconds: float, pwm: Mapping[int, int]
) -> float:
    """A person holds the sticks at ``pwm`` for ``seconds`` from ``start``; the time it ends."""
    now = start
    end = start + seconds
    while now < end + 1e-9:
        test.update(now, axes, pwm, by_program=False, family=VehicleFamily.COPTER)
        now = round(now + PERSON_TICK_S, 6)
    return now


def outcome(
    test: StickTest, axis: str, values: Mapping[str, float] | None = None
) -> tuple[StickOutcome, int | None]:
    result = judge_stick(axis, VehicleFamily.COPTER, values or {}, test.observations().get(axis))
    return result.outcome, result.moved_channel


def push(axis_channel: int, end: int, rest: Mapping[int, int] = CENTRED) -> dict[int, int]:
    return {**rest, axis_channel: end}


# ---- the order of the sticks --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("family", "axes"),
    [
        (VehicleFamily.COPTER, ("throttle", "roll", "pitch", "yaw")),
        (VehicleFamily.PLANE, ("throttle", "roll", "pitch", "yaw")),
        (VehicleFamily.ROVER, ("roll", "throttle")),
    ],
)
def test_a_throttle_that_rests_at_an_end_is_asked_for_first(
    family: VehicleFamily, axes: Sequence[str]
) -> None:
    """
    GIVEN each vehicle family
    WHEN its sticks are listed in the step's order
    THEN a copter's or plane's throttle comes first; a rover steers first, its throttle centres
    """
    assert stick_axes(family) == tuple(axes)


# ---- a person moves the sticks ------------------------------------------------------------------


def test_a_centring_stick_pushed_and_held_is_found_on_its_channel() -> None:
    """
    GIVEN the pitch stick asked for and every stick centred long enough to rest
    WHEN the person pushes it fully forward (CH2 down to 1000 µs) and holds it
    THEN it is answered after the hold: CH2, from 1500 to 1000 µs, correct
    """
    test = StickTest()
    axes = ("pitch",)
    now = hold(test, axes, 0.0, REST_S + 0.1, CENTRED)
    now = hold(test, axes, now, HOLD_S - 0.2, push(2, 1000))
    assert test.observations() == {}
    hold(test, axes, now, 0.3, push(2, 1000))
    observation = test.observations()["pitch"]
    assert (observation.moved_channel, observation.rest_us, observation.end_us) == (2, 1500, 1000)
    assert outcome(test, "pitch") == (StickOutcome.CORRECT, 2)
    assert test.done(axes)


def test_a_pitch_that_goes_up_when_pushed_forward_is_reversed_unless_rcn_reversed_says_so() -> None:
    """
    GIVEN the pitch stick pushed forward and CH2 going up to 2000 µs
    WHEN judged with RC2_REVERSED unknown, and with RC2_REVERSED = 1
    THEN it is reversed, and correct once the flight controller reverses the channel
    """
    test = StickTest()
    axes = ("pitch",)
    now = hold(test, axes, 0.0, REST_S + 0.1, CENTRED)
    hold(test, axes, now, HOLD_S + 0.1, push(2, 2000))
    assert outcome(test, "pitch") == (StickOutcome.REVERSED, 2)
    assert outcome(test, "pitch", {"RC2_REVERSED": 1}) == (StickOutcome.CORRECT, 2)


def test_a_stick_found_on_another_channel_than_rcmap_names_is_the_wrong_channel() -> None:
    """
    GIVEN the roll stick asked for and CH4 going to its end
    WHEN judged with the default RCMAP_ROLL, then with RCMAP_ROLL = 4
    THEN it is the wrong channel, then correct
    """
    test = StickTest()
    axes = ("roll",)
    now = hold(test, axes, 0.0, REST_S + 0.1, CENTRED)
    hold(test, axes, now, HOLD_S + 0.1, push(4, 2000))
    assert outcome(test, "roll") == (StickOutcome.WRONG_CHANNEL, 4)
    assert outcome(test, "roll", {"RCMAP_ROLL": 4}) == (StickOutcome.CORRECT, 4)


def test_a_throttle_rests_at_its_low_end_before_its_push_counts() -> None:
    """
    GIVEN the throttle asked for, resting low (1000 µs) for less than the throttle's rest, then longer
    WHEN it is pushed up and held each time
    THEN only the push after a full rest at the low end is the throttle, correct
    """
    test = StickTest()
    axes = ("throttle",)
    low = {**CENTRED, 3: 1000}
    now = hold(test, axes, 0.0, THROTTLE_REST_S - 0.5, low)
    now = hold(test, axes, now, HOLD_S + 0.1, push(3, 2000, low))
    assert test.observations() == {}
    now = hold(test, axes, now, THROTTLE_REST_S + 0.1, low)
    hold(test, axes, now, HOLD_S + 0.1, push(3, 2000, low))
    assert outcome(test, "throttle") == (StickOutcome.CORRECT, 3)


def test_the_wrong_stick_pushed_again_is_not_the_next_sticks_answer() -> None:
    """
    GIVEN the roll stick answered on CH1, and the yaw stick asked for next
    WHEN the person pushes the roll stick again and holds it (CH1 up), lets go, and then pushes yaw
    THEN the push of CH1 is not yaw's answer: yaw is answered by CH4, correct, and roll stays CH1
    """
    test = StickTest()
    axes = ("roll", "yaw")
    now = hold(test, axes, 0.0, REST_S + 0.1, CENTRED)
    now = hold(test, axes, now, HOLD_S + 0.1, push(1, 2000))
    assert test.observations()["roll"].moved_channel == 1
    now = hold(test, axes, now, REST_S + 0.1, CENTRED)
    now = hold(test, axes, now, HOLD_S + 0.5, push(1, 2000))
    assert test.current(axes) == "yaw"
    now = hold(test, axes, now, REST_S + 0.1, CENTRED)
    hold(test, axes, now, HOLD_S + 0.1, push(4, 2000))
    assert outcome(test, "yaw") == (StickOutcome.CORRECT, 4)
    assert outcome(test, "roll") == (StickOutcome.CORRECT, 1)


def test_a_channel_two_sticks_move_is_named_for_the_second_when_nothing_else_moved() -> None:
    """
    GIVEN the roll stick answered on CH1, and the yaw stick asked for next
    WHEN only CH1 moves whenever yaw is pushed, until the stick timeout (a mixer drives CH1 from both)
    THEN yaw is answered by CH1 at the timeout, so the verdict names the channel, not "no movement"
    """
    test = StickTest()
    axes = ("roll", "yaw")
    now = hold(test, axes, 0.0, REST_S + 0.1, CENTRED)
    now = hold(test, axes, now, HOLD_S + 0.1, push(1, 2000))
    now = hold(test, axes, now, REST_S + 0.1, CENTRED)
    now = hold(test, axes, now, HOLD_S + 0.5, push(1, 2000))
    assert test.current(axes) == "yaw"
    hold(test, axes, now, STICK_TIMEOUT_S, CENTRED)
    assert outcome(test, "yaw") == (StickOutcome.WRONG_CHANNEL, 1)


def test_no_channel_moving_within_the_timeout_is_no_movement_and_the_step_goes_on() -> None:
    """
    GIVEN the roll stick asked for and the sticks left centred
    WHEN the stick timeout passes
    THEN the roll is answered with no movement, a warning, and the pitch is asked for next
    """
    test = StickTest()
    axes = ("roll", "pitch")
    hold(test, axes, 0.0, STICK_TIMEOUT_S + 0.2, CENTRED)
    assert outcome(test, "roll") == (StickOutcome.NO_MOVEMENT, None)
    assert test.current(axes) == "pitch"
    results = judge_sticks(VehicleFamily.COPTER, {}, test.observations())
    assert [(f.code, f.severity) for f in stick_findings(VehicleFamily.COPTER, results)] == [
        ("stick_not_moved", Severity.WARNING)
    ]


def test_a_skipped_stick_is_answered_as_skipped() -> None:
    """
    GIVEN the throttle asked for
    WHEN the person skips it
    THEN it is answered as skipped and the roll is asked for
    """
    test = StickTest()
    test.skip(COPTER_AXES, 1.0)
    assert outcome(test, "throttle") == (StickOutcome.SKIPPED, None)
    assert test.current(COPTER_AXES) == "roll"


def test_lost_telemetry_asks_for_the_stick_again_from_a_fresh_rest() -> None:
    """
    GIVEN the pitch stick asked for and the sticks rested
    WHEN telemetry pauses and the stick is then pushed without a new rest
    THEN the push does not count until the channels have rested again
    """
    test = StickTest()
    axes = ("pitch",)
    now = hold(test, axes, 0.0, REST_S + 0.1, CENTRED)
    test.pause()
    now = hold(test, axes, now, HOLD_S + 0.1, push(2, 1000))
    assert test.observations() == {}
    now = hold(test, axes, now, REST_S + 0.1, CENTRED)
    hold(test, axes, now, HOLD_S + 0.1, push(2, 1000))
    assert outcome(test, "pitch") == (StickOutcome.CORRECT, 2)


def test_a_reversed_stick_is_fixed_in_the_transmitter_first() -> None:
    """
    GIVEN a reversed pitch on CH2, with RC2_REVERSED = 1 known
    WHEN its finding is made
    THEN it blocks, names the transmitter's channel reverse first and RC2_REVERSED = 0 only after
    """
    observation = StickObservation("pitch", 2, 1500, 1000)
    result = judge_stick("pitch", VehicleFamily.COPTER, {"RC2_REVERSED": 1}, observation)
    (finding,) = stick_findings(VehicleFamily.COPTER, (result,))
    assert (finding.code, finding.severity, finding.parameter) == (
        "stick_reversed",
        Severity.BLOCKING,
        "RC2_REVERSED",
    )
    assert finding.action.index("transmitter") < finding.action.index("RC2_REVERSED = 0")


# ---- the simulated transmitter drives the same logic ---------------------------------------------


TICK_S = 0.2


def run_program_sticks(
    layout: StickLayout,
    family: VehicleFamily = VehicleFamily.COPTER,
    *,
    silent_ticks: int = 0,
    lag_ticks: int = 0,
    flicking_channel: int | None = None,
) -> StickTest:
    """The stick step against the demo transmitter, as the program drives it: rest, then push.

    ``silent_ticks``: ticks with telemetry but no channel values yet (a receiver not yet decoded);
    ``lag_ticks``: how many ticks late the values the check sees are; ``flicking_channel``: a
    switch channel going from one end to the other at every tick."""
    transmitter = Transmitter(layout=layout)
    test = StickTest()
    axes = stick_axes(family)
    seen: list[dict[int, int]] = []
    for tick in range(400):
        now = tick * TICK_S
        wanted = test.wanted(axes)
        if wanted is None:
            break
        transmitter.hold_sticks(wanted[0], pushed=wanted[1])
        values = dict(enumerate(transmitter.sticks_at(now), start=1))
        if flicking_channel is not None:
            values[flicking_channel] = 1000 if tick % 2 else 2000
        seen.append(values)
        pwm = {} if tick < silent_ticks else seen[max(0, len(seen) - 1 - lag_ticks)]
        test.update(now, axes, pwm, by_program=True, family=family)
    return test


@settings(max_examples=examples(60), deadline=None)
@given(
    order=st.sampled_from(["".join(p) for p in itertools.permutations("AETR")]),
    reversed_sticks=st.sets(st.sampled_from(STICK_AXES)),
)
def test_every_channel_order_and_reversal_of_a_transmitter_is_told_apart(
    order: str, reversed_sticks: set[str]
) -> None:
    """
    GIVEN the simulated transmitter set to any channel order and any reversed sticks
    WHEN the program runs the stick step with it against ArduPilot's default RCMAP
    THEN each stick is found on the channel the order gives it, correct only where that is
         RCMAP's channel and the stick is not reversed, reversed where only the direction is wrong
    """
    layout = StickLayout(order=order, reversed=frozenset(reversed_sticks))
    test = run_program_sticks(layout)
    results = {stick.axis: stick for stick in judge_sticks(VehicleFamily.COPTER, {}, test.observations())}

    default_channel = {"roll": 1, "pitch": 2, "throttle": 3, "yaw": 4}
    for axis in STICK_AXES:
        stick = results[axis]
        assert stick.moved_channel == layout.index(axis) + 1
        if stick.moved_channel != default_channel[axis]:
            assert stick.outcome is StickOutcome.WRONG_CHANNEL
        elif axis in reversed_sticks:
            assert stick.outcome is StickOutcome.REVERSED
        else:
            assert stick.outcome is StickOutcome.CORRECT


@settings(max_examples=examples(200), deadline=None)
@given(
    frames=st.lists(
        st.tuples(
            st.floats(0.0, 3.0), st.dictionaries(st.integers(1, 16), st.integers(0, 65535), max_size=16)
        ),
        max_size=60,
    )
)
def test_any_stream_of_channel_values_keeps_the_step_well_formed(
    frames: list[tuple[float, dict[int, int]]],
) -> None:
    """
    GIVEN any sequence of channel values at any pace, from a person or the program
    WHEN the stick step follows them
    THEN it never raises, answers each stick at most once, in order, and stays within its sticks
    """
    axes = COPTER_AXES
    for by_program in (False, True):
        test = StickTest()
        now = 0.0
        for step, pwm in frames:
            now += step
            test.update(now, axes, pwm, by_program=by_program, family=VehicleFamily.COPTER)
        answered = list(test.observations())
        assert answered == list(axes[: len(answered)])


@pytest.mark.parametrize(
    ("silent_ticks", "lag_ticks", "flicking_channel"),
    [(10, 0, None), (0, 3, None), (10, 3, None), (0, 0, 6)],
    ids=["values-come-late", "values-lag-0.6-s", "both", "a-switch-never-keeps-still"],
)
def test_the_program_pushes_a_stick_only_from_a_rest_the_check_has_seen(
    silent_ticks: int, lag_ticks: int, flicking_channel: int | None
) -> None:
    """
    GIVEN the program's own transmitter, and channel values that reach the check only after 2 s (a
          receiver decoded once the check's link is open, as SITL's is), or 0.6 s behind the
          program, or a switch channel that goes end to end at every tick
    WHEN the program runs the stick step
    THEN every stick is found correct on its own channel: no push starts before the check has
         seen the channels rest, and a channel that never rests does not hold the step for ever
    """
    test = run_program_sticks(
        StickLayout(), silent_ticks=silent_ticks, lag_ticks=lag_ticks, flicking_channel=flicking_channel
    )
    results = {stick.axis: stick for stick in judge_sticks(VehicleFamily.COPTER, {}, test.observations())}
    assert {axis: (stick.outcome, stick.moved_channel) for axis, stick in results.items()} == {
        "throttle": (StickOutcome.CORRECT, 3),
        "roll": (StickOutcome.CORRECT, 1),
        "pitch": (StickOutcome.CORRECT, 2),
        "yaw": (StickOutcome.CORRECT, 4),
    }


def test_without_channel_values_the_program_is_not_told_to_push() -> None:
    """
    GIVEN the program's own transmitter and live telemetry without any channel values yet
    WHEN the step is updated for 5 s
    THEN the program is only ever told to rest the first stick, and the settle begins with the
         first values
    """
    test = StickTest()
    for tick in range(25):
        test.update(tick * TICK_S, COPTER_AXES, {}, by_program=True, family=VehicleFamily.COPTER)
        assert test.wanted(COPTER_AXES) == ("throttle", False)
    rest = {1: 1500, 2: 1500, 3: 1000, 4: 1500}
    test.update(5.0, COPTER_AXES, rest, by_program=True, family=VehicleFamily.COPTER)
    test.update(5.0 + SETTLE_S - 0.01, COPTER_AXES, rest, by_program=True, family=VehicleFamily.COPTER)
    assert test.wanted(COPTER_AXES) == ("throttle", False)
    test.update(5.0 + SETTLE_S, COPTER_AXES, rest, by_program=True, family=VehicleFamily.COPTER)
    assert test.wanted(COPTER_AXES) == ("throttle", True)


def test_one_stale_reading_at_1_hz_after_a_reconnection_is_not_the_throttle_s_rest() -> None:
    """
    GIVEN the program's own transmitter after a reconnection: the receiver's values arrive once a
          second, and the first one still shows the throttle pushed up (sent before the program's
          rest reached the flight controller), while the check polls ten times a second
    WHEN the program runs the throttle's part of the stick step
    THEN the throttle is found correct on channel 3, pushed up from its rest at the low end: one
         reading shown for several polls is not a rest, so the way down from it is no reversed push
    """
    test = StickTest()
    stale = {1: 1500, 2: 1500, 3: 1900, 4: 1500}
    reading, read_at = stale, 0.0
    poll_s = 0.1
    for tick in range(100):
        now = round(tick * poll_s, 6)
        if tick and tick % 10 == 0:
            wanted = test.wanted(COPTER_AXES)
            pushed = wanted is not None and wanted == ("throttle", True)
            reading, read_at = {1: 1500, 2: 1500, 3: 1900 if pushed else 1000, 4: 1500}, now
        test.update(now, COPTER_AXES, reading, by_program=True, family=VehicleFamily.COPTER, read_at=read_at)
        if "throttle" in test.observations():
            break
    assert outcome(test, "throttle") == (StickOutcome.CORRECT, 3)
    observation = test.observations()["throttle"]
    assert (observation.rest_us, observation.end_us) == (1000, 1900)


# ---- the readings a poll brings ------------------------------------------------------------------


def seen(unseen: UnseenReadings) -> tuple[tuple[float, dict[int, int]], ...]:
    """What the stick step gets of them: when each was sent, and every delivered channel's PWM."""
    return tuple((at, reading_pwm(count, raw)) for at, count, raw in unseen.all())


def test_unseen_readings_keep_every_change_in_order_and_a_run_of_repeats_as_its_first_and_latest() -> None:
    """
    GIVEN the RC_CHANNELS of one poll: a rest, a push repeated three times, a rest
    WHEN they are added as the tracker adds them
    THEN the stick step gets the rest, the push when it began and when it was last seen, and the
         rest, each with every delivered channel's PWM (unused slots left out)
    """
    unseen = UnseenReadings()
    rest, pushed = (1500, 1500, 1000, 65535), (1500, 1500, 2000, 65535)
    unseen.add(1.0, 3, rest, repeat=False)
    unseen.add(1.2, 3, pushed, repeat=False)
    unseen.add(1.4, 3, pushed, repeat=True)
    unseen.add(1.6, 3, pushed, repeat=True)
    unseen.add(1.8, 3, rest, repeat=False)

    assert seen(unseen) == (
        (1.0, {1: 1500, 2: 1500, 3: 1000}),
        (1.2, {1: 1500, 2: 1500, 3: 2000}),
        (1.6, {1: 1500, 2: 1500, 3: 2000}),
        (1.8, {1: 1500, 2: 1500, 3: 1000}),
    )


def test_unseen_readings_start_with_a_repeat_after_a_snapshot_and_stay_bounded() -> None:
    """
    GIVEN readings the stick step has seen (cleared at a snapshot)
    WHEN the next poll brings only repeats, then far more changes than a stalled link could
    THEN the first repeat is kept with its values, and only the newest ``MAX_UNSEEN_READINGS`` stay
    """
    unseen = UnseenReadings()
    unseen.add(1.0, 1, (1500,), repeat=False)
    unseen.clear()
    unseen.add(1.2, 1, (1500,), repeat=True)
    unseen.add(1.4, 1, (1500,), repeat=True)
    assert seen(unseen) == ((1.4, {1: 1500}),)

    for index in range(MAX_UNSEEN_READINGS + 10):
        unseen.add(2.0 + index, 1, (1000 + index,), repeat=False)
    kept = seen(unseen)
    assert len(kept) == MAX_UNSEEN_READINGS
    assert kept[-1] == (2.0 + MAX_UNSEEN_READINGS + 9, {1: 1000 + MAX_UNSEEN_READINGS + 9})
