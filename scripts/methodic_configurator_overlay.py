#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Overlay build: the released ArduPilot Methodic Configurator wheel with our ``rc_receiver`` step.

    .venv/bin/python scripts/methodic_configurator_overlay.py [--wheel PATH | --version 5.0.1] --out dist/
    pip install dist/ardupilot_methodic_configurator-5.0.1+rcreceiver.1-py3-none-any.whl

Strategy: copy the release wheel entry by entry and change only what a drop-in replacement has
to change, then prove it on the result before a single byte is written.

- Taken from ``ardupilot_methodic_configurator/plugins/`` and its sub-packages: every ``*.py``
  except the host stand-ins at its top (``__init__``, ``plugin_factory``, ``plugin_protocol``,
  ``plugin_constants``, which the release provides itself).  ``data_model_rc_receiver.py`` and
  ``frontend_tkinter_rc_receiver.py`` replace the release's files of the same names; every
  other module is *added* and must not exist in the release.
- The plugin modules reach the host only relatively (``from .. import _``,
  ``from .plugin_factory import plugin_factory``); each such import is resolved against the
  release's own files, and every imported name must be defined there.
- The version gets a local label (``5.0.1+rcreceiver.1``): the ``Version`` line of METADATA, the
  ``.dist-info`` directory and the wheel file name.  RECORD is regenerated (sha256 and size of
  every file).  Nothing else changes: every other entry keeps its bytes and zip attributes, and an
  independent check of the finished archive against the release refuses the build otherwise.
- The output is reproducible: new entries take the timestamp of the release entry they replace.

Refusals (exit status 1, nothing written): the release wheel's own RECORD does not match its
files, or its digest differs from the one pinned below; a file the overlay needs is missing from
the release or from our plugins; an added module would overwrite a release file; a relative
import would not resolve in the release; any other release file would change.

``--print-requirements`` prints the release's runtime requirements without their version pins
(one per line, environment markers kept), for installing the release ``--no-deps`` and then its
dependencies at whatever versions the registry offers.  Standard library only.
"""

from __future__ import annotations

import argparse
import ast
import base64
import csv
import hashlib
import io
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROJECT = "ardupilot-methodic-configurator"
PACKAGE = "ardupilot_methodic_configurator"
PLUGINS_DIR = f"{PACKAGE}/plugins"
DEFAULT_VERSION = "5.0.1"
DEFAULT_LOCAL_LABEL = "rcreceiver.1"
OUR_PLUGINS = ROOT / "ardupilot_methodic_configurator" / "plugins"
# The release's files that the overlay replaces; everything else of the release stays as it is.
REPLACED_MODULES = ("data_model_rc_receiver.py", "frontend_tkinter_rc_receiver.py")
# Our stand-ins for the host's own modules: the release brings its real ones.
HOST_STAND_INS = frozenset({"__init__.py", "plugin_factory.py", "plugin_protocol.py", "plugin_constants.py"})
# sha256 of the wheels published on the registry; a release wheel with another digest is refused.
RELEASE_WHEEL_SHA256: Mapping[str, str] = {
    "5.0.1": "9e46ad35b57c6ec6b8546bc10c5e9472200e2c1864fbf7ae2c86a72fc58b4915",
}
_LOCAL_LABEL = re.compile(r"[a-z0-9]+(\.[a-z0-9]+)*")
_REQUIREMENT_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?")


class OverlayError(Exception):
    """The overlay cannot be built without changing the release beyond the plugin: nothing written."""


@dataclass(frozen=True)
class ReleaseWheel:
    """A release wheel read into memory and checked against its own RECORD."""

    path: Path
    distribution: str  # as spelled in the file name, e.g. ardupilot_methodic_configurator
    version: str
    tags: str  # e.g. py3-none-any
    infos: tuple[zipfile.ZipInfo, ...]
    files: Mapping[str, bytes]

    @property
    def dist_info(self) -> str:
        return f"{self.distribution}-{self.version}.dist-info"

    def metadata(self) -> str:
        return self.files[f"{self.dist_info}/METADATA"].decode("utf-8")


@dataclass(frozen=True)
class Overlay:
    """The finished overlay wheel, not yet written."""

    filename: str
    data: bytes
    replaced: tuple[str, ...]
    added: tuple[str, ...]
    unchanged: int


def record_hash(data: bytes) -> str:
    """The RECORD form of a digest: ``sha256=`` and urlsafe base64 without padding."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"sha256={digest}"


