# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The bridge panel's layout inside the real window, measured on real Tk widgets under Xvfb.

A person must read the main figures (packets/s, decode errors with their reason) without scrolling
sideways, read the whole summary, and never see a word cut in two, at the window's default size and
on a 1280x720 screen.  Everything is measured from Tk's own geometry (``winfo_*``, the tree's cell
boxes) and from the fonts' own text widths.
"""

from __future__ import annotations

import tkinter as tk
import tkinter.font as tkfont
from collections.abc import Iterator
from tkinter import ttk

import pytest

from amc_rc_receiver.sim_bridge.snapshot import Direction
from amc_rc_receiver.standalone.session import VehicleSession
from amc_rc_receiver.standalone.window.bridge_panel import BridgePanel
from amc_rc_receiver.standalone.window.bridge_panel_rows import direction_item_id, link_item_id
from amc_rc_receiver.standalone.window.geometry import DEFAULT_GEOMETRY
from amc_rc_receiver.standalone.window.window import StandaloneWindow
from tests.support.bridge_snapshots import BUSY_SNAPSHOT as SNAPSHOT
from tests.support.tk import pump_until

pytestmark = pytest.mark.tk

# Treeview cells keep a few pixels of padding on each side of their text.
_CELL_PADDING = 8


@pytest.fixture(params=[DEFAULT_GEOMETRY, "1280x720"])
def tk_geometry(request: pytest.FixtureRequest) -> str:
    """The ``root`` window at each size the panel must fit."""
    return str(request.param)


@pytest.fixture
def window(root: tk.Tk, tk_geometry: str) -> Iterator[StandaloneWindow]:
    built = StandaloneWindow(root, VehicleSession(), port_lister=list, connect_timeout=1.0)
    built.bridge_panel.on_deactivate()  # the session has no relays: show the hand-made snapshot instead
    built.bridge_panel.toggle()  # opened by the person, as the window keeps it closed without bridges
    built.bridge_panel.render(SNAPSHOT)
    size = tuple(int(part) for part in tk_geometry.split("x"))
    assert pump_until(root, lambda: (root.winfo_width(), root.winfo_height()) == size)
    root.update()
    yield built
    built.close()


def tree_text_width(tree: ttk.Treeview, text: str) -> int:
    font = tkfont.nametofont(str(ttk.Style(tree).lookup("Treeview", "font") or "TkDefaultFont"))
    return int(font.measure(text))


def label_font(label: tk.Misc) -> tkfont.Font:
    name = str(label.cget("font")) or str(ttk.Style(label).lookup("TLabel", "font")) or "TkDefaultFont"
    return tkfont.nametofont(name)


def longest_word(label: tk.Misc) -> int:
    font = label_font(label)
    words = str(label.cget("text")).split()
    return max((int(font.measure(word)) for word in words), default=0)


def assert_inside(inner: tk.Misc, outer: tk.Misc) -> None:
    assert inner.winfo_rootx() >= outer.winfo_rootx()
    assert inner.winfo_rootx() + inner.winfo_width() <= outer.winfo_rootx() + outer.winfo_width()


def test_packets_per_second_and_decode_errors_show_without_scrolling_sideways(
    window: StandaloneWindow,
) -> None:
    """GIVEN three busy links with decode errors and relay errors in the window's bridge strip, opened
    WHEN the window has its default size or 1280x720
    THEN the packets/s and decode-error cells of every row lie inside the visible tree, wide enough for
    their whole text, with the tree scrolled fully left."""
    panel: BridgePanel = window.bridge_panel
    tree = panel.tree
    visible = tree.winfo_width()
    assert tree.xview()[0] == 0.0
    assert_inside(panel, window.root)

    for link in SNAPSHOT.links:
        rows = [link_item_id(link.name)] + [
            direction_item_id(link.name, direction)
            for direction in (Direction.FROM_PEER, Direction.FROM_TARGET)
        ]
        for row in rows:
            for column in ("packets_per_s", "decode_errors"):
                box = tree.bbox(row, column)
                assert box, f"{column} of {row} is not visible"
                x, _y, width, _height = box
                assert x + width <= visible, f"{column} of {row} runs past the visible width {visible}"
                text = str(tree.set(row, column))
                assert tree_text_width(tree, text) + _CELL_PADDING <= width, f"{text!r} is cut in {column}"


def test_the_summary_is_whole_and_wrapped_labels_never_cut_a_word(window: StandaloneWindow) -> None:
    """GIVEN the busy bridge panel WHEN the window has its default size or 1280x720
    THEN the summary shows all of its text inside the panel, and every label that wraps wraps wider
    than its longest word, so Tk never has to break a word in two."""
    panel = window.bridge_panel
    panel.tree.selection_set(direction_item_id("SITL JSON (demo)", Direction.FROM_PEER))
    window.root.update()
    summary = panel.summary

    assert "decode errors" in str(summary.cget("text"))
    assert summary.winfo_width() >= summary.winfo_reqwidth()
    assert summary.winfo_height() >= summary.winfo_reqheight()
    assert_inside(summary, panel)
    for label in (summary, panel.details, panel.status):
        wrap = int(str(label.cget("wraplength")).rstrip("p") or 0)
        if wrap:
            assert longest_word(label) <= wrap, f"{label} wraps at {wrap} px inside a word"
            assert wrap <= panel.winfo_width()
