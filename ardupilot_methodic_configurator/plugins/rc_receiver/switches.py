# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The switch step: the mode switch through its six slots, then each aux switch once.

A person is asked to flip the mode switch through its positions and each aux switch (a channel
with an ``RCn_OPTION``) once; the step goes on once every slot and switch was seen, after
`IDLE_S` without anything new, or when skipped.  A program that owns the transmitter (demo, SITL)
puts the mode switch in the middle of each slot's band in turn, holding it until the vehicle
answered (its mode in a HEARTBEAT, or its refusal) or `SLOT_WAIT_S` passed, then flips each aux
switch high and back low (never one that arms: `ARMING_OPTIONS`), and finally leaves the mode
switch in slot 1.

What the vehicle answered is gathered for the whole test, in message order: the slot the switch is
in comes with every RC_CHANNELS (`observe_slot`), a HEARTBEAT's ``custom_mode`` counts for the
slot once the switch has been there `SETTLED_AFTER_S`, and a refusal text for the slot the switch
is in.  Bounded: six slots, a few modes each.  Pure logic on the caller's clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from .evidence import flight_mode_reading
from .firmware import VehicleFamily, mode_slot
from .modes import (
    AUX_HIGH_ABOVE_US,
    AUX_HIGH_US,
    AUX_LOW_BELOW_US,
    AUX_LOW_US,
    IDLE_S,
    MODE_SWITCH_DEBOUNCE_S,
    SETTLED_AFTER_S,
    SLOT_CENTRE_US,
    SLOT_COUNT,
    is_mode_refusal,
    judge_slots,
    with_reported_mode,
)
from .snapshot import FlightModeReading, ModeSlotVisit, SwitchPrompt

# How long a program holds a slot waiting for the vehicle's answer (HEARTBEAT comes at 1 Hz).
SLOT_WAIT_S = 4.0
# How long a program holds an aux switch at one end (ArduPilot debounces 200 ms).
AUX_HOLD_S = 0.5
AUX_WAIT_S = 2.0
_MAX_MODES_PER_SLOT = 4


@dataclass(frozen=True)
class SwitchHold:
    """What the switch step asks of a program-owned transmitter: ``channel`` held at ``pwm``
    (earlier holds stay); no channel: let go of every switch."""

    channel: int | None
    pwm: int = 0


@dataclass(frozen=True)
class _Target:
    channel: int
    pwm: int
    slot: int | None = None  # a mode slot, else an aux switch end


