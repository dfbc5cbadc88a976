# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Tk view of the RC receiver check, plus the plugin factories that plug it into the configurator.

The view is built once and then only *updated*: ``render()`` compares each group of snapshot
fields with the last snapshot it drew, and every widget remembers the value it shows, so a tick in
which nothing visible changed touches no widget at all.  One ``after()`` timer drives polling; it
exists only while the view is active and not suspended, and is cancelled on every way out.  The
view depends on ``RCReceiverModelLike`` (a Protocol) rather than on the concrete data model.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable
from tkinter import ttk
from typing import TYPE_CHECKING, Protocol

from .. import _
from .plugin_constants import PLUGIN_RC_RECEIVER
from .plugin_factory import plugin_factory
from .plugin_protocol import PluginPauseReason
from .rc_receiver_scrollable import ScrollableFrame, match_theme_background
from .rc_receiver_state import (
    CHANNEL_COUNT,
    FIRST_CHANNEL,
    PWM_BAR_MAX_US,
    PWM_BAR_MIN_US,
    RSSI_MAX,
    FailsafeStatus,
    IntervalRequestOutcome,
    IntervalRequestStatus,
    RCReceiverState,
)
from .rc_receiver_tick_timer import TickTimer

if TYPE_CHECKING:
    from .data_model_rc_receiver import RCReceiverDataModel
    from .plugin_factory import PluginModelContext

DEFAULT_TICK_MS = 100
# Shown in the expiry notice; the model owns the actual timeout.
STALE_AFTER_S = 3

COLOUR_GOOD = "#2e7d32"
COLOUR_BAD = "#c62828"
COLOUR_ATTENTION = "#ef6c00"
COLOUR_UNKNOWN = "#9e9e9e"

_LAMP_DIAMETER = 14
_BAR_LENGTH = 280
_WRAP_LENGTH = 520
_STREAMS = ("RC_CHANNELS", "SYS_STATUS")


class RCReceiverModelLike(Protocol):
    """What the view needs from a receiver data model."""

    @property
    def state(self) -> RCReceiverState: ...

    def poll(self) -> RCReceiverState: ...

    def activate(self) -> object: ...

    def deactivate(self) -> object: ...

    def reset_test(self) -> object: ...

    def suspend(self, *, connection_recovery: bool = False) -> object: ...

    def resume(self) -> object: ...


class _Lamp:
    """A coloured circle beside a title and a value text, so state never relies on colour alone."""

    def __init__(self, parent: tk.Misc, title: str, row: int) -> None:
        self.canvas = tk.Canvas(
            parent, width=_LAMP_DIAMETER + 2, height=_LAMP_DIAMETER + 2, highlightthickness=0, borderwidth=0
        )
        match_theme_background(self.canvas)
        self.oval = self.canvas.create_oval(
            1, 1, _LAMP_DIAMETER, _LAMP_DIAMETER, fill=COLOUR_UNKNOWN, outline="#616161"
        )
        self.title = ttk.Label(parent, text=title)
        self.value = ttk.Label(parent, text=_("unknown"))
        self.canvas.grid(row=row, column=0, padx=(0, 6), pady=2, sticky=tk.W)
        self.title.grid(row=row, column=1, pady=2, sticky=tk.W)
        self.value.grid(row=row, column=2, padx=(8, 0), pady=2, sticky=tk.W)

    @property
    def colour(self) -> str:
        return str(self.canvas.itemcget(self.oval, "fill"))  # type: ignore[no-untyped-call]

    @property
    def text(self) -> str:
        return str(self.value.cget("text"))


class _BarRow:
    """A name, a bar and the reading as text."""

    def __init__(self, parent: tk.Misc, name: str, maximum: float, row: int) -> None:
        self.name = ttk.Label(parent, text=name, width=14)
        self.bar = ttk.Progressbar(parent, orient=tk.HORIZONTAL, length=_BAR_LENGTH, maximum=maximum, value=0)
        self.value = ttk.Label(parent, text=_("Unavailable"), width=18)
        self.name.grid(row=row, column=0, pady=2, sticky=tk.W)
        self.bar.grid(row=row, column=1, padx=6, pady=2, sticky=tk.EW)
        self.value.grid(row=row, column=2, pady=2, sticky=tk.W)

    @property
    def text(self) -> str:
        return str(self.value.cget("text"))

    @property
    def bar_value(self) -> float:
        return float(self.bar.cget("value"))


