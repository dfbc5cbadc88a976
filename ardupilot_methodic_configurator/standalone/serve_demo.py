# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""`amc-rc-receiver --serve-demo DEVICE`: the simulated vehicle for any ground station.

Runs the embedded demo without our own check: the vehicle with its physics back end, relay and
simulated transmitter, its MAVLink port on DEVICE (``tcp:`` as SITL's TCP server, ``udpin:`` or
``udpout:``), until Ctrl-C (exit 130), SIGTERM (exit 0) or ``--duration``.  The transmitter is
switched with Enter when stdin is a terminal, or on the ``--transmitter-off-after`` schedule, which
runs from the first ground station that connects.
Its pilot pushes one stick after the other, in the order the receiver check's stick step asks for
them, so that a check on the other end of the link can pass that step without being told.

The loop only waits and switches the transmitter; the vehicle's own threads do the serving.
Scheduled switches are edges of the schedule, so they do not undo a switch made with Enter.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TextIO

from .. import _
from ..demo.mavlink_link import LinkEndpoint, LinkEndpointError, LinkKind, parse_endpoint
from ..demo.serial_link import NotASerialPortError
from ..demo.system import DemoSystem
from ..net.host_port import beyond_loopback_notice
from ..plugins.rc_receiver.firmware import VehicleFamily
from ..plugins.rc_receiver.sticks import stick_axes
from .options import EXIT_ERROR, EXIT_INTERRUPTED, EXIT_USAGE, TransmitterSchedule

TICK_S = 0.1


class _Terminated(BaseException):
    """Raised in the main thread by SIGTERM, so serving unwinds as it does on Ctrl-C."""


def _raise_terminated(_signum: int, _frame: object) -> None:
    # Raising is what a handler can do safely: setting an Event could deadlock on a lock the
    # interrupted main thread holds.
    raise _Terminated


