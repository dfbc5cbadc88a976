# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A vehicle in a process of its own that never answers a command (for bench_poll.py).

It listens on the UDP port given as the first argument, learns the ground station from its first
datagram (or, given a third argument, sends to that loopback port from the start, for a ground
station that listens with udpin) and then, every 100 ms, sends a burst of 50 MAVLink 2 messages
(heartbeat, receiver telemetry, unrelated traffic), so that each poll of the check finds 50
waiting.  It stops after the number of seconds given as the second argument.
"""

from __future__ import annotations

import socket
import sys
import time

from pymavlink.dialects.v20 import ardupilotmega as mavlink2

BURST = 50
PERIOD_S = 0.1


def burst(encoder: mavlink2.MAVLink, boot: float) -> list[bytes]:
    now_ms = int((time.monotonic() - boot) * 1000) or 1
    rc = 1 << 16
    messages = [
        mavlink2.MAVLink_heartbeat_message(
            mavlink2.MAV_TYPE_QUADROTOR, mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA, 0, 0, 3, 3
        ),
        mavlink2.MAVLink_rc_channels_message(now_ms, 8, *([1500] * 18), 180),
        mavlink2.MAVLink_sys_status_message(rc, rc, rc, 0, 12600, -1, -1, 0, 0, 0, 0, 0, 0),
    ]
    while len(messages) < BURST:
        messages.append(mavlink2.MAVLink_attitude_message(now_ms, 0.1, 0.2, 0.3, 0.0, 0.0, 0.0))
    return [bytes(message.pack(encoder)) for message in messages]


def main() -> int:
    port, seconds = int(sys.argv[1]), float(sys.argv[2])
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", port))
    sock.settimeout(seconds)
    if len(sys.argv) > 3:
        ground_station = ("127.0.0.1", int(sys.argv[3]))
    else:
        _data, ground_station = sock.recvfrom(65535)
    sock.setblocking(False)
    encoder = mavlink2.MAVLink(None, srcSystem=1, srcComponent=1)
    boot = time.monotonic() - 60.0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for datagram in burst(encoder, boot):
            sock.sendto(datagram, ground_station)
        try:
            while True:
                sock.recvfrom(65535)  # commands are read and never answered
        except BlockingIOError:
            pass
        time.sleep(PERIOD_S)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
