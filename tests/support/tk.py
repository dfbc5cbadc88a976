# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Tk helpers for tests on real widgets: a root window's life cycle, pending timers, event pumping,
and a scripted stand-in for whatever a view polls.

Every Tk root of the suite gives the focus to itself just before it is destroyed
(`release_focus_on_destroy`, installed by tests/conftest.py): Tk 8.6 keeps one focus pointer per
display for every interpreter of the thread, and a root that took the focus from the pointer (there
is no window manager under Xvfb) and lost the pointer again leaves that pointer at its freed "."
window; the next ``focus -force`` in a later test's interpreter reads the freed window and may crash
the worker with a segmentation fault.

Tests run the Tk event loop themselves (``pump_until``) with a generous deadline instead of
sleeping for a fixed time, and look at Tk's own list of pending ``after()`` ids to check timers.
"""

from __future__ import annotations

import contextlib
import gc
import time
import tkinter as tk
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

DEADLINE_S = 10.0

WidgetT = TypeVar("WidgetT", bound=tk.Widget)
SnapshotT = TypeVar("SnapshotT")


def tk_root(geometry: str | None = None) -> Iterator[tk.Tk]:
    """Yield a new Tk root (sized ``geometry`` if given) and destroy it afterwards; for fixtures.

    The suite's one maker of Tk roots: every Tk test takes the ``root`` fixture built on it.  A
    test may destroy the root itself (closing a window does); nothing is left to do then.
    """
    window = tk.Tk()
    if geometry is not None:
        window.geometry(geometry)
    yield window
    with contextlib.suppress(tk.TclError):  # already destroyed by the test
        window.destroy()
    # A destroyed widget tree is cyclic garbage; collect it here, on the Tk thread, so that the
    # collector never finalises Tk objects inside a later test's worker thread (Tcl aborts).
    gc.collect()


def release_focus(window: tk.Tk) -> None:
    """Give the focus to ``window`` itself, explicitly, so that destroying it right after leaves no
    focus behind: Tk then forgets it for the display, not just for this interpreter.

    Tk 8.6 (``TkFocusDeadWindow``) clears the display's focus pointer only when the dying window
    is what its own application thinks has the focus.  Without a window manager a root takes the
    focus implicitly when the pointer enters it; when the pointer leaves again (the root is
    withdrawn, shrunk or moved) the application forgets its focus but the display's pointer stays
    at ".", and survives the destruction of ".".  ``focus -force`` in any later interpreter of
    the thread then reads the freed window (``TkSetFocusWin``) - a segmentation fault whenever its
    memory has been reused.  Giving the root the focus first makes both records agree again.

    Nothing is processed between this and the destruction that should follow at once: a pending
    Leave event would undo it.  A root that was never shown cannot have had the focus.
    """
    with contextlib.suppress(tk.TclError):
        if not window.winfo_ismapped():
            if window.state() not in ("withdrawn", "iconic"):
                return  # never shown: no focus can be in it
            window.deiconify()
            window.update_idletasks()
        window.focus_force()


def release_focus_on_destroy() -> None:
    """Make every ``tkinter.Tk`` give itself the focus just before it is destroyed (`release_focus`);
    idempotent.  Installed for the whole suite by tests/conftest.py."""
    if getattr(tk.Tk.destroy, "releases_focus", False):
        return
    original = tk.Tk.destroy

    def destroy(self: tk.Tk) -> None:
        release_focus(self)
        original(self)

    destroy.releases_focus = True  # type: ignore[attr-defined]
    tk.Tk.destroy = destroy  # type: ignore[method-assign]


def pending_after_ids(widget: tk.Misc) -> set[str]:
    """Every ``after()`` id pending in ``widget``'s Tcl interpreter."""
    return set(widget.tk.splitlist(widget.tk.call("after", "info")))


def pump_until(root: tk.Tk, condition: Callable[[], bool], deadline_s: float = DEADLINE_S) -> bool:
    """Run the event loop until ``condition()`` holds or ``deadline_s`` passes; return ``condition()``."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        root.update()
        if condition():
            return True
        time.sleep(0.005)
    return condition()


def pump_briefly(root: tk.Tk, rounds: int = 5, pause_s: float = 0.02) -> None:
    """Run the event loop for a few short rounds, so that anything still scheduled would show."""
    for _ in range(rounds):
        root.update()
        time.sleep(pause_s)


def packed(widget: WidgetT) -> WidgetT:
    """``widget``, packed to fill its parent."""
    widget.pack(fill=tk.BOTH, expand=True)
    return widget


class ScriptedSource(Generic[SnapshotT]):
    """Test double of what a view polls: each poll takes the next queued snapshot, or repeats the
    last one when the queue is empty; raises ``failure`` while it is set; counts its polls."""

    def __init__(self, state: SnapshotT, *queued: SnapshotT) -> None:
        self.state = state
        self._queue = list(queued)
        self.polls = 0
        self.failure: Exception | None = None

    def queue(self, *snapshots: SnapshotT) -> None:
        self._queue.extend(snapshots)

    def poll(self) -> SnapshotT:
        self.polls += 1
        if self.failure is not None:
            raise self.failure
        if self._queue:
            self.state = self._queue.pop(0)
        return self.state

    def polls_while_pumping(self, root: tk.Tk) -> int:
        """How many times this source is polled while the event loop runs briefly (``pump_briefly``)."""
        before = self.polls
        pump_briefly(root)
        return self.polls - before

    def pump_until_polled(self, root: tk.Tk, times: int = 1, deadline_s: float = DEADLINE_S) -> bool:
        """Run the event loop until this source has been polled ``times`` more times; False on timeout."""
        target = self.polls + times
        return pump_until(root, lambda: self.polls >= target, deadline_s)
