# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The terminal view's own lines: its status line, event log, key prompts and summary."""

from __future__ import annotations

from .... import _
from ..readings import RSSI_MAX
from ..snapshot import (
    ChannelEvidence,
    ExtraChannel,
    FailsafeStatus,
    Finding,
    GuideStep,
    IntervalRequestStatus,
    RadioMessage,
    RCReceiverState,
)
from . import request_outcome_text, rssi_is_link_quality, stick_instruction, yes_no_unknown_text
from .channels import (
    extra_channel_role_text,
    extra_channel_span_text,
    role_label,
    switch_instruction,
    switch_position_label,
)


def screen_title_text() -> str:
    return _("RC receiver check  (Ctrl+C to quit)")


def failsafe_status_text(status: FailsafeStatus) -> str:
    return {
        FailsafeStatus.ACTIVE: _("ACTIVE"),
        FailsafeStatus.NOT_ACTIVE: _("not active"),
        FailsafeStatus.UNKNOWN: _("unknown"),
    }[status]


def request_line_text(request: IntervalRequestStatus) -> str:
    return _("{message} interval request: {outcome}").format(
        message=request.message_name, outcome=request_outcome_text(request)
    )


def rssi_reading_text(state: RCReceiverState) -> str:
    """RSSI, or CRSF link quality where ``RC_OPTIONS`` says so, on the reported 0-254 scale."""
    link_quality = rssi_is_link_quality(state.guided)
    if state.rssi is None:
        return _("link quality unavailable") if link_quality else _("RSSI unavailable")
    text = _("LQ {value}/{maximum}") if link_quality else _("RSSI {value}/{maximum}")
    return text.format(value=state.rssi, maximum=RSSI_MAX)


def time_in_test_text(state: RCReceiverState, at: float | None) -> str:
    if at is None:
        return ""
    return _("at {seconds:.1f} s").format(seconds=max(0.0, at - state.test_started_at))


def status_line_texts(state: RCReceiverState) -> list[str]:
    """The parts of the terminal's status line after the channels, each a glance's worth."""
    observed = _("yes, {when}").format(when=time_in_test_text(state, state.failsafe_observed_at))
    parts = [
        rssi_reading_text(state),
        _("present: {value}").format(value=yes_no_unknown_text(state.receiver_present)),
        _("RC failsafe: {value}").format(value=failsafe_status_text(state.failsafe)),
        _("failsafe observed: {value}").format(value=observed if state.failsafe_observed else _("no")),
        _("RC_CHANNELS {rc:.1f} Hz, SYS_STATUS {sys:.1f} Hz").format(
            rc=state.rc_channels_rate_hz, sys=state.sys_status_rate_hz
        ),
    ]
    if state.recovery_observed:
        parts.append(_("recovery {when}").format(when=time_in_test_text(state, state.recovery_observed_at)))
    if state.internal_error:
        parts.append(_("internal error of the check (not the link): see the log"))
    if state.impostor_datagrams:
        parts.append(_("another sender on this port: {count} ignored").format(count=state.impostor_datagrams))
    if state.link_error:
        parts.append(_("link error: {error}").format(error=state.link_error))
    elif not state.has_live_telemetry:
        parts.append(_("no telemetry"))
    if state.backlog:
        parts.append(_("display behind"))
    return parts


def failsafe_now_text(status: FailsafeStatus) -> str:
    return _("RC failsafe is now {value}").format(value=failsafe_status_text(status))


def failsafe_observed_text(state: RCReceiverState) -> str:
    return _("Failsafe observed {when} into the test").format(
        when=time_in_test_text(state, state.failsafe_observed_at)
    )


def recovery_observed_text(state: RCReceiverState) -> str:
    return _("Recovery observed {when} into the test").format(
        when=time_in_test_text(state, state.recovery_observed_at)
    )


def receiver_seen_text(present: bool | None) -> str:
    return _("Receiver seen by the flight controller: {value}").format(value=yes_no_unknown_text(present))


def link_error_text(error: str) -> str:
    return _("Link error: {error}").format(error=error)


def link_restored_text() -> str:
    return _("Link restored")


def telemetry_lost_text() -> str:
    return _("No telemetry for 3 s: readings cleared")


