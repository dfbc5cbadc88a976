# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window by keyboard alone, on the real window and the embedded demo under Xvfb: Tab reaches
every control in reading order (top bar, the receiver check, the parameter table, the bridge
strip; within each, line by line and left to right), and the guided test's buttons answer the
terminal view's keys with Alt from anywhere in the window.
"""

from __future__ import annotations

import itertools
import tkinter as tk
from collections.abc import Iterator
from tkinter import ttk

import pytest

from amc_rc_receiver.plugins.frontend_tkinter_rc_receiver import RCReceiverView
from amc_rc_receiver.plugins.rc_receiver.guide import KEY_OFF
from amc_rc_receiver.standalone.options import DEMO_DEVICE
from amc_rc_receiver.standalone.session import VehicleSession
from amc_rc_receiver.standalone.window.geometry import DEFAULT_GEOMETRY
from amc_rc_receiver.standalone.window.window import StandaloneWindow
from tests.support.geometry import shown_widgets
from tests.support.tk import pump_until

pytestmark = pytest.mark.tk

CONTROL_CLASSES = frozenset({"TButton", "TCheckbutton", "TCombobox", "TEntry", "Treeview", "Text"})
DEADLINE_S = 30.0


@pytest.fixture
def tk_geometry() -> str:
    return DEFAULT_GEOMETRY


@pytest.fixture
def window(root: tk.Tk) -> Iterator[StandaloneWindow]:
    """The window at its default size on the demo, the person's own transmitter test waiting."""
    built = StandaloneWindow(root, VehicleSession(), port_lister=list, connect_timeout=5.0)
    built.connect(DEMO_DEVICE)

    def ready() -> bool:
        view = built.host.active_view
        return (
            not built.is_connecting
            and isinstance(view, RCReceiverView)
            and str(view.guide.off_button.cget("state")) == "normal"
        )

    assert pump_until(root, ready, DEADLINE_S), "the demo did not reach the step that asks for 'It is off'"
    built.bridge_panel.toggle()
    root.update()
    yield built
    built.close()


def controls(root: tk.Misc) -> list[tk.Misc]:
    """Every shown, enabled control a person can reach."""
    found = []
    for widget in shown_widgets(root):
        if str(widget.winfo_class()) not in CONTROL_CLASSES:
            continue
        if isinstance(widget, ttk.Widget) and widget.instate(["disabled"]):
            continue
        found.append(widget)
    return found


def tab_cycle(start: tk.Misc) -> list[tk.Misc]:
    """The widgets Tab visits from ``start`` until it comes back to it."""
    visited = [start]
    current = start
    while True:
        current = current.tk_focusNext()
        if current is None or current is start or len(visited) > 200:
            return visited
        visited.append(current)


def region(window: StandaloneWindow, widget: tk.Misc) -> int:
    """Which part of the window holds ``widget``, in reading order."""
    layout = window.host.layout
    assert layout is not None
    assert layout.plugin_frame is not None
    parts = (
        window.vehicle_combobox.master.master,
        layout.plugin_frame,
        layout.content_frame,
        window.bridge_frame,
    )
    current: tk.Misc | None = widget
    while current is not None:
        if current in parts:
            return parts.index(current)
        current = current.master
    raise AssertionError(f"{widget} is in no part of the window")


def reads_before(first: tk.Misc, second: tk.Misc) -> bool:
    """``first`` is above ``second``, or on the same line and to its left."""
    first_bottom = first.winfo_rooty() + first.winfo_height()
    second_bottom = second.winfo_rooty() + second.winfo_height()
    if first_bottom <= second.winfo_rooty():
        return True
    same_line = first.winfo_rooty() < second_bottom and second.winfo_rooty() < first_bottom
    return same_line and first.winfo_rootx() < second.winfo_rootx()


def test_tab_reaches_every_control_in_reading_order_when_pressed_again_and_again(
    window: StandaloneWindow,
) -> None:
    """GIVEN the window on the demo with the bridge strip open WHEN Tab is pressed from the first
    control until it comes back THEN every shown, enabled control was reached once, part by part in
    reading order, and within a part line by line, left to right."""
    root = window.root
    visited = tab_cycle(window.vehicle_combobox)

    assert sorted(map(str, visited)) == sorted(map(str, controls(root)))
    view = window.host.active_view
    assert isinstance(view, RCReceiverView)
    assert view.guide.off_button in visited
    assert view.reset_button in visited
    regions = [region(window, widget) for widget in visited]
    assert regions == sorted(regions), [str(widget) for widget in visited]
    for first, second in itertools.pairwise(visited):
        if region(window, first) == region(window, second):
            assert reads_before(first, second), f"Tab goes from {first} back to {second}"


def test_alt_o_answers_it_is_off_from_the_device_field_when_the_test_asks_for_it(
    window: StandaloneWindow,
) -> None:
    """GIVEN the demo's test waiting for "It is off" and the focus in the device field
    WHEN Alt+O is pressed THEN the check takes the transmitter as off and moves on."""
    view = window.host.active_view
    assert isinstance(view, RCReceiverView)
    field = window.connection_bar.device_combobox
    field.focus_force()
    window.root.update()

    field.event_generate(f"<Alt-KeyPress-{KEY_OFF}>")

    assert pump_until(window.root, lambda: str(view.guide.off_button.cget("state")) == "disabled", DEADLINE_S)
