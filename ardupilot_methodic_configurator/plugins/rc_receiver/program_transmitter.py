# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A transmitter the program owns (the demo's, SITL's): switched and its sticks moved at the guided
test's steps, where a person would be asked.

The guide says what it wants (`TransmitterGuide.wanted_transmitter` / `wanted_stick`); each wish
is passed on once, and a fault of the host's switch or sticks never stops the poll.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .guide import TransmitterGuide
from .switches import SwitchHold

TransmitterSwitch = Callable[[bool], object]


@dataclass(frozen=True)
class StickHold:
    """What the stick step asks of a program-owned transmitter: rest every stick but ``axis``
    ("roll", "pitch"...), pushed the way the step asks once ``pushed``; no axis: let go of them all.
    ``throttle_centres``: the throttle rests at the centre (a rover's), not at the bottom."""

    axis: str | None
    pushed: bool = False
    throttle_centres: bool = False


StickMover = Callable[[StickHold], object]
SwitchMover = Callable[[SwitchHold], object]


class ProgramTransmitter:
    """The switch and sticks the host lends the guided test, and what was last asked of them."""

    def __init__(self) -> None:
        self._switch: TransmitterSwitch | None = None
        self._commanded: bool | None = None
        self._mover: StickMover | None = None
        self._commanded_stick: StickHold | None = None
        self._switch_mover: SwitchMover | None = None
        self._commanded_switch: SwitchHold | None = None

    @property
    def switches(self) -> bool:
        """True if the program switches the transmitter itself."""
        return self._switch is not None

    @property
    def program_owned(self) -> bool:
        """True if the program switches the transmitter or moves its sticks or switches."""
        return self._switch is not None or self._mover is not None or self._switch_mover is not None

    @property
    def moves_sticks(self) -> bool:
        return self._mover is not None

    def set_switch(self, switch: TransmitterSwitch | None) -> None:
        self._switch = switch
        self._commanded = None

    def set_mover(self, mover: StickMover | None) -> None:
        self.release_sticks()
        self._mover = mover
        self._commanded_stick = None

    def set_switch_mover(self, mover: SwitchMover | None) -> None:
        self.release_switches()
        self._switch_mover = mover
        self._commanded_switch = None

    def restart(self) -> None:
        """A new test: nothing asked of the transmitter yet, its sticks and switches let go."""
        self._commanded = None
        self.release_sticks()
        self.release_switches()

    def release_switches(self) -> None:
        if self._commanded_switch is not None:
            self._commanded_switch = None
            self._call(self._switch_mover, SwitchHold(None))

    def _drive_switches(self, guide: TransmitterGuide) -> None:
        if self._switch_mover is None:
            return
        wanted = guide.wanted_switch()
        if wanted is None:
            self.release_switches()
        elif wanted != self._commanded_switch:
            self._commanded_switch = wanted
            self._call(self._switch_mover, wanted)

    @staticmethod
    def _call(mover: SwitchMover | None, hold: SwitchHold) -> None:
        if mover is None:
            return
        try:
            mover(hold)
        except Exception:  # the switches are the host's; their fault must not stop the poll
            return

    def drive(self, guide: TransmitterGuide, throttle_centres: bool, now: float) -> None:
        """Pass on what the guide wants now of the sticks and the switch."""
        self._drive_sticks(guide, throttle_centres)
        self._drive_switches(guide)
        self._drive_switch(guide, now)

    def _drive_sticks(self, guide: TransmitterGuide, throttle_centres: bool) -> None:
        if self._mover is None:
            return
        wanted = guide.wanted_stick()
        if wanted is None:
            self.release_sticks()
            return
        hold = StickHold(wanted[0], wanted[1], throttle_centres)
        if hold != self._commanded_stick:
            self._commanded_stick = hold
            self._move(hold)

    def release_sticks(self) -> None:
        if self._commanded_stick is not None:
            self._commanded_stick = None
            self._move(StickHold(None))

    def _move(self, hold: StickHold) -> None:
        mover = self._mover
        if mover is None:
            return
        try:
            mover(hold)
        except Exception:  # the sticks are the host's; their fault must not stop the poll
            return

    def _drive_switch(self, guide: TransmitterGuide, now: float) -> None:
        switch = self._switch
        wanted = guide.wanted_transmitter()
        if switch is None or wanted is None or wanted == self._commanded:
            return
        self._commanded = wanted
        try:
            switch(wanted)
        except Exception:  # the transmitter is the host's; its fault must not stop the poll
            return
        guide.note_switch(wanted, now, by_program=True)