def terminal_step_text(state: RCReceiverState) -> str:
    """The guided test's step as the terminal asks for it: keys instead of buttons."""
    guide = state.guided.guide
    if guide.automatic:
        texts = {
            GuideStep.SWITCH_OFF: _("The program switches its transmitter off now."),
            GuideStep.SWITCH_ON: _("The program switches its transmitter back on now."),
        }
    else:
        texts = {
            GuideStep.SWITCH_OFF: _("Switch the transmitter off now, then press o (it is off)."),
            GuideStep.SWITCH_ON: _("Switch the transmitter back on, then press i (it is on)."),
        }
    common = {
        GuideStep.WAIT_TELEMETRY: _("Waiting for receiver telemetry from the flight controller."),
        GuideStep.MOVE_STICKS: _("Move the sticks one at a time, as the check asks."),
        GuideStep.FLIP_SWITCHES: _("Flip the mode switch through its positions and each aux switch once."),
        GuideStep.WAIT_FAILSAFE: _("Transmitter off: waiting for RC failsafe."),
        GuideStep.WAIT_RECOVERY: _("Transmitter on: waiting for RC failsafe to clear."),
        GuideStep.DONE: _("Test finished."),
    }
    if guide.failsafe_before_test:
        return _(
            "RC failsafe is active: switch the transmitter on. The stick step and the failsafe test follow."
        )
    if guide.step is GuideStep.MOVE_STICKS and guide.stick is not None:
        text = stick_instruction(state.guided.family, guide.stick)
        return text if guide.stick.by_program else text + " " + _("(s: skip this stick)")
    if guide.step is GuideStep.FLIP_SWITCHES and guide.switches is not None:
        text = switch_instruction(guide.switches)
        return text if guide.switches.by_program else text + " " + _("(s: go on)")
    return texts.get(guide.step) or common[guide.step]


def step_line_text(state: RCReceiverState) -> str:
    return _("Step: {step}").format(step=terminal_step_text(state))


def verdict_line_text(state: RCReceiverState) -> str:
    verdict = state.guided.verdict
    return _("Verdict: {result} - {detail}").format(
        result=verdict.headline or verdict.result.value, detail=verdict.detail
    )


def channel_role_line_text(channel: ChannelEvidence) -> str:
    """A channel with a role: which role, and whether it moved during the test."""
    return _("CH{number} {role} {range}").format(
        number=channel.number,
        role=role_label(channel.role),
        range=_("moved") if channel.moved else _("not moved"),
    )


def extra_channel_line_text(channel: ExtraChannel) -> str:
    """A channel beyond CH5: its reading, its range in the test, its role and its switch position."""
    reading = _("no reading") if channel.pwm is None else _("{pwm} µs").format(pwm=channel.pwm)
    text = _("CH{number}: {reading}, {span}, {role}").format(
        number=channel.number,
        reading=reading,
        span=extra_channel_span_text(channel) or _("no range yet"),
        role=extra_channel_role_text(channel),
    )
    position = switch_position_label(channel.position)
    return text if not position else _("{channel}, switch {position}").format(channel=text, position=position)


def switch_moved_text(channel: ExtraChannel) -> str:
    """An auxiliary switch ArduPilot now reads in another position."""
    return _("CH{number} {role}: switch {position}").format(
        number=channel.number,
        role=extra_channel_role_text(channel),
        position=switch_position_label(channel.position),
    )


def failsafe_held_values_text() -> str:
    # ArduPilot keeps sending the last PWM values during failsafe: numbers alone prove nothing.
    return _("RC failsafe: the channels show the last values held, not live input.")


def finding_line_text(finding: Finding) -> str:
    return _("finding: {text}").format(text=finding.message)


def finding_event_text(finding: Finding) -> str:
    return _("Finding ({severity}): {text}").format(severity=finding.severity.value, text=finding.message)


def radio_message_event_text(message: RadioMessage) -> str:
    return _("Flight controller: {text}").format(text=message.text)


def failsafe_latency_text(latency_s: float) -> str:
    return _("RC failsafe {latency:.1f} s after the transmitter went off.").format(latency=latency_s)


def decoded_protocol_text(protocol: str) -> str:
    return _("Receiver protocol the flight controller decodes: {protocol}").format(protocol=protocol)


def finding_summary_text(finding: Finding) -> str:
    return _("{severity}: {message} {action}").format(
        severity=finding.severity.value, message=finding.message, action=finding.action
    )


def earlier_test_text(number: int, state: RCReceiverState) -> str:
    return _("Earlier test {number} (before the link was re-established): {verdict}").format(
        number=number, verdict=verdict_line_text(state)
    )


def earlier_tests_kept_text(kept: int, dropped: int, limit: int) -> str:
    return _(
        "Earlier tests on this run: {kept} kept, {dropped} dropped (only the newest {limit} are kept)."
    ).format(kept=kept, dropped=dropped, limit=limit)


def report_written_text(json_path: object, markdown_path: object) -> str:
    return _("Report written: {json} and {markdown}").format(json=json_path, markdown=markdown_path)


def report_not_written_text(error: object) -> str:
    return _("The report could not be written: {error}").format(error=error)
