# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Where a poll's wall time goes when its caches are cold: our poll against 5.0.1's own model,
whole and with parts of ours taken out.

Strategy: the same replayed datagrams as bench_poll (``_poll_replay``: pymavlink's own receive
path, no sockets), but before every poll 2 MB are written, as the live benchmark's socket work,
sleeps and other processes push a poller's code and state out of the core's caches between two
polls (a warm replay, as in poll_memos, hides the cost of what a poll touches once).  Each poll of
ours and 5.0.1's poll of the same datagrams run back to back, in alternating order, and the
median of their ratios is printed: pairing cancels most of a shared machine's drift, which moves
the wall ratio of separate runs by several per cent.

The parts are taken out by patching, in this process only, cumulatively: the snapshot (the
previous one is returned), then the tick's plan, the intake of the vehicle's messages and the
sending.  What is left is reading the messages our way; the difference between two rows is what
that part costs, in units of 5.0.1's whole poll.  These rows are experiments, not a poll that
could ship: a poll without its snapshot shows nothing.

Run: .venv/bin/python benchmarks/poll_parts.py [polls]
"""

from __future__ import annotations

import contextlib
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import _poll_replay
import bench_poll
from _patching import patched

from amc_rc_receiver.plugins.data_model_rc_receiver import RCReceiverDataModel
from amc_rc_receiver.plugins.rc_receiver.intake import VehicleIntake
from amc_rc_receiver.plugins.rc_receiver.tracker import GuidedTestTracker

POLLS = 2000
WARM_UP = 50
CACHE_PUSH_BYTES = _poll_replay.CACHE_PUSH_BYTES
CACHE_LINE = _poll_replay.CACHE_LINE


def _previous_state(self: Any, now: float, target: Any = None) -> Any:
    del now, target
    return self._state


def _taken(self: Any, messages: Any, now: float, not_before: Any, *, backlog: bool, closed: bool) -> bool:
    del self, messages, now, not_before, backlog, closed
    return True


def _nothing(self: Any, now: float) -> None:
    del self, now


# Each row takes out its part and every part of the rows above it.
PARTS: tuple[tuple[str, Callable[[], contextlib.AbstractContextManager[None]]], ...] = (
    ("without the snapshot", lambda: patched(RCReceiverDataModel, "_build_state", _previous_state)),
    ("  and the plan", lambda: patched(GuidedTestTracker, "plan", _nothing)),
    ("  and the intake", lambda: patched(VehicleIntake, "take", _taken)),
    ("  and the sending", lambda: patched(RCReceiverDataModel, "_send", _nothing)),
)


def _pollers(master_ours: Any, master_theirs: Any) -> tuple[Callable[[], object], Callable[[], object]]:
    released = bench_poll.released_model_module()
    if released is None:
        raise SystemExit("no 5.0.1 environment: ./scripts/test.sh builds it")
    ours = RCReceiverDataModel(_poll_replay.Facade(master_ours))
    ours.activate()
    theirs = released.RCReceiverDataModel(_poll_replay.Facade(master_theirs))
    theirs.get_receiver_state()
    _poll_replay.introduce_vehicle(master_ours, ours.poll)
    _poll_replay.introduce_vehicle(master_theirs, theirs.get_receiver_state)
    return ours.poll, theirs.get_receiver_state


def paired_ratios(mix: str, parts: int, polls: int) -> tuple[float, float, float]:
    """Median ratio of ours (with the first ``parts`` parts taken out) to 5.0.1's poll, and the
    median microseconds of each."""
    frames = bench_poll.busy_link_frames if mix == "busy" else bench_poll.receiver_frames
    batches = _poll_replay.queued_batches(frames)
    master_ours, master_theirs = _poll_replay.ReplayConnection(), _poll_replay.ReplayConnection()
    ours, theirs = _pollers(master_ours, master_theirs)
    for index in range(WARM_UP):  # the first polls build the guided test from nothing
        master_ours.queue = list(batches[index % len(batches)])
        master_theirs.queue = list(batches[index % len(batches)])
        ours()
        theirs()
    push = bytearray(CACHE_PUSH_BYTES)
    zeros = bytes(CACHE_PUSH_BYTES // CACHE_LINE)
    ratios: list[float] = []
    times: dict[str, list[float]] = {"ours": [], "theirs": []}
    sides = {"ours": (master_ours, ours), "theirs": (master_theirs, theirs)}
    with contextlib.ExitStack() as stack:
        for _name, take_out in PARTS[:parts]:
            stack.enter_context(take_out())
        for index in range(polls):
            took: dict[str, float] = {}
            for name in ("ours", "theirs") if index % 2 else ("theirs", "ours"):
                master, poll = sides[name]
                master.queue = list(batches[index % len(batches)])
                push[::CACHE_LINE] = zeros
                started = time.perf_counter()
                poll()
                took[name] = time.perf_counter() - started
            ratios.append(took["ours"] / took["theirs"])
            for name, seconds in took.items():
                times[name].append(seconds)
    return statistics.median(ratios), statistics.median(times["ours"]), statistics.median(times["theirs"])


def main() -> int:
    polls = int(sys.argv[1]) if len(sys.argv) > 1 else POLLS
    print(
        f"our poll / 5.0.1's poll of the same datagrams, caches pushed out before each "
        f"({polls} pairs, medians):"
    )
    for mix in ("receiver", "busy"):
        print(f"\n{mix}:")
        rows = [("whole poll", 0)] + [(name, count) for count, (name, _take_out) in enumerate(PARTS, start=1)]
        for name, count in rows:
            ratio, ours, theirs = paired_ratios(mix, count, polls)
            print(f"  {name:24s} {ratio:6.3f} x   ours {ours * 1e6:7.1f} µs   5.0.1 {theirs * 1e6:7.1f} µs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
