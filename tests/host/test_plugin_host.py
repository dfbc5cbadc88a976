# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Behaviour of the plugin host on real Tk widgets: layout, lifecycle, file-browser pauses, faults.

The views are small real ttk frames defined here that record every lifecycle call; models are
built by a real PluginFactory from the PluginModelContext the host supplies.  The file browser
is simulated by a real Toplevel that is opened and destroyed.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable
from dataclasses import replace
from tkinter import ttk

import pytest

from amc_rc_receiver.backend_flightcontroller import FlightController
from amc_rc_receiver.host.configuration_steps import (
    ConfigurationStep,
    StepPlugin,
    load_configuration_steps,
)
from amc_rc_receiver.host.plugin_host import PluginHost, ViewState
from amc_rc_receiver.plugins.plugin_constants import PLUGIN_RC_RECEIVER
from amc_rc_receiver.plugins.plugin_factory import PluginFactory, PluginModelContext
from amc_rc_receiver.plugins.plugin_protocol import PluginPauseReason

pytestmark = pytest.mark.tk

RECEIVER_STEP = "05_remote_controller_receiver.param"  # ArduCopter, as in the methodic configurator 5.0.1


class RecordingModel:
    """A model that keeps the context it was built from."""

    def __init__(self, context: PluginModelContext) -> None:
        self.context = context


class LegacyView(ttk.Frame):
    """A plugin view with only the basic lifecycle; records each call."""

    def __init__(self, parent: tk.Misc, model: object, base_window: object) -> None:
        super().__init__(parent, width=180, height=120)
        self.model = model
        self.base_window = base_window
        self.calls: list[str] = []
        ttk.Label(self, text="receiver check").pack()

    def on_activate(self) -> None:
        self.calls.append("activate")

    def on_deactivate(self) -> None:
        self.calls.append("deactivate")

    def destroy(self) -> None:
        self.calls.append("destroy")
        super().destroy()


class SuspendableView(LegacyView):
    """A plugin view with paired suspend/resume hooks, as the methodic configurator 5.0.1 calls them."""

    def on_suspend(self, reason: PluginPauseReason = PluginPauseReason.EXCLUSIVE_OPERATION) -> None:
        recovering = reason is PluginPauseReason.CONNECTION_RECOVERY
        self.calls.append("suspend (recovery)" if recovering else "suspend")

    def on_resume(self) -> None:
        self.calls.append("resume")


class HalfSuspendableView(LegacyView):
    """Has on_suspend but no on_resume, so it must be paused the legacy way."""

    def on_suspend(self, reason: PluginPauseReason = PluginPauseReason.EXCLUSIVE_OPERATION) -> None:
        self.calls.append("suspend")


class FailingView(SuspendableView):
    """Raises from every lifecycle hook, as a buggy plugin might."""

    def on_activate(self) -> None:
        super().on_activate()
        raise RuntimeError("timer could not start")

    def on_suspend(self, reason: PluginPauseReason = PluginPauseReason.EXCLUSIVE_OPERATION) -> None:
        super().on_suspend(reason)
        raise OSError("link closed")

    def on_deactivate(self) -> None:
        super().on_deactivate()
        raise ValueError("stream restore failed")


def failing_model(context: PluginModelContext) -> object:
    raise ConnectionError("flight controller vanished")


@pytest.fixture
def tk_geometry() -> str:
    return "800x500"


@pytest.fixture
def receiver_step() -> ConfigurationStep:
    step = load_configuration_steps("ArduCopter").step(RECEIVER_STEP)
    assert step is not None
    return step


def make_host(
    root: tk.Misc,
    view_class: type[LegacyView] = SuspendableView,
    on_error: Callable[[str], None] | None = None,
) -> tuple[PluginHost, PluginFactory]:
    factory = PluginFactory()
    factory.register(PLUGIN_RC_RECEIVER, view_class, RecordingModel)
    host = PluginHost(root, FlightController(), "local fs", "editor", factory, on_error=on_error)
    return host, factory


def current_view(host: PluginHost) -> LegacyView:
    view = host.active_view
    assert isinstance(view, LegacyView)
    return view


def simulate_file_browser(root: tk.Misc, while_open: object = None) -> None:
    """Open a real Toplevel, let Tk draw it, run ``while_open`` and close the browser."""
    browser = tk.Toplevel(root)
    ttk.Label(browser, text="Select a .param file").pack()
    root.update()
    if callable(while_open):
        while_open()
    browser.destroy()
    root.update()


