# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The step's parameter file: a read-only ``.param`` parser, what the window shows, and the file
services the plugin reads from its host.

ArduPilot parameter files hold ``NAME,VALUE  # comment`` (or ``NAME VALUE``) per line.  The window
shows the bundled example receiver parameters of the vehicle until the user opens a file
(`ShownParameters`).  In the methodic configurator the receiver plugin finds the step's file as
``local_filesystem.file_parameters[parameter_editor.current_file]`` and the vehicle directory as
``local_filesystem.vehicle_dir``; `StepFiles` offers the same names in our window, with no vehicle
directory (so *Save report…* asks where to save).
"""

from __future__ import annotations

import math
import os
import re
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING

from .. import _
from ..plugins.rc_receiver.readings import readable_text

if TYPE_CHECKING:
    from importlib.abc import Traversable


# The installed package (amc_rc_receiver), whatever folder it was built from.
_PACKAGE = __name__.split(".", 1)[0]
# Bundled examples live in data/<vehicle>/, named like that vehicle's receiver step file
# (05_remote_controller_receiver.param for ArduCopter and ArduPlane, 08_… for Heli and Rover).
EXAMPLE_DIRECTORY = "data"
EXAMPLE_VEHICLE = "ArduCopter"
RECEIVER_STEP_SUFFIX = "_remote_controller_receiver.param"
# ArduPilot parameter names are upper case, start with a letter and are at most 16 characters.
PARAM_NAME_MAX_LENGTH = 16
_NAME = re.compile(r"^[A-Z][A-Z0-9_]*$")
# Name and value are separated by a comma (Mission Planner, the methodic configurator) or by
# white space (MAVProxy, QGroundControl exports without the vehicle columns).  The line is split at
# its first separator, so reading it takes time in proportion to its length (a pattern that let
# the separator's spaces match in several ways took seconds for one long line).
_SEPARATOR = re.compile(r"[\s,]")
# ASCII digits only, as ArduPilot reads them: not Arabic-Indic or full-width ones.
_NUMBER = re.compile(r"^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$", re.ASCII)
# ArduPilot parameter files are kilobytes; a file a thousand times larger is not one.
MAX_FILE_BYTES = 1 << 20
# What an error quotes of a bad line: enough to find it, never the whole line.
MAX_QUOTED = 60
# A file with thousands of broken lines is not a parameter file; the first few say so, and
# reading stops after MAX_CHECKED_PROBLEMS (half a million bad lines took a second to describe).
MAX_REPORTED_PROBLEMS = 10
MAX_CHECKED_PROBLEMS = 1000


@dataclass(frozen=True)
class ParamEntry:
    """One parameter line: ``comment`` is the text after ``#`` (``None`` without one)."""

    name: str
    value: float
    comment: str | None = None
    line: int = 0


@dataclass(frozen=True)
class ParamLineProblem:
    """What is wrong on one line (1-based ``line``)."""

    line: int
    reason: str


class ParamFileError(ValueError):
    """A ``.param`` file could not be read or has bad lines; ``problems`` lists every bad line."""

    def __init__(
        self,
        source: str,
        problems: tuple[ParamLineProblem, ...] = (),
        reason: str | None = None,
        *,
        stopped: bool = False,
    ) -> None:
        self.source = source
        self.problems = problems
        # True when reading stopped at MAX_CHECKED_PROBLEMS: later lines were not looked at.
        self.stopped = stopped
        parts = [] if reason is None else [_("{source}: {reason}").format(source=source, reason=reason)]
        parts += [
            _("{source} line {line}: {reason}").format(
                source=source, line=problem.line, reason=problem.reason
            )
            for problem in problems[:MAX_REPORTED_PROBLEMS]
        ]
        if stopped:
            parts.append(
                _("{source}: stopped after {count} bad lines: not an ArduPilot parameter file").format(
                    source=source, count=len(problems)
                )
            )
        elif len(problems) > MAX_REPORTED_PROBLEMS:
            parts.append(
                _("{source}: and {count} more bad lines").format(
                    source=source, count=len(problems) - MAX_REPORTED_PROBLEMS
                )
            )
        super().__init__("\n".join(parts))


