# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Our rc_receiver step inside the released ArduPilot Methodic Configurator 5.0.1.

Everything of the methodic configurator here is the released code, installed from the registry
into its own environment (the overlay wheel: 5.0.1 with our two rc_receiver modules replaced and
our other plugin modules added).  A driver process with that environment's Python
(``drivers/amc501_session.py``) calls 5.0.1's own objects: ``register_plugins()``,
``FlightController.connect()`` and ``download_params()``, a ``LocalFilesystem`` on a copy of one
of its vehicle templates, ``ParameterEditor.create_plugin_data_model`` and the real
``ParameterEditorWindow`` with its ``_load_plugin``, ``_pause_plugin_receiver`` and
``_deactivate_plugin_view``.  The vehicle is ``amc-rc-receiver --serve-demo`` from our own
environment, reached through a recording TCP proxy: what the proxy forwards to the vehicle is
decoded to check, on the wire, what the plugin sent.  pytest-xvfb provides the display, passed
on to the driver.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from amc_rc_receiver.plugins.rc_receiver.firmware import MAX_RC_CHANNEL, VehicleFamily, wanted_parameters
from tests.integration.amc501 import Driver, ServeDemo, decode, phases
from tests.integration.recording_proxy import RecordingTcpProxy
from tests.support.methodic_configurator import MethodicConfiguratorEnvironment, our_plugin_modules
from tests.support.run_once import once_per_run

# Every parameter the check may read of the vehicle's ArduCopter, whatever its receiver delivers.
RECEIVER_PARAMETERS = frozenset(wanted_parameters(VehicleFamily.COPTER, {}, MAX_RC_CHANNEL))

pytestmark = pytest.mark.mc501

PLUGINS = "ardupilot_methodic_configurator.plugins"
OUR_VIEW = f"{PLUGINS}.frontend_tkinter_rc_receiver.RCReceiverView"
OUR_MODEL = f"{PLUGINS}.data_model_rc_receiver.RCReceiverDataModel"
# 5.0.1's own widgets, which the view uses where 5.0.1 offers them.
HOST_SCROLL_FRAME = "ardupilot_methodic_configurator.frontend_tkinter_scroll_frame.ScrollFrame"
HOST_TOOLTIP = "ardupilot_methodic_configurator.frontend_tkinter_show.Tooltip"
STEP_FILE = "05_remote_controller_receiver.param"
TEMPLATE = Path("vehicle_templates") / "ArduCopter" / "X11_plus"  # ships apm.pdef.xml: nothing to download
RC_CHANNELS, SYS_STATUS = 65, 1
MAV_CMD_SET_MESSAGE_INTERVAL = 511
MAV_CMD_RUN_PREARM_CHECKS = 401
REQUESTED_US, DEFAULT_US = 200_000, 0
# The behaviour guard: far below the 0.8 s a command waits for its ACK, so no call on the UI
# thread can have waited for one.  Not a benchmark: a healthy poll takes well under 10 ms.
NO_ACK_WAIT_S = 0.4
ACK_TIMEOUT_S = 0.8
LIVE_WAIT_S = 30.0  # generous: a loaded two-core machine


@dataclass
class Vehicle:
    """``--serve-demo`` behind the recording proxy."""

    demo: ServeDemo
    proxy: RecordingTcpProxy

    def commands(self, data: bytes) -> list[Any]:
        return [message for message in decode(data) if message.get_type() == "COMMAND_LONG"]

    def heartbeat_source(self) -> tuple[int, int]:
        beats = [m for m in decode(self.proxy.to_gcs) if m.get_type() == "HEARTBEAT"]
        assert beats, "the vehicle sent no HEARTBEAT"
        return beats[0].get_srcSystem(), beats[0].get_srcComponent()


@contextmanager
def serving_vehicle(folder: Path) -> Iterator[Vehicle]:
    """--serve-demo behind a recording proxy; both stopped on exit, whatever happened."""
    demo = ServeDemo(folder / "serve-demo.log")
    proxy: RecordingTcpProxy | None = None
    try:
        demo.wait_until_listening()
        proxy = RecordingTcpProxy(demo.port).start()
        yield Vehicle(demo, proxy)
    finally:
        if proxy is not None:
            proxy.close()
        demo.close()


