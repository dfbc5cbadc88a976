# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The one repeating ``after()`` of a view.

`TickTimer` ticks only while started, not suspended and not closed, keeps at most one id pending,
and every way out cancels it, so no tick outlives its view.
"""

from __future__ import annotations

import contextlib
import tkinter as tk
from collections.abc import Callable


class TickTimer:
    """Calls ``callback`` every ``interval_ms`` milliseconds on ``widget``'s event loop while running."""

    def __init__(self, widget: tk.Misc, interval_ms: int, callback: Callable[[], object]) -> None:
        self._widget = widget
        self._interval_ms = max(1, int(interval_ms))
        self._callback = callback
        self._timer_id: str | None = None
        self._active = False
        self._suspended = False
        self._closed = False

    @property
    def timer_id(self) -> str | None:
        """The pending ``after()`` id, or ``None`` when no tick is scheduled."""
        return self._timer_id

    @property
    def active(self) -> bool:
        """True from ``start()`` until ``stop()`` or ``close()``, suspended or not."""
        return self._active

    @property
    def suspended(self) -> bool:
        return self._suspended

    @property
    def running(self) -> bool:
        """True while ticks are due: started and not suspended."""
        return self._active and not self._suspended

    def start(self) -> None:
        """Tick from now on (once resumed, if suspended); a second call keeps the pending tick."""
        if self._closed:
            return
        self._active = True
        if not self._suspended:
            self._arm()

    def stop(self) -> None:
        """Stop ticking and forget any suspension; ``start()`` begins afresh."""
        self._active = False
        self._suspended = False
        self._cancel()

    def suspend(self) -> None:
        """Pause ticking until ``resume()``, staying started."""
        self._suspended = True
        self._cancel()

    def resume(self) -> None:
        """End a suspension; ticking continues if the timer is started."""
        self._suspended = False
        if self._active:
            self._arm()

    def close(self) -> None:
        """Stop for good, e.g. when the widget is destroyed; later ``start()`` calls do nothing."""
        self._active = False
        self._closed = True
        self._cancel()

    def _arm(self) -> None:
        if self._timer_id is None:
            self._timer_id = self._widget.after(self._interval_ms, self._fire)

    def _cancel(self) -> None:
        if self._timer_id is not None:
            timer_id, self._timer_id = self._timer_id, None
            # The widget may already be gone, taking its pending timers with it.
            with contextlib.suppress(tk.TclError):
                self._widget.after_cancel(timer_id)

    def _fire(self) -> None:
        self._timer_id = None
        # A cancel that Tk could not carry out must still not lead to a tick.
        if not self.running:
            return
        self._callback()
        if self.running:
            self._arm()
