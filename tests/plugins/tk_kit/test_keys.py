# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The receiver check by keyboard, on real Tk widgets: the terminal's keys press the guided test's
buttons, the letter is underlined in every language, the focused button shows and is scrolled into
view, and nothing of it stays bound once the view is gone.

Key presses are real Tk events (``event_generate``) sent to a widget that has the focus.
"""

from __future__ import annotations

import tkinter as tk
from dataclasses import replace
from tkinter import ttk

import pytest

from amc_rc_receiver.plugins.frontend_tkinter_rc_receiver import RCReceiverView
from amc_rc_receiver.plugins.rc_receiver.guide import KEY_OFF, KEY_ON, KEY_RESET, KEY_SKIP
from amc_rc_receiver.plugins.rc_receiver.snapshot import (
    GuidedTest,
    GuideState,
    GuideStep,
    RCReceiverState,
    StickPrompt,
)
from amc_rc_receiver.plugins.tk_kit.keys import (
    BUTTON_STYLE,
    FOCUS_THICKNESS,
    access_label,
)
from amc_rc_receiver.plugins.tk_kit.scrolling import ScrollableFrame
from amc_rc_receiver.standalone.terminal import prompter as terminal_prompter
from tests.plugins.frontend_tkinter_rc_receiver_harness import ScriptedModel, live_state
from tests.support.tk import packed

pytestmark = pytest.mark.tk


class ConfirmingModel(ScriptedModel):
    """The scripted model, also recording the person's confirmations."""

    def confirm_transmitter(self, on: bool) -> None:
        self.calls.append(f"confirm {'on' if on else 'off'}")


@pytest.fixture
def tk_geometry() -> str:
    return "900x700"


def at_step(step: GuideStep) -> RCReceiverState:
    return replace(live_state(), guided=GuidedTest(guide=GuideState(step=step)))


def shown_view(root: tk.Tk, state: RCReceiverState) -> tuple[RCReceiverView, ConfirmingModel]:
    model = ConfirmingModel(state)
    view = packed(RCReceiverView(root, model))
    view.render(state)
    root.update()
    return view, model


def press(widget: tk.Misc, sequence: str) -> None:
    widget.focus_force()
    widget.update()
    widget.event_generate(sequence)
    widget.update()


@pytest.mark.parametrize(
    ("text", "key", "shown", "underline"),
    [
        ("It is off", "o", "It is off", 6),
        ("It is on", "i", "It is on", 0),
        ("Start a new test", "r", "Start a new test", 3),
        ("Er ist an", "i", "Er ist an", 3),
        ("Er ist aus", "o", "Er ist aus (O)", 12),
    ],
)
def test_the_access_letter_is_underlined_where_the_label_has_it_else_added_when_labelled(
    text: str, key: str, shown: str, underline: int
) -> None:
    """GIVEN a button label in some language and its key WHEN labelled THEN a word starting with the
    letter is preferred, then any occurrence, and a label without it gets "(K)" added."""
    assert access_label(text, key) == (shown, underline)
    assert shown[underline].lower() == key


def test_the_windows_keys_are_the_terminal_views_keys_when_compared() -> None:
    """GIVEN the terminal view's keys WHEN compared with the window's THEN they are the same letters."""
    assert (KEY_OFF, KEY_ON, KEY_SKIP, KEY_RESET) == (
        terminal_prompter.KEY_OFF,
        terminal_prompter.KEY_ON,
        terminal_prompter.KEY_SKIP,
        terminal_prompter.KEY_RESET,
    )
    assert len({KEY_OFF, KEY_ON, KEY_SKIP, KEY_RESET, terminal_prompter.KEY_QUIT}) == 5


def test_the_guided_buttons_are_labelled_with_their_keys_when_shown(root: tk.Tk) -> None:
    """GIVEN the view WHEN shown THEN "It is off", "It is on", "Skip this stick" and "Start a new
    test" underline o, i, s and r, and those keys (either case) press them."""
    view, _model = shown_view(root, at_step(GuideStep.SWITCH_OFF))

    for button, key in (
        (view.guide.off_button, KEY_OFF),
        (view.guide.on_button, KEY_ON),
        (view.guide.skip_button, KEY_SKIP),
        (view.reset_button, KEY_RESET),
    ):
        index = int(button.cget("underline"))
        assert str(button.cget("text"))[index].lower() == key
        assert view.access_keys[key] is button
        assert view.access_keys[key.upper()] is button


def test_alt_and_the_key_press_an_enabled_button_when_the_focus_is_anywhere_in_the_window(
    root: tk.Tk,
) -> None:
    """GIVEN the step that asks to switch the transmitter off, and a widget outside the view that has
    the focus WHEN Alt+O is pressed THEN "It is off" is pressed (the model hears the confirmation)."""
    outside = ttk.Entry(root)
    outside.pack()
    _view, model = shown_view(root, at_step(GuideStep.SWITCH_OFF))

    press(outside, "<Alt-KeyPress-o>")

    assert model.calls[-1] == "confirm off"


