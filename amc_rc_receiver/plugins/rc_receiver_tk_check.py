# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Tk widgets of the guided test: verdict banner, guide with its buttons, roles, findings, messages.

They are parts of `RCReceiverView` and follow its rule: built once, then only updated through the
view's cached setter, so an unchanged value never reaches Tk.  Each ``render`` takes the snapshot
part it shows and nothing else.  While RC failsafe is active the channel bars take a held-values
style and a note says the numbers are the last ones held, not live input: ArduPilot keeps sending
the last PWM values during failsafe, and a bar that looks alive then misleads.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable, Sequence
from tkinter import ttk

from .. import _
from .rc_receiver_channels import role_label
from .rc_receiver_check_state import (
    ChannelEvidence,
    Finding,
    FlightModeReading,
    GuideStep,
    RadioMessage,
    ReceiverCheck,
    Severity,
    Verdict,
    VerdictResult,
)

# (widget, option, value) -> True when the value changed and reached Tk.
Setter = Callable[[tk.Misc, str, object], bool]

BANNER_COLOURS = {
    VerdictResult.PASSED: ("#2e7d32", "#ffffff"),
    VerdictResult.INCOMPLETE: ("#ef6c00", "#ffffff"),
    VerdictResult.FAILED: ("#c62828", "#ffffff"),
}
SEVERITY_COLOURS = {Severity.BLOCKING: "#c62828", Severity.WARNING: "#ef6c00", Severity.INFO: ""}
HELD_BAR_STYLE = "RCHeld.Horizontal.TProgressbar"
HELD_BAR_COLOUR = "#9e9e9e"
HELD_TROUGH_COLOUR = "#ffe0b2"
MAX_FINDINGS_SHOWN = 8
MAX_MESSAGES_SHOWN = 6
_WRAP = 520


def banner_colours(result: VerdictResult) -> tuple[str, str]:
    return BANNER_COLOURS[result]


def guide_instruction(check: ReceiverCheck) -> str:
    """What the guide asks for now, in a person's words (the program's own steps for a demo)."""
    guide = check.guide
    automatic = guide.automatic
    texts = {
        GuideStep.WAIT_TELEMETRY: _("Waiting for receiver telemetry from the flight controller."),
        GuideStep.MOVE_STICKS: _(
            "Move each stick to both ends, and the flight-mode switch through its positions."
        ),
        GuideStep.SWITCH_OFF: _("The program switches its transmitter off now.")
        if automatic
        else _("Switch the transmitter off now, then press \u201cIt is off\u201d."),
        GuideStep.WAIT_FAILSAFE: _(
            "Transmitter off: waiting for the flight controller to report RC failsafe."
        ),
        GuideStep.SWITCH_ON: _("The program switches its transmitter back on now.")
        if automatic
        else _("Switch the transmitter back on, then press \u201cIt is on\u201d."),
        GuideStep.WAIT_RECOVERY: _("Transmitter on: waiting for RC failsafe to clear."),
        GuideStep.DONE: _("Test finished. Press \u201cStart a new test\u201d to repeat it."),
    }
    return texts[guide.step]


def channel_role_text(channel: ChannelEvidence | None) -> str:
    if channel is None or channel.role is None:
        return ""
    return role_label(channel.role)


def channel_span_text(channel: ChannelEvidence | None) -> str:
    """The range a channel covered and whether it counts as moved."""
    if channel is None or channel.min_us is None or channel.max_us is None:
        return ""
    if channel.moved:
        return _("moved {low}–{high}").format(low=channel.min_us, high=channel.max_us)
    return _("span {span} µs").format(span=channel.span_us)


def flight_mode_text(reading: FlightModeReading | None) -> str:
    if reading is None:
        return ""
    if reading.slot is None:
        return _("Flight mode channel CH{channel}: no valid position").format(channel=reading.channel)
    mode = reading.mode_name or (
        _("mode {number}").format(number=reading.mode_number)
        if reading.mode_number is not None
        else _("unknown")
    )
    text = _("Flight mode channel CH{channel}: {pwm} µs, slot {slot}: {mode}").format(
        channel=reading.channel, pwm=reading.pwm, slot=reading.slot, mode=mode
    )
    if reading.channel_is_default:
        text += " " + _("(default channel)")
    return text


