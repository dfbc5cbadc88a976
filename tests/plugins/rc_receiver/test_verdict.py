# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The verdict, driven directly: `decide_verdict` on `VerdictInputs`, each branch of PASSED, FAILED
and INCOMPLETE, with no model, socket or clock behind it."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amc_rc_receiver.plugins.rc_receiver.firmware import RC_OPTION_IGNORE_FAILSAFE_BIT, VehicleFamily
from amc_rc_receiver.plugins.rc_receiver.guide import RECOVERY_WAIT_S
from amc_rc_receiver.plugins.rc_receiver.snapshot import (
    FailsafeStatus,
    Finding,
    GuideState,
    GuideStep,
    Severity,
    StickOutcome,
    StickPrompt,
    StickResult,
    VerdictResult,
)
from amc_rc_receiver.plugins.rc_receiver.verdict import VerdictInputs, decide_verdict, no_failsafe_cause
from amc_rc_receiver.plugins.rc_receiver.wording import stick_instruction

pytestmark = pytest.mark.pure

OFF_AT, FAILSAFE_AT, ON_AT, RECOVERED_AT = 10.0, 11.2, 13.0, 13.5
BLOCKING = Finding("rc_failsafe_disabled", Severity.BLOCKING, "RC failsafe is disabled.", "Enable it.")
WARNING = Finding("rc_overrides_never_time_out", Severity.WARNING, "Overrides never time out.", "Set it.")


def passing(**changes: object) -> VerdictInputs:
    """Inputs of a whole test that passed: failsafe 1.2 s after the user's "off", cleared after "on".

    The guide's state carries its own failsafe and recovery times, as the guide sets them: the
    verdict reads those, not the timeline, which only shows what was seen.
    """
    inputs = VerdictInputs(
        family=VehicleFamily.COPTER,
        values={"FS_THR_ENABLE": 1.0, "FS_THR_VALUE": 975.0},
        findings=(),
        guide=guide(),
        channels=(),
        connected=True,
        telemetry_live=True,
        receiver_present=True,
        failsafe=FailsafeStatus.NOT_ACTIVE,
        failsafe_observed=True,
        recovery_observed=True,
        transitions=((FailsafeStatus.ACTIVE, FAILSAFE_AT), (FailsafeStatus.NOT_ACTIVE, RECOVERED_AT)),
        parameters_complete=True,
        failsafe_timeout_s=1.0,
        now=20.0,
    )
    return dataclasses.replace(inputs, **changes)  # type: ignore[arg-type]


def guide(**changes: object) -> GuideState:
    """The guide's state at the end of a whole test: off, failsafe, on and recovery, all held."""
    done = GuideState(
        step=GuideStep.DONE, off_at=OFF_AT, on_at=ON_AT, failsafe_at=FAILSAFE_AT, recovered_at=RECOVERED_AT
    )
    return dataclasses.replace(done, **changes)  # type: ignore[arg-type]


# ---- PASSED -------------------------------------------------------------------------------------


def test_a_whole_test_passes_with_the_latency_from_the_users_confirmation() -> None:
    """
    GIVEN a receiver seen, RC failsafe 1.2 s after the user confirmed "off", and recovery after "on"
    WHEN the verdict is decided
    THEN it is PASSED, with a latency of 1.2 s measured from the user
    """
    verdict = decide_verdict(passing())
    assert verdict.result is VerdictResult.PASSED
    assert verdict.headline == "PASSED"
    assert verdict.failsafe_latency_s == pytest.approx(FAILSAFE_AT - OFF_AT)
    assert verdict.latency_from == "user"
    assert "RC failsafe 1.2 s after the transmitter went off" in verdict.detail


def test_a_program_switched_transmitter_is_timed_from_the_program() -> None:
    """
    GIVEN the same test with the transmitter switched off by the program
    WHEN the verdict is decided
    THEN the latency is measured from the program
    """
    assert decide_verdict(passing(guide=guide(off_by_program=True))).latency_from == "program"


def test_a_failsafe_just_before_the_users_confirmation_passes_without_a_latency() -> None:
    """
    GIVEN a failsafe that came 2 s before the user confirmed "off" (switched first, clicked second),
          still active at the confirmation, so the guide took it as the test's failsafe
    WHEN the verdict is decided
    THEN it is PASSED, without a latency to report

    The verdict now reads the failsafe time from the guide's state, not from the timeline, so the
    early failsafe is given as the guide's ``failsafe_at``; the timeline shows the same.
    """
    transitions = ((FailsafeStatus.ACTIVE, OFF_AT - 2.0), (FailsafeStatus.NOT_ACTIVE, RECOVERED_AT))
    verdict = decide_verdict(passing(guide=guide(failsafe_at=OFF_AT - 2.0), transitions=transitions))
    assert verdict.result is VerdictResult.PASSED
    assert verdict.failsafe_latency_s is None
    assert verdict.detail == "Receiver seen, sticks checked, RC failsafe observed and cleared."


