# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The overlay build (scripts/methodic_configurator_overlay.py) on the released 5.0.1 wheel.

The overlay must be the release with exactly our ``rc_receiver`` in place of its own: two modules
replaced, ours added at paths the release does not have, a local version label, a correct
RECORD, and no other byte of the release changed.  Every way the build could change more than
that is refused before anything is written.  Run as a user runs it, in a subprocess.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.support.methodic_configurator import (
    OUR_PLUGINS,
    OVERLAY_LABEL,
    OVERLAY_SCRIPT,
    PACKAGE,
    VERSION,
    our_plugin_modules,
)

pytestmark = pytest.mark.mc501

PLUGINS = f"{PACKAGE}/plugins"
REPLACED = ("data_model_rc_receiver.py", "frontend_tkinter_rc_receiver.py")
OVERLAY_NAME = f"{PACKAGE}-{VERSION}+{OVERLAY_LABEL}-py3-none-any.whl"


def run_overlay(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(OVERLAY_SCRIPT), *args], capture_output=True, text=True, timeout=300, check=False
    )


def read_wheel(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def record_digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def copy_of_our_plugins(tmp_path: Path) -> Path:
    target = tmp_path / "plugins"
    shutil.copytree(OUR_PLUGINS, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


@pytest.fixture
def overlay(methodic_configurator_501_wheel: Path, tmp_path: Path) -> Path:
    """The overlay built from the release wheel into an empty folder."""
    out = tmp_path / "dist"
    result = run_overlay("--wheel", str(methodic_configurator_501_wheel), "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert sorted(path.name for path in out.iterdir()) == [OVERLAY_NAME]
    return out / OVERLAY_NAME


def test_the_overlay_is_the_release_with_our_rc_receiver_in_place_of_its_own(
    overlay: Path, methodic_configurator_501_wheel: Path
) -> None:
    """GIVEN the released 5.0.1 wheel
    WHEN the overlay is built
    THEN its two rc_receiver modules are ours, our other plugin modules are added at new paths,
    METADATA differs only in its Version (5.0.1+rcreceiver.1, also in the .dist-info name) and
    every other file of the release is byte-for-byte the same."""
    release, built = read_wheel(methodic_configurator_501_wheel), read_wheel(overlay)
    ours = our_plugin_modules()
    old_info, new_info = f"{PACKAGE}-{VERSION}.dist-info", f"{PACKAGE}-{VERSION}+{OVERLAY_LABEL}.dist-info"

    for module in REPLACED:
        assert release[f"{PLUGINS}/{module}"] != ours[module]
        assert built[f"{PLUGINS}/{module}"] == ours[module]
    added = {name for name in built if name not in release and not name.startswith(new_info)}
    assert added == {f"{PLUGINS}/{name}" for name in ours if name not in REPLACED}
    assert len(added) >= 1

    release_metadata = release[f"{old_info}/METADATA"].decode().splitlines()
    built_metadata = built[f"{new_info}/METADATA"].decode().splitlines()
    changed = [(a, b) for a, b in zip(release_metadata, built_metadata, strict=True) if a != b]
    assert changed == [(f"Version: {VERSION}", f"Version: {VERSION}+{OVERLAY_LABEL}")]

    unchanged = 0
    for name, data in release.items():
        if name.startswith(old_info):
            if name.endswith(("/RECORD", "/METADATA")):
                continue
            assert built[new_info + name[len(old_info) :]] == data, name
        elif name.rsplit("/", 1)[-1] not in REPLACED or not name.startswith(PLUGINS):
            assert built[name] == data, name
        else:
            continue
        unchanged += 1
    assert unchanged == len(release) - len(REPLACED) - 2
    assert not any(name.startswith(old_info) for name in built)


def test_the_overlay_record_lists_every_file_with_its_digest_and_size(overlay: Path) -> None:
    """GIVEN the overlay wheel
    WHEN its RECORD is read
    THEN it lists every file of the archive exactly once, with the right sha256 and size, and
    itself last without a digest, as the wheel format requires."""
    built = read_wheel(overlay)
    record_name = f"{PACKAGE}-{VERSION}+{OVERLAY_LABEL}.dist-info/RECORD"
    rows = list(csv.reader(io.StringIO(built[record_name].decode())))
    assert rows[-1] == [record_name, "", ""]
    assert sorted(row[0] for row in rows) == sorted(built)
    for name, digest, size in rows[:-1]:
        assert digest == record_digest(built[name]), name
        assert size == str(len(built[name])), name


def test_building_the_overlay_twice_gives_the_same_bytes(
    overlay: Path, methodic_configurator_501_wheel: Path, tmp_path: Path
) -> None:
    """GIVEN an overlay built once
    WHEN it is built again from the same release and plugin files
    THEN the two wheels are identical (so a reinstall is needed only when our files change)."""
    again = tmp_path / "again"
    result = run_overlay("--wheel", str(methodic_configurator_501_wheel), "--out", str(again))
    assert result.returncode == 0, result.stderr
    assert (again / OVERLAY_NAME).read_bytes() == overlay.read_bytes()


def test_the_release_requirements_are_printed_without_pins(methodic_configurator_501_wheel: Path) -> None:
    """GIVEN the release wheel, whose runtime requirements are pinned to exact versions
    WHEN --print-requirements runs
    THEN it prints each runtime requirement by name (markers kept), without a pin or an extra."""
    result = run_overlay("--print-requirements", "--wheel", str(methodic_configurator_501_wheel))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    names = {line.split(";")[0].strip() for line in lines}
    assert {"pymavlink", "pyserial", "matplotlib", "numpy", "jsonschema", "pillow"} <= names
    assert not any("==" in line or "extra" in line for line in lines)
    assert "pytest" not in names


def _tampered_copy(release: Path, tmp_path: Path, *, change_content: bool) -> Path:
    """The release wheel rewritten: one module's bytes changed, or only the zip's timestamps."""
    target = tmp_path / "tampered" / release.name
    target.parent.mkdir()
    with zipfile.ZipFile(release) as source, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as copy:
        for info in source.infolist():
            data = source.read(info)
            if change_content and info.filename == f"{PACKAGE}/__main__.py":
                data += b"\n# changed\n"
            copy.writestr(zipfile.ZipInfo(info.filename, date_time=(2030, 1, 1, 0, 0, 0)), data)
    return target


@pytest.mark.parametrize(
    ("case", "reason"),
    [
        (
            "a module of ours has the name of a release file",
            "would overwrite ardupilot_methodic_configurator/plugins/imu_helpers.py",
        ),
        ("our view module is missing", "frontend_tkinter_rc_receiver.py is missing"),
        (
            "a module imports a name the release lacks",
            "imports register from ardupilot_methodic_configurator.plugins.plugin_factory",
        ),
        ("a module imports our own package absolutely", "must import relatively"),
        ("the release wheel's files do not match its RECORD", "does not match its RECORD entry"),
        ("the release wheel is not the published archive", "is not the published 5.0.1 wheel"),
        ("the wheel already is an overlay", "already carries a local version label"),
    ],
)
def test_the_overlay_build_refuses_and_writes_nothing_when(
    case: str, reason: str, methodic_configurator_501_wheel: Path, tmp_path: Path
) -> None:
    """GIVEN a change that would alter the release beyond our rc_receiver, or an input that is not the release
    WHEN the overlay is built
    THEN the build exits 1 with a refusal naming the problem, and the output folder stays empty."""
    plugins = copy_of_our_plugins(tmp_path)
    wheel = methodic_configurator_501_wheel
    if case == "a module of ours has the name of a release file":
        (plugins / "imu_helpers.py").write_text('"""A name the release already uses."""\n', encoding="utf-8")
    elif case == "our view module is missing":
        (plugins / "frontend_tkinter_rc_receiver.py").unlink()
    elif case == "a module imports a name the release lacks":
        # The first failure of issue 8: 5.0.1's plugin_factory module has no module-level register().
        (plugins / "rc_receiver_extra.py").write_text(
            "from .plugin_factory import register\n", encoding="utf-8"
        )
    elif case == "a module imports our own package absolutely":
        (plugins / "rc_receiver_extra.py").write_text("from amc_rc_receiver import _\n", encoding="utf-8")
    elif case == "the release wheel's files do not match its RECORD":
        wheel = _tampered_copy(wheel, tmp_path, change_content=True)
    elif case == "the release wheel is not the published archive":
        wheel = _tampered_copy(wheel, tmp_path, change_content=False)
    elif case == "the wheel already is an overlay":
        built = tmp_path / "first"
        assert run_overlay("--wheel", str(wheel), "--out", str(built)).returncode == 0
        wheel = built / OVERLAY_NAME
    out = tmp_path / "out"
    out.mkdir()

    result = run_overlay("--wheel", str(wheel), "--out", str(out), "--plugins", str(plugins))

    assert result.returncode == 1, result.stdout + result.stderr
    assert "refused" in result.stderr
    assert reason in result.stderr
    assert list(out.iterdir()) == []
