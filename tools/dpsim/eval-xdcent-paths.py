#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""XDCent's parallel paths against the fabric's node connectivity.

The paper (BuildParallelPathSet) claims k+1 internally node-disjoint
paths between any two servers.  For every unordered pair of servers this
computes by max-flow (networkx) how many internally node-disjoint paths
the fabric has, and checks the parallel paths the routing core builds
("dpsim pairs --mode pM", M = 0..k): every hop a real cable, no node
twice, and the k+1 paths internally disjoint.

The fabric is the core's own: "dpsim plan --topo xdcent --csv" (every
server's port -> switch), cross-checked here against the definition
(READING-NOTES.md) rebuilt from the digits.

Two notions of disjoint, both printed:
  node    servers and switches are nodes: no intermediate server and no
          switch in common (two paths through one switch share it).  The
          strict one, and BCube's; at most k+1 (k for a server whose
          spare port is free).
  server  servers only (the path as the paper writes it, a server
          sequence): two paths may cross one switch, not on one cable.

Usage:
  eval-xdcent-paths.py N K I [N K I ...]   one line per size
  eval-xdcent-paths.py --json N K I ...
  eval-xdcent-paths.py --no-routes ...     connectivity only
  eval-xdcent-paths.py --table N K I ...   one table row per size
                      (Documentation/networking/dpillar-evaluation.rst)
  eval-xdcent-paths.py --sample P [--seed S] [--expect-full] N K I ...
                      P random unordered pairs only (both orders; the
                      paths from "dpsim route --mode pM" per pair): for
                      sizes too big for every pair; --expect-full exits
                      1 unless every sampled pair with k+1 (max-flow)
                      has disjoint paths, and prints those that do not
DPSIM=path/to/dpsim overrides the binary (default: next to this file).
The core's own count, without max-flow: dpsim paths --topo xdcent -n N
-k K -i I --disjoint (--mode rot: the earlier construction).
"""
import argparse
import json
import os
import random
import subprocess
import sys

import networkx as nx
from networkx.algorithms.flow import shortest_augmenting_path

HERE = os.path.dirname(os.path.abspath(__file__))
DPSIM = os.environ.get('DPSIM', os.path.join(HERE, 'dpsim'))


def run_dpsim(args):
    return subprocess.run([DPSIM] + args, check=True, capture_output=True,
                          text=True).stdout


def addr_id(text, n):
    v = 0
    for d in text.split('.'):
        v = v * n + int(d)
    return v


def fabric(n, k, i):
    """Servers 0..n^(i+1)-1, switches ('w', level, id); edges from
    dpsim plan --csv."""
    g = nx.Graph()
    out = run_dpsim(['plan', '--topo', 'xdcent', '-n', str(n), '-k',
                     str(k), '-i', str(i), '--csv'])
    for line in out.splitlines()[1:]:
        srv, port, col, sid = line.split(',')
        a = addr_id(srv, n)
        g.add_node(a)
        if col == str(0xffffffff):
            continue            # a spare port kept free for growth
        g.add_edge(a, ('w', int(col), int(sid)))
    return g


def reference(n, k, i):
    """The definition from the digits: a switch is (level, the server's
    digits with digit L cleared); returns the server-pairs joined by a
    switch, to compare with the plan's without its switch numbering."""
    nodes = n ** (i + 1)

    def dig(x, j):
        return x // n ** j % n

    members = {}
    for x in range(nodes):
        for port in range(k + 1):
            if port < k:
                lvl = port
            else:
                t = 0
                while t <= i and dig(x, t) == n - 1:
                    t += 1
                lvl = k + t
                if lvl > i:
                    continue
            key = (lvl, x - dig(x, lvl) * n ** lvl)
            members.setdefault(key, []).append(x)
    return members


def check_fabric(g, n, k, i):
    ref = reference(n, k, i)
    plan = {}
    for w in g.nodes:
        if isinstance(w, tuple):
            plan[w] = sorted(g.neighbors(w))
    a = sorted(tuple(sorted(m)) for m in ref.values())
    b = sorted(tuple(m) for m in plan.values())
    if a != b or any(len(m) != n for m in b):
        sys.exit('XDCent (%d,%d,%d): dpsim plan differs from the definition'
                 % (n, k, i))


