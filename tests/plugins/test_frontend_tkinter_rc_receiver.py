# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Behaviour of the RC receiver view on real Tk widgets.

Most tests render hand-made snapshots or drive the view with a tiny scripted model (a test double
of the model for view tests only); the last ones use the real data model, both without a
connection and against a scripted vehicle speaking real MAVLink over loopback UDP.
"""

from __future__ import annotations

import logging
import tkinter as tk
from collections.abc import Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amc_rc_receiver.backend_flightcontroller import FlightController
from amc_rc_receiver.plugins.data_model_rc_receiver import RCReceiverDataModel
from amc_rc_receiver.plugins.frontend_tkinter_rc_receiver import (
    COLOUR_BAD,
    COLOUR_GOOD,
    COLOUR_UNKNOWN,
    RCReceiverView,
    _create_rc_receiver_model,
    _create_rc_receiver_view,
    register_rc_receiver_plugin,
)
from amc_rc_receiver.plugins.plugin_constants import PLUGIN_RC_RECEIVER
from amc_rc_receiver.plugins.plugin_factory import PluginModelContext, plugin_factory
from amc_rc_receiver.plugins.plugin_protocol import PluginPauseReason, resolve_plugin_lifecycle
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
from tests.plugins.frontend_tkinter_rc_receiver_harness import ScriptedModel, live_state
from tests.support.scripted_fc import ScriptedFlightController
from tests.support.tk import packed, pending_after_ids, pump_until

pytestmark = pytest.mark.tk

DEADLINE_S = 10.0


@pytest.fixture
def tk_geometry() -> str:
    return "700x500"


@pytest.fixture
def model() -> ScriptedModel:
    return ScriptedModel(live_state())


@pytest.fixture
def view(root: tk.Tk, model: ScriptedModel) -> RCReceiverView:
    return packed(RCReceiverView(root, model, tick_ms=10))


# --------------------------------------------------------------------------- channels and RSSI


def test_exactly_five_channel_bars_labelled_ch1_to_ch5(view: RCReceiverView) -> None:
    """
    GIVEN a new receiver view
    WHEN it is built
    THEN it shows exactly five channel rows named CH1 to CH5.
    """
    assert [row.name.cget("text") for row in view.channel_rows] == ["CH1", "CH2", "CH3", "CH4", "CH5"]


def test_valid_channels_show_their_microseconds_and_bar_positions(view: RCReceiverView) -> None:
    """
    GIVEN a snapshot with CH1..CH5 at 1100, 1300, 1500, 1700 and 1900 µs
    WHEN it is rendered
    THEN each row reads its real value and its bar sits that far above 800 µs.
    """
    view.render(live_state())

    assert [row.text for row in view.channel_rows] == ["1100 µs", "1300 µs", "1500 µs", "1700 µs", "1900 µs"]
    assert [row.bar_value for row in view.channel_rows] == [300.0, 500.0, 700.0, 900.0, 1100.0]
    assert float(view.channel_rows[0].bar.cget("maximum")) == 1400.0


def test_channel_without_reading_is_unavailable_with_an_empty_bar(view: RCReceiverView) -> None:
    """
    GIVEN a snapshot where CH4 and CH5 have no reading (e.g. chancount 3)
    WHEN it follows a snapshot in which they moved
    THEN both say "Unavailable" and their bars empty, while CH1 keeps its value.
    """
    view.render(live_state())
    channels = (*live_state().channels[:3], ChannelReading(4), ChannelReading(5))
    view.render(live_state(channels=channels, chancount=3))

    assert view.channel_rows[3].text == "Unavailable"
    assert view.channel_rows[4].text == "Unavailable"
    assert view.channel_rows[3].bar_value == 0.0
    assert view.channel_rows[4].bar_value == 0.0
    assert view.channel_rows[0].text == "1100 µs"


@pytest.mark.parametrize(
    ("pwm", "text", "bar"),
    [(2500, "2500 µs", 1400.0), (2200, "2200 µs", 1400.0), (600, "600 µs", 0.0), (800, "800 µs", 0.0)],
)
def test_reading_outside_the_bar_range_keeps_its_real_number_with_a_clamped_bar(
    view: RCReceiverView, pwm: int, text: str, bar: float
) -> None:
    """
    GIVEN a CH1 reading at or beyond the 800–2200 µs bar range
    WHEN it is rendered
    THEN the text shows the real reading and the bar stops at its end.
    """
    channels = (ChannelReading(1, pwm), *live_state().channels[1:])
    view.render(live_state(channels=channels))

    assert view.channel_rows[0].text == text
    assert view.channel_rows[0].bar_value == bar


@pytest.mark.parametrize(
    ("rssi", "text"), [(123, "RSSI 123 / 254"), (0, "RSSI 0 / 254"), (254, "RSSI 254 / 254")]
)
def test_rssi_is_shown_in_the_reported_0_to_254_scale(view: RCReceiverView, rssi: int, text: str) -> None:
    """
    GIVEN a receiver RSSI reading (0 is a valid reading, not "unavailable")
    WHEN it is rendered
    THEN it reads "RSSI n / 254", never a percentage, and the bar holds n out of 254.
    """
    view.render(live_state(rssi=rssi))

    assert view.rssi_row.text == text
    assert "%" not in view.rssi_row.text
    assert view.rssi_row.bar_value == float(rssi)
    assert float(view.rssi_row.bar.cget("maximum")) == 254.0


def test_with_rc_options_bit_11_the_rssi_row_says_link_quality(view: RCReceiverView) -> None:
    """
    GIVEN RC_OPTIONS with bit 11 (CRSF link quality reported as RSSI), then without it
    WHEN RSSI 200 is rendered
    THEN the row is named "Link quality" and reads "LQ 200 / 254"; without the bit it is the
         receiver's RSSI again
    """
    options = ParameterValue("RC_OPTIONS", 2048 + 32, ParameterSource.READ)
    view.render(live_state(rssi=200, guided=GuidedTest(parameters=(options,))))
    assert str(view.rssi_row.name.cget("text")) == "Link quality"
    assert view.rssi_row.text == "LQ 200 / 254"

    plain = ParameterValue("RC_OPTIONS", 32, ParameterSource.READ)
    view.render(live_state(rssi=200, guided=GuidedTest(parameters=(plain,))))
    assert str(view.rssi_row.name.cget("text")) == "Receiver RSSI"
    assert view.rssi_row.text == "RSSI 200 / 254"


def test_the_protocol_the_flight_controller_announces_is_shown(view: RCReceiverView) -> None:
    """
    GIVEN no protocol announced yet, then the flight controller saying it decodes CRSF
    WHEN each snapshot is rendered
    THEN the receiver status says "not announced yet", then "CRSF"
    """
    view.render(live_state())
    assert str(view.protocol_value.cget("text")) == "not announced yet"
    view.render(live_state(guided=GuidedTest(detected_protocol="CRSF")))
    assert str(view.protocol_value.cget("text")) == "CRSF"


def test_unavailable_rssi_is_shown_as_unavailable_with_an_empty_bar(view: RCReceiverView) -> None:
    """
    GIVEN RSSI was 123 and the next snapshot has no RSSI
    WHEN it is rendered
    THEN the RSSI row reads "Unavailable" and its bar is empty.
    """
    view.render(live_state(rssi=123))
    view.render(live_state(rssi=None))

    assert view.rssi_row.text == "Unavailable"
    assert view.rssi_row.bar_value == 0.0


@pytest.fixture
def shared_view(root: tk.Tk) -> RCReceiverView:
    """One view for a property test's every example (hypothesis reruns a test body many times)."""
    widget = RCReceiverView(root, ScriptedModel())
    widget.pack()
    return widget


