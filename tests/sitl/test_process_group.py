# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A process group of SITL's own, ended whole whether its leader still runs or not.

A program that forks and exits leaves its children in its group, and the kernel keeps the group
for them: these tests start real processes that do so and look in /proc for anything left.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

from amc_rc_receiver.sitl import process_group
from amc_rc_receiver.sitl.process_group import Ending, ProcessGroup, live_members
from tests.support.sitl import process_gone, process_group_members

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="process groups and /proc"),
]

# Forks a child that sleeps for ever, prints the child's pid and exits (or, told so, runs on too).
# The child says its pid only once its SIGTERM handling is in place: a SIGTERM that came before
# would end a child that is meant to ignore it (seen once on a loaded machine).
FORKS_AND_EXITS = """\
import os, signal, sys, time
child = os.fork()
if child == 0:
    if sys.argv[1] == "child-ignores-sigterm":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    print(os.getpid(), flush=True)
    while True:
        time.sleep(0.1)
if sys.argv[2] == "leader-runs-on":
    while True:
        time.sleep(0.1)
"""


def _start(child: str = "child-ends-on-sigterm", leader: str = "leader-exits") -> tuple[ProcessGroup, int]:
    group = ProcessGroup.start([sys.executable, "-c", FORKS_AND_EXITS, child, leader], cwd=None, preexec=None)
    assert group.process.stdout is not None
    child_pid = int(group.process.stdout.readline())
    group.process.stdout.close()
    return group, child_pid


def test_a_group_whose_leader_exited_is_still_ended_whole() -> None:
    """
    GIVEN a program that forked a child into its process group and exited (and was reaped)
    WHEN its group is ended with the group id recorded at its start
    THEN the child gets SIGTERM through the group and ends, and no live process of the group is
         left in /proc.
    """
    group, child = _start()
    assert group.process.wait(30) == 0
    assert not process_gone(child)
    assert group.running()

    assert group.end() is Ending.TERMINATED

    assert process_gone(child)
    assert process_group_members(group.pgid) == []
    assert not group.running()


def test_a_member_that_ignores_sigterm_gets_sigkill_after_the_grace_period() -> None:
    """
    GIVEN a group whose leader exited and whose child ignores SIGTERM (as a stalled SITL does)
    WHEN the group is ended with a short grace period
    THEN SIGKILL follows the grace period and nothing of the group is left.
    """
    group, child = _start("child-ignores-sigterm")
    group.process.wait(30)

    assert group.end(grace_s=0.5) is Ending.KILLED

    assert process_gone(child)
    assert process_group_members(group.pgid) == []


def test_a_running_leader_and_its_child_are_ended_together() -> None:
    """
    GIVEN a program that forked a child and runs on
    WHEN its group is ended
    THEN the leader is reaped with SIGTERM's status and the child is gone too.
    """
    group, child = _start(leader="leader-runs-on")

    assert group.end() is Ending.TERMINATED

    assert group.process.returncode == -signal.SIGTERM
    assert process_gone(child)
    assert process_group_members(group.pgid) == []


def test_an_ended_group_is_never_signalled_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """
    GIVEN a group that was ended and found empty
    WHEN it is ended or killed again (a second stop, a stop after the restart ended it)
    THEN no signal is sent: its id may belong to another group by now.
    """
    group, _child = _start()
    group.end()
    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(process_group.os, "killpg", lambda pgid, signum: sent.append((pgid, signum)))

    assert group.end() is Ending.NOTHING_LEFT
    group.kill()

    assert sent == []


@pytest.mark.pure
def test_group_members_are_read_from_proc_without_zombies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """
    GIVEN /proc entries of group 700: a live one whose name holds ") 1 2 700", a zombie, one of
    another group, and a process that ended while being read
    WHEN the group's members are read
    THEN only the live member of group 700 is counted.
    """
    stats = {
        "701": "701 (odd) 1 2 700 name) S 1 700 700 0",
        "702": "702 (sh) Z 1 700 700 0",
        "703": "703 (sh) S 1 800 800 0",
    }
    for pid, stat in stats.items():
        (tmp_path / pid).mkdir()
        (tmp_path / pid / "stat").write_text(stat, encoding="ascii")
    (tmp_path / "704").mkdir()  # no stat file: ended while /proc was read
    (tmp_path / "self").mkdir()
    monkeypatch.setattr(process_group, "_PROC", tmp_path)

    assert live_members(700) == [701]


def test_the_leader_and_its_group_share_one_id() -> None:
    """GIVEN a program started by ProcessGroup WHEN its group id is read THEN it is the leader's pid
    (a session of its own), so the id recorded at start names the group after the leader is gone."""
    group, _child = _start(leader="leader-runs-on")
    try:
        assert os.getpgid(group.pid) == group.pgid == group.pid
    finally:
        group.end()
