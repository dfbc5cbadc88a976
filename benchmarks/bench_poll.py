# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Benchmark of RCReceiverDataModel.poll() against the released 5.0.1's own model and pymavlink.

Strategy: three loopback connections get the very same 50 MAVLink 2 datagrams in every trial:
ours (`RCReceiverDataModel` on our `FlightController`), the methodic configurator 5.0.1's own
`rc_receiver` model (its released file, loaded from the 5.0.1 environment the test command builds,
on a second `FlightController`), and a bare pymavlink connection that only drains (`recv_msg()`
until empty).  The three are timed in a rotating order, so cache warmth and timer drift favour
none, and the medians are printed as ratios to the bare drain and to each other.  Two frame mixes:
the receiver's own streams as a vehicle sends them at 5 Hz (RC_CHANNELS, SYS_STATUS, ATTITUDE),
and a busy link (plus position, HUD, text, a foreign system).  5.0.1's model asks for its streams
with `request_rc_receiver_messages()` on its first poll, which waits for two ACKs (1.6 s with a
vehicle that does not answer: tests/integration measures it); here that call answers at once so
the figures compare the polls themselves.  Ours gets its parameters as inside the methodic
configurator, from the host's download (the demo's ArduCopter set, a few hundred parameters).

The same datagrams are also replayed without sockets under valgrind's cachegrind, which counts
instructions instead of seconds (the figure repeats whatever the machine does): the per-poll
count of each poller is the difference between 220 and 20 polls.  Replayed once more with the
caches pushed out before every poll, cachegrind's simulated second-level cache tells how many
64-byte lines of code and data a cold poll must fetch: what its wall time pays beyond its
instructions (the live polls run cold, between socket work, sleeps and other processes).

A second run times every poll() of ours while a silent vehicle in another process keeps 50 messages
waiting for each poll and never answers the interval requests, to show that waiting for an ACK
never blocks.

Run: .venv/bin/python benchmarks/bench_poll.py
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pymavlink import mavutil
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.backend_flightcontroller import FlightController
from amc_rc_receiver.connection.opening import use_mavlink2
from amc_rc_receiver.demo.parameters import COPTER_PARAMETERS
from amc_rc_receiver.plugins.data_model_rc_receiver import RCReceiverDataModel
from amc_rc_receiver.plugins.rc_receiver.link_reader import MAX_MESSAGES_PER_POLL
from amc_rc_receiver.plugins.rc_receiver.snapshot import IntervalRequestOutcome
from tests.support.methodic_configurator import environments_home
from tests.support.scripted_fc import ScriptedFlightController

TRIALS = 300
WARMUP = 30
SETTLE_S = 0.003  # lets the datagrams of one trial land in the receive queues before timing
WORST_POLL_TARGET_S = 0.005
UNANSWERED_CYCLES = 5
UNANSWERED_WATCH_S = 1.2  # longer than the 0.8 s ACK timeout, so the timeout itself is polled too
RC = int(mavlink2.MAV_SYS_STATUS_SENSOR_RC_RECEIVER)


def receiver_frames(index: int, time_ms: int) -> tuple[Any, int, int]:
    """The receiver's streams as a vehicle interleaves them: RC_CHANNELS, SYS_STATUS, ATTITUDE."""
    kind = index % 3
    if kind == 0:
        return mavlink2.MAVLink_rc_channels_message(time_ms, 8, *([1500] * 18), 200), 1, 1
    if kind == 1:
        return mavlink2.MAVLink_sys_status_message(RC, RC, RC, 0, 12600, -1, -1, 0, 0, 0, 0, 0, 0), 1, 1
    return mavlink2.MAVLink_attitude_message(time_ms, 0.1, 0.2, 0.3, 0.0, 0.0, 0.0), 1, 1


