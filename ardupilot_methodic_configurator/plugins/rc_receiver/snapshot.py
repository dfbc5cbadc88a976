# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The immutable snapshot of the receiver check, the one thing that crosses from the model to a view.

`RCReceiverState` holds the live readings (channels, RSSI, receiver bits, rates, interval
requests, link problems) and `GuidedTest`, the guided test (parameters, findings, channel
evidence, radio messages, guide and verdict).  Both are frozen dataclasses of numbers, strings,
enums and tuples: comparable field by field, so a view redraws only what changed, and storable as
they are in a report.  Sentences (findings, verdict) are built in the current language when the
model builds the snapshot.  Nothing here knows Tk, sockets or a clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .firmware import VehicleFamily


class Severity(Enum):
    """How much a finding matters: a blocking one fails the test."""

    BLOCKING = "blocking"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Finding:
    """One parameter finding in plain words: what is set, what it means and what to do."""

    code: str
    severity: Severity
    message: str
    action: str
    parameter: str | None = None
    value: float | None = None
    step_file_value: float | None = None


class ParameterSource(Enum):
    """Where a parameter value came from."""

    HOST = "host"  # the host's own download (the methodic configurator's fc_parameters)
    READ = "read"  # answered to our PARAM_REQUEST_READ
    PENDING = "pending"
    UNAVAILABLE = "unavailable"  # asked for, never answered


@dataclass(frozen=True)
class ParameterValue:
    name: str
    value: float | None
    source: ParameterSource
    attempts: int = 0


@dataclass(frozen=True)
class ChannelEvidence:
    """One RC input channel during the test: its role, the range it covered, whether it moved."""

    number: int
    role: str | None = None  # "roll", "pitch", "throttle", "yaw", "steering", "flight_mode"
    last_us: int | None = None
    min_us: int | None = None
    max_us: int | None = None
    moved: bool = False
    is_stick: bool = False

    @property
    def span_us(self) -> int:
        return 0 if self.min_us is None or self.max_us is None else self.max_us - self.min_us


class SwitchPosition(Enum):
    """The position ArduPilot reads from an auxiliary switch channel (`rc_receiver.aux_functions`)."""

    LOW = "low"
    MIDDLE = "middle"
    HIGH = "high"


@dataclass(frozen=True)
class ExtraChannel:
    """One delivered input channel beyond CH5 (up to RC_CHANNELS' 18): its reading, its range in
    this test and its role.

    ``role`` is an ``RCMAP_*`` stick's role key or ``"flight_mode"``; ``option`` the channel's
    ``RCn_OPTION`` when it is not 0, ``function`` ArduPilot's name of that option on this vehicle
    (None when unknown: shown as "option N") and ``position`` the switch position ArduPilot reads
    from ``pwm`` for it (None for no option, a continuous input or no valid reading).
    """

    number: int
    pwm: int | None = None
    min_us: int | None = None
    max_us: int | None = None
    role: str | None = None
    option: int | None = None
    function: str | None = None
    position: SwitchPosition | None = None
    reversed_channel: bool | None = None

    @property
    def span_us(self) -> int | None:
        return None if self.min_us is None or self.max_us is None else self.max_us - self.min_us


@dataclass(frozen=True)
class FlightModeReading:
    """The flight-mode channel and the slot (1-6) its current PWM selects."""

    channel: int
    pwm: int | None = None
    slot: int | None = None
    mode_number: int | None = None
    mode_name: str | None = None
    # True when the channel is the firmware default because the parameter is not known yet.
    channel_is_default: bool = False
    # The mode the flight controller reports in its HEARTBEAT (custom_mode), and its name.
    reported_mode_number: int | None = None
    reported_mode_name: str | None = None
    # The band end (1230, 1360, 1490, 1620 or 1749 µs) the PWM sits within 15 µs of, if any.
    near_band_end: int | None = None


class ModeOutcome(Enum):
    """What the flight controller did when the mode switch selected a slot."""

    ENTERED = "entered"
    REFUSED = "refused"  # it said so, or kept reporting another mode
    UNCONFIRMED = "unconfirmed"  # no HEARTBEAT after the switch settled in the slot yet


