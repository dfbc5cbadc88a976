# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The simulated vehicle served to any ground station over tcp, udpin, udpout and a serial line.

A pymavlink connection of each kind (the same code MAVProxy and the methodic configurator use)
talks to a running DemoSystem whose MAVLink port is the endpoint under test, on 127.0.0.1 only,
and checks what ArduPilot would answer: heartbeat first, AUTOPILOT_VERSION after
REQUEST_MESSAGE, the banner, the parameter list and single reads, MAVFTP's packed parameter
file, RC_CHANNELS on request and RC failsafe with the transmitter off.  Waits are generous
deadlines, never timing limits.
"""

from __future__ import annotations

import io
import os
import shutil
import socket
import struct
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pymavlink import mavutil
from pymavlink.dialects.v20 import ardupilotmega as mavlink2
from pymavlink.mavftp import MAVFTP, MAVFTPSettings

from amc_rc_receiver.demo.mavftp import MIN_BURST_CHUNK, FtpError, FtpOp
from amc_rc_receiver.demo.mavlink_link import LinkEndpoint, LinkKind
from amc_rc_receiver.demo.parameter_store import ParameterStore, default_parameters
from amc_rc_receiver.demo.parameters import COPTER_PARAMETERS
from amc_rc_receiver.demo.system import DemoSystem
from amc_rc_receiver.demo.vehicle import (
    RADIO_FAILSAFE_CLEARED_TEXT,
    RADIO_FAILSAFE_TEXT,
    SimulatedVehicle,
)
from amc_rc_receiver.net import host_port
from amc_rc_receiver.sitl.null_modem import NullModem
from amc_rc_receiver.standalone.options import TransmitterSchedule
from amc_rc_receiver.standalone.serve_demo import serve_demo
from tests.support.mavlink_station import DEADLINE_S, Station, is_ack, is_type
from tests.support.param_pck import decode_param_pck
from tests.support.waiting import wait_for

pytestmark = pytest.mark.loopback

RC_BIT = mavlink2.MAV_SYS_STATUS_SENSOR_RC_RECEIVER
FTP_HEADER = struct.Struct("<HBBBBBBI")
PARAM_TYPES = {
    mavlink2.MAV_PARAM_TYPE_INT8,
    mavlink2.MAV_PARAM_TYPE_INT16,
    mavlink2.MAV_PARAM_TYPE_INT32,
    mavlink2.MAV_PARAM_TYPE_REAL32,
}
RECEIVER_PARAMETERS = (
    "RC_PROTOCOLS",
    "RC_OPTIONS",
    "RC_FS_TIMEOUT",
    "RC_OVERRIDE_TIME",
    "RSSI_TYPE",
    "FS_THR_ENABLE",
    "FS_THR_VALUE",
    "RCMAP_ROLL",
    "RCMAP_PITCH",
    "RCMAP_THROTTLE",
    "RCMAP_YAW",
    "FLTMODE_CH",
    "FLTMODE6",
    "RC16_OPTION",
    "SERIAL7_PROTOCOL",
    "SYSID_THISMAV",
    "FRAME_CLASS",
)


def _loopback(kind: LinkKind, port: int = 0) -> LinkEndpoint:
    return LinkEndpoint(kind, "127.0.0.1", port)


class Served:
    """A running demo and a ground station connected to it over one kind of link."""

    def __init__(self, kind: LinkKind) -> None:
        self.station: Station
        self.modem: NullModem | None = None
        if kind is LinkKind.SERIAL:
            # A pseudo-terminal null modem: the ground station opens its end as a USB board's port.
            self.modem = NullModem(Path(tempfile.mkdtemp(prefix="amc-rc-receiver-serial-")), baudrate=115200)
            self.modem.plug()
            self.demo = DemoSystem(
                endpoint=LinkEndpoint(LinkKind.SERIAL, path=str(self.modem.vehicle_path), baudrate=115200)
            )
            self.demo.start()
            self.station = Station(str(self.modem.station_path))
        elif kind is LinkKind.UDP_OUT:
            # The ground station listens first; the vehicle sends to it unasked.
            self.station = Station("udpin:127.0.0.1:0")
            self.demo = DemoSystem(endpoint=_loopback(kind, self.station.local_port))
            self.demo.start()
            # A listening ground station can only answer once it has heard the vehicle's address.
            self.station.wait_for_type("HEARTBEAT")
        else:
            self.demo = DemoSystem(endpoint=_loopback(kind))
            self.demo.start()
            self.station = Station(self.demo.device)
            if kind is LinkKind.UDP_IN:
                self.station.heartbeat()  # a udpin port answers whoever spoke last

    def close(self) -> None:
        self.station.close()
        self.demo.stop()
        if self.modem is not None:
            self.modem.close()
            shutil.rmtree(self.modem.folder, ignore_errors=True)


@pytest.fixture(params=list(LinkKind), ids=lambda kind: kind.value)
def served(request: pytest.FixtureRequest) -> Iterator[Served]:
    running = Served(request.param)
    try:
        yield running
    finally:
        running.close()


@pytest.fixture
def tcp_demo() -> Iterator[DemoSystem]:
    with DemoSystem(endpoint=_loopback(LinkKind.TCP_SERVER)) as demo:
        yield demo


@pytest.fixture
def tcp_station(tcp_demo: DemoSystem) -> Iterator[Station]:
    station = Station(tcp_demo.device)
    try:
        yield station
    finally:
        station.close()


def _rc_bits(status: Any) -> tuple[bool, bool, bool]:
    return (
        bool(status.onboard_control_sensors_present & RC_BIT),
        bool(status.onboard_control_sensors_enabled & RC_BIT),
        bool(status.onboard_control_sensors_health & RC_BIT),
    )


def _statustext(text: str) -> Callable[[Any], bool]:
    return lambda m: m.get_type() == "STATUSTEXT" and m.text == text


def _download_parameter_list(station: Station) -> dict[int, Any]:
    station.send(station.mav.param_request_list_encode(1, 1))
    by_index: dict[int, Any] = {}
    first = station.wait_for_type("PARAM_VALUE")
    by_index[first.param_index] = first
    while len(by_index) < first.param_count:
        message = station.wait_for_type("PARAM_VALUE")
        by_index[message.param_index] = message
    return by_index


# ------------------------------------------------------------------ every kind of link


def test_a_ground_station_hears_an_ardupilot_quadrotor_heartbeat_first(served: Served) -> None:
    """
    GIVEN the demo served on tcp, udpin or udpout and a pymavlink ground station on that link
    WHEN the first messages arrive
    THEN the very first is a MAVLink 2 HEARTBEAT of an ArduPilot quadrotor, system 1 component 1.
    """
    heartbeat = served.station.wait_for_message(is_type("HEARTBEAT"), "a heartbeat", rescan=True)
    assert served.station.log[0] is heartbeat
    assert heartbeat.type == mavlink2.MAV_TYPE_QUADROTOR
    assert heartbeat.autopilot == mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA
    assert (heartbeat.get_srcSystem(), heartbeat.get_srcComponent()) == (1, 1)
    assert heartbeat.get_msgbuf()[0] == 0xFD


def test_request_message_is_acknowledged_then_answered_with_autopilot_version(served: Served) -> None:
    """
    GIVEN a ground station that heard the vehicle
    WHEN it sends MAV_CMD_REQUEST_MESSAGE for AUTOPILOT_VERSION
    THEN the ACK is ACCEPTED and AUTOPILOT_VERSION says ArduPilot 4.6.2 (official) on a CubeOrange
    (APJ board 140, USB 2DAE:1016) that supports MAVLink 2, float parameters and MAVLink FTP.
    """
    station = served.station
    station.wait_for_type("HEARTBEAT")
    station.command(mavlink2.MAV_CMD_REQUEST_MESSAGE, mavlink2.MAVLINK_MSG_ID_AUTOPILOT_VERSION)
    ack = station.wait_for_message(is_ack(mavlink2.MAV_CMD_REQUEST_MESSAGE), "the REQUEST_MESSAGE ACK")
    assert ack.result == mavlink2.MAV_RESULT_ACCEPTED
    assert (ack.target_system, ack.target_component) == (255, 190)
    version = station.wait_for_type("AUTOPILOT_VERSION")
    assert version.flight_sw_version == (4 << 24) | (6 << 16) | (2 << 8) | 255
    assert version.board_version >> 16 == 140
    assert (version.vendor_id, version.product_id) == (0x2DAE, 0x1016)
    for capability in (
        mavlink2.MAV_PROTOCOL_CAPABILITY_MAVLINK2,
        mavlink2.MAV_PROTOCOL_CAPABILITY_PARAM_FLOAT,
        mavlink2.MAV_PROTOCOL_CAPABILITY_FTP,
    ):
        assert version.capabilities & capability
    assert any(version.uid2)


def test_the_banner_names_firmware_chibios_board_and_frame_in_order(served: Served) -> None:
    """
    GIVEN a ground station that heard the vehicle and knows its AUTOPILOT_VERSION
    WHEN it sends MAV_CMD_DO_SEND_BANNER
    THEN the ACK is ACCEPTED and STATUSTEXT brings "ArduCopter V4.6.2 (<git hash>)", "ChibiOS: <hash>"
    matching os_custom_version, the board name with its unique id, and "Frame: QUAD/X", in that order.
    """
    station = served.station
    station.wait_for_type("HEARTBEAT")
    station.command(mavlink2.MAV_CMD_REQUEST_MESSAGE, mavlink2.MAVLINK_MSG_ID_AUTOPILOT_VERSION)
    version = station.wait_for_type("AUTOPILOT_VERSION")
    station.command(mavlink2.MAV_CMD_DO_SEND_BANNER)
    assert station.wait_for_message(is_ack(mavlink2.MAV_CMD_DO_SEND_BANNER), "banner ACK").result == 0
    lines = [m.text for m in station.collect(is_type("STATUSTEXT"), 5, "the banner")]
    git_hash = bytes(version.flight_custom_version).decode()
    chibios_hash = bytes(version.os_custom_version).decode()
    assert lines[0] == f"ArduCopter V4.6.2 ({git_hash})"
    assert lines[1] == f"ChibiOS: {chibios_hash}"
    assert lines[2].split()[0] == "CubeOrange"
    assert len(lines[2].split()) == 4
    assert lines[4] == "Frame: QUAD/X"


def test_the_full_parameter_list_arrives_with_every_index_once_and_consistent_counts(served: Served) -> None:
    """
    GIVEN a ground station that heard the vehicle
    WHEN it sends PARAM_REQUEST_LIST
    THEN PARAM_VALUE arrives for every index 0..param_count-1, each with the same param_count, a
    valid ArduPilot type, whole numbers for integer types, and the receiver parameters among them.
    """
    by_index = _download_parameter_list(served.station)
    count = len(COPTER_PARAMETERS)
    assert sorted(by_index) == list(range(count))
    assert {m.param_count for m in by_index.values()} == {count}
    assert {m.param_type for m in by_index.values()} <= PARAM_TYPES
    names = {m.param_id: m for m in by_index.values()}
    assert len(names) == count
    for message in by_index.values():
        if message.param_type != mavlink2.MAV_PARAM_TYPE_REAL32:
            assert message.param_value == int(message.param_value)
    assert set(RECEIVER_PARAMETERS) <= set(names)
    assert names["RC_FS_TIMEOUT"].param_value == pytest.approx(1.0)
    assert names["FS_THR_VALUE"].param_value == 975
    assert names["FRAME_CLASS"].param_value == 1


def test_param_request_read_answers_by_name_and_by_index(served: Served) -> None:
    """
    GIVEN a ground station that heard the vehicle
    WHEN it reads FS_THR_VALUE by name (index -1) and then index 0
    THEN each answer is the one PARAM_VALUE asked for, with its index and the total count.
    """
    station = served.station
    station.wait_for_type("HEARTBEAT")
    store = default_parameters()
    station.send(station.mav.param_request_read_encode(1, 1, b"FS_THR_VALUE", -1))
    by_name = station.wait_for_type("PARAM_VALUE")
    expected = store.by_name("FS_THR_VALUE")
    assert expected is not None
    assert (by_name.param_id, by_name.param_value, by_name.param_index) == (
        "FS_THR_VALUE",
        975,
        expected.index,
    )
    assert by_name.param_count == store.count
    station.send(station.mav.param_request_read_encode(1, 1, b"", 0))
    by_index = station.wait_for_type("PARAM_VALUE")
    assert (by_index.param_id, by_index.param_index) == ("FORMAT_VERSION", 0)


def test_rc_channels_stream_after_set_message_interval_and_failsafe_follows_the_transmitter(
    served: Served,
) -> None:
    """
    GIVEN a ground station that asked for RC_CHANNELS and SYS_STATUS every 200000 µs (ACCEPTED)
    WHEN the transmitter is switched off and later on again
    THEN RC_CHANNELS carry 8 channels, the receiver turns unhealthy with "Radio Failsafe - Disarming"
    while staying present, and recovers with "Radio Failsafe Cleared".
    """
    station = served.station
    station.wait_for_type("HEARTBEAT")
    for message_id in (mavlink2.MAVLINK_MSG_ID_RC_CHANNELS, mavlink2.MAVLINK_MSG_ID_SYS_STATUS):
        station.command(mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL, message_id, 200_000)
        ack = station.wait_for_message(is_ack(mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL), "interval ACK")
        assert ack.result == mavlink2.MAV_RESULT_ACCEPTED
    channels = station.wait_for_message(
        lambda m: m.get_type() == "RC_CHANNELS" and m.chancount > 0, "RC_CHANNELS"
    )
    assert channels.chancount == 8
    station.wait_for_message(lambda m: m.get_type() == "SYS_STATUS" and _rc_bits(m)[2], "a healthy receiver")

    served.demo.set_transmitter_on(False)
    station.wait_for_message(_statustext(RADIO_FAILSAFE_TEXT), "the failsafe text")
    status = station.wait_for_message(
        lambda m: m.get_type() == "SYS_STATUS" and not _rc_bits(m)[2], "failsafe"
    )
    assert _rc_bits(status) == (True, True, False)

    served.demo.set_transmitter_on(True)
    station.wait_for_message(_statustext(RADIO_FAILSAFE_CLEARED_TEXT), "the recovery text")
    station.wait_for_message(lambda m: m.get_type() == "SYS_STATUS" and _rc_bits(m)[2], "recovery")


def test_param_set_is_refused_with_the_unchanged_value(served: Served) -> None:
    """
    GIVEN a ground station that heard the vehicle
    WHEN it sends PARAM_SET RC_FS_TIMEOUT 2.5
    THEN the vehicle says "Param write denied (RC_FS_TIMEOUT)" and echoes the unchanged 1.0,
    AND a later read still gives 1.0.
    """
    station = served.station
    station.wait_for_type("HEARTBEAT")
    station.send(station.mav.param_set_encode(1, 1, b"RC_FS_TIMEOUT", 2.5, mavlink2.MAV_PARAM_TYPE_REAL32))
    station.wait_for_message(_statustext("Param write denied (RC_FS_TIMEOUT)"), "the refusal")
    echo = station.wait_for_type("PARAM_VALUE")
    assert (echo.param_id, echo.param_value) == ("RC_FS_TIMEOUT", 1.0)
    station.send(station.mav.param_request_read_encode(1, 1, b"RC_FS_TIMEOUT", -1))
    assert station.wait_for_type("PARAM_VALUE").param_value == 1.0


def test_request_data_stream_starts_and_stops_rc_channels(served: Served) -> None:
    """
    GIVEN a ground station using the legacy REQUEST_DATA_STREAM (as MAVProxy does)
    WHEN it starts the RC_CHANNELS stream at 10 Hz, then stops it
    THEN RC_CHANNELS arrive, and none follow the ACK of a command sent right after the stop
    (the vehicle handles a link's messages in order, so that ACK marks the moment of the stop).
    """
    station = served.station
    station.wait_for_type("HEARTBEAT")
    station.send(station.mav.request_data_stream_encode(1, 1, mavlink2.MAV_DATA_STREAM_RC_CHANNELS, 10, 1))
    station.wait_for_type("RC_CHANNELS")
    assert served.demo.vehicle.stream_rates()[mavlink2.MAVLINK_MSG_ID_RC_CHANNELS] == 10.0
    station.send(station.mav.request_data_stream_encode(1, 1, mavlink2.MAV_DATA_STREAM_RC_CHANNELS, 10, 0))
    station.command(mavlink2.MAV_CMD_REQUEST_MESSAGE, mavlink2.MAVLINK_MSG_ID_HEARTBEAT)
    fence = station.wait_for_message(is_ack(mavlink2.MAV_CMD_REQUEST_MESSAGE), "the fence ACK")
    station.collect(is_type("HEARTBEAT"), 3, "heartbeats after the stop")
    after = station.log[station.log.index(fence) :]
    assert "RC_CHANNELS" not in [m.get_type() for m in after]
    assert served.demo.vehicle.stream_rates()[mavlink2.MAVLINK_MSG_ID_RC_CHANNELS] == 0.0


# ------------------------------------------------------------------ TCP server behaviour


def test_a_second_tcp_client_is_served_after_the_first_disconnects(tcp_demo: DemoSystem) -> None:
    """
    GIVEN the demo served as a TCP server and a first client that read a parameter and hung up
    WHEN a second client connects
    THEN it gets its own heartbeat first and its own answers.
    """
    first = Station(tcp_demo.device)
    try:
        first.wait_for_type("HEARTBEAT")
        first.send(first.mav.param_request_read_encode(1, 1, b"RC_PROTOCOLS", -1))
        assert first.wait_for_type("PARAM_VALUE").param_value == 1
    finally:
        first.close()
    second = Station(tcp_demo.device)
    try:
        heartbeat = second.wait_for_type("HEARTBEAT")
        assert second.log[0] is heartbeat
        second.send(second.mav.param_request_read_encode(1, 1, b"RCMAP_THROTTLE", -1))
        assert second.wait_for_type("PARAM_VALUE").param_value == 3
    finally:
        second.close()


def test_a_tcp_client_that_arrives_while_another_is_served_waits_its_turn(tcp_demo: DemoSystem) -> None:
    """
    GIVEN a TCP client being served (like SITL, one client at a time)
    WHEN a second client connects, and later the first hangs up
    THEN the second hears nothing while the first is served, and is served once the first left.
    """
    first = Station(tcp_demo.device)
    second = Station(tcp_demo.device)
    try:
        first.collect(is_type("HEARTBEAT"), 2, "two heartbeats on the first client")
        assert second.read_available() == []
        first.close()
        assert second.wait_for_type("HEARTBEAT").autopilot == mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA
    finally:
        first.close()
        second.close()


# ------------------------------------------------------------------ MAVFTP


class FtpClient:
    """The request side of MAVFTP, written from the protocol description, over a Station."""

    def __init__(self, station: Station) -> None:
        self.station = station
        self.seq = 0

    def request(
        self, opcode: int, data: bytes = b"", *, session: int = 0, size: int | None = None, offset: int = 0
    ) -> int:
        seq = self.seq
        self.seq += 1
        header = FTP_HEADER.pack(seq, session, opcode, len(data) if size is None else size, 0, 0, 0, offset)
        payload = (header + data).ljust(251, b"\x00")
        self.station.send(self.station.mav.file_transfer_protocol_encode(0, 1, 1, list(payload)))
        return seq

    def reply(self, seq: int) -> tuple[int, int, int, int, int, bytes]:
        """(opcode, req_opcode, burst_complete, offset, seq, data) of the reply numbered ``seq + 1``."""
        message = self.station.wait_for_message(
            lambda m: m.get_type() == "FILE_TRANSFER_PROTOCOL" and _ftp_fields(m)[4] == (seq + 1) & 0xFFFF,
            f"the FTP reply to request {seq}",
        )
        return _ftp_fields(message)

    def call(self, opcode: int, data: bytes = b"", **fields: int) -> tuple[int, int, int, int, int, bytes]:
        return self.reply(self.request(opcode, data, **fields))

    def download(self, path: str) -> bytes:
        assert self.call(FtpOp.RESET_SESSIONS)[0] == FtpOp.ACK
        opened = self.call(FtpOp.OPEN_FILE_RO, path.encode(), session=7)
        assert opened[0] == FtpOp.ACK, opened
        (size,) = struct.unpack("<I", opened[5])
        content = bytearray()
        seq = self.request(FtpOp.BURST_READ_FILE, session=7, size=239, offset=0)
        self.seq += 10_000  # burst replies carry their own sequence numbers
        while True:
            seq += 1
            opcode, req_opcode, _burst, offset, _seq, data = self.reply(seq - 1)
            assert req_opcode == FtpOp.BURST_READ_FILE
            if opcode == FtpOp.NACK:
                assert data[0] == FtpError.END_OF_FILE
                break
            assert offset == len(content)
            content += data
        assert len(content) == size
        assert self.call(FtpOp.TERMINATE_SESSION, session=7)[0] == FtpOp.ACK
        return bytes(content)


def _ftp_fields(message: Any) -> tuple[int, int, int, int, int, bytes]:
    payload = bytes(message.payload)
    seq, _session, opcode, size, req_opcode, burst_complete, _pad, offset = FTP_HEADER.unpack_from(payload)
    return opcode, req_opcode, burst_complete, offset, seq, payload[12 : 12 + size]


def test_parameters_and_defaults_download_as_param_pck_over_mavftp(tcp_station: Station) -> None:
    """
    GIVEN a ground station on the TCP server (as the methodic configurator downloads parameters)
    WHEN it reads @PARAM/param.pck?withdefaults=1 with OpenFileRO and one BurstReadFile
    THEN the packed file ends in an EndOfFile NAK and holds every parameter with the value
    PARAM_VALUE reports, and a default only where they differ (FRAME_CLASS 1, default 0; RSSI_TYPE 3,
    since the demo's receiver reports RSSI through its protocol, default 0).
    """
    tcp_station.wait_for_type("HEARTBEAT")
    packed = decode_param_pck(FtpClient(tcp_station).download("@PARAM/param.pck?withdefaults=1")).values
    listed = {m.param_id: m.param_value for m in _download_parameter_list(tcp_station).values()}
    assert {name: value for name, (_kind, value, _default) in packed.items()} == pytest.approx(listed)
    defaults = {name: default for name, (_kind, _value, default) in packed.items() if default is not None}
    assert defaults == {"FRAME_CLASS": 0.0, "RSSI_TYPE": 0.0}


def test_mavftp_refuses_what_a_read_only_vehicle_cannot_do(tcp_station: Station) -> None:
    """
    GIVEN a ground station on the TCP server
    WHEN it opens a missing file, reads without a session, creates a file and sends an unknown opcode
    THEN the answers are NAKs FileNotFound, InvalidSession, FileProtected and UnknownCommand,
    AND a repeated request (its reply lost) gets the very same reply again.
    """
    tcp_station.wait_for_type("HEARTBEAT")
    ftp = FtpClient(tcp_station)
    missing = ftp.call(FtpOp.OPEN_FILE_RO, b"@SYS/nothing.txt")
    assert (missing[0], missing[5][0]) == (FtpOp.NACK, FtpError.FILE_NOT_FOUND)
    read = ftp.call(FtpOp.READ_FILE, session=3, size=10)
    assert (read[0], read[5][0]) == (FtpOp.NACK, FtpError.INVALID_SESSION)
    created = ftp.call(FtpOp.CREATE_FILE, b"/APM/new.txt")
    assert (created[0], created[5][0]) == (FtpOp.NACK, FtpError.FILE_PROTECTED)
    unknown = ftp.call(99)
    assert (unknown[0], unknown[5][0]) == (FtpOp.NACK, FtpError.UNKNOWN_COMMAND)
    opened = ftp.call(FtpOp.OPEN_FILE_RO, b"@PARAM/param.pck", session=1)
    ftp.seq -= 1  # the same request again, as a client does when the reply was lost
    assert ftp.call(FtpOp.OPEN_FILE_RO, b"@PARAM/param.pck", session=1) == opened


# ------------------------------------------------------------------ robustness


class _FailingReads(ParameterStore):
    def lookup(self, name: str, index: int) -> Any:
        raise RuntimeError(f"simulated fault reading {name!r}")


def test_junk_and_a_failing_handler_never_stop_the_vehicle() -> None:
    """
    GIVEN a vehicle on a udpin port whose parameter reads fail with an exception
    WHEN a ground station sends junk bytes, a truncated FTP request and a PARAM_REQUEST_READ
    THEN the failure is counted, and the vehicle still answers REQUEST_MESSAGE afterwards.
    """
    store = _FailingReads(COPTER_PARAMETERS)
    with SimulatedVehicle(endpoint=_loopback(LinkKind.UDP_IN), parameters=store) as vehicle:
        station = Station(vehicle.device)
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as junk:
                junk.sendto(b"\xfd\x09garbage" * 20, vehicle.address)
            station.heartbeat()
            station.wait_for_type("HEARTBEAT")
            station.send(station.mav.file_transfer_protocol_encode(0, 1, 1, [0] * 251))
            station.send(station.mav.param_request_read_encode(1, 1, b"RC_PROTOCOLS", -1))
            wait_for(lambda: vehicle.handler_errors == 1, "the failure to be counted")
            assert "simulated fault" in (vehicle.last_handler_error or "")
            station.command(mavlink2.MAV_CMD_REQUEST_MESSAGE, mavlink2.MAVLINK_MSG_ID_AUTOPILOT_VERSION)
            station.wait_for_type("AUTOPILOT_VERSION")
        finally:
            station.close()


# ------------------------------------------------------------------ the serve_demo() program


def _run_in_thread(target: Callable[[], int]) -> tuple[threading.Thread, list[int]]:
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(target()), daemon=True)
    thread.start()
    return thread, result


def _free_tcp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_serve_demo_announces_its_address_serves_and_follows_the_transmitter_schedule() -> None:
    """
    GIVEN serve_demo on tcp:127.0.0.1:<free port> with the transmitter scheduled off after 0.5 s
    WHEN a ground station connects, asks for SYS_STATUS, and serving is stopped
    THEN one line names the address and how to switch the transmitter, the station sees the switch
    as RC failsafe, the switch is printed, and serve_demo returns 0.
    """
    port = _free_tcp_port()
    out, err, stop = io.StringIO(), io.StringIO(), threading.Event()
    thread, result = _run_in_thread(
        lambda: serve_demo(
            f"tcp:127.0.0.1:{port}",
            schedule=TransmitterSchedule(off_after=0.5, off_for=None),
            out=out,
            err=err,
            stdin=io.StringIO(),
            stop=stop,
        )
    )
    try:
        wait_for(lambda: "\n" in out.getvalue(), "the announcement")
        announcement = out.getvalue().splitlines()[0]
        assert f"127.0.0.1:{port}" in announcement
        assert f"tcp:127.0.0.1:{port}" in announcement
        assert "--transmitter-off-after" in announcement
        station = Station(f"tcp:127.0.0.1:{port}")
        try:
            station.wait_for_type("HEARTBEAT")
            station.command(
                mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL, mavlink2.MAVLINK_MSG_ID_SYS_STATUS, 100_000
            )
            station.wait_for_message(
                lambda m: m.get_type() == "SYS_STATUS" and _rc_bits(m) == (True, True, False), "failsafe"
            )
        finally:
            station.close()
        assert "Transmitter switched off" in out.getvalue()
    finally:
        stop.set()
        thread.join(DEADLINE_S)
    assert result == [0]
    assert err.getvalue() == ""


@pytest.mark.parametrize(
    ("device", "code", "message"),
    [
        pytest.param("serial:/dev/ttyS0", 2, "tcp:HOST:PORT", id="unknown scheme"),
        pytest.param("tcp:127.0.0.1:http", 2, "port must be a number", id="port not a number"),
        pytest.param("udpout:127.0.0.1:0", 2, "1..65535", id="udpout needs a port"),
    ],
)
def test_serve_demo_explains_a_device_it_cannot_serve(device: str, code: int, message: str) -> None:
    """GIVEN a device string that names no servable port WHEN serve_demo starts THEN it says why, exit 2."""
    err = io.StringIO()
    assert serve_demo(device, out=io.StringIO(), err=err, stdin=io.StringIO()) == code
    assert message in err.getvalue()


@pytest.mark.skipif(os.name != "posix", reason="serial devices are served on Linux and macOS only")
@pytest.mark.parametrize("kind", ["regular file", "/dev/null", "FIFO"])
def test_serve_demo_refuses_what_is_no_serial_port_before_touching_it(tmp_path: Path, kind: str) -> None:
    """
    GIVEN a regular file with contents, /dev/null, or a FIFO with a reader waiting on it
    WHEN serve_demo is asked to serve on that path
    THEN it returns at once with 2 (a wrong command line) and our sentence, no traceback, and
         nothing was written to the path.
    """
    reader: int | None = None
    if kind == "regular file":
        path = tmp_path / "notes.txt"
        path.write_text("keep me\n", encoding="utf-8")
    elif kind == "FIFO":
        path = tmp_path / "pipe"
        os.mkfifo(path)
        reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    else:
        path = Path(kind)
    out, err = io.StringIO(), io.StringIO()
    try:
        # On a thread, so that a serve_demo that waited on the FIFO fails this test instead of hanging it.
        thread, result = _run_in_thread(lambda: serve_demo(str(path), out=out, err=err, stdin=io.StringIO()))
        thread.join(DEADLINE_S)

        assert result == [2]
        assert err.getvalue() == (
            f"Cannot serve on {path}: it is not a serial port; name a terminal device such as "
            "/dev/ttyUSB0, or one end of a pseudo-terminal pair\n"
        )
        assert out.getvalue() == ""
        if reader is not None:
            assert os.read(reader, 100) == b""  # no writer ever came: end of file, nothing queued
        if kind == "regular file":
            assert path.read_text(encoding="utf-8") == "keep me\n"
    finally:
        if reader is not None:
            os.close(reader)


def test_serve_demo_reports_a_port_in_use_and_exits_1() -> None:
    """GIVEN a TCP port another program listens on WHEN serve_demo should serve it THEN exit 1 and why."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        err = io.StringIO()
        assert serve_demo(f"tcp:127.0.0.1:{port}", out=io.StringIO(), err=err, stdin=io.StringIO()) == 1
    assert f"tcp:127.0.0.1:{port}" in err.getvalue()


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal for stdin")
def test_pressing_enter_on_a_terminal_switches_the_transmitter_off_and_on() -> None:
    """
    GIVEN serve_demo whose stdin is a terminal
    WHEN Enter is pressed twice
    THEN the announcement says Enter switches the transmitter, and it is switched off, then on.
    """
    controller, terminal = os.openpty()
    out, stop = io.StringIO(), threading.Event()
    with os.fdopen(terminal, "r", encoding="utf-8") as stdin:
        thread, result = _run_in_thread(
            lambda: serve_demo("udpin:127.0.0.1:0", out=out, err=io.StringIO(), stdin=stdin, stop=stop)
        )
        try:
            wait_for(lambda: "\n" in out.getvalue(), "the announcement")
            assert "press Enter" in out.getvalue()
            os.write(controller, b"\n")
            wait_for(lambda: "Transmitter switched off" in out.getvalue(), "the switch-off")
            os.write(controller, b"\n")
            wait_for(lambda: "Transmitter switched on" in out.getvalue(), "the switch-on")
        finally:
            stop.set()
            thread.join(DEADLINE_S)
            os.close(controller)
    assert result == [0]


def test_pymavlinks_own_ftp_client_asking_for_one_byte_chunks_gets_the_file_in_few_replies(
    tcp_demo: DemoSystem, tmp_path: Path
) -> None:
    """
    GIVEN pymavlink's MAVFTP client (the one the methodic configurator uses) set to burst reads of
          1 byte, connected to the demo's TCP server
    WHEN it downloads @PARAM/param.pck
    THEN the file arrives whole, in chunks of at least MIN_BURST_CHUNK bytes: about one reply per
         80 bytes instead of one per byte (2838 replies for the 2835-byte file before)
    """
    master = mavutil.mavlink_connection(tcp_demo.device, source_system=255)
    try:
        master.wait_heartbeat(timeout=DEADLINE_S)
        settings = MAVFTPSettings(
            [
                ("debug", int, 0),
                ("pkt_loss_tx", int, 0),
                ("pkt_loss_rx", int, 0),
                ("max_backlog", int, 5),
                ("burst_read_size", int, 1),
                ("write_size", int, 80),
                ("write_qsize", int, 5),
                ("idle_detection_time", float, 1.2),
                ("read_retry_time", float, 1.0),
                ("retry_time", float, 0.5),
            ]
        )
        ftp = MAVFTP(master, master.target_system, master.target_component, settings=settings)
        replies = 0
        receive = master.recv_match

        def counting_recv_match(*args: Any, **kwargs: Any) -> Any:
            nonlocal replies
            message = receive(*args, **kwargs)
            if message is not None and message.get_type() == "FILE_TRANSFER_PROTOCOL":
                replies += 1
            return message

        master.recv_match = counting_recv_match
        local = tmp_path / "param.pck"
        started = ftp.cmd_get(["@PARAM/param.pck", str(local)])
        result = ftp.process_ftp_reply(started.operation_name, timeout=DEADLINE_S)
    finally:
        master.close()

    assert result.error_code == 0
    packed = decode_param_pck(local.read_bytes()).values
    assert "RC_PROTOCOLS" in packed
    size = local.stat().st_size
    # One ACK per chunk, the EndOfFile NAK, the open and the terminate replies.
    assert replies <= -(-size // MIN_BURST_CHUNK) + 4


@pytest.mark.parametrize(("device", "said"), [("udpin:127.0.0.1:0", False), ("udpin:127.0.0.2:0", True)])
def test_serving_beyond_the_loopback_is_said_once(
    device: str, said: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """
    GIVEN serve_demo on 127.0.0.1, and on 127.0.0.2 made to stand for a network address (tests bind
          only on loopback)
    WHEN it serves for a moment
    THEN only the second says, once, that other computers on the network can reach its port
    """
    monkeypatch.setattr(host_port, "is_loopback_host", lambda host: host != "127.0.0.2")
    err = io.StringIO()

    assert serve_demo(device, duration=0.3, out=io.StringIO(), err=err, stdin=io.StringIO()) == 0

    assert err.getvalue().count("other computers on the network can reach it") == (1 if said else 0)


def test_serve_demo_refuses_ipv6_at_once_in_our_words() -> None:
    """GIVEN tcp:[::1]:P (it used to fail after parsing with a raw "[Errno -9]") WHEN served THEN exit 2."""
    err = io.StringIO()
    assert serve_demo("tcp:[::1]:5760", out=io.StringIO(), err=err, stdin=io.StringIO()) == 2
    assert "IPv4 only" in err.getvalue()
    assert "Errno" not in err.getvalue()
