# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Sizes in the `amc-rc-receiver` window: its first size, the bridge pane's sash, scrollable widths."""

from __future__ import annotations

import contextlib
import tkinter as tk
from tkinter import ttk

from ...plugins.rc_receiver_tk_widgets import ScrollableFrame
from .bridge_panel import BridgePanel

DEFAULT_GEOMETRY = "1560x860"
BRIDGE_PANE_WIDTH = 480
# The bridge pane keeps at least this much when collapsed: the header button and its summary.
_MIN_PANE = 40
_COLLAPSED_MARGIN = 16


def initial_geometry(root: tk.Misc) -> str:
    """The default window size, shrunk to fit a small screen (e.g. a 1366x768 laptop)."""
    width, height = (int(part) for part in DEFAULT_GEOMETRY.split("x"))
    width = max(640, min(width, root.winfo_screenwidth() - 40))
    height = max(480, min(height, root.winfo_screenheight() - 80))
    return f"{width}x{height}"


def fit_scrollable_width(frame: tk.Misc) -> None:
    """Widen scrollable areas in ``frame`` to their content, so the plugin is not cut off on the right.

    A scrollable frame's canvas asks for a fixed default width whatever its content needs; the
    plugin column of the step layout takes only what its child asks for.
    """
    frame.update_idletasks()
    pending: list[tk.Misc] = [frame]
    while pending:
        widget = pending.pop()
        if isinstance(widget, ScrollableFrame):
            needed = widget.interior.winfo_reqwidth()
            if needed > widget.canvas.winfo_reqwidth():
                widget.canvas.configure(width=needed)
            continue
        pending.extend(widget.winfo_children())


class BridgePaneSizer:
    """Moves the sash when the bridge panel collapses or expands, remembering the expanded width."""

    def __init__(self, panes: ttk.Panedwindow, pane: ttk.Frame, panel: BridgePanel) -> None:
        self._panes = panes
        self._panel = panel
        self._width = BRIDGE_PANE_WIDTH
        pane.bind("<Configure>", self._resized)

    def toggle(self) -> None:
        """Collapse or expand the panel and give its width back to the receiver step."""
        panel = self._panel
        total = self._panes.winfo_width()
        if panel.expanded:
            with contextlib.suppress(tk.TclError):
                self._width = max(_MIN_PANE, total - int(self._panes.sashpos(0)))  # type: ignore[no-untyped-call]
        panel.toggle()
        self._panes.update_idletasks()
        wanted = self._width if panel.expanded else max(_MIN_PANE, panel.winfo_reqwidth() + _COLLAPSED_MARGIN)
        if total > wanted:
            with contextlib.suppress(tk.TclError):
                self._panes.sashpos(0, total - wanted)  # type: ignore[no-untyped-call]

    def _resized(self, event: tk.Event[tk.Misc]) -> None:
        # The panel's detail lines wrap at a fixed width made for a full-width panel; follow the pane.
        with contextlib.suppress(tk.TclError):
            self._panel.details.configure(wraplength=max(120, int(event.width) - 12))