@dataclass(frozen=True)
class ModeSlotVisit:
    """One slot of the mode switch visited during the test and what the vehicle answered.

    ``reported_modes`` are the distinct ``custom_mode`` values of the HEARTBEATs that came once the
    switch had settled in the slot, in order; ``failure_text`` is ArduPilot's refusal, if it sent one.
    The mode the slot selects and the outcome are judged with the parameters known when the
    snapshot is made.
    """

    slot: int
    at: float
    pwm: int | None = None
    reported_modes: tuple[int, ...] = ()
    heartbeats: int = 0
    failure_text: str | None = None
    mode_number: int | None = None
    mode_name: str | None = None
    reported_name: str | None = None
    outcome: ModeOutcome = ModeOutcome.UNCONFIRMED


@dataclass(frozen=True)
class SwitchPrompt:
    """The switch step: the mode channel and its slots seen so far, the aux switches and those flipped."""

    mode_channel: int | None
    slots_seen: tuple[int, ...] = ()
    aux_channels: tuple[int, ...] = ()
    aux_flipped: tuple[int, ...] = ()
    # The program moves its own transmitter's switches (demo, SITL).
    by_program: bool = False


@dataclass(frozen=True)
class RadioMessage:
    """A STATUSTEXT of the selected vehicle about the radio, with the time it was read."""

    at: float
    severity: int
    text: str


@dataclass(frozen=True)
class LinkEvent:
    """Something that happened to the link itself (a reboot followed, a reconnection), and when."""

    at: float
    text: str


class GuideStep(Enum):
    """Where the guided transmitter-off test stands."""

    WAIT_TELEMETRY = "wait_telemetry"
    MOVE_STICKS = "move_sticks"
    FLIP_SWITCHES = "flip_switches"
    SWITCH_OFF = "switch_off"
    WAIT_FAILSAFE = "wait_failsafe"
    SWITCH_ON = "switch_on"
    WAIT_RECOVERY = "wait_recovery"
    DONE = "done"


class StickOutcome(Enum):
    """What the stick step found for one stick."""

    PENDING = "pending"  # not asked yet, or asked and not answered
    CORRECT = "correct"
    REVERSED = "reversed"
    WRONG_CHANNEL = "wrong_channel"
    NO_MOVEMENT = "no_movement"
    SKIPPED = "skipped"


@dataclass(frozen=True)
class StickPrompt:
    """The stick the stick step asks for now: ``axis`` is the RCMAP_* stick ("roll", "pitch"...)."""

    axis: str
    number: int  # 1-based position in the step
    count: int
    # The program moves its own transmitter's sticks: it rests them all, then pushes this one.
    by_program: bool = False
    pushed: bool = True


@dataclass(frozen=True)
class StickResult:
    """One stick of the stick step: the channel it should move, the one that moved, and the verdict.

    ``rest_us`` and ``end_us`` are the moved channel's value before the push and the end it
    reached; ``reversed_parameter`` is that channel's ``RCn_REVERSED`` where known.
    """

    axis: str
    role: str
    parameter: str  # RCMAP_ROLL...
    channel: int
    outcome: StickOutcome = StickOutcome.PENDING
    moved_channel: int | None = None
    rest_us: int | None = None
    end_us: int | None = None
    reversed_parameter: float | None = None
    # When the step moved on from this stick (answered, skipped or timed out).
    at: float | None = None

    @property
    def checked(self) -> bool:
        return self.outcome in (StickOutcome.CORRECT, StickOutcome.REVERSED, StickOutcome.WRONG_CHANNEL)


@dataclass(frozen=True)
class TransmitterEvent:
    """The transmitter went off or on: switched by this program, or confirmed by the user."""

    on: bool
    at: float
    by_program: bool


@dataclass(frozen=True)
class GuideState:
    step: GuideStep = GuideStep.WAIT_TELEMETRY
    # The program switches the transmitter itself (demo, SITL) and asks the user nothing.
    automatic: bool = False
    off_at: float | None = None
    off_by_program: bool = False
    on_at: float | None = None
    # When the failsafe should have come at the latest (failsafe timeout plus a margin).
    failsafe_deadline: float | None = None
    # The failsafe and the recovery that count for this test: after the transmitter went off,
    # each held (see `rc_receiver.guide`); earlier ones are only in the timeline.
    failsafe_at: float | None = None
    recovered_at: float | None = None
    # RC failsafe is active before the stick step is over: the transmitter must be switched on.
    failsafe_before_test: bool = False
    no_failsafe: bool = False
    no_recovery: bool = False
    # Throttle PWM the receiver kept sending while the transmitter was off and no failsafe came.
    throttle_while_off_us: int | None = None
    channels_moving_while_off: bool = False
    # During MOVE_STICKS: the stick asked for now.
    stick: StickPrompt | None = None
    # During FLIP_SWITCHES: the mode switch's slots and the aux switches, and what was seen of them.
    switches: SwitchPrompt | None = None


