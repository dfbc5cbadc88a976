# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Added latency and lossless throughput of the UDP relay, against a direct path in the same run.

Strategy: an echo server runs in its own process.  The main thread times round trips to it
directly and through a relay (the relay's thread in this process, as in the application),
alternating trial by trial so that machine noise hits both paths alike; the added latency is the
difference of the medians and of the 99th percentiles.  For throughput a sender process paces
40-byte SITL servo packets at 5,000/s for 2 s through the relay into a sink process that counts
distinct sequence numbers, while a BridgeMonitor polls at 10 Hz in the main thread (the relay's
thread does the counting and header checks after forwarding; the monitor copies the tallies and
decodes only the newest frame, within its time budget).  Last, the loop guard's own CPU time per
datagram, which the relay's thread spends before forwarding.  Only figures are printed; nothing
passes or fails.

Run: .venv/bin/python benchmarks/_relay_bench.py
"""

from __future__ import annotations

import multiprocessing
import socket
import statistics
import struct
import time
from multiprocessing.connection import Connection

from amc_rc_receiver.sim_bridge.loop_guard import ReturnGuard
from amc_rc_receiver.sim_bridge.monitor import BridgeMonitor
from amc_rc_receiver.sim_bridge.relay import UdpRelay
from amc_rc_receiver.sim_bridge.relay_config import RelayConfig

LOOPBACK = "127.0.0.1"
ROUND_TRIPS = 3000
WARMUP = 300
RATE_PER_S = 5000
DURATION_S = 2.0
TARGET_ADDED_MEDIAN_US = 200.0
POLL_INTERVAL_S = 0.1
GUARD_DATAGRAMS = 200_000
_STOP = b"__stop__"
_SERVO = struct.Struct("<HHI16H")


def _echo(conn: Connection) -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind((LOOPBACK, 0))
    conn.send(sock.getsockname()[1])
    while True:
        data, source = sock.recvfrom(65536)
        if data == _STOP:
            break
        sock.sendto(data, source)
    sock.close()


def _sink(conn: Connection) -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
    sock.bind((LOOPBACK, 0))
    conn.send(sock.getsockname()[1])
    seen: set[int] = set()
    while True:
        data, _source = sock.recvfrom(65536)
        if data == _STOP:
            break
        if len(data) == _SERVO.size:
            seen.add(_SERVO.unpack(data)[2])
    sock.close()
    conn.send(len(seen))


def _paced_sender(conn: Connection, port: int, rate: int, duration_s: float) -> None:
    """Send ``rate`` servo packets per second, releasing each batch when it falls due (1 ms grain)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind((LOOPBACK, 0))
    total = int(rate * duration_s)
    pwm = [1500] * 16
    start = time.perf_counter()
    sent = 0
    while sent < total:
        due = min(total, int((time.perf_counter() - start) * rate) + 1)
        while sent < due:
            sock.sendto(_SERVO.pack(18458, 400, sent, *pwm), (LOOPBACK, port))
            sent += 1
        time.sleep(0.001)
    conn.send((sent, time.perf_counter() - start))
    sock.close()


def _start(target: object, *args: object) -> tuple[multiprocessing.process.BaseProcess, Connection, object]:
    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe()
    process = context.Process(target=target, args=(child, *args), daemon=True)
    process.start()
    return process, parent, parent.recv() if target is not _paced_sender else None


def _timed_poll(monitor: BridgeMonitor) -> float:
    start = time.perf_counter()
    monitor.poll()
    return time.perf_counter() - start


def _round_trip(sock: socket.socket, address: tuple[str, int], payload: bytes) -> int:
    start = time.perf_counter_ns()
    sock.sendto(payload, address)
    while True:
        data = sock.recv(65536)
        if data == payload:
            return time.perf_counter_ns() - start


def _percentile(values: list[int], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] / 1000.0


def _latency() -> list[str]:
    echo, echo_conn, echo_port = _start(_echo)
    assert isinstance(echo_port, int)
    echo_address = (LOOPBACK, echo_port)
    relay = UdpRelay(RelayConfig("bench", protocol="ardupilot-json", target=echo_address))
    relay.start()
    direct_sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    relay_sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for sock in (direct_sock, relay_sock):
        sock.bind((LOOPBACK, 0))
        sock.settimeout(2.0)
    direct: list[int] = []
    relayed: list[int] = []
    try:
        for trial in range(WARMUP + ROUND_TRIPS):
            payload = _SERVO.pack(18458, 400, trial, *([1500] * 16))
            direct_ns = _round_trip(direct_sock, echo_address, payload)
            relayed_ns = _round_trip(relay_sock, relay.listen_address, payload)
            if trial >= WARMUP:
                direct.append(direct_ns)
                relayed.append(relayed_ns)
    finally:
        direct_sock.sendto(_STOP, echo_address)
        relay.stop()
        direct_sock.close()
        relay_sock.close()
        echo.join(5)
        echo_conn.close()
    direct_median = statistics.median(direct) / 1000.0
    relay_median = statistics.median(relayed) / 1000.0
    direct_p99 = _percentile(direct, 0.99)
    relay_p99 = _percentile(relayed, 0.99)
    added = relay_median - direct_median
    verdict = "meets" if added < TARGET_ADDED_MEDIAN_US else "MISSES"
    return [
        f"relay round trip ({ROUND_TRIPS} trials, 40-byte datagrams, echo in another process):",
        f"  direct      median {direct_median:8.1f} us   p99 {direct_p99:8.1f} us",
        f"  via relay   median {relay_median:8.1f} us   p99 {relay_p99:8.1f} us",
        f"  added       median {added:8.1f} us   p99 {relay_p99 - direct_p99:8.1f} us"
        f"   (ratio {relay_median / direct_median:.2f}x;"
        f" target < {TARGET_ADDED_MEDIAN_US:.0f} us: {verdict})",
    ]


def _throughput() -> list[str]:
    sink, sink_conn, sink_port = _start(_sink)
    assert isinstance(sink_port, int)
    relay = UdpRelay(RelayConfig("bench", protocol="ardupilot-json", target=(LOOPBACK, sink_port)))
    relay.start()
    monitor = BridgeMonitor([relay])
    try:
        sender, sender_conn, _unused = _start(_paced_sender, relay.listen_address[1], RATE_PER_S, DURATION_S)
        # The monitor polls at the panel's 10 Hz in this thread meanwhile, as in the application.
        poll_s: list[float] = []
        while not sender_conn.poll(POLL_INTERVAL_S):
            poll_s.append(_timed_poll(monitor))
        sent, elapsed = sender_conn.recv()
        sender.join(5)
        deadline = time.monotonic() + 2.0
        while relay.counters().received_from_peer < sent and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.05)
        poll_s.append(_timed_poll(monitor))
        counters = relay.counters()
        counted = monitor.snapshot.links[0].from_peer.packets
    finally:
        relay.stop()
    stopper = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    stopper.sendto(_STOP, (LOOPBACK, sink_port))
    stopper.close()
    arrived = sink_conn.recv()
    sink.join(5)
    lost = sent - arrived
    verdict = "no loss" if lost == 0 else f"LOST {lost}"
    return [
        f"relay throughput: {sent} datagrams paced at {RATE_PER_S}/s over {elapsed:.2f} s",
        f"  relay received {counters.received_from_peer}, forwarded {counters.forwarded_from_peer}, "
        f"sink got {arrived} distinct ({verdict}); ring drops {counters.dropped_captures}, "
        f"errors {dict(counters.errors) or 'none'}",
        f"  monitor at 10 Hz counted {counted} datagrams;"
        f" poll() median {statistics.median(poll_s) * 1e3:.2f} ms, worst {max(poll_s) * 1e3:.2f} ms",
    ]


