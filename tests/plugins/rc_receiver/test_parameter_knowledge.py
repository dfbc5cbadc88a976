# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the guided test knows of the parameters (`ParameterKnowledge`): the host's download wins
over the check's own reads, everything is worked out once per snapshot, and the names wanted follow
the vehicle family, RCMAP_* and the channels the receiver delivers.

No sockets here: the host is a plain object with a download dictionary, the answers to the reads
are real PARAM_VALUE messages built with pymavlink."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.plugins.rc_receiver.evidence import ChannelSpans, RadioTimeline
from amc_rc_receiver.plugins.rc_receiver.firmware import VehicleFamily, wanted_parameters
from amc_rc_receiver.plugins.rc_receiver.host_facts import HostFacts
from amc_rc_receiver.plugins.rc_receiver.parameter_knowledge import ParameterKnowledge
from amc_rc_receiver.plugins.rc_receiver.parameter_reads import ParameterReader
from amc_rc_receiver.plugins.rc_receiver.vehicle_identity import VehicleIdentity

pytestmark = pytest.mark.pure

COPTER = int(mavlink2.MAV_TYPE_QUADROTOR)
ROVER = int(mavlink2.MAV_TYPE_GROUND_ROVER)


class _Info:
    def __init__(self, vehicle_type: object) -> None:
        self.vehicle_type = vehicle_type


class _FlightController:
    """The host's flight controller as the check reads it: its download and its vehicle type."""

    def __init__(self, download: dict[str, float], vehicle_type: object = COPTER) -> None:
        self.fc_parameters = download
        self.info = _Info(vehicle_type)


@dataclass(frozen=True)
class _Parts:
    knowledge: ParameterKnowledge
    reader: ParameterReader
    spans: ChannelSpans
    identity: VehicleIdentity
    host: _FlightController


def _knowledge(download: dict[str, float], vehicle_type: object = COPTER) -> _Parts:
    host_fc = _FlightController(download, vehicle_type)
    host = HostFacts(host_fc, None, None)
    reader = ParameterReader()
    spans = ChannelSpans()
    identity = VehicleIdentity(host, RadioTimeline())
    return _Parts(ParameterKnowledge(host, reader, identity, spans), reader, spans, identity, host_fc)


def _answer(reader: ParameterReader, name: str, value: float) -> bool:
    """A PARAM_VALUE of the vehicle answering ``name``."""
    msg = mavlink2.MAVLink_param_value_message(name.encode(), value, mavlink2.MAV_PARAM_TYPE_REAL32, 1, 0)
    return reader.handle_message(msg)


def test_the_hosts_value_wins_over_a_value_the_check_read() -> None:
    """
    GIVEN a host whose download holds RCMAP_THROTTLE 3 and a read that answered FS_THR_ENABLE 1
    WHEN the values known are asked
    THEN both are known, and the host's RCMAP_THROTTLE stands even after a read answered 4 for it
    """
    parts = _knowledge({"RCMAP_THROTTLE": 3.0})
    knowledge, reader = parts.knowledge, parts.reader
    reader.want(knowledge.wanted(VehicleFamily.COPTER, {}), {})
    assert _answer(reader, "FS_THR_ENABLE", 1.0)
    assert _answer(reader, "RCMAP_THROTTLE", 4.0)
    knowledge.forget()

    host, values = knowledge.host_and_values()

    assert host == {"RCMAP_THROTTLE": 3.0}
    assert values["RCMAP_THROTTLE"] == 3.0
    assert values["FS_THR_ENABLE"] == 1.0


def test_values_are_worked_out_once_per_snapshot_and_again_after_forget() -> None:
    """
    GIVEN the values known, asked once
    WHEN the host writes a new value into its download, and the values are asked again before and
        after the snapshot is over (`forget`)
    THEN within the snapshot the answer is the very same mapping; after it, the new value
    """
    download = {"RCMAP_THROTTLE": 3.0, "FS_THR_ENABLE": 1.0}
    knowledge = _knowledge(download).knowledge
    first = knowledge.values()
    download["FS_THR_ENABLE"] = 0.0

    assert knowledge.values() is first
    knowledge.forget()
    assert knowledge.values()["FS_THR_ENABLE"] == 0.0


def test_nothing_that_moved_answers_the_very_same_values_again() -> None:
    """
    GIVEN the values known, asked once
    WHEN the snapshot ends with nothing changed in the host's download or the reads
    THEN the next snapshot's values are the same object (nothing was merged again)
    """
    knowledge = _knowledge({"RCMAP_THROTTLE": 3.0, "FS_THR_ENABLE": 1.0}).knowledge
    first = knowledge.values()
    knowledge.forget()

    assert knowledge.values() is first


