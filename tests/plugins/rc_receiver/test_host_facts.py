# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The host's numbers as the check looks them up every poll (`HostLookup`): the same answer while
none of the wanted values moved, a new one as soon as one did, however the host changed its
download (a value written in place, a name added or taken away, an entry object).

No sockets here: the download is a plain dictionary, as the methodic configurator's is."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from amc_rc_receiver.plugins.rc_receiver.host_facts import HostLookup

pytestmark = pytest.mark.pure

NAMES = ("RC_OPTIONS", "FS_THR_ENABLE", "RCMAP_THROTTLE")


def test_an_unchanged_download_answers_the_very_same_numbers() -> None:
    """
    GIVEN a download holding two of three wanted names, looked up once
    WHEN it is looked up again with nothing changed
    THEN the answer is the same object (nothing converted again), holding only the two numbers
    """
    lookup = HostLookup()
    download = {"RC_OPTIONS": 32.0, "FS_THR_ENABLE": 1.0, "OTHER": 5.0}
    first = lookup.numbers(download, NAMES)
    assert lookup.numbers(download, NAMES) is first
    assert first == {"RC_OPTIONS": 32.0, "FS_THR_ENABLE": 1.0}


def test_a_value_written_in_place_is_seen_at_once() -> None:
    """
    GIVEN a download looked up once
    WHEN the host writes a new value into the same dictionary (an upload), then writes it back
    THEN each lookup answers the value the dictionary holds now
    """
    lookup = HostLookup()
    download = {"RC_OPTIONS": 32.0, "FS_THR_ENABLE": 1.0, "RCMAP_THROTTLE": 3.0}
    lookup.numbers(download, NAMES)
    download["FS_THR_ENABLE"] = 0.0
    assert lookup.numbers(download, NAMES)["FS_THR_ENABLE"] == 0.0
    download["FS_THR_ENABLE"] = 1.0
    assert lookup.numbers(download, NAMES)["FS_THR_ENABLE"] == 1.0


def test_a_name_that_appears_or_vanishes_is_seen_even_when_the_size_stays() -> None:
    """
    GIVEN a download without RCMAP_THROTTLE, looked up once
    WHEN the host adds RCMAP_THROTTLE and takes RC_OPTIONS away between two lookups (same size)
    THEN the next lookup holds RCMAP_THROTTLE and no longer RC_OPTIONS
    """
    lookup = HostLookup()
    download = {"RC_OPTIONS": 32.0, "FS_THR_ENABLE": 1.0}
    lookup.numbers(download, NAMES)
    del download["RC_OPTIONS"]
    download["RCMAP_THROTTLE"] = 2.0
    assert lookup.numbers(download, NAMES) == {"FS_THR_ENABLE": 1.0, "RCMAP_THROTTLE": 2.0}


def test_other_names_and_another_download_are_looked_up_afresh() -> None:
    """
    GIVEN a lookup of three names in one download
    WHEN it is asked for other names, then for the same names in a new dictionary (a new download)
    THEN each answer is that of the names and the dictionary asked about
    """
    lookup = HostLookup()
    lookup.numbers({"RC_OPTIONS": 32.0}, NAMES)
    assert lookup.numbers({"RC_OPTIONS": 32.0, "RC1_MIN": 1000.0}, ("RC1_MIN",)) == {"RC1_MIN": 1000.0}
    assert lookup.numbers({"RC_OPTIONS": 0.0}, NAMES) == {"RC_OPTIONS": 0.0}


@dataclass
class _Entry:
    """An entry object that carries its value, as a parameter dictionary's entries do."""

    value: float


def test_an_entry_whose_value_changes_inside_it_is_seen() -> None:
    """
    GIVEN a download whose values are entry objects (not plain numbers), looked up once
    WHEN the value inside one entry changes (the dictionary itself is untouched)
    THEN the next lookup answers the new value
    """
    lookup = HostLookup()
    entry = _Entry(1.0)
    download = {"FS_THR_ENABLE": entry}
    assert lookup.numbers(download, NAMES) == {"FS_THR_ENABLE": 1.0}
    entry.value = 0.0
    assert lookup.numbers(download, NAMES) == {"FS_THR_ENABLE": 0.0}


def test_not_a_number_and_whole_numbers_are_taken_as_the_host_gives_them() -> None:
    """
    GIVEN a download with a NaN, a whole number (int) and a text among the wanted names
    WHEN it is looked up twice
    THEN NaN and the text are no value, the whole number is a float, both times
    """
    lookup = HostLookup()
    download = {"RC_OPTIONS": float("nan"), "FS_THR_ENABLE": 1, "RCMAP_THROTTLE": "3"}
    for _time in range(2):
        assert lookup.numbers(download, NAMES) == {"FS_THR_ENABLE": 1.0}
