#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Translation workflow for amc-rc-receiver: extract, update, init, compile, check.

Catalog work goes through Babel's Python API (the same code `pybabel extract/update/compile`
runs), so no shell tools are needed.  `check` is the gate the tests also use: the .pot template
must match the `_()` calls in the code, every .po must translate every message with the same
placeholders, and an `ast` scan (rules below) finds user-visible literals not wrapped in `_()`.

Rules of the unwrapped-string scan (`lint_source`):
  I18N001  `_()` must get exactly one plain string literal (no f-string, variable,
           concatenation or call), or extraction cannot see the message.
  I18N003  a literal that a person reads is not wrapped in `_()`.  Literals are looked for in:
           - keywords `text=`, `title=`, `label=` of any call (Tk/ttk widgets, `.heading()`,
             `.add()`, `.configure()`, `filedialog.*`);
           - the first argument of `.title()` / `.wm_title()` (window titles);
           - arguments and `title=`/`message=`/`detail=` of `messagebox.*()`;
           - `help=`, `description=`, `epilog=`, `usage=` of argparse calls;
           - `print()` arguments and `.write()` arguments in output modules (`__main__` and
             modules whose name contains `frontend`, `text_` or the word `cli`);
           - the message of `raise X("...")` when X is not a builtin exception (the project's
             own errors and `argparse.ArgumentTypeError` carry reasons people read), of
             `SystemExit("...")`, `sys.exit("...")` and `parser.error("...")`.
           f-strings, `"..." + x`, `"...".format()` and `"..." % x` in those places count too.
           Logging calls and builtin exceptions (ValueError, TypeError, ...) are
           developer-facing and are not checked.
  I18N004  `_()` evaluated at import time (module or class body): it runs before
           `install_language()`, so the string would stay English.

Allowlist: a literal needs no translation when, after removing `{...}` fields, %-placeholders
and ANSI escape sequences, every word in it is a unit symbol (`UNIT_SYMBOLS`, e.g. "µs", "Hz")
or an upper-case parameter/message identifier with an underscore (`RC_CHANNELS`,
`SERIAL1_PROTOCOL`), or when it has no letters at all.  Anything else can be exempted with a
`# i18n: ignore` comment on one of its lines (say why in the same comment).  A module whose
messages are for developers only (e.g. the catalog compiler, which runs before any catalog is
loaded) can opt out of I18N003 with a `# i18n: ignore-file` comment; I18N001/004 still apply.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import io
import re
import string
import sys
import tokenize
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
# The source folder of the package amc_rc_receiver (pyproject's package-dir).
PACKAGE_DIR = ROOT / "ardupilot_methodic_configurator"
LOCALE_DIR = PACKAGE_DIR / "locale"
DOMAIN = "amc_rc_receiver"
POT_PATH = LOCALE_DIR / f"{DOMAIN}.pot"
FIX_HINT = "run `.venv/bin/python scripts/i18n.py extract && .venv/bin/python scripts/i18n.py update`"

IGNORE_MARK = "i18n: ignore"
IGNORE_FILE_MARK = "i18n: ignore-file"
UNIT_SYMBOLS = frozenset(
    {
        "µs",
        "us",
        "ms",
        "s",
        "Hz",
        "kHz",
        "MHz",
        "dB",
        "dBm",
        "V",
        "mV",
        "A",
        "mA",
        "mAh",
        "B",
        "kB",
        "KiB",
        "MiB",
        "bps",
        "kbps",
        "m",
        "cm",
        "mm",
        "km",
        "deg",
        "rad",
    }
)
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_PERCENT_FIELD = re.compile(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdifgeExXrca%]")
_FORMAT_FIELD = re.compile(r"\{[^{}]*\}")
_WORD = re.compile(r"\w+")
_IDENTIFIER = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")
_CLI_WORD = re.compile(r"(?:^|_)cli(?:_|$)")
_TEXT_KEYWORDS = frozenset({"text", "title", "label"})
_MESSAGEBOX_KEYWORDS = frozenset({"title", "message", "detail"})
_ARGPARSE_CALLS = frozenset(
    {
        "ArgumentParser",
        "add_argument",
        "add_parser",
        "add_argument_group",
        "add_subparsers",
        "add_mutually_exclusive_group",
    }
)
_ARGPARSE_KEYWORDS = frozenset({"help", "description", "epilog", "usage", "title"})
# `reason=` is deliberately absent: CodecError's reason is a language-neutral key ("checksum").
_ERROR_KEYWORDS = frozenset({"message", "msg"})
_STR_METHODS = frozenset({"format", "join", "upper", "capitalize"})
_BUILTIN_EXCEPTIONS = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException) and name != "SystemExit"
)


