# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The `amc-rc-receiver` command as a user runs it, in a real subprocess."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from amc_rc_receiver import __version__

pytestmark = pytest.mark.e2e


def run_cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    return subprocess.run(
        [sys.executable, "-m", "amc_rc_receiver", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        check=False,
    )


def test_version_prints_the_package_version() -> None:
    """GIVEN the installed program WHEN run with --version THEN it prints the version and exits 0."""
    result = run_cli("--version")
    assert result.returncode == 0
    assert __version__ in result.stdout


def test_scripted_demo_prints_the_whole_failsafe_sequence() -> None:
    """GIVEN the demo in the terminal view for 5 s with the transmitter off after 2 s
    WHEN it runs THEN it prints live channels, the switch-off, RC failsafe, the latched
    observation, the switch-on and recovery in that order, with the bridge traffic, and exits with
    the status of the verdict it prints (0 PASSED; 4 INCOMPLETE if a stick had not moved yet)."""
    result = run_cli("--demo", "--text", "--duration", "5", "--transmitter-off-after", "2")
    out = result.stdout
    verdict = re.findall(r"^Verdict: (\w+)", out, flags=re.MULTILINE)
    assert verdict, out
    assert result.returncode == {"PASSED": 0, "INCOMPLETE": 4}[verdict[-1]], result.stderr
    assert re.search(r"CH1\s+1\d{3}", out), out
    assert "bridge SITL JSON (demo) [ardupilot-json]" in out
    sequence = [
        "RC_CHANNELS interval request: accepted",
        "Transmitter switched off",
        "RC failsafe is now ACTIVE",
        "Failsafe observed at",
        "Transmitter switched on",
        "RC failsafe is now not active",
        "Recovery observed at",
    ]
    position = 0
    for marker in sequence:
        found = out.find(marker, position)
        assert found >= 0, f"{marker!r} missing after offset {position}:\n{out}"
        position = found + len(marker)


def test_no_display_falls_back_to_the_terminal_view() -> None:
    """GIVEN no DISPLAY WHEN the window is asked for THEN the command says so and shows text instead."""
    result = run_cli("--demo", "--duration", "1")
    # One second is too short for the transmitter test: INCOMPLETE.
    assert result.returncode == 4, result.stderr
    assert "No graphical display" in result.stderr
    assert "CH1" in result.stdout


def test_a_vehicle_that_does_not_answer_gives_a_readable_error_and_exit_1() -> None:
    """GIVEN a UDP address where nothing answers WHEN connecting THEN exit 1 with a sentence naming it."""
    result = run_cli("--text", "--device", "udpout:127.0.0.1:9", "--duration", "1", timeout=60)
    assert result.returncode == 1
    assert "udpout:127.0.0.1:9" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bridge", "nonsense"], "PROTOCOL,LISTEN[,TARGET]"),
        (["--duration", "soon"], "is not a number of seconds"),
        (["--demo", "--device", "tcp:127.0.0.1:5760"], "either --demo or --device"),
        (["--text"], "--device DEVICE, or --demo"),
        (["--baudrate", "fast", "--demo"], "'fast' is not a baud rate"),
        (["--baudrate", "0", "--demo"], "0 is not a baud rate"),
        (["--bridge", "xrp,my-laptop:3541", "--demo"], "must be an IP address of this computer"),
        (["--timeout", "nan", "--demo"], "'nan' is not a number of seconds from 0 to 86400"),
        (["--timeout", "1e400", "--demo"], "'1e400' is not a number of seconds"),
        (["--timeout", "-1", "--demo"], "'-1' is not a number of seconds"),
        (["--transmitter-off-after", "nan", "--demo"], "'nan' is not a number of seconds"),
        (["--transmitter-off-for", "inf", "--demo"], "'inf' is not a number of seconds"),
        (["--report", "", "--demo"], "the report needs a file or folder name"),
    ],
)
def test_bad_command_lines_are_explained(args: list[str], message: str) -> None:
    """GIVEN a wrong command line WHEN run THEN a non-zero exit and a message saying what is wrong."""
    result = run_cli(*args)
    assert result.returncode == 2
    assert message in result.stderr
