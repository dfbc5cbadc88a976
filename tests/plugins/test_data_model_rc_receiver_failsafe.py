# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Behaviour of the RC receiver data model around RC failsafe, freshness and link errors, driven
by real MAVLink 2 SYS_STATUS / RC_CHANNELS from a scripted vehicle over loopback UDP."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import serial
from pymavlink.dialects.v20 import ardupilotmega as mavlink2
from pytest_mock import MockerFixture

from amc_rc_receiver.plugins.rc_receiver.snapshot import STALE_AFTER_S, FailsafeStatus, RCReceiverState
from tests.plugins.data_model_rc_receiver_harness import ModelHarness, rc_channels, sys_status

pytestmark = pytest.mark.loopback

RC_BIT = 0x10000

COMPASS = 0x04
GPS = 0x20
BATTERY = 0x2000000


@pytest.fixture
def harness() -> Iterator[ModelHarness]:
    with ModelHarness() as created:
        yield created


def receiver_status(harness: ModelHarness, *, present: bool, enabled: bool, healthy: bool) -> RCReceiverState:
    harness.vehicle.send_sys_status(present=present, enabled=enabled, healthy=healthy)
    return harness.poll_after_sync()


# ---- receiver status bits ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("present", "enabled", "healthy", "expected"),
    [
        (True, True, False, FailsafeStatus.ACTIVE),
        (True, True, True, FailsafeStatus.NOT_ACTIVE),
        (True, False, False, FailsafeStatus.UNKNOWN),
        (True, False, True, FailsafeStatus.UNKNOWN),
        (False, True, False, FailsafeStatus.UNKNOWN),
        (False, True, True, FailsafeStatus.UNKNOWN),
        (False, False, False, FailsafeStatus.UNKNOWN),
        (False, False, True, FailsafeStatus.UNKNOWN),
    ],
)
def test_only_a_present_and_enabled_receiver_health_bit_decides_failsafe(
    harness: ModelHarness, present: bool, enabled: bool, healthy: bool, expected: FailsafeStatus
) -> None:
    """
    GIVEN a SYS_STATUS with one of the eight present/enabled/health combinations of the RC receiver bit
    WHEN the model polls
    THEN failsafe is ACTIVE only for present+enabled+unhealthy, NOT_ACTIVE for present+enabled+healthy,
         UNKNOWN otherwise; presence and enablement mirror their bits; evidence only for ACTIVE.
    """
    state = receiver_status(harness, present=present, enabled=enabled, healthy=healthy)

    assert state.failsafe is expected
    assert state.receiver_present is present
    assert state.receiver_enabled is enabled
    assert state.failsafe_observed is (expected is FailsafeStatus.ACTIVE)
    assert state.sys_status_live


def test_receiver_presence_is_unknown_without_sys_status(harness: ModelHarness) -> None:
    """
    GIVEN a vehicle that reports channels but no SYS_STATUS
    WHEN the model polls
    THEN receiver presence is unknown (None), not "absent", and failsafe is unknown.
    """
    harness.vehicle.send_rc_channels([1500] * 5)

    state = harness.poll_after_sync()

    assert state.receiver_present is None
    assert state.receiver_enabled is None
    assert state.failsafe is FailsafeStatus.UNKNOWN
    assert not state.sys_status_live


@pytest.mark.parametrize("failing", [COMPASS, GPS, BATTERY, COMPASS | GPS | BATTERY])
def test_other_failing_sensors_never_mean_rc_failsafe(harness: ModelHarness, failing: int) -> None:
    """
    GIVEN a healthy receiver while other sensors (compass, GPS, battery) are present, enabled, unhealthy
    WHEN the model polls
    THEN failsafe is NOT_ACTIVE and no failsafe is recorded.
    """
    harness.vehicle.send_sys_status(present=True, enabled=True, healthy=True, other_failing=failing)

    state = harness.poll_after_sync()

    assert state.failsafe is FailsafeStatus.NOT_ACTIVE
    assert not state.failsafe_observed


def test_other_failing_sensors_without_a_receiver_leave_failsafe_unknown(harness: ModelHarness) -> None:
    """
    GIVEN a SYS_STATUS without the receiver bits but with every other sensor failing
    WHEN the model polls
    THEN failsafe is UNKNOWN and nothing is recorded.
    """
    harness.vehicle.send_sys_status(present=False, enabled=False, healthy=False, other_failing=0xFFFEFFFF)

    state = harness.poll_after_sync()

    assert state.failsafe is FailsafeStatus.UNKNOWN
    assert not state.failsafe_observed


