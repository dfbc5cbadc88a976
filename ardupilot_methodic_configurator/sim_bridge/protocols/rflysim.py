# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Sans-IO codec for RflySim's CopterSim datagrams: SIL inputs, true states and their relatives.

Strategy: RflySim packets are fixed-size little-endian C structs told apart by exact length and
then by the leading int32 checksum (netDataShort, which has none, by its ``len`` field).  One
table maps (length, checksum) to the packet kind: its RflySim name and, for the kinds this codec
decodes, a precompiled ``struct.Struct`` and the function that makes its frame, a plain frozen
dataclass.  Every kind of PROTOCOLS.md C.3/C.4 is recognised; what happens to it:

- decoded, with named fields: PX4SILIntFloat and InCtrlExt1..5 (120 bytes, ``SilIntFloat``
  keeping its checksum), SOut2Simulator (168, ``TrueState``), netDataShort (200,
  ``NetDataShort``), SOut2SimulatorSimpleTime (112, ``SimpleTimeState``), outCopterStruct (264,
  ``OutCopterData``), Ue4CMDGPS (32, ``GpsOrigin``) and the crash report (12, ``CrashReport``):
  the state CopterSim and RflySim3D send, whose fields RflySim documents;
- recognised, not decoded (``RecognisedPacket``: name, length, checksum; not an error): the
  user-defined control and parameter arrays sent *into* CopterSim's DLL model (DllInDoubCtrls,
  InCtrlExtDoub1..5, PX4ModelInParams, PX4InitInParams, UEToCopterDataD, PX4DynModiParams,
  Ue4RayTraceDrone, Coll20d, TerrIn15d) and PX4ExtMsg, whose values mean whatever the user's
  model makes of them.

The frame classes themselves are ``rflysim_frames`` (imported from here as well).
Re-encoding a decoded frame (``encode``) gives back the exact bytes, alignment pad and spare
bytes included; the one exception is a float32 signalling NaN, which Python's float conversion
turns quiet.  Every datagram costs one length lookup, one checksum lookup and at most one unpack.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ... import _
from .errors import CodecError, size_mismatch
from .names import RFLYSIM as PROTOCOL
from .rflysim_frames import (
    SIL_CHECKSUM,
    CrashReport,
    GpsOrigin,
    NetDataShort,
    OutCopterData,
    RecognisedPacket,
    RflySimFrame,
    SilIntFloat,
    SimpleTimeState,
    TrueState,
)

# The frames are part of this codec's interface: ``rflysim.TrueState`` as before the split.
__all__ = [
    "CRASH_LENGTH",
    "GPS_ORIGIN_LENGTH",
    "IN_CTRL_EXT_CHECKSUMS",
    "NET_DATA_SHORT_LENGTH",
    "NET_DATA_SHORT_PAYLOAD_LEN",
    "OUT_COPTER_LENGTH",
    "SIL_CHECKSUM",
    "SIL_CHECKSUMS",
    "SIL_LENGTH",
    "SIMPLE_TIME_CHECKSUM",
    "SIMPLE_TIME_LENGTH",
    "TRUE_STATE_CHECKSUM",
    "TRUE_STATE_LENGTH",
    "UE_CHECKSUM",
    "CrashReport",
    "GpsOrigin",
    "NetDataShort",
    "OutCopterData",
    "RecognisedPacket",
    "RflySimFrame",
    "SilIntFloat",
    "SimpleTimeState",
    "TrueState",
    "decode",
    "encode",
    "encode_net_data_short",
    "encode_sil_int_float",
    "encode_true_state",
    "packet_name",
    "sil_port",
    "truesim_port",
]

TRUE_STATE_CHECKSUM = 123456789
SIMPLE_TIME_CHECKSUM = 1234567891
UE_CHECKSUM = 1234567890  # outCopterStruct, Ue4CMDGPS, crash report (and Ue4RayTraceDrone)
# InCtrlExt1..5 reuse the '10i20f' layout on the same CopterSim port.
IN_CTRL_EXT_CHECKSUMS = (1234567801, 1234567802, 1234567803, 1234567804, 1234567805)
SIL_CHECKSUMS = (SIL_CHECKSUM, *IN_CTRL_EXT_CHECKSUMS)
NET_DATA_SHORT_PAYLOAD_LEN = 152

