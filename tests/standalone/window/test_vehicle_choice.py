# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window's vehicle choice, driven directly: the connected vehicle's, unless the person chose."""

from __future__ import annotations

import pytest

from amc_rc_receiver.plugins.rc_receiver.firmware import VehicleFamily
from amc_rc_receiver.standalone.window.vehicle_choice import VehicleChoice

pytestmark = pytest.mark.pure

VEHICLES = ("ArduCopter", "ArduPlane", "Heli", "Rover")


@pytest.mark.parametrize(
    ("family", "shown"),
    [
        (VehicleFamily.PLANE, "ArduPlane"),
        (VehicleFamily.HELI, "Heli"),
        (VehicleFamily.ROVER, "Rover"),
        (VehicleFamily.COPTER, None),
        (VehicleFamily.UNKNOWN, None),
    ],
)
def test_the_connected_vehicle_is_shown_unless_it_is_already(
    family: VehicleFamily, shown: str | None
) -> None:
    """GIVEN the window showing ArduCopter, nobody having chosen WHEN a vehicle of ``family`` is
    connected THEN its vehicle is shown instead, and nothing changes for a copter or an unknown one."""
    assert VehicleChoice(VEHICLES).follow("ArduCopter", family) == shown


def test_a_persons_choice_is_never_replaced() -> None:
    """GIVEN the person chose ArduCopter WHEN a helicopter is connected THEN ArduCopter stays."""
    choice = VehicleChoice(VEHICLES)
    choice.person_chose()
    assert choice.follow("ArduCopter", VehicleFamily.HELI) is None


def test_a_vehicle_without_steps_is_not_shown() -> None:
    """GIVEN a window whose steps know only ArduCopter WHEN a rover is connected THEN nothing changes."""
    assert VehicleChoice(("ArduCopter",)).follow("ArduCopter", VehicleFamily.ROVER) is None
