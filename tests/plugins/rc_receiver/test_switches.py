# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The switch step (`rc_receiver.switches.SwitchTest`) on the caller's clock: what a person is asked,
what a program's transmitter is told, and the mode switch's evidence in message order."""

from __future__ import annotations

import pytest

from amc_rc_receiver.plugins.rc_receiver.firmware import mode_slot
from amc_rc_receiver.plugins.rc_receiver.modes import AUX_HIGH_US, AUX_LOW_US, IDLE_S, SLOT_CENTRE_US
from amc_rc_receiver.plugins.rc_receiver.switches import SLOT_WAIT_S, SwitchHold, SwitchTest

pytestmark = pytest.mark.pure


def at_slot(test: SwitchTest, pwm: int, now: float) -> None:
    test.observe_slot(mode_slot(pwm), pwm, now)


def test_a_heartbeat_counts_for_a_slot_only_once_the_switch_settled_there() -> None:
    """GIVEN the switch moved to slot 3 at 10.0 s WHEN HEARTBEATs come at 10.1 s (the old mode) and
    at 11.0 s (LOITER) THEN slot 3 records only LOITER, from one HEARTBEAT."""
    test = SwitchTest()
    at_slot(test, 1425, 10.0)
    at_slot(test, 1425, 10.1)
    test.note_heartbeat(0, 10.1)
    at_slot(test, 1425, 11.0)
    test.note_heartbeat(5, 11.0)
    (visit,) = test.visits()
    assert (visit.slot, visit.reported_modes, visit.heartbeats) == (3, (5,), 1)


def test_a_refusal_text_counts_for_the_slot_the_switch_is_in() -> None:
    """GIVEN the switch in slot 6 WHEN ArduPilot refuses THEN slot 6 carries the text; other texts do not."""
    test = SwitchTest()
    at_slot(test, 1815, 1.0)
    at_slot(test, 1815, 1.3)
    test.note_text("PreArm: Need Position Estimate", 1.3)
    test.note_text("Mode change to SMARTRTL failed: init failed", 1.4)
    (visit,) = test.visits()
    assert visit.failure_text == "Mode change to SMARTRTL failed: init failed"


def test_a_program_is_told_each_slot_then_each_aux_switch_high_and_low_then_slot_1() -> None:
    """GIVEN a program-owned transmitter, the mode switch on CH5 and an aux switch on CH7
    WHEN the vehicle answers each slot with its mode and the aux switch follows
    THEN the holds go through the six slot centres, CH7 high and low, and end with CH5 in slot 1."""
    test = SwitchTest()
    modes = {slot: slot * 10 for slot in range(1, 7)}
    told: list[SwitchHold] = []
    now = 0.0
    pwm: dict[int, int] = {}

    def tick() -> None:
        test.update(now, 5, (7,), pwm, by_program=True, slot_modes=modes)
        hold = test.wanted()
        if hold is not None and (not told or told[-1] != hold):
            told.append(hold)
        if hold is not None and hold.channel is not None:
            pwm[hold.channel] = hold.pwm

    tick()
    for _round in range(40):
        now += 0.3
        if 5 in pwm:
            at_slot(test, pwm[5], now)
            slot = mode_slot(pwm[5])
            assert slot is not None
            test.note_heartbeat(modes[slot], now)
        tick()
        if test.done():
            break
    assert test.done()
    assert told == [
        *(SwitchHold(5, centre) for centre in SLOT_CENTRE_US),
        SwitchHold(7, AUX_HIGH_US),
        SwitchHold(7, AUX_LOW_US),
        SwitchHold(5, SLOT_CENTRE_US[0]),
    ]
    assert test.prompt().aux_flipped == (7,)
    assert [visit.slot for visit in test.visits()] == [1, 2, 3, 4, 5, 6]


def test_a_program_moves_on_from_a_slot_the_vehicle_never_answers() -> None:
    """GIVEN a program-owned transmitter and a vehicle that sends no HEARTBEAT WHEN each slot's wait
    runs out THEN the step ends after the sixth."""
    test = SwitchTest()
    now = 0.0
    for _slot in range(7):
        test.update(now, 5, (), {}, by_program=True)
        now += SLOT_WAIT_S
    test.update(now, 5, (), {}, by_program=True)
    assert test.done()


def test_a_person_is_done_once_every_slot_and_switch_was_seen_or_after_the_idle_time() -> None:
    """GIVEN a person's transmitter WHEN all six slots and the aux switch are seen THEN the step ends;
    GIVEN another that flips nothing WHEN 20 s pass THEN it ends too, and s ends it at once."""
    test = SwitchTest()
    test.update(0.0, 5, (7,), {7: 1000}, by_program=False)
    for index, centre in enumerate(SLOT_CENTRE_US):
        at_slot(test, centre, 1.0 + index)
        at_slot(test, centre, 1.5 + index)
    assert not test.done()
    test.update(8.0, 5, (7,), {7: 2000}, by_program=False)
    assert test.done()

    idle = SwitchTest()
    idle.update(0.0, 5, (), {}, by_program=False)
    idle.update(IDLE_S - 0.1, 5, (), {}, by_program=False)
    assert not idle.done()
    idle.update(IDLE_S, 5, (), {}, by_program=False)
    assert idle.done()

    skipped = SwitchTest()
    skipped.update(0.0, 5, (), {}, by_program=False)
    skipped.skip(1.0)
    assert skipped.done()
    assert skipped.wanted() is None
