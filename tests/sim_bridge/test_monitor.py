# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The bridge monitor over real relays on loopback: counts, rates, decode errors and bookkeeping.

The relays and the monitor share one injected clock, so rates and ages are exact; arrival is
awaited by polling with a generous deadline.  Datagrams are packed here with ``struct`` from the
layouts in PROTOCOLS.md.
"""

from __future__ import annotations

import dataclasses
import socket
import struct
import time
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amc_rc_receiver.sim_bridge.monitor import BridgeMonitor
from amc_rc_receiver.sim_bridge.protocols import ardupilot_json
from amc_rc_receiver.sim_bridge.protocols.triage import REASON_DECODER_FAULT, REASON_UNRECOGNISED
from amc_rc_receiver.sim_bridge.relay import UdpRelay
from amc_rc_receiver.sim_bridge.relay_config import RelayConfig
from amc_rc_receiver.sim_bridge.relay_counters import RelayCounters
from amc_rc_receiver.sim_bridge.snapshot import (
    REASON_MONITOR_FAULT,
    REASON_NO_PEER,
    REASON_TRUNCATED_CAPTURES,
    BridgeSnapshot,
    FrameField,
    LinkSnapshot,
    OrderCounts,
)
from amc_rc_receiver.sim_bridge.traffic import RateWindow
from tests.support.clock import ManualClock
from tests.support.udp import DEADLINE_S, LOOPBACK, address_of, receive
from tests.support.waiting import poll_until, wait_for

pytestmark = pytest.mark.loopback


class StepClock:
    """A work clock that moves on by ``step`` seconds every time it is read."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.fixture
