# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Our twin of the methodic configurator's ``ScrollFrame``, on real Tk widgets: 5.0.1's names,
content stretched to the visible width, and the mouse wheel only while the pointer is over it.

Pointer crossings and wheel notches are real Tk events (``event_generate``).
"""

from __future__ import annotations

import tkinter as tk
from tkinter import ttk

import pytest

from amc_rc_receiver.frontend_tkinter_scroll_frame import ScrollFrame
from tests.support.tk import packed

pytestmark = pytest.mark.tk

_WHEEL = ("<MouseWheel>", "<Button-4>", "<Button-5>")


def tall_area(root: tk.Tk) -> ScrollFrame:
    root.geometry("300x200")
    area = packed(ScrollFrame(root))
    for row in range(40):
        ttk.Label(area.view_port, text=f"line {row}").pack(anchor=tk.W)
    root.update()
    return area


def wheel_bound(root: tk.Tk) -> bool:
    return any(root.bind_all(sequence) for sequence in _WHEEL)


def test_it_offers_what_the_plugin_uses_of_5_0_1s_scroll_frame(root: tk.Tk) -> None:
    """GIVEN the twin built as 5.0.1's is, ``ScrollFrame(master)``
    WHEN the plugin reaches for its parts
    THEN it has 5.0.1's canvas, view port, scroll bar, canvas window and handlers."""
    area = ScrollFrame(root)

    assert isinstance(area.canvas, tk.Canvas)
    assert area.view_port.master is area.canvas
    assert area.vsb.winfo_exists()
    assert area.canvas.type(area.canvas_window) == "window"  # type: ignore[no-untyped-call]
    for handler in ("on_frame_configure", "on_canvas_configure", "on_mouse_wheel", "on_enter", "on_leave"):
        assert callable(getattr(area, handler))


def test_the_content_is_stretched_to_the_visible_width(root: tk.Tk) -> None:
    """GIVEN a scroll frame in a 300 pixel wide window
    WHEN it is laid out and the window widens
    THEN its content is exactly as wide as the canvas each time, so it wraps instead of scrolling sideways."""
    area = tall_area(root)
    assert area.view_port.winfo_width() == area.canvas.winfo_width()

    root.geometry("500x200")
    root.update()

    assert area.view_port.winfo_width() == area.canvas.winfo_width() > 300


def test_the_wheel_scrolls_only_while_the_pointer_is_over_the_frame(root: tk.Tk) -> None:
    """GIVEN content taller than the frame
    WHEN the pointer enters, the wheel turns down, and the pointer leaves
    THEN the wheel is bound only in between, and the notch scrolled the content down."""
    area = tall_area(root)
    assert not wheel_bound(root)

    area.event_generate("<Enter>")
    area.canvas.event_generate("<Button-5>")
    root.update()
    scrolled = area.canvas.yview()[0]
    area.event_generate("<Leave>")
    root.update()

    assert scrolled > 0.0
    assert not wheel_bound(root)


def test_content_that_fits_does_not_move_under_the_wheel(root: tk.Tk) -> None:
    """GIVEN a scroll frame whose one line fits
    WHEN the wheel turns down over it
    THEN the content stays where it is."""
    area = packed(ScrollFrame(root))
    ttk.Label(area.view_port, text="one line").pack()
    root.update()

    area.event_generate("<Enter>")
    area.canvas.event_generate("<Button-5>")
    root.update()

    assert area.canvas.yview()[0] == 0.0


def test_a_destroyed_frame_leaves_no_wheel_binding_behind(root: tk.Tk) -> None:
    """GIVEN the pointer over a scroll frame, its wheel bound
    WHEN the frame is destroyed
    THEN no wheel binding is left to call a destroyed canvas."""
    area = tall_area(root)
    area.event_generate("<Enter>")
    assert wheel_bound(root)

    area.destroy()

    assert not wheel_bound(root)


def test_scroll_to_top_shows_the_beginning(root: tk.Tk) -> None:
    """GIVEN content scrolled to its end
    WHEN scroll_to_top() is called
    THEN the beginning is in view again."""
    area = tall_area(root)
    area.canvas.yview_moveto(1.0)

    area.scroll_to_top()

    assert area.canvas.yview()[0] == 0.0
