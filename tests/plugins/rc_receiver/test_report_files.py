# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Saving the evidence report: folders, links, a full disk and what is left when writing fails.

The full disk is real: a child process with a file-size limit (RLIMIT_FSIZE) writes the report,
so the kernel refuses the bytes beyond the limit as a full disk would (EFBIG instead of ENOSPC).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from amc_rc_receiver.plugins.rc_receiver.report import (
    REPORT_BASENAME,
    SCHEMA_VERSION,
    ReportPathError,
    ReportWriteError,
    existing_report_files,
    report_paths,
    write_report,
)
from amc_rc_receiver.plugins.rc_receiver.snapshot import RCReceiverState

pytestmark = pytest.mark.pure

posix_only = pytest.mark.skipif(os.name != "posix", reason="symbolic links and rlimits as on POSIX")


def leftovers(folder: Path) -> list[str]:
    """Temporary files a failed write could have left behind."""
    return sorted(entry.name for entry in folder.iterdir() if entry.name.endswith(".part"))


@pytest.mark.parametrize("spelling", [".", "./", "{tmp}", "{tmp}/"])
def test_a_folder_gets_the_default_names_inside_it(
    spelling: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GIVEN a report path naming a folder (".", a trailing separator, an existing folder)
    WHEN the report is written
    THEN rc_receiver_report.json and .md are written inside that folder.
    """
    monkeypatch.chdir(tmp_path)

    json_path, markdown_path = write_report(RCReceiverState(), spelling.format(tmp=tmp_path))

    assert json_path.resolve() == tmp_path / f"{REPORT_BASENAME}.json"
    assert markdown_path.resolve() == tmp_path / f"{REPORT_BASENAME}.md"
    assert json.loads(json_path.read_text(encoding="utf-8"))["verdict"]["result"] == "INCOMPLETE"


def test_the_root_folder_gets_the_default_names() -> None:
    """GIVEN "/" WHEN resolved THEN the default names inside it, never a file without a name."""
    assert report_paths("/") == (Path("/") / f"{REPORT_BASENAME}.json", Path("/") / f"{REPORT_BASENAME}.md")


def test_a_leading_tilde_is_the_home_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """GIVEN "~/rep" WHEN written THEN rep.json and rep.md in the home folder, no folder named "~"."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("USERPROFILE", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)

    json_path, _markdown = write_report(RCReceiverState(), "~/rep")

    assert json_path == tmp_path / "home" / "rep.json"
    assert json_path.is_file()
    assert not (tmp_path / "~").exists()


def test_an_empty_path_is_refused_in_our_words() -> None:
    """GIVEN an empty report path WHEN resolved THEN a ReportPathError that says what to give."""
    with pytest.raises(ReportPathError, match="the report path is empty"):
        report_paths("  ")


@posix_only
@pytest.mark.parametrize("linked", [".json", ".md"])
def test_a_report_name_that_is_a_symbolic_link_is_refused_and_its_target_kept(
    linked: str, tmp_path: Path
) -> None:
    """GIVEN PATH.json (or PATH.md) is a symbolic link to another file
    WHEN the report is written to PATH
    THEN it is refused naming the link, the link's target is unchanged and neither file is written.
    """
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me", encoding="utf-8")
    (tmp_path / f"evidence{linked}").symlink_to(victim)

    with pytest.raises(ReportWriteError, match="is a symbolic link; the report is not written through it"):
        write_report(RCReceiverState(), tmp_path / "evidence")

    assert victim.read_text(encoding="utf-8") == "keep me"
    other = ".md" if linked == ".json" else ".json"
    assert not (tmp_path / f"evidence{other}").exists()
    assert leftovers(tmp_path) == []


@posix_only
def test_the_fixed_names_in_a_vehicle_directory_are_not_followed_either(tmp_path: Path) -> None:
    """GIVEN rc_receiver_report.json in the vehicle directory is a link to a file outside it
    WHEN the report is saved into that directory
    THEN it is refused and the outside file is unchanged.
    """
    outside = tmp_path / "outside.param"
    outside.write_text("RC_PROTOCOLS,1\n", encoding="utf-8")
    vehicle = tmp_path / "vehicle"
    vehicle.mkdir()
    (vehicle / f"{REPORT_BASENAME}.json").symlink_to(outside)

    with pytest.raises(ReportWriteError, match="symbolic link"):
        write_report(RCReceiverState(), vehicle / REPORT_BASENAME)

    assert outside.read_text(encoding="utf-8") == "RC_PROTOCOLS,1\n"


def test_a_folder_where_the_markdown_goes_leaves_no_half_report(tmp_path: Path) -> None:
    """GIVEN PATH.md is a folder
    WHEN the report is written to PATH
    THEN it is refused, PATH.json is not written and no temporary file is left.
    """
    (tmp_path / "evidence.md").mkdir()

    with pytest.raises(ReportWriteError, match="exists and is not a regular file"):
        write_report(RCReceiverState(), tmp_path / "evidence")

    assert not (tmp_path / "evidence.json").exists()
    assert leftovers(tmp_path) == []


def test_a_report_replaces_an_older_one_whole(tmp_path: Path) -> None:
    """GIVEN an older report at PATH WHEN a new one is written THEN both files hold the new report."""
    (tmp_path / "evidence.json").write_text("old", encoding="utf-8")
    (tmp_path / "evidence.md").write_text("old", encoding="utf-8")

    write_report(RCReceiverState(), tmp_path / "evidence")

    assert (
        json.loads((tmp_path / "evidence.json").read_text(encoding="utf-8"))["schema_version"]
        == SCHEMA_VERSION
    )
    assert (tmp_path / "evidence.md").read_text(encoding="utf-8").startswith("# RC receiver check")
    assert existing_report_files(tmp_path / "evidence") == (
        tmp_path / "evidence.json",
        tmp_path / "evidence.md",
    )


@posix_only
def test_new_report_files_get_the_permissions_of_the_users_umask(tmp_path: Path) -> None:
    """GIVEN umask 022 WHEN a report is written THEN its files are 0644, as a plain open() makes them."""
    json_path, markdown_path = write_report(RCReceiverState(), tmp_path / "evidence")

    umask = os.umask(0)
    os.umask(umask)
    assert json_path.stat().st_mode & 0o777 == 0o666 & ~umask
    assert markdown_path.stat().st_mode & 0o777 == 0o666 & ~umask


_WRITE_WITH_A_FULL_DISK = textwrap.dedent(
    """
    import resource, signal, sys
    from amc_rc_receiver.plugins.rc_receiver.report import ReportWriteError, write_report
    from amc_rc_receiver.plugins.rc_receiver.snapshot import RCReceiverState
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a failed write() instead of a killed process
    resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))
    try:
        write_report(RCReceiverState(), sys.argv[1])
    except ReportWriteError as error:
        print(error)
        sys.exit(7)
    """
)


@pytest.mark.e2e
@posix_only
def test_a_full_disk_leaves_the_previous_report_whole_and_no_partial_file(tmp_path: Path) -> None:
    """GIVEN a previous report and a disk that takes no more than 1000 bytes per file
    WHEN a new report (larger than that) is written
    THEN writing fails with our message, the previous files are unchanged and no temporary is left.
    """
    (tmp_path / "evidence.json").write_text('{"old": true}\n', encoding="utf-8")
    (tmp_path / "evidence.md").write_text("# old\n", encoding="utf-8")

    result = subprocess.run(
        [sys.executable, "-c", _WRITE_WITH_A_FULL_DISK, str(tmp_path / "evidence")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert result.returncode == 7, result.stdout + result.stderr
    assert "File too large" in result.stdout
    assert "Traceback" not in result.stderr
    assert (tmp_path / "evidence.json").read_text(encoding="utf-8") == '{"old": true}\n'
    assert (tmp_path / "evidence.md").read_text(encoding="utf-8") == "# old\n"
    assert leftovers(tmp_path) == []