def foreign() -> Iterator[socket.socket]:
    """A UDP socket on 127.0.0.2: a loopback address that is neither the relay's peer nor its target."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.bind(("127.0.0.2", 0))
    except OSError:
        sock.close()
        pytest.skip("this system does not route all of 127.0.0.0/8 to the loopback")
    yield sock
    sock.close()


def servo(frame_count: int, pwm: tuple[int, ...] = tuple(range(1100, 1260, 10))) -> bytes:
    return struct.pack("<HHI16H", 18458, 400, frame_count, *pwm)


def xrp_datagram(sequence: int, control: int = 1) -> bytes:
    motor = struct.pack(">BBBf", 6, 0x12, 0, 0.25)
    dio = struct.pack(">BBBB", 3, 0x14, 0, 1)
    return struct.pack(">HB", sequence, control) + motor + dio


def sil(checksum: int = 1234567897, copter_id: int = 3) -> bytes:
    return struct.pack("<10i20f", checksum, copter_id, *range(8), *([0.0] * 20))


JSON_STATE = (
    b'\n{"timestamp":2.5,"imu":{"gyro":[0,0,0],"accel_body":[0,0,-9.81]},'
    b'"velocity":[0,0,0],"attitude":[0,0,0],"no_time_sync": true,"rc":{"rc_1":1500,"rc_2":1600}}\n'
)


def link_packets(snapshot: BridgeSnapshot, index: int = 0) -> tuple[int, int]:
    link = snapshot.links[index]
    return link.from_peer.packets, link.from_target.packets


def send_all(sender: socket.socket, relay: UdpRelay, datagrams: list[bytes]) -> None:
    """Send one at a time and wait for each to be received, so nothing is lost or reordered."""
    already = relay.counters().received_from_peer
    for count, datagram in enumerate(datagrams, start=already + 1):
        sender.sendto(datagram, relay.listen_address)
        end = time.monotonic() + DEADLINE_S
        while relay.counters().received_from_peer < count:
            if time.monotonic() > end:
                pytest.fail("the relay did not receive the datagram")
            time.sleep(0.001)


# --------------------------------------------------------------------------- counting


def test_both_directions_are_counted_with_senders_and_addresses(sockets, relays) -> None:
    """GIVEN a SITL relay WHEN three servo packets go out and two JSON replies come back
    THEN each direction counts its packets and bytes, names its sender and the link shows its addresses."""
    clock = ManualClock(100.0)
    peer, target = sockets(), sockets()
    relay = relays(RelayConfig("sitl", protocol="ardupilot-json", target=address_of(target)), clock=clock)
    monitor = BridgeMonitor([relay], clock=clock)
    via = None
    for frame in (1, 2, 3):
        peer.sendto(servo(frame), relay.listen_address)
        _data, via = receive(target)
    assert via is not None
    for _reply in range(2):
        target.sendto(JSON_STATE, via)
        receive(peer)

    snapshot = poll_until(monitor.poll, lambda s: link_packets(s) == (3, 2), "3 + 2 packets")

    link = snapshot.links[0]
    assert (link.from_peer.bytes, link.from_target.bytes) == (3 * 40, 2 * len(JSON_STATE))
    assert link.from_peer.last_sender == f"{LOOPBACK}:{address_of(peer)[1]}"
    assert link.from_target.last_sender == f"{LOOPBACK}:{address_of(target)[1]}"
    assert (link.from_peer.senders_seen, link.from_peer.multiple_senders) == (1, False)
    assert link.peer == link.from_peer.last_sender
    assert link.listen == f"{LOOPBACK}:{relay.listen_address[1]}"
    assert link.target == f"{LOOPBACK}:{address_of(target)[1]}"
    assert (link.listen_only, link.running, link.detected_protocol) == (False, True, "ardupilot-json")
    assert link.from_peer.decode_error_total == 0
    assert monitor.snapshot is snapshot


def test_rates_and_ages_follow_the_injected_clock(sockets, relays) -> None:
    """GIVEN 20 servo packets all stamped at t=100 s and a 1 s rate window
    WHEN snapshots are taken at 100.5 s, 101.0625 s and 101.2 s
    THEN the rate is 20/s, then half of it as the bucket leaves the window, then zero; the age grows."""
    clock = ManualClock(100.0)
    peer = sockets()
    relay = relays(RelayConfig("tap", protocol="ardupilot-json"), clock=clock)
    monitor = BridgeMonitor([relay], clock=clock)
    send_all(peer, relay, [servo(frame) for frame in range(20)])
    poll_until(monitor.poll, lambda s: s.links[0].from_peer.packets == 20, "20 packets")

    clock.now = 100.5
    inside = monitor.poll().links[0].from_peer
    clock.now = 101.0625
    leaving = monitor.poll().links[0].from_peer
    clock.now = 101.2
    gone = monitor.poll().links[0].from_peer

    assert (inside.packets_per_s, inside.bytes_per_s) == (20.0, 20.0 * 40)
    assert inside.last_packet_age_s == 0.5
    assert leaving.packets_per_s == pytest.approx(10.0)
    assert (gone.packets_per_s, gone.bytes_per_s) == (0.0, 0.0)
    assert gone.last_packet_age_s == pytest.approx(1.2)
    assert gone.packets == 20  # totals never expire


def test_poll_stops_at_its_time_budget_and_carries_the_rest_to_the_next_tick(sockets, relays) -> None:
    """GIVEN 300 captured servo packets and a work clock that uses up the whole budget at its first read
    WHEN the monitor polls THEN the first poll leaves records in the ring for later ticks,
    later polls take the rest, and every snapshot counts all 300 packets exactly."""
    clock = ManualClock(100.0)
    sender = sockets()
    relay = relays(RelayConfig("tap", protocol="ardupilot-json"), clock=clock)
    send_all(sender, relay, [servo(frame) for frame in range(300)])
    monitor = BridgeMonitor([relay], clock=clock, budget_s=0.004, work_clock=StepClock(0.004))

    first = monitor.poll()
    carried = relay.pending_records
    polls = 1
    while relay.pending_records:
        assert monitor.poll().links[0].from_peer.packets == 300
        polls += 1
        assert polls < 1000, "the monitor never caught up"
    last = monitor.poll().links[0].from_peer

    assert first.links[0].from_peer.packets == 300
    assert 0 < carried < 300
    assert polls > 1
    assert last.last_frame is not None
    assert dict(last.last_frame.fields)[FrameField.FRAME_COUNT] == 299


def test_counts_rates_and_error_reasons_are_exact_before_any_record_is_drained(sockets, relays) -> None:
    """GIVEN good, truncated and wrong-magic servo packets waiting in the ring
    WHEN a monitor is made (it drains nothing) and then polls with a budget of zero
    THEN packets, bytes, rates, error reasons and frame bookkeeping are exact in both snapshots."""
    clock = ManualClock(100.0)
    sender = sockets()
    relay = relays(RelayConfig("tap", protocol="ardupilot-json"), clock=clock)
    bad_magic = struct.pack("<HHI16H", 1234, 400, 2, *([1500] * 16))
    send_all(sender, relay, [servo(1), servo(2)[:39], bad_magic, servo(3), servo(5)])
    monitor = BridgeMonitor([relay], clock=clock, budget_s=0.0, work_clock=StepClock(1.0))

    for direction in (monitor.snapshot.links[0].from_peer, monitor.poll().links[0].from_peer):
        assert (direction.packets, direction.bytes) == (5, 4 * 40 + 39)
        assert direction.packets_per_s == 5.0
        assert direction.decode_errors == (("magic", 1), ("truncated", 1))
        assert direction.order.frame_gaps == 2  # 1 to 3 (2 was cut short) and 3 to 5


def test_the_budget_is_shared_so_that_no_relay_starves(sockets, relays) -> None:
    """GIVEN two relays holding 200 records each and a budget used up at the first clock read
    WHEN the monitor polls twice THEN each relay has given some records."""
    sender = sockets()
    first = relays(RelayConfig("a"))
    second = relays(RelayConfig("b"))
    send_all(sender, first, [b"\x00\x01\x00"] * 200)
    send_all(sender, second, [b"\x00\x01\x00"] * 200)
    monitor = BridgeMonitor([first, second], budget_s=0.001, work_clock=StepClock(0.001))

    snapshot = monitor.poll()
    monitor.poll()

    assert first.pending_records < 200
    assert second.pending_records < 200
    assert [link.from_peer.packets for link in snapshot.links] == [200, 200]
    assert [link.name for link in snapshot.links] == ["a", "b"]


def test_frames_for_display_are_decoded_within_the_budget_and_the_rest_on_later_ticks(
    sockets, relays
) -> None:
    """GIVEN six taps, each with one JSON state waiting, and a budget used up at the first clock read
    WHEN the monitor polls THEN one poll does not decode them all, later polls do, and counts are exact
    throughout."""
    sender = sockets()
    taps = [relays(RelayConfig(f"tap{index}", protocol="ardupilot-json")) for index in range(6)]
    for tap in taps:
        send_all(sender, tap, [JSON_STATE])
    monitor = BridgeMonitor(taps, budget_s=0.001, work_clock=StepClock(0.001))

    shown_per_poll = []
    for _tick in range(40):
        snapshot = monitor.poll()
        assert [link.from_peer.packets for link in snapshot.links] == [1] * 6
        shown_per_poll.append(sum(link.from_peer.last_frame is not None for link in snapshot.links))

    assert shown_per_poll[0] < 6
    assert shown_per_poll[-1] == 6
    assert shown_per_poll == sorted(shown_per_poll)


def test_a_flood_from_an_unexpected_sender_is_counted_but_never_recorded_or_decoded(
    sockets, relays, foreign: socket.socket
) -> None:
    """GIVEN a SITL relay whose peer is learned WHEN 127.0.0.2 floods the listen port with 500 packets
    that would all be decode errors THEN they count as packets and unexpected senders, no decode error
    is counted, nothing of them waits in the ring and the shown frame is still the peer's."""
    peer, target = sockets(), sockets()
    relay = relays(RelayConfig("sitl", protocol="ardupilot-json", target=address_of(target)))
    peer.sendto(servo(7), relay.listen_address)
    receive(target)
    wait_for(lambda: relay.pending_records == 1, "the peer's packet recorded")
    bad_magic = struct.pack("<HHI16H", 1234, 400, 2, *([1500] * 16))
    for sent in range(50, 501, 50):
        for _index in range(50):
            foreign.sendto(bad_magic, relay.listen_address)
        # In batches, so that the socket buffer never overflows and every datagram is seen.
        wait_for(lambda: relay.counters().received_from_peer == 1 + sent, "the flood received")  # noqa: B023
    monitor = BridgeMonitor([relay])

    link = monitor.poll().links[0]

    assert link.unexpected_senders == 500
    assert link.from_peer.packets == 501
    assert link.from_peer.decode_errors == ()
    assert link.from_peer.senders_seen == 2
    assert link.from_peer.last_frame is not None
    assert dict(link.from_peer.last_frame.fields)[FrameField.FRAME_COUNT] == 7
    assert relay.pending_records == 0
    assert link.peer == f"{LOOPBACK}:{address_of(peer)[1]}"


