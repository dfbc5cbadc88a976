# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The demo and the check each state the ArduPilot facts they need; real SITL says which is right.

The simulated vehicle imports nothing of the check (an import contract says so), so a wrong rule
in one cannot hide behind the same wrong rule in the other.  Where both need a fact of ArduPilot
(the receiver parameters' defaults, the failsafe timeout, the RSSI value that means unknown, the
RC-receiver sensor bit), this suite reads it from a real SITL (../shared/sitl/, started without a
defaults file, so with the firmware's own defaults) and compares each side with it.  Skipped,
saying why, where the SITL binaries are absent.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from amc_rc_receiver.demo import vehicle as demo_vehicle
from amc_rc_receiver.demo import vehicle_rules as demo_rules
from amc_rc_receiver.demo.setups import PROFILES, DemoVehicle
from amc_rc_receiver.plugins.rc_receiver import firmware as check_firmware
from amc_rc_receiver.plugins.rc_receiver import readings as check_telemetry
from amc_rc_receiver.sitl.config import SitlConfig
from amc_rc_receiver.standalone.session import VehicleSession
from tests.support.sitl import free_instance, sitl_binary

pytestmark = [
    pytest.mark.sitl,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SITL binaries are Linux x86-64"),
]

WAIT_S = 90.0
# The receiver parameters both sides state defaults for: the libraries every firmware shares, and
# the throttle channel's minimum; each firmware adds its failsafe and mode-channel names below.
COMMON = (*check_firmware.COMMON_PARAMETERS, "RC3_MIN")
FAMILIES = {
    "arducopter": (DemoVehicle.COPTER, check_firmware.VehicleFamily.COPTER),
    "ardurover": (DemoVehicle.ROVER, check_firmware.VehicleFamily.ROVER),
}


class RealVehicle:
    """A real SITL of one firmware with the check's session connected to it."""

    def __init__(self, session: VehicleSession) -> None:
        self.session = session
        assert session.flight_controller.master is not None
        self.master: Any = session.flight_controller.master

    def parameter(self, name: str) -> float:
        """The value SITL reports for ``name``, asked by name as a ground station does."""
        target = self.master.target_system, self.master.target_component
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            self.master.mav.param_request_read_send(*target, name.encode("ascii"), -1)
            reply = self.master.recv_match(type="PARAM_VALUE", blocking=True, timeout=1.0)
            if reply is not None and reply.param_id.rstrip("\x00") == name:
                return float(reply.param_value)
        pytest.fail(f"SITL never reported {name}")

    def telemetry(self) -> tuple[Any, Any]:
        """The newest RC_CHANNELS and SYS_STATUS, once the check's streams run and RC input came."""
        model = self.session.model
        model.activate()
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            state = model.poll()
            messages = self.master.messages
            if state.rc_channels_live and state.receiver_present and "SYS_STATUS" in messages:
                return messages["RC_CHANNELS"], messages["SYS_STATUS"]
            time.sleep(0.05)
        pytest.fail(f"no receiver telemetry from SITL: {model.state}")


@pytest.fixture(scope="module", params=sorted(FAMILIES))
def real(request: pytest.FixtureRequest) -> Iterator[tuple[str, RealVehicle]]:
    binary = sitl_binary(request.param)
    session = VehicleSession()
    try:
        error = session.start_sitl(SitlConfig(binary, instance=free_instance(36)))
        assert error == "", error
        assert session.sitl is not None
        assert session.connect(session.sitl.device, timeout=WAIT_S) == ""
        yield request.param, RealVehicle(session)
    finally:
        session.close()


def test_the_receiver_parameters_default_as_both_the_demo_and_the_check_say(
    real: tuple[str, RealVehicle],
) -> None:
    """GIVEN real SITL with the firmware's own defaults
    WHEN each receiver parameter the demo and the check both know is read from it
    THEN the demo's default for it and the check's (the family table, RCMAP) are what SITL reports."""
    firmware, vehicle = real
    demo_vehicle_kind, family = FAMILIES[firmware]
    table = check_firmware.family_parameters(family)
    assert table is not None
    demo_defaults = {spec.name: spec.default for spec in PROFILES[demo_vehicle_kind].specs}
    names = (*COMMON, table.failsafe_enable, table.failsafe_pwm, table.mode_channel)
    reported = {name: vehicle.parameter(name) for name in names}

    assert {name: demo_defaults[name] for name in names} == reported
    check_defaults = {
        table.failsafe_pwm: table.default_failsafe_pwm,
        check_firmware.RC_FS_TIMEOUT: check_firmware.DEFAULT_RC_FS_TIMEOUT_S,
        table.mode_channel: table.default_mode_channel,
        **check_firmware.RCMAP_DEFAULTS,
    }
    assert check_defaults == {name: reported[name] for name in check_defaults}
    assert reported["RC_FS_TIMEOUT"] == demo_rules.RC_FAILSAFE_TIMEOUT_S
    assert reported["RSSI_TYPE"] == demo_rules.RSSI_TYPE_DISABLED


def test_rssi_unknown_and_the_receiver_bit_are_what_both_sides_say(real: tuple[str, RealVehicle]) -> None:
    """GIVEN real SITL with RSSI_TYPE 0 and its RC input running
    WHEN its RC_CHANNELS and SYS_STATUS are read
    THEN the RSSI it reports is the value both the demo and the check take for unknown, and the
    sensor bit both use for the receiver is the one SITL sets present and healthy."""
    _firmware, vehicle = real
    channels, status = vehicle.telemetry()

    assert channels.rssi == demo_rules.RSSI_UNKNOWN == check_telemetry.RSSI_UNKNOWN
    bit = check_telemetry.RC_RECEIVER_SENSOR_BIT
    assert bit == demo_vehicle.RC_RECEIVER_BIT
    assert status.onboard_control_sensors_present & bit
    assert status.onboard_control_sensors_health & bit
