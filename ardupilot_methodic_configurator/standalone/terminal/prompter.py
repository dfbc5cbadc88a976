# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The guided test in the terminal: prompts, keys, the final summary, the report and the exit status.

`GuidePrompter` rides along the terminal loop of `terminal.app`: where the program owns the
transmitter (the demo, SITL) it lets the model's guide move its sticks and switch it, and asks
nothing; otherwise it prints each step and reads single keys (``o`` "it is off", ``i`` "it is
on", ``s`` skip this stick, ``r`` new test, ``q`` quit) from a terminal, and never waits for one -
with standard input that is not a terminal there are no keys at all.  A run that is not a live
screen ends once the test has finished.  At the end it prints the verdict and a summary, writes
``--report`` and returns the exit status: 0 only for PASSED, 3 for FAILED, 4 for INCOMPLETE (1 and
2 stay connection and usage errors).
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, TextIO

from ...plugins.rc_receiver.guide import KEY_OFF, KEY_ON, KEY_RESET, KEY_SKIP
from ...plugins.rc_receiver.report import ReportPathError, earlier_report_base, write_report
from ...plugins.rc_receiver.snapshot import GuideStep, RCReceiverState, Severity
from ...plugins.rc_receiver.wording import sticks_text
from ...plugins.rc_receiver.wording.channels import flight_mode_text
from ...plugins.rc_receiver.wording.terminal import (
    channel_role_line_text,
    decoded_protocol_text,
    earlier_test_text,
    earlier_tests_kept_text,
    extra_channel_line_text,
    failsafe_held_values_text,
    failsafe_latency_text,
    finding_event_text,
    finding_line_text,
    finding_summary_text,
    radio_message_event_text,
    report_not_written_text,
    report_written_text,
    step_line_text,
    switch_moved_text,
    verdict_line_text,
)
from ..options import EXIT_ERROR, EXIT_STATUS
from ..session import MAX_PREVIOUS_TESTS

KEY_QUIT = "q"
_ACTION_KEYS = frozenset((KEY_OFF, KEY_ON, KEY_RESET, KEY_SKIP, KEY_QUIT))
# What one tick takes from the terminal: a paste beyond it waits in the terminal, not in memory.
MAX_KEY_BYTES = 65_536
MAX_KEY_ACTIONS = 4


def exit_status(state: RCReceiverState) -> int:
    return EXIT_STATUS[state.guided.verdict.result.value]


# ----------------------------------------------------------------------------- lines


def format_guided_lines(state: RCReceiverState) -> list[str]:
    """The guided test's lines of the live screen."""
    guided = state.guided
    lines = ["", verdict_line_text(state), step_line_text(state)]
    roles = [channel_role_line_text(channel) for channel in guided.channels if channel.role is not None]
    if roles:
        lines.append(", ".join(roles))
    mode = flight_mode_text(guided.flight_mode)
    if mode:
        lines.append(mode)
    lines.extend(extra_channel_line_text(channel) for channel in guided.extra_channels)
    if state.failsafe.value == "active":
        lines.append(failsafe_held_values_text())
    lines.extend(finding_line_text(finding) for finding in guided.findings)
    return lines


def describe_guided_events(
    previous: RCReceiverState | None, state: RCReceiverState, *, step_news: bool = True
) -> list[str]:
    """Event lines for the log: a new step (unless ``step_news`` is False: a step that only
    follows from another event's sentence), a new verdict, a new finding, a radio message."""
    before = previous.guided if previous is not None else None
    guided = state.guided
    events: list[str] = []
    if step_news and (
        before is None
        or guided.guide.step is not before.guide.step
        or guided.guide.stick != before.guide.stick
        or guided.guide.failsafe_before_test != before.guide.failsafe_before_test
    ):
        events.append(step_line_text(state))
    if before is None or guided.verdict.result is not before.verdict.result:
        events.append(verdict_line_text(state))
    old = set() if before is None else {finding.code + str(finding.parameter) for finding in before.findings}
    for finding in guided.findings:
        if finding.code + str(finding.parameter) not in old:
            events.append(finding_event_text(finding))
    positions = (
        {} if before is None else {channel.number: channel.position for channel in before.extra_channels}
    )
    for channel in guided.extra_channels:
        # A switch ArduPilot reads in a new position (not one merely seen for the first time).
        was = positions.get(channel.number)
        if channel.position is not None and was is not None and was is not channel.position:
            events.append(switch_moved_text(channel))
    last = before.radio_messages[-1].at if before is not None and before.radio_messages else None
    for message in guided.radio_messages:
        if last is None or message.at > last:
            events.append(radio_message_event_text(message))
    return events


_FAILSAFE_TRIGGER_CODES = frozenset({"failsafe_by_low_throttle", "failsafe_by_no_pulses"})


def format_summary(state: RCReceiverState) -> list[str]:
    """The summary printed when the run ends."""
    guided = state.guided
    verdict = guided.verdict
    lines = ["", "=" * 60, verdict_line_text(state)]
    if verdict.failsafe_latency_s is not None:
        lines.append(failsafe_latency_text(verdict.failsafe_latency_s))
    sticks = sticks_text(guided)
    if sticks:
        lines.append(sticks)
    if guided.detected_protocol is not None:
        lines.append(decoded_protocol_text(guided.detected_protocol))
    lines.extend(extra_channel_line_text(channel) for channel in guided.extra_channels)
    for finding in guided.findings:
        # Which way the failsafe fired is part of the result, though it asks for nothing.
        if finding.severity is not Severity.INFO or finding.code in _FAILSAFE_TRIGGER_CODES:
            lines.append(finding_summary_text(finding))
    lines.append("=" * 60)
    return lines


# ----------------------------------------------------------------------------- keys


class KeyReader:
    """Single keys from a terminal without waiting; nothing at all when stdin is not a terminal."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        self._stream = stream if stream is not None else sys.stdin
        self._saved: Any = None

    @property
    def enabled(self) -> bool:
        try:
            return os.name == "posix" and self._stream.isatty()
        except (AttributeError, ValueError, OSError):
            return False

    @contextlib.contextmanager
    def active(self) -> Iterator[KeyReader]:
        """Unbuffered key presses while inside; the terminal is restored on the way out."""
        if not self.enabled:
            yield self
            return
        import termios  # noqa: PLC0415 - POSIX only
        import tty  # noqa: PLC0415

        descriptor = self._stream.fileno()
        saved = termios.tcgetattr(descriptor)
        tty.setcbreak(descriptor)
        try:
            yield self
        finally:
            termios.tcsetattr(descriptor, termios.TCSADRAIN, saved)

    def keys(self) -> str:
        """The keys pressed since the last call (possibly none, at most `MAX_KEY_BYTES` bytes of
        them: the rest waits in the terminal for the next call); never blocks."""
        if not self.enabled:
            return ""
        chunks: list[bytes] = []
        left = MAX_KEY_BYTES
        descriptor = self._stream.fileno()
        while left > 0 and select.select([self._stream], [], [], 0)[0]:
            chunk = os.read(descriptor, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks).decode(errors="replace").lower()


def key_actions(keys: str) -> list[str]:
    """The keys of one tick that change something, in order: a key repeated in a row counts once,
    at most `MAX_KEY_ACTIONS` of the latest are kept, and quitting is never dropped.

    A paste of thousands of keys used to rebuild the guided test once per key and stop the output
    for seconds; no person means more than a few switches in a tenth of a second.
    """
    actions: list[str] = []
    for key in keys:
        if key in _ACTION_KEYS and (not actions or actions[-1] != key):
            actions.append(key)
    if KEY_QUIT in actions:
        return [KEY_QUIT]
    return actions[-MAX_KEY_ACTIONS:]


class GuidePrompter:
    """Prompts the guided test's steps in one terminal run and reads its keys; see the module docstring."""

    def __init__(
        self,
        session: Any,
        out: TextIO,
        *,
        live: bool,
        program_switches: bool,
        program_sticks: bool = False,
        keys: Callable[[], str] | None = None,
        report: str | None = None,
    ) -> None:
        self._session = session
        self._out = out
        self._live = live
        self._keys = keys
        self._report = report
        self.quit = False
        self._cleanup = contextlib.ExitStack()
        if program_sticks:
            session.model.set_stick_mover(session.hold_sticks)
            session.model.set_switch_mover(session.hold_switch)
        if program_switches:
            session.model.set_transmitter_switch(session.set_transmitter_on)
        elif keys is None:
            # A person switches the transmitter: take their keys, if there is a terminal to type in.
            reader = KeyReader()
            if reader.enabled:
                self._cleanup.enter_context(reader.active())
                self._keys = reader.keys

    def close(self) -> None:
        """Give the terminal back its line mode."""
        self._cleanup.close()

    def tick(self, state: RCReceiverState) -> bool:
        """Handle keys; True when the run should end (finished, or the user quit)."""
        for key in key_actions(self._keys() if self._keys is not None else ""):
            model = self._session.model
            if key == KEY_OFF:
                model.confirm_transmitter(False)
            elif key == KEY_ON:
                model.confirm_transmitter(True)
            elif key == KEY_RESET:
                model.reset_test()
            elif key == KEY_SKIP:
                model.skip_stick()
            elif key == KEY_QUIT:
                self.quit = True
        # The test's last word is ArduPilot's own pre-arm answer after it.
        finished = (
            state.guided.guide.step is GuideStep.DONE and not state.guided.prearm_waiting and not self._live
        )
        return finished or self.quit

    def finish(self, state: RCReceiverState) -> int:
        """Print the summary, write the report; returns the exit status."""
        for line in format_summary(state):
            self._out.write(line + "\n")
        status = exit_status(state)
        earlier_tests = list(getattr(self._session, "previous_tests", ()))
        for number, earlier in enumerate(earlier_tests, start=1):
            self._out.write(earlier_test_text(number, earlier) + "\n")
        dropped = int(getattr(self._session, "dropped_tests", 0))
        if earlier_tests or dropped:
            self._out.write(earlier_tests_kept_text(len(earlier_tests), dropped, MAX_PREVIOUS_TESTS) + "\n")
        if self._report:
            status = self._write_reports(state, earlier_tests, status)
        self._out.flush()
        return status

    def _write_reports(
        self, state: RCReceiverState, earlier_tests: list[RCReceiverState], status: int
    ) -> int:
        """The report of the last test at ``--report``, each earlier one beside it, numbered."""
        assert self._report is not None
        try:
            targets: list[tuple[RCReceiverState, str | Path]] = [
                (earlier, earlier_report_base(self._report, number))
                for number, earlier in enumerate(earlier_tests, start=1)
            ]
        except ReportPathError as error:
            self._out.write(report_not_written_text(error) + "\n")
            return EXIT_ERROR
        for test, target in [*targets, (state, self._report)]:
            try:
                json_path, markdown_path = write_report(test, target)
            except (OSError, ReportPathError) as error:
                self._out.write(report_not_written_text(error) + "\n")
                # A script that asked for the report must not take its absence for success.
                status = EXIT_ERROR
            else:
                self._out.write(report_written_text(json_path, markdown_path) + "\n")
        return status
