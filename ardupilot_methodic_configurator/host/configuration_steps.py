# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Load a vehicle's configuration step file, validate it, and hand out frozen step records.

The JSON files and their schema live in the repository's top-level ``configuration_steps/``
folder and are installed as package data in ``amc_rc_receiver/configuration_steps/`` (wheel,
sdist, PyInstaller bundle); an editable install or a plain source checkout reads the top-level
folder itself (:func:`steps_directory`).  Every file is checked against the schema when it is
read (plus two cross-references the schema cannot express); a bad file raises one
:class:`ConfigurationStepsError` that names the file, the JSON path and what is wrong, never a
half-loaded result.

The schema accepts the methodic configurator 5.0.1's own step files unchanged, so the same
loader reads them (:func:`load_configuration_steps_file`, or ``load_configuration_steps(vehicle,
directory=...)``) and finds their plugin entries.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

# jsonschema ships no type information; its untyped surface stays inside _schema_problems().
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from .. import _

if TYPE_CHECKING:
    from importlib.abc import Traversable

# The installed package (amc_rc_receiver), whatever folder it was built from.
_PACKAGE = __name__.split(".", 1)[0]
# The folder name both inside the installed package and at the top of the repository.
STEPS_DIRECTORY = "configuration_steps"
# In a source checkout (editable install, or the package run from the repository) the step
# files are not inside the package but in the repository's top-level folder.
_CHECKOUT_STEPS_DIRECTORY = Path(__file__).resolve().parents[2] / STEPS_DIRECTORY
SCHEMA_FILENAME = "configuration_steps_schema.json"
_STEP_FILE_PATTERN = re.compile(r"^configuration_steps_(?P<vehicle>[A-Za-z0-9]+)\.json$")
# A broken file can violate the schema in hundreds of places; the first few locate the problem.
MAX_REPORTED_PROBLEMS = 5
# The methodic configurator 5.0.1's step files are 128-171 KB and nest 5 levels deep; a file far
# beyond either is not a step file, and reading it whole (or recursing into it) would only stall.
MAX_STEP_FILE_CHARS = 8 << 20
MAX_NESTING = 32


class ConfigurationStepsError(ValueError):
    """A step file could not be read, parsed or validated.

    ``source`` is the file name, ``json_path`` the location of the first problem (``$`` for the
    whole document, ``None`` when the file could not be read) and ``reason`` what is wrong.
    """

    def __init__(self, source: str, json_path: str | None, reason: str) -> None:
        self.source = source
        self.json_path = json_path
        self.reason = reason
        where = source if json_path is None else _("{source} at {path}").format(source=source, path=json_path)
        super().__init__(_("{where}: {reason}").format(where=where, reason=reason))


@dataclass(frozen=True)
class StepPlugin:
    """The plugin a step shows with its parameters; ``placement`` is ``"left"`` or ``"top"``."""

    name: str
    placement: str
    condition: str | None = None


@dataclass(frozen=True)
class ParameterChange:
    """A forced (literal) or derived (expression) parameter value suggested by a step."""

    name: str
    new_value: float | str
    change_reason: str
    condition: str | None = None


@dataclass(frozen=True)
class ConfigurationStep:
    """One ``NN_name.param`` step: the texts the user reads and the plugin it shows."""

    filename: str
    number: int
    why: str
    why_now: str
    blog_text: str
    blog_url: str
    wiki_text: str
    wiki_url: str
    external_tool_text: str
    external_tool_url: str
    mandatory_text: str
    component: str | None = None
    auto_changed_by: str = ""
    plugin: StepPlugin | None = None
    forced_parameters: tuple[ParameterChange, ...] = ()
    derived_parameters: tuple[ParameterChange, ...] = ()
    old_filenames: tuple[str, ...] = ()

    @property
    def description(self) -> str:
        """One-line summary of what the step configures."""
        return self.blog_text


@dataclass(frozen=True)
class Phase:
    """A named group of steps; ``start`` is the first step number (``None``: a milestone only)."""

    name: str
    description: str
    optional: bool = False
    start: int | None = None


