# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The one table of bridge protocols: per protocol, how to recognise, check and decode it.

Every part of the bridge asks this table rather than naming protocols itself: ``--bridge`` and
``RelayConfig`` take ``NAMES``, the relay learns its peer with ``is_valid_peer_packet`` and checks
each datagram with ``triage``, the monitor decodes frames with ``decode``, and the views pick the
sequence bookkeeping a protocol has with ``bookkeeping``.  Rows are in detection order, from
cheapest and most specific to most permissive (SITL's exact size and magic, then RflySim's exact
length and checksum, last XRP's strict decode), so ``detect_protocol`` is deterministic.  The
names themselves live in ``protocols.names``, which the codecs import too.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from ... import _
from . import ardupilot_json, rflysim, xrp
from .detect import (
    is_rflysim_packet,
    is_servo_packet,
    is_xrp_packet,
    looks_like_json,
)
from .errors import CodecError
from .names import ARDUPILOT_JSON, AUTO, RFLYSIM, XRP
from .sitl_servo_packet import SITL_JSON_BASE_PORT
from .triage import (
    REASON_DECODER_FAULT,
    REASON_UNRECOGNISED,
    Triage,
    check_ardupilot_json,
    check_rflysim,
    check_xrp,
)


class Bookkeeping(enum.Enum):
    """Which per-datagram order check a protocol allows (what the views' sequence column shows)."""

    FRAME_COUNT = "frame-count"  # SITL servo packets: gaps, repeats and resets of frame_count
    SEQUENCE = "sequence"  # XRP: gaps and stale sequence numbers
    CHECKSUM = "checksum"  # RflySim: only checksum failures


@dataclass(frozen=True)
class BridgeProtocol:
    """One row of the table.

    ``recognise`` says whether a datagram is of this protocol (for ``auto``); ``is_peer_packet``
    whether a datagram from the peer side is valid enough to learn the return peer from;
    ``check`` the cheap header check the relay runs on every datagram (it may raise
    ``CodecError``); ``decode`` the full decode of a datagram whose check passed.
    ``default_ports`` are where the simulator's side listens by default.
    """

    name: str
    recognise: Callable[[bytes], bool]
    is_peer_packet: Callable[[bytes], bool]
    check: Callable[[bytes], Triage]
    decode: Callable[[bytes], object]
    bookkeeping: Bookkeeping
    default_ports: tuple[int, ...]


def _is_sitl_datagram(data: bytes) -> bool:
    return is_servo_packet(data) or looks_like_json(data)


PROTOCOLS: tuple[BridgeProtocol, ...] = (
    BridgeProtocol(
        name=ARDUPILOT_JSON,
        recognise=_is_sitl_datagram,
        # SITL's side sends servo packets; JSON states come from the physics back end.
        is_peer_packet=is_servo_packet,
        check=check_ardupilot_json,
        decode=ardupilot_json.decode,
        bookkeeping=Bookkeeping.FRAME_COUNT,
        default_ports=(SITL_JSON_BASE_PORT,),
    ),
    BridgeProtocol(
        name=RFLYSIM,
        recognise=is_rflysim_packet,
        is_peer_packet=is_rflysim_packet,
        check=check_rflysim,
        decode=rflysim.decode,
        bookkeeping=Bookkeeping.CHECKSUM,
        default_ports=(rflysim.sil_port(1), rflysim.truesim_port(1)),
    ),
    BridgeProtocol(
        name=XRP,
        recognise=is_xrp_packet,
        is_peer_packet=is_xrp_packet,
        check=check_xrp,
        decode=xrp.decode,
        bookkeeping=Bookkeeping.SEQUENCE,
        default_ports=(xrp.XRP_PORT,),
    ),
)
_BY_NAME = {row.name: row for row in PROTOCOLS}
# What ``--bridge`` and ``RelayConfig`` accept: every protocol, then detection per datagram.
NAMES: tuple[str, ...] = (*_BY_NAME, AUTO)


def bookkeeping(name: str | None) -> Bookkeeping | None:
    """The order check of protocol ``name``; None for ``auto``, an unknown name or None."""
    row = _BY_NAME.get(name or "")
    return None if row is None else row.bookkeeping


def detect_protocol(data: bytes) -> str | None:
    """The first protocol, in table order, that recognises ``data``; None when none does."""
    if not data:
        return None
    for row in PROTOCOLS:
        if row.recognise(data):
            return row.name
    return None


def is_valid_peer_packet(protocol: str, data: bytes) -> bool:
    """Whether a datagram from the peer side is valid enough to learn the return peer from.

    For ``auto`` (or a name not in the table) any non-empty datagram counts.
    """
    if not data:
        return False
    row = _BY_NAME.get(protocol)
    return True if row is None else row.is_peer_packet(data)


def triage(protocol: str, data: bytes) -> Triage:
    """The header checks of ``data`` for ``protocol`` (``auto`` detects it first); never raises."""
    try:
        if protocol == AUTO:
            found = detect_protocol(data)
            if found is None:
                return Triage(None, REASON_UNRECOGNISED)
            protocol = found
        row = _BY_NAME.get(protocol)
        if row is None:
            return Triage(None, REASON_UNRECOGNISED)
        return row.check(data)
    except CodecError as error:
        return Triage(None, error.reason)
    except Exception:  # a codec bug must cost one count, not the relay thread
        return Triage(None, REASON_DECODER_FAULT)


def decode(protocol: str, data: bytes) -> object:
    """The full decode of a datagram whose header checks passed for ``protocol``."""
    row = _BY_NAME.get(protocol)
    if row is None:
        raise CodecError(
            _("no decoder for {protocol}").format(protocol=protocol),
            protocol=protocol,
            reason=REASON_UNRECOGNISED,
        )
    return row.decode(data)
