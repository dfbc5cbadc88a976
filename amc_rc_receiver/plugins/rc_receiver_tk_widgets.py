# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The small building blocks of the receiver view: a lamp, a bar row and a stream row.

Each pairs a visual (a coloured circle, a bar) with text, so that no state is told by colour
alone.  They hold widgets only; the view decides what they show.
"""

from __future__ import annotations

import tkinter as tk
from tkinter import ttk

from .. import _
from .rc_receiver_scrollable import match_theme_background

COLOUR_UNKNOWN = "#9e9e9e"
_LAMP_DIAMETER = 14
_BAR_LENGTH = 280


class Lamp:
    """A coloured circle beside a title and a value text, so state never relies on colour alone."""

    def __init__(self, parent: tk.Misc, title: str, row: int) -> None:
        self.canvas = tk.Canvas(
            parent, width=_LAMP_DIAMETER + 2, height=_LAMP_DIAMETER + 2, highlightthickness=0, borderwidth=0
        )
        match_theme_background(self.canvas)
        self.oval = self.canvas.create_oval(
            1, 1, _LAMP_DIAMETER, _LAMP_DIAMETER, fill=COLOUR_UNKNOWN, outline="#616161"
        )
        self.title = ttk.Label(parent, text=title)
        self.value = ttk.Label(parent, text=_("unknown"))
        self.canvas.grid(row=row, column=0, padx=(0, 6), pady=2, sticky=tk.W)
        self.title.grid(row=row, column=1, pady=2, sticky=tk.W)
        self.value.grid(row=row, column=2, padx=(8, 0), pady=2, sticky=tk.W)

    @property
    def colour(self) -> str:
        return str(self.canvas.itemcget(self.oval, "fill"))  # type: ignore[no-untyped-call]

    @property
    def text(self) -> str:
        return str(self.value.cget("text"))


class BarRow:
    """A name, a bar and the reading as text."""

    def __init__(self, parent: tk.Misc, name: str, maximum: float, row: int) -> None:
        self.name = ttk.Label(parent, text=name, width=14)
        self.bar = ttk.Progressbar(parent, orient=tk.HORIZONTAL, length=_BAR_LENGTH, maximum=maximum, value=0)
        self.value = ttk.Label(parent, text=_("Unavailable"), width=18)
        self.name.grid(row=row, column=0, pady=2, sticky=tk.W)
        self.bar.grid(row=row, column=1, padx=6, pady=2, sticky=tk.EW)
        self.value.grid(row=row, column=2, pady=2, sticky=tk.W)

    @property
    def text(self) -> str:
        return str(self.value.cget("text"))

    @property
    def bar_value(self) -> float:
        return float(self.bar.cget("value"))


class StreamRow:
    """Measured rate of one message stream and the fate of its interval request."""

    def __init__(self, parent: tk.Misc, message_name: str, row: int) -> None:
        self.message_name = message_name
        self.name = ttk.Label(parent, text=message_name, width=14)
        self.rate = ttk.Label(parent, text=_("{rate:.1f} Hz").format(rate=0.0), width=10)
        self.request = ttk.Label(parent, text=_("interval not requested"))
        self.name.grid(row=row, column=0, pady=1, sticky=tk.W)
        self.rate.grid(row=row, column=1, padx=6, pady=1, sticky=tk.W)
        self.request.grid(row=row, column=2, pady=1, sticky=tk.W)
