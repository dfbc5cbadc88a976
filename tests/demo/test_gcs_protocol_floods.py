# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What held under the audit's floods, kept: the simulated vehicle's memory stays flat.

The ground-station protocol is sans-IO (messages in, replies through a ``send`` callable), so the
floods are fed straight in with real pymavlink messages; tracemalloc counts what stays allocated.
The transport's share (junk datagrams on a real UDP socket) is in test_mavlink_link.
"""

from __future__ import annotations

import threading
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.demo.gcs_protocol import GcsProtocol
from amc_rc_receiver.demo.identity import FirmwareIdentity
from amc_rc_receiver.demo.parameter_store import default_parameters
from amc_rc_receiver.demo.vehicle_rules import StreamTable

pytestmark = pytest.mark.pure

# Far more than any allocation a flood would keep; a queue per request would be megabytes.
FLAT_BYTES = 256 * 1024


def protocol(sent: list[int]) -> GcsProtocol:
    mav = mavlink2.MAVLink(None, srcSystem=1, srcComponent=1)

    def send(message: Any) -> bool:
        sent[0] += 1
        return True

    return GcsProtocol(
        mav=mav,
        send=send,
        has_room=lambda _size: True,
        streams=StreamTable({}),
        lock=threading.Lock(),
        build_stream_message=lambda _message_id: None,
        identity=FirmwareIdentity(),
        parameters=default_parameters(),
        vehicle_type=mavlink2.MAV_TYPE_QUADROTOR,
        system_id=1,
        component_id=1,
        pace_clock=lambda: 0.0,
    )


def retained_bytes(feed: Callable[[], None], repeats: int) -> int:
    """Bytes still allocated after ``repeats`` more calls of ``feed`` than after a warm-up."""
    tracemalloc.start()
    try:
        for _warm in range(200):
            feed()
        before = tracemalloc.get_traced_memory()[0]
        for _flood in range(repeats):
            feed()
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


def test_a_flood_of_parameter_list_requests_keeps_memory_flat() -> None:
    """
    GIVEN the simulated vehicle's ground-station protocol
    WHEN 20,000 PARAM_REQUEST_LIST arrive back to back (the audit sent 611,000)
    THEN each restarts the one download instead of queueing another, and memory stays flat
    """
    sent = [0]
    gcs = protocol(sent)
    request = mavlink2.MAVLink_param_request_list_message(1, 1)

    retained = retained_bytes(lambda: gcs.handle(request), 20_000)

    assert retained < FLAT_BYTES
    assert sent[0] > 20_000  # every request was answered (the banner at least)


def test_a_flood_of_unknown_and_refused_messages_keeps_memory_flat() -> None:
    """
    GIVEN the protocol
    WHEN 20,000 PARAM_SETs (refused) and arming commands (unsupported) arrive
    THEN nothing accumulates
    """
    sent = [0]
    gcs = protocol(sent)
    param_set = mavlink2.MAVLink_param_set_message(1, 1, b"RC_PROTOCOLS", 1.0, mavlink2.MAV_PARAM_TYPE_INT32)
    arm = mavlink2.MAVLink_command_long_message(
        1, 1, mavlink2.MAV_CMD_COMPONENT_ARM_DISARM, 0, 1, 0, 0, 0, 0, 0, 0
    )

    def feed() -> None:
        gcs.handle(param_set)
        gcs.handle(arm)

    assert retained_bytes(feed, 10_000) < FLAT_BYTES
