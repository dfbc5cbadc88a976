# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Packaging against the released methodic configurator 5.0.1.

- 5.0.1's own tests of plugin registration and packaging, from its sdist, pass on the overlay.
- Installing this project into an environment that holds 5.0.1 changes none of 5.0.1's files
  (every file of its RECORD keeps its digest), and both programs keep working.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from amc_rc_receiver import __version__
from tests.integration.amc501 import isolated_environment
from tests.support.methodic_configurator import (
    PACKAGE,
    ROOT,
    VERSION,
    MethodicConfiguratorEnvironment,
    our_plugin_modules,
    release_wheel_in_environments,
)
from tests.support.run_once import once_per_run

pytestmark = pytest.mark.mc501

# 5.0.1's tests that cover plugin registration, plugin model creation, the plugin lifecycle in
# the parameter editor window and the packaging smoke test of plugin registration.
UPSTREAM_TEST_FILES = (
    "tests/test__main__.py",
    "tests/test_verify_packaged_modules.py",
    "tests/test_data_model_parameter_editor.py",
    "tests/test_frontend_tkinter_parameter_editor.py",
)
UPSTREAM_SELECTION = "plugin or Plugin"
# Selected by the expression but not runnable from the sdist, which ships neither upstream's
# scripts/ folder nor its tests/conftest.py (node-id prefixes).
_VERIFY = "tests/test_verify_packaged_modules.py::"
_EDITOR = "tests/test_frontend_tkinter_parameter_editor.py::"
NEED_UPSTREAM_SCRIPTS = (  # call scripts/verify_packaged_modules.py (the frozen one also PyInstaller)
    f"{_VERIFY}test_archive_",
    f"{_VERIFY}test_wheel_is_rejected_",
    f"{_VERIFY}test_frozen_archive_",
)
NEED_UPSTREAM_CONFTEST = (  # use the `root` fixture of upstream's tests/conftest.py
    f"{_EDITOR}TestPluginLayoutRebuild",
    f"{_EDITOR}TestInlineComponentEditorCallbacks::test_offline_component_edits_preserve_plugin_placeholder",
    f"{_EDITOR}TestParameterDownloads::test_parameter_download_pauses_plugin_reception_until_cleanup",
    f"{_EDITOR}test_inspector_disables_plugin_controls_without_a_modal_grab",
    f"{_EDITOR}test_recovery_locks_plugin_buttons_until_the_connection_owner_releases_them",
    f"{_EDITOR}test_recovery_retries_plugin_enabled_by_component_edit",
)
# test_verify_packaged_modules.py imports these at module level; the sdist lacks the modules.
# The placeholders let the module load; every test that would call one is deselected above, so a
# call fails loudly instead of passing.
_SCRIPTS_PLACEHOLDERS = {
    "verify_packaged_modules.py": ("required_modules", "verify_archive"),
    "verify_wheel_install.py": ("verify_wheel_hash", "verify_wheel_install", "wheel_from_report"),
}


def _write_script_placeholders(folder: Path) -> None:
    scripts = folder / "scripts"
    scripts.mkdir()
    (scripts / "__init__.py").write_text('"""Placeholders for 5.0.1\'s scripts/, absent from its sdist."""\n')
    for module, names in _SCRIPTS_PLACEHOLDERS.items():
        body = "".join(
            f"\n\ndef {name}(*_args: object, **_kwargs: object) -> None:\n"
            f"    raise NotImplementedError('{name} is not in the 5.0.1 sdist')\n"
            for name in names
        )
        (scripts / module).write_text(f'"""Placeholder: not in the 5.0.1 sdist."""{body}', encoding="utf-8")


def test_5_0_1s_own_plugin_registration_and_packaging_tests_pass_on_the_overlay(
    methodic_configurator_501_overlay_env: MethodicConfiguratorEnvironment,
    methodic_configurator_501_sources: Path,
    tmp_path: Path,
) -> None:
    """GIVEN 5.0.1's own tests from its sdist, run against the installed overlay (not the sdist's sources)
    WHEN the plugin tests of __main__ (registration, --validate-plugins), the packaging smoke
    test, the parameter editor's plugin model creation and the window's plugin lifecycle run
    THEN every one of them passes."""
    run_dir = tmp_path / "upstream"
    shutil.copytree(methodic_configurator_501_sources / "tests", run_dir / "tests")
    _write_script_placeholders(run_dir)
    env = isolated_environment(tmp_path / "home")
    python = str(methodic_configurator_501_overlay_env.python)
    imported = subprocess.run(
        [python, "-c", f"import {PACKAGE}.plugins.frontend_tkinter_rc_receiver as m; print(m.__file__)"],
        cwd=run_dir,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    module_file = Path(imported.stdout.strip())
    assert module_file.is_relative_to(methodic_configurator_501_overlay_env.site_packages)
    assert module_file.read_bytes() == our_plugin_modules()["frontend_tkinter_rc_receiver.py"]

    command = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--no-xvfb", "-k", UPSTREAM_SELECTION]
    not_in_the_sdist = (*NEED_UPSTREAM_SCRIPTS, *NEED_UPSTREAM_CONFTEST)
    command += [argument for node in not_in_the_sdist for argument in ("--deselect", node)]
    result = subprocess.run(
        [*command, *UPSTREAM_TEST_FILES],
        cwd=run_dir,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )

    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else result.stderr
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-3000:]
    passed = re.search(r"(\d+) passed", summary)
    assert passed is not None, summary
    assert int(passed.group(1)) >= 70, summary
    assert not re.search(r"failed|error", summary), summary


# --------------------------------------------------------------------------------------------------
# Installing this project next to 5.0.1


