# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Sans-IO codec for RflySim's CopterSim datagrams: PX4SILIntFloat, the true state and netDataShort.

Strategy: RflySim packets are fixed-size little-endian C structs, so one precompiled
``struct.Struct`` per length unpacks the whole datagram in one call; a table keyed by length
picks the layout and a second table keyed by the leading checksum picks the frame builder.
netDataShort has no checksum (its first word is a crash target id), so its entry accepts any
leading word and checks the ``len`` field instead.  The InCtrlExt1..5 inputs share the
PX4SILIntFloat layout and port, so they decode as ``SilIntFloat`` with their checksum kept.
Re-encoding a decoded frame gives back the exact bytes, alignment pad and spare bytes included;
the one exception is a float32 signalling NaN, which Python's float conversion turns quiet.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ardupilot_methodic_configurator import _
from ardupilot_methodic_configurator.sim_bridge.errors import CodecError

PROTOCOL = "rflysim"

SIL_CHECKSUM = 1234567897
TRUE_STATE_CHECKSUM = 123456789
# InCtrlExt1..5 reuse the '10i20f' layout on the same CopterSim port.
IN_CTRL_EXT_CHECKSUMS = (1234567801, 1234567802, 1234567803, 1234567804, 1234567805)
SIL_CHECKSUMS = (SIL_CHECKSUM, *IN_CTRL_EXT_CHECKSUMS)
NET_DATA_SHORT_PAYLOAD_LEN = 152

SIL_LENGTH = 120
TRUE_STATE_LENGTH = 168
NET_DATA_SHORT_LENGTH = 200

_SIL = struct.Struct("<10i20f")
_TRUE_STATE = struct.Struct("<4i24f7d")
# tg, len, then SOut2SimulatorOld with its natural-alignment pad kept as bytes (so re-encoding is
# byte-exact), then the 40 unused payload bytes, likewise kept.
_NET_DATA_SHORT = struct.Struct("<ii2id27f4s3d40s")

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


@dataclass(frozen=True)
class SilIntFloat:
    """PX4SILIntFloat (checksum 1234567897) or InCtrlExt1..5 (1234567801..05): 8 ints, 20 float32."""

    copter_id: int
    ints: tuple[int, ...]  # 8
    floats: tuple[float, ...]  # 20, float32 on the wire
    checksum: int = SIL_CHECKSUM


@dataclass(frozen=True)
class TrueState:
    """SOut2Simulator, the 168-byte true state (checksum 123456789); floats are float32 on the wire."""

    copter_id: int
    vehicle_type: int
    reserved: int
    vel_e: tuple[float, float, float]  # NED m/s
    ang_euler: tuple[float, float, float]  # roll, pitch, yaw rad
    ang_quatern: tuple[float, float, float, float]  # w, x, y, z
    motor_rpms: tuple[float, ...]  # 8
    acc_b: tuple[float, float, float]  # body m/s²
    rate_b: tuple[float, float, float]  # body rad/s
    runned_time: float  # s (double)
    pos_e: tuple[float, float, float]  # NED m (double)
    pos_gps: tuple[float, float, float]  # lat deg, lon deg, alt m (double)


@dataclass(frozen=True)
class NetDataShort:
    """netDataShort (200 bytes) carrying SOut2SimulatorOld in the first 152 payload bytes.

    ``tg`` is not a checksum: RflySim's receiver treats ``tg >= 0`` as a crash report naming that
    target.  ``padding`` (4 alignment bytes) and ``unused`` (the 40 spare payload bytes) are kept
    so that re-encoding gives back the exact datagram.
    """

    tg: int
    copter_id: int
    vehicle_type: int
    runned_time: float  # s (double)
    vel_e: tuple[float, float, float]
    pos_e: tuple[float, float, float]
    ang_euler: tuple[float, float, float]
    ang_quatern: tuple[float, float, float, float]
    motor_rpms: tuple[float, ...]  # 8
    acc_b: tuple[float, float, float]
    rate_b: tuple[float, float, float]
    pos_gps: tuple[float, float, float]  # double
    padding: bytes = bytes(4)
    unused: bytes = bytes(40)


RflySimFrame = SilIntFloat | TrueState | NetDataShort
_Builder = Callable[[tuple[Any, ...]], RflySimFrame]

# Frozen dataclasses pay one object.__setattr__ per field in __init__; the builders below fill the
# instance dict directly because struct has already produced well-typed values.  This keeps the
# decode rate within a small factor of a bare struct.unpack (see benchmarks/_codec_bench.py).
_new = object.__new__


