# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The table of the channels beyond CH5 in the receiver view, on real Tk widgets fed hand-made
snapshots: one line per delivered channel with its words, no room taken without any, and the
readings a person came for above it."""

from __future__ import annotations

import tkinter as tk
from dataclasses import replace

import pytest

from amc_rc_receiver.plugins.frontend_tkinter_rc_receiver import RCReceiverView
from amc_rc_receiver.plugins.rc_receiver.snapshot import (
    ExtraChannel,
    GuidedTest,
    RCReceiverState,
    SwitchPosition,
)
from amc_rc_receiver.plugins.rc_receiver_tk.channel_table import MAX_ROWS, channel_cells
from tests.plugins.frontend_tkinter_rc_receiver_harness import ScriptedModel, live_state
from tests.support.tk import packed

pytestmark = pytest.mark.tk

CHANNELS = (
    ExtraChannel(6, pwm=1500, min_us=1495, max_us=1505, role="yaw"),
    ExtraChannel(
        7,
        pwm=1950,
        min_us=1000,
        max_us=2000,
        option=32,
        function="Motor Interlock",
        position=SwitchPosition.HIGH,
    ),
    ExtraChannel(8, pwm=None, min_us=None, max_us=None, option=999),
)


def with_channels(channels: tuple[ExtraChannel, ...]) -> RCReceiverState:
    return live_state(guided=replace(GuidedTest(), extra_channels=channels))


def shown(root: tk.Tk, state: RCReceiverState) -> RCReceiverView:
    view = packed(RCReceiverView(root, ScriptedModel(state)))
    view.render(state)
    root.update()
    return view


def line_texts(view: RCReceiverView) -> list[tuple[str, ...]]:
    return [
        tuple(str(label.cget("text")) for label in labels)
        for labels in view.extra_channels.rows
        if all(label.winfo_manager() for label in labels)
    ]


def test_each_delivered_channel_beyond_ch5_has_a_line_with_reading_range_role_and_switch(root: tk.Tk) -> None:
    """GIVEN a snapshot with CH6 the yaw stick, CH7 Motor Interlock read high after a 1000 µs swing
    and CH8 an option unknown to the vehicle without a live reading WHEN shown THEN the table has three
    lines saying exactly that, below the receiver status."""
    view = shown(root, with_channels(CHANNELS))
    assert line_texts(view) == [
        ("CH6", "1500 µs", "span 10 µs", "Yaw", "–"),
        ("CH7", "1950 µs", "span 1000 µs", "Motor Interlock", "high"),
        ("CH8", "–", "–", "option 999", "–"),
    ]
    status = view.present_lamp.title.master
    table = view.extra_channels.frame
    assert table.winfo_ismapped()
    assert table.winfo_rooty() >= status.winfo_rooty() + status.winfo_height()


def test_the_table_takes_no_room_without_channels_beyond_ch5_and_comes_back_with_them(root: tk.Tk) -> None:
    """GIVEN a receiver delivering five channels WHEN shown THEN the table is out of the layout;
    WHEN eight arrive THEN it is back with their lines; WHEN back to five THEN it is gone again."""
    view = shown(root, with_channels(()))
    assert not view.extra_channels.frame.winfo_manager()
    view.render(with_channels(CHANNELS))
    root.update()
    assert view.extra_channels.frame.winfo_ismapped()
    assert len(line_texts(view)) == 3
    view.render(with_channels(()))
    root.update()
    assert not view.extra_channels.frame.winfo_manager()


def test_all_eighteen_channels_fit_the_table_and_an_unchanged_snapshot_writes_nothing(root: tk.Tk) -> None:
    """GIVEN a receiver delivering 18 channels WHEN shown THEN CH6-CH18 each have a line; WHEN the same
    channels come again in a new snapshot THEN no widget is written."""
    channels = tuple(ExtraChannel(number, pwm=1000 + number) for number in range(6, 19))
    assert len(channels) == MAX_ROWS
    view = shown(root, with_channels(channels))
    assert [line[0] for line in line_texts(view)] == [f"CH{number}" for number in range(6, 19)]
    before = view.widget_updates
    view.render(replace(with_channels(channels), now=102.0))
    assert view.widget_updates == before


def test_a_stick_or_mode_channel_with_an_option_shows_both() -> None:
    """GIVEN the mode channel that also carries RCn_OPTION 153 WHEN worded THEN its role names both."""
    cells = channel_cells(ExtraChannel(8, pwm=1100, role="flight_mode", option=153, function="ArmDisarm"))
    assert cells[3] == "Flight mode + ArmDisarm"
