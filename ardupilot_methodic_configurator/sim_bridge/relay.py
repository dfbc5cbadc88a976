# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A transparent UDP relay for one simulator link, with exact traffic tallies and a capture ring.

One thread waits on two non-blocking sockets: the listen socket (where the simulator's peer
sends) and an outbound socket (which talks to the target, so the target's replies come back to
it).  Both are bound to one interface, never to every interface unless the user named a wildcard:
the outbound socket takes the loopback when the target is on it, else the listen address, else
(listening on the loopback, target elsewhere) the address the route to the target leaves from.

Each datagram is forwarded first.  Only then does the thread spend its O(1) bookkeeping on it
(``relay_counters``): header-level checks, exact tallies per direction, and a copy in the capture
ring, which is bounded in records and bytes and feeds the monitor the frames it shows.  The
configuration is ``relay_config``, the choice of interfaces ``relay_addresses``.
Before forwarding to the target, ``loop_guard`` tells whether the datagram is one the relay
forwarded a moment ago coming back (two relays feeding each other, a simulator echoing to the
listen port); a loop is held back after a few rounds, never the same bytes from their first sender.
Like a SITL physics back end, the relay learns the return peer from the first datagram that looks
valid for the link's protocol; a datagram from any other address is counted as an unexpected
sender and then dropped: never forwarded, never checked, never recorded, so a flood from a
stranger costs the UI nothing.  Socket faults (ICMP port unreachable, oversize or empty datagrams,
full buffers) and faults of the relay's own code are counted by reason and never stop the thread.
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import sys
import time
from collections.abc import Callable

from .. import _
from ..net.services import ThreadedService, bind_udp, local_address
from .capture_ring import CaptureRecord
from .loop_guard import ReturnGuard, Verdict
from .protocols.table import is_valid_peer_packet
from .relay_addresses import family_for, format_address, outbound_host, resolve
from .relay_config import Address, RelayConfig, RelayError
from .relay_counters import (
    REASON_EMPTY,
    REASON_INTERNAL,
    REASON_OVERSIZE,
    REASON_PORT_UNREACHABLE,
    REASON_RECEIVE_FAILED,
    REASON_SEND_FAILED,
    RelayBook,
    RelayCounters,
)
from .snapshot import Direction
from .traffic import DirectionTraffic

# Largest UDP payload IPv4 can carry; anything bigger cannot be forwarded anyway.
MAX_UDP_PAYLOAD = 65507
# One byte more than any legal datagram, so that oversize input is visible rather than silently cut.
_RECV_BUFFER = 65536
# Datagrams handled per socket per wake-up: bounds the time one busy socket can starve the other.
_BATCH = 64
# How long select() sleeps when idle; stop() also wakes it at once through a socket pair.
_IDLE_TIMEOUT_S = 0.05
# Linux reports ICMP errors on unconnected UDP sockets only with IP_RECVERR (Windows always does);
# the values are the stable Linux ABI numbers, which Python does not export.
_IP_RECVERR = 11
_IPV6_RECVERR = 25
_ERRQUEUE_DRAIN_LIMIT = 256


