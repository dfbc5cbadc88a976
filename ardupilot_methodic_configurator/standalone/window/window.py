# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The `amc-rc-receiver` window: connection bar, the receiver step with its plugin, the bridge panel.

The window is a thin shell around one `CheckSession`: a `PluginHost` shows the receiver step of
the chosen vehicle exactly as the methodic configurator would (plugin left, parameter table
right), and the `BridgePanel` strip below follows whatever monitor the session currently has: it
stays one line while the session has only its own link (the demo's or SITL's) and opens when the
person adds a bridge, unless the person chose otherwise.  The
blocking connect runs in a worker thread (`background`) that the Tk thread only polls with
``after()``; while it runs the plugin view is paused through the host, so nothing reads the link
mid-swap.  The plugin view runs exactly while a vehicle is connected: the window stops and starts
it through the host, whose state machine is the only record of where the view is.  The widgets
are built by `window.layout`, sized by `window.geometry`; `window.app` runs the program.

Why this module is long: it is the window's controller, one object whose handlers (connect,
disconnect, transmitter schedule, parameter file, close) all act on the same session, host and
``after()`` timers; each is short, and apart they would pass that state around.
"""

from __future__ import annotations

import contextlib
import gc
import tkinter as tk
from collections.abc import Callable, Iterable, Sequence
from tkinter import filedialog
from typing import Any

from ... import _
from ...host.configuration_steps import (
    ConfigurationStep,
    ConfigurationStepsError,
    load_configuration_steps,
)
from ...host.param_file import ShownParameters, StepFiles
from ...host.parameter_table import ParameterTable
from ...host.plugin_host import PluginHost
from ...plugins.plugin_constants import PLUGIN_RC_RECEIVER
from ...plugins.plugin_factory import PluginFactory, plugin_factory
from ...plugins.plugin_protocol import PluginPauseReason
from ...plugins.rc_receiver.program_transmitter import StickHold
from ...plugins.rc_receiver.report import (
    REPORT_BASENAME,
    ReportPathError,
    earlier_report_base,
    write_report,
)
from ...plugins.rc_receiver.snapshot import RCReceiverState
from ...plugins.tk_kit.keys import style_focus
from ...plugins.tk_kit.ticks import TickTimer
from ...sim_bridge.snapshot import BridgeSnapshot
from ...sim_bridge.spec import BridgeSpec
from ..options import DEMO_DEVICE
from ..port_watch import PortWatch
from ..session import CheckSession
from .background import ConnectAttempt, ParameterFileRead
from .connection_bar import DEFAULT_BAUDRATE, ConnectionBar, ConnectionState
from .geometry import StepColumns, fit_scrollable_width
from .layout import DEFAULT_VEHICLE, build_window_layout

CONNECT_TIMEOUT_S = 5.0
CONNECT_POLL_MS = 50
FILE_READ_POLL_MS = 20
# A connect that ignores its own timeout must not keep a closing window alive for ever.
CLOSE_JOIN_GRACE_S = 2.0
# How often the Tk thread takes the port watch's latest list (the watch itself looks every second).
PORTS_TICK_MS = 500


class _SessionMonitor:
    """Polls the session's monitor, which gains and loses links as relays start and stop.

    The connect worker (starting the demo) and ``add_bridges`` on the Tk thread may change the
    session's relays at the same moment; the session serialises that and never replaces its
    monitor, so no link vanishes and no link's statistics restart.
    """

    def __init__(self, session: CheckSession) -> None:
        self._session = session

    def poll(self) -> BridgeSnapshot:
        return self._session.monitor.poll()


def ensure_rc_receiver_plugin(factory: PluginFactory = plugin_factory) -> None:
    """Register the receiver plugin in the default registry unless ``__main__`` already did."""
    if factory is plugin_factory and not factory.is_registered(PLUGIN_RC_RECEIVER):
        from ...plugins.frontend_tkinter_rc_receiver import (  # noqa: PLC0415
            register_rc_receiver_plugin,
        )

        register_rc_receiver_plugin()


class StandaloneWindow:
    """Builds the window inside ``root`` and drives the session from its controls."""

    def __init__(
        self,
        root: tk.Tk,
        session: CheckSession,
        *,
        vehicle: str = DEFAULT_VEHICLE,
        device: str | None = None,
        baudrate: int = DEFAULT_BAUDRATE,
        factory: PluginFactory = plugin_factory,
        connect_timeout: float = CONNECT_TIMEOUT_S,
        port_lister: Callable[[], Iterable[Any]] | None = None,
    ) -> None:
        self.root = root
        self.session = session
        self._connect_timeout = connect_timeout
        self._attempt: ConnectAttempt | None = None
        self._attempt_after_id: str | None = None
        self._file_read: ParameterFileRead | None = None
        self._file_read_after_id: str | None = None
        self._schedule_after_ids: list[str] = []
        self._transmitter_schedule: tuple[float, float | None] | None = None
        self._schedule_started = False
        self._closed = False
        self._parameters = ShownParameters()
        self._step: ConfigurationStep | None = None
        self.parameter_table: ParameterTable | None = None

        root.title(_("RC receiver check"))
        root.protocol("WM_DELETE_WINDOW", self.close)
        # The window is ours alone: every focused control shows a ring a person can see.
        for style in ("TButton", "TCheckbutton"):
            style_focus(root, style)
        layout = build_window_layout(
            root,
            _SessionMonitor(session),
            vehicle=vehicle,
            on_vehicle_selected=self._vehicle_selected,
            connection_bar=lambda parent: ConnectionBar(
                parent,
                on_connect=self.connect,
                on_disconnect=self.disconnect,
                on_transmitter=self.set_transmitter_on,
                on_save_earlier=self.save_earlier_reports,
                device=device,
                baudrate=baudrate,
            ),
        )
        self.vehicle_var = layout.vehicle_var
        self.vehicle_combobox = layout.vehicle_combobox
        self.connection_bar = layout.connection_bar
        self.bridge_error_label = layout.bridge_error_label
        self._bridge_errors: list[str] = []
        self.step_frame = layout.step_frame
        self.bridge_frame = layout.bridge_frame
        self.bridge_panel = layout.bridge_panel
        self._step_columns: StepColumns | None = None

        ensure_rc_receiver_plugin(factory)
        # The step's parameter file for the plugin's comparison, under the names 5.0.1 uses.
        self.step_files = StepFiles()
        # With --demo or --sitl the guide switches the program's own transmitter (run_window).
        self.automatic_transmitter_test = False
        self.host = PluginHost(
            self.step_frame,
            session.flight_controller,
            factory=factory,
            on_error=self._plugin_error,
            local_filesystem=self.step_files,
            parameter_editor=self.step_files,
        )
        self.show_receiver_step()
        self.bridge_panel.on_activate()
        # The device list follows boards being plugged in and removed (the session's port list,
        # which includes a --sitl serial line, read on the watch's own thread).
        self.port_watch = PortWatch(port_lister if port_lister is not None else session.list_ports)
        self._ports_generation = -1
        self.port_watch.start()
        self._ports_timer = TickTimer(root, PORTS_TICK_MS, self._refresh_bar)
        self._ports_timer.start()

    def _refresh_bar(self) -> None:
        self.refresh_ports()
        self.connection_bar.show_earlier_tests(len(self.session.previous_tests))

    def refresh_ports(self) -> None:
        """Offer the ports the watch found last, if they changed since the bar was told."""
        devices, generation = self.port_watch.latest()
        if generation != self._ports_generation:
            self._ports_generation = generation
            self.connection_bar.set_ports(devices)

    # ----------------------------------------------------------------- state for callers and tests

    @property
    def is_connecting(self) -> bool:
        return self._attempt is not None

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def vehicle(self) -> str:
        return self.vehicle_var.get()

    @property
    def step(self) -> ConfigurationStep | None:
        return self._step

    # ----------------------------------------------------------------- the receiver step

    def show_receiver_step(self) -> bool:
        """(Re)build the receiver step of the selected vehicle; ``False`` (reported) if impossible."""
        vehicle = self.vehicle
        try:
            step = load_configuration_steps(vehicle).plugin_step(PLUGIN_RC_RECEIVER)
        except ConfigurationStepsError as error:
            self.connection_bar.show_status(str(error), error=True)
            return False
        if step is None:
            self.connection_bar.show_status(
                _("The {vehicle} configuration steps have no step with the {plugin} plugin.").format(
                    vehicle=vehicle, plugin=PLUGIN_RC_RECEIVER
                ),
                error=True,
            )
            return False
        self.host.flight_controller = self.session.flight_controller
        layout = self.host.show_step(step)
        if layout is None:
            return False
        self._step = step
        parameters = self._parameters
        parameters.follow_vehicle(vehicle)
        table = ParameterTable(
            layout.content_frame,
            title=_("{vehicle}: step {step}").format(vehicle=vehicle, step=step.filename),
            description=step.why_now,
            on_open=self.open_parameter_file,
        )
        table.pack(fill=tk.BOTH, expand=True)
        table.show_entries(parameters.entries, parameters.source)
        self.step_files.show(vehicle, step.filename, parameters.entries)
        table.show_error(parameters.error)
        self.parameter_table = table
        if layout.plugin_frame is not None:
            fit_scrollable_width(layout.plugin_frame)
            if layout.placement == "left":
                # A plugin that can use a wider column says from which width on (the receiver
                # check: its second column); any other plugin gets all the table leaves.
                room = getattr(self.host.active_view, "two_column_width", None)
                room = room if callable(room) else None
                self._step_columns = StepColumns(layout, table.natural_width, room)
        if not self.session.flight_controller.is_connected:
            # Stopping restores the stream intervals on the link the model requested them on.
            self.host.stop_view()
        return True

    def _vehicle_selected(self, _event: object = None) -> None:
        if self.is_connecting:
            return
        self.show_receiver_step()

    def open_parameter_file(self) -> None:
        """Ask for a .param file (the plugin pauses meanwhile) and show it; a bad file keeps the table."""
        with self.host.paused():
            path = filedialog.askopenfilename(
                parent=self.root,
                title=_("Open parameter file"),
                filetypes=[(_("ArduPilot parameter files"), "*.param"), (_("All files"), "*")],
            )
        if not path or self._closed:
            return
        self.read_parameter_file(str(path))

    def save_earlier_reports(self, path: str | None = None) -> bool:
        """Save the reports of the tests a lost link ended, numbered beside ``path`` (else asked)."""
        earlier = list(self.session.previous_tests)
        if not earlier or self._closed:
            return False
        if path is None:
            with self.host.paused():
                path = filedialog.asksaveasfilename(
                    parent=self.root,
                    title=_("Save the reports of the earlier tests"),
                    initialfile=REPORT_BASENAME,
                    defaultextension=".json",
                    filetypes=[(_("Report"), "*.json"), (_("All files"), "*")],
                )
            if not path or self._closed:
                return False
        written: list[str] = []
        try:
            for number, state in enumerate(earlier, start=1):
                json_path, _markdown = write_report(state, earlier_report_base(path, number))
                written.append(str(json_path))
        except (OSError, ReportPathError) as error:
            self.connection_bar.show_status(
                _("The report could not be saved: {error}").format(error=error), error=True
            )
            return False
        self.connection_bar.show_status(
            _("Saved the reports of the earlier tests: {files}").format(files=", ".join(written)), ok=True
        )
        return True

    def read_parameter_file(self, path: str) -> None:
        """Read ``path`` off the Tk thread (a large file takes longer than a frame), then show it."""
        read = ParameterFileRead(path)
        self._file_read = read
        read.start()
        self._file_read_after_id = self.root.after(FILE_READ_POLL_MS, self._poll_file_read)

    def _poll_file_read(self) -> None:
        self._file_read_after_id = None
        read = self._file_read
        if read is None or self._closed:
            return
        if not read.done:
            self._file_read_after_id = self.root.after(FILE_READ_POLL_MS, self._poll_file_read)
            return
        self._file_read = None
        self._show_parameter_file(read.path, self._parameters.use_file(read.path, read.entries, read.error))

    @property
    def is_reading_file(self) -> bool:
        return self._file_read is not None

    def load_parameter_file(self, path: str) -> bool:
        """Read and show ``path`` at once, on the calling thread."""
        return self._show_parameter_file(path, self._parameters.open_file(path))

    def _show_parameter_file(self, path: str, ok: bool) -> bool:
        parameters = self._parameters
        if not ok:
            if self.parameter_table is not None:
                self.parameter_table.show_error(parameters.error)
            return False
        if self.parameter_table is not None:
            self.parameter_table.show_entries(parameters.entries, path)
            if self._step_columns is not None:
                self._step_columns.refresh()
        if self._step is not None:
            self.step_files.show(self.vehicle, self._step.filename, parameters.entries)
        return True

    # ----------------------------------------------------------------- plugin view lifecycle

    def _show_idle_state(self) -> None:
        """Draw the model's state once more so a stopped view never shows old readings as current."""
        view, model = self.host.active_view, self.host.active_model
        render = getattr(view, "render", None)
        refresh = getattr(model, "deactivate", None)
        if callable(render) and callable(refresh):
            # Deactivating an inactive model only rebuilds its snapshot from the link as it is now.
            def show() -> None:
                refresh()
                render(getattr(model, "state", None))

            self._guard(_("show the disconnected state"), show)

    def _guard(self, action: str, call: Callable[[], object]) -> None:
        try:
            call()
        except Exception as error:  # plugin code must not break the window
            self._plugin_error(
                _("The receiver check failed to {action}: {error}").format(
                    action=action, error=str(error) or type(error).__name__
                )
            )

    def _plugin_error(self, message: str) -> None:
        if not self._closed:
            self.connection_bar.show_status(message, error=True)

    # ----------------------------------------------------------------- connection

    def connect(self, device: str, baudrate: int = DEFAULT_BAUDRATE) -> None:
        """Start connecting to ``device`` in a worker thread; the window keeps running meanwhile."""
        if self._closed or self._attempt is not None:
            return
        if self.session.flight_controller.is_connected or self.session.demo is not None:
            self._disconnect_now()
        self.connection_bar.set_device(device)
        self.connection_bar.set_state(ConnectionState.CONNECTING)
        self.vehicle_combobox.configure(state="disabled")
        shown = _("the simulated vehicle") if device == DEMO_DEVICE else device
        self.connection_bar.show_status(_("Connecting to {device}…").format(device=shown))
        # The link is being swapped: the plugin must neither read nor send meanwhile.  The host's
        # pause nests with a file browser pause, so both may overlap safely.
        self.host.pause(PluginPauseReason.CONNECTION_RECOVERY)
        # Destroyed widgets are cyclic garbage; collect it now so that the collector never
        # finalises Tk objects inside the worker thread, which does not own the interpreter.
        gc.collect()
        attempt = ConnectAttempt(self.session, device, baudrate, self._connect_timeout)
        self._attempt = attempt
        attempt.start()
        self._attempt_after_id = self.root.after(CONNECT_POLL_MS, self._poll_attempt)

    def _poll_attempt(self) -> None:
        self._attempt_after_id = None
        attempt = self._attempt
        if attempt is None or self._closed:
            return
        if not attempt.done:
            self._attempt_after_id = self.root.after(CONNECT_POLL_MS, self._poll_attempt)
            return
        self._attempt = None
        self.host.resume()
        self.vehicle_combobox.configure(state="readonly")
        error = attempt.result
        if error is None:
            error = _("The connection attempt ended unexpectedly.")
        if error:
            # A demo that started but never answered is stopped again.
            self.session.disconnect()
            self._show_idle_state()
            self.connection_bar.set_state(ConnectionState.DISCONNECTED)
            self.connection_bar.show_status(error, error=True)
            return
        self.connection_bar.set_state(ConnectionState.CONNECTED)
        info = self.session.flight_controller.info
        shown = _("the simulated vehicle") if attempt.device == DEMO_DEVICE else attempt.device
        self.connection_bar.show_status(
            _("Connected to {device}: ArduPilot vehicle, system {system}, component {component}.").format(
                device=shown, system=info.system_id, component=info.component_id
            ),
            ok=True,
        )
        self.host.start_view()
        available = self.session.transmitter_available
        self.connection_bar.set_transmitter_available(available)
        # Nobody but the program can move the simulated transmitter's sticks; a person moves theirs.
        self._guard(_("move the simulated sticks"), lambda: self._let_the_guide_move_sticks(available))
        if available:
            self.connection_bar.show_transmitter(self.session.transmitter_on)
            self._start_transmitter_schedule()
            if self.automatic_transmitter_test and self._transmitter_schedule is None:
                self._guard(_("run the transmitter test"), self._let_the_guide_switch)

    def disconnect(self) -> None:
        """Stop the view (restoring stream intervals on this link), then close the link."""
        if self._closed or self._attempt is not None:
            return
        self._disconnect_now()
        self.connection_bar.set_state(ConnectionState.DISCONNECTED)
        self.connection_bar.show_status(_("Disconnected."))

    def link_lost(self, text: str) -> None:
        """The link went away under the check (a reboot, an unplugged cable): keep the test that
        ran on it for its report, close the link before the view stops (so nothing is sent to a
        device that is gone), clear the readings and say what happened."""
        if self._closed or self._attempt is not None:
            return
        self.note_link_event(text)
        state = getattr(self.host.active_model, "state", None)
        if isinstance(state, RCReceiverState):
            self.session.keep_test_before_reconnect(state)
        self.session.flight_controller.disconnect()
        self._disconnect_now()
        self.connection_bar.set_state(ConnectionState.DISCONNECTED)
        self.connection_bar.show_status(text, error=True)

    def note_link_event(self, text: str) -> None:
        """Put ``text`` into the timeline of the test the view runs (if a view runs one)."""
        note = getattr(self.host.active_model, "note_link_event", None)
        if callable(note):
            self._guard(_("note a link event"), lambda: note(text))

    def _disconnect_now(self) -> None:
        self.host.stop_view()
        self.session.disconnect()
        self._cancel_schedule()
        self.connection_bar.set_transmitter_available(False)
        self._show_idle_state()

    # ----------------------------------------------------------------- demo transmitter

    def set_transmitter_on(self, on: bool) -> None:
        """Switch the simulated transmitter (the demo only) and show the switch's new position."""
        if self._closed:
            return
        self._switch_transmitter(on)
        # The receiver check times the failsafe from this switch.
        note = getattr(self.host.active_model, "note_transmitter_switched", None)
        if callable(note):
            self._guard(_("note the transmitter switch"), lambda: note(on))

    def _switch_transmitter(self, on: bool) -> None:
        self.connection_bar.show_transmitter(on)
        error = self.session.set_transmitter_on(on)
        if error:
            self.connection_bar.show_status(error, error=True)

    def _let_the_guide_switch(self) -> None:
        give = getattr(self.host.active_model, "set_transmitter_switch", None)
        if callable(give):
            give(self._switch_transmitter)

    def _let_the_guide_move_sticks(self, program_owned: bool) -> None:
        give = getattr(self.host.active_model, "set_stick_mover", None)
        if callable(give):
            give(self._hold_sticks if program_owned else None)
        if not program_owned:
            take = getattr(self.host.active_model, "set_transmitter_switch", None)
            if callable(take):
                take(None)

    def _hold_sticks(self, hold: StickHold) -> None:
        error = self.session.hold_sticks(hold)
        if error:
            self.connection_bar.show_status(error, error=True)

    def set_transmitter_schedule(self, off_after: float | None, off_for: float | None = 1.5) -> None:
        """Once the demo is connected: transmitter off after ``off_after`` s, on again ``off_for`` s later."""
        self._transmitter_schedule = None if off_after is None else (off_after, off_for)
        if self.session.transmitter_available and self.session.flight_controller.is_connected:
            self._start_transmitter_schedule()

    def _start_transmitter_schedule(self) -> None:
        if self._transmitter_schedule is None or self._schedule_started:
            return
        self._schedule_started = True
        off_after, off_for = self._transmitter_schedule
        self._schedule_after_ids.append(
            self.root.after(int(off_after * 1000), lambda: self.set_transmitter_on(False))
        )
        if off_for is not None:
            self._schedule_after_ids.append(
                self.root.after(int((off_after + off_for) * 1000), lambda: self.set_transmitter_on(True))
            )

    def _cancel_schedule(self) -> None:
        for after_id in self._schedule_after_ids:
            with contextlib.suppress(tk.TclError):
                self.root.after_cancel(after_id)
        self._schedule_after_ids.clear()

    # ----------------------------------------------------------------- bridge panel

    def toggle_bridge_panel(self) -> None:
        """The person's toggle of the bridge strip: remembered for the rest of the session."""
        self.bridge_panel.toggle()

    def add_bridges(self, specs: Sequence[BridgeSpec]) -> list[str]:
        """Start a relay per spec; the panel picks each up at once.  Failures go to the status line."""
        errors = [error for error in (self.session.add_bridge(spec) for spec in specs) if error]
        if len(errors) < len(specs):
            # The person asked for these links: show them, unless the person closed the strip.
            self.bridge_panel.suggest_expanded(True)
        shown = errors + self.session.take_notices()
        if shown:
            # A line of its own, so later connection messages do not hide it.
            self._bridge_errors.extend(shown)
            self.bridge_error_label.configure(text="\n".join(self._bridge_errors))
            if not self.bridge_error_label.winfo_manager():
                self.bridge_error_label.pack(fill=tk.X, padx=8, pady=(0, 4), before=self.step_frame)
        return errors

    # ----------------------------------------------------------------- status and closing

    def show_status(self, text: str, *, error: bool = False) -> None:
        self.connection_bar.show_status(text, error=error)

    def close(self) -> None:
        """Leave the step (deactivate, destroy), stop the session and destroy the window; idempotent."""
        if self._closed:
            return
        self._closed = True
        self._ports_timer.close()
        self.port_watch.stop()
        for after_id in (self._attempt_after_id, self._file_read_after_id):
            if after_id is not None:
                with contextlib.suppress(tk.TclError):
                    self.root.after_cancel(after_id)
        self._cancel_schedule()
        try:
            attempt, self._attempt = self._attempt, None
            if attempt is not None:
                with contextlib.suppress(tk.TclError):
                    self.root.withdraw()
                # A connect waiting for a booting SITL ends as soon as SITL is stopped.
                self.session.stop_sitl()
                # Neither the view nor the session may be torn down under a connect still running.
                attempt.thread.join(self._connect_timeout + CLOSE_JOIN_GRACE_S)
            self.host.close()
            with contextlib.suppress(tk.TclError):
                self.bridge_panel.on_deactivate()
        finally:
            self.session.close()
            with contextlib.suppress(tk.TclError):
                self.root.destroy()
