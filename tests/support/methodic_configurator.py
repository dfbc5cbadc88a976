# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The released ArduPilot Methodic Configurator 5.0.1, unpacked, for tests that compare with it.

The session fixture ``methodic_configurator_501_dir`` is a folder that holds 5.0.1's package
folder ``ardupilot_methodic_configurator/`` (its step files, schema, plugins, ...).  It comes
from the first of these that works:

1. 5.0.1 installed in the running environment (distribution version exactly ``5.0.1``, so an
   overlay build such as ``5.0.1+rcreceiver.1`` is not taken for the release): its
   site-packages folder;
2. the 5.0.1 wheel in the folder named by the environment variable ``AMC_MC501_WHEEL_DIR``
   (the test command provides one);
3. the 5.0.1 wheel in ``.cache/amc501/`` at the repository root (git-ignored), downloaded there
   from the Python registry by name (``pip download --no-deps``) when it is not there yet.

A wheel is unpacked once into ``.cache/amc501/`` and reused by later runs; download and
unpacking write to a temporary name first, so concurrent runs never see half a file.  When none
of the sources works (e.g. the registry cannot be reached) the tests that need 5.0.1 are skipped
with the reason.  ``methodic_configurator_501_wheel`` gives the wheel file itself (sources 2 and 3).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

VERSION = "5.0.1"
DISTRIBUTION = "ardupilot-methodic-configurator"
PACKAGE = "ardupilot_methodic_configurator"
WHEEL_GLOB = f"{PACKAGE}-{VERSION}-*.whl"
WHEEL_DIR_ENV = "AMC_MC501_WHEEL_DIR"
ROOT = Path(__file__).resolve().parents[2]
CACHE_DIR = ROOT / ".cache" / "amc501"
# pip retries an unreachable index for minutes by default; a test run should not.
PIP_TIMEOUT_S = 300
PIP_OPTIONS = ("--disable-pip-version-check", "--retries", "1", "--timeout", "20")


class MethodicConfigurator501UnavailableError(RuntimeError):
    """5.0.1 could not be found or fetched; the message says why (it becomes the skip reason)."""


def installed_root() -> Path | None:
    """The folder holding an installed ``ardupilot_methodic_configurator`` of exactly 5.0.1, or None."""
    try:
        distribution = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return None
    if distribution.version != VERSION:
        return None
    init = Path(str(distribution.locate_file(f"{PACKAGE}/__init__.py")))
    return init.parent.parent if init.is_file() else None


def wheel_in(folder: Path) -> Path | None:
    """The 5.0.1 wheel in ``folder``, if there is a readable one."""
    wheels = sorted(path for path in folder.glob(WHEEL_GLOB) if zipfile.is_zipfile(path))
    return wheels[0] if wheels else None


def download_wheel(cache: Path = CACHE_DIR) -> Path:
    """Fetch the 5.0.1 wheel from the registry into ``cache`` (once) and return it."""
    cached = wheel_in(cache) if cache.is_dir() else None
    if cached is not None:
        return cached
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache, prefix=".download-") as scratch:
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:"]
        command += [*PIP_OPTIONS, "--dest", scratch, f"{DISTRIBUTION}=={VERSION}"]
        try:
            result = subprocess.run(
                command, capture_output=True, text=True, timeout=PIP_TIMEOUT_S, check=False
            )
        except subprocess.TimeoutExpired as exc:
            raise MethodicConfigurator501UnavailableError(
                f"pip download {DISTRIBUTION}=={VERSION} took more than {PIP_TIMEOUT_S} s"
            ) from exc
        downloaded = wheel_in(Path(scratch))
        if result.returncode != 0 or downloaded is None:
            lines = [line for line in (result.stderr or result.stdout).splitlines() if line.strip()]
            detail = lines[-1] if lines else f"exit status {result.returncode}"
            if any("connection" in line.lower() for line in lines):
                detail += " (the package index could not be reached)"
            raise MethodicConfigurator501UnavailableError(
                f"cannot download {DISTRIBUTION}=={VERSION} from the Python registry: {detail}"
            )
        target = cache / downloaded.name
        os.replace(downloaded, target)
    return target


def wheel() -> Path:
    """The 5.0.1 wheel: from ``$AMC_MC501_WHEEL_DIR`` when it has one, else the cached download."""
    provided = os.environ.get(WHEEL_DIR_ENV)
    if provided:
        found = wheel_in(Path(provided))
        if found is not None:
            return found
    return download_wheel()


def unpack(wheel_path: Path, cache: Path = CACHE_DIR) -> Path:
    """Unpack ``wheel_path`` once under ``cache``; return the folder holding the package folder."""
    target = cache / wheel_path.name.removesuffix(".whl")
    if (target / PACKAGE / "__init__.py").is_file():
        return target
    cache.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(dir=cache, prefix=".unpack-"))
    scratch.chmod(0o755)  # mkdtemp makes it private; the unpacked release is meant to be read
    try:
        with zipfile.ZipFile(wheel_path) as archive:
            archive.extractall(scratch)
        try:
            scratch.rename(target)
        except OSError:
            # Another run finished first (the target exists now): use its copy.
            if not (target / PACKAGE / "__init__.py").is_file():
                raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return target


def methodic_configurator_501_root() -> Path:
    """The folder holding 5.0.1's package folder (see the module documentation for the sources)."""
    installed = installed_root()
    if installed is not None:
        return installed
    return unpack(wheel())


@pytest.fixture(scope="session")
def methodic_configurator_501_dir() -> Path:
    """A folder holding the released 5.0.1's ``ardupilot_methodic_configurator/`` package folder."""
    try:
        return methodic_configurator_501_root()
    except MethodicConfigurator501UnavailableError as reason:
        pytest.skip(f"the released methodic configurator {VERSION} is not available: {reason}")


@pytest.fixture(scope="session")
def methodic_configurator_501_wheel() -> Path:
    """The released 5.0.1 wheel file (provided by the test command, or downloaded once)."""
    try:
        return wheel()
    except MethodicConfigurator501UnavailableError as reason:
        pytest.skip(f"the released methodic configurator {VERSION} is not available: {reason}")
