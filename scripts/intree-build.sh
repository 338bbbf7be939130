#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build dpillar.ko (and dpillar_test.ko, the KUnit suites) INSIDE a
# kernel tree, as a driver that is part of the kernel is built: the
# sources under net/dpillar/ and include/uapi/linux/, net/Kconfig and
# net/Makefile naming them, CONFIG_DPILLAR=m and CONFIG_DPILLAR_KUNIT_TEST=m
# in the tree's .config, then "make net/dpillar/dpillar.ko" (one
# directory's modules, against the tree's built vmlinux), W=1 and sparse:
# any warning fails.  make check does this with the debug kernel's tree
# (scripts/debug-kernel.sh, built from Debian's linux-source-6.12) in
# place of an out-of-tree build against it, and the debug guests load
# what it built; the Debian kernels' headers get the out-of-tree build
# (scripts/build-modules.sh).
#
# The tree is changed once and for good (the two lines, the .config;
# the kernel image is not rebuilt: nothing built into it depends on
# the two options) and its net/dpillar/ and include/uapi/linux/dpillar*
# are symbolic links to this checkout, refreshed on every run.  Under
# debug-kernel.sh's lock: one build in the cached tree at a time.
#
# Usage: scripts/intree-build.sh KDIR [OUT]
#   copies the two modules to OUT/net/dpillar/ (default build/debug, where
#   make check's debug guests load them from) and prints their paths.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
kdir=${1:?usage: $0 KDIR [OUT]}
out=${2:-$repo/build/debug}
kdir=$(cd "$kdir" && pwd)
[ -f "$kdir/Makefile" ] && [ -f "$kdir/net/Kconfig" ] && [ -f "$kdir/.config" ] ||
	{ echo "intree-build: $kdir is not a configured kernel source tree" >&2; exit 1; }
[ -f "$kdir/Module.symvers" ] ||
	{ echo "intree-build: $kdir is not built (no Module.symvers)" >&2; exit 1; }

exec 9>"$(dirname "$kdir")/.lock"
flock 9

# The two lines a driver of net/ adds: a Kconfig inside "if NET", a
# directory in net/Makefile.
grep -q '^source "net/dpillar/Kconfig"' "$kdir/net/Kconfig" ||
	sed -i '/^source "net\/hsr\/Kconfig"/a source "net/dpillar/Kconfig"' \
		"$kdir/net/Kconfig"
grep -q '^source "net/dpillar/Kconfig"' "$kdir/net/Kconfig" ||
	{ echo "intree-build: could not add net/dpillar/Kconfig to net/Kconfig" >&2; exit 1; }
grep -q 'dpillar/' "$kdir/net/Makefile" ||
	printf 'obj-$(CONFIG_DPILLAR)\t\t+= dpillar/\n' >> "$kdir/net/Makefile"

# The sources: net/dpillar/ (a directory of links, so that the objects
# land in the tree, not in the checkout) and the UAPI headers.
mkdir -p "$kdir/net/dpillar"
find "$kdir/net/dpillar" -type l -delete
# make decides by the time stamps of what the links point at: objects
# another checkout built may be newer than this one's sources and would
# be taken as they are.  What was built from elsewhere goes (everything
# but the links is a product of the build).
stamp=$kdir/net/dpillar/.dpillar-src
if [ "$(cat "$stamp" 2>/dev/null)" != "$repo" ]; then
	find "$kdir/net/dpillar" -mindepth 1 ! -type l -delete
	echo "$repo" > "$stamp"
fi
(cd "$repo/net/dpillar" && find . -maxdepth 1 -type f \
	\( -name '*.[ch]' ! -name '*.mod.c' -o -name Kbuild -o -name Kconfig \
	-o -name '*.mk' \)) |
while read -r f; do
	ln -sf "$repo/net/dpillar/${f#./}" "$kdir/net/dpillar/${f#./}"
done
for h in "$repo"/include/uapi/linux/*.h; do
	ln -sf "$h" "$kdir/include/uapi/linux/${h##*/}"
done

# The options, kept by olddefconfig or refused.
if ! grep -q '^CONFIG_DPILLAR=m' "$kdir/.config" ||
   ! grep -q '^CONFIG_DPILLAR_KUNIT_TEST=m' "$kdir/.config"; then
	"$kdir/scripts/config" --file "$kdir/.config" \
		-m DPILLAR -m DPILLAR_KUNIT_TEST
	make -s -C "$kdir" olddefconfig
	grep -q '^CONFIG_DPILLAR_KUNIT_TEST=m' "$kdir/.config" ||
		{ echo "intree-build: olddefconfig dropped CONFIG_DPILLAR*" >&2; exit 1; }
fi

c=0
command -v sparse >/dev/null && c=1
log=$out/intree-build.log
mkdir -p "$out/net/dpillar"
# DPILLAR_TEST_TOPOLOGIES: the tests' fixture topologies (topologies.mk).
if ! make -C "$kdir" W=1 C=$c CF=-D__CHECK_ENDIAN__ DPILLAR_TEST_TOPOLOGIES=y \
	net/dpillar/dpillar.ko net/dpillar/dpillar_test.ko >"$log" 2>&1; then
	cat "$log" >&2
	echo "intree-build: FAILED" >&2
	exit 1
fi
if grep -E 'warning:|error:' "$log" >&2; then
	echo "intree-build: warnings (see $log)" >&2
	exit 1
fi
for m in dpillar dpillar_test; do
	cp "$kdir/net/dpillar/$m.ko" "$out/net/dpillar/$m.ko"
done
echo "intree-build: ok ($out/net/dpillar/dpillar.ko, $out/net/dpillar/dpillar_test.ko)"
