# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The UDP relay on real loopback sockets: forwarding, peer learning, faults, floods and shutdown.

Every socket binds 127.0.0.1 port 0.  Arrival is awaited with polling loops and generous
deadlines; nothing asserts how long anything took.
"""

from __future__ import annotations

import socket
import struct
import sys
import threading
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amc_rc_receiver.sim_bridge.capture_ring import RECORD_OVERHEAD_BYTES, CaptureRecord, CaptureRing
from amc_rc_receiver.sim_bridge.relay import UdpRelay
from amc_rc_receiver.sim_bridge.relay_addresses import format_address
from amc_rc_receiver.sim_bridge.relay_config import RelayConfig, RelayError
from amc_rc_receiver.sim_bridge.snapshot import Direction
from tests.support.udp import (
    DEADLINE_S,
    LOOPBACK,
    MAX_DATAGRAM,
    POLL_TIMEOUT_S,
    address_of,
    receive,
    udp_socket,
)
from tests.support.waiting import wait_for

pytestmark = pytest.mark.loopback

# ICMP "port unreachable" reaches unconnected UDP sockets on Linux (with IP_RECVERR) and Windows.
ICMP_REPORTED = sys.platform.startswith("linux") or sys.platform == "win32"


def servo_packet(frame_count: int, pwm: int = 1500) -> bytes:
    """A 16-channel SITL servo packet (PROTOCOLS.md A.2), built independently of the codecs."""
    return struct.pack("<HHI16H", 18458, 400, frame_count, *([pwm] * 16))


def nothing_arrives(sock: socket.socket, settle_s: float = 0.2) -> bool:
    """True when no datagram shows up within a short settle time (used only after a barrier)."""
    sock.settimeout(settle_s)
    try:
        sock.recvfrom(MAX_DATAGRAM)
    except TimeoutError:
        return True
    finally:
        sock.settimeout(POLL_TIMEOUT_S)
    return False


def outbound_on_loopback(relay: UdpRelay) -> tuple[str, int]:
    outbound = relay.outbound_address
    assert outbound is not None
    return LOOPBACK, outbound[1]


# --------------------------------------------------------------------------- forwarding


def test_datagrams_flow_both_ways_once_the_peer_is_learned(sockets, relays) -> None:
    """GIVEN a relay between a SITL-like peer and a physics target
    WHEN the peer sends a servo packet and the target replies to the relay
    THEN the target gets the packet from the relay, the reply reaches the peer and the peer is learned."""
    peer, target = sockets(), sockets()
    relay = relays(RelayConfig("sitl", protocol="ardupilot-json", target=address_of(target)))
    peer.sendto(servo_packet(1), relay.listen_address)

    data, via = receive(target)
    assert data == servo_packet(1)
    assert relay.peer == address_of(peer)
    target.sendto(b'\n{"timestamp":1}\n', via)
    reply, reply_source = receive(peer)

    assert reply == b'\n{"timestamp":1}\n'
    assert reply_source == relay.listen_address
    # The relay counts a forward after sendto() returns, which may be after the datagram arrived.
    wait_for(lambda: relay.counters().forwarded_from_target == 1, "reply counted")
    counters = relay.counters()
    assert (counters.forwarded_from_peer, counters.forwarded_from_target) == (1, 1)
    assert counters.forwarded(Direction.FROM_PEER) == 1


def test_every_forwarded_datagram_is_recorded_after_forwarding(sockets, relays) -> None:
    """GIVEN a relay WHEN datagrams pass both ways
    THEN the ring holds them in order with direction and source."""
    peer, target = sockets(), sockets()
    relay = relays(RelayConfig("rec", target=address_of(target)))
    peer.sendto(b"one", relay.listen_address)
    _data, via = receive(target)
    target.sendto(b"two", via)
    receive(peer)

    records: list[CaptureRecord] = []
    wait_for(lambda: bool(records.extend(relay.drain(10))) or len(records) >= 2, "two records")

    assert [(r.direction, r.data, r.forwarded) for r in records] == [
        (Direction.FROM_PEER, b"one", True),
        (Direction.FROM_TARGET, b"two", True),
    ]
    assert records[0].source == address_of(peer)
    assert records[1].source == address_of(target)


def test_an_invalid_first_datagram_is_forwarded_but_does_not_become_the_peer(sockets, relays) -> None:
    """GIVEN an ardupilot-json relay WHEN the first datagram is not a servo packet
    THEN it still reaches the target but no peer is learned until a valid servo packet arrives."""
    peer, target = sockets(), sockets()
    relay = relays(RelayConfig("sitl", protocol="ardupilot-json", target=address_of(target)))
    peer.sendto(b"garbage", relay.listen_address)
    assert receive(target)[0] == b"garbage"
    assert relay.peer is None

    peer.sendto(servo_packet(7), relay.listen_address)
    assert receive(target)[0] == servo_packet(7)
    assert relay.peer == address_of(peer)


def test_replies_before_any_peer_are_counted_and_not_forwarded(sockets, relays) -> None:
    """GIVEN a relay that has not learned a peer
    WHEN the target sends to the relay's outbound socket
    THEN the reply is recorded as not forwarded and counted as a reply without peer."""
    peer, target = sockets(), sockets()
    relay = relays(RelayConfig("sitl", protocol="ardupilot-json", target=address_of(target)))
    peer.sendto(b"not servo", relay.listen_address)  # forwarded, but no peer learned
    receive(target)

    target.sendto(b"early reply", outbound_on_loopback(relay))
    records: list[CaptureRecord] = []
    wait_for(lambda: bool(records.extend(relay.drain(10))) or len(records) >= 2, "reply recorded")

    assert relay.counters().replies_without_peer == 1
    assert nothing_arrives(peer)
    assert relay.counters().forwarded_from_target == 0
    assert [(r.direction, r.data, r.forwarded) for r in records][-1] == (
        Direction.FROM_TARGET,
        b"early reply",
        False,
    )


# --------------------------------------------------------------------------- bound addresses


def test_a_loopback_target_is_reached_from_a_loopback_outbound_socket(sockets, relays) -> None:
    """GIVEN a relay on the default listen address with a target on 127.0.0.1
    WHEN it starts THEN its outbound socket is bound to 127.0.0.1, not to every interface."""
    relay = relays(RelayConfig("x", target=address_of(sockets())))

    outbound = relay.outbound_address

    assert relay.listen_address[0] == LOOPBACK
    assert outbound is not None
    assert outbound[0] == LOOPBACK


def test_a_remote_target_never_gets_a_wildcard_outbound_socket_unless_the_user_named_one(relays) -> None:
    """GIVEN a target outside the loopback (a documentation address, never sent to)
    WHEN a relay listens on 127.0.0.1, and another on the wildcard the user named
    THEN the first outbound socket is bound to one interface and only the second to the wildcard."""
    named = relays(RelayConfig("lan", target=("192.0.2.1", 9)))
    wildcard = relays(RelayConfig("any", listen=("0.0.0.0", 0), target=("192.0.2.1", 9)))

    assert named.outbound_address is not None
    assert named.outbound_address[0] != "0.0.0.0"
    assert wildcard.outbound_address is not None
    assert wildcard.outbound_address[0] == "0.0.0.0"


# --------------------------------------------------------------------------- unexpected senders


def test_a_second_sender_on_the_listen_side_is_counted_and_neither_forwarded_nor_recorded(
    sockets, relays
) -> None:
    """GIVEN a relay that learned its peer WHEN another address sends to the listen port
    THEN the target never sees it, the sender is counted and nothing of it waits in the capture ring."""
    peer, intruder, target = sockets(), sockets(), sockets()
    relay = relays(RelayConfig("x", target=address_of(target)))
    peer.sendto(b"hello", relay.listen_address)
    receive(target)

    intruder.sendto(b"intrusion", relay.listen_address)
    wait_for(lambda: relay.counters().unexpected_senders == 1, "intruder counted")
    peer.sendto(b"still here", relay.listen_address)

    assert receive(target)[0] == b"still here"  # the intruder's datagram was never in between
    assert relay.peer == address_of(peer)
    wait_for(lambda: relay.counters().forwarded_from_peer == 2, "second datagram counted")
    recorded = []
    wait_for(lambda: bool(recorded.extend(relay.drain(10))) or len(recorded) >= 2, "two records")
    assert [(r.data, r.source) for r in recorded] == [
        (b"hello", address_of(peer)),
        (b"still here", address_of(peer)),
    ]
    traffic = relay.traffic()[Direction.FROM_PEER]
    assert (traffic.packets, traffic.unexpected, traffic.senders_seen) == (3, 1, 2)


def test_a_stranger_on_the_outbound_side_is_counted_and_not_forwarded(sockets, relays) -> None:
    """GIVEN a relay with a learned peer WHEN an address other than the target sends to its outbound socket
    THEN the peer never receives it and it is counted as an unexpected sender."""
    peer, stranger, target = sockets(), sockets(), sockets()
    relay = relays(RelayConfig("x", target=address_of(target)))
    peer.sendto(b"hello", relay.listen_address)
    _data, via = receive(target)

    stranger.sendto(b"spoof", outbound_on_loopback(relay))
    wait_for(lambda: relay.counters().unexpected_senders == 1, "stranger counted")
    target.sendto(b"genuine", via)

    assert receive(peer)[0] == b"genuine"
    wait_for(lambda: relay.counters().forwarded_from_target == 1, "reply counted")
    assert relay.counters().unexpected_senders == 1


def test_only_allowed_hosts_can_become_the_peer(sockets, relays) -> None:
    """GIVEN a relay that only accepts peers from 192.0.2.1 WHEN a loopback sender sends
    THEN nothing is forwarded, no peer is learned and the sender is counted as unexpected."""
    peer, target = sockets(), sockets()
    relay = relays(RelayConfig("x", target=address_of(target), allowed_peers=("192.0.2.1",)))
    peer.sendto(b"hello", relay.listen_address)
    wait_for(lambda: relay.counters().unexpected_senders == 1, "refused sender")

    assert relay.peer is None
    assert nothing_arrives(target)


def test_a_silent_peer_can_be_replaced_when_relearning_is_enabled(sockets, relays) -> None:
    """GIVEN relearning after 2 s of silence and an injected clock
    WHEN a new sender's valid packet arrives 1 s and then 3 s after the peer's last packet
    THEN the first is refused and the second makes the new sender the peer."""
    now = [100.0]
    old_peer, new_peer, target = sockets(), sockets(), sockets()
    relay = relays(
        RelayConfig("sitl", protocol="ardupilot-json", target=address_of(target), relearn_after_s=2.0),
        clock=lambda: now[0],
    )
    old_peer.sendto(servo_packet(1), relay.listen_address)
    receive(target)

    now[0] = 101.0
    new_peer.sendto(servo_packet(0), relay.listen_address)
    wait_for(lambda: relay.counters().unexpected_senders == 1, "early newcomer refused")
    now[0] = 103.5
    new_peer.sendto(servo_packet(0), relay.listen_address)

    assert receive(target)[0] == servo_packet(0)
    assert relay.peer == address_of(new_peer)
    assert relay.counters().peer_changes == 1


# --------------------------------------------------------------------------- faults


@pytest.mark.skipif(not ICMP_REPORTED, reason="this OS hides ICMP errors from unconnected UDP sockets")
def test_an_unreachable_target_is_counted_and_relaying_resumes_when_it_returns(sockets, relays) -> None:
    """GIVEN a relay whose target port is closed
    WHEN the peer keeps sending and the target then starts listening on that port
    THEN ICMP port-unreachable reports are counted and traffic reaches the returned target."""
    placeholder = udp_socket()
    target_address = address_of(placeholder)
    placeholder.close()
    peer = sockets()
    relay = relays(RelayConfig("x", target=target_address))

    def unreachable_reported() -> bool:
        peer.sendto(b"anyone?", relay.listen_address)
        time.sleep(0.01)
        return relay.counters().error_count("port-unreachable") >= 2

    wait_for(unreachable_reported, "ICMP reports")
    try:
        target = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        target.bind(target_address)
    except OSError:
        pytest.skip("the ephemeral port was taken by someone else meanwhile")
    target.settimeout(0.05)
    try:
        peer.sendto(b"back again", relay.listen_address)
        data, via = receive(target)
        while data != b"back again":
            data, via = receive(target)
        target.sendto(b"reply", via)
        assert receive(peer)[0] == b"reply"
    finally:
        target.close()
    assert relay.running


@pytest.mark.skipif(not ICMP_REPORTED, reason="this OS hides ICMP errors from unconnected UDP sockets")
def test_a_vanished_peer_is_counted_and_the_relay_keeps_running(sockets, relays) -> None:
    """GIVEN a learned peer that closes its socket
    WHEN the target keeps replying
    THEN port-unreachable is counted and the relay still forwards to the target."""
    peer, target = sockets(), sockets()
    relay = relays(RelayConfig("x", target=address_of(target)))
    peer.sendto(b"hello", relay.listen_address)
    _data, via = receive(target)
    peer.close()

    def unreachable_reported() -> bool:
        target.sendto(b"reply", via)
        time.sleep(0.01)
        return relay.counters().error_count("port-unreachable") >= 1

    wait_for(unreachable_reported, "ICMP report for the vanished peer")
    assert relay.running
    assert relay.counters().forwarded_from_target >= 1


def test_empty_datagrams_are_counted_and_dropped(sockets, relays) -> None:
    """GIVEN a relay WHEN the peer sends an empty datagram and then a normal one
    THEN only the normal one is forwarded and the empty one is counted."""
    peer, target = sockets(), sockets()
    relay = relays(RelayConfig("x", target=address_of(target)))
    peer.sendto(b"", relay.listen_address)
    peer.sendto(b"payload", relay.listen_address)

    assert receive(target)[0] == b"payload"
    wait_for(lambda: relay.counters().error_count("empty") == 1, "empty counted")


def test_large_datagrams_are_forwarded_whole_but_recorded_truncated(sockets, relays) -> None:
    """GIVEN a recording limit of 100 bytes WHEN a 60,000-byte datagram passes
    THEN the target gets all of it and the record keeps 100 bytes plus the real length."""
    peer, target = sockets(), sockets()
    relay = relays(RelayConfig("x", target=address_of(target), max_record_bytes=100))
    payload = bytes(range(256)) * 234 + b"end"
    peer.sendto(payload, relay.listen_address)

    assert receive(target)[0] == payload
    records: list[CaptureRecord] = []
    wait_for(lambda: bool(records.extend(relay.drain(10))) or bool(records), "record")
    assert records[0].data == payload[:100]
    assert records[0].length == len(payload)
    assert records[0].truncated
    assert relay.counters().truncated_captures == 1


def test_a_flood_keeps_memory_bounded_counts_drops_and_still_forwards(sockets, relays) -> None:
    """GIVEN a ring of 256 records WHEN 20,000 datagrams flood in without anyone draining
    THEN the ring never holds more than 256, the overwritten ones are counted exactly
    and a final datagram still reaches the target."""
    peer, target = sockets(), sockets()
    target.setblocking(False)
    relay = relays(RelayConfig("flood", target=address_of(target), ring_size=256))
    received_at_target = 0

    def drain_target() -> bool:
        nonlocal received_at_target
        found = False
        while True:
            try:
                data = target.recv(2048)
            except BlockingIOError:
                return found
            received_at_target += 1
            found = found or data == b"last"

    for index in range(20_000):
        peer.sendto(index.to_bytes(4, "little"), relay.listen_address)
        if index % 200 == 0:
            drain_target()
            assert relay.pending_records <= 256

    def last_arrived() -> bool:
        peer.sendto(b"last", relay.listen_address)
        time.sleep(0.01)
        return drain_target()

    wait_for(last_arrived, "the final datagram at the target")
    previous = [-1, -1]

    def quiet() -> bool:
        # The relay counts before it records, so wait until both stop moving.
        current = [relay.counters().received_from_peer, relay.pending_records]
        settled = current == previous
        previous[:] = current
        time.sleep(0.05)
        return settled

    wait_for(quiet, "the relay to go quiet")
    counters = relay.counters()
    records = relay.drain(100_000)
    assert len(records) <= 256
    assert counters.dropped_captures > 0
    assert counters.dropped_captures == counters.received_from_peer - len(records)
    assert records[-1].data == b"last"
    assert received_at_target >= 256


def test_listen_only_mode_records_without_forwarding(sockets, relays) -> None:
    """GIVEN a relay without target WHEN a sender sends THEN the datagrams are recorded, not forwarded."""
    sender = sockets()
    relay = relays(RelayConfig("tap", protocol="xrp"))
    assert relay.outbound_address is None
    sender.sendto(b"\x00\x01\x01", relay.listen_address)
    sender.sendto(b"\x00\x02\x01", relay.listen_address)

    records: list[CaptureRecord] = []
    wait_for(lambda: bool(records.extend(relay.drain(10))) or len(records) >= 2, "two records")
    assert [(r.data, r.forwarded, r.direction) for r in records] == [
        (b"\x00\x01\x01", False, Direction.FROM_PEER),
        (b"\x00\x02\x01", False, Direction.FROM_PEER),
    ]
    counters = relay.counters()
    assert (counters.received_from_peer, counters.forwarded_from_peer) == (2, 0)


# --------------------------------------------------------------------------- lifecycle


def test_stop_ends_the_thread_closes_the_port_and_can_be_repeated(sockets) -> None:
    """GIVEN a running relay WHEN stop() is called twice THEN the thread has ended, the port is free
    and nothing raises."""
    relay = UdpRelay(RelayConfig("x", target=address_of(sockets())))
    relay.start()
    address = relay.listen_address
    assert relay.running

    relay.stop(timeout=DEADLINE_S)
    relay.stop()

    assert not relay.running
    assert not relay.alive
    rebound = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        rebound.bind(address)  # the relay released its port
    finally:
        rebound.close()


def test_stop_before_start_is_harmless_and_a_stopped_relay_cannot_restart() -> None:
    """GIVEN a relay that never started WHEN stopped THEN nothing happens; starting twice is refused."""
    relay = UdpRelay(RelayConfig("x"))
    relay.stop()
    with UdpRelay(RelayConfig("y")) as running:
        assert running.running
        with pytest.raises(RuntimeError, match="only be started once"):
            running.start()
    assert not running.running


def test_stop_is_prompt_even_while_traffic_flows(sockets) -> None:
    """GIVEN a relay under constant traffic WHEN stop() is called THEN the thread ends within the deadline."""
    peer, target = sockets(), sockets()
    relay = UdpRelay(RelayConfig("busy", target=address_of(target)))
    relay.start()
    keep_sending = threading.Event()
    keep_sending.set()

    def send_forever() -> None:
        while keep_sending.is_set():
            peer.sendto(b"x", relay.listen_address)
            time.sleep(0.0005)

    sender = threading.Thread(target=send_forever, daemon=True)
    sender.start()
    wait_for(lambda: relay.counters().forwarded_from_peer > 10, "traffic")
    relay.stop(timeout=DEADLINE_S)
    keep_sending.clear()
    sender.join(DEADLINE_S)
    assert not relay.alive


def test_a_port_in_use_gives_a_readable_error(sockets) -> None:
    """GIVEN a port already bound WHEN a relay tries to listen there THEN RelayError names the address."""
    occupied = sockets()
    relay = UdpRelay(RelayConfig("x", listen=address_of(occupied)))
    with pytest.raises(RelayError, match=format_address(address_of(occupied)) or ""):
        relay.start()
    relay.stop()


def test_unknown_protocols_and_empty_rings_are_refused() -> None:
    """GIVEN bad configuration values WHEN a RelayConfig is built THEN a readable ValueError says why."""
    with pytest.raises(ValueError, match="Unknown bridge protocol 'mavlink'"):
        RelayConfig("x", protocol="mavlink")
    with pytest.raises(ValueError, match="at least one datagram"):
        RelayConfig("x", ring_size=0)


def test_ipv6_loopback_relays_when_available(relays) -> None:
    """GIVEN an IPv6 loopback relay WHEN a peer sends
    THEN the target receives it and the address is shown in brackets."""
    try:
        peer = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
        peer.bind(("::1", 0))
        target = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
        target.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback on this machine")
    target.settimeout(0.05)
    try:
        relay = relays(RelayConfig("v6", listen=("::1", 0), target=("::1", target.getsockname()[1])))
        peer.sendto(b"six", relay.listen_address)
        assert receive(target)[0] == b"six"
        assert format_address(relay.listen_address) == f"[::1]:{relay.listen_address[1]}"
    finally:
        peer.close()
        target.close()


# --------------------------------------------------------------------------- capture ring


@given(capacity=st.integers(1, 50), appended=st.integers(0, 200), drained=st.integers(0, 300))
def test_the_ring_never_exceeds_capacity_and_accounts_for_every_record(
    capacity: int, appended: int, drained: int
) -> None:
    """GIVEN any capacity WHEN records are appended and drained THEN kept + dropped + drained == appended
    and the newest records survive, oldest first."""
    ring = CaptureRing(capacity)
    for index in range(appended):
        ring.append(CaptureRecord(float(index), Direction.FROM_PEER, (LOOPBACK, 1), b""))
        assert len(ring) <= capacity
    taken = ring.drain(drained)
    assert len(ring) + ring.dropped + len(taken) == appended
    survivors = list(range(max(0, appended - capacity), appended))
    assert [record.timestamp for record in taken] == [float(i) for i in survivors[:drained]]


def test_a_ring_needs_room_for_one_record() -> None:
    """GIVEN capacity 0 WHEN a ring is made THEN ValueError."""
    with pytest.raises(ValueError, match="at least 1"):
        CaptureRing(0)


def test_the_ring_is_bounded_in_bytes_and_counts_every_record_it_overwrites() -> None:
    """GIVEN a ring of 64 KiB WHEN 100 records of 8 KiB are appended
    THEN it never holds more than 64 KiB, keeps the newest and counts the overwritten ones exactly."""
    ring = CaptureRing(capacity=4096, max_bytes=64 * 1024)
    for index in range(100):
        ring.append(CaptureRecord(float(index), Direction.FROM_PEER, (LOOPBACK, 1), bytes(8192)))
        assert ring.bytes <= 64 * 1024
    kept = ring.drain(1000)

    assert len(kept) == (64 * 1024) // (8192 + RECORD_OVERHEAD_BYTES)
    assert ring.dropped == 100 - len(kept)
    assert kept[-1].timestamp == 99.0
    assert ring.bytes == 0


def test_a_flood_of_large_datagrams_holds_no_more_than_the_rings_byte_limit(sockets, relays) -> None:
    """GIVEN a relay whose ring may hold 256 KiB WHEN 200 datagrams of 8 KiB arrive and nobody drains
    THEN the ring holds at most 256 KiB and the records it lost are counted exactly."""
    peer, target = sockets(), sockets()
    relay = relays(RelayConfig("big", target=address_of(target), ring_bytes=256 * 1024))
    payload = bytes(8 * 1024)
    for index in range(200):
        peer.sendto(index.to_bytes(4, "little") + payload[4:], relay.listen_address)
        # One at a time, so that no datagram is lost in a full socket buffer before the relay sees it.
        wait_for(lambda: relay.counters().received_from_peer > index, "the relay keeps up")  # noqa: B023
    wait_for(lambda: relay.pending_records + relay.counters().dropped_captures == 200, "all recorded")
    assert relay.pending_bytes <= 256 * 1024
    assert relay.counters().dropped_captures == 200 - relay.pending_records


def test_the_relay_thread_survives_a_fault_after_forwarding_and_counts_it(
    sockets, relays, monkeypatch
) -> None:
    """GIVEN a capture ring that fails on the first record (a fault in the relay's own bookkeeping)
    WHEN two datagrams pass THEN both reach the target, the fault is counted and the thread runs on."""
    peer, target = sockets(), sockets()
    relay = relays(RelayConfig("x", target=address_of(target)))
    failures = [RuntimeError("ring fault")]
    original = CaptureRing.append

    def append_once_failing(ring: CaptureRing, record: CaptureRecord) -> None:
        if failures:
            raise failures.pop()
        original(ring, record)

    monkeypatch.setattr(CaptureRing, "append", append_once_failing)
    peer.sendto(b"first", relay.listen_address)
    peer.sendto(b"second", relay.listen_address)

    assert receive(target)[0] == b"first"
    assert receive(target)[0] == b"second"
    wait_for(lambda: relay.counters().error_count("internal-error") == 1, "fault counted")
    assert relay.running


# --------------------------------------------------------------------------- no self-loop


def test_a_relay_whose_target_is_its_own_listen_address_is_refused_before_any_socket() -> None:
    """
    GIVEN a relay asked to listen and send on the same address
    WHEN it is configured
    THEN the configuration is refused, saying it would send to itself (one junk datagram used to go
         round at about 44,000 datagrams a second, for ever)
    """
    with udp_socket() as probe:
        port = address_of(probe)[1]
    with pytest.raises(ValueError, match="would send to itself"):
        RelayConfig(name="loop", protocol="ardupilot-json", listen=(LOOPBACK, port), target=(LOOPBACK, port))


def test_a_datagram_from_the_relays_own_outbound_socket_is_never_forwarded(sockets, relays) -> None:
    """
    GIVEN a running relay with a target
    WHEN a datagram arrives on its listen side from its own outbound address (its forwarding came
         back to it)
    THEN it is counted as from an unexpected sender and not sent on: no datagram reaches the target
    """
    target = sockets()
    relay = relays(RelayConfig(name="r", protocol="ardupilot-json", target=address_of(target)))
    own = relay.outbound_address
    assert own is not None

    relay._from_peer(servo_packet(1), own)  # the loop's first turn, fed to the listen side's handler

    assert nothing_arrives(target)
    assert relay.counters().unexpected_senders == 1
    assert relay.traffic()[Direction.FROM_PEER].unexpected == 1
