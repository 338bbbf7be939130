#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Routing load and path length of Space Shuffle: the S2 paper's Figs. 4,
5, 7 and 18 (dpillar-evaluation.rst, "Fig. 4, 5 and 7: routing load" and
"Fig. 18: path length against network size").

The network and every path come from dpsim, not from a second S2 router
here: "dpsim plan --topo s2" prints the graph and the coordinates (the
authors' .Topo text, coordinates in millionths), "dpsim pairs --topo s2
--mode R" the greediest-routing path of every ordered pair of switches
(dp_s2_greedy(), the kernel's decision function).  This script only
counts.  A link's load is the number of distinct routing paths that use
it (a pair's path is unique, so: the ordered pairs whose path crosses
the link, either way); a switch's is the number of paths that visit it,
its own 2 (N - 1) as source and destination included (a constant: no
correlation changes).

Commands (one line per network, then a summary line):
  links     Fig. 4: heavy (top 10%) and light (bottom 10%) links by load
            against the MCD and the sum of circular distances of their
            endpoints
  switches  Fig. 5: a switch's load against the sum over spaces of the
            log of its control-area size, Pearson's r
  dist      Fig. 7: the distribution of paths per link
  length    Fig. 18: mean switch-to-switch path (and 10th/90th
            percentiles) against the number of switches, with BFS on the
            same graph and on a Jellyfish of the same degree
  swdc      Fig. 18's SWDC: the 2D torus of tools/ns3/graphs.py (the
            paper's SWDC 2D, the rest of the fabric ports random links)
            of the same switches, ports and servers, every ordered pair
            routed greedily on its lattice coordinates by dpsim (ft
            --fail-frac 0 on the graph file) under each rule, and BFS on
            the same graph
  fattree   Fig. 18's FatTree: mean switch-to-switch shortest path of a
            k-port fat tree
"""
import argparse
import importlib.util
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DPSIM = os.environ.get('DPSIM', os.path.join(HERE, 'dpsim'))


def dpsim(args):
    return subprocess.run([DPSIM] + args, check=True, capture_output=True,
                          text=True).stdout


def net_args(o, coords, seed, n=None):
    return ['--topo', 's2', '--switches', str(n or o.switches), '--ports',
            str(o.ports), '--servers', str(o.servers), '--coords', coords,
            '--seed', str(seed)]


class Net:
    """One generated network: coordinates (fractions of the ring, from
    the .Topo text's millionths), cables, and every routed path."""

    def __init__(self, o, coords, seed, n=None, paths=True):
        a = net_args(o, coords, seed, n)
        self.n, self.coords, self.edges = 0, [], []
        for line in dpsim(['plan'] + a).splitlines():
            f = line.split()
            if f[0] == 'N':
                self.n = int(f[1])
                self.coords = [None] * self.n
            elif f[0] == 'E':
                self.edges.append((int(f[1]) - 1, int(f[2]) - 1))
            elif f[0] == 'C':
                self.coords[int(f[1])] = [int(x) / 1e6 for x in f[2:]]
        self.L = len(self.coords[0])
        self.paths = []
        self.hops = []
        if not paths:
            return
        for line in dpsim(['pairs'] + a + ['--mode', o.rule]).splitlines():
            f = line.split()
            if f[2] != 'delivered':
                sys.exit('eval-s2load: %s %s not delivered' % (f[0], f[1]))
            self.hops.append(int(f[3]))
            self.paths.append([int(x) for x in f[4].split(',')])

    def link_load(self):
        load = {tuple(sorted(e)): 0 for e in self.edges}
        for p in self.paths:
            for a, b in zip(p, p[1:]):
                load[(a, b) if a < b else (b, a)] += 1
        return load

    def switch_load(self):
        load = [0] * self.n
        for p in self.paths:
            for v in p:
                load[v] += 1
        return load

    def cds(self, a, b):
        return [cd(x, y) for x, y in zip(self.coords[a], self.coords[b])]

    def control_areas(self, v):
        """Per space, half the circular distances to both ring
        neighbours (the paper's section 4.3)."""
        return [self.areas[sp][v] for sp in range(self.L)]

    def make_areas(self):
        self.areas = []
        for sp in range(self.L):
            order = sorted(range(self.n), key=lambda v: self.coords[v][sp])
            area = [0.0] * self.n
            for i, v in enumerate(order):
                lo = order[i - 1]
                hi = order[(i + 1) % self.n]
                area[v] = (cd(self.coords[lo][sp], self.coords[v][sp]) +
                           cd(self.coords[v][sp], self.coords[hi][sp])) / 2
            self.areas.append(area)


def cd(x, y):
    d = abs(x - y)
    return min(d, 1 - d)


def pearson(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy)


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2
        i = j + 1
    return r


def spearman(xs, ys):
    return pearson(ranks(xs), ranks(ys))


def quantile(sorted_xs, q):
    """The q-quantile, nearest rank (a value that occurs)."""
    i = max(0, min(len(sorted_xs) - 1, math.ceil(q * len(sorted_xs)) - 1))
    return sorted_xs[i]


def mean(xs):
    return sum(xs) / len(xs)


def spread(xs, fmt):
    return (fmt + ' (' + fmt + '..' + fmt + ')') % (mean(xs), min(xs),
                                                    max(xs))


def networks(o):
    for c in o.coords:
        for s in o.seeds:
            yield c, s, Net(o, c, s)


def cmd_links(o):
    print('coords    seed  links  MCD x N: heavy  light  all    '
          'MCD < 1/N: heavy light  '
          'sum CD x N: heavy  light  all    rho(load,MCD) rho(load,sumCD)')
    summ = {}
    dat = open(o.dat, 'w') if o.dat else None
    for c, s, net in networks(o):
        load = net.link_load()
        links = sorted(load, key=lambda e: load[e])
        k = len(links) // 10
        light, heavy = links[:k], links[-k:]
        mcd = {e: min(net.cds(*e)) * net.n for e in links}
        scd = {e: sum(net.cds(*e)) * net.n for e in links}
        ls = [load[e] for e in links]
        r1 = spearman(ls, [mcd[e] for e in links])
        r2 = spearman(ls, [scd[e] for e in links])
        row = (mean([mcd[e] for e in heavy]), mean([mcd[e] for e in light]),
               mean([mcd[e] for e in links]),
               sum(1 for e in heavy if mcd[e] < 1) * 100 / k,
               sum(1 for e in light if mcd[e] < 1) * 100 / k,
               mean([scd[e] for e in heavy]),
               mean([scd[e] for e in light]), mean([scd[e] for e in links]),
               r1, r2)
        summ.setdefault(c, []).append(row)
        print('%-8s  %4d  %5d         %5.3f  %5.3f  %5.3f         '
              '%3.0f%%  %3.0f%%              '
              '%5.1f  %5.1f  %5.1f  %+13.3f %+15.3f' %
              ((c, s, len(links)) + row))
        if dat:
            for cls, es in (('heavy', heavy), ('light', light)):
                for e in es:
                    dat.write('%s %d %s %.6f %.6f %d\n' %
                              (c, s, cls, mcd[e] / net.n, scd[e] / net.n,
                               load[e]))
    for c, v in summ.items():
        print('%-8s  mean (min..max) MCD x N heavy %s, light %s; '
              'rho(load,MCD) %s, rho(load,sumCD) %s' %
              (c, spread([x[0] for x in v], '%.2f'),
               spread([x[1] for x in v], '%.2f'),
               spread([x[-2] for x in v], '%+.2f'),
               spread([x[-1] for x in v], '%+.2f')))
    if dat:
        dat.close()


def cmd_switches(o):
    print('coords    seed  switches  r(load, sum log area)  '
          'rho (Spearman)')
    rs = {}
    dat = open(o.dat, 'w') if o.dat else None
    for c, s, net in networks(o):
        net.make_areas()
        load = net.switch_load()
        sl = [sum(math.log(a) for a in net.control_areas(v))
              for v in range(net.n)]
        if dat:
            for v in range(net.n):
                dat.write('%s %d %d %.4f %d\n' % (c, s, v, sl[v], load[v]))
            dat.write('\n\n')
        r, rho = pearson(load, sl), spearman(load, sl)
        rs.setdefault(c, []).append((r, rho))
        print('%-8s  %4d  %8d  %+21.4f  %+14.4f' % (c, s, net.n, r, rho))
    for c, v in rs.items():
        print('%-8s  mean (min..max) r %s, rho %s' %
              (c, spread([x[0] for x in v], '%+.3f'),
               spread([x[1] for x in v], '%+.3f')))
    if dat:
        dat.close()


QS = (0.1, 0.25, 0.5, 0.75, 0.9, 0.99)


def cmd_dist(o):
    print('coords    seed  links   min  ' +
          '  '.join('q%-3d' % round(q * 100) for q in QS) +
          '   max  >300  r300  r600  hops')
    dat = open(o.dat, 'w') if o.dat else None
    for c, s, net in networks(o):
        ls = sorted(net.link_load().values())
        over = sum(1 for x in ls if x > 300) / len(ls) * 100
        print('%-8s  %4d  %5d  %4d  ' % (c, s, len(ls), ls[0]) +
              '  '.join('%4d' % quantile(ls, q) for q in QS) +
              '  %4d  %3.1f%%  %4d  %4d  %.2f' %
              (ls[-1], over, ls[299], ls[599], mean(net.hops)))
        if dat:
            for i, x in enumerate(ls):
                dat.write('%s %d %d %d\n' % (c, s, i + 1, x))
            dat.write('\n\n')
    if dat:
        dat.close()


def bfs_all(n, edges):
    adj = [[] for _ in range(n)]
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    hops = []
    for s in range(n):
        dist = [-1] * n
        dist[s] = 0
        q = [s]
        for u in q:
            for w in adj[u]:
                if dist[w] < 0:
                    dist[w] = dist[u] + 1
                    q.append(w)
        hops += [d for v, d in enumerate(dist) if v != s]
    return hops


def bw():
    spec = importlib.util.spec_from_file_location(
        'eval_s2bw', os.path.join(HERE, 'eval-s2bw.py'))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def pct(h):
    h = sorted(h)
    return '%.3f %d %d' % (mean(h), quantile(h, 0.1), quantile(h, 0.9))


def cmd_length(o):
    jf = bw().jellyfish if o.jellyfish else None
    print('# switches seed  S2 %s: avg p10 p90  BFS on S2: avg p10 p90'
          '%s' % (o.rule, '  Jellyfish BFS: avg p10 p90' if jf else ''))
    for n in o.sizes:
        for s in o.seeds:
            net = Net(o, o.coords[0], s, n)
            line = '%5d %3d  %s  %s' % (n, s, pct(net.hops),
                                        pct(bfs_all(net.n, net.edges)))
            if jf:
                j = jf(n, o.ports - o.servers, o.servers, s)
                line += '  ' + pct(bfs_all(n, j.edges))
            print(line)
            sys.stdout.flush()


RULES = ('1hop', '2hop-sim', '2hop')


def cmd_swdc(o):
    """SWDC 2D's path length: per size and seed, avg p10 p90 of each
    rule (dpsim's swdc_step(): the paper's SWDC stores its 2-hop
    neighbours), then of BFS on the same graph."""
    gen = os.path.join(HERE, '..', 'ns3', 'graphs.py')
    print('# switches seed  ' +
          '  '.join('SWDC %s: avg p10 p90' % r for r in RULES) +
          '  BFS on SWDC: avg p10 p90')
    for n in o.sizes:
        for s in o.seeds:
            with tempfile.NamedTemporaryFile('w+', suffix='.graph') as f:
                subprocess.run([sys.executable, gen, 'swdc', 'torus2d',
                                str(n), str(o.ports - o.servers),
                                str(o.servers), str(s)], check=True,
                               stdout=f)
                f.flush()
                cols = []
                for r in RULES:
                    j = json.loads(dpsim(['ft', '--topo', 's2', '--file',
                                          f.name, '--fail-frac', '0',
                                          '--mode', r, '--json']))
                    if j['success'] != 1:
                        sys.exit('eval-s2load: swdc %d seed %d %s: not '
                                 'every pair delivered' % (n, s, r))
                    cols.append('%.3f %d %d' % (j['avg_hops'],
                                                j['hops_p10'],
                                                j['hops_p90']))
                f.seek(0)
                edges = [tuple(map(int, ln.split()[1:3]))
                         for ln in f if ln.startswith('link ')]
            print('%5d %3d  %s  %s' % (n, s, '  '.join(cols),
                                       pct(bfs_all(n, edges))))
            sys.stdout.flush()


def cmd_fattree(o):
    """The mean over ordered pairs of distinct edge switches, of edge
    switches with s = t counted (0 hops), and of distinct servers (the
    switch hops between their edge switches, 0 on one switch)."""
    ft = bw().fattree(o.k)
    adj = [[] for _ in range(ft.n)]
    for a, b in ft.edges:
        adj[a].append(b)
        adj[b].append(a)
    edge = [v for v in range(ft.n) if ft.hosts[v]]
    tot = [0, 0, 0, 0]       # all switches, edge pairs, edge with self, servers
    cnt = [0, 0, 0, 0]
    for s in range(ft.n):
        dist = [-1] * ft.n
        dist[s] = 0
        q = [s]
        for u in q:
            for w in adj[u]:
                if dist[w] < 0:
                    dist[w] = dist[u] + 1
                    q.append(w)
        tot[0] += sum(dist)
        cnt[0] += ft.n - 1
        if not ft.hosts[s]:
            continue
        for t in edge:
            if t != s:
                tot[1] += dist[t]
                cnt[1] += 1
            tot[2] += dist[t]
            cnt[2] += 1
            m = ft.hosts[s] * (ft.hosts[t] - (t == s))
            tot[3] += dist[t] * m
            cnt[3] += m
    print('%d-port fat tree: %d switches (%d edge), %d servers' %
          (o.k, ft.n, len(edge), sum(ft.hosts)))
    for what, i in (('switch pairs', 0), ('edge-switch pairs', 1),
                    ('edge-switch pairs, s = t included', 2),
                    ('server pairs (switch hops)', 3)):
        print('  mean shortest path over %-36s %.4f' % (what, tot[i] / cnt[i]))


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('cmd', choices=['links', 'switches', 'dist', 'length',
                                   'swdc', 'fattree'])
    p.add_argument('--switches', type=int, default=250)
    p.add_argument('--ports', type=int, default=10)
    p.add_argument('--servers', type=int, default=2)
    p.add_argument('--coords', default='random,balanced',
                   help='comma-separated: random, balanced, derived')
    p.add_argument('--seeds', default='1', help='e.g. 1-5 or 1,3')
    p.add_argument('--mode', dest='rule', default='2hop-sim',
                   help="dpsim's --mode, S2's rule: 1hop, 2hop-sim, 2hop")
    p.add_argument('--sizes', default='100,200,300,400,500,600,700,800')
    p.add_argument('--jellyfish', action='store_true',
                   help='length: also a Jellyfish of the same degree')
    p.add_argument('-k', type=int, default=12, help='fattree: ports')
    p.add_argument('--dat', help='links, switches, dist: the data for gnuplot')
    o = p.parse_args()
    o.coords = o.coords.split(',')
    seeds = []
    for part in o.seeds.split(','):
        a, _, b = part.partition('-')
        seeds += list(range(int(a), int(b or a) + 1))
    o.seeds = seeds
    o.sizes = [int(x) for x in o.sizes.split(',')]
    {'links': cmd_links, 'switches': cmd_switches, 'dist': cmd_dist,
     'length': cmd_length, 'swdc': cmd_swdc,
     'fattree': cmd_fattree}[o.cmd](o)


if __name__ == '__main__':
    main()
