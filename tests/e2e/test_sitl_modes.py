# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The switch step against real ArduCopter SITL: the program's mode switch through its six slots.

SITL's parameters put SMART_RTL into slot 6, a mode a disarmed ArduCopter refuses ("Mode change to
SMARTRTL failed: init failed": no path recorded yet); the other slots hold modes it enters on the
ground.  One run of `amc-rc-receiver --sitl … --text`, which ends by itself at its verdict.
Skipped, saying why, where ``../shared/sitl/`` is absent.
"""

from __future__ import annotations

import re
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
# STABILIZE, ALT_HOLD, LOITER, AUTO, GUIDED: entered while disarmed; SMART_RTL: refused.
SLOT_MODES = {1: 0, 2: 2, 3: 5, 4: 3, 5: 4, 6: 21}
SLOT_LINE = re.compile(r"slot (\d) ([A-Z_]+): (entered|not entered|not confirmed)")


def test_the_programs_mode_switch_visits_every_slot_of_real_sitl_and_a_refused_mode_is_a_finding(
    tmp_path: Path,
) -> None:
    """GIVEN real ArduCopter SITL whose FLTMODE1-6 are STABILIZE, ALT_HOLD, LOITER, AUTO, GUIDED and
    SMART_RTL
    WHEN `amc-rc-receiver --sitl … --text` runs the whole guided test by itself
    THEN the verdict lists all six slots, slots 1-5 entered and slot 6 not entered, and a warning
    quotes ArduPilot's own "Mode change to SMARTRTL failed" text."""
    sitl_binary("arducopter")
    instance = free_instance(46)
    defaults = tmp_path / "modes.parm"
    defaults.write_text(
        "".join(f"FLTMODE{slot} {mode}\n" for slot, mode in SLOT_MODES.items()) + "FLTMODE_CH 5\n",
        encoding="utf-8",
    )
    args = ["--sitl", "../shared/sitl/arducopter", "--instance", str(instance), "--text"]
    run = Process(
        program_command(*args, "--sitl-defaults", str(defaults)),
        cwd=ROOT,
        env=without_display(),
        deadline_s=WAIT_S,
    )
    try:
        code = run.wait(RUN_DEADLINE_S)
        out = run.stdout
    finally:
        run.end()
    summary = out[out.index("=" * 60) :]
    assert code == 0, f"{out}\n{run.stderr}"
    verdict = next(line for line in summary.splitlines() if line.startswith("Verdict:"))
    slots = {int(slot): (mode, outcome) for slot, mode, outcome in SLOT_LINE.findall(verdict)}
    assert slots == {
        1: ("STABILIZE", "entered"),
        2: ("ALT_HOLD", "entered"),
        3: ("LOITER", "entered"),
        4: ("AUTO", "entered"),
        5: ("GUIDED", "entered"),
        6: ("SMART_RTL", "not entered"),
    }, verdict
    refusal = 'the flight controller did not enter the mode: "Mode change to SMARTRTL failed'
    assert f"warning: Slot 6 (FLTMODE6 = SMART_RTL): {refusal}" in summary, summary
