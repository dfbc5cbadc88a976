# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The simulated vehicle's MAVLink transports: device strings, UDP peers and TCP back-pressure."""

from __future__ import annotations

import select
import socket
import time
import tracemalloc
from collections.abc import Iterator

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.demo.mavlink_link import (
    LinkEndpoint,
    LinkEndpointError,
    LinkKind,
    TcpServerLink,
    UdpLink,
    open_link,
    parse_endpoint,
)
from tests.support.udp import DEADLINE_S, udp_socket
from tests.support.waiting import wait_for

pytestmark = pytest.mark.loopback


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("tcp:127.0.0.1:5760", LinkEndpoint(LinkKind.TCP_SERVER, "127.0.0.1", 5760), id="tcp"),
        pytest.param(
            "tcpin:127.0.0.2:5762", LinkEndpoint(LinkKind.TCP_SERVER, "127.0.0.2", 5762), id="tcpin"
        ),
        pytest.param("tcp:5760", LinkEndpoint(LinkKind.TCP_SERVER, "127.0.0.1", 5760), id="loopback default"),
        pytest.param("udpin::14550", LinkEndpoint(LinkKind.UDP_IN, "127.0.0.1", 14550), id="empty host"),
        pytest.param("udp:127.0.0.1:0", LinkEndpoint(LinkKind.UDP_IN, "127.0.0.1", 0), id="udp means udpin"),
        pytest.param(
            "UDPOUT:127.0.0.1:14550", LinkEndpoint(LinkKind.UDP_OUT, "127.0.0.1", 14550), id="udpout"
        ),
    ],
)
def test_device_strings_name_the_endpoint(text: str, expected: LinkEndpoint) -> None:
    """GIVEN a --serve-demo device string WHEN parsed THEN kind, host (127.0.0.1 if unnamed), port follow."""
    assert parse_endpoint(text) == expected


@pytest.mark.parametrize(
    "text", ["ttyACM0", "tcp:127.0.0.1:port", "tcp:127.0.0.1:70000", "udpout:127.0.0.1:0", "udpout:"]
)
def test_device_strings_that_cannot_be_served_are_refused(text: str) -> None:
    """GIVEN a device string for no servable port WHEN parsed THEN LinkEndpointError names it."""
    with pytest.raises(LinkEndpointError, match=r"port|tcp:HOST:PORT"):
        parse_endpoint(text)


def test_each_link_names_the_device_a_ground_station_uses() -> None:
    """
    GIVEN a TCP server, a udpin port and a udpout sender on loopback
    WHEN asked how a ground station reaches them
    THEN tcp:HOST:PORT, udpout:HOST:PORT (to our port) and udpin:HOST:PORT (its own port) respectively.
    """
    links = [
        open_link(LinkEndpoint(LinkKind.TCP_SERVER, "127.0.0.1", 0)),
        open_link(LinkEndpoint(LinkKind.UDP_IN, "127.0.0.1", 0)),
        open_link(LinkEndpoint(LinkKind.UDP_OUT, "127.0.0.1", 14999)),
    ]
    try:
        tcp, udp_in, udp_out = links
        assert tcp.gcs_device == f"tcp:127.0.0.1:{tcp.local_address[1]}"
        assert udp_in.gcs_device == f"udpout:127.0.0.1:{udp_in.local_address[1]}"
        assert udp_out.gcs_device == "udpin:127.0.0.1:14999"
        assert udp_out.local_address[0] == "127.0.0.1"
        assert (tcp.peer, udp_in.peer, udp_out.peer) == (None, None, ("127.0.0.1", 14999))
    finally:
        for link in links:
            link.close()


def _heartbeat(system: int = 255) -> bytes:
    mav = mavlink2.MAVLink(None, srcSystem=system, srcComponent=190)
    return bytes(
        mav.heartbeat_encode(mavlink2.MAV_TYPE_GCS, mavlink2.MAV_AUTOPILOT_INVALID, 0, 0, 0).pack(mav)
    )


def _drive(link: UdpLink | TcpServerLink, timeout: float = 0.05) -> list[object]:
    readable, writable, _x = select.select(link.read_sockets(), link.write_sockets(), [], timeout)
    received: list[object] = []
    for sock in readable:
        received.extend(link.on_readable(sock))
    for sock in writable:
        link.on_writable(sock)
    return received


def test_udpin_answers_the_latest_sender_of_valid_mavlink_only() -> None:
    """
    GIVEN a udpin link
    WHEN one socket sends junk, a second sends a heartbeat, then a third sends a heartbeat
    THEN junk teaches nothing, and the peer follows the latest valid sender (a new generation each time).
    """
    link = UdpLink.udp_in(LinkEndpoint(LinkKind.UDP_IN, "127.0.0.1", 0))
    senders = [udp_socket() for _i in range(3)]
    try:
        senders[0].sendto(b"not mavlink", link.local_address)
        for sender in senders[1:]:
            sender.sendto(_heartbeat(), link.local_address)
            wait_for(
                lambda sender=sender: (_drive(link), link.peer)[1] == sender.getsockname(), "a heartbeat"
            )
        assert link.peer_generation == 2  # the junk taught nothing
    finally:
        link.close()
        for sender in senders:
            sender.close()


