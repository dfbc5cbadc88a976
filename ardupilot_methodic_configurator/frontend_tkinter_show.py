# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Our twin of the methodic configurator's ``frontend_tkinter_show``, as far as the plugin uses it:
``show_tooltip(widget, text, position_below=True)``, which gives ``widget`` a fixed tooltip and
returns its ``Tooltip``.

Inside the methodic configurator 5.0.1 the plugin imports 5.0.1's own ``show_tooltip`` from this
path, so its tooltips look and behave like the rest of 5.0.1; the standalone program gets this
one.  (The parameter table's tooltip, whose text depends on the row under the pointer, is
``plugins/tk_kit/text.Tooltip``.)
"""

from __future__ import annotations

import contextlib
import tkinter as tk

# How long the pointer rests on the widget before its tooltip shows: moving across the view
# shows none.
SHOW_AFTER_MS = 400
# The tooltip's distance from the widget's edge, and the widest a line of it grows before wrapping.
_GAP = 4
_WRAP_PX = 420
_BACKGROUND = "#ffffe0"


class Tooltip:
    """The text in a small borderless window next to ``widget`` while the pointer rests on it."""

    def __init__(self, widget: tk.Misc, text: str, position_below: bool = True) -> None:
        self.widget = widget
        self.text = text
        self.position_below = position_below
        # The window while it exists (made on first show, withdrawn when the pointer leaves).
        self.tooltip: tk.Toplevel | None = None
        self._label: tk.Label | None = None
        self._pending: str | None = None
        widget.bind("<Enter>", self.schedule_show, add="+")
        widget.bind("<Leave>", self.hide, add="+")
        widget.bind("<ButtonPress>", self.hide, add="+")
        widget.bind("<Destroy>", self._widget_destroyed, add="+")

    @property
    def shown(self) -> bool:
        """Whether the tooltip is on screen now."""
        try:
            return self.tooltip is not None and bool(self.tooltip.winfo_viewable())
        except tk.TclError:
            return False

    def schedule_show(self, _event: object = None) -> None:
        """Show the tooltip once the pointer has rested on the widget for a moment."""
        self._cancel()
        self._pending = self.widget.after(SHOW_AFTER_MS, self.show)

    def show(self) -> None:
        """Show the tooltip now, beside the widget and inside its screen."""
        self._cancel()
        if not self.text:
            return
        if self.tooltip is None:
            self.tooltip = tk.Toplevel(self.widget)
            self.tooltip.wm_overrideredirect(True)
            self._label = tk.Label(
                self.tooltip,
                justify=tk.LEFT,
                background=_BACKGROUND,
                foreground="#000000",
                relief=tk.SOLID,
                borderwidth=1,
                padx=4,
                pady=2,
                wraplength=_WRAP_PX,
            )
            self._label.pack()
        assert self._label is not None
        self._label.configure(text=self.text)
        self.tooltip.update_idletasks()
        width, height = self.tooltip.winfo_reqwidth(), self.tooltip.winfo_reqheight()
        left = self.widget.winfo_rootx()
        top = self.widget.winfo_rooty()
        y = top + self.widget.winfo_height() + _GAP if self.position_below else top - height - _GAP
        x = max(0, min(left, self.widget.winfo_screenwidth() - width))
        self.tooltip.wm_geometry(f"+{x}+{max(0, y)}")
        self.tooltip.deiconify()
        self.tooltip.lift()

    def hide(self, _event: object = None) -> None:
        """Take the tooltip off the screen (it is made again on the next rest)."""
        self._cancel()
        if self.tooltip is not None:
            with contextlib.suppress(tk.TclError):
                self.tooltip.withdraw()

    def _cancel(self) -> None:
        if self._pending is not None:
            with contextlib.suppress(tk.TclError):
                self.widget.after_cancel(self._pending)
            self._pending = None

    def _widget_destroyed(self, event: tk.Event[tk.Misc]) -> None:
        if event.widget is not self.widget:
            return
        self._cancel()
        if self.tooltip is not None:
            with contextlib.suppress(tk.TclError):
                self.tooltip.destroy()
            self.tooltip = None


def show_tooltip(widget: tk.Misc, text: str, position_below: bool = True) -> Tooltip:
    """Give ``widget`` a tooltip showing ``text`` below it (above it with ``position_below`` false)."""
    return Tooltip(widget, text, position_below=position_below)
