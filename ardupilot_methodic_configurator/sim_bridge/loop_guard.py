# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Recognise a datagram that comes back to the relay that forwarded it, and cut that loop.

Two relays that feed each other (in two programs, or through a simulator that sends what it
receives back to the relay's listen port) pass one datagram back and forth for ever.  The relay
thread asks ``ReturnGuard.admit`` about every datagram it is about to forward to its target.

The signature of a loop: the very bytes this relay forwarded a moment ago (within ``window_s``)
arrive at its listen socket again, *from another sender than the one they first came from*, or
from the address they were forwarded to.  Legitimate repetition does not look like that: SITL
resends an unanswered servo packet (same frame_count) about once a second, RflySim sends the same
120-byte SIL packet for as long as its controls do not change, XRP may repeat a sequence number;
each of them repeats from its own socket, the one the datagram first came from, and is passed
on however often it repeats.  Once a relay has learned its peer only the peer's datagrams get
this far, so a return is then only the target answering with what it was sent; the memory is
cleared when the peer changes (a restarted simulator on a new port is a new first sender).

A datagram that has come back ``returns_to_cut`` times is held back from then on (never the same
bytes from their first sender), and for ``window_s`` after a datagram was held back the first
return of any other datagram is held at once, so a loop of many datagrams is not cut one
datagram at a time.  Held datagrams keep the memory fresh, so a loop stays cut while it keeps
coming back.

Cost and bounds: one ``hash`` of the bytes (SipHash, in C) and one or two dict look-ups per
datagram; returns are rare and cost a few more steps.  Digests live in two generations of at most
``capacity`` entries each, the older dropped whole when the newer fills up or is ``window_s``
old, so memory is bounded whatever arrives and an entry is found for at least ``window_s`` after
its last use, unless more than ``capacity`` other datagrams pass meanwhile.  Only the 64-bit
digest is kept, never the bytes.  Pure logic: no sockets, no clock of its own.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

from .relay_config import Address

# How long the bytes of a forwarded datagram are remembered: far longer than any round trip of a
# loop (tens of µs on one machine, milliseconds across a network), so that a loop stalled for a
# moment on a loaded machine is still recognised; a loop whose round took longer would look like
# a new datagram from a new first sender and go unnoticed.
DEFAULT_WINDOW_S = 2.0
# Returns of one datagram before it is held back: a coincidence (two senders of the same bytes)
# would have to repeat this often within the window before anything is held, and a loop between
# two relays stops after twice this many relayed datagrams.
DEFAULT_RETURNS_TO_CUT = 8
# Digests per generation (two are kept): far more than the datagrams a loop needs in flight.
DEFAULT_CAPACITY = 4096

# Entry fields: the first sender, the last time the bytes were forwarded (or held), the returns.
_FIRST = 0
_LAST = 1
_RETURNS = 2


class Verdict(IntEnum):
    """What the relay does with a datagram; false only for ``FORWARD``, so the common case is one test."""

    FORWARD = 0  # not a return: forward it
    RETURNED = 1  # a return, still forwarded: the loop has not gone round often enough to be sure
    CUT = 2  # the return that cuts a loop: hold it back, and say so
    HELD = 3  # a further return of a loop already cut: hold it back


_FORWARD = Verdict.FORWARD


class ReturnGuard:
    """What one relay forwarded to its target recently, to tell when it comes back; not thread-safe.

    The relay thread is its only user.
    """

    __slots__ = ("_born", "_capacity", "_current", "_hold_until", "_previous", "_returns_to_cut", "_window")

    def __init__(
        self,
        *,
        window_s: float = DEFAULT_WINDOW_S,
        returns_to_cut: int = DEFAULT_RETURNS_TO_CUT,
        capacity: int = DEFAULT_CAPACITY,
    ) -> None:
        if window_s <= 0 or returns_to_cut < 1 or capacity < 1:
            raise ValueError("the return guard needs a positive window, returns and capacity")
        self._window = window_s
        self._returns_to_cut = returns_to_cut
        self._capacity = capacity
        self._current: dict[int, list[Any]] = {}
        self._previous: dict[int, list[Any]] = {}
        self._born = 0.0
        # Until then a return is held at its first coming back: a loop was cut just before.
        self._hold_until = float("-inf")

    def __len__(self) -> int:
        """How many digests are remembered (never more than twice the capacity)."""
        return len(self._current) + len(self._previous)

    def forget(self) -> None:
        """Drop every digest: the peer changed, so who sent what first no longer says anything."""
        self._current = {}
        self._previous = {}

    def admit(self, data: bytes, sender: Address, destination: Address, now: float) -> Verdict:
        """Whether ``data`` from ``sender``, about to be forwarded to ``destination``, came back."""
        # The relay thread's per-datagram path: attributes read once, no call on a new datagram.
        key = hash(data)
        current = self._current
        entry = current.get(key)
        if entry is None:
            entry = self._previous.get(key)
            if entry is None:
                if len(current) >= self._capacity or now - self._born > self._window:
                    self._previous = current
                    self._current = current = {}
                    self._born = now
                current[key] = [sender, now, 0]
                return _FORWARD
            # Still in use: keep it beyond the next change of generation.
            current[key] = entry
        if now - entry[_LAST] > self._window:
            # Forgotten: the same bytes again, long after, are a new datagram from a new sender.
            entry[_FIRST] = sender
            entry[_LAST] = now
            entry[_RETURNS] = 0
            return _FORWARD
        entry[_LAST] = now
        if sender == entry[_FIRST] and sender != destination:
            return _FORWARD
        return self._returned(entry, now)

    def _returned(self, entry: list[Any], now: float) -> Verdict:
        entry[_RETURNS] += 1
        if now < self._hold_until:
            # A loop was cut a moment ago: whatever comes back now belongs to it.
            self._hold_until = now + self._window
            return Verdict.HELD
        if entry[_RETURNS] < self._returns_to_cut:
            return Verdict.RETURNED
        self._hold_until = now + self._window
        return Verdict.CUT
