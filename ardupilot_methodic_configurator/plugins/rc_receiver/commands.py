# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The plugin's commands to the vehicle, and how their answers are matched, without ever waiting.

`CommandManager` sends a command and returns a `PendingCommand` at once; the poll that reads every
message anyway hands each to `handle_message`, which completes the oldest matching command (the
autopilot answers in order) without consuming anything, and `expire` ends the silent ones.  The
methodic configurator's own `request_rc_receiver_messages()` waits for two ACKs on the UI thread,
which is why the plugin tracks its commands itself.

What the plugin may send at all is listed in `data_model_rc_receiver` (its one place that sends):
COMMAND_LONG ``MAV_CMD_SET_MESSAGE_INTERVAL`` (`streams`) and ``MAV_CMD_RUN_PREARM_CHECKS``
(`prearm`), and PARAM_REQUEST_READ by name (`parameter_reads`).  There is deliberately no code
path that writes a parameter, arms, calibrates or reboots.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from pymavlink.dialects.v20 import ardupilotmega as _mavlink

from ... import _
from .readings import (
    call_int,
    int_field,
    message_type,
)

COMMAND_LONG_PARAM_COUNT = 7
MAX_PENDING_COMMANDS = 64  # a bound, far above the few requests this tool makes

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
