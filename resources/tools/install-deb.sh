#!/bin/sh
# Installs Debian packages for a C++ run without root:
#   install-deb.sh MIRROR TARGET FLAGS_FILE PACKAGE...
# apt (with its state under /tmp) downloads the packages and the dependencies the image
# lacks, they are unpacked into TARGET, and FLAGS_FILE becomes a g++ response file with the
# include/library paths, an rpath, and the pkg-config flags of the named packages.
set -eu
mirror=$1
target=$2
flags=$3
shift 3
state=/tmp/apt
mkdir -p "$state/lists/partial" "$state/cache/archives/partial" "$state/sources.list.d" "$target"
# The suite of the image itself, so the packages match its libraries.
suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
echo "deb $mirror ${suite:-trixie} main" >"$state/sources.list"
apt_options="-q -o Dir::State::Lists=$state/lists -o Dir::Cache=$state/cache -o Debug::NoLocking=1
    -o Dir::Etc::SourceList=$state/sources.list -o Dir::Etc::SourceParts=$state/sources.list.d"
# shellcheck disable=SC2086
apt-get $apt_options update >/dev/null
# shellcheck disable=SC2086
wanted=$(apt-cache $apt_options depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
    --no-replaces --no-enhances "$@" | grep -v '^ ' | grep -v '^<' | sort -u)
missing=""
for package in $wanted; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $package"
done
cd "$state/cache/archives"
# shellcheck disable=SC2086
[ -z "$missing" ] || apt-get $apt_options download $missing
# apt's lists are not needed any more, nor each package once unpacked: the scratch space holds the unpacked files,
# not three copies of them (Boost: 88 MB of lists, 100 MB of packages, 180 MB unpacked).
rm -rf "$state/lists"
libdir="$target/usr/lib/x86_64-linux-gnu"
modules=""
for package in "$@"; do
    for deb in ./"${package}"_*.deb; do
        [ -e "$deb" ] || continue
        for pc in $(dpkg-deb -c "$deb" | awk '{print $NF}' | grep '\.pc$'); do
            modules="$modules $(basename "$pc" .pc)"
        done
    done
done
for deb in ./*.deb; do
    [ -e "$deb" ] || continue
    dpkg-deb -x "$deb" "$target"
    rm -f "$deb"
done
{
    echo "-I$target/usr/include -I$target/usr/include/x86_64-linux-gnu -L$libdir -Wl,-rpath,$libdir"
    if [ -n "$modules" ]; then
        # shellcheck disable=SC2086
        PKG_CONFIG_PATH="$libdir/pkgconfig:$target/usr/share/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$target" \
            pkg-config --cflags --libs $modules
    fi
} >"$flags"
echo "installed:$missing; pkg-config:$modules" >&2
