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
# and automatic direction; true shortest paths from 4 BFS sources.
echo "# k bound avg_cw max_cw avg_auto max_auto shortest_avg shortest_max" \
	> "$out/fig4.dat"
for k in 2 3 4 5 6; do
	cw=$($D paths -n 12 -k $k --pairs 100000 --seed 1 --dir cw --json)
	au=$($D paths -n 12 -k $k --pairs 100000 --seed 1 --dir auto \
		--shortest --sources 4 --json)
	echo "$k $(echo "$cw" | $J bound avg_hops max_hops)" \
		"$(echo "$au" | $J avg_hops max_hops shortest_avg shortest_max)" \
		>> "$out/fig4.dat"
done

# Fig. 5: (12,4), 1..300 failed servers, 100,000 random live pairs each.
echo "# failed dir delivered dropped looped avg_hops max_hops avg_stretch" \
	"ring_blocked uturn_blocked helix_blocked tunnel_blocked" \
	"tunnel_budget" > "$out/fig5.dat"
for f in 1 $(seq 10 10 300); do
	for dir in cw auto; do
		r=$($D ft -n 12 -k 4 --failed $f --pairs 100000 --seed $f \
			--dir $dir --json)
		echo "$f $dir $(echo "$r" | $J delivered dropped looped \
			avg_hops max_hops avg_stretch drops.ring_blocked \
			drops.uturn_blocked drops.helix_blocked \
			drops.tunnel_blocked drops.tunnel_budget)" \
			>> "$out/fig5.dat"
	done
done

# Same with failed links only, and with 10 seeds at 300 servers.
echo "# failed_links delivered dropped looped avg_hops max_hops" \
	> "$out/fig5-links.dat"
for l in 10 100 300; do
	r=$($D ft -n 12 -k 4 --failed 0 --fail-links $l --pairs 100000 \
		--seed $l --json)
	echo "$l $(echo "$r" | $J delivered dropped looped avg_hops \
		max_hops)" >> "$out/fig5-links.dat"
done
echo "# seed delivered dropped looped avg_hops max_hops" \
	> "$out/fig5-seeds.dat"
for s in 1 2 3 4 5 6 7 8 9 10; do
	r=$($D ft -n 12 -k 4 --failed 300 --pairs 100000 --seed $s --json)
	echo "$s $(echo "$r" | $J delivered dropped looped avg_hops \
		max_hops)" >> "$out/fig5-seeds.dat"
done

# Large networks, sampled.
: > "$out/large.txt"
for nk in "48 4" "48 5"; do
	set -- $nk
	$D paths -n $1 -k $2 --pairs 100000 --shortest --sources 1 \
		>> "$out/large.txt"
	$D ft -n $1 -k $2 --failed $(( $1 * 100 )) --fail-links 1000 \
		--pairs 100000 >> "$out/large.txt"
done

$D bench > "$out/bench.txt"
$D bench -n 12 -k 4 >> "$out/bench.txt"
$D bench -n 48 -k 5 >> "$out/bench.txt"

if command -v gnuplot > /dev/null; then
	gnuplot -e "dat='$out/fig4.dat'; svg='$img/dpillar-fig4.svg'" \
		"$here/fig4.gp"
	gnuplot -e "dat='$out/fig5.dat'; svg='$img/dpillar-fig5.svg'" \
		"$here/fig5.gp"
else
	echo "gnuplot not found: plots not regenerated" >&2
fi
cat "$out/fig4.dat" "$out/fig5.dat"