# The view is meant to be shared by the examples: rendering one reading after another is what it does.
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(pwm=st.integers(min_value=0, max_value=65535), rssi=st.integers(min_value=0, max_value=254))
def test_any_reading_keeps_its_real_number_and_a_bar_inside_its_range(
    shared_view: RCReceiverView, pwm: int, rssi: int
) -> None:
    """
    GIVEN any 16-bit PWM reading on CH2 and any valid RSSI
    WHEN rendered
    THEN CH2's text is exactly that reading in µs, its bar stays within 0..1400 and tracks the
    reading inside the range, and RSSI reads "RSSI n / 254" with bar n.
    """
    channels = (
        ChannelReading(1, 1500),
        ChannelReading(2, pwm),
        *(ChannelReading(n, 1500) for n in (3, 4, 5)),
    )
    shared_view.render(live_state(channels=channels, rssi=rssi))

    row = shared_view.channel_rows[1]
    assert row.text == f"{pwm} µs"
    assert 0.0 <= row.bar_value <= 1400.0
    if 800 <= pwm <= 2200:
        assert row.bar_value == float(pwm - 800)
    assert shared_view.rssi_row.text == f"RSSI {rssi} / 254"
    assert shared_view.rssi_row.bar_value == float(rssi)


# --------------------------------------------------------------------------- lamps


