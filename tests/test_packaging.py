# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The built wheel and sdist carry what an installed program needs: step files (kept in the
repository's top-level configuration_steps/ folder, installed inside the package), example
parameters, the licence and compiled translation catalogs (built from the .po files, never
committed)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.packaging

ROOT = Path(__file__).resolve().parents[1]
# The import name, and the source folder it is built from (pyproject's package-dir).
PACKAGE = "amc_rc_receiver"
SOURCE = ROOT / "ardupilot_methodic_configurator"
VEHICLES = ("ArduCopter", "ArduPlane", "Heli", "Rover")
EXAMPLES = {
    "ArduCopter": "05_remote_controller_receiver.param",
    "ArduPlane": "05_remote_controller_receiver.param",
    "Heli": "08_remote_controller_receiver.param",
    "Rover": "08_remote_controller_receiver.param",
}
# Never copied into a build: environments, caches (the unpacked methodic configurator among
# them), build output and compiled catalogs.
IGNORED = (".venv", ".git", ".cache", "build", "dist", "*.mo", "__pycache__", "*.egg-info")


def _pyproject() -> dict[str, Any]:
    tomllib = pytest.importorskip("tomllib")
    with (ROOT / "pyproject.toml").open("rb") as stream:
        config: dict[str, Any] = tomllib.load(stream)
    return config


def _copy_sources(target: Path) -> Path:
    source = target / "src"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*IGNORED))
    assert not list(source.rglob("*.mo"))
    return source


def _run(command: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    result = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    assert result.returncode == 0, result.stderr or result.stdout
    return result.stdout


def _build_wheel(project: Path, wheels: Path) -> Path:
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels), str(project)])
    (wheel,) = wheels.glob("*.whl")
    return wheel


def _assert_installed_layout(names: set[str]) -> None:
    for vehicle in VEHICLES:
        assert f"{PACKAGE}/configuration_steps/configuration_steps_{vehicle}.json" in names
        assert f"{PACKAGE}/data/{vehicle}/{EXAMPLES[vehicle]}" in names
    assert f"{PACKAGE}/configuration_steps/configuration_steps_schema.json" in names
    assert f"{PACKAGE}/host/configuration_steps.py" in names
    # The step folder is package data, never a top-level package of its own.
    assert not [name for name in names if name.startswith("configuration_steps/")]
    for language in ("de", "zh_CN"):
        assert f"{PACKAGE}/locale/{language}/LC_MESSAGES/amc_rc_receiver.mo" in names


@pytest.mark.pure
def test_pyproject_packages_every_folder_of_the_package_and_maps_the_step_folder() -> None:
    """GIVEN pyproject's hand-written package list
    WHEN compared with the folders on disk
    THEN every folder of the package is listed (as automatic discovery would), and the step package
    is mapped to the repository's top-level configuration_steps/ folder, which holds the schema and
    the four vehicles.
    """
    setuptools_config = _pyproject()["tool"]["setuptools"]
    on_disk = {
        ".".join((PACKAGE, *folder.relative_to(SOURCE).parts))
        for folder in [SOURCE, *SOURCE.rglob("*")]
        if folder.is_dir() and "__pycache__" not in folder.parts
    }
    mapped = f"{PACKAGE}.configuration_steps"

    assert set(setuptools_config["packages"]) == on_disk | {mapped}
    assert setuptools_config["package-dir"] == {PACKAGE: SOURCE.name, mapped: "configuration_steps"}
    assert setuptools_config["package-data"][mapped] == ["*.json"]
    assert not (SOURCE / "configuration_steps").exists()
    step_files = {path.name for path in (ROOT / "configuration_steps").glob("*.json")}
    assert step_files == {f"configuration_steps_{name}.json" for name in (*VEHICLES, "schema")}


