# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Behaviour of the simulator-bridge sidecar panel on real Tk widgets, fed hand-made snapshots."""

from __future__ import annotations

import socket
import tkinter as tk
from dataclasses import replace

import pytest

from amc_rc_receiver.sim_bridge.monitor import BridgeMonitor
from amc_rc_receiver.sim_bridge.protocols.sitl_servo_packet import encode_servo_packet
from amc_rc_receiver.sim_bridge.relay import UdpRelay
from amc_rc_receiver.sim_bridge.relay_config import RelayConfig
from amc_rc_receiver.sim_bridge.snapshot import (
    BridgeSnapshot,
    Direction,
    DirectionSnapshot,
    FrameSummary,
    LinkSnapshot,
    LoopCounts,
    OrderCounts,
)
from amc_rc_receiver.standalone.window.bridge_panel import BridgePanel
from amc_rc_receiver.standalone.window.bridge_panel_rows import COLUMNS, direction_item_id, link_item_id
from tests.support.tk import ScriptedSource, packed, pending_after_ids, pump_until

pytestmark = pytest.mark.tk


def sitl_link(**overrides: object) -> LinkSnapshot:
    link = LinkSnapshot(
        name="sitl",
        protocol="auto",
        detected_protocol="ardupilot-json",
        listen="127.0.0.1:9002",
        target="127.0.0.1:9012",
        peer="127.0.0.1:40000",
        listen_only=False,
        from_peer=DirectionSnapshot(
            Direction.FROM_PEER,
            packets=5000,
            bytes=200_000,
            packets_per_s=1200.0,
            bytes_per_s=48_000.0,
            decode_errors=(("length", 2), ("magic", 1)),
            order=OrderCounts(frame_repeats=4, frame_gaps=2, frame_resets=1),
            last_frame=FrameSummary("servo16", (("frame_rate", 1200), ("frame_count", 5000))),
            last_sender="127.0.0.1:40000",
            last_packet_age_s=0.2,
            senders_seen=1,
        ),
        from_target=DirectionSnapshot(
            Direction.FROM_TARGET,
            packets=4990,
            packets_per_s=1199.5,
            bytes_per_s=300_000.0,
            last_frame=FrameSummary(
                "json-state", (("timestamp", 12.5), ("rc", (1500.0, None))), ("space after colon",)
            ),
            last_sender="127.0.0.1:9012",
            last_packet_age_s=0.0,
            senders_seen=1,
        ),
        unexpected_senders=0,
    )
    return replace(link, **overrides)  # type: ignore[arg-type]


def xrp_link(**overrides: object) -> LinkSnapshot:
    link = LinkSnapshot(
        name="xrp",
        protocol="xrp",
        detected_protocol="xrp",
        listen="127.0.0.1:3540",
        target=None,
        peer=None,
        listen_only=True,
        from_peer=DirectionSnapshot(
            Direction.FROM_PEER,
            packets_per_s=50.0,
            bytes_per_s=2000.0,
            order=OrderCounts(sequence_gaps=3, stale_sequences=1),
            last_packet_age_s=None,
            senders_seen=2,
            last_sender="127.0.0.1:5555",
        ),
        from_target=DirectionSnapshot(Direction.FROM_TARGET),
        unexpected_senders=2,
    )
    return replace(link, **overrides)  # type: ignore[arg-type]


def rflysim_link(**overrides: object) -> LinkSnapshot:
    link = LinkSnapshot(
        name="rflysim",
        protocol="rflysim",
        detected_protocol=None,
        listen="127.0.0.1:20100",
        target="127.0.0.1:20101",
        peer=None,
        listen_only=False,
        from_peer=DirectionSnapshot(Direction.FROM_PEER, order=OrderCounts(checksum_failures=7)),
        from_target=DirectionSnapshot(Direction.FROM_TARGET),
        relay_errors=(("port-unreachable", 3),),
        dropped_captures=12,
    )
    return replace(link, **overrides)  # type: ignore[arg-type]


def values(panel: BridgePanel, item_id: str) -> dict[str, str]:
    raw = panel.tree.item(item_id, "values")
    return {column: str(value) for column, value in zip(COLUMNS, raw, strict=True)}


class ScriptedMonitor(ScriptedSource[BridgeSnapshot]):
    """Test double of the bridge monitor for panel tests: returns scripted snapshots, may fail."""

    def __init__(self, *snapshots: BridgeSnapshot) -> None:
        super().__init__(BridgeSnapshot(), *snapshots)


