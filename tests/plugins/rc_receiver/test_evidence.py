# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the guided test gathers from the messages, driven directly: channel roles and spans
(`ChannelSpans`), the radio's words (`RadioTimeline`), the receiver around the first failsafe
(`FailsafeWitness`) and the flight-mode slot, from plain values and no socket."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amc_rc_receiver.plugins.rc_receiver.evidence import (
    MAX_RADIO_MESSAGES,
    MOVED_SPAN_US,
    ChannelSpans,
    FailsafeWitness,
    RadioTimeline,
    channel_roles,
    decoded_protocol,
    firmware_banner,
    flight_mode_reading,
    is_radio_message,
    statustext,
    stick_role,
)
from amc_rc_receiver.plugins.rc_receiver.firmware import VehicleFamily, mode_channel, stick_channels

pytestmark = pytest.mark.pure


# ---- roles ----------------------------------------------------------------------------------------


def test_roles_follow_rcmap_and_the_mode_channel_with_rovers_steering() -> None:
    """
    GIVEN RCMAP with roll and throttle swapped, and Rover's MODE_CH default 8
    WHEN roles are assigned
    THEN Copter's CH3 is roll and CH1 throttle; Rover steers with RCMAP_ROLL and its mode channel is 8
    """
    swapped = {"RCMAP_ROLL": 3.0, "RCMAP_THROTTLE": 1.0}
    assert channel_roles(VehicleFamily.COPTER, swapped)[3] == "roll"
    assert channel_roles(VehicleFamily.COPTER, swapped)[1] == "throttle"
    rover = channel_roles(VehicleFamily.ROVER, {})
    assert rover == {1: "steering", 3: "throttle", 8: "flight_mode"}
    assert set(stick_channels(VehicleFamily.ROVER, {})) == {1, 3}
    assert mode_channel(VehicleFamily.COPTER, {"FLTMODE_CH": 0.0}) is None


def test_held_values_during_failsafe_never_count_as_movement() -> None:
    """
    GIVEN a channel that reads 1100 µs live and 1900 µs while RC failsafe holds values
    WHEN its span is computed
    THEN it has not moved; it moves once live input covers 400 µs
    """
    spans = ChannelSpans()
    spans.observe(8, [1100] * 8, live=True)
    spans.observe(8, [1900] * 8, live=False)
    assert not spans.evidence({1: "roll"})[0].moved
    spans.observe(8, [1500] * 8, live=True)
    assert spans.evidence({1: "roll"})[0].moved


@pytest.mark.parametrize(
    ("text", "radio"),
    [
        ("Radio Failsafe - Disarming", True),
        ("Radio Failsafe Cleared", True),
        ("RC Short Failsafe On", True),
        ("PreArm: Throttle below failsafe", True),
        ("PreArm: RC not calibrated", True),
        ("RCInput: decoding CRSF", True),
        ("PreArm: Check FS_THR_VALUE", True),
        ("Battery 1 is low 10.2V used 0 mAh", False),
        ("GCS Failsafe", False),
        ("Param write denied (RC_OPTIONS)", False),
    ],
)
def test_only_radio_statustext_is_evidence(text: str, radio: bool) -> None:
    """GIVEN a STATUSTEXT WHEN filtered THEN radio-related texts are kept and others are not."""
    assert is_radio_message(text) is radio


def test_protocol_and_firmware_are_recognised_and_the_banner_outlives_a_flood_of_messages() -> None:
    """GIVEN a banner then 100 radio messages WHEN kept THEN the newest one, the protocol and the firmware."""
    assert decoded_protocol("RCInput: decoding SBUS") == "SBUS"
    assert firmware_banner("ArduCopter V4.6.0 (c0d4e55c)") == "ArduCopter V4.6.0"
    timeline = RadioTimeline()
    timeline.observe("ArduPlane V4.5.7 (abc)", 6, 0.0)
    for index in range(100):
        timeline.observe(f"Radio Failsafe {index}", 4, float(index))
    assert timeline.messages[-1].text == "Radio Failsafe 99"
    assert timeline.firmware == "ArduPlane V4.5.7"


def test_a_rover_steers_with_the_roll_stick() -> None:
    """
    GIVEN the RCMAP parameters of a Rover and of a Copter
    WHEN their roles are named
    THEN Rover's RCMAP_ROLL is steering, its other sticks and Copter's keep their own names
    """
    assert stick_role(VehicleFamily.ROVER, "RCMAP_ROLL") == "steering"
    assert stick_role(VehicleFamily.ROVER, "RCMAP_PITCH") == "pitch"
    assert stick_role(VehicleFamily.COPTER, "RCMAP_ROLL") == "roll"


# ---- ChannelSpans -------------------------------------------------------------------------------


