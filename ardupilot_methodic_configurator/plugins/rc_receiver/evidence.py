# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the guided test gathers from the messages: channel roles and movement, the radio's words.

Roles come from the vehicle's parameters (``RCMAP_*`` and the flight-mode channel); each input's
range comes from every RC_CHANNELS of the test.  A channel "moved" once its lowest and highest PWM
are ``MOVED_SPAN_US`` apart: more than a noisy or trimmed stick at rest, less than any
transmitter's travel before calibration.  Values read while RC failsafe is active are held values,
not input, so they never widen a range.  Memory is bounded by RC_CHANNELS' 18 inputs.

ArduPilot announces what it sees of the receiver in STATUSTEXT ("Radio Failsafe - Disarming",
"Radio Failsafe Cleared", "PreArm: Throttle below failsafe", "RCInput: decoding SBUS"...).  Those
join the test's timeline (radio-related texts only, the newest ``MAX_RADIO_MESSAGES``), the
decoded protocol is remembered, and so is the firmware banner, which names the firmware for the
report, with its "Frame: ..." line, which tells a helicopter from a multirotor.
"""

from __future__ import annotations

import functools
import re
from collections import deque
from collections.abc import Mapping, Sequence

from .firmware import (
    MAX_DELIVERED_CHANNEL,
    MAX_RC_CHANNEL,
    FamilyParameters,
    VehicleFamily,
    family_parameters,
    mode_channel,
    mode_name,
    mode_slot,
    stick_channels,
)
from .readings import readable_text
from .snapshot import ChannelEvidence, FlightModeReading, RadioMessage

MOVED_SPAN_US = 400
_PWM_NO_VALUE = (0, 65535)

# RCMAP parameter -> role key, per family (Rover steers with the roll channel).
_ROLES: dict[str, str] = {
    "RCMAP_ROLL": "roll",
    "RCMAP_PITCH": "pitch",
    "RCMAP_THROTTLE": "throttle",
    "RCMAP_YAW": "yaw",
}
_ROVER_ROLES: dict[str, str] = {"RCMAP_ROLL": "steering", "RCMAP_THROTTLE": "throttle"}
# A helicopter's throttle channel sets the collective pitch (ArduPilot says "Collective" for it).
_HELI_ROLES: dict[str, str] = {**_ROLES, "RCMAP_THROTTLE": "collective"}
FLIGHT_MODE_ROLE = "flight_mode"


def _role_table(family: VehicleFamily) -> dict[str, str]:
    if family is VehicleFamily.HELI:
        return _HELI_ROLES
    return _ROVER_ROLES if family is VehicleFamily.ROVER else _ROLES


def stick_role(family: VehicleFamily, parameter: str) -> str:
    """The role key of the stick ``parameter`` (``RCMAP_ROLL``...) names on ``family``."""
    return _role_table(family).get(parameter, _ROLES[parameter])


def channel_roles(family: VehicleFamily, values: Mapping[str, float]) -> dict[int, str]:
    """Channel number -> role for the sticks and the flight-mode channel of ``family``."""
    known = dict(values)
    table = _role_table(family)
    roles = {number: table[name] for number, name in stick_channels(family, known).items() if name in table}
    channel = mode_channel(family, known)
    if channel is not None:
        roles.setdefault(channel, FLIGHT_MODE_ROLE)
    return roles


def reading_pwm(chancount: int, raw_pwm: Sequence[int]) -> dict[int, int]:
    """Channel number -> PWM of one RC_CHANNELS: the ``chancount`` channels it delivers, unused
    slots left out."""
    shown = max(0, min(int(chancount), MAX_DELIVERED_CHANNEL, len(raw_pwm)))
    return {index + 1: int(raw_pwm[index]) for index in range(shown) if raw_pwm[index] not in _PWM_NO_VALUE}


class ChannelSpans:
    """Lowest, highest and latest PWM of each RC input channel during one test."""

    def __init__(self) -> None:
        self._last: dict[int, int] = {}
        self._min: dict[int, int] = {}
        self._max: dict[int, int] = {}
        # Grows whenever a value changes: the guided test is rebuilt only when an input moved.
        self.version = 0
        # The previous RC_CHANNELS: a receiver at rest repeats it, and a repeat changes nothing.
        self._previous: tuple[int, tuple[int, ...], bool] | None = None
        # How many channels the receiver delivers (the latest RC_CHANNELS.chancount), once known:
        # ArduPilot checks the calibration of those channels only.
        self.delivered: int | None = None
        # The same up to RC_CHANNELS' 18, for the channels shown beyond CH5.
        self.chancount: int | None = None

    def observe(self, chancount: int, raw_pwm: Sequence[int], *, live: bool) -> bool:
        """Take one RC_CHANNELS; ``live`` is False while RC failsafe holds the values.

        False when it repeats the previous one, which then changes nothing here.
        """
        reading = (chancount, tuple(raw_pwm))
        previous = self._previous
        if previous is not None and previous[:2] == reading and (previous[2] or not live):
            return False  # the latest values are these already and, if live, within the spans
        self._previous = (*reading, live)
        shown = max(0, min(int(chancount), MAX_DELIVERED_CHANNEL))
        if shown != self.chancount:
            self.chancount = shown
            self.delivered = min(shown, MAX_RC_CHANNEL)
            self.version += 1
        last, lowest, highest = self._last, self._min, self._max
        for index in range(min(shown, len(raw_pwm))):
            value = int(raw_pwm[index])
            if value in _PWM_NO_VALUE:
                continue
            number = index + 1
            if last.get(number) != value:
                last[number] = value
                self.version += 1
            if live:
                low, high = lowest.get(number), highest.get(number)
                if low is None or value < low:
                    lowest[number] = value
                    self.version += 1
                if high is None or value > high:
                    highest[number] = value
                    self.version += 1
        return True

    def last(self, number: int) -> int | None:
        return self._last.get(number)

    def lowest(self, number: int) -> int | None:
        return self._min.get(number)

    def restart(self) -> None:
        self._last.clear()
        self._min.clear()
        self._max.clear()
        self._previous = None
        self.delivered = None
        self.chancount = None
        self.version += 1

    def evidence(self, roles: Mapping[int, str]) -> tuple[ChannelEvidence, ...]:
        """Every channel seen or given a role, in channel order."""
        numbers = sorted(set(self._last) | set(roles))
        result = []
        for number in numbers:
            low, high = self._min.get(number), self._max.get(number)
            role = roles.get(number)
            result.append(
                ChannelEvidence(
                    number=number,
                    role=role,
                    last_us=self._last.get(number),
                    min_us=low,
                    max_us=high,
                    moved=low is not None and high is not None and high - low >= MOVED_SPAN_US,
                    is_stick=role is not None and role != FLIGHT_MODE_ROLE,
                )
            )
        return tuple(result)


def flight_mode_reading(
    family: VehicleFamily, values: Mapping[str, float], pwm_of: Mapping[int, int]
) -> FlightModeReading | None:
    """The mode channel, its PWM, the slot it selects and that slot's mode for ``family``."""
    table: FamilyParameters | None = family_parameters(family)
    channel = mode_channel(family, dict(values))
    if table is None or channel is None:
        return None
    pwm = pwm_of.get(channel)
    slot = mode_slot(pwm)
    number = values.get(f"{table.mode_slot_prefix}{slot}") if slot is not None else None
    return FlightModeReading(
        channel=channel,
        pwm=pwm,
        slot=slot,
        mode_number=None if number is None else int(number),
        mode_name=mode_name(family, number),
        channel_is_default=table.mode_channel not in values,
    )