class SwitchTest:
    """The switch step of one test and the mode switch's evidence; see the module docstring."""

    def __init__(self) -> None:
        self.version = 0
        # The mode the vehicle reports (HEARTBEAT.custom_mode): the link's, kept across tests.
        self.reported_mode: int | None = None
        self._visits: dict[int, ModeSlotVisit] = {}
        self._slot: int | None = None
        self._slot_since = 0.0
        self.restart()

    def restart(self) -> None:
        self.version += 1
        self._visits = {}
        self._slot = None
        self._slot_since = 0.0
        self._started_at: float | None = None
        self._last_new_at: float | None = None
        self._skipped = False
        self._aux_seen: dict[int, tuple[bool, bool]] = {}
        self._targets: tuple[_Target, ...] = ()
        self._index = 0
        self._target_since: float | None = None
        self._on_target_since: float | None = None
        self._done = False
        self._mode_channel: int | None = None
        self._aux: tuple[int, ...] = ()
        self._by_program = False

    # ------------------------------------------------------------ evidence, in message order

    def observe_pwm(self, pwm: int | None, now: float) -> None:
        """The mode channel reads ``pwm`` (None: no mode channel or no reading) as of ``now``."""
        self.observe_slot(mode_slot(pwm), pwm, now)

    def observe_slot(self, slot: int | None, pwm: int | None, now: float) -> None:
        """The mode switch is in ``slot`` (None: no valid position) as of ``now``."""
        if slot != self._slot:
            self._slot, self._slot_since = slot, now
        if slot is None or now - self._slot_since < MODE_SWITCH_DEBOUNCE_S:
            return
        visit = self._visits.get(slot)
        if visit is None:
            self._visits[slot] = ModeSlotVisit(slot, now, pwm)
            self._last_new_at = now
            self.version += 1
        elif visit.pwm != pwm and pwm is not None:
            self._visits[slot] = replace(visit, pwm=pwm)

    def forget_vehicle(self) -> None:
        """A new connection: the mode reported so far was another link's."""
        self.reported_mode = None
        self.version += 1

    def note_heartbeat(self, custom_mode: int, now: float) -> None:
        if custom_mode != self.reported_mode:
            self.reported_mode = custom_mode
            self.version += 1
        slot = self._slot
        if slot is None or now - self._slot_since < SETTLED_AFTER_S:
            return
        visit = self._visits.get(slot)
        if visit is None:
            return
        modes = visit.reported_modes
        if custom_mode not in modes:
            modes = (*modes, custom_mode)[-_MAX_MODES_PER_SLOT:]
        elif modes[-1] != custom_mode:
            modes = (*(mode for mode in modes if mode != custom_mode), custom_mode)
        self._visits[slot] = replace(visit, reported_modes=modes, heartbeats=visit.heartbeats + 1)
        self.version += 1

    def note_text(self, text: str, now: float) -> None:
        """A STATUSTEXT: ArduPilot's refusal of a mode change counts for the slot the switch is in."""
        slot = self._slot
        if slot is None or not is_mode_refusal(text):
            return
        visit = self._visits.get(slot) or ModeSlotVisit(slot, now)
        self._visits[slot] = replace(visit, failure_text=text)
        self.version += 1

    def visits(self) -> tuple[ModeSlotVisit, ...]:
        return tuple(sorted(self._visits.values(), key=lambda visit: visit.at))

    def evidence(
        self, family: VehicleFamily, values: Mapping[str, float], pwm_of: Mapping[int, int]
    ) -> tuple[tuple[ModeSlotVisit, ...], FlightModeReading | None]:
        """The visited slots judged with ``values``, and the mode switch's reading now with the
        mode the vehicle reports."""
        reading = flight_mode_reading(family, values, pwm_of)
        return judge_slots(family, values, self.visits()), with_reported_mode(
            reading, family, self.reported_mode
        )

    # ------------------------------------------------------------ the step

    def done(self) -> bool:
        return self._done

    def skip(self, now: float) -> None:
        del now
        if not self._done:
            self._skipped = True
            self._done = True
            self.version += 1

    def update(
        self,
        now: float,
        mode_channel: int | None,
        aux_channels: tuple[int, ...],
        channel_pwm: Mapping[int, int],
        *,
        by_program: bool,
        slot_modes: Mapping[int, int] | None = None,
    ) -> None:
        """Advance the step with this poll's channels; ``slot_modes`` (slot -> mode number, where
        known) lets a program move on as soon as the vehicle reported a slot's mode."""
        if self._done:
            return
        if self._started_at is None:
            self._started_at = now
            self._mode_channel, self._aux, self._by_program = mode_channel, aux_channels, by_program
            self._targets = _sequence(mode_channel, aux_channels) if by_program else ()
            self.version += 1
        for channel in self._aux:
            pwm = channel_pwm.get(channel)
            if pwm is None:
                continue
            low, high = self._aux_seen.get(channel, (False, False))
            seen = (low or pwm < AUX_LOW_BELOW_US, high or pwm > AUX_HIGH_ABOVE_US)
            if seen != (low, high):
                self._aux_seen[channel] = seen
                self._last_new_at = now
                self.version += 1
        if self._by_program:
            self._advance_program(now, channel_pwm, slot_modes or {})
        elif self._complete() or now - max(self._started_at, self._last_new_at or 0.0) >= IDLE_S:
            self._done = True
            self.version += 1

    def _complete(self) -> bool:
        slots = self._mode_channel is None or len(self._visits) >= SLOT_COUNT
        return slots and len(self._flipped()) == len(self._aux)

    def _flipped(self) -> tuple[int, ...]:
        return tuple(channel for channel in self._aux if all(self._aux_seen.get(channel, (False, False))))

    def _advance_program(self, now: float, channel_pwm: Mapping[int, int], modes: Mapping[int, int]) -> None:
        while self._index < len(self._targets):
            target = self._targets[self._index]
            if self._target_since is None:
                self._target_since, self._on_target_since = now, None
            if not self._answered(target, now, channel_pwm, modes):
                return
            self._index += 1
            self._target_since = None
            self.version += 1
        self._done = True
        self.version += 1

    def _answered(
        self, target: _Target, now: float, channel_pwm: Mapping[int, int], modes: Mapping[int, int]
    ) -> bool:
        waited = 0.0 if self._target_since is None else now - self._target_since
        if target.slot is not None:
            visit = self._visits.get(target.slot)
            if visit is not None and (
                visit.failure_text is not None
                or modes.get(target.slot) in visit.reported_modes
                or visit.heartbeats >= 2
            ):
                return True
            return waited >= SLOT_WAIT_S
        pwm = channel_pwm.get(target.channel)
        high = target.pwm > AUX_HIGH_ABOVE_US
        there = pwm is not None and (pwm > AUX_HIGH_ABOVE_US if high else pwm < AUX_LOW_BELOW_US)
        if not there:
            self._on_target_since = None
        elif self._on_target_since is None:
            self._on_target_since = now
        held = self._on_target_since is not None and now - self._on_target_since >= AUX_HOLD_S
        return held or waited >= AUX_WAIT_S

    def wanted(self) -> SwitchHold | None:
        """For the program: the switch to hold now (the mode switch back in slot 1 once done)."""
        if not self._by_program or self._started_at is None:
            return None
        if self._index < len(self._targets) and not self._done:
            target = self._targets[self._index]
            return SwitchHold(target.channel, target.pwm)
        if self._mode_channel is not None and not self._skipped:
            return SwitchHold(self._mode_channel, SLOT_CENTRE_US[0])
        return None

    def next_change_at(self) -> float | None:
        """When time alone may move the step on (a wait or the idle time ends), if it runs."""
        if self._done or self._started_at is None:
            return None
        if self._by_program:
            return None if self._target_since is None else self._target_since
        return max(self._started_at, self._last_new_at or 0.0) + IDLE_S

    def prompt(self) -> SwitchPrompt:
        return SwitchPrompt(
            mode_channel=self._mode_channel,
            slots_seen=tuple(sorted(self._visits)),
            aux_channels=self._aux,
            aux_flipped=self._flipped(),
            by_program=self._by_program,
        )


def _sequence(mode_channel: int | None, aux_channels: tuple[int, ...]) -> tuple[_Target, ...]:
    targets: list[_Target] = []
    if mode_channel is not None:
        targets.extend(_Target(mode_channel, pwm, slot) for slot, pwm in enumerate(SLOT_CENTRE_US, start=1))
    for channel in aux_channels:
        targets.extend((_Target(channel, AUX_HIGH_US), _Target(channel, AUX_LOW_US)))
    return tuple(targets)
