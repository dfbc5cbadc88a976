# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Tk view of the RC receiver check, plus the plugin factories that plug it into the configurator.

Why this module is long: the methodic configurator 5.0.1 loads the plugin by this module's name,
so the view and its factories live here, and the view's render groups share one cache of what
each widget shows (``_set_option``); split across modules, every group would need that cache
handed in.  The guided-test panels, texts, widgets, scrolling and timer are already their own
modules.

The view is built once and then only *updated*: ``render()`` compares each group of snapshot
fields with the last snapshot it drew, and every widget remembers the value it shows, so a tick in
which nothing visible changed touches no widget at all.  One ``after()`` timer drives polling; it
exists only while the view is active and not suspended, and is cancelled on every way out.  The
view depends on ``RCReceiverModelLike`` (a Protocol) rather than on the concrete data model.

The view is laid out for a 1280x720 screen and for German: the verdict on one line (a link
problem, when there is one, right under it), then the channels, the guided test and the receiver
status, which must be in view unscrolled; the findings,
streams, radio messages and guidance follow below, or beside them once the view is wide enough for
a second column (``_arrange``).  Columns are as wide as their longest text in the current language
and labels wrap at their frame's width (`tk_kit.text`); the keyboard is
`tk_kit.keys`.
"""

from __future__ import annotations

import logging
import tkinter as tk
from collections.abc import Callable
from pathlib import Path
from tkinter import filedialog, messagebox, ttk
from typing import TYPE_CHECKING, Protocol

from .. import _
from .plugin_constants import PLUGIN_RC_RECEIVER
from .plugin_factory import plugin_factory
from .plugin_protocol import PluginPauseReason
from .rc_receiver.guide import KEY_RESET
from .rc_receiver.readings import RSSI_MAX
from .rc_receiver.report import (
    REPORT_BASENAME,
    ReportPathError,
    existing_report_files,
    save_to_vehicle_directory,
    write_report,
)
from .rc_receiver.snapshot import (
    CHANNEL_COUNT,
    FIRST_CHANNEL,
    PWM_BAR_MAX_US,
    PWM_BAR_MIN_US,
    FailsafeStatus,
    RCReceiverState,
)
from .rc_receiver.wording import (
    describe_internal_error,
    guidance_text,
    notice_lines,
    relative_time_text,
    request_text,
    rssi_is_link_quality,
    stream_freshness,
)
from .rc_receiver_tk.widgets import (
    COLOUR_UNKNOWN,
    MAX_FINDINGS_SHOWN,
    MAX_MESSAGES_SHOWN,
    BarRow,
    ChannelRoles,
    GuidePanel,
    Lamp,
    StreamRow,
    TextList,
    VerdictBanner,
    findings_entries,
    message_entries,
    show_when_set,
    size_columns,
)
from .tk_kit.keys import BUTTON_STYLE, ViewKeys
from .tk_kit.scrolling import ScrollableFrame
from .tk_kit.text import TextMeasure, WrapFollower
from .tk_kit.ticks import TickTimer

if TYPE_CHECKING:
    from .data_model_rc_receiver import RCReceiverDataModel
    from .plugin_factory import PluginModelContext

DEFAULT_TICK_MS = 100
# Distinct faults of the view logged with their traceback; one that repeats every tick is logged once.
MAX_LOGGED_VIEW_ERRORS = 20
_logger = logging.getLogger(__name__)

COLOUR_GOOD = "#2e7d32"
COLOUR_BAD = "#c62828"
COLOUR_ATTENTION = "#ef6c00"

# What the notice and the guidance wrap at before they are laid out; then they follow their width.
_WRAP_LENGTH = 520
_STREAMS = ("RC_CHANNELS", "SYS_STATUS")
# Beside the readings, the findings, streams, messages and guidance take a column of their own
# once it can be at least this wide; below that they follow underneath.
DETAILS_MIN_WIDTH = 340
_PAD = 8
# A frame's title sits this far in from its sides.
_TITLE_MARGIN = 24
# What a stream's interval request wraps at, at least.
_REQUEST_MIN_WIDTH = 160
# The row below the readings: the details' own row when they are underneath.
_SPARE_ROW = 6
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
        self._last_notice_key: tuple[object, ...] | None = None
        # The value each widget shows, so an unchanged value never reaches Tk.
        self._shown: dict[tuple[tk.Misc, str], object] = {}
        # Counts configure calls that reached Tk; lets tests and benchmarks see idle renders are free.
        self.widget_updates = 0

        self._keys = ViewKeys(self)
        self._scroll = ScrollableFrame(self)
        self._scroll.pack(fill=tk.BOTH, expand=True)
        body = self._scroll.interior
        self._body = body
        body.columnconfigure(0, weight=1)

        # Read top to bottom: the answer, the readings and the test a person works through; the
        # findings, streams, messages and guidance follow (beside them when there is room).
        self._title = ttk.Label(body, text=_("RC receiver check"), font=("TkDefaultFont", 12, "bold"))
        self._title.grid(row=0, column=0, padx=_PAD, pady=(2, 0), sticky=tk.W)
        # The verdict comes first: it is the answer the whole step exists for.
        self.banner = VerdictBanner(body)
        self.banner.frame.grid(row=1, column=0, padx=_PAD, pady=3, sticky=tk.EW)
        # Right under the verdict: a link that closed or telemetry that stopped explains the rest.
        # It takes no room while all is well.
        self.notice = ttk.Label(body, text="", justify=tk.LEFT)
        self.notice.grid(row=_NOTICE_ROW, column=0, padx=_PAD, pady=(0, 2), sticky=tk.W)
        self._notice_wrap = WrapFollower(body, width=_WRAP_LENGTH, margin=2 * _PAD)
        self._notice_wrap.add(self.notice)

        channels = ttk.LabelFrame(body, text=_("Channels"))
        channels.grid(row=_CHANNELS_ROW, column=0, padx=_PAD, pady=3, sticky=tk.EW)
        channels.columnconfigure(1, weight=1)
        self.channel_rows = tuple(
            BarRow(channels, _("CH{number}").format(number=number), PWM_BAR_MAX_US - PWM_BAR_MIN_US, row)
            for row, number in enumerate(range(FIRST_CHANNEL, FIRST_CHANNEL + CHANNEL_COUNT))
        )
        self.rssi_row = BarRow(channels, _("Receiver RSSI"), RSSI_MAX, CHANNEL_COUNT)
        self._rssi_is_link_quality = False
        self.roles = ChannelRoles(
            channels, [row.bar for row in self.channel_rows], first_row=0, mode_row=CHANNEL_COUNT + 1
        )
        size_columns(channels, TextMeasure.of(self.rssi_row.value), _channel_column_texts())

        self.guide = GuidePanel(
            body,
            on_off=lambda: self._confirm_transmitter(False),
            on_on=lambda: self._confirm_transmitter(True),
            on_save=self._on_save_report,
            on_skip=self._skip_stick,
            keys=self._keys,
        )
        self.guide.frame.grid(row=_GUIDE_ROW, column=0, padx=_PAD, pady=3, sticky=tk.EW)
        self.guide.save_button.configure(style=BUTTON_STYLE)

        status = ttk.LabelFrame(body, text=_("Receiver status"))
        status.grid(row=_STATUS_ROW, column=0, padx=_PAD, pady=3, sticky=tk.EW)
        self.present_lamp = Lamp(status, _("Receiver seen by the flight controller:"), 0)
        self.failsafe_lamp = Lamp(status, _("RC failsafe:"), 1)
        self.failsafe_observed_lamp = Lamp(status, _("Failsafe observed during this test:"), 2)
        self.recovery_lamp = Lamp(status, _("Recovery observed:"), 3)
        size_columns(status, TextMeasure.of(self.present_lamp.value), _lamp_value_texts(), padding=8)
        # What the flight controller says it decodes ("RCInput: decoding SBUS(1)").
        ttk.Label(status, text=_("Protocol the flight controller decodes:")).grid(
            row=4, column=1, pady=(1, 4), sticky=tk.W
        )
        self.protocol_value = ttk.Label(status, text=_("not announced yet"))
        self.protocol_value.grid(row=4, column=2, padx=(8, 0), pady=(1, 4), sticky=tk.W)
        # Beside the last lines rather than below them: the readings above must fit a 720 px screen.
        self.reset_button = ttk.Button(
            status, text=_("Start a new test"), command=self._on_reset, style=BUTTON_STYLE
        )
        self.reset_button.grid(row=3, column=3, rowspan=2, padx=(16, 6), pady=(0, 4), sticky=tk.SE)
        status.columnconfigure(3, weight=1)
        self._keys.add(self.reset_button, KEY_RESET)
        self._essentials = (self.banner.frame, channels, self.guide.frame, status)

        details = ttk.Frame(body)
        self._details = details
        details.columnconfigure(0, weight=1)
        details.grid(row=_SPARE_ROW, column=0, sticky=tk.NSEW)
        self.findings = TextList(details, _("Parameter findings"), MAX_FINDINGS_SHOWN, _("No findings yet."))
        self.findings.frame.grid(row=0, column=0, padx=_PAD, pady=3, sticky=tk.EW)

        streams = ttk.LabelFrame(details, text=_("Telemetry streams"))
        streams.grid(row=1, column=0, padx=_PAD, pady=3, sticky=tk.EW)
        self._streams = streams
        self.stream_rows = {name: StreamRow(streams, name, row) for row, name in enumerate(_STREAMS)}
        measure = TextMeasure.of(self.stream_rows[_STREAMS[0]].rate)
        rates = [_("{rate:.1f} Hz").format(rate=88.8)]
        size_columns(streams, measure, {1: rates}, padding=12)
        # A request that was refused names its MAV_RESULT: its text wraps beside the name and rate.
        beside = measure.widest(_STREAMS) + measure.widest(rates) + 12 + 2 * _PAD
        self._request_wrap = WrapFollower(streams, width=_REQUEST_MIN_WIDTH, margin=beside)
        for row in self.stream_rows.values():
            self._request_wrap.add(row.request)

        self.radio_messages = TextList(
            details, _("Flight controller messages about the radio"), MAX_MESSAGES_SHOWN, _("None yet.")
        )
        self.radio_messages.frame.grid(row=2, column=0, padx=_PAD, pady=3, sticky=tk.EW)

        guidance = ttk.LabelFrame(details, text=_("How to check the receiver"))
        guidance.grid(row=3, column=0, padx=_PAD, pady=(3, _PAD), sticky=tk.EW)
        self.guidance = ttk.Label(guidance, text=guidance_text(), justify=tk.LEFT)
        self.guidance.pack(padx=6, pady=6, anchor=tk.W)
        self._guidance_wrap = WrapFollower(guidance, width=_WRAP_LENGTH, margin=20)
        self._guidance_wrap.add(self.guidance)
        # The streams' names and rates do not wrap, nor do the frames' titles: a column of details
        # must hold them.
        titles = TextMeasure.of(streams, "TLabelframe.Label")
        framed = (self.findings.frame, streams, self.radio_messages.frame, guidance)
        widest_title = titles.widest(str(frame.cget("text")) for frame in framed) + _TITLE_MARGIN
        self._details_min = max(DETAILS_MIN_WIDTH, beside + _REQUEST_MIN_WIDTH, widest_title) + 2 * _PAD
        self._two_columns = False
        self._scroll.on_width = self._arrange
        # Tab walks the buttons in reading order; the focused one is scrolled into view.
        self._keys.follow_focus(self._scroll.see)
        self._keys.attach()
        # Where "Save report…" asks for a file when the host has no vehicle directory.
        self.ask_report_path: Callable[[], str] = self._ask_report_path
        self.confirm_replace: Callable[[tuple[Path, ...]], bool] = self._confirm_replace

    # ----------------------------------------------------------------- layout

    @property
    def two_columns(self) -> bool:
        """Whether the findings, streams, messages and guidance stand beside the readings."""
        return self._two_columns

    @property
    def scrolling(self) -> ScrollableFrame:
        """The area the view scrolls in (its canvas shows what is in view)."""
        return self._scroll

    @property
    def access_keys(self) -> dict[str, ttk.Button]:
        """Which key presses which button (lower and upper case)."""
        return self._keys.keys

    def two_column_width(self) -> int:
        """The width from which the view puts its findings beside its readings (scroll bar included):
        a host with room to spare gives the view this much."""
        return self._readings_width() + self._details_min + self._scroll.scrollbar.winfo_reqwidth()

    def _readings_width(self) -> int:
        return max(frame.winfo_reqwidth() for frame in self._essentials) + 2 * _PAD

    def _arrange(self, width: int) -> None:
        two = width >= self._readings_width() + self._details_min
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
            self._details.grid_configure(
                row=_CHANNELS_ROW, column=1, rowspan=_SPARE_ROW - _CHANNELS_ROW + 1, sticky="new"
            )
        else:
            self._details.grid_configure(row=_SPARE_ROW, column=0, rowspan=1, sticky=tk.NSEW)

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

    def _ask_report_path(self) -> str:
        path = filedialog.asksaveasfilename(
            parent=self,
            title=_("Save report"),
            defaultextension=".json",
            initialfile=f"{REPORT_BASENAME}.json",
            filetypes=[(_("Report (JSON and Markdown)"), "*.json"), (_("All files"), "*")],
        )
        return str(path or "")

    def _confirm_replace(self, files: tuple[Path, ...]) -> bool:
        return bool(
            messagebox.askyesno(
                title=_("Save report"),
                message=_(
                    "The report is saved as two files, and these exist already:\n{files}\n\nReplace them?"
                ).format(files="\n".join(str(file) for file in files)),
                parent=self,
            )
        )

    def _on_save_report(self) -> None:
        state = self._model.state
        path = "" if state.guided.report_directory else self.ask_report_path()
        if path and not self._may_replace(path):
            return
        self.save_report(path or None)

    def _may_replace(self, path: str) -> bool:
        """The file dialog confirmed replacing the name it returned, not its sibling: ask for that."""
        try:
            existing = existing_report_files(path)
        except ReportPathError:
            return True
        picked = Path(path).expanduser()
        unconfirmed = tuple(file for file in existing if file != picked)
        return not unconfirmed or self.confirm_replace(existing)

    def save_report(self, path: str | None = None) -> bool:
        """Write the report of the current snapshot: to ``path``, else into the vehicle directory."""
        state = self._model.state
        try:
            written = write_report(state, path) if path else save_to_vehicle_directory(state)
        except (OSError, ReportPathError) as error:
            self.guide.show_saved(
                _("The report could not be saved: {error}").format(error=error), self._set_option, error=True
            )
            return False
        if written is None:
            return False
        self.guide.show_saved(
            _("Report saved: {json} and {markdown}").format(json=written[0], markdown=written[1]),
            self._set_option,
        )
        return True

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
        link_quality = rssi_is_link_quality(state.guided)
        if last is None or state.rssi != last.rssi or link_quality != self._rssi_is_link_quality:
            self._rssi_is_link_quality = link_quality
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
        if last is None or state.guided != last.guided:
            self._render_check(state, last)
        if last is None or state.failsafe != last.failsafe:
            self.roles.render_held(state.failsafe is FailsafeStatus.ACTIVE, self._set_option)
        self._render_notice(state)
        self._last_state = state

    def _render_check(self, state: RCReceiverState, last: RCReceiverState | None) -> None:
        check, before = state.guided, None if last is None else last.guided
        if before is None or check.verdict != before.verdict:
            self.banner.render(check.verdict, self._set_option)
        if before is None or check.guide != before.guide:
            self.guide.render(check, self._set_option)
        if before is None or check.channels != before.channels or check.flight_mode != before.flight_mode:
            self.roles.render(check, self._set_option)
        if before is None or check.findings != before.findings:
            self.findings.render(findings_entries(check), self._set_option)
        if before is None or check.radio_messages != before.radio_messages:
            self.radio_messages.render(message_entries(check, state.test_started_at), self._set_option)
        if before is None or check.detected_protocol != before.detected_protocol:
            protocol = check.detected_protocol
            self._set_option(self.protocol_value, "text", protocol or _("not announced yet"))

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
        # With RC_OPTIONS bit 11 the flight controller reports CRSF link quality in the RSSI field.
        link_quality = self._rssi_is_link_quality
        name = _("Link quality") if link_quality else _("Receiver RSSI")
        self._set_option(self.rssi_row.name, "text", name)
        if rssi is None or rssi < 0 or rssi > RSSI_MAX:
            self._set_bar(self.rssi_row, 0.0, _("Unavailable"))
        else:
            text = _("LQ {rssi} / {maximum}") if link_quality else _("RSSI {rssi} / {maximum}")
            self._set_bar(self.rssi_row, float(rssi), text.format(rssi=rssi, maximum=RSSI_MAX))

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
            relative_time_text(state.failsafe_observed, state.failsafe_observed_at, started),
        )
        self._set_lamp(
            self.recovery_lamp,
            COLOUR_GOOD if state.recovery_observed else COLOUR_UNKNOWN,
            relative_time_text(state.recovery_observed, state.recovery_observed_at, started),
        )

    def _render_streams(self, state: RCReceiverState) -> None:
        requests = {request.message_name: request for request in state.interval_requests}
        rates = {"RC_CHANNELS": state.rc_channels_rate_hz, "SYS_STATUS": state.sys_status_rate_hz}
        for name, row in self.stream_rows.items():
            self._set_text(row.rate, _("{rate:.1f} Hz").format(rate=rates[name]))
            self._request_wrap.show(row.request, request_text(requests.get(name)), self._set_option)

    def _render_notice(self, state: RCReceiverState) -> None:
        key = (
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
        lines, problem = notice_lines(state, self._model_error)
        text = "\n".join(lines)
        self._notice_wrap.show(self.notice, text, self._set_option)
        show_when_set(self.notice, text)
        self._set_option(self.notice, "foreground", COLOUR_BAD if problem else "")

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

    def _set_bar(self, row: BarRow, value: float, text: str) -> None:
        self._set_option(row.bar, "value", value)
        self._set_text(row.value, text)

    def _set_lamp(self, lamp: Lamp, colour: str, text: str) -> None:
        key = (lamp.canvas, "fill")
        if self._shown.get(key, _UNSET) != colour:
            self._shown[key] = colour
            lamp.canvas.itemconfigure(lamp.oval, fill=colour)
            self.widget_updates += 1
        self._set_text(lamp.value, text)


_UNSET = object()


def _lamp_value_texts() -> dict[int, list[str]]:
    """Every value of the receiver status (and the protocol's first), so the column never grows."""
    values = [_("unknown"), _("yes"), _("no"), _("active"), _("not active"), _("not yet")]
    values += [relative_time_text(True, 888.8, 0.0), _("not announced yet")]
    return {2: values}


def _channel_column_texts() -> dict[int, list[str]]:
    """The longest texts of the channel names and readings, in the current language."""
    names = [_("CH{number}").format(number=number) for number in range(FIRST_CHANNEL, FIRST_CHANNEL + 9)]
    names += [_("Receiver RSSI"), _("Link quality")]
    values = [
        _("Unavailable"),
        _("{pwm} µs").format(pwm=88888),
        _("RSSI {rssi} / {maximum}").format(rssi=RSSI_MAX, maximum=RSSI_MAX),
        _("LQ {rssi} / {maximum}").format(rssi=RSSI_MAX, maximum=RSSI_MAX),
    ]
    return {0: names, 2: values}


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
