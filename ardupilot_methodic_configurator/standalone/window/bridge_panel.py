# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Collapsible sidecar panel showing what crosses the simulator-bridge UDP links.

A ttk.Treeview holds one parent row per link and one child row per direction; rows keep stable
ids (``link:<name>`` and ``link:<name>/<direction>``) and are rewritten in place only when their
formatted text changes, so a busy bridge costs a few string comparisons per tick.  One ``after()``
timer polls the monitor while the panel is active; while collapsed the latest snapshot is only
kept, and drawn when the panel opens again.

What each row and cell says is ``bridge_panel_rows``, how the width is shared among the
columns and what a cell shows of its text ``bridge_panel_columns``; this module is the widget:
the tree, its timer, rendering rows in place, and the lines above and below the tree.
The panel is a strip along the bottom of the window, as tall as its rows (at most
``MAX_TREE_ROWS``, then it scrolls) and as wide as the window, and it never scrolls sideways; a
cell that does not fit is shortened and the selected row is spelled out in full below the tree.
The summary, status and details lines wrap at the panel's width, never narrower than their
longest word, so Tk never has to break a word.  Collapsed, the panel is its header line alone;
the window collapses it while it shows only the program's own link and the person's toggle
overrides that for the rest of the session.
"""

from __future__ import annotations

import contextlib
import tkinter as tk
import tkinter.font as tkfont
from collections.abc import Callable
from tkinter import ttk
from typing import Protocol

from ... import _
from ...plugins.tk_kit.keys import BUTTON_STYLE, select_on_focus
from ...plugins.tk_kit.scrolling import grid_with_scrollbars
from ...plugins.tk_kit.text import TextMeasure
from ...plugins.tk_kit.ticks import TickTimer
from ...sim_bridge.snapshot import (
    BridgeSnapshot,
    Direction,
    LinkSnapshot,
)
from .bridge_panel_columns import CELL_PADDING, INDENT, TREE_COLUMN, ColumnWidths
from .bridge_panel_rows import (
    COLUMNS,
    column_headings,
    direction_item_id,
    direction_label,
    direction_values,
    link_item_id,
    link_values,
    summary_text,
)

DEFAULT_TICK_MS = 250
MAX_TREE_ROWS = 8
_TREE_STYLE = "BridgePanel.Treeview"
_MIN_WRAP = 80
_MEASURE_CACHE = 2048
_LABEL_MARGIN = 12

_EXPANDED_MARK = "▾"
_COLLAPSED_MARK = "▸"


class BridgeMonitorLike(Protocol):
    """What the panel needs from a bridge monitor."""

    def poll(self) -> BridgeSnapshot: ...


def _tree_font(tree: ttk.Treeview) -> tkfont.Font:
    name = str(ttk.Style(tree).lookup("Treeview", "font") or "TkDefaultFont")
    try:
        return tkfont.nametofont(name, root=tree)
    except tk.TclError:  # a font description rather than a named font
        return tkfont.Font(root=tree, font=name)


def _label_font(label: ttk.Label) -> tkfont.Font:
    name = str(label.cget("font") or ttk.Style(label).lookup("TLabel", "font") or "TkDefaultFont")
    try:
        return tkfont.nametofont(name, root=label)
    except tk.TclError:
        return tkfont.Font(root=label, font=name)


class BridgePanel(ttk.Frame):
    """Header toggle plus a tree of links and directions, refreshed from a ``BridgeMonitorLike``."""

    def __init__(
        self,
        parent: tk.Misc,
        monitor: BridgeMonitorLike,
        *,
        tick_ms: int = DEFAULT_TICK_MS,
        expanded: bool = True,
    ) -> None:
        super().__init__(parent)
        self._monitor = monitor
        self._timer = TickTimer(self, tick_ms, self._tick)
        self._destroyed = False
        self._expanded = expanded
        self._last_snapshot: BridgeSnapshot | None = None
        self._rendered_snapshot: BridgeSnapshot | None = None
        # Full (tree text, values) per item id, so unchanged rows never reach Tk, and what the
        # tree shows of them (fitted to the column widths).
        self._rows: dict[str, tuple[str, tuple[str, ...]]] = {}
        self._tree_rows: dict[str, tuple[str, tuple[str, ...]]] = {}
        self._row_order: list[str] = []
        self._drawn_links: dict[str, LinkSnapshot] = {}
        self._shown: dict[tuple[tk.Misc, str], object] = {}
        self._monitor_error: str | None = None
        # The tree's width once Tk has laid it out; until then cells show their full text.
        self._visible_width: int | None = None
        self._relayout_pending: str | None = None
        self._widths: dict[tuple[str, str], int] = {}
        self._label_fonts: dict[ttk.Label, tkfont.Font] = {}
        # The person's own choice of collapsed or expanded, which outranks the window's default.
        self._user_choice: bool | None = None
        # Per wrapping label: the room it had at the last relayout, and the wrap length it has.
        self._available: dict[ttk.Label, int] = {}
        self._wraps: dict[ttk.Label, int] = {}
        # Counts writes that reached Tk; lets tests and benchmarks see that idle renders are free.
        self.widget_updates = 0

        self.header = ttk.Frame(self)
        self.header.pack(fill=tk.X)
        self.toggle_button = ttk.Button(
            self.header, text=self._toggle_text(), command=self.toggle, style=BUTTON_STYLE
        )
        self.toggle_button.pack(side=tk.LEFT)
        self.summary = ttk.Label(self.header, text=_("no links"), justify=tk.LEFT)
        self.summary.pack(side=tk.LEFT, padx=8, fill=tk.X, expand=True)

        self.body = ttk.Frame(self)
        # Packed only while there is something to say, as is the details line.
        self.status = ttk.Label(self.body, text="", foreground="#c62828", justify=tk.LEFT)
        tree_frame = ttk.Frame(self.body)
        tree_frame.pack(fill=tk.BOTH, expand=True)
        ttk.Style(self).configure(_TREE_STYLE, indent=INDENT)
        self.tree = ttk.Treeview(
            tree_frame, columns=COLUMNS, height=1, selectmode=tk.BROWSE, style=_TREE_STYLE
        )
        self._font = _tree_font(self.tree)
        headings = TextMeasure.of(self.tree, "Heading")
        # Every column is at least as wide as its heading.
        minimum = {TREE_COLUMN: headings(_("Link / direction")) + CELL_PADDING}
        self.tree.heading(TREE_COLUMN, text=_("Link / direction"), anchor=tk.W)
        for column, heading in column_headings().items():
            self.tree.heading(column, text=heading, anchor=tk.W)
            minimum[column] = headings(heading) + CELL_PADDING
        for column, width in minimum.items():
            self.tree.column(column, width=width, minwidth=width, stretch=False)
        self._columns = ColumnWidths(minimum)
        grid_with_scrollbars(tree_frame, self.tree, horizontal=False)
        select_on_focus(self.tree)
        # Cells may be shortened; the selected row is spelled out in full here.
        self.details = ttk.Label(self.body, text="", justify=tk.LEFT, wraplength=900)
        self.tree.bind("<<TreeviewSelect>>", self._on_select)
        self.tree.bind("<Configure>", self._tree_resized, add="+")
        # The summary's room is what the button leaves of the header: follow all three.
        for widget in (self, self.header, self.toggle_button):
            widget.bind("<Configure>", self._schedule_relayout, add="+")
        if expanded:
            self.body.pack(fill=tk.BOTH, expand=True)

    # ----------------------------------------------------------------- collapse

    @property
    def expanded(self) -> bool:
        return self._expanded

    def _toggle_text(self) -> str:
        mark = _EXPANDED_MARK if self._expanded else _COLLAPSED_MARK
        return _("Simulator bridge {mark}").format(mark=mark)

    @property
    def user_choice(self) -> bool | None:
        """Expanded (True) or collapsed (False) as the person last chose, or None if never."""
        return self._user_choice

    def toggle(self) -> None:
        """The person's toggle: remembered, so the window's default never overrides it again."""
        self._user_choice = not self._expanded
        self.set_expanded(self._user_choice)

    def suggest_expanded(self, expanded: bool) -> None:
        """The window's default for what the panel shows, unless the person has chosen."""
        if self._user_choice is None:
            self.set_expanded(expanded)

    def set_expanded(self, expanded: bool) -> None:
        if expanded == self._expanded:
            return
        self._expanded = expanded
        self.toggle_button.configure(text=self._toggle_text())
        if expanded:
            self.body.pack(fill=tk.BOTH, expand=True)
            if self._last_snapshot is not None:
                self._render_tree(self._last_snapshot)
        else:
            self.body.pack_forget()

    # ----------------------------------------------------------------- lifecycle

    @property
    def timer_id(self) -> str | None:
        return self._timer.timer_id

    def on_activate(self) -> None:
        """Start polling; a second call keeps the one timer already scheduled."""
        self._timer.start()

    def on_deactivate(self) -> None:
        self._timer.stop()

    def on_suspend(self) -> None:
        self._timer.suspend()

    def on_resume(self) -> None:
        self._timer.resume()

    def destroy(self) -> None:
        self._timer.close()
        self._destroyed = True
        if self._relayout_pending is not None:
            with contextlib.suppress(tk.TclError):
                self.after_cancel(self._relayout_pending)
            self._relayout_pending = None
        super().destroy()

    def _tick(self) -> None:
        # The timer calls back only while active, not suspended and not destroyed; it re-arms itself.
        try:
            snapshot = self._monitor.poll()
        except Exception as error:  # a monitor fault must never break the UI loop
            self._set_status(
                _("Bridge monitor error: {error}").format(error=str(error) or type(error).__name__)
            )
        else:
            self._set_status(None)
            self._guarded(lambda: self.render(snapshot))

    def _guarded(self, action: Callable[[], None]) -> None:
        try:
            action()
        except Exception as error:  # a malformed snapshot is reported, not raised into Tk
            self._set_status(
                _("Cannot show bridge traffic: {error}").format(error=str(error) or type(error).__name__)
            )

    def _set_status(self, message: str | None) -> None:
        if message == self._monitor_error:
            return
        self._monitor_error = message
        self._set_option(self.status, "text", message or "")
        self._show_line(self.status, bool(message), before=self.tree.master)

    def _show_line(self, label: ttk.Label, shown: bool, **where: tk.Misc) -> None:
        # An empty line takes no height: the strip is as tall as what it says.
        if shown != bool(label.winfo_manager()):
            if shown:
                label.pack(fill=tk.X, anchor=tk.W, pady=(2, 0), **where)  # type: ignore[arg-type]
            else:
                label.pack_forget()

    # ----------------------------------------------------------------- rendering

    def render(self, snapshot: BridgeSnapshot) -> None:
        """Show ``snapshot``: header always, tree only while expanded (it catches up on expand)."""
        if self._destroyed:
            return
        self._last_snapshot = snapshot
        self._set_option(self.summary, "text", summary_text(snapshot))
        if self._expanded:
            self._render_tree(snapshot)

    def _render_tree(self, snapshot: BridgeSnapshot) -> None:
        if snapshot is self._rendered_snapshot:
            return
        wanted: list[str] = []
        changed = False
        for link in snapshot.links:
            link_id = link_item_id(link.name)
            directions = (
                (Direction.FROM_PEER,) if link.listen_only else (Direction.FROM_PEER, Direction.FROM_TARGET)
            )
            direction_ids = [direction_item_id(link.name, direction) for direction in directions]
            wanted.append(link_id)
            wanted.extend(direction_ids)
            # An unchanged link (equal snapshot, rows still present) is not even formatted.
            if self._drawn_links.get(link.name) == link and link_id in self._rows:
                continue
            name = link.name if link.running else _("{name} (stopped)").format(name=link.name)
            changed |= self._put_row(link_id, "", name, link_values(link))
            for direction, item_id in zip(directions, direction_ids, strict=True):
                counters = link.from_peer if direction is Direction.FROM_PEER else link.from_target
                changed |= self._put_row(
                    item_id, link_id, direction_label(link, direction), direction_values(link, counters)
                )
        self._drawn_links = {link.name: link for link in snapshot.links}
        wanted_set = set(wanted)
        for item_id in [item for item in self._row_order if item not in wanted_set]:
            # Children go with their parent; only delete what Tk still has.
            if self.tree.exists(item_id):
                self.tree.delete(item_id)
                self.widget_updates += 1
            self._rows.pop(item_id, None)
            self._tree_rows.pop(item_id, None)
            changed = True
        if wanted != self._row_order:
            self._reorder(snapshot)
            if len(wanted) != len(self._row_order):
                self.tree.configure(height=max(1, min(len(wanted), MAX_TREE_ROWS)))
                self.widget_updates += 1
            self._row_order = wanted
        self._rendered_snapshot = snapshot
        if changed:
            self._refresh_details()

    def _put_row(self, item_id: str, parent_id: str, text: str, values: tuple[str, ...]) -> bool:
        row = (text, values)
        previous = self._rows.get(item_id)
        if previous == row:
            return False
        self._rows[item_id] = row
        if self._columns.note(row, child=bool(parent_id), measure=self._measure):
            self._schedule_relayout()
        shown = self._fitted(row, child=bool(parent_id))
        if previous is None:
            self.tree.insert(parent_id, tk.END, iid=item_id, text=shown[0], values=shown[1], open=True)
        else:
            self.tree.item(item_id, text=shown[0], values=shown[1])
        self._tree_rows[item_id] = shown
        self.widget_updates += 1
        return True

    # ----------------------------------------------------------------- layout

    def _measure(self, text: str, font: tkfont.Font | None = None) -> int:
        # Names, reasons and words repeat tick after tick; each Tk call also yields the interpreter
        # lock to the busy relay threads, so a cached width saves more than the call itself.
        font = self._font if font is None else font
        key = (str(font), text)
        width = self._widths.get(key)
        if width is None:
            if len(self._widths) >= _MEASURE_CACHE:
                self._widths.clear()
            width = self._widths[key] = int(font.measure(text))
        return width

    def _fitted(self, row: tuple[str, tuple[str, ...]], *, child: bool) -> tuple[str, tuple[str, ...]]:
        """What the tree shows of a row: its full text until Tk has laid the tree out."""
        if self._visible_width is None:
            return row
        return self._columns.fitted(row, child=child, width_of=self._column_width, measure=self._measure)

    def _column_width(self, column: str) -> int:
        return int(self.tree.column(column, "width"))

    def row_texts(self, item_id: str) -> dict[str, str]:
        """The full texts of a row by column, however much of them the tree has room to show."""
        row = self._rows.get(item_id)
        if row is None:
            return {}
        return {TREE_COLUMN: row[0], **dict(zip(COLUMNS, row[1], strict=True))}

    @property
    def shown_columns(self) -> tuple[str, ...]:
        """The value columns the tree shows, most important first (the others are in the details)."""
        return self._columns.shown

    def _layout_columns(self, width: int) -> None:
        """Share ``width`` among the columns (``ColumnWidths.share``) and give the tree the result."""
        before = self._columns.shown
        widths = self._columns.share(width)
        if self._columns.shown != before:
            self.tree.configure(displaycolumns=self._columns.shown)
        for column, column_width in widths.items():
            if self._column_width(column) != column_width:
                minimum = min(column_width, self._columns.minimum[column])
                self.tree.column(column, width=column_width, minwidth=minimum)

    def _tree_resized(self, event: tk.Event[tk.Misc]) -> None:
        width = int(event.width)
        if width <= 1 or width == self._visible_width:
            return
        self._visible_width = width
        self._refit()

    def _refit(self) -> None:
        if self._visible_width is None:
            return
        self._layout_columns(self._visible_width)
        for item_id, row in self._rows.items():
            shown = self._fitted(row, child=bool(self.tree.parent(item_id)))
            if self._tree_rows.get(item_id) != shown and self.tree.exists(item_id):
                self.tree.item(item_id, text=shown[0], values=shown[1])
                self._tree_rows[item_id] = shown
                self.widget_updates += 1

    def _schedule_relayout(self, _event: object = None) -> None:
        # After every pending resize has been handled, so these wrap lengths are the last word.
        if self._relayout_pending is None and not self._destroyed:
            self._relayout_pending = self.after_idle(self._relayout)

    def _relayout(self) -> None:
        self._relayout_pending = None
        if self._destroyed:
            return
        # A column may have grown to a longer text since the last layout.
        self._refit()
        width = self.winfo_width()
        if width <= 1:
            return
        self._available[self.summary] = self.header.winfo_width() - self.toggle_button.winfo_width() - 2 * 8
        for label in (self.status, self.details):
            self._available[label] = width - _LABEL_MARGIN
        for label in (self.summary, self.status, self.details):
            # Someone else (the window) may have set a wrap length meanwhile: compare with Tk's.
            self._wraps[label] = int(str(label.cget("wraplength")) or 0)
            self._wrap(label, str(label.cget("text")))

    def _wrap(self, label: ttk.Label, text: str) -> None:
        """Wrap at the room the label has, but never inside a word: Tk would break a longer one.

        Called on every new text, so it reads no Tk state: widths come from the cache, the room
        and the current wrap length from the last relayout.
        """
        available = self._available.get(label)
        if available is None:
            return  # not laid out yet; the first relayout wraps it
        font = self._label_fonts.get(label)
        if font is None:
            font = self._label_fonts[label] = _label_font(label)
        longest = max((self._measure(word, font) for word in set(text.split())), default=0)
        wrap = max(_MIN_WRAP, available, longest)
        if self._wraps.get(label) != wrap:
            label.configure(wraplength=wrap)
            self._wraps[label] = wrap
            self.widget_updates += 1

    def _reorder(self, snapshot: BridgeSnapshot) -> None:
        for index, link in enumerate(snapshot.links):
            link_id = link_item_id(link.name)
            if self.tree.index(link_id) != index:
                self.tree.move(link_id, "", index)
                self.widget_updates += 1

    def _on_select(self, _event: tk.Event[tk.Misc] | None = None) -> None:
        self._refresh_details()

    def _refresh_details(self) -> None:
        selection = self.tree.selection()
        text = ""
        if selection and selection[0] in self._rows:
            name, values = self._rows[selection[0]]
            headings = column_headings()
            parts = [name] + [
                _("{heading}: {value}").format(heading=headings[column], value=value)
                for column, value in zip(COLUMNS, values, strict=True)
                if value
            ]
            # One paragraph, wrapped at the strip's width: a line per column would take the
            # height the receiver check above needs.
            text = " · ".join(parts)
        self._set_option(self.details, "text", text)
        self._show_line(self.details, bool(text))

    def _set_option(self, widget: tk.Misc, option: str, value: object) -> None:
        key = (widget, option)
        if key in self._shown and self._shown[key] == value:
            return
        self._shown[key] = value
        widget.configure({option: value})
        self.widget_updates += 1
        if option == "text" and isinstance(widget, ttk.Label) and widget in self._available:
            # A new text may hold a longer word than the wrap length allows for.
            self._wrap(widget, str(value))