def test_a_failsafe_and_recovery_only_in_the_timeline_do_not_pass() -> None:
    """
    GIVEN a failsafe and its recovery seen (in the timeline, observed) before the transmitter was
          switched off for the test, and the guide still waiting for the failsafe after "off"
    WHEN the verdict is decided
    THEN it is INCOMPLETE and waits for the failsafe: only the guide's own failsafe and recovery
         count, so the verdict never runs ahead of the guide's last step
    """
    inputs = passing(
        guide=GuideState(step=GuideStep.WAIT_FAILSAFE, off_at=OFF_AT),
        transitions=((FailsafeStatus.ACTIVE, 1.0), (FailsafeStatus.NOT_ACTIVE, 3.0)),
        now=OFF_AT + 0.5,
    )
    verdict = decide_verdict(inputs)
    assert verdict.result is VerdictResult.INCOMPLETE
    assert verdict.failsafe_latency_s is None
    assert verdict.detail == "Waiting for RC failsafe (0.5 s since the transmitter went off)."


def test_a_skipped_stick_passes_and_is_named_as_not_checked() -> None:
    """
    GIVEN a passed test in which the yaw stick was skipped
    WHEN the verdict is decided
    THEN it is PASSED and says the yaw stick was not checked; a warning finding changes nothing
    """
    sticks = (
        StickResult("pitch", "pitch", "RCMAP_PITCH", 2, StickOutcome.CORRECT, 2, 1500, 1000),
        StickResult("yaw", "yaw", "RCMAP_YAW", 4, StickOutcome.SKIPPED),
    )
    verdict = decide_verdict(passing(sticks=sticks, findings=(WARNING,)))
    assert verdict.result is VerdictResult.PASSED
    assert verdict.detail.endswith("Not checked: yaw: skipped.")


# ---- FAILED -------------------------------------------------------------------------------------


@given(
    st.booleans(),
    st.booleans(),
    st.sampled_from(list(GuideStep)),
    st.booleans(),
    st.booleans(),
)
def test_a_blocking_finding_always_fails_with_its_message_and_action(
    connected: bool, live: bool, step: GuideStep, no_failsafe: bool, observed: bool
) -> None:
    """
    GIVEN a blocking finding and any state of the link and the guide
    WHEN the verdict is decided
    THEN it is FAILED with the finding's message and action
    """
    inputs = passing(
        findings=(WARNING, BLOCKING),
        connected=connected,
        telemetry_live=live,
        guide=guide(step=step, no_failsafe=no_failsafe),
        failsafe_observed=observed,
    )
    verdict = decide_verdict(inputs)
    assert verdict.result is VerdictResult.FAILED
    assert verdict.detail == f"{BLOCKING.message} {BLOCKING.action}"


def test_no_failsafe_after_switching_off_fails_with_its_most_likely_cause() -> None:
    """
    GIVEN the transmitter off, no failsafe by the deadline and the throttle held at 1100 µs
    WHEN the verdict is decided
    THEN it is FAILED: the receiver keeps sending pulses, with the throttle it sent and FS_THR_VALUE
    """
    inputs = passing(
        guide=guide(
            step=GuideStep.SWITCH_ON,
            on_at=None,
            failsafe_at=None,
            recovered_at=None,
            no_failsafe=True,
            throttle_while_off_us=1100,
        ),
        failsafe_observed=False,
        recovery_observed=False,
        transitions=(),
    )
    verdict = decide_verdict(inputs)
    assert verdict.result is VerdictResult.FAILED
    assert verdict.failsafe_latency_s is None
    assert "throttle 1100 µs" in verdict.detail
    assert "FS_THR_VALUE = 975 µs" in verdict.detail


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"guide": GuideState(channels_moving_while_off=True)}, "the sticks kept moving"),
        ({"values": {"RC_OPTIONS": float(RC_OPTION_IGNORE_FAILSAFE_BIT)}}, "RC_OPTIONS bit 2"),
        ({"values": {}}, "a throttle below FS_THR_VALUE."),
        ({"family": VehicleFamily.PLANE, "values": {"THR_FS_VALUE": 950.0}}, "THR_FS_VALUE = 950 µs"),
        ({"family": VehicleFamily.HELI}, "or to a collective below FS_THR_VALUE = 975 µs."),
    ],
    ids=["sticks-moving", "ignore-failsafe-bit", "threshold-unknown", "plane", "heli"],
)
def test_the_cause_of_no_failsafe_is_the_most_telling_one(changes: dict[str, object], words: str) -> None:
    """
    GIVEN no failsafe after switching off, with sticks still moving, or RC_OPTIONS bit 2, or no
          known threshold, or a Plane
    WHEN the cause is worded
    THEN it names that cause
    """
    assert words in no_failsafe_cause(passing(**changes))


