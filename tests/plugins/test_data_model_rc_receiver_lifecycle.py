# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Lifecycle of the RC receiver data model: activate, deactivate, reconnect, and the guarantee that
nothing but SET_MESSAGE_INTERVAL ever reaches the vehicle, checked on the bytes it received."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.plugins.data_model_rc_receiver import (
    FailsafeStatus,
    IntervalRequestOutcome,
    RCReceiverState,
)
from tests.plugins.data_model_rc_receiver_harness import ModelHarness
from tests.support.scripted_fc import ScriptedFlightController

REQUEST = [(65, 200_000), (1, 200_000)]
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

    assert harness.vehicle.wait_for(lambda: len(harness.interval_commands()) >= 4)
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

    assert harness.vehicle.wait_for(lambda: len(harness.interval_commands()) >= 6)
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
    assert harness.vehicle.wait_for(lambda: len(harness.interval_commands()) >= 2)
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
        assert vehicle_b.wait_for(lambda: len(vehicle_b.commands_received()) >= 2)

        assert [(int(p[0]), int(p[1])) for _, p in vehicle_b.commands_received()] == REQUEST
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
        assert vehicle_b.wait_for(lambda: len(vehicle_b.commands_received()) >= 4)

        assert [(int(p[0]), int(p[1])) for _, p in vehicle_b.commands_received()] == REQUEST + RESTORE
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


def test_the_check_sends_nothing_but_set_message_interval(harness: ModelHarness) -> None:
    """
    GIVEN a whole check: activate, telemetry with failsafe and recovery, deactivate, reactivate,
          deactivate, with stale data and a reset in between
    WHEN every byte the vehicle received from us is decoded
    THEN the bytes are whole MAVLink messages, and they are only the GCS heartbeats of connect and
         COMMAND_LONG MAV_CMD_SET_MESSAGE_INTERVAL for RC_CHANNELS or SYS_STATUS.
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
    assert harness.vehicle.wait_for(lambda: len(harness.interval_commands()) >= 8)
    harness.poll_after_sync()
    assert harness.interval_commands() == REQUEST + RESTORE + REQUEST + RESTORE

    data = harness.vehicle.received_bytes()
    messages = harness.gcs_messages()

    assert sum(len(m.get_msgbuf()) for m in messages) == len(data)
    kinds = {m.get_type() for m in messages}
    assert kinds <= {"HEARTBEAT", "COMMAND_LONG"}
    for message in messages:
        assert (message.get_srcSystem(), message.get_srcComponent()) == (255, 190)
        if message.get_type() == "HEARTBEAT":
            assert message.type == mavlink2.MAV_TYPE_GCS
        else:
            assert message.command == mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL
            assert int(message.param1) in (65, 1)
            assert (message.target_system, message.target_component) == (1, 1)
    assert len([m for m in messages if m.get_type() == "COMMAND_LONG"]) == 8
