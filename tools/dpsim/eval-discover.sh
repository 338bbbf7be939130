#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Issue 33 numbers of Documentation/networking/dpillar-evaluation.rst
# ("Delivery whenever a path exists"): each topology's own rules, then
# with dpsim's model of discovery as a generic fallback (ft --discover).
# Five seeds per row, 100,000 random live pairs each (from 1,000 sources).
# Usage: tools/dpsim/eval-discover.sh [OUTDIR]  (default tools/dpsim/eval-out)
# Prints one line per row; OUTDIR/discover-*.json keeps every run.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/eval-out}
mkdir -p "$out"
make -s -C "$here" dpsim
D=$here/dpsim
SEEDS=${SEEDS:-1 2 3 4 5}

# row NAME DPSIM-ARGS...: five seeds, summed.
row() {
	name=$1
	shift
	f=$out/discover-$name.json
	: > "$f"
	for s in $SEEDS; do
		"$D" ft "$@" --seed "$s" --discover --json >> "$f"
		echo >> "$f"
	done
	python3 - "$name" "$f" <<'PY'
import json, sys
name, path = sys.argv[1], sys.argv[2]
runs = [json.loads(l) for l in open(path) if l.strip()]
S = lambda k: sum(r[k] for r in runs)
D = lambda k: sum(r['discover'][k] for r in runs)
conn, fb = S('connected'), D('delivered')
own = S('delivered_connected') - fb
miss = conn - S('delivered_connected')
drops = {}
for r in runs:
    for k, v in r['drops'].items():
        drops[k] = drops.get(k, 0) + v
disc = D('discoveries')
print(f"{name}: connected {conn} own {own} ({100.0 * own / conn:.3f}%) "
      f"with fallback {own + fb} ({100.0 * (own + fb) / conn:.4f}%) "
      f"missed {miss} (ttl {D('miss_ttl')}, unreached {D('miss_unreached')}) "
      f"not connected {S('pairs') - conn} "
      f"fallback hops {D('avg_hops') / len(runs):.2f} vs bfs "
      f"{D('avg_bfs_hops') / len(runs):.2f} "
      f"stretch all {sum(r['avg_hops'] * r['delivered'] for r in runs) / sum(r['avg_bfs_hops'] * r['delivered_connected'] for r in runs):.3f} "
      f"discoveries {disc} frames/disc {D('frames') / disc if disc else 0:.0f} "
      f"entries/server {sum(r['discover']['entries_per_server'] for r in runs) / len(runs):.3f} "
      f"max {max(r['discover']['entries_max'] for r in runs)} "
      f"over64 {max(r['discover']['servers_over_table'] for r in runs)} "
      f"drops {' '.join(f'{k}={v}' for k, v in drops.items() if v)}")
PY
}

row dpillar-300-300 -n 12 -k 4 --failed 300 --fail-links 300
for p in 75 50 25; do
	row dpillar-pop$p -n 12 -k 4 --populate "$p" --order random
done
row dcell-5srv --topo dcell -n 4 -k 2 --failed 21
row dcell-5srv-paper --topo dcell -n 4 -k 2 --failed 21 --mode paper
row dcell-5lnk --topo dcell -n 4 -k 2 --failed 0 --fail-links 63
row dcell-5lnk-paper --topo dcell -n 4 -k 2 --failed 0 --fail-links 63 \
	--mode paper
row xdcent-10srv --topo xdcent -n 4 -k 2 -i 3 --failed 25
row xdcent-k1-5lnk --topo xdcent -n 3 -k 1 -i 2 --failed 0 --fail-links 3
row bcube-10srv --topo bcube -n 4 -k 3 --failed 25
row bcube-5lnk --topo bcube -n 4 -k 3 --failed 0 --fail-links 51
