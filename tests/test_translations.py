# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every user-visible string is translatable, extracted and translated.

The rules live in `scripts/i18n.py` (its module docstring lists them); these tests run them on the
package and on small snippets, so the checker itself is shown to catch what it claims to catch.
When a test here fails after a code change, run
    .venv/bin/python scripts/i18n.py extract && .venv/bin/python scripts/i18n.py update
then translate the new (empty) entries in locale/*/LC_MESSAGES/amc_rc_receiver.po and run
    .venv/bin/python scripts/i18n.py check
"""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

import amc_rc_receiver as pkg

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("de", "zh_CN")


def _load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("amc_i18n_tool", ROOT / "scripts" / "i18n.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


i18n = _load_tool()


def _rules(source: str, module: str = "frontend_tkinter_example") -> list[str]:
    return [problem.rule for problem in i18n.lint_source(textwrap.dedent(source), f"{module}.py", module)]


# --- the checker on snippets ----------------------------------------------------------------


def test_an_unwrapped_widget_text_is_caught() -> None:
    """GIVEN a ttk.Label with a bare English text WHEN scanned THEN I18N003 is reported."""
    assert _rules('def build(p):\n    ttk.Label(p, text="Receiver present")\n') == ["I18N003"]


def test_a_wrapped_widget_text_passes() -> None:
    """GIVEN the same label with the text in _() WHEN scanned THEN nothing is reported."""
    assert _rules('def build(p):\n    ttk.Label(p, text=_("Receiver present"))\n') == []


@pytest.mark.parametrize(
    "call",
    [
        'window.title("RC receiver check")',
        'button.configure(text=_("Start") if idle else "Stop")',
        'messagebox.showerror("Error", _("Connection lost"))',
        'ttk.Label(p, text=f"RSSI {value}")',
        'ttk.Label(p, text="Rate: " + str(rate))',
        'parser.add_argument("--demo", help="use the simulated vehicle")',
        'raise CodecError("length is wrong", protocol="xrp", reason="length")',
        'sys.exit("cannot start")',
        'out.write("Stopped.")',
    ],
)
def test_each_kind_of_unwrapped_user_visible_string_is_caught(call: str) -> None:
    """GIVEN one of the documented sinks with a bare English literal WHEN scanned THEN it is reported once."""
    assert _rules(f"def f():\n    {call}\n", module="text_frontend") == ["I18N003"]


@pytest.mark.parametrize(
    "call",
    [
        'ttk.Label(p, text="{value} µs".format(value=v))',
        'ttk.Label(p, text="RC_CHANNELS")',
        'raise ValueError("internal: interval must be positive")',
        'log.error("socket closed")',
        'ttk.Label(p, text="Receiver present")  # i18n: ignore - brand name',
        "ttk.Label(p, text=name)",
    ],
)
def test_allowed_and_developer_facing_strings_pass(call: str) -> None:
    """GIVEN text with no words to translate, developer-facing messages or an explicit ignore
    WHEN scanned THEN nothing is reported."""
    assert _rules(f"def f():\n    {call}\n", module="text_frontend") == []


def test_print_is_only_checked_in_output_modules() -> None:
    """GIVEN print("...") WHEN it is in a data model rather than a front end THEN it is not reported."""
    source = 'def f():\n    print("debug dump")\n'
    assert _rules(source, module="data_model_rc_receiver") == []
    assert _rules(source, module="frontend_tkinter_rc_receiver") == ["I18N003"]
    assert _rules(source, module="__main__") == ["I18N003"]


def test_ignore_file_marker_silences_unwrapped_strings_but_not_broken_calls() -> None:
    """GIVEN a module marked `# i18n: ignore-file` WHEN scanned
    THEN bare literals pass but a non-literal _() argument is still reported."""
    source = '# i18n: ignore-file - log only\ndef f(x):\n    raise CodecError("bad")\n    _(x)\n'
    assert _rules(source) == ["I18N001"]


@pytest.mark.parametrize("call", ['_(f"RSSI {value}")', "_(message)", '_("a" + b)', '_("a", "b")'])
def test_translation_calls_need_one_plain_literal(call: str) -> None:
    """GIVEN _() with something Babel cannot extract WHEN scanned THEN I18N001 is reported."""
    assert _rules(f"def f():\n    return {call}\n") == ["I18N001"]


def test_translating_at_import_time_is_caught() -> None:
    """GIVEN _() in a module-level constant or a class body WHEN scanned
    THEN I18N004 is reported, while the same call inside a function passes."""
    assert _rules('TITLE = _("RC receiver")\n') == ["I18N004"]
    assert _rules('class View:\n    TITLE = _("RC receiver")\n') == ["I18N004"]
    assert _rules('def title():\n    return _("RC receiver")\n') == []


@given(st.text(alphabet=st.characters(blacklist_categories=("Lu", "Ll", "Lt", "Lm", "Lo"))))
def test_text_without_letters_never_needs_translation(text: str) -> None:
    """GIVEN any text with no letters at all WHEN classified THEN it needs no translation."""
    assert not i18n.needs_translation(text)


@pytest.mark.parametrize("text", ["CH1", "RSSI", "Connected", "{count} pkts", "Empfänger", "接收机"])
def test_words_need_translation(text: str) -> None:
    """GIVEN text with a word that is not a unit or identifier WHEN classified THEN it needs translation."""
    assert i18n.needs_translation(text)


def test_catalog_checker_reports_fuzzy_missing_stale_and_placeholder_errors(tmp_path: Path) -> None:
    """GIVEN a .po with a fuzzy entry, a missing one, a stale one and a renamed placeholder
    WHEN checked against the template THEN each problem is reported."""
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    pot = tmp_path / "t.pot"
    pot.write_text(
        header + 'msgid "A"\nmsgstr ""\n\nmsgid "B"\nmsgstr ""\n\nmsgid "C {value:.1f}"\nmsgstr ""\n',
        encoding="utf-8",
    )
    po = tmp_path / "t.po"
    po.write_text(
        header + '#, fuzzy\nmsgid "A"\nmsgstr "Ah"\n\n'
        'msgid "C {value:.1f}"\nmsgstr "Ce {wert:.1f}"\n\n'
        'msgid "Old"\nmsgstr "Alt"\n',
        encoding="utf-8",
    )
    problems = "\n".join(i18n.catalog_problems(po, pot))
    assert "fuzzy translation of 'A'" in problems
    assert "missing message 'B'" in problems
    assert "placeholders differ: 'C {value:.1f}'" in problems
    assert "stale message not in the template: 'Old'" in problems


def test_template_drift_names_new_and_removed_messages(tmp_path: Path) -> None:
    """GIVEN a module with one new _() message and a template holding one the code no longer uses
    WHEN compared THEN both are reported, the new one with its file and line."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "view.py").write_text('def f():\n    return _("Kept"), _("New")\n', encoding="utf-8")
    pot = tmp_path / "t.pot"
    pot.write_text(
        'msgid ""\nmsgstr ""\n\nmsgid "Kept"\nmsgstr ""\n\nmsgid "Gone"\nmsgstr ""\n', encoding="utf-8"
    )
    drift = "\n".join(i18n.template_drift(package, pot))
    assert "not in the template: 'New' used at pkg/view.py:2" in drift
    assert "no longer in the code: 'Gone'" in drift
    assert "Kept" not in drift


# --- the package ----------------------------------------------------------------------------


def test_every_user_visible_string_in_the_package_is_wrapped() -> None:
    """GIVEN every module of the package WHEN scanned THEN no rule of scripts/i18n.py is broken."""
    problems = i18n.lint_package()
    assert problems == [], "\n" + "\n".join(map(str, problems))


def test_the_template_holds_exactly_what_babel_extracts_from_the_code() -> None:
    """GIVEN Babel's extractor over the package WHEN compared with the committed .pot
    THEN no message is missing or stale (the .pot was regenerated after the last change)."""
    drift = i18n.template_drift()
    assert drift == [], "\n" + "\n".join(drift)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_reviewed_and_keeps_its_placeholders(language: str) -> None:
    """GIVEN a language catalog WHEN checked against the template
    THEN no message is missing, empty, fuzzy or stale, and every {field} of a msgid is kept."""
    po = pkg.LOCALE_DIR / language / "LC_MESSAGES" / f"{pkg.TEXT_DOMAIN}.po"
    problems = i18n.catalog_problems(po)
    assert problems == [], "\n" + "\n".join(problems)
