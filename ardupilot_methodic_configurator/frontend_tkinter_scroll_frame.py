# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Our twin of the methodic configurator's ``frontend_tkinter_scroll_frame``: a frame whose content
scrolls vertically.

Inside the methodic configurator 5.0.1 the plugin imports 5.0.1's own ``ScrollFrame`` from this
path; the standalone program gets this one.  It offers what the plugin may rely on in both: the
name ``ScrollFrame``, built as ``ScrollFrame(master)``, its ``canvas``, the ``view_port`` that
holds the content, the scroll bar ``vsb``, the canvas item ``canvas_window`` and the handlers
``on_frame_configure``, ``on_canvas_configure``, ``on_mouse_wheel``, ``on_enter``, ``on_leave`` and
``scroll_to_top``.  Our own behaviour: the content is stretched to the visible width (so it wraps
instead of scrolling sideways), and the mouse wheel is bound only while the pointer is over the
frame and unbound when it is destroyed.
"""

from __future__ import annotations

import contextlib
import tkinter as tk
from tkinter import ttk

# X11 sends the wheel as buttons 4 and 5; Windows and macOS as <MouseWheel> with a signed delta.
_WHEEL_SEQUENCES = ("<MouseWheel>", "<Button-4>", "<Button-5>")


class ScrollFrame(ttk.Frame):
    """A frame whose ``view_port`` scrolls vertically once it is taller than the frame."""

    def __init__(self, master: tk.Misc) -> None:
        super().__init__(master)
        self.canvas = tk.Canvas(self, borderwidth=0, highlightthickness=0)
        theme_background = str(ttk.Style(master).lookup("TFrame", "background") or "")
        if theme_background:
            with contextlib.suppress(tk.TclError):
                self.canvas.configure(background=theme_background)
        self.vsb = ttk.Scrollbar(self, orient=tk.VERTICAL, command=self.canvas.yview)
        self.canvas.configure(yscrollcommand=self.vsb.set)
        self.vsb.pack(side=tk.RIGHT, fill=tk.Y)
        self.canvas.pack(side=tk.LEFT, fill=tk.BOTH, expand=True)

        self.view_port = ttk.Frame(self.canvas)
        self.canvas_window = self.canvas.create_window(0, 0, window=self.view_port, anchor=tk.NW)
        self.view_port.bind("<Configure>", self.on_frame_configure)
        self.canvas.bind("<Configure>", self.on_canvas_configure)
        self._wheel_bound = False
        self.bind("<Enter>", self.on_enter)
        self.bind("<Leave>", self.on_leave)

    def on_frame_configure(self, _event: tk.Event[tk.Misc] | None) -> None:
        """The content changed size: the scrollable region becomes exactly the content."""
        self.canvas.configure(
            scrollregion=(0, 0, self.view_port.winfo_reqwidth(), self.view_port.winfo_reqheight())
        )

    def on_canvas_configure(self, event: tk.Event[tk.Misc]) -> None:
        """The visible area changed size: the content takes its whole width."""
        self.canvas.itemconfigure(self.canvas_window, width=event.width)

    def on_mouse_wheel(self, event: tk.Event[tk.Misc]) -> None:
        """Scroll one unit per wheel notch, and not at all while the content fits."""
        try:
            if self.view_port.winfo_reqheight() <= self.canvas.winfo_height():
                return
        except tk.TclError:  # a wheel event that arrives while the frame is being destroyed
            return
        if event.num == 4:
            notches = -1
        elif event.num == 5:
            notches = 1
        else:
            notches = -1 if event.delta > 0 else 1
        self.canvas.yview_scroll(notches, "units")

    def on_enter(self, _event: tk.Event[tk.Misc] | None) -> None:
        """The pointer came over the frame: the wheel scrolls it."""
        for sequence in _WHEEL_SEQUENCES:
            self.bind_all(sequence, self.on_mouse_wheel)
        self._wheel_bound = True

    def on_leave(self, _event: tk.Event[tk.Misc] | None) -> None:
        """The pointer left the frame: the wheel is let go."""
        if not self._wheel_bound:
            return
        self._wheel_bound = False
        for sequence in _WHEEL_SEQUENCES:
            self.unbind_all(sequence)

    def scroll_to_top(self) -> None:
        """Show the beginning of the content."""
        self.canvas.yview_moveto(0.0)

    def destroy(self) -> None:
        # bind_all outlives the widget: let go of the wheel so it never calls a destroyed canvas.
        with contextlib.suppress(tk.TclError):
            self.on_leave(None)
        super().destroy()
