# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A reader of ArduPilot's packed parameter file (``@PARAM/param.pck``), written from the format
description and kept apart from the encoder it checks."""

from __future__ import annotations

import struct
from typing import NamedTuple

_FORMATS = {1: "<b", 2: "<h", 3: "<i", 4: "<f"}


class PackedParameters(NamedTuple):
    magic: int
    count: int
    total: int
    values: dict[str, tuple[int, float, float | None]]  # name -> (storage type, value, default or None)
    shared_prefixes: list[int]


def decode_param_pck(data: bytes) -> PackedParameters:
    magic, count, total = struct.unpack_from("<HHH", data)
    assert magic in (0x671B, 0x671C), hex(magic)
    values: dict[str, tuple[int, float, float | None]] = {}
    shared_prefixes: list[int] = []
    previous = b""
    offset = 6
    while offset < len(data):
        if data[offset] == 0:  # padding
            offset += 1
            continue
        type_byte, length_byte = data[offset], data[offset + 1]
        kind, has_default = type_byte & 0x0F, bool(type_byte & 0x10)
        shared, suffix_length = length_byte & 0x0F, (length_byte >> 4) + 1
        assert shared <= len(previous)
        name = previous[:shared] + data[offset + 2 : offset + 2 + suffix_length]
        offset += 2 + suffix_length
        fmt = _FORMATS[kind]
        (value,) = struct.unpack_from(fmt, data, offset)
        offset += struct.calcsize(fmt)
        default = None
        if has_default:
            (default,) = struct.unpack_from(fmt, data, offset)
            offset += struct.calcsize(fmt)
        assert offset <= len(data), "a record runs past the end of the file"
        values[name.decode("ascii")] = (kind, float(value), None if default is None else float(default))
        shared_prefixes.append(shared)
        previous = name
    assert len(values) == count
    return PackedParameters(magic, count, total, values, shared_prefixes)
