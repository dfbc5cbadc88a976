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
    failsafe_status,
    from_selected,
    int_field,
    is_selected_source,
    message_source,
    message_timestamp,
    message_type,
    receiver_status,
    rssi_reading,
)

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
