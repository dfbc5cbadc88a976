# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The guided test in the terminal: keys from a real pseudo-terminal, none from a pipe, summaries."""

from __future__ import annotations

import io
import os
import select
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.plugins.rc_receiver.snapshot import GuideStep
from amc_rc_receiver.plugins.rc_receiver.wording.terminal import terminal_step_text
from amc_rc_receiver.standalone.options import EXIT_FAILED, EXIT_INCOMPLETE, EXIT_PASSED
from amc_rc_receiver.standalone.session import MAX_PREVIOUS_TESTS, VehicleSession
from amc_rc_receiver.standalone.terminal.prompter import (
    MAX_KEY_ACTIONS,
    GuidePrompter,
    KeyReader,
    describe_guided_events,
    format_summary,
    key_actions,
)
from tests.plugins.data_model_rc_receiver_harness import (
    COPTER,
    REST,
    ModelHarness,
    failsafe,
    move_every_stick,
    prearm_answered,
    send_frame,
)

pytestmark = pytest.mark.loopback

posix_only = pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals are POSIX")


@pytest.fixture
def harness() -> Iterator[ModelHarness]:
    with ModelHarness() as created:
        yield created


@posix_only
def test_keys_are_read_from_a_terminal_without_waiting() -> None:
    """
    GIVEN standard input that is a (pseudo-)terminal
    WHEN the user types "o" and the reader is asked twice
    THEN the first call returns "o" and the second returns at once with nothing
    """
    import pty

    master, slave = pty.openpty()
    with os.fdopen(slave, "r") as stream:
        reader = KeyReader(stream)
        assert reader.enabled
        with reader.active():
            os.write(master, b"o")
            assert reader.keys() == "o"
            assert reader.keys() == ""
    os.close(master)


@posix_only
def test_the_terminal_gets_its_line_mode_back_after_the_keys_were_read() -> None:
    """GIVEN a (pseudo-)terminal in line mode WHEN keys are read and the reader is left, even by an
    exception THEN the terminal's settings are exactly what they were."""
    import pty
    import termios

    master, slave = pty.openpty()
    with os.fdopen(slave, "r") as stream:
        before = termios.tcgetattr(slave)
        reader = KeyReader(stream)
        inside: list[object] = []

        def run_that_fails() -> None:
            with reader.active():
                inside.append(termios.tcgetattr(slave))
                raise RuntimeError("the run ended by a fault")

        with pytest.raises(RuntimeError):
            run_that_fails()
        assert inside != [before]  # single keys, no echo, while inside
        assert termios.tcgetattr(slave) == before
    os.close(master)


def test_a_pipe_gives_no_keys_and_never_blocks() -> None:
    """GIVEN standard input that is a pipe WHEN keys are asked for THEN there are none, at once."""
    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "r") as stream:
        reader = KeyReader(stream)
        assert not reader.enabled
        with reader.active():
            assert reader.keys() == ""
    os.close(write_end)


def keyed_check(harness: ModelHarness, typed: list[str], out: io.StringIO) -> GuidePrompter:
    """A person's terminal run over the Copter set, its parameters read, taking the keys in ``typed``."""
    harness.vehicle.parameters = dict(COPTER)
    harness.model.activate()
    harness.poll_until(lambda state: state.guided.parameters_complete, "the parameter reads")
    return GuidePrompter(
        SimpleNamespace(model=harness.model),
        out,
        live=False,
        program_switches=False,
        keys=lambda: typed.pop() if typed else "",
    )