def test_udpout_hears_only_the_ground_station_it_sends_to() -> None:
    """
    GIVEN the demo sending UDP to a ground station on 127.0.0.1 (udpout)
    WHEN another sender (another port, then 127.0.0.2) sends it a valid heartbeat, then the ground
         station does
    THEN the others are not heard (counted as foreign), the ground station is, and the link never
         listened on every interface (it took the loopback, the route to its ground station)
    """
    station = udp_socket()
    others = [udp_socket(), socket.socket(socket.AF_INET, socket.SOCK_DGRAM)]
    others[1].bind(("127.0.0.2", 0))
    link = UdpLink.udp_out(LinkEndpoint(LinkKind.UDP_OUT, "127.0.0.1", station.getsockname()[1]))
    try:
        assert link.local_address[0] == "127.0.0.1"
        for other in others:
            other.sendto(_heartbeat(system=66), link.local_address)
        wait_for(lambda: (_drive(link), link.foreign_datagrams)[1] == 2, "the two foreign heartbeats")
        station.sendto(_heartbeat(), link.local_address)
        heard: list[object] = []
        wait_for(lambda: bool(heard.extend(_drive(link)) or heard), "the ground station's heartbeat")
        assert [message.get_srcSystem() for message in heard] == [255]  # type: ignore[attr-defined]
        assert link.peer == station.getsockname()
    finally:
        link.close()
        station.close()
        for other in others:
            other.close()


def test_an_ipv6_address_is_refused_with_the_reason() -> None:
    """GIVEN tcp:[::1]:5760 (bind used to fail later with a raw "[Errno -9]")
    WHEN parsed
    THEN it is refused at once, saying the simulated vehicle serves IPv4 and giving an example
    """
    with pytest.raises(LinkEndpointError, match=r"serves IPv4 only, e\.g\. tcp:127\.0\.0\.1:5760"):
        parse_endpoint("tcp:[::1]:5760")


@pytest.fixture
def tcp_link() -> Iterator[TcpServerLink]:
    link = TcpServerLink(LinkEndpoint(LinkKind.TCP_SERVER, "127.0.0.1", 0), output_limit=4096)
    try:
        yield link
    finally:
        link.close()


def test_a_client_that_does_not_read_loses_whole_messages_never_framing(tcp_link: TcpServerLink) -> None:
    """
    GIVEN a TCP client with a small receive buffer that does not read, and a 4 KiB output limit
    WHEN the link is given far more heartbeats than fit anywhere
    THEN the excess is dropped and counted, and what the client finally reads is whole heartbeats
    back to back, with not a byte of a dropped one.
    """
    client = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    client.connect(tcp_link.local_address)
    try:
        wait_for(lambda: (_drive(tcp_link), tcp_link.peer)[1] is not None, "the client to be accepted")
        frame = _heartbeat()
        sent = 0
        for _i in range(200_000):
            if not tcp_link.send(frame):
                break
            sent += 1
        assert tcp_link.dropped_messages == 1
        assert not tcp_link.has_room(len(frame))
        received = bytearray()
        client.settimeout(0.05)
        end = time.monotonic() + DEADLINE_S
        while len(received) < sent * len(frame) and time.monotonic() < end:
            _drive(tcp_link, timeout=0.0)
            try:
                received += client.recv(1 << 20)
            except TimeoutError:
                continue
        # Every frame is identical, so whole-message drops leave exactly `sent` copies back to back.
        assert received == frame * sent
        assert (
            mavlink2.MAVLink(None).parse_buffer(bytes(received[: 3 * len(frame)]))[2].get_type()
            == "HEARTBEAT"
        )
    finally:
        client.close()


def test_the_next_tcp_client_is_accepted_after_the_first_hangs_up(tcp_link: TcpServerLink) -> None:
    """
    GIVEN a TCP client being served and a second one waiting in the backlog
    WHEN the first hangs up
    THEN the link notices, accepts the second (a new peer generation) and nothing is lost to a stale buffer.
    """
    first = socket.create_connection(tcp_link.local_address)
    second = socket.create_connection(tcp_link.local_address)
    try:
        wait_for(lambda: (_drive(tcp_link), tcp_link.peer)[1] == first.getsockname(), "the first client")
        generation = tcp_link.peer_generation
        first.close()
        wait_for(lambda: (_drive(tcp_link), tcp_link.peer)[1] == second.getsockname(), "the second client")
        assert tcp_link.peer_generation == generation + 1
        second.sendall(_heartbeat(system=42))
        received: list[object] = []
        wait_for(lambda: bool(received.extend(_drive(tcp_link)) or received), "the heartbeat")
        assert received[0].get_srcSystem() == 42  # type: ignore[attr-defined]
    finally:
        first.close()
        second.close()


def test_junk_frames_on_the_vehicle_port_keep_memory_flat() -> None:
    """
    GIVEN the demo's udpin link
    WHEN 3 MB of junk arrives in datagrams that look like MAVLink frames (magic bytes, lengths,
         broken checksums; the audit sent 41 MB)
    THEN none becomes a message or a peer, and memory stays flat (each datagram is parsed alone):
         under 256 KiB kept, so not even 140 bytes of each of the 2,000 datagrams is retained
    """
    link = UdpLink.udp_in(LinkEndpoint(LinkKind.UDP_IN, "127.0.0.1", 0))
    sender = udp_socket()
    junk = (b"\xfd\xff\x00\x00\x07\x01\x01\x00\x00\x00" + bytes(range(256)) * 3) * 2
    try:
        tracemalloc.start()
        sent = 0
        received: list[object] = []
        before = tracemalloc.get_traced_memory()[0]
        while sent < 3_000_000:
            sender.sendto(junk, link.local_address)
            sent += len(junk)
            if sent % (64 * len(junk)) == 0:
                received.extend(_drive(link, timeout=0))
        received.extend(_drive(link, timeout=0))
        retained = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
        link.close()
        sender.close()

    assert received == []
    assert link.peer is None
    assert retained < 256 * 1024
