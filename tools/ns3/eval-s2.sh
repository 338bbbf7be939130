#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The S2 paper's packet-level figures on ns-3 (Documentation/networking/
# dpillar-evaluation.rst, "S2 on ns-3: TCP throughput, completion,
# fairness (Fig. 14-17, 22-24)"): TCP NewReno, random permutations of
# hosts behind S2 servers (--hosts), k TCP connections per flow each
# hashed to its own first hop (--paths, the paper's subflows).
#   Fig. 14, 16: 250 servers of 10 fabric ports (L = 5), 2 hosts each
#                (500), bulk flows, k = 1, 2, 4, 8;
#   Fig. 13:     250 servers of 6 fabric ports (L = 3), 1 host each (the
#                paper's SWDC configuration at 400 switches; our core
#                routes at most 255 S2 nodes), bulk, k = 1, 2, 4, 8;
#   Fig. 15, 17: the network of Fig. 14, fixed-size flows, k = 1 and 8;
#   Fig. 22-24:  128 servers of 6 fabric ports (L = 3), 2 hosts each,
#                k = 1, random failed cable ends (0, 5, 10, 20% of the
#                cables' count), bulk and fixed-size flows.
# Links at RATE (100 Mb/s), flows of BYTES (1.6 MB): the paper's 16 MB
# at 1 Gb/s scaled by the same tenth, so times stay comparable while
# there are ten times fewer packets to simulate.  One seed.  About 20
# minutes of one core.  Run from tools/ns3 after make.
#
# Usage: sh eval-s2.sh [OUTDIR]   (default eval-out/s2)
#        SKIP_RUN=1 sh eval-s2.sh: tables and plots from the JSON only
#        KEEP=1 sh eval-s2.sh: only the runs whose JSON is missing
set -eu

out=${1:-eval-out/s2}
mkdir -p "$out"
RATE=${RATE:-100Mbps}
TIME=${TIME:-0.1}
BYTES=${BYTES:-1600000}
SEED=${SEED:-1}
BIG='--topo s2 --nodes 250 -n 10 --spaces 5 --hosts 2'
SWDC='--topo s2 --nodes 250 -n 6 --spaces 3 --hosts 1'
FAIL='--topo s2 --nodes 128 -n 6 --spaces 3 --hosts 2'
CABLES=384	# 128 servers x 6 fabric ports / 2

. ./eval-lib.sh

for k in 1 2 4 8; do
	# shellcheck disable=SC2086
	run "$out/bulk-k$k.json" "$SEED" $BIG --paths $k --time "$TIME"
done
for k in 1 2 4 8; do
	# shellcheck disable=SC2086
	run "$out/swdc-k$k.json" "$SEED" $SWDC --paths $k --time "$TIME"
done
for k in 1 8; do
	# shellcheck disable=SC2086
	run "$out/fct-k$k.json" "$SEED" $BIG --paths $k --bytes "$BYTES" --time 5
done
for pct in 0 5 10 20; do
	links=$((CABLES * pct / 100))
	# shellcheck disable=SC2086
	run "$out/fail-bulk-$pct.json" "$SEED" $FAIL --fail-links $links --time "$TIME"
	# shellcheck disable=SC2086
	run "$out/fail-fct-$pct.json" "$SEED" $FAIL --fail-links $links \
		--bytes "$BYTES" --time 5
done

python3 - "$out" <<'EOF' | tee "$out/summary.txt"
import json, sys

from evallib import waterfill
out = sys.argv[1]
ld = lambda f: json.load(open('%s/%s.json' % (out, f)))


def maxmin(d):
    """Max-min fair (water-filling) aggregate over the paths the packets
    took, every directed link and every host's up and down link of
    capacity 1: what routing allows, TCP aside.  In links."""
    fl = []
    for f in d['flow']:
        p = f.get('path', [])
        ls = [('up', f['src']), ('down', f['dst'])]
        ls += [(p[j], p[j + 1]) for j in range(len(p) - 1)]
        fl.append(ls)
    return waterfill(fl)


def at_max(d):
    """Flows within 10% of the fastest flow (the paper's Fig. 16: "flows
    that achieve the maximum throughput")."""
    b = d['flow_bps']
    return sum(x >= 0.9 * max(b) for x in b) / len(b)


