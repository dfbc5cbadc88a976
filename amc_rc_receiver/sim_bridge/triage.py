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
so their bookkeeping covers every datagram too.
"""

from __future__ import annotations

from typing import NamedTuple

from amc_rc_receiver.sim_bridge import ardupilot_json, rflysim
from amc_rc_receiver.sim_bridge.detect import ARDUPILOT_JSON, AUTO, RFLYSIM, XRP, detect_protocol
from amc_rc_receiver.sim_bridge.errors import CodecError

REASON_UNRECOGNISED = "unrecognised"
REASON_DECODER_FAULT = "decoder-fault"
REASON_JSON = "json"
REASON_ENCODING = "encoding"
REASON_TRUNCATED = "truncated"

_WHITE_SPACE = b" \t\r\n"
_XRP_HEADER = 3


class Triage(NamedTuple):
    """What the header checks found: the protocol that matched, or the reason none did."""

    protocol: str | None
    reason: str | None = None
    frame_count: int | None = None
    sequence: int | None = None


def triage(protocol: str, data: bytes) -> Triage:
    """Check ``data`` for ``protocol`` (``"auto"`` detects it); never raises."""
    try:
        if protocol == AUTO:
            found = detect_protocol(data)
            if found is None:
                return Triage(None, REASON_UNRECOGNISED)
            protocol = found
        check = _CHECKS.get(protocol)
        if check is None:
            return Triage(None, REASON_UNRECOGNISED)
        return check(data)
    except CodecError as error:
        return Triage(None, error.reason)
    except Exception:  # a codec bug must cost one count, not the relay thread
        return Triage(None, REASON_DECODER_FAULT)


def _sitl(data: bytes) -> Triage:
    text = data.lstrip(_WHITE_SPACE)
    if text[:1] == b"{":
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return Triage(None, REASON_ENCODING)
        if text.rstrip(_WHITE_SPACE)[-1:] != b"}":
            return Triage(None, REASON_JSON)
        return Triage(ARDUPILOT_JSON)
    packet = ardupilot_json.decode_servo_packet(data)
    return Triage(ARDUPILOT_JSON, frame_count=packet.frame_count)


def _rflysim(data: bytes) -> Triage:
    rflysim.decode(data)
    return Triage(RFLYSIM)


def _xrp(data: bytes) -> Triage:
    if len(data) < _XRP_HEADER:
        return Triage(None, REASON_TRUNCATED)
    return Triage(XRP, sequence=data[0] << 8 | data[1])


_CHECKS = {ARDUPILOT_JSON: _sitl, RFLYSIM: _rflysim, XRP: _xrp}
