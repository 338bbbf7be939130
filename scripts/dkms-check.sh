#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The DKMS install the README recommends, exercised without installing
# anything: "dkms add" of a copy of this tree, "dkms build" for each
# kernel whose headers are installed (default: every /lib/modules/*/build
# at or above dkms.conf's BUILD_EXCLUSIVE_KERNEL_MIN), then "dkms remove".
# It never runs "dkms install" and never loads a module.
#
# DKMS's trees are private to the run (--sourcetree, --dkmstree,
# --installtree under a temporary directory, as is the module signing key
# DKMS makes on first use), so /usr/src, /var/lib/dkms and /lib/modules
# are left alone, a dpillar an operator added with DKMS is not touched,
# and a second run does exactly what the first did.
#
# --src DIR: DKMS's sources are DIR (as dpillar-dkms installs them in
# /usr/src/dpillar-VERSION: scripts/deb-check.sh gives its package's,
# extracted), not a copy of this tree.
#
# Usage: scripts/dkms-check.sh [--src DIR] [KERNELRELEASE...]
#        (e.g. 6.1.0-56-amd64)
# Last line "N passed, N failed"; exit status 1 if anything failed.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
from=$repo
if [ "${1:-}" = --src ]; then
	from=$(cd "$2" && pwd) || exit 1
	shift 2
fi
. "$repo/scripts/check-lib.sh"

command -v dkms >/dev/null || { ko "no dkms (make deps installs it)"; finish; }
conf=$from/dkms.conf
name=$(sed -n 's/^PACKAGE_NAME="\(.*\)"$/\1/p' "$conf")
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$conf")
min=$(sed -n 's/^BUILD_EXCLUSIVE_KERNEL_MIN="\(.*\)"$/\1/p' "$conf")
[ -n "$name" ] && [ -n "$ver" ] || { ko "dkms.conf: no PACKAGE_NAME or PACKAGE_VERSION"; finish; }

# The kernels: those asked for, or every one with headers from $min up.
kernels=()
for k in "$@"; do
	[ -z "$k" ] || kernels+=("$k")
