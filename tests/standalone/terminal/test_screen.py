# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the terminal view prints for receiver and bridge snapshots."""

from __future__ import annotations

import io

import pytest

from amc_rc_receiver.plugins.rc_receiver.snapshot import (
    ChannelReading,
    FailsafeStatus,
    GuidedTest,
    IntervalRequestOutcome,
    IntervalRequestStatus,
    ParameterSource,
    ParameterValue,
    RCReceiverState,
)
from amc_rc_receiver.sim_bridge.snapshot import (
    BridgeSnapshot,
    Direction,
    DirectionSnapshot,
    LinkSnapshot,
    LoopCounts,
    OrderCounts,
)
from amc_rc_receiver.standalone.terminal.screen import (
    TextFrontEnd,
    describe_events,
    format_bridge_summary,
    format_status_line,
)

pytestmark = pytest.mark.pure

LIVE = RCReceiverState(
    channels=(
        ChannelReading(1, 1500),
        ChannelReading(2, 1100),
        ChannelReading(3, None),
        ChannelReading(4, 2500),
        ChannelReading(5, 0 + 1000),
    ),
    rssi=0,
    receiver_present=True,
    failsafe=FailsafeStatus.NOT_ACTIVE,
    rc_channels_rate_hz=5.0,
    sys_status_rate_hz=4.9,
    rc_channels_live=True,
    sys_status_live=True,
)


def test_status_line_shows_real_values_and_marks_missing_channels() -> None:
    """GIVEN live readings with CH3 missing WHEN formatted THEN numbers are exact and CH3 is dashes."""
    line = format_status_line(LIVE)
    assert "CH1  1500" in line
    assert "CH3  ----" in line
    assert "CH4  2500" in line
    assert "RSSI 0/254" in line
    assert "RC failsafe: not active" in line
    assert "RC_CHANNELS 5.0 Hz, SYS_STATUS 4.9 Hz" in line


def test_rssi_255_is_never_printed_as_a_number() -> None:
    """GIVEN RSSI unavailable WHEN formatted THEN the line says unavailable."""
    assert "RSSI unavailable" in format_status_line(RCReceiverState())


def test_with_rc_options_bit_11_the_rssi_is_printed_as_link_quality() -> None:
    """GIVEN RC_OPTIONS bit 11 (CRSF link quality in the RSSI field) WHEN RSSI 200 is formatted
    THEN the line says LQ 200/254, and without a reading that link quality is unavailable."""
    options = ParameterValue("RC_OPTIONS", 2048, ParameterSource.READ)
    check = GuidedTest(parameters=(options,))
    assert "LQ 200/254" in format_status_line(RCReceiverState(rssi=200, guided=check))
    assert "link quality unavailable" in format_status_line(RCReceiverState(guided=check))


def test_expired_readings_are_called_no_telemetry() -> None:
    """GIVEN a snapshot without live streams WHEN formatted THEN the line says no telemetry."""
    assert "no telemetry" in format_status_line(RCReceiverState())


def test_a_failsafe_then_recovery_produces_event_lines_in_order() -> None:
    """GIVEN snapshots live, failsafe, recovered WHEN compared pairwise THEN the events tell the story."""
    failsafe = RCReceiverState(
        failsafe=FailsafeStatus.ACTIVE,
        failsafe_observed=True,
        failsafe_observed_at=3.25,
        test_started_at=1.0,
        sys_status_live=True,
        receiver_present=True,
    )
    recovered = RCReceiverState(
        failsafe=FailsafeStatus.NOT_ACTIVE,
        failsafe_observed=True,
        failsafe_observed_at=3.25,
        recovery_observed=True,
        recovery_observed_at=5.0,
        test_started_at=1.0,
        sys_status_live=True,
        receiver_present=True,
    )
    first = describe_events(LIVE, failsafe)
    assert "RC failsafe is now ACTIVE" in first
    assert "Failsafe observed at 2.2 s into the test" in first
    second = describe_events(failsafe, recovered)
    assert "RC failsafe is now not active" in second
    assert "Recovery observed at 4.0 s into the test" in second


