# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Parameter pre-checks: what the flight controller's own values mean for the receiver test.

Each rule is a pure function of `FindingInputs` that returns findings in plain words naming the
parameter, its value and what to do; `parameter_findings` runs them all in table order.  A rule
says nothing about a parameter whose value is not known yet, so a finding never rests on a guess.
The facts follow ArduPilot's own code: Copter's pre-arm check refuses ``FS_THR_VALUE`` below 910
or not 10 µs under the throttle channel's ``RCn_MIN``; what the bits of ``RC_OPTIONS`` and
``RC_PROTOCOLS`` and the values of ``RSSI_TYPE`` mean is in `rc_receiver.firmware`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from ... import _
from .firmware import (
    CRSF,
    ELRS_ARM_CHANNEL,
    RC_OPTION_CRSF_LINK_QUALITY,
    RC_OPTION_ELRS_420K,
    RC_OPTION_IGNORE_FAILSAFE_BIT,
    RC_OPTION_IGNORE_RECEIVER,
    RC_PROTOCOLS_ALL,
    RSSI_TYPE_DISABLED,
    RSSI_TYPE_NAMES,
    RSSI_TYPE_RECEIVER_PROTOCOL,
    FirmwareVersion,
    VehicleFamily,
    enabled_protocols,
    failsafe_timing,
    family_parameters,
    mode_channel,
    protocol_bits,
    protocol_enabled,
    throttle_channel,
)
from .snapshot import Finding, Severity, StickResult
from .sticks import stick_findings

# Copter's PreArm "Check FS_THR_VALUE": at least 910 (a PPM encoder's loss-of-signal value is
# 900) and at least 10 µs under the throttle minimum.
MIN_FAILSAFE_PWM = 910
FAILSAFE_PWM_MARGIN = 10
LONG_FAILSAFE_TIMEOUT_S = 3.0


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


Rule = Callable[[FindingInputs], Iterable[Finding]]


def _number(value: float) -> str:
    return f"{value:g}"


# ----------------------------------------------------------------------------- failsafe


def _failsafe_enable(inputs: FindingInputs) -> Iterable[Finding]:
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


def _failsafe_pwm(inputs: FindingInputs) -> Iterable[Finding]:
    table = family_parameters(inputs.family)
    if table is None or not _failsafe_enabled(inputs) or table.failsafe_pwm not in inputs.values:
        return
    name = table.failsafe_pwm
    value = inputs.values[name]
    if inputs.family in (VehicleFamily.COPTER, VehicleFamily.HELI) and value < MIN_FAILSAFE_PWM:
        yield Finding(
            "failsafe_pwm_too_low",
            Severity.BLOCKING,
            _(
                "{name} = {value} is below {minimum} µs: ArduCopter refuses to arm (PreArm: Check {name})."
            ).format(name=name, value=_number(value), minimum=MIN_FAILSAFE_PWM),
            _("Set {name} between {minimum} µs and 10 µs below the throttle minimum.").format(
                name=name, minimum=MIN_FAILSAFE_PWM
            ),
            name,
            value,
        )
    minimum_name = f"RC{throttle_channel(dict(inputs.values))}_MIN"
    throttle_min = inputs.values.get(minimum_name)
    if throttle_min is not None and throttle_min <= value + FAILSAFE_PWM_MARGIN:
        yield Finding(
            "failsafe_pwm_not_below_throttle_min",
            Severity.BLOCKING,
            _(
                "{name} = {value} µs is not at least {margin} µs below {minimum_name} = {minimum} µs: the "
                "throttle's normal low end counts as signal loss."
            ).format(
                name=name,
                value=_number(value),
                margin=FAILSAFE_PWM_MARGIN,
                minimum_name=minimum_name,
                minimum=_number(throttle_min),
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
            _(
                "With the transmitter on, the throttle went down to {low} µs, at or below {name} = "
                "{value} µs: the flight controller is in RC failsafe with the throttle at idle."
            ).format(low=low, name=name, value=_number(value)),
            _(
                "Raise the transmitter's throttle low end (or lower {name}) so that only signal loss "
                "goes below it."
            ).format(name=name),
            name,
            value,
        )
    elif low is not None and low <= value + FAILSAFE_PWM_MARGIN:
        yield Finding(
            "throttle_low_end_no_margin",
            Severity.WARNING,
            _(
                "The throttle's low end is {low} µs, less than {margin} µs above {name} = {value} µs: a "
                "little drift at idle is enough for RC failsafe."
            ).format(low=low, margin=FAILSAFE_PWM_MARGIN, name=name, value=_number(value)),
            _("Lower {name}, or raise the transmitter's throttle low end, to leave a margin.").format(
                name=name
            ),
            name,
            value,
        )


def _failsafe_timeout(inputs: FindingInputs) -> Iterable[Finding]:
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
            name=delay, value=_number(inputs.values[delay])
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
        value=_number(timeout), name=name
    )
    if not known:
        message += " " + _("(firmware default; the value was not read)")
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


