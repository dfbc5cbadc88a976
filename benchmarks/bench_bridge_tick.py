# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The worst Tk-thread tick of the bridge panel under floods, as a ratio to one 16 ms frame.

Strategy: everything that runs in the application runs here the same way: the relays' threads in
this process, the real ``BridgeMonitor`` and the real ``BridgePanel`` on a real Tk root (run it
under Xvfb), ticked every 250 ms as the panel's timer does.  Each flood comes from another process
so that the senders do not share this process's interpreter lock, and only over 127.0.0.0/8.  A
tick is timed from the monitor's poll through the panel's render to Tk's idle redraw; the worst
tick of each flood (and 1 s after it, while the backlog drains) is printed as a ratio to a 16 ms
frame.  Target: every ratio below 1.  Only figures are printed; nothing passes or fails.

Wall time is what a person sees, but on a shared machine it also counts the time the UI thread
waited for a CPU; the UI thread's own CPU time per tick (``time.thread_time``) is printed beside it
with the load average, so a run on a busy machine can still be read.

Floods (those of issue 9):
  servo+json  1,000 SITL servo packets and 1,000 realistic JSON states per 250 ms tick, for 3 s
  foreign     a one-second flood of 1 KB JSON states from 127.0.0.2, a sender that is not the peer
  json-8k     2,000 JSON states of 8 KB with ~900 unknown keys from the target, as fast as it can
  xrp-8k      2,000 XRP datagrams of 8 KB, each with a new block layout, from the peer

Run: xvfb-run -a .venv/bin/python benchmarks/bench_bridge_tick.py
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import socket
import statistics
import struct
import sys
import time
import tkinter as tk
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection

from amc_rc_receiver.sim_bridge.monitor import BridgeMonitor
from amc_rc_receiver.sim_bridge.relay import UdpRelay
from amc_rc_receiver.sim_bridge.relay_config import RelayConfig
from amc_rc_receiver.standalone.window.bridge_panel import DEFAULT_TICK_MS, BridgePanel

LOOPBACK = "127.0.0.1"
FOREIGN = "127.0.0.2"
FRAME_MS = 16.0
AFTER_S = 1.0
_SERVO = struct.Struct("<HHI16H")


def servo(frame_count: int) -> bytes:
    return _SERVO.pack(18458, 1200, frame_count & 0xFFFFFFFF, *([1500] * 16))


def realistic_state(index: int) -> bytes:
    rc = ",".join(f'"rc_{channel}":{1500 + channel}' for channel in range(1, 9))
    return (
        f'\n{{"timestamp":{index * 0.0025:.4f},"imu":{{"gyro":[0.01,-0.02,0.003],'
        f'"accel_body":[0.1,-0.05,-9.81]}},"position":[1.5,-2.25,-10.0],"attitude":[0.01,0.02,1.57],'
        f'"velocity":[0.5,0.25,-0.1],"rc":{{{rc}}}}}\n'
    ).encode()


def padded_state(index: int, size: int) -> bytes:
    """A valid JSON state padded to ``size`` bytes with unknown keys (about 900 for 8 KB)."""
    head = realistic_state(index).strip()[:-1]
    keys = []
    length = len(head) + 2
    key = 0
    while length < size - 16:
        item = f'"unknown_key_{key:04d}":{key}'
        keys.append(item)
        length += len(item) + 1
        key += 1
    return head + b"," + ",".join(keys).encode() + b"}\n"


def xrp_new_layout(index: int, size: int) -> bytes:
    """An XRP datagram of ``size`` bytes whose block sizes differ from every earlier one's."""
    blocks = bytearray()
    variant = index
    while len(blocks) < size - 3 - 12:
        block_size = 2 + (variant % 9)  # unknown tags of varying size: a new plan for each datagram
        blocks += bytes([block_size, 0x40 + variant % 32]) + bytes(block_size - 1)
        variant = variant * 7 + 3
    filler = size - 3 - len(blocks)
    blocks += bytes([filler - 1, 0x41]) + bytes(filler - 2)
    return struct.pack(">HB", index & 0xFFFF, 1) + bytes(blocks)


