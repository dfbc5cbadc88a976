# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The guided transmitter-off test's steps, driven directly: `TransmitterGuide` on `GuideInputs`
and the caller's clock, from waiting for telemetry to done, with no model or socket behind it.

Evidence never skips a step: the guide is fed hand-made failsafe transitions on a hand-moved clock,
as the tracker feeds it from SYS_STATUS, including the cases a person meets: connecting while the
transmitter is still off, switching first and clicking second, and a receiver health bit that
flips on every message.  There the verdict that follows the guide's last step is checked too.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amc_rc_receiver.plugins.rc_receiver.firmware import VehicleFamily
from amc_rc_receiver.plugins.rc_receiver.guide import (
    FAILSAFE_MARGIN_S,
    HOLD_S,
    LATE_CONFIRMATION_S,
    MAX_TRANSMITTER_EVENTS,
    RECOVERY_WAIT_S,
    SETTLE_AFTER_OFF_S,
    STILL_MOVING_US,
    GuideInputs,
    Transitions,
    TransmitterGuide,
    first_failsafe_after,
    recovery_after,
)
from amc_rc_receiver.plugins.rc_receiver.snapshot import (
    FailsafeStatus,
    GuideState,
    GuideStep,
    Verdict,
    VerdictResult,
)
from amc_rc_receiver.plugins.rc_receiver.sticks import stick_axes
from amc_rc_receiver.plugins.rc_receiver.verdict import VerdictInputs, decide_verdict

pytestmark = pytest.mark.pure

ACTIVE, NOT_ACTIVE = FailsafeStatus.ACTIVE, FailsafeStatus.NOT_ACTIVE
TIMEOUT_S = 1.0
OFF_AT = 10.0
COPTER_AXES = stick_axes(VehicleFamily.COPTER)


def inputs(now: float, *transitions: tuple[FailsafeStatus, float], **changes: object) -> GuideInputs:
    """Live telemetry, no sticks to ask for, a 1 s failsafe timeout, a person at the transmitter,
    and RC failsafe active now exactly when the last transition says so (as the tracker reports)."""
    base = GuideInputs(
        now=now,
        telemetry_live=True,
        transitions=tuple(transitions),
        failsafe_timeout_s=TIMEOUT_S,
        automatic=False,
        failsafe_active=bool(transitions) and transitions[-1][0] is ACTIVE,
    )
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def copter(now: float, transitions: Transitions, *, axes: tuple[str, ...] = ()) -> GuideInputs:
    """What the tracker gives the guide of a Copter: `inputs` with the sticks to ask for, if any."""
    return inputs(now, *transitions, stick_axes=axes, family=VehicleFamily.COPTER)