# ----------------------------------------------------------------------------- receiver set-up


def _rssi_type(inputs: FindingInputs) -> Iterable[Finding]:
    value = inputs.values.get("RSSI_TYPE")
    if value is None:
        return
    if value == RSSI_TYPE_DISABLED:
        yield Finding(
            "rssi_disabled",
            Severity.INFO,
            _("RSSI reads Unavailable because RSSI_TYPE = 0 (disabled)."),
            _(
                "If your receiver reports RSSI, set RSSI_TYPE (3 = in the receiver protocol such as CRSF, "
                "1 = analog pin, 2 = a PWM channel) and reboot."
            ),
            "RSSI_TYPE",
            value,
        )
    elif inputs.rssi_live and inputs.rssi is None:
        kind = RSSI_TYPE_NAMES.get(int(value), _number(value))
        yield Finding(
            "rssi_not_reported",
            Severity.WARNING,
            _("RSSI_TYPE = {value} ({kind}) but the flight controller reports no RSSI.").format(
                value=_number(value), kind=kind
            ),
            _("Check that the receiver sends RSSI that way (for RSSI_TYPE 3, that its protocol carries it)."),
            "RSSI_TYPE",
            value,
        )


def _rc_protocols(inputs: FindingInputs) -> Iterable[Finding]:
    value = inputs.values.get("RC_PROTOCOLS")
    if value is None:
        return
    mask = int(value)
    if mask == 0:
        yield Finding(
            "rc_protocols_none",
            Severity.BLOCKING,
            _("RC_PROTOCOLS = 0 enables no receiver protocol: the flight controller decodes no receiver."),
            _("Set RC_PROTOCOLS to 1 (all) or to your receiver's protocol bit and reboot."),
            "RC_PROTOCOLS",
            value,
        )
        return
    if mask & 1:
        return
    protocols = ", ".join(enabled_protocols(mask)) or _("none known")
    detected = inputs.detected_protocol
    if detected is not None and protocol_enabled(mask, detected) is False:
        yield Finding(
            "rc_protocols_exclude_receiver",
            Severity.BLOCKING,
            _(
                "RC_PROTOCOLS = {value} enables only {protocols}, not {detected}, the receiver's protocol."
            ).format(value=mask, protocols=protocols, detected=detected),
            _("Add {detected} to RC_PROTOCOLS (or set 1 for all) and reboot.").format(detected=detected),
            "RC_PROTOCOLS",
            value,
        )
    elif inputs.receiver_present is False:
        yield Finding(
            "rc_protocols_restricted",
            Severity.WARNING,
            _(
                "RC_PROTOCOLS = {value} enables only {protocols}, and no receiver has been seen: a receiver "
                "speaking another protocol is never decoded."
            ).format(value=mask, protocols=protocols),
            _("Check your receiver's protocol, or set RC_PROTOCOLS to 1 (all) and reboot."),
            "RC_PROTOCOLS",
            value,
        )