def test_only_the_newest_frame_of_a_direction_is_decoded_and_only_once(sockets, relays) -> None:
    """GIVEN 20 well-framed JSON states that lack a required key, then a valid one
    WHEN the monitor polls THEN none of the 20 was decoded (no error counted) and the valid one is shown;
    GIVEN then one more state without the key WHEN the monitor polls twice
    THEN its missing key is counted once, and the valid frame stays shown."""
    sender = sockets()
    relay = relays(RelayConfig("sitl", protocol="ardupilot-json"))
    missing_imu = b'{"timestamp":1.0,"velocity":[0,0,0]}\n'
    send_all(sender, relay, [missing_imu] * 20 + [JSON_STATE])
    monitor = BridgeMonitor([relay])

    first = poll_until(monitor.poll, lambda s: s.links[0].from_peer.last_frame is not None, "a frame").links[
        0
    ]
    first = first.from_peer
    sender.sendto(missing_imu, relay.listen_address)
    wait_for(lambda: relay.counters().received_from_peer == 22, "the last state received")
    monitor.poll()
    second = monitor.poll().links[0].from_peer

    assert first.decode_errors == ()
    assert first.last_frame is not None
    assert dict(first.last_frame.fields)[FrameField.TIMESTAMP] == 2.5
    assert second.decode_errors == (("missing-key", 1),)
    assert second.last_frame == first.last_frame
    assert second.packets == 22


