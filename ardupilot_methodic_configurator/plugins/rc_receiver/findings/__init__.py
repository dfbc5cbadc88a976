# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Parameter pre-checks: what the flight controller's own values mean for the receiver test.

Each rule is a pure function of `FindingInputs` that returns findings in plain words naming the
parameter, its value and what to do; `parameter_findings` runs them all in table order.  A rule
says nothing about a parameter whose value is not known yet, so a finding never rests on a guess.
The rules are grouped by what they look at: RC failsafe (`failsafe`), the receiver's set-up
(`receiver_setup`), what ArduPilot refuses at arming (`arming`, and the motor interlock in
`interlock`), what ArduPilot's own pre-arm checks answered (`prearm_answer`), the step file and
unavailable parameters (`step_file`), and the stick step (`rc_receiver.sticks`).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..snapshot import Finding, Severity
from ..sticks import stick_findings
from .arming import (
    duplicate_options,
    mode_channel_option,
    stick_calibration,
    stick_channel_option,
    trim_order,
)
from .failsafe import failsafe_enable, failsafe_pwm, failsafe_timeout, failsafe_trigger, rssi_held
from .inputs import FindingInputs, Rule
from .interlock import motor_interlock
from .prearm_answer import prearm_answer
from .receiver_setup import crsf_rules, protocols_all, rc_options, rc_override_time, rc_protocols, rssi_type
from .step_file import step_file_differs, unavailable


def _sticks(inputs: FindingInputs) -> Iterable[Finding]:
    return stick_findings(inputs.family, inputs.sticks)


RULES: tuple[Rule, ...] = (
    _sticks,
    failsafe_enable,
    failsafe_pwm,
    rc_options,
    rc_protocols,
    duplicate_options,
    mode_channel_option,
    trim_order,
    stick_calibration,
    stick_channel_option,
    prearm_answer,
    motor_interlock,
    failsafe_timeout,
    rc_override_time,
    rssi_type,
    protocols_all,
    crsf_rules,
    failsafe_trigger,
    rssi_held,
    step_file_differs,
    unavailable,
)

_SEVERITY_ORDER = {Severity.BLOCKING: 0, Severity.WARNING: 1, Severity.INFO: 2}


def parameter_findings(inputs: FindingInputs) -> tuple[Finding, ...]:
    """Every finding the rules make, blocking first, in rule order within a severity."""
    findings = [finding for rule in RULES for finding in rule(inputs)]
    return tuple(sorted(findings, key=lambda finding: _SEVERITY_ORDER[finding.severity]))
