# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A helicopter checked as a helicopter, on ArduCopter's real helicopter build in SITL.

`amc-rc-receiver --sitl ../shared/sitl/arducopter-heli --sitl-defaults ../shared/sitl/heli.parm
--text` runs to its verdict, the program moving its own sticks and switching its transmitter.
The stick step asks for the collective (a helicopter's throttle channel), and the motor interlock
ArduPilot's helicopter build puts on channel 8 (``RC8_OPTION`` 32 by default) is shown with the
position ArduPilot reads from it: the program's transmitter leaves its channel 8 in the middle,
which ArduPilot takes for an enabled interlock and says so itself ("RC8: MotorInterlock MIDDLE"),
and its own pre-arm checks after the test refuse to arm for it ("Motor Interlock Enabled"), as the
check's warning said they would: the run ends FAILED for that alone.
Skipped, saying why, where ``../shared/sitl/`` is absent; preferred instance 53.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from amc_rc_receiver.standalone.options import EXIT_FAILED
from tests.support.processes import Process, program_command, without_display
from tests.support.sitl import ROOT, SITL_DIR, free_instance, sitl_binary

pytestmark = [
    pytest.mark.sitl,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SITL binaries are Linux x86-64"),
]

RUN_DEADLINE_S = 150.0
WAIT_S = 90.0


def test_the_heli_run_asks_for_the_collective_and_shows_the_motor_interlock(tmp_path: Path) -> None:
    """GIVEN real SITL of ArduCopter's helicopter build with its upstream defaults
    WHEN `amc-rc-receiver --sitl ... --text` runs to its verdict
    THEN the stick step asks for the collective (no throttle stick), the sticks' summary names the
    collective, and the motor interlock channel is shown with its position: CH8, RC8_OPTION = 32,
    middle at 1500 µs, a warning that ArduPilot reads it as enabled and will not arm, as ArduPilot's
    own text of that switch says; ArduPilot's pre-arm answer after the test refuses for the same
    reason and nothing else, so the run FAILED (exit 3); the JSON report names the family Heli, the
    collective role of CH3 and the interlock finding."""
    sitl_binary("arducopter-heli")
    instance = free_instance(53)
    report = tmp_path / "heli"
    args = [
        "--sitl",
        "../shared/sitl/arducopter-heli",
        "--sitl-defaults",
        str(SITL_DIR / "heli.parm"),
        "--instance",
        str(instance),
        "--text",
        "--report",
        str(report),
    ]
    run = Process(program_command(*args), cwd=ROOT, env=without_display(), deadline_s=WAIT_S)
    try:
        code = run.wait(RUN_DEADLINE_S)
        out = run.stdout
    finally:
        run.end()
    assert code == EXIT_FAILED, f"{out}\n{run.stderr}"
    refusal = (
        "ArduPilot's pre-arm checks (after the test) refuse to arm for the receiver: "
        "“Motor Interlock Enabled”."
    )
    assert f"Verdict: FAILED - {refusal}" in out, out
    # ArduPilot refuses for the interlock alone: the one blocking finding is its answer.
    assert out.count("blocking: ") == 1, out
    assert "the program pushes its collective stick fully up" in out, out
    assert "throttle stick" not in out, out
    assert "Sticks: collective: correct, CH3 1000 → 2000 µs;" in out, out
    interlock = "CH8 (RC8_OPTION = 32, Motor Interlock) is middle at 1500 µs"
    enabled = "ArduPilot reads the motor interlock as enabled and does not arm"
    assert f"warning: {interlock}: {enabled}" in out, out
    assert "Flight controller: RC8: MotorInterlock MIDDLE" in out, out
    data = json.loads(report.with_suffix(".json").read_text(encoding="utf-8"))
    assert data["vehicle"]["family"] == "Heli"
    roles = {channel["number"]: channel["role"] for channel in data["channels"]}
    assert roles[3] == "collective"
    assert "motor_interlock_enabled" in {finding["code"] for finding in data["findings"]}
