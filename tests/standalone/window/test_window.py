# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The standalone window on real Tk (under Xvfb), driven by the real embedded demo vehicle.

Every wait pumps the Tk event loop until a condition holds or a generous deadline passes, so
a slow machine only makes the tests slower.  The file browser is a parent-application service
and is the only thing replaced (it would otherwise wait for a person).
"""

from __future__ import annotations

import gc
import socket
import threading
import time
import tkinter as tk
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pytest_mock import MockerFixture
from serial.tools.list_ports_common import ListPortInfo

from amc_rc_receiver.demo.system import DEMO_RELAY_NAME
from amc_rc_receiver.host.param_file import read_example_receiver_params
from amc_rc_receiver.host.plugin_host import ViewState
from amc_rc_receiver.plugins.frontend_tkinter_rc_receiver import RCReceiverView
from amc_rc_receiver.sim_bridge.spec import BridgeSpec
from amc_rc_receiver.standalone.options import DEMO_DEVICE, EXIT_INCOMPLETE
from amc_rc_receiver.standalone.session import VehicleSession
from amc_rc_receiver.standalone.window.app import run_window
from amc_rc_receiver.standalone.window.connection_bar import (
    COMMON_ADDRESSES,
    ConnectionState,
    demo_choice_text,
)
from amc_rc_receiver.standalone.window.window import StandaloneWindow

pytestmark = pytest.mark.tk

DEADLINE_S = 15.0
FAKE_PORT = "/dev/ttyACM-test"


def pump_until(root: tk.Tk, condition: Callable[[], bool], what: str, timeout: float = DEADLINE_S) -> None:
    """Run the Tk event loop until ``condition()`` holds; fail naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        root.update()
        time.sleep(0.01)


@pytest.fixture(autouse=True)
def _collect_tk_garbage_on_the_main_thread() -> Iterator[None]:
    """Tk widget trees are cyclic garbage once destroyed; collect them here, on the Tk thread.

    Left alone, the collector may run them down inside the next test's connect worker thread,
    where Tcl refuses (or waits for) calls from a thread that does not own the interpreter.
    """
    yield
    gc.collect()


@pytest.fixture
def window(root: tk.Tk) -> Iterator[StandaloneWindow]:
    session = VehicleSession()
    fake = ListPortInfo(FAKE_PORT, skip_link_detection=True)
    built = StandaloneWindow(root, session, port_lister=lambda: [fake], connect_timeout=1.0)
    root.update()
    yield built
    built.close()


def receiver_view(window: StandaloneWindow) -> RCReceiverView:
    view = window.host.active_view
    assert isinstance(view, RCReceiverView)
    return view


def connect_demo_and_wait_for_live_channels(window: StandaloneWindow) -> RCReceiverView:
    window.connect(DEMO_DEVICE)
    view = receiver_view(window)
    pump_until(
        window.root,
        lambda: not window.is_connecting and view.channel_rows[0].text.endswith("µs"),
        "live channels from the demo vehicle",
    )
    return view


def session_threads(before: set[threading.Thread]) -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread not in before and thread.is_alive()]


# --------------------------------------------------------------------------- building the window


def test_the_window_shows_connection_bar_receiver_step_parameters_and_bridge_panel(
    window: StandaloneWindow,
) -> None:
    """GIVEN a new window WHEN it is shown THEN every part is there and nothing claims to be live.

    The device list offers the demo, the detected port and the common addresses; the receiver
    step has its plugin on the left and the bundled example parameters on the right; the bridge
    panel is a strip below them, closed to its summary line; without a connection the plugin view
    is not polling.
    """
    bar = window.connection_bar
    assert window.root.title() == "RC receiver check"
    pump_until(window.root, lambda: FAKE_PORT in bar.ports, "the port watch's first look")
    choices = list(bar.device_combobox.cget("values"))
    assert choices[0] == demo_choice_text()
    assert FAKE_PORT in choices
    assert all(address in choices for address in COMMON_ADDRESSES)
    assert bar.connection_state is ConnectionState.DISCONNECTED
    assert str(bar.disconnect_button.cget("state")) == "disabled"
    assert not bar.transmitter_shown

    layout = window.host.layout
    assert layout is not None
    assert layout.placement == "left"
    view = receiver_view(window)
    assert view.master is layout.plugin_frame
    assert not view.active
    assert view.timer_id is None
    assert "No flight controller connected" in str(view.notice.cget("text"))

    table = window.parameter_table
    assert table is not None
    assert table.master is layout.content_frame
    example = read_example_receiver_params()
    assert [row[0] for row in table.rows] == [entry.name for entry in example]
    assert table.rows[0][2] == example[0].comment
    assert "05_remote_controller_receiver.param" in table.source_text

    assert window.bridge_panel.master is window.bridge_frame
    step = window.step_frame
    assert window.bridge_frame.winfo_rooty() >= step.winfo_rooty() + step.winfo_height()
    assert not window.bridge_panel.expanded
    assert window.bridge_panel.timer_id is not None