@pytest.mark.parametrize(
    ("failsafe", "text", "colour"),
    [
        (FailsafeStatus.ACTIVE, "active", COLOUR_BAD),
        (FailsafeStatus.NOT_ACTIVE, "not active", COLOUR_GOOD),
        (FailsafeStatus.UNKNOWN, "unknown", COLOUR_UNKNOWN),
    ],
)
def test_rc_failsafe_lamp_states_its_status_in_words_and_colour(
    view: RCReceiverView, failsafe: FailsafeStatus, text: str, colour: str
) -> None:
    """
    GIVEN a snapshot with RC failsafe active, not active or unknown
    WHEN it is rendered
    THEN the failsafe lamp names the status in text and colours its circle to match.
    """
    other = FailsafeStatus.NOT_ACTIVE if failsafe is FailsafeStatus.ACTIVE else FailsafeStatus.ACTIVE
    view.render(live_state(failsafe=other))
    view.render(live_state(failsafe=failsafe))

    assert view.failsafe_lamp.text == text
    assert view.failsafe_lamp.colour == colour


@pytest.mark.parametrize(
    ("present", "text", "colour"),
    [(True, "yes", COLOUR_GOOD), (False, "no", COLOUR_BAD), (None, "unknown", COLOUR_UNKNOWN)],
)
def test_receiver_presence_lamp_says_yes_no_or_unknown(
    view: RCReceiverView, present: bool | None, text: str, colour: str
) -> None:
    """
    GIVEN the flight controller has seen RC input (or not, or did not say)
    WHEN the snapshot is rendered
    THEN the "Receiver seen by the flight controller" lamp says so in words.
    """
    view.render(live_state(receiver_present=present))

    assert view.present_lamp.title.cget("text") == "Receiver seen by the flight controller:"
    assert view.present_lamp.text == text
    assert view.present_lamp.colour == colour


def test_failsafe_observation_shows_its_time_and_survives_recovery(view: RCReceiverView) -> None:
    """
    GIVEN a test started at t=100 s, a failsafe observed at t=112.4 s
    WHEN the transmitter comes back and recovery is observed at t=120 s
    THEN "Failsafe observed" still reads "yes, at 12.4 s" and "Recovery observed" reads "yes, at 20.0 s".
    """
    view.render(live_state())
    assert view.failsafe_observed_lamp.text == "not yet"
    assert view.recovery_lamp.text == "not yet"

    view.render(
        live_state(failsafe=FailsafeStatus.ACTIVE, failsafe_observed=True, failsafe_observed_at=112.4)
    )
    assert view.failsafe_observed_lamp.text == "yes, at 12.4 s"
    assert view.failsafe_lamp.text == "active"

    view.render(
        live_state(
            failsafe_observed=True,
            failsafe_observed_at=112.4,
            recovery_observed=True,
            recovery_observed_at=120.0,
        )
    )
    assert view.failsafe_lamp.text == "not active"
    assert view.failsafe_observed_lamp.text == "yes, at 12.4 s"
    assert view.recovery_lamp.text == "yes, at 20.0 s"
    assert view.recovery_lamp.colour == COLOUR_GOOD


# --------------------------------------------------------------------------- notices and streams


def test_expired_streams_show_the_readings_cleared_notice(view: RCReceiverView) -> None:
    """
    GIVEN both streams went silent for more than 3 s (the model cleared the readings)
    WHEN that snapshot is rendered
    THEN the notice says "No telemetry for 3 s — readings cleared." and channels read "Unavailable".
    """
    view.render(live_state())
    assert "readings cleared" not in view.notice.cget("text")

    expired = RCReceiverState(
        connected=True, rc_channels_age_s=3.2, sys_status_age_s=3.1, test_started_at=100.0, now=104.0
    )
    view.render(expired)

    assert "No telemetry for 3 s — readings cleared." in view.notice.cget("text")
    assert all(row.text == "Unavailable" for row in view.channel_rows)
    assert view.failsafe_lamp.text == "unknown"


