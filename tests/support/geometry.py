# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What a person would see cut off, read from Tk's own geometry: for tests on real windows.

`layout_problems` walks every shown widget of a window and says, in a sentence each, what is
clipped (a label, button or frame narrower or shorter than it asks for, or reaching past the widget
that holds it), which wrapped label would break inside a word (a word wider than its wrap length:
Tk then cuts it wherever the line ends), which tree column is narrower than its heading or its
text, and which tree scrolls sideways.  Widths are measured with each widget's own font.
"""

from __future__ import annotations

import contextlib
import tkinter as tk
import tkinter.font as tkfont
from collections.abc import Iterator
from tkinter import ttk

# Widgets that show a text and ask for the room it needs.
TEXT_CLASSES = frozenset(
    {
        "TLabel",
        "Label",
        "TButton",
        "Button",
        "TCheckbutton",
        "TRadiobutton",
        "TLabelframe",
        "TEntry",
        "TCombobox",
    }
)
# A tree cell pads its text on both sides.
CELL_PADDING = 8
# A tree's text column starts after the open/close indicator.
TREE_INDICATOR = 18


def _font(widget: tk.Misc, style_class: str) -> tkfont.Font:
    name = ""
    with contextlib.suppress(tk.TclError):
        name = str(widget.cget("font"))
    name = name or str(ttk.Style(widget).lookup(style_class, "font")) or "TkDefaultFont"
    try:
        return tkfont.nametofont(name, root=widget)
    except tk.TclError:
        return tkfont.Font(root=widget, font=name)


def shown_widgets(root: tk.Misc) -> Iterator[tk.Misc]:
    """Every widget of ``root``'s window that is shown now (not its other toplevels)."""
    pending: list[tk.Misc] = [root]
    while pending:
        widget = pending.pop()
        if widget is not root and isinstance(widget, tk.Toplevel):
            continue
        if not widget.winfo_viewable():
            continue
        yield widget
        pending.extend(widget.winfo_children())


def _scrolled(widget: tk.Misc) -> bool:
    """Inside a canvas (a scrolling area): its height may run past what the canvas shows."""
    current = widget.master
    while current is not None:
        if isinstance(current, tk.Canvas):
            return True
        current = current.master
    return False


def _name(widget: tk.Misc) -> str:
    text = ""
    with contextlib.suppress(tk.TclError):
        text = str(widget.cget("text"))
    return f"{widget.winfo_class()} {text[:50]!r} ({widget})"


def _wrap_problems(widget: tk.Misc) -> list[str]:
    try:
        wrap = int(float(str(widget.cget("wraplength")) or 0))
    except (tk.TclError, ValueError):
        return []
    if wrap <= 0:
        return []
    font = _font(widget, str(widget.winfo_class()))
    text = str(widget.cget("text"))
    return [
        f"{_name(widget)} wraps at {wrap} px inside the word {word!r} ({font.measure(word)} px)"
        for word in set(text.split())
        if int(font.measure(word)) > wrap
    ]


def _tree_problems(tree: ttk.Treeview) -> list[str]:
    problems: list[str] = []
    columns = list(tree.cget("displaycolumns"))
    if not columns or columns == ["#all"]:
        columns = list(tree.cget("columns"))
    if "tree" in str(tree.cget("show")):
        columns.insert(0, "#0")
    style = str(tree.cget("style")) or "Treeview"
    headings = _font(tree, "Heading")
    cells = tkfont.nametofont(str(ttk.Style(tree).lookup(style, "font") or "TkDefaultFont"), root=tree)
    indent = int(float(ttk.Style(tree).lookup(style, "indent") or 20))
    total = 0
    for column in columns:
        width = int(tree.column(column, "width"))
        total += width
        heading = str(tree.heading(column, "text"))
        if "headings" in str(tree.cget("show")) and headings.measure(heading) + CELL_PADDING > width:
            problems.append(
                f"the heading {heading!r} of {tree} is cut: {width} px for {headings.measure(heading)}"
            )
    first, last = (float(part) for part in tree.xview())
    if first > 0.0 or last < 1.0:
        problems.append(f"the columns of {tree} ({total} px) do not fit its width: it scrolls sideways")
    pending = list(tree.get_children(""))
    while pending:
        item = pending.pop()
        pending.extend(tree.get_children(item))
        if not tree.bbox(item):
            continue  # scrolled out of the tree's view, or inside a closed row
        depth = 0
        parent = tree.parent(item)
        while parent:
            depth += 1
            parent = tree.parent(parent)
        for column in columns:
            text = str(tree.item(item, "text")) if column == "#0" else str(tree.set(item, column))
            room = int(tree.column(column, "width")) - CELL_PADDING
            if column == "#0":
                room -= TREE_INDICATOR + depth * indent
            if text and cells.measure(text) > room:
                problems.append(
                    f"{text!r} is cut in column {column} of {tree}: {room} px for {cells.measure(text)}"
                )
    return problems


def layout_problems(root: tk.Misc) -> list[str]:
    """Everything of ``root``'s window that a person would see cut off, one sentence each."""
    root.update_idletasks()
    problems: list[str] = []
    for widget in shown_widgets(root):
        kind = str(widget.winfo_class())
        if isinstance(widget, ttk.Scrollbar) and str(widget.cget("orient")) == "horizontal":
            problems.append(f"{widget} is a horizontal scroll bar")
        if kind in TEXT_CLASSES:
            width, height = widget.winfo_width(), widget.winfo_height()
            if width < widget.winfo_reqwidth():
                problems.append(f"{_name(widget)} is {width} px wide for {widget.winfo_reqwidth()} it needs")
            if height < widget.winfo_reqheight():
                problems.append(f"{_name(widget)} is {height} px high for {widget.winfo_reqheight()} needed")
            if kind in ("TLabel", "Label"):
                problems.extend(_wrap_problems(widget))
        if isinstance(widget, ttk.Treeview):
            problems.extend(_tree_problems(widget))
        parent = widget.master
        if parent is None or isinstance(widget, tk.Toplevel):
            continue
        left, right = widget.winfo_rootx(), widget.winfo_rootx() + widget.winfo_width()
        if left < parent.winfo_rootx() or right > parent.winfo_rootx() + parent.winfo_width():
            problems.append(f"{_name(widget)} reaches past the side of {parent}")
        if not _scrolled(widget):
            top, bottom = widget.winfo_rooty(), widget.winfo_rooty() + widget.winfo_height()
            if top < parent.winfo_rooty() or bottom > parent.winfo_rooty() + parent.winfo_height():
                problems.append(f"{_name(widget)} reaches past the top or bottom of {parent}")
    return problems


def fully_in_view(widget: tk.Misc, area: tk.Misc) -> bool:
    """Whether all of ``widget`` lies inside what ``area`` (e.g. a scrolling canvas) shows."""
    return (
        widget.winfo_rooty() >= area.winfo_rooty()
        and widget.winfo_rooty() + widget.winfo_height() <= area.winfo_rooty() + area.winfo_height()
        and widget.winfo_rootx() >= area.winfo_rootx()
        and widget.winfo_rootx() + widget.winfo_width() <= area.winfo_rootx() + area.winfo_width()
    )
