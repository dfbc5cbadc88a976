# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The `amc-rc-receiver` window: connection bar, the receiver step with its plugin, the bridge panel.

The window is a thin shell around one `CheckSession`: a `PluginHost` shows the receiver step of
the chosen vehicle exactly as the methodic configurator would (plugin left, parameter table
right), and the sidecar `BridgePanel` follows whatever monitor the session currently has.  The
blocking connect runs in a worker thread that the Tk thread only polls with ``after()``; while
it runs the plugin view is paused through the host, so nothing reads the link mid-swap.  The
plugin view is active exactly while a vehicle is connected.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import sys
import threading
import tkinter as tk
from collections.abc import Callable, Sequence
from tkinter import filedialog, ttk

from amc_rc_receiver import _
from amc_rc_receiver.bridge_spec import BridgeSpec
from amc_rc_receiver.check_session import CheckSession
from amc_rc_receiver.configuration_steps import (
    ConfigurationStep,
    ConfigurationStepsError,
    available_vehicles,
    load_configuration_steps,
)
from amc_rc_receiver.device_names import DEMO_DEVICE
from amc_rc_receiver.frontend_tkinter_connection_bar import (
    COLOUR_ERROR,
    DEFAULT_BAUDRATE,
    STATUS_WRAP_PIXELS,
    ConnectionBar,
    ConnectionState,
    detected_serial_ports,
)
from amc_rc_receiver.frontend_tkinter_parameter_table import ParameterTable
from amc_rc_receiver.frontend_tkinter_sim_bridge import BridgePanel
from amc_rc_receiver.frontend_tkinter_sitl import SitlWindowSupport
from amc_rc_receiver.param_file import (
    ParamEntry,
    ParamFileError,
    example_receiver_param_file,
    read_example_receiver_params,
    read_param_file,
)
from amc_rc_receiver.plugin_host import PluginHost
from amc_rc_receiver.plugins.plugin_constants import PLUGIN_RC_RECEIVER
from amc_rc_receiver.plugins.plugin_factory import PluginFactory, plugin_factory
from amc_rc_receiver.plugins.plugin_protocol import PluginPauseReason
from amc_rc_receiver.plugins.rc_receiver_scrollable import ScrollableFrame
from amc_rc_receiver.sim_bridge.demo_setups import DemoChoice
from amc_rc_receiver.sim_bridge.snapshot import BridgeSnapshot
from amc_rc_receiver.sitl_runner import SitlConfig
from amc_rc_receiver.step_file_context import StepFiles
from amc_rc_receiver.text_app import TransmitterSchedule, run_text_session

logger = logging.getLogger(__name__)

DEFAULT_VEHICLE = "ArduCopter"
CONNECT_TIMEOUT_S = 5.0
CONNECT_POLL_MS = 50
# A connect that ignores its own timeout must not keep a closing window alive for ever.
CLOSE_JOIN_GRACE_S = 2.0
DEFAULT_GEOMETRY = "1560x860"
BRIDGE_PANE_WIDTH = 480
# The bridge pane keeps at least this much when collapsed: the header button and its summary.
_MIN_PANE = 40
_COLLAPSED_MARGIN = 16


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


class _ConnectAttempt:
    """One blocking ``session.connect`` on a worker thread; the Tk thread polls ``done``."""

    def __init__(self, session: CheckSession, device: str, baudrate: int, timeout: float) -> None:
        self.device = device
        self.result: str | None = None
        self._session = session
        self._baudrate = baudrate
        self._timeout = timeout
        self.thread = threading.Thread(target=self._run, name="amc-rc-receiver-connect", daemon=True)

    def start(self) -> None:
        self.thread.start()

    @property
    def done(self) -> bool:
        return not self.thread.is_alive()

    def _run(self) -> None:
        try:
            self.result = self._session.connect(self.device, baudrate=self._baudrate, timeout=self._timeout)
        except Exception as error:  # a connect that raises is still only a message for the user
            logger.exception("connect raised")
            self.result = _("Could not connect to {device}: {error}").format(
                device=self.device, error=str(error) or type(error).__name__
            )


