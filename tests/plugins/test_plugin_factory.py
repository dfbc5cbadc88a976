# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Behaviour of the plugin registry stand-in: the methodic configurator 5.0.1's semantics, exactly.

The plugin modules run unchanged in 5.0.1, so what they can observe of the registry must be what
5.0.1's ``plugin_factory`` does: a duplicate registration is logged and replaces the first, an
unknown name gives ``None``, a plugin without a model creator gets ``None`` as its model.  Views
here are real ttk frames; models keep the context they were built from.
"""

from __future__ import annotations

import logging
import tkinter as tk
from tkinter import ttk

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amc_rc_receiver.backend_flightcontroller import FlightController
from amc_rc_receiver.plugins.plugin_constants import PLUGIN_RC_RECEIVER
from amc_rc_receiver.plugins.plugin_factory import PluginFactory, PluginModelContext, plugin_factory

pytestmark = pytest.mark.tk


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


class OtherFrame(LifecycleFrame):
    """A second view class, to see which registration is in force."""


class ContextModel:
    """A model that keeps the context the registry built it from."""

    def __init__(self, context: PluginModelContext) -> None:
        self.context = context


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


def test_registering_the_same_name_twice_logs_an_error_and_replaces_the_first(
    root: tk.Tk, caplog: pytest.LogCaptureFixture
) -> None:
    """GIVEN a registered plugin
    WHEN a second registration uses the same name, without a model creator this time
    THEN an error naming the plugin is logged, the second view creator is in force and the old
         model creator is gone, as in the methodic configurator 5.0.1.
    """
    factory = PluginFactory()
    factory.register("probe", LifecycleFrame, ContextModel)
    with caplog.at_level(logging.ERROR):
        factory.register("probe", OtherFrame)

    assert any("probe" in record.getMessage() for record in caplog.records if record.levelno == logging.ERROR)
    assert isinstance(factory.create("probe", root, None, None), OtherFrame)
    assert factory.create_model("probe", PluginModelContext(None)) is None


def test_creating_an_unknown_plugin_returns_none(root: tk.Tk) -> None:
    """GIVEN a registry with one plugin
    WHEN another name's view or model is requested
    THEN both are None and the registry says the name is not registered.
    """
    factory = PluginFactory()
    factory.register(PLUGIN_RC_RECEIVER, LifecycleFrame, ContextModel)

    assert factory.create("elsewhere", root, None, None) is None
    assert factory.create_model("elsewhere", PluginModelContext(None)) is None
    assert not factory.is_registered("elsewhere")


def test_plugins_need_a_flight_controller_unless_registered_otherwise() -> None:
    """GIVEN one plugin registered by default and one that works offline
    WHEN their flight-controller requirement is read
    THEN only the default one requires a connection, and an unknown name does too.
    """
    factory = PluginFactory()
    factory.register("online", LifecycleFrame)
    factory.register("offline", LifecycleFrame, requires_flight_controller=False)

    assert factory.requires_flight_controller("online")
    assert not factory.requires_flight_controller("offline")
    assert factory.requires_flight_controller("never registered")


@given(st.sets(st.text(min_size=1, max_size=12), max_size=8))
def test_available_plugins_lists_every_registered_name_sorted_and_each_only_once(names: set[str]) -> None:
    """GIVEN any set of distinct plugin names
    WHEN each is registered once and then again
    THEN available_plugins() is the sorted set of names.
    """
    factory = PluginFactory()
    for name in list(names) * 2:
        factory.register(name, LifecycleFrame)
    assert factory.available_plugins() == sorted(names)


def test_the_receiver_plugin_registers_its_own_view_and_model_into_the_shared_registry(root: tk.Tk) -> None:
    """GIVEN the receiver plugin's register function, as the host's start-up calls it
    WHEN the shared registry builds the plugin for a flight controller
    THEN it builds the receiver model over that flight controller and the receiver view.
    """
    from amc_rc_receiver.plugins.data_model_rc_receiver import RCReceiverDataModel
    from amc_rc_receiver.plugins.frontend_tkinter_rc_receiver import (
        RCReceiverView,
        register_rc_receiver_plugin,
    )

    register_rc_receiver_plugin()
    model = plugin_factory.create_model(PLUGIN_RC_RECEIVER, PluginModelContext(FlightController()))
    view = plugin_factory.create(PLUGIN_RC_RECEIVER, root, model, None)

    assert isinstance(model, RCReceiverDataModel)
    assert isinstance(view, RCReceiverView)
    assert plugin_factory.requires_flight_controller(PLUGIN_RC_RECEIVER)
