# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The stick step in the data model, the way a user meets it: a scripted flight controller sends
RC_CHANNELS over loopback UDP while the model's clock is moved by hand, so holds and timeouts are
exact.  `StickTest` itself is driven directly in tests/plugins/rc_receiver/test_sticks.py.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.plugins.rc_receiver.firmware import VehicleFamily
from amc_rc_receiver.plugins.rc_receiver.snapshot import GuideStep, Severity, StickOutcome, VerdictResult
from amc_rc_receiver.plugins.rc_receiver.sticks import (
    HOLD_S,
    STICK_TIMEOUT_S,
)
from tests.plugins.data_model_rc_receiver_harness import (
    REST,
    STICK_PUSHES,
    ModelHarness,
    failsafe,
    move_every_stick,
    prearm_answered,
    push_stick,
    send_frame,
    with_parameters,
)

pytestmark = pytest.mark.loopback

COPTER_AXES = ("throttle", "roll", "pitch", "yaw")


@pytest.fixture
def harness() -> Iterator[ModelHarness]:
    with ModelHarness() as created:
        yield created


def outcomes(harness: ModelHarness) -> dict[str, tuple[StickOutcome, int | None]]:
    check = harness.model.state.guided
    return {stick.axis: (stick.outcome, stick.moved_channel) for stick in check.sticks}


def finding(harness: ModelHarness, code: str) -> str:
    found = [f for f in harness.model.state.guided.findings if f.code == code]
    assert found, f"no {code} finding in {[f.code for f in harness.model.state.guided.findings]}"
    return f"{found[0].message} {found[0].action}"


# ---- the step as a person does it ------------------------------------------------------------------


def test_the_step_asks_for_one_stick_at_a_time_in_order_throttle_first(harness: ModelHarness) -> None:
    """
    GIVEN a Copter with its parameters read and a receiver at rest
    WHEN the sticks are pushed one after the other the way the step asks
    THEN it asks for the throttle first, then roll, pitch and yaw, each "n of 4", and ends with every
         stick correct and the guide at the switch step (the mode switch, then the aux switches)
    """
    with_parameters(harness)
    asked = []
    for channel, end in STICK_PUSHES.items():
        send_frame(harness, REST)
        prompt = harness.model.state.guided.guide.stick
        assert prompt is not None
        asked.append((prompt.axis, prompt.number, prompt.count))
        push_stick(harness, channel, end)
    state = send_frame(harness, REST)

    assert asked == [("throttle", 1, 4), ("roll", 2, 4), ("pitch", 3, 4), ("yaw", 4, 4)]
    channels = dict(zip(COPTER_AXES, (3, 1, 2, 4), strict=True))
    assert outcomes(harness) == {axis: (StickOutcome.CORRECT, n) for axis, n in channels.items()}
    assert state.guided.guide.step is GuideStep.FLIP_SWITCHES


def test_a_reversed_pitch_is_named_with_the_transmitter_fix_first(harness: ModelHarness) -> None:
    """
    GIVEN a transmitter that sends pitch reversed (pushed forward, CH2 goes up)
    WHEN the stick step runs
    THEN pitch is REVERSED, a blocking finding says which way CH2 went and what ArduPilot expects,
         and says to reverse CH2 in the transmitter, RC2_REVERSED = 1 only where it cannot; FAILED
    """
    with_parameters(harness)
    move_every_stick(harness, {**STICK_PUSHES, 2: 2000})

    assert outcomes(harness)["pitch"] == (StickOutcome.REVERSED, 2)
    text = finding(harness, "stick_reversed")
    assert "CH2 went up (1500 → 2000 µs)" in text
    assert "Reverse CH2 in the transmitter" in text
    assert "RC2_REVERSED = 1" in text
    assert harness.model.state.guided.verdict.result is VerdictResult.FAILED


