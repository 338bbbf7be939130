#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Instructions per routing decision, counted by callgrind: stable on a
# loaded machine, unlike nanoseconds.  dpsim bench --decisions N runs
# exactly N failure-free decisions of one mode through bench_decide(),
# at random points of random paths, and callgrind collects inside that
# function only.  One table per topology.
#
# Usage: tools/dpsim/bench-callgrind.sh [TOPOLOGY...]   (needs valgrind)
#        TOPOLOGY: dpillar dcell bcube xdcent s2 (default: all)
#        DPSIM=path: another dpsim binary (an older build, to compare)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${DPSIM:-}" ]; then
	make -s -C "$here" dpsim
	DPSIM=$here/dpsim
fi
N=${N:-100000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# count LABEL MODE DPSIM-ARGS...: one line of a table
count() {
	label=$1 m=$2
	shift 2
	valgrind --tool=callgrind --toggle-collect=bench_decide \
		--callgrind-out-file="$tmp/cg.out" "$DPSIM" bench \
		"$@" --mode "$m" --decisions "$N" > /dev/null 2>&1
	ir=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$tmp/cg.out")
	echo "  $label $m: $((ir / N)) instructions"
}

echo "callgrind, instructions per decision ($N failure-free decisions):"
for topo in ${*:-dpillar dcell bcube xdcent s2}; do
	echo "$topo:"
	case $topo in
	dpillar)
		for nk in "12 4" "48 5"; do
			set -- $nk
			for m in shortest paper; do
				count "($1,$2)" $m -n "$1" -k "$2"
			done
		done ;;
	dcell)
		for nk in "4 2" "8 2"; do
			set -- $nk
			for m in dfr p1 p2; do
				count "($1,$2)" $m --topo dcell -n "$1" -k "$2"
			done
		done ;;
	bcube)
		for nk in "8 3" "16 3"; do
			set -- $nk
			for m in hash paper near; do
				count "($1,$2)" $m --topo bcube -n "$1" -k "$2"
			done
		done ;;
	xdcent)
		for nki in "8 3 2" "16 3 2"; do
			set -- $nki
			for m in hash paper near; do
				count "($1,$2,$3)" $m --topo xdcent -n "$1" \
					-k "$2" -i "$3"
			done
		done ;;
	s2)
		# derived mode: N nodes, P ports, L spaces; seed 1, the
		# fabric of the evaluation's figures (bench's seed before
		# --nodes meant the kernel's default, 0, for every command)
		for npl in "100 6 3" "250 8 4"; do
			set -- $npl
			for m in 2hop 1hop; do
				count "(nodes $1, ports $2, spaces $3)" $m \
					--topo s2 --nodes "$1" -n "$2" \
					--spaces "$3" --seed 1
			done
		done ;;
	*)
		echo "bench-callgrind: unknown topology '$topo'" >&2
		exit 2 ;;
	esac
done
