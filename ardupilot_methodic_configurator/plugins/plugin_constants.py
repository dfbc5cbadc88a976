# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Names shared by the plugin registry, the configuration step files and the plugin host.

Plugin names and placements are plain strings because they are written in the JSON step
files; keeping them here means the schema, the loader and the registration code can be
checked against one list instead of repeating literals.
"""

from __future__ import annotations

from typing import Final

# The name a configuration step uses to ask for the RC receiver check.
PLUGIN_RC_RECEIVER: Final = "rc_receiver"

# Every plugin this package provides; the step schema's enum must list the same names.
KNOWN_PLUGINS: Final[tuple[str, ...]] = (PLUGIN_RC_RECEIVER,)

# "left": the plugin sits beside the step's parameter table; "top": above it.
PLACEMENT_LEFT: Final = "left"
PLACEMENT_TOP: Final = "top"
PLUGIN_PLACEMENTS: Final[tuple[str, ...]] = (PLACEMENT_LEFT, PLACEMENT_TOP)
