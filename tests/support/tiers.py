# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The suite's tiers: every test is marked with what it needs, and may use nothing more.

A tier names the most expensive thing a test needs, from pure logic up to building packages.
The marker is a fact, not a hope: while a test runs, an audit hook (and a wrapper of Tk's root
window and of ``os.openpty``) stops it from reaching past its tier - a *pure* test that opens a
socket, or a *loopback* test that starts a subprocess, fails with a sentence that names the tier
it needs.  So the quick loop (every tier but SITL, the methodic configurator and packaging) can
never start a SITL or build a wheel by accident, and a parallel run can order tests by cost.

Only the test's own thread is watched: a thread that outlived an earlier test belongs to that
test, and must not fail this one.
"""

from __future__ import annotations

import os
import re
import sys
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

COST_MARK = "cost"

# What a test may reach for, from the cheapest to the dearest.
SOCKET = "a socket"
PTY = "a pseudo-terminal"
TK = "a Tk window"
SUBPROCESS = "a subprocess"
SITL = "real ArduPilot SITL"
MC501 = "a methodic configurator 5.0.1 environment"
BUILD = "a package build or a new virtual environment"


@dataclass(frozen=True)
class Tier:
    """One marker: its name, what a test of it needs, what it may use, and what it usually costs."""

    name: str
    needs: str
    may_use: frozenset[str]
    # A test's usual wall time here, in seconds: a parallel run starts the dear ones first.
    typical_s: float
    # Run by the quick loop (everything but real SITL, 5.0.1 and packaging).
    quick: bool = True


TIERS: tuple[Tier, ...] = (
    Tier("pure", "pure logic: no socket, Tk window, pseudo-terminal or subprocess", frozenset(), 0.01),
    Tier(
        "loopback",
        "real sockets or pseudo-terminals on this machine, in the test's process",
        frozenset({SOCKET, PTY}),
        0.3,
    ),
    Tier("tk", "real Tk widgets under Xvfb (and loopback sockets)", frozenset({SOCKET, PTY, TK}), 0.4),
    Tier(
        "e2e",
        "the program or another program as a subprocess, on the embedded demo",
        frozenset({SOCKET, PTY, TK, SUBPROCESS}),
        6.0,
    ),
    Tier(
        "sitl",
        "real ArduPilot SITL from ../shared/sitl/",
        frozenset({SOCKET, PTY, TK, SUBPROCESS, SITL}),
        20.0,
        quick=False,
    ),
    Tier(
        "mc501",
        "the released methodic configurator 5.0.1 and its environments",
        frozenset({SOCKET, PTY, TK, SUBPROCESS, MC501, BUILD}),
        10.0,
        quick=False,
    ),
    Tier(
        "packaging",
        "building the wheel, the sdist, an editable install or the PyInstaller program",
        frozenset({SOCKET, PTY, TK, SUBPROCESS, BUILD}),
        12.0,
        quick=False,
    ),
)
BY_NAME = {tier.name: tier for tier in TIERS}
# The quick loop's marker expression.
QUICK_EXPRESSION = " and ".join(f"not {tier.name}" for tier in TIERS if not tier.quick)


# The quick loop tries this share of a property test's examples (pytest --quick).
QUICK_SHARE = 4


class _QuickLoop:
    """Whether this run is the quick loop: set by the suite's configuration before any test module
    is imported, so that `examples` can be read in their decorators."""

    on = False


def enter_quick_loop() -> None:
    _QuickLoop.on = True


def examples(count: int, *, quick: bool | None = None) -> int:
    """The number of examples a property test tries: ``count``, or its quick-loop share (in the
    quick loop, or where ``quick`` says so)."""
    return max(1, count // QUICK_SHARE) if (_QuickLoop.on if quick is None else quick) else count


class TierViolationError(Exception):
    """A test reached for something its tier does not allow."""


_BUILD_WORDS = ("wheel", "sdist", "venv", "pyinstaller", "setup.py", "build", "install", "download")


def subprocess_kind(argv: Sequence[str], *, sitl_dir: Path, mc501_home: Path) -> str:
    """What a subprocess with ``argv`` is: real SITL, a 5.0.1 environment, a build, or a program."""
    words = [str(word) for word in argv]
    if not words:
        return SUBPROCESS
    program = Path(words[0])
    if _inside(program, sitl_dir):
        return SITL
    if _inside(program, mc501_home):
        return MC501
    if "--sitl" in words:  # our program, starting a SITL of its own
        return SITL
    if any("pyinstaller" in word.lower() for word in words[:3]):
        return BUILD
    lowered = [word.lower() for word in words[1:6]]
    if ("pip" in lowered or "venv" in lowered) and any(word in lowered for word in _BUILD_WORDS):
        return BUILD
    return SUBPROCESS


def _words(argv: object) -> list[str]:
    """subprocess.Popen's ``args`` (one string or path, or a sequence of them) as strings."""
    parts = [argv] if isinstance(argv, str | bytes | os.PathLike) else list(argv or ())  # type: ignore[call-overload]
    return [os.fsdecode(part) if isinstance(part, bytes | os.PathLike) else str(part) for part in parts]


def _inside(path: Path, folder: Path) -> bool:
    try:
        return os.path.abspath(path).startswith(str(folder.resolve()) + os.sep)
    except OSError:
        return False


