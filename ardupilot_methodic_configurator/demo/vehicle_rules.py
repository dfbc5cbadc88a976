# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The pure rules of the simulated vehicle: RC input with its failsafe timer, and stream rates.

No sockets, threads or clocks: every method takes ``now``.  ``RcInput`` keeps RC the way
ArduPilot does (last PWM values survive failsafe, "ever seen" latches).  ``StreamTable`` is one
link's message scheduler with ArduPilot's three layers of rate: the firmware default, the rate of
the legacy data stream a ground station picked with REQUEST_DATA_STREAM (MAVProxy and Mission
Planner still use it), and a per-message SET_MESSAGE_INTERVAL override, which wins while set.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from pymavlink.dialects.v20 import ardupilotmega as mavlink2

MSG_ID_HEARTBEAT: int = mavlink2.MAVLINK_MSG_ID_HEARTBEAT
MSG_ID_SYS_STATUS: int = mavlink2.MAVLINK_MSG_ID_SYS_STATUS
MSG_ID_RC_CHANNELS: int = mavlink2.MAVLINK_MSG_ID_RC_CHANNELS

RC_FAILSAFE_TIMEOUT_S = 1.0  # RC_FS_TIMEOUT default
# RC_CHANNELS.rssi when the vehicle has no RSSI (RSSI_TYPE 0): MAVLink's "unknown".
RSSI_UNKNOWN = 255
# ArduPilot's RSSI_TYPE values the simulated receivers use: none, or RSSI from the receiver protocol.
RSSI_TYPE_DISABLED = 0
RSSI_TYPE_RECEIVER_PROTOCOL = 3
MAX_STREAM_HZ = 50.0  # caps a tiny requested interval so per-tick work stays bounded
RC_CHANNELS_FIELDS = 18  # RC_CHANNELS carries chan1_raw..chan18_raw
MAX_RC_INPUT_CHANNELS = 16  # AP_RCProtocol_FDM takes at most 16 channels

# Which of the messages this vehicle can stream belong to which legacy data stream (as in
# ArduCopter's stream tables); MAV_DATA_STREAM_ALL addresses every group.
DATA_STREAM_MESSAGES: dict[int, tuple[int, ...]] = {
    mavlink2.MAV_DATA_STREAM_EXTENDED_STATUS: (MSG_ID_SYS_STATUS,),
    mavlink2.MAV_DATA_STREAM_RC_CHANNELS: (MSG_ID_RC_CHANNELS,),
}


def data_stream_messages(stream_id: int) -> tuple[int, ...]:
    """The message ids a REQUEST_DATA_STREAM for ``stream_id`` changes (none for unknown streams)."""
    if stream_id == mavlink2.MAV_DATA_STREAM_ALL:
        return tuple(m for group in DATA_STREAM_MESSAGES.values() for m in group)
    return DATA_STREAM_MESSAGES.get(stream_id, ())


@dataclass(frozen=True)
class VehicleRcStatus:
    """The vehicle's view of its RC input at one instant."""

    ever_seen: bool
    in_failsafe: bool
    chancount: int
    channels: tuple[int, ...]  # RC_CHANNELS_FIELDS values; 0 beyond chancount
    frame_count: int
    replies_accepted: int
    replies_rejected: int
    last_reply_error: str | None = None

    @property
    def healthy(self) -> bool:
        return self.ever_seen and not self.in_failsafe


class RcInput:
    """RC receiver state as ArduPilot keeps it: last PWM values, ever-seen latch, failsafe timer."""

    def __init__(self, failsafe_timeout_s: float = RC_FAILSAFE_TIMEOUT_S) -> None:
        self._timeout_s = failsafe_timeout_s
        # SITL's rcin starts at 0.0, which becomes 1000 µs for a channel below the count never sent.
        self._pwm = [1000] * MAX_RC_INPUT_CHANNELS
        self._count = 0
        self._last_input_at: float | None = None
        self._in_failsafe = False

    @property
    def ever_seen(self) -> bool:
        return self._last_input_at is not None

    @property
    def in_failsafe(self) -> bool:
        return self._in_failsafe

    @property
    def chancount(self) -> int:
        return self._count

    def channels(self) -> tuple[int, ...]:
        values = [self._pwm[i] if i < self._count else 0 for i in range(MAX_RC_INPUT_CHANNELS)]
        return tuple(values + [0] * (RC_CHANNELS_FIELDS - MAX_RC_INPUT_CHANNELS))

    def on_input(self, rc: Sequence[float | None], now: float) -> bool:
        """Take one frame of RC input; return True if this ended an RC failsafe."""
        count = min(len(rc), MAX_RC_INPUT_CHANNELS)
        if count == 0:
            return False
        for i in range(count):
            value = rc[i]
            if value is not None and math.isfinite(value):
                self._pwm[i] = max(0, min(65535, round(value)))
        self._count = count
        self._last_input_at = now
        if self._in_failsafe:
            self._in_failsafe = False
            return True
        return False

    def check(self, now: float) -> bool:
        """Advance the failsafe timer; return True if RC failsafe started just now."""
        if self._in_failsafe or self._last_input_at is None:
            return False
        if now - self._last_input_at > self._timeout_s:
            self._in_failsafe = True
            return True
        return False


