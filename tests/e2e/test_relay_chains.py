# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""`amc-rc-receiver` with bridges that feed each other: refused in one program, cut across two.

The issue: two bridges sending to each other's listen port passed one datagram back and forth
at about 7,700 datagrams/s in one program, and 28,000/s each across two, until the programs
ended.  Ports are found free on 127.0.0.1 just before the programs take them.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.processes import Process, quiet_env
from tests.support.udp import LOOPBACK, free_udp_port

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
# The acceptance bound on the datagrams that went round before the loop was cut.
MAX_LOOPED = 100
RECEIVED = re.compile(r"\]: -> (\d+) pkts")


def bridge(listen: int, target: int) -> str:
    return f"ardupilot-json,{LOOPBACK}:{listen},{LOOPBACK}:{target}"


def program(tmp_path: Path, *bridges: str) -> Process:
    args = [sys.executable, "-m", "amc_rc_receiver", "--demo", "--text", "--duration", "120"]
    for value in bridges:
        args += ["--bridge", value]
    return Process(args, cwd=ROOT, env=quiet_env(tmp_path))


def bridge_lines(text: str, port: int) -> list[str]:
    return [line for line in text.splitlines() if f"bridge ardupilot-json {LOOPBACK}:{port} [" in line]


def received(line: str) -> int:
    found = RECEIVED.search(line)
    assert found is not None, line
    return int(found.group(1))


def test_two_bridges_that_feed_each_other_in_one_program_are_refused_naming_both(tmp_path: Path) -> None:
    """GIVEN the issue's two --bridge values, 9100 -> 9101 and 9101 -> 9100, in one program
    WHEN the program starts THEN it refuses them with one sentence naming both bridges, before it
    connects to anything, and exits with the usage status 2."""
    first, second = free_udp_port(), free_udp_port()
    result = subprocess.run(
        [
            sys.executable, "-m", "amc_rc_receiver", "--demo", "--text",
            "--bridge", bridge(first, second), "--bridge", bridge(second, first),
        ],
        cwd=ROOT, env=quiet_env(tmp_path), capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip

    assert result.returncode == 2, result.stderr
    names = f"ardupilot-json {LOOPBACK}:{first} → ardupilot-json {LOOPBACK}:{second} → "
    assert names in result.stderr
    assert "circle" in result.stderr
    assert "Connecting" not in result.stdout


def test_a_loop_between_two_programs_is_cut_within_100_datagrams_and_named(tmp_path: Path) -> None:
    """GIVEN two programs, the first relaying port A to port B and the second B to A
    WHEN one datagram is sent to A
    THEN the first program cuts the loop, says so once naming where the datagram came back from
    and where it had sent it, and fewer than 100 datagrams went round in both programs together."""
    port_a, port_b = free_udp_port(), free_udp_port()
    first = program(tmp_path, bridge(port_a, port_b))
    second = program(tmp_path, bridge(port_b, port_a))
    try:
        first.wait_for_output(lambda text: bool(bridge_lines(text, port_a)), "the first program's bridge")
        second.wait_for_output(lambda text: bool(bridge_lines(text, port_b)), "the second program's bridge")
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender:
            sender.bind((LOOPBACK, 0))
            sender.sendto(b"hello", (LOOPBACK, port_a))

        event = f"* Bridge ardupilot-json {LOOPBACK}:{port_a}: loop cut: what it sent to {LOOPBACK}:{port_b}"
        first.wait_for_output(lambda text: event in text, "the loop cut")
        # Status lines come every 0.5 s: the next ones of both programs show the final counts.
        seen_first, seen_second = (
            len(bridge_lines(first.stdout, port_a)),
            len(bridge_lines(second.stdout, port_b)),
        )
        first.wait_for_output(lambda text: len(bridge_lines(text, port_a)) > seen_first + 1, "a later line")
        second.wait_for_output(lambda text: len(bridge_lines(text, port_b)) > seen_second + 1, "a later line")
    finally:
        first.end()
        second.end()

    assert first.stdout.count(event) == 1
    assert f"came back from {LOOPBACK}:" in first.stdout
    looped = (
        received(bridge_lines(first.stdout, port_a)[-1])
        - 1
        + received(bridge_lines(second.stdout, port_b)[-1])
    )
    assert 0 < looped <= MAX_LOOPED
    assert "loop cut" not in second.stdout
