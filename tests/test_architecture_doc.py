# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""ARCHITECTURE_rc_receiver.md stays true of the code: its file table and its key numbers."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "ARCHITECTURE_rc_receiver.md"
PACKAGE = ROOT / "amc_rc_receiver"


def file_table_paths() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Components and data flow", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([^`]+)` \|", section, flags=re.MULTILINE)


def test_the_file_table_names_only_existing_files() -> None:
    """GIVEN the architecture document WHEN its file table is read THEN every named file exists."""
    paths = file_table_paths()
    assert len(paths) > 30
    missing = [path for path in paths if not (ROOT / path).is_file()]
    assert missing == []


def test_every_package_module_is_in_the_file_table() -> None:
    """GIVEN the package WHEN its modules are listed THEN each one has a row in the file table."""
    listed = set(file_table_paths())
    modules = sorted(
        str(path.relative_to(ROOT))
        for path in PACKAGE.rglob("*.py")
        if path.name != "__init__.py" or path.parent == PACKAGE
    )
    assert [module for module in modules if module not in listed] == []


@pytest.mark.parametrize(
    ("sentence", "home", "actual"),
    [
        ("at most 50 messages", "data_model_rc_receiver", "MAX_MESSAGES_PER_POLL"),
        ("3 s after their last", "rc_receiver_state", "STALE_AFTER_S"),
        ("over a 2 s sliding window", "data_model_rc_receiver", "RATE_WINDOW_S"),
        ("at 200000 µs (5 Hz)", "rc_receiver_mavlink", "REQUESTED_INTERVAL_US"),
    ],
)
def test_the_documented_model_constants_match_the_code(sentence: str, home: str, actual: str) -> None:
    """GIVEN a number stated in the document WHEN compared with the constant in its home module
    THEN they agree."""
    module = importlib.import_module(f"amc_rc_receiver.plugins.{home}")
    text = DOC.read_text(encoding="utf-8")
    assert sentence in text
    number = float(re.findall(r"[\d]+", sentence)[0])
    assert float(getattr(module, actual)) == number


def test_the_documented_ack_timeout_and_plugin_name_match_the_code() -> None:
    """GIVEN the ACK timeout and plugin name in the document WHEN compared THEN they match the code."""
    from amc_rc_receiver.plugins.plugin_constants import PLUGIN_RC_RECEIVER
    from amc_rc_receiver.plugins.rc_receiver_commands import CommandManager

    text = DOC.read_text(encoding="utf-8")
    assert f"timed out after {CommandManager.DEFAULT_ACK_TIMEOUT_S} s" in text
    assert f'{{"name": "{PLUGIN_RC_RECEIVER}", "placement": "left"}}' in text