@contextmanager
def running_drivers(folder: Path) -> Iterator[Callable[[MethodicConfiguratorEnvironment], Driver]]:
    """A starter of session drivers; every driver started is closed on exit."""
    drivers: list[Driver] = []

    def start(environment: MethodicConfiguratorEnvironment) -> Driver:
        home = folder / f"home{len(drivers)}"
        home.mkdir()
        driver = Driver(environment.python, home, folder / f"driver{len(drivers)}.log")
        drivers.append(driver)
        return driver

    try:
        yield start
    finally:
        for driver in drivers:
            driver.close()


@pytest.fixture
def vehicle(tmp_path: Path) -> Iterator[Vehicle]:
    with serving_vehicle(tmp_path) as served:
        yield served


@pytest.fixture
def start_driver(tmp_path: Path) -> Iterator[Callable[[MethodicConfiguratorEnvironment], Driver]]:
    with running_drivers(tmp_path) as start:
        yield start


def open_receiver_step(
    driver: Driver, vehicle: Vehicle, environment: MethodicConfiguratorEnvironment, tmp_path: Path
) -> dict[str, Any]:
    """5.0.1 connects, downloads the parameters and opens a parameter editor on the receiver step."""
    connected = driver.request("connect", device=vehicle.proxy.device)
    assert connected["error"] == "", connected
    downloaded = driver.request("download_params")
    assert downloaded["count"] > 0
    vehicle_dir = tmp_path / "vehicle"
    shutil.copytree(environment.package_dir / TEMPLATE, vehicle_dir)
    editor = driver.request(
        "parameter_editor", vehicle_dir=str(vehicle_dir), vehicle_type="ArduCopter", file=STEP_FILE
    )
    assert editor["is_fc_connected"] is True
    assert editor["plugin"]["name"] == "rc_receiver"
    return connected | {"host_bytes": editor["bytes_sent"]}


def interval_commands(messages: list[Any]) -> list[tuple[int, int, int, int]]:
    """(message id, interval µs, target system, target component) of each SET_MESSAGE_INTERVAL."""
    return [
        (int(m.param1), int(m.param2), m.target_system, m.target_component)
        for m in messages
        if m.get_type() == "COMMAND_LONG" and m.command == MAV_CMD_SET_MESSAGE_INTERVAL
    ]


# --------------------------------------------------------------------------------------------------
# Registration


def test_5_0_1s_own_registration_registers_our_rc_receiver_view_and_model(
    methodic_configurator_501_overlay_env: MethodicConfiguratorEnvironment,
    start_driver: Callable[[MethodicConfiguratorEnvironment], Driver],
) -> None:
    """GIVEN the overlay installed in its own environment
    WHEN 5.0.1's register_plugins() runs and plugin_factory builds the rc_receiver model and view
    THEN all fourteen plugins register, and the model and view are our classes, loaded from the
    overlay's files, which are byte-for-byte our plugin modules."""
    reply = start_driver(methodic_configurator_501_overlay_env).request("register")

    assert "rc_receiver" in reply["plugins"]
    assert len(reply["plugins"]) == 14
    assert reply["requires_flight_controller"] is True
    assert reply["view_class"] == OUR_VIEW
    assert reply["model_class"] == OUR_MODEL
    ours = our_plugin_modules()
    for key, name in (
        ("view_module", "frontend_tkinter_rc_receiver.py"),
        ("model_module", "data_model_rc_receiver.py"),
    ):
        module = reply[key]
        assert Path(module["file"]).is_relative_to(methodic_configurator_501_overlay_env.site_packages)
        assert module["sha256"] == __import__("hashlib").sha256(ours[name]).hexdigest()
    # Every module of ours is loaded from the overlay, the packages below plugins/ included, but
    # the terminal view's own sentences, which only our standalone program shows.
    loaded = {
        f"{PLUGINS}.{name.removesuffix('.py').removesuffix('/__init__').replace('/', '.')}"
        for name in ours
        if name != "rc_receiver/wording/terminal.py"
    }
    assert loaded <= set(reply["plugin_modules"])


