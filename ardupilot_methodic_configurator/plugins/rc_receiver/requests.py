# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Everything the plugin asks of the vehicle, and how the answers are matched, without ever waiting.

The plugin sends exactly two kinds of message, both from this module: COMMAND_LONG
``MAV_CMD_SET_MESSAGE_INTERVAL`` for its two streams, and PARAM_REQUEST_READ by name.  There is
deliberately no code path that writes a parameter, arms, calibrates or reboots.

`CommandManager` sends a command and returns a `PendingCommand` at once; the poll that reads every
message anyway hands each to `handle_message`, which completes the oldest matching command (the
autopilot answers in order) without consuming anything, and `expire` ends the silent ones.  The
methodic configurator's own `request_rc_receiver_messages()` waits for two ACKs on the UI thread,
which is why the plugin tracks its commands itself.

`StreamRequests` asks for RC_CHANNELS and SYS_STATUS at 5 Hz once per connection, again after a
connection recovery (the vehicle may have rebooted to its defaults) and, a bounded number of
times, when accepted requests were followed by neither stream (SITL acknowledges requests made
while it boots and then forgets them); deactivating restores the firmware's defaults, only on the
connection that asked and only while it is still the host's.

`ParameterReader` asks for the few parameters the check needs that the host has not downloaded
(at most ``MAX_IN_FLIGHT`` unanswered, each name ``MAX_ATTEMPTS`` times ``ATTEMPT_TIMEOUT_S``
apart, then unavailable) and takes the PARAM_VALUE answers from the messages the poll reads.

Why this module is long: it is the plugin's whole wire protocol out, kept in one place so that
what may leave the plugin can be read, and tested, from one file.  The model decides when sending
is allowed (active, not recovering, connected); this module decides what is sent.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from pymavlink.dialects.v20 import ardupilotmega as _mavlink

from ... import _
from .readings import (
    DEFAULT_INTERVAL_US,
    MAV_CMD_SET_MESSAGE_INTERVAL,
    REQUESTED_INTERVAL_US,
    STREAMS,
    call_int,
    int_field,
    message_type,
)
from .snapshot import IntervalRequestOutcome, IntervalRequestStatus

COMMAND_LONG_PARAM_COUNT = 7
MAX_PENDING_COMMANDS = 64  # a bound, far above the two interval requests this tool makes

_MAV_RESULT_ACCEPTED: int = int(_mavlink.MAV_RESULT_ACCEPTED)
_MAV_RESULT_IN_PROGRESS: int = int(_mavlink.MAV_RESULT_IN_PROGRESS)


def _enum_entry_name(enum_name: str, value: int, fallback: str) -> str:
    """The pymavlink enum entry name for ``value`` (e.g. MAV_RESULT 2 -> "MAV_RESULT_DENIED")."""
    entries: Any = _mavlink.enums.get(enum_name, {})
    entry = entries.get(value)
    name = getattr(entry, "name", None)
    return name if isinstance(name, str) and name else fallback


def mav_result_name(result: int) -> str:
    return _enum_entry_name("MAV_RESULT", result, f"MAV_RESULT_{result}")


def mav_cmd_name(command: int) -> str:
    return _enum_entry_name("MAV_CMD", command, f"MAV_CMD_{command}")


def _link_dead(master: object) -> bool:
    return getattr(master, "portdead", False) is True


def _link_dead_reason(command_name: str) -> str:
    return _("{command} was not sent: the connection to the flight controller is closed.").format(
        command=command_name
    )


def describe_exception(error: BaseException) -> str:
    """A short readable reason for a transport exception (never empty)."""
    text = str(error).strip()
    return text if text else type(error).__name__


