# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Value semantics shared by the codecs' tuple-based frame classes.

Frames are tuples because building one is a single C call after ``struct.unpack``; plain tuple
equality would however make frames of different classes with equal values compare equal
(``MotorBlock(4, 0.5) == ServoBlock(4, 0.5)``).  This decorator restores dataclass-like equality:
a frame equals only a frame of its own class with equal values.
"""

from __future__ import annotations

from typing import Any, TypeVar

_C = TypeVar("_C", bound=type)


def equal_within_class(cls: _C) -> _C:
    """Make a tuple-based frame class equal only to instances of itself with equal values."""

    def eq(frame: tuple[Any, ...], other: object) -> bool:
        return type(other) is type(frame) and tuple.__eq__(frame, other)

    def ne(frame: tuple[Any, ...], other: object) -> bool:
        return not eq(frame, other)

    for name, method in (("__eq__", eq), ("__ne__", ne)):
        setattr(cls, name, method)  # mypy rejects these assignments in a NamedTuple body
    return cls