def ensure_rc_receiver_plugin(factory: PluginFactory = plugin_factory) -> None:
    """Register the receiver plugin in the default registry unless ``__main__`` already did."""
    if factory is plugin_factory and not factory.is_registered(PLUGIN_RC_RECEIVER):
        from amc_rc_receiver.plugins.frontend_tkinter_rc_receiver import (  # noqa: PLC0415
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
        port_lister: Callable[[], list[str]] = detected_serial_ports,
    ) -> None:
        self.root = root
        self.session = session
        self._connect_timeout = connect_timeout
        self._attempt: _ConnectAttempt | None = None
        self._attempt_after_id: str | None = None
        self._schedule_after_ids: list[str] = []
        self._transmitter_schedule: tuple[float, float | None] | None = None
        self._schedule_started = False
        self._view_deactivated = False
        self._closed = False
        self._param_entries: tuple[ParamEntry, ...] = ()
        self._param_source = ""
        # The table shows the selected vehicle's bundled example until the user opens a file.
        self._shows_example = True
        self._param_error: str | None = None
        self._step: ConfigurationStep | None = None
        self.parameter_table: ParameterTable | None = None

        root.title(_("RC receiver check"))
        root.protocol("WM_DELETE_WINDOW", self.close)

        top = ttk.Frame(root)
        top.pack(fill=tk.X, padx=8, pady=(8, 4))
        vehicle_frame = ttk.Frame(top)
        vehicle_frame.pack(side=tk.LEFT, anchor=tk.N, padx=(0, 16))
        ttk.Label(vehicle_frame, text=_("Vehicle:")).pack(side=tk.LEFT)
        vehicles = available_vehicles()
        self.vehicle_var = tk.StringVar(root, value=vehicle if vehicle in vehicles else DEFAULT_VEHICLE)
        self.vehicle_combobox = ttk.Combobox(
            vehicle_frame, textvariable=self.vehicle_var, values=vehicles, state="readonly", width=12
        )
        self.vehicle_combobox.pack(side=tk.LEFT, padx=(4, 0))
        self.vehicle_combobox.bind("<<ComboboxSelected>>", self._vehicle_selected)
        self.connection_bar = ConnectionBar(
            top,
            on_connect=self.connect,
            on_disconnect=self.disconnect,
            on_transmitter=self.set_transmitter_on,
            port_lister=port_lister,
            device=device,
            baudrate=baudrate,
        )
        self.connection_bar.pack(side=tk.LEFT, fill=tk.X, expand=True)

        self._bridge_errors: list[str] = []
        self.bridge_error_label = ttk.Label(
            root, text="", foreground=COLOUR_ERROR, wraplength=STATUS_WRAP_PIXELS * 2, justify=tk.LEFT
        )
        self.panes = ttk.Panedwindow(root, orient=tk.HORIZONTAL)
        self.panes.pack(fill=tk.BOTH, expand=True, padx=8, pady=(4, 8))
        self.step_frame = ttk.Frame(self.panes)
        self.panes.add(self.step_frame, weight=3)
        self.bridge_frame = ttk.Frame(self.panes, width=BRIDGE_PANE_WIDTH)
        # The panel's tree is far wider than a side pane; it scrolls sideways instead.
        self.bridge_frame.pack_propagate(False)
        self.panes.add(self.bridge_frame, weight=1)
        self.bridge_panel = BridgePanel(self.bridge_frame, _SessionMonitor(session))
        self.bridge_panel.pack(fill=tk.BOTH, expand=True)
        self.bridge_panel.toggle_button.configure(command=self.toggle_bridge_panel)
        self.bridge_frame.bind("<Configure>", self._bridge_pane_resized)
        self._bridge_width = BRIDGE_PANE_WIDTH

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
        self._view_deactivated = False
        if self._shows_example:
            self._load_example_parameters(vehicle)
        table = ParameterTable(
            layout.content_frame,
            title=_("{vehicle}: step {step}").format(vehicle=vehicle, step=step.filename),
            description=step.why_now,
            on_open=self.open_parameter_file,
        )
        table.pack(fill=tk.BOTH, expand=True)
        table.show_entries(self._param_entries, self._param_source)
        self.step_files.show(vehicle, step.filename, self._param_entries)
        table.show_error(self._param_error)
        self.parameter_table = table
        if layout.plugin_frame is not None:
            _fit_scrollable_width(layout.plugin_frame)
        if not self.session.flight_controller.is_connected:
            self._deactivate_view()
        return True

    def _vehicle_selected(self, _event: object = None) -> None:
        if self.is_connecting:
            return
        self.show_receiver_step()

    def _load_example_parameters(self, vehicle: str) -> None:
        try:
            self._param_entries = read_example_receiver_params(vehicle)
            self._param_source = _("the bundled example {name}").format(
                name=example_receiver_param_file(vehicle)
            )
            self._param_error = None
        except (OSError, ParamFileError) as error:
            self._param_entries = ()
            self._param_error = str(error)

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
        self.load_parameter_file(str(path))

    def load_parameter_file(self, path: str) -> bool:
        try:
            entries = read_param_file(path)
        except ParamFileError as error:
            self._param_error = str(error)
            if self.parameter_table is not None:
                self.parameter_table.show_error(self._param_error)
            return False
        self._param_entries = entries
        self._param_source = path
        self._param_error = None
        self._shows_example = False
        if self.parameter_table is not None:
            self.parameter_table.show_entries(entries, path)
        if self._step is not None:
            self.step_files.show(self.vehicle, self._step.filename, entries)
        return True

    # ----------------------------------------------------------------- plugin view lifecycle

    def _deactivate_view(self) -> None:
        """Stop the view; its model restores the stream intervals on the link it requested them on."""
        view = self.host.active_view
        if view is None or self._view_deactivated:
            return
        self._view_deactivated = True
        self._guard(_("deactivate"), view.on_deactivate)

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

    def _activate_view(self) -> None:
        view = self.host.active_view
        if view is None or not self._view_deactivated:
            return
        self._view_deactivated = False
        self._guard(_("activate"), view.on_activate)

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
        attempt = _ConnectAttempt(self.session, device, baudrate, self._connect_timeout)
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
        self._activate_view()
        available = self.session.transmitter_available
        self.connection_bar.set_transmitter_available(available)
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

    def _disconnect_now(self) -> None:
        self._deactivate_view()
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
        """Collapse or expand the sidecar panel and give its width back to the receiver step."""
        panel = self.bridge_panel
        total = self.panes.winfo_width()
        if panel.expanded:
            with contextlib.suppress(tk.TclError):
                self._bridge_width = max(_MIN_PANE, total - int(self.panes.sashpos(0)))  # type: ignore[no-untyped-call]
        panel.toggle()
        self.root.update_idletasks()
        wanted = (
            self._bridge_width
            if panel.expanded
            else max(_MIN_PANE, panel.winfo_reqwidth() + _COLLAPSED_MARGIN)
        )
        if total > wanted:
            with contextlib.suppress(tk.TclError):
                self.panes.sashpos(0, total - wanted)  # type: ignore[no-untyped-call]

    def _bridge_pane_resized(self, event: tk.Event[tk.Misc]) -> None:
        # The panel's detail lines wrap at a fixed width made for a full-width panel; follow the pane.
        with contextlib.suppress(tk.TclError):
            self.bridge_panel.details.configure(wraplength=max(120, int(event.width) - 12))

    def add_bridges(self, specs: Sequence[BridgeSpec]) -> list[str]:
        """Start a relay per spec; the panel picks each up at once.  Failures go to the status line."""
        errors = [error for error in (self.session.add_bridge(spec) for spec in specs) if error]
        if errors:
            # A line of its own, so later connection messages do not hide it.
            self._bridge_errors.extend(errors)
            self.bridge_error_label.configure(text="\n".join(self._bridge_errors))
            if not self.bridge_error_label.winfo_manager():
                self.bridge_error_label.pack(fill=tk.X, padx=8, pady=(0, 4), before=self.panes)
        return errors

    # ----------------------------------------------------------------- status and closing

    def show_status(self, text: str, *, error: bool = False) -> None:
        self.connection_bar.show_status(text, error=error)

    def close(self) -> None:
        """Leave the step (deactivate, destroy), stop the session and destroy the window; idempotent."""
        if self._closed:
            return
        self._closed = True
        for after_id in (self._attempt_after_id,):
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


