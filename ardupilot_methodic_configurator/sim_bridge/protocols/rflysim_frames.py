# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What a decoded RflySim packet holds: one frozen, slotted frame class per kind the codec decodes.

The fields are named and typed as RflySim's structs name them (PROTOCOLS.md C.3/C.4); the wire
layout of each kind, and how bytes become these frames and back, is the codec's table
(``rflysim``).  Vectors are tuples of exactly the count their struct has: a frame built with
another count is refused (``CodecError``, reason ``value``) by its own constructor, so a frame
that exists can always be encoded.  Kinds that are recognised but not decoded come back as
``RecognisedPacket``: their name, length and checksum.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ... import _
from .errors import CodecError
from .names import RFLYSIM as PROTOCOL

# The checksum a PX4SILIntFloat carries (the InCtrlExt kinds of the same layout carry others).
SIL_CHECKSUM = 1234567897


def _fix_vectors(frame: object, what: str, counts: Mapping[str, int]) -> None:
    """Store each vector field of a new frame as a tuple, refused unless it has its wire count."""
    for field, count in counts.items():
        items = tuple(getattr(frame, field))
        if len(items) != count:
            raise CodecError(
                _("cannot encode {what}: {field} has {count} items, expected {expected}").format(
                    what=what, field=field, count=len(items), expected=count
                ),
                protocol=PROTOCOL,
                reason="value",
            )
        object.__setattr__(frame, field, items)  # the frozen frame's own constructor may set it


@dataclass(frozen=True, slots=True)
class SilIntFloat:
    """PX4SILIntFloat (checksum 1234567897) or InCtrlExt1..5 (1234567801..05): 8 ints, 20 float32."""

    copter_id: int
    ints: tuple[int, ...]  # 8
    floats: tuple[float, ...]  # 20, float32 on the wire
    checksum: int = SIL_CHECKSUM

    def __post_init__(self) -> None:
        _fix_vectors(self, "PX4SILIntFloat", {"ints": 8, "floats": 20})


@dataclass(frozen=True, slots=True)
class TrueState:
    """SOut2Simulator, the 168-byte true state (checksum 123456789); floats are float32 on the wire."""

    copter_id: int
    vehicle_type: int
    reserved: int
    vel_e: tuple[float, ...]  # NED m/s
    ang_euler: tuple[float, ...]  # roll, pitch, yaw rad
    ang_quatern: tuple[float, ...]  # w, x, y, z
    motor_rpms: tuple[float, ...]  # 8
    acc_b: tuple[float, ...]  # body m/s²
    rate_b: tuple[float, ...]  # body rad/s
    runned_time: float  # s (double)
    pos_e: tuple[float, ...]  # NED m (double)
    pos_gps: tuple[float, ...]  # lat deg, lon deg, alt m (double)

    def __post_init__(self) -> None:
        _fix_vectors(self, "SOut2Simulator", _TRUE_STATE_VECTORS)


_TRUE_STATE_VECTORS = {
    "vel_e": 3, "ang_euler": 3, "ang_quatern": 4, "motor_rpms": 8, "acc_b": 3, "rate_b": 3, "pos_e": 3,
    "pos_gps": 3,
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class NetDataShort:
    """netDataShort (200 bytes) carrying SOut2SimulatorOld in the first 152 payload bytes.

    ``tg`` is not a checksum: RflySim's receiver treats ``tg >= 0`` as a crash report naming that
    target.  ``padding`` (4 alignment bytes) and ``unused`` (the 40 spare payload bytes) are kept
    so that re-encoding gives back the exact datagram.  ``pos_e`` is float32 here, unlike in
    ``TrueState``.
    """

    tg: int
    copter_id: int
    vehicle_type: int
    runned_time: float  # s (double)
    vel_e: tuple[float, ...]
    pos_e: tuple[float, ...]
    ang_euler: tuple[float, ...]
    ang_quatern: tuple[float, ...]
    motor_rpms: tuple[float, ...]  # 8
    acc_b: tuple[float, ...]
    rate_b: tuple[float, ...]
    pos_gps: tuple[float, ...]  # double
    padding: bytes = bytes(4)
    unused: bytes = bytes(40)

    def __post_init__(self) -> None:
        _fix_vectors(self, "netDataShort", _NET_DATA_SHORT_VECTORS)


_NET_DATA_SHORT_VECTORS = {
    "vel_e": 3, "pos_e": 3, "ang_euler": 3, "ang_quatern": 4, "motor_rpms": 8, "acc_b": 3, "rate_b": 3,
    "pos_gps": 3,
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class SimpleTimeState:
    """SOut2SimulatorSimpleTime, the 112-byte true state (checksum 1234567891).

    ``pos_gps_int`` is latitude and longitude in 1e-7 degrees and altitude in mm (int32, to save
    space); ``motor_rpms``, ``vel_e`` and ``ang_euler`` are float32, ``pos_e`` and the time double.
    """

    copter_id: int
    vehicle_type: int
    pos_gps_int: tuple[int, ...]
    motor_rpms: tuple[float, ...]  # 8
    vel_e: tuple[float, ...]  # NED m/s
    ang_euler: tuple[float, ...]  # roll, pitch, yaw rad
    pos_e: tuple[float, ...]  # NED m
    runned_time: float  # s

    def __post_init__(self) -> None:
        _fix_vectors(
            self,
            "SOut2SimulatorSimpleTime",
            {"pos_gps_int": 3, "motor_rpms": 8, "vel_e": 3, "ang_euler": 3, "pos_e": 3},
        )


@dataclass(frozen=True, slots=True)
class OutCopterData:
    """outCopterStruct (264 bytes, checksum 1234567890): 32 doubles of the DLL model's output."""

    copter_id: int
    data: tuple[float, ...]  # 32

    def __post_init__(self) -> None:
        _fix_vectors(self, "outCopterStruct", {"data": 32})


@dataclass(frozen=True, slots=True)
class GpsOrigin:
    """Ue4CMDGPS (32 bytes, checksum 1234567890): the GPS origin of RflySim3D's map."""

    copter_id: int
    gps: tuple[float, ...]  # latitude deg, longitude deg, altitude m

    def __post_init__(self) -> None:
        _fix_vectors(self, "Ue4CMDGPS", {"gps": 3})


@dataclass(frozen=True, slots=True)
class CrashReport:
    """The 12-byte crash report (checksum 1234567890): ``target_id >= 0`` means a crash into it."""

    copter_id: int
    target_id: int


@dataclass(frozen=True, slots=True)
class RecognisedPacket:
    """A RflySim packet of a known kind (length and checksum) that this codec does not decode."""

    name: str
    length: int
    checksum: int


RflySimFrame = (
    SilIntFloat
    | TrueState
    | NetDataShort
    | SimpleTimeState
    | OutCopterData
    | GpsOrigin
    | CrashReport
    | RecognisedPacket
)
