# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Does the check hold its memory, descriptors, threads and widgets over an hour on real SITL?

The window and the terminal view run side by side, each as the program it is (``amc-rc-receiver
--sitl arducopter``, through ``benchmarks/_soak_child.py``, which only adds the transmitter cycle and
the window's widget count), each on its own ArduCopter SITL instance over TCP.  The transmitter is
switched off for 20 s of every minute (``--cycle``, ``--off-for``), so RC failsafe comes and clears
sixty times an hour.  Every ``--sample`` seconds the benchmark reads each program's /proc/PID:
resident memory, open descriptors, threads; the window writes its Tk widget count, Tcl commands
and pending ``after`` callbacks.  The terminal view runs on a pseudo-terminal, so it draws its live
screen as it does for a person (ten times a second), and the benchmark drains it.

Printed per view: RSS at 5 minutes and at the end, growth per hour after the first 5 minutes
(least squares over the samples; goal at most 1 MB/h), min/max of descriptors, threads and
widgets after the warm-up, and how many transmitter cycles were followed (failsafe active at
the end of each off period, live channels and no failsafe at the end of each on period).  A run
shorter than 15 minutes (``--minutes 3``) takes a third of its length as the warm-up instead of
5 minutes, and its growth figure is a rough one.

Run: .venv/bin/python benchmarks/soak.py [--minutes 60] [--views window,terminal]
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import pty
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _proc_sample import Sample, free_instance, growth_mb_per_hour, sample

ROOT = Path(__file__).resolve().parents[1]
SITL_DIR = ROOT.parent / "shared" / "sitl"
CHILD = Path(__file__).resolve().parent / "_soak_child.py"
WARM_UP_S = 300.0
STOP_WAIT_S = 30.0
SCREEN = (50, 120)  # rows, columns of the terminal view's pseudo-terminal
TAIL_BYTES = 65536


@dataclass
class View:
    """One program under soak and what was read of it."""

    name: str
    instance: int
    folder: Path
    process: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    samples: list[Sample] = field(default_factory=list)
    drained: int = 0
    tail: bytes = b""

    @property
    def events_path(self) -> Path:
        return self.folder / f"{self.name}-events.jsonl"

    @property
    def log_path(self) -> Path:
        return self.folder / f"{self.name}.log"

    def events(self) -> list[dict[str, Any]]:
        if not self.events_path.exists():
            return []
        lines = self.events_path.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]


def start_xvfb() -> tuple[subprocess.Popen[bytes], str]:
    """A virtual display of a small laptop's size; Xvfb picks a free display number itself."""
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x720x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        number = pipe.readline().strip().decode()
    if not number:
        raise SystemExit("Xvfb did not start")
    return xvfb, f":{number}"


def drain(master: int, view: View) -> None:
    """Read the terminal view's screen as a terminal would, keeping its tail for a failed run."""
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break  # EIO once the program has closed its side
        if not data:
            break
        view.drained += len(data)
        view.tail = (view.tail + data)[-TAIL_BYTES:]
    os.close(master)


def start(view: View, args: argparse.Namespace, display: str | None, warm_up: float) -> None:
    program = [
        "--sitl",
        str(args.sitl),
        "--sitl-defaults",
        str(args.sitl_defaults),
        "--instance",
        str(view.instance),
    ]
    if view.name == "terminal":
        program.append("--text")
    command = [
        sys.executable,
        str(CHILD),
        str(view.events_path),
        str(args.cycle),
        str(args.off_for),
        str(args.first_off),
        "--",
        *program,
    ]
    env = dict(os.environ, LANGUAGE="en", PYTHONUNBUFFERED="1")
    if args.tracemalloc:
        env["AMC_SOAK_TRACEMALLOC"] = str(warm_up)
    log = view.log_path.open("wb")
    stdout: int | IO[bytes] = log
    master = -1
    if view.name == "window":
        assert display is not None
        env["DISPLAY"] = display
    else:
        env.pop("DISPLAY", None)
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", SCREEN[0], SCREEN[1], 0, 0))
        stdout = slave
    view.process = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=stdout,
        stderr=log,
        start_new_session=True,
    )
    view.started = time.monotonic()
    log.close()
    if master >= 0:
        os.close(slave)
        threading.Thread(target=drain, args=(master, view), daemon=True).start()


