# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Parse the `--bridge` command-line value into a relay description.

The text form is ``PROTOCOL,LISTEN[,TARGET]`` with addresses as ``HOST:PORT`` (``[::1]:PORT`` for
IPv6), e.g. ``ardupilot-json,127.0.0.1:9002,127.0.0.1:9012``.  Without a target the link is
listen-only.  Parsing is pure so that both front ends and tests share one set of error texts.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import _
from ..net.host_port import HostPortError, HostPortProblem, format_host_port, parse_host_port
from .chains import reaches
from .protocols.table import NAMES


class BridgeSpecError(ValueError):
    """A `--bridge` value that cannot be used; the message says why in plain words."""


@dataclass(frozen=True)
class BridgeSpec:
    protocol: str
    listen: tuple[str, int]
    target: tuple[str, int] | None

    @property
    def name(self) -> str:
        return bridge_name(self.protocol, self.listen)


def bridge_name(protocol: str, listen: tuple[str, int]) -> str:
    """How a bridge is named on screen and in the panel: its protocol and listen address."""
    return f"{protocol} {format_host_port(*listen)}"


def parse_address(text: str, *, what: str) -> tuple[str, int]:
    """``HOST:PORT`` (or ``[IPV6]:PORT``) to a socket address, the error naming ``what`` address it is."""
    try:
        return parse_host_port(text)
    except HostPortError as error:
        if error.problem is HostPortProblem.PORT_NOT_A_NUMBER:
            message = _("The {what} port {port!r} is not a number.").format(what=what, port=error.port_text)
        elif error.problem is HostPortProblem.PORT_OUT_OF_RANGE:
            message = _("The {what} port {port} is outside 0-65535.").format(what=what, port=error.port_text)
        else:
            message = _("The {what} address {text!r} needs the form HOST:PORT, e.g. 127.0.0.1:9002.").format(
                what=what, text=error.text
            )
        raise BridgeSpecError(message) from None


def _listen_host(host: str, text: str) -> str:
    """A listen host must be an address of this machine, written as an IP address."""
    if host.lower() == "localhost":
        return "127.0.0.1"
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        raise BridgeSpecError(
            _(
                "The listen address {text!r} must be an IP address of this computer, e.g. 127.0.0.1:9002."
            ).format(text=text)
        ) from None


Resolver = Callable[..., list[tuple[Any, ...]]]


def _resolved_target(
    address: tuple[str, int], text: str, resolve: Resolver, family: socket.AddressFamily
) -> tuple[str, int]:
    """A target host name is resolved once, here, so a typo is reported before anything starts.

    It is resolved in the listen address's family, the one the relay sends from: ``localhost``
    then means 127.0.0.1 for a relay on 127.0.0.1 wherever the system lists ::1 first, so the
    circle check (``chains``) compares the address the relay will really send to.
    """
    host, port = address
    try:
        return str(ipaddress.ip_address(host)), port
    except ValueError:
        pass
    try:
        infos = resolve(host, port, family=family, type=socket.SOCK_DGRAM)
    except (OSError, UnicodeError) as error:
        reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
        raise BridgeSpecError(
            _("The bridge target {text!r} cannot be resolved: {reason}.").format(text=text, reason=reason)
        ) from None
    return str(infos[0][4][0]), port


def parse_bridge_spec(text: str, resolve: Resolver = socket.getaddrinfo) -> BridgeSpec:
    """``PROTOCOL,LISTEN[,TARGET]`` to a spec; a target host name is resolved with ``resolve``."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) not in (2, 3):
        raise BridgeSpecError(
            _(
                "The bridge {text!r} needs the form PROTOCOL,LISTEN[,TARGET], "
                "e.g. ardupilot-json,127.0.0.1:9002,127.0.0.1:9012."
            ).format(text=text)
        )
    protocol = parts[0].lower()
    if protocol not in NAMES:
        raise BridgeSpecError(
            _("Unknown bridge protocol {protocol!r}; choose one of: {choices}.").format(
                protocol=parts[0], choices=", ".join(NAMES)
            )
        )
    listen_host, listen_port = parse_address(parts[1], what=_("listen"))
    listen = (_listen_host(listen_host, parts[1]), listen_port)
    target = parse_address(parts[2], what=_("target")) if len(parts) == 3 and parts[2] else None
    if target is not None and target[1] == 0:
        raise BridgeSpecError(_("The target port must not be 0."))
    if target is not None:
        family = socket.AF_INET6 if ":" in listen[0] else socket.AF_INET
        target = _resolved_target(target, parts[2], resolve, family)
        if reaches(target, listen):
            raise BridgeSpecError(
                _(
                    "The bridge {text!r} would send to itself: its target is its own listen "
                    "address, so one datagram would go round for ever. Give the target another port."
                ).format(text=text)
            )
    return BridgeSpec(protocol, listen, target)