# --------------------------------------------------------------------------- sender processes


def _bound(host: str = LOOPBACK) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
    sock.bind((host, 0))
    return sock


def _sitl_pair(conn: Connection, rate: int, duration_s: float) -> None:
    """Peer sends servo packets at ``rate``/s; target answers each forwarded one with a JSON state."""
    peer, target = _bound(), _bound()
    target.setblocking(False)
    conn.send(target.getsockname()[1])
    listen = (LOOPBACK, conn.recv())
    sent = replies = 0
    start = time.perf_counter()
    total = int(rate * duration_s)
    while sent < total:
        due = min(total, int((time.perf_counter() - start) * rate) + 1)
        while sent < due:
            peer.sendto(servo(sent), listen)
            sent += 1
        while True:
            try:
                _data, relay_out = target.recvfrom(65536)
            except BlockingIOError:
                break
            target.sendto(realistic_state(replies), relay_out)
            replies += 1
        time.sleep(0.0005)
    conn.send((sent, replies))


def _foreign_flood(conn: Connection, duration_s: float) -> None:
    """The peer says hello at 400 Hz; 127.0.0.2 floods the same port with JSON for ``duration_s``."""
    peer, stranger = _bound(), _bound(FOREIGN)
    listen = (LOOPBACK, conn.recv())
    peer.sendto(servo(0), listen)
    conn.recv()  # the peer is learned
    payload = padded_state(0, 1024)
    flooded = 0
    start = time.perf_counter()
    next_hello = start
    while time.perf_counter() - start < duration_s:
        stranger.sendto(payload, listen)
        flooded += 1
        if time.perf_counter() >= next_hello:
            peer.sendto(servo(flooded), listen)
            next_hello += 1 / 400
    conn.send((flooded, 0))


def _target_burst(conn: Connection, count: int, size: int) -> None:
    """The peer says hello; the target then sends ``count`` padded JSON states as fast as it can."""
    peer, target = _bound(), _bound()
    conn.send(target.getsockname()[1])
    listen = (LOOPBACK, conn.recv())
    peer.sendto(servo(0), listen)
    _data, relay_out = target.recvfrom(65536)
    payloads = [padded_state(index, size) for index in range(16)]
    for index in range(count):
        target.sendto(payloads[index % 16], relay_out)
        if index % 16 == 15:
            time.sleep(0.001)  # let the relay keep up: the point is the UI, not the socket buffer
    conn.send((count, 0))


def _peer_burst(conn: Connection, count: int, size: int) -> None:
    """The peer sends ``count`` XRP datagrams of a new layout each, as fast as it can."""
    peer = _bound()
    listen = (LOOPBACK, conn.recv())
    payloads = [xrp_new_layout(index, size) for index in range(count)]
    for index, payload in enumerate(payloads):
        peer.sendto(payload, listen)
        if index % 16 == 15:
            time.sleep(0.001)
    conn.send((count, 0))


# --------------------------------------------------------------------------- the measured side


@dataclass
class Result:
    name: str
    sent: int
    received: int
    counted: int
    ticks: list[tuple[float, float]]  # (wall ms, UI thread CPU ms)

    def lines(self) -> list[str]:
        wall = [tick[0] for tick in self.ticks]
        cpu = [tick[1] for tick in self.ticks]
        return [
            f"{self.name:<11} sent {self.sent:>6}, relay got {self.received:>6}, "
            f"panel counts {self.counted:>6}; {len(self.ticks)} ticks",
            f"{'':<11} wall: median {statistics.median(wall):6.2f} ms, worst {max(wall):6.2f} ms "
            f"= {max(wall) / FRAME_MS:4.2f} frame; UI-thread CPU: median {statistics.median(cpu):6.2f} ms, "
            f"worst {max(cpu):6.2f} ms = {max(cpu) / FRAME_MS:4.2f} frame",
        ]


