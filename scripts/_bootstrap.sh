# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Shared install steps for scripts/demo.sh and scripts/test.sh (sourced, not run).
# Idempotent: a second run only checks and returns.

VENV="${AMC_VENV:-.venv}"

_apt_updated=0
_apt_install() {
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "Missing system packages ($*) and no apt-get here: install them by hand." >&2
        return 1
    fi
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    if [ "$_apt_updated" -eq 0 ]; then
        $sudo apt-get update -qq
        _apt_updated=1
    fi
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# ensure_system_packages [xvfb] [build]: python3 with venv and Tk, plus Xvfb and the build tools
# when asked for.
ensure_system_packages() {
    local wanted=()
    command -v python3 >/dev/null 2>&1 || wanted+=(python3)
    python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || wanted+=(python3-venv)
    python3 -c 'import tkinter' >/dev/null 2>&1 || wanted+=(python3-tk)
    for extra in "$@"; do
        case "$extra" in
            xvfb) command -v Xvfb >/dev/null 2>&1 || wanted+=(xvfb xauth) ;;
            # PyInstaller reads binaries' dependencies with objdump (binutils).
            build) command -v objdump >/dev/null 2>&1 || wanted+=(binutils) ;;
        esac
    done
    if [ "${#wanted[@]}" -gt 0 ]; then
        echo "Installing system packages: ${wanted[*]}"
        _apt_install "${wanted[@]}"
    fi
}

# ensure_venv SPEC: a virtual environment in $VENV with the project installed as SPEC.
# The install is skipped when pyproject.toml and SPEC are unchanged since the last one, so a
# second run starts at once (the install is editable: code changes need no reinstall).
ensure_venv() {
    local spec="$1"
    if [ ! -x "$VENV/bin/python" ]; then
        python3 -m venv "$VENV"
    fi
    local stamp="$VENV/.amc-install-stamp"
    local want
    want="$(cat pyproject.toml; echo "$spec")"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
        return 0
    fi
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$spec" 2> >(grep -v -e '^ *$' -e 'Editable installation' -e 'precedence during imports' -e '\*\*\*\*' -e '!!' -e 'Please be careful' -e 'WheelFile' -e 'BuildBackendWarning' >&2)
    printf '%s' "$want" > "$stamp"
}
