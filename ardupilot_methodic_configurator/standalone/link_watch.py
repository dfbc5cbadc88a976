# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Telling that the flight controller's link was lost, and when its device is back.

``RestartWatch`` decides *when* a link is lost and says *why*, for every kind of link (a serial
device gone, a TCP peer that closed, a boot clock that started again, a UDP vehicle that fell
silent, a SITL restart); ``DeviceWait`` looks for a vanished serial device without sending
anything until it is back at its path or, by its USB identity, under another name.  The
followers in `link_follower` do the reconnecting.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from .. import _
from ..connection.ports import (
    PortIdentity,
    PortLister,
    identity_of,
    returned_device,
    serial_ports,
    system_ports,
)

# How often a vanished device is looked for: cheap (a path check, pyserial's port list).
DEVICE_POLL_S = 0.25
_NETWORK_SCHEMES = ("tcp:", "tcpin:", "udp:", "udpin:", "udpout:")


class _LinkLike(Protocol):
    @property
    def is_connected(self) -> bool: ...

    @property
    def link_closed(self) -> bool: ...

    @property
    def device(self) -> str | None: ...

    def disconnect(self) -> None: ...


class _RunnerLike(Protocol):
    @property
    def generation(self) -> int: ...

    @property
    def device(self) -> str: ...


def is_serial_device(device: str) -> bool:
    """Whether ``device`` names a serial port rather than a network address."""
    text = device.strip().lower()
    return bool(text) and not text.startswith(_NETWORK_SCHEMES)


@dataclass(frozen=True)
class LinkLoss:
    """Why the link must be re-established; ``wait_for_device``: not before the device is back."""

    text: str
    wait_for_device: bool = False


class RestartWatch:
    """Says when the link to ``device`` must be re-established, why, and where it can be again.

    ``generation`` (the simulator runner's start count, when the check runs SITL itself) tells a
    restart apart even before the old connection reports itself closed.  ``list_ports`` is
    pyserial's port list, read to remember a USB device's identity and to find it again.
    """

    def __init__(
        self,
        link: _LinkLike,
        device: str,
        *,
        generation: Callable[[], int] | None = None,
        list_ports: PortLister = system_ports,
    ) -> None:
        self._link = link
        self.device = device
        self._generation = generation
        self._list_ports = list_ports
        # Taken when the link is first seen connected, so a SITL still starting is no "restart".
        self._connected_generation: int | None = None
        self._identity: PortIdentity | None = None
        self._looked_up = False
        self._conflict_said = False

    @property
    def enabled(self) -> bool:
        return bool(self.device.strip())

    @property
    def serial(self) -> bool:
        return is_serial_device(self.device)

    def connected(self, device: str | None = None) -> None:
        """The link was (re-)established, to ``device`` if it moved: remember what it reached."""
        if device is not None:
            self.device = device
        if self._generation is not None:
            self._connected_generation = self._generation()
        if self.serial:
            self._remember_identity()

    def _remember_identity(self) -> None:
        self._looked_up = True
        found = identity_of(self.device, serial_ports(self._list_ports))
        self._identity = found if found is not None else self._identity

    def reason(self) -> LinkLoss | None:
        """Why the link must be re-established now, or ``None``."""
        link = self._link
        if not self.enabled or not link.is_connected:
            return None
        if self.serial and not self._looked_up:
            # Whoever created the watch on a connected link need not call `connected()` first.
            self._remember_identity()
        if self._generation is not None:
            generation = self._generation()
            if self._connected_generation is None:
                self._connected_generation = generation
            elif generation != self._connected_generation:
                return LinkLoss(_("SITL restarted."), wait_for_device=self.serial)
        if link.link_closed:
            if self.serial:
                return LinkLoss(
                    _(
                        "The flight controller's USB port closed: it may be rebooting or unplugged. "
                        "Waiting for it to come back…"
                    ),
                    wait_for_device=True,
                )
            return LinkLoss(
                _("{device} closed the connection: the flight controller may be rebooting.").format(
                    device=self.device
                )
            )
        if getattr(link, "vehicle_restarted", False):
            return LinkLoss(_("The flight controller restarted: its clock started again."))
        moved = getattr(link, "vehicle_moved_to", None)
        if moved is not None:
            return LinkLoss(
                _("The flight controller restarted: it now sends from {address}.").format(
                    address=f"{moved[0]}:{moved[1]}"
                )
            )
        return None

    def notices(self) -> list[str]:
        """What the user should know about the link that is no reason to reconnect (once each)."""
        link = self._link
        if self._conflict_said or not link.is_connected or not getattr(link, "vehicle_clock_conflict", False):
            return []
        self._conflict_said = True
        system_id = getattr(getattr(link, "info", None), "system_id", "") or "?"
        return [
            _(
                "Two boot clocks take turns on this link: two vehicles with system id {system_id}? "
                "The check stays connected; give each vehicle its own SYSID_THISMAV."
            ).format(system_id=system_id)
        ]

    def returned_device(self) -> str | None:
        """Where to connect now: the device path, once a vanished serial device is back."""
        if not self.serial:
            return self.device
        return returned_device(self.device, self._identity, serial_ports(self._list_ports))


class DeviceWait:
    """Waiting for a vanished serial device (both followers): looked for every `DEVICE_POLL_S`."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self.waiting = False
        self._next_look = 0.0

    def start(self) -> None:
        self.waiting = True
        self._next_look = self._clock() + DEVICE_POLL_S

    def stop(self) -> None:
        self.waiting = False

    def look(self, find: Callable[[], str | None]) -> str | None:
        """Where the device is back, once it is (which ends the wait); ``None`` meanwhile."""
        now = self._clock()
        if not self.waiting or now < self._next_look:
            return None
        self._next_look = now + DEVICE_POLL_S
        device = find()
        if device is not None:
            self.waiting = False
        return device


class WatchedSession(Protocol):
    @property
    def flight_controller(self) -> _LinkLike: ...

    @property
    def sitl(self) -> _RunnerLike | None: ...

    def list_ports(self) -> list[Any]: ...

    def connect(self, device: str, baudrate: int = 115200, timeout: float = 5.0) -> str: ...

    def keep_test_before_reconnect(self, state: Any) -> None: ...


def watch_session(session: WatchedSession, device: str) -> RestartWatch:
    """The watch on ``session``'s link to ``device``; SITL's start count too when it is SITL's link."""
    runner = session.sitl
    return RestartWatch(
        session.flight_controller,
        device,
        generation=(lambda: runner.generation) if runner is not None and device == runner.device else None,
        list_ports=session.list_ports,
    )
