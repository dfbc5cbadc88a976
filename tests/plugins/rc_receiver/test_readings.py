# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The one home of the plugin's MAVLink facts, its tolerant message readers, and the rules that
read the receiver out of them (sensor bits, channels, RSSI, the selected source)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.plugins.rc_receiver.readings import (
    HEARTBEAT_ID,
    MAV_CMD_SET_MESSAGE_INTERVAL,
    RC_CHANNELS_ID,
    RC_RECEIVER_SENSOR_BIT,
    RSSI_MAX,
    RSSI_UNKNOWN,
    SYS_STATUS_ID,
    call_int,
    call_str,
    channel_readings,
    channels_sample,
    failsafe_status,
    from_selected,
    int_field,
    is_selected_source,
    message_source,
    message_timestamp,
    message_type,
    readable_text,
    receiver_status,
    rssi_reading,
    selected_target,
    status_sample,
    sys_status_failsafe,
)
from amc_rc_receiver.plugins.rc_receiver.snapshot import FailsafeStatus

pytestmark = pytest.mark.pure


def decoded(msg: Any, system_id: int = 7, component_id: int = 1) -> Any:
    """``msg`` as it arrives: packed by a vehicle with those ids and parsed by pymavlink."""
    encoder = mavlink2.MAVLink(None, srcSystem=system_id, srcComponent=component_id)
    return mavlink2.MAVLink(None).decode(bytearray(msg.pack(encoder)))


def rc_channels(time_boot_ms: int) -> Any:
    return decoded(mavlink2.MAVLink_rc_channels_message(time_boot_ms, 8, *([1500] * 18), 200))


def test_the_ids_and_the_receiver_bit_are_the_ones_on_the_wire() -> None:
    """
    GIVEN the facts the plugin, the facade and the demo vehicle share
    WHEN compared with messages pymavlink builds
    THEN the ids are those messages' ids and the receiver bit is the SYS_STATUS sensor bit 16
    """
    assert rc_channels(1).get_msgId() == RC_CHANNELS_ID
    assert decoded(mavlink2.MAVLink_heartbeat_message(2, 3, 0, 0, 4, 3)).get_msgId() == HEARTBEAT_ID
    status = mavlink2.MAVLink_sys_status_message(0, 0, 0, 0, 0, -1, -1, 0, 0, 0, 0, 0, 0)
    assert decoded(status).get_msgId() == SYS_STATUS_ID
    assert MAV_CMD_SET_MESSAGE_INTERVAL == 511
    assert RC_RECEIVER_SENSOR_BIT == 1 << 16
    assert (RSSI_MAX, RSSI_UNKNOWN) == (254, 255)


def test_the_readers_return_what_a_real_message_carries() -> None:
    """
    GIVEN an RC_CHANNELS a vehicle 7/1 sent at 1234 ms
    WHEN read with the tolerant readers
    THEN they answer its type, sender, timestamp and fields
    """
    msg = rc_channels(1234)
    assert message_type(msg) == "RC_CHANNELS"
    assert message_source(msg) == (7, 1)
    assert message_timestamp(msg) == 1234
    assert int_field(msg, "chancount") == 8
    assert call_str(msg, "get_type") == "RC_CHANNELS"
    assert call_int(msg, "get_srcSystem") == 7


@pytest.mark.parametrize("garbage", [None, True, "12", 1.5])
def test_a_field_of_the_wrong_type_reads_as_unknown(garbage: object) -> None:
    """
    GIVEN a received message whose time_boot_ms and chancount hold something other than an integer
    WHEN read
    THEN the readers answer None (bool is no integer) instead of raising
    """
    msg = rc_channels(1234)
    msg.time_boot_ms = garbage
    msg.chancount = garbage
    assert message_timestamp(msg) is None
    assert int_field(msg, "chancount") is None


def test_a_sender_that_keeps_no_time_has_no_timestamp() -> None:
    """
    GIVEN an RC_CHANNELS with time_boot_ms 0
    WHEN its timestamp is read
    THEN there is none (0 is what a sender without a clock leaves there)
    """
    assert message_timestamp(rc_channels(0)) is None


def test_something_that_is_no_message_reads_as_unknown() -> None:
    """
    GIVEN an object without any of a message's getters or fields
    WHEN read with every reader
    THEN each answers None and none raises
    """
    thing = object()
    assert message_type(thing) is None
    assert message_source(thing) is None
    assert message_timestamp(thing) is None
    assert int_field(thing, "chancount") is None
    assert call_str(thing, "get_type") is None
    assert call_int(thing, "get_srcSystem") is None