def test_the_keys_confirm_the_steps_of_a_real_test_and_the_exit_status_follows_the_verdict(
    harness: ModelHarness,
) -> None:
    """
    GIVEN a terminal run over a scripted vehicle with parameters read and every stick moved
    WHEN the user presses o, the failsafe comes, the user presses i and the failsafe clears
    THEN the guide follows the keys, the log names each step, and finishing returns 0 with the
         verdict PASSED in the summary
    """
    typed: list[str] = []
    out = io.StringIO()
    check = keyed_check(harness, typed, out)
    state = move_every_stick(harness)
    typed.append("o")
    assert not check.tick(state)
    assert harness.model.state.guided.guide.step is GuideStep.WAIT_FAILSAFE
    harness.clock.advance(1.0)
    before = failsafe(harness, active=True)
    typed.append("i")
    check.tick(before)
    harness.clock.advance(0.2)
    state = failsafe(harness, active=False)
    assert "Step: Test finished." in describe_guided_events(before, state)
    assert not check.tick(state)  # ArduPilot's own pre-arm answer after the test is still to come
    state = prearm_answered(harness)
    assert check.tick(state)  # a log run ends once the test has finished

    assert check.finish(state) == EXIT_PASSED
    assert "Verdict: PASSED" in out.getvalue()


def test_s_skips_the_stick_asked_for_and_the_summary_names_it_as_not_checked(
    harness: ModelHarness,
) -> None:
    """
    GIVEN a terminal run at the stick step, asking a person for the throttle
    WHEN the user presses s four times, and once more at the switch step
    THEN each stick is skipped in turn, the switch step says s goes on, then the step asks to switch
         the transmitter off, the prompts said the key, and the summary lists every stick as skipped
    """
    typed: list[str] = []
    out = io.StringIO()
    check = keyed_check(harness, typed, out)
    state = send_frame(harness, REST)
    assert "(s: skip this stick)" in terminal_step_text(state)
    for _stick in range(4):
        typed.append("s")
        check.tick(harness.model.state)

    state = harness.model.state
    assert state.guided.guide.step is GuideStep.FLIP_SWITCHES
    assert "(s: go on)" in terminal_step_text(state)
    typed.append("s")
    check.tick(harness.model.state)
    state = harness.model.state
    assert state.guided.guide.step is GuideStep.SWITCH_OFF
    assert any(
        line == "Sticks: throttle: skipped; roll: skipped; pitch: skipped; yaw: skipped"
        for line in format_summary(state)
    )


def test_the_exit_status_is_3_for_failed_and_4_for_incomplete(harness: ModelHarness) -> None:
    """GIVEN FS_THR_ENABLE 0, then a test not finished WHEN the run ends THEN 3, then 4."""
    harness.vehicle.parameters = {**COPTER, "FS_THR_ENABLE": 0}
    harness.model.activate()
    state = harness.poll_until(lambda s: s.guided.parameters_complete, "the parameter reads")
    out = io.StringIO()
    check = GuidePrompter(
        SimpleNamespace(model=harness.model), out, live=False, program_switches=False, keys=None
    )
    assert check.finish(state) == EXIT_FAILED
    assert any("FS_THR_ENABLE = 0" in line for line in format_summary(state))

    harness.vehicle.parameters = dict(COPTER)
    harness.model.deactivate()
    harness.fc.fc_parameters = {name: float(value) for name, value in COPTER.items()}
    harness.model.activate()
    state = harness.poll_after_sync()
    assert check.finish(state) == EXIT_INCOMPLETE


def test_text_from_the_vehicle_cannot_drive_the_terminal(harness: ModelHarness) -> None:
    """
    GIVEN a vehicle whose STATUSTEXT carries terminal control: clear the screen, turn red, and a
          line break
    WHEN the terminal view prints it as an event and in the final summary
    THEN no control character reaches the output: each is written as its escape, the text stays
         on its own line
    """
    harness.model.activate()
    before = harness.poll_after_sync()
    harness.vehicle.send(mavlink2.MAVLink_statustext_message(4, b"RC \x1b[2J\x1b[31mFAKE\r\nx"))
    state = harness.poll_after_sync()

    printed = "\n".join([*describe_guided_events(before, state), *format_summary(state)])

    assert "Flight controller: RC \\x1b[2J\\x1b[31mFAKE\\r\\nx" in printed
    assert not [char for char in printed if char != "\n" and (ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0)]


