# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Thirty reboots in a row on the serial line: each followed to a live reading, nothing left behind.

The program runs as a person runs it (``amc-rc-receiver --sitl arducopter --sitl-link serial
--text``: SITL's SERIAL0 on a pseudo-terminal null modem, the check on its other end, the code
path a USB board's bytes take), with the transmitter kept on (``--transmitter-off-after`` a day),
so the guided test never ends and the log goes on through every reboot.  Each reboot is one of:

- ``--how kill`` (default): SITL is killed, as the runner's own restart does and as
  tests/e2e/test_reboots.py does; the runner starts it again and unplugs the serial line
  meanwhile, as a rebooting USB board's device vanishes and comes back (the runner restarts a
  killed SITL 20 times a session at most, against a crash loop: beyond that the benchmark lifts
  the limit in the program it starts, and says so);
- ``--how mavlink``: MAV_CMD_PREFLIGHT_REBOOT_SHUTDOWN from a link of the benchmark's own on
  SITL's third MAVLink port (5763 + 10·N; the runner's control link holds 5762), never through the
  check; SITL re-executes itself and the line stays, as a telemetry radio's does, so the check
  must notice from the vehicle's clock.  After the reboot only HEARTBEATs come on SERIAL0, whose
  streams start at 0 Hz: the check asks for its streams again when they stop (also when that
  request goes unanswered because the vehicle is still booting), and the clock they bring, back
  below where they stopped, is the reboot (measured 2026-12-02: 3 of 3 followed, median
  6.4 s from the reboot to a live reading; before, the run timed out at the first).

Each reboot is followed until the log shows live RC channels (a status line with CH1-CH5 values)
after the check's "Reconnected" notice.  Printed: time from the reboot to that live reading
(median, max) and from SITL's new start to it (kill only), the program's descriptors, threads and
pseudo-terminals (/proc/PID) after the first connection and after the last reboot (they must be
equal), and its notices per reboot by kind (goal: one per link event: the loss, the return, the
reconnection).

Run: .venv/bin/python benchmarks/reboots.py [--reboots 30] [--how kill|mavlink]
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from pymavlink import mavutil

from amc_rc_receiver.sitl.supervisor import MAX_RESTARTS

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _proc_sample import Sample, free_instance, sample

ROOT = Path(__file__).resolve().parents[1]
SITL_DIR = ROOT.parent / "shared" / "sitl"
PROGRAM = Path(__file__).resolve().parent / "_reboots_program.py"
STARTED = re.compile(r"Started SITL \(process (\d+)\)")
LIVE = re.compile(r"CH1\s+\d{3,4}\s+CH2\s+\d{3,4}\s+CH3\s+\d{3,4}")
NOTICE = re.compile(r"^\[\s*[\d.]+ s\] \* (.*)$")
# The check's own words for each link event (standalone/link_follower.py), by kind.
# The model's own event lines about the link count too: "Link error: ..." at the loss, "Link
# restored" at the return (terminal/screen.py); so do the stream requests' lines the loss changes.
KINDS = (
    ("loss", re.compile(r"^Link error: |SITL restarted\.|USB port closed|closed the connection|restarted: ")),
    ("back", re.compile(r"is back on ")),
    ("reconnected", re.compile(r"^Reconnected to |^Link restored")),
    ("failed", re.compile(r"^Reconnect failed")),
    ("requests", re.compile(r"interval request: (send failed|not requested)")),
)
DEADLINE_S = 180.0
SETTLE_S = 3.0  # after the live reading, before counting: the reconnection's helpers have ended
REBOOT = 246  # MAV_CMD_PREFLIGHT_REBOOT_SHUTDOWN


