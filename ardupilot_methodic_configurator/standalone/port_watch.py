# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The serial ports offered in the window, kept current while a board is plugged in or removed.

Listing ports reads udev/sysfs (Linux), the registry (Windows) or IOKit (macOS): usually a few
milliseconds, but it can stall for a second on a machine with a flaky USB hub.  So it runs on a
daemon thread at a low rate, and the Tk thread only takes the latest list, which changes its
``generation`` when the set of ports does.  ArduPilot-like boards come first (`serial_ports`).
"""

from __future__ import annotations

import threading

from ..connection.ports import PortLister, serial_ports

# Low enough to cost nothing, high enough that a board plugged in shows up before the list opens.
POLL_S = 1.0


class PortWatch:
    """Re-reads ``list_ports`` every ``interval_s`` on its own thread; see the module docstring."""

    def __init__(self, list_ports: PortLister, *, interval_s: float = POLL_S) -> None:
        self._list_ports = list_ports
        self._interval_s = interval_s
        self._lock = threading.Lock()
        self._devices: tuple[str, ...] = ()
        self._generation = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="amc-rc-receiver-ports", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def latest(self) -> tuple[tuple[str, ...], int]:
        """The devices found by the latest look, and a number that changes when they change."""
        with self._lock:
            return self._devices, self._generation

    def look(self) -> None:
        """One look at the ports (the thread's job; tests call it directly)."""
        try:
            devices = tuple(port.device for port in serial_ports(self._list_ports))
        except Exception:  # a lister that fails is as harmless as one that finds nothing
            devices = ()
        with self._lock:
            if devices != self._devices:
                self._devices = devices
                self._generation += 1

    def _run(self) -> None:
        while not self._stop.is_set():
            self.look()
            self._stop.wait(self._interval_s)
