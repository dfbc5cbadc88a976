# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What one relay is asked to do (``RelayConfig``), checked before any socket is opened."""

from __future__ import annotations

from dataclasses import dataclass

from .. import _
from .capture_ring import (
    DEFAULT_RING_BYTES,
    DEFAULT_RING_RECORDS,
    RECORD_OVERHEAD_BYTES,
)
from .protocols.names import AUTO
from .protocols.table import NAMES

Address = tuple[str, int]


class RelayError(OSError):
    """The relay could not be set up (bad address, port in use); the message says why."""


@dataclass(frozen=True)
class RelayConfig:
    """What one relay listens on, where it forwards, and how much it remembers.

    ``target=None`` makes a listen-only tap.  ``allowed_peers`` (host addresses, any port) limits
    which senders may become the return peer.  ``relearn_after_s``, when set, lets a valid
    datagram from a new sender replace a peer that has been silent that long (a restarted SITL
    comes back on a new ephemeral port); by default the first peer is kept, as SITL back ends do.
    The capture ring holds at most ``ring_size`` records and ``ring_bytes`` bytes;
    ``max_record_bytes`` caps how much of each datagram is copied into it.  ``rate_window_s`` is
    the width of the window the packet and byte rates are measured over.
    """

    name: str
    protocol: str = AUTO
    listen: Address = ("127.0.0.1", 0)
    target: Address | None = None
    ring_size: int = DEFAULT_RING_RECORDS
    allowed_peers: tuple[str, ...] | None = None
    relearn_after_s: float | None = None
    max_record_bytes: int = 8192
    ring_bytes: int = DEFAULT_RING_BYTES
    rate_window_s: float = 1.0

    def __post_init__(self) -> None:
        if self.protocol not in NAMES:
            raise ValueError(
                _("Unknown bridge protocol {protocol!r}; use one of {choices}.").format(
                    protocol=self.protocol, choices=", ".join(NAMES)
                )
            )
        if self.ring_size < 1:
            raise ValueError(_("The capture ring needs room for at least one datagram."))
        if self.max_record_bytes < 1:
            raise ValueError(_("The recording limit must be at least one byte."))
        if self.ring_bytes <= RECORD_OVERHEAD_BYTES + self.max_record_bytes:
            raise ValueError(_("The capture ring needs room for at least one datagram."))
        if self.rate_window_s <= 0:
            raise ValueError(_("The rate window must be longer than zero seconds."))
        if self.target is not None and self.target == self.listen and self.listen[1] != 0:
            raise ValueError(
                _("The relay's target {address} is its own listen address: it would send to itself.").format(
                    address=f"{self.listen[0]}:{self.listen[1]}"
                )
            )
