# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The guided test in the terminal: keys from a real pseudo-terminal, none from a pipe, summaries."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from amc_rc_receiver.plugins.rc_receiver_snapshot import GuideStep
from amc_rc_receiver.standalone.options import EXIT_FAILED, EXIT_INCOMPLETE, EXIT_PASSED
from amc_rc_receiver.standalone.terminal.check import (
    KeyReader,
    TerminalCheck,
    describe_check_events,
    format_summary,
)
from tests.plugins.data_model_rc_receiver_harness import COPTER, ModelHarness, failsafe, move_every_stick

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


def test_a_pipe_gives_no_keys_and_never_blocks() -> None:
    """GIVEN standard input that is a pipe WHEN keys are asked for THEN there are none, at once."""
    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "r") as stream:
        reader = KeyReader(stream)
        assert not reader.enabled
        with reader.active():
            assert reader.keys() == ""
    os.close(write_end)


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
    harness.vehicle.parameters = dict(COPTER)
    harness.model.activate()
    harness.poll_until(lambda state: state.check.parameters_complete, "the parameter reads")
    check = TerminalCheck(
        SimpleNamespace(model=harness.model),
        out,
        live=False,
        program_switches=False,
        keys=lambda: typed.pop() if typed else "",
    )
    state = move_every_stick(harness)
    typed.append("o")
    assert not check.tick(state)
    assert harness.model.state.check.guide.step is GuideStep.WAIT_FAILSAFE
    harness.clock.advance(1.0)
    before = failsafe(harness, active=True)
    typed.append("i")
    check.tick(before)
    harness.clock.advance(0.2)
    state = failsafe(harness, active=False)
    assert "Step: Test finished." in describe_check_events(before, state)
    assert check.tick(state)  # a log run ends once the test has finished

    assert check.finish(state) == EXIT_PASSED
    assert "Verdict: PASSED" in out.getvalue()


def test_the_exit_status_is_3_for_failed_and_4_for_incomplete(harness: ModelHarness) -> None:
    """GIVEN FS_THR_ENABLE 0, then a test not finished WHEN the run ends THEN 3, then 4."""
    harness.vehicle.parameters = {**COPTER, "FS_THR_ENABLE": 0}
    harness.model.activate()
    state = harness.poll_until(lambda s: s.check.parameters_complete, "the parameter reads")
    out = io.StringIO()
    check = TerminalCheck(
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