def test_interval_request_outcomes_are_reported_once_each() -> None:
    """GIVEN a request going from pending to rejected WHEN described THEN each outcome appears once."""
    pending = RCReceiverState(
        interval_requests=(IntervalRequestStatus("RC_CHANNELS", 65, 200_000, IntervalRequestOutcome.PENDING),)
    )
    rejected = RCReceiverState(
        interval_requests=(
            IntervalRequestStatus(
                "RC_CHANNELS", 65, 200_000, IntervalRequestOutcome.REJECTED, "MAV_RESULT_DENIED"
            ),
        )
    )
    assert describe_events(None, pending) == ["RC_CHANNELS interval request: pending"]
    assert describe_events(pending, pending) == []
    assert describe_events(pending, rejected) == ["RC_CHANNELS interval request: rejected: MAV_RESULT_DENIED"]


def test_link_error_and_restore_are_events() -> None:
    """GIVEN a link error appearing then clearing WHEN described THEN both are reported."""
    broken = RCReceiverState(link_error="Connection closed")
    assert "Link error: Connection closed" in describe_events(LIVE, broken)
    assert "Link restored" in describe_events(broken, LIVE)


def _requests(
    outcome: IntervalRequestOutcome, reason: str | None = None
) -> tuple[IntervalRequestStatus, ...]:
    return (
        IntervalRequestStatus("RC_CHANNELS", 65, 200_000, outcome, reason),
        IntervalRequestStatus("SYS_STATUS", 1, 200_000, outcome, reason),
    )


def test_a_followed_link_s_loss_and_return_leave_their_sentence_to_the_follower() -> None:
    """
    GIVEN a run that follows its link (the follower says "USB port closed…" and "Reconnected…")
    WHEN the model's snapshots go through a USB loss (the connection closed, the failsafe and the
         receiver unknown, both stream requests failing, then not connected and not requested) and
         back (the link up, both requests asked for again, then accepted)
    THEN the terminal adds no line of its own for the loss or the return, and says each request's
         answer once the vehicle gives it; without a follower the link error and its end are said
    """
    live = RCReceiverState(
        receiver_present=True,
        failsafe=FailsafeStatus.NOT_ACTIVE,
        interval_requests=_requests(IntervalRequestOutcome.ACCEPTED),
    )
    closed = RCReceiverState(
        link_error="The flight controller closed the connection.",
        interval_requests=_requests(IntervalRequestOutcome.SEND_FAILED, "the connection is closed."),
    )
    gone = RCReceiverState(
        link_error="Not connected to a flight controller.",
        interval_requests=_requests(IntervalRequestOutcome.NOT_REQUESTED),
    )
    back = RCReceiverState(interval_requests=_requests(IntervalRequestOutcome.PENDING))
    answered = RCReceiverState(interval_requests=_requests(IntervalRequestOutcome.ACCEPTED))
    said = [
        describe_events(before, after, links_followed=True)
        for before, after in ((live, closed), (closed, gone), (gone, back))
    ]
    assert said == [[], [], []]
    assert describe_events(back, answered, links_followed=True) == [
        "RC_CHANNELS interval request: accepted",
        "SYS_STATUS interval request: accepted",
    ]
    assert "Link error: The flight controller closed the connection." in describe_events(live, closed)
    assert "Link restored" in describe_events(gone, back)


def test_bridge_summary_names_the_link_and_counts_both_directions() -> None:
    """GIVEN a bridge snapshot WHEN summarised THEN counts, rates and frame bookkeeping are shown."""
    link = LinkSnapshot(
        name="sitl",
        protocol="ardupilot-json",
        detected_protocol=None,
        listen="127.0.0.1:9002",
        target="127.0.0.1:9012",
        peer="127.0.0.1:40000",
        listen_only=False,
        from_peer=DirectionSnapshot(
            Direction.FROM_PEER, packets=10, packets_per_s=50.0, order=OrderCounts(frame_repeats=2)
        ),
        from_target=DirectionSnapshot(Direction.FROM_TARGET, packets=9, decode_errors=(("missing-key", 1),)),
    )
    (line,) = format_bridge_summary(BridgeSnapshot(links=(link,)))
    assert line.startswith("bridge sitl [ardupilot-json]")
    assert "-> 10 pkts 50.0/s" in line
    assert "2 repeats" in line
    assert "<- 9 pkts" in line
    assert "1 decode errors" in line


def test_log_mode_prints_events_immediately_and_status_at_a_cadence() -> None:
    """GIVEN a log-mode front end WHEN snapshots arrive 0.1 s apart THEN one status line, every event."""
    now = [10.0]
    out = io.StringIO()
    front_end = TextFrontEnd(out, live=False, clock=lambda: now[0], status_interval_s=0.5)
    front_end.render(LIVE)
    now[0] += 0.1
    front_end.render(RCReceiverState(failsafe=FailsafeStatus.ACTIVE, sys_status_live=True))
    text = out.getvalue()
    assert text.count("CH1") == 1
    assert "RC failsafe is now ACTIVE" in text


