# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The simulator runner's process handling, with a stand-in for SITL where SITL cannot be made to misbehave.

The stand-in reproduces two behaviours observed on the real ArduCopter SITL of July 2025: it
prints its "JSON received:" block (without rc keys), and it ignores SIGTERM, as SITL does once
stalled waiting for physics.  Everything else (ports, RC, failsafe) is tested against real SITL
in tests/e2e/test_sitl.py.  Each test uses its own instance number (30 and up, moved by 100 where
another run holds its ports) so its relay port never collides with another test's.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import textwrap
from pathlib import Path

import pytest

from amc_rc_receiver.demo.sitl_rc_input import FailsafeMode
from amc_rc_receiver.sitl.config import SitlConfig, SitlLink, SitlPorts, SitlState, describe_exit
from amc_rc_receiver.sitl.null_modem import STATION_TO_VEHICLE
from amc_rc_receiver.sitl.runner import SitlRunner
from tests.support.processes import Process
from tests.support.sitl import free_instance, process_gone, process_group_members
from tests.support.waiting import wait_for

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="process groups and /proc"),
]

DEADLINE_S = 30.0
STAND_IN = """\
#!{python}
import signal, sys, time
if "{ignore_sigterm}" == "yes":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a SITL stalled waiting for physics ignores SIGTERM
print("Starting SITL: JSON", flush=True)
print("", flush=True)
print("JSON received:", flush=True)
for key in ("timestamp", "imu: gyro", "imu: accel_body", "position", "attitude", "velocity"):
    print("\\t" + key, flush=True)
print("", flush=True)
if "{exit_at_once}" == "yes":
    sys.exit(3)
while True:
    time.sleep(0.1)
"""


def stand_in(folder: Path, *, exit_at_once: bool = False, ignore_sigterm: bool = True) -> Path:
    path = folder / "arducopter"
    path.write_text(
        STAND_IN.format(
            python=sys.executable,
            exit_at_once="yes" if exit_at_once else "no",
            ignore_sigterm="yes" if ignore_sigterm else "no",
        ),
        encoding="utf-8",
    )
    path.chmod(0o755)
    return path


# A SITL whose process forks a child and exits while the child lives on (a wrapper script, a SITL
# with a helper): both ignore SIGTERM, as a stalled SITL does.  Its first start kills itself, so
# the runner starts it again; later starts fork and run on.  {first_exit} is how the first ends.
FORKING_STAND_IN = """\
#!{python}
import os, signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = os.fork()
if child == 0:
    while True:
        time.sleep(0.1)
print(f"child {{child}} of {{os.getpid()}}", flush=True)
if not os.path.exists("first-start-done"):  # in the runner's working folder, kept over restarts
    open("first-start-done", "w").close()
    {first_exit}
while True:
    time.sleep(0.1)
"""


def forking_stand_in(folder: Path, first_exit: str) -> Path:
    path = folder / "arducopter"
    path.write_text(FORKING_STAND_IN.format(python=sys.executable, first_exit=first_exit), encoding="utf-8")
    path.chmod(0o755)
    return path


def _children(runner: SitlRunner) -> dict[int, int]:
    """Child pid -> the SITL process (group) that forked it, from the stand-in's console lines."""
    found = {}
    for line in runner.console.tail(100):
        words = line.text.split()
        if line.from_sitl and len(words) == 4 and words[0] == "child":
            found[int(words[1])] = int(words[3])
    return found


def test_every_port_moves_by_ten_per_instance() -> None:
    """GIVEN instance 3 WHEN its ports are computed THEN each SITL default port is 30 higher."""
    ports = SitlPorts(3)
    assert (ports.mavlink, ports.control, ports.rc_input, ports.json) == (5790, 5792, 5531, 9032)


