# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Property tests of the RC receiver data model over a real loopback link.

Whatever arrives (arbitrary bytes, arbitrary field values, arbitrary senders), `poll()` returns a
snapshot, reads at most 50 messages, and claims an RC failsafe only when the selected flight
controller itself reported a present, enabled and unhealthy receiver.  One connection serves all
examples of a test; each example ends with a barrier (`sync`) and starts a fresh test with the
injected clock moved past every freshness limit.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.plugins.rc_receiver.link_reader import MAX_MESSAGES_PER_POLL
from amc_rc_receiver.plugins.rc_receiver.snapshot import FailsafeStatus, RCReceiverState
from tests.plugins.data_model_rc_receiver_harness import ModelHarness, encode
from tests.support.tiers import examples

pytestmark = pytest.mark.loopback

RC_BIT = 0x10000
# A partial frame at the end of random bytes would swallow the next datagram; this many zero bytes
# complete the longest MAVLink 2 frame (280 bytes with signature), so the barrier always gets through.
FRAME_FLUSH = b"\x00" * 280


def bounded_poll_until_synced(harness: ModelHarness) -> RCReceiverState:
    """`sync()`, checking that no poll on the way read more than 50 messages."""
    harness.reads_per_poll.clear()
    state = harness.sync()
    assert max(harness.reads_per_poll) <= MAX_MESSAGES_PER_POLL
    return state


def fresh_example(harness: ModelHarness) -> None:
    harness.clock.advance(10.0)  # everything from the previous example is stale
    harness.model.reset_test()


# ---- arbitrary bytes -----------------------------------------------------------------------------

_VALID_FRAME = encode(
    mavlink2.MAVLink_sys_status_message(RC_BIT, RC_BIT, 0, 0, 12600, -1, -1, 0, 0, 0, 0, 0, 0), 1, 1
)

garbage = st.one_of(
    st.binary(max_size=600),
    # Damaged copies of a real failsafe report from the selected vehicle: a CRC must reject them.
    st.tuples(
        st.integers(0, len(_VALID_FRAME) - 1), st.integers(1, 255), st.integers(0, len(_VALID_FRAME))
    ).map(
        lambda t: (_VALID_FRAME[: t[0]] + bytes([_VALID_FRAME[t[0]] ^ t[1]]) + _VALID_FRAME[t[0] + 1 :])[
            : max(t[2], t[0] + 1)
        ]
    ),
    st.binary(max_size=40).map(lambda tail: b"\xfd" + tail),
    st.binary(max_size=40).map(lambda tail: b"\xfe" + tail),
)


def test_arbitrary_bytes_never_raise_and_never_make_up_a_failsafe() -> None:
    """
    GIVEN one connection to a scripted vehicle
    WHEN arbitrary byte streams (random, truncated or damaged frames) arrive as datagrams
    THEN every poll returns a snapshot with at most 50 messages read, no link error
         (garbage is not a transport fault), no failsafe and no failsafe evidence.
    """
    with ModelHarness() as harness:
        harness.model.activate()

        @settings(max_examples=examples(60))
        @given(chunks=st.lists(garbage, min_size=1, max_size=4))
        def check(chunks: list[bytes]) -> None:
            fresh_example(harness)
            for chunk in chunks:
                harness.vehicle.send_raw(chunk)
            harness.vehicle.send_raw(FRAME_FLUSH)

            state = bounded_poll_until_synced(harness)

            assert state.link_error is None
            assert state.failsafe is not FailsafeStatus.ACTIVE
            assert not state.failsafe_observed

        check()


# ---- arbitrary field values and senders ----------------------------------------------------------

SELECTED = (1, 1)


@dataclass(frozen=True)
class Report:
    """One RC_CHANNELS or SYS_STATUS a (possibly foreign) sender reports."""

    source: tuple[int, int]
    rc: tuple[int, tuple[int, ...], int] | None = None  # chancount, 18 raw PWM values, rssi
    status: tuple[int, int, int] | None = None  # present, enabled, health bitmasks

    def message(self) -> object:
        if self.rc is not None:
            chancount, raw, rssi = self.rc
            return mavlink2.MAVLink_rc_channels_message(0, chancount, *raw, rssi)
        assert self.status is not None
        return mavlink2.MAVLink_sys_status_message(*self.status, 0, 12600, -1, -1, 0, 0, 0, 0, 0, 0)


sources = st.sampled_from([SELECTED, SELECTED, (1, 42), (2, 1), (255, 190), (1, 0)])
pwm = st.one_of(st.sampled_from([0, 65535, 800, 1500, 2200]), st.integers(0, 65535))
bitmask = st.one_of(st.sampled_from([0, RC_BIT, 0xFFFFFFFF, 0xFFFFFFFF ^ RC_BIT]), st.integers(0, 2**32 - 1))
rc_reports = st.builds(
    Report,
    source=sources,
    rc=st.tuples(st.integers(0, 255), st.tuples(*([pwm] * 18)), st.integers(0, 255)),
)
status_reports = st.builds(Report, source=sources, status=st.tuples(bitmask, bitmask, bitmask))


def expected_failsafe(status: tuple[int, int, int]) -> FailsafeStatus:
    present, enabled, health = (bool(bits & RC_BIT) for bits in status)
    if not (present and enabled):
        return FailsafeStatus.UNKNOWN
    return FailsafeStatus.NOT_ACTIVE if health else FailsafeStatus.ACTIVE


def test_arbitrary_reports_from_arbitrary_senders_follow_the_rules() -> None:
    """
    GIVEN one connection to the selected flight controller (system 1, component 1)
    WHEN RC_CHANNELS and SYS_STATUS with arbitrary field values arrive from it and from foreign
         systems or components
    THEN failsafe evidence exists exactly when the selected vehicle reported a present, enabled,
         unhealthy receiver; the current status and CH1..CH5 follow the selected vehicle's latest
         reports; and foreign reports change nothing.
    """
    with ModelHarness() as harness:

        @settings(max_examples=examples(60))
        @given(reports=st.lists(st.one_of(rc_reports, status_reports), min_size=1, max_size=6))
        def check(reports: list[Report]) -> None:
            fresh_example(harness)
            for report in reports:
                harness.vehicle.send(report.message(), *report.source)

            state = bounded_poll_until_synced(harness)

            own = [r for r in reports if r.source == SELECTED]
            own_status = [r.status for r in own if r.status is not None]
            own_rc = [r.rc for r in own if r.rc is not None]
            assert state.failsafe_observed == any(
                expected_failsafe(s) is FailsafeStatus.ACTIVE for s in own_status
            )
            if own_status:
                assert state.failsafe is expected_failsafe(own_status[-1])
                assert state.receiver_present == bool(own_status[-1][0] & RC_BIT)
            else:
                assert state.failsafe is FailsafeStatus.UNKNOWN
                assert state.receiver_present is None
            if own_rc:
                chancount, raw, rssi = own_rc[-1]
                assert [c.pwm for c in state.channels] == [
                    raw[n - 1] if n <= chancount and raw[n - 1] not in (0, 65535) else None
                    for n in range(1, 6)
                ]
                assert state.rssi == (None if rssi == 255 else rssi)
            else:
                assert [c.pwm for c in state.channels] == [None] * 5
                assert state.rssi is None

        check()