class CommandOutcome(Enum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    SEND_FAILED = "send failed"
    TIMED_OUT = "timed out"


@dataclass
class PendingCommand:
    """One COMMAND_LONG and its fate; mutated only by the CommandManager that created it."""

    command: int
    params: tuple[float, ...]
    target_system: int
    target_component: int
    sent_at: float
    outcome: CommandOutcome = CommandOutcome.PENDING
    result_name: str | None = None
    error: str | None = None

    @property
    def command_name(self) -> str:
        return mav_cmd_name(self.command)


class CommandManager:
    """Sends COMMAND_LONGs without waiting and matches COMMAND_ACKs fed to it by the poller.

    The ground-station ids the commands leave with are read from the connection's encoder at
    send time, so an ACK explicitly addressed to another ground station is ignored whatever ids
    the host application chose.
    """

    DEFAULT_ACK_TIMEOUT_S = 0.8

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        ack_timeout_s: float = DEFAULT_ACK_TIMEOUT_S,
    ) -> None:
        self._clock = clock
        self.ack_timeout_s = ack_timeout_s
        self._own_system_id: int | None = None
        self._own_component_id: int | None = None
        self._pending: list[PendingCommand] = []

    @property
    def pending(self) -> tuple[PendingCommand, ...]:
        return tuple(self._pending)

    def _failed(self, handle: PendingCommand, reason: str) -> PendingCommand:
        handle.outcome = CommandOutcome.SEND_FAILED
        handle.error = reason
        return handle

    def send(
        self,
        master: Any,
        command: int,
        params: Sequence[float],
        target_system: int,
        target_component: int,
    ) -> PendingCommand:
        """Send a COMMAND_LONG (confirmation 0) and return its handle; never blocks or raises."""
        try:
            values = tuple(float(p) for p in params)
        except (TypeError, ValueError):
            values = ()
            bad_params = True
        else:
            bad_params = False
        padded = (values + (0.0,) * COMMAND_LONG_PARAM_COUNT)[:COMMAND_LONG_PARAM_COUNT]
        handle = PendingCommand(
            command=command,
            params=padded,
            target_system=target_system,
            target_component=target_component,
            sent_at=self._clock(),
        )
        name = mav_cmd_name(command)
        if bad_params or len(values) > COMMAND_LONG_PARAM_COUNT:
            return self._failed(
                handle,
                _("{command} was not sent: a COMMAND_LONG takes at most 7 numeric parameters.").format(
                    command=name
                ),
            )
        if master is None:
            return self._failed(
                handle,
                _("{command} was not sent: no flight controller is connected.").format(command=name),
            )
        if len(self._pending) >= MAX_PENDING_COMMANDS:
            return self._failed(
                handle,
                _("{command} was not sent: {count} commands are still waiting for an answer.").format(
                    command=name, count=len(self._pending)
                ),
            )
        # pymavlink's transports swallow write errors; a dead link shows only as ``portdead``
        # (a serial port whose write failed, a TCP peer that closed), before or after the write.
        if _link_dead(master):
            return self._failed(handle, _link_dead_reason(name))
        try:
            encoder = master.mav
            self._own_system_id = int_field(encoder, "srcSystem")
            self._own_component_id = int_field(encoder, "srcComponent")
            encoder.command_long_send(target_system, target_component, command, 0, *padded)
        except Exception as error:  # a transport that does raise, an encoder error: same outcome
            return self._failed(
                handle,
                _("{command} could not be sent to the flight controller: {reason}").format(
                    command=name, reason=describe_exception(error)
                ),
            )
        if _link_dead(master):
            return self._failed(handle, _link_dead_reason(name))
        self._pending.append(handle)
        return handle

    def _addressed_to_someone_else(self, msg: object) -> bool:
        # target fields are MAVLink 2 extensions: 0 (absent) means "not stated", which we accept
        target_system = int_field(msg, "target_system")
        if target_system and self._own_system_id is not None and target_system != self._own_system_id:
            return True
        target_component = int_field(msg, "target_component")
        return bool(
            target_component
            and self._own_component_id is not None
            and target_component != self._own_component_id
        )

    def handle_message(self, msg: object) -> bool:
        """Look at one message the poller read; True if it was an ACK that completed a command.

        The message is only inspected, never consumed: the caller keeps using it.
        """
        if not self._pending or message_type(msg) != "COMMAND_ACK":
            return False
        command = int_field(msg, "command")
        result = int_field(msg, "result")
        source_system = call_int(msg, "get_srcSystem")
        source_component = call_int(msg, "get_srcComponent")
        if command is None or result is None or source_system is None or source_component is None:
            return False
        if self._addressed_to_someone_else(msg):
            return False
        for handle in self._pending:
            if handle.command != command or handle.target_system != source_system:
                continue
            if handle.target_component not in (0, source_component):
                continue
            if result == _MAV_RESULT_IN_PROGRESS:
                return False
            handle.result_name = mav_result_name(result)
            handle.outcome = (
                CommandOutcome.ACCEPTED if result == _MAV_RESULT_ACCEPTED else CommandOutcome.REJECTED
            )
            self._pending.remove(handle)
            return True
        return False

    def expire(self) -> None:
        """End every pending command that has waited the ACK timeout or longer."""
        if not self._pending:
            return
        now = self._clock()
        still_pending: list[PendingCommand] = []
        for handle in self._pending:
            waited = now - handle.sent_at
            if waited >= self.ack_timeout_s or math.isnan(waited):
                handle.outcome = CommandOutcome.TIMED_OUT
                handle.error = _(
                    "{command}: no answer from the flight controller within {timeout:g} s."
                ).format(command=handle.command_name, timeout=self.ack_timeout_s)
            else:
                still_pending.append(handle)
        self._pending = still_pending

    def cancel_all(self, reason: str) -> None:
        """End every pending command as SEND_FAILED with ``reason`` (the connection went away)."""
        for handle in self._pending:
            handle.outcome = CommandOutcome.SEND_FAILED
            handle.error = reason
        self._pending = []


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

