# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The contract between a plugin and the window that hosts it, written as structural types.

Plugins never inherit from a base class: a view is anything with the lifecycle methods below
and a model is whatever its own view expects.  The host only ever talks to views through
these methods, so the same plugin modules fit this tool and the methodic configurator.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeGuard, runtime_checkable

if TYPE_CHECKING:
    from amc_rc_receiver.backend_flightcontroller import FlightController


@dataclass(frozen=True)
class PluginModelContext:
    """The shared services a plugin's model factory may draw on.

    ``flight_controller`` is ``None`` while no flight controller is connected; plugins that
    register with ``requires_flight_controller=True`` are never created in that state.
    ``local_filesystem`` and ``parameter_editor`` are the parent application's services
    (``None`` in the standalone tool); this package never writes parameters through them.
    """

    flight_controller: FlightController | None
    local_filesystem: object | None = None
    parameter_editor: object | None = None


@runtime_checkable
class PluginView(Protocol):
    """Lifecycle every plugin view implements.

    ``on_activate`` starts timers and streams when the view becomes visible,
    ``on_deactivate`` stops them (it may be called more than once), and ``destroy`` releases
    everything for good.  Views are normally Tk widgets created inside the frame the host
    hands them.
    """

    def on_activate(self) -> None:
        """Start periodic work; the view is visible."""

    def on_deactivate(self) -> None:
        """Stop periodic work and release shared resources; the view is hidden."""

    def destroy(self) -> None:
        """Release every resource; the view will not be used again."""


@runtime_checkable
class SuspendablePluginView(PluginView, Protocol):
    """A view that can pause without losing its state, e.g. while a file browser is open.

    ``on_suspend``/``on_resume`` come in pairs; unlike deactivation, a suspension keeps
    whatever the user has already achieved (such as test evidence) for the resume.
    """

    def on_suspend(self) -> None:
        """Pause periodic work, keeping state for ``on_resume``."""

    def on_resume(self) -> None:
        """Continue after ``on_suspend``."""


def is_plugin_view(candidate: object) -> TypeGuard[PluginView]:
    """Whether ``candidate`` has callable ``on_activate``, ``on_deactivate`` and ``destroy``."""
    return all(
        callable(getattr(candidate, name, None)) for name in ("on_activate", "on_deactivate", "destroy")
    )


def supports_suspend(view: object) -> TypeGuard[SuspendablePluginView]:
    """Whether ``view`` has both suspend hooks; a view with only one of them is treated as legacy."""
    return (
        is_plugin_view(view)
        and callable(getattr(view, "on_suspend", None))
        and callable(getattr(view, "on_resume", None))
    )
