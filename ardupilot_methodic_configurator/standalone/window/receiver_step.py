# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window's receiver step: the chosen vehicle's step with its plugin and its parameter table.

The step is shown exactly as the methodic configurator would show it (plugin left, parameter
table right) through the window's `PluginHost`; the table shows the step's parameter file, or one
the person opens, read off the Tk thread (`background.ParameterFileRead`), and the plugin compares
the flight controller's values with it through `StepFiles`, under the names 5.0.1 uses.
"""

from __future__ import annotations

import contextlib
import tkinter as tk
from tkinter import filedialog
from typing import Protocol

from ... import _
from ...host.configuration_steps import (
    ConfigurationStep,
    ConfigurationStepsError,
    load_configuration_steps,
)
from ...host.param_file import ShownParameters, StepFiles
from ...host.parameter_table import ParameterTable
from ...plugins.plugin_constants import PLUGIN_RC_RECEIVER
from .background import ParameterFileRead
from .geometry import StepColumns, fit_scrollable_width
from .window_parts import WindowParts

FILE_READ_POLL_MS = 20


class _WindowLike(WindowParts, Protocol):
    @property
    def vehicle(self) -> str: ...


class ReceiverStepPane:
    """Shows the receiver step of the window's vehicle and the parameter file beside it."""

    def __init__(self, window: _WindowLike, step_files: StepFiles) -> None:
        self._window = window
        # The step's parameter file for the plugin's comparison (the host reads it from here).
        self.step_files = step_files
        self._parameters = ShownParameters()
        self._step: ConfigurationStep | None = None
        self._step_columns: StepColumns | None = None
        self._file_read: ParameterFileRead | None = None
        self._file_read_after_id: str | None = None
        self.parameter_table: ParameterTable | None = None

    @property
    def step(self) -> ConfigurationStep | None:
        return self._step

    @property
    def is_reading_file(self) -> bool:
        return self._file_read is not None

    def show(self) -> bool:
        """(Re)build the receiver step of the selected vehicle; ``False`` (reported) if impossible."""
        window = self._window
        vehicle = window.vehicle
        try:
            step = load_configuration_steps(vehicle).plugin_step(PLUGIN_RC_RECEIVER)
        except ConfigurationStepsError as error:
            window.connection_bar.show_status(str(error), error=True)
            return False
        if step is None:
            window.connection_bar.show_status(
                _("The {vehicle} configuration steps have no step with the {plugin} plugin.").format(
                    vehicle=vehicle, plugin=PLUGIN_RC_RECEIVER
                ),
                error=True,
            )
            return False
        host = window.host
        host.flight_controller = window.session.flight_controller
        layout = host.show_step(step)
        if layout is None:
            return False
        self._step = step
        parameters = self._parameters
        parameters.follow_vehicle(vehicle)
        table = ParameterTable(
            layout.content_frame,
            title=_("{vehicle}: step {step}").format(vehicle=vehicle, step=step.filename),
            description=step.why_now,
            on_open=self.open_parameter_file,
        )
        table.pack(fill=tk.BOTH, expand=True)
        table.show_entries(parameters.entries, parameters.source)
        self.step_files.show(vehicle, step.filename, parameters.entries)
        table.show_error(parameters.error)
        self.parameter_table = table
        if layout.plugin_frame is not None:
            fit_scrollable_width(layout.plugin_frame)
            if layout.placement == "left":
                # A plugin that can use a wider column says from which width on (the receiver
                # check: its second column); any other plugin gets all the table leaves.
                room = getattr(host.active_view, "two_column_width", None)
                room = room if callable(room) else None
                self._step_columns = StepColumns(layout, table.natural_width, room)
        if not window.session.flight_controller.is_connected:
            # Stopping restores the stream intervals on the link the model requested them on.
            host.stop_view()
        return True

    def open_parameter_file(self) -> None:
        """Ask for a .param file (the plugin pauses meanwhile) and show it; a bad file keeps the table."""
        window = self._window
        with window.host.paused():
            path = filedialog.askopenfilename(
                parent=window.root,
                title=_("Open parameter file"),
                filetypes=[(_("ArduPilot parameter files"), "*.param"), (_("All files"), "*")],
            )
        if not path or window.closed:
            return
        self.read_parameter_file(str(path))

    def read_parameter_file(self, path: str) -> None:
        """Read ``path`` off the Tk thread (a large file takes longer than a frame), then show it."""
        read = ParameterFileRead(path)
        self._file_read = read
        read.start()
        self._file_read_after_id = self._window.root.after(FILE_READ_POLL_MS, self._poll_file_read)

    def _poll_file_read(self) -> None:
        self._file_read_after_id = None
        read = self._file_read
        if read is None or self._window.closed:
            return
        if not read.done:
            self._file_read_after_id = self._window.root.after(FILE_READ_POLL_MS, self._poll_file_read)
            return
        self._file_read = None
        self._show_parameter_file(read.path, self._parameters.use_file(read.path, read.entries, read.error))

    def load_parameter_file(self, path: str) -> bool:
        """Read and show ``path`` at once, on the calling thread."""
        return self._show_parameter_file(path, self._parameters.open_file(path))

    def _show_parameter_file(self, path: str, ok: bool) -> bool:
        parameters = self._parameters
        if not ok:
            if self.parameter_table is not None:
                self.parameter_table.show_error(parameters.error)
            return False
        if self.parameter_table is not None:
            self.parameter_table.show_entries(parameters.entries, path)
            if self._step_columns is not None:
                self._step_columns.refresh()
        if self._step is not None:
            self.step_files.show(self._window.vehicle, self._step.filename, parameters.entries)
        return True

    def close(self) -> None:
        """Stop waiting for a file read (the read itself ends by itself, unshown)."""
        after_id, self._file_read_after_id = self._file_read_after_id, None
        if after_id is not None:
            with contextlib.suppress(tk.TclError):
                self._window.root.after_cancel(after_id)