def read_param_file(path: str | os.PathLike[str]) -> tuple[ParamEntry, ...]:
    """Parse the ``.param`` file at ``path``; raise :class:`ParamFileError` naming file and lines."""
    source = os.fspath(path)
    try:
        data = _read_regular_file(source)
    except OSError as exc:
        raise ParamFileError(
            source, reason=_("cannot be read: {error}").format(error=exc.strerror or exc)
        ) from exc
    if data is None:
        raise ParamFileError(source, reason=_("is not a regular file (a device, a pipe or a folder)"))
    if len(data) > MAX_FILE_BYTES:
        raise ParamFileError(
            source,
            reason=_("is larger than {size} MiB: not an ArduPilot parameter file").format(
                size=MAX_FILE_BYTES >> 20
            ),
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ParamFileError(
            source, reason=_("is not UTF-8 text (byte {offset})").format(offset=exc.start)
        ) from exc
    return parse_param_text(text, source)


def _read_regular_file(path: str) -> bytes | None:
    """At most one byte more than `MAX_FILE_BYTES` of the regular file at ``path``; None for
    anything else.  Opened without blocking, so a pipe or a device never holds the caller."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return None
        chunks: list[bytes] = []
        left = MAX_FILE_BYTES + 1
        while left > 0:
            chunk = os.read(descriptor, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def example_receiver_param_file(vehicle: str = EXAMPLE_VEHICLE) -> str:
    """``<vehicle>/<NN>_remote_controller_receiver.param``: the bundled receiver example of ``vehicle``.

    Raises :class:`ParamFileError` when the package has no example for that vehicle type.
    """
    return f"{vehicle}/{_example_resource(vehicle).name}"


def read_example_receiver_params(vehicle: str = EXAMPLE_VEHICLE) -> tuple[ParamEntry, ...]:
    """The receiver-step example of ``vehicle`` shipped with the package."""
    resource = _example_resource(vehicle)
    return parse_param_text(resource.read_text(encoding="utf-8-sig"), f"{vehicle}/{resource.name}")


class ShownParameters:
    """The parameters the receiver step shows: the vehicle's bundled example until a file is opened.

    A file that cannot be read leaves the last good parameters shown, with its error beside them.
    """

    def __init__(self) -> None:
        self.entries: tuple[ParamEntry, ...] = ()
        self.source = ""
        self.error: str | None = None
        self._from_file = False

    def follow_vehicle(self, vehicle: str) -> None:
        """Show ``vehicle``'s bundled example, unless the user opened a file of their own."""
        if self._from_file:
            return
        try:
            self.entries = read_example_receiver_params(vehicle)
            self.source = _("the bundled example {name}").format(name=example_receiver_param_file(vehicle))
            self.error = None
        except (OSError, ParamFileError) as error:
            self.entries = ()
            self.error = str(error)

    def open_file(self, path: str) -> bool:
        """Show the file at ``path``; ``False`` (with ``error`` set) if it cannot be used."""
        try:
            entries = read_param_file(path)
        except ParamFileError as error:
            return self.use_file(path, None, str(error))
        return self.use_file(path, entries, None)

    def use_file(self, path: str, entries: tuple[ParamEntry, ...] | None, error: str | None) -> bool:
        """Show what reading ``path`` gave (read elsewhere, e.g. off the window's thread)."""
        if entries is None:
            self.error = error or _("{path} could not be read").format(path=path)
            return False
        self.entries = entries
        self.source = path
        self.error = None
        self._from_file = True
        return True


def _example_resource(vehicle: str) -> Traversable:
    folder = resources.files(_PACKAGE) / EXAMPLE_DIRECTORY / vehicle
    found = []
    if folder.is_dir():
        found = sorted(
            (entry for entry in folder.iterdir() if entry.name.endswith(RECEIVER_STEP_SUFFIX)),
            key=lambda entry: entry.name,
        )
    if not found:
        raise ParamFileError(
            f"{EXAMPLE_DIRECTORY}/{vehicle}",
            reason=_("there is no bundled receiver example for vehicle type '{vehicle}'").format(
                vehicle=vehicle
            ),
        )
    return found[0]


def parse_param_text(text: str, source: str) -> tuple[ParamEntry, ...]:
    """Parse ``.param`` text; ``source`` names it in error messages."""
    entries: list[ParamEntry] = []
    problems: list[ParamLineProblem] = []
    first_line_of: dict[str, int] = {}
    stopped = False
    for number, raw in enumerate(text.splitlines(), start=1):
        if len(problems) >= MAX_CHECKED_PROBLEMS:
            stopped = True
            break
        content, _hash, comment_text = raw.partition("#")
        content = content.strip()
        if not content:
            continue
        comment = comment_text.strip() if _hash else None
        entry_or_reason = _parse_line(content, comment, number)
        if isinstance(entry_or_reason, str):
            problems.append(ParamLineProblem(number, entry_or_reason))
            continue
        if entry_or_reason.name in first_line_of:
            problems.append(
                ParamLineProblem(
                    number,
                    _("{name} is already set on line {first}").format(
                        name=entry_or_reason.name, first=first_line_of[entry_or_reason.name]
                    ),
                )
            )
            continue
        first_line_of[entry_or_reason.name] = number
        entries.append(entry_or_reason)
    if problems:
        raise ParamFileError(source, tuple(problems), stopped=stopped)
    return tuple(entries)


def _parse_line(content: str, comment: str | None, number: int) -> ParamEntry | str:
    """The entry on one non-empty line, or the reason it is not one."""
    separator = _SEPARATOR.search(content)
    if separator is None:
        return _("'{text}' has no value; expected NAME,VALUE").format(text=_quoted(content))
    name = content[: separator.start()]
    value_text = content[separator.start() :].strip()
    if value_text.startswith(","):
        value_text = value_text[1:].lstrip()
    if not name or not value_text or _SEPARATOR.search(value_text):
        return _("'{text}' is not of the form NAME,VALUE").format(text=_quoted(content))
    if not _NAME.match(name):
        return _("'{name}' is not a parameter name (upper-case letters, digits and _)").format(
            name=_quoted(name)
        )
    if len(name) > PARAM_NAME_MAX_LENGTH:
        return _("'{name}' is longer than {limit} characters").format(
            name=_quoted(name), limit=PARAM_NAME_MAX_LENGTH
        )
    shown = _quoted(value_text)
    if not _NUMBER.match(value_text):
        return _("the value of {name}, '{value}', is not a number").format(name=name, value=shown)
    value = float(value_text)
    if not math.isfinite(value):
        return _("the value of {name}, '{value}', is out of range").format(name=name, value=shown)
    return ParamEntry(name=name, value=value, comment=comment or None, line=number)


def _quoted(text: str) -> str:
    """A bounded, printable excerpt of a file's text for an error message."""
    return readable_text(text, MAX_QUOTED)


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
