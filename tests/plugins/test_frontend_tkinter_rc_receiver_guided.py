# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The guided test on real Tk widgets: verdict banner, roles, held-values tint, guide buttons, report.

Hand-made snapshots show what each part draws; the last tests drive the view with the real data
model against a scripted vehicle over loopback UDP.
"""

from __future__ import annotations

import json
import tkinter as tk
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest
from pytest_mock import MockerFixture

import amc_rc_receiver
from amc_rc_receiver.plugins.frontend_tkinter_rc_receiver import RCReceiverView
from amc_rc_receiver.plugins.rc_receiver.firmware import VehicleFamily
from amc_rc_receiver.plugins.rc_receiver.guide import HOLD_S as EVIDENCE_HOLD_S
from amc_rc_receiver.plugins.rc_receiver.snapshot import (
    ChannelEvidence,
    FailsafeStatus,
    FlightModeReading,
    GuidedTest,
    GuideState,
    GuideStep,
    RCReceiverState,
    StickPrompt,
    SwitchPrompt,
    Verdict,
    VerdictResult,
)
from amc_rc_receiver.plugins.rc_receiver_tk.widgets import (
    BANNER_COLOURS,
    GIMBAL_PX,
    HEIGHT_PX,
    HELD_BAR_STYLE,
    PUSHED_COLOUR,
    WIDTH_PX,
)
from tests.plugins.data_model_rc_receiver_harness import COPTER, ModelHarness, move_every_stick
from tests.plugins.frontend_tkinter_rc_receiver_harness import ScriptedModel, live_state
from tests.support.tk import packed, pump_until

pytestmark = pytest.mark.tk

SCHEMA_FILE = Path(amc_rc_receiver.__file__).parent / "data" / "rc_receiver_report.schema.json"


@pytest.fixture
def tk_geometry() -> str:
    return "900x900"


def with_check(**fields: object) -> RCReceiverState:
    return replace(live_state(), guided=GuidedTest(**fields))  # type: ignore[arg-type]


@pytest.mark.parametrize("result", list(VerdictResult))
def test_the_verdict_banner_shows_the_result_and_its_detail_in_its_colour(
    root: tk.Tk, result: VerdictResult
) -> None:
    """
    GIVEN a snapshot whose verdict is PASSED, INCOMPLETE or FAILED
    WHEN the view renders it
    THEN the banner above the status says the result and the detail, on green, orange or red
    """
    verdict = Verdict(result, result.value, f"detail of {result.value}")
    view = packed(RCReceiverView(root, ScriptedModel(with_check(verdict=verdict))))
    view.render(with_check(verdict=verdict))
    root.update()

    assert view.banner.headline.cget("text") == result.value
    assert view.banner.detail.cget("text") == f"detail of {result.value}"
    assert str(view.banner.frame.cget("background")) == BANNER_COLOURS[result][0]
    # Above the receiver status on screen.
    assert view.banner.frame.winfo_rooty() < view.present_lamp.title.winfo_rooty()


def test_bars_carry_their_roles_ranges_and_the_flight_mode_slot(root: tk.Tk) -> None:
    """
    GIVEN channels with roles and ranges, and the mode channel in slot 3 (LOITER)
    WHEN rendered
    THEN each bar row names its role and shows "moved low–high" or its span, and the mode line says
         the channel, PWM, slot and mode
    """
    channels = (
        ChannelEvidence(1, "roll", 1500, 1100, 1900, moved=True, is_stick=True),
        ChannelEvidence(2, "pitch", 1500, 1480, 1520, moved=False, is_stick=True),
        ChannelEvidence(5, "flight_mode", 1400, 1400, 1400),
    )
    mode = FlightModeReading(channel=5, pwm=1400, slot=3, mode_number=5, mode_name="LOITER")
    view = packed(RCReceiverView(root, ScriptedModel()))
    view.render(with_check(channels=channels, flight_mode=mode))

    assert view.roles.roles[0].cget("text") == "Roll"
    assert view.roles.spans[0].cget("text") == "moved 1100–1900"
    assert view.roles.roles[1].cget("text") == "Pitch"
    assert view.roles.spans[1].cget("text") == "span 40 µs"
    assert view.roles.roles[4].cget("text") == "Flight mode"
    assert view.roles.flight_mode.cget("text") == "Flight mode channel CH5: 1400 µs, slot 3: LOITER"


def test_while_rc_failsafe_is_active_the_bars_are_tinted_and_said_to_be_held(root: tk.Tk) -> None:
    """
    GIVEN live channels
    WHEN RC failsafe becomes active, and later clears
    THEN the bars take the held-values style with a note that the values are the last ones held,
         not live input; afterwards the normal style returns and the note goes
    """
    view = packed(RCReceiverView(root, ScriptedModel()))
    view.render(live_state())
    view.render(live_state(failsafe=FailsafeStatus.ACTIVE))
    assert all(str(row.bar.cget("style")) == HELD_BAR_STYLE for row in view.channel_rows)
    assert "last values held, not live input" in view.roles.held_note.cget("text")

    view.render(live_state(failsafe=FailsafeStatus.NOT_ACTIVE))
    assert all(str(row.bar.cget("style")) != HELD_BAR_STYLE for row in view.channel_rows)
    assert view.roles.held_note.cget("text") == ""


@pytest.mark.parametrize(
    ("step", "automatic", "off", "on"),
    [
        (GuideStep.SWITCH_OFF, False, "normal", "disabled"),
        (GuideStep.SWITCH_ON, False, "disabled", "normal"),
        (GuideStep.WAIT_FAILSAFE, False, "disabled", "disabled"),
        (GuideStep.SWITCH_OFF, True, "disabled", "disabled"),
    ],
)
def test_the_guide_asks_for_the_button_its_step_needs(
    root: tk.Tk, step: GuideStep, automatic: bool, off: str, on: str
) -> None:
    """
    GIVEN a guide step, with a person's or the program's transmitter
    WHEN rendered
    THEN only the confirmation that step needs is enabled; a program-owned transmitter asks nothing
    """
    view = packed(RCReceiverView(root, ScriptedModel()))
    view.render(with_check(guide=GuideState(step=step, automatic=automatic)))
    assert str(view.guide.off_button.cget("state")) == off
    assert str(view.guide.on_button.cget("state")) == on
    assert view.guide.instruction.cget("text")


def pushed_dot(view: RCReceiverView) -> tuple[float, float] | None:
    """The centre of the stick picture's blue (pushed) dot, if one is drawn."""
    canvas = view.guide.picture.canvas
    for item in canvas.find_all():
        if canvas.type(item) == "oval" and canvas.itemcget(item, "fill") == PUSHED_COLOUR:
            left, top, right, bottom = canvas.coords(item)
            return (left + right) / 2, (top + bottom) / 2
    return None


