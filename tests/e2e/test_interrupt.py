# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Ctrl-C and SIGTERM at any moment end the program with one line and status 130, no traceback.

The program runs as a user starts it, in a real subprocess: connecting to a vehicle that never
answers, in the terminal view on the demo, and in the window under Xvfb.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
from pathlib import Path

import pytest

from tests.support.processes import Process, quiet_env

pytestmark = pytest.mark.e2e

EXIT_INTERRUPTED = 130


def program(*args: str) -> list[str]:
    return [sys.executable, "-m", "amc_rc_receiver", *args]


def assert_one_line_and_130(process: Process) -> None:
    code = process.wait()
    stderr = process.stderr
    assert code == EXIT_INTERRUPTED, (process.stdout, stderr)
    assert "Traceback" not in stderr + process.stdout
    assert stderr.strip().splitlines()[-1] == "Stopped."


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["Ctrl-C", "SIGTERM"])
def test_interrupting_the_terminal_view_on_the_demo_ends_with_status_130(tmp_path: Path, signum: int) -> None:
    """
    GIVEN the terminal view running on the demo vehicle (no duration, not a terminal)
    WHEN it is interrupted with Ctrl-C or terminated with SIGTERM after it connected
    THEN it ends with the line "Stopped." and status 130, without a traceback
    """
    process = Process(program("--demo", "--text"), env=quiet_env(tmp_path))
    try:
        process.wait_for_output(lambda out: "Connected to an ArduPilot vehicle" in out, "the connection")
        process.signal(signum)
        assert_one_line_and_130(process)
    finally:
        process.end()


def test_interrupting_while_connecting_ends_with_status_130(tmp_path: Path) -> None:
    """
    GIVEN the terminal view connecting to a UDP port where no vehicle ever speaks
    WHEN Ctrl-C arrives during the wait for a heartbeat
    THEN it ends with "Stopped." and status 130, without a traceback
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = Process(
        program("--device", f"udpin:127.0.0.1:{port}", "--text", "--timeout", "120"), env=quiet_env(tmp_path)
    )
    try:
        process.wait_for_output(lambda out: "Connecting to" in out, "the connection attempt")
        process.signal(signal.SIGINT)
        assert_one_line_and_130(process)
    finally:
        process.end()


@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display (pytest-xvfb provides one)")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["Ctrl-C", "SIGTERM"])
def test_interrupting_the_window_ends_with_status_130(tmp_path: Path, signum: int) -> None:
    """
    GIVEN the window on the demo vehicle, asked to print nothing until it is stopped
    WHEN Ctrl-C or SIGTERM arrives once it shows live data
    THEN the window closes, and the program ends with "Stopped." and status 130, no traceback
    """
    env = quiet_env(tmp_path) | {"DISPLAY": os.environ["DISPLAY"]}
    process = Process(program("--demo", "--duration", "600"), env=env)
    try:
        # The window says nothing on stdout; the demo's vehicle answering is the sign it is up.
        process.wait_for_output(lambda _out: _window_is_up(process), "the window", deadline_s=60)
        process.signal(signum)
        assert_one_line_and_130(process)
    finally:
        process.end()


def _window_is_up(process: Process) -> bool:
    # /proc shows the UDP sockets the demo opened once the window connected to it.
    try:
        fds = os.listdir(f"/proc/{process.popen.pid}/fd")
    except OSError:
        return False
    sockets = 0
    for fd in fds:
        try:
            if os.readlink(f"/proc/{process.popen.pid}/fd/{fd}").startswith("socket:"):
                sockets += 1
        except OSError:
            continue
    return sockets >= 5


# Ctrl-C delivered at the one moment the audit found it lost: while pymavlink imports its optional
# quaternion module inside a bare ``except:`` (mavextra.py), which swallows KeyboardInterrupt.
_CTRL_C_INSIDE_PYMAVLINKS_OPTIONAL_IMPORT = """
import os, signal, sys

class CtrlCOnQuaternion:
    def find_spec(self, name, path=None, target=None):
        if name == "pymavlink.quaternion":
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, CtrlCOnQuaternion())
from amc_rc_receiver.__main__ import main
sys.exit(main(["--demo", "--text", "--duration", "30"]))
"""


def test_ctrl_c_while_pymavlink_loads_is_not_swallowed(tmp_path: Path) -> None:
    """
    GIVEN the program starting, and Ctrl-C arriving while pymavlink imports a module inside its
          bare ``except:`` (it used to swallow the interrupt: the run went on to its end)
    WHEN the program has loaded
    THEN it ends with "Stopped." and status 130, without a traceback
    """
    process = Process(
        [sys.executable, "-c", _CTRL_C_INSIDE_PYMAVLINKS_OPTIONAL_IMPORT], env=quiet_env(tmp_path)
    )
    try:
        assert_one_line_and_130(process)
    finally:
        process.end()