def test_bridge_summary_gives_decode_error_reasons_and_relay_errors_as_the_window_does() -> None:
    """GIVEN a link with decode errors by reason, ICMP reports, dropped captures and a stranger
    WHEN summarised for the terminal THEN every reason and count is printed, as in the bridge panel."""
    link = LinkSnapshot(
        name="sitl",
        protocol="ardupilot-json",
        detected_protocol=None,
        listen="127.0.0.1:9002",
        target="127.0.0.1:9012",
        peer=None,
        listen_only=False,
        from_peer=DirectionSnapshot(
            Direction.FROM_PEER, packets=10, decode_errors=(("magic", 2), ("truncated", 1))
        ),
        from_target=DirectionSnapshot(Direction.FROM_TARGET, packets=0),
        unexpected_senders=4,
        dropped_captures=12,
        relay_errors=(("port-unreachable", 3),),
    )

    (line,) = format_bridge_summary(BridgeSnapshot(links=(link,)))

    assert "3 decode errors (wrong magic ×2, truncated ×1)" in line
    assert "relay: ICMP port unreachable ×3" in line
    assert "12 captures dropped" in line
    assert "unexpected senders: 4" in line


def looping_link(loops_cut: int, held_back: int) -> LinkSnapshot:
    return LinkSnapshot(
        name="ardupilot-json 127.0.0.1:9100",
        protocol="ardupilot-json",
        detected_protocol=None,
        listen="127.0.0.1:9100",
        target="127.0.0.1:9101",
        peer=None,
        listen_only=False,
        from_peer=DirectionSnapshot(Direction.FROM_PEER, packets=9),
        from_target=DirectionSnapshot(Direction.FROM_TARGET),
        loop=LoopCounts(
            returned=8,
            held_back=held_back,
            loops_cut=loops_cut,
            came_back_from="127.0.0.1:45678",
            sent_to="127.0.0.1:9101",
        ),
    )


def test_a_cut_loop_is_a_bridge_problem_and_an_event_once_in_the_log() -> None:
    """GIVEN a log-mode front end WHEN a link cuts a loop and later snapshots show it still held
    THEN the event is printed once, naming the link and where the datagrams came back from, and
    every status line names the loop first among the link's problems; a second loop is a new event."""
    now = [10.0]
    out = io.StringIO()
    front_end = TextFrontEnd(out, live=False, clock=lambda: now[0], status_interval_s=0.5)
    front_end.render(LIVE, BridgeSnapshot(links=(looping_link(0, 0),)))
    for held in (1, 2, 3):
        now[0] += 0.6
        front_end.render(LIVE, BridgeSnapshot(links=(looping_link(1, held),)))
    now[0] += 0.6
    front_end.render(LIVE, BridgeSnapshot(links=(looping_link(2, 4),)))

    text = out.getvalue()
    event = (
        "* Bridge ardupilot-json 127.0.0.1:9100: loop cut: what it sent to 127.0.0.1:9101 came back "
        "from 127.0.0.1:45678; held back: 1"
    )
    assert text.count(event) == 1
    assert text.count("* Bridge ardupilot-json 127.0.0.1:9100: loop cut") == 2
    assert (
        "0 decode errors | loop cut: what it sent to 127.0.0.1:9101 came back from 127.0.0.1:45678; "
        "held back: 3" in text
    )


def test_telemetry_that_stops_is_one_sentence_not_its_unknowns_and_the_guides_wait() -> None:
    """
    GIVEN a log-mode terminal view showing live readings, failsafe not active and the receiver seen
    WHEN the next snapshot has no live telemetry (readings cleared, failsafe and receiver unknown,
         the guide back to waiting for telemetry)
    THEN the log says "No telemetry for 3 s: readings cleared" once, and neither the unknowns nor
         the guide's wait
    """
    out = io.StringIO()
    front_end = TextFrontEnd(out, live=False, clock=lambda: 0.0, status_interval_s=1e9)
    front_end.render(LIVE)
    out.truncate(0)
    out.seek(0)
    front_end.render(RCReceiverState())
    events = [line.split("] * ", 1)[1] for line in out.getvalue().splitlines() if "] * " in line]
    assert events == ["No telemetry for 3 s: readings cleared"]