def test_a_repeated_frame_changes_nothing_and_says_so() -> None:
    """
    GIVEN spans that took one RC_CHANNELS
    WHEN the same frame comes again
    THEN observe returns False and the version stays
    """
    spans = ChannelSpans()
    assert spans.observe(4, [1500, 1500, 1000, 1500], live=True)
    version = spans.version
    assert not spans.observe(4, [1500, 1500, 1000, 1500], live=True)
    assert spans.version == version


def test_no_value_pwm_is_skipped_and_channels_past_chancount_are_not_read() -> None:
    """
    GIVEN a frame with 0 and 65535 (no value) and a chancount of 3 over 5 values
    WHEN it is taken
    THEN only the channels with a value, up to the chancount, have a latest and lowest value
    """
    spans = ChannelSpans()
    spans.observe(3, [0, 1200, 65535, 1500, 1500], live=True)
    assert [spans.last(number) for number in range(1, 6)] == [None, 1200, None, None, None]
    assert spans.lowest(2) == 1200


def test_evidence_lists_channels_seen_and_channels_with_a_role_in_order() -> None:
    """
    GIVEN CH1 and CH2 seen, and roles for CH2 (roll) and CH5 (flight mode)
    WHEN the evidence is taken
    THEN CH1, CH2 and CH5 are listed; CH5 has no value and is no stick, CH2 is a stick
    """
    spans = ChannelSpans()
    spans.observe(2, [1500, 1100], live=True)
    evidence = spans.evidence({2: "roll", 5: "flight_mode"})
    assert [(e.number, e.role, e.last_us, e.is_stick) for e in evidence] == [
        (1, None, 1500, False),
        (2, "roll", 1100, True),
        (5, "flight_mode", None, False),
    ]


def test_a_restart_forgets_every_span() -> None:
    """
    GIVEN spans with values
    WHEN restarted
    THEN nothing is known any more and the version grew
    """
    spans = ChannelSpans()
    spans.observe(1, [1500], live=True)
    version = spans.version
    spans.restart()
    assert (spans.last(1), spans.lowest(1), spans.evidence({})) == (None, None, ())
    assert spans.version > version


@given(st.lists(st.tuples(st.integers(800, 2200), st.booleans()), min_size=1, max_size=40))
def test_a_channel_moved_exactly_when_its_live_values_span_400_us(frames: list[tuple[int, bool]]) -> None:
    """
    GIVEN any sequence of values of CH1, each live or held by RC failsafe
    WHEN the spans take them
    THEN the lowest and highest are those of the live values only, and moved means 400 µs apart
    """
    spans = ChannelSpans()
    for pwm, live in frames:
        spans.observe(1, [pwm], live=live)
    live_values = [pwm for pwm, live in frames if live]
    (channel,) = spans.evidence({})
    assert channel.last_us == frames[-1][0]
    assert (channel.min_us, channel.max_us) == (
        (min(live_values), max(live_values)) if live_values else (None, None)
    )
    assert channel.moved is (bool(live_values) and max(live_values) - min(live_values) >= MOVED_SPAN_US)


# ---- RadioTimeline ------------------------------------------------------------------------------


def test_a_nul_padded_bytes_text_is_read_as_its_words() -> None:
    """
    GIVEN a STATUSTEXT text field as bytes, NUL padded
    WHEN it joins the timeline
    THEN the message is its words without the padding
    """
    timeline = RadioTimeline()
    assert timeline.observe(b"Radio Failsafe\x00\x00\x00", 4, 1.5)
    assert (timeline.messages[0].text, timeline.messages[0].severity, timeline.messages[0].at) == (
        "Radio Failsafe",
        4,
        1.5,
    )
    assert statustext(bytearray(b"RC ok\x00")) == "RC ok"


def test_a_banner_and_a_protocol_are_kept_though_they_are_not_radio_messages() -> None:
    """
    GIVEN a firmware banner, an "RCInput: decoding" text and a battery warning
    WHEN they arrive
    THEN the banner and the protocol are remembered, and only the decoding text joins the timeline
    """
    timeline = RadioTimeline()
    assert not timeline.observe("ArduCopter V4.6.2 (abcdef12)", 6, 0.0)
    assert timeline.observe("RCInput: decoding CRSF (Bytes)", 6, 0.1)
    assert not timeline.observe("Battery 1 is low", 4, 0.2)
    assert (timeline.firmware, timeline.detected_protocol) == ("ArduCopter V4.6.2", "CRSF")
    assert [message.text for message in timeline.messages] == ["RCInput: decoding CRSF (Bytes)"]


def test_the_banners_frame_line_is_kept_and_a_reset_forgets_it() -> None:
    """
    GIVEN ArduCopter's helicopter build's banner with its "Frame: HELI" line
    WHEN it arrives, and then the connection is reset
    THEN the frame is remembered (not as a radio message), and forgotten with the vehicle
    """
    timeline = RadioTimeline()
    assert not timeline.observe("ArduCopter V4.7.0-dev (90700977)", 6, 0.0)
    assert not timeline.observe("Frame: HELI", 6, 0.1)
    assert timeline.frame == "HELI"
    assert timeline.messages == ()
    timeline.restart()
    assert timeline.frame == "HELI"
    timeline.reset()
    assert timeline.frame is None


