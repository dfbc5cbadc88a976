# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Lifecycle of the RC receiver data model: activate, deactivate, reconnect, and the guarantee that
nothing but SET_MESSAGE_INTERVAL ever reaches the vehicle, checked on the bytes it received."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.plugins.rc_receiver.firmware import VehicleFamily, wanted_parameters
from amc_rc_receiver.plugins.rc_receiver.parameter_reads import param_name
from amc_rc_receiver.plugins.rc_receiver.snapshot import (
    FailsafeStatus,
    IntervalRequestOutcome,
    RCReceiverState,
)
from tests.plugins.data_model_rc_receiver_harness import (
    ModelHarness,
    decode_all,
    rc_channels,
    sys_status,
    without_facade_hello,
)
from tests.support.scripted_fc import ScriptedFlightController
from tests.support.waiting import wait_for

pytestmark = pytest.mark.loopback

REQUEST = [(65, 200_000), (1, 200_000)]
RC_RECEIVER = mavlink2.MAV_SYS_STATUS_SENSOR_RC_RECEIVER
RESTORE = [(65, 0), (1, 0)]


@pytest.fixture
def harness() -> Iterator[ModelHarness]:
    with ModelHarness() as created:
        yield created


def all_answered(state: RCReceiverState) -> bool:
    return all(r.outcome is IntervalRequestOutcome.ACCEPTED for r in state.interval_requests)


def live_failsafe_test(harness: ModelHarness) -> RCReceiverState:
    """Channels, then an RC failsafe, as seen by an active model."""
    harness.vehicle.send_rc_channels([1500] * 5, rssi=80)
    harness.vehicle.send_sys_status(present=True, enabled=True, healthy=False)
    return harness.poll_after_sync()


def test_streams_are_requested_once_per_activation(harness: ModelHarness) -> None:
    """
    GIVEN an inactive model
    WHEN it polls, is activated (twice, as a view may do) and polls many times
    THEN no request goes out before activation and exactly one pair after it.
    """
    harness.poll_after_sync()
    assert harness.interval_commands() == []
    assert not harness.model.state.active

    harness.model.activate()
    harness.poll_until(all_answered, "the interval requests to be accepted")
    harness.model.activate()
    for _ in range(5):
        harness.poll_after_sync()

    assert harness.interval_commands() == REQUEST
    assert harness.model.state.active


def test_deactivate_restores_default_rates_drops_live_readings_and_keeps_evidence(
    harness: ModelHarness,
) -> None:
    """
    GIVEN an active model showing channels and a recorded failsafe
    WHEN it is deactivated
    THEN the vehicle gets interval 0 (firmware default) for both streams, nothing is live any more,
         and the failsafe evidence is kept.
    """
    harness.model.activate()
    harness.poll_until(all_answered, "the interval requests to be accepted")
    observed = live_failsafe_test(harness)
    assert observed.failsafe_observed
    assert observed.rc_channels_live

    harness.model.deactivate()
    state = harness.model.state

    wait_for(lambda: len(harness.interval_commands()) >= 4, "4 interval commands at the vehicle")
    assert harness.interval_commands() == REQUEST + RESTORE
    assert not state.active
    assert not state.has_live_telemetry
    assert [c.pwm for c in state.channels] == [None] * 5
    assert state.failsafe is FailsafeStatus.UNKNOWN
    assert state.failsafe_observed_at == observed.failsafe_observed_at


def test_reactivating_requests_the_streams_again_on_the_next_poll(harness: ModelHarness) -> None:
    """
    GIVEN a model that was activated, polled and deactivated
    WHEN it is activated again and polls
    THEN a new pair of 5 Hz requests goes out, and the earlier failsafe evidence is still there.
    """
    harness.model.activate()
    harness.poll_until(all_answered, "the first requests")
    live_failsafe_test(harness)
    harness.model.deactivate()

    harness.model.activate()
    assert len(harness.interval_commands()) <= 4  # nothing is sent before the next poll
    state = harness.poll_until(all_answered, "the second requests")

    wait_for(lambda: len(harness.interval_commands()) >= 6, "6 interval commands at the vehicle")
    assert harness.interval_commands() == REQUEST + RESTORE + REQUEST
    assert state.failsafe_observed


def test_deactivating_a_model_that_never_requested_sends_nothing(harness: ModelHarness) -> None:
    """
    GIVEN a model that was activated but never polled (so never asked for streams)
    WHEN it is deactivated
    THEN the vehicle receives no cleanup: the first commands it ever gets are the requests of the
         next activation.
    """
    harness.model.activate()
    harness.model.deactivate()

    harness.model.activate()  # its requests act as a barrier behind anything sent before
    harness.poll_until(all_answered, "the requests")
    wait_for(lambda: len(harness.interval_commands()) >= 2, "2 interval commands at the vehicle")
    assert harness.interval_commands() == REQUEST


