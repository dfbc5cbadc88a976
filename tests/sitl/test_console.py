# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""SITL's console log, bounded and read by cursor, and the "JSON received:" block.

That block says whether a build reads the JSON rc object.
"""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amc_rc_receiver.sitl.console import (
    MAX_LINE_BYTES,
    ConsoleLog,
    JsonKeysWatch,
    bounded_lines,
    console_text,
)

pytestmark = pytest.mark.pure

# As printed by the ArduCopter SITL of July 2025 for the back end's replies, which carry rc_1..rc_8:
# the build has no rc key, so it does not list them.
BLOCK_WITHOUT_RC = [
    "Home: -35.363261 149.165230 alt=584.000000m hdg=353.000000",
    "",
    "JSON received:",
    "\ttimestamp",
    "\timu: gyro",
    "\timu: accel_body",
    "\tposition",
    "\tattitude",
    "\tvelocity",
    "",
    "bind port 5762 for SERIAL1",
]
# The form SIM_JSON.cpp prints for a build whose keytable has the rc section.
BLOCK_WITH_RC = ["", "JSON received:", "\ttimestamp", "\timu: gyro", "\trc: rc_1", "\trc: rc_2", ""]


def test_lines_are_read_once_each_by_cursor() -> None:
    """GIVEN lines logged WHEN a view reads since its cursor twice THEN each line comes exactly once."""
    log = ConsoleLog()
    log.append("one")
    log.append("note", from_sitl=False)
    lines, cursor = log.since(0)
    assert [(line.text, line.from_sitl) for line in lines] == [("one", True), ("note", False)]
    log.append("two")
    lines, cursor = log.since(cursor)
    assert [line.text for line in lines] == ["two"]
    assert log.since(cursor) == ([], cursor)


def test_the_log_keeps_only_the_newest_lines_and_cuts_long_ones() -> None:
    """GIVEN a chatty SITL WHEN more lines than the bound arrive THEN only the newest are kept,
    a slow reader skips the lost ones, and an overlong line is cut with an ellipsis."""
    log = ConsoleLog(3, max_line_chars=10)
    for number in range(10):
        log.append(f"line {number}")
    lines, cursor = log.since(0)
    assert [line.text for line in lines] == ["line 7", "line 8", "line 9"]
    assert cursor == 10
    log.append("x" * 50)
    assert log.tail(1)[0].text == "x" * 9 + "…"
    assert [line.number for line in log.tail(2)] == [9, 10]


def test_no_line_sitls_or_the_runners_can_start_another_or_steer_a_terminal() -> None:
    """
    GIVEN a SITL line and a runner note each holding line breaks, terminal escape sequences, C1
    controls and Unicode line separators
    WHEN they are logged
    THEN each stays one line with every control character written out, and a tab stays a gap.
    """
    log = ConsoleLog()
    log.append("boot\x1b[2J\x1b[31mRED\r\nSITL* forged\x9b\u2028x")
    log.append("Started SITL (process 1): /tmp/a\nSITL| fake\x1b]0;title\x07", from_sitl=False)
    log.append("\ttimestamp")

    assert [line.text for line in log.tail(3)] == [
        "boot\\x1b[2J\\x1b[31mRED\\r\\nSITL* forged\\x9b\\u2028x",
        "Started SITL (process 1): /tmp/a\\nSITL| fake\\x1b]0;title\\x07",
        "    timestamp",
    ]


@given(st.text(max_size=300), st.integers(2, 100))
def test_console_text_is_one_bounded_line_of_printable_text(text: str, limit: int) -> None:
    """GIVEN any text and bound WHEN made a console line THEN it holds no control character or line
    separator and is at most ``limit`` characters; printable text within the bound is unchanged."""
    shown = console_text(text, limit)

    assert len(shown) <= limit
    assert len(shown.splitlines()) <= 1
    assert not any(ord(character) < 0x20 or 0x7F <= ord(character) < 0xA0 for character in shown)
    if text.isprintable() and len(text) <= limit:
        assert shown == text


def test_a_build_without_the_json_rc_key_is_recognised_from_its_console() -> None:
    """GIVEN SITL's block listing the keys it parsed, without rc WHEN read THEN it does not read rc."""
    watch = JsonKeysWatch()
    completed = [watch.feed(line) for line in BLOCK_WITHOUT_RC]
    assert completed.count(True) == 1
    assert watch.reads_rc is False
    assert watch.last_keys == (
        "timestamp",
        "imu: gyro",
        "imu: accel_body",
        "position",
        "attitude",
        "velocity",
    )


def test_a_build_that_lists_rc_keys_reads_rc_and_stays_known_to() -> None:
    """GIVEN a block listing rc keys WHEN a later block lacks them (transmitter off, no rc sent)
    THEN the build is still known to read rc."""
    watch = JsonKeysWatch()
    assert watch.reads_rc is None
    for line in BLOCK_WITH_RC + BLOCK_WITHOUT_RC:
        watch.feed(line)
    assert watch.reads_rc is True


_ENDLESS_LINE = (
    "import sys\n"
    "chunk = b'x' * 65536\n"
    "for _ in range(320):\n"  # 20 MiB without a newline, as the audit's child wrote it
    "    sys.stdout.buffer.write(chunk)\n"
    "sys.stdout.buffer.write(b'\\nbooted\\n')\n"
)


@pytest.mark.e2e
def test_a_child_that_never_ends_its_line_is_read_in_bounded_pieces() -> None:
    """GIVEN a real child process writing 20 MiB in 64 KB chunks without a newline, then "booted"
    WHEN its output is read through the console reader's line splitter
    THEN the long line arrives cut to MAX_LINE_BYTES and marked "…", and the next line arrives whole
         (reading lines whole grew the reader to gigabytes and ended in a MemoryError)
    """
    # Not the suite's Process: the console reader is tested on the child's own pipe, read here.
    child = subprocess.Popen([sys.executable, "-c", _ENDLESS_LINE], stdout=subprocess.PIPE)
    assert child.stdout is not None
    with child.stdout:
        lines = list(bounded_lines(child.stdout))
    child.wait(timeout=60)

    assert len(lines) == 2
    assert lines[0] == "x" * MAX_LINE_BYTES + "…"
    assert lines[1] == "booted"


@given(st.lists(st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")), max_size=20), st.integers(1, 16))
def test_lines_shorter_than_the_bound_come_back_unchanged(lines: list[bytes], limit: int) -> None:
    """GIVEN newline-ended lines WHEN split with a bound THEN short lines are whole, long ones cut."""
    stream = io.BytesIO(b"".join(line + b"\n" for line in lines))

    read = list(bounded_lines(stream, limit))

    expected = [
        line.decode("utf-8", "replace").rstrip("\r")
        if len(line) + 1 <= limit
        else line[:limit].decode("utf-8", "replace") + "…"
        for line in lines
    ]
    assert read == expected
