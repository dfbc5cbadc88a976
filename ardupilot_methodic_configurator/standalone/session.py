# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""One session with a vehicle for the receiver check: connection, optional demo vehicle, bridge relays,
model and monitor.

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

import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from .. import _
from ..backend_flightcontroller import FlightController
from ..connection.ports import PortLister, system_ports
from ..demo.setups import DemoChoice
from ..demo.system import DemoSystem
from ..demo.transmitter import Transmitter
from ..net.host_port import beyond_loopback_notice
from ..plugins.data_model_rc_receiver import RCReceiverDataModel
from ..plugins.rc_receiver.program_transmitter import StickHold
from ..plugins.rc_receiver.snapshot import RCReceiverState
from ..plugins.rc_receiver.switches import SwitchHold
from ..sim_bridge.chains import ChainLink, circle_sentence, find_circle
from ..sim_bridge.monitor import BridgeMonitor
from ..sim_bridge.relay import UdpRelay
from ..sim_bridge.relay_config import RelayConfig, RelayError
from ..sim_bridge.spec import BridgeSpec, bridge_name
from ..sitl.config import SitlConfig
from ..sitl.runner import SitlRunner
from .options import DEMO_DEVICE

BRIDGE_RELEARN_AFTER_S = 2.0
# Tests kept from before reconnections: a board that reboots in a loop must not grow memory.
MAX_PREVIOUS_TESTS = 5