def test_choosing_another_vehicle_shows_its_receiver_step_and_example(
    window: StandaloneWindow,
) -> None:
    """GIVEN the ArduCopter step showing the bundled example
    WHEN Rover is chosen
    THEN Rover's receiver step (08_…, as in the methodic configurator 5.0.1) replaces it with a new
         plugin view, and the table shows Rover's own example parameters."""
    old_view = receiver_view(window)
    window.vehicle_combobox.set("Rover")
    window.vehicle_combobox.event_generate("<<ComboboxSelected>>")
    window.root.update()
    assert window.step is not None
    assert window.step.filename == "08_remote_controller_receiver.param"
    assert window.parameter_table is not None
    assert "Rover" in str(window.parameter_table.title_label.cget("text"))
    assert "Rover/08_remote_controller_receiver.param" in window.parameter_table.source_text
    assert [row[0] for row in window.parameter_table.rows] == [
        entry.name for entry in read_example_receiver_params("Rover")
    ]
    assert receiver_view(window) is not old_view
    assert not old_view.winfo_exists()


def test_the_bridge_strip_keeps_the_persons_choice_when_toggled_before_a_bridge_is_added(
    window: StandaloneWindow,
) -> None:
    """GIVEN the window without bridges (the strip closed to its summary line)
    WHEN the person opens it THEN the tree shows and the receiver step gives it the height it needs;
    WHEN the person closes it and a bridge is then added THEN it stays closed: the person's choice
    outranks the window's default for the rest of the session.
    """
    window.root.geometry("1300x700")
    panel = window.bridge_panel
    pump_until(window.root, lambda: window.step_frame.winfo_height() > 300, "the window at its size")
    closed_height = window.step_frame.winfo_height()

    window.toggle_bridge_panel()
    pump_until(window.root, lambda: bool(panel.tree.winfo_ismapped()), "the opened strip")
    assert panel.expanded
    assert window.step_frame.winfo_height() < closed_height

    window.toggle_bridge_panel()
    assert window.add_bridges([BridgeSpec("xrp", ("127.0.0.1", 0), None)]) == []
    window.root.update()
    assert not panel.expanded
    assert panel.user_choice is False


def test_adding_a_bridge_opens_the_strip_when_the_person_never_chose(window: StandaloneWindow) -> None:
    """GIVEN the closed strip the person never touched WHEN a bridge is added THEN it opens."""
    assert not window.bridge_panel.expanded
    assert window.add_bridges([BridgeSpec("xrp", ("127.0.0.1", 0), None)]) == []
    assert window.bridge_panel.expanded
    assert window.bridge_panel.user_choice is None


# --------------------------------------------------------------------------- connecting


def test_connecting_to_the_demo_shows_live_channels_and_its_bridge_traffic(window: StandaloneWindow) -> None:
    """GIVEN a window WHEN the demo is chosen and Connect pressed THEN channels go live.

    The bridge panel picks up the demo's relay as the session adds it to its monitor, and the
    demo's transmitter switch appears.
    """
    bar = window.connection_bar
    bar.device_var.set(demo_choice_text())
    bar.connect_button.invoke()
    assert bar.connection_state is ConnectionState.CONNECTING
    view = receiver_view(window)
    pump_until(
        window.root,
        lambda: view.channel_rows[0].text.endswith("µs") and view.failsafe_lamp.text == "not active",
        "live channels",
    )
    assert view.active
    assert bar.connection_state is ConnectionState.CONNECTED
    assert "Connected to the simulated vehicle" in bar.status_text
    assert bar.transmitter_shown
    assert bar.transmitter_text == "Transmitter: ON"
    pump_until(
        window.root,
        lambda: str(window.bridge_panel.summary.cget("text")).startswith("1 links"),
        "the demo link in the bridge panel",
    )