@pytest.fixture
def tk_geometry() -> str:
    return "1200x400"


@pytest.fixture
def monitor() -> ScriptedMonitor:
    return ScriptedMonitor()


@pytest.fixture
def panel(root: tk.Tk, monitor: ScriptedMonitor) -> BridgePanel:
    return packed(BridgePanel(root, monitor, tick_ms=10))


# --------------------------------------------------------------------------- rows and their content


def test_each_link_and_each_direction_gets_a_row(panel: BridgePanel) -> None:
    """
    GIVEN a relay link and a listen-only link
    WHEN the snapshot is rendered
    THEN each link has a row, the relay has one child row per direction and the listen-only tap one.
    """
    panel.render(BridgeSnapshot((sitl_link(), xrp_link())))

    assert panel.tree.get_children("") == (link_item_id("sitl"), link_item_id("xrp"))
    assert panel.tree.get_children(link_item_id("sitl")) == (
        direction_item_id("sitl", Direction.FROM_PEER),
        direction_item_id("sitl", Direction.FROM_TARGET),
    )
    assert panel.tree.get_children(link_item_id("xrp")) == (direction_item_id("xrp", Direction.FROM_PEER),)
    assert panel.tree.item(direction_item_id("sitl", Direction.FROM_PEER), "text") == "peer → target"
    assert panel.tree.item(direction_item_id("sitl", Direction.FROM_TARGET), "text") == "target → peer"


def test_link_row_shows_protocol_detection_and_endpoints(panel: BridgePanel) -> None:
    """
    GIVEN an auto-detecting relay that recognised ArduPilot SITL JSON, and a listen-only tap
    WHEN rendered
    THEN the link rows show configured and detected protocol and the listen, target and peer endpoints.
    """
    panel.render(BridgeSnapshot((sitl_link(), xrp_link(), rflysim_link())))

    sitl = values(panel, link_item_id("sitl"))
    assert sitl["protocol"] == "auto (detected: ardupilot-json)"
    assert sitl["endpoints"] == "listen 127.0.0.1:9002 → target 127.0.0.1:9012, peer 127.0.0.1:40000"
    assert values(panel, link_item_id("xrp"))["endpoints"] == "listen 127.0.0.1:3540 (listen only)"
    rflysim = values(panel, link_item_id("rflysim"))
    assert rflysim["endpoints"].endswith("peer not learned yet")
    assert values(panel, link_item_id("sitl"))["packets_per_s"] == "2399.5"


def test_direction_row_shows_rates_age_decode_errors_and_last_frame(panel: BridgePanel) -> None:
    """
    GIVEN SITL servo traffic with decode errors and a JSON reply with a parser warning
    WHEN rendered
    THEN the direction rows show packets/s, bytes/s, packet age, errors by reason, frame-count
    bookkeeping, the sender and the last frame's key fields and warnings.
    """
    panel.render(BridgeSnapshot((sitl_link(),)))

    servo = values(panel, direction_item_id("sitl", Direction.FROM_PEER))
    assert servo["packets_per_s"] == "1200.0"
    assert servo["bytes_per_s"] == "48000"
    assert servo["age"] == "0.2 s ago"
    assert servo["decode_errors"] == "3: wrong length ×2, wrong magic ×1"
    assert servo["sequence"] == "gaps 2, repeats 4, resets 1"
    assert servo["endpoints"] == "from 127.0.0.1:40000"
    assert servo["last_frame"] == "servo16: frame rate=1200 Hz, frame count=5000"
    reply = values(panel, direction_item_id("sitl", Direction.FROM_TARGET))
    assert reply["last_frame"] == "json-state: timestamp=12.500 s, RC channels=1500 -"
    assert reply["warnings"] == "space after colon"
    assert reply["decode_errors"] == "0"


def test_xrp_and_rflysim_show_their_own_integrity_counters(panel: BridgePanel) -> None:
    """
    GIVEN an XRP tap with sequence gaps and stale packets and a RflySim link with checksum failures
    WHEN rendered
    THEN XRP shows gaps/stale, RflySim shows checksum failures, and neither shows SITL frame counts.
    """
    panel.render(BridgeSnapshot((xrp_link(), rflysim_link())))

    xrp = values(panel, direction_item_id("xrp", Direction.FROM_PEER))
    assert xrp["sequence"] == "gaps 3, stale 1"
    assert xrp["age"] == "never"
    rflysim = values(panel, direction_item_id("rflysim", Direction.FROM_PEER))
    assert rflysim["sequence"] == "checksum failures 7"