def verdict_of(guide: GuideState, now: float, transitions: Transitions) -> Verdict:
    """The verdict of a complete set-up on the guide's state: parameters read, receiver seen, no
    finding, the status and what was observed taken from the timeline."""
    return decide_verdict(
        VerdictInputs(
            family=VehicleFamily.COPTER,
            values={},
            findings=(),
            guide=guide,
            channels=(),
            connected=True,
            telemetry_live=True,
            receiver_present=True,
            failsafe=transitions[-1][0] if transitions else NOT_ACTIVE,
            failsafe_observed=any(status is ACTIVE for status, _at in transitions),
            recovery_observed=bool(transitions) and transitions[-1][0] is NOT_ACTIVE,
            transitions=transitions,
            parameters_complete=True,
            failsafe_timeout_s=TIMEOUT_S,
            now=now,
        )
    )


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
    THEN the steps are SWITCH_OFF, WAIT_FAILSAFE, SWITCH_ON, WAIT_RECOVERY and DONE, and the state
         keeps the failsafe and recovery times

    A failsafe and a recovery count only once they held for `HOLD_S`: until then the guide still
    waits for them (WAIT_FAILSAFE, WAIT_RECOVERY), so each step is checked just before and once
    the transition held.
    """
    guide = TransmitterGuide()
    assert guide.update(inputs(OFF_AT - 1.0)).step is GuideStep.SWITCH_OFF
    guide.note_switch(False, OFF_AT, by_program=False)
    state = guide.update(inputs(OFF_AT + 0.1))
    assert state.step is GuideStep.WAIT_FAILSAFE
    assert state.failsafe_deadline == OFF_AT + TIMEOUT_S + FAILSAFE_MARGIN_S
    failsafe = (ACTIVE, OFF_AT + 0.8)
    assert guide.update(inputs(OFF_AT + 0.8 + HOLD_S / 2, failsafe)).step is GuideStep.WAIT_FAILSAFE
    assert guide.update(inputs(OFF_AT + 0.8 + HOLD_S, failsafe)).step is GuideStep.SWITCH_ON
    assert guide.wanted_transmitter() is True
    guide.note_switch(True, OFF_AT + 2.0, by_program=False)
    assert guide.update(inputs(OFF_AT + 2.1, failsafe)).step is GuideStep.WAIT_RECOVERY
    recovery = (NOT_ACTIVE, OFF_AT + 2.5)
    assert guide.update(inputs(OFF_AT + 2.5 + HOLD_S / 2, failsafe, recovery)).step is GuideStep.WAIT_RECOVERY
    state = guide.update(inputs(OFF_AT + 2.5 + HOLD_S, failsafe, recovery))
    assert state.step is GuideStep.DONE
    assert (state.off_at, state.failsafe_at, state.on_at, state.recovered_at) == (
        OFF_AT,
        OFF_AT + 0.8,
        OFF_AT + 2.0,
        OFF_AT + 2.5,
    )
    assert (state.no_failsafe, state.no_recovery) == (False, False)
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


def test_no_failsafe_waits_for_a_vehicle_whose_clock_runs_slower_than_ours() -> None:
    """
    GIVEN the transmitter off, live telemetry without a failsafe, and a vehicle whose own clock
          runs at a third of ours (SITL on a loaded machine; its failsafe timeout runs on its clock)
    WHEN our deadline (timeout plus margin) passes, then the vehicle's clock passes it too; and for
         a vehicle whose clock stopped, when ours has waited four times as long
    THEN "no failsafe" waits for the vehicle's clock, and at most four times the wait on ours
    """
    wait_s = TIMEOUT_S + FAILSAFE_MARGIN_S

    def at(now: float, rate: float) -> GuideInputs:
        return inputs(now, vehicle_clock_s=100.0 + rate * (now - OFF_AT))

    slow = switched_off()
    slow.update(at(OFF_AT + 0.1, 1 / 3))
    assert not slow.update(at(OFF_AT + wait_s + 0.1, 1 / 3)).no_failsafe
    assert not slow.update(at(OFF_AT + 3 * wait_s - 0.1, 1 / 3)).no_failsafe
    assert slow.update(at(OFF_AT + 3 * wait_s + 0.5, 1 / 3)).no_failsafe
    stopped = switched_off()
    stopped.update(at(OFF_AT + 0.1, 0.0))
    assert not stopped.update(at(OFF_AT + 4 * wait_s - 0.1, 0.0)).no_failsafe
    assert stopped.update(at(OFF_AT + 4 * wait_s + 0.1, 0.0)).no_failsafe


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
    GIVEN failsafes 6 s and 4 s before the user's "off", the later one still active at "off"
    WHEN the first failsafe after "off" is looked for
    THEN the one 4 s before counts (people switch first and click second), the one 6 s before not;
         one within the grace that had cleared before "off", or that did not hold for `HOLD_S`,
         does not count either, and before any "off" nothing counts

    Changed with the rules: without a start the answer is now ``None`` (it was the first failsafe
    ever), since nothing counts before the transmitter went off; a failsafe within the grace counts
    only if still active at "off"; and a failsafe or a recovery counts only once it held, so both
    look-ups take the caller's ``now``.
    """
    now = OFF_AT + 1.0
    transitions = ((ACTIVE, OFF_AT - 6.0), (NOT_ACTIVE, OFF_AT - 5.5), (ACTIVE, OFF_AT - 4.0))
    assert first_failsafe_after(transitions, OFF_AT, now) == OFF_AT - 4.0
    assert first_failsafe_after(transitions[:2], OFF_AT, now) is None
    assert first_failsafe_after(transitions, None, now) is None
    cleared_before_off = ((ACTIVE, OFF_AT - 4.0), (NOT_ACTIVE, OFF_AT - 1.0))
    assert first_failsafe_after(cleared_before_off, OFF_AT, now) is None
    assert first_failsafe_after(((ACTIVE, OFF_AT + 0.8),), OFF_AT, OFF_AT + 0.8 + HOLD_S / 2) is None
    assert recovery_after(((ACTIVE, 1.0), (NOT_ACTIVE, 2.0)), 1.0, 2.0 + HOLD_S) == 2.0
    assert recovery_after(((ACTIVE, 1.0), (NOT_ACTIVE, 2.0)), 1.0, 2.0 + HOLD_S / 2) is None
    assert recovery_after(((NOT_ACTIVE, 0.5), (ACTIVE, 1.0)), 1.0, 5.0) is None


