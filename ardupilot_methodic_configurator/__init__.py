# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""RC receiver check for ArduPilot vehicles, packaged as a methodic configurator plugin step.

`_` is the gettext hook every user-visible string goes through.  It is the identity until
`install_language()` binds a catalog, so English needs no catalog at all.  The binary catalogs
(.mo) are compiled with Babel when the package is built (wheel, desktop build) or set up from a
checkout (`scripts/i18n.py compile`); nothing is ever written into the package at run time.
"""

from __future__ import annotations

import gettext as _gettext
import os
from pathlib import Path

# This folder carries the methodic configurator's name so that our files sit at their twins' paths,
# but it is only ever imported as amc_rc_receiver (the wheel and the editable install map it so).
# Imported under any other name (a checkout on sys.path as ardupilot_methodic_configurator) it
# would shadow a real methodic configurator and give one source file two module objects.
if __name__ != "amc_rc_receiver":
    raise ImportError(
        f"{Path(__file__).parent} is the amc-rc-receiver source folder, imported as amc_rc_receiver "
        f"(pip install -e .); it cannot be imported as {__name__}, the methodic configurator's package"
    )

__version__ = "0.1.0"

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
TEXT_DOMAIN = "amc_rc_receiver"
# gettext's own order of precedence for the language of messages.
LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_translation: _gettext.NullTranslations = _gettext.NullTranslations()


def _(message: str) -> str:
    """Translate ``message`` with the active catalog (identity for English)."""
    return _translation.gettext(message)


def language_from_environment(environ: dict[str, str] | None = None) -> str | None:
    """The language the environment asks for ("de_DE.UTF-8" -> "de_DE"), or ``None``.

    "C" and "POSIX" mean no preference; LANGUAGE may list several, the first one counts.
    """
    variables = os.environ if environ is None else environ
    for name in LANGUAGE_VARIABLES:
        value = variables.get(name, "").split(":")[0].split(".")[0].split("@")[0].strip()
        if value and value not in ("C", "POSIX"):
            return value
    return None


def install_language(language: str | None, locale_dir: Path | None = None) -> bool:
    """Bind the catalog for ``language`` (e.g. ``"de"``, ``"de_DE"``, ``"zh_CN"``).

    Returns ``False`` and keeps English when no compiled catalog exists for that language, so a
    bad ``--language`` value never stops the program.
    """
    global _translation  # noqa: PLW0603 - one process-wide catalog, like gettext.install()
    if not language or language.startswith("en"):
        _translation = _gettext.NullTranslations()
        return True
    # "de_DE" finds the "de" catalog too, as gettext expands it.
    try:
        _translation = _gettext.translation(TEXT_DOMAIN, locale_dir or LOCALE_DIR, languages=[language])
    except OSError:
        _translation = _gettext.NullTranslations()
        return False
    return True
