# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Compile gettext catalogs (.po -> .mo) at run time, in pure Python.

A fresh clone or an editable install has the translators' .po files but no compiled .mo files
(those are build products and are not committed), and Babel is only a development dependency.
`ensure_compiled()` therefore parses .po files with a small state machine and writes the GNU .mo
format that `gettext` reads, skipping fuzzy and untranslated entries like `msgfmt` does.  It only
rewrites a catalog whose .mo is missing or older than its .po, and it never raises: a read-only
install or a broken .po leaves English in place and logs why.
"""

from __future__ import annotations

import logging
import os
import re
import struct
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

# i18n: ignore-file - these messages go to the log for translators and packagers, and this module
# runs before any catalog is loaded, so they cannot be translated.

__all__ = ["PoSyntaxError", "compile_po", "ensure_compiled", "mo_bytes", "parse_po"]

_LOG = logging.getLogger(__name__)

_MO_MAGIC = 0x950412DE
_CONTEXT_SEPARATOR = "\x04"
_PLURAL_SEPARATOR = "\x00"
_KEYWORD_LINE = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*)$')
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
_CHARSET = re.compile(rb"charset=([A-Za-z0-9._-]+)")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
            "\\": "\\", '"': '"', "'": "'", "?": "?"}
_ESCAPE = re.compile(r'\\(x[0-9A-Fa-f]{1,2}|[0-7]{1,3}|.)')


class PoSyntaxError(ValueError):
    """A .po file that cannot be read; the message names the file position and the problem."""


@dataclass
class _Entry:
    context: str | None = None
    msgid: str | None = None
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    fuzzy: bool = False


def _unquote(strings: str, where: str) -> str:
    """Turn one or more adjacent C-style quoted .po strings into text."""
    parts: list[str] = []
    position = 0
    rest = strings.rstrip(" \t")
    while position < len(rest):
        match = _QUOTED.match(rest, position)
        if match is None:
            raise PoSyntaxError(f"{where}: expected a quoted string, got {rest[position:]!r}")
        parts.append(_unescape(match.group()[1:-1], where))
        position = match.end()
        while position < len(rest) and rest[position] in " \t":
            position += 1
    return "".join(parts)


def _unescape(quoted: str, where: str) -> str:
    """Resolve the backslash escapes of the text between one pair of quotes."""

    def replace(match: re.Match[str]) -> str:
        code = match.group(1)
        if code[0] == "x":
            return chr(int(code[1:], 16))
        if code[0] in "01234567":
            return chr(int(code, 8))
        if code in _ESCAPES:
            return _ESCAPES[code]
        raise PoSyntaxError(f"{where}: unknown escape sequence \\{code}")

    return _ESCAPE.sub(replace, quoted)


def _finish(entry: _Entry, messages: dict[str, str], where: str) -> None:
    if entry.msgid is None:
        if entry.msgstr or entry.context is not None:
            raise PoSyntaxError(f"{where}: msgstr without a msgid")
        return
    if not entry.msgstr:
        raise PoSyntaxError(f"{where}: msgid {entry.msgid!r} has no msgstr")
    is_header = entry.msgid == "" and entry.context is None
    # The header carries the charset and plural rules, so it is kept even when marked fuzzy
    # (Babel marks new headers fuzzy); every other fuzzy or empty translation stays English.
    if entry.fuzzy and not is_header:
        return
    key = entry.msgid
    if entry.msgid_plural is not None:
        key += _PLURAL_SEPARATOR + entry.msgid_plural
        value = _PLURAL_SEPARATOR.join(entry.msgstr[index] for index in sorted(entry.msgstr))
        if not any(entry.msgstr.values()):
            return
    else:
        value = entry.msgstr.get(0, "")
        if not value:
            return
    if entry.context is not None:
        key = entry.context + _CONTEXT_SEPARATOR + key
    messages[key] = value


def parse_po(text: str, source: str = "<po>") -> dict[str, str]:
    """Return the usable translations of a .po text as .mo keys and values.

    Keys follow the .mo conventions: ``context\\x04msgid`` for contexts and ``msgid\\x00plural``
    for plurals (whose value joins the forms with ``\\x00``).  The header (key ``""``) is kept.
    """
    messages: dict[str, str] = {}
    entry = _Entry()
    # Where the last string continuation goes: (field name, plural index).
    target: tuple[str, int] | None = None
    # Only "\n" ends a .po line: splitlines() and strip() would also cut at control characters
    # such as \x1c-\x1e, which may appear unescaped inside a message.
    for number, raw_line in enumerate(text.split("\n"), start=1):
        where = f"{source}:{number}"
        line = raw_line.strip(" \t\r\f\v")
        if not line:
            target = None
            continue
        if line.startswith("#~"):
            continue  # obsolete entries are history, not translations
        if line.startswith("#"):
            if entry.msgstr:
                _finish(entry, messages, where)
                entry = _Entry()
            if line.startswith("#,") and "fuzzy" in (flag.strip() for flag in line[2:].split(",")):
                entry.fuzzy = True
            target = None
            continue
        if line.startswith('"'):
            if target is None:
                raise PoSyntaxError(f"{where}: string continuation outside an entry")
            _append(entry, target, _unquote(line, where))
            continue
        match = _KEYWORD_LINE.match(line)
        if match is None:
            raise PoSyntaxError(f"{where}: cannot read line {raw_line!r}")
        keyword, index, quoted = match.group(1), match.group(2), match.group(3)
        value = _unquote(quoted, where)
        if keyword in ("msgctxt", "msgid") and entry.msgstr:
            _finish(entry, messages, where)
            entry = _Entry()
        if keyword == "msgctxt":
            entry.context = value
            target = ("msgctxt", 0)
        elif keyword == "msgid":
            if entry.msgid is not None:
                raise PoSyntaxError(f"{where}: second msgid before a msgstr")
            entry.msgid = value
            target = ("msgid", 0)
        elif keyword == "msgid_plural":
            entry.msgid_plural = value
            target = ("msgid_plural", 0)
        else:
            if entry.msgid is None:
                raise PoSyntaxError(f"{where}: msgstr without a msgid")
            plural_index = int(index) if index is not None else 0
            entry.msgstr[plural_index] = value
            target = ("msgstr", plural_index)
    _finish(entry, messages, f"{source}:end")
    return messages


def _append(entry: _Entry, target: tuple[str, int], text: str) -> None:
    name, index = target
    if name == "msgctxt":
        entry.context = (entry.context or "") + text
    elif name == "msgid":
        entry.msgid = (entry.msgid or "") + text
    elif name == "msgid_plural":
        entry.msgid_plural = (entry.msgid_plural or "") + text
    else:
        entry.msgstr[index] = entry.msgstr.get(index, "") + text


def mo_bytes(messages: Mapping[str, str], charset: str = "utf-8") -> bytes:
    """Serialise translations in the GNU .mo layout (little-endian, no hash table)."""
    encoded = sorted((key.encode(charset), value.encode(charset)) for key, value in messages.items())
    count = len(encoded)
    header_size = 7 * 4
    keys_table = header_size
    values_table = keys_table + 8 * count
    data_start = values_table + 8 * count
    key_entries: list[int] = []
    value_entries: list[int] = []
    keys_blob = b"".join(key + b"\0" for key, _value in encoded)
    offset = data_start
    for key, _value in encoded:
        key_entries += [len(key), offset]
        offset += len(key) + 1
    for _key, value in encoded:
        value_entries += [len(value), offset]
        offset += len(value) + 1
    values_blob = b"".join(value + b"\0" for _key, value in encoded)
    header = struct.pack("<7I", _MO_MAGIC, 0, count, keys_table, values_table, 0, data_start)
    tables = struct.pack(f"<{4 * count}I", *key_entries, *value_entries)
    return header + tables + keys_blob + values_blob


def _po_charset(data: bytes) -> str:
    match = _CHARSET.search(data)
    return match.group(1).decode("ascii") if match else "utf-8"


def compile_po(po_path: str | os.PathLike[str], mo_path: str | os.PathLike[str]) -> None:
    """Compile one .po file into a .mo file, replacing the target atomically.

    Raises `PoSyntaxError` for unreadable .po content and `OSError` when a file cannot be
    read or written.
    """
    data = Path(po_path).read_bytes()
    charset = _po_charset(data)
    try:
        text = data.decode(charset)
    except (LookupError, UnicodeDecodeError) as error:
        raise PoSyntaxError(f"{po_path}: cannot decode as {charset}: {error}") from error
    payload = mo_bytes(parse_po(text, str(po_path)), charset)
    target = Path(mo_path)
    handle, temporary = tempfile.mkstemp(prefix=target.name, suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(payload)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _is_current(po_path: Path, mo_path: Path) -> bool:
    try:
        return mo_path.stat().st_mtime >= po_path.stat().st_mtime
    except OSError:
        return False


def ensure_compiled(locale_dir: str | os.PathLike[str]) -> list[str]:
    """Compile every ``<lang>/LC_MESSAGES/*.po`` under ``locale_dir`` whose .mo is missing or stale.

    Returns the paths of the .mo files written.  Never raises: a catalog that cannot be
    compiled is logged and skipped, so the program falls back to English for that language.
    """
    written: list[str] = []
    root = Path(locale_dir)
    try:
        po_files = sorted(root.glob("*/LC_MESSAGES/*.po"))
    except OSError as error:
        _LOG.warning("Cannot list translation catalogs in %s: %s", root, error)
        return written
    for po_path in po_files:
        mo_path = po_path.with_suffix(".mo")
        if _is_current(po_path, mo_path):
            continue
        try:
            compile_po(po_path, mo_path)
        except (OSError, PoSyntaxError) as error:
            _LOG.warning("Cannot compile translation catalog %s: %s", po_path, error)
            continue
        written.append(str(mo_path))
    return written
