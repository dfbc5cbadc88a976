# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Behaviour of the read-only ArduPilot .param parser and the bundled receiver example."""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amc_rc_receiver.host.param_file import (
    MAX_CHECKED_PROBLEMS,
    MAX_FILE_BYTES,
    MAX_REPORTED_PROBLEMS,
    ParamEntry,
    ParamFileError,
    parse_param_text,
    read_example_receiver_params,
    read_param_file,
)

pytestmark = pytest.mark.pure

NAMES = st.from_regex(r"[A-Z][A-Z0-9_]{0,15}", fullmatch=True)
VALUES = st.floats(allow_nan=False, allow_infinity=False, width=32)
COMMENTS = st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=40)


def test_the_receiver_example_sets_protocol_port_rssi_and_failsafe() -> None:
    """GIVEN the bundled receiver example
    WHEN it is read
    THEN it holds the receiver protocol, an RCIN serial port, the RSSI source and the radio failsafe.
    """
    entries = {entry.name: entry for entry in read_example_receiver_params()}

    assert entries["RC_PROTOCOLS"].value == 1
    serial_rcin = [
        name for name, entry in entries.items() if name.endswith("_PROTOCOL") and entry.value == 23
    ]
    assert serial_rcin == ["SERIAL6_PROTOCOL"]
    assert entries["RSSI_TYPE"].value == 3
    assert entries["RC_OPTIONS"].value == 32
    assert entries["FS_THR_ENABLE"].value == 1
    assert entries["FS_THR_VALUE"].value == 975
    assert entries["RC_FS_TIMEOUT"].value == 1
    assert all(entry.comment for name, entry in entries.items() if not name.startswith("RCMAP_"))


def test_lines_parse_into_name_value_comment_and_line_number(tmp_path: Path) -> None:
    """GIVEN a file mixing comma, space and tab separators, comments and blank lines
    WHEN it is read
    THEN each parameter line becomes one entry with its comment and its 1-based line number.
    """
    path = tmp_path / "06_remote_controller_receiver.param"
    path.write_text(
        "# header comment\n"
        "\n"
        "RC_PROTOCOLS,512  # CRSF only\n"
        "SERIAL6_PROTOCOL 23\n"
        "RSSI_TYPE\t3\t# from the receiver\n"
        "FS_THR_VALUE , 975.5\n"
        "RC_FS_TIMEOUT,1e0#tight\n",
        encoding="utf-8",
    )

    entries = read_param_file(path)

    assert entries == (
        ParamEntry("RC_PROTOCOLS", 512.0, "CRSF only", 3),
        ParamEntry("SERIAL6_PROTOCOL", 23.0, None, 4),
        ParamEntry("RSSI_TYPE", 3.0, "from the receiver", 5),
        ParamEntry("FS_THR_VALUE", 975.5, None, 6),
        ParamEntry("RC_FS_TIMEOUT", 1.0, "tight", 7),
    )


def test_windows_line_endings_and_a_byte_order_mark_are_accepted(tmp_path: Path) -> None:
    """GIVEN a file saved with a BOM and CRLF line ends WHEN read THEN the names come out clean."""
    path = tmp_path / "windows.param"
    path.write_bytes("\ufeffRC_PROTOCOLS,1\r\nRSSI_TYPE,0\r\n".encode())

    assert [entry.name for entry in read_param_file(path)] == ["RC_PROTOCOLS", "RSSI_TYPE"]


