# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Tk view of the RC receiver check, plus the plugin factories that plug it into the configurator.

The methodic configurator 5.0.1 loads the plugin by this module's name, so `RCReceiverView`, its
factories and the registration live here; the view's panels are `rc_receiver_tk`'s (the channels
and status in `readings_panels`, the details in `details_panel`, the guided test in `widgets`,
"Save report…" in `report_dialogs`), their words `rc_receiver.wording`'s.

The view is built once and then only *updated*: ``render()`` compares each group of snapshot
fields with the last snapshot it drew, and every widget's value goes through one `ShownValues`,
so a tick in which nothing visible changed touches no widget at all.  One ``after()`` timer drives
polling; it exists only while the view is active and not suspended, and is cancelled on every way
out.  The view depends on ``RCReceiverModelLike`` (a Protocol) rather than on the concrete data
model.

The view is laid out for a 1280x720 screen and for German: the verdict on one line (a link
problem, when there is one, right under it), then the channels, the guided test and the receiver
status, which must be in view unscrolled; the details follow below, or beside them once the view
is wide enough for a second column (``_arrange``).  It scrolls in the host's ``ScrollFrame``
(5.0.1's inside the methodic configurator, our twin outside it) and its buttons carry the host's
tooltips (``show_tooltip``); the keyboard is `tk_kit.keys`.
"""

from __future__ import annotations

import logging
import tkinter as tk
from collections.abc import Callable
from pathlib import Path
from tkinter import ttk
from typing import TYPE_CHECKING, Protocol

from ..frontend_tkinter_scroll_frame import ScrollFrame
from .plugin_constants import PLUGIN_RC_RECEIVER
from .plugin_factory import plugin_factory
from .plugin_protocol import PluginPauseReason
from .rc_receiver.snapshot import RCReceiverState
from .rc_receiver.wording import describe_internal_error, notice_lines, rssi_is_link_quality, stream_freshness
from .rc_receiver.wording.tk_view import view_label
from .rc_receiver_tk import report_dialogs
from .rc_receiver_tk.channel_table import ExtraChannelsTable
from .rc_receiver_tk.details_panel import PAD, DetailsPanel
from .rc_receiver_tk.readings_panels import COLOUR_BAD, COLOUR_GOOD, ChannelsPanel, StatusPanel
from .rc_receiver_tk.shown import ShownValues
from .rc_receiver_tk.widgets import COLOUR_UNKNOWN, GuidePanel, VerdictBanner, show_when_set
from .tk_kit.keys import BUTTON_STYLE, ViewKeys
from .tk_kit.scrolling import follow_width, scroll_into_view
from .tk_kit.text import WrapFollower
from .tk_kit.ticks import TickTimer

if TYPE_CHECKING:
    from .data_model_rc_receiver import RCReceiverDataModel
    from .plugin_factory import PluginModelContext

__all__ = ["COLOUR_BAD", "COLOUR_GOOD", "COLOUR_UNKNOWN", "RCReceiverView", "register_rc_receiver_plugin"]

DEFAULT_TICK_MS = 100
# Distinct faults of the view logged with their traceback; one that repeats every tick is logged once.
MAX_LOGGED_VIEW_ERRORS = 20
_logger = logging.getLogger(__name__)

# What the notice wraps at before it is laid out; then it follows its width.
_WRAP_LENGTH = 520
# Below the readings: the channels beyond CH5 (out of the way of the readings that must be in view
# on a 1280x720 screen), then the details' own row when they are underneath.
_EXTRA_CHANNELS_ROW = 6
_SPARE_ROW = 7
# The rows of the readings: the notice of link problems, the channels, the guided test, the status.
_NOTICE_ROW, _CHANNELS_ROW, _GUIDE_ROW, _STATUS_ROW = 2, 3, 4, 5


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

    def confirm_transmitter(self, on: bool) -> object: ...

    def skip_stick(self) -> object: ...


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
        self._logged_errors: set[tuple[str, str]] = set()
        self._last_state: RCReceiverState | None = None
        # The host said in its own words that the link went away (the standalone window follows
        # its links); the notice leaves that event to it until the next connection.
        self._link_told_by_host = False
        self._last_notice_key: tuple[object, ...] | None = None
        # The value each widget shows, so an unchanged value never reaches Tk.
        self._shown = ShownValues()

        self._keys = ViewKeys(self)
        self._scroll = ScrollFrame(self)
        self._scroll.pack(fill=tk.BOTH, expand=True)
        body = self._scroll.view_port
        self._body = body
        body.columnconfigure(0, weight=1)

        # Read top to bottom: the answer, the readings and the test a person works through; the
        # findings, streams, messages and guidance follow (beside them when there is room).
        self._title = ttk.Label(body, text=view_label("title"), font=("TkDefaultFont", 12, "bold"))
        self._title.grid(row=0, column=0, padx=PAD, pady=(2, 0), sticky=tk.W)
        # The verdict comes first: it is the answer the whole step exists for.
        self.banner = VerdictBanner(body)
        self.banner.frame.grid(row=1, column=0, padx=PAD, pady=2, sticky=tk.EW)
        # Right under the verdict: a link that closed or telemetry that stopped explains the rest.
        # It takes no room while all is well.
        self.notice = ttk.Label(body, text="", justify=tk.LEFT)
        self.notice.grid(row=_NOTICE_ROW, column=0, padx=PAD, pady=(0, 2), sticky=tk.W)
        self._notice_wrap = WrapFollower(body, width=_WRAP_LENGTH, margin=2 * PAD)
        self._notice_wrap.add(self.notice)

        self._channels = ChannelsPanel(body, self._shown)
        self._channels.frame.grid(row=_CHANNELS_ROW, column=0, padx=PAD, pady=2, sticky=tk.EW)
        self.channel_rows = self._channels.channel_rows
        self.rssi_row = self._channels.rssi_row
        self.roles = self._channels.roles

        self.guide = GuidePanel(
            body,
            on_off=lambda: self._confirm_transmitter(False),
            on_on=lambda: self._confirm_transmitter(True),
            on_save=self._on_save_report,
            on_skip=self._skip_stick,
            keys=self._keys,
        )
        self.guide.frame.grid(row=_GUIDE_ROW, column=0, padx=PAD, pady=2, sticky=tk.EW)
        self.guide.save_button.configure(style=BUTTON_STYLE)

        self._status = StatusPanel(body, self._shown, keys=self._keys, on_reset=self._on_reset)
        self._status.frame.grid(row=_STATUS_ROW, column=0, padx=PAD, pady=2, sticky=tk.EW)
        self.present_lamp = self._status.present_lamp
        self.failsafe_lamp = self._status.failsafe_lamp
        self.failsafe_observed_lamp = self._status.failsafe_observed_lamp
        self.recovery_lamp = self._status.recovery_lamp
        self.protocol_value = self._status.protocol_value
        self.reset_button = self._status.reset_button
        self._essentials = (self.banner.frame, self._channels.frame, self.guide.frame, self._status.frame)

        self.extra_channels = ExtraChannelsTable(body, self._shown)
        self.extra_channels.frame.grid(row=_EXTRA_CHANNELS_ROW, column=0, padx=PAD, pady=2, sticky=tk.EW)
        self.extra_channels.frame.grid_remove()

        self._details = DetailsPanel(body, self._shown)
        self._details.frame.grid(row=_SPARE_ROW, column=0, sticky=tk.NSEW)
        self.findings = self._details.findings
        self.stream_rows = self._details.stream_rows
        self.radio_messages = self._details.radio_messages
        self.guidance = self._details.guidance
        self._two_columns = False
        follow_width(self._scroll, self._arrange)
        # Tab walks the buttons in reading order; the focused one is scrolled into view.
        self._keys.follow_focus(lambda widget: scroll_into_view(self._scroll, widget))
        self._keys.attach()
        # Where "Save report…" asks for a file when the host has no vehicle directory.
        self.ask_report_path: Callable[[], str] = lambda: report_dialogs.ask_report_path(self)
        self.confirm_replace: Callable[[tuple[Path, ...]], bool] = lambda files: (
            report_dialogs.confirm_replace(self, files)
        )

    # ----------------------------------------------------------------- layout

    @property
    def two_columns(self) -> bool:
        """Whether the findings, streams, messages and guidance stand beside the readings."""
        return self._two_columns

    @property
    def scrolling(self) -> ScrollFrame:
        """The host's scroll frame the view scrolls in (its canvas shows what is in view)."""
        return self._scroll

    @property
    def tooltips(self) -> dict[str, object]:
        """The host's tooltip of each button that has one, by the button's wording name."""
        tips: dict[str, object] = {str(name): tip for name, tip in self.guide.tooltips.items()}
        tips["reset"] = self._status.reset_tooltip
        return tips

    @property
    def widget_updates(self) -> int:
        """Writes that reached Tk: lets tests and benchmarks see that idle renders are free."""
        return self._shown.updates

    @property
    def access_keys(self) -> dict[str, ttk.Button]:
        """Which key presses which button (lower and upper case)."""
        return self._keys.keys

    def two_column_width(self) -> int:
        """The width from which the view puts its findings beside its readings (scroll bar included):
        a host with room to spare gives the view this much."""
        return self._readings_width() + self._details.min_width + self._scroll.vsb.winfo_reqwidth()

    def _readings_width(self) -> int:
        return max(frame.winfo_reqwidth() for frame in self._essentials) + 2 * PAD

    def _arrange(self, width: int) -> None:
        two = width >= self._readings_width() + self._details.min_width
        if two == self._two_columns:
            return
        self._two_columns = two
        body = self._body
        body.columnconfigure(0, weight=0 if two else 1)
        body.columnconfigure(1, weight=1 if two else 0)
        # Beside the readings, the details span their rows and one empty row below them, which
        # takes whatever height the details need beyond the readings' (not the readings' rows).
        body.rowconfigure(_SPARE_ROW, weight=1 if two else 0)
        span = 2 if two else 1
        for widget in (self._title, self.banner.frame, self.notice):
            widget.grid_configure(columnspan=span)
        if two:
            self._details.frame.grid_configure(
                row=_CHANNELS_ROW, column=1, rowspan=_SPARE_ROW - _CHANNELS_ROW + 1, sticky="new"
            )
        else:
            self._details.frame.grid_configure(row=_SPARE_ROW, column=0, rowspan=1, sticky=tk.NSEW)

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
        self._keys.close()
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

    def _skip_stick(self) -> None:
        if self._guard(self._model.skip_stick):
            self._guard(lambda: self.render(self._model.state))

    def _confirm_transmitter(self, on: bool) -> None:
        if self._guard(lambda: self._model.confirm_transmitter(on)):
            self._guard(lambda: self.render(self._model.state))

    def _on_save_report(self) -> None:
        state = self._model.state
        path = "" if state.guided.report_directory else self.ask_report_path()
        if path and not report_dialogs.may_replace(path, self.confirm_replace):
            return
        self.save_report(path or None)

    def save_report(self, path: str | None = None) -> bool:
        """Write the report of the current snapshot: to ``path``, else into the vehicle directory."""
        outcome = report_dialogs.save_report(self._model.state, path)
        if outcome is None:
            return False
        text, error = outcome
        self.guide.show_saved(text, self._shown.set_option, error=error)
        return not error

    def _on_reset(self) -> None:
        if self._guard(self._model.reset_test):
            self._set_model_error(None)
            self._guard(lambda: self.render(self._model.state))

    def _guard(self, action: Callable[[], object]) -> bool:
        """Run ``action``; a failure goes to the notice area instead of into Tk's event loop.

        The model never raises (it reports link faults in its snapshot), so whatever arrives here is
        a fault of the check itself: logged with its traceback, once per kind, and shown as such.
        """
        try:
            action()
        except Exception as error:  # a fault must never break the UI loop
            key = (type(error).__name__, str(error))
            if key not in self._logged_errors and len(self._logged_errors) < MAX_LOGGED_VIEW_ERRORS:
                self._logged_errors.add(key)
                _logger.error("Internal error of the RC receiver view", exc_info=error)
            self._set_model_error(describe_internal_error(error))
            return False
        return True

    def link_told_by_host(self) -> None:
        """The host has said, in one sentence of its own, that the link went away and what it does
        about it: the notice does not say the same event a second time (its link error, the
        streams awaited) until the next connection.  The methodic configurator never calls this."""
        self._link_told_by_host = True
        if self._last_state is not None:
            self._render_notice(self._last_state)

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
            self._channels.render_channels(state)
        link_quality = rssi_is_link_quality(state.guided)
        if last is None or state.rssi != last.rssi or link_quality != self._channels.link_quality:
            self._channels.render_rssi(state.rssi, link_quality)
        if last is None or state.receiver_present != last.receiver_present:
            self._status.render_present(state.receiver_present)
        if last is None or state.failsafe != last.failsafe:
            self._status.render_failsafe(state.failsafe)
        if (
            last is None
            or state.failsafe_observed != last.failsafe_observed
            or state.failsafe_observed_at != last.failsafe_observed_at
            or state.recovery_observed != last.recovery_observed
            or state.recovery_observed_at != last.recovery_observed_at
            or state.test_started_at != last.test_started_at
        ):
            self._status.render_history(state)
        if (
            last is None
            or state.rc_channels_rate_hz != last.rc_channels_rate_hz
            or state.sys_status_rate_hz != last.sys_status_rate_hz
            or state.interval_requests != last.interval_requests
        ):
            self._details.render_streams(state)
        if last is None or state.guided != last.guided:
            self._render_check(state, last)
        if last is None or state.failsafe != last.failsafe:
            self._channels.render_held(state.failsafe)
        self._render_notice(state)
        self._last_state = state

    def _render_check(self, state: RCReceiverState, last: RCReceiverState | None) -> None:
        check, before = state.guided, None if last is None else last.guided
        setter = self._shown.set_option
        if before is None or check.verdict != before.verdict:
            self.banner.render(check.verdict, setter)
        if before is None or check.guide != before.guide:
            self.guide.render(check, setter)
        if before is None or check.channels != before.channels or check.flight_mode != before.flight_mode:
            self._channels.render_check(check)
        if before is None or check.extra_channels != before.extra_channels:
            self.extra_channels.render(check.extra_channels)
        if before is None or check.findings != before.findings:
            self._details.render_findings(check)
        if before is None or check.radio_messages != before.radio_messages:
            self._details.render_messages(check, state.test_started_at)
        if before is None or check.detected_protocol != before.detected_protocol:
            self._status.render_protocol(check.detected_protocol)

    def _render_notice(self, state: RCReceiverState) -> None:
        if self._link_told_by_host and state.connected and state.link_error is None:
            self._link_told_by_host = False  # a new connection: its own problems are news again
        key = (
            self._link_told_by_host,
            self._model_error,
            state.internal_error,
            state.link_error,
            state.connected,
            state.backlog,
            stream_freshness(state),
        )
        if key == self._last_notice_key:
            return
        self._last_notice_key = key
        lines, problem = notice_lines(state, self._model_error, link_told=self._link_told_by_host)
        text = "\n".join(lines)
        self._notice_wrap.show(self.notice, text, self._shown.set_option)
        show_when_set(self.notice, text)
        self._shown.set_option(self.notice, "foreground", COLOUR_BAD if problem else "")


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
        raise ValueError(view_label("needs_flight_controller"))
    return RCReceiverDataModel(
        context.flight_controller,
        local_filesystem=context.local_filesystem,
        parameter_editor=context.parameter_editor,
    )


def register_rc_receiver_plugin() -> None:
    """Register the receiver check's view and model factories under ``PLUGIN_RC_RECEIVER``."""
    plugin_factory.register(PLUGIN_RC_RECEIVER, _create_rc_receiver_view, _create_rc_receiver_model)