def _rc_options(inputs: FindingInputs) -> Iterable[Finding]:
    value = inputs.values.get("RC_OPTIONS")
    if value is None:
        return
    mask = int(value)
    if mask & RC_OPTION_IGNORE_RECEIVER:
        yield Finding(
            "rc_options_ignore_receiver",
            Severity.BLOCKING,
            _(
                "RC_OPTIONS = {value} has bit 0 (Ignore RC Receiver) set: the flight controller ignores "
                "the receiver."
            ).format(value=mask),
            _("Clear bit 0 of RC_OPTIONS unless the vehicle is flown by a ground station only."),
            "RC_OPTIONS",
            value,
        )
    if mask & RC_OPTION_IGNORE_FAILSAFE_BIT:
        yield Finding(
            "rc_options_ignore_failsafe_bit",
            Severity.WARNING,
            _(
                "RC_OPTIONS = {value} has bit 2 (Ignore Receiver Failsafe bit) set: a receiver that reports "
                "signal loss by its failsafe flag while it keeps sending pulses does not trigger RC failsafe."
            ).format(value=mask),
            _("Clear bit 2 of RC_OPTIONS, or set the receiver's own failsafe to no pulses."),
            "RC_OPTIONS",
            value,
        )


def _protocols_all(inputs: FindingInputs) -> Iterable[Finding]:
    value = inputs.values.get("RC_PROTOCOLS")
    detected = inputs.detected_protocol
    if value is None or detected is None or not int(value) & RC_PROTOCOLS_ALL:
        return
    bits = protocol_bits(detected)
    if not bits:
        return
    only = 1 << bits[0]
    yield Finding(
        "rc_protocols_all",
        Severity.INFO,
        _(
            "The flight controller decodes {detected}; RC_PROTOCOLS = {value} lets it try every protocol, "
            "and one can be detected by mistake (DSM for SBUS is a known case)."
        ).format(detected=detected, value=int(value)),
        _("Set RC_PROTOCOLS to {only} ({detected} only) and reboot.").format(only=only, detected=detected),
        "RC_PROTOCOLS",
        value,
    )


_CRSF_ONLY = 1 << protocol_bits(CRSF)[0]


def _speaks_crsf(inputs: FindingInputs) -> bool:
    """The receiver is CRSF (TBS Crossfire, ExpressLRS): decoded as such, or the only protocol allowed."""
    if inputs.detected_protocol is not None:
        return inputs.detected_protocol.upper() == CRSF
    value = inputs.values.get("RC_PROTOCOLS")
    return value is not None and int(value) == _CRSF_ONLY


def _crsf_rules(inputs: FindingInputs) -> Iterable[Finding]:
    if not _speaks_crsf(inputs):
        return
    rssi_type = inputs.values.get("RSSI_TYPE")
    if rssi_type is not None and rssi_type not in (RSSI_TYPE_DISABLED, RSSI_TYPE_RECEIVER_PROTOCOL):
        yield Finding(
            "crsf_rssi_type",
            Severity.WARNING,
            _(
                "The receiver speaks CRSF, which carries its RSSI and link quality, but RSSI_TYPE = {value} "
                "reads RSSI elsewhere."
            ).format(value=_number(rssi_type)),
            _("Set RSSI_TYPE to 3 (ReceiverProtocol) and reboot."),
            "RSSI_TYPE",
            rssi_type,
        )
    table = family_parameters(inputs.family)
    if table is not None and mode_channel(inputs.family, dict(inputs.values)) == ELRS_ARM_CHANNEL:
        name = table.mode_channel
        yield Finding(
            "elrs_modes_on_arm_channel",
            Severity.WARNING,
            _(
                "{name} = 5: with ExpressLRS, channel 5 carries the arm switch (AUX1), so the flight mode "
                "changes whenever you arm or disarm."
            ).format(name=name),
            _("Put the flight-mode switch on another channel (e.g. 8) and set {name} to it.").format(
                name=name
            ),
            name,
            inputs.values.get(name),
        )
    options = inputs.values.get("RC_OPTIONS")
    if options is None:
        return
    if int(options) & RC_OPTION_CRSF_LINK_QUALITY:
        yield Finding(
            "crsf_rssi_is_link_quality",
            Severity.INFO,
            _(
                "RC_OPTIONS = {value} has bit 11 set: the RSSI shown is CRSF link quality (the share of "
                "packets that arrive), not signal strength."
            ).format(value=int(options)),
            _("Read the RSSI bar as link quality, the share of packets received, not as signal strength."),
            "RC_OPTIONS",
            options,
        )
    if not int(options) & RC_OPTION_ELRS_420K:
        yield Finding(
            "elrs_baud_crsf_rate",
            Severity.INFO,
            _(
                "RC_OPTIONS = {value} leaves bit 13 clear: the flight controller talks CRSF at 416,666 baud, "
                "TBS Crossfire's rate; ExpressLRS receivers run at 420,000."
            ).format(value=int(options)),
            _("With an ExpressLRS receiver, set bit 13 of RC_OPTIONS (420 kbaud) and reboot."),
            "RC_OPTIONS",
            options,
        )


