#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Regenerate the numbers and plots of
# Documentation/networking/dpillar-evaluation.rst.
#
# Usage: tools/dpsim/eval.sh [OUTDIR]   (default: tools/dpsim/eval-out)
# Needs python3; the SVG plots need gnuplot (skipped if absent).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${1:-$here/eval-out}
img=$top/Documentation/networking/images
mkdir -p "$out" "$img"
make -s -C "$here" dpsim
D=$here/dpsim
J="python3 $here/jget.py"

# Fig. 4: n = 12, k = 2..6, 100,000 random pairs, paper direction (D = +1)
# and automatic direction; true shortest paths from 4 BFS sources; and the
# shortest mode (default), from the same BFS sources to every server.
echo "# k bound avg_cw max_cw avg_auto max_auto shortest_avg shortest_max" \
	"avg_sp max_sp sp_from_sources sp_not_shortest choices_per_hop" \
	"paths_per_pair" > "$out/fig4.dat"
for k in 2 3 4 5 6; do
	cw=$($D paths -n 12 -k $k --pairs 100000 --seed 1 --mode cw --json)
	au=$($D paths -n 12 -k $k --pairs 100000 --seed 1 --mode paper \
		--shortest --sources 4 --json)
	sp=$($D paths -n 12 -k $k --pairs 100000 --seed 1 --mode shortest \
		--shortest --sources 4 --json)
	echo "$k $(echo "$cw" | $J bound avg_hops max_hops)" \
		"$(echo "$au" | $J avg_hops max_hops shortest_avg shortest_max)" \
		"$(echo "$sp" | $J avg_hops max_hops mode_from_sources_avg \
			mode_not_shortest choices_per_hop \
			shortest_paths_per_pair)" >> "$out/fig4.dat"
done

# Fig. 5: (12,4), 1..300 failed servers, 100,000 random live pairs each.
echo "# failed mode delivered dropped looped avg_hops max_hops avg_stretch" \
	"ring_blocked uturn_blocked helix_blocked tunnel_blocked" \
	"tunnel_budget delivered_connected_pct avg_bfs_hops detour_budget" \
	> "$out/fig5.dat"
for f in 1 $(seq 10 10 300); do
	for dir in cw paper shortest; do
		r=$($D ft --no-discover -n 12 -k 4 --failed $f --pairs 100000 --seed $f \
			--mode $dir --json)
		echo "$f $dir $(echo "$r" | $J delivered dropped looped \
			avg_hops max_hops avg_stretch drops.ring_blocked \
			drops.uturn_blocked drops.helix_blocked \
			drops.tunnel_blocked drops.tunnel_budget \
			delivered_connected_pct avg_bfs_hops \
			drops.detour_budget)" >> "$out/fig5.dat"
	done
done

# Same with failed links only, and with 10 seeds at 300 servers.
echo "# failed_links delivered dropped looped avg_hops max_hops" \
	> "$out/fig5-links.dat"
for l in 10 100 300; do
	r=$($D ft --no-discover -n 12 -k 4 --failed 0 --fail-links $l --pairs 100000 \
		--seed $l --mode paper --json)
	echo "$l $(echo "$r" | $J delivered dropped looped avg_hops \
		max_hops)" >> "$out/fig5-links.dat"
done
echo "# seed delivered dropped looped avg_hops max_hops" \
	> "$out/fig5-seeds.dat"
for s in 1 2 3 4 5 6 7 8 9 10; do
	r=$($D ft --no-discover -n 12 -k 4 --failed 300 --pairs 100000 --seed $s \
		--mode paper --json)
	echo "$s $(echo "$r" | $J delivered dropped looped avg_hops \
		max_hops)" >> "$out/fig5-seeds.dat"
done

# Large networks, sampled: the shortest mode from one BFS source to every
# server (40 million paths for (48,5)), and both modes under failures.
: > "$out/large.txt"
for nk in "48 4" "48 5"; do
	set -- $nk
	$D paths -n $1 -k $2 --pairs 100000 --shortest --sources 1 \
		>> "$out/large.txt"
	for m in paper shortest; do
		$D ft --no-discover -n $1 -k $2 --failed $(( $1 * 100 )) --fail-links 1000 \
			--pairs 100000 --mode $m >> "$out/large.txt"
	done
done

# Beyond the paper: both modes under failures, seeds 1-5, 100,000 pairs
# each (1,000 BFS sources say which pairs are connected).
echo "# case seed mode pairs connected delivered_connected pct avg_hops" \
	"avg_bfs_hops looped drops" > "$out/ft-modes.dat"
for c in "100 0" "200 0" "300 0" "0 300" "300 300" "1000 0"; do
	set -- $c
	for seed in 1 2 3 4 5; do
		for m in paper shortest; do
			r=$($D ft --no-discover -n 12 -k 4 --failed $1 --fail-links $2 \
				--pairs 100000 --seed $seed --mode $m --json)
			echo "$1+$2 $seed $m $(echo "$r" | $J pairs connected \
				delivered_connected delivered_connected_pct \
				avg_hops avg_bfs_hops looped)" \
				"$(echo "$r" | python3 -c 'import json,sys; d=json.load(sys.stdin)["drops"]; print(",".join("%s=%s" % (k, v) for k, v in d.items() if v) or "-")')" \
				>> "$out/ft-modes.dat"
		done
	done
done

# Partially built fabrics: (12,4) with 25, 50, 75% of the servers, in the
# growth order (dpsim plan --order grow) and in a random order.
echo "# pct order mode connected delivered_connected pct avg_hops" \
	"avg_bfs_hops looped" > "$out/partial.dat"
for pct in 25 50 75; do
	for o in grow random; do
		for m in paper shortest; do
			r=$($D ft --no-discover -n 12 -k 4 --populate $pct --order $o \
				--pairs 100000 --seed 1 --mode $m --json)
			echo "$pct $o $m $(echo "$r" | $J connected \
				delivered_connected delivered_connected_pct \
				avg_hops avg_bfs_hops looped)" >> "$out/partial.dat"
		done
	done
done

# XDCent and BCube: ABT under random server failures.
make -C "$here" tests/test_xdcent > /dev/null
"$here/tests/test_xdcent" abt > "$out/abt-xdcent.dat"

$D bench > "$out/bench.txt"
$D bench -n 12 -k 4 >> "$out/bench.txt"
$D bench -n 48 -k 5 >> "$out/bench.txt"
if command -v valgrind > /dev/null; then
	"$here/bench-callgrind.sh" >> "$out/bench.txt"
fi

if command -v gnuplot > /dev/null; then
	gnuplot -e "dat='$out/fig4.dat'; svg='$img/dpillar-fig4.svg'" \
		"$here/fig4.gp"
	gnuplot -e "dat='$out/fig5.dat'; svg='$img/dpillar-fig5.svg'" \
		"$here/fig5.gp"
	gnuplot -e "dat='$out/fig4.dat'; svg='$img/dpillar-fig4-modes.svg'" \
		"$here/fig4-modes.gp"
	gnuplot -e "dat='$out/fig5.dat'; svg='$img/dpillar-fig5-modes.svg'" \
		"$here/fig5-modes.gp"
	gnuplot -e "dat='$out/abt-xdcent.dat'; svg='$img/xdcent-abt.svg'" \
		"$here/abt-xdcent.gp"
else
	echo "gnuplot not found: plots not regenerated" >&2
fi
cat "$out/fig4.dat" "$out/fig5.dat"

# Space Shuffle (S2): its own script, also runnable alone.
sh "$here/eval-s2.sh" "$out"
