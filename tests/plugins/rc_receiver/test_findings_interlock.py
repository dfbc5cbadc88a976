# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The motor interlock findings: a helicopter needs an interlock channel, and arms only with it low."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from amc_rc_receiver.plugins.rc_receiver.findings import parameter_findings
from amc_rc_receiver.plugins.rc_receiver.findings.inputs import FindingInputs
from amc_rc_receiver.plugins.rc_receiver.findings.interlock import motor_interlock
from amc_rc_receiver.plugins.rc_receiver.firmware import VehicleFamily
from amc_rc_receiver.plugins.rc_receiver.snapshot import Severity

pytestmark = pytest.mark.pure

ALLOW_SWITCH_REVERSE = 128


def heli_values(changes: Mapping[str, float] | None = None) -> dict[str, float]:
    """Every RCn_OPTION known, the interlock on channel 8, RC_OPTIONS as ArduPilot ships it."""
    values = {f"RC{number}_OPTION": 0.0 for number in range(1, 17)}
    values.update({"RC8_OPTION": 32.0, "RC_OPTIONS": 32.0, "RC8_REVERSED": 0.0})
    values.update(changes or {})
    return values


def inputs(
    changes: Mapping[str, float] | None = None,
    pwm: Mapping[int, int] | None = None,
    family: VehicleFamily = VehicleFamily.HELI,
) -> FindingInputs:
    return FindingInputs(family=family, values=heli_values(changes), channel_pwm=dict(pwm or {}))


def test_a_helicopter_without_an_interlock_channel_cannot_arm() -> None:
    """GIVEN a helicopter with no RCn_OPTION 32 WHEN the rules run THEN a blocking finding quotes
    ArduPilot's "Motor Interlock not configured" and says to set RCn_OPTION = 32."""
    (finding,) = motor_interlock(inputs({"RC8_OPTION": 0.0}))
    assert finding.code == "motor_interlock_missing"
    assert finding.severity is Severity.BLOCKING
    assert "Motor Interlock not configured" in finding.message
    assert "RC8_OPTION = 32" in finding.action


def test_a_multirotor_needs_no_interlock_channel() -> None:
    """GIVEN a multirotor with no RCn_OPTION 32 WHEN the rules run THEN nothing is said."""
    assert list(motor_interlock(inputs({"RC8_OPTION": 0.0}, family=VehicleFamily.COPTER))) == []


def test_nothing_is_said_while_an_option_is_unknown() -> None:
    """GIVEN a helicopter whose RC16_OPTION is not read yet WHEN the rules run THEN nothing is said."""
    values = heli_values({"RC8_OPTION": 0.0})
    del values["RC16_OPTION"]
    assert list(motor_interlock(FindingInputs(family=VehicleFamily.HELI, values=values))) == []


@pytest.mark.parametrize(("pwm", "position"), [(1500, "middle"), (1900, "high")])
def test_an_enabled_interlock_is_named_with_its_channel_and_position(pwm: int, position: str) -> None:
    """GIVEN the interlock on CH8 at the middle or high position WHEN the rules run THEN a warning
    names CH8, RC8_OPTION, the position and ArduPilot's "Motor Interlock Enabled", and says to move
    it low before arming."""
    (finding,) = motor_interlock(inputs(pwm={8: pwm}))
    assert finding.code == "motor_interlock_enabled"
    assert finding.severity is Severity.WARNING
    assert f"CH8 (RC8_OPTION = 32, Motor Interlock) is {position} at {pwm} µs" in finding.message
    assert "Motor Interlock Enabled" in finding.message
    assert finding.parameter == "RC8_OPTION"
    assert "low" in finding.action


def test_an_interlock_low_is_shown_as_ready_to_arm() -> None:
    """GIVEN the interlock on CH8 at 1000 µs WHEN the rules run THEN an information names its channel
    and position, and the verdict is not held up by it."""
    (finding,) = motor_interlock(inputs(pwm={8: 1000}))
    assert finding.code == "motor_interlock_low"
    assert finding.severity is Severity.INFO
    assert "CH8 (RC8_OPTION = 32, Motor Interlock) is low at 1000 µs" in finding.message


def test_a_reversed_interlock_counts_only_when_rc_options_allows_switch_reverse() -> None:
    """GIVEN the interlock channel reversed and at 1900 µs WHEN RC_OPTIONS lacks bit 7 THEN it reads
    high (enabled); WHEN bit 7 is set THEN it reads low; WHEN bit 7 is set but RC8_REVERSED is not
    known THEN nothing is said of its position."""
    reversed_high = {"RC8_REVERSED": 1.0}
    assert [f.code for f in motor_interlock(inputs(reversed_high, {8: 1900}))] == ["motor_interlock_enabled"]
    allowed = {**reversed_high, "RC_OPTIONS": 32.0 + ALLOW_SWITCH_REVERSE}
    assert [f.code for f in motor_interlock(inputs(allowed, {8: 1900}))] == ["motor_interlock_low"]
    values = heli_values({"RC_OPTIONS": 32.0 + ALLOW_SWITCH_REVERSE})
    del values["RC8_REVERSED"]
    unknown = FindingInputs(family=VehicleFamily.HELI, values=values, channel_pwm={8: 1900})
    assert list(motor_interlock(unknown)) == []


def test_an_interlock_and_an_emergency_stop_conflict() -> None:
    """GIVEN RC8_OPTION 32 and RC7_OPTION 31 WHEN the rules run THEN a blocking finding quotes
    ArduPilot's "Interlock/E-Stop Conflict" naming both parameters."""
    findings = [f for f in parameter_findings(inputs({"RC7_OPTION": 31.0})) if f.code.startswith("motor")]
    assert [f.code for f in findings] == ["motor_interlock_estop_conflict"]
    assert findings[0].severity is Severity.BLOCKING
    assert "RC8_OPTION = 32" in findings[0].message
    assert "RC7_OPTION = 31" in findings[0].message
    assert "Interlock/E-Stop Conflict" in findings[0].message


def test_a_plane_has_no_motor_interlock_rule() -> None:
    """GIVEN a plane with RC8_OPTION 32 high WHEN the rules run THEN nothing is said (Copter's rule)."""
    assert list(motor_interlock(inputs(pwm={8: 1900}, family=VehicleFamily.PLANE))) == []
