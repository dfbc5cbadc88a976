# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A JSON physics/transmitter back end for ArduPilot SITL: a vehicle at rest plus an RC transmitter.

``FrameStepper`` is the sans-IO core: servo-packet bytes in, JSON-state bytes out, with the
frame-count rules of a robust back end (a repeated count gets the cached reply without stepping,
a decreased count is a SITL restart, invalid packets are counted and ignored).  ``PhysicsBackend``
wraps it in one UDP socket and one thread and replies to whatever address each packet came from,
which is what ArduPilot SITL expects (it sends from an ephemeral port).

Serving a real ArduPilot SITL (a binary you built yourself from the upstream sources)::

    python -m amc_rc_receiver.demo.physics_backend --instance 0
    arducopter --model JSON:127.0.0.1 --speedup 1 --defaults copter.parm -I0 --serial0 tcp:0

SITL sends 40-byte servo packets to UDP 9002 + 10·N for ``-I N``.  The transmitter goes two
ways: in the ``rc`` object of the replies, for builds that read it, and as RC-input datagrams to
UDP 5501 + 10·N, the only way into builds of mid-2025, which have no JSON ``rc`` key (SITL lists
the keys it parsed under "JSON received:").  Use ``--no-rc`` to start with the transmitter off.
``amc-rc-receiver --sitl`` runs this back end itself, with a switchable transmitter.
"""

from __future__ import annotations

import argparse
import select
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .. import _
from ..net.host_port import HostPortError, parse_host_port
from ..net.services import (
    ThreadedService,
    bind_udp,
    drain_udp,
    local_address,
)
from ..sim_bridge.protocols.ardupilot_json import FdmState, encode_state
from ..sim_bridge.protocols.errors import CodecError
from ..sim_bridge.protocols.sitl_servo_packet import SITL_JSON_BASE_PORT, decode_servo_packet
from .sitl_rc_input import RC_INPUT_BASE_PORT, RcInputSender
from .transmitter import Transmitter

STANDARD_GRAVITY = 9.80665
# Bounds per wake-up and per bookkeeping table, so a flood never grows memory or starves stop().
MAX_DATAGRAMS_PER_WAKEUP = 256
MAX_ERROR_REASONS = 32
RECV_BUFFER_SIZE = 65536
WAKEUP_TIMEOUT_S = 0.1


@dataclass(frozen=True)
class BackendCounters:
    """What the back end has seen so far; ``invalid_by_reason`` is most frequent first."""

    packets: int = 0
    replies: int = 0
    new_frames: int = 0
    repeats: int = 0
    gaps: int = 0
    resets: int = 0
    invalid: int = 0
    invalid_by_reason: tuple[tuple[str, int], ...] = ()
    send_errors: int = 0
    last_frame_count: int | None = None
    last_error: str | None = None
    physics_time_s: float = 0.0


class FrameStepper:
    """Turns servo packets into JSON state replies for a vehicle at rest on the ground.

    Physics time advances by ``1/frame_rate`` for every new frame; the transmitter is sampled at
    that time so the sticks are a deterministic function of the frame sequence.
    """

    def __init__(self, transmitter: Transmitter | None = None) -> None:
        self._transmitter = transmitter
        self._last_frame_count: int | None = None
        self._cached_reply: bytes | None = None
        self._time_s = 0.0
        self._packets = 0
        self._replies = 0
        self._new_frames = 0
        self._repeats = 0
        self._gaps = 0
        self._resets = 0
        self._invalid: dict[str, int] = {}
        self._last_error: str | None = None

    @property
    def transmitter(self) -> Transmitter | None:
        return self._transmitter

    def handle(self, data: bytes) -> bytes | None:
        """Return the reply for one datagram, or ``None`` if it was not a usable servo packet."""
        self._packets += 1
        try:
            packet = decode_servo_packet(data)
        except CodecError as error:
            self._count_invalid(error.reason, str(error))
            return None
        if packet.frame_rate <= 0:
            # Stepping by 1/frame_rate is meaningless; the example back ends skip these too.
            self._count_invalid("frame-rate-zero", _("servo packet with frame rate 0"))
            return None

        last = self._last_frame_count
        if last is not None and packet.frame_count == last and self._cached_reply is not None:
            # SITL did not accept our previous reply (or it was lost): answer again, do not step.
            self._repeats += 1
            self._replies += 1
            return self._cached_reply
        if last is None or packet.frame_count < last:
            if last is not None:
                self._resets += 1
            self._time_s = 0.0
        else:
            if packet.frame_count > last + 1:
                self._gaps += 1
            self._time_s += 1.0 / packet.frame_rate
        self._new_frames += 1
        self._last_frame_count = packet.frame_count
        self._cached_reply = encode_state(self.state_at(self._time_s))
        self._replies += 1
        return self._cached_reply

    def state_at(self, t: float) -> FdmState:
        channels = self._transmitter.channels(t) if self._transmitter is not None else None
        return FdmState(
            timestamp=t,
            gyro=(0.0, 0.0, 0.0),
            accel_body=(0.0, 0.0, -STANDARD_GRAVITY),
            velocity=(0.0, 0.0, 0.0),
            attitude=(0.0, 0.0, 0.0),
            position=(0.0, 0.0, 0.0),
            rc=None if channels is None else tuple(float(value) for value in channels),
        )

    def counters(self, send_errors: int = 0) -> BackendCounters:
        reasons = tuple(sorted(self._invalid.items(), key=lambda item: (-item[1], item[0])))
        return BackendCounters(
            packets=self._packets,
            replies=self._replies,
            new_frames=self._new_frames,
            repeats=self._repeats,
            gaps=self._gaps,
            resets=self._resets,
            invalid=sum(self._invalid.values()),
            invalid_by_reason=reasons,
            send_errors=send_errors,
            last_frame_count=self._last_frame_count,
            last_error=self._last_error,
            physics_time_s=self._time_s,
        )

    def _count_invalid(self, reason: str, message: str) -> None:
        if reason not in self._invalid and len(self._invalid) >= MAX_ERROR_REASONS:
            reason = "other"
        self._invalid[reason] = self._invalid.get(reason, 0) + 1
        self._last_error = message


class PhysicsBackend(ThreadedService):
    """The UDP side of ``FrameStepper``: one socket, one thread, replies to each packet's sender.

    The socket is bound in the constructor so ``address`` is known before ``start()``.
    ``start()`` and ``stop()`` are idempotent; a stopped back end cannot be restarted.
    """

    def __init__(
        self,
        listen: tuple[str, int] = ("127.0.0.1", 0),
        *,
        transmitter: Transmitter | None = None,
        with_transmitter: bool = True,
    ) -> None:
        super().__init__("sitl-json-backend")
        if transmitter is None and with_transmitter:
            transmitter = Transmitter()
        self._stepper = FrameStepper(transmitter)
        self._lock = threading.Lock()
        self._send_errors = 0
        self._last_sender: tuple[str, int] | None = None
        self._sock = bind_udp(listen)
        self._address: tuple[str, int] = local_address(self._sock)

    @property
    def address(self) -> tuple[str, int]:
        return self._address

    @property
    def transmitter(self) -> Transmitter | None:
        return self._stepper.transmitter

    @property
    def transmitter_on(self) -> bool:
        transmitter = self._stepper.transmitter
        return transmitter is not None and transmitter.on

    def set_transmitter_on(self, on: bool) -> None:
        transmitter = self._stepper.transmitter
        if transmitter is None:
            raise RuntimeError("this back end has no transmitter")
        transmitter.set_on(on)

    @property
    def last_sender(self) -> tuple[str, int] | None:
        with self._lock:
            return self._last_sender

    def counters(self) -> BackendCounters:
        with self._lock:
            return self._stepper.counters(self._send_errors)

    def _close(self) -> None:
        self._sock.close()

    def _run(self) -> None:
        while not self._stop_event.is_set():
            try:
                readable, _w, _x = select.select([self._sock], [], [], WAKEUP_TIMEOUT_S)
            except (OSError, ValueError):
                return  # socket closed under us by stop()
            if readable:
                drain_udp(self._sock, self._serve, MAX_DATAGRAMS_PER_WAKEUP, RECV_BUFFER_SIZE)

    def _serve(self, data: bytes, sender: tuple[str, int]) -> None:
        with self._lock:
            self._last_sender = sender
            reply = self._stepper.handle(data)
        if reply is None:
            return
        try:
            self._sock.sendto(reply, sender)
        except OSError:
            with self._lock:
                self._send_errors += 1


def _listen_address(text: str) -> tuple[str, int]:
    try:
        return parse_host_port(text)
    except HostPortError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _target_address(text: str) -> tuple[str, int]:
    try:
        return parse_host_port(text, lowest_port=1)
    except HostPortError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def format_counters(counters: BackendCounters) -> str:
    """One console line summarising the back end's traffic."""
    text = _("packets {packets}, frames {frames}, repeats {repeats}, resets {resets}, invalid {invalid}")
    return text.format(
        packets=counters.packets,
        frames=counters.new_frames,
        repeats=counters.repeats,
        resets=counters.resets,
        invalid=counters.invalid,
    )


