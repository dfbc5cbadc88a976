# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Header-level checks of one datagram, cheap enough to run on every datagram in the relay thread.

Strategy: classify, do not parse.  Each check costs a constant number of Python steps (and at most
a pass or two at C speed over the bytes) whatever the datagram holds, so a flood cannot make it
expensive: fixed-size binary frames (SITL servo packets, RflySim) are decoded
outright, because their decoders are one length lookup and one ``struct`` call and give the exact
reason (length, magic, checksum) a person needs; JSON text is checked for its framing only (valid
UTF-8 between a leading ``{`` and a trailing ``}``); an XRP datagram for its 3-byte header.  What
needs a real parse (JSON keys and values, XRP blocks) is left to the monitor, which decodes only
the frames the panel shows.  The SITL frame_count and the XRP sequence come out of these checks,
so their bookkeeping covers every datagram too.  Each check may raise ``CodecError``; the
protocol table (``protocols.triage``) picks the check and turns any exception into a reason.
"""

from __future__ import annotations

from typing import NamedTuple

from . import rflysim
from .ardupilot_json import JSON_WHITE_SPACE
from .names import ARDUPILOT_JSON, RFLYSIM, XRP
from .sitl_servo_packet import decode_servo_packet
from .xrp import HEADER_LENGTH

REASON_UNRECOGNISED = "unrecognised"
REASON_DECODER_FAULT = "decoder-fault"
REASON_JSON = "json"
REASON_ENCODING = "encoding"
REASON_TRUNCATED = "truncated"


class Triage(NamedTuple):
    """What the header checks found: the protocol that matched, or the reason none did."""

    protocol: str | None
    reason: str | None = None
    frame_count: int | None = None
    sequence: int | None = None


def check_ardupilot_json(data: bytes) -> Triage:
    text = data.lstrip(JSON_WHITE_SPACE)
    if text[:1] == b"{":
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return Triage(None, REASON_ENCODING)
        if text.rstrip(JSON_WHITE_SPACE)[-1:] != b"}":
            return Triage(None, REASON_JSON)
        return Triage(ARDUPILOT_JSON)
    packet = decode_servo_packet(data)
    return Triage(ARDUPILOT_JSON, frame_count=packet.frame_count)


def check_rflysim(data: bytes) -> Triage:
    rflysim.decode(data)
    return Triage(RFLYSIM)


def check_xrp(data: bytes) -> Triage:
    if len(data) < HEADER_LENGTH:
        return Triage(None, REASON_TRUNCATED)
    return Triage(XRP, sequence=data[0] << 8 | data[1])