def test_host_builds_the_model_from_its_context_and_activates_the_view(
    root: tk.Tk, receiver_step: ConfigurationStep
) -> None:
    """GIVEN a host with a flight controller, filesystem and editor
    WHEN the receiver step is shown
    THEN the model is built from exactly those services and the view is created in the plugin frame
    and activated.
    """
    flight_controller = FlightController()
    factory = PluginFactory()
    factory.register(PLUGIN_RC_RECEIVER, SuspendableView, RecordingModel)
    host = PluginHost(root, flight_controller, "local fs", "editor", factory, base_window="base")

    layout = host.show_step(receiver_step)

    assert layout is not None
    view = current_view(host)
    assert isinstance(view.model, RecordingModel)
    assert view.model.context == PluginModelContext(flight_controller, "local fs", "editor")
    assert view.model.context.flight_controller is flight_controller
    assert host.active_model is view.model
    assert view.base_window == "base"
    assert view.master is layout.plugin_frame
    assert view.winfo_manager() == "pack"
    assert view.calls == ["activate"]
    assert host.view_state is ViewState.ACTIVE
    assert host.active_plugin_name == PLUGIN_RC_RECEIVER
    assert host.errors == ()


def test_left_placement_puts_the_plugin_beside_the_parameter_table(
    root: tk.Tk, receiver_step: ConfigurationStep
) -> None:
    """GIVEN the receiver step (placement left)
    WHEN it is shown and a parameter table is put in the content frame
    THEN the plugin frame sits left of the table, on the same row.
    """
    host, _factory = make_host(root)

    layout = host.show_step(receiver_step)
    assert layout is not None
    assert layout.plugin_frame is not None
    ttk.Label(layout.content_frame, text="RC_PROTOCOLS 1").pack(fill=tk.BOTH, expand=True)
    root.update()

    assert layout.placement == "left"
    plugin_x, content_x = layout.plugin_frame.winfo_x(), layout.content_frame.winfo_x()
    assert plugin_x + layout.plugin_frame.winfo_width() <= content_x
    assert layout.plugin_frame.winfo_y() == layout.content_frame.winfo_y()


def test_top_placement_puts_the_plugin_above_the_parameter_table(
    root: tk.Tk, receiver_step: ConfigurationStep
) -> None:
    """GIVEN a step that places the plugin on top
    WHEN it is shown
    THEN the plugin frame sits above the content frame and the view is active.
    """
    host, _factory = make_host(root)
    top_step = replace(receiver_step, plugin=StepPlugin(PLUGIN_RC_RECEIVER, "top"))

    layout = host.show_step(top_step)
    assert layout is not None
    assert layout.plugin_frame is not None
    ttk.Label(layout.content_frame, text="RC_PROTOCOLS 1").pack()
    root.update()

    assert layout.placement == "top"
    assert (
        layout.plugin_frame.winfo_y() + layout.plugin_frame.winfo_height() <= layout.content_frame.winfo_y()
    )
    assert current_view(host).calls == ["activate"]


def test_a_step_without_a_plugin_gets_only_a_content_frame(root: tk.Tk) -> None:
    """GIVEN a step with no plugin
    WHEN it is shown
    THEN no model or view is built and no plugin frame exists.
    """
    built: list[PluginModelContext] = []
    factory = PluginFactory()
    factory.register(PLUGIN_RC_RECEIVER, SuspendableView, built.append)
    host = PluginHost(root, FlightController(), factory=factory)
    plain = next(step for step in load_configuration_steps("ArduCopter").steps if step.plugin is None)
    assert plain is not None

    layout = host.show_step(plain)

    assert layout is not None
    assert layout.plugin_frame is None
    assert layout.placement is None
    assert host.active_view is None
    assert built == []


def test_a_file_browser_suspends_and_then_resumes_the_same_view(
    root: tk.Tk, receiver_step: ConfigurationStep
) -> None:
    """GIVEN an active view with suspend hooks
    WHEN a file browser is opened and closed between pause and resume
    THEN the same view object is suspended, then resumed, and never deactivated or rebuilt.
    """
    host, _factory = make_host(root)
    host.show_step(receiver_step)
    view = current_view(host)

    host.pause()
    assert host.is_paused
    assert host.view_state is ViewState.SUSPENDED
    simulate_file_browser(root)
    host.resume()

    assert host.active_view is view
    assert view.calls == ["activate", "suspend", "resume"]
    assert host.view_state is ViewState.ACTIVE
    assert not host.is_paused


