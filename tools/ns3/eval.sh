#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The tables of "Throughput on ns-3" (Documentation/networking/
# dpillar-evaluation.rst): the five topologies at a small size, ABT under
# permutation (seeds 1-3) and all-to-all traffic, FCT of 1 MB flows.
# Run from tools/ns3 after make; one core, about 5 minutes of CPU.
#
# Usage: sh eval.sh [OUTDIR]   (default eval-out; one JSON per run)
set -eu

out=${1:-eval-out}
mkdir -p "$out"
RATE=${RATE:-100Mbps}
TIME=${TIME:-1}

FABRICS='dpillar:--topo dpillar -n 4 -k 3
dcell:--topo dcell -n 4 -k 1
bcube:--topo bcube -n 4 -k 1
bcube-paper:--topo bcube -n 4 -k 1 --mode paper
xdcent:--topo xdcent -n 3 -k 2 -i 2
s2:--topo s2 --nodes 24 -n 4 --spaces 2'

row() {
	python3 - "$@" <<'EOF'
import json, sys
name, files = sys.argv[1], sys.argv[2:]
ds = [json.load(open(f)) for f in files]
m = lambda k: sum(d[k] for d in ds) / len(ds)
d = ds[0]
print('%-12s %-24s %4d %5d  %7.3f  %7.3f  %7.3f  %6.4f  %s' % (
    name, d['describe'], d['servers'], d['flows'], m('abt_links'),
    m('abt_fluid_links'), m('aggregate_bps') / d['rate_bps'], m('jain'),
    ' '.join('%.3f' % x['abt_links'] for x in ds) if len(ds) > 1 else ''))
EOF
}

echo "rate $RATE, $TIME s simulated (measured after a fifth)"
echo "name         fabric                   srv  flows  ABT      fluid    aggr     Jain    (per seed)"
echo "$FABRICS" | while IFS=: read -r name args; do
	# shellcheck disable=SC2086
	for s in 1 2 3; do
		./dpns3 $args --rate "$RATE" --time "$TIME" --seed $s --json \
			> "$out/$name-perm-$s.json"
	done
	row "$name perm" "$out/$name-perm-1.json" "$out/$name-perm-2.json" \
		"$out/$name-perm-3.json"
	# shellcheck disable=SC2086
	./dpns3 $args --rate "$RATE" --time "$TIME" --traffic all --json \
		> "$out/$name-all.json"
	row "$name all" "$out/$name-all.json"
done

echo
echo "permutation of 1 MB flows (seed 1): completed, FCT mean, p50, p99, max (ms)"
echo "$FABRICS" | while IFS=: read -r name args; do
	# shellcheck disable=SC2086
	./dpns3 $args --rate "$RATE" --time 2 --bytes 1000000 --json \
		> "$out/$name-fct.json"
	python3 - "$name" "$out/$name-fct.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[2]))
print('%-12s %3d/%-3d  %7.1f  %7.1f  %7.1f  %7.1f' % (
    sys.argv[1], d['completed'], d['flows'], d['fct_mean'] * 1e3,
    d['fct_p50'] * 1e3, d['fct_p99'] * 1e3, d['fct_max'] * 1e3))
EOF
done
