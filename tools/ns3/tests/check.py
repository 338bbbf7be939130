#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""dpns3's checks (make -C tools/ns3 check, make check's step "ns3").

Tiny fabrics and short simulated times (about 8 s of host CPU; building
dpns3 about 14 s more):
every flow delivers bytes; the paths the packets took in ns-3 equal
dpsim route's, pair by pair, for the flow hash each flow used (failures
included); the ABT of a tiny BCube and a tiny DPillar equals the value
derived by hand in the comments below, within a tolerance for TCP;
hosts behind S2 servers with several connections per flow (--hosts,
--paths) route on the walker's paths and split their bytes; the
baselines of --graph (graphs.py: routed in the simulator, not by the
core) deliver on the paths their routing promises: ECMP on shortest
paths of a k = 4 fat tree over several cores, SWDC's greedy to every
destination of small lattices, Jellyfish's k shortest paths distinct and
shortest first.
Last line: "N passed, N failed".
"""
import json
import os
import subprocess
import sys
import tempfile

NS3 = './dpns3'
DPSIM = '../dpsim/dpsim'
# A TCP segment of 1448 payload bytes is 1502 bytes on a link: PPP (2),
# IPv4 (20), TCP (20) and its timestamp option (12).
GOODPUT = 1448 / 1502

passed = 0
failed = 0


def ok(cond, desc, detail=''):
    global passed, failed
    if cond:
        passed += 1
        print('PASS: ' + desc)
    else:
        failed += 1
        print('FAIL: ' + desc + (': ' + detail if detail else ''))


def run(args):
    """dpns3 ARGS --json --flows at 100 Mb/s: its JSON, or None."""
    cmd = [NS3, '--json', '--flows', '--rate', '100Mbps'] + args
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if p.returncode:
        ok(False, ' '.join(cmd), 'exit %d: %s' % (p.returncode, p.stderr))
        return None
    return json.loads(p.stdout)


def delivered(d, desc):
    """Every flow delivered bytes, none dropped by routing or a switch."""
    bad = [f['src'] + '->' + f['dst'] for f in d['flow'] if f['rx'] == 0]
    ok(not bad, desc + ': every flow delivers bytes (%d)' % d['flows'],
       'none from ' + ', '.join(bad[:5]))
    ok(d['route_drops'] == 0 and d['switch_drops'] == 0 and
       d['no_tag'] == 0 and d['path_changes'] == 0,
       desc + ': no drop by routing or a switch, no path change',
       'route %d switch %d no_tag %d changes %d' % (
           d['route_drops'], d['switch_drops'], d['no_tag'],
           d['path_changes']))
    ok(d['paths_equal_walk'] == d['paths'] == d['flows'],
       desc + ': every path equals the core walker\'s',
       '%d of %d' % (d['paths_equal_walk'], d['paths']))


def same_as_dpsim(d, topo, extra, npairs, desc):
    """The first NPAIRS flows' paths equal dpsim route's, one by one."""
    same = 0
    flows = d['flow'][:npairs]
    for f in flows:
        cmd = [DPSIM, 'route'] + topo + extra + [
            '--from', '#%d' % f['src_id'], '--to', '#%d' % f['dst_id'],
            '--hash', str(f['hash']), '--json']
        p = subprocess.run(cmd, capture_output=True, text=True,
                           check=False)
        want = json.loads(p.stdout)['path'] if p.returncode == 0 else None
        if want == f['path']:
            same += 1
        else:
            print('  %s -> %s hash %d: ns-3 %s, dpsim %s' % (
                f['src'], f['dst'], f['hash'], f['path'], want))
    ok(same == len(flows) and same > 0,
       '%s: %d paths equal dpsim route\'s, pair by pair' % (desc, same))


def near(x, want, lo, hi, desc):
    """X within [LO, HI] x WANT.  HI a little above 1: bytes that waited
    for a retransmission reach the sink at once, inside the window."""
    ok(want * lo <= x <= want * hi,
       '%s: %.4f within [%.2f, %.2f] x %.4f' % (desc, x, lo, hi, want))


def graph_file(tmp, name, args):
    """graphs.py ARGS into TMP/NAME: its path and adjacency."""
    path = os.path.join(tmp, name)
    with open(path, 'w') as f:
        subprocess.run([sys.executable, 'graphs.py'] + args, stdout=f,
                       check=True)
    adj = {}
    for line in open(path):
        w = line.split()
        if w[0] == 'link':
            a, b = int(w[1]), int(w[2])
            adj.setdefault(a, set()).add(b)
            adj.setdefault(b, set()).add(a)
    return path, adj


def hops(adj, s):
    """BFS distances from S."""
    d, q = {s: 0}, [s]
    for a in q:
        for b in adj[a]:
            if b not in d:
                d[b] = d[a] + 1
                q.append(b)
    return d


def is_path(adj, p):
    return all(b in adj[a] for a, b in zip(p, p[1:]))


def graphs(tmp):
    """--graph's baselines (not the routing core: their routing is
    dpns3's own), at sizes that take a second."""
    # k = 4 fat tree, ECMP, 2 connections per flow: every connection
    # delivers on a shortest path; across pods the hashes spread over
    # more than one core switch (16..19).
    g, adj = graph_file(tmp, 'ft4', ['fattree', '4'])
    d = run(['--graph', g, '--paths', '2', '--traffic', 'all',
             '--bytes', '20000', '--time', '2'])
    if d:
        routed = [f for f in d['flow'] if 'path' in f]
        ok(d['completed'] == d['flows'] == 240 and d['route_drops'] == 0,
           'fat tree k = 4, ECMP, all to all: every one of 240 20 kB flows '
           '(480 connections) completes')
        short = [f for f in routed if is_path(adj, [int(x) for x in
                 f['path']]) and len(f['path']) - 1 ==
                 hops(adj, int(f['path'][0]))[int(f['path'][-1])]]
        ok(len(short) == len(routed) > 0,
           'fat tree k = 4, ECMP: every path a shortest path (%d of %d)'
           % (len(short), len(routed)))
        cores = {x for f in routed for x in f['path'] if int(x) >= 16}
        ok(len(cores) == 4, 'fat tree k = 4, ECMP: the hashes use all %d '
           'core switches' % len(cores))
    # SWDC: greedy reaches every destination, all to all, on a 16-node 2D
    # torus and a 12-node ring (random links on the spare ports).
    for kind, n in (('torus2d', 16), ('ring', 12), ('hex3d', 24)):
        g, adj = graph_file(tmp, kind, ['swdc', kind, str(n), '4' if
                                        kind != 'hex3d' else '6', '1', '1'])
        d = run(['--graph', g, '--traffic', 'all', '--bytes', '10000',
                 '--time', '2'])
        if d:
            routed = [f for f in d['flow'] if 'path' in f]
            ok(d['completed'] == d['flows'] == n * (n - 1) and
               d['route_drops'] == 0 and len(routed) == d['flows'] and
               all(is_path(adj, [int(x) for x in f['path']])
                   for f in routed),
               'SWDC %s (%d nodes), greedy, all to all: every one of %d '
               '10 kB flows completes on links of the graph' % (kind, n, n * (n - 1)))
    # Jellyfish, 8 shortest paths, 8 connections per flow: connection i
    # on path i (Yen: distinct, loop-free, none shorter than the one
    # before, the first a shortest path).
    g, adj = graph_file(tmp, 'jf', ['jellyfish', '12', '4', '1', '1'])
    d = run(['--graph', g, '--paths', '8', '--time', '0.05'])
    if d:
        good = 0
        for i in range(d['flows']):
            ps = [[int(x) for x in f['path']] for f in d['flow']
                  if f['flow'] == i and 'path' in f]
            ls = [len(p) for p in ps]
            good += (len(ps) == 8 and len({tuple(p) for p in ps}) == 8 and
                     all(len(set(p)) == len(p) and is_path(adj, p)
                         for p in ps) and ls == sorted(ls) and
                     ls[0] - 1 == hops(adj, ps[0][0])[ps[0][-1]])
        ok(d['delivered'] == d['flows'] == 12 and good == 12,
           'Jellyfish (12 x 4), 8 shortest paths: every flow\'s 8 '
           'connections on 8 distinct paths, shortest first (%d of 12)'
           % good)
    for args in (['--graph', os.path.join(tmp, 'jf'), '--hosts', '1'],
                 ['--graph', os.path.join(tmp, 'nonexistent')]):
        p = subprocess.run([NS3] + args, capture_output=True, check=False)
        ok(p.returncode == 2, 'usage error exits 2: --graph ' +
           ' '.join([os.path.basename(args[1])] + args[2:]))


