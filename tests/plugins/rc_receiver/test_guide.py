# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The guided transmitter-off test's steps, driven directly: `TransmitterGuide` on `GuideInputs`
and the caller's clock, from waiting for telemetry to done, with no model or socket behind it."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amc_rc_receiver.plugins.rc_receiver.firmware import VehicleFamily
from amc_rc_receiver.plugins.rc_receiver.guide import (
    FAILSAFE_MARGIN_S,
    LATE_CONFIRMATION_S,
    MAX_TRANSMITTER_EVENTS,
    RECOVERY_WAIT_S,
    SETTLE_AFTER_OFF_S,
    STILL_MOVING_US,
    GuideInputs,
    TransmitterGuide,
    first_failsafe_after,
    recovery_after,
)
from amc_rc_receiver.plugins.rc_receiver.snapshot import FailsafeStatus, GuideStep

pytestmark = pytest.mark.pure

ACTIVE, NOT_ACTIVE = FailsafeStatus.ACTIVE, FailsafeStatus.NOT_ACTIVE
TIMEOUT_S = 1.0
OFF_AT = 10.0
COPTER_AXES = ("throttle", "roll", "pitch", "yaw")


def inputs(now: float, *transitions: tuple[FailsafeStatus, float], **changes: object) -> GuideInputs:
    """Live telemetry, no sticks to ask for, a 1 s failsafe timeout, a person at the transmitter."""
    base = GuideInputs(
        now=now,
        telemetry_live=True,
        transitions=tuple(transitions),
        failsafe_timeout_s=TIMEOUT_S,
        automatic=False,
    )
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def switched_off(guide: TransmitterGuide | None = None) -> TransmitterGuide:
    guide = guide or TransmitterGuide()
    guide.update(inputs(OFF_AT - 1.0))
    guide.note_switch(False, OFF_AT, by_program=False)
    return guide


# ---- the steps in order -------------------------------------------------------------------------


def test_without_live_telemetry_the_guide_waits_for_it() -> None:
    """
    GIVEN a fresh guide
    WHEN it is updated without live telemetry
    THEN the step is WAIT_TELEMETRY and the program is asked for no transmitter position
    """
    guide = TransmitterGuide()
    assert guide.update(inputs(0.0, telemetry_live=False)).step is GuideStep.WAIT_TELEMETRY
    assert guide.wanted_transmitter() is None


def test_with_sticks_to_check_the_guide_asks_for_the_first_stick() -> None:
    """
    GIVEN live telemetry and a Copter's four sticks
    WHEN the guide is updated
    THEN the step is MOVE_STICKS, asking for stick 1 of 4, the throttle
    """
    state = TransmitterGuide().update(inputs(0.0, stick_axes=COPTER_AXES, family=VehicleFamily.COPTER))
    assert state.step is GuideStep.MOVE_STICKS
    assert state.stick is not None
    assert (state.stick.axis, state.stick.number, state.stick.count) == ("throttle", 1, 4)


def test_skipping_every_stick_leads_to_switching_the_transmitter_off() -> None:
    """
    GIVEN the stick step
    WHEN the user skips each of the four sticks
    THEN the step becomes SWITCH_OFF and the program would be asked to switch off
    """
    guide = TransmitterGuide()
    now = 0.0
    for _axis in COPTER_AXES:
        assert guide.update(inputs(now, stick_axes=COPTER_AXES)).step is GuideStep.MOVE_STICKS
        guide.skip_stick(now)
        now += 0.1
    assert guide.update(inputs(now, stick_axes=COPTER_AXES)).step is GuideStep.SWITCH_OFF
    assert set(guide.stick_observations) == set(COPTER_AXES)
    assert guide.wanted_transmitter() is False