def test_a_reconnect_never_receives_the_previous_connections_cleanup(harness: ModelHarness) -> None:
    """
    GIVEN an active model that requested streams from vehicle A
    WHEN the flight controller connects to vehicle B and the model is deactivated before polling B
    THEN vehicle B receives no cleanup command: the first commands B ever gets are the requests of
         the next activation, and vehicle A receives no cleanup either (its connection is gone).
    """
    harness.model.activate()
    harness.poll_until(all_answered, "vehicle A's requests")
    with ScriptedFlightController(system_id=1, component_id=1) as vehicle_b:
        harness.connect(vehicle_b)
        harness.model.deactivate()

        # A barrier: the next activation's requests reach B after anything sent before them.
        harness.model.activate()
        harness.poll_until(all_answered, "vehicle B's requests")
        wait_for(
            lambda: len(vehicle_b.commands_received(mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL)) >= 2,
            "2 commands at the vehicle",
        )

        assert [
            (int(p[0]), int(p[1]))
            for _, p in vehicle_b.commands_received(mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL)
        ] == REQUEST
    assert harness.interval_commands() == REQUEST


def test_a_reconnect_while_active_requests_streams_from_the_new_vehicle_only(harness: ModelHarness) -> None:
    """
    GIVEN an active model on vehicle A
    WHEN the flight controller connects to vehicle B and the model polls, then is deactivated
    THEN B gets its own request pair and its own cleanup, and A gets nothing more.
    """
    harness.model.activate()
    harness.poll_until(all_answered, "vehicle A's requests")
    with ScriptedFlightController(system_id=1, component_id=1) as vehicle_b:
        harness.connect(vehicle_b)
        state = harness.poll_until(all_answered, "vehicle B's requests")
        assert state.connection_generation == 2
        harness.model.deactivate()
        wait_for(
            lambda: len(vehicle_b.commands_received(mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL)) >= 4,
            "4 commands at the vehicle",
        )

        assert [
            (int(p[0]), int(p[1]))
            for _, p in vehicle_b.commands_received(mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL)
        ] == REQUEST + RESTORE
    assert harness.interval_commands() == REQUEST


def test_a_new_connection_starts_a_fresh_test(harness: ModelHarness) -> None:
    """
    GIVEN a failsafe recorded on the first connection
    WHEN the flight controller connects again (a new connection generation) 30 s later
    THEN the next snapshot has no evidence, no live readings, and a test start of now.
    """
    harness.model.activate()
    assert live_failsafe_test(harness).failsafe_observed
    harness.clock.advance(30.0)

    harness.connect(harness.vehicle)
    state = harness.model.poll()

    assert not state.failsafe_observed
    assert not state.recovery_observed
    assert not state.has_live_telemetry
    assert state.test_started_at == harness.clock.now
    assert state.connection_generation == 2


def test_the_check_sends_nothing_but_set_message_interval_and_parameter_reads(harness: ModelHarness) -> None:
    """
    GIVEN a whole check: activate, telemetry with failsafe and recovery, deactivate, reactivate,
          deactivate, with stale data and a reset in between
    WHEN every byte the vehicle received from us is decoded
    THEN the bytes are whole MAVLink messages, and they are only the GCS heartbeats, the
         facade's read of parameter 0 and request for AUTOPILOT_VERSION of connect, COMMAND_LONG
         MAV_CMD_SET_MESSAGE_INTERVAL for RC_CHANNELS or SYS_STATUS (asked again once after the
         streams stopped for 5 s), COMMAND_LONG MAV_CMD_RUN_PREARM_CHECKS (no parameters) at most
         twice per test, and PARAM_REQUEST_READ by name (index -1) of receiver parameters, all to
         the vehicle.
    """
    harness.model.activate()
    harness.poll_until(all_answered, "the requests")
    live_failsafe_test(harness)
    harness.vehicle.send_sys_status(present=True, enabled=True, healthy=True)
    harness.poll_after_sync()
    harness.clock.advance(5.0)
    harness.model.poll()
    harness.model.reset_test()
    harness.model.deactivate()
    harness.model.activate()
    harness.poll_until(all_answered, "the second requests")
    harness.model.deactivate()
    wait_for(lambda: len(harness.interval_commands()) >= 10, "10 interval commands at the vehicle")
    harness.poll_after_sync()
    # The streams stopped for 5 s after the failsafe test: asked for once more (a vehicle rebooted
    # behind a link that stayed up would send them no more).
    assert harness.interval_commands() == REQUEST + REQUEST + RESTORE + REQUEST + RESTORE

    data = harness.vehicle.received_bytes()
    messages = harness.gcs_messages()

    assert sum(len(m.get_msgbuf()) for m in messages) == len(data)
    kinds = {m.get_type() for m in messages}
    assert kinds <= {"HEARTBEAT", "COMMAND_LONG", "PARAM_REQUEST_READ"}
    receiver_parameters = set(wanted_parameters(VehicleFamily.COPTER, {"RCMAP_THROTTLE": 3.0}))
    prearm: list[Any] = []
    for message in without_facade_hello(messages):
        assert (message.get_srcSystem(), message.get_srcComponent()) == (255, 190)
        if message.get_type() == "HEARTBEAT":
            assert message.type == mavlink2.MAV_TYPE_GCS
        elif message.get_type() == "PARAM_REQUEST_READ":
            assert message.param_index == -1
            assert param_name(message.param_id) in receiver_parameters
            assert (message.target_system, message.target_component) == (1, 1)
        elif message.command == mavlink2.MAV_CMD_RUN_PREARM_CHECKS:
            prearm.append(message)
            assert (message.target_system, message.target_component) == (1, 1)
            assert (message.param1, message.param7) == (0, 0)
        else:
            assert message.command == mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL
            assert int(message.param1) in (65, 1)
            assert (message.target_system, message.target_component) == (1, 1)
    # at most once the parameters were read and once after the test, in each of the two tests
    assert len(prearm) <= 4