# The vehicle a connection addresses: (system id, component id), None where unknown.
TargetOf = Callable[[Any], tuple[int | None, int | None]]


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

    def __init__(self, commands: CommandManager, target_of: TargetOf) -> None:
        self._commands = commands
        self._target_of = target_of
        # The connection on which the current activation asked; None = not yet.
        self.requested_on: Any = None
        # Set by a resume after a connection recovery: the vehicle may have rebooted to defaults.
        self.ask_again = False
        self._requested_at = 0.0
        self._repeats_left = MAX_REPEATED_REQUESTS
        self._requests: tuple[PendingCommand, ...] = ()
        self._statuses: tuple[object, tuple[IntervalRequestStatus, ...]] | None = None

    def statuses(self) -> tuple[IntervalRequestStatus, ...]:
        """The outcome of each request of this activation, or both streams "not requested"."""
        # Read every poll, and the outcomes change a few times per activation: worded again only then.
        key = (self._requests, tuple((c.outcome, c.result_name, c.error) for c in self._requests))
        if self._statuses is None or self._statuses[0] != key:
            words = tuple(request_status(command) for command in self._requests) or not_requested()
            self._statuses = (key, words)
        return self._statuses[1]

    def forget(self) -> None:
        """The requests no longer describe the link (deactivated, or another connection)."""
        self.requested_on = None
        self._requests = ()

    def request_if_needed(self, master: Any, now: float, received_at: Iterable[float]) -> None:
        """Ask on ``master`` unless this activation already did and the streams came.

        ``received_at`` are the times of the latest RC_CHANNELS and SYS_STATUS read, if any.
        """
        if self.requested_on is master and not self.ask_again and not self._never_came(now, received_at):
            return
        if self.requested_on is not master or self.ask_again:
            self._repeats_left = MAX_REPEATED_REQUESTS
        else:
            self._repeats_left -= 1
        self.requested_on = master
        self._requested_at = now
        self.ask_again = False
        # Both are always attempted, so one refused stream never hides the other.
        self._requests = tuple(
            self._send_interval(master, message_id, REQUESTED_INTERVAL_US) for message_id, _name in STREAMS
        )

    def restore(self, current_master: Any) -> None:
        """Ask for the default rates again, on the connection that asked if it is ``current_master``."""
        master = self.requested_on
        if master is None or master is not current_master:
            return
        for message_id, _name in STREAMS:
            self._send_interval(master, message_id, DEFAULT_INTERVAL_US)

    def _never_came(self, now: float, received_at: Iterable[float]) -> bool:
        """Accepted requests after which neither stream ever arrived: ask again, a bounded number
        of times.  A vehicle that simply sends nothing is asked at most three more times."""
        if self._repeats_left <= 0 or now - self._requested_at < STREAMS_EXPECTED_WITHIN_S:
            return False
        if not any(command.outcome is CommandOutcome.ACCEPTED for command in self._requests):
            return False
        return not any(at >= self._requested_at for at in received_at)

    def _send_interval(self, master: Any, message_id: int, interval_us: int) -> PendingCommand:
        target_system, target_component = self._target_of(master)
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


MAX_IN_FLIGHT = 6
ATTEMPT_TIMEOUT_S = 1.5
MAX_ATTEMPTS = 3
PARAM_ID_LENGTH = 16


@dataclass
class _Request:
    attempts: int = 0
    sent_at: float | None = None


