# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Stand-in for the methodic configurator's ``plugins/plugin_protocol`` module.

The plugin modules of this package are copied unchanged into the methodic configurator 5.0.1,
where they import this module's names from the host's own module.  So this file offers the same
names with the same meaning and nothing the plugins could come to rely on that 5.0.1 lacks:
``PluginPauseReason``, the structural ``PluginView`` and ``SuspendablePlugin`` protocols, and
``resolve_plugin_lifecycle``, which picks the pause/resume pair a host calls.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum, auto
from functools import partial
from typing import Protocol, cast


class PluginPauseReason(Enum):
    """Why the host takes the shared flight-controller connection away from a plugin for a while."""

    # A parameter upload or download, the file browser, the MAVLink inspector, the banner, a reset.
    EXCLUSIVE_OPERATION = auto()
    # The host is re-establishing a lost link: a plugin must not send anything meanwhile.
    CONNECTION_RECOVERY = auto()


class SuspendablePlugin(Protocol):
    """A view that can yield the connection and take it back without losing its workflow state."""

    def on_suspend(self, reason: PluginPauseReason = PluginPauseReason.EXCLUSIVE_OPERATION) -> None:
        """Stop reading (and, for a recovery, stop sending) until ``on_resume``."""

    def on_resume(self) -> None:
        """Read again; idempotent.  Samples that queued meanwhile are not shown as live."""


class PluginView(Protocol):
    """Lifecycle every plugin view implements; views are Tk widgets built inside the host's frame."""

    def pack(self, *, fill: str = "none", expand: bool = False, **kwargs: str | bool | int) -> None:
        """Place the view in the frame the host gave it."""

    def on_activate(self) -> None:
        """The view became visible: start timers and streams."""

    def on_deactivate(self) -> None:
        """The view was hidden: stop timers and hand shared resources back (may be called twice)."""

    def destroy(self) -> None:
        """Release everything for good."""


def resolve_plugin_lifecycle(
    plugin: object, reason: PluginPauseReason
) -> tuple[Callable[[], None], Callable[[], None]] | None:
    """The (pause, resume) pair for ``plugin``: suspend/resume when it has both, else hide/show.

    ``None`` when the plugin has neither pair, so the host knows there is nothing to pause.
    """
    if callable(getattr(plugin, "on_suspend", None)) and callable(getattr(plugin, "on_resume", None)):
        suspendable = cast("SuspendablePlugin", plugin)
        return partial(suspendable.on_suspend, reason), suspendable.on_resume
    if callable(getattr(plugin, "on_deactivate", None)) and callable(getattr(plugin, "on_activate", None)):
        view = cast("PluginView", plugin)
        return view.on_deactivate, view.on_activate
    return None
