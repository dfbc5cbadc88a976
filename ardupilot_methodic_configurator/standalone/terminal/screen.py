# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Terminal front end: renders receiver and bridge snapshots as text.

Formatting is pure (snapshot in, strings out) so it is testable without a terminal; the receiver's
sentences come from the plugin's wording module, so the terminal says what the window says.  On a TTY the
whole view is redrawn in place; otherwise (pipes, logs, scripts) a status line is printed at a
fixed cadence and every change of meaning (failsafe, recovery, link error, stale telemetry,
interval-request outcome) is printed as an event line the moment it is seen, so a log of a
transmitter-off test reads as the sequence it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from ...plugins.rc_receiver.snapshot import FailsafeStatus, IntervalRequestOutcome, RCReceiverState
from ...plugins.rc_receiver.wording import impostor_text
from ...plugins.rc_receiver.wording.terminal import (
    failsafe_now_text,
    failsafe_observed_text,
    link_error_text,
    link_restored_text,
    receiver_seen_text,
    recovery_observed_text,
    request_line_text,
    screen_title_text,
    status_line_texts,
    telemetry_lost_text,
)
from ...sim_bridge.snapshot import BridgeSnapshot
from ...sim_bridge.texts import link_summary_text, loop_cut_text
from .prompter import describe_guided_events, format_guided_lines

_CLEAR_SCREEN = "\x1b[H\x1b[2J"


def format_channels(state: RCReceiverState) -> str:
    cells = []
    for channel in state.channels:
        value = str(channel.pwm) if channel.pwm is not None else "----"
        cells.append(f"CH{channel.number} {value:>5}")
    return "  ".join(cells)


def format_status_line(state: RCReceiverState) -> str:
    """One line with everything a person checks at a glance."""
    return " | ".join([format_channels(state), *status_line_texts(state)])


def format_bridge_summary(snapshot: BridgeSnapshot) -> list[str]:
    return [link_summary_text(link) for link in snapshot.links]


def describe_events(
    previous: RCReceiverState | None, state: RCReceiverState, *, links_followed: bool = False
) -> list[str]:
    """Event lines for every change of meaning between two snapshots.

    ``links_followed``: the run follows its link (`LinkFollower`), whose own sentence says each
    loss and return.  The model's side of the same event (its link error, the failsafe and the
    receiver turning unknown, the stream requests failing and asked for again) would say it a
    second to eighth time, so it is left to the status line.
    """
    events: list[str] = []
    before = previous if previous is not None else RCReceiverState()
    down = links_followed and state.link_error is not None
    # Without live telemetry the readings are cleared: "unknown" is what the link's sentence (or
    # "No telemetry for 3 s: readings cleared") already says.
    cleared = down or not state.has_live_telemetry
    if state.failsafe != before.failsafe and not (cleared and state.failsafe is FailsafeStatus.UNKNOWN):
        events.append(failsafe_now_text(state.failsafe))
    if state.failsafe_observed and not before.failsafe_observed:
        events.append(failsafe_observed_text(state))
    if state.recovery_observed and not before.recovery_observed:
        events.append(recovery_observed_text(state))
    if state.receiver_present != before.receiver_present and not (cleared and state.receiver_present is None):
        events.append(receiver_seen_text(state.receiver_present))
    if state.internal_error and state.internal_error != before.internal_error:
        events.append(state.internal_error)
    if state.impostor_datagrams and not before.impostor_datagrams:
        events.append(impostor_text(state.impostor_datagrams))
    if not links_followed:
        if state.link_error and state.link_error != before.link_error:
            events.append(link_error_text(state.link_error))
        elif before.link_error and not state.link_error:
            events.append(link_restored_text())
    if before.has_live_telemetry and not state.has_live_telemetry and not state.link_error:
        events.append(telemetry_lost_text())
    if not down:
        previous_requests = {r.message_id: r for r in before.interval_requests}
        for request in state.interval_requests:
            old = previous_requests.get(request.message_id)
            if old is not None and (old.outcome, old.reason) == (request.outcome, request.reason):
                continue
            asked_again = old is not None and request.outcome is IntervalRequestOutcome.PENDING
            if not (links_followed and asked_again):
                events.append(request_line_text(request))
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
        links_followed: bool = False,
    ) -> None:
        self._out = out
        self._links_followed = links_followed
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
        lines = [screen_title_text(), ""]
        lines.extend(format_status_line(state).split(" | "))
        lines.extend(request_line_text(request) for request in state.interval_requests)
        lines.extend(format_guided_lines(state))
        if bridge is not None:
            lines.append("")
            lines.extend(format_bridge_summary(bridge))
        self._out.write(_CLEAR_SCREEN + "\n".join(lines) + "\n")
        self._out.flush()

    def _render_log(self, state: RCReceiverState, bridge: BridgeSnapshot | None) -> None:
        now = self._clock()
        elapsed = max(0.0, now - self._start)
        events = describe_events(self._previous, state, links_followed=self._links_followed)
        lost = (
            self._previous is not None and self._previous.has_live_telemetry and not state.has_live_telemetry
        )
        if not (self._links_followed and state.link_error is not None):
            # While a followed link is down, or right when the telemetry stopped, the guide only
            # waits for it: that is the link's sentence, not a step of its own.
            events += describe_guided_events(self._previous, state, step_news=not lost)
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
