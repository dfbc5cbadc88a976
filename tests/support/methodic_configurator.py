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

The second part of this module gives tests/integration the methodic configurator *environments*
the test command builds (5.0.1 as released, and our overlay of it): see the comment there.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
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


# --------------------------------------------------------------------------------------------------
# Methodic configurator environments for tests/integration.
#
# The test command (scripts/test.sh -> ensure_methodic_configurator_venvs in scripts/_bootstrap.sh)
# builds them once under build/methodic-configurator-5.0.1/ (git-ignored; AMC501_HOME moves it):
#   release/       the release wheel and sdist from the registry, digests checked
#   src/           the unpacked sdist: 5.0.1's own tests
#   venv/          5.0.1 as a user installs it: the release wheel --no-deps, then its requirements
#                  unpinned, plus pytest, pytest-mock and pytest-xvfb
#   venv-overlay/  the same with our overlay wheel (scripts/methodic_configurator_overlay.py)
# Tests reach them through the fixtures below, which skip with the reason when a plain `pytest`
# runs without them.  The overlay fixture reinstalls the overlay when our plugin modules changed
# since it was built, so an edit is never tested against an old copy.
#
# Tests of a parallel run share the environments, so each holds a lock on the one it uses for as
# long as it uses it: shared while it runs 5.0.1, exclusive while it installs into it (our wheel,
# a new overlay), so that no test ever sees an environment half changed by another.
# --------------------------------------------------------------------------------------------------

ENVIRONMENTS_HOME_ENV = "AMC501_HOME"
OVERLAY_SCRIPT = ROOT / "scripts" / "methodic_configurator_overlay.py"
OVERLAY_LABEL = "rcreceiver.1"
OUR_PLUGINS = ROOT / "ardupilot_methodic_configurator" / "plugins"
_CREATED_BY = "they are created by ./scripts/test.sh (unless AMC_SKIP_METHODIC_CONFIGURATOR=1)"


def environments_home() -> Path:
    """Where the test command keeps the 5.0.1 environments (``$AMC501_HOME`` or build/...)."""
    configured = os.environ.get(ENVIRONMENTS_HOME_ENV)
    home = Path(configured) if configured else Path("build") / f"methodic-configurator-{VERSION}"
    return home if home.is_absolute() else ROOT / home


@dataclass(frozen=True)
class MethodicConfiguratorEnvironment:
    """A virtual environment holding the methodic configurator (the release, or our overlay of it)."""

    root: Path

    @contextlib.contextmanager
    def shared(self) -> Iterator[MethodicConfiguratorEnvironment]:
        """Use the environment as it is; any number of tests at once, none while it changes."""
        with self._locked(fcntl.LOCK_SH):
            yield self

    @contextlib.contextmanager
    def exclusive(self) -> Iterator[MethodicConfiguratorEnvironment]:
        """Change the environment; no other test uses it meanwhile."""
        with self._locked(fcntl.LOCK_EX):
            yield self

    @contextlib.contextmanager
    def _locked(self, kind: int) -> Iterator[None]:
        # flock: across the processes of a parallel run, released by the kernel if one dies.
        with (self.root / ".amc-test-lock").open("a") as handle:
            fcntl.flock(handle, kind)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    @property
    def python(self) -> Path:
        return self.root / "bin" / "python"

    def script(self, name: str) -> Path:
        return self.root / "bin" / name

    @property
    def site_packages(self) -> Path:
        (found,) = self.root.glob("lib/python3*/site-packages")
        return found

    @property
    def package_dir(self) -> Path:
        return self.site_packages / PACKAGE

    def distribution_version(self) -> str:
        """The installed methodic configurator's version, from its .dist-info folder."""
        (dist_info,) = self.site_packages.glob(f"{PACKAGE}-*.dist-info")
        return dist_info.name.removeprefix(f"{PACKAGE}-").removesuffix(".dist-info")

    def pip(self, *args: str, timeout_s: float = PIP_TIMEOUT_S) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.python), "-m", "pip", *PIP_OPTIONS, *args],
            capture_output=True,
            text=True,
            timeout=timeout_s,
            check=False,
        )


def our_plugin_modules() -> dict[str, bytes]:
    """The plugin modules the overlay carries (every ``*.py`` below the plugin folder but the host
    stand-ins at its top), by path below the plugin folder."""
    stand_ins = {"__init__.py", "plugin_factory.py", "plugin_protocol.py", "plugin_constants.py"}
    return {
        path.relative_to(OUR_PLUGINS).as_posix(): path.read_bytes()
        for path in sorted(OUR_PLUGINS.rglob("*.py"))
        if path.relative_to(OUR_PLUGINS).as_posix() not in stand_ins
    }


