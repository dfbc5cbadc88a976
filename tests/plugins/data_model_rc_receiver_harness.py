# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Test harness for the RC receiver data model: a scripted vehicle, a real FlightController, a clock.

Every test talks real MAVLink 2 over a loopback UDP socket.  Time inside the model and the command
manager comes from a hand-advanced clock, so freshness, rates and ACK timeouts are exact; only the
waiting for datagrams to arrive uses wall-clock time, through polling loops with a 10 s deadline.
`sync()` is the barrier that makes "nothing happened" observable: it sends a uniquely-worded
STATUSTEXT after the messages under test and polls until pymavlink has read it, which (UDP on
loopback keeps order) proves that everything sent before it went through the model.
"""

from __future__ import annotations

import itertools
import select
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.backend_flightcontroller import FlightController
from amc_rc_receiver.plugins.data_model_rc_receiver import RCReceiverDataModel
from amc_rc_receiver.plugins.rc_receiver.guide import HOLD_S as EVIDENCE_HOLD_S
from amc_rc_receiver.plugins.rc_receiver.modes import SLOT_COUNT as SWITCH_SLOT_COUNT
from amc_rc_receiver.plugins.rc_receiver.prearm import ANSWER_WINDOW_S
from amc_rc_receiver.plugins.rc_receiver.snapshot import GuideStep, RCReceiverState
from amc_rc_receiver.plugins.rc_receiver.sticks import HOLD_S, SETTLE_S, THROTTLE_REST_S
from amc_rc_receiver.plugins.rc_receiver.switches import SLOT_WAIT_S
from tests.support import waiting
from tests.support.clock import ManualClock
from tests.support.scripted_fc import AckPolicy, ScriptedFlightController

DEADLINE_S = 10.0
SYNC_SYSTEM_ID = 250  # a bystander system: its STATUSTEXT cannot count as receiver telemetry
NEUTRAL = (1500, 1500, 1000, 1500, 1100)


def rc_channels(
    pwm: tuple[int, ...] = NEUTRAL, chancount: int = 8, rssi: int = 255, time_boot_ms: int = 0
) -> Any:
    padded = list(pwm[:18]) + [0] * (18 - len(pwm[:18]))
    return mavlink2.MAVLink_rc_channels_message(time_boot_ms, chancount, *padded, rssi)


def sys_status(present: int, enabled: int, health: int) -> Any:
    return mavlink2.MAVLink_sys_status_message(present, enabled, health, 0, 12600, -1, -1, 0, 0, 0, 0, 0, 0)


def encode(msg: Any, system_id: int, component_id: int, seq: int = 0) -> bytes:
    """MAVLink 2 bytes of ``msg`` as sent by ``system_id``/``component_id``."""
    encoder = mavlink2.MAVLink(None, srcSystem=system_id, srcComponent=component_id)
    encoder.seq = seq % 256
    return bytes(msg.pack(encoder))


def decode_all(data: bytes) -> list[Any]:
    """Every message (BAD_DATA included) a fresh MAVLink 2 parser finds in ``data``."""
    parser = mavlink2.MAVLink(None)
    parser.robust_parsing = True
    return list(parser.parse_buffer(data) or [])


def is_version_request(message: Any) -> bool:
    """The facade's request for AUTOPILOT_VERSION (MAV_CMD_REQUEST_MESSAGE)."""
    return (
        message.get_type() == "COMMAND_LONG"
        and message.command == mavlink2.MAV_CMD_REQUEST_MESSAGE
        and int(message.param1) == mavlink2.MAVLINK_MSG_ID_AUTOPILOT_VERSION
    )


def without_facade_hello(messages: list[Any]) -> list[Any]:
    """``messages`` without the facade's hello, which must come first (heartbeats aside), once:
    the read of parameter 0, then the request for AUTOPILOT_VERSION."""
    first, second = [message for message in messages if message.get_type() != "HEARTBEAT"][:2]
    assert (first.get_type(), first.param_index) == ("PARAM_REQUEST_READ", 0), first
    assert is_version_request(second), second
    rest = [message for message in messages if message is not first and message is not second]
    assert not [m for m in rest if m.get_type() == "PARAM_REQUEST_READ" and m.param_index != -1]
    assert not [m for m in rest if is_version_request(m)]
    return rest


