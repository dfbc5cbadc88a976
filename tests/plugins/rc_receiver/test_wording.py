# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every sentence of the receiver check, driven directly: `rc_receiver.wording`'s functions on
snapshot fields, in English and through `_` with a stand-in catalog, with no Tk and no model."""

from __future__ import annotations

import gettext

import pytest
from hypothesis import given
from hypothesis import strategies as st

import amc_rc_receiver
from amc_rc_receiver.plugins.rc_receiver import wording
from amc_rc_receiver.plugins.rc_receiver.evidence import stick_role
from amc_rc_receiver.plugins.rc_receiver.firmware import RC_OPTION_CRSF_LINK_QUALITY, VehicleFamily
from amc_rc_receiver.plugins.rc_receiver.modes import IDLE_S
from amc_rc_receiver.plugins.rc_receiver.snapshot import (
    STALE_AFTER_S,
    ChannelEvidence,
    Finding,
    FlightModeReading,
    GuidedTest,
    GuideState,
    GuideStep,
    IntervalRequestOutcome,
    IntervalRequestStatus,
    ParameterSource,
    ParameterValue,
    RadioMessage,
    RCReceiverState,
    Severity,
    StickOutcome,
    StickPrompt,
    StickResult,
    SwitchPrompt,
    VerdictResult,
)
from amc_rc_receiver.plugins.rc_receiver.wording import channels

pytestmark = pytest.mark.pure

COPTER, PLANE, ROVER = VehicleFamily.COPTER, VehicleFamily.PLANE, VehicleFamily.ROVER


class Bracketing(gettext.NullTranslations):
    """A stand-in catalog: every message comes back in brackets, so a translated one shows."""

    def gettext(self, message: str) -> str:
        return f"[{message}]"


@pytest.fixture
def bracketed(monkeypatch: pytest.MonkeyPatch) -> None:
    """`_` translates through `Bracketing` for the test, English again afterwards."""
    monkeypatch.setattr(amc_rc_receiver, "_translation", Bracketing())


# ---- translation --------------------------------------------------------------------------------


def test_the_words_go_through_the_active_catalog(bracketed: None) -> None:
    """
    GIVEN a catalog that brackets every message
    WHEN sentences with and without placeholders are worded
    THEN each comes from the catalog, with its placeholders filled in after translation
    """
    assert wording.verdict_label(VerdictResult.PASSED) == "[PASSED]"
    assert wording.interval_text(0) == "[default rate]"
    assert wording.interval_text(100_000) == "[10.0 Hz]"
    assert wording.impostor_text(3).startswith("[Another sender on this port")
    assert "3 of its datagrams" in wording.impostor_text(3)
    assert all(part.startswith("[") for part in wording.guidance_text().split("\n\n"))


def test_english_needs_no_catalog() -> None:
    """
    GIVEN no catalog installed
    WHEN a label is worded
    THEN it is the English text itself
    """
    assert [wording.verdict_label(result) for result in VerdictResult] == ["PASSED", "INCOMPLETE", "FAILED"]


# ---- streams and requests -----------------------------------------------------------------------


@pytest.mark.parametrize(("interval_us", "text"), [(200_000, "5.0 Hz"), (0, "default rate"), (-1, "off")])
def test_an_interval_is_a_rate_the_default_or_off(interval_us: int, text: str) -> None:
    """GIVEN a message interval WHEN worded THEN a positive one is a rate, 0 the default and -1 off."""
    assert wording.interval_text(interval_us) == text


@pytest.mark.parametrize(
    ("outcome", "reason", "text"),
    [
        (IntervalRequestOutcome.NOT_REQUESTED, None, "not requested"),
        (IntervalRequestOutcome.PENDING, None, "pending"),
        (IntervalRequestOutcome.ACCEPTED, None, "accepted"),
        (IntervalRequestOutcome.NO_ANSWER, None, "no answer"),
        (IntervalRequestOutcome.REJECTED, "MAV_RESULT_DENIED", "rejected: MAV_RESULT_DENIED"),
        (IntervalRequestOutcome.REJECTED, None, "rejected: no reason given"),
        (IntervalRequestOutcome.SEND_FAILED, "link closed", "send failed: link closed"),
    ],
)
def test_each_request_outcome_has_its_words(
    outcome: IntervalRequestOutcome, reason: str | None, text: str
) -> None:
    """GIVEN an interval request's outcome WHEN worded THEN it reads as that outcome, with its reason."""
    request = IntervalRequestStatus("RC_CHANNELS", 65, 100_000, outcome, reason)
    assert wording.request_outcome_text(request) == text


