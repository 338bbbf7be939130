#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Graph-level capacity: the S2 paper's Fig. 9 (bisection), Fig. 10 (ideal
# throughput), Fig. 11 (forwarding state) and the tables of "Choosing a
# fabric" in Documentation/networking/dpillar-evaluation.rst.
# Usage: tools/dpsim/eval-throughput.sh [OUTDIR] [PART...]
#   PART: fig9 fig10 fig11 fabric (default: all); OUTDIR default
#   tools/dpsim/eval-out/throughput.  About 15 min of one core in all
#   (fig10's LPs ~6, fig9's S2 generation at 2,880 switches ~1.5).
# Needs python3-networkx and python3-scipy (scripts/deps.sh); the plots
# need gnuplot.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${1:-$here/eval-out/throughput}
[ $# -gt 0 ] && shift
parts=${*:-fig9 fig10 fig11 fabric}
img=$top/Documentation/networking/images
mkdir -p "$out" "$img"
make -s -C "$here" dpsim
D=$here/dpsim
# Debian's python3 (the one python3-networkx and python3-scipy are for)
# when the python3 first in PATH lacks them.
P=${PYTHON:-python3}
$P -c 'import networkx, scipy' 2>/dev/null || P=/usr/bin/python3
B="$P $here/eval-s2bw.py"
J="$P $here/jget.py"
cache=$out/plans

want() { case " $parts " in *" $1 "*) return 0;; esac; return 1; }

# Fig. 9: S2 (dpsim's generator) and Jellyfish at the paper's two
# server-to-switch ratios, 16 inter-switch ports (our core's most,
# DP_MAX_PORTS: the paper's 24- and 48-port switches have 19.2 and 35.2);
# Jellyfish also with the paper's own ports; the two fat trees.  20 random
# halvings per network; seeds 1..3 below 1,440 switches, seed 1 above
# (dpsim's S2 generator is O(N^2): 80 s at 2,880).
if want fig9; then
	f=$out/fig9.dat
	echo "# ratio fabric switches ports seed servers server_min server_mean switch_min switch_mean" > "$f"
	row() { # ratio fabric switches ports servers_per_switch total seed [k]
		a="bisect --fabric ${2%-*} --switches $3 --ports $4 --servers $5 --total-servers $6 --seed $7 --partitions 20 --cache $cache --json"
		[ "$2" = fattree ] && a="bisect --fabric fattree -k $8 --partitions 20 --seed $7 --json"
		# (sh has no locals: these names are the loops' own)
		rs=$($B $a | $J servers min mean)
		rw=$($B $a --switch-level | $J min mean)
		echo "$1 $2 $3 $4 $7 $rs $rw" >> "$f"
	}
	# series RATIO PORTS SERVERS_PER_SWITCH SWITCHES...: S2 and
	# Jellyfish at RATIO servers per switch (total RATIO x switches)
	series() {
		sr=$1 sp=$2 ss=$3
		shift 3
		for n in "$@"; do
			h=$(echo "$n * $sr / 1" | bc)
			for s in 1 2 3; do
				[ $n -ge 1440 ] && [ $s -gt 1 ] && continue
				row $sr s2 $n $sp $ss $h $s
				row $sr jellyfish $n $sp $ss $h $s
			done
		done
	}
	series 4.8 21 5 90 180 360 720 1440
	row 4.8 jellyfish-24 720 24 5 3456 1
	row 4.8 fattree 720 24 6 3456 1 24
	series 12.8 29 13 360 720 1440 2880
	row 12.8 jellyfish-48 2880 48 13 27648 1
	row 12.8 fattree 2880 48 24 27648 1 48
	sed -i 's/ jellyfish-\(24\|48\) / jellyfish-paper /' "$f"
fi