@pytest.mark.parametrize("system_status", [mavlink2.MAV_STATE_CRITICAL, mavlink2.MAV_STATE_EMERGENCY])
def test_an_alarming_heartbeat_never_implies_rc_failsafe(harness: ModelHarness, system_status: int) -> None:
    """
    GIVEN the selected flight controller's HEARTBEAT says CRITICAL or EMERGENCY
    WHEN the model polls
    THEN failsafe stays UNKNOWN (no SYS_STATUS) and no failsafe is recorded.
    """
    heartbeat = mavlink2.MAVLink_heartbeat_message(
        mavlink2.MAV_TYPE_QUADROTOR, mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA, 0, 0, system_status, 3
    )
    harness.vehicle.send(heartbeat)

    state = harness.poll_after_sync()

    assert state.failsafe is FailsafeStatus.UNKNOWN
    assert not state.failsafe_observed


# ---- failsafe history ----------------------------------------------------------------------------


def test_failsafe_and_recovery_are_recorded_with_their_times(harness: ModelHarness) -> None:
    """
    GIVEN a healthy receiver
    WHEN the receiver becomes unhealthy at t+1 s and healthy again at t+2 s
    THEN the failsafe is latched at t+1 s and the recovery at t+2 s, while the current status
         follows the latest message.
    """
    start = harness.clock.now
    healthy = receiver_status(harness, present=True, enabled=True, healthy=True)
    assert not healthy.failsafe_observed
    assert not healthy.recovery_observed  # healthy before any failsafe is not a recovery

    harness.clock.advance(1.0)
    failing = receiver_status(harness, present=True, enabled=True, healthy=False)
    assert failing.failsafe is FailsafeStatus.ACTIVE
    assert (failing.failsafe_observed, failing.failsafe_observed_at) == (True, start + 1.0)
    assert not failing.recovery_observed

    harness.clock.advance(1.0)
    recovered = receiver_status(harness, present=True, enabled=True, healthy=True)
    assert recovered.failsafe is FailsafeStatus.NOT_ACTIVE
    assert (recovered.failsafe_observed, recovered.failsafe_observed_at) == (True, start + 1.0)
    assert (recovered.recovery_observed, recovered.recovery_observed_at) == (True, start + 2.0)


def test_a_second_failsafe_that_never_clears_takes_back_the_recovery(harness: ModelHarness) -> None:
    """
    GIVEN a failsafe at t+1 s that recovered at t+2 s
    WHEN the receiver fails again at t+3 s and stays in failsafe
    THEN the first failsafe stays latched at t+1 s, "recovery observed" is false again, and the
         three transitions are kept with their times.
    """
    start = harness.clock.now
    receiver_status(harness, present=True, enabled=True, healthy=True)
    for healthy in (False, True, False):
        harness.clock.advance(1.0)
        state = receiver_status(harness, present=True, enabled=True, healthy=healthy)

    assert state.failsafe is FailsafeStatus.ACTIVE
    assert state.failsafe_observed_at == start + 1.0
    assert not state.recovery_observed
    assert state.failsafe_transitions == (
        (FailsafeStatus.ACTIVE, start + 1.0),
        (FailsafeStatus.NOT_ACTIVE, start + 2.0),
        (FailsafeStatus.ACTIVE, start + 3.0),
    )


def test_a_brief_failsafe_between_two_polls_is_still_recorded(harness: ModelHarness) -> None:
    """
    GIVEN an unhealthy and then a healthy SYS_STATUS both queued before one poll
    WHEN the model reads them in the same poll
    THEN the current status is NOT_ACTIVE (latest wins) but the failsafe and its recovery are recorded.
    """
    harness.vehicle.send_sys_status(present=True, enabled=True, healthy=False)
    harness.vehicle.send_sys_status(present=True, enabled=True, healthy=True)

    state = harness.poll_after_sync()

    assert state.failsafe is FailsafeStatus.NOT_ACTIVE
    assert state.failsafe_observed
    assert state.recovery_observed


def test_failsafe_evidence_survives_telemetry_loss_and_link_errors(
    harness: ModelHarness, mocker: MockerFixture
) -> None:
    """
    GIVEN a recorded failsafe
    WHEN telemetry goes stale and then the transport fails
    THEN the current status is UNKNOWN but the failsafe stays recorded with its original time.
    """
    observed = receiver_status(harness, present=True, enabled=True, healthy=False)
    harness.clock.advance(10.0)
    stale = harness.model.poll()
    assert stale.failsafe is FailsafeStatus.UNKNOWN
    assert stale.failsafe_observed_at == observed.failsafe_observed_at

    assert harness.fc.master is not None
    # pyserial raises this from read() when a USB flight controller is unplugged; pymavlink lets it
    # through, so it is a fault the real transport does raise.
    mocker.patch.object(harness.fc.master, "recv_msg", side_effect=OSError("device reports readiness"))
    broken = harness.model.poll()
    assert broken.link_error
    assert broken.failsafe_observed_at == observed.failsafe_observed_at