def main(argv: Sequence[str] | None = None, *, sleep: Callable[[float], None] = time.sleep) -> int:
    parser = argparse.ArgumentParser(description=_("JSON physics back end for ArduPilot SITL --model JSON"))
    parser.add_argument(
        "--instance",
        type=int,
        default=0,
        help=_("SITL instance N (its -I N): the default ports move by 10*N"),
    )
    parser.add_argument(
        "--listen", type=_listen_address, help=_("HOST:PORT to bind (default 127.0.0.1:9002+10*N)")
    )
    parser.add_argument(
        "--rc-input",
        type=_target_address,
        help=_("where to send the transmitter as SITL RC input (default 127.0.0.1:5501+10*N)"),
    )
    parser.add_argument("--no-rc-input", action="store_true", help=_("send RC only in the JSON replies"))
    parser.add_argument("--no-rc", action="store_true", help=_("start with the simulated transmitter off"))
    args = parser.parse_args(argv)
    listen = args.listen or ("127.0.0.1", SITL_JSON_BASE_PORT + 10 * args.instance)
    transmitter = Transmitter(on=not args.no_rc)
    backend = PhysicsBackend(listen, transmitter=transmitter)
    banner = _("Serving SITL JSON physics on {host}:{port} (Ctrl-C to stop)")
    print(banner.format(host=backend.address[0], port=backend.address[1]))
    rc_input = None
    if not args.no_rc_input:
        target = args.rc_input or ("127.0.0.1", RC_INPUT_BASE_PORT + 10 * args.instance)
        rc_input = RcInputSender(transmitter, target)
        rc_input.start()
        print(
            _("Sending the transmitter to SITL's RC input {host}:{port}").format(
                host=target[0], port=target[1]
            )
        )
    with backend:
        try:
            while True:
                sleep(5.0)
                print(format_counters(backend.counters()))
        except KeyboardInterrupt:
            pass
        finally:
            if rc_input is not None:
                rc_input.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
