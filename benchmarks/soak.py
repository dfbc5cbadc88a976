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

The window also records its bridge panel's figures, from the model the panel draws from (its
monitor's last snapshot, the relays' counters): on SITL the panel's link is the relay on SITL's
JSON servo port.  The runner sets ``SIM_RATE_HZ 400`` there, so that link carries 400 servo
packets a second each way, not the 1,200 of SITL's default rate.  The ``bridge`` view soaks the
window at that default rate: the window on the embedded demo (``--demo``) with a ``--bridge
ardupilot-json`` relay between the two ends of SITL's JSON link played by
``benchmarks/_bridge_feeder.py`` in a process of its own, on 127.0.0.1 only: ArduCopter SITL's
servo packets paced at ``--bridge-rate`` (1,200) a second, answered with the ``--sitl`` back end's
JSON states.  The panel opens by itself there, as it does for any ``--bridge``; on SITL it stays
one line unless ``--open-bridge-panel`` opens it.

Printed per view: RSS at 5 minutes and at the end, growth per hour after the first 5 minutes
(least squares over the samples; goal at most 1 MB/h), min/max of descriptors, threads and
widgets after the warm-up, and how many transmitter cycles were followed (failsafe active at
the end of each off period, live channels and no failsafe at the end of each on period).  For a
window, per bridge link: the datagrams each way, the average rate after the warm-up and the
lowest rate between two samples after it (a stall shows there), how many were not forwarded,
the relay's errors, and whether the panel was open.  In the ``bridge`` view the feeder's own
counts, set beside the relay's once the feeder has stopped, and the datagrams the kernel dropped
at each socket of the link because a reader fell behind.  A run shorter than 15 minutes
(``--minutes 3``) takes a third of its length as the warm-up instead of 5 minutes, and its
growth figure is a rough one.

Run: .venv/bin/python benchmarks/soak.py [--minutes 60] [--views window,terminal]
     .venv/bin/python benchmarks/soak.py --minutes 10 --views bridge [--bridge-rate 1200]
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import itertools
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
FEEDER = Path(__file__).resolve().parent / "_bridge_feeder.py"
VIEWS = ("window", "terminal", "bridge")
# The rate of SITL's JSON link at its default SIM_RATE_HZ, which issue 29 asks the panel to carry.
SITL_DEFAULT_JSON_RATE = 1200.0
# A measured rate further than this from the one expected is said plainly.
RATE_TOLERANCE = 0.1
WARM_UP_S = 300.0
STOP_WAIT_S = 30.0
# After the feeder has stopped: longer than the window's sample period (5 s in _soak_child.py),
# so its last sample holds the relay's final counts, to set beside what the feeder sent.
FINAL_SAMPLE_WAIT_S = 6.0
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
    # The bridge view's two ends of SITL's JSON link (benchmarks/_bridge_feeder.py).
    feeder: subprocess.Popen[bytes] | None = None
    # When it was told to stop (time.monotonic, the monitor's clock too): rates are of before.
    feeder_stopped: float = float("inf")

    @property
    def on_sitl(self) -> bool:
        return self.name != "bridge"

    @property
    def has_window(self) -> bool:
        return self.name != "terminal"

    @property
    def feeder_path(self) -> Path:
        return self.folder / f"{self.name}-feeder.json"

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


def start_feeder(view: View, rate: float) -> tuple[int, int]:
    """Start the bridge view's feeder; the relay's listen port and its target (the physics end)."""
    log_path = view.folder / f"{view.name}-feeder.log"
    with log_path.open("wb") as log:
        view.feeder = subprocess.Popen(
            [sys.executable, str(FEEDER), str(rate), str(view.feeder_path)],
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=log,
            start_new_session=True,
        )
    assert view.feeder.stdout is not None
    ports = view.feeder.stdout.readline().split()
    view.feeder.stdout.close()
    if len(ports) != 2:
        raise SystemExit(f"the bridge feeder did not start: see {log_path}")
    return int(ports[0]), int(ports[1])


