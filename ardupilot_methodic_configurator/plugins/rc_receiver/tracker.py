# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The guided test beside the live readings: parameters, roles, radio messages, guide, verdict.

`GuidedTestTracker` is fed by the data model with every message of the selected vehicle the poll
reads, in order (RC_CHANNELS for all 18 inputs and SYS_STATUS through the model's intake;
HEARTBEAT for the vehicle type, AUTOPILOT_VERSION, PARAM_VALUE and STATUSTEXT through
`observers`), and with the lifecycle (new connection, new test, resume).  Once a tick, `plan()`
says which parameters it wants read (the model sends the reads) and drives a program-owned
transmitter; `build()` turns what it gathered and the poll's `LiveReadings` into the frozen
`GuidedTest` with findings and verdict, keeping the previous one while none of its inputs moved
and time alone cannot change it.

What it reads of its host is `HostFacts`; which vehicle it is looking at, `VehicleIdentity`; the
parameter values it knows and the names it wants, `ParameterKnowledge`; a program-owned
transmitter is `ProgramTransmitter`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from typing import Any

from .channel_table import extra_channels
from .evidence import (
    FLIGHT_MODE_ROLE,
    ChannelSpans,
    FailsafeWitness,
    RadioTimeline,
    channel_roles,
)
from .findings import parameter_findings
from .findings.inputs import FindingInputs
from .findings.modes import mode_findings
from .firmware import (
    MAX_DELIVERED_CHANNEL,
    MAX_RC_CHANNEL,
    VehicleFamily,
    centring,
    failsafe_timing,
    throttle_channel,
)
from .guide import GuideInputs, TransmitterGuide
from .host_facts import HostFacts
from .parameter_knowledge import ParameterKnowledge
from .parameter_reads import ParameterReader
from .prearm import PrearmChecks
from .program_transmitter import ProgramTransmitter, StickMover, SwitchMover, TransmitterSwitch
from .readings import readable_text
from .snapshot import FailsafeStatus, GuidedTest, GuideStep, LinkEvent, LiveReadings, PrearmMoment
from .sticks import UnseenReadings, judge_sticks, stick_axes
from .switch_evidence import SwitchEvidence
from .vehicle_identity import VehicleIdentity
from .verdict import VerdictInputs, decide_verdict

# Link events kept per test: a board that reboots in a loop must not grow the timeline for ever.
MAX_LINK_EVENTS = 20
_CHANNEL_VALUES = operator.attrgetter(*(f"chan{number}_raw" for number in range(1, MAX_RC_CHANNEL + 1)))
# Channels 17 and 18, read only from a receiver that delivers them (most deliver 16 or fewer).
_LAST_CHANNEL_VALUES = operator.attrgetter(
    *(f"chan{number}_raw" for number in range(MAX_RC_CHANNEL + 1, MAX_DELIVERED_CHANNEL + 1))
)

# What `_build` reads of the test's parts and of the live readings (the host's facts and the time
# aside), each taken in one call.
_PART_INPUTS = operator.attrgetter(
    "_identity.autopilot_version",
    "_identity.mav_type",
    "_transmitter.switches",
    "_live_throttle_min",
    "_reader.version",
    "_spans.version",
    "_radio.version",
    "_witness.version",
    "_guide.version",
    "_guide.sticks_version",
    "_switch_evidence.version",
    "_link_events",
    "_prearm.version",
)
_LIVE_INPUTS = operator.attrgetter(
    "telemetry_live",
    "connected",
    "receiver_present",
    "failsafe",
    "failsafe_observed",
    "recovery_observed",
    "failsafe_transitions",
    "rssi",
    "rc_channels_live",
)


