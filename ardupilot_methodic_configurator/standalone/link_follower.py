# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Following a restarted SITL: notice the lost link, connect again, say what happened.

A restarted SITL closes the check's TCP connection (and, when the simulator runner restarted it,
the runner's ``generation`` moves on).  Nothing the old connection could still deliver is worth
waiting for, so the link is re-established: the new connection is a new ``master`` object, from
which the data model starts a fresh test.  ``RestartWatch`` only decides *when* and says *why*;
``LinkFollower`` does it for the terminal view with a worker thread (connecting blocks until the
vehicle's heartbeat), and the window does it through its own connect path.

Only TCP links are followed: a closed TCP connection is proof that the peer went away, while a
serial or UDP link has no such signal and a person reconnects those by hand.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol

from .. import _

RETRY_S = 1.0


class _LinkLike(Protocol):
    @property
    def is_connected(self) -> bool: ...

    @property
    def link_closed(self) -> bool: ...

    def disconnect(self) -> None: ...


def followable(device: str) -> bool:
    """Whether a lost link to ``device`` is re-established automatically (TCP clients only)."""
    return device.strip().lower().startswith("tcp:")


class RestartWatch:
    """Says when the link to ``device`` must be re-established, and why.

    ``generation`` (the simulator runner's start count, when the check runs SITL itself) tells a
    restart apart even before the old connection reports itself closed.
    """

    def __init__(
        self,
        link: _LinkLike,
        device: str,
        *,
        generation: Callable[[], int] | None = None,
    ) -> None:
        self._link = link
        self.device = device
        self._generation = generation
        # Taken when the link is first seen connected, so a SITL still starting is no "restart".
        self._connected_generation: int | None = None

    @property
    def enabled(self) -> bool:
        return followable(self.device)

    def connected(self) -> None:
        """The link was (re-)established: remember which SITL it reached."""
        if self._generation is not None:
            self._connected_generation = self._generation()

    def reason(self) -> str | None:
        """Why the link must be re-established now, or ``None``."""
        if not self.enabled or not self._link.is_connected:
            return None
        if self._generation is not None:
            generation = self._generation()
            if self._connected_generation is None:
                self._connected_generation = generation
            elif generation != self._connected_generation:
                return _("SITL restarted.")
        if self._link.link_closed:
            return _("{device} closed the connection (SITL restarted?).").format(device=self.device)
        return None


class _Session(Protocol):
    @property
    def flight_controller(self) -> _LinkLike: ...

    def connect(self, device: str, baudrate: int = 115200, timeout: float = 5.0) -> str: ...


class LinkFollower:
    """Re-establishes a lost TCP link on a worker thread; ``poll()`` each tick returns what to say.

    While a reconnect runs the old link is already closed, so the model shows "not connected"
    rather than stale readings.  A failed attempt is retried every ``retry_s`` until one succeeds
    or ``close()`` is called.
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
    ) -> None:
        self._session = session
        self._watch = watch
        self._baudrate = baudrate
        self._timeout = timeout
        self._retry_s = retry_s
        self._clock = clock
        self._worker: threading.Thread | None = None
        self._result: str | None = None
        self._retry_at: float | None = None
        self._reported_error: str | None = None
        self._closed = False

    @property
    def reconnecting(self) -> bool:
        """True from a lost link until the link is back (attempts and waits between them)."""
        return self._worker is not None or self._retry_at is not None

    @property
    def attempting(self) -> bool:
        """True while an attempt's result has not been taken by ``poll()`` yet."""
        return self._worker is not None

    def poll(self) -> list[str]:
        if self._closed:
            return []
        worker = self._worker
        if worker is not None:
            if worker.is_alive():
                return []
            self._worker = None
            return self._finished(self._result or "")
        if self._retry_at is not None:
            if self._clock() >= self._retry_at:
                self._retry_at = None
                self._start()
            return []
        reason = self._watch.reason()
        if reason is None:
            return []
        # Closed here, on the caller's thread, so the model never reads a link being replaced.
        self._session.flight_controller.disconnect()
        self._start()
        return [_("{reason} Reconnecting to {device}…").format(reason=reason, device=self._watch.device)]

    def _finished(self, error: str) -> list[str]:
        if not error:
            self._watch.connected()
            self._reported_error = None
            return [_("Reconnected to {device}: a fresh test started.").format(device=self._watch.device)]
        self._retry_at = self._clock() + self._retry_s
        if error == self._reported_error:
            return []
        self._reported_error = error
        return [_("Reconnect failed: {error} Retrying…").format(error=error)]

    def _start(self) -> None:
        self._result = None
        worker = threading.Thread(target=self._connect, name="amc-rc-receiver-reconnect", daemon=True)
        self._worker = worker
        worker.start()

    def _connect(self) -> None:
        try:
            self._result = self._session.connect(
                self._watch.device, baudrate=self._baudrate, timeout=self._timeout
            )
        except Exception as error:  # a reconnect that raises is only a message, and another try
            self._result = str(error) or type(error).__name__

    def close(self, timeout: float = 5.0) -> None:
        """Stop following; waits up to ``timeout`` for a reconnect that is under way."""
        self._closed = True
        worker = self._worker
        if worker is not None:
            worker.join(timeout)
