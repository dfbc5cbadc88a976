# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The fuzzers' shared engine: a seeded byte mutator and the run loop that counts escapes.

An *escape* is any exception other than the one error the target documents; each new kind of
escape is saved as a reproducer.  Every call is timed, and the slowest few inputs are timed again
at the end, best of several runs, so the reported worst case is not a scheduling hiccup.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import hashlib
import random
import struct
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

SLOWEST_KEPT = 8
RETIME_RUNS = 7
INTERESTING_BYTES = (0x00, 0x01, 0x7F, 0x80, 0xFF, 0x0A, 0x20, 0x22, 0x2C, 0x3A, 0x5B, 0x5D, 0x7B, 0x7D, 0x5C)


def random_size(rng: random.Random, largest: int) -> int:
    """Mostly small, sometimes kilobytes, now and then up to ``largest``."""
    roll = rng.random()
    if roll < 0.70:
        return rng.randrange(0, 129)
    if roll < 0.96:
        return rng.randrange(129, min(8193, largest + 1))
    return rng.randrange(min(8193, largest), largest + 1)


def mutate(rng: random.Random, data: bytes, pool: list[bytes], largest: int) -> bytes:
    """Apply one to four byte-level mutations, keeping the result at most ``largest`` bytes."""
    buffer = bytearray(data)
    for _round in range(rng.randint(1, 4)):
        operation = rng.randrange(10)
        position = rng.randrange(len(buffer) + 1)
        if operation == 0 and buffer:  # flip a bit
            index = min(position, len(buffer) - 1)
            buffer[index] ^= 1 << rng.randrange(8)
        elif operation == 1 and buffer:  # an interesting byte
            buffer[min(position, len(buffer) - 1)] = rng.choice(INTERESTING_BYTES)
        elif operation == 2:  # insert random bytes
            buffer[position:position] = rng.randbytes(rng.randrange(1, 33))
        elif operation == 3 and buffer:  # delete a range
            del buffer[position : position + rng.randrange(1, 33)]
        elif operation == 4 and buffer:  # duplicate a range
            start = rng.randrange(len(buffer))
            buffer[position:position] = buffer[start : start + rng.randrange(1, 65)]
        elif operation == 5:  # cut
            del buffer[position:]
        elif operation == 6:  # splice with another input
            other = rng.choice(pool)
            cut = rng.randrange(len(other) + 1)
            buffer = buffer[:position] + bytearray(other[cut:])
        elif operation == 7 and buffer:  # repeat a fragment up to a large size
            start = rng.randrange(len(buffer))
            piece = bytes(buffer[start : start + rng.randrange(1, 17)])
            buffer[position:position] = piece * (rng.randrange(8, largest) // len(piece))
        elif operation == 8 and len(buffer) >= 4:  # an interesting 32-bit word
            index = rng.randrange(len(buffer) - 3)
            word = rng.choice((0, 1, -1, 2**31 - 1, -(2**31), 1234567890, 1234567897, 123456789, 152))
            buffer[index : index + 4] = struct.pack("<i", word)
        elif operation == 9 and len(buffer) >= 2:  # swap two bytes
            i, j = rng.randrange(len(buffer)), rng.randrange(len(buffer))
            buffer[i], buffer[j] = buffer[j], buffer[i]
    return bytes(buffer[:largest])


@dataclass
class TargetReport:
    """One target's run: ``expected_errors`` are the documented error, ``escapes`` anything else."""

    target: str
    inputs: int = 0
    expected_errors: int = 0
    escapes: int = 0
    escape_kinds: dict[str, str] = field(default_factory=dict)  # kind -> reproducer file
    slowest_ms: float = 0.0
    slowest_size: int = 0
    slowest_file: str = ""
    seconds: float = 0.0

    def line(self) -> str:
        return (
            f"{self.target:8} inputs {self.inputs:>9,}  expected errors {self.expected_errors:>9,}  "
            f"escapes {self.escapes:>5}  slowest {self.slowest_ms:7.3f} ms "
            f"({self.slowest_size:,} B)  [{self.seconds:.0f} s]"
        )


def escape_kind(error: BaseException) -> str:
    frames = traceback.extract_tb(error.__traceback__)
    where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
    return f"{type(error).__name__} at {where}"


def save(out: Path, name: str, data: bytes, note: str = "") -> str:
    out.mkdir(parents=True, exist_ok=True)
    path = out / name
    path.write_bytes(data)
    if note:
        path.with_suffix(".txt").write_text(note, encoding="utf-8")
    return str(path)


def best_time(call: Callable[[bytes], object], data: bytes) -> float:
    best = float("inf")
    for _run in range(RETIME_RUNS):
        start = time.perf_counter()
        # Escapes were counted by the main loop; this only times.
        with contextlib.suppress(Exception):
            call(data)
        best = min(best, time.perf_counter() - start)
    return best


def run_target(
    name: str,
    call: Callable[[bytes], object],
    source: Callable[[], bytes],
    expected: type[BaseException],
    *,
    inputs: int,
    out: Path,
) -> TargetReport:
    """Feed ``inputs`` generated inputs to ``call``; count escapes, keep and retime the slowest."""
    report = TargetReport(name)
    slowest: list[tuple[float, bytes]] = []  # kept sorted, fastest first
    clock = time.perf_counter
    started = clock()
    for _index in range(inputs):
        data = source()
        start = clock()
        try:
            call(data)
        except expected:
            report.expected_errors += 1
        except Exception as error:  # an escape is what this tool looks for
            report.escapes += 1
            kind = escape_kind(error)
            if kind not in report.escape_kinds:
                digest = hashlib.sha1(data).hexdigest()[:12]
                note = f"{name}: {kind}\n\n{''.join(traceback.format_exception(error))}"
                report.escape_kinds[kind] = save(out, f"escape-{name}-{digest}.bin", data, note)
        elapsed = clock() - start
        if len(slowest) < SLOWEST_KEPT or elapsed > slowest[0][0]:
            slowest.append((elapsed, data))
            slowest.sort(key=lambda item: item[0])
            del slowest[:-SLOWEST_KEPT]
        report.inputs += 1
    report.seconds = clock() - started
    # Time the candidates again, best of several runs: one slow call may have been preempted.
    retimed = sorted(((best_time(call, data), data) for _elapsed, data in slowest), key=lambda item: item[0])
    if retimed:
        seconds, data = retimed[-1]
        report.slowest_ms = seconds * 1e3
        report.slowest_size = len(data)
        report.slowest_file = save(out, f"slowest-{name}.bin", data)
    return report


Task = tuple[Callable[..., TargetReport], tuple[object, ...]]


def run_in_processes(jobs: int, tasks: list[Task]) -> list[TargetReport]:
    """Run each ``(function, arguments)`` in a pool of ``jobs`` processes; print each report as it
    comes, with its escapes and its slowest input."""
    reports: list[TargetReport] = []
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(function, *arguments) for function, arguments in tasks]
        for future in futures:
            report = future.result()
            reports.append(report)
            print(report.line(), flush=True)
            for kind, where in report.escape_kinds.items():
                print(f"         escape {kind}: {where}", flush=True)
            print(f"         slowest input: {report.slowest_file}", flush=True)
    return reports