def _build_sil(v: tuple[Any, ...]) -> RflySimFrame:
    frame = _new(SilIntFloat)
    fields = frame.__dict__
    fields["copter_id"] = v[1]
    fields["ints"] = v[2:10]
    fields["floats"] = v[10:30]
    fields["checksum"] = v[0]
    return frame


def _build_true_state(v: tuple[Any, ...]) -> RflySimFrame:
    frame = _new(TrueState)
    fields = frame.__dict__
    fields["copter_id"] = v[1]
    fields["vehicle_type"] = v[2]
    fields["reserved"] = v[3]
    fields["vel_e"] = v[4:7]
    fields["ang_euler"] = v[7:10]
    fields["ang_quatern"] = v[10:14]
    fields["motor_rpms"] = v[14:22]
    fields["acc_b"] = v[22:25]
    fields["rate_b"] = v[25:28]
    fields["runned_time"] = v[28]
    fields["pos_e"] = v[29:32]
    fields["pos_gps"] = v[32:35]
    return frame


def _build_net_data_short(v: tuple[Any, ...]) -> RflySimFrame:
    if v[1] != NET_DATA_SHORT_PAYLOAD_LEN:
        raise CodecError(
            _(
                "netDataShort len field is {value}, expected {expected} "
                "(the payload bytes used, not the {size}-byte datagram)"
            ).format(value=v[1], expected=NET_DATA_SHORT_PAYLOAD_LEN, size=NET_DATA_SHORT_LENGTH),
            protocol=PROTOCOL,
            reason="length-field",
        )
    frame = _new(NetDataShort)
    fields = frame.__dict__
    fields["tg"] = v[0]
    fields["copter_id"] = v[2]
    fields["vehicle_type"] = v[3]
    fields["runned_time"] = v[4]
    fields["vel_e"] = v[5:8]
    fields["pos_e"] = v[8:11]
    fields["ang_euler"] = v[11:14]
    fields["ang_quatern"] = v[14:18]
    fields["motor_rpms"] = v[18:26]
    fields["acc_b"] = v[26:29]
    fields["rate_b"] = v[29:32]
    fields["padding"] = v[32]
    fields["pos_gps"] = v[33:36]
    fields["unused"] = v[36]
    return frame


# length -> (layout, builders keyed by the leading checksum, builder for any leading word)
_LAYOUTS: dict[int, tuple[Callable[[bytes], tuple[Any, ...]], dict[int, _Builder], _Builder | None]] = {
    SIL_LENGTH: (_SIL.unpack, dict.fromkeys(SIL_CHECKSUMS, _build_sil), None),
    TRUE_STATE_LENGTH: (_TRUE_STATE.unpack, {TRUE_STATE_CHECKSUM: _build_true_state}, None),
    NET_DATA_SHORT_LENGTH: (_NET_DATA_SHORT.unpack, {}, _build_net_data_short),
}

# checksum -> (packet name, length); used only to explain a wrong length.
_KIND_BY_CHECKSUM: dict[int, tuple[str, int]] = {
    SIL_CHECKSUM: ("PX4SILIntFloat", SIL_LENGTH),
    **{c: (f"InCtrlExt{c - 1234567800}", SIL_LENGTH) for c in IN_CTRL_EXT_CHECKSUMS},
    TRUE_STATE_CHECKSUM: ("SOut2Simulator", TRUE_STATE_LENGTH),
}


def decode(data: bytes) -> RflySimFrame:
    """Decode one RflySim datagram; raise ``CodecError`` for anything that is not exactly a known one."""
    layout = _LAYOUTS.get(len(data))
    if layout is None:
        raise _length_error(data)
    unpack, builders, any_builder = layout
    values = unpack(data)
    build = builders.get(values[0], any_builder)
    if build is None:
        raise _checksum_error(len(data), values[0])
    return build(values)


def _length_error(data: bytes) -> CodecError:
    length = len(data)
    if length == 0:
        return CodecError(
            _("empty datagram: a RflySim packet has at least {minimum} bytes").format(minimum=SIL_LENGTH),
            protocol=PROTOCOL,
            reason="truncated",
        )
    expected_all = _("expected {sil} (PX4SILIntFloat), {true} (true state) or {net} (netDataShort)").format(
        sil=SIL_LENGTH, true=TRUE_STATE_LENGTH, net=NET_DATA_SHORT_LENGTH
    )
    if length < 4:
        return CodecError(
            _("length {length} is too short for any RflySim packet: {expected}").format(
                length=length, expected=expected_all
            ),
            protocol=PROTOCOL,
            reason="truncated",
        )
    checksum = int.from_bytes(data[:4], "little", signed=True)
    kind = _KIND_BY_CHECKSUM.get(checksum)
    if kind is None:
        return CodecError(
            _("length {length} matches no RflySim packet: {expected}").format(
                length=length, expected=expected_all
            ),
            protocol=PROTOCOL,
            reason="length",
        )
    name, expected = kind
    sentence = _("length {length}, expected {expected} for checksum {checksum} ({name})").format(
        length=length, expected=expected, checksum=checksum, name=name
    )
    if length < expected:
        return CodecError(sentence, protocol=PROTOCOL, reason="truncated")
    return CodecError(
        _("{sentence}: {count} trailing bytes").format(sentence=sentence, count=length - expected),
        protocol=PROTOCOL,
        reason="trailing-bytes",
    )


