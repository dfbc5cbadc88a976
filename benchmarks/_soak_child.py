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
  callbacks (tkinter's usual leaks: widgets never destroyed, callbacks registered per call).

EVENTS receives one JSON object a line: ``{"t", "widgets", "commands", "afters"}`` samples and
``{"t", "switch", "failsafe", "rc_live", "generation"}`` at each switch, the state being what the
period that ends showed.  The wrapping is benchmark code only: the program is unchanged.
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
            cycle.write(
                {
                    "widgets": count_widgets(root),
                    "commands": len(root.tk.splitlist(root.tk.call("info", "commands"))),
                    "afters": len(root.tk.splitlist(root.tk.call("after", "info"))),
                }
            )
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
