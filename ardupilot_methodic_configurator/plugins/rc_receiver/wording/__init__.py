# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every sentence the receiver check shows, in one place, for every view.

The Tk view, the terminal view and the report word the same facts the same way: the guidance, the
stream requests and their outcomes, the notices about the link and the streams, the guided test's
step, the sticks, findings, radio messages and the verdict's label.  Pure functions of snapshot
fields, through `_()`; no Tk, so the terminal needs none.  The channels, the flight-mode switch
and the switch step are worded in `channels`, for every view too.  What only one view says is
worded beside this, in the package: the Tk view's own words (titles, buttons and their
tooltips, the report dialogs) in `tk_view`, the terminal's own lines (its status line, event log,
key prompts and summary) in `terminal`; no view words a failsafe, an RSSI or a step itself.
"""

from __future__ import annotations

from .... import _
from ..firmware import RC_OPTION_CRSF_LINK_QUALITY, VehicleFamily, centring
from ..snapshot import (
    STALE_AFTER_S,
    Finding,
    GuidedTest,
    GuideStep,
    IntervalRequestOutcome,
    IntervalRequestStatus,
    PrearmMoment,
    RadioMessage,
    RCReceiverState,
    Severity,
    StickOutcome,
    StickPrompt,
    StickResult,
    VerdictResult,
)
from .channels import switch_instruction


def guidance_text() -> str:
    return "\n\n".join(
        (
            _(
                "1. Upload your receiver parameter edits (RC_PROTOCOLS, SERIALn_PROTOCOL, RSSI_TYPE, "
                "failsafe settings) to the flight controller first; this check only reads telemetry "
                "and changes no parameter. Some of these settings need a reboot to take effect."
            ),
            _(
                "2. Move the sticks and switches that drive the first five channels and check that "
                "the CH1 to CH5 bars follow them."
            ),
            _(
                "3. Switch the transmitter off. 'RC failsafe' must become active and 'Failsafe "
                "observed during this test' must change to yes."
            ),
            _(
                "4. Switch the transmitter back on. 'RC failsafe' must return to not active and "
                "'Recovery observed' must change to yes."
            ),
            _(
                "'Receiver seen by the flight controller' means the flight controller has received RC "
                "input at some time since it booted, not that it receives it now. Only moving channels "
                "and the transmitter-off test show that it receives now: while in RC failsafe the "
                "channels keep showing their last values."
            ),
            _(
                "Stop any RC override from a ground station during the test: overrides make a lost "
                "receiver look present and healthy."
            ),
        )
    )


def interval_text(interval_us: int) -> str:
    if interval_us > 0:
        return _("{rate:.1f} Hz").format(rate=1_000_000 / interval_us)
    if interval_us == 0:
        return _("default rate")
    return _("off")


def request_outcome_text(request: IntervalRequestStatus) -> str:
    """What became of one interval request, worded once for the window and the terminal view."""
    outcome = request.outcome
    if outcome is IntervalRequestOutcome.REJECTED:
        return _("rejected: {reason}").format(reason=request.reason or _("no reason given"))
    if outcome is IntervalRequestOutcome.SEND_FAILED:
        return _("send failed: {reason}").format(reason=request.reason or _("no reason given"))
    words = {
        IntervalRequestOutcome.NOT_REQUESTED: _("not requested"),
        IntervalRequestOutcome.PENDING: _("pending"),
        IntervalRequestOutcome.ACCEPTED: _("accepted"),
        IntervalRequestOutcome.NO_ANSWER: _("no answer"),
    }
    return words[outcome]


def request_text(request: IntervalRequestStatus | None) -> str:
    if request is None or request.outcome is IntervalRequestOutcome.NOT_REQUESTED:
        return _("interval not requested")
    return _("interval request ({rate}): {outcome}").format(
        rate=interval_text(request.interval_us), outcome=request_outcome_text(request)
    )


def relative_time_text(observed: bool, at: float | None, test_started_at: float) -> str:
    if not observed:
        return _("not yet")
    if at is None:
        return _("yes")
    return _("yes, at {seconds:.1f} s").format(seconds=max(0.0, at - test_started_at))


def stream_freshness(state: RCReceiverState) -> tuple[bool, bool, bool, bool]:
    """(RC_CHANNELS expired, SYS_STATUS expired, RC_CHANNELS awaited, SYS_STATUS awaited).

    A stream "expired" once it was seen and then fell silent; it is "awaited" if never seen.
    """
    return (
        not state.rc_channels_live and state.rc_channels_age_s is not None,
        not state.sys_status_live and state.sys_status_age_s is not None,
        not state.rc_channels_live and state.rc_channels_age_s is None,
        not state.sys_status_live and state.sys_status_age_s is None,
    )


def notice_lines(
    state: RCReceiverState, view_error: str | None, *, link_told: bool = False
) -> tuple[list[str], bool]:
    """The notice lines (internal errors, link problems, expired or awaited streams, backlog) and
    whether one is a problem.  ``view_error`` is an internal error the view itself met;
    ``link_told``: the host has said in its own sentence that the link went away, so the link's
    lines (its error, the streams awaited) would say the same event again."""
    rc_expired, sys_expired, rc_waiting, sys_waiting = stream_freshness(state)
    told = link_told and (state.link_error is not None or not state.connected)
    lines: list[str] = []
    if state.internal_error is not None:
        lines.append(state.internal_error)
    if view_error is not None and view_error != state.internal_error:
        lines.append(view_error)
    if state.impostor_datagrams:
        lines.append(impostor_text(state.impostor_datagrams))
    if told:
        pass  # the host's own sentence says it
    elif state.link_error is not None:
        lines.append(_("Link error: {error}").format(error=state.link_error))
    elif not state.connected:
        lines.append(_("No flight controller connected."))
    problem = bool(lines)
    if state.connected and not told:
        if rc_expired and sys_expired:
            lines.append(
                _("No telemetry for {seconds} s — readings cleared.").format(seconds=f"{STALE_AFTER_S:g}")
            )
        elif rc_expired:
            lines.append(
                _("No RC_CHANNELS for {seconds} s — channel and RSSI readings cleared.").format(
                    seconds=f"{STALE_AFTER_S:g}"
                )
            )
        elif sys_expired:
            lines.append(
                _("No SYS_STATUS for {seconds} s — receiver status is unknown.").format(
                    seconds=f"{STALE_AFTER_S:g}"
                )
            )
        problem = problem or rc_expired or sys_expired
        if rc_waiting and sys_waiting:
            lines.append(_("Waiting for RC_CHANNELS and SYS_STATUS from the flight controller…"))
        elif rc_waiting:
            lines.append(_("Waiting for RC_CHANNELS from the flight controller…"))
        elif sys_waiting:
            lines.append(_("Waiting for SYS_STATUS from the flight controller…"))
    if state.backlog:
        lines.append(_("Messages arrive faster than they are read; readings may lag behind (backlog)."))
    return lines, problem


def prearm_moment_label(moment: PrearmMoment | str) -> str:
    """When the check asked for ArduPilot's pre-arm checks, as a clause of a sentence."""
    if PrearmMoment(getattr(moment, "value", moment)) is PrearmMoment.TEST_DONE:
        return _("after the test")
    return _("once the parameters were read")