class _StreamRow:
    """Measured rate of one message stream and the fate of its interval request."""

    def __init__(self, parent: tk.Misc, message_name: str, row: int) -> None:
        self.message_name = message_name
        self.name = ttk.Label(parent, text=message_name, width=14)
        self.rate = ttk.Label(parent, text=_("{rate:.1f} Hz").format(rate=0.0), width=10)
        self.request = ttk.Label(parent, text=_("interval not requested"))
        self.name.grid(row=row, column=0, pady=1, sticky=tk.W)
        self.rate.grid(row=row, column=1, padx=6, pady=1, sticky=tk.W)
        self.request.grid(row=row, column=2, pady=1, sticky=tk.W)


def _guidance_text() -> str:
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


def _interval_text(interval_us: int) -> str:
    if interval_us > 0:
        return _("{rate:.1f} Hz").format(rate=1_000_000 / interval_us)
    if interval_us == 0:
        return _("default rate")
    return _("off")


def _request_text(request: IntervalRequestStatus | None) -> str:
    if request is None or request.outcome is IntervalRequestOutcome.NOT_REQUESTED:
        return _("interval not requested")
    rate = _interval_text(request.interval_us)
    outcome = request.outcome
    if outcome is IntervalRequestOutcome.PENDING:
        return _("interval request ({rate}): pending").format(rate=rate)
    if outcome is IntervalRequestOutcome.ACCEPTED:
        return _("interval request ({rate}): accepted").format(rate=rate)
    if outcome is IntervalRequestOutcome.REJECTED:
        return _("interval request ({rate}): rejected: {reason}").format(
            rate=rate, reason=request.reason or _("no reason given")
        )
    if outcome is IntervalRequestOutcome.NO_ANSWER:
        return _("interval request ({rate}): no answer").format(rate=rate)
    return _("interval request ({rate}): send failed: {reason}").format(
        rate=rate, reason=request.reason or _("no reason given")
    )


def _relative_time_text(observed: bool, at: float | None, test_started_at: float) -> str:
    if not observed:
        return _("not yet")
    if at is None:
        return _("yes")
    return _("yes, at {seconds:.1f} s").format(seconds=max(0.0, at - test_started_at))


