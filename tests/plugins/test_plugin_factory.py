# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Behaviour of the plugin registry: registration, building models and views, step checks.

Views here are real ttk frames with the plugin lifecycle; models are plain objects that keep the
context they were built from, which is all the registry promises to pass on.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Iterator
from dataclasses import replace
from tkinter import ttk

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amc_rc_receiver.backend_flightcontroller import FlightController
from amc_rc_receiver.configuration_steps import (
    ConfigurationStep,
    ConfigurationSteps,
    StepPlugin,
    available_vehicles,
    load_configuration_steps,
)
from amc_rc_receiver.plugins import plugin_factory as factory_module
from amc_rc_receiver.plugins.plugin_constants import PLUGIN_RC_RECEIVER
from amc_rc_receiver.plugins.plugin_factory import (
    PluginError,
    PluginFactory,
    PluginRegistrationError,
    UnknownPluginError,
)
from amc_rc_receiver.plugins.plugin_protocol import PluginModelContext, is_plugin_view


class LifecycleFrame(ttk.Frame):
    """A minimal plugin view: a real frame that records its lifecycle calls."""

    def __init__(self, parent: tk.Misc, model: object, base_window: object) -> None:
        super().__init__(parent)
        self.model = model
        self.base_window = base_window
        self.calls: list[str] = []

    def on_activate(self) -> None:
        self.calls.append("activate")

    def on_deactivate(self) -> None:
        self.calls.append("deactivate")


class ContextModel:
    """A model that keeps the context the registry built it from."""

    def __init__(self, context: PluginModelContext) -> None:
        self.context = context


class NotAView:
    """What a broken plugin creator might return: no lifecycle methods."""


@pytest.fixture
def root() -> Iterator[tk.Tk]:
    window = tk.Tk()
    yield window
    window.destroy()


def test_registered_plugin_builds_its_model_from_the_context_and_its_view_in_the_parent(root: tk.Tk) -> None:
    """GIVEN a plugin registered with a view and a model creator
    WHEN its model and view are created by name
    THEN the model receives the context unchanged and the view is a child of the given parent.
    """
    factory = PluginFactory()
    factory.register(PLUGIN_RC_RECEIVER, LifecycleFrame, ContextModel)
    flight_controller = FlightController()
    context = PluginModelContext(flight_controller, local_filesystem="fs", parameter_editor="editor")

    model = factory.create_model(PLUGIN_RC_RECEIVER, context)
    view = factory.create(PLUGIN_RC_RECEIVER, root, model, "base window")

    assert isinstance(model, ContextModel)
    assert model.context is context
    assert model.context.flight_controller is flight_controller
    assert isinstance(view, LifecycleFrame)
    assert view.master is root
    assert view.model is model
    assert view.base_window == "base window"
    assert is_plugin_view(view)


def test_registering_the_same_name_twice_is_refused_with_a_clear_message() -> None:
    """GIVEN a registered plugin
    WHEN a second registration uses the same name
    THEN it is refused, the message names the plugin, and the first registration stays in force.
    """
    factory = PluginFactory()
    factory.register(PLUGIN_RC_RECEIVER, LifecycleFrame, ContextModel)

    with pytest.raises(PluginRegistrationError, match="'rc_receiver' is already registered"):
        factory.register(PLUGIN_RC_RECEIVER, NotAView)

    assert factory.available_plugins() == [PLUGIN_RC_RECEIVER]
    model = factory.create_model(PLUGIN_RC_RECEIVER, PluginModelContext(None))
    assert isinstance(model, ContextModel)


@pytest.mark.parametrize("bad_name", ["", "   ", " rc_receiver", "rc_receiver\n"])
def test_blank_or_padded_plugin_names_are_refused(bad_name: str) -> None:
    """GIVEN an empty or space-padded name WHEN it is registered THEN the registry refuses it."""
    factory = PluginFactory()
    with pytest.raises(PluginRegistrationError, match="plugin name"):
        factory.register(bad_name, LifecycleFrame)
    assert factory.available_plugins() == []


