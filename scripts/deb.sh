#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make deb: the Debian packages dpillar-dkms, dpillar-tools and
# dpillar-iproute2 (the ip plugin) (debian/),
# built from a copy of these sources (scripts/tree-copy.sh) in
# build/deb/dpillar-VERSION, so that the tree itself is left as it is.
#
# The version is scripts/version.sh's, as dpctl -V prints it, with "+"
# for "-" (0.1-720-gabc1234-dirty -> 0.1+720+gabc1234+dirty: a native
# package has no Debian revision; the commit count makes a later commit's
# package an upgrade, scripts/version-check.sh): the top entry of
# debian/changelog takes it, and the copy's VERSION file says it, so that
# the tools and the module DKMS builds (MODULE_VERSION) print it too.  The
# copy's dkms.conf PACKAGE_VERSION is the same version, and the module's
# sources go to /usr/src/dpillar-V (debian/dpillar-dkms.install), so that
# DKMS too sees an upgrade as a new version (dkms status), removes the
# old one's build and builds the new one.  "dkms add ." from the sources
# themselves uses dkms.conf's PACKAGE_VERSION, VERSION's.
#
# Usage: scripts/deb.sh [OUTDIR]   (default: the top of these sources)
# Leaves dpillar-dkms_V_all.deb, dpillar-tools_V_ARCH.deb and
# dpillar-iproute2_V_ARCH.deb in OUTDIR,
# the .changes, .buildinfo, .dsc and source tarball in build/deb/.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$repo}" && cd "${1:-$repo}" && pwd)
v=$(sh "$repo/scripts/version.sh")
dv=$(echo "$v" | tr - +)
top=$repo/build/deb
src=$top/dpillar-$dv
rm -rf "$top"
mkdir -p "$src"
bash "$repo/scripts/tree-copy.sh" "$src"
echo "$v" >"$src/VERSION"
sed -i "s/^PACKAGE_VERSION=.*/PACKAGE_VERSION=\"$dv\"/" "$src/dkms.conf"
sed -i "s|usr/src/dpillar-[^/]*/|usr/src/dpillar-$dv/|" \
	"$src/debian/dpillar-dkms.install"
# The top changelog entry: this version, now.
sed -i "1s/^dpillar ([^)]*)/dpillar ($dv)/" "$src/debian/changelog"
sed -i "0,/^ -- /s/^\( -- .*>  \).*/\1$(LC_ALL=C date -R)/" "$src/debian/changelog"
(cd "$src" && dpkg-buildpackage -us -uc --build=full) >"$top/build.log" 2>&1 || {
	tail -n 40 "$top/build.log" >&2
	echo "deb: dpkg-buildpackage failed (whole log: $top/build.log)" >&2
	exit 1
}
for p in dpillar-dkms dpillar-tools dpillar-iproute2; do
	f=$(ls "$top/${p}_${dv}"_*.deb)
	cp "$f" "$out/"
	echo "$out/$(basename "$f")"
done
