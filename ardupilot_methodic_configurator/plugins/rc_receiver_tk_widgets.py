# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The receiver view's widgets: lamps and bars, the guided test's banner, guide (with the stick step's
picture), roles and lists, and the Tk plumbing every view of this program shares (a tick timer,
scrolling).

Each visual pairs colour with text, so no state is told by colour alone.  The guided test's parts
are built once and then only updated through the view's cached setter, so an unchanged value
never reaches Tk; while RC failsafe is active the channel bars take a held-values style, because
ArduPilot keeps sending the last PWM values and a bar that looks alive then misleads.

`TickTimer` is the one repeating ``after()`` of a view: it ticks only while started, not suspended
and not closed, keeps at most one id pending, and every way out cancels it, so no tick outlives its
view.  `ScrollableFrame` scrolls its ``interior`` vertically and stretches it to its width, so
content wraps instead of scrolling sideways, and binds the mouse wheel only while the pointer is
over it.  The words the widgets show are `rc_receiver_wording`'s.
"""

from __future__ import annotations

import contextlib
import tkinter as tk
from collections.abc import Callable, Sequence
from tkinter import ttk

from .. import _
from .rc_receiver_firmware import centring
from .rc_receiver_snapshot import (
    GuideStep,
    ReceiverCheck,
    Severity,
    StickPrompt,
    Verdict,
    VerdictResult,
)
from .rc_receiver_wording import (
    channel_role_text,
    channel_span_text,
    finding_text,
    flight_mode_text,
    guide_instruction,
    message_text,
    sticks_text,
)


class TickTimer:
    """Calls ``callback`` every ``interval_ms`` milliseconds on ``widget``'s event loop while running."""

    def __init__(self, widget: tk.Misc, interval_ms: int, callback: Callable[[], object]) -> None:
        self._widget = widget
        self._interval_ms = max(1, int(interval_ms))
        self._callback = callback
        self._timer_id: str | None = None
        self._active = False
        self._suspended = False
        self._closed = False

    @property
    def timer_id(self) -> str | None:
        """The pending ``after()`` id, or ``None`` when no tick is scheduled."""
        return self._timer_id

    @property
    def active(self) -> bool:
        """True from ``start()`` until ``stop()`` or ``close()``, suspended or not."""
        return self._active

    @property
    def suspended(self) -> bool:
        return self._suspended

    @property
    def running(self) -> bool:
        """True while ticks are due: started and not suspended."""
        return self._active and not self._suspended

    def start(self) -> None:
        """Tick from now on (once resumed, if suspended); a second call keeps the pending tick."""
        if self._closed:
            return
        self._active = True
        if not self._suspended:
            self._arm()

    def stop(self) -> None:
        """Stop ticking and forget any suspension; ``start()`` begins afresh."""
        self._active = False
        self._suspended = False
        self._cancel()

    def suspend(self) -> None:
        """Pause ticking until ``resume()``, staying started."""
        self._suspended = True
        self._cancel()

    def resume(self) -> None:
        """End a suspension; ticking continues if the timer is started."""
        self._suspended = False
        if self._active:
            self._arm()

    def close(self) -> None:
        """Stop for good, e.g. when the widget is destroyed; later ``start()`` calls do nothing."""
        self._active = False
        self._closed = True
        self._cancel()

    def _arm(self) -> None:
        if self._timer_id is None:
            self._timer_id = self._widget.after(self._interval_ms, self._fire)

    def _cancel(self) -> None:
        if self._timer_id is not None:
            timer_id, self._timer_id = self._timer_id, None
            # The widget may already be gone, taking its pending timers with it.
            with contextlib.suppress(tk.TclError):
                self._widget.after_cancel(timer_id)

    def _fire(self) -> None:
        self._timer_id = None
        # A cancel that Tk could not carry out must still not lead to a tick.
        if not self.running:
            return
        self._callback()
        if self.running:
            self._arm()


# X11 reports the wheel as buttons 4/5; Windows and macOS as <MouseWheel> with a delta.
_WHEEL_EVENTS = ("<MouseWheel>", "<Button-4>", "<Button-5>")


def match_theme_background(canvas: tk.Canvas) -> None:
    """Give a plain Tk canvas the ttk theme's frame background, so it does not show as a grey box."""
    background = str(ttk.Style(canvas).lookup("TFrame", "background") or "")
    if background:
        with contextlib.suppress(tk.TclError):
            canvas.configure(background=background)


