# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""`amc-rc-receiver --sitl` against real ArduCopter and ArduRover SITL, as a user runs it.

The SITL binaries are test equipment beside the repository (``../shared/sitl/``); every test
here skips, saying so, where they are absent.  Each run has its own SITL instance number (20 and
up), so all its ports differ from every other run's and the tests run side by side in a parallel
run of the suite.  Every run ends by itself at its verdict.  Nothing asserts
how long anything took (see benchmarks/bench_sitl_failsafe.py); every wait is generous, because a
loaded two-core machine slows SITL's lockstep with the physics down.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.processes import Process, program_command, without_display
from tests.support.sitl import (
    ROOT,
    SITL_DIR,
    descendants,
    free_instance,
    listening_on,
    process_gone,
    sitl_binary,
    sitl_processes,
)
from tests.support.waiting import wait_for

pytestmark = [
    pytest.mark.sitl,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SITL binaries are Linux x86-64"),
]

# Every run here ends by itself at its verdict (the program moves its sticks and switches its
# transmitter when the guided test asks); this only bounds a run that hangs, with room for a
# slow start and stop on a loaded machine.
RUN_DEADLINE_S = 150.0
WAIT_S = 90.0
# SITL names the protocol it decodes once, when it first decodes RC (the runner lets the receiver
# deliver once the check's link is open); the check shows the text as it came.
ANNOUNCED_PROTOCOL = "* Flight controller: RCInput: decoding UDP (Pulses)"
STATUS = re.compile(
    r"CH1\s+(\d{3,4})\s+CH2\s+(\d{3,4})\s+CH3\s+(\d{3,4})\s+CH4\s+(\d{3,4})\s+CH5\s+(\d{3,4})"
)
SITL_DEFAULT_CHANNELS = (1500, 1500, 1000, 1500, 1800)
# What the runner says when the program switches its simulated transmitter (either failsafe mode).
SWITCHED_OFF = "SITL* Transmitter off:"
SWITCHED_ON = "SITL* Transmitter on:"


@dataclass(frozen=True)
class Acceptance:
    binary: str
    instance: int
    failsafe_mode: str


ACCEPTANCE = {
    "copter-no-pulses": Acceptance("arducopter", 20, "no-pulses"),
    "rover-no-pulses": Acceptance("ardurover", 21, "no-pulses"),
    "copter-low-throttle": Acceptance("arducopter", 22, "low-throttle"),
    "rover-low-throttle": Acceptance("ardurover", 23, "low-throttle"),
}


def cli_run(args: list[str]) -> Process:
    """``amc-rc-receiver`` with ``args`` from the checkout, without a display, in its own process
    group; its waits for output are as generous as `WAIT_S`."""
    return Process(program_command(*args), cwd=ROOT, env=without_display(), deadline_s=WAIT_S)


def acceptance_args(run: Acceptance) -> list[str]:
    return [
        "--sitl",
        f"../shared/sitl/{run.binary}",
        "--instance",
        str(run.instance),
        "--failsafe-mode",
        run.failsafe_mode,
        "--text",
    ]


def channel_readings(text: str) -> list[tuple[int, ...]]:
    return [tuple(int(value) for value in match.groups()) for match in STATUS.finditer(text)]


def after(text: str, marker: str) -> str:
    index = text.find(marker)
    assert index >= 0, f"{marker!r} missing:\n{text}"
    return text[index + len(marker) :]


def assert_in_order(text: str, markers: list[str]) -> None:
    position = 0
    for marker in markers:
        found = text.find(marker, position)
        assert found >= 0, f"{marker!r} missing after offset {position}:\n{text}"
        position = found + len(marker)


def assert_channels_follow_the_sticks(readings: list[tuple[int, ...]]) -> None:
    """The simulated sticks sweep CH1-CH4 over 1100-1900 µs and flip CH5 between 1100 and 1900."""
    assert len(set(readings)) >= 5, readings
    assert SITL_DEFAULT_CHANNELS not in readings, readings
    for channel in range(4):
        values = [reading[channel] for reading in readings]
        assert all(1100 <= value <= 1900 for value in values), (channel + 1, values)
        assert max(values) - min(values) >= 300, (channel + 1, values)
    assert {reading[4] for reading in readings} <= {1100, 1900}, readings


