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
from ..plugins.tk_kit.keys import BUTTON_STYLE, select_on_focus
from ..plugins.tk_kit.scrolling import grid_with_scrollbars
from ..plugins.tk_kit.text import TextMeasure, Tooltip, WrapFollower, fit_words
from .param_file import ParamEntry

COLUMNS = ("name", "value", "comment")
COLOUR_ERROR = "#c62828"
_WRAP_PIXELS = 460
_MAX_VISIBLE_ROWS = 16
_MIN_VISIBLE_ROWS = 4
# Treeview cells pad their text on both sides; a text must fit inside that.
_CELL_PADDING = 12
# The meanings get at least this much; longer ones are shortened by whole words, and told in full
# by a tooltip and by the line below the table.
MEANING_MIN_WIDTH = 220
# The tree's border (both sides) and the frame's padding around the labels.
_TREE_BORDERS = 4
_LABEL_MARGIN = 12


def format_param_value(value: float) -> str:
    """Whole numbers without a decimal point; others in the shortest text that reads back exactly."""
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


class ParameterTable(ttk.Frame):
    """Step title, "Open parameter file…" button, the file's name, an error line and the table.

    The table shows each parameter's name and value whole and its meaning (the file's comment) as
    far as it fits, shortened by whole words; the pointer on a row, or selecting it, tells the
    whole meaning.  The frame asks for the width its names, values and a short meaning need, and
    its labels wrap at whatever width it gets, breaking a long file name only after ``_`` or ``/``.
    """

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
        self._wrap = WrapFollower(self, width=_WRAP_PIXELS, margin=_LABEL_MARGIN)

        # A font description, not a Font object: nothing here needs finalising on the Tk thread.
        size = int(tkfont.nametofont("TkDefaultFont").actual("size"))
        bold = ("TkDefaultFont", size, "bold")
        self.title_label = ttk.Label(self, text="", font=bold, justify=tk.LEFT)
        self.title_label.pack(fill=tk.X, padx=6, pady=(8, 2))
        self.description_label = ttk.Label(self, text="", justify=tk.LEFT)
        if description:
            self.description_label.pack(fill=tk.X, padx=6, pady=2)
        file_row = ttk.Frame(self)
        file_row.pack(fill=tk.X, padx=6, pady=(6, 2))
        self.open_button = ttk.Button(
            file_row, text=_("Open parameter file…"), command=self._open_clicked, style=BUTTON_STYLE
        )
        self.open_button.pack(side=tk.LEFT)
        self.source_label = ttk.Label(self, text="", justify=tk.LEFT)
        self.source_label.pack(fill=tk.X, padx=6, pady=2)
        self.error_label = ttk.Label(self, text="", foreground=COLOUR_ERROR, justify=tk.LEFT)
        self.error_label.pack(fill=tk.X, padx=6)
        # Comments are longer than any sensible column; the selected one is spelled out here.  It is
        # packed before the table so that a short window takes its rows from the table, not this.
        self.details_label = ttk.Label(self, text="", justify=tk.LEFT)
        self.details_label.pack(side=tk.BOTTOM, fill=tk.X, padx=6, pady=(0, 6))
        for label in (
            self.title_label,
            self.description_label,
            self.source_label,
            self.error_label,
            self.details_label,
        ):
            self._wrap.add(label)
        self._wrap.show(self.title_label, title, _write)
        self._wrap.show(self.description_label, description, _write)

        table = ttk.Frame(self)
        table.pack(fill=tk.BOTH, expand=True, padx=6, pady=(2, 6))
        self.tree = ttk.Treeview(
            table, columns=COLUMNS, show="headings", height=_MIN_VISIBLE_ROWS, selectmode=tk.BROWSE
        )
        self._headings = {"name": _("Parameter"), "value": _("Value"), "comment": _("Meaning")}
        for column in COLUMNS:
            self.tree.heading(column, text=self._headings[column], anchor=tk.W)
            self.tree.column(column, stretch=column == "comment", anchor=tk.W)
        # Hidden (headings only), yet a tree asks for its width too.
        self.tree.column("#0", width=0, minwidth=0, stretch=False)
        self._scrollbar, _none = grid_with_scrollbars(table, self.tree, horizontal=False)
        self._cells = TextMeasure.of(self.tree, "Treeview")
        self._heading_font = TextMeasure.of(self.tree, "Heading")
        self._rows: tuple[tuple[str, str, str], ...] = ()
        # What the meaning column shows of each row, and the width it was fitted to.
        self._shown_meanings: list[str] = []
        self._meaning_width = 0
        self._size_columns()
        self.tree.bind("<<TreeviewSelect>>", self._on_select)
        self.tree.bind("<Configure>", self._on_tree_resize, add="+")
        select_on_focus(self.tree)
        self.tooltip = Tooltip(self.tree, self._tooltip_text)

    # ----------------------------------------------------------------- what is shown

    @property
    def rows(self) -> tuple[tuple[str, str, str], ...]:
        """(name, value, comment) of every row, top to bottom."""
        return self._rows

    @property
    def source_text(self) -> str:
        return self._wrap.text(self.source_label)

    @property
    def error_text(self) -> str:
        return self._wrap.text(self.error_label)

    @property
    def shown_meanings(self) -> tuple[str, ...]:
        """What the meaning column shows of each row (shortened where the meaning is long)."""
        return tuple(self._shown_meanings)

    def show_entries(self, entries: Sequence[ParamEntry], source: str) -> None:
        """Replace the table with ``entries`` read from ``source`` and clear any error."""
        self.tree.delete(*self.tree.get_children())
        rows = tuple((entry.name, format_param_value(entry.value), entry.comment or "") for entry in entries)
        self._rows = rows
        self._shown_meanings = [self._meaning(comment) for _name, _value, comment in rows]
        for (name, value, _comment), meaning in zip(rows, self._shown_meanings, strict=True):
            self.tree.insert("", tk.END, values=(name, value, meaning))
        self.tree.configure(height=max(_MIN_VISIBLE_ROWS, min(len(rows), _MAX_VISIBLE_ROWS)))
        self._size_columns()
        self._wrap.show(
            self.source_label,
            _("{count} parameters from {source} (read-only)").format(count=len(rows), source=source),
            _write,
        )
        self._wrap.show(self.details_label, "", _write)
        self.show_error(None)

    def show_error(self, message: str | None) -> None:
        """Show why a file could not be used; the table keeps what it showed before."""
        self._wrap.show(self.error_label, message or "", _write)

    @property
    def details_text(self) -> str:
        return self._wrap.text(self.details_label)

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
        self._wrap.show(self.details_label, text, _write)

    # ----------------------------------------------------------------- widths

    def _size_columns(self) -> None:
        """Names and values as wide as the widest of them (or their heading), meanings the rest."""
        names = [row[0] for row in self._rows]
        values = [row[1] for row in self._rows]
        for column, texts in (("name", names), ("value", values)):
            width = max(self._cells.widest(texts), self._heading_font(self._headings[column]))
            self.tree.column(column, width=width + _CELL_PADDING, minwidth=width + _CELL_PADDING)
        # The table asks for room for a short meaning; squeezed, the column keeps its heading whole.
        heading = self._heading_font(self._headings["comment"]) + _CELL_PADDING
        self._meaning_request = max(MEANING_MIN_WIDTH, heading)
        self.tree.column("comment", width=self._meaning_request, minwidth=heading)
        if self.winfo_width() <= 1:
            # Until laid out, the labels wrap at the table's own width, so they ask for no more.
            natural = sum(int(self.tree.column(column, "width")) for column in COLUMNS) + _TREE_BORDERS
            self._wrap.set_width(natural)

    def natural_width(self) -> int:
        """The width the table asks for: whole names and values, the shortest meaning column, its
        scrollbar and margins.  It does not follow the width the table is given."""
        columns = sum(int(self.tree.column(column, "minwidth")) for column in ("name", "value"))
        columns += self._meaning_request
        return columns + _TREE_BORDERS + self._scrollbar.winfo_reqwidth() + 2 * _LABEL_MARGIN

    def _meaning(self, comment: str) -> str:
        if not comment or not self._meaning_width:
            return comment
        return fit_words(comment, self._meaning_width - _CELL_PADDING, self._cells)

    def _on_tree_resize(self, event: tk.Event[tk.Misc]) -> None:
        # The meaning column takes what the names and values leave of the visible width.
        fixed = sum(int(self.tree.column(column, "width")) for column in ("name", "value"))
        width = max(int(self.tree.column("comment", "minwidth")), int(event.width) - _TREE_BORDERS - fixed)
        if width == self._meaning_width:
            return
        self._meaning_width = width
        self.tree.column("comment", width=width)
        shown = [self._meaning(comment) for _name, _value, comment in self._rows]
        for item, before, after in zip(self.tree.get_children(), self._shown_meanings, shown, strict=False):
            if before != after:
                self.tree.set(item, "comment", after)
        self._shown_meanings = shown

    def _tooltip_text(self, _x: int, y: int) -> str:
        """The whole meaning of the row under the pointer, when the column shows only part of it."""
        item = self.tree.identify_row(y)
        if not item:
            return ""
        index = self.tree.index(item)
        if not 0 <= index < len(self._rows) or index >= len(self._shown_meanings):
            return ""
        comment = self._rows[index][2]
        return comment if comment != self._shown_meanings[index] else ""

    def _open_clicked(self) -> None:
        self._on_open()


def _write(widget: tk.Misc, option: str, value: object) -> bool:
    """Write one option straight to Tk (the table keeps no cache of what it shows)."""
    widget.configure({option: value})
    return True
