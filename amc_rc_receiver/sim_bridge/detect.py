# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Recognise which simulator protocol a datagram belongs to from its content alone.

The checks run from cheapest and most specific to most permissive, so the answer is
deterministic: SITL servo packets (exact size and magic), SITL JSON text (optional whitespace,
then ``{``, valid UTF-8), RflySim (exact length plus the checksum that length must carry), and
last XRP (a successful strict decode, since its header has no magic).  The same checks tell the
relay whether a datagram is good enough to learn the return peer from.  Every check does bounded
work on any datagram: the XRP decode stops at its block limit.
"""

from __future__ import annotations

import struct

from amc_rc_receiver.sim_bridge import rflysim, xrp
from amc_rc_receiver.sim_bridge.ardupilot_json import MAGIC_16, MAGIC_32
from amc_rc_receiver.sim_bridge.errors import CodecError

ARDUPILOT_JSON = "ardupilot-json"
RFLYSIM = "rflysim"
XRP = "xrp"
AUTO = "auto"

_SERVO_MAGIC_BY_LENGTH = {40: MAGIC_16, 72: MAGIC_32}
_HEAD = struct.Struct("<H")
_JSON_LEADING_SPACE = b" \t\r\n"


def is_servo_packet(data: bytes) -> bool:
    """Exactly 40 or 72 bytes with the matching little-endian magic."""
    magic = _SERVO_MAGIC_BY_LENGTH.get(len(data))
    return magic is not None and bool(_HEAD.unpack_from(data)[0] == magic)


def looks_like_json(data: bytes) -> bool:
    """Optional whitespace, then ``{``, and the whole datagram is UTF-8 text."""
    start = len(data) - len(data.lstrip(_JSON_LEADING_SPACE))
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


def detect_protocol(data: bytes) -> str | None:
    """The protocol name whose check ``data`` passes first, or None when none does."""
    if not data:
        return None
    if is_servo_packet(data) or looks_like_json(data):
        return ARDUPILOT_JSON
    if is_rflysim_packet(data):
        return RFLYSIM
    if is_xrp_packet(data):
        return XRP
    return None


def is_valid_peer_packet(protocol: str, data: bytes) -> bool:
    """Whether a datagram from the peer side is valid enough to learn the return peer from.

    SITL's peer sends servo packets; RflySim and XRP peers send their own protocol; for
    ``"auto"`` any non-empty datagram counts.
    """
    if not data:
        return False
    if protocol == ARDUPILOT_JSON:
        return is_servo_packet(data)
    if protocol == RFLYSIM:
        return is_rflysim_packet(data)
    if protocol == XRP:
        return is_xrp_packet(data)
    return True
