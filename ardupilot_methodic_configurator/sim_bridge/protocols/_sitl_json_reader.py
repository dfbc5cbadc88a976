# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What ArduPilot SITL's own JSON reader would read from a message, so the decoder can warn.

Strategy: SITL does not parse JSON; for each keytable entry it runs ``strstr`` for the section,
then ``strstr`` for the key after it, and reads the value ``len(key) + 2`` characters later with
``atof`` / a digit-skipping array reader / a boolean reader.  This module replays exactly that on
the message text, and separately locates where each key really is in the JSON (a small
string-aware token scan), so the caller can compare "where and what SITL reads" with "what the
sender meant".  Booleans are read two ways, because SITL changed: builds of 2025 read them with
``strtoull`` alone (so ``true`` is false there), later builds check ``true``/``false`` first.

Every function does bounded work on any text: the replay is a few C-level searches per key, and
the token scan refuses (returns None) a text longer than ``MAX_SCANNED_CHARS`` or with more than
``MAX_SCANNED_TOKENS`` strings and brackets, since a real SITL state has about sixty.  Nothing
here raises on odd text; it is only called on text that ``json.loads`` accepted.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

# Value kinds of SIM_JSON's keytable.
NUMBER = "number"
VECTOR3 = "vector3"
VECTOR4 = "vector4"
BOOLEAN = "boolean"

# (section, key, kind) in keytable order; section "" is the top level.
KEYTABLE: tuple[tuple[str, str, str], ...] = (
    ("", "timestamp", NUMBER),
    ("", "latitude", NUMBER),
    ("", "longitude", NUMBER),
    ("", "altitude", NUMBER),
    ("imu", "gyro", VECTOR3),
    ("imu", "accel_body", VECTOR3),
    ("", "position", VECTOR3),
    ("", "attitude", VECTOR3),
    ("", "quaternion", VECTOR4),
    ("", "velocity", VECTOR3),
    *(("", f"rng_{i}", NUMBER) for i in range(1, 7)),
    ("", "velocity_wind", VECTOR3),
    ("windvane", "direction", NUMBER),
    ("windvane", "speed", NUMBER),
    ("", "airspeed", NUMBER),
    ("", "no_time_sync", BOOLEAN),
    ("", "no_lockstep", BOOLEAN),
    *(("rc", f"rc_{i}", NUMBER) for i in range(1, 13)),
    ("battery", "voltage", NUMBER),
    ("battery", "current", NUMBER),
)
# A key as (section, key).
Key = tuple[str, str]
KIND: dict[Key, str] = {(section, key): kind for section, key, kind in KEYTABLE}


def dotted(entry: Key) -> str:
    """``section.key``, or ``key`` at the top level: how a key is named in warnings and errors."""
    section, key = entry
    return f"{section}.{key}" if section else key


# A full SITL state has about 60 strings and brackets; four times that still scans in about
# 0.2 ms, and a larger message is not one a physics back end writes by hand.
MAX_SCANNED_TOKENS = 256
# Likewise in characters: a full state is under 2 KB.
MAX_SCANNED_CHARS = 8192

SitlValue = float | tuple[float, ...] | bool | None


@dataclass(frozen=True, slots=True)
class SitlRead:
    """Where SITL's ``strstr`` lands for one key and what it would read there (None: parse failure)."""

    key_pos: int
    value: SitlValue


# C's atof prefix: optional white space, sign, digits with an optional fraction and exponent.
_ATOF = re.compile(r"[ \t\n\r\f\v]*([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)")
# strtoull's prefix; only whether the digits are all zero matters (it saturates, it never fails).
_STRTOULL = re.compile(r"[ \t\n\r\f\v]*[+-]?([0-9]+)")
_TO_NUMBER_START = re.compile(r"[^\-0-9]*")
_TO_SEPARATOR = re.compile(r"[^,\]]*")


def _atof(text: str, pos: int) -> float:
    match = _ATOF.match(text, pos)
    # float() has no digit limit (unlike int()) and gives inf where atof gives HUGE_VAL.
    return float(match.group(1)) if match else 0.0


def _array(text: str, pos: int, count: int) -> tuple[float, ...] | None:
    values = []
    end = len(text)
    for i in range(count):
        pos = _TO_NUMBER_START.match(text, pos).end()  # type: ignore[union-attr]  # "*" always matches
        if pos >= end:
            return None
        values.append(_atof(text, pos))
        pos = _TO_SEPARATOR.match(text, pos).end()  # type: ignore[union-attr]
        if i < count - 1:
            if pos >= end or text[pos] != ",":
                return None
            pos += 1
    return tuple(values)


def _strtoull_flag(text: str, pos: int) -> bool:
    match = _STRTOULL.match(text, pos)
    # int() of the digits could exceed Python's digit limit; a non-zero digit is all that counts.
    return bool(match and match.group(1).strip("0"))


