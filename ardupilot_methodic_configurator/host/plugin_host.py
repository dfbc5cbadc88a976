# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The part of a parameter editor that shows a step's plugin and drives its lifecycle.

For each step the host builds a layout (a plugin frame left of or above the frame where the
parameter table goes), asks the plugin registry for a model and a view, and activates the
view.  It pauses that same view while something else owns the connection (a file browser, a
reconnection), the way the methodic configurator 5.0.1 does: ``on_suspend(reason)`` /
``on_resume()`` where the view has both, else ``on_deactivate()`` / ``on_activate()``.  It
deactivates and destroys the view when the step changes.  Every call into plugin code is
guarded: a failing plugin becomes a readable message in its frame and in ``errors``, never an
exception in the host.
"""

from __future__ import annotations

import logging
import tkinter as tk
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from tkinter import ttk
from typing import TYPE_CHECKING, TypeGuard

from .. import _
from ..plugins.plugin_constants import PLACEMENT_LEFT, PLACEMENT_TOP
from ..plugins.plugin_factory import PluginFactory, PluginModelContext, plugin_factory
from ..plugins.plugin_protocol import (
    PluginPauseReason,
    PluginView,
    resolve_plugin_lifecycle,
)

if TYPE_CHECKING:
    from ..backend_flightcontroller import FlightController
    from .configuration_steps import ConfigurationStep

logger = logging.getLogger(__name__)

# Enough to see what went wrong in a session without letting a plugin that fails on every
# call grow memory.
MAX_KEPT_ERRORS = 20
NOTICE_WRAP_PIXELS = 260


class ViewState(Enum):
    """Where the current view is in its lifecycle."""

    ACTIVE = "active"
    SUSPENDED = "suspended"  # paused with on_suspend; resumes with on_resume
    DEACTIVATED = "deactivated"  # paused with on_deactivate (legacy view); resumes with on_activate
    STOPPED = "stopped"  # stopped by the editor with on_deactivate (no vehicle); starts with on_activate


@dataclass(frozen=True)
class StepLayout:
    """The frames of one step: the parameter table goes in ``content_frame``.

    ``plugin_frame`` is ``None`` for a step without a plugin; ``placement`` is then ``None`` too.
    """

    container: ttk.Frame
    content_frame: ttk.Frame
    plugin_frame: ttk.Frame | None
    placement: str | None


class PluginHost:
    """Shows the plugin of the current step inside ``parent_frame`` (which the host fills alone)."""

    def __init__(
        self,
        parent_frame: tk.Misc,
        flight_controller: FlightController | None,
        local_filesystem: object | None = None,
        parameter_editor: object | None = None,
        factory: PluginFactory = plugin_factory,
        *,
        base_window: object | None = None,
        on_error: Callable[[str], None] | None = None,
    ) -> None:
        self._parent = parent_frame
        # Public so that a reconnect can hand in the new controller; used from the next step on.
        self.flight_controller = flight_controller
        self._local_filesystem = local_filesystem
        self._parameter_editor = parameter_editor
        self._factory = factory
        self._base_window = base_window
        self._on_error = on_error
        self._errors: deque[str] = deque(maxlen=MAX_KEPT_ERRORS)
        self._layout: StepLayout | None = None
        self._step: ConfigurationStep | None = None
        self._plugin_name: str | None = None
        self._model: object = None
        self._view: PluginView | None = None
        self._state: ViewState | None = None
        self._notice: ttk.Label | None = None
        self._pause_depth = 0
        self._paused_view: PluginView | None = None
        self._resume_call: Callable[[], None] | None = None
        self._closed = False

    # -- what the host currently shows ------------------------------------------------------

    @property
    def active_view(self) -> PluginView | None:
        """The view of the current step, if one was built."""
        return self._view

    @property
    def active_model(self) -> object:
        """The model the current view was built with (``None`` without one)."""
        return self._model

    @property
    def active_plugin_name(self) -> str | None:
        """Name of the plugin whose view is shown."""
        return self._plugin_name

    @property
    def view_state(self) -> ViewState | None:
        """Lifecycle state of the current view (``None`` without a view)."""
        return self._state if self._view is not None else None

    @property
    def layout(self) -> StepLayout | None:
        """Frames of the current step."""
        return self._layout

    @property
    def is_paused(self) -> bool:
        """Whether a pause (file browser, reconnection) is in progress."""
        return self._pause_depth > 0

    @property
    def notice(self) -> str | None:
        """The message shown in the plugin frame instead of a view, if any."""
        if self._notice is None:
            return None
        try:
            return str(self._notice.cget("text"))
        except tk.TclError:
            return None

    @property
    def errors(self) -> tuple[str, ...]:
        """The most recent plugin errors, oldest first (bounded)."""
        return tuple(self._errors)

    @property
    def last_error(self) -> str | None:
        """The most recent plugin error."""
        return self._errors[-1] if self._errors else None

    # -- step changes ---------------------------------------------------------------------------

    def show_step(self, step: ConfigurationStep) -> StepLayout | None:
        """Leave the current step, build the layout of ``step`` and start its plugin, if any.

        Returns ``None`` (and reports why) when the host is closed or its parent is gone.
        """
        self.leave_step()
        if self._closed or not _widget_exists(self._parent):
            self._report(
                _("Cannot show step {filename}: the plugin area is closed.").format(filename=step.filename)
            )
            return None
        plugin = step.plugin
        placement = plugin.placement if plugin is not None else None
        layout = self._build_layout(placement)
        self._layout = layout
        self._step = step
        if plugin is not None and layout.plugin_frame is not None:
            self._start_plugin(plugin.name, layout.plugin_frame)
        return layout

    def leave_step(self) -> None:
        """Deactivate and destroy the current view and remove the step's frames."""
        view, state = self._view, self._state
        self._view = None
        self._state = None
        self._paused_view = None
        self._resume_call = None
        self._model = None
        name = self._plugin_name or "?"
        self._plugin_name = None
        if view is not None and _still_alive(view):
            if state in (ViewState.ACTIVE, ViewState.SUSPENDED):
                self._guarded(name, _("deactivate"), view.on_deactivate)
            self._guarded(name, _("close"), view.destroy)
        if self._layout is not None:
            try:
                self._layout.container.destroy()
            except tk.TclError:
                logger.debug("step frames were already destroyed")
        self._layout = None
        self._step = None
        self._notice = None

    def close(self) -> None:
        """Window close: leave the step and refuse further steps."""
        self.leave_step()
        self._pause_depth = 0
        self._closed = True

    # -- pauses ---------------------------------------------------------------------------------

    def pause(self, reason: PluginPauseReason = PluginPauseReason.EXCLUSIVE_OPERATION) -> None:
        """Pause the active view while something else owns the connection (calls nest)."""
        self._pause_depth += 1
        if self._pause_depth > 1 or self._view is None or self._state is not ViewState.ACTIVE:
            return
        view = self._view
        lifecycle = resolve_plugin_lifecycle(view, reason)
        if lifecycle is None:
            return
        suspend, self._resume_call = lifecycle
        self._paused_view = view
        suspendable = all(callable(getattr(view, name, None)) for name in ("on_suspend", "on_resume"))
        self._state = ViewState.SUSPENDED if suspendable else ViewState.DEACTIVATED
        self._guarded(self._plugin_name or "?", _("suspend") if suspendable else _("deactivate"), suspend)

    def resume(self) -> None:
        """Resume the view paused by the matching :meth:`pause`.

        Only that same view is resumed, and only if the step did not change and its frame still
        exists; a window closed meanwhile is simply forgotten.
        """
        if self._pause_depth == 0:
            return
        self._pause_depth -= 1
        if self._pause_depth > 0:
            return
        view, self._paused_view = self._paused_view, None
        resume_call, self._resume_call = self._resume_call, None
        if view is None or view is not self._view or resume_call is None:
            return
        if (
            self._layout is None
            or self._layout.plugin_frame is None
            or not _widget_exists(self._layout.plugin_frame)
        ):
            # Tk destroyed the view with its parent; nothing is left to resume or clean up.
            self._view = None
            self._state = None
            self._model = None
            self._layout = None
            self._step = None
            self._notice = None
            return
        action = _("resume") if self._state is ViewState.SUSPENDED else _("activate")
        self._guarded(self._plugin_name or "?", action, resume_call)
        self._state = ViewState.ACTIVE

    @contextmanager
    def paused(self, reason: PluginPauseReason = PluginPauseReason.EXCLUSIVE_OPERATION) -> Iterator[None]:
        """``with host.paused(): run_modal_browser()`` pauses and resumes around the block."""
        self.pause(reason)
        try:
            yield
        finally:
            self.resume()

    # -- stopping while there is no vehicle -------------------------------------------------------

    def stop_view(self) -> None:
        """Deactivate the view while the editor has no vehicle to talk to; a pause no longer touches it."""
        if self._view is None or self._state in (None, ViewState.STOPPED):
            return
        paused_by_deactivate = self._state is ViewState.DEACTIVATED
        # A pause in progress must not bring a stopped view back to life when it ends.
        self._paused_view = None
        self._resume_call = None
        self._state = ViewState.STOPPED
        if not paused_by_deactivate:
            self._guarded(self._plugin_name or "?", _("deactivate"), self._view.on_deactivate)

    def start_view(self) -> None:
        """Activate a view stopped by :meth:`stop_view`; during a pause, when the pause ends."""
        view = self._view
        if view is None or self._state is not ViewState.STOPPED:
            return
        if self._pause_depth > 0:
            self._paused_view = view
            self._resume_call = view.on_activate
            self._state = ViewState.DEACTIVATED
            return
        self._state = ViewState.ACTIVE
        self._guarded(self._plugin_name or "?", _("activate"), view.on_activate)

    # -- internals ------------------------------------------------------------------------------

    def _build_layout(self, placement: str | None) -> StepLayout:
        container = ttk.Frame(self._parent)
        container.pack(fill=tk.BOTH, expand=True)
        if placement is None:
            content = ttk.Frame(container)
            content.pack(fill=tk.BOTH, expand=True)
            return StepLayout(container, content, None, None)
        # Made before the content, so that Tab reaches the plugin first, as a person reads it.
        plugin_frame = ttk.Frame(container)
        content = ttk.Frame(container)
        if placement == PLACEMENT_TOP:
            container.columnconfigure(0, weight=1)
            container.rowconfigure(1, weight=1)
            plugin_frame.grid(row=0, column=0, sticky="ew")
            content.grid(row=1, column=0, sticky="nsew")
        else:
            if placement != PLACEMENT_LEFT:
                self._report(
                    _("Unknown plugin placement '{placement}'; showing the plugin on the left.").format(
                        placement=placement
                    )
                )
                placement = PLACEMENT_LEFT
            container.columnconfigure(1, weight=1)
            container.rowconfigure(0, weight=1)
            plugin_frame.grid(row=0, column=0, sticky="nsew")
            content.grid(row=0, column=1, sticky="nsew")
        return StepLayout(container, content, plugin_frame, placement)

    def _start_plugin(self, name: str, frame: ttk.Frame) -> None:
        factory = self._factory
        if not factory.is_registered(name):
            self._report(
                _(
                    "Plugin '{name}' is not available in this program (registered plugins: {available})."
                ).format(name=name, available=", ".join(factory.available_plugins()) or _("none")),
                frame,
            )
            return
        if self.flight_controller is None and factory.requires_flight_controller(name):
            self._show_notice(
                frame, _("Connect to a flight controller to use the {name} plugin.").format(name=name)
            )
            return
        context = PluginModelContext(self.flight_controller, self._local_filesystem, self._parameter_editor)
        try:
            model = factory.create_model(name, context)
        except Exception as exc:  # plugin code must not break the editor
            self._report(
                _("Plugin '{name}' could not create its data model: {error}").format(
                    name=name, error=_describe(exc)
                ),
                frame,
            )
            return
        try:
            created = factory.create(name, frame, model, self._base_window)
        except Exception as exc:  # plugin code must not break the editor
            self._report(
                _("Plugin '{name}' could not create its view: {error}").format(
                    name=name, error=_describe(exc)
                ),
                frame,
            )
            return
        if not _has_lifecycle(created):
            self._report(
                _(
                    "Plugin '{name}' returned a {kind} that lacks on_activate, on_deactivate or destroy."
                ).format(name=name, kind=type(created).__name__),
                frame,
            )
            return
        view: PluginView = created
        widget: object = view
        self._plugin_name = name
        self._model = model
        self._view = view
        self._state = ViewState.ACTIVE
        if isinstance(widget, tk.Widget):
            try:
                if not widget.winfo_manager():
                    widget.pack(fill=tk.BOTH, expand=True)
            except tk.TclError as exc:
                self._report(
                    _("Plugin '{name}' could not be placed: {error}").format(name=name, error=_describe(exc)),
                    frame,
                )
        self._guarded(name, _("activate"), view.on_activate)

    def _guarded(self, name: str, action: str, call: Callable[[], object]) -> bool:
        """Run one plugin lifecycle call; a failure becomes a reported message."""
        try:
            call()
        except Exception as exc:  # plugin code must not break the editor
            self._report(
                _("Plugin '{name}' failed to {action}: {error}").format(
                    name=name, action=action, error=_describe(exc)
                )
            )
            return False
        return True

    def _report(self, message: str, frame: tk.Misc | None = None) -> None:
        logger.error("%s", message)
        self._errors.append(message)
        if frame is not None:
            self._show_notice(frame, message)
        if self._on_error is not None:
            try:
                self._on_error(message)
            except Exception:  # the error sink itself failing must not hide the original error
                logger.exception("the plugin error callback failed")

    def _show_notice(self, frame: tk.Misc, message: str) -> None:
        try:
            if self._notice is not None and _widget_exists(self._notice):
                self._notice.configure(text=message)
                return
            self._notice = ttk.Label(frame, text=message, wraplength=NOTICE_WRAP_PIXELS, justify=tk.LEFT)
            self._notice.pack(fill=tk.X, padx=6, pady=6)
        except tk.TclError:
            logger.debug("plugin frame vanished before the notice could be shown")


def _has_lifecycle(candidate: object) -> TypeGuard[PluginView]:
    return all(
        callable(getattr(candidate, name, None)) for name in ("on_activate", "on_deactivate", "destroy")
    )


def _widget_exists(widget: tk.Misc) -> bool:
    try:
        return bool(widget.winfo_exists())
    except tk.TclError:  # the whole Tk application is gone
        return False


def _still_alive(view: object) -> bool:
    """A Tk view whose window is gone was already destroyed with its parent."""
    return _widget_exists(view) if isinstance(view, tk.Misc) else True


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