def _tick_while(root: tk.Tk, panel: BridgePanel, running: Callable[[], bool]) -> list[tuple[float, float]]:
    """Tick as the panel's timer would (every 250 ms) until ``running()`` is false and 1 s more."""
    ticks: list[tuple[float, float]] = []
    period = DEFAULT_TICK_MS / 1000.0
    stop_at: float | None = None
    next_tick = time.perf_counter()
    while stop_at is None or time.perf_counter() < stop_at:
        if stop_at is None and not running():
            stop_at = time.perf_counter() + AFTER_S
        pause = next_tick - time.perf_counter()
        if pause > 0:
            time.sleep(pause)
        next_tick += period
        start, start_cpu = time.perf_counter(), time.thread_time()
        panel._tick()  # exactly what the panel's timer calls
        root.update_idletasks()
        wall_ms = (time.perf_counter() - start) * 1000.0
        ticks.append((wall_ms, (time.thread_time() - start_cpu) * 1000.0))
        root.update()  # events outside the tick, as the main loop would handle them
    return ticks


def _run(
    root: tk.Tk,
    name: str,
    protocol: str,
    sender: Callable[..., None],
    args: tuple[object, ...],
    *,
    with_target: bool,
    learn_peer: bool = False,
) -> Result:
    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe()
    process = context.Process(target=sender, args=(child, *args), daemon=True)
    process.start()
    target = (LOOPBACK, parent.recv()) if with_target else None
    relay = UdpRelay(RelayConfig(name, protocol=protocol, target=target))
    relay.start()
    monitor = BridgeMonitor([relay])
    panel = BridgePanel(root, monitor)
    panel.pack(fill=tk.BOTH, expand=True)
    root.update()
    try:
        parent.send(relay.listen_address[1])
        if learn_peer:
            while relay.peer is None:
                time.sleep(0.001)
            parent.send("learned")
        done: list[tuple[int, int]] = []

        def running() -> bool:
            if not done and parent.poll():
                done.append(parent.recv())
            return not done

        ticks = _tick_while(root, panel, running)
        process.join(5)
        counters = relay.counters()
        snapshot = monitor.poll()
        link = snapshot.links[0]
        sent = done[0][0] + done[0][1] if done else 0
        return Result(
            name,
            sent,
            counters.received_from_peer + counters.received_from_target,
            link.from_peer.packets + link.from_target.packets,
            ticks,
        )
    finally:
        panel.destroy()
        relay.stop()
        # Destroyed widgets are cyclic garbage: collect them here, on the Tk thread, never in a relay's.
        gc.collect()


def main() -> int:
    print(f"Worst Tk-thread tick (monitor poll + panel render + idle redraw) every {DEFAULT_TICK_MS} ms,")
    print(f"during each flood and {AFTER_S:.0f} s after it; ratio to a {FRAME_MS:.0f} ms frame (target < 1).")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{os.cpu_count()} CPUs, load average {load:.2f} at the start:")
    root = tk.Tk()
    root.geometry("1280x720")
    try:
        for scenario in (
            ("servo+json", "ardupilot-json", _sitl_pair, (4000, 3.0), True, False),
            ("foreign", "ardupilot-json", _foreign_flood, (1.0,), False, True),
            ("json-8k", "ardupilot-json", _target_burst, (2000, 8192), True, False),
            ("xrp-8k", "xrp", _peer_burst, (2000, 8192), False, False),
        ):
            name, protocol, sender, args, with_target, learn_peer = scenario
            result = _run(root, name, protocol, sender, args, with_target=with_target, learn_peer=learn_peer)
            for line in result.lines():
                print("  " + line, flush=True)
    finally:
        root.destroy()
        gc.collect()
    return 0


if __name__ == "__main__":
    sys.exit(main())