def test_the_wheel_ships_package_data_licence_and_compiled_catalogs(tmp_path: Path) -> None:
    """GIVEN a copy of the sources without any compiled catalog
    WHEN a wheel is built and installed into an empty folder
    THEN it holds the step files inside the package, one example .param file per vehicle, the
    licence and a .mo per language, and the installed package loads its steps and examples from
    there."""
    wheel = _build_wheel(_copy_sources(tmp_path), tmp_path / "wheels")
    names = set(zipfile.ZipFile(wheel).namelist())
    _assert_installed_layout(names)
    assert any(name.endswith("licenses/LICENSES/GPL-3.0-or-later.txt") for name in names)

    target = tmp_path / "installed"
    _run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "-t", str(target), str(wheel)])
    probe = (
        "import json, sys\n"
        f"sys.path.insert(0, {str(target)!r})\n"
        "import amc_rc_receiver\n"
        "from amc_rc_receiver.host.configuration_steps import available_vehicles, load_configuration_steps,"
        " steps_directory\n"
        "from amc_rc_receiver.host.param_file import example_receiver_param_file\n"
        "print(json.dumps({'package': amc_rc_receiver.__file__, 'steps': str(steps_directory()),"
        " 'vehicles': list(available_vehicles()),"
        " 'receivers': {v: load_configuration_steps(v).plugin_step('rc_receiver').filename"
        " for v in available_vehicles()},"
        " 'examples': {v: example_receiver_param_file(v) for v in available_vehicles()}}))\n"
    )
    neutral = tmp_path / "elsewhere"
    neutral.mkdir()
    report = json.loads(_run([sys.executable, "-c", probe], cwd=neutral))

    assert report["package"].startswith(str(target))
    assert report["steps"] == str(target / PACKAGE / "configuration_steps")
    assert report["vehicles"] == list(VEHICLES)
    assert report["receivers"] == EXAMPLES
    assert report["examples"] == {vehicle: f"{vehicle}/{name}" for vehicle, name in EXAMPLES.items()}


def test_the_sdist_carries_the_top_level_step_folder_and_builds_a_complete_wheel(tmp_path: Path) -> None:
    """GIVEN a copy of the sources
    WHEN an sdist is built with the project's own build requirements and a wheel is built from it
    THEN the sdist holds configuration_steps/ at its top and the example files, and the wheel built
    from the sdist alone has the same installed layout as one built from the repository."""
    build_requires = _pyproject()["build-system"]["requires"]
    backend_env = tmp_path / "backend"
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--target",
            str(backend_env),
            *build_requires,
        ]
    )
    project = _copy_sources(tmp_path)
    sdists = tmp_path / "sdist"
    env = {**os.environ, "PYTHONPATH": str(backend_env)}
    build_sdist = f"from setuptools import build_meta; print(build_meta.build_sdist({str(sdists)!r}))"
    built = _run([sys.executable, "-c", build_sdist], cwd=project, env=env).strip().splitlines()[-1]
    sdist = sdists / built
    with tarfile.open(sdist) as archive:
        top = sdist.name.removesuffix(".tar.gz")
        names = {name.removeprefix(f"{top}/") for name in archive.getnames()}
    for vehicle in VEHICLES:
        assert f"configuration_steps/configuration_steps_{vehicle}.json" in names
        # An sdist carries the source folder, which the wheel built from it maps onto the package.
        assert f"{SOURCE.name}/data/{vehicle}/{EXAMPLES[vehicle]}" in names
    assert "configuration_steps/configuration_steps_schema.json" in names

    wheel = _build_wheel(sdist, tmp_path / "wheels")
    _assert_installed_layout(set(zipfile.ZipFile(wheel).namelist()))


def test_an_editable_install_compiles_the_catalogs_into_the_source_folder(tmp_path: Path) -> None:
    """GIVEN a copy of the sources without any compiled catalog
    WHEN it is installed with `pip install -e` into a fresh environment
    THEN the source folder holds a .mo per language, and the program installed from it speaks German
    (it used to say "No translation for 'de'")."""
    project = _copy_sources(tmp_path)
    environment = tmp_path / "env"
    _run([sys.executable, "-m", "venv", str(environment)])
    python = environment / "bin" / "python"
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps"]
    _run([*pip, "-e", str(project)])

    for language in ("de", "zh_CN"):
        assert (project / SOURCE.name / "locale" / language / "LC_MESSAGES" / "amc_rc_receiver.mo").is_file()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    probe = "import amc_rc_receiver as p; print(p.__file__, p.install_language('de'), p._('Stopped.'))"
    package_file, installed, stopped = _run([str(python), "-c", probe], cwd=elsewhere).split()
    assert Path(package_file).is_relative_to(project / SOURCE.name)
    assert (installed, stopped) == ("True", "Angehalten.")