def test_a_creator_that_is_not_callable_is_refused_at_registration() -> None:
    """GIVEN a model creator that is not callable WHEN registered THEN the error says which creator."""
    factory = PluginFactory()
    with pytest.raises(PluginRegistrationError, match="model creator is not callable"):
        factory.register(PLUGIN_RC_RECEIVER, LifecycleFrame, "not a function")  # type: ignore[arg-type]
    assert not factory.is_registered(PLUGIN_RC_RECEIVER)


def test_creating_an_unknown_plugin_names_it_and_lists_the_registered_ones(root: tk.Tk) -> None:
    """GIVEN a registry with one plugin
    WHEN another name is requested
    THEN the error names the requested plugin and lists what is available.
    """
    factory = PluginFactory()
    factory.register(PLUGIN_RC_RECEIVER, LifecycleFrame)

    with pytest.raises(UnknownPluginError) as raised:
        factory.create("motor_test", root, None, None)

    assert "'motor_test' is not registered" in str(raised.value)
    assert "rc_receiver" in str(raised.value)
    with pytest.raises(UnknownPluginError):
        factory.create_model("motor_test", PluginModelContext(None))


def test_a_creator_returning_something_without_a_lifecycle_is_reported(root: tk.Tk) -> None:
    """GIVEN a creator that returns an object without on_activate/on_deactivate/destroy
    WHEN the view is created
    THEN a PluginError names the plugin and the returned type.
    """
    factory = PluginFactory()
    factory.register("broken", lambda parent, model, base: NotAView())

    with pytest.raises(PluginError, match=r"Plugin 'broken' returned a NotAView"):
        factory.create("broken", root, None, None)


def test_a_plugin_without_a_model_creator_gets_no_model() -> None:
    """GIVEN a plugin registered with a view creator only WHEN its model is requested THEN it is None."""
    factory = PluginFactory()
    factory.register(PLUGIN_RC_RECEIVER, LifecycleFrame)
    assert factory.create_model(PLUGIN_RC_RECEIVER, PluginModelContext(None)) is None


def test_plugins_need_a_flight_controller_unless_registered_otherwise() -> None:
    """GIVEN one plugin registered by default and one that works offline
    WHEN their flight-controller requirement is read
    THEN only the default one requires a connection.
    """
    factory = PluginFactory()
    factory.register(PLUGIN_RC_RECEIVER, LifecycleFrame)
    factory.register("offline_viewer", LifecycleFrame, requires_flight_controller=False)

    assert factory.requires_flight_controller(PLUGIN_RC_RECEIVER)
    assert not factory.requires_flight_controller("offline_viewer")


def test_unregistering_frees_the_name_for_a_new_registration() -> None:
    """GIVEN a registered plugin WHEN it is unregistered THEN it is gone and the name can be reused."""
    factory = PluginFactory()
    factory.register(PLUGIN_RC_RECEIVER, LifecycleFrame, ContextModel)
    factory.unregister(PLUGIN_RC_RECEIVER)

    assert not factory.is_registered(PLUGIN_RC_RECEIVER)
    factory.register(PLUGIN_RC_RECEIVER, LifecycleFrame)
    assert factory.create_model(PLUGIN_RC_RECEIVER, PluginModelContext(None)) is None


@given(st.sets(st.from_regex(r"[a-z][a-z0-9_]{0,20}", fullmatch=True), max_size=12))
def test_available_plugins_lists_every_registered_name_sorted_and_each_only_once(names: set[str]) -> None:
    """GIVEN any set of distinct plugin names
    WHEN each is registered once and then again
    THEN available_plugins() is the sorted set and every second registration is refused.
    """
    factory = PluginFactory()
    for name in names:
        factory.register(name, LifecycleFrame)
    for name in names:
        with pytest.raises(PluginRegistrationError):
            factory.register(name, LifecycleFrame)

    assert factory.available_plugins() == sorted(names)
    assert all(factory.is_registered(name) for name in names)


