# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Behaviour of the RC receiver data model: channels, RSSI, source filtering, bounded polling, rates
and interval requests, driven by real MAVLink 2 messages from a scripted vehicle over loopback UDP."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.plugins.rc_receiver.link_reader import MAX_MESSAGES_PER_POLL
from amc_rc_receiver.plugins.rc_receiver.snapshot import (
    ChannelReading,
    FailsafeStatus,
    IntervalRequestOutcome,
    RCReceiverState,
)
from tests.plugins.data_model_rc_receiver_harness import ModelHarness, encode, rc_channels
from tests.support.scripted_fc import AckPolicy
from tests.support.waiting import wait_for

pytestmark = pytest.mark.loopback


@pytest.fixture
def harness() -> Iterator[ModelHarness]:
    with ModelHarness() as created:
        yield created


def pwm_values(state: RCReceiverState) -> list[int | None]:
    return [channel.pwm for channel in state.channels]


# ---- channels ------------------------------------------------------------------------------------


def test_first_five_channels_are_shown_exactly_as_reported(harness: ModelHarness) -> None:
    """
    GIVEN a vehicle reporting eight channels, CH1..CH5 partly outside the 800-2200 µs bar range
    WHEN the model polls
    THEN CH1..CH5 carry the exact reported values, unclamped, with their channel numbers.
    """
    harness.vehicle.send_rc_channels([799, 1234, 1500, 2201, 1999, 1111], chancount=8)

    state = harness.poll_after_sync()

    assert state.channels == (
        ChannelReading(1, 799),
        ChannelReading(2, 1234),
        ChannelReading(3, 1500),
        ChannelReading(4, 2201),
        ChannelReading(5, 1999),
    )
    assert state.chancount == 8
    assert state.rc_channels_live


@pytest.mark.parametrize("chancount", [0, 1, 3, 4, 5, 6])
def test_a_channel_exists_only_up_to_chancount(harness: ModelHarness, chancount: int) -> None:
    """
    GIVEN RC_CHANNELS with real values on every channel but a chancount below, at or above five
    WHEN the model polls
    THEN channel n shows its value if and only if n <= chancount; the others are unavailable.
    """
    harness.vehicle.send_rc_channels([1101, 1102, 1103, 1104, 1105, 1106], chancount=chancount)

    state = harness.poll_after_sync()

    expected = [value if number <= chancount else None for number, value in enumerate(range(1101, 1106), 1)]
    assert pwm_values(state) == expected
    assert state.chancount == chancount


def test_pwm_0_and_65535_are_unavailable_while_neighbours_stay_valid(harness: ModelHarness) -> None:
    """
    GIVEN a vehicle reporting CH2 as 0 (unused) and CH4 as 65535 (unavailable)
    WHEN the model polls
    THEN those two channels have no value and CH1, CH3 and CH5 keep theirs.
    """
    harness.vehicle.send_rc_channels([1100, 0, 1300, 65535, 1500], chancount=8)

    state = harness.poll_after_sync()

    assert pwm_values(state) == [1100, None, 1300, None, 1500]


def test_the_latest_rc_channels_of_a_poll_wins(harness: ModelHarness) -> None:
    """
    GIVEN three RC_CHANNELS queued before a poll
    WHEN the model reads them in one poll
    THEN the snapshot shows the last one.
    """
    for first in (1100, 1200, 1300):
        harness.vehicle.send_rc_channels([first, 1500, 1500, 1500, 1500])

    state = harness.poll_after_sync()

    assert state.channels[0].pwm == 1300


# ---- RSSI ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("rssi", [0, 1, 128, 254])
def test_rssi_0_to_254_is_kept_as_reported(harness: ModelHarness, rssi: int) -> None:
    """
    GIVEN RC_CHANNELS with an RSSI between 0 and 254 (0 is a real "no signal" reading)
    WHEN the model polls
    THEN the RSSI is that number.
    """
    harness.vehicle.send_rc_channels([1500] * 5, rssi=rssi)

    assert harness.poll_after_sync().rssi == rssi


def test_rssi_255_is_shown_as_unavailable(harness: ModelHarness) -> None:
    """
    GIVEN RC_CHANNELS with RSSI 255 (ArduPilot's "unknown", RSSI_TYPE 0)
    WHEN the model polls
    THEN RSSI is unavailable, while the channels are still shown.
    """
    harness.vehicle.send_rc_channels([1500] * 5, rssi=255)

    state = harness.poll_after_sync()

    assert state.rssi is None
    assert pwm_values(state) == [1500] * 5


