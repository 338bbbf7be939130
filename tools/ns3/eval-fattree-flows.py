#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The fat-tree reference of dpsim flows (dpillar-evaluation.rst, "A
flow-level model"): a k-ary fat tree (graphs.py fattree K, the S2
paper's baseline, dpns3 --graph's), a random permutation of its hosts,
each flow routed by ECMP (at every switch a uniformly random next hop
among those one hop nearer the destination's edge switch: dpns3's
per-switch flow hash, drawn here), --paths K subflows each its own
draw; the max-min fair aggregate over the directed links (host links
up and down, switch cables each way), every link of capacity 1
(evallib.waterfill()), percent of every flow at line rate; mean and 95%
confidence interval (Student's t) over the seeds.

Usage: python3 eval-fattree-flows.py K SEEDS PATHS
  (from tools/ns3; e.g. 16 10 1: 1,024 hosts, seeds 1..10, one path)
"""
import math
import random
import sys

from evallib import waterfill
from graphs import B

# Student's t, 0.975 quantile, df 1..30 (dpsim flows' table).
T975 = [0, 12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646,
        2.3060, 2.2622, 2.2281, 2.2010, 2.1788, 2.1604, 2.1448, 2.1314,
        2.1199, 2.1098, 2.1009, 2.0930, 2.0860, 2.0796, 2.0739, 2.0687,
        2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423]


def run(fab, adj, dist, seed, paths):
    rng = random.Random(seed)
    hosts = [(v, i) for v in range(fab.n) for i in range(fab.hosts[v])]
    to = list(range(len(hosts)))
    for i in range(len(to) - 1, 0, -1):		# Sattolo: one cycle
        j = rng.randrange(i)
        to[i], to[j] = to[j], to[i]
    fl, hops = [], []
    for s, d in enumerate(to):
        (a, _), (b, _) = hosts[s], hosts[d]
        for _ in range(paths):
            ls, v = [('up', s), ('down', d)], a
            while v != b:
                near = [u for u in adj[v] if dist[b][u] == dist[b][v] - 1]
                u = rng.choice(near)
                ls.append((v, u))
                v = u
            hops.append(len(ls) - 2)
            fl.append(ls)
    return 100 * waterfill(fl) / len(to), sum(hops) / len(hops)


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    k, seeds, paths = map(int, argv[1:])
    fab = B['fattree'](k)
    adj = {v: [] for v in range(fab.n)}
    for a, b in fab.edges:
        adj[a].append(b)
        adj[b].append(a)
    dist = {}
    for b in (v for v in range(fab.n) if fab.hosts[v]):
        dist[b], q = {b: 0}, [b]
        for v in q:
            for u in adj[v]:
                if u not in dist[b]:
                    dist[b][u] = dist[b][v] + 1
                    q.append(u)
    xs, hs = zip(*[run(fab, adj, dist, s, paths)
                   for s in range(1, seeds + 1)])
    m = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1)) \
        if len(xs) > 1 else 0
    half = T975[min(len(xs) - 1, 30)] * sd / math.sqrt(len(xs)) \
        if len(xs) > 1 else 0
    print('fat tree k=%d, %d hosts, %d path%s: max-min %.2f%% +-%.2f '
          '(95%% CI, %d seeds); switch hops %.3f' % (
              k, sum(fab.hosts), paths, 's' if paths > 1 else '', m, half,
              len(xs), sum(hs) / len(hs)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
