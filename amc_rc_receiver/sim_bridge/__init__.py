# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Simulator-bridge traffic: sans-IO codecs, a UDP relay, a monitor and the embedded demo vehicle.

The codec modules (``ardupilot_json``, ``rflysim``, ``xrp``) are a public API: bytes in, frozen
frames out, no sockets, threads or clocks.  Malformed input raises ``CodecError``.
"""