def finding_text(finding: Finding) -> str:
    marks = {Severity.BLOCKING: "\u2716", Severity.WARNING: "\u26a0", Severity.INFO: "\u2139"}
    return f"{marks[finding.severity]} {finding.message} {finding.action}"


def message_text(message: RadioMessage, test_started_at: float) -> str:
    return _("{seconds:6.1f} s  {text}").format(
        seconds=max(0.0, message.at - test_started_at), text=message.text
    )


class VerdictBanner:
    """A coloured band with the verdict and its next step or reason."""

    def __init__(self, parent: tk.Misc) -> None:
        background, foreground = banner_colours(VerdictResult.INCOMPLETE)
        self.frame = tk.Frame(parent, background=background)
        self.headline = tk.Label(
            self.frame,
            text="",
            background=background,
            foreground=foreground,
            font=("TkDefaultFont", 14, "bold"),
        )
        self.detail = tk.Label(
            self.frame,
            text="",
            background=background,
            foreground=foreground,
            wraplength=_WRAP,
            justify=tk.LEFT,
        )
        self.headline.pack(anchor=tk.W, padx=8, pady=(6, 0))
        self.detail.pack(anchor=tk.W, padx=8, pady=(0, 6))

    def render(self, verdict: Verdict, setter: Setter) -> None:
        background, foreground = banner_colours(verdict.result)
        for widget in (self.frame, self.headline, self.detail):
            setter(widget, "background", background)
        for widget in (self.headline, self.detail):
            setter(widget, "foreground", foreground)
        setter(self.headline, "text", verdict.headline)
        setter(self.detail, "text", verdict.detail)


class GuidePanel:
    """The current step and the user's confirmations: "It is off" and "It is on"."""

    def __init__(
        self,
        parent: tk.Misc,
        *,
        on_off: Callable[[], None],
        on_on: Callable[[], None],
        on_save: Callable[[], None],
    ) -> None:
        self.frame = ttk.LabelFrame(parent, text=_("Guided transmitter test"))
        self.instruction = ttk.Label(self.frame, text="", wraplength=_WRAP, justify=tk.LEFT)
        self.instruction.grid(row=0, column=0, columnspan=3, padx=6, pady=(6, 4), sticky=tk.W)
        self.off_button = ttk.Button(self.frame, text=_("It is off"), command=on_off)
        self.on_button = ttk.Button(self.frame, text=_("It is on"), command=on_on)
        self.save_button = ttk.Button(self.frame, text=_("Save report…"), command=on_save)
        self.off_button.grid(row=1, column=0, padx=6, pady=(0, 6), sticky=tk.W)
        self.on_button.grid(row=1, column=1, padx=6, pady=(0, 6), sticky=tk.W)
        self.save_button.grid(row=1, column=2, padx=6, pady=(0, 6), sticky=tk.W)
        self.saved = ttk.Label(self.frame, text="", wraplength=_WRAP, justify=tk.LEFT)
        self.saved.grid(row=2, column=0, columnspan=3, padx=6, pady=(0, 6), sticky=tk.W)

    def render(self, check: ReceiverCheck, setter: Setter) -> None:
        guide = check.guide
        setter(self.instruction, "text", guide_instruction(check))
        asks_off = not guide.automatic and guide.step in (GuideStep.MOVE_STICKS, GuideStep.SWITCH_OFF)
        asks_on = not guide.automatic and guide.step is GuideStep.SWITCH_ON
        setter(self.off_button, "state", "normal" if asks_off else "disabled")
        setter(self.on_button, "state", "normal" if asks_on else "disabled")

    def show_saved(self, text: str, setter: Setter, *, error: bool = False) -> None:
        setter(self.saved, "text", text)
        setter(self.saved, "foreground", SEVERITY_COLOURS[Severity.BLOCKING] if error else "")


