# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""RC receiver check for ArduPilot vehicles, packaged as a methodic configurator plugin step.

`_` is the gettext hook every user-visible string goes through.  It is the identity until
`install_language()` binds a catalog, so English needs no catalog at all.
"""

from __future__ import annotations

import gettext as _gettext
from pathlib import Path

from amc_rc_receiver.i18n_runtime import ensure_compiled

__version__ = "0.1.0"

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
TEXT_DOMAIN = "amc_rc_receiver"

_translation: _gettext.NullTranslations = _gettext.NullTranslations()


def _(message: str) -> str:
    """Translate ``message`` with the active catalog (identity for English)."""
    return _translation.gettext(message)


def install_language(language: str | None) -> bool:
    """Bind the catalog for ``language`` (e.g. ``"de"``, ``"zh_CN"``).

    Returns ``False`` and keeps English when no catalog exists for that language, so a bad
    ``--language`` value never stops the program.
    """
    global _translation  # noqa: PLW0603 - one process-wide catalog, like gettext.install()
    if not language or language.startswith("en"):
        _translation = _gettext.NullTranslations()
        return True
    # A fresh clone or an editable install has .po catalogs but no compiled .mo files yet.
    ensure_compiled(LOCALE_DIR)
    try:
        _translation = _gettext.translation(TEXT_DOMAIN, LOCALE_DIR, languages=[language])
    except OSError:
        _translation = _gettext.NullTranslations()
        return False
    return True