def assert_nothing_left(binary: Path, instance: int) -> None:
    """No SITL of this instance anywhere, and no process of this run below the test process."""
    deadline = time.monotonic() + 30.0
    while sitl_processes(binary, instance) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert sitl_processes(binary, instance) == []
    marker = ["--instance", str(instance)]
    for pid in descendants(os.getpid()):
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
        ours = any(argv[index : index + 2] == marker for index in range(len(argv)))
        assert not ours or process_gone(pid), f"left behind: {pid} {argv}"


def test_a_killed_sitl_is_restarted_and_the_check_reconnects_and_says_so() -> None:
    """GIVEN a check running SITL WHEN SITL is killed as soon as the channels are live THEN the
    runner starts it again, the check reconnects by itself, says so, runs a fresh test in which the
    program's transmitter switch still gives failsafe and recovery, ends at its verdict with exit 0
    and leaves no process."""
    binary = sitl_binary("arducopter")
    instance = free_instance(24)
    device = f"tcp:127.0.0.1:{5760 + 10 * instance}"
    run = cli_run(
        [
            "--sitl",
            "../shared/sitl/arducopter",
            "--instance",
            str(instance),
            "--text",
        ]
    )
    try:
        text = run.wait_for_output(
            lambda out: bool(channel_readings(after_or_empty(out, "seen by the flight controller: yes"))),
            "live channels",
        )
        first_pid = int(re.search(r"Started SITL \(process (\d+)\)", text).group(1))  # type: ignore[union-attr]
        os.kill(first_pid, signal.SIGKILL)
        run.wait_for_output(lambda out: "a fresh test started" in out, "the reconnect")
        code = run.wait(RUN_DEADLINE_S)
        out = run.stdout
    finally:
        run.end()
    assert code == 0, f"{out}\n{run.stderr}"
    # The runner's note of the exit and the check's notice of the closed link come in either order.
    assert_in_order(out, [f"Reconnecting to {device}…", f"* Reconnected to {device}"])
    assert_in_order(
        out,
        [
            "SITL stopped (killed by SIGKILL); restarting it.",
            "Started SITL (process",
            f"* Reconnected to {device}: the streams are asked for again and a fresh test started.",
            "* Receiver seen by the flight controller: yes",
            SWITCHED_OFF,
            "* RC failsafe is now ACTIVE",
            SWITCHED_ON,
            "* Recovery observed at",
            "Verdict: PASSED",
        ],
    )
    second_pid = int(re.findall(r"Started SITL \(process (\d+)\)", out)[1])
    assert second_pid != first_pid
    # The restarted SITL announced its receiver protocol again, to the check's new link.
    assert ANNOUNCED_PROTOCOL in after(out, "SITL stopped (killed by SIGKILL)"), out
    fresh = after(out, "a fresh test started.")
    assert len(set(channel_readings(fresh[: fresh.index(SWITCHED_OFF)]))) >= 3
    assert_nothing_left(binary, instance)


def after_or_empty(text: str, marker: str) -> str:
    index = text.find(marker)
    return "" if index < 0 else text[index:]


