# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Sans-IO codec for ArduPilot SITL's JSON physics interface: the JSON state messages.

Strategy: JSON states are framed the way SITL frames them (text between newlines, last complete
message wins), parsed with a real JSON parser and validated key by key from a table of (section,
key, kind) (``_sitl_json_values``).  Because SITL itself reads the text with ``strstr``, the
decoder then replays SITL's reader (``_sitl_json_reader``) and turns every place where SITL would
read something other than what the JSON says into a readable warning (``_sitl_json_misreads``).
The encoder writes compact JSON in a key order chosen so that no key is a substring of an earlier
one, and writes ``no_time_sync``/``no_lockstep`` as ``1``/``0``: builds of 2025 read those with
``strtoull`` alone (``true`` is false there), later builds also accept ``true``/``false``, and
every build reads a digit right.  The decoder accepts ``true``, ``false``, ``0`` and ``1``.
The other half of the interface, SITL's binary servo packets, is ``sitl_servo_packet``;
``decode`` takes a datagram of either half.

Bounded work: any datagram, up to the 64 KiB UDP limit, costs one C-level JSON parse plus a
bounded amount of Python work, and never raises anything but ``CodecError``.  A number of any
length is read as SITL's ``atof`` reads it (a 5000-digit integer is out of range, not an
exception); nesting too deep for the parser is invalid JSON.  Only the keys SITL knows are looked
up; unknown keys are counted and the first ``MAX_NAMED_UNKNOWN_KEYS`` named.  A message larger
than the key scan takes (``_sitl_json_reader.MAX_SCANNED_CHARS`` / ``MAX_SCANNED_TOKENS``) still
has SITL's reader replayed key by key, but its misreads are reported by value, without columns
or duplicate-key counts.  A state carries at most ``MAX_WARNINGS`` warnings, the last of which
then says how many were left out, and names quoted in warnings are cut to a readable length.
When a cap is reached the state still decodes, with those warnings: SITL accepts such a message,
so a user wants to see what SITL reads, and to be told what the panel did not check.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ... import _
from ._sitl_json_misreads import check_required, pitfalls
from ._sitl_json_reader import KEYTABLE, KIND, Key, SitlValue, dotted, map_keys
from ._sitl_json_values import CONVERTERS, frame, json_type, loads, shown
from .errors import CodecError
from .names import ARDUPILOT_JSON as PROTOCOL
from .sitl_servo_packet import ServoPacket, decode_servo_packet

MAX_WARNINGS = 16
# What JSON, and SITL's framing, skip around a message.
JSON_WHITE_SPACE = b" \t\r\n"
MAX_NAMED_UNKNOWN_KEYS = 8


Vector3 = tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class FdmState:
    """Physics to SITL: one JSON state message (units as SITL expects; see PROTOCOLS.md A.3)."""

    timestamp: float
    gyro: Vector3
    accel_body: Vector3
    velocity: Vector3
    attitude: Vector3 | None = None
    quaternion: tuple[float, float, float, float] | None = None
    position: Vector3 | None = None
    latitude: float | None = None
    longitude: float | None = None
    altitude: float | None = None
    rng: tuple[float | None, ...] = (None,) * 6  # rng_1..rng_6
    velocity_wind: Vector3 | None = None
    windvane_direction: float | None = None
    windvane_speed: float | None = None
    airspeed: float | None = None
    no_time_sync: bool | None = None
    no_lockstep: bool | None = None
    # index i = rc_{i+1}; length = highest N present; None = no "rc" object
    rc: tuple[float | None, ...] | None = None
    battery_voltage: float | None = None
    battery_current: float | None = None
    # where SITL would accept this message but read something else, in readable sentences
    warnings: tuple[str, ...] = ()


