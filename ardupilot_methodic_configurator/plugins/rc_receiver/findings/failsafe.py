# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Findings about RC failsafe: whether it is on, its throttle threshold and timing against
ArduPilot's own pre-arm rules, how it was triggered, and RSSI held through it.

Copter's pre-arm check refuses ``FS_THR_VALUE`` below 910 (a PPM encoder's loss-of-signal value is
900) or not 10 µs under the throttle channel's ``RCn_MIN``.
"""

from __future__ import annotations

from collections.abc import Iterable

from .... import _
from ..firmware import (
    VehicleFamily,
    failsafe_timing,
    family_parameters,
    throttle_channel,
)
from ..snapshot import Finding, Severity
from .inputs import FindingInputs, number_text

# Copter's PreArm "Check FS_THR_VALUE": at least 910 (a PPM encoder's loss-of-signal value is
# 900) and at least 10 µs under the throttle minimum.
MIN_FAILSAFE_PWM = 910
FAILSAFE_PWM_MARGIN = 10
LONG_FAILSAFE_TIMEOUT_S = 3.0


def failsafe_enable(inputs: FindingInputs) -> Iterable[Finding]:
    table = family_parameters(inputs.family)
    if table is None or table.failsafe_enable not in inputs.values:
        return
    name = table.failsafe_enable
    value = inputs.values[name]
    if value == 0:
        yield Finding(
            "rc_failsafe_disabled",
            Severity.BLOCKING,
            _(
                "RC failsafe is disabled ({name} = 0): the vehicle does nothing when it loses the receiver."
            ).format(name=name),
            _("Set {name} to a failsafe action (not 0), upload it and repeat the test.").format(name=name),
            name,
            value,
        )
    elif inputs.family is VehicleFamily.PLANE and value == 2:
        yield Finding(
            "rc_failsafe_no_action",
            Severity.WARNING,
            _("{name} = 2 detects the loss of the receiver but takes no failsafe action.").format(name=name),
            _("Set {name} to 1 unless another system takes over when the receiver is lost.").format(
                name=name
            ),
            name,
            value,
        )


def _failsafe_enabled(inputs: FindingInputs) -> bool:
    table = family_parameters(inputs.family)
    return table is not None and inputs.values.get(table.failsafe_enable, 1) != 0


def failsafe_pwm(inputs: FindingInputs) -> Iterable[Finding]:
    table = family_parameters(inputs.family)
    if table is None or not _failsafe_enabled(inputs) or table.failsafe_pwm not in inputs.values:
        return
    name = table.failsafe_pwm
    value = inputs.values[name]
    # A helicopter's throttle channel is its collective, and ArduPilot calls it so.
    heli = inputs.family is VehicleFamily.HELI
    if inputs.family in (VehicleFamily.COPTER, VehicleFamily.HELI) and value < MIN_FAILSAFE_PWM:
        yield Finding(
            "failsafe_pwm_too_low",
            Severity.BLOCKING,
            _(
                "{name} = {value} is below {minimum} µs: ArduCopter refuses to arm (PreArm: Check {name})."
            ).format(name=name, value=number_text(value), minimum=MIN_FAILSAFE_PWM),
            (
                _("Set {name} between {minimum} µs and 10 µs below the collective minimum.")
                if heli
                else _("Set {name} between {minimum} µs and 10 µs below the throttle minimum.")
            ).format(name=name, minimum=MIN_FAILSAFE_PWM),
            name,
            value,
        )
    minimum_name = f"RC{throttle_channel(dict(inputs.values))}_MIN"
    throttle_min = inputs.values.get(minimum_name)
    if throttle_min is not None and throttle_min <= value + FAILSAFE_PWM_MARGIN:
        yield Finding(
            "failsafe_pwm_not_below_throttle_min",
            Severity.BLOCKING,
            (
                _(
                    "{name} = {value} µs is not at least {margin} µs below {minimum_name} = {minimum} µs: "
                    "the collective's normal low end counts as signal loss."
                )
                if heli
                else _(
                    "{name} = {value} µs is not at least {margin} µs below {minimum_name} = {minimum} µs: "
                    "the throttle's normal low end counts as signal loss."
                )
            ).format(
                name=name,
                value=number_text(value),
                margin=FAILSAFE_PWM_MARGIN,
                minimum_name=minimum_name,
                minimum=number_text(throttle_min),
            ),
            _("Lower {name} (or calibrate the radio so that {minimum_name} is higher).").format(
                name=name, minimum_name=minimum_name
            ),
            name,
            value,
        )
    low = inputs.live_throttle_min_us
    if low is not None and low <= value:
        yield Finding(
            "throttle_below_failsafe_pwm",
            Severity.WARNING,
            (
                _(
                    "With the transmitter on, the collective went down to {low} µs, at or below {name} = "
                    "{value} µs: the flight controller is in RC failsafe with the collective down "
                    "(PreArm: Collective below Failsafe)."
                )
                if heli
                else _(
                    "With the transmitter on, the throttle went down to {low} µs, at or below {name} = "
                    "{value} µs: the flight controller is in RC failsafe with the throttle at idle."
                )
            ).format(low=low, name=name, value=number_text(value)),
            (
                _(
                    "Raise the transmitter's collective low end (or lower {name}) so that only signal "
                    "loss goes below it."
                )
                if heli
                else _(
                    "Raise the transmitter's throttle low end (or lower {name}) so that only signal loss "
                    "goes below it."
                )
            ).format(name=name),
            name,
            value,
        )
    elif low is not None and low <= value + FAILSAFE_PWM_MARGIN:
        yield Finding(
            "throttle_low_end_no_margin",
            Severity.WARNING,
            (
                _(
                    "The collective's low end is {low} µs, less than {margin} µs above {name} = {value} "
                    "µs: a little drift with the collective down is enough for RC failsafe."
                )
                if heli
                else _(
                    "The throttle's low end is {low} µs, less than {margin} µs above {name} = {value} µs: a "
                    "little drift at idle is enough for RC failsafe."
                )
            ).format(low=low, margin=FAILSAFE_PWM_MARGIN, name=name, value=number_text(value)),
            (
                _("Lower {name}, or raise the transmitter's collective low end, to leave a margin.")
                if heli
                else _("Lower {name}, or raise the transmitter's throttle low end, to leave a margin.")
            ).format(name=name),
            name,
            value,
        )


def failsafe_timeout(inputs: FindingInputs) -> Iterable[Finding]:
    table = family_parameters(inputs.family)
    if table is None:
        return
    timing = failsafe_timing(inputs.family, inputs.firmware_version)
    delay = timing.action_delay
    if delay is not None and delay not in inputs.values and delay not in inputs.unavailable:
        return  # still being read
    then = (
        " "
        + _("{name} = {value} s then delays the failsafe action.").format(
            name=delay, value=number_text(inputs.values[delay])
        )
        if delay is not None and delay in inputs.values
        else ""
    )
    name = timing.parameter
    if name is None:
        yield Finding(
            "failsafe_timeout",
            Severity.INFO,
            _(
                "This firmware ({version}) enters RC failsafe a fixed {seconds:g} s after the last valid "
                "frame; RC_FS_TIMEOUT takes over from ArduPilot 4.7."
            ).format(version=inputs.firmware_version, seconds=timing.seconds)
            + then,
            _("Allow that long, plus a second for telemetry, before expecting the failsafe."),
            delay,
            inputs.values.get(delay) if delay is not None else None,
        )
        return
    known = name in inputs.values
    if not known and name not in inputs.unavailable:
        return  # still being read
    timeout = timing.timeout_s(inputs.values)
    message = _("Expect RC failsafe about {value} s after the receiver stops ({name}).").format(
        value=number_text(timeout), name=name
    )
    if not known:
        message += " " + _("(firmware default; the value was not read)")
    if inputs.firmware_version is not None:
        message += " " + _("Firmware {version} waits {name}.").format(
            version=inputs.firmware_version, name=name
        )
    if inputs.firmware_version is None and table.fixed_failsafe_before_4_7_s is not None:
        message += " " + _(
            "The firmware's version is not known: before ArduPilot 4.7 this vehicle waits a fixed "
            "{seconds:g} s instead."
        ).format(seconds=table.fixed_failsafe_before_4_7_s)
    long_timeout = timeout > LONG_FAILSAFE_TIMEOUT_S
    yield Finding(
        "failsafe_timeout_long" if long_timeout else "failsafe_timeout",
        Severity.WARNING if long_timeout else Severity.INFO,
        message + then,
        _("A long timeout leaves the vehicle without control for that long; 1 s is the default.")
        if long_timeout
        else _("Allow that long, plus a second for telemetry, before expecting the failsafe."),
        name,
        timeout if known else None,
    )


def failsafe_trigger(inputs: FindingInputs) -> Iterable[Finding]:
    """Which way the receiver made the failsafe happen, from the throttle when it began."""
    if not inputs.failsafe_seen:
        return
    table = family_parameters(inputs.family)
    throttle = inputs.throttle_at_failsafe_us
    threshold = inputs.values.get(table.failsafe_pwm) if table is not None else None
    if table is not None and threshold is not None and throttle is not None and throttle < threshold:
        yield Finding(
            "failsafe_by_low_throttle",
            Severity.INFO,
            (
                _(
                    "RC failsafe came from a low collective: the receiver kept sending pulses, with the "
                    "collective at {throttle} µs, below {name} = {value} µs (a throttle failsafe)."
                )
                if inputs.family is VehicleFamily.HELI
                else _(
                    "RC failsafe came from a low throttle: the receiver kept sending pulses, with throttle "
                    "{throttle} µs, below {name} = {value} µs (a throttle failsafe)."
                )
            ).format(throttle=throttle, name=table.failsafe_pwm, value=number_text(threshold)),
            _(
                "That works while the receiver is powered; a receiver set to stop its output (no pulses) "
                "also covers one that is unplugged or browns out."
            ),
            table.failsafe_pwm,
            threshold,
        )
        return
    yield Finding(
        "failsafe_by_no_pulses",
        Severity.INFO,
        _(
            "RC failsafe came from the receiver itself: it stopped its output (no pulses) or flagged the "
            "signal loss, and the flight controller held the last values."
        ),
        _("Nothing to change: this is the receiver failsafe ArduPilot recommends."),
    )


def rssi_held(inputs: FindingInputs) -> Iterable[Finding]:
    before, during = inputs.rssi_before_failsafe, inputs.rssi_during_failsafe
    if before is None or during is None or before == 0 or during < before:
        return
    yield Finding(
        "rssi_held_in_failsafe",
        Severity.WARNING,
        _(
            "RSSI kept its last value ({value}) through the RC failsafe: it does not show the live link "
            "with this receiver."
        ).format(value=before),
        _(
            "Do not judge range by this RSSI; with CRSF/ExpressLRS use RSSI_TYPE 3 and, for link quality, "
            "RC_OPTIONS bit 11."
        ),
        "RSSI_TYPE",
        inputs.values.get("RSSI_TYPE"),
    )
