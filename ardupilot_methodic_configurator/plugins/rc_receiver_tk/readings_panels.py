# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The receiver view's readings: the channels panel (CH1-CH5, RSSI, roles) and the receiver status
panel (the lamps, the decoded protocol and "Start a new test").

Both must be in view unscrolled on a 1280x720 screen, so their columns are as wide as their
longest text in the current language and nothing in them wraps.  Their words are
`rc_receiver.wording`'s; every value goes through the view's `ShownValues`.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable
from tkinter import ttk

from ...frontend_tkinter_show import show_tooltip
from ..rc_receiver.guide import KEY_RESET
from ..rc_receiver.readings import RSSI_MAX
from ..rc_receiver.snapshot import (
    CHANNEL_COUNT,
    FIRST_CHANNEL,
    PWM_BAR_MAX_US,
    PWM_BAR_MIN_US,
    FailsafeStatus,
    GuidedTest,
    RCReceiverState,
)
from ..rc_receiver.wording import relative_time_text, yes_no_unknown_text
from ..rc_receiver.wording.tk_view import (
    button_tooltip,
    channel_name,
    failsafe_text,
    protocol_text,
    pwm_text,
    rssi_name,
    rssi_value_text,
    status_value_texts,
    view_label,
)
from ..tk_kit.keys import BUTTON_STYLE, ViewKeys
from ..tk_kit.text import TextMeasure
from .shown import ShownValues
from .widgets import COLOUR_UNKNOWN, BarRow, ChannelRoles, Lamp, size_columns

COLOUR_GOOD = "#2e7d32"
COLOUR_BAD = "#c62828"
COLOUR_ATTENTION = "#ef6c00"
# The channel names sized for, beyond CH5: the flight-mode channel may be any of CH5-CH8.
_NAMED_CHANNELS = 9


class ChannelsPanel:
    """CH1-CH5 and RSSI as bars with their readings, each channel's role and range beside it."""

    def __init__(self, parent: tk.Misc, shown: ShownValues) -> None:
        self._shown = shown
        self.frame = ttk.LabelFrame(parent, text=view_label("channels"))
        self.frame.columnconfigure(1, weight=1)
        span = PWM_BAR_MAX_US - PWM_BAR_MIN_US
        self.channel_rows = tuple(
            BarRow(self.frame, channel_name(number), span, row)
            for row, number in enumerate(range(FIRST_CHANNEL, FIRST_CHANNEL + CHANNEL_COUNT))
        )
        self.rssi_row = BarRow(self.frame, rssi_name(False), RSSI_MAX, CHANNEL_COUNT)
        self.link_quality = False
        self.roles = ChannelRoles(
            self.frame, [row.bar for row in self.channel_rows], first_row=0, mode_row=CHANNEL_COUNT + 1
        )
        size_columns(self.frame, TextMeasure.of(self.rssi_row.value), _column_texts())

    def render_channels(self, state: RCReceiverState) -> None:
        pwm_by_number = {reading.number: reading.pwm for reading in state.channels}
        span = PWM_BAR_MAX_US - PWM_BAR_MIN_US
        for number, row in enumerate(self.channel_rows, start=FIRST_CHANNEL):
            pwm = pwm_by_number.get(number)
            if pwm is None:
                self._shown.set_bar(row, 0.0, view_label("unavailable"))
            else:
                # The bar is clamped to its range; the text keeps the real reading.
                self._shown.set_bar(row, float(min(max(pwm - PWM_BAR_MIN_US, 0), span)), pwm_text(pwm))

    def render_rssi(self, rssi: int | None, link_quality: bool) -> None:
        """With ``RC_OPTIONS`` bit 11 the flight controller reports CRSF link quality as RSSI."""
        self.link_quality = link_quality
        self._shown.set_text(self.rssi_row.name, rssi_name(link_quality))
        if rssi is None or rssi < 0 or rssi > RSSI_MAX:
            self._shown.set_bar(self.rssi_row, 0.0, view_label("unavailable"))
        else:
            self._shown.set_bar(self.rssi_row, float(rssi), rssi_value_text(rssi, RSSI_MAX, link_quality))

    def render_check(self, check: GuidedTest) -> None:
        self.roles.render(check, self._shown.set_option)

    def render_held(self, failsafe: FailsafeStatus) -> None:
        self.roles.render_held(failsafe is FailsafeStatus.ACTIVE, self._shown.set_option)


