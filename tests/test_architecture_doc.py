# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""ARCHITECTURE_rc_receiver.md stays true of the code: its map of folders, the plugin's modules and
its key numbers."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "ARCHITECTURE_rc_receiver.md"
SOURCE = ROOT / "ardupilot_methodic_configurator"


def _section(title: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    return text.split(f"### {title}", 1)[1].split("\n## ", 1)[0]


def _rows(table_head: str) -> list[list[str]]:
    """The rows of the table whose header row starts with ``table_head``, as cell texts."""
    lines = _section("The house").splitlines()
    start = next(index for index, line in enumerate(lines) if line.startswith(table_head))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def _names(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def folder_map() -> dict[str, list[str]]:
    """Folder -> its key modules, from the map of the house."""
    return {_names(folder)[0]: _names(modules) for folder, _job, modules in _rows("| folder |")}


def test_the_map_names_existing_folders_and_their_key_modules() -> None:
    """GIVEN the map of folders WHEN each row is read THEN the folder exists and holds every key
    module the row names."""
    folders = folder_map()
    assert len(folders) >= 12
    missing = [
        f"{folder}{module}"
        for folder, modules in folders.items()
        for module in modules
        if not (ROOT / folder / module).is_file()
    ]
    assert [folder for folder in folders if not (ROOT / folder).is_dir()] == []
    assert missing == []


def test_every_folder_of_the_package_is_on_the_map() -> None:
    """GIVEN the package's folders (each a Python package) WHEN compared with the map THEN each
    has its row, and each opens with a docstring that states its strategy."""
    on_map = set(folder_map())
    folders = sorted(path.parent for path in SOURCE.rglob("__init__.py"))
    names = [f"{folder.relative_to(ROOT)}/" for folder in folders]
    assert [name for name in names if name not in on_map] == []
    for folder in folders:
        text = (folder / "__init__.py").read_text(encoding="utf-8")
        docstring = re.search(r'^"""(.+?)"""', text, flags=re.MULTILINE | re.DOTALL)
        assert docstring is not None, f"{folder} says nothing of itself"
        assert len(docstring.group(1).split()) >= 20, f"{folder} says too little of its strategy"


def test_the_plugin_table_lists_exactly_the_plugin_modules() -> None:
    """GIVEN the plugin's module table WHEN compared with plugins/ THEN every module has a row and
    every row a module."""
    listed = {_names(module)[0] for module, _what in _rows("| plugin module |")}
    plugins = (SOURCE / "plugins").rglob("*.py")
    on_disk = {f"{path.relative_to(SOURCE).as_posix()}" for path in plugins if path.name != "__init__.py"}
    assert listed == on_disk


@pytest.mark.parametrize(
    ("sentence", "home", "actual"),
    [
        ("at most 50 messages", "rc_receiver.link_reader", "MAX_MESSAGES_PER_POLL"),
        ("3 s after their last", "rc_receiver.snapshot", "STALE_AFTER_S"),
        ("over a 2 s sliding window", "rc_receiver.intake", "RATE_WINDOW_S"),
        ("at 200000 µs (5 Hz)", "rc_receiver.readings", "REQUESTED_INTERVAL_US"),
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
    from amc_rc_receiver.plugins.rc_receiver.commands import CommandManager

    text = DOC.read_text(encoding="utf-8")
    assert f"timed out after {CommandManager.DEFAULT_ACK_TIMEOUT_S} s" in text
    assert f'{{"name": "{PLUGIN_RC_RECEIVER}", "placement": "left"}}' in text