def test_the_manual_recipe_reaches_sitl_and_follows_a_sitl_restarted_by_hand(tmp_path: Path) -> None:
    """GIVEN the README's manual recipe: the physics back end, SITL started by hand with
    `--serial0 tcp:0`, then the check on SITL's MAVLink port WHEN SITL is killed and started again
    by hand THEN the channels follow the back end's transmitter through SITL's RC input, and the
    check reconnects to the new SITL by itself, says so and asks for its streams again.

    (Whether the streams then flow is up to SITL: one that is still booting acknowledges the
    request and may drop it; `--sitl` waits for the boot to end, a hand-started SITL cannot be
    waited for from here.)"""
    binary = sitl_binary("arducopter")
    instance = free_instance(25)
    port = 5760 + 10 * instance
    backend = Process(
        [sys.executable, "-m", "amc_rc_receiver.demo.physics_backend", "--instance", str(instance)], cwd=ROOT
    )
    sitl_command = [
        str(binary),
        "--model",
        "JSON:127.0.0.1",
        "--speedup",
        "1",
        "--instance",
        str(instance),
        "--serial0",
        "tcp:0",
        "--defaults",
        str(SITL_DIR / "copter.parm"),
    ]
    workdir = Path(tempfile.mkdtemp(dir=tmp_path))
    sitl = Process(sitl_command, cwd=workdir)
    run: Process | None = None
    second: Process | None = None
    try:
        wait_for(lambda: listening_on(port), "SITL to listen on its MAVLink port", WAIT_S, interval_s=0.05)
        # No program owns this SITL's transmitter, so the guided test would wait for a person: the
        # run is ended with Ctrl-C once the reconnection has asked for the streams again.
        run = cli_run(["--device", f"tcp:127.0.0.1:{port}", "--timeout", "60", "--text"])
        run.wait_for_output(
            lambda out: len(set(channel_readings(out))) >= 10, "5 s of live channels from SITL"
        )
        sitl.signal(signal.SIGKILL)
        sitl.wait(30)
        run.wait_for_output(lambda out: "Reconnecting to" in out, "the lost link to be noticed")
        second = Process(sitl_command, cwd=workdir)
        asked_again = "* RC_CHANNELS interval request: accepted"
        run.wait_for_output(
            lambda out: asked_again in after_or_empty(out, "a fresh test started"),
            "the streams asked for again after the reconnect",
        )
        run.popen.send_signal(signal.SIGINT)
        code = run.wait(RUN_DEADLINE_S)
        out = run.stdout
    finally:
        if run is not None:
            run.end()
        for process in (sitl, second, backend):
            if process is not None:
                process.end(grace_s=0)
    # No failsafe test was run here: the run ends as a person's Ctrl-C ends it.
    assert code == 130, f"{out}\n{run.stderr}"
    assert "Traceback" not in run.stderr
    assert_channels_follow_the_sticks(channel_readings(out[: out.index("Reconnecting to")]))
    # "The streams are asked for again" is the reconnection's own sentence; the answer follows.
    assert "* RC_CHANNELS interval request: accepted" in after(out, "a fresh test started."), out
    assert sitl_processes(binary, instance) == []


@pytest.mark.parametrize("name", list(ACCEPTANCE))
def test_the_transmitter_switch_drives_real_sitl_into_rc_failsafe_and_back(name: str) -> None:
    """GIVEN `amc-rc-receiver --sitl ../shared/sitl/<vehicle> --text` (no pulses, or low throttle)
    WHEN it runs, the program moving its sticks and switching its transmitter as the guided test
    asks THEN SITL's announcement of the protocol it decodes (UDP) is shown, compared with
    RC_PROTOCOLS and named in the summary, the program's stick step finds every stick of the
    vehicle correct through SITL's RC input while the live channels move, RC failsafe turns active
    after the transmitter goes off, the check names how the receiver made it happen (it stopped,
    or sent a low throttle, with the value that came through SITL), recovery is observed after it
    comes back, the run ends at its verdict with exit code 0, the relay on SITL's JSON link never
    took SITL's traffic for a loop, and no process is left."""
    spec = ACCEPTANCE[name]
    sitl_binary(spec.binary)
    instance = free_instance(spec.instance)
    run = cli_run(acceptance_args(Acceptance(spec.binary, instance, spec.failsafe_mode)))
    try:
        code = run.wait(RUN_DEADLINE_S)
        out = run.stdout
    finally:
        run.end()
    assert code == 0, f"{out}\n{run.stderr}"
    assert "ignores JSON rc: the transmitter reaches it only through UDP" in out
    # SITL's own announcement, shown as it came, and the protocol in the summary.
    assert ANNOUNCED_PROTOCOL in out, out
    assert "Receiver protocol the flight controller decodes: UDP" in out, out
    assert "The flight controller decodes UDP; RC_PROTOCOLS = 1 lets it try every protocol" in out, out
    sticks = "steering: correct, CH1 1500 → 2000 µs; throttle: correct, CH3 1500 → 2000 µs"
    if spec.binary == "arducopter":
        sticks = (
            "throttle: correct, CH3 1000 → 2000 µs; roll: correct, CH1 1500 → 2000 µs; "
            "pitch: correct, CH2 1500 → 1000 µs; yaw: correct, CH4 1500 → 2000 µs"
        )
    assert f"Sticks: {sticks}" in out, out
    # The live channels moved while the program pushed one stick after the other.
    assert len(set(channel_readings(out[: out.index(SWITCHED_OFF)]))) >= 3, out
    assert_in_order(
        out,
        [
            SWITCHED_OFF,
            "* RC failsafe is now ACTIVE",
            "* Failsafe observed at",
            SWITCHED_ON,
            "* RC failsafe is now not active",
            "* Recovery observed at",
            "Verdict: PASSED",
        ],
    )
    while_off = out[out.index(SWITCHED_OFF) : out.index(SWITCHED_ON)]
    # Which way the receiver made the failsafe happen is named, as the receiver behaved.
    named = (
        "RC failsafe came from the receiver itself"
        if spec.failsafe_mode == "no-pulses"
        else "RC failsafe came from a low throttle"
    )
    assert named in out[out.index(SWITCHED_OFF) :], out
    if spec.failsafe_mode == "no-pulses":
        assert "SITL* SITL confirmed SIM_RC_FAIL = 1." in while_off
    else:
        # The receiver went on sending, with the throttle below FS_THR_VALUE: the check saw that
        # value arrive through SITL when the failsafe began.
        low = int(re.search(r"low throttle will be (\d+) µs", out).group(1))  # type: ignore[union-attr]
        assert f"with throttle {low} µs" in out, out
        assert "SIM_RC_FAIL" not in while_off
    # Real SITL JSON through the program's own relay, resends included, is never taken for a loop.
    assert f"bridge SITL JSON (instance {instance}) [ardupilot-json]" in out, out
    assert "loop cut" not in out, out
    assert_nothing_left(SITL_DIR / spec.binary, instance)


