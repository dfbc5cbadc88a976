# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A loopback TCP proxy between a ground station and a vehicle that records every byte.

The ground station connects to ``device`` (``tcp:127.0.0.1:<port>``); the proxy opens its own
connection to the vehicle and forwards both ways on one thread.  Everything the vehicle receives
is appended to ``to_vehicle`` (what "the vehicle recorded"), so a test can decode exactly what
left the ground station and split it into phases by byte offsets.  ``mute_vehicle`` swallows
everything the vehicle sends: the ground station then talks to a vehicle that never answers.
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import threading

from tests.support.waiting import wait_for

_LOOPBACK = "127.0.0.1"


class RecordingTcpProxy:
    """Forwards one ground station at a time to ``vehicle_port`` and records what the vehicle gets."""

    def __init__(self, vehicle_port: int) -> None:
        self._vehicle_port = vehicle_port
        self._listener = socket.create_server((_LOOPBACK, 0))
        self._listener.setblocking(False)
        self._lock = threading.Lock()
        self._to_vehicle = bytearray()
        self._to_gcs = bytearray()
        self._connections = 0
        self._mute_vehicle = False
        self._drop = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="recording-proxy", daemon=True)

    @property
    def port(self) -> int:
        return int(self._listener.getsockname()[1])

    @property
    def device(self) -> str:
        return f"tcp:{_LOOPBACK}:{self.port}"

    @property
    def to_vehicle(self) -> bytes:
        """Every byte forwarded to the vehicle so far, over all connections, in order."""
        with self._lock:
            return bytes(self._to_vehicle)

    @property
    def to_gcs(self) -> bytes:
        """Every byte the vehicle sent so far, forwarded or swallowed."""
        with self._lock:
            return bytes(self._to_gcs)

    @property
    def connections(self) -> int:
        with self._lock:
            return self._connections

    def mute_vehicle(self, muted: bool = True) -> None:
        """From now on drop (or forward again) everything the vehicle sends."""
        with self._lock:
            self._mute_vehicle = muted

    def drop_connections(self) -> None:
        """Close both ends of every forwarded connection, as a rebooting board closes its link;
        the proxy keeps listening, so a reconnection would show in `connections`."""
        self._drop.set()
        wait_for(lambda: not self._drop.is_set(), "the proxy to drop its connections", 10.0, interval_s=0.02)

    def start(self) -> RecordingTcpProxy:
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)
        self._listener.close()

    def wait_for_bytes_to_vehicle(self, count: int, timeout_s: float = 30.0) -> bytes:
        """``to_vehicle`` once it holds at least ``count`` bytes (the test fails after ``timeout_s``)."""
        wait_for(
            lambda: len(self.to_vehicle) >= count, f"{count} bytes at the vehicle", timeout_s, interval_s=0.02
        )
        return self.to_vehicle

    # ----------------------------------------------------------------- forwarding thread

    def _run(self) -> None:
        selector = selectors.DefaultSelector()
        selector.register(self._listener, selectors.EVENT_READ, None)
        pairs: dict[socket.socket, socket.socket] = {}
        try:
            while not self._stop.is_set():
                if self._drop.is_set():
                    for sock in list(pairs):
                        selector.unregister(sock)
                        sock.close()
                    pairs.clear()
                    self._drop.clear()
                for key, _mask in selector.select(timeout=0.05):
                    sock = key.fileobj
                    assert isinstance(sock, socket.socket)
                    if sock is self._listener:
                        self._accept(selector, pairs)
                    else:
                        self._forward(sock, pairs, selector, towards_vehicle=key.data == "gcs")
        finally:
            for sock in list(pairs):
                sock.close()
            selector.close()

    def _accept(self, selector: selectors.BaseSelector, pairs: dict[socket.socket, socket.socket]) -> None:
        try:
            gcs, _address = self._listener.accept()
        except BlockingIOError:
            return
        try:
            vehicle = socket.create_connection((_LOOPBACK, self._vehicle_port), timeout=10)
        except OSError:
            gcs.close()
            return
        for sock, role in ((gcs, "gcs"), (vehicle, "vehicle")):
            sock.setblocking(True)
            sock.settimeout(10)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            selector.register(sock, selectors.EVENT_READ, role)
        pairs[gcs], pairs[vehicle] = vehicle, gcs
        with self._lock:
            self._connections += 1

    def _forward(
        self,
        sock: socket.socket,
        pairs: dict[socket.socket, socket.socket],
        selector: selectors.BaseSelector,
        *,
        towards_vehicle: bool,
    ) -> None:
        peer = pairs[sock]
        try:
            data = sock.recv(65536)
        except OSError:
            data = b""
        if not data:
            for end in (sock, peer):
                selector.unregister(end)
                pairs.pop(end, None)
                end.close()
            return
        with self._lock:
            if towards_vehicle:
                self._to_vehicle += data
                muted = False
            else:
                self._to_gcs += data
                muted = self._mute_vehicle
        if muted:
            return
        with contextlib.suppress(OSError):  # the other end went away; its own read reports it
            peer.sendall(data)
