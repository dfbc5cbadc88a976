# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Immutable snapshot of what the RC receiver check knows, handed from the model to any view.

Everything here is a frozen dataclass of numbers, strings, enums and tuples, so snapshots are
hashable and comparable: a view decides what to redraw by comparing the new snapshot (or one of
its fields) with the last one it drew.  Nothing in this module knows about Tk or sockets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .rc_receiver_check_state import ReceiverCheck

FIRST_CHANNEL = 1
CHANNEL_COUNT = 5
# A reading older than this is no longer live (the model decides, the views say so).
STALE_AFTER_S = 3.0
# Bars span this range; readings outside it are shown with their real number but a clamped bar.
PWM_BAR_MIN_US = 800
PWM_BAR_MAX_US = 2200


class FailsafeStatus(Enum):
    """RC failsafe as derived from the SYS_STATUS RC_RECEIVER present/enabled/health bits."""

    ACTIVE = "active"
    NOT_ACTIVE = "not_active"
    UNKNOWN = "unknown"


class IntervalRequestOutcome(Enum):
    """What became of one SET_MESSAGE_INTERVAL request."""

    NOT_REQUESTED = "not_requested"
    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    NO_ANSWER = "no_answer"
    SEND_FAILED = "send_failed"


@dataclass(frozen=True)
class ChannelReading:
    """One of CH1..CH5.  ``pwm`` is ``None`` when the channel is absent, unavailable or stale."""

    number: int
    pwm: int | None = None


@dataclass(frozen=True)
class IntervalRequestStatus:
    """Outcome of the interval request for one message stream.

    ``reason`` carries the MAV_RESULT name for a rejection and a short explanation for
    send failures; it is ``None`` otherwise.
    """

    message_name: str
    message_id: int
    interval_us: int
    outcome: IntervalRequestOutcome = IntervalRequestOutcome.NOT_REQUESTED
    reason: str | None = None


def _empty_channels() -> tuple[ChannelReading, ...]:
    return tuple(ChannelReading(number) for number in range(FIRST_CHANNEL, FIRST_CHANNEL + CHANNEL_COUNT))


@dataclass(frozen=True)
class RCReceiverState:
    """Everything the receiver check shows, at one instant.

    Times (``now``, ``*_at``) are readings of the model's injected monotonic clock; a view shows
    them relative to ``now`` or ``test_started_at``, never as wall-clock time.
    """

    channels: tuple[ChannelReading, ...] = field(default_factory=_empty_channels)
    rssi: int | None = None
    # True once the flight controller has *seen* RC input since boot; not "receiving now".
    receiver_present: bool | None = None
    receiver_enabled: bool | None = None
    failsafe: FailsafeStatus = FailsafeStatus.UNKNOWN
    failsafe_observed: bool = False
    failsafe_observed_at: float | None = None
    recovery_observed: bool = False
    recovery_observed_at: float | None = None
    # Every change between failsafe active and not active since the first failsafe (bounded).
    failsafe_transitions: tuple[tuple[FailsafeStatus, float], ...] = ()
    link_error: str | None = None
    backlog: bool = False
    rc_channels_rate_hz: float = 0.0
    sys_status_rate_hz: float = 0.0
    interval_requests: tuple[IntervalRequestStatus, ...] = ()
    # Freshness of each stream: a stream is live while its last message is under 3 s old.
    rc_channels_live: bool = False
    sys_status_live: bool = False
    rc_channels_age_s: float | None = None
    sys_status_age_s: float | None = None
    chancount: int | None = None
    active: bool = False
    connected: bool = False
    connection_generation: int = 0
    test_started_at: float = 0.0
    now: float = 0.0
    # The guided test: parameter findings, channel roles, radio messages, guide and verdict.
    check: ReceiverCheck = field(default_factory=ReceiverCheck)

    @property
    def has_live_telemetry(self) -> bool:
        return self.rc_channels_live or self.sys_status_live
