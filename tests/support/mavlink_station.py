# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A ground station for tests: a real pymavlink connection that keeps every message it reads.

``wait_for`` reads until a message matching a predicate arrives and fails the test after a
generous deadline; nothing read is thrown away (``log`` holds it all, in order), so a test can
look for one message and still check the ones that came before it.  Only loopback addresses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pymavlink import mavutil

from tests.support.waiting import wait_for

DEADLINE_S = 20.0  # generous: shared CI machines are slow; a healthy exchange takes milliseconds
GCS_SYSTEM = 255
GCS_COMPONENT = 190


class Station:
    """One pymavlink connection (``tcp:``, ``udpout:`` or ``udpin:``) as system 255, component 190."""

    def __init__(self, device: str, system: int = GCS_SYSTEM, component: int = GCS_COMPONENT) -> None:
        self.device = device
        self.conn: Any = mavutil.mavlink_connection(
            device, source_system=system, source_component=component, autoreconnect=False
        )
        self.mav: Any = self.conn.mav
        self.log: list[Any] = []
        self._scanned = 0

    @property
    def local_port(self) -> int:
        return int(self.conn.port.getsockname()[1])

    def send(self, message: Any) -> None:
        self.mav.send(message)

    def heartbeat(self) -> None:
        self.send(
            self.mav.heartbeat_encode(
                mavutil.mavlink.MAV_TYPE_GCS, mavutil.mavlink.MAV_AUTOPILOT_INVALID, 0, 0, 0
            )
        )

    def command(self, command: int, *params: float, target: tuple[int, int] = (1, 1)) -> None:
        padded = (*params, *(0.0,) * (7 - len(params)))
        self.send(self.mav.command_long_encode(target[0], target[1], command, 0, *padded))

    def read_available(self) -> list[Any]:
        """Every message that can be read now, without waiting."""
        fresh: list[Any] = []
        while True:
            message = self.conn.recv_msg()
            if message is None:
                break
            if message.get_type() != "BAD_DATA":
                fresh.append(message)
        self.log.extend(fresh)
        return fresh

    def wait_for_message(
        self,
        predicate: Callable[[Any], bool],
        what: str,
        deadline_s: float = DEADLINE_S,
        *,
        rescan: bool = False,
    ) -> Any:
        """The first message after the last match (or in the whole log with ``rescan``) that matches."""
        if rescan:
            self._scanned = 0
        found: list[Any] = []

        def matched() -> bool:
            while self._scanned < len(self.log):
                message = self.log[self._scanned]
                self._scanned += 1
                if predicate(message):
                    found.append(message)
                    return True
            if not self.read_available():
                self.conn.select(0.05)  # the wait between polls: until something arrives
            return False

        wait_for(matched, f"{what} from {self.device}", deadline_s, interval_s=0.0)
        return found[0]

    def wait_for_type(self, type_name: str, deadline_s: float = DEADLINE_S) -> Any:
        return self.wait_for_message(lambda m: m.get_type() == type_name, type_name, deadline_s)

    def collect(self, predicate: Callable[[Any], bool], count: int, what: str) -> list[Any]:
        """``count`` matching messages, in arrival order."""
        return [self.wait_for_message(predicate, what) for _i in range(count)]

    def close(self) -> None:
        self.conn.close()


def is_type(type_name: str) -> Callable[[Any], bool]:
    return lambda message: message.get_type() == type_name


def is_ack(command: int) -> Callable[[Any], bool]:
    return lambda message: message.get_type() == "COMMAND_ACK" and message.command == command
