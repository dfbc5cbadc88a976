# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Drives the real objects of an installed ArduPilot Methodic Configurator, on command.

Runs with the Python of a methodic configurator environment (the release or our overlay of it),
never with ours: it imports only ``ardupilot_methodic_configurator``, pymavlink and the standard
library.  The test process sends one JSON object per line on stdin (``{"op": "connect", ...}``)
and reads one JSON reply per line on stdout (``{"ok": true, ...}`` or ``{"ok": false,
"error": ...}``); logging goes to stderr.  Every reply carries ``bytes_sent``, the number of bytes
the ground station has written to the flight controller so far (pymavlink's own counter), so
the test can split what its recording proxy saw into phases at exact byte offsets.

Nothing here replaces a part of the methodic configurator: the flight controller, the local
filesystem, the parameter editor, its window and the plugin factory are the real ones.  The
driver only stands in for the user (it answers dialogs "no", offline) and watches: it keeps a
reference to the plugin model the editor creates and times every call the window's plugin view
makes into it on the Tk thread.
"""

from __future__ import annotations

import _tkinter
import contextlib
import hashlib
import json
import logging
import select
import sys
import threading
import time
import tkinter as tk
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

PLUGIN = "rc_receiver"
# Our model's calls, and 5.0.1's own model's (get_receiver_state / stop_monitoring) for comparison.
_TIMED_MODEL_CALLS = (
    "poll",
    "activate",
    "deactivate",
    "suspend",
    "resume",
    "get_receiver_state",
    "stop_monitoring",
)


def _file_digest(module_name: str) -> dict[str, str]:
    module = sys.modules[module_name]
    path = Path(str(module.__file__))
    return {"module": module_name, "file": str(path), "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}


def _enum_name(value: object) -> object:
    return getattr(value, "name", value)


def _class_path(value: object) -> str:
    kind = type(value)
    return f"{kind.__module__}.{kind.__qualname__}"


def _host_widgets(view: Any) -> dict[str, Any]:
    """Which classes the view's scroll frame and tooltips are, and whether its content is in the frame."""
    scrolling = getattr(view, "scrolling", None)
    tooltips = dict(getattr(view, "tooltips", {}))
    rows = getattr(view, "channel_rows", ())
    port = getattr(scrolling, "view_port", None)
    return {
        "scroll_frame": None if scrolling is None else _class_path(scrolling),
        "content_in_view_port": bool(rows and port is not None and str(rows[0].bar).startswith(str(port))),
        "tooltips": {name: _class_path(tip) for name, tip in tooltips.items()},
        "tooltip_texts": {name: getattr(tip, "text", None) for name, tip in tooltips.items()},
    }


def _state_summary(state: Any) -> dict[str, Any]:
    """The snapshot fields of our model's state (upstream's model has another shape: reported raw)."""
    if state is None:
        return {}
    if not hasattr(state, "interval_requests"):
        return {"repr": repr(state)}
    return {
        "channels": [reading.pwm for reading in state.channels],
        "rssi": state.rssi,
        "receiver_present": state.receiver_present,
        "failsafe": _enum_name(state.failsafe),
        "rc_channels_live": state.rc_channels_live,
        "sys_status_live": state.sys_status_live,
        "rc_channels_rate_hz": state.rc_channels_rate_hz,
        "sys_status_rate_hz": state.sys_status_rate_hz,
        "connected": state.connected,
        "active": state.active,
        "link_error": state.link_error,
        "requests": [
            {
                "message": request.message_name,
                "outcome": _enum_name(request.outcome),
                "reason": request.reason,
            }
            for request in state.interval_requests
        ],
        # The firmware the check goes by (5.0.1's own info inside it), the failsafe rule that uses
        # it, and ArduPilot's own pre-arm answers.
        "firmware": state.guided.firmware,
        "failsafe_timeout": [
            f.message for f in state.guided.findings if f.code.startswith("failsafe_timeout")
        ],
        "prearm": [
            {"moment": a.moment.value, "outcome": a.outcome, "complete": a.complete}
            for a in state.guided.prearm
        ],
    }


class _HeadlessUser:
    """Answers every dialog of the editor without a modal window: "no", nothing chosen, offline."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    def install(self, services: Any) -> Any:
        services.ask_yesno = self._answer_no
        services.ask_retry_cancel = self._answer_no
        services.show_warning = self._note
        services.show_error = self._note
        services.show_info = self._note
        services.asksaveasfilename = lambda *_args, **_kwargs: ""
        services.askopenfilename = lambda *_args, **_kwargs: ""
        services.askdirectory = lambda *_args, **_kwargs: ""
        services.askstring = lambda *_args, **_kwargs: None
        services.sys_exit = lambda code: self.messages.append(f"exit {code}")
        services.load_apm_doc = lambda *_args: None  # the ArduPilot documentation server is not reachable
        return services

    def _answer_no(self, title: str, message: str) -> bool:
        self.messages.append(f"{title}: {message}")
        return False

    def _note(self, title: str, message: str) -> None:
        self.messages.append(f"{title}: {message}")


class WaitWatch:
    """Time spent waiting (``time.sleep``, ``select.select`` with a timeout other than 0: how
    pymavlink waits for a message) inside a watched call, on the thread that made it.

    A call that waits for the vehicle waits there; a call that is merely slow on a loaded machine
    (its process not scheduled) does not, so this, not the call's wall time, tells a wait.
    """

    def __init__(self) -> None:
        self._open: dict[int, list[float]] = {}
        sleep, select_ = time.sleep, select.select

        def watched_sleep(seconds: float) -> None:
            started = time.perf_counter()
            try:
                sleep(seconds)
            finally:
                self._note(time.perf_counter() - started)

        def watched_select(read: Any, write: Any, error: Any, timeout: float | None = None) -> Any:
            if timeout == 0:
                return select_(read, write, error, timeout)
            started = time.perf_counter()
            try:
                return select_(read, write, error, timeout)
            finally:
                self._note(time.perf_counter() - started)

        time.sleep = watched_sleep  # type: ignore[assignment]
        select.select = watched_select  # type: ignore[assignment]

    def _note(self, seconds: float) -> None:
        waits = self._open.get(threading.get_ident())
        if waits is not None:
            waits[0] += seconds

    @contextlib.contextmanager
    def measuring(self, record: Callable[[float, float], None]) -> Any:
        """Hands ``record`` the ``with`` block's wall time and the seconds it waited, however it ends."""
        started = time.perf_counter()
        waits = self._open[threading.get_ident()] = [0.0]
        try:
            yield
        finally:
            self._open.pop(threading.get_ident(), None)
            record(time.perf_counter() - started, waits[0])


class Session:
    """The objects one test works with, kept between commands."""

    def __init__(self) -> None:
        self.flight_controller: Any = None
        self.filesystem: Any = None
        self.editor: Any = None
        self.window: Any = None
        self.root: tk.Tk | None = None
        self.model: Any = None
        self.models: list[Any] = []
        self.user = _HeadlessUser()
        # (wall seconds, seconds waited) of every timed call and lifecycle step
        self.call_times: dict[str, list[tuple[float, float]]] = {name: [] for name in _TIMED_MODEL_CALLS}
        self.lifecycle_times: dict[str, tuple[float, float]] = {}
        self.waits = WaitWatch()
        self.resume_callback: Callable[[], None] | None = None

    # ----------------------------------------------------------------- helpers

    def bytes_sent(self) -> int:
        master = getattr(self.flight_controller, "master", None)
        return int(getattr(getattr(master, "mav", None), "total_bytes_sent", 0) or 0)

    def _watch_model(self, model: Any) -> Any:
        """Time every call into ``model`` (on the instance: the class and its code stay as they are)."""
        for name in _TIMED_MODEL_CALLS:
            method = getattr(model, name, None)
            if method is None:
                continue

            def timed(*args: Any, _method: Any = method, _name: str = name, **kwargs: Any) -> Any:
                with self.waits.measuring(
                    lambda seconds, waited: self.call_times[_name].append((seconds, waited))
                ):
                    return _method(*args, **kwargs)

            setattr(model, name, timed)
        self.model = model
        self.models.append(model)
        return model

    def _timed(self, label: str, action: Callable[[], Any]) -> Any:
        with self.waits.measuring(
            lambda seconds, waited: self.lifecycle_times.__setitem__(label, (seconds, waited))
        ):
            return action()

    def _pump(self, seconds: float, until: Callable[[], bool] | None = None) -> dict[str, Any]:
        """Run the Tk event loop for ``seconds`` (or until ``until()``), timing every single event."""
        assert self.root is not None
        longest, events = 0.0, 0
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not (until is not None and until()):
            started = time.perf_counter()
            handled = self.root.tk.dooneevent(_tkinter.DONT_WAIT)
            if handled:
                events += 1
                longest = max(longest, time.perf_counter() - started)
            else:
                time.sleep(0.005)
        return {"events": events, "longest_event_s": longest, "condition_met": until() if until else None}

    def view_summary(self) -> dict[str, Any]:
        view = getattr(self.window, "current_plugin_view", None) if self.window is not None else None
        summary: dict[str, Any] = {"view": None}
        if view is not None:
            view_type = type(view)
            summary["view"] = {
                "class": f"{view_type.__module__}.{view_type.__qualname__}",
                "mapped": bool(view.winfo_ismapped()),
                "width": int(view.winfo_width()),
                "height": int(view.winfo_height()),
                "active": getattr(view, "active", None),
                "suspended": getattr(view, "suspended", None),
                "channel_texts": [row.text for row in getattr(view, "channel_rows", ())],
                "host_widgets": _host_widgets(view),
            }
        return summary

    def model_state(self) -> dict[str, Any]:
        if self.model is None:
            return {}
        return _state_summary(getattr(self.model, "state", None))

    def timing(self) -> dict[str, Any]:
        return {
            "calls": {
                name: {
                    "count": len(times),
                    "max_s": max((seconds for seconds, _waited in times), default=0.0),
                    "max_wait_s": max((waited for _seconds, waited in times), default=0.0),
                }
                for name, times in self.call_times.items()
            },
            "lifecycle_s": {label: seconds for label, (seconds, _waited) in self.lifecycle_times.items()},
            "lifecycle_wait_s": {label: waited for label, (_seconds, waited) in self.lifecycle_times.items()},
        }

    # ----------------------------------------------------------------- commands

    def op_register(self, _request: dict[str, Any]) -> dict[str, Any]:
        """5.0.1's own registration, then one view built by ``plugin_factory.create``."""
        from ardupilot_methodic_configurator.__main__ import register_plugins
        from ardupilot_methodic_configurator.backend_flightcontroller import FlightController
        from ardupilot_methodic_configurator.plugins.plugin_constants import PLUGIN_RC_RECEIVER
        from ardupilot_methodic_configurator.plugins.plugin_factory import PluginModelContext, plugin_factory

        register_plugins()
        self.flight_controller = FlightController()  # not connected: the model waits for a connection
        model = self._watch_model(
            # the receiver model needs only the flight controller from its context
            plugin_factory.create_model(
                PLUGIN_RC_RECEIVER, PluginModelContext(self.flight_controller, None, None)
            )
        )
        # Not the suite's root fixture: this runs inside the methodic configurator 5.0.1's own
        # interpreter (a driver process without pytest), where the root stands for 5.0.1's window.
        self.root = tk.Tk()
        frame = tk.Frame(self.root)
        frame.pack(fill="both", expand=True)
        view = plugin_factory.create(PLUGIN_RC_RECEIVER, frame, model, None)
        view_type = type(view)
        model_type = type(model)
        reply = {
            "plugins": plugin_factory.available_plugins(),
            "requires_flight_controller": plugin_factory.requires_flight_controller(PLUGIN_RC_RECEIVER),
            "view_class": f"{view_type.__module__}.{view_type.__qualname__}",
            "model_class": f"{model_type.__module__}.{model_type.__qualname__}",
            "view_module": _file_digest(view_type.__module__),
            "model_module": _file_digest(model_type.__module__),
            "plugin_modules": sorted(
                name for name in sys.modules if name.startswith("ardupilot_methodic_configurator.plugins.")
            ),
        }
        destroy = getattr(view, "destroy", None)
        if callable(destroy):
            destroy()
        self.root.destroy()
        self.root = None
        return reply

    def op_connect(self, request: dict[str, Any]) -> dict[str, Any]:
        """``FlightController.connect()`` exactly as the application's connection dialog calls it."""
        from ardupilot_methodic_configurator.backend_flightcontroller import FlightController

        if self.flight_controller is None:
            self.flight_controller = FlightController()
        started = time.monotonic()
        error = self.flight_controller.connect(request["device"])
        info = self.flight_controller.info
        return {
            "error": error,
            "seconds": time.monotonic() - started,
            "system_id": info.system_id,
            "component_id": info.component_id,
            "vehicle_type": getattr(info, "vehicle_type", ""),
            "firmware": getattr(info, "flight_sw_version_and_type", ""),
        }

    def op_download_params(self, _request: dict[str, Any]) -> dict[str, Any]:
        params, _defaults = self.flight_controller.download_params()
        return {"count": len(params), "has_rc_protocols": "RC_PROTOCOLS" in params}

    def op_parameter_editor(self, request: dict[str, Any]) -> dict[str, Any]:
        """A real LocalFilesystem on a vehicle folder and a real ParameterEditor on one of its steps."""
        from ardupilot_methodic_configurator.backend_filesystem import LocalFilesystem
        from ardupilot_methodic_configurator.data_model_parameter_editor import ParameterEditor

        from ardupilot_methodic_configurator.__main__ import register_plugins
        from ardupilot_methodic_configurator.plugins.plugin_factory import plugin_factory

        if not plugin_factory.available_plugins():
            register_plugins()  # as the application's main() does before any window

        # No explicit firmware version: the project's own (vehicle_components.json) is used with the
        # apm.pdef.xml the template ships, so nothing is downloaded from the ArduPilot servers.
        self.filesystem = LocalFilesystem(request["vehicle_dir"], request["vehicle_type"], "", False, False)
        self.editor = ParameterEditor(request["file"], self.flight_controller, self.filesystem)
        original = self.editor.create_plugin_data_model

        def create_and_watch(plugin_name: str) -> object | None:  # keeps a reference; the editor's code runs
            model: object | None = original(plugin_name)
            if model is not None and plugin_name == PLUGIN:
                self._watch_model(model)
            return model

        self.editor.create_plugin_data_model = create_and_watch
        return {
            "is_fc_connected": self.editor.is_fc_connected,
            "plugin": self.editor.get_plugin(request["file"]),
        }

    def op_create_model(self, _request: dict[str, Any]) -> dict[str, Any]:
        model = self.editor.create_plugin_data_model(PLUGIN)
        model_type = type(model)
        return {
            "model_class": f"{model_type.__module__}.{model_type.__qualname__}",
            "module": _file_digest(model_type.__module__),
        }

    def op_poll(self, request: dict[str, Any]) -> dict[str, Any]:
        """Activate the model (once) and poll it every 100 ms, as the view's timer does."""
        model = self.model
        if not model.active:
            model.activate()
        until = request.get("until")
        deadline = time.monotonic() + float(request.get("seconds", 1.0))
        polls = 0
        while time.monotonic() < deadline:
            state = model.poll()
            polls += 1
            if (
                until == "live"
                and state.rc_channels_live
                and state.sys_status_live
                and all(reading.pwm is not None for reading in state.channels)
            ):
                break
            if (
                until == "settled"
                and state.interval_requests
                and all(
                    _enum_name(request.outcome) not in ("PENDING", "NOT_REQUESTED")
                    for request in state.interval_requests
                )
            ):
                break
            time.sleep(0.1)
        return {"polls": polls, "state": self.model_state()}

    def op_poll_watching_opens(self, request: dict[str, Any]) -> dict[str, Any]:
        """Poll the model for ``seconds`` while counting every attempt to open a link: a socket
        connect, a serial port open, a pymavlink connection; and say whether 5.0.1's
        flight controller still holds the same connection object."""
        import socket

        import serial
        from pymavlink import mavutil

        opened: list[str] = []
        originals = (
            socket.socket.connect,
            socket.socket.connect_ex,
            serial.Serial.open,
            mavutil.mavlink_connection,
        )

        def counting(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
            def call(*args: Any, **kwargs: Any) -> Any:
                frames = reversed(traceback.extract_stack(limit=8)[:-1])
                opened.append(" < ".join([name, *(f"{Path(f.filename).name}:{f.name}" for f in frames)]))
                return original(*args, **kwargs)

            return call

        master = getattr(self.flight_controller, "master", None)
        host_autoreconnect = bool(getattr(master, "autoreconnect", False))
        if "autoreconnect" in request and master is not None:
            # The host's own setting of its connection, which pymavlink acts on inside any read.
            master.autoreconnect = bool(request["autoreconnect"])
        socket.socket.connect = counting("socket.connect", originals[0])  # type: ignore[method-assign]
        socket.socket.connect_ex = counting("socket.connect_ex", originals[1])  # type: ignore[method-assign]
        serial.Serial.open = counting("serial.open", originals[2])  # type: ignore[method-assign]
        mavutil.mavlink_connection = counting("mavlink_connection", originals[3])
        try:
            # pymavlink prints "EOF on TCP socket" for 5.0.1's connection: to the log, not to the
            # reply channel.
            with contextlib.redirect_stdout(sys.stderr):
                reply = self.op_poll(request)
        finally:
            socket.socket.connect, socket.socket.connect_ex = originals[0], originals[1]  # type: ignore[method-assign]
            serial.Serial.open = originals[2]  # type: ignore[method-assign]
            mavutil.mavlink_connection = originals[3]
        return {
            **reply,
            "opened": opened,
            "same_master": getattr(self.flight_controller, "master", None) is master,
            "master_portdead": bool(getattr(master, "portdead", False)),
            "host_autoreconnect": host_autoreconnect,
        }

    def op_poll_upstream(self, request: dict[str, Any]) -> dict[str, Any]:
        """5.0.1's own model, polled the way its own view does (``get_receiver_state`` every 100 ms)."""
        deadline = time.monotonic() + float(request.get("seconds", 1.0))
        polls = 0
        while time.monotonic() < deadline:
            self.model.get_receiver_state()
            polls += 1
            time.sleep(0.1)
        return {"polls": polls}

    def op_model_deactivate(self, _request: dict[str, Any]) -> dict[str, Any]:
        self.model.deactivate()
        return {"state": self.model_state()}

    def op_window(self, request: dict[str, Any]) -> dict[str, Any]:
        """The real ParameterEditorWindow; its own start-up selects the step and loads the plugin."""
        from ardupilot_methodic_configurator.backend_filesystem_program_settings import ProgramSettings
        from ardupilot_methodic_configurator.frontend_tkinter_parameter_editor import (
            ParameterEditorUiServices,
            ParameterEditorWindow,
        )

        # The first-use explanation is a window of its own; a returning user has switched it off.
        ProgramSettings.set_display_usage_popup("parameter_editor", False)
        services = self.user.install(ParameterEditorUiServices.default())
        self.window = self._timed("window", lambda: ParameterEditorWindow(self.editor, services))
        self.root = self.window.root
        if request.get("geometry"):
            self.root.geometry(request["geometry"])
        pumped = self._pump(
            float(request.get("seconds", 30.0)), until=lambda: self.window.current_plugin_view is not None
        )
        # let the layout settle so sizes are real
        pumped_more = self._pump(float(request.get("settle_s", 1.0)))
        return {"pump": pumped, "settle": pumped_more, "dialogs": self.user.messages, **self.view_summary()}

    def op_load_plugin(self, _request: dict[str, Any]) -> dict[str, Any]:
        """``_load_plugin`` called directly into the window's left pane, as ``_swap_plugin_in_place`` does."""
        window = self.window
        window._deactivate_plugin_view()
        panes = window.parameter_area_paned.panes()
        parent = window.parameter_area_paned.nametowidget(panes[0])
        for child in parent.winfo_children():
            child.destroy()
        self._timed("load_plugin", lambda: window._load_plugin(parent, {"name": PLUGIN, "placement": "left"}))
        view = window.current_plugin_view
        pumped = self._pump(
            float(_request.get("seconds", 30.0)), until=lambda: bool(view and view.winfo_ismapped())
        )
        return {"pump": pumped, **self.view_summary()}

    def op_pump(self, request: dict[str, Any]) -> dict[str, Any]:
        until_name = request.get("until")
        until = None
        if until_name == "live":

            def until() -> bool:
                state = getattr(self.model, "state", None)
                return bool(
                    state is not None
                    and state.rc_channels_live
                    and state.sys_status_live
                    and all(reading.pwm is not None for reading in state.channels)
                )

        elif until_name == "settled":

            def until() -> bool:
                state = getattr(self.model, "state", None)
                return bool(
                    state is not None
                    and state.interval_requests
                    and all(
                        _enum_name(r.outcome) not in ("PENDING", "NOT_REQUESTED")
                        for r in state.interval_requests
                    )
                )

        pumped = self._pump(float(request.get("seconds", 1.0)), until=until)
        return {"pump": pumped, "state": self.model_state(), **self.view_summary()}

    def op_pause(self, request: dict[str, Any]) -> dict[str, Any]:
        from ardupilot_methodic_configurator.plugins.plugin_protocol import PluginPauseReason

        window = self.window
        if request.get("via") == "connection_recovery":
            # The callback 5.0.1's ConnectionRecovery gets as ``pause_receiver`` (RecoveryCallbacks).
            self.resume_callback = self._timed("pause_connection_recovery", window._pause_connection_plugin)
        else:
            reason = PluginPauseReason[request["reason"]]
            self.resume_callback = self._timed(
                f"pause_{reason.name}",
                lambda: window._pause_plugin_receiver(reason=reason),
            )
        return {"state": self.model_state(), **self.view_summary()}

    def op_resume(self, _request: dict[str, Any]) -> dict[str, Any]:
        callback, self.resume_callback = self.resume_callback, None
        assert callback is not None, "resume without pause"
        self._timed("resume", callback)
        return {"state": self.model_state(), **self.view_summary()}

    def op_deactivate_view(self, _request: dict[str, Any]) -> dict[str, Any]:
        self._timed("deactivate_view", self.window._deactivate_plugin_view)
        return {"state": self.model_state(), **self.view_summary()}

    def op_screenshot(self, request: dict[str, Any]) -> dict[str, Any]:
        """The editor window as a PNG (Pillow's X11 grab of the window's screen area)."""
        from PIL import ImageGrab

        assert self.root is not None
        self._pump(float(request.get("settle_s", 0.5)))
        self.root.lift()
        self.root.update()
        x, y = self.root.winfo_rootx(), self.root.winfo_rooty()
        width, height = self.root.winfo_width(), self.root.winfo_height()
        image = ImageGrab.grab(bbox=(x, y, x + width, y + height), xdisplay=None)
        image.save(request["path"])
        return {"size": [width, height]}

    def op_state(self, _request: dict[str, Any]) -> dict[str, Any]:
        return {"state": self.model_state(), "timing": self.timing(), **self.view_summary()}

    def op_disconnect(self, _request: dict[str, Any]) -> dict[str, Any]:
        if self.flight_controller is not None:
            self.flight_controller.disconnect()
        return {}

    def op_close_window(self, _request: dict[str, Any]) -> dict[str, Any]:
        if self.window is not None:
            window, self.window = self.window, None
            window._deactivate_plugin_view()
            window.root.destroy()
            self.root = None
        return {}


def main() -> int:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="driver %(levelname)s %(message)s")
    session = Session()
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        op = request.get("op")
        if op == "quit":
            break
        handler = getattr(session, f"op_{op}", None)
        try:
            if handler is None:
                raise ValueError(f"unknown op {op!r}")
            reply = {"ok": True, **handler(request)}
        except Exception as error:  # reported to the test, which fails with the traceback
            reply = {
                "ok": False,
                "error": f"{type(error).__name__}: {error}",
                "traceback": traceback.format_exc(),
            }
        reply["bytes_sent"] = session.bytes_sent()
        reply["timing"] = session.timing()
        sys.stdout.write(json.dumps(reply, default=str) + "\n")
        sys.stdout.flush()
    session.op_close_window({})
    session.op_disconnect({})
    return 0


if __name__ == "__main__":
    sys.exit(main())
