# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the vehicle answered to its mode switch, from its HEARTBEATs and its refusal texts.

Besides RC_CHANNELS, two messages tell what a position of the mode switch did: a HEARTBEAT's
``custom_mode`` (the mode the vehicle is in) and ArduPilot's refusal of a mode change ("Mode
change to SMARTRTL failed: …", `modes.is_mode_refusal`).  Either counts for the slot the switch
is in as of the RC_CHANNELS read before it, so the switch's position on the mode channel is noted
first and the answer after it: the switch step (`switches.SwitchTest`) keeps both in message
order and judges the slots.  The tracker hands over every HEARTBEAT and every STATUSTEXT of the
selected vehicle; the mode channel comes from the vehicle's family (`VehicleIdentity`) and
parameters (`ParameterKnowledge`), asked only when a message concerns the switch (both are worked
out once per snapshot).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .evidence import ChannelSpans
from .firmware import VehicleFamily, mode_channel
from .modes import is_mode_refusal
from .parameter_knowledge import ParameterKnowledge
from .snapshot import FlightModeReading, ModeSlotVisit
from .switches import SwitchTest
from .vehicle_identity import VehicleIdentity


class SwitchEvidence:
    """Feeds the switch step what the vehicle's messages say of its mode switch; see the module
    docstring."""

    def __init__(
        self,
        switches: SwitchTest,
        spans: ChannelSpans,
        identity: VehicleIdentity,
        knowledge: ParameterKnowledge,
    ) -> None:
        self._switches = switches
        self._spans = spans
        self._identity = identity
        self._knowledge = knowledge

    @property
    def version(self) -> int:
        """Changes whenever `judge` may answer differently (and when the switch step moved on)."""
        return self._switches.version

    def forget_vehicle(self) -> None:
        """A new connection: the mode reported so far was another vehicle's."""
        self._switches.forget_vehicle()

    def observe_text(self, text: str, now: float) -> None:
        """One STATUSTEXT (joined from its chunks); only a refusal of a mode change counts."""
        if is_mode_refusal(text):
            self._observe_position(now)
            self._switches.note_text(text, now)

    def observe_heartbeat(self, msg: Any, now: float) -> None:
        self._observe_position(now)
        self._switches.note_heartbeat(int(msg.custom_mode), now)

    def _observe_position(self, now: float) -> None:  # as of the RC_CHANNELS read so far
        channel = mode_channel(self._identity.family(), self._knowledge.values())
        self._switches.observe_pwm(None if channel is None else self._spans.last(channel), now)

    def judge(
        self, family: VehicleFamily, values: Mapping[str, float], pwm_of: Mapping[int, int]
    ) -> tuple[tuple[ModeSlotVisit, ...], FlightModeReading | None]:
        """The visited slots judged with ``values``, and the mode switch's reading now (``pwm_of``:
        channel -> its latest PWM) with the mode the vehicle reports."""
        return self._switches.evidence(family, values, pwm_of)
