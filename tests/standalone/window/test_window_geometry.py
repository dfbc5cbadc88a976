# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The real window, read as a person reads it: nothing clipped, no word broken, at every size.

The window runs on the embedded demo at 1280x720, 1600x900 and its default size, in English and
in German (whose words are longer), and is measured with Tk's own geometry (`tests.support.geometry`)
first as the demo left it and then with every step of the guided test drawn in turn: each member of
`GuideStep`, from a snapshot made by hand out of the demo's own, with the longest content the view
holds (a link problem above the readings, the held-values note, a saved report's long path, radio
messages, a finding naming a long file, the stick step's results and, in the stick step, a stick
asked of a person with its picture and *Skip this stick*), so a step added later is measured
without a change here.
The readings a person came for (the verdict, the current step with its buttons, CH1-CH5, RSSI and
the receiver status) must be in view without scrolling, and the bridge strip is measured closed
and opened on three busy links.  At 1280x720 the same holds with the SITL console `--sitl` adds
under the step, filled as a running SITL fills it (a real `tests/standalone/window/test_window_sitl.py`
window checks it on SITL itself).
"""

from __future__ import annotations

import tempfile
import tkinter as tk
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from amc_rc_receiver import install_language
from amc_rc_receiver.plugins.frontend_tkinter_rc_receiver import RCReceiverView
from amc_rc_receiver.plugins.rc_receiver.snapshot import (
    ExtraChannel,
    FailsafeStatus,
    Finding,
    GuideStep,
    RadioMessage,
    RCReceiverState,
    Severity,
    StickOutcome,
    StickPrompt,
    StickResult,
    SwitchPosition,
)
from amc_rc_receiver.sitl.config import SitlConfig
from amc_rc_receiver.sitl.runner import SitlRunner
from amc_rc_receiver.standalone.options import DEMO_DEVICE
from amc_rc_receiver.standalone.session import VehicleSession
from amc_rc_receiver.standalone.window.geometry import DEFAULT_GEOMETRY
from amc_rc_receiver.standalone.window.sitl_panel import show_console
from amc_rc_receiver.standalone.window.window import StandaloneWindow
from tests.support.bridge_snapshots import BUSY_SNAPSHOT
from tests.support.geometry import fully_in_view, layout_problems
from tests.support.tk import pump_until

pytestmark = pytest.mark.tk

SIZES = ("1280x720", "1600x900", DEFAULT_GEOMETRY)
LANGUAGES = ("en", "de")
DEADLINE_S = 30.0
LONG_FILE = "/home/pilot/vehicles/quadcopter_with_a_long_name/05_remote_controller_receiver.param"
# What a rebooting board's link says (in the test's language when the model words it; the notice
# here only has to be as long).
LINK_ERROR = "The flight controller's USB port closed: it may be rebooting or unplugged. Waiting for it…"
# The saved report's path the view shows: as long as this whatever folder the test runs in (a
# parallel run's temporary folders are longer), so the layout measured is the same in every run.
REPORT_PATH_LENGTH = 108


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    install_language(request.param)
    yield request.param
    install_language(None)


@pytest.fixture(params=SIZES)
def tk_geometry(request: pytest.FixtureRequest) -> str:
    """The ``root`` window at each size the window must fit."""
    return str(request.param)


@pytest.fixture
def window(root: tk.Tk, tk_geometry: str, language: str) -> Iterator[StandaloneWindow]:
    """The window at one size, in ``language``, connected to the demo and showing its verdict."""
    del language  # installed before the window is built, so every widget speaks it
    built = StandaloneWindow(root, VehicleSession(), port_lister=list, connect_timeout=5.0)
    size = tuple(int(part) for part in tk_geometry.split("x"))
    built.connect(DEMO_DEVICE)

    def ready() -> bool:
        view = built.host.active_view
        if built.is_connecting or not isinstance(view, RCReceiverView):
            return False
        state = getattr(built.host.active_model, "state", None)
        return (
            (root.winfo_width(), root.winfo_height()) == size
            and isinstance(state, RCReceiverState)
            and state.guided.parameters_complete
            and view.channel_rows[0].text.endswith("µs")
        )

    assert pump_until(root, ready, DEADLINE_S), "the demo did not show its readings and parameters"
    # A test ended by a lost link offers its report in the top bar: the longest text up there.
    built.connection_bar.show_earlier_tests(2)
    root.update()
    yield built
    built.close()


def receiver_view(window: StandaloneWindow) -> RCReceiverView:
    view = window.host.active_view
    assert isinstance(view, RCReceiverView)
    return view


def demo_state(window: StandaloneWindow) -> RCReceiverState:
    state = getattr(window.host.active_model, "state", None)
    assert isinstance(state, RCReceiverState)
    return state


def with_step(base: RCReceiverState, step: GuideStep) -> RCReceiverState:
    """The demo's snapshot at ``step`` of a person's own test, with the longest content the view has."""
    check = base.guided
    long_finding = Finding(
        code="step_file_differs",
        severity=Severity.WARNING,
        message=f"{LONG_FILE} sets RC_PROTOCOLS = 1; the flight controller has 512.",
        action="Upload the file (and reboot) before the test, or the test checks the old value.",
    )
    messages = tuple(
        RadioMessage(at=base.test_started_at + 2.0 * index, severity=4, text=text)
        for index, text in enumerate(
            ("Radio Failsafe - Disarming", "PreArm: Throttle below failsafe", "RCInput: decoding CRSF")
        )
    )
    stick = StickPrompt("pitch", 3, 4) if step is GuideStep.MOVE_STICKS else None
    return replace(
        base,
        failsafe=FailsafeStatus.ACTIVE,
        link_error=LINK_ERROR,
        guided=replace(
            check,
            guide=replace(check.guide, step=step, automatic=False, stick=stick),
            findings=(long_finding, *check.findings),
            radio_messages=messages,
            sticks=STICK_RESULTS,
            extra_channels=EXTRA_CHANNELS,
        ),
    )


# All 18 channels delivered, the channels beyond CH5 with the longest words they can have: a mode
# channel with an option, ArduPilot's longest function names, readings and ranges of four digits.
EXTRA_CHANNELS = tuple(
    ExtraChannel(
        number,
        pwm=1999,
        min_us=1000,
        max_us=1999,
        role="flight_mode" if number == 6 else None,
        option=176 if number % 2 else 97,
        function="Quadplane Fwd Throttle Override enable"
        if number % 2
        else "Windvane home heading direction offset",
        position=SwitchPosition.MIDDLE,
    )
    for number in range(6, 19)
)


# Every outcome with text of its own, the longest ones first.
STICK_RESULTS = (
    StickResult("throttle", "throttle", "RCMAP_THROTTLE", 3, StickOutcome.CORRECT, 3, 1000, 2000),
    StickResult("roll", "roll", "RCMAP_ROLL", 1, StickOutcome.WRONG_CHANNEL, 2, 1500, 2000),
    StickResult("pitch", "pitch", "RCMAP_PITCH", 2, StickOutcome.REVERSED, 2, 1500, 2000),
    StickResult("yaw", "yaw", "RCMAP_YAW", 4, StickOutcome.SKIPPED),
)


@pytest.fixture
def long_report_base() -> Iterator[Path]:
    """A report base name ``REPORT_PATH_LENGTH`` characters long, in a folder removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="r") as short:
        room = REPORT_PATH_LENGTH - len(str(Path(short) / "x" / "receiver"))
        assert room > 0, f"{short} is too long for a {REPORT_PATH_LENGTH}-character report path"
        yield Path(short) / ("a_folder_with_a_long_name_for_reports_" * 4)[: room + 1] / "receiver"


