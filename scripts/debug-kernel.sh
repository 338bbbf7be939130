#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once) the debug kernel the KUnit tests and the debug guest
# selftests run on: Debian's linux-source-6.12 with "make allnoconfig" plus
# selftests/debug-kernel.config (KUnit, KASAN, UBSAN, lockdep, kmemleak,
# debug objects ...; everything the guest needs built in).
#
# The tree is cached outside the repository, in
#   $DPILLAR_CACHE/kernel/<linux-source version>-<key>/
# where key hashes the config fragment and the build recipe below, so a
# second run on the same machine builds nothing.  The newest two trees are
# kept.  The tree is a full kernel build tree: "make -C <tree> M=..." builds
# modules against it, and tools/testing/kunit/kunit.py is in it.
#
# Usage: scripts/debug-kernel.sh [--print] [-j N]
#   (no option)  build if needed; last lines on stdout:
#                  DEBUG_BZIMAGE=<path to bzImage>
#                  DEBUG_KDIR=<kernel build tree>
#   --print      print those two lines without building (exit 1 if the
#                kernel is not built yet)
# Environment: DPILLAR_CACHE (default ~/.cache/dpillar), DPILLAR_JOBS
# (default: number of CPUs).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cache=${DPILLAR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dpillar}
tarball=/usr/src/linux-source-6.12.tar.xz
fragment=$repo/selftests/debug-kernel.config
jobs=${DPILLAR_JOBS:-$(nproc)}
print_only=0

while [ $# -gt 0 ]; do
	case "$1" in
	--print) print_only=1; shift ;;
	-j) jobs=$2; shift 2 ;;
	-h|--help) sed -n '3,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "debug-kernel: unknown option $1" >&2; exit 1 ;;
	esac
done

err() { echo "debug-kernel: $*" >&2; exit 1; }

[ -f "$tarball" ] || err "no $tarball (run make deps)"
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null) ||
	err "linux-source-6.12 is not installed (run make deps)"

# ---- the recipe: everything that shapes the tree is in these functions,
# and their text is part of the cache key.

kmake() {
	nice make -C "$tree" ARCH=x86_64 -j"$jobs" "$@"
}

configure() {
	kmake allnoconfig
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$tree" \
		"$tree/.config" "$fragment"
	kmake olddefconfig
}

# Each option of the fragment must have its value in the final .config.
check_config() {
	local line sym want have bad=0
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*)
			sym=${line%%=*} want=$line ;;
		"# CONFIG_"*" is not set")
			sym=${line#\# } sym=${sym%% *} want='' ;;
		*) continue ;;
		esac
		have=$(grep -E "^$sym=" "$tree/.config" || true)
		if [ "$have" != "$want" ]; then
			echo "debug-kernel: $sym: want '${want:-n}', got '${have:-n}'" >&2
			bad=1
		fi
	done < "$fragment"
	return $bad
}

build() {
	# bzImage, then "modules" (no module is configured: this writes
	# Module.symvers and prepares the tree for external modules).
	kmake bzImage
	kmake modules
}

# ---- cache key and paths

key=$( {
	echo "$srcver"
	sha256sum < "$fragment"
	declare -f kmake configure check_config build
} | sha256sum | cut -c1-12)
name=$(echo "$srcver" | tr -c 'A-Za-z0-9.+\n-' '_')-$key
tree=$cache/kernel/$name
bzimage=$tree/arch/x86/boot/bzImage

report() {
	echo "DEBUG_BZIMAGE=$bzimage"
	echo "DEBUG_KDIR=$tree"
}

if [ -f "$tree/.dpillar-built" ] && [ -f "$bzimage" ]; then
	touch "$tree/.dpillar-built"
	report
	exit 0
fi
[ $print_only = 0 ] || err "debug kernel $name is not built (run $0)"

for c in make gcc flex bison bc xz; do
	command -v "$c" >/dev/null || err "missing $c (run make deps)"
done
[ -f /usr/include/libelf.h ] || err "missing libelf-dev (run make deps)"

mkdir -p "$cache/kernel"
exec 9>"$cache/kernel/.lock"
flock 9	# one build at a time; a second caller waits and reuses it

if [ ! -f "$tree/.dpillar-built" ]; then
	t0=$(date +%s)
	log=$cache/kernel/$name.log
	echo "debug-kernel: building $name in $tree (log: $log)" >&2
	if [ ! -f "$tree/.dpillar-extracted" ]; then
		rm -rf "$tree"
		mkdir -p "$tree"
		tar -xJf "$tarball" -C "$tree" --strip-components=1
		touch "$tree/.dpillar-extracted"
	fi
	: > "$log"
	if ! configure >> "$log" 2>&1; then
		tail -n 40 "$log" >&2
		err "configure failed (log: $log)"
	fi
	check_config || err "options of $fragment did not survive olddefconfig"
	if ! build >> "$log" 2>&1; then
		grep -E 'error|Error' "$log" | head -n 40 >&2
		tail -n 20 "$log" >&2
		err "build failed (log: $log)"
	fi
	touch "$tree/.dpillar-built"
	echo "debug-kernel: built $name in $(( $(date +%s) - t0 )) s" >&2
	# Keep the two most recently used trees.
	ls -1dt "$cache"/kernel/*/.dpillar-built 2>/dev/null | tail -n +3 |
	while read -r stamp; do
		old=$(dirname "$stamp")
		echo "debug-kernel: removing old tree $old" >&2
		rm -rf "$old" "$old.log"
	done
fi
report
