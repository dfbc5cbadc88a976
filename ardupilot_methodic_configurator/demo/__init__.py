# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The demo: a simulated ArduPilot vehicle, its RC transmitter and a JSON physics back end.

Strategy: the vehicle speaks real MAVLink 2 and takes its RC input the way ArduPilot SITL does,
through servo packets and JSON state over UDP, with a relay spliced in so the bridge shows real
traffic (`system` wires them).  It models ArduPilot on its own: it imports nothing of the plugin,
and states every ArduPilot fact it needs itself (`vehicle_rules`, `parameters`, `setups`), so a
wrong rule in the check cannot hide behind the same wrong rule here; tests compare both with real
SITL.  The physics back end and the transmitter also serve a real SITL (`physics_backend`,
`sitl_rc_input`).
"""
