# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What each widget of the receiver view shows, so that an unchanged value never reaches Tk.

One `ShownValues` serves a whole view: its panels write every value through it, and it counts the
writes that reached Tk, which lets tests and benchmarks see that an idle render is free.
"""

from __future__ import annotations

import tkinter as tk

from .widgets import BarRow, Lamp

_UNSET = object()


class ShownValues:
    """The value each (widget, option) shows, written to Tk only when it changes."""

    def __init__(self) -> None:
        self._shown: dict[tuple[tk.Misc, str], object] = {}
        # Writes that reached Tk.
        self.updates = 0

    def set_option(self, widget: tk.Misc, option: str, value: object) -> bool:
        """Show ``value`` as ``widget``'s ``option``; True if it changed (the `widgets.Setter`)."""
        key = (widget, option)
        if self._shown.get(key, _UNSET) == value:
            return False
        self._shown[key] = value
        widget.configure({option: value})
        self.updates += 1
        return True

    def set_text(self, widget: tk.Misc, text: str) -> None:
        self.set_option(widget, "text", text)

    def set_bar(self, row: BarRow, value: float, text: str) -> None:
        self.set_option(row.bar, "value", value)
        self.set_text(row.value, text)

    def set_lamp(self, lamp: Lamp, colour: str, text: str) -> None:
        key = (lamp.canvas, "fill")
        if self._shown.get(key, _UNSET) != colour:
            self._shown[key] = colour
            lamp.canvas.itemconfigure(lamp.oval, fill=colour)
            self.updates += 1
        self.set_text(lamp.value, text)