def test_interval_requests_go_to_the_discovered_system_and_component() -> None:
    """
    GIVEN a vehicle discovered as system 42, component 3
    WHEN the model is activated and polled until the vehicle answers
    THEN both COMMAND_LONGs target 42/3 (not component 0, as the methodic configurator 5.0.1's own
         plugin sends), are MAVLink 2, and the vehicle's ACKs complete them
    """
    with ModelHarness(system_id=42, component_id=3) as harness:
        harness.model.activate()
        harness.poll_until(all_answered, "the interval requests to be accepted")
        commands = [m for m in harness.plugin_messages() if m.get_type() == "COMMAND_LONG"]

    assert [(c.target_system, c.target_component) for c in commands] == [(42, 3), (42, 3)]
    assert all(c.get_msgbuf()[0] == 0xFD for c in commands)


@pytest.mark.parametrize("connection_recovery", [False, True])
def test_a_suspended_model_reads_nothing_and_drops_what_queued_meanwhile(
    harness: ModelHarness, connection_recovery: bool
) -> None:
    """
    GIVEN an active model showing live channels and a failsafe observed during the test
    WHEN it is suspended, the vehicle meanwhile sends other channel values and a second failsafe,
         and the model is resumed
    THEN nothing is read while suspended, the queued messages are dropped instead of being shown
         as live, the test's evidence is kept, and fresh telemetry after the backlog shows again
    """
    harness.model.activate()
    harness.poll_until(all_answered, "the requests")
    live_failsafe_test(harness)
    harness.vehicle.send_sys_status(present=True, enabled=True, healthy=True)
    before = harness.poll_after_sync()
    assert before.failsafe_observed
    assert before.recovery_observed

    harness.model.suspend(connection_recovery=connection_recovery)
    harness.send_backlog(rc_channels((1900,) * 5, rssi=10), sys_status(RC_RECEIVER, RC_RECEIVER, 0))
    suspended = harness.model.poll()
    assert harness.model.messages_read_last_poll == 0
    assert suspended.recovery_observed

    harness.model.resume()
    after_resume = harness.poll_after_sync()
    assert not after_resume.rc_channels_live
    assert after_resume.failsafe is FailsafeStatus.UNKNOWN
    assert after_resume.failsafe_observed_at == before.failsafe_observed_at
    assert after_resume.recovery_observed

    harness.vehicle.send_rc_channels([1200] * 5, rssi=90)
    fresh = harness.poll_until(lambda s: s.rc_channels_live, "fresh channels after the backlog")
    assert [c.pwm for c in fresh.channels] == [1200] * 5


def test_during_a_connection_recovery_the_model_sends_nothing_not_even_on_deactivation(
    harness: ModelHarness,
) -> None:
    """
    GIVEN an active model whose streams were requested
    WHEN the host suspends it for a connection recovery and then deactivates it (the step closes
         while the link is being recovered), and later the step opens again
    THEN no command left the plugin in between: no interval restore on a link in recovery, only
         the new activation's requests
    """
    harness.model.activate()
    harness.poll_until(all_answered, "the requests")
    harness.poll_after_sync()
    sent_before = len(harness.vehicle.received_bytes())

    harness.model.suspend(connection_recovery=True)
    harness.model.poll()
    harness.model.deactivate()
    # a later request on the same link is the barrier: whatever was sent before it has arrived
    harness.model.activate()
    harness.model.poll()
    wait_for(lambda: len(harness.interval_commands()) >= 4, "4 interval commands at the vehicle")

    received = decode_all(harness.vehicle.received_bytes()[sent_before:])
    # Parameter reads go out again with the new activation; they are tested on their own.
    after = [m for m in received if m.get_type() == "COMMAND_LONG"]
    assert [(int(m.param1), int(m.param2)) for m in after] == REQUEST
    assert harness.interval_commands() == REQUEST + REQUEST


