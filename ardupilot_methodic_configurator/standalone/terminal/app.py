# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The terminal program loop: tick the model and the bridge monitor, print, run the demo script.

The loop owns timing only; what is shown comes from `terminal.screen`, what it means from the
model.  A scripted transmitter schedule lets `--transmitter-off-after` run an unattended
failsafe test on the demo vehicle or a SITL the check runs itself.  With SITL, its console output
is printed as it comes (prefixed, so it never reads as the check's own findings), and a lost TCP
link is re-established by a `LinkFollower`, which says so.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from typing import TextIO

from ... import _
from ...sim_bridge.spec import BridgeSpec
from ...sitl.console import ConsoleLog
from ..link_follower import LinkFollower
from ..link_watch import watch_session
from ..options import EXIT_ERROR, EXIT_USAGE, TransmitterSchedule
from ..session import VehicleSession
from .prompter import GuidePrompter
from .screen import TextFrontEnd

TICK_S = 0.1
# The transmitter stays on unless the command line schedules it off.
NO_SCHEDULE = TransmitterSchedule()
SITL_PREFIX = "SITL| "
SITL_NOTE_PREFIX = "SITL* "
# The live screen keeps the newest console lines below the readings.
LIVE_CONSOLE_LINES = 6


class ConsoleEcho:
    """Prints a simulator console: every new line in a log, the newest few under a live screen."""

    def __init__(self, console: ConsoleLog, out: TextIO, *, live: bool) -> None:
        self._console = console
        self._out = out
        self._live = live
        self._cursor = 0

    def echo(self, elapsed: float) -> None:
        if self._live:
            self._out.write("\n" + _("SITL console:") + "\n")
            for line in self._console.tail(LIVE_CONSOLE_LINES):
                self._out.write(_prefixed(line.text, line.from_sitl) + "\n")
            self._out.flush()
            return
        lines, self._cursor = self._console.since(self._cursor)
        for line in lines:
            self._out.write(f"[{elapsed:6.1f} s] {_prefixed(line.text, line.from_sitl)}\n")
        if lines:
            self._out.flush()


def _prefixed(text: str, from_sitl: bool) -> str:
    return (SITL_PREFIX if from_sitl else SITL_NOTE_PREFIX) + text


def run_text(
    session: VehicleSession,
    *,
    out: TextIO,
    live: bool,
    duration: float | None,
    schedule: TransmitterSchedule = NO_SCHEDULE,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    follower: LinkFollower | None = None,
    report: str | None = None,
    keys: Callable[[], str] | None = None,
) -> int:
    """Run until ``duration`` elapses (forever when ``None``); returns the process exit code.

    The guided test rides along (`GuidePrompter`): it may end the run early, and its verdict
    decides the exit status.
    """
    front_end = TextFrontEnd(out, live=live, clock=clock, links_followed=follower is not None)
    echo = ConsoleEcho(session.sitl.console, out, live=live) if session.sitl is not None else None
    start = clock()
    # A transmitter that starts off (``schedule.on_after``) is switched on as by a person who does
    # not tell the check: only the flight controller's failsafe and recovery say it.
    starting_off = schedule.on_after is not None
    transmitter_on = not starting_off
    session.model.activate()
    # Where the program owns the transmitter and no schedule is given, the guide switches it.
    switches = session.transmitter_available and schedule.off_after is None
    # Nobody but the program can move the simulated transmitter's sticks, schedule or not.
    prompter = GuidePrompter(
        session,
        out,
        live=live,
        program_switches=switches,
        program_sticks=session.transmitter_available,
        keys=keys,
        report=report,
    )
    interrupted = False
    state = session.model.state
    try:
        while True:
            now = clock()
            elapsed = now - start
            if duration is not None and elapsed >= duration:
                break
            for message in follower.poll() if follower is not None else ():
                out.write(f"[{elapsed:6.1f} s] * {message}\n")
            if session.transmitter_available:
                wanted = schedule.wanted_on(elapsed)
                if wanted != transmitter_on:
                    transmitter_on = wanted
                    session.set_transmitter_on(wanted)
                    if starting_off:
                        starting_off = False
                    else:
                        session.model.note_transmitter_switched(wanted)
                    message = _("Transmitter switched on") if wanted else _("Transmitter switched off")
                    out.write(f"[{elapsed:6.1f} s] * {message}\n")
            state = session.model.poll()
            bridge = session.monitor.poll() if session.relays else None
            front_end.render(state, bridge)
            if echo is not None:
                echo.echo(elapsed)
            if prompter.tick(state):
                break
            sleep(max(0.0, TICK_S - (clock() - now)))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if follower is not None:
            follower.close()
        prompter.close()
        session.model.deactivate()
        # One last poll lets the restore-interval ACKs be read before the link closes.
        session.model.poll()
    status = prompter.finish(state)
    if interrupted:
        # Ctrl-C (or SIGTERM, which the command line turns into it) after the summary.
        raise KeyboardInterrupt
    return status


def run_text_session(
    session: VehicleSession,
    *,
    device: str | None,
    baudrate: int,
    bridges: Sequence[BridgeSpec],
    duration: float | None,
    schedule: TransmitterSchedule,
    out: TextIO | None = None,
    err: TextIO | None = None,
    timeout: float = 5.0,
    report: str | None = None,
) -> int:
    """Start the bridges, connect to ``device`` and run the terminal view; returns the exit code.

    Used by the command line and by the window when no display can be opened.  The caller owns
    ``session`` and closes it (and has started its SITL, if any, whose device ``device`` is).
    ``timeout`` bounds the wait for the vehicle's first heartbeat.
    """
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    if not device:
        err.write(_("Say which vehicle to check: --device DEVICE, or --demo for the simulated one.") + "\n")
        return EXIT_USAGE
    for spec in bridges:
        error = session.add_bridge(spec)
        if error:
            err.write(error + "\n")
            return EXIT_ERROR
    for notice in session.take_notices():
        err.write(notice + "\n")
    out.write(_("Connecting to {device} ...").format(device=device) + "\n")
    out.flush()
    error = session.connect(device, baudrate=baudrate, timeout=timeout)
    if error:
        if session.sitl is not None:
            # Whatever SITL said while it failed to answer is the best clue.
            for line in session.sitl.console.tail(20):
                err.write(_prefixed(line.text, line.from_sitl) + "\n")
        err.write(error + "\n")
        return EXIT_ERROR
    info = session.flight_controller.info
    out.write(
        _("Connected to an ArduPilot vehicle (system {system}, component {component}).").format(
            system=info.system_id, component=info.component_id
        )
        + "\n"
    )
    out.flush()
    watch = watch_session(session, device)
    follower = (
        LinkFollower(
            session,
            watch,
            baudrate=baudrate,
            timeout=timeout,
            current_state=lambda: session.model.state,
            announce=session.model.note_link_event,
        )
        if watch.enabled
        else None
    )
    return run_text(
        session,
        out=out,
        live=out.isatty() and duration is None,
        duration=duration,
        schedule=schedule,
        follower=follower,
        report=report,
    )