def stick_name(family: VehicleFamily, axis: str) -> str:
    """The stick as the vehicle's pilots call it ("pitch", a plane's "elevator (pitch)")."""
    if family is VehicleFamily.ROVER:
        names = {"roll": _("steering"), "throttle": _("throttle")}
    elif family is VehicleFamily.PLANE:
        names = {
            "roll": _("aileron (roll)"),
            "pitch": _("elevator (pitch)"),
            "throttle": _("throttle"),
            "yaw": _("rudder (yaw)"),
        }
    else:
        # A helicopter's throttle stick sets the collective pitch.
        throttle = _("collective") if family is VehicleFamily.HELI else _("throttle")
        names = {"roll": _("roll"), "pitch": _("pitch"), "throttle": throttle, "yaw": _("yaw")}
    return names.get(axis, axis)


def stick_action(family: VehicleFamily, axis: str) -> str:
    """Which way the stick step asks to push ``axis``: the way ArduPilot's convention names."""
    if axis == "throttle":
        return _("fully forward") if family is VehicleFamily.ROVER else _("fully up")
    if axis == "pitch":
        return _("fully forward (nose down)") if family is VehicleFamily.PLANE else _("fully forward")
    return _("fully right")


def stick_instruction(family: VehicleFamily, prompt: StickPrompt) -> str:
    """The stick step's request for one stick ("Stick 2 of 4: push the pitch stick fully forward…")."""
    name, action = stick_name(family, prompt.axis), stick_action(family, prompt.axis)
    if prompt.by_program:
        if not prompt.pushed:
            return _(
                "Stick {number} of {count}: the program centres its sticks before it moves the {stick} stick."
            ).format(number=prompt.number, count=prompt.count, stick=name)
        return _("Stick {number} of {count}: the program pushes its {stick} stick {action}.").format(
            number=prompt.number, count=prompt.count, stick=name, action=action
        )
    if not centring(family, prompt.axis):
        return _(
            "Stick {number} of {count}: from the bottom, push the {stick} stick {action} and hold it there, "
            "the other sticks centred."
        ).format(number=prompt.number, count=prompt.count, stick=name, action=action)
    if family is VehicleFamily.HELI:
        return _(
            "Stick {number} of {count}: push the {stick} stick {action} and hold it there, the other "
            "sticks centred and the collective down."
        ).format(number=prompt.number, count=prompt.count, stick=name, action=action)
    return _(
        "Stick {number} of {count}: push the {stick} stick {action} and hold it there, the other sticks "
        "centred and the throttle down."
    ).format(number=prompt.number, count=prompt.count, stick=name, action=action)