def test_only_rc_channels_expired_names_that_stream(view: RCReceiverView) -> None:
    """
    GIVEN RC_CHANNELS expired while SYS_STATUS is still live
    WHEN rendered
    THEN the notice names RC_CHANNELS and says the channel readings were cleared.
    """
    view.render(
        live_state(rc_channels_live=False, rc_channels_age_s=3.5, channels=RCReceiverState().channels)
    )

    assert "No RC_CHANNELS for 3 s" in view.notice.cget("text")


def test_link_error_text_is_shown_and_cleared_when_the_link_recovers(view: RCReceiverView) -> None:
    """
    GIVEN the model reports a link error
    WHEN it is rendered, and later a snapshot without the error
    THEN the notice shows the error text, then no longer does.
    """
    view.render(live_state(link_error="serial port /dev/ttyACM0 vanished"))
    assert "Link error: serial port /dev/ttyACM0 vanished" in view.notice.cget("text")

    view.render(live_state())
    assert "vanished" not in view.notice.cget("text")


def test_backlog_is_announced(view: RCReceiverView) -> None:
    """
    GIVEN more messages waited than one poll may read
    WHEN the snapshot says backlog
    THEN the notice says readings may lag behind.
    """
    view.render(live_state(backlog=True))

    assert "backlog" in view.notice.cget("text")


def test_waiting_for_telemetry_is_said_when_nothing_arrived_yet(view: RCReceiverView) -> None:
    """
    GIVEN a connected flight controller that has sent no receiver telemetry yet
    WHEN that snapshot is rendered
    THEN the notice says it waits for RC_CHANNELS and SYS_STATUS.
    """
    view.render(RCReceiverState(connected=True))

    assert "Waiting for RC_CHANNELS and SYS_STATUS" in view.notice.cget("text")


@pytest.mark.parametrize(
    ("outcome", "reason", "expected"),
    [
        (IntervalRequestOutcome.PENDING, None, "interval request (5.0 Hz): pending"),
        (IntervalRequestOutcome.ACCEPTED, None, "interval request (5.0 Hz): accepted"),
        (
            IntervalRequestOutcome.REJECTED,
            "MAV_RESULT_DENIED",
            "interval request (5.0 Hz): rejected: MAV_RESULT_DENIED",
        ),
        (IntervalRequestOutcome.NO_ANSWER, None, "interval request (5.0 Hz): no answer"),
        (
            IntervalRequestOutcome.SEND_FAILED,
            "not connected",
            "interval request (5.0 Hz): send failed: not connected",
        ),
        (IntervalRequestOutcome.NOT_REQUESTED, None, "interval not requested"),
    ],
)
def test_stream_rates_and_interval_request_outcomes_are_shown(
    view: RCReceiverView, outcome: IntervalRequestOutcome, reason: str | None, expected: str
) -> None:
    """
    GIVEN measured rates of 4.8 Hz (RC_CHANNELS) and 1.0 Hz (SYS_STATUS) and a request outcome
    WHEN rendered
    THEN each stream shows its rate with one decimal and its request's outcome (and reason).
    """
    requests = (
        IntervalRequestStatus("RC_CHANNELS", 65, 200_000, outcome, reason),
        IntervalRequestStatus("SYS_STATUS", 1, 200_000, IntervalRequestOutcome.ACCEPTED),
    )
    view.render(live_state(rc_channels_rate_hz=4.8, sys_status_rate_hz=1.0, interval_requests=requests))

    assert view.stream_rows["RC_CHANNELS"].rate.cget("text") == "4.8 Hz"
    assert view.stream_rows["SYS_STATUS"].rate.cget("text") == "1.0 Hz"
    assert view.stream_rows["RC_CHANNELS"].request.cget("text") == expected
    assert view.stream_rows["SYS_STATUS"].request.cget("text") == "interval request (5.0 Hz): accepted"


