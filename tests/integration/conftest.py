# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fixtures of the methodic configurator integration tests: the 5.0.1 environments and files."""

from tests.support.methodic_configurator import (
    methodic_configurator_501_overlay_env,
    methodic_configurator_501_release_env,
    methodic_configurator_501_sources,
    methodic_configurator_501_wheel,
)

__all__ = [
    "methodic_configurator_501_overlay_env",
    "methodic_configurator_501_release_env",
    "methodic_configurator_501_sources",
    "methodic_configurator_501_wheel",
]