def split(g, switches_too):
    """Node splitting: v -> (v,0) -cap 1-> (v,1); a switch is split too
    when @switches_too, else unbounded (servers-only disjointness: paths
    may share a switch, not a cable)."""
    d = nx.DiGraph()
    for v in g.nodes:
        sw = isinstance(v, tuple)
        if not sw or switches_too:
            d.add_edge((v, 0), (v, 1), capacity=1)
        else:
            d.add_edge((v, 0), (v, 1))      # no capacity: unbounded
    for a, b in g.edges:
        d.add_edge((a, 1), (b, 0), capacity=1)
        d.add_edge((b, 1), (a, 0), capacity=1)
    return d


def connectivity(d, res, s, t):
    """Max-flow from s's out side to t's in side (s and t are not cut);
    @res: the residual network, reused from one call to the next."""
    r = shortest_augmenting_path(d, (s, 1), (t, 0), residual=res.get(d),
                                 two_phase=True)
    res[d] = r
    return r.graph['flow_value']


def routes(n, k, i):
    """{(src, dst): [path of parallel path m, ...]} from dpsim pairs."""
    res = {}
    for m in range(k + 1):
        out = run_dpsim(['pairs', '--topo', 'xdcent', '-n', str(n), '-k',
                         str(k), '-i', str(i), '--mode', 'p%d' % m])
        for line in out.splitlines():
            f = line.split()
            s, t = addr_id(f[0], n), addr_id(f[1], n)
            if f[2] != 'delivered':
                sys.exit('%s: not delivered' % line)
            res.setdefault((s, t), []).append(
                [addr_id(a, n) for a in f[4].split(',')])
    return res