def test_a_whole_test_goes_through_every_step_to_done() -> None:
    """
    GIVEN live telemetry and no sticks to check
    WHEN the transmitter goes off, the failsafe comes, the transmitter comes on and the failsafe clears
    THEN the steps are SWITCH_OFF, WAIT_FAILSAFE, SWITCH_ON, WAIT_RECOVERY and DONE
    """
    guide = TransmitterGuide()
    assert guide.update(inputs(OFF_AT - 1.0)).step is GuideStep.SWITCH_OFF
    guide.note_switch(False, OFF_AT, by_program=False)
    state = guide.update(inputs(OFF_AT + 0.1))
    assert state.step is GuideStep.WAIT_FAILSAFE
    assert state.failsafe_deadline == OFF_AT + TIMEOUT_S + FAILSAFE_MARGIN_S
    failsafe = (ACTIVE, OFF_AT + 0.8)
    assert guide.update(inputs(OFF_AT + 1.0, failsafe)).step is GuideStep.SWITCH_ON
    assert guide.wanted_transmitter() is True
    guide.note_switch(True, OFF_AT + 2.0, by_program=False)
    assert guide.update(inputs(OFF_AT + 2.1, failsafe)).step is GuideStep.WAIT_RECOVERY
    state = guide.update(inputs(OFF_AT + 3.0, failsafe, (NOT_ACTIVE, OFF_AT + 2.5)))
    assert state.step is GuideStep.DONE
    assert (state.off_at, state.on_at, state.no_failsafe, state.no_recovery) == (
        OFF_AT,
        OFF_AT + 2.0,
        False,
        False,
    )
    assert guide.unchanged_at(OFF_AT + 100.0)


def test_a_switch_by_the_program_is_remembered_as_the_programs() -> None:
    """
    GIVEN a program-owned transmitter
    WHEN the program switches it off
    THEN the guide state says the "off" was the program's and keeps the event
    """
    guide = TransmitterGuide()
    guide.update(inputs(OFF_AT - 1.0, automatic=True))
    guide.note_switch(False, OFF_AT, by_program=True)
    state = guide.update(inputs(OFF_AT + 0.1, automatic=True))
    assert (state.automatic, state.off_by_program) == (True, True)
    assert guide.events[-1].by_program


# ---- conclusions from silence -------------------------------------------------------------------


def test_no_failsafe_by_the_deadline_is_concluded_and_asks_for_the_transmitter_back() -> None:
    """
    GIVEN the transmitter off and live telemetry without a failsafe
    WHEN the deadline (timeout plus margin) passes, and then the transmitter comes back on
    THEN no_failsafe is concluded with the step SWITCH_ON, then DONE
    """
    guide = switched_off()
    deadline = OFF_AT + TIMEOUT_S + FAILSAFE_MARGIN_S
    assert not guide.update(inputs(deadline)).no_failsafe
    state = guide.update(inputs(deadline + 0.1))
    assert (state.step, state.no_failsafe) == (GuideStep.SWITCH_ON, True)
    guide.note_switch(True, deadline + 1.0, by_program=False)
    assert guide.update(inputs(deadline + 1.1)).step is GuideStep.DONE


def test_no_failsafe_is_not_concluded_when_the_telemetry_was_lost_meanwhile() -> None:
    """
    GIVEN the transmitter off and telemetry lost for a moment before the deadline
    WHEN the deadline passes with telemetry live again
    THEN no failsafe is concluded: silence without telemetry proves nothing
    """
    guide = switched_off()
    guide.update(inputs(OFF_AT + 1.0, telemetry_live=False))
    state = guide.update(inputs(OFF_AT + 10.0))
    assert (state.step, state.no_failsafe) == (GuideStep.WAIT_FAILSAFE, False)


def test_a_failsafe_that_does_not_clear_after_the_recovery_wait_ends_the_test() -> None:
    """
    GIVEN a failsafe after "off" and the transmitter back on
    WHEN the recovery wait passes without the failsafe clearing
    THEN the test is DONE with no_recovery
    """
    guide = switched_off()
    failsafe = (ACTIVE, OFF_AT + 0.5)
    guide.note_switch(True, OFF_AT + 2.0, by_program=False)
    assert not guide.update(inputs(OFF_AT + 2.0 + RECOVERY_WAIT_S, failsafe)).no_recovery
    state = guide.update(inputs(OFF_AT + 2.1 + RECOVERY_WAIT_S, failsafe))
    assert (state.step, state.no_recovery) == (GuideStep.DONE, True)