def main():
    # BCube(4,1), mode paper (highest digit first), all to all: N = 16,
    # 240 flows.  A server's up link to its level-1 switch carries its
    # n(n-1) = 12 flows to the other rows; its up link to its level-0
    # switch its 3 flows within the row and the 9 it relays (from the 3
    # other rows to the 3 other columns of its row): 12 again, and so for
    # every down link.  Max-min fair, each flow gets 1/12 of a link: ABT
    # 240/12 = 20 links, the BCube paper's n(N-1)/(n-1).
    topo = ['--topo', 'bcube', '-n', '4', '-k', '1']
    d = run(topo + ['--mode', 'paper', '--traffic', 'all', '--time', '0.2'])
    if d:
        delivered(d, 'BCube (4,1) all-to-all')
        ok(d['max_link_flows'] == 12 and abs(d['abt_fluid_links'] - 20) < 1e-3,
           'BCube (4,1) all-to-all: 12 flows on the busiest link, fluid ABT '
           '20 links (hand-derived)', '%d, %.4f' % (d['max_link_flows'],
                                                   d['abt_fluid_links']))
        ok(d['abt_links'] <= d['abt_fluid_links'],
           'BCube (4,1) all-to-all: measured ABT %.3f at most the fluid one'
           % d['abt_links'])
        same_as_dpsim(d, topo, ['--mode', 'paper'], 12,
                      'BCube (4,1) all-to-all')

    # Four flows on links nobody else uses (nor their ACKs): each gets the
    # link's goodput, ABT = 4 * 1448/1502 links.
    d = run(topo + ['--time', '0.3', '--pair', '0.0,0.1', '--pair', '0.2,0.3',
                    '--pair', '1.0,2.0', '--pair', '3.1,3.2'])
    if d:
        delivered(d, 'BCube (4,1) four disjoint flows')
        near(d['abt_links'], 4 * GOODPUT, 0.95, 1.01,
             'BCube (4,1) four disjoint flows: ABT (hand-derived)')

    # DPillar (4,2): 0:0.0 and 1:0.0 share a switch with 0:0.1 (switch
    # 0/0), so both flows to 0:0.1 cross its one down link: R/2 each,
    # ABT = 2 * 1/2 * 1448/1502 links.
    topo = ['--topo', 'dpillar', '-n', '4', '-k', '2']
    d = run(topo + ['--time', '0.3', '--pair', '0:0.0,0:0.1',
                    '--pair', '1:0.0,0:0.1'])
    if d:
        delivered(d, 'DPillar (4,2) two flows into one link')
        ok(d['max_link_flows'] == 2,
           'DPillar (4,2): the two flows share a link')
        near(d['abt_links'], GOODPUT, 0.85, 1.01,
             'DPillar (4,2) two flows into one link: ABT (hand-derived)')

    # Permutations, a failed server and a failed link: paths as dpsim's.
    d = run(topo + ['--time', '0.1', '--fail', '1:1.0,0:0.1/1'])
    if d:
        delivered(d, 'DPillar (4,2) permutation, 1:1.0 and 0:0.1/1 failed')
        same_as_dpsim(d, topo, ['--fail', '1:1.0,0:0.1/1'], 7,
                      'DPillar (4,2) permutation with failures')
    topo = ['--topo', 'dcell', '-n', '3', '-k', '1']
    d = run(topo + ['--time', '0.1', '--fail', '1.1'])
    if d:
        delivered(d, 'DCell (3,1) permutation, 1.1 failed')
        same_as_dpsim(d, topo, ['--fail', '1.1'], 6,
                      'DCell (3,1) permutation with a failure')
    topo = ['--topo', 'xdcent', '-n', '3', '-k', '1', '-i', '2']
    d = run(topo + ['--time', '0.1'])
    if d:
        delivered(d, 'XDCent (3,1,2) permutation')
        same_as_dpsim(d, topo, [], 6, 'XDCent (3,1,2) permutation')
    # S2 (dpsim route has no S2: the walker check above covers it).
    d = run(['--topo', 's2', '--nodes', '12', '-n', '4', '--spaces', '2',
             '--time', '0.1', '--bytes', '100000'])
    if d:
        delivered(d, 'S2 (12 nodes) permutation, 100 kB flows')
        ok(d['completed'] == d['flows'] and d['fct_max'] > 0,
           'S2 (12 nodes): every 100 kB flow completes (FCT max %.2f ms)'
           % (d['fct_max'] * 1e3))

    # Hosts behind S2 servers, two connections per flow (eval-s2.sh's
    # model of the S2 paper's ToR switches and k subflows): every
    # connection delivers on the walker's path, its first hop hashed from
    # its own five-tuple (so the two of a flow may part), no flow above
    # its host's one link, and the bytes of fixed-size flows split.
    topo = ['--topo', 's2', '--nodes', '24', '-n', '6', '--spaces', '3']
    d = run(topo + ['--hosts', '2', '--paths', '2', '--time', '0.1'])
    if d:
        routed = [f for f in d['flow'] if 'path' in f]
        ok(d['connections'] == 2 * d['flows'] == 96 and
           d['delivered'] == d['flows'] and
           all(f['rx'] > 0 for f in d['flow']),
           'S2 (24 nodes), 2 hosts each, 2 paths: 48 flows of 2 '
           'connections, every one delivers')
        ok(d['route_drops'] == 0 and d['switch_drops'] == 0 and
           d['no_tag'] == 0 and d['path_changes'] == 0 and
           d['paths_equal_walk'] == d['paths'] == len(routed) > 0,
           'S2 hosts: every server-to-server path is the walker\'s (%d)'
           % d['paths'])
        parted = sum(a['path'] != b['path'] for a, b in
                     zip(routed[0::2], routed[1::2])
                     if a['flow'] == b['flow'])
        ok(parted > 0, 'S2 hosts, 2 paths: %d flows\' two connections '
           'take different paths' % parted)
        most = max(d['flow_bps']) / d['rate_bps']
        ok(most <= GOODPUT * 1.01,
           'S2 hosts: no flow above one host link (%.3f links)' % most)
    d = run(topo + ['--hosts', '1', '--paths', '3', '--time', '0.5',
                    '--bytes', '100001'])
    if d:
        ok(d['completed'] == d['flows'] == 24,
           'S2 hosts, 3 paths: every 100,001-byte flow completes (%d)'
           % d['completed'])
        ok(sorted(f['rx'] for f in d['flow'][:3]) == [33333, 33334, 33334],
           'S2 hosts, 3 paths: 100,001 bytes split 33,334 + 33,334 + 33,333')

    graphs(tempfile.mkdtemp(prefix='dpns3-'))

    # Usage errors.
    for args in (['--topo', 'bogus'], ['--topo', 'bcube', '-n', '4'],
                 ['--topo', 'bcube', '-n', '4', '-k', '1', '--pair', '0.0'],
                 ['--topo', 'bcube', '-n', '4', '-k', '1', '--time', 'x'],
                 ['--topo', 'bcube', '-n', '4', '-k', '1', '--bytes', '-1'],
                 ['--topo', 'bcube', '-n', '4', '-k', '1', '--paths', '0'],
                 ['--topo', 'bcube', '-n', '4', '-k', '1', '--hosts', '1',
                  '--pair', '0.0,0.1']):
        p = subprocess.run([NS3] + args, capture_output=True, check=False)
        ok(p.returncode == 2, 'usage error exits 2: ' + ' '.join(args))

    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
