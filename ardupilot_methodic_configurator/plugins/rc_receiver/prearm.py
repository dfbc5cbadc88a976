# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""ArduPilot's own answer: its pre-arm checks, run on request, and what they say of the receiver.

A PASSED check could still be followed by ArduPilot refusing to arm for a receiver reason the
check never looked at, so the check asks the flight controller itself, twice per test: once the
parameters are read and the receiver delivers (`PrearmMoment.PARAMETERS_READ`), and again when
the guided test is over (`PrearmMoment.TEST_DONE`), each time one COMMAND_LONG
``MAV_CMD_RUN_PREARM_CHECKS`` sent through the `CommandManager` without waiting.

ArduPilot's handler runs ``AP_Arming::pre_arm_checks`` with reporting on and acknowledges at
once (ACCEPTED; TEMPORARILY_REJECTED while armed); each failing check queues a STATUSTEXT
"PreArm: …", which goes out with the following telemetry, after the ACK, and a check that passes
says nothing.  So the answer is every receiver-related PreArm (or Arm) text read after the request
and within ``ANSWER_WINDOW_S`` of it; silence after an accepted ACK means no receiver failure.
The arming-only checks (duplicate aux options, the mode channel's option, sticks not neutral) are
not run by this command: those texts count when a person's arming attempt sends them meanwhile.

A request that timed out or could not be sent is tried once more.  Nothing here reads a clock or a
socket: the tracker says which moment has come, the data model sends what is due.
"""

from __future__ import annotations

import re
from typing import Any

from .commands import CommandManager, CommandOutcome, PendingCommand
from .evidence import is_radio_message
from .snapshot import PrearmAnswer, PrearmMoment

MAV_CMD_RUN_PREARM_CHECKS = 401
# The ACK comes at once; the texts follow on the next telemetry slots, well within this.
ANSWER_WINDOW_S = 2.0
MAX_ATTEMPTS = 2
# ArduPilot reports each failing check once per run; this only bounds a vehicle that floods.
MAX_REFUSALS = 20
_ARMING_PREFIX = re.compile(r"^(PreArm|Arm): ")


def arming_refusal(text: str) -> str | None:
    """The receiver-related refusal a PreArm or Arm STATUSTEXT states, without its prefix."""
    match = _ARMING_PREFIX.match(text)
    if match is None or not is_radio_message(text):
        return None
    return text[match.end() :]


class _Asked:
    """One moment's request: its latest handle, how often it was sent, the texts that answered."""

    def __init__(self, moment: PrearmMoment) -> None:
        self.moment = moment
        self.handle: PendingCommand | None = None
        self.attempts = 0
        self.asked_at: float | None = None
        self.refusals: list[str] = []

    def due(self) -> bool:
        if self.handle is None:
            return True
        failed = self.handle.outcome in (CommandOutcome.TIMED_OUT, CommandOutcome.SEND_FAILED)
        return failed and self.attempts < MAX_ATTEMPTS

    def answer(self, now: float) -> PrearmAnswer:
        handle = self.handle
        outcome = handle.outcome if handle is not None else CommandOutcome.PENDING
        asked_at = self.asked_at if self.asked_at is not None else now
        if outcome is CommandOutcome.ACCEPTED:
            complete = now >= asked_at + ANSWER_WINDOW_S
        else:
            complete = outcome is not CommandOutcome.PENDING and not self.due()
        result = None
        if handle is not None:
            result = handle.result_name if handle.result_name is not None else handle.error
        return PrearmAnswer(
            moment=self.moment,
            asked_at=asked_at,
            outcome=outcome.value,
            result=result,
            complete=complete,
            refusals=tuple(self.refusals),
        )


class PrearmChecks:
    """When to ask for ArduPilot's pre-arm checks and what came back; see the module docstring."""

    def __init__(self, commands: CommandManager) -> None:
        self._commands = commands
        self._asked: dict[PrearmMoment, _Asked] = {}
        # Grows with every change of what this answers but the time.
        self.version = 0

    def asked(self, moment: PrearmMoment) -> bool:
        """Whether ``moment``'s request belongs to this test already."""
        return moment in self._asked

    def want(self, moment: PrearmMoment) -> None:
        """``moment`` has come: ask (once per test) at the next send."""
        if moment not in self._asked:
            self._asked[moment] = _Asked(moment)
            self.version += 1

    def send_due(self, master: Any, target_system: int, target_component: int, now: float) -> None:
        """Send the requests that are due (the data model's one place that writes calls this)."""
        for asked in self._asked.values():
            if not asked.due():
                continue
            asked.attempts += 1
            asked.asked_at = now
            asked.refusals.clear()
            asked.handle = self._commands.send(
                master, MAV_CMD_RUN_PREARM_CHECKS, (), target_system, target_component
            )
            self.version += 1

    def observe_text(self, text: str, now: float) -> None:
        """One STATUSTEXT of the selected vehicle, read at ``now``."""
        refusal = arming_refusal(text)
        if refusal is None:
            return
        for asked in self._asked.values():
            if asked.asked_at is None or not asked.asked_at < now <= asked.asked_at + ANSWER_WINDOW_S:
                continue
            if refusal not in asked.refusals and len(asked.refusals) < MAX_REFUSALS:
                asked.refusals.append(refusal)
                self.version += 1

    def answers(self, now: float) -> tuple[PrearmAnswer, ...]:
        """The answers of this test as of ``now``, in the order asked."""
        if not self._asked:
            return ()
        return tuple(
            asked.answer(now)
            for asked in self._asked.values()
            if asked.asked_at is not None and asked.asked_at <= now
        )

    def waiting(self, moment: PrearmMoment, now: float) -> bool:
        """Whether ``moment``'s answer is still to come (not asked yet, or its time not over)."""
        asked = self._asked.get(moment)
        return asked is None or asked.handle is None or not asked.answer(now).complete

    def restart(self) -> None:
        """A new test asks again."""
        self._asked.clear()
        self.version += 1
