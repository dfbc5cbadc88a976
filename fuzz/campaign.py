# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Run every fuzz target (``fuzz/fuzz.py``) for a number of inputs and report its figures.

Run: .venv/bin/python fuzz/campaign.py [--runs 1000000] [--jobs 2] [--seed 1] [--target NAME ...]

Each target runs in its own atheris process, ``--jobs`` at a time, from its seed corpus, with
libFuzzer's fixed ``-seed``: the same command fuzzes the same inputs again (as long as each input
takes the same path, which a coverage-guided fuzzer needs).  For each target the report gives
the inputs run, libFuzzer's coverage figures at the end (``cov``: edges of our package reached;
``ft``: features, edges with their hit counts), the escapes (a crash stops a libFuzzer run, so
0 or 1, with its reproducer), the slowest input libFuzzer saw and the wall time.  Logs,
reproducers (``crash-…``, ``timeout-…``), the corpus each run learnt and ``report.json`` go to
``--out`` (default ``fuzz/findings/``, which git ignores).  Replay a reproducer with
``fuzz/fuzz.py TARGET fuzz/findings/TARGET-crash-…``.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from targets import TARGETS

FUZZ = Path(__file__).resolve().parent
# A single input slower than this is a hang: every target's work per input is bounded.
TIMEOUT_S = 20
_DONE = re.compile(r"#(\d+)\s+DONE\s+cov: (\d+) ft: (\d+)")
_PROGRESS = re.compile(r"#(\d+)\s+\w+\s+cov: (\d+) ft: (\d+)")
_SLOWEST = re.compile(r"Slowest unit: (\d+) s")


@dataclass
class TargetRun:
    """One target's campaign, read back from libFuzzer's log."""

    target: str
    inputs: int = 0
    cov: int = 0
    ft: int = 0
    escapes: int = 0
    reproducers: tuple[str, ...] = ()
    slowest_s: int = 0
    seconds: float = 0.0
    exit_code: int = 0
    log: str = ""

    def line(self) -> str:
        return (
            f"{self.target:10} inputs {self.inputs:>10,}  cov {self.cov:>5}  ft {self.ft:>6}  "
            f"escapes {self.escapes}  slowest input {self.slowest_s} s  [{self.seconds:,.0f} s]"
        )


def fuzz_target(name: str, runs: int, seed: int, out: Path, max_seconds: int = 0) -> TargetRun:
    out.mkdir(parents=True, exist_ok=True)
    log = out / f"{name}.log"
    corpus = out / f"{name}-corpus"
    shutil.rmtree(corpus, ignore_errors=True)
    corpus.mkdir()
    prefix = f"{out}/{name}-"
    command = [
        sys.executable,
        str(FUZZ / "fuzz.py"),
        name,
        f"-runs={runs}",
        f"-seed={seed}",
        f"-timeout={TIMEOUT_S}",
        f"-artifact_prefix={prefix}",
        "-print_final_stats=1",
        "-report_slow_units=1",
        *([f"-max_total_time={max_seconds}"] if max_seconds else []),
        # a fresh folder for what this run learns: a rerun starts from the seeds alone again
        str(corpus),
        *(str(seed) for seed in TARGETS[name].seeds),
    ]
    started = time.perf_counter()
    with log.open("w", encoding="utf-8") as stream:
        # the file harnesses' scratch files: libFuzzer ends the process without Python's clean-up
        scratch = out / "tmp"
        scratch.mkdir(exist_ok=True)
        environment = {**os.environ, "TMPDIR": str(scratch)}
        result = subprocess.run(
            command, stdout=stream, stderr=subprocess.STDOUT, env=environment, check=False
        )
    run = TargetRun(name, seconds=round(time.perf_counter() - started, 1), exit_code=result.returncode)
    text = log.read_text(encoding="utf-8", errors="replace")
    figures = _DONE.findall(text) or _PROGRESS.findall(text)
    if figures:
        inputs, cov, ft = figures[-1]
        run.inputs, run.cov, run.ft = int(inputs), int(cov), int(ft)
    run.slowest_s = max((int(found) for found in _SLOWEST.findall(text)), default=0)
    run.reproducers = tuple(
        str(path)
        for path in sorted(out.glob(f"{name}-*"))
        if path.name.split("-")[-2] in ("crash", "timeout")
    )
    # libFuzzer stops at the first escape; a run that ended without DONE is one too
    run.escapes = len(run.reproducers) or int(result.returncode != 0 or not _DONE.search(text))
    run.log = str(log)
    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=1_000_000, help="inputs per target")
    parser.add_argument("--seed", type=int, default=1, help="libFuzzer's -seed")
    parser.add_argument("--jobs", type=int, default=2, help="targets fuzzed at once")
    parser.add_argument("--target", action="append", choices=list(TARGETS), help="fuzz only these")
    parser.add_argument(
        "--max-seconds",
        type=int,
        default=0,
        help="stop a target after this long, whatever its inputs (0: never)",
    )
    parser.add_argument("--out", default=str(FUZZ / "findings"))
    arguments = parser.parse_args(argv)
    out = Path(arguments.out)
    names = arguments.target or list(TARGETS)
    started = time.perf_counter()
    runs: list[TargetRun] = []
    # threads suffice: each waits on its own fuzzer process
    with concurrent.futures.ThreadPoolExecutor(max_workers=arguments.jobs) as pool:
        futures = [
            pool.submit(fuzz_target, name, arguments.runs, arguments.seed, out, arguments.max_seconds)
            for name in names
        ]
        for future in futures:
            run = future.result()
            runs.append(run)
            print(run.line(), flush=True)
            for reproducer in run.reproducers:
                print(f"           reproducer: {reproducer}", flush=True)
    summary = {
        "runs": arguments.runs,
        "seed": arguments.seed,
        "jobs": arguments.jobs,
        "seconds": round(time.perf_counter() - started, 1),
        "targets": [asdict(run) for run in runs],
    }
    (out / "report.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    return 1 if any(run.escapes for run in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
