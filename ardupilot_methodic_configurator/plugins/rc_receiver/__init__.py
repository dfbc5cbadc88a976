# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The receiver check's own code, without Tk: readings, requests, the guided test's tracker,
sticks, guide, verdict, findings, firmware facts, the report and every sentence it shows.
"""
