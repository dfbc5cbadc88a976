# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The verdict of the terminal view as a script sees it: exit status, summary, report files.

Real subprocesses on the embedded demo vehicle.  A run that is not a live screen ends by itself
once the test has finished, so no test here waits for a fixed time to pass; the one INCOMPLETE run
is bounded by --duration 1, shorter than any transmitter test can be (the failsafe alone takes the
1 s RC_FS_TIMEOUT).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

import amc_rc_receiver
from amc_rc_receiver.standalone.options import EXIT_ERROR, EXIT_FAILED, EXIT_INCOMPLETE, EXIT_PASSED
from tests.support.processes import without_display
from tests.support.program_runs import FinishedRun, ProgramRun

pytestmark = pytest.mark.e2e
SCHEMA_FILE = Path(amc_rc_receiver.__file__).parent / "data" / "rc_receiver_report.schema.json"


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return ProgramRun(("--text", *args)).launch()


def terminal_run(*args: str, without_tk: bool = False, folders: tuple[str, ...] = ()) -> pytest.MarkDecorator:
    """The whole terminal-view run the test reads, started with the session's others
    (tests/support/program_runs.py); "{folder}" is the run's own folder, its working directory."""
    return pytest.mark.program_run(ProgramRun(("--text", *args), without_tk=without_tk, folders=folders))


def validated_report(path: Path) -> dict[str, object]:
    report: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))).validate(report)
    return report


@terminal_run("--demo", "--report", "{folder}/evidence")
def test_a_passed_demo_test_exits_0_with_a_summary_and_a_valid_report(program_run: FinishedRun) -> None:
    """
    GIVEN the demo vehicle set up as it should be, and no keyboard (stdin is not a terminal)
    WHEN the terminal view runs without a duration
    THEN the program switches its own transmitter, ends by itself with "Verdict: PASSED" and the
         latency in its summary, exits 0 and writes a report valid against the schema
    """
    result = program_run

    assert result.returncode == EXIT_PASSED, result.stdout + result.stderr
    assert "Verdict: PASSED" in result.stdout
    assert "s after the transmitter went off" in result.stdout
    report = validated_report(result.folder / "evidence.json")
    assert report["verdict"] == {**report["verdict"], "result": "PASSED", "latency_from": "program"}  # type: ignore[dict-item]
    assert (
        (result.folder / "evidence.md").read_text(encoding="utf-8").startswith("# RC receiver check: PASSED")
    )


def with_setup(setup: str, *expected: str) -> object:
    """One parameter set of a test that reads the run of the demo with ``--demo-setup setup``."""
    return pytest.param(
        setup,
        *expected,
        marks=terminal_run("--demo", "--demo-setup", setup, "--report", "{folder}/evidence"),
        id="-".join((setup, *expected)),
    )


@pytest.mark.parametrize(
    ("setup", "reason"),
    [
        with_setup("failsafe-disabled", "FS_THR_ENABLE = 0"),
        with_setup("receiver-hold", "keeps sending valid pulses"),
        with_setup("receiver-custom-throttle", "It kept sending throttle 1000 µs"),
        with_setup("reversed-pitch", "You pushed the pitch stick fully forward and CH2 went up"),
        with_setup("swapped-roll-pitch", "You moved the roll stick and CH2 moved, but RCMAP_ROLL = 1"),
    ],
)
def test_a_failed_demo_test_exits_3_and_says_why(setup: str, reason: str, program_run: FinishedRun) -> None:
    """
    GIVEN the demo vehicle with RC failsafe disabled, a receiver that holds or sends custom
          positions on signal loss (the vehicle reacts as ArduPilot: no failsafe), or a transmitter
          that reverses pitch or swaps roll and pitch (the program moves its sticks)
    WHEN the terminal view runs the test
    THEN it ends with "Verdict: FAILED" and the reason, exits 3, and the report says FAILED
    """
    result = program_run

    assert result.returncode == EXIT_FAILED, result.stdout + result.stderr
    assert "Verdict: FAILED" in result.stdout
    assert reason in result.stdout
    assert validated_report(result.folder / "evidence.json")["verdict"]["result"] == "FAILED"  # type: ignore[index]


