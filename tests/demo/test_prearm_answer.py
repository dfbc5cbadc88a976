# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The simulated vehicle answers MAV_CMD_RUN_PREARM_CHECKS as ArduPilot does: it acknowledges and
sends the receiver texts its pre-arm checks give (``AP_Arming::manual_transmitter_checks``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from amc_rc_receiver.demo.vehicle_rules import prearm_receiver_texts
from amc_rc_receiver.plugins.rc_receiver.snapshot import FailsafeStatus, PrearmMoment, RCReceiverState
from amc_rc_receiver.standalone.options import DEMO_DEVICE
from amc_rc_receiver.standalone.session import VehicleSession
from tests.support.waiting import poll_until

CALIBRATED = {
    f"RC{n}_{kind}": pwm for n in range(1, 17) for kind, pwm in (("MIN", 1000), ("TRIM", 1500), ("MAX", 2000))
}


@pytest.mark.pure
@pytest.mark.parametrize(
    ("in_failsafe", "changes", "texts"),
    [
        (False, {}, []),
        (True, {"RC1_MIN": 1600}, ["PreArm: Radio failsafe on"]),
        (False, {"RC1_MIN": 1600}, ["PreArm: RC1_MIN is greater than RC1_TRIM"]),
        (False, {"RC8_MAX": 1400}, ["PreArm: RC8_MAX is less than RC8_TRIM"]),
        # beyond the channels the receiver delivers, ArduPilot does not look
        (False, {"RC9_MIN": 1600}, []),
    ],
)
def test_the_simulated_vehicles_pre_arm_texts_are_ardupilots_for_its_receiver(
    in_failsafe: bool, changes: dict[str, float], texts: list[str]
) -> None:
    """GIVEN the simulated vehicle's receiver (8 channels, in failsafe or not) and its calibration
    WHEN its pre-arm checks run
    THEN it says what ArduPilot says: "Radio failsafe on" alone in failsafe, else each delivered
    channel whose RCn_MIN or RCn_MAX lies on the wrong side of RCn_TRIM"""
    values = {**CALIBRATED, **changes}
    assert prearm_receiver_texts(in_failsafe=in_failsafe, chancount=8, value=values.get) == texts


@pytest.fixture
def session() -> Iterator[VehicleSession]:
    built = VehicleSession()
    assert built.connect(DEMO_DEVICE) == ""
    yield built
    built.close()


@pytest.mark.loopback
def test_the_check_asks_the_demo_and_it_accepts_and_reports_no_receiver_failure(
    session: VehicleSession,
) -> None:
    """GIVEN the check on the simulated vehicle, its receiver delivering
    WHEN the check has read the parameters and asked for the pre-arm checks
    THEN the vehicle accepted, and no receiver failure came back"""
    session.model.activate()

    def answered(state: RCReceiverState) -> bool:
        return state.failsafe is FailsafeStatus.NOT_ACTIVE and any(a.complete for a in state.guided.prearm)

    state = poll_until(session.model.poll, answered, "the demo's pre-arm answer", 30.0, interval_s=0.05)
    (answer,) = state.guided.prearm
    assert (answer.moment, answer.outcome, answer.refusals) == (PrearmMoment.PARAMETERS_READ, "accepted", ())
