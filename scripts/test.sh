#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The one test command: installs everything the checks need on a fresh Debian/Ubuntu machine
# (Xvfb and Tk via apt-get when missing, Python packages into .venv) and runs every check.
# Extra arguments are passed to pytest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# shellcheck source=scripts/_bootstrap.sh
source scripts/_bootstrap.sh
ensure_system_packages xvfb build
ensure_venv ".[dev,build]"
# The released methodic configurator 5.0.1 and our overlay of it, each in its own environment,
# for tests/integration (cached: only the first run downloads and installs).
ensure_methodic_configurator_venvs

step() { printf '\n==> %s\n' "$*"; }

step "ruff check"
"$VENV/bin/ruff" check .
step "mypy (strict on the package)"
"$VENV/bin/mypy"
step "reuse lint"
"$VENV/bin/reuse" lint
step "import contracts (layering)"
"$VENV/bin/lint-imports"
step "translation catalogs"
"$VENV/bin/python" scripts/i18n.py compile
step "pytest"
set +e
"$VENV/bin/python" -m pytest "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
    echo "pytest collected no tests: that is a failure here" >&2
    exit 1
fi
if [ "$status" -ne 0 ]; then
    exit "$status"
fi
# The desktop build and its no-Python smoke test are part of the checks (AMC_SKIP_BUILD=1 skips
# them for a quick local run; CI never sets it).
if [ "${AMC_SKIP_BUILD:-0}" != "1" ]; then
    step "PyInstaller build and smoke test"
    ./scripts/build_linux.sh
fi