class VehicleSession:
    """Owns everything one receiver check needs and tears it down in the right order."""

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.monotonic,
        demo_choice: DemoChoice | None = None,
        list_ports: PortLister = system_ports,
    ) -> None:
        self._clock = clock
        # Which vehicle and set-up the embedded demo is (--demo-vehicle, --demo-setup).
        self.demo_choice = demo_choice
        self.flight_controller = FlightController()
        self._model: RCReceiverDataModel | None = None
        self.demo: DemoSystem | None = None
        # A real SITL run for the check (``--sitl``); it lives as long as the session.
        self.sitl: SitlRunner | None = None
        self._bridge_relays: list[UdpRelay] = []
        # Guards ``demo`` and ``_bridge_relays`` between the connect worker and the Tk thread.
        self._relays_lock = threading.RLock()
        self.monitor = BridgeMonitor([], clock=clock)
        # pyserial's list of the computer's ports, read to find a USB board again after a reboot.
        self._system_ports = list_ports
        # Said once each: a bridge listening beyond the loopback (see `take_notices`).
        self._notices: list[str] = []
        # The tests that ran before the link was lost and re-established, oldest first (the
        # parameters may have changed across a reboot, so each is its own test, and report).
        self.previous_tests: list[RCReceiverState] = []
        # Earlier tests let go to keep only the newest `MAX_PREVIOUS_TESTS` (said at the end).
        self.dropped_tests = 0

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
            sitl_relays = self.sitl.relays if self.sitl is not None else ()
            return demo_relays + sitl_relays + tuple(self._bridge_relays)

    def list_ports(self) -> list[Any]:
        """The computer's serial ports, and a ``--sitl`` serial line as its USB board would appear."""
        sitl = self.sitl
        return [*self._system_ports(), *(sitl.virtual_ports() if sitl is not None else ())]

    def keep_test_before_reconnect(self, state: RCReceiverState) -> None:
        """Keep ``state``, the test on a link that was just lost, for its report."""
        if state.guided.system_id is None:
            return  # nothing was ever seen: no evidence to keep
        kept = [*self.previous_tests, state]
        self.dropped_tests += max(0, len(kept) - MAX_PREVIOUS_TESTS)
        self.previous_tests = kept[-MAX_PREVIOUS_TESTS:]

    def take_notices(self) -> list[str]:
        """What the user should know about the sockets started since the last call (once each)."""
        notices, self._notices = self._notices, []
        return notices

    def add_bridge(self, spec: BridgeSpec) -> str:
        """Start a relay for ``spec``; ``""`` on success or why it could not start.

        A bridge that would close a circle with the relays already running (the demo's and
        SITL's included, by the addresses they really listen on, ports chosen by the system
        included) is refused.
        """
        running = [
            ChainLink(relay.config.name, relay.listen_address, relay.target_address) for relay in self.relays
        ]
        circle = find_circle([*running, ChainLink(spec.name, spec.listen, spec.target)])
        if circle is not None:
            return circle_sentence(circle)
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
            # A RelayError already names the socket and the address; a plain OSError only its reason.
            reason = str(error) if isinstance(error, RelayError) else error.strerror or str(error)
            return _("The {protocol} bridge could not start: {error}").format(
                protocol=spec.protocol, error=reason
            )
        host, port = relay.listen_address
        if spec.listen[1] == 0:
            # Shown and keyed by the port it got, not by "port 0".
            relay.config = replace(relay.config, name=bridge_name(spec.protocol, relay.listen_address))
        notice = beyond_loopback_notice(_("The {protocol} bridge").format(protocol=spec.protocol), host, port)
        if notice is not None:
            self._notices.append(notice)
        with self._relays_lock:
            self._bridge_relays.append(relay)
            self.monitor.add_relays([relay])
        return ""

    def start_demo(self) -> str:
        """Start the embedded simulated vehicle (idempotent); ``""`` or a readable error."""
        with self._relays_lock:
            if self.demo is not None:
                return ""
            demo = DemoSystem(clock=self._clock, **self._demo_options())
            try:
                demo.start()
            except OSError as error:
                demo.stop()
                return _("The simulated vehicle could not start: {error}").format(error=error)
            self.demo = demo
            self.monitor.add_relays(demo.relays)
        return ""

    def start_demo_in_failsafe(self, timeout: float = 5.0) -> str:
        """Start the demo and switch its transmitter off, returning once the vehicle is in RC
        failsafe: a check that connects then finds it as after a person switched off first."""
        error = self.start_demo()
        if error:
            return error
        demo = self.demo
        assert demo is not None
        deadline = time.monotonic() + timeout
        vehicle = demo.vehicle
        # As ArduPilot, the vehicle enters RC failsafe only for a receiver it has seen since boot.
        if not _wait_until(lambda: vehicle.rc_seen, deadline):
            return _("The simulated vehicle did not enter RC failsafe.")
        demo.set_transmitter_on(False)
        if not _wait_until(lambda: vehicle.in_rc_failsafe, deadline):
            return _("The simulated vehicle did not enter RC failsafe.")
        return ""

    def _demo_options(self) -> dict[str, Any]:
        choice = self.demo_choice
        if choice is None:
            return {}
        parameters = choice.parameters()
        options: dict[str, Any] = {
            "vehicle_type": choice.profile.mav_type,
            "default_stream_hz": choice.profile.default_stream_hz,
            "transmitter": choice.transmitter(),
            "parameters": parameters,
            "rc_input": choice.rc_input(parameters),
        }
        if not choice.reports_rssi():
            options["reports_rssi"] = False  # RSSI_TYPE 0: the vehicle reports RSSI as unknown
        options["receiver_protocol"] = choice.demo_setup.receiver_protocol
        options["rssi_held"] = choice.demo_setup.rssi_held
        return options

    def stop_demo(self) -> None:
        with self._relays_lock:
            demo, self.demo = self.demo, None
            if demo is not None:
                self.monitor.remove_relays(demo.relays)
                demo.stop()

    def start_sitl(
        self, config: SitlConfig, *, serial_tap: Callable[[int, bytes], None] | None = None
    ) -> str:
        """Start ArduPilot SITL with its physics, transmitter and relay; ``""`` or a readable error.

        ``serial_tap`` sees every byte of a serial SERIAL0 line (`SitlLink.SERIAL`).
        """
        with self._relays_lock:
            if self.sitl is not None:
                return ""
            runner = SitlRunner(config, clock=self._clock, serial_tap=serial_tap)
            error = runner.start()
            if error:
                runner.stop()
                return error
            self.sitl = runner
            self.monitor.add_relays(runner.relays)
        return ""

    @property
    def transmitter_available(self) -> bool:
        """Whether a simulated transmitter can be switched (the demo's or SITL's)."""
        return self.demo is not None or self.sitl is not None

    @property
    def transmitter_on(self) -> bool:
        if self.sitl is not None:
            return self.sitl.transmitter_on
        return self.demo is not None and self.demo.transmitter_on

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
        if self.sitl is not None and device == self.sitl.device:
            # SITL may be booting or restarting: keep trying until it answers or the time is up.
            return self.sitl.connect(self.flight_controller, baudrate=baudrate, timeout=timeout)
        return self.flight_controller.connect(device, baudrate=baudrate, timeout=timeout)

    def disconnect(self) -> None:
        if self._model is not None:
            self._model.deactivate()
        self.flight_controller.disconnect()
        self.stop_demo()

    def set_transmitter_on(self, on: bool) -> str:
        if self.sitl is not None:
            return self.sitl.set_transmitter_on(on)
        if self.demo is None:
            return _("The transmitter switch only works with the simulated vehicle.")
        self.demo.set_transmitter_on(on)
        return ""

    def hold_sticks(self, hold: StickHold) -> str:
        """Hold the simulated transmitter's sticks as the stick step asks (demo or SITL)."""
        transmitter: Transmitter | None = None
        if self.sitl is not None:
            transmitter = self.sitl.transmitter
        elif self.demo is not None:
            transmitter = self.demo.transmitter
        if transmitter is None:
            return _("Only the simulated vehicle's sticks can be moved by the program.")
        if hold.axis is None:
            transmitter.release_sticks()
        else:
            transmitter.hold_sticks(hold.axis, pushed=hold.pushed, throttle_centres=hold.throttle_centres)
        return ""

    def hold_switch(self, hold: SwitchHold) -> str:
        """Hold one of the simulated transmitter's switches as the switch step asks (demo or SITL);
        a hold without a channel lets go of them all."""
        transmitter = self._program_transmitter()
        if transmitter is None:
            return _("Only the simulated vehicle's switches can be moved by the program.")
        if hold.channel is None:
            transmitter.release_switches()
        elif hold.channel <= transmitter.channel_count:
            transmitter.hold_switch(hold.channel, hold.pwm)
        return ""

    def _program_transmitter(self) -> Transmitter | None:
        if self.sitl is not None:
            return self.sitl.transmitter
        return None if self.demo is None else self.demo.transmitter

    def close(self) -> None:
        """Stop everything; safe to call more than once."""
        try:
            if self._model is not None:
                self._model.deactivate()
        finally:
            self.flight_controller.disconnect()
            self.stop_demo()
            self.stop_sitl()
            with self._relays_lock:
                relays, self._bridge_relays = self._bridge_relays, []
                self.monitor.remove_relays(relays)
            for relay in relays:
                relay.stop()

    def stop_sitl(self) -> None:
        with self._relays_lock:
            runner, self.sitl = self.sitl, None
            if runner is not None:
                self.monitor.remove_relays(runner.relays)
        if runner is not None:
            runner.stop()


def _wait_until(condition: Callable[[], bool], deadline: float) -> bool:
    """Whether ``condition`` came true by ``deadline`` (the demo's own threads make it so)."""
    while not condition():
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)
    return True
