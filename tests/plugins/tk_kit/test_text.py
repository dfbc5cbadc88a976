# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Text that fits its widget: wrapped between words and inside long names only after a separator,
shortened by whole words, wrapped again when its frame changes width, told whole in a tooltip.

Widths come from the real fonts of a real Tk root; the line breaks are checked against Tk's own
rule (a word wider than the wrap length is cut wherever the line ends).
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable
from tkinter import ttk

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amc_rc_receiver.plugins.tk_kit.text import (
    ELLIPSIS,
    LABEL_INSET,
    TextMeasure,
    Tooltip,
    WrapFollower,
    fit_label,
    fit_words,
    wrap_text,
)
from tests.support.tk import packed, pump_until

pytestmark = pytest.mark.tk

FILE_NAME = "ArduCopter/05_remote_controller_receiver.param"


@pytest.fixture
def tk_geometry() -> str:
    return "600x400"


@pytest.fixture
def measure(root: tk.Tk) -> TextMeasure:
    return TextMeasure.of(ttk.Label(root))


def test_a_file_name_wider_than_the_line_breaks_only_after_a_separator_when_wrapped(
    measure: TextMeasure,
) -> None:
    """GIVEN a sentence holding a file name wider than the wrap length
    WHEN wrapped THEN every line fits, the file name is cut only after "/" or "_", and no letter is lost."""
    width = measure("05_remote_controller_") + 4
    text = f"13 parameters from {FILE_NAME} (read-only)"

    wrapped = wrap_text(text, width, measure)

    lines = wrapped.split("\n")
    assert len(lines) > 1
    assert all(measure(line) <= width for line in lines)
    # Each line is a piece of the text as it was; one that ends inside a word ends at a separator.
    position = 0
    for line in lines:
        position = text.index(line, position) + len(line)
        ends_a_word = position == len(text) or text[position] == " "
        assert ends_a_word or line.endswith(("/", "_", ".")), f"{line!r} ends inside a word"
    assert position == len(text)


def test_a_text_whose_words_all_fit_is_left_to_tk_when_wrapped(measure: TextMeasure) -> None:
    """GIVEN a sentence of short words WHEN wrapped at a narrow width THEN it comes back unchanged."""
    text = "Switch the transmitter off now, then press It is off."
    assert wrap_text(text, 120, measure) == text


def test_a_word_without_separators_is_cut_into_pieces_that_fit_when_wrapped(measure: TextMeasure) -> None:
    """GIVEN one word wider than the line and nothing to break it at WHEN wrapped THEN it is cut
    into pieces, each within the line."""
    word = "X" * 60
    wrapped = wrap_text(word, 100, measure)
    assert wrapped.replace("\n", "") == word
    assert all(measure(piece) <= 100 for piece in wrapped.split("\n"))


# More measurements than wrapping a 60-letter text can take: a wrap that never ends fails here.
_MEASUREMENTS = 100_000


def _monospace(pixels: int) -> Callable[[str], int]:
    """Letters ``pixels`` wide, and a wrap that never ends made a failure instead of a hang."""
    made = [0]

    def measure(text: str) -> int:
        made[0] += 1
        assert made[0] <= _MEASUREMENTS, "the wrap does not end"
        return pixels * len(text)

    return measure


@pytest.mark.pure
@pytest.mark.parametrize("width", [1, 3, 6])
def test_a_word_wrapped_narrower_than_one_letter_gets_a_letter_a_line(width: int) -> None:
    """GIVEN letters 7 px wide and a wrap length narrower than one of them (a window squeezed
    until the parameter table had 5 px: the wrap never ended, and the window froze)
    WHEN a word with separators and one without are wrapped THEN each comes back at once, a
    letter a line, no letter lost."""
    for word in ("05_remote_controller_receiver.param", "X" * 40):
        wrapped = wrap_text(word, width, _monospace(7))
        assert wrapped.split("\n") == list(word)


