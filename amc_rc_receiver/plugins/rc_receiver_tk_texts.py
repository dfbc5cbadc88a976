# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The sentences of the receiver view: guidance, stream requests, times and the notice lines.

Pure functions of snapshot fields, so that the texts can be tested without Tk and the view module
keeps to widgets and their updates.
"""

from __future__ import annotations

from .. import _
from .rc_receiver_state import (
    STALE_AFTER_S,
    IntervalRequestOutcome,
    IntervalRequestStatus,
    RCReceiverState,
)


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


def notice_lines(state: RCReceiverState, model_error: str | None) -> tuple[list[str], bool]:
    """The notice lines (link problems, expired or awaited streams, backlog) and whether one is a problem."""
    rc_expired, sys_expired, rc_waiting, sys_waiting = stream_freshness(state)
    lines: list[str] = []
    if model_error is not None:
        lines.append(
            _("The receiver check could not read the flight controller: {error}").format(
                error=model_error
            )
        )
    if state.link_error is not None:
        lines.append(_("Link error: {error}").format(error=state.link_error))
    elif not state.connected:
        lines.append(_("No flight controller connected."))
    problem = bool(lines)
    if state.connected:
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
