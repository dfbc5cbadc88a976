# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Bridges of one program that send to each other in a circle, found from their addresses, and the
sentence that refuses them; chains that end somewhere are fine.

Only loopback and explicit addresses are used, so no socket is needed to tell whether an address
belongs to this computer.
"""

from __future__ import annotations

import socket

import pytest

from amc_rc_receiver.sim_bridge.chains import ChainLink, circle_sentence, find_circle, reaches
from amc_rc_receiver.sim_bridge.spec import parse_bridge_spec

pytestmark = pytest.mark.pure


def link(name: str, listen: str, target: str | None) -> ChainLink:
    def address(text: str) -> tuple[str, int]:
        host, port = text.rsplit(":", 1)
        return host.strip("[]"), int(port)

    return ChainLink(name, address(listen), None if target is None else address(target))


def test_two_bridges_that_target_each_others_listen_address_are_a_circle() -> None:
    """GIVEN the issue's two bridges, 9100 -> 9101 and 9101 -> 9100
    WHEN looked for circles THEN both are named, in the order they send."""
    links = [link("a", "127.0.0.1:9100", "127.0.0.1:9101"), link("b", "127.0.0.1:9101", "127.0.0.1:9100")]
    assert find_circle(links) == ("a", "b")


def test_a_chain_that_ends_somewhere_else_is_not_a_circle() -> None:
    """GIVEN a -> b -> c, c sending to a simulator outside the program, and a listen-only tap
    WHEN looked for circles THEN there is none: a chain is fine."""
    links = [
        link("a", "127.0.0.1:9100", "127.0.0.1:9101"),
        link("b", "127.0.0.1:9101", "127.0.0.1:9102"),
        link("c", "127.0.0.1:9102", "127.0.0.1:9002"),
        link("tap", "127.0.0.1:9003", None),
    ]
    assert find_circle(links) is None


def test_a_circle_of_three_behind_a_chain_names_only_the_circle() -> None:
    """GIVEN a bridge feeding into a circle of three WHEN looked for circles
    THEN the three of the circle are named, in sending order, and the feeder is not."""
    links = [
        link("feeder", "127.0.0.1:9000", "127.0.0.1:9101"),
        link("b", "127.0.0.1:9101", "127.0.0.1:9102"),
        link("c", "127.0.0.1:9102", "127.0.0.1:9103"),
        link("d", "127.0.0.1:9103", "127.0.0.1:9101"),
    ]
    assert find_circle(links) == ("b", "c", "d")


def test_a_relay_listening_on_every_interface_is_reached_through_the_loopback() -> None:
    """GIVEN a bridge listening on 0.0.0.0:9101 and one sending to 127.0.0.1:9101 and back
    WHEN looked for circles THEN they are one: the wildcard socket receives what the loopback gets."""
    links = [link("a", "127.0.0.1:9100", "127.0.0.1:9101"), link("b", "0.0.0.0:9101", "127.0.0.1:9100")]
    assert find_circle(links) == ("a", "b")


@pytest.mark.parametrize(
    ("target", "listen", "expected"),
    [
        (("127.0.0.2", 9101), ("127.0.0.1", 9101), False),  # another loopback address, another socket
        (("127.0.0.1", 9101), ("127.0.0.1", 0), False),  # a port the system picks cannot be named
        (("127.0.0.1", 9102), ("127.0.0.1", 9101), False),
        (("::ffff:127.0.0.1", 9101), ("127.0.0.1", 9101), True),  # IPv4 written as IPv6
        (("::1", 9101), ("0.0.0.0", 9101), False),  # an IPv4 wildcard takes no IPv6
        (("127.0.0.1", 9101), ("::", 9101), True),  # the IPv6 wildcard takes IPv4 too
        (("::1", 9101), ("::1", 9101), True),
        (("::1", 9101), ("127.0.0.1", 9101), False),
    ],
)
def test_a_target_reaches_a_listen_address_as_the_kernel_delivers(
    target: tuple[str, int], listen: tuple[str, int], expected: bool
) -> None:
    """GIVEN a target and a listen address WHEN compared THEN they match exactly when a datagram
    sent to the target would arrive at a socket bound to the listen address."""
    assert reaches(target, listen) is expected


def test_the_refusal_names_every_bridge_of_the_circle_in_sending_order() -> None:
    """GIVEN a circle of two bridges WHEN it is put into words
    THEN the sentence names both, the way round they send, and says what to change."""
    sentence = circle_sentence(("ardupilot-json 127.0.0.1:9100", "ardupilot-json 127.0.0.1:9101"))
    assert (
        "ardupilot-json 127.0.0.1:9100 → ardupilot-json 127.0.0.1:9101 → ardupilot-json 127.0.0.1:9100"
        in sentence
    )
    assert "circle" in sentence
    assert "for ever" in sentence


def test_the_issues_two_bridges_are_a_circle_once_parsed() -> None:
    """GIVEN the two --bridge values of the issue WHEN parsed and looked for circles
    THEN they are refused with a sentence that names both bridges."""
    specs = [
        parse_bridge_spec("ardupilot-json,127.0.0.1:9100,127.0.0.1:9101"),
        parse_bridge_spec("ardupilot-json,127.0.0.1:9101,127.0.0.1:9100"),
    ]
    names = find_circle([ChainLink(spec.name, spec.listen, spec.target) for spec in specs])
    assert names == ("ardupilot-json 127.0.0.1:9100", "ardupilot-json 127.0.0.1:9101")


def test_localhost_as_target_is_resolved_in_the_family_the_relay_sends_from() -> None:
    """GIVEN a system that lists ::1 first for localhost, and a bridge listening on 127.0.0.1
    WHEN its target localhost:9100 is parsed THEN it is 127.0.0.1, the address the relay will
    really send to, so a circle through it is seen."""
    families: list[object] = []

    def ipv6_first(host: str, port: int, **options: object) -> list[tuple[object, ...]]:
        families.append(options.get("family"))
        family = options.get("family", socket.AF_UNSPEC)
        address = "127.0.0.1" if family == socket.AF_INET else "::1"
        return [(family, socket.SOCK_DGRAM, 17, "", (address, port))]

    spec = parse_bridge_spec("ardupilot-json,127.0.0.1:9101,localhost:9100", resolve=ipv6_first)
    assert families == [socket.AF_INET]
    assert spec.target == ("127.0.0.1", 9100)