@pytest.mark.parametrize(
    ("axis", "where"),
    [("throttle", "left top"), ("roll", "right right"), ("pitch", "right top"), ("yaw", "left right")],
)
def test_the_stick_step_shows_the_stick_to_push_and_lets_a_person_skip_it(
    root: tk.Tk, axis: str, where: str
) -> None:
    """
    GIVEN the stick step asking a person for one stick
    WHEN rendered and "Skip this stick" is pressed
    THEN the instruction names the stick, the picture pushes that stick of a mode 2 transmitter its
         way (throttle and pitch up, roll and yaw right), and the press reaches the model
    """
    model = ScriptedModel()
    view = packed(RCReceiverView(root, model))
    prompt = StickPrompt(axis, 2, 4)
    guide = GuideState(GuideStep.MOVE_STICKS, stick=prompt)
    view.render(with_check(family=VehicleFamily.COPTER, guide=guide))
    root.update_idletasks()

    assert f"push the {axis} stick" in view.guide.instruction.cget("text")
    assert str(view.guide.skip_button.cget("state")) == "normal"
    dot = pushed_dot(view)
    assert dot is not None
    side, direction = where.split()
    middle_x = WIDTH_PX / 2
    gimbal_centre_y = HEIGHT_PX / 2
    assert (dot[0] > middle_x) == (side == "right")
    if direction == "top":
        assert dot[1] < gimbal_centre_y - GIMBAL_PX / 4
    else:
        assert dot[0] > (middle_x + GIMBAL_PX if side == "right" else GIMBAL_PX * 0.75)
    view.guide.skip_button.invoke()
    assert "skip_stick" in model.calls


@pytest.mark.parametrize("by_program", [False, True])
def test_a_person_may_skip_the_switch_step_and_the_program_does_its_own(
    root: tk.Tk, by_program: bool
) -> None:
    """
    GIVEN the switch step (the mode switch through its slots, each aux switch once), asked of a
          person or done by the program's own transmitter
    WHEN rendered and the skip button pressed
    THEN for the person the button says "Skip the switches", is enabled and reaches the model;
         for the program there is nothing to skip
    """
    model = ScriptedModel()
    view = packed(RCReceiverView(root, model))
    switches = SwitchPrompt(mode_channel=5, slots_seen=(1, 3), by_program=by_program)
    view.render(
        with_check(family=VehicleFamily.COPTER, guide=GuideState(GuideStep.FLIP_SWITCHES, switches=switches))
    )
    root.update_idletasks()
    button = view.guide.skip_button
    assert str(button.cget("text")) == "Skip the switches"
    assert (str(button.cget("state")) == "normal") is not by_program
    if not by_program:
        button.invoke()
        assert "skip_stick" in model.calls


def test_a_program_moving_its_sticks_asks_nothing_and_shows_them_resting_first(root: tk.Tk) -> None:
    """
    GIVEN the stick step while the program rests its sticks before pushing the next one
    WHEN rendered
    THEN there is nothing to skip, the instruction says the program centres its sticks, and no stick
         is drawn pushed
    """
    view = packed(RCReceiverView(root, ScriptedModel()))
    prompt = StickPrompt("pitch", 3, 4, by_program=True, pushed=False)
    view.render(with_check(guide=GuideState(GuideStep.MOVE_STICKS, automatic=True, stick=prompt)))

    assert str(view.guide.skip_button.cget("state")) == "disabled"
    assert "the program centres its sticks" in view.guide.instruction.cget("text")
    assert pushed_dot(view) is None


