#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Instructions per routing decision, counted by callgrind: stable on a
# loaded machine, unlike nanoseconds.  dpsim bench --decisions N runs
# exactly N failure-free decisions of one mode through bench_decide(),
# and callgrind collects inside that function only.
#
# Usage: tools/dpsim/bench-callgrind.sh   (needs valgrind)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
make -s -C "$here" dpsim
N=100000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "callgrind, instructions per decision ($N failure-free decisions):"
for nk in "12 4" "48 5"; do
	set -- $nk
	for m in shortest paper; do
		valgrind --tool=callgrind --toggle-collect=bench_decide \
			--callgrind-out-file="$tmp/cg.out" "$here/dpsim" bench \
			-n "$1" -k "$2" --mode "$m" --decisions $N \
			> /dev/null 2>&1
		ir=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$tmp/cg.out")
		echo "  ($1,$2) $m: $((ir / N)) instructions"
	done
done
