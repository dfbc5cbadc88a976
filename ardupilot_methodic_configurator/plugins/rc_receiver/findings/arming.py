# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Findings for what ArduPilot refuses at arming, from the receiver parameters, before it does.

Each rule restates one of ArduPilot's own arming checks that reads nothing but parameters, so the
check can say before the first arming attempt what the flight controller will answer:

- two channels with the same ``RCn_OPTION`` ("Arm: Duplicate Aux Switch Options": ``AP_Arming::
  rc_arm_checks`` asks ``RC_Channels::duplicate_options_exist``, which skips 0, "do nothing", and
  every value from ``AUX_FUNCTION_MAX`` up, and reads all sixteen channels);
- an ``RCn_OPTION`` on the flight-mode channel ("Arm: Mode channel and RC5_OPTION conflict":
  ``RC_Channels::flight_mode_channel_conflicts_with_rc_option``; ArduPilot sees no mode channel
  for 0 and none from 16 up);
- ``RCn_MIN`` above ``RCn_TRIM`` or ``RCn_MAX`` below it on a channel the receiver delivers
  ("PreArm: RC5_MIN is greater than RC5_TRIM": ``AP_Arming::rc_calibration_checks``, which skips
  channels beyond the receiver's channel count);
- a stick channel's ``RCn_MIN`` above 1300 or ``RCn_MAX`` below 1700 on Copter, Heli and Rover
  ("PreArm: Roll radio min too high": ``AP_Arming::rc_checks_copter_sub`` and
  ``AP_Arming_Rover::rc_calibration_checks``).

ArduPilot prefixes these texts with "PreArm: " when it reports them on its own (every 30 s) and
with "Arm: " when it refuses an arming request; the findings quote them without either.  The
duplicate and mode-channel checks run only once every pre-arm check has passed, so ArduPilot
names them last.

One more is ours, not ArduPilot's: an ``RCn_OPTION`` on a stick channel (``RCMAP_*``) arms, but
moving that stick switches the function, so it is a warning.  A rule says nothing about a channel
whose values are not known yet.
"""

from __future__ import annotations

from collections.abc import Iterable

from .... import _
from ..firmware import (
    AUX_FUNCTION_MAX,
    MAX_RC_CHANNEL,
    MODE_CHANNEL_CHECKED_BELOW,
    RC_CALIB_MAX_LIMIT_PWM,
    RC_CALIB_MIN_LIMIT_PWM,
    RC_OPTION_DO_NOTHING,
    VehicleFamily,
    family_parameters,
    mode_channel,
    option_parameter,
    range_parameters,
    stick_channel,
    stick_channels,
)
from ..snapshot import Finding, Severity
from .inputs import FindingInputs, number_text

# The stick names ArduPilot prints in "PreArm: <name> radio min too high", by RCMAP parameter.
_COPTER_STICK_NAMES: dict[str, str] = {
    "RCMAP_ROLL": "Roll",
    "RCMAP_PITCH": "Pitch",
    "RCMAP_THROTTLE": "Throttle",
    "RCMAP_YAW": "Yaw",
}
_ROVER_STICK_NAMES: dict[str, str] = {"RCMAP_ROLL": "Steer", "RCMAP_THROTTLE": "Throttle"}
_CALIBRATED_STICKS: dict[VehicleFamily, dict[str, str]] = {
    VehicleFamily.COPTER: _COPTER_STICK_NAMES,
    VehicleFamily.HELI: _COPTER_STICK_NAMES,
    VehicleFamily.ROVER: _ROVER_STICK_NAMES,
}


def _options(inputs: FindingInputs) -> dict[int, int]:
    """Channel number -> its known ``RCn_OPTION`` (whole numbers only)."""
    found: dict[int, int] = {}
    for number in range(1, MAX_RC_CHANNEL + 1):
        value = inputs.values.get(option_parameter(number))
        if value is not None and value == int(value):
            found[number] = int(value)
    return found


def counts_as_duplicate(option: int) -> bool:
    """Whether ArduPilot's duplicate check counts ``option`` at all."""
    return option != RC_OPTION_DO_NOTHING and 0 <= option < AUX_FUNCTION_MAX


def duplicate_options(inputs: FindingInputs) -> Iterable[Finding]:
    channels_of: dict[int, list[int]] = {}
    for number, option in _options(inputs).items():
        if counts_as_duplicate(option):
            channels_of.setdefault(option, []).append(number)
    for option, numbers in sorted(channels_of.items()):
        if len(numbers) < 2:
            continue
        names = [option_parameter(number) for number in numbers]
        yield Finding(
            "rc_option_duplicate",
            Severity.BLOCKING,
            _(
                "{names} all set the same auxiliary function ({option}): ArduPilot refuses to arm "
                '("Duplicate Aux Switch Options").'
            ).format(names=", ".join(names), option=option),
            _(
                "Keep function {option} on one channel and set the others' {names} to 0 "
                "(or another function)."
            ).format(option=option, names=", ".join(names[1:])),
            names[0],
            option,
        )


def mode_channel_option(inputs: FindingInputs) -> Iterable[Finding]:
    table = family_parameters(inputs.family)
    if table is None or table.mode_channel not in inputs.values:
        return
    channel = mode_channel(inputs.family, dict(inputs.values))
    if channel is None or channel >= MODE_CHANNEL_CHECKED_BELOW:
        return
    name = option_parameter(channel)
    option = _options(inputs).get(channel)
    if option is None or option == RC_OPTION_DO_NOTHING:
        return
    yield Finding(
        "rc_option_on_mode_channel",
        Severity.BLOCKING,
        _(
            "{name} = {option} puts an auxiliary function on the flight-mode channel ({mode} = {channel}): "
            'ArduPilot refuses to arm ("Mode channel and {name} conflict").'
        ).format(name=name, option=option, mode=table.mode_channel, channel=channel),
        _("Set {name} to 0, or move the flight-mode switch to a free channel and set {mode} to it.").format(
            name=name, mode=table.mode_channel
        ),
        name,
        option,
    )


def stick_channel_option(inputs: FindingInputs) -> Iterable[Finding]:
    options = _options(inputs)
    for channel, parameter in sorted(stick_channels(inputs.family, dict(inputs.values)).items()):
        if parameter not in inputs.values:
            continue  # which channel the stick is on is not known yet
        option = options.get(channel)
        if option is None or option == RC_OPTION_DO_NOTHING:
            continue
        name = option_parameter(channel)
        yield Finding(
            "rc_option_on_stick_channel",
            Severity.WARNING,
            _(
                "{name} = {option} puts an auxiliary function on a stick channel ({parameter} = {channel}): "
                "moving that stick switches the function in flight."
            ).format(name=name, option=option, parameter=parameter, channel=channel),
            _("Set {name} to 0 and give the function a switch channel of its own.").format(name=name),
            name,
            option,
        )


def trim_order(inputs: FindingInputs) -> Iterable[Finding]:
    delivered = inputs.delivered_channels
    if delivered is None:
        return
    for number in range(1, min(delivered, MAX_RC_CHANNEL) + 1):
        minimum_name, trim_name, maximum_name = range_parameters(number)
        minimum = inputs.values.get(minimum_name)
        trim = inputs.values.get(trim_name)
        maximum = inputs.values.get(maximum_name)
        if trim is None:
            continue
        action = _(
            "Calibrate the radio again (it sets {minimum_name}, {trim_name} and {maximum_name}), or set "
            "{trim_name} between {minimum_name} and {maximum_name}."
        ).format(minimum_name=minimum_name, trim_name=trim_name, maximum_name=maximum_name)
        if minimum is not None and minimum > trim:
            yield Finding(
                "rc_min_above_trim",
                Severity.BLOCKING,
                _(
                    "{minimum_name} = {minimum} is above {trim_name} = {trim}: ArduPilot refuses to arm "
                    '("{minimum_name} is greater than {trim_name}").'
                ).format(
                    minimum_name=minimum_name,
                    minimum=number_text(minimum),
                    trim_name=trim_name,
                    trim=number_text(trim),
                ),
                action,
                minimum_name,
                minimum,
            )
        if maximum is not None and maximum < trim:
            yield Finding(
                "rc_max_below_trim",
                Severity.BLOCKING,
                _(
                    "{maximum_name} = {maximum} is below {trim_name} = {trim}: ArduPilot refuses to arm "
                    '("{maximum_name} is less than {trim_name}").'
                ).format(
                    maximum_name=maximum_name,
                    maximum=number_text(maximum),
                    trim_name=trim_name,
                    trim=number_text(trim),
                ),
                action,
                maximum_name,
                maximum,
            )


def stick_calibration(inputs: FindingInputs) -> Iterable[Finding]:
    sticks = _CALIBRATED_STICKS.get(inputs.family)
    if sticks is None:
        return
    for parameter, stick in sticks.items():
        if parameter not in inputs.values:
            continue
        channel = stick_channel(parameter, inputs.values)
        minimum_name, _trim_name, maximum_name = range_parameters(channel)
        minimum = inputs.values.get(minimum_name)
        maximum = inputs.values.get(maximum_name)
        if minimum is not None and minimum > RC_CALIB_MIN_LIMIT_PWM:
            yield Finding(
                "rc_stick_min_too_high",
                Severity.BLOCKING,
                _(
                    "{name} = {value} is above {limit} µs for the {stick} stick: ArduPilot refuses to arm "
                    '("{stick} radio min too high").'
                ).format(
                    name=minimum_name, value=number_text(minimum), limit=RC_CALIB_MIN_LIMIT_PWM, stick=stick
                ),
                _(
                    "Calibrate the radio, moving the {stick} stick to both ends, so that {name} is its "
                    "low end."
                ).format(stick=stick, name=minimum_name),
                minimum_name,
                minimum,
            )
        if maximum is not None and maximum < RC_CALIB_MAX_LIMIT_PWM:
            yield Finding(
                "rc_stick_max_too_low",
                Severity.BLOCKING,
                _(
                    "{name} = {value} is below {limit} µs for the {stick} stick: ArduPilot refuses to arm "
                    '("{stick} radio max too low").'
                ).format(
                    name=maximum_name, value=number_text(maximum), limit=RC_CALIB_MAX_LIMIT_PWM, stick=stick
                ),
                _(
                    "Calibrate the radio, moving the {stick} stick to both ends, so that {name} is its "
                    "high end."
                ).format(stick=stick, name=maximum_name),
                maximum_name,
                maximum,
            )