# --------------------------------------------------------------------------- decode errors


def test_decode_errors_are_counted_by_reason_key(sockets, relays) -> None:
    """GIVEN a SITL link WHEN a short servo packet, a wrong magic and broken JSON pass
    THEN each direction lists the reason keys, most frequent first."""
    clock = ManualClock(100.0)
    peer, target = sockets(), sockets()
    relay = relays(RelayConfig("sitl", protocol="ardupilot-json", target=address_of(target)), clock=clock)
    monitor = BridgeMonitor([relay], clock=clock)
    peer.sendto(servo(1), relay.listen_address)
    _data, via = receive(target)
    bad_magic = struct.pack("<HHI16H", 1234, 400, 2, *([1500] * 16))
    for datagram in (servo(2)[:39], servo(3)[:39], bad_magic):
        peer.sendto(datagram, relay.listen_address)
        receive(target)
    target.sendto(b'\n{"timestamp": oops\n', via)
    receive(peer)

    snapshot = poll_until(monitor.poll, lambda s: link_packets(s) == (4, 1), "4 + 1 packets")

    link = snapshot.links[0]
    assert link.from_peer.decode_errors == (("truncated", 2), ("magic", 1))
    assert link.from_peer.decode_error_total == 3
    assert link.from_target.decode_errors == (("json", 1),)


def test_rflysim_checksum_failures_are_counted(sockets, relays) -> None:
    """GIVEN an RflySim tap WHEN a SIL packet with a bad checksum and a good one arrive
    THEN one checksum failure is counted and the good packet is summarised."""
    sender = sockets()
    relay = relays(RelayConfig("rfly", protocol="rflysim"))
    monitor = BridgeMonitor([relay])
    send_all(sender, relay, [sil(checksum=42), sil(copter_id=3)])

    direction = (
        poll_until(monitor.poll, lambda s: s.links[0].from_peer.packets == 2, "2 packets").links[0].from_peer
    )

    assert direction.order.checksum_failures == 1
    assert direction.decode_errors == (("checksum", 1),)
    assert direction.last_frame is not None
    assert direction.last_frame.kind == "rflysim-sil"
    assert dict(direction.last_frame.fields)[FrameField.COPTER_ID] == 3
    assert dict(direction.last_frame.fields)[FrameField.CHECKSUM] == 1234567897


