# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Read-only table of one configuration step's parameters, shown beside the step's plugin.

The table never parses or writes files itself: the window hands it parsed entries (or an error
text) and the table only draws them, so a bad file can be reported while the last good table
stays on screen.  Opening a file is a callback, so the window can pause the plugin around the
file browser.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable, Sequence
from tkinter import font as tkfont
from tkinter import ttk

from .. import _
from ..plugins.rc_receiver_tk_widgets import grid_with_scrollbars
from .param_file import ParamEntry

COLUMNS = ("name", "value", "comment")
COLOUR_ERROR = "#c62828"
_WRAP_PIXELS = 460
_MAX_VISIBLE_ROWS = 16


def format_param_value(value: float) -> str:
    """Whole numbers without a decimal point; others in the shortest text that reads back exactly."""
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


class ParameterTable(ttk.Frame):
    """Step title, "Open parameter file…" button, the file's name, an error line and the table."""

    def __init__(
        self,
        parent: tk.Misc,
        *,
        title: str,
        description: str = "",
        on_open: Callable[[], None],
    ) -> None:
        super().__init__(parent)
        self._on_open = on_open

        # A font description, not a Font object: nothing here needs finalising on the Tk thread.
        size = int(tkfont.nametofont("TkDefaultFont").actual("size"))
        bold = ("TkDefaultFont", size, "bold")
        self.title_label = ttk.Label(self, text=title, font=bold, wraplength=_WRAP_PIXELS, justify=tk.LEFT)
        self.title_label.pack(fill=tk.X, padx=6, pady=(8, 2))
        self.description_label = ttk.Label(self, text=description, wraplength=_WRAP_PIXELS, justify=tk.LEFT)
        if description:
            self.description_label.pack(fill=tk.X, padx=6, pady=2)
        file_row = ttk.Frame(self)
        file_row.pack(fill=tk.X, padx=6, pady=(6, 2))
        self.open_button = ttk.Button(file_row, text=_("Open parameter file…"), command=self._open_clicked)
        self.open_button.pack(side=tk.LEFT)
        self.source_label = ttk.Label(self, text="", wraplength=_WRAP_PIXELS, justify=tk.LEFT)
        self.source_label.pack(fill=tk.X, padx=6, pady=2)
        self.error_label = ttk.Label(
            self, text="", foreground=COLOUR_ERROR, wraplength=_WRAP_PIXELS, justify=tk.LEFT
        )
        self.error_label.pack(fill=tk.X, padx=6)
        self._wrapped: tuple[ttk.Label, ...] = (
            self.title_label,
            self.description_label,
            self.source_label,
            self.error_label,
        )

        table = ttk.Frame(self)
        table.pack(fill=tk.BOTH, expand=True, padx=6, pady=(2, 6))
        self.tree = ttk.Treeview(
            table, columns=COLUMNS, show="headings", height=_MAX_VISIBLE_ROWS, selectmode=tk.BROWSE
        )
        headings = {"name": _("Parameter"), "value": _("Value"), "comment": _("Comment")}
        widths = {"name": 150, "value": 60, "comment": 300}
        for column in COLUMNS:
            self.tree.heading(column, text=headings[column], anchor=tk.W)
            self.tree.column(column, width=widths[column], stretch=column == "comment", anchor=tk.W)
        grid_with_scrollbars(table, self.tree)
        # Comments are longer than any sensible column; the selected one is spelled out here.
        self.details_label = ttk.Label(self, text="", wraplength=_WRAP_PIXELS, justify=tk.LEFT)
        self.details_label.pack(fill=tk.X, padx=6, pady=(0, 6))
        self._wrapped += (self.details_label,)
        self._rows: tuple[tuple[str, str, str], ...] = ()
        self._wrap_width = _WRAP_PIXELS
        self.tree.bind("<<TreeviewSelect>>", self._on_select)
        self.bind("<Configure>", self._on_resize)

    # ----------------------------------------------------------------- what is shown

    @property
    def rows(self) -> tuple[tuple[str, str, str], ...]:
        """(name, value, comment) of every row, top to bottom."""
        return self._rows

    @property
    def source_text(self) -> str:
        return str(self.source_label.cget("text"))

    @property
    def error_text(self) -> str:
        return str(self.error_label.cget("text"))

    def show_entries(self, entries: Sequence[ParamEntry], source: str) -> None:
        """Replace the table with ``entries`` read from ``source`` and clear any error."""
        self.tree.delete(*self.tree.get_children())
        rows = tuple((entry.name, format_param_value(entry.value), entry.comment or "") for entry in entries)
        for row in rows:
            self.tree.insert("", tk.END, values=row)
        self._rows = rows
        self.source_label.configure(
            text=_("{count} parameters from {source} (read-only)").format(count=len(rows), source=source)
        )
        self.details_label.configure(text="")
        self.show_error(None)

    def show_error(self, message: str | None) -> None:
        """Show why a file could not be used; the table keeps what it showed before."""
        self.error_label.configure(text=message or "")

    @property
    def details_text(self) -> str:
        return str(self.details_label.cget("text"))

    def _on_select(self, _event: object = None) -> None:
        selection = self.tree.selection()
        text = ""
        if selection:
            index = self.tree.index(selection[0])
            if 0 <= index < len(self._rows):
                name, value, comment = self._rows[index]
                text = _("{name} = {value}").format(name=name, value=value)
                if comment:
                    text += "\n" + comment
        self.details_label.configure(text=text)

    def _on_resize(self, event: tk.Event[tk.Misc]) -> None:
        # Labels wrap at a fixed pixel width; follow the column so text neither clips nor strands.
        width = max(120, int(event.width) - 16)
        if abs(width - self._wrap_width) < 8:
            return
        self._wrap_width = width
        for label in self._wrapped:
            label.configure(wraplength=width)

    def _open_clicked(self) -> None:
        self._on_open()
