# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The PyInstaller spec files are checked without building (a build takes minutes).

Static checks read the spec text; the behavioural checks execute each spec with recording
stand-ins for PyInstaller's build steps (Analysis, PYZ, EXE, COLLECT, BUNDLE), so the real
`_common_spec` logic runs (collect_submodules, data globbing, catalog compilation) and what would
be handed to PyInstaller is compared with what is on disk.
"""

from __future__ import annotations

import ast
import importlib.util
import pkgutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.support.run_once import once_per_run

pytestmark = pytest.mark.pure

pytest.importorskip("PyInstaller", reason="PyInstaller is in the project's [build] extra")

ROOT = Path(__file__).resolve().parent.parent
SPEC_DIR = ROOT / "pyinstaller"
# The import name, and the source folder pyproject maps onto it.
PACKAGE = "amc_rc_receiver"
PACKAGE_DIR = ROOT / "ardupilot_methodic_configurator"
# The configuration step files sit in the repository's top-level folder, outside the package.
STEPS_DIR = ROOT / "configuration_steps"
LAUNCHER = SPEC_DIR / "launch_amc_rc_receiver.py"
SPECS = {
    "linux": SPEC_DIR / "amc_rc_receiver_linux.spec",
    "windows": SPEC_DIR / "amc_rc_receiver_windows.spec",
    "macos": SPEC_DIR / "amc_rc_receiver_macos.spec",
}
# The licence header every spec file shares with this test file (read, not repeated, so that
# licence scanners do not take a string constant for this file's own licence).
SPDX = tuple(Path(__file__).read_text(encoding="utf-8").splitlines()[:2])


def _calls(tree: ast.AST, name: str) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name
    ]


@dataclass
class _Recorded:
    """Stand-in for one PyInstaller build step: remembers its arguments, exposes Analysis' outputs."""

    kind: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    pure: list[Any] = field(default_factory=list)
    scripts: list[Any] = field(default_factory=list)
    binaries: list[Any] = field(default_factory=list)
    datas: list[Any] = field(default_factory=list)


def _run_spec(path: Path) -> list[_Recorded]:
    recorded: list[_Recorded] = []

    def step(kind: str) -> Any:
        def build(*args: Any, **kwargs: Any) -> _Recorded:
            result = _Recorded(kind, args, kwargs)
            recorded.append(result)
            return result

        return build

    namespace: dict[str, Any] = {
        "__name__": "__main__",
        "__file__": str(path),
        "SPECPATH": str(path.parent),
        **{kind: step(kind) for kind in ("Analysis", "PYZ", "EXE", "COLLECT", "BUNDLE")},
    }
    saved_path = list(sys.path)
    try:
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)
    finally:
        sys.path[:] = saved_path
    return recorded


@pytest.fixture(scope="session")
def recorded_builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[_Recorded]]:
    """Each spec run once per run of the suite: a run stages the sources into the checkout's
    build/pyinstaller-source/, which two runs at once would overwrite under each other."""

    def run_specs(folder: Path) -> dict[str, list[_Recorded]]:
        del folder
        return {platform: _run_spec(path) for platform, path in SPECS.items()}

    return once_per_run(tmp_path_factory, "pyinstaller-specs", run_specs)


def _source_modules(package: str) -> set[str]:
    folder = PACKAGE_DIR.joinpath(*package.split(".")[1:])
    return {package} | {f"{package}.{info.name}" for info in pkgutil.iter_modules([str(folder)])}


# --- static checks --------------------------------------------------------------------------


@pytest.mark.parametrize("platform", SPECS)
def test_spec_file_compiles_and_starts_with_the_licence_header(platform: str) -> None:
    """GIVEN a spec file WHEN compiled as Python THEN it is valid and opens with the SPDX lines."""
    text = SPECS[platform].read_text(encoding="utf-8")
    compile(text, str(SPECS[platform]), "exec")
    assert tuple(text.splitlines()[:2]) == SPDX


