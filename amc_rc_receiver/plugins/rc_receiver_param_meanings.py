# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the values of ArduPilot's receiver parameters mean: RC_PROTOCOLS, RC_OPTIONS and RSSI_TYPE.

One home for the bit and value tables the findings, the verdict and the demo vehicle read, taken
from ArduPilot's own code: ``RC_PROTOCOLS`` bit 0 enables every protocol and bit n+1 protocol n,
named as ArduPilot prints it in "RCInput: decoding <name>"; ``RC_OPTIONS`` bit 0 ignores the
receiver and bit 2 its failsafe flag; ``RSSI_TYPE`` says where RSSI comes from.
"""

from __future__ import annotations

RC_OPTION_IGNORE_RECEIVER = 1 << 0
RC_OPTION_IGNORE_FAILSAFE_BIT = 1 << 2
# RC_PROTOCOLS bit -> the protocol name ArduPilot prints in "RCInput: decoding <name>".
RC_PROTOCOL_BITS: dict[int, str] = {
    1: "PPM",
    2: "IBUS",
    3: "SBUS",
    4: "SBUS_NI",
    5: "DSM",
    6: "SUMD",
    7: "SRXL",
    8: "SRXL2",
    9: "CRSF",
    10: "ST24",
    11: "FPORT",
    12: "FPORT2",
    13: "FastSBUS",
    14: "DroneCAN",
    15: "GHST",
    16: "MAVRadio",
}
# ArduPilot reports non-inverted SBUS as "SBUS" too.
_PROTOCOL_NAME_BITS: dict[str, tuple[int, ...]] = {"SBUS": (3, 4)}

# ArduPilot's RSSI_TYPE parameter: where the flight controller takes RSSI from.
RSSI_TYPE_DISABLED = 0
RSSI_TYPE_RECEIVER_PROTOCOL = 3
RSSI_TYPE_NAMES: dict[int, str] = {
    1: "AnalogPin",
    2: "RCChannelPwmValue",
    RSSI_TYPE_RECEIVER_PROTOCOL: "ReceiverProtocol",
    4: "PWMInputPin",
    5: "TelemetryRadioRSSI",
}


def protocol_bits(name: str) -> tuple[int, ...]:
    """The RC_PROTOCOLS bits that enable a decoded protocol name (empty if unknown)."""
    if name in _PROTOCOL_NAME_BITS:
        return _PROTOCOL_NAME_BITS[name]
    return tuple(bit for bit, protocol in RC_PROTOCOL_BITS.items() if protocol.lower() == name.lower())


def enabled_protocols(mask: int) -> tuple[str, ...]:
    return tuple(name for bit, name in RC_PROTOCOL_BITS.items() if mask & (1 << bit))


def protocol_enabled(mask: int, name: str) -> bool | None:
    """Whether ``RC_PROTOCOLS`` = ``mask`` lets ArduPilot decode ``name`` (None if unknown name)."""
    if mask & 1:
        return True
    bits = protocol_bits(name)
    if not bits:
        return None
    return any(mask & (1 << bit) for bit in bits)