def busy_link_frames(index: int, time_ms: int) -> tuple[Any, int, int]:
    """A busy link: the receiver's streams among position, HUD, text and a foreign system."""
    templates: list[tuple[Any, int, int]] = [
        (mavlink2.MAVLink_rc_channels_message(time_ms, 8, *([1500] * 18), 200), 1, 1),
        (mavlink2.MAVLink_sys_status_message(RC, RC, RC, 0, 12600, -1, -1, 0, 0, 0, 0, 0, 0), 1, 1),
        (mavlink2.MAVLink_attitude_message(time_ms, 0.1, 0.2, 0.3, 0.0, 0.0, 0.0), 1, 1),
        (mavlink2.MAVLink_global_position_int_message(time_ms, 1, 2, 3, 4, 0, 0, 0, 0), 1, 1),
        (mavlink2.MAVLink_vfr_hud_message(0.0, 0.0, 0, 0, 0.0, 0.0), 1, 1),
        (mavlink2.MAVLink_statustext_message(6, b"EKF3 IMU0 is using GPS"), 1, 1),
        (mavlink2.MAVLink_heartbeat_message(2, 3, 0, 0, 4, 3), 7, 1),
        (mavlink2.MAVLink_rc_channels_message(time_ms, 8, *([1900] * 18), 10), 7, 1),
    ]
    return templates[index % len(templates)]


def datagrams(frames: Callable[[int, int], tuple[Any, int, int]], trial: int) -> list[bytes]:
    encoder = mavlink2.MAVLink(None)
    packed = []
    for index in range(MAX_MESSAGES_PER_POLL):
        msg, system_id, component_id = frames(index, 60_000 + trial * 100 + index)
        encoder.srcSystem, encoder.srcComponent = system_id, component_id
        packed.append(bytes(msg.pack(encoder)))
        encoder.seq = (encoder.seq + 1) % 256
    return packed


def released_model_module() -> ModuleType | None:
    """5.0.1's own data_model_rc_receiver.py, as the release installs it, under a private name."""
    found = sorted(
        (environments_home() / "venv").glob(
            "lib/python*/site-packages/ardupilot_methodic_configurator/plugins/data_model_rc_receiver.py"
        )
    )
    if not found:
        return None
    spec = importlib.util.spec_from_file_location("mc501_data_model_rc_receiver", found[0])
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look the module up by name
    spec.loader.exec_module(module)
    return module


class ReleasedFacade:
    """Our FlightController offered to 5.0.1's model: its streams are asked for without waiting."""

    def __init__(self, flight_controller: FlightController) -> None:
        self._fc = flight_controller

    @property
    def master(self) -> Any:
        return self._fc.master

    @property
    def info(self) -> Any:
        return self._fc.info

    def request_rc_receiver_messages(self, interval_microseconds: int = 200_000) -> tuple[bool, str]:
        del interval_microseconds
        return True, ""


def bare_pymavlink_connection() -> Any:
    """A plain pymavlink UDP connection with the same MAVLink 2 codec the FlightController uses."""
    master = mavutil.mavudp("127.0.0.1:0", input=True, source_system=255, source_component=190)
    use_mavlink2(master)
    return master


def received(master: Any) -> int:
    return int(master.mav.total_packets_received)


def drain_all(master: Any) -> None:
    """Read until the connection stays empty (bounded to 1 s)."""
    deadline = time.monotonic() + 1.0
    quiet = 0
    while quiet < 2 and time.monotonic() < deadline:
        if master.recv_msg() is not None:
            quiet = 0
        else:
            quiet += 1
            time.sleep(0.001)


