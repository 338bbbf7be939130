#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""xdc_n2k3_fan and xdc_n2k3_e5 (net/dpillar/topo_xdcent.c) from max-flow.

XDCent (2,3,5), the fabric of "dpsim plan --csv" (eval-xdcent-paths.py's
fabric()), servers and switches split into capacity-1 nodes, a hop
costing 1: networkx max_flow_min_cost, the flow cut into paths, each
path written as the digits it flips in turn.
  xdc_n2k3_fan[p][r]  in the half of digit 5 = 0 without its level-5
                      switches: from the server 00p (digits 4..0, p =
                      digits 2..0, not 111) four disjoint strands, one to
                      each server r11 (digits 4, 3 = r, 2..0 = 011)
  xdc_n2k3_e5[c][m]   from 000011 to F, the four disjoint paths sorted
                      by length: c = F's digits 2..0 for F = 001..., 7 +
                      them for F = 010..., 14 + them for F = 011...
Usage: xdcent-n2k3-tables.py   (prints the C tables; a few seconds)
"""
import importlib.util
import os

import networkx as nx

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    'eval_xdcent_paths', os.path.join(HERE, 'eval-xdcent-paths.py'))
ev = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ev)


def flips(path):
    s = ''
    for a, b in zip(path, path[1:]):
        d = a ^ b
        assert d & (d - 1) == 0
        s += str(d.bit_length() - 1)
    return s


def flow_paths(g, s, sinks, keep):
    """Disjoint paths of least total length from s, to one sink each."""
    d = nx.DiGraph()
    for v in g.nodes:
        if keep(v):
            d.add_edge((v, 0), (v, 1), capacity=1,
                       weight=0 if isinstance(v, tuple) else 1)
    for a, b in g.edges:
        if keep(a) and keep(b):
            d.add_edge((a, 1), (b, 0), capacity=1, weight=0)
            d.add_edge((b, 1), (a, 0), capacity=1, weight=0)
    if len(sinks) == 1 and sinks[0] != s:
        T = (sinks[0], 0)
    else:
        T = 'T'
        for t in sinks:
            d.add_edge((s, 1) if t == s else (t, 1), T, capacity=1,
                       weight=0)
    f = nx.max_flow_min_cost(d, (s, 1), T)
    paths = []
    for _ in range(sum(f[(s, 1)].values())):
        u, p = (s, 1), [s]
        while u != T:
            w = [w for w, c in f[u].items() if c > 0][0]
            f[u][w] -= 1
            u = w
            if u != T and u[1] == 0 and not isinstance(u[0], tuple):
                p.append(u[0])
        if T != 'T':
            p.append(T[0])
        paths.append(p)
    return paths


def table(name, rows):
    w = max(len(s) for r in rows for s in r) + 1
    print('static const char %s[%d][4][%d] = {' % (name, len(rows), w))
    for r in rows:
        print('\t{ ' + ', '.join('"%s"' % s for s in r) + ' },')
    print('};')


def main():
    g = ev.fabric(2, 3, 5)

    def half(v):
        return v[1] != 5 if isinstance(v, tuple) else v < 32
    fan = []
    for p in range(7):
        ps = flow_paths(g, p, [r << 3 | 3 for r in range(4)], half)
        assert len(ps) == 4
        row = [''] * 4
        for q in ps:
            row[q[-1] >> 3] = flips(q)
        fan.append(row)
    e5 = []
    for hi in (1, 2, 3):
        for lo in range(7):
            ps = flow_paths(g, 3, [hi << 3 | lo], lambda v: True)
            assert len(ps) == 4
            e5.append([flips(q) for q in sorted(ps, key=len)])
    table('xdc_n2k3_fan', fan)
    print()
    table('xdc_n2k3_e5', e5)


if __name__ == '__main__':
    main()
