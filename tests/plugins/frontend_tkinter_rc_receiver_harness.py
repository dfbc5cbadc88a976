# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Test doubles of the receiver view's model: a scripted model and a live snapshot to change."""

from __future__ import annotations

from dataclasses import replace

from amc_rc_receiver.plugins.rc_receiver.snapshot import ChannelReading, FailsafeStatus, RCReceiverState
from tests.support.tk import ScriptedSource


class ScriptedModel(ScriptedSource[RCReceiverState]):
    """Test double of the receiver model for view tests: returns scripted snapshots, records calls."""

    def __init__(self, *states: RCReceiverState) -> None:
        super().__init__(*(states or (RCReceiverState(),)))
        self.calls: list[str] = []
        self.activate_failure: Exception | None = None

    def activate(self) -> None:
        self.calls.append("activate")
        if self.activate_failure is not None:
            raise self.activate_failure

    def deactivate(self) -> None:
        self.calls.append("deactivate")

    def reset_test(self) -> None:
        self.calls.append("reset_test")
        self.state = replace(self.state, failsafe_observed=False, failsafe_observed_at=None)

    def suspend(self, *, connection_recovery: bool = False) -> None:
        self.calls.append("suspend (recovery)" if connection_recovery else "suspend")

    def resume(self) -> None:
        self.calls.append("resume")

    def confirm_transmitter(self, on: bool) -> None:
        self.calls.append("it is on" if on else "it is off")

    def skip_stick(self) -> None:
        self.calls.append("skip_stick")


def live_state(**overrides: object) -> RCReceiverState:
    """A connected receiver with fresh telemetry; ``overrides`` change single fields."""
    base = RCReceiverState(
        channels=tuple(
            ChannelReading(n, pwm) for n, pwm in enumerate((1100, 1300, 1500, 1700, 1900), start=1)
        ),
        rssi=200,
        receiver_present=True,
        receiver_enabled=True,
        failsafe=FailsafeStatus.NOT_ACTIVE,
        rc_channels_live=True,
        sys_status_live=True,
        rc_channels_age_s=0.1,
        sys_status_age_s=0.1,
        rc_channels_rate_hz=5.0,
        sys_status_rate_hz=5.0,
        chancount=8,
        active=True,
        connected=True,
        test_started_at=100.0,
        now=101.0,
    )
    return replace(base, **overrides)  # type: ignore[arg-type]
