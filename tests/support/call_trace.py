# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Which modules of the package a call runs code in, and which calls cross between them.

One home for the trace the one-way poll test and `benchmarks/poll_modules.py` both take: every
Python call whose code lives in the package counts its module, and a call from one module of the
package into another (pymavlink or the standard library between them do not count) is a crossing.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

PACKAGE = Path(__file__).resolve().parents[2] / "ardupilot_methodic_configurator"


@dataclass(frozen=True)
class CallTrace:
    """Calls into each module, and caller -> callee module crossings, of one traced call."""

    calls: Counter[str]
    crossings: Counter[tuple[str, str]]

    @property
    def both_ways(self) -> set[tuple[str, str]]:
        """The crossings whose modules also call each other the other way (each pair once)."""
        return {pair for pair in self.crossings if (pair[1], pair[0]) in self.crossings and pair[0] < pair[1]}


def _module(frame: FrameType) -> str | None:
    try:
        return str(Path(frame.f_code.co_filename).relative_to(PACKAGE))
    except ValueError:
        return None


def trace_call(call: Callable[[], object]) -> CallTrace:
    """Run ``call`` once under `sys.setprofile` and return what it ran in the package."""
    calls: Counter[str] = Counter()
    crossings: Counter[tuple[str, str]] = Counter()

    def profile(frame: FrameType, event: str, _arg: object) -> None:
        if event != "call":
            return
        callee = _module(frame)
        if callee is None:
            return
        calls[callee] += 1
        caller = frame.f_back
        while caller is not None and _module(caller) is None:
            caller = caller.f_back
        source = _module(caller) if caller is not None else None
        if source is not None and source != callee:
            crossings[(source, callee)] += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        call()
    finally:
        sys.setprofile(previous)
    return CallTrace(calls, crossings)