class CountingModel:
    """The real model, with the calls keys make counted (the cost of a key is one of these)."""

    def __init__(self, model: object) -> None:
        self.model = model
        self.calls: list[str] = []

    def confirm_transmitter(self, on: bool) -> None:
        self.calls.append("on" if on else "off")
        self.model.confirm_transmitter(on)  # type: ignore[attr-defined]

    def reset_test(self) -> None:
        self.calls.append("reset")
        self.model.reset_test()  # type: ignore[attr-defined]


@posix_only
def test_a_paste_of_200000_keys_costs_a_few_actions_per_tick_and_quitting_still_works(
    harness: ModelHarness,
) -> None:
    """
    GIVEN the guided test reading keys from a real pseudo-terminal
    WHEN 200,000 keys ("oi" repeated) are pasted, then q
    THEN each tick acts on at most MAX_KEY_ACTIONS of them (each action rebuilds the test's state;
         one rebuild per key stopped the output for seconds), and the q still ends the run
    """
    import pty
    import threading

    harness.vehicle.parameters = dict(COPTER)
    harness.model.activate()
    harness.poll_until(lambda state: state.guided.parameters_complete, "the parameter reads")
    counting = CountingModel(harness.model)
    master, slave = pty.openpty()
    pasted = b"oi" * 100_000 + b"q"

    def paste() -> None:
        view = memoryview(pasted)
        while view:
            view = view[os.write(master, view[:4096]) :]

    with os.fdopen(slave, "r") as stream:
        reader = KeyReader(stream)
        with reader.active():
            check = GuidePrompter(
                SimpleNamespace(model=counting),
                io.StringIO(),
                live=True,
                program_switches=False,
                keys=reader.keys,
            )
            writer = threading.Thread(target=paste, daemon=True)
            writer.start()
            per_tick: list[int] = []
            drained = False
            while not check.quit and not drained:
                # Once the whole paste is in the terminal and read, a missed q would end the loop.
                drained = not writer.is_alive() and not select.select([stream], [], [], 0)[0]
                before = len(counting.calls)
                check.tick(harness.model.state)
                per_tick.append(len(counting.calls) - before)
            writer.join()
    os.close(master)

    assert check.quit
    assert max(per_tick) <= MAX_KEY_ACTIONS


@given(st.text(alphabet="oirqx\x1b ", max_size=400))
def test_the_keys_of_a_tick_keep_their_order_without_repeats_and_never_lose_a_quit(keys: str) -> None:
    """GIVEN any keys typed within one tick
    WHEN reduced to actions
    THEN a q anywhere means quit alone; otherwise the actions are the latest known keys in order,
         none repeated in a row, at most MAX_KEY_ACTIONS of them
    """
    actions = key_actions(keys)

    if "q" in keys:
        assert actions == ["q"]
        return
    expected: list[str] = []
    for key in keys:
        if key in "oir" and (not expected or expected[-1] != key):
            expected.append(key)
    assert actions == expected[-MAX_KEY_ACTIONS:]


def test_the_end_says_how_many_earlier_tests_were_kept_and_how_many_dropped(harness: ModelHarness) -> None:
    """GIVEN a session on which the link was lost and re-established seven times, each time with a
    test that saw the vehicle WHEN the run ends THEN the newest five earlier verdicts are printed and
    one line says five were kept and two dropped."""
    harness.model.activate()
    state = harness.poll_until(lambda s: s.guided.system_id is not None, "the vehicle's telemetry")
    session = VehicleSession()
    for _ in range(7):
        session.keep_test_before_reconnect(state)
    assert len(session.previous_tests) == MAX_PREVIOUS_TESTS
    assert session.dropped_tests == 2
    out = io.StringIO()
    session_view = SimpleNamespace(
        model=harness.model, previous_tests=session.previous_tests, dropped_tests=session.dropped_tests
    )
    check = GuidePrompter(session_view, out, live=False, program_switches=False, keys=None)
    check.finish(state)
    printed = out.getvalue()
    assert printed.count("(before the link was re-established)") == MAX_PREVIOUS_TESTS
    assert "Earlier tests on this run: 5 kept, 2 dropped (only the newest 5 are kept)." in printed
