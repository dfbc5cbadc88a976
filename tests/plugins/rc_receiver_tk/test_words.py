# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every sentence the receiver view shows comes from ``rc_receiver.wording``: the view's modules
word nothing themselves, so the Tk view, the terminal view and the report cannot drift apart."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import amc_rc_receiver.plugins as plugins_package

pytestmark = pytest.mark.pure

PLUGINS = Path(plugins_package.__file__).parent


def view_modules() -> list[Path]:
    return [PLUGINS / "frontend_tkinter_rc_receiver.py", *sorted((PLUGINS / "rc_receiver_tk").glob("*.py"))]


def translated_calls(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_"
    ]


def test_the_view_modules_word_no_sentence_themselves() -> None:
    """GIVEN the receiver view's modules (the twin frontend module and rc_receiver_tk)
    WHEN their calls are read
    THEN none calls _(): every sentence they show is one of wording's functions."""
    worded = {path.name: translated_calls(path) for path in view_modules()}

    assert len(worded) > 5
    assert {name: lines for name, lines in worded.items() if lines} == {}