@pytest.fixture
def harness() -> Iterator[ModelHarness]:
    with ModelHarness() as created:
        yield created


def test_it_is_off_and_it_is_on_drive_a_real_test_to_a_passed_banner_and_a_saved_report(
    root: tk.Tk, harness: ModelHarness, tmp_path: Path
) -> None:
    """
    GIVEN the view over the real model and a scripted vehicle with its parameters read and every
          stick moved
    WHEN the user presses "It is off", the vehicle reports failsafe, the user presses "It is on",
         the failsafe clears, and the user saves the report
    THEN the banner reads PASSED, and the saved JSON validates against the schema
    """
    harness.vehicle.parameters = dict(COPTER)
    view = packed(RCReceiverView(root, harness.model, tick_ms=10))
    view.on_activate()
    assert pump_until(root, lambda: harness.model.state.guided.parameters_complete)
    move_every_stick(harness)
    assert pump_until(root, lambda: str(view.guide.off_button.cget("state")) == "normal")

    view.guide.off_button.invoke()
    harness.clock.advance(1.0)
    for _report in range(2):  # the failsafe, and still the failsafe once it held
        harness.vehicle.send_rc_channels([1900] * 5, chancount=8, rssi=180)
        harness.vehicle.send_sys_status(present=True, enabled=True, healthy=False)
        assert pump_until(root, lambda: harness.model.state.failsafe is FailsafeStatus.ACTIVE)
        harness.clock.advance(EVIDENCE_HOLD_S)
    assert pump_until(root, lambda: str(view.guide.on_button.cget("state")) == "normal")
    view.guide.on_button.invoke()
    for _report in range(2):
        harness.vehicle.send_rc_channels([1900] * 5, chancount=8, rssi=180)
        harness.vehicle.send_sys_status(present=True, enabled=True, healthy=True)
        assert pump_until(root, lambda: harness.model.state.failsafe is FailsafeStatus.NOT_ACTIVE)
        harness.clock.advance(EVIDENCE_HOLD_S)
    assert pump_until(root, lambda: view.banner.headline.cget("text") == "PASSED")

    assert view.save_report(str(tmp_path / "evidence"))
    report = json.loads((tmp_path / "evidence.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))).validate(report)
    assert report["verdict"]["result"] == "PASSED"
    assert "Report saved" in view.guide.saved.cget("text")
    view.on_deactivate()


@pytest.mark.parametrize(("answer", "replaced"), [(False, False), (True, True)])
def test_saving_over_an_older_report_asks_before_replacing_the_file_the_dialog_did_not_name(
    root: tk.Tk, tmp_path: Path, answer: bool, replaced: bool
) -> None:
    """GIVEN an older evidence.json and evidence.md, and the file dialog returning evidence.json
         (the dialog itself confirms only that name)
    WHEN the user presses "Save report…"
    THEN the view asks about both existing files and replaces them only if the user agrees.
    """
    for suffix in (".json", ".md"):
        (tmp_path / f"evidence{suffix}").write_text("old", encoding="utf-8")
    view = packed(RCReceiverView(root, ScriptedModel(live_state())))
    asked: list[tuple[Path, ...]] = []
    view.ask_report_path = lambda: str(tmp_path / "evidence.json")

    def confirm(files: tuple[Path, ...]) -> bool:
        asked.append(files)
        return answer

    view.confirm_replace = confirm
    view.guide.save_button.invoke()

    assert asked == [(tmp_path / "evidence.json", tmp_path / "evidence.md")]
    markdown = (tmp_path / "evidence.md").read_text(encoding="utf-8")
    assert (markdown != "old") is replaced


def test_saving_where_no_report_is_asks_nothing(root: tk.Tk, tmp_path: Path) -> None:
    """GIVEN no report at the picked name WHEN saved THEN no question, and both files are written."""
    view = packed(RCReceiverView(root, ScriptedModel(live_state())))
    view.ask_report_path = lambda: str(tmp_path / "evidence.json")
    view.confirm_replace = lambda files: pytest.fail(f"asked about {files}")

    view.guide.save_button.invoke()

    assert (tmp_path / "evidence.md").is_file()
    assert "Report saved" in view.guide.saved.cget("text")


def test_the_replace_question_names_every_existing_file(
    root: tk.Tk, tmp_path: Path, mocker: MockerFixture
) -> None:
    """GIVEN the view's own question WHEN asked about two files THEN a yes/no box lists both names."""
    askyesno = mocker.patch("tkinter.messagebox.askyesno", return_value=False)
    view = packed(RCReceiverView(root, ScriptedModel(live_state())))

    files = (tmp_path / "evidence.json", tmp_path / "evidence.md")
    assert view.confirm_replace(files) is False

    message = askyesno.call_args.kwargs["message"]
    assert str(files[0]) in message
    assert str(files[1]) in message
