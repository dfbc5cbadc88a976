# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A helicopter checked as a helicopter, on ArduCopter's real helicopter build in SITL.

`amc-rc-receiver --sitl ../shared/sitl/arducopter-heli --sitl-defaults ../shared/sitl/heli.parm
--text` runs to its verdict, the program moving its own sticks, mode switch and aux switches and
switching its transmitter.  The stick step asks for the collective (a helicopter's throttle
channel), and the motor interlock ArduPilot's helicopter build puts on channel 8 (``RC8_OPTION`` 32
by default) is shown with the position ArduPilot reads from it: in the middle at first (the
program's transmitter starts its aux channels there), which ArduPilot takes for an enabled
interlock and refuses to arm with, then low once the program flipped it, as a pilot must before
arming, after which ArduPilot's own pre-arm checks report no receiver failure.
Skipped, saying why, where ``../shared/sitl/`` is absent; preferred instance 53.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.e2e.test_sitl import after
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
    THEN it PASSED; the stick step asks for the collective (no throttle stick) and the sticks'
    summary names it; the motor interlock channel is shown with its position: CH8, RC8_OPTION = 32,
    first middle at 1500 µs with the warning that ArduPilot will not arm (as ArduPilot's own
    "RC8: MotorInterlock MIDDLE" says), then low, and in the channel table at the end; ArduPilot's
    pre-arm checks after the test report no receiver failure; the JSON report names the family Heli,
    the collective role of CH3 and the interlock low."""
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
    assert code == 0, f"{out}\n{run.stderr}"
    assert "Verdict: PASSED" in out, out
    assert "the program pushes its collective stick fully up" in out, out
    assert "throttle stick" not in out, out
    assert "Sticks: collective: correct, CH3 1000 → 2000 µs;" in out, out
    enabled = "ArduPilot reads the motor interlock as enabled and does not arm"
    assert f"CH8 (RC8_OPTION = 32, Motor Interlock) is middle at 1500 µs: {enabled}" in out, out
    assert "Flight controller: RC8: MotorInterlock MIDDLE" in out, out
    low = after(out, "Flight controller: RC8: MotorInterlock MIDDLE")
    assert "CH8 (RC8_OPTION = 32, Motor Interlock) is low at" in low, out
    assert "Motor Interlock, switch low" in after(out, "Verdict: PASSED"), out
    assert "ArduPilot's pre-arm checks (after the test) report no receiver-related failure." in out, out
    data = json.loads(report.with_suffix(".json").read_text(encoding="utf-8"))
    assert data["vehicle"]["family"] == "Heli"
    roles = {channel["number"]: channel["role"] for channel in data["channels"]}
    assert roles[3] == "collective"
    assert "motor_interlock_low" in {finding["code"] for finding in data["findings"]}
