# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The receiver check's Tk widgets: lamps and bars, the verdict banner, the guided step with
its stick picture, channel roles and lists.
"""
