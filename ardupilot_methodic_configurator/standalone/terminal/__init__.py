# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The terminal view: the same check as text, on a Python with or without Tk.

Strategy: `app` runs the loop (tick the model and the bridge monitor, print, run the scripted
transmitter), `check` is the guided test with keys instead of buttons and the exit status that
reports the verdict, and `screen` formats both snapshots as a live screen or a log.  Nothing here
imports Tk, directly or through another module: an import contract says so, and a test runs the
whole check with tkinter made unimportable.
"""
