#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Did a change to the routing core change any route?  Builds
# tests/route_dump.c against the core of git revision BASE (default: the
# merge base with main) and against the work tree, runs both and compares
# their digests of every walk (every topology and routing mode, several
# flow hashes, no view, an empty view, random failures).  The work
# tree's dump runs twice: with the topologies' tables (dp_topo_alloc(),
# as dpsim and the kernel's device route) and without them
# (ROUTE_DUMP_DERIVE=1, the derivation they fall back to).  Exit 0 when
# every route is the same.
#
# Usage: tools/dpsim/tests/route-equal.sh [BASE]
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/../.." && pwd)
base=${1:-$(git -C "$top" merge-base HEAD main)}
CC=${CC:-gcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# build DIR OUT: the dump against the core of the tree at DIR
build() {
	core=$1/net/dpillar
	srcs="$core/topo.c $core/topo_walk.c"
	# the topologies and the test fixtures, which every userspace tool
	# builds in: DP_TOPOLOGIES as topologies.mk makes it (from the
	# list, topologies.h, or in an older tree its own)
	for x in $(printf 'include %s\nall:\n\t@echo $(DP_TOPOLOGIES)\n' \
		"$core/topologies.mk" | make -s -f -); do
		srcs="$srcs $core/topo_$x.c"
	done
	# shellcheck disable=SC2086
	$CC -O2 -std=gnu11 -w -I"$core" -I"$1/tools/dpsim" \
		-I"$1/include/uapi" -o "$2" \
		"$here/tests/route_dump.c" "$1/tools/dpsim/sim.c" $srcs
}

mkdir "$tmp/base"
git -C "$top" archive "$base" net/dpillar tools/dpsim/sim.c \
	tools/dpsim/sim.h include/uapi/linux/dpillar.h | tar -x -C "$tmp/base"
build "$tmp/base" "$tmp/dump-base"
build "$top" "$tmp/dump-new"
"$tmp/dump-base" > "$tmp/base.txt"
"$tmp/dump-new" > "$tmp/new.txt"
ROUTE_DUMP_DERIVE=1 "$tmp/dump-new" > "$tmp/derive.txt"
if ! diff -u "$tmp/base.txt" "$tmp/new.txt"; then
	echo "route-equal: routes differ from $base" >&2
	exit 1
fi
if ! diff -u "$tmp/base.txt" "$tmp/derive.txt"; then
	echo "route-equal: routes without the tables differ from $base" >&2
	exit 1
fi
echo "route-equal: same routes as $(git -C "$top" rev-parse --short "$base"):" \
	"$(tail -n 1 "$tmp/new.txt")"