def test_the_context_manager_pauses_around_the_browser(root: tk.Tk, receiver_step: ConfigurationStep) -> None:
    """GIVEN an active view
    WHEN a browser runs inside file_browser_pause()
    THEN it is suspended during it only.
    """
    host, _factory = make_host(root)
    host.show_step(receiver_step)
    view = current_view(host)
    seen_while_open: list[list[str]] = []

    with host.paused():
        simulate_file_browser(root, lambda: seen_while_open.append(list(view.calls)))

    assert seen_while_open == [["activate", "suspend"]]
    assert view.calls == ["activate", "suspend", "resume"]


def test_a_legacy_view_is_deactivated_and_reactivated_around_the_browser(
    root: tk.Tk, receiver_step: ConfigurationStep
) -> None:
    """GIVEN a view without suspend hooks
    WHEN a file browser is opened and closed
    THEN it is deactivated before and activated again after, as the same object.
    """
    host, _factory = make_host(root, LegacyView)
    host.show_step(receiver_step)
    view = current_view(host)

    with host.paused():
        assert host.view_state is ViewState.DEACTIVATED
        simulate_file_browser(root)

    assert host.active_view is view
    assert view.calls == ["activate", "deactivate", "activate"]


def test_a_view_with_only_one_suspend_hook_is_treated_as_legacy(
    root: tk.Tk, receiver_step: ConfigurationStep
) -> None:
    """GIVEN a view that has on_suspend but no on_resume
    WHEN paused and resumed
    THEN deactivate/activate are used.
    """
    host, _factory = make_host(root, HalfSuspendableView)
    host.show_step(receiver_step)
    view = current_view(host)

    with host.paused():
        simulate_file_browser(root)

    assert view.calls == ["activate", "deactivate", "activate"]


def test_a_parent_destroyed_while_the_browser_is_open_is_not_resumed(
    root: tk.Tk, receiver_step: ConfigurationStep
) -> None:
    """GIVEN an active view inside an editor frame
    WHEN the editor frame is destroyed while the file browser is open
    THEN closing the browser resumes nothing, raises nothing, and the host holds no view.
    """
    editor_frame = ttk.Frame(root)
    editor_frame.pack(fill=tk.BOTH, expand=True)
    host, _factory = make_host(editor_frame)
    host.show_step(receiver_step)
    view = current_view(host)

    host.pause()
    simulate_file_browser(root, editor_frame.destroy)
    host.resume()

    assert view.calls == ["activate", "suspend", "destroy"]
    assert host.active_view is None
    assert host.layout is None
    assert host.errors == ()
    host.leave_step()
    assert view.calls == ["activate", "suspend", "destroy"]


def test_changing_step_while_the_browser_is_open_does_not_resume_the_old_view(
    root: tk.Tk, receiver_step: ConfigurationStep
) -> None:
    """GIVEN a view paused for a file browser
    WHEN the user moves to another step before the browser closes
    THEN the old view is deactivated and destroyed, and the browser's close resumes nothing.
    """
    host, _factory = make_host(root)
    host.show_step(receiver_step)
    old_view = current_view(host)
    next_step = next(step for step in load_configuration_steps("ArduCopter").steps if step.plugin is None)
    assert next_step is not None

    host.pause()
    simulate_file_browser(root, lambda: host.show_step(next_step))
    host.resume()

    assert old_view.calls == ["activate", "suspend", "deactivate", "destroy"]
    assert host.active_view is None


def test_nested_pauses_resume_once_when_the_last_browser_closes(
    root: tk.Tk, receiver_step: ConfigurationStep
) -> None:
    """GIVEN two nested browser pauses
    WHEN the inner one ends
    THEN the view stays paused until the outer one ends.
    """
    host, _factory = make_host(root)
    host.show_step(receiver_step)
    view = current_view(host)

    host.pause()
    host.pause()
    host.resume()
    assert view.calls == ["activate", "suspend"]
    host.resume()
    host.resume()  # unbalanced extra resume is ignored

    assert view.calls == ["activate", "suspend", "resume"]


