# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The socket chores shared by the bridge's services, on real loopback sockets."""

from __future__ import annotations

import pytest

from amc_rc_receiver.net.services import drain_udp, route_source_host
from tests.support.udp import address_of
from tests.support.waiting import wait_for

pytestmark = pytest.mark.loopback


def test_a_handler_fault_is_reported_and_the_next_datagrams_are_still_handled(sockets) -> None:
    """GIVEN three datagrams waiting and a handler that fails on the second
    WHEN they are drained with a fault callback THEN the fault is reported once and the other two
    are handled, in order."""
    receiver, sender = sockets(), sockets()
    receiver.setblocking(False)
    for payload in (b"one", b"bad", b"three"):
        sender.sendto(payload, address_of(receiver))
    handled: list[bytes] = []
    faults: list[Exception] = []

    def handle(data: bytes, _source: tuple[str, int]) -> None:
        if data == b"bad":
            raise RuntimeError("handler bug")
        handled.append(data)

    def drained() -> bool:
        drain_udp(receiver, handle, 10, on_fault=faults.append)
        return len(handled) + len(faults) == 3

    wait_for(drained, "three datagrams")

    assert handled == [b"one", b"three"]
    assert [str(fault) for fault in faults] == ["handler bug"]


def test_without_a_fault_callback_a_handler_fault_propagates(sockets) -> None:
    """GIVEN a waiting datagram and a failing handler WHEN drained without a fault callback
    THEN the exception reaches the caller, as it always did."""
    receiver, sender = sockets(), sockets()
    receiver.setblocking(False)
    sender.sendto(b"x", address_of(receiver))

    def handle(_data: bytes, _source: tuple[str, int]) -> None:
        raise RuntimeError("handler bug")

    def raised() -> bool:
        try:
            drain_udp(receiver, handle, 10)
        except RuntimeError:
            return True
        return False

    wait_for(raised, "the handler's exception")
    with pytest.raises(BlockingIOError):
        receiver.recvfrom(16)  # the datagram was taken, then the handler failed on it


@pytest.mark.parametrize("destination", [("127.0.0.1", 14550), ("127.0.0.2", 9)])
def test_a_loopback_destination_is_reached_from_the_loopback(destination: tuple[str, int]) -> None:
    """GIVEN a destination on the loopback WHEN the source address is asked THEN 127.0.0.1, so an
    ephemeral socket bound to it is not reachable from the network."""
    assert route_source_host(destination) == "127.0.0.1"
