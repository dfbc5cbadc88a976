# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What each row and cell of the bridge panel says, and how a cell shortens to fit its column.

Pure text from snapshots (no widgets): one parent row per link, one child row per direction, their
cells in ``COLUMNS`` order.  A cell holding a list of reasons is a ``Cell``, which shortens
itself by whole items and says how many more there are; names and other texts shorten by whole
words (``fit_words``, shared with every view).  Widths come from a ``measure`` function the panel passes in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ... import _
from ...plugins.tk_kit.text import ELLIPSIS, fit_words
from ...sim_bridge.protocols.names import AUTO
from ...sim_bridge.protocols.table import Bookkeeping, bookkeeping
from ...sim_bridge.snapshot import (
    BridgeSnapshot,
    Direction,
    DirectionSnapshot,
    LinkSnapshot,
)
from ...sim_bridge.texts import count_parts, frame_text, frame_warnings, loop_text

# The main figures come first, so they are what a narrow pane shows without scrolling.
COLUMNS = (
    "packets_per_s",
    "decode_errors",
    "age",
    "bytes_per_s",
    "protocol",
    "endpoints",
    "sequence",
    "senders",
    "last_frame",
    "warnings",
)


def column_headings() -> dict[str, str]:
    return {
        "protocol": _("Protocol"),
        "endpoints": _("Endpoints / sender"),
        "packets_per_s": _("Packets/s"),
        "bytes_per_s": _("Bytes/s"),
        "age": _("Last packet"),
        "decode_errors": _("Errors"),
        "sequence": _("Sequence checks"),
        "senders": _("Senders"),
        "last_frame": _("Last decoded frame"),
        "warnings": _("Warnings"),
    }


def link_item_id(link_name: str) -> str:
    return "link:" + link_name


def direction_item_id(link_name: str, direction: Direction) -> str:
    return "link:" + link_name + "/" + direction.value


class Cell(str):
    """A cell's full text that can shorten itself, by whole items, to fit a column.

    It is the full text wherever a string is used (row comparison, the details line); only the
    tree shows ``fitted()``: ``head`` plus as many ``items`` as fit, then how many more there are.
    """

    head: str = ""
    items: tuple[str, ...] = ()

    @classmethod
    def with_items(cls, full: str, items: Sequence[str], head: str = "") -> Cell:
        cell = cls(full)
        cell.head = head
        cell.items = tuple(items)
        return cell

    def fitted(self, width: int, measure: Callable[[str], int]) -> str:
        if not self.items or measure(self) <= width:
            return str(self)
        # As many whole items as fit, saying how many more there are, or only that there are more.
        for shown in range(len(self.items), 0, -1):
            rest = len(self.items) - shown
            tails = [[_("+{count} more").format(count=rest)], [ELLIPSIS]] if rest else [[]]
            for tail in tails:
                text = self.head + ", ".join([*self.items[:shown], *tail])
                if measure(text) <= width:
                    return text
        tail = [ELLIPSIS] if len(self.items) > 1 else []
        return self.head + ", ".join([self.items[0], *tail])


def fit(text: str, width: int, measure: Callable[[str], int]) -> str:
    """What a cell shows of ``text`` in ``width`` px: whole reasons of a list, else whole words."""
    if isinstance(text, Cell):
        return text.fitted(width, measure)
    return fit_words(text, width, measure) if text else text


def _protocol_text(link: LinkSnapshot) -> str:
    if link.detected_protocol is None:
        if link.protocol == AUTO:
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
    relay = count_parts(link.relay_errors)
    parts: list[str] = []
    items: list[str] = []
    loop = loop_text(link.loop)
    if loop:
        # First: a loop is what a person must act on (one of the targets is wrong).
        parts.append(loop)
        items.append(loop)
    if relay:
        parts.append(_("relay: {errors}").format(errors=", ".join(relay)))
        # Short of room the column alone says these are errors; the details line keeps "relay:".
        items.extend(relay)
    if link.dropped_captures:
        dropped = _("{count} captures dropped").format(count=link.dropped_captures)
        parts.append(dropped)
        items.append(dropped)
    return Cell.with_items("; ".join(parts), items)