@pytest.mark.parametrize("platform", SPECS)
def test_spec_names_the_launcher_and_uses_the_shared_inputs(platform: str) -> None:
    """GIVEN a spec file WHEN its syntax tree is read
    THEN Analysis gets the launcher script and the shared options resolved from SPECPATH."""
    tree = ast.parse(SPECS[platform].read_text(encoding="utf-8"))
    imports = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    assert "_common_spec" in imports
    (analysis,) = _calls(tree, "Analysis")
    script_literals = {node.value for node in ast.walk(analysis.args[0]) if isinstance(node, ast.Constant)}
    assert LAUNCHER.name in script_literals
    assert any(node.id == "SPECPATH" for node in ast.walk(analysis.args[0]) if isinstance(node, ast.Name))
    shared = [keyword.value for keyword in analysis.keywords if keyword.arg is None]
    assert len(shared) == 1
    assert isinstance(shared[0], ast.Call)
    assert ast.unparse(shared[0].func) == "common.analysis_options"
    (exe,) = _calls(tree, "EXE")
    assert {keyword.arg: ast.unparse(keyword.value) for keyword in exe.keywords}["name"] == "common.APP_NAME"


def test_shared_spec_logic_collects_the_package_and_all_data_kinds() -> None:
    """GIVEN _common_spec.py WHEN its syntax tree is read
    THEN it calls collect_submodules and names the data folders (the top-level step folder among
    them) and dialects."""
    text = (SPEC_DIR / "_common_spec.py").read_text(encoding="utf-8")
    assert tuple(text.splitlines()[:2]) == SPDX
    tree = ast.parse(text)
    assert _calls(tree, "collect_submodules")
    literals = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)}
    assert {"data/*/*.param", "locale/*/LC_MESSAGES/*.mo", "configuration_steps", "*.json"} <= literals
    assert {"ardupilotmega", "common"} <= literals