def read_record(text: str) -> dict[str, tuple[str, str]]:
    """RECORD rows as ``{path: (hash, size)}``."""
    return {row[0]: (row[1], row[2]) for row in csv.reader(io.StringIO(text)) if row}


def write_record(files: Mapping[str, bytes], record_path: str) -> bytes:
    """A RECORD for ``files`` (in their order), ending with its own hash-less row."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for name, data in files.items():
        writer.writerow((name, record_hash(data), str(len(data))))
    writer.writerow((record_path, "", ""))
    return out.getvalue().encode("utf-8")


def verify_record(files: Mapping[str, bytes], record_path: str, what: str) -> None:
    """Every file is listed in RECORD with its hash and size, and RECORD lists nothing else."""
    record = read_record(files[record_path].decode("utf-8"))
    listed = set(record) - {record_path}
    present = set(files) - {record_path}
    if listed != present:
        missing = sorted(present - listed)[:5]
        extra = sorted(listed - present)[:5]
        raise OverlayError(
            f"{what}: RECORD does not list the archive's files (unlisted {missing}, absent {extra})"
        )
    for name in sorted(present):
        expected_hash, expected_size = record[name]
        data = files[name]
        if expected_hash != record_hash(data) or expected_size != str(len(data)):
            raise OverlayError(f"{what}: {name} does not match its RECORD entry")


def read_release_wheel(path: Path, *, expected_version: str | None = None) -> ReleaseWheel:
    """Read and check a release wheel: its name, its METADATA version, its RECORD, its pinned digest."""
    if not path.is_file():
        raise OverlayError(f"release wheel not found: {path}")
    parts = path.name[: -len(".whl")].split("-") if path.name.endswith(".whl") else []
    if len(parts) != 5 or parts[0].lower() != PACKAGE:
        raise OverlayError(
            f"{path.name} is not a {PROJECT} wheel (expected {PACKAGE}-VERSION-py3-none-any.whl)"
        )
    distribution, version = parts[0], parts[1]
    if "+" in version:
        raise OverlayError(f"{path.name} already carries a local version label: start from the release wheel")
    if expected_version is not None and version != expected_version:
        raise OverlayError(f"{path.name} is version {version}, not the requested {expected_version}")
    raw = path.read_bytes()
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            infos = tuple(info for info in archive.infolist() if not info.is_dir())
            files = {info.filename: archive.read(info) for info in infos}
    except zipfile.BadZipFile as error:
        raise OverlayError(f"{path.name} is not a readable wheel: {error}") from error
    wheel = ReleaseWheel(path, distribution, version, "-".join(parts[2:]), infos, files)
    for needed in ("METADATA", "RECORD", "WHEEL"):
        if f"{wheel.dist_info}/{needed}" not in files:
            raise OverlayError(f"{path.name}: {wheel.dist_info}/{needed} is missing")
    metadata_version = _metadata_field(wheel.metadata(), "Version")
    if metadata_version != version:
        raise OverlayError(f"{path.name}: METADATA says version {metadata_version}, the file name {version}")
    verify_record(files, f"{wheel.dist_info}/RECORD", path.name)
    # A consistent RECORD is not enough: the archive must be the very one published on the registry.
    pinned = RELEASE_WHEEL_SHA256.get(version)
    if pinned is not None and hashlib.sha256(raw).hexdigest() != pinned:
        raise OverlayError(f"{path.name} is not the published {version} wheel (sha256 differs from {pinned})")
    for module in REPLACED_MODULES:
        if f"{PLUGINS_DIR}/{module}" not in files:
            raise OverlayError(f"{path.name} has no {PLUGINS_DIR}/{module} to replace")
    return wheel


def _metadata_field(metadata: str, field: str) -> str | None:
    for line in metadata.splitlines():
        if not line.strip():
            return None  # the headers end at the first empty line; the description follows
        key, _, value = line.partition(":")
        if key == field:
            return value.strip()
    return None


def runtime_requirements(metadata: str) -> list[str]:
    """``Requires-Dist`` entries outside any extra, version pins removed, markers kept."""
    requirements: list[str] = []
    for line in metadata.splitlines():
        if not line.strip():
            break
        key, _, value = line.partition(":")
        if key != "Requires-Dist":
            continue
        spec, _, marker = value.partition(";")
        if "extra" in marker:
            continue
        match = _REQUIREMENT_NAME.match(spec)
        if match is None:
            raise OverlayError(f"cannot read the requirement {value.strip()!r}")
        name = match.group(1) + (match.group(2) or "")
        requirement = f"{name}; {marker.strip()}" if marker.strip() else name
        if requirement not in requirements:
            requirements.append(requirement)
    return requirements


def read_plugin_sources(plugins_dir: Path) -> dict[str, bytes]:
    """Our plugin modules proper (stand-ins excluded), by path below the plugin folder."""
    if not plugins_dir.is_dir():
        raise OverlayError(f"plugin directory not found: {plugins_dir}")
    sources = {
        path.relative_to(plugins_dir).as_posix(): path.read_bytes()
        for path in sorted(plugins_dir.rglob("*.py"))
        if path.relative_to(plugins_dir).as_posix() not in HOST_STAND_INS
    }
    for module in REPLACED_MODULES:
        if module not in sources:
            raise OverlayError(f"our plugin module {plugins_dir / module} is missing")
    return sources


def _top_level_names(source: bytes, filename: str) -> set[str]:
    """Names a module defines at its top level (including inside top-level if/try blocks)."""
    names: set[str] = set()
    pending: list[ast.stmt] = list(ast.parse(source, filename).body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, (ast.If, ast.Try, ast.With)):
            pending.extend(node.body)
            pending.extend(getattr(node, "orelse", []))
            pending.extend(getattr(node, "finalbody", []))
            for handler in getattr(node, "handlers", []):
                pending.extend(handler.body)
    return names


def check_relative_imports(sources: Mapping[str, bytes], release: ReleaseWheel) -> None:
    """Every relative import of our modules resolves, inside the release, to a file that defines the name."""
    for module, source in sorted(sources.items()):
        package_parts = [*PLUGINS_DIR.split("/"), *module.split("/")[:-1]]
        tree = ast.parse(source, module)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == "amc_rc_receiver":
                        raise OverlayError(
                            f"{module} imports {alias.name}, which the methodic configurator lacks"
                        )
                continue
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level == 0:
                if (node.module or "").split(".")[0] == "amc_rc_receiver":
                    raise OverlayError(
                        f"{module} imports {node.module}: plugin modules must import relatively"
                    )
                continue
            if node.level > len(package_parts):
                raise OverlayError(f"{module}: a relative import climbs above the {PACKAGE} package")
            base = package_parts[: len(package_parts) - node.level + 1]
            target = [*base, *node.module.split(".")] if node.module else base
            _check_import_target(
                module, "/".join(target), [alias.name for alias in node.names], sources, release
            )


def _check_import_target(
    module: str, target: str, names: Sequence[str], sources: Mapping[str, bytes], release: ReleaseWheel
) -> None:
    dotted = target.replace("/", ".")
    ours = target[len(PLUGINS_DIR) + 1 :] if target.startswith(f"{PLUGINS_DIR}/") else None
    if ours is not None and f"{ours}.py" in sources:
        defined = _top_level_names(sources[f"{ours}.py"], module)
        where = f"our {ours}.py"
    elif ours is not None and f"{ours}/__init__.py" in sources:
        defined = _top_level_names(sources[f"{ours}/__init__.py"], module)
        defined |= {
            name[len(ours) + 1 :].split("/")[0].removesuffix(".py")
            for name in sources
            if name.startswith(f"{ours}/")
        }
        where = f"our {ours}/"
    elif f"{target}.py" in release.files:
        defined = _top_level_names(release.files[f"{target}.py"], f"{target}.py")
        where = f"{release.path.name}: {target}.py"
    elif f"{target}/__init__.py" in release.files:
        defined = _top_level_names(release.files[f"{target}/__init__.py"], f"{target}/__init__.py")
        prefix = f"{target}/"
        defined |= {
            name[len(prefix) :].split("/")[0].removesuffix(".py")
            for name in release.files
            if name.startswith(prefix)
        }
        if target == PLUGINS_DIR:
            defined |= {name.split("/")[0].removesuffix(".py") for name in sources}
        where = f"{release.path.name}: {target}/__init__.py"
    else:
        raise OverlayError(f"{module} imports {dotted}, which {release.path.name} does not have")
    missing = [name for name in names if name != "*" and name not in defined]
    if missing:
        raise OverlayError(f"{module} imports {', '.join(missing)} from {dotted}, not defined in {where}")


def build_overlay(release: ReleaseWheel, sources: Mapping[str, bytes], local_label: str) -> Overlay:
    """The overlay wheel in memory, checked against the release (see ``verify_overlay``)."""
    if not _LOCAL_LABEL.fullmatch(local_label):
        raise OverlayError(f"{local_label!r} is not a local version label (lower-case letters, digits, dots)")
    check_relative_imports(sources, release)
    added = sorted(name for name in sources if name not in REPLACED_MODULES)
    for name in added:
        if f"{PLUGINS_DIR}/{name}" in release.files:
            raise OverlayError(
                f"our plugin module {name} would overwrite {PLUGINS_DIR}/{name} of {release.path.name}: "
                "rename it"
            )
    version = f"{release.version}+{local_label}"
    old_dist_info, new_dist_info = release.dist_info, f"{release.distribution}-{version}.dist-info"
    record_path = f"{new_dist_info}/RECORD"

    entries: dict[str, tuple[zipfile.ZipInfo, bytes]] = {}
    # New entries take the timestamp of the release entry they replace, so the build is reproducible.
    stamp = next(info for info in release.infos if info.filename == f"{PLUGINS_DIR}/{REPLACED_MODULES[0]}")
    pending_additions = list(added)
    for info in release.infos:
        name, data = info.filename, release.files[info.filename]
        if name.startswith(f"{old_dist_info}/"):
            # A wheel's .dist-info comes last: the added modules go just before it.
            for module in pending_additions:
                entries[f"{PLUGINS_DIR}/{module}"] = (
                    _info_like(stamp, f"{PLUGINS_DIR}/{module}"),
                    sources[module],
                )
            pending_additions.clear()
            if name == f"{old_dist_info}/RECORD":
                continue
            new_name = new_dist_info + name[len(old_dist_info) :]
            if name == f"{old_dist_info}/METADATA":
                data = _with_version(data, release.version, version)
            entries[new_name] = (_info_like(info, new_name), data)
        elif name.startswith(f"{PLUGINS_DIR}/") and name[len(PLUGINS_DIR) + 1 :] in REPLACED_MODULES:
            entries[name] = (_info_like(info, name), sources[name[len(PLUGINS_DIR) + 1 :]])
        else:
            entries[name] = (_info_like(info, name), data)
    record_info = next(info for info in release.infos if info.filename == f"{old_dist_info}/RECORD")
    files = {name: data for name, (_info, data) in entries.items()}
    entries[record_path] = (_info_like(record_info, record_path), write_record(files, record_path))

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for info, data in entries.values():
            archive.writestr(info, data)
    overlay = Overlay(
        filename=f"{release.distribution}-{version}-{release.tags}.whl",
        data=buffer.getvalue(),
        replaced=tuple(f"{PLUGINS_DIR}/{name}" for name in REPLACED_MODULES),
        added=tuple(f"{PLUGINS_DIR}/{name}" for name in added),
        unchanged=len(release.files) - len(REPLACED_MODULES) - 2,  # METADATA and RECORD change
    )
    verify_overlay(release, overlay, sources, version)
    return overlay


def _info_like(original: zipfile.ZipInfo, name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=original.date_time)
    info.compress_type = original.compress_type
    info.external_attr = original.external_attr
    info.create_system = original.create_system
    return info


def _with_version(metadata: bytes, old: str, new: str) -> bytes:
    """METADATA with its one ``Version`` header changed from ``old`` to ``new``; nothing else."""
    head, separator, body = metadata.decode("utf-8").partition("\n\n")
    lines = head.split("\n")
    versions = [index for index, line in enumerate(lines) if line.startswith("Version:")]
    if len(versions) != 1 or lines[versions[0]] != f"Version: {old}":
        raise OverlayError(f"METADATA has no single 'Version: {old}' header to relabel")
    lines[versions[0]] = f"Version: {new}"
    return ("\n".join(lines) + separator + body).encode("utf-8")


def verify_overlay(
    release: ReleaseWheel, overlay: Overlay, sources: Mapping[str, bytes], version: str
) -> None:
    """Refuse unless the overlay is the release with exactly the plugin change, and its RECORD is right."""
    with zipfile.ZipFile(io.BytesIO(overlay.data)) as archive:
        if archive.testzip() is not None:
            raise OverlayError("the overlay archive is corrupt")
        infos = {info.filename: info for info in archive.infolist()}
        files = {name: archive.read(name) for name in infos}
    new_dist_info = f"{release.distribution}-{version}.dist-info"
    verify_record(files, f"{new_dist_info}/RECORD", overlay.filename)
    if next(reversed(files)) != f"{new_dist_info}/RECORD":
        raise OverlayError("RECORD is not the last entry of the overlay")
    expected_names = set(overlay.added)
    for name in release.files:
        if name.startswith(f"{release.dist_info}/"):
            expected_names.add(new_dist_info + name[len(release.dist_info) :])
        else:
            expected_names.add(name)
    if set(files) != expected_names:
        raise OverlayError(
            f"the overlay's file list differs from the release's: {sorted(set(files) ^ expected_names)[:5]}"
        )
    for name, data in files.items():
        if name in overlay.replaced or name in overlay.added:
            if data != sources[name[len(PLUGINS_DIR) + 1 :]]:
                raise OverlayError(f"{name} is not our plugin module")
            continue
        if name.startswith(f"{new_dist_info}/"):
            original_name = release.dist_info + name[len(new_dist_info) :]
            if name.endswith("/RECORD"):
                continue
            original = release.files[original_name]
            if name.endswith("/METADATA"):
                if (
                    _metadata_field(data.decode("utf-8"), "Version") != version
                    or _with_version(original, release.version, version) != data
                ):
                    raise OverlayError("METADATA changed beyond its Version header")
                continue
        else:
            original_name, original = name, release.files[name]
        before = next(info for info in release.infos if info.filename == original_name)
        after = infos[name]
        if data != original or (before.date_time, before.external_attr) != (
            after.date_time,
            after.external_attr,
        ):
            raise OverlayError(f"{original_name} of the release would change")


def download_release(version: str, directory: Path) -> Path:
    """The release wheel from the registry (``pip download``), or the one already in ``directory``."""
    wanted = f"{PACKAGE}-{version}-py3-none-any.whl"
    if (directory / wanted).is_file():
        return directory / wanted
    directory.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
        "--no-deps", "--only-binary", ":all:", "--dest", str(directory), f"{PROJECT}=={version}",
    ]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise OverlayError(f"pip could not download {PROJECT}=={version}:\n{result.stderr.strip()}")
    found = sorted(directory.glob(f"{PACKAGE}-{version}-*.whl"))
    if not found:
        raise OverlayError(f"pip downloaded no wheel of {PROJECT}=={version} into {directory}")
    return found[0]


def write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Build the ArduPilot Methodic Configurator release wheel with our rc_receiver plugin.",
        epilog="Then: pip install dist/ardupilot_methodic_configurator-5.0.1+rcreceiver.1-py3-none-any.whl",
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--wheel", type=Path, help="the release wheel (default: download it with pip)")
    source.add_argument("--version", help=f"the release to download (default {DEFAULT_VERSION})")
    parser.add_argument("--out", type=Path, default=Path("dist"), help="output directory (default dist/)")
    parser.add_argument(
        "--download-dir",
        type=Path,
        help="keep the downloaded release wheel here (default: a temporary directory)",
    )
    parser.add_argument(
        "--plugins", type=Path, default=OUR_PLUGINS, help="our plugin modules (default: %(default)s)"
    )
    parser.add_argument(
        "--local-label", default=DEFAULT_LOCAL_LABEL, help="local version label (default %(default)s)"
    )
    parser.add_argument(
        "--print-requirements",
        action="store_true",
        help="print the release's runtime requirements unpinned, then exit",
    )
    return parser.parse_args(argv)


def _release_wheel(args: argparse.Namespace, scratch: Path) -> ReleaseWheel:
    if args.wheel is not None:
        return read_release_wheel(args.wheel)
    version = args.version or DEFAULT_VERSION
    if version not in RELEASE_WHEEL_SHA256:
        print(f"note: {version} has no pinned digest here; only {DEFAULT_VERSION} is tested", file=sys.stderr)
    return read_release_wheel(
        download_release(version, args.download_dir or scratch), expected_version=version
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse_args(argv)
    try:
        with tempfile.TemporaryDirectory(prefix="amc-overlay-") as scratch:
            release = _release_wheel(args, Path(scratch))
        if args.print_requirements:
            print("\n".join(runtime_requirements(release.metadata())))
            return 0
        overlay = build_overlay(release, read_plugin_sources(args.plugins), args.local_label)
        target = args.out / overlay.filename
        write_atomically(target, overlay.data)
    except OverlayError as error:
        print(f"methodic_configurator_overlay: refused: {error}", file=sys.stderr)
        return 1
    _report(release, overlay, target)
    return 0


def _report(release: ReleaseWheel, overlay: Overlay, target: Path) -> None:
    lines: Iterable[str] = (
        f"{target}",
        f"  from {release.path.name} (RECORD verified)",
        *(f"  replaced {name}" for name in overlay.replaced),
        *(f"  added    {name}" for name in overlay.added),
        f"  {overlay.unchanged} other files unchanged; METADATA version and RECORD rewritten",
    )
    print("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
