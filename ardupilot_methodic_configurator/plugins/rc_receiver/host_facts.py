# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the guided test reads of its host, read each time because the host changes it under it.

The flight controller's ``fc_parameters`` (the methodic configurator fills them at connect; empty
in our own window, where the names are read instead), ``info`` (the vehicle type and firmware
where the host has them), the step's parameter file (``parameter_editor.current_file`` in
``local_filesystem.file_parameters``), ``local_filesystem.vehicle_type`` and ``vehicle_dir`` for
reports.  A missing attribute means "not known"; nothing here raises.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from operator import itemgetter
from types import MappingProxyType
from typing import Any

from .readings import readable_text

# No values: shared, never written.
NO_VALUES: Mapping[str, float] = MappingProxyType({})


def _float_or_none(value: object) -> float | None:
    if type(value) is float:
        return None if math.isnan(value) else value
    raw = getattr(value, "value", value)  # ParDict entries and our ParamEntry carry .value
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        return None
    number = float(raw)
    return None if math.isnan(number) else number


class HostFacts:
    """The host's flight controller, files and parameter editor, as far as the check reads them."""

    def __init__(self, flight_controller: object, local_filesystem: object, parameter_editor: object) -> None:
        self._fc = flight_controller
        self._files = local_filesystem
        self._editor = parameter_editor

    def download(self) -> Mapping[str, Any]:
        """The host's parameter download (not to be written), empty when it has none."""
        values = getattr(self._fc, "fc_parameters", None)
        if type(values) is dict:  # the usual case, told without the abstract class's slower check
            return values
        return values if isinstance(values, Mapping) else {}

    def vehicle_type(self) -> object:
        """The host's vehicle type (a MAV_TYPE number or a name), or None."""
        return getattr(getattr(self._fc, "info", None), "vehicle_type", None)

    def files_vehicle_type(self) -> object:
        return getattr(self._files, "vehicle_type", None)

    def firmware_text(self) -> str | None:
        """The firmware the host read from the vehicle, shown escaped and bounded."""
        info = getattr(self._fc, "info", None)
        for attribute in ("flight_sw_version_and_type", "flight_sw_version"):
            value = getattr(info, attribute, None)
            if isinstance(value, str) and value.strip():
                return readable_text(value)
        return None

    def step_file(self) -> tuple[str | None, dict[str, float]]:
        """The step's parameter file open in the editor and its numeric values."""
        name = getattr(self._editor, "current_file", None)
        files = getattr(self._files, "file_parameters", None)
        if not isinstance(name, str) or not isinstance(files, Mapping):
            return None, {}
        entries = files.get(name)
        if not isinstance(entries, Mapping):
            return None, {}
        values = {key: number for key, raw in entries.items() if (number := _float_or_none(raw)) is not None}
        return name, values

    def report_directory(self) -> str | None:
        directory = getattr(self._files, "vehicle_dir", None)
        return directory if isinstance(directory, str) and directory else None


def _no_values(download: Mapping[str, Any]) -> tuple[()]:
    del download
    return ()


class HostLookup:
    """The host's numbers for one tuple of names, converted again only when one of them moved.

    The host's download holds about a thousand parameters, the check reads about a hundred of
    them every poll, and the download rarely changes; but the methodic configurator writes new
    values into the same dictionary (a parameter upload), so neither its identity nor its size
    tells a change.  Each poll therefore takes the names' raw values in one C call and compares
    them with the previous ones; a name that vanished, one that appeared or a value that is no
    plain number (an entry object whose value might change inside it) makes the lookup start over.
    """

    def __init__(self) -> None:
        self._names: tuple[str, ...] | None = None
        self._present: Callable[[Mapping[str, Any]], object] = _no_values
        self._absent: frozenset[str] = frozenset()
        self._raw: object = None
        self._plain = False
        self._numbers: Mapping[str, float] = {}

    def numbers(self, download: Mapping[str, Any], names: tuple[str, ...]) -> Mapping[str, float]:
        if names is self._names and self._plain:
            try:
                raw = self._present(download)
            except KeyError:  # a name the download held has gone
                raw = None
            # (the keys' isdisjoint goes through the few absent names, not the thousand keys)
            if raw == self._raw and download.keys().isdisjoint(self._absent):
                return self._numbers
        return self._look_up(download, names)

    def _look_up(self, download: Mapping[str, Any], names: tuple[str, ...]) -> Mapping[str, float]:
        present = tuple(name for name in names if name in download)
        self._names = names
        self._present = itemgetter(*present) if present else _no_values
        self._absent = frozenset(names).difference(present)
        self._raw = self._present(download)
        numbers = {}
        plain = True
        for name in present:
            value = download[name]
            if type(value) is float:  # a download of plain numbers: the common case
                if not math.isnan(value):
                    numbers[name] = value
            else:
                # a number is immutable, so comparing it tells a change; an entry object is not
                plain = plain and type(value) is int
                number = _float_or_none(value)
                if number is not None:
                    numbers[name] = number
        self._plain = plain
        self._numbers = numbers
        return numbers
