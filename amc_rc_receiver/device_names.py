# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Device names the program gives a meaning of its own, shared by the session and the views.

Kept apart from the session so that a view can name the demo without importing sockets.
"""

from __future__ import annotations

from typing import Final

# The embedded simulated vehicle, in place of a pymavlink connection string.
DEMO_DEVICE: Final = "demo"
