# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The words both views give a bridge snapshot's reason keys and frame summaries."""

from __future__ import annotations

import pytest

from amc_rc_receiver.sim_bridge.frame_summary import summarise
from amc_rc_receiver.sim_bridge.protocols import ardupilot_json, rflysim, xrp
from amc_rc_receiver.sim_bridge.protocols.sitl_servo_packet import ServoPacket
from amc_rc_receiver.sim_bridge.protocols.triage import REASON_DECODER_FAULT
from amc_rc_receiver.sim_bridge.relay_counters import REASON_PORT_UNREACHABLE
from amc_rc_receiver.sim_bridge.snapshot import REASON_NO_PEER, FrameSummary, LoopCounts
from amc_rc_receiver.sim_bridge.texts import counts_text, frame_text, frame_warnings, loop_text, reason_label

pytestmark = pytest.mark.pure


def test_reason_keys_of_codecs_relay_and_monitor_read_as_words_and_unknown_keys_stay_readable() -> None:
    """GIVEN reason keys from a codec, the relay, the monitor and one nobody knows WHEN worded
    THEN each reads as a person's words, and the unknown key with spaces for its dashes."""
    assert reason_label("magic") == "wrong magic"
    assert reason_label(REASON_PORT_UNREACHABLE) == "ICMP port unreachable"
    assert reason_label(REASON_NO_PEER) == "reply before any peer"
    assert reason_label(REASON_DECODER_FAULT) == "decoder fault"
    assert reason_label("brand-new-reason") == "brand new reason"


def test_reason_counts_keep_their_order_and_say_how_many() -> None:
    """GIVEN (reason key, count) pairs, most frequent first WHEN worded THEN the order is kept."""
    assert counts_text((("truncated", 2), ("magic", 1))) == "truncated ×2, wrong magic ×1"


def test_a_servo_frame_reads_as_its_kind_then_labelled_values() -> None:
    """GIVEN the summary of a 16-channel servo packet WHEN worded
    THEN it shows the frame count, the rate in Hz and the first eight PWM values."""
    summary = summarise(ServoPacket(18458, 400, 7, tuple(range(1000, 1016))))

    assert summary is not None
    assert frame_text(summary) == (
        "servo16: frame count=7, frame rate=400 Hz, PWM 1-8=1000 1001 1002 1003 1004 1005 1006 1007"
    )


def test_a_json_state_reads_its_time_and_rc_channels_and_says_how_many_warnings_were_left_out() -> None:
    """GIVEN a JSON state with an unset channel and seven warnings WHEN worded
    THEN the time has three decimals, the unset channel is a dash, and five warnings are followed
    by how many more there were."""
    state = ardupilot_json.FdmState(
        timestamp=2.5,
        gyro=(0.0, 0.0, 0.0),
        accel_body=(0.0, 0.0, -9.81),
        velocity=(0.0, 0.0, 0.0),
        rc=(1500.0, None, 1600.5),
        warnings=tuple(f"warning {index}" for index in range(7)),
    )
    summary = summarise(state)

    assert summary is not None
    assert frame_text(summary) == "json-state: timestamp=2.500 s, RC channels=1500 - 1600.5"
    assert frame_warnings(summary)[-2:] == ["warning 4", "and 2 more warnings"]


def test_xrp_blocks_are_named_and_a_long_list_says_how_many_more_there_are() -> None:
    """GIVEN an XRP packet with a motor, a gyro and 20 DIO blocks WHEN worded
    THEN twelve blocks are named and the rest counted."""
    blocks = (
        xrp.MotorBlock(0, 0.5),
        xrp.GyroBlock(0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
        *(xrp.DioBlock(index, 1) for index in range(20)),
    )
    packet = xrp.XrpPacket(7, 1, blocks)
    summary = summarise(packet)

    assert summary is not None
    text = frame_text(summary)
    assert text.startswith("xrp: sequence=7, control=1, blocks=motor 0, gyro, DIO 0, ")
    assert text.endswith("DIO 9 and 10 more")


def test_rflysim_frames_name_their_copter_and_an_undecoded_kind_says_why() -> None:
    """GIVEN a RflySim SIL frame and a kind that is recognised but not decoded WHEN worded
    THEN the SIL frame names its copter and checksum, the other its name, length and why."""
    sil = summarise(rflysim.SilIntFloat(3, (0,) * 8, (0.0,) * 20))
    recognised = summarise(rflysim.RecognisedPacket("PX4ExtMsg", 48, 1234567898))

    assert sil is not None
    assert recognised is not None
    assert frame_text(sil) == "rflysim-sil: copter id=3, checksum=1234567897"
    assert frame_text(recognised) == (
        "rflysim: packet=PX4ExtMsg, length=48, "
        "decoded=no: its values mean what the user's model makes of them"
    )


def test_a_field_nobody_knows_is_shown_by_its_key_and_value() -> None:
    """GIVEN a summary with a field key the views do not know WHEN worded THEN key=value is shown."""
    assert frame_text(FrameSummary("future", (("speed", 3),))) == "future: speed=3"


def test_a_cut_loop_reads_as_where_its_datagrams_went_and_came_back_from() -> None:
    """GIVEN the loop counts of a link WHEN worded THEN nothing is said before a loop was cut
    (returns alone are not a loop yet), and a cut loop names both addresses and the held datagrams."""
    assert loop_text(LoopCounts()) == ""
    assert loop_text(LoopCounts(returned=3)) == ""
    cut = LoopCounts(
        returned=8, held_back=2, loops_cut=1, came_back_from="127.0.0.1:5", sent_to="127.0.0.1:9"
    )
    assert loop_text(cut) == "loop cut: what it sent to 127.0.0.1:9 came back from 127.0.0.1:5; held back: 2"
