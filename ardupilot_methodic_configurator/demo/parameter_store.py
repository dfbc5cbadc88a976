# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The simulated vehicle's parameters as ArduPilot serves them: by index, by name, and packed.

``ParameterStore`` is immutable: the demo vehicle's behaviour does not follow its parameters, so
it refuses every write (as ArduPilot does for a read-only parameter) rather than pretend to
apply one.  ``packed()`` produces ArduPilot's ``@PARAM/param.pck`` format for MAVFTP: a 6-byte
header (magic, parameters in this file, parameters in total), then per parameter a type byte
(storage type, flags in the high nibble), a length byte (name length - 1 << 4 | bytes shared
with the previous name), the rest of the name, the value and, with defaults requested and the
value differing, the default.  No padding is inserted; readers skip zero bytes anyway.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from .parameters import (
    COPTER_CONFIGURED,
    COPTER_PARAMETERS,
    ParameterSpec,
    ParamKind,
)
from .vehicle_rules import RC_FAILSAFE_TIMEOUT_S, RSSI_TYPE_RECEIVER_PROTOCOL

PARAM_NAME_MAX = 16
PACKED_MAGIC = 0x671B
PACKED_MAGIC_WITH_DEFAULTS = 0x671C
_FLAG_HAS_DEFAULT = 0x10
_MAX_SHARED_PREFIX = 15

MAV_PARAM_TYPES: dict[ParamKind, int] = {
    ParamKind.INT8: mavlink2.MAV_PARAM_TYPE_INT8,
    ParamKind.INT16: mavlink2.MAV_PARAM_TYPE_INT16,
    ParamKind.INT32: mavlink2.MAV_PARAM_TYPE_INT32,
    ParamKind.FLOAT: mavlink2.MAV_PARAM_TYPE_REAL32,
}
_PACK_FORMATS: dict[ParamKind, str] = {
    ParamKind.INT8: "b",
    ParamKind.INT16: "h",
    ParamKind.INT32: "i",
    ParamKind.FLOAT: "f",
}
_INTEGER_RANGES: dict[ParamKind, tuple[int, int]] = {
    ParamKind.INT8: (-(2**7), 2**7 - 1),
    ParamKind.INT16: (-(2**15), 2**15 - 1),
    ParamKind.INT32: (-(2**31), 2**31 - 1),
}


@dataclass(frozen=True)
class Parameter:
    index: int
    name: str
    value: float
    default: float
    kind: ParamKind

    @property
    def mav_param_type(self) -> int:
        return MAV_PARAM_TYPES[self.kind]


def _check(name: str, value: float, kind: ParamKind) -> None:
    if not name or len(name) > PARAM_NAME_MAX or not name.isascii():
        raise ValueError(f"parameter name {name!r} is not 1-16 ASCII characters")
    if not math.isfinite(value):
        raise ValueError(f"{name}: {value} is not a finite number")
    limits = _INTEGER_RANGES.get(kind)
    if limits is not None and (value != int(value) or not limits[0] <= value <= limits[1]):
        raise ValueError(f"{name}: {value} does not fit a {kind.name} parameter")


def _shared_prefix(previous: bytes, name: bytes) -> int:
    limit = min(len(previous), len(name) - 1, _MAX_SHARED_PREFIX)
    shared = 0
    while shared < limit and previous[shared] == name[shared]:
        shared += 1
    return shared


class ParameterStore:
    """Parameters in firmware order; ``values`` replaces the defaults of the named ones."""

    def __init__(self, specs: Iterable[ParameterSpec], values: Mapping[str, float] | None = None) -> None:
        specs = tuple(specs)
        overrides = dict(values or {})
        unknown = set(overrides) - {spec.name for spec in specs}
        if unknown:
            raise ValueError(f"no such parameters: {', '.join(sorted(unknown))}")
        parameters: list[Parameter] = []
        by_name: dict[str, int] = {}
        for index, spec in enumerate(specs):
            if spec.name in by_name:
                raise ValueError(f"parameter {spec.name} is listed twice")
            value = float(overrides.get(spec.name, spec.default))
            _check(spec.name, spec.default, spec.kind)
            _check(spec.name, value, spec.kind)
            by_name[spec.name] = index
            parameters.append(Parameter(index, spec.name, value, float(spec.default), spec.kind))
        if len(parameters) > 0xFFFF:
            raise ValueError("MAVLink counts parameters in 16 bits")
        self._parameters = tuple(parameters)
        self._by_name = by_name

    @property
    def count(self) -> int:
        return len(self._parameters)

    def __iter__(self) -> Iterator[Parameter]:
        return iter(self._parameters)

    def by_index(self, index: int) -> Parameter | None:
        return self._parameters[index] if 0 <= index < len(self._parameters) else None

    def by_name(self, name: str) -> Parameter | None:
        index = self._by_name.get(name)
        return None if index is None else self._parameters[index]

    def lookup(self, name: str, index: int) -> Parameter | None:
        """PARAM_REQUEST_READ's rule: an index of -1 selects by name, any other index by index."""
        return self.by_name(name) if index == -1 else self.by_index(index)

    def values(self) -> dict[str, float]:
        return {p.name: p.value for p in self._parameters}

    def packed(self, *, with_defaults: bool = False, start: int = 0, count: int | None = None) -> bytes:
        """The ``@PARAM/param.pck`` file for parameters ``start`` .. ``start + count - 1``."""
        chosen = self._parameters[max(0, start) :]
        if count is not None:
            chosen = chosen[: max(0, count)]
        magic = PACKED_MAGIC_WITH_DEFAULTS if with_defaults else PACKED_MAGIC
        parts = [struct.pack("<HHH", magic, len(chosen), len(self._parameters))]
        previous = b""
        for parameter in chosen:
            name = parameter.name.encode("ascii")
            shared = _shared_prefix(previous, name)
            suffix = name[shared:]
            fmt = _PACK_FORMATS[parameter.kind]
            has_default = with_defaults and parameter.value != parameter.default
            type_byte = int(parameter.kind) | (_FLAG_HAS_DEFAULT if has_default else 0)
            parts.append(bytes([type_byte, ((len(suffix) - 1) << 4) | shared]) + suffix)
            parts.append(struct.pack("<" + fmt, _stored(parameter.value, parameter.kind)))
            if has_default:
                parts.append(struct.pack("<" + fmt, _stored(parameter.default, parameter.kind)))
            previous = name
        return b"".join(parts)

    def packed_file(self, query: Mapping[str, str]) -> bytes | None:
        """``packed()`` for a MAVFTP query (``withdefaults``, ``start``, ``count``); None if invalid."""
        try:
            start = int(query.get("start", "0"))
            count = int(query["count"]) if "count" in query else None
        except ValueError:
            return None
        return self.packed(with_defaults=query.get("withdefaults") == "1", start=start, count=count)


def _stored(value: float, kind: ParamKind) -> float | int:
    return value if kind is ParamKind.FLOAT else int(value)


def default_parameters(
    *, system_id: int = 1, rc_failsafe_timeout_s: float = RC_FAILSAFE_TIMEOUT_S, reports_rssi: bool = False
) -> ParameterStore:
    """The ArduCopter parameter set, with the values this vehicle actually behaves by."""
    values = dict(COPTER_CONFIGURED)
    values["SYSID_THISMAV"] = float(system_id)
    values["RC_FS_TIMEOUT"] = float(rc_failsafe_timeout_s)
    if reports_rssi:
        values["RSSI_TYPE"] = float(RSSI_TYPE_RECEIVER_PROTOCOL)
    return ParameterStore(COPTER_PARAMETERS, values)
