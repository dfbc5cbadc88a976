# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The built wheel carries what an installed program needs: step files, example parameters,
the licence and compiled translation catalogs (built from the .po files, never committed)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


def test_the_wheel_ships_package_data_licence_and_compiled_catalogs(tmp_path: Path) -> None:
    """GIVEN a copy of the sources without any compiled catalog
    WHEN a wheel is built
    THEN it holds the step files, the example .param file, the licence and a .mo per language."""
    source = tmp_path / "src"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(".venv", ".git", "build", "dist", "*.mo", "__pycache__", "*.egg-info"),
    )
    assert not list(source.rglob("*.mo"))
    wheels = tmp_path / "wheels"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels), str(source)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    (wheel,) = wheels.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    package = "amc_rc_receiver"
    for vehicle in ("ArduCopter", "ArduPlane", "Heli", "Rover"):
        assert f"{package}/configuration_steps/configuration_steps_{vehicle}.json" in names
    assert f"{package}/configuration_steps/configuration_steps_schema.json" in names
    assert f"{package}/data/06_remote_controller_receiver.param" in names
    for language in ("de", "zh_CN"):
        assert f"{package}/locale/{language}/LC_MESSAGES/amc_rc_receiver.mo" in names
    assert any(name.endswith("licenses/LICENSES/GPL-3.0-or-later.txt") for name in names)
