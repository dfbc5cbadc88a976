# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Bridges of one program that feed each other in a circle, found from their addresses alone.

A bridge sends to its target; when that target is the listen address of another bridge of the
same program, the two form a chain, and a chain that comes back to where it started passes one
datagram round for ever.  Chains are fine; circles are refused before any socket is opened, with
a sentence that names every bridge in the circle.  (A circle through another program cannot be
seen from here: the relays recognise it at run time, see ``loop_guard``.)

Whether a target reaches a listen address is decided as the kernel delivers a datagram: the same
port, and the same IP address (an IPv4 address written as IPv6 is the same), or a listen address
on every interface (``0.0.0.0``, or ``::``, which takes IPv4 too) and a target that is an address
of this computer.  127.0.0.1 and 127.0.0.2 are different addresses: a socket bound to one does
not receive what is sent to the other.  A listen port of 0 is chosen by the system when the relay
starts, so nothing written on the command line can target it; the session checks again with the
ports the relays got.  Target host names were resolved when the bridge was parsed (``spec``).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Sequence
from dataclasses import dataclass

from .. import _

Address = tuple[str, int]


@dataclass(frozen=True)
class ChainLink:
    """One bridge as the circle check sees it: its name, where it listens, where it sends."""

    name: str
    listen: Address
    target: Address | None


def _ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def is_local_address(host: str) -> bool:
    """Whether ``host`` is an address of this computer (a socket can be bound to it)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_DGRAM) as probe:
        try:
            probe.bind((host, 0))
        except OSError:
            return False
    return True


def reaches(target: Address, listen: Address) -> bool:
    """Whether a datagram sent to ``target`` arrives at a socket bound to ``listen``."""
    if listen[1] == 0 or target[1] != listen[1]:
        return False
    target_ip, listen_ip = _ip(target[0]), _ip(listen[0])
    if target_ip is None or listen_ip is None:
        return False
    if listen_ip.is_unspecified:
        if listen_ip.version == 4 and target_ip.version != 4:
            return False
        return target_ip.is_loopback or is_local_address(str(target_ip))
    return target_ip == listen_ip


def find_circle(links: Sequence[ChainLink]) -> tuple[str, ...] | None:
    """The names of the bridges of the first circle, in sending order; None when there is none."""
    following: list[list[int]] = [
        [
            index
            for index, other in enumerate(links)
            if link.target is not None and reaches(link.target, other.listen)
        ]
        for link in links
    ]
    # Depth-first search for a back edge; the links are a handful, so the plain recursion-free
    # walk with colours is all it takes.
    unvisited, on_path, done = 0, 1, 2
    state = [unvisited] * len(links)
    for start in range(len(links)):
        if state[start] != unvisited:
            continue
        path = [start]
        branches = [iter(following[start])]
        state[start] = on_path
        while branches:
            step = next(branches[-1], None)
            if step is None:
                state[path.pop()] = done
                branches.pop()
            elif state[step] == on_path:
                circle = path[path.index(step) :]
                return tuple(links[index].name for index in circle)
            elif state[step] == unvisited:
                state[step] = on_path
                path.append(step)
                branches.append(iter(following[step]))
    return None


def circle_sentence(names: Sequence[str]) -> str:
    """The refusal of a circle of bridges, naming each in the order they send to each other."""
    if len(names) == 1:
        return _("The bridge {name} would send to itself: its target is its own listen address.").format(
            name=names[0]
        )
    chain = " → ".join([*names, names[0]])
    return _(
        "The bridges {chain} send to each other in a circle: one datagram would go round them for "
        "ever. Give one of them a target outside the circle."
    ).format(chain=chain)