def _fit_scrollable_width(frame: tk.Misc) -> None:
    """Widen scrollable areas in ``frame`` to their content, so the plugin is not cut off on the right.

    A scrollable frame's canvas asks for a fixed default width whatever its content needs; the
    plugin column of the step layout takes only what its child asks for.
    """
    frame.update_idletasks()
    pending: list[tk.Misc] = [frame]
    while pending:
        widget = pending.pop()
        if isinstance(widget, ScrollableFrame):
            needed = widget.interior.winfo_reqwidth()
            if needed > widget.canvas.winfo_reqwidth():
                widget.canvas.configure(width=needed)
            continue
        pending.extend(widget.winfo_children())


def initial_geometry(root: tk.Misc) -> str:
    """The default window size, shrunk to fit a small screen (e.g. a 1366x768 laptop)."""
    width, height = (int(part) for part in DEFAULT_GEOMETRY.split("x"))
    width = max(640, min(width, root.winfo_screenwidth() - 40))
    height = max(480, min(height, root.winfo_screenheight() - 80))
    return f"{width}x{height}"


# --------------------------------------------------------------------------- entry point


def run_window(
    *,
    device: str | None = None,
    baudrate: int = DEFAULT_BAUDRATE,
    demo: bool = False,
    bridges: Sequence[BridgeSpec] = (),
    duration: float | None = None,
    transmitter_off_after: float | None = None,
    transmitter_off_for: float | None = 1.5,
    sitl: SitlConfig | None = None,
    connect_timeout: float = CONNECT_TIMEOUT_S,
    demo_choice: DemoChoice | None = None,
) -> int:
    """Run the window until it is closed (or ``duration`` s pass); returns the exit code.

    Without a usable display the same session runs in the terminal view instead.  With ``sitl``
    the session first starts that SITL and the window connects to it.
    """
    session = CheckSession(demo_choice=demo_choice)
    if sitl is not None:
        error = session.start_sitl(sitl)
        if error or session.sitl is None:
            print(error, file=sys.stderr)
            session.close()
            return 1
        device = session.sitl.device
    try:
        root = tk.Tk()
    except tk.TclError as error:
        print(
            _("Cannot open a window ({error}); showing the terminal view instead.").format(error=error),
            file=sys.stderr,
        )
        try:
            return run_text_session(
                session,
                device=DEMO_DEVICE if demo else device,
                baudrate=baudrate,
                bridges=bridges,
                duration=duration,
                schedule=TransmitterSchedule(transmitter_off_after, transmitter_off_for),
                timeout=connect_timeout,
            )
        finally:
            session.close()
    window: StandaloneWindow | None = None
    support: SitlWindowSupport | None = None
    try:
        root.geometry(initial_geometry(root))
        window = StandaloneWindow(
            root,
            session,
            device=DEMO_DEVICE if demo else device,
            baudrate=baudrate,
            connect_timeout=connect_timeout,
        )
        # A window started on the program's own vehicle runs the transmitter test by itself.
        window.automatic_transmitter_test = demo or sitl is not None
        support = SitlWindowSupport(root, window, baudrate=baudrate, before=window.panes)
        window.set_transmitter_schedule(transmitter_off_after, transmitter_off_for)
        if demo:
            window.connect(DEMO_DEVICE, baudrate)
        elif device:
            window.connect(device, baudrate)
        window.add_bridges(bridges)
        if duration is not None:
            root.after(int(duration * 1000), window.close)
        root.mainloop()
    finally:
        if support is not None:
            support.close()
        if window is not None:
            window.close()
        else:
            session.close()
            with contextlib.suppress(tk.TclError):
                root.destroy()
    return 0