def test_rcn_reversed_turns_the_expected_direction_round(harness: ModelHarness) -> None:
    """
    GIVEN RC2_REVERSED = 1 (the flight controller reverses pitch itself)
    WHEN pitch forward raises CH2, as such a transmitter sends it
    THEN pitch is correct; and with RC2_REVERSED = 1 and a pitch that lowers CH2, the fix is
         RC2_REVERSED = 0
    """
    with_parameters(harness, RC2_REVERSED=1)
    move_every_stick(harness, {**STICK_PUSHES, 2: 2000})
    assert outcomes(harness)["pitch"] == (StickOutcome.CORRECT, 2)

    harness.model.reset_test()
    move_every_stick(harness)
    assert outcomes(harness)["pitch"] == (StickOutcome.REVERSED, 2)
    assert "RC2_REVERSED = 0" in finding(harness, "stick_reversed")


def test_swapped_roll_and_pitch_channels_are_named_for_each_stick(harness: ModelHarness) -> None:
    """
    GIVEN a transmitter that sends pitch on CH1 and roll on CH2
    WHEN the stick step runs
    THEN roll and pitch are each on the wrong channel, with the channel that moved and the RCMAP
         value, and the fix names the channel order and the parameter
    """
    with_parameters(harness)
    move_every_stick(harness, {3: 2000, 2: 2000, 1: 1000, 4: 2000})

    result = outcomes(harness)
    assert result["roll"] == (StickOutcome.WRONG_CHANNEL, 2)
    assert result["pitch"] == (StickOutcome.WRONG_CHANNEL, 1)
    text = finding(harness, "stick_wrong_channel")
    assert "You moved the roll stick and CH2 moved, but RCMAP_ROLL = 1 makes CH1 the roll channel." in text
    assert "or set RCMAP_ROLL to 2" in text


def test_a_changed_rcmap_roll_is_found_against_a_standard_transmitter(harness: ModelHarness) -> None:
    """
    GIVEN RCMAP_ROLL = 4 and RCMAP_YAW = 1 on the flight controller and an AETR transmitter
    WHEN the stick step runs
    THEN roll is on the wrong channel (CH1 moved, RCMAP_ROLL names CH4), and so is yaw
    """
    with_parameters(harness, RCMAP_ROLL=4, RCMAP_YAW=1)
    move_every_stick(harness)

    result = outcomes(harness)
    assert result["roll"] == (StickOutcome.WRONG_CHANNEL, 1)
    assert result["yaw"] == (StickOutcome.WRONG_CHANNEL, 4)
    assert result["pitch"] == (StickOutcome.CORRECT, 2)


def test_a_skipped_stick_is_named_as_not_checked_in_a_passed_verdict(harness: ModelHarness) -> None:
    """
    GIVEN the stick step at yaw
    WHEN the user skips it (and goes on past the switch step) and the failsafe test then passes
    THEN yaw is SKIPPED and the PASSED verdict says "Not checked: yaw: skipped"
    """
    with_parameters(harness)
    for channel in (3, 1, 2):
        push_stick(harness, channel, STICK_PUSHES[channel])
    send_frame(harness, REST)
    harness.model.skip_stick()
    assert harness.model.state.guided.guide.step is GuideStep.FLIP_SWITCHES
    harness.model.skip_stick()
    assert harness.model.state.guided.guide.step is GuideStep.SWITCH_OFF
    harness.model.confirm_transmitter(False)
    harness.clock.advance(1.0)
    failsafe(harness, active=True)
    harness.model.confirm_transmitter(True)
    failsafe(harness, active=False)
    state = prearm_answered(harness)

    assert outcomes(harness)["yaw"] == (StickOutcome.SKIPPED, None)
    assert state.guided.verdict.result is VerdictResult.PASSED
    assert "Not checked: yaw: skipped." in state.guided.verdict.detail


def test_a_stick_no_channel_answers_times_out_as_a_warning_and_the_step_goes_on(
    harness: ModelHarness,
) -> None:
    """
    GIVEN the stick step at its first stick and a receiver whose channels stay at rest
    WHEN STICK_TIMEOUT_S pass with live telemetry
    THEN the throttle is "no movement", a warning says so, and the step asks for roll
    """
    with_parameters(harness)
    send_frame(harness, REST)
    for _ in range(int(STICK_TIMEOUT_S / 2) + 1):
        harness.clock.advance(2.0)
        send_frame(harness, REST)

    assert outcomes(harness)["throttle"] == (StickOutcome.NO_MOVEMENT, None)
    assert "No channel moved within 20 s of asking for the throttle stick." in finding(
        harness, "stick_not_moved"
    )
    prompt = harness.model.state.guided.guide.stick
    assert prompt is not None
    assert prompt.axis == "roll"
    severities = {f.code: f.severity for f in harness.model.state.guided.findings}
    assert severities["stick_not_moved"] is Severity.WARNING


