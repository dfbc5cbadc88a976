# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window's part of running SITL: its console under the receiver step.

``SitlConsolePanel`` shows what SITL prints (and the runner's own notes, in another colour) in a
read-only text box bounded to ``MAX_SHOWN_LINES``, appending only the lines it has not shown yet,
with a one-line summary of the runner above it.  The receiver check above it gets the room first:
in a window lower than ``CONSOLE_OPEN_FROM_HEIGHT`` the text box is closed to the summary (its
title opens it), in a taller one it is open, and once the person toggles it their choice stays.
``SitlWindowSupport`` ticks it on a ``TickTimer`` so nothing outlives the window.  Following
SITL's link through a restart is the window's own link follower's job, as for any other link.
"""

from __future__ import annotations

import contextlib
import tkinter as tk
from tkinter import ttk
from typing import Protocol

from ... import _
from ...demo.sitl_rc_input import FailsafeMode
from ...plugins.tk_kit.text import WrapFollower
from ...plugins.tk_kit.ticks import TickTimer
from ...sitl.config import SitlStatus, state_text
from ...sitl.runner import SitlRunner
from ..session import VehicleSession

TICK_MS = 250
MAX_SHOWN_LINES = 1000
# Few lines: on a 720 px screen the receiver check above must keep its readings in view; the
# console scrolls, and follows its end.
CONSOLE_HEIGHT_LINES = 4
# Measured (tests/standalone/window/test_window_geometry.py): in a 720 px window the open console
# pushes the receiver status up to 52 px below the fold; the default 860 px window holds both.
CONSOLE_OPEN_FROM_HEIGHT = 860
_OPEN_MARK = "▾"
_CLOSED_MARK = "▸"
COLOUR_NOTE = "#1f5fa8"


def format_sitl_status(runner: SitlRunner, status: SitlStatus) -> str:
    """The panel's summary line."""
    if status.pid is not None:
        state = _("running (process {pid})").format(pid=status.pid)
    elif status.last_exit:
        state = _("{state} ({reason})").format(state=state_text(status.state), reason=status.last_exit)
    else:
        state = state_text(status.state)
    if status.reads_json_rc is None:
        json_rc = _("JSON rc: not known yet")
    elif status.reads_json_rc:
        json_rc = _("JSON rc: read by this build")
    else:
        json_rc = _("JSON rc: ignored by this build")
    mode = (
        _("no pulses (SIM_RC_FAIL)")
        if runner.config.failsafe_mode is FailsafeMode.NO_PULSES
        else _("low throttle")
    )
    parts = [
        _("SITL instance {instance}: {state}").format(instance=runner.config.instance, state=state),
        _("restarts: {count}").format(count=status.restarts),
        _("RC input UDP {port}").format(port=runner.ports.rc_input),
        json_rc,
        (
            _("receiver: delivering")
            if status.receiver_delivering
            else _("receiver: silent until the check connects")
        ),
        _("transmitter off means: {mode}").format(mode=mode),
    ]
    return " · ".join(parts)


def _write(widget: tk.Misc, option: str, value: object) -> bool:
    widget.configure({option: value})
    return True


class SitlConsolePanel(ttk.LabelFrame):
    """SITL's console output and the runner's summary; call ``refresh()`` to show new lines."""

    def __init__(self, parent: tk.Misc, runner: SitlRunner) -> None:
        super().__init__(parent)
        self._expanded = True
        self._user_choice: bool | None = None
        # The title opens and closes the console's text.
        self.toggle_button = ttk.Button(self, text=self._toggle_text(), command=self.toggle)
        self.configure(labelwidget=self.toggle_button)
        self._runner = runner
        self._cursor = 0
        self._shown = 0
        self.status_label = ttk.Label(self, text="", anchor=tk.W, justify=tk.LEFT)
        self.status_label.pack(fill=tk.X, padx=6, pady=(2, 2))
        # One line at the window's usual width; a narrow window wraps it between its parts.
        self._status_wrap = WrapFollower(self, width=1200, margin=12)
        self._status_wrap.add(self.status_label)
        self.body = frame = ttk.Frame(self)
        frame.pack(fill=tk.BOTH, expand=True, padx=6, pady=(0, 6))
        self.text = tk.Text(frame, height=CONSOLE_HEIGHT_LINES, wrap=tk.NONE, font="TkFixedFont")
        scrollbar = ttk.Scrollbar(frame, orient=tk.VERTICAL, command=self.text.yview)
        self.text.configure(yscrollcommand=scrollbar.set, state=tk.DISABLED)
        self.text.tag_configure("note", foreground=COLOUR_NOTE)
        scrollbar.pack(side=tk.RIGHT, fill=tk.Y)
        self.text.pack(side=tk.LEFT, fill=tk.BOTH, expand=True)

    def _toggle_text(self) -> str:
        mark = _OPEN_MARK if self._expanded else _CLOSED_MARK
        return _("ArduPilot SITL console {mark}").format(mark=mark)

    @property
    def expanded(self) -> bool:
        return self._expanded

    @property
    def user_choice(self) -> bool | None:
        """Open (True) or closed (False) as the person last chose, or None if never."""
        return self._user_choice

    def toggle(self) -> None:
        """The person's toggle: remembered, so the window's height never overrides it again."""
        self._user_choice = not self._expanded
        self.set_expanded(self._user_choice)

    def follow_height(self, height: int) -> None:
        """Open the text in a window at least ``CONSOLE_OPEN_FROM_HEIGHT`` tall, unless the person chose."""
        if self._user_choice is None and height > 1:
            self.set_expanded(height >= CONSOLE_OPEN_FROM_HEIGHT)

    def set_expanded(self, expanded: bool) -> None:
        if expanded == self._expanded:
            return
        self._expanded = expanded
        self.toggle_button.configure(text=self._toggle_text())
        if expanded:
            self.body.pack(fill=tk.BOTH, expand=True, padx=6, pady=(0, 6))
            self.text.see(tk.END)
        else:
            self.body.pack_forget()

    def text_content(self) -> str:
        return str(self.text.get("1.0", "end-1c"))

    def refresh(self) -> None:
        status_text = format_sitl_status(self._runner, self._runner.status())
        if self._status_wrap.text(self.status_label) != status_text:
            self._status_wrap.show(self.status_label, status_text, _write)
        lines, self._cursor = self._runner.console.since(self._cursor)
        if not lines:
            return
        # Follow the end only if the person has not scrolled up to read something.
        at_end = self.text.yview()[1] >= 0.999
        self.text.configure(state=tk.NORMAL)
        for line in lines:
            self.text.insert(tk.END, line.text + "\n", () if line.from_sitl else ("note",))
        self._shown += len(lines)
        excess = self._shown - MAX_SHOWN_LINES
        if excess > 0:
            self.text.delete("1.0", f"{excess + 1}.0")
            self._shown -= excess
        self.text.configure(state=tk.DISABLED)
        if at_end:
            self.text.see(tk.END)


def show_console(root: tk.Misc, runner: SitlRunner, *, before: tk.Misc | None = None) -> SitlConsolePanel:
    """The console of ``runner`` along the bottom of ``root``, under the widget ``before``."""
    panel = SitlConsolePanel(root, runner)
    toplevel = panel.winfo_toplevel()

    def follow(event: tk.Event) -> None:
        if event.widget is toplevel:
            with contextlib.suppress(tk.TclError):  # the panel may be gone, the window not yet
                panel.follow_height(int(event.height))

    # A binding on the toplevel sees every widget's <Configure>; only the window's own counts.
    toplevel.bind("<Configure>", follow, add="+")
    panel.follow_height(toplevel.winfo_height())
    pack_options: dict[str, object] = {"side": tk.BOTTOM, "fill": tk.X, "padx": 8, "pady": (0, 8)}
    if before is not None:
        pack_options["before"] = before
    panel.pack(**pack_options)  # type: ignore[arg-type]
    if before is not None:
        # Read (and reached by Tab) right after the step it sits under, before the bridge.
        panel.lift(before)
    return panel


class _WindowLike(Protocol):
    @property
    def session(self) -> VehicleSession: ...


class SitlWindowSupport:
    """Adds the SITL console to a window when the session runs SITL; ``close()`` stops its timer."""

    def __init__(self, root: tk.Misc, window: _WindowLike, *, before: tk.Misc | None = None) -> None:
        runner = window.session.sitl
        self.panel = show_console(root, runner, before=before) if runner is not None else None
        self._timer = TickTimer(root, TICK_MS, self._tick)
        self._timer.start()

    def _tick(self) -> None:
        if self.panel is not None:
            self.panel.refresh()

    def close(self) -> None:
        self._timer.close()
