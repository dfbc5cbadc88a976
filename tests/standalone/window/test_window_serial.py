# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window on a USB board: a live device list, and following the board through a replug.

The window is real (Tk under Xvfb); the board is the simulated vehicle on one end of a
pseudo-terminal null modem, the window on the other end, so every byte goes through the serial
code a USB board's bytes take.  Unplugging closes the pseudo-terminals, as the kernel closes a
vanished USB device.  The port list is a real pyserial record list that the test changes, as
udev's changes when a board is plugged in.
"""

from __future__ import annotations

import gc
import json
import sys
import time
import tkinter as tk
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from serial.tools.list_ports_common import ListPortInfo

from amc_rc_receiver.demo.mavlink_link import LinkEndpoint, LinkKind
from amc_rc_receiver.demo.system import DemoSystem
from amc_rc_receiver.plugins.frontend_tkinter_rc_receiver import RCReceiverView
from amc_rc_receiver.sitl.null_modem import STATION_TO_VEHICLE, NullModem
from amc_rc_receiver.sitl.runner import LAST_BYTES_QUIET_S
from amc_rc_receiver.standalone.port_watch import PortWatch
from amc_rc_receiver.standalone.session import VehicleSession
from amc_rc_receiver.standalone.window.connection_bar import ConnectionState
from amc_rc_receiver.standalone.window.window import StandaloneWindow
from tests.support.serial_wire import Wire, assert_only_reads_and_receiver_intervals
from tests.support.tk import pump_until

pytestmark = [
    pytest.mark.tk,
    pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX only"),
]

DEADLINE_S = 30.0
USB_CLOSED = "The flight controller's USB port closed: it may be rebooting or unplugged."


def usb_board(device: str, *, serial_number: str, vid: int = 0x1209, pid: int = 0x5740) -> ListPortInfo:
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid, info.serial_number = vid, pid, serial_number
    info.description = "n/a"
    return info


class Ports:
    """What pyserial lists, changed by the test as boards come and go."""

    def __init__(self) -> None:
        self.listed: list[ListPortInfo] = []

    def __call__(self) -> list[ListPortInfo]:
        return list(self.listed)


def wait(root: tk.Tk, condition: Callable[[], bool], what: str) -> None:
    assert pump_until(root, condition, DEADLINE_S), f"timed out waiting for {what}"


@pytest.fixture
def board(tmp_path: Path) -> Iterator[tuple[NullModem, DemoSystem, Wire]]:
    wire = Wire()
    modem = NullModem(tmp_path / "dev", baudrate=115200, tap=wire.tap)
    modem.plug()
    demo = DemoSystem(endpoint=LinkEndpoint(LinkKind.SERIAL, path=str(modem.vehicle_path), baudrate=115200))
    demo.start()
    try:
        yield modem, demo, wire
    finally:
        demo.stop()
        modem.close()


def live(view: object) -> bool:
    return isinstance(view, RCReceiverView) and view.channel_rows[0].text.endswith("µs")


def test_the_device_list_follows_boards_plugged_in_and_removed_flight_controllers_first(root: tk.Tk) -> None:
    """GIVEN the window with an FTDI adapter plugged in WHEN a CubeOrange is plugged in THEN it is
    offered, before the adapter; WHEN it is removed THEN it is no longer offered; and the listing ran
    on the port watch's thread, never on Tk's."""
    ports = Ports()
    ports.listed = [usb_board("/dev/ttyUSB0", serial_number="FT1", vid=0x0403, pid=0x6001)]
    window = StandaloneWindow(root, VehicleSession(), port_lister=ports, connect_timeout=1.0)
    bar = window.connection_bar
    try:
        wait(root, lambda: bar.ports == ("/dev/ttyUSB0",), "the adapter to be offered")
        ports.listed.append(usb_board("/dev/ttyACM0", serial_number="CUBE", vid=0x2DAE, pid=0x1016))
        wait(root, lambda: bar.ports == ("/dev/ttyACM0", "/dev/ttyUSB0"), "the CubeOrange, first")
        values = list(bar.device_combobox.cget("values"))
        assert values.index("/dev/ttyACM0") < values.index("/dev/ttyUSB0")
        ports.listed = ports.listed[:1]
        wait(root, lambda: bar.ports == ("/dev/ttyUSB0",), "the CubeOrange to go")
        assert "/dev/ttyACM0" not in list(bar.device_combobox.cget("values"))
    finally:
        window.close()  # destroys the root window too
        gc.collect()


def test_a_port_watch_whose_lister_fails_offers_nothing_and_keeps_watching() -> None:
    """GIVEN a lister that raises (a broken udev) WHEN looked at THEN no ports and no exception; once it
    works again THEN its ports are offered."""
    calls: list[int] = []

    def flaky() -> list[ListPortInfo]:
        calls.append(1)
        if len(calls) == 1:
            raise OSError("udev is gone")
        return [usb_board("/dev/ttyACM0", serial_number="AP1")]

    watch = PortWatch(flaky)
    watch.look()
    assert watch.latest() == ((), 0)
    watch.look()
    assert watch.latest() == (("/dev/ttyACM0",), 1)


def test_the_window_follows_a_usb_board_that_is_unplugged_and_plugged_in_again(
    board: tuple[NullModem, DemoSystem, Wire], tmp_path: Path, root: tk.Tk
) -> None:
    """GIVEN the window reading the simulated board over its USB serial line
    WHEN the cable is pulled
    THEN the window says the USB port closed and that it waits (in its bar, once: the check's
         notice does not repeat the event), clears the readings at once and closes the link
         (nothing can be sent);
    WHEN the board is plugged in again at the same path
    THEN the window connects by itself, says so, shows live channels of a fresh test, offers to save
         the report of the test before the reconnection, and saves it on request; on the wire the
         check only read and asked for the receiver streams, again after the replug."""
    modem, _demo, wire = board
    ports = Ports()
    ports.listed = [usb_board(str(modem.station_path), serial_number="AP1")]
    session = VehicleSession(list_ports=ports)
    window = StandaloneWindow(root, session, port_lister=ports, connect_timeout=DEADLINE_S)
    bar = window.connection_bar
    try:
        window.connect(str(modem.station_path), 115200)
        wait(root, lambda: live(window.host.active_view), "live channels over the serial line")
        unplugged_at = time.monotonic()
        modem.unplug()
        ports.listed = []
        wait(root, lambda: USB_CLOSED in bar.status_text, "the unplugged board to be said")
        assert "Waiting for it to come back" in bar.status_text
        assert bar.status_is_error
        assert session.flight_controller.master is None
        assert bar.connection_state is ConnectionState.DISCONNECTED
        assert not live(window.host.active_view)
        # One sentence per link event: the bar's; the check's notice does not say it again.
        assert window.host.active_view.notice.cget("text") == ""  # type: ignore[union-attr]
        modem.plug()
        ports.listed = [usb_board(str(modem.station_path), serial_number="AP1")]
        wait(root, lambda: "a fresh test started" in bar.status_text, "the reconnection")
        assert f"The flight controller is back on {modem.station_path}" in bar.status_text
        wait(root, lambda: live(window.host.active_view), "live channels after the replug")
        fresh = window.host.active_model.state  # type: ignore[attr-defined]
        assert fresh.test_started_at > unplugged_at
        assert [event.text for event in fresh.guided.link_events] == [bar.status_text]
        wait(root, lambda: bar.earlier_tests == 1, "the offer to save the earlier test")
        assert bar.earlier_button.winfo_ismapped()
        assert window.save_earlier_reports(str(tmp_path / "receiver"))
        earlier = json.loads((tmp_path / "receiver-before-reconnect-1.json").read_text(encoding="utf-8"))
        assert earlier["link"]["kind"] == "serial"
        assert earlier["timeline"][-1]["kind"] == "link"
        assert USB_CLOSED in earlier["timeline"][-1]["text"]
        assert "Saved the reports of the earlier tests" in bar.status_text
    finally:
        window.close()  # destroys the root window too
        gc.collect()
    # Its last requests were written on closing: the cable carries them at its baud rate.
    assert modem.wait_carried(STATION_TO_VEHICLE, DEADLINE_S, quiet_s=LAST_BYTES_QUIET_S)
    intervals = assert_only_reads_and_receiver_intervals(wire.sent_by_station())
    assert intervals.count((65, 200_000)) >= 2
    assert intervals.count((1, 200_000)) >= 2
    assert intervals[-2:] == [(65, 0), (1, 0)]
