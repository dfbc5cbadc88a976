# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Where SITL's substring reader would read a JSON state other than the JSON says, in sentences.

SITL finds each key with ``strstr`` and reads its value with ``atof``/``strtoull``; this module
replays that reader (``_sitl_json_reader``) against the parsed message and words every
difference: a required key SITL would find elsewhere, a key found inside another one, a value
read differently, a flag 2025 builds misread.
"""

from __future__ import annotations

import json

from ... import _
from ._sitl_json_reader import (
    BOOLEAN,
    KEYTABLE,
    KIND,
    Key,
    KeyMap,
    SitlRead,
    SitlValue,
    dotted,
    sitl_2025_flag,
    sitl_key_positions,
    sitl_read,
    sitl_value,
)
from ._sitl_json_values import shown
from .errors import CodecError
from .names import ARDUPILOT_JSON as PROTOCOL

_REQUIRED: tuple[Key, ...] = (("", "timestamp"), ("imu", "gyro"), ("imu", "accel_body"), ("", "velocity"))
_ATTITUDE_KEYS: tuple[Key, ...] = (("", "attitude"), ("", "quaternion"))


def _found_in(read: SitlRead, key: str, keymap: KeyMap | None) -> str:
    """Name what a stray strstr hit landed in, for a warning."""
    found = None if keymap is None else keymap.string_at(read.key_pos)
    if found is None:
        return _("the text at column {column}").format(column=read.key_pos + 1)
    if found == key:
        return _('another "{key}" at column {column}').format(key=key, column=read.key_pos + 1)
    return _('"{found}" at column {column}').format(found=shown(found), column=read.key_pos + 1)


def check_required(message: str, raw: dict[Key, object], keymap: KeyMap | None) -> None:
    missing = [entry for entry in _REQUIRED if entry not in raw]
    if missing:
        names = []
        for entry in missing:
            name = f'"{dotted(entry)}"'
            read = sitl_read(message, *entry, KIND[entry])
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
            read = sitl_read(message, *entry, KIND[entry])
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


def pitfalls(message: str, values: dict[Key, SitlValue], keymap: KeyMap | None) -> list[str]:
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
            ).format(key=dotted(entry), count=count)
            for entry, count in keymap.counts.items()
            if count > 1 and entry in KIND
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
            ).format(name=dotted(entry), value=_show(read.value), found=_found_in(read, key, keymap))
        elif keymap is None or real is None:
            # Too large to map (or the key is spelled with escapes): compare what SITL reads.
            warning = _misread(message, entry, kind=kind, at=key_pos, meant=meant, hint=False)
        elif key_pos != real:
            warning = _(
                'SITL matches names by substring: it would read "{name}" from {found} '
                'instead of from column {column}; send "{key}" before it'
            ).format(
                name=dotted(entry),
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


def _misread(message: str, entry: Key, *, kind: str, at: int, meant: SitlValue, hint: bool) -> str | None:
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
            ).format(name=dotted(entry), key=key)
        return None
    sentence = _('SITL reads "{name}" as {sitl} instead of {meant}').format(
        name=dotted(entry), sitl=_show(sitl), meant=_show(meant)
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
