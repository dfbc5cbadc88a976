# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Real ArduCopter SITL's JSON traffic through a relay: its resends are never taken for a loop.

SITL sends a servo packet and waits for the physics' JSON reply; unanswered, it sends the very
same bytes again about every 1.1 s (PROTOCOLS.md A.1).  A relay that cut datagrams coming back
to it must pass those resends, and then SITL's lockstep with a real physics back end, untouched.
Skipped, saying why, where ``../shared/sitl/`` is absent.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from amc_rc_receiver.demo.physics_backend import FrameStepper
from amc_rc_receiver.sim_bridge.relay import UdpRelay
from amc_rc_receiver.sim_bridge.relay_config import RelayConfig
from amc_rc_receiver.sim_bridge.snapshot import LoopCounts
from amc_rc_receiver.sitl.config import SitlConfig
from tests.support.processes import Process
from tests.support.sitl import SITL_DIR, free_instance, sitl_binary
from tests.support.udp import LOOPBACK, address_of, receive, udp_socket
from tests.support.waiting import wait_for

pytestmark = [
    pytest.mark.sitl,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SITL binaries are Linux x86-64"),
]

# SITL boots and sends its first servo packet within seconds; a loaded machine takes longer.
BOOT_S = 60.0
RESENDS = 3
LOCKSTEP_FRAMES = 2000


def test_real_sitl_resends_and_lockstep_pass_a_relay_and_nothing_counts_as_coming_back(
    tmp_path: Path,
) -> None:
    """GIVEN real ArduCopter SITL sending its servo packets through a relay to a physics socket
    WHEN nothing answers at first (SITL resends the same packet), and then a physics back end
    answers 2,000 frames THEN every datagram was forwarded both ways, the resends included, and
    the relay saw nothing come back to it."""
    binary = sitl_binary("arducopter")
    config = SitlConfig(binary, defaults=(SITL_DIR / "copter.parm",), instance=free_instance(43))
    physics = udp_socket()
    relay = UdpRelay(
        RelayConfig(
            "sitl",
            protocol="ardupilot-json",
            listen=(LOOPBACK, config.ports.json),
            target=address_of(physics),
            relearn_after_s=2.0,
        )
    )
    relay.start()
    sitl = Process(config.command(), cwd=tmp_path)
    try:
        first, via = receive(physics, BOOT_S)
        resent = [receive(physics, 10.0)[0] for _resend in range(RESENDS)]
        assert resent == [first] * RESENDS

        stepper = FrameStepper()
        for _frame in range(LOCKSTEP_FRAMES):
            reply = stepper.handle(first)
            assert reply is not None
            physics.sendto(reply, via)
            first, via = receive(physics, 10.0)
        wait_for(lambda: relay.counters().forwarded_from_target >= LOCKSTEP_FRAMES, "every reply relayed")
    finally:
        sitl.end(grace_s=0)  # stalled waiting for physics, SITL ignores SIGTERM
        relay.stop()
        physics.close()

    counters = relay.counters()
    assert stepper.counters().repeats == 0
    assert counters.loop == LoopCounts()
    assert counters.forwarded_from_peer == counters.received_from_peer >= LOCKSTEP_FRAMES + RESENDS
    assert counters.unexpected_senders == 0
