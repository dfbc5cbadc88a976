# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The demo helicopter's motor interlock set-ups, run as a person runs them: `--demo-vehicle heli
--demo-setup ...` in the terminal view, to the verdict and its report."""

from __future__ import annotations

import pytest

from amc_rc_receiver.standalone.options import EXIT_FAILED
from tests.e2e.test_cli_verdict import terminal_run, validated_report
from tests.support.program_runs import FinishedRun

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(
    ("setup", "code", "said"),
    [
        pytest.param(
            setup,
            code,
            said,
            marks=terminal_run(
                "--demo", "--demo-vehicle", "heli", "--demo-setup", setup, "--report", "{folder}/evidence"
            ),
        )
        for setup, code, said in (
            ("no-motor-interlock", "motor_interlock_missing", "PreArm: Motor Interlock not configured"),
            ("interlock-and-estop", "motor_interlock_estop_conflict", "PreArm: Interlock/E-Stop Conflict"),
        )
    ],
)
def test_a_demo_heli_that_cannot_arm_for_its_motor_interlock_fails(
    setup: str, code: str, said: str, program_run: FinishedRun
) -> None:
    """
    GIVEN the demo helicopter without a motor interlock channel, or with an emergency stop beside it
    WHEN the test runs to its verdict
    THEN it FAILED, naming ArduPilot's own refusal, and the report carries the finding
    """
    result = program_run
    assert result.returncode == EXIT_FAILED, result.stdout + result.stderr
    assert said in result.stdout
    report = validated_report(result.folder / "evidence.json")
    findings = {finding["code"] for finding in report["findings"]}  # type: ignore[attr-defined]
    assert code in findings
