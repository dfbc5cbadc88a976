# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Terminal front end: renders receiver and bridge snapshots as text.

Formatting is pure (snapshot in, strings out) so it is testable without a terminal.  On a TTY the
whole view is redrawn in place; otherwise (pipes, logs, scripts) a status line is printed at a
fixed cadence and every change of meaning (failsafe, recovery, link error, stale telemetry,
interval-request outcome) is printed as an event line the moment it is seen, so a log of a
transmitter-off test reads as the sequence it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from ... import _
from ...plugins.rc_receiver.readings import RSSI_MAX
from ...plugins.rc_receiver.snapshot import (
    FailsafeStatus,
    IntervalRequestStatus,
    RCReceiverState,
)
from ...plugins.rc_receiver.wording import impostor_text, request_outcome_text, rssi_is_link_quality
from ...sim_bridge.snapshot import BridgeSnapshot
from ...sim_bridge.texts import link_summary_text, loop_cut_text
from .prompter import describe_check_events, format_check_lines

_CLEAR_SCREEN = "\x1b[H\x1b[2J"


def _yes_no_unknown(value: bool | None) -> str:
    if value is None:
        return _("unknown")
    return _("yes") if value else _("no")


def format_failsafe(status: FailsafeStatus) -> str:
    return {
        FailsafeStatus.ACTIVE: _("ACTIVE"),
        FailsafeStatus.NOT_ACTIVE: _("not active"),
        FailsafeStatus.UNKNOWN: _("unknown"),
    }[status]


def format_request(request: IntervalRequestStatus) -> str:
    return _("{message} interval request: {outcome}").format(
        message=request.message_name, outcome=request_outcome_text(request)
    )


def format_channels(state: RCReceiverState) -> str:
    cells = []
    for channel in state.channels:
        value = str(channel.pwm) if channel.pwm is not None else "----"
        cells.append(f"CH{channel.number} {value:>5}")
    return "  ".join(cells)


def format_rssi(state: RCReceiverState) -> str:
    link_quality = rssi_is_link_quality(state.guided)
    if state.rssi is None:
        return _("link quality unavailable") if link_quality else _("RSSI unavailable")
    text = _("LQ {value}/{maximum}") if link_quality else _("RSSI {value}/{maximum}")
    return text.format(value=state.rssi, maximum=RSSI_MAX)


def format_time_in_test(state: RCReceiverState, at: float | None) -> str:
    if at is None:
        return ""
    return _("at {seconds:.1f} s").format(seconds=max(0.0, at - state.test_started_at))


def format_status_line(state: RCReceiverState) -> str:
    """One line with everything a person checks at a glance."""
    observed = _("yes, {when}").format(when=format_time_in_test(state, state.failsafe_observed_at))
    parts = [
        format_channels(state),
        format_rssi(state),
        _("present: {value}").format(value=_yes_no_unknown(state.receiver_present)),
        _("RC failsafe: {value}").format(value=format_failsafe(state.failsafe)),
        _("failsafe observed: {value}").format(value=observed if state.failsafe_observed else _("no")),
        _("RC_CHANNELS {rc:.1f} Hz, SYS_STATUS {sys:.1f} Hz").format(
            rc=state.rc_channels_rate_hz, sys=state.sys_status_rate_hz
        ),
    ]
    if state.recovery_observed:
        parts.append(_("recovery {when}").format(when=format_time_in_test(state, state.recovery_observed_at)))
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
    return " | ".join(parts)


def format_bridge_summary(snapshot: BridgeSnapshot) -> list[str]:
    return [link_summary_text(link) for link in snapshot.links]