def _checksum_error(length: int, checksum: int) -> CodecError:
    expected = _LAYOUTS[length][1]
    names = ", ".join(f"{value} ({_KIND_BY_CHECKSUM[value][0]})" for value in expected)
    return CodecError(
        _("checksum {checksum} is not valid for a {length}-byte RflySim packet: expected {names}").format(
            checksum=checksum, length=length, names=names
        ),
        protocol=PROTOCOL,
        reason="checksum",
    )


def _pack(layout: struct.Struct, what: str, *values: object) -> bytes:
    try:
        return layout.pack(*values)
    except (struct.error, OverflowError) as error:
        message = _("cannot encode {what}: {error}").format(what=what, error=error)
        raise CodecError(message, protocol=PROTOCOL, reason="value") from error


def _check_count(what: str, field: str, values: tuple[object, ...] | bytes, expected: int) -> None:
    if len(values) != expected:
        raise CodecError(
            _("cannot encode {what}: {field} has {count} items, expected {expected}").format(
                what=what, field=field, count=len(values), expected=expected
            ),
            protocol=PROTOCOL,
            reason="value",
        )


def encode_sil_int_float(packet: SilIntFloat) -> bytes:
    """The 120-byte datagram for ``packet`` (floats are rounded to float32)."""
    what = "PX4SILIntFloat"
    if packet.checksum not in SIL_CHECKSUMS:
        raise CodecError(
            _("cannot encode {what}: checksum {checksum} is not 1234567897 or 1234567801..1234567805").format(
                what=what, checksum=packet.checksum
            ),
            protocol=PROTOCOL,
            reason="checksum",
        )
    _check_count(what, "ints", packet.ints, 8)
    _check_count(what, "floats", packet.floats, 20)
    return _pack(_SIL, what, packet.checksum, packet.copter_id, *packet.ints, *packet.floats)


def encode_true_state(s: TrueState) -> bytes:
    """The 168-byte SOut2Simulator datagram for ``s``."""
    what = "SOut2Simulator"
    for field, values, count in (
        ("vel_e", s.vel_e, 3),
        ("ang_euler", s.ang_euler, 3),
        ("ang_quatern", s.ang_quatern, 4),
        ("motor_rpms", s.motor_rpms, 8),
        ("acc_b", s.acc_b, 3),
        ("rate_b", s.rate_b, 3),
        ("pos_e", s.pos_e, 3),
        ("pos_gps", s.pos_gps, 3),
    ):
        _check_count(what, field, values, count)
    return _pack(
        _TRUE_STATE,
        what,
        TRUE_STATE_CHECKSUM,
        s.copter_id,
        s.vehicle_type,
        s.reserved,
        *s.vel_e,
        *s.ang_euler,
        *s.ang_quatern,
        *s.motor_rpms,
        *s.acc_b,
        *s.rate_b,
        s.runned_time,
        *s.pos_e,
        *s.pos_gps,
    )


def encode_net_data_short(s: NetDataShort) -> bytes:
    """The 200-byte netDataShort datagram for ``s`` (len field 152)."""
    what = "netDataShort"
    for field, values, count in (
        ("vel_e", s.vel_e, 3),
        ("pos_e", s.pos_e, 3),
        ("ang_euler", s.ang_euler, 3),
        ("ang_quatern", s.ang_quatern, 4),
        ("motor_rpms", s.motor_rpms, 8),
        ("acc_b", s.acc_b, 3),
        ("rate_b", s.rate_b, 3),
        ("pos_gps", s.pos_gps, 3),
        ("padding", s.padding, 4),
        ("unused", s.unused, 40),
    ):
        _check_count(what, field, values, count)
    return _pack(
        _NET_DATA_SHORT,
        what,
        s.tg,
        NET_DATA_SHORT_PAYLOAD_LEN,
        s.copter_id,
        s.vehicle_type,
        s.runned_time,
        *s.vel_e,
        *s.pos_e,
        *s.ang_euler,
        *s.ang_quatern,
        *s.motor_rpms,
        *s.acc_b,
        *s.rate_b,
        bytes(s.padding),
        *s.pos_gps,
        bytes(s.unused),
    )