def test_a_capture_cut_by_the_recording_limit_is_still_checked_in_full_but_not_shown(sockets, relays) -> None:
    """GIVEN a recording limit of 50 bytes WHEN a 72-byte servo packet arrives
    THEN its header checks ran on all 72 bytes (no decode error), the relay reports the truncated
    capture and no half frame is shown."""
    sender = sockets()
    relay = relays(RelayConfig("tap", protocol="ardupilot-json", max_record_bytes=50))
    monitor = BridgeMonitor([relay])
    send_all(sender, relay, [struct.pack("<HHI32H", 29569, 400, 1, *([1500] * 32))])

    link = poll_until(monitor.poll, lambda s: s.links[0].from_peer.packets == 1, "1 packet").links[0]

    assert link.from_peer.bytes == 72
    assert link.from_peer.decode_errors == ()
    assert link.from_peer.last_frame is None
    assert (REASON_TRUNCATED_CAPTURES, 1) in link.relay_errors


# --------------------------------------------------------------------------- protocol bookkeeping


def test_sitl_frame_count_repeats_gaps_and_resets_are_counted(sockets, relays) -> None:
    """GIVEN frame counts 1 2 2 3 6 7 0 1 WHEN monitored
    THEN one repeat (2 2), one gap (3 to 6) and one reset (7 to 0) are counted."""
    sender = sockets()
    relay = relays(RelayConfig("sitl", protocol="ardupilot-json"))
    monitor = BridgeMonitor([relay])
    send_all(sender, relay, [servo(frame) for frame in (1, 2, 2, 3, 6, 7, 0, 1)])

    direction = (
        poll_until(monitor.poll, lambda s: s.links[0].from_peer.packets == 8, "8 packets").links[0].from_peer
    )

    assert direction.order == OrderCounts(frame_repeats=1, frame_gaps=1, frame_resets=1)
    assert direction.last_frame is not None
    assert direction.last_frame.kind == "servo16"
    fields = dict(direction.last_frame.fields)
    assert fields[FrameField.FRAME_COUNT] == 1
    assert fields[FrameField.FRAME_RATE] == 400
    assert fields[FrameField.PWM] == (1100, 1110, 1120, 1130, 1140, 1150, 1160, 1170)


def test_a_stray_senders_frame_counts_do_not_disturb_the_peers_bookkeeping(sockets, relays) -> None:
    """GIVEN a SITL relay whose peer counts 1 2 3 4 WHEN a stray sender slips in frame 100 after 3
    THEN no gap or reset is counted, yet the stray packet is still counted as traffic."""
    peer, stray, target = sockets(), sockets(), sockets()
    relay = relays(RelayConfig("sitl", protocol="ardupilot-json", target=address_of(target)))
    monitor = BridgeMonitor([relay])
    for frame in (1, 2, 3):
        peer.sendto(servo(frame), relay.listen_address)
        receive(target)
    stray.sendto(servo(100), relay.listen_address)
    poll_until(monitor.poll, lambda s: s.links[0].unexpected_senders == 1, "stray counted")
    peer.sendto(servo(4), relay.listen_address)
    receive(target)

    link = poll_until(monitor.poll, lambda s: s.links[0].from_peer.packets == 5, "5 packets").links[0]

    assert link.from_peer.order == OrderCounts()
    assert link.from_peer.senders_seen == 2


def test_a_frame_count_wrapping_at_32_bits_is_not_a_reset(sockets, relays) -> None:
    """GIVEN frame counts 2**32-2, 2**32-1, 0, 1 WHEN monitored THEN no reset, gap or repeat is counted."""
    sender = sockets()
    relay = relays(RelayConfig("sitl", protocol="ardupilot-json"))
    monitor = BridgeMonitor([relay])
    send_all(sender, relay, [servo(frame) for frame in (2**32 - 2, 2**32 - 1, 0, 1)])

    direction = (
        poll_until(monitor.poll, lambda s: s.links[0].from_peer.packets == 4, "4 packets").links[0].from_peer
    )

    assert direction.order == OrderCounts()


