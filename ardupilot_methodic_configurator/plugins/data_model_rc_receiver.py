# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Data model of the RC receiver check: reads the shared MAVLink connection and builds snapshots.

One poll goes one way: `LinkReader` reads a bounded batch (COMMAND_ACK to the command tracker, the
vehicle's RC_CHANNELS, SYS_STATUS, HEARTBEAT, STATUSTEXT and PARAM_VALUE collected); the batch of
the selected vehicle is dated and fed to the guided test's tracker; the tracker plans what it
wants read; `_send` (the one place that writes to the link) sends the due stream requests and
parameter reads; the live readings are made, the tracker builds the guided test from them, and
`RCReceiverState` is made once by its constructor.

The model is one state machine: activation, suspension, connection recovery and a new connection
each reset some of the same fields, and what each transition forgets keeps one test's evidence
out of another's.  Faults are kept apart: whatever the connection raises is the link's
(`LinkError`, shown as `link_error`), an exception from the check's own code an internal error
(logged once per kind, shown as `internal_error`).  Neither reaches the caller.

From the host's flight controller it uses only what the methodic configurator 5.0.1 offers:
`master` (the pymavlink connection, replaced by a new object on every reconnection, which is how
a new connection is recognised), `info.system_id` / `info.component_id` (strings, "" when
unknown) and ``fc_parameters`` (read by `rc_receiver.tracker`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from .. import _
from .rc_receiver.commands import CommandManager
from .rc_receiver.intake import VehicleIntake
from .rc_receiver.link_reader import LinkError, LinkReader, Route
from .rc_receiver.parameter_reads import ParameterReader
from .rc_receiver.prearm import PrearmChecks
from .rc_receiver.program_transmitter import StickMover, SwitchMover, TransmitterSwitch
from .rc_receiver.readings import (
    RCReceiverFlightController,
    from_selected,
    int_field,
    link_kind,
    selected_target,
)
from .rc_receiver.snapshot import (
    STALE_AFTER_S,
    FailsafeStatus,
    LiveReadings,
    RCReceiverState,
)
from .rc_receiver.streams import StreamRequests
from .rc_receiver.tracker import GuidedTestTracker
from .rc_receiver.wording import describe_internal_error, describe_transport_error

# Distinct internal errors logged with their traceback; a fault that repeats every poll is logged once.
MAX_LOGGED_INTERNAL_ERRORS = 20
_NO_READINGS = RCReceiverState()
_NO_CHANNELS = _NO_READINGS.channels
_logger = logging.getLogger(__name__)


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
        self._commands = CommandManager(clock=clock)
        self._prearm = PrearmChecks(self._commands)
        self._tracker = GuidedTestTracker(
            self._reads, self._prearm, flight_controller, local_filesystem, parameter_editor
        )
        # The connection object the current test belongs to.  Held strongly so that a new
        # connection can never reuse its identity.
        self._master: Any = self._fc.master
        self._link_kind = link_kind(self._master)
        self._connection_number = 0 if self._master is None else 1
        self._active = False
        self._suspended = False
        # While the host recovers a lost link, the plugin must not put a byte on the wire.
        self._recovering = False
        self._streams = StreamRequests(self._commands)
        self._intake = VehicleIntake(self._tracker, now)
        self._link_error: str | None = None
        # A fault of the check itself (a bug), kept apart from the link's faults.
        self._internal_error: str | None = None
        self._logged_errors: set[tuple[str, str]] = set()
        self._poll_target: tuple[int | None, int | None] = (None, None)
        # What one poll read of the types the check reads of the vehicle, taken once it has read.
        self._vehicle_messages: list[Any] = []
        self._reader = LinkReader(self._message_routes(), {"COMMAND_ACK": self._commands.handle_message})
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
        return self._reader.messages_read

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
            self._reader.forward_carried()
            # Nothing goes on the wire while the host recovers the link.
            if not self._recovering:
                current = self._fc.master
                self._streams.restore(current, selected_target(self._fc, current))
        except LinkError as fault:
            self._link_error = describe_transport_error(fault.error)
        except Exception as error:  # shutting down must never crash the caller
            self._note_internal_error(error, "deactivating")
        self._recovering = False
        # The streams are back at the firmware's default: neither the rates measured at 5 Hz nor
        # the requests' outcomes describe the link any more.
        self._streams.forget()
        self._intake.reset_rates()
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
        self._invalidate_readings()
        self._intake.reset_rates()
        self._tracker.resumed()
        try:
            self._reader.resume(self._master)
        except LinkError as fault:
            self._link_error = describe_transport_error(fault.error)
        except Exception as error:  # resuming must never crash the host
            self._note_internal_error(error, "resuming")
        self._state = self._safe_build_state()

    def reset_test(self) -> None:
        """Start a fresh failsafe test: forget the evidence gathered so far."""
        self._intake.history.restart(self._now())
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

    def set_switch_mover(self, mover: SwitchMover | None) -> None:
        """Let the switch step move a program-owned transmitter's mode and aux switches; ``None``
        asks a person."""
        self._tracker.set_switch_mover(mover)
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
        self._reader.forget()
        self._streams.forget()
        self._link_error = None
        self._invalidate_readings()
        self._intake.new_connection(now)
        self._tracker.connection_changed()

    def _send(self, now: float) -> None:
        """Everything the plugin sends, from this one place: the stream rates it asks for, the
        parameter reads and the requests for ArduPilot's pre-arm checks that are due (never while
        suspended, recovering or without a vehicle)."""
        master = self._master
        if not self._active or self._recovering or master is None:
            return
        received = [sample.received_at for sample in (self._intake.channels, self._intake.status) if sample]
        self._streams.request_if_needed(master, self._poll_target, now, received)
        target_system, target_component = self._poll_target
        if target_system is not None:
            self._reads.send_due(master, target_system, target_component or 0, now)
            self._prearm.send_due(master, target_system, target_component or 0, now)

    def _invalidate_readings(self) -> None:
        self._intake.invalidate()
        self._reader.clear_backlog()

    # ----------------------------------------------------------------- reading

    def _message_routes(self) -> dict[str, Route]:
        """Message type -> where it goes; a type no part reads has no route.

        Every type the check reads of the vehicle (RC_CHANNELS, SYS_STATUS, and for the guided test
        HEARTBEAT, STATUSTEXT and PARAM_VALUE) is only collected while reading, by the list's own
        append (no Python call), and taken once the read ends, in the order it came: the sender is
        checked for the whole batch at once (`VehicleIntake.take`).  Taking each as it is read
        interleaves the check's code with pymavlink's for every message, which measured 3-5 %
        slower.  COMMAND_ACK goes to the command tracker at once, which checks whom the answer is
        from and to.
        """
        collect = self._vehicle_messages.append
        routes: dict[str, Route] = dict.fromkeys(self._tracker.observers, collect)
        routes["RC_CHANNELS"] = collect
        routes["SYS_STATUS"] = collect
        routes["COMMAND_ACK"] = self._commands.handle_message
        return routes

    def _read_messages(self, now: float) -> None:
        master = self._master
        self._poll_target = (None, None)
        if master is None:
            self._reader.forget()
            self._link_error = _("Not connected to a flight controller.")
            self._invalidate_readings()
            return
        self._poll_target = selected_target(self._fc, master)
        self._vehicle_messages.clear()
        # Nothing read now can have arrived before the last read that emptied the queue, if any.
        not_before = self._reader.queue_emptied_at
        try:
            closed = self._reader.read(master, now)
        except LinkError:
            # What was read before the fault is kept as evidence; the readings go (the caller).
            self._take_read(now, not_before, backlog=True, closed=True)
            raise
        if self._take_read(now, not_before, backlog=self._reader.backlog, closed=closed):
            self._link_error = None
        if closed:
            self._reader.drop_carried()
            self._link_error = _("The flight controller closed the connection.")
            self._invalidate_readings()

    def _take_read(self, now: float, not_before: float | None, *, backlog: bool, closed: bool) -> bool:
        """Hand the selected vehicle's messages of this read to the intake; True if a receiver
        stream delivered on a link still open."""
        messages = from_selected(self._vehicle_messages, *self._poll_target)
        self._vehicle_messages.clear()
        return self._intake.take(messages, now, not_before, backlog=backlog, closed=closed)

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
        channels = self._intake.channels
        status = self._intake.status
        channels_age = max(0.0, now - channels.received_at) if channels is not None else None
        status_age = max(0.0, now - status.received_at) if status is not None else None
        channels_live = channels is not None and channels_age is not None and channels_age < STALE_AFTER_S
        status_live = status is not None and status_age is not None and status_age < STALE_AFTER_S
        live_channels = channels if channels_live else None
        live_status = status.status if status_live and status is not None else None
        history = self._intake.history
        failsafe_observed = history.failsafe_observed
        recovery_observed = history.recovery_observed
        transitions = history.transitions
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
                failsafe_observed=failsafe_observed,
                recovery_observed=recovery_observed,
                failsafe_transitions=transitions,
            ),
            target,
        )
        return RCReceiverState(
            channels=live_channels.channels if live_channels else _NO_CHANNELS,
            rssi=rssi,
            receiver_present=receiver_present,
            receiver_enabled=live_status.enabled if live_status else None,
            failsafe=failsafe,
            failsafe_observed=failsafe_observed,
            failsafe_observed_at=history.failsafe_observed_at,
            recovery_observed=recovery_observed,
            recovery_observed_at=history.recovery_observed_at,
            failsafe_transitions=transitions,
            link_error=self._link_error,
            internal_error=self._internal_error,
            link_kind=self._link_kind,
            # Counted by our own UDP links (the methodic configurator's have no such counts).
            foreign_datagrams=int_field(master, "foreign_datagrams") or 0,
            impostor_datagrams=int_field(master, "impostor_datagrams") or 0,
            backlog=self._reader.backlog,
            rc_channels_rate_hz=self._intake.channels_rate.rate_hz(now),
            sys_status_rate_hz=self._intake.status_rate.rate_hz(now),
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