def _guard_cost() -> list[str]:
    """CPU time the loop guard adds per forwarded datagram, distinct and repeated (sim_bridge.loop_guard)."""
    sender, target = (LOOPBACK, 40000), (LOOPBACK, 9002)
    distinct = [_SERVO.pack(18458, 400, count, *([1500] * 16)) for count in range(GUARD_DATAGRAMS)]
    repeated = [distinct[0]] * GUARD_DATAGRAMS
    lines = ["loop guard (sim_bridge.loop_guard.ReturnGuard.admit), CPU time per 40-byte datagram:"]
    for what, datagrams in (("distinct (SITL frames)", distinct), ("repeated (RflySim SIL)", repeated)):
        guard = ReturnGuard()
        start = time.thread_time_ns()
        for index, data in enumerate(datagrams):
            guard.admit(bytes(data), sender, target, index * 0.0025)
        cost = (time.thread_time_ns() - start) / len(datagrams)
        lines.append(f"  {what:24} {cost:8.0f} ns  (bytes copy included, as recvfrom gives a new object)")
    return lines


def run_relay_benchmarks() -> list[str]:
    """Measure the relay's added latency and paced throughput; return the report lines."""
    return _latency() + _throughput() + _guard_cost()


if __name__ == "__main__":
    for line in run_relay_benchmarks():
        print(line)
