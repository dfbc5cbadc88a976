# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The receiver check by keyboard: access keys, a focus that shows, and a focus kept in view.

The guided test's buttons answer the terminal view's keys (``o`` it is off, ``i`` it is on, ``s``
skip this stick, ``r`` new test) in every language, so the letter is underlined where the
translated label has it and added as "(O)" where it has not. Alt+key works anywhere in the window;
the bare key works while the focus is inside the check, which holds no text entry that would want
the letter. The Alt bindings sit on the toplevel beside whatever the host bound there, and leave
with the view.

Tab follows the order in which the widgets were made, which is their reading order; a focused
button wears a thick coloured ring (a ttk style of our own, so a host's buttons keep theirs) and
a focused widget inside a scrolling area is scrolled into view.
"""

from __future__ import annotations

import contextlib
import tkinter as tk
from collections.abc import Callable
from tkinter import ttk

FOCUS_COLOUR = "#1565c0"
FOCUS_THICKNESS = 2
# Our buttons' style: the theme's button with a ring that a person can see from a distance.
BUTTON_STYLE = "RCReceiver.TButton"


def access_label(text: str, key: str) -> tuple[str, int]:
    """``text`` and the index to underline for ``key``: a word that starts with it, else its first
    occurrence, else " (K)" appended."""
    lower = text.lower()
    wanted = key.lower()
    for index, character in enumerate(lower):
        if character == wanted and (index == 0 or not lower[index - 1].isalnum()):
            return text, index
    index = lower.find(wanted)
    if index >= 0:
        return text, index
    suffix = f" ({key.upper()})"
    return text + suffix, len(text) + 2


def style_focus(widget: tk.Misc, style: str = BUTTON_STYLE) -> str:
    """Give ``style`` (a ttk style name) the visible focus ring; returns the name."""
    ttk.Style(widget).configure(style, focuscolor=FOCUS_COLOUR, focusthickness=FOCUS_THICKNESS)
    return style


def bind_beside(widget: tk.Misc, sequence: str, handler: Callable[[tk.Event[tk.Misc]], object]) -> str:
    """Bind ``handler`` to ``sequence`` on ``widget`` after what is bound there already; the id
    is for `unbind_beside`."""
    return widget.bind(sequence, handler, add="+")


def unbind_beside(widget: tk.Misc, sequence: str, funcid: str) -> None:
    """Remove only the binding ``funcid`` made by `bind_beside`, keeping the others.

    ``Misc.unbind(sequence, funcid)`` of Python before 3.13 removes every binding of the sequence.
    """
    with contextlib.suppress(tk.TclError):
        script = str(widget.bind(sequence) or "")
        kept = "\n".join(line for line in script.split("\n") if funcid not in line)
        widget.bind(sequence, kept)
        widget.deletecommand(funcid)


def select_on_focus(tree: ttk.Treeview) -> None:
    """Select the first row when ``tree`` takes the focus with none selected: a tree shows its
    focus only through the selected row."""

    def focused(_event: object) -> None:
        rows = tree.get_children()
        if rows and not tree.selection():
            tree.focus(rows[0])
            tree.selection_set(rows[0])

    tree.bind("<FocusIn>", focused, add="+")


class ViewKeys:
    """The access keys and focus handling of one view (a frame and everything inside it)."""

    def __init__(self, view: tk.Misc) -> None:
        self._view = view
        self._tag = f"RCReceiverKeys{id(self)}"
        self._buttons: dict[str, ttk.Button] = {}
        self._toplevel_bindings: list[tuple[str, str]] = []
        self._attached = False
        self._on_focus: Callable[[tk.Misc], None] | None = None
        style_focus(view)

    @property
    def keys(self) -> dict[str, ttk.Button]:
        return dict(self._buttons)

    def add(self, button: ttk.Button, key: str) -> None:
        """Make ``key`` press ``button``: underlined in its label, Alt+key anywhere, the key alone
        while the focus is in the view."""
        text, index = access_label(str(button.cget("text")), key)
        button.configure(text=text, underline=index, style=BUTTON_STYLE)
        for letter in {key.lower(), key.upper()}:
            self._buttons[letter] = button
            self._view.bind_class(self._tag, f"<KeyPress-{letter}>", self._pressed)
            toplevel = self._view.winfo_toplevel()
            sequence = f"<Alt-KeyPress-{letter}>"
            self._toplevel_bindings.append((sequence, bind_beside(toplevel, sequence, self._pressed)))

    def follow_focus(self, on_focus: Callable[[tk.Misc], None]) -> None:
        """Call ``on_focus(widget)`` whenever a widget inside the view takes the focus."""
        self._on_focus = on_focus
        self._view.bind_class(self._tag, "<FocusIn>", self._focused)

    def attach(self) -> None:
        """Give every widget now inside the view the view's bindings (call once it is built)."""
        pending: list[tk.Misc] = [self._view]
        while pending:
            widget = pending.pop()
            tags = tuple(widget.bindtags())
            if self._tag not in tags:
                # After the widget's class: the class's own keys (space on a button) come first.
                position = min(2, len(tags))
                widget.bindtags((*tags[:position], self._tag, *tags[position:]))
            pending.extend(widget.winfo_children())
        self._attached = True

    def close(self) -> None:
        toplevel = self._view.winfo_toplevel()
        for sequence, funcid in self._toplevel_bindings:
            unbind_beside(toplevel, sequence, funcid)
        self._toplevel_bindings.clear()
        with contextlib.suppress(tk.TclError):
            for sequence in self._view.bind_class(self._tag):
                self._view.unbind_class(self._tag, sequence)

    def press(self, key: str) -> bool:
        """What the key does: press its button if that is shown and enabled; True if it did."""
        button = self._buttons.get(key)
        if button is None:
            return False
        try:
            if not button.winfo_viewable() or button.instate(["disabled"]):
                return False
            button.invoke()
        except tk.TclError:  # the view is being destroyed
            return False
        return True

    def _pressed(self, event: tk.Event[tk.Misc]) -> str | None:
        if event.widget is not None and not _inside(event.widget, self._view.winfo_toplevel()):
            return None
        return "break" if self.press(str(event.keysym)) else None

    def _focused(self, event: tk.Event[tk.Misc]) -> None:
        # Tk tells the frames around the focused widget too (as "virtual" focus): only the widget
        # that has the focus is to be brought into view.
        widget = event.widget
        if self._on_focus is not None and isinstance(widget, tk.Misc) and widget is _focus_of(widget):
            self._on_focus(widget)


def _focus_of(widget: tk.Misc) -> tk.Misc | None:
    try:
        return widget.focus_get()
    except (tk.TclError, KeyError):  # a focus in a widget Tkinter does not know (a dialog's)
        return None


def _inside(widget: object, toplevel: tk.Misc) -> bool:
    try:
        return isinstance(widget, tk.Misc) and widget.winfo_toplevel() is toplevel
    except (tk.TclError, KeyError):
        return False
