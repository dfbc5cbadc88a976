# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Package-level behaviour: version, the gettext hook, and the one name the package is imported by."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import amc_rc_receiver as pkg

pytestmark = pytest.mark.pure


def test_package_exposes_a_semantic_version() -> None:
    """GIVEN the installed package WHEN its version is read THEN it has three numeric parts."""
    parts = pkg.__version__.split(".")
    assert len(parts) == 3
    assert all(part.isdigit() for part in parts)


def test_untranslated_english_is_returned_unchanged() -> None:
    """GIVEN English WHEN a message goes through _() THEN it comes back as written."""
    assert pkg.install_language("en")
    assert pkg._("Receiver present") == "Receiver present"


def test_unknown_language_keeps_english_and_says_so() -> None:
    """GIVEN a language with no catalog WHEN it is installed THEN English stays and False is returned."""
    assert not pkg.install_language("xx_NOPE")
    assert pkg._("RC failsafe") == "RC failsafe"
    pkg.install_language(None)


# ---- one name, one module object per source file ------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "ardupilot_methodic_configurator"
# Twins: files of ours at the path their methodic configurator counterpart has (5.0.1's tree).
TWINS = (
    "__init__.py",
    "__main__.py",
    "backend_flightcontroller.py",
    "plugins/plugin_factory.py",
    "plugins/plugin_protocol.py",
    "plugins/plugin_constants.py",
    "plugins/data_model_rc_receiver.py",
    "plugins/frontend_tkinter_rc_receiver.py",
)

# Run in a fresh interpreter from the repository root (where the source folder is on sys.path by
# the name of the methodic configurator): import every module of the package, try the folder under
# that name, and list every source file that more than one module object came from.
_PROBE = """
import importlib, json, pkgutil, sys
import amc_rc_receiver
failed = []
for info in pkgutil.walk_packages(amc_rc_receiver.__path__, "amc_rc_receiver."):
    try:
        importlib.import_module(info.name)
    except Exception as error:
        failed.append(f"{info.name}: {error!r}")
try:
    import ardupilot_methodic_configurator
    shadowed = ardupilot_methodic_configurator.__file__
except ImportError as error:
    shadowed = None
    refusal = str(error)
files = {}
for name, module in list(sys.modules.items()):
    path = getattr(module, "__file__", None)
    if path:
        files.setdefault(path, {})[id(module)] = name
print(json.dumps({
    "package": amc_rc_receiver.__file__,
    "modules": sorted(n for n in sys.modules if n.startswith("amc_rc_receiver")),
    "failed": failed,
    "shadowed": shadowed,
    "refusal": refusal if shadowed is None else "",
    "twice": {path: sorted(objects.values()) for path, objects in files.items() if len(objects) > 1},
}))
"""


@pytest.mark.e2e
def test_every_module_has_one_name_and_the_folder_never_stands_for_the_methodic_configurator() -> None:
    """GIVEN a fresh interpreter started in the repository root, where the source folder
    ardupilot_methodic_configurator/ lies on sys.path
    WHEN every module of the package is imported, and then the folder by that name
    THEN every module loads as amc_rc_receiver.*, from the source folder, the folder refuses the
    methodic configurator's name with a sentence saying why, and no source file is behind two
    module objects."""
    result = subprocess.run(
        [sys.executable, "-c", _PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True
    )
    report = json.loads(result.stdout)

    assert report["failed"] == []
    assert Path(report["package"]).parent == SOURCE
    sources = {path for path in SOURCE.rglob("*.py") if "__pycache__" not in path.parts}
    assert len(report["modules"]) == len(sources)
    assert report["shadowed"] is None
    assert "imported as amc_rc_receiver" in report["refusal"]
    assert report["twice"] == {}


def test_this_interpreter_holds_one_module_object_per_source_file() -> None:
    """GIVEN the test process, which has imported the package through the whole suite so far
    WHEN its modules are grouped by source file
    THEN no file of the package is behind two module objects, and none is named after the
    methodic configurator."""
    by_file: dict[str, dict[int, str]] = {}
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if path and Path(path).is_relative_to(SOURCE):
            by_file.setdefault(path, {})[id(module)] = name
    assert by_file
    assert {path: objects for path, objects in by_file.items() if len(objects) > 1} == {}
    assert not [name for name in sys.modules if name.split(".")[0] == SOURCE.name]


@pytest.mark.e2e
def test_the_twin_files_sit_at_their_methodic_configurator_paths() -> None:
    """GIVEN the files that have a twin in the methodic configurator 5.0.1
    WHEN the source folder is listed THEN each one is at its twin's path, tracked by git."""
    tracked = subprocess.run(
        ["git", "ls-files", SOURCE.name], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if tracked.returncode != 0:
        pytest.skip("not a git checkout")
    files = set(tracked.stdout.split())
    assert {f"{SOURCE.name}/{twin}" for twin in TWINS} <= files