class StatusPanel:
    """The receiver's lamps, the protocol the flight controller decodes and "Start a new test"."""

    def __init__(
        self, parent: tk.Misc, shown: ShownValues, *, keys: ViewKeys, on_reset: Callable[[], None]
    ) -> None:
        self._shown = shown
        self.frame = status = ttk.LabelFrame(parent, text=view_label("status"))
        self.present_lamp = Lamp(status, view_label("receiver_seen"), 0)
        self.failsafe_lamp = Lamp(status, view_label("failsafe"), 1)
        self.failsafe_observed_lamp = Lamp(status, view_label("failsafe_observed"), 2)
        self.recovery_lamp = Lamp(status, view_label("recovery_observed"), 3)
        size_columns(status, TextMeasure.of(self.present_lamp.value), {2: status_value_texts()}, padding=8)
        # What the flight controller says it decodes ("RCInput: decoding SBUS(1)").
        ttk.Label(status, text=view_label("protocol")).grid(row=4, column=1, pady=(1, 4), sticky=tk.W)
        self.protocol_value = ttk.Label(status, text=protocol_text(None))
        self.protocol_value.grid(row=4, column=2, padx=(8, 0), pady=(1, 4), sticky=tk.W)
        # Beside the last lines rather than below them: the readings above must fit a 720 px screen.
        self.reset_button = ttk.Button(status, text=view_label("reset"), command=on_reset, style=BUTTON_STYLE)
        self.reset_button.grid(row=3, column=3, rowspan=2, padx=(16, 6), pady=(0, 4), sticky=tk.SE)
        status.columnconfigure(3, weight=1)
        keys.add(self.reset_button, KEY_RESET)
        self.reset_tooltip = show_tooltip(self.reset_button, button_tooltip("reset"))

    def render_present(self, present: bool | None) -> None:
        colour = COLOUR_UNKNOWN if present is None else COLOUR_GOOD if present else COLOUR_BAD
        self._shown.set_lamp(self.present_lamp, colour, yes_no_unknown_text(present))

    def render_failsafe(self, failsafe: FailsafeStatus) -> None:
        colours = {FailsafeStatus.ACTIVE: COLOUR_BAD, FailsafeStatus.NOT_ACTIVE: COLOUR_GOOD}
        self._shown.set_lamp(
            self.failsafe_lamp, colours.get(failsafe, COLOUR_UNKNOWN), failsafe_text(failsafe)
        )

    def render_history(self, state: RCReceiverState) -> None:
        started = state.test_started_at
        self._shown.set_lamp(
            self.failsafe_observed_lamp,
            COLOUR_ATTENTION if state.failsafe_observed else COLOUR_UNKNOWN,
            relative_time_text(state.failsafe_observed, state.failsafe_observed_at, started),
        )
        self._shown.set_lamp(
            self.recovery_lamp,
            COLOUR_GOOD if state.recovery_observed else COLOUR_UNKNOWN,
            relative_time_text(state.recovery_observed, state.recovery_observed_at, started),
        )

    def render_protocol(self, protocol: str | None) -> None:
        self._shown.set_text(self.protocol_value, protocol_text(protocol))


def _column_texts() -> dict[int, list[str]]:
    """The longest texts of the channel names and readings, in the current language."""
    names = [channel_name(number) for number in range(FIRST_CHANNEL, FIRST_CHANNEL + _NAMED_CHANNELS)]
    names += [rssi_name(False), rssi_name(True)]
    values = [view_label("unavailable"), pwm_text(88888)]
    values += [rssi_value_text(RSSI_MAX, RSSI_MAX, quality) for quality in (False, True)]
    return {0: names, 2: values}
