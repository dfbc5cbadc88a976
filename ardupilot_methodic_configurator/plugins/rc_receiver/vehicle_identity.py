# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Which vehicle the guided test is looking at: its firmware family and its firmware version.

Several witnesses may name the vehicle, and they do not always agree: its HEARTBEAT's type and its
banner's "Frame:" line, its AUTOPILOT_VERSION and its banner's version line (both through the
`RadioTimeline` the tracker feeds), and what the host knows of it (`HostFacts`: the vehicle type and
firmware text it read itself, the vehicle type of its files).  `VehicleIdentity` keeps what the
vehicle's own messages said and gives one answer for each question, in the order of trust the
tracker has always used.
"""

from __future__ import annotations

from typing import Any

from .evidence import RadioTimeline
from .firmware import (
    FirmwareVersion,
    VehicleFamily,
    family_from_mav_type,
    family_from_name,
    family_of_vehicle,
    version_from_autopilot_version,
    version_from_banner,
)
from .host_facts import HostFacts


class VehicleIdentity:
    """The vehicle's family and firmware, from its messages and its host; see the module docstring."""

    def __init__(self, host: HostFacts, radio: RadioTimeline) -> None:
        self._host = host
        self._radio = radio
        self._mav_type: int | None = None
        # What the vehicle's AUTOPILOT_VERSION said, if one was read (asked for by the host).
        self._autopilot_version: FirmwareVersion | None = None
        self._family: VehicleFamily | None = None

    @property
    def mav_type(self) -> int | None:
        """The type of the vehicle's latest HEARTBEAT, None before the first."""
        return self._mav_type

    @property
    def autopilot_version(self) -> FirmwareVersion | None:
        return self._autopilot_version

    def forget_vehicle(self) -> None:
        """A new connection may be another vehicle."""
        self._mav_type = None
        self._autopilot_version = None
        self._family = None

    def forget_family(self) -> None:
        """Work the family out again when next asked: the host (or the banner) may have changed it,
        and a family worked out once per snapshot is all the test needs."""
        self._family = None

    def observe_heartbeat(self, msg: Any) -> bool:
        """One HEARTBEAT of the selected vehicle; True if its type changed (what the caller worked
        out from the family is stale then)."""
        mav_type = int(msg.type)
        if mav_type == self._mav_type:
            return False
        self._mav_type = mav_type
        self._family = None
        return True

    def observe_autopilot_version(self, msg: Any) -> bool:
        """One AUTOPILOT_VERSION of the selected vehicle; True if the version it names changed."""
        raw = getattr(msg, "flight_sw_version", None)
        # 0 (and anything not a number) is a sender that does not know its version.
        if type(raw) is not int or raw <= 0:
            return False
        version = version_from_autopilot_version(raw)
        if version == self._autopilot_version:
            return False
        self._autopilot_version = version
        # The family does not follow from the version, but a new version has always made the host's
        # vehicle type be read again (it may have changed since): when the family is read must not move.
        self._family = None
        return True

    def firmware(self) -> tuple[FirmwareVersion | None, str | None]:
        """One answer for the vehicle's firmware, its version and the text shown for it: the host's,
        else the vehicle's AUTOPILOT_VERSION, else its banner (a banner that names another version
        than AUTOPILOT_VERSION is not shown for it)."""
        host = self._host.firmware_text()
        banner = self._radio.firmware
        version = version_from_banner(host) or self._autopilot_version or version_from_banner(banner)
        if host is not None:
            return version, host
        if self._autopilot_version is not None and version_from_banner(banner) != self._autopilot_version:
            return version, str(self._autopilot_version)
        return version, banner

    def family(self) -> VehicleFamily:
        """The vehicle's firmware family, kept until `forget_family` (once per snapshot)."""
        if self._family is None:
            self._family = self._find_family()
        return self._family

    def _find_family(self) -> VehicleFamily:
        # The vehicle's own word first; the host's only for a vehicle that has not said it.
        family = family_of_vehicle(self._mav_type, self._radio.frame)
        if family is VehicleFamily.UNKNOWN:
            vehicle_type = self._host.vehicle_type()
            if isinstance(vehicle_type, int) and not isinstance(vehicle_type, bool):
                family = family_from_mav_type(vehicle_type)
            else:
                family = family_from_name(vehicle_type)
        if family is VehicleFamily.UNKNOWN:
            family = family_from_name(self._host.files_vehicle_type())
        return family