SIL_LENGTH = 120
TRUE_STATE_LENGTH = 168
NET_DATA_SHORT_LENGTH = 200
SIMPLE_TIME_LENGTH = 112
OUT_COPTER_LENGTH = 264
GPS_ORIGIN_LENGTH = 32
CRASH_LENGTH = 12

_SIL_BASE_PORT = 30100
_TRUESIM_BASE_PORT = 30101


def sil_port(copter_id: int) -> int:
    """UDP port on which CopterSim receives PX4SILIntFloat for ``copter_id`` (counted from 1)."""
    _check_copter_id(copter_id)
    return _SIL_BASE_PORT + 2 * (copter_id - 1)


def truesim_port(copter_id: int) -> int:
    """UDP port on which CopterSim sends the true state of ``copter_id`` (counted from 1)."""
    _check_copter_id(copter_id)
    return _TRUESIM_BASE_PORT + 2 * (copter_id - 1)


def _check_copter_id(copter_id: int) -> None:
    if copter_id < 1:
        raise ValueError(_("RflySim copter ids start at 1, got {copter_id}").format(copter_id=copter_id))


_Wire = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class _Kind:
    """One packet kind: its RflySim name and, if decoded, its layout and wire <-> frame functions."""

    name: str
    layout: struct.Struct | None = None
    frame: Callable[[_Wire], RflySimFrame] | None = None
    wire: Callable[[Any], _Wire] | None = None


def _sil_kind(name: str) -> _Kind:
    return _Kind(
        name,
        struct.Struct("<10i20f"),
        lambda v: SilIntFloat(v[1], v[2:10], v[10:30], v[0]),
        lambda f: (f.checksum, f.copter_id, *f.ints, *f.floats),
    )


_TRUE_STATE = _Kind(
    "SOut2Simulator",
    struct.Struct("<4i24f7d"),
    lambda v: TrueState(
        v[1], v[2], v[3], v[4:7], v[7:10], v[10:14], v[14:22], v[22:25], v[25:28], v[28], v[29:32], v[32:35]
    ),
    lambda f: (
        TRUE_STATE_CHECKSUM, f.copter_id, f.vehicle_type, f.reserved, *f.vel_e, *f.ang_euler, *f.ang_quatern,
        *f.motor_rpms, *f.acc_b, *f.rate_b, f.runned_time, *f.pos_e, *f.pos_gps,
    ),
)  # fmt: skip
# tg, len, then SOut2SimulatorOld with its natural-alignment pad kept as bytes (so re-encoding is
# byte-exact), then the 40 unused payload bytes, likewise kept.
_NET_DATA_SHORT = _Kind(
    "netDataShort",
    struct.Struct("<ii2id27f4s3d40s"),
    lambda v: NetDataShort(
        v[0], v[2], v[3], v[4], v[5:8], v[8:11], v[11:14], v[14:18], v[18:26], v[26:29], v[29:32], v[33:36],
        v[32], v[36],
    ),
    lambda f: (
        f.tg, NET_DATA_SHORT_PAYLOAD_LEN, f.copter_id, f.vehicle_type, f.runned_time, *f.vel_e, *f.pos_e,
        *f.ang_euler, *f.ang_quatern, *f.motor_rpms, *f.acc_b, *f.rate_b, _exact(f.padding, 4, "padding"),
        *f.pos_gps, _exact(f.unused, 40, "unused"),
    ),
)  # fmt: skip
_SIMPLE_TIME = _Kind(
    "SOut2SimulatorSimpleTime",
    struct.Struct("<6i14f4d"),
    lambda v: SimpleTimeState(v[1], v[2], v[3:6], v[6:14], v[14:17], v[17:20], v[20:23], v[23]),
    lambda f: (
        SIMPLE_TIME_CHECKSUM, f.copter_id, f.vehicle_type, *f.pos_gps_int, *f.motor_rpms, *f.vel_e,
        *f.ang_euler, *f.pos_e, f.runned_time,
    ),
)  # fmt: skip
_OUT_COPTER = _Kind(
    "outCopterStruct",
    struct.Struct("<ii32d"),
    lambda v: OutCopterData(v[1], v[2:34]),
    lambda f: (UE_CHECKSUM, f.copter_id, *f.data),
)
_GPS_ORIGIN = _Kind(
    "Ue4CMDGPS",
    struct.Struct("<ii3d"),
    lambda v: GpsOrigin(v[1], v[2:5]),
    lambda f: (UE_CHECKSUM, f.copter_id, *f.gps),
)
_CRASH = _Kind(
    "CopterSimCrash",
    struct.Struct("<iii"),
    lambda v: CrashReport(v[1], v[2]),
    lambda f: (UE_CHECKSUM, f.copter_id, f.target_id),
)

