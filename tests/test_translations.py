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
        'tree.heading("pwm", text="Pulse width")',
        'notebook.add(frame, text="Bridge traffic")',
        'button.configure(text=_("Start") if idle else "Stop")',
        'messagebox.showerror("Error", _("Connection lost"))',
        'filedialog.askopenfilename(title="Open a parameter file")',
        'ttk.Label(p, text=f"RSSI {value}")',
        'ttk.Label(p, text="RSSI {value}".format(value=v))',
        'ttk.Label(p, text="Rate: " + str(rate))',
        'parser.add_argument("--demo", help="use the simulated vehicle")',
        'raise CodecError("length is wrong", protocol="xrp", reason="length")',
        'raise SystemExit("cannot start")',
        'sys.exit("cannot start")',
        'parser.error("give a device")',
        'print("Connected")',
        'out.write("Stopped.")',
    ],
)
def test_each_kind_of_unwrapped_user_visible_string_is_caught(call: str) -> None:
    """GIVEN one of the documented sinks with a bare English literal WHEN scanned THEN it is reported once."""
    assert _rules(f"def f():\n    {call}\n", module="text_frontend") == ["I18N003"]


@pytest.mark.parametrize(
    "call",
    [
        'ttk.Label(p, text="")',
        'ttk.Label(p, text="—")',
        'ttk.Label(p, text="{value} µs".format(value=v))',
        'ttk.Label(p, text="RC_CHANNELS")',
        'ttk.Label(p, text="%")',
        'out.write("\\x1b[2J\\x1b[H")',
        'raise ValueError("internal: interval must be positive")',
        'raise CodecError(_("length is wrong"), protocol="xrp", reason="length")',
        'log.error("socket closed")',
        'ttk.Label(p, text="Receiver present")  # i18n: ignore - brand name',
        'ttk.Label(p, text=name)',
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


def test_translated_messages_are_listed_with_their_lines() -> None:
    """GIVEN two _() calls WHEN scanned THEN both literals are reported as messages with line numbers."""
    _problems, messages = i18n.scan_source('def f():\n    a = _("One")\n    return _("Two {n}")\n')
    assert messages == [(2, "One"), (3, "Two {n}")]


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
    pot.write_text(header + 'msgid "A"\nmsgstr ""\n\nmsgid "B"\nmsgstr ""\n\n'
                   'msgid "C {value:.1f}"\nmsgstr ""\n', encoding="utf-8")
    po = tmp_path / "t.po"
    po.write_text(header + '#, fuzzy\nmsgid "A"\nmsgstr "Ah"\n\n'
                  'msgid "C {value:.1f}"\nmsgstr "Ce {wert:.1f}"\n\n'
                  'msgid "Old"\nmsgstr "Alt"\n', encoding="utf-8")
    problems = "\n".join(i18n.catalog_problems(po, pot))
    assert "fuzzy translation of 'A'" in problems
    assert "missing message 'B'" in problems
    assert "placeholders differ: 'C {value:.1f}'" in problems
    assert "stale message not in the template: 'Old'" in problems


# --- the package ----------------------------------------------------------------------------


def test_every_user_visible_string_in_the_package_is_wrapped() -> None:
    """GIVEN every module of the package WHEN scanned THEN no rule of scripts/i18n.py is broken."""
    problems, _messages = i18n.scan_package()
    assert problems == [], "\n" + "\n".join(map(str, problems))


def test_every_translated_message_is_in_the_template() -> None:
    """GIVEN the _() messages of the package WHEN compared with the .pot THEN none is missing or stale."""
    drift = i18n.template_drift()
    assert drift == [], "\n" + "\n".join(drift)


def test_the_template_is_what_babel_extracts_from_the_code() -> None:
    """GIVEN Babel's extractor over the package WHEN compared with the committed .pot
    THEN they hold the same messages (the .pot was regenerated after the last change)."""
    extracted = {message.id for message in i18n.extract_template() if message.id}
    with i18n.POT_PATH.open("rb") as stream:
        committed = {message.id for message in i18n.read_po(stream) if message.id}
    assert extracted == committed, f"run {i18n.FIX_HINT}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_and_reviewed(language: str) -> None:
    """GIVEN a language catalog WHEN checked against the template
    THEN no message is missing, empty, fuzzy or stale."""
    po = pkg.LOCALE_DIR / language / "LC_MESSAGES" / f"{pkg.TEXT_DOMAIN}.po"
    problems = [problem for problem in i18n.catalog_problems(po) if "placeholder" not in problem]
    assert problems == [], "\n" + "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_the_placeholders_of_the_original(language: str) -> None:
    """GIVEN a language catalog WHEN every translation's {fields} are compared with the msgid's
    THEN names, conversions and format specs are identical."""
    po = pkg.LOCALE_DIR / language / "LC_MESSAGES" / f"{pkg.TEXT_DOMAIN}.po"
    problems = [problem for problem in i18n.catalog_problems(po) if "placeholder" in problem]
    assert problems == [], "\n" + "\n".join(problems)
