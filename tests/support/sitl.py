# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Real ArduPilot SITL for tests: where the binaries are, and whether any of their processes is left.

The binaries are test equipment beside the repository (``../shared/sitl/``, see its README),
never part of it; tests that need them skip with a clear reason where the folder is absent.
Processes are found through /proc, so a SITL that escaped its runner is seen whoever started it.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import socket
import tempfile
from pathlib import Path
from typing import IO

import pytest

from amc_rc_receiver.sitl.config import MAX_INSTANCE

ROOT = Path(__file__).resolve().parents[2]
SITL_DIR = ROOT.parent / "shared" / "sitl"


def sitl_binary(name: str) -> Path:
    """``../shared/sitl/<name>``, or skip the test saying why."""
    path = SITL_DIR / name
    if not path.is_file() or not os.access(path, os.X_OK):
        pytest.skip(f"real ArduPilot SITL not available: no executable {path} (see ../shared/sitl/README.md)")
    return path


def process_gone(pid: int) -> bool:
    """True when ``pid`` no longer runs (a zombie waiting to be reaped counts as gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    except OSError:
        return True
    for line in status.splitlines():
        if line.startswith("State:"):
            return line.split()[1] in ("Z", "X")
    return False


def _read(pid: str, name: str) -> str:
    try:
        return Path(f"/proc/{pid}/{name}").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def running_processes() -> dict[int, tuple[int, list[str]]]:
    """pid -> (parent pid, argv) of every live process."""
    found: dict[int, tuple[int, list[str]]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or process_gone(int(entry.name)):
            continue
        argv = [part for part in _read(entry.name, "cmdline").split("\0") if part]
        parent = 0
        for line in _read(entry.name, "status").splitlines():
            if line.startswith("PPid:"):
                parent = int(line.split()[1])
        found[int(entry.name)] = (parent, argv)
    return found


def sitl_processes(binary: Path, instance: int) -> list[int]:
    """Live processes of ``binary`` started for ``instance`` (SITL itself, not the check naming it)."""
    wanted = str(binary.resolve())
    pids = []
    for pid, (_parent, argv) in running_processes().items():
        if argv and argv[0] == wanted and "--instance" in argv:
            index = argv.index("--instance")
            if index + 1 < len(argv) and argv[index + 1] == str(instance):
                pids.append(pid)
    return pids


def process_group_members(pgid: int) -> list[int]:
    """Live processes (zombies are not counted) whose process group is ``pgid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or process_gone(int(entry.name)):
            continue
        # "pid (comm) state ppid pgrp ...": the name may hold ") ", so fields count from the last one.
        fields = _read(entry.name, "stat").rpartition(")")[2].split()
        if len(fields) > 2 and fields[2] == str(pgid):
            found.append(int(entry.name))
    return found


def descendants(pid: int) -> list[int]:
    """Live processes whose ancestry leads to ``pid``."""
    table = running_processes()
    children: dict[int, list[int]] = {}
    for child, (parent, _argv) in table.items():
        children.setdefault(parent, []).append(child)
    found: list[int] = []
    pending = list(children.get(pid, []))
    while pending:
        current = pending.pop()
        found.append(current)
        pending.extend(children.get(current, []))
    return found


def listening_on(port: int) -> bool:
    """Whether a TCP socket listens on 127.0.0.1:``port`` (read from /proc, so nothing connects)."""
    wanted = f"0100007F:{port:04X}"
    try:
        table = Path("/proc/net/tcp").read_text(encoding="utf-8")
    except OSError:
        return False
    return any(
        fields[1] == wanted and fields[3] == "0A"
        for fields in (line.split() for line in table.splitlines()[1:])
        if len(fields) > 3
    )


def _port_free(kind: socket.SocketKind, port: int) -> bool:
    with socket.socket(socket.AF_INET, kind) as probe:
        if kind == socket.SOCK_STREAM:
            # A port in TIME_WAIT after the last run is free for SITL, which listens with
            # SO_REUSEADDR; only a socket bound to it now is in the way.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def instance_ports_free(instance: int) -> bool:
    """Whether every port SITL instance ``instance`` and its runner use is free on the loopback."""
    step = 10 * instance
    tcp = [5760 + step, 5762 + step, 5763 + step]
    udp = [5501 + step, 9002 + step]
    return all(_port_free(socket.SOCK_STREAM, port) for port in tcp) and all(
        _port_free(socket.SOCK_DGRAM, port) for port in udp
    )


# Instances this test process has claimed: the open lock files keep them ours until it exits.
_claimed: dict[int, IO[str]] = {}


def _claim(instance: int) -> bool:
    """Claim ``instance`` for this process against every other process of the machine: the other
    workers of a parallel run, and other runs of the suite.

    Free ports alone are a race: two could both find them free and both start SITL there.  An
    exclusive lock on a per-instance file decides, and the kernel drops it when the process ends.
    """
    if instance in _claimed:
        return False  # taken by an earlier test of this process, whose SITL may still be ending
    handle = (Path(tempfile.gettempdir()) / f"amc-rc-receiver-sitl-instance-{instance}.lock").open("a")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return False
    _claimed[instance] = handle
    return True


def free_instance(preferred: int) -> int:
    """A SITL instance of this test's own: ``preferred`` or the next one up (then from 1) that no
    other process has claimed and whose ports are free.

    Each test has its own preferred instance, so the ports of a run are easy to tell apart; a
    parallel run, or a second run on the machine, takes the next free ones.  A process never
    takes an instance twice, so a test never meets the ports of an earlier test's SITL.
    """
    candidates = [*range(preferred, MAX_INSTANCE + 1), *range(1, preferred)]
    for candidate in candidates:
        with contextlib.suppress(OSError):
            if _claim(candidate) and instance_ports_free(candidate):
                return candidate
    pytest.skip(f"no SITL instance with free ports between 1 and {MAX_INSTANCE}")
