# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Helpers for the tests that run inside the released methodic configurator 5.0.1.

- ``Driver``: the session driver (``drivers/amc501_session.py``) started with the Python of a
  methodic configurator environment; one JSON request, one JSON reply.
- ``ServeDemo``: ``amc-rc-receiver --serve-demo tcp:127.0.0.1:PORT`` from *our* environment, the
  simulated vehicle the methodic configurator connects to.
- ``decode``: MAVLink frames in recorded bytes, as pymavlink messages.

Every subprocess is killed on close, whatever state it is in.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink

from tests.support.processes import Process, free_tcp_port, without_display
from tests.support.waiting import wait_for

DRIVER = Path(__file__).resolve().parent / "drivers" / "amc501_session.py"
# Generous: a loaded two-core CI machine, 5.0.1's connect alone waits 5 s for heartbeats.
REQUEST_TIMEOUT_S = 120.0
STOP_TIMEOUT_S = 15.0


def isolated_environment(home: Path, **extra: str) -> dict[str, str]:
    """os.environ for a methodic configurator subprocess: its own HOME/XDG folders, DISPLAY kept."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_CACHE_HOME=str(home / ".cache"),
        PYTHONDONTWRITEBYTECODE="1",
        # Links the editor opens (step documentation) go to a command that does nothing.
        BROWSER="true",
        **extra,
    )
    for folder in ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        Path(env[folder]).mkdir(parents=True, exist_ok=True)
    return env


class DriverError(AssertionError):
    """The driver reported a failure; the message carries its traceback."""


class Driver:
    """``drivers/amc501_session.py`` running on ``python`` (a methodic configurator environment):
    one JSON request a line on its input, one JSON reply a line on its output."""

    def __init__(self, python: Path, home: Path, stderr_path: Path) -> None:
        self._stderr_path = stderr_path
        self._process = Process(
            [str(python), "-u", str(DRIVER)], cwd=home, env=isolated_environment(home), stdin=True
        )

    def log(self) -> str:
        return self._process.stderr[-6000:]

    def request(self, op: str, timeout_s: float = REQUEST_TIMEOUT_S, **arguments: object) -> dict[str, Any]:
        """Send one command and return its reply; DriverError when it failed or did not answer."""
        process = self._process
        replies = len(process.stdout_lines)
        process.send_line(json.dumps({"op": op, **arguments}))
        try:
            wait_for(
                lambda: len(process.stdout_lines) > replies or process.popen.poll() is not None,
                f"the driver's reply to {op}",
                timeout_s,
                interval_s=0.01,
            )
        except pytest.fail.Exception:
            raise DriverError(f"{op}: no reply within {timeout_s} s\n{self.log()}") from None
        if len(process.stdout_lines) <= replies:
            process.wait(STOP_TIMEOUT_S)  # ended: read what it wrote to the end
        lines = process.stdout_lines
        if len(lines) <= replies:
            raise DriverError(f"{op}: the driver exited ({process.popen.poll()})\n{self.log()}")
        reply: dict[str, Any] = json.loads(lines[replies])
        if not reply.get("ok"):
            raise DriverError(f"{op}: {reply.get('error')}\n{reply.get('traceback')}\n{self.log()}")
        return reply

    def close(self) -> None:
        try:
            if self._process.popen.poll() is None:
                self._process.send_line(json.dumps({"op": "quit"}))
                self._process.popen.wait(timeout=STOP_TIMEOUT_S)
        except (OSError, subprocess.TimeoutExpired, ValueError):
            pass
        finally:
            self._process.end()
            self._stderr_path.write_text(self._process.stderr, encoding="utf-8")


class ServeDemo:
    """``amc-rc-receiver --serve-demo tcp:127.0.0.1:PORT`` from this project's environment."""

    def __init__(self, log_path: Path, *extra_args: str) -> None:
        self.port = free_tcp_port()
        self.device = f"tcp:127.0.0.1:{self.port}"
        self._log_path = log_path
        # The vehicle alone: no window.
        self._process = Process(
            [*_our_command(), "--serve-demo", self.device, *extra_args], env=without_display()
        )

    @property
    def running(self) -> bool:
        return self._process.popen.poll() is None

    def wait_until_listening(self, timeout_s: float = 60.0) -> None:
        """Wait until the vehicle's TCP port accepts connections (checked without connecting to it)."""

        def listening() -> bool:
            if not self.running:
                raise AssertionError(f"--serve-demo exited ({self._process.popen.returncode}):\n{self.log()}")
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
                try:
                    probe.bind(("127.0.0.1", self.port))
                except OSError:
                    return True  # the port is taken: the vehicle listens on it
                return False

        wait_for(listening, f"--serve-demo listening on {self.device}", timeout_s, interval_s=0.02)

    def log(self) -> str:
        return (self._process.stdout + self._process.stderr)[-6000:]

    def close(self) -> None:
        try:
            self._process.end()
        finally:
            self._log_path.write_text(self._process.stdout + self._process.stderr, encoding="utf-8")


def _our_command() -> list[str]:
    script = Path(sys.executable).with_name("amc-rc-receiver")
    if script.is_file():
        return [str(script)]
    found = shutil.which("amc-rc-receiver")
    return [found] if found else [sys.executable, "-m", "amc_rc_receiver"]


def decode(data: bytes) -> list[Any]:
    """Every MAVLink message in ``data`` (a recorded byte stream), in order."""
    parser = mavlink.MAVLink(None)
    parser.robust_parsing = True
    messages = []
    for offset in range(0, len(data), 4096):
        for message in parser.parse_buffer(data[offset : offset + 4096]) or []:
            if message.get_type() != "BAD_DATA":
                messages.append(message)
    return messages


def phases(data: bytes, boundaries: Mapping[str, int]) -> Iterator[tuple[str, bytes]]:
    """Split ``data`` at the byte offsets ``{phase name: offset at its end}`` (ascending)."""
    start = 0
    for name, end in sorted(boundaries.items(), key=lambda item: item[1]):
        yield name, data[start:end]
        start = end