def test_a_getter_that_fails_or_answers_the_wrong_type_reads_as_unknown() -> None:
    """
    GIVEN a received message whose get_type raises and whose source getter answers a string
    WHEN read
    THEN the readers answer None instead of raising
    """
    msg = rc_channels(1234)

    def broken() -> str:
        raise ValueError("truncated")

    msg.get_type = broken
    msg.get_srcSystem = lambda: "7"
    assert message_type(msg) is None
    assert call_str(msg, "get_type") is None
    assert message_source(msg) is None
    assert call_int(msg, "get_srcSystem") is None
    assert call_int(msg, "get_srcComponent") == 1


# ---- what the receiver is, read out of the messages ---------------------------------------------


@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_only_the_receiver_bit_of_each_mask_matters(present: int, enabled: int, health: int) -> None:
    """
    GIVEN any three SYS_STATUS sensor bitmasks
    WHEN the receiver status is derived
    THEN it equals the status derived from the RC_RECEIVER bits alone (other sensors never count).
    """
    only_rc = receiver_status(
        present & RC_RECEIVER_SENSOR_BIT, enabled & RC_RECEIVER_SENSOR_BIT, health & RC_RECEIVER_SENSOR_BIT
    )
    assert receiver_status(present, enabled, health) == only_rc


@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_the_failsafe_alone_is_the_one_of_the_whole_receiver_status(
    present: int, enabled: int, health: int
) -> None:
    """
    GIVEN any three SYS_STATUS sensor bitmasks
    WHEN only the RC failsafe is derived (as the guided test does for every SYS_STATUS)
    THEN it is the failsafe of the whole receiver status.
    """
    assert failsafe_status(present, enabled, health) is receiver_status(present, enabled, health).failsafe


def test_a_short_pwm_list_leaves_the_missing_channels_unavailable() -> None:
    """
    GIVEN only two raw PWM values but a chancount of 5
    WHEN the channels are derived
    THEN CH3..CH5 are unavailable instead of raising.
    """
    assert [c.pwm for c in channel_readings(5, [1100, 1200])] == [1100, 1200, None, None, None]


@pytest.mark.parametrize(("raw", "expected"), [(-1, None), (0, 0), (254, 254), (255, None), (300, None)])
def test_rssi_outside_0_to_254_is_unknown(raw: int, expected: int | None) -> None:
    """
    GIVEN a raw RSSI value
    WHEN it is interpreted
    THEN 0..254 is kept and anything else is unknown.
    """
    assert rssi_reading(raw) == expected


def test_without_a_known_target_system_nothing_is_accepted() -> None:
    """
    GIVEN a flight controller whose system id is not known yet
    WHEN a message arrives from system 1
    THEN it is not taken as the selected vehicle's.
    """
    assert not is_selected_source(1, 1, None, None)
    assert is_selected_source(1, 7, 1, None)


@given(
    st.lists(st.tuples(st.integers(0, 255), st.integers(0, 255)), max_size=60),
    st.one_of(st.none(), st.integers(1, 255)),
    st.one_of(st.none(), st.integers(0, 255)),
)
def test_a_polls_batch_keeps_exactly_the_messages_the_source_rule_accepts(
    sources: list[tuple[int, int]], target_system: int | None, target_component: int | None
) -> None:
    """
    GIVEN real RC_CHANNELS messages from any mix of senders, and any selected vehicle
    WHEN a poll's batch is filtered by source
    THEN it keeps, in their order, exactly those the one source rule accepts.
    """
    encoder = mavlink2.MAVLink(None)
    messages = []
    for system, component in sources:
        encoder.srcSystem, encoder.srcComponent = system, component
        message = mavlink2.MAVLink_rc_channels_message(1, 8, *([1500] * 18), 100)
        parser = mavlink2.MAVLink(None)
        messages.append(parser.decode(bytearray(message.pack(encoder))))

    kept = from_selected(messages, target_system, target_component)

    expected = [
        msg
        for msg in messages
        if is_selected_source(msg.get_srcSystem(), msg.get_srcComponent(), target_system, target_component)
    ]
    assert kept == expected