@contextmanager
def _sigterm_unwinds() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGTERM"):
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class _EnterPresses:
    """Enter presses counted by a reader thread and taken by the serving loop."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending = 0

    def read_from(self, stdin: TextIO) -> None:
        try:
            for _line in stdin:
                with self._lock:
                    self._pending += 1
        except (OSError, ValueError):
            return  # stdin closed: the schedule and Ctrl-C still work

    def take(self) -> int:
        with self._lock:
            pending, self._pending = self._pending, 0
        return pending


@dataclass
class _Console:
    out: TextIO
    err: TextIO
    stdin: TextIO


def _where(endpoint: LinkEndpoint, demo: DemoSystem) -> str:
    if endpoint.kind is LinkKind.SERIAL:
        return _("on the serial device {path} at {baudrate} baud").format(
            path=endpoint.path, baudrate=endpoint.baudrate
        )
    host, port = demo.vehicle.address
    if endpoint.kind is LinkKind.TCP_SERVER:
        return _("as a TCP server on {host}:{port}").format(host=host, port=port)
    if endpoint.kind is LinkKind.UDP_IN:
        return _("on UDP {host}:{port}, answering the ground station it hears from").format(
            host=host, port=port
        )
    return _("sending UDP to {host}:{port}").format(host=endpoint.host, port=endpoint.port)


def serve_demo(
    device: str,
    *,
    baudrate: int = 115200,
    duration: float | None = None,
    schedule: TransmitterSchedule | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    stdin: TextIO | None = None,
    clock: Callable[[], float] = time.monotonic,
    stop: threading.Event | None = None,
) -> int:
    """Serve the simulated vehicle on ``device`` until stopped; returns the exit code.

    ``stop`` lets another thread (a test, an embedding program) end serving as SIGTERM does.
    """
    console = _Console(
        out if out is not None else sys.stdout,
        err if err is not None else sys.stderr,
        stdin if stdin is not None else sys.stdin,
    )
    try:
        endpoint = parse_endpoint(device, baudrate)
    except LinkEndpointError as error:
        console.err.write(str(error) + "\n")
        return EXIT_USAGE
    server = _Server(endpoint, schedule or TransmitterSchedule(), console, clock)
    try:
        with _sigterm_unwinds():
            return server.run(duration, stop or threading.Event())
    except KeyboardInterrupt:
        console.out.write(_("Stopped.") + "\n")
        return EXIT_INTERRUPTED
    except _Terminated:
        console.out.write(_("Stopped.") + "\n")
        return 0


class _Server:
    def __init__(
        self,
        endpoint: LinkEndpoint,
        schedule: TransmitterSchedule,
        console: _Console,
        clock: Callable[[], float],
    ) -> None:
        self._endpoint = endpoint
        self._schedule = schedule
        self._console = console
        self._clock = clock
        self._demo: DemoSystem | None = None

    def run(self, duration: float | None, stop: threading.Event) -> int:
        try:
            demo = DemoSystem(endpoint=self._endpoint, clock=self._clock)
        except OSError as error:
            self._console.err.write(
                _("Cannot serve on {device}: {reason}").format(
                    device=self._endpoint, reason=error.strerror or error
                )
                + "\n"
            )
            # A path that names no serial port is a wrong command line, as a wrong scheme is.
            return EXIT_USAGE if isinstance(error, NotASerialPortError) else EXIT_ERROR
        self._demo = demo
        demo.transmitter.play_script(stick_axes(VehicleFamily.COPTER), clock=self._clock)
        presses = _EnterPresses()
        interactive = self._console.stdin.isatty()
        if interactive:
            threading.Thread(target=presses.read_from, args=(self._console.stdin,), daemon=True).start()
        with demo:
            self._announce(demo, interactive)
            self._warn_if_exposed(demo)
            start = self._clock()
            # The schedule runs from the first ground station, as the window's runs from its
            # connection: a station that connects late still sees every switch.
            served_at: float | None = None
            scheduled_on = self._schedule.wanted_on(0.0)
            while not stop.wait(TICK_S):
                now = self._clock()
                elapsed = now - start
                if duration is not None and elapsed >= duration:
                    break
                if served_at is None and demo.vehicle.gcs_address is not None:
                    served_at = now
                if served_at is not None:
                    wanted = self._schedule.wanted_on(now - served_at)
                    if wanted != scheduled_on:
                        scheduled_on = wanted
                        self._switch(demo, wanted, elapsed)
                for _press in range(presses.take()):
                    self._switch(demo, not demo.transmitter_on, elapsed)
        return 0

    def _announce(self, demo: DemoSystem, interactive: bool) -> None:
        how = (
            _("press Enter to switch the simulated transmitter off or on, Ctrl-C to stop.")
            if interactive
            else _(
                "switch the transmitter with --transmitter-off-after S and --transmitter-off-for S; "
                "Ctrl-C stops."
            )
        )
        device = (
            _("the other end of that serial line") if self._endpoint.kind is LinkKind.SERIAL else demo.device
        )
        self._console.out.write(
            _("Simulated ArduPilot vehicle serving MAVLink {where}; connect with {device}; {how}").format(
                where=_where(self._endpoint, demo), device=device, how=how
            )
            + "\n"
        )
        self._console.out.flush()

    def _warn_if_exposed(self, demo: DemoSystem) -> None:
        if self._endpoint.kind in (LinkKind.UDP_OUT, LinkKind.SERIAL):
            return  # it hears only the ground station it sends to, or the far end of its cable
        host, port = demo.vehicle.address
        notice = beyond_loopback_notice(_("The simulated vehicle"), host, port)
        if notice is not None:
            self._console.err.write(notice + "\n")
            self._console.err.flush()

    def _switch(self, demo: DemoSystem, on: bool, elapsed: float) -> None:
        demo.set_transmitter_on(on)
        message = _("Transmitter switched on") if on else _("Transmitter switched off")
        self._console.out.write(f"[{elapsed:6.1f} s] * {message}\n")
        self._console.out.flush()


def run_serve_demo_command(args: argparse.Namespace) -> int:
    """The ``--serve-demo`` branch of the command line; refuses options that mean nothing here."""
    if args.demo or args.device or args.text or args.bridge:
        print(
            _("--serve-demo runs the simulated vehicle alone: leave out --demo, --device, --text, --bridge."),
            file=sys.stderr,
        )
        return EXIT_USAGE
    return serve_demo(
        args.serve_demo,
        baudrate=args.baudrate,
        duration=args.duration,
        schedule=TransmitterSchedule(args.transmitter_off_after, args.transmitter_off_for),
    )