def _boolean(text: str, pos: int) -> bool:
    if text[pos : pos + 4].lower() == "true":
        return True
    if text[pos : pos + 5].lower() == "false":
        return False
    return _strtoull_flag(text, pos)


def _read_value(text: str, pos: int, kind: str) -> SitlValue:
    if kind == NUMBER:
        return _atof(text, pos)
    if kind == BOOLEAN:
        return _boolean(text, pos)
    return _array(text, pos, 3 if kind == VECTOR3 else 4)


def sitl_key_pos(text: str, section: str, key: str) -> int:
    """Where SITL's two ``strstr`` calls land for ``section``/``key``; -1 when it finds nothing."""
    section_pos = text.find(section)
    if section_pos < 0:
        return -1
    return text.find(key, section_pos + len(section) + 1)


def sitl_key_positions(text: str) -> dict[tuple[str, str], int]:
    """``sitl_key_pos`` of every keytable key SITL finds in ``text``, with one search per section."""
    starts: dict[str, int] = {}
    positions: dict[tuple[str, str], int] = {}
    for section, key, _kind in KEYTABLE:
        start = starts.get(section)
        if start is None:
            found = text.find(section)
            start = starts[section] = -1 if found < 0 else found + len(section) + 1
        position = -1 if start < 0 else text.find(key, start)
        if position >= 0:
            positions[section, key] = position
    return positions


def sitl_value(text: str, key_pos: int, key: str, kind: str) -> SitlValue:
    """What current SITL reads for a key found at ``key_pos`` (None: it cannot parse the value)."""
    return _read_value(text, key_pos + len(key) + 2, kind)


def sitl_2025_flag(text: str, key_pos: int, key: str) -> bool:
    """What SITL builds of 2025 read for a boolean key found at ``key_pos`` (``strtoull`` only)."""
    return _strtoull_flag(text, key_pos + len(key) + 2)


def sitl_read(text: str, section: str, key: str, kind: str) -> SitlRead | None:
    """Replay SITL's lookup of ``section``/``key``; None when SITL would not find it at all."""
    key_pos = sitl_key_pos(text, section, key)
    if key_pos < 0:
        return None
    return SitlRead(key_pos, sitl_value(text, key_pos, key, kind))


# A string (group 1 = its content, group 2 = the colon that makes it a key) or a bracket.
# The string body is written unrolled ("normal* (escape normal*)*"): sre then takes runs of plain
# characters in one step, several times faster on long strings than a per-character alternation.
_TOKEN = re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"(\s*:)?|[{}\[\]]')


@dataclass(frozen=True, slots=True)
class KeyMap:
    """Where the keys of the top level and of its direct sub-objects are in the text.

    ``first`` maps (section, key) (section "" = top level) to the index of the key's first
    character; ``counts`` says how often each such key occurs; ``strings`` holds the span
    (start, end) and content of every string token, in text order, for ``string_at``.
    """

    first: dict[tuple[str, str], int]
    counts: dict[tuple[str, str], int]
    string_starts: tuple[int, ...]
    strings: tuple[tuple[int, str], ...]  # (end, content), parallel to string_starts

    def string_at(self, pos: int) -> str | None:
        """The content of the JSON string token whose characters cover ``pos``, if any."""
        index = bisect.bisect_right(self.string_starts, pos) - 1
        if index < 0:
            return None
        end, content = self.strings[index]
        return content if self.string_starts[index] < pos < end - 1 else None


def map_keys(text: str) -> KeyMap | None:
    """Scan JSON ``text`` (already known to be valid) for key positions; None if it is too large.

    Counting quotes and brackets first is a C-level pass, so an oversized text costs almost
    nothing before it is refused; quotes inside strings only make the count an overestimate.
    """
    if len(text) > MAX_SCANNED_CHARS:
        return None
    if text.count('"') // 2 + text.count("{") + text.count("[") > MAX_SCANNED_TOKENS:
        return None
    first: dict[tuple[str, str], int] = {}
    counts: dict[tuple[str, str], int] = {}
    starts: list[int] = []
    strings: list[tuple[int, str]] = []
    stack: list[str | None] = []  # name of each open object; None for arrays and the root
    pending: str | None = None  # the key whose value comes next
    for match in _TOKEN.finditer(text):
        name = match.group(1)
        if name is not None:
            starts.append(match.start())
            strings.append((match.end(1) + 1, name))
            if match.group(2):
                pending = name
                depth = len(stack)
                section = "" if depth == 1 else (stack[-1] if depth == 2 else None)
                if section is not None:
                    entry = (section, name)
                    if entry in counts:
                        counts[entry] += 1
                    else:
                        first[entry] = match.start() + 1
                        counts[entry] = 1
            continue
        char = match.group()
        if char == "{":
            stack.append(pending)
        elif char == "[":
            stack.append(None)
        elif stack:
            stack.pop()
        pending = None
    return KeyMap(first, counts, tuple(starts), tuple(strings))