def test_step_check_reports_each_unregistered_plugin_with_its_file_and_step() -> None:
    """GIVEN the bundled step files and an empty registry
    WHEN the configured plugins are checked
    THEN there is one error per vehicle naming the file, the receiver step and the plugin.
    """
    factory = PluginFactory()

    errors = factory.check_configuration_plugins_registered(available_vehicles())

    assert len(errors) == 4
    for vehicle, error in zip(available_vehicles(), errors, strict=True):
        assert f"configuration_steps_{vehicle}.json" in error
        assert "06_remote_controller_receiver.param" in error
        assert "'rc_receiver'" in error
        assert "not registered" in error


def test_step_check_is_clean_once_the_plugin_is_registered() -> None:
    """GIVEN the receiver plugin is registered
    WHEN loaded step files and vehicle names are checked
    THEN no error is reported.
    """
    factory = PluginFactory()
    factory.register(PLUGIN_RC_RECEIVER, LifecycleFrame, ContextModel)
    loaded = [load_configuration_steps(vehicle) for vehicle in available_vehicles()]

    assert factory.check_configuration_plugins_registered(loaded) == []
    assert factory.check_configuration_plugins_registered(available_vehicles()) == []


def test_step_check_reports_a_vehicle_without_a_step_file_instead_of_skipping_it() -> None:
    """GIVEN a vehicle name with no bundled step file WHEN checked THEN its load error is returned."""
    factory = PluginFactory()
    factory.register(PLUGIN_RC_RECEIVER, LifecycleFrame)

    errors = factory.check_configuration_plugins_registered(["ArduSub"])

    assert len(errors) == 1
    assert "ArduSub" in errors[0]
    assert "ArduCopter" in errors[0]  # the available vehicles are listed


def test_step_check_reads_plugin_names_from_step_records() -> None:
    """GIVEN steps that name a plugin nobody registered
    WHEN checked against a registry holding only the receiver plugin
    THEN only the unknown plugin is reported.
    """
    factory = PluginFactory()
    factory.register(PLUGIN_RC_RECEIVER, LifecycleFrame)
    copter = load_configuration_steps("ArduCopter")
    receiver = copter.step("06_remote_controller_receiver.param")
    assert receiver is not None
    custom = ConfigurationSteps(
        vehicle="Custom",
        source="custom.json",
        steps=(receiver, _with_plugin(receiver, "motor_test", "07_motors.param")),
    )

    errors = factory.check_configuration_plugins_registered([custom])

    assert errors == [
        "custom.json: step 07_motors.param uses plugin 'motor_test', which is not registered "
        "(registered plugins: rc_receiver)."
    ]


def test_module_functions_use_one_shared_default_registry(root: tk.Tk) -> None:
    """GIVEN the module-level register() function
    WHEN a plugin is registered through it
    THEN the module-level create/create_model/is_registered/available_plugins see it.
    """
    name = "test_only_default_registry_probe"
    try:
        factory_module.register(name, LifecycleFrame, ContextModel)
        assert factory_module.is_registered(name)
        assert name in factory_module.available_plugins()
        model = factory_module.create_model(name, PluginModelContext(None))
        view = factory_module.create(name, root, model, None)
        assert isinstance(view, LifecycleFrame)
        assert view.model is model
        with pytest.raises(PluginRegistrationError):
            factory_module.register(name, LifecycleFrame)
    finally:
        factory_module.plugin_factory.unregister(name)
    assert not factory_module.is_registered(name)


def _with_plugin(step: ConfigurationStep, plugin_name: str, filename: str) -> ConfigurationStep:
    return replace(step, filename=filename, number=7, plugin=StepPlugin(plugin_name, "top"))