def test_validate_plugins_of_5_0_1_exits_0_on_the_overlay(
    methodic_configurator_501_overlay_env: MethodicConfiguratorEnvironment, tmp_path: Path
) -> None:
    """GIVEN the overlay installed
    WHEN the methodic configurator's own command runs with --validate-plugins
    THEN it exits 0 (every declared plugin, ours included, registered)."""
    import subprocess

    from tests.integration.amc501 import isolated_environment

    result = subprocess.run(
        [
            str(methodic_configurator_501_overlay_env.script("ardupilot_methodic_configurator")),
            "--validate-plugins",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=isolated_environment(tmp_path),
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Missing plugins" not in result.stderr


# --------------------------------------------------------------------------------------------------
# Connected: the data model


def test_5_0_1_connects_to_serve_demo_and_builds_our_model_which_shows_live_receiver_data(
    methodic_configurator_501_overlay_env: MethodicConfiguratorEnvironment,
    start_driver: Callable[[MethodicConfiguratorEnvironment], Driver],
    vehicle: Vehicle,
    tmp_path: Path,
) -> None:
    """GIVEN 5.0.1's FlightController connected to --serve-demo and its ParameterEditor on the receiver step
    WHEN create_plugin_data_model("rc_receiver") builds the model and it is polled
    THEN it is our model, showing live CH1–CH5, RSSI and receiver status, and its two interval
    requests went to the vehicle's own system and component and were accepted."""
    driver = start_driver(methodic_configurator_501_overlay_env)
    step = open_receiver_step(driver, vehicle, methodic_configurator_501_overlay_env, tmp_path)
    assert step["vehicle_type"] == "ArduCopter"

    created = driver.request("create_model")
    assert created["model_class"] == OUR_MODEL
    live = driver.request("poll", seconds=LIVE_WAIT_S, until="live")["state"]
    settled = driver.request("poll", seconds=LIVE_WAIT_S, until="settled")

    assert live["rc_channels_live"]
    assert live["sys_status_live"]
    assert all(isinstance(pwm, int) and 800 <= pwm <= 2200 for pwm in live["channels"]), live
    assert isinstance(live["rssi"], int)
    assert 0 <= live["rssi"] <= 254
    assert live["receiver_present"] is True
    assert live["failsafe"] == "NOT_ACTIVE"
    assert [r["outcome"] for r in settled["state"]["requests"]] == ["ACCEPTED", "ACCEPTED"]

    system, component = vehicle.heartbeat_source()
    assert (str(system), str(component)) == (step["system_id"], step["component_id"])
    sent = vehicle.proxy.wait_for_bytes_to_vehicle(settled["bytes_sent"])
    requests = interval_commands(decode(sent[step["host_bytes"] :]))
    assert requests == [
        (RC_CHANNELS, REQUESTED_US, system, component),
        (SYS_STATUS, REQUESTED_US, system, component),
    ]


def _lose_the_link_and_watch(
    environment: MethodicConfiguratorEnvironment,
    start_driver: Callable[[MethodicConfiguratorEnvironment], Driver],
    vehicle: Vehicle,
    tmp_path: Path,
    **watch: Any,
) -> tuple[dict[str, Any], int]:
    driver = start_driver(environment)
    open_receiver_step(driver, vehicle, environment, tmp_path)
    driver.request("create_model")
    assert driver.request("poll", seconds=LIVE_WAIT_S, until="live")["state"]["rc_channels_live"]
    connections = vehicle.proxy.connections
    vehicle.proxy.drop_connections()
    # Longer than the 3 s after which a reading counts as stale.
    watched = driver.request("poll_watching_opens", seconds=4.5, **watch)
    return watched, vehicle.proxy.connections - connections


def test_when_the_link_dies_under_5_0_1_our_plugin_never_reopens_a_port(
    methodic_configurator_501_overlay_env: MethodicConfiguratorEnvironment,
    start_driver: Callable[[MethodicConfiguratorEnvironment], Driver],
    vehicle: Vehicle,
    tmp_path: Path,
) -> None:
    """GIVEN our model inside 5.0.1, live on 5.0.1's connection, that connection set (by the
    host) not to reconnect by itself
    WHEN the link dies under it (the board reboots: the connection closes) and the model is
         polled for 4.5 s
    THEN its readings go stale, it opened no socket, serial port or pymavlink connection, kept
         5.0.1's connection object, and no new connection reached the vehicle: recovering the
         link is the methodic configurator's job (its CONNECTION_RECOVERY)."""
    watched, new_connections = _lose_the_link_and_watch(
        methodic_configurator_501_overlay_env, start_driver, vehicle, tmp_path, autoreconnect=False
    )
    assert watched["opened"] == []
    assert new_connections == 0
    assert watched["same_master"] is True
    assert watched["state"]["rc_channels_live"] is False, json.dumps(watched)


def test_a_reconnect_under_5_0_1_is_only_ever_its_own_connection_reconnecting(
    methodic_configurator_501_overlay_env: MethodicConfiguratorEnvironment,
    start_driver: Callable[[MethodicConfiguratorEnvironment], Driver],
    vehicle: Vehicle,
    tmp_path: Path,
) -> None:
    """GIVEN our model on 5.0.1's connection as 5.0.1 opens it (pymavlink's autoreconnect on)
    WHEN the link dies and the model is polled
    THEN whatever reconnects is pymavlink's reconnect of 5.0.1's own connection object, the one
         its settings asked for, inside a read; never a port or connection our plugin opened."""
    watched, _new = _lose_the_link_and_watch(
        methodic_configurator_501_overlay_env, start_driver, vehicle, tmp_path
    )
    assert watched["host_autoreconnect"] is True
    assert watched["same_master"] is True
    for attempt in watched["opened"]:
        assert attempt.startswith("socket.connect < mavutil.py:do_connect < mavutil.py:reconnect"), attempt
        assert "mavlink_connection" not in attempt
        assert "serial.open" not in attempt


def _poll_a_vehicle_that_never_answers(
    environment: MethodicConfiguratorEnvironment,
    start_driver: Callable[[MethodicConfiguratorEnvironment], Driver],
    vehicle: Vehicle,
    tmp_path: Path,
    op: str,
) -> dict[str, Any]:
    driver = start_driver(environment)
    open_receiver_step(driver, vehicle, environment, tmp_path)
    vehicle.proxy.mute_vehicle()  # from here on the vehicle answers nothing, not even an ACK
    driver.request("create_model")
    return (
        driver.request(op, seconds=3 * ACK_TIMEOUT_S + 0.6, until="settled")
        if op == "poll"
        else driver.request(op, seconds=3 * ACK_TIMEOUT_S + 0.6)
    )


def test_with_a_vehicle_that_never_answers_no_poll_of_our_model_waits_for_an_ack(
    methodic_configurator_501_overlay_env: MethodicConfiguratorEnvironment,
    start_driver: Callable[[MethodicConfiguratorEnvironment], Driver],
    vehicle: Vehicle,
    tmp_path: Path,
) -> None:
    """GIVEN our model in 5.0.1, on a vehicle that stops answering right after the connection
    WHEN it is polled every 100 ms until its interval requests time out
    THEN the requests end as "no answer" after the 0.8 s ACK timeout, and no single poll, nor
    the activation, waited anywhere near that long (under 0.4 s in sleeps and selects with a
    timeout: a call's wall time would also count the machine's load)."""
    reply = _poll_a_vehicle_that_never_answers(
        methodic_configurator_501_overlay_env, start_driver, vehicle, tmp_path, "poll"
    )

    assert [r["outcome"] for r in reply["state"]["requests"]] == ["NO_ANSWER", "NO_ANSWER"]
    calls = reply["timing"]["calls"]
    assert calls["poll"]["count"] >= 5
    assert calls["poll"]["max_wait_s"] < NO_ACK_WAIT_S, calls
    assert calls["activate"]["max_wait_s"] < NO_ACK_WAIT_S, calls


def test_control_5_0_1s_own_receiver_plugin_does_wait_for_acks_on_the_same_vehicle(
    methodic_configurator_501_release_env: MethodicConfiguratorEnvironment,
    start_driver: Callable[[MethodicConfiguratorEnvironment], Driver],
    vehicle: Vehicle,
    tmp_path: Path,
) -> None:
    """GIVEN the released 5.0.1 with its own rc_receiver plugin, on the same silent vehicle
    WHEN its model is polled the way its view does
    THEN its first poll blocks for at least one ACK timeout: the guard above can see a wait."""
    reply = _poll_a_vehicle_that_never_answers(
        methodic_configurator_501_release_env, start_driver, vehicle, tmp_path, "poll_upstream"
    )

    upstream = reply["timing"]["calls"]["get_receiver_state"]
    assert upstream["max_s"] >= ACK_TIMEOUT_S
    # The wait the guard above measures is seen: most of the ACK timeout was spent waiting.
    assert upstream["max_wait_s"] >= ACK_TIMEOUT_S / 2, upstream


# --------------------------------------------------------------------------------------------------
# Connected: the view in 5.0.1's window, one full lifecycle recorded on the wire


@dataclass
class WindowCycle:
    """The replies of one activate/poll/suspend/resume/deactivate cycle and where each ended on the wire."""

    step: dict[str, Any]
    replies: dict[str, dict[str, Any]] = field(default_factory=dict)
    sent: bytes = b""

    def boundaries(self) -> dict[str, int]:
        return {
            "host": self.step["host_bytes"],
            **{name: reply["bytes_sent"] for name, reply in self.replies.items()},
        }

    def phase(self, name: str) -> bytes:
        return dict(phases(self.sent, self.boundaries()))[name]


@pytest.fixture(scope="session")
def window_cycle(
    overlay_environment: MethodicConfiguratorEnvironment,
    tmp_path_factory: pytest.TempPathFactory,
) -> WindowCycle:
    """One recorded cycle, shared by the tests below and recorded once per run (each connection
    costs 5.0.1's 5 s heartbeat wait)."""

    def record(folder: Path) -> WindowCycle:
        with (
            overlay_environment.shared() as environment,
            serving_vehicle(folder) as vehicle,
            running_drivers(folder) as start_driver,
        ):
            return _record_window_cycle(environment, start_driver(environment), vehicle, folder)

    return once_per_run(tmp_path_factory, "window-cycle", record)


def _record_window_cycle(
    environment: MethodicConfiguratorEnvironment, driver: Driver, vehicle: Vehicle, folder: Path
) -> WindowCycle:
    cycle = WindowCycle(open_receiver_step(driver, vehicle, environment, folder))
    steps: list[tuple[str, str, dict[str, Any]]] = [
        # the window's own start-up selects the step and calls _load_plugin
        ("window", "window", {"seconds": LIVE_WAIT_S}),
        ("live", "pump", {"seconds": LIVE_WAIT_S, "until": "live"}),
        # _load_plugin called once more, directly, into the left pane
        ("load_plugin", "load_plugin", {}),
        ("reloaded_live", "pump", {"seconds": LIVE_WAIT_S, "until": "live"}),
        ("exclusive", "pause", {"reason": "EXCLUSIVE_OPERATION"}),
        ("during_exclusive", "pump", {"seconds": 1.0}),
        ("exclusive_resumed", "resume", {}),
        ("after_exclusive", "pump", {"seconds": LIVE_WAIT_S, "until": "live"}),
        ("recovery", "pause", {"reason": "CONNECTION_RECOVERY"}),
        ("during_recovery", "pump", {"seconds": 2.0}),
        ("recovery_resumed", "resume", {}),
        ("after_recovery", "pump", {"seconds": 2.0}),
        ("after_recovery_live", "pump", {"seconds": LIVE_WAIT_S, "until": "live"}),
        ("deactivated", "deactivate_view", {}),
        # once more, with the pause 5.0.1's ConnectionRecovery itself triggers, and the view
        # removed while the link is still being recovered
        ("loaded_again", "load_plugin", {}),
        ("loaded_again_live", "pump", {"seconds": LIVE_WAIT_S, "until": "live"}),
        ("recovery_callback", "pause", {"via": "connection_recovery"}),
        ("during_recovery_callback", "pump", {"seconds": 2.0}),
        ("deactivated_in_recovery", "deactivate_view", {}),
        ("final", "state", {}),
    ]
    for name, op, arguments in steps:
        cycle.replies[name] = driver.request(op, **arguments)
    cycle.sent = vehicle.proxy.wait_for_bytes_to_vehicle(cycle.replies["final"]["bytes_sent"])
    return cycle


def test_5_0_1s_window_shows_our_view_and_drives_its_pause_resume_and_deactivation(
    window_cycle: WindowCycle,
) -> None:
    """GIVEN 5.0.1's ParameterEditorWindow on the receiver step, connected to --serve-demo
    WHEN it loads the plugin (its start-up and _load_plugin), pauses it for an exclusive
    operation and for a connection recovery, resumes it, and deactivates it
    THEN our view is shown with live channels, each pause suspends it and each resume restarts it
    with fresh readings, and deactivation removes it after restoring the default intervals."""
    replies = window_cycle.replies
    for name in ("window", "load_plugin"):
        view = replies[name]["view"]
        assert view["class"] == OUR_VIEW
        assert view["mapped"]
        assert view["width"] > 100
        assert view["height"] > 100
        assert view["active"] is True
        assert view["suspended"] is False
    for name in ("live", "reloaded_live", "after_exclusive", "after_recovery_live"):
        assert replies[name]["pump"]["condition_met"], name
        assert all(text.endswith("µs") for text in replies[name]["view"]["channel_texts"]), replies[name]
    for pause, resume in (("exclusive", "exclusive_resumed"), ("recovery", "recovery_resumed")):
        assert replies[pause]["view"]["suspended"] is True
        assert replies[resume]["view"]["suspended"] is False
        # what queued during the pause is not shown as live
        assert replies[resume]["state"]["rc_channels_live"] is False
    assert replies["deactivated"]["view"] is None
    assert replies["deactivated"]["state"]["active"] is False

    restored = interval_commands(decode(window_cycle.phase("deactivated")))
    assert [(message, interval) for message, interval, _s, _c in restored] == [
        (RC_CHANNELS, DEFAULT_US),
        (SYS_STATUS, DEFAULT_US),
    ]


def test_inside_5_0_1_our_view_scrolls_in_5_0_1s_scroll_frame_and_shows_5_0_1s_tooltips(
    window_cycle: WindowCycle,
) -> None:
    """GIVEN 5.0.1's ParameterEditorWindow showing our view (its start-up and _load_plugin)
    WHEN the view's scroll frame and its buttons' tooltips are looked at
    THEN the scroll frame is 5.0.1's ScrollFrame holding the view's content, and the tooltips of
    the guided test's buttons and of "Start a new test" are 5.0.1's, made by its show_tooltip, with
    our words (the overlay ships neither module: they are the release's)."""
    for name in ("window", "load_plugin"):
        widgets = window_cycle.replies[name]["view"]["host_widgets"]
        assert widgets["scroll_frame"] == HOST_SCROLL_FRAME, name
        assert widgets["content_in_view_port"] is True, name
        assert widgets["tooltips"] == dict.fromkeys(("off", "on", "skip", "save", "reset"), HOST_TOOLTIP)
        assert all(text for text in widgets["tooltip_texts"].values()), widgets


def test_5_0_1s_window_calls_into_our_plugin_never_wait_for_the_vehicle(window_cycle: WindowCycle) -> None:
    """GIVEN the window lifecycle above
    WHEN the time the calls the view makes into our model on the Tk thread (activate, every poll,
    suspend, resume, deactivate), and 5.0.1's pause and resume calls, spent waiting is looked at
    THEN each waited under 0.4 s: none of them waited for the vehicle.  (Building and destroying
    the view's widgets is Tk work, not a wait, and is not timed here.)"""
    timing = window_cycle.replies["final"]["timing"]
    calls = timing["calls"]
    for name in ("activate", "poll", "suspend", "resume", "deactivate"):
        assert calls[name]["count"] >= 1, (name, calls)
        assert calls[name]["max_wait_s"] < NO_ACK_WAIT_S, (name, calls[name])
    assert calls["poll"]["count"] >= 10
    for name, seconds in timing["lifecycle_wait_s"].items():
        if name.startswith(("pause_", "resume")):
            assert seconds < NO_ACK_WAIT_S, (name, seconds)


def test_during_connection_recovery_the_plugin_puts_no_byte_on_the_wire(window_cycle: WindowCycle) -> None:
    """GIVEN the window lifecycle above
    WHEN the plugin is paused for a CONNECTION_RECOVERY (by _pause_plugin_receiver, and by the
    callback 5.0.1's ConnectionRecovery uses) while the Tk loop runs, and once removed meanwhile
    THEN not one byte reached the vehicle from the pause to the resume or the removal, and only
    after the resume does the plugin ask for its streams again."""
    for name in ("recovery", "during_recovery", "recovery_resumed"):
        assert window_cycle.phase(name) == b"", name
    for name in ("recovery_callback", "during_recovery_callback", "deactivated_in_recovery", "final"):
        assert window_cycle.phase(name) == b"", name
    assert window_cycle.replies["recovery_callback"]["view"]["suspended"] is True
    assert window_cycle.replies["deactivated_in_recovery"]["view"] is None
    again = interval_commands(
        decode(window_cycle.phase("after_recovery") + window_cycle.phase("after_recovery_live"))
    )
    assert [(message, interval) for message, interval, _s, _c in again] == [
        (RC_CHANNELS, REQUESTED_US),
        (SYS_STATUS, REQUESTED_US),
    ]


def test_inside_5_0_1_the_check_goes_by_5_0_1s_own_firmware_version_and_asks_for_the_prearm_checks(
    window_cycle: WindowCycle,
) -> None:
    """GIVEN the window lifecycle above, on a vehicle whose version 5.0.1 read in its own connect
    WHEN the check shows live readings
    THEN the firmware it goes by (and names in its failsafe finding) is 5.0.1's
    info.flight_sw_version_and_type, and it asked the vehicle to run its pre-arm checks once the
    parameters and a live receiver were there, which the vehicle answered."""
    firmware = window_cycle.step["firmware"]
    assert firmware
    state = window_cycle.replies["live"]["state"]
    assert state["firmware"] == firmware
    assert any(firmware.split(" ")[0] in message for message in state["failsafe_timeout"]), state
    # the test of the plugin loaded a second time, as it stood when it was removed
    removed = window_cycle.replies["deactivated"]["state"]
    assert [answer["moment"] for answer in removed["prearm"]] == ["parameters_read"], removed
    assert all(answer["complete"] for answer in removed["prearm"]), removed


def test_on_the_wire_only_interval_requests_and_prearm_checks_leave_the_plugin_in_5_0_1(
    window_cycle: WindowCycle,
) -> None:
    """GIVEN every byte the vehicle received during the whole cycle, driven through 5.0.1's objects
    WHEN it is decoded, 5.0.1's own connection and parameter download set apart (5.0.1 asks for
    AUTOPILOT_VERSION itself: the plugin uses its info.flight_sw_version and never asks)
    THEN after the host's phase every message is addressed to the vehicle's own system and
    component, and is a COMMAND_LONG MAV_CMD_SET_MESSAGE_INTERVAL for RC_CHANNELS or SYS_STATUS, or
    MAV_CMD_RUN_PREARM_CHECKS without parameters (ArduPilot's own pre-arm checks, at most twice per
    test, and the cycle loads the plugin three times), or a PARAM_REQUEST_READ by name of an RC
    parameter (one that 5.0.1's download missed: a PARAM_VALUE lost on a loaded machine): no
    PARAM_SET, no MAV_CMD_REQUEST_MESSAGE, no other command, nothing else."""
    host_phase = decode(window_cycle.sent[: window_cycle.step["host_bytes"]])
    assert host_phase, "5.0.1's connect and download must have sent something"
    plugin_phase = decode(window_cycle.sent[window_cycle.step["host_bytes"] :])
    assert plugin_phase
    target = (int(window_cycle.step["system_id"]), int(window_cycle.step["component_id"]))
    prearm = []
    for message in plugin_phase:
        assert (message.target_system, message.target_component) == target, message
        if message.get_type() == "PARAM_REQUEST_READ":
            assert message.param_index == -1, message.to_dict()
            assert message.param_id in RECEIVER_PARAMETERS, message.to_dict()
            continue
        assert message.get_type() == "COMMAND_LONG", message.to_dict()
        if message.command == MAV_CMD_RUN_PREARM_CHECKS:
            prearm.append((message.param1, message.param2, message.param7))
            continue
        assert message.command == MAV_CMD_SET_MESSAGE_INTERVAL, message
        assert int(message.param1) in (RC_CHANNELS, SYS_STATUS), message
    # asked once the host's parameters and a live receiver were there, in each test
    assert 1 <= len(prearm) <= 6, prearm
    assert set(prearm) == {(0, 0, 0)}
    sequence = [(message, interval) for message, interval, _s, _c in interval_commands(plugin_phase)]
    requested, restored = (
        [(RC_CHANNELS, REQUESTED_US), (SYS_STATUS, REQUESTED_US)],
        [(RC_CHANNELS, DEFAULT_US), (SYS_STATUS, DEFAULT_US)],
    )
    # start-up load; direct _load_plugin (restore, request); recovery resume; deactivation;
    # loaded again; removed during a recovery (nothing sent)
    assert sequence == requested + restored + requested + requested + restored + requested