MAX_RADIO_MESSAGES = 40

# ArduPilot's receiver texts, as its sources write them (tests/plugins/rc_receiver/test_radio_texts.py
# holds them): the radio words; a channel's parameter ("RC3_MIN is greater than RC3_TRIM", where a
# word boundary after "RC3" never comes before the "_"); the stick or collective against the
# failsafe or too high at arming; the aux switches (duplicates, the mode channel, motor interlock,
# emergency stop, the disarm switch); Plane's throttle trim and failsafe timeouts; the failsafe
# parameters.  Servo outputs ("RCOut", "SERVO3_MIN") and GCS failsafe are not the receiver's.
_RADIO_TEXT = re.compile(
    r"\bradio\b|\brc\d*\b|\brc\d+_[a-z]+\b|\brcin(put)?\b|\breceiver\b|\brssi\b|"
    r"\b(throttle|collective) (below failsafe|too high)\b|\baux switch|\bmode channel\b|"
    r"\binterlock\b|\be-stop\b|\bemergency stop|\bdisarm switch\b|\bthrottle trim\b|"
    r"\bfwd throttle\b|\bfs_(long|short)_timeout\b|"
    r"\bfs_thr_\w+|\bthr_fs_value\b|\bthr_failsafe\b",
    re.IGNORECASE,
)
# "RCInput: decoding SBUS(1)", "... CRSF (Bytes)", "... UDP (Pulses)": the name without the instance.
_PROTOCOL = re.compile(r"RCInput: decoding ([A-Za-z0-9_]+)", re.IGNORECASE)
_FIRMWARE = re.compile(r"^(Ardu\w+|Rover|Blimp|AntennaTracker)\s+V\d+\.\d+\S*")
# The banner's frame line (AP_Vehicle's "Frame: %s", e.g. "Frame: HELI", "Frame: QUAD/X").
_FRAME = re.compile(r"^Frame:\s*(\S+)")


def statustext(raw: object) -> str:
    """The text of a STATUSTEXT ``text`` field (bytes or str, NUL padded), as data to show."""
    return readable_text(raw)


