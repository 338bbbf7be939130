#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# S2 plan mode figures of Documentation/networking/dpillar-evaluation.rst
# ("Plan mode: the kernel's core on the paper's fabrics"): the kernel's
# routing core against s2sim's greedy on kernel plans (dpsim compare), and
# the cables a grown plan changes (dpsim plan --fabric plan --grow).
# Usage: tools/dpsim/eval-s2plan.sh [OUTDIR]   (default: tools/dpsim/eval-out)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${1:-$here/eval-out}
img=$top/Documentation/networking/images
mkdir -p "$out" "$img"
make -s -C "$here" dpsim
D=$here/dpsim
J="python3 $here/jget.py"

# Every ordered pair, each rule, through the core and through s2sim:
# nodes ports spaces, seeds 1..3, failure-free and 10% of the cables
# failed; the BFS average from dpsim paths on the same plan.
echo "# nodes ports spaces seed fail bfs differ(1hop 2hop-sim 2hop)" \
	"core(1hop 2hop-sim 2hop) sim(1hop 2hop-sim 2hop)" \
	"delivered(1hop 2hop-sim 2hop) pairs multipath(differ pairs)" \
	> "$out/s2plan-core.dat"
for nps in "64 8 3" "250 8 4"; do
	set -- $nps
	for s in 1 2 3; do
		for f in 0 0.1; do
			P="--topo s2 --fabric plan --nodes $1 --ports $2 --spaces $3 --seed $s"
			b=$($D paths $P --json | $J bfs_avg)
			r=$($D compare $P --fail-frac $f --json)
			echo "$1 $2 $3 $s $f $b $(echo "$r" | $J 1hop_differ \
				2hop-sim_differ 2hop_differ 1hop_core_avg \
				2hop-sim_core_avg 2hop_core_avg 1hop_sim_avg \
				2hop-sim_sim_avg 2hop_sim_avg 1hop_core_delivered \
				2hop-sim_core_delivered 2hop_core_delivered \
				2hop_pairs multipath_differ multipath_pairs)" \
				>> "$out/s2plan-core.dat"
		done
	done
done

# Growth: N0 nodes grown by M (8 ports, 3 spaces), seeds 1..3: cables
# removed and added, per grown node; the grown plan against a fresh one of
# the same size (2hop average, BFS), and the core on the grown plan.
echo "# n0 m seed removed added per_node bfs_grown 2hop_grown bfs_fresh" \
	"2hop_fresh differ_grown(1hop 2hop-sim 2hop multipath) ring_missing" \
	> "$out/s2plan-grow.dat"
for nm in "32 32" "64 16" "64 64" "128 32" "128 127" "200 55"; do
	set -- $nm
	for s in 1 2 3; do
		P="--topo s2 --fabric plan --ports 8 --spaces 3 --seed $s"
		h=$($D plan $P --nodes $1 --grow $2 | sed -n \
			's/^# grown by [0-9]* nodes: \([0-9]*\) cables removed, \([0-9]*\) added$/\1 \2/p')
		set -- $1 $2 $h
		g=$($D paths $P --nodes $1 --grow $2 --json | $J bfs_avg 2hop_avg)
		fr=$($D paths $P --nodes $(($1 + $2)) --json | $J bfs_avg 2hop_avg)
		c=$($D compare $P --nodes $1 --grow $2 --json |
			$J 1hop_differ 2hop-sim_differ 2hop_differ multipath_differ \
			ring_missing)
		echo "$1 $2 $s $3 $4 $(echo "$3 $4 $2" | awk '{ printf "%.2f", ($1 + $2) / $3 }') $g $fr $c" \
			>> "$out/s2plan-grow.dat"
		set -- $1 $2
	done
done

# Cables changed per grown node against the growth (nodes added / before).
gnuplot <<EOF
set terminal svg size 640,360 font "Helvetica,11"
set output "$img/dpillar-s2plan-grow.svg"
set title "S2 plan mode: cables changed per node added (8 ports, 3 spaces, seeds 1-3)"
set xlabel "nodes added / nodes before (N0 = 32, 64, 128, 200)"
set xrange [0:1.1]
set ylabel "cables removed + added per node"
set yrange [0:14]
set key top right
plot "$out/s2plan-grow.dat" using (\$2 / \$1):(\$4 / \$2) with points pt 7 title "removed", \
     "" using (\$2 / \$1):(\$5 / \$2) with points pt 5 title "added", \
     "" using (\$2 / \$1):6 with points pt 9 title "total", \
     9 with lines dt 2 title "3 per space (the paper's 1 removed + 2 added)"
EOF
cat "$out/s2plan-core.dat" "$out/s2plan-grow.dat"
