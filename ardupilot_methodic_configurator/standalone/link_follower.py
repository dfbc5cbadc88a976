# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Following the flight controller through reboots and unplugging, on every kind of link.

The receiver workflow reboots the board (upload the receiver parameters, reboot, check), and a
USB cable gets pulled.  Each link kind says so in its own way:

- serial/USB: the device goes away (the port reads an error, `VehicleSerial` marks it dead).  The
  check waits, without sending anything, until the device is back: at the same path, or (USB)
  the same device under another name, found by its identity in pyserial's port list;
- TCP: the peer closes the connection (SITL restarting, a Wi-Fi bridge rebooting);
- UDP, and a serial radio that stays up while the board reboots: nothing closes, but the
  vehicle's boot clock (``time_boot_ms``) starts again, or a UDP vehicle falls silent and its ids
  arrive from a new address (a restarted SITL sends from a new port);
- ``--sitl``: the runner's start count moves on when it restarts SITL.

``RestartWatch`` decides *when* and says *why*; ``LinkFollower`` does the reconnecting for the
terminal view on a worker thread (connecting blocks until the vehicle's heartbeat), and the
window's follower (``window.link_follow``) through the window's own connect path.  Either way
the new connection is a new ``master`` object, from which the data model starts a fresh test and
asks for its streams again; the test before the loss is kept by the session for its report.
"""

from __future__ import annotations

import threading
import time
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

RETRY_S = 1.0
# How often a vanished device is looked for: cheap (a path check, pyserial's port list).
DEVICE_POLL_S = 0.25
_NETWORK_SCHEMES = ("tcp:", "tcpin:", "udp:", "udpin:", "udpout:")


class _LinkLike(Protocol):
    @property
    def is_connected(self) -> bool: ...

    @property
    def link_closed(self) -> bool: ...

    def disconnect(self) -> None: ...


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
    """Waiting for a vanished serial device: looked for every `DEVICE_POLL_S`, never sooner.

    Both link followers (the terminal's and the window's) wait this way; ``find`` is the watch's
    `RestartWatch.returned_device`.
    """

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


class _Session(Protocol):
    @property
    def flight_controller(self) -> _LinkLike: ...

    def connect(self, device: str, baudrate: int = 115200, timeout: float = 5.0) -> str: ...

    def keep_test_before_reconnect(self, state: Any) -> None: ...


class LinkFollower:
    """Re-establishes a lost link on a worker thread; ``poll()`` each tick returns what to say.

    The old link is closed as soon as the loss is seen, so the model shows "not connected" at once
    rather than stale readings, and nothing is sent to a device that is gone.  A vanished serial
    device is looked for every `DEVICE_POLL_S`; a failed attempt is retried every ``retry_s`` (a
    serial one goes back to waiting for the device) until one succeeds or ``close()`` is called.
    """

    def __init__(
        self,
        session: _Session,
        watch: RestartWatch,
        *,
        baudrate: int,
        timeout: float,
        retry_s: float = RETRY_S,
        clock: Callable[[], float] = time.monotonic,
        current_state: Callable[[], Any] | None = None,
        announce: Callable[[str], None] | None = None,
    ) -> None:
        self._session = session
        self._watch = watch
        self._baudrate = baudrate
        self._timeout = timeout
        self._retry_s = retry_s
        self._clock = clock
        self._current_state = current_state
        # Puts a link event into the test's timeline (the model's ``note_link_event``).
        self._announce = announce
        self._worker: threading.Thread | None = None
        self._target = watch.device
        self._result: str | None = None
        self._retry_at: float | None = None
        self._device_wait = DeviceWait(clock)
        self._reported_error: str | None = None
        self._closed = False

    @property
    def reconnecting(self) -> bool:
        """True from a lost link until the link is back (attempts and waits between them)."""
        return self._worker is not None or self._retry_at is not None or self._device_wait.waiting

    @property
    def attempting(self) -> bool:
        """True while an attempt's result has not been taken by ``poll()`` yet."""
        return self._worker is not None

    @property
    def device(self) -> str:
        return self._watch.device

    def poll(self) -> list[str]:
        if self._closed:
            return []
        worker = self._worker
        if worker is not None:
            if worker.is_alive():
                return []
            self._worker = None
            return self._finished(self._result or "")
        if self._device_wait.waiting:
            return self._look_for_device()
        if self._retry_at is not None:
            if self._clock() >= self._retry_at:
                self._retry_at = None
                self._start(self._target)
            return []
        notices = self._watch.notices()
        if notices and self._announce is not None:
            for notice in notices:
                self._announce(notice)
        loss = self._watch.reason()
        if loss is None:
            return notices
        if self._announce is not None:
            self._announce(loss.text)  # the loss ends the old test's timeline
        if self._current_state is not None:
            self._session.keep_test_before_reconnect(self._current_state())
        # Closed here, on the caller's thread, so the model never reads a link being replaced.
        self._session.flight_controller.disconnect()
        if loss.wait_for_device:
            self._device_wait.start()
            return [*notices, loss.text]
        self._start(self._watch.device)
        return [
            *notices,
            _("{reason} Reconnecting to {device}…").format(reason=loss.text, device=self._watch.device),
        ]

    def _look_for_device(self) -> list[str]:
        device = self._device_wait.look(self._watch.returned_device)
        if device is None:
            return []
        self._start(device)
        return [_("The flight controller is back on {device}; connecting…").format(device=device)]

    def _finished(self, error: str) -> list[str]:
        if not error:
            self._watch.connected(self._target)
            self._reported_error = None
            text = _(
                "Reconnected to {device}: the streams are asked for again and a fresh test started."
            ).format(device=self._target)
            if self._announce is not None:
                self._announce(text)  # and the reconnection begins the new one's
            return [text]
        if self._watch.serial and self._watch.returned_device() is None:
            # Gone again (a board that reboots twice, a cable still moving): wait for it again.
            self._device_wait.start()
        else:
            self._retry_at = self._clock() + self._retry_s
        if error == self._reported_error:
            return []
        self._reported_error = error
        return [_("Reconnect failed: {error} Retrying…").format(error=error)]

    def _start(self, device: str) -> None:
        self._result = None
        self._target = device
        worker = threading.Thread(
            target=self._connect, args=(device,), name="amc-rc-receiver-reconnect", daemon=True
        )
        self._worker = worker
        worker.start()

    def _connect(self, device: str) -> None:
        try:
            self._result = self._session.connect(device, baudrate=self._baudrate, timeout=self._timeout)
        except Exception as error:  # a reconnect that raises is only a message, and another try
            self._result = str(error) or type(error).__name__

    def close(self, timeout: float = 5.0) -> None:
        """Stop following; waits up to ``timeout`` for a reconnect that is under way."""
        self._closed = True
        worker = self._worker
        if worker is not None:
            worker.join(timeout)