def test_every_bad_line_is_reported_with_the_file_and_line() -> None:
    """GIVEN text with a lower-case name, a missing value, a word as value and a repeated name
    WHEN parsed
    THEN one error lists all four lines, each with the file name and line number.
    """
    text = "RC_PROTOCOLS,1\nrssi_type,3\nFS_THR_ENABLE\nFS_THR_VALUE,low\nRC_PROTOCOLS,2\n"

    with pytest.raises(ParamFileError) as raised:
        parse_param_text(text, "receiver.param")

    error = raised.value
    assert [problem.line for problem in error.problems] == [2, 3, 4, 5]
    lines = str(error).splitlines()
    assert (
        lines[0]
        == "receiver.param line 2: 'rssi_type' is not a parameter name (upper-case letters, digits and _)"
    )
    assert lines[1] == "receiver.param line 3: 'FS_THR_ENABLE' has no value; expected NAME,VALUE"
    assert lines[2] == "receiver.param line 4: the value of FS_THR_VALUE, 'low', is not a number"
    assert lines[3] == "receiver.param line 5: RC_PROTOCOLS is already set on line 1"


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("ABCDEFGHIJKLMNOPQ,1", "longer than 16 characters"),
        ("RSSI_TYPE,nan", "is not a number"),
        ("RSSI_TYPE,inf", "is not a number"),
        ("FS_THR_VALUE,1e999", "is out of range"),
        ("RC_OPTIONS,32,64", "is not of the form NAME,VALUE"),
        ("1RSSI,3", "is not a parameter name"),
    ],
)
def test_values_and_names_ardupilot_cannot_hold_are_rejected(line: str, reason: str) -> None:
    """GIVEN a line ArduPilot could not load WHEN parsed THEN the reason says what is wrong with it."""
    with pytest.raises(ParamFileError, match=reason):
        parse_param_text(line + "\n", "x.param")


def test_a_flood_of_bad_lines_keeps_every_problem_but_shows_a_bounded_message() -> None:
    """GIVEN 200 bad lines WHEN parsed THEN all are kept in problems and the message shows the first few."""
    text = "".join(f"bad line {n}\n" for n in range(200))

    with pytest.raises(ParamFileError) as raised:
        parse_param_text(text, "junk.param")

    assert len(raised.value.problems) == 200
    message_lines = str(raised.value).splitlines()
    assert len(message_lines) == MAX_REPORTED_PROBLEMS + 1
    assert message_lines[-1] == f"junk.param: and {200 - MAX_REPORTED_PROBLEMS} more bad lines"


def test_a_missing_file_is_reported_by_name(tmp_path: Path) -> None:
    """GIVEN a path that does not exist WHEN read THEN the error names the path and says it cannot be read."""
    path = tmp_path / "nowhere.param"
    with pytest.raises(ParamFileError, match="cannot be read") as raised:
        read_param_file(path)
    assert str(path) in str(raised.value)


def test_a_binary_file_is_reported_as_not_text(tmp_path: Path) -> None:
    """GIVEN a file that is not UTF-8 WHEN read THEN the error names the file and the bad byte offset."""
    path = tmp_path / "firmware.param"
    path.write_bytes(b"RC_PROTOCOLS,1\n\xff\xfe\x00junk")
    with pytest.raises(ParamFileError, match=r"firmware\.param: is not UTF-8 text \(byte 15\)"):
        read_param_file(path)


@given(st.dictionaries(NAMES, st.tuples(VALUES, COMMENTS), max_size=20))
def test_written_parameters_read_back_unchanged(params: dict[str, tuple[float, str]]) -> None:
    """GIVEN any parameters with finite values and one-line comments
    WHEN written as NAME,VALUE  # comment lines and parsed
    THEN names, values and stripped comments come back in order.
    """
    text = "".join(f"{name},{value!r}  # {comment}\n" for name, (value, comment) in params.items())

    entries = parse_param_text(text, "generated.param")

    assert [(entry.name, entry.value) for entry in entries] == [(n, v) for n, (v, _c) in params.items()]
    assert [entry.comment for entry in entries] == [c.strip() or None for _v, c in params.values()]


@given(st.text(max_size=300))
def test_arbitrary_text_either_parses_into_valid_entries_or_raises_a_param_file_error(text: str) -> None:
    """GIVEN any text WHEN parsed THEN the only failure is a ParamFileError naming the source and lines."""
    failure: ParamFileError | None = None
    entries: tuple[ParamEntry, ...] = ()
    try:
        entries = parse_param_text(text, "fuzz.param")
    except ParamFileError as error:
        failure = error

    line_count = len(text.splitlines())
    if failure is not None:
        assert str(failure).startswith("fuzz.param line ")
        assert all(1 <= problem.line <= line_count for problem in failure.problems)
    else:
        assert all(re.fullmatch(r"[A-Z][A-Z0-9_]{0,15}", entry.name) for entry in entries)
        assert all(math.isfinite(entry.value) for entry in entries)
        assert all(1 <= entry.line <= line_count for entry in entries)


