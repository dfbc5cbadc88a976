# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The return guard on its own: what counts as a datagram coming back, when a loop is cut, and
that repetition by a simulator (SITL's resends, RflySim's unchanged SIL packets, XRP) never is.

The clock is a plain number handed in; addresses are tuples; no socket is involved.
"""

from __future__ import annotations

import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amc_rc_receiver.sim_bridge.loop_guard import (
    DEFAULT_RETURNS_TO_CUT,
    DEFAULT_WINDOW_S,
    ReturnGuard,
    Verdict,
)

pytestmark = pytest.mark.pure

CLIENT = ("127.0.0.1", 40000)
OTHER_RELAY = ("127.0.0.1", 40001)
TARGET = ("127.0.0.1", 9101)
# A loop on one machine goes round in tens of microseconds.
ROUND_TRIP_S = 50e-6


def loop(guard: ReturnGuard, data: bytes, rounds: int, *, start: float = 0.0) -> list[Verdict]:
    """``data`` from the client once, then coming back from the other relay after every forward."""
    verdicts = [guard.admit(data, CLIENT, TARGET, start)]
    now = start
    for _round in range(rounds):
        now += ROUND_TRIP_S
        verdicts.append(guard.admit(data, OTHER_RELAY, TARGET, now))
        if verdicts[-1] >= Verdict.CUT:
            break
    return verdicts


def test_a_datagram_that_keeps_coming_back_from_another_sender_is_cut_after_a_few_rounds() -> None:
    """GIVEN a datagram the relay forwarded
    WHEN the same bytes arrive again and again from another sender, each soon after the last
    THEN they are still forwarded for a few rounds, then one is held back and the loop is cut."""
    verdicts = loop(ReturnGuard(), b"hello", 100)

    assert verdicts[0] is Verdict.FORWARD
    assert verdicts[1:DEFAULT_RETURNS_TO_CUT] == [Verdict.RETURNED] * (DEFAULT_RETURNS_TO_CUT - 1)
    assert verdicts[DEFAULT_RETURNS_TO_CUT] is Verdict.CUT
    assert len(verdicts) == DEFAULT_RETURNS_TO_CUT + 1


def test_a_cut_loop_stays_cut_while_it_keeps_coming_back() -> None:
    """GIVEN a cut loop WHEN its datagram keeps coming back for longer than the memory lasts
    THEN every further return is held back, since each one keeps the memory fresh."""
    guard = ReturnGuard()
    loop(guard, b"hello", 100)
    now = 0.0
    verdicts = []
    for _round in range(40):
        now += DEFAULT_WINDOW_S / 4
        verdicts.append(guard.admit(b"hello", OTHER_RELAY, TARGET, now))
    assert set(verdicts) == {Verdict.HELD}


def test_the_first_sender_is_never_held_back_even_while_its_loop_is_cut() -> None:
    """GIVEN a cut loop WHEN the sender the bytes first came from sends them again
    THEN they are forwarded: a simulator that repeats itself is never cut."""
    guard = ReturnGuard()
    loop(guard, b"hello", 100)
    assert guard.admit(b"hello", CLIENT, TARGET, 0.01) is Verdict.FORWARD


def test_bytes_sent_back_by_the_target_itself_are_returns_even_from_the_first_sender() -> None:
    """GIVEN a relay whose target sends what it receives straight back to the listen port
    (an echoing simulator, from the very address the relay forwards to)
    WHEN the target is also the first sender THEN the bytes still count as coming back."""
    guard = ReturnGuard()
    verdicts = [guard.admit(b"echo", TARGET, TARGET, index * ROUND_TRIP_S) for index in range(20)]
    assert verdicts[0] is Verdict.FORWARD
    assert Verdict.CUT in verdicts


def test_bytes_that_come_back_after_the_window_are_a_new_datagram() -> None:
    """GIVEN a forwarded datagram WHEN the same bytes arrive from another sender only after the
    window THEN they are not a return: the memory of the first has expired."""
    guard = ReturnGuard()
    guard.admit(b"late", CLIENT, TARGET, 0.0)
    assert guard.admit(b"late", OTHER_RELAY, TARGET, DEFAULT_WINDOW_S * 1.01) is Verdict.FORWARD


def test_right_after_a_cut_another_datagram_of_the_loop_is_held_at_its_first_return() -> None:
    """GIVEN a loop just cut WHEN another datagram comes back for the first time within the window
    THEN it is held at once, so many datagrams in one loop are not cut one round at a time;
    once the window has passed a new loop takes its rounds again."""
    guard = ReturnGuard()
    loop(guard, b"first", 100)
    guard.admit(b"second", CLIENT, TARGET, 0.001)
    assert guard.admit(b"second", OTHER_RELAY, TARGET, 0.002) is Verdict.HELD

    later = 10.0
    guard.admit(b"third", CLIENT, TARGET, later)
    assert guard.admit(b"third", OTHER_RELAY, TARGET, later + ROUND_TRIP_S) is Verdict.RETURNED


def test_forgetting_makes_every_sender_a_first_sender_again() -> None:
    """GIVEN a forwarded datagram WHEN the guard forgets (the relay's peer changed)
    THEN the same bytes from the new sender are a new datagram, not a return."""
    guard = ReturnGuard()
    guard.admit(b"frame", CLIENT, TARGET, 0.0)
    guard.forget()
    assert len(guard) == 0
    assert guard.admit(b"frame", OTHER_RELAY, TARGET, 0.001) is Verdict.FORWARD


def test_memory_stays_bounded_whatever_passes() -> None:
    """GIVEN a guard of 64 digests per generation WHEN 10,000 distinct datagrams pass at once
    THEN it never remembers more than two generations."""
    guard = ReturnGuard(capacity=64)
    for index in range(10_000):
        guard.admit(index.to_bytes(4, "little"), CLIENT, TARGET, 0.0)
        assert len(guard) <= 128


def test_a_datagram_is_remembered_for_the_whole_window_across_generations() -> None:
    """GIVEN a forwarded datagram WHEN other traffic rolls the generations over by time
    THEN the datagram coming back just inside the window is still recognised."""
    guard = ReturnGuard()
    guard.admit(b"kept", CLIENT, TARGET, 0.0)
    now = 0.0
    for index in range(20):
        now += DEFAULT_WINDOW_S / 20
        guard.admit(index.to_bytes(2, "little"), CLIENT, TARGET, now)
    assert guard.admit(b"kept", OTHER_RELAY, TARGET, DEFAULT_WINDOW_S * 0.99) is Verdict.RETURNED


@pytest.mark.parametrize(("window_s", "returns", "capacity"), [(0.0, 8, 16), (0.5, 0, 16), (0.5, 8, 0)])
def test_a_guard_without_window_returns_or_room_is_refused(
    window_s: float, returns: int, capacity: int
) -> None:
    """GIVEN a zero window, count or capacity WHEN a guard is made THEN it is refused."""
    with pytest.raises(ValueError, match="positive"):
        ReturnGuard(window_s=window_s, returns_to_cut=returns, capacity=capacity)


# --------------------------------------------------------------------------- legitimate repetition

SERVO = struct.Struct("<HHI16H")


def sitl_servo_packets() -> list[tuple[float, bytes]]:
    """SITL in lockstep at 400 Hz, then waiting for physics: the same frame resent every ~1.1 s
    (PROTOCOLS.md A.1), then a rejected reply making it send the same frame again at once."""
    timeline = [(index / 400, SERVO.pack(18458, 400, index, *([1500] * 16))) for index in range(400)]
    stalled = SERVO.pack(18458, 400, 400, *([1500] * 16))
    timeline += [(1.0 + 1.1 * resend, stalled) for resend in range(5)]
    timeline += [(7.0 + index / 400, stalled) for index in range(50)]
    return timeline


def rflysim_sil_packets() -> list[tuple[float, bytes]]:
    """RflySim's PX4SILIntFloat with controls that do not change: the same 120 bytes at 200 Hz."""
    packet = struct.pack("<10i20f", 1234567897, 1, 3, 0, 0, 0, 0, 0, 401541234, 1162591234, *([0.5] * 20))
    return [(index / 200, packet) for index in range(2000)]


def xrp_wpilib_datagrams() -> list[tuple[float, bytes]]:
    """WPILib's 45-byte XRP datagram every 20 ms, its sequence number wrapping, each sent twice."""
    timeline = []
    for index in range(70_000, 70_500):
        body = struct.pack(">HB", index % 65536, 1) + b"\x06\x12\x00" + struct.pack(">f", 0.25)
        timeline += [(index * 0.02, body), (index * 0.02 + 0.001, body)]
    return timeline


@pytest.mark.parametrize("timeline", [sitl_servo_packets(), rflysim_sil_packets(), xrp_wpilib_datagrams()])
def test_a_simulator_repeating_itself_is_always_forwarded(timeline: list[tuple[float, bytes]]) -> None:
    """GIVEN each protocol's traffic as its real sender makes it, repetitions included
    WHEN it passes the guard from the one socket that sends it THEN every datagram is forwarded."""
    guard = ReturnGuard()
    assert {guard.admit(data, CLIENT, TARGET, now) for now, data in timeline} == {Verdict.FORWARD}


@given(st.lists(st.tuples(st.binary(max_size=8), st.floats(min_value=0.0, max_value=1e-3)), max_size=200))
def test_whatever_one_sender_sends_is_forwarded(datagrams: list[tuple[bytes, float]]) -> None:
    """GIVEN any sequence of datagrams from one sender that is not the target, at any pace
    WHEN they pass the guard THEN none is ever a return."""
    guard = ReturnGuard()
    now = 0.0
    for data, step in datagrams:
        now += step
        assert guard.admit(data, CLIENT, TARGET, now) is Verdict.FORWARD