def test_xrp_sequence_gaps_and_stale_datagrams_are_counted_across_the_wrap(sockets, relays) -> None:
    """GIVEN XRP sequences 65534 65535 0 1 3 2 3 WHEN monitored
    THEN the wrap is clean, 1 to 3 is one gap, and the late 2 and repeated 3 are stale."""
    sender = sockets()
    relay = relays(RelayConfig("xrp", protocol="xrp"))
    monitor = BridgeMonitor([relay])
    send_all(sender, relay, [xrp_datagram(seq) for seq in (65534, 65535, 0, 1, 3, 2, 3)])

    direction = (
        poll_until(monitor.poll, lambda s: s.links[0].from_peer.packets == 7, "7 packets").links[0].from_peer
    )

    assert (direction.order.sequence_gaps, direction.order.stale_sequences) == (1, 2)
    assert direction.last_frame is not None
    assert direction.last_frame.kind == "xrp"
    blocks = ((("motor", 0), ("dio", 0)), 2)
    assert dict(direction.last_frame.fields) == {"sequence": 3, "control": 1, "blocks": blocks}


def test_a_restarted_xrp_sender_is_followed_after_a_few_stale_datagrams(sockets, relays) -> None:
    """GIVEN an XRP sender at sequence 5000 that restarts at 0
    WHEN it keeps counting 0 1 2 3 4 THEN three are stale, the count is then followed with no gaps."""
    sender = sockets()
    relay = relays(RelayConfig("xrp", protocol="xrp"))
    monitor = BridgeMonitor([relay])
    send_all(sender, relay, [xrp_datagram(seq) for seq in (4999, 5000, 0, 1, 2, 3, 4)])

    direction = (
        poll_until(monitor.poll, lambda s: s.links[0].from_peer.packets == 7, "7 packets").links[0].from_peer
    )

    assert (direction.order.stale_sequences, direction.order.sequence_gaps) == (3, 0)


def test_json_state_summary_shows_timestamp_rc_and_the_decoder_warnings(sockets, relays) -> None:
    """GIVEN a JSON state with two RC channels and a SITL pitfall (a space before true)
    WHEN monitored THEN the summary shows its timestamp, RC values and exactly the decoder's warnings."""
    sender = sockets()
    relay = relays(RelayConfig("sitl", protocol="ardupilot-json"))
    monitor = BridgeMonitor([relay])
    send_all(sender, relay, [JSON_STATE])

    frame = (
        poll_until(monitor.poll, lambda s: s.links[0].from_peer.packets == 1, "1 packet")
        .links[0]
        .from_peer.last_frame
    )

    assert frame is not None
    assert frame.kind == "json-state"
    assert dict(frame.fields) == {"timestamp": 2.5, "rc": (1500.0, 1600.0)}
    assert frame.warnings == ardupilot_json.decode_state(JSON_STATE).warnings


# --------------------------------------------------------------------------- auto detection and relay faults


def test_auto_links_detect_each_datagram_and_flag_unrecognised_ones(sockets, relays) -> None:
    """GIVEN an auto tap WHEN a servo packet, an XRP datagram and two unrecognisable bytes arrive
    THEN the detected protocol follows the content and the two bytes count as unrecognised."""
    sender = sockets()
    relay = relays(RelayConfig("auto"))
    monitor = BridgeMonitor([relay])
    assert monitor.snapshot.links[0].detected_protocol is None

    send_all(sender, relay, [servo(9)])
    first = poll_until(monitor.poll, lambda s: s.links[0].from_peer.packets == 1, "servo").links[0]
    send_all(sender, relay, [servo(9), xrp_datagram(4), b"\xff\xff"])
    second = poll_until(monitor.poll, lambda s: s.links[0].from_peer.packets == 4, "all").links[0]

    assert first.detected_protocol == "ardupilot-json"
    assert first.from_peer.last_frame is not None
    assert first.from_peer.last_frame.kind == "servo16"
    assert second.detected_protocol == "xrp"
    assert second.from_peer.last_frame is not None
    assert second.from_peer.last_frame.kind == "xrp"
    assert second.from_peer.decode_errors == ((REASON_UNRECOGNISED, 1),)
    assert second.protocol == "auto"


