# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The stream requests of one activation: what is sent when, and how each outcome reads."""

from __future__ import annotations

import io

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.plugins.rc_receiver.commands import CommandManager, CommandOutcome, PendingCommand
from amc_rc_receiver.plugins.rc_receiver.readings import (
    MAV_CMD_SET_MESSAGE_INTERVAL,
    RC_CHANNELS_ID,
    REQUESTED_INTERVAL_US,
    SYS_STATUS_ID,
)
from amc_rc_receiver.plugins.rc_receiver.snapshot import IntervalRequestOutcome
from amc_rc_receiver.plugins.rc_receiver.streams import (
    MAX_REPEATED_REQUESTS,
    STREAMS_EXPECTED_WITHIN_S,
    StreamRequests,
    request_status,
)
from tests.support.clock import ManualClock

pytestmark = pytest.mark.pure


class RecordingLink:
    """A connection whose real MAVLink 2 encoder writes into memory instead of onto a wire."""

    def __init__(self) -> None:
        self.written = io.BytesIO()
        self.mav = mavlink2.MAVLink(self.written, srcSystem=255, srcComponent=190)

    def commands(self) -> list[tuple[int, int]]:
        parser = mavlink2.MAVLink(None)
        messages = parser.parse_buffer(self.written.getvalue()) or []
        return [(int(m.param1), int(m.param2)) for m in messages if m.command == MAV_CMD_SET_MESSAGE_INTERVAL]


# The vehicle every request here is addressed to: system 1, component 1.
TARGET = (1, 1)


def requests_to() -> tuple[StreamRequests, CommandManager, ManualClock]:
    clock = ManualClock(100.0)
    commands = CommandManager(clock=clock)

    return StreamRequests(commands), commands, clock


def accept_all(commands: CommandManager) -> None:
    for handle in commands.pending:
        ack = mavlink2.MAVLink_command_ack_message(handle.command, mavlink2.MAV_RESULT_ACCEPTED)
        ack.pack(mavlink2.MAVLink(None, srcSystem=handle.target_system, srcComponent=1))
        commands.handle_message(mavlink2.MAVLink(None).decode(ack.get_msgbuf()))


def test_before_any_request_both_streams_read_not_requested() -> None:
    """
    GIVEN stream requests of an activation that has not asked yet
    WHEN their statuses are read
    THEN RC_CHANNELS and SYS_STATUS are both "not requested" at 200000 µs
    """
    streams, _commands, _clock = requests_to()
    statuses = streams.statuses()
    assert [(s.message_name, s.message_id, s.interval_us, s.outcome) for s in statuses] == [
        ("RC_CHANNELS", RC_CHANNELS_ID, REQUESTED_INTERVAL_US, IntervalRequestOutcome.NOT_REQUESTED),
        ("SYS_STATUS", SYS_STATUS_ID, REQUESTED_INTERVAL_US, IntervalRequestOutcome.NOT_REQUESTED),
    ]


def test_both_streams_are_asked_once_per_connection_and_restored_on_it() -> None:
    """
    GIVEN a connection to vehicle 1
    WHEN asked twice on it, then restored on it
    THEN both streams are asked for at 5 Hz once, and then set back to the default (0)
    """
    streams, _commands, clock = requests_to()
    link = RecordingLink()
    streams.request_if_needed(link, TARGET, clock.now, [])
    streams.request_if_needed(link, TARGET, clock.now + 0.1, [])
    streams.restore(link, TARGET)

    assert link.commands() == [
        (RC_CHANNELS_ID, REQUESTED_INTERVAL_US),
        (SYS_STATUS_ID, REQUESTED_INTERVAL_US),
        (RC_CHANNELS_ID, 0),
        (SYS_STATUS_ID, 0),
    ]


def test_nothing_is_restored_on_a_connection_that_did_not_ask() -> None:
    """
    GIVEN requests made on one connection
    WHEN the host's connection is now another one and the defaults are restored
    THEN nothing is sent on either
    """
    streams, _commands, clock = requests_to()
    asked, other = RecordingLink(), RecordingLink()
    streams.request_if_needed(asked, TARGET, clock.now, [])
    streams.restore(other, TARGET)
    assert len(asked.commands()) == 2
    assert other.commands() == []


def test_accepted_streams_that_never_come_are_asked_again_a_bounded_number_of_times() -> None:
    """
    GIVEN both requests accepted and no RC_CHANNELS or SYS_STATUS ever read
    WHEN the streams are expected for longer and longer
    THEN they are asked again 3 times, and then no more
    """
    streams, commands, clock = requests_to()
    link = RecordingLink()
    for _round in range(MAX_REPEATED_REQUESTS + 3):
        streams.request_if_needed(link, TARGET, clock.now, [])
        accept_all(commands)
        clock.now += STREAMS_EXPECTED_WITHIN_S + 0.1
    assert len(link.commands()) == 2 * (1 + MAX_REPEATED_REQUESTS)


