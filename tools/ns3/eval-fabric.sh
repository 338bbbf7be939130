#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# TCP throughput of the five fabrics of "Choosing a fabric"
# (Documentation/networking/dpillar-evaluation.rst) at about 1,000
# servers, on dpns3 (every hop by our routing core): DPillar (8,4), DCell
# (31,1), BCube (10,2), XDCent (10,2,2) and S2 of 125 nodes with 16
# fabric ports (L = 8) and 8 hosts each (the chapter's 24-port ToRs with
# 8 servers: dpns3's S2 node is the ToR, --hosts its servers).  Each in
# its default routing mode, a random permutation (one bulk flow per
# server), 100 Mb/s links, TIME (0.2 s) simulated, throughput measured
# after a fifth, seeds 1, 2, 3 (the permutation; for S2 also the
# network, --s2-seed SEED-1, as eval-baselines.sh).
# Beside TCP's figures: the max-min fair aggregate over the paths the
# packets took (water-filling, every directed link capacity 1; switch
# ports from dpsim plan --csv): what the routing allows, TCP aside; the
# capacity bound (the fabric's directed links over the links a flow
# crosses on average, at most every flow at line rate); and the flows on
# each flow's busiest link, averaged over the flows.
# About 16 minutes of one core (a 0.2 s run is 50-70 s; 15.5 minutes on
# 2026-11-27), the table half a minute more.  Run from
# tools/ns3 after make (it builds ../dpsim/dpsim if missing).
#
# Usage: sh eval-fabric.sh [OUTDIR]   (default eval-out/fabric)
#        SKIP_RUN=1: the table from the JSON only
#        KEEP=1: only the runs whose JSON is missing
#        SEEDS="1 2": the seeds (default 1 2 3)
#        FAIL=1: each fabric with one kind of failure, 5% of its links
#          (dpsim flows --fail-frac 0.05's count: DPillar 102, DCell 74,
#          BCube 150, S2 47) or, XDCent, of its servers (--failed 50)
#        BYTES=B: flows of B bytes (--time 5 unless TIME is set), each
#          fabric's flow completion beside the table, in units of B at
#          the link rate (dpsim flows --fct's)
set -eu

out=${1:-eval-out/fabric}
mkdir -p "$out"
RATE=${RATE:-100Mbps}
BYTES=${BYTES:-}
if [ -n "$BYTES" ]; then TIME=${TIME:-5}; else TIME=${TIME:-0.2}; fi
SEEDS=${SEEDS:-1 2 3}
FAIL=${FAIL:-}
D=../dpsim/dpsim
[ -x "$D" ] || make -s -C ../dpsim dpsim

FABRICS='dpillar:--topo dpillar -n 8 -k 4
dcell:--topo dcell -n 31 -k 1
bcube:--topo bcube -n 10 -k 2
xdcent:--topo xdcent -n 10 -k 2 -i 2
s2:--topo s2 --nodes 125 -n 16 --spaces 8 --hosts 8'

. ./eval-lib.sh

echo "$FABRICS" | while IFS=: read -r name args; do
	case $name in
	s2)	;;
	*)	# shellcheck disable=SC2086
		$D plan $args --csv > "$out/$name-plan.csv" ;;
	esac
	fail=
	if [ -n "$FAIL" ]; then
		case $name in
		dpillar) fail='--fail-links 102' ;;
		dcell) fail='--fail-links 74' ;;
		bcube) fail='--fail-links 150' ;;
		xdcent) fail='--failed 50' ;;
		s2) fail='--fail-links 47' ;;
		esac
	fi
	for s in $SEEDS; do
		extra="$fail${BYTES:+ --bytes $BYTES}"
		[ "$name" = s2 ] && extra="$extra --s2-seed $((s - 1))" &&
			$D paths --topo s2 --switches 125 --ports 24 --servers 8 \
				--spaces 8 --coords derived --fabric derived \
				--seed $((s - 1)) --json > "$out/s2-paths-s$s.json"
		# shellcheck disable=SC2086
		run "$out/$name-s$s.json" "$s" $args $extra --time "$TIME"
	done
done

python3 - "$out" "$SEEDS" <<'EOF' | tee "$out/summary.txt"
import csv, json, os, sys

from evallib import waterfill
out, seeds = sys.argv[1], [int(s) for s in sys.argv[2].split()]
names = ('dpillar', 'dcell', 'bcube', 'xdcent', 's2')


def switches(name):
    """Per server, the switches of its ports (dpsim plan --csv)."""
    sw = {}
    with open('%s/%s-plan.csv' % (out, name)) as f:
        for r in csv.DictReader(f):
            if 'kind' in r:		# DCell: switches and level cables
                if r['kind'] == 'switch':
                    sw.setdefault(r['a'], set()).add(r['switch'])
            elif r['switch_id'] != '4294967295':	# XDCent's free port
                sw.setdefault(r.get('server'), set()).add(
                    (r['switch_col'], r['switch_id']))
    return sw


