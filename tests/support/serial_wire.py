# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What a serial line carried, read back as MAVLink: the proof of what the check sent.

A `Wire` is the tap of a `NullModem` (or of SITL's serial SERIAL0 line): it keeps each
direction's bytes, which a fresh pymavlink parser decodes afterwards.  The words pymavlink prints
or raises when a serial device vanishes are listed here once, for the tests that read a whole
output and must not find them.
"""

from __future__ import annotations

import threading
from typing import Any

from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.sitl.null_modem import STATION_TO_VEHICLE, VEHICLE_TO_STATION

# pymavlink's and pyserial's own words for a vanished device ("Device /dev/ttyACM0 is dead",
# "device reports readiness to read but returned no data ..."), and Python's for a crash.
RAW_LINK_TEXT = ("is dead", "readiness to read", "multiple access on port", "SerialException", "Traceback")
RECEIVER_STREAMS = {mavlink2.MAVLINK_MSG_ID_RC_CHANNELS, mavlink2.MAVLINK_MSG_ID_SYS_STATUS}


class Wire:
    """Collects the bytes a serial line carries in each direction (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._bytes = {VEHICLE_TO_STATION: bytearray(), STATION_TO_VEHICLE: bytearray()}

    def tap(self, direction: int, data: bytes) -> None:
        with self._lock:
            self._bytes[direction] += data

    def sent_by_station(self) -> list[Any]:
        """Every message the check (the station end) put on the line, oldest first."""
        with self._lock:
            data = bytes(self._bytes[STATION_TO_VEHICLE])
        parser = mavlink2.MAVLink(None)
        parser.robust_parsing = True
        return [message for message in parser.parse_buffer(data) or [] if message.get_type() != "BAD_DATA"]


def assert_only_reads_and_receiver_intervals(messages: list[Any]) -> list[tuple[int, int]]:
    """Nothing but heartbeats, parameter reads, SET_MESSAGE_INTERVAL for the two receiver streams,
    ArduPilot's own pre-arm checks (MAV_CMD_RUN_PREARM_CHECKS) and the host's request for
    AUTOPILOT_VERSION when it connects: no parameter write, no arming, no calibration.  Returns the
    intervals asked for."""
    assert messages, "the check sent nothing at all"
    intervals = []
    for message in messages:
        kind = message.get_type()
        assert kind in {"HEARTBEAT", "PARAM_REQUEST_READ", "COMMAND_LONG"}, kind
        if kind == "HEARTBEAT":
            assert message.type == mavlink2.MAV_TYPE_GCS
        elif kind == "COMMAND_LONG" and message.command == mavlink2.MAV_CMD_RUN_PREARM_CHECKS:
            assert (message.param1, message.param7) == (0, 0), message
        elif kind == "COMMAND_LONG" and message.command == mavlink2.MAV_CMD_REQUEST_MESSAGE:
            assert int(message.param1) == mavlink2.MAVLINK_MSG_ID_AUTOPILOT_VERSION, message
        elif kind == "COMMAND_LONG":
            assert message.command == mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL, message
            assert int(message.param1) in RECEIVER_STREAMS, message
            intervals.append((int(message.param1), int(message.param2)))
    return intervals


def assert_no_raw_link_text(text: str) -> None:
    for words in RAW_LINK_TEXT:
        assert words not in text, f"{words!r} reached the user:\n{text}"