def test_a_request_names_its_rate_or_that_none_was_made() -> None:
    """
    GIVEN no request, a request not made, and a request at 10 Hz that was accepted
    WHEN worded
    THEN the first two say "interval not requested", the last names the rate and the outcome
    """
    assert wording.request_text(None) == "interval not requested"
    assert wording.request_text(IntervalRequestStatus("SYS_STATUS", 1, 0)) == "interval not requested"
    accepted = IntervalRequestStatus("RC_CHANNELS", 65, 100_000, IntervalRequestOutcome.ACCEPTED)
    assert wording.request_text(accepted) == "interval request (10.0 Hz): accepted"


@pytest.mark.parametrize(
    ("observed", "at", "text"),
    [(False, None, "not yet"), (True, None, "yes"), (True, 12.25, "yes, at 2.2 s")],
)
def test_a_moment_is_said_from_the_start_of_the_test(observed: bool, at: float | None, text: str) -> None:
    """GIVEN an observation WHEN worded against a test that started at 10 s THEN it is relative to that."""
    assert wording.relative_time_text(observed, at, 10.0) == text


def test_a_stream_seen_and_silent_is_expired_and_one_never_seen_awaited() -> None:
    """
    GIVEN RC_CHANNELS seen and silent, SYS_STATUS never seen
    WHEN the streams' freshness is read
    THEN RC_CHANNELS expired and SYS_STATUS awaited
    """
    state = RCReceiverState(rc_channels_age_s=4.0)
    assert wording.stream_freshness(state) == (True, False, False, True)


def test_the_notices_say_what_is_wrong_with_the_link_and_the_streams() -> None:
    """
    GIVEN a connected check whose RC_CHANNELS expired, a backlog and an internal error the view met
    WHEN the notices are worded
    THEN they name the error, the expired stream with its seconds and the backlog, and flag a problem
    """
    state = RCReceiverState(connected=True, rc_channels_age_s=4.0, sys_status_live=True, backlog=True)
    lines, problem = wording.notice_lines(state, "Internal error of the view")
    assert lines[0] == "Internal error of the view"
    assert f"No RC_CHANNELS for {STALE_AFTER_S:g} s" in lines[1]
    assert "backlog" in lines[-1]
    assert problem


def test_a_disconnected_check_says_so_and_a_healthy_one_says_nothing() -> None:
    """
    GIVEN a check with no connection, then a connected one with both streams live
    WHEN the notices are worded
    THEN the first says no flight controller is connected; the second has no notice and no problem
    """
    assert wording.notice_lines(RCReceiverState(), None) == (["No flight controller connected."], True)
    live = RCReceiverState(connected=True, rc_channels_live=True, sys_status_live=True)
    assert wording.notice_lines(live, None) == ([], False)


def test_a_link_loss_the_host_has_told_is_not_said_again_but_other_faults_are() -> None:
    """
    GIVEN a link that closed (the check awaits both streams again) with an internal error too,
          and then no connection at all, each after the host said the loss in its own sentence
    WHEN the notices are worded
    THEN only the internal error is said; once connected again, the awaited streams are said
    """
    closed = RCReceiverState(connected=True, link_error="The flight controller closed the connection.")
    assert wording.notice_lines(closed, "Internal error of the view", link_told=True) == (
        ["Internal error of the view"],
        True,
    )
    assert wording.notice_lines(RCReceiverState(), None, link_told=True) == ([], False)
    back = RCReceiverState(connected=True)
    assert wording.notice_lines(back, None, link_told=True)[0] == [
        "Waiting for RC_CHANNELS and SYS_STATUS from the flight controller…"
    ]


