#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Space Shuffle (S2) numbers and plots of
# Documentation/networking/dpillar-evaluation.rst ("Space Shuffle").
# Usage: tools/dpsim/eval-s2.sh [OUTDIR]   (default: tools/dpsim/eval-out)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${1:-$here/eval-out}
img=$top/Documentation/networking/images
data=${S2DATA:-$top/../shared/data/s2}
mkdir -p "$out" "$img"
make -s -C "$here" dpsim
D=$here/dpsim
J="python3 $here/jget.py"
G="--topo s2 --switches 250 --ports 10 --servers 2"

# The authors' networks (switch hops, every ordered pair).
echo "# file bfs 1hop 2hop-sim 2hop(paper wording)" > "$out/s2-topo.dat"
for f in 780.245.14.0 855.245.14.0; do
	[ -r "$data/$f.MSG1.Topo" ] || continue
	r=$($D paths --topo s2 --file "$data/$f.MSG1.Topo" --json)
	echo "$f $(echo "$r" | $J bfs_avg 1hop_avg 2hop-sim_avg 2hop_avg)" \
		>> "$out/s2-topo.dat"
done

# Fig. 2 and Fig. 8: 250 switches of 10 ports, L = 4, 2 servers each;
# balanced (Algorithm 3), random and derived coordinates, seeds 1..5.
echo "# coords seed bfs 1hop 2hop-sim 2hop min_cd_times_n" > "$out/s2-gen.dat"
for c in balanced random derived; do
	for s in 1 2 3 4 5; do
		r=$($D paths $G --coords $c --seed $s --json)
		echo "$c $s $(echo "$r" | $J bfs_avg 1hop_avg 2hop-sim_avg \
			2hop_avg min_cd_times_n)" >> "$out/s2-gen.dat"
	done
done

# Fig. 3: the number of spaces d used by the MCD (L = 5: 250 switches
# of 12 ports, 2 servers each), seed 1.
echo "# d bfs 1hop 2hop-sim 2hop" > "$out/s2-spaces.dat"
for d in 1 2 3 4 5; do
	r=$($D paths --topo s2 --switches 250 --ports 12 --servers 2 --d $d \
		--json)
	echo "$d $(echo "$r" | $J bfs_avg 1hop_avg 2hop-sim_avg 2hop_avg)" \
		>> "$out/s2-spaces.dat"
done

# Fig. 21: failed links, every ordered pair, without and with shortcut
# discovery, three seeds each.
echo "# frac rule seed success shortcut_success_connected looped avg_hops" \
	"shortcut_avg_hops" > "$out/s2-ft.dat"
for f in 0.05 0.10 0.15 0.20 0.25 0.30; do
	for rule in 1hop 2hop-sim 2hop; do
		for s in 1 2 3; do
			r=$($D ft $G --seed $s --fail-frac $f --mode $rule \
				--json)
			echo "$f $rule $s $(echo "$r" | $J success \
				shortcut_success_connected looped avg_hops \
				shortcut_avg_hops)" >> "$out/s2-ft.dat"
		done
	done
done

# Fig. 21's baselines: SWDC (2D torus, greedy on its lattice coordinates,
# each rule) and Jellyfish (its pre-computed shortest path), the graphs
# of tools/ns3/graphs.py (ns-3's "Baselines") with S2's switches, ports
# and cables (8 fabric ports: 1,000 cables), the same failures and seeds.
mkdir -p "$out/graphs"
echo "# frac fabric rule seed success avg_hops" > "$out/s2-ft-base.dat"
for s in 1 2 3; do
	[ -s "$out/graphs/ft-swdc-s$s" ] || python3 "$top/tools/ns3/graphs.py" \
		swdc torus2d 250 8 2 $s > "$out/graphs/ft-swdc-s$s"
	[ -s "$out/graphs/ft-jf-s$s" ] || python3 "$top/tools/ns3/graphs.py" \
		jellyfish 250 8 2 $s > "$out/graphs/ft-jf-s$s"
