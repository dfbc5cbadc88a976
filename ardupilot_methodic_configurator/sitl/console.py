# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
r"""SITL's console output and the runner's own notes, kept in a bounded, numbered log.

Every line, SITL's or the runner's, is shown as data and never obeyed (`console_text`): its
control characters are written out (ESC as ``\x1b``, a line break as ``\n``), so neither SITL
nor a path quoted in a note (``--sitl`` names any file) can move a terminal's cursor or start a
console line of its own, and it is cut to ``MAX_LINE_CHARS``.

Both views read the log by cursor (``since(n)``) so each line is shown once however often they
poll, and a view that falls behind loses the oldest lines rather than growing memory.  SITL's
"JSON received:" blocks are read here as well: they list the JSON keys the build parsed, which is
the only reliable way to know whether it takes RC from the JSON ``rc`` object.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO

MAX_LINES = 1000
MAX_LINE_CHARS = 400
# What the reader takes of one line before it is cut: a child that never writes a newline
# (64 KB chunks of it) grew the reader to gigabytes when lines were read whole.
MAX_LINE_BYTES = 4096
# Written out as rc_receiver.readings.readable_text writes text from a link (this folder may not
# import the plugin): C0 and C1 controls and DEL as \xNN, line breaks by name, and the two
# separators that Python's and some editors' line splitting also break at.
_CONTROLS = {code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7F, 0xA0))}
_CONTROLS.update({ord("\n"): "\\n", ord("\r"): "\\r", 0x2028: "\\u2028", 0x2029: "\\u2029"})
# A tab only indents (SITL lists the JSON keys it read with one), so it stays a gap.
_CONTROLS[ord("\t")] = "    "
_JSON_BLOCK_START = "JSON received:"
_JSON_RC_KEY = "rc: rc_"


def bounded_lines(stream: IO[bytes], max_bytes: int = MAX_LINE_BYTES) -> Iterator[str]:
    """The lines of ``stream``, each read as at most ``max_bytes``: the rest of a longer line is
    skipped (in pieces of that size) and the line ends in "…"."""
    while True:
        raw = stream.readline(max_bytes)
        if not raw:
            return
        if raw.endswith(b"\n"):
            yield raw.decode("utf-8", "replace").rstrip("\r\n")
            continue
        yield raw.decode("utf-8", "replace") + "…"
        while raw and not raw.endswith(b"\n"):
            raw = stream.readline(max_bytes)


def console_text(text: str, limit: int = MAX_LINE_CHARS) -> str:
    """``text`` fit for one console line: control characters written out, at most ``limit``
    characters, an ellipsis saying it was cut."""
    text = text.translate(_CONTROLS)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class ConsoleLine:
    """One line: ``number`` counts from 0 over the whole run; ``from_sitl`` False marks a runner note."""

    number: int
    time: float
    text: str
    from_sitl: bool


class ConsoleLog:
    """Thread-safe bounded log: the reader threads append, the views read by cursor."""

    def __init__(
        self,
        max_lines: int = MAX_LINES,
        *,
        max_line_chars: int = MAX_LINE_CHARS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_lines < 1:
            raise ValueError("a console log needs room for at least one line")
        self._lines: deque[ConsoleLine] = deque(maxlen=max_lines)
        self._max_line_chars = max_line_chars
        self._clock = clock
        self._lock = threading.Lock()
        self._next = 0

    def append(self, text: str, *, from_sitl: bool = True) -> ConsoleLine:
        text = console_text(text, self._max_line_chars)
        with self._lock:
            line = ConsoleLine(self._next, self._clock(), text, from_sitl)
            self._next += 1
            self._lines.append(line)
        return line

    def since(self, number: int) -> tuple[list[ConsoleLine], int]:
        """Lines numbered ``number`` or later that are still kept, and the cursor for the next call."""
        with self._lock:
            lines = [line for line in self._lines if line.number >= number]
            return lines, self._next

    def tail(self, count: int) -> list[ConsoleLine]:
        with self._lock:
            return list(self._lines)[-count:] if count > 0 else []


class JsonKeysWatch:
    """Reads SITL's "JSON received:" blocks: does this build parse the ``rc`` object?

    ``reads_rc`` is None until a block was seen, then True once any block listed an ``rc`` key
    (the back end sends ``rc`` while the transmitter is on, so a build that reads it lists it).
    """

    def __init__(self) -> None:
        self._in_block = False
        self._keys: list[str] = []
        self.reads_rc: bool | None = None
        self.last_keys: tuple[str, ...] = ()

    def feed(self, line: str) -> bool:
        """Take one console line; True when it completed a block (``last_keys`` then updated)."""
        if line.strip() == _JSON_BLOCK_START:
            self._in_block, self._keys = True, []
            return False
        if not self._in_block:
            return False
        if line.startswith("\t") and line.strip():
            self._keys.append(line.strip())
            return False
        if self._keys or not line.strip():
            self._in_block = False
            self.last_keys = tuple(self._keys)
            has_rc = any(key.startswith(_JSON_RC_KEY) for key in self._keys)
            self.reads_rc = True if has_rc else bool(self.reads_rc)
            return True
        return False