_ROOT_KEYS = tuple(key for section, key, _kind in KEYTABLE if section == "")
_SECTIONS: Mapping[str, tuple[str, ...]] = {
    section: tuple(key for owner, key, _kind in KEYTABLE if owner == section)
    for section in dict.fromkeys(section for section, _key, _kind in KEYTABLE if section)
}
# State field for each plain (non-tuple-assembled) key.
_FIELD: Mapping[Key, str] = {
    ("", "timestamp"): "timestamp",
    ("imu", "gyro"): "gyro",
    ("imu", "accel_body"): "accel_body",
    ("", "velocity"): "velocity",
    ("", "attitude"): "attitude",
    ("", "quaternion"): "quaternion",
    ("", "position"): "position",
    ("", "latitude"): "latitude",
    ("", "longitude"): "longitude",
    ("", "altitude"): "altitude",
    ("", "velocity_wind"): "velocity_wind",
    ("windvane", "direction"): "windvane_direction",
    ("windvane", "speed"): "windvane_speed",
    ("", "airspeed"): "airspeed",
    ("", "no_time_sync"): "no_time_sync",
    ("", "no_lockstep"): "no_lockstep",
    ("battery", "voltage"): "battery_voltage",
    ("battery", "current"): "battery_current",
}
_RNG_KEYS: tuple[Key, ...] = tuple(("", f"rng_{i}") for i in range(1, 7))
_RC_KEYS: tuple[Key, ...] = tuple(("rc", f"rc_{i}") for i in range(1, 13))


def decode_state(data: bytes) -> FdmState:
    """Decode one JSON state datagram; warnings name every place SITL would misread it."""
    try:
        text = bytes(data).decode("utf-8")
    except UnicodeDecodeError as error:
        raise CodecError(
            _("not UTF-8 text: byte 0x{byte:02x} at offset {offset}").format(
                byte=error.object[error.start], offset=error.start
            ),
            protocol=PROTOCOL,
            reason="encoding",
        ) from error
    message, warnings = frame(text)
    document = loads(message)
    raw, rc_present = _collect(document, warnings)
    keymap = map_keys(message)
    if keymap is None:
        warnings.append(
            _(
                "the message is too large to map key by key: SITL's misreads are found by value, "
                "without columns, and repeated keys are not counted"
            )
        )
    check_required(message, raw, keymap)
    values: dict[Key, SitlValue] = {
        entry: CONVERTERS[KIND[entry]](value, dotted(entry)) for entry, value in raw.items()
    }
    warnings.extend(pitfalls(message, values, keymap))
    if len(warnings) > MAX_WARNINGS:
        left_out = len(warnings) - (MAX_WARNINGS - 1)
        warnings[MAX_WARNINGS - 1 :] = [_("{count} more warnings not shown").format(count=left_out)]
    return _build_state(values, rc_present, tuple(warnings))


def _collect(document: dict[str, object], warnings: list[str]) -> tuple[dict[Key, object], bool]:
    """The keytable values present in ``document``; unknown keys are counted and the first named.

    Known keys are looked up rather than found by iterating, so a message with thousands of
    unknown keys costs the same as one with a few.
    """
    raw: dict[Key, object] = {("", key): document[key] for key in _ROOT_KEYS if key in document}
    unknown = len(document) - len(raw)
    for section, keys in _SECTIONS.items():
        if section not in document:
            continue
        unknown -= 1
        members = document[section]
        if not isinstance(members, dict):
            raise CodecError(
                _('"{name}" must be an object, got {type}').format(name=section, type=json_type(members)),
                protocol=PROTOCOL,
                reason="type",
            )
        found = [key for key in keys if key in members]
        raw.update(((section, key), members[key]) for key in found)
        unknown += len(members) - len(found)
    names = _unknown_names(document)
    warnings.extend(_('SITL ignores the unknown key "{key}"').format(key=shown(name)) for name in names)
    if unknown > len(names):
        warnings.append(_("SITL ignores {count} more unknown keys").format(count=unknown - len(names)))
    return raw, "rc" in document


def _unknown_names(document: dict[str, object]) -> list[str]:
    """The first ``MAX_NAMED_UNKNOWN_KEYS`` unknown keys in document order (sections inline)."""
    names: list[str] = []
    for name, value in document.items():
        if len(names) >= MAX_NAMED_UNKNOWN_KEYS:
            break
        if name in _SECTIONS:
            for key in value:  # type: ignore[attr-defined]  # _collect checked it is a dict
                if (name, key) not in KIND:
                    names.append(f"{name}.{key}")
                    if len(names) >= MAX_NAMED_UNKNOWN_KEYS:
                        break
        elif ("", name) not in KIND:
            names.append(name)
    return names


