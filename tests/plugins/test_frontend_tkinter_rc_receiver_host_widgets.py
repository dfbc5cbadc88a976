# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The receiver view uses the host's widgets where the methodic configurator 5.0.1 offers them:
it scrolls in ``ScrollFrame`` and its buttons carry tooltips made by ``show_tooltip``, worded by
``rc_receiver.wording``.  Outside the methodic configurator these are our twins (inside it,
5.0.1's own: tests/integration/test_methodic_configurator_501.py).
"""

from __future__ import annotations

import tkinter as tk

import pytest

from amc_rc_receiver import frontend_tkinter_scroll_frame, frontend_tkinter_show
from amc_rc_receiver.plugins.frontend_tkinter_rc_receiver import RCReceiverView
from amc_rc_receiver.plugins.rc_receiver.wording.tk_view import button_tooltip
from tests.plugins.frontend_tkinter_rc_receiver_harness import ScriptedModel, live_state
from tests.support.tk import packed

pytestmark = pytest.mark.tk


@pytest.fixture
def tk_geometry() -> str:
    return "700x300"


@pytest.fixture
def view(root: tk.Tk) -> RCReceiverView:
    widget = packed(RCReceiverView(root, ScriptedModel(live_state()), tick_ms=10))
    widget.render(live_state())
    root.update()
    return widget


def test_the_view_scrolls_in_the_hosts_scroll_frame(view: RCReceiverView) -> None:
    """GIVEN the view built outside the methodic configurator
    WHEN its scrolling area is looked at
    THEN it is the ScrollFrame of the module at 5.0.1's path, and the view's content is its view port."""
    scrolling = view.scrolling

    assert type(scrolling) is frontend_tkinter_scroll_frame.ScrollFrame
    assert str(view.channel_rows[0].bar).startswith(str(scrolling.view_port))


def test_the_content_starts_at_the_corner_and_fills_the_width(view: RCReceiverView) -> None:
    """GIVEN the view in its scroll frame
    WHEN it is laid out
    THEN its content sits at the canvas's corner and is exactly as wide as the canvas."""
    scrolling = view.scrolling

    assert scrolling.canvas.coords(scrolling.canvas_window) == [0.0, 0.0]
    assert scrolling.view_port.winfo_width() == scrolling.canvas.winfo_width()


def test_the_guided_test_and_reset_buttons_carry_the_hosts_tooltips_in_wording_s_words(
    view: RCReceiverView,
) -> None:
    """GIVEN the view
    WHEN its buttons' tooltips are looked at
    THEN "It is off", "It is on", "Skip this stick", "Save report…" and "Start a new test" each have
    one, made by show_tooltip of the module at 5.0.1's path, saying what wording gives for it."""
    buttons = {
        "off": view.guide.off_button,
        "on": view.guide.on_button,
        "skip": view.guide.skip_button,
        "save": view.guide.save_button,
        "reset": view.reset_button,
    }
    tooltips = view.tooltips

    assert set(tooltips) == set(buttons)
    for name, tooltip in tooltips.items():
        assert isinstance(tooltip, frontend_tkinter_show.Tooltip)
        assert tooltip.widget is buttons[name]
        assert tooltip.text == button_tooltip(name)  # type: ignore[arg-type]


def test_a_resting_pointer_shows_the_reset_buttons_tooltip(root: tk.Tk, view: RCReceiverView) -> None:
    """GIVEN the view
    WHEN the reset button's tooltip is asked to show, then the pointer leaves the button
    THEN the tooltip shows what "Start a new test" does, and goes again."""
    tooltip = view.tooltips["reset"]
    assert isinstance(tooltip, frontend_tkinter_show.Tooltip)

    tooltip.show()
    root.update()
    shown = tooltip.shown
    view.reset_button.event_generate("<Leave>")
    root.update()

    assert shown
    assert not tooltip.shown
