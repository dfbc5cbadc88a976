# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Data model of the RC receiver check: reads the shared MAVLink connection and builds snapshots.

Why this module is long: it is one state machine.  Activation, suspension, connection recovery,
a new connection and the bounded read each reset some of the same dozen fields (readings, rates,
the carried message, the queue-emptied time, the request state), and what each transition must
forget is the invariant that keeps one test's evidence out of another's; kept in one class, those
rules read side by side.  The pure parts are already elsewhere (rules, samples, stream requests,
vehicle clock, history, the guided test).

Each `poll()` does bounded, non-blocking work: it reads at most 50 messages with `recv_msg()`,
lets the plugin's own command tracker see every one of them (COMMAND_ACK matching) and keeps only
the latest RC_CHANNELS and SYS_STATUS of the selected flight controller.  The rules that
interpret fields live in `rc_receiver_rules` and the stream requests in
`rc_receiver_stream_requests`; this module owns time (freshness, rates, failsafe history), the
connection lifecycle and when requests may go out, and never lets an exception reach the caller.

From the host's flight controller it uses only what the methodic configurator 5.0.1 offers:
`master` (the pymavlink connection, replaced by a new object on every reconnection, which is how
a new connection is recognised), `info.system_id` / `info.component_id` (strings, "" when
unknown) and ``fc_parameters`` (read by `rc_receiver_check`); commands and parameter reads go out
through `master.mav`.  The guided test (parameters, roles, radio messages, guide, verdict) lives in
`rc_receiver_check`; this model feeds it every message of the selected vehicle and its lifecycle.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from .. import _
from .rc_receiver_check import ReceiverCheckTracker, TransmitterSwitch
from .rc_receiver_commands import CommandManager
from .rc_receiver_history import FailsafeHistory
from .rc_receiver_mavlink import (
    message_source,
    message_timestamp,
    message_type,
)
from .rc_receiver_model_parts import (
    TELEMETRY,
    ChannelsSample,
    RCReceiverFlightController,
    StatusSample,
    channels_sample,
    describe_transport_error,
    selected_target,
    status_sample,
)
from .rc_receiver_rate_meter import RateMeter
from .rc_receiver_rules import is_selected_source
from .rc_receiver_state import (
    STALE_AFTER_S,
    FailsafeStatus,
    RCReceiverState,
)
from .rc_receiver_stream_requests import StreamRequests
from .rc_receiver_vehicle_clock import VehicleClock

MAX_MESSAGES_PER_POLL = 50
# Polls closer together than this after one that emptied the queue read only recent messages.
RECENT_POLL_GAP_S = 0.5
# About a minute of both streams at 5 Hz plus heartbeats: parsed in a few milliseconds.
MAX_MESSAGES_DROPPED_ON_RESUME = 1000
RATE_WINDOW_S = 2.0
_NO_CHANNELS = RCReceiverState().channels