def stick_outcome_label(outcome: str) -> str:
    """A `StickOutcome` value as a word or two ("correct", "reversed"...); the value if unknown."""
    labels = {
        StickOutcome.PENDING.value: _("not checked"),
        StickOutcome.CORRECT.value: _("correct"),
        StickOutcome.REVERSED.value: _("reversed"),
        StickOutcome.WRONG_CHANNEL.value: _("wrong channel"),
        StickOutcome.NO_MOVEMENT.value: _("no channel moved"),
        StickOutcome.SKIPPED.value: _("skipped"),
    }
    return labels.get(outcome, outcome)


def stick_outcome_text(family: VehicleFamily, stick: StickResult) -> str:
    """One stick's result in a few words, for the step's list and the reports."""
    name = stick_name(family, stick.axis)
    texts = {
        StickOutcome.CORRECT: _("{stick}: correct, CH{moved} {rest} → {end} µs"),
        StickOutcome.REVERSED: _("{stick}: REVERSED, CH{moved} {rest} → {end} µs"),
        StickOutcome.WRONG_CHANNEL: _("{stick}: CH{moved} moved, but {parameter} = {channel}"),
    }
    if stick.outcome not in texts:
        return _("{stick}: {outcome}").format(stick=name, outcome=stick_outcome_label(stick.outcome.value))
    return texts[stick.outcome].format(
        stick=name,
        moved=stick.moved_channel,
        rest=stick.rest_us,
        end=stick.end_us,
        parameter=stick.parameter,
        channel=stick.channel,
    )


def sticks_text(check: GuidedTest) -> str:
    """What the stick step found so far, one stick after the other; empty before it found anything."""
    if all(stick.outcome is StickOutcome.PENDING for stick in check.sticks):
        return ""
    return _("Sticks: {sticks}").format(
        sticks="; ".join(stick_outcome_text(check.family, stick) for stick in check.sticks)
    )