def test_sitl_is_started_with_json_physics_no_client_wait_and_absolute_paths(tmp_path: Path) -> None:
    """GIVEN a SITL program and defaults file WHEN the command is built THEN it asks for JSON physics
    on the loopback, boots without waiting for a client, wipes old parameters and names absolute paths
    (SITL runs in a temporary folder)."""
    binary = stand_in(tmp_path)
    defaults = tmp_path / "copter.parm"
    defaults.write_text("FS_THR_ENABLE 1\n", encoding="utf-8")
    command = SitlConfig(binary, defaults=(defaults,), instance=4).command()
    assert command[0] == str(binary.resolve())
    assert command[command.index("--model") + 1] == "JSON:127.0.0.1"
    assert command[command.index("--instance") + 1] == "4"
    assert command[command.index("--serial0") + 1] == "tcp:0"
    assert "--wipe" in command
    assert command[command.index("--defaults") + 1] == str(defaults.resolve())


def test_a_configuration_that_cannot_run_says_why(tmp_path: Path) -> None:
    """GIVEN a missing program, a file that is not executable, a missing defaults file or an
    impossible instance WHEN checked THEN each gets its own sentence and nothing starts."""
    missing = tmp_path / "nothing"
    text_file = tmp_path / "readme.txt"
    text_file.write_text("not a program", encoding="utf-8")
    binary = stand_in(tmp_path)
    assert "No SITL program" in SitlConfig(missing).problem()
    assert "not executable" in SitlConfig(text_file).problem()
    assert "defaults file" in SitlConfig(binary, defaults=(missing,)).problem()
    assert "instance" in SitlConfig(binary, instance=-1).problem()
    assert "instance" in SitlConfig(binary, instance=256).problem()  # SITL would take it as 0
    assert SitlConfig(binary).problem() == ""
    runner = SitlRunner(SitlConfig(missing, instance=free_instance(30)))
    assert "No SITL program" in runner.start()
    runner.stop()
    assert runner.status().state is SitlState.STOPPED


def test_exit_is_described_by_signal_name_or_code() -> None:
    """GIVEN a return code WHEN described THEN a signal is named and an exit code is given."""
    assert describe_exit(-9) == "killed by SIGKILL"
    assert describe_exit(1) == "exit code 1"


def test_a_sitl_that_ignores_sigterm_is_killed_and_nothing_is_left(tmp_path: Path) -> None:
    """GIVEN a running SITL that ignores SIGTERM (stalled waiting for physics)
    WHEN the runner stops THEN SITL gets SIGKILL after the grace period, its working folder is
    removed, and its console (with the runner's notes) stays readable."""
    runner = SitlRunner(SitlConfig(stand_in(tmp_path), instance=free_instance(31)))
    assert runner.start() == ""
    try:
        wait_for(lambda: runner.status().reads_json_rc is False, "the JSON keys block", DEADLINE_S)
        pid = runner.process_id
        assert pid is not None
        workdir = Path(f"/proc/{pid}/cwd").resolve()
        assert workdir.name.startswith("amc-rc-receiver-sitl")
    finally:
        runner.stop()
    assert process_gone(pid)
    assert not workdir.exists()
    texts = [line.text for line in runner.console.tail(100)]
    assert "Starting SITL: JSON" in texts
    assert any("ignores JSON rc" in text for text in texts)
    assert "SITL did not end within 3 s of SIGTERM; it was killed." in texts
    runner.stop()  # idempotent


def test_a_killed_sitl_is_started_again_with_a_new_generation(tmp_path: Path) -> None:
    """GIVEN a running SITL WHEN it is killed (as a crash or a person would) THEN the runner says
    so and starts it again, and the generation the check follows moves on."""
    runner = SitlRunner(SitlConfig(stand_in(tmp_path), instance=free_instance(32)))
    assert runner.start() == ""
    try:
        wait_for(lambda: runner.process_id is not None, "SITL to start", DEADLINE_S)
        first = runner.kill_sitl()
        assert first is not None
        wait_for(lambda: runner.generation == 2 and runner.process_id is not None, "the restart", DEADLINE_S)
        assert runner.process_id != first
        assert process_gone(first)
        texts = [line.text for line in runner.console.tail(100)]
        assert "SITL stopped (killed by SIGKILL); restarting it." in texts
        assert runner.status().restarts == 1
    finally:
        runner.stop()


