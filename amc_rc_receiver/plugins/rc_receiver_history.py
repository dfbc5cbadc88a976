# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Evidence gathered during one transmitter-off failsafe test.

Every change between "failsafe active" and "not active" is kept with its time (the most recent
100, so a flapping receiver cannot grow memory), and the first failsafe of the test is latched
apart from them.  "Recovery observed" speaks of the most recent failsafe: a second failsafe that
has not cleared makes it false again.  The evidence survives telemetry loss, link errors and
deactivation, because "the failsafe did trigger" stays true even when the link later drops; only
a fresh test (new connection or an explicit reset) clears it.  Unknown status is never evidence.
"""

from __future__ import annotations

from collections import deque

from .rc_receiver_state import FailsafeStatus

MAX_TRANSITIONS = 100


class FailsafeHistory:
    """Failsafe and recovery transitions of one test, timed by the caller's clock."""

    def __init__(self, started_at: float) -> None:
        self.test_started_at = started_at
        self.failsafe_observed_at: float | None = None
        self.recovery_observed_at: float | None = None
        self._transitions: deque[tuple[FailsafeStatus, float]] = deque(maxlen=MAX_TRANSITIONS)
        self._last_known: FailsafeStatus | None = None

    @property
    def failsafe_observed(self) -> bool:
        return self.failsafe_observed_at is not None

    @property
    def recovery_observed(self) -> bool:
        """Whether the most recent failsafe has cleared."""
        return self.recovery_observed_at is not None

    @property
    def transitions(self) -> tuple[tuple[FailsafeStatus, float], ...]:
        """(ACTIVE or NOT_ACTIVE, time) for each change since the first failsafe, oldest first."""
        return tuple(self._transitions)

    def record(self, status: FailsafeStatus, now: float) -> None:
        """Take one receiver status reported at ``now`` into account."""
        if status is FailsafeStatus.UNKNOWN or status is self._last_known:
            return
        self._last_known = status
        if status is FailsafeStatus.ACTIVE:
            self._transitions.append((status, now))
            if self.failsafe_observed_at is None:
                self.failsafe_observed_at = now
            self.recovery_observed_at = None
        elif self.failsafe_observed_at is not None:
            self._transitions.append((status, now))
            self.recovery_observed_at = now

    def restart(self, now: float) -> None:
        """Forget all evidence and start a fresh test at ``now``."""
        self.test_started_at = now
        self.failsafe_observed_at = None
        self.recovery_observed_at = None
        self._transitions.clear()
        self._last_known = None
