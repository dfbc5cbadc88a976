# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Sans-IO codec for ArduPilot SITL's JSON physics interface: binary servo packets and JSON states.

Strategy: servo packets are fixed little-endian structs, dispatched by a table keyed by length
and checked against the magic that length implies.  JSON states are framed the way SITL frames
them (text between newlines, last complete message wins), parsed with a real JSON parser and
validated key by key from a table of (section, key, kind).  Because SITL itself reads the text
with ``strstr``, the decoder then replays SITL's reader (``_sitl_json_reader``) and turns every
place where SITL would read something other than what the JSON says into a readable warning.
The encoder writes compact JSON in a key order chosen so that no key is a substring of an earlier
one, and writes ``no_time_sync``/``no_lockstep`` as ``1``/``0``: builds of 2025 read those with
``strtoull`` alone (``true`` is false there), later builds also accept ``true``/``false``, and
every build reads a digit right.  The decoder accepts ``true``, ``false``, ``0`` and ``1``.

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
import math
import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from amc_rc_receiver import _
from amc_rc_receiver.sim_bridge._sitl_json_reader import (
    BOOLEAN,
    KEYTABLE,
    NUMBER,
    VECTOR3,
    VECTOR4,
    KeyMap,
    SitlRead,
    SitlValue,
    map_keys,
    sitl_2025_flag,
    sitl_key_positions,
    sitl_read,
    sitl_value,
)
from amc_rc_receiver.sim_bridge.errors import CodecError, size_mismatch

PROTOCOL = "ardupilot-json"

MAGIC_16 = 18458
MAGIC_32 = 29569
SERVO_16_LENGTH = 40
SERVO_32_LENGTH = 72

MAX_WARNINGS = 16
MAX_NAMED_UNKNOWN_KEYS = 8
# Key names longer than this are cut in warnings (a key may be 60 KB long).
_MAX_SHOWN_NAME = 40
# Up to this many lines, the messages of a datagram are counted exactly for the warning.
_MAX_COUNTED_LINES = 64


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


