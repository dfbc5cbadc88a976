# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The channels beyond CH5 against real ArduCopter SITL: `amc-rc-receiver --sitl … --text` shows
each delivered channel after CH5 with ArduPilot's name of its RCn_OPTION and the switch position
ArduPilot reads, in its summary and its report.  Skipped, saying why, where ``../shared/sitl/`` is
absent; preferred instance 46.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.support.processes import Process, program_command, without_display
from tests.support.sitl import ROOT, free_instance, sitl_binary

pytestmark = [
    pytest.mark.sitl,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SITL binaries are Linux x86-64"),
]

RUN_DEADLINE_S = 150.0
WAIT_S = 90.0
# ArmDisarm on CH7, Motor Emergency Stop on CH8 reversed, with RC_OPTIONS bit 7 honouring it (and
# ArduCopter's default bit 5).
DEFAULTS = "RC7_OPTION 153\nRC8_OPTION 31\nRC8_REVERSED 1\nRC_OPTIONS 160\n"


def test_real_sitl_s_channels_beyond_ch5_show_their_arduPilot_function_and_switch_position(
    tmp_path: Path,
) -> None:
    """GIVEN real ArduCopter SITL with RC7_OPTION 153 and RC8_OPTION 31 (reversed, RC_OPTIONS bit 7),
    fed by the program's 8-channel transmitter
    WHEN `amc-rc-receiver --sitl … --text --report` runs the whole guided test by itself
    THEN the summary and the report list CH6-CH8 with the PWM SITL reports, CH7 as ArmDisarm and CH8
    as Motor Emergency Stop each read in the middle, CH8 reversed, and the test still passes."""
    sitl_binary("arducopter")
    defaults = tmp_path / "aux.parm"
    defaults.write_text(DEFAULTS, encoding="utf-8")
    report = tmp_path / "report"
    args = ["--sitl", "../shared/sitl/arducopter", "--instance", str(free_instance(46)), "--text"]
    args += ["--sitl-defaults", str(defaults), "--report", str(report)]
    run = Process(program_command(*args), cwd=ROOT, env=without_display(), deadline_s=WAIT_S)
    try:
        code = run.wait(RUN_DEADLINE_S)
        out = run.stdout
    finally:
        run.end()
    assert code == 0, f"{out}\n{run.stderr}"
    summary = out[out.index("=" * 60) :]
    assert "CH7: 1500 µs, span 0 µs, ArmDisarm, switch middle" in summary, summary
    assert "CH8: 1500 µs, span 0 µs, Motor Emergency Stop, switch middle" in summary, summary
    extra = json.loads(report.with_suffix(".json").read_text(encoding="utf-8"))["extra_channels"]
    assert [(entry["number"], entry["option"], entry["switch_position"]) for entry in extra] == [
        (6, None, None),
        (7, 153, "middle"),
        (8, 31, "middle"),
    ]
    assert extra[2]["reversed"] is True