def is_radio_message(text: str) -> bool:
    return bool(_RADIO_TEXT.search(text))


def decoded_protocol(text: str) -> str | None:
    """The protocol named by "RCInput: decoding <name>", else None."""
    match = _PROTOCOL.search(text)
    return match.group(1) if match else None


def frame_banner(text: str) -> str | None:
    """The frame a banner's "Frame: ..." line names ("HELI"), else None."""
    match = _FRAME.match(text)
    return match.group(1) if match else None


def firmware_banner(text: str) -> str | None:
    match = _FIRMWARE.match(text)
    return match.group(0) if match else None


@functools.lru_cache(maxsize=MAX_RADIO_MESSAGES)
def _classify(raw: str | bytes) -> tuple[str, str | None, str | None, bool]:
    """(text, banner, decoded protocol, radio-related) of a STATUSTEXT ``text`` field."""
    # Firmware repeats its texts (pre-arm failures every 30 s, EKF notes, for instance): each is
    # decoded and matched once.
    text = statustext(raw)
    return text, firmware_banner(text), decoded_protocol(text), is_radio_message(text)


class RadioTimeline:
    """The radio STATUSTEXTs of one test, the protocol being decoded and the firmware banner."""

    def __init__(self) -> None:
        self._messages: deque[RadioMessage] = deque(maxlen=MAX_RADIO_MESSAGES)
        self.detected_protocol: str | None = None
        self.firmware: str | None = None
        # The banner's frame ("HELI", "QUAD/X"), which tells a helicopter from a multirotor.
        self.frame: str | None = None
        # Grows with every change of what this timeline answers.
        self.version = 0
        # The latest STATUSTEXT observed, as shown (decoded once per distinct text), radio or not.
        self.last_text = ""

    @property
    def messages(self) -> tuple[RadioMessage, ...]:
        return tuple(self._messages)

    def observe(self, raw: object, severity: int, at: float) -> bool:
        """Take one STATUSTEXT ``text`` field of the selected vehicle; True if it joined the timeline."""
        # The cache needs a hashable key: a text field is a str or bytes, anything else its words.
        key = bytes(raw) if isinstance(raw, bytearray) else raw if isinstance(raw, str | bytes) else str(raw)
        text, banner, protocol, radio = _classify(key)
        self.last_text = text
        if banner is not None and banner != self.firmware:
            self.firmware = banner
            self.version += 1
        frame = frame_banner(text) if text.startswith("Frame:") else None
        if frame is not None and frame != self.frame:
            self.frame = frame
            self.version += 1
        if protocol is not None and protocol != self.detected_protocol:
            self.detected_protocol = protocol
            self.version += 1
        if not radio:
            return False
        self._messages.append(RadioMessage(at, severity, text))
        self.version += 1
        return True

    def restart(self) -> None:
        """A fresh test: the messages go; protocol and firmware still describe the vehicle."""
        self._messages.clear()
        self.version += 1

    def reset(self) -> None:
        """A new connection: forget the vehicle too."""
        self._messages.clear()
        self.detected_protocol = None
        self.firmware = None
        self.frame = None
        self.version += 1


class FailsafeWitness:
    """What the receiver showed around the test's first RC failsafe: the throttle it sent when
    the failsafe began, and the RSSI just before it and during it.

    The throttle tells a throttle failsafe (a receiver that sends a low throttle, below the
    failsafe PWM) from a receiver that stopped its output (the flight controller then holds the
    last values, so the throttle stays where the stick was).  The RSSI tells a live reading from
    one that keeps its last value through the failsafe, as some CRSF/ELRS set-ups report it.
    """

    def __init__(self) -> None:
        # Grows with every change of what this witness answers.
        self.version = 0
        self._clear()

    def _clear(self) -> None:
        self.throttle_at_failsafe_us: int | None = None
        self.rssi_before: int | None = None
        self.rssi_during_max: int | None = None
        self.failsafe_seen = False
        self._active = False

    def observe(
        self, *, active: bool, rssi: int | None, throttle_us: int | None, transmitter_off: bool
    ) -> None:
        """One poll's failsafe state (True: active), live RSSI and throttle channel PWM.

        Only a failsafe that begins while the transmitter is off is the receiver's answer to the
        lost link: one from a low stick with the transmitter on says nothing of the receiver.
        """
        if active and not self._active and not self.failsafe_seen and transmitter_off:
            self.failsafe_seen = True
            self.throttle_at_failsafe_us = throttle_us
            self.version += 1
        self._active = active
        if rssi is None:
            return
        if not self.failsafe_seen:
            if rssi != self.rssi_before:
                self.rssi_before = rssi
                self.version += 1
        elif active and (self.rssi_during_max is None or rssi > self.rssi_during_max):
            self.rssi_during_max = rssi
            self.version += 1

    def restart(self) -> None:
        self._clear()
        self.version += 1
