#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# One entry point for a fresh Debian 12 machine: install what is missing, build, then run the app or the tests.
#   sh packaging/dev.sh run [app arguments]   build and open ClusterPlanner on its default scenario
#   sh packaging/dev.sh test                  build and run the whole CTest suite, then build it again under
#                                             ASan + UBSan, run it there and give every fuzz target a short run
#                                             (docs/robustness.md); non-zero exit on any failure. From a fresh
#                                             clone on 2 cores: about 28 min for the first stage, 18 for the
#                                             second. CLUSTERPLANNER_SANITIZE=0 skips the second stage for a quick
#                                             local run; CI (.ci/run) always runs both.
set -eu
mode=${1:-}
[ $# -gt 0 ] && shift
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"

packages="cmake ninja-build g++ pkg-config qt6-base-dev libqt6sql6-sqlite qt6-svg-dev libqcustomplot-dev \
nlohmann-json3-dev libcli11-dev libsqlite3-dev libtoml11-dev libyaml-cpp-dev xvfb xauth poppler-utils clang-format \
clang libfuzzer-14-dev dpkg-dev"

install_missing() {
    missing=""
    for p in $packages; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
    done
    [ -z "$missing" ] && return 0
    echo "Installing missing Debian packages:$missing"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends \
        -o DPkg::Lock::Timeout=600 $missing
}

build() {
    cmake --preset dev -S "$root" >/dev/null
    cmake --build --preset dev
}

# The same suite under ASan + UBSan (preset dev-asan, clang), then a short run of every fuzz target from that build.
sanitized() {
    echo "== dev-asan: configure, build, test, fuzz"
    cmake --preset dev-asan -S "$root" >/dev/null || return 1
    (cd "$root" && cmake --build --preset dev-asan) || return 1
    status=0
    (cd "$root" && ctest --preset dev-asan -j2) || status=1
    (cd "$root/build-asan" && ctest -L fuzz -j2 --output-on-failure) || status=1
    return $status
}

case "$mode" in
run)
    install_missing
    build
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
        echo "No display found (DISPLAY and WAYLAND_DISPLAY are unset), so the window cannot open." >&2
        echo "Run it in a virtual X server instead:" >&2
        echo "  xvfb-run -a -s '-screen 0 1600x1000x24' $build/app/clusterplanner --screenshot shot.png" >&2
        exit 2
    fi
    exec "$build/app/clusterplanner" "$@"
    ;;
test)
    started=$(date +%s)
    install_missing
    build
    failed=0
    (cd "$build" && ctest --output-on-failure -j2 "$@") || failed=1
    echo "== dev suite done after $(($(date +%s) - started)) s"
    if [ "${CLUSTERPLANNER_SANITIZE:-1}" != 0 ]; then
        sanitized || failed=1
    fi
    echo "== test command done after $(($(date +%s) - started)) s"
    exit $failed
    ;;
*)
    echo "usage: sh packaging/dev.sh run|test" >&2
    exit 64
    ;;
esac
