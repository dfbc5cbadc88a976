# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Choosing and binding the user-interface language.

The catalogs are compiled by the project's one catalog tool (`scripts/i18n.py`, Babel) into a
temporary folder here, as the build does into the package; the runtime only reads them and never
writes anything, so a read-only install works.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import amc_rc_receiver as pkg

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("de", "zh_CN")
KNOWN = "Use either --demo or --device, not both."


def _catalog_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("amc_i18n_tool_for_tests", ROOT / "scripts" / "i18n.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def compiled_locale(tmp_path: Path) -> Iterator[Path]:
    """A copy of the shipped .po catalogs, compiled by the build's tool, made read-only."""
    locale_dir = tmp_path / "locale"
    shutil.copytree(pkg.LOCALE_DIR, locale_dir, ignore=shutil.ignore_patterns("*.mo"))
    _catalog_tool().compile_catalogs(locale_dir)
    for path in locale_dir.rglob("*"):
        path.chmod(0o555 if path.is_dir() else 0o444)
    yield locale_dir
    for path in locale_dir.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    pkg.install_language(None)


@pytest.mark.parametrize("language", [*LANGUAGES, "de_DE"])
def test_a_compiled_catalog_translates_and_english_comes_back(compiled_locale: Path, language: str) -> None:
    """GIVEN catalogs compiled as the build compiles them, in a read-only folder
    WHEN a language (or a regional variant of one) is installed
    THEN _() translates, and installing English afterwards restores the original text."""
    assert pkg.install_language(language, compiled_locale)
    assert pkg._(KNOWN) != KNOWN
    assert pkg.install_language(None)
    assert pkg._(KNOWN) == KNOWN


def test_without_a_compiled_catalog_english_stays_and_nothing_is_written(tmp_path: Path) -> None:
    """GIVEN a locale folder with .po catalogs only (a checkout nobody compiled)
    WHEN German is asked for
    THEN the answer is False, the text stays English, and the folder is exactly as it was."""
    locale_dir = tmp_path / "locale"
    shutil.copytree(pkg.LOCALE_DIR, locale_dir, ignore=shutil.ignore_patterns("*.mo"))
    before = sorted(str(path) for path in locale_dir.rglob("*"))

    assert not pkg.install_language("de", locale_dir)

    assert pkg._(KNOWN) == KNOWN
    assert sorted(str(path) for path in locale_dir.rglob("*")) == before


def test_an_unknown_language_keeps_english(compiled_locale: Path) -> None:
    """GIVEN compiled catalogs WHEN a language without a catalog is asked for THEN False, English."""
    assert not pkg.install_language("xx", compiled_locale)
    assert pkg._(KNOWN) == KNOWN


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "de_DE.UTF-8"}, "de_DE"),
        ({"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "de_DE.UTF-8"}, "zh_CN"),
        ({"LANGUAGE": "de:en", "LC_ALL": "zh_CN.UTF-8"}, "de"),
        ({"LC_ALL": "C", "LANG": "de_DE@euro"}, "de_DE"),
        ({"LANG": "C.UTF-8"}, None),
        ({}, None),
    ],
)
def test_the_environment_chooses_the_language_as_gettext_would(
    environ: dict[str, str], expected: str | None
) -> None:
    """GIVEN locale variables WHEN the language is read from them
    THEN LANGUAGE, LC_ALL, LC_MESSAGES and LANG are taken in that order, C/POSIX mean nothing."""
    assert pkg.language_from_environment(environ) == expected
