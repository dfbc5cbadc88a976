# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Text that fits its widget: measured in the widget's own font, wrapped between words (and inside
a long name only after ``_``, ``/``, ``\\``, ``.`` or ``-``), shortened by whole words with an
ellipsis, columns as wide as the longest text they will show, and a tooltip for what was shortened.

Tk wraps a label only at spaces and breaks a word wider than the wrap length wherever the line
ends ("05_remote_control" / "ler_receiver.param").  `wrap_text` puts the line breaks into such
words itself, after a separator, so Tk never has a word it must cut; texts without such a word
are handed to Tk unchanged.  Widths come from a `TextMeasure`, which caches them: a view's texts
change often and their words repeat, and each Tk call costs more than the lookup.
"""

from __future__ import annotations

import contextlib
import re
import tkinter as tk
import tkinter.font as tkfont
from collections.abc import Callable, Iterable
from tkinter import ttk

ELLIPSIS = "…"
# Where a long name may be broken: after these, as a path or a parameter file name reads.
_BREAK_AFTER = re.compile(r"(?<=[_/\\.\-])")
_MEASURE_CACHE = 4096
TOOLTIP_DELAY_MS = 400
TOOLTIP_WRAP = 420
# A label draws its text inside a border and padding of its own (up to 2 px a side in the themes
# of Tk 8.6): room a wrap length or a column's width must leave beyond the text.
LABEL_INSET = 4

Measure = Callable[[str], int]


def widget_font(widget: tk.Misc, style_class: str | None = None) -> tkfont.Font:
    """The font ``widget`` draws its text in: its own option, else its ttk style's, else Tk's default."""
    name = ""
    with contextlib.suppress(tk.TclError):
        name = str(widget.cget("font"))
    if not name:
        style = style_class or str(widget.winfo_class())
        with contextlib.suppress(tk.TclError):
            name = str(ttk.Style(widget).lookup(style, "font"))
    name = name or "TkDefaultFont"
    try:
        return tkfont.nametofont(name, root=widget)
    except tk.TclError:  # a font description ("TkDefaultFont 14 bold") rather than a named font
        return tkfont.Font(root=widget, font=name)


class TextMeasure:
    """Pixel widths of texts in one font, cached (bounded)."""

    def __init__(self, font: tkfont.Font) -> None:
        self.font = font
        self._widths: dict[str, int] = {}

    @classmethod
    def of(cls, widget: tk.Misc, style_class: str | None = None) -> TextMeasure:
        return cls(widget_font(widget, style_class))

    def __call__(self, text: str) -> int:
        width = self._widths.get(text)
        if width is None:
            if len(self._widths) >= _MEASURE_CACHE:
                self._widths.clear()
            width = self._widths[text] = int(self.font.measure(text))
        return width

    def widest(self, texts: Iterable[str]) -> int:
        """The width of the widest of ``texts`` (0 for none)."""
        return max((self(text) for text in texts), default=0)


def _pieces(word: str, width: int, measure: Measure) -> list[str]:
    """``word`` cut after its separators, and a piece still wider than ``width`` cut where it must:
    never inside a letter, so a letter wider than ``width`` (a squeezed window) is a piece alone."""
    pieces: list[str] = []
    for part in _BREAK_AFTER.split(word):
        rest = part
        while len(rest) > 1 and measure(rest) > width:
            end = len(rest) - 1
            while end > 1 and measure(rest[:end]) > width:
                end -= 1
            pieces.append(rest[:end])
            rest = rest[end:]
        if rest:
            pieces.append(rest)
    return pieces


def wrap_text(text: str, width: int, measure: Measure) -> str:
    """``text`` with line breaks after separators inside every word wider than ``width``.

    Lines are filled the way Tk fills them (greedily, between words), so a label that shows the
    result with ``wraplength=width`` never breaks inside a word.  A text whose words all fit is
    returned as it is, for Tk to wrap.
    """
    if width <= 0 or all(measure(word) <= width for word in text.split()):
        return text
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            joined = f"{line} {word}" if line else word
            if measure(joined) <= width:
                line = joined
                continue
            if measure(word) <= width:
                lines.append(line)
                line = word
                continue
            for index, piece in enumerate(_pieces(word, width, measure)):
                glue = " " if index == 0 and line else ""
                joined = line + glue + piece
                if not line or measure(joined) <= width:
                    line = joined
                else:
                    lines.append(line)
                    line = piece
        lines.append(line)
    return "\n".join(lines)


def fit_words(text: str, width: int, measure: Measure) -> str:
    """``text``, or as many of its whole words as fit followed by an ellipsis.

    Only a first word that cannot fit alone is shortened inside, and then visibly, with the
    ellipsis, rather than cut off by the widget's edge.  The words are counted by halving, so a
    long text costs a few measurements, not one per word.
    """
    if measure(text) <= width:
        return text
    words = text.split(" ")

    def shortened(count: int) -> str:
        return " ".join(words[:count]).rstrip(" ,;:") + " " + ELLIPSIS

    # Invariant: ``low`` words fit (0: none is known to), ``high`` words do not (all: the text).
    low, high = 0, len(words)
    while high - low > 1:
        middle = (low + high) // 2
        if measure(shortened(middle)) <= width:
            low = middle
        else:
            high = middle
    if low:
        return shortened(low)
    first = words[0]
    for end in range(len(first) - 1, 0, -1):
        cut = first[:end] + ELLIPSIS
        if measure(cut) <= width:
            return cut
    return ELLIPSIS


def fit_label(label: tk.Misc, text: str, width: int, measure: Measure) -> bool:
    """Show ``text`` in ``label`` wrapped at ``width`` px, never inside a word; True if anything changed."""
    width = max(1, int(width))
    shown = wrap_text(text, width, measure)
    changed = False
    if str(label.cget("wraplength")) != str(width):
        label.configure({"wraplength": width})
        changed = True
    if str(label.cget("text")) != shown:
        label.configure({"text": shown})
        changed = True
    return changed


class Tooltip:
    """A small window with a text beside the pointer while it rests on ``widget``.

    ``text_at(x, y)`` says what to show at that point of the widget ("" for nothing), so one
    tooltip serves every row of a tree.  The window is made on first use and destroyed with the
    widget; moving to a point with another text moves the tooltip there.
    """

    def __init__(
        self, widget: tk.Misc, text_at: Callable[[int, int], str], *, delay_ms: int = TOOLTIP_DELAY_MS
    ) -> None:
        self._widget = widget
        self._text_at = text_at
        self._delay_ms = delay_ms
        self._pending: str | None = None
        self._wanted = ""
        self._point = (0, 0)
        self.window: tk.Toplevel | None = None
        self.label: tk.Label | None = None
        widget.bind("<Motion>", self._moved, add="+")
        widget.bind("<Leave>", self.hide, add="+")
        widget.bind("<ButtonPress>", self.hide, add="+")
        widget.bind("<Destroy>", self._destroyed, add="+")

    @property
    def text(self) -> str:
        """What the tooltip shows now ("" while hidden)."""
        if self.window is None or self.label is None or not self.window.winfo_viewable():
            return ""
        return str(self.label.cget("text"))

    def _moved(self, event: tk.Event[tk.Misc]) -> None:
        text = self._text_at(int(event.x), int(event.y))
        self._point = (int(event.x_root), int(event.y_root))
        if text == self._wanted and (self._pending is not None or self.text == text):
            return
        self.hide()
        self._wanted = text
        if text:
            self._pending = self._widget.after(self._delay_ms, self.show)

    def show(self) -> None:
        """Show the text for the pointer's last point now."""
        self._cancel()
        if not self._wanted:
            return
        if self.window is None:
            self.window = tk.Toplevel(self._widget)
            self.window.wm_overrideredirect(True)
            self.label = tk.Label(
                self.window,
                justify=tk.LEFT,
                background="#ffffe0",
                foreground="#000000",
                relief=tk.SOLID,
                borderwidth=1,
                padx=4,
                pady=2,
            )
            self.label.pack()
        assert self.label is not None
        fit_label(self.label, self._wanted, TOOLTIP_WRAP, TextMeasure.of(self.label))
        x, y = self._point
        self.window.wm_geometry(f"+{x + 12}+{y + 16}")
        self.window.deiconify()
        self.window.lift()

    def hide(self, _event: object = None) -> None:
        self._cancel()
        self._wanted = ""
        if self.window is not None:
            with contextlib.suppress(tk.TclError):
                self.window.withdraw()

    def _cancel(self) -> None:
        if self._pending is not None:
            with contextlib.suppress(tk.TclError):
                self._widget.after_cancel(self._pending)
            self._pending = None

    def _destroyed(self, event: tk.Event[tk.Misc]) -> None:
        if event.widget is not self._widget:
            return
        self._cancel()
        if self.window is not None:
            with contextlib.suppress(tk.TclError):
                self.window.destroy()
            self.window = None


