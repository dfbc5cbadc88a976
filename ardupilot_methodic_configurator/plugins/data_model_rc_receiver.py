# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Data model of the RC receiver check: reads the shared MAVLink connection and builds snapshots.

Why this module is long: it is one state machine.  Activation, suspension, connection recovery,
a new connection and the bounded read each reset some of the same dozen fields (readings, rates,
the carried message, the queue-emptied time, the request state), and what each transition must
forget is the invariant that keeps one test's evidence out of another's; kept in one class, those
rules read side by side.  The pure parts are elsewhere (`rc_receiver.readings`,
`rc_receiver.timekeeping`, `rc_receiver.commands`, `rc_receiver.streams`, `rc_receiver.parameter_reads`, the guided test in `rc_receiver.tracker`).

Each `poll()` does bounded, non-blocking work: it reads at most 50 messages with `recv_msg()` and
sends each through one table, from its type to the one part that reads it (h11 dispatches by
state the same way): COMMAND_ACK to the command tracker, HEARTBEAT, STATUSTEXT and PARAM_VALUE to
the guided test, and RC_CHANNELS and SYS_STATUS into a list taken as a whole once the read ends
(dated, fed to the guided test in order, every status recorded as failsafe evidence, the newest of
each kept for display).  A type no part reads costs one dictionary lookup.  Only the selected
flight controller's messages count.

Faults are kept apart: whatever the connection raises while reading is the link's (`LinkError`,
shown as `link_error` in today's words), while an exception from the check's own code is an
internal error, logged with its traceback once per kind and shown as `internal_error`, never as a
link fault.  Neither reaches the caller.

From the host's flight controller it uses only what the methodic configurator 5.0.1 offers:
`master` (the pymavlink connection, replaced by a new object on every reconnection, which is how
a new connection is recognised), `info.system_id` / `info.component_id` (strings, "" when
unknown) and ``fc_parameters`` (read by `rc_receiver.tracker`); commands and parameter reads go out
through `master.mav`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from .. import _
from .rc_receiver.commands import CommandManager
from .rc_receiver.parameter_reads import ParameterReader
from .rc_receiver.readings import (
    ChannelsSample,
    RCReceiverFlightController,
    StatusSample,
    channels_sample,
    from_selected,
    int_field,
    link_kind,
    selected_target,
    status_sample,
    sys_status_failsafe,
)
from .rc_receiver.snapshot import (
    STALE_AFTER_S,
    FailsafeStatus,
    LiveReadings,
    RCReceiverState,
)
from .rc_receiver.streams import StreamRequests
from .rc_receiver.timekeeping import FailsafeHistory, RateMeter, VehicleClock
from .rc_receiver.tracker import GuidedTestTracker, StickMover, TransmitterSwitch
from .rc_receiver.wording import describe_internal_error, describe_transport_error

MAX_MESSAGES_PER_POLL = 50
# Polls closer together than this after one that emptied the queue read only recent messages.
RECENT_POLL_GAP_S = 0.5
# About a minute of both streams at 5 Hz plus heartbeats: parsed in a few milliseconds.
MAX_MESSAGES_DROPPED_ON_RESUME = 1000
RATE_WINDOW_S = 2.0
# Distinct internal errors logged with their traceback; a fault that repeats every poll is logged once.
MAX_LOGGED_INTERNAL_ERRORS = 20
_NO_READINGS = RCReceiverState()
_NO_CHANNELS = _NO_READINGS.channels
_logger = logging.getLogger(__name__)

Route = Callable[[Any], object]


def _dated(vehicle_time: float | None, not_before: float | None, now: float, recent: bool) -> float:
    """When the vehicle sent a message without a timestamp (see `_take_vehicle_messages`)."""
    if recent or vehicle_time is None:
        return now
    return min(vehicle_time if not_before is None else max(vehicle_time, not_before), now)


