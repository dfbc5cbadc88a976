# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What one process holds, read from /proc/PID (Linux): resident memory, descriptors, threads.

Shared by benchmarks/soak.py and benchmarks/reboots.py.  Read from outside the process where
possible, so the measurement adds nothing to what it measures.
"""

from __future__ import annotations

import os
import socket
import statistics
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Sample:
    """One reading of a process; ``at`` is seconds since the benchmark started it."""

    at: float
    rss_kb: int
    descriptors: int
    threads: int
    pseudo_terminals: int


def sample(pid: int, at: float) -> Sample | None:
    """The process's figures now, or None once it has gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="ascii", errors="replace")
        names = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return None
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    if fields.get("State", "").split()[:1] == ["Z"]:
        return None
    ptys = 0
    for name in names:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{name}")
        except OSError:
            continue  # closed between the listing and the link
        # Either end of a pseudo-terminal: /dev/ptmx for a master, /dev/pts/N for a slave.
        if target == "/dev/ptmx" or target.startswith("/dev/pts/"):
            ptys += 1
    return Sample(
        at=at,
        rss_kb=int(fields["VmRSS"].split()[0]),
        descriptors=len(names),
        threads=int(fields["Threads"].split()[0]),
        pseudo_terminals=ptys,
    )


def growth_mb_per_hour(samples: list[Sample], after_s: float) -> float:
    """Least-squares slope of RSS over the samples from ``after_s`` on, in MB per hour."""
    late = [item for item in samples if item.at >= after_s]
    if len(late) < 2:
        return float("nan")
    slope_kb_per_s = statistics.linear_regression(
        [item.at for item in late], [item.rss_kb for item in late]
    ).slope
    return slope_kb_per_s * 3600 / 1024


def port_free(port: int, kind: int) -> bool:
    with socket.socket(socket.AF_INET, kind) as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_instance(first: int, taken: set[int] | None = None) -> int:
    """The first SITL instance from ``first`` whose ports (MAVLink 5760/5762/5763, RC 5501, JSON 9002,
    all + 10·N) are free on 127.0.0.1, so a benchmark never disturbs a test or another benchmark."""
    for instance in range(first, 250):
        if taken and instance in taken:
            continue
        base = 10 * instance
        tcp = [5760 + base, 5762 + base, 5763 + base]
        udp = [5501 + base, 9002 + base]
        if all(port_free(port, socket.SOCK_STREAM) for port in tcp) and all(
            port_free(port, socket.SOCK_DGRAM) for port in udp
        ):
            return instance
    raise SystemExit("no free SITL instance")
