# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window program's main loop: an interrupt inside a Tk callback still ends the program."""

from __future__ import annotations

import tkinter as tk
from types import TracebackType

import pytest

from amc_rc_receiver.standalone.window.app import run_mainloop

pytestmark = pytest.mark.tk


def _interrupt() -> None:
    raise KeyboardInterrupt


def test_an_interrupt_raised_inside_a_tk_callback_ends_the_loop_and_is_raised_again(root: tk.Tk) -> None:
    """
    GIVEN the main loop with a later callback that is still due
    WHEN Ctrl-C or SIGTERM lands while a callback runs (the handler raises KeyboardInterrupt there)
    THEN the loop ends at once and the interrupt reaches the caller instead of being printed by Tk
    """
    ran_later: list[bool] = []
    root.after(1, _interrupt)
    root.after(2000, lambda: ran_later.append(True))
    root.after(3000, root.quit)  # without the interrupt reaching the loop, it would end only here
    with pytest.raises(KeyboardInterrupt):
        run_mainloop(root)
    assert not ran_later


def test_other_callback_errors_are_reported_as_before_and_the_loop_goes_on(root: tk.Tk) -> None:
    """
    GIVEN the main loop and a callback that fails with an ordinary error
    WHEN it runs
    THEN Tk's report receives it, the loop keeps running until asked to stop, and nothing is raised
    """
    reported: list[type[BaseException]] = []

    def record(kind: type[BaseException], _error: BaseException, _trace: TracebackType | None) -> None:
        reported.append(kind)

    def fail() -> None:
        raise ValueError("a plugin bug")

    root.report_callback_exception = record
    root.after(1, fail)
    root.after(50, root.quit)
    run_mainloop(root)
    assert reported == [ValueError]
    assert root.report_callback_exception == record