def start(view: View, args: argparse.Namespace, display: str | None, warm_up: float) -> None:
    if view.on_sitl:
        program = [
            "--sitl",
            str(args.sitl),
            "--sitl-defaults",
            str(args.sitl_defaults),
            "--instance",
            str(view.instance),
        ]
    else:
        relay_port, physics_port = start_feeder(view, args.bridge_rate)
        program = ["--demo", "--bridge", f"ardupilot-json,127.0.0.1:{relay_port},127.0.0.1:{physics_port}"]
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
    if args.open_bridge_panel:
        env["AMC_SOAK_OPEN_BRIDGE"] = "1"
    log = view.log_path.open("wb")
    stdout: int | IO[bytes] = log
    master = -1
    if view.has_window:
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


def stop_feeder(view: View) -> None:
    """SIGTERM: the feeder writes its counts and ends (first, so the window's last figures count
    everything it sent)."""
    feeder = view.feeder
    if feeder is None or feeder.poll() is not None:
        return
    view.feeder_stopped = time.monotonic()
    feeder.send_signal(signal.SIGTERM)
    try:
        feeder.wait(STOP_WAIT_S)
    except subprocess.TimeoutExpired:
        os.killpg(feeder.pid, signal.SIGKILL)
        feeder.wait()


def stop(view: View) -> int | None:
    """SIGTERM, as a person's Ctrl-C; the program ends with "Stopped." and status 130."""
    if view.feeder is not None:
        stop_feeder(view)
        time.sleep(FINAL_SAMPLE_WAIT_S)
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


# The two directions of a relay as the soak child records them: the vehicle's servo packets reach
# the relay from its peer, the simulator's JSON states from its target.
DIRECTIONS = (("to_sim", "vehicle->simulator"), ("to_vehicle", "simulator->vehicle"))


def link_series(records: list[dict[str, Any]], name: str) -> list[tuple[float, dict[str, Any]]]:
    # Timed by the monitor's poll, which made the counts, not by the sample, up to a tick later.
    return [
        (record["bridge"]["now"], link)
        for record in records
        for link in record["bridge"]["links"]
        if link["name"] == name
    ]


def rates(series: list[tuple[float, dict[str, Any]]], key: str) -> tuple[float, float]:
    """Datagrams a second over the series, and the lowest between two samples in a row."""
    steps = [
        (later[key] - earlier[key]) / (t_later - t_earlier)
        for (t_earlier, earlier), (t_later, later) in itertools.pairwise(series)
        if t_later > t_earlier
    ]
    if not steps:
        return float("nan"), float("nan")
    (t_first, first), (t_last, last) = series[0], series[-1]
    return (last[key] - first[key]) / (t_last - t_first), min(steps)


