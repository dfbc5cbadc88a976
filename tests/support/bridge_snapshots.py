# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Hand-made bridge snapshots for tests of the bridge panel inside the window."""

from __future__ import annotations

from amc_rc_receiver.sim_bridge.snapshot import (
    BridgeSnapshot,
    Direction,
    DirectionSnapshot,
    FrameSummary,
    LinkSnapshot,
)


def busy_link(name: str, *, errors: tuple[tuple[str, int], ...] = ()) -> LinkSnapshot:
    return LinkSnapshot(
        name=name,
        protocol="ardupilot-json",
        detected_protocol="ardupilot-json",
        listen="127.0.0.1:9002",
        target="127.0.0.1:9012",
        peer="127.0.0.1:40000",
        listen_only=False,
        from_peer=DirectionSnapshot(
            Direction.FROM_PEER,
            packets=120_000,
            bytes=4_800_000,
            packets_per_s=1200.0,
            bytes_per_s=48_000.0,
            decode_errors=errors,
            last_frame=FrameSummary("servo16", (("frame_count", 120000), ("frame_rate", 1200))),
            last_sender="127.0.0.1:40000",
            last_packet_age_s=0.0,
            senders_seen=1,
        ),
        from_target=DirectionSnapshot(
            Direction.FROM_TARGET,
            packets=119_990,
            packets_per_s=1199.5,
            bytes_per_s=300_000.0,
            last_sender="127.0.0.1:9012",
            last_packet_age_s=0.0,
            senders_seen=1,
        ),
        relay_errors=(("port-unreachable", 3),),
    )


# Three busy links with decode and relay errors: the demo's own, a JSON bridge and an XRP tap.
BUSY_SNAPSHOT = BridgeSnapshot(
    (
        busy_link("SITL JSON (demo)", errors=(("magic", 2),)),
        busy_link("ardupilot-json 127.0.0.1:9002", errors=(("truncated", 12),)),
        busy_link("xrp 127.0.0.1:3540"),
    ),
    now=10.0,
)