def param_name(raw: object) -> str:
    """The parameter name of a PARAM_VALUE ``param_id`` (bytes or str, NUL padded)."""
    text = raw.decode("ascii", errors="replace") if isinstance(raw, bytes | bytearray) else str(raw)
    return text.split("\x00", 1)[0].strip()


class ParameterReader:
    """Asks the selected vehicle for named parameters and collects the answers."""

    def __init__(self) -> None:
        self._wanted: tuple[str, ...] = ()
        self._requests: dict[str, _Request] = {}
        self._values: dict[str, float] = {}
        self._unavailable: set[str] = set()
        # Grows with every change of what `values`, `unavailable` or `attempts` answer, so a
        # caller can tell in one comparison that nothing it showed changed.
        self.version = 0
        self._wanted_for: tuple[object, int] | None = None

    # ----------------------------------------------------------------- state

    @property
    def values(self) -> dict[str, float]:
        """Values answered so far (a copy)."""
        return dict(self._values)

    @property
    def unavailable(self) -> frozenset[str]:
        return frozenset(self._unavailable)

    @property
    def pending(self) -> frozenset[str]:
        return frozenset(name for name in self._wanted if name in self._requests)

    def attempts(self, name: str) -> int:
        request = self._requests.get(name)
        if request is not None:
            return request.attempts
        return MAX_ATTEMPTS if name in self._unavailable else 0

    def reset(self) -> None:
        """Forget everything (a new connection: maybe another vehicle)."""
        self.version += 1
        self._wanted = ()
        self._requests.clear()
        self._values.clear()
        self._unavailable.clear()

    def forget_reads(self) -> None:
        """Ask again for everything: after a pause the host may have written new values."""
        wanted = self._wanted
        self.reset()
        self._wanted = wanted
        self._requests = {name: _Request() for name in wanted}

    def want(self, names: Iterable[str], known: Mapping[str, float]) -> None:
        """The names the check needs now; those in ``known`` (the host's download) are not asked."""
        wanted = tuple(dict.fromkeys(names))
        # Called every poll with the same names: unchanged inputs and state change nothing.
        key = (wanted, frozenset(name for name in wanted if name in known))
        if self._wanted_for == (key, self.version):
            return
        self._wanted = wanted
        before = set(self._requests)
        for name in self._wanted:
            if name in known:
                self._requests.pop(name, None)
            elif name not in self._values and name not in self._unavailable:
                self._requests.setdefault(name, _Request())
        for name in list(self._requests):
            if name not in self._wanted:
                del self._requests[name]
        if set(self._requests) != before:
            self.version += 1
        self._wanted_for = (key, self.version)

    # ----------------------------------------------------------------- wire

    def send_due(self, master: Any, target_system: int, target_component: int, now: float) -> int:
        """Send the requests that are due; returns how many left.  Never blocks.

        A request whose send raises (a closed link) is not counted as an attempt; it is tried
        again on a later poll, so a dead link cannot make a parameter look unavailable.
        """
        if master is None or getattr(master, "portdead", False) is True:
            return 0
        in_flight = 0
        due: list[str] = []
        for name, request in list(self._requests.items()):
            if request.sent_at is not None and now - request.sent_at < ATTEMPT_TIMEOUT_S:
                in_flight += 1
            elif request.attempts >= MAX_ATTEMPTS:
                del self._requests[name]
                self._unavailable.add(name)
                self.version += 1
            else:
                due.append(name)
        sent = 0
        for name in due:
            if in_flight >= MAX_IN_FLIGHT:
                break
            request = self._requests[name]
            try:
                master.mav.param_request_read_send(
                    target_system, target_component, name.encode("ascii")[:PARAM_ID_LENGTH], -1
                )
            except Exception:  # a transport fault: retried on a later poll, never raised
                return sent
            request.attempts += 1
            request.sent_at = now
            self.version += 1
            in_flight += 1
            sent += 1
        return sent

    def handle_message(self, msg: Any) -> bool:
        """Take a PARAM_VALUE of the selected vehicle; True when it answered a wanted name."""
        try:
            if msg.get_type() != "PARAM_VALUE":
                return False
            name = param_name(msg.param_id)
            value = float(msg.param_value)
        except Exception:  # a malformed message is simply not an answer
            return False
        if name not in self._wanted or math.isnan(value):  # NaN is no value
            return False
        self._values[name] = value
        self._requests.pop(name, None)
        self._unavailable.discard(name)
        self.version += 1
        return True
