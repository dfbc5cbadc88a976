# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""`amc-rc-receiver --serve-demo DEVICE` as a user runs it: a real subprocess on loopback."""

from __future__ import annotations

import os
import re
import signal
from pathlib import Path

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from tests.support.mavlink_station import Station
from tests.support.processes import Process, quiet_env, serve_demo_command

pytestmark = pytest.mark.e2e

RC_BIT = mavlink2.MAV_SYS_STATUS_SENSOR_RC_RECEIVER
_DEVICE = re.compile(r"connect with (\S+);")


def _started(process: Process) -> str:
    """The device a ground station connects with, from the one line the program prints."""
    text = process.wait_for_output(lambda out: "\n" in out, "the serving line")
    match = _DEVICE.search(text.splitlines()[0])
    assert match, text
    return match.group(1)


@pytest.mark.parametrize(
    ("signum", "code"),
    [
        pytest.param(signal.SIGTERM, 0, id="SIGTERM exits 0"),
        pytest.param(signal.SIGINT, 130, id="Ctrl-C exits 130"),
    ],
)
def test_serving_stops_on_a_signal_with_one_line_and_no_traceback(
    tmp_path: Path, signum: int, code: int
) -> None:
    """
    GIVEN `--serve-demo udpin:127.0.0.1:0` running and one line printed saying where it serves
    WHEN it receives SIGTERM or SIGINT (Ctrl-C)
    THEN it exits 0 or 130 printing just "Stopped." after that line, with nothing on stderr.
    """
    server = Process(serve_demo_command("udpin:127.0.0.1:0"), env=quiet_env(tmp_path))
    try:
        device = _started(server)
        assert device.startswith("udpout:127.0.0.1:")
        assert "Ctrl-C" in server.stdout
        server.signal(signum)
        assert server.wait() == code
        lines = server.stdout.splitlines()
        assert len(lines) == 2
        assert lines[1] == "Stopped."
        assert server.stderr == ""
    finally:
        server.end()


def test_the_transmitter_schedule_drives_failsafe_a_ground_station_sees(tmp_path: Path) -> None:
    """
    GIVEN `--serve-demo tcp:127.0.0.1:0 --transmitter-off-after 1 --transmitter-off-for 4` (the
          failsafe lasts from 1 s after "off" to "on": 3 s in which a loaded machine still delivers
          the station's request and a SYS_STATUS)
    WHEN a ground station connects and streams SYS_STATUS
    THEN it sees the receiver healthy, then RC failsafe, then healthy again, and the program
    prints both switches.
    """
    server = Process(
        serve_demo_command("tcp:127.0.0.1:0", "--transmitter-off-after", "1", "--transmitter-off-for", "4"),
        env=quiet_env(tmp_path),
    )
    try:
        station = Station(_started(server))
        try:
            station.wait_for_type("HEARTBEAT")
            station.command(
                mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL, mavlink2.MAVLINK_MSG_ID_SYS_STATUS, 100_000
            )
            for healthy, what in ((False, "RC failsafe"), (True, "recovery")):
                station.wait_for_message(
                    lambda m, healthy=healthy: (
                        m.get_type() == "SYS_STATUS"
                        and bool(m.onboard_control_sensors_present & RC_BIT)
                        and bool(m.onboard_control_sensors_health & RC_BIT) == healthy
                    ),
                    what,
                )
        finally:
            station.close()
        server.wait_for_output(lambda out: "Transmitter switched on" in out, "the switch-on line")
        text = server.stdout
        assert text.index("Transmitter switched off") < text.index("Transmitter switched on")
    finally:
        server.end()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--serve-demo", "tcp:127.0.0.1:0", "--demo"], "--serve-demo runs the simulated vehicle alone"),
        (["--serve-demo", "bluetooth:00:11"], "tcp:HOST:PORT"),
    ],
)
def test_a_wrong_serve_demo_command_line_is_explained(tmp_path: Path, args: list[str], message: str) -> None:
    """GIVEN a --serve-demo command line that cannot work WHEN run THEN exit 2 and say why."""
    process = Process(serve_demo_command(args[1], *args[2:]), env=quiet_env(tmp_path))
    try:
        assert process.wait() == 2
        assert message in process.stderr
    finally:
        process.end()


@pytest.mark.parametrize("kind", ["/dev/null", "FIFO"])
def test_serving_on_what_is_no_serial_port_is_a_usage_error_in_our_words(tmp_path: Path, kind: str) -> None:
    """
    GIVEN `--serve-demo` naming /dev/null, or a FIFO nobody reads (opening it to write would block)
    WHEN run
    THEN it exits 2 at once with our sentence and no traceback.
    """
    path = Path(kind)
    if kind == "FIFO":
        path = tmp_path / "pipe"
        os.mkfifo(path)
    process = Process(serve_demo_command(str(path)), env=quiet_env(tmp_path))
    try:
        assert process.wait() == 2
        assert process.stderr == (
            f"Cannot serve on {path}: it is not a serial port; name a terminal device such as "
            "/dev/ttyUSB0, or one end of a pseudo-terminal pair\n"
        )
        assert process.stdout == ""
    finally:
        process.end()
