# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Sans-IO codec for ArduPilot SITL's binary servo packets, the SITL-to-physics half of its JSON interface.

Strategy: servo packets are fixed little-endian structs, dispatched by a table keyed by length
and checked against the magic that length implies; any other size or magic is a ``CodecError``
that says which of the two is wrong.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ... import _
from .errors import CodecError, size_mismatch
from .names import ARDUPILOT_JSON as PROTOCOL

# SITL instance N (``-I N``) sends its servo packets to this port + 10·N.
SITL_JSON_BASE_PORT = 9002

MAGIC_16 = 18458
MAGIC_32 = 29569
SERVO_16_LENGTH = 40
SERVO_32_LENGTH = 72


@dataclass(frozen=True, slots=True)
class ServoPacket:
    """SITL to physics: ``pwm`` holds 16 (magic 18458) or 32 (magic 29569) values in µs."""

    magic: int
    frame_rate: int
    frame_count: int
    pwm: tuple[int, ...]


_SERVO_BY_LENGTH: Mapping[int, tuple[struct.Struct, int]] = {
    SERVO_16_LENGTH: (struct.Struct("<HHI16H"), MAGIC_16),
    SERVO_32_LENGTH: (struct.Struct("<HHI32H"), MAGIC_32),
}
_SERVO_LENGTH_BY_MAGIC = {magic: length for length, (_layout, magic) in _SERVO_BY_LENGTH.items()}
_SERVO_BY_CHANNELS = {(length - 8) // 2: entry for length, entry in _SERVO_BY_LENGTH.items()}


def decode_servo_packet(data: bytes) -> ServoPacket:
    """Decode a 40- or 72-byte servo packet; raise ``CodecError`` on any size or magic mismatch."""
    entry = _SERVO_BY_LENGTH.get(len(data))
    if entry is None:
        raise _servo_error(data)
    layout, expected = entry
    values = layout.unpack(data)
    if values[0] != expected:
        raise _servo_error(data)
    return ServoPacket(values[0], values[1], values[2], values[3:])


def _servo_error(data: bytes) -> CodecError:
    length = len(data)
    if length < 2:
        message = _("empty datagram") if length == 0 else _("length 1 is too short to hold a magic")
        return CodecError(
            _("{message}: a SITL servo packet is {short} or {long} bytes").format(
                message=message, short=SERVO_16_LENGTH, long=SERVO_32_LENGTH
            ),
            protocol=PROTOCOL,
            reason="truncated",
        )
    magic = data[0] | data[1] << 8
    expected = _SERVO_LENGTH_BY_MAGIC.get(magic)
    if expected is None:
        return CodecError(
            _(
                "magic {magic} is not a SITL servo packet: "
                "expected {m16} (16 channels) or {m32} (32 channels)"
            ).format(magic=magic, m16=MAGIC_16, m32=MAGIC_32),
            protocol=PROTOCOL,
            reason="magic",
        )
    sentence = _("length {length}, expected {expected} for magic {magic}").format(
        length=length, expected=expected, magic=magic
    )
    other = _SERVO_BY_LENGTH.get(length)
    if other is not None:
        return CodecError(
            _("{sentence} ({length} bytes is the size that goes with magic {other})").format(
                sentence=sentence, length=length, other=other[1]
            ),
            protocol=PROTOCOL,
            reason="length",
        )
    return size_mismatch(sentence, length=length, expected=expected, protocol=PROTOCOL)


def encode_servo_packet(frame_rate: int, frame_count: int, pwm: Sequence[int]) -> bytes:
    """Encode a servo packet; 16 PWM values give magic 18458, 32 give 29569."""
    entry = _SERVO_BY_CHANNELS.get(len(pwm))
    if entry is None:
        raise CodecError(
            _("cannot encode a servo packet with {count} PWM values: SITL sends 16 or 32").format(
                count=len(pwm)
            ),
            protocol=PROTOCOL,
            reason="value",
        )
    layout, magic = entry
    try:
        return layout.pack(magic, frame_rate, frame_count, *pwm)
    except struct.error as error:
        message = _("cannot encode a servo packet: {error}").format(error=error)
        raise CodecError(message, protocol=PROTOCOL, reason="value") from error
