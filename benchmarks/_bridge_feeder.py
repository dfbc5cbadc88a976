# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""ArduCopter SITL's JSON link at SITL's default rate, for the bridge view of benchmarks/soak.py.

Run by benchmarks/soak.py, not by hand::

    python benchmarks/_bridge_feeder.py RATE SUMMARY_PATH

Both ends of a ``--bridge ardupilot-json,127.0.0.1:RELAY_PORT,127.0.0.1:PHYSICS_PORT`` relay, in
one process of their own (so they share no interpreter lock with the window under soak), on
127.0.0.1 only:

- the vehicle's end sends servo packets as ArduCopter SITL sends them standing on the ground
  (40 bytes, magic 18458, frame rate RATE, the frame count one up per packet, motors at 1000 µs:
  the captured ``fuzz/corpus/sitl-json/sitl-servo-*``), paced at RATE a second to the relay's
  listen port, and reads the replies the relay brings back;
- the physics end answers each servo packet with the JSON state the ``--sitl`` runner's back end
  sends (the project's ``FrameStepper`` with a transmitter: a vehicle at rest and an ``rc``
  object), to whatever address the packet came from, as SITL's back end does.

The first line on stdout is ``RELAY_PORT PHYSICS_PORT``: a free port for the relay to listen on
(picked here, where it cannot be one of the feeder's own) and the relay's target.  Sending starts
once the relay listens on RELAY_PORT, so the counts are of the soak and not of the window's
start-up.  On SIGTERM sending stops, both ends go on answering and reading for ``SETTLE_S`` so
nothing is left in flight, and the counts are written to SUMMARY_PATH as one JSON object, with
the datagrams the kernel dropped at each of the four sockets of the link because its receive
buffer was full (``/proc/net/udp``: a reader that fell behind, which no program's count sees).
"""

from __future__ import annotations

import json
import select
import signal
import socket
import sys
import time
from pathlib import Path

from amc_rc_receiver.demo.physics_backend import FrameStepper
from amc_rc_receiver.demo.transmitter import Transmitter
from amc_rc_receiver.sim_bridge.protocols.sitl_servo_packet import encode_servo_packet

LOOPBACK = "127.0.0.1"
# ArduCopter SITL on the ground, disarmed: four motors at their minimum, the other outputs unset.
PWM = (1000, 1000, 1000, 1000, *([0] * 12))
RECEIVE_BUFFER = 1 << 20
# A feeder starved of CPU longer than this starts its schedule again rather than sending a burst
# a real SITL would never send (SITL waits for each reply before its next frame).
MAX_BEHIND_S = 0.1
RELAY_WAIT_S = 120.0
RELAY_PROBE_S = 0.1
# Far longer than a datagram's way through the relay, even on a loaded machine.
SETTLE_S = 1.0
PROC_NET_UDP = Path("/proc/net/udp")


def socket_drops(ports: dict[str, int | None]) -> dict[str, int | None]:
    """Per named loopback port, the datagrams the kernel dropped at the UDP socket bound to it."""
    by_port: dict[int, int] = {}
    try:
        lines = PROC_NET_UDP.read_text(encoding="ascii").splitlines()[1:]
    except OSError:
        lines = []
    for line in lines:
        fields = line.split()
        host, port = fields[1].split(":")
        if host == "0100007F":  # 127.0.0.1, as /proc writes it
            by_port[int(port, 16)] = int(fields[-1])
    return {name: None if port is None else by_port.get(port) for name, port in ports.items()}


def relay_listening(port: int) -> bool:
    """Whether something holds UDP ``port`` on the loopback (the window's relay, once it started)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.bind((LOOPBACK, port))
        except OSError:
            return True
    return False


def udp_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
    sock.bind((LOOPBACK, 0))
    sock.setblocking(False)
    return sock


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


class Feeder:
    """The vehicle's end and the physics end, served from one select loop."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.frame_rate = min(65535, round(rate))
        self.vehicle = udp_socket()
        self.physics = udp_socket()
        # Picked while both sockets are bound, so the kernel cannot hand it to either of them.
        self.relay = (LOOPBACK, free_port())
        self.stepper = FrameStepper(Transmitter())
        self.stopping = False
        self.sent = 0
        self.replies_back = 0
        self.physics_received = 0
        self.physics_replied = 0
        self.send_errors = 0
        self.restarts = 0
        self.started_after_s: float | None = None
        self.sending_s = 0.0
        # Where the relay's outbound socket sends from: the physics end sees it as the sender.
        self.relay_outbound: int | None = None
        self.drops: dict[str, int | None] = {}

    @property
    def physics_port(self) -> int:
        return int(self.physics.getsockname()[1])

    def wait_for_relay(self) -> bool:
        began = time.monotonic()
        while not self.stopping and time.monotonic() - began < RELAY_WAIT_S:
            if relay_listening(self.relay[1]):
                self.started_after_s = time.monotonic() - began
                return True
            time.sleep(RELAY_PROBE_S)
        return False

    def run(self) -> None:
        start = time.perf_counter()
        began = start
        sent_at_start = 0
        while not self.stopping:
            now = time.perf_counter()
            due = sent_at_start + int((now - start) * self.rate) + 1
            if due - self.sent > self.rate * MAX_BEHIND_S:
                self.restarts += 1
                start, sent_at_start = now, self.sent
                due = self.sent + 1
            while self.sent < due:
                self._send(self.vehicle, encode_servo_packet(self.frame_rate, self.sent & 0xFFFFFFFF, PWM))
                self.sent += 1
            self._serve(max(0.0, start + (self.sent - sent_at_start) / self.rate - time.perf_counter()))
        self.sending_s = time.perf_counter() - began
        settled = time.perf_counter() + SETTLE_S
        while (left := settled - time.perf_counter()) > 0:
            self._serve(left)
        self.drops = socket_drops(
            {
                "relay listen": self.relay[1],
                "relay outbound": self.relay_outbound,
                "vehicle": int(self.vehicle.getsockname()[1]),
                "physics": self.physics_port,
            }
        )

    def _serve(self, wait: float) -> None:
        """Wait up to ``wait`` s for datagrams; read the replies, answer the servo packets."""
        try:
            ready, _writable, _errors = select.select([self.vehicle, self.physics], [], [], wait)
        except InterruptedError:
            return
        if self.vehicle in ready:
            self.replies_back += len(self._drain(self.vehicle))
        if self.physics in ready:
            for data, source in self._drain(self.physics):
                self.physics_received += 1
                self.relay_outbound = source[1]
                reply = self.stepper.handle(data)
                if reply is not None:
                    self.physics_replied += self._send(self.physics, reply, source)

    def _send(self, sock: socket.socket, data: bytes, to: tuple[str, int] | None = None) -> int:
        try:
            sock.sendto(data, to or self.relay)
        except OSError:  # a full buffer or a refused port: counted, never the end of the soak
            self.send_errors += 1
            return 0
        return 1

    @staticmethod
    def _drain(sock: socket.socket) -> list[tuple[bytes, tuple[str, int]]]:
        received = []
        while True:
            try:
                received.append(sock.recvfrom(65536))
            except (BlockingIOError, InterruptedError):
                return received
            except OSError:  # an ICMP error queued on the socket; the next read goes on
                continue

    def summary(self) -> dict[str, object]:
        return {
            "rate": self.rate,
            "started_after_s": self.started_after_s,
            "sending_s": round(self.sending_s, 2),
            "sent": self.sent,
            "physics_received": self.physics_received,
            "physics_replied": self.physics_replied,
            "replies_back": self.replies_back,
            "send_errors": self.send_errors,
            "restarts": self.restarts,
            "max_behind_s": MAX_BEHIND_S,
            "drops": self.drops,
        }


def main(argv: list[str]) -> int:
    rate, summary_path = float(argv[0]), Path(argv[1])
    feeder = Feeder(rate)

    def stop(_signal: int, _frame: object) -> None:
        feeder.stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(feeder.relay[1], feeder.physics_port, flush=True)
    if feeder.wait_for_relay():
        feeder.run()
    summary_path.write_text(json.dumps(feeder.summary()) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