class VerdictResult(Enum):
    PASSED = "PASSED"
    INCOMPLETE = "INCOMPLETE"
    FAILED = "FAILED"


@dataclass(frozen=True)
class Verdict:
    """The outcome so far: ``detail`` is the next step (INCOMPLETE) or the reason (FAILED)."""

    result: VerdictResult = VerdictResult.INCOMPLETE
    headline: str = ""
    detail: str = ""
    failsafe_latency_s: float | None = None
    # "program": measured from this program switching the transmitter off; "user": from the
    # user's confirmation; None when the failsafe came without either.
    latency_from: str | None = None


class PrearmMoment(Enum):
    """When the check asks ArduPilot to run its pre-arm checks."""

    PARAMETERS_READ = "parameters_read"  # the parameters are known and the receiver delivers
    TEST_DONE = "test_done"  # the guided test is over


@dataclass(frozen=True)
class PrearmAnswer:
    """ArduPilot's answer to one MAV_CMD_RUN_PREARM_CHECKS of this test (see `rc_receiver.prearm`).

    ``outcome`` is the command's (pending, accepted, rejected, send failed, timed out), ``result``
    the MAV_RESULT name or why it was not sent; ``complete`` once the time for its texts is over;
    ``refusals`` the receiver-related PreArm/Arm texts that came back, without their prefix.
    """

    moment: PrearmMoment
    asked_at: float
    outcome: str = "pending"
    result: str | None = None
    complete: bool = False
    refusals: tuple[str, ...] = ()


@dataclass(frozen=True)
class GuidedTest:
    """Everything the guided test knows beyond the live readings."""

    family: VehicleFamily = VehicleFamily.UNKNOWN
    system_id: int | None = None
    component_id: int | None = None
    mav_type: int | None = None
    firmware: str | None = None
    parameters: tuple[ParameterValue, ...] = ()
    parameters_complete: bool = False
    step_file: str | None = None
    findings: tuple[Finding, ...] = ()
    channels: tuple[ChannelEvidence, ...] = ()
    # The delivered channels beyond CH5 (RC_CHANNELS.chancount, at most 18), in channel order.
    extra_channels: tuple[ExtraChannel, ...] = ()
    flight_mode: FlightModeReading | None = None
    # The mode switch's slots visited during the test, in the order they were first visited.
    mode_slots: tuple[ModeSlotVisit, ...] = ()
    radio_messages: tuple[RadioMessage, ...] = ()
    detected_protocol: str | None = None
    # The stick step, one entry per stick of the vehicle, in the order it asks for them.
    sticks: tuple[StickResult, ...] = ()
    transmitter_events: tuple[TransmitterEvent, ...] = ()
    link_events: tuple[LinkEvent, ...] = ()
    guide: GuideState = GuideState()
    verdict: Verdict = Verdict()
    # Where the methodic configurator keeps this vehicle's files; reports are saved there.
    report_directory: str | None = None
    # ArduPilot's own pre-arm checks, asked once the parameters are read and again after the test.
    prearm: tuple[PrearmAnswer, ...] = ()
    # The test is over and ArduPilot's pre-arm answer after it is still to come (a run waits for it).
    prearm_waiting: bool = False

    def parameter(self, name: str) -> float | None:
        for entry in self.parameters:
            if entry.name == name:
                return entry.value
        return None

    def channel(self, number: int) -> ChannelEvidence | None:
        for entry in self.channels:
            if entry.number == number:
                return entry
        return None


FIRST_CHANNEL = 1
CHANNEL_COUNT = 5
# A reading older than this is no longer live (the model decides, the views say so).
STALE_AFTER_S = 3.0
# Bars span this range; readings outside it are shown with their real number but a clamped bar.
PWM_BAR_MIN_US = 800
PWM_BAR_MAX_US = 2200