done
if [ ${#kernels[@]} = 0 ]; then
	for b in /lib/modules/*/build; do
		[ -e "$b/Makefile" ] || continue
		k=$(basename "$(dirname "$b")")
		[ -z "$min" ] || [ "$(printf '%s\n%s\n' "$min" "$k" | sort -V | head -n 1)" = "$min" ] ||
			continue
		kernels+=("$k")
	done
fi
[ ${#kernels[@]} -gt 0 ] || { ko "no kernel headers at or above ${min:-any} in /lib/modules"; finish; }

# dkms add wants root (as deps.sh, sudo otherwise)
SUDO=()
[ "$(id -u)" -eq 0 ] || SUDO=(sudo)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dkms-check.XXXXXX")
trap '"${SUDO[@]}" rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src" "$tmp/dkms" "$tmp/lib/modules"
# The signing key DKMS generates when the kernel has sign-file: ours, not
# /var/lib/dkms/mok.key (dkms takes these two from the environment too).
D=("${SUDO[@]}" env "mok_signing_key=$tmp/mok.key"
	"mok_certificate=$tmp/mok.pub" dkms --sourcetree "$tmp/src"
	--dkmstree "$tmp/dkms" --installtree "$tmp/lib/modules")

# The sources: a copy of the tree as git sees it (tracked and new files,
# no build output and no .git: what a release tarball holds), or DIR's.
src=$tmp/src/$name-$ver
mkdir -p "$src"
if [ "$from" = "$repo" ]; then
	bash "$repo/scripts/tree-copy.sh" "$src"
else
	cp -a "$from/." "$src"
fi
[ -f "$src/dkms.conf" ] && ok "copied the sources to $src" || { ko "copying the sources"; finish; }
# DKMS copies no .git: the module's version is the VERSION file's
modver=$(cat "$src/VERSION")

if "${D[@]}" add "$name/$ver" >"$tmp/add.log" 2>&1; then
	ok "dkms add $name/$ver"
else
	ko "dkms add $name/$ver"
	cat "$tmp/add.log"
	finish
fi
# Below the minimum DKMS must refuse (exit 77, BUILD_EXCLUSIVE), whatever
# its version: a kernel release just below it, with real headers.
if [ -n "$min" ]; then
	below=$(echo "$min" | awk -F. '{ if ($2 > 0) print $1 "." $2 - 1; else print $1 - 1 ".99" }').0-1-amd64
	"${D[@]}" build "$name/$ver" -k "$below" \
		--kernelsourcedir "/lib/modules/${kernels[0]}/build" >"$tmp/excl.log" 2>&1
	rc=$?
	[ $rc = 77 ] && ok "dkms refuses $below (below BUILD_EXCLUSIVE_KERNEL_MIN $min)" ||
		{ ko "dkms build -k $below: exit $rc, not 77 (BUILD_EXCLUSIVE)"; cat "$tmp/excl.log"; }
fi
# dkms.conf's regex for DKMS 3.0.10 says what the minimum says.
excl=$(sed -n 's/^BUILD_EXCLUSIVE_KERNEL="\(.*\)"$/\1/p' "$conf")
bad=
for r in 5.10.0-30-amd64 6.0.12 6.1.0-56-amd64 6.9.1 6.10.3 \
	6.12.117+deb12-amd64 7.0.0 10.1.0; do
	want=0 got=0
	[ "$(printf '%s\n%s\n' "$min" "$r" | sort -V | head -n 1)" = "$min" ] && want=1
	[[ $r =~ $excl ]] && got=1
	[ $want = $got ] || bad="$bad $r"
done
[ -n "$excl" ] && [ -z "$bad" ] &&
	ok "BUILD_EXCLUSIVE_KERNEL matches the kernels >= $min only" ||
	ko "BUILD_EXCLUSIVE_KERNEL '$excl' disagrees with MIN $min on:${bad:- (none set)}"
for k in "${kernels[@]}"; do
	if "${D[@]}" build "$name/$ver" -k "$k" >"$tmp/build.log" 2>&1; then
		ok "dkms build $name/$ver -k $k"
	else
		ko "dkms build $name/$ver -k $k"
		cat "$tmp/build.log"
		tail -n 30 "$tmp/dkms/$name/$ver/build/make.log" 2>/dev/null
		continue
	fi
	mod=$(find "$tmp/dkms/$name/$ver/$k" -name "$name.ko*" | head -n 1)
	if [ -z "$mod" ]; then
		ko "$k: DKMS kept no $name.ko"
		continue
	fi
	# modinfo reads the file; nothing is loaded
	vm=$(modinfo -F vermagic "$mod" | cut -d ' ' -f 1)
	mv=$(modinfo -F version "$mod")
	[ "$vm" = "$k" ] && ok "$k: $(basename "$mod") vermagic $vm" ||
		ko "$k: vermagic $vm, not $k"
	[ "$mv" = "$modver" ] && ok "$k: MODULE_VERSION $mv (VERSION)" ||
		ko "$k: MODULE_VERSION '$mv', not VERSION $modver"
	# DKMS signs with the run's key where the headers ship sign-file
	echo "# $k: signer '$(modinfo -F signer "$mod")'"
	"${D[@]}" status "$name/$ver" -k "$k" | grep -q ': built' &&
		ok "dkms status: $name/$ver built for $k" ||
		ko "dkms status: $name/$ver not built for $k"
done
if "${D[@]}" remove "$name/$ver" --all >"$tmp/remove.log" 2>&1 &&
   [ -z "$("${D[@]}" status "$name")" ]; then
	ok "dkms remove $name/$ver --all"
else
	ko "dkms remove $name/$ver --all"
	cat "$tmp/remove.log"
fi
finish