class UdpRelay(ThreadedService):
    """Forward datagrams between a learned peer and a fixed target, recording copies on the side."""

    def __init__(self, config: RelayConfig, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(f"udp-relay-{config.name}")
        self.config = config
        self._clock = clock
        self._book = RelayBook(config)
        self._peer: Address | None = None
        self._peer_last_seen = 0.0
        # What was forwarded to the target lately, to recognise it coming back to the listen socket.
        self._returns = ReturnGuard()
        self._allowed = None if config.allowed_peers is None else frozenset(config.allowed_peers)
        self._listen_sock: socket.socket | None = None
        self._target_sock: socket.socket | None = None
        # Where the relay's own forwarding comes from: never a peer.
        self._own_outbound: Address | None = None
        self._target: Address | None = None
        self._listen_address: Address = config.listen
        self._wake_r: socket.socket | None = None
        self._wake_w: socket.socket | None = None
        self._started = False
        self._errqueue = False

    # ---------------------------------------------------------------- lifecycle
    def start(self) -> None:
        """Bind the sockets and start the forwarding thread.  A relay runs at most once."""
        # Stricter than ThreadedService: the sockets are bound here, so a second start is refused
        # rather than ignored whether the first one is running, failed or was stopped.
        if self._started or self._closed:
            raise RuntimeError(_("A relay can only be started once."))
        self._started = True
        super().start()

    def _open(self) -> None:
        family = family_for(self.config.listen[0])
        try:
            self._listen_sock = self._open_socket(family, self.config.listen, "listen")
            self._listen_address = local_address(self._listen_sock)
            if self.config.target is not None:
                self._target = resolve(self.config.target, family, "target")
                host = outbound_host(self._listen_address[0], self._target, family)
                self._target_sock = self._open_socket(family, (host, 0), "outbound")
                self._own_outbound = local_address(self._target_sock)
            self._wake_r, self._wake_w = socket.socketpair()
            self._wake_r.setblocking(False)
            self._wake_w.setblocking(False)
        except BaseException:
            self._close()
            raise

    def _open_socket(self, family: socket.AddressFamily, address: Address, what: str) -> socket.socket:
        try:
            return bind_udp(address, family, self._enable_error_queue)
        except OSError as error:
            raise RelayError(
                _("Cannot open the {what} socket on {address}: {error}").format(
                    what=what, address=format_address(address), error=error.strerror or error
                )
            ) from error

    def _enable_error_queue(self, sock: socket.socket) -> None:
        if sys.platform.startswith("linux"):
            level = socket.IPPROTO_IPV6 if sock.family == socket.AF_INET6 else socket.IPPROTO_IP
            option = _IPV6_RECVERR if sock.family == socket.AF_INET6 else _IP_RECVERR
            with contextlib.suppress(OSError):
                sock.setsockopt(level, option, 1)
                self._errqueue = True

    def _wake(self) -> None:
        if self._wake_w is not None:
            with contextlib.suppress(OSError):
                self._wake_w.send(b"\0")

    def _close(self) -> None:
        for sock in (self._listen_sock, self._target_sock, self._wake_r, self._wake_w):
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.close()

    # ---------------------------------------------------------------- queries
    @property
    def running(self) -> bool:
        thread = self._thread
        return thread is not None and thread.is_alive() and not self._stop_event.is_set()

    @property
    def alive(self) -> bool:
        """Whether the forwarding thread still exists (False once stop() has joined it)."""
        thread = self._thread
        return thread is not None and thread.is_alive()

    @property
    def pending_records(self) -> int:
        """Captured datagrams waiting to be drained; never more than ``ring_size``."""
        return self._book.pending_records

    @property
    def pending_bytes(self) -> int:
        """What the waiting records are charged; never more than ``ring_bytes``."""
        return self._book.pending_bytes

    @property
    def listen_address(self) -> Address:
        """The bound listen address (port 0 resolved once started)."""
        return self._listen_address

    @property
    def target_address(self) -> Address | None:
        """The resolved target once started, the configured one before."""
        return self._target if self._target is not None else self.config.target

    @property
    def outbound_address(self) -> Address | None:
        """The local address of the socket that talks to the target (None in listen-only mode)."""
        sock = self._target_sock
        if sock is None:
            return None
        try:
            return local_address(sock)
        except OSError:
            return None

    @property
    def peer(self) -> Address | None:
        return self._peer

    def drain(self, max_records: int) -> list[CaptureRecord]:
        """Take up to ``max_records`` captured datagrams, oldest first (thread-safe)."""
        return self._book.drain(max_records)

    def traffic(self) -> dict[Direction, DirectionTraffic]:
        """A consistent copy of both directions' tallies (thread-safe, O(1))."""
        return self._book.traffic()

    def counters(self) -> RelayCounters:
        """A consistent copy of the relay's counters (thread-safe)."""
        return self._book.counters()

    # ---------------------------------------------------------------- thread
    def _run(self) -> None:
        listen, target, wake = self._listen_sock, self._target_sock, self._wake_r
        assert listen is not None
        assert wake is not None
        selector = selectors.DefaultSelector()
        try:
            selector.register(listen, selectors.EVENT_READ, self._service_listen)
            if target is not None:
                selector.register(target, selectors.EVENT_READ, self._service_target)
            selector.register(wake, selectors.EVENT_READ, None)
            while not self._stop_event.is_set():
                try:
                    events = selector.select(_IDLE_TIMEOUT_S)
                    for key, _mask in events:
                        handler = key.data
                        if handler is not None and not self._stop_event.is_set():
                            handler(key.fileobj)
                except Exception:  # the relay thread must outlive any single fault
                    self._book.count_error(REASON_INTERNAL)
                    # Do not spin if the same fault repeats on every wake-up.
                    self._stop_event.wait(_IDLE_TIMEOUT_S)
        finally:
            selector.close()

    def _service_listen(self, sock: socket.socket) -> None:
        self._service(sock, self._from_peer)

    def _service_target(self, sock: socket.socket) -> None:
        self._service(sock, self._from_target)

    def _service(self, sock: socket.socket, handle: Callable[[bytes, Address], None]) -> None:
        for _round in range(_BATCH):
            received = self._receive(sock)
            if received is None:
                return
            try:
                handle(*received)
            except Exception:  # one datagram's fault must not cost the rest of the batch
                self._book.count_error(REASON_INTERNAL)

    def _receive(self, sock: socket.socket) -> tuple[bytes, Address] | None:
        """One datagram, or None when the socket has nothing more to give right now."""
        for _round in range(_ERRQUEUE_DRAIN_LIMIT):
            try:
                data, address = sock.recvfrom(_RECV_BUFFER)
            except BlockingIOError:
                # select() also wakes for queued ICMP reports; clear them or it never sleeps.
                self._drain_error_queue(sock)
                return None
            except (ConnectionRefusedError, ConnectionResetError):
                self._icmp_reported(sock)
                continue
            except OSError:
                self._book.count_error(REASON_RECEIVE_FAILED)
                return None
            return data, (str(address[0]), int(address[1]))
        return None

    def _icmp_reported(self, sock: socket.socket) -> None:
        if self._errqueue:
            self._drain_error_queue(sock)
        else:
            self._book.count_error(REASON_PORT_UNREACHABLE)

    def _drain_error_queue(self, sock: socket.socket) -> None:
        if not self._errqueue:
            return
        for _round in range(_ERRQUEUE_DRAIN_LIMIT):
            try:
                sock.recvmsg(1, 512, socket.MSG_ERRQUEUE)
            except OSError:
                return
            self._book.count_error(REASON_PORT_UNREACHABLE)

    def _send(self, sock: socket.socket, data: bytes, address: Address) -> bool:
        for _attempt in range(2):
            try:
                sock.sendto(data, address)
            except (ConnectionRefusedError, ConnectionResetError):
                # A pending ICMP report failed this send without sending; report it, try once more.
                self._icmp_reported(sock)
                continue
            except OSError:
                self._book.count_error(REASON_SEND_FAILED)
                return False
            return True
        self._book.count_error(REASON_SEND_FAILED)
        return False

    def _from_peer(self, data: bytes, source: Address) -> None:
        now = self._clock()
        if self._is_own_outbound(source):
            # The relay's own forwarding came back to it: passed on, it would go round for ever.
            self._book.count_only(Direction.FROM_PEER, now, source, len(data), unexpected=True)
            return
        if not self._admissible(data):
            self._book.count_only(Direction.FROM_PEER, now, source, len(data), unexpected=False)
            return
        peer = self._peer
        if peer != source:
            if not self._may_become_peer(source, now, data):
                self._book.count_only(Direction.FROM_PEER, now, source, len(data), unexpected=True)
                return
            if is_valid_peer_packet(self.config.protocol, data):
                if peer is not None:
                    self._book.count_peer_change()
                self._peer = peer = source
                self._returns.forget()
        if peer == source:
            self._peer_last_seen = now
        forwarded = False
        target = self._target
        if target is not None and self._target_sock is not None:
            verdict = self._returns.admit(data, source, target, now)
            if verdict and self._came_back(verdict, now, source, target, len(data)):
                return
            forwarded = self._send(self._target_sock, data, target)
        # Frame and sequence bookkeeping follows the traffic the relay passes on, so a stray
        # sender's counter cannot fake gaps or resets; a listen-only tap passes nothing on.
        self._book.account(
            Direction.FROM_PEER,
            now,
            source,
            data,
            forwarded=forwarded,
            track=forwarded or self._target is None,
        )

    def _came_back(self, verdict: Verdict, now: float, source: Address, target: Address, size: int) -> bool:
        """Count a datagram that came back to the relay; True when its loop is cut (not forwarded)."""
        self._book.count_return(
            verdict,
            now,
            source,
            size,
            came_back_from=format_address(source) or "",
            sent_to=format_address(target) or "",
        )
        return verdict >= Verdict.CUT

    def _is_own_outbound(self, source: Address) -> bool:
        own = self._own_outbound
        if own is None or source[1] != own[1]:
            return False
        # An outbound socket on every interface sends from whichever address the route picks.
        return source[0] == own[0] or own[0] in ("0.0.0.0", "::")

    def _may_become_peer(self, source: Address, now: float, data: bytes) -> bool:
        """Whether a datagram from ``source`` (not the current peer) may pass."""
        if self._allowed is not None and source[0] not in self._allowed:
            return False
        if self._peer is None:
            # Until a valid datagram names the peer, pass everything on, as a plain relay would.
            return True
        limit = self.config.relearn_after_s
        return (
            limit is not None
            and now - self._peer_last_seen >= limit
            and is_valid_peer_packet(self.config.protocol, data)
        )

    def _from_target(self, data: bytes, source: Address) -> None:
        now = self._clock()
        if source != self._target:
            self._book.count_only(Direction.FROM_TARGET, now, source, len(data), unexpected=True)
            return
        if not self._admissible(data):
            self._book.count_only(Direction.FROM_TARGET, now, source, len(data), unexpected=False)
            return
        peer = self._peer
        forwarded = False
        if peer is None:
            self._book.count_reply_without_peer()
        elif self._listen_sock is not None:
            forwarded = self._send(self._listen_sock, data, peer)
        self._book.account(Direction.FROM_TARGET, now, source, data, forwarded=forwarded, track=forwarded)

    def _admissible(self, data: bytes) -> bool:
        if not data:
            self._book.count_error(REASON_EMPTY)
            return False
        if len(data) > MAX_UDP_PAYLOAD:
            self._book.count_error(REASON_OVERSIZE)
            return False
        return True