def test_guidance_explains_the_whole_check(view: RCReceiverView) -> None:
    """
    GIVEN the view
    WHEN a user reads the guidance
    THEN it covers upload first, moving CH1–CH5, transmitter off (failsafe), back on (recovery),
    and that "present" means seen since boot, not receiving now.
    """
    text = view.guidance.cget("text")

    assert "Upload" in text
    assert "first five channels" in text
    assert "Switch the transmitter off" in text
    assert "Switch the transmitter back on" in text
    assert "Recovery observed" in text
    assert "since it booted, not that it receives it now" in text


# --------------------------------------------------------------------------- reset and minimal updates


def test_start_a_new_test_button_resets_the_test(view: RCReceiverView, model: ScriptedModel) -> None:
    """
    GIVEN a failsafe was observed
    WHEN the user presses "Start a new test"
    THEN the model's reset_test() runs and the view shows the fresh state.
    """
    model.state = live_state(failsafe_observed=True, failsafe_observed_at=110.0)
    view.render(model.state)
    assert view.failsafe_observed_lamp.text == "yes, at 10.0 s"
    assert view.reset_button.cget("text") == "Start a new test"

    view.reset_button.invoke()

    assert model.calls == ["reset_test"]
    assert view.failsafe_observed_lamp.text == "not yet"


def test_rendering_unchanged_values_touches_no_widget(view: RCReceiverView) -> None:
    """
    GIVEN a rendered snapshot
    WHEN a new snapshot arrives that differs only in clock and ages (an idle tick)
    THEN no widget is reconfigured.
    """
    view.render(live_state())
    before = view.widget_updates

    view.render(live_state(now=101.1, rc_channels_age_s=0.2, sys_status_age_s=0.15))
    view.render(live_state(now=101.2, rc_channels_age_s=0.05, sys_status_age_s=0.25))

    assert view.widget_updates == before


def test_a_change_of_rssi_only_rewrites_the_rssi_bar_and_text(view: RCReceiverView) -> None:
    """
    GIVEN a rendered snapshot
    WHEN only RSSI changes
    THEN exactly two widget writes happen (RSSI bar and RSSI text) and the channels keep their values.
    """
    view.render(live_state())
    before = view.widget_updates

    view.render(live_state(rssi=77, now=101.1))

    assert view.widget_updates - before == 2
    assert view.rssi_row.text == "RSSI 77 / 254"
    assert view.channel_rows[2].text == "1500 µs"


def test_one_moving_channel_rewrites_only_that_channel(view: RCReceiverView) -> None:
    """
    GIVEN a rendered snapshot
    WHEN only CH3 moves
    THEN exactly CH3's bar and text are written.
    """
    view.render(live_state())
    before = view.widget_updates
    channels = list(live_state().channels)
    channels[2] = ChannelReading(3, 1600)

    view.render(live_state(channels=tuple(channels)))

    assert view.widget_updates - before == 2
    assert view.channel_rows[2].text == "1600 µs"
    assert view.channel_rows[2].bar_value == 800.0


# --------------------------------------------------------------------------- lifecycle


def test_two_activations_leave_exactly_one_pending_timer(view: RCReceiverView, model: ScriptedModel) -> None:
    """
    GIVEN an inactive view
    WHEN on_activate() is called twice
    THEN the model is activated once and exactly one after() callback is pending.
    """
    before = pending_after_ids(view)

    view.on_activate()
    view.on_activate()

    new_timers = pending_after_ids(view) - before
    assert len(new_timers) == 1
    assert view.timer_id in new_timers
    assert model.calls == ["activate"]


def test_ticks_poll_the_model_and_show_new_readings(
    root: tk.Tk, view: RCReceiverView, model: ScriptedModel
) -> None:
    """
    GIVEN an active view and a model that will report CH1 at 2000 µs
    WHEN the event loop runs
    THEN the view polls repeatedly and shows 2000 µs, with still just one timer pending.
    """
    model.queue(live_state(channels=(ChannelReading(1, 2000), *live_state().channels[1:])))
    before = pending_after_ids(view)
    view.on_activate()

    assert pump_until(root, lambda: model.polls >= 3 and view.channel_rows[0].text == "2000 µs")
    assert len(pending_after_ids(view) - before) == 1