def test_a_failsafe_that_never_clears_fails() -> None:
    """
    GIVEN a failsafe after "off" that did not clear within the recovery wait after "on"
    WHEN the verdict is decided
    THEN it is FAILED, says how long it waited, and still gives the latency

    The guide's state has its failsafe time and no recovery time, as the guide reports it: the
    latency comes from the guide's ``failsafe_at``.
    """
    inputs = passing(
        guide=guide(step=GuideStep.DONE, no_recovery=True, recovered_at=None),
        recovery_observed=False,
        failsafe=FailsafeStatus.ACTIVE,
        transitions=((FailsafeStatus.ACTIVE, FAILSAFE_AT),),
    )
    verdict = decide_verdict(inputs)
    assert verdict.result is VerdictResult.FAILED
    assert f"{RECOVERY_WAIT_S:g} s" in verdict.detail
    assert verdict.failsafe_latency_s == pytest.approx(FAILSAFE_AT - OFF_AT)


# ---- INCOMPLETE ---------------------------------------------------------------------------------

PROMPT = StickPrompt("pitch", 2, 4)


@pytest.mark.parametrize(
    ("changes", "next_step"),
    [
        ({"connected": False}, "Connect to the flight controller."),
        (
            {"telemetry_live": False, "failsafe_observed": False},
            "Waiting for receiver telemetry from the flight controller.",
        ),
        ({"receiver_present": False}, "The flight controller has not seen the receiver"),
        (
            {"guide": GuideState(step=GuideStep.SWITCH_OFF), "failsafe_observed": False, "transitions": ()},
            "Switch the transmitter off.",
        ),
        (
            {
                "guide": GuideState(step=GuideStep.WAIT_FAILSAFE, off_at=OFF_AT),
                "failsafe_observed": False,
                "transitions": (),
                "now": OFF_AT + 0.75,
            },
            "Waiting for RC failsafe (0.8 s since the transmitter went off).",
        ),
        (
            {
                "guide": guide(step=GuideStep.SWITCH_ON, on_at=None, recovered_at=None),
                "recovery_observed": False,
                "failsafe": FailsafeStatus.ACTIVE,
            },
            "Switch the transmitter back on.",
        ),
        (
            {
                "guide": guide(step=GuideStep.WAIT_RECOVERY, recovered_at=None),
                "recovery_observed": False,
                "failsafe": FailsafeStatus.ACTIVE,
            },
            "Waiting for the failsafe to clear.",
        ),
        ({"parameters_complete": False}, "Reading the receiver parameters from the flight controller."),
    ],
    ids=[
        "not-connected",
        "no-telemetry",
        "no-receiver",
        "switch-off",
        "wait-failsafe",
        "switch-on",
        "wait-recovery",
        "parameters",
    ],
)
def test_an_incomplete_test_names_the_one_thing_to_do_next(
    changes: dict[str, object], next_step: str
) -> None:
    """
    GIVEN a test that lacks one thing: the link, telemetry, the receiver, the switch off, the
          failsafe, the switch on, the recovery or the parameters
    WHEN the verdict is decided
    THEN it is INCOMPLETE and its detail names that one thing

    What the guide has seen is in its state: a guide waiting for the transmitter or the recovery
    has its failsafe time but no recovery time (the verdict reads the guide's, not the timeline's).
    """
    verdict = decide_verdict(passing(**changes))
    assert verdict.result is VerdictResult.INCOMPLETE
    assert verdict.headline == "INCOMPLETE"
    assert verdict.detail.startswith(next_step)


def test_the_stick_step_asks_for_its_stick() -> None:
    """
    GIVEN the guide in the stick step, asking for the pitch stick
    WHEN the verdict is decided
    THEN it is INCOMPLETE with the stick step's own instruction
    """
    inputs = passing(
        guide=GuideState(step=GuideStep.MOVE_STICKS, stick=PROMPT),
        failsafe_observed=False,
        recovery_observed=False,
        transitions=(),
    )
    verdict = decide_verdict(inputs)
    assert verdict.result is VerdictResult.INCOMPLETE
    assert verdict.detail == stick_instruction(VehicleFamily.COPTER, PROMPT)


def test_a_failsafe_seen_keeps_the_verdict_going_without_live_telemetry() -> None:
    """
    GIVEN a failsafe observed, telemetry no longer live and the transmitter not back on
    WHEN the verdict is decided
    THEN it asks to switch the transmitter back on rather than to wait for telemetry

    The guide's state has the failsafe time and no recovery time, as the guide reports it.
    """
    inputs = passing(
        telemetry_live=False,
        guide=guide(step=GuideStep.SWITCH_ON, on_at=None, recovered_at=None),
        recovery_observed=False,
    )
    assert decide_verdict(inputs).detail == "Switch the transmitter back on."