def measure_side_by_side(frames: Callable[[int, int], tuple[Any, int, int]]) -> dict[str, float]:
    """Median time of one poll of each model and of the bare drain over the same datagrams."""
    released = released_model_module()
    with ScriptedFlightController() as ours_vehicle, ScriptedFlightController() as released_vehicle:
        ours_fc, released_fc = FlightController(), FlightController()
        for fc, vehicle in ((ours_fc, ours_vehicle), (released_fc, released_vehicle)):
            error = fc.connect(vehicle.device, timeout=10.0)
            if error:
                raise RuntimeError(error)
        bare = bare_pymavlink_connection()
        sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        # As inside the methodic configurator, whose host downloads every parameter at connect:
        # our model reads the receiver's from there and sends no parameter read of its own.
        ours_fc.fc_parameters = {spec.name: spec.default for spec in COPTER_PARAMETERS}
        ours = RCReceiverDataModel(ours_fc)
        ours.activate()
        theirs = released.RCReceiverDataModel(ReleasedFacade(released_fc)) if released else None
        if theirs is not None:
            theirs.get_receiver_state()  # the one-time stream request (answered at once here)
        sides: dict[str, tuple[Callable[[], object], Any]] = {
            "ours": (ours.poll, ours_fc.master),
            "bare": (lambda: drain_once(bare), bare),
        }
        if theirs is not None:
            sides["5.0.1"] = (theirs.get_receiver_state, released_fc.master)
        times: dict[str, list[float]] = {name: [] for name in sides}
        paired: list[float] = []
        skipped = 0
        try:
            for trial in range(WARMUP + TRIALS):
                for _call, master in sides.values():
                    drain_all(master)
                packed = datagrams(frames, trial)
                for datagram in packed:
                    ours_vehicle.send_raw(datagram)
                    released_vehicle.send_raw(datagram)
                    sender.sendto(datagram, bare.port.getsockname())
                time.sleep(SETTLE_S)
                names = list(sides)
                shift = trial % len(names)
                order = names[shift:] + names[:shift]
                took: dict[str, float] = {}
                like_for_like = True
                for name in order:
                    call, master = sides[name]
                    before = received(master)
                    start = time.perf_counter()
                    call()
                    took[name] = time.perf_counter() - start
                    # a heartbeat of a vehicle can slip into a trial; keep only like-for-like ones
                    like_for_like = like_for_like and received(master) - before == len(packed)
                if not like_for_like:
                    skipped += 1
                    continue
                if trial >= WARMUP:
                    for name, seconds in took.items():
                        times[name].append(seconds)
                    if "5.0.1" in took:
                        paired.append(took["ours"] / took["5.0.1"])
        finally:
            sender.close()
            bare.close()
            ours_fc.disconnect()
            released_fc.disconnect()
    result = {name: statistics.median(values) for name, values in times.items() if values}
    if paired:
        result["paired"] = statistics.median(paired)
    result["trials"] = float(min(len(values) for values in times.values()))
    result["skipped"] = float(skipped)
    result["parse"] = pure_parse(datagrams(frames, 0))
    return result


def drain_once(master: Any) -> None:
    while master.recv_msg() is not None:
        pass