def test_unexpected_senders_reach_the_snapshot(sockets, relays) -> None:
    """GIVEN a relay with a learned peer WHEN a stranger sends to the listen port
    THEN the link counts an unexpected sender and the direction has seen two senders."""
    peer, stranger, target = sockets(), sockets(), sockets()
    relay = relays(RelayConfig("x", target=address_of(target)))
    monitor = BridgeMonitor([relay])
    peer.sendto(b"\x00\x01\x00", relay.listen_address)
    receive(target)
    stranger.sendto(b"\x00\x02\x00", relay.listen_address)

    link = poll_until(monitor.poll, lambda s: s.links[0].from_peer.packets == 2, "2 packets").links[0]

    assert link.unexpected_senders == 1
    assert (link.from_peer.senders_seen, link.from_peer.multiple_senders) == (2, True)
    assert link.peer == f"{LOOPBACK}:{address_of(peer)[1]}"


def test_replies_without_peer_and_dropped_captures_are_reported(sockets, relays) -> None:
    """GIVEN a SITL relay without a learned peer and a ring of 2
    WHEN the target sends three datagrams THEN the link reports replies before any peer and one drop."""
    peer, target = sockets(), sockets()
    relay = relays(RelayConfig("x", protocol="ardupilot-json", target=address_of(target), ring_size=2))
    peer.sendto(b"not a servo packet", relay.listen_address)  # forwarded, peer not learned
    receive(target)
    outbound = relay.outbound_address
    assert outbound is not None
    for _reply in range(2):
        target.sendto(b"\n{}\n", (LOOPBACK, outbound[1]))
    end = time.monotonic() + DEADLINE_S
    while relay.counters().received_from_target < 2:
        assert time.monotonic() < end, "replies did not arrive"
        time.sleep(0.005)
    monitor = BridgeMonitor([relay])

    link = poll_until(monitor.poll, lambda s: s.links[0].from_target.packets == 2, "2 replies").links[0]

    assert (REASON_NO_PEER, 2) in link.relay_errors
    assert link.dropped_captures == 1
    assert link.peer is None


def test_a_stopped_relay_shows_as_not_running(relays) -> None:
    """GIVEN a monitored relay WHEN it is stopped THEN the next snapshot says it is not running."""
    relay = relays(RelayConfig("x"))
    monitor = BridgeMonitor([relay])
    assert monitor.poll().links[0].running
    relay.stop()
    link: LinkSnapshot = monitor.poll().links[0]
    assert not link.running
    assert link.listen_only


def test_snapshots_are_immutable(relays) -> None:
    """GIVEN a snapshot WHEN someone tries to change it THEN it refuses."""
    snapshot = BridgeMonitor([relays(RelayConfig("x"))]).poll()
    with pytest.raises(dataclasses.FrozenInstanceError):
        snapshot.links[0].from_peer.packets = 5  # type: ignore[misc]


# --------------------------------------------------------------------------- faults and changing relays


class FaultyRelay(UdpRelay):
    """A relay whose counters cannot be read: the fault a monitor must survive."""

    def counters(self) -> RelayCounters:
        raise RuntimeError("counters unavailable")


