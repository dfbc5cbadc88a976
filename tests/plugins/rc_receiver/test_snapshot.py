# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The snapshot records, driven directly: frozen, compared field by field, and the few answers
they compute themselves (spans, lookups, "checked", live telemetry)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amc_rc_receiver.plugins.rc_receiver.snapshot import (
    CHANNEL_COUNT,
    FIRST_CHANNEL,
    ChannelEvidence,
    ChannelReading,
    GuidedTest,
    ParameterSource,
    ParameterValue,
    RCReceiverState,
    StickOutcome,
    StickResult,
    Verdict,
    VerdictResult,
)

pytestmark = pytest.mark.pure


def test_a_snapshot_is_frozen_and_compared_by_its_fields() -> None:
    """
    GIVEN two states made of the same values
    WHEN compared, and when one is written to
    THEN they are equal (a view redraws only what changed), and the write is refused
    """
    first = RCReceiverState(
        rssi=100, guided=GuidedTest(parameters=(ParameterValue("RSSI_TYPE", 3.0, ParameterSource.READ),))
    )
    second = RCReceiverState(
        rssi=100, guided=GuidedTest(parameters=(ParameterValue("RSSI_TYPE", 3.0, ParameterSource.READ),))
    )
    assert first == second
    assert dataclasses.replace(first, rssi=101) != second
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.rssi = 5  # type: ignore[misc]


def test_a_fresh_state_shows_ch1_to_ch5_without_values_and_no_live_telemetry() -> None:
    """
    GIVEN a state made with no arguments
    WHEN read
    THEN it has CH1..CH5 without a value, no live telemetry and an INCOMPLETE verdict
    """
    state = RCReceiverState()
    assert state.channels == tuple(
        ChannelReading(n) for n in range(FIRST_CHANNEL, FIRST_CHANNEL + CHANNEL_COUNT)
    )
    assert not state.has_live_telemetry
    assert state.guided.verdict == Verdict()
    assert state.guided.verdict.result is VerdictResult.INCOMPLETE


@pytest.mark.parametrize(("rc", "sys"), [(True, False), (False, True), (True, True)])
def test_either_live_stream_is_live_telemetry(rc: bool, sys: bool) -> None:
    """GIVEN one or both streams live WHEN asked THEN the state has live telemetry."""
    assert RCReceiverState(rc_channels_live=rc, sys_status_live=sys).has_live_telemetry


@given(st.one_of(st.none(), st.integers(800, 2200)), st.one_of(st.none(), st.integers(800, 2200)))
def test_a_span_is_the_range_covered_or_0_when_an_end_is_unknown(low: int | None, high: int | None) -> None:
    """
    GIVEN any lowest and highest PWM, either possibly unknown
    WHEN the channel's span is read
    THEN it is highest less lowest, or 0 while either end is unknown
    """
    span = ChannelEvidence(1, min_us=low, max_us=high).span_us
    assert span == (0 if low is None or high is None else high - low)


@pytest.mark.parametrize(
    ("outcome", "checked"),
    [
        (StickOutcome.PENDING, False),
        (StickOutcome.CORRECT, True),
        (StickOutcome.REVERSED, True),
        (StickOutcome.WRONG_CHANNEL, True),
        (StickOutcome.NO_MOVEMENT, False),
        (StickOutcome.SKIPPED, False),
    ],
)
def test_a_stick_is_checked_once_a_channel_answered_it(outcome: StickOutcome, checked: bool) -> None:
    """GIVEN a stick result of each outcome WHEN asked THEN only an answered stick counts as checked."""
    assert StickResult("roll", "roll", "RCMAP_ROLL", 1, outcome).checked is checked


def test_the_guided_test_looks_up_parameters_and_channels_by_name_and_number() -> None:
    """
    GIVEN a guided test with two parameters (one pending) and two channels
    WHEN they are looked up
    THEN each is found by its name or number, a pending one has no value, and a missing one is None
    """
    check = GuidedTest(
        parameters=(
            ParameterValue("FS_THR_VALUE", 975.0, ParameterSource.HOST),
            ParameterValue("RC_OPTIONS", None, ParameterSource.PENDING, attempts=1),
        ),
        channels=(ChannelEvidence(1, "roll"), ChannelEvidence(3, "throttle")),
    )
    assert check.parameter("FS_THR_VALUE") == 975.0
    assert check.parameter("RC_OPTIONS") is None
    assert check.parameter("RSSI_TYPE") is None
    channel = check.channel(3)
    assert channel is not None
    assert channel.role == "throttle"
    assert check.channel(2) is None


def test_the_verdicts_value_is_the_word_machines_read() -> None:
    """GIVEN each verdict result WHEN stored (its value) THEN it is the upper-case word, in any
    language."""
    assert [result.value for result in VerdictResult] == ["PASSED", "INCOMPLETE", "FAILED"]