def links(d, sw):
    """Each flow's directed links: server to switch and switch to server
    (a hop through a switch), a cable's direction (DCell's level cables,
    S2), and with hosts their up and down links."""
    fl = []
    for f in d['flow']:
        if not f.get('rx'):
            fl.append([])	# undelivered (failures): no share
            continue
        p = f.get('path', [])
        ls = [('up', f['src']), ('down', f['dst'])] if d['hosts'] else []
        for a, b in zip(p, p[1:]):
            s = sw.get(a, set()) & sw.get(b, set()) if sw else set()
            assert len(s) <= 1, (a, b, s)
            if s:
                s = s.pop()
                ls += [(a, s), (s, b)]
            else:
                ls.append((a, b))
        fl.append(ls)
    return fl


def cables(name, seed):
    """The fabric's cables (S2: between nodes, its hosts' aside)."""
    if name == 's2':
        return json.load(open('%s/s2-paths-s%d.json' % (out, seed)))['links']
    with open('%s/%s-plan.csv' % (out, name)) as f:
        return sum(r.get('switch_id') != '4294967295'
                   for r in csv.DictReader(f))


def bound(d, fl, c):
    """The capacity bound: every flow at most one link, and all flows
    together at most the fabric's directed links over the links a flow
    crosses on average (host links aside); % of every flow at line rate."""
    used = sum(sum(l[0] not in ('up', 'down') for l in ls) for ls in fl)
    return 100 * min(1.0, 2.0 * c / used)


def busiest(fl):
    """Mean over flows of the flows on the busiest fabric link of each
    (host links aside): what max-min sharing divides a link by."""
    n = {}
    for ls in fl:
        for l in ls:
            n[l] = n.get(l, 0) + 1
    b = [max([n[l] for l in ls if l[0] not in ('up', 'down')] or [1])
         for ls in fl if ls]
    return sum(b) / len(b)


def hops(d):
    """Mean hops (dpsim's: switches crossed, DCell's cables; S2's switch
    hops), of the flows between two servers (S2: two ToRs)."""
    h = [len(f['path']) - 1 for f in d['flow'] if len(f.get('path', [])) > 1]
    return sum(h) / len(h)


def stats(xs):
    return sum(xs) / len(xs), min(xs), max(xs)


d = json.load(open('%s/dpillar-s%d.json' % (out, seeds[0])))
print('%g Mb/s links, %g s simulated, measured after %g s; seeds %s' % (
    d['rate_bps'] / 1e6, d['time'], d['warmup'], ' '.join(map(str, seeds))))
print('fabric           flows  thr %  min-max      max-min  bound  busiest  '
      'ABT    Jain   hops  delivered')
with open(out + '/fabric.dat', 'w') as dat:
    dat.write('# name flows thr thr_min thr_max maxmin bound busiest '
              'abt_links jain hops delivered flows_all\n')
    for name in names:
        ss = [s for s in seeds
              if os.path.exists('%s/%s-s%d.json' % (out, name, s))]
        if not ss:
            continue
        ds = [json.load(open('%s/%s-s%d.json' % (out, name, s))) for s in ss]
        sw = switches(name) if name != 's2' else None
        fls = [links(d, sw) for d in ds]
        thr = [100 * d['aggregate_bps'] / (d['flows'] * d['rate_bps'])
               for d in ds]
        mm = [100 * waterfill([l for l in fl if l]) / d['flows']
              for d, fl in zip(ds, fls)]
        cb = [bound(d, fl, cables(name, s)) for d, fl, s in zip(ds, fls, ss)]
        abt = [d['abt_links'] for d in ds]
        t, m = stats(thr), stats(mm)
        row = (t[0], t[1], t[2], m[0], stats(cb)[0],
               stats([busiest(fl) for fl in fls])[0], stats(abt)[0],
               stats([d['jain'] for d in ds])[0],
               stats([hops(d) for d in ds])[0])
        dl, fs = sum(d['delivered'] for d in ds), sum(d['flows'] for d in ds)
        print('%-16s %4d   %5.1f  %5.1f-%5.1f  %5.1f    %5.1f  %4.2f     '
              '%5.2f  %.3f  %.2f  %d/%d' % (
                  (ds[0]['describe'][:16], ds[0]['flows']) + row + (dl, fs)))
        dat.write('%s %d %.2f %.2f %.2f %.2f %.2f %.3f %.3f %.4f %.3f %d '
                  '%d\n' % ((name, ds[0]['flows']) + row + (dl, fs)))
        print('  per seed %s: thr %s; max-min %s; bound %s; ABT %s' % (
            ','.join(map(str, ss)), ' '.join('%.1f' % x for x in thr),
            ' '.join('%.1f' % x for x in mm), ' '.join('%.1f' % x for x in cb),
            ' '.join('%.2f' % x for x in abt)))
        if ds[0]['bytes']:
            # completion in units of the flow's bytes at the link rate
            u = [d['bytes'] * 8 / d['rate_bps'] for d in ds]
            print('  completion (size / link rate), per seed: ' + '; '.join(
                'completed %d, mean %.3f, p50 %.3f, p99 %.3f, all-flow %.3f'
                % (d['completed'], d['fct_mean'] / x, d['fct_p50'] / x,
                   d['fct_p99'] / x, d['fct_max'] / x)
                for d, x in zip(ds, u)))
EOF
