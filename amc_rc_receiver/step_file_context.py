# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window's stand-in for the methodic configurator's file services, as the plugin reads them.

In the methodic configurator the receiver plugin finds the step's parameter file (what the user is
about to upload) as ``local_filesystem.file_parameters[parameter_editor.current_file]`` and the
vehicle directory as ``local_filesystem.vehicle_dir``.  Our window offers the same attribute names
from one small object: the file shown in the parameter table under the step's file name, and no
vehicle directory (so "Save report…" asks where to save).
"""

from __future__ import annotations

from collections.abc import Iterable

from amc_rc_receiver.param_file import ParamEntry


class StepFiles:
    """``file_parameters``, ``current_file``, ``vehicle_dir`` and ``vehicle_type``, as 5.0.1 names them."""

    def __init__(self) -> None:
        self.current_file: str | None = None
        self.vehicle_type: str | None = None
        self.vehicle_dir: str | None = None
        self.file_parameters: dict[str, dict[str, ParamEntry]] = {}

    def show(self, vehicle: str, filename: str, entries: Iterable[ParamEntry]) -> None:
        """The receiver step ``filename`` of ``vehicle`` now shows ``entries``."""
        self.vehicle_type = vehicle
        self.current_file = filename
        self.file_parameters = {filename: {entry.name: entry for entry in entries}}