class ModelHarness:
    """A started scripted vehicle, a FlightController connected to it and a model over both."""

    _tokens = itertools.count(1)

    def __init__(
        self,
        system_id: int = 1,
        component_id: int = 1,
        *,
        heartbeat_interval: float = 1.0,
        ack_policy: AckPolicy = AckPolicy.ACCEPT,
    ) -> None:
        self.clock = ManualClock()
        self.vehicle = ScriptedFlightController(
            system_id, component_id, heartbeat_interval=heartbeat_interval
        )
        self.vehicle.ack_policy = ack_policy
        # The vehicle's time_boot_ms runs on the same hand-moved clock as the model, as the two
        # real clocks run at the same speed; the model maps one onto the other.  The vehicle
        # booted a minute before we connected.
        self.boot = boot = self.clock.now - 60.0
        self.vehicle.time_boot_ms = lambda: int((self.clock.now - boot) * 1000)  # type: ignore[method-assign]
        self.vehicle.start()
        self.fc = FlightController()
        self.model = RCReceiverDataModel(self.fc, clock=self.clock)
        # messages read by each poll made through poll_until / sync, for bounded-work checks
        self.reads_per_poll: list[int] = []
        # every connection that talked to self.vehicle, to know how many bytes it must have got
        self._own_links: list[Any] = []
        self.connect(self.vehicle)

    def connect(self, vehicle: ScriptedFlightController) -> None:
        error = self.fc.connect(vehicle.device, timeout=DEADLINE_S)
        assert error == "", error
        vehicle.wait_for_gcs(DEADLINE_S)
        if vehicle is self.vehicle:
            self._own_links.append(self.fc.master)

    def close(self) -> None:
        try:
            self.fc.disconnect()
        finally:
            self.vehicle.stop()

    def __enter__(self) -> ModelHarness:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # ---- waiting ---------------------------------------------------------------------------------

    def poll_until(
        self, condition: Callable[[RCReceiverState], bool], what: str = "condition"
    ) -> RCReceiverState:
        """Poll (wall-clock deadline 10 s, injected clock untouched) until ``condition(state)``."""

        def poll() -> RCReceiverState:
            state = self.model.poll()
            self.reads_per_poll.append(self.model.messages_read_last_poll)
            return state

        return waiting.poll_until(poll, condition, what, DEADLINE_S, interval_s=0.002)

    def sync(self) -> RCReceiverState:
        """Poll until the vehicle answered all we sent and the model read all the vehicle sent."""
        self.vehicle_caught_up()
        token = f"sync {next(self._tokens)}"
        self.vehicle.send(mavlink2.MAVLink_statustext_message(6, token.encode()), system_id=SYNC_SYSTEM_ID)

        def seen(_state: RCReceiverState) -> bool:
            master = self.fc.master
            bystander = master.sysid_state.get(SYNC_SYSTEM_ID) if master is not None else None
            last = bystander.messages.get("STATUSTEXT") if bystander is not None else None
            text = getattr(last, "text", "")
            return (text.decode(errors="replace") if isinstance(text, bytes) else str(text)) == token

        return self.poll_until(seen, f"sync marker {token!r}")

    def send_backlog(self, *messages: Any) -> None:
        """Queue ``messages`` on our side of the link without the model reading them.

        They travel in one datagram, so once the connection's socket is readable all of them
        are queued (a vehicle heartbeat arriving first could only make that wait shorter, and on
        Linux loopback datagrams are queued inside ``sendto()`` anyway).
        """
        self.vehicle.send_raw(b"".join(encode(message, self.vehicle.system_id, 1) for message in messages))
        master = self.fc.master
        assert master is not None
        readable, _w, _x = select.select([master.port], [], [], DEADLINE_S)
        assert readable, "the backlog never reached our socket"

    def poll_after_sync(self) -> RCReceiverState:
        """A state built after every message sent so far went through the model."""
        self.sync()
        return self.model.poll()

    def vehicle_caught_up(self) -> None:
        """Wait until the vehicle has received and answered every byte we sent so far.

        `sync()`'s marker only proves the model read what was sent before it; the vehicle's own
        receiving thread may lag behind on a loaded machine, so what we sent is awaited
        separately, by the byte count pymavlink keeps of everything the connection wrote.
        """
        sent = sum(int(link.mav.total_bytes_sent) for link in self._own_links)
        waiting.wait_for(
            lambda: self.vehicle.handled_bytes() >= sent,
            f"the vehicle to handle all {sent} bytes sent",
            DEADLINE_S,
        )

    def gcs_messages(self) -> list[Any]:
        """Every message the vehicle got from us, decoded afresh from the raw bytes."""
        self.vehicle_caught_up()
        return decode_all(self.vehicle.received_bytes())

    def plugin_messages(self) -> list[Any]:
        """What the vehicle got from the plugin: `gcs_messages` without the facade's hello from
        connecting (its one read of parameter 0 and its request for AUTOPILOT_VERSION, before
        anything else but heartbeats)."""
        return without_facade_hello(self.gcs_messages())

    def interval_commands(self) -> list[tuple[int, int]]:
        """(message id, interval µs) of every SET_MESSAGE_INTERVAL the vehicle received."""
        self.vehicle_caught_up()
        return [
            (int(params[0]), int(params[1]))
            for command, params in self.vehicle.commands_received()
            if command == mavlink2.MAV_CMD_SET_MESSAGE_INTERVAL
        ]


# ---- a Copter's receiver set-up and the moves of a guided test, shared by the guided-test suites

