# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The null-modem cable's "everything carried" answer, on real pseudo-terminals.

The runner lets SITL's receiver deliver only once the check's first bytes are through the cable
and read by SITL (see `sitl.runner`), so the answer must never be "yes" while a written byte is
still on its way, or unread at the far end when that is asked.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.sitl.null_modem import STATION_TO_VEHICLE, VEHICLE_TO_STATION, NullModem
from tests.support.waiting import wait_for

pytestmark = [
    pytest.mark.loopback,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux pseudo-terminals"),
]

DEADLINE_S = 30.0


def open_end(path: Path) -> int:
    return os.open(path, os.O_RDWR | os.O_NOCTTY)


@contextlib.contextmanager
def plugged_cable(folder: Path, baudrate: int) -> Iterator[tuple[NullModem, int, int]]:
    """A plugged cable with both ends open: the modem, the station's end and the vehicle's end."""
    modem = NullModem(folder, baudrate=baudrate)
    modem.plug()
    station = open_end(modem.station_path)
    vehicle = open_end(modem.vehicle_path)
    try:
        yield modem, station, vehicle
    finally:
        modem.close()  # first: a writer blocked on a full cable is released by the pulled plug
        for descriptor in (station, vehicle):
            os.close(descriptor)


def read_exactly(descriptor: int, count: int) -> bytes:
    data = b""
    while len(data) < count:
        readable, _w, _x = select.select([descriptor], [], [], DEADLINE_S)
        assert readable, f"only {len(data)} of {count} bytes arrived"
        data += os.read(descriptor, count - len(data))
    return data


def test_once_everything_is_carried_the_far_end_has_every_byte(tmp_path: Path) -> None:
    """GIVEN a plugged cable at 115200 baud WHEN the station writes one MAVLink heartbeat and waits
    until the cable has carried everything THEN the wait says so and the vehicle's end reads
    exactly that frame; the other direction, unused, has nothing left to carry."""
    with plugged_cable(tmp_path / "dev", 115200) as (modem, station, vehicle):
        frame = mavlink2.MAVLink_heartbeat_message(6, 8, 0, 0, 4, 3).pack(mavlink2.MAVLink(None, 255, 190))
        os.write(station, frame)
        assert modem.wait_carried(STATION_TO_VEHICLE, DEADLINE_S)
        assert read_exactly(vehicle, len(frame)) == frame
        assert modem.carried_all(VEHICLE_TO_STATION)


def test_carried_bytes_count_as_read_only_once_the_far_end_has_read_them(tmp_path: Path) -> None:
    """GIVEN a plugged cable WHEN the station writes one heartbeat and the cable has carried it
    THEN it is not yet read at the vehicle's end, whose program has not read it; once that program
    reads the frame, it is."""
    with plugged_cable(tmp_path / "dev", 115200) as (modem, station, vehicle):
        frame = mavlink2.MAVLink_heartbeat_message(6, 8, 0, 0, 4, 3).pack(mavlink2.MAVLink(None, 255, 190))
        os.write(station, frame)
        assert modem.wait_carried(STATION_TO_VEHICLE, DEADLINE_S)
        assert not modem.carried_all(STATION_TO_VEHICLE, read_at_far_end=True)
        assert not modem.wait_carried(STATION_TO_VEHICLE, 0.0, read_at_far_end=True)

        assert read_exactly(vehicle, len(frame)) == frame
        assert modem.wait_carried(STATION_TO_VEHICLE, DEADLINE_S, read_at_far_end=True)


def test_bytes_just_written_are_not_yet_carried_nor_read(tmp_path: Path) -> None:
    """GIVEN a plugged cable whose vehicle end nobody reads WHEN the station has just written one
    heartbeat (the kernel has not yet moved it into the cable's side of the pseudo-terminal) THEN
    the cable does not say it was carried and read at the far end, every one of 200 times."""
    with plugged_cable(tmp_path / "dev", 115200) as (modem, station, vehicle):
        frame = mavlink2.MAVLink_heartbeat_message(6, 8, 0, 0, 4, 3).pack(mavlink2.MAVLink(None, 255, 190))
        for _attempt in range(200):
            os.write(station, frame)
            assert not modem.carried_all(STATION_TO_VEHICLE, read_at_far_end=True)
            assert read_exactly(vehicle, len(frame)) == frame


def test_bytes_still_on_a_slow_cable_are_not_carried_yet(tmp_path: Path) -> None:
    """GIVEN a cable at 1200 baud (120 bytes a second) WHEN the station has written far more than
    the cable carries in minutes THEN, once the first bytes are through, the cable does not claim
    to have carried everything, and a wait with no time left says no."""
    with plugged_cable(tmp_path / "dev", 1200) as (modem, station, _vehicle):

        def write_a_lot() -> None:
            with contextlib.suppress(OSError):  # the cable is pulled at the end of the test
                os.write(station, b"U" * 60_000)  # some 8 minutes of this cable

        writer = threading.Thread(target=write_a_lot, daemon=True)
        writer.start()
        wait_for(lambda: modem.carried[STATION_TO_VEHICLE] > 0, "the first bytes through", DEADLINE_S)
        assert not modem.carried_all(STATION_TO_VEHICLE)
        assert not modem.wait_carried(STATION_TO_VEHICLE, 0.0)
    writer.join(DEADLINE_S)


def test_a_wait_with_a_quiet_time_returns_only_after_the_cable_was_quiet_that_long(tmp_path: Path) -> None:
    """GIVEN a plugged cable whose station has written one heartbeat WHEN the runner waits for its
    last bytes with a quiet time of 0.2 s THEN the wait says they are through, and not before the
    cable had carried nothing for 0.2 s; the far end has the frame."""
    with plugged_cable(tmp_path / "dev", 115200) as (modem, station, vehicle):
        frame = mavlink2.MAVLink_heartbeat_message(6, 8, 0, 0, 4, 3).pack(mavlink2.MAVLink(None, 255, 190))
        os.write(station, frame)
        started = time.monotonic()
        assert modem.wait_carried(STATION_TO_VEHICLE, DEADLINE_S, quiet_s=0.2)
        assert time.monotonic() - started >= 0.2
        assert read_exactly(vehicle, len(frame)) == frame