def test_a_transmitter_off_on_cycle_through_the_toggle_shows_failsafe_and_recovery(
    window: StandaloneWindow,
) -> None:
    """GIVEN live demo channels WHEN the toggle switches the transmitter off and on again
    THEN RC failsafe becomes active, 'failsafe observed' latches, and the recovery is seen.
    """
    view = connect_demo_and_wait_for_live_channels(window)
    check = window.connection_bar.transmitter_check
    check.invoke()
    assert window.connection_bar.transmitter_text == "Transmitter: OFF"
    pump_until(
        window.root,
        lambda: view.failsafe_lamp.text == "active" and view.failsafe_observed_lamp.text.startswith("yes"),
        "the RC failsafe",
    )
    assert view.recovery_lamp.text == "not yet"
    check.invoke()
    assert window.connection_bar.transmitter_text == "Transmitter: ON"
    pump_until(
        window.root,
        lambda: view.failsafe_lamp.text == "not active" and view.recovery_lamp.text.startswith("yes"),
        "the recovery",
    )
    assert view.failsafe_observed_lamp.text.startswith("yes")


def test_the_scripted_transmitter_schedule_runs_a_failsafe_test_on_its_own(window: StandaloneWindow) -> None:
    """GIVEN a schedule 'off after 0.2 s for 2.5 s' WHEN the demo connects THEN failsafe, then recovery."""
    window.set_transmitter_schedule(0.2, 2.5)
    view = connect_demo_and_wait_for_live_channels(window)
    pump_until(window.root, lambda: view.failsafe_observed_lamp.text.startswith("yes"), "the failsafe")
    pump_until(window.root, lambda: view.recovery_lamp.text.startswith("yes"), "the recovery")
    assert window.connection_bar.transmitter_text == "Transmitter: ON"


def test_a_device_without_a_vehicle_gives_a_readable_error_while_the_window_keeps_running(
    window: StandaloneWindow,
) -> None:
    """GIVEN a UDP port where no vehicle talks WHEN Connect is pressed THEN Tk keeps handling events
    during the wait (the plugin view stopped, as without a vehicle), and the status line then
    explains the failure.
    """
    bar = window.connection_bar
    view = receiver_view(window)
    bar.device_var.set("udpin:127.0.0.1:0")
    bar.connect_button.invoke()
    events_while_connecting = 0
    states_while_connecting: set[ViewState | None] = set()
    deadline = time.monotonic() + DEADLINE_S
    while window.is_connecting:
        assert time.monotonic() < deadline, "the connect attempt never finished"
        window.root.update()
        if window.is_connecting:
            events_while_connecting += 1
            states_while_connecting.add(window.host.view_state)
            assert str(bar.connect_button.cget("state")) == "disabled"
        time.sleep(0.01)
    assert events_while_connecting > 0
    assert states_while_connecting == {ViewState.STOPPED}
    assert bar.connection_state is ConnectionState.DISCONNECTED
    assert bar.status_is_error
    assert "No MAVLink heartbeat from udpin:127.0.0.1:0" in bar.status_text
    assert "Traceback" not in bar.status_text
    assert str(bar.connect_button.cget("state")) == "normal"
    assert window.host.view_state is ViewState.STOPPED
    assert receiver_view(window) is view
    assert not view.active


def test_a_baud_rate_that_is_not_a_number_is_refused_before_connecting(window: StandaloneWindow) -> None:
    """GIVEN 'fast' as baud rate WHEN Connect is pressed THEN the status says why and nothing connects."""
    bar = window.connection_bar
    bar.baud_var.set("fast")
    bar.connect_button.invoke()
    assert not window.is_connecting
    assert bar.status_is_error
    assert "'fast' is not a whole number" in bar.status_text


# --------------------------------------------------------------------------- parameter files