@pytest.mark.pure
@given(
    text=st.text(alphabet=st.sampled_from("ab_/. \n"), max_size=60),
    width=st.integers(min_value=1, max_value=80),
    pixels=st.integers(min_value=1, max_value=12),
)
def test_any_text_wrapped_at_any_width_keeps_its_letters_and_lines_fit_unless_one_letter(
    text: str, width: int, pixels: int
) -> None:
    """GIVEN any text of words, separators and line breaks, any wrap length and letter width WHEN
    wrapped THEN it ends, keeps every letter in order, and every line fits unless it is one letter."""
    measure = _monospace(pixels)
    wrapped = wrap_text(text, width, measure)
    assert "".join(wrapped.split()) == "".join(text.split())
    if wrapped != text:
        assert all(measure(line.strip()) <= width or len(line.strip()) <= 1 for line in wrapped.split("\n"))


def test_a_text_too_long_for_its_column_keeps_its_whole_words_and_an_ellipsis_when_fitted(
    measure: TextMeasure,
) -> None:
    """GIVEN a parameter's meaning longer than its column WHEN fitted THEN the shown text is whole
    words followed by an ellipsis, within the column; a text that fits stays as it is."""
    meaning = (
        "bitmask; 1 = try every protocol. Narrow it (e.g. 512 = CRSF only) if detection picks the wrong one"
    )
    width = 200

    shown = fit_words(meaning, width, measure)

    assert shown.endswith(" " + ELLIPSIS)
    assert measure(shown) <= width
    words = [word.rstrip(",;:") for word in shown[: -len(ELLIPSIS)].split()]
    assert words == [word.rstrip(",;:") for word in meaning.split()[: len(words)]]
    assert fit_words("flight mode switch channel", width, measure) == "flight mode switch channel"


def test_a_label_never_breaks_inside_a_word_when_fitted(root: tk.Tk, measure: TextMeasure) -> None:
    """GIVEN a label WHEN a long file name is fitted at a narrow width THEN its wrap length is that width
    and no word of what it shows is wider."""
    label = packed(ttk.Label(root))
    fit_label(label, f"Open {FILE_NAME}", 150, measure)

    assert int(label.cget("wraplength")) == 150
    assert all(measure(word) <= 150 for word in str(label.cget("text")).split())


def test_labels_wrap_again_at_their_frames_new_width_when_it_changes(root: tk.Tk) -> None:
    """GIVEN a label that follows its frame's width, showing a long file name
    WHEN the frame narrows THEN the label wraps at the new width, its text whole and unbroken, and
    the text it was given is still what it reports."""
    frame = packed(ttk.Frame(root))
    label = ttk.Label(frame)
    label.pack(fill=tk.X)
    follower = WrapFollower(frame, width=500, margin=10)
    follower.add(label)
    measure = TextMeasure.of(label)
    text = f"13 parameters from the bundled example {FILE_NAME} (read-only)"
    written: list[str] = []

    def setter(widget: tk.Misc, option: str, value: object) -> bool:
        written.append(str(value))
        widget.configure({option: value})
        return True

    follower.show(label, text, setter)
    root.geometry("200x400")

    def room() -> int:  # the frame's width less the margin and the label's own inset
        return frame.winfo_width() - 10 - LABEL_INSET

    assert pump_until(root, lambda: int(label.cget("wraplength")) == room())

    assert all(measure(word) <= room() for word in str(label.cget("text")).split())
    assert label.winfo_width() >= label.winfo_reqwidth()
    assert follower.text(label) == text
    assert written[-1] == str(label.cget("text"))


def test_the_pointer_resting_on_a_shortened_row_shows_its_whole_text_when_it_stays(root: tk.Tk) -> None:
    """GIVEN a widget whose tooltip tells a long text at its top half and nothing below
    WHEN the pointer moves onto the top half THEN the tooltip shows that text; WHEN it leaves THEN
    the tooltip hides."""
    area = packed(tk.Frame(root, width=300, height=200))
    whole = "radio failsafe on; 1 = return to launch, or land when there is no position"
    tooltip = Tooltip(area, lambda _x, y: whole if y < 100 else "", delay_ms=1)
    root.update()

    area.event_generate("<Motion>", x=20, y=20)
    assert pump_until(root, lambda: tooltip.text == whole)

    area.event_generate("<Leave>")
    root.update()
    assert tooltip.text == ""
    area.event_generate("<Motion>", x=20, y=150)
    root.update()
    assert tooltip.text == ""
