# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The receiver view's widgets: lamps and bars, the guided test's banner, guide (with the stick step's
picture), roles and lists.

Each visual pairs colour with text, so no state is told by colour alone.  The guided test's parts
are built once and then only updated through the view's cached setter, so an unchanged value
never reaches Tk; while RC failsafe is active the channel bars take a held-values style, because
ArduPilot keeps sending the last PWM values and a bar that looks alive then misleads.

The words the widgets show are `rc_receiver.wording`'s.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable, Mapping, Sequence
from tkinter import ttk

from ...frontend_tkinter_show import show_tooltip
from ..rc_receiver.evidence import FLIGHT_MODE_ROLE
from ..rc_receiver.firmware import centring
from ..rc_receiver.guide import KEY_OFF, KEY_ON, KEY_SKIP
from ..rc_receiver.snapshot import (
    ChannelEvidence,
    GuidedTest,
    GuideStep,
    Severity,
    StickPrompt,
    Verdict,
    VerdictResult,
)
from ..rc_receiver.wording import (
    finding_text,
    guide_instruction,
    message_text,
    request_text,
    verdict_label,
)
from ..rc_receiver.wording.channels import channel_role_text, channel_span_text, flight_mode_text
from ..rc_receiver.wording.tk_view import ButtonName, button_tooltip, rate_text, view_label
from ..tk_kit.keys import ViewKeys
from ..tk_kit.scrolling import match_theme_background
from ..tk_kit.text import LABEL_INSET, TextMeasure, WrapFollower

COLOUR_UNKNOWN = "#9e9e9e"
_LAMP_DIAMETER = 14
# The bars stretch with their column; this is what they ask for at least.
_BAR_LENGTH = 200


def size_columns(
    parent: tk.Misc, measure: TextMeasure, texts_by_column: Mapping[int, Sequence[str]], *, padding: int = 0
) -> None:
    """Make each grid column of ``parent`` as wide as the widest text it will ever show (plus
    ``padding``, the column's own padx), so neither a text is clipped nor the columns jump as
    values change.  Measured in the current language, whose words may be longer than English."""
    for column, texts in texts_by_column.items():
        parent.columnconfigure(column, minsize=measure.widest(texts) + padding + LABEL_INSET)


def show_when_set(widget: tk.Widget, text: str) -> None:
    """Keep ``widget`` in its grid cell only while it has something to say, so an empty line
    takes no height."""
    if bool(text) != bool(widget.winfo_manager()):
        if text:
            widget.grid()
        else:
            widget.grid_remove()


class Lamp:
    """A coloured circle beside a title and a value text, so state never relies on colour alone."""

    def __init__(self, parent: tk.Misc, title: str, row: int) -> None:
        self.canvas = tk.Canvas(
            parent, width=_LAMP_DIAMETER + 2, height=_LAMP_DIAMETER + 2, highlightthickness=0, borderwidth=0
        )
        match_theme_background(self.canvas)
        self.oval = self.canvas.create_oval(
            1, 1, _LAMP_DIAMETER, _LAMP_DIAMETER, fill=COLOUR_UNKNOWN, outline="#616161"
        )
        self.title = ttk.Label(parent, text=title)
        self.value = ttk.Label(parent, text=view_label("unknown"))
        self.canvas.grid(row=row, column=0, padx=(0, 6), sticky=tk.W)
        self.title.grid(row=row, column=1, sticky=tk.W)
        self.value.grid(row=row, column=2, padx=(8, 0), sticky=tk.W)

    @property
    def colour(self) -> str:
        return str(self.canvas.itemcget(self.oval, "fill"))  # type: ignore[no-untyped-call]

    @property
    def text(self) -> str:
        return str(self.value.cget("text"))


