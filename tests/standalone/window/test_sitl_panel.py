# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The SITL console panel gives the receiver check the room in a low window, and keeps a person's choice.

The panel is real (Tk under Xvfb) and reads a real `SitlRunner` that was never started: its console
log is filled here as SITL's output fills it.
"""

from __future__ import annotations

import tkinter as tk
from pathlib import Path

import pytest

from amc_rc_receiver.sitl.config import SitlConfig
from amc_rc_receiver.sitl.runner import SitlRunner
from amc_rc_receiver.standalone.window.sitl_panel import show_console
from tests.support.tk import pump_until

pytestmark = pytest.mark.tk


def test_the_console_opens_in_a_tall_window_closes_in_a_low_one_and_keeps_the_persons_choice(
    root: tk.Tk,
) -> None:
    """GIVEN the SITL console in a window
    WHEN the window is lower than the height it needs, then taller
    THEN its text is closed (its summary stays), then open;
    WHEN the person closes it by its title THEN it stays closed however tall the window gets."""
    runner = SitlRunner(SitlConfig(Path("arducopter")))
    runner.console.append("Starting sketch 'ArduCopter'")
    panel = show_console(root, runner)
    panel.refresh()
    root.geometry("1280x720")
    assert pump_until(root, lambda: root.winfo_height() == 720 and not panel.expanded)
    assert not panel.body.winfo_ismapped()
    assert panel.status_label.winfo_ismapped()
    assert str(panel.toggle_button.cget("text")).endswith("▸")

    root.geometry("1600x900")
    assert pump_until(root, lambda: root.winfo_height() == 900 and panel.expanded)
    root.update()
    assert panel.body.winfo_ismapped()
    assert "Starting sketch 'ArduCopter'" in panel.text_content()

    panel.toggle_button.invoke()
    root.geometry("1600x1000")
    assert pump_until(root, lambda: root.winfo_height() == 1000)
    assert panel.user_choice is False
    assert not panel.expanded
