# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Where a relay binds and what it calls an address: one interface, never every one by accident.

The outbound socket takes the loopback when the target is on it, else the listen address, else
(listening on the loopback, target elsewhere) the address the route to the target leaves from.
"""

from __future__ import annotations

import ipaddress
import socket

from .. import _
from .relay_config import Address, RelayError


def format_address(address: Address | None) -> str | None:
    """``host:port``, with IPv6 hosts in brackets; None stays None."""
    if address is None:
        return None
    host, port = address
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def family_for(host: str) -> socket.AddressFamily:
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def _is_wildcard(host: str) -> bool:
    return host in ("", "0.0.0.0", "::")  # recognising the user's choice, not binding it


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def _route_source(target: Address, family: socket.AddressFamily) -> str | None:
    """The local address the kernel would send to ``target`` from, or None without a route.

    Connecting a UDP socket only chooses the route; nothing is sent.
    """
    probe = socket.socket(family, socket.SOCK_DGRAM)
    try:
        probe.connect(target)
        return str(probe.getsockname()[0])
    except OSError:
        return None
    finally:
        probe.close()


def outbound_host(listen_host: str, target: Address, family: socket.AddressFamily) -> str:
    """The one interface the outbound socket binds: never every interface unless the user said so.

    A loopback target is reached from the loopback; a named listen interface is used as it is (a
    wildcard only when the user named one); a relay listening on the loopback for a target
    elsewhere sends from the interface the route to the target leaves from, since the loopback
    cannot reach it.
    """
    if _is_loopback(target[0]):
        return "::1" if family == socket.AF_INET6 else "127.0.0.1"
    if _is_wildcard(listen_host) or not _is_loopback(listen_host):
        return listen_host
    return _route_source(target, family) or listen_host


def resolve(address: Address, family: socket.AddressFamily, what: str) -> Address:
    host, port = address
    try:
        infos = socket.getaddrinfo(host, port, family, socket.SOCK_DGRAM)
    except (OSError, UnicodeError) as error:
        raise RelayError(
            _("Cannot resolve the {what} address {address}: {error}").format(
                what=what, address=format_address(address), error=error
            )
        ) from error
    resolved = infos[0][4]
    return str(resolved[0]), int(resolved[1])
