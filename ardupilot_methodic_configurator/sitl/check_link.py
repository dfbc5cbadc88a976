# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The check's connection to SITL's SERIAL0: where it is, how it is listed, when it is opened.

The check reaches SITL's first MAVLink port over TCP, UDP or a serial line (`config.SitlLink`).
A serial line is listed as a USB flight controller is, with ArduPilot's USB ids and a serial
number of its own, so that a check finds it again under a new name after a reboot.

The check connects once SITL has booted: interval requests SITL handles while still booting may
be lost (see ``sitl.control``), and the check asks for its streams as soon as it is connected.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from .. import _
from .config import SitlConfig, SitlLink, SitlState, SitlStatus, state_text
from .control import SitlControlLink
from .null_modem import NullModem

# ArduPilot's own USB vendor and product ids (pid.codes), as its boards enumerate.
SITL_USB_IDS = (0x1209, 0x5740)
CONNECT_RETRY_S = 0.25
_GONE = (SitlState.EXITED, SitlState.STOPPED, SitlState.NOT_STARTED)


class FlightControllerLike(Protocol):
    def connect(self, device: str, baudrate: int = 115200, timeout: float = 5.0) -> str: ...


class SitlForTheCheck(Protocol):
    """What connecting the check needs of the runner (`sitl.runner.SitlRunner`)."""

    @property
    def device(self) -> str: ...

    @property
    def generation(self) -> int: ...

    @property
    def control(self) -> SitlControlLink | None: ...

    @property
    def running(self) -> bool: ...

    def status(self) -> SitlStatus: ...

    def wait_stopping(self, timeout: float) -> bool: ...


def check_device(config: SitlConfig, modem: NullModem | None) -> str:
    """The check's device string for SITL's SERIAL0 over the configured link."""
    if config.link is SitlLink.SERIAL:
        return str(modem.station_path) if modem is not None else ""
    if config.link is SitlLink.UDP:
        return f"udpin:127.0.0.1:{config.ports.mavlink}"
    return f"tcp:127.0.0.1:{config.ports.mavlink}"


def listed_ports(modem: NullModem | None, instance: int) -> list[Any]:
    """SITL's serial line as the port list shows a USB flight controller (empty while unplugged)."""
    if modem is None or not modem.plugged:
        return []
    from serial.tools.list_ports_common import ListPortInfo  # noqa: PLC0415

    port = ListPortInfo(str(modem.station_path), skip_link_detection=True)
    port.vid, port.pid = SITL_USB_IDS
    port.serial_number = f"SITL{instance}"
    port.location = f"sitl-{instance}"
    port.description = port.product = _("ArduPilot SITL (SERIAL0)")
    return [port]


def connect_when_booted(
    sitl: SitlForTheCheck,
    flight_controller: FlightControllerLike,
    *,
    baudrate: int,
    timeout: float,
    clock: Callable[[], float],
    opened: Callable[[int], None],
) -> str:
    """Connect ``flight_controller`` to SITL once it has booted, for up to ``timeout`` s.

    It waits for the boot to end (as long as the timeout allows), then retries while SITL's port
    is not open.  ``opened(generation)`` runs once the check's link to that SITL process is open.
    Returns ``""`` or a readable reason.
    """
    deadline = clock() + timeout
    while True:
        _wait_booted(sitl, deadline, clock)
        generation = sitl.generation
        remaining = deadline - clock()
        error = flight_controller.connect(sitl.device, baudrate=baudrate, timeout=max(remaining, 0.5))
        if not error:
            opened(generation)
            return ""
        status = sitl.status()
        if status.state in _GONE:
            return _("ArduPilot SITL is not running ({reason}); see its console output.").format(
                reason=status.last_exit or state_text(status.state)
            )
        if clock() >= deadline or sitl.wait_stopping(CONNECT_RETRY_S):
            return error


def _wait_booted(sitl: SitlForTheCheck, deadline: float, clock: Callable[[], float]) -> None:
    """Wait until the current SITL process has booted, SITL is gone, or ``deadline`` passes."""
    control = sitl.control
    if control is None:
        return
    while not control.wait_booted(sitl.generation, min(CONNECT_RETRY_S, deadline - clock())):
        if clock() >= deadline or sitl.wait_stopping(0) or not sitl.running:
            return
