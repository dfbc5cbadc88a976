# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The names of the bridge protocols, as ``--bridge`` takes them and snapshots carry them.

A leaf module: the codecs name their own protocol in their errors, and the protocol table
(``protocols``) imports the codecs, so the names live here, below both.
"""

from __future__ import annotations

ARDUPILOT_JSON = "ardupilot-json"
RFLYSIM = "rflysim"
XRP = "xrp"
# Not a protocol: the relay finds out which one each datagram is.
AUTO = "auto"
