# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A transparent UDP relay for one simulator link, with exact traffic tallies and a capture ring.

One thread waits on two non-blocking sockets: the listen socket (where the simulator's peer
sends) and an outbound socket (which talks to the target, so the target's replies come back to
it).  Both are bound to one interface, never to every interface unless the user named a wildcard:
the outbound socket takes the loopback when the target is on it, else the listen address, else
(listening on the loopback, target elsewhere) the address the route to the target leaves from.

Each datagram is forwarded first.  Only then does the thread spend its O(1) bookkeeping on it:
header-level checks (``triage``), exact tallies per direction (``traffic``), and a copy in the
capture ring, which is bounded in records and bytes and feeds the monitor the frames it shows.
Like a SITL physics back end, the relay learns the return peer from the first datagram that looks
valid for the link's protocol; a datagram from any other address is counted as an unexpected
sender and then dropped: never forwarded, never checked, never recorded, so a flood from a
stranger costs the UI nothing.  Socket faults (ICMP port unreachable, oversize or empty datagrams,
full buffers) and faults of the relay's own code are counted by reason and never stop the thread.
"""

from __future__ import annotations

import contextlib
import ipaddress
import selectors
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from amc_rc_receiver import _
from amc_rc_receiver.sim_bridge._service import ThreadedService, bind_udp, local_address
from amc_rc_receiver.sim_bridge.capture_ring import (
    DEFAULT_RING_BYTES,
    DEFAULT_RING_RECORDS,
    RECORD_OVERHEAD_BYTES,
    CaptureRecord,
    CaptureRing,
)
from amc_rc_receiver.sim_bridge.detect import is_valid_peer_packet
from amc_rc_receiver.sim_bridge.snapshot import Direction
from amc_rc_receiver.sim_bridge.traffic import DirectionTally, DirectionTraffic
from amc_rc_receiver.sim_bridge.triage import Triage, triage

__all__ = [
    "MAX_UDP_PAYLOAD",
    "CaptureRecord",
    "Direction",
    "DirectionTraffic",
    "RelayConfig",
    "RelayCounters",
    "RelayError",
    "UdpRelay",
    "format_address",
]

Address = tuple[str, int]

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

# Stable reason keys for RelayCounters.errors; the monitor turns them into readable labels.
REASON_PORT_UNREACHABLE = "port-unreachable"
REASON_OVERSIZE = "oversize"
REASON_EMPTY = "empty"
REASON_SEND_FAILED = "send-failed"
REASON_RECEIVE_FAILED = "receive-failed"
REASON_INTERNAL = "internal-error"

PROTOCOLS = ("ardupilot-json", "rflysim", "xrp", "auto")


class RelayError(OSError):
    """The relay could not be set up (bad address, port in use); the message says why."""


@dataclass(frozen=True)
class RelayConfig:
    """What one relay listens on, where it forwards, and how much it remembers.

    ``target=None`` makes a listen-only tap.  ``allowed_peers`` (host addresses, any port) limits
    which senders may become the return peer.  ``relearn_after_s``, when set, lets a valid
    datagram from a new sender replace a peer that has been silent that long (a restarted SITL
    comes back on a new ephemeral port); by default the first peer is kept, as SITL back ends do.
    The capture ring holds at most ``ring_size`` records and ``ring_bytes`` bytes;
    ``max_record_bytes`` caps how much of each datagram is copied into it.  ``rate_window_s`` is
    the width of the window the packet and byte rates are measured over.
    """

    name: str
    protocol: str = "auto"
    listen: Address = ("127.0.0.1", 0)
    target: Address | None = None
    ring_size: int = DEFAULT_RING_RECORDS
    allowed_peers: tuple[str, ...] | None = None
    relearn_after_s: float | None = None
    max_record_bytes: int = 8192
    ring_bytes: int = DEFAULT_RING_BYTES
    rate_window_s: float = 1.0

    def __post_init__(self) -> None:
        if self.protocol not in PROTOCOLS:
            raise ValueError(
                _("Unknown bridge protocol {protocol!r}; use one of {choices}.").format(
                    protocol=self.protocol, choices=", ".join(PROTOCOLS)
                )
            )
        if self.ring_size < 1:
            raise ValueError(_("The capture ring needs room for at least one datagram."))
        if self.max_record_bytes < 1:
            raise ValueError(_("The recording limit must be at least one byte."))
        if self.ring_bytes <= RECORD_OVERHEAD_BYTES + self.max_record_bytes:
            raise ValueError(_("The capture ring needs room for at least one datagram."))
        if self.rate_window_s <= 0:
            raise ValueError(_("The rate window must be longer than zero seconds."))


@dataclass(frozen=True)
class RelayCounters:
    """What the relay did so far; a consistent copy taken under the relay's lock."""

    received_from_peer: int = 0
    received_from_target: int = 0
    forwarded_from_peer: int = 0
    forwarded_from_target: int = 0
    unexpected_senders: int = 0
    replies_without_peer: int = 0
    peer_changes: int = 0
    dropped_captures: int = 0
    truncated_captures: int = 0
    # (reason key, count), most frequent first; keys are the REASON_* constants.
    errors: tuple[tuple[str, int], ...] = ()

    def forwarded(self, direction: Direction) -> int:
        return self.forwarded_from_peer if direction is Direction.FROM_PEER else self.forwarded_from_target

    def error_count(self, reason: str) -> int:
        return dict(self.errors).get(reason, 0)


