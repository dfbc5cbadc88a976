# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the Linux, Windows and macOS spec files share: inputs of PyInstaller's `Analysis`.

Each spec imports this module (from its own folder, SPECPATH) and only adds the platform's
packaging.  PyInstaller cannot see what is imported by name at run time, so this module lists it:
every submodule of the package (`collect_submodules`), pymavlink's dialect modules (mavutil
picks them with `__import__("pymavlink.dialects.v20." + dialect)`), and the package data files,
compiling the translation catalogs first so a fresh clone packs its .mo files.  The configuration
step files are packed from the repository's top-level folder to the place a wheel installs them.

PyInstaller finds modules by walking its search path and cannot follow the editable install's
import hook, which is what maps the source folder `ardupilot_methodic_configurator/` onto the
package `amc_rc_receiver`.  So the Python files are staged under their import name in
`build/pyinstaller-source/` (fresh for every build) and analysed from there.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import sys
from pathlib import Path
from typing import Any

from PyInstaller.utils.hooks import collect_submodules

APP_NAME = "amc-rc-receiver"
PACKAGE = "amc_rc_receiver"
# The package's source folder, which the wheel and the editable install map onto PACKAGE.
SOURCE_FOLDER = "ardupilot_methodic_configurator"
ENTRY_SCRIPT = "launch_amc_rc_receiver.py"
# Package data, relative to the package folder (mirrors pyproject's package-data; the .po
# sources are not needed at run time because the .mo files are compiled here).
DATA_PATTERNS = ("data/*/*.param", "data/*.json", "locale/*/LC_MESSAGES/*.mo")
# Package data kept outside the package folder (mirrors pyproject's package-dir):
# (folder under the project root, pattern, destination folder in the bundle).
MAPPED_DATA = (("configuration_steps", "*.json", f"{PACKAGE}/configuration_steps"),)
# mavutil imports the MAVLink 1 "all" dialect statically and loads the rest by name:
# MAVLINK_DIALECT (default "all") under MAVLINK20 picks v20, and the project's code uses
# ardupilotmega for MAVLink 2.  "common" and "minimal" are what other tools ask for.
MAVLINK_DIALECT_MODULES = tuple(
    f"pymavlink.dialects.{version}.{dialect}"
    for version in ("v10", "v20")
    for dialect in ("ardupilotmega", "common", "minimal", "all")
)
# Development tools that must never end up in the program even if something imports them.
EXCLUDES = ("pytest", "_pytest", "hypothesis", "babel", "mypy", "ruff", "IPython", "PyInstaller")


def project_root(specpath: str) -> Path:
    """The repository root: the spec files live in its `pyinstaller/` folder."""
    return Path(specpath).resolve().parent


def package_version(root: Path) -> str:
    text = (root / SOURCE_FOLDER / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r'^__version__\s*=\s*"([^"]+)"', text, re.MULTILINE)
    if match is None:
        raise SystemExit(f"no __version__ in {root / SOURCE_FOLDER / '__init__.py'}")
    return match.group(1)


def compile_translations(root: Path) -> list[str]:
    """Compile every .mo with the project's catalog tool (`scripts/i18n.py`, Babel)."""
    spec = importlib.util.spec_from_file_location("_amc_i18n_tool", root / "scripts" / "i18n.py")
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {root / 'scripts' / 'i18n.py'}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return [str(path) for path in module.compile_catalogs(root / SOURCE_FOLDER / "locale")]


def package_datas(root: Path) -> list[tuple[str, str]]:
    """(source file, destination folder) pairs for every package data file."""
    package_dir = root / SOURCE_FOLDER
    compile_translations(root)
    po_files = sorted(package_dir.glob("locale/*/LC_MESSAGES/*.po"))
    missing = [po for po in po_files if not po.with_suffix(".mo").is_file()]
    if missing:
        raise SystemExit(f"translation catalogs could not be compiled: {', '.join(map(str, missing))}")
    datas: list[tuple[str, str]] = []
    for pattern in DATA_PATTERNS:
        for source in sorted(package_dir.glob(pattern)):
            if source.is_file():
                destination = Path(PACKAGE) / source.parent.relative_to(package_dir)
                datas.append((str(source), destination.as_posix()))
    for folder, pattern, destination_folder in MAPPED_DATA:
        sources = sorted(source for source in (root / folder).glob(pattern) if source.is_file())
        if not sources:
            raise SystemExit(f"no {pattern} files in {root / folder}: the program would have no step files")
        datas += [(str(source), destination_folder) for source in sources]
    return datas


def staged_source(root: Path) -> Path:
    """A folder holding the package's Python files under its import name, for the analysis."""
    staging = root / "build" / "pyinstaller-source"
    shutil.rmtree(staging, ignore_errors=True)
    shutil.copytree(
        root / SOURCE_FOLDER,
        staging / PACKAGE,
        ignore=shutil.ignore_patterns("__pycache__", "data", "locale"),
    )
    return staging


def hidden_imports() -> list[str]:
    """Modules PyInstaller's import analysis cannot find on its own."""
    modules = collect_submodules(PACKAGE)
    if PACKAGE not in modules:
        raise SystemExit(f"cannot import {PACKAGE}: is the project installed in this environment?")
    return modules + list(MAVLINK_DIALECT_MODULES)


def analysis_options(root: Path) -> dict[str, Any]:
    """Keyword arguments for `Analysis(...)` shared by every platform."""
    return {
        "pathex": [str(staged_source(root))],
        "binaries": [],
        "datas": package_datas(root),
        "hiddenimports": hidden_imports(),
        "hookspath": [],
        "runtime_hooks": [],
        "excludes": list(EXCLUDES),
        "noarchive": False,
    }
