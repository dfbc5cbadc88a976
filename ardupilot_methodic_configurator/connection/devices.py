# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Device strings (``tcp:HOST:PORT``, ``udpin:…``, a serial port): checked before pymavlink sees them.

pymavlink accepts far more than a ground station should pass on: it would replay an existing file
as a log, or even execute it, and treats unknown "x:y" strings as UDP.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from .. import _
from ..net.host_port import EMPTY_HOST, HostPortError, HostPortProblem, format_host_port, parse_host_port

_NETWORK_SCHEMES = ("tcp", "tcpin", "udp", "udpin", "udpout")
_SERVER_SCHEMES = frozenset({"tcpin", "udp", "udpin"})
_WINDOWS_COM_PORT = re.compile(r"^(\\\\\.\\)?COM\d+$", re.IGNORECASE)


class DeviceError(Exception):
    """A device string that cannot work; the message is a readable reason."""


@dataclass(frozen=True)
class DeviceEndpoint:
    scheme: str  # one of _NETWORK_SCHEMES, or "serial"
    address: str  # "host:port" for network schemes, the port path for serial
    host: str = ""
    port: int = 0


def parse_device(device: str) -> DeviceEndpoint:
    """Split a pymavlink device string, rejecting forms that would do something unexpected.

    pymavlink would replay an existing file as a log, or even execute it, and would treat unknown
    "x:y" strings as UDP: here only network schemes and serial ports are accepted.
    """
    text = device.strip()
    if not text:
        raise DeviceError(_("the connection string is empty"))
    scheme, sep, rest = text.partition(":")
    if sep and scheme.lower() in _NETWORK_SCHEMES:
        host, port = _validate_host_port(scheme.lower(), rest)
        return DeviceEndpoint(scheme.lower(), format_host_port(host, port), host, port)
    looks_like_path = text.startswith(("/", "\\", ".")) or bool(_WINDOWS_COM_PORT.match(text))
    if sep and not looks_like_path:
        raise DeviceError(
            _(
                "unknown connection type '{scheme}'; use tcp:HOST:PORT, tcpin:HOST:PORT, udp:HOST:PORT, "
                "udpin:HOST:PORT, udpout:HOST:PORT or a serial port such as /dev/ttyACM0 or COM3"
            ).format(scheme=scheme)
        )
    if os.path.isfile(text):
        raise DeviceError(_("{path} is a file, not a serial port").format(path=text))
    return DeviceEndpoint("serial", text)


def _validate_host_port(scheme: str, rest: str) -> tuple[str, int]:
    example = "127.0.0.1:14550"
    try:
        # pymavlink splits the address at its first colon: no IPv6 host can reach it
        host, port = parse_host_port(rest, default_host=EMPTY_HOST, ipv6=False)
    except HostPortError as error:
        if error.problem is HostPortProblem.FORM:
            raise DeviceError(
                _("expected {scheme}:HOST:PORT, for example {scheme}:{example}").format(
                    scheme=scheme, example=example
                )
            ) from None
        raise DeviceError(
            _("'{port}' is not a port number (0 to 65535)").format(port=error.port_text)
        ) from None
    server = scheme in _SERVER_SCHEMES
    if not server and (not host or port == 0):
        raise DeviceError(
            _("{scheme} needs the address and port of the vehicle, for example {scheme}:{example}").format(
                scheme=scheme, example=example
            )
        )
    return host, port
