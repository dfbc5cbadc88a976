# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Who the simulated vehicle says it is: AUTOPILOT_VERSION fields and the firmware banner.

Ground stations identify the firmware from both, and the methodic configurator cross-checks them
(the ChibiOS hash in the banner against ``os_custom_version``, the board name on the line after
it against the APJ board id), so both are derived from one ``FirmwareIdentity``.  The default is
ArduCopter 4.6.2 on a CubeOrange; the git hashes and the MCU unique id are invented for the
simulation, which is why they are not those of any release.

Capabilities advertise only what the vehicle implements: float parameters, COMMAND_INT,
MAVLink 2 and MAVLink FTP (read-only, enough for the packed parameter download).
"""

from __future__ import annotations

from dataclasses import dataclass

from pymavlink.dialects.v20 import ardupilotmega as mavlink2

FIRMWARE_TYPE_OFFICIAL = 255  # FIRMWARE_VERSION_TYPE_OFFICIAL in the lowest byte of flight_sw_version

CAPABILITIES: int = (
    mavlink2.MAV_PROTOCOL_CAPABILITY_PARAM_FLOAT
    | mavlink2.MAV_PROTOCOL_CAPABILITY_COMMAND_INT
    | mavlink2.MAV_PROTOCOL_CAPABILITY_FTP
    | mavlink2.MAV_PROTOCOL_CAPABILITY_MAVLINK2
)

# ArduPilot's firmware name per MAV_TYPE the vehicle announces.
FIRMWARE_NAMES: dict[int, str] = {
    mavlink2.MAV_TYPE_QUADROTOR: "ArduCopter",
    mavlink2.MAV_TYPE_HEXAROTOR: "ArduCopter",
    mavlink2.MAV_TYPE_OCTOROTOR: "ArduCopter",
    mavlink2.MAV_TYPE_HELICOPTER: "ArduCopter",
    mavlink2.MAV_TYPE_GROUND_ROVER: "ArduRover",
    mavlink2.MAV_TYPE_SURFACE_BOAT: "ArduRover",
    mavlink2.MAV_TYPE_FIXED_WING: "ArduPlane",
}
FRAME_LINES: dict[int, str] = {
    mavlink2.MAV_TYPE_QUADROTOR: "Frame: QUAD/X",
}


@dataclass(frozen=True)
class FirmwareIdentity:
    version: tuple[int, int, int] = (4, 6, 2)
    git_hash: str = "5ba3c9ab"
    chibios_hash: str = "1ab3f6c7"
    board_name: str = "CubeOrange"
    apj_board_id: int = 140
    usb_vendor_id: int = 0x2DAE
    usb_product_id: int = 0x1016
    mcu_uid: bytes = bytes.fromhex("003A0024 31385117 33313533")
    outputs: str = "PWM:1-14"

    def __post_init__(self) -> None:
        for label, text in (("git_hash", self.git_hash), ("chibios_hash", self.chibios_hash)):
            if len(text) != 8 or not text.isascii():
                raise ValueError(f"{label} must be 8 ASCII characters, got {text!r}")
        if len(self.mcu_uid) != 12:
            raise ValueError("mcu_uid must be the 12-byte STM32 unique id")

    @property
    def flight_sw_version(self) -> int:
        major, minor, patch = self.version
        return (major << 24) | (minor << 16) | (patch << 8) | FIRMWARE_TYPE_OFFICIAL

    @property
    def board_version(self) -> int:
        return self.apj_board_id << 16

    def firmware_string(self, vehicle_type: int) -> str:
        name = FIRMWARE_NAMES.get(vehicle_type, "ArduCopter")
        major, minor, patch = self.version
        return f"{name} V{major}.{minor}.{patch} ({self.git_hash})"

    def system_id_line(self) -> str:
        # ChibiOS prints the unique id as three byte-reversed words, i.e. the bytes in order.
        words = [self.mcu_uid[i : i + 4].hex().upper() for i in range(0, 12, 4)]
        return " ".join([self.board_name, *words])

    def banner(self, vehicle_type: int) -> tuple[str, ...]:
        """The STATUSTEXT lines ArduPilot sends for MAV_CMD_DO_SEND_BANNER, in order."""
        lines = [
            self.firmware_string(vehicle_type),
            f"ChibiOS: {self.chibios_hash}",
            self.system_id_line(),
            f"RCOut: {self.outputs}",
        ]
        frame = FRAME_LINES.get(vehicle_type)
        if frame is not None:
            lines.append(frame)
        return tuple(lines)

    def autopilot_version_fields(self) -> dict[str, object]:
        """Keyword arguments for pymavlink's ``autopilot_version_encode``."""
        uid2 = list(self.mcu_uid) + [0] * (18 - len(self.mcu_uid))
        return {
            "capabilities": CAPABILITIES,
            "flight_sw_version": self.flight_sw_version,
            "middleware_sw_version": 0,
            "os_sw_version": 0,
            "board_version": self.board_version,
            "flight_custom_version": list(self.git_hash.encode("ascii")),
            "middleware_custom_version": [0] * 8,
            "os_custom_version": list(self.chibios_hash.encode("ascii")),
            "vendor_id": self.usb_vendor_id,
            "product_id": self.usb_product_id,
            "uid": int.from_bytes(self.mcu_uid[:8], "little"),
            "uid2": uid2,
        }
