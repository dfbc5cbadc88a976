# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""How the receiver view shares its room, on real Tk widgets fed hand-made snapshots: a second
column for the findings once it is wide enough, no height for lines with nothing to say, columns
that do not move as their values change.
"""

from __future__ import annotations

import tkinter as tk
from dataclasses import replace

import pytest

from amc_rc_receiver.plugins.frontend_tkinter_rc_receiver import RCReceiverView
from amc_rc_receiver.plugins.rc_receiver.snapshot import ChannelReading, FailsafeStatus, RCReceiverState
from tests.plugins.frontend_tkinter_rc_receiver_harness import ScriptedModel, live_state
from tests.support.tk import packed, pump_until

pytestmark = pytest.mark.tk


@pytest.fixture
def tk_geometry() -> str:
    return "1200x800"


def shown(root: tk.Tk, state: RCReceiverState) -> RCReceiverView:
    view = packed(RCReceiverView(root, ScriptedModel(state)))
    view.render(state)
    root.update()
    return view


def beside(left: tk.Misc, right: tk.Misc) -> bool:
    return right.winfo_rootx() >= left.winfo_rootx() + left.winfo_width()


def test_the_findings_stand_beside_the_readings_when_the_view_is_wide_and_below_when_narrow(
    root: tk.Tk,
) -> None:
    """GIVEN the view 1200 px wide WHEN shown THEN the findings and streams stand in a column beside
    the channels and the receiver status; WHEN the window narrows to 760 px THEN they follow below
    the receiver status, and the verdict spans the view either way."""
    view = shown(root, live_state())
    channels = view.channel_rows[0].name.master
    status = view.present_lamp.title.master
    assert view.two_columns
    assert beside(channels, view.findings.frame)
    assert view.findings.frame.winfo_rooty() < status.winfo_rooty()

    root.geometry("760x800")
    assert pump_until(root, lambda: not view.two_columns)
    root.update()
    assert view.findings.frame.winfo_rooty() >= status.winfo_rooty() + status.winfo_height()
    assert view.banner.frame.winfo_width() >= channels.winfo_width()


def test_a_line_with_nothing_to_say_takes_no_height_when_shown(root: tk.Tk) -> None:
    """GIVEN live channels WHEN RC failsafe holds them THEN the held-values note appears below the
    bars; WHEN it clears THEN the note is gone and takes no room."""
    view = shown(root, live_state())
    note = view.roles.held_note
    assert not note.winfo_ismapped()

    view.render(live_state(failsafe=FailsafeStatus.ACTIVE))
    root.update()
    assert note.winfo_ismapped()
    assert note.winfo_rooty() > view.rssi_row.name.winfo_rooty()

    view.render(live_state(failsafe=FailsafeStatus.NOT_ACTIVE))
    root.update()
    assert not note.winfo_ismapped()


def test_the_bars_do_not_move_when_a_reading_becomes_unavailable(root: tk.Tk) -> None:
    """GIVEN CH1 at 1500 µs WHEN it becomes unavailable THEN its value column keeps its width, so
    the bars and the roles beside it stay where they are."""
    view = shown(root, live_state())
    row = view.channel_rows[0]
    before = (row.bar.winfo_rootx(), row.bar.winfo_width(), row.value.winfo_rootx())

    state = live_state()
    view.render(replace(state, channels=(ChannelReading(1, None), *state.channels[1:])))
    root.update()

    assert row.text == "Unavailable"
    assert (row.bar.winfo_rootx(), row.bar.winfo_width(), row.value.winfo_rootx()) == before
    assert row.value.winfo_width() >= row.value.winfo_reqwidth()