@given(
    st.lists(st.tuples(st.sampled_from([ACTIVE, NOT_ACTIVE]), st.floats(0.0, 100.0)), max_size=20),
    st.floats(0.0, 100.0),
    st.floats(0.0, 10.0),
)
def test_the_first_failsafe_after_a_start_is_never_earlier_than_the_grace_allows(
    transitions: list[tuple[FailsafeStatus, float]], start: float, later: float
) -> None:
    """
    GIVEN any failsafe transitions in time order, any start and a clock at or after the last of them
    WHEN the first failsafe after the start is looked for
    THEN it is an ACTIVE transition no earlier than the start less the late-confirmation grace,
         and the first such one that held for `HOLD_S` and, if it began before the start, had not
         cleared before it

    Changed with the rules: a failsafe counts only once it held, and one within the grace only if
    still active at the start; the transitions are now in time order, as the tracker keeps them,
    since how long one held is read from the next one.
    """
    ordered = tuple(sorted(transitions, key=lambda transition: transition[1]))
    now = (ordered[-1][1] if ordered else start) + later
    found = first_failsafe_after(ordered, start, now)
    candidates = []
    for index, (status, at) in enumerate(ordered):
        ends = ordered[index + 1][1] if index + 1 < len(ordered) else now
        held = ends - at >= HOLD_S
        cleared_before_start = index + 1 < len(ordered) and ends < start
        within_grace = at >= start - LATE_CONFIRMATION_S and not (at < start and cleared_before_start)
        if status is ACTIVE and within_grace and held:
            candidates.append(at)
    assert found == (candidates[0] if candidates else None)
    assert found is None or found >= start - LATE_CONFIRMATION_S


# ---- evidence never skips a step ----------------------------------------------------------------


def test_a_failsafe_active_at_connection_and_its_recovery_do_not_skip_the_sticks_or_the_off_on_cycle() -> (
    None
):
    """
    GIVEN the check connected while the transmitter is still off: RC failsafe at 0.0 s
    WHEN the guide looks
    THEN it waits for the transmitter (no stick asked, sticks not judged on held values), and the
         verdict says to switch it on
    WHEN the transmitter is switched on (recovery at 3.0 s) and that holds
    THEN the guide asks for the first stick, not "done", and the verdict asks for it too
    """
    guide = TransmitterGuide()
    at_connection: Transitions = ((ACTIVE, 0.0),)
    state = guide.update(copter(1.0, at_connection, axes=COPTER_AXES))
    assert state.step is GuideStep.WAIT_TELEMETRY
    assert state.failsafe_before_test
    assert state.stick is None
    first = verdict_of(state, 1.0, at_connection)
    assert first.result is VerdictResult.INCOMPLETE
    assert first.detail.startswith("RC failsafe is active: switch the transmitter on.")

    switched_on: Transitions = ((ACTIVE, 0.0), (NOT_ACTIVE, 3.0))
    state = guide.update(copter(3.0 + 2 * HOLD_S, switched_on, axes=COPTER_AXES))
    assert state.step is GuideStep.MOVE_STICKS
    assert state.failsafe_at is None
    assert state.recovered_at is None
    assert state.stick is not None
    assert state.stick.number == 1
    second = verdict_of(state, 3.0 + 2 * HOLD_S, switched_on)
    assert second.result is VerdictResult.INCOMPLETE
    assert "Stick 1 of 4" in second.detail


def test_a_failsafe_seen_before_off_still_asks_for_the_off_on_cycle_and_then_passes() -> None:
    """
    GIVEN the sticks done and a failsafe (0.0 s) and recovery (3.0 s) seen before the test asked
    WHEN the guide looks
    THEN it asks to switch the transmitter off; the verdict agrees
    WHEN the transmitter goes off at 10 s, RC failsafe comes at 11 s and holds, it goes on at 13 s
         and the failsafe clears at 13.2 s and holds
    THEN the guide is done and the verdict PASSED, with the latency from the off: 1.0 s
    """
    guide = TransmitterGuide()
    before: Transitions = ((ACTIVE, 0.0), (NOT_ACTIVE, 3.0))
    state = guide.update(copter(5.0, before))
    assert state.step is GuideStep.SWITCH_OFF
    assert verdict_of(state, 5.0, before).detail == "Switch the transmitter off."

    guide.note_switch(False, 10.0, by_program=False)
    failsafe: Transitions = (*before, (ACTIVE, 11.0))
    assert guide.update(copter(11.0 + HOLD_S / 2, failsafe)).step is GuideStep.WAIT_FAILSAFE
    state = guide.update(copter(11.0 + HOLD_S, failsafe))
    assert state.step is GuideStep.SWITCH_ON
    assert verdict_of(state, 11.0 + HOLD_S, failsafe).detail == "Switch the transmitter back on."

    guide.note_switch(True, 13.0, by_program=False)
    recovered: Transitions = (*failsafe, (NOT_ACTIVE, 13.2))
    assert guide.update(copter(13.2 + HOLD_S / 2, recovered)).step is GuideStep.WAIT_RECOVERY
    state = guide.update(copter(13.2 + HOLD_S, recovered))
    assert state.step is GuideStep.DONE
    passed = verdict_of(state, 13.2 + HOLD_S, recovered)
    assert passed.result is VerdictResult.PASSED
    assert passed.failsafe_latency_s == pytest.approx(1.0)