def test_what_the_receiver_sends_while_off_is_watched_after_it_settles() -> None:
    """
    GIVEN the transmitter off and the receiver still sending throttle and a moving stick
    WHEN updates arrive before and after the settle time
    THEN only values after the settle count: the throttle held, and a stick range of 50 µs or more
    """
    guide = switched_off()
    state = guide.update(inputs(OFF_AT + 0.1, throttle_us=1500, stick_pwm={1: 1000}))
    assert (state.throttle_while_off_us, state.channels_moving_while_off) == (None, False)
    after = OFF_AT + SETTLE_AFTER_OFF_S
    guide.update(inputs(after, throttle_us=1100, stick_pwm={1: 1500}))
    state = guide.update(inputs(after + 0.1, throttle_us=1100, stick_pwm={1: 1500 + STILL_MOVING_US - 1}))
    assert (state.throttle_while_off_us, state.channels_moving_while_off) == (1100, False)
    state = guide.update(inputs(after + 0.2, throttle_us=1100, stick_pwm={1: 1500 + STILL_MOVING_US}))
    assert state.channels_moving_while_off


# ---- restart, bounds, timing helpers -------------------------------------------------------------


def test_a_restart_forgets_the_switches_and_starts_over() -> None:
    """
    GIVEN a guide after "off"
    WHEN it is restarted
    THEN the events are gone, the version grew and the next update is back before "off"
    """
    guide = switched_off()
    version = guide.version
    guide.restart()
    assert guide.events == ()
    assert guide.version > version
    assert guide.update(inputs(OFF_AT + 1.0)).step is GuideStep.SWITCH_OFF


def test_the_switches_kept_are_bounded() -> None:
    """
    GIVEN a user who confirms "off" and "on" many times
    WHEN the events are read
    THEN only the newest few are kept
    """
    guide = TransmitterGuide()
    for index in range(3 * MAX_TRANSMITTER_EVENTS):
        guide.note_switch(index % 2 == 1, float(index), by_program=False)
    assert len(guide.events) == MAX_TRANSMITTER_EVENTS
    assert guide.events[-1].at == 3 * MAX_TRANSMITTER_EVENTS - 1


def test_a_failsafe_shortly_before_the_confirmation_still_counts() -> None:
    """
    GIVEN failsafes 6 s and 4 s before the user's "off" and one after it
    WHEN the first failsafe after "off" is looked for
    THEN the one 4 s before counts (people switch first and click second), the one 6 s before not
    """
    transitions = ((ACTIVE, OFF_AT - 6.0), (NOT_ACTIVE, OFF_AT - 5.5), (ACTIVE, OFF_AT - 4.0))
    assert first_failsafe_after(transitions, OFF_AT) == OFF_AT - 4.0
    assert first_failsafe_after(transitions[:2], OFF_AT) is None
    assert first_failsafe_after(transitions, None) == OFF_AT - 6.0
    assert recovery_after(((ACTIVE, 1.0), (NOT_ACTIVE, 2.0)), 1.0) == 2.0
    assert recovery_after(((NOT_ACTIVE, 0.5), (ACTIVE, 1.0)), 1.0) is None


@given(
    st.lists(st.tuples(st.sampled_from([ACTIVE, NOT_ACTIVE]), st.floats(0.0, 100.0)), max_size=20),
    st.floats(0.0, 100.0),
)
def test_the_first_failsafe_after_a_start_is_never_earlier_than_the_grace_allows(
    transitions: list[tuple[FailsafeStatus, float]], start: float
) -> None:
    """
    GIVEN any failsafe transitions and any start
    WHEN the first failsafe after the start is looked for
    THEN it is an ACTIVE transition no earlier than the start less the late-confirmation grace,
         and the first such one
    """
    found = first_failsafe_after(tuple(transitions), start)
    candidates = [at for status, at in transitions if status is ACTIVE and at >= start - LATE_CONFIRMATION_S]
    assert found == (candidates[0] if candidates else None)