def test_reset_test_starts_a_fresh_failsafe_test(harness: ModelHarness) -> None:
    """
    GIVEN a recorded failsafe and recovery
    WHEN the user resets the test 5 s later
    THEN no evidence remains, the test start is now, and the live status is unchanged.
    """
    receiver_status(harness, present=True, enabled=True, healthy=False)
    receiver_status(harness, present=True, enabled=True, healthy=True)
    harness.clock.advance(5.0)

    harness.model.reset_test()
    state = harness.model.state

    assert not state.failsafe_observed
    assert state.failsafe_observed_at is None
    assert not state.recovery_observed
    assert state.recovery_observed_at is None
    assert state.test_started_at == harness.clock.now
    assert harness.model.poll().failsafe is FailsafeStatus.UNKNOWN  # 5 s old: stale, not a failsafe


# ---- freshness -----------------------------------------------------------------------------------


def test_channels_and_receiver_status_expire_independently_after_3_s(harness: ModelHarness) -> None:
    """
    GIVEN channels and a healthy receiver reported at t, and only the receiver status again at t+2 s
    WHEN the clock reaches t+3 s and then t+5 s
    THEN at t+3 s the channels and RSSI are cleared while the status is still live,
         and at t+5 s the status is UNKNOWN too, without any failsafe being made up.
    """
    harness.vehicle.send_rc_channels([1500] * 5, rssi=100)
    harness.vehicle.send_sys_status(present=True, enabled=True, healthy=True)
    fresh = harness.poll_after_sync()
    assert fresh.rc_channels_live
    assert fresh.sys_status_live

    harness.clock.advance(2.0)
    harness.model.poll()  # the UI ticks every 100 ms: an empty poll just before the status arrives
    harness.vehicle.send_sys_status(present=True, enabled=True, healthy=True)
    harness.poll_after_sync()

    harness.clock.advance(STALE_AFTER_S - 2.0 - 0.01)
    almost = harness.model.poll()
    assert almost.rc_channels_live
    assert almost.channels[0].pwm == 1500
    assert almost.rssi == 100

    harness.clock.advance(0.01)
    channels_stale = harness.model.poll()
    assert not channels_stale.rc_channels_live
    assert [c.pwm for c in channels_stale.channels] == [None] * 5
    assert channels_stale.rssi is None
    assert channels_stale.chancount is None
    assert channels_stale.sys_status_live
    assert channels_stale.failsafe is FailsafeStatus.NOT_ACTIVE

    harness.clock.advance(2.0)
    all_stale = harness.model.poll()
    assert not all_stale.sys_status_live
    assert all_stale.failsafe is FailsafeStatus.UNKNOWN
    assert all_stale.receiver_present is None
    assert not all_stale.failsafe_observed
    assert all_stale.sys_status_age_s == pytest.approx(STALE_AFTER_S)


def test_new_telemetry_after_expiry_is_shown_again(harness: ModelHarness) -> None:
    """
    GIVEN channels that expired
    WHEN a new RC_CHANNELS arrives
    THEN the channels are live again with the new values.
    """
    harness.vehicle.send_rc_channels([1500] * 5)
    harness.poll_after_sync()
    harness.clock.advance(4.0)
    assert not harness.model.poll().rc_channels_live

    harness.vehicle.send_rc_channels([1600] * 5)
    state = harness.poll_after_sync()

    assert state.rc_channels_live
    assert [c.pwm for c in state.channels] == [1600] * 5


