# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The guided test in the terminal: prompts, keys, the final summary, the report and the exit status.

`TerminalCheck` rides along the terminal loop of `terminal.app`: where the program owns the
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

from ... import _
from ...plugins.rc_receiver.guide import KEY_OFF, KEY_ON, KEY_RESET, KEY_SKIP
from ...plugins.rc_receiver.report import ReportPathError, earlier_report_base, write_report
from ...plugins.rc_receiver.snapshot import GuideStep, RCReceiverState, Severity
from ...plugins.rc_receiver.wording import flight_mode_text, role_label, stick_instruction, sticks_text
from ..options import EXIT_ERROR, EXIT_STATUS
from ..session import MAX_PREVIOUS_TESTS

KEY_QUIT = "q"
_ACTION_KEYS = frozenset((KEY_OFF, KEY_ON, KEY_RESET, KEY_SKIP, KEY_QUIT))
# What one tick takes from the terminal: a paste beyond it waits in the terminal, not in memory.
MAX_KEY_BYTES = 65_536
MAX_KEY_ACTIONS = 4


def exit_status(state: RCReceiverState) -> int:
    return EXIT_STATUS[state.guided.verdict.result.value]


# ----------------------------------------------------------------------------- texts


def instruction(state: RCReceiverState) -> str:
    """The step as the terminal asks for it (keys instead of buttons)."""
    guide = state.guided.guide
    if guide.automatic:
        texts = {
            GuideStep.SWITCH_OFF: _("The program switches its transmitter off now."),
            GuideStep.SWITCH_ON: _("The program switches its transmitter back on now."),
        }
    else:
        texts = {
            GuideStep.SWITCH_OFF: _("Switch the transmitter off now, then press o (it is off)."),
            GuideStep.SWITCH_ON: _("Switch the transmitter back on, then press i (it is on)."),
        }
    common = {
        GuideStep.WAIT_TELEMETRY: _("Waiting for receiver telemetry from the flight controller."),
        GuideStep.MOVE_STICKS: _("Move the sticks one at a time, as the check asks."),
        GuideStep.WAIT_FAILSAFE: _("Transmitter off: waiting for RC failsafe."),
        GuideStep.WAIT_RECOVERY: _("Transmitter on: waiting for RC failsafe to clear."),
        GuideStep.DONE: _("Test finished."),
    }
    if guide.failsafe_before_test:
        return _(
            "RC failsafe is active: switch the transmitter on. The stick step and the failsafe test follow."
        )
    if guide.step is GuideStep.MOVE_STICKS and guide.stick is not None:
        text = stick_instruction(state.guided.family, guide.stick)
        return text if guide.stick.by_program else text + " " + _("(s: skip this stick)")
    return texts.get(guide.step) or common[guide.step]


def verdict_line(state: RCReceiverState) -> str:
    verdict = state.guided.verdict
    return _("Verdict: {result} - {detail}").format(
        result=verdict.headline or verdict.result.value, detail=verdict.detail
    )


def format_check_lines(state: RCReceiverState) -> list[str]:
    """The guided test's lines of the live screen."""
    check = state.guided
    lines = ["", verdict_line(state), _("Step: {step}").format(step=instruction(state))]
    roles = [
        _("CH{number} {role} {range}").format(
            number=channel.number,
            role=role_label(channel.role),
            range=_("moved") if channel.moved else _("not moved"),
        )
        for channel in check.channels
        if channel.role is not None
    ]
    if roles:
        lines.append(", ".join(roles))
    mode = flight_mode_text(check.flight_mode)
    if mode:
        lines.append(mode)
    if state.failsafe.value == "active":
        lines.append(_("RC failsafe: the channels show the last values held, not live input."))
    lines.extend(_("finding: {text}").format(text=finding.message) for finding in check.findings)
    return lines


