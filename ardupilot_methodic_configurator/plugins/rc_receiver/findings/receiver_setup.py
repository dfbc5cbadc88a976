# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Findings about how the receiver is set up: RSSI_TYPE, RC_PROTOCOLS, RC_OPTIONS, the protocol the
flight controller decodes, CRSF/ExpressLRS and RC override.  What the bits and values mean is in
`rc_receiver.firmware`.
"""

from __future__ import annotations

from collections.abc import Iterable

from .... import _
from ..firmware import (
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
    enabled_protocols,
    family_parameters,
    mode_channel,
    protocol_bits,
    protocol_enabled,
)
from ..snapshot import Finding, Severity
from .inputs import FindingInputs, number_text


def rssi_type(inputs: FindingInputs) -> Iterable[Finding]:
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
        kind = RSSI_TYPE_NAMES.get(int(value), number_text(value))
        yield Finding(
            "rssi_not_reported",
            Severity.WARNING,
            _("RSSI_TYPE = {value} ({kind}) but the flight controller reports no RSSI.").format(
                value=number_text(value), kind=kind
            ),
            _("Check that the receiver sends RSSI that way (for RSSI_TYPE 3, that its protocol carries it)."),
            "RSSI_TYPE",
            value,
        )


def rc_protocols(inputs: FindingInputs) -> Iterable[Finding]:
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


def rc_options(inputs: FindingInputs) -> Iterable[Finding]:
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


def protocols_all(inputs: FindingInputs) -> Iterable[Finding]:
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


def crsf_rules(inputs: FindingInputs) -> Iterable[Finding]:
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
            ).format(value=number_text(rssi_type)),
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


def rc_override_time(inputs: FindingInputs) -> Iterable[Finding]:
    value = inputs.values.get("RC_OVERRIDE_TIME")
    if value is None or value >= 0:
        return
    yield Finding(
        "rc_overrides_never_time_out",
        Severity.WARNING,
        _(
            "RC_OVERRIDE_TIME = {value}: RC overrides from a ground station never time out, and an override "
            "makes a lost receiver look present and healthy."
        ).format(value=number_text(value)),
        _("Set RC_OVERRIDE_TIME to a few seconds (3 is the default) and stop overrides during the test."),
        "RC_OVERRIDE_TIME",
        value,
    )
