# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""How the bridge panel shares its width among the columns, without a widget: a text is as wide
as its number of characters times 7 px here, and headings are given as widths."""

from __future__ import annotations

import pytest

from amc_rc_receiver.standalone.window.bridge_panel_columns import (
    CELL_PADDING,
    IMPORTANCE,
    INDENT,
    INDICATOR,
    TREE_BORDERS,
    TREE_COLUMN,
    ColumnWidths,
)
from amc_rc_receiver.standalone.window.bridge_panel_rows import COLUMNS

pytestmark = pytest.mark.pure

HEADING = 60
MEASURED: list[str] = []


def measure(text: str) -> int:
    MEASURED.append(text)
    return 7 * len(text)


def columns() -> ColumnWidths:
    return ColumnWidths(dict.fromkeys((TREE_COLUMN, *COLUMNS), HEADING))


def row(name: str, **cells: str) -> tuple[str, tuple[str, ...]]:
    return name, tuple(cells.get(column, "") for column in COLUMNS)


def test_a_wide_panel_shows_every_column_and_the_last_one_takes_what_is_left() -> None:
    """GIVEN columns whose texts need less than the panel's width
    WHEN the width is shared THEN every column is shown, each as wide as its widest text (at
    least its heading), and the last one takes the rest."""
    widths = columns()
    widths.note(
        row("ardupilot-json 127.0.0.1:9002", decode_errors="3: wrong magic ×3"), child=False, measure=measure
    )

    shared = widths.share(3000)

    assert widths.shown == COLUMNS
    assert shared["decode_errors"] == 7 * len("3: wrong magic ×3") + CELL_PADDING
    assert shared["packets_per_s"] == HEADING
    assert sum(shared.values()) == 3000 - TREE_BORDERS
    assert shared[COLUMNS[-1]] > HEADING


def test_a_narrow_panel_keeps_the_main_figures_and_names_whole_and_drops_the_least_important() -> None:
    """GIVEN long names and reasons and a panel too narrow for every heading
    WHEN the width is shared THEN the least important columns leave the tree first, and the packet
    rate, the decode errors and the names keep the width their texts need."""
    widths = columns()
    widths.note(row("x" * 20, decode_errors="y" * 30, packets_per_s="1200.0"), child=False, measure=measure)

    shared = widths.share(600)

    assert widths.shown == tuple(column for column in COLUMNS if column in shared)
    assert widths.shown[:2] == IMPORTANCE[:2]
    assert len(widths.shown) < len(COLUMNS)
    assert shared["decode_errors"] == 7 * 30 + CELL_PADDING
    assert shared[TREE_COLUMN] >= 7 * 20
    assert sum(shared.values()) <= 600 - TREE_BORDERS


def test_only_a_text_longer_than_any_before_is_measured_and_widths_stop_at_their_cap() -> None:
    """GIVEN a column that has shown a text WHEN a row of no longer texts is noted
    THEN nothing is measured and nothing grows; a far longer text grows the column to its cap only."""
    widths = columns()
    assert widths.note(row("link", age="0.1 s ago"), child=False, measure=measure)
    MEASURED.clear()

    assert not widths.note(row("link", age="0.2 s ago"), child=False, measure=measure)
    assert MEASURED == []
    assert widths.note(row("link", age="z" * 200), child=False, measure=measure)
    assert widths.natural("age") == 120


def test_a_cell_is_cut_by_whole_words_to_its_column_and_hidden_columns_keep_their_text() -> None:
    """GIVEN shared widths that hide the last columns WHEN a row is fitted
    THEN a shown cell keeps whole words within its column and a hidden one its full text."""
    widths = columns()
    shared = widths.share(500)
    assert "protocol" in widths.shown
    hidden = next(column for column in COLUMNS if column not in widths.shown)
    text = "listen 127.0.0.1:9002 → target 127.0.0.1:9012, peer not learned yet"
    cells = {"protocol": text, hidden: text}

    name, values = widths.fitted(
        row("ardupilot-json 127.0.0.1:9002", **cells), child=True, width_of=shared.get, measure=measure
    )

    fitted = dict(zip(COLUMNS, values, strict=True))
    assert fitted[hidden] == text
    assert fitted["protocol"] != text
    assert 7 * len(fitted["protocol"]) <= shared["protocol"] - CELL_PADDING
    # The name's room is the column less its indicator, a direction row's indent and the padding.
    assert 7 * len(name) <= shared[TREE_COLUMN] - INDICATOR - INDENT - CELL_PADDING
    assert "ardupilot-json 127.0.0.1:9002".startswith(name.rstrip("…"))