def test_a_throttle_let_down_and_a_stick_still_held_are_not_taken_for_the_next_stick(
    harness: ModelHarness,
) -> None:
    """
    GIVEN the throttle step answered with the throttle still held up
    WHEN the roll step starts, the throttle falls back to idle through the centre, and only then
         is roll pushed
    THEN roll is found on CH1, not the throttle's CH3
    """
    with_parameters(harness)
    up = (1500, 1500, 2000, 1500, 1100)
    push_stick(harness, 3, 2000)
    send_frame(harness, up)  # the roll step starts while the throttle is still up
    send_frame(harness, (1500, 1500, 1500, 1500, 1100))  # passing the centre on its way down
    send_frame(harness, REST)
    harness.clock.advance(HOLD_S)
    send_frame(harness, REST)
    assert harness.model.state.guided.guide.stick is not None
    assert harness.model.state.guided.guide.stick.axis == "roll"
    push_stick(harness, 1, 2000)

    assert outcomes(harness)["roll"] == (StickOutcome.CORRECT, 1)


def test_a_throttle_held_up_only_a_moment_when_asked_for_is_not_a_reversed_push(
    harness: ModelHarness,
) -> None:
    """
    GIVEN the throttle up (2000 µs) for a moment when the throttle stick is asked for
    WHEN it comes down to idle, rests there and is then pushed up
    THEN the throttle is correct: coming down from a moment up was not taken for a reversed push
    """
    with_parameters(harness)
    up = (1500, 1500, 2000, 1500, 1100)
    send_frame(harness, up)
    harness.clock.advance(1.0)
    send_frame(harness, up)
    send_frame(harness, REST)
    harness.clock.advance(HOLD_S)
    send_frame(harness, REST)
    push_stick(harness, 3, 2000)

    assert outcomes(harness)["throttle"] == (StickOutcome.CORRECT, 3)


def test_a_throttle_up_for_a_moment_that_a_radio_queue_spreads_out_is_still_not_a_rest(
    harness: ModelHarness,
) -> None:
    """
    GIVEN the throttle up (2000 µs) for 1 s on the vehicle's clock when the throttle stick is asked
          for, its two readings arriving 2 s apart on ours (a telemetry radio's queue grew between
          them)
    WHEN it comes down to idle, rests there and is then pushed up
    THEN the throttle is correct: the rest is measured on the vehicle's clock, where the throttle
         was up for less than a person's idle takes
    """
    with_parameters(harness)
    up = [1500, 1500, 2000, 1500, 1100]
    sent_ms = harness.vehicle.time_boot_ms()
    harness.vehicle.send_rc_channels(up, chancount=8, rssi=180, time_boot_ms=sent_ms)
    harness.poll_after_sync()
    harness.clock.advance(2.0)
    harness.vehicle.send_rc_channels(up, chancount=8, rssi=180, time_boot_ms=sent_ms + 1000)
    harness.poll_after_sync()
    send_frame(harness, REST)
    harness.clock.advance(HOLD_S)
    send_frame(harness, REST)
    push_stick(harness, 3, 2000)

    assert outcomes(harness)["throttle"] == (StickOutcome.CORRECT, 3)


def send_sent_ago(harness: ModelHarness, pwm: Sequence[int], age_s: float) -> None:
    """One RC_CHANNELS stamped ``age_s`` before now on the vehicle's clock (it waited in a queue)."""
    sent_ms = harness.vehicle.time_boot_ms() - round(age_s * 1000)
    harness.vehicle.send_rc_channels(list(pwm), chancount=8, rssi=180, time_boot_ms=sent_ms)
    harness.poll_after_sync()


