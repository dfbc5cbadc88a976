# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What each memo of the receiver model's poll saves: the poll timed with all of them, and with
each one taken away in turn.

Strategy: the same replayed datagrams as bench_poll (``_poll_replay``: pymavlink's own receive
path, no sockets), on four workloads: the receiver's streams at 5 Hz (``receiver``), a busy link
(``busy``), the window's 10 Hz tick (``tick``: every other poll finds nothing waiting), and the
receiver's streams while a person moves the sticks (``sticks``: every RC_CHANNELS differs, so the
guided test is built again on every poll, where the memos inside it have their work).  A
memo is taken away by patching, in this process only, the method that keeps it so that it never
hits (or by calling the function it wraps).  The variants run in rotating order, several rounds;
the medians are printed as the ratio of the poll's time without the memo to its time with all of
them: above 1.0 the memo pays for itself.

Run: .venv/bin/python benchmarks/poll_memos.py [rounds]; ``poll_memos.py count`` counts instead
the instructions of each variant with valgrind (busy and sticks), which repeat whatever the
machine does.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import _poll_replay
import bench_poll
from _patching import patched
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.plugins.data_model_rc_receiver import RCReceiverDataModel
from amc_rc_receiver.plugins.rc_receiver import evidence, readings, switch_evidence
from amc_rc_receiver.plugins.rc_receiver.firmware import wanted_parameters
from amc_rc_receiver.plugins.rc_receiver.parameter_knowledge import ParameterKnowledge
from amc_rc_receiver.plugins.rc_receiver.parameter_reads import ParameterReader
from amc_rc_receiver.plugins.rc_receiver.tracker import GuidedTestTracker
from tests.support.clock import ManualClock

POLLS = 400
WARM_UP = 20
ALL_MEMOS = "all memos"
# Counted: a steady busy link, and the sticks moving (the guided test built every poll).
COUNTED_WORKLOADS = ("busy", "sticks")
COUNTED_POLLS = (20, 120)  # the difference of two runs leaves out start-up and imports


def _before(owner: Any, name: str, reset: Callable[[Any], None]) -> contextlib.AbstractContextManager[None]:
    """``owner.name`` with ``reset(self)`` run before each call: its memo never hits."""
    original = owner.__dict__[name]

    def call(self: Any, *args: Any) -> Any:
        reset(self)
        return original(self, *args)

    return patched(owner, name, call)


def _forget(attribute: str) -> Callable[[Any], None]:
    def forget(self: Any) -> None:
        setattr(self, attribute, None)

    return forget


def _unique_inputs(self: Any, live: Any, target: Any) -> object:
    del self, live, target
    return object()


MEMOS: dict[str, Callable[[], contextlib.AbstractContextManager[None]]] = {
    "the whole guided test": lambda: patched(GuidedTestTracker, "_inputs", _unique_inputs),
    "the wanted names": lambda: patched(
        ParameterKnowledge, "wanted", lambda self, family, values: wanted_parameters(family, dict(values))
    ),
    "the host's values once per snapshot": lambda: _before(
        ParameterKnowledge, "host_and_values", lambda self: setattr(self, "_derived", None)
    ),
    "a repeated RC_CHANNELS": lambda: _before(
        GuidedTestTracker, "observe_rc_channels", lambda self, *_: setattr(self, "_previous_count", object())
    ),
    "the parameter listing": lambda: _before(
        ParameterReader, "listing", lambda self: setattr(self, "_listing", None)
    ),
    "STATUSTEXT decoding": lambda: patched(evidence, "_classify", evidence._classify.__wrapped__),
    "the shown channel readings": lambda: patched(
        readings, "_shown_readings", readings._shown_readings.__wrapped__
    ),
    "the receiver status": lambda: patched(
        readings, "_receiver_status_of", readings._receiver_status_of.__wrapped__
    ),
    "a mode refusal told once per text": lambda: patched(
        switch_evidence, "is_mode_refusal", switch_evidence.is_mode_refusal.__wrapped__
    ),
}


