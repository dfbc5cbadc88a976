# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The fuzzers in fuzz/ keep working: every seed passes its harness, and a short atheris run of each
target finds no escape.

The long runs (10^6 inputs per target) are for people, their figures in ARCHITECTURE_rc_receiver.md; these
keep the harnesses, the seed corpus and the campaign script from rotting as the code changes.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.tiers import examples

FUZZ = Path(__file__).resolve().parents[1] / "fuzz"
# Inputs per target: enough to pass the seeds and a few thousand mutations; the quick loop's share
# of it (`examples`: 500, mavlink's run takes 3 s instead of 7).
SHORT_RUN = 2000
SEED = 1


def _targets() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fuzz_targets", FUZZ / "targets.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


targets = _targets()
TARGET_NAMES = list(targets.TARGETS)


@pytest.mark.pure
@pytest.mark.parametrize("name", TARGET_NAMES)
def test_every_seed_of_a_target_passes_its_harness(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GIVEN a target's seed corpus from real traffic and files WHEN each seed goes through the
    target's harness THEN there are seeds, none is longer than the target's bound, and none
    escapes (each returns or raises the documented error)."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the file harnesses' scratch folder
    target = targets.TARGETS[name]
    harness = target.setup()
    module, _, error_name = target.expected.partition(":")
    expected = (getattr(importlib.import_module(module), error_name),) if module else ()
    seeds = sorted(path for folder in target.seeds for path in folder.iterdir() if path.is_file())

    assert len(seeds) >= 3
    for path in seeds:
        data = path.read_bytes()
        assert len(data) <= target.max_len, path
        with contextlib.suppress(*expected):
            harness(data)


@pytest.mark.pure
def test_a_mutated_mavlink_frame_gets_a_valid_checksum_back() -> None:
    """GIVEN a demo MAVLink seed whose first frame had one payload byte changed WHEN its checksums
    are fixed THEN pymavlink's parser reads the changed message instead of dropping it as bad
    data, and an unchanged stream is left as it was."""
    from pymavlink.dialects.v20 import ardupilotmega as mavlink2

    def parse(data: bytes) -> list[str]:
        parser = mavlink2.MAVLink(None)
        parser.robust_parsing = True
        return [message.get_type() for message in parser.parse_buffer(data) or []]

    stream = (FUZZ / "corpus" / "mavlink" / "demo-udp-0").read_bytes()
    mutated = bytearray(stream)
    mutated[12] ^= 0x55  # inside the first frame's payload

    assert targets.fix_checksums(stream) == stream
    assert parse(bytes(mutated))[0] == "BAD_DATA"
    assert parse(targets.fix_checksums(bytes(mutated))) == parse(stream)


@pytest.mark.e2e
@pytest.mark.skipif(
    importlib.util.find_spec("atheris") is None,
    reason="atheris has wheels for Linux x86-64 only (pyproject.toml, the dev extra)",
)
@pytest.mark.parametrize(
    "name",
    # pymavlink's parser under instrumentation is the slowest target by far (7 s alone).
    [pytest.param(name, marks=pytest.mark.cost(20)) if name == "mavlink" else name for name in TARGET_NAMES],
)
def test_a_short_atheris_run_of_a_target_finds_no_escape(name: str, tmp_path: Path) -> None:
    """GIVEN a target WHEN the campaign script fuzzes it with atheris for a few thousand inputs
    (500 in the quick loop) from its seed corpus, with a fixed seed THEN it exits 0, and its report
    counts those inputs, some coverage of the package and no escape."""
    runs = examples(SHORT_RUN)
    result = subprocess.run(
        [
            sys.executable,
            str(FUZZ / "campaign.py"),
            *("--target", name, "--runs", str(runs), "--seed", str(SEED), "--jobs", "1"),
            *("--out", str(tmp_path)),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )

    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    [run] = report["targets"]
    log = Path(run["log"]).read_text(encoding="utf-8", errors="replace")
    assert result.returncode == 0, result.stdout + result.stderr + log[-4000:]
    assert (run["target"], run["inputs"], run["escapes"]) == (name, runs, 0)
    assert run["cov"] > 0
    assert run["ft"] >= run["cov"]