class RCReceiverView(ttk.Frame):
    """Channel bars, RSSI, receiver lamps, stream rates, notices and guidance for the receiver check."""

    def __init__(
        self, parent: tk.Misc, model: RCReceiverModelLike, *, tick_ms: int = DEFAULT_TICK_MS
    ) -> None:
        super().__init__(parent)
        self._model = model
        self._timer = TickTimer(self, tick_ms, self._tick)
        self._destroyed = False
        self._model_error: str | None = None
        self._last_state: RCReceiverState | None = None
        self._last_notice_key: tuple[object, ...] | None = None
        # The value each widget shows, so an unchanged value never reaches Tk.
        self._shown: dict[tuple[tk.Misc, str], object] = {}
        # Counts configure calls that reached Tk; lets tests and benchmarks see idle renders are free.
        self.widget_updates = 0

        self._scroll = ScrollableFrame(self)
        self._scroll.pack(fill=tk.BOTH, expand=True)
        body = self._scroll.interior
        body.columnconfigure(0, weight=1)

        ttk.Label(body, text=_("RC receiver check"), font=("TkDefaultFont", 12, "bold")).grid(
            row=0, column=0, padx=8, pady=(8, 4), sticky=tk.W
        )

        channels = ttk.LabelFrame(body, text=_("Channels"))
        channels.grid(row=1, column=0, padx=8, pady=4, sticky=tk.EW)
        channels.columnconfigure(1, weight=1)
        self.channel_rows = tuple(
            _BarRow(channels, _("CH{number}").format(number=number), PWM_BAR_MAX_US - PWM_BAR_MIN_US, row)
            for row, number in enumerate(range(FIRST_CHANNEL, FIRST_CHANNEL + CHANNEL_COUNT))
        )
        self.rssi_row = _BarRow(channels, _("Receiver RSSI"), RSSI_MAX, CHANNEL_COUNT)

        status = ttk.LabelFrame(body, text=_("Receiver status"))
        status.grid(row=2, column=0, padx=8, pady=4, sticky=tk.EW)
        self.present_lamp = _Lamp(status, _("Receiver seen by the flight controller:"), 0)
        self.failsafe_lamp = _Lamp(status, _("RC failsafe:"), 1)
        self.failsafe_observed_lamp = _Lamp(status, _("Failsafe observed during this test:"), 2)
        self.recovery_lamp = _Lamp(status, _("Recovery observed:"), 3)
        self.reset_button = ttk.Button(status, text=_("Start a new test"), command=self._on_reset)
        self.reset_button.grid(row=4, column=0, columnspan=3, pady=(6, 4), sticky=tk.W)

        streams = ttk.LabelFrame(body, text=_("Telemetry streams"))
        streams.grid(row=3, column=0, padx=8, pady=4, sticky=tk.EW)
        self.stream_rows = {name: _StreamRow(streams, name, row) for row, name in enumerate(_STREAMS)}

        self.notice = ttk.Label(body, text="", wraplength=_WRAP_LENGTH, justify=tk.LEFT)
        self.notice.grid(row=4, column=0, padx=8, pady=4, sticky=tk.W)

        guidance = ttk.LabelFrame(body, text=_("How to check the receiver"))
        guidance.grid(row=5, column=0, padx=8, pady=(4, 8), sticky=tk.EW)
        self.guidance = ttk.Label(guidance, text=_guidance_text(), wraplength=_WRAP_LENGTH, justify=tk.LEFT)
        self.guidance.pack(padx=6, pady=6, anchor=tk.W)

    # ----------------------------------------------------------------- lifecycle

    @property
    def active(self) -> bool:
        return self._timer.active

    @property
    def suspended(self) -> bool:
        return self._timer.suspended

    @property
    def timer_id(self) -> str | None:
        """The pending ``after()`` id, or ``None`` when no tick is scheduled."""
        return self._timer.timer_id

    def on_activate(self) -> None:
        """Start the model and the polling timer; calling it again changes nothing."""
        if self._destroyed:
            return
        if not self._timer.active:
            self._guard(self._model.activate)
            self._guard(lambda: self.render(self._model.state))
        self._timer.start()

    def on_deactivate(self) -> None:
        """Stop polling and hand the receiver streams back to the model's owner."""
        was_active = self._timer.active
        self._timer.stop()
        if was_active:
            self._guard(self._model.deactivate)

    def on_suspend(self, reason: PluginPauseReason = PluginPauseReason.EXCLUSIVE_OPERATION) -> None:
        """Yield the connection to the host (an upload, a file browser, a link recovery).

        Nothing is reset.  During ``CONNECTION_RECOVERY`` the plugin sends nothing at all.
        """
        if self._destroyed:
            return
        self._timer.suspend()
        recovering = reason is PluginPauseReason.CONNECTION_RECOVERY
        self._guard(lambda: self._model.suspend(connection_recovery=recovering))

    def on_resume(self) -> None:
        """Continue after ``on_suspend()``: what queued meanwhile is dropped, the evidence kept."""
        if self._destroyed:
            return
        if self._timer.active:
            self._guard(self._model.resume)
            self._guard(lambda: self.render(self._model.state))
        self._timer.resume()

    def destroy(self) -> None:
        was_active = self._timer.active
        self._timer.close()
        if was_active:
            self._guard(self._model.deactivate)
        self._destroyed = True
        super().destroy()

    def _tick(self) -> None:
        # The timer calls back only while active, not suspended and not destroyed; it re-arms itself.
        if self._guard(self._poll_and_render):
            self._set_model_error(None)

    def _poll_and_render(self) -> None:
        self.render(self._model.poll())

    def _on_reset(self) -> None:
        if self._guard(self._model.reset_test):
            self._set_model_error(None)
            self._guard(lambda: self.render(self._model.state))

    def _guard(self, action: Callable[[], object]) -> bool:
        """Run ``action``; a failure goes to the notice area instead of into Tk's event loop."""
        try:
            action()
        except Exception as error:  # a model fault must never break the UI loop
            self._set_model_error(str(error) or type(error).__name__)
            return False
        return True

    def _set_model_error(self, message: str | None) -> None:
        if message == self._model_error:
            return
        self._model_error = message
        if self._last_state is not None:
            self._render_notice(self._last_state)
        elif message is not None:
            self._render_notice(RCReceiverState())

    # ----------------------------------------------------------------- rendering

    def render(self, state: RCReceiverState) -> None:
        """Show ``state``, touching only the widgets whose value differs from what they show."""
        last = self._last_state
        if state is last or self._destroyed:
            return
        if last is None or state.channels != last.channels:
            self._render_channels(state)
        if last is None or state.rssi != last.rssi:
            self._render_rssi(state.rssi)
        if last is None or state.receiver_present != last.receiver_present:
            self._render_present(state.receiver_present)
        if last is None or state.failsafe != last.failsafe:
            self._render_failsafe(state.failsafe)
        if (
            last is None
            or state.failsafe_observed != last.failsafe_observed
            or state.failsafe_observed_at != last.failsafe_observed_at
            or state.recovery_observed != last.recovery_observed
            or state.recovery_observed_at != last.recovery_observed_at
            or state.test_started_at != last.test_started_at
        ):
            self._render_history(state)
        if (
            last is None
            or state.rc_channels_rate_hz != last.rc_channels_rate_hz
            or state.sys_status_rate_hz != last.sys_status_rate_hz
            or state.interval_requests != last.interval_requests
        ):
            self._render_streams(state)
        self._render_notice(state)
        self._last_state = state

    def _render_channels(self, state: RCReceiverState) -> None:
        pwm_by_number = {reading.number: reading.pwm for reading in state.channels}
        span = PWM_BAR_MAX_US - PWM_BAR_MIN_US
        for number, row in enumerate(self.channel_rows, start=FIRST_CHANNEL):
            pwm = pwm_by_number.get(number)
            if pwm is None:
                self._set_bar(row, 0.0, _("Unavailable"))
            else:
                # The bar is clamped to its range; the text keeps the real reading.
                self._set_bar(
                    row, float(min(max(pwm - PWM_BAR_MIN_US, 0), span)), _("{pwm} µs").format(pwm=pwm)
                )

    def _render_rssi(self, rssi: int | None) -> None:
        if rssi is None or rssi < 0 or rssi > RSSI_MAX:
            self._set_bar(self.rssi_row, 0.0, _("Unavailable"))
        else:
            self._set_bar(
                self.rssi_row, float(rssi), _("RSSI {rssi} / {maximum}").format(rssi=rssi, maximum=RSSI_MAX)
            )

    def _render_present(self, present: bool | None) -> None:
        if present is None:
            self._set_lamp(self.present_lamp, COLOUR_UNKNOWN, _("unknown"))
        elif present:
            self._set_lamp(self.present_lamp, COLOUR_GOOD, _("yes"))
        else:
            self._set_lamp(self.present_lamp, COLOUR_BAD, _("no"))

    def _render_failsafe(self, failsafe: FailsafeStatus) -> None:
        if failsafe is FailsafeStatus.ACTIVE:
            self._set_lamp(self.failsafe_lamp, COLOUR_BAD, _("active"))
        elif failsafe is FailsafeStatus.NOT_ACTIVE:
            self._set_lamp(self.failsafe_lamp, COLOUR_GOOD, _("not active"))
        else:
            self._set_lamp(self.failsafe_lamp, COLOUR_UNKNOWN, _("unknown"))

    def _render_history(self, state: RCReceiverState) -> None:
        started = state.test_started_at
        self._set_lamp(
            self.failsafe_observed_lamp,
            COLOUR_ATTENTION if state.failsafe_observed else COLOUR_UNKNOWN,
            _relative_time_text(state.failsafe_observed, state.failsafe_observed_at, started),
        )
        self._set_lamp(
            self.recovery_lamp,
            COLOUR_GOOD if state.recovery_observed else COLOUR_UNKNOWN,
            _relative_time_text(state.recovery_observed, state.recovery_observed_at, started),
        )

    def _render_streams(self, state: RCReceiverState) -> None:
        requests = {request.message_name: request for request in state.interval_requests}
        rates = {"RC_CHANNELS": state.rc_channels_rate_hz, "SYS_STATUS": state.sys_status_rate_hz}
        for name, row in self.stream_rows.items():
            self._set_text(row.rate, _("{rate:.1f} Hz").format(rate=rates[name]))
            self._set_text(row.request, _request_text(requests.get(name)))

    def _render_notice(self, state: RCReceiverState) -> None:
        # A stream "expired" once it was seen and then fell silent; "waiting" if never seen.
        rc_expired = not state.rc_channels_live and state.rc_channels_age_s is not None
        sys_expired = not state.sys_status_live and state.sys_status_age_s is not None
        rc_waiting = not state.rc_channels_live and state.rc_channels_age_s is None
        sys_waiting = not state.sys_status_live and state.sys_status_age_s is None
        key = (
            self._model_error,
            state.link_error,
            state.connected,
            state.backlog,
            rc_expired,
            sys_expired,
            rc_waiting,
            sys_waiting,
        )
        if key == self._last_notice_key:
            return
        self._last_notice_key = key
        lines, problem = self._notice_lines(state, rc_expired, sys_expired, rc_waiting, sys_waiting)
        self._set_text(self.notice, "\n".join(lines))
        self._set_option(self.notice, "foreground", COLOUR_BAD if problem else "")

    def _notice_lines(
        self, state: RCReceiverState, rc_expired: bool, sys_expired: bool, rc_waiting: bool, sys_waiting: bool
    ) -> tuple[list[str], bool]:
        lines: list[str] = []
        if self._model_error is not None:
            lines.append(
                _("The receiver check could not read the flight controller: {error}").format(
                    error=self._model_error
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
                    _("No telemetry for {seconds} s — readings cleared.").format(seconds=STALE_AFTER_S)
                )
            elif rc_expired:
                lines.append(
                    _("No RC_CHANNELS for {seconds} s — channel and RSSI readings cleared.").format(
                        seconds=STALE_AFTER_S
                    )
                )
            elif sys_expired:
                lines.append(
                    _("No SYS_STATUS for {seconds} s — receiver status is unknown.").format(
                        seconds=STALE_AFTER_S
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

    # ----------------------------------------------------------------- cached widget writes

    def _set_option(self, widget: tk.Misc, option: str, value: object) -> bool:
        key = (widget, option)
        if self._shown.get(key, _UNSET) == value:
            return False
        self._shown[key] = value
        widget.configure({option: value})
        self.widget_updates += 1
        return True

    def _set_text(self, widget: tk.Misc, text: str) -> None:
        self._set_option(widget, "text", text)

    def _set_bar(self, row: _BarRow, value: float, text: str) -> None:
        self._set_option(row.bar, "value", value)
        self._set_text(row.value, text)

    def _set_lamp(self, lamp: _Lamp, colour: str, text: str) -> None:
        key = (lamp.canvas, "fill")
        if self._shown.get(key, _UNSET) != colour:
            self._shown[key] = colour
            lamp.canvas.itemconfigure(lamp.oval, fill=colour)
            self.widget_updates += 1
        self._set_text(lamp.value, text)


_UNSET = object()


# --------------------------------------------------------------------- plugin factories


def _create_rc_receiver_view(
    parent: tk.Misc, model: RCReceiverModelLike, base_window: object | None = None
) -> RCReceiverView:
    """View factory for ``plugin_factory.register``; ``base_window`` is accepted for the shared signature."""
    del base_window
    return RCReceiverView(parent, model)


def _create_rc_receiver_model(context: PluginModelContext) -> RCReceiverDataModel:
    """Model factory for ``plugin_factory.register``.

    The flight controller is required; the host's file services (the step's parameter file and
    the vehicle directory for reports) are used where the host has them.
    """
    from .data_model_rc_receiver import (  # noqa: PLC0415
        RCReceiverDataModel,
    )

    if context.flight_controller is None:
        # The plugin registers as needing a flight controller, so a host never gets here.
        raise ValueError(_("The RC receiver check needs a connected flight controller."))
    return RCReceiverDataModel(
        context.flight_controller,
        local_filesystem=context.local_filesystem,
        parameter_editor=context.parameter_editor,
    )


def register_rc_receiver_plugin() -> None:
    """Register the receiver check's view and model factories under ``PLUGIN_RC_RECEIVER``."""
    plugin_factory.register(PLUGIN_RC_RECEIVER, _create_rc_receiver_view, _create_rc_receiver_model)