@dataclass
class _MutableCounters:
    received_from_peer: int = 0
    received_from_target: int = 0
    forwarded_from_peer: int = 0
    forwarded_from_target: int = 0
    unexpected_senders: int = 0
    replies_without_peer: int = 0
    peer_changes: int = 0
    truncated_captures: int = 0
    errors: dict[str, int] = field(default_factory=dict)


def format_address(address: Address | None) -> str | None:
    """``host:port``, with IPv6 hosts in brackets; None stays None."""
    if address is None:
        return None
    host, port = address
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _family_for(host: str) -> socket.AddressFamily:
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def _is_wildcard(host: str) -> bool:
    return host in ("", "0.0.0.0", "::")  # recognising the user's choice, not binding it


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def _route_source(target: Address, family: socket.AddressFamily) -> str | None:
    """The local address the kernel would send to ``target`` from, or None without a route.

    Connecting a UDP socket only chooses the route; nothing is sent.
    """
    probe = socket.socket(family, socket.SOCK_DGRAM)
    try:
        probe.connect(target)
        return str(probe.getsockname()[0])
    except OSError:
        return None
    finally:
        probe.close()


def outbound_host(listen_host: str, target: Address, family: socket.AddressFamily) -> str:
    """The one interface the outbound socket binds: never every interface unless the user said so.

    A loopback target is reached from the loopback; a named listen interface is used as it is (a
    wildcard only when the user named one); a relay listening on the loopback for a target
    elsewhere sends from the interface the route to the target leaves from, since the loopback
    cannot reach it.
    """
    if _is_loopback(target[0]):
        return "::1" if family == socket.AF_INET6 else "127.0.0.1"
    if _is_wildcard(listen_host) or not _is_loopback(listen_host):
        return listen_host
    return _route_source(target, family) or listen_host


def _resolve(address: Address, family: socket.AddressFamily, what: str) -> Address:
    host, port = address
    try:
        infos = socket.getaddrinfo(host, port, family, socket.SOCK_DGRAM)
    except (OSError, UnicodeError) as error:
        raise RelayError(
            _("Cannot resolve the {what} address {address}: {error}").format(
                what=what, address=format_address(address), error=error
            )
        ) from error
    resolved = infos[0][4]
    return str(resolved[0]), int(resolved[1])


