# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window following its flight controller through a reboot or an unplugged cable.

``RestartWatch`` (shared with the terminal view) says when the link is gone and why.  The window
then keeps the test that ran on it (for its report), closes the link without sending anything,
clears the readings and says what happened; for a serial device it waits until the device is
back (the same path, or the same USB device under another name), otherwise it reconnects at
once, through the window's own connect path, which pauses the plugin while the link is swapped.
A failed attempt is retried until it succeeds or the person takes over (connects elsewhere or
presses Disconnect, which changes the status line).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from ... import _
from ..link_follower import DeviceWait, LinkLoss, RestartWatch
from ..session import CheckSession
from .connection_bar import ConnectionState

RETRY_S = 2.0


class _ConnectionBarLike(Protocol):
    @property
    def connection_state(self) -> ConnectionState: ...

    @property
    def status_text(self) -> str: ...

    def show_status(self, text: str, *, error: bool = False, ok: bool = False) -> None: ...


class WindowLike(Protocol):
    @property
    def session(self) -> CheckSession: ...

    @property
    def connection_bar(self) -> _ConnectionBarLike: ...

    @property
    def is_connecting(self) -> bool: ...

    @property
    def closed(self) -> bool: ...

    def connect(self, device: str, baudrate: int = ...) -> None: ...

    def link_lost(self, text: str) -> None: ...

    def note_link_event(self, text: str) -> None: ...


class WindowLinkFollower:
    """Reconnects the window when its link is lost: see the module docstring."""

    def __init__(
        self,
        window: WindowLike,
        *,
        baudrate: int,
        retry_s: float = RETRY_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._window = window
        self._device = ""
        self._baudrate = baudrate
        # pyserial's port list, as the session reads it (the window itself reads no ports).
        self._list_ports = window.session.list_ports
        self._watch = RestartWatch(window.session.flight_controller, "", list_ports=self._list_ports)
        self._retry_s = retry_s
        self._clock = clock
        self._pending = False
        self._device_wait = DeviceWait(clock)
        # The status line when the wait began: another one means the person took over.
        self._waiting_status = ""
        self._target = ""
        self._failed_status: str | None = None
        self._retry_at = 0.0
        self._reason = ""

    @property
    def reconnecting(self) -> bool:
        return self._pending or self._device_wait.waiting

    @property
    def device(self) -> str:
        """The device being followed ("" before the first connection)."""
        return self._device

    def tick(self) -> None:
        window = self._window
        if window.closed or window.is_connecting:
            return
        link = window.session.flight_controller
        if self._device_wait.waiting:
            self._look_for_device()
            return
        if self._pending:
            self._follow_attempt(link.is_connected and link.device == self._target)
            return
        if link.is_connected and link.device and link.device != self._device:
            self._follow(link.device)
        for notice in self._watch.notices():
            self._window.note_link_event(notice)
            self._window.connection_bar.show_status(notice, error=True)
        loss = self._watch.reason()
        if loss is not None:
            self._lost(loss)

    def _follow(self, device: str) -> None:
        runner = self._window.session.sitl
        generation = (lambda: runner.generation) if runner is not None and device == runner.device else None
        self._device = device
        self._watch = RestartWatch(
            self._window.session.flight_controller, device, generation=generation, list_ports=self._list_ports
        )
        self._watch.connected()

    def _lost(self, loss: LinkLoss) -> None:
        self._reason = loss.text
        self._window.link_lost(loss.text)
        if loss.wait_for_device:
            self._wait_for_device()
            return
        self._pending = True
        self._start_attempt(self._device)

    def _wait_for_device(self) -> None:
        self._waiting_status = self._window.connection_bar.status_text
        self._device_wait.start()

    def _look_for_device(self) -> None:
        if self._window.connection_bar.status_text != self._waiting_status:
            self._device_wait.stop()  # the person connected elsewhere meanwhile
            return
        device = self._device_wait.look(self._watch.returned_device)
        if device is None:
            return
        self._pending = True
        self._reason = _("The flight controller is back on {device}.").format(device=device)
        self._start_attempt(device)

    def _start_attempt(self, device: str) -> None:
        self._failed_status = None
        self._target = device
        self._window.connect(device, self._baudrate)
        self._window.connection_bar.show_status(
            _("{reason} Reconnecting to {device}…").format(reason=self._reason, device=device)
        )

    def _follow_attempt(self, connected: bool) -> None:
        bar = self._window.connection_bar
        if connected:
            self._pending = False
            self._device = self._target
            self._watch.connected(self._target)
            text = _("{reason} Reconnected to {device}: a fresh test started.").format(
                reason=self._reason, device=self._target
            )
            bar.show_status(text, ok=True)
            self._window.note_link_event(text)
            return
        if bar.connection_state is not ConnectionState.DISCONNECTED:
            return
        if self._failed_status is None:
            self._failed_status = bar.status_text
            self._retry_at = self._clock() + self._retry_s
            return
        if bar.status_text != self._failed_status:
            self._pending = False  # the person pressed Disconnect or connected elsewhere
            return
        if self._clock() >= self._retry_at:
            if self._watch.serial and self._watch.returned_device() is None:
                self._pending = False  # gone again: wait for it as before
                self._wait_for_device()
                return
            self._start_attempt(self._target)
