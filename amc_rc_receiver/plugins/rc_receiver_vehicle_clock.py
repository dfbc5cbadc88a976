# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""When did the vehicle send a message?  Estimated from ``time_boot_ms`` and the local clock.

A message read from the connection may have waited there: behind a backlog, or while the host had
the plugin suspended.  Stamping it with the time it was read would show old readings as live, and
time failsafe evidence at the moment it was drained.  Many ArduPilot messages carry
``time_boot_ms``, the vehicle's clock when it sent them, so the vehicle clock is mapped onto the
local one: a message can only arrive after it was sent, hence the smallest ``read - sent`` seen
so far is the offset (plus the shortest transit, a few milliseconds).  A vehicle clock that goes
back by more than a second means the vehicle rebooted, and the mapping starts afresh.

Messages without a timestamp (SYS_STATUS) take the send time of the timestamped message read just
before them, which is how the vehicle interleaves its streams; ``not_before`` lets the caller say
"this arrived after a poll that emptied the queue", which bounds how old anything can be.
"""

from __future__ import annotations

REBOOT_JUMP_S = 1.0


class VehicleClock:
    """Maps the selected vehicle's ``time_boot_ms`` onto the caller's clock."""

    def __init__(self) -> None:
        self._offset: float | None = None
        self._last_boot_s: float | None = None

    def reset(self) -> None:
        self._offset = None
        self._last_boot_s = None

    def observe(self, time_boot_ms: int, read_at: float) -> float:
        """Take a timestamped message read at ``read_at``; returns when it was sent (local clock)."""
        boot_s = time_boot_ms / 1000.0
        if self._last_boot_s is not None and boot_s < self._last_boot_s - REBOOT_JUMP_S:
            self._offset = None
        self._last_boot_s = boot_s
        offset = read_at - boot_s
        if self._offset is None or offset < self._offset:
            self._offset = offset
        return boot_s + self._offset

    def latest_send_time(self) -> float | None:
        """Local time at which the most recent timestamped message was sent, if any."""
        if self._offset is None or self._last_boot_s is None:
            return None
        return self._last_boot_s + self._offset
