# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Collapsible sidecar panel showing what crosses the simulator-bridge UDP links.

A ttk.Treeview holds one parent row per link and one child row per direction; rows keep stable
ids (``link:<name>`` and ``link:<name>/<direction>``) and are rewritten in place only when their
formatted text changes, so a busy bridge costs a few string comparisons per tick.  One ``after()``
timer polls the monitor while the panel is active; while collapsed the latest snapshot is only
kept, and drawn when the panel opens again.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable
from tkinter import ttk
from typing import Protocol

from amc_rc_receiver import _
from amc_rc_receiver.plugins.rc_receiver_scrollable import grid_with_scrollbars
from amc_rc_receiver.plugins.rc_receiver_tick_timer import TickTimer
from amc_rc_receiver.sim_bridge.snapshot import (
    BridgeSnapshot,
    Direction,
    DirectionSnapshot,
    LinkSnapshot,
)

DEFAULT_TICK_MS = 250

COLUMNS = (
    "protocol",
    "endpoints",
    "packets_per_s",
    "bytes_per_s",
    "age",
    "decode_errors",
    "sequence",
    "senders",
    "last_frame",
    "warnings",
)
_COLUMN_WIDTHS = {
    "protocol": 170,
    "endpoints": 260,
    "packets_per_s": 80,
    "bytes_per_s": 90,
    "age": 80,
    "decode_errors": 200,
    "sequence": 190,
    "senders": 170,
    "last_frame": 320,
    "warnings": 260,
}

PROTOCOL_SITL = "ardupilot-json"
PROTOCOL_RFLYSIM = "rflysim"
PROTOCOL_XRP = "xrp"

_EXPANDED_MARK = "▾"
_COLLAPSED_MARK = "▸"


class BridgeMonitorLike(Protocol):
    """What the panel needs from a bridge monitor."""

    def poll(self) -> BridgeSnapshot: ...


def _column_headings() -> dict[str, str]:
    return {
        "protocol": _("Protocol"),
        "endpoints": _("Endpoints / sender"),
        "packets_per_s": _("Packets/s"),
        "bytes_per_s": _("Bytes/s"),
        "age": _("Last packet"),
        "decode_errors": _("Decode errors"),
        "sequence": _("Sequence checks"),
        "senders": _("Senders"),
        "last_frame": _("Last decoded frame"),
        "warnings": _("Warnings"),
    }


def link_item_id(link_name: str) -> str:
    return "link:" + link_name


def direction_item_id(link_name: str, direction: Direction) -> str:
    return "link:" + link_name + "/" + direction.value


def _counts_text(pairs: tuple[tuple[str, int], ...]) -> str:
    return ", ".join(_("{reason} ×{count}").format(reason=reason, count=count) for reason, count in pairs)


def _protocol_text(link: LinkSnapshot) -> str:
    if link.detected_protocol is None:
        if link.protocol == "auto":
            return _("auto (not detected yet)")
        return link.protocol
    if link.detected_protocol == link.protocol:
        return link.protocol
    return _("{protocol} (detected: {detected})").format(
        protocol=link.protocol, detected=link.detected_protocol
    )


def _endpoints_text(link: LinkSnapshot) -> str:
    if link.listen_only or link.target is None:
        return _("listen {listen} (listen only)").format(listen=link.listen)
    return _("listen {listen} → target {target}, peer {peer}").format(
        listen=link.listen, target=link.target, peer=link.peer or _("not learned yet")
    )


def _link_errors_text(link: LinkSnapshot) -> str:
    parts: list[str] = []
    if link.relay_errors:
        parts.append(_("relay: {errors}").format(errors=_counts_text(link.relay_errors)))
    if link.dropped_captures:
        parts.append(_("{count} captures dropped").format(count=link.dropped_captures))
    return "; ".join(parts)


