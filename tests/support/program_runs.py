# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Whole runs of the program, started together at the start of the session instead of one after
another inside the tests that read them.

A run of the terminal view on the demo takes a whole guided test of real time (about 18 s: sticks,
mode switch, failsafe, ArduPilot's pre-arm answer) and a tenth of a processor.  Run inside their
tests, twenty-odd of them kept the parallel workers waiting for more than a minute each while the
processors idled.  Here a test marked ``pytest.mark.program_run(ProgramRun(...))`` gets its
finished run from the `program_run` fixture, and every worker, at its first test, claims the runs
of the selected tests that no worker has claimed yet (a file created exclusively in the session's
shared folder) and starts them in threads of its own, at most `CONCURRENT_RUNS` at a time over the
whole session (a lock file per slot; `QUICK_CONCURRENT_RUNS` in the quick loop).  Each run has a
folder of its own, its working directory, which "{folder}" in its arguments names.  Running one
test runs only its own program.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import math
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest

from tests.support.processes import without_display
from tests.support.waiting import wait_for

PROGRAM_RUN_MARK = "program_run"
# Runs at once over the whole session: each needs a tenth of a processor, and the workers go on
# with their own tests meanwhile.  The full command's SITL tests need processor time of their own
# on time (two full runs side by side with eight each took 498 and 503 s, a SITL 43 s to boot);
# the quick loop has none.
CONCURRENT_RUNS = 4
QUICK_CONCURRENT_RUNS = 8
# Starts over the whole session are this far apart: a program's start (imports, parameter load)
# takes half a second of a processor, and eight at once starved the tests already running.
START_SPACING_S = 0.5
# A run that has not ended by then hangs; it is killed and its test fails saying so.
HANG_S = 120.0
# How long a test waits for its run: behind the others of the session in the worst case.
WAIT_S = 900.0
_SLOT_WAIT_S = 0.1
_RESULT_WAIT_INTERVAL_S = 0.05

# A Python without Tk (a server, a container, a Raspberry Pi without python3-tk): tkinter is made
# unimportable before the program starts, as it is there.
WITHOUT_TK = (
    "import runpy, sys\n"
    "sys.modules['tkinter'] = None\n"
    "sys.modules['_tkinter'] = None\n"
    "sys.argv = ['amc-rc-receiver', *sys.argv[1:]]\n"
    "runpy.run_module('amc_rc_receiver', run_name='__main__', alter_sys=True)\n"
)


@dataclass(frozen=True)
class ProgramRun:
    """One run of ``amc-rc-receiver``: its arguments ("{folder}" is the run's own folder), whether
    Tk can be imported, and the folders made in the run's folder before it starts."""

    args: tuple[str, ...]
    without_tk: bool = False
    folders: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        return hashlib.sha256(json.dumps(asdict(self), sort_keys=True).encode()).hexdigest()[:16]

    def command(self, folder: Path | None = None) -> list[str]:
        args = (
            list(self.args) if folder is None else [arg.replace("{folder}", str(folder)) for arg in self.args]
        )
        if self.without_tk:
            return [sys.executable, "-c", WITHOUT_TK, *args]
        return [sys.executable, "-m", "amc_rc_receiver", *args]

    def launch(
        self, folder: Path | None = None, environment: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        """Run the program to its end, in ``folder`` if given, without a display unless
        ``environment`` says otherwise, no keyboard (stdin is not a terminal), and no longer than
        `HANG_S` (`subprocess.TimeoutExpired`)."""
        return subprocess.run(
            self.command(folder),
            capture_output=True,
            text=True,
            timeout=HANG_S,
            env=without_display() if environment is None else environment,
            stdin=subprocess.DEVNULL,
            cwd=folder,
            check=False,
        )

    def describe(self) -> str:
        return " ".join(("amc-rc-receiver", *self.args, *(("(without Tk)",) if self.without_tk else ())))


@dataclass(frozen=True)
class FinishedRun:
    """What a run left: its exit status, its output, and its folder."""

    returncode: int
    stdout: str
    stderr: str
    folder: Path


def runs_of(items: Iterable[pytest.Item]) -> list[ProgramRun]:
    """The runs the given tests need, each once, in their order."""
    runs: dict[str, ProgramRun] = {}
    for item in items:
        mark = item.get_closest_marker(PROGRAM_RUN_MARK)
        if mark is not None:
            run: ProgramRun = mark.args[0]
            runs.setdefault(run.key, run)
    return list(runs.values())


class RunPool:
    """The session's program runs, shared by every worker of a parallel run through ``shared``."""

    def __init__(self, shared: Path, concurrent: int = CONCURRENT_RUNS) -> None:
        self._root = shared / "program-runs"
        self._concurrent = concurrent
        self._root.mkdir(parents=True, exist_ok=True)
        self._threads: list[threading.Thread] = []

    def start(self, runs: Iterable[ProgramRun]) -> None:
        """Start, in the background, each of ``runs`` that no worker has claimed yet."""
        for run in runs:
            try:
                os.close(os.open(self._root / f"{run.key}.claim", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:
                continue
            thread = threading.Thread(
                target=self._run, args=(run,), name=f"program-run-{run.key}", daemon=True
            )
            thread.start()
            self._threads.append(thread)

    def result(self, run: ProgramRun, wait_s: float = WAIT_S) -> FinishedRun:
        """``run`` once it has ended (started now if nobody had)."""
        self.start([run])
        result = self._root / run.key / "result.json"
        wait_for(result.is_file, f"the end of {run.describe()}", wait_s, interval_s=_RESULT_WAIT_INTERVAL_S)
        record = json.loads(result.read_text(encoding="utf-8"))
        if record["returncode"] is None:
            pytest.fail(
                f"{run.describe()} {record['failure']}: {record['stdout'][-4000:]}{record['stderr'][-4000:]}"
            )
        return FinishedRun(
            record["returncode"], record["stdout"], record["stderr"], self._root / run.key / "folder"
        )

    def join(self) -> None:
        """Wait for the runs this worker started: another worker may be waiting for them."""
        for thread in self._threads:
            thread.join()

    def _run(self, run: ProgramRun) -> None:
        folder = self._root / run.key / "folder"
        folder.mkdir(parents=True, exist_ok=True)
        for name in run.folders:
            (folder / name).mkdir()
        with self._slot():
            self._space_start()
            try:
                completed = run.launch(folder)
                record = {
                    "returncode": completed.returncode,
                    "stdout": completed.stdout,
                    "stderr": completed.stderr,
                }
            except subprocess.TimeoutExpired as error:
                record = {
                    "returncode": None,
                    "stdout": _text(error.stdout),
                    "stderr": _text(error.stderr),
                    "failure": f"had not ended after {HANG_S:g} s",
                }
            except OSError as error:
                record = {
                    "returncode": None,
                    "stdout": "",
                    "stderr": "",
                    "failure": f"could not start: {error}",
                }
        written = self._root / run.key / "result.json.part"
        written.write_text(json.dumps(record), encoding="utf-8")
        written.replace(self._root / run.key / "result.json")  # whole or not at all for the reader

    def _space_start(self) -> None:
        """Wait until `START_SPACING_S` after the session's previous start (the monotonic clock is
        the machine's, the same in every worker)."""
        with (self._root / "start.lock").open("a+") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            lock.seek(0)
            previous = lock.read()
            wait_s = (float(previous) if previous else -math.inf) + START_SPACING_S - time.monotonic()
            if wait_s > 0:
                time.sleep(wait_s)
            lock.seek(0)
            lock.truncate()
            lock.write(repr(time.monotonic()))

    @contextlib.contextmanager
    def _slot(self) -> Iterator[None]:
        """One of the session's places for a run (`CONCURRENT_RUNS`), over all its workers."""
        while True:
            for number in range(self._concurrent):
                with (self._root / f"slot-{number}.lock").open("a") as lock:
                    try:
                        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    except BlockingIOError:
                        continue
                    yield  # the lock is held until the file closes
                    return
            time.sleep(_SLOT_WAIT_S)


def _text(output: bytes | str | None) -> str:
    if output is None:
        return ""
    return output if isinstance(output, str) else output.decode("utf-8", errors="replace")
