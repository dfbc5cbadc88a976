# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The lifecycle shared by the bridge's background services: start once, stop any number of times.

``ThreadedService`` owns one daemon thread and its stop event; a subclass supplies ``_run()`` and,
where it holds resources, the ``_open()``, ``_wake()`` and ``_close()`` hooks.  ``StartStop`` gives
anything with ``start()``/``stop()`` the matching context manager.  ``bind_udp``, ``local_address`` and
``drain_udp`` are the non-blocking socket chores every service repeats.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from types import TracebackType
from typing import TypeVar

Address = tuple[str, int]
_Service = TypeVar("_Service", bound="StartStop")


class StartStop(ABC):
    """A part that runs between ``start()`` and ``stop()``; ``with`` stops it even on an error."""

    @abstractmethod
    def start(self) -> None: ...

    @abstractmethod
    def stop(self) -> None: ...

    def __enter__(self: _Service) -> _Service:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


class ThreadedService(StartStop):
    """One background thread running ``_run()`` until ``stop()``.

    ``start()`` is idempotent while running and refuses once stopped, because ``_close()`` has
    released what the thread needs.  ``stop()`` is idempotent, safe before ``start()`` and from the
    service's own thread (which it then does not join); ``_close()`` runs exactly once.
    """

    def __init__(self, thread_name: str) -> None:
        self._thread_name = thread_name
        self._stop_event = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False

    def start(self) -> None:
        """Start the thread; does nothing while it runs, raises ``RuntimeError`` once stopped."""
        if self._closed:
            raise RuntimeError(f"a stopped {type(self).__name__} cannot be restarted")
        if self._thread is not None:
            return
        self._open()
        self._thread = threading.Thread(target=self._run, name=self._thread_name, daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the thread and release its resources.  Safe to call more than once, or before start()."""
        self._stop_event.set()
        self._wake()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
        if not self._closed:
            self._closed = True
            self._close()

    @abstractmethod
    def _run(self) -> None:
        """The thread body; it must return soon after ``_stop_event`` is set or ``_wake()`` runs."""

    def _open(self) -> None:
        """Acquire what the thread needs; an exception here leaves the service unstarted."""

    def _wake(self) -> None:
        """Interrupt the thread's current wait, so that ``stop()`` need not wait out a timeout."""

    def _close(self) -> None:
        """Release resources; called once, after the thread has been joined (or given up on)."""


def bind_udp(
    address: Address,
    family: socket.AddressFamily = socket.AF_INET,
    prepare: Callable[[socket.socket], None] | None = None,
) -> socket.socket:
    """A non-blocking UDP socket bound to ``address``, with ``prepare`` applied before binding.

    On failure the socket is closed before the ``OSError`` propagates, so a port in use never
    leaks a descriptor.
    """
    sock = socket.socket(family, socket.SOCK_DGRAM)
    try:
        if prepare is not None:
            prepare(sock)
        sock.bind(address)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock


def route_source_host(destination: Address) -> str:
    """The local address this computer sends from to reach ``destination`` (its routing table's
    answer; nothing is sent).  An ephemeral socket bound to it is reachable only where it must be,
    where an unbound one would take every interface (0.0.0.0) at its first send."""
    family = socket.AF_INET6 if ":" in destination[0] else socket.AF_INET
    try:
        if ipaddress.ip_address(destination[0]).is_loopback:
            return "::1" if family == socket.AF_INET6 else "127.0.0.1"
    except ValueError:
        pass
    with socket.socket(family, socket.SOCK_DGRAM) as probe:
        probe.connect(destination)
        return str(probe.getsockname()[0])


def local_address(sock: socket.socket) -> Address:
    """The (host, port) a socket is bound to, without IPv6 flow and scope fields."""
    bound = sock.getsockname()
    return str(bound[0]), int(bound[1])


def drain_udp(
    sock: socket.socket,
    handle: Callable[[bytes, Address], None],
    limit: int,
    buffer_size: int = 65536,
    on_fault: Callable[[Exception], None] | None = None,
) -> None:
    """Hand up to ``limit`` waiting datagrams to ``handle``; the limit keeps one wake-up bounded.

    With ``on_fault``, an exception from ``handle`` is passed to it (to be counted) and the next
    datagram is handled: a network-facing loop must outlive any one datagram.  Without it the
    exception propagates, as before.
    """
    for _i in range(limit):
        try:
            data, sender = sock.recvfrom(buffer_size)
        except BlockingIOError:
            return
        except OSError:
            # e.g. Windows reports an earlier send's ICMP port-unreachable here; keep serving.
            continue
        if on_fault is None:
            handle(data, (str(sender[0]), int(sender[1])))
            continue
        try:
            handle(data, (str(sender[0]), int(sender[1])))
        except Exception as error:  # counted by the caller; the loop goes on
            on_fault(error)
