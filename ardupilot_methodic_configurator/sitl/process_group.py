# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A program started in a process group of its own, and the ending of every process in that group.

SITL is started as the leader of a new session (so of a new process group, whose id is its pid),
and on Linux told to die with the thread that started it (``PR_SET_PDEATHSIG``): SITL exits when
its parent dies, but not while it is stalled waiting for physics, which is exactly its state once
the check is gone.

The group outlives its leader: a program that forks and exits (a wrapper script, a crashing SITL
with a helper) leaves its children in the group, and the kernel keeps the group's id for them, so
``killpg`` with the recorded id still reaches them after the leader was reaped.  `ProcessGroup`
therefore ends the whole group, whether its leader still runs or not: SIGTERM, SIGKILL after the
grace period (a stalled SITL ignores SIGTERM), and it forgets the id once the group is empty, so
that a later group that happens to get the same number is never signalled.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import enum
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

TERM_GRACE_S = 3.0
KILL_WAIT_S = 5.0
# How often a group whose members are not our children (so cannot be waited for) is looked at.
_MEMBER_POLL_S = 0.05
_PR_SET_PDEATHSIG = 1
_PROC = Path("/proc")


def parent_death_signal() -> Callable[[], None] | None:
    """A pre-exec hook that makes the child get SIGKILL when the thread that started it ends (Linux)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):
        return None

    def hook() -> None:
        # Only an already-resolved C call: nothing here may take a Python lock in the child.
        prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)

    return hook


class Ending(enum.Enum):
    """How `ProcessGroup.end` found and left the group."""

    # Nothing of the group was running any more.
    NOTHING_LEFT = "nothing left"
    # Everything ended on SIGTERM within the grace period.
    TERMINATED = "terminated"
    # Something outlived the grace period and got SIGKILL.
    KILLED = "killed"


def live_members(pgid: int) -> list[int] | None:
    """The processes of group ``pgid`` that still run (zombies are not counted), from /proc;
    None where /proc cannot tell (not Linux)."""
    try:
        entries = list(_PROC.iterdir())
    except OSError:
        return None
    members = []
    for entry in entries:
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text(encoding="ascii", errors="replace")
        except OSError:
            continue  # ended while we looked
        # "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split at the last ")".
        fields = stat.rpartition(")")[2].split()
        if len(fields) > 2 and fields[2] == str(pgid) and fields[0] not in ("Z", "X"):
            members.append(int(entry.name))
    return members


class ProcessGroup:
    """One start of a program: its leader (our child) and every process in its group."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        # start_new_session makes the child call setsid() before exec: it leads a new group whose
        # id is its pid, recorded now because the leader may be gone when the group is ended.
        self.pgid = process.pid
        self._lock = threading.Lock()
        self._empty = False

    @classmethod
    def start(
        cls,
        command: Sequence[str],
        *,
        cwd: Path | None,
        preexec: Callable[[], None] | None,
    ) -> ProcessGroup:
        """Start ``command`` as the leader of a new session, its console (stdout and stderr) on a pipe.

        Raises ``OSError`` when the program cannot be started.
        """
        process = subprocess.Popen(
            command,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=preexec,  # noqa: PLW1509 - only prctl, see parent_death_signal
        )
        return cls(process)

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def leader_running(self) -> bool:
        return self.process.poll() is None

    def running(self) -> bool:
        """Whether any process of the group still runs, the leader or one it left behind."""
        if self._empty:
            return False
        if self.leader_running:
            return True
        members = live_members(self.pgid)
        if members is not None:
            return bool(members)
        try:
            os.killpg(self.pgid, 0)  # without /proc a zombie member still counts, until it is reaped
        except (ProcessLookupError, PermissionError):
            return False
        return True

    def kill(self) -> None:
        """SIGKILL to the whole group at once (as a crash would end it)."""
        self._signal(signal.SIGKILL)

    def end(self, grace_s: float = TERM_GRACE_S, kill_wait_s: float = KILL_WAIT_S) -> Ending:
        """End every process of the group: SIGTERM, SIGKILL to what is left after ``grace_s``.

        Safe to call again and from two threads: the second call finds the group empty.
        """
        with self._lock:
            if not self.running():
                self._forget()
                return Ending.NOTHING_LEFT
            self._signal(signal.SIGTERM)
            if self._wait_empty(grace_s):
                self._forget()
                return Ending.TERMINATED
            self._signal(signal.SIGKILL)
            self._wait_empty(kill_wait_s)
            self._forget()
            return Ending.KILLED

    def _signal(self, signum: signal.Signals) -> None:
        if self._empty:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pgid, signum)

    def _wait_empty(self, timeout: float) -> bool:
        """Wait until no process of the group runs; reaps the leader.  False if ``timeout`` passed."""
        deadline = time.monotonic() + timeout
        while self.running():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            step = min(remaining, _MEMBER_POLL_S)
            if self.leader_running:
                # The leader is our child: its exit is waited for rather than looked for.
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.process.wait(step)
            else:
                time.sleep(step)
        return True

    def _forget(self) -> None:
        # Once empty the id may be given to another group: never signal it again.
        if not self.running():
            self._empty = True