# ---- source filtering ----------------------------------------------------------------------------


def test_telemetry_from_a_foreign_system_is_ignored(harness: ModelHarness) -> None:
    """
    GIVEN a second vehicle (system 2) reporting channels and an RC failsafe on the same link
    WHEN the model polls
    THEN nothing of it reaches the snapshot: no channels, unknown failsafe, no failsafe evidence.
    """
    harness.vehicle.send_rc_channels([1900] * 5, system_id=2)
    harness.vehicle.send_sys_status(present=True, enabled=True, healthy=False, system_id=2)

    state = harness.poll_after_sync()

    assert pwm_values(state) == [None] * 5
    assert state.failsafe is FailsafeStatus.UNKNOWN
    assert not state.failsafe_observed


def test_telemetry_from_another_component_of_the_selected_system_is_ignored(harness: ModelHarness) -> None:
    """
    GIVEN the selected flight controller is component 1 and component 42 of the same system
          also reports RC_CHANNELS and an unhealthy receiver
    WHEN the model polls
    THEN only component 1's telemetry is used.
    """
    harness.vehicle.send_rc_channels([1100] * 5)
    harness.vehicle.send_sys_status(present=True, enabled=True, healthy=True)
    harness.vehicle.send_rc_channels([1900] * 5, component_id=42)
    harness.vehicle.send_sys_status(present=True, enabled=True, healthy=False, component_id=42)

    state = harness.poll_after_sync()

    assert pwm_values(state) == [1100] * 5
    assert state.failsafe is FailsafeStatus.NOT_ACTIVE
    assert not state.failsafe_observed


def test_component_0_accepts_every_component_of_the_selected_system() -> None:
    """
    GIVEN a flight controller discovered as component 0 of system 1
    WHEN component 42 of system 1 reports channels and a system 3 vehicle reports too
    THEN component 42's channels are shown and system 3's are not.
    """
    with ModelHarness(system_id=1, component_id=0) as harness:
        assert harness.fc.info.component_id == "0"
        harness.vehicle.send_rc_channels([1400] * 5, component_id=42)
        harness.vehicle.send_rc_channels([1900] * 5, system_id=3, component_id=42)

        state = harness.poll_after_sync()

    assert pwm_values(state) == [1400] * 5


# ---- bounded polling -----------------------------------------------------------------------------


def _unrelated_traffic(count: int) -> bytes:
    """``count`` MAVLink 2 messages that are not receiver telemetry of system 1, plus garbage."""
    messages = [
        (mavlink2.MAVLink_attitude_message(0, 0.1, 0.2, 0.3, 0, 0, 0), 1, 1),
        (mavlink2.MAVLink_heartbeat_message(2, 3, 0, 0, 4, 3), 7, 1),
        (mavlink2.MAVLink_statustext_message(6, b"unrelated"), 1, 1),
        (rc_channels((1900,) * 5), 9, 1),  # receiver telemetry, but from a foreign system
    ]
    return b"".join(encode(*messages[index % len(messages)], seq=index) for index in range(count))


def test_each_poll_reads_at_most_50_messages_and_reports_the_backlog(harness: ModelHarness) -> None:
    """
    GIVEN 120 unrelated messages and a few garbage bytes queued in one datagram before an RC_CHANNELS
    WHEN the model polls repeatedly
    THEN each poll reads at most 50 messages, the first two report a backlog,
         and the RC_CHANNELS is shown within a few polls without losing it.
    """
    harness.sync()
    burst = _unrelated_traffic(60) + b"\x00\x01\x02" + _unrelated_traffic(60)
    burst += encode(rc_channels((1234, 1500, 1500, 1500, 1500)), 1, 1)
    harness.vehicle.send_raw(burst)

    first = harness.poll_until(lambda state: harness.model.messages_read_last_poll > 0, "the burst")
    assert harness.model.messages_read_last_poll == MAX_MESSAGES_PER_POLL
    assert first.backlog
    assert first.channels[0].pwm is None
    second = harness.model.poll()
    assert harness.model.messages_read_last_poll == MAX_MESSAGES_PER_POLL
    assert second.backlog

    polls = 2
    state = second
    while state.channels[0].pwm is None and polls < 6:
        state = harness.model.poll()
        polls += 1
        assert harness.model.messages_read_last_poll <= MAX_MESSAGES_PER_POLL

    assert state.channels[0].pwm == 1234
    assert polls <= 4
    assert not state.backlog


