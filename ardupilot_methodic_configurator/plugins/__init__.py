# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The plugin: the RC receiver check as a step of the methodic configurator, and nothing else.

Strategy: this folder is what the overlay build copies into the methodic configurator 5.0.1, so
its modules import only what 5.0.1 offers (`_` from the root, `plugin_factory`, `plugin_protocol`,
`plugin_constants`) and each other, always relatively.  Those three modules, and this file, are our
stand-ins of 5.0.1's own and are never copied.  `data_model_rc_receiver` owns the poll and the
state machine, `frontend_tkinter_rc_receiver` the Tk view; the `rc_receiver_*` helpers hold one
concern each (snapshot, telemetry rules, time, requests, firmware knowledge, evidence, findings,
guide and verdict, report, wording, widgets).  Nothing outside this folder is imported, and
nothing of the simulator or the bridge imports this folder.
"""
