# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The channels beyond CH5 in the evidence report (schema version 3): the JSON carries each with
its reading, range, role, option and switch position, valid against the shipped schema, and the
Markdown shows the same table."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest

import amc_rc_receiver
from amc_rc_receiver.plugins.rc_receiver.report import SCHEMA_VERSION, build_report
from amc_rc_receiver.plugins.rc_receiver.report_markdown import build_markdown
from amc_rc_receiver.plugins.rc_receiver.snapshot import (
    ChannelEvidence,
    ExtraChannel,
    GuidedTest,
    RCReceiverState,
    SwitchPosition,
)

pytestmark = pytest.mark.pure

SCHEMA_FILE = Path(amc_rc_receiver.__file__).parent / "data" / "rc_receiver_report.schema.json"

CHANNELS = (
    ExtraChannel(6, pwm=1500, min_us=1490, max_us=1510, role="yaw", reversed_channel=False),
    ExtraChannel(
        7,
        pwm=1950,
        min_us=1000,
        max_us=2000,
        option=32,
        function="Motor Interlock",
        position=SwitchPosition.HIGH,
        reversed_channel=False,
    ),
    ExtraChannel(8, pwm=1100, min_us=1100, max_us=1100, role="flight_mode", option=153, function="ArmDisarm"),
    ExtraChannel(18, pwm=None, option=None),
)


def state_with_channels() -> RCReceiverState:
    evidence = tuple(
        ChannelEvidence(number, last_us=1500, min_us=1500, max_us=1500) for number in (1, 17, 18)
    )
    return RCReceiverState(
        chancount=18, guided=replace(GuidedTest(), channels=evidence, extra_channels=CHANNELS)
    )


def validate(report: object) -> None:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(report)


def test_the_json_report_carries_every_channel_beyond_ch5_in_schema_version_3() -> None:
    """GIVEN a snapshot with CH6 the yaw stick, CH7 Motor Interlock high, CH8 the mode channel with an
    option and CH18 with nothing known, and evidence of CH17 and CH18 WHEN reported THEN the JSON is
    schema version 3, valid, and holds each channel beyond CH5 with its role, option, name and position."""
    report = build_report(state_with_channels())
    validate(report)
    assert report["schema_version"] == SCHEMA_VERSION == 3
    assert report["extra_channels"][1] == {
        "number": 7,
        "pwm_us": 1950,
        "min_us": 1000,
        "max_us": 2000,
        "span_us": 1000,
        "role": None,
        "option": 32,
        "function": "Motor Interlock",
        "switch_position": "high",
        "reversed": False,
    }
    assert [entry["number"] for entry in report["extra_channels"]] == [6, 7, 8, 18]
    assert report["extra_channels"][3]["span_us"] is None


def test_the_markdown_report_has_the_table_of_the_channels_beyond_ch5() -> None:
    """GIVEN the same snapshot WHEN the Markdown is made THEN it has a line per channel beyond CH5 with
    the words the view shows."""
    markdown = build_markdown(build_report(state_with_channels()))
    assert "| CH7 | 1950 | 1000 | 2000 | Motor Interlock | high |" in markdown
    assert "| CH8 | 1100 | 1100 | 1100 | Flight mode + ArmDisarm | – |" in markdown
    assert "| CH18 | – | – | – | no function | – |" in markdown


def test_a_version_2_reader_s_fields_are_all_still_there() -> None:
    """GIVEN a version 3 report WHEN read for version 2's required members THEN every one is there:
    version 3 only adds ``extra_channels`` (and lets channel numbers reach 18)."""
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    report = build_report(state_with_channels())
    assert set(schema["required"]) - {"extra_channels"} <= set(report)
    assert "extra_channels" in schema["required"]