def moving_stick_frames(index: int, time_ms: int) -> tuple[Any, int, int]:
    """The receiver's streams as `bench_poll.receiver_frames`, the four sticks sweeping."""
    if index % 3:
        return bench_poll.receiver_frames(index, time_ms)
    sweep = [1100 + (time_ms * (3 + stick) // 7) % 800 for stick in range(4)]
    pwm = [*sweep, *([1500] * 14)]
    return mavlink2.MAVLink_rc_channels_message(time_ms, 8, *pwm, 200), 1, 1


WORKLOADS: dict[str, Callable[[int, int], tuple[Any, int, int]]] = {
    "receiver": bench_poll.receiver_frames,
    "busy": bench_poll.busy_link_frames,
    "tick": bench_poll.receiver_frames,
    "sticks": moving_stick_frames,
}


def _polls(mix: str) -> Callable[[int], None]:
    """One poll of a fresh model at a time, ``poll(index)``, over the workload: the vehicle
    introduced by its own HEARTBEAT, the model's clock moved 0.1 s a poll, as in bench_poll's
    replay (so what it works out does not depend on how fast the machine or valgrind runs)."""
    batches = _poll_replay.queued_batches(WORKLOADS[mix])
    master = _poll_replay.ReplayConnection()
    clock = ManualClock()
    model = RCReceiverDataModel(_poll_replay.Facade(master), clock)
    model.activate()
    _poll_replay.introduce_vehicle(master, model.poll)

    def poll(index: int) -> None:
        master.queue = [] if mix == "tick" and index % 2 else list(batches[index % len(batches)])
        clock.advance(_poll_replay.POLL_PERIOD_S)
        model.poll()

    return poll


def _time_polls(mix: str) -> float:
    """Seconds per poll of a fresh model over ``POLLS`` polls of the workload."""
    poll = _polls(mix)
    for index in range(WARM_UP):  # the first polls build the guided test from nothing
        poll(index)
    started = time.perf_counter()
    for index in range(WARM_UP, WARM_UP + POLLS):
        poll(index)
    return (time.perf_counter() - started) / POLLS


def _replay(variant: str, mix: str, polls: int) -> None:
    """``polls`` polls of the workload with ``variant``'s memo taken away (run under valgrind)."""
    with contextlib.ExitStack() as stack:
        if variant != ALL_MEMOS:
            stack.enter_context(MEMOS[variant]())
        poll = _polls(mix)
        for index in range(polls):
            poll(index)


def _instructions_per_poll(variant: str, mix: str) -> float | None:
    few, many = COUNTED_POLLS
    script = str(Path(__file__).resolve())
    low, high = (bench_poll.cachegrind_counts([script, "replay", variant, mix, str(n)]) for n in (few, many))
    if low is None or high is None:
        return None
    return (high["instructions"] - low["instructions"]) / (many - few)


def count() -> int:
    """Instructions per poll without each memo / with all, counted by valgrind (repeatable)."""
    if shutil.which("valgrind") is None:
        print("valgrind is not installed")
        return 2
    variants = [ALL_MEMOS, *MEMOS]
    runs = [(variant, mix) for variant in variants for mix in COUNTED_WORKLOADS]
    # Each run is single-threaded and its count does not depend on the machine's load.
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        results = dict(zip(runs, pool.map(lambda run: _instructions_per_poll(*run), runs), strict=True))
    counted = {run: value for run, value in results.items() if value is not None}
    if len(counted) < len(results):
        print("a replay failed under valgrind")
        return 1
    print("instructions per poll without each memo / with all (valgrind; PYTHONHASHSEED 0):")
    print(f"  {'':38s}" + "".join(f"{mix:>10s}" for mix in COUNTED_WORKLOADS))
    base = {mix: counted[ALL_MEMOS, mix] for mix in COUNTED_WORKLOADS}
    print(
        f"  {'all memos (k per poll)':38s}"
        + "".join(f"{base[mix] / 1e3:10,.0f}" for mix in COUNTED_WORKLOADS)
    )
    for variant in MEMOS:
        ratios = [counted[variant, mix] / base[mix] for mix in COUNTED_WORKLOADS]
        print(f"  {'without ' + variant:38s}" + "".join(f"{ratio:10.3f}" for ratio in ratios))
    return 0


def main() -> int:
    if sys.argv[1:2] == ["replay"]:
        _replay(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return 0
    if sys.argv[1:2] == ["count"]:
        return count()
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    variants = [ALL_MEMOS, *MEMOS]
    mixes = tuple(WORKLOADS)
    times: dict[tuple[str, str], list[float]] = {(v, m): [] for v in variants for m in mixes}
    for round_index in range(rounds):
        order = variants[round_index % len(variants) :] + variants[: round_index % len(variants)]
        for variant in order:
            with contextlib.ExitStack() as stack:
                if variant != ALL_MEMOS:
                    stack.enter_context(MEMOS[variant]())
                for mix in mixes:
                    times[variant, mix].append(_time_polls(mix))
    print(f"poll time without each memo / with all ({rounds} rounds of {POLLS} polls, medians):")
    print(f"  {'':38s}" + "".join(f"{mix:>10s}" for mix in mixes))
    base = {mix: statistics.median(times[ALL_MEMOS, mix]) for mix in mixes}
    print(f"  {'all memos (µs per poll)':38s}" + "".join(f"{base[mix] * 1e6:10.1f}" for mix in mixes))
    for variant in MEMOS:
        ratios = [statistics.median(times[variant, mix]) / base[mix] for mix in mixes]
        print(f"  {'without ' + variant:38s}" + "".join(f"{ratio:10.2f}" for ratio in ratios))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
