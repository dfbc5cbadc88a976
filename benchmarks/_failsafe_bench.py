# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the failsafe-latency benchmarks share: polling a session the way the view does."""

from __future__ import annotations

import time
from collections.abc import Callable

from amc_rc_receiver.plugins.rc_receiver.snapshot import RCReceiverState
from amc_rc_receiver.standalone.session import VehicleSession

TICK_S = 0.1  # the view's polling period
TARGET_S = 1.5  # the issues' target: RC failsafe shown within 1.5 s of the transmitter going off


def wait_for(
    session: VehicleSession, condition: Callable[[RCReceiverState], bool], timeout: float, what: str
) -> float:
    """Poll every 100 ms until ``condition``; return the moment it first held."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition(session.model.poll()):
            return time.monotonic()
        time.sleep(TICK_S)
    raise TimeoutError(f"{what} did not reach the expected state")
