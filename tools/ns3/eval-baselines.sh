#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The S2 paper's baselines on ns-3 beside S2 (Documentation/networking/
# dpillar-evaluation.rst, "S2 on ns-3", "Baselines: FatTree, SWDC,
# Jellyfish"): the fabrics of graphs.py run by dpns3 --graph, whose
# routing is computed in the simulator (ECMP, k shortest paths, SWDC's
# greedy), not by our routing core; S2 as in eval-s2.sh, by the core.
#   Fig. 12:     k-ary fat trees (k = 8: 80 switches, 128 servers; k =
#                10: 125, 250) and S2 of the same switches and servers
#                (S2: 80 x (6 fabric ports + 2 host ports), 128 of the
#                160 hosts used; 125 x (8 + 2)), k = 1 and 8 paths;
#   Fig. 13:     SWDC 1D ring, 2D torus, 3D hex torus, 400 switches of 6
#                fabric ports, 1 server each, k = 1, 2, 4, 8, and S2 of
#                the same 400 (the core routes more than 255 S2 nodes
#                since the s2big merge; eval-s2.sh's is 250);
#   Fig. 14, 16: SWDC 2D and Jellyfish, 250 switches of 10 fabric ports,
#                2 servers each (500), k = 1, 2, 4, 8;
#   Fig. 15, 17: the same, 1.6 MB flows, k = 1 and 8;
#   seeds:       Fig. 12, 13 and 14 at k = 1 and 8 for seeds 1, 2, 3:
#                network (graph seed, S2's --s2-seed SEED-1) and
#                permutation both change; k = 2, 4 and Fig. 15, 17 seed 1.
# Links at 100 Mb/s, flows of 1.6 MB, 0.1 s bulk runs, as eval-s2.sh.
# About 40 minutes of CPU (50 on a shared machine).  Run from tools/ns3
# after make.
#
# Usage: sh eval-baselines.sh [OUTDIR]   (default eval-out/baselines)
#        SKIP_RUN=1: tables and plots from the JSON only
#        KEEP=1: only the runs whose JSON is missing
set -eu

out=${1:-eval-out/baselines}
mkdir -p "$out/graphs"
RATE=${RATE:-100Mbps}
TIME=${TIME:-0.1}
BYTES=${BYTES:-1600000}
SEEDS=${SEEDS:-1 2 3}

# graph NAME SEED ARGS...: graphs.py ARGS into $out/graphs/NAME-sSEED
graph() {
	g="$out/graphs/$1-s$2"
	shift 2
	[ -s "$g" ] || python3 graphs.py "$@" > "$g"
}

. ./eval-lib.sh

# Fig. 13: k = 2, 4 at seed 1, k = 1, 8 at every seed
for s in $SEEDS; do
	ks='1 8'
	[ "$s" = 1 ] && ks='1 2 4 8'
	for k in $ks; do
		run "$out/f13-s2-k$k-s$s.json" "$s" --topo s2 --nodes 400 \
			-n 6 --spaces 3 --hosts 1 --s2-seed $((s - 1)) \
			--paths "$k" --time "$TIME"
	done
	for kind in ring torus2d hex3d; do
		graph "swdc-$kind-400" "$s" swdc "$kind" 400 6 1 "$s"
		for k in $ks; do
			run "$out/f13-$kind-k$k-s$s.json" "$s" \
				--graph "$out/graphs/swdc-$kind-400-s$s" \
				--paths "$k" --time "$TIME"
		done
	done
done
# Fig. 14, 16: k = 2, 4 at seed 1, k = 1, 8 at every seed
for s in $SEEDS; do
	graph swdc-250 "$s" swdc torus2d 250 10 2 "$s"
	graph jf-250 "$s" jellyfish 250 10 2 "$s"
	ks='1 8'
	[ "$s" = 1 ] && ks='1 2 4 8'
	for k in $ks; do
		run "$out/f14-swdc-k$k-s$s.json" "$s" \
			--graph "$out/graphs/swdc-250-s$s" --paths "$k" --time "$TIME"
		run "$out/f14-jf-k$k-s$s.json" "$s" \
			--graph "$out/graphs/jf-250-s$s" --paths "$k" --time "$TIME"
		[ "$k" = 1 ] || [ "$k" = 8 ] || continue
		run "$out/f14-s2-k$k-s$s.json" "$s" --topo s2 --nodes 250 \
			-n 10 --spaces 5 --hosts 2 --s2-seed $((s - 1)) \
			--paths "$k" --time "$TIME"
	done
done
# Fig. 15, 17: seed 1
for k in 1 8; do
	run "$out/f15-swdc-k$k-s1.json" 1 --graph "$out/graphs/swdc-250-s1" \
		--paths "$k" --bytes "$BYTES" --time 5
	run "$out/f15-jf-k$k-s1.json" 1 --graph "$out/graphs/jf-250-s1" \
		--paths "$k" --bytes "$BYTES" --time 5
done
# Fig. 12: every seed
for s in $SEEDS; do
	for t in 8 10; do
		graph "ft$t" "$s" fattree "$t"
		if [ "$t" = 8 ]; then
			s2="--nodes 80 -n 6 --spaces 3 --hosts 2 --endpoints 128"
		else
			s2="--nodes 125 -n 8 --spaces 4 --hosts 2"
		fi
		for k in 1 8; do
			run "$out/f12-ft$t-k$k-s$s.json" "$s" \
				--graph "$out/graphs/ft$t-s$s" --paths "$k" \
				--time "$TIME"
			# shellcheck disable=SC2086
			run "$out/f12-s2ft$t-k$k-s$s.json" "$s" --topo s2 $s2 \
				--s2-seed $((s - 1)) --paths "$k" --time "$TIME"
		done
	done