def test_unexpected_senders_relay_errors_and_dropped_captures_are_shown(panel: BridgePanel) -> None:
    """
    GIVEN a tap that heard two senders and a relay with ICMP errors and a full capture ring
    WHEN rendered
    THEN the link rows count unexpected senders, relay errors by reason and dropped captures,
    and the direction row flags more than one sender.
    """
    panel.render(BridgeSnapshot((xrp_link(), rflysim_link())))

    assert values(panel, link_item_id("xrp"))["senders"] == "unexpected senders: 2"
    assert values(panel, direction_item_id("xrp", Direction.FROM_PEER))["senders"] == "2 (more than one!)"
    assert values(panel, link_item_id("rflysim"))["decode_errors"] == (
        "relay: ICMP port unreachable ×3; 12 captures dropped"
    )


def test_stopped_link_is_marked(panel: BridgePanel) -> None:
    """
    GIVEN a relay that stopped
    WHEN rendered
    THEN its row says so.
    """
    panel.render(BridgeSnapshot((sitl_link(running=False),)))

    assert panel.tree.item(link_item_id("sitl"), "text") == "sitl (stopped)"


def test_header_summarises_all_links(panel: BridgePanel) -> None:
    """
    GIVEN two links
    WHEN rendered
    THEN the header names the link count, total packet rate and decode errors, even while collapsed.
    """
    panel.render(BridgeSnapshot((sitl_link(), xrp_link())))

    assert panel.summary.cget("text") == "2 links, 2449.5 packets/s, 3 decode errors"


def test_a_cut_loop_is_named_first_in_the_link_row_and_counted_in_the_header(panel: BridgePanel) -> None:
    """
    GIVEN a link that cut a loop, and has ICMP errors too
    WHEN rendered
    THEN its row names the loop first (where the datagrams came back from, where they had gone,
    how many were held back) and the header counts the loops cut.
    """
    loop = LoopCounts(
        returned=8, held_back=3, loops_cut=1, came_back_from="127.0.0.1:45678", sent_to="127.0.0.1:9101"
    )
    panel.render(BridgeSnapshot((rflysim_link(loop=loop), xrp_link())))

    assert values(panel, link_item_id("rflysim"))["decode_errors"].startswith(
        "loop cut: what it sent to 127.0.0.1:9101 came back from 127.0.0.1:45678; held back: 3; relay: "
    )
    assert panel.summary.cget("text") == "2 links, 50.0 packets/s, 0 decode errors, 1 loops cut"


# --------------------------------------------------------------------------- in-place updates


def test_rows_are_updated_in_place_and_only_when_their_text_changes(panel: BridgePanel) -> None:
    """
    GIVEN a rendered snapshot
    WHEN an equal snapshot arrives, then one where only the servo packet rate changed
    THEN the first costs no widget write; the second rewrites the servo row and the link total
    (two writes plus the header) and keeps every row id.
    """
    panel.render(BridgeSnapshot((sitl_link(), xrp_link()), now=1.0))
    ids = (panel.tree.get_children(""), panel.tree.get_children(link_item_id("sitl")))
    before = panel.widget_updates

    panel.render(BridgeSnapshot((sitl_link(), xrp_link()), now=1.25))
    assert panel.widget_updates == before

    faster = replace(sitl_link().from_peer, packets_per_s=1250.0)
    panel.render(BridgeSnapshot((sitl_link(from_peer=faster), xrp_link()), now=1.5))

    assert panel.widget_updates - before == 3
    assert (panel.tree.get_children(""), panel.tree.get_children(link_item_id("sitl"))) == ids
    assert values(panel, direction_item_id("sitl", Direction.FROM_PEER))["packets_per_s"] == "1250.0"


def test_a_vanished_link_loses_its_rows_and_order_follows_the_snapshot(panel: BridgePanel) -> None:
    """
    GIVEN three links rendered
    WHEN the next snapshot drops one and swaps the others
    THEN its rows are gone and the remaining rows follow the new order.
    """
    panel.render(BridgeSnapshot((sitl_link(), xrp_link(), rflysim_link())))

    panel.render(BridgeSnapshot((rflysim_link(), sitl_link())))

    assert panel.tree.get_children("") == (link_item_id("rflysim"), link_item_id("sitl"))
    assert not panel.tree.exists(direction_item_id("xrp", Direction.FROM_PEER))


