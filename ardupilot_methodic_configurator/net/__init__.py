# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Sockets and addresses shared by everything that listens: relays, the simulated vehicle, SITL.

Strategy: one parser of ``HOST:PORT`` text (`host_port`, pure) and one lifecycle for background
services that own a UDP socket and a thread (`services`: start once, stop any number of times,
sockets bound to the loopback unless asked otherwise).  It is the bottom layer beside the plugin:
it imports nothing of this package, so the bridge, the demo and SITL can all stand on it.
"""
