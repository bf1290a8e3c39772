#!/usr/bin/env bash
# Clean Debian 12 roots (debootstrap --variant=minbase bookworm) for the checks that prove what a fresh machine needs:
# scripts/check-clean-root (the package list builds and runs the program) and scripts/check-package (the .deb
# installs and runs). Each root is cached under $CLEAN_ROOT_CACHE/NAME/ by the hash of the packages put into it, and
# made again only when that list changes. Needs root (debootstrap, mount, chroot); source scripts/lib/setup.sh first.

CLEAN_ROOT_CACHE=${CLEAN_ROOT_CACHE:-/var/cache/llm-sandbox/clean-root}
# Host folders (or files, whose mount point must exist in the root) bound into the root at the same path, and
# variables set there, by in_root.
IN_ROOT_BINDS=()
IN_ROOT_ENV=()

# in_root ROOT COMMAND...: runs COMMAND in ROOT as root, in a mount namespace of its own (its mounts vanish with it):
# /proc, /dev, the folders of IN_ROOT_BINDS, and nothing of the host's environment but IN_ROOT_ENV.
in_root() {
    local root=$1
    shift
    unshare --mount --propagation private -- bash -c '
        set -e
        root=$1 binds=$2
        shift 2
        mount -t proc proc "$root/proc"
        mount --rbind /dev "$root/dev"
        while IFS= read -r dir; do
            [ -n "$dir" ] || continue
            [ -e "$root$dir" ] || mkdir -p "$root$dir"
            mount --bind "$dir" "$root$dir"
        done <<<"$binds"
        exec chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"' \
        in_root "$root" "$(printf '%s\n' "${IN_ROOT_BINDS[@]}")" "${IN_ROOT_ENV[@]}" "$@"
}

# clean_root NAME PACKAGE...: prints the path of a clean root holding exactly PACKAGE... (none: minbase alone), with
# the host's Debian sources; made when the cache has none for this list, the roots of NAME's older lists removed.
clean_root() {
    local name=$1 key dir
    shift
    key=$(printf '%s\n' bookworm "$@" | sha256sum | cut -c1-16)
    dir=$CLEAN_ROOT_CACHE/$name
    if [ -d "$dir/$key" ]; then
        log "Clean Debian 12 root ($name): $dir/$key (cached)"
    else
        make_clean_root "$dir" "$key" "$@"
    fi
    echo "$dir/$key"
}

make_clean_root() {
    local dir=$1 key=$2 partial=$1/$2.partial log=$1/debootstrap.log
    shift 2
    rm -rf "$partial"
    mkdir -p "$partial"
    log "Making a clean Debian 12 root (debootstrap --variant=minbase bookworm; cached by the package list's hash)"
    debootstrap --variant=minbase bookworm "$partial" http://deb.debian.org/debian >"$log" 2>&1 ||
        fail "debootstrap could not make a Debian 12 root (can this machine reach deb.debian.org?): the end of" \
            "$log reads: $(tail -n 3 "$log" | paste -sd ' ')"
    # The host's Debian sources (its updates and security suites too), so the root gets the versions the host has.
    local file
    rm -f "$partial/etc/apt/sources.list"
    for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
        [ -f "$file" ] && grep -q 'deb\.debian\.org\|security\.debian\.org' "$file" && cp "$file" "$partial$file"
    done
    cp /etc/resolv.conf "$partial/etc/resolv.conf"
    in_root "$partial" apt-get update -q --error-on=any -o Acquire::Retries=4 >"$dir/apt.log" 2>&1 ||
        fail "apt-get update failed in the clean root: $(tail -n 3 "$dir/apt.log" | paste -sd ' ')"
    if [ $# -gt 0 ]; then
        log "Installing exactly these packages in it: $*"
        in_root "$partial" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" \
            >>"$dir/apt.log" 2>&1 ||
            fail "The packages do not install in a clean Debian 12 root: $(grep -E '^E:' "$dir/apt.log" | paste -sd ' ')"
        in_root "$partial" apt-get clean >/dev/null
    fi
    # Only the root of the current list is kept.
    find "$dir" -mindepth 1 -maxdepth 1 -type d ! -name "$key.partial" -exec rm -rf {} +
    mv "$partial" "$dir/$key"
}
