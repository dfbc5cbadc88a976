# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The program under soak: amc-rc-receiver's own entry (``main``), with the soak's transmitter cycle.

Run by benchmarks/soak.py, not by hand::

    python benchmarks/_soak_child.py EVENTS CYCLE_S OFF_S FIRST_OFF_S -- PROGRAM ARGUMENTS...

Everything runs as the command line runs it (argument parsing, plugin registration, SIGTERM as
Ctrl-C, the window or the terminal view); two seams of the views are wrapped, because the command
line switches the transmitter only once and a soak needs it every minute:

- the terminal view gets a schedule that is off ``OFF_S`` seconds of every ``CYCLE_S``, from
  ``FIRST_OFF_S`` on (the view's own loop switches the transmitter, as ``--transmitter-off-after``
  does);
- the window's main loop gets a one-second timer that flips the window's own switch
  (``set_transmitter_on``, what the switch in the connection bar calls) on the same cycle, and
  every sample period writes the Tk widget count, the Tcl commands and the pending ``after``
  callbacks (tkinter's usual leaks: widgets never destroyed, callbacks registered per call), and
  the bridge panel's figures: the snapshot its last poll made (``session.monitor.snapshot``, what
  the panel drew) and its relays' own counters, read from the model and not from Tk's labels.

EVENTS receives one JSON object a line: ``{"t", "widgets", "commands", "afters", "bridge"}``
samples and ``{"t", "switch", "failsafe", "rc_live", "generation"}`` at each switch, the state
being what the period that ends showed.  ``bridge`` holds ``expanded`` and ``shown`` (the panel's
tree open, and mapped on screen), ``now`` (the monitor's clock at the panel's last poll, the time
of its counts), ``age`` (seconds since that poll), ``updates`` (the panel's writes to Tk so far)
and per link the datagrams each way (``to_sim``: the vehicle's servo packets, from the relay's
peer; ``to_vehicle``: the simulator's replies, from its target), how many the relay received and
did not forward, the rates the panel shows, and what was refused or lost.  With
``AMC_SOAK_OPEN_BRIDGE=1`` the first sample opens a collapsed panel as a person's click on its
toggle does.  The wrapping is benchmark code only: the program is unchanged.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import tracemalloc
from pathlib import Path
from typing import Any, TextIO

from amc_rc_receiver.__main__ import main
from amc_rc_receiver.standalone.terminal import app as text_app
from amc_rc_receiver.standalone.window import app as window_app

WIDGET_SAMPLE_MS = 5000
SWITCH_TICK_MS = 1000


class Cycle:
    """Off for ``off_s`` seconds of every ``cycle_s``, from ``first_off_s`` on; logs each switch."""

    def __init__(self, events: TextIO, cycle_s: float, off_s: float, first_off_s: float) -> None:
        self.events = events
        self.cycle_s = cycle_s
        self.off_s = off_s
        self.first_off_s = first_off_s
        self.started = time.monotonic()
        self.on = True

    def wanted_on(self, elapsed: float) -> bool:
        if elapsed < self.first_off_s:
            return True
        return (elapsed - self.first_off_s) % self.cycle_s >= self.off_s

    def write(self, record: dict[str, Any]) -> None:
        record["t"] = round(time.monotonic() - self.started, 2)
        self.events.write(json.dumps(record) + "\n")
        self.events.flush()

    def switched(self, on: bool, state: Any) -> None:
        self.on = on
        self.write(
            {
                "switch": on,
                "failsafe": state.failsafe.value,
                "rc_live": state.rc_channels_live,
                "generation": state.connection_generation,
            }
        )


class TerminalSchedule:
    """What the terminal loop asks of a ``TransmitterSchedule``, cycling; logs through ``cycle``."""

    def __init__(self, cycle: Cycle, session: Any) -> None:
        self._cycle = cycle
        self._session = session
        # Set, so the loop switches by this schedule and not by the guide (see terminal.app.run_text).
        self.off_after = cycle.first_off_s
        self.off_for = cycle.off_s
        # The transmitter is on from the start (no --transmitter-on-after).
        self.on_after: float | None = None

    def wanted_on(self, elapsed: float) -> bool:
        wanted = self._cycle.wanted_on(elapsed)
        if wanted != self._cycle.on:
            # The loop switches right after asking; the state is what the ending period showed.
            self._cycle.switched(wanted, self._session.model.state)
        return wanted


def count_widgets(root: Any) -> int:
    pending = ["."]
    count = 0
    while pending:
        path = pending.pop()
        count += 1
        pending.extend(root.tk.splitlist(root.tk.call("winfo", "children", path)))
    return count


def bridge_record(window: Any) -> dict[str, Any]:
    """The bridge panel's figures, from the model it draws from: its monitor's last snapshot and
    the relays' counters (a second poll here would take frames the panel has not shown yet)."""
    panel = window.bridge_panel
    monitor = window.session.monitor
    snapshot = monitor.snapshot
    counters = {relay.config.name: relay.counters() for relay in monitor.relays}
    links = []
    for link in snapshot.links:
        relay = counters.get(link.name)
        # Received and forwarded from one copy of the relay's counters (taken after the snapshot).
        unforwarded = (
            (None, None)
            if relay is None
            else (
                relay.received_from_peer - relay.forwarded_from_peer,
                relay.received_from_target - relay.forwarded_from_target,
            )
        )
        links.append(
            {
                "name": link.name,
                "protocol": link.protocol,
                "running": link.running,
                "to_sim": link.from_peer.packets,
                "to_vehicle": link.from_target.packets,
                "unforwarded_to_sim": unforwarded[0],
                "unforwarded_to_vehicle": unforwarded[1],
                "to_sim_shown_rate": round(link.from_peer.packets_per_s, 1),
                "to_vehicle_shown_rate": round(link.from_target.packets_per_s, 1),
                "decode_errors": link.from_peer.decode_error_total + link.from_target.decode_error_total,
                "relay_errors": dict(link.relay_errors),
                "dropped_captures": link.dropped_captures,
                "unexpected_senders": link.unexpected_senders,
                "held_back": link.loop.held_back,
            }
        )
    return {
        "expanded": panel.expanded,
        "shown": bool(panel.body.winfo_ismapped()),
        # The monitor's clock when it polled: the counts' own time, up to a panel tick before ours.
        "now": snapshot.now,
        "age": round(time.monotonic() - snapshot.now, 3),
        "updates": panel.widget_updates,
        "links": links,
    }


def wrap_views(cycle: Cycle) -> None:
    run_text_session = text_app.run_text_session

    def terminal(session: Any, **options: Any) -> int:
        options["schedule"] = TerminalSchedule(cycle, session)
        return run_text_session(session, **options)

    text_app.run_text_session = terminal

    windows: list[Any] = []
    window_class = window_app.StandaloneWindow

    class RecordedWindow(window_class):  # type: ignore[misc,valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            windows.append(self)

    window_app.StandaloneWindow = RecordedWindow  # type: ignore[misc]
    run_mainloop = window_app.run_mainloop
    # Opened once, as a person's click would; the person's choice then holds, as in the program.
    open_bridge = os.environ.get("AMC_SOAK_OPEN_BRIDGE") == "1"

    def mainloop(root: Any) -> None:
        def switch() -> None:
            window = windows[-1] if windows else None
            if window is not None and window.session.flight_controller.is_connected:
                wanted = cycle.wanted_on(time.monotonic() - cycle.started)
                model = window.host.active_model  # the plugin's model, not the terminal's
                if wanted != cycle.on and model is not None:
                    cycle.switched(wanted, model.state)
                    window.set_transmitter_on(wanted)
            root.after(SWITCH_TICK_MS, switch)

        def widgets() -> None:
            record: dict[str, Any] = {
                "widgets": count_widgets(root),
                "commands": len(root.tk.splitlist(root.tk.call("info", "commands"))),
                "afters": len(root.tk.splitlist(root.tk.call("after", "info"))),
            }
            window = windows[-1] if windows else None
            if window is not None and not window.closed:
                panel = window.bridge_panel
                if open_bridge and not panel.expanded and panel.user_choice is None:
                    window.toggle_bridge_panel()
                record["bridge"] = bridge_record(window)
            cycle.write(record)
            root.after(WIDGET_SAMPLE_MS, widgets)

        root.after(SWITCH_TICK_MS, switch)
        root.after(WIDGET_SAMPLE_MS, widgets)
        run_mainloop(root)

    window_app.run_mainloop = mainloop


class Growth:
    """With ``AMC_SOAK_TRACEMALLOC=SECONDS``: Python's allocations at SECONDS and at the end, and
    the lines whose allocations grew most in between, written beside the events (diagnosis only:
    tracing slows the program and costs memory of its own)."""

    def __init__(self, events_path: Path) -> None:
        self._out = events_path.with_suffix(".growth.txt")
        self._first: tracemalloc.Snapshot | None = None
        after_s = os.environ.get("AMC_SOAK_TRACEMALLOC")
        self.enabled = bool(after_s)
        if after_s:
            tracemalloc.start(12)
            timer = threading.Timer(float(after_s), self._take_first)
            timer.daemon = True
            timer.start()

    def _take_first(self) -> None:
        self._first = tracemalloc.take_snapshot()

    def write(self) -> None:
        if not self.enabled or self._first is None:
            return
        last = tracemalloc.take_snapshot()
        lines = [
            f"{stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks  "
            + " <- ".join(f"{frame.filename}:{frame.lineno}" for frame in reversed(stat.traceback[-5:]))
            for stat in _without_tracing(last).compare_to(_without_tracing(self._first), "traceback")[:25]
        ]
        self._out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _without_tracing(snapshot: tracemalloc.Snapshot) -> tracemalloc.Snapshot:
    # The first snapshot is itself memory allocated after it was taken; it is not the program's.
    return snapshot.filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])


def run(argv: list[str]) -> int:
    split = argv.index("--")
    events_path, cycle_s, off_s, first_off_s = argv[:split]
    growth = Growth(Path(events_path))
    with Path(events_path).open("a", encoding="utf-8") as events:
        wrap_views(Cycle(events, float(cycle_s), float(off_s), float(first_off_s)))
        try:
            return main(argv[split + 1 :])
        finally:
            growth.write()


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