def _record_digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _release_record(environment: MethodicConfiguratorEnvironment) -> list[tuple[Path, str]]:
    record = environment.site_packages / f"{PACKAGE}-{VERSION}.dist-info" / "RECORD"
    rows = csv.reader(io.StringIO(record.read_text(encoding="utf-8")))
    return [(environment.site_packages / row[0], row[1]) for row in rows if row and row[1]]


def _changed_release_files(environment: MethodicConfiguratorEnvironment) -> list[str]:
    """Files of 5.0.1's RECORD that are missing or whose digest differs."""
    changed = []
    for path, digest in _release_record(environment):
        if not path.is_file() or _record_digest(path.read_bytes()) != digest:
            changed.append(str(path))
    return changed


@pytest.fixture(scope="session")
def our_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel of this repository, built once per run (the tests install it; none changes it)."""
    return once_per_run(tmp_path_factory, "our-wheel", _build_our_wheel)


def _build_our_wheel(tmp_path: Path) -> Path:
    source = tmp_path / "src"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".venv*", ".git", "build", "dist", ".cache", "__pycache__", "*.egg-info", "*.mo"
        ),
    )
    wheels = tmp_path / "wheels"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels), str(source)],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    (wheel,) = wheels.glob("amc_rc_receiver-*.whl")
    return wheel


def _run(
    environment: MethodicConfiguratorEnvironment, home: Path, *command: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(environment.script(command[0])), *command[1:]],
        capture_output=True,
        text=True,
        timeout=300,
        env=isolated_environment(home),
        check=False,
    )


def test_installing_this_project_next_to_5_0_1_changes_none_of_its_files(
    methodic_configurator_501_release_env_to_change: MethodicConfiguratorEnvironment,
    our_wheel: Path,
    tmp_path: Path,
) -> None:
    """GIVEN an environment holding the released 5.0.1, every file as its RECORD says
    WHEN a wheel built from this repository is installed into it with pip (dependencies
    resolved), and later uninstalled
    THEN every file of 5.0.1's RECORD keeps its digest throughout, our wheel installs nothing
    inside ardupilot_methodic_configurator, 5.0.1's --validate-plugins still exits 0 and both
    console scripts run."""
    environment = methodic_configurator_501_release_env_to_change
    wheel = our_wheel
    environment.pip("uninstall", "--yes", "amc-rc-receiver")  # a left-over of an interrupted run
    assert _changed_release_files(environment) == []
    home = tmp_path / "home"

    installed = environment.pip("install", "--quiet", str(wheel))
    try:
        assert installed.returncode == 0, installed.stderr
        assert _changed_release_files(environment) == []
        (ours,) = environment.site_packages.glob("amc_rc_receiver-*.dist-info")
        our_files = [row[0] for row in csv.reader(io.StringIO((ours / "RECORD").read_text())) if row]
        assert our_files
        assert not [name for name in our_files if name.startswith(f"{PACKAGE}/")]

        validated = _run(environment, home, "ardupilot_methodic_configurator", "--validate-plugins")
        assert validated.returncode == 0, validated.stdout + validated.stderr
        theirs = _run(environment, home, "ardupilot_methodic_configurator", "--version")
        assert theirs.returncode == 0, theirs.stderr
        assert VERSION in theirs.stdout + theirs.stderr
        mine = _run(environment, home, "amc-rc-receiver", "--version")
        assert mine.returncode == 0, mine.stderr
        assert __version__ in mine.stdout
    finally:
        uninstalled = environment.pip("uninstall", "--yes", "amc-rc-receiver")
    assert uninstalled.returncode == 0, uninstalled.stderr
    assert _changed_release_files(environment) == []


def _record_digests(site_packages: Path, dist_info_glob: str) -> dict[Path, str]:
    (dist_info,) = site_packages.glob(dist_info_glob)
    rows = csv.reader(io.StringIO((dist_info / "RECORD").read_text(encoding="utf-8")))
    return {site_packages / row[0]: row[1] for row in rows if row and row[1]}


def test_uninstalling_5_0_1_leaves_this_project_whole_and_working(our_wheel: Path, tmp_path: Path) -> None:
    """GIVEN a fresh environment holding both the released 5.0.1 wheel and a wheel of this project
    WHEN 5.0.1 is uninstalled with pip
    THEN every file of our RECORD keeps its digest, and `amc-rc-receiver` still runs a check on its
    demo in the terminal view (the other way round is the test above)."""
    release = release_wheel_in_environments()
    wheel = our_wheel
    environment = MethodicConfiguratorEnvironment(tmp_path / "both")
    created = subprocess.run(
        [sys.executable, "-m", "venv", str(environment.root)], capture_output=True, text=True, check=False
    )
    assert created.returncode == 0, created.stderr
    ours_installed = environment.pip("install", "--quiet", str(wheel))
    assert ours_installed.returncode == 0, ours_installed.stderr
    theirs_installed = environment.pip("install", "--quiet", "--no-deps", str(release))
    assert theirs_installed.returncode == 0, theirs_installed.stderr
    ours = _record_digests(environment.site_packages, "amc_rc_receiver-*.dist-info")

    removed = environment.pip("uninstall", "--yes", "ardupilot-methodic-configurator")

    assert removed.returncode == 0, removed.stderr
    assert not (environment.site_packages / PACKAGE).exists()

    def whole(path: Path, digest: str) -> bool:
        return path.is_file() and _record_digest(path.read_bytes()) == digest

    assert [path for path, digest in ours.items() if not whole(path, digest)] == []
    home = tmp_path / "home"
    check = _run(environment, home, "amc-rc-receiver", "--demo", "--text", "--duration", "3")
    assert check.returncode == 4, check.stdout + check.stderr  # INCOMPLETE: 3 s is too short to finish
    assert "Verdict: INCOMPLETE" in check.stdout