@pytest.mark.parametrize(
    ("setup", "code", "finding"),
    [
        with_setup(
            "receiver-low-throttle", "failsafe_by_low_throttle", "RC failsafe came from a low throttle"
        ),
        with_setup("configured", "failsafe_by_no_pulses", "RC failsafe came from the receiver itself"),
        with_setup("receiver-rssi-held", "rssi_held_in_failsafe", "RSSI kept its last value"),
        with_setup("protocol-all", "rc_protocols_all", "RC_PROTOCOLS = 1 lets it try every protocol"),
        with_setup("elrs-modes-on-ch5", "elrs_modes_on_arm_channel", "channel 5 carries the arm switch"),
    ],
)
def test_each_demo_set_up_gives_its_finding_and_still_passes(
    setup: str, code: str, finding: str, program_run: FinishedRun
) -> None:
    """
    GIVEN a demo set-up with a receiver that fails over by a low throttle or by stopping, an RSSI
          held through the failsafe, RC_PROTOCOLS at "all", or an ExpressLRS receiver with the flight
          modes on its arm channel
    WHEN the terminal view runs the test
    THEN the finding is said and is in the report, and the test still passes (exit 0): none of
         them keeps the failsafe from working
    """
    result = program_run

    assert result.returncode == EXIT_PASSED, result.stdout + result.stderr
    assert finding in result.stdout
    report = validated_report(result.folder / "evidence.json")
    assert code in {entry["code"] for entry in report["findings"]}  # type: ignore[index,union-attr]


@terminal_run("--demo", "--report", ".")
def test_a_report_into_the_current_folder_gets_the_default_names(program_run: FinishedRun) -> None:
    """
    GIVEN --report . (a folder, where "report to PATH.json" has no name to add to)
    WHEN a whole test runs to PASSED
    THEN rc_receiver_report.json and .md are written in that folder and the exit status is 0
    """
    result = program_run

    assert result.returncode == EXIT_PASSED, result.stdout + result.stderr
    assert validated_report(result.folder / "rc_receiver_report.json")["verdict"]["result"] == "PASSED"  # type: ignore[index]
    assert (result.folder / "rc_receiver_report.md").is_file()


@terminal_run("--demo", "--report", "{folder}/evidence", folders=("evidence.md",))
def test_a_report_that_cannot_be_written_makes_the_run_fail_with_status_1(program_run: FinishedRun) -> None:
    """
    GIVEN --report PATH where PATH.md is a folder
    WHEN a whole test runs to PASSED
    THEN the program says the report could not be written, writes no PATH.json either, and exits 1
         (a script must not take a missing report for success)
    """
    result = program_run

    assert result.returncode == EXIT_ERROR, result.stdout + result.stderr
    assert "Verdict: PASSED" in result.stdout
    assert "The report could not be written" in result.stdout
    assert "exists and is not a regular file" in result.stdout
    assert (result.folder / "evidence.md").is_dir()
    assert not (result.folder / "evidence.json").exists()


def test_a_run_too_short_for_the_test_exits_4_and_never_waits_for_a_key() -> None:
    """
    GIVEN a one-second run with stdin that is not a terminal
    WHEN it ends
    THEN the verdict is INCOMPLETE with the next step, and the exit status is 4
    """
    result = run_cli("--demo", "--duration", "1")

    assert result.returncode == EXIT_INCOMPLETE, result.stdout + result.stderr
    assert "Verdict: INCOMPLETE" in result.stdout


@pytest.mark.parametrize(
    "vehicle",
    [
        pytest.param(
            vehicle, marks=terminal_run("--demo", "--demo-vehicle", vehicle, "--report", "{folder}/evidence")
        )
        for vehicle in ("plane", "rover", "heli")
    ],
)
def test_each_demo_vehicle_passes_with_its_own_parameter_names(
    vehicle: str, program_run: FinishedRun
) -> None:
    """
    GIVEN the demo as a Plane, a Rover or a Heli
    WHEN the test runs
    THEN it passes, and the report names the family and that family's failsafe parameter
    """
    result = program_run

    assert result.returncode == EXIT_PASSED, result.stdout + result.stderr
    report = validated_report(result.folder / "evidence.json")
    family = {"plane": "ArduPlane", "rover": "Rover", "heli": "Heli"}[vehicle]
    assert report["vehicle"]["family"] == family  # type: ignore[index]
    names = {entry["name"] for entry in report["parameters"]}  # type: ignore[attr-defined]
    assert ("THR_FAILSAFE" if vehicle == "plane" else "FS_THR_ENABLE") in names


def test_help_documents_the_exit_statuses() -> None:
    """GIVEN --help WHEN printed THEN it says which exit status means PASSED, FAILED and INCOMPLETE."""
    result = subprocess.run(
        [sys.executable, "-m", "amc_rc_receiver", "--help"], capture_output=True, text=True, check=False
    )
    text = " ".join(result.stdout.split())
    assert "exit status: 0 the receiver test PASSED; 3 it FAILED; 4 it is INCOMPLETE" in text
    assert "--demo-setup" in text
    assert "--report" in text


def run_without_tk(*args: str, display: bool = False) -> subprocess.CompletedProcess[str]:
    env = without_display()
    if display:
        # Only its presence counts: without Tk nothing ever connects to it.
        env["DISPLAY"] = os.environ.get("DISPLAY", ":99")
    return ProgramRun(args, without_tk=True).launch(environment=env)


