# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The arming findings against real ArduCopter SITL: what the check predicts, what ArduPilot says.

The check never arms and never writes a parameter; this test's own harness does both, on SITL's
third MAVLink port, as a pilot's ground station would.  One SITL (``ARMING_CHECK`` 96: only the
parameter and RC checks, which are the ones the findings predict) serves every configuration: the
harness first arms it with clean receiver parameters (which also waits for its EKF, whose checks no
``ARMING_CHECK`` skips), then per configuration sets the parameters, lets the check read them again
(a pause and resume, as the methodic configurator's upload does), asks to arm, collects
ArduPilot's refusal STATUSTEXTs and puts the clean values back.  Every refusal must be predicted
by a blocking finding naming its parameters, every blocking arming finding must be answered by a
refusal, and the clean configuration gets no blocking finding from the parameters.  Skipped,
saying why, where ``../shared/sitl/`` is absent; preferred instance 44.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pymavlink import mavutil

from amc_rc_receiver.plugins.rc_receiver.snapshot import Finding, RCReceiverState, Severity
from amc_rc_receiver.sitl.config import SitlConfig
from amc_rc_receiver.standalone.session import VehicleSession
from tests.support.sitl import SITL_DIR, free_instance, sitl_binary

pytestmark = [
    pytest.mark.sitl,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SITL binaries are Linux x86-64"),
]

WAIT_S = 120.0
ANSWER_S = 5.0
# Parameters (bit 5) and RC channels (bit 6) only.
ARMING_CHECK_PARAMETERS_AND_RC = 96
MAV_CMD_COMPONENT_ARM_DISARM = 400
FORCE_DISARM = 21196
ARMING_CODES = frozenset(
    {
        "rc_option_duplicate",
        "rc_option_on_mode_channel",
        "rc_min_above_trim",
        "rc_max_below_trim",
        "rc_stick_min_too_high",
        "rc_stick_max_too_low",
    }
)
# The parameters each of ArduPilot's texts is about, from the text itself.
_PARAMETER_IN_TEXT = re.compile(r"\bRC\d+_[A-Z]+\b")
_STICK_CHANNEL = {"Roll": 1, "Pitch": 2, "Throttle": 3, "Yaw": 4}
# Refusals that name no parameter of the configuration: the vehicle is not ready yet.
_NOT_READY = ("AHRS", "EKF", "GPS", "Gyros", "Accels", "Compass", "Baro", "INS", "Position")


@dataclass(frozen=True)
class Configuration:
    name: str
    values: Mapping[str, float]


CLEAN: Mapping[str, float] = {
    "RC1_MIN": 1000.0,
    "RC1_TRIM": 1500.0,
    "RC5_OPTION": 0.0,
    "RC7_OPTION": 0.0,
    "RC8_OPTION": 0.0,
}
CONFIGURATIONS = (
    Configuration("duplicate option", {"RC7_OPTION": 9.0, "RC8_OPTION": 9.0}),
    Configuration("duplicate scripting option", {"RC7_OPTION": 300.0, "RC8_OPTION": 300.0}),
    Configuration("option on the mode channel", {"RC5_OPTION": 9.0}),
    Configuration("RC1_MIN above RC1_TRIM", {"RC1_MIN": 1600.0}),
)


class Harness:
    """A ground station of the test's own on SITL's third port: it sets parameters and arms."""

    def __init__(self, instance: int) -> None:
        self.link: Any = mavutil.mavlink_connection(
            f"tcp:127.0.0.1:{5763 + 10 * instance}", source_system=250
        )
        if self.link.wait_heartbeat(timeout=WAIT_S) is None:
            pytest.fail("no heartbeat on SITL's third MAVLink port")

    def close(self) -> None:
        self.link.close()

    def set(self, name: str, value: float) -> None:
        link = self.link
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            link.mav.param_set_send(
                link.target_system,
                link.target_component,
                name.encode(),
                value,
                mavutil.mavlink.MAV_PARAM_TYPE_REAL32,
            )
            answer_by = time.monotonic() + ANSWER_S
            while time.monotonic() < answer_by:
                msg = link.recv_match(type="PARAM_VALUE", blocking=True, timeout=0.5)
                if msg is not None and msg.param_id == name and msg.param_value == value:
                    return
        pytest.fail(f"SITL did not take {name} = {value}")

    def arm(self) -> tuple[bool, list[str]]:
        """Ask to arm once: whether it armed, and the texts ArduPilot sent for the attempt (it
        answers the command first and sends the texts after it: read on to the second HEARTBEAT)."""
        link = self.link
        while link.recv_match(blocking=False) is not None:
            pass  # what came before this request is not its answer
        link.mav.command_long_send(
            link.target_system, link.target_component, MAV_CMD_COMPONENT_ARM_DISARM, 0, 1, 0, 0, 0, 0, 0, 0
        )
        texts: list[str] = []
        armed: bool | None = None
        heartbeats = 0
        deadline = time.monotonic() + ANSWER_S
        while time.monotonic() < deadline and heartbeats < 2:
            msg = link.recv_match(type=["STATUSTEXT", "COMMAND_ACK", "HEARTBEAT"], blocking=True, timeout=0.5)
            if msg is None:
                continue
            kind = msg.get_type()
            if kind == "STATUSTEXT":
                texts.append(str(msg.text))
            elif kind == "COMMAND_ACK" and msg.command == MAV_CMD_COMPONENT_ARM_DISARM:
                armed = msg.result == mavutil.mavlink.MAV_RESULT_ACCEPTED
            elif kind == "HEARTBEAT" and armed is not None:
                heartbeats += 1
        if armed is None:
            pytest.fail(f"no answer to the arming request; texts: {texts}")
        return armed, texts

    def disarm(self) -> None:
        link = self.link
        link.mav.command_long_send(
            link.target_system,
            link.target_component,
            MAV_CMD_COMPONENT_ARM_DISARM,
            0,
            0,
            FORCE_DISARM,
            0,
            0,
            0,
            0,
            0,
        )
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            msg = link.recv_match(type="HEARTBEAT", blocking=True, timeout=0.5)
            if msg is not None and not msg.base_mode & mavutil.mavlink.MAV_MODE_FLAG_SAFETY_ARMED:
                return
        pytest.fail("SITL did not disarm")

    def arm_when_ready(self) -> list[str]:
        """Ask to arm about once a second until the refusals are no longer about a vehicle that is
        still starting (its EKF); the texts of the first attempt that is."""
        deadline = time.monotonic() + WAIT_S
        texts: list[str] = []
        self.attempts: list[list[str]] = []
        while time.monotonic() < deadline:
            armed, texts = self.arm()
            self.attempts.append(texts)
            if armed:
                self.disarm()
                return []
            refusals = [text for text in texts if text.startswith(("Arm: ", "PreArm: "))]
            if refusals and not any(word in text for text in refusals for word in _NOT_READY):
                return refusals
            wait_until = time.monotonic() + 1.0
            while time.monotonic() < wait_until:
                self.link.recv_match(blocking=True, timeout=0.2)
        pytest.fail(f"SITL never became ready to arm: {self.attempts[-5:]}")


def parameters_named(text: str) -> set[str]:
    """The parameters a refusal concerns: those it names, or the stick channel's RCn_MIN/MAX."""
    named = set(_PARAMETER_IN_TEXT.findall(text))
    stick = re.search(r"\b(Roll|Pitch|Throttle|Yaw) radio (min|max)", text)
    if stick is not None:
        named.add(f"RC{_STICK_CHANNEL[stick.group(1)]}_{stick.group(2).upper()}")
    return named


def predicts(finding: Finding, text: str) -> bool:
    """Whether ``finding`` is a blocking finding that names the parameters of ArduPilot's ``text``
    and quotes its words (without ArduPilot's "PreArm: "/"Arm: ")."""
    body = text.split(": ", 1)[1] if ": " in text else text
    named = parameters_named(text)
    return (
        finding.severity is Severity.BLOCKING
        and body in finding.message
        and all(name in finding.message for name in named)
    )


@pytest.fixture
def session() -> Iterator[VehicleSession]:
    built = VehicleSession()
    yield built
    built.close()


def poll_until(
    session: VehicleSession, condition: Callable[[RCReceiverState], bool], what: str
) -> RCReceiverState:
    deadline = time.monotonic() + WAIT_S
    while True:
        state = session.model.poll()
        if condition(state):
            return state
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}: {state.guided.parameters}")
        time.sleep(0.05)


