# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The pure-Python catalog compiler: .po in, .mo that `gettext` reads out, Babel as the reference.

Catalogs are compiled into temporary folders (copies of the real .po files) so the tests never
depend on what a previous build left in the source tree, except the end-to-end test of
`install_language()`, which compiles in place exactly as the runtime fallback does.
"""

from __future__ import annotations

import gettext
import io
import logging
import os
import shutil
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from hypothesis import given
from hypothesis import strategies as st

import amc_rc_receiver as pkg
from amc_rc_receiver.i18n_runtime import (
    PoSyntaxError,
    compile_po,
    ensure_compiled,
    mo_bytes,
    parse_po,
)

LANGUAGES = ("de", "zh_CN")

PO_HEADER = """\
# comment
#, fuzzy
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

"""


def _translations(mo: bytes) -> gettext.GNUTranslations:
    return gettext.GNUTranslations(io.BytesIO(mo))


def _copy_catalogs(tmp_path: Path) -> Path:
    locale_dir = tmp_path / "locale"
    for po in pkg.LOCALE_DIR.glob(f"*/LC_MESSAGES/{pkg.TEXT_DOMAIN}.po"):
        target = locale_dir / po.parent.relative_to(pkg.LOCALE_DIR)
        target.mkdir(parents=True)
        shutil.copy2(po, target / po.name)
    return locale_dir


def test_multiline_and_escaped_strings_are_joined_and_unescaped() -> None:
    """GIVEN a .po entry split over lines with escapes WHEN parsed THEN the text is whole and literal."""
    text = PO_HEADER + 'msgid ""\n"Line one\\n"\n"say \\"hi\\"\\t\\\\"\nmsgstr "Zeile\\n" "eins"\n'
    messages = parse_po(text)
    assert messages['Line one\nsay "hi"\t\\'] == "Zeile\neins"


def test_fuzzy_and_empty_translations_stay_english_but_a_fuzzy_header_is_kept() -> None:
    """GIVEN a fuzzy entry, an empty entry and a fuzzy header WHEN compiled
    THEN only the reviewed translation is used and the header (charset) survives."""
    text = PO_HEADER + (
        '#, fuzzy\nmsgid "Guess"\nmsgstr "Vermutung"\n\n'
        'msgid "Empty"\nmsgstr ""\n\n'
        '#, python-brace-format\nmsgid "RSSI {value}"\nmsgstr "RSSI {value} Ü"\n'
    )
    translations = _translations(mo_bytes(parse_po(text)))
    assert translations.gettext("Guess") == "Guess"
    assert translations.gettext("Empty") == "Empty"
    assert translations.gettext("RSSI {value}") == "RSSI {value} Ü"
    assert translations.info()["content-type"] == "text/plain; charset=UTF-8"


def test_obsolete_entries_are_ignored() -> None:
    """GIVEN a .po with an obsolete (#~) entry WHEN parsed THEN it is not a translation."""
    text = PO_HEADER + '#~ msgid "Old"\n#~ msgstr "Alt"\n\nmsgid "New"\nmsgstr "Neu"\n'
    assert set(parse_po(text)) == {"", "New"}


def test_contexts_and_plurals_reach_pgettext_and_ngettext() -> None:
    """GIVEN entries with msgctxt and msgid_plural WHEN compiled THEN gettext resolves both."""
    text = PO_HEADER + (
        'msgctxt "menu"\nmsgid "Open"\nmsgstr "Öffnen"\n\n'
        'msgid "{n} packet"\nmsgid_plural "{n} packets"\nmsgstr[0] "{n} Paket"\nmsgstr[1] "{n} Pakete"\n'
    )
    translations = _translations(mo_bytes(parse_po(text)))
    assert translations.pgettext("menu", "Open") == "Öffnen"
    assert translations.gettext("Open") == "Open"
    assert translations.ngettext("{n} packet", "{n} packets", 1) == "{n} Paket"
    assert translations.ngettext("{n} packet", "{n} packets", 5) == "{n} Pakete"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('msgid "a"\nmsgstr "b\n', "quoted string"),
        ('msgid "a"\nmsgid "b"\nmsgstr "c"\n', "second msgid"),
        ('msgstr "orphan"\n', "without a msgid"),
        ('msgid "a"\nmsgstr "\\q"\n', "unknown escape"),
        ('msgid "a"\nbogus\n', "cannot read line"),
        ('msgid "a"\n', "no msgstr"),
    ],
)
def test_broken_po_text_is_reported_with_its_line(text: str, problem: str) -> None:
    """GIVEN malformed .po text WHEN parsed THEN PoSyntaxError names the position and the problem."""
    with pytest.raises(PoSyntaxError, match=problem) as raised:
        parse_po(text, "broken.po")
    assert "broken.po:" in str(raised.value)


_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\x04"), min_size=1)


@given(st.dictionaries(_TEXT, _TEXT, min_size=1, max_size=8))
def test_any_catalog_written_by_babel_translates_the_same_after_our_compiler(entries: dict[str, str]) -> None:
    """GIVEN any messages with any characters, written to a .po by Babel
    WHEN our compiler turns it into a .mo THEN gettext returns every translation unchanged."""
    catalog = Catalog(locale="de", charset="utf-8", fuzzy=False)
    for msgid, msgstr in entries.items():
        catalog.add(msgid, msgstr)
    buffer = io.BytesIO()
    write_po(buffer, catalog)
    translations = _translations(mo_bytes(parse_po(buffer.getvalue().decode("utf-8"))))
    for msgid, msgstr in entries.items():
        assert translations.gettext(msgid) == msgstr