def test_waiting_for_streams_is_no_problem() -> None:
    """
    GIVEN a connected check that has seen no stream yet
    WHEN the notices are worded
    THEN they say what is awaited, which is no problem
    """
    lines, problem = wording.notice_lines(RCReceiverState(connected=True), None)
    assert lines == ["Waiting for RC_CHANNELS and SYS_STATUS from the flight controller…"]
    assert not problem


# ---- sticks -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("family", "axis", "name"),
    [
        (COPTER, "pitch", "pitch"),
        (PLANE, "pitch", "elevator (pitch)"),
        (PLANE, "yaw", "rudder (yaw)"),
        (ROVER, "roll", "steering"),
        (COPTER, "aux", "aux"),
    ],
)
def test_a_stick_is_named_as_the_vehicles_pilots_name_it(family: VehicleFamily, axis: str, name: str) -> None:
    """GIVEN a family and a stick WHEN named THEN it is the pilots' name, an unknown axis as it is."""
    assert wording.stick_name(family, axis) == name


@pytest.mark.parametrize(
    ("family", "axis", "action"),
    [
        (COPTER, "throttle", "fully up"),
        (ROVER, "throttle", "fully forward"),
        (PLANE, "pitch", "fully forward (nose down)"),
        (COPTER, "pitch", "fully forward"),
        (COPTER, "roll", "fully right"),
    ],
)
def test_each_stick_is_pushed_the_way_ardupilot_names(family: VehicleFamily, axis: str, action: str) -> None:
    """GIVEN a family and a stick WHEN the push is worded THEN it is ArduPilot's direction."""
    assert wording.stick_action(family, axis) == action


def test_the_stick_instruction_speaks_to_the_person_or_of_the_program() -> None:
    """
    GIVEN the throttle (which does not centre) and the pitch asked of a person, and the pitch before
          and after the program pushes it
    WHEN the instruction is worded
    THEN the person is told how to hold it, and the program's step says what the program does
    """
    assert "from the bottom" in wording.stick_instruction(COPTER, StickPrompt("throttle", 1, 4))
    assert wording.stick_instruction(COPTER, StickPrompt("pitch", 3, 4)).startswith(
        "Stick 3 of 4: push the pitch stick fully forward and hold it there"
    )
    assert "centres its sticks" in wording.stick_instruction(COPTER, StickPrompt("pitch", 3, 4, True, False))
    assert "pushes its pitch stick" in wording.stick_instruction(
        COPTER, StickPrompt("pitch", 3, 4, True, True)
    )


def test_a_helicopter_is_asked_for_its_collective_not_a_throttle() -> None:
    """
    GIVEN a helicopter, whose throttle channel sets the collective pitch
    WHEN its stick step, its throttle channel's role and a stick's result are worded
    THEN each says "collective" and none says "throttle"
    """
    heli = VehicleFamily.HELI
    texts = [
        wording.stick_instruction(heli, StickPrompt("throttle", 1, 4)),
        wording.stick_instruction(heli, StickPrompt("pitch", 3, 4)),
        wording.stick_instruction(heli, StickPrompt("throttle", 1, 4, True, True)),
        channels.channel_role_text(ChannelEvidence(3, role=stick_role(heli, "RCMAP_THROTTLE"))),
    ]
    assert texts[0].startswith("Stick 1 of 4: from the bottom, push the collective stick fully up")
    assert texts[1].endswith("the other sticks centred and the collective down.")
    assert "pushes its collective stick" in texts[2]
    assert texts[3] == "Collective"
    assert not [text for text in texts if "throttle" in text.lower()]


def test_each_stick_outcome_has_a_label_and_an_unknown_one_keeps_its_value() -> None:
    """GIVEN every stick outcome and an unknown one WHEN labelled THEN each has words, the unknown
    its value."""
    labels = {outcome: wording.stick_outcome_label(outcome.value) for outcome in StickOutcome}
    assert labels[StickOutcome.WRONG_CHANNEL] == "wrong channel"
    assert len(set(labels.values())) == len(StickOutcome)
    assert wording.stick_outcome_label("sideways") == "sideways"