class StreamTable:
    """Per-message stream rates for one link, with ArduPilot's SET_MESSAGE_INTERVAL semantics."""

    def __init__(self, defaults_hz: dict[int, float], max_hz: float = MAX_STREAM_HZ) -> None:
        self._defaults = dict(defaults_hz)
        self._stream_hz: dict[int, float] = {}
        self._override_hz: dict[int, float] = {}
        self._next_due: dict[int, float] = dict.fromkeys(defaults_hz, 0.0)
        self._max_hz = max_hz

    def rate(self, message_id: int) -> float:
        if message_id in self._override_hz:
            return self._override_hz[message_id]
        return self._stream_hz.get(message_id, self._defaults[message_id])

    def rates(self) -> dict[int, float]:
        return {message_id: self.rate(message_id) for message_id in self._defaults}

    def can_stream(self, message_id: int) -> bool:
        return message_id in self._defaults

    def set_interval(self, message_id: int, interval_us: int, now: float) -> int:
        """Apply a request and return the MAV_RESULT to acknowledge it with."""
        if message_id not in self._defaults:
            return int(mavlink2.MAV_RESULT_DENIED)
        if interval_us > 0:
            self._override_hz[message_id] = min(1e6 / interval_us, self._max_hz)
        elif interval_us == 0:
            self._override_hz.pop(message_id, None)
        elif interval_us == -1:
            self._override_hz[message_id] = 0.0
        else:
            return int(mavlink2.MAV_RESULT_DENIED)
        self._next_due[message_id] = now
        return int(mavlink2.MAV_RESULT_ACCEPTED)

    def set_stream_rate(self, message_ids: Iterable[int], rate_hz: float, now: float) -> None:
        """REQUEST_DATA_STREAM: the group rate, used by every message without its own interval."""
        rate = max(0.0, min(float(rate_hz), self._max_hz)) if math.isfinite(rate_hz) else 0.0
        for message_id in message_ids:
            if message_id in self._defaults:
                self._stream_hz[message_id] = rate
                self._next_due[message_id] = now

    def restart(self, message_id: int, now: float) -> None:
        """Make ``message_id`` due at once (a new client should hear a heartbeat first)."""
        if message_id in self._defaults:
            self._next_due[message_id] = now

    def due(self, now: float) -> list[int]:
        """Message ids to send now; each is rescheduled one period on (or from now if late)."""
        result = []
        for message_id in self._defaults:
            rate = self.rate(message_id)
            if rate <= 0 or now < self._next_due[message_id]:
                continue
            period = 1.0 / rate
            next_due = self._next_due[message_id] + period
            self._next_due[message_id] = next_due if next_due > now else now + period
            result.append(message_id)
        return result

    def seconds_until_next(self, now: float) -> float | None:
        waits = [self._next_due[m] - now for m in self._defaults if self.rate(m) > 0]
        return max(0.0, min(waits)) if waits else None


def prearm_receiver_texts(
    *, in_failsafe: bool, chancount: int, value: Callable[[str], float | None]
) -> list[str]:
    """The receiver texts ArduPilot's pre-arm checks send (``AP_Arming::manual_transmitter_checks``):
    "Radio failsafe on" and nothing more while in RC failsafe, else every delivered channel whose
    RCn_MIN lies above its RCn_TRIM or RCn_MAX below it."""
    if in_failsafe:
        return ["PreArm: Radio failsafe on"]
    texts = []
    for number in range(1, max(0, min(chancount, 16)) + 1):
        low, trim, high = (value(f"RC{number}_{kind}") for kind in ("MIN", "TRIM", "MAX"))
        if trim is None:
            continue
        if low is not None and low > trim:
            texts.append(f"PreArm: RC{number}_MIN is greater than RC{number}_TRIM")
        if high is not None and high < trim:
            texts.append(f"PreArm: RC{number}_MAX is less than RC{number}_TRIM")
    return texts
