# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Replays the same queued datagrams to one poller, without sockets, for counting instructions.

bench_poll.py runs this under valgrind's cachegrind, which counts instructions and simulated cache
misses rather than seconds: the counts repeat for the same inputs whatever else the machine does.
Arguments: the poller (``bare``: pymavlink's recv_msg() drain, ``ours``, ``5.0.1``: the released
model), the number of polls, the frame mix (``receiver`` or ``busy``) and optionally ``cold``,
which writes 2 MB before every poll, as a live poller's socket work, sleeps and neighbours push it
out of the core's caches between two polls.  The datagrams go through pymavlink's own receive
path (a `mavfile` whose ``recv`` hands out the next datagram), so parsing and bookkeeping are as
on a socket.  Both models read a clock that moves 0.1 s a poll, as the datagrams' own timestamps
do: on the wall clock, valgrind's slowness would change what the models work out (ages, rates).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_poll
from pymavlink import mavutil
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.connection.opening import use_mavlink2
from amc_rc_receiver.demo.parameters import COPTER_PARAMETERS
from amc_rc_receiver.plugins.data_model_rc_receiver import RCReceiverDataModel
from tests.support.clock import ManualClock


class ReplayConnection(mavutil.mavfile):  # type: ignore[misc]
    """A pymavlink connection whose datagrams come from a list."""

    def __init__(self) -> None:
        self.queue: list[bytes] = []
        super().__init__(None, "replay", source_system=255, source_component=190)
        use_mavlink2(self)
        self.target_system, self.target_component = 1, 1

    def recv(self, n: int | None = None) -> bytes:
        del n
        return self.queue.pop() if self.queue else b""

    def write(self, buf: bytes) -> None:
        del buf


class _Info:
    system_id = "1"
    component_id = "1"


class Facade:
    """The host's flight controller as both models read it, with the host's parameter download."""

    def __init__(self, master: ReplayConnection) -> None:
        self.master = master
        self.info = _Info()
        self.fc_parameters = {spec.name: spec.default for spec in COPTER_PARAMETERS}

    def request_rc_receiver_messages(self, interval_microseconds: int = 200_000) -> tuple[bool, str]:
        del interval_microseconds
        return True, ""


BATCHES = 50


def queued_batches(
    frames: Callable[[int, int], tuple[Any, int, int]], count: int = BATCHES
) -> list[list[bytes]]:
    """``count`` trials' datagrams of ``frames`` (`bench_poll.datagrams`), each in the order
    `ReplayConnection.recv` hands them out (it takes the last first)."""
    return [list(reversed(bench_poll.datagrams(frames, trial))) for trial in range(count)]


# Larger than the core's second-level cache (512 KB here), written one byte per 64-byte line.
CACHE_PUSH_BYTES = 2 * 1024 * 1024
CACHE_LINE = 64
POLL_PERIOD_S = 0.1


def introduce_vehicle(master: ReplayConnection, poll: Callable[[], object]) -> None:
    """One poll of the vehicle's own HEARTBEAT (a quadrotor), as the live benchmark's vehicle sends
    one a second: the check then works as it does live, for a copter (the mixes' only heartbeat
    is a foreign system's, which would leave the family unknown and the pre-arm checks unasked)."""
    encoder = mavlink2.MAVLink(None)
    encoder.srcSystem, encoder.srcComponent = 1, 1
    heartbeat = mavlink2.MAVLink_heartbeat_message(2, 3, 0, 0, 4, 3)  # quadrotor, ArduPilot, standby
    master.queue = [bytes(heartbeat.pack(encoder))]
    poll()


def main() -> int:
    poller, polls, mix = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    cold = sys.argv[4:] == ["cold"]
    clock = ManualClock()
    frames = bench_poll.busy_link_frames if mix == "busy" else bench_poll.receiver_frames
    master = ReplayConnection()
    batches = queued_batches(frames)
    poll: Any
    if poller == "ours":
        model = RCReceiverDataModel(Facade(master), clock)
        model.activate()
        poll = model.poll
        introduce_vehicle(master, poll)
    elif poller == "5.0.1":
        released = bench_poll.released_model_module()
        if released is None:
            return 2
        theirs = released.RCReceiverDataModel(Facade(master), clock)
        theirs.get_receiver_state()
        poll = theirs.get_receiver_state
        introduce_vehicle(master, poll)
    else:

        def poll() -> None:
            while master.recv_msg() is not None:
                pass

    push = bytearray(CACHE_PUSH_BYTES)
    zeros = bytes(CACHE_PUSH_BYTES // CACHE_LINE)
    for index in range(polls):
        master.queue = list(batches[index % len(batches)])
        if cold:
            push[::CACHE_LINE] = zeros
        clock.advance(POLL_PERIOD_S)
        poll()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