done

python3 - "$out" "$SEEDS" <<'EOF' | tee "$out/summary.txt"
import json, os, sys
out, seeds = sys.argv[1], [int(s) for s in sys.argv[2].split()]


def ld(f):
    p = '%s/%s.json' % (out, f)
    return json.load(open(p)) if os.path.exists(p) else None


def thr(d):
    """Aggregate throughput, % of every flow at line rate (a full-
    bisection network's permutation: the paper's normalisation)."""
    return 100 * d['aggregate_bps'] / (d['flows'] * d['rate_bps'])


def at_max(d):
    b = d['flow_bps']
    return 100 * sum(x >= 0.9 * max(b) for x in b) / len(b)


def stats(xs):
    m = sum(xs) / len(xs)
    return m, min(xs), max(xs)


def row(name, k, runs):
    ds = [d for d in runs if d]
    if not ds:
        return None
    t = stats([thr(d) for d in ds])
    j = stats([d['jain'] for d in ds])
    print('%-10s %d  %5.1f  %5.1f-%5.1f  %d/%d  %.3f  %.3f-%.3f  %5.1f%%  '
          '%s' % (name, k, t[0], t[1], t[2], sum(d['delivered'] for d in ds),
                  sum(d['flows'] for d in ds), j[0], j[1], j[2],
                  at_max(ds[0]), ','.join(str(s) for s, d in
                                          zip(seeds, runs) if d)))
    return t[0], t[1], t[2], j[0]


HDR = ('topology   k  thr %  min-max      deliv    Jain   min-max      '
       '>=0.9max seeds')
print('Fig. 13: SWDC configuration, 400 switches x (6 + 1), bulk %g s'
      % ld('f13-ring-k1-s1')['time'])
print(HDR)
with open(out + '/fig13.dat', 'w') as dat:
    for k in (1, 2, 4, 8):
        v = [row(kind if kind == 's2' else 'swdc-' + kind, k,
                 [ld('f13-%s-k%d-s%d' % (kind, k, s)) for s in seeds])
             for kind in ('ring', 'torus2d', 'hex3d', 's2')]
        dat.write('%d %s\n' % (k, ' '.join('%.2f' % x[0] for x in v)))
print()
print('Fig. 14, 16: 250 switches x (10 + 2), 500 servers, bulk')
print(HDR)
with open(out + '/fig14.dat', 'w') as dat:
    for k in (1, 2, 4, 8):
        line = [str(k)]
        for t in ('s2', 'swdc', 'jf'):
            r = row(t, k, [ld('f14-%s-k%d-s%d' % (t, k, s)) for s in seeds])
            line += ['%.2f %.2f %.2f' % r[:3] if r else '? ? ?']
        dat.write(' '.join(line) + '\n')
for t in ('swdc', 'jf'):
    for k in (1, 8):
        d = ld('f14-%s-k%d-s1' % (t, k))
        with open('%s/fig16-%s-k%d.dat' % (out, t, k), 'w') as r:
            for i, x in enumerate(sorted(d['flow_bps'], reverse=True)):
                r.write('%d %.3f\n' % (i + 1, x / d['rate_bps']))
print()
print('Fig. 15, 17: the network of Fig. 14, %d-byte flows, seed 1'
      % ld('f15-jf-k1-s1')['bytes'])
print('topology   k  completed  all-flow (s)  mean   p50    p99    '
      'in 0.2-0.4 s')
for t in ('swdc', 'jf'):
    for k in (1, 8):
        d = ld('f15-%s-k%d-s1' % (t, k))
        f = sorted(x for x in d['flow_fct'] if x >= 0)
        mid = sum(0.2 <= x <= 0.4 for x in f) / len(d['flow_fct'])
        print('%-10s %d  %4d/%-4d  %.3f         %.3f  %.3f  %.3f  %5.1f%%'
              % (t, k, d['completed'], d['flows'], d['fct_max'],
                 d['fct_mean'], d['fct_p50'], d['fct_p99'], 100 * mid))
        with open('%s/fig17-%s-k%d.dat' % (out, t, k), 'w') as c:
            for i, x in enumerate(f):
                c.write('%.6f %.4f\n' % (x, (i + 1) / len(d['flow_fct'])))
print()
print('Fig. 12: fat-tree configurations, FatTree (ECMP) and S2, bulk')
print(HDR)
with open(out + '/fig12.dat', 'w') as dat:
    for ft in (8, 10):
        for k in (1, 8):
            line = ['"k=%d, %d path%s"' % (ft, k, 's' if k > 1 else '')]
            for t in ('ft', 's2ft'):
                r = row('%s%d' % (t, ft), k, [ld('f12-%s%d-k%d-s%d' % (
                    t, ft, k, s)) for s in seeds])
                line += ['%.2f %.2f %.2f' % r[:3] if r else '? ? ?']
            dat.write(' '.join(line) + '\n')
EOF

if command -v gnuplot > /dev/null; then
	img=../../Documentation/networking/images
	gnuplot -e "dir='$out'; s2='eval-out/s2'; svg='$img/s2-baselines.svg'" \
		s2-baselines.gp
fi