# ---- transport errors ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fault",
    [
        OSError(5, "Input/output error"),
        serial.SerialException("device reports readiness to read but returned no data"),
        ConnectionResetError("connection reset by peer"),
    ],
)
def test_a_transport_error_invalidates_live_readings_at_once_and_telemetry_restores_them(
    harness: ModelHarness, mocker: MockerFixture, fault: Exception
) -> None:
    """
    GIVEN fresh channels and a healthy receiver
    WHEN reading the link raises a transport error, and later the link works and telemetry arrives
    THEN the next snapshot has no live readings and a readable link error; once new telemetry
         arrives, readings are back and the link error is gone.
    """
    harness.vehicle.send_rc_channels([1500] * 5, rssi=50)
    harness.vehicle.send_sys_status(present=True, enabled=True, healthy=True)
    assert harness.poll_after_sync().has_live_telemetry

    assert harness.fc.master is not None
    fault_injection = mocker.patch.object(harness.fc.master, "recv_msg", side_effect=fault)
    broken = harness.model.poll()
    mocker.stop(fault_injection)

    assert broken.link_error
    assert str(fault) in broken.link_error
    assert not broken.has_live_telemetry
    assert [c.pwm for c in broken.channels] == [None] * 5
    assert broken.rssi is None
    assert broken.failsafe is FailsafeStatus.UNKNOWN
    assert harness.model.poll().link_error == broken.link_error  # stays until telemetry proves the link

    harness.vehicle.send_rc_channels([1550] * 5, rssi=60)
    harness.vehicle.send_sys_status(present=True, enabled=True, healthy=True)
    restored = harness.poll_after_sync()
    assert restored.link_error is None
    assert [c.pwm for c in restored.channels] == [1550] * 5
    assert restored.failsafe is FailsafeStatus.NOT_ACTIVE


def test_a_parser_exception_is_reported_not_raised(harness: ModelHarness, mocker: MockerFixture) -> None:
    """
    GIVEN a connection whose read raises something that is not an OSError
    WHEN the model polls
    THEN poll returns a snapshot with a readable link error instead of raising.
    """
    assert harness.fc.master is not None
    mocker.patch.object(harness.fc.master, "recv_msg", side_effect=ValueError("unpack requires a buffer"))

    state = harness.model.poll()

    assert state.link_error is not None
    assert "unpack requires a buffer" in state.link_error


def test_a_closed_connection_is_a_link_error_and_a_reconnect_recovers(harness: ModelHarness) -> None:
    """
    GIVEN fresh telemetry
    WHEN the underlying socket is closed behind the model's back, then the facade disconnects,
         then connects again and telemetry arrives
    THEN both failures are readable link errors without live readings, and the reconnect shows data.
    """
    harness.vehicle.send_rc_channels([1500] * 5)
    assert harness.poll_after_sync().rc_channels_live
    assert harness.fc.master is not None

    harness.fc.master.close()
    closed = harness.model.poll()
    assert closed.link_error
    assert not closed.has_live_telemetry

    harness.fc.disconnect()
    disconnected = harness.model.poll()
    assert disconnected.link_error
    assert not disconnected.connected

    harness.connect(harness.vehicle)
    harness.vehicle.send_rc_channels([1600] * 5)
    back = harness.poll_after_sync()
    assert back.link_error is None
    assert back.connected
    assert [c.pwm for c in back.channels] == [1600] * 5


def test_readings_and_evidence_read_behind_a_backlog_carry_the_vehicles_own_time(
    harness: ModelHarness,
) -> None:
    """
    GIVEN live channels, then a UI frozen for 20 s while the vehicle kept sending RC_CHANNELS every
          0.2 s, with its receiver failing 5 s into the freeze and recovering at 6 s
    WHEN the model reads that backlog, 50 messages per poll
    THEN the first polls show the channels as old (not live) with the backlog flagged, the
         failsafe and the recovery are timed when the vehicle reported them (not when drained), and
         once the backlog is read the newest channels are live again
    """
    harness.vehicle.send_rc_channels([1500] * 5)
    assert harness.poll_after_sync().rc_channels_live
    frozen_at = harness.clock.now

    backlog = []
    for step in range(1, 101):
        sent_at = frozen_at + step * 0.2
        backlog.append(rc_channels((1000 + step,) * 5, time_boot_ms=round((sent_at - harness.boot) * 1000)))
        if step in (25, 30):
            healthy = step == 30
            backlog.append(sys_status(RC_BIT, RC_BIT, RC_BIT if healthy else 0))
    harness.clock.advance(20.0)
    harness.send_backlog(*backlog)

    behind = harness.model.poll()
    assert behind.backlog
    assert not behind.rc_channels_live
    states = [behind]
    while states[-1].backlog:
        states.append(harness.model.poll())

    caught_up = states[-1]
    assert caught_up.rc_channels_live
    assert [c.pwm for c in caught_up.channels] == [1100] * 5
    assert caught_up.failsafe_observed_at == pytest.approx(frozen_at + 5.0, abs=0.01)
    assert caught_up.recovery_observed_at == pytest.approx(frozen_at + 6.0, abs=0.01)
