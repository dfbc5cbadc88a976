# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Parse the `--bridge` command-line value into a relay description.

The text form is ``PROTOCOL,LISTEN[,TARGET]`` with addresses as ``HOST:PORT`` (``[::1]:PORT`` for
IPv6), e.g. ``ardupilot-json,127.0.0.1:9002,127.0.0.1:9012``.  Without a target the link is
listen-only.  Parsing is pure so that both front ends and tests share one set of error texts.
"""

from __future__ import annotations

from dataclasses import dataclass

from amc_rc_receiver import _

PROTOCOLS = ("ardupilot-json", "rflysim", "xrp", "auto")


class BridgeSpecError(ValueError):
    """A `--bridge` value that cannot be used; the message says why in plain words."""


@dataclass(frozen=True)
class BridgeSpec:
    protocol: str
    listen: tuple[str, int]
    target: tuple[str, int] | None

    @property
    def name(self) -> str:
        return f"{self.protocol} {self.listen[0]}:{self.listen[1]}"


def parse_address(text: str, *, what: str) -> tuple[str, int]:
    """``HOST:PORT`` (or ``[IPV6]:PORT``) to a socket address, with a readable error."""
    text = text.strip()
    host, sep, port_text = text.rpartition(":")
    if not sep or not host:
        raise BridgeSpecError(
            _("The {what} address {text!r} needs the form HOST:PORT, e.g. 127.0.0.1:9002.").format(
                what=what, text=text
            )
        )
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    try:
        port = int(port_text)
    except ValueError:
        raise BridgeSpecError(
            _("The {what} port {port!r} is not a number.").format(what=what, port=port_text)
        ) from None
    if not 0 <= port <= 65535:
        raise BridgeSpecError(_("The {what} port {port} is outside 0-65535.").format(what=what, port=port))
    return host, port


def parse_bridge_spec(text: str) -> BridgeSpec:
    parts = [part.strip() for part in text.split(",")]
    if len(parts) not in (2, 3):
        raise BridgeSpecError(
            _(
                "The bridge {text!r} needs the form PROTOCOL,LISTEN[,TARGET], "
                "e.g. ardupilot-json,127.0.0.1:9002,127.0.0.1:9012."
            ).format(text=text)
        )
    protocol = parts[0].lower()
    if protocol not in PROTOCOLS:
        raise BridgeSpecError(
            _("Unknown bridge protocol {protocol!r}; choose one of: {choices}.").format(
                protocol=parts[0], choices=", ".join(PROTOCOLS)
            )
        )
    listen = parse_address(parts[1], what=_("listen"))
    target = parse_address(parts[2], what=_("target")) if len(parts) == 3 and parts[2] else None
    if target is not None and target[1] == 0:
        raise BridgeSpecError(_("The target port must not be 0."))
    return BridgeSpec(protocol, listen, target)