def _sequence_text(protocol: str, counters: DirectionSnapshot) -> str:
    sitl = _("gaps {gaps}, repeats {repeats}, resets {resets}").format(
        gaps=counters.frame_gaps, repeats=counters.frame_repeats, resets=counters.frame_resets
    )
    xrp = _("gaps {gaps}, stale {stale}").format(gaps=counters.sequence_gaps, stale=counters.stale_sequences)
    rflysim = _("checksum failures {count}").format(count=counters.checksum_failures)
    if protocol == PROTOCOL_SITL:
        return sitl
    if protocol == PROTOCOL_XRP:
        return xrp
    if protocol == PROTOCOL_RFLYSIM:
        return rflysim
    # Protocol not known yet: show whichever bookkeeping has something to say.
    parts = []
    if counters.frame_gaps or counters.frame_repeats or counters.frame_resets:
        parts.append(sitl)
    if counters.sequence_gaps or counters.stale_sequences:
        parts.append(xrp)
    if counters.checksum_failures:
        parts.append(rflysim)
    return "; ".join(parts)


def _direction_label(link: LinkSnapshot, direction: Direction) -> str:
    if link.listen_only:
        return _("received")
    if direction is Direction.FROM_PEER:
        return _("peer → target")
    return _("target → peer")


def _direction_values(link: LinkSnapshot, counters: DirectionSnapshot) -> tuple[str, ...]:
    protocol = link.detected_protocol or link.protocol
    errors = str(counters.decode_error_total)
    if counters.decode_errors:
        errors = _("{total}: {reasons}").format(
            total=counters.decode_error_total, reasons=_counts_text(counters.decode_errors)
        )
    age = (
        _("never")
        if counters.last_packet_age_s is None
        else _("{age:.1f} s ago").format(age=counters.last_packet_age_s)
    )
    senders = str(counters.senders_seen)
    if counters.multiple_senders:
        senders = _("{count} (more than one!)").format(count=counters.senders_seen)
    frame = ""
    warnings = ""
    if counters.last_frame is not None:
        fields = ", ".join(
            _("{label}={value}").format(label=label, value=value)
            for label, value in counters.last_frame.fields
        )
        frame = counters.last_frame.kind + (": " + fields if fields else "")
        warnings = "; ".join(counters.last_frame.warnings)
    return (
        "",
        _("from {sender}").format(sender=counters.last_sender) if counters.last_sender else "",
        _("{rate:.1f}").format(rate=counters.packets_per_s),
        _("{rate:.0f}").format(rate=counters.bytes_per_s),
        age,
        errors,
        _sequence_text(protocol, counters),
        senders,
        frame,
        warnings,
    )


def _link_values(link: LinkSnapshot) -> tuple[str, ...]:
    unexpected = (
        _("unexpected senders: {count}").format(count=link.unexpected_senders)
        if link.unexpected_senders
        else ""
    )
    return (
        _protocol_text(link),
        _endpoints_text(link),
        _("{rate:.1f}").format(rate=link.from_peer.packets_per_s + link.from_target.packets_per_s),
        _("{rate:.0f}").format(rate=link.from_peer.bytes_per_s + link.from_target.bytes_per_s),
        "",
        _link_errors_text(link),
        "",
        unexpected,
        "",
        "",
    )