def test_a_line_of_many_spaces_is_refused_with_a_short_quote() -> None:
    """GIVEN a line 'A' + 60,000 spaces + '1 2' (a pattern that backtracked took 33 s on it)
    WHEN parsed
    THEN it is refused as not NAME,VALUE and the message quotes a bounded excerpt of it.
    """
    with pytest.raises(ParamFileError, match="is not of the form NAME,VALUE") as raised:
        parse_param_text("A" + " " * 60_000 + "1 2\n", "long.param")

    assert len(str(raised.value)) < 200


def test_a_file_larger_than_a_parameter_file_can_be_is_refused_unread(tmp_path: Path) -> None:
    """GIVEN a 10 MB file holding one line
    WHEN read
    THEN it is refused for its size, the message stays short and names the limit.
    """
    path = tmp_path / "huge.param"
    path.write_bytes(b"X" * (10 * MAX_FILE_BYTES))

    with pytest.raises(ParamFileError, match=r"is larger than 1 MiB") as raised:
        read_param_file(path)

    assert len(str(raised.value)) < 200 + len(str(path))


def test_a_folder_is_refused_as_not_a_regular_file(tmp_path: Path) -> None:
    """GIVEN a folder WHEN read as a parameter file THEN the error says it is not a regular file."""
    with pytest.raises(ParamFileError, match="is not a regular file"):
        read_param_file(tmp_path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_nobody_writes_to_is_refused_without_waiting(tmp_path: Path) -> None:
    """GIVEN a FIFO with no writer (opening it for reading used to block for ever)
    WHEN read as a parameter file
    THEN it is refused at once as not a regular file.
    """
    fifo = tmp_path / "pipe.param"
    os.mkfifo(fifo)

    with pytest.raises(ParamFileError, match="is not a regular file"):
        read_param_file(fifo)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_an_endless_device_is_refused_as_not_a_regular_file(device: str) -> None:
    """GIVEN a device that never ends (/dev/zero ended in a MemoryError, /dev/urandom never returned)
    WHEN read as a parameter file
    THEN it is refused as not a regular file.
    """
    if not Path(device).exists():
        pytest.skip(f"{device} does not exist on this system")
    with pytest.raises(ParamFileError, match="is not a regular file"):
        read_param_file(device)


@pytest.mark.parametrize("value", ["\u0663", "\uff13", "1\u0660", "\u0661.5"])
def test_digits_ardupilot_cannot_read_are_not_numbers(value: str) -> None:
    """GIVEN a value written in Arabic-Indic or full-width digits (Python's float() accepts them)
    WHEN parsed
    THEN it is refused as not a number, as ArduPilot would not load it.
    """
    with pytest.raises(ParamFileError, match="is not a number"):
        parse_param_text(f"RSSI_TYPE,{value}\n", "digits.param")


def test_control_characters_of_a_bad_line_are_shown_escaped() -> None:
    """GIVEN a bad line holding a terminal escape sequence
    WHEN its error is shown
    THEN the escape character is written out visibly, never passed on raw.
    """
    with pytest.raises(ParamFileError) as raised:
        parse_param_text("BAD\x1b[2J\x1b[31m\n", "escape.param")

    message = str(raised.value)
    assert "\x1b" not in message
    assert "\\x1b[2J" in message


def test_reading_stops_after_a_thousand_bad_lines() -> None:
    """GIVEN half a million bad lines (describing each took a second)
    WHEN parsed
    THEN reading stops after MAX_CHECKED_PROBLEMS of them and the message says so, briefly
    """
    with pytest.raises(ParamFileError) as raised:
        parse_param_text("x\n" * 500_000, "junk.param")

    assert len(raised.value.problems) == MAX_CHECKED_PROBLEMS
    assert raised.value.stopped
    message_lines = str(raised.value).splitlines()
    assert len(message_lines) == MAX_REPORTED_PROBLEMS + 1
    assert message_lines[-1] == (
        f"junk.param: stopped after {MAX_CHECKED_PROBLEMS} bad lines: not an ArduPilot parameter file"
    )
