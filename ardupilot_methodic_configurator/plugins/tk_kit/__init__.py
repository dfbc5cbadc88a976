# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The program's Tk toolkit: the tick timer, scrolling, text that fits its widget, keys and
focus. The plugin's views, the window and its panels all draw with it.
"""
