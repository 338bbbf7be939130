#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The S2 paper's baseline fabrics as graph files for dpns3 --graph.

  fattree K             k-ary fat tree (Al-Fares), ECMP over shortest paths
  jellyfish N D H SEED  random regular graph of N switches of D fabric
                        ports, H hosts each; k shortest paths (k = 8)
  swdc KIND N P H SEED  Small-World Data Center (Shin, Wong, Sirer, SoCC
                        2011, the S2 paper's [7]): KIND ring, torus2d or
                        hex3d lattice of N switches, the rest of P fabric
                        ports random links, H hosts each; greedy routing

Jellyfish and the fat tree are eval-s2bw.py's builders (tools/dpsim,
Fig. 9-11), taken from that file as they are: its other imports (numpy,
scipy) are not needed here.  The SWDC lattices: ring i ~ i+1 (2 ports);
2D torus X x Y, X the largest factor of N up to sqrt(N) (4 ports);
3D hexagonal torus: Z layers of an X x Y brick-wall hexagonal torus (3
ports in the layer, X and Y even) and a ring through the layers (2),
5 ports; the random links pair the free ports uniformly (SWDC's
random links; the paper we have does not give their distribution).

The output (stdout): "name", "routing", "nodes", "hosts NODE H" and
"link A B [lattice]" lines, read by dpns3 --graph and by dpsim ft
--topo s2 --file (the S2 paper's Fig. 21: tools/dpsim/eval-s2.sh).
"""
import ast
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BW = os.path.join(HERE, '..', 'dpsim', 'eval-s2bw.py')


def _builders():
    """Fabric, jellyfish() and fattree() from eval-s2bw.py's source."""
    tree = ast.parse(open(BW).read())
    keep = [n for n in tree.body if getattr(n, 'name', None) in
            ('Fabric', 'jellyfish', 'fattree')]
    ns = {'random': random, 'nx': None}
    exec(compile(ast.Module(body=keep, type_ignores=[]), BW, 'exec'), ns)
    return ns


B = _builders()


def random_links(n, free, adj, rng):
    """Pair the free ports at random, no self-loop, no second link
    between two switches; a port left without a partner stays free."""
    out, misses = [], 0
    while misses < 2000:
        open_ = [v for v in range(n) if free[v] > 0]
        if len(open_) < 2:
            break
        a, b = rng.sample(open_, 2)
        if b in adj[a]:
            misses += 1
            continue
        adj[a].add(b)
        adj[b].add(a)
        free[a] -= 1
        free[b] -= 1
        out.append((a, b))
    return out


def square(n):
    x = max(d for d in range(1, int(n ** 0.5) + 1) if n % d == 0)
    return x, n // x


def swdc(kind, n, ports, hosts, seed):
    lat = set()
    if kind == 'ring':
        lat = {(i, (i + 1) % n) for i in range(n)}
    elif kind == 'torus2d':
        x, y = square(n)
        for i in range(x):
            for j in range(y):
                v = i * y + j
                lat.add((v, ((i + 1) % x) * y + j))
                lat.add((v, i * y + (j + 1) % y))
    elif kind == 'hex3d':
        # Z layers of X x Y, X and Y even, Z >= 3
        dims = [(x, y, n // (x * y)) for x in range(2, n, 2)
                for y in range(2, n, 2) if n % (x * y) == 0 and
                n // (x * y) >= 3]
        x, y, z = min(dims, key=lambda d: (max(d) - min(d), -d[0]))

        def v(i, j, k):
            return (k * x + i % x) * y + j % y
        for k in range(z):
            for i in range(x):
                for j in range(y):
                    lat.add((v(i, j, k), v(i + 1, j, k)))
                    if (i + j) % 2 == 0:
                        lat.add((v(i, j, k), v(i, j + 1, k)))
                    lat.add((v(i, j, k), v(i, j, (k + 1) % z)))
    else:
        raise SystemExit('swdc: ring, torus2d or hex3d')
    lat = {(min(a, b), max(a, b)) for a, b in lat if a != b}
    adj = {v: set() for v in range(n)}
    for a, b in lat:
        adj[a].add(b)
        adj[b].add(a)
    free = {v: ports - len(adj[v]) for v in range(n)}
    if min(free.values()) < 0:
        raise SystemExit('swdc: %s needs more than %d ports' % (kind, ports))
    rnd = random_links(n, free, adj, random.Random(seed))
    return sorted(lat), rnd, [hosts] * n


def write(name, routing, n, hosts, lattice, other, f=sys.stdout):
    f.write('name %s\nrouting %s\nnodes %d\n' % (name, routing, n))
    for v, h in enumerate(hosts):
        if h:
            f.write('hosts %d %d\n' % (v, h))
    for a, b in lattice:
        f.write('link %d %d lattice\n' % (a, b))
    for a, b in other:
        f.write('link %d %d\n' % (a, b))


def main(argv):
    if len(argv) >= 2 and argv[1] == 'fattree':
        fab = B['fattree'](int(argv[2]))
        write('fattree-k%s' % argv[2], 'ecmp', fab.n, fab.hosts, [],
              fab.edges)
    elif len(argv) == 6 and argv[1] == 'jellyfish':
        n, d, h, seed = map(int, argv[2:])
        fab = B['jellyfish'](n, d, h, seed)
        write('jellyfish', 'ksp', fab.n, fab.hosts, [], fab.edges)
    elif len(argv) == 7 and argv[1] == 'swdc':
        n, p, h, seed = map(int, argv[3:])
        lat, rnd, hosts = swdc(argv[2], n, p, h, seed)
        write('swdc-' + argv[2], 'greedy', n, hosts, lat, rnd)
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
