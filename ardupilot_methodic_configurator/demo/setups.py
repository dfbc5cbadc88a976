# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Demo set-ups: which vehicle the demo is, its receiver parameters, and how its receiver fails.

``--demo-vehicle`` picks the firmware (Copter, Heli, Plane, Rover: HEARTBEAT type, parameter names,
stream defaults); ``--demo-setup`` picks a configuration that makes one finding or verdict happen,
so every one of them can be shown without hardware.  The parameter sets extend the ArduCopter set
of `demo.parameters` (Plane and Rover keep its shared libraries - RC, RCMAP, RSSI, SERVO, SERIAL -
and add their own failsafe and mode parameters, with ArduPilot's names and defaults).

The demo *reacts* to the parameters the way ArduPilot does, through `FailsafeRcInput`:
``FS_THR_ENABLE`` = 0 on Copter and Rover means RC failsafe never starts, so the receiver health
bit never drops; a throttle below ``FS_THR_VALUE`` starts a throttle failsafe while pulses
continue; Plane reports a silent receiver unhealthy whatever ``THR_FAILSAFE`` says; ``RC_OPTIONS``
bit 0 or ``RC_PROTOCOLS`` = 0 make the receiver invisible. How long a silent receiver takes to
become RC failsafe follows the firmware the demo says it runs (4.6.2): Copter's ``RC_FS_TIMEOUT``,
Plane's and Rover's fixed times (`SILENT_RECEIVER_FAILSAFE_S`). The receiver's own failsafe (what
it outputs once the transmitter is gone) is `FailsafeReceiver`, a transmitter that keeps sending
held or custom positions instead of going silent.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from .parameter_store import ParameterStore
from .parameters import (
    COPTER_CONFIGURED,
    COPTER_PARAMETERS,
    ParameterSpec,
    ParamKind,
)
from .transmitter import PWM_MID, StickLayout, Transmitter
from .vehicle_rules import RSSI_TYPE_DISABLED, RSSI_TYPE_RECEIVER_PROTOCOL, RcInput

_I8, _I16, _F = ParamKind.INT8, ParamKind.INT16, ParamKind.FLOAT
# Libraries every firmware shares: kept from the Copter set for Plane and Rover.
_SHARED_PREFIXES = (
    "FORMAT_VERSION",
    "SYSID_",
    "RC",
    "RSSI_",
    "SERVO",
    "SERIAL",
    "LOG_",
    "ARMING_",
    "BATT_",
    "SCHED_",
)
_COPTER_ONLY = ("RC_SPEED",)


class DemoVehicle(Enum):
    COPTER = "copter"
    HELI = "heli"
    PLANE = "plane"
    ROVER = "rover"


# ArduPilot before 4.7 (the demo announces 4.6.2): a silent receiver is RC failsafe after a fixed
# time on Plane (1 s since the last valid frame) and Rover (0.5 s), not after RC_FS_TIMEOUT.
SILENT_RECEIVER_FAILSAFE_S: dict[DemoVehicle, float] = {DemoVehicle.PLANE: 1.0, DemoVehicle.ROVER: 0.5}


class ReceiverFailsafe(Enum):
    """What the simulated receiver outputs once it loses the transmitter."""

    NO_PULSES = "no pulses"
    HOLD = "hold"  # the last positions, for ever
    CUSTOM = "custom"  # preset positions: neutral sticks and ``custom_throttle_us``


@dataclass(frozen=True)
class DemoSetup:
    name: str
    description: str
    values: dict[str, float] = field(default_factory=dict)
    receiver_failsafe: ReceiverFailsafe = ReceiverFailsafe.NO_PULSES
    custom_throttle_us: int = 1000
    # What the flight controller announces it decodes ("RCInput: decoding SBUS(1)").
    receiver_protocol: str = "SBUS"
    # The receiver's RSSI keeps its last value when the transmitter is gone (some CRSF set-ups).
    rssi_held: bool = False
    # The transmitter's model: its channel order and the sticks it reverses.
    sticks: StickLayout = field(default_factory=StickLayout)
    # A mode-switch slot set to a mode the vehicle refuses on the ground (`REFUSED_MODE`).
    refused_slot: int | None = None


@dataclass(frozen=True)
class VehicleProfile:
    mav_type: int
    default_stream_hz: float
    specs: tuple[ParameterSpec, ...]
    configured: dict[str, float]
    failsafe_enable: str
    failsafe_pwm: str
    mode_channel: str = "FLTMODE_CH"


def _shared_specs() -> list[ParameterSpec]:
    return [
        spec
        for spec in COPTER_PARAMETERS
        if spec.name.startswith(_SHARED_PREFIXES) and spec.name not in _COPTER_ONLY
    ]