def bulk(name, title, plots):
    print(title + ', bulk, %g s (measured after %g)' % (
        ld(name + '-k1')['time'], ld(name + '-k1')['warmup']))
    print('k  flows conns  thr %   max-min %  ABT    fluid  Jain    '
          '>=0.9 max  walker')
    with open('%s/%s.dat' % (out, name), 'w') as dat:
        for k in (1, 2, 4, 8):
            d = ld('%s-k%d' % (name, k))
            pct = 100 * d['aggregate_bps'] / (d['flows'] * d['rate_bps'])
            mm = 100 * maxmin(d) / d['flows']
            print('%d  %5d %5d  %5.1f  %5.1f      %6.1f %6.1f  %.4f  '
                  '%5.1f%%     %d/%d' % (
                      k, d['flows'], d['connections'], pct, mm,
                      d['abt_links'], d['abt_fluid_links'], d['jain'],
                      100 * at_max(d), d['paths_equal_walk'], d['paths']))
            dat.write('%d %.2f %.2f %.4f\n' % (k, pct, mm, d['jain']))
            if not plots:
                continue
            with open('%s/fig16-k%d.dat' % (out, k), 'w') as r:
                for i, x in enumerate(sorted(d['flow_bps'], reverse=True)):
                    r.write('%d %.3f\n' % (i + 1, x / d['rate_bps']))


bulk('bulk', 'Fig. 14, 16: 250 servers x 2 hosts', True)
print()
bulk('swdc', 'Fig. 13: 250 servers of 6 fabric ports x 1 host', False)
print()
print('Fig. 15, 17: the network of Fig. 14, %d-byte flows'
      % ld('fct-k1')['bytes'])
print('k  completed  all-flow (s)  mean   p50    p99    in 0.2-0.4 s')
for k in (1, 8):
    d = ld('fct-k%d' % k)
    f = sorted(x for x in d['flow_fct'] if x >= 0)
    mid = sum(0.2 <= x <= 0.4 for x in f) / len(d['flow_fct'])
    print('%d  %4d/%-4d  %.3f         %.3f  %.3f  %.3f  %5.1f%%' % (
        k, d['completed'], d['flows'], d['fct_max'], d['fct_mean'],
        d['fct_p50'], d['fct_p99'], 100 * mid))
    with open('%s/fig17-k%d.dat' % (out, k), 'w') as c:
        for i, x in enumerate(f):
            c.write('%.6f %.4f\n' % (x, (i + 1) / len(d['flow_fct'])))
print()
print('Fig. 22-24: 128 servers x 2 hosts, k = 1, failed cable ends')


def hops(d):
    """Mean server hops of the connections that delivered (Fig. 22)."""
    h = [len(f['path']) - 1 for f in d['flow'] if 'path' in f]
    return sum(h) / len(h)


def thr(d, live=False):
    """Aggregate over all flows at line rate (over delivering ones)."""
    return d['aggregate_bps'] / ((d['delivered'] if live else d['flows']) *
                                 d['rate_bps'])


print('fail%  ends  delivered  hops /0%   thr/0%  live/0%  done  '
      'all-flow /0%   mean   /0%')
b0, f0 = ld('fail-bulk-0'), ld('fail-fct-0')
with open(out + '/fig23.dat', 'w') as dat:
    for pct in (0, 5, 10, 20):
        b, f = ld('fail-bulk-%d' % pct), ld('fail-fct-%d' % pct)
        row = (hops(b) / hops(b0), thr(b) / thr(b0),
               thr(b, True) / thr(b0, True), f['fct_max'] / f0['fct_max'],
               f['fct_mean'] / f0['fct_mean'])
        print('%3d    %4d  %3d/%-3d    %.2f %.3f  %.3f   %.3f   %3d   '
              '%.3f    %.3f  %.3f  %.3f' % (
                  pct, b['failed_links'], b['delivered'], b['flows'],
                  hops(b), row[0], row[1], row[2], f['completed'],
                  f['fct_max'], row[3], f['fct_mean'], row[4]))
        dat.write('%d %.4f %.4f %.4f %.4f %.4f\n' % ((pct,) + row))
EOF

if command -v gnuplot > /dev/null; then
	img=../../Documentation/networking/images
	gnuplot -e "dir='$out'; svg='$img/s2-ns3.svg'" s2-ns3.gp
fi
