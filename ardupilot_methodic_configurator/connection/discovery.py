# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the facade heard while looking for the vehicle: who sent heartbeats, and why none would do.

A failed connect is explained in one sentence from this: no data, data that is not MAVLink,
MAVLink without heartbeats, or heartbeats only from GCSs, peripherals and other autopilots.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pymavlink.dialects.v20 import ardupilotmega as _mavlink

from .. import _

_MAX_SENDERS_NAMED = 4

_MAV_AUTOPILOT_ARDUPILOTMEGA: int = int(_mavlink.MAV_AUTOPILOT_ARDUPILOTMEGA)
_MAV_AUTOPILOT_INVALID: int = int(_mavlink.MAV_AUTOPILOT_INVALID)
_MAV_TYPE_GCS: int = int(_mavlink.MAV_TYPE_GCS)

# Heartbeat types that ArduPilot firmware also uses for peripherals, not for the vehicle itself.
_NON_VEHICLE_TYPE_NAMES = (
    "MAV_TYPE_GCS",
    "MAV_TYPE_ONBOARD_CONTROLLER",
    "MAV_TYPE_GIMBAL",
    "MAV_TYPE_ADSB",
    "MAV_TYPE_CAMERA",
    "MAV_TYPE_CHARGING_STATION",
    "MAV_TYPE_FLARM",
    "MAV_TYPE_SERVO",
    "MAV_TYPE_ODID",
    "MAV_TYPE_BATTERY",
    "MAV_TYPE_LOG",
    "MAV_TYPE_OSD",
    "MAV_TYPE_IMU",
    "MAV_TYPE_GPS",
    "MAV_TYPE_WINCH",
)
_NON_VEHICLE_TYPES: frozenset[int] = frozenset(
    int(getattr(_mavlink, name)) for name in _NON_VEHICLE_TYPE_NAMES if hasattr(_mavlink, name)
)
_MAV_COMP_ID_GIMBAL = 154

_AUTOPILOT_LABELS = {
    int(_mavlink.MAV_AUTOPILOT_PX4): "PX4",
    int(_mavlink.MAV_AUTOPILOT_GENERIC): "generic",
}


def _enum_label(enum_name: str, value: int, prefix: str) -> str:
    entries: Any = _mavlink.enums.get(enum_name, {})
    name = getattr(entries.get(value), "name", None)
    if isinstance(name, str) and name.startswith(prefix):
        return name[len(prefix) :].lower().replace("_", " ")
    return str(value)


@dataclass(frozen=True)
class HeartbeatSender:
    """Who sent a heartbeat during discovery, kept to explain a failed connect."""

    system_id: int
    component_id: int
    autopilot: int
    mav_type: int

    @property
    def is_ardupilot_vehicle(self) -> bool:
        return (
            self.autopilot == _MAV_AUTOPILOT_ARDUPILOTMEGA
            and self.mav_type not in _NON_VEHICLE_TYPES
            and self.component_id != _MAV_COMP_ID_GIMBAL
        )

    def describe(self) -> str:
        ids = f"{self.system_id}/{self.component_id}"
        kind = _enum_label("MAV_TYPE", self.mav_type, "MAV_TYPE_")
        if self.mav_type == _MAV_TYPE_GCS:
            return _("a GCS ({ids})").format(ids=ids)
        if self.autopilot == _MAV_AUTOPILOT_ARDUPILOTMEGA:
            return _("an ArduPilot {kind} component ({ids})").format(kind=kind, ids=ids)
        if self.autopilot == _MAV_AUTOPILOT_INVALID:
            return _("a {kind} component without autopilot ({ids})").format(kind=kind, ids=ids)
        label = _AUTOPILOT_LABELS.get(self.autopilot) or _enum_label(
            "MAV_AUTOPILOT", self.autopilot, "MAV_AUTOPILOT_"
        )
        return _("a {autopilot} autopilot ({ids})").format(autopilot=label, ids=ids)


def _join_descriptions(descriptions: Sequence[str]) -> str:
    named = list(descriptions[:_MAX_SENDERS_NAMED])
    extra = len(descriptions) - len(named)
    if extra > 0:
        named.append(_("{count} more").format(count=extra))
    if len(named) == 1:
        return named[0]
    return _("{first} and {last}").format(first=", ".join(named[:-1]), last=named[-1])


@dataclass
class DiscoveryLog:
    """What connect() heard while no ArduPilot vehicle answered, to explain the failure."""

    heartbeats: int = 0
    other_messages: int = 0
    bad_data: int = 0
    senders: dict[tuple[int, int], HeartbeatSender] = field(default_factory=dict)

    def explain(self, shown: str, timeout: float) -> str:
        if self.heartbeats:
            return _(
                "No ArduPilot vehicle found on {device} within {timeout:g} s: heard {count} heartbeats, "
                "from {senders}, but no ArduPilot vehicle."
            ).format(
                device=shown,
                timeout=timeout,
                count=self.heartbeats,
                senders=_join_descriptions([s.describe() for s in self.senders.values()]),
            )
        if self.other_messages:
            return _(
                "No heartbeat from {device} within {timeout:g} s, although {count} other MAVLink "
                "messages arrived; is this a vehicle?"
            ).format(device=shown, timeout=timeout, count=self.other_messages)
        if self.bad_data:
            return _(
                "No MAVLink heartbeat from {device} within {timeout:g} s: the data that arrived is not "
                "MAVLink (wrong baud rate or wrong port protocol?)."
            ).format(device=shown, timeout=timeout)
        return _(
            "No MAVLink heartbeat from {device} within {timeout:g} s. Check that the vehicle is powered, "
            "the connection string and port are right, and no other program holds the link."
        ).format(device=shown, timeout=timeout)