class WrapFollower:
    """Labels that wrap at their container's width (less ``margin``), never inside a word.

    A text is shown through `show`, which remembers it, so a resize can wrap it again; until the
    container is laid out the labels wrap at ``width``.
    """

    def __init__(self, container: tk.Misc, *, width: int, margin: int) -> None:
        self._margin = margin
        self.width = max(1, width)
        self._texts: dict[tk.Misc, str] = {}
        self._measures: dict[str, TextMeasure] = {}
        # The view's cached write, once a text came through it: a resize writes through it too,
        # so its cache never holds a text the label no longer shows.
        self._setter: Callable[[tk.Misc, str, object], bool] | None = None
        container.bind("<Configure>", self._resized, add="+")

    def add(self, label: tk.Misc) -> None:
        self._texts[label] = str(label.cget("text"))
        label.configure({"wraplength": self.width})

    def text(self, label: tk.Misc) -> str:
        """The text ``label`` was asked to show (without the breaks put into long words)."""
        return self._texts.get(label, "")

    def shaped(self, label: tk.Misc, text: str) -> str:
        return wrap_text(text, self.width, self._measure(label))

    def show(self, label: tk.Misc, text: str, setter: Callable[[tk.Misc, str, object], bool]) -> bool:
        """Show ``text`` in ``label`` through ``setter`` (a view's cached write); True if it changed."""
        self._texts[label] = text
        self._setter = setter
        return setter(label, "text", self.shaped(label, text))

    def set_width(self, width: int) -> None:
        width = max(1, int(width))
        if width == self.width:
            return
        self.width = width
        for label, text in self._texts.items():
            with contextlib.suppress(tk.TclError):
                label.configure({"wraplength": width})
                shaped = self.shaped(label, text)
                if self._setter is not None:
                    self._setter(label, "text", shaped)
                else:
                    label.configure({"text": shaped})

    def _measure(self, label: tk.Misc) -> TextMeasure:
        font = str(label.cget("font")) or "TkDefaultFont"
        measure = self._measures.get(font)
        if measure is None:
            measure = self._measures[font] = TextMeasure.of(label)
        return measure

    def _resized(self, event: tk.Event[tk.Misc]) -> None:
        if int(event.width) > 1:
            self.set_width(int(event.width) - self._margin - LABEL_INSET)