def test_the_stick_results_read_one_after_the_other() -> None:
    """
    GIVEN a correct roll, a reversed pitch, a throttle on the wrong channel and a skipped yaw
    WHEN the step's results are worded
    THEN each reads with its channels and values; nothing is said while all are pending
    """
    sticks = (
        StickResult("roll", "roll", "RCMAP_ROLL", 1, StickOutcome.CORRECT, 1, 1500, 2000),
        StickResult("pitch", "pitch", "RCMAP_PITCH", 2, StickOutcome.REVERSED, 2, 1500, 2000),
        StickResult("throttle", "throttle", "RCMAP_THROTTLE", 3, StickOutcome.WRONG_CHANNEL, 1),
        StickResult("yaw", "yaw", "RCMAP_YAW", 4, StickOutcome.SKIPPED),
    )
    assert wording.sticks_text(GuidedTest(family=COPTER, sticks=sticks)) == (
        "Sticks: roll: correct, CH1 1500 → 2000 µs; pitch: REVERSED, CH2 1500 → 2000 µs; "
        "throttle: CH1 moved, but RCMAP_THROTTLE = 3; yaw: skipped"
    )
    pending = tuple(StickResult(s.axis, s.role, s.parameter, s.channel) for s in sticks)
    assert wording.sticks_text(GuidedTest(sticks=pending)) == ""


# ---- the guide, channels, findings, messages ----------------------------------------------------


@pytest.mark.parametrize("step", [step for step in GuideStep if step is not GuideStep.MOVE_STICKS])
@pytest.mark.parametrize("automatic", [False, True])
def test_every_step_has_an_instruction(step: GuideStep, automatic: bool) -> None:
    """
    GIVEN each step of the guide, with a person or the program at the transmitter
    WHEN its instruction is worded
    THEN there is one; the switching steps ask a person to press a button, never the program
    """
    text = wording.guide_instruction(GuidedTest(guide=GuideState(step=step, automatic=automatic)))
    assert text
    if step in (GuideStep.SWITCH_OFF, GuideStep.SWITCH_ON):
        assert ("press" in text) is not automatic


def test_the_stick_step_instruction_is_the_sticks_own() -> None:
    """GIVEN the stick step asking for a Plane's pitch WHEN worded THEN it is that stick's instruction."""
    prompt = StickPrompt("pitch", 2, 4)
    check = GuidedTest(family=PLANE, guide=GuideState(step=GuideStep.MOVE_STICKS, stick=prompt))
    assert wording.guide_instruction(check) == wording.stick_instruction(PLANE, prompt)


def test_a_channel_is_worded_by_its_role_and_its_span() -> None:
    """
    GIVEN a flight-mode channel that moved, a roll channel that barely did, and nothing
    WHEN their role and span are worded
    THEN the role is its label, a moved channel gives its range and another its span in µs
    """
    moved = ChannelEvidence(5, "flight_mode", 1900, 1100, 1900, moved=True)
    still = ChannelEvidence(1, "roll", 1500, 1490, 1510)
    assert (channels.channel_role_text(moved), channels.channel_span_text(moved)) == (
        "Flight mode",
        "moved 1100–1900",
    )
    assert (channels.channel_role_text(still), channels.channel_span_text(still)) == ("Roll", "span 20 µs")
    assert (channels.channel_role_text(None), channels.channel_span_text(ChannelEvidence(2))) == ("", "")
    assert channels.role_label("no such role") == ""


