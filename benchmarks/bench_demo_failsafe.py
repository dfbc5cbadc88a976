# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""How long the demo takes from "transmitter off" to RC failsafe shown by the model, and back.

The vehicle's RC failsafe timeout (1.0 s, as ArduPilot's RC_FS_TIMEOUT default) is the
baseline: the ratio says how much the relay, the MAVLink link and 100 ms polling add to it.
Target from the issue: failsafe within 1.5 s of switching the transmitter off.

Run: .venv/bin/python benchmarks/bench_demo_failsafe.py
"""

from __future__ import annotations

import statistics
import sys
import time

from _failsafe_bench import TARGET_S, TICK_S, wait_for

from amc_rc_receiver.demo.vehicle import RC_FAILSAFE_TIMEOUT_S
from amc_rc_receiver.plugins.rc_receiver.snapshot import FailsafeStatus
from amc_rc_receiver.standalone.options import DEMO_DEVICE
from amc_rc_receiver.standalone.session import VehicleSession

CYCLES = 5


def main() -> int:
    session = VehicleSession()
    error = session.connect(DEMO_DEVICE)
    if error:
        print(error)
        return 1
    session.model.activate()
    to_failsafe: list[float] = []
    to_recovery: list[float] = []
    try:
        wait_for(session, lambda s: s.failsafe is FailsafeStatus.NOT_ACTIVE, 10.0, "the demo")
        for _cycle in range(CYCLES):
            off_at = time.monotonic()
            session.set_transmitter_on(False)
            to_failsafe.append(
                wait_for(session, lambda s: s.failsafe is FailsafeStatus.ACTIVE, 10.0, "the demo") - off_at
            )
            on_at = time.monotonic()
            session.set_transmitter_on(True)
            to_recovery.append(
                wait_for(session, lambda s: s.failsafe is FailsafeStatus.NOT_ACTIVE, 10.0, "the demo") - on_at
            )
    finally:
        session.close()
    median_fs, worst_fs = statistics.median(to_failsafe), max(to_failsafe)
    print(f"demo RC failsafe, {CYCLES} transmitter off/on cycles, model polled every {TICK_S * 1000:.0f} ms")
    print(f"  baseline: vehicle RC failsafe timeout        {RC_FAILSAFE_TIMEOUT_S:.3f} s")
    print(
        f"  off -> failsafe shown   median {median_fs:.3f} s  worst {worst_fs:.3f} s"
        f"  (ratio {median_fs / RC_FAILSAFE_TIMEOUT_S:.2f}x; target <= {TARGET_S} s: "
        f"{'meets' if worst_fs <= TARGET_S else 'MISSES'})"
    )
    print(
        f"  on  -> recovery shown   median {statistics.median(to_recovery):.3f} s"
        f"  worst {max(to_recovery):.3f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
