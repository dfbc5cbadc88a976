# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fuzz the two file readers a user points at: ``.param`` files and configuration step files.

Run: .venv/bin/python fuzz/fuzz_files.py [--inputs 100000] [--jobs 2] [--seed 1]

Each input is written to a real file and read through the public reader, so size limits, decoding
and parsing are all exercised: ``read_param_file`` may raise only ``ParamFileError`` and
``load_configuration_steps_file`` only ``ConfigurationStepsError``; anything else is an escape.
A result that breaks the reader's promises counts as an escape too: an error message longer than
its bound (the first bad lines, each quoted in at most 60 characters), or an entry whose name or
value ArduPilot could not hold.

Inputs: structure-aware generators (parameter lines with every separator, number spelling,
comment and line ending the format meets, and the hostile ones: long runs of spaces, Arabic-Indic
and full-width digits, escape sequences, NUL, a byte-order mark, files past the size limit; step
files made from the bundled ones with keys dropped, values of the wrong type, deep nesting,
5000-digit numbers and long strings), byte-level mutations of those and of the bundled files, and
random bytes.  The slowest input of each reader is timed again at the end and reported.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from engine import TargetReport, mutate, random_size, run_in_processes, run_target

from amc_rc_receiver.host.configuration_steps import (
    MAX_STEP_FILE_CHARS,
    ConfigurationStepsError,
    load_configuration_steps_file,
    steps_directory,
)
from amc_rc_receiver.host.param_file import (
    MAX_FILE_BYTES,
    MAX_QUOTED,
    MAX_REPORTED_PROBLEMS,
    ParamFileError,
    read_param_file,
)

# Most inputs stay small; a few pass the readers' size limits to check they are refused unread.
LARGEST_PARAM = MAX_FILE_BYTES + 4096
LARGEST_STEPS = 512 * 1024
_NAME = re.compile(r"[A-Z][A-Z0-9_]{0,15}")


# --------------------------------------------------------------------------- .param files

NAMES = ["RC_PROTOCOLS", "SERIAL6_PROTOCOL", "RSSI_TYPE", "FS_THR_VALUE", "RC_FS_TIMEOUT", "A", "X_1",
         "ABCDEFGHIJKLMNOP", "ABCDEFGHIJKLMNOPQ", "rc_options", "1RSSI", "RC-OPTIONS", "ÄÖÜ", "名字", "",
         "RC_OPTIONS\x1b[2J", "NAME\x00"]  # fmt: skip
SEPARATORS = [",", ", ", " ", "\t", " , ", ",,", ";", "=", "\u00a0", "\u3000"]
VALUES = ["1", "0", "-1", "+3", "975", "0.5", ".5", "5.", "1e3", "1E-3", "-0", "nan", "inf", "-inf", "1e999",
          "0x10", "1_000", "\u0663", "\uff13", "1\u0660", "\u0661.5", "", "1 2", "--1", "1e", "e5",
          "١٢٣", "１２３"]  # fmt: skip
COMMENTS = ["", " # receiver", "# CRSF", "#", "  #\x1b[31mred", " # ü 无", " # " + "x" * 300, "#\x00"]
LINE_ENDINGS = ["\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\u2028", "\x85"]


def param_number(rng: random.Random) -> str:
    roll = rng.randrange(6)
    if roll == 0:
        return "9" * rng.randrange(1, 6000)
    if roll == 1:
        return repr(rng.uniform(-1e9, 1e9))
    if roll == 2:
        return str(rng.randint(-(2**70), 2**70))
    return rng.choice(VALUES)


def param_line(rng: random.Random) -> str:
    roll = rng.randrange(20)
    if roll == 0:  # the audit's quadratic line
        return "A" + " " * rng.randrange(1, 80_000) + "1 2"
    if roll == 1:
        return rng.choice(COMMENTS)
    if roll == 2:
        return "x" * rng.randrange(1, 200_000)
    separator = rng.choice(SEPARATORS) if rng.random() < 0.8 else " " * rng.randrange(1, 5000)
    return rng.choice(NAMES) + separator + param_number(rng) + rng.choice(COMMENTS)


def param_file(rng: random.Random) -> bytes:
    lines = [param_line(rng) for _line in range(rng.randrange(0, 40))]
    text = "".join(line + rng.choice(LINE_ENDINGS) for line in lines)
    if rng.random() < 0.1:
        text = "\ufeff" + text
    data = text.encode("utf-8")
    if rng.random() < 0.01:
        data += b"X" * (MAX_FILE_BYTES + 1 - len(data))  # just past the size limit
    return data[:LARGEST_PARAM]


def example_param_files() -> list[bytes]:
    from importlib import resources  # noqa: PLC0415

    data = resources.files("amc_rc_receiver") / "data"
    found = []
    for vehicle in data.iterdir():
        if vehicle.is_dir():
            found += [entry.read_bytes() for entry in vehicle.iterdir() if entry.name.endswith(".param")]
    return found


def checked_param_read(path: Path) -> Callable[[bytes], object]:
    """Read ``data`` as a file; a message or an entry that breaks the reader's promises escapes."""
    bound = (MAX_REPORTED_PROBLEMS + 2) * (len(str(path)) + 4 * MAX_QUOTED + 120)

    def read(data: bytes) -> object:
        path.write_bytes(data)
        try:
            entries = read_param_file(path)
        except ParamFileError as error:
            if len(str(error)) > bound:
                raise AssertionError(f"a {len(str(error))}-character error message") from error
            raise
        for entry in entries:
            if not _NAME.fullmatch(entry.name) or not math.isfinite(entry.value):
                raise AssertionError(f"an entry ArduPilot cannot hold: {entry!r}")
        return entries

    return read