# Fig. 10: 125 switches of 10 ports, 1..8 servers each (inter-switch
# ports 9..2, L = ports/2), one random permutation per network, seeds 1
# and 2 (the network and the permutation).
# The LP over the 8 shortest paths of each switch pair (Jellyfish's
# formulation; a lower bound): the exact edge LP (any path, the paper's
# CPLEX model) takes 10 s of CPU at 3 servers per switch but over a
# minute at 1, so it is run at 3 only, to size the gap.
if want fig10; then
	f=$out/fig10.dat
	echo "# fabric servers_per_switch seed servers throughput per_server" > "$f"
	for s in 1 2 3 4 5 6 7 8; do
		for fab in s2 jellyfish; do
			for seed in 1 2; do
				r=$($B thru --fabric $fab --switches 125 --ports 10 --servers $s --seed $seed --paths 8 --cache $cache --json |
					$J servers throughput per_server)
				echo "$fab $s $seed $r" >> "$f"
			done
		done
	done
	for fab in s2 jellyfish; do
		r=$($B thru --fabric $fab --switches 125 --ports 10 --servers 3 --seed 1 --cache $cache --json |
			$J servers throughput per_server)
		echo "# exact $fab 3 1 $r" >> "$f"
	done
fi

# Fig. 11: 10 inter-switch ports (12-port switches, 2 servers), S2's
# 2-hop coordinates vs per-destination shortest-path tables and
# Jellyfish's 8-shortest-path MPLS entries (mean estimated from 30 random
# pairs per size: Yen's algorithm is what took the authors hours).
if want fig11; then
	f=$out/fig11.dat
	echo "# switches s2_mean s2_max shortest_path_table jellyfish_ksp8_mean" > "$f"
	for n in 100 200 400 800 1600; do
		a=$($B state --fabric s2 --switches $n --ports 12 --servers 2 --cache $cache --json |
			$J s2_mean s2_max shortest_path_table)
		b=$($B state --fabric jellyfish --switches $n --ports 12 --servers 2 -k 8 --pairs 30 --json |
			$J ksp_mean)
		echo "$n $a $b" >> "$f"
	done
fi