class BarRow:
    """A name, a bar and the reading as text."""

    def __init__(self, parent: tk.Misc, name: str, maximum: float, row: int) -> None:
        # The name and value columns are sized by the view to their longest texts (size_columns).
        self.name = ttk.Label(parent, text=name)
        self.bar = ttk.Progressbar(parent, orient=tk.HORIZONTAL, length=_BAR_LENGTH, maximum=maximum, value=0)
        self.value = ttk.Label(parent, text=view_label("unavailable"))
        self.name.grid(row=row, column=0, sticky=tk.W)
        self.bar.grid(row=row, column=1, padx=6, pady=1, sticky=tk.EW)
        self.value.grid(row=row, column=2, sticky=tk.W)

    @property
    def text(self) -> str:
        return str(self.value.cget("text"))

    @property
    def bar_value(self) -> float:
        return float(self.bar.cget("value"))


class StreamRow:
    """Measured rate of one message stream and the fate of its interval request."""

    def __init__(self, parent: tk.Misc, message_name: str, row: int) -> None:
        self.message_name = message_name
        self.name = ttk.Label(parent, text=message_name)
        self.rate = ttk.Label(parent, text=rate_text(0.0))
        self.request = ttk.Label(parent, text=request_text(None))
        self.name.grid(row=row, column=0, pady=1, sticky=tk.W)
        self.rate.grid(row=row, column=1, padx=6, pady=1, sticky=tk.W)
        self.request.grid(row=row, column=2, pady=1, sticky=tk.W)


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
# What a wrapping label wraps at before its frame is laid out; then it follows the frame's width.
_WRAP = 520
# A wrapping label's frame around it: the label's padx and the frame's border.
_WRAP_MARGIN = 20


def banner_colours(result: VerdictResult) -> tuple[str, str]:
    return BANNER_COLOURS[result]


class VerdictBanner:
    """A coloured band with the verdict and, beside it, its next step or reason."""

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
        # One line for the verdict and its sentence (a long sentence wraps beside the verdict):
        # the readings below must fit a 720 px screen.  The sentence wraps at what the widest
        # verdict leaves, so it does not move when the verdict changes.
        self.headline.pack(side=tk.LEFT, anchor=tk.N, padx=(8, 0), pady=3)
        self.detail.pack(side=tk.LEFT, anchor=tk.W, padx=(12, 8), pady=3)
        widest = TextMeasure.of(self.headline).widest(verdict_label(result) for result in VerdictResult)
        # The verdict's label needs its own inset beside the text, like the sentence's.
        self.wrap = WrapFollower(self.frame, width=_WRAP, margin=widest + LABEL_INSET + 2 * 8 + 12)
        self.wrap.add(self.detail)

    def render(self, verdict: Verdict, setter: Setter) -> None:
        background, foreground = banner_colours(verdict.result)
        for widget in (self.frame, self.headline, self.detail):
            setter(widget, "background", background)
        for widget in (self.headline, self.detail):
            setter(widget, "foreground", foreground)
        setter(self.headline, "text", verdict.headline)
        self.wrap.show(self.detail, verdict.detail, setter)


# ---- the stick step's picture: a mode 2 transmitter (throttle and yaw on the left stick, pitch and
# roll on the right; a rover steers with roll), the stick asked for pushed, with an arrow; redrawn
# only when the stick asked for changes.

GIMBAL_PX = 44
_GAP_PX = 14
_PAD_PX = 6
_DOT_PX = 6
WIDTH_PX = 2 * GIMBAL_PX + _GAP_PX + 2 * _PAD_PX
HEIGHT_PX = GIMBAL_PX + 2 * _PAD_PX
_OUTLINE = "#7f7f7f"
PUSHED_COLOUR = "#1f6fbf"
_RESTING = "#404040"
# Which gimbal (0 left, 1 right) carries each axis, and where "pushed the stick step's way" puts
# the stick on the picture, as (x, y) in half gimbals from the centre; None keeps that coordinate.
_GIMBAL = {"throttle": 0, "yaw": 0, "pitch": 1, "roll": 1}
_PUSH: dict[str, tuple[float | None, float | None]] = {
    "roll": (1.0, None),
    "pitch": (None, -1.0),
    "throttle": (None, -1.0),
    "yaw": (1.0, None),
}


