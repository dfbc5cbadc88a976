# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The verdict of the receiver test: PASSED, INCOMPLETE (with the next step) or FAILED (with why).

PASSED needs all of: the receiver seen by the flight controller, every stick channel the
parameters name moved, RC failsafe observed and recovery observed after it, no blocking finding
and the parameters read.  FAILED says why, most telling reason first: a blocking parameter
finding, no failsafe after the transmitter went off (with the most likely cause), or a failsafe
that never cleared.  Anything else is INCOMPLETE, and the detail is the one thing to do next, in
the order a person would do them.  A pure function of `VerdictInputs`.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from dataclasses import dataclass, fields

from .. import _
from .rc_receiver_channels import role_label
from .rc_receiver_check_state import (
    ChannelEvidence,
    Finding,
    GuideState,
    Severity,
    Verdict,
    VerdictResult,
)
from .rc_receiver_guide import RECOVERY_WAIT_S, first_failsafe_after
from .rc_receiver_param_meanings import RC_OPTION_IGNORE_FAILSAFE_BIT
from .rc_receiver_state import FailsafeStatus
from .rc_receiver_vehicle import VehicleFamily, family_parameters


@dataclass(frozen=True)
class VerdictInputs:
    family: VehicleFamily
    values: Mapping[str, float]
    findings: tuple[Finding, ...]
    guide: GuideState
    channels: tuple[ChannelEvidence, ...]
    connected: bool
    telemetry_live: bool
    receiver_present: bool | None
    failsafe: FailsafeStatus
    failsafe_observed: bool
    recovery_observed: bool
    transitions: tuple[tuple[FailsafeStatus, float], ...]
    parameters_complete: bool
    failsafe_timeout_s: float
    now: float



def verdict_label(result: VerdictResult) -> str:
    """The verdict as a person reads it, in the active language (the value itself is for machines)."""
    labels = {
        VerdictResult.PASSED: _("PASSED"),
        VerdictResult.INCOMPLETE: _("INCOMPLETE"),
        VerdictResult.FAILED: _("FAILED"),
    }
    return labels[result]


def _verdict(
    result: VerdictResult, detail: str, latency: float | None, source: str | None
) -> Verdict:
    return Verdict(result, verdict_label(result), detail, latency, source)

def _channel_names(channels: tuple[ChannelEvidence, ...]) -> str:
    return ", ".join(
        _("CH{number} ({role})").format(number=channel.number, role=role_label(channel.role))
        for channel in channels
    )


def _latency(inputs: VerdictInputs) -> tuple[float | None, str | None]:
    guide = inputs.guide
    if guide.off_at is None:
        return None, None
    failsafe_at = first_failsafe_after(inputs.transitions, guide.off_at)
    if failsafe_at is None or failsafe_at < guide.off_at:
        return None, None
    return failsafe_at - guide.off_at, "program" if guide.off_by_program else "user"


def no_failsafe_cause(inputs: VerdictInputs) -> str:
    """The most likely reason the flight controller did not enter RC failsafe, in plain words."""
    guide = inputs.guide
    waited = inputs.failsafe_timeout_s
    if guide.channels_moving_while_off:
        return _(
            "No RC failsafe within {seconds:g} s of switching the transmitter off, and the sticks kept "
            "moving: the transmitter is still on, or the receiver hears another transmitter bound to it."
        ).format(seconds=waited)
    options = inputs.values.get("RC_OPTIONS")
    if options is not None and int(options) & RC_OPTION_IGNORE_FAILSAFE_BIT:
        return _(
            "No RC failsafe within {seconds:g} s of switching the transmitter off. RC_OPTIONS bit 2 makes "
            "the flight controller ignore the receiver's failsafe flag: clear it, or set the receiver's "
            "failsafe to no pulses."
        ).format(seconds=waited)
    table = family_parameters(inputs.family)
    threshold_name = table.failsafe_pwm if table is not None else "FS_THR_VALUE"
    threshold = inputs.values.get(threshold_name)
    throttle = guide.throttle_while_off_us
    held = _(" It kept sending throttle {pwm} µs.").format(pwm=throttle) if throttle is not None else ""
    limit = (
        _("{name} = {value:g} µs").format(name=threshold_name, value=threshold)
        if threshold is not None
        else threshold_name
    )
    return _(
        "No RC failsafe within {seconds:g} s of switching the transmitter off. Most likely the receiver "
        "keeps sending valid pulses when it loses the signal (its failsafe set to hold or to custom "
        "positions).{held} Set the receiver's failsafe to no pulses, or to a throttle below {limit}."
    ).format(seconds=waited, held=held, limit=limit)


