# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The fuzzers in fuzz/ keep working: a short run of each finds no escape and writes its report.

The long runs (10^5 and 10^6 inputs) are for people, with their figures in the closing notes;
these keep the scripts from rotting as the readers and codecs change.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parents[1] / "fuzz"

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(
    ("script", "arguments", "report", "section"),
    [
        ("fuzz_files.py", ["--inputs", "300", "--jobs", "1"], "report-files.json", "readers"),
        ("fuzz_codecs.py", ["--inputs", "300", "--relay-datagrams", "40"], "report.json", "codecs"),
    ],
)
def test_a_short_fuzz_run_finds_no_escape(
    script: str, arguments: list[str], report: str, section: str, tmp_path: Path
) -> None:
    """GIVEN a fuzzer WHEN it runs a few hundred inputs per target THEN it exits 0, and its report
    counts those inputs, no escape and the slowest input of each target."""
    result = subprocess.run(
        [sys.executable, str(FUZZ / script), *arguments, "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    targets = json.loads((tmp_path / report).read_text(encoding="utf-8"))[section]
    assert targets
    for target in targets:
        assert target["inputs"] == 300
        assert target["escapes"] == 0
        assert Path(target["slowest_file"]).is_file()
