# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Suite-wide settings: hypothesis profiles for shared, noisy machines, and Tk garbage hygiene."""

from __future__ import annotations

import gc
import os
import tkinter
import weakref
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

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
settings.load_profile("ci" if os.environ.get("CI") else "default")

# Scripted flight-controller endpoint fixtures (real MAVLink on loopback UDP), and the released
# methodic configurator 5.0.1's files and environments.
pytest_plugins = ["tests.support.fixtures", "tests.support.methodic_configurator"]


# Tk interpreters must be freed on the thread that created them: a Tk root left as cyclic
# garbage can otherwise be collected on a relay or vehicle thread of a later test, and Tcl then
# aborts the whole process.  Every Tk root made by any test is tracked here and collected on the
# main thread right after the test that made it.
_live_tk_roots: weakref.WeakSet[tkinter.Tk] = weakref.WeakSet()
_original_tk_init = tkinter.Tk.__init__


def _tracking_tk_init(self: tkinter.Tk, *args: object, **kwargs: object) -> None:
    _original_tk_init(self, *args, **kwargs)  # type: ignore[arg-type]
    _live_tk_roots.add(self)


tkinter.Tk.__init__ = _tracking_tk_init  # type: ignore[method-assign]


@pytest.fixture(autouse=True)
def _collect_tk_roots_on_the_main_thread() -> Iterator[None]:
    yield
    if len(_live_tk_roots):
        gc.collect()
