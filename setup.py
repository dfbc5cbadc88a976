# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Build hook: compile the gettext catalogs (.po -> .mo) into every built package.

All metadata lives in pyproject.toml; this file only makes the build produce the .mo files,
which are never committed.  The compiler is the project's one catalog tool, `scripts/i18n.py`
(Babel, a build requirement), loaded from its file.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

_ROOT = Path(__file__).resolve().parent
_CATALOG_TOOL = _ROOT / "scripts" / "i18n.py"
# The import name; its source folder is ardupilot_methodic_configurator/ (pyproject's package-dir).
_PACKAGE = "amc_rc_receiver"


class BuildPyWithCatalogs(build_py):
    def run(self) -> None:
        super().run()
        spec = importlib.util.spec_from_file_location("_amc_i18n_tool", _CATALOG_TOOL)
        if spec is None or spec.loader is None:
            raise RuntimeError(f"cannot load the catalog tool from {_CATALOG_TOOL}")
        module = importlib.util.module_from_spec(spec)
        # dataclasses look their module up in sys.modules while the module body runs.
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        if self.editable_mode:
            # An editable install runs the package from its source folder: compile the catalogs there.
            package = _ROOT / self.get_package_dir(_PACKAGE)
        else:
            package = Path(self.build_lib) / _PACKAGE
        module.compile_catalogs(package / "locale")


setup(cmdclass={"build_py": BuildPyWithCatalogs})
