# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Suite-wide settings: each test's tier (checked, and the order of a parallel run), hypothesis
profiles for shared, noisy machines, and Tk garbage hygiene."""

from __future__ import annotations

import gc
import os
import tkinter
import weakref
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from tests.support.program_runs import PROGRAM_RUN_MARK
from tests.support.sitl import SITL_DIR
from tests.support.tiers import (
    COST_MARK,
    TIERS,
    TK,
    Tier,
    TierGuard,
    cost_of,
    enter_quick_loop,
    examples,
    outside_quick_loop,
    stripes,
    tier_of,
)
from tests.support.tk import release_focus_on_destroy

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
_PROFILE = "ci" if os.environ.get("CI") else "default"
settings.load_profile(_PROFILE)
# The quick loop (--quick) tries a share of the examples (tests/support/tiers.py `examples`, also
# for the tests that set their own number); the full command runs them all.
settings.register_profile(
    "quick",
    parent=settings.get_profile(_PROFILE),
    max_examples=examples(settings.get_profile(_PROFILE).max_examples, quick=True),
)

# Scripted flight-controller endpoint fixtures (real MAVLink on loopback UDP), and the released
# methodic configurator 5.0.1's files and environments.
pytest_plugins = ["tests.support.fixtures", "tests.support.methodic_configurator"]


_GUARD = TierGuard(SITL_DIR)
WORKERS_PER_CPU = 4
MAX_WORKERS = 8
_DIST_KEY = "amc_dist"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--quick",
        action="store_true",
        help="the inner loop: leave out the tiers that need real SITL, methodic configurator 5.0.1 "
        "or packaging, and try fewer examples in property tests and short fuzzer runs",
    )


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: most of this suite waits (for a demo's verdict, a reboot, a window), so a worker
    per CPU would leave the machine idle; a few per CPU keep it busy, up to a bound that keeps the
    memory and the Xvfb displays modest on a large machine."""
    del config
    return min(MAX_WORKERS, WORKERS_PER_CPU * (os.cpu_count() or 1))


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("quick"):
        enter_quick_loop()
        settings.load_profile("quick")
    for tier in TIERS:
        config.addinivalue_line("markers", f"{tier.name}: {tier.needs}")
    config.addinivalue_line(
        "markers",
        f"{PROGRAM_RUN_MARK}(run): the whole program run the test reads, started with the session's "
        "others (tests/support/program_runs.py)",
    )
    config.addinivalue_line(
        "markers",
        f"{COST_MARK}(seconds): the test's usual wall time, where it is far above its tier's "
        "(a parallel run starts it first)",
    )
    # Imported here, once pytest_plugins has loaded it with its assertions rewritten.
    from tests.support.methodic_configurator import environments_home

    _GUARD.install(mc501_home=environments_home())


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """``--quick`` does not import the modules whose every test it would deselect."""
    if (
        config.getoption("quick")
        and collection_path.suffix == ".py"
        and collection_path.name.startswith("test_")
        and outside_quick_loop(collection_path.read_text(encoding="utf-8"))
    ):
        return True
    return None


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test has a tier; ``--quick`` keeps the quick ones; in a parallel run the dear ones
    start first on every worker, the other waiting ones among its cheap ones."""
    tiers: list[Tier] = []
    unmarked = []
    for item in items:
        tier = tier_of(mark.name for mark in item.iter_markers())
        if tier is None:
            unmarked.append(item.nodeid)
        else:
            tiers.append(tier)
    if unmarked:
        names = ", ".join(tier.name for tier in TIERS)
        raise pytest.UsageError(
            f"{len(unmarked)} tests have no tier ({names}); mark their module, e.g. "
            f"pytestmark = pytest.mark.pure:\n  " + "\n  ".join(unmarked[:20])
        )
    if config.getoption("quick"):
        kept = [index for index, tier in enumerate(tiers) if tier.quick]
        deselected = [item for item, tier in zip(items, tiers, strict=True) if not tier.quick]
        if deselected:
            config.hook.pytest_deselected(items=deselected)
        items[:] = [items[index] for index in kept]
        tiers = [tiers[index] for index in kept]
    worker = getattr(config, "workerinput", {})
    workers = int(worker.get("workercount", 1))
    if workers > 1 and worker.get(_DIST_KEY) == "worksteal":
        # A test that reads a program run started at the session's start comes last: by then
        # its run has ended.
        costs = [
            0.0 if item.get_closest_marker(PROGRAM_RUN_MARK) else cost_of(tier, item.iter_markers())
            for item, tier in zip(items, tiers, strict=True)
        ]
        order = stripes(costs, workers)
        items[:] = [items[index] for index in order]


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection made (modules, strategies, parametrized items) lives as long as the
    session: frozen, so that the full collections after Tk tests (below) walk only what the tests
    themselves made (they took 60-70 ms each over the whole heap, about 400 of them a run)."""
    del session
    gc.collect()
    gc.freeze()


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """pytest-xdist, on the controller: tell each worker how tests are handed out (a worker's own
    ``dist`` option always says "no")."""
    node.workerinput[_DIST_KEY] = node.config.getoption("dist")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, None, None]:
    tier = tier_of(mark.name for mark in item.iter_markers())
    if tier is not None:
        _GUARD.watch(tier)
    try:
        yield
    finally:
        _GUARD.stop()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, object, None]:
    """A use beyond the tier fails the test even where the code under test caught the refusal."""
    del item, call
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    found = _GUARD.take_violations()
    if found and not report.failed:
        report.outcome = "failed"
        report.longrepr = "\n".join(found)


# Tk interpreters must be freed on the thread that created them: a Tk root left as cyclic
# garbage can otherwise be collected on a relay or vehicle thread of a later test, and Tcl then
# aborts the whole process.  Every Tk root made by any test is tracked here and collected on the
# main thread right after the test that made it.
_live_tk_roots: weakref.WeakSet[tkinter.Tk] = weakref.WeakSet()
_original_tk_init = tkinter.Tk.__init__


def _tracking_tk_init(self: tkinter.Tk, *args: object, **kwargs: object) -> None:
    _GUARD.check(TK)
    _original_tk_init(self, *args, **kwargs)  # type: ignore[arg-type]
    _live_tk_roots.add(self)


tkinter.Tk.__init__ = _tracking_tk_init  # type: ignore[method-assign]

# Every root gives itself the focus just before it is destroyed, however a test or the window
# under test destroys it: Tk 8.6 can otherwise leave the display's focus pointer at the freed root,
# and the next test's focus_force() in a new interpreter crashes the worker (tests/support/tk.py).
release_focus_on_destroy()


@pytest.fixture(autouse=True)
def _collect_tk_roots_on_the_main_thread() -> Iterator[None]:
    yield
    if len(_live_tk_roots):
        gc.collect()