def test_deactivation_cancels_the_timer_and_releases_the_model(
    root: tk.Tk, view: RCReceiverView, model: ScriptedModel
) -> None:
    """
    GIVEN an active, polling view
    WHEN on_deactivate() is called
    THEN no callback of the view remains pending, the model is deactivated and polling stops.
    """
    view.on_activate()
    assert pump_until(root, lambda: model.polls >= 1)
    timer = view.timer_id

    view.on_deactivate()

    assert model.polls_while_pumping(root) == 0
    assert view.timer_id is None
    assert timer not in pending_after_ids(view)
    assert model.calls == ["activate", "deactivate"]


def test_destroying_an_active_view_cancels_the_timer_and_deactivates_the_model(
    root: tk.Tk, view: RCReceiverView, model: ScriptedModel
) -> None:
    """
    GIVEN an active view with a pending tick
    WHEN the view is destroyed
    THEN its pending callback is gone and the model was deactivated exactly once.
    """
    view.on_activate()
    timer = view.timer_id
    assert timer in pending_after_ids(root)

    view.destroy()

    assert timer not in pending_after_ids(root)
    assert model.calls == ["activate", "deactivate"]


def test_destroying_an_inactive_view_does_not_deactivate_the_model(
    view: RCReceiverView, model: ScriptedModel
) -> None:
    """
    GIVEN a view that was activated and deactivated
    WHEN it is destroyed
    THEN the model is not deactivated a second time.
    """
    view.on_activate()
    view.on_deactivate()

    view.destroy()

    assert model.calls == ["activate", "deactivate"]


def test_suspend_pauses_polling_and_resume_continues_with_the_same_history(
    root: tk.Tk, view: RCReceiverView, model: ScriptedModel
) -> None:
    """
    GIVEN an active view that has shown a failsafe observation
    WHEN it is suspended (e.g. a file browser opens) and later resumed
    THEN no tick runs while suspended, nothing is reset or deactivated, and polling resumes
    with the observation still shown.
    """
    model.queue(live_state(failsafe_observed=True, failsafe_observed_at=105.0))
    view.on_activate()
    assert pump_until(root, lambda: view.failsafe_observed_lamp.text == "yes, at 5.0 s")

    view.on_suspend()
    assert model.polls_while_pumping(root) == 0
    assert view.timer_id is None

    view.on_resume()
    assert model.pump_until_polled(root)
    assert view.failsafe_observed_lamp.text == "yes, at 5.0 s"
    assert model.calls == ["activate", "suspend", "resume"]


@pytest.mark.parametrize(
    ("reason", "model_call"),
    [
        (PluginPauseReason.EXCLUSIVE_OPERATION, "suspend"),
        (PluginPauseReason.CONNECTION_RECOVERY, "suspend (recovery)"),
    ],
)
def test_the_hosts_pause_reason_reaches_the_model(
    root: tk.Tk, view: RCReceiverView, model: ScriptedModel, reason: PluginPauseReason, model_call: str
) -> None:
    """
    GIVEN an active view
    WHEN the host pauses it the way the methodic configurator 5.0.1 does (resolve_plugin_lifecycle
         with a reason) and resumes it
    THEN the model learns whether the link is being recovered (so it sends nothing) and resumes,
         and no tick runs in between.
    """
    view.on_activate()
    lifecycle = resolve_plugin_lifecycle(view, reason)
    assert lifecycle is not None
    pause, resume = lifecycle

    pause()
    assert model.polls_while_pumping(root) == 0
    resume()

    assert model.calls == ["activate", model_call, "resume"]
    assert model.pump_until_polled(root)


def test_a_model_failure_during_a_tick_is_shown_and_polling_continues(
    root: tk.Tk, view: RCReceiverView, model: ScriptedModel
) -> None:
    """
    GIVEN an active view
    WHEN the model raises during poll()
    THEN the error text appears in the notice area (nothing escapes into Tk), ticks go on,
    and the message disappears once polling works again.
    """
    model.failure = RuntimeError("model state corrupted")
    view.on_activate()
    assert pump_until(root, lambda: "model state corrupted" in view.notice.cget("text"))
    assert model.pump_until_polled(root, times=2)

    model.failure = None
    assert pump_until(root, lambda: "model state corrupted" not in view.notice.cget("text"))


