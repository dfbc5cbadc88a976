#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The main job: installs the program into .venv and opens the standalone RC receiver check on
# the embedded simulated vehicle.  Extra arguments go to amc-rc-receiver (e.g. --text).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# shellcheck source=scripts/_bootstrap.sh
source scripts/_bootstrap.sh
ensure_system_packages
ensure_venv ".[i18n]"
# A checkout has the .po catalogs only; the binary ones are built here, never at run time.
"$VENV/bin/python" scripts/i18n.py compile >/dev/null

exec "$VENV/bin/amc-rc-receiver" --demo "$@"
