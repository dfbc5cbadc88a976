# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The flight controller's own words about the radio: STATUSTEXT messages kept as evidence.

ArduPilot announces what it sees of the receiver in STATUSTEXT: "Radio Failsafe - Disarming",
"Radio Failsafe Cleared", Plane's "RC Short Failsafe On", "PreArm: Throttle below failsafe",
"PreArm: RC not calibrated", and "RCInput: decoding SBUS" once it locks onto a protocol.  Those
join the test's timeline beside the receiver bits, so a report shows both the telemetry and what
the firmware said.  Only radio-related texts are kept, the most recent ``MAX_RADIO_MESSAGES``, so
a chatty vehicle cannot grow memory.  The firmware banner line ("ArduCopter V4.6.0 (...)") is
remembered apart, as it names the firmware for the report.
"""

from __future__ import annotations

import functools
import re
from collections import deque

from .rc_receiver_check_state import RadioMessage

MAX_RADIO_MESSAGES = 40

_RADIO_TEXT = re.compile(
    r"\bradio\b|\brc\d*\b|\brcin(put)?\b|\breceiver\b|\brssi\b|throttle below failsafe|"
    r"\bfs_thr_\w+|\bthr_fs_value\b|\bthr_failsafe\b",
    re.IGNORECASE,
)
_PROTOCOL = re.compile(r"RCInput: decoding (\S+)", re.IGNORECASE)
_FIRMWARE = re.compile(r"^(Ardu\w+|Rover|Blimp|AntennaTracker)\s+V\d+\.\d+\S*")


def statustext(raw: object) -> str:
    """The text of a STATUSTEXT ``text`` field (bytes or str, NUL padded)."""
    text = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes | bytearray) else str(raw)
    return text.split("\x00", 1)[0].strip()


def is_radio_message(text: str) -> bool:
    return bool(_RADIO_TEXT.search(text))


def decoded_protocol(text: str) -> str | None:
    """The protocol named by "RCInput: decoding <name>", else None."""
    match = _PROTOCOL.search(text)
    return match.group(1) if match else None


def firmware_banner(text: str) -> str | None:
    match = _FIRMWARE.match(text)
    return match.group(0) if match else None


@functools.lru_cache(maxsize=MAX_RADIO_MESSAGES)
def _classify(text: str) -> tuple[str | None, str | None, bool]:
    # Firmware repeats its texts (pre-arm failures every 30 s, for instance): each is matched once.
    return firmware_banner(text), decoded_protocol(text), is_radio_message(text)


class RadioTimeline:
    """The radio STATUSTEXTs of one test, the protocol being decoded and the firmware banner."""

    def __init__(self) -> None:
        self._messages: deque[RadioMessage] = deque(maxlen=MAX_RADIO_MESSAGES)
        self.detected_protocol: str | None = None
        self.firmware: str | None = None

    @property
    def messages(self) -> tuple[RadioMessage, ...]:
        return tuple(self._messages)

    def observe(self, text: str, severity: int, at: float) -> bool:
        """Take one STATUSTEXT of the selected vehicle; True if it joined the timeline."""
        banner, protocol, radio = _classify(text)
        if banner is not None:
            self.firmware = banner
        if protocol is not None:
            self.detected_protocol = protocol
        if not radio:
            return False
        self._messages.append(RadioMessage(at, severity, text))
        return True

    def restart(self) -> None:
        """A fresh test: the messages go; protocol and firmware still describe the vehicle."""
        self._messages.clear()

    def reset(self) -> None:
        """A new connection: forget the vehicle too."""
        self._messages.clear()
        self.detected_protocol = None
        self.firmware = None
