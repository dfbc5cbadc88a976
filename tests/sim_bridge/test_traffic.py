# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the relay-side tallies and the monitor's summaries may grow to: never more than their caps."""

from __future__ import annotations

import pytest

from amc_rc_receiver.sim_bridge.frame_summary import BLOCK_DIO, summarise
from amc_rc_receiver.sim_bridge.protocols import ardupilot_json, rflysim, xrp
from amc_rc_receiver.sim_bridge.snapshot import Direction, FrameField
from amc_rc_receiver.sim_bridge.traffic import MAX_REASONS, MAX_SENDERS_TRACKED, DirectionTally

pytestmark = pytest.mark.pure


def test_error_reasons_are_capped_and_every_error_is_still_counted() -> None:
    """GIVEN 100 distinct error reasons, each seen twice WHEN tallied
    THEN at most MAX_REASONS reasons are kept, the rest are counted as "other", and no error is lost."""
    tally = DirectionTally(Direction.FROM_PEER)
    for _round in range(2):
        for index in range(100):
            tally.count_error(f"reason-{index}")

    errors = dict(tally.copy().errors)

    assert len(errors) <= MAX_REASONS
    assert errors["other"] == 2 * (100 - (MAX_REASONS - 1))
    assert sum(errors.values()) == 200


def test_senders_are_capped_while_packets_keep_counting() -> None:
    """GIVEN 1,000 datagrams from 1,000 source ports WHEN tallied
    THEN every datagram and byte is counted and the sender count saturates at its cap."""
    tally = DirectionTally(Direction.FROM_PEER)
    for port in range(1000):
        tally.see(1.0, 40, ("127.0.0.2", 20000 + port))

    traffic = tally.copy()

    assert (traffic.packets, traffic.bytes) == (1000, 40_000)
    assert traffic.senders_seen == MAX_SENDERS_TRACKED
    assert traffic.last_sender == ("127.0.0.2", 20999)


def test_a_frame_summary_stays_small_however_many_warnings_or_blocks_a_frame_has() -> None:
    """GIVEN a JSON state with 50 long warnings and an XRP packet with 40 blocks WHEN summarised
    THEN at most five warnings of bounded length are kept, plus how many more there were, and the
    block list names twelve blocks and how many there are in all."""
    state = ardupilot_json.FdmState(
        timestamp=1.0,
        gyro=(0.0, 0.0, 0.0),
        accel_body=(0.0, 0.0, -9.81),
        velocity=(0.0, 0.0, 0.0),
        warnings=tuple(f"warning {index} " + "x" * 1000 for index in range(50)),
    )
    blocks = b"".join(bytes([3, xrp.TAG_DIO, index, 1]) for index in range(40))
    packet = xrp.decode(b"\x00\x07\x01" + blocks)

    state_summary = summarise(state)
    xrp_summary = summarise(packet)

    assert state_summary is not None
    assert len(state_summary.warnings) == 5
    assert all(len(warning) <= 240 for warning in state_summary.warnings)
    assert state_summary.more_warnings == 45
    assert xrp_summary is not None
    shown_blocks, total = dict(xrp_summary.fields)[FrameField.BLOCKS]
    assert shown_blocks == tuple((BLOCK_DIO, index) for index in range(12))
    assert total == 40


def test_a_recognised_but_undecoded_rflysim_packet_is_shown_by_name_not_as_an_error() -> None:
    """GIVEN a RflySim kind the codec recognises but does not decode WHEN summarised
    THEN the summary names the packet and its length and says its values are not decoded."""
    summary = summarise(rflysim.RecognisedPacket("PX4ExtMsg", 48, 1234567898))

    assert summary is not None
    fields = dict(summary.fields)
    assert (summary.kind, fields[FrameField.PACKET]) == ("rflysim", "PX4ExtMsg")
    assert fields[FrameField.LENGTH] == 48
    assert fields[FrameField.DECODED] is False