def stop(view: View) -> int | None:
    """SIGTERM, as a person's Ctrl-C; the program ends with "Stopped." and status 130."""
    process = view.process
    if process is None:
        return None
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            return process.wait(STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            return None
    return process.returncode


def cycles(events: list[dict[str, Any]]) -> tuple[int, int, int, int]:
    """(offs judged, offs that showed failsafe, ons judged, ons live without failsafe)."""
    offs = offs_ok = ons = ons_ok = 0
    for event in events:
        if "switch" not in event:
            continue
        if event["switch"]:  # the end of an off period
            offs += 1
            offs_ok += event["failsafe"] == "active"
        else:  # the end of an on period
            ons += 1
            ons_ok += event["failsafe"] != "active" and bool(event["rc_live"])
    return offs, offs_ok, ons, ons_ok


def span(values: list[int]) -> str:
    return f"{min(values)}-{max(values)}" if values else "n/a"


def report(view: View, minutes: float, sample_s: float, status: int | None) -> None:
    samples = view.samples
    warm_up = min(WARM_UP_S, minutes * 60 / 3)
    print(
        f"{view.name} (SITL instance {view.instance}): {len(samples)} samples every {sample_s:g} s, "
        f"exit {status}"
    )
    if not samples:
        print(f"  no samples: see {view.log_path}")
        return
    late = [item for item in samples if item.at >= warm_up] or samples[-1:]
    at_warm_up = late[0]
    end = samples[-1]
    growth = growth_mb_per_hour(samples, warm_up)
    total = (end.rss_kb - at_warm_up.rss_kb) / 1024
    hours = (end.at - at_warm_up.at) / 3600
    print(
        f"  RSS at {at_warm_up.at / 60:4.1f} min {at_warm_up.rss_kb / 1024:7.1f} MB, at the end "
        f"({end.at / 60:4.1f} min) {end.rss_kb / 1024:7.1f} MB; "
        f"first sample {samples[0].rss_kb / 1024:.1f} MB"
    )
    endpoints = total / hours if hours > 0 else float("nan")
    print(
        f"  growth after {warm_up / 60:.1f} min: {growth:+.2f} MB/h (least squares; end minus start "
        f"{total:+.2f} MB = {endpoints:+.2f} MB/h), goal <= 1 MB/h: {'met' if growth <= 1.0 else 'NOT met'}"
    )
    print(
        f"  after the warm-up: descriptors {span([s.descriptors for s in late])}, threads "
        f"{span([s.threads for s in late])}, pseudo-terminals {span([s.pseudo_terminals for s in late])} "
        f"(whole run: descriptors {span([s.descriptors for s in samples])}, threads "
        f"{span([s.threads for s in samples])})"
    )
    events = view.events()
    widgets = [event for event in events if "widgets" in event]
    if widgets:
        late_widgets = [event for event in widgets if event["t"] >= warm_up] or widgets[-1:]
        print(
            f"  Tk after the warm-up: widgets {span([e['widgets'] for e in late_widgets])}, Tcl commands "
            f"{span([e['commands'] for e in late_widgets])}, pending after callbacks "
            f"{span([e['afters'] for e in late_widgets])} "
            f"(whole run: widgets {span([e['widgets'] for e in widgets])})"
        )
    offs, offs_ok, ons, ons_ok = cycles(events)
    print(
        f"  transmitter cycles: failsafe at the end of {offs_ok} of {offs} off periods, live and clear at "
        f"the end of {ons_ok} of {ons} on periods"
    )
    if view.name == "terminal":
        print(f"  terminal screen drained: {view.drained / 1e6:.1f} MB")
    growth_file = view.events_path.with_suffix(".growth.txt")
    if growth_file.exists():
        print("  Python allocations grown most after the warm-up (tracemalloc):")
        for line in growth_file.read_text(encoding="utf-8").splitlines()[:12]:
            print(f"    {line}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--views", default="window,terminal", help="window, terminal or both (in parallel)")
    parser.add_argument("--sample", type=float, default=5.0, help="seconds between samples")
    parser.add_argument("--cycle", type=float, default=60.0, help="seconds of one transmitter off/on cycle")
    parser.add_argument("--off-for", type=float, default=20.0, help="seconds off in each cycle")
    parser.add_argument(
        "--first-off",
        type=float,
        default=90.0,
        help="the first switch off, s after start (after the guided test)",
    )
    parser.add_argument("--sitl", type=Path, default=SITL_DIR / "arducopter")
    parser.add_argument("--sitl-defaults", type=Path, default=SITL_DIR / "copter.parm")
    parser.add_argument("--instance", type=int, default=70, help="first SITL instance to try")
    parser.add_argument("--keep", type=Path, help="folder for the logs (default: a new one in /tmp)")
    parser.add_argument(
        "--tracemalloc",
        action="store_true",
        help="diagnosis: print the program lines whose Python allocations grew most after the warm-up",
    )
    args = parser.parse_args()
    if not args.sitl.is_file():
        raise SystemExit(f"no SITL binary at {args.sitl} (see ../shared/sitl/README.md)")
    folder = args.keep or Path(f"/tmp/amc-soak-{time.strftime('%Y%m%d-%H%M%S')}")
    folder.mkdir(parents=True, exist_ok=True)
    names = [name.strip() for name in args.views.split(",") if name.strip()]
    views: list[View] = []
    for name in names:
        if name not in ("window", "terminal"):
            raise SystemExit(f"unknown view {name!r}")
        instance = free_instance(args.instance, {view.instance for view in views})
        views.append(View(name, instance, folder))
    print(
        f"soak: {', '.join(names)} for {args.minutes:g} min on {args.sitl.name} over TCP, transmitter off "
        f"{args.off_for:g} s of every {args.cycle:g} s from {args.first_off:g} s; logs in {folder}",
        flush=True,
    )
    xvfb: subprocess.Popen[bytes] | None = None
    statuses: dict[str, int | None] = {}
    try:
        display = None
        if "window" in names:
            xvfb, display = start_xvfb()
        for view in views:
            start(view, args, display, min(WARM_UP_S, args.minutes * 60 / 3))
        end = time.monotonic() + args.minutes * 60
        next_report = time.monotonic() + 60
        while time.monotonic() < end:
            for view in views:
                assert view.process is not None
                if view.process.poll() is None:
                    found = sample(view.process.pid, time.monotonic() - view.started)
                    if found is not None:
                        view.samples.append(found)
            if all(view.process is not None and view.process.poll() is not None for view in views):
                print("every program ended early", flush=True)
                break
            if time.monotonic() >= next_report:
                next_report += 60
                progress = ", ".join(
                    f"{view.name} {view.samples[-1].rss_kb / 1024:.1f} MB" for view in views if view.samples
                )
                print(f"  {(time.monotonic() - views[0].started) / 60:4.1f} min: {progress}", flush=True)
            time.sleep(args.sample)
    finally:
        for view in views:
            statuses[view.name] = stop(view)
        if xvfb is not None:
            xvfb.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                xvfb.wait(5)
    print()
    for view in views:
        report(view, args.minutes, args.sample, statuses[view.name])
        if statuses[view.name] != 130:
            print(f"  (expected exit 130 after SIGTERM; the log: {view.log_path})")
            tail = view.tail.decode(errors="replace")[-2000:] if view.tail else ""
            if tail:
                print(tail)
    return 0


if __name__ == "__main__":
    sys.exit(main())