def test_a_bad_parameter_file_shows_its_error_and_keeps_the_table_while_the_plugin_pauses(
    window: StandaloneWindow, tmp_path: Path, mocker: MockerFixture
) -> None:
    """GIVEN a live view and a good file loaded WHEN a bad file is opened THEN its error is shown,
    the good table stays, and the same view was suspended during the dialog and polls again after.
    """
    view = connect_demo_and_wait_for_live_channels(window)
    good = tmp_path / "receiver.param"
    good.write_text("RC_PROTOCOLS,512  # CRSF only\nRSSI_TYPE,3\n", encoding="utf-8")
    bad = tmp_path / "broken.param"
    bad.write_text("RC_PROTOCOLS,512\nRSSI_TYPE,three\n", encoding="utf-8")
    seen_during_dialog: list[tuple[object, ViewState | None, bool, object]] = []
    answers = iter([str(good), str(bad)])

    def ask(**_options: object) -> str:
        seen_during_dialog.append(
            (window.host.active_view, window.host.view_state, view.suspended, view.timer_id)
        )
        return next(answers)

    mocker.patch("tkinter.filedialog.askopenfilename", side_effect=ask)
    table = window.parameter_table
    assert table is not None
    table.open_button.invoke()
    pump_until(window.root, lambda: not window.is_reading_file, "the good file read")
    assert table.rows == (("RC_PROTOCOLS", "512", "CRSF only"), ("RSSI_TYPE", "3", ""))
    assert table.error_text == ""

    table.open_button.invoke()
    pump_until(window.root, lambda: not window.is_reading_file, "the bad file read")
    assert "broken.param line 2" in table.error_text
    assert "three" in table.error_text
    assert table.rows == (("RC_PROTOCOLS", "512", "CRSF only"), ("RSSI_TYPE", "3", ""))
    assert str(good) in table.source_text

    assert seen_during_dialog == [(view, ViewState.SUSPENDED, True, None)] * 2
    assert window.host.active_view is view
    assert window.host.view_state is ViewState.ACTIVE
    assert not view.suspended
    assert view.timer_id is not None


def test_selecting_a_parameter_spells_out_its_whole_comment(window: StandaloneWindow) -> None:
    """GIVEN the example table WHEN a row is selected THEN its full comment appears below the table."""
    table = window.parameter_table
    assert table is not None
    first = table.tree.get_children()[0]
    table.tree.selection_set(first)
    window.root.update()
    name, value, comment = table.rows[0]
    assert table.details_text == f"{name} = {value}\n{comment}"


# --------------------------------------------------------------------------- disconnect and close


def test_disconnect_deactivates_the_view_clears_readings_and_a_reconnect_reactivates_it(
    window: StandaloneWindow,
) -> None:
    """GIVEN live demo channels WHEN Disconnect is pressed THEN the view stops polling and shows no
    reading as current; WHEN connecting again THEN the same view is activated and goes live.
    """
    view = connect_demo_and_wait_for_live_channels(window)
    bar = window.connection_bar
    bar.disconnect_button.invoke()
    assert not view.active
    assert view.timer_id is None
    assert window.host.active_view is view
    assert all(row.text == "Unavailable" for row in view.channel_rows)
    assert window.session.demo is None
    assert not window.session.flight_controller.is_connected
    assert bar.connection_state is ConnectionState.DISCONNECTED
    assert bar.status_text == "Disconnected."
    assert not bar.transmitter_shown

    bar.connect_button.invoke()
    pump_until(
        window.root,
        lambda: not window.is_connecting and view.channel_rows[0].text.endswith("µs"),
        "live channels after the reconnect",
    )
    assert receiver_view(window) is view
    assert view.active
    pump_until(
        window.root,
        lambda: str(view.stream_rows["RC_CHANNELS"].request.cget("text")).endswith("accepted"),
        "the stream request on the new connection",
    )


def test_closing_the_window_stops_the_view_the_demo_and_the_bridges(root: tk.Tk) -> None:
    """GIVEN a window on the demo with an extra bridge WHEN the window manager closes it
    THEN the view is destroyed, no session thread is left running and the Tk root is gone.
    """
    before = set(threading.enumerate())
    window = StandaloneWindow(root, VehicleSession(), connect_timeout=1.0)
    assert window.add_bridges([BridgeSpec("xrp", ("127.0.0.1", 0), None)]) == []
    view = connect_demo_and_wait_for_live_channels(window)
    assert session_threads(before)

    root.tk.eval(root.protocol("WM_DELETE_WINDOW"))

    assert window.closed
    assert window.host.active_view is None
    assert not view.active
    assert session_threads(before) == []
    with pytest.raises(tk.TclError):
        root.winfo_exists()


