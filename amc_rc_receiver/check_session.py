# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""One running receiver check: connection, optional demo vehicle, bridge relays, model and monitor.

Both front ends (terminal and window) drive the same session object, so the wiring of the
embedded demo (vehicle -> relay -> physics back end) and of user-supplied bridges lives in one
place.  Every method returns a readable error string instead of raising, in the same style as
`FlightController.connect`, because the callers show errors to a person.

The window connects on a worker thread while its Tk thread adds bridges, so the relay list is
guarded by a lock, and the session keeps one bridge monitor for its whole life, adding and
removing relays: rebuilding it would reset every link's statistics, and a rebuild racing another
could drop a link from the panel.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable

from amc_rc_receiver import _
from amc_rc_receiver.backend_flightcontroller import FlightController
from amc_rc_receiver.bridge_spec import BridgeSpec
from amc_rc_receiver.plugins.data_model_rc_receiver import RCReceiverDataModel
from amc_rc_receiver.sim_bridge.demo import DemoSystem
from amc_rc_receiver.sim_bridge.monitor import BridgeMonitor
from amc_rc_receiver.sim_bridge.relay import RelayConfig, UdpRelay

DEMO_DEVICE = "demo"
BRIDGE_RELEARN_AFTER_S = 2.0


def demo_receiver_rssi(transmitter_on: bool, now: float) -> int:
    """RSSI the demo receiver reports: a slow wobble in the upper range, 0 with no transmitter.

    Real receivers that report RSSI through their protocol (RSSI_TYPE 3) drop to 0 on link loss,
    so the demo shows that, which lets a person see the RSSI bar react to the transmitter switch.
    """
    if not transmitter_on:
        return 0
    return 190 + round(12 * math.sin(now * 0.8))


class CheckSession:
    """Owns everything one receiver check needs and tears it down in the right order."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.flight_controller = FlightController()
        self._model: RCReceiverDataModel | None = None
        self.demo: DemoSystem | None = None
        self._bridge_relays: list[UdpRelay] = []
        # Guards ``demo`` and ``_bridge_relays`` between the connect worker and the Tk thread.
        self._relays_lock = threading.RLock()
        self.monitor = BridgeMonitor([], clock=clock)

    @property
    def model(self) -> RCReceiverDataModel:
        """The terminal front end's model; the window's plugin host creates its own via the factory."""
        if self._model is None:
            self._model = RCReceiverDataModel(self.flight_controller, clock=self._clock)
        return self._model

    @property
    def relays(self) -> tuple[UdpRelay, ...]:
        with self._relays_lock:
            demo_relays = tuple(self.demo.relays) if self.demo is not None else ()
            return demo_relays + tuple(self._bridge_relays)

    def add_bridge(self, spec: BridgeSpec) -> str:
        """Start a relay for ``spec``; ``""`` on success or why it could not start."""
        relay = UdpRelay(
            RelayConfig(
                name=spec.name,
                protocol=spec.protocol,
                listen=spec.listen,
                target=spec.target,
                # A restarted simulator sends from a new port; follow it once the old peer is quiet.
                relearn_after_s=BRIDGE_RELEARN_AFTER_S,
            ),
            clock=self._clock,
        )
        try:
            relay.start()
        except OSError as error:
            return _("Cannot listen on {host}:{port} for the {protocol} bridge: {error}").format(
                host=spec.listen[0],
                port=spec.listen[1],
                protocol=spec.protocol,
                error=error.strerror or error,
            )
        with self._relays_lock:
            self._bridge_relays.append(relay)
            self.monitor.add_relays([relay])
        return ""

    def start_demo(self) -> str:
        """Start the embedded simulated vehicle (idempotent); ``""`` or a readable error."""
        with self._relays_lock:
            if self.demo is not None:
                return ""
            demo = DemoSystem(rssi_source=lambda: demo_receiver_rssi(demo.transmitter_on, self._clock()))
            try:
                demo.start()
            except OSError as error:
                demo.stop()
                return _("The simulated vehicle could not start: {error}").format(error=error)
            self.demo = demo
            self.monitor.add_relays(demo.relays)
        return ""

    def stop_demo(self) -> None:
        with self._relays_lock:
            demo, self.demo = self.demo, None
            if demo is not None:
                self.monitor.remove_relays(demo.relays)
                demo.stop()

    def connect(self, device: str, baudrate: int = 115200, timeout: float = 5.0) -> str:
        """Connect to ``device`` (or the embedded demo for ``"demo"``); ``""`` or a readable error.

        Blocking (waits for a heartbeat): the window calls it from a worker thread.
        """
        if device == DEMO_DEVICE:
            error = self.start_demo()
            if error:
                return error
            assert self.demo is not None
            device = self.demo.device
        else:
            self.stop_demo()
        return self.flight_controller.connect(device, baudrate=baudrate, timeout=timeout)

    def disconnect(self) -> None:
        if self._model is not None:
            self._model.deactivate()
        self.flight_controller.disconnect()
        self.stop_demo()

    def set_transmitter_on(self, on: bool) -> str:
        if self.demo is None:
            return _("The transmitter switch only works with the simulated vehicle.")
        self.demo.set_transmitter_on(on)
        return ""

    def close(self) -> None:
        """Stop everything; safe to call more than once."""
        try:
            if self._model is not None:
                self._model.deactivate()
        finally:
            self.flight_controller.disconnect()
            self.stop_demo()
            with self._relays_lock:
                relays, self._bridge_relays = self._bridge_relays, []
                self.monitor.remove_relays(relays)
            for relay in relays:
                relay.stop()