def describe_check_events(previous: RCReceiverState | None, state: RCReceiverState) -> list[str]:
    """Event lines for the log: a new step, a new verdict, a new finding, a radio message."""
    before = previous.guided if previous is not None else None
    check = state.guided
    events: list[str] = []
    guide, old_guide = check.guide, before.guide if before is not None else None
    if (
        old_guide is None
        or guide.step is not old_guide.step
        or guide.stick != old_guide.stick
        or guide.failsafe_before_test != old_guide.failsafe_before_test
    ):
        events.append(_("Step: {step}").format(step=instruction(state)))
    if before is None or check.verdict.result is not before.verdict.result:
        events.append(verdict_line(state))
    old = set() if before is None else {finding.code + str(finding.parameter) for finding in before.findings}
    for finding in check.findings:
        if finding.code + str(finding.parameter) not in old:
            events.append(
                _("Finding ({severity}): {text}").format(
                    severity=finding.severity.value, text=finding.message
                )
            )
    last = before.radio_messages[-1].at if before is not None and before.radio_messages else None
    for message in check.radio_messages:
        if last is None or message.at > last:
            events.append(_("Flight controller: {text}").format(text=message.text))
    return events


_FAILSAFE_TRIGGER_CODES = frozenset({"failsafe_by_low_throttle", "failsafe_by_no_pulses"})


def format_summary(state: RCReceiverState) -> list[str]:
    """The summary printed when the run ends."""
    check = state.guided
    verdict = check.verdict
    lines = ["", "=" * 60, verdict_line(state)]
    if verdict.failsafe_latency_s is not None:
        lines.append(
            _("RC failsafe {latency:.1f} s after the transmitter went off.").format(
                latency=verdict.failsafe_latency_s
            )
        )
    sticks = sticks_text(check)
    if sticks:
        lines.append(sticks)
    if check.detected_protocol is not None:
        lines.append(
            _("Receiver protocol the flight controller decodes: {protocol}").format(
                protocol=check.detected_protocol
            )
        )
    for finding in check.findings:
        # Which way the failsafe fired is part of the result, though it asks for nothing.
        if finding.severity is not Severity.INFO or finding.code in _FAILSAFE_TRIGGER_CODES:
            lines.append(
                _("{severity}: {message} {action}").format(
                    severity=finding.severity.value, message=finding.message, action=finding.action
                )
            )
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


class TerminalCheck:
    """The guided test's part of one terminal run; see the module docstring."""

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
        finished = state.guided.guide.step is GuideStep.DONE and not self._live
        return finished or self.quit

    def finish(self, state: RCReceiverState) -> int:
        """Print the summary, write the report; returns the exit status."""
        for line in format_summary(state):
            self._out.write(line + "\n")
        status = exit_status(state)
        earlier_tests = list(getattr(self._session, "previous_tests", ()))
        for number, earlier in enumerate(earlier_tests, start=1):
            self._out.write(
                _("Earlier test {number} (before the link was re-established): {verdict}").format(
                    number=number, verdict=verdict_line(earlier)
                )
                + "\n"
            )
        dropped = int(getattr(self._session, "dropped_tests", 0))
        if earlier_tests or dropped:
            self._out.write(
                _(
                    "Earlier tests on this run: {kept} kept, {dropped} dropped "
                    "(only the newest {limit} are kept)."
                ).format(kept=len(earlier_tests), dropped=dropped, limit=MAX_PREVIOUS_TESTS)
                + "\n"
            )
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
            self._out.write(_("The report could not be written: {error}").format(error=error) + "\n")
            return EXIT_ERROR
        for test, target in [*targets, (state, self._report)]:
            try:
                json_path, markdown_path = write_report(test, target)
            except (OSError, ReportPathError) as error:
                self._out.write(_("The report could not be written: {error}").format(error=error) + "\n")
                # A script that asked for the report must not take its absence for success.
                status = EXIT_ERROR
            else:
                self._out.write(
                    _("Report written: {json} and {markdown}").format(json=json_path, markdown=markdown_path)
                    + "\n"
                )
        return status
