# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The guided test beside the live readings: parameters, roles, radio messages, guide, verdict.

`GuidedTestTracker` is fed by the data model: every message of the selected vehicle the poll
reads (HEARTBEAT for the vehicle type, PARAM_VALUE, STATUSTEXT, RC_CHANNELS for all 16 inputs,
SYS_STATUS), one `poll()` per tick to send the parameter reads that are due, and the lifecycle
(new connection, new test, resume).  `build()` turns it all, plus the live snapshot, into the
frozen `GuidedTest` with findings and verdict.

What it takes from its host, read each time because the host changes them under it: the flight
controller's ``fc_parameters`` (the methodic configurator fills them at connect; empty in our own
window, where the names are read instead), ``info`` (the vehicle type and firmware where the host
has them), the step's parameter file (``parameter_editor.current_file`` in
``local_filesystem.file_parameters``) and ``local_filesystem.vehicle_dir`` for reports.  Missing
attributes simply mean "not known"; nothing here raises to the model.

Why this module is long: it is one tracker whose parts share one state.  The messages it takes,
the memos that spare a poll the work nothing asked for (the host's values once per snapshot, the
wanted names, the roles, the whole guided test while its inputs and the time cannot change it)
and the build that reads them all must forget together when the host, the connection or the test
changes; split apart, each half would reach into the other's state on every message.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .evidence import (
    FLIGHT_MODE_ROLE,
    ChannelSpans,
    FailsafeWitness,
    RadioTimeline,
    channel_roles,
    flight_mode_reading,
)
from .findings import FindingInputs, parameter_findings
from .firmware import (
    MAX_RC_CHANNEL,
    ROLE_PARAMETERS,
    FirmwareVersion,
    VehicleFamily,
    centring,
    failsafe_timing,
    family_from_mav_type,
    family_from_name,
    throttle_channel,
    version_from_autopilot_version,
    version_from_banner,
    wanted_parameters,
)
from .guide import GuideInputs, TransmitterGuide
from .readings import readable_text, sys_status_failsafe
from .requests import ParameterReader
from .snapshot import (
    FailsafeStatus,
    Finding,
    GuidedTest,
    LinkEvent,
    LiveReadings,
    ParameterSource,
    ParameterValue,
)
from .sticks import judge_sticks, stick_axes
from .verdict import VerdictInputs, decide_verdict

TransmitterSwitch = Callable[[bool], object]


@dataclass(frozen=True)
class StickHold:
    """What the stick step asks of a program-owned transmitter: rest every stick but ``axis``
    ("roll", "pitch"...), pushed the way the step asks once ``pushed``; no axis: let go of them all.
    ``throttle_centres``: the throttle rests at the centre (a rover's), not at the bottom."""

    axis: str | None
    pushed: bool = False
    throttle_centres: bool = False


StickMover = Callable[[StickHold], object]
# A family's names with and without a throttle channel known, and a few more: plenty.
_MAX_WANTED_MEMO = 16
# Link events kept per test: a board that reboots in a loop must not grow the timeline for ever.
MAX_LINK_EVENTS = 20
_CHANNEL_VALUES = operator.attrgetter(*(f"chan{number}_raw" for number in range(1, MAX_RC_CHANNEL + 1)))


def _float_or_none(value: object) -> float | None:
    if type(value) is float:  # a download of plain numbers: the common case, read every poll
        return None if math.isnan(value) else value
    raw = getattr(value, "value", value)  # ParDict entries and our ParamEntry carry .value
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        return None
    number = float(raw)
    return None if math.isnan(number) else number


def _numbers(download: Mapping[str, Any], names: Iterable[str]) -> dict[str, float]:
    """The values of ``names`` that ``download`` holds as numbers."""
    numbers = {}
    for name in names:
        value = _float_or_none(download.get(name))
        if value is not None:
            numbers[name] = value
    return numbers


def _host_values(flight_controller: object) -> Mapping[str, Any]:
    values = getattr(flight_controller, "fc_parameters", None)
    return values if isinstance(values, Mapping) else {}


