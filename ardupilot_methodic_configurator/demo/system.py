# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The embedded demo: a simulated vehicle whose radio link runs through a UDP relay to a physics back end.

The wiring mirrors a real ArduPilot SITL set-up with a JSON physics back end, with the relay
spliced into the link (vehicle -> relay listen port -> back end, replies back the same way) so a
bridge monitor sees real, decodable servo packets and JSON state.  This module only assembles
and orders the parts; each part owns its own socket and thread.  The vehicle's MAVLink port is a
loopback UDP port for the embedded check, or whatever ``endpoint`` names when the demo serves
another ground station (``amc-rc-receiver --serve-demo``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from ..net.services import StartStop
from ..sim_bridge.protocols.names import ARDUPILOT_JSON
from ..sim_bridge.relay import UdpRelay
from ..sim_bridge.relay_config import RelayConfig
from .mavlink_link import LinkEndpoint
from .parameter_store import ParameterStore
from .physics_backend import PhysicsBackend
from .transmitter import Transmitter
from .vehicle import (
    COPTER_DEFAULT_STREAM_HZ,
    MAV_TYPE_QUADROTOR,
    SERVO_RATE_HZ,
    SimulatedVehicle,
)
from .vehicle_rules import RC_FAILSAFE_TIMEOUT_S, RcInput

DEMO_RELAY_NAME = "SITL JSON (demo)"


def receiver_rssi(transmitter_on: bool, now: float) -> int:
    """RSSI the demo receiver reports: a slow wobble in the upper range, 0 with no transmitter.

    Real receivers that report RSSI through their protocol (RSSI_TYPE 3) drop to 0 on link loss,
    so the demo shows that, which lets a person see the RSSI bar react to the transmitter switch.
    """
    if not transmitter_on:
        return 0
    return 190 + round(12 * math.sin(now * 0.8))


class DemoSystem(StartStop):
    """Vehicle + relay + back end on 127.0.0.1 ephemeral ports; start once, stop any number of times.

    Before ``start()`` the vehicle's ``device`` is already valid (its socket is bound), but nothing
    answers until the parts run.  Start order is back end, relay, vehicle, so the first servo
    packet already finds the whole path open; stop runs in reverse.
    """

    def __init__(
        self,
        *,
        vehicle_type: int = MAV_TYPE_QUADROTOR,
        default_stream_hz: float = COPTER_DEFAULT_STREAM_HZ,
        rc_failsafe_timeout_s: float = RC_FAILSAFE_TIMEOUT_S,
        servo_rate_hz: float = SERVO_RATE_HZ,
        transmitter_on: bool = True,
        reports_rssi: bool = True,
        endpoint: LinkEndpoint | None = None,
        clock: Callable[[], float] = time.monotonic,
        transmitter: Transmitter | None = None,
        parameters: ParameterStore | None = None,
        rc_input: RcInput | None = None,
        receiver_protocol: str | None = None,
        rssi_held: bool = False,
    ) -> None:
        # A demo set-up (demo_setups) brings its own receiver, parameters and failsafe rules.
        self._transmitter = transmitter if transmitter is not None else Transmitter(on=transmitter_on)
        self._clock = clock
        self._rssi_held = rssi_held
        self._last_rssi = 0
        self._backend = PhysicsBackend(transmitter=self._transmitter)
        bound: list[StartStop] = [self._backend]
        try:
            self._relay = UdpRelay(
                RelayConfig(name=DEMO_RELAY_NAME, protocol=ARDUPILOT_JSON, target=self._backend.address),
                clock=clock,
            )
            bound.append(self._relay)
            self._vehicle = SimulatedVehicle(
                vehicle_type=vehicle_type,
                default_stream_hz=default_stream_hz,
                rc_failsafe_timeout_s=rc_failsafe_timeout_s,
                servo_rate_hz=servo_rate_hz,
                rssi_source=self._receiver_rssi if reports_rssi else None,
                endpoint=endpoint,
                clock=clock,
                parameters=parameters,
                rc_input=rc_input,
                receiver_protocol=receiver_protocol,
            )
        except BaseException:
            # e.g. the named MAVLink port is in use: release the sockets already bound
            for part in reversed(bound):
                part.stop()
            raise
        self._started = False

    def _receiver_rssi(self) -> int:
        if self._rssi_held and not self._transmitter.on:
            return self._last_rssi
        self._last_rssi = receiver_rssi(self._transmitter.on, self._clock())
        return self._last_rssi

    @property
    def device(self) -> str:
        """Connection string for FlightController.connect() (or any pymavlink ground station)."""
        return self._vehicle.device

    @property
    def relays(self) -> tuple[UdpRelay, ...]:
        """The relays to hand to a BridgeMonitor."""
        return (self._relay,)

    @property
    def vehicle(self) -> SimulatedVehicle:
        return self._vehicle

    @property
    def backend(self) -> PhysicsBackend:
        return self._backend

    @property
    def transmitter_on(self) -> bool:
        return self._transmitter.on

    def set_transmitter_on(self, on: bool) -> None:
        """Switch the simulated transmitter; safe from any thread (e.g. a Tk button callback)."""
        self._transmitter.set_on(on)

    @property
    def transmitter(self) -> Transmitter:
        """The simulated transmitter, whose sticks the check's stick step may hold."""
        return self._transmitter

    def start(self) -> None:
        if self._started:
            return
        self._started = True
        try:
            self._backend.start()
            self._relay.start()
            self._vehicle.backend_address = self._relay.listen_address
            self._vehicle.start()
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        self._vehicle.stop()
        self._relay.stop()
        self._backend.stop()