def route_paths(n, k, i, a, b):
    """[path of parallel path m, ...] of one ordered pair (dpsim route)."""
    top = i

    def text(x):
        return '.'.join(str(x // n ** j % n) for j in range(top, -1, -1))
    res = []
    for m in range(k + 1):
        out = json.loads(run_dpsim(['route', '--topo', 'xdcent', '-n',
                                    str(n), '-k', str(k), '-i', str(i),
                                    '--from', text(a), '--to', text(b),
                                    '--mode', 'p%d' % m, '--json']))
        if not out['delivered']:
            sys.exit('%s -> %s p%d: not delivered' % (text(a), text(b), m))
        res.append([addr_id(x, n) for x in out['path']])
    return res


def sample_pairs(servers, count, seed):
    rnd = random.Random(seed)
    got = set()
    total = len(servers) * (len(servers) - 1) // 2
    while len(got) < min(count, total):
        x, y = rnd.sample(servers, 2)
        got.add((min(x, y), max(x, y)))
    return sorted(got)


def switch_of(g, a, b):
    common = [w for w in g.neighbors(a) if g.has_edge(w, b)]
    return common[0] if common else None


def check_paths(g, paths):
    """(valid, node-disjoint, server-disjoint) for the paths of a pair."""
    seen_srv, seen_sw = set(), set()
    valid = node = server = True
    for p in paths:
        if len(set(p)) != len(p):
            valid = False
        for h in range(len(p) - 1):
            w = switch_of(g, p[h], p[h + 1])
            if w is None:
                valid = False
                continue
            if w in seen_sw:
                node = False
            seen_sw.add(w)
        for v in p[1:-1]:
            if v in seen_srv:
                node = server = False
            seen_srv.add(v)
    return valid, node and server, server


def evaluate(n, k, i, with_routes, sample=0, seed=1):
    g = fabric(n, k, i)
    check_fabric(g, n, k, i)
    servers = sorted(v for v in g.nodes if not isinstance(v, tuple))
    dn, ds = split(g, True), split(g, False)
    rt = routes(n, k, i) if with_routes and not sample else None
    todo = sample_pairs(servers, sample, seed) if sample else \
        [(x, y) for x in servers for y in servers if y > x]
    short = []
    hist = {}
    full_node = full_server = 0
    pairs = ordered = 0
    res = {}
    got = {'valid': 0, 'node': 0, 'server': 0, 'node_where_full': 0}
    free = 0
    for x, y in todo:
        pairs += 1
        cn = connectivity(dn, res, x, y)
        cs = connectivity(ds, res, x, y)
        hist[cn] = hist.get(cn, 0) + 1
        full_node += cn >= k + 1
        full_server += cs >= k + 1
        if g.degree(x) < k + 1 or g.degree(y) < k + 1:
            free += 1
        if not with_routes:
            continue
        # Ordered pairs: the core's paths of (x,y) and of (y,x).
        for a, b in ((x, y), (y, x)):
            ordered += 1
            v, nd, sd = check_paths(g, rt[(a, b)] if rt is not None
                                    else route_paths(n, k, i, a, b))
            got['valid'] += v
            got['node'] += nd
            got['server'] += sd
            got['node_where_full'] += nd and cn >= k + 1
            if cn >= k + 1 and not nd:
                short.append((a, b))
    return {'n': n, 'k': k, 'i': i, 'servers': len(servers),
            'pairs': pairs, 'ordered': ordered, 'conn_hist': hist,
            'pairs_with_free_port': free,
            'conn_k1_node': full_node, 'conn_k1_server': full_server,
            'routes': got if with_routes else None, 'sample': sample,
            'short': short}


def pct(a, b):
    return '%.1f%%' % (100.0 * a / b) if b else '-'


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--json', action='store_true')
    ap.add_argument('--no-routes', action='store_true',
                    help='connectivity only, no dpsim paths')
    ap.add_argument('--table', action='store_true',
                    help='one row per size: ordered pairs, their node '
                    'connectivity, ours disjoint where it is k+1')
    ap.add_argument('--sample', type=int, default=0, metavar='P',
                    help='P random unordered pairs instead of all')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--expect-full', action='store_true',
                    help='exit 1 unless every pair with k+1 has '
                    'disjoint paths (those that do not are printed)')
    ap.add_argument('size', nargs='+', type=int, help='N K I triples')
    o = ap.parse_args()
    if len(o.size) % 3:
        ap.error('sizes are N K I triples')
    res = []
    bad = False
    if o.table:
        print('%-16s %8s  %-24s %9s  %s' % ('fabric', 'ordered',
              'node connectivity', 'with k+1', 'ours disjoint'))
    for j in range(0, len(o.size), 3):
        r = evaluate(*o.size[j:j + 3], not o.no_routes, o.sample, o.seed)
        res.append(r)
        for a, b in r['short']:
            if o.expect_full:
                print('XDCent (%d,%d,%d): %s -> %s: k+1 by max-flow, '
                      'ours not disjoint' % (r['n'], r['k'], r['i'],
                                             text_of(a, r), text_of(b, r)))
            bad = True
        if o.table:
            hist = ', '.join('%d: %d' % (c, 2 * r['conn_hist'][c])
                             for c in sorted(r['conn_hist']))
            f2 = 2 * r['conn_k1_node']
            got = r['routes']['node_where_full'] if r['routes'] else 0
            print('%-16s %8d  %-24s %9d  %d (%s)' %
                  ('XDCent (%d,%d,%d)' % (r['n'], r['k'], r['i']),
                   r['ordered'] or 2 * r['pairs'], hist, f2, got,
                   pct(got, f2)))
            sys.stdout.flush()
            continue
        if o.json:
            continue
        p = r['pairs']
        hist = ', '.join('%d: %d' % (c, r['conn_hist'][c])
                         for c in sorted(r['conn_hist']))
        print('XDCent (%d,%d,%d): %d servers, %d unordered pairs%s; '
              'connectivity (node) histogram {%s}' %
              (r['n'], r['k'], r['i'], r['servers'], p,
               ' (a sample, seed %d)' % o.seed if o.sample else '', hist))
        print('  k+1 = %d disjoint paths exist: node %d (%s), server-only '
              '%d (%s); pairs with a free spare port: %d' %
              (r['k'] + 1, r['conn_k1_node'], pct(r['conn_k1_node'], p),
               r['conn_k1_server'], pct(r['conn_k1_server'], p),
               r['pairs_with_free_port']))
        g = r['routes']
        if g:
            o2, f2 = r['ordered'], 2 * r['conn_k1_node']
            print('  core parallel paths, %d ordered pairs: valid %d (%s), '
                  'node-disjoint %d (%s), server-disjoint %d (%s); '
                  'node-disjoint where k+1 exist: %d of %d (%s)' %
                  (o2, g['valid'], pct(g['valid'], o2), g['node'],
                   pct(g['node'], o2), g['server'], pct(g['server'], o2),
                   g['node_where_full'], f2,
                   pct(g['node_where_full'], f2)))
        sys.stdout.flush()
    if o.json:
        for r in res:
            r['conn_hist'] = {str(c): v for c, v in r['conn_hist'].items()}
        json.dump(res, sys.stdout, indent=1)
        print()
    return 1 if o.expect_full and bad else 0


def text_of(x, r):
    return '.'.join(str(x // r['n'] ** j % r['n'])
                    for j in range(r['i'], -1, -1))


if __name__ == '__main__':
    sys.exit(main())