def report_bridge(view: View, events: list[dict[str, Any]], warm_up: float, expected: float) -> None:
    """The bridge panel's figures: whether it was open, and per link the traffic it carried."""
    records = [event for event in events if "bridge" in event]
    if not records:
        print("  bridge panel: no figures recorded")
        return
    late = [record for record in records if record["t"] >= warm_up] or records[-1:]
    # The bridge view's last sample, after the feeder stopped, gives the totals but no rate.
    sending = [record for record in late if record["bridge"]["now"] < view.feeder_stopped] or late
    panels = [record["bridge"] for record in sending]
    ages = [panel["age"] for panel in panels]
    seconds = sending[-1]["t"] - sending[0]["t"]
    writes = (panels[-1]["updates"] - panels[0]["updates"]) / seconds if seconds > 0 else float("nan")
    print(
        f"  bridge panel after the warm-up: open in {sum(panel['expanded'] for panel in panels)} of "
        f"{len(panels)} samples (its tree on screen in {sum(panel['shown'] for panel in panels)}), its last "
        f"poll {min(ages):.2f}-{max(ages):.2f} s old, {writes:.1f} writes to Tk a second"
    )
    links = records[-1]["bridge"]["links"]
    busiest = max(links, key=lambda link: link["to_sim"] + link["to_vehicle"])["name"] if links else None
    for link in links:
        name = link["name"]
        series = link_series(sending, name)
        print(f'  bridge link "{name}" ({link["protocol"]}{"" if link["running"] else ", stopped"}):')
        averages = {}
        for key, label in DIRECTIONS:
            average, lowest = rates(series, key)
            averages[key] = average
            unforwarded = link[f"unforwarded_{key}"]
            shown = [item[f"{key}_shown_rate"] for _t, item in series]
            print(
                f"    {label}: {link[key]:,} datagrams, {average:,.1f}/s after the warm-up, lowest "
                f"{lowest:,.1f}/s between two samples (the panel showed {min(shown):,.1f}-"
                f"{max(shown):,.1f}/s); not forwarded {'n/a' if unforwarded is None else unforwarded}"
            )
        errors = ", ".join(f"{reason} {count}" for reason, count in link["relay_errors"].items()) or "none"
        print(
            f"    relay errors {errors}; decode errors {link['decode_errors']}, capture records dropped "
            f"{link['dropped_captures']}, unexpected senders {link['unexpected_senders']}, held back as a "
            f"loop {link['held_back']}"
        )
        if name == busiest:
            source = "SITL's JSON rate" if view.on_sitl else "the feeder's rate"
            measured = averages["to_sim"]
            verdict = (
                f"as asked ({expected:,.0f}/s)"
                if abs(measured - expected) <= RATE_TOLERANCE * expected
                else f"FAR from {expected:,.0f}/s"
            )
            why = (
                " (the --sitl runner sets SIM_RATE_HZ: sitl/runner.py)"
                if view.on_sitl and "FAR" in verdict
                else ""
            )
            print(f"    {source} here: {measured:,.0f}/s, {verdict}{why}")


def report_feeder(view: View, events: list[dict[str, Any]]) -> None:
    """What the feeder sent and got back, beside what the relay counted once it had stopped."""
    if not view.feeder_path.exists():
        print(f"  feeder: no counts (see {view.folder}/{view.name}-feeder.log)")
        return
    counts = json.loads(view.feeder_path.read_text(encoding="utf-8"))
    sending_s = counts["sending_s"]
    rate = counts["sent"] / sending_s if sending_s > 0 else float("nan")
    print(
        f"  feeder (both ends of SITL's JSON link): sent {counts['sent']:,} servo packets in "
        f"{sending_s:.0f} s ({rate:,.1f}/s, asked {counts['rate']:,.0f}/s; its schedule restarted "
        f"{counts['restarts']} times after it was kept from running over {counts['max_behind_s']:g} s), "
        f"send errors {counts['send_errors']}"
    )
    records = [event for event in events if "bridge" in event and event["bridge"]["links"]]
    links = records[-1]["bridge"]["links"] if records else []
    relay = max(links, key=lambda link: link["to_sim"] + link["to_vehicle"]) if links else None
    received = "n/a" if relay is None else f"{relay['to_sim']:,}"
    returned = "n/a" if relay is None else f"{relay['to_vehicle']:,}"
    print(
        f"    the relay received {received} of them (its last count), the physics end got "
        f"{counts['physics_received']:,} and answered {counts['physics_replied']:,}, the relay received "
        f"{returned} replies and {counts['replies_back']:,} came back to the vehicle's end"
    )
    drops = ", ".join(f"{name} {count}" for name, count in counts.get("drops", {}).items())
    print(f"    dropped by the kernel at a full receive buffer (/proc/net/udp): {drops or 'n/a'}")


def describe(view: View, args: argparse.Namespace) -> str:
    if view.on_sitl:
        return f"{view.name} (SITL instance {view.instance})"
    return f"{view.name} (the window on the demo, a bridge fed at {args.bridge_rate:,.0f}/s)"