def test_a_stopped_view_is_left_alone_by_pauses_and_started_once(
    root: tk.Tk, receiver_step: ConfigurationStep
) -> None:
    """GIVEN a view stopped because there is no vehicle
    WHEN a pause comes and goes, then the view is started and the step is left
    THEN only the stop and the start reach the view, and leaving does not deactivate it twice.
    """
    host, _factory = make_host(root)
    host.show_step(receiver_step)
    view = current_view(host)

    host.stop_view()
    host.stop_view()
    with host.paused(PluginPauseReason.CONNECTION_RECOVERY):
        assert host.view_state is ViewState.STOPPED
    assert view.calls == ["activate", "deactivate"]
    host.start_view()
    host.start_view()
    assert host.view_state is ViewState.ACTIVE
    host.stop_view()
    host.leave_step()

    assert view.calls == ["activate", "deactivate", "activate", "deactivate", "destroy"]


@pytest.mark.parametrize(
    ("view_class", "expected"),
    [
        (SuspendableView, ["activate", "suspend", "deactivate", "activate"]),
        (LegacyView, ["activate", "deactivate", "activate"]),
    ],
)
def test_a_view_stopped_during_a_pause_is_not_resumed_but_started_when_the_pause_ends(
    root: tk.Tk, receiver_step: ConfigurationStep, view_class: type[LegacyView], expected: list[str]
) -> None:
    """GIVEN a paused view
    WHEN it is stopped and started again before the pause ends
    THEN it is deactivated once (a legacy pause already did) and activated only when the pause ends.
    """
    host, _factory = make_host(root, view_class)
    host.show_step(receiver_step)
    view = current_view(host)

    host.pause()
    host.stop_view()
    assert host.view_state is ViewState.STOPPED
    host.start_view()
    assert view.calls == expected[:-1]
    host.resume()

    assert view.calls == expected
    assert host.view_state is ViewState.ACTIVE


def test_leaving_a_step_deactivates_and_destroys_the_view_and_its_frames(
    root: tk.Tk, receiver_step: ConfigurationStep
) -> None:
    """GIVEN an active view
    WHEN the step is left
    THEN the view is deactivated, destroyed and its frames removed.
    """
    host, _factory = make_host(root)
    layout = host.show_step(receiver_step)
    assert layout is not None
    view = current_view(host)

    host.leave_step()

    assert view.calls == ["activate", "deactivate", "destroy"]
    assert not view.winfo_exists()
    assert not layout.container.winfo_exists()
    assert host.active_view is None
    assert host.layout is None


def test_showing_the_next_step_leaves_the_previous_one_first(
    root: tk.Tk, receiver_step: ConfigurationStep
) -> None:
    """GIVEN the receiver step on screen
    WHEN the receiver step is shown again
    THEN a fresh view replaces the old.
    """
    host, _factory = make_host(root)
    host.show_step(receiver_step)
    first = current_view(host)

    host.show_step(receiver_step)
    second = current_view(host)

    assert first is not second
    assert first.calls == ["activate", "deactivate", "destroy"]
    assert second.calls == ["activate"]
    assert len(root.winfo_children()) == 1


def test_close_releases_the_view_and_refuses_further_steps(
    root: tk.Tk, receiver_step: ConfigurationStep
) -> None:
    """GIVEN an active view
    WHEN the window closes
    THEN the view is released and later steps are refused readably.
    """
    host, _factory = make_host(root)
    host.show_step(receiver_step)
    view = current_view(host)

    host.close()
    layout = host.show_step(receiver_step)

    assert view.calls == ["activate", "deactivate", "destroy"]
    assert layout is None
    assert host.last_error is not None
    assert RECEIVER_STEP in host.last_error


def test_exceptions_from_plugin_hooks_are_reported_not_raised(
    root: tk.Tk, receiver_step: ConfigurationStep
) -> None:
    """GIVEN a view whose hooks raise
    WHEN it is activated, paused, resumed and left
    THEN nothing propagates, each failure is reported with the plugin name and action,
    and it is still destroyed.
    """
    reported: list[str] = []
    host, _factory = make_host(root, FailingView, on_error=reported.append)

    host.show_step(receiver_step)
    view = current_view(host)
    with host.paused():
        simulate_file_browser(root)
    host.leave_step()

    assert view.calls == ["activate", "suspend", "resume", "deactivate", "destroy"]
    assert reported == list(host.errors)
    assert reported == [
        "Plugin 'rc_receiver' failed to activate: RuntimeError: timer could not start",
        "Plugin 'rc_receiver' failed to suspend: OSError: link closed",
        "Plugin 'rc_receiver' failed to deactivate: ValueError: stream restore failed",
    ]


