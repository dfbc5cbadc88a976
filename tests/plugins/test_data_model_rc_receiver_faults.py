# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A fault of the link and a fault of the check itself read differently, and a bug is logged.

The link's faults are injected into the real pymavlink connection (its read raises); the check's
own fault comes from a parent-application service, a host whose parameter download breaks when it
is read, which makes the guided test's code raise inside a poll.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from pytest_mock import MockerFixture

from amc_rc_receiver.plugins.rc_receiver.readings import RC_RECEIVER_SENSOR_BIT
from amc_rc_receiver.plugins.rc_receiver.wording import notice_lines
from amc_rc_receiver.standalone.terminal.screen import describe_events, format_status_line
from tests.plugins.data_model_rc_receiver_harness import ModelHarness, sys_status

pytestmark = pytest.mark.loopback


class BrokenDownload(Mapping[str, float]):
    """A host's parameter download that fails when it is read (a bug of the host or of the check)."""

    def __getitem__(self, name: str) -> float:
        raise RuntimeError("the download is half written")

    def __iter__(self) -> Iterator[str]:
        raise RuntimeError("the download is half written")

    def __len__(self) -> int:
        return 1


@pytest.fixture
def harness() -> Iterator[ModelHarness]:
    with ModelHarness() as created:
        created.model.activate()
        yield created


def _live(harness: ModelHarness) -> None:
    harness.vehicle.send_rc_channels([1500] * 5, rssi=50)
    harness.vehicle.send_sys_status(present=True, enabled=True, healthy=True)
    assert harness.poll_after_sync().has_live_telemetry


def test_a_bug_inside_a_poll_is_an_internal_error_logged_with_its_traceback(
    harness: ModelHarness, caplog: pytest.LogCaptureFixture
) -> None:
    """
    GIVEN live telemetry, then a host whose parameter download raises when the check reads it
    WHEN the model polls, twice
    THEN the snapshot says "Internal error of the receiver check" with the exception, has no link
         error and no live readings, and the log holds the traceback once, not once per poll
    """
    _live(harness)
    harness.fc.fc_parameters = BrokenDownload()  # type: ignore[assignment]

    with caplog.at_level(logging.ERROR):
        state = harness.model.poll()
        again = harness.model.poll()

    assert state.internal_error is not None
    assert state.internal_error.startswith("Internal error of the receiver check")
    assert "RuntimeError: the download is half written" in state.internal_error
    assert "not of the link" in state.internal_error
    assert state.link_error is None
    assert not state.has_live_telemetry
    assert again.internal_error == state.internal_error
    logged = [record for record in caplog.records if "Internal error" in record.getMessage()]
    assert len(logged) == 1
    assert logged[0].exc_info is not None
    assert logged[0].exc_info[0] is RuntimeError


def test_the_internal_error_clears_once_a_poll_succeeds_again(harness: ModelHarness) -> None:
    """
    GIVEN a poll that met an internal error
    WHEN the host's download is whole again and telemetry arrives
    THEN the next snapshot has no internal error and live readings again
    """
    _live(harness)
    harness.fc.fc_parameters = BrokenDownload()  # type: ignore[assignment]
    assert harness.model.poll().internal_error is not None

    harness.fc.fc_parameters = {}
    harness.vehicle.send_rc_channels([1600] * 5, rssi=50)
    state = harness.poll_after_sync()

    assert state.internal_error is None
    assert [channel.pwm for channel in state.channels] == [1600] * 5


def test_a_transport_fault_keeps_the_link_wording_and_is_no_internal_error(
    harness: ModelHarness, mocker: MockerFixture, caplog: pytest.LogCaptureFixture
) -> None:
    """
    GIVEN live telemetry
    WHEN reading the connection raises (a serial port that vanished)
    THEN the snapshot has the link error "Lost the connection to the flight controller", no
         internal error, and nothing is logged as a bug
    """
    _live(harness)
    assert harness.fc.master is not None
    mocker.patch.object(harness.fc.master, "recv_msg", side_effect=OSError("device disconnected"))

    with caplog.at_level(logging.ERROR):
        state = harness.model.poll()

    assert state.link_error == "Lost the connection to the flight controller: device disconnected"
    assert state.internal_error is None
    assert not [record for record in caplog.records if "Internal error" in record.getMessage()]


def test_a_failsafe_read_just_before_a_transport_fault_stays_as_evidence(
    harness: ModelHarness, mocker: MockerFixture
) -> None:
    """
    GIVEN live telemetry, then a SYS_STATUS that reports RC failsafe waiting on the connection
    WHEN the poll reads it and the very next read raises (a serial port that vanished)
    THEN the snapshot has the link error and no live readings, and the failsafe the poll read
         before the fault is recorded as observed
    """
    _live(harness)
    bit = RC_RECEIVER_SENSOR_BIT
    harness.send_backlog(sys_status(bit, bit, 0))
    master = harness.fc.master
    assert master is not None
    real_read = master.recv_msg
    reads: list[Any] = []

    def read_then_vanish() -> Any:
        # The vehicle's answers to what the check sent may come first: they are read as they come.
        if any(msg.get_type() == "SYS_STATUS" for msg in reads):
            raise OSError("device disconnected")
        msg = real_read()
        if msg is not None:
            reads.append(msg)
        return msg

    mocker.patch.object(master, "recv_msg", side_effect=read_then_vanish)

    state = harness.model.poll()

    statuses = [msg for msg in reads if msg.get_type() == "SYS_STATUS"]
    assert len(statuses) == 1
    assert not statuses[0].onboard_control_sensors_health & bit
    assert state.link_error == "Lost the connection to the flight controller: device disconnected"
    assert not state.has_live_telemetry
    assert state.failsafe_observed
    assert state.failsafe_observed_at is not None


def test_the_views_word_an_internal_error_and_a_closed_link_differently(harness: ModelHarness) -> None:
    """
    GIVEN one snapshot with an internal error and one of a link the flight controller closed
    WHEN the receiver view's notices and the terminal view's status line and events are built
    THEN the internal error is said to be the check's and not the link's, and the closed link is a
         link error, in both views
    """
    _live(harness)
    live = harness.model.state
    harness.fc.fc_parameters = BrokenDownload()  # type: ignore[assignment]
    internal = harness.model.poll()
    harness.fc.fc_parameters = {}
    assert harness.fc.master is not None
    harness.fc.master.close()
    closed = harness.model.poll()
    assert closed.link_error is not None
    assert closed.internal_error is None

    internal_notes, internal_problem = notice_lines(internal, None)
    closed_notes, closed_problem = notice_lines(closed, None)
    assert internal_problem
    assert closed_problem
    assert internal_notes[0] == internal.internal_error
    assert not [line for line in internal_notes if line.startswith("Link error")]
    assert [line for line in closed_notes if line.startswith("Link error")]
    assert not [line for line in closed_notes if "Internal error" in line]

    assert "internal error of the check (not the link)" in format_status_line(internal)
    assert "link error" in format_status_line(closed)
    assert "internal error" not in format_status_line(closed)
    assert internal.internal_error in describe_events(live, internal)
    assert any(event.startswith("Link error") for event in describe_events(live, closed))
