# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The parameters the check reads itself: the few it needs that the host has not downloaded.

`ParameterReader` asks by name (at most ``MAX_IN_FLIGHT`` unanswered, each name ``MAX_ATTEMPTS``
times ``ATTEMPT_TIMEOUT_S`` apart, then unavailable) and takes the PARAM_VALUE answers from the
messages the poll reads.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .snapshot import ParameterSource, ParameterValue

MAX_IN_FLIGHT = 6
ATTEMPT_TIMEOUT_S = 1.5
MAX_ATTEMPTS = 3
PARAM_ID_LENGTH = 16


@dataclass
class _Request:
    attempts: int = 0
    sent_at: float | None = None


def param_name(raw: object) -> str:
    """The parameter name of a PARAM_VALUE ``param_id`` (bytes or str, NUL padded)."""
    text = raw.decode("ascii", errors="replace") if isinstance(raw, bytes | bytearray) else str(raw)
    return text.split("\x00", 1)[0].strip()


class ParameterReader:
    """Asks the selected vehicle for named parameters and collects the answers."""

    def __init__(self) -> None:
        self._wanted: tuple[str, ...] = ()
        self._requests: dict[str, _Request] = {}
        self._values: dict[str, float] = {}
        self._unavailable: set[str] = set()
        # Grows with every change of what `values`, `unavailable` or `attempts` answer, so a
        # caller can tell in one comparison that nothing it showed changed.
        self.version = 0
        # The objects `want` was last offered and the version then.
        self._offered: tuple[object, object, int] = (None, None, -1)
        self._listing: tuple[object, tuple[ParameterValue, ...]] | None = None

    # ----------------------------------------------------------------- state

    @property
    def values(self) -> dict[str, float]:
        """Values answered so far (a copy)."""
        return dict(self._values)

    @property
    def unavailable(self) -> frozenset[str]:
        return frozenset(self._unavailable)

    @property
    def pending(self) -> frozenset[str]:
        return frozenset(name for name in self._wanted if name in self._requests)

    def attempts(self, name: str) -> int:
        request = self._requests.get(name)
        if request is not None:
            return request.attempts
        return MAX_ATTEMPTS if name in self._unavailable else 0

    def reset(self) -> None:
        """Forget everything (a new connection: maybe another vehicle)."""
        self.version += 1
        self._wanted = ()
        self._requests.clear()
        self._values.clear()
        self._unavailable.clear()

    def forget_reads(self) -> None:
        """Ask again for everything: after a pause the host may have written new values."""
        wanted = self._wanted
        self.reset()
        self._wanted = wanted
        self._requests = {name: _Request() for name in wanted}

    def want(self, names: Iterable[str], known: Mapping[str, float]) -> None:
        """The names the check needs now; those in ``known`` (the host's download) are not asked.

        Called every poll, mostly with the very objects of the previous call (the tracker keeps
        them while nothing moved, and never writes them): then nothing is to be done, which one
        comparison of each tells.
        """
        if self._offered[0] is names and self._offered[1] is known and self._offered[2] == self.version:
            return
        self._take_wanted(tuple(dict.fromkeys(names)), known)
        self._offered = (names, known, self.version)

    def _take_wanted(self, wanted: tuple[str, ...], known: Mapping[str, float]) -> None:
        self._wanted = wanted
        before = set(self._requests)
        for name in self._wanted:
            if name in known:
                self._requests.pop(name, None)
            elif name not in self._values and name not in self._unavailable:
                self._requests.setdefault(name, _Request())
        for name in list(self._requests):
            if name not in self._wanted:
                del self._requests[name]
        if set(self._requests) != before:
            self.version += 1

    # ----------------------------------------------------------------- wire

    def send_due(self, master: Any, target_system: int, target_component: int, now: float) -> int:
        """Send the requests that are due; returns how many left.  Never blocks.

        A request whose send raises (a closed link) is not counted as an attempt; it is tried
        again on a later poll, so a dead link cannot make a parameter look unavailable.
        """
        if not self._requests or master is None or getattr(master, "portdead", False) is True:
            return 0
        in_flight = 0
        due: list[str] = []
        for name, request in list(self._requests.items()):
            if request.sent_at is not None and now - request.sent_at < ATTEMPT_TIMEOUT_S:
                in_flight += 1
            elif request.attempts >= MAX_ATTEMPTS:
                del self._requests[name]
                self._unavailable.add(name)
                self.version += 1
            else:
                due.append(name)
        sent = 0
        for name in due:
            if in_flight >= MAX_IN_FLIGHT:
                break
            request = self._requests[name]
            try:
                master.mav.param_request_read_send(
                    target_system, target_component, name.encode("ascii")[:PARAM_ID_LENGTH], -1
                )
            except Exception:  # a transport fault: retried on a later poll, never raised
                return sent
            request.attempts += 1
            request.sent_at = now
            self.version += 1
            in_flight += 1
            sent += 1
        return sent

    def handle_message(self, msg: Any) -> bool:
        """Take a PARAM_VALUE of the selected vehicle; True when it answered a wanted name."""
        try:
            if msg.get_type() != "PARAM_VALUE":
                return False
            name = param_name(msg.param_id)
            value = float(msg.param_value)
        except Exception:  # a malformed message is simply not an answer
            return False
        if name not in self._wanted or math.isnan(value):  # NaN is no value
            return False
        self._values[name] = value
        self._requests.pop(name, None)
        self._unavailable.discard(name)
        self.version += 1
        return True

    def listing(self, wanted: tuple[str, ...], host: Mapping[str, float]) -> tuple[ParameterValue, ...]:
        """The ``wanted`` parameters' values and where each came from (the host's download wins
        over a read), made again only after the reads or the host's values moved."""
        key = (wanted, self.version, tuple(host.get(name) for name in wanted))
        if self._listing is not None and self._listing[0] == key:
            return self._listing[1]
        listing = tuple(self._parameter_value(name, host) for name in wanted)
        self._listing = (key, listing)
        return listing

    def _parameter_value(self, name: str, host: Mapping[str, float]) -> ParameterValue:
        attempts = self.attempts(name)
        if name in host:
            return ParameterValue(name, host[name], ParameterSource.HOST, attempts)
        read = self._values.get(name)
        if read is not None:
            return ParameterValue(name, read, ParameterSource.READ, attempts)
        source = ParameterSource.UNAVAILABLE if name in self._unavailable else ParameterSource.PENDING
        return ParameterValue(name, None, source, attempts)