@pytest.mark.parametrize(
    ("present", "enabled", "healthy", "expected"),
    [
        (True, True, True, FailsafeStatus.NOT_ACTIVE),
        (True, True, False, FailsafeStatus.ACTIVE),
        (True, False, False, FailsafeStatus.UNKNOWN),
        (False, True, False, FailsafeStatus.UNKNOWN),
        (False, False, False, FailsafeStatus.UNKNOWN),
    ],
)
def test_only_a_present_enabled_receiver_tells_its_failsafe_by_its_health(
    present: bool, enabled: bool, healthy: bool, expected: FailsafeStatus
) -> None:
    """
    GIVEN the RC_RECEIVER bit present, enabled and healthy or not
    WHEN the receiver status is derived
    THEN an unhealthy present and enabled receiver is in failsafe, a healthy one not, and
         anything else proves nothing
    """
    bit = RC_RECEIVER_SENSOR_BIT
    status = receiver_status(bit if present else 0, bit if enabled else 0, bit if healthy else 0)
    assert (status.present, status.enabled, status.healthy, status.failsafe) == (
        present,
        enabled,
        healthy,
        expected,
    )


def test_no_value_pwm_and_channels_past_chancount_are_unavailable() -> None:
    """
    GIVEN RC_CHANNELS with 0 on CH1, 65535 on CH2, 700 on CH3 and a chancount of 4
    WHEN CH1..CH5 are derived
    THEN CH1 and CH2 have no value, CH3 keeps 700 unclamped, CH5 does not exist
    """
    assert [c.pwm for c in channel_readings(4, [0, 65535, 700, 2300, 1500])] == [None, None, 700, 2300, None]


def test_a_received_rc_channels_and_sys_status_become_samples() -> None:
    """
    GIVEN a decoded RC_CHANNELS (RSSI 255) and a SYS_STATUS with an unhealthy receiver
    WHEN each is sampled at 12.5 s
    THEN the channels, unknown RSSI, chancount and the failsafe are taken with that time
    """
    channels = channels_sample(rc_channels(1000), 12.5)
    assert (channels.chancount, channels.rssi, channels.received_at) == (8, 200, 12.5)
    assert [c.pwm for c in channels.channels] == [1500] * 5
    bit = RC_RECEIVER_SENSOR_BIT
    sys_status = decoded(mavlink2.MAVLink_sys_status_message(bit, bit, 0, 0, 12600, -1, -1, 0, 0, 0, 0, 0, 0))
    sample = status_sample(sys_status, 12.5)
    assert (sample.status.failsafe, sample.received_at) == (FailsafeStatus.ACTIVE, 12.5)
    assert sys_status_failsafe(sys_status) is FailsafeStatus.ACTIVE


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (b"Radio Failsafe\x00\x00junk", "Radio Failsafe"),
        ("\x1b[2Jwiped", "\\x1b[2Jwiped"),
        ("two\nlines", "two\\nlines"),
        (b"bad \xff byte", "bad \ufffd byte"),
        ("  padded  ", "padded"),
    ],
)
def test_text_from_the_link_is_shown_as_data_never_as_control(raw: object, shown: str) -> None:
    """
    GIVEN a text field from the link: NUL padded, with a terminal escape, a line break, a bad byte
    WHEN made readable
    THEN it ends at its NUL and every control character is written as its escape
    """
    assert readable_text(raw) == shown


@given(st.text(max_size=400), st.integers(2, 300))
def test_readable_text_is_never_longer_than_its_limit(raw: str, limit: int) -> None:
    """
    GIVEN any text and any limit
    WHEN made readable
    THEN it is at most ``limit`` characters, with no raw control character left
    """
    text = readable_text(raw, limit)
    assert len(text) <= limit
    assert not any(ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0 for char in text)


class _Info:
    def __init__(self, system_id: object, component_id: object) -> None:
        self.system_id = system_id
        self.component_id = component_id


class _FlightController:
    def __init__(self, system_id: object = "", component_id: object = "") -> None:
        self.master = None
        self.info = _Info(system_id, component_id)


class _Master:
    def __init__(self, target_system: object, target_component: object) -> None:
        self.target_system = target_system
        self.target_component = target_component


def test_the_discovered_vehicle_is_selected_before_the_connections_guess() -> None:
    """
    GIVEN a facade that discovered system 7 component 1, and one that discovered nothing
    WHEN the selected vehicle is read with a connection that targets system 3 component 0
    THEN the discovered ids win; without them the connection's own targets are used
    """
    master = _Master(3, 0)
    assert selected_target(_FlightController("7", "1"), master) == (7, 1)
    assert selected_target(_FlightController(), master) == (3, 0)
    assert selected_target(_FlightController(), _Master(0, True)) == (None, None)