def _with(
    specs: Sequence[ParameterSpec], rows: Sequence[tuple[str, float, ParamKind]]
) -> tuple[ParameterSpec, ...]:
    return (*specs, *(ParameterSpec(name, float(default), kind) for name, default, kind in rows))


def _modes(prefix: str, channel_name: str, channel: int) -> list[tuple[str, float, ParamKind]]:
    return [(channel_name, float(channel), _I8)] + [(f"{prefix}{slot}", 0.0, _I8) for slot in range(1, 7)]


_PLANE_SPECS = _with(
    _shared_specs(),
    [
        ("THR_FAILSAFE", 1, _I8),
        ("THR_FS_VALUE", 950, _I16),
        ("FS_SHORT_ACTN", 0, _I8),
        ("FS_SHORT_TIMEOUT", 1.5, _F),
        ("FS_LONG_ACTN", 0, _I8),
        ("FS_LONG_TIMEOUT", 5.0, _F),
        *_modes("FLTMODE", "FLTMODE_CH", 8),
    ],
)
_ROVER_SPECS = _with(
    _shared_specs(),
    [
        ("FS_ACTION", 2, _I8),
        ("FS_TIMEOUT", 1.5, _F),
        ("FS_THR_ENABLE", 1, _I8),
        ("FS_THR_VALUE", 910, _I16),
        *_modes("MODE", "MODE_CH", 8),
    ],
)
# A mode each vehicle refuses on the ground (demo.flight_modes): SMART_RTL (Copter, Heli: no path
# yet), QSTABILIZE (Plane without Q_ENABLE), SMART_RTL (Rover).
REFUSED_MODE: dict[DemoVehicle, int] = {
    DemoVehicle.COPTER: 21,
    DemoVehicle.HELI: 21,
    DemoVehicle.PLANE: 17,
    DemoVehicle.ROVER: 12,
}
_COPTER_MODES = {"FLTMODE1": 0, "FLTMODE2": 2, "FLTMODE3": 5, "FLTMODE4": 6, "FLTMODE5": 16, "FLTMODE6": 9}
PROFILES: dict[DemoVehicle, VehicleProfile] = {
    DemoVehicle.COPTER: VehicleProfile(
        int(mavlink2.MAV_TYPE_QUADROTOR),
        0.0,
        COPTER_PARAMETERS,
        {**COPTER_CONFIGURED, **_COPTER_MODES},
        "FS_THR_ENABLE",
        "FS_THR_VALUE",
    ),
    DemoVehicle.HELI: VehicleProfile(
        int(mavlink2.MAV_TYPE_HELICOPTER),
        0.0,
        COPTER_PARAMETERS,
        # ArduCopter's helicopter build defaults RC8_OPTION to 32, the motor interlock it needs to arm.
        {**COPTER_CONFIGURED, **_COPTER_MODES, "FRAME_CLASS": 6.0, "RC8_OPTION": 32.0},
        "FS_THR_ENABLE",
        "FS_THR_VALUE",
    ),
    DemoVehicle.PLANE: VehicleProfile(
        int(mavlink2.MAV_TYPE_FIXED_WING),
        0.0,
        _PLANE_SPECS,
        # The demo transmitter's mode switch is CH5; FBWA, CRUISE, AUTO, RTL, LOITER, MANUAL.
        {"FLTMODE_CH": 5, "FLTMODE1": 5, "FLTMODE2": 7, "FLTMODE3": 10, "FLTMODE4": 11, "FLTMODE5": 12},
        "THR_FAILSAFE",
        "THR_FS_VALUE",
    ),
    DemoVehicle.ROVER: VehicleProfile(
        int(mavlink2.MAV_TYPE_GROUND_ROVER),
        1.0,
        _ROVER_SPECS,
        {"MODE_CH": 5, "MODE1": 0, "MODE2": 1, "MODE3": 3, "MODE4": 4, "MODE5": 15, "MODE6": 11},
        "FS_THR_ENABLE",
        "FS_THR_VALUE",
        "MODE_CH",
    ),
}

