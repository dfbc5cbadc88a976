# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The two streams the check reads, asked for at 5 Hz and given back to the firmware's defaults.

`StreamRequests` asks for RC_CHANNELS and SYS_STATUS at 5 Hz once per connection, again after a
connection recovery (the vehicle may have rebooted to its defaults), when both streams came and
then stopped (a vehicle rebooted behind a link that stayed up, as a telemetry radio's does, starts
again at its default rates: 0 Hz on SITL's SERIAL0, only HEARTBEATs; asked again, its streams
bring the new boot clock that tells the reboot) and, a bounded number of times, when accepted
requests were followed by neither stream (SITL acknowledges requests made while it boots and then
forgets them); deactivating restores the firmware's defaults, only on the connection that asked
and only while it is still the host's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ... import _
from .commands import CommandManager, CommandOutcome, PendingCommand
from .readings import (
    DEFAULT_INTERVAL_US,
    MAV_CMD_SET_MESSAGE_INTERVAL,
    REQUESTED_INTERVAL_US,
    STREAMS,
)
from .snapshot import IntervalRequestOutcome, IntervalRequestStatus

# Accepted streams that have not delivered anything by then are asked for again (at most 3 times).
STREAMS_EXPECTED_WITHIN_S = 3.0
MAX_REPEATED_REQUESTS = 3

OUTCOMES: dict[CommandOutcome, IntervalRequestOutcome] = {
    CommandOutcome.PENDING: IntervalRequestOutcome.PENDING,
    CommandOutcome.ACCEPTED: IntervalRequestOutcome.ACCEPTED,
    CommandOutcome.REJECTED: IntervalRequestOutcome.REJECTED,
    CommandOutcome.TIMED_OUT: IntervalRequestOutcome.NO_ANSWER,
    CommandOutcome.SEND_FAILED: IntervalRequestOutcome.SEND_FAILED,
}

# Request outcomes after which the streams may still come, so silence is worth asking again.
_MAY_COME = frozenset({CommandOutcome.ACCEPTED, CommandOutcome.TIMED_OUT})

# The vehicle a connection addresses: (system id, component id), None where unknown.
Target = tuple[int | None, int | None]


def not_requested() -> tuple[IntervalRequestStatus, ...]:
    return tuple(
        IntervalRequestStatus(name, message_id, REQUESTED_INTERVAL_US) for message_id, name in STREAMS
    )


def request_status(command: PendingCommand) -> IntervalRequestStatus:
    message_id = int(command.params[0]) if command.params else -1
    interval_us = int(command.params[1]) if len(command.params) > 1 else REQUESTED_INTERVAL_US
    name = dict(STREAMS).get(message_id, str(message_id))
    outcome = OUTCOMES.get(command.outcome, IntervalRequestOutcome.PENDING)
    if outcome is IntervalRequestOutcome.REJECTED:
        reason = command.result_name
    elif outcome is IntervalRequestOutcome.SEND_FAILED:
        reason = command.error
    elif outcome is IntervalRequestOutcome.NO_ANSWER:
        reason = command.error or _("The flight controller did not answer the request.")
    else:
        reason = None
    return IntervalRequestStatus(name, message_id, interval_us, outcome, reason)


class StreamRequests:
    """Sends the interval requests through the model's command tracker; see the module docstring."""

    def __init__(self, commands: CommandManager) -> None:
        self._commands = commands
        # The connection on which the current activation asked; None = not yet.
        self.requested_on: Any = None
        # Set by a resume after a connection recovery: the vehicle may have rebooted to defaults.
        self.ask_again = False
        self._requested_at = 0.0
        self._repeats_left = MAX_REPEATED_REQUESTS
        self._requests: tuple[PendingCommand, ...] = ()
        self._statuses: tuple[object, object, tuple[IntervalRequestStatus, ...]] | None = None

    def statuses(self) -> tuple[IntervalRequestStatus, ...]:
        """The outcome of each request of this activation, or both streams "not requested".

        Asked every poll, and the requests' fates change a few times per activation: the statuses
        are made again only when a request or its fate changed.
        """
        fates = [(command.outcome, command.result_name, command.error) for command in self._requests]
        memo = self._statuses
        if memo is not None and memo[0] is self._requests and memo[1] == fates:
            return memo[2]
        statuses = tuple(request_status(command) for command in self._requests) or not_requested()
        self._statuses = (self._requests, fates, statuses)
        return statuses

    def forget(self) -> None:
        """The requests no longer describe the link (deactivated, or another connection)."""
        self.requested_on = None
        self._requests = ()

    def request_if_needed(
        self, master: Any, target: Target, now: float, received_at: Iterable[float]
    ) -> None:
        """Ask ``target`` on ``master`` unless this activation already did and the streams came.

        ``received_at`` are the times of the latest RC_CHANNELS and SYS_STATUS read, if any.
        """
        received_at = tuple(received_at)
        same_link = self.requested_on is master and not self.ask_again
        if same_link and received_at:
            latest = max(received_at)
            if latest >= self._requested_at and now - latest < STREAMS_EXPECTED_WITHIN_S:
                return  # a stream came since the request and keeps coming: the usual poll
        stopped = same_link and self._stopped(now, received_at)
        if same_link and not stopped and not self._never_came(now, received_at):
            return
        if not same_link or stopped:
            self._repeats_left = MAX_REPEATED_REQUESTS
        else:
            self._repeats_left -= 1
        self.requested_on = master
        self._requested_at = now
        self.ask_again = False
        # Both are always attempted, so one refused stream never hides the other.
        self._requests = tuple(
            self._send_interval(master, target, message_id, REQUESTED_INTERVAL_US)
            for message_id, _name in STREAMS
        )

    def restore(self, current_master: Any, target: Target) -> None:
        """Ask ``target`` for the default rates again, on the connection that asked if it is
        ``current_master``."""
        master = self.requested_on
        if master is None or master is not current_master:
            return
        for message_id, _name in STREAMS:
            self._send_interval(master, target, message_id, DEFAULT_INTERVAL_US)

    def _stopped(self, now: float, received_at: tuple[float, ...]) -> bool:
        """Both streams came after the request and neither for ``STREAMS_EXPECTED_WITHIN_S`` since."""
        if not received_at or now - self._requested_at < STREAMS_EXPECTED_WITHIN_S:
            return False
        latest = max(received_at)
        return latest >= self._requested_at and now - latest >= STREAMS_EXPECTED_WITHIN_S

    def _never_came(self, now: float, received_at: Iterable[float]) -> bool:
        """Accepted or unanswered requests after which neither stream ever arrived: ask again, a
        bounded number of times.  A vehicle that simply sends nothing is asked at most three more times."""
        if self._repeats_left <= 0 or now - self._requested_at < STREAMS_EXPECTED_WITHIN_S:
            return False
        # Unanswered counts too: a vehicle asked while it reboots answers nothing and then sends
        # nothing; a refusal or a send that failed is final.
        if not any(command.outcome in _MAY_COME for command in self._requests):
            return False
        return not any(at >= self._requested_at for at in received_at)

    def _send_interval(
        self, master: Any, target: Target, message_id: int, interval_us: int
    ) -> PendingCommand:
        target_system, target_component = target
        if target_system is None:
            # the command manager turns a missing connection into a readable "not sent"
            master = None
        return self._commands.send(
            master,
            MAV_CMD_SET_MESSAGE_INTERVAL,
            (message_id, interval_us),
            target_system or 0,
            target_component or 0,
        )
