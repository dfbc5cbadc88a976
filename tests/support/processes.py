# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The suite's one process wrapper: started in its own session, read line by line, always ended.

Output is collected by a reader thread, so waiting for a line never blocks past its deadline and
a chatty process never stalls on a full pipe.  ``end()`` stops the process and everything it
started (its own process group, by the process id we got when starting it).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

DEADLINE_S = 60.0  # generous: starting Python programs on a loaded 2-core machine takes seconds


class Process:
    """A program started in its own session, its output collected line by line; ``end()`` stops it
    and everything it started.  ``deadline_s`` is how long its waits wait unless told otherwise."""

    def __init__(
        self,
        args: Sequence[str],
        *,
        cwd: Path | None = None,
        env: dict[str, str] | None = None,
        deadline_s: float = DEADLINE_S,
        stdin: bool = False,
    ) -> None:
        self.args = list(args)
        self.deadline_s = deadline_s
        self.popen = subprocess.Popen(
            self.args,
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=cwd,
            env=env,
            start_new_session=True,
        )
        self._lock = threading.Lock()
        self._stdout: list[str] = []
        self._stderr: list[str] = []
        self._readers = [
            threading.Thread(target=self._read, args=(self.popen.stdout, self._stdout), daemon=True),
            threading.Thread(target=self._read, args=(self.popen.stderr, self._stderr), daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    def _read(self, stream: object, into: list[str]) -> None:
        try:
            for line in stream:  # type: ignore[attr-defined]
                with self._lock:
                    into.append(line)
        except (OSError, ValueError):
            return  # the pipe was closed by end()

    @property
    def stdout(self) -> str:
        with self._lock:
            return "".join(self._stdout)

    @property
    def stdout_lines(self) -> list[str]:
        """The lines of output so far, each with its line end."""
        with self._lock:
            return list(self._stdout)

    @property
    def stderr(self) -> str:
        with self._lock:
            return "".join(self._stderr)

    def send_line(self, text: str) -> None:
        """Write ``text`` and a line end to the process's input (started with ``stdin=True``)."""
        stream = self.popen.stdin
        assert stream is not None, "started without stdin=True"
        stream.write(text + "\n")
        stream.flush()

    def wait_for_output(
        self, condition: Callable[[str], bool], what: str, deadline_s: float | None = None
    ) -> str:
        """The output so far, once ``condition`` holds for it; fails the test if the process ends
        first or ``deadline_s`` (the process's own deadline if not given) passes."""
        end = time.monotonic() + (self.deadline_s if deadline_s is None else deadline_s)
        while True:
            text = self.stdout
            if condition(text):
                return text
            if self.popen.poll() is not None:
                self._join_readers()
                text = self.stdout
                if condition(text):
                    return text
                pytest.fail(f"{what}: the process ended with {self.popen.returncode}\n{text}\n{self.stderr}")
            if time.monotonic() > end:
                pytest.fail(f"timed out waiting for {what}\n{text}\n{self.stderr}")
            time.sleep(0.05)

    def signal(self, signum: int) -> None:
        if self.popen.poll() is None:
            self.popen.send_signal(signum)

    def wait(self, deadline_s: float | None = None) -> int:
        """The exit code; fails the test, with the output so far, if the process does not exit."""
        deadline_s = self.deadline_s if deadline_s is None else deadline_s
        try:
            code = self.popen.wait(deadline_s)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{self.args[:4]} did not exit within {deadline_s} s\n{self.stdout}\n{self.stderr}")
        self._join_readers()
        return code

    def end(self, grace_s: float = 10.0) -> None:
        """Stop the process and its group: SIGTERM, and SIGKILL for whatever is left after
        ``grace_s`` (at once with 0, for a program known to ignore SIGTERM)."""
        if self.popen.poll() is None:
            if grace_s > 0:
                self._signal_group(signal.SIGTERM)
            try:
                self.popen.wait(grace_s)
            except subprocess.TimeoutExpired:
                self._signal_group(signal.SIGKILL)
                self.popen.wait(10)
        self._join_readers()
        for stream in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):  # an input the process no longer reads
                    stream.close()

    def _signal_group(self, signum: int) -> None:
        # Only while our process still runs: its id then names the group we created for it.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.popen.pid, signum)

    def _join_readers(self) -> None:
        for reader in self._readers:
            reader.join(5.0)


def free_tcp_port() -> int:
    """A loopback TCP port nobody listens on right now (the caller must cope with losing a race)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def program_command(*args: str) -> list[str]:
    """This project's program, ``amc-rc-receiver``, with ``args``, on this interpreter."""
    return [sys.executable, "-m", "amc_rc_receiver", *args]


def serve_demo_command(device: str, *extra: str) -> list[str]:
    return program_command("--serve-demo", device, *extra)


def without_display() -> dict[str, str]:
    """The environment without a display, so a program started from it opens no window."""
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    return env


def quiet_env(home: Path) -> dict[str, str]:
    """The environment without a display and with ``home`` as HOME, so nothing reads the user's files."""
    env = without_display()
    env["HOME"] = str(home)
    return env