@pytest.mark.parametrize("language", LANGUAGES)
def test_shipped_catalog_compiles_to_what_babel_compiles(tmp_path: Path, language: str) -> None:
    """GIVEN a shipped .po WHEN compiled by us and by Babel THEN gettext gives identical answers."""
    po = pkg.LOCALE_DIR / language / "LC_MESSAGES" / f"{pkg.TEXT_DOMAIN}.po"
    ours = tmp_path / "ours.mo"
    compile_po(po, ours)
    with po.open("rb") as stream:
        catalog = read_po(stream)
    reference = io.BytesIO()
    write_mo(reference, catalog)
    mine, babels = _translations(ours.read_bytes()), _translations(reference.getvalue())
    messages = [message for message in catalog if message.id and isinstance(message.id, str)]
    assert messages, "the catalog has no messages"
    for message in messages:
        assert mine.gettext(message.id) == babels.gettext(message.id)
        assert mine.gettext(message.id) == message.string


def test_missing_catalogs_are_compiled_and_current_ones_left_alone(tmp_path: Path) -> None:
    """GIVEN .po files without .mo WHEN ensure_compiled runs twice
    THEN the first run writes every .mo and the second writes none."""
    locale_dir = _copy_catalogs(tmp_path)
    first = ensure_compiled(locale_dir)
    assert sorted(Path(path).parent.parent.name for path in first) == sorted(LANGUAGES)
    assert ensure_compiled(locale_dir) == []


def test_a_po_newer_than_its_mo_is_recompiled(tmp_path: Path) -> None:
    """GIVEN a compiled catalog WHEN its .po changes afterwards THEN only that .mo is rewritten."""
    locale_dir = _copy_catalogs(tmp_path)
    ensure_compiled(locale_dir)
    po = locale_dir / "de" / "LC_MESSAGES" / f"{pkg.TEXT_DOMAIN}.po"
    mo = po.with_suffix(".mo")
    os.utime(mo, (1_000_000, 1_000_000))
    assert ensure_compiled(locale_dir) == [str(mo)]


def test_compiled_catalogs_load_with_gettext_and_translate_a_known_message(tmp_path: Path) -> None:
    """GIVEN the shipped catalogs compiled by ensure_compiled WHEN gettext loads them
    THEN a known message is translated into German and Simplified Chinese."""
    locale_dir = _copy_catalogs(tmp_path)
    ensure_compiled(locale_dir)
    known = "Use either --demo or --device, not both."
    german = gettext.translation(pkg.TEXT_DOMAIN, locale_dir, languages=["de"])
    chinese = gettext.translation(pkg.TEXT_DOMAIN, locale_dir, languages=["zh_CN"])
    assert german.gettext(known) == "Verwenden Sie entweder --demo oder --device, nicht beides."
    assert chinese.gettext(known) == "请只使用 --demo 或 --device 之一，不要同时使用。"


def test_a_broken_catalog_is_logged_and_skipped_without_raising(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """GIVEN one valid and one corrupt .po WHEN ensure_compiled runs
    THEN the valid one is compiled, the corrupt one is named in the log, nothing raises."""
    locale_dir = _copy_catalogs(tmp_path)
    broken = locale_dir / "xx" / "LC_MESSAGES" / f"{pkg.TEXT_DOMAIN}.po"
    broken.parent.mkdir(parents=True)
    broken.write_text('msgid "a"\nnot po at all\n', encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        written = ensure_compiled(locale_dir)
    assert len(written) == len(LANGUAGES)
    assert not broken.with_suffix(".mo").exists()
    assert str(broken) in caplog.text


def test_an_unwritable_locale_folder_keeps_english_without_raising(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """GIVEN a read-only install (writing the .mo fails) WHEN ensure_compiled runs
    THEN it reports nothing written, logs why and leaves no temporary files behind."""
    locale_dir = _copy_catalogs(tmp_path)

    def refuse(*_args: object) -> None:
        raise PermissionError("read-only file system")

    monkeypatch.setattr(os, "replace", refuse)
    with caplog.at_level(logging.WARNING):
        assert ensure_compiled(locale_dir) == []
    assert "read-only file system" in caplog.text
    assert [path.name for path in locale_dir.rglob("*") if path.is_file() and path.suffix != ".po"] == []


def test_a_missing_locale_folder_compiles_nothing() -> None:
    """GIVEN a locale folder that does not exist WHEN ensure_compiled runs THEN it returns an empty list."""
    assert ensure_compiled(Path("/nonexistent/amc-rc-receiver/locale")) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_install_language_uses_catalogs_compiled_in_place(language: str) -> None:
    """GIVEN the package's own locale folder compiled by the runtime fallback
    WHEN the language is installed THEN _() translates and English comes back afterwards."""
    ensure_compiled(pkg.LOCALE_DIR)
    known = "Use either --demo or --device, not both."
    try:
        assert pkg.install_language(language)
        assert pkg._(known) != known
    finally:
        pkg.install_language(None)
    assert pkg._(known) == known