def test_a_restart_keeps_the_vehicle_and_a_reset_forgets_it() -> None:
    """
    GIVEN a timeline with a banner, a protocol and messages
    WHEN it is restarted (a fresh test), then reset (a new connection)
    THEN the restart drops only the messages, the reset the vehicle as well
    """
    timeline = RadioTimeline()
    timeline.observe("ArduPlane V4.5.7 (abc)", 6, 0.0)
    timeline.observe("RCInput: decoding SBUS", 6, 0.1)
    timeline.restart()
    assert (timeline.messages, timeline.firmware, timeline.detected_protocol) == (
        (),
        "ArduPlane V4.5.7",
        "SBUS",
    )
    timeline.reset()
    assert (timeline.firmware, timeline.detected_protocol) == (None, None)


def test_the_timeline_keeps_only_the_newest_messages() -> None:
    """
    GIVEN more radio messages than the timeline keeps
    WHEN they all arrive
    THEN only the newest are kept, oldest first
    """
    timeline = RadioTimeline()
    for index in range(MAX_RADIO_MESSAGES + 5):
        timeline.observe(f"RC message {index}", 6, float(index))
    assert len(timeline.messages) == MAX_RADIO_MESSAGES
    assert timeline.messages[0].text == "RC message 5"


# ---- FailsafeWitness ----------------------------------------------------------------------------


def test_a_failsafe_with_the_transmitter_on_is_no_witness_of_the_receiver() -> None:
    """
    GIVEN a failsafe that begins while the transmitter is still on (a low throttle stick)
    WHEN the witness observes it
    THEN no failsafe is witnessed and no throttle is kept
    """
    witness = FailsafeWitness()
    witness.observe(active=True, rssi=None, throttle_us=900, transmitter_off=False)
    assert (witness.failsafe_seen, witness.throttle_at_failsafe_us) == (False, None)


def test_the_first_failsafe_with_the_transmitter_off_keeps_throttle_and_rssi() -> None:
    """
    GIVEN live RSSI 180 before, then a failsafe with the transmitter off at throttle 1100 and RSSI
          100 then 120, then a second failsafe at throttle 900
    WHEN the witness observes them
    THEN it keeps throttle 1100 of the first failsafe, RSSI 180 before and 120 at most during it
    """
    witness = FailsafeWitness()
    witness.observe(active=False, rssi=180, throttle_us=1500, transmitter_off=False)
    witness.observe(active=True, rssi=100, throttle_us=1100, transmitter_off=True)
    witness.observe(active=True, rssi=120, throttle_us=1100, transmitter_off=True)
    witness.observe(active=False, rssi=200, throttle_us=1500, transmitter_off=False)
    witness.observe(active=True, rssi=None, throttle_us=900, transmitter_off=True)
    assert (witness.failsafe_seen, witness.throttle_at_failsafe_us) == (True, 1100)
    assert (witness.rssi_before, witness.rssi_during_max) == (180, 120)


def test_a_restarted_witness_has_seen_nothing() -> None:
    """
    GIVEN a witness that saw a failsafe
    WHEN it is restarted
    THEN it has seen nothing and its version grew
    """
    witness = FailsafeWitness()
    witness.observe(active=True, rssi=50, throttle_us=1000, transmitter_off=True)
    version = witness.version
    witness.restart()
    assert (witness.failsafe_seen, witness.throttle_at_failsafe_us, witness.rssi_during_max) == (
        False,
        None,
        None,
    )
    assert witness.version > version


# ---- the flight-mode slot -----------------------------------------------------------------------


def test_the_mode_channel_selects_a_slot_and_its_mode() -> None:
    """
    GIVEN a Copter with FLTMODE4 = 5 (LOITER), its mode channel unread, and CH5 at 1500 µs
    WHEN the flight-mode reading is made
    THEN it is CH5, slot 4, LOITER, on the default channel
    """
    reading = flight_mode_reading(VehicleFamily.COPTER, {"FLTMODE4": 5.0}, {5: 1500})
    assert reading is not None
    assert (reading.channel, reading.pwm, reading.slot, reading.mode_number, reading.mode_name) == (
        5,
        1500,
        4,
        5,
        "LOITER",
    )
    assert reading.channel_is_default


def test_no_mode_channel_means_no_flight_mode_reading() -> None:
    """
    GIVEN an unknown vehicle, and a Copter whose FLTMODE_CH is 0
    WHEN the flight-mode reading is made
    THEN there is none
    """
    assert flight_mode_reading(VehicleFamily.UNKNOWN, {}, {5: 1500}) is None
    assert flight_mode_reading(VehicleFamily.COPTER, {"FLTMODE_CH": 0.0}, {5: 1500}) is None