def test_selecting_a_row_spells_it_out_in_full(root: tk.Tk, panel: BridgePanel) -> None:
    """
    GIVEN the JSON reply row with a warning
    WHEN the user selects it
    THEN the details line shows every non-empty column, including the warning.
    """
    panel.render(BridgeSnapshot((sitl_link(),)))

    panel.tree.selection_set(direction_item_id("sitl", Direction.FROM_TARGET))
    root.update()

    details = panel.details.cget("text")
    assert "target → peer" in details
    assert "Warnings: space after colon" in details
    assert "Last decoded frame: json-state: timestamp=12.500 s, RC channels=1500 -" in details


# --------------------------------------------------------------------------- collapse


def test_collapsing_hides_the_tree_and_expanding_shows_the_latest_traffic(
    root: tk.Tk, panel: BridgePanel
) -> None:
    """
    GIVEN an expanded panel showing one link
    WHEN the header is toggled, a new snapshot arrives, and the header is toggled again
    THEN the tree is hidden with a ▸ header, the collapsed panel writes no rows, and on
    expanding (▾) the rows show the latest snapshot.
    """
    panel.render(BridgeSnapshot((sitl_link(),)))
    root.update()
    assert panel.toggle_button.cget("text") == "Simulator bridge ▾"
    assert panel.tree.winfo_ismapped()

    panel.toggle_button.invoke()
    root.update()
    assert panel.toggle_button.cget("text") == "Simulator bridge ▸"
    assert not panel.tree.winfo_ismapped()

    faster = replace(sitl_link().from_peer, packets_per_s=900.0)
    panel.render(BridgeSnapshot((sitl_link(from_peer=faster),)))
    assert values(panel, direction_item_id("sitl", Direction.FROM_PEER))["packets_per_s"] == "1200.0"

    panel.toggle_button.invoke()
    root.update()
    assert panel.toggle_button.cget("text") == "Simulator bridge ▾"
    assert panel.tree.winfo_ismapped()
    assert values(panel, direction_item_id("sitl", Direction.FROM_PEER))["packets_per_s"] == "900.0"


# --------------------------------------------------------------------------- lifecycle


def test_two_activations_leave_one_timer_and_ticks_show_polled_traffic(
    root: tk.Tk, panel: BridgePanel, monitor: ScriptedMonitor
) -> None:
    """
    GIVEN a panel and a monitor that will report a SITL link
    WHEN on_activate() is called twice and the event loop runs
    THEN exactly one after() callback is pending and the polled link appears.
    """
    monitor._queue.append(BridgeSnapshot((sitl_link(),)))
    before = pending_after_ids(panel)

    panel.on_activate()
    panel.on_activate()
    assert len(pending_after_ids(panel) - before) == 1

    assert pump_until(root, lambda: panel.tree.exists(link_item_id("sitl")) and monitor.polls >= 2)
    assert len(pending_after_ids(panel) - before) == 1


def test_deactivation_and_destruction_leave_no_pending_callback(
    root: tk.Tk, panel: BridgePanel, monitor: ScriptedMonitor
) -> None:
    """
    GIVEN an active panel
    WHEN it is deactivated (polling stops), reactivated, and destroyed
    THEN each time its pending callback is cancelled.
    """
    panel.on_activate()
    assert pump_until(root, lambda: monitor.polls >= 1)
    timer = panel.timer_id
    panel.on_deactivate()
    assert panel.timer_id is None
    assert timer not in pending_after_ids(root)
    assert monitor.polls_while_pumping(root) == 0

    panel.on_activate()
    timer = panel.timer_id
    assert timer in pending_after_ids(root)
    panel.destroy()
    assert timer not in pending_after_ids(root)


def test_suspend_and_resume_pause_polling_without_losing_rows(
    root: tk.Tk, panel: BridgePanel, monitor: ScriptedMonitor
) -> None:
    """
    GIVEN an active panel showing a link
    WHEN it is suspended, then resumed
    THEN no poll happens meanwhile, rows stay, and polling resumes.
    """
    monitor._queue.append(BridgeSnapshot((sitl_link(),)))
    panel.on_activate()
    assert pump_until(root, lambda: panel.tree.exists(link_item_id("sitl")))

    panel.on_suspend()
    assert monitor.polls_while_pumping(root) == 0
    assert panel.tree.exists(link_item_id("sitl"))

    panel.on_resume()
    assert monitor.pump_until_polled(root)


