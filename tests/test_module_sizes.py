# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Modules are sized by concern: no module of the package, the plugin folder the methodic
configurator copies included, is longer than 500 lines, and none carries a paragraph excusing its
length - a module that grows past the limit is split where its concerns part."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.pure

SOURCE = Path(__file__).resolve().parents[1] / "ardupilot_methodic_configurator"
MAX_LINES = 500


def package_modules() -> list[Path]:
    return sorted(SOURCE.rglob("*.py"))


def test_no_module_of_the_package_is_longer_than_500_lines() -> None:
    """GIVEN every module of the package, those of plugins/ included WHEN its lines are counted THEN
    none has more than 500."""
    modules = package_modules()
    assert len(modules) > 100
    assert any("plugins" in path.relative_to(SOURCE).parts for path in modules)
    too_long = {
        str(path.relative_to(SOURCE)): lines
        for path in modules
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert too_long == {}


def test_no_module_of_the_package_excuses_its_length() -> None:
    """GIVEN every module of the package WHEN its text is read THEN none says why it is long."""
    excusing = [
        str(path.relative_to(SOURCE))
        for path in package_modules()
        if "why this module is long" in path.read_text(encoding="utf-8").lower()
    ]
    assert excusing == []