def test_the_key_alone_presses_the_button_when_the_focus_is_inside_the_check(root: tk.Tk) -> None:
    """GIVEN the step that asks to switch the transmitter on, the focus on "Start a new test"
    WHEN i is pressed THEN "It is on" is pressed; WHEN r is pressed THEN a new test starts."""
    view, model = shown_view(root, at_step(GuideStep.SWITCH_ON))

    press(view.reset_button, "<KeyPress-i>")
    assert model.calls[-1] == "confirm on"
    press(view.reset_button, "<KeyPress-r>")
    assert model.calls[-1] == "reset_test"


def test_s_skips_the_stick_a_person_is_asked_for_when_pressed_inside_the_check(root: tk.Tk) -> None:
    """GIVEN the stick step asking a person for the pitch stick, the focus on "Start a new test"
    WHEN s is pressed THEN the stick is skipped (the model hears it)."""
    state = replace(
        live_state(),
        guided=GuidedTest(guide=GuideState(step=GuideStep.MOVE_STICKS, stick=StickPrompt("pitch", 3, 4))),
    )
    view, model = shown_view(root, state)

    press(view.reset_button, "<KeyPress-s>")

    assert model.calls[-1] == "skip_stick"


def test_the_key_of_a_disabled_button_does_nothing_when_pressed(root: tk.Tk) -> None:
    """GIVEN the step that asks to move the sticks (so "It is on" is disabled)
    WHEN Alt+I is pressed THEN nothing is confirmed."""
    view, model = shown_view(root, at_step(GuideStep.MOVE_STICKS))
    assert str(view.guide.on_button.cget("state")) == "disabled"

    press(view.guide.off_button, "<Alt-KeyPress-i>")

    assert not any(call.startswith("confirm") for call in model.calls)


def test_a_gone_view_leaves_the_hosts_own_alt_binding_and_none_of_its_own_when_destroyed(
    root: tk.Tk,
) -> None:
    """GIVEN a host that binds Alt+O on its window itself, and the view beside it
    WHEN the view is destroyed THEN the host's binding still runs and the view's is gone."""
    heard: list[str] = []
    root.bind("<Alt-KeyPress-o>", lambda _event: heard.append("host"), add="+")
    outside = ttk.Entry(root)
    outside.pack()
    view, model = shown_view(root, at_step(GuideStep.SWITCH_OFF))
    view.destroy()
    root.update()

    press(outside, "<Alt-KeyPress-o>")

    assert heard == ["host"]
    assert not any(call.startswith("confirm") for call in model.calls)


def test_the_checks_buttons_wear_a_thick_coloured_focus_ring_when_styled(root: tk.Tk) -> None:
    """GIVEN the view WHEN shown THEN its buttons use the style whose focus ring is thick and coloured,
    leaving the theme's own button style to the host."""
    view, _model = shown_view(root, at_step(GuideStep.SWITCH_OFF))
    style = ttk.Style(root)

    for button in (view.guide.off_button, view.guide.on_button, view.guide.save_button, view.reset_button):
        assert str(button.cget("style")) == BUTTON_STYLE
    assert int(style.lookup(BUTTON_STYLE, "focusthickness")) == FOCUS_THICKNESS >= 2
    assert style.lookup(BUTTON_STYLE, "focuscolor")
    assert not style.lookup("TButton", "focusthickness")


def test_a_focused_button_below_the_visible_area_is_scrolled_into_view_when_focused(root: tk.Tk) -> None:
    """GIVEN a short scrolling area whose last button is below what it shows
    WHEN that button takes the focus THEN the area scrolls until the whole button is in view."""
    root.geometry("300x200")
    area = packed(ScrollableFrame(root))
    for row in range(30):
        ttk.Label(area.interior, text=f"line {row}").pack(anchor=tk.W)
    button = ttk.Button(area.interior, text="far below")
    button.pack(anchor=tk.W)
    button.bind("<FocusIn>", lambda _event: area.see(button), add="+")
    root.update()
    assert area.canvas.yview()[0] == 0.0

    button.focus_force()
    root.update()

    top = button.winfo_rooty() - area.canvas.winfo_rooty()
    assert top >= 0
    assert top + button.winfo_height() <= area.canvas.winfo_height()


def test_the_checks_own_focused_control_is_brought_into_view_when_tabbed_to(root: tk.Tk) -> None:
    """GIVEN the view in a window too short for it, scrolled to its end
    WHEN "It is off" takes the focus THEN the view scrolls back until the button is in view."""
    root.geometry("900x300")
    view, _model = shown_view(root, at_step(GuideStep.SWITCH_OFF))
    canvas = view.scrolling.canvas
    canvas.yview_moveto(1.0)
    root.update()
    button = view.guide.off_button
    assert button.winfo_rooty() + button.winfo_height() <= canvas.winfo_rooty()

    button.focus_force()
    root.update()

    assert button.winfo_rooty() >= canvas.winfo_rooty()
    assert button.winfo_rooty() + button.winfo_height() <= canvas.winfo_rooty() + canvas.winfo_height()