@dataclass(frozen=True)
class ConfigurationSteps:
    """All steps of one vehicle type, in file order."""

    vehicle: str
    source: str
    steps: tuple[ConfigurationStep, ...]
    phases: tuple[Phase, ...] = ()

    def step(self, filename: str) -> ConfigurationStep | None:
        """The step stored under ``filename``, or ``None``."""
        return next((step for step in self.steps if step.filename == filename), None)

    @property
    def filenames(self) -> tuple[str, ...]:
        """Step file names in order."""
        return tuple(step.filename for step in self.steps)

    @property
    def plugin_names(self) -> frozenset[str]:
        """Every plugin name the steps refer to."""
        return frozenset(step.plugin.name for step in self.steps if step.plugin is not None)

    def plugin_step(self, name: str) -> ConfigurationStep | None:
        """The first step that shows plugin ``name`` (e.g. the receiver step), or ``None``.

        The receiver step's file name differs between vehicles (``05_…`` for ArduCopter and
        ArduPlane, ``08_…`` for Heli and Rover), so callers find it by its plugin, not by name.
        """
        return next(
            (step for step in self.steps if step.plugin is not None and step.plugin.name == name), None
        )


def steps_directory() -> Traversable:
    """The folder holding the bundled step files and their schema.

    Installed (wheel, PyInstaller bundle) it is the package's ``configuration_steps`` folder;
    in a source checkout or an editable install, where the package folder has none, it is the
    repository's top-level ``configuration_steps/``.
    """
    installed = resources.files(_PACKAGE) / STEPS_DIRECTORY
    if installed.is_dir() or not (_CHECKOUT_STEPS_DIRECTORY / SCHEMA_FILENAME).is_file():
        return installed
    return _CHECKOUT_STEPS_DIRECTORY


def available_vehicles() -> tuple[str, ...]:
    """Vehicle types with a bundled step file, sorted (e.g. ``("ArduCopter", "ArduPlane", ...)``)."""
    directory = steps_directory()
    vehicles = []
    for entry in directory.iterdir():
        match = _STEP_FILE_PATTERN.match(entry.name)
        if match is not None and entry.name != SCHEMA_FILENAME:
            vehicles.append(match.group("vehicle"))
    return tuple(sorted(vehicles))


def step_file_name(vehicle: str) -> str:
    """The bundled file name for ``vehicle``."""
    return f"configuration_steps_{vehicle}.json"


def load_configuration_steps(vehicle: str, directory: str | Path | None = None) -> ConfigurationSteps:
    """Load and validate the step file of ``vehicle``: the bundled one (cached; results are
    immutable), or ``configuration_steps_<vehicle>.json`` in ``directory`` (e.g. the methodic
    configurator's own package folder).
    """
    if directory is not None:
        return load_configuration_steps_file(Path(directory) / step_file_name(vehicle), vehicle)
    if vehicle not in available_vehicles():
        raise ConfigurationStepsError(
            step_file_name(vehicle),
            None,
            _(
                "there are no configuration steps for vehicle type '{vehicle}' (available: {available})"
            ).format(vehicle=vehicle, available=", ".join(available_vehicles())),
        )
    return _load_bundled(vehicle)


@lru_cache(maxsize=16)
def _load_bundled(vehicle: str) -> ConfigurationSteps:
    source = step_file_name(vehicle)
    resource = steps_directory() / source
    try:
        text = resource.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigurationStepsError(source, None, _("cannot be read: {error}").format(error=exc)) from exc
    return parse_configuration_steps(text, source=source, vehicle=vehicle)


