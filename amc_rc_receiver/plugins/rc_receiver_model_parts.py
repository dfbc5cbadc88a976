# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the receiver data model needs to know about messages, streams and its host's facade.

Pure helpers split out of `data_model_rc_receiver` so that the model module holds only time and
state: the protocol of the flight-controller facade the plugin relies on, the two streams it reads,
the immutable samples of RC_CHANNELS and SYS_STATUS, the selected vehicle's ids and a readable
sentence for a transport fault.  Nothing here reads a connection or a clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from .. import _
from .rc_receiver_mavlink import RC_CHANNELS_ID, SYS_STATUS_ID
from .rc_receiver_rules import ReceiverStatus, channel_readings, receiver_status, rssi_reading
from .rc_receiver_state import ChannelReading

STREAMS: tuple[tuple[int, str], ...] = ((RC_CHANNELS_ID, "RC_CHANNELS"), (SYS_STATUS_ID, "SYS_STATUS"))
TELEMETRY = frozenset(name for _id, name in STREAMS)

class FlightControllerInfoLike(Protocol):
    @property
    def system_id(self) -> str: ...

    @property
    def component_id(self) -> str: ...


class RCReceiverFlightController(Protocol):
    """The part of a flight-controller facade this model relies on (the methodic configurator's has it)."""

    @property
    def master(self) -> Any: ...

    @property
    def info(self) -> FlightControllerInfoLike: ...


@dataclass(frozen=True)
class ChannelsSample:
    channels: tuple[ChannelReading, ...]
    rssi: int | None
    chancount: int
    received_at: float


@dataclass(frozen=True)
class StatusSample:
    status: ReceiverStatus
    received_at: float


def channels_sample(msg: Any, now: float) -> ChannelsSample:
    chancount = int(msg.chancount)
    raw = [int(getattr(msg, f"chan{number}_raw")) for number in range(1, 6)]
    return ChannelsSample(channel_readings(chancount, raw), rssi_reading(int(msg.rssi)), chancount, now)


def status_sample(msg: Any, now: float) -> StatusSample:
    status = receiver_status(
        int(msg.onboard_control_sensors_present),
        int(msg.onboard_control_sensors_enabled),
        int(msg.onboard_control_sensors_health),
    )
    return StatusSample(status, now)


def _id_or_none(text: object) -> int | None:
    return int(text) if isinstance(text, str) and text.isdigit() else None


def selected_target(
    flight_controller: RCReceiverFlightController, master: Any
) -> tuple[int | None, int | None]:
    """The discovered vehicle's ids, else the connection's own target ids (pymavlink's guess)."""
    info = flight_controller.info
    system_id = _id_or_none(getattr(info, "system_id", None))
    component_id = _id_or_none(getattr(info, "component_id", None))
    if system_id is None:
        value = getattr(master, "target_system", None)
        system_id = value if isinstance(value, int) and value > 0 else None
    if component_id is None:
        value = getattr(master, "target_component", None)
        component_id = value if isinstance(value, int) and not isinstance(value, bool) else None
    return system_id, component_id


def describe_transport_error(error: BaseException) -> str:
    detail = str(error) or type(error).__name__
    if isinstance(error, OSError):  # serial.SerialException is an OSError too
        return _("Lost the connection to the flight controller: {detail}").format(detail=detail)
    return _("Could not read from the flight controller: {detail}").format(detail=detail)
