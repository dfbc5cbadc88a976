# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Our twin of the methodic configurator's ``show_tooltip``, on real Tk widgets: a fixed text that
shows once the pointer rests on the widget and goes when it leaves.

Pointer crossings are real Tk events (``event_generate``).
"""

from __future__ import annotations

import time
import tkinter as tk
from tkinter import ttk

import pytest

from amc_rc_receiver.frontend_tkinter_show import SHOW_AFTER_MS, Tooltip, show_tooltip

pytestmark = pytest.mark.tk


def pump_until(root: tk.Tk, condition: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        root.update()
        if callable(condition) and condition():
            return True
        time.sleep(0.01)
    return False


def test_a_tooltip_shows_its_text_below_the_widget_after_the_pointer_rests_on_it(root: tk.Tk) -> None:
    """GIVEN a button with show_tooltip(button, text)
    WHEN the pointer enters it and rests
    THEN nothing shows at once; after the delay the text shows just below the button."""
    button = ttk.Button(root, text="It is off")
    button.pack(padx=20, pady=20)
    tooltip = show_tooltip(button, "Press once the transmitter is off.")
    root.update()
    assert isinstance(tooltip, Tooltip)

    button.event_generate("<Enter>")
    root.update()
    assert not tooltip.shown

    assert pump_until(root, lambda: tooltip.shown, 5 * SHOW_AFTER_MS / 1000)
    assert tooltip.tooltip is not None
    assert tooltip.tooltip.winfo_rooty() >= button.winfo_rooty() + button.winfo_height()
    labels = tooltip.tooltip.winfo_children()
    assert [str(label.cget("text")) for label in labels] == ["Press once the transmitter is off."]


def test_a_tooltip_goes_when_the_pointer_leaves_or_clicks(root: tk.Tk) -> None:
    """GIVEN a shown tooltip
    WHEN the pointer leaves the widget, and, shown again, when the widget is clicked
    THEN the tooltip goes each time."""
    button = ttk.Button(root, text="It is on")
    button.pack()
    tooltip = show_tooltip(button, "Press once the transmitter is on.")
    root.update()

    tooltip.show()
    root.update()
    assert tooltip.shown
    button.event_generate("<Leave>")
    root.update()
    assert not tooltip.shown

    tooltip.show()
    root.update()
    button.event_generate("<ButtonPress-1>")
    root.update()
    assert not tooltip.shown


def test_leaving_before_the_delay_shows_nothing(root: tk.Tk) -> None:
    """GIVEN a button with a tooltip
    WHEN the pointer enters and leaves again at once
    THEN the tooltip never shows."""
    button = ttk.Button(root, text="Skip")
    button.pack()
    tooltip = show_tooltip(button, "Pass over this stick.")
    root.update()

    button.event_generate("<Enter>")
    button.event_generate("<Leave>")

    assert not pump_until(root, lambda: tooltip.shown, 3 * SHOW_AFTER_MS / 1000)


def test_the_tooltip_window_goes_with_its_widget(root: tk.Tk) -> None:
    """GIVEN a shown tooltip
    WHEN its widget is destroyed
    THEN its window is destroyed too."""
    button = ttk.Button(root, text="Save")
    button.pack()
    tooltip = show_tooltip(button, "Write the report.", position_below=False)
    tooltip.show()
    root.update()
    window = tooltip.tooltip
    assert window is not None

    button.destroy()
    root.update()

    assert tooltip.tooltip is None
    assert not window.winfo_exists()