def load_configuration_steps_file(path: str | Path, vehicle: str | None = None) -> ConfigurationSteps:
    """Load and validate a step file from disk, e.g. one a vehicle project supplies.

    ``vehicle`` defaults to the part after ``configuration_steps_`` in the file name.
    """
    file_path = Path(path)
    if vehicle is None:
        match = _STEP_FILE_PATTERN.match(file_path.name)
        vehicle = match.group("vehicle") if match else file_path.stem
    try:
        with file_path.open("rb") as stream:
            data = stream.read(MAX_STEP_FILE_CHARS + 1)
    except OSError as exc:
        raise ConfigurationStepsError(
            str(file_path), None, _("cannot be read: {error}").format(error=exc.strerror or exc)
        ) from exc
    if len(data) > MAX_STEP_FILE_CHARS:
        raise _too_large(str(file_path))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigurationStepsError(
            str(file_path), None, _("is not UTF-8 text (byte {offset})").format(offset=exc.start)
        ) from exc
    return parse_configuration_steps(text, source=str(file_path), vehicle=vehicle)


def parse_configuration_steps(text: str, source: str, vehicle: str) -> ConfigurationSteps:
    """Parse and validate step-file ``text``; ``source`` names it in error messages.

    Whatever the text, the only error is a :class:`ConfigurationStepsError`.
    """
    if len(text) > MAX_STEP_FILE_CHARS:
        raise _too_large(source)
    document = _json_document(text, source)
    if _nesting(document) > MAX_NESTING:
        raise ConfigurationStepsError(
            source, "$", _("nests more than {limit} levels deep").format(limit=MAX_NESTING)
        )
    problems = _schema_problems(document, configuration_steps_schema())
    if not problems:
        problems = _cross_reference_problems(document)
    if problems:
        first_path, _first_reason = problems[0]
        shown = [_("{path}: {reason}").format(path=path, reason=reason) for path, reason in problems]
        reason = "; ".join(shown[:MAX_REPORTED_PROBLEMS])
        if len(shown) > MAX_REPORTED_PROBLEMS:
            reason += " " + _("(and {count} more problems)").format(count=len(shown) - MAX_REPORTED_PROBLEMS)
        raise ConfigurationStepsError(
            source,
            first_path,
            _("does not match the configuration steps schema: {reason}").format(reason=reason),
        )
    return _build(document, source=source, vehicle=vehicle)


def _too_large(source: str) -> ConfigurationStepsError:
    return ConfigurationStepsError(
        source,
        None,
        _("is larger than {size} MiB: not a configuration steps file").format(size=MAX_STEP_FILE_CHARS >> 20),
    )


