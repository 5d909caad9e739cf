#!/bin/sh
# deps.sh - install every Debian package kmig needs; idempotent, quiet when
# everything is present.
set -e
pkgs="build-essential git libgit2-dev libsqlite3-dev sqlite3 pkg-config
	coccinelle qemu-system-x86 flex bison bc libelf-dev libssl-dev cpio
	xz-utils ccache libcmocka-dev python3 chromium time zlib1g-dev libdeflate-dev
	clang libclang-rt-14-dev debian-archive-keyring gcc-aarch64-linux-gnu perl
	lava-dispatcher lavacli"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
# Only to install these packages: kmig import keeps its own package lists
# of the Debian suites in $KMIG_HOME/apt and needs nothing of the machine's.
[ -z "$missing" ] && exit 0
echo "deps: installing$missing" >&2
$sudo apt-get update -q >&2
$sudo apt-get install -y -q --no-install-recommends $missing >&2
