# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""How the flight-controller facade opens a link and finds the vehicle on it.

Strategy: device strings are checked before pymavlink sees them (`devices`), a link is opened the
way a ground station should (bounded TCP connect, a UDP server that answers only the vehicle,
MAVLink 2, errors in words: `opening`), and what was heard while looking for the vehicle explains
a failed search (`discovery`).  The facade itself, `backend_flightcontroller`, sits at the package
root where its methodic configurator twin is; this folder is its private help and knows nothing of
the plugin.
"""