def pure_parse(packed: list[bytes]) -> float:
    """Median time for a fresh parser to decode the same bytes, without sockets (reference)."""
    samples = []
    for _trial in range(TRIALS):
        parser = mavlink2.MAVLink(None)
        parser.robust_parsing = True
        start = time.perf_counter()
        for datagram in packed:
            parser.parse_char(datagram)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def measure_unanswered() -> dict[str, float]:
    """Worst single poll() while a silent vehicle in another process keeps 50 messages waiting.

    The model polls every 100 ms as the view does, from activation until well past the 0.8 s ACK
    timeout of requests that are never answered; each poll finds a fresh burst of 50 messages.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    seconds = UNANSWERED_CYCLES * (UNANSWERED_WATCH_S + 0.5) + 15.0
    vehicle = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve().parent / "_silent_vehicle.py"), str(port), str(seconds)]
    )
    flight_controller = FlightController()
    durations: list[float] = []
    cpu_times: list[float] = []
    reads: list[int] = []
    timed_out = 0
    try:
        time.sleep(1.0)  # the vehicle process binds its port
        error = flight_controller.connect(f"udpout:127.0.0.1:{port}", timeout=10.0)
        if error:
            raise RuntimeError(error)
        model = RCReceiverDataModel(flight_controller)
        for _cycle in range(UNANSWERED_CYCLES):
            model.activate()
            end = time.monotonic() + UNANSWERED_WATCH_S
            while time.monotonic() < end:
                start, cpu_start = time.perf_counter(), time.thread_time()
                state = model.poll()
                durations.append(time.perf_counter() - start)
                cpu_times.append(time.thread_time() - cpu_start)
                reads.append(model.messages_read_last_poll)
                time.sleep(0.1)
            if all(r.outcome is IntervalRequestOutcome.NO_ANSWER for r in state.interval_requests):
                timed_out += 1
            model.deactivate()
    finally:
        flight_controller.disconnect()
        vehicle.kill()
        vehicle.wait()
    return {
        "worst": max(durations),
        "p99": statistics.quantiles(durations, n=100)[98],
        "worst_cpu": max(cpu_times),
        "median": statistics.median(durations),
        "polls": float(len(durations)),
        "full_polls": float(sum(1 for count in reads if count == MAX_MESSAGES_PER_POLL)),
        "timed_out_cycles": float(timed_out),
    }


INSTRUCTION_POLLS = (20, 220)  # the difference of two runs leaves out start-up and imports
COLD_POLLS = (20, 120)  # every cold poll is dearer to simulate; its counts repeat as exactly
# The cores here: 32 KB first-level caches and a 512 KB second level, 64-byte lines (lscpu).
CACHE_GEOMETRY = ("--I1=32768,8,64", "--D1=32768,8,64", "--LL=524288,16,64")
_CACHEGRIND_FIGURES = {
    "instructions": r"I\s+refs:\s+([\d,]+)",
    "code lines": r"LLi misses:\s+([\d,]+)",
    "data lines read": r"LLd misses:\s+[\d,]+\s+\(\s*([\d,]+) rd",
    "data lines written": r"LLd misses:.*\+\s+([\d,]+) wr",
}


def _counts(poller: str, polls: int, mix: str, *, cold: bool) -> dict[str, int] | None:
    """Instructions and second-level cache misses of one replay, simulated by cachegrind."""
    replay = str(Path(__file__).resolve().parent / "_poll_replay.py")
    return cachegrind_counts([replay, poller, str(polls), mix, *(["cold"] if cold else [])])


def cachegrind_counts(script: list[str]) -> dict[str, int] | None:
    """Instructions and second-level cache misses of one run of the Python ``script`` (its path
    and arguments) under cachegrind; None if it failed."""
    result = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=yes",
            *CACHE_GEOMETRY,
            "--cachegrind-out-file=/dev/null",
            sys.executable,
            *script,
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},  # the same dictionaries every run
        check=False,
    )
    if result.returncode != 0:
        return None
    counts = {}
    for name, pattern in _CACHEGRIND_FIGURES.items():
        found = re.search(pattern, result.stderr)
        if found is None:
            return None
        counts[name] = int(found.group(1).replace(",", ""))
    return counts


def measure_counts(mix: str, *, cold: bool) -> dict[str, dict[str, float]] | None:
    """Per poll of each poller over the same datagrams: instructions and second-level cache misses
    (``cold``: with the caches pushed out before every poll)."""
    if shutil.which("valgrind") is None:
        return None
    few, many = COLD_POLLS if cold else INSTRUCTION_POLLS
    pollers = ("bare", "ours", "5.0.1")
    runs = [(poller, polls) for poller in pollers for polls in (few, many)]
    # Each run is single-threaded and its counts do not depend on the machine's load.
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        results = dict(
            zip(runs, pool.map(lambda run: _counts(run[0], run[1], mix, cold=cold), runs), strict=True)
        )
    per_poll: dict[str, dict[str, float]] = {}
    for poller in pollers:
        low, high = results[(poller, few)], results[(poller, many)]
        if low is None or high is None:
            return None
        per_poll[poller] = {name: (high[name] - low[name]) / (many - few) for name in low}
    return per_poll


def _print_instructions(title: str, counts: dict[str, dict[str, float]] | None) -> bool:
    if counts is None:
        print(f"  {title}: instructions not counted (no valgrind, or no 5.0.1 environment)")
        return True
    bare, ours, theirs = (counts[poller]["instructions"] for poller in ("bare", "ours", "5.0.1"))
    ratio = ours / theirs
    print(
        f"  {title}: bare {bare / 1e3:,.0f}k, ours {ours / 1e3:,.0f}k ({ours / bare:.3f} x), "
        f"5.0.1 {theirs / 1e3:,.0f}k ({theirs / bare:.3f} x); ours / 5.0.1 {ratio:.3f} x "
        f"(target <= 1.00: {'met' if ratio <= 1.0 else 'MISSED'})"
    )
    return ratio <= 1.0


def _print_cache_lines(title: str, counts: dict[str, dict[str, float]] | None) -> None:
    """What the wall time pays for beyond the instructions: the lines a cold poll must fetch."""
    if counts is None:
        print(f"  {title}: not simulated (no valgrind, or no 5.0.1 environment)")
        return
    names = [name for name in _CACHEGRIND_FIGURES if name != "instructions"]
    for poller in ("bare", "ours", "5.0.1"):
        figures = ", ".join(f"{name} {counts[poller][name]:,.0f}" for name in names)
        print(f"  {title}, {poller:<5}: {figures}")
    extra = sum(counts["ours"][name] - counts["5.0.1"][name] for name in names)
    print(f"  {title}: ours fetches {extra:+,.0f} lines a poll against 5.0.1")


def _print_mix(title: str, figures: dict[str, float]) -> bool:
    print(f"\n{title}: {int(figures['trials'])} trials of 50 datagrams ({int(figures['skipped'])} skipped)")
    bare = figures["bare"]
    rows = [("pymavlink recv_msg() drain (baseline)", bare, "1.00 x")]
    rows.append(("our poll()", figures["ours"], f"{figures['ours'] / bare:.2f} x"))
    released = figures.get("5.0.1")
    if released is not None:
        rows.append(("5.0.1's own model, get_receiver_state()", released, f"{released / bare:.2f} x"))
    parse = figures["parse"]
    rows.append(("pymavlink parse_char(), no socket (reference)", parse, f"{parse / bare:.2f} x"))
    for name, seconds, ratio in rows:
        print(f"  {name:<46} {seconds * 1e6:8.1f} µs   {ratio}")
    if released is None:
        print("  5.0.1's model: not measured (no 5.0.1 environment; ./scripts/test.sh builds it)")
        return True
    ratio = figures["ours"] / released
    verdict = "met" if ratio <= 1.0 else "MISSED"
    print(f"  ours / 5.0.1's own model: {ratio:.2f} x (target <= 1.00: {verdict})")
    # The two polls of one trial share the machine's moment: their ratio cancels most of its drift.
    print(f"  median of each trial's ours / 5.0.1: {figures['paired']:.3f} x")
    return ratio <= 1.0


def main() -> int:
    print("RC receiver poll benchmark (medians; ratios measured in this run)")
    receiver = measure_side_by_side(receiver_frames)
    met = _print_mix("receiver streams (RC_CHANNELS, SYS_STATUS, ATTITUDE)", receiver)
    met = _print_mix("busy link (8 kinds, a foreign system)", measure_side_by_side(busy_link_frames)) and met
    print("\ninstructions per poll, counted by valgrind (repeatable whatever the machine does):")
    met = _print_instructions("receiver streams", measure_counts("receiver", cold=False)) and met
    met = _print_instructions("busy link", measure_counts("busy", cold=False)) and met
    print(
        "\nsecond-level cache lines missed per poll, simulated by valgrind's cachegrind with the caches"
        " pushed out before every poll (512 KB, as here; repeatable):"
    )
    _print_cache_lines("receiver streams", measure_counts("receiver", cold=True))
    _print_cache_lines("busy link", measure_counts("busy", cold=True))
    unanswered = measure_unanswered()
    worst = unanswered["worst"]
    print(
        f"\nours while the interval requests are never answered: {int(unanswered['polls'])} polls over "
        f"{UNANSWERED_CYCLES} activations ({int(unanswered['full_polls'])} read the full 50), "
        f"{int(unanswered['timed_out_cycles'])} reached 'no answer'"
    )
    worst_verdict = "met" if worst < WORST_POLL_TARGET_S else "MISSED"
    print(
        f"  worst {worst * 1e3:.3f} ms (target < {WORST_POLL_TARGET_S * 1e3:g} ms: {worst_verdict}), "
        f"99th percentile {unanswered['p99'] * 1e3:.3f} ms, median {unanswered['median'] * 1e3:.3f} ms, "
        f"worst CPU {unanswered['worst_cpu'] * 1e3:.3f} ms"
    )
    print(f"\nper-poll target {'met' if met else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