# Parameter names are filled in per vehicle: "{enable}", "{pwm}" and "{mode_channel}" stand for the
# family's names.
SETUPS: dict[str, DemoSetup] = {
    setup.name: setup
    for setup in (
        DemoSetup(
            "configured",
            "a receiver set up as it should be: every check passes",
            {"RC_PROTOCOLS": 8},  # SBUS only
        ),
        DemoSetup("protocol-all", "RC_PROTOCOLS 1: every protocol is tried", {"RC_PROTOCOLS": 1}),
        DemoSetup(
            "receiver-rssi-held",
            "the receiver's RSSI keeps its last value when the transmitter is off",
            {"RC_PROTOCOLS": 8},
            rssi_held=True,
        ),
        DemoSetup(
            "elrs-modes-on-ch5",
            "an ExpressLRS receiver (CRSF) with the flight modes on channel 5, its arm channel",
            {"RC_PROTOCOLS": 512, "{mode_channel}": 5, "RC_OPTIONS": 32},
            receiver_protocol="CRSF",
        ),
        DemoSetup(
            "reversed-pitch",
            "the transmitter reverses pitch: pushed forward, CH2 goes up",
            {"RC_PROTOCOLS": 8},
            sticks=StickLayout(reversed=frozenset({"pitch"})),
        ),
        DemoSetup(
            "swapped-roll-pitch",
            "the transmitter sends pitch on CH1 and roll on CH2 (channel order EATR)",
            {"RC_PROTOCOLS": 8},
            sticks=StickLayout(order="EATR"),
        ),
        DemoSetup("failsafe-disabled", "RC failsafe switched off: the vehicle never reacts", {"{enable}": 0}),
        DemoSetup(
            "receiver-hold",
            "the receiver holds its last positions on signal loss: no failsafe",
            receiver_failsafe=ReceiverFailsafe.HOLD,
        ),
        DemoSetup(
            "receiver-custom-throttle",
            "the receiver sends preset positions with throttle 1000 µs, above the failsafe value",
            receiver_failsafe=ReceiverFailsafe.CUSTOM,
            custom_throttle_us=1000,
        ),
        DemoSetup(
            "receiver-low-throttle",
            "the receiver sends throttle 900 µs on signal loss: a throttle failsafe",
            receiver_failsafe=ReceiverFailsafe.CUSTOM,
            custom_throttle_us=900,
        ),
        DemoSetup(
            "failsafe-value-too-high",
            "the failsafe PWM is not 10 µs below the throttle minimum",
            {"{pwm}": 1095},
        ),
        DemoSetup("rssi-disabled", "RSSI_TYPE 0: RSSI reads unavailable", {"RSSI_TYPE": RSSI_TYPE_DISABLED}),
        DemoSetup("overrides-never-time-out", "RC_OVERRIDE_TIME -1", {"RC_OVERRIDE_TIME": -1}),
        DemoSetup(
            "ignore-failsafe-bit", "RC_OPTIONS bit 2 ignores the receiver's failsafe flag", {"RC_OPTIONS": 36}
        ),
        DemoSetup("ignore-receiver", "RC_OPTIONS bit 0: the receiver is ignored", {"RC_OPTIONS": 33}),
        DemoSetup("no-protocols", "RC_PROTOCOLS 0: no receiver protocol is decoded", {"RC_PROTOCOLS": 0}),
        DemoSetup(
            "mode-refused",
            "mode switch slot 6 holds a mode the vehicle refuses on the ground (Copter: SMART_RTL)",
            {"RC_PROTOCOLS": 8},
            refused_slot=6,
        ),
        DemoSetup(
            "no-motor-interlock",
            "no channel is the motor interlock (RC8_OPTION 0): a heli cannot arm",
            {"RC_PROTOCOLS": 8, "RC8_OPTION": 0},
        ),
        DemoSetup(
            "interlock-and-estop",
            "a motor interlock (RC8_OPTION 32) and an emergency stop (RC7_OPTION 31): no arming",
            {"RC_PROTOCOLS": 8, "RC7_OPTION": 31, "RC8_OPTION": 32},
        ),
    )
}
DEFAULT_SETUP = "configured"


@dataclass(frozen=True)
class DemoChoice:
    """The demo vehicle and set-up chosen on the command line."""

    vehicle: DemoVehicle = DemoVehicle.COPTER
    setup: str = DEFAULT_SETUP
    # The command line's channel order and reversed sticks, instead of the set-up's.
    sticks: StickLayout | None = None

    @property
    def profile(self) -> VehicleProfile:
        return PROFILES[self.vehicle]

    @property
    def demo_setup(self) -> DemoSetup:
        return SETUPS[self.setup]

    def values(self, *, system_id: int = 1, rc_failsafe_timeout_s: float = 1.0) -> dict[str, float]:
        profile = self.profile
        names = {
            "{enable}": profile.failsafe_enable,
            "{pwm}": profile.failsafe_pwm,
            "{mode_channel}": profile.mode_channel,
        }
        known = {spec.name for spec in profile.specs}
        values = {name: value for name, value in profile.configured.items() if name in known}
        values.update(
            {
                "SYSID_THISMAV": float(system_id),
                "RC_FS_TIMEOUT": rc_failsafe_timeout_s,
                "RSSI_TYPE": float(RSSI_TYPE_RECEIVER_PROTOCOL),
            }
        )
        values.update({names.get(name, name): float(value) for name, value in self.demo_setup.values.items()})
        slot = self.demo_setup.refused_slot
        if slot is not None:
            prefix = "MODE" if profile.mode_channel == "MODE_CH" else "FLTMODE"
            values[f"{prefix}{slot}"] = float(REFUSED_MODE[self.vehicle])
        return values

    def parameters(self, *, system_id: int = 1, rc_failsafe_timeout_s: float = 1.0) -> ParameterStore:
        return ParameterStore(
            self.profile.specs, self.values(system_id=system_id, rc_failsafe_timeout_s=rc_failsafe_timeout_s)
        )

    def reports_rssi(self) -> bool:
        return self.values().get("RSSI_TYPE", RSSI_TYPE_DISABLED) != RSSI_TYPE_DISABLED

    def rc_input(self, parameters: ParameterStore) -> FailsafeRcInput:
        return FailsafeRcInput(self.vehicle, parameters.values())

    def transmitter(self, *, on: bool = True) -> FailsafeReceiver:
        setup = self.demo_setup
        layout = self.sticks if self.sticks is not None else setup.sticks
        return FailsafeReceiver(setup.receiver_failsafe, setup.custom_throttle_us, on=on, layout=layout)


