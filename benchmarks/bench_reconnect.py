# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""How long the check takes from a rebooted board's return to its first live reading, per link.

For each kind of link the check follows (a USB serial device, TCP, UDP) the vehicle goes away for
2 s and comes back, as a board does when it reboots: the serial device vanishes (a
pseudo-terminal null modem unplugged) and returns at its path; the TCP server closes and listens
again; the UDP vehicle falls silent and sends again from a new port.  The clock starts when the
vehicle is back (the device exists again, the server listens, the first datagram is sent) and
stops at the first poll that shows live RC channels on the new connection.  The baseline, measured
in the same run on the same link, is the first connection: from ``connect()`` to the first live
reading.  The ratio says what following the reboot adds to simply connecting.

The vehicle is the simulated one by default; ``--sitl ../shared/sitl/arducopter`` reboots real
SITL instead (its boot time then dominates, and SITL's own restart is the "return").

Run: .venv/bin/python benchmarks/bench_reconnect.py [--rounds 3] [--sitl PATH]
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from amc_rc_receiver.demo.mavlink_link import LinkEndpoint, LinkKind
from amc_rc_receiver.demo.system import DemoSystem
from amc_rc_receiver.sitl.config import SitlConfig, SitlLink
from amc_rc_receiver.sitl.null_modem import NullModem
from amc_rc_receiver.standalone.link_follower import LinkFollower
from amc_rc_receiver.standalone.link_watch import RestartWatch
from amc_rc_receiver.standalone.session import VehicleSession

TICK_S = 0.1  # the terminal view's tick
OFFLINE_S = 2.0
DEADLINE_S = 120.0


def free_port(kind: int) -> int:
    with socket.socket(socket.AF_INET, kind) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Check:
    """The terminal view's loop without its output: the model and the follower, every tick."""

    def __init__(self, session: VehicleSession, device: str, baudrate: int) -> None:
        self.session = session
        self.device = device
        self.baudrate = baudrate
        self.follower: LinkFollower | None = None

    def connect(self) -> float:
        started = time.monotonic()
        error = self.session.connect(self.device, baudrate=self.baudrate, timeout=DEADLINE_S)
        if error:
            raise SystemExit(error)
        watch = RestartWatch(self.session.flight_controller, self.device, list_ports=self.session.list_ports)
        self.follower = LinkFollower(
            self.session,
            watch,
            baudrate=self.baudrate,
            timeout=DEADLINE_S,
            current_state=lambda: self.session.model.state,
            announce=self.session.model.note_link_event,
        )
        self.session.model.activate()
        self.live_after(0)
        return time.monotonic() - started

    def live_after(self, generation: int) -> float:
        """Tick until live channels show on a connection newer than ``generation``; when."""
        end = time.monotonic() + DEADLINE_S
        while time.monotonic() < end:
            tick = time.monotonic()
            if self.follower is not None:
                self.follower.poll()
            state = self.session.model.poll()
            if state.rc_channels_live and state.connection_generation > generation:
                return time.monotonic()
            time.sleep(max(0.0, TICK_S - (time.monotonic() - tick)))
        raise SystemExit(f"no live reading on {self.device} within {DEADLINE_S} s")

    def tick_for(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if self.follower is not None:
                self.follower.poll()
            self.session.model.poll()
            time.sleep(TICK_S)

    def close(self) -> None:
        if self.follower is not None:
            self.follower.close()
        self.session.close()


def demo_rounds(kind: str, rounds: int) -> tuple[float, list[float]]:
    """The simulated vehicle over ``kind``: (first connection, each return-to-live)."""
    folder = Path(tempfile.mkdtemp(prefix="amc-rc-receiver-bench-"))
    modem: NullModem | None = None
    if kind == "serial":
        modem = NullModem(folder, baudrate=115200)
        modem.plug()
        endpoint = LinkEndpoint(LinkKind.SERIAL, path=str(modem.vehicle_path), baudrate=115200)
        device = str(modem.station_path)
    elif kind == "tcp":
        port = free_port(socket.SOCK_STREAM)
        endpoint = LinkEndpoint(LinkKind.TCP_SERVER, "127.0.0.1", port)
        device = f"tcp:127.0.0.1:{port}"
    else:
        port = free_port(socket.SOCK_DGRAM)
        endpoint = LinkEndpoint(LinkKind.UDP_OUT, "127.0.0.1", port)
        device = f"udpin:127.0.0.1:{port}"
    demo = DemoSystem(endpoint=endpoint)
    check = Check(VehicleSession(), device, 115200)
    returns: list[float] = []
    try:
        demo.start()
        first = check.connect()
        for _round in range(rounds):
            generation = check.session.model.state.connection_generation
            if modem is not None:
                modem.unplug()
            else:
                demo.stop()
            check.tick_for(OFFLINE_S)
            if modem is not None:
                modem.plug()
            else:
                demo = DemoSystem(endpoint=endpoint)
                demo.start()
            back = time.monotonic()
            returns.append(check.live_after(generation) - back)
    finally:
        check.close()
        demo.stop()
        if modem is not None:
            modem.close()
    return first, returns


def sitl_rounds(binary: Path, link: SitlLink, rounds: int, instance: int) -> tuple[float, list[float]]:
    """Real SITL over ``link``; the return is SITL's restart (the runner's new generation)."""
    session = VehicleSession()
    error = session.start_sitl(SitlConfig(binary, instance=instance, link=link))
    if error or session.sitl is None:
        raise SystemExit(error)
    runner = session.sitl
    check = Check(session, runner.device, 115200)
    returns: list[float] = []
    try:
        first = check.connect()
        for _round in range(rounds):
            generation = session.model.state.connection_generation
            started = runner.generation
            runner.restart_board()
            back = _wait(lambda started=started: runner.generation != started, check)
            returns.append(check.live_after(generation) - back)
    finally:
        check.close()
    return first, returns


def _wait(condition: Callable[[], bool], check: Check) -> float:
    end = time.monotonic() + DEADLINE_S
    while not condition():
        if time.monotonic() > end:
            raise SystemExit("SITL did not restart")
        check.tick_for(0.01)
    return time.monotonic()


def report(name: str, first: float, returns: list[float]) -> None:
    median = statistics.median(returns)
    print(
        f"  {name:<12} baseline first connection {first:6.2f} s | return -> first live reading "
        f"median {median:6.2f} s, worst {max(returns):6.2f} s over {len(returns)}"
        f" (ratio {median / first:5.2f}x)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sitl", type=Path, help="reboot real SITL (this binary) instead of the demo")
    parser.add_argument("--instance", type=int, default=60)
    args = parser.parse_args()
    away = "SITL restarted by its runner" if args.sitl is not None else f"vehicle away {OFFLINE_S} s"
    print(f"reboot followed, model and follower ticked every {TICK_S * 1000:.0f} ms, {away}")
    if args.sitl is None:
        for kind in ("serial", "tcp", "udp"):
            report(f"demo {kind}", *demo_rounds(kind, args.rounds))
    else:
        for offset, link in enumerate((SitlLink.SERIAL, SitlLink.TCP, SitlLink.UDP)):
            report(f"SITL {link.value}", *sitl_rounds(args.sitl, link, args.rounds, args.instance + offset))
    return 0


if __name__ == "__main__":
    sys.exit(main())
