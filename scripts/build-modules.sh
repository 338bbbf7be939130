#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build dpillar.ko against each Debian kernel, W=1 and sparse, each in its
# own tree build/<abi>/ (a tree of symlinks to the sources, so the builds
# neither collide nor dirty the checkout).  Any compiler or sparse warning
# fails the build.
#
# Usage: scripts/build-modules.sh [ABI | NAME=KDIR ...]
#   ABI        a Debian kernel (its linux-headers); default: those of deps.sh
#   NAME=KDIR  any other kernel build tree, e.g. the debug kernel's
#              (scripts/debug-kernel.sh), built in build/NAME/
# Prints build/<abi>/net/dpillar/dpillar.ko paths on success.  A kernel
# with CONFIG_KUNIT also gets dpillar_test.ko (the KUnit suites).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
abis=("$@")
if [ ${#abis[@]} -eq 0 ]; then
	read -r -a abis <<<"$(sh "$repo/scripts/deps.sh" --print-abis)"
fi

# Sparse gets its own, stricter check: endianness annotations included.
sparse_flags="-D__CHECK_ENDIAN__"
rc=0
for abi in "${abis[@]}"; do
	case "$abi" in
	*=*) kdir=${abi#*=} abi=${abi%%=*} ;;
	*) kdir=/usr/src/linux-headers-$abi-amd64 ;;
	esac
	out=$repo/build/$abi
	if [ ! -d "$kdir" ]; then
		echo "build: no headers for $abi (run make deps)" >&2
		rc=1
		continue
	fi
	mkdir -p "$out"
	# Refresh the symlink tree: sources may have been added or removed.
	find "$out" -type l -delete
	# Not the *.mod.c of an in-tree "make": modpost writes its own, and
	# through a link it would write into the checkout, shared by every
	# kernel's build.
	(cd "$repo" && find Kbuild net include -name Kbuild -o \
		-name '*.mk' -o -name '*.[ch]' ! -name '*.mod.c' -type f) |
	while read -r f; do
		mkdir -p "$out/$(dirname "$f")"
		ln -sf "$repo/$f" "$out/$f"
	done
	log=$out/build.log
	c=0
	command -v sparse >/dev/null && c=1
	# A kernel with KUnit gets the KUnit test module too.
	kunit=
	grep -qE '^CONFIG_KUNIT=[ym]' "$kdir/include/config/auto.conf" \
		2>/dev/null && kunit=CONFIG_DPILLAR_KUNIT_TEST=m
	# The tests' module: with the test fixture topologies (topologies.mk).
	if ! make -C "$kdir" M="$out" W=1 C=$c CF="$sparse_flags" $kunit \
	     DPILLAR_TEST_TOPOLOGIES=y modules \
	     >"$log" 2>&1; then
		cat "$log" >&2
		echo "build: $abi: FAILED" >&2
		rc=1
		continue
	fi
	if grep -E 'warning:|error:' "$log" >&2; then
		echo "build: $abi: warnings (see $log)" >&2
		rc=1
		continue
	fi
	echo "build: $abi: ok ($out/net/dpillar/dpillar.ko)"
done
exit $rc