@dataclass(frozen=True)
class Problem:
    """One finding of the scan, printable as ``path:line:col: RULE message``."""

    path: str
    line: int
    column: int
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.rule} {self.message}"


def needs_translation(text: str) -> bool:
    """True when ``text`` holds a word a person reads (see the allowlist in the module doc)."""
    cleaned = _ANSI.sub(" ", text).replace("{{", " ").replace("}}", " ")
    cleaned = _PERCENT_FIELD.sub(" ", _FORMAT_FIELD.sub(" ", cleaned))
    for word in _WORD.findall(cleaned):
        if not any(char.isalpha() for char in word):
            continue
        if word in UNIT_SYMBOLS or _IDENTIFIER.match(word):
            continue
        return True
    return False


def _is_output_module(module: str) -> bool:
    return module == "__main__" or "frontend" in module or "text_" in module or bool(_CLI_WORD.search(module))


def _call_name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _receiver_name(func: ast.expr) -> str:
    """The name left of the last dot: ``messagebox`` for ``tkinter.messagebox.showerror``."""
    if isinstance(func, ast.Attribute):
        return _call_name(func.value)
    return ""


def _is_translation_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_"


def _bare_literals(node: ast.expr) -> Iterator[tuple[ast.expr, str]]:
    """Literal text in ``node`` that reaches the user without passing through ``_()``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node, node.value
    elif isinstance(node, ast.JoinedStr):
        yield (
            node,
            " ".join(
                part.value
                for part in node.values
                if isinstance(part, ast.Constant) and isinstance(part.value, str)
            ),
        )
    elif isinstance(node, ast.IfExp):
        yield from _bare_literals(node.body)
        yield from _bare_literals(node.orelse)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        yield from _bare_literals(node.left)
        if isinstance(node.op, ast.Add):
            yield from _bare_literals(node.right)
    elif (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _STR_METHODS
    ):
        # "...".format(...) called on a literal: the text itself was never translated
        yield from _bare_literals(node.func.value)


def _ignore_marks(source: str) -> tuple[frozenset[int], bool]:
    """Lines carrying ``# i18n: ignore``, and whether the file says ``# i18n: ignore-file``."""
    lines: set[int] = set()
    whole_file = False
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT and IGNORE_MARK in token.string:
                lines.add(token.start[0])
                whole_file = whole_file or IGNORE_FILE_MARK in token.string
    except (tokenize.TokenError, SyntaxError):
        pass
    return frozenset(lines), whole_file


