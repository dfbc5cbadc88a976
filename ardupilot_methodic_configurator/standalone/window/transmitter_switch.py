# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window's hold on the program's own transmitter (the demo's or SITL's): its switch, its
sticks, and a scheduled switch-off.

Only the program can move that transmitter, so the guide of the receiver check is given the
switch and the sticks here; a person's own transmitter is never offered to it.  The check times
the failsafe from the switch, so every switch is noted in the model too.
"""

from __future__ import annotations

import contextlib
import tkinter as tk
from collections.abc import Callable

from ... import _
from ...plugins.rc_receiver.program_transmitter import StickHold
from ...plugins.rc_receiver.switches import SwitchHold
from .window_parts import WindowParts


class TransmitterSwitch:
    """Switches the program's transmitter for the window, its guide and its schedule."""

    def __init__(self, window: WindowParts, guard: Callable[[str, Callable[[], object]], None]) -> None:
        self._window = window
        # Runs plugin code so that its failure is a status line, never a broken window.
        self._guard = guard
        self._schedule: tuple[float, float | None] | None = None
        self._schedule_started = False
        self._after_ids: list[str] = []

    @property
    def scheduled(self) -> bool:
        return self._schedule is not None

    def set_on(self, on: bool) -> None:
        """Switch the transmitter and show the switch's new position."""
        if self._window.closed:
            return
        self._switch(on)
        # The receiver check times the failsafe from this switch.
        note = getattr(self._window.host.active_model, "note_transmitter_switched", None)
        if callable(note):
            self._guard(_("note the transmitter switch"), lambda: note(on))

    def _switch(self, on: bool) -> None:
        bar = self._window.connection_bar
        bar.show_transmitter(on)
        error = self._window.session.set_transmitter_on(on)
        if error:
            bar.show_status(error, error=True)

    def let_the_guide_switch(self) -> None:
        give = getattr(self._window.host.active_model, "set_transmitter_switch", None)
        if callable(give):
            give(self._switch)

    def let_the_guide_move_sticks(self, program_owned: bool) -> None:
        model = self._window.host.active_model
        give = getattr(model, "set_stick_mover", None)
        if callable(give):
            give(self._hold_sticks if program_owned else None)
        # The same transmitter's mode and aux switches, at the switch step.
        give_switches = getattr(model, "set_switch_mover", None)
        if callable(give_switches):
            give_switches(self._hold_switch if program_owned else None)
        if not program_owned:
            take = getattr(model, "set_transmitter_switch", None)
            if callable(take):
                take(None)

    def _hold_sticks(self, hold: StickHold) -> None:
        error = self._window.session.hold_sticks(hold)
        if error:
            self._window.connection_bar.show_status(error, error=True)

    def _hold_switch(self, hold: SwitchHold) -> None:
        error = self._window.session.hold_switch(hold)
        if error:
            self._window.connection_bar.show_status(error, error=True)

    def set_schedule(self, off_after: float | None, off_for: float | None = 1.5) -> None:
        """Once connected: transmitter off after ``off_after`` s, on again ``off_for`` s later."""
        self._schedule = None if off_after is None else (off_after, off_for)
        session = self._window.session
        if session.transmitter_available and session.flight_controller.is_connected:
            self.start_schedule()

    def start_schedule(self) -> None:
        if self._schedule is None or self._schedule_started:
            return
        self._schedule_started = True
        off_after, off_for = self._schedule
        root = self._window.root
        self._after_ids.append(root.after(int(off_after * 1000), lambda: self.set_on(False)))
        if off_for is not None:
            self._after_ids.append(root.after(int((off_after + off_for) * 1000), lambda: self.set_on(True)))

    def cancel_schedule(self) -> None:
        for after_id in self._after_ids:
            with contextlib.suppress(tk.TclError):
                self._window.root.after_cancel(after_id)
        self._after_ids.clear()