class GuidedTestTracker:
    """State of the guided test, fed message by message; see the module docstring."""

    def __init__(
        self,
        reader: ParameterReader,
        flight_controller: object,
        local_filesystem: object = None,
        parameter_editor: object = None,
    ) -> None:
        # The reads are the model's to send (the one place that writes to the link); the tracker
        # says which names it wants and reads the answers.
        self._reader = reader
        self._fc = flight_controller
        self._files = local_filesystem
        self._editor = parameter_editor
        self._spans = ChannelSpans()
        self._radio = RadioTimeline()
        self._witness = FailsafeWitness()
        self._guide = TransmitterGuide()
        self._mav_type: int | None = None
        # What the vehicle's AUTOPILOT_VERSION said, if one was read (asked for by the host).
        self._autopilot_version: FirmwareVersion | None = None
        self._failsafe = FailsafeStatus.UNKNOWN
        self._switch: TransmitterSwitch | None = None
        self._commanded: bool | None = None
        self._mover: StickMover | None = None
        self._commanded_stick: StickHold | None = None
        self._live_throttle_min: int | None = None
        self._was_counting = False
        self._known_on_of: tuple[object, bool] = (None, True)
        self._previous_count: object = None
        self._previous_channels: tuple[int, ...] | None = None
        self._link_events: tuple[LinkEvent, ...] = ()
        self._previous_failsafe: FailsafeStatus | None = None
        self._previous_guide: object = None
        self._observers: dict[str, Callable[[Any, float], None]] = {
            "RC_CHANNELS": self._observe_channels,
            "SYS_STATUS": self._observe_status,
            "PARAM_VALUE": self._observe_parameter,
            "STATUSTEXT": self._observe_text,
            "HEARTBEAT": self._observe_heartbeat,
            "AUTOPILOT_VERSION": self._observe_autopilot_version,
        }
        # The message types `observe` reads: a poll of 50 messages skips the rest for one lookup.
        self.observed_types = frozenset(self._observers)
        # The host's parameters as numbers, merged with those read: reading a large host download
        # for every RC_CHANNELS would cost more than the poll itself, so it is read once per
        # snapshot (the host changes them only between polls) or after a PARAM_VALUE answered.
        self._derived: tuple[dict[str, float], dict[str, float]] | None = None
        self._findings_memo: tuple[FindingInputs, tuple[Finding, ...]] | None = None
        self._parameters_memo: tuple[object, tuple[ParameterValue, ...]] | None = None
        self._wanted_memo: dict[tuple[VehicleFamily, float | None], tuple[str, ...]] = {}
        self._roles_memo: tuple[object, dict[int, str]] | None = None
        self._guided_memo: tuple[tuple[object, ...], GuidedTest] | None = None
        self._family: VehicleFamily | None = None

    # ----------------------------------------------------------------- lifecycle

    def connection_changed(self) -> None:
        """A new connection may be another vehicle: forget all of it."""
        self._reader.reset()
        self._forget_derived()
        self._radio.reset()
        self._mav_type = None
        self._autopilot_version = None
        self.restart_test()

    def restart_test(self) -> None:
        self._spans.restart()
        self._witness.restart()
        self._radio.restart()
        self._guide.restart()
        self._failsafe = FailsafeStatus.UNKNOWN
        self._commanded = None
        self._release_sticks()
        self._live_throttle_min = None
        self._was_counting = False
        self._previous_channels = None
        self._link_events = ()

    def resumed(self) -> None:
        """After a pause the host may have uploaded parameters: read them again."""
        self._reader.forget_reads()
        self._forget_derived()

    def set_transmitter_switch(self, switch: TransmitterSwitch | None) -> None:
        """Give the guide a transmitter it may switch itself (demo, SITL); None for a person's."""
        self._switch = switch
        self._commanded = None

    def set_stick_mover(self, mover: StickMover | None) -> None:
        """Give the stick step sticks it may move itself (demo, SITL); None for a person's."""
        self._release_sticks()
        self._mover = mover
        self._commanded_stick = None

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
        """Message type -> what the guided test does with a message of the selected vehicle."""
        return self._observers

    def observe(self, msg: Any, kind: str | None, now: float) -> None:
        """One message of the selected vehicle, of type ``kind``, in the order the poll read it.

        ``kind`` is the type the caller already read from the message.  Only the types in
        `observed_types` mean anything here; a caller that reads many messages may skip the others
        itself and save the call.
        """
        observer = self._observers.get(kind or "")
        if observer is not None:
            observer(msg, now)

    def _observe_channels(self, msg: Any, now: float) -> None:
        del now
        self.observe_rc_channels(msg)

    def observe_rc_channels(self, msg: Any) -> None:
        """One RC_CHANNELS of the selected vehicle (the model feeds a poll's worth in order)."""
        # A receiver at rest repeats itself: the same channels under the same failsafe and
        # transmitter state change nothing, which one comparison of the raw values tells.
        chancount = msg.chancount
        raw = _CHANNEL_VALUES(msg)
        failsafe, guide = self._failsafe, self._guide.state
        repeated = chancount == self._previous_count and raw == self._previous_channels
        if repeated and failsafe is self._previous_failsafe and guide is self._previous_guide:
            return
        self._previous_count, self._previous_channels = chancount, raw
        self._previous_failsafe, self._previous_guide = failsafe, guide
        chancount = int(chancount)
        if chancount < MAX_RC_CHANNEL:
            # Channels beyond chancount carry nothing the spans keep.
            raw = raw[: max(chancount, 0)]
        live = self._failsafe is not FailsafeStatus.ACTIVE
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

    def _observe_status(self, msg: Any, now: float) -> None:
        del now
        self.note_failsafe(sys_status_failsafe(msg))

    def note_failsafe(self, failsafe: FailsafeStatus) -> None:
        """What the latest SYS_STATUS of the vehicle says of RC failsafe (the model reads it once)."""
        self._failsafe = failsafe

    def _observe_parameter(self, msg: Any, now: float) -> None:
        del now
        if self._reader.handle_message(msg):
            self._forget_derived()

    def _observe_text(self, msg: Any, now: float) -> None:
        self._radio.observe(msg.text, int(msg.severity), now)

    def _observe_heartbeat(self, msg: Any, now: float) -> None:
        del now
        mav_type = int(msg.type)
        if mav_type != self._mav_type:
            self._mav_type = mav_type
            self._forget_derived()

    def _observe_autopilot_version(self, msg: Any, now: float) -> None:
        del now
        raw = getattr(msg, "flight_sw_version", None)
        if type(raw) is int and raw > 0:
            version = version_from_autopilot_version(raw)
            if version != self._autopilot_version:
                self._autopilot_version = version
                self._forget_derived()

    def firmware_version(self) -> FirmwareVersion | None:
        """The vehicle's firmware version: the host's, its AUTOPILOT_VERSION's, or its banner's."""
        host = version_from_banner(self._host_firmware())
        if host is not None:
            return host
        if self._autopilot_version is not None:
            return self._autopilot_version
        return version_from_banner(self._radio.firmware)

    def _note_live_throttle(self) -> None:
        value = self._spans.last(throttle_channel(self._values()))
        if value is not None:
            low = self._live_throttle_min
            self._live_throttle_min = value if low is None else min(low, value)

    # ----------------------------------------------------------------- per tick

    def plan(self, now: float) -> None:
        """Decide what this tick asks for: the parameter reads the test wants now (the model sends
        them) and, for a program-owned transmitter and sticks, what they are to do."""
        family = self.family()
        host, values = self._host_and_values()
        self._reader.want(self._wanted(family, values), host)
        self._drive_sticks()
        self._drive_transmitter(now)

    def _drive_sticks(self) -> None:
        if self._mover is None:
            return
        wanted = self._guide.wanted_stick()
        if wanted is None:
            self._release_sticks()
            return
        hold = StickHold(wanted[0], wanted[1], centring(self.family(), "throttle"))
        if hold != self._commanded_stick:
            self._commanded_stick = hold
            self._move(hold)

    def _release_sticks(self) -> None:
        if self._commanded_stick is not None:
            self._commanded_stick = None
            self._move(StickHold(None))

    def _move(self, hold: StickHold) -> None:
        mover = self._mover
        if mover is None:
            return
        try:
            mover(hold)
        except Exception:  # the sticks are the host's; their fault must not stop the poll
            return

    def _drive_transmitter(self, now: float) -> None:
        switch = self._switch
        wanted = self._guide.wanted_transmitter()
        if switch is None or wanted is None or wanted == self._commanded:
            return
        self._commanded = wanted
        try:
            switch(wanted)
        except Exception:  # the transmitter is the host's; its fault must not stop the poll
            return
        self._guide.note_switch(wanted, now, by_program=True)

    # ----------------------------------------------------------------- knowledge

    def family(self) -> VehicleFamily:
        """The vehicle's firmware family, worked out once per snapshot."""
        if self._family is None:
            self._family = self._find_family()
        return self._family

    def _find_family(self) -> VehicleFamily:
        family = family_from_mav_type(self._mav_type)
        if family is VehicleFamily.UNKNOWN:
            vehicle_type = getattr(getattr(self._fc, "info", None), "vehicle_type", None)
            if isinstance(vehicle_type, int) and not isinstance(vehicle_type, bool):
                family = family_from_mav_type(vehicle_type)
            else:
                family = family_from_name(vehicle_type)
        if family is VehicleFamily.UNKNOWN:
            family = family_from_name(getattr(self._files, "vehicle_type", None))
        return family

    def _forget_derived(self) -> None:
        self._derived = None
        self._family = None

    def _host_and_values(self) -> tuple[dict[str, float], dict[str, float]]:
        """The host's numbers and all values known (the host's win), computed once per snapshot.

        A host's download holds about a thousand parameters and the check reads some thirty of
        them, so only those names are looked up in it.
        """
        if self._derived is None:
            family = self.family()
            download = _host_values(self._fc)
            reads = self._reader.values
            if not download:
                self._derived = {}, reads
                return self._derived
            base = self._wanted(family, {})
            host = _numbers(download, base)
            values = {**reads, **host} if reads else dict(host)
            # Which RCn_MIN is wanted depends on RCMAP_THROTTLE, known only now.
            more = [name for name in self._wanted(family, values) if name not in base]
            if more:
                host.update(_numbers(download, more))
                values = {**reads, **host} if reads else dict(host)
            self._derived = host, values
        return self._derived

    def _wanted(self, family: VehicleFamily, values: Mapping[str, float]) -> tuple[str, ...]:
        """`wanted_parameters`, again only when the family or the throttle channel changed."""
        key = (family, values.get("RCMAP_THROTTLE"))
        wanted = self._wanted_memo.get(key)
        if wanted is None:
            if len(self._wanted_memo) >= _MAX_WANTED_MEMO:
                self._wanted_memo.clear()
            wanted = self._wanted_memo[key] = wanted_parameters(family, dict(values))
        return wanted

    def _roles(self, family: VehicleFamily, values: Mapping[str, float]) -> dict[int, str]:
        """`channel_roles`, again only when a parameter it reads changed."""
        key = (family, tuple(values.get(name) for name in ROLE_PARAMETERS))
        memo = self._roles_memo
        if memo is None or memo[0] != key:
            memo = self._roles_memo = (key, channel_roles(family, values))
        return memo[1]

    def _values(self) -> dict[str, float]:
        return self._host_and_values()[1]

    def _step_file(self) -> tuple[str | None, dict[str, float]]:
        name = getattr(self._editor, "current_file", None)
        files = getattr(self._files, "file_parameters", None)
        if not isinstance(name, str) or not isinstance(files, Mapping):
            return None, {}
        entries = files.get(name)
        if not isinstance(entries, Mapping):
            return None, {}
        values = {key: number for key, raw in entries.items() if (number := _float_or_none(raw)) is not None}
        return name, values

    def _firmware(self) -> str | None:
        host = self._host_firmware()
        if host is not None:
            return host
        if self._autopilot_version is not None and self._radio.firmware is None:
            return str(self._autopilot_version)
        return self._radio.firmware

    def _host_firmware(self) -> str | None:
        info = getattr(self._fc, "info", None)
        for attribute in ("flight_sw_version_and_type", "flight_sw_version"):
            value = getattr(info, attribute, None)
            if isinstance(value, str) and value.strip():
                return readable_text(value)
        return None

    def report_directory(self) -> str | None:
        directory = getattr(self._files, "vehicle_dir", None)
        return directory if isinstance(directory, str) and directory else None

    # ----------------------------------------------------------------- snapshot

    def build(self, live: LiveReadings, target: tuple[int | None, int | None] = (None, None)) -> GuidedTest:
        """The guided test as of this poll's ``live`` readings.

        Built every poll, and most polls change nothing it shows: the previous one is kept when
        every input is the same and time alone cannot change it (no deadline runs).
        """
        try:
            self._witness.observe(
                active=live.failsafe is FailsafeStatus.ACTIVE,
                rssi=live.rssi if live.rc_channels_live else None,
                throttle_us=self._spans.last(throttle_channel(self._values())),
                transmitter_off=self._guide.state.off_at is not None and self._guide.state.on_at is None,
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
            self._forget_derived()

    def _inputs(self, live: LiveReadings, target: tuple[int | None, int | None]) -> tuple[object, ...]:
        """Everything `_build` reads but the time."""
        return (
            self.family(),
            self._host_and_values()[1],
            self._step_file(),
            self._firmware(),
            self._autopilot_version,
            self.report_directory(),
            target,
            self._mav_type,
            self._switch is not None,
            self._live_throttle_min,
            self._reader.version,
            self._spans.version,
            self._radio.version,
            self._witness.version,
            self._guide.version,
            self._guide.sticks_version,
            self._link_events,
            live.telemetry_live,
            live.connected,
            live.receiver_present,
            live.failsafe,
            live.failsafe_observed,
            live.recovery_observed,
            live.failsafe_transitions,
            live.rssi,
            live.rc_channels_live,
        )

    def _build(self, live: LiveReadings, target: tuple[int | None, int | None]) -> GuidedTest:
        family = self.family()
        host, values = self._host_and_values()
        wanted = self._wanted(family, values)
        unavailable = self._reader.unavailable
        parameters = self._parameters(wanted, host, unavailable)
        step_name, step_all = self._step_file()
        step_values = {name: step_all[name] for name in wanted if name in step_all}
        roles = self._roles(family, values)
        channels = self._spans.evidence(roles)
        version = self.firmware_version()
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
                automatic=self._switch is not None,
                throttle_us=self._spans.last(throttle_channel(values)),
                stick_pwm=stick_pwm,
                channel_pwm=pwm_of,
                stick_axes=axes,
                family=family,
                program_sticks=self._mover is not None,
                failsafe_active=live.failsafe is FailsafeStatus.ACTIVE,
            )
        )
        sticks = judge_sticks(family, values, self._guide.stick_observations)
        findings = self._findings(
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
            )
        )
        complete = all(name in values or name in unavailable for name in wanted)
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
            )
        )
        return GuidedTest(
            family=family,
            system_id=target[0],
            component_id=target[1],
            mav_type=self._mav_type,
            firmware=self._firmware(),
            parameters=parameters,
            parameters_complete=complete,
            step_file=step_name,
            findings=findings,
            channels=channels,
            flight_mode=flight_mode_reading(family, values, pwm_of),
            radio_messages=self._radio.messages,
            detected_protocol=self._radio.detected_protocol,
            sticks=sticks,
            transmitter_events=self._guide.events,
            link_events=self._link_events,
            guide=guide,
            verdict=verdict,
            report_directory=self.report_directory(),
        )

    def _findings(self, inputs: FindingInputs) -> tuple[Finding, ...]:
        """The rules run again only when something they read changed, which is rare mid-test."""
        memo = self._findings_memo
        if memo is not None and memo[0] == inputs:
            return memo[1]
        findings = parameter_findings(inputs)
        self._findings_memo = (inputs, findings)
        return findings

    def _parameters(
        self, wanted: tuple[str, ...], host: Mapping[str, float], unavailable: frozenset[str]
    ) -> tuple[ParameterValue, ...]:
        """The wanted parameters' values and sources, rebuilt only after the reads or the host moved."""
        key = (wanted, self._reader.version, tuple(host.get(name) for name in wanted))
        memo = self._parameters_memo
        if memo is not None and memo[0] == key:
            return memo[1]
        reads = self._reader.values
        parameters = tuple(self._parameter_value(name, host, reads, unavailable) for name in wanted)
        self._parameters_memo = (key, parameters)
        return parameters

    def _parameter_value(
        self, name: str, host: Mapping[str, float], reads: Mapping[str, float], unavailable: frozenset[str]
    ) -> ParameterValue:
        attempts = self._reader.attempts(name)
        if name in host:
            return ParameterValue(name, host[name], ParameterSource.HOST, attempts)
        read = reads.get(name)
        if read is not None:
            return ParameterValue(name, read, ParameterSource.READ, attempts)
        source = ParameterSource.UNAVAILABLE if name in unavailable else ParameterSource.PENDING
        return ParameterValue(name, None, source, attempts)
