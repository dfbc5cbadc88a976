# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Registry that turns a plugin name from a configuration step into a model and a view.

Plugin frontend modules register a view creator and a model creator under a unique name; the
host asks the registry by name, so it never imports concrete plugin classes.  Unlike a silent
overwrite, registering a name twice is an error, because it almost always means two modules
fight over one step.  A module-level default registry and thin functions over it mirror the
methodic configurator's ``plugin_factory``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from .. import _
from .plugin_protocol import (
    PluginModelContext,
    PluginView,
    is_plugin_view,
)

if TYPE_CHECKING:
    from amc_rc_receiver.configuration_steps import ConfigurationSteps

# (parent frame, model, base window) -> view.  The arguments are Any so that each plugin can
# annotate its creator with its own frame and model types.
PluginViewCreator = Callable[[Any, Any, Any], object]
PluginModelCreator = Callable[[PluginModelContext], object]


class PluginError(Exception):
    """A plugin could not be registered, found or built; the message says which and why."""


class PluginRegistrationError(PluginError, ValueError):
    """A registration was refused (duplicate or malformed name, creator not callable)."""


class UnknownPluginError(PluginError, LookupError):
    """A plugin name is not registered."""


class PluginFactory:
    """Name -> (view creator, model creator) registry."""

    def __init__(self) -> None:
        self._view_creators: dict[str, PluginViewCreator] = {}
        self._model_creators: dict[str, PluginModelCreator] = {}
        self._requires_flight_controller: dict[str, bool] = {}

    def register(
        self,
        name: str,
        view_creator: PluginViewCreator,
        model_creator: PluginModelCreator | None = None,
        *,
        requires_flight_controller: bool = True,
    ) -> None:
        """Register ``name``; raise :class:`PluginRegistrationError` if it is taken or malformed.

        ``model_creator`` may be ``None`` for a view that needs no model (it then gets ``None``).
        ``requires_flight_controller`` tells the host not to build the plugin without a connection.
        """
        if not isinstance(name, str) or not name.strip() or name != name.strip():
            raise PluginRegistrationError(
                _(
                    "A plugin name must be a non-empty string without surrounding spaces, not {name!r}."
                ).format(name=name)
            )
        if name in self._view_creators:
            raise PluginRegistrationError(
                _(
                    "Plugin '{name}' is already registered. Each plugin registers exactly once; "
                    "check that its register function is not called twice."
                ).format(name=name)
            )
        if not callable(view_creator):
            raise PluginRegistrationError(
                _("Plugin '{name}': the view creator is not callable.").format(name=name)
            )
        if model_creator is not None and not callable(model_creator):
            raise PluginRegistrationError(
                _("Plugin '{name}': the model creator is not callable.").format(name=name)
            )
        self._view_creators[name] = view_creator
        if model_creator is not None:
            self._model_creators[name] = model_creator
        self._requires_flight_controller[name] = requires_flight_controller

    def unregister(self, name: str) -> None:
        """Forget ``name`` (no error if it was never registered)."""
        self._view_creators.pop(name, None)
        self._model_creators.pop(name, None)
        self._requires_flight_controller.pop(name, None)

    def is_registered(self, name: str) -> bool:
        """Whether ``name`` has a view creator."""
        return name in self._view_creators

    def available_plugins(self) -> list[str]:
        """Registered names, sorted."""
        return sorted(self._view_creators)

    def requires_flight_controller(self, name: str) -> bool:
        """Whether ``name`` needs a connected flight controller (unknown names: ``True``)."""
        return self._requires_flight_controller.get(name, True)

    def create_model(self, name: str, context: PluginModelContext) -> object:
        """Build the model of ``name`` from ``context``; ``None`` when it registered no model creator."""
        self._require(name)
        creator = self._model_creators.get(name)
        return None if creator is None else creator(context)

    def create(self, name: str, parent: object, model: object, base_window: object) -> PluginView:
        """Build the view of ``name`` inside ``parent``.

        Raises :class:`UnknownPluginError` for an unregistered name and :class:`PluginError` when
        the creator returns something without the plugin lifecycle methods.
        """
        view = self._require(name)(parent, model, base_window)
        if not is_plugin_view(view):
            raise PluginError(
                _(
                    "Plugin '{name}' returned a {kind} that lacks on_activate, on_deactivate or destroy."
                ).format(name=name, kind=type(view).__name__)
            )
        return view

    def check_configuration_plugins_registered(
        self, step_files_or_names: Iterable[ConfigurationSteps | str]
    ) -> list[str]:
        """Return one readable error per plugin a configuration step names but nobody registered.

        Items are loaded step files or vehicle names (``"ArduCopter"``); a vehicle whose step
        file cannot be loaded yields its load error instead, so nothing is silently skipped.
        """
        # Imported here so that registering a plugin never depends on the step loader (and its
        # schema validator) being importable.
        from amc_rc_receiver.configuration_steps import (  # noqa: PLC0415
            ConfigurationStepsError,
            load_configuration_steps,
        )

        errors: list[str] = []
        for item in step_files_or_names:
            if isinstance(item, str):
                try:
                    steps = load_configuration_steps(item)
                except ConfigurationStepsError as exc:
                    errors.append(str(exc))
                    continue
            else:
                steps = item
            for step in steps.steps:
                if step.plugin is None or self.is_registered(step.plugin.name):
                    continue
                errors.append(
                    _(
                        "{source}: step {filename} uses plugin '{name}', which is not registered "
                        "(registered plugins: {available})."
                    ).format(
                        source=steps.source,
                        filename=step.filename,
                        name=step.plugin.name,
                        available=", ".join(self.available_plugins()) or _("none"),
                    )
                )
        return errors

    def _require(self, name: str) -> PluginViewCreator:
        creator = self._view_creators.get(name)
        if creator is None:
            raise UnknownPluginError(
                _("Plugin '{name}' is not registered (registered plugins: {available}).").format(
                    name=name, available=", ".join(self.available_plugins()) or _("none")
                )
            )
        return creator


# The process-wide registry that plugin frontend modules register into at start-up.
plugin_factory = PluginFactory()


def register(
    name: str,
    view_creator: PluginViewCreator,
    model_creator: PluginModelCreator | None = None,
    *,
    requires_flight_controller: bool = True,
) -> None:
    """Register into the default registry; see :meth:`PluginFactory.register`."""
    plugin_factory.register(
        name, view_creator, model_creator, requires_flight_controller=requires_flight_controller
    )


def create(name: str, parent: object, model: object, base_window: object) -> PluginView:
    """Build a view from the default registry; see :meth:`PluginFactory.create`."""
    return plugin_factory.create(name, parent, model, base_window)


def create_model(name: str, context: PluginModelContext) -> object:
    """Build a model from the default registry; see :meth:`PluginFactory.create_model`."""
    return plugin_factory.create_model(name, context)


def is_registered(name: str) -> bool:
    """Whether the default registry knows ``name``."""
    return plugin_factory.is_registered(name)


def available_plugins() -> list[str]:
    """Names in the default registry, sorted."""
    return plugin_factory.available_plugins()


def check_configuration_plugins_registered(
    step_files_or_names: Iterable[ConfigurationSteps | str],
) -> list[str]:
    """Check configuration steps against the default registry; see the method of the same name."""
    return plugin_factory.check_configuration_plugins_registered(step_files_or_names)
