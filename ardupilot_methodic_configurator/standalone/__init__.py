# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``amc-rc-receiver`` program outside the methodic configurator.

Strategy: one session owns everything a check needs (the connection, the demo, SITL, the bridge
relays and monitor) and hands out readable errors instead of raising (`session`); the window and
the terminal view are two faces of that same session (`window/`, `terminal/`), and
``--serve-demo`` runs the demo alone for any ground station (`serve_demo`).  The command line's
vocabulary (the demo device, the transmitter schedule, exit statuses) is `options`;
`link_follower` notices a lost link and connects again.
"""
