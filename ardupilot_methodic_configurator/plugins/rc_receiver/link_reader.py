# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The bounded read of the shared connection: at most 50 messages a poll, each sent down its route.

A poll must never block the UI, so `LinkReader.read` takes what is waiting up to
``MAX_MESSAGES_PER_POLL`` and reads one more only to learn whether a backlog remains; that one is
carried to the next poll.  Each message goes through one table from its type to the one part that
reads it (h11 dispatches by state the same way); a type no part reads costs one lookup.  After a
resume everything that queued meanwhile is old: it is read and dropped (answers to our commands
still count) until the queue runs dry, at most ``MAX_MESSAGES_DROPPED_ON_RESUME`` a call.

Whatever the transport raises is the link's fault, raised as `LinkError`, never the check's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

MAX_MESSAGES_PER_POLL = 50
# About a minute of both streams at 5 Hz plus heartbeats: parsed in a few milliseconds.
MAX_MESSAGES_DROPPED_ON_RESUME = 1000

Route = Callable[[Any], object]


class LinkError(Exception):
    """Reading from the connection failed: a fault of the link, not of the check."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(str(error))
        self.error = error


class LinkReader:
    """Reads one connection a bounded batch at a time; see the module docstring."""

    def __init__(self, routes: Mapping[str, Route], discard_routes: Mapping[str, Route]) -> None:
        self._routes = dict(routes)
        # While a resume drops what queued, only these (the answers to our commands) still count.
        self._discard_routes = dict(discard_routes)
        # A message read only to learn that more were waiting; routed first by the next read.
        self._carried: Any = None
        self._discarding = False
        self.backlog = False
        self.messages_read = 0
        # When a read last emptied the queue: anything read later arrived after that.
        self.queue_emptied_at: float | None = None

    def forget(self) -> None:
        """A new connection, or none: nothing read from the previous one is carried over."""
        self._carried = None
        self._discarding = False
        self.backlog = False
        self.messages_read = 0
        self.queue_emptied_at = None

    def clear_backlog(self) -> None:
        self.backlog = False

    def drop_carried(self) -> None:
        self._carried = None

    def forward_carried(self) -> None:
        """Let the answers to our commands see the carried message before the reader lets go."""
        if self._carried is not None:
            carried, self._carried = self._carried, None
            route = self._discard_routes.get(carried.get_type())
            if route is not None:
                route(carried)

    def resume(self, master: Any) -> None:
        """Everything that queued while suspended is old: drop it, now and in the next reads."""
        self._carried = None
        self.backlog = False
        self.queue_emptied_at = None
        self._discarding = not self._drop_queued(master)

    def _drop_queued(self, master: Any) -> bool:
        """Read and drop what is waiting now; True once the queue ran dry."""
        if master is None:
            return True
        receive = master.recv_msg
        route_of = self._discard_routes.get
        for _index in range(MAX_MESSAGES_DROPPED_ON_RESUME):
            try:
                msg = receive()
            except Exception as error:  # whatever the transport raises, it is the link's fault
                raise LinkError(error) from error
            if msg is None:
                return True
            route = route_of(msg.get_type())
            if route is not None:
                route(msg)
        return False

    def read(self, master: Any, now: float) -> bool:
        """Route up to ``MAX_MESSAGES_PER_POLL`` waiting messages; returns whether the link reports
        itself closed.  Nothing read can have arrived before `queue_emptied_at` as it was before."""
        self.backlog = False
        route_of = (self._discard_routes if self._discarding else self._routes).get
        receive = master.recv_msg
        carried, self._carried = self._carried, None
        count = 0
        try:
            if carried is not None:
                count = 1
                route = route_of(carried.get_type())
                if route is not None:
                    route(carried)
            for index in range(count, MAX_MESSAGES_PER_POLL):
                try:
                    msg = receive()
                except Exception as error:  # whatever the transport raises, it is the link's fault
                    count = index
                    raise LinkError(error) from error
                if msg is None:
                    count = index
                    break
                # One lookup decides: a message no part reads costs nothing more.
                route = route_of(msg.get_type())
                if route is not None:
                    route(msg)
            else:
                count = MAX_MESSAGES_PER_POLL
            if count == MAX_MESSAGES_PER_POLL:
                # Read one more to learn whether more are waiting; keep it for the next read.
                try:
                    self._carried = receive()
                except Exception as error:
                    raise LinkError(error) from error
                self.backlog = self._carried is not None
            if self._discarding and not self.backlog:
                # the queue ran dry: from the next read on, every message is new
                self._discarding = False
        finally:
            self.messages_read = count
            self.queue_emptied_at = None if self.backlog else now
        # pymavlink reports a TCP peer's close only through this flag; reads then return nothing
        # for ever, which must not look like a quiet but live link.
        return getattr(master, "portdead", False) is True
