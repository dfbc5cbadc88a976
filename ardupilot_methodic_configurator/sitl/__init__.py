# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Real ArduPilot SITL for ``--sitl``: the process, its physics, its control link, its console.

Strategy: one supervisor owns one SITL process (its own process group, a temporary folder, told to
die with its parent) and restarts it when it dies (`runner`); what a run is, its ports and states
are plain data (`config`); the runner's own MAVLink link on SITL's second port switches
``SIM_RC_FAIL`` and reads a few parameters, never on the check's link (`control`); the console is
kept in a bounded, numbered log (`console`).  The transmitter and physics come from the demo.
"""
