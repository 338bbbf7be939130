#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Graph-level capacity of fabrics: the S2 paper's Fig. 9, 10 and 11 and
the bisection column of "Choosing a fabric" (dpillar-evaluation.rst).

The fabrics come from dpsim (the routing core's own builders), not from
a second implementation here: S2 from "dpsim plan --topo s2" (.Topo text),
the server-centric ones from "dpsim plan --csv".  Jellyfish (random
regular graph) and the k-ary fat tree are the paper's baselines and exist
only here.

Commands (each prints one line of numbers, or JSON with --json):
  bisect   max-flow between random halves of the servers (the
           chapter's old bisection column; the S2 paper's Fig. 9 method)
  cuts     the bisection width: paper's figure, structured, Kernighan-Lin
           and random halvings (upper bounds), congestion lower bound
  thru     ideal throughput of a random permutation (LP, HiGHS)
  state    forwarding entries per switch
  inventory  servers, switches, ports, cables and cost (the DPillar
           paper's Table I prices) of a --set, and the chapter's TCP and
           bisection figures per cable, switch port, NIC port and dollar
  table1   the DPillar paper's Table I
  diameter a lower bound of the diameter (double sweeps of BFS)
  pairflow the max flow between two servers (the DCell paper's k + 1)
  fanflow  the max flow from one server to m others (the DCell paper's
           Theorem 6, min(m, k + 1)), its groups' sizes
  selftest small known cases (make -C tools/dpsim check)

Needs python3-networkx and python3-scipy (scripts/deps.sh).
"""
import argparse
import json
import math
import os
import random
import re
import subprocess
import sys

import networkx as nx
import numpy as np
from scipy.optimize import linprog
from scipy.sparse import coo_matrix, csr_matrix
from scipy.sparse.csgraph import maximum_flow

HERE = os.path.dirname(os.path.abspath(__file__))
DPSIM = os.environ.get('DPSIM', os.path.join(HERE, 'dpsim'))
# Capacity of the source's and sink's edges: "not a bottleneck".  Integer
# because scipy's max-flow is; far above any cut of the fabrics here.
INF = 1 << 28


class Fabric:
    """Nodes 0..n-1, undirected unit-capacity links (a multigraph: a list
    of pairs), and where the servers attach.  In switch-centric fabrics
    (S2, Jellyfish, fat tree) servers are not nodes: hosts[v] servers hang
    off switch v by one link each.  In server-centric ones every server is
    a node and hosts[v] is 1 for it (its NIC links are in edges)."""

    def __init__(self, name, n, edges, hosts, switches, coords=None):
        self.name, self.n, self.edges, self.hosts = name, n, edges, hosts
        self.switches = switches        # ids of the switches
        self.coords = coords            # S2: per switch, L coordinates
        self.server_centric = False

    @property
    def servers(self):
        return sum(self.hosts)

    def graph(self):
        g = nx.MultiGraph()
        g.add_nodes_from(range(self.n))
        g.add_edges_from(self.edges)
        return g


def run_dpsim(args):
    return subprocess.run([DPSIM] + args, check=True, capture_output=True,
                          text=True).stdout


def parse_topo(text, name='s2'):
    """The .Topo text of dpsim plan --topo s2 (the authors' format):
    E a b 1 (switches from 1), C v x0 x1.. (from 0), H server switch."""
    n, edges, coords, hosts = 0, [], {}, None
    for line in text.splitlines():
        f = line.split()
        if not f:
            continue
        if f[0] == 'N':
            n = int(f[1])
            hosts = [0] * n
        elif f[0] == 'E':
            edges.append((int(f[1]) - 1, int(f[2]) - 1))
        elif f[0] == 'C':
            coords[int(f[1])] = [int(x) for x in f[2:]]
        elif f[0] == 'H':
            hosts[int(f[2]) - 1] += 1
    return Fabric(name, n, edges, hosts, list(range(n)),
                  [coords.get(v) for v in range(n)])


def s2(switches, ports, servers, seed, cache=None):
    """S2 as dpsim's generator builds it (balanced coordinates, rings,
    spare ports at random: the plan mode's fabric); @cache: a directory
    for the text, the generator is O(n^2) (80 s at 2,880 switches)."""
    args = ['plan', '--topo', 's2', '--switches', str(switches), '--ports',
            str(ports), '--servers', str(servers), '--seed', str(seed)]
    path = None
    if cache:
        path = os.path.join(cache, 's2-%d-%d-%d-%d.Topo' %
                            (switches, ports, servers, seed))
        if os.path.exists(path):
            with open(path) as f:
                return parse_topo(f.read())
    text = run_dpsim(args)
    if path:
        os.makedirs(cache, exist_ok=True)
        with open(path, 'w') as f:
            f.write(text)
    return parse_topo(text)


def jellyfish(switches, degree, servers, seed):
    """Random regular graph of the same switch count and degree, built as
    Jellyfish does (its section 3): join random pairs of switches with
    free ports that are not yet neighbours; a switch left with two or more
    free ports breaks a random link (x, y) and joins both ends.  With an
    odd number of ports one stays free, as in S2's spare-port pairing."""
    rng = random.Random(seed)
    free = {v: degree for v in range(switches)}
    adj = {v: set() for v in range(switches)}

    def link(a, b):
        adj[a].add(b)
        adj[b].add(a)
        free[a] -= 1
        free[b] -= 1

    open_ = list(range(switches))

    def settle(*vs):
        for x in vs:
            if free[x] == 0 and x in open_:
                open_.remove(x)
            elif free[x] > 0 and x not in open_:
                open_.append(x)

    def swap_in(v):
        # break a random link (x, y) not touching v's neighbours, join
        # both ends to v (two of its free ports)
        es = [(x, y) for x in range(switches) for y in adj[x]
              if x < y and v not in (x, y) and x not in adj[v]
              and y not in adj[v]]
        x, y = rng.choice(es)
        adj[x].discard(y)
        adj[y].discard(x)
        free[x] += 1
        free[y] += 1
        link(v, x)
        link(v, y)
        return x, y

    misses = 0
    while len(open_) > 1:
        if len(open_) > 64 and misses < 100:
            # many open switches: a random pair is almost always
            # joinable, the same distribution as drawing from the list
            a, b = rng.sample(open_, 2)
            if b in adj[a]:
                misses += 1
                continue
            misses = 0
            link(a, b)
            settle(a, b)
            continue
        cand = [(a, b) for i, a in enumerate(open_) for b in open_[i + 1:]
                if b not in adj[a]]
        if cand:
            a, b = rng.choice(cand)
            link(a, b)
            settle(a, b)
            continue
        stuck = [v for v in open_ if free[v] >= 2]
        if not stuck:
            break
        v = stuck[0]
        settle(v, *swap_in(v))
    if len(open_) == 1 and free[open_[0]] >= 2:
        # the last switch with free ports: break links for it
        v = open_[0]
        while free[v] >= 2:
            swap_in(v)
    edges = [(a, b) for a in adj for b in adj[a] if a < b]
    return Fabric('jellyfish', switches, edges, [servers] * switches,
                  list(range(switches)))


def fattree(k):
    """k-ary fat tree (Al-Fares): k pods of k/2 edge and k/2 aggregation
    switches, (k/2)^2 cores, k/2 servers per edge switch."""
    h = k // 2
    edges, hosts = [], []
    core0 = k * k
    for p in range(k):
        for e in range(h):
            ev = p * k + e
            for a in range(h):
                edges.append((ev, p * k + h + a))
        for a in range(h):
            av = p * k + h + a
            for c in range(h):
                edges.append((av, core0 + a * h + c))
    n = core0 + h * h
    hosts = [0] * n
    for p in range(k):
        for e in range(h):
            hosts[p * k + e] = h
    return Fabric('fattree', n, edges, hosts, list(range(n)))


def server_centric(topo, n, k, level=None):
    """DPillar, DCell, BCube, XDCent from dpsim plan --csv: servers and
    switches are nodes, every NIC cable a link."""
    args = ['plan', '--topo', topo, '-n', str(n), '-k', str(k), '--csv']
    if level is not None:
        args += ['-i', str(level)]
    ids, edges = {}, []

    def node(key):
        if key not in ids:
            ids[key] = len(ids)
        return ids[key]

    servers = set()
    addr = {}

    def server(key):
        # the address as digits: DPillar's column first, then its
        # label's symbols; the others' digits, highest first
        v = node('s' + key)
        servers.add(v)
        addr[v] = tuple(int(x) for x in key.replace(':', '.').split('.'))
        return v

    for line in run_dpsim(args).splitlines()[1:]:
        f = line.split(',')
        if f[0] == 'switch' or f[0] == 'cable':
            # DCell: kind,level,switch,a,a_port,b,b_port
            a = server(f[3])
            if f[0] == 'switch':
                edges.append((a, node('w%s.%s' % (f[1], f[2]))))
            else:
                edges.append((a, server(f[5])))
        else:
            # server,port,switch_col,switch_id
            a = server(f[0])
            if f[2] == str(0xffffffff):
                continue        # XDCent: a port kept free for growth
            edges.append((a, node('w%s.%s' % (f[2], f[3]))))
    nn = len(ids)
    hosts = [1 if v in servers else 0 for v in range(nn)]
    fab = Fabric(topo, nn, edges, hosts,
                 [v for v in range(nn) if v not in servers])
    fab.server_centric = True
    fab.addr = addr
    fab.size = (n, k, level)
    return fab


def maxflow(n, edges, src_caps, sink_caps):
    """Max flow from a super source (edges of src_caps {v: cap}) to a super
    sink; links are unit capacity each way."""
    s, t = n, n + 1
    rows, cols, caps = [], [], []
    for a, b in edges:
        rows += [a, b]
        cols += [b, a]
        caps += [1, 1]
    for v, c in src_caps.items():
        rows.append(s)
        cols.append(v)
        caps.append(c)
    for v, c in sink_caps.items():
        rows.append(v)
        cols.append(t)
        caps.append(c)
    m = coo_matrix((np.array(caps, dtype=np.int32), (rows, cols)),
                   shape=(n + 2, n + 2)).tocsr()   # sums parallel links
    m.sum_duplicates()
    return int(maximum_flow(m, s, t).flow_value)


def bisect(fab, partitions, seed, switch_level=False):
    """Min and mean over @partitions random halvings of the max flow
    between the halves.  Server level (the paper's wording): the servers
    split at random, each server's own link counts (unit capacity).
    Switch level: the switches with servers split at random (half the
    servers each side as near as possible), server links unlimited: the
    fabric's own capacity, which is what can exceed a non-blocking fat
    tree's N/2."""
    rng = random.Random(seed)
    vals = []
    for _ in range(partitions):
        src, snk = {}, {}
        if switch_level:
            vs = [v for v in range(fab.n) if fab.hosts[v]]
            rng.shuffle(vs)
            half, acc = fab.servers / 2, 0
            for v in vs:
                if acc < half:
                    src[v] = INF
                    acc += fab.hosts[v]
                else:
                    snk[v] = INF
        else:
            slots = [v for v in range(fab.n) for _ in range(fab.hosts[v])]
            rng.shuffle(slots)
            h = len(slots) // 2
            cap = INF if fab.server_centric else 1
            for v in slots[:h]:
                src[v] = src.get(v, 0) + cap
            # a switch with servers in both halves carries their flows
            # itself (src -> v -> sink): why this reading is N/2 for
            # every switch-centric fabric here
            for v in slots[h:2 * h]:
                snk[v] = snk.get(v, 0) + cap
        vals.append(maxflow(fab.n, fab.edges, src, snk))
    return min(vals), sum(vals) / len(vals)


# The bisection width proper: the least cut over every halving of the
# servers, which random halvings do not find (a random halving cuts about
# half of every switch).  Every halving's max flow is an upper bound of
# it; congestion() gives a lower bound.

def explicit(fab):
    """The fabric with every server a node: (n, edges, servers, tor),
    tor[v] the ToR of server v in a switch-centric fabric (servers behind
    one link each, as bisect() counts them), None in a server-centric
    one (its servers are nodes already)."""
    if fab.server_centric:
        return (fab.n, list(fab.edges),
                [v for v in range(fab.n) if fab.hosts[v]], None)
    n, edges, servers, tor = fab.n, list(fab.edges), [], {}
    for v in range(fab.n):
        for _ in range(fab.hosts[v]):
            edges.append((n, v))
            servers.append(n)
            tor[n] = v
            n += 1
    return n, edges, servers, tor


def halving(n, edges, order):
    """Max flow between the first half of @order (servers) and the rest,
    every other node free to forward: the cut of this halving with every
    switch on its cheaper side."""
    h = len(order) // 2
    return maxflow(n, edges, {v: INF for v in order[:h]},
                   {v: INF for v in order[h:]})


def digit_name(fab, j):
    """Name of address digit j as server_centric() reads it."""
    n, k, level = fab.size
    if fab.name == 'dpillar':
        return 'column' if j == 0 else 'symbol %d' % (k - j)
    if fab.name == 'dcell':
        return 'a_%d' % (k - j)
    top = k if fab.name == 'bcube' else level
    return 'digit %d' % (top - j)


def structured(fab, n, edges, servers, tor):
    """The construction's own halvings, each {name: max flow}:
    server-centric, split on one address digit (its low values one side;
    for an odd radix the middle value splits on the other digits, in
    address order); S2, the ToRs by their coordinate in one space."""
    res = {}
    if fab.server_centric:
        for j in range(len(fab.addr[servers[0]])):
            order = sorted(servers, key=lambda v: (fab.addr[v][j],) +
                           fab.addr[v])
            res[digit_name(fab, j)] = halving(n, edges, order)
    else:
        for sp in range(len(fab.coords[0])):
            order = sorted(servers, key=lambda v: (fab.coords[tor[v]][sp],
                                                   tor[v], v))
            res['space %d' % sp] = halving(n, edges, order)
    return res


def kl(fab, n, edges, servers, tor, seeds):
    """networkx's Kernighan-Lin bisection, the least max flow over
    @seeds.  Server-centric: on the servers, weight 1 per server-server
    cable and 1/(m-1) between every two of the m servers on a switch (a
    switch split a : b costs a*b/(m-1): exact at a = 1; the max flow
    then charges it min(a, b)).  S2: on the ToRs (parallel links add),
    its servers following their ToR."""
    g = nx.Graph()
    if fab.server_centric:
        g.add_nodes_from(servers)
        srv = set(servers)
        members = {}
        for a, b in edges:
            if a in srv and b in srv:
                w = g[a][b]['weight'] + 1 if g.has_edge(a, b) else 1
                g.add_edge(a, b, weight=w)
            else:
                s, w = (a, b) if a in srv else (b, a)
                members.setdefault(w, []).append(s)
        for ms in members.values():
            w = 1.0 / (len(ms) - 1) if len(ms) > 1 else 0
            for i, a in enumerate(ms):
                for b in ms[i + 1:]:
                    x = g[a][b]['weight'] if g.has_edge(a, b) else 0
                    g.add_edge(a, b, weight=x + w)
    else:
        g.add_nodes_from(range(fab.n))
        for a, b in fab.edges:
            w = g[a][b]['weight'] + 1 if g.has_edge(a, b) else 1
            g.add_edge(a, b, weight=w)
    best = None
    for seed in seeds:
        side, _ = nx.algorithms.community.kernighan_lin_bisection(
            g, weight='weight', seed=seed)
        if fab.server_centric:
            key = lambda v: (v not in side, v)
        else:
            key = lambda v: (tor[v] not in side, tor[v], v)
        f = halving(n, edges, sorted(servers, key=key))
        best = f if best is None else min(best, f)
    return best


def congestion(n, edges, servers, batch=64):
    """A lower bound of the bisection width (the congestion argument):
    route one unit from every server to every other, split evenly over
    all its shortest paths (Brandes' dependencies, @batch sources at a
    time); if no link carries more than L in one direction, a halving
    into a and b servers is crossed by a*b units one way, so it cuts at
    least a*b / L links.  Returns (a*b / L, L)."""
    a = coo_matrix((np.ones(2 * len(edges)),
                    ([x for x, y in edges] + [y for x, y in edges],
                     [y for x, y in edges] + [x for x, y in edges])),
                   shape=(n, n)).tocsr()
    a.sum_duplicates()          # parallel links: paths through each
    au, av = a.nonzero()
    tgt = np.zeros(n)
    tgt[servers] = 1.0
    load = np.zeros(len(au))
    for i in range(0, len(servers), batch):
        src = np.array(servers[i:i + batch])
        b = len(src)
        cols = np.arange(b)
        dist = np.full((n, b), -1, dtype=np.int32)
        sigma = np.zeros((n, b))
        dist[src, cols] = 0
        sigma[src, cols] = 1.0
        d = 0
        while True:
            t = a @ np.where(dist == d, sigma, 0.0)
            new = (dist < 0) & (t > 0)
            if not new.any():
                break
            dist[new] = d + 1
            sigma[new] = t[new]
            d += 1
        delta = np.zeros((n, b))
        with np.errstate(divide='ignore', invalid='ignore'):
            for lv in range(d - 1, -1, -1):
                x = np.where(dist == lv + 1,
                             (tgt[:, None] + delta) / sigma, 0.0)
                delta += np.where(dist == lv, sigma * (a @ x), 0.0)
            x = np.where(sigma > 0, (tgt[:, None] + delta) / sigma, 0.0)
        # one link u -> v of a shortest path carries sigma(u) * x(v)
        down = dist[av] == dist[au] + 1
        load += np.where(down, sigma[au] * x[av], 0.0).sum(axis=1)
    h = len(servers) // 2
    lmax = load.max()
    return h * (len(servers) - h) / lmax, lmax


def paper_bound(fab):
    """The paper's bisection width, in cables, and what it claims, or
    None: DPillar Prop. II.1, "close to (n/2)^k"; DCell Theorem 2,
    "larger than t_k / (4 log_n t_k)".  BCube's paper is not in the
    papers folder; XDCent's OCR has none legible; S2's Fig. 9 is
    measured (random halvings, our "random")."""
    if not fab.server_centric:
        return None
    n, k, _ = fab.size
    if fab.name == 'dpillar':
        return (n // 2) ** k, '~'
    if fab.name == 'dcell' and k > 0:
        t = fab.servers
        return t / (4 * math.log(t, n)), '>'
    return None


def nic_ports(fab):
    if not fab.server_centric:
        return 1
    deg = {}
    for a, b in fab.edges:
        deg[a] = deg.get(a, 0) + 1
        deg[b] = deg.get(b, 0) + 1
    return max(deg[v] for v in range(fab.n) if fab.hosts[v])


def cuts(fab, methods, partitions, seed, kl_seeds):
    """{method: value} in cables for one fabric (see cmd_cuts)."""
    n, edges, servers, tor = explicit(fab)
    r = {}
    if 'paper' in methods:
        r['paper'] = paper_bound(fab)
    if 'structured' in methods:
        res = structured(fab, n, edges, servers, tor)
        name = min(res, key=lambda x: (res[x], x))
        r['structured'] = (res[name], name)
    if 'kl' in methods:
        r['kl'] = kl(fab, n, edges, servers, tor,
                     range(seed, seed + kl_seeds))
    if 'random' in methods:
        r['random'] = bisect(fab, partitions, seed)[0]
    if 'lower' in methods:
        r['lower'] = congestion(n, edges, servers)[0]
    return r


def permutation(fab, rng):
    """Random permutation traffic, no server to itself: server i -> p(i),
    returned as the demand matrix between switches {(s, t): flows}."""
    slots = [v for v in range(fab.n) for _ in range(fab.hosts[v])]
    m = len(slots)
    while True:
        p = list(range(m))
        rng.shuffle(p)
        if all(p[i] != i for i in range(m)):
            break
    dem = {}
    for i in range(m):
        key = (slots[i], slots[p[i]])
        dem[key] = dem.get(key, 0) + 1
    return dem


def ideal_throughput(fab, dem):
    """The paper's ideal throughput: the maximum multi-commodity flow
    (sum of the flows, each flow splittable over any paths, at most one
    link's capacity because a server has one link; links unit capacity
    each direction).  Flows of one source switch form one commodity
    (exact: they share a source, and their caps add up as y[s,t] <= d)."""
    n = fab.n
    arcs = []
    for a, b in fab.edges:
        arcs += [(a, b), (b, a)]
    na = len(arcs)
    local = sum(d for (s, t), d in dem.items() if s == t)
    srcs = sorted({s for (s, t) in dem if s != t})
    ys = [(s, t, d) for (s, t), d in sorted(dem.items()) if s != t]
    nf = len(srcs) * na
    nv = nf + len(ys)
    rows, cols, vals = [], [], []
    # conservation of commodity i at node v != s: in - out - y[s,v] = 0
    row = {}
    for i, s in enumerate(srcs):
        for j, (a, b) in enumerate(arcs):
            x = i * na + j
            if b != s:
                r = row.setdefault((i, b), len(row))
                rows.append(r)
                cols.append(x)
                vals.append(1.0)
            if a != s:
                r = row.setdefault((i, a), len(row))
                rows.append(r)
                cols.append(x)
                vals.append(-1.0)
    srci = {s: i for i, s in enumerate(srcs)}
    for q, (s, t, d) in enumerate(ys):
        r = row.setdefault((srci[s], t), len(row))
        rows.append(r)
        cols.append(nf + q)
        vals.append(-1.0)
    aeq = csr_matrix((vals, (rows, cols)), shape=(len(row), nv))
    beq = np.zeros(len(row))
    # capacity: sum over commodities of arc j <= 1
    r2, c2 = [], []
    for i in range(len(srcs)):
        for j in range(na):
            r2.append(j)
            c2.append(i * na + j)
    aub = csr_matrix((np.ones(len(r2)), (r2, c2)), shape=(na, nv))
    bub = np.ones(na)
    c = np.zeros(nv)
    c[nf:] = -1.0
    bounds = [(0, None)] * nf + [(0, d) for (s, t, d) in ys]
    # interior point: simplex took over 10 min at 125 switches
    res = linprog(c, A_ub=aub, b_ub=bub, A_eq=aeq, b_eq=beq, bounds=bounds,
                  method='highs-ipm')
    if res.status != 0:
        raise RuntimeError('LP: ' + res.message)
    return -res.fun + local


def path_throughput(fab, dem, k):
    """The same LP restricted to the k shortest paths of each switch pair
    (the path formulation of Jellyfish [14] and of the S2 authors' later
    work): a lower bound of ideal_throughput(), small enough for 125
    switches in seconds."""
    g = nx.Graph()
    g.add_nodes_from(range(fab.n))
    g.add_edges_from(fab.edges)
    arc = {}
    for a, b in fab.edges:
        # parallel cables add capacity
        arc[(a, b)] = arc.get((a, b), 0) + 1
        arc[(b, a)] = arc.get((b, a), 0) + 1
    aidx = {e: j for j, e in enumerate(arc)}
    local = sum(d for (s, t), d in dem.items() if s == t)
    pairs = [(s, t, d) for (s, t), d in sorted(dem.items()) if s != t]
    rows, cols, nv, prow = [], [], 0, []
    for q, (s, t, d) in enumerate(pairs):
        if not nx.has_path(g, s, t):
            continue    # degree 2: Jellyfish may be several rings
        got = 0
        for p in nx.shortest_simple_paths(g, s, t):
            for a, b in zip(p, p[1:]):
                rows.append(aidx[(a, b)])
                cols.append(nv)
            prow.append(q)
            nv += 1
            got += 1
            if got == k:
                break
    aub = csr_matrix((np.ones(len(rows)), (rows, cols)),
                     shape=(len(arc), nv))
    dem_rows = csr_matrix((np.ones(nv), (prow, list(range(nv)))),
                          shape=(len(pairs), nv))
    from scipy.sparse import vstack
    a = vstack([aub, dem_rows]).tocsr()
    b = np.concatenate([np.array([arc[e] for e in arc], dtype=float),
                        np.array([d for (s, t, d) in pairs], dtype=float)])
    res = linprog(-np.ones(nv), A_ub=a, b_ub=b, bounds=(0, None),
                  method='highs')
    if res.status != 0:
        raise RuntimeError('LP: ' + res.message)
    return -res.fun + local


def s2_state(fab):
    """Greediest routing's table: the coordinates (one per space) of every
    1-hop and 2-hop neighbour (the paper's section 4.1.1 and 6.4)."""
    g = nx.Graph()
    g.add_nodes_from(range(fab.n))
    g.add_edges_from(fab.edges)
    L = len(fab.coords[0])
    out = []
    for v in range(fab.n):
        nb = set(g[v])
        two = set()
        for w in nb:
            two |= set(g[w])
        two |= nb
        two.discard(v)
        out.append(L * len(two))
    return out


def ksp_state(fab, k, pairs, seed):
    """Jellyfish's k-shortest-path routing, MPLS style ([14]): one entry
    per path on every switch that forwards it (the source and each
    intermediate).  Mean over switches estimated from @pairs random
    ordered switch pairs: N(N-1) * mean(sum of k path hops) / N."""
    g = nx.Graph()
    g.add_edges_from(fab.edges)
    rng = random.Random(seed)
    tot = 0
    for _ in range(pairs):
        a, b = rng.sample(range(fab.n), 2)
        got = 0
        for p in nx.shortest_simple_paths(g, a, b):
            tot += len(p) - 1
            got += 1
            if got == k:
                break
    return (fab.n - 1) * tot / pairs


def cmd_bisect(o):
    fab = build(o)
    mn, mean = bisect(fab, o.partitions, o.seed, o.switch_level)
    out(o, {'fabric': fab.name, 'nodes': fab.n, 'servers': fab.servers,
            'partitions': o.partitions, 'min': mn, 'mean': round(mean, 2),
            'min_per_half': round(mn / (fab.servers // 2), 4)})


# The fabrics of "Choosing a fabric" (dpillar-evaluation.rst) at each
# size, and small ones for eval-check.sh: (fabric, n, k, i) or
# ('s2', ToRs) with 24-port ToRs of 8 servers; "random" is the
# chapter's old column: the least of 5 random halvings (2 at 100,000),
# whatever --partitions says.
CUT_SETS = {
    'small': [('dpillar', 8, 3, None), ('dcell', 11, 1, None),
              ('bcube', 5, 2, None), ('xdcent', 5, 2, 2), ('s2', 20)],
    '1k': [('dpillar', 8, 4, None), ('dcell', 31, 1, None),
           ('bcube', 10, 2, None), ('xdcent', 10, 2, 2), ('s2', 125)],
    '10k': [('dpillar', 30, 3, None), ('dcell', 9, 2, None),
            ('bcube', 10, 3, None), ('xdcent', 10, 2, 3), ('s2', 1250)],
    '100k': [('dpillar', 26, 4, None), ('dcell', 16, 2, None),
             ('bcube', 10, 4, None), ('xdcent', 10, 2, 4)],
}
PRETTY = {'dpillar': 'DPillar', 'dcell': 'DCell', 'bcube': 'BCube',
          'xdcent': 'XDCent'}


def cmd_cuts(o):
    """Bisection per server of a half, in cables (a server-centric
    fabric's server forwards freely; an S2 server is behind its one
    link): the paper's figure, the least structured cut (which), the
    least of --kl-seeds Kernighan-Lin halvings, the least of
    --partitions random halvings (bisect's), the congestion lower bound;
    the NIC ports per server bound it from above."""
    methods = o.method.split(',')
    if o.set:
        todo = []
        for row in CUT_SETS[o.set]:
            if row[0] == 's2':
                todo.append(('S2, %s ToRs' % format(row[1], ','),
                             lambda r=row: s2(r[1], 24, 8, o.seed,
                                              o.cache)))
            else:
                name = '%s (%s)' % (PRETTY[row[0]], ','.join(
                    str(x) for x in row[1:] if x is not None))
                todo.append((name, lambda r=row: server_centric(*r)))
        parts = 2 if o.set == '100k' else 5
    else:
        todo = [(o.fabric, lambda: build(o))]
        parts = o.partitions
    if not o.json:
        print('%-18s %8s  %-6s %-22s %-5s %-6s %-6s %s' % (
            'fabric', 'servers', 'paper', 'structured (cut)', 'KL',
            'random', 'lower', 'NIC'))
    for name, make in todo:
        fab = make()
        r = cuts(fab, methods, parts, o.seed, o.kl_seeds)
        h = fab.servers // 2

        def per(v):
            return '%.2f' % (v / h)
        p = r.get('paper')
        row = {'fabric': name, 'servers': fab.servers,
               'paper': '-' if p is None else p[1] + per(p[0]),
               'structured': '-', 'kl': '-', 'random': '-', 'lower': '-',
               'nic': nic_ports(fab)}
        if 'paper' not in methods:
            row['paper'] = '-'
        if 'structured' in r:
            row['structured'] = '%s (%s)' % (per(r['structured'][0]),
                                             r['structured'][1])
        for m in ('kl', 'random', 'lower'):
            if m in r:
                row[m] = per(r[m])
        if o.json:
            row.update({m + '_cables': (r[m][0] if isinstance(r[m], tuple)
                                        else r[m])
                        for m in r if r[m] is not None})
            print(json.dumps(row))
        else:
            print('%-18s %8s  %-6s %-22s %-5s %-6s %-6s %d' % (
                name, format(fab.servers, ','), row['paper'],
                row['structured'], row['kl'], row['random'], row['lower'],
                row['nic']))
        sys.stdout.flush()


# The DPillar paper's Table I: the unit price of a switch by its ports
# (newegg, 2010) and of a cable; a server's NIC ports are not priced
# ("most off-the-shelf servers already integrate dual-port interfaces").
TABLE_I = {8: 50, 16: 150, 24: 180, 48: 600}
CABLE_PRICE = 1


def table_i_switch(ports):
    """The smallest switch of Table I with at least @ports ports."""
    fit = [p for p in sorted(TABLE_I) if p >= ports]
    if not fit:
        raise ValueError('no Table I switch of %d ports' % ports)
    return fit[0]


def inventory(fab, tor_ports=24):
    """What a fabric is made of: servers, switches, the ports of a switch,
    switch ports, cables, NIC ports per server (installed: a port kept
    free for growth counts), and its cost at Table I's prices, each
    switch bought as the smallest Table I switch with enough ports
    ("cost") or paid per port at that switch's price per port ("cost
    per port").  S2: @tor_ports-port ToRs, one cable per server."""
    if fab.server_centric:
        deg = {}
        for a, b in fab.edges:
            deg[a] = deg.get(a, 0) + 1
            deg[b] = deg.get(b, 0) + 1
        ports = max(deg[v] for v in fab.switches)
        sw_ports = sum(deg[v] for v in fab.switches)
        cables = len(fab.edges)
    else:
        ports = tor_ports
        sw_ports = tor_ports * len(fab.switches)
        cables = len(fab.edges) + fab.servers
    nic = nic_ports(fab)
    buy = table_i_switch(ports)
    sw = len(fab.switches)
    return {'servers': fab.servers, 'switches': sw, 'ports': ports,
            'switch_ports': sw_ports, 'cables': cables, 'nic': nic,
            'nic_ports': nic * fab.servers, 'bought': buy,
            'cost': sw * TABLE_I[buy] + cables * CABLE_PRICE,
            'cost_per_port': (sw_ports * TABLE_I[buy] / buy +
                              cables * CABLE_PRICE)}


def read_tcp(path):
    """{fabric: (flows, TCP %, ABT)} from the summary
    tools/ns3/eval-fabric.sh writes; its S2 row is named "S2 (nodes N,
    p" (cut at 16 characters)."""
    res = {}
    with open(path) as f:
        for line in f:
            m = re.match(r'(\S.*?)\s+(\d+)\s+([\d.]+)\s+[\d.]+-\s*[\d.]+'
                         r'\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+([\d.]+)\s', line)
            if m:
                res[m.group(1)] = (int(m.group(2)),
                                              float(m.group(3)),
                                              float(m.group(4)))
    return res


def cmd_inventory(o):
    """The fabrics of --set: what they are made of and cost (Table I),
    then the chapter's figures per 1,000 cables, switch ports and NIC
    ports and per $1,000: TCP (from --tcp, eval-fabric.sh's summary) as
    a percentage of line rate and as goodput in links (flows x TCP %),
    ABT in links, and the bisection in cables (the least of the
    structured and Kernighan-Lin cuts, and the congestion lower bound,
    as cuts computes them)."""
    tcp = read_tcp(o.tcp) if o.tcp else {}
    rows = []
    for row in CUT_SETS[o.set]:
        if row[0] == 's2':
            name = 'S2, %s ToRs' % format(row[1], ',')
            fab = s2(row[1], 24, 8, o.seed, o.cache)
        else:
            name = '%s (%s)' % (PRETTY[row[0]], ','.join(
                str(x) for x in row[1:] if x is not None))
            fab = server_centric(*row)
        inv = inventory(fab)
        r = cuts(fab, ['structured', 'kl', 'lower'], 0, o.seed, o.kl_seeds)
        inv['cut'] = min(r['structured'][0], r['kl'])
        inv['lower'] = r['lower']
        t = tcp.get(name if row[0] != 's2' else 'S2 (nodes %d, p' % row[1])
        if t:
            inv['tcp_pct'], inv['goodput'] = t[1], t[0] * t[1] / 100
            inv['abt'] = t[2]
        rows.append((name, inv))
    if o.json:
        for name, inv in rows:
            print(json.dumps(dict(fabric=name, **inv)))
        return
    print('%-16s %7s %8s %8s %7s %5s %-7s %8s %8s' % (
        'fabric', 'servers', 'switches', 'sw ports', 'cables', 'NIC',
        'Table I', '$/server', 'per port'))
    for name, inv in rows:
        print('%-16s %7s %8s %8s %7s %5s %-7s %8.2f %8.2f' % (
            name, format(inv['servers'], ','), format(inv['switches'], ','),
            format(inv['switch_ports'], ','), format(inv['cables'], ','),
            inv['nic'],
            '%d:$%d' % (inv['bought'], TABLE_I[inv['bought']]),
            inv['cost'] / inv['servers'],
            inv['cost_per_port'] / inv['servers']))
    figs = [('TCP %', 'tcp_pct', '%.1f'), ('TCP, links', 'goodput', '%.0f'),
            ('ABT, links', 'abt', '%.2f'), ('least cut', 'cut', '%.0f'),
            ('lower bound', 'lower', '%.0f')]
    print()
    print('%-12s %-16s %7s %8s %8s %8s %8s %8s' % (
        'figure', 'fabric', 'value', '/1k cab', '/1k swp', '/1k NIC',
        '/$1k', '/$1k pp'))
    for label, key, fmt in figs:
        for i, (name, inv) in enumerate(rows):
            if key not in inv:
                continue
            v = inv[key]
            print('%-12s %-16s %7s %8.2f %8.2f %8.2f %8.2f %8.2f' % (
                label if i == 0 else '', name, fmt % v,
                1000 * v / inv['cables'], 1000 * v / inv['switch_ports'],
                1000 * v / inv['nic_ports'], 1000 * v / inv['cost'],
                1000 * v / inv['cost_per_port']))


def cmd_table1(_o):
    """The DPillar paper's Table I: (n, 4) DPillars of its four switches,
    counted from dpsim plan --csv (one line per cable), priced as the
    paper does: switches x U_s + cables x U_c, and its per-server
    formula 2 (U_s / n + U_c)."""
    print('%-9s %9s %7s %9s %12s %9s %9s' % (
        'switch', 'servers', 'ports/', 'switches', 'networking',
        'per', '2(Us/n'))
    print('%-9s %9s %7s %9s %12s %9s %9s' % (
        '', '', 'server', '', 'cost', 'server', '+ Uc)'))
    for n in sorted(TABLE_I):
        out = subprocess.run([DPSIM, 'plan', '-n', str(n), '-k', '4',
                              '--csv'], check=True, capture_output=True,
                             text=True).stdout
        lines = out.splitlines()[1:]
        # server,port,switch_col,switch_id
        servers = {x.partition(',')[0] for x in lines}
        switches = {x.split(',', 2)[2] for x in lines}
        cables = len(lines)
        cost = len(switches) * TABLE_I[n] + cables * CABLE_PRICE
        print('%-9s %9s %7.0f %9s %12s %9.2f %9.2f' % (
            '%d:$%d' % (n, TABLE_I[n]), format(len(servers), ','),
            cables / len(servers), format(len(switches), ','),
            '$' + format(cost, ','), cost / len(servers),
            2 * (TABLE_I[n] / n + CABLE_PRICE)))


def server_hops(fab):
    """The servers of a server-centric fabric, numbered 0..N-1, as a
    graph of dpsim's hops (two servers are adjacent when they share a
    switch or a cable): (CSR adjacency, server node ids, addresses)."""
    srv = [v for v in range(fab.n) if fab.hosts[v]]
    idx = {v: i for i, v in enumerate(srv)}
    rows, cols, members = [], [], {}
    for a, b in fab.edges:
        if a in idx and b in idx:
            rows += [idx[a], idx[b]]
            cols += [idx[b], idx[a]]
        else:
            s, w = (a, b) if a in idx else (b, a)
            members.setdefault(w, []).append(idx[s])
    for ms in members.values():
        for x in ms:
            for y in ms:
                if x != y:
                    rows.append(x)
                    cols.append(y)
    m = coo_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)),
                   shape=(len(srv), len(srv))).tocsr()
    return m, srv, ['.'.join(str(d) for d in fab.addr[v]) for v in srv]


def bfs_hops(adj, src):
    """Hops from server @src to every server (-1: unreachable)."""
    dist = np.full(adj.shape[0], -1, dtype=np.int32)
    front = np.zeros(adj.shape[0], dtype=np.float32)
    front[src] = 1
    dist[src] = 0
    d = 0
    while True:
        new = (adj @ front > 0) & (dist < 0)
        if not new.any():
            return dist
        d += 1
        dist[new] = d
        front = new.astype(np.float32)


def cmd_diameter(o):
    """A lower bound of the diameter in dpsim's hops (DCell: a hop over
    a mini-switch is one, as the paper counts): --sweeps double sweeps,
    each a BFS from a server and then from the farthest server it
    found (the first in address order), starting from server 0 and
    then from random servers; the largest eccentricity found, with its
    pair.  --pair A,B: also the BFS hops from A to B."""
    fab = build(o)
    adj, _, names = server_hops(fab)
    rng = random.Random(o.seed)
    best = (-1, None, None)
    for i in range(o.sweeps):
        src = 0 if i == 0 else rng.randrange(adj.shape[0])
        for _ in range(2):
            dist = bfs_hops(adj, src)
            far = int(dist.argmax())
            if dist[far] > best[0]:
                best = (int(dist[far]), names[src], names[far])
            print('sweep %d: eccentricity of %s: %d (to %s)' % (
                i + 1, names[src], dist[far], names[far]))
            sys.stdout.flush()
            src = far
    print('servers %d, diameter >= %d (%s -> %s)' % (
        adj.shape[0], best[0], best[1], best[2]))
    if o.pair:
        a, b = o.pair.split(',')
        dist = bfs_hops(adj, names.index(a))
        print('BFS hops %s -> %s: %d' % (a, b, dist[names.index(b)]))


def cmd_pairflow(o):
    """The DCell paper's "the maximum bandwidth between any two nodes in
    a DCell_k is k + 1" (section 4.1.1, with multi-path routing): the max
    flow between two servers, every cable (and server-switch link) one
    unit, switches and servers forwarding freely; over every pair of
    servers (--pairs 0) or --pairs random ones.  Prints the servers, the
    pairs, the least and the largest flow, and the NIC ports per
    server, which bound it."""
    fab = build(o)
    servers = [v for v in range(fab.n) if fab.hosts[v]]
    if o.pairs:
        rng = random.Random(o.seed)
        pairs = [tuple(rng.sample(servers, 2)) for _ in range(o.pairs)]
    else:
        pairs = [(a, b) for i, a in enumerate(servers)
                 for b in servers[i + 1:]]
    flows = [maxflow(fab.n, fab.edges, {a: INF}, {b: INF})
             for a, b in pairs]
    print('%s (%s): %d servers, %d pairs, max flow %d to %d, NIC ports %d'
          % (PRETTY.get(fab.name, fab.name), ','.join(
              str(x) for x in fab.size if x is not None), len(servers),
             len(pairs), min(flows), max(flows), nic_ports(fab)))


def dcell_sigma(n, k):
    """Theorem 6's group sizes: sigma_i = t_{i-1} * prod_{j=i+1..k} g_j
    for 0 < i < k, sigma_k = t_{k-1}, sigma_0 = t_k - sum of the others
    (g_j = t_{j-1} + 1, t_0 = n)."""
    t = [n]
    for _ in range(k):
        t.append(t[-1] * (t[-1] + 1))
    sig = [0] * (k + 1)
    for i in range(1, k + 1):
        sig[i] = t[i - 1]
        for j in range(i + 1, k + 1):
            sig[i] *= t[j - 1] + 1
    sig[0] = t[k] - sum(sig[1:])
    return sig


def cmd_fanflow(o):
    """The DCell paper's Theorem 6 and the sentence after it (section
    4.1.1): the servers of a DCell_k fall, seen from a source src, in
    k + 1 groups, Group_i those whose DCellRouting path leaves src by its
    level-i link (level 0: its mini-switch), of sigma_i servers (src
    counted in Group_0, as sigma_0 = t_k - sum of the others counts it);
    "When src communicates with m other nodes, it can pick a node from
    each of Group0, Group1, etc.  This way, the maximum aggregate
    bandwidth at src is min(m, k + 1) when assuming the bandwidth of each
    link as one."  Measured for every source (--sources 0) or --sources
    random ones: (1) the group sizes, from dpsim pairs --mode paper's
    first hops, against sigma_i; (2) for m = 1 .. k + 2, the max flow from
    src to m destinations each taking at most one unit (one stream at one
    link's rate), every link one unit each way, nodes forwarding freely:
    over the sets of one destination from each of m groups (m <= k + 1)
    and over random sets, --sets of each a source, the least and the
    largest against min(m, k + 1); (3) DCellRouting's own paths to k + 1
    destinations, one in each group, and to k + 1 random ones: the most
    of them on one directed link, least and largest over the sets (1:
    the k + 1 streams all go at one unit, k + 1 in all)."""
    if o.fabric != 'dcell':
        sys.exit('fanflow: DCell only (--fabric dcell)')
    fab = build(o)
    n, k, _ = fab.size
    byaddr = {a: v for v, a in fab.addr.items()}
    servers = sorted(byaddr.values())
    rng = random.Random(o.seed)
    srcs = servers if not o.sources else rng.sample(servers, o.sources)
    want = set(srcs)
    paths = {}
    for line in run_dpsim(['pairs', '--topo', 'dcell', '-n', str(n),
                           '-k', str(k), '--mode', 'paper']).splitlines():
        f = line.split()
        s = byaddr[tuple(int(x) for x in f[0].split('.'))]
        if s not in want:
            continue
        if f[2] != 'delivered':
            sys.exit('fanflow: not delivered: ' + line)
        paths[s, byaddr[tuple(int(x) for x in f[1].split('.'))]] = [
            byaddr[tuple(int(x) for x in a.split('.'))]
            for a in f[4].split(',')]

    def level(a, b):
        # the highest digit where two neighbours differ (digits are
        # a_k .. a_0): the level of the link between them
        x, y = fab.addr[a], fab.addr[b]
        return max(k - j for j in range(k + 1) if x[j] != y[j])

    def links(p):
        # directed links of a path: server-server hops inside a DCell_0
        # pass its switch (two links), others are cables
        out = []
        for a, b in zip(p, p[1:]):
            if level(a, b) == 0:
                sw = ('w',) + fab.addr[a][:-1]
                out += [(a, sw), (sw, b)]
            else:
                out.append((a, b))
        return out

    sig = dcell_sigma(n, k)
    same = 0
    fan = {m: [None, None, None, None] for m in range(1, k + 3)}
    worst, best = [0, 0], [INF, INF]
    for s in srcs:
        groups = [[] for _ in range(k + 1)]
        for d in servers:
            if d != s:
                groups[level(s, paths[s, d][1])].append(d)
        got = [len(g) for g in groups]
        got[0] += 1
        same += got == sig
        for m in range(1, k + 3):
            for kind in (0, 1):
                if kind == 0 and m > k + 1:
                    continue
                for _ in range(o.sets):
                    if kind == 0:
                        dst = [rng.choice(groups[i])
                               for i in rng.sample(range(k + 1), m)]
                    else:
                        dst = rng.sample([d for d in servers if d != s], m)
                    f = maxflow(fab.n, fab.edges, {s: INF},
                                {d: 1 for d in dst})
                    lo, hi = fan[m][2 * kind], fan[m][2 * kind + 1]
                    fan[m][2 * kind] = f if lo is None else min(lo, f)
                    fan[m][2 * kind + 1] = f if hi is None else max(hi, f)
        for _ in range(o.sets):
            for kind in (0, 1):
                if kind == 0:
                    dst = [rng.choice(g) for g in groups]
                else:
                    dst = rng.sample([d for d in servers if d != s], k + 1)
                load = {}
                for d in dst:
                    for e in links(paths[s, d]):
                        load[e] = load.get(e, 0) + 1
                worst[kind] = max(worst[kind], max(load.values()))
                best[kind] = min(best[kind], max(load.values()))
    print('DCell (%d,%d): %d servers, %d sources, %d sets a source and m;'
          ' group sizes of Theorem 6 %s: %d of %d sources'
          % (n, k, len(servers), len(srcs), o.sets,
             ' '.join(str(x) for x in sig), same, len(srcs)))
    for m in range(1, k + 3):
        lo0, hi0, lo1, hi1 = fan[m]
        grp = ('one a group %d to %d' % (lo0, hi0) if lo0 is not None
               else 'one a group -')
        print('  m %d: min(m, k+1) %d; max flow, %s, random %d to %d'
              % (m, min(m, k + 1), grp, lo1, hi1))
    print('  DCellRouting to k+1, the most paths on one link: one a group'
          ' %d to %d, random %d to %d'
          % (best[0], worst[0], best[1], worst[1]))


def cmd_thru(o):
    fab = build(o)
    rng = random.Random(o.seed)
    dem = permutation(fab, rng)
    if o.paths:
        t = path_throughput(fab, dem, o.paths)
    else:
        t = ideal_throughput(fab, dem)
    out(o, {'fabric': fab.name, 'nodes': fab.n, 'servers': fab.servers,
            'throughput': round(t, 3),
            'per_server': round(t / fab.servers, 4)})


def cmd_state(o):
    fab = build(o)
    r = {'fabric': fab.name, 'switches': fab.n,
         'shortest_path_table': fab.n - 1}
    if fab.coords and fab.coords[0]:
        st = s2_state(fab)
        r.update({'s2_mean': round(sum(st) / len(st), 1), 's2_max': max(st)})
    else:
        r['ksp_mean'] = round(ksp_state(fab, o.k, o.pairs, o.seed), 1)
    out(o, r)


def build(o):
    if o.fabric in ('s2', 'jellyfish'):
        if o.fabric == 's2':
            f = s2(o.switches, o.ports, o.servers, o.seed, o.cache)
        else:
            f = jellyfish(o.switches, o.ports - o.servers, o.servers,
                          o.seed)
        if o.total_servers:
            # the paper's non-integer ratios (4.8:1, 12.8:1): H servers
            # spread as evenly as possible; the fabric keeps the
            # inter-switch ports of --servers per switch (ceil(H/N))
            q, r = divmod(o.total_servers, f.n)
            f.hosts = [q + (1 if v < r else 0) for v in range(f.n)]
        return f
    if o.fabric == 'fattree':
        return fattree(o.k)
    return server_centric(o.fabric, o.n, o.k, o.level)


def out(o, r):
    if o.json:
        print(json.dumps(r))
    else:
        print(' '.join(str(v) for v in r.values()))


def selftest(_o):
    """Known answers, a few seconds."""
    ok = True

    def check(what, got, want):
        nonlocal ok
        good = abs(got - want) < 1e-6
        ok &= good
        print('%s %s: %s (want %s)' % ('ok' if good else 'FAIL', what,
                                        got, want))

    # fat tree k=4: 16 servers, non-blocking: every halving gets 8.
    ft = fattree(4)
    check('fattree(4) servers', ft.servers, 16)
    check('fattree(4) bisection', bisect(ft, 5, 1)[0], 8)
    # ring of 8 switches, 1 server each: a switch-level halving into two
    # arcs is cut by 2 links each way; the min over random halvings is 2.
    ring = Fabric('ring', 8, [(i, (i + 1) % 8) for i in range(8)],
                  [1] * 8, list(range(8)))
    check('ring(8) switch-level min', bisect(ring, 30, 1, True)[0], 2)
    # throughput: 2 switches, one link, 2 servers each, all cross traffic
    # 2 -> 2 each way: the link carries 1 each way, so 2 in total.
    two = Fabric('two', 2, [(0, 1)], [2, 2], [0, 1])
    check('two switches throughput',
          ideal_throughput(two, {(0, 1): 2, (1, 0): 2}), 2)
    # a permutation on a fat tree is fully served (non-blocking): 16.
    check('fattree(4) permutation',
          ideal_throughput(ft, permutation(ft, random.Random(3))), 16)
    # dpsim's S2: every switch has its rings, 2 servers each; the 2-hop
    # state is L coordinates per distinct 1- and 2-hop neighbour.
    f = s2(20, 8, 2, 1)
    check('s2(20) servers', f.servers, 40)
    check('s2(20) degree 6', max(d for _, d in f.graph().degree()), 6)
    st = s2_state(f)
    check('s2 state bound', int(max(st) <= 3 * (6 + 6 * 5)), 1)
    # DPillar (4,2) from dpsim: 8 servers of 2 ports, 4 switches.
    dp = server_centric('dpillar', 4, 2)
    check('dpillar(4,2) servers', dp.servers, 8)
    check('dpillar(4,2) nodes', dp.n, 12)
    # Table I's first column: (8,4) at $50 a switch, $1 a cable: $14.5
    inv = inventory(server_centric('dpillar', 8, 4))
    check('dpillar(8,4) cost per server', inv['cost'] / inv['servers'],
          14.5)
    # cuts: DPillar (8,2) split on one symbol cuts (n/2)^k = 16 cables
    # (Prop. II.1), on the column all 8 switches (32); BCube (4,1) split
    # on a digit N/2 = 8; the congestion bound is below both.
    dp = server_centric('dpillar', 8, 2)
    n, edges, srv, tor = explicit(dp)
    st = structured(dp, n, edges, srv, tor)
    check('dpillar(8,2) symbol cut', st['symbol 0'], 16)
    check('dpillar(8,2) column cut', st['column'], 32)
    check('dpillar(8,2) congestion < 16',
          int(congestion(n, edges, srv)[0] < 16), 1)
    bc = server_centric('bcube', 4, 1)
    n, edges, srv, tor = explicit(bc)
    check('bcube(4,1) digit cut', structured(bc, n, edges, srv, tor)[
        'digit 1'], 8)
    # BCube is arc-transitive: every link carries N (n-1)/n one way, so
    # the bound is (N/2)^2 n / (N (n-1)) = 16/3 here
    check('bcube(4,1) congestion', congestion(n, edges, srv)[0], 16 / 3)
    # a ring of 8 servers (server-centric, no switch): a halving into
    # two arcs cuts 2; all pairs over shortest paths (the opposite one
    # split half and half) load each directed link with 3.5 + 2.5 +
    # 1.5 + 0.5 = 8 (from the 4 sources behind it): 4 * 4 / 8 = 2, tight.
    ring = Fabric('ring', 8, [(i, (i + 1) % 8) for i in range(8)],
                  [1] * 8, [])
    ring.server_centric = True
    check('ring(8) congestion bound',
          congestion(*explicit(ring)[:3])[0], 2)
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('cmd', choices=['bisect', 'cuts', 'thru', 'state',
                                    'inventory', 'table1', 'diameter',
                                    'pairflow', 'fanflow', 'selftest'])
    ap.add_argument('--fabric', default='s2',
                    help='s2 jellyfish fattree dpillar dcell bcube xdcent')
    ap.add_argument('--switches', type=int, default=125)
    ap.add_argument('--ports', type=int, default=10)
    ap.add_argument('--servers', type=int, default=2,
                    help='servers per switch (s2, jellyfish)')
    ap.add_argument('--total-servers', type=int, default=0,
                    help='s2, jellyfish: this many servers in all')
    ap.add_argument('-n', type=int, default=4)
    ap.add_argument('-k', type=int, default=2,
                    help='fat tree ports; server-centric k; ksp paths')
    ap.add_argument('-i', '--level', type=int)
    ap.add_argument('--partitions', type=int, default=50)
    ap.add_argument('--switch-level', action='store_true')
    ap.add_argument('--method', default='paper,structured,kl,random,lower',
                    help='cuts: any of paper structured kl random lower')
    ap.add_argument('--set', choices=sorted(CUT_SETS),
                    help="cuts: the fabrics of a size (see CUT_SETS)")
    ap.add_argument('--kl-seeds', type=int, default=5,
                    help='cuts: Kernighan-Lin runs, the best kept')
    ap.add_argument('--paths', type=int, default=0,
                    help='thru: LP over the K shortest paths per pair '
                    '(default: the exact edge LP)')
    ap.add_argument('--pairs', type=int, default=50)
    ap.add_argument('--sources', type=int, default=0,
                    help='fanflow: random sources (0: every server)')
    ap.add_argument('--sets', type=int, default=10,
                    help='fanflow: destination sets a source and size')
    ap.add_argument('--sweeps', type=int, default=4,
                    help='diameter: double sweeps')
    ap.add_argument('--pair', help='diameter: A,B (addresses)')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--tcp', default=os.path.join(
        HERE, '..', 'ns3', 'eval-out', 'fabric', 'summary.txt'),
        help='inventory: eval-fabric.sh summary ("" for none)')
    ap.add_argument('--cache', help='directory for dpsim S2 plans')
    ap.add_argument('--json', action='store_true')
    o = ap.parse_args()
    sys.exit({'bisect': cmd_bisect, 'cuts': cmd_cuts, 'thru': cmd_thru,
              'state': cmd_state, 'inventory': cmd_inventory,
              'table1': cmd_table1, 'diameter': cmd_diameter,
              'pairflow': cmd_pairflow, 'fanflow': cmd_fanflow,
              'selftest': selftest}[o.cmd](o) or 0)


if __name__ == '__main__':
    main()
