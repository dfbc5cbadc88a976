# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Evidence never skips a step: the guide's rules, and the verdict that follows its last step.

Pure: the guide is fed hand-made failsafe transitions on a hand-moved clock, as the tracker feeds
it from SYS_STATUS.  The cases are the ones a person meets: connecting while the transmitter is
still off, switching first and clicking second, and a receiver health bit that flips on every
message.
"""

from __future__ import annotations

import pytest

from amc_rc_receiver.plugins.rc_receiver.firmware import VehicleFamily
from amc_rc_receiver.plugins.rc_receiver.guide import HOLD_S, GuideInputs, TransmitterGuide
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

ACTIVE, CLEARED = FailsafeStatus.ACTIVE, FailsafeStatus.NOT_ACTIVE
COPTER_STICKS = stick_axes(VehicleFamily.COPTER)
Transitions = tuple[tuple[FailsafeStatus, float], ...]


def inputs(now: float, transitions: Transitions, *, axes: tuple[str, ...] = ()) -> GuideInputs:
    """What the tracker gives the guide: live telemetry, RC_FS_TIMEOUT 1 s, the current status."""
    return GuideInputs(
        now=now,
        telemetry_live=True,
        transitions=transitions,
        failsafe_timeout_s=1.0,
        automatic=False,
        stick_axes=axes,
        family=VehicleFamily.COPTER,
        failsafe_active=bool(transitions) and transitions[-1][0] is ACTIVE,
    )


def verdict(guide: GuideState, now: float, transitions: Transitions) -> Verdict:
    """The verdict of a complete set-up: parameters read, receiver seen, no finding."""
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
            failsafe=transitions[-1][0] if transitions else CLEARED,
            failsafe_observed=any(status is ACTIVE for status, _at in transitions),
            recovery_observed=bool(transitions) and transitions[-1][0] is CLEARED,
            transitions=transitions,
            parameters_complete=True,
            failsafe_timeout_s=1.0,
            now=now,
        )
    )


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
    state = guide.update(inputs(1.0, at_connection, axes=COPTER_STICKS))
    assert state.step is GuideStep.WAIT_TELEMETRY
    assert state.failsafe_before_test
    assert state.stick is None
    first = verdict(state, 1.0, at_connection)
    assert first.result is VerdictResult.INCOMPLETE
    assert first.detail.startswith("RC failsafe is active: switch the transmitter on.")

    switched_on: Transitions = ((ACTIVE, 0.0), (CLEARED, 3.0))
    state = guide.update(inputs(3.0 + 2 * HOLD_S, switched_on, axes=COPTER_STICKS))
    assert state.step is GuideStep.MOVE_STICKS
    assert state.failsafe_at is None
    assert state.recovered_at is None
    assert state.stick is not None
    assert state.stick.number == 1
    second = verdict(state, 3.0 + 2 * HOLD_S, switched_on)
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
    before: Transitions = ((ACTIVE, 0.0), (CLEARED, 3.0))
    state = guide.update(inputs(5.0, before))
    assert state.step is GuideStep.SWITCH_OFF
    assert verdict(state, 5.0, before).detail == "Switch the transmitter off."

    guide.note_switch(False, 10.0, by_program=False)
    failsafe: Transitions = (*before, (ACTIVE, 11.0))
    assert guide.update(inputs(11.0 + HOLD_S / 2, failsafe)).step is GuideStep.WAIT_FAILSAFE
    state = guide.update(inputs(11.0 + HOLD_S, failsafe))
    assert state.step is GuideStep.SWITCH_ON
    assert verdict(state, 11.0 + HOLD_S, failsafe).detail == "Switch the transmitter back on."

    guide.note_switch(True, 13.0, by_program=False)
    recovered: Transitions = (*failsafe, (CLEARED, 13.2))
    assert guide.update(inputs(13.2 + HOLD_S / 2, recovered)).step is GuideStep.WAIT_RECOVERY
    state = guide.update(inputs(13.2 + HOLD_S, recovered))
    assert state.step is GuideStep.DONE
    passed = verdict(state, 13.2 + HOLD_S, recovered)
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
    state = guide.update(inputs(11.0, still_active))
    assert state.step is GuideStep.SWITCH_ON
    assert state.failsafe_at == 10.0

    cleared: Transitions = ((ACTIVE, 9.0), (CLEARED, 10.0))
    other = TransmitterGuide()
    other.note_switch(False, 11.0, by_program=False)
    state = other.update(inputs(11.5, cleared))
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
        transitions.append((ACTIVE if len(transitions) % 2 == 0 else CLEARED, now))
        if now == 12.0:
            guide.note_switch(True, now, by_program=False)
        seen = tuple(transitions)
        state = guide.update(inputs(now + 0.1, seen))
        assert state.step is not GuideStep.DONE, now
        assert not state.no_failsafe
        assert verdict(state, now + 0.1, seen).result is VerdictResult.INCOMPLETE


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
        [(ACTIVE, 0.0), (CLEARED, 2.0)] if connected_in_failsafe else []
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
            transitions.append((CLEARED, now))
        seen = [entry for entry in transitions if entry[1] <= now]
        state = guide.update(inputs(now, tuple(seen)))
        result = verdict(state, now, tuple(seen)).result
        assert (result is VerdictResult.PASSED) == (state.step is GuideStep.DONE), now
    assert state.step is GuideStep.DONE
