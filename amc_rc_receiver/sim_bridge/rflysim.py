# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Sans-IO codec for RflySim's CopterSim datagrams: PX4SILIntFloat, the true state and netDataShort.

Strategy: RflySim packets are fixed-size little-endian C structs, so one precompiled
``struct.Struct`` per length unpacks the whole datagram in one call, and a table keyed by length
gives the layout, the word that tells the packet kind (the leading checksum; for netDataShort,
which has none, the ``len`` field) and the frame class.  A frame *is* the unpacked tuple
(``_WireFrame``: vector fields are sliced when read), so decoding costs the unpack plus one C call.
The InCtrlExt1..5 inputs share the PX4SILIntFloat layout and port, so they decode as
``SilIntFloat`` with their checksum kept.  Re-encoding a decoded frame gives back the exact bytes,
alignment pad and spare bytes included; the one exception is a float32 signalling NaN, which
Python's float conversion turns quiet.
"""

from __future__ import annotations

import operator
import struct
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Generic, TypeVar, overload

from amc_rc_receiver import _
from amc_rc_receiver.sim_bridge.errors import CodecError, size_mismatch

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


_T = TypeVar("_T")
_V = TypeVar("_V")


class _Field(Generic[_T]):
    """A read-only frame field: item ``key`` of the wire values, or a fresh tuple for a slice."""

    __slots__ = ("_read", "key")

    def __init__(self, key: int | slice) -> None:
        self.key = key
        self._read = operator.itemgetter(key)

    @overload
    def __get__(self, frame: None, owner: type[Any] | None = None) -> _Field[_T]: ...

    @overload
    def __get__(self, frame: _WireFrame, owner: type[Any] | None = None) -> _T: ...

    def __get__(self, frame: _WireFrame | None, owner: type[Any] | None = None) -> _Field[_T] | _T:
        if frame is None:
            return self
        value: _T = self._read(frame)
        return value


class _WireFrame(tuple[Any, ...]):
    """Base of the RflySim frames: the tuple of a packet's wire values, with named fields.

    A decoder makes a frame from the unpacked tuple with ``tuple.__new__(cls, values)`` (as
    ``namedtuple._make`` does), so decoding costs one C call beyond the unpack; vector fields
    are sliced when read, because slicing 8 vectors would cost as much as the unpack itself.
    Subclasses declare ``__slots__ = ()`` (no ``__dict__``: nothing can be changed), one
    ``_Field`` per public field in constructor order, and a keyword constructor ``__new__`` that
    lays the fields out in wire order.  Like dataclasses, frames are equal only to frames of the
    same class with equal fields (never to a plain tuple); they hash, copy and pickle by value.
    """

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._fields = tuple(name for name, value in vars(cls).items() if isinstance(value, _Field))
        # Positional class patterns (``case TrueState(copter_id, ...)``), as dataclasses allow.
        setattr(cls, "__match_args__", cls._fields)  # noqa: B010 - mypy forbids the plain assignment

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = tuple.__hash__

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({fields})"

    def __getnewargs__(self) -> tuple[Any, ...]:
        # copy and pickle rebuild the frame through the keyword constructor, field by field.
        return tuple(getattr(self, name) for name in self._fields)


def _vector(what: str, field: str, values: Sequence[_V], count: int) -> tuple[_V, ...]:
    """``values`` as a tuple, refused unless it has the ``count`` items its packet carries."""
    items = tuple(values)
    if len(items) != count:
        raise CodecError(
            _("cannot encode {what}: {field} has {count} items, expected {expected}").format(
                what=what, field=field, count=len(items), expected=count
            ),
            protocol=PROTOCOL,
            reason="value",
        )
    return items


class SilIntFloat(_WireFrame):
    """PX4SILIntFloat (checksum 1234567897) or InCtrlExt1..5 (1234567801..05): 8 ints, 20 float32.

    Wire values: checksum, copter_id, ints, floats.
    """

    __slots__ = ()
    copter_id: _Field[int] = _Field(1)
    ints: _Field[tuple[int, ...]] = _Field(slice(2, 10))  # 8
    floats: _Field[tuple[float, ...]] = _Field(slice(10, 30))  # 20, float32 on the wire
    checksum: _Field[int] = _Field(0)

    def __new__(
        cls, copter_id: int, ints: tuple[int, ...], floats: tuple[float, ...], checksum: int = SIL_CHECKSUM
    ) -> SilIntFloat:
        what = "PX4SILIntFloat"
        return tuple.__new__(
            cls, (checksum, copter_id, *_vector(what, "ints", ints, 8), *_vector(what, "floats", floats, 20))
        )


class TrueState(_WireFrame):
    """SOut2Simulator, the 168-byte true state (checksum 123456789); floats are float32 on the wire.

    Wire values: checksum, then the fields in order.
    """

    __slots__ = ()
    copter_id: _Field[int] = _Field(1)
    vehicle_type: _Field[int] = _Field(2)
    reserved: _Field[int] = _Field(3)
    vel_e: _Field[tuple[float, float, float]] = _Field(slice(4, 7))  # NED m/s
    ang_euler: _Field[tuple[float, float, float]] = _Field(slice(7, 10))  # roll, pitch, yaw rad
    ang_quatern: _Field[tuple[float, float, float, float]] = _Field(slice(10, 14))  # w, x, y, z
    motor_rpms: _Field[tuple[float, ...]] = _Field(slice(14, 22))  # 8
    acc_b: _Field[tuple[float, float, float]] = _Field(slice(22, 25))  # body m/s²
    rate_b: _Field[tuple[float, float, float]] = _Field(slice(25, 28))  # body rad/s
    runned_time: _Field[float] = _Field(28)  # s (double)
    pos_e: _Field[tuple[float, float, float]] = _Field(slice(29, 32))  # NED m (double)
    pos_gps: _Field[tuple[float, float, float]] = _Field(slice(32, 35))  # lat deg, lon deg, alt m

    def __new__(  # noqa: PLR0917 - positional like the dataclass it replaced
        cls,
        copter_id: int,
        vehicle_type: int,
        reserved: int,
        vel_e: tuple[float, float, float],
        ang_euler: tuple[float, float, float],
        ang_quatern: tuple[float, float, float, float],
        motor_rpms: tuple[float, ...],
        acc_b: tuple[float, float, float],
        rate_b: tuple[float, float, float],
        runned_time: float,
        pos_e: tuple[float, float, float],
        pos_gps: tuple[float, float, float],
    ) -> TrueState:
        what = "SOut2Simulator"
        return tuple.__new__(
            cls,
            (
                TRUE_STATE_CHECKSUM,
                copter_id,
                vehicle_type,
                reserved,
                *_vector(what, "vel_e", vel_e, 3),
                *_vector(what, "ang_euler", ang_euler, 3),
                *_vector(what, "ang_quatern", ang_quatern, 4),
                *_vector(what, "motor_rpms", motor_rpms, 8),
                *_vector(what, "acc_b", acc_b, 3),
                *_vector(what, "rate_b", rate_b, 3),
                runned_time,
                *_vector(what, "pos_e", pos_e, 3),
                *_vector(what, "pos_gps", pos_gps, 3),
            ),
        )


class NetDataShort(_WireFrame):
    """netDataShort (200 bytes) carrying SOut2SimulatorOld in the first 152 payload bytes.

    ``tg`` is not a checksum: RflySim's receiver treats ``tg >= 0`` as a crash report naming that
    target.  ``padding`` (4 alignment bytes) and ``unused`` (the 40 spare payload bytes) are kept
    so that re-encoding gives back the exact datagram.  Wire values: tg, the len field (152),
    then the fields in wire order (``padding`` sits before ``pos_gps``).
    """

    __slots__ = ()
    tg: _Field[int] = _Field(0)
    copter_id: _Field[int] = _Field(2)
    vehicle_type: _Field[int] = _Field(3)
    runned_time: _Field[float] = _Field(4)  # s (double)
    vel_e: _Field[tuple[float, float, float]] = _Field(slice(5, 8))
    pos_e: _Field[tuple[float, float, float]] = _Field(slice(8, 11))
    ang_euler: _Field[tuple[float, float, float]] = _Field(slice(11, 14))
    ang_quatern: _Field[tuple[float, float, float, float]] = _Field(slice(14, 18))
    motor_rpms: _Field[tuple[float, ...]] = _Field(slice(18, 26))  # 8
    acc_b: _Field[tuple[float, float, float]] = _Field(slice(26, 29))
    rate_b: _Field[tuple[float, float, float]] = _Field(slice(29, 32))
    pos_gps: _Field[tuple[float, float, float]] = _Field(slice(33, 36))  # double
    padding: _Field[bytes] = _Field(32)
    unused: _Field[bytes] = _Field(36)

    def __new__(  # noqa: PLR0917 - positional like the dataclass it replaced
        cls,
        tg: int,
        copter_id: int,
        vehicle_type: int,
        runned_time: float,
        vel_e: tuple[float, float, float],
        pos_e: tuple[float, float, float],
        ang_euler: tuple[float, float, float],
        ang_quatern: tuple[float, float, float, float],
        motor_rpms: tuple[float, ...],
        acc_b: tuple[float, float, float],
        rate_b: tuple[float, float, float],
        pos_gps: tuple[float, float, float],
        padding: bytes = bytes(4),
        unused: bytes = bytes(40),
    ) -> NetDataShort:
        what = "netDataShort"
        return tuple.__new__(
            cls,
            (
                tg,
                NET_DATA_SHORT_PAYLOAD_LEN,
                copter_id,
                vehicle_type,
                runned_time,
                *_vector(what, "vel_e", vel_e, 3),
                *_vector(what, "pos_e", pos_e, 3),
                *_vector(what, "ang_euler", ang_euler, 3),
                *_vector(what, "ang_quatern", ang_quatern, 4),
                *_vector(what, "motor_rpms", motor_rpms, 8),
                *_vector(what, "acc_b", acc_b, 3),
                *_vector(what, "rate_b", rate_b, 3),
                bytes(padding),
                *_vector(what, "pos_gps", pos_gps, 3),
                bytes(unused),
            ),
        )


RflySimFrame = SilIntFloat | TrueState | NetDataShort

_new = tuple.__new__

# length -> (layout, index of the word that tells the packet kind, the values it may have, class).
# PX4SILIntFloat and the true state are told by their leading checksum; netDataShort has none
# (its first word is a crash target id), so its len field is checked instead.
_Layout = tuple[Callable[[bytes], tuple[Any, ...]], int, frozenset[int], type[RflySimFrame]]
_LAYOUTS: dict[int, _Layout] = {
    SIL_LENGTH: (_SIL.unpack, 0, frozenset(SIL_CHECKSUMS), SilIntFloat),
    TRUE_STATE_LENGTH: (_TRUE_STATE.unpack, 0, frozenset({TRUE_STATE_CHECKSUM}), TrueState),
    NET_DATA_SHORT_LENGTH: (_NET_DATA_SHORT.unpack, 1, frozenset({NET_DATA_SHORT_PAYLOAD_LEN}), NetDataShort),
}

# checksum -> (packet name, length); used only to explain a wrong length.
_KIND_BY_CHECKSUM: dict[int, tuple[str, int]] = {
    SIL_CHECKSUM: ("PX4SILIntFloat", SIL_LENGTH),
    **{c: (f"InCtrlExt{c - 1234567800}", SIL_LENGTH) for c in IN_CTRL_EXT_CHECKSUMS},
    TRUE_STATE_CHECKSUM: ("SOut2Simulator", TRUE_STATE_LENGTH),
}


def decode(data: bytes) -> RflySimFrame:
    """Decode one RflySim datagram; raise ``CodecError`` for anything that is not exactly a known one."""
    try:
        unpack, index, accepted, frame = _LAYOUTS[len(data)]
    except KeyError:
        raise _length_error(data) from None
    values = unpack(data)
    if values[index] not in accepted:
        raise _kind_error(len(data), values)
    return _new(frame, values)  # the unpacked tuple is the frame


def _kind_error(length: int, values: tuple[Any, ...]) -> CodecError:
    """The leading checksum (or, for netDataShort, the len field) is not one this length allows."""
    if length == NET_DATA_SHORT_LENGTH:
        return CodecError(
            _(
                "netDataShort len field is {value}, expected {expected} "
                "(the payload bytes used, not the {size}-byte datagram)"
            ).format(value=values[1], expected=NET_DATA_SHORT_PAYLOAD_LEN, size=NET_DATA_SHORT_LENGTH),
            protocol=PROTOCOL,
            reason="length-field",
        )
    return _checksum_error(length, values[0])


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
    return size_mismatch(sentence, length=length, expected=expected, protocol=PROTOCOL)


def _checksum_error(length: int, checksum: int) -> CodecError:
    accepted = _LAYOUTS[length][2]
    expected = [value for value in _KIND_BY_CHECKSUM if value in accepted]
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


def _check_bytes(what: str, field: str, value: bytes, expected: int) -> None:
    # struct's "s" code would silently pad or cut a wrong-sized byte string.
    if len(value) != expected:
        raise CodecError(
            _("cannot encode {what}: {field} has {count} items, expected {expected}").format(
                what=what, field=field, count=len(value), expected=expected
            ),
            protocol=PROTOCOL,
            reason="value",
        )


# A frame is the tuple of its wire values (vector lengths are checked when it is made), so each
# encoder packs the frame as it is.


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
    return _pack(_SIL, what, *packet)


def encode_true_state(s: TrueState) -> bytes:
    """The 168-byte SOut2Simulator datagram for ``s``."""
    return _pack(_TRUE_STATE, "SOut2Simulator", *s)


def encode_net_data_short(s: NetDataShort) -> bytes:
    """The 200-byte netDataShort datagram for ``s`` (len field 152)."""
    what = "netDataShort"
    _check_bytes(what, "padding", s.padding, 4)
    _check_bytes(what, "unused", s.unused, 40)
    return _pack(_NET_DATA_SHORT, what, *s)