def test_messages_sent_one_datagram_each_are_read_in_bounded_polls(harness: ModelHarness) -> None:
    """
    GIVEN 120 unrelated messages, each in its own datagram, sent before an RC_CHANNELS
    WHEN the model polls until the channels appear
    THEN no poll reads more than 50 messages, a backlog is reported while they wait,
         and every message is read exactly once (none lost to the backlog check).
    """
    harness.sync()
    for index in range(120):
        harness.vehicle.send(mavlink2.MAVLink_attitude_message(index, 0, 0, 0, 0, 0, 0))
    harness.vehicle.send_rc_channels([1357, 1500, 1500, 1500, 1500])

    reads: list[int] = []
    backlogs: list[bool] = []

    def shown(state: RCReceiverState) -> bool:
        reads.append(harness.model.messages_read_last_poll)
        backlogs.append(state.backlog)
        return state.channels[0].pwm == 1357

    harness.poll_until(shown, "the RC_CHANNELS after the burst")

    assert max(reads) <= MAX_MESSAGES_PER_POLL
    assert any(backlogs)
    # 121 scripted messages, plus possibly a periodic heartbeat from the vehicle meanwhile.
    assert 121 <= sum(reads) <= 124


# ---- rates ---------------------------------------------------------------------------------------


def test_stream_rates_are_measured_over_a_sliding_window_of_the_injected_clock(harness: ModelHarness) -> None:
    """
    GIVEN RC_CHANNELS and SYS_STATUS arriving every 0.2 s of the model's clock for 3 s
    WHEN the model polls after each arrival
    THEN both rates read 5 Hz, and they fall to 0 Hz once 2 s pass without messages.
    """
    state = harness.model.poll()
    for _ in range(15):
        harness.vehicle.send_rc_channels([1500] * 5)
        harness.vehicle.send_sys_status(present=True, enabled=True, healthy=True)
        state = harness.poll_after_sync()
        harness.clock.advance(0.2)

    assert state.rc_channels_rate_hz == pytest.approx(5.0, abs=0.5)
    assert state.sys_status_rate_hz == pytest.approx(5.0, abs=0.5)

    harness.clock.advance(2.0)
    quiet = harness.model.poll()
    assert quiet.rc_channels_rate_hz == 0.0
    assert quiet.sys_status_rate_hz == 0.0


# ---- interval requests ---------------------------------------------------------------------------


def test_first_poll_after_activate_requests_both_streams_at_5_hz(harness: ModelHarness) -> None:
    """
    GIVEN an activated model and a vehicle that accepts interval requests
    WHEN the model polls several times
    THEN exactly one SET_MESSAGE_INTERVAL of 200000 µs went out for RC_CHANNELS and one for
         SYS_STATUS, and both are shown as accepted.
    """
    harness.model.activate()
    before = harness.model.state.interval_requests
    assert [r.outcome for r in before] == [IntervalRequestOutcome.NOT_REQUESTED] * 2

    harness.poll_until(
        lambda state: all(r.outcome is IntervalRequestOutcome.ACCEPTED for r in state.interval_requests),
        "both requests accepted",
    )
    state = harness.poll_after_sync()

    assert harness.interval_commands() == [(65, 200_000), (1, 200_000)]
    assert [(r.message_name, r.message_id, r.interval_us) for r in state.interval_requests] == [
        ("RC_CHANNELS", 65, 200_000),
        ("SYS_STATUS", 1, 200_000),
    ]


