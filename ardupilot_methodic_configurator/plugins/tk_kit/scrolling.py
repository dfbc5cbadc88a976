# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Scrolling for the program's views: a tree with its scrollbars, and what the receiver view adds
to a scroll frame.

The scroll frame itself is the methodic configurator's ``ScrollFrame`` (5.0.1's inside it, our
twin ``frontend_tkinter_scroll_frame`` in the standalone program), which scrolls its
``view_port``, stretches it to its width and binds the mouse wheel only while the pointer is over
it.  `follow_width` tells the view the visible width, `scroll_into_view` brings a focused widget
into view; both use only what 5.0.1's ``ScrollFrame`` has too.
"""

from __future__ import annotations

import contextlib
import tkinter as tk
from collections.abc import Callable
from tkinter import ttk
from typing import Protocol


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


class ScrollArea(Protocol):
    """What the view uses of a scroll frame: 5.0.1's ``ScrollFrame`` inside the methodic
    configurator, our twin of it in the standalone program."""

    canvas: tk.Canvas
    view_port: ttk.Frame
    canvas_window: int

    def on_frame_configure(self, _event: tk.Event[tk.Misc] | None) -> None: ...


def follow_width(area: ScrollArea, on_width: Callable[[int], None]) -> None:
    """Place the content at the canvas's very corner (5.0.1 insets it) and call ``on_width`` with
    the visible width whenever it changes, so the content can rearrange itself to it."""
    area.canvas.coords(area.canvas_window, 0, 0)
    area.on_frame_configure(None)

    def resized(event: tk.Event[tk.Misc]) -> None:
        on_width(int(event.width))

    area.canvas.bind("<Configure>", resized, add="+")


def scroll_into_view(area: ScrollArea, widget: tk.Misc) -> None:
    """Scroll ``area`` so that ``widget``, somewhere inside its content, is in view (a focused button)."""
    if not _inside(widget, area.view_port):
        return
    canvas = area.canvas
    region = [float(value) for value in canvas.tk.splitlist(canvas.cget("scrollregion"))]
    if len(region) != 4 or region[3] <= region[1]:
        return
    shown_top = float(canvas.canvasy(0))
    shown = canvas.winfo_height()
    top = shown_top + widget.winfo_rooty() - canvas.winfo_rooty()
    bottom = top + widget.winfo_height()
    if top < shown_top:
        wanted = top
    elif bottom > shown_top + shown:
        wanted = bottom - shown
    else:
        return
    canvas.yview_moveto(max(0.0, (wanted - region[1]) / (region[3] - region[1])))


def _inside(widget: tk.Misc, ancestor: tk.Misc) -> bool:
    current: tk.Misc | None = widget
    while current is not None:
        if current is ancestor:
            return True
        current = current.master
    return False