class UdpRelay(ThreadedService):
    """Forward datagrams between a learned peer and a fixed target, recording copies on the side."""

    def __init__(self, config: RelayConfig, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(f"udp-relay-{config.name}")
        self.config = config
        self._clock = clock
        self._ring = CaptureRing(config.ring_size, config.ring_bytes)
        self._lock = threading.Lock()
        self._counters = _MutableCounters()
        self._tallies = {
            direction: DirectionTally(direction, config.rate_window_s) for direction in Direction
        }
        self._peer: Address | None = None
        self._peer_last_seen = 0.0
        self._allowed = None if config.allowed_peers is None else frozenset(config.allowed_peers)
        self._listen_sock: socket.socket | None = None
        self._target_sock: socket.socket | None = None
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
        family = _family_for(self.config.listen[0])
        try:
            self._listen_sock = self._open_socket(family, self.config.listen, "listen")
            self._listen_address = local_address(self._listen_sock)
            if self.config.target is not None:
                self._target = _resolve(self.config.target, family, "target")
                host = outbound_host(self._listen_address[0], self._target, family)
                self._target_sock = self._open_socket(family, (host, 0), "outbound")
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
                    what=what, address=format_address(address), error=error
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
        return len(self._ring)

    @property
    def pending_bytes(self) -> int:
        """What the waiting records are charged; never more than ``ring_bytes``."""
        return self._ring.bytes

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
        return self._ring.drain(max_records)

    def traffic(self) -> dict[Direction, DirectionTraffic]:
        """A consistent copy of both directions' tallies (thread-safe, O(1))."""
        with self._lock:
            return {direction: tally.copy() for direction, tally in self._tallies.items()}

    def counters(self) -> RelayCounters:
        with self._lock:
            c = self._counters
            errors = tuple(sorted(c.errors.items(), key=lambda item: (-item[1], item[0])))
            return RelayCounters(
                received_from_peer=c.received_from_peer,
                received_from_target=c.received_from_target,
                forwarded_from_peer=c.forwarded_from_peer,
                forwarded_from_target=c.forwarded_from_target,
                unexpected_senders=c.unexpected_senders,
                replies_without_peer=c.replies_without_peer,
                peer_changes=c.peer_changes,
                dropped_captures=self._ring.dropped,
                truncated_captures=c.truncated_captures,
                errors=errors,
            )

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
                    self._count_error(REASON_INTERNAL)
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
                self._count_error(REASON_INTERNAL)

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
                self._count_error(REASON_RECEIVE_FAILED)
                return None
            return data, (str(address[0]), int(address[1]))
        return None

    def _icmp_reported(self, sock: socket.socket) -> None:
        if self._errqueue:
            self._drain_error_queue(sock)
        else:
            self._count_error(REASON_PORT_UNREACHABLE)

    def _drain_error_queue(self, sock: socket.socket) -> None:
        if not self._errqueue:
            return
        for _round in range(_ERRQUEUE_DRAIN_LIMIT):
            try:
                sock.recvmsg(1, 512, socket.MSG_ERRQUEUE)
            except OSError:
                return
            self._count_error(REASON_PORT_UNREACHABLE)

    def _send(self, sock: socket.socket, data: bytes, address: Address) -> bool:
        for _attempt in range(2):
            try:
                sock.sendto(data, address)
            except (ConnectionRefusedError, ConnectionResetError):
                # A pending ICMP report failed this send without sending; report it, try once more.
                self._icmp_reported(sock)
                continue
            except OSError:
                self._count_error(REASON_SEND_FAILED)
                return False
            return True
        self._count_error(REASON_SEND_FAILED)
        return False

    def _from_peer(self, data: bytes, source: Address) -> None:
        now = self._clock()
        if not self._admissible(data):
            self._count_only(Direction.FROM_PEER, now, source, len(data), unexpected=False)
            return
        peer = self._peer
        if peer != source:
            if not self._may_become_peer(source, now, data):
                self._count_only(Direction.FROM_PEER, now, source, len(data), unexpected=True)
                return
            if is_valid_peer_packet(self.config.protocol, data):
                with self._lock:
                    if peer is not None:
                        self._counters.peer_changes += 1
                self._peer = peer = source
        if peer == source:
            self._peer_last_seen = now
        forwarded = False
        if self._target is not None and self._target_sock is not None:
            forwarded = self._send(self._target_sock, data, self._target)
        # Frame and sequence bookkeeping follows the traffic the relay passes on, so a stray
        # sender's counter cannot fake gaps or resets; a listen-only tap passes nothing on.
        self._account(
            Direction.FROM_PEER,
            now,
            source,
            data,
            forwarded=forwarded,
            track=forwarded or self._target is None,
        )

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
            self._count_only(Direction.FROM_TARGET, now, source, len(data), unexpected=True)
            return
        if not self._admissible(data):
            self._count_only(Direction.FROM_TARGET, now, source, len(data), unexpected=False)
            return
        peer = self._peer
        forwarded = False
        if peer is None:
            with self._lock:
                self._counters.replies_without_peer += 1
        elif self._listen_sock is not None:
            forwarded = self._send(self._listen_sock, data, peer)
        self._account(Direction.FROM_TARGET, now, source, data, forwarded=forwarded, track=forwarded)

    def _admissible(self, data: bytes) -> bool:
        if not data:
            self._count_error(REASON_EMPTY)
            return False
        if len(data) > MAX_UDP_PAYLOAD:
            self._count_error(REASON_OVERSIZE)
            return False
        return True

    def _count_only(
        self, direction: Direction, now: float, source: Address, size: int, *, unexpected: bool
    ) -> None:
        """Count a datagram that is neither checked nor recorded (a stranger's, an empty one)."""
        with self._lock:
            counters = self._counters
            if direction is Direction.FROM_PEER:
                counters.received_from_peer += 1
            else:
                counters.received_from_target += 1
            tally = self._tallies[direction]
            tally.see(now, size, source)
            if unexpected:
                counters.unexpected_senders += 1
                tally.unexpected += 1

    def _account(
        self, direction: Direction, now: float, source: Address, data: bytes, *, forwarded: bool, track: bool
    ) -> None:
        """Check, record and count one datagram from an expected sender, after it was forwarded."""
        check = triage(self.config.protocol, data)
        # Recorded before it is counted: once a count shows the datagram, the ring already has it.
        truncated = self._record(now, direction, source, data, forwarded=forwarded, protocol=check.protocol)
        with self._lock:
            counters = self._counters
            if direction is Direction.FROM_PEER:
                counters.received_from_peer += 1
                counters.forwarded_from_peer += forwarded
            else:
                counters.received_from_target += 1
                counters.forwarded_from_target += forwarded
            counters.truncated_captures += truncated
            tally = self._tallies[direction]
            tally.see(now, len(data), source)
            _fold(tally, check, track)

    def _record(
        self,
        now: float,
        direction: Direction,
        source: Address,
        data: bytes,
        *,
        forwarded: bool,
        protocol: str | None,
    ) -> bool:
        """Copy the datagram into the ring; True when the recording limit cut it."""
        limit = self.config.max_record_bytes
        if len(data) > limit:
            self._ring.append(
                CaptureRecord(now, direction, source, data[:limit], forwarded, len(data), protocol)
            )
            return True
        self._ring.append(CaptureRecord(now, direction, source, data, forwarded, None, protocol))
        return False

    def _count_error(self, reason: str) -> None:
        with self._lock:
            errors = self._counters.errors
            errors[reason] = errors.get(reason, 0) + 1


def _fold(tally: DirectionTally, check: Triage, track: bool) -> None:
    if check.reason is not None:
        tally.count_error(check.reason)
        return
    tally.detected_protocol = check.protocol
    if track:
        if check.frame_count is not None:
            tally.frame_count(check.frame_count)
        if check.sequence is not None:
            tally.sequence(check.sequence)

