# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The tolerant reading of a SITL JSON datagram: its framing as SITL frames it, the JSON parse,
and typed values.

A datagram is read the way SITL reads it (text between newlines, the last complete message wins),
and every framing SITL would read differently becomes a warning rather than an error.  The
JSON parse refuses what is not JSON (NaN, Infinity) and reads integers of any length as SITL's
``atof`` does; each value is checked against the kind its key has in SITL's key table.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping

from ... import _
from ._sitl_json_reader import BOOLEAN, NUMBER, VECTOR3, VECTOR4, SitlValue
from .errors import CodecError
from .names import ARDUPILOT_JSON as PROTOCOL

# Key names longer than this are cut in warnings (a key may be 60 KB long).
_MAX_SHOWN_NAME = 40
# Up to this many lines, the messages of a datagram are counted exactly for the warning.
_MAX_COUNTED_LINES = 64


def shown(text: str) -> str:
    """``text`` cut to a readable length, with unprintable characters escaped, for a warning."""
    cut = text[: _MAX_SHOWN_NAME + 1]
    shown = "".join(char if char.isprintable() else f"\\u{ord(char):04x}" for char in cut[:_MAX_SHOWN_NAME])
    return shown + "…" if len(cut) > _MAX_SHOWN_NAME else shown


def json_type(value: object) -> str:
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
            _('"{name}" must be a number, got {type}').format(name=name, type=json_type(value)),
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
                name=name, count=count, type=json_type(value)
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
        _('"{name}" must be true, false, 0 or 1, got {type}').format(name=name, type=json_type(value)),
        protocol=PROTOCOL,
        reason="type",
    )


CONVERTERS: Mapping[str, Callable[[object, str], SitlValue]] = {
    NUMBER: _number,
    VECTOR3: lambda value, name: _vector(value, name, 3),
    VECTOR4: lambda value, name: _vector(value, name, 4),
    BOOLEAN: _flag,
}


def frame(text: str) -> tuple[str, list[str]]:
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


def loads(message: str) -> dict[str, object]:
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
            _("the message is {type}, expected a JSON object").format(type=json_type(document)),
            protocol=PROTOCOL,
            reason="json",
        )
    return document