def _sequence_text(protocol: str, counters: DirectionSnapshot) -> str:
    order = counters.order
    sitl = _("gaps {gaps}, repeats {repeats}, resets {resets}").format(
        gaps=order.frame_gaps, repeats=order.frame_repeats, resets=order.frame_resets
    )
    xrp = _("gaps {gaps}, stale {stale}").format(gaps=order.sequence_gaps, stale=order.stale_sequences)
    rflysim = _("checksum failures {count}").format(count=order.checksum_failures)
    kept = bookkeeping(protocol)
    if kept is not None:
        return {Bookkeeping.FRAME_COUNT: sitl, Bookkeeping.SEQUENCE: xrp, Bookkeeping.CHECKSUM: rflysim}[kept]
    # Protocol not known yet: show whichever bookkeeping has something to say.
    parts = []
    if order.frame_gaps or order.frame_repeats or order.frame_resets:
        parts.append(sitl)
    if order.sequence_gaps or order.stale_sequences:
        parts.append(xrp)
    if order.checksum_failures:
        parts.append(rflysim)
    return "; ".join(parts)


def direction_label(link: LinkSnapshot, direction: Direction) -> str:
    if link.listen_only:
        return _("received")
    if direction is Direction.FROM_PEER:
        return _("peer → target")
    return _("target → peer")


def direction_values(link: LinkSnapshot, counters: DirectionSnapshot) -> tuple[str, ...]:
    protocol = link.detected_protocol or link.protocol
    errors = str(counters.decode_error_total)
    if counters.decode_errors:
        reasons = count_parts(counters.decode_errors)
        head = _("{total}: ").format(total=counters.decode_error_total)
        errors = Cell.with_items(head + ", ".join(reasons), reasons, head)
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
        frame = frame_text(counters.last_frame)
        warnings = "; ".join(frame_warnings(counters.last_frame))
    return _in_column_order(
        protocol="",
        endpoints=_("from {sender}").format(sender=counters.last_sender) if counters.last_sender else "",
        packets_per_s=_("{rate:.1f}").format(rate=counters.packets_per_s),
        bytes_per_s=_("{rate:.0f}").format(rate=counters.bytes_per_s),
        age=age,
        decode_errors=errors,
        sequence=_sequence_text(protocol, counters),
        senders=senders,
        last_frame=frame,
        warnings=warnings,
    )


def _in_column_order(**cells: str) -> tuple[str, ...]:
    return tuple(cells[column] for column in COLUMNS)


def link_values(link: LinkSnapshot) -> tuple[str, ...]:
    unexpected = (
        _("unexpected senders: {count}").format(count=link.unexpected_senders)
        if link.unexpected_senders
        else ""
    )
    return _in_column_order(
        protocol=_protocol_text(link),
        endpoints=_endpoints_text(link),
        packets_per_s=_("{rate:.1f}").format(
            rate=link.from_peer.packets_per_s + link.from_target.packets_per_s
        ),
        bytes_per_s=_("{rate:.0f}").format(rate=link.from_peer.bytes_per_s + link.from_target.bytes_per_s),
        age="",
        decode_errors=_link_errors_text(link),
        sequence="",
        senders=unexpected,
        last_frame="",
        warnings="",
    )


def summary_text(snapshot: BridgeSnapshot) -> str:
    if not snapshot.links:
        return _("no links")
    packets = sum(link.from_peer.packets_per_s + link.from_target.packets_per_s for link in snapshot.links)
    errors = sum(
        link.from_peer.decode_error_total + link.from_target.decode_error_total for link in snapshot.links
    )
    loops = sum(link.loop.loops_cut for link in snapshot.links)
    if loops:
        return _("{links} links, {packets:.1f} packets/s, {errors} decode errors, {loops} loops cut").format(
            links=len(snapshot.links), packets=packets, errors=errors, loops=loops
        )
    return _("{links} links, {packets:.1f} packets/s, {errors} decode errors").format(
        links=len(snapshot.links), packets=packets, errors=errors
    )