def report(view: View, args: argparse.Namespace, status: int | None) -> None:
    samples = view.samples
    minutes, sample_s = args.minutes, args.sample
    warm_up = min(WARM_UP_S, minutes * 60 / 3)
    print(f"{describe(view, args)}: {len(samples)} samples every {sample_s:g} s, exit {status}")
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
    if view.has_window:
        expected = SITL_DEFAULT_JSON_RATE if view.on_sitl else args.bridge_rate
        report_bridge(view, events, warm_up, expected)
    if view.feeder is not None:
        report_feeder(view, events)
    if view.name == "terminal":
        print(f"  terminal screen drained: {view.drained / 1e6:.1f} MB")
    growth_file = view.events_path.with_suffix(".growth.txt")
    if growth_file.exists():
        print("  Python allocations grown most after the warm-up (tracemalloc):")
        for line in growth_file.read_text(encoding="utf-8").splitlines()[:12]:
            print(f"    {line}")


def bridge_progress(view: View) -> str:
    """The busiest link's rates as the panel last showed them, for the minute's progress line."""
    records = [event for event in view.events() if "bridge" in event]
    links = records[-1]["bridge"]["links"] if records else []
    if not links:
        return ""
    link = max(links, key=lambda item: item["to_sim"] + item["to_vehicle"])
    return f" (bridge {link['to_sim_shown_rate']:,.0f}/s and {link['to_vehicle_shown_rate']:,.0f}/s)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument(
        "--views",
        default="window,terminal",
        help="window, terminal (both on SITL), bridge (the window on the demo, a fed bridge); in parallel",
    )
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
    parser.add_argument(
        "--bridge-rate",
        type=float,
        default=SITL_DEFAULT_JSON_RATE,
        help="servo packets a second the bridge view's feeder sends (SITL's default rate)",
    )
    parser.add_argument(
        "--open-bridge-panel",
        action="store_true",
        help="open the window's bridge panel at the first sample, as a person's click would",
    )
    parser.add_argument("--keep", type=Path, help="folder for the logs (default: a new one in /tmp)")
    parser.add_argument(
        "--tracemalloc",
        action="store_true",
        help="diagnosis: print the program lines whose Python allocations grew most after the warm-up",
    )
    args = parser.parse_args()
    names = [name.strip() for name in args.views.split(",") if name.strip()]
    for name in names:
        if name not in VIEWS:
            raise SystemExit(f"unknown view {name!r}")
    if not 0 < args.bridge_rate <= 65535:
        raise SystemExit("--bridge-rate must be above 0 and at most 65535 (a servo packet's frame rate)")
    sitl_views = [name for name in names if name != "bridge"]
    if sitl_views and not args.sitl.is_file():
        raise SystemExit(f"no SITL binary at {args.sitl} (see ../shared/sitl/README.md)")
    folder = args.keep or Path(f"/tmp/amc-soak-{time.strftime('%Y%m%d-%H%M%S')}")
    folder.mkdir(parents=True, exist_ok=True)
    views: list[View] = []
    for name in names:
        # The bridge view runs no SITL: its relay and feeder take free ports of their own.
        instance = free_instance(args.instance, {view.instance for view in views}) if name != "bridge" else -1
        views.append(View(name, instance, folder))
    where = [f"{', '.join(sitl_views)} on {args.sitl.name} over TCP"] if sitl_views else []
    if "bridge" in names:
        where.append(f"bridge: the window on the demo, a bridge fed at {args.bridge_rate:,.0f}/s")
    print(
        f"soak for {args.minutes:g} min: {'; '.join(where)}; transmitter off {args.off_for:g} s of every "
        f"{args.cycle:g} s from {args.first_off:g} s; logs in {folder}",
        flush=True,
    )
    xvfb: subprocess.Popen[bytes] | None = None
    statuses: dict[str, int | None] = {}
    try:
        display = None
        if any(view.has_window for view in views):
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
                    f"{view.name} {view.samples[-1].rss_kb / 1024:.1f} MB{bridge_progress(view)}"
                    for view in views
                    if view.samples
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
        report(view, args, statuses[view.name])
        if statuses[view.name] != 130:
            print(f"  (expected exit 130 after SIGTERM; the log: {view.log_path})")
            tail = view.tail.decode(errors="replace")[-2000:] if view.tail else ""
            if tail:
                print(tail)
    return 0


if __name__ == "__main__":
    sys.exit(main())