class StickPicture:
    """A small canvas showing which stick to push and where to."""

    def __init__(self, parent: tk.Misc) -> None:
        self.canvas = tk.Canvas(parent, width=WIDTH_PX, height=HEIGHT_PX, highlightthickness=0, borderwidth=0)
        match_theme_background(self.canvas)
        self._shown: tuple[StickPrompt | None, bool] | None = None

    def render(self, prompt: StickPrompt | None, *, throttle_centres: bool = False) -> None:
        key = (prompt, throttle_centres)
        if key == self._shown:
            return
        self._shown = key
        self.canvas.delete("all")
        for gimbal in (0, 1):
            # A throttle that does not centre rests at the bottom of the left stick.
            rest = (0.0, 1.0 if gimbal == 0 and not throttle_centres else 0.0)
            end = rest
            pushed = prompt is not None and prompt.pushed and _GIMBAL.get(prompt.axis) == gimbal
            if pushed and prompt is not None:
                push_x, push_y = _PUSH[prompt.axis]
                end = (rest[0] if push_x is None else push_x, rest[1] if push_y is None else push_y)
            self._draw_gimbal(gimbal, rest, end, pushed)

    def _draw_gimbal(
        self, gimbal: int, rest: tuple[float, float], end: tuple[float, float], pushed: bool
    ) -> None:
        canvas = self.canvas
        left = _PAD_PX + gimbal * (GIMBAL_PX + _GAP_PX)
        canvas.create_rectangle(left, _PAD_PX, left + GIMBAL_PX, _PAD_PX + GIMBAL_PX, outline=_OUTLINE)
        centre_x, centre_y = left + GIMBAL_PX / 2, _PAD_PX + GIMBAL_PX / 2
        half = GIMBAL_PX / 2 - _DOT_PX

        def point(position: tuple[float, float]) -> tuple[float, float]:
            return centre_x + position[0] * half, centre_y + position[1] * half

        x, y = point(end)
        if pushed:
            canvas.create_line(*point(rest), x, y, fill=PUSHED_COLOUR, width=2, arrow=tk.LAST)
        colour = PUSHED_COLOUR if pushed else _RESTING
        canvas.create_oval(x - _DOT_PX, y - _DOT_PX, x + _DOT_PX, y + _DOT_PX, fill=colour, outline="")


def _nothing() -> None:
    return None


