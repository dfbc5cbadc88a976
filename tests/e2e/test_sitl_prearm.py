# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""ArduPilot's own answer on real SITL: its pre-arm checks, asked by the check, and its version.

A vehicle session runs in-process on each SITL with the program's own transmitter (its sticks and
switch driven by the guided test, as with ``--sitl``).  The check asks ArduPilot to run its
pre-arm checks (MAV_CMD_RUN_PREARM_CHECKS) once the parameters are read and again after the test;
our host asked for AUTOPILOT_VERSION when it connected.  Each test polls only until its event:
the verdict after the test, the pre-arm answer with ArduPilot's text, the failsafe's deadline.
Skipped, saying why, where ``../shared/sitl/`` is absent; preferred instances 45 to 50.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest

from amc_rc_receiver.plugins.rc_receiver.guide import FAILSAFE_MARGIN_S
from amc_rc_receiver.plugins.rc_receiver.snapshot import (
    FailsafeStatus,
    GuideStep,
    PrearmMoment,
    RCReceiverState,
    Severity,
    VerdictResult,
)
from amc_rc_receiver.sitl.config import SitlConfig
from amc_rc_receiver.standalone.session import VehicleSession
from tests.support.sitl import SITL_DIR, free_instance, sitl_binary

pytestmark = [
    pytest.mark.sitl,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SITL binaries are Linux x86-64"),
]

WAIT_S = 150.0
# binary, its autotest defaults, preferred instance
VEHICLES = {
    "ArduCopter": ("arducopter", "copter.parm", 45),
    "ArduCopter-Heli": ("arducopter-heli", "heli.parm", 46),
    "ArduPlane": ("arduplane", "plane.parm", 47),
    "ArduRover": ("ardurover", "rover.parm", 48),
}


@pytest.fixture
def session() -> Iterator[VehicleSession]:
    built = VehicleSession()
    yield built
    built.close()


def start(
    session: VehicleSession,
    vehicle: str,
    tmp_path: Path,
    instance: int | None = None,
    extra: Mapping[str, float] | None = None,
) -> None:
    """SITL of ``vehicle`` with its standard parameters (and ``extra``), the program's transmitter
    lent to the guided test, the check connected and active."""
    binary_name, parm, preferred = VEHICLES[vehicle]
    binary = sitl_binary(binary_name)
    defaults: tuple[Path, ...] = (SITL_DIR / parm,)
    if extra:
        more = tmp_path / "extra.parm"
        more.write_text("".join(f"{name} {value:g}\n" for name, value in extra.items()), encoding="ascii")
        defaults = (*defaults, more)
    config = SitlConfig(
        binary, defaults=defaults, instance=free_instance(instance if instance is not None else preferred)
    )
    assert session.start_sitl(config) == ""
    assert session.sitl is not None
    assert session.connect(session.sitl.device, timeout=WAIT_S) == ""
    session.model.set_stick_mover(session.hold_sticks)
    # The program's switch step flips the aux switches and leaves them down, as the program does
    # (a heli's motor interlock left in the middle is enabled, and ArduPilot refuses to arm).
    session.model.set_switch_mover(session.hold_switch)
    session.model.set_transmitter_switch(session.set_transmitter_on)
    session.model.activate()


def poll_until(
    session: VehicleSession, condition: Callable[[RCReceiverState], bool], what: str
) -> RCReceiverState:
    deadline = time.monotonic() + WAIT_S
    while True:
        state = session.model.poll()
        if condition(state):
            return state
        if time.monotonic() > deadline:
            guided = state.guided
            pytest.fail(f"timed out waiting for {what}: {guided.verdict} {guided.findings} {guided.prearm}")
        time.sleep(0.05)


def over_and_answered(state: RCReceiverState) -> bool:
    guided = state.guided
    return guided.guide.step is GuideStep.DONE and not guided.prearm_waiting


def findings_of(state: RCReceiverState, code: str) -> list[str]:
    return [finding.message for finding in state.guided.findings if finding.code == code]