def _environment(name: str) -> MethodicConfiguratorEnvironment:
    environment = MethodicConfiguratorEnvironment(environments_home() / name)
    if not environment.python.is_file() or not (environment.root / ".amc-wheel-stamp").is_file():
        pytest.skip(f"no methodic configurator {VERSION} environment at {environment.root}: {_CREATED_BY}")
    return environment


def release_wheel_in_environments() -> Path:
    found = wheel_in(environments_home() / "release")
    if found is None:
        pytest.skip(f"the {VERSION} release wheel is not in {environments_home() / 'release'}: {_CREATED_BY}")
    return found


def build_overlay(
    out: Path, *, plugins: Path = OUR_PLUGINS, wheel_path: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the overlay build (this environment's Python) into ``out``."""
    command = [
        sys.executable,
        str(OVERLAY_SCRIPT),
        "--wheel",
        str(wheel_path or release_wheel_in_environments()),
    ]
    command += ["--out", str(out), "--plugins", str(plugins)]
    return subprocess.run(command, capture_output=True, text=True, timeout=PIP_TIMEOUT_S, check=False)


def refresh_overlay(environment: MethodicConfiguratorEnvironment) -> None:
    """Reinstall the overlay wheel when the installed plugin modules are not byte-for-byte ours."""
    plugins = environment.package_dir / "plugins"
    current = our_plugin_modules()

    def installed() -> bool:
        return all(
            (plugins / name).is_file() and (plugins / name).read_bytes() == data
            for name, data in current.items()
        )

    with environment.shared():
        if installed():
            return
    with environment.exclusive():
        if not installed():  # another worker may have reinstalled it meanwhile
            _install_overlay(environment)


def _install_overlay(environment: MethodicConfiguratorEnvironment) -> None:
    out = environments_home() / "overlay"
    built = build_overlay(out)
    assert built.returncode == 0, built.stderr
    overlay = out / f"{PACKAGE}-{VERSION}+{OVERLAY_LABEL}-py3-none-any.whl"
    installed = environment.pip("install", "--quiet", "--no-deps", "--force-reinstall", str(overlay))
    assert installed.returncode == 0, installed.stderr
    digest = hashlib.sha256(overlay.read_bytes()).hexdigest()
    (environment.root / ".amc-wheel-stamp").write_text(f"{digest} {overlay.name}", encoding="utf-8")


@pytest.fixture(scope="session")
def release_environment() -> MethodicConfiguratorEnvironment:
    """The environment of ``methodic_configurator_501_release_env``, unlocked (for fixtures that
    hold its lock themselves)."""
    environment = _environment("venv")
    with environment.shared():
        assert environment.distribution_version() == VERSION
    return environment


@pytest.fixture(scope="session")
def overlay_environment() -> MethodicConfiguratorEnvironment:
    """The environment of ``methodic_configurator_501_overlay_env``, unlocked, its overlay current."""
    environment = _environment("venv-overlay")
    refresh_overlay(environment)
    with environment.shared():
        assert environment.distribution_version() == f"{VERSION}+{OVERLAY_LABEL}"
    return environment


@pytest.fixture
def methodic_configurator_501_release_env(
    release_environment: MethodicConfiguratorEnvironment,
) -> Iterator[MethodicConfiguratorEnvironment]:
    """5.0.1 from the registry as a user installs it, with its own ``rc_receiver`` (shared)."""
    with release_environment.shared():
        yield release_environment


@pytest.fixture
def methodic_configurator_501_release_env_to_change(
    release_environment: MethodicConfiguratorEnvironment,
) -> Iterator[MethodicConfiguratorEnvironment]:
    """The 5.0.1 release environment, for a test that installs into it (exclusive)."""
    with release_environment.exclusive():
        yield release_environment


@pytest.fixture
def methodic_configurator_501_overlay_env(
    overlay_environment: MethodicConfiguratorEnvironment,
) -> Iterator[MethodicConfiguratorEnvironment]:
    """5.0.1 with our ``rc_receiver`` (the overlay wheel), reinstalled if our plugin modules changed
    (shared)."""
    with overlay_environment.shared():
        yield overlay_environment


@pytest.fixture(scope="session")
def methodic_configurator_501_sources() -> Path:
    """The unpacked 5.0.1 sdist (its ``tests/`` folder holds 5.0.1's own tests)."""
    sources = environments_home() / "src" / f"{PACKAGE}-{VERSION}"
    if not (sources / "tests").is_dir():
        pytest.skip(f"the {VERSION} sdist is not unpacked at {sources}: {_CREATED_BY}")
    return sources
