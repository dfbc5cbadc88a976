# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The one parser of ``HOST:PORT`` text, shared by every option and device string that takes one.

It is pure (no name service, no sockets): a host name stays a name, resolving it is the caller's
business.  An IPv6 host is written in brackets (``[::1]:5760``) so that the last colon always
separates the port.  A caller with its own context (which address of a `--bridge` value, which
connection type) words the error itself from `HostPortError.problem`; the others show
`HostPortError.describe`.
"""

from __future__ import annotations

import ipaddress
from enum import Enum

from .. import _

# What an empty host means wherever one may be left out (``udpin::14550``, ``--serve-demo tcp::5760``):
# this computer only.  A port is reachable from the network only when the user names an address.
EMPTY_HOST = "127.0.0.1"
HIGHEST_PORT = 65535
# More digits than this cannot be a port, and int() refuses thousands of digits with a ValueError.
_MAX_PORT_DIGITS = 5


class HostPortProblem(Enum):
    FORM = "form"  # no colon, no host where one is needed, or an IPv6 host without brackets
    PORT_NOT_A_NUMBER = "port not a number"
    PORT_OUT_OF_RANGE = "port out of range"


class HostPortError(ValueError):
    """A ``HOST:PORT`` text that cannot be used; ``str()`` is a readable, translated reason."""

    def __init__(self, problem: HostPortProblem, text: str, port_text: str, lowest_port: int) -> None:
        self.problem = problem
        self.text = text
        self.port_text = port_text
        self.lowest_port = lowest_port
        super().__init__(self.describe(text))

    def describe(self, shown: str) -> str:
        """The reason, naming ``shown``: the whole text the user typed, of which this was a part."""
        if self.problem is HostPortProblem.PORT_NOT_A_NUMBER:
            return _("{text!r}: the port must be a number").format(text=shown)
        if self.problem is HostPortProblem.PORT_OUT_OF_RANGE:
            return _("{text!r}: the port must be in {low}..65535").format(text=shown, low=self.lowest_port)
        return _("expected HOST:PORT, got {text!r}").format(text=shown)


def parse_host_port(
    text: str,
    *,
    default_host: str | None = None,
    port_alone: bool = False,
    lowest_port: int = 0,
    ipv6: bool = True,
) -> tuple[str, int]:
    """``HOST:PORT`` (or ``[IPV6]:PORT``) to ``(host, port)``, or `HostPortError`.

    ``default_host``: None if a host is required, else what an empty host means.  ``port_alone``:
    a text without a colon is a port on ``default_host``.  ``lowest_port``: 0 where the caller
    lets the system choose any free port, 1 otherwise.  ``ipv6``: False for consumers (pymavlink)
    that split the address at its first colon, so no IPv6 host can reach them.
    """
    text = text.strip()
    host, sep, port_text = text.rpartition(":")
    if not sep and not port_alone:
        raise HostPortError(HostPortProblem.FORM, text, port_text, lowest_port)
    host, port_text = host.strip(), port_text.strip()
    if ipv6 and len(host) >= 2 and host.startswith("[") and host.endswith("]"):
        host = host[1:-1].strip()
        if not host:
            raise HostPortError(HostPortProblem.FORM, text, port_text, lowest_port)
    elif ":" in host or "[" in host or "]" in host:
        raise HostPortError(HostPortProblem.FORM, text, port_text, lowest_port)
    if not host:
        if default_host is None:
            raise HostPortError(HostPortProblem.FORM, text, port_text, lowest_port)
        host = default_host
    if not (port_text.isascii() and port_text.isdigit()):
        raise HostPortError(HostPortProblem.PORT_NOT_A_NUMBER, text, port_text, lowest_port)
    if len(port_text.lstrip("0")) > _MAX_PORT_DIGITS or not lowest_port <= int(port_text) <= HIGHEST_PORT:
        raise HostPortError(HostPortProblem.PORT_OUT_OF_RANGE, text, port_text, lowest_port)
    return host, int(port_text)


def format_host_port(host: str, port: int) -> str:
    """The text `parse_host_port` reads back as ``(host, port)``: an IPv6 host goes in brackets."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def is_loopback_host(host: str) -> bool:
    """True for a loopback address or ``localhost``; False for a wildcard, a network address or a name."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def beyond_loopback_notice(what: str, host: str, port: int) -> str | None:
    """The one sentence said when ``what`` listens on ``host`` beyond the loopback; None on loopback."""
    if is_loopback_host(host):
        return None
    return _(
        "{what} listens on {address}, beyond this computer's loopback: other computers on the network "
        "can reach it."
    ).format(what=what, address=format_host_port(host, port))
