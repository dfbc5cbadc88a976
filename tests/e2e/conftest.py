# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What every end-to-end test's subprocesses get: Ctrl-C as a user's terminal delivers it."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _ctrl_c_reaches_the_program() -> Iterator[None]:
    """A shell without job control starts background commands with Ctrl-C ignored, and a program
    inherits an ignored signal; a user's terminal delivers it.  A handled one is reset to the
    default when the program starts, so handling it here gives the program the user's setting."""
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)