class GuidedTestTracker:
    """State of the guided test, fed message by message; see the module docstring."""

    def __init__(
        self,
        reader: ParameterReader,
        prearm: PrearmChecks,
        flight_controller: object,
        local_filesystem: object = None,
        parameter_editor: object = None,
    ) -> None:
        # The reads are the model's to send (the one place that writes to the link); the tracker
        # says which names it wants and reads the answers.  So are the pre-arm requests: the
        # tracker says when their moment has come and reads the texts that answer them.
        self._reader = reader
        self._prearm = prearm
        self._host = HostFacts(flight_controller, local_filesystem, parameter_editor)
        self._transmitter = ProgramTransmitter()
        self._spans = ChannelSpans()
        self._radio = RadioTimeline()
        self._witness = FailsafeWitness()
        self._guide = TransmitterGuide()
        self._identity = VehicleIdentity(self._host, self._radio)
        self._knowledge = ParameterKnowledge(self._host, reader, self._identity, self._spans)
        self._switch_evidence = SwitchEvidence(
            self._guide.switches, self._spans, self._identity, self._knowledge
        )
        self._failsafe = FailsafeStatus.UNKNOWN
        self._live_throttle_min: int | None = None
        self._was_counting = False
        self._known_on_of: tuple[object, bool] = (None, True)
        self._previous_count: object = None
        self._previous_channels: tuple[int, ...] | None = None
        # When the vehicle sent the newest RC_CHANNELS (a repeat too): the stick step sees a rest
        # in two.
        self._channels_read_at: float | None = None
        self._unseen = UnseenReadings()
        # The vehicle's own clock (time_boot_ms) of its newest RC_CHANNELS: guided-test waits.
        self._vehicle_ms: int | None = None
        self._link_events: tuple[LinkEvent, ...] = ()
        self._previous_failsafe: FailsafeStatus | None = None
        self._previous_guide: object = None
        self._observers: dict[str, Callable[[Any, float], None]] = {
            "PARAM_VALUE": self._observe_parameter,
            "STATUSTEXT": self._observe_text,
            "HEARTBEAT": self._observe_heartbeat,
            "AUTOPILOT_VERSION": self._observe_autopilot_version,
        }
        # The last guided test and the inputs it was built from (see `build`).
        self._guided_memo: tuple[tuple[object, ...], GuidedTest] | None = None

    # ----------------------------------------------------------------- lifecycle

    def connection_changed(self) -> None:
        """A new connection may be another vehicle: forget all of it."""
        self._reader.reset()
        self._knowledge.forget()
        self._radio.reset()
        self._identity.forget_vehicle()
        self._switch_evidence.forget_vehicle()
        self.restart_test()

    def restart_test(self) -> None:
        self._spans.restart()
        self._witness.restart()
        self._radio.restart()
        self._guide.restart()
        self._prearm.restart()
        self._failsafe = FailsafeStatus.UNKNOWN
        self._transmitter.restart()
        self._live_throttle_min = None
        self._was_counting = False
        self._previous_channels = None
        self._unseen.clear()
        self._link_events = ()

    def resumed(self) -> None:
        """After a pause the host may have uploaded parameters: read them again."""
        self._reader.forget_reads()
        self._knowledge.forget()

    def set_transmitter_switch(self, switch: TransmitterSwitch | None) -> None:
        """Give the guide a transmitter it may switch itself (demo, SITL); None for a person's."""
        self._transmitter.set_switch(switch)

    def set_stick_mover(self, mover: StickMover | None) -> None:
        """Give the stick step sticks it may move itself (demo, SITL); None for a person's."""
        self._transmitter.set_mover(mover)

    def set_switch_mover(self, mover: SwitchMover | None) -> None:
        """Give the switch step switches it may move itself (demo, SITL); None for a person's."""
        self._transmitter.set_switch_mover(mover)

    def skip_stick(self, now: float) -> None:
        """The user passes over the stick the stick step asks for now."""
        self._guide.skip_stick(now)

    def note_transmitter(self, on: bool, now: float, *, by_program: bool) -> None:
        self._guide.note_switch(on, now, by_program=by_program)

    def note_link_event(self, text: str, now: float) -> None:
        event = LinkEvent(now, readable_text(text, limit=400))
        self._link_events = (*self._link_events, event)[-MAX_LINK_EVENTS:]

    # ----------------------------------------------------------------- messages

    @property
    def observers(self) -> Mapping[str, Callable[[Any, float], None]]:
        """Message type -> what the guided test does with a message of the selected vehicle (the
        receiver streams it takes through `observe_rc_channels` and `note_failsafe`)."""
        return self._observers

    def observe_rc_channels(self, msg: Any, sent_at: float) -> None:
        """One RC_CHANNELS of the selected vehicle (the model feeds a poll's worth in order), sent
        at ``sent_at``: the vehicle's clock mapped onto ours, or when it was read if it has none."""
        self._channels_read_at = sent_at
        boot_ms = msg.time_boot_ms
        if boot_ms > 0:  # 0: a sender that keeps no time
            self._vehicle_ms = boot_ms
        # A receiver at rest repeats itself: the same channels under the same failsafe and
        # transmitter state change nothing, which one comparison of the raw values tells.
        chancount = msg.chancount
        raw = _CHANNEL_VALUES(msg)
        if chancount > MAX_RC_CHANNEL:
            raw += _LAST_CHANNEL_VALUES(msg)
        failsafe, guide = self._failsafe, self._guide.state
        repeated = chancount == self._previous_count and raw == self._previous_channels
        if repeated and failsafe is self._previous_failsafe and guide is self._previous_guide:
            self._unseen.add(sent_at, chancount, raw, repeat=True)
            return
        self._previous_count, self._previous_channels = chancount, raw
        self._previous_failsafe, self._previous_guide = failsafe, guide
        chancount = int(chancount)
        if chancount < MAX_DELIVERED_CHANNEL:
            # Channels beyond chancount carry nothing the spans keep.
            raw = raw[: max(chancount, 0)]
        live = self._failsafe is not FailsafeStatus.ACTIVE
        self._unseen.add(sent_at, chancount, raw, repeat=False)
        changed = self._spans.observe(chancount, raw, live=live)
        # Only input while the transmitter is known to be on counts as "the stick goes this low";
        # a receiver at rest repeats itself, and a repeat lowers nothing unless counting began.
        counting = live and self._transmitter_known_on()
        if counting and (changed or not self._was_counting):
            self._note_live_throttle()
        self._was_counting = counting

    def _transmitter_known_on(self) -> bool:
        """Not between a switch-off and the switch back on, as of the guide's latest state."""
        state = self._guide.state
        if state is not self._known_on_of[0]:
            self._known_on_of = (state, not (state.off_at is not None and state.on_at is None))
        return self._known_on_of[1]

    def note_failsafe(self, failsafe: FailsafeStatus) -> None:
        """What the latest SYS_STATUS of the vehicle says of RC failsafe (the model reads it once)."""
        self._failsafe = failsafe

    def _observe_parameter(self, msg: Any, now: float) -> None:
        del now
        if self._reader.handle_message(msg):
            self._knowledge.forget()

    def _observe_text(self, msg: Any, now: float) -> None:
        joined = self._radio.observe(msg.text, int(msg.severity), now)
        text = self._radio.last_text
        if joined:
            self._prearm.observe_text(text, now)
        self._switch_evidence.observe_text(text, now)

    def _observe_heartbeat(self, msg: Any, now: float) -> None:
        if self._identity.observe_heartbeat(msg):
            self._knowledge.forget()
        self._switch_evidence.observe_heartbeat(msg, now)

    def _observe_autopilot_version(self, msg: Any, now: float) -> None:
        del now
        if self._identity.observe_autopilot_version(msg):
            self._knowledge.forget()

    def _note_live_throttle(self) -> None:
        value = self._spans.last(throttle_channel(self._knowledge.values()))
        if value is not None:
            low = self._live_throttle_min
            self._live_throttle_min = value if low is None else min(low, value)

    # ----------------------------------------------------------------- per tick

    def plan(self, now: float) -> None:
        """Decide what this tick asks for (the model sends it): the parameter reads the test wants
        now, and ArduPilot's pre-arm checks once the reads are done while the receiver delivers
        (before, it would only repeat that it is off) and again after the test; for a program-owned
        transmitter and sticks, what they are to do."""
        family = self._identity.family()
        host, values = self._knowledge.host_and_values()
        wanted = self._knowledge.wanted(family, values)
        self._reader.want(wanted, host)
        if self._transmitter.program_owned:
            self._transmitter.drive(self._guide, centring(family, "throttle"), now)
        if self._guide.state.step is GuideStep.DONE:
            self._prearm.want(PrearmMoment.TEST_DONE)
        if (
            family is not VehicleFamily.UNKNOWN
            and self._failsafe is FailsafeStatus.NOT_ACTIVE
            and not self._prearm.asked(PrearmMoment.PARAMETERS_READ)
        ):
            unavailable = self._reader.unavailable
            if all(name in values or name in unavailable for name in wanted):
                self._prearm.want(PrearmMoment.PARAMETERS_READ)

    # ----------------------------------------------------------------- snapshot

    def build(self, live: LiveReadings, target: tuple[int | None, int | None] = (None, None)) -> GuidedTest:
        """The guided test as of this poll's ``live`` readings.

        Built every poll, and most polls change nothing it shows: the previous one is kept when
        every input is the same and time alone cannot change it (no deadline runs).
        """
        try:
            active = live.failsafe is FailsafeStatus.ACTIVE
            guide = self._guide.state
            self._witness.observe(
                active=active,
                rssi=live.rssi if live.rc_channels_live else None,
                # only a failsafe's start keeps the throttle
                throttle_us=self._spans.last(throttle_channel(self._knowledge.values())) if active else None,
                transmitter_off=guide.off_at is not None and guide.on_at is None,
            )
            key = self._inputs(live, target)
            memo = self._guided_memo
            if memo is not None and memo[0] == key and self._guide.unchanged_at(live.now):
                return memo[1]
            check = self._build(live, target)
            self._guided_memo = (key, check)
            return check
        finally:
            # The host may change its parameters before the next poll.
            self._knowledge.forget()
            self._unseen.clear()

    def _inputs(self, live: LiveReadings, target: tuple[int | None, int | None]) -> tuple[object, ...]:
        """Everything `_build` reads but the time."""
        return (
            self._identity.family(),
            self._knowledge.host_and_values()[1],
            self._host.step_file(),
            self._identity.firmware(),
            self._host.report_directory(),
            target,
            _PART_INPUTS(self),
            _LIVE_INPUTS(live),
            self._prearm.answers(live.now),
        )

    def _build(self, live: LiveReadings, target: tuple[int | None, int | None]) -> GuidedTest:
        family = self._identity.family()
        host, values = self._knowledge.host_and_values()
        wanted = self._knowledge.wanted(family, values)
        unavailable = self._reader.unavailable
        parameters = self._reader.listing(wanted, host)
        step_name, step_all = self._host.step_file()
        step_values = {name: step_all[name] for name in wanted if name in step_all}
        roles = channel_roles(family, values)
        channels = self._spans.evidence(roles)
        version, firmware = self._identity.firmware()
        timeout = failsafe_timing(family, version).timeout_s(values)
        pwm_of = {channel.number: channel.last_us for channel in channels if channel.last_us is not None}
        stick_pwm = {
            number: pwm
            for number, pwm in pwm_of.items()
            if roles.get(number, FLIGHT_MODE_ROLE) != FLIGHT_MODE_ROLE
        }
        axes = stick_axes(family)
        guide = self._guide.update(
            GuideInputs(
                now=live.now,
                telemetry_live=live.telemetry_live,
                transitions=live.failsafe_transitions,
                failsafe_timeout_s=timeout,
                automatic=self._transmitter.switches,
                throttle_us=self._spans.last(throttle_channel(values)),
                stick_pwm=stick_pwm,
                channel_pwm=pwm_of,
                channels_read_at=self._channels_read_at,
                new_readings=self._unseen.all(),
                vehicle_clock_s=None if self._vehicle_ms is None else self._vehicle_ms / 1000.0,
                stick_axes=axes,
                family=family,
                program_sticks=self._transmitter.moves_sticks,
                failsafe_active=live.failsafe is FailsafeStatus.ACTIVE,
                values=values,
                delivered=self._spans.delivered,
            )
        )
        sticks = judge_sticks(family, values, self._guide.stick_observations)
        prearm = self._prearm.answers(live.now)
        findings = parameter_findings(
            FindingInputs(
                family=family,
                values=values,
                unavailable=frozenset(name for name in unavailable if name in wanted),
                step_file=step_name,
                step_values=step_values,
                receiver_present=live.receiver_present,
                rssi_live=live.rc_channels_live,
                rssi=live.rssi,
                detected_protocol=self._radio.detected_protocol,
                live_throttle_min_us=self._live_throttle_min,
                failsafe_seen=self._witness.failsafe_seen,
                throttle_at_failsafe_us=self._witness.throttle_at_failsafe_us,
                rssi_before_failsafe=self._witness.rssi_before,
                rssi_during_failsafe=self._witness.rssi_during_max,
                sticks=sticks,
                firmware_version=version,
                delivered_channels=self._spans.delivered,
                prearm=prearm,
                channel_pwm=pwm_of,
            )
        )
        mode_slots, reading = self._switch_evidence.judge(family, values, pwm_of)
        findings = (*findings, *mode_findings(family, values, mode_slots))
        complete = all(name in values or name in unavailable for name in wanted)
        done = guide.step is GuideStep.DONE
        prearm_waiting = done and live.connected and self._prearm.waiting(PrearmMoment.TEST_DONE, live.now)
        verdict = decide_verdict(
            VerdictInputs(
                family=family,
                values=values,
                findings=findings,
                guide=guide,
                channels=channels,
                connected=live.connected,
                telemetry_live=live.telemetry_live,
                receiver_present=live.receiver_present,
                failsafe=live.failsafe,
                failsafe_observed=live.failsafe_observed,
                recovery_observed=live.recovery_observed,
                transitions=live.failsafe_transitions,
                parameters_complete=complete,
                failsafe_timeout_s=timeout,
                now=live.now,
                sticks=sticks,
                prearm_waiting=prearm_waiting,
                mode_slots=mode_slots,
            )
        )
        return GuidedTest(
            family=family,
            system_id=target[0],
            component_id=target[1],
            mav_type=self._identity.mav_type,
            firmware=firmware,
            parameters=parameters,
            parameters_complete=complete,
            step_file=step_name,
            findings=findings,
            channels=channels,
            extra_channels=extra_channels(
                family, values, roles, channels, self._spans.chancount, live=live.rc_channels_live
            ),
            flight_mode=reading,
            mode_slots=mode_slots,
            radio_messages=self._radio.messages,
            detected_protocol=self._radio.detected_protocol,
            sticks=sticks,
            transmitter_events=self._guide.events,
            link_events=self._link_events,
            guide=guide,
            verdict=verdict,
            report_directory=self._host.report_directory(),
            prearm=prearm,
            prearm_waiting=prearm_waiting,
        )
