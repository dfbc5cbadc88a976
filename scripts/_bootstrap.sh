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

# --- The released ArduPilot Methodic Configurator, for tests/integration -------------------------
# Everything lives under build/ (ignored by git, ruff, reuse and the packaging test's source copy):
#   $AMC501_HOME/release/        the release wheel and sdist from the registry (digests checked)
#   $AMC501_HOME/src/            the unpacked sdist (5.0.1's own tests)
#   $AMC501_HOME/overlay/        the overlay wheel (scripts/methodic_configurator_overlay.py)
#   $AMC501_HOME/venv/           5.0.1 as a user installs it: the release wheel without its pinned
#                                dependencies, then those unpinned (5.0.1 pins versions the registry
#                                may no longer offer), plus pytest for its own tests
#   $AMC501_HOME/venv-overlay/   the same with the overlay wheel instead of the release wheel
# Both environments are cached behind stamp files: a second run only checks. The overlay wheel is
# rebuilt on every run (about a second, byte-for-byte reproducible) and reinstalled only when it
# changed, i.e. when our plugin files did. AMC_SKIP_METHODIC_CONFIGURATOR=1 skips all of it (the
# integration tests then skip with their reason).
AMC501_VERSION="5.0.1"
AMC501_HOME="${AMC501_HOME:-build/methodic-configurator-$AMC501_VERSION}"
AMC501_WHEEL_SHA256="9e46ad35b57c6ec6b8546bc10c5e9472200e2c1864fbf7ae2c86a72fc58b4915"
AMC501_SDIST_SHA256="ed78c27340ba80f26a5eb9b8d0d87638cf79e667960f2c6983ddf8659cd07b84"
AMC501_TEST_TOOLS=(pytest pytest-mock pytest-xvfb)

_amc501_pip() {
    local venv="$1"
    shift
    "$venv/bin/python" -m pip --disable-pip-version-check --quiet "$@"
}

# ensure_methodic_configurator_release: the release wheel, its sdist (unpacked) and its runtime
# requirements without pins, downloaded once with pip and checked against the published digests.
ensure_methodic_configurator_release() {
    local release="$AMC501_HOME/release"
    local wheel="$release/ardupilot_methodic_configurator-$AMC501_VERSION-py3-none-any.whl"
    local sdist="$release/ardupilot_methodic_configurator-$AMC501_VERSION.tar.gz"
    mkdir -p "$release"
    if [ ! -f "$release/requirements.txt" ] || [ ! -f "$wheel" ]; then
        # Downloads the wheel (pip download), checks its digest and RECORD, prints its requirements.
        python3 scripts/methodic_configurator_overlay.py --version "$AMC501_VERSION" \
            --download-dir "$release" --print-requirements > "$release/requirements.txt.new"
        mv "$release/requirements.txt.new" "$release/requirements.txt"
    fi
    if [ ! -f "$sdist" ]; then
        python3 -m pip download --disable-pip-version-check --quiet --no-deps --no-binary :all: \
            --dest "$release" "ardupilot-methodic-configurator==$AMC501_VERSION"
    fi
    echo "$AMC501_SDIST_SHA256  $sdist" | sha256sum --check --quiet \
        || { echo "$sdist is not the published $AMC501_VERSION sdist" >&2; rm -f "$sdist"; return 1; }
    if [ ! -d "$AMC501_HOME/src/ardupilot_methodic_configurator-$AMC501_VERSION/tests" ]; then
        rm -rf "$AMC501_HOME/src"
        mkdir -p "$AMC501_HOME/src"
        tar -xzf "$sdist" -C "$AMC501_HOME/src"
    fi
}

# _amc501_venv DIR WHEEL: DIR holds WHEEL (installed --no-deps) on top of the release's unpinned
# requirements and the test tools. The dependencies are installed once (stamp); WHEEL is
# reinstalled whenever its digest changes.
_amc501_venv() {
    local venv="$1" wheel="$2"
    local requirements="$AMC501_HOME/release/requirements.txt"
    local want_base
    want_base="$(cat "$requirements"; echo "${AMC501_TEST_TOOLS[*]}"; python3 --version)"
    if [ ! -f "$venv/.amc-base-stamp" ] || [ "$(cat "$venv/.amc-base-stamp")" != "$want_base" ]; then
        echo "Creating $venv (the methodic configurator's dependencies, unpinned)"
        rm -rf "$venv"
        python3 -m venv "$venv"
        _amc501_pip "$venv" install -r "$requirements" "${AMC501_TEST_TOOLS[@]}"
        printf '%s' "$want_base" > "$venv/.amc-base-stamp"
    fi
    local want_wheel
    want_wheel="$(sha256sum "$wheel" | cut -d' ' -f1) $(basename "$wheel")"
    if [ ! -f "$venv/.amc-wheel-stamp" ] || [ "$(cat "$venv/.amc-wheel-stamp")" != "$want_wheel" ]; then
        rm -f "$venv/.amc-wheel-stamp"
        _amc501_pip "$venv" install --no-deps --force-reinstall "$wheel"
        printf '%s' "$want_wheel" > "$venv/.amc-wheel-stamp"
    fi
}

# ensure_methodic_configurator_venvs: the two environments above, created or refreshed.
ensure_methodic_configurator_venvs() {
    if [ "${AMC_SKIP_METHODIC_CONFIGURATOR:-0}" = "1" ]; then
        echo "AMC_SKIP_METHODIC_CONFIGURATOR=1: the methodic configurator integration tests will skip"
        return 0
    fi
    local started=$SECONDS
    ensure_methodic_configurator_release
    local release_wheel="$AMC501_HOME/release/ardupilot_methodic_configurator-$AMC501_VERSION-py3-none-any.whl"
    echo "$AMC501_WHEEL_SHA256  $release_wheel" | sha256sum --check --quiet
    _amc501_venv "$AMC501_HOME/venv" "$release_wheel"
    python3 scripts/methodic_configurator_overlay.py --wheel "$release_wheel" \
        --out "$AMC501_HOME/overlay" >/dev/null
    _amc501_venv "$AMC501_HOME/venv-overlay" \
        "$AMC501_HOME/overlay/ardupilot_methodic_configurator-$AMC501_VERSION+rcreceiver.1-py3-none-any.whl"
    # tests/support/methodic_configurator.py takes the release wheel from here instead of
    # downloading it a second time.
    AMC_MC501_WHEEL_DIR="$(cd "$AMC501_HOME/release" && pwd)"
    export AMC_MC501_WHEEL_DIR
    echo "methodic configurator $AMC501_VERSION environments ready in $((SECONDS - started)) s ($AMC501_HOME)"
}