class GuidePanel:
    """The current step, its stick picture and the user's answers: "It is off", "It is on" and
    "Skip this stick"."""

    def __init__(
        self,
        parent: tk.Misc,
        *,
        on_off: Callable[[], None],
        on_on: Callable[[], None],
        on_save: Callable[[], None],
        on_skip: Callable[[], None] | None = None,
        keys: ViewKeys | None = None,
    ) -> None:
        self.frame = ttk.LabelFrame(parent, text=view_label("guided_test"))
        self.instruction = ttk.Label(self.frame, text="", wraplength=_WRAP, justify=tk.LEFT)
        self.instruction.grid(row=0, column=0, columnspan=4, padx=6, pady=(4, 3), sticky=tk.W)
        # Beside the instruction and the buttons, so that it costs the panel no height of its own.
        self.picture = StickPicture(self.frame)
        self.picture.canvas.grid(row=0, column=4, rowspan=2, padx=6, pady=4, sticky=tk.NE)
        self.frame.columnconfigure(4, weight=1)
        # Made in reading order, which is the order Tab follows.
        self.off_button = ttk.Button(self.frame, text=view_label("off"), command=on_off)
        self.on_button = ttk.Button(self.frame, text=view_label("on"), command=on_on)
        self.skip_button = ttk.Button(self.frame, text=view_label("skip"), command=on_skip or _nothing)
        self.save_button = ttk.Button(self.frame, text=view_label("save"), command=on_save)
        # The host's tooltips (5.0.1's inside the methodic configurator) say what each answer does.
        buttons: dict[ButtonName, ttk.Button] = {
            "off": self.off_button,
            "on": self.on_button,
            "skip": self.skip_button,
            "save": self.save_button,
        }
        self.tooltips = {name: show_tooltip(button, button_tooltip(name)) for name, button in buttons.items()}
        self.off_button.grid(row=1, column=0, padx=6, pady=(0, 6), sticky=tk.W)
        self.on_button.grid(row=1, column=1, padx=6, pady=(0, 6), sticky=tk.W)
        self.skip_button.grid(row=1, column=2, padx=6, pady=(0, 6), sticky=tk.W)
        self.save_button.grid(row=1, column=3, padx=6, pady=(0, 6), sticky=tk.W)
        self.saved = ttk.Label(self.frame, text="", wraplength=_WRAP, justify=tk.LEFT)
        self.saved.grid(row=2, column=0, columnspan=5, padx=6, pady=(0, 6), sticky=tk.W)
        self.saved.grid_remove()
        # The report's paths are long words: they wrap after a "/" at the panel's width.
        self._saved_wrap = WrapFollower(self.frame, width=_WRAP, margin=_WRAP_MARGIN)
        self._saved_wrap.add(self.saved)
        if keys is not None:
            # The terminal's keys for the same answers, in every language.
            keys.add(self.off_button, KEY_OFF)
            keys.add(self.on_button, KEY_ON)
            keys.add(self.skip_button, KEY_SKIP)

    def render(self, check: GuidedTest, setter: Setter) -> None:
        guide = check.guide
        setter(self.instruction, "text", guide_instruction(check))
        asks_off = not guide.automatic and guide.step in (
            GuideStep.MOVE_STICKS,
            GuideStep.FLIP_SWITCHES,
            GuideStep.SWITCH_OFF,
        )
        asks_on = not guide.automatic and guide.step is GuideStep.SWITCH_ON
        stick = guide.stick if guide.step is GuideStep.MOVE_STICKS else None
        switches = guide.switches if guide.step is GuideStep.FLIP_SWITCHES else None
        # A person may pass over a stick or the switch step; the program does its own.
        asks_skip = (stick is not None and not stick.by_program) or (
            switches is not None and not switches.by_program
        )
        setter(self.off_button, "state", "normal" if asks_off else "disabled")
        setter(self.on_button, "state", "normal" if asks_on else "disabled")
        setter(self.skip_button, "state", "normal" if asks_skip else "disabled")
        setter(self.skip_button, "text", view_label("skip_switches" if switches is not None else "skip"))
        # What each stick showed is in the findings and the verdict the moment it is answered.
        self.picture.render(stick, throttle_centres=centring(check.family, "throttle"))

    def show_saved(self, text: str, setter: Setter, *, error: bool = False) -> None:
        self._saved_wrap.show(self.saved, text, setter)
        setter(self.saved, "foreground", SEVERITY_COLOURS[Severity.BLOCKING] if error else "")
        show_when_set(self.saved, text)


