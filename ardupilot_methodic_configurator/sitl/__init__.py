# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Real ArduPilot SITL for ``--sitl``: the process, its physics, its control link, its console.

Strategy: the runner wires one SITL and its helpers together and owns their lifetime (`runner`);
one supervisor thread starts SITL, restarts it when it dies and ends it (`supervisor`), each start
a process group of its own whose every process is ended, its leader running or not
(`process_group`, also told to die with its parent); what a run is, its ports and states are plain
data (`config`); the runner's own MAVLink link on SITL's second port switches ``SIM_RC_FAIL`` and
reads a few parameters, never on the check's link (`control`), for the receiver, which stays
silent until the check listens and follows the transmitter in each failsafe mode (`receiver`); the
check reaches SERIAL0 over TCP, UDP or a serial line once SITL has booted (`check_link`,
`null_modem`); the console is kept in a bounded, numbered log of escaped lines (`console`).  The
transmitter and physics come from the demo.
"""