def _summary_text(snapshot: BridgeSnapshot) -> str:
    if not snapshot.links:
        return _("no links")
    packets = sum(link.from_peer.packets_per_s + link.from_target.packets_per_s for link in snapshot.links)
    errors = sum(
        link.from_peer.decode_error_total + link.from_target.decode_error_total for link in snapshot.links
    )
    return _("{links} links, {packets:.1f} packets/s, {errors} decode errors").format(
        links=len(snapshot.links), packets=packets, errors=errors
    )


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
        # (tree text, values) per item id, so unchanged rows never reach Tk.
        self._rows: dict[str, tuple[str, tuple[str, ...]]] = {}
        self._row_order: list[str] = []
        self._drawn_links: dict[str, LinkSnapshot] = {}
        self._shown: dict[tuple[tk.Misc, str], object] = {}
        self._monitor_error: str | None = None
        # Counts writes that reached Tk; lets tests and benchmarks see that idle renders are free.
        self.widget_updates = 0

        header = ttk.Frame(self)
        header.pack(fill=tk.X)
        self.toggle_button = ttk.Button(header, text=self._toggle_text(), command=self.toggle)
        self.toggle_button.pack(side=tk.LEFT)
        self.summary = ttk.Label(header, text=_("no links"))
        self.summary.pack(side=tk.LEFT, padx=8)

        self.body = ttk.Frame(self)
        self.status = ttk.Label(self.body, text="", foreground="#c62828")
        self.status.pack(fill=tk.X, anchor=tk.W)
        tree_frame = ttk.Frame(self.body)
        tree_frame.pack(fill=tk.BOTH, expand=True)
        self.tree = ttk.Treeview(tree_frame, columns=COLUMNS, height=8, selectmode=tk.BROWSE)
        self.tree.heading("#0", text=_("Link / direction"), anchor=tk.W)
        self.tree.column("#0", width=180, stretch=False)
        for column, heading in _column_headings().items():
            self.tree.heading(column, text=heading, anchor=tk.W)
            self.tree.column(column, width=_COLUMN_WIDTHS[column], stretch=False, anchor=tk.W)
        grid_with_scrollbars(tree_frame, self.tree)
        # Columns are narrow; the selected row is spelled out in full here.
        self.details = ttk.Label(self.body, text="", justify=tk.LEFT, wraplength=900)
        self.details.pack(fill=tk.X, anchor=tk.W, pady=(2, 0))
        self.tree.bind("<<TreeviewSelect>>", self._on_select)
        if expanded:
            self.body.pack(fill=tk.BOTH, expand=True)

    # ----------------------------------------------------------------- collapse

    @property
    def expanded(self) -> bool:
        return self._expanded

    def _toggle_text(self) -> str:
        mark = _EXPANDED_MARK if self._expanded else _COLLAPSED_MARK
        return _("Simulator bridge {mark}").format(mark=mark)

    def toggle(self) -> None:
        self.set_expanded(not self._expanded)

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

    # ----------------------------------------------------------------- rendering

    def render(self, snapshot: BridgeSnapshot) -> None:
        """Show ``snapshot``: header always, tree only while expanded (it catches up on expand)."""
        if self._destroyed:
            return
        self._last_snapshot = snapshot
        self._set_option(self.summary, "text", _summary_text(snapshot))
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
            changed |= self._put_row(link_id, "", name, _link_values(link))
            for direction, item_id in zip(directions, direction_ids, strict=True):
                counters = link.from_peer if direction is Direction.FROM_PEER else link.from_target
                changed |= self._put_row(
                    item_id, link_id, _direction_label(link, direction), _direction_values(link, counters)
                )
        self._drawn_links = {link.name: link for link in snapshot.links}
        wanted_set = set(wanted)
        for item_id in [item for item in self._row_order if item not in wanted_set]:
            # Children go with their parent; only delete what Tk still has.
            if self.tree.exists(item_id):
                self.tree.delete(item_id)
                self.widget_updates += 1
            self._rows.pop(item_id, None)
            changed = True
        if wanted != self._row_order:
            self._reorder(snapshot)
            self._row_order = wanted
        self._rendered_snapshot = snapshot
        if changed:
            self._refresh_details()

    def _put_row(self, item_id: str, parent_id: str, text: str, values: tuple[str, ...]) -> bool:
        row = (text, values)
        previous = self._rows.get(item_id)
        if previous == row:
            return False
        if previous is None:
            self.tree.insert(parent_id, tk.END, iid=item_id, text=text, values=values, open=True)
        else:
            self.tree.item(item_id, text=text, values=values)
        self._rows[item_id] = row
        self.widget_updates += 1
        return True

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
            headings = _column_headings()
            lines = [name] + [
                _("{heading}: {value}").format(heading=headings[column], value=value)
                for column, value in zip(COLUMNS, values, strict=True)
                if value
            ]
            text = "\n".join(lines)
        self._set_option(self.details, "text", text)

    def _set_option(self, widget: tk.Misc, option: str, value: object) -> None:
        key = (widget, option)
        if key in self._shown and self._shown[key] == value:
            return
        self._shown[key] = value
        widget.configure({option: value})
        self.widget_updates += 1