def grid_with_scrollbars(frame: ttk.Frame, tree: ttk.Treeview) -> tuple[ttk.Scrollbar, ttk.Scrollbar]:
    """Grid ``tree`` into ``frame`` with a vertical and a horizontal scrollbar; the tree takes the room.

    Returns the (vertical, horizontal) scrollbars.  ``frame`` must hold nothing else.
    """
    yscroll = ttk.Scrollbar(frame, orient=tk.VERTICAL, command=tree.yview)
    xscroll = ttk.Scrollbar(frame, orient=tk.HORIZONTAL, command=tree.xview)
    tree.configure(yscrollcommand=yscroll.set, xscrollcommand=xscroll.set)
    tree.grid(row=0, column=0, sticky=tk.NSEW)
    yscroll.grid(row=0, column=1, sticky=tk.NS)
    xscroll.grid(row=1, column=0, sticky=tk.EW)
    frame.rowconfigure(0, weight=1)
    frame.columnconfigure(0, weight=1)
    return yscroll, xscroll


class ScrollableFrame(ttk.Frame):
    """A ttk.Frame whose ``interior`` scrolls vertically when taller than the frame."""

    def __init__(self, parent: tk.Misc, **kwargs: object) -> None:
        super().__init__(parent, **kwargs)  # type: ignore[arg-type]
        self.canvas = tk.Canvas(self, borderwidth=0, highlightthickness=0)
        match_theme_background(self.canvas)
        self.scrollbar = ttk.Scrollbar(self, orient=tk.VERTICAL, command=self.canvas.yview)
        self.canvas.configure(yscrollcommand=self.scrollbar.set)
        self.scrollbar.pack(side=tk.RIGHT, fill=tk.Y)
        self.canvas.pack(side=tk.LEFT, fill=tk.BOTH, expand=True)

        self.interior = ttk.Frame(self.canvas)
        self._window = self.canvas.create_window(0, 0, window=self.interior, anchor=tk.NW)

        self.interior.bind("<Configure>", self._on_interior_configure)
        self.canvas.bind("<Configure>", self._on_canvas_configure)
        self._wheel_bound = False
        self.bind("<Enter>", self._bind_wheel)
        self.bind("<Leave>", self._unbind_wheel)

    def _on_interior_configure(self, _event: tk.Event[tk.Misc]) -> None:
        self.canvas.configure(
            scrollregion=(0, 0, self.interior.winfo_reqwidth(), self.interior.winfo_reqheight())
        )

    def _on_canvas_configure(self, event: tk.Event[tk.Misc]) -> None:
        self.canvas.itemconfigure(self._window, width=event.width)

    def _bind_wheel(self, _event: tk.Event[tk.Misc] | None = None) -> None:
        for sequence in _WHEEL_EVENTS:
            self.bind_all(sequence, self._on_wheel)
        self._wheel_bound = True

    def _unbind_wheel(self, _event: tk.Event[tk.Misc] | None = None) -> None:
        if not self._wheel_bound:
            return
        self._wheel_bound = False
        for sequence in _WHEEL_EVENTS:
            self.unbind_all(sequence)

    def _on_wheel(self, event: tk.Event[tk.Misc]) -> None:
        # Scrolling content that already fits would only jitter it.
        if self.interior.winfo_reqheight() <= self.canvas.winfo_height():
            return
        if event.num == 4:
            steps = -1
        elif event.num == 5:
            steps = 1
        else:
            steps = -1 if event.delta > 0 else 1
        self.canvas.yview_scroll(steps, "units")

    def destroy(self) -> None:
        # bind_all bindings outlive the widget; drop ours so they never call a dead canvas.
        with contextlib.suppress(tk.TclError):
            self._unbind_wheel()
        super().destroy()


COLOUR_UNKNOWN = "#9e9e9e"
_LAMP_DIAMETER = 14
_BAR_LENGTH = 280


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
        self.value = ttk.Label(parent, text=_("unknown"))
        self.canvas.grid(row=row, column=0, padx=(0, 6), pady=2, sticky=tk.W)
        self.title.grid(row=row, column=1, pady=2, sticky=tk.W)
        self.value.grid(row=row, column=2, padx=(8, 0), pady=2, sticky=tk.W)

    @property
    def colour(self) -> str:
        return str(self.canvas.itemcget(self.oval, "fill"))  # type: ignore[no-untyped-call]

    @property
    def text(self) -> str:
        return str(self.value.cget("text"))


