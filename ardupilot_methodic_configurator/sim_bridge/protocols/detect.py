# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Recognise a simulator protocol's datagrams from their content alone, one check per protocol.

Each check does bounded work on any datagram: SITL servo packets (exact size and magic), SITL
JSON text (optional whitespace, then ``{``, valid UTF-8), RflySim (exact length plus the checksum
that length must carry), XRP (a successful strict decode, since its header has no magic; the
decode stops at its block limit).  The protocol table (``protocols``) orders them, from cheapest
and most specific to most permissive, to detect a datagram's protocol, and uses them to tell the
relay whether a datagram is good enough to learn the return peer from.
"""

from __future__ import annotations

import struct

from . import rflysim, xrp
from .ardupilot_json import JSON_WHITE_SPACE
from .errors import CodecError
from .sitl_servo_packet import MAGIC_16, MAGIC_32, SERVO_16_LENGTH, SERVO_32_LENGTH

_SERVO_MAGIC_BY_LENGTH = {SERVO_16_LENGTH: MAGIC_16, SERVO_32_LENGTH: MAGIC_32}
_HEAD = struct.Struct("<H")


def is_servo_packet(data: bytes) -> bool:
    """Exactly 40 or 72 bytes with the matching little-endian magic."""
    magic = _SERVO_MAGIC_BY_LENGTH.get(len(data))
    return magic is not None and bool(_HEAD.unpack_from(data)[0] == magic)


def looks_like_json(data: bytes) -> bool:
    """Optional whitespace, then ``{``, and the whole datagram is UTF-8 text."""
    start = len(data) - len(data.lstrip(JSON_WHITE_SPACE))
    if start >= len(data) or data[start] != 0x7B:  # "{"
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def is_rflysim_packet(data: bytes) -> bool:
    """A known RflySim length carrying the checksum (netDataShort: the len field) it requires.

    The codec's own table decides, so every datagram recognised here decodes, or is reported as
    recognised but not decoded, and never as an error.
    """
    return rflysim.packet_name(data) is not None


def is_xrp_packet(data: bytes) -> bool:
    """The strict XRP decoder accepts the datagram."""
    try:
        xrp.decode(data)
    except CodecError:
        return False
    return True
