# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The simulator bridge: live UDP traffic between simulator parts, relayed, counted and decoded.

Strategy: sans-IO protocols at the bottom (`protocols/`: bytes in, frozen frames out, one table of
what each protocol needs); a relay per link on its own thread that forwards first and then counts
exactly (`relay`, `traffic`, `capture_ring`); a monitor on the UI thread that works within a time
budget and decodes only the newest frame per direction (`monitor`); immutable snapshots of data,
not words (`snapshot`), worded once for every view (`texts`); and the ``--bridge`` parser
(`spec`).  No Tk anywhere in this folder: the panel that draws it belongs to the window.
"""