def test_unanswered_requests_followed_by_no_stream_are_asked_again_a_bounded_number_of_times() -> None:
    """
    GIVEN both requests sent while the vehicle reboots: never answered, and no stream comes
    WHEN the streams are expected for longer and longer
    THEN they are asked again 3 times, and then no more (a refusal would be final)
    """
    streams, commands, clock = requests_to()
    link = RecordingLink()
    for _round in range(MAX_REPEATED_REQUESTS + 3):
        streams.request_if_needed(link, TARGET, clock.now, [])
        clock.now += STREAMS_EXPECTED_WITHIN_S + 0.1
        commands.expire()
    assert {status.outcome for status in streams.statuses()} == {IntervalRequestOutcome.NO_ANSWER}
    assert len(link.commands()) == 2 * (1 + MAX_REPEATED_REQUESTS)


def test_streams_that_came_after_the_request_are_not_asked_again() -> None:
    """
    GIVEN both requests accepted and an RC_CHANNELS read after them
    WHEN long past the time the streams were expected
    THEN nothing is asked again
    """
    streams, commands, clock = requests_to()
    link = RecordingLink()
    streams.request_if_needed(link, TARGET, clock.now, [])
    accept_all(commands)
    clock.now += STREAMS_EXPECTED_WITHIN_S + 1.0
    streams.request_if_needed(link, TARGET, clock.now, [clock.now - 0.5])
    assert len(link.commands()) == 2


def test_streams_that_came_and_stopped_are_asked_again_once_per_silence() -> None:
    """
    GIVEN both requests accepted and both streams read for a while after them, on a link that
          stays up (a telemetry radio) while the vehicle reboots to its default rates
    WHEN neither stream has come for longer than they are expected within, and later they come
         again for a while and stop again
    THEN the streams are asked for again once after each silence (the reboot's new boot clock
         arrives with them), and not while they come
    """
    streams, commands, clock = requests_to()
    link = RecordingLink()
    streams.request_if_needed(link, TARGET, clock.now, [])
    accept_all(commands)
    for _silence in range(2):
        for _tick in range(20):  # the streams come for 4 s
            clock.now += 0.2
            streams.request_if_needed(link, TARGET, clock.now, [clock.now, clock.now - 0.1])
        stopped_at = clock.now
        asked = len(link.commands())
        while clock.now < stopped_at + STREAMS_EXPECTED_WITHIN_S - 0.05:
            clock.now += 0.1
            streams.request_if_needed(link, TARGET, clock.now, [stopped_at, stopped_at - 0.1])
        assert len(link.commands()) == asked
        clock.now += 0.1
        streams.request_if_needed(link, TARGET, clock.now, [stopped_at, stopped_at - 0.1])
        accept_all(commands)
        assert len(link.commands()) == asked + 2
    assert link.commands()[-2:] == [(65, 200_000), (1, 200_000)]


def test_without_a_known_vehicle_the_requests_are_not_sent_and_say_why() -> None:
    """
    GIVEN a connection whose vehicle's system id is unknown
    WHEN the streams are asked for
    THEN nothing is written and both requests read "send failed" with a reason
    """
    streams, _commands, clock = requests_to()
    link = RecordingLink()
    streams.request_if_needed(link, (None, 1), clock.now, [])
    assert link.commands() == []
    statuses = streams.statuses()
    assert {status.outcome for status in statuses} == {IntervalRequestOutcome.SEND_FAILED}
    assert all(status.reason for status in statuses)


def test_a_request_that_timed_out_reads_no_answer_with_a_reason() -> None:
    """
    GIVEN a SET_MESSAGE_INTERVAL for RC_CHANNELS that was never answered
    WHEN its status is read
    THEN it is "no answer", for RC_CHANNELS at 200000 µs, with a reason
    """
    command = PendingCommand(
        MAV_CMD_SET_MESSAGE_INTERVAL, (float(RC_CHANNELS_ID), float(REQUESTED_INTERVAL_US)), 1, 1, 0.0
    )
    command.outcome = CommandOutcome.TIMED_OUT
    status = request_status(command)
    assert (status.message_name, status.interval_us) == ("RC_CHANNELS", REQUESTED_INTERVAL_US)
    assert status.outcome is IntervalRequestOutcome.NO_ANSWER
    assert status.reason
