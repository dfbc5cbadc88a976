# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The whole check over a serial line on real bytes, as a user with a USB board or a radio runs it.

`amc-rc-receiver --serve-demo PATH --baudrate B` (the simulated vehicle on one end of a
pseudo-terminal null modem, through the same serial code a USB board's bytes take) and
`amc-rc-receiver --device PATH --baudrate B --text` on the other end, each its own process.  The
null modem paces the bytes at the baud rate and taps them, so the test reads back everything the
check sent.  Nothing asserts how long anything took.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from amc_rc_receiver.sitl.null_modem import STATION_TO_VEHICLE, NullModem
from amc_rc_receiver.sitl.runner import LAST_BYTES_QUIET_S
from amc_rc_receiver.standalone.options import EXIT_INCOMPLETE
from tests.support.processes import Process, quiet_env, serve_demo_command
from tests.support.serial_wire import Wire, assert_no_raw_link_text, assert_only_reads_and_receiver_intervals

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX only"),
]

RATE = re.compile(r"RC_CHANNELS (\d+\.\d) Hz, SYS_STATUS (\d+\.\d) Hz")
# The served pilot pushes one stick after the other in the check's order, a round of four every
# 8.8 s, and the check joins in the middle of one: the sticks are done after about 21 s, and the
# switch step (this pilot leaves the mode switch in slot 1) goes on 20 s after its last change.
# The transmitter goes off after the sticks, during the switch step; by the end the check asks
# for it off.
RUN_S = 62
OFF_AFTER_S = 30
OFF_FOR_S = 4


def assert_streams_asked_for_and_live(out: str) -> None:
    """The vehicle accepted both interval requests and both receiver streams deliver at the end.

    How fast they come is a timing figure for benchmarks/bench_reconnect.py, not a pass/fail
    bound: on a loaded machine the measured rate falls below 5 Hz while nothing is wrong.
    """
    assert "RC_CHANNELS interval request: accepted" in out, out
    assert "SYS_STATUS interval request: accepted" in out, out
    rates = [(float(rc), float(status)) for rc, status in RATE.findall(out)]
    assert len(rates) >= 10, out
    assert max(rate for rate, _ in rates[-5:]) > 0.0, rates
    assert max(rate for _, rate in rates[-5:]) > 0.0, rates


def check_command(device: Path, baudrate: int, report: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "amc_rc_receiver",
        "--device",
        str(device),
        "--baudrate",
        str(baudrate),
        "--text",
        "--timeout",
        "30",
        "--duration",
        str(RUN_S),
        "--report",
        str(report),
    ]


@pytest.mark.cost(60)  # a whole guided test plus the parameter download at radio speed
@pytest.mark.parametrize("baudrate", [57600, 115200])
def test_the_check_runs_over_a_serial_line_and_leaves_the_streams_as_it_found_them(
    baudrate: int, tmp_path: Path
) -> None:
    """GIVEN the simulated vehicle served on a serial line at 57600 or 115200 baud, its pilot
    pushing one stick after the other and its transmitter going off after 20 s for 4 s, on its own
    (as a person's, with no key pressed in the check)
    WHEN the check runs on the other end of the line
    THEN it connects, reads both receiver streams at 5 Hz, checks every stick, sees RC failsafe and
    the recovery and keeps them in the timeline, but a failsafe it did not ask for does not finish
    the test: it still asks for the transmitter off (exit 4, INCOMPLETE), with a report that names the
    serial link; on the wire it sent only heartbeats, parameter reads and the two interval requests
    (5 Hz, then 0 = the firmware's default on leaving); and no pymavlink or pyserial text reached
    the user."""
    wire = Wire()
    modem = NullModem(tmp_path / "dev", baudrate=baudrate, tap=wire.tap)
    modem.plug()
    env = quiet_env(tmp_path)
    vehicle = Process(
        serve_demo_command(
            str(modem.vehicle_path),
            "--baudrate",
            str(baudrate),
            "--transmitter-off-after",
            str(OFF_AFTER_S),
            "--transmitter-off-for",
            str(OFF_FOR_S),
        ),
        env=env,
    )
    check: Process | None = None
    try:
        vehicle.wait_for_output(lambda out: "serial device" in out, "the vehicle to serve the line")
        check = Process(check_command(modem.station_path, baudrate, tmp_path / "report"), env=env)
        code = check.wait(RUN_S + 60)
        out = check.stdout + check.stderr
        # Its last requests were written as it ended: the cable carries them at its baud rate.
        assert modem.wait_carried(STATION_TO_VEHICLE, 30.0, quiet_s=LAST_BYTES_QUIET_S)
    finally:
        if check is not None:
            check.end()
        vehicle.end()
        modem.close()
    assert code == EXIT_INCOMPLETE, out
    assert "Verdict: INCOMPLETE - Switch the transmitter off." in out
    assert "Sticks: throttle: correct" in out
    assert "Test finished" not in out
    assert "* RC failsafe is now ACTIVE" in out
    assert "* Recovery observed at" in out
    assert_streams_asked_for_and_live(out)
    assert_no_raw_link_text(out)
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["link"]["kind"] == "serial"
    assert report["verdict"]["result"] == "INCOMPLETE"
    assert report["test"]["failsafe_observed_s"] is not None
    intervals = assert_only_reads_and_receiver_intervals(wire.sent_by_station())
    assert intervals == [(65, 200_000), (1, 200_000), (65, 0), (1, 0)]
