# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Set-up made once per run of the suite and shared by every worker of a parallel run.

A session fixture is made once per *process*, and a parallel run has several: an expensive set-up
(a wheel build, a recorded methodic configurator session) would be made again by every worker
that needs it.  `once_per_run` makes it in the first worker that asks, under an exclusive lock on
a file in the run's shared temporary folder, and keeps it there; the others wait for that lock and
read what was kept.  A set-up that fails is made again by the next one that asks.
"""

from __future__ import annotations

import fcntl
import os
import pickle
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

T = TypeVar("T")
_RESULT = "result.pickle"


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary folder of this run that every worker of a parallel run shares."""
    base = tmp_path_factory.getbasetemp()
    # A worker's base is a folder of its own inside the run's (pytest-xdist).
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def once_per_run(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], T]) -> T:
    """``make(folder)``, called once for the whole run with an empty ``folder`` it may fill; its
    result (which must pickle) is given to every later caller, in any worker."""
    shared = run_folder(tmp_path_factory)
    folder = shared / name
    result = folder / _RESULT
    with (shared / f"{name}.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if result.is_file():
            kept: T = pickle.loads(result.read_bytes())
            return kept
        shutil.rmtree(folder, ignore_errors=True)  # what a failed attempt left
        folder.mkdir()
        made = make(folder)
        result.write_bytes(pickle.dumps(made))
        return made