def _json_document(text: str, source: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigurationStepsError(
            source,
            None,
            _("is not valid JSON: {message} (line {line}, column {column})").format(
                message=exc.msg, line=exc.lineno, column=exc.colno
            ),
        ) from exc
    except RecursionError as exc:
        raise ConfigurationStepsError(
            source, None, _("nests more than {limit} levels deep").format(limit=MAX_NESTING)
        ) from exc
    except ValueError as exc:
        # Python refuses integers of more than 4300 digits; no step file has one.
        raise ConfigurationStepsError(source, None, _("holds a number too long to read")) from exc


def _nesting(document: object) -> int:
    """How deep arrays and objects nest in ``document`` (0 for a scalar), without recursion."""
    deepest = 0
    pending: list[tuple[object, int]] = [(document, 0)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict):
            children: Iterable[object] = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        depth += 1
        deepest = max(deepest, depth)
        if depth <= MAX_NESTING:
            pending.extend((child, depth) for child in children)
    return deepest


def plugin_for_step(steps: ConfigurationSteps, filename: str) -> StepPlugin | None:
    """The plugin of step ``filename``; ``None`` when the step has none or is not in ``steps``.

    Parameter files outside the bundled sequence (a user's own extra file) simply have no plugin.
    """
    step = steps.step(filename)
    return None if step is None else step.plugin


def unregistered_plugin_errors(
    step_files_or_vehicles: Iterable[ConfigurationSteps | str], is_registered: Callable[[str], bool]
) -> list[str]:
    """One readable error per step that names a plugin for which ``is_registered`` is false.

    Items are loaded step files or bundled vehicle names (``"ArduCopter"``); a vehicle whose
    step file cannot be loaded yields its load error instead, so nothing is silently skipped.
    An empty list means every plugin the steps name can be shown.
    """
    errors: list[str] = []
    for item in step_files_or_vehicles:
        if isinstance(item, str):
            try:
                steps = load_configuration_steps(item)
            except ConfigurationStepsError as exc:
                errors.append(str(exc))
                continue
        else:
            steps = item
        errors.extend(
            _("{source}: step {filename} uses plugin '{name}', which is not registered.").format(
                source=steps.source, filename=step.filename, name=step.plugin.name
            )
            for step in steps.steps
            if step.plugin is not None and not is_registered(step.plugin.name)
        )
    return errors


@lru_cache(maxsize=1)
def configuration_steps_schema() -> Mapping[str, Any]:
    """The JSON Schema every step file is validated against."""
    resource = steps_directory() / SCHEMA_FILENAME
    schema: dict[str, Any] = json.loads(resource.read_text(encoding="utf-8"))
    return schema


def _schema_problems(document: object, schema: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(JSON path, message) for each schema violation, shallowest first."""
    validator = Draft202012Validator(schema)
    errors = sorted(
        validator.iter_errors(document), key=lambda error: (len(error.path), list(map(str, error.path)))
    )
    return [(str(error.json_path), str(error.message)) for error in errors]


def _cross_reference_problems(document: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Problems the schema cannot see: duplicate step numbers and jumps to steps that do not exist."""
    problems: list[tuple[str, str]] = []
    steps: Mapping[str, Mapping[str, Any]] = document["steps"]
    first_with_number: dict[int, str] = {}
    for filename, step in steps.items():
        number = _step_number(filename)
        if number in first_with_number:
            problems.append(
                (
                    f"$.steps['{filename}']",
                    _("step number {number} is also used by {other}").format(
                        number=number, other=first_with_number[number]
                    ),
                )
            )
        first_with_number.setdefault(number, filename)
        for target in step.get("jump_possible", {}):
            if target not in steps:
                problems.append(
                    (
                        f"$.steps['{filename}'].jump_possible",
                        _("jumps to {target}, which is not a step in this file").format(target=target),
                    )
                )
    return problems


def _step_number(filename: str) -> int:
    return int(filename.split("_", 1)[0])


def _parameter_changes(entries: Mapping[str, Mapping[str, Any]]) -> tuple[ParameterChange, ...]:
    return tuple(
        ParameterChange(
            name=name,
            new_value=entry["New Value"],
            change_reason=entry["Change Reason"],
            condition=entry.get("if"),
        )
        for name, entry in entries.items()
    )


def _build(document: Mapping[str, Any], source: str, vehicle: str) -> ConfigurationSteps:
    steps = []
    for filename, raw in document["steps"].items():
        raw_plugin = raw.get("plugin")
        plugin = (
            None
            if raw_plugin is None
            else StepPlugin(
                name=raw_plugin["name"], placement=raw_plugin["placement"], condition=raw_plugin.get("if")
            )
        )
        steps.append(
            ConfigurationStep(
                filename=filename,
                number=_step_number(filename),
                why=raw["why"],
                why_now=raw["why_now"],
                blog_text=raw["blog_text"],
                blog_url=raw["blog_url"],
                wiki_text=raw["wiki_text"],
                wiki_url=raw["wiki_url"],
                external_tool_text=raw["external_tool_text"],
                external_tool_url=raw["external_tool_url"],
                mandatory_text=raw["mandatory_text"],
                component=raw.get("component"),
                auto_changed_by=raw.get("auto_changed_by", ""),
                plugin=plugin,
                forced_parameters=_parameter_changes(raw.get("forced_parameters", {})),
                derived_parameters=_parameter_changes(raw.get("derived_parameters", {})),
                old_filenames=tuple(raw.get("old_filenames", ())),
            )
        )
    phases = tuple(
        Phase(
            name=name,
            description=raw["description"],
            optional=raw.get("optional", False),
            start=raw.get("start"),
        )
        for name, raw in document.get("phases", {}).items()
    )
    return ConfigurationSteps(vehicle=vehicle, source=source, steps=tuple(steps), phases=phases)
