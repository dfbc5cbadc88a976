# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The simulated transmitter as ArduPilot SITL's RC input: PWM datagrams to UDP 5501 + 10·N.

SITL builds of mid-2025 take RC only from this port (their JSON parser has no ``rc`` key): each
datagram carries 8 or 16 little-endian uint16 pulse widths in µs.  When datagrams stop, SITL
holds the last values and stays healthy, so switching the transmitter off cannot be shown by
silence alone.  ``FailsafeTransmitter`` therefore offers the two things a real receiver does on
link loss: *no pulses* (nothing is sent; the simulator runner also sets ``SIM_RC_FAIL=1`` so SITL
treats the silence as a lost receiver) and *low throttle* (the receiver keeps sending, with the
throttle channel below ``FS_THR_VALUE``).  The same transmitter object feeds the JSON back end, so
a build that does read JSON ``rc`` sees exactly what the RC-input port sees.

``encode_rc_pulses`` is the sans-IO part; ``RcInputSender`` owns one socket and one thread.
"""

from __future__ import annotations

import enum
import struct
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..net.services import ThreadedService, bind_udp
from .transmitter import DEFAULT_STICKS, StickLayout, StickSweep, Transmitter

RC_INPUT_BASE_PORT = 5501
RC_SEND_RATE_HZ = 50.0
# Below every default FS_THR_VALUE (Copter 975, Rover 910) and still a pulse SITL accepts.
DEFAULT_LOW_THROTTLE_PWM = 900
# How far below FS_THR_VALUE the low-throttle failsafe holds the throttle.
LOW_THROTTLE_MARGIN = 50
MIN_PULSE = 800
THROTTLE_CHANNEL = 3
_PULSE_COUNTS = (8, 16)


class FailsafeMode(enum.Enum):
    """What the receiver does when the transmitter goes off."""

    NO_PULSES = "no-pulses"
    LOW_THROTTLE = "low-throttle"


def encode_rc_pulses(values: Sequence[int]) -> bytes:
    """One RC-input datagram: the values padded with zeros to 8 or 16 channels (more is an error)."""
    if len(values) > _PULSE_COUNTS[-1]:
        raise ValueError(f"SITL RC input carries at most 16 channels, got {len(values)}")
    count = next(size for size in _PULSE_COUNTS if size >= len(values))
    padded = [*values, *(0 for _ in range(count - len(values)))]
    for value in padded:
        if not 0 <= value <= 0xFFFF:
            raise ValueError(f"pulse width {value} does not fit in uint16")
    return struct.pack(f"<{count}H", *padded)


def low_throttle_pwm(fs_thr_value: float | None) -> int:
    """Throttle pulse for the low-throttle failsafe: safely below ``FS_THR_VALUE``, never below 800."""
    if fs_thr_value is None:
        return DEFAULT_LOW_THROTTLE_PWM
    return max(MIN_PULSE, min(DEFAULT_LOW_THROTTLE_PWM, round(fs_thr_value) - LOW_THROTTLE_MARGIN))


class FailsafeTransmitter(Transmitter):
    """The simulated transmitter with a receiver that fails in the chosen ``FailsafeMode``.

    ``channels(t)`` is what the receiver outputs: the sticks while on; while off, ``None`` (no
    pulses) or the sticks with the throttle held low.  Thread-safe like ``Transmitter``.

    ``vehicle_ready``, when given, says whether the vehicle has finished booting; until it has,
    the receiver outputs no pulses.  ArduCopter that boots with the throttle stick high takes it
    for an ESC calibration request and never leaves its start-up (observed with SITL restarted
    while the throttle sweep was up), so the sticks reach the vehicle only once it is up, as a
    pilot switches on with the throttle down.
    """

    def __init__(
        self,
        mode: FailsafeMode = FailsafeMode.NO_PULSES,
        *,
        channel_count: int = 8,
        on: bool = True,
        sticks: tuple[StickSweep, ...] = DEFAULT_STICKS,
        vehicle_ready: Callable[[], bool] | None = None,
        layout: StickLayout | None = None,
    ) -> None:
        super().__init__(channel_count, on=on, sticks=sticks, layout=layout)
        self._mode = mode
        self._vehicle_ready = vehicle_ready
        self._settings_lock = threading.Lock()
        self._low_throttle = DEFAULT_LOW_THROTTLE_PWM
        self._throttle_index = THROTTLE_CHANNEL - 1

    @property
    def mode(self) -> FailsafeMode:
        return self._mode

    @property
    def low_throttle(self) -> int:
        with self._settings_lock:
            return self._low_throttle

    def configure_throttle(self, *, low_pwm: int, channel: int = THROTTLE_CHANNEL) -> None:
        """Follow the vehicle's ``FS_THR_VALUE`` and ``RCMAP_THROTTLE`` once they are known."""
        if not 1 <= channel <= self.channel_count:
            raise ValueError(f"throttle channel {channel} is outside 1..{self.channel_count}")
        with self._settings_lock:
            self._low_throttle = low_pwm
            self._throttle_index = channel - 1

    def channels(self, t: float) -> tuple[int, ...] | None:
        if self._vehicle_ready is not None and not self._vehicle_ready():
            return None
        if self.on:
            return self.sticks_at(t)
        if self._mode is FailsafeMode.NO_PULSES:
            return None
        values = list(self.sticks_at(t))
        with self._settings_lock:
            values[self._throttle_index] = self._low_throttle
        return tuple(values)


@dataclass(frozen=True)
class RcInputCounters:
    sent: int = 0
    send_errors: int = 0
    last_values: tuple[int, ...] | None = None


class RcInputSender(ThreadedService):
    """Sends ``transmitter.channels(t)`` to SITL's RC-input port at ``rate_hz`` while there are pulses.

    ``t`` is seconds since ``start()``; the socket is bound to the loopback in the constructor.
    """

    def __init__(
        self,
        transmitter: Transmitter,
        target: tuple[str, int],
        *,
        rate_hz: float = RC_SEND_RATE_HZ,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__("sitl-rc-input")
        if rate_hz <= 0:
            raise ValueError(f"rate_hz must be positive, got {rate_hz}")
        self._transmitter = transmitter
        self._target = target
        self._period_s = 1.0 / rate_hz
        self._clock = clock
        self._lock = threading.Lock()
        self._sent = 0
        self._send_errors = 0
        self._last_values: tuple[int, ...] | None = None
        self._sock = bind_udp(("127.0.0.1", 0))

    @property
    def target(self) -> tuple[str, int]:
        return self._target

    def counters(self) -> RcInputCounters:
        with self._lock:
            return RcInputCounters(self._sent, self._send_errors, self._last_values)

    def _close(self) -> None:
        self._sock.close()

    def _run(self) -> None:
        start = self._clock()
        next_send = start
        while not self._stop_event.is_set():
            now = self._clock()
            if now >= next_send:
                self._send_once(now - start)
                # Keep the cadence, but never try to catch up a backlog after a stall.
                next_send = max(next_send + self._period_s, now)
            self._stop_event.wait(max(0.0, next_send - self._clock()))

    def _send_once(self, t: float) -> None:
        values = self._transmitter.channels(t)
        if values is None:
            return
        try:
            self._sock.sendto(encode_rc_pulses(values), self._target)
        except OSError:
            # SITL not listening yet (ICMP port unreachable) or restarting: the next tick retries.
            with self._lock:
                self._send_errors += 1
            return
        with self._lock:
            self._sent += 1
            self._last_values = values