def _failsafe_trigger(inputs: FindingInputs) -> Iterable[Finding]:
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
            _(
                "RC failsafe came from a low throttle: the receiver kept sending pulses, with throttle "
                "{throttle} µs, below {name} = {value} µs (a throttle failsafe)."
            ).format(throttle=throttle, name=table.failsafe_pwm, value=_number(threshold)),
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


def _rssi_held(inputs: FindingInputs) -> Iterable[Finding]:
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


def _rc_override_time(inputs: FindingInputs) -> Iterable[Finding]:
    value = inputs.values.get("RC_OVERRIDE_TIME")
    if value is None or value >= 0:
        return
    yield Finding(
        "rc_overrides_never_time_out",
        Severity.WARNING,
        _(
            "RC_OVERRIDE_TIME = {value}: RC overrides from a ground station never time out, and an override "
            "makes a lost receiver look present and healthy."
        ).format(value=_number(value)),
        _("Set RC_OVERRIDE_TIME to a few seconds (3 is the default) and stop overrides during the test."),
        "RC_OVERRIDE_TIME",
        value,
    )


# ----------------------------------------------------------------------------- files and reads


def _step_file_differs(inputs: FindingInputs) -> Iterable[Finding]:
    if inputs.step_file is None:
        return
    for name, file_value in inputs.step_values.items():
        value = inputs.values.get(name)
        if value is None or abs(value - file_value) <= 1e-6 * max(1.0, abs(value)):
            continue
        yield Finding(
            "step_file_differs",
            Severity.WARNING,
            _("{file} sets {name} = {file_value}; the flight controller has {value}.").format(
                file=inputs.step_file, name=name, file_value=_number(file_value), value=_number(value)
            ),
            _(
                "Upload the file (and reboot if {name} needs it) before the test, or the test checks "
                "the old value."
            ).format(name=name),
            name,
            value,
            file_value,
        )


def _unavailable(inputs: FindingInputs) -> Iterable[Finding]:
    if not inputs.unavailable:
        return
    names = ", ".join(sorted(inputs.unavailable))
    yield Finding(
        "parameters_unavailable",
        Severity.INFO,
        _("The flight controller did not answer for {names}; the checks that need them were skipped.").format(
            names=names
        ),
        _("Older firmware may not have them; a weak telemetry link may lose the answers."),
    )


def _sticks(inputs: FindingInputs) -> Iterable[Finding]:
    return stick_findings(inputs.family, inputs.sticks)


RULES: tuple[Rule, ...] = (
    _sticks,
    _failsafe_enable,
    _failsafe_pwm,
    _rc_options,
    _rc_protocols,
    _failsafe_timeout,
    _rc_override_time,
    _rssi_type,
    _protocols_all,
    _crsf_rules,
    _failsafe_trigger,
    _rssi_held,
    _step_file_differs,
    _unavailable,
)

_SEVERITY_ORDER = {Severity.BLOCKING: 0, Severity.WARNING: 1, Severity.INFO: 2}


def parameter_findings(inputs: FindingInputs) -> tuple[Finding, ...]:
    """Every finding the rules make, blocking first, in rule order within a severity."""
    findings = [finding for rule in RULES for finding in rule(inputs)]
    return tuple(sorted(findings, key=lambda finding: _SEVERITY_ORDER[finding.severity]))
