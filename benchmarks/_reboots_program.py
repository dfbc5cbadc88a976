# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""amc-rc-receiver's own entry (``main``) for benchmarks/reboots.py, not to be run by hand::

    python benchmarks/_reboots_program.py MAX_RESTARTS GROWTH_FILE -- PROGRAM ARGUMENTS...

MAX_RESTARTS replaces the runner's limit on restarts of a killed SITL (a crash-loop guard of 20),
so that a series of kill-reboots can go beyond it.  A GROWTH_FILE (``""``: none) turns tracemalloc
on: SIGUSR1 takes the first snapshot, and when the program ends the lines whose allocations grew
most since then are written there (diagnosis only: tracing slows the program).
"""

from __future__ import annotations

import signal
import sys
import tracemalloc
from pathlib import Path

from amc_rc_receiver.__main__ import main
from amc_rc_receiver.sitl import supervisor


def run(argv: list[str]) -> int:
    split = argv.index("--")
    max_restarts, growth_file = argv[:split]
    supervisor.MAX_RESTARTS = int(max_restarts)
    snapshots: list[tracemalloc.Snapshot] = []
    if growth_file:
        tracemalloc.start(12)
        signal.signal(signal.SIGUSR1, lambda _signum, _frame: snapshots.append(tracemalloc.take_snapshot()))
    try:
        return main(argv[split + 1 :])
    finally:
        if snapshots:
            # The first snapshot is itself memory allocated since; it is not the program's.
            skip = [tracemalloc.Filter(False, tracemalloc.__file__)]
            last = tracemalloc.take_snapshot().filter_traces(skip)
            stats = last.compare_to(snapshots[0].filter_traces(skip), "traceback")[:25]
            lines = [
                f"{stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks  "
                + " <- ".join(f"{frame.filename}:{frame.lineno}" for frame in reversed(stat.traceback[-5:]))
                for stat in stats
            ]
            Path(growth_file).write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
