# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The compact table of the delivered channels beyond CH5: reading, range, role and switch position.

It stands below the receiver status (in the readings' column), so the readings a person came for
keep their place on a 1280x720 screen however many channels the receiver delivers; with none
beyond CH5 it takes no room.  One line per channel, up to RC_CHANNELS' 18; the role column wraps
a long ArduPilot function name rather than widen the readings' column.
"""

from __future__ import annotations

import tkinter as tk
from tkinter import ttk

from ..rc_receiver.firmware import MAX_DELIVERED_CHANNEL
from ..rc_receiver.snapshot import CHANNEL_COUNT, FIRST_CHANNEL, ExtraChannel, SwitchPosition
from ..rc_receiver.wording.channels import (
    extra_channel_role_text,
    extra_channel_span_text,
    switch_position_label,
)
from ..rc_receiver.wording.tk_view import channel_name, extra_channel_headers, pwm_text, view_label
from ..tk_kit.text import TextMeasure
from .shown import ShownValues
from .widgets import size_columns

MAX_ROWS = MAX_DELIVERED_CHANNEL - (FIRST_CHANNEL + CHANNEL_COUNT) + 1
# The role column wraps here: ArduPilot's longest function names would widen the readings.
ROLE_WRAP = 220
_NO_VALUE = "–"


def channel_cells(channel: ExtraChannel) -> tuple[str, str, str, str, str]:
    """The five cells of one channel's line."""
    return (
        channel_name(channel.number),
        _NO_VALUE if channel.pwm is None else pwm_text(channel.pwm),
        extra_channel_span_text(channel) or _NO_VALUE,
        extra_channel_role_text(channel),
        switch_position_label(channel.position) or _NO_VALUE,
    )


class ExtraChannelsTable:
    """One line per delivered channel after CH5; the lines beyond the delivered ones are hidden.

    Its owner grids ``frame`` and then takes it out again (``grid_remove``): it comes back, in the
    same place, with the first channel to show.
    """

    def __init__(self, parent: tk.Misc, shown: ShownValues) -> None:
        self._shown = shown
        self.frame = ttk.LabelFrame(parent, text=view_label("extra_channels"))
        self.headers = tuple(
            ttk.Label(self.frame, text=text, font=("TkDefaultFont", 9, "bold"))
            for text in extra_channel_headers()
        )
        for column, header in enumerate(self.headers):
            header.grid(row=0, column=column, padx=(6, 0), sticky=tk.W)
        self.rows: tuple[tuple[ttk.Label, ...], ...] = tuple(
            tuple(
                ttk.Label(self.frame, text="", wraplength=ROLE_WRAP if column == 3 else 0)
                for column in range(5)
            )
            for _row in range(MAX_ROWS)
        )
        for row, labels in enumerate(self.rows, start=1):
            for column, label in enumerate(labels):
                label.grid(row=row, column=column, padx=(6, 0), sticky=tk.W)
                label.grid_remove()
        size_columns(self.frame, TextMeasure.of(self.rows[0][0]), _column_texts(), padding=6)
        # The role column as wide as it wraps at: the switch column does not move as names change.
        self.frame.columnconfigure(3, minsize=ROLE_WRAP + 6)
        self.shown_rows = 0

    def render(self, channels: tuple[ExtraChannel, ...]) -> None:
        """Show ``channels``; the frame itself is out of the grid while there are none."""
        for index, labels in enumerate(self.rows):
            visible = index < len(channels)
            if visible:
                for label, text in zip(labels, channel_cells(channels[index]), strict=True):
                    self._shown.set_text(label, text)
            if visible != (index < self.shown_rows):
                for label in labels:
                    if visible:
                        label.grid()
                    else:
                        label.grid_remove()
        if bool(channels) != bool(self.shown_rows):
            if channels:
                self.frame.grid()
            else:
                self.frame.grid_remove()
        self.shown_rows = len(channels)


def _column_texts() -> dict[int, list[str]]:
    """The widest channel names, readings and ranges, so the columns do not jump."""
    last = FIRST_CHANNEL + CHANNEL_COUNT + MAX_ROWS - 1
    wide = ExtraChannel(number=last, min_us=1000, max_us=9888)
    return {
        0: [extra_channel_headers()[0], *(channel_name(number) for number in range(6, last + 1))],
        1: [pwm_text(8888), _NO_VALUE],
        2: [extra_channel_span_text(wide)],
        4: [
            extra_channel_headers()[4],
            _NO_VALUE,
            *(switch_position_label(position) for position in SwitchPosition),
        ],
    }