@pytest.mark.parametrize(
    ("policy", "reason"),
    [(AckPolicy.DENY, "MAV_RESULT_DENIED"), (AckPolicy.UNSUPPORTED, "MAV_RESULT_UNSUPPORTED")],
)
def test_a_rejected_request_shows_its_reason_and_telemetry_stays_usable(
    harness: ModelHarness, policy: AckPolicy, reason: str
) -> None:
    """
    GIVEN a vehicle that rejects the RC_CHANNELS interval request but accepts SYS_STATUS
    WHEN the model is activated and RC_CHANNELS still arrive (e.g. at the default rate)
    THEN the RC_CHANNELS request is rejected with the MAV_RESULT name, SYS_STATUS is accepted,
         and the channels are shown.
    """
    harness.vehicle.ack_policy = {65: policy, 1: AckPolicy.ACCEPT}
    harness.model.activate()

    state = harness.poll_until(
        lambda s: all(r.outcome is not IntervalRequestOutcome.PENDING for r in s.interval_requests),
        "both answers",
    )
    rc_request, status_request = state.interval_requests
    assert rc_request.outcome is IntervalRequestOutcome.REJECTED
    assert rc_request.reason == reason
    assert status_request.outcome is IntervalRequestOutcome.ACCEPTED

    harness.vehicle.send_rc_channels([1600] * 5)
    assert pwm_values(harness.poll_after_sync()) == [1600] * 5


def test_an_unanswered_request_never_blocks_and_becomes_no_answer_after_0_8_s(harness: ModelHarness) -> None:
    """
    GIVEN a vehicle that stays silent to interval requests
    WHEN the model polls at once, after 0.79 s and just after 0.8 s of its clock
    THEN each poll returns with the requests pending until 0.8 s, then shows "no answer",
         while telemetry keeps flowing into the snapshot.
    """
    harness.vehicle.ack_policy = AckPolicy.SILENT
    harness.model.activate()

    first = harness.model.poll()
    assert [r.outcome for r in first.interval_requests] == [IntervalRequestOutcome.PENDING] * 2
    wait_for(lambda: len(harness.interval_commands()) >= 2, "2 interval commands at the vehicle")
    harness.vehicle.send_rc_channels([1700] * 5)
    assert harness.poll_after_sync().interval_requests[0].outcome is IntervalRequestOutcome.PENDING

    harness.clock.advance(0.79)
    assert [r.outcome for r in harness.model.poll().interval_requests] == [IntervalRequestOutcome.PENDING] * 2

    harness.clock.advance(0.011)  # 0.8 s is not exact in binary floating point; just past it
    late = harness.model.poll()
    assert [r.outcome for r in late.interval_requests] == [IntervalRequestOutcome.NO_ANSWER] * 2
    assert all(r.reason for r in late.interval_requests)
    assert pwm_values(late) == [1700] * 5


def test_activating_without_a_connection_requests_nothing_and_reports_a_link_error() -> None:
    """
    GIVEN a model whose flight controller was disconnected
    WHEN it is activated and polled
    THEN nothing is requested (there is nothing to send on), the link error says there is no
         connection, and nothing raises.
    """
    with ModelHarness() as harness:
        harness.fc.disconnect()
        harness.model.activate()
        state = harness.model.poll()

    assert [r.outcome for r in state.interval_requests] == [IntervalRequestOutcome.NOT_REQUESTED] * 2
    assert state.link_error
    assert not state.connected


def test_a_second_vehicle_on_the_link_cannot_answer_for_the_selected_one() -> None:
    """
    GIVEN a silent selected vehicle and a foreign system that sends an ACCEPTED COMMAND_ACK
    WHEN the model polls
    THEN the requests stay pending: only the selected flight controller can accept them.
    """
    with ModelHarness() as harness:
        harness.vehicle.ack_policy = AckPolicy.SILENT
        harness.model.activate()
        harness.model.poll()
        harness.vehicle.send_command_ack(511, mavlink2.MAV_RESULT_ACCEPTED, system_id=5)

        state = harness.poll_after_sync()

    assert [r.outcome for r in state.interval_requests] == [IntervalRequestOutcome.PENDING] * 2


@pytest.mark.pure  # no socket: the rest of this file needs loopback
def test_a_model_over_a_never_connected_flight_controller_reports_no_connection() -> None:
    """
    GIVEN a FlightController that never connected
    WHEN a model over it polls
    THEN the poll returns a snapshot saying there is no connection, with nothing live.
    """
    from amc_rc_receiver.backend_flightcontroller import FlightController
    from amc_rc_receiver.plugins.data_model_rc_receiver import RCReceiverDataModel

    model = RCReceiverDataModel(FlightController(), clock=lambda: 5.0)
    model.activate()
    state = model.poll()

    assert not state.connected
    assert state.link_error
    assert not state.has_live_telemetry
    assert state.test_started_at == 5.0