# --------------------------------------------------------------------------- step files


def json_junk(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.randrange(9 if depth < 4 else 5)
    if roll == 0:
        return rng.choice([None, True, False, 0, -1, 1.5, 10 ** rng.randrange(1, 400), "", "left", "top"])
    if roll == 1:
        long_text = "x" * rng.randrange(0, 20_000)
        return rng.choice([long_text, "ü无\x00\u202e", "05_remote_controller_receiver.param"])
    if roll == 2:
        return rng.uniform(-1e308, 1e308)
    if roll == 3:
        return rng.choice(["rc_receiver", "motor_test", "no_such_plugin", "RC_RECEIVER"])
    if roll == 4:
        return 10 ** rng.randrange(1, 30)
    if roll in (5, 6):
        return [json_junk(rng, depth + 1) for _item in range(rng.randrange(0, 5))]
    return {rng.choice(["steps", "plugin", "name", "placement", "why", "x"]): json_junk(rng, depth + 1)}


def mutate_document(rng: random.Random, document: Any) -> Any:
    """Change one place of a parsed step file: drop, replace or wrap a value."""
    parent: Any = None
    key: Any = None
    node = document
    for _step in range(rng.randrange(1, 6)):
        if isinstance(node, dict) and node:
            chosen: Any = rng.choice(list(node))
        elif isinstance(node, list) and node:
            chosen = rng.randrange(len(node))
        else:
            break
        parent, key, node = node, chosen, node[chosen]
    if parent is None:
        return json_junk(rng)
    roll = rng.randrange(4)
    if roll == 0 and isinstance(parent, dict):
        del parent[key]
    elif roll == 1:
        parent[key] = json_junk(rng)
    elif roll == 2:
        parent[key] = [node]
    else:
        parent[key] = {"x": node} if rng.random() < 0.5 else str(node)
    return document


def step_file(rng: random.Random, bundled: list[bytes]) -> bytes:
    roll = rng.randrange(10)
    if roll == 0:
        depth = rng.randrange(1, 200_000)
        return (rng.choice(["[", '{"steps":']) * depth + "1").encode()
    if roll == 1:
        return b'{"steps": {"05_x.param": {"n": ' + b"9" * rng.randrange(4000, 9000) + b"}}}"
    document = json.loads(rng.choice(bundled))
    for _change in range(rng.randrange(1, 4)):
        document = mutate_document(rng, document)
    text = json.dumps(document, ensure_ascii=rng.random() < 0.5, indent=rng.choice([None, 1, 4]))
    if rng.random() < 0.005:
        text += " " * (MAX_STEP_FILE_CHARS + 1 - len(text))
    return text.encode("utf-8")


def bundled_step_files() -> list[bytes]:
    folder = steps_directory()
    return [
        entry.read_bytes()
        for entry in folder.iterdir()
        if entry.name.startswith("configuration_steps_") and "schema" not in entry.name
    ]


def step_read(path: Path) -> Callable[[bytes], object]:
    def read(data: bytes) -> object:
        path.write_bytes(data)
        return load_configuration_steps_file(path, vehicle="ArduCopter")

    return read


# --------------------------------------------------------------------------- sources and runs


class Source:
    """Structured (50 %), mutated (35 %) and random (15 %) inputs for one reader."""

    def __init__(
        self, rng: random.Random, structured: Callable[[], bytes], pool: list[bytes], largest: int
    ) -> None:
        self._rng, self._structured, self._pool, self._largest = rng, structured, list(pool), largest

    def __call__(self) -> bytes:
        rng = self._rng
        roll = rng.random()
        if roll < 0.50:
            return self._structured()
        if roll < 0.85:
            base = rng.choice(self._pool) if rng.random() < 0.5 else self._structured()
            return mutate(rng, base, self._pool, self._largest)
        return rng.randbytes(random_size(rng, 64 * 1024))


def fuzz_reader(reader: str, inputs: int, seed: int, out: Path) -> TargetReport:
    rng = random.Random(f"{seed}:{reader}")
    with tempfile.TemporaryDirectory(prefix=f"fuzz-{reader}-") as folder:
        if reader == "param":
            path = Path(folder) / "fuzz.param"
            source = Source(rng, lambda: param_file(rng), example_param_files(), LARGEST_PARAM)
            read = checked_param_read(path)
            return run_target(reader, read, source, ParamFileError, inputs=inputs, out=out)
        bundled = bundled_step_files()
        path = Path(folder) / "configuration_steps_ArduCopter.json"
        source = Source(rng, lambda: step_file(rng, bundled), bundled, LARGEST_STEPS)
        return run_target(reader, step_read(path), source, ConfigurationStepsError, inputs=inputs, out=out)


READERS = ("param", "steps")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--inputs", type=int, default=100_000, help="generated inputs per reader")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="readers fuzzed in parallel processes")
    parser.add_argument("--reader", action="append", choices=READERS, help="fuzz only these")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent / "findings"))
    arguments = parser.parse_args(argv)
    out = Path(arguments.out)
    started = time.perf_counter()
    readers = arguments.reader or READERS
    tasks = [(fuzz_reader, (reader, arguments.inputs, arguments.seed, out)) for reader in readers]
    reports = run_in_processes(arguments.jobs, tasks)
    out.mkdir(parents=True, exist_ok=True)
    summary = {
        "seed": arguments.seed,
        "seconds": round(time.perf_counter() - started, 1),
        "readers": [asdict(report) for report in reports],
    }
    (out / "report-files.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    return 1 if any(report.escapes for report in reports) else 0


if __name__ == "__main__":
    sys.exit(main())
