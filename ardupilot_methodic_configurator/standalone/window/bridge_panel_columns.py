# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""How the bridge panel's width is shared among its tree's columns, and what a cell shows of its text.

The panel never scrolls sideways: every column is at least as wide as its heading, the columns
are shown in order of importance (packets/s, then decode errors with their reasons, the link's
name, ...) as far as their headings fit, and what is left of the width goes to them in that
order, each up to the widest text it has shown (and never beyond its cap, so the rest of the
width reaches the columns further right).  The packet rate, the decode errors and the names are
shown whole even if the least important columns must leave the tree for them; the panel's details
line still has those.  A cell that does not fit its column shows its whole words, or its whole
reasons saying how many more there are (``bridge_panel_rows.fit``).

No widgets here: widths come in as numbers and text widths from a ``measure`` function the
panel passes in, which caches Tk's measurements.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ...plugins.tk_kit.text import fit_words
from .bridge_panel_rows import COLUMNS, fit

TREE_COLUMN = "#0"
# Treeview cells pad their text on both sides; a text must fit inside that.
CELL_PADDING = 10
# A row's text in the tree column starts after its open/close indicator, and a direction row's
# one indent further; the indent is kept small, since the tree column is narrow.
INDICATOR = 18
INDENT = 12
# The tree's border, on both sides, is part of its width but shows no cells.
TREE_BORDERS = 4

# Who gets the width first (the columns are in order of importance, the link's name after the
# two main figures), and the columns whose texts are shown whole even if the least important
# columns must leave the tree for them.
IMPORTANCE = (*COLUMNS[:2], TREE_COLUMN, *COLUMNS[2:])
_WHOLE = frozenset(IMPORTANCE[:3])
# The widest each column grows to, however long its texts: the rest of the width goes further right.
_COLUMN_CAPS = {
    TREE_COLUMN: 240,
    "packets_per_s": 100,
    "decode_errors": 360,
    "age": 120,
    "bytes_per_s": 110,
    "protocol": 240,
    "endpoints": 440,
    "sequence": 280,
    "senders": 200,
    "last_frame": 520,
    "warnings": 360,
}

Row = tuple[str, tuple[str, ...]]
Measure = Callable[[str], int]


class ColumnWidths:
    """Per column: its least width (the heading's), the widest text it has shown, the columns shown."""

    def __init__(self, minimum: Mapping[str, int]) -> None:
        self.minimum = dict(minimum)
        self._natural = dict(minimum)
        # The length of the longest text each column has shown: a text no longer is not measured.
        self._seen_length: dict[str, int] = {}
        self.shown: tuple[str, ...] = COLUMNS

    def natural(self, column: str) -> int:
        """The width the column's widest text so far needs (capped), never less than its heading."""
        return self._natural[column]

    def note(self, row: Row, *, child: bool, measure: Measure) -> bool:
        """Grow the columns' natural widths to this row's texts; True if one grew.

        Only a text longer than any the column has shown is measured, so the figures that change
        every tick cost a length comparison.
        """
        text, values = row
        grew = False
        offset = INDICATOR + (INDENT if child else 0) + CELL_PADDING
        cells = [(TREE_COLUMN, text, offset)]
        cells += [(column, value, CELL_PADDING) for column, value in zip(COLUMNS, values, strict=True)]
        for column, value, extra in cells:
            if len(value) <= self._seen_length.get(column, 0):
                continue
            self._seen_length[column] = len(value)
            natural = min(_COLUMN_CAPS[column], measure(value) + extra)
            if natural > self._natural[column]:
                self._natural[column] = natural
                grew = True
        return grew

    def share(self, width: int) -> dict[str, int]:
        """Share a tree ``width`` among the columns; sets ``shown`` to the value columns that fit.

        Every heading whole; the packet rate, the decode errors and the names whole too, for which
        the least important columns give way; what is left goes to the others in order of
        importance, none wider than its widest text, and the last shown column takes the rest.
        """
        available = width - TREE_BORDERS
        order = [TREE_COLUMN, *COLUMNS]
        while len(order) > 2 and sum(self.minimum[column] for column in order) > available:
            order.pop()
        widths = {column: self.minimum[column] for column in order}
        for column in IMPORTANCE:
            if column not in widths:
                continue
            want = self._natural[column] - widths[column]
            if column in _WHOLE:
                while available - sum(widths.values()) < want and order[-1] not in _WHOLE:
                    del widths[order.pop()]
            widths[column] += min(max(0, want), max(0, available - sum(widths.values())))
        spare = available - sum(widths.values())
        if spare > 0:
            widths[order[-1]] += spare
        self.shown = tuple(order[1:])
        return widths

    def fitted(self, row: Row, *, child: bool, width_of: Callable[[str], int], measure: Measure) -> Row:
        """What the tree shows of a row: cells cut, by whole words or reasons, to their column's
        width (``width_of``, as the tree has it now); hidden columns keep their full text."""
        text, values = row
        shown = self.shown
        cells = tuple(
            fit(value, width_of(column) - CELL_PADDING, measure) if column in shown else value
            for column, value in zip(COLUMNS, values, strict=True)
        )
        offset = INDICATOR + (INDENT if child else 0)
        return fit_words(text, width_of(TREE_COLUMN) - offset - CELL_PADDING, measure), cells