class _Scanner(ast.NodeVisitor):
    def __init__(self, path: str, module: str, ignored: frozenset[int], unwrapped_allowed: bool) -> None:
        self.path = path
        self.unwrapped_allowed = unwrapped_allowed
        self.module = module
        self.output_module = _is_output_module(module)
        self.ignored = ignored
        self.problems: list[Problem] = []
        self._function_depth = 0

    def _report(self, node: ast.AST, rule: str, message: str, anchor: ast.AST | None = None) -> None:
        first = min(getattr(node, "lineno", 0), getattr(anchor, "lineno", 10**9))
        last = max(getattr(node, "end_lineno", None) or first, getattr(anchor, "lineno", 0))
        if any(line in self.ignored for line in range(first, last + 1)):
            return
        line, column = getattr(node, "lineno", 0), getattr(node, "col_offset", 0) + 1
        self.problems.append(Problem(self.path, line, column, rule, message))

    def _check_sink(self, value: ast.expr, where: str, call: ast.Call) -> None:
        if self.unwrapped_allowed:
            return
        for node, text in _bare_literals(value):
            if needs_translation(text):
                kind = "f-string" if isinstance(node, ast.JoinedStr) else "literal"
                self._report(
                    node,
                    "I18N003",
                    f"{where}: {kind} {text!r} is shown to the user but not "
                    'wrapped in _(); write _("... {x}").format(x=...)',
                    anchor=call,
                )

    def _visit_scope(self, node: ast.AST) -> None:
        self._function_depth += 1
        self.generic_visit(node)
        self._function_depth -= 1

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._visit_scope(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._visit_scope(node)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._visit_scope(node)

    def visit_Call(self, node: ast.Call) -> None:
        if _is_translation_call(node):
            self._check_translation_call(node)
        else:
            self._check_call_sinks(node)
        self.generic_visit(node)

    def _check_translation_call(self, node: ast.Call) -> None:
        argument = node.args[0] if len(node.args) == 1 and not node.keywords else None
        if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
            if self._function_depth == 0:
                self._report(
                    node,
                    "I18N004",
                    f"_({argument.value!r}) runs at import time, before "
                    "install_language(); translate where the text is used",
                )
        else:
            self._report(
                node,
                "I18N001",
                "_() needs exactly one plain string literal so the message "
                'can be extracted; format after translating: _("... {x}").format(x=...)',
            )

    def _check_call_sinks(self, node: ast.Call) -> None:
        name = _call_name(node.func)
        receiver = _receiver_name(node.func)
        for keyword in node.keywords:
            if keyword.arg in _TEXT_KEYWORDS:
                self._check_sink(keyword.value, f"{keyword.arg}=", node)
        if name in ("title", "wm_title") and isinstance(node.func, ast.Attribute) and node.args:
            self._check_sink(node.args[0], f".{name}()", node)
        if receiver == "messagebox":
            for argument in node.args[:2]:
                self._check_sink(argument, f"messagebox.{name}()", node)
            for keyword in node.keywords:
                if keyword.arg in _MESSAGEBOX_KEYWORDS - _TEXT_KEYWORDS:
                    self._check_sink(keyword.value, f"messagebox.{name}({keyword.arg}=)", node)
        if name in _ARGPARSE_CALLS:
            for keyword in node.keywords:
                if keyword.arg in _ARGPARSE_KEYWORDS - _TEXT_KEYWORDS:
                    self._check_sink(keyword.value, f"{name}({keyword.arg}=)", node)
        if self.output_module and (name == "print" and isinstance(node.func, ast.Name)):
            for argument in node.args:
                self._check_sink(argument, "print()", node)
        if self.output_module and name == "write" and isinstance(node.func, ast.Attribute):
            for argument in node.args[:1]:
                self._check_sink(argument, ".write()", node)
        if (name == "exit" and receiver == "sys") or (name == "error" and receiver.endswith("parser")):
            for argument in node.args[:1]:
                self._check_sink(argument, f"{receiver}.{name}()", node)

    def visit_Raise(self, node: ast.Raise) -> None:
        exc = node.exc
        if isinstance(exc, ast.Call):
            name = _call_name(exc.func)
            if name and name not in _BUILTIN_EXCEPTIONS:
                for argument in exc.args[:1]:
                    self._check_sink(argument, f"raise {name}()", exc)
                for keyword in exc.keywords:
                    if keyword.arg in _ERROR_KEYWORDS:
                        self._check_sink(keyword.value, f"raise {name}({keyword.arg}=)", exc)
        self.generic_visit(node)


def lint_source(source: str, path: str = "<source>", module: str | None = None) -> list[Problem]:
    """The I18N000/001/003/004 findings for one module's source text."""
    module_name = module if module is not None else Path(path).stem
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as error:
        return [Problem(path, error.lineno or 0, error.offset or 0, "I18N000", f"cannot parse: {error.msg}")]
    ignored, whole_file = _ignore_marks(source)
    scanner = _Scanner(path, module_name, ignored, whole_file)
    scanner.visit(tree)
    return scanner.problems


def package_modules(package_dir: Path = PACKAGE_DIR) -> list[Path]:
    return sorted(path for path in package_dir.rglob("*.py") if "__pycache__" not in path.parts)


def lint_package(package_dir: Path = PACKAGE_DIR) -> list[Problem]:
    """The findings of every module of the package."""
    problems: list[Problem] = []
    for path in package_modules(package_dir):
        relative = path.relative_to(package_dir.parent).as_posix()
        problems += lint_source(path.read_text(encoding="utf-8"), relative)
    return problems


# --- catalogs -------------------------------------------------------------------------------


def _version() -> str:
    text = (PACKAGE_DIR / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r'__version__\s*=\s*"([^"]+)"', text)
    return match.group(1) if match else "0"


def _message_key(message: Message) -> str:
    return message.id if isinstance(message.id, str) else "\x00".join(message.id)


def extract_template(package_dir: Path = PACKAGE_DIR) -> Catalog:
    """Babel's Python extractor over the package, keyword `_` only (as `pybabel extract -k _`)."""
    catalog = Catalog(
        project="amc-rc-receiver",
        version=_version(),
        copyright_holder="The amc-rc-receiver authors",
        charset="utf-8",
        fuzzy=False,
    )
    for filename, lineno, message, comments, context in extract_from_dir(
        package_dir,
        method_map=[("**.py", "python")],
        keywords={"_": None},
        comment_tags=("TRANSLATORS:",),
        strip_comment_tags=True,
    ):
        location = (f"{package_dir.name}/{Path(filename).as_posix()}", lineno)
        catalog.add(message, None, [location], auto_comments=comments, context=context)
    return catalog


def _po_bytes(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_po(buffer, catalog, ignore_obsolete=True, include_lineno=False, width=100)
    return buffer.getvalue()


def _without_dates(data: bytes) -> bytes:
    return re.sub(rb'"(POT-Creation-Date|PO-Revision-Date): [^"]*\\n"\n', b"", data)


def _write_if_changed(path: Path, data: bytes) -> bool:
    if path.exists() and _without_dates(path.read_bytes()) == _without_dates(data):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def po_files(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    return sorted(locale_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as stream:
        return read_po(stream, locale=locale)


def extract(package_dir: Path = PACKAGE_DIR, pot_path: Path = POT_PATH) -> bool:
    """Regenerate the .pot template; returns True when its content changed."""
    return _write_if_changed(pot_path, _po_bytes(extract_template(package_dir)))


def update(locale_dir: Path = LOCALE_DIR, pot_path: Path = POT_PATH) -> list[Path]:
    """Merge the template into every .po (new messages empty, removed ones dropped)."""
    template = _read(pot_path)
    changed = []
    for path in po_files(locale_dir):
        catalog = _read(path, locale=path.parent.parent.name)
        catalog.update(template, update_header_comment=False, keep_user_comments=True)
        catalog.fuzzy = False
        if _write_if_changed(path, _po_bytes(catalog)):
            changed.append(path)
    return changed


def init(language: str, locale_dir: Path = LOCALE_DIR, pot_path: Path = POT_PATH) -> Path:
    """Start a catalog for a new language from the template."""
    target = locale_dir / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if target.exists():
        raise SystemExit(f"{target} exists already; use `update`")
    catalog = _read(pot_path, locale=language)
    catalog.fuzzy = False
    _write_if_changed(target, _po_bytes(catalog))
    return target


def compile_catalogs(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Write a .mo beside every .po (fuzzy and empty entries stay English)."""
    written = []
    for path in po_files(locale_dir):
        catalog = _read(path, locale=path.parent.parent.name)
        errors = [f"{path}: {message.id!r}: {error}" for message, errs in catalog.check() for error in errs]
        if errors:
            raise SystemExit("\n".join(errors))
        mo_path = path.with_suffix(".mo")
        with mo_path.open("wb") as stream:
            write_mo(stream, catalog, use_fuzzy=False)
        written.append(mo_path)
    return written


def placeholders(text: str) -> list[tuple[str, str, str]]:
    """The ``{name!conv:spec}`` fields of a format string, sorted; ValueError when malformed."""
    fields = [
        (name, conversion or "", spec or "")
        for _literal, name, spec, conversion in string.Formatter().parse(text)
        if name is not None
    ]
    return sorted(fields)


def catalog_problems(po_path: Path, pot_path: Path = POT_PATH) -> list[str]:
    """Messages of the template that ``po_path`` lacks, leaves empty or fuzzy, or mistranslates."""
    template = _read(pot_path)
    catalog = _read(po_path)
    problems = []
    wanted = {_message_key(message) for message in template if message.id}
    for message in catalog:
        if not message.id:
            continue
        key = _message_key(message)
        if key not in wanted:
            problems.append(f"{po_path}: stale message not in the template: {key!r} ({FIX_HINT})")
    for message in template:
        if not message.id:
            continue
        key = _message_key(message)
        translated = catalog.get(message.id, context=message.context)
        if translated is None:
            problems.append(f"{po_path}: missing message {key!r} ({FIX_HINT}, then translate it)")
            continue
        if translated.fuzzy:
            problems.append(f"{po_path}: fuzzy translation of {key!r}: check it and remove the fuzzy flag")
        strings = [translated.string] if isinstance(translated.string, str) else list(translated.string)
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        if not all(strings):
            problems.append(f"{po_path}: untranslated message {key!r}")
            continue
        for text in strings:
            try:
                same = placeholders(text) == placeholders(ids[-1] if len(strings) > 1 else ids[0])
            except ValueError as error:
                problems.append(f"{po_path}: broken placeholder in translation of {key!r}: {error}")
                continue
            if not same:
                problems.append(f"{po_path}: placeholders differ: {key!r} -> {text!r}")
    return problems


def template_drift(package_dir: Path = PACKAGE_DIR, pot_path: Path = POT_PATH) -> list[str]:
    """Differences between what Babel extracts from the code and the committed .pot template."""
    if not pot_path.exists():
        return [f"{pot_path} is missing ({FIX_HINT})"]
    in_template = {_message_key(message) for message in _read(pot_path) if message.id}
    in_code = {
        _message_key(message): message.locations for message in extract_template(package_dir) if message.id
    }
    drift = [
        f"not in the template: {message!r} used at "
        f"{', '.join(f'{path}:{line}' for path, line in where)} ({FIX_HINT})"
        for message, where in sorted(in_code.items())
        if message not in in_template
    ]
    drift += [
        f"in the template but no longer in the code: {message!r} ({FIX_HINT})"
        for message in sorted(in_template - in_code.keys())
    ]
    return drift


def check(
    package_dir: Path = PACKAGE_DIR, locale_dir: Path = LOCALE_DIR, pot_path: Path = POT_PATH
) -> list[str]:
    """Every problem `check` reports: template drift, unwrapped strings, incomplete catalogs."""
    problems = template_drift(package_dir, pot_path)
    problems += [str(problem) for problem in lint_package(package_dir)]
    if pot_path.exists():
        for path in po_files(locale_dir):
            problems += catalog_problems(path, pot_path)
    return problems


def _print_paths(verb: str, paths: Iterable[Path]) -> None:
    for path in paths:
        print(f"{verb} {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("extract", help="regenerate the .pot template from the _() calls in the package")
    commands.add_parser("update", help="merge the template into every language's .po")
    init_parser = commands.add_parser("init", help="start a catalog for a new language")
    init_parser.add_argument("language", help="e.g. fr or pt_BR")
    commands.add_parser("compile", help="compile every .po into a .mo (build step; .mo are not committed)")
    commands.add_parser("check", help="fail on template drift, unwrapped strings or incomplete catalogs")
    options = parser.parse_args(argv)
    if options.command == "extract":
        print(f"{POT_PATH.relative_to(ROOT)} {'updated' if extract() else 'unchanged'}")
    elif options.command == "update":
        _print_paths("updated", update())
    elif options.command == "init":
        _print_paths("created", [init(options.language)])
    elif options.command == "compile":
        _print_paths("compiled", compile_catalogs())
    else:
        problems = check()
        for problem in problems:
            print(problem)
        if problems:
            print(f"{len(problems)} translation problem(s)", file=sys.stderr)
            return 1
        print("translations complete")
    return 0


if __name__ == "__main__":
    sys.exit(main())