def _build_state(values: dict[Key, SitlValue], rc_present: bool, warnings: tuple[str, ...]) -> FdmState:
    fields: dict[str, object] = {_FIELD[entry]: value for entry, value in values.items() if entry in _FIELD}
    fields["rng"] = tuple(values.get(entry) for entry in _RNG_KEYS)
    if rc_present:
        highest = max((index + 1 for index, entry in enumerate(_RC_KEYS) if entry in values), default=0)
        fields["rc"] = tuple(values.get(entry) for entry in _RC_KEYS[:highest])
    return FdmState(warnings=warnings, **fields)  # type: ignore[arg-type]


def _sequence(name: str, value: Sequence[float], count: int) -> list[float]:
    if len(value) != count:
        raise CodecError(
            _("cannot encode {name}: {actual} values, expected {count}").format(
                name=name, actual=len(value), count=count
            ),
            protocol=PROTOCOL,
            reason="value",
        )
    return list(value)


def encode_state(state: FdmState) -> bytes:
    """``"\\n{...}\\n"``: compact JSON that SITL's substring reader reads exactly as written.

    Keys go out in an order where no name is found inside an earlier one ("velocity" before
    "velocity_wind", "airspeed" before the windvane's "speed", rc_1 before rc_10), and the flags
    as 1/0, which SITL builds of every year read right.  One pitfall no order can avoid: rc_10..
    rc_12 without rc_1 makes SITL read rc_1 from rc_10; the decoder warns about it.  ``warnings``
    are not encoded.
    """
    document: dict[str, object] = {
        "timestamp": state.timestamp,
        "imu": {
            "gyro": _sequence("gyro", state.gyro, 3),
            "accel_body": _sequence("accel_body", state.accel_body, 3),
        },
    }
    optional_vectors: tuple[tuple[str, Sequence[float] | None, int], ...] = (
        ("position", state.position, 3),
        ("attitude", state.attitude, 3),
        ("quaternion", state.quaternion, 4),
        ("velocity", state.velocity, 3),
        ("velocity_wind", state.velocity_wind, 3),
    )
    for name, vector, count in optional_vectors:
        if vector is not None:
            document[name] = _sequence(name, vector, count)
    if len(state.rng) != len(_RNG_KEYS):
        raise CodecError(
            _("cannot encode rng: {actual} values, expected 6").format(actual=len(state.rng)),
            protocol=PROTOCOL,
            reason="value",
        )
    scalars = (
        ("latitude", state.latitude),
        ("longitude", state.longitude),
        ("altitude", state.altitude),
        *((key, value) for (_section, key), value in zip(_RNG_KEYS, state.rng, strict=True)),
        ("airspeed", state.airspeed),
    )
    document.update((name, value) for name, value in scalars if value is not None)
    windvane = {
        name: value
        for name, value in (("direction", state.windvane_direction), ("speed", state.windvane_speed))
        if value is not None
    }
    if windvane:
        document["windvane"] = windvane
    for name, flag in (("no_time_sync", state.no_time_sync), ("no_lockstep", state.no_lockstep)):
        if flag is not None:
            document[name] = 1 if flag else 0
    if state.rc is not None:
        if len(state.rc) > len(_RC_KEYS):
            raise CodecError(
                _("cannot encode rc: {actual} channels, SITL reads at most 12").format(actual=len(state.rc)),
                protocol=PROTOCOL,
                reason="value",
            )
        document["rc"] = {
            key: value
            for (_section, key), value in zip(_RC_KEYS, state.rc, strict=False)
            if value is not None
        }
    battery = {
        name: value
        for name, value in (("voltage", state.battery_voltage), ("current", state.battery_current))
        if value is not None
    }
    if battery:
        document["battery"] = battery
    try:
        text = json.dumps(document, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise CodecError(
            _("cannot encode the state: {error}").format(error=error), protocol=PROTOCOL, reason="value"
        ) from error
    return b"\n" + text.encode("utf-8") + b"\n"


def decode(data: bytes) -> ServoPacket | FdmState:
    """A datagram of either half of the interface: a JSON state when it opens with ``{``."""
    if data.lstrip(JSON_WHITE_SPACE)[:1] == b"{":
        return decode_state(data)
    return decode_servo_packet(data)