def read_again(session: VehicleSession, values: Mapping[str, float]) -> RCReceiverState:
    """The check reads its parameters again, as after the methodic configurator's upload."""
    session.model.suspend()
    session.model.resume()

    def read(state: RCReceiverState) -> bool:
        known = {parameter.name: parameter.value for parameter in state.guided.parameters}
        return state.guided.parameters_complete and all(
            known.get(name) == value for name, value in values.items()
        )

    return poll_until(session, read, f"the check to read {dict(values)}")


def blocking_parameter_findings(state: RCReceiverState) -> list[Finding]:
    """The blocking findings from the parameters (the stick step's, about sticks no one moved, aside)."""
    return [
        finding
        for finding in state.guided.findings
        if finding.severity is Severity.BLOCKING and not finding.code.startswith("stick_")
    ]


def test_every_arming_refusal_of_real_arducopter_is_predicted_by_a_finding_naming_its_parameters(
    session: VehicleSession, tmp_path: Path
) -> None:
    """GIVEN real ArduCopter SITL with ARMING_CHECK limited to the parameter and RC checks, and a check
    on its first port WHEN the harness arms it with clean receiver parameters and then with each
    configuration (duplicate option, duplicate scripting option, an option on the mode channel,
    RC1_MIN above RC1_TRIM) THEN the clean one arms and gets no blocking parameter finding, every
    refusal's text is quoted by a blocking finding that names its parameters, and every blocking
    arming finding is answered by a refusal."""
    binary = sitl_binary("arducopter")
    defaults = tmp_path / "arming.parm"
    lines = [
        f"ARMING_CHECK {ARMING_CHECK_PARAMETERS_AND_RC}",
        *(f"{name} {value:g}" for name, value in CLEAN.items()),
        # Stabilize in every slot of the mode switch: a mode that needs a position estimate would
        # refuse arming for that.
        *(f"FLTMODE{slot} 0" for slot in range(1, 7)),
    ]
    defaults.write_text("\n".join(lines) + "\n", encoding="ascii")
    instance = free_instance(44)
    assert (
        session.start_sitl(
            SitlConfig(binary, defaults=(SITL_DIR / "copter.parm", defaults), instance=instance)
        )
        == ""
    )
    assert session.sitl is not None
    # The pilot's hands: every stick at rest, the throttle down (the transmitter sweeps them otherwise).
    session.sitl.transmitter.hold_sticks("roll", pushed=False)
    assert session.connect(session.sitl.device, timeout=WAIT_S) == ""
    session.model.activate()
    harness = Harness(instance)
    results: dict[str, tuple[list[str], list[str]]] = {}
    try:
        clean_state = poll_until(
            session,
            lambda state: state.guided.parameters_complete and state.rc_channels_live,
            "the parameters",
        )
        assert harness.arm_when_ready() == [], "the clean configuration must arm"
        assert blocking_parameter_findings(clean_state) == []
        for configuration in CONFIGURATIONS:
            for name, value in configuration.values.items():
                harness.set(name, value)
            state = read_again(session, configuration.values)
            refusals = harness.arm_when_ready()
            findings = blocking_parameter_findings(state)
            results[configuration.name] = (refusals, [finding.message for finding in findings])
            assert refusals, f"{configuration.name}: ArduPilot armed"
            for text in refusals:
                assert any(predicts(finding, text) for finding in findings), (
                    configuration.name,
                    text,
                    findings,
                )
            for finding in findings:
                if finding.code in ARMING_CODES:
                    assert any(predicts(finding, text) for text in refusals), (
                        configuration.name,
                        finding,
                        refusals,
                    )
            for name in configuration.values:
                harness.set(name, CLEAN[name])
        read_again(session, CLEAN)
    finally:
        harness.close()
        # What ArduPilot said and what the check predicted, for the test's report.
        for name, (refusals, predicted) in results.items():
            print(f"{name}: ArduPilot {refusals} / findings {predicted}")