done
for f in 0.05 0.10 0.15 0.20 0.25 0.30; do
	for s in 1 2 3; do
		for rule in 1hop 2hop-sim 2hop; do
			r=$($D ft --topo s2 --file "$out/graphs/ft-swdc-s$s" \
				--seed $s --fail-frac $f --mode $rule --json)
			echo "$f swdc $rule $s $(echo "$r" | $J success \
				avg_hops)" >> "$out/s2-ft-base.dat"
		done
		r=$($D ft --topo s2 --file "$out/graphs/ft-jf-s$s" --seed $s \
			--fail-frac $f --json)
		echo "$f jellyfish path $s $(echo "$r" | $J success avg_hops)" \
			>> "$out/s2-ft-base.dat"
	done
done

# Fig. 19/20: key-based routing, 100,000 keys, 3 replicas (spaces 1..3),
# networks of 50..500 switches of 10 ports (L = 4).
echo "# switches store_hops retrieve_hops not_home load_mean" \
	"load_max_1space load_max_3spaces_per_replica" > "$out/s2-keys.dat"
for n in 50 100 200 300 400 500; do
	r=$($D keys --topo s2 --switches $n --ports 10 --servers 2 \
		--keys 100000 --d 3 --json)
	echo "$n $(echo "$r" | $J store_avg_hops retrieve_avg_hops not_home \
		load_mean load_max_1space load_max_dspaces_per_replica)" \
		>> "$out/s2-keys.dat"
done
# ... and SWDC 2D (tools/ns3/graphs.py, the same switches, 8 fabric
# ports: 4 lattice, 4 random) beside S2 under each rule: store (greedy to
# one home: also SWDC's retrieve of one replica) and retrieve (S2:
# greediest over 3 spaces; SWDC: greedy to the nearest of its 3 homes).
echo "# switches rule s2_store s2_retrieve swdc_store swdc_retrieve" \
	"swdc_not_home swdc_load_mean swdc_load_max_1space" \
	"swdc_load_max_3_per_replica" > "$out/s2-keys-swdc.dat"
for n in 50 100 200 300 400 500; do
	[ -s "$out/graphs/keys-swdc-$n" ] || python3 "$top/tools/ns3/graphs.py" \
		swdc torus2d $n 8 2 1 > "$out/graphs/keys-swdc-$n"
	for rule in 1hop 2hop-sim 2hop; do
		r=$($D keys --topo s2 --switches $n --ports 10 --servers 2 \
			--keys 100000 --d 3 --mode $rule --json)
		w=$($D keys --topo s2 --file "$out/graphs/keys-swdc-$n" \
			--keys 100000 --d 3 --mode $rule --json)
		echo "$n $rule $(echo "$r" | $J store_avg_hops \
			retrieve_avg_hops) $(echo "$w" | $J store_avg_hops \
			retrieve_avg_hops not_home load_mean load_max_1space \
			load_max_dspaces_per_replica)" >> "$out/s2-keys-swdc.dat"
	done
done

if command -v gnuplot > /dev/null; then
	gnuplot -e "dat='$out/s2-spaces.dat'; svg='$img/s2-spaces.svg'" \
		"$here/s2-spaces.gp"
	awk '!/^#/ { k = $1 " " $2; s[k] += $4; c[k] += $5; n[k]++ }
	     END { for (k in s) print k, s[k] / n[k], c[k] / n[k] }' \
		"$out/s2-ft.dat" | sort -k2,2 -k1,1n > "$out/s2-ft-avg.dat"
	awk '!/^#/ { k = $1 " " $2 "-" $3; s[k] += $5; n[k]++ }
	     END { for (k in s) print k, s[k] / n[k] }' \
		"$out/s2-ft-base.dat" | sort -k2,2 -k1,1n > "$out/s2-ft-base-avg.dat"
	gnuplot -e "dat='$out/s2-ft-avg.dat'; base='$out/s2-ft-base-avg.dat'; svg='$img/s2-ft.svg'" \
		"$here/s2-ft.gp"
	gnuplot -e "dat='$out/s2-keys.dat'; swdc='$out/s2-keys-swdc.dat'; svg='$img/s2-keys.svg'" \
		"$here/s2-keys.gp"
else
	echo "gnuplot not found: plots not regenerated" >&2
fi
cat "$out"/s2-topo.dat "$out"/s2-gen.dat "$out"/s2-spaces.dat \
	"$out"/s2-keys.dat "$out"/s2-keys-swdc.dat