def test_a_monitor_failure_is_shown_and_polling_continues(
    root: tk.Tk, panel: BridgePanel, monitor: ScriptedMonitor
) -> None:
    """
    GIVEN an active panel
    WHEN the monitor raises during poll(), then works again
    THEN the error appears in the panel's status line (not in Tk), then disappears.
    """
    monitor.failure = OSError("capture ring closed")
    panel.on_activate()
    assert pump_until(root, lambda: "capture ring closed" in panel.status.cget("text"))
    assert monitor.pump_until_polled(root, times=2)

    monitor.failure = None
    assert pump_until(root, lambda: panel.status.cget("text") == "")


# --------------------------------------------------------------------------- the real relay and monitor


def test_real_relay_traffic_appears_in_the_panel(root: tk.Tk) -> None:
    """
    GIVEN a real listen-only UDP tap on 127.0.0.1 (ephemeral port) watched by the real BridgeMonitor
    WHEN a sender on loopback sends SITL servo packets and one malformed datagram
    THEN the panel's rows hold the tap's endpoint, the sender, the last servo frame's frame count
    and the decode error (in full, whatever the tree has room to show), and deactivation leaves no
    timer.
    """
    relay = UdpRelay(RelayConfig(name="sitl-tap", protocol="ardupilot-json"))
    relay.start()
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sender.bind(("127.0.0.1", 0))
    try:
        panel = BridgePanel(root, BridgeMonitor([relay]), tick_ms=20)
        panel.pack(fill=tk.BOTH, expand=True)
        panel.on_activate()
        host, port = relay.listen_address[:2]
        sender.sendto(b"\x01\x02\x03", (host, port))
        frame_count = [0]
        row = direction_item_id("sitl-tap", Direction.FROM_PEER)

        def traffic_shown() -> bool:
            frame_count[0] += 1
            sender.sendto(encode_servo_packet(1200, frame_count[0], [1500] * 16), (host, port))
            if not panel.tree.exists(row):
                return False
            shown = panel.row_texts(row)
            return (
                shown["last_frame"].startswith("servo16")
                and "frame count" in shown["last_frame"]
                and shown["decode_errors"] != "0"
            )

        assert pump_until(root, traffic_shown)
        shown = panel.row_texts(row)
        assert shown["endpoints"] == f"from 127.0.0.1:{sender.getsockname()[1]}"
        assert panel.row_texts(link_item_id("sitl-tap"))["endpoints"] == (
            f"listen 127.0.0.1:{port} (listen only)"
        )

        panel.on_deactivate()
        assert panel.timer_id is None
        panel.destroy()
    finally:
        sender.close()
        relay.stop()


# --------------------------------------------------------------------------- a narrow pane


def test_a_narrow_panel_shows_the_main_figures_first_and_cuts_reason_lists_by_whole_reasons(
    root: tk.Tk, panel: BridgePanel
) -> None:
    """
    GIVEN a direction with three decode-error reasons in a panel 420 px wide
    WHEN it is rendered
    THEN packets/s and the errors are the first columns, the errors cell shows the total and whole
    reasons followed by how many more there are, and selecting the row spells out every reason.
    """
    reasons = (("magic", 20), ("truncated", 12), ("checksum", 3))
    link = sitl_link(from_peer=replace(sitl_link().from_peer, decode_errors=reasons))
    root.geometry("420x300")
    panel.render(BridgeSnapshot((link,)))
    row = direction_item_id("sitl", Direction.FROM_PEER)
    assert pump_until(root, lambda: 1 < panel.tree.winfo_width() <= 420)
    root.update()

    cell = values(panel, row)["decode_errors"]
    panel.tree.selection_set(row)
    root.update()

    assert list(panel.tree["columns"])[:2] == ["packets_per_s", "decode_errors"]
    assert cell.startswith("35: wrong magic ×20, ")
    shown = cell.removeprefix("35: ").split(", ")
    worded = ["wrong magic ×20", "truncated ×12", "bad checksum ×3"]
    assert shown[:-1] == worded[: len(shown) - 1]
    assert shown[-1] in ("+1 more", "+2 more", "…")
    assert "Errors: 35: wrong magic ×20, truncated ×12, bad checksum ×3" in panel.details.cget("text")