class FailsafeReceiver(Transmitter):
    """The transmitter as the flight controller sees it through a receiver with a failsafe setting.

    Switched off, a no-pulses receiver goes silent (``None``: the back end omits ``rc``); a
    hold receiver repeats the last positions; a custom one sends neutral sticks and its preset
    throttle, as ArduPilot SITL's ``SIM_RC_FAIL=2`` does.
    """

    def __init__(
        self,
        failsafe: ReceiverFailsafe,
        custom_throttle_us: int,
        *,
        on: bool = True,
        layout: StickLayout | None = None,
    ) -> None:
        super().__init__(on=on, layout=layout)
        self._failsafe = failsafe
        self._custom_throttle_us = custom_throttle_us
        self._last: tuple[int, ...] | None = None

    def channels(self, t: float) -> tuple[int, ...] | None:
        if self.on:
            self._last = self.sticks_at(t)
            return self._last
        if self._failsafe is ReceiverFailsafe.HOLD:
            return self._last
        if self._failsafe is ReceiverFailsafe.CUSTOM:
            count = self.channel_count
            return tuple(self._custom_throttle_us if index == 2 else PWM_MID for index in range(count))
        return None


class FailsafeRcInput(RcInput):
    """ArduPilot's RC failsafe rules for one vehicle, on top of the demo's `RcInput`.

    `RcInput` keeps the values and the no-pulses timer; this adds what the parameters decide:
    whether the receiver is decoded at all, whether a silent receiver is a failsafe, and the
    throttle failsafe below the failsafe PWM.  Edges are returned as `RcInput` returns them: a
    failsafe that starts with a low-throttle frame is reported by the next ``check``.
    """

    def __init__(self, vehicle: DemoVehicle, values: dict[str, float]) -> None:
        profile = PROFILES[vehicle]
        fixed = SILENT_RECEIVER_FAILSAFE_S.get(vehicle)
        super().__init__(fixed if fixed is not None else values.get("RC_FS_TIMEOUT", 1.0))
        self._vehicle = vehicle
        self._fs_enabled = values.get(profile.failsafe_enable, 1.0) != 0
        self._fs_pwm = values.get(profile.failsafe_pwm, 0.0)
        channel = int(values.get("RCMAP_THROTTLE", 3))
        self._throttle_index = channel - 1 if 1 <= channel <= 16 else 2
        options = int(values.get("RC_OPTIONS", 0))
        self._ignored = bool(options & 1) or int(values.get("RC_PROTOCOLS", 1)) == 0
        self._low_throttle = False
        # The failsafe state last announced through on_input/check (for their edge results).
        self._reported = False

    @property
    def in_failsafe(self) -> bool:
        # Plane marks a silent receiver unhealthy whatever THR_FAILSAFE says; Copter and Rover
        # never enter RC failsafe with it disabled.
        silent = super().in_failsafe and (self._fs_enabled or self._vehicle is DemoVehicle.PLANE)
        return silent or self._low_throttle

    def on_input(self, rc: Sequence[float | None], now: float) -> bool:
        """Take one frame; True if this ended an RC failsafe."""
        if self._ignored:
            return False
        super().on_input(rc, now)
        throttle = rc[self._throttle_index] if self._throttle_index < len(rc) else None
        self._low_throttle = (
            self._fs_enabled and throttle is not None and math.isfinite(throttle) and throttle < self._fs_pwm
        )
        cleared = self._reported and not self.in_failsafe
        if cleared:
            self._reported = False
        return cleared

    def check(self, now: float) -> bool:
        """Advance the no-pulses timer; True if RC failsafe started since it was last reported."""
        super().check(now)
        started = self.in_failsafe and not self._reported
        self._reported = self.in_failsafe
        return started
