#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The flow-level model's failure table (Documentation/networking/
# dpillar-evaluation.rst, "A flow-level model: ..."): the five ~1,000-
# server fabrics, each with no failure, 5% of its servers down
# (--failed), 5% of its links (--fail-frac 0.05), 5% of its switches
# (--fail-switches), three quarters and half built (--populate 75|50
# --order random), where the fabric has them (S2's derived fabric: none and
# links); max-min aggregate and flow completion (dpsim flows --fct)
# over seeds 1..N (S2: fabric seeds 0..N-1), mean +- the 95% interval's
# half width, one line a run.  Usage: tools/dpsim/eval-flows.sh [ARGS]:
# ARGS go to every run (default --seeds 10; e.g. --no-discover,
# --paths 2, --seeds 3).  About 5 s of one core.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
make -s -C "$here" dpsim
D=$here/dpsim
args=${*:---seeds 10}

# fabric label: dpsim's words: servers / switches failed at 5%
set -- "DPillar (8,4)|-n 8 -k 4|51|13" \
       "DCell (31,1)|--topo dcell -n 31 -k 1|50|2" \
       "BCube (10,2)|--topo bcube -n 10 -k 2|50|15" \
       "XDCent (10,2,2)|--topo xdcent -n 10 -k 2 -i 2|50|15" \
       "S2 125 x 8|--topo s2 --nodes 125 -n 16 --spaces 8 --hosts 8||"
printf '%-16s %-9s %-13s %-12s %-14s %-14s %-15s %s\n' fabric failure \
	"max-min %" delivered "mean" "p50" "p99" "all-flow"
for f in "$@"; do
	name=${f%%|*}
	r=${f#*|}
	words=${r%%|*}
	r=${r#*|}
	nfail=${r%%|*}
	nsw=${r#*|}
	for c in none servers links switches "75% built" "50% built"; do
		case $c in
		none) x= ;;
		servers) x=${nfail:+--failed $nfail} ;;
		links) x='--fail-frac 0.05' ;;
		switches) x=${nsw:+--fail-switches $nsw} ;;
		*) case $words in *s2*) x= ;;
		   *) x="--populate ${c%%%*} --order random" ;; esac ;;
		esac
		[ "$c" = none ] || [ -n "$x" ] || continue
		# shellcheck disable=SC2086
		"$D" flows $words $x $args --fct | tail -2 | awk -v n="$name" \
			-v c="$c" '
		# "X +-H" of a figure (no "+-" with one seed); the counts
		function fig(s, w,   m, a) {
			m = index(s, w " ")
			split(substr(s, m + length(w) + 1), a, /[ ,;%]+/)
			return a[2] ~ /^\+-/ ? a[1] " " a[2] : a[1]
		}
		NR == 1 { mm = fig($0, "max-min"); sub(/.*delivered /, "");
			  split($0, d, " "); del = d[1] "/" d[3] }
		NR == 2 { printf "%-16s %-9s %-13s %-12s %-14s %-14s %-15s %s\n",
			  n, c, mm, del, fig($0, "mean"), fig($0, "p50"),
			  fig($0, "p99"), fig($0, "all-flow") }'
	done
done
