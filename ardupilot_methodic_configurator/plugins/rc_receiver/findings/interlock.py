# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Findings about the motor interlock, which a helicopter cannot arm without, nor with it enabled.

ArduCopter reads the interlock from the channel whose ``RCn_OPTION`` is 32 ("Motor Interlock",
``RC_Channel::AUX_FUNC::MOTOR_INTERLOCK``); its arming checks (``AP_Arming_Copter``) refuse:

- a helicopter without such a channel ("PreArm: Motor Interlock not configured", a parameter check
  of the helicopter build only);
- any copter or helicopter with such a channel while the switch is enabled, which ArduPilot reads
  as its middle or high position ("PreArm: Motor Interlock Enabled": ``RC_Channel_Copter`` sets
  ``motor_interlock_switch`` for MIDDLE and HIGH);
- an interlock and an emergency-stop channel (``RCn_OPTION`` 31) at once ("PreArm: Interlock/E-Stop
  Conflict").

The switch position is ArduPilot's three-position reading (`aux_functions.switch_position`, after
``RC_Channel::read_3pos_switch``), the one the channel table shows.  A rule says nothing while a
value it needs is unknown (``RCn_REVERSED`` counts only where ``RC_OPTIONS`` bit 7 lets it).
"""

from __future__ import annotations

from collections.abc import Iterable

from .... import _
from ..aux_functions import switch_position, switch_reversal_allowed
from ..firmware import MAX_RC_CHANNEL, VehicleFamily, option_parameter
from ..snapshot import Finding, Severity, SwitchPosition
from ..wording.channels import switch_position_label
from .inputs import FindingInputs

MOTOR_INTERLOCK_OPTION = 32
MOTOR_ESTOP_OPTION = 31
_COPTERS = (VehicleFamily.COPTER, VehicleFamily.HELI)


def _channels_with(inputs: FindingInputs, option: int) -> list[int] | None:
    """The channels whose ``RCn_OPTION`` is ``option``; None while any of the sixteen is unknown."""
    found = []
    for number in range(1, MAX_RC_CHANNEL + 1):
        value = inputs.values.get(option_parameter(number))
        if value is None:
            return None
        if value == option:
            found.append(number)
    return found


def _reversed(inputs: FindingInputs, number: int) -> bool | None:
    """Whether ArduPilot swaps the channel's switch positions (None: not known yet)."""
    options = inputs.values.get("RC_OPTIONS")
    if options is None:
        return None
    if not switch_reversal_allowed(options):
        return False
    value = inputs.values.get(f"RC{number}_REVERSED")
    return None if value is None else value != 0


def motor_interlock(inputs: FindingInputs) -> Iterable[Finding]:
    """The interlock channel a helicopter needs, its position now, and a conflicting E-Stop."""
    if inputs.family not in _COPTERS:
        return
    interlocks = _channels_with(inputs, MOTOR_INTERLOCK_OPTION)
    if interlocks is None:
        return
    if not interlocks:
        if inputs.family is VehicleFamily.HELI:
            yield Finding(
                "motor_interlock_missing",
                Severity.BLOCKING,
                _(
                    "No RCn_OPTION is 32 (Motor Interlock): ArduPilot does not arm a helicopter without "
                    "a motor interlock channel (PreArm: Motor Interlock not configured)."
                ),
                _(
                    "Set RCn_OPTION = 32 for the channel of the transmitter's interlock (throttle hold) "
                    "switch, RC8_OPTION = 32 for channel 8."
                ),
            )
        return
    number = interlocks[0]
    name = option_parameter(number)
    estops = _channels_with(inputs, MOTOR_ESTOP_OPTION) or []
    if estops:
        other = option_parameter(estops[0])
        yield Finding(
            "motor_interlock_estop_conflict",
            Severity.BLOCKING,
            _(
                "{name} = 32 (Motor Interlock) and {other} = 31 (Motor Emergency Stop): ArduPilot does "
                "not arm with both (PreArm: Interlock/E-Stop Conflict)."
            ).format(name=name, other=other),
            _("Keep one of them: set {other} = 0, or {name} = 0.").format(name=name, other=other),
            other,
            float(MOTOR_ESTOP_OPTION),
        )
    yield from _interlock_position(inputs, number, name)


def _interlock_position(inputs: FindingInputs, number: int, name: str) -> Iterable[Finding]:
    pwm = inputs.channel_pwm.get(number)
    reversed_switch = _reversed(inputs, number)
    if pwm is None or reversed_switch is None:
        return
    position = switch_position(
        pwm, reversed_channel=reversed_switch, rc_options=inputs.values.get("RC_OPTIONS")
    )
    if position is None:
        return
    where = _("CH{number} ({name} = 32, Motor Interlock) is {position} at {pwm} µs").format(
        number=number, name=name, position=switch_position_label(position), pwm=pwm
    )
    if position is SwitchPosition.LOW:
        yield Finding(
            "motor_interlock_low",
            Severity.INFO,
            _("{where}: the motor interlock is off, as ArduPilot needs it to arm.").format(where=where),
            _("After arming, raise the switch to start the rotor; lower it to stop the rotor."),
            name,
            float(MOTOR_INTERLOCK_OPTION),
        )
        return
    yield Finding(
        "motor_interlock_enabled",
        Severity.WARNING,
        _(
            "{where}: ArduPilot reads the motor interlock as enabled and does not arm "
            "(PreArm: Motor Interlock Enabled)."
        ).format(where=where),
        _("Move the interlock switch low (throttle hold on) before arming; raise it after arming."),
        name,
        float(MOTOR_INTERLOCK_OPTION),
    )