class ChannelRoles:
    """Role and covered range beside each channel bar, the flight-mode line and the held-values note."""

    def __init__(
        self, parent: tk.Misc, bars: Sequence[ttk.Progressbar], first_row: int, mode_row: int
    ) -> None:
        self._bars = tuple(bars)
        self.roles = tuple(ttk.Label(parent, text="", width=10) for _bar in bars)
        self.spans = tuple(ttk.Label(parent, text="", width=16) for _bar in bars)
        for offset, (role, span) in enumerate(zip(self.roles, self.spans, strict=True)):
            role.grid(row=first_row + offset, column=3, padx=(6, 0), pady=2, sticky=tk.W)
            span.grid(row=first_row + offset, column=4, padx=(6, 0), pady=2, sticky=tk.W)
        self.flight_mode = ttk.Label(parent, text="")
        self.flight_mode.grid(row=mode_row, column=0, columnspan=5, pady=(2, 0), sticky=tk.W)
        self.held_note = ttk.Label(parent, text="", foreground=SEVERITY_COLOURS[Severity.WARNING])
        self.held_note.grid(row=mode_row + 1, column=0, columnspan=5, pady=(2, 2), sticky=tk.W)
        style = ttk.Style(parent)
        style.configure(HELD_BAR_STYLE, background=HELD_BAR_COLOUR, troughcolor=HELD_TROUGH_COLOUR)

    def render(self, check: ReceiverCheck, setter: Setter) -> None:
        for number, (role, span) in enumerate(zip(self.roles, self.spans, strict=True), start=1):
            channel = check.channel(number)
            setter(role, "text", channel_role_text(channel))
            setter(span, "text", channel_span_text(channel))
            setter(span, "foreground", "#2e7d32" if channel is not None and channel.moved else "")
        setter(self.flight_mode, "text", flight_mode_text(check.flight_mode))

    def render_held(self, held: bool, setter: Setter) -> None:
        """Tint the bars and say so while RC failsafe holds the values."""
        for bar in self._bars:
            setter(bar, "style", HELD_BAR_STYLE if held else "Horizontal.TProgressbar")
        setter(
            self.held_note,
            "text",
            _("RC failsafe: these are the last values held, not live input.") if held else "",
        )


class TextList:
    """A titled list of lines (findings, radio messages) that rewrites only the lines that changed."""

    def __init__(self, parent: tk.Misc, title: str, rows: int, empty: str) -> None:
        self.frame = ttk.LabelFrame(parent, text=title)
        self._empty = empty
        self.lines = tuple(
            ttk.Label(self.frame, text="", wraplength=_WRAP, justify=tk.LEFT) for _row in range(rows)
        )
        for row, line in enumerate(self.lines):
            line.grid(row=row, column=0, padx=6, pady=1, sticky=tk.W)

    def render(self, entries: Sequence[tuple[str, str]], setter: Setter) -> None:
        """``entries`` are (text, colour); the newest beyond the last line are dropped.

        Unused lines are taken out of the grid, so an empty list takes one line, not all of them.
        """
        shown = list(entries[: len(self.lines)]) or [(self._empty, "")]
        for index, line in enumerate(self.lines):
            text, colour = shown[index] if index < len(shown) else ("", "")
            setter(line, "text", text)
            setter(line, "foreground", colour)
            if bool(text) != bool(line.winfo_manager()):
                if text:
                    line.grid()
                else:
                    line.grid_remove()


def findings_entries(check: ReceiverCheck) -> list[tuple[str, str]]:
    return [(finding_text(finding), SEVERITY_COLOURS[finding.severity]) for finding in check.findings]


def message_entries(check: ReceiverCheck, test_started_at: float) -> list[tuple[str, str]]:
    recent = check.radio_messages[-MAX_MESSAGES_SHOWN:]
    return [(message_text(message, test_started_at), "") for message in recent]