class RCReceiverDataModel:
    """Turns the selected flight controller's telemetry into `RCReceiverState` snapshots."""

    def __init__(
        self,
        flight_controller: RCReceiverFlightController,
        clock: Callable[[], float] = time.monotonic,
        *,
        local_filesystem: object = None,
        parameter_editor: object = None,
    ) -> None:
        self._fc = flight_controller
        self._clock = clock
        now = clock()
        self._check = ReceiverCheckTracker(flight_controller, local_filesystem, parameter_editor)
        self._commands = CommandManager(clock=clock)
        # The connection object the current test belongs to.  Held strongly so that a new
        # connection can never reuse its identity.
        self._master: Any = self._fc.master
        self._connection_number = 0 if self._master is None else 1
        self._active = False
        self._suspended = False
        # While the host recovers a lost link, the plugin must not put a byte on the wire.
        self._recovering = False
        # After a resume, what queued meanwhile is read and dropped until the queue runs dry.
        self._discarding = False
        self._streams = StreamRequests(self._commands, lambda master: selected_target(self._fc, master))
        # A message read only to learn that more were waiting; processed first by the next poll.
        self._carried: Any = None
        self._channels: ChannelsSample | None = None
        self._status: StatusSample | None = None
        self._history = FailsafeHistory(now)
        self._channels_rate = RateMeter(RATE_WINDOW_S)
        self._status_rate = RateMeter(RATE_WINDOW_S)
        self._vehicle_clock = VehicleClock()
        # When the previous poll emptied the queue: anything read later arrived after that.
        self._queue_emptied_at: float | None = None
        self._link_error: str | None = None
        self._backlog = False
        self._messages_read = 0
        self._state = self._build_state(now)

    # ----------------------------------------------------------------- public API

    @property
    def state(self) -> RCReceiverState:
        """The snapshot built by the last `poll()` (or lifecycle call)."""
        return self._state

    @property
    def active(self) -> bool:
        return self._active

    @property
    def messages_read_last_poll(self) -> int:
        """How many messages the last `poll()` consumed (never more than 50)."""
        return self._messages_read

    def activate(self) -> None:
        """Start checking: the next poll requests RC_CHANNELS and SYS_STATUS streams.

        Idempotent: activating an active model requests nothing more.
        """
        if self._active:
            return
        self._active = True
        self._suspended = False
        self._recovering = False
        self._streams.requested_on = None
        self._state = self._safe_build_state()

    def deactivate(self) -> None:
        """Stop checking: restore default stream rates on this connection, drop live readings.

        The failsafe evidence of the current test is kept.  Never raises.
        """
        self._active = False
        self._suspended = False
        try:
            self._forward_carried_message()
            # Nothing goes on the wire while the host recovers the link.
            if not self._recovering:
                self._streams.restore(self._fc.master)
        except Exception as error:  # shutting down must never crash the caller
            self._link_error = describe_transport_error(error)
        self._recovering = False
        # The streams are back at the firmware's default: neither the rates measured at 5 Hz nor
        # the requests' outcomes describe the link any more.
        self._streams.forget()
        self._channels_rate.reset()
        self._status_rate.reset()
        self._invalidate_readings()
        self._state = self._safe_build_state()

    def suspend(self, *, connection_recovery: bool = False) -> None:
        """Pause reading while another part of the host owns the connection.

        The test's evidence and the stream requests stay.  During a connection recovery nothing is
        sent, not even the interval restore of a later deactivation on the same connection.
        """
        self._suspended = True
        self._recovering = self._recovering or connection_recovery
        self._state = self._safe_build_state()

    def resume(self) -> None:
        """Continue after `suspend()`; idempotent.

        Everything that queued on the connection meanwhile is dropped (it is old, whatever its
        order), readings restart from nothing, and after a connection recovery the streams are
        asked for again because the vehicle may have rebooted to its default rates.
        """
        if not self._suspended:
            return
        self._suspended = False
        if self._recovering:
            self._recovering = False
            # Asked again by the next poll; until then a deactivation still restores the
            # defaults on the connection that asked, in case the link survived the recovery.
            self._streams.ask_again = True
        self._carried = None
        self._invalidate_readings()
        self._channels_rate.reset()
        self._status_rate.reset()
        self._queue_emptied_at = None
        self._check.resumed()
        try:
            self._discarding = not self._drop_queued_messages()
        except Exception as error:  # resuming must never crash the host
            self._link_error = describe_transport_error(error)
        self._state = self._safe_build_state()

    def reset_test(self) -> None:
        """Start a fresh failsafe test: forget the evidence gathered so far."""
        self._history.restart(self._now())
        self._check.restart_test()
        self._state = self._safe_build_state()

    def confirm_transmitter(self, on: bool) -> None:
        """The user says the transmitter is now ``on`` (or off): the guide times from this moment."""
        self._check.note_transmitter(on, self._now(), by_program=False)
        self._state = self._safe_build_state()

    def note_transmitter_switched(self, on: bool) -> None:
        """The host program switched its own transmitter (demo, SITL) just now."""
        self._check.note_transmitter(on, self._now(), by_program=True)
        self._state = self._safe_build_state()

    def set_transmitter_switch(self, switch: TransmitterSwitch | None) -> None:
        """Let the guide switch a program-owned transmitter itself; ``None`` asks a person instead."""
        self._check.set_transmitter_switch(switch)
        self._state = self._safe_build_state()

    def poll(self) -> RCReceiverState:
        """Read up to 50 waiting messages, update the readings and return a new snapshot.

        Never blocks and never raises: problems are reported in `RCReceiverState.link_error`.
        A suspended model reads nothing.
        """
        if self._suspended:
            self._state = self._safe_build_state()
            return self._state
        try:
            now = self._now()
            self._follow_connection(now)
            self._request_streams_if_needed(now)
            self._read_messages(now)
            self._commands.expire()
            if self._master is not None:
                self._check.poll(
                    self._master,
                    selected_target(self._fc, self._master),
                    now,
                    may_send=self._active and not self._recovering,
                )
        except Exception as error:  # a poll must never take the UI down
            self._link_error = describe_transport_error(error)
            self._invalidate_readings()
        self._state = self._safe_build_state()
        return self._state

    # ----------------------------------------------------------------- connection lifecycle

    def _now(self) -> float:
        return float(self._clock())

    def _follow_connection(self, now: float) -> None:
        master = self._fc.master
        if master is self._master:
            return
        # A different connection: nothing learnt on the previous one may leak into this test,
        # and nothing meant for it (ACK matching, interval restore) may reach the new one.
        self._master = master
        if master is not None:
            self._connection_number += 1
        self._commands.cancel_all(_("The connection to the flight controller changed."))
        self._carried = None
        self._streams.forget()
        self._discarding = False
        self._link_error = None
        self._invalidate_readings()
        self._channels_rate.reset()
        self._status_rate.reset()
        self._vehicle_clock.reset()
        self._queue_emptied_at = None
        self._history.restart(now)
        self._check.connection_changed()

    def _request_streams_if_needed(self, now: float) -> None:
        master = self._master
        if not self._active or self._recovering or master is None:
            return
        received = [sample.received_at for sample in (self._channels, self._status) if sample is not None]
        self._streams.request_if_needed(master, now, received)

    def _drop_queued_messages(self) -> bool:
        """Read and drop what is waiting now (ACKs still count); True once the queue ran dry.

        Bounded, so a huge backlog costs one UI tick at most; polls drop the rest.
        """
        master = self._master
        if master is None:
            return True
        for _index in range(MAX_MESSAGES_DROPPED_ON_RESUME):
            msg = master.recv_msg()
            if msg is None:
                return True
            self._commands.handle_message(msg)
        return False

    def _forward_carried_message(self) -> None:
        if self._carried is not None:
            carried, self._carried = self._carried, None
            self._commands.handle_message(carried)

    def _invalidate_readings(self) -> None:
        self._channels = None
        self._status = None
        self._backlog = False

    # ----------------------------------------------------------------- reading

    def _read_messages(self, now: float) -> None:
        self._messages_read = 0
        self._backlog = False
        master = self._master
        if master is None:
            self._carried = None
            self._link_error = _("Not connected to a flight controller.")
            self._invalidate_readings()
            return
        target = selected_target(self._fc, master)
        discarding = self._discarding
        # Nothing read now can have arrived before the last poll that emptied the queue.
        not_before = self._queue_emptied_at
        latest_channels: ChannelsSample | None = None
        latest_status: StatusSample | None = None
        # (message, its type, its send time if it carries one, the vehicle's latest send time when read)
        readings: list[tuple[Any, str | None, float | None, float | None]] = []
        observed = self._check.observed_types
        newest_channels: tuple[Any, float] | None = None
        channels_count = 0
        status_count = 0
        closed = False
        try:
            while self._messages_read < MAX_MESSAGES_PER_POLL:
                msg = self._next_message(master)
                if msg is None:
                    break
                self._messages_read += 1
                self._commands.handle_message(msg)
                if discarding:
                    continue
                kind = message_type(msg)
                source = message_source(msg)
                if source is None or not is_selected_source(*source, *target):
                    continue
                if kind in observed:
                    self._check.observe(msg, kind, now)
                # Any timestamped message (ATTITUDE, SYSTEM_TIME…) keeps the vehicle clock mapped;
                # an untimestamped one is stamped once the poll knows if it read behind a backlog.
                time_boot_ms = message_timestamp(msg)
                sent_at: float | None = None
                if time_boot_ms is not None:
                    sent_at = self._vehicle_clock.observe(time_boot_ms, now)
                    if not_before is not None:
                        sent_at = max(sent_at, not_before)
                if kind in TELEMETRY:
                    readings.append((msg, kind, sent_at, self._vehicle_clock.latest_send_time()))
            if self._messages_read == MAX_MESSAGES_PER_POLL:
                # Read one more to learn whether more are waiting; keep it for the next poll.
                self._carried = master.recv_msg()
                self._backlog = self._carried is not None
            if discarding and not self._backlog:
                # the queue ran dry: from the next poll on, every message is new
                self._discarding = False
        finally:
            # pymavlink reports a TCP peer's close only through this flag; reads then return
            # nothing for ever, which must not look like a quiet but live link.
            closed = getattr(master, "portdead", False) is True
            self._queue_emptied_at = None if self._backlog else now
        # Without a timestamp a message is as recent as this poll only if the poll came soon
        # after one that emptied the queue and found no backlog itself; otherwise it is as old as
        # the timestamped message the vehicle sent before it.
        recent = (
            not_before is not None and now - not_before <= RECENT_POLL_GAP_S and not self._backlog
        )
        for msg, kind, stamped_at, vehicle_time in readings:
            if stamped_at is not None:
                sent_at = min(stamped_at, now)
            elif recent or vehicle_time is None:
                sent_at = now
            else:
                sent_at = min(vehicle_time if not_before is None else max(vehicle_time, not_before), now)
            if kind == "RC_CHANNELS":
                # Only the newest is shown: a sample for each would be work thrown away.
                newest_channels = (msg, sent_at)
                channels_count += 1
            else:
                latest_status = status_sample(msg, sent_at)
                status_count += 1
                # Every status counts as evidence, timed when the vehicle reported it, so a short
                # failsafe between polls is not lost and a late one is not post-dated.
                self._history.record(latest_status.status.failsafe, sent_at)
        if newest_channels is not None:
            latest_channels = channels_sample(*newest_channels)
        self._channels_rate.add(now, channels_count)
        self._status_rate.add(now, status_count)
        if closed:
            self._carried = None
            self._link_error = _("The flight controller closed the connection.")
            self._invalidate_readings()
            return
        if latest_channels is not None:
            self._channels = latest_channels
            self._link_error = None
        if latest_status is not None:
            self._status = latest_status
            self._link_error = None

    def _next_message(self, master: Any) -> Any:
        if self._carried is not None:
            carried, self._carried = self._carried, None
            return carried
        return master.recv_msg()

    # ----------------------------------------------------------------- snapshot

    def _safe_build_state(self) -> RCReceiverState:
        try:
            return self._build_state(self._now())
        except Exception as error:  # keep the last good snapshot, say what went wrong
            return replace(self._state, link_error=describe_transport_error(error), active=self._active)

    def _build_state(self, now: float) -> RCReceiverState:
        channels = self._channels
        status = self._status
        channels_age = max(0.0, now - channels.received_at) if channels is not None else None
        status_age = max(0.0, now - status.received_at) if status is not None else None
        channels_live = channels is not None and channels_age is not None and channels_age < STALE_AFTER_S
        status_live = status is not None and status_age is not None and status_age < STALE_AFTER_S
        live_channels = channels if channels_live else None
        live_status = status.status if status_live and status is not None else None
        history = self._history
        requests = self._streams.statuses()
        state = RCReceiverState(
            channels=live_channels.channels if live_channels else _NO_CHANNELS,
            rssi=live_channels.rssi if live_channels else None,
            receiver_present=live_status.present if live_status else None,
            receiver_enabled=live_status.enabled if live_status else None,
            failsafe=live_status.failsafe if live_status else FailsafeStatus.UNKNOWN,
            failsafe_observed=history.failsafe_observed,
            failsafe_observed_at=history.failsafe_observed_at,
            recovery_observed=history.recovery_observed,
            recovery_observed_at=history.recovery_observed_at,
            failsafe_transitions=history.transitions,
            link_error=self._link_error,
            backlog=self._backlog,
            rc_channels_rate_hz=self._channels_rate.rate_hz(now),
            sys_status_rate_hz=self._status_rate.rate_hz(now),
            interval_requests=requests,
            rc_channels_live=channels_live,
            sys_status_live=status_live,
            rc_channels_age_s=channels_age,
            sys_status_age_s=status_age,
            chancount=live_channels.chancount if live_channels else None,
            active=self._active,
            connected=self._master is not None,
            connection_generation=self._connection_number,
            test_started_at=history.test_started_at,
            now=now,
        )
        target = selected_target(self._fc, self._master) if self._master is not None else (None, None)
        check = self._check.build(state, target)
        # `replace` would look up every field's metadata again; the snapshot is built every poll.
        return RCReceiverState(**{**vars(state), "check": check})