@dataclass(frozen=True)
class StickMistake:
    args: tuple[str, ...]
    defaults: str | None
    said: tuple[str, ...]


STICK_MISTAKES = {
    "reversed-pitch": StickMistake(
        ("--transmitter-reverse", "pitch"),
        None,
        ("You pushed the pitch stick fully forward and CH2 went up (1500 → 2000 µs)", "RC2_REVERSED = 1"),
    ),
    "swapped-roll-pitch": StickMistake(
        ("--transmitter-order", "EATR"),
        None,
        (
            "You moved the roll stick and CH2 moved, but RCMAP_ROLL = 1 makes CH1 the roll channel.",
            "You moved the pitch stick and CH1 moved, but RCMAP_PITCH = 2 makes CH2 the pitch channel.",
        ),
    ),
    "changed-rcmap-roll": StickMistake(
        (),
        "RCMAP_ROLL 4\nRCMAP_YAW 1\n",
        (
            "You moved the roll stick and CH1 moved, but RCMAP_ROLL = 4 makes CH4 the roll channel.",
            "You moved the yaw stick and CH4 moved, but RCMAP_YAW = 1 makes CH1 the yaw channel.",
        ),
    ),
}


@pytest.mark.parametrize("name", sorted(STICK_MISTAKES))
def test_the_stick_step_on_real_sitl_names_a_reversed_or_misrouted_stick(name: str, tmp_path: Path) -> None:
    """GIVEN real ArduCopter SITL fed by a simulated transmitter that reverses pitch, or sends roll
    and pitch swapped (channel order EATR), or a standard transmitter with RCMAP_ROLL and RCMAP_YAW
    changed in SITL's parameters
    WHEN `amc-rc-receiver --sitl … --text` runs the whole guided test by itself
    THEN the stick step names the stick and the channel that moved, with the fix, the verdict is
    FAILED (exit 3), the failsafe part still works, and no process is left."""
    mistake = STICK_MISTAKES[name]
    binary = sitl_binary("arducopter")
    instance = free_instance(27)
    args = ["--sitl", "../shared/sitl/arducopter", "--instance", str(instance), "--text", *mistake.args]
    if mistake.defaults is not None:
        defaults = tmp_path / "rcmap.parm"
        defaults.write_text(mistake.defaults, encoding="utf-8")
        args += ["--sitl-defaults", str(defaults)]
    run = cli_run(args)
    try:
        code = run.wait(RUN_DEADLINE_S)
        out = run.stdout
    finally:
        run.end()
    assert code == 3, f"{out}\n{run.stderr}"
    summary = out[out.index("=" * 60) :]
    assert "Verdict: FAILED" in summary
    for text in mistake.said:
        assert text in summary, summary
    assert "* Recovery observed at" in out
    assert_nothing_left(binary, instance)
