# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Entry script of the frozen `amc-rc-receiver` program.

It only calls the same `main()` as the `amc-rc-receiver` console script, so the frozen program and
the pip-installed one cannot drift apart; everything else is found by PyInstaller from here.
"""

from __future__ import annotations

import sys

from amc_rc_receiver.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