def test_no_rc_pulses_reach_a_sitl_that_has_not_finished_booting(tmp_path: Path) -> None:
    """GIVEN a SITL that never reports the end of its boot (a stand-in without MAVLink)
    WHEN the runner runs it with the transmitter on for a while
    THEN nothing arrives on SITL's RC-input port and the transmitter gives no pulses: sticks that
    reached a booting ArduCopter with the throttle up would start its ESC calibration."""
    config = SitlConfig(stand_in(tmp_path), instance=free_instance(37))
    rc_port = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    rc_port.bind(("127.0.0.1", config.ports.rc_input))
    rc_port.settimeout(1.0)
    runner = SitlRunner(config)
    assert runner.start() == ""
    try:
        wait_for(lambda: runner.process_id is not None, "SITL to start", DEADLINE_S)
        assert runner.transmitter.on
        with pytest.raises(TimeoutError):
            rc_port.recvfrom(100)
        assert runner.transmitter.channels(4.5) is None
    finally:
        runner.stop()
        rc_port.close()


def test_a_sitl_that_exits_at_once_is_not_restarted_in_a_loop(tmp_path: Path) -> None:
    """GIVEN a SITL that exits right after starting WHEN it exits THEN the runner gives up, says
    why, and the check's connect reports that SITL is not running instead of waiting."""
    runner = SitlRunner(SitlConfig(stand_in(tmp_path, exit_at_once=True), instance=free_instance(33)))
    assert runner.start() == ""
    try:
        wait_for(lambda: runner.status().state is SitlState.EXITED, "SITL to exit", DEADLINE_S)
        assert runner.generation == 1
        assert any("not restarting it" in line.text for line in runner.console.tail(20))

        class NeverAnswers:
            def connect(self, device: str, baudrate: int = 115200, timeout: float = 5.0) -> str:
                return f"Could not open {device}: refused."

        error = runner.connect(NeverAnswers(), timeout=60.0)
        assert "not running" in error
        assert "exit code 3" in error
    finally:
        runner.stop()


def test_sitl_dies_with_the_check_even_when_the_check_is_killed(tmp_path: Path) -> None:
    """GIVEN a check process running SITL WHEN the check is killed with SIGKILL (no clean-up runs)
    THEN SITL does not outlive it (a stalled SITL would otherwise wait for physics for ever)."""
    binary = stand_in(tmp_path)
    program = textwrap.dedent(
        f"""
        import sys, time
        from pathlib import Path
        from amc_rc_receiver.sitl.config import SitlConfig
        from amc_rc_receiver.sitl.runner import SitlRunner
        runner = SitlRunner(SitlConfig(Path({str(binary)!r}), instance={free_instance(34)}))
        assert runner.start() == ""
        while runner.process_id is None:
            time.sleep(0.05)
        print(runner.process_id, flush=True)
        time.sleep(60)
        """
    )
    check = Process([sys.executable, "-c", program], deadline_s=DEADLINE_S)
    try:
        sitl_pid = int(check.wait_for_output(lambda out: "\n" in out, "SITL's process id").splitlines()[0])
        assert not process_gone(sitl_pid)
        check.signal(signal.SIGKILL)  # the parent alone, not its group
        check.wait()
        wait_for(lambda: process_gone(sitl_pid), "SITL to end with its parent", DEADLINE_S)
    finally:
        check.end(grace_s=0)


class OpensAtOnce:
    """The check's flight-controller facade, as a parent-application service: it opens at once."""

    def __init__(self) -> None:
        self.devices: list[str] = []

    def connect(self, device: str, baudrate: int = 115200, timeout: float = 5.0) -> str:
        self.devices.append(device)
        return ""


