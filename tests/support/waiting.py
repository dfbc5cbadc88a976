# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The suite's two ways to wait, each in one place: `wait_for` a condition, or `poll_until` what a
poll returns satisfies one.

Both poll with a generous deadline instead of sleeping for a fixed time, and fail the test with a
sentence that names what was awaited (and, for `poll_until`, the last thing the poll returned).
Harnesses and helpers that wait for something of their own (a message, a line of output, a
snapshot) delegate to these.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

import pytest

DEADLINE_S = 10.0  # generous: shared CI machines are slow, a healthy wait takes milliseconds
INTERVAL_S = 0.005

ResultT = TypeVar("ResultT")


def wait_for(
    condition: Callable[[], bool],
    what: str,
    deadline_s: float = DEADLINE_S,
    *,
    interval_s: float = INTERVAL_S,
) -> None:
    """Call ``condition`` every ``interval_s`` until it holds; fail the test naming ``what`` once
    ``deadline_s`` has passed without it."""
    end = time.monotonic() + deadline_s
    while not condition():
        if time.monotonic() > end:
            pytest.fail(f"timed out after {deadline_s:g} s waiting for {what}")
        time.sleep(interval_s)


def poll_until(
    poll: Callable[[], ResultT],
    condition: Callable[[ResultT], bool],
    what: str,
    deadline_s: float = DEADLINE_S,
    *,
    interval_s: float = INTERVAL_S,
) -> ResultT:
    """Call ``poll`` every ``interval_s`` until ``condition`` holds for what it returned, and return
    that; fail the test naming ``what`` and the last result once ``deadline_s`` has passed."""
    end = time.monotonic() + deadline_s
    while True:
        result = poll()
        if condition(result):
            return result
        if time.monotonic() > end:
            pytest.fail(f"timed out after {deadline_s:g} s waiting for {what}; last: {result!r}")
        time.sleep(interval_s)