class ChannelRoles:
    """Role and covered range beside each channel bar, the flight-mode line and the held-values note."""

    def __init__(
        self, parent: tk.Misc, bars: Sequence[ttk.Progressbar], first_row: int, mode_row: int
    ) -> None:
        self._bars = tuple(bars)
        self.roles = tuple(ttk.Label(parent, text="") for _bar in bars)
        self.spans = tuple(ttk.Label(parent, text="") for _bar in bars)
        for offset, (role, span) in enumerate(zip(self.roles, self.spans, strict=True)):
            role.grid(row=first_row + offset, column=3, padx=(6, 0), sticky=tk.W)
            span.grid(row=first_row + offset, column=4, padx=(6, 0), sticky=tk.W)
        size_columns(parent, TextMeasure.of(self.roles[0]), _role_column_texts(), padding=6)
        # The mode line grows with the reported mode and a band-end mark: it wraps at the frame's
        # width, never widens it.
        self.flight_mode = ttk.Label(parent, text="", justify=tk.LEFT)
        self._mode_wrap = WrapFollower(parent, width=_WRAP, margin=_WRAP_MARGIN)
        self._mode_wrap.add(self.flight_mode)
        self.flight_mode.grid(row=mode_row, column=0, columnspan=5, pady=(2, 0), sticky=tk.W)
        self.flight_mode.grid_remove()
        self.held_note = ttk.Label(parent, text="", foreground=SEVERITY_COLOURS[Severity.WARNING])
        self.held_note.grid(row=mode_row + 1, column=0, columnspan=5, pady=(1, 1), sticky=tk.W)
        self.held_note.grid_remove()
        style = ttk.Style(parent)
        style.configure(HELD_BAR_STYLE, background=HELD_BAR_COLOUR, troughcolor=HELD_TROUGH_COLOUR)

    def render(self, check: GuidedTest, setter: Setter) -> None:
        for number, (role, span) in enumerate(zip(self.roles, self.spans, strict=True), start=1):
            channel = check.channel(number)
            setter(role, "text", channel_role_text(channel))
            setter(span, "text", channel_span_text(channel))
            setter(span, "foreground", "#2e7d32" if channel is not None and channel.moved else "")
        mode = flight_mode_text(check.flight_mode)
        self._mode_wrap.show(self.flight_mode, mode, setter)
        show_when_set(self.flight_mode, mode)

    def render_held(self, held: bool, setter: Setter) -> None:
        """Tint the bars and say so while RC failsafe holds the values."""
        for bar in self._bars:
            setter(bar, "style", HELD_BAR_STYLE if held else "Horizontal.TProgressbar")
        note = view_label("held_values") if held else ""
        setter(self.held_note, "text", note)
        show_when_set(self.held_note, note)


class TextList:
    """A titled list of lines (findings, radio messages) that rewrites only the lines that changed."""

    def __init__(self, parent: tk.Misc, title: str, rows: int, empty: str) -> None:
        self.frame = ttk.LabelFrame(parent, text=title)
        self._empty = empty
        self.lines = tuple(ttk.Label(self.frame, text="", justify=tk.LEFT) for _row in range(rows))
        self.wrap = WrapFollower(self.frame, width=_WRAP, margin=_WRAP_MARGIN)
        for row, line in enumerate(self.lines):
            line.grid(row=row, column=0, padx=6, pady=1, sticky=tk.W)
            self.wrap.add(line)

    def render(self, entries: Sequence[tuple[str, str]], setter: Setter) -> None:
        """``entries`` are (text, colour); the newest beyond the last line are dropped.

        Unused lines are taken out of the grid, so an empty list takes one line, not all of them.
        """
        shown = list(entries[: len(self.lines)]) or [(self._empty, "")]
        for index, line in enumerate(self.lines):
            text, colour = shown[index] if index < len(shown) else ("", "")
            self.wrap.show(line, text, setter)
            setter(line, "foreground", colour)
            show_when_set(line, text)


def _role_column_texts() -> dict[int, Sequence[str]]:
    """Every role name and the longest range texts, for the role and range columns."""
    roles = ("roll", "pitch", "throttle", "collective", "yaw", "steering", FLIGHT_MODE_ROLE)
    # Four digits each, as every real reading has (800-2200 µs); the digits are equally wide.
    moved = ChannelEvidence(1, min_us=8888, max_us=8888, moved=True)
    still = ChannelEvidence(1, min_us=1000, max_us=9888)
    return {
        3: [channel_role_text(ChannelEvidence(1, role=role)) for role in roles],
        4: [channel_span_text(moved), channel_span_text(still)],
    }


def findings_entries(check: GuidedTest) -> list[tuple[str, str]]:
    return [(finding_text(finding), SEVERITY_COLOURS[finding.severity]) for finding in check.findings]


def message_entries(check: GuidedTest, test_started_at: float) -> list[tuple[str, str]]:
    recent = check.radio_messages[-MAX_MESSAGES_SHOWN:]
    return [(message_text(message, test_started_at), "") for message in recent]