# length -> {checksum (for netDataShort: its len field) -> kind}  (PROTOCOLS.md C.1, C.3, C.4)
_KINDS: Mapping[int, Mapping[int, _Kind]] = {
    SIL_LENGTH: {
        SIL_CHECKSUM: _sil_kind("PX4SILIntFloat"),
        **{c: _sil_kind(f"InCtrlExt{n}") for n, c in enumerate(IN_CTRL_EXT_CHECKSUMS, start=1)},
    },
    TRUE_STATE_LENGTH: {TRUE_STATE_CHECKSUM: _TRUE_STATE},
    NET_DATA_SHORT_LENGTH: {NET_DATA_SHORT_PAYLOAD_LEN: _NET_DATA_SHORT},
    SIMPLE_TIME_LENGTH: {SIMPLE_TIME_CHECKSUM: _SIMPLE_TIME},
    OUT_COPTER_LENGTH: {
        UE_CHECKSUM: _OUT_COPTER,
        1234567891: _Kind("PX4ModelInParams"),
        1234567892: _Kind("PX4InitInParams"),
        1234567899: _Kind("UEToCopterDataD"),
    },
    GPS_ORIGIN_LENGTH: {UE_CHECKSUM: _GPS_ORIGIN},
    CRASH_LENGTH: {UE_CHECKSUM: _CRASH},
    232: {
        SIL_CHECKSUM: _Kind("DllInDoubCtrls"),
        **{c: _Kind(f"InCtrlExtDoub{n}") for n, c in enumerate(IN_CTRL_EXT_CHECKSUMS, start=1)},
        # +100: the same controls, to be applied only with the next update
        **{c + 100: _Kind(f"InCtrlExtDoub{n}") for n, c in enumerate(IN_CTRL_EXT_CHECKSUMS, start=1)},
    },
    528: {1234567893: _Kind("PX4DynModiParams")},
    60: {UE_CHECKSUM: _Kind("Ue4RayTraceDrone")},
    88: {1234567880: _Kind("Coll20d"), 1234567881: _Kind("TerrIn15d")},
    48: {1234567898: _Kind("PX4ExtMsg")},
}
_KIND_OF_CLASS: Mapping[type, _Kind] = {
    SilIntFloat: _KINDS[SIL_LENGTH][SIL_CHECKSUM],
    TrueState: _TRUE_STATE,
    NetDataShort: _NET_DATA_SHORT,
    SimpleTimeState: _SIMPLE_TIME,
    OutCopterData: _OUT_COPTER,
    GpsOrigin: _GPS_ORIGIN,
    CrashReport: _CRASH,
}
_LENGTHS = tuple(sorted(_KINDS))
# checksum -> the lengths it comes with; used only to explain a wrong length
_CHECKSUM_LENGTHS = tuple(length for length in _LENGTHS if length != NET_DATA_SHORT_LENGTH)
_LENGTHS_BY_CHECKSUM: Mapping[int, tuple[int, ...]] = {
    checksum: tuple(length for length in _CHECKSUM_LENGTHS if checksum in _KINDS[length])
    for length in _CHECKSUM_LENGTHS
    for checksum in _KINDS[length]
}
_WORD = struct.Struct("<i")


def _kind_word(data: bytes) -> int:
    """The word that tells the kind: the leading checksum, or netDataShort's len field."""
    return int(_WORD.unpack_from(data, 4 if len(data) == NET_DATA_SHORT_LENGTH else 0)[0])


def packet_name(data: bytes) -> str | None:
    """RflySim's name for the kind of ``data`` (exact length and checksum), or None."""
    kinds = _KINDS.get(len(data))
    if kinds is None:
        return None
    kind = kinds.get(_kind_word(data))
    return None if kind is None else kind.name


def decode(data: bytes) -> RflySimFrame:
    """Decode one RflySim datagram; raise ``CodecError`` for anything that is not exactly a known one.

    A kind that is recognised but not decoded gives a ``RecognisedPacket``.
    """
    kinds = _KINDS.get(len(data))
    if kinds is None:
        raise _length_error(data)
    word = _kind_word(data)
    kind = kinds.get(word)
    if kind is None:
        raise _kind_error(len(data), word)
    if kind.layout is None or kind.frame is None:
        return RecognisedPacket(kind.name, len(data), word)
    return kind.frame(kind.layout.unpack(data))


