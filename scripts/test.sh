#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The one test command: installs everything the checks need on a fresh Debian/Ubuntu machine
# (Xvfb and Tk via apt-get when missing, Python packages into .venv) and runs every check.
# Extra arguments are passed to pytest.
#
#   ./scripts/test.sh            everything: lint, types, licences, layering, the whole suite in
#                                parallel, the PyInstaller build and its smoke test (CI runs this)
#   ./scripts/test.sh --quick    the inner loop: the suite without real SITL, the methodic
#                                configurator 5.0.1 and packaging (tests/support/tiers.py)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

quick=0
if [ "${1:-}" = "--quick" ]; then
    quick=1
    shift
fi

# shellcheck source=scripts/_bootstrap.sh
source scripts/_bootstrap.sh
ensure_system_packages xvfb build
ensure_venv ".[dev,build]"

step() { printf '\n==> %s\n' "$*"; }

run_pytest() {
    # Bytecode caches for the package and the tests: every parallel worker and every program a
    # test starts would compile them again otherwise (a machine may set PYTHONDONTWRITEBYTECODE).
    # One collection pass writes pytest's rewritten test modules before the workers read them.
    unset PYTHONDONTWRITEBYTECODE
    "$VENV/bin/python" -m compileall -q ardupilot_methodic_configurator tests benchmarks fuzz >/dev/null
    # The quick loop runs again and again on warm caches: it skips that pass (2.5 s).
    if [ "$quick" -eq 0 ]; then
        "$VENV/bin/python" -m pytest --collect-only -q -p no:randomly "$@" >/dev/null || true
    fi
    set +e
    # -n auto: as many workers as tests/conftest.py finds worth it (most tests wait, not compute).
    "$VENV/bin/python" -m pytest -n auto --dist worksteal "$@"
    local status=$?
    set -e
    if [ "$status" -eq 5 ]; then
        echo "pytest collected no tests: that is a failure here" >&2
        exit 1
    fi
    if [ "$status" -ne 0 ]; then
        exit "$status"
    fi
}

if [ "$quick" -eq 1 ]; then
    "$VENV/bin/python" scripts/i18n.py compile >/dev/null
    step "pytest, quick tiers"
    run_pytest --quick "$@"
    exit 0
fi

# The released methodic configurator 5.0.1 and our overlay of it, each in its own environment,
# for tests/integration (cached: only the first run downloads and installs).
ensure_methodic_configurator_venvs

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
run_pytest "$@"
# The desktop build and its no-Python smoke test are part of the checks (AMC_SKIP_BUILD=1 skips
# them for a quick local run; CI never sets it).
if [ "${AMC_SKIP_BUILD:-0}" != "1" ]; then
    step "PyInstaller build and smoke test"
    ./scripts/build_linux.sh
fi