@pytest.mark.parametrize(
    ("reading", "text"),
    [
        (None, ""),
        (FlightModeReading(5), "Flight mode channel CH5: no valid position"),
        (
            FlightModeReading(5, 1500, 4, 5, "LOITER", channel_is_default=True),
            "Flight mode channel CH5: 1500 µs, slot 4: LOITER (default channel)",
        ),
        (FlightModeReading(8, 1100, 1, 99), "Flight mode channel CH8: 1100 µs, slot 1: mode 99"),
        (FlightModeReading(8, 1100, 1), "Flight mode channel CH8: 1100 µs, slot 1: unknown"),
    ],
)
def test_the_flight_mode_reading_names_slot_and_mode(reading: FlightModeReading | None, text: str) -> None:
    """GIVEN a flight-mode reading WHEN worded THEN it names the channel, PWM, slot and mode it knows."""
    assert channels.flight_mode_text(reading) == text


def test_a_person_is_told_the_switch_steps_idle_time_from_its_constant() -> None:
    """
    GIVEN the switch step asking a person for the mode switch and an aux switch
    WHEN worded
    THEN it says when the step goes on by itself, `IDLE_S` after the last change, which a program's
    transmitter is not told
    """
    person = channels.switch_instruction(SwitchPrompt(5, slots_seen=(1, 3), aux_channels=(7,)))
    program = channels.switch_instruction(SwitchPrompt(5, aux_channels=(7,), by_program=True))
    assert person == (
        "Flip the mode switch (CH5) through all its positions. Flip each aux switch once: CH7. "
        f"The test goes on once all were seen, or {IDLE_S:g} s after the last change. "
        "Slots seen: 1, 3. Aux switches flipped: none."
    )
    assert "after the last change" not in program


@pytest.mark.parametrize(
    ("severity", "mark"), [(Severity.BLOCKING, "✖"), (Severity.WARNING, "⚠"), (Severity.INFO, "ℹ")]
)
def test_a_finding_reads_with_its_mark_message_and_action(severity: Severity, mark: str) -> None:
    """GIVEN a finding of each severity WHEN worded THEN its mark, message and action, in that order."""
    assert wording.finding_text(Finding("code", severity, "What.", "Do this.")) == f"{mark} What. Do this."


@given(st.floats(0.0, 1000.0), st.floats(0.0, 1000.0))
def test_a_radio_message_is_timed_from_the_start_of_the_test_never_before_it(
    at: float, started: float
) -> None:
    """
    GIVEN a radio message at any time and a test started at any time
    WHEN it is worded
    THEN it shows the seconds since the start, never negative, then its text
    """
    text = wording.message_text(RadioMessage(at, 4, "Radio Failsafe"), started)
    seconds, words = text.split(" s  ")
    assert float(seconds) == pytest.approx(max(0.0, at - started), abs=0.051)  # rounded to 0.1 s
    assert words == "Radio Failsafe"


def test_rc_options_bit_11_makes_the_rssi_link_quality() -> None:
    """GIVEN RC_OPTIONS with and without bit 11, and unread WHEN asked THEN only bit 11 means link quality."""

    def check(options: float | None) -> GuidedTest:
        return GuidedTest(parameters=(ParameterValue("RC_OPTIONS", options, ParameterSource.READ),))

    assert wording.rssi_is_link_quality(check(float(RC_OPTION_CRSF_LINK_QUALITY)))
    assert not wording.rssi_is_link_quality(check(0.0))
    assert not wording.rssi_is_link_quality(check(None))


# ---- errors -------------------------------------------------------------------------------------


def test_a_lost_link_and_a_bad_read_are_told_apart() -> None:
    """
    GIVEN an OSError from the link and a ValueError from reading
    WHEN described
    THEN the first is a lost connection, the second a failed read, each with its detail
    """
    assert wording.describe_transport_error(OSError("port gone")) == (
        "Lost the connection to the flight controller: port gone"
    )
    assert (
        wording.describe_transport_error(ValueError())
        == "Could not read from the flight controller: ValueError"
    )


def test_an_internal_error_is_the_programs_fault_not_the_links() -> None:
    """
    GIVEN a KeyError inside the check
    WHEN described
    THEN it names the error and says it is a fault of the program, not of the link
    """
    text = wording.describe_internal_error(KeyError("x"))
    assert "KeyError: 'x'" in text
    assert "not of the link" in text