def assert_reads_whole(root: tk.Tk, when: str) -> None:
    problems = layout_problems(root)
    assert not problems, f"{when}:\n" + "\n".join(problems)


def assert_readings_in_view(view: RCReceiverView, when: str = "") -> None:
    canvas = view.scrolling.canvas
    assert canvas.yview()[0] == 0.0, "the check is scrolled"
    wanted = [view.banner.frame, view.guide.frame, view.guide.off_button, view.guide.on_button]
    wanted += [part for row in (*view.channel_rows, view.rssi_row) for part in (row.name, row.bar, row.value)]
    wanted += [view.present_lamp.title.master, view.reset_button]
    bottom = canvas.winfo_rooty() + canvas.winfo_height()
    hidden = [
        f"{widget} ({widget.winfo_rooty() + widget.winfo_height() - bottom} px below)"
        for widget in wanted
        if not fully_in_view(widget, canvas)
    ]
    assert not hidden, f"not in view without scrolling {when}: {hidden}"


def test_every_guided_step_reads_whole_when_shown_at_each_size_and_language(
    window: StandaloneWindow, long_report_base: Path
) -> None:
    """GIVEN the window on the demo at 1280x720, 1600x900 or its default size, in English or German
    WHEN it shows the demo's own state, then each step of the guided test in turn (with the held
    values, a saved report and a long file name), then the bridge strip opened on three busy links
    THEN no label, button or column header is narrower than it asks for, none reaches past its
    frame, no wrapped label breaks inside a word, no tree scrolls sideways, and the verdict, the
    current step with its buttons, CH1-CH5, RSSI and the receiver status are in view unscrolled."""
    root = window.root
    view = receiver_view(window)
    assert_reads_whole(root, "as the demo left it")
    assert_readings_in_view(view)

    base = demo_state(window)
    # Nothing polls from here on: the view shows only the snapshots drawn below.
    window.host.pause()
    assert view.save_report(str(long_report_base))
    for step in GuideStep:
        view.render(with_step(base, step))
        root.update()
        assert_reads_whole(root, f"at the step {step.name}")
        assert_readings_in_view(view, f"at the step {step.name}")

    window.bridge_panel.on_deactivate()
    window.bridge_panel.toggle()
    window.bridge_panel.render(BUSY_SNAPSHOT)
    root.update()
    root.update()
    assert_reads_whole(root, "with the bridge strip open")


