# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Stand-in for the methodic configurator's ``plugins/plugin_factory`` module.

Plugin frontend modules register a view creator and a model creator under a name; the host asks
the ``plugin_factory`` singleton by name, so it never imports concrete plugin classes.  The
plugin modules of this package run unchanged inside the methodic configurator 5.0.1, so this
registry keeps 5.0.1's names, signatures and semantics exactly: registering a name twice logs an
error and replaces the earlier creators, ``create`` of an unknown name returns ``None``, and
``create_model`` returns ``None`` when no model creator was registered.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..backend_flightcontroller import FlightController

# (parent frame, model, base window) -> view.  ``Any`` lets each plugin annotate its own creator.
PluginCreator = Callable[[Any, Any, Any], object]
PluginModelCreator = Callable[["PluginModelContext"], object]

_logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PluginModelContext:
    """The host services a plugin's model creator may use.

    In this tool ``local_filesystem`` and ``parameter_editor`` are ``None``; the methodic
    configurator passes its own objects.  Plugins of this package never write through them.
    """

    flight_controller: FlightController | None
    local_filesystem: object | None = None
    parameter_editor: object | None = None


class PluginFactory:
    """Name -> (view creator, model creator, needs a flight controller) registry."""

    def __init__(self) -> None:
        self._creators: dict[str, PluginCreator] = {}
        self._model_creators: dict[str, PluginModelCreator] = {}
        self._flight_controller_requirements: dict[str, bool] = {}

    def register(
        self,
        plugin_name: str,
        creator_func: PluginCreator,
        model_creator_func: PluginModelCreator | None = None,
        *,
        requires_flight_controller: bool = True,
    ) -> None:
        """Register ``plugin_name``; a second registration is logged and replaces the first."""
        if plugin_name in self._creators:
            _logger.error("Plugin '%s' is already registered, overwriting", plugin_name)
        self._creators[plugin_name] = creator_func
        if model_creator_func is None:
            self._model_creators.pop(plugin_name, None)
        else:
            self._model_creators[plugin_name] = model_creator_func
        self._flight_controller_requirements[plugin_name] = requires_flight_controller

    def requires_flight_controller(self, plugin_name: str) -> bool:
        """Whether the plugin needs a connected flight controller (unknown names: ``True``)."""
        return self._flight_controller_requirements.get(plugin_name, True)

    def create(self, plugin_name: str, parent: Any, model: object, base_window: object) -> object | None:
        """Build the view of ``plugin_name`` inside ``parent``; ``None`` for an unknown name."""
        creator = self._creators.get(plugin_name)
        return None if creator is None else creator(parent, model, base_window)

    def create_model(self, plugin_name: str, context: PluginModelContext) -> object | None:
        """Build the model of ``plugin_name``; ``None`` when it registered no model creator."""
        creator = self._model_creators.get(plugin_name)
        return None if creator is None else creator(context)

    def is_registered(self, plugin_name: str) -> bool:
        return plugin_name in self._creators

    def available_plugins(self) -> list[str]:
        """Registered names, sorted."""
        return sorted(self._creators)


# The process-wide registry plugin frontend modules register into at start-up.
plugin_factory = PluginFactory()
