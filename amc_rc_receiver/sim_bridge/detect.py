# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Recognise which simulator protocol a datagram belongs to from its content alone.

The checks run from cheapest and most specific to most permissive, so the answer is
deterministic: SITL servo packets (exact size and magic), SITL JSON text (optional whitespace,
then ``{``, valid UTF-8), RflySim (exact length plus the checksum that length must carry), and
last XRP (a successful strict decode, since its header has no magic).  The same checks tell the
relay whether a datagram is good enough to learn the return peer from.
"""

from __future__ import annotations

import struct

from amc_rc_receiver.sim_bridge import xrp
from amc_rc_receiver.sim_bridge.ardupilot_json import MAGIC_16, MAGIC_32
from amc_rc_receiver.sim_bridge.errors import CodecError
from amc_rc_receiver.sim_bridge.rflysim import SIL_CHECKSUM, TRUE_STATE_CHECKSUM

ARDUPILOT_JSON = "ardupilot-json"
RFLYSIM = "rflysim"
XRP = "xrp"
AUTO = "auto"

_SERVO_MAGIC_BY_LENGTH = {40: MAGIC_16, 72: MAGIC_32}
_HEAD = struct.Struct("<H")
_I32 = struct.Struct("<i")
_JSON_LEADING_SPACE = b" \t\r\n"

# RflySim dispatches on exact length, then on the leading int32 checksum (PROTOCOLS.md C.3/C.4).
_IN_CTRL_EXT = frozenset(range(1234567801, 1234567806))
_RFLYSIM_CHECKSUMS: dict[int, frozenset[int]] = {
    120: frozenset({SIL_CHECKSUM}) | _IN_CTRL_EXT,  # PX4SILIntFloat, InCtrlExt1..5
    232: frozenset({SIL_CHECKSUM}) | _IN_CTRL_EXT | {c + 100 for c in _IN_CTRL_EXT},  # double controls
    264: frozenset({1234567890, 1234567891, 1234567892, 1234567899}),  # out/model/init params, inFromUE
    528: frozenset({1234567893}),  # DynModiParams
    60: frozenset({1234567890}),  # Ue4RayTraceDrone
    88: frozenset({1234567880, 1234567881}),  # Coll20d / TerrIn15d
    168: frozenset({TRUE_STATE_CHECKSUM}),  # SOut2Simulator
    112: frozenset({1234567891}),  # SOut2SimulatorSimpleTime
    48: frozenset({1234567898}),  # PX4 extension
    32: frozenset({1234567890}),  # Ue4CMDGPS
    12: frozenset({1234567890}),  # crash report
}
# netDataShort has no checksum; its length field (bytes 4..8) must say 152 payload bytes.
_NET_DATA_SHORT_LENGTH = 200
_NET_DATA_SHORT_PAYLOAD = 152


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
    """A known RflySim length carrying the checksum that length requires."""
    length = len(data)
    if length == _NET_DATA_SHORT_LENGTH:
        return bool(_I32.unpack_from(data, 4)[0] == _NET_DATA_SHORT_PAYLOAD)
    checksums = _RFLYSIM_CHECKSUMS.get(length)
    return checksums is not None and bool(_I32.unpack_from(data)[0] in checksums)


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
