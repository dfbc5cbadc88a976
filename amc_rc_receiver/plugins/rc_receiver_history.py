# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Evidence gathered during one transmitter-off failsafe test.

The first RC failsafe seen is latched with its time, and so is the first recovery after it; both
survive telemetry loss, link errors and deactivation, because "the failsafe did trigger" stays true
even when the link later drops.  Only a fresh test (new connection or an explicit reset) clears them.
Unknown status never counts as evidence of either.
"""

from __future__ import annotations

from .rc_receiver_state import FailsafeStatus


class FailsafeHistory:
    """Latches the first failsafe and the first recovery after it, timed by the caller's clock."""

    def __init__(self, started_at: float) -> None:
        self.test_started_at = started_at
        self.failsafe_observed_at: float | None = None
        self.recovery_observed_at: float | None = None

    @property
    def failsafe_observed(self) -> bool:
        return self.failsafe_observed_at is not None

    @property
    def recovery_observed(self) -> bool:
        return self.recovery_observed_at is not None

    def record(self, status: FailsafeStatus, now: float) -> None:
        """Take one receiver status reported at ``now`` into account."""
        if status is FailsafeStatus.ACTIVE and self.failsafe_observed_at is None:
            self.failsafe_observed_at = now
        elif (
            status is FailsafeStatus.NOT_ACTIVE
            and self.failsafe_observed_at is not None
            and self.recovery_observed_at is None
        ):
            self.recovery_observed_at = now

    def restart(self, now: float) -> None:
        """Forget all evidence and start a fresh test at ``now``."""
        self.test_started_at = now
        self.failsafe_observed_at = None
        self.recovery_observed_at = None