def _failed(inputs: VerdictInputs) -> Verdict | None:
    latency, source = _latency(inputs)
    blocking = [finding for finding in inputs.findings if finding.severity is Severity.BLOCKING]
    if blocking:
        first = blocking[0]
        return _verdict(VerdictResult.FAILED, f"{first.message} {first.action}", latency, source)
    if inputs.guide.no_failsafe:
        return _verdict(VerdictResult.FAILED, no_failsafe_cause(inputs), None, None)
    if inputs.guide.no_recovery:
        return _verdict(
            VerdictResult.FAILED,
            _(
                "RC failsafe did not clear within {seconds:g} s of the transmitter coming back on: check "
                "that the receiver reconnects to the transmitter (binding, range, antenna)."
            ).format(seconds=RECOVERY_WAIT_S),
            latency,
            source,
        )
    return None


def _next_step(inputs: VerdictInputs, sticks: tuple[ChannelEvidence, ...]) -> str | None:
    guide = inputs.guide
    if not inputs.connected:
        return _("Connect to the flight controller.")
    if not inputs.telemetry_live and not inputs.failsafe_observed:
        return _("Waiting for receiver telemetry from the flight controller.")
    if inputs.receiver_present is False:
        return _(
            "The flight controller has not seen the receiver: switch the transmitter on and check the "
            "wiring, the binding, RC_PROTOCOLS and the receiver port's SERIALn_PROTOCOL."
        )
    still = tuple(channel for channel in sticks if not channel.moved)
    if still:
        return _("Move each stick to both ends: {channels} not moved yet.").format(
            channels=_channel_names(still)
        )
    if not inputs.failsafe_observed:
        if guide.off_at is None:
            return _("Switch the transmitter off.")
        return _("Waiting for RC failsafe ({elapsed:.1f} s since the transmitter went off).").format(
            elapsed=max(0.0, inputs.now - guide.off_at)
        )
    if not inputs.recovery_observed:
        if inputs.failsafe is FailsafeStatus.ACTIVE and guide.on_at is not None:
            return _("Waiting for the failsafe to clear.")
        return _("Switch the transmitter back on.")
    if not inputs.parameters_complete:
        return _("Reading the receiver parameters from the flight controller.")
    return None


def decide_verdict(inputs: VerdictInputs) -> Verdict:
    failed = _failed(inputs)
    if failed is not None:
        return failed
    sticks = tuple(channel for channel in inputs.channels if channel.is_stick)
    latency, source = _latency(inputs)
    step = _next_step(inputs, sticks)
    if step is not None:
        return _verdict(VerdictResult.INCOMPLETE, step, latency, source)
    if latency is not None:
        detail = _(
            "Receiver seen, sticks moved, RC failsafe {latency:.1f} s after the transmitter went off, and "
            "cleared after it came back."
        ).format(latency=latency)
    else:
        detail = _("Receiver seen, sticks moved, RC failsafe observed and cleared.")
    return _verdict(VerdictResult.PASSED, detail, latency, source)


class VerdictMemo:
    """`decide_verdict`, run again only when an input it reads changed.

    The clock reaches the verdict only while it waits for the failsafe after the transmitter went
    off ("Waiting for RC failsafe (2.3 s …)"); at any other time a tick that changed nothing else
    reuses the last verdict.
    """

    def __init__(self) -> None:
        self._key: tuple[object, ...] | None = None
        self._verdict: Verdict | None = None

    def decide(self, inputs: VerdictInputs) -> Verdict:
        reads_clock = inputs.guide.off_at is not None and not inputs.failsafe_observed
        key: tuple[object, ...] = (_ALL_BUT_NOW(inputs), inputs.now if reads_clock else None)
        if self._verdict is not None and key == self._key:
            return self._verdict
        self._key, self._verdict = key, decide_verdict(inputs)
        return self._verdict


_ALL_BUT_NOW = operator.attrgetter(*(field.name for field in fields(VerdictInputs) if field.name != "now"))