def test_a_fault_of_the_view_or_model_is_shown_as_an_internal_error_and_logged_once(
    root: tk.Tk, view: RCReceiverView, model: ScriptedModel, caplog: pytest.LogCaptureFixture
) -> None:
    """
    GIVEN an active view whose model raises a programming error on every tick
    WHEN the view ticks several times
    THEN the notice calls it an internal error of the check and not of the link, with the
    exception, no "Link error" is shown, and the traceback is logged once, not once per tick.
    """
    model.failure = TypeError("unsupported operand")
    with caplog.at_level(logging.ERROR):
        view.on_activate()
        assert model.pump_until_polled(root, times=3)

    text = view.notice.cget("text")
    assert "Internal error of the receiver check (TypeError: unsupported operand)" in text
    assert "not of the link" in text
    assert "Link error" not in text
    logged = [record for record in caplog.records if record.exc_info is not None]
    assert len(logged) == 1
    assert logged[0].exc_info is not None
    assert logged[0].exc_info[0] is TypeError


def test_an_internal_error_and_a_link_error_of_the_model_read_differently(view: RCReceiverView) -> None:
    """
    GIVEN one snapshot whose model met an internal error, and one whose link closed
    WHEN each is rendered
    THEN the first notice is the internal error's sentence without a link error, the second a
    link error without the word internal.
    """
    sentence = "Internal error of the receiver check (KeyError: 'x'). This is a fault of the program."
    view.render(live_state(internal_error=sentence, rc_channels_live=False, sys_status_live=False))
    internal = view.notice.cget("text")
    view.render(live_state(link_error="The flight controller closed the connection."))
    closed = view.notice.cget("text")

    assert sentence in internal
    assert "Link error" not in internal
    assert "Link error: The flight controller closed the connection." in closed
    assert "Internal error" not in closed


def test_a_model_failure_on_activation_is_shown_not_raised(
    view: RCReceiverView, model: ScriptedModel
) -> None:
    """
    GIVEN a model whose activate() raises
    WHEN the view is activated
    THEN on_activate() returns normally, the error is in the notice and the timer still runs.
    """
    model.activate_failure = OSError("port busy")

    view.on_activate()

    assert "port busy" in view.notice.cget("text")
    assert view.timer_id is not None


def test_content_taller_than_the_window_can_scroll(root: tk.Tk, view: RCReceiverView) -> None:
    """
    GIVEN the view in a window only 200 pixels high
    WHEN it is laid out
    THEN the scroll region is taller than the visible canvas, so the user can scroll to the guidance.
    """
    root.geometry("700x200")
    view.render(live_state())
    root.update()

    canvas = view._scroll.canvas
    region = [float(v) for v in str(canvas.cget("scrollregion")).split()]
    assert region[3] > canvas.winfo_height()
    canvas.yview_moveto(1.0)
    assert canvas.yview()[1] == 1.0


# --------------------------------------------------------------------------- plugin factories


def test_view_factory_builds_a_suspendable_plugin_view(root: tk.Tk, model: ScriptedModel) -> None:
    """
    GIVEN the view factory the plugin registry calls
    WHEN it is called with a parent, a model and a base window
    THEN it returns an RCReceiverView implementing the plugin lifecycle including suspend/resume.
    """
    created = _create_rc_receiver_view(root, model, None)

    assert isinstance(created, RCReceiverView)
    for hook in ("on_activate", "on_deactivate", "destroy", "pack", "on_suspend", "on_resume"):
        assert callable(getattr(created, hook))


def test_model_factory_builds_the_receiver_model_from_the_context() -> None:
    """
    GIVEN a plugin context holding a flight controller
    WHEN the model factory is called
    THEN it returns an RCReceiverDataModel; without a flight controller it refuses clearly.
    """
    created = _create_rc_receiver_model(PluginModelContext(flight_controller=FlightController()))
    assert isinstance(created, RCReceiverDataModel)

    with pytest.raises(ValueError, match="needs a connected flight controller"):
        _create_rc_receiver_model(PluginModelContext(flight_controller=None))


