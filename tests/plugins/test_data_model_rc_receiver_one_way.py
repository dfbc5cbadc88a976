# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""One poll goes one way: no two modules of the package call each other both ways in a tick.

The import layers (import-linter) keep a lower module from importing a higher one, but a callback
handed down (a lambda, a bound method) lets lower code call back up at run time.  Here real
messages built with pymavlink reach the model over a loopback UDP link from the scripted vehicle,
with the host's parameter download filled as the methodic configurator fills it, and each poll is
traced with `sys.setprofile`: the first poll (which builds the guided test from nothing) and a
steady one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pymavlink.dialects.v20 import ardupilotmega as mavlink2

from amc_rc_receiver.demo.parameters import COPTER_PARAMETERS
from amc_rc_receiver.plugins.rc_receiver.readings import RC_RECEIVER_SENSOR_BIT
from tests.plugins.data_model_rc_receiver_harness import ModelHarness, rc_channels, sys_status
from tests.support.call_trace import trace_call

pytestmark = pytest.mark.loopback

RC = RC_RECEIVER_SENSOR_BIT


@pytest.fixture
def harness() -> Iterator[ModelHarness]:
    with ModelHarness() as created:
        created.fc.fc_parameters = {spec.name: spec.default for spec in COPTER_PARAMETERS}
        created.model.activate()
        yield created


def _busy_batch(harness: ModelHarness) -> list[Any]:
    """What a copter sends in a tenth of a second on a busy link, its receiver at rest."""
    boot_ms = int((harness.clock.now - harness.boot) * 1000)
    return [
        mavlink2.MAVLink_heartbeat_message(
            mavlink2.MAV_TYPE_QUADROTOR, mavlink2.MAV_AUTOPILOT_ARDUPILOTMEGA, 0, 0, 3, 3
        ),
        rc_channels(time_boot_ms=boot_ms),
        sys_status(RC, RC, RC),
        mavlink2.MAVLink_attitude_message(boot_ms, 0.1, 0.2, 0.3, 0.0, 0.0, 0.0),
        mavlink2.MAVLink_statustext_message(6, b"EKF3 IMU0 is using GPS"),
        rc_channels(time_boot_ms=boot_ms + 20),
        sys_status(RC, RC, RC),
    ]


def test_no_two_modules_call_each_other_both_ways_in_a_poll(harness: ModelHarness) -> None:
    """
    GIVEN a model on a copter's link whose host holds the copter's parameter download
    WHEN the first poll after activation reads a busy batch, and a later poll reads the same again
    THEN each poll ran the intake and the tracker, and no pair of the package's modules called each
         other both ways in either
    """
    batch = _busy_batch(harness)
    harness.send_backlog(*batch)
    first = trace_call(harness.model.poll)
    assert harness.model.messages_read_last_poll >= len(batch)

    harness.clock.advance(0.1)
    harness.send_backlog(*_busy_batch(harness))
    steady = trace_call(harness.model.poll)
    assert harness.model.messages_read_last_poll >= len(batch)

    for trace in (first, steady):
        assert {"plugins/rc_receiver/intake.py", "plugins/rc_receiver/tracker.py"} <= set(trace.calls)
        assert trace.both_ways == set()