@terminal_run("--demo", "--report", "{folder}/evidence", without_tk=True)
def test_the_terminal_view_runs_the_whole_test_on_a_python_without_tk(program_run: FinishedRun) -> None:
    """
    GIVEN a Python on which tkinter cannot be imported
    WHEN `amc-rc-receiver --demo --text` runs the test
    THEN it ends with "Verdict: PASSED", exits 0 and writes its report, with no traceback and no
         word about a plugin that could not load
    """
    result = program_run

    assert result.returncode == EXIT_PASSED, result.stdout + result.stderr
    assert "Verdict: PASSED" in result.stdout
    assert "Traceback" not in result.stderr
    assert "plugin" not in result.stderr
    assert validated_report(result.folder / "evidence.json")["verdict"]["result"] == "PASSED"  # type: ignore[index]


def test_without_tk_the_window_gives_way_to_the_terminal_view_and_says_why() -> None:
    """
    GIVEN a Python without Tk on a machine with a display
    WHEN the program is asked for its window
    THEN it says that Tk is missing and how to get it, and runs the terminal view instead
    """
    result = run_without_tk("--demo", "--duration", "2", display=True)

    assert result.returncode == EXIT_INCOMPLETE, result.stdout + result.stderr
    assert "no Tk (install python3-tk)" in result.stderr
    assert "Verdict: INCOMPLETE" in result.stdout
    assert "Traceback" not in result.stderr


@terminal_run("--demo", "--transmitter-on-after", "3", "--report", "{folder}/evidence")
def test_connecting_with_the_transmitter_off_and_switching_it_on_later_still_runs_every_step(
    program_run: FinishedRun,
) -> None:
    """
    GIVEN the demo vehicle already in RC failsafe when the check connects (its transmitter off), and
          the transmitter switched on 3 s later without telling the check (--transmitter-on-after)
    WHEN the terminal view runs without a duration
    THEN the failsafe and the recovery before the test are in the timeline, but the check first asks
         for the transmitter on, then runs the stick step and the off/on cycle, and ends only after
         them: "Test finished" and PASSED come last, with the latency of the asked-for failsafe
    """
    result = program_run
    out = result.stdout

    assert result.returncode == EXIT_PASSED, out + result.stderr

    def at(text: str) -> int:
        assert text in out, f"{text!r} not said:\n{out}"
        return out.index(text)

    asks_for_on = at("Step: RC failsafe is active: switch the transmitter on.")
    early_failsafe = at("* Failsafe observed at")
    switched_on = at("* Transmitter switched on")
    early_recovery = at("* Recovery observed at")
    sticks = at("Step: Stick 1 of 4")
    off = at("Step: The program switches its transmitter off now.")
    on = at("Step: The program switches its transmitter back on now.")
    finished = at("Step: Test finished.")
    assert early_failsafe <= asks_for_on < switched_on < early_recovery < sticks < off < on < finished
    assert out.count("* Recovery observed at") == 2
    assert "Verdict: PASSED - Receiver seen, sticks checked, RC failsafe" in out[finished:]
    report = validated_report(result.folder / "evidence.json")
    assert report["verdict"]["result"] == "PASSED"  # type: ignore[index]


@pytest.mark.parametrize(
    ("vehicle", "refusal"),
    [
        pytest.param(
            vehicle,
            refusal,
            marks=terminal_run(
                "--demo", "--demo-vehicle", vehicle, "--demo-setup", "mode-refused", "--report", "{folder}/r"
            ),
        )
        for vehicle, refusal in (
            ("copter", '"Mode change to SMARTRTL failed: init failed"'),
            ("rover", '"Flight mode change failed"'),
        )
    ],
)
def test_the_programs_mode_switch_visits_six_slots_and_a_refused_one_is_a_warning(
    vehicle: str, refusal: str, program_run: FinishedRun
) -> None:
    """
    GIVEN the demo vehicle (Copter, Rover) with a mode it refuses on the ground in slot 6
    WHEN the terminal view runs the whole test by itself
    THEN it passes (exit 0), the verdict lists the six slots, slot 6 not entered, a warning quotes
         the vehicle's own refusal, and the report lists the slots and their timeline events
    """
    result = program_run

    assert result.returncode == EXIT_PASSED, result.stdout + result.stderr
    verdict = next(line for line in result.stdout.splitlines() if line.startswith("Verdict: PASSED"))
    for slot in range(1, 6):
        assert f"slot {slot} " in verdict
    assert "slot 6 SMART_RTL: not entered" in verdict
    assert refusal in result.stdout
    report = validated_report(result.folder / "r.json")
    slots = report["mode_slots"]
    assert isinstance(slots, list)
    assert [(entry["slot"], entry["outcome"]) for entry in slots] == [
        *((slot, "entered") for slot in range(1, 6)),
        (6, "refused"),
    ]
    timeline = report["timeline"]
    assert isinstance(timeline, list)
    assert sum(1 for event in timeline if event["kind"] == "mode_slot") == 6
