# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The check follows real ArduPilot SITL through a reboot on every kind of link.

The receiver workflow reboots the board (upload the receiver parameters, reboot, check).  Each
test reboots SITL while the check runs, and the check must find it again by itself, say so in its
own words, ask for its streams again and run a fresh test in which the transmitter (switched by
the check's own SITL runner, as ``--sitl`` does) gives RC failsafe and the recovery: PASSED, exit 0.

- serial, the device path disappearing and returning: SERIAL0 on a pseudo-terminal null modem
  that is unplugged while SITL restarts, as a USB board's device is (`amc-rc-receiver --sitl
  --sitl-link serial`, a user's command line, at 57600 baud);
- serial, the same board returning under another name (``ttyACM1``), found in the port list by
  its USB identity (in-process, at 115200 baud, with a wire tap proving what the check sent);
- UDP: SITL sends to the check's ``udpin`` port; a reboot closes nothing, so the check must see it
  from the vehicle itself (its ids arriving from a new port, its clock starting again);
- TCP is tests/e2e/test_sitl.py's killed-SITL test (SITL's socket closes, then accepts again).

Whole outputs are read: no pymavlink or pyserial text may reach the user.  Skipped, saying why,
where ``../shared/sitl/`` is absent; instances 40-42 (or 140… when taken) are used only here.
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from amc_rc_receiver.sitl.config import SitlConfig, SitlLink
from amc_rc_receiver.standalone.link_follower import LinkFollower
from amc_rc_receiver.standalone.link_watch import RestartWatch
from amc_rc_receiver.standalone.session import VehicleSession
from amc_rc_receiver.standalone.terminal.app import NO_SCHEDULE, run_text, run_text_session
from tests.e2e.test_serial_links import assert_streams_asked_for_and_live
from tests.e2e.test_sitl import (
    ANNOUNCED_PROTOCOL,
    RUN_DEADLINE_S,
    SWITCHED_OFF,
    SWITCHED_ON,
    after,
    assert_in_order,
    channel_readings,
    cli_run,
)
from tests.support.serial_wire import Wire, assert_no_raw_link_text, assert_only_reads_and_receiver_intervals
from tests.support.sitl import free_instance, sitl_binary, sitl_processes
from tests.support.waiting import poll_until

pytestmark = [
    pytest.mark.sitl,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SITL binaries are Linux x86-64"),
]

WAIT_S = 90.0
USB_CLOSED = "The flight controller's USB port closed: it may be rebooting or unplugged."
# The program switches its transmitter when the fresh test asks, and the run ends at the verdict.
FAILSAFE_CYCLE = [
    SWITCHED_OFF,
    "* RC failsafe is now ACTIVE",
    SWITCHED_ON,
    "* Recovery observed at",
    "Verdict: PASSED",
]
STARTED = re.compile(r"Started SITL \(process (\d+)\)")


class Output(io.StringIO):
    """The terminal view's output, written by the run's thread and read by the test's."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()

    def write(self, text: str) -> int:
        with self._lock:
            return super().write(text)

    @property
    def text(self) -> str:
        with self._lock:
            return self.getvalue()

    def isatty(self) -> bool:
        return False


class Run(threading.Thread):
    """A terminal-view run on its own thread; ``code`` once it has ended."""

    def __init__(self, target: Callable[[], int]) -> None:
        super().__init__(daemon=True)
        self._run = target
        self.code: int | None = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.code = self._run()
        except BaseException as error:  # reported by the test, not lost in a thread
            self.error = error


def wait_for_text(
    output: Output, run: Run, condition: Callable[[str], bool], what: str, deadline_s: float = WAIT_S
) -> str:
    """The run's output once ``condition`` holds for it; fails the test if the run ends first."""

    def seen(text: str) -> bool:
        if condition(text):
            return True
        if not run.is_alive():
            pytest.fail(f"{what} did not happen (the run ended: {run.error!r})\n{text}")
        return False

    return poll_until(lambda: output.text, seen, what, deadline_s, interval_s=0.05)


def live_channels(text: str) -> bool:
    return len(set(channel_readings(text))) >= 3


def assert_the_reboot_was_followed_by_a_passed_test(out: str, back_marker: str) -> None:
    assert_in_order(
        out, [back_marker, "the streams are asked for again and a fresh test started.", *FAILSAFE_CYCLE]
    )
    # The restarted SITL announced its receiver protocol to the check's new link.
    assert ANNOUNCED_PROTOCOL in after(out, back_marker), out
    fresh = after(out, "a fresh test started.")
    before_off = fresh[: fresh.index(SWITCHED_OFF)]
    assert live_channels(before_off), before_off
    assert_streams_asked_for_and_live(fresh)
    assert "Earlier test 1 (before the link was re-established)" in out
    assert_no_raw_link_text(out)
    # One sentence per link event: the follower's; the model's side of it stays in the status line.
    events = [line.split("] * ", 1)[1] for line in out.splitlines() if "] * " in line]
    echoes = (
        "Link error",
        "Link restored",
        "is now unknown",
        "controller: unknown",
        "send failed",
        "not requested",
    )
    assert [event for event in events if any(echo in event for echo in echoes)] == [], out


def test_a_usb_board_rebooting_at_its_path_is_followed_and_passes_at_57600_baud(tmp_path: Path) -> None:
    """GIVEN `amc-rc-receiver --sitl arducopter --sitl-link serial --baudrate 57600 --text`, the check
    reading SITL over a pseudo-terminal serial line
    WHEN SITL dies and restarts, its serial device vanishing meanwhile and returning at its path
    THEN the check says the USB port closed (or that SITL restarted), waits, connects again when the
    device is back, reads both streams at 5 Hz again, runs a fresh test that passes with failsafe
    and recovery, exits 0, writes the earlier test's report beside the new one, and prints nothing
    of pymavlink's."""
    binary = sitl_binary("arducopter")
    instance = free_instance(40)
    report = tmp_path / "report"
    run = cli_run(
        [
            "--sitl",
            "../shared/sitl/arducopter",
            "--instance",
            str(instance),
            "--sitl-link",
            "serial",
            "--baudrate",
            "57600",
            "--text",
            "--report",
            str(report),
        ]
    )
    try:
        text = run.wait_for_output(live_channels, "live channels over the serial line")
        first = int(STARTED.search(text).group(1))  # type: ignore[union-attr]
        os.kill(first, signal.SIGKILL)
        code = run.wait(RUN_DEADLINE_S)
        out = run.stdout
        err = run.stderr
    finally:
        run.end()
    assert code == 0, f"{out}\n{err}"
    device = re.search(r"Connecting to (\S+ttyACM0) \.\.\.", out)
    assert device is not None, out
    loss = out.find(USB_CLOSED) if USB_CLOSED in out else out.find("* SITL restarted.")
    assert loss >= 0, out
    assert_the_reboot_was_followed_by_a_passed_test(
        out[loss:], f"The flight controller is back on {device.group(1)}"
    )
    assert_no_raw_link_text(err)
    earlier = json.loads((tmp_path / "report-before-reconnect-1.json").read_text(encoding="utf-8"))
    assert earlier["link"]["kind"] == "serial"
    assert [event["kind"] for event in earlier["timeline"]][-1:] == ["link"]
    latest = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert latest["verdict"]["result"] == "PASSED"
    assert latest["timeline"][0]["kind"] == "link"
    assert "fresh test started" in latest["timeline"][0]["text"]
    assert sitl_processes(binary, instance) == []


def test_a_usb_board_returning_under_another_name_is_found_by_its_identity(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """GIVEN the check on SITL's serial line at 115200 baud as a USB board (ArduPilot's USB ids and a
    serial number in the port list)
    WHEN the board reboots and comes back as ttyACM1 instead of ttyACM0
    THEN the check finds it there by its identity, connects by itself, passes the fresh test, and on
    the wire it sent nothing but reads and the receiver interval requests: asked again after the
    reboot, restored to the default on leaving, and nothing sent while the device was gone."""
    binary = sitl_binary("arducopter")
    instance = free_instance(41)
    wire = Wire()
    session = VehicleSession()
    output = Output()
    config = SitlConfig(binary, instance=instance, link=SitlLink.SERIAL, baudrate=115200)
    try:
        assert session.start_sitl(config, serial_tap=wire.tap) == ""
        assert session.sitl is not None
        first_device = session.sitl.device
        run = Run(
            lambda: run_text_session(
                session,
                device=first_device,
                baudrate=115200,
                bridges=(),
                duration=None,
                schedule=NO_SCHEDULE,
                out=output,
                err=output,
                timeout=WAIT_S,
            )
        )
        run.start()
        wait_for_text(output, run, live_channels, "live channels over the serial line")
        session.sitl.restart_board("ttyACM1")
        run.join(RUN_DEADLINE_S)
        new_device = session.sitl.device
    finally:
        session.close()
    out = output.text
    assert run.error is None, f"{run.error!r}\n{out}"
    assert run.code == 0, out
    assert first_device.endswith("/ttyACM0")
    assert new_device.endswith("/ttyACM1")
    loss = out.index("* SITL restarted.") if "* SITL restarted." in out else out.index(USB_CLOSED)
    assert_the_reboot_was_followed_by_a_passed_test(
        out[loss:], f"The flight controller is back on {new_device}"
    )
    printed = capfd.readouterr()
    assert_no_raw_link_text(printed.out + printed.err)
    intervals = assert_only_reads_and_receiver_intervals(wire.sent_by_station())
    asked = [entry for entry in intervals if entry[1] == 200_000]
    assert intervals[-2:] == [(65, 0), (1, 0)]
    assert (65, 0) not in intervals[:-2]  # no restore was sent into the vanished device
    assert asked.count((65, 200_000)) >= 2
    assert asked.count((1, 200_000)) >= 2
    assert sitl_processes(binary, instance) == []


def test_a_udp_vehicle_that_reboots_is_noticed_from_the_vehicle_itself_and_followed() -> None:
    """GIVEN the check on udpin, SITL sending to it (`--serial0 udpclient:…`), and no runner signal
    used (as with a SITL or a telemetry bridge started by hand)
    WHEN SITL reboots (nothing closes on UDP)
    THEN the check notices from the vehicle (its ids from a new port, or its clock starting again),
    reconnects, asks for the streams again and passes the fresh test."""
    binary = sitl_binary("arducopter")
    instance = free_instance(42)
    session = VehicleSession()
    output = Output()
    try:
        assert session.start_sitl(SitlConfig(binary, instance=instance, link=SitlLink.UDP)) == ""
        runner = session.sitl
        assert runner is not None
        device = runner.device
        assert device.startswith("udpin:127.0.0.1:")
        assert session.connect(device, timeout=WAIT_S) == ""
        watch = RestartWatch(session.flight_controller, device, list_ports=session.list_ports)
        follower = LinkFollower(
            session,
            watch,
            baudrate=115200,
            timeout=WAIT_S,
            current_state=lambda: session.model.state,
            announce=session.model.note_link_event,
        )
        run = Run(
            lambda: run_text(
                session,
                out=output,
                live=False,
                duration=None,
                schedule=NO_SCHEDULE,
                follower=follower,
            )
        )
        run.start()
        wait_for_text(output, run, live_channels, "live channels over UDP")
        runner.restart_board()
        run.join(RUN_DEADLINE_S)
    finally:
        session.close()
    out = output.text
    assert run.error is None, f"{run.error!r}\n{out}"
    assert run.code == 0, out
    loss = out.find("* The flight controller restarted:")
    assert loss >= 0, out
    assert_the_reboot_was_followed_by_a_passed_test(out[loss:], f"Reconnecting to {device}")
    assert sitl_processes(binary, instance) == []