def test_after_a_connection_recovery_the_streams_are_asked_for_again(harness: ModelHarness) -> None:
    """
    GIVEN an active model whose streams were requested
    WHEN the host suspends it for a connection recovery and resumes it (the vehicle may have
         rebooted to its default rates)
    THEN the next poll asks for both streams again, on the same connection
    """
    harness.model.activate()
    harness.poll_until(all_answered, "the requests")

    harness.model.suspend(connection_recovery=True)
    harness.model.resume()
    harness.model.poll()

    wait_for(lambda: len(harness.interval_commands()) >= 4, "4 interval commands at the vehicle")
    assert harness.interval_commands() == REQUEST + REQUEST


def test_a_deactivation_right_after_a_recovery_still_restores_the_defaults(harness: ModelHarness) -> None:
    """
    GIVEN an active model whose streams were requested, paused for a connection recovery that
          kept the same link, and resumed
    WHEN it is deactivated before it polls again
    THEN the default intervals are restored on that link (the vehicle does not stay at 5 Hz)
    """
    harness.model.activate()
    harness.poll_until(all_answered, "the requests")

    harness.model.suspend(connection_recovery=True)
    harness.model.resume()
    harness.model.deactivate()

    wait_for(lambda: len(harness.interval_commands()) >= 4, "4 interval commands at the vehicle")
    assert harness.interval_commands() == REQUEST + RESTORE


def test_after_deactivation_no_rate_or_request_outcome_of_the_old_streams_is_shown(
    harness: ModelHarness,
) -> None:
    """
    GIVEN an active model with accepted requests and streams measured at their rate
    WHEN it is deactivated (the user disconnects or leaves the step)
    THEN the snapshot shows no rate and no request outcome any more, as the streams were handed
         back to the firmware's default
    """
    harness.model.activate()
    harness.poll_until(all_answered, "the requests")
    for _ in range(5):
        harness.clock.advance(0.2)
        harness.vehicle.send_rc_channels([1500] * 5)
        harness.vehicle.send_sys_status(present=True, enabled=True, healthy=True)
        harness.poll_after_sync()
    assert harness.model.state.rc_channels_rate_hz > 0

    harness.model.deactivate()
    state = harness.model.state  # what a view shows after deactivation: it polls no more

    assert state.rc_channels_rate_hz == 0.0
    assert state.sys_status_rate_hz == 0.0
    assert [r.outcome for r in state.interval_requests] == [IntervalRequestOutcome.NOT_REQUESTED] * 2


def test_right_after_a_resume_the_rates_do_not_count_what_queued_meanwhile(harness: ModelHarness) -> None:
    """
    GIVEN an active model, suspended while the vehicle sent 60 RC_CHANNELS (a file dialog)
    WHEN it resumes and polls
    THEN the dropped backlog does not show up as a burst in the measured rate
    """
    harness.model.activate()
    harness.poll_until(all_answered, "the requests")
    harness.model.suspend()
    harness.send_backlog(*[rc_channels((1500,) * 5) for _ in range(60)])

    harness.model.resume()
    state = harness.poll_after_sync()

    assert state.rc_channels_rate_hz == 0.0


def test_accepted_streams_that_never_come_are_asked_for_again_a_bounded_number_of_times(
    harness: ModelHarness,
) -> None:
    """
    GIVEN a vehicle that accepts both stream requests and then sends neither stream (ArduPilot
          SITL does this with requests made while it is still booting)
    WHEN the model keeps polling for 30 s
    THEN it asks for both streams again every 3 s, three more times at most, and then waits
    """
    harness.model.activate()
    harness.poll_until(all_answered, "the requests")
    for _ in range(150):
        harness.clock.advance(0.2)
        harness.poll_until(lambda _s: True, "a poll")
        harness.poll_until(all_answered, "answers to any repeated requests")

    harness.poll_after_sync()
    assert harness.interval_commands() == REQUEST * 4


def test_streams_that_arrive_are_not_asked_for_again(harness: ModelHarness) -> None:
    """
    GIVEN accepted stream requests and a vehicle that sends its streams
    WHEN the model keeps polling for 10 s
    THEN nothing is asked for again
    """
    harness.model.activate()
    harness.poll_until(all_answered, "the requests")
    for _ in range(50):
        harness.clock.advance(0.2)
        harness.vehicle.send_rc_channels([1500] * 5)
        harness.vehicle.send_sys_status(present=True, enabled=True, healthy=True)
        harness.poll_after_sync()

    assert harness.interval_commands() == REQUEST
