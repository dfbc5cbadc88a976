# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The terminal's views word nothing themselves: every sentence of the screen and of the guided
test's prompts comes from a wording module (the receiver check's, or the bridge's), so the terminal
says what the window says, in the same words and the same translations."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from amc_rc_receiver.standalone.terminal import prompter, screen

pytestmark = pytest.mark.pure


@pytest.mark.parametrize("module", [screen, prompter], ids=["screen", "prompter"])
def test_a_terminal_view_translates_no_sentence_of_its_own(module: object) -> None:
    """GIVEN the terminal's screen and its guided-test prompter WHEN their source is read THEN neither
    calls ``_()``: their sentences come from the wording modules."""
    source = Path(str(getattr(module, "__file__", ""))).read_text(encoding="utf-8")
    calls = [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_"
    ]
    assert calls == []