@dataclass
class Output:
    """The program's lines as they arrive, each with the benchmark's clock."""

    lines: list[tuple[float, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def read(self, stream: IO[str]) -> None:
        for line in stream:
            with self.lock:
                self.lines.append((time.monotonic(), line.rstrip("\n")))

    def since(self, index: int) -> list[tuple[float, str]]:
        with self.lock:
            return self.lines[index:]

    def __len__(self) -> int:
        with self.lock:
            return len(self.lines)


@dataclass
class Reboot:
    rss_kb: int  # the program's, at the live reading
    to_live_s: float
    start_to_live_s: float | None
    notices: collections.Counter[str]
    link_lines: list[str]
    other_notices: list[str]


def wait_for(output: Output, start: int, pattern: re.Pattern[str], process: subprocess.Popen[str]) -> int:
    """The index of the first line from ``start`` on that matches; gives up after DEADLINE_S."""
    end = time.monotonic() + DEADLINE_S
    index = start
    while time.monotonic() < end:
        for _at, line in output.since(index):
            if pattern.search(line):
                return index
            index += 1
        if process.poll() is not None:
            raise SystemExit(f"the program ended ({process.returncode}):\n" + tail(output))
        time.sleep(0.02)
    raise SystemExit(f"{pattern.pattern!r} not seen within {DEADLINE_S} s:\n" + tail(output))


def tail(output: Output, count: int = 40) -> str:
    return "\n".join(line for _at, line in output.since(max(0, len(output) - count)))


def classify(lines: list[tuple[float, str]]) -> tuple[collections.Counter[str], list[str], list[str]]:
    """The notices by kind, the link ones in order, and the other event lines."""
    counts: collections.Counter[str] = collections.Counter()
    link: list[str] = []
    others = []
    for _at, line in lines:
        match = NOTICE.match(line)
        if match is None:
            continue
        text = match.group(1)
        for kind, pattern in KINDS:
            if pattern.search(text):
                counts[kind] += 1
                link.append(text)
                break
        else:
            others.append(text)
    return counts, link, others


class MavlinkReboot:
    """The benchmark's own link to SITL's third MAVLink port, opened anew for each reboot (SITL
    closes it when it re-executes itself)."""

    def __init__(self, port: int) -> None:
        self.port = port

    def reboot(self) -> None:
        link = mavutil.mavlink_connection(
            f"tcp:127.0.0.1:{self.port}", source_system=245, source_component=192, autoreconnect=False
        )
        try:
            heartbeat = link.wait_heartbeat(timeout=30)
            if heartbeat is None:
                raise SystemExit(f"no heartbeat on SITL port {self.port}")
            link.mav.command_long_send(
                link.target_system, link.target_component, REBOOT, 0, 1, 0, 0, 0, 0, 0, 0
            )
            link.recv_match(type="COMMAND_ACK", blocking=True, timeout=3)
        finally:
            link.close()


def counts(figures: Sample) -> str:
    return (
        f"descriptors {figures.descriptors}, threads {figures.threads}, "
        f"pseudo-terminals {figures.pseudo_terminals}, RSS {figures.rss_kb / 1024:.1f} MB"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reboots", type=int, default=30)
    parser.add_argument("--how", choices=("kill", "mavlink"), default="kill")
    parser.add_argument("--baudrate", type=int, default=115200)
    parser.add_argument("--sitl", type=Path, default=SITL_DIR / "arducopter")
    parser.add_argument("--instance", type=int, default=80, help="first SITL instance to try")
    parser.add_argument(
        "--tracemalloc",
        action="store_true",
        help="diagnosis: the program lines whose Python allocations grew over the second half",
    )
    args = parser.parse_args()
    if not args.sitl.is_file():
        raise SystemExit(f"no SITL binary at {args.sitl} (see ../shared/sitl/README.md)")
    instance = free_instance(args.instance)
    growth_file = Path(f"/tmp/amc-reboots-growth-{os.getpid()}.txt") if args.tracemalloc else None
    command = [
        sys.executable,
        str(PROGRAM),
        # The runner gives up on a SITL killed more than MAX_RESTARTS times in a session (a crash
        # loop), so a kill-reboot run beyond that lifts the limit.
        str(max(MAX_RESTARTS, args.reboots)),
        str(growth_file or ""),
        "--",
        "--sitl",
        str(args.sitl),
        "--sitl-link",
        "serial",
        "--baudrate",
        str(args.baudrate),
        "--instance",
        str(instance),
        "--text",
        # Kept on: the guided test then never finishes, and a log-mode run goes on until stopped.
        "--transmitter-off-after",
        "86400",
    ]
    env = dict(os.environ, LANGUAGE="en", PYTHONUNBUFFERED="1")
    env.pop("DISPLAY", None)
    if args.how == "kill" and args.reboots > MAX_RESTARTS:
        print(f"(the runner's limit of {MAX_RESTARTS} restarts of a killed SITL lifted to {args.reboots})")
    print(
        f"{args.reboots} reboots ({args.how}) of {args.sitl.name} on a serial line at {args.baudrate} baud "
        f"(pseudo-terminal null modem), SITL instance {instance}",
        flush=True,
    )
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    assert process.stdout is not None
    output = Output()
    threading.Thread(target=output.read, args=(process.stdout,), daemon=True).start()
    rebooter = MavlinkReboot(5763 + 10 * instance)
    reboots: list[Reboot] = []
    first: Sample | None = None
    last: Sample | None = None
    status: int | None = None
    try:
        started = wait_for(output, 0, STARTED, process)
        sitl_pid = int(STARTED.search(output.since(started)[0][1]).group(1))  # type: ignore[union-attr]
        connected = wait_for(output, 0, re.compile(r"^Connected to an ArduPilot vehicle"), process)
        wait_for(output, connected, LIVE, process)
        time.sleep(SETTLE_S)
        first = sample(process.pid, 0.0)
        print(f"first connection: {counts(first)}" if first else "the program is gone", flush=True)
        for number in range(1, args.reboots + 1):
            if growth_file is not None and number == args.reboots // 2 + 1:
                process.send_signal(signal.SIGUSR1)  # the first snapshot, half way
            mark = len(output)
            ordered = time.monotonic()
            if args.how == "kill":
                os.kill(sitl_pid, signal.SIGKILL)
                restarted = wait_for(output, mark, STARTED, process)
                back_at, line = output.since(restarted)[0]
                sitl_pid = int(STARTED.search(line).group(1))  # type: ignore[union-attr]
            else:
                rebooter.reboot()
                back_at = None
            reconnected = wait_for(output, mark, re.compile(r"\* Reconnected to "), process)
            live = wait_for(output, reconnected, LIVE, process)
            live_at = output.since(live)[0][0]
            notices, link, others = classify(output.since(mark)[: live - mark + 1])
            start_to_live = None if back_at is None else live_at - back_at
            now = sample(process.pid, 0.0)
            rss_kb = now.rss_kb if now is not None else 0
            reboots.append(Reboot(rss_kb, live_at - ordered, start_to_live, notices, link, others))
            print(
                f"  reboot {number:2}: live {live_at - ordered:5.1f} s after the reboot, RSS "
                f"{rss_kb / 1024:5.1f} MB; notices "
                + ", ".join(f"{kind} {notices[kind]}" for kind, _pattern in KINDS),
                flush=True,
            )
        time.sleep(SETTLE_S)
        last = sample(process.pid, 0.0)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                status = process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                status = process.wait()
        else:
            status = process.returncode
        log = Path(f"/tmp/amc-reboots-{time.strftime('%Y%m%d-%H%M%S')}.log")
        log.write_text("\n".join(line for _at, line in output.since(0)) + "\n", encoding="utf-8")
        print(f"\nthe program's output: {log}")
    followed = len(reboots)
    print(f"reboots followed to a live reading: {followed} of {args.reboots}; exit after SIGTERM {status}")
    if reboots:
        times = [item.to_live_s for item in reboots]
        print(f"reboot -> live reading: median {statistics.median(times):.1f} s, max {max(times):.1f} s")
        starts = [item.start_to_live_s for item in reboots if item.start_to_live_s is not None]
        if starts:
            print(
                f"SITL's new start -> live reading: median {statistics.median(starts):.1f} s, "
                f"max {max(starts):.1f} s"
            )
        for kind, _pattern in KINDS:
            per = [item.notices[kind] for item in reboots]
            print(f"  '{kind}' notices per reboot: min {min(per)}, max {max(per)}, total {sum(per)}")
        print("  the first reboot's link sentences, in order:")
        for text in reboots[0].link_lines:
            print(f"    {text}")
        others = collections.Counter(text for item in reboots for text in item.other_notices)
        if others:
            print("  other event lines between the reboot and the live reading (total over all reboots):")
            for text, count in others.most_common(12):
                print(f"    {count:3} x {text}")
    if len(reboots) >= 3:
        # Where the memory goes per reboot: the slope over the second half, once warmed up.
        half = reboots[len(reboots) // 2 :]
        slope = statistics.linear_regression(range(len(half)), [item.rss_kb for item in half]).slope
        print(
            f"RSS at the live reading: after reboot 1 {reboots[0].rss_kb / 1024:.1f} MB, after reboot "
            f"{len(reboots)} {reboots[-1].rss_kb / 1024:.1f} MB; "
            f"over the second half {slope:+.1f} KB per reboot"
        )
    if growth_file is not None and growth_file.exists():
        print("Python allocations grown most over the second half (tracemalloc):")
        for line in growth_file.read_text(encoding="utf-8").splitlines()[:15]:
            print(f"  {line}")
    if first is not None and last is not None:
        print(f"after the first connection: {counts(first)}")
        print(f"after the last reboot:      {counts(last)}")
        same = (first.descriptors, first.threads, first.pseudo_terminals) == (
            last.descriptors,
            last.threads,
            last.pseudo_terminals,
        )
        print(f"descriptors, threads and pseudo-terminals equal: {'yes' if same else 'NO'}")
    return 0 if followed == args.reboots else 1


if __name__ == "__main__":
    sys.exit(main())
