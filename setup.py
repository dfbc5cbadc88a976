# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Build hook: compile the gettext catalogs (.po -> .mo) into every built package.

All metadata lives in pyproject.toml; this file only makes the build produce the .mo files,
which are never committed.  The compiler is the package's own stdlib-only `i18n_runtime`,
loaded from its file so that building needs none of the runtime dependencies.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

_RUNTIME = Path(__file__).resolve().parent / "amc_rc_receiver" / "i18n_runtime.py"


class BuildPyWithCatalogs(build_py):
    def run(self) -> None:
        super().run()
        spec = importlib.util.spec_from_file_location("_amc_i18n_runtime", _RUNTIME)
        if spec is None or spec.loader is None:
            raise RuntimeError(f"cannot load the catalog compiler from {_RUNTIME}")
        module = importlib.util.module_from_spec(spec)
        # dataclasses look their module up in sys.modules while the module body runs.
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        locale_dir = Path(self.build_lib) / "amc_rc_receiver" / "locale"
        for po_path in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
            module.compile_po(po_path, po_path.with_suffix(".mo"))


setup(cmdclass={"build_py": BuildPyWithCatalogs})