COPTER = {
    "RC_PROTOCOLS": 1,
    "RC_OPTIONS": 32,
    "RC_OVERRIDE_TIME": 3,
    "RC_FS_TIMEOUT": 1,
    "RSSI_TYPE": 3,
    "RCMAP_ROLL": 1,
    "RCMAP_PITCH": 2,
    "RCMAP_THROTTLE": 3,
    "RCMAP_YAW": 4,
    "FS_THR_ENABLE": 1,
    "FS_THR_VALUE": 975,
    "FLTMODE_CH": 5,
    "FLTMODE1": 0,
    "FLTMODE2": 2,
    "FLTMODE3": 5,
    "FLTMODE4": 6,
    "FLTMODE5": 16,
    "FLTMODE6": 9,
    "RC3_MIN": 1100,
    **{f"RC{n}_REVERSED": 0 for n in range(1, 17)},
    # Every channel calibrated, none with an auxiliary function (the arming findings read them).
    **{f"RC{n}_OPTION": 0 for n in range(1, 17)},
    **{
        f"RC{n}_{kind}": pwm
        for n in range(1, 17)
        for kind, pwm in (("MIN", 1100), ("TRIM", 1500), ("MAX", 1900))
    },
}


LOW = (1100, 1100, 1100, 1100, 1100)


HIGH = (1900, 1900, 1900, 1900, 1900)


def with_parameters(harness: ModelHarness, **changes: float) -> RCReceiverState:
    """The vehicle answers the Copter set with ``changes``; poll until every read is answered."""
    harness.vehicle.parameters = {**COPTER, **changes}
    harness.model.activate()
    return harness.poll_until(lambda state: state.guided.parameters_complete, "the parameter reads")


# The sticks at rest (throttle down, mode switch low), and each stick pushed the way the stick step
# asks, with ArduPilot's direction: roll right, pitch forward (lower PWM), throttle up, yaw right.
REST = (1500, 1500, 1000, 1500, 1100)
STICK_PUSHES = {3: 2000, 1: 2000, 2: 1000, 4: 2000}


def send_frame(harness: ModelHarness, pwm: Sequence[int]) -> RCReceiverState:
    """One RC_CHANNELS and a healthy receiver's SYS_STATUS, read by the model."""
    harness.vehicle.send_rc_channels(list(pwm), chancount=8, rssi=180)
    harness.vehicle.send_sys_status(present=True, enabled=True, healthy=True)
    return harness.poll_after_sync()


def push_stick(
    harness: ModelHarness, channel: int, end: int, *, rest: Sequence[int] = REST
) -> RCReceiverState:
    """One stick of the stick step: at rest long enough for a person's throttle to count as idling
    (and for a program's transmitter to rest its sticks), then pushed to ``end`` and held."""
    pushed = list(rest)
    pushed[channel - 1] = end
    send_frame(harness, rest)
    harness.clock.advance(max(SETTLE_S, THROTTLE_REST_S))
    send_frame(harness, rest)
    send_frame(harness, pushed)
    harness.clock.advance(HOLD_S)
    return send_frame(harness, pushed)


def move_every_stick(harness: ModelHarness, pushes: Mapping[int, int] = STICK_PUSHES) -> RCReceiverState:
    """The whole stick step (correct sticks by default), each let go again after; then the switch
    step is passed over (`pass_switch_step`)."""
    for channel, end in pushes.items():
        push_stick(harness, channel, end)
    return pass_switch_step(harness, send_frame(harness, REST))


def pass_switch_step(harness: ModelHarness, state: RCReceiverState) -> RCReceiverState:
    """Past the switch step: a person goes on with s; a program's transmitter, whose vehicle here
    answers no mode change, waits out each slot."""
    for _attempt in range(2 * SWITCH_SLOT_COUNT + 2):
        guide = state.guided.guide
        if guide.step is not GuideStep.FLIP_SWITCHES:
            return state
        if guide.switches is not None and guide.switches.by_program:
            harness.clock.advance(SLOT_WAIT_S)
            state = send_frame(harness, REST)
        else:
            harness.model.skip_stick()
            state = harness.model.state
    return state


def failsafe(harness: ModelHarness, *, active: bool, held: bool = True) -> RCReceiverState:
    """The receiver's failsafe ``active`` or cleared, reported twice ``EVIDENCE_HOLD_S`` apart
    (``held``: long enough for the guide to take it as evidence), or once."""
    # A vehicle streams both: RC_CHANNELS carries the time SYS_STATUS is dated by.
    harness.vehicle.send_rc_channels(list(HIGH), chancount=8, rssi=180)
    harness.vehicle.send_sys_status(present=True, enabled=True, healthy=not active)
    state = harness.poll_after_sync()
    if not held:
        return state
    harness.clock.advance(EVIDENCE_HOLD_S)
    harness.vehicle.send_rc_channels(list(HIGH), chancount=8, rssi=180)
    harness.vehicle.send_sys_status(present=True, enabled=True, healthy=not active)
    return harness.poll_after_sync()


def prearm_answered(harness: ModelHarness) -> RCReceiverState:
    """The test is over: the model asks for ArduPilot's pre-arm checks, reads the vehicle's ACK
    (the scripted vehicle answers UNSUPPORTED unless told otherwise) and, for an accepted request,
    lets the time for its texts run out."""
    harness.poll_after_sync()  # asks
    harness.poll_after_sync()  # reads the ACK
    harness.clock.advance(ANSWER_WINDOW_S)
    return harness.poll_after_sync()