def test_launcher_calls_the_console_script_main() -> None:
    """GIVEN the launcher WHEN read THEN it imports main from the package's __main__ and exits with it."""
    text = LAUNCHER.read_text(encoding="utf-8")
    assert tuple(text.splitlines()[:2]) == SPDX
    tree = ast.parse(text)
    imported = [
        (node.module, alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    ]
    assert (f"{PACKAGE}.__main__", "main") in imported
    assert "sys.exit(main())" in {ast.unparse(node) for node in ast.walk(tree) if isinstance(node, ast.Call)}


def test_data_patterns_cover_the_runtime_package_data_of_pyproject() -> None:
    """GIVEN pyproject's package-data and package-dir WHEN compared with the spec's data patterns
    THEN every run-time data kind is packed (translation sources and py.typed are not needed), and
    each package pyproject maps to a folder outside the package is packed from that folder to the
    package path a wheel installs it at."""
    tomllib = pytest.importorskip("tomllib")
    common = _import_common()
    with (ROOT / "pyproject.toml").open("rb") as stream:
        setuptools_config = tomllib.load(stream)["tool"]["setuptools"]
    package_data = setuptools_config["package-data"]
    build_time_only = {"locale/*.pot", "locale/*/LC_MESSAGES/*.po", "py.typed"}
    assert set(package_data[PACKAGE]) - build_time_only == set(common.DATA_PATTERNS)
    mapped = {
        (folder, pattern, package.replace(".", "/"))
        for package, folder in setuptools_config["package-dir"].items()
        if package != PACKAGE  # the package's own source folder, analysed from its staged copy
        for pattern in package_data[package]
    }
    assert setuptools_config["package-dir"][PACKAGE] == PACKAGE_DIR.name == common.SOURCE_FOLDER
    assert mapped == set(common.MAPPED_DATA)


def _import_common() -> Any:
    spec = importlib.util.spec_from_file_location("_common_spec", SPEC_DIR / "_common_spec.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_listed_mavlink_dialects_exist_in_the_installed_pymavlink() -> None:
    """GIVEN the dialect modules the specs add WHEN looked up THEN pymavlink has each of them,
    including MAVLink 2 ardupilotmega and common."""
    common = _import_common()
    assert {"pymavlink.dialects.v20.ardupilotmega", "pymavlink.dialects.v20.common"} <= set(
        common.MAVLINK_DIALECT_MODULES
    )
    missing = [name for name in common.MAVLINK_DIALECT_MODULES if importlib.util.find_spec(name) is None]
    assert missing == []


# --- the specs executed with recording build steps ------------------------------------------


@pytest.mark.packaging
@pytest.mark.parametrize("platform", SPECS)
def test_spec_analyses_the_launcher_from_the_project_root(
    recorded_builds: dict[str, list[_Recorded]], platform: str
) -> None:
    """GIVEN a spec run from any working directory WHEN it builds its Analysis
    THEN the script is the launcher and the search path is a copy of the package's source folder
    under the package's import name, file for file."""
    (analysis,) = [step for step in recorded_builds[platform] if step.kind == "Analysis"]
    assert [Path(script).resolve() for script in analysis.args[0]] == [LAUNCHER.resolve()]
    (staging,) = analysis.kwargs["pathex"]
    staged = Path(staging) / PACKAGE
    sources = {path.relative_to(PACKAGE_DIR) for path in PACKAGE_DIR.rglob("*.py")}
    assert {path.relative_to(staged) for path in staged.rglob("*.py")} == sources
    assert all((staged / path).read_bytes() == (PACKAGE_DIR / path).read_bytes() for path in sources)


@pytest.mark.packaging
@pytest.mark.parametrize("platform", SPECS)
def test_spec_collects_every_module_of_the_package_and_the_dialects(
    recorded_builds: dict[str, list[_Recorded]], platform: str
) -> None:
    """GIVEN the modules on disk in every folder of the package WHEN a spec's hidden imports are built
    THEN every one of them and the MAVLink 2 dialects are included."""
    (analysis,) = [step for step in recorded_builds[platform] if step.kind == "Analysis"]
    hidden = set(analysis.kwargs["hiddenimports"])
    folders = [path.parent for path in PACKAGE_DIR.rglob("__init__.py")]
    expected = set().union(
        *(_source_modules(".".join((PACKAGE, *folder.relative_to(PACKAGE_DIR).parts))) for folder in folders)
    )
    assert expected - hidden == set()
    assert {"pymavlink.dialects.v20.ardupilotmega", "pymavlink.dialects.v20.common"} <= hidden


@pytest.mark.packaging
@pytest.mark.parametrize("platform", SPECS)
def test_spec_packs_every_data_file_and_compiled_catalog(
    recorded_builds: dict[str, list[_Recorded]], platform: str
) -> None:
    """GIVEN the package data on disk WHEN a spec lists its data files
    THEN each example .param file and a .mo for every .po is packed at its package path, and each
    step file of the top-level configuration_steps/ folder at amc_rc_receiver/configuration_steps."""
    (analysis,) = [step for step in recorded_builds[platform] if step.kind == "Analysis"]
    packed = {Path(source).resolve(): destination for source, destination in analysis.kwargs["datas"]}
    in_package = [
        *(path for path in PACKAGE_DIR.glob("data/**/*") if path.is_file()),
        *(po.with_suffix(".mo") for po in PACKAGE_DIR.glob("locale/*/LC_MESSAGES/*.po")),
    ]
    step_files = sorted(STEPS_DIR.glob("*.json"))
    assert len(in_package) >= 6, "no package data found"
    assert {path.name for path in step_files} >= {
        "configuration_steps_schema.json",
        *(f"configuration_steps_{vehicle}.json" for vehicle in ("ArduCopter", "ArduPlane", "Heli", "Rover")),
    }
    for path in in_package:
        assert path.resolve() in packed, f"{path} is not packed"
        assert packed[path.resolve()] == (PACKAGE / path.parent.relative_to(PACKAGE_DIR)).as_posix()
    for path in step_files:
        assert path.resolve() in packed, f"{path} is not packed"
        assert packed[path.resolve()] == f"{PACKAGE}/configuration_steps"


@pytest.mark.packaging
@pytest.mark.parametrize(
    ("platform", "last_step"), [("linux", "EXE"), ("windows", "COLLECT"), ("macos", "BUNDLE")]
)
def test_spec_produces_the_amc_rc_receiver_program(
    recorded_builds: dict[str, list[_Recorded]], platform: str, last_step: str
) -> None:
    """GIVEN a spec WHEN executed THEN its executable is called amc-rc-receiver, runs as a console
    program where the terminal view needs it, and the platform's packaging step comes last."""
    steps = recorded_builds[platform]
    (exe,) = [step for step in steps if step.kind == "EXE"]
    assert exe.kwargs["name"] == "amc-rc-receiver"
    assert exe.kwargs["console"] is (platform != "macos")
    assert steps[-1].kind == last_step
    if platform == "linux":
        # one-file: binaries and data go into the executable itself
        assert exe.kwargs.get("exclude_binaries", False) is False
        assert any(isinstance(arg, list) and arg is steps[0].datas for arg in exe.args)