def test_a_person_who_switches_off_first_and_clicks_next_still_counts() -> None:
    """
    GIVEN the sticks done
    WHEN RC failsafe comes at 10 s and is still active when the person presses "It is off" at 11 s
    THEN that failsafe counts (the person switched first)
    WHEN instead the failsafe had already cleared before the press
    THEN it does not: the guide waits for one after the press
    """
    still_active: Transitions = ((ACTIVE, 10.0),)
    guide = TransmitterGuide()
    guide.note_switch(False, 11.0, by_program=False)
    state = guide.update(copter(11.0, still_active))
    assert state.step is GuideStep.SWITCH_ON
    assert state.failsafe_at == 10.0

    cleared: Transitions = ((ACTIVE, 9.0), (NOT_ACTIVE, 10.0))
    other = TransmitterGuide()
    other.note_switch(False, 11.0, by_program=False)
    state = other.update(copter(11.5, cleared))
    assert state.step is GuideStep.WAIT_FAILSAFE
    assert state.failsafe_at is None


def test_a_health_bit_flipping_on_every_message_never_finishes_the_test() -> None:
    """
    GIVEN the sticks done and the transmitter confirmed off at 10 s, then on at 12 s
    WHEN the receiver's health bit flips on every SYS_STATUS (5 Hz) for 30 s
    THEN at no moment is the guide done, nor does it conclude "no failsafe"; the verdict is never
         PASSED nor FAILED
    """
    guide = TransmitterGuide()
    guide.note_switch(False, 10.0, by_program=False)
    transitions: list[tuple[FailsafeStatus, float]] = []
    now = 10.0
    while now < 40.0:
        now = round(now + 0.2, 3)
        transitions.append((ACTIVE if len(transitions) % 2 == 0 else NOT_ACTIVE, now))
        if now == 12.0:
            guide.note_switch(True, now, by_program=False)
        seen = tuple(transitions)
        state = guide.update(copter(now + 0.1, seen))
        assert state.step is not GuideStep.DONE, now
        assert not state.no_failsafe
        assert verdict_of(state, now + 0.1, seen).result is VerdictResult.INCOMPLETE


@pytest.mark.parametrize("connected_in_failsafe", [False, True])
def test_the_verdict_is_passed_only_when_the_guide_is_done(connected_in_failsafe: bool) -> None:
    """
    GIVEN a test with or without a failsafe already active at connection
    WHEN it runs through the sticks (none asked of a family without sticks here), the off/on cycle,
         update by update
    THEN the verdict is PASSED exactly when the guide's step is DONE
    """
    guide = TransmitterGuide()
    transitions: list[tuple[FailsafeStatus, float]] = (
        [(ACTIVE, 0.0), (NOT_ACTIVE, 2.0)] if connected_in_failsafe else []
    )
    events = {5.0: "off", 6.0: "failsafe", 8.0: "on", 8.4: "cleared"}
    now = 0.0
    while now < 12.0:
        now = round(now + 0.1, 3)
        event = events.get(now)
        if event == "off":
            guide.note_switch(False, now, by_program=False)
        elif event == "on":
            guide.note_switch(True, now, by_program=False)
        elif event == "failsafe":
            transitions.append((ACTIVE, now))
        elif event == "cleared":
            transitions.append((NOT_ACTIVE, now))
        seen = [entry for entry in transitions if entry[1] <= now]
        state = guide.update(copter(now, tuple(seen)))
        result = verdict_of(state, now, tuple(seen)).result
        assert (result is VerdictResult.PASSED) == (state.step is GuideStep.DONE), now
    assert state.step is GuideStep.DONE


def test_a_failsafe_that_held_and_ended_before_the_switch_off_leaves_no_failsafe_to_conclude() -> None:
    """
    GIVEN a failsafe that held from 6 s to 9 s and cleared, the transmitter switched off at 10 s
    WHEN no failsafe follows and the wait runs out
    THEN the guide concludes "no failsafe": only a failsafe that never held (a flipping health
    bit) keeps it waiting, and this one held and ended before the test's switch-off.
    """
    guide = TransmitterGuide()
    transitions: Transitions = ((FailsafeStatus.ACTIVE, 6.0), (FailsafeStatus.NOT_ACTIVE, 9.0))
    for now in (1.0, 2.0, 3.0):
        guide.update(copter(now, ()))
    guide.note_switch(False, 10.0, by_program=False)
    state = guide.update(copter(100.0, transitions))
    assert state.no_failsafe