def test_a_bridge_added_while_the_demo_connects_stays_in_the_panel_with_its_counts(
    window: StandaloneWindow,
) -> None:
    """GIVEN a listen-only bridge added right after Connect, as run_window does with --demo --bridge
    WHEN the demo has connected THEN the panel shows the demo's link and the bridge's link, and the
    packet the bridge counted before the connect finished is still counted."""
    window.connect(DEMO_DEVICE)
    assert window.add_bridges([BridgeSpec("xrp", ("127.0.0.1", 0), None)]) == []
    bridge = next(relay for relay in window.session.relays if relay.config.protocol == "xrp")
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender:
        sender.bind(("127.0.0.1", 0))
        sender.sendto(b"\x00\x01\x01", bridge.listen_address)
        pump_until(window.root, lambda: bridge.counters().received_from_peer == 1, "the bridge's packet")
    pump_until(window.root, lambda: not window.is_connecting, "the demo connected")

    pump_until(window.root, lambda: len(window.bridge_panel.tree.get_children("")) == 2, "both links shown")
    links = {link.name: link for link in window.session.monitor.poll().links}
    assert set(links) == {bridge.config.name, DEMO_RELAY_NAME}
    assert links[bridge.config.name].from_peer.packets == 1


def test_a_bridge_that_cannot_listen_is_reported_in_the_window(window: StandaloneWindow) -> None:
    """GIVEN a UDP port another socket holds WHEN a bridge is added on it THEN a readable error shows."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as taken:
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
        errors = window.add_bridges([BridgeSpec("ardupilot-json", ("127.0.0.1", port), None)])
    assert len(errors) == 1
    assert f"127.0.0.1:{port}" in errors[0]
    assert window.bridge_error_label.winfo_manager() == "pack"
    assert errors[0] in str(window.bridge_error_label.cget("text"))


# --------------------------------------------------------------------------- run_window


def test_run_window_on_the_demo_closes_itself_after_the_duration() -> None:
    """GIVEN --demo --duration WHEN run_window runs its main loop THEN it returns 0 and leaves no thread."""
    before = set(threading.enumerate())
    assert run_window(demo=True, duration=1.0, transmitter_off_after=0.2, transmitter_off_for=0.3) == 0
    assert session_threads(before) == []


def test_without_a_display_run_window_falls_back_to_the_terminal_view(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """GIVEN a DISPLAY no X server serves WHEN run_window starts THEN it says so and runs the text view."""
    monkeypatch.setenv("DISPLAY", ":9876")
    before = set(threading.enumerate())
    # One second is too short for the whole transmitter test: the terminal view says INCOMPLETE.
    assert run_window(demo=True, duration=1.0) == EXIT_INCOMPLETE
    captured = capsys.readouterr()
    assert "Cannot open a window" in captured.err
    assert "terminal view" in captured.err
    assert "CH1" in captured.out
    assert session_threads(before) == []


def test_a_parameter_file_is_read_off_the_window_thread_which_keeps_ticking(
    window: StandaloneWindow, tmp_path: Path, mocker: MockerFixture
) -> None:
    """GIVEN a parameter file of a megabyte, which takes longer than a frame to read
    WHEN it is opened from the window
    THEN the open returns at once with the read still running on another thread, the window's event
    loop keeps running meanwhile, and the file's entries are shown once it is read."""
    big = tmp_path / "large.param"
    big.write_text("".join(f"P{index:05d},{index}\n" for index in range(60_000)), encoding="utf-8")
    mocker.patch("tkinter.filedialog.askopenfilename", return_value=str(big))
    table = window.parameter_table
    assert table is not None
    ticks: list[int] = []

    def tick() -> None:
        ticks.append(1)
        if window.is_reading_file:
            window.root.after(5, tick)

    table.open_button.invoke()
    assert window.is_reading_file
    window.root.after(5, tick)
    pump_until(window.root, lambda: not window.is_reading_file, "the large file read")

    assert len(table.rows) == 60_000
    assert table.rows[0][:2] == ("P00000", "0")
    assert ticks


def test_the_offer_to_save_earlier_tests_says_how_many_older_ones_were_dropped(
    window: StandaloneWindow,
) -> None:
    """
    GIVEN a run with link losses, each ending a test the session keeps (the newest five)
    WHEN one test was kept, then five with none dropped, then five with three older ones dropped
    THEN the bar offers to save the one test, then the five, then the five and says three were
         dropped
    """
    bar = window.connection_bar
    said = []
    for kept, dropped in ((1, 0), (5, 0), (5, 3)):
        bar.show_earlier_tests(kept, dropped)
        said.append(str(bar.earlier_button.cget("text")))
    assert said == [
        "Save the test before the reconnection…",
        "Save the 5 tests before the reconnections…",
        "Save the 5 tests before the reconnections (3 older dropped)…",
    ]