def _kind_error(length: int, word: int) -> CodecError:
    """The leading checksum (or, for netDataShort, the len field) is not one this length allows."""
    if length == NET_DATA_SHORT_LENGTH:
        return CodecError(
            _(
                "netDataShort len field is {value}, expected {expected} "
                "(the payload bytes used, not the {size}-byte datagram)"
            ).format(value=word, expected=NET_DATA_SHORT_PAYLOAD_LEN, size=NET_DATA_SHORT_LENGTH),
            protocol=PROTOCOL,
            reason="length-field",
        )
    names = ", ".join(f"{checksum} ({kind.name})" for checksum, kind in _KINDS[length].items())
    return CodecError(
        _("checksum {checksum} is not valid for a {length}-byte RflySim packet: expected {names}").format(
            checksum=word, length=length, names=names
        ),
        protocol=PROTOCOL,
        reason="checksum",
    )


def _length_error(data: bytes) -> CodecError:
    length = len(data)
    expected_all = _("expected one of {lengths} bytes").format(lengths=", ".join(map(str, _LENGTHS)))
    if length == 0:
        return CodecError(
            _("empty datagram: a RflySim packet has at least {minimum} bytes").format(minimum=_LENGTHS[0]),
            protocol=PROTOCOL,
            reason="truncated",
        )
    if length < 4:
        return CodecError(
            _("length {length} is too short for any RflySim packet: {expected}").format(
                length=length, expected=expected_all
            ),
            protocol=PROTOCOL,
            reason="truncated",
        )
    checksum = _kind_word(data)
    lengths = _LENGTHS_BY_CHECKSUM.get(checksum)
    if lengths is None:
        return CodecError(
            _("length {length} matches no RflySim packet: {expected}").format(
                length=length, expected=expected_all
            ),
            protocol=PROTOCOL,
            reason="length",
        )
    # The packet it most likely is: the longest one it could be cut from, else the shortest.
    expected = max((value for value in lengths if value < length), default=lengths[0])
    sentence = _("length {length}, expected {expected} for checksum {checksum} ({name})").format(
        length=length, expected=expected, checksum=checksum, name=_KINDS[expected][checksum].name
    )
    return size_mismatch(sentence, length=length, expected=expected, protocol=PROTOCOL)


def _exact(value: bytes, size: int, field: str) -> bytes:
    # struct's "s" code would silently pad or cut a wrong-sized byte string.
    if len(value) != size:
        raise CodecError(
            _("cannot encode {what}: {field} has {count} items, expected {expected}").format(
                what="netDataShort", field=field, count=len(value), expected=size
            ),
            protocol=PROTOCOL,
            reason="value",
        )
    return bytes(value)


def encode(frame: RflySimFrame) -> bytes:
    """The datagram for a decodable frame (floats rounded to float32 where the wire has float32)."""
    kind = _KIND_OF_CLASS.get(type(frame))
    if kind is None or kind.layout is None or kind.wire is None:
        raise CodecError(
            _("cannot encode {frame!r}: only decoded RflySim frames can be encoded").format(frame=frame),
            protocol=PROTOCOL,
            reason="value",
        )
    if isinstance(frame, SilIntFloat) and frame.checksum not in SIL_CHECKSUMS:
        raise CodecError(
            _("cannot encode {what}: checksum {checksum} is not 1234567897 or 1234567801..1234567805").format(
                what=kind.name, checksum=frame.checksum
            ),
            protocol=PROTOCOL,
            reason="checksum",
        )
    try:
        return kind.layout.pack(*kind.wire(frame))
    except (struct.error, OverflowError) as error:
        message = _("cannot encode {what}: {error}").format(what=kind.name, error=error)
        raise CodecError(message, protocol=PROTOCOL, reason="value") from error


def encode_sil_int_float(packet: SilIntFloat) -> bytes:
    """The 120-byte datagram for ``packet`` (floats are rounded to float32)."""
    return encode(packet)


def encode_true_state(state: TrueState) -> bytes:
    """The 168-byte SOut2Simulator datagram for ``state``."""
    return encode(state)


def encode_net_data_short(state: NetDataShort) -> bytes:
    """The 200-byte netDataShort datagram for ``state`` (len field 152)."""
    return encode(state)