def test_the_receiver_is_silent_until_the_checks_link_opens_then_follows_the_failsafe_mode(
    tmp_path: Path,
) -> None:
    """GIVEN the two failsafe modes WHEN SITL runs, then the check's link opens, then the
    transmitter goes off and on THEN the receiver is silent (SIM_RC_FAIL=1) until the link opens
    and delivers after it; switching off makes no-pulses ask for SIM_RC_FAIL=1 again, while
    low-throttle keeps the receiver delivering (it sends the low throttle itself)."""
    for instance, mode, wanted_off in ((35, FailsafeMode.NO_PULSES, 1), (36, FailsafeMode.LOW_THROTTLE, 0)):
        runner = SitlRunner(
            SitlConfig(stand_in(tmp_path), instance=free_instance(instance), failsafe_mode=mode)
        )
        assert runner.start() == ""
        try:
            wait_for(lambda: runner.process_id is not None, "the stand-in to start", DEADLINE_S)  # noqa: B023
            control = runner.control
            assert control is not None
            assert control.wanted_rc_fail == 1
            assert runner.status().receiver_delivering is False
            check = OpensAtOnce()
            assert runner.connect(check, timeout=0.2) == ""
            assert check.devices == [runner.device]
            assert control.wanted_rc_fail == 0
            assert runner.status().receiver_delivering is True
            runner.set_transmitter_on(False)
            assert control.wanted_rc_fail == wanted_off
            assert runner.transmitter_on is False
            runner.set_transmitter_on(True)
            assert control.wanted_rc_fail == 0
        finally:
            runner.stop()


def test_a_restarted_sitl_boots_with_its_receiver_silent_again(tmp_path: Path) -> None:
    """GIVEN a SITL whose receiver delivers to the check WHEN SITL is killed and restarted THEN the
    new process is started with the runner's defaults file last (SIM_RC_FAIL 1, so it wins over the
    user's, and the 400 Hz physics rate) and its receiver stays silent until the check's link to it
    opens again."""
    defaults = tmp_path / "mine.parm"
    defaults.write_text("SIM_RC_FAIL 0\n", encoding="utf-8")
    runner = SitlRunner(SitlConfig(stand_in(tmp_path), defaults=(defaults,), instance=free_instance(37)))
    assert runner.start() == ""
    try:
        wait_for(lambda: runner.process_id is not None, "the stand-in to start", DEADLINE_S)
        assert runner.connect(OpensAtOnce(), timeout=0.2) == ""
        assert runner.status().receiver_delivering is True
        first = runner.process_id
        assert runner.kill_sitl() == first
        wait_for(lambda: runner.process_id not in (None, first), "the restarted stand-in", DEADLINE_S)
        pid = runner.process_id
        assert runner.status().receiver_delivering is False
        control = runner.control
        assert control is not None
        # The control link's own thread tells the new process; the pid is known a moment before.
        wait_for(lambda: control.wanted_rc_fail == 1, "SIM_RC_FAIL 1 for the new process", DEADLINE_S)
        arguments = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        files = arguments[arguments.index(b"--defaults") + 1].decode().split(",")
        assert files[0] == str(defaults.resolve())
        runner_defaults = Path(files[-1]).read_text(encoding="ascii").split()
        assert runner_defaults == ["SIM_RC_FAIL", "1", "SIM_RATE_HZ", "400"]
        assert runner.connect(OpensAtOnce(), timeout=0.2) == ""
        assert control.wanted_rc_fail == 0
    finally:
        runner.stop()


def test_what_a_sitl_leaves_running_when_it_exits_is_ended_before_its_restart_and_at_stop(
    tmp_path: Path,
) -> None:
    """
    GIVEN a SITL program that forks a child and is killed while the child lives on (both ignore
    SIGTERM), and that on its restart forks again and runs on
    WHEN the runner restarts it, and later stops
    THEN the first start's child is ended (SIGKILL after the grace period) before the second start,
         the runner says so, and after stop no process of either start's group is left in /proc.
    """
    binary = forking_stand_in(tmp_path, "os.kill(os.getpid(), signal.SIGKILL)")
    runner = SitlRunner(SitlConfig(binary, instance=free_instance(38)))
    assert runner.start() == ""
    try:
        wait_for(lambda: len(_children(runner)) == 2, "the restarted stand-in's child", DEADLINE_S)
        (first_child, first_group), (second_child, second_group) = _children(runner).items()
        assert runner.generation == 2
        assert process_gone(first_child)
        assert process_group_members(first_group) == []
        assert not process_gone(second_child)
        texts = [line.text for line in runner.console.tail(100)]
        assert "SITL exited and left processes of its own running; they were ended." in texts
        assert "SITL stopped (killed by SIGKILL); restarting it." in texts
    finally:
        runner.stop()
    assert process_gone(second_child)
    assert process_gone(second_group)
    assert process_group_members(first_group) == process_group_members(second_group) == []