_Key = tuple[str, str]
_REQUIRED: tuple[_Key, ...] = (("", "timestamp"), ("imu", "gyro"), ("imu", "accel_body"), ("", "velocity"))
_ATTITUDE_KEYS: tuple[_Key, ...] = (("", "attitude"), ("", "quaternion"))
_KIND: Mapping[_Key, str] = {(section, key): kind for section, key, kind in KEYTABLE}
_ROOT_KEYS = tuple(key for section, key, _kind in KEYTABLE if section == "")
_SECTIONS: Mapping[str, tuple[str, ...]] = {
    section: tuple(key for owner, key, _kind in KEYTABLE if owner == section)
    for section in dict.fromkeys(section for section, _key, _kind in KEYTABLE if section)
}
# State field for each plain (non-tuple-assembled) key.
_FIELD: Mapping[_Key, str] = {
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
_RNG_KEYS: tuple[_Key, ...] = tuple(("", f"rng_{i}") for i in range(1, 7))
_RC_KEYS: tuple[_Key, ...] = tuple(("rc", f"rc_{i}") for i in range(1, 13))


def _dotted(entry: _Key) -> str:
    section, key = entry
    return f"{section}.{key}" if section else key


def _shown(text: str) -> str:
    """``text`` cut to a readable length, with unprintable characters escaped, for a warning."""
    cut = text[: _MAX_SHOWN_NAME + 1]
    shown = "".join(char if char.isprintable() else f"\\u{ord(char):04x}" for char in cut[:_MAX_SHOWN_NAME])
    return shown + "…" if len(cut) > _MAX_SHOWN_NAME else shown


def _json_type(value: object) -> str:
    if isinstance(value, bool):
        return _("true/false")
    if value is None:
        return _("null")
    if isinstance(value, str):
        return _("a string")
    if isinstance(value, list):
        return _("a list")
    if isinstance(value, dict):
        return _("an object")
    return _("a number")


def _number(value: object, name: str) -> float:
    if type(value) is not float and type(value) is not int:
        raise CodecError(
            _('"{name}" must be a number, got {type}').format(name=name, type=_json_type(value)),
            protocol=PROTOCOL,
            reason="type",
        )
    number = _as_float(value)
    if not math.isfinite(number):
        raise CodecError(
            _('"{name}" is out of range: {value}').format(name=name, value=number),
            protocol=PROTOCOL,
            reason="number",
        )
    return number


def _as_float(value: float) -> float:
    """``value`` as a float; an integer beyond the float range is infinite, as atof makes it."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def _vector(value: object, name: str, count: int) -> tuple[float, ...]:
    if not isinstance(value, list):
        raise CodecError(
            _('"{name}" must be a list of {count} numbers, got {type}').format(
                name=name, count=count, type=_json_type(value)
            ),
            protocol=PROTOCOL,
            reason="type",
        )
    if len(value) != count:
        raise CodecError(
            _('"{name}" has {actual} numbers, expected {count}').format(
                name=name, actual=len(value), count=count
            ),
            protocol=PROTOCOL,
            reason="short-vector" if len(value) < count else "long-vector",
        )
    return tuple(_number(item, f"{name}[{index}]") for index, item in enumerate(value))


def _flag(value: object, name: str) -> bool:
    if type(value) is bool:
        return value
    if type(value) is float or type(value) is int:
        if value in (0, 1):
            return value == 1
        raise CodecError(
            _('"{name}" must be true, false, 0 or 1, got {value:g}').format(
                name=name, value=_as_float(value)
            ),
            protocol=PROTOCOL,
            reason="value",
        )
    raise CodecError(
        _('"{name}" must be true, false, 0 or 1, got {type}').format(name=name, type=_json_type(value)),
        protocol=PROTOCOL,
        reason="type",
    )


_CONVERTERS: Mapping[str, Callable[[object, str], SitlValue]] = {
    NUMBER: _number,
    VECTOR3: lambda value, name: _vector(value, name, 3),
    VECTOR4: lambda value, name: _vector(value, name, 4),
    BOOLEAN: _flag,
}


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
    message, warnings = _frame(text)
    document = _loads(message)
    raw, rc_present = _collect(document, warnings)
    keymap = map_keys(message)
    if keymap is None:
        warnings.append(
            _(
                "the message is too large to map key by key: SITL's misreads are found by value, "
                "without columns, and repeated keys are not counted"
            )
        )
    _check_required(message, raw, keymap)
    values: dict[_Key, SitlValue] = {
        entry: _CONVERTERS[_KIND[entry]](value, _dotted(entry)) for entry, value in raw.items()
    }
    warnings.extend(_pitfalls(message, values, keymap))
    if len(warnings) > MAX_WARNINGS:
        left_out = len(warnings) - (MAX_WARNINGS - 1)
        warnings[MAX_WARNINGS - 1 :] = [_("{count} more warnings not shown").format(count=left_out)]
    return _build_state(values, rc_present, tuple(warnings))


def _frame(text: str) -> tuple[str, list[str]]:
    """Pick the message SITL would use and say what its framing gets wrong.

    Only C-level searches over the text: a datagram of 64 KiB of newlines costs no Python loop.
    """
    last_newline = text.rfind("\n")
    tail = text[last_newline + 1 :]
    warnings: list[str] = []
    if tail.strip():
        message, start = tail, last_newline + 1
        warnings.append(
            _(
                "no newline after the JSON message: SITL parses it only when the next datagram arrives "
                "(one datagram late); end every message with \\n"
            )
        )
    else:
        end = len(text[:last_newline].rstrip()) if last_newline >= 0 else 0
        if end == 0:
            raise CodecError(
                _("no JSON message: the datagram is empty or only white space"),
                protocol=PROTOCOL,
                reason="empty",
            )
        start = text.rfind("\n", 0, end) + 1
        message = text[start : text.find("\n", end)]
        if not text[text.rfind("\n", 0, last_newline) + 1 : last_newline].strip():
            warnings.append(
                _(
                    "the datagram ends with an empty line: SITL parses the empty text between the last two "
                    "newlines and rejects the datagram; end the message with a single \\n"
                )
            )
    if text[:start].strip():
        if text.count("\n") <= _MAX_COUNTED_LINES:
            count = sum(1 for line in text.split("\n") if line.strip())
            warnings.append(
                _(
                    "{count} JSON messages in one datagram: only the last is used; send one per datagram"
                ).format(count=count)
            )
        else:
            warnings.append(
                _("several JSON messages in one datagram: only the last is used; send one per datagram")
            )
    return message, warnings


def _reject_constant(name: str) -> object:
    raise CodecError(
        _("not valid JSON: {name} is not a JSON number").format(name=name), protocol=PROTOCOL, reason="json"
    )


def _parse(message: str) -> object:
    try:
        return json.loads(message, parse_constant=_reject_constant)
    except (CodecError, json.JSONDecodeError):
        raise
    except ValueError:
        # int() refuses numbers of more than 4300 digits, SITL's atof reads any: parse again,
        # reading every integer as a float (the slower parse is kept for this rare case).
        return json.loads(message, parse_constant=_reject_constant, parse_int=float)


def _loads(message: str) -> dict[str, object]:
    try:
        document = _parse(message)
    except json.JSONDecodeError as error:
        raise CodecError(
            _("not valid JSON: {problem} at line {line} column {column}").format(
                problem=error.msg, line=error.lineno, column=error.colno
            ),
            protocol=PROTOCOL,
            reason="json",
        ) from error
    except RecursionError as error:
        raise CodecError(_("not valid JSON: nested too deeply"), protocol=PROTOCOL, reason="json") from error
    if not isinstance(document, dict):
        raise CodecError(
            _("the message is {type}, expected a JSON object").format(type=_json_type(document)),
            protocol=PROTOCOL,
            reason="json",
        )
    return document


def _collect(document: dict[str, object], warnings: list[str]) -> tuple[dict[_Key, object], bool]:
    """The keytable values present in ``document``; unknown keys are counted and the first named.

    Known keys are looked up rather than found by iterating, so a message with thousands of
    unknown keys costs the same as one with a few.
    """
    raw: dict[_Key, object] = {("", key): document[key] for key in _ROOT_KEYS if key in document}
    unknown = len(document) - len(raw)
    for section, keys in _SECTIONS.items():
        if section not in document:
            continue
        unknown -= 1
        members = document[section]
        if not isinstance(members, dict):
            raise CodecError(
                _('"{name}" must be an object, got {type}').format(name=section, type=_json_type(members)),
                protocol=PROTOCOL,
                reason="type",
            )
        found = [key for key in keys if key in members]
        raw.update(((section, key), members[key]) for key in found)
        unknown += len(members) - len(found)
    names = _unknown_names(document)
    warnings.extend(_('SITL ignores the unknown key "{key}"').format(key=_shown(name)) for name in names)
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
                if (name, key) not in _KIND:
                    names.append(f"{name}.{key}")
                    if len(names) >= MAX_NAMED_UNKNOWN_KEYS:
                        break
        elif ("", name) not in _KIND:
            names.append(name)
    return names


def _found_in(read: SitlRead, key: str, keymap: KeyMap | None) -> str:
    """Name what a stray strstr hit landed in, for a warning."""
    found = None if keymap is None else keymap.string_at(read.key_pos)
    if found is None:
        return _("the text at column {column}").format(column=read.key_pos + 1)
    if found == key:
        return _('another "{key}" at column {column}').format(key=key, column=read.key_pos + 1)
    return _('"{found}" at column {column}').format(found=_shown(found), column=read.key_pos + 1)


def _check_required(message: str, raw: dict[_Key, object], keymap: KeyMap | None) -> None:
    missing = [entry for entry in _REQUIRED if entry not in raw]
    if missing:
        names = []
        for entry in missing:
            name = f'"{_dotted(entry)}"'
            read = sitl_read(message, *entry, _KIND[entry])
            if read is not None:
                name += _(" (SITL would read it from {found})").format(
                    found=_found_in(read, entry[1], keymap)
                )
            names.append(name)
        template = (
            _("missing required key {names}") if len(names) == 1 else _("missing required keys {names}")
        )
        raise CodecError(template.format(names=", ".join(names)), protocol=PROTOCOL, reason="missing-key")
    if not any(entry in raw for entry in _ATTITUDE_KEYS):
        hints = ""
        for entry in _ATTITUDE_KEYS:
            read = sitl_read(message, *entry, _KIND[entry])
            if read is not None:
                hints += _(' (SITL would read "{key}" from {found})').format(
                    key=entry[1], found=_found_in(read, entry[1], keymap)
                )
        raise CodecError(
            _('missing "attitude" or "quaternion": SITL needs one of them{hints}').format(hints=hints),
            protocol=PROTOCOL,
            reason="missing-key",
        )


def _show(value: SitlValue) -> str:
    if value is None:
        return _("nothing (it cannot parse the value)")
    return json.dumps(value, separators=(",", ":"))


def _pitfalls(message: str, values: dict[_Key, SitlValue], keymap: KeyMap | None) -> list[str]:
    """Compare SITL's substring reader with the parsed JSON, key by key.

    With a key map, misreads are located (which text SITL reads instead, and where the key really
    is); without one (a message too large to scan) they are found by comparing values alone.
    """
    warnings: list[str] = []
    if keymap is not None:
        warnings.extend(
            _(
                'key "{key}" appears {count} times: SITL reads the first, '
                "this decoder shows the last; send it once"
            ).format(key=_dotted(entry), count=count)
            for entry, count in keymap.counts.items()
            if count > 1 and entry in _KIND
        )
    positions = sitl_key_positions(message)
    for section, key, kind in KEYTABLE:
        entry = (section, key)
        key_pos = positions.get(entry)
        if key_pos is None:
            continue  # SITL does not find it, so the JSON has it neither
        meant = values.get(entry)
        real = None if keymap is None else keymap.first.get(entry)
        warning: str | None = None
        if meant is None:
            read = SitlRead(key_pos, sitl_value(message, key_pos, key, kind))
            warning = _(
                'SITL matches names by substring: it would read "{name}" = {value} from {found}, '
                'although the message has no "{name}"'
            ).format(name=_dotted(entry), value=_show(read.value), found=_found_in(read, key, keymap))
        elif keymap is None or real is None:
            # Too large to map (or the key is spelled with escapes): compare what SITL reads.
            warning = _misread(message, entry, kind=kind, at=key_pos, meant=meant, hint=False)
        elif key_pos != real:
            warning = _(
                'SITL matches names by substring: it would read "{name}" from {found} '
                'instead of from column {column}; send "{key}" before it'
            ).format(
                name=_dotted(entry),
                found=_found_in(SitlRead(key_pos, None), key, keymap),
                column=real + 1,
                key=key,
            )
        elif keymap.counts[entry] == 1 and (kind == BOOLEAN or not message.startswith('":', real + len(key))):
            # Numbers and arrays written as "key":value are read as written; only odd spacing
            # (and any boolean) needs SITL's value readers replayed.
            warning = _misread(message, entry, kind=kind, at=real, meant=meant, hint=True)
        if warning is not None:
            warnings.append(warning)
    return warnings


def _misread(message: str, entry: _Key, *, kind: str, at: int, meant: SitlValue, hint: bool) -> str | None:
    """The warning when SITL, reading the key found at ``at``, gets something other than ``meant``.

    ``hint`` adds how to write the key, which is only right when ``at`` is the key itself.
    """
    key = entry[1]
    sitl = sitl_value(message, at, key, kind)
    if sitl == meant:
        if kind == BOOLEAN and meant and not sitl_2025_flag(message, at, key):
            return _(
                'SITL builds of 2025 read "{name}" as a number only, so they take true for false; '
                'write "{key}":1, which every build reads as true'
            ).format(name=_dotted(entry), key=key)
        return None
    sentence = _('SITL reads "{name}" as {sitl} instead of {meant}').format(
        name=_dotted(entry), sitl=_show(sitl), meant=_show(meant)
    )
    after_key = at + len(key)
    if not hint:
        return sentence
    if message[after_key + 1 : after_key + 2] != ":":
        advice = _('remove the space between "{key}" and its colon').format(key=key)
    elif kind == BOOLEAN:
        advice = _('write "{key}":{value}, which every SITL build reads as {word}').format(
            key=key, value=1 if meant else 0, word=_show(meant)
        )
    else:
        return sentence
    return f"{sentence}: {advice}"


def _build_state(values: dict[_Key, SitlValue], rc_present: bool, warnings: tuple[str, ...]) -> FdmState:
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
