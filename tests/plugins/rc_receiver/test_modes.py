# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The mode switch's facts and judgement (`rc_receiver.modes`) and its findings
(`rc_receiver.findings.modes`): band ends, ArduPilot's refusal texts, each visited slot judged."""

from __future__ import annotations

import pytest

from amc_rc_receiver.plugins.rc_receiver.findings.modes import mode_findings
from amc_rc_receiver.plugins.rc_receiver.firmware import VehicleFamily, mode_slot
from amc_rc_receiver.plugins.rc_receiver.modes import (
    BAND_ENDS_US,
    SLOT_CENTRE_US,
    aux_switch_channels,
    is_mode_refusal,
    judge_slots,
    near_band_end,
)
from amc_rc_receiver.plugins.rc_receiver.snapshot import ModeOutcome, ModeSlotVisit, Severity

pytestmark = pytest.mark.pure

COPTER_SLOTS = {"FLTMODE1": 0, "FLTMODE2": 2, "FLTMODE3": 5, "FLTMODE4": 3, "FLTMODE5": 4, "FLTMODE6": 21}


def test_each_band_ends_where_arduPilot_starts_the_next_slot() -> None:
    """GIVEN ArduPilot's band ends WHEN the last and the first PWM of each pair of slots are read
    THEN they select neighbouring slots, and each slot's centre selects its own slot."""
    for slot, end in enumerate(BAND_ENDS_US, start=1):
        assert mode_slot(end) == slot
        assert mode_slot(end + 1) == slot + 1
    assert [mode_slot(pwm) for pwm in SLOT_CENTRE_US] == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize(
    ("pwm", "end"),
    [
        (1215, 1230),
        (1230, 1230),
        (1246, 1230),
        (1214, None),
        (1247, None),
        (1165, None),
        (1764, 1749),
        (1815, None),
    ],
)
def test_a_pwm_within_15_us_of_a_band_end_is_near_it_on_either_side(pwm: int, end: int | None) -> None:
    """GIVEN a mode channel PWM WHEN it is checked THEN the band end within 15 µs is named, else none."""
    assert near_band_end(pwm) == end


@pytest.mark.parametrize(
    ("text", "refusal"),
    [
        ("Mode change to SMARTRTL failed: init failed", True),
        ("Mode change to AUTO RTL failed: No return path or ", True),
        ("Flight mode change failed", True),
        ("Mode change to LOITER denied, GCS entry disabled (FLTMODE_GCSBLOCK)", False),
        ("PreArm: Need Position Estimate", False),
    ],
)
def test_arduPilots_refusals_are_recognised_on_every_vehicle(text: str, refusal: bool) -> None:
    """GIVEN texts of ArduCopter, ArduPlane and ArduRover WHEN classified THEN only refusals of a
    mode change count (a GCS block is not the mode switch's)."""
    assert is_mode_refusal(text) is refusal


def test_a_slot_is_entered_refused_or_unconfirmed_by_what_the_vehicle_reported() -> None:
    """GIVEN visits: one whose HEARTBEAT reported the slot's mode, one with ArduPilot's refusal, one
    with two HEARTBEATs of another mode, one without a HEARTBEAT yet
    WHEN judged with Copter's FLTMODEn THEN entered, refused, refused and unconfirmed, named."""
    visits = (
        ModeSlotVisit(3, 1.0, 1425, reported_modes=(5,), heartbeats=1),
        ModeSlotVisit(6, 2.0, 1815, failure_text="Mode change to SMARTRTL failed: init failed"),
        ModeSlotVisit(4, 3.0, 1555, reported_modes=(5,), heartbeats=2),
        ModeSlotVisit(5, 4.0, 1685),
    )
    judged = judge_slots(VehicleFamily.COPTER, COPTER_SLOTS, visits)
    assert [(visit.slot, visit.mode_name, visit.outcome) for visit in judged] == [
        (3, "LOITER", ModeOutcome.ENTERED),
        (6, "SMART_RTL", ModeOutcome.REFUSED),
        (4, "AUTO", ModeOutcome.REFUSED),
        (5, "GUIDED", ModeOutcome.UNCONFIRMED),
    ]
    assert judged[2].reported_name == "LOITER"


def test_a_refused_slot_and_a_pwm_near_a_band_end_are_warnings_naming_the_slot_parameter() -> None:
    """GIVEN slot 6 refused with ArduPilot's text and slot 2 visited at 1238 µs
    WHEN the findings are made THEN two warnings: the refusal quoted, the band end at 1230 µs."""
    visits = judge_slots(
        VehicleFamily.COPTER,
        COPTER_SLOTS,
        (
            ModeSlotVisit(2, 1.0, 1238, reported_modes=(2,), heartbeats=1),
            ModeSlotVisit(6, 2.0, 1815, failure_text="Mode change to SMARTRTL failed: init failed"),
        ),
    )
    findings = {
        finding.code: finding for finding in mode_findings(VehicleFamily.COPTER, COPTER_SLOTS, visits)
    }
    refused = findings["mode_not_entered"]
    assert refused.severity is Severity.WARNING
    assert refused.parameter == "FLTMODE6"
    assert '"Mode change to SMARTRTL failed: init failed"' in refused.message
    near = findings["mode_pwm_near_band_end"]
    assert near.severity is Severity.WARNING
    assert "1238 µs" in near.message
    assert "1230 µs" in near.message
    assert "1295 µs" in near.action


def test_aux_switches_are_the_delivered_option_channels_but_sticks_the_mode_channel_and_arming() -> None:
    """GIVEN options on CH1 (a stick), CH5 (the mode channel), CH6 (ArmDisarm), CH7 and CH9, and a
    receiver that delivers 8 channels WHEN the aux switches are listed THEN only CH7."""
    values = {"RC1_OPTION": 9, "RC5_OPTION": 9, "RC6_OPTION": 153, "RC7_OPTION": 9, "RC9_OPTION": 4}
    assert aux_switch_channels(VehicleFamily.COPTER, values, 8, 5) == (7,)