def test_register_makes_the_plugin_available_under_its_name(root: tk.Tk) -> None:
    """
    GIVEN the default plugin registry
    WHEN register_rc_receiver_plugin() runs
    THEN "rc_receiver" builds the real model and this view.
    """
    register_rc_receiver_plugin()
    assert plugin_factory.is_registered(PLUGIN_RC_RECEIVER)
    built_model = plugin_factory.create_model(
        PLUGIN_RC_RECEIVER, PluginModelContext(flight_controller=FlightController())
    )
    assert isinstance(built_model, RCReceiverDataModel)
    built_view = plugin_factory.create(PLUGIN_RC_RECEIVER, root, built_model, None)
    assert isinstance(built_view, RCReceiverView)
    built_view.destroy()


# --------------------------------------------------------------------------- the real data model


def test_with_the_real_model_and_no_connection_the_view_says_so(root: tk.Tk) -> None:
    """
    GIVEN the real data model on a flight controller that is not connected
    WHEN the view is activated and ticks
    THEN it shows the model's "not connected" link error, unavailable channels and an unknown
    failsafe, and deactivation leaves no timer behind.
    """
    real_model = RCReceiverDataModel(FlightController())
    real_view = RCReceiverView(root, real_model, tick_ms=10)
    real_view.pack()
    real_view.on_activate()

    assert pump_until(root, lambda: "Not connected" in real_view.notice.cget("text"))
    assert all(row.text == "Unavailable" for row in real_view.channel_rows)
    assert real_view.rssi_row.text == "Unavailable"
    assert real_view.failsafe_lamp.text == "unknown"
    assert real_view.present_lamp.text == "unknown"

    real_view.on_deactivate()
    assert real_view.timer_id is None
    assert not real_model.active
    real_view.destroy()


@pytest.fixture
def vehicle() -> Iterator[ScriptedFlightController]:
    scripted = ScriptedFlightController()
    scripted.start()
    yield scripted
    scripted.stop()


@pytest.fixture
def connected(vehicle: ScriptedFlightController) -> Iterator[FlightController]:
    flight_controller = FlightController()
    error = flight_controller.connect(vehicle.device, timeout=DEADLINE_S)
    assert error == "", error
    yield flight_controller
    flight_controller.disconnect()


def test_with_the_real_model_a_live_vehicle_shows_channels_failsafe_and_recovery(
    root: tk.Tk, vehicle: ScriptedFlightController, connected: FlightController
) -> None:
    """
    GIVEN the real model connected over loopback UDP to a vehicle sending real RC_CHANNELS and SYS_STATUS
    WHEN the receiver is healthy, then loses health (transmitter off), then regains it
    THEN the view shows the PWM values and RSSI, the interval requests accepted, failsafe active
    and observed, then recovery, with the failsafe observation kept.
    """
    real_model = RCReceiverDataModel(connected)
    real_view = RCReceiverView(root, real_model, tick_ms=20)
    real_view.pack()
    real_view.on_activate()
    healthy = [True]

    def feed_and_check(check: Callable[[], bool]) -> Callable[[], bool]:
        def condition() -> bool:
            vehicle.send_rc_channels([1100, 1200, 1300, 1400, 1500], rssi=180)
            vehicle.send_sys_status(present=True, enabled=True, healthy=healthy[0])
            return check()

        return condition

    assert pump_until(
        root,
        feed_and_check(
            lambda: (
                real_view.channel_rows[4].text == "1500 µs"
                and real_view.failsafe_lamp.text == "not active"
                and "accepted" in real_view.stream_rows["SYS_STATUS"].request.cget("text")
            )
        ),
    )
    assert real_view.channel_rows[0].text == "1100 µs"
    assert real_view.rssi_row.text == "RSSI 180 / 254"
    assert real_view.present_lamp.text == "yes"

    healthy[0] = False
    assert pump_until(root, feed_and_check(lambda: real_view.failsafe_lamp.text == "active"))
    assert real_view.failsafe_observed_lamp.text.startswith("yes, at ")

    healthy[0] = True
    assert pump_until(root, feed_and_check(lambda: real_view.recovery_lamp.text.startswith("yes, at ")))
    assert real_view.failsafe_lamp.text == "not active"
    assert real_view.failsafe_observed_lamp.text.startswith("yes, at ")

    real_view.destroy()
    assert not real_model.active
