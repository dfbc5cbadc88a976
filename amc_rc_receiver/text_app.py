# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The terminal program loop: tick the model and the bridge monitor, print, run the demo script.

The loop owns timing only; what is shown comes from `text_frontend`, what it means from the
model.  A scripted transmitter schedule lets `--transmitter-off-after` run an unattended
failsafe test on the demo vehicle.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

from amc_rc_receiver import _
from amc_rc_receiver.bridge_spec import BridgeSpec
from amc_rc_receiver.check_session import CheckSession
from amc_rc_receiver.text_frontend import TextFrontEnd

TICK_S = 0.1


@dataclass(frozen=True)
class TransmitterSchedule:
    """Switch the demo transmitter off at ``off_after`` s and back on ``off_for`` s later."""

    off_after: float | None = None
    off_for: float | None = 1.5

    def wanted_on(self, elapsed: float) -> bool:
        if self.off_after is None or elapsed < self.off_after:
            return True
        return self.off_for is not None and elapsed >= self.off_after + self.off_for


def run_text(
    session: CheckSession,
    *,
    out: TextIO,
    live: bool,
    duration: float | None,
    schedule: TransmitterSchedule = TransmitterSchedule(),
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """Run until ``duration`` elapses (forever when ``None``); returns the process exit code."""
    front_end = TextFrontEnd(out, live=live, clock=clock)
    start = clock()
    transmitter_on = True
    session.model.activate()
    try:
        while True:
            now = clock()
            elapsed = now - start
            if duration is not None and elapsed >= duration:
                break
            if session.demo is not None:
                wanted = schedule.wanted_on(elapsed)
                if wanted != transmitter_on:
                    transmitter_on = wanted
                    session.set_transmitter_on(wanted)
                    message = _("Transmitter switched on") if wanted else _("Transmitter switched off")
                    out.write(f"[{elapsed:6.1f} s] * {message}\n")
            state = session.model.poll()
            bridge = session.monitor.poll() if session.relays else None
            front_end.render(state, bridge)
            sleep(max(0.0, TICK_S - (clock() - now)))
    except KeyboardInterrupt:
        out.write("\n" + _("Stopped.") + "\n")
    finally:
        session.model.deactivate()
        # One last poll lets the restore-interval ACKs be read before the link closes.
        session.model.poll()
    return 0


def run_text_session(
    session: CheckSession,
    *,
    device: str | None,
    baudrate: int,
    bridges: Sequence[BridgeSpec],
    duration: float | None,
    schedule: TransmitterSchedule,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Start the bridges, connect to ``device`` and run the terminal view; returns the exit code.

    Used by the command line and by the window when no display can be opened.  The caller owns
    ``session`` and closes it.
    """
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    if not device:
        err.write(_("Say which vehicle to check: --device DEVICE, or --demo for the simulated one.") + "\n")
        return 2
    for spec in bridges:
        error = session.add_bridge(spec)
        if error:
            err.write(error + "\n")
            return 1
    out.write(_("Connecting to {device} ...").format(device=device) + "\n")
    out.flush()
    error = session.connect(device, baudrate=baudrate)
    if error:
        err.write(error + "\n")
        return 1
    info = session.flight_controller.info
    out.write(
        _("Connected to an ArduPilot vehicle (system {system}, component {component}).").format(
            system=info.system_id, component=info.component_id
        )
        + "\n"
    )
    out.flush()
    return run_text(
        session,
        out=out,
        live=out.isatty() and duration is None,
        duration=duration,
        schedule=schedule,
    )
