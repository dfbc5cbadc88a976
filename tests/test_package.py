# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Package-level behaviour: version and the gettext hook."""

from __future__ import annotations

import amc_rc_receiver as pkg


def test_package_exposes_a_semantic_version() -> None:
    """GIVEN the installed package WHEN its version is read THEN it has three numeric parts."""
    parts = pkg.__version__.split(".")
    assert len(parts) == 3
    assert all(part.isdigit() for part in parts)


def test_untranslated_english_is_returned_unchanged() -> None:
    """GIVEN English WHEN a message goes through _() THEN it comes back as written."""
    assert pkg.install_language("en")
    assert pkg._("Receiver present") == "Receiver present"


def test_unknown_language_keeps_english_and_says_so() -> None:
    """GIVEN a language with no catalog WHEN it is installed THEN English stays and False is returned."""
    assert not pkg.install_language("xx_NOPE")
    assert pkg._("RC failsafe") == "RC failsafe"
    pkg.install_language(None)