def test_a_decoder_fault_is_counted_and_the_monitor_keeps_decoding(sockets, relays, monkeypatch) -> None:
    """GIVEN a JSON decoder that crashes with a non-codec exception WHEN a JSON state is shown
    THEN the direction counts a decoder fault, and once the decoder works again new frames are shown."""
    sender = sockets()
    relay = relays(RelayConfig("sitl", protocol="ardupilot-json"))
    monitor = BridgeMonitor([relay])
    working = ardupilot_json.decode_state

    def crash(data: bytes) -> ardupilot_json.FdmState:
        raise RuntimeError("decoder bug")

    monkeypatch.setattr(ardupilot_json, "decode_state", crash)
    send_all(sender, relay, [JSON_STATE])
    faulted = poll_until(monitor.poll, lambda s: s.links[0].from_peer.decode_errors != (), "fault").links[0]
    monkeypatch.setattr(ardupilot_json, "decode_state", working)
    send_all(sender, relay, [JSON_STATE])
    recovered = poll_until(
        monitor.poll, lambda s: s.links[0].from_peer.last_frame is not None, "frame"
    ).links[0]

    assert faulted.from_peer.decode_errors == ((REASON_DECODER_FAULT, 1),)
    assert recovered.from_peer.last_frame is not None
    assert recovered.from_peer.last_frame.kind == "json-state"


def test_a_relay_that_fails_to_report_is_counted_and_the_other_links_stay_live(sockets, relays) -> None:
    """GIVEN two links, one whose relay raises when its counters are read
    WHEN the monitor polls THEN the healthy link shows its traffic and the faulty one a monitor fault."""
    sender = sockets()
    healthy = relays(RelayConfig("healthy"))
    faulty = FaultyRelay(RelayConfig("faulty"))
    faulty.start()
    try:
        monitor = BridgeMonitor([faulty, healthy])
        send_all(sender, healthy, [servo(1)])

        snapshot = poll_until(monitor.poll, lambda s: s.links[1].from_peer.packets == 1, "healthy traffic")

        assert [link.name for link in snapshot.links] == ["faulty", "healthy"]
        assert dict(snapshot.links[0].relay_errors)[REASON_MONITOR_FAULT] >= 1
        assert snapshot.links[1].relay_errors == ()
    finally:
        faulty.stop()


def test_relays_added_and_removed_later_keep_every_other_links_statistics(sockets, relays) -> None:
    """GIVEN a monitor whose link has counted 3 packets WHEN a second relay is added and later removed
    THEN the first link still shows its 3 packets and its last frame throughout."""
    clock = ManualClock(100.0)
    sender = sockets()
    first = relays(RelayConfig("first", protocol="ardupilot-json"), clock=clock)
    monitor = BridgeMonitor([first], clock=clock)
    send_all(sender, first, [servo(frame) for frame in (1, 2, 3)])
    before = poll_until(monitor.poll, lambda s: s.links[0].from_peer.last_frame is not None, "frame").links[0]
    second = relays(RelayConfig("second"))

    monitor.add_relays([second])
    both = monitor.poll()
    monitor.remove_relays([second])
    after = monitor.poll()

    assert [link.name for link in both.links] == ["first", "second"]
    assert both.links[0].from_peer == before.from_peer
    assert [link.name for link in after.links] == ["first"]
    assert after.links[0].from_peer.packets == 3
    assert after.links[0].from_peer.last_frame == before.from_peer.last_frame
    assert monitor.relays == (first,)


# --------------------------------------------------------------------------- rate window


@given(
    rate=st.integers(5, 2000),
    start=st.floats(0, 1e6, allow_nan=False),
    extra=st.floats(0, 5, allow_nan=False),
)
def test_steady_traffic_reads_within_one_bucket_of_its_true_rate(
    rate: int, start: float, extra: float
) -> None:
    """GIVEN packets at a steady rate for longer than the window WHEN the rate is read
    THEN it is within one bucket's worth (1/8 of the window) plus one packet of the true rate."""
    window = RateWindow(window_s=1.0, buckets=8)
    interval = 1.0 / rate
    count = int((1.0 + extra) * rate) + rate
    for index in range(count):
        window.add(start + index * interval, 10)
    now = start + (count - 1) * interval
    packets_per_s, bytes_per_s = window.rates(now)
    assert abs(packets_per_s - rate) <= rate / 8 + 2
    assert bytes_per_s == pytest.approx(packets_per_s * 10)


def test_the_rate_window_refuses_nonsense_sizes() -> None:
    """GIVEN a zero-width window WHEN made THEN ValueError."""
    with pytest.raises(ValueError, match="positive width"):
        RateWindow(window_s=0.0)