@pytest.mark.parametrize("vehicle", VEHICLES)
def test_the_standard_parameters_pass_and_ardupilots_own_pre_arm_checks_report_no_receiver_failure(
    session: VehicleSession, tmp_path: Path, vehicle: str
) -> None:
    """GIVEN real SITL of each vehicle with its standard parameters and the program's transmitter
    WHEN the guided test runs to its end (sticks, transmitter off, failsafe, on, recovery)
    THEN the verdict is PASSED, ArduPilot accepted both requests to run its pre-arm checks (once the
    parameters were read, and after the test), and its answer after the test names no receiver
    failure: the check says so among its findings."""
    start(session, vehicle, tmp_path)
    state = poll_until(session, over_and_answered, "the end of the test and ArduPilot's answer after it")

    guided = state.guided
    assert guided.verdict.result is VerdictResult.PASSED, (guided.verdict, guided.findings)
    answers = {answer.moment: answer for answer in guided.prearm}
    assert set(answers) == {PrearmMoment.PARAMETERS_READ, PrearmMoment.TEST_DONE}, guided.prearm
    after = answers[PrearmMoment.TEST_DONE]
    assert (after.outcome, after.complete, after.refusals) == ("accepted", True, ()), after
    (said,) = findings_of(state, "prearm_no_rc_failure")
    assert "after the test" in said
    print(f"{vehicle}: {guided.firmware} {guided.prearm}")


def test_rc1_min_above_rc1_trim_on_arducopter_is_not_passed_and_shows_ardupilots_own_prearm_text(
    session: VehicleSession, tmp_path: Path
) -> None:
    """GIVEN real ArduCopter SITL whose RC1_MIN (1600) is above RC1_TRIM (1500)
    WHEN the check has read the parameters and asked ArduPilot to run its pre-arm checks
    THEN the verdict is not PASSED, and ArduPilot's own text "RC1_MIN is greater than RC1_TRIM" is a
    blocking finding beside the check's own finding for those parameters."""
    start(session, "ArduCopter", tmp_path, 49, {"RC1_MIN": 1600, "RC1_TRIM": 1500})

    def answered(state: RCReceiverState) -> bool:
        return any(answer.complete for answer in state.guided.prearm)

    state = poll_until(session, answered, "ArduPilot's answer to the pre-arm request")

    assert state.guided.verdict.result is not VerdictResult.PASSED
    refusals = [f for f in state.guided.findings if f.code == "prearm_refusal"]
    assert any("“RC1_MIN is greater than RC1_TRIM”" in f.message for f in refusals), state.guided.findings
    assert {f.severity for f in refusals} == {Severity.BLOCKING}
    own = [f for f in state.guided.findings if f.code == "rc_min_above_trim"]
    assert own, state.guided.findings
    print(f"ArduPilot: {state.guided.prearm}")


def test_arduplane_with_rc_fs_timeout_3_names_its_version_and_expects_the_failsafe_when_it_comes(
    session: VehicleSession, tmp_path: Path
) -> None:
    """GIVEN real ArduPlane SITL (4.7.0-dev, which enters RC failsafe a fixed 1 s after the last
    frame) with RC_FS_TIMEOUT 3, the version asked for by our host when it connected
    WHEN the program switches its transmitter off
    THEN the failsafe finding names the firmware version and its fixed 1 s, the guide expects the
    failsafe 1 s (plus its margin) after the switch, not 3 s, and the failsafe comes.  (How long it
    took is printed, not asserted: SITL's simulated time falls behind on a loaded machine.)"""
    start(session, "ArduPlane", tmp_path, 50, {"RC_FS_TIMEOUT": 3})

    def failsafe_came(state: RCReceiverState) -> bool:
        off_at = state.guided.guide.off_at
        return off_at is not None and any(
            status is FailsafeStatus.ACTIVE and at >= off_at for status, at in state.failsafe_transitions
        )

    state = poll_until(session, failsafe_came, "the failsafe after the transmitter went off")

    guided = state.guided
    assert guided.firmware == "4.7.0-dev"  # from the AUTOPILOT_VERSION our host asked for
    timeout = [f.message for f in guided.findings if f.code.startswith("failsafe_timeout")]
    assert timeout, guided.findings
    assert timeout[0].startswith("This firmware (4.7.0-dev) enters RC failsafe a fixed 1 s"), timeout
    guide = guided.guide
    assert guide.off_at is not None
    assert guide.failsafe_deadline is not None
    assert guide.failsafe_deadline - guide.off_at == pytest.approx(1.0 + FAILSAFE_MARGIN_S)
    came = next(
        at
        for status, at in state.failsafe_transitions
        if status is FailsafeStatus.ACTIVE and at >= guide.off_at
    )
    print(f"ArduPlane: RC failsafe {came - guide.off_at:.2f} s after the switch; {timeout[0]}")
