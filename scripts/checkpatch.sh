#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the kernel's checkpatch.pl --strict over the module and UAPI sources.
# checkpatch comes from Debian's linux-source-6.12 tarball: the few files it
# needs are unpacked once into the cache.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cache=${DPILLAR_CACHE:-$HOME/.cache/dpillar}
tarball=$(ls /usr/src/linux-source-6.12.tar.xz 2>/dev/null || true)
[ -n "$tarball" ] || { echo "checkpatch: linux-source-6.12 missing (make deps)" >&2; exit 1; }
dir=$cache/checkpatch-$(stat -c %Y "$tarball")
if [ ! -x "$dir/scripts/checkpatch.pl" ]; then
	mkdir -p "$dir"
	tar -xJf "$tarball" -C "$dir" --strip-components=1 \
		--wildcards '*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'
fi
# kernel-doc, for the /** comments (a cache of an older version of this
# script has checkpatch only).
if [ ! -f "$dir/scripts/kernel-doc" ]; then
	tar -xJf "$tarball" -C "$dir" --strip-components=1 \
		--wildcards '*/scripts/kernel-doc'
fi
cd "$repo"
files=$(git ls-files -co --exclude-standard "net/dpillar/*.[ch]" "include/uapi/linux/*.h")
# --no-tree: out of tree.  The userspace half of the shim header must name
# the C99 types and define the kernel's attribute macros (noinline) with
# __attribute__, so those two checks are off there only.
#
# topologies.h is the list of topologies and the X-macros made of it,
# which take a line's three words whether they use them or not and expand
# to enumerators, initialisers, declarations and case labels: the macro
# checks that do not fit them are off there only (the X-macros live in
# that file and nowhere else).  params.h is the same for the parameters'
# list (five words a line).
# A file found clean is remembered by a key of its path, its content, the
# options and checkpatch's own files ($cache/checkpatch-clean): make check
# on an unchanged file does not run checkpatch on it again (a fresh clone
# of main checks only what changed since the last run on this machine;
# 78 s for the 71 files otherwise).  Only a clean result is kept, so a
# finding is printed every time until it is fixed.
ok=$cache/checkpatch-clean
mkdir -p "$ok"
tool=$(cat "$dir"/scripts/checkpatch.pl "$dir"/scripts/spelling.txt \
	"$dir"/scripts/const_structs.checkpatch | sha256sum | cut -c1-16)
ckey() { # OPTIONS FILE: the key of FILE checked with OPTIONS
	{ echo "$tool $1 $2"; cat "$2"; } | sha256sum | cut -c1-40
}
# check OPTIONS FILE...: checkpatch --strict with OPTIONS over the FILEs
# not known clean; prints its findings, remembers the clean ones.
check() {
	local opts=$1 f todo=() res
	local -A key=()
	shift
	for f in "$@"; do
		key[$f]=$(ckey "$opts" "$f")
		[ -e "$ok/${key[$f]}" ] || todo+=("$f")
	done
	[ ${#todo[@]} -gt 0 ] || return 0
	# shellcheck disable=SC2086
	res=$("$dir/scripts/checkpatch.pl" --strict --no-tree --terse \
		--show-types $opts -f "${todo[@]}" || true)
	echo "$res"
	for f in "${todo[@]}"; do
		grep -q "^$f:" <<<"$res" || touch "$ok/${key[$f]}"
	done
}
# shellcheck disable=SC2046
out=$(
	check "" $(echo "$files" | grep -v -e portable.h -e topologies.h \
		-e params.h)
	check --ignore=COMPLEX_MACRO,MACRO_ARG_UNUSED,MACRO_ARG_REUSE,TRAILING_SEMICOLON,BRACKET_SPACE \
		net/dpillar/topologies.h net/dpillar/params.h
	check --ignore=PREFER_KERNEL_TYPES,PREFER_DEFINED_ATTRIBUTE_MACRO \
		net/dpillar/portable.h
)
if echo "$out" | grep -E ': (ERROR|WARNING|CHECK):'; then
	echo "checkpatch: not clean" >&2
	exit 1
fi
# Every /** comment is kernel-doc that parses: members, parameters and
# return values all described (dp_topo_ops, dp_view and the structures of
# dpillar_types.h are documented member by member).
# shellcheck disable=SC2086
out=$(perl "$dir/scripts/kernel-doc" -none -Wall $files 2>&1 || true)
if [ -n "$out" ]; then
	echo "$out"
	echo "checkpatch: kernel-doc not clean" >&2
	exit 1
fi
echo "checkpatch: $(echo "$files" | wc -w) files clean (checkpatch --strict, kernel-doc -Wall)"