# Choosing a fabric: each topology at about 1,000, 10,000 and 100,000
# servers.  Paths: 20,000 random pairs, BFS from 20 sources; faults: 5% of
# the cables failed at random, 20,000 pairs from 200 sources; bisection:
# server-level max-flow over 5 random halvings (2 at 100,000: fabric.dat's
# last column, the chapter's former column) and eval-s2bw.py cuts
# (cuts-*.txt, the chapter's "Bisection"; the 10,000 set takes minutes);
# eval-s2bw.py inventory (inventory-1k.txt, "Per cable, per port, per
# dollar").
if want fabric; then
	f=$out/fabric.dat
	echo "# name size servers switches avg max bfs_avg bfs_max ft_delivered_conn_pct ft_avg bisect_min_per_half" > "$f"
	one() { # name size dpsim-args bisect-args cables partitions
		p=$($D paths $3 --pairs 20000 --seed 1 --shortest --sources 20 --json |
			$J servers switches avg_hops max_hops shortest_avg shortest_max)
		fl=$(($5 / 20))
		t=$($D ft --no-discover $3 --failed 0 --fail-links $fl --pairs 20000 --sources 200 --seed 1 --json |
			$J delivered_connected_pct avg_hops)
		b=$($B bisect $4 --partitions $6 --json | $J min_per_half)
		echo "$1 $2 $p $t $b" >> "$f"
	}
	# cables: servers x NIC ports (DCell's level >= 1 links join two
	# servers: servers x k / 2 of them, plus one per server to its switch)
	one dpillar 1k "-n 8 -k 4" "--fabric dpillar -n 8 -k 4" $((1024 * 2)) 5
	one dpillar 10k "-n 30 -k 3" "--fabric dpillar -n 30 -k 3" $((10125 * 2)) 5
	one dpillar 100k "-n 26 -k 4" "--fabric dpillar -n 26 -k 4" $((114244 * 2)) 2
	one dcell 1k "--topo dcell -n 31 -k 1" "--fabric dcell -n 31 -k 1" $((992 + 992 / 2)) 5
	one dcell 10k "--topo dcell -n 9 -k 2" "--fabric dcell -n 9 -k 2" $((8190 * 2)) 5
	one dcell 100k "--topo dcell -n 16 -k 2" "--fabric dcell -n 16 -k 2" $((74256 * 2)) 2
	one bcube 1k "--topo bcube -n 10 -k 2" "--fabric bcube -n 10 -k 2" $((1000 * 3)) 5
	one bcube 10k "--topo bcube -n 10 -k 3" "--fabric bcube -n 10 -k 3" $((10000 * 4)) 5
	one bcube 100k "--topo bcube -n 10 -k 4" "--fabric bcube -n 10 -k 4" $((100000 * 5)) 2
	one xdcent 1k "--topo xdcent -n 10 -k 2 -i 2" "--fabric xdcent -n 10 -k 2 -i 2" $((1000 * 3)) 5
	one xdcent 10k "--topo xdcent -n 10 -k 2 -i 3" "--fabric xdcent -n 10 -k 2 -i 3" $((10000 * 3)) 5
	one xdcent 100k "--topo xdcent -n 10 -k 2 -i 4" "--fabric xdcent -n 10 -k 2 -i 4" $((100000 * 3)) 2
	# S2: 24-port ToRs, 8 servers and 16 fabric ports (L = 8) each;
	# switch hops (server-to-server: + 2 links), every ordered pair
	f2=$out/fabric-s2.dat
	echo "# name size switches servers bfs_avg 2hop_avg 2hop_max ft_success ft_shortcut bisect_min_per_half" > "$f2"
	for n in 125 1250; do
		$B bisect --fabric s2 --switches $n --ports 24 --servers 8 --partitions 5 --cache $cache --json > "$out/s2b.json"
		b=$($J min_per_half < "$out/s2b.json")
		# the same cabling as the bisection: read back from the cache
		topo=$cache/s2-$n-24-8-1.Topo
		p=$($D paths --topo s2 --file "$topo" --json | $J bfs_avg 2hop_avg 2hop_max)
		t=$($D ft --topo s2 --file "$topo" --fail-frac 0.05 --json | $J success shortcut_success)
		echo "s2 $n $n $((n * 8)) $p $t $b" >> "$f2"
	done
	rm -f "$out/s2b.json"
	# Bisection: the least cuts found and the lower bounds (structured,
	# Kernighan-Lin, random halvings, congestion; "Bisection" in the
	# chapter); 100,000: structured and random halvings only
	$B cuts --set 1k --cache $cache > "$out/cuts-1k.txt"
	$B cuts --set 10k --cache $cache > "$out/cuts-10k.txt"
	$B cuts --set 100k --method paper,structured,random > "$out/cuts-100k.txt"
	# Per cable, per port, per dollar: counts, cost at the DPillar
	# paper's Table I prices, the TCP and bisection figures normalised
	$B inventory --set 1k --cache $cache > "$out/inventory-1k.txt"
	# S2 growth: 13 ToRs added to a plan of 125 (16 ports, L = 8)
	$D plan --topo s2 --fabric plan --ports 16 --spaces 8 --seed 1 --nodes 125 --grow 13 |
		grep '^# grown' > "$out/s2-grow.txt"
fi

if command -v gnuplot > /dev/null; then
	want fig9 && gnuplot -e "dat='$out/fig9.dat'; svg='$img/s2-fig9.svg'" "$here/s2-fig9.gp"
	want fig10 && gnuplot -e "dat='$out/fig10.dat'; svg='$img/s2-fig10.svg'" "$here/s2-fig10.gp"
	want fabric && gnuplot -e "dat='$out/fabric.dat'; svg='$img/fabric-choice.svg'" "$here/fabric-choice.gp"
	want fig11 && gnuplot -e "dat='$out/fig11.dat'; svg='$img/s2-fig11.svg'" "$here/s2-fig11.gp"
else
	echo "gnuplot not found: plots not regenerated" >&2
fi
echo "wrote $out"
