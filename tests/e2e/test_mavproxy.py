# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""MAVProxy, the ground station from PyPI, connected to `amc-rc-receiver --serve-demo tcp:...`.

Both run as real subprocesses: the served demo as SITL's TCP server, MAVProxy headless
(``--daemon --non-interactive``) with its master on that port and an ``--out`` to a pymavlink
station of ours.  MAVProxy's own stream requests are switched off (``--streamrate -1``), so the
RC_CHANNELS the station reads are there because it asked: its SET_MESSAGE_INTERVAL travels
through MAVProxy to the vehicle and the ACK back.  MAVProxy's parameter download (MAVFTP when
the vehicle offers it) must also complete.  Both processes are always ended.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.demo.parameters import COPTER_PARAMETERS
from tests.support.mavlink_station import Station, is_ack
from tests.support.processes import Process, free_tcp_port, quiet_env, serve_demo_command
from tests.support.waiting import wait_for

pytestmark = pytest.mark.e2e

PARAMETER_DOWNLOAD_DEADLINE_S = 120.0  # MAVProxy starts slowly on a loaded machine


@pytest.fixture
def mavproxy_available() -> None:
    pytest.importorskip(
        "MAVProxy", reason="MAVProxy is not installed (pip install MAVProxy, in the dev extra)"
    )


@pytest.fixture
def served_port(tmp_path: Path) -> Iterator[int]:
    """A `--serve-demo tcp:127.0.0.1:PORT` subprocess on a free port; yields the port."""
    for _attempt in range(3):
        port = free_tcp_port()
        server = Process(serve_demo_command(f"tcp:127.0.0.1:{port}"), env=quiet_env(tmp_path))
        try:
            text = server.wait_for_output(lambda out: "\n" in out, "the serving line")
        except pytest.fail.Exception:
            if "Cannot serve" in server.stderr:  # another program took the port meanwhile
                server.end()
                continue
            server.end()
            raise
        assert f"tcp:127.0.0.1:{port}" in text
        try:
            yield port
        finally:
            server.end()
        return
    pytest.fail("no free TCP port could be served after three attempts")


def test_mavproxy_connects_downloads_parameters_and_relays_rc_channels_on_request(
    mavproxy_available: None, served_port: int, tmp_path: Path
) -> None:
    """
    GIVEN `amc-rc-receiver --serve-demo tcp:127.0.0.1:PORT` and MAVProxy with --master on that port,
    its own stream requests off and an --out to our station
    WHEN the station asks (through MAVProxy) for RC_CHANNELS every 200000 µs
    THEN MAVProxy forwards the vehicle's heartbeat, the ACCEPTED ACK and RC_CHANNELS with 8 channels,
    AND it saves every one of the vehicle's parameters to mav.parm.
    """
    station = Station("udpin:127.0.0.1:0")
    mavproxy = Process(
        [
            sys.executable,
            "-m",
            "MAVProxy.mavproxy",
            "--master",
            f"tcp:127.0.0.1:{served_port}",
            "--out",
            f"udp:127.0.0.1:{station.local_port}",
            "--daemon",
            "--non-interactive",
            "--streamrate",
            "-1",
            "--state-basedir",
            str(tmp_path),
        ],
        cwd=tmp_path,
        env=quiet_env(tmp_path),
    )
    try:
        heartbeat = station.wait_for_message(
            lambda m: m.get_type() == "HEARTBEAT" and m.get_srcSystem() == 1,
            "the vehicle's heartbeat through MAVProxy",
            PARAMETER_DOWNLOAD_DEADLINE_S,
        )
        assert heartbeat.autopilot == mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA
        station.command(mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL, mavlink2.MAVLINK_MSG_ID_RC_CHANNELS, 200_000)
        ack = station.wait_for_message(
            is_ack(mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL), "the ACK through MAVProxy"
        )
        assert ack.result == mavlink2.MAV_RESULT_ACCEPTED
        channels = station.wait_for_message(
            lambda m: m.get_type() == "RC_CHANNELS" and m.chancount > 0, "RC_CHANNELS through MAVProxy"
        )
        assert channels.chancount == 8
        assert 1000 <= channels.chan1_raw <= 2000

        saved = tmp_path / "mav.parm"
        expected = {spec.name for spec in COPTER_PARAMETERS}

        def all_saved() -> bool:
            if not saved.exists():
                return False
            names = {line.split()[0] for line in saved.read_text().splitlines() if line.strip()}
            return names == expected

        wait_for(all_saved, "MAVProxy to save every parameter", PARAMETER_DOWNLOAD_DEADLINE_S)
    finally:
        mavproxy.end()
        station.close()
