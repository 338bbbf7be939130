#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The S2 paper's routing-load figures (Figs. 4, 5, 7) and its path
# length against network size (Fig. 18, S2, Jellyfish and SWDC) for
# Documentation/networking/dpillar-evaluation.rst ("Fig. 4, 5 and 7:
# routing load", "Fig. 18: path length against network size"), through
# eval-s2load.py (dpsim's plan and pairs).  Figs. 4-7: seconds; Fig. 18:
# about 10 minutes of one core (800 switches, 3 rules, 3 seeds); set
# S2LOAD_SIZES to fewer sizes for a quicker run.
# Usage: tools/dpsim/eval-s2load.sh [OUTDIR]  (default: tools/dpsim/eval-out)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${1:-$here/eval-out}
img=$top/Documentation/networking/images
mkdir -p "$out" "$img"
make -s -C "$here" dpsim
# the Python with networkx and scipy (Jellyfish and the fat tree are
# eval-s2bw.py's)
P=${PYTHON:-python3}
$P -c 'import networkx, scipy' 2>/dev/null || P=/usr/bin/python3
E="$P $here/eval-s2load.py"

$E links --seeds 1 --dat "$out/s2-fig4.dat"
$E switches --seeds 1 --dat "$out/s2-fig5.dat"
$E dist --seeds 1 --dat "$out/s2-fig7.dat"
$E fattree -k 12

sizes=${S2LOAD_SIZES:-100,200,300,400,500,600,700,800}
$E length --ports 12 --servers 2 --coords balanced --seeds 1-3 \
	--sizes "$sizes" --mode 2hop-sim --jellyfish > "$out/s2-fig18-2hop-sim.txt"
for r in 1hop 2hop; do
	$E length --ports 12 --servers 2 --coords balanced --seeds 1-3 \
		--sizes "$sizes" --mode $r > "$out/s2-fig18-$r.txt"
done
# seed means: switches 1hop 2hop-sim 2hop bfs jellyfish
awk 'FNR == 1 { f++ } /^#/ { next }
     { n[$1]++; s[f, $1] += $3 }
     f == 2 { b[$1] += $6; j[$1] += $9 }
     END { for (k in n) printf "%d %.4f %.4f %.4f %.4f %.4f\n", k,
		3 * s[1, k] / n[k], 3 * s[2, k] / n[k], 3 * s[3, k] / n[k],
		3 * b[k] / n[k], 3 * j[k] / n[k] }' \
	"$out/s2-fig18-1hop.txt" "$out/s2-fig18-2hop-sim.txt" \
	"$out/s2-fig18-2hop.txt" | sort -n > "$out/s2-fig18-s2.dat"
# SWDC 2D on the same switches (seconds): seed means of each rule and BFS
$E swdc --ports 12 --servers 2 --seeds 1-3 --sizes "$sizes" \
	> "$out/s2-fig18-swdc.txt"
awk '/^#/ { next } { n[$1]++; a[$1] += $3; b[$1] += $6; c[$1] += $9;
		     d[$1] += $12 }
     END { for (k in n) printf "%d %.4f %.4f %.4f %.4f\n", k, a[k] / n[k],
		b[k] / n[k], c[k] / n[k], d[k] / n[k] }' \
	"$out/s2-fig18-swdc.txt" | sort -n > "$out/s2-fig18-swdc.dat"
# switches 1hop 2hop-sim 2hop bfs jellyfish, then SWDC 1hop 2hop-sim 2hop bfs
awk 'NR == FNR { w[$1] = $2 " " $3 " " $4 " " $5; next }
     { print $0, w[$1] }' "$out/s2-fig18-swdc.dat" "$out/s2-fig18-s2.dat" \
	> "$out/s2-fig18.dat"
rm -f "$out/s2-fig18-s2.dat" "$out/s2-fig18-swdc.dat"
cat "$out/s2-fig18.dat"

if command -v gnuplot > /dev/null; then
	for c in random balanced; do
		gnuplot -e "dat='$out/s2-fig4.dat'; svg='$img/s2-fig4-$c.svg'; coords='$c'" \
			"$here/s2-fig4.gp"
	done
	for f in 5 7 18; do
		gnuplot -e "dat='$out/s2-fig$f.dat'; svg='$img/s2-fig$f.svg'" \
			"$here/s2-fig$f.gp"
	done
else
	echo "gnuplot not found: plots not regenerated" >&2
fi