def verdict_label(result: VerdictResult) -> str:
    """The verdict as a person reads it, in the active language (the value itself is for machines)."""
    labels = {
        VerdictResult.PASSED: _("PASSED"),
        VerdictResult.INCOMPLETE: _("INCOMPLETE"),
        VerdictResult.FAILED: _("FAILED"),
    }
    return labels[result]


def guide_instruction(check: GuidedTest) -> str:
    """What the guide asks for now, in a person's words (the program's own steps for a demo)."""
    guide = check.guide
    automatic = guide.automatic
    texts = {
        GuideStep.WAIT_TELEMETRY: _("Waiting for receiver telemetry from the flight controller."),
        GuideStep.MOVE_STICKS: _("Move the sticks one at a time, as the check asks."),
        GuideStep.FLIP_SWITCHES: _("Flip the mode switch through its positions and each aux switch once."),
        GuideStep.SWITCH_OFF: _("The program switches its transmitter off now.")
        if automatic
        else _("Switch the transmitter off now, then press \u201cIt is off\u201d."),
        GuideStep.WAIT_FAILSAFE: _(
            "Transmitter off: waiting for the flight controller to report RC failsafe."
        ),
        GuideStep.SWITCH_ON: _("The program switches its transmitter back on now.")
        if automatic
        else _("Switch the transmitter back on, then press \u201cIt is on\u201d."),
        GuideStep.WAIT_RECOVERY: _("Transmitter on: waiting for RC failsafe to clear."),
        GuideStep.DONE: _("Test finished. Press \u201cStart a new test\u201d to repeat it."),
    }
    if guide.failsafe_before_test:
        return _(
            "RC failsafe is active: switch the transmitter on. The stick step and the failsafe test follow."
        )
    if guide.step is GuideStep.MOVE_STICKS and guide.stick is not None:
        return stick_instruction(check.family, guide.stick)
    if guide.step is GuideStep.FLIP_SWITCHES and guide.switches is not None:
        return switch_instruction(guide.switches)
    return texts[guide.step]


def finding_text(finding: Finding) -> str:
    marks = {Severity.BLOCKING: "\u2716", Severity.WARNING: "\u26a0", Severity.INFO: "\u2139"}
    return f"{marks[finding.severity]} {finding.message} {finding.action}"


def message_text(message: RadioMessage, test_started_at: float) -> str:
    return _("{seconds:6.1f} s  {text}").format(
        seconds=max(0.0, message.at - test_started_at), text=message.text
    )


def rssi_is_link_quality(check: GuidedTest) -> bool:
    """``RC_OPTIONS`` bit 11: the RSSI the flight controller reports is CRSF link quality."""
    options = check.parameter("RC_OPTIONS")
    return options is not None and bool(int(options) & RC_OPTION_CRSF_LINK_QUALITY)


def describe_transport_error(error: BaseException) -> str:
    detail = str(error) or type(error).__name__
    if isinstance(error, OSError):  # serial.SerialException is an OSError too
        return _("Lost the connection to the flight controller: {detail}").format(detail=detail)
    return _("Could not read from the flight controller: {detail}").format(detail=detail)


def describe_internal_error(error: BaseException) -> str:
    """A fault of the check itself, said as such: not the link's, and where the details are."""
    detail = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    return _(
        "Internal error of the receiver check ({detail}). This is a fault of the program, not of "
        "the link; the log has the details. Please report it."
    ).format(detail=detail)


def impostor_text(count: int) -> str:
    """Another program sends on this port in the vehicle's name; its datagrams are not evidence."""
    return _(
        "Another sender on this port claims to be the vehicle: {count} of its datagrams were "
        "ignored. Only the vehicle's own address counts."
    ).format(count=count)


def yes_no_unknown_text(value: bool | None) -> str:
    if value is None:
        return _("unknown")
    return _("yes") if value else _("no")