class LinkError(Exception):
    """Reading from the connection failed: a fault of the link, not of the check."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(str(error))
        self.error = error


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
        self._reads = ParameterReader()
        self._tracker = GuidedTestTracker(self._reads, flight_controller, local_filesystem, parameter_editor)
        self._commands = CommandManager(clock=clock)
        # The connection object the current test belongs to.  Held strongly so that a new
        # connection can never reuse its identity.
        self._master: Any = self._fc.master
        self._link_kind = link_kind(self._master)
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
        # A fault of the check itself (a bug), kept apart from the link's faults.
        self._internal_error: str | None = None
        self._logged_errors: set[tuple[str, str]] = set()
        self._backlog = False
        self._messages_read = 0
        # The poll's context, read by the routes below while one poll runs.
        self._poll_now = now
        self._poll_target: tuple[int | None, int | None] = (None, None)
        # What one poll read of the types the check reads of the vehicle, taken once it has read.
        self._vehicle_messages: list[Any] = []
        self._routes = self._message_routes()
        # While a resume drops what queued, only the answers to our commands still count.
        self._discard_routes: dict[str, Route] = {"COMMAND_ACK": self._commands.handle_message}
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
        except LinkError as fault:
            self._link_error = describe_transport_error(fault.error)
        except Exception as error:  # shutting down must never crash the caller
            self._note_internal_error(error, "deactivating")
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
        self._tracker.resumed()
        try:
            self._discarding = not self._drop_queued_messages()
        except LinkError as fault:
            self._link_error = describe_transport_error(fault.error)
        except Exception as error:  # resuming must never crash the host
            self._note_internal_error(error, "resuming")
        self._state = self._safe_build_state()

    def reset_test(self) -> None:
        """Start a fresh failsafe test: forget the evidence gathered so far."""
        self._history.restart(self._now())
        self._tracker.restart_test()
        self._state = self._safe_build_state()

    def note_link_event(self, text: str) -> None:
        """Put ``text`` (a reboot followed, a reconnection) into the current test's timeline.

        A connection that changed since the last poll is taken first, so the event joins the
        fresh test of the new link rather than being dropped with the old one.
        """
        now = self._now()
        self._follow_connection(now)
        self._tracker.note_link_event(text, now)
        self._state = self._safe_build_state()

    def confirm_transmitter(self, on: bool) -> None:
        """The user says the transmitter is now ``on`` (or off): the guide times from this moment."""
        self._tracker.note_transmitter(on, self._now(), by_program=False)
        self._state = self._safe_build_state()

    def note_transmitter_switched(self, on: bool) -> None:
        """The host program switched its own transmitter (demo, SITL) just now."""
        self._tracker.note_transmitter(on, self._now(), by_program=True)
        self._state = self._safe_build_state()

    def set_transmitter_switch(self, switch: TransmitterSwitch | None) -> None:
        """Let the guide switch a program-owned transmitter itself; ``None`` asks a person instead."""
        self._tracker.set_transmitter_switch(switch)
        self._state = self._safe_build_state()

    def set_stick_mover(self, mover: StickMover | None) -> None:
        """Let the stick step move a program-owned transmitter's sticks; ``None`` asks a person."""
        self._tracker.set_stick_mover(mover)
        self._state = self._safe_build_state()

    def skip_stick(self) -> None:
        """The user passes over the stick the stick step asks for now: it is named as not checked."""
        self._tracker.skip_stick(self._now())
        self._state = self._safe_build_state()

    def poll(self) -> RCReceiverState:
        """Read up to 50 waiting messages, update the readings and return a new snapshot.

        Never blocks and never raises: problems are reported in `RCReceiverState.link_error`.
        A suspended model reads nothing.
        """
        if self._suspended:
            self._state = self._safe_build_state()
            return self._state
        # An internal error speaks of the latest poll only.
        self._internal_error = None
        try:
            now = self._now()
            self._follow_connection(now)
            self._read_messages(now)
            self._commands.expire()
            if self._master is not None:
                self._tracker.plan(now)
            self._send(now)
        except LinkError as fault:
            self._link_error = describe_transport_error(fault.error)
            self._invalidate_readings()
        except Exception as error:  # a poll must never take the UI down, and a bug is no link fault
            self._note_internal_error(error, "polling")
            self._invalidate_readings()
        self._state = self._safe_build_state(self._poll_target)
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
        self._link_kind = link_kind(master)
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
        self._tracker.connection_changed()

    def _send(self, now: float) -> None:
        """Everything the plugin sends, from this one place: the stream rates it asks for and the
        parameter reads that are due (never while suspended, recovering or without a vehicle)."""
        master = self._master
        if not self._active or self._recovering or master is None:
            return
        received = [sample.received_at for sample in (self._channels, self._status) if sample is not None]
        self._streams.request_if_needed(master, now, received)
        target_system, target_component = self._poll_target
        if target_system is not None:
            self._reads.send_due(master, target_system, target_component or 0, now)

    def _drop_queued_messages(self) -> bool:
        """Read and drop what is waiting now (ACKs still count); True once the queue ran dry.

        Bounded, so a huge backlog costs one UI tick at most; polls drop the rest.
        """
        master = self._master
        if master is None:
            return True
        for _index in range(MAX_MESSAGES_DROPPED_ON_RESUME):
            try:
                msg = master.recv_msg()
            except Exception as error:  # whatever the transport raises, it is the link's fault
                raise LinkError(error) from error
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

    def _message_routes(self) -> dict[str, Route]:
        """Message type -> where it goes; a type no part reads has no route.

        Every type the check reads of the vehicle (RC_CHANNELS, SYS_STATUS, and for the guided test
        HEARTBEAT, STATUSTEXT and PARAM_VALUE) is only collected while reading, by the list's own
        append (no Python call), and taken once the read ends, in the order it came: the sender is
        checked for the whole batch at once (`_take_vehicle_messages`).  COMMAND_ACK goes to the
        command tracker at once, which checks whom the answer is from and to.
        """
        collect = self._vehicle_messages.append
        routes: dict[str, Route] = dict.fromkeys(self._tracker.observers, collect)
        routes["RC_CHANNELS"] = collect
        routes["SYS_STATUS"] = collect
        routes["COMMAND_ACK"] = self._commands.handle_message
        return routes

    def _read_messages(self, now: float) -> None:
        self._messages_read = 0
        self._backlog = False
        master = self._master
        self._poll_target = (None, None)
        if master is None:
            self._carried = None
            self._link_error = _("Not connected to a flight controller.")
            self._invalidate_readings()
            return
        self._poll_now = now
        self._poll_target = selected_target(self._fc, master)
        # Nothing read now can have arrived before the last poll that emptied the queue.
        not_before = self._queue_emptied_at
        self._vehicle_messages.clear()
        routes = self._discard_routes if self._discarding else self._routes
        receive = master.recv_msg
        route_of = routes.get
        carried, self._carried = self._carried, None
        count = 0
        try:
            if carried is not None:
                count = 1
                route = route_of(carried.get_type())
                if route is not None:
                    route(carried)
            for index in range(count, MAX_MESSAGES_PER_POLL):
                try:
                    msg = receive()
                except Exception as error:  # whatever the transport raises, it is the link's fault
                    count = index
                    raise LinkError(error) from error
                if msg is None:
                    count = index
                    break
                # One lookup decides: a message no part reads costs nothing more.
                route = route_of(msg.get_type())
                if route is not None:
                    route(msg)
            else:
                count = MAX_MESSAGES_PER_POLL
            if count == MAX_MESSAGES_PER_POLL:
                # Read one more to learn whether more are waiting; keep it for the next poll.
                try:
                    self._carried = receive()
                except Exception as error:
                    raise LinkError(error) from error
                self._backlog = self._carried is not None
            if self._discarding and not self._backlog:
                # the queue ran dry: from the next poll on, every message is new
                self._discarding = False
        finally:
            self._messages_read = count
            # pymavlink reports a TCP peer's close only through this flag; reads then return
            # nothing for ever, which must not look like a quiet but live link.
            closed = getattr(master, "portdead", False) is True
            self._queue_emptied_at = None if self._backlog else now
        self._take_vehicle_messages(now, not_before, closed=closed)

    def _take_vehicle_messages(self, now: float, not_before: float | None, *, closed: bool) -> None:
        """The poll's messages of the selected vehicle, in the order they came: the receiver
        telemetry dated, fed to the guided test, every status recorded as evidence and the newest of
        each kept for display; the other types handed to the guided test."""
        # Without a timestamp (SYS_STATUS) a message is as recent as this poll only if the poll came
        # soon after one that emptied the queue and found no backlog itself; otherwise it is as old
        # as the RC_CHANNELS the vehicle sent before it, whose time_boot_ms maps the vehicle clock.
        recent = not_before is not None and now - not_before <= RECENT_POLL_GAP_S and not self._backlog
        map_clock = self._vehicle_clock.observe
        check = self._tracker
        observe_channels = check.observe_rc_channels
        note_failsafe = check.note_failsafe
        record = self._history.record
        vehicle_time = self._vehicle_clock.latest_send_time()
        newest_channels: tuple[Any, float] | None = None
        # The newest SYS_STATUS and the vehicle's time when it was read; dated once, at the end.
        newest_status: tuple[Any, float | None] | None = None
        # The failsafe the last SYS_STATUS of this batch said: a status that repeats it is no news.
        told: FailsafeStatus | None = None
        channels_count = 0
        status_count = 0
        observers = check.observers
        for msg in from_selected(self._vehicle_messages, *self._poll_target):
            kind = msg.get_type()
            if kind == "RC_CHANNELS":
                observe_channels(msg)
                time_boot_ms = msg.time_boot_ms
                if time_boot_ms > 0:  # 0 is what a sender that keeps no time leaves there
                    vehicle_time = map_clock(time_boot_ms, now)
                    sent_at = min(vehicle_time if not_before is None else max(vehicle_time, not_before), now)
                else:
                    sent_at = _dated(vehicle_time, not_before, now, recent)
                newest_channels = (msg, sent_at)
                channels_count += 1
            elif kind == "SYS_STATUS":
                failsafe = sys_status_failsafe(msg)
                if failsafe is not told:
                    told = failsafe
                    note_failsafe(failsafe)
                    # Every change counts as evidence, timed when the vehicle reported it, so a
                    # short failsafe between polls is not lost and a late one is not post-dated.
                    record(failsafe, _dated(vehicle_time, not_before, now, recent))
                newest_status = (msg, vehicle_time)
                status_count += 1
            else:
                observers[kind](msg, now)
        self._vehicle_messages.clear()
        self._channels_rate.add(now, channels_count)
        self._status_rate.add(now, status_count)
        if closed:
            self._carried = None
            self._link_error = _("The flight controller closed the connection.")
            self._invalidate_readings()
            return
        # Only the newest of each is shown: a sample for each would be work thrown away.
        if newest_channels is not None:
            self._channels = channels_sample(*newest_channels)
            self._link_error = None
        if newest_status is not None:
            msg, vehicle_time = newest_status
            self._status = status_sample(msg, _dated(vehicle_time, not_before, now, recent))
            self._link_error = None

    def _note_internal_error(self, error: BaseException, doing: str) -> None:
        """A fault of the check itself: logged with its traceback (once per kind) and shown as such."""
        key = (type(error).__name__, str(error))
        if key not in self._logged_errors and len(self._logged_errors) < MAX_LOGGED_INTERNAL_ERRORS:
            self._logged_errors.add(key)
            _logger.error("Internal error of the RC receiver check while %s", doing, exc_info=error)
        self._internal_error = describe_internal_error(error)

    # ----------------------------------------------------------------- snapshot

    def _safe_build_state(self, target: tuple[int | None, int | None] | None = None) -> RCReceiverState:
        """The snapshot now; ``target`` is the selected vehicle's ids when the caller has them."""
        try:
            return self._build_state(self._now(), target)
        except Exception as error:  # say what went wrong; nothing it might have got wrong is shown
            self._note_internal_error(error, "building the snapshot")
            return replace(
                _NO_READINGS,
                guided=self._state.guided,
                failsafe_observed=self._state.failsafe_observed,
                failsafe_observed_at=self._state.failsafe_observed_at,
                recovery_observed=self._state.recovery_observed,
                recovery_observed_at=self._state.recovery_observed_at,
                failsafe_transitions=self._state.failsafe_transitions,
                link_error=self._link_error,
                internal_error=self._internal_error,
                active=self._active,
                connected=self._master is not None,
                connection_generation=self._connection_number,
                test_started_at=self._state.test_started_at,
                now=self._state.now,
            )

    def _build_state(
        self, now: float, target: tuple[int | None, int | None] | None = None
    ) -> RCReceiverState:
        channels = self._channels
        status = self._status
        channels_age = max(0.0, now - channels.received_at) if channels is not None else None
        status_age = max(0.0, now - status.received_at) if status is not None else None
        channels_live = channels is not None and channels_age is not None and channels_age < STALE_AFTER_S
        status_live = status is not None and status_age is not None and status_age < STALE_AFTER_S
        live_channels = channels if channels_live else None
        live_status = status.status if status_live and status is not None else None
        history = self._history
        master = self._master
        requests = self._streams.statuses()
        if target is None:
            target = selected_target(self._fc, self._master) if self._master is not None else (None, None)
        failsafe = live_status.failsafe if live_status else FailsafeStatus.UNKNOWN
        rssi = live_channels.rssi if live_channels else None
        receiver_present = live_status.present if live_status else None
        guided = self._tracker.build(
            LiveReadings(
                now=now,
                connected=master is not None,
                telemetry_live=channels_live or status_live,
                rc_channels_live=channels_live,
                rssi=rssi,
                receiver_present=receiver_present,
                failsafe=failsafe,
                failsafe_observed=history.failsafe_observed,
                recovery_observed=history.recovery_observed,
                failsafe_transitions=history.transitions,
            ),
            target,
        )
        return RCReceiverState(
            channels=live_channels.channels if live_channels else _NO_CHANNELS,
            rssi=rssi,
            receiver_present=receiver_present,
            receiver_enabled=live_status.enabled if live_status else None,
            failsafe=failsafe,
            failsafe_observed=history.failsafe_observed,
            failsafe_observed_at=history.failsafe_observed_at,
            recovery_observed=history.recovery_observed,
            recovery_observed_at=history.recovery_observed_at,
            failsafe_transitions=history.transitions,
            link_error=self._link_error,
            internal_error=self._internal_error,
            link_kind=self._link_kind,
            # Counted by our own UDP links (the methodic configurator's have no such counts).
            foreign_datagrams=int_field(master, "foreign_datagrams") or 0,
            impostor_datagrams=int_field(master, "impostor_datagrams") or 0,
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
            connected=master is not None,
            connection_generation=self._connection_number,
            test_started_at=history.test_started_at,
            now=now,
            guided=guided,
        )
