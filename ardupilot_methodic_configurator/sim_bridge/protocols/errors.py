# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The one error type every simulator-bridge codec raises for malformed input.

Strategy: a ``ValueError`` subclass (so callers that only know ``ValueError`` still catch it)
carrying a person's sentence as its text plus two stable keys, ``protocol`` and ``reason``, that
a monitor can count by without parsing the sentence.
"""

from __future__ import annotations

from ... import _


class CodecError(ValueError):
    """Malformed simulator-bridge bytes (or an unencodable frame).

    ``str(error)`` is a readable sentence such as ``"length 39, expected 40 for magic 18458"``;
    ``protocol`` is ``"ardupilot-json"``, ``"rflysim"`` or ``"xrp"``; ``reason`` is a short key
    that stays the same across languages and versions (``"length"``, ``"magic"``, ``"checksum"``,
    ``"truncated"``, ``"trailing-bytes"``, ``"json"``, ``"missing-key"``, ``"short-vector"``,
    ``"block-overrun"``, ``"size-zero"``, ``"too-many-blocks"``, ``"empty"``, ...).  Codecs raise
    nothing else, whatever the bytes: any other exception from a codec is a bug.
    """

    def __init__(self, message: str, *, protocol: str, reason: str) -> None:
        super().__init__(message)
        self.message = message
        self.protocol = protocol
        self.reason = reason

    def __repr__(self) -> str:
        return f"CodecError({self.message!r}, protocol={self.protocol!r}, reason={self.reason!r})"

    def __reduce__(self) -> tuple[object, ...]:
        # Keyword-only arguments defeat the default exception pickling; errors may cross processes.
        return (_rebuild, (self.message, self.protocol, self.reason))


def _rebuild(message: str, protocol: str, reason: str) -> CodecError:
    return CodecError(message, protocol=protocol, reason=reason)


def size_mismatch(sentence: str, *, length: int, expected: int, protocol: str) -> CodecError:
    """The error for a datagram of the wrong size: ``truncated`` when short, else trailing bytes.

    ``sentence`` already says what was expected; a long datagram gets the surplus appended.
    """
    if length < expected:
        return CodecError(sentence, protocol=protocol, reason="truncated")
    return CodecError(
        _("{sentence}: {count} trailing bytes").format(sentence=sentence, count=length - expected),
        protocol=protocol,
        reason="trailing-bytes",
    )