def test_a_push_held_long_enough_is_recorded_when_a_stalled_link_delivers_it_in_a_burst(
    harness: ModelHarness,
) -> None:
    """
    GIVEN the throttle asked for and resting at idle
    WHEN the throttle is pushed up and held for 1 s on the vehicle's clock, and the link stalls so
         that both readings of the push arrive within 0.1 s of each other on ours
    THEN the throttle is correct: the hold is measured on the vehicle's clock
    """
    with_parameters(harness)
    pushed = list(REST)
    pushed[2] = 2000
    send_frame(harness, REST)
    harness.clock.advance(3.0)
    send_sent_ago(harness, REST, 1.0)
    send_sent_ago(harness, pushed, 0.9)
    harness.clock.advance(0.1)
    send_sent_ago(harness, pushed, 0.0)

    assert outcomes(harness)["throttle"] == (StickOutcome.CORRECT, 3)


def test_a_push_that_comes_and_goes_between_two_polls_of_a_busy_check_is_recorded(
    harness: ModelHarness,
) -> None:
    """
    GIVEN the throttle asked for and resting at idle, and a check so busy that it polls seldom
    WHEN the throttle is pushed up for 0.8 s on the vehicle's clock and back to idle, and one poll
         reads all six readings of it (the rest before, four of the push, the idle after)
    THEN the throttle is correct: the stick step saw every reading of the poll, not only the newest
    """
    with_parameters(harness)
    pushed = list(REST)
    pushed[2] = 2000
    send_frame(harness, REST)
    harness.clock.advance(3.0)
    sent_ms = harness.vehicle.time_boot_ms()
    readings = [REST, pushed, pushed, pushed, pushed, REST]
    for index, pwm in enumerate(readings):
        age_ms = (len(readings) - index) * 200
        harness.vehicle.send_rc_channels(list(pwm), chancount=8, rssi=180, time_boot_ms=sent_ms - age_ms)
    harness.model.poll()  # loopback UDP: every datagram sent is waiting, and one poll reads them all
    assert harness.model.messages_read_last_poll >= len(readings)
    harness.sync()

    assert outcomes(harness)["throttle"] == (StickOutcome.CORRECT, 3)


def test_a_rover_asks_for_steering_then_a_centring_throttle(harness: ModelHarness) -> None:
    """
    GIVEN a rover (steering on RCMAP_ROLL, a throttle that centres and drives backwards below it)
    WHEN steering is turned right and the throttle pushed forward from the centre
    THEN both are correct, named steering and throttle
    """
    harness.vehicle.mav_type = mavlink2.MAV_TYPE_GROUND_ROVER
    harness.vehicle.send_heartbeat()
    modes = {f"MODE{slot}": 0 for slot in range(1, 7)}
    with_parameters(harness, FS_THR_VALUE=910, FS_TIMEOUT=1.5, MODE_CH=5, **modes)
    centred = (1500, 1500, 1500, 1500, 1100)
    push_stick(harness, 1, 2000, rest=centred)
    push_stick(harness, 3, 2000, rest=centred)
    check = harness.model.state.guided

    assert check.family is VehicleFamily.ROVER
    assert [(s.axis, s.role, s.outcome) for s in check.sticks] == [
        ("roll", "steering", StickOutcome.CORRECT),
        ("throttle", "throttle", StickOutcome.CORRECT),
    ]


# ---- the throttle's low end against the failsafe value -------------------------------------------


@pytest.mark.parametrize(
    ("low_end", "code"),
    [(975, "throttle_below_failsafe_pwm"), (980, "throttle_low_end_no_margin")],
)
def test_a_throttle_low_end_at_or_just_above_the_failsafe_value_is_a_finding(
    harness: ModelHarness, low_end: int, code: str
) -> None:
    """
    GIVEN FS_THR_VALUE 975
    WHEN the throttle rests at ``low_end`` in the stick step
    THEN 975 means failsafe at idle and 980 no margin, each said with the value
    """
    with_parameters(harness)
    rest = (1500, 1500, low_end, 1500, 1100)
    push_stick(harness, 3, 2000, rest=rest)

    assert f"{low_end} µs" in finding(harness, code)
