# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The verdict of the guided test: a pure function of `VerdictInputs`.

PASSED needs the receiver seen, the stick step over (a reversed stick or one on the wrong channel
is a blocking finding; a skipped one is named as not checked), RC failsafe and then recovery
observed by the guide's off/on step (not merely seen before it), no blocking finding, the
parameters read and ArduPilot's own pre-arm answer after the test in, so the verdict never runs
ahead of the guide's last step.  FAILED says why,
most telling reason first: a blocking finding, no failsafe after the transmitter went off (with
its most likely cause), or a failsafe that never cleared.  Everything else is INCOMPLETE with the
one thing to do next.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ... import _
from .firmware import RC_OPTION_IGNORE_FAILSAFE_BIT, VehicleFamily, family_parameters
from .guide import RECOVERY_WAIT_S
from .snapshot import (
    ChannelEvidence,
    FailsafeStatus,
    Finding,
    GuideState,
    GuideStep,
    ModeSlotVisit,
    Severity,
    StickResult,
    Verdict,
    VerdictResult,
)
from .wording import stick_instruction, stick_outcome_text, verdict_label
from .wording.channels import mode_slots_text, switch_instruction


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
    sticks: tuple[StickResult, ...] = ()
    # The test is over and ArduPilot's own pre-arm answer after it is still to come.
    prearm_waiting: bool = False
    mode_slots: tuple[ModeSlotVisit, ...] = ()


def _verdict(result: VerdictResult, detail: str, latency: float | None, source: str | None) -> Verdict:
    return Verdict(result, verdict_label(result), detail, latency, source)


def _latency(inputs: VerdictInputs) -> tuple[float | None, str | None]:
    guide = inputs.guide
    failsafe_at = guide.failsafe_at
    if guide.off_at is None or failsafe_at is None or failsafe_at < guide.off_at:
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
    # A helicopter's throttle channel is its collective.
    heli = inputs.family is VehicleFamily.HELI
    held = ""
    if throttle is not None:
        kept = (
            _(" It kept sending the collective at {pwm} µs.")
            if heli
            else _(" It kept sending throttle {pwm} µs.")
        )
        held = kept.format(pwm=throttle)
    limit = (
        _("{name} = {value:g} µs").format(name=threshold_name, value=threshold)
        if threshold is not None
        else threshold_name
    )
    if heli:
        return _(
            "No RC failsafe within {seconds:g} s of switching the transmitter off. Most likely the receiver "
            "keeps sending valid pulses when it loses the signal (its failsafe set to hold or to custom "
            "positions).{held} Set the receiver's failsafe to no pulses, or to a collective below {limit}."
        ).format(seconds=waited, held=held, limit=limit)
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


def _next_step(inputs: VerdictInputs) -> str | None:
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
    if guide.failsafe_before_test:
        return _(
            "RC failsafe is active: switch the transmitter on. The stick step and the failsafe test follow."
        )
    if guide.step is GuideStep.MOVE_STICKS and guide.stick is not None:
        return stick_instruction(inputs.family, guide.stick)
    if guide.step is GuideStep.FLIP_SWITCHES and guide.switches is not None:
        return switch_instruction(guide.switches)
    # Only the guide's own failsafe and recovery count here: ones seen before the transmitter was
    # switched off for the test are in the timeline, but prove nothing about this step.
    if guide.failsafe_at is None:
        if guide.off_at is None:
            return _("Switch the transmitter off.")
        return _("Waiting for RC failsafe ({elapsed:.1f} s since the transmitter went off).").format(
            elapsed=max(0.0, inputs.now - guide.off_at)
        )
    if guide.recovered_at is None:
        if inputs.failsafe is FailsafeStatus.ACTIVE and guide.on_at is not None:
            return _("Waiting for the failsafe to clear.")
        return _("Switch the transmitter back on.")
    if not inputs.parameters_complete:
        return _("Reading the receiver parameters from the flight controller.")
    if inputs.prearm_waiting:
        return _("Waiting for ArduPilot's own pre-arm checks.")
    return None


def decide_verdict(inputs: VerdictInputs) -> Verdict:
    failed = _failed(inputs)
    if failed is not None:
        return failed
    latency, source = _latency(inputs)
    step = _next_step(inputs)
    if step is not None:
        return _verdict(VerdictResult.INCOMPLETE, step, latency, source)
    if latency is not None:
        detail = _(
            "Receiver seen, sticks checked, RC failsafe {latency:.1f} s after the transmitter went off, and "
            "cleared after it came back."
        ).format(latency=latency)
    else:
        detail = _("Receiver seen, sticks checked, RC failsafe observed and cleared.")
    unchecked = [stick for stick in inputs.sticks if not stick.checked]
    if unchecked:
        detail += " " + _("Not checked: {sticks}.").format(
            sticks=", ".join(stick_outcome_text(inputs.family, stick) for stick in unchecked)
        )
    modes = mode_slots_text(inputs.mode_slots)
    if modes:
        detail += " " + modes
    return _verdict(VerdictResult.PASSED, detail, latency, source)
