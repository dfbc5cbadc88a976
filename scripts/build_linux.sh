#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Builds the standalone Linux program dist/amc-rc-receiver with PyInstaller and proves it runs
# without Python: installs PyInstaller into the project venv when missing, compiles the
# translation catalogs, builds pyinstaller/amc_rc_receiver_linux.spec, then smoke-tests the binary.
#
# Smoke-test environment: `env -i` (no PYTHONPATH, PYTHONHOME, VIRTUAL_ENV, DISPLAY, ...) with
# PATH set to a fresh empty directory, started from another empty directory.  /usr/bin and /bin
# hold a system python3 on most machines, so `PATH=/usr/bin:/bin` would not prove anything; an
# empty PATH does, and the binary is started by its absolute path so it needs no PATH entry.
# No DISPLAY also checks that --text never touches Tk.
#
# Options (environment): AMC_VENV (default .venv), AMC_BUILD_CLEAN=1 to drop PyInstaller's cache.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

VENV="${AMC_VENV:-.venv}"
SPEC="pyinstaller/amc_rc_receiver_linux.spec"
DIST="dist"
BINARY="$PWD/$DIST/amc-rc-receiver"

step() { printf '\n==> %s\n' "$*"; }
fail() { echo "build_linux.sh: $*" >&2; exit 1; }

if [ ! -x "$VENV/bin/python" ]; then
    step "creating $VENV"
    # shellcheck source=scripts/_bootstrap.sh
    source scripts/_bootstrap.sh
    ensure_system_packages
    ensure_venv "."
fi
PY="$VENV/bin/python"

if ! "$PY" -c 'import PyInstaller' >/dev/null 2>&1; then
    step "installing PyInstaller into $VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check 'pyinstaller>=6.5'
fi

step "compiling translations"
if ! "$PY" -c 'import babel' >/dev/null 2>&1; then
    "$VENV/bin/pip" install --quiet --disable-pip-version-check 'babel>=2.14'
fi
"$PY" scripts/i18n.py compile

step "building $SPEC"
clean=()
if [ "${AMC_BUILD_CLEAN:-0}" = "1" ]; then clean=(--clean); fi
started=$(date +%s)
"$VENV/bin/pyinstaller" --noconfirm "${clean[@]}" --log-level WARN \
    --distpath "$DIST" --workpath build/pyinstaller "$SPEC"
finished=$(date +%s)
[ -x "$BINARY" ] || fail "PyInstaller finished but $BINARY is missing"
echo "built $DIST/amc-rc-receiver in $((finished - started)) s, $(du -h "$BINARY" | cut -f1)"

# A module of our own package that PyInstaller could not find (e.g. a lazily imported front end
# that does not exist yet) would only fail when a user reaches it: list them and fail below.
warn_file="build/pyinstaller/amc_rc_receiver_linux/warn-amc_rc_receiver_linux.txt"
missing_own=$(grep -E "^missing module named '?amc_rc_receiver" "$warn_file" || true)

step "smoke test without Python"
VERSION=$("$PY" -c 'import re, pathlib
text = pathlib.Path("ardupilot_methodic_configurator/__init__.py").read_text()
print(re.search(r"__version__ = \"([^\"]+)\"", text).group(1))')
empty_path=$(mktemp -d)
work_dir=$(mktemp -d)
trap 'rm -rf "$empty_path" "$work_dir"' EXIT
if env -i PATH="$empty_path" /bin/sh -c 'command -v python3 || command -v python' >/dev/null 2>&1; then
    fail "a python is reachable through the smoke-test PATH"
fi

# run_bare NAME ARGS...: runs the binary in the bare environment (plus the VAR=VALUE words in
# $extra_env); output in $work_dir/NAME.out
extra_env=()
run_bare() {
    local name="$1"
    shift
    local status=0
    (cd "$work_dir" && timeout 120 env -i PATH="$empty_path" HOME="$HOME" LANG=C.UTF-8 ${extra_env[@]+"${extra_env[@]}"} \
        "$BINARY" "$@") >"$work_dir/$name.out" 2>&1 || status=$?
    echo "\$ ${extra_env[*]+${extra_env[*]} }amc-rc-receiver $* -> exit $status"
    sed 's/^/    /' "$work_dir/$name.out" | tail -n 25
    return "$status"
}
expect_in() {
    grep -qF -- "$2" "$work_dir/$1.out" || fail "'$2' missing from the output of the $1 run"
}

run_bare version --version || fail "--version failed"
expect_in version "$VERSION"

# A few seconds are too short for the whole transmitter test: the verdict may be INCOMPLETE, whose
# exit status is 4 (0 only for PASSED).
verdict_run() {
    local status=0
    run_bare "$@" || status=$?
    [ "$status" -eq 0 ] || [ "$status" -eq 4 ]
}
verdict_run demo --demo --text --duration 3 || fail "--demo --text --duration 3 failed"
expect_in demo "CH1"

# The German catalog must be inside the program: main() says so on stderr when it is not.
verdict_run german --demo --text --duration 2 --language de || fail "--language de failed"
expect_in german "CH1"
if grep -qF "continuing in English" "$work_dir/german.out"; then
    fail "the frozen program has no German catalog"
fi

# mavutil loads the dialect named by MAVLINK_DIALECT with __import__ at run time; a dialect left
# out of the program would make it try to generate one from XML and fail.
extra_env=(MAVLINK20=1 MAVLINK_DIALECT=common)
verdict_run dialect --demo --text --duration 2 || fail "the MAVLink 2 'common' dialect does not load"
expect_in dialect "CH1"
extra_env=()

# SIGTERM (what a service manager or a closed terminal sends) ends the frozen program like Ctrl-C:
# one line and status 130.  The one-file bootloader must pass it on to the program.
(cd "$work_dir" && exec env -i PATH="$empty_path" HOME="$HOME" LANG=C.UTF-8 "$BINARY" --demo --text \
    >"$work_dir/sigterm.out" 2>&1) &
frozen=$!
for _ in $(seq 1 100); do
    grep -qF "Connected to an ArduPilot vehicle" "$work_dir/sigterm.out" && break
    sleep 0.2
done
kill -TERM "$frozen"
status=0
wait "$frozen" || status=$?
echo "\$ amc-rc-receiver --demo --text, then SIGTERM -> exit $status"
[ "$status" -eq 130 ] || { tail -n 25 "$work_dir/sigterm.out"; fail "SIGTERM did not end the program with 130"; }
expect_in sigterm "Stopped."
if grep -qF "Traceback" "$work_dir/sigterm.out"; then
    fail "SIGTERM printed a traceback"
fi

if [ -n "$missing_own" ]; then
    echo "$missing_own" >&2
    fail "the program lacks modules of the package (listed above); add them, then rebuild"
fi
step "smoke test passed: $BINARY ($VERSION)"