def describe_events(previous: RCReceiverState | None, state: RCReceiverState) -> list[str]:
    """Event lines for every change of meaning between two snapshots."""
    events: list[str] = []
    before = previous if previous is not None else RCReceiverState()
    if state.failsafe != before.failsafe:
        events.append(_("RC failsafe is now {value}").format(value=format_failsafe(state.failsafe)))
    if state.failsafe_observed and not before.failsafe_observed:
        events.append(
            _("Failsafe observed {when} into the test").format(
                when=format_time_in_test(state, state.failsafe_observed_at)
            )
        )
    if state.recovery_observed and not before.recovery_observed:
        events.append(
            _("Recovery observed {when} into the test").format(
                when=format_time_in_test(state, state.recovery_observed_at)
            )
        )
    if state.receiver_present != before.receiver_present:
        events.append(
            _("Receiver seen by the flight controller: {value}").format(
                value=_yes_no_unknown(state.receiver_present)
            )
        )
    if state.internal_error and state.internal_error != before.internal_error:
        events.append(state.internal_error)
    if state.impostor_datagrams and not before.impostor_datagrams:
        events.append(impostor_text(state.impostor_datagrams))
    if state.link_error and state.link_error != before.link_error:
        events.append(_("Link error: {error}").format(error=state.link_error))
    elif before.link_error and not state.link_error:
        events.append(_("Link restored"))
    if before.has_live_telemetry and not state.has_live_telemetry and not state.link_error:
        events.append(_("No telemetry for 3 s: readings cleared"))
    previous_requests = {r.message_id: r for r in before.interval_requests}
    for request in state.interval_requests:
        old = previous_requests.get(request.message_id)
        if old is None or (old.outcome, old.reason) != (request.outcome, request.reason):
            events.append(format_request(request))
    return events


def describe_bridge_events(previous: BridgeSnapshot | None, bridge: BridgeSnapshot) -> list[str]:
    """An event line for every link that has cut a loop since ``previous``."""
    before = {link.name: link.loop.loops_cut for link in previous.links} if previous is not None else {}
    return [loop_cut_text(link) for link in bridge.links if link.loop.loops_cut > before.get(link.name, 0)]


class TextFrontEnd:
    """Writes snapshots to a stream, either as a live screen or as a log."""

    def __init__(
        self,
        out: TextIO,
        *,
        live: bool,
        clock: Callable[[], float],
        status_interval_s: float = 0.5,
    ) -> None:
        self._out = out
        self._live = live
        self._clock = clock
        self._status_interval_s = status_interval_s
        # Log lines are stamped from the start of the run, as the run's own lines (transmitter
        # switches, reconnections, the SITL console) are: one clock for the whole output, even
        # when a reconnection starts a fresh test.
        self._start = clock()
        self._previous: RCReceiverState | None = None
        self._previous_bridge: BridgeSnapshot | None = None
        self._last_status_at: float | None = None

    def render(self, state: RCReceiverState, bridge: BridgeSnapshot | None = None) -> None:
        if self._live:
            self._render_screen(state, bridge)
        else:
            self._render_log(state, bridge)
        self._previous = state

    def _render_screen(self, state: RCReceiverState, bridge: BridgeSnapshot | None) -> None:
        lines = [_("RC receiver check  (Ctrl+C to quit)"), ""]
        lines.extend(format_status_line(state).split(" | "))
        lines.extend(format_request(request) for request in state.interval_requests)
        lines.extend(format_check_lines(state))
        if bridge is not None:
            lines.append("")
            lines.extend(format_bridge_summary(bridge))
        self._out.write(_CLEAR_SCREEN + "\n".join(lines) + "\n")
        self._out.flush()

    def _render_log(self, state: RCReceiverState, bridge: BridgeSnapshot | None) -> None:
        now = self._clock()
        elapsed = max(0.0, now - self._start)
        events = describe_events(self._previous, state) + describe_check_events(self._previous, state)
        if bridge is not None:
            events += describe_bridge_events(self._previous_bridge, bridge)
            self._previous_bridge = bridge
        for event in events:
            self._out.write(f"[{elapsed:6.1f} s] * {event}\n")
        if self._last_status_at is None or now - self._last_status_at >= self._status_interval_s:
            self._last_status_at = now
            self._out.write(f"[{elapsed:6.1f} s] {format_status_line(state)}\n")
            if bridge is not None:
                for line in format_bridge_summary(bridge):
                    self._out.write(f"[{elapsed:6.1f} s]   {line}\n")
        self._out.flush()