def test_a_model_that_cannot_be_built_is_explained_in_the_plugin_frame(
    root: tk.Tk, receiver_step: ConfigurationStep
) -> None:
    """GIVEN a model creator that raises
    WHEN the step is shown
    THEN no view is built and the frame explains why.
    """
    factory = PluginFactory()
    factory.register(PLUGIN_RC_RECEIVER, SuspendableView, failing_model)
    host = PluginHost(root, FlightController(), factory=factory)

    layout = host.show_step(receiver_step)

    assert layout is not None
    assert host.active_view is None
    expected = (
        "Plugin 'rc_receiver' could not create its data model: ConnectionError: flight controller vanished"
    )
    assert host.notice == expected
    assert host.errors == (expected,)
    assert layout.plugin_frame is not None
    labels = [child for child in layout.plugin_frame.winfo_children() if isinstance(child, ttk.Label)]
    assert [label.cget("text") for label in labels] == [expected]


def test_an_unregistered_plugin_is_explained_instead_of_crashing(
    root: tk.Tk, receiver_step: ConfigurationStep
) -> None:
    """GIVEN an empty registry
    WHEN the receiver step is shown
    THEN the plugin frame says the plugin is unavailable.
    """
    host = PluginHost(root, FlightController(), factory=PluginFactory())

    layout = host.show_step(receiver_step)

    assert layout is not None
    assert host.active_view is None
    assert host.notice == "Plugin 'rc_receiver' is not available in this program (registered plugins: none)."


def test_without_a_flight_controller_the_plugin_asks_for_a_connection(
    root: tk.Tk, receiver_step: ConfigurationStep
) -> None:
    """GIVEN no flight controller
    WHEN the receiver step is shown
    THEN no model is built and a notice asks to connect.
    """
    built: list[PluginModelContext] = []
    factory = PluginFactory()
    factory.register(PLUGIN_RC_RECEIVER, SuspendableView, built.append)
    host = PluginHost(root, None, factory=factory)

    host.show_step(receiver_step)

    assert built == []
    assert host.active_view is None
    assert host.notice == "Connect to a flight controller to use the rc_receiver plugin."
    assert host.errors == ()


def test_a_failing_error_callback_does_not_hide_the_error(
    root: tk.Tk, receiver_step: ConfigurationStep
) -> None:
    """GIVEN an error callback that itself raises
    WHEN a plugin fails
    THEN the host keeps the error and carries on.
    """

    def broken_sink(message: str) -> None:
        raise RuntimeError("status bar gone")

    host, _factory = make_host(root, FailingView, on_error=broken_sink)

    host.show_step(receiver_step)

    assert host.last_error == "Plugin 'rc_receiver' failed to activate: RuntimeError: timer could not start"
    assert host.view_state is ViewState.ACTIVE


def test_the_real_receiver_plugin_runs_left_of_the_table_and_survives_a_file_browser(
    root: tk.Tk, receiver_step: ConfigurationStep
) -> None:
    """GIVEN the receiver plugin registered by its own register function in the default registry
    WHEN the host shows the receiver step, a file browser opens and closes, and the step is left
    THEN its polling timer runs, stops while the browser is open, runs again in the same view,
    and is cancelled when the view is destroyed.
    """
    from amc_rc_receiver.plugins.frontend_tkinter_rc_receiver import (
        RCReceiverView,
        register_rc_receiver_plugin,
    )

    register_rc_receiver_plugin()
    host = PluginHost(root, FlightController())

    layout = host.show_step(receiver_step)
    view = host.active_view
    assert layout is not None
    assert isinstance(view, RCReceiverView)
    assert view.master is layout.plugin_frame
    assert view.active
    assert view.timer_id is not None

    host.pause()
    assert view.suspended
    assert view.timer_id is None
    simulate_file_browser(root)
    host.resume()
    assert host.active_view is view
    assert view.timer_id is not None

    host.leave_step()
    assert view.timer_id is None
    assert not view.winfo_exists()
    assert host.errors == ()
