# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the finding rules may look at, and the one way they write a number."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from ..firmware import (
    FirmwareVersion,
    VehicleFamily,
)
from ..snapshot import Finding, PrearmAnswer, StickResult


@dataclass(frozen=True)
class FindingInputs:
    """What the rules may look at: values known so far and what the test has observed."""

    family: VehicleFamily
    values: Mapping[str, float]
    unavailable: frozenset[str] = frozenset()
    step_file: str | None = None
    step_values: Mapping[str, float] = field(default_factory=dict)
    receiver_present: bool | None = None
    # RSSI while RC_CHANNELS are live: None = the flight controller says "unknown" (255).
    rssi_live: bool = False
    rssi: int | None = None
    detected_protocol: str | None = None
    # The throttle channel's lowest PWM while the transmitter was on and not in failsafe.
    live_throttle_min_us: int | None = None
    # Around the test's first RC failsafe (`FailsafeWitness`): the throttle when it began, and
    # the live RSSI just before it and the highest during it.
    failsafe_seen: bool = False
    throttle_at_failsafe_us: int | None = None
    rssi_before_failsafe: int | None = None
    rssi_during_failsafe: int | None = None
    # The stick step's results, judged with the values above.
    sticks: tuple[StickResult, ...] = ()
    # The firmware's version where known: when a silent receiver becomes RC failsafe depends on it.
    firmware_version: FirmwareVersion | None = None
    # How many input channels the receiver delivers (RC_CHANNELS.chancount), once known.
    delivered_channels: int | None = None
    # ArduPilot's answers to the check's requests to run its pre-arm checks, in the order asked.
    prearm: tuple[PrearmAnswer, ...] = ()
    # Channel number -> its latest PWM (µs) in this test: where a switch stands.
    channel_pwm: Mapping[int, int] = field(default_factory=dict)


Rule = Callable[[FindingInputs], Iterable[Finding]]


def number_text(value: float) -> str:
    return f"{value:g}"
