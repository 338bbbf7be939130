#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""HCN(n,h) against XDCent and BCube: the XDCent paper's Figs. 7-10.

The XDCent paper compares its sizes (Fig. 7 servers, Fig. 8 switches, by
level) and path lengths (section 3.2, Figs. 9 and 10, whose curves the
OCR does not keep) with BCube and HCN.  HCN is not in the XDCent paper's
text; its definition is Guo, Chen, Li, Li, Liu and Chen, "Expandable and
Cost-Effective Network Structures for Data Centers Using Dual-Port
Servers" (IEEE Trans. Computers 62(7), 2013), confirmed against INRFlow's
independent hcnbcn topology (its port-1 rule, below):

  HCN(n,0): n dual-port servers on one n-port switch.  HCN(n,h): n
  copies of HCN(n,h-1).  A server is h+1 base-n digits d_h..d_0 (id =
  sum d_j n^j); port 0 is on switch d_h..d_1 (n^h switches).  Port 1:
  let y = d_0 and i the length of the run of digits equal to y from d_0
  (d_{i-1} = .. = d_0 = y, d_i = x != y): the server [P, x, y^i] is
  cabled to [P, y, x^i], a level-i link (i = 1..h).  The n servers of
  one repeated digit keep port 1 free (for the next level's growth).
  Its routing (FdimRouting): the highest differing digit i, s in
  sub-HCN x, d in sub-HCN y: route s -> [P, x, y^i], cross, route
  [P, y, x^i] -> d, each half recursively; longest 2^(h+1) - 1 hops.

Path lengths are server hops, as dpsim's: crossing a switch is one hop,
a server-to-server cable one hop.  XDCent's and BCube's come from dpsim
(their routing: dpsim paths --mode paper, BCube's is BFS) and their BFS
from the graph of dpsim plan --csv; HCN's from this file's graph.

Usage:
  eval-hcn.py [-k K] sizes N I [I ...]  HCN(N,I), XDCent(N,K,I) (K
                                   default 2, the paper's Fig. 6), BCube(N,I):
                                   servers, switches, HCN's cables by level
  eval-hcn.py [-k K] paths N I [I ...]  mean and longest path, routing
                                   and BFS, every ordered pair of servers
DPSIM=path/to/dpsim overrides the binary (default: next to this file).
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import shortest_path

HERE = os.path.dirname(os.path.abspath(__file__))
DPSIM = os.environ.get('DPSIM', os.path.join(HERE, 'dpsim'))


def digits(v, n, h):
    return [(v // n ** j) % n for j in range(h + 1)]   # d_0 .. d_h


def undigits(d, n):
    return sum(x * n ** j for j, x in enumerate(d))


def hcn_peer(v, n, h):
    """(level, peer) of server v's port 1, or (None, None) if free."""
    d = digits(v, n, h)
    y, i = d[0], 0
    while i <= h and d[i] == y:
        i += 1
    if i > h:
        return None, None
    x = d[i]
    e = list(d)
    e[i] = y
    for j in range(i):
        e[j] = x
    return i, undigits(e, n)


def hcn(n, h):
    """Servers, switch of each server, cables {(a, b, level)}."""
    servers = n ** (h + 1)
    cables = set()
    for v in range(servers):
        lvl, p = hcn_peer(v, n, h)
        if lvl is None:
            continue
        lp, back = hcn_peer(p, n, h)
        assert back == v and lp == lvl, (v, p)    # the rule is symmetric
        cables.add((min(v, p), max(v, p), lvl))
    return servers, [v // n for v in range(servers)], cables


def hcn_route(s, t, n, h):
    """FdimRouting's hops from s to t (server ids)."""
    if s == t:
        return 0
    ds, dt = digits(s, n, h), digits(t, n, h)
    i = max(j for j in range(h + 1) if ds[j] != dt[j])
    if i == 0:
        return 1                                  # one switch
    x, y = ds[i], dt[i]
    a = list(ds[:i + 1])
    b = list(dt[:i + 1])
    for j in range(i):
        a[j] = y
        b[j] = x
    low = n ** i
    return (hcn_route(s % low, undigits(a[:i], n), n, i - 1) + 1 +
            hcn_route(undigits(b[:i], n), t % low, n, i - 1))


def server_graph(servers, groups, cables):
    """Servers only: one hop to every server of a shared switch, one per
    cable; @groups the switches' member lists."""
    rows, cols = [], []
    for m in groups:
        for a in m:
            for b in m:
                if a != b:
                    rows.append(a)
                    cols.append(b)
    for a, b in cables:
        rows += [a, b]
        cols += [b, a]
    return csr_matrix((np.ones(len(rows)), (rows, cols)),
                      shape=(servers, servers))


def bfs_stats(m):
    d = shortest_path(m, method='D', unweighted=True)
    n = d.shape[0]
    return d.sum() / (n * (n - 1)), int(d.max())


def dpsim(args):
    return subprocess.run([DPSIM] + args, check=True, capture_output=True,
                          text=True).stdout


def plan_graph(topo):
    """Servers, switch member lists of dpsim plan --csv's fabric."""
    members, servers = {}, set()
    for line in dpsim(['plan', '--topo'] + topo + ['--csv']).splitlines()[1:]:
        srv, _, col, sid = line.split(',')
        servers.add(srv)
        if col != str(0xffffffff):
            members.setdefault((col, sid), []).append(srv)
    ids = {s: k for k, s in enumerate(sorted(servers))}
    groups = [[ids[s] for s in m] for m in members.values()]
    return len(ids), groups


def cmd_sizes(n, k, levels):
    print('# level  HCN(n,i): servers switches cables-by-level (1..i) free  '
          'XDCent(n,k,i): servers switches  BCube(n,i): servers switches')
    for i in levels:
        s, sw, cab = hcn(n, i)
        by = [sum(1 for c in cab if c[2] == lvl) for lvl in range(1, i + 1)]
        free = s - 2 * len(cab)
        row = '%d  %d %d %s %d' % (i, s, len(set(sw)),
                                   '+'.join(map(str, by)), free)
        for topo in (['xdcent', '-n', str(n), '-k', str(k), '-i', str(i)],
                     ['bcube', '-n', str(n), '-k', str(i)]):
            if topo[0] == 'xdcent' and i < max(k - 1, 1):
                row += '  - -'
                continue
            ns, groups = plan_graph(topo)
            row += '  %d %d' % (ns, len(groups))
        print(row)


def cmd_paths(n, k, levels):
    print('# level  HCN(n,i): routing avg max, BFS avg max  XDCent(n,k,i): '
          'paper routing avg max, BFS avg max  BCube(n,i): avg max')
    for i in levels:
        s, sw, cab = hcn(n, i)
        groups = [[v for v in range(s) if sw[v] == w]
                  for w in range(len(set(sw)))]
        tot, top = 0, 0
        for a in range(s):
            for b in range(s):
                if a != b:
                    h = hcn_route(a, b, n, i)
                    tot += h
                    top = max(top, h)
        ha, hm = bfs_stats(server_graph(s, groups,
                                        [(a, b) for a, b, _ in cab]))
        row = '%d  %.4f %d %.4f %d' % (i, tot / (s * (s - 1)), top, ha, hm)
        x = ['xdcent', '-n', str(n), '-k', str(k), '-i', str(i)]
        if i >= max(k - 1, 1):
            r = json.loads(dpsim(['paths', '--topo'] + x +
                                 ['--mode', 'paper', '--json']))
            xs, xg = plan_graph(x)
            xa, xm = bfs_stats(server_graph(xs, xg, []))
            row += '  %.4f %d %.4f %d' % (r['avg_hops'], r['max_hops'],
                                          xa, xm)
        else:
            row += '  - - - -'
        r = json.loads(dpsim(['paths', '--topo', 'bcube', '-n', str(n),
                              '-k', str(i), '--json']))
        row += '  %.4f %d' % (r['avg_hops'], r['max_hops'])
        print(row)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('-k', type=int, default=2, help="XDCent's k")
    ap.add_argument('what', choices=('sizes', 'paths'))
    ap.add_argument('n', type=int)
    ap.add_argument('levels', type=int, nargs='+')
    o = ap.parse_args()
    if o.n < 2 or min(o.levels) < 1 or o.k < 1:
        ap.error('n >= 2, levels >= 1 (dpsim: BCube k >= 1), k >= 1')
    (cmd_sizes if o.what == 'sizes' else cmd_paths)(o.n, o.k, o.levels)
    return 0


if __name__ == '__main__':
    sys.exit(main())