class FailsafeStatus(Enum):
    """RC failsafe as derived from the SYS_STATUS RC_RECEIVER present/enabled/health bits."""

    ACTIVE = "active"
    NOT_ACTIVE = "not_active"
    UNKNOWN = "unknown"


class IntervalRequestOutcome(Enum):
    """What became of one SET_MESSAGE_INTERVAL request."""

    NOT_REQUESTED = "not_requested"
    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    NO_ANSWER = "no_answer"
    SEND_FAILED = "send_failed"


@dataclass(frozen=True)
class ChannelReading:
    """One of CH1..CH5.  ``pwm`` is ``None`` when the channel is absent, unavailable or stale."""

    number: int
    pwm: int | None = None


@dataclass(frozen=True)
class IntervalRequestStatus:
    """Outcome of the interval request for one message stream.

    ``reason`` carries the MAV_RESULT name for a rejection and a short explanation for
    send failures; it is ``None`` otherwise.
    """

    message_name: str
    message_id: int
    interval_us: int
    outcome: IntervalRequestOutcome = IntervalRequestOutcome.NOT_REQUESTED
    reason: str | None = None


def _empty_channels() -> tuple[ChannelReading, ...]:
    return tuple(ChannelReading(number) for number in range(FIRST_CHANNEL, FIRST_CHANNEL + CHANNEL_COUNT))


@dataclass(frozen=True)
class LiveReadings:
    """What the guided test reads of one poll's live telemetry, made before the guided test.

    The poll goes one way: messages -> these readings -> the guided test -> `RCReceiverState`,
    so the guided test never sees a snapshot that is still being made.
    """

    now: float
    connected: bool
    telemetry_live: bool
    rc_channels_live: bool
    rssi: int | None
    receiver_present: bool | None
    failsafe: FailsafeStatus
    failsafe_observed: bool
    recovery_observed: bool
    failsafe_transitions: tuple[tuple[FailsafeStatus, float], ...]


@dataclass(frozen=True)
class RCReceiverState:
    """Everything the receiver check shows, at one instant.

    Times (``now``, ``*_at``) are readings of the model's injected monotonic clock; a view shows
    them relative to ``now`` or ``test_started_at``, never as wall-clock time.
    """

    channels: tuple[ChannelReading, ...] = field(default_factory=_empty_channels)
    rssi: int | None = None
    # True once the flight controller has *seen* RC input since boot; not "receiving now".
    receiver_present: bool | None = None
    receiver_enabled: bool | None = None
    failsafe: FailsafeStatus = FailsafeStatus.UNKNOWN
    failsafe_observed: bool = False
    failsafe_observed_at: float | None = None
    recovery_observed: bool = False
    recovery_observed_at: float | None = None
    # Every change between failsafe active and not active since the first failsafe (bounded).
    failsafe_transitions: tuple[tuple[FailsafeStatus, float], ...] = ()
    link_error: str | None = None
    # A fault of the check itself (a bug), in words; never a link fault, which is `link_error`.
    internal_error: str | None = None
    # The kind of link ("serial", "tcp", "udpin", "udpout"...), and the datagrams a UDP link
    # dropped because they came from another address than the vehicle's, and how many of those
    # claimed the vehicle's own system id (another sender on this port).
    link_kind: str | None = None
    foreign_datagrams: int = 0
    impostor_datagrams: int = 0
    backlog: bool = False
    rc_channels_rate_hz: float = 0.0
    sys_status_rate_hz: float = 0.0
    interval_requests: tuple[IntervalRequestStatus, ...] = ()
    # Freshness of each stream: a stream is live while its last message is under 3 s old.
    rc_channels_live: bool = False
    sys_status_live: bool = False
    rc_channels_age_s: float | None = None
    sys_status_age_s: float | None = None
    chancount: int | None = None
    active: bool = False
    connected: bool = False
    connection_generation: int = 0
    test_started_at: float = 0.0
    now: float = 0.0
    # The guided test: parameter findings, channel roles, radio messages, guide and verdict.
    guided: GuidedTest = field(default_factory=GuidedTest)

    @property
    def has_live_telemetry(self) -> bool:
        return self.rc_channels_live or self.sys_status_live
