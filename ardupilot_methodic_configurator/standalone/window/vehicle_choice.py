# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window's vehicle: the connected one's, unless the person chose one.

The methodic configurator 5.0.1 takes the vehicle (and so its configuration steps, its receiver
step and that step's example file) from the flight controller's HEARTBEAT type
(``FlightControllerInfo.set_type``: fixed wing -> ArduPlane, the multirotor types -> ArduCopter,
helicopter -> Heli, ground rover and surface boat -> Rover).  The window does the same through the
check's own rule, `firmware.family_of_vehicle`, which also reads the banner's "Frame:" line, so a
helicopter that reports a multirotor type is still shown as one.  One type differs: 5.0.1 takes
the coaxial type for a Heli, but ArduCopter's multirotor build reports it for its single, coaxial
and tailsitter frames (``Copter::get_frame_mav_type``), so it is ArduCopter here unless its banner
names a helicopter frame.  A vehicle the person
picks in the window is theirs: it is never replaced by the connected one for the rest of the
session.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...plugins.rc_receiver.firmware import VehicleFamily


class VehicleChoice:
    """Which vehicle the window shows: the person's choice, else the connected vehicle's."""

    def __init__(self, vehicles: Sequence[str]) -> None:
        # The vehicles that have configuration steps (the window's list).
        self._vehicles = tuple(vehicles)
        self.chosen_by_person = False

    def person_chose(self) -> None:
        """The person picked a vehicle in the window: it stays, whatever is connected."""
        self.chosen_by_person = True

    def follow(self, shown: str, family: VehicleFamily) -> str | None:
        """The vehicle to show instead of ``shown`` for a connected vehicle of ``family``, or None
        to keep ``shown`` (the person's choice, the same vehicle, or one without steps)."""
        if self.chosen_by_person or family is VehicleFamily.UNKNOWN:
            return None
        name = str(family.value)
        if name == shown or name not in self._vehicles:
            return None
        return name