# What a SITL console shows while SITL runs: its own lines and the runner's notes, some long.
SITL_CONSOLE_LINES = (
    ("Setting SIM_RC_FAIL 1", True),
    ("Starting sketch 'ArduCopter'", True),
    ("JSON received: timestamp imu position attitude velocity rc", True),
    ("bind port 5760 for SERIAL0; SERIAL0 on TCP port 5760; bind port 5762 for SERIAL1", True),
    ("Transmitter off: no pulses (SIM_RC_FAIL = 1 on the control link)", False),
    ("SITL confirmed SIM_RC_FAIL = 0.", False),
)


@pytest.mark.parametrize("tk_geometry", ["1280x720"])
def test_the_readings_stay_in_view_with_the_sitl_console_shown(window: StandaloneWindow) -> None:
    """GIVEN the window at 1280x720, in English or German, with the SITL console that `--sitl` adds
    under the step, filled as a running SITL fills it
    WHEN it shows the demo's own state and then each step of the guided test in turn
    THEN the console is closed to its summary line, nothing is clipped, and the verdict, the current
    step with its buttons, CH1-CH5, RSSI and the receiver status stay in view unscrolled."""
    root = window.root
    runner = SitlRunner(SitlConfig(Path("arducopter")))
    for text, from_sitl in SITL_CONSOLE_LINES * 3:
        runner.console.append(text, from_sitl=from_sitl)
    panel = show_console(root, runner, before=window.step_frame)
    panel.refresh()
    root.update()
    root.update()
    view = receiver_view(window)
    assert panel.winfo_ismapped()
    assert panel.winfo_rooty() >= window.step_frame.winfo_rooty() + window.step_frame.winfo_height()
    # A 720 px window gives the room to the check: the console shows its summary, its title opens it.
    assert not panel.expanded
    assert panel.winfo_rooty() + panel.winfo_height() <= root.winfo_rooty() + root.winfo_height()
    assert_reads_whole(root, "with the SITL console")
    assert_readings_in_view(view)

    base = demo_state(window)
    window.host.pause()
    for step in GuideStep:
        view.render(with_step(base, step))
        root.update()
        assert_reads_whole(root, f"with the SITL console at the step {step.name}")
