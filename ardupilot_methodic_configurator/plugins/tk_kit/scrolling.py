# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Scrolling for the program's views: a tree with its scrollbars, and a frame that scrolls its interior.

`ScrollableFrame` scrolls its ``interior`` vertically and stretches it to its width, so content
wraps instead of scrolling sideways, and binds the mouse wheel only while the pointer is over it.
"""

from __future__ import annotations

import contextlib
import tkinter as tk
from collections.abc import Callable
from tkinter import ttk

# X11 reports the wheel as buttons 4/5; Windows and macOS as <MouseWheel> with a delta.
_WHEEL_EVENTS = ("<MouseWheel>", "<Button-4>", "<Button-5>")


def match_theme_background(canvas: tk.Canvas) -> None:
    """Give a plain Tk canvas the ttk theme's frame background, so it does not show as a grey box."""
    background = str(ttk.Style(canvas).lookup("TFrame", "background") or "")
    if background:
        with contextlib.suppress(tk.TclError):
            canvas.configure(background=background)


def grid_with_scrollbars(
    frame: ttk.Frame, tree: ttk.Treeview, *, horizontal: bool = True
) -> tuple[ttk.Scrollbar, ttk.Scrollbar | None]:
    """Grid ``tree`` into ``frame`` with a vertical and (unless its columns always fit, ``horizontal``
    false) a horizontal scrollbar; the tree takes the room.

    Returns the (vertical, horizontal) scrollbars.  ``frame`` must hold nothing else.
    """
    yscroll = ttk.Scrollbar(frame, orient=tk.VERTICAL, command=tree.yview)
    tree.configure(yscrollcommand=yscroll.set)
    tree.grid(row=0, column=0, sticky=tk.NSEW)
    yscroll.grid(row=0, column=1, sticky=tk.NS)
    xscroll = None
    if horizontal:
        xscroll = ttk.Scrollbar(frame, orient=tk.HORIZONTAL, command=tree.xview)
        tree.configure(xscrollcommand=xscroll.set)
        xscroll.grid(row=1, column=0, sticky=tk.EW)
    frame.rowconfigure(0, weight=1)
    frame.columnconfigure(0, weight=1)
    return yscroll, xscroll


class ScrollableFrame(ttk.Frame):
    """A ttk.Frame whose ``interior`` scrolls vertically when taller than the frame."""

    def __init__(self, parent: tk.Misc, **kwargs: object) -> None:
        super().__init__(parent, **kwargs)  # type: ignore[arg-type]
        self.canvas = tk.Canvas(self, borderwidth=0, highlightthickness=0)
        match_theme_background(self.canvas)
        self.scrollbar = ttk.Scrollbar(self, orient=tk.VERTICAL, command=self.canvas.yview)
        self.canvas.configure(yscrollcommand=self.scrollbar.set)
        self.scrollbar.pack(side=tk.RIGHT, fill=tk.Y)
        self.canvas.pack(side=tk.LEFT, fill=tk.BOTH, expand=True)

        self.interior = ttk.Frame(self.canvas)
        self._window = self.canvas.create_window(0, 0, window=self.interior, anchor=tk.NW)

        # Told the visible width whenever it changes, so content can rearrange itself to it.
        self.on_width: Callable[[int], None] | None = None
        self.interior.bind("<Configure>", self._on_interior_configure)
        self.canvas.bind("<Configure>", self._on_canvas_configure)
        self._wheel_bound = False
        self.bind("<Enter>", self._bind_wheel)
        self.bind("<Leave>", self._unbind_wheel)

    def _on_interior_configure(self, _event: tk.Event[tk.Misc]) -> None:
        self.canvas.configure(
            scrollregion=(0, 0, self.interior.winfo_reqwidth(), self.interior.winfo_reqheight())
        )

    def _on_canvas_configure(self, event: tk.Event[tk.Misc]) -> None:
        self.canvas.itemconfigure(self._window, width=event.width)
        if self.on_width is not None:
            self.on_width(int(event.width))

    def see(self, widget: tk.Misc) -> None:
        """Scroll so that ``widget``, somewhere inside the interior, is in view (a focused button)."""
        if not _inside(widget, self.interior):
            return
        height = max(1, self.interior.winfo_height())
        top = widget.winfo_rooty() - self.interior.winfo_rooty()
        bottom = top + widget.winfo_height()
        shown_top = int(self.canvas.canvasy(0))
        shown = self.canvas.winfo_height()
        if top < shown_top:
            self.canvas.yview_moveto(top / height)
        elif bottom > shown_top + shown:
            self.canvas.yview_moveto(max(0, bottom - shown) / height)

    def _bind_wheel(self, _event: tk.Event[tk.Misc] | None = None) -> None:
        for sequence in _WHEEL_EVENTS:
            self.bind_all(sequence, self._on_wheel)
        self._wheel_bound = True

    def _unbind_wheel(self, _event: tk.Event[tk.Misc] | None = None) -> None:
        if not self._wheel_bound:
            return
        self._wheel_bound = False
        for sequence in _WHEEL_EVENTS:
            self.unbind_all(sequence)

    def _on_wheel(self, event: tk.Event[tk.Misc]) -> None:
        # Scrolling content that already fits would only jitter it.
        if self.interior.winfo_reqheight() <= self.canvas.winfo_height():
            return
        if event.num == 4:
            steps = -1
        elif event.num == 5:
            steps = 1
        else:
            steps = -1 if event.delta > 0 else 1
        self.canvas.yview_scroll(steps, "units")

    def destroy(self) -> None:
        # bind_all bindings outlive the widget; drop ours so they never call a dead canvas.
        with contextlib.suppress(tk.TclError):
            self._unbind_wheel()
        super().destroy()


def _inside(widget: tk.Misc, ancestor: tk.Misc) -> bool:
    current: tk.Misc | None = widget
    while current is not None:
        if current is ancestor:
            return True
        current = current.master
    return False
