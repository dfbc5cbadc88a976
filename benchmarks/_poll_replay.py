# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Replays the same queued datagrams to one poller, without sockets, for counting instructions.

bench_poll.py runs this under valgrind's callgrind, which counts instructions rather than seconds:
the count repeats for the same inputs whatever else the machine does.  Arguments: the poller
(``bare``: pymavlink's recv_msg() drain, ``ours``, ``5.0.1``: the released model), the number of
polls, and the frame mix (``receiver`` or ``busy``).  The datagrams go through pymavlink's own
receive path (a `mavfile` whose ``recv`` hands out the next datagram), so parsing and bookkeeping
are as on a socket.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_poll
from pymavlink import mavutil

from amc_rc_receiver.connection.opening import use_mavlink2
from amc_rc_receiver.demo.parameters import COPTER_PARAMETERS
from amc_rc_receiver.plugins.data_model_rc_receiver import RCReceiverDataModel


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


def main() -> int:
    poller, polls, mix = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    frames = bench_poll.busy_link_frames if mix == "busy" else bench_poll.receiver_frames
    master = ReplayConnection()
    batches = [list(reversed(bench_poll.datagrams(frames, trial))) for trial in range(50)]
    poll: Any
    if poller == "ours":
        model = RCReceiverDataModel(Facade(master))
        model.activate()
        poll = model.poll
    elif poller == "5.0.1":
        released = bench_poll.released_model_module()
        if released is None:
            return 2
        theirs = released.RCReceiverDataModel(Facade(master))
        theirs.get_receiver_state()
        poll = theirs.get_receiver_state
    else:

        def poll() -> None:
            while master.recv_msg() is not None:
                pass

    for index in range(polls):
        master.queue = list(batches[index % len(batches)])
        poll()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
