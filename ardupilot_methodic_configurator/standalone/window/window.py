# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The `amc-rc-receiver` window: connection bar, the receiver step with its plugin, the bridge panel.

The window is a thin shell around one `VehicleSession`: a `PluginHost` shows the receiver step of
the chosen vehicle (`window.receiver_step`), and the `BridgePanel` strip below follows whatever
monitor the session currently has: it stays one line while the session has only its own link (the
demo's or SITL's) and opens when the person adds a bridge, unless the person chose otherwise.  The
blocking connect runs in a worker thread (`background`) that the Tk thread only polls with
``after()``; while it runs the plugin view is paused through the host, so nothing reads the link
mid-swap.  The plugin view runs exactly while a vehicle is connected: the window stops and starts
it through the host, whose state machine is the only record of where the view is.  The window
follows its link through reboots and unplugging with the `ViewLinkFollower` it ticks, and lends
the program's own transmitter to the guide through `window.transmitter_switch`.  The widgets are
built by `window.layout`, sized by `window.geometry`; `window.app` runs the program.
"""

from __future__ import annotations

import contextlib
import gc
import tkinter as tk
from collections.abc import Callable, Iterable, Sequence
from tkinter import filedialog
from typing import Any

from ... import _
from ...host.configuration_steps import ConfigurationStep, available_vehicles
from ...host.param_file import StepFiles
from ...host.parameter_table import ParameterTable
from ...host.plugin_host import PluginHost
from ...plugins.plugin_constants import PLUGIN_RC_RECEIVER
from ...plugins.plugin_factory import PluginFactory, plugin_factory
from ...plugins.plugin_protocol import PluginPauseReason
from ...plugins.rc_receiver.firmware import VehicleFamily, family_of_vehicle
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
from ..link_follower import ViewLinkFollower
from ..options import DEMO_DEVICE
from ..port_watch import PortWatch
from ..session import VehicleSession
from .background import ConnectAttempt
from .connection_bar import DEFAULT_BAUDRATE, ConnectionBar, ConnectionState
from .layout import DEFAULT_VEHICLE, build_window_layout
from .receiver_step import ReceiverStepPane
from .transmitter_switch import TransmitterSwitch
from .vehicle_choice import VehicleChoice

CONNECT_TIMEOUT_S = 5.0
CONNECT_POLL_MS = 50
# A connect that ignores its own timeout must not keep a closing window alive for ever.
CLOSE_JOIN_GRACE_S = 2.0
# How often the Tk thread takes the port watch's latest list (the watch itself looks every second).
PORTS_TICK_MS = 500
# How often the link follower looks for a lost link: a reboot is said within a quarter second.
FOLLOW_TICK_MS = 250


class _SessionMonitor:
    """Polls the session's monitor, which gains and loses links as relays start and stop.

    The connect worker (starting the demo) and ``add_bridges`` on the Tk thread may change the
    session's relays at the same moment; the session serialises that and never replaces its
    monitor, so no link vanishes and no link's statistics restart.
    """

    def __init__(self, session: VehicleSession) -> None:
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
        session: VehicleSession,
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
        self._closed = False

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
        # The connected vehicle's steps are shown until the person picks a vehicle.
        self.vehicle_choice = VehicleChoice(available_vehicles())
        self.vehicle_combobox = layout.vehicle_combobox
        self.connection_bar = layout.connection_bar
        self.bridge_error_label = layout.bridge_error_label
        self._bridge_errors: list[str] = []
        self.step_frame = layout.step_frame
        self.bridge_frame = layout.bridge_frame
        self.bridge_panel = layout.bridge_panel

        ensure_rc_receiver_plugin(factory)
        # The step's parameter file for the plugin's comparison, under the names 5.0.1 uses.
        step_files = StepFiles()
        # With --demo or --sitl the guide switches the program's own transmitter (run_window).
        self.automatic_transmitter_test = False
        self.transmitter = TransmitterSwitch(self, self._guard)
        self.host = PluginHost(
            self.step_frame,
            session.flight_controller,
            factory=factory,
            on_error=self._plugin_error,
            local_filesystem=step_files,
            parameter_editor=step_files,
        )
        self.receiver_step = ReceiverStepPane(self, step_files)
        self.receiver_step.show()
        self.bridge_panel.on_activate()
        # The device list follows boards being plugged in and removed (the session's port list,
        # which includes a --sitl serial line, read on the watch's own thread).
        self.port_watch = PortWatch(port_lister if port_lister is not None else session.list_ports)
        self._ports_generation = -1
        self.port_watch.start()
        self._ports_timer = TickTimer(root, PORTS_TICK_MS, self._refresh_bar)
        self._ports_timer.start()
        # Every link the window connects is followed, a board's or SITL's.
        self.link_follower = ViewLinkFollower(self, baudrate=baudrate)
        self._follow_timer = TickTimer(root, FOLLOW_TICK_MS, self._follow)
        self._follow_timer.start()

    def _refresh_bar(self) -> None:
        self.refresh_ports()
        self.connection_bar.show_earlier_tests(len(self.session.previous_tests), self.session.dropped_tests)

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
        return self.receiver_step.step

    @property
    def parameter_table(self) -> ParameterTable | None:
        return self.receiver_step.parameter_table

    @property
    def is_reading_file(self) -> bool:
        return self.receiver_step.is_reading_file

    @property
    def status_text(self) -> str:
        return self.connection_bar.status_text

    @property
    def disconnected(self) -> bool:
        return self.connection_bar.connection_state is ConnectionState.DISCONNECTED

    # ----------------------------------------------------------------- the receiver step

    def _vehicle_selected(self, _event: object = None) -> None:
        if self.is_connecting:
            return
        self.vehicle_choice.person_chose()
        if self.receiver_step.show() and self.session.flight_controller.is_connected:
            self._start_check()

    def _follow(self) -> None:
        self.link_follower.tick()
        self._follow_vehicle_of_check()

    def _follow_vehicle_of_check(self) -> None:
        """Show the vehicle the check found, once its banner tells more than the HEARTBEAT did (a
        helicopter that reports a multirotor type)."""
        if self._closed or self.is_connecting or not self.session.flight_controller.is_connected:
            return
        state = getattr(self.host.active_model, "state", None)
        if not isinstance(state, RCReceiverState) or state.guided.mav_type is None:
            return  # the family would be the window's own vehicle, not the connected one
        if self._show_connected_vehicle(state.guided.family):
            self._start_check()

    def _show_connected_vehicle(self, family: VehicleFamily) -> bool:
        """Show the receiver step of a connected vehicle of ``family`` unless the person chose one."""
        name = self.vehicle_choice.follow(self.vehicle, family)
        if name is None:
            return False
        self.vehicle_var.set(name)
        return self.receiver_step.show()

    # ----------------------------------------------------------------- reports of earlier tests

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
        # As the methodic configurator does: the vehicle's steps follow its HEARTBEAT type.
        self._show_connected_vehicle(family_of_vehicle(info.vehicle_type))
        self._start_check()

    def _start_check(self) -> None:
        """Run the check on the connected link, lending it the program's transmitter if there is one."""
        self.host.start_view()
        available = self.session.transmitter_available
        self.connection_bar.set_transmitter_available(available)
        # Nobody but the program can move the simulated transmitter's sticks; a person moves theirs.
        transmitter = self.transmitter
        self._guard(_("move the simulated sticks"), lambda: transmitter.let_the_guide_move_sticks(available))
        if available:
            self.connection_bar.show_transmitter(self.session.transmitter_on)
            transmitter.start_schedule()
            if self.automatic_transmitter_test and not transmitter.scheduled:
                self._guard(_("run the transmitter test"), transmitter.let_the_guide_switch)

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
        # One sentence per link event: the bar's; the view does not say it again.
        told = getattr(self.host.active_view, "link_told_by_host", None)
        if callable(told):
            self._guard(_("show the link event"), told)
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
        self.transmitter.cancel_schedule()
        self.connection_bar.set_transmitter_available(False)
        self._show_idle_state()

    # ----------------------------------------------------------------- the program's transmitter

    def set_transmitter_on(self, on: bool) -> None:
        """Switch the simulated transmitter (the demo only) and show the switch's new position."""
        self.transmitter.set_on(on)

    def set_transmitter_schedule(self, off_after: float | None, off_for: float | None = 1.5) -> None:
        """Once the demo is connected: transmitter off after ``off_after`` s, on again ``off_for`` s later."""
        self.transmitter.set_schedule(off_after, off_for)

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

    def show_status(self, text: str, *, error: bool = False, ok: bool = False) -> None:
        self.connection_bar.show_status(text, error=error, ok=ok)

    def close(self) -> None:
        """Leave the step (deactivate, destroy), stop the session and destroy the window; idempotent."""
        if self._closed:
            return
        self._closed = True
        self._ports_timer.close()
        self._follow_timer.close()
        self.port_watch.stop()
        if self._attempt_after_id is not None:
            with contextlib.suppress(tk.TclError):
                self.root.after_cancel(self._attempt_after_id)
        self.receiver_step.close()
        self.transmitter.cancel_schedule()
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