class TierGuard:
    """Watches the running test's thread and refuses what its tier does not allow."""

    def __init__(self, sitl_dir: Path) -> None:
        self._sitl_dir = sitl_dir
        self._mc501_home = sitl_dir
        self._tier: Tier | None = None
        self._thread: int | None = None
        self.violations: list[str] = []

    def watch(self, tier: Tier) -> None:
        self._tier = tier
        self._thread = threading.get_ident()
        self.violations = []

    def stop(self) -> None:
        self._tier = None
        self._thread = None

    def take_violations(self) -> list[str]:
        """What was refused since the last call (each phase of a test reports its own)."""
        found, self.violations = self.violations, []
        return found

    def check(self, resource: str, detail: str = "") -> None:
        tier = self._tier
        if tier is None or resource in tier.may_use or threading.get_ident() != self._thread:
            return
        needed = next((other.name for other in TIERS if resource in other.may_use), "?")
        text = (
            f"a test marked {tier.name!r} ({tier.needs}) used {resource}"
            f"{f' ({detail})' if detail else ''}: mark it {needed!r} or above"
        )
        self.violations.append(text)
        raise TierViolationError(text)

    def audit(self, event: str, args: tuple[object, ...]) -> None:
        """``sys.addaudithook`` target: sockets and subprocesses."""
        if self._tier is None:
            return
        if event == "socket.__new__":
            self.check(SOCKET)
        elif event == "subprocess.Popen":
            words = _words(args[1])
            kind = subprocess_kind(words, sitl_dir=self._sitl_dir, mc501_home=self._mc501_home)
            self.check(kind, " ".join(words[:3])[:120])
        elif event in ("os.posix_spawn", "os.exec", "os.spawn", "os.system"):
            self.check(SUBPROCESS, event)

    def install(self, *, mc501_home: Path) -> None:
        """Start watching: the audit hook for sockets and subprocesses, a wrapper for pseudo-terminals
        (``os.openpty`` raises no audit event); Tk roots are checked by the caller's wrapper.
        ``mc501_home`` holds the methodic configurator environments."""
        self._mc501_home = mc501_home
        sys.addaudithook(self.audit)
        openpty = os.openpty

        def guarded_openpty() -> tuple[int, int]:
            self.check(PTY)
            return openpty()

        os.openpty = guarded_openpty


def tier_of(marker_names: Iterable[str]) -> Tier | None:
    """The first tier among a test's markers, closest first (a function's mark beats its module's)."""
    for name in marker_names:
        tier = BY_NAME.get(name)
        if tier is not None:
            return tier
    return None


# ``<...>.mark.<name>`` in a test module's text.
_MARK_NAME = re.compile(r"\bmark\.(\w+)")


def tiers_named(source: str) -> frozenset[str]:
    """The tiers a test module's text marks anything with (read as text: parsing every module
    would cost the quick loop what skipping some saves)."""
    return frozenset(name for name in _MARK_NAME.findall(source) if name in BY_NAME)


def outside_quick_loop(source: str) -> bool:
    """Whether a test module's tests are all left out of the quick loop: it names tiers, none of
    them quick.  The quick loop skips importing it (a third of a worker's collection went to the
    SITL, 5.0.1 and packaging modules it then deselected); a module that names no tier is still
    collected, so the missing mark is reported."""
    named = tiers_named(source)
    return bool(named) and not any(BY_NAME[name].quick for name in named)


# A test that takes at least this long mostly waits (a program run to its verdict, a reboot).
WAITING_S = 1.0
# The waiting tests of a share start within its first half of cheap tests.
WAITING_SPREAD = 0.5


def stripes(costs: Sequence[float], workers: int) -> list[int]:
    """An order of the indices of ``costs`` for ``workers`` parallel workers that take contiguous
    shares of it and then steal from the end of the longest (pytest-xdist's ``worksteal``).

    Each share gets every ``workers``-th test of the list sorted by cost, dearest first, so every
    worker starts with one of the dear tests and ends with cheap ones, which are what stealing
    moves.  The share's other waiting tests (`WAITING_S` and more) are spread over the first half
    of its cheap ones: while a worker waits for a program, the others keep the processors busy;
    were every worker to wait at once at the start, they would idle (measured: a quarter of two
    cores busy for 15 s).  Ties keep their given order (random under pytest-randomly, else the
    files' order).  Should the scheduler cut the list differently, the run is as correct, only
    less balanced.
    """
    by_cost = sorted(range(len(costs)), key=lambda index: -costs[index])
    if workers <= 1:
        return by_cost
    shares = [_interleaved(by_cost[worker::workers], costs) for worker in range(workers)]
    # worksteal gives each worker in turn len(rest) // workers_left tests: the shorter shares
    # come first (the lengths are the same multiset as the shares', differing by one at most).
    shares.sort(key=len)
    return [index for share in shares for index in share]


def _interleaved(share: list[int], costs: Sequence[float]) -> list[int]:
    """``share`` (dearest first) with its waiting tests spread over its first cheap ones."""
    waiting = [index for index in share if costs[index] >= WAITING_S]
    cheap = [index for index in share if costs[index] < WAITING_S]
    if not waiting:
        return share
    step = int(len(cheap) * WAITING_SPREAD) // len(waiting)
    order: list[int] = []
    for number, index in enumerate(waiting):
        order.append(index)
        order.extend(cheap[number * step : (number + 1) * step])
    order.extend(cheap[len(waiting) * step :])
    return order


def cost_of(tier: Tier, marks: Iterable[pytest.Mark]) -> float:
    """A test's usual wall time: its tier's, or what its ``cost`` marker says for a test that
    takes far longer than its tier's usual (a minute-long serial run must start first)."""
    for mark in marks:
        if mark.name == COST_MARK:
            return float(mark.args[0])
    return tier.typical_s
