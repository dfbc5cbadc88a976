# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Pseudo-terminals for the tests of a device that takes a vanished one's path.

Linux gives a new pseudo-terminal the lowest free number, so a test can ask for the number a
vanished device had; what the product then wrote into it is read without waiting.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator


def drain(descriptor: int) -> bytes:
    """Every byte waiting on ``descriptor`` now, without waiting."""
    received = b""
    while True:
        try:
            chunk = os.read(descriptor, 4096)
        except OSError:  # nothing waiting (EAGAIN), or no one at the other end (EIO)
            return received
        if not chunk:
            return received
        received += chunk


@contextlib.contextmanager
def pty_named(name: str) -> Iterator[tuple[int, int] | None]:
    """A new pseudo-terminal (master, slave) that got ``name``, or ``None`` if another program took it."""
    opened: list[tuple[int, int]] = []
    found: tuple[int, int] | None = None
    try:
        for _ in range(8):
            master, slave = os.openpty()
            opened.append((master, slave))
            if os.ttyname(slave) == name:
                found = (master, slave)
                break
        yield found
    finally:
        for master, slave in opened:
            os.close(master)
            os.close(slave)