def test_the_family_is_worked_out_again_after_forget() -> None:
    """
    GIVEN a host that says the vehicle is a copter, the values worked out for it
    WHEN the host's vehicle type becomes a rover, and then the snapshot ends
    THEN the family is the rover's from then on, not before
    """
    parts = _knowledge({})
    parts.knowledge.values()
    family_before = parts.identity.family()
    parts.host.info = _Info(ROVER)
    assert parts.identity.family() is family_before  # kept within the snapshot

    parts.knowledge.forget()

    assert family_before is VehicleFamily.COPTER
    assert parts.identity.family() is VehicleFamily.ROVER


def test_the_wanted_names_are_those_of_the_family_and_rcmap() -> None:
    """
    GIVEN a copter with RCMAP_THROTTLE 3 known
    WHEN the names wanted are asked
    THEN they are `wanted_parameters`' answer, throttle channel 3's range among them
    """
    knowledge = _knowledge({}).knowledge
    values = {"RCMAP_THROTTLE": 3.0}

    wanted = knowledge.wanted(VehicleFamily.COPTER, values)

    assert wanted == wanted_parameters(VehicleFamily.COPTER, dict(values))
    assert "RC3_MIN" in wanted


def test_the_same_inputs_answer_the_same_names_and_a_new_rcmap_new_ones() -> None:
    """
    GIVEN the names wanted for a copter's values
    WHEN they are asked again with the very same values, then with RCMAP_THROTTLE moved to channel 1
    THEN the first answer is the same tuple; the second wants channel 1's range instead
    """
    knowledge = _knowledge({}).knowledge
    values = {"RCMAP_THROTTLE": 3.0}
    first = knowledge.wanted(VehicleFamily.COPTER, values)

    assert knowledge.wanted(VehicleFamily.COPTER, values) is first
    moved = knowledge.wanted(VehicleFamily.COPTER, {"RCMAP_THROTTLE": 1.0})
    assert "RC1_MIN" in moved
    assert moved == wanted_parameters(VehicleFamily.COPTER, {"RCMAP_THROTTLE": 1.0})


def test_channels_the_receiver_delivers_join_the_wanted_names() -> None:
    """
    GIVEN a copter's wanted names before any RC_CHANNELS
    WHEN the receiver delivers 8 channels
    THEN the names wanted now include CH8's range, as `wanted_parameters` says for 8 channels
    """
    parts = _knowledge({})
    knowledge, spans = parts.knowledge, parts.spans
    values = {"RCMAP_THROTTLE": 3.0}
    before = knowledge.wanted(VehicleFamily.COPTER, values)

    spans.observe(8, [1500] * 8, live=True)
    after = knowledge.wanted(VehicleFamily.COPTER, values)

    assert "RC8_MIN" not in before
    assert "RC8_MIN" in after
    assert after == wanted_parameters(VehicleFamily.COPTER, dict(values), 8)


def test_an_rcmap_moved_in_place_makes_the_next_snapshot_look_up_the_names_it_wants() -> None:
    """
    GIVEN a host download with RCMAP_THROTTLE 7, RC7_MIN and RC8_MIN, and a read answer of one name
    WHEN the values are worked out, then RCMAP_THROTTLE is set to 8 in place and the snapshot ends
    THEN each snapshot's host numbers hold the throttle channel's RCn_MIN of that moment and not the
         other's, the read answer is among the values, and an unchanged download answers the very
         same mappings
    """
    download = {"RCMAP_THROTTLE": 7.0, "RC7_MIN": 990.0, "RC8_MIN": 1010.0}
    parts = _knowledge(download)
    knowledge = parts.knowledge
    parts.reader.want(knowledge.wanted(VehicleFamily.COPTER, {}), {})
    assert _answer(parts.reader, "FS_THR_ENABLE", 1.0)

    host, values = knowledge.host_and_values()
    assert (host.get("RC7_MIN"), host.get("RC8_MIN")) == (990.0, None)
    assert values["FS_THR_ENABLE"] == 1.0
    knowledge.forget()
    again = knowledge.host_and_values()
    assert again[0] is host
    assert again[1] is values

    download["RCMAP_THROTTLE"] = 8.0
    knowledge.forget()
    host, values = knowledge.host_and_values()
    assert (host.get("RC7_MIN"), host.get("RC8_MIN")) == (None, 1010.0)
    assert values["RCMAP_THROTTLE"] == 8.0


def test_without_a_download_the_values_are_the_reads() -> None:
    """
    GIVEN a host whose download is empty (our own window reads the names instead)
    WHEN the values are worked out after a read answered RCMAP_THROTTLE
    THEN the host has no numbers and the values are the reads
    """
    parts = _knowledge({})
    parts.reader.want(parts.knowledge.wanted(VehicleFamily.COPTER, {}), {})
    assert _answer(parts.reader, "RCMAP_THROTTLE", 3.0)

    host, values = parts.knowledge.host_and_values()

    assert host == {}
    assert values == {"RCMAP_THROTTLE": 3.0}