class BarRow:
    """A name, a bar and the reading as text."""

    def __init__(self, parent: tk.Misc, name: str, maximum: float, row: int) -> None:
        self.name = ttk.Label(parent, text=name, width=14)
        self.bar = ttk.Progressbar(parent, orient=tk.HORIZONTAL, length=_BAR_LENGTH, maximum=maximum, value=0)
        self.value = ttk.Label(parent, text=_("Unavailable"), width=18)
        self.name.grid(row=row, column=0, pady=2, sticky=tk.W)
        self.bar.grid(row=row, column=1, padx=6, pady=2, sticky=tk.EW)
        self.value.grid(row=row, column=2, pady=2, sticky=tk.W)

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
        self.name = ttk.Label(parent, text=message_name, width=14)
        self.rate = ttk.Label(parent, text=_("{rate:.1f} Hz").format(rate=0.0), width=10)
        self.request = ttk.Label(parent, text=_("interval not requested"))
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
_WRAP = 520


def banner_colours(result: VerdictResult) -> tuple[str, str]:
    return BANNER_COLOURS[result]


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


# ---- the stick step's picture: a mode 2 transmitter (throttle and yaw on the left stick, pitch and
# roll on the right; a rover steers with roll), the stick asked for pushed, with an arrow; redrawn
# only when the stick asked for changes.

GIMBAL_PX = 56
_GAP_PX = 22
_PAD_PX = 6
_DOT_PX = 7
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
    "Skip this stick"; below, what the stick step found so far."""

    def __init__(
        self,
        parent: tk.Misc,
        *,
        on_off: Callable[[], None],
        on_on: Callable[[], None],
        on_save: Callable[[], None],
        on_skip: Callable[[], None] | None = None,
    ) -> None:
        self.frame = ttk.LabelFrame(parent, text=_("Guided transmitter test"))
        self.instruction = ttk.Label(self.frame, text="", wraplength=_WRAP, justify=tk.LEFT)
        self.instruction.grid(row=0, column=0, columnspan=4, padx=6, pady=(6, 4), sticky=tk.W)
        self.picture = StickPicture(self.frame)
        self.picture.canvas.grid(row=0, column=4, rowspan=3, padx=6, pady=6, sticky=tk.NE)
        self.off_button = ttk.Button(self.frame, text=_("It is off"), command=on_off)
        self.on_button = ttk.Button(self.frame, text=_("It is on"), command=on_on)
        self.skip_button = ttk.Button(self.frame, text=_("Skip this stick"), command=on_skip or _nothing)
        self.save_button = ttk.Button(self.frame, text=_("Save report…"), command=on_save)
        self.off_button.grid(row=1, column=0, padx=6, pady=(0, 6), sticky=tk.W)
        self.on_button.grid(row=1, column=1, padx=6, pady=(0, 6), sticky=tk.W)
        self.skip_button.grid(row=1, column=2, padx=6, pady=(0, 6), sticky=tk.W)
        self.save_button.grid(row=1, column=3, padx=6, pady=(0, 6), sticky=tk.W)
        self.sticks = ttk.Label(self.frame, text="", wraplength=_WRAP, justify=tk.LEFT)
        self.sticks.grid(row=2, column=0, columnspan=4, padx=6, pady=(0, 6), sticky=tk.W)
        self.saved = ttk.Label(self.frame, text="", wraplength=_WRAP, justify=tk.LEFT)
        self.saved.grid(row=3, column=0, columnspan=4, padx=6, pady=(0, 6), sticky=tk.W)

    def render(self, check: ReceiverCheck, setter: Setter) -> None:
        guide = check.guide
        setter(self.instruction, "text", guide_instruction(check))
        asks_off = not guide.automatic and guide.step in (GuideStep.MOVE_STICKS, GuideStep.SWITCH_OFF)
        asks_on = not guide.automatic and guide.step is GuideStep.SWITCH_ON
        stick = guide.stick if guide.step is GuideStep.MOVE_STICKS else None
        asks_skip = stick is not None and not stick.by_program
        setter(self.off_button, "state", "normal" if asks_off else "disabled")
        setter(self.on_button, "state", "normal" if asks_on else "disabled")
        setter(self.skip_button, "state", "normal" if asks_skip else "disabled")
        self.picture.render(stick, throttle_centres=centring(check.family, "throttle"))
        setter(self.sticks, "text", sticks_text(check))

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
