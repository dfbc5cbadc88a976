# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The mode switch in the data model, the way a person meets it at the switch step: a scripted
flight controller sends RC_CHANNELS, HEARTBEAT (its custom_mode) and ArduPilot's refusal as
STATUSTEXT over loopback UDP while the model's clock is moved by hand.  `SwitchTest` itself is
driven directly in tests/plugins/rc_receiver/test_switches.py."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.plugins.rc_receiver.modes import SETTLED_AFTER_S
from amc_rc_receiver.plugins.rc_receiver.snapshot import (
    GuideStep,
    ModeOutcome,
    RCReceiverState,
    Severity,
    VerdictResult,
)
from amc_rc_receiver.plugins.rc_receiver.wording import guide_instruction
from tests.plugins.data_model_rc_receiver_harness import (
    REST,
    STICK_PUSHES,
    ModelHarness,
    failsafe,
    prearm_answered,
    push_stick,
    send_frame,
    with_parameters,
)

pytestmark = pytest.mark.loopback

STABILIZE, LOITER, SMART_RTL = 0, 5, 21


@pytest.fixture
def harness() -> Iterator[ModelHarness]:
    with ModelHarness() as created:
        yield created


def with_mode_switch(pwm: int) -> Sequence[int]:
    frame = list(REST)
    frame[4] = pwm
    return frame


def settle_in(
    harness: ModelHarness, pwm: int, custom_mode: int, text: bytes | None = None
) -> RCReceiverState:
    """The mode switch moved to ``pwm`` and held; ArduPilot's ``text``, then a HEARTBEAT with
    ``custom_mode`` once the switch settled."""
    send_frame(harness, with_mode_switch(pwm))
    harness.clock.advance(SETTLED_AFTER_S)
    send_frame(harness, with_mode_switch(pwm))
    if text is not None:
        harness.vehicle.send(mavlink2.MAVLink_statustext_message(mavlink2.MAV_SEVERITY_WARNING, text))
    # The vehicle's own heartbeats report the mode from now on too, as ArduPilot's do.
    harness.vehicle.custom_mode = custom_mode
    harness.vehicle.send(mavlink2.MAVLink_heartbeat_message(2, 3, 81, custom_mode, 3, 3))
    return send_frame(harness, with_mode_switch(pwm))


def test_the_switch_step_shows_each_slots_mode_the_reported_mode_and_a_refusal_as_a_finding(
    harness: ModelHarness,
) -> None:
    """
    GIVEN a Copter with FLTMODE3 LOITER and FLTMODE6 SMART_RTL, the sticks done
    WHEN a person puts the mode switch in slot 3 (the vehicle reports LOITER), then in slot 6
         (ArduPilot says "Mode change to SMARTRTL failed: init failed" and stays in LOITER), then
         goes on, and the failsafe test passes
    THEN the step asks to flip the mode switch on CH5; beside slot 6 the flight controller reports
         LOITER; slot 3 is entered and slot 6 not, a warning quotes ArduPilot, and the PASSED verdict
         lists the slots
    """
    with_parameters(harness, FLTMODE3=LOITER, FLTMODE6=SMART_RTL)
    for channel, end in STICK_PUSHES.items():
        push_stick(harness, channel, end)
    state = send_frame(harness, REST)
    assert state.guided.guide.step is GuideStep.FLIP_SWITCHES
    assert "Flip the mode switch (CH5)" in guide_instruction(state.guided)

    settle_in(harness, 1425, LOITER)
    state = settle_in(harness, 1815, LOITER, b"Mode change to SMARTRTL failed: init failed")

    reading = state.guided.flight_mode
    assert reading is not None
    assert (reading.slot, reading.mode_name, reading.reported_mode_name) == (6, "SMART_RTL", "LOITER")
    outcomes = {visit.slot: visit.outcome for visit in state.guided.mode_slots}
    assert outcomes[3] is ModeOutcome.ENTERED
    assert outcomes[6] is ModeOutcome.REFUSED
    (refused,) = [finding for finding in state.guided.findings if finding.code == "mode_not_entered"]
    assert refused.severity is Severity.WARNING
    assert "Mode change to SMARTRTL failed: init failed" in refused.message

    harness.model.skip_stick()
    harness.model.confirm_transmitter(False)
    harness.clock.advance(1.0)
    failsafe(harness, active=True)
    harness.model.confirm_transmitter(True)
    failsafe(harness, active=False)
    state = prearm_answered(harness)
    verdict = state.guided.verdict
    assert verdict.result is VerdictResult.PASSED
    assert "slot 3 LOITER: entered" in verdict.detail
    assert "slot 6 SMART_RTL: not entered" in verdict.detail


def test_a_mode_switch_within_15_us_of_a_band_end_is_said_beside_the_slot_and_as_a_warning(
    harness: ModelHarness,
) -> None:
    """GIVEN the sticks done WHEN the mode switch settles at 1238 µs THEN the reading names the band
    end at 1230 µs and a warning says how far the slot's centre is."""
    with_parameters(harness)
    for channel, end in STICK_PUSHES.items():
        push_stick(harness, channel, end)
    state = settle_in(harness, 1238, 2)
    reading = state.guided.flight_mode
    assert reading is not None
    assert (reading.slot, reading.near_band_end) == (2, 1230)
    assert "mode_pwm_near_band_end" in {finding.code for finding in state.guided.findings}
