# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The step's parameter table on real Tk widgets: names and values whole, meanings as far as they
fit with the rest on the pointer and below the table, file names broken only after a separator.
"""

from __future__ import annotations

import tkinter as tk
import tkinter.font as tkfont
from tkinter import ttk

import pytest

from amc_rc_receiver.host.param_file import read_example_receiver_params
from amc_rc_receiver.host.parameter_table import ParameterTable
from amc_rc_receiver.plugins.tk_kit.text import ELLIPSIS
from tests.support.geometry import layout_problems
from tests.support.tk import pump_until

pytestmark = pytest.mark.tk

LONG_SOURCE = "/home/pilot/vehicles/quadcopter_with_a_long_name/05_remote_controller_receiver.param"


@pytest.fixture
def tk_geometry() -> str:
    return "480x640"


@pytest.fixture
def table(root: tk.Tk) -> ParameterTable:
    shown = ParameterTable(
        root,
        title="ArduCopter: step 05_remote_controller_receiver.param",
        description="Transmitter set-up, telemetry, outputs and the first motor tests need a receiver.",
        on_open=lambda: None,
    )
    shown.pack(fill=tk.BOTH, expand=True)
    shown.show_entries(read_example_receiver_params(), LONG_SOURCE)
    root.update()
    return shown


def cell_font(tree: ttk.Treeview) -> tkfont.Font:
    return tkfont.nametofont(str(ttk.Style(tree).lookup("Treeview", "font") or "TkDefaultFont"))


def test_names_and_values_are_whole_and_long_meanings_keep_whole_words_when_shown(
    table: ParameterTable,
) -> None:
    """GIVEN the bundled example in a 480 px wide step column WHEN shown THEN every name and value
    fits its column, each meaning is its comment or the comment's first words and an ellipsis,
    nothing is cut and nothing scrolls sideways."""
    tree = table.tree
    font = cell_font(tree)
    for item, (name, value, comment) in zip(tree.get_children(), table.rows, strict=True):
        for column, text in (("name", name), ("value", value)):
            assert tree.set(item, column) == text
            assert font.measure(text) + 8 <= int(tree.column(column, "width"))
        shown = str(tree.set(item, "comment"))
        assert shown == comment or (
            shown.endswith(ELLIPSIS) and comment.startswith(shown[:-2].rstrip(" ,;:"))
        )
        assert font.measure(shown) + 8 <= int(tree.column("comment", "width"))
    assert any(
        shown != comment for shown, (_n, _v, comment) in zip(table.shown_meanings, table.rows, strict=True)
    )
    assert layout_problems(table.winfo_toplevel()) == []


def test_the_pointer_on_a_shortened_meaning_tells_it_whole_when_it_rests_there(
    root: tk.Tk, table: ParameterTable
) -> None:
    """GIVEN a row whose meaning is shortened WHEN the pointer rests on it THEN a tooltip says the
    whole comment; selecting the row spells it out below the table as well."""
    tree = table.tree
    index = next(
        number
        for number, (shown, row) in enumerate(zip(table.shown_meanings, table.rows, strict=True))
        if shown != row[2]
    )
    item = tree.get_children()[index]
    x, y, _width, height = tree.bbox(item, "name")

    tree.event_generate("<Motion>", x=x + 4, y=y + height // 2)
    assert pump_until(root, lambda: table.tooltip.text == table.rows[index][2])

    tree.selection_set(item)
    root.update()
    name, value, comment = table.rows[index]
    assert table.details_text == f"{name} = {value}\n{comment}"


def test_a_long_file_name_wraps_only_after_a_separator_when_its_column_is_narrow(
    table: ParameterTable,
) -> None:
    """GIVEN the table's source line naming a file in a deep folder WHEN shown in the narrow column
    THEN the label wraps, no word of it is wider than its wrap length, and it still names the file."""
    label = table.source_label
    wrap = int(label.cget("wraplength"))
    font = tkfont.nametofont("TkDefaultFont")

    assert all(font.measure(word) <= wrap for word in str(label.cget("text")).split())
    assert LONG_SOURCE in table.source_text
    assert "".join(str(label.cget("text")).split()).find("".join(LONG_SOURCE.split())) >= 0


def test_the_width_the_table_asks_for_does_not_follow_the_width_it_is_given_when_widened(
    root: tk.Tk, table: ParameterTable
) -> None:
    """GIVEN the table WHEN its window is made twice as wide THEN the width it asks for (which the
    window gives it beside the receiver check) stays the same, so the two never push each other."""
    before = table.natural_width()
    root.geometry("960x640")
    assert pump_until(root, lambda: table.winfo_width() > 900)

    assert table.natural_width() == before