def test_a_sitl_that_forks_and_exits_at_once_leaves_nothing_running_though_not_restarted(
    tmp_path: Path,
) -> None:
    """
    GIVEN a SITL program that forks a child and exits with status 0 at once (so it is not started
    again, and there is no running leader to end at stop)
    WHEN the runner has given up on it, before anything is stopped
    THEN its child has been ended already: only its group id reached it.
    """
    runner = SitlRunner(SitlConfig(forking_stand_in(tmp_path, "sys.exit(0)"), instance=free_instance(39)))
    assert runner.start() == ""
    try:
        wait_for(lambda: runner.status().state is SitlState.EXITED, "the runner to give up", DEADLINE_S)
        ((child, group),) = _children(runner).items()
        assert process_gone(child)
        assert process_group_members(group) == []
        assert any("not restarting it" in line.text for line in runner.console.tail(20))
    finally:
        runner.stop()


def test_a_sitl_path_with_a_line_break_and_an_escape_cannot_forge_a_console_line(tmp_path: Path) -> None:
    """
    GIVEN a SITL program in a folder whose name holds a line break, a forged runner-note prefix
    and a terminal escape sequence (a path may hold any of them)
    WHEN the runner starts it and notes the command line
    THEN the note is one console line, with the line break and the escape written out.
    """
    folder = tmp_path / "sitl\nSITL* Transmitter off\x1b[2J"
    folder.mkdir()
    runner = SitlRunner(SitlConfig(stand_in(folder), instance=free_instance(40)))
    assert runner.start() == ""
    try:
        wait_for(lambda: runner.process_id is not None, "the stand-in to start", DEADLINE_S)
    finally:
        runner.stop()
    notes = [line.text for line in runner.console.tail(100) if not line.from_sitl]
    (started,) = [text for text in notes if text.startswith("Started SITL")]
    assert "sitl\\nSITL* Transmitter off\\x1b[2J/arducopter --model" in started
    assert not any(character in text for text in notes for character in "\n\r\x1b")
    assert not any(text.startswith("SITL* ") for text in notes)


def test_what_the_check_wrote_before_letting_go_reaches_the_board_before_it_stops(tmp_path: Path) -> None:
    """GIVEN SITL on a 115200-baud serial line (a SITL that ends at once on SIGTERM) WHEN the check
    writes 12,000 bytes, closes its port, and the runner is stopped as soon as the first of them are
    through THEN the cable carries every byte to the board before the board goes, as a USB cable
    delivers what was written to it (the check's last interval requests restore the board's
    defaults); the last 6,700 take about 0.6 s here, beyond the cable's first burst."""
    carried = bytearray()

    def tap(direction: int, data: bytes) -> None:
        if direction == STATION_TO_VEHICLE:
            carried.extend(data)

    config = SitlConfig(
        stand_in(tmp_path, ignore_sigterm=False),
        instance=free_instance(38),
        link=SitlLink.SERIAL,
        baudrate=115200,
    )
    runner = SitlRunner(config, serial_tap=tap)
    assert runner.start() == ""
    last_words = (bytes(range(256)) * 47)[:12_000]
    try:
        # Booted, so that stopping it is quick: the cable's last bytes are not carried meanwhile.
        wait_for(
            lambda: any("JSON received" in line.text for line in runner.console.tail(20)),
            "the stand-in to boot",
            DEADLINE_S,
        )
        station = os.open(runner.device, os.O_RDWR | os.O_NOCTTY)
        try:
            view = memoryview(last_words)
            while view:
                view = view[os.write(station, view) :]
        finally:
            os.close(station)
        wait_for(lambda: len(carried) > 0, "the first bytes through the cable", DEADLINE_S)
    finally:
        runner.stop()
    assert bytes(carried) == last_words
