# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Tk window: the receiver step with its plugin, the parameter table, the bridge panel.

Strategy: `app` is the program (session, window or terminal fallback, cleanup); `window` is the
controller acting on one session, one plugin host and its timers; the other modules only build or
draw (`layout`, `geometry`, `connection_bar`, `bridge_panel` with `bridge_panel_rows`,
`sitl_panel`).  A blocking connect runs on a worker thread the Tk thread polls (`background`),
so nothing here waits, and no module opens a socket of its own.
"""
