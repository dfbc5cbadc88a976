# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The bridge's protocols, sans-IO: ArduPilot SITL's JSON interface, RflySim and WPILib XRP.

Strategy (as h11's): one module per protocol, bytes in and frozen, slotted frames out, no sockets,
threads, clocks or state; one error type, `CodecError`, with a person's sentence and a stable
reason key; binary packets dispatched through tables by exact length, then magic or checksum; each
decoder's worst case bounded.  `detect` recognises a protocol from content, `triage` checks a
header cheaply enough for every datagram, and `table` is the one place the rest of the bridge asks.
"""
