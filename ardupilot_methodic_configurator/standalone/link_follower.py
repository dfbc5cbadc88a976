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

``RestartWatch`` decides *when* and says *why*; the followers do the reconnecting, each for one
kind of view: ``LinkFollower`` for the terminal view on a worker thread (connecting blocks until
the vehicle's heartbeat), ``ViewLinkFollower`` for the window through the window's own connect
path (the window ticks it on its Tk timer).  Either way the new connection is a new ``master``
object, from which the data model starts a fresh test and asks for its streams again; the test
before the loss is kept by the session for its report.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from .. import _
from .link_watch import DeviceWait, LinkLoss, RestartWatch, WatchedSession, watch_session

RETRY_S = 1.0
# The window's follower tries less often: each attempt replaces the status line a person reads.
VIEW_RETRY_S = 2.0


class LinkFollower:
    """Re-establishes a lost link on a worker thread; ``poll()`` each tick returns what to say.

    The old link is closed as soon as the loss is seen, so the model shows "not connected" at once
    rather than stale readings, and nothing is sent to a device that is gone.  A vanished serial
    device is looked for every `DEVICE_POLL_S`; a failed attempt is retried every ``retry_s`` (a
    serial one goes back to waiting for the device) until one succeeds or ``close()`` is called.
    """

    def __init__(
        self,
        session: WatchedSession,
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


class ConnectingView(Protocol):
    """A view with its own connect path: the window's pauses the plugin while the link is swapped."""

    @property
    def session(self) -> WatchedSession: ...

    @property
    def is_connecting(self) -> bool: ...

    @property
    def closed(self) -> bool: ...

    @property
    def status_text(self) -> str: ...

    @property
    def disconnected(self) -> bool: ...  # the last connect failed, or the person disconnected

    def show_status(self, text: str, *, error: bool = False, ok: bool = False) -> None: ...

    def connect(self, device: str, baudrate: int = ...) -> None: ...

    def link_lost(self, text: str) -> None: ...

    def note_link_event(self, text: str) -> None: ...


class ViewLinkFollower:
    """Reconnects a view through its own ``connect`` when its link is lost; ``tick()`` it often.

    The view keeps the lost link's test, closes the link and says why (``link_lost``); a serial
    device is waited for, anything else reconnected at once.  A failed attempt is retried every
    ``retry_s`` until it succeeds or the person takes over (connects elsewhere or presses
    Disconnect, which changes the status line).  It follows every link the view connects.
    """

    def __init__(
        self,
        view: ConnectingView,
        *,
        baudrate: int,
        retry_s: float = VIEW_RETRY_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._view = view
        self._device = ""
        self._baudrate = baudrate
        self._watch = watch_session(view.session, "")
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

    def tick(self) -> None:
        view = self._view
        if view.closed or view.is_connecting:
            return
        link = view.session.flight_controller
        if self._device_wait.waiting:
            self._look_for_device()
            return
        if self._pending:
            self._follow_attempt(link.is_connected and link.device == self._target)
            return
        if link.is_connected and link.device and link.device != self._device:
            self._device = link.device
            self._watch = watch_session(view.session, link.device)
            self._watch.connected()
        for notice in self._watch.notices():
            view.note_link_event(notice)
            view.show_status(notice, error=True)
        loss = self._watch.reason()
        if loss is not None:
            self._lost(loss)

    def _lost(self, loss: LinkLoss) -> None:
        self._reason = loss.text
        self._view.link_lost(loss.text)
        if loss.wait_for_device:
            self._wait_for_device()
            return
        self._pending = True
        self._start_attempt(self._device)

    def _wait_for_device(self) -> None:
        self._waiting_status = self._view.status_text
        self._device_wait.start()

    def _look_for_device(self) -> None:
        if self._view.status_text != self._waiting_status:
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
        self._view.connect(device, self._baudrate)
        text = _("{reason} Reconnecting to {device}…").format(reason=self._reason, device=device)
        self._view.show_status(text)

    def _follow_attempt(self, connected: bool) -> None:
        view = self._view
        if connected:
            self._pending = False
            self._device = self._target
            self._watch.connected(self._target)
            text = _("{reason} Reconnected to {device}: a fresh test started.").format(
                reason=self._reason, device=self._target
            )
            view.show_status(text, ok=True)
            view.note_link_event(text)
            return
        if not view.disconnected:
            return
        if self._failed_status is None:
            self._failed_status = view.status_text
            self._retry_at = self._clock() + self._retry_s
            return
        if view.status_text != self._failed_status:
            self._pending = False  # the person pressed Disconnect or connected elsewhere
            return
        if self._clock() >= self._retry_at:
            if self._watch.serial and self._watch.returned_device() is None:
                self._pending = False  # gone again: wait for it as before
                self._wait_for_device()
                return
            self._start_attempt(self._target)
