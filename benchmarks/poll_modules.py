# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Which modules of the package one poll of the receiver model runs code in, and which calls
cross between them.

Strategy: the same replayed datagrams as bench_poll (``_poll_replay``: pymavlink's own receive
path, no sockets), every poll of a run traced with `sys.setprofile`.  Every Python call whose code
lives in the package counts its module, and a call from one module of the package into another is
a crossing (a pair of modules crossed both ways is a back-and-forth).  Printed: the poll that
touched the most modules (the first ones build the guided test from nothing), and the steady
poll at the end of the run, when the receiver repeats itself.

Run: .venv/bin/python benchmarks/poll_modules.py [receiver|busy]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import _poll_replay
import bench_poll

from amc_rc_receiver.plugins.data_model_rc_receiver import RCReceiverDataModel
from tests.support.call_trace import CallTrace, trace_call

POLLS = 60


def trace_polls(mix: str) -> list[CallTrace]:
    frames = bench_poll.busy_link_frames if mix == "busy" else bench_poll.receiver_frames
    master = _poll_replay.ReplayConnection()
    batches = _poll_replay.queued_batches(frames)
    model = RCReceiverDataModel(_poll_replay.Facade(master))
    model.activate()
    traces: list[CallTrace] = []
    for index in range(POLLS):
        master.queue = list(batches[index % len(batches)])
        traces.append(trace_call(model.poll))
    return traces


def show(title: str, trace: CallTrace) -> None:
    calls, crossings = trace.calls, trace.crossings
    print(f"{title}: code in {len(calls)} modules of the package")
    for module, count in sorted(calls.items()):
        print(f"  {count:5d} calls  {module}")
    both_ways = trace.both_ways | {(callee, source) for source, callee in trace.both_ways}
    print(f"  {len(crossings)} caller -> callee module pairs, {len(trace.both_ways)} of them both ways:")
    for (source, callee), count in sorted(crossings.items()):
        mark = "  <->" if (source, callee) in both_ways else ""
        print(f"  {count:5d}  {source} -> {callee}{mark}")


def main() -> int:
    mix = sys.argv[1] if len(sys.argv) > 1 else "receiver"
    traces = trace_polls(mix)
    widest = max(range(len(traces)), key=lambda index: len(traces[index].calls))
    show(f"poll {widest + 1} of {POLLS} ({mix} streams), the widest", traces[widest])
    show(f"poll {POLLS}, steady", traces[-1])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
