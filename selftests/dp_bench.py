#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Helpers of selftests/bench.sh (make bench).

  dp_bench.py frame KIND SIZE DMAC SMAC SIP DIP [ROUTE_JSON]
      a trafgen packet config on stdout: one Ethernet frame of SIZE bytes
      (FCS not counted) carrying an IPv4/UDP packet SIP -> DIP.  KIND ip:
      the IPv4 packet right after the Ethernet header; KIND dpillar: a
      dpillar DATA header first, its routing fields as the source would
      set them, from "dpsim route --json" (ROUTE_JSON: src_id, dst_id,
      header), so the relays route the crafted frames exactly as they
      route dp0's own; in S2's plan mode (the header's "coords") the
      destination's coordinates follow the header (struct dpillar_coords,
      4 + 4 bytes a space), as dp0 sends them.  The frame is the same
      size for every contender: the dpillar frame's IP packet is 20 bytes
      shorter, and the coordinates' bytes shorter still; a SIZE with no
      room for the smallest IPv4/UDP packet (28 bytes) behind them gives
      a frame of the least size that has it (bench.sh says so).
  dp_bench.py s2plan PLAN_JSON [ID...]
      the plan of "dpctl -j plan topo s2 ... mode plan" (PLAN_JSON) as
      dpsim reads one ("dpsim ... --topo s2 --plan FILE"): the very plan
      the chain's dp0 are given their coordinates from.  With IDs (a
      path), only the cables that join consecutive IDs: the chain
      bench.sh builds of it, every other port unused
  dp_bench.py s2dst DPSIM PLAN_JSON SRC HOPS
      the first destination HOPS hops from SRC on dpsim's paths of the
      plan whose chain (s2plan PLAN_JSON PATH) routes as the whole plan:
      dpsim on the chain alone takes the same path, and from every node
      of it back to SRC delivers (a plan-mode node knows only the
      neighbours it hears, and its neighbours' neighbours; the rest of
      the plan is absent from the chain)
  dp_bench.py sink
      binds UDP port 9 (IPv4 and IPv6) with the smallest receive buffer and
      never reads: the receiver of a chain drops the crafted packets at
      the socket instead of answering each with an ICMP port unreachable
      (whose route lookups, and the replies' way back through the relays,
      were a tenth of the profile)
  dp_bench.py insn RESULTS
      the table of make bench on instruction-counted time (bench.sh,
      DPILLAR_ICOUNT): RESULTS has lines "NAME ROUND INSTRUCTIONS" (per
      frame, NAME CONTENDER/Rrelay/SIZE); prints per NAME the median, min
      and max over the rounds, one relay hop per contender and size
      ((cost(most relays) - cost(fewest)) / (their difference)) of each
      chain's least cost over the rounds (INSN_STAT, below), each
      topology's hop and chain over the bridge's and ip_forward's, and
      the repeatability line: the largest relative difference of any of
      those ratios between two rounds
  dp_bench.py compare RESULTS_A RESULTS_B
      the ratios of two such runs side by side (each of the least cost
      over its rounds), and the largest relative difference between them
  dp_bench.py split RAW...
      the split by role's repeatability (selftests/nic_tcp_split.sh):
      each RAW its nic-split-raw.txt of one boot; per model, offloads and
      contender, each role's instructions per KiB (s, r, d, and their
      sum) in every run of every boot, the spread (max - min) / min
      within each boot (the widest) and over all of them, and the
      repeatability line: how many of the per-role figures are within 1%
  dp_bench.py splitprof DIR [TOP]
      the plugin's profile of the split's transfers (SPLIT_PROF=1: DIR has
      nic-split-raw.txt, insn-prof.txt, kallsyms.txt): per contender and
      vCPU, the TOP (25) symbols whose instructions per KiB differ most
      between its runs
      RESULTS has lines "NAME ROUND VALUE"; prints per NAME the median,
      min and max, then the ratios of each topology's rows (dpillar,
      dcell, bcube, xdcent, s2, s2plan: every contender but BASELINES'
      below) to the bridge and ip_forward rows of the
      same chain and size (of the medians, and the median of the ratios
      within each round), and the cost of one
      relay hop per contender and size from its 1- and 3-relay rates
      (bench.sh), or, for names CONTENDER/MODEL/SIZE next to a
      wire/MODEL/SIZE row (nic_bench.sh: the same NICs without a relay),
      1/rate - 1/rate(wire).
"""

import json
import os
import statistics
import struct
import subprocess
import sys
import tempfile

ETH_HLEN = 14
DP_HLEN = 20
IP_UDP_MIN = 28     # an IPv4 header and a UDP header, no payload
DP_ETHERTYPE = 0x88B5
DP_T_DATA = 1
DP_VERSION = 1
# Contenders that are not a dpillar topology: the rows the others are
# compared with.
BASELINES = ('bridge', 'ip_forward', 'ip_veth', 'wire')


def mac(text):
    return bytes(int(x, 16) for x in text.split(':'))


def ip4(text):
    return bytes(int(x) for x in text.split('.'))


def csum(data):
    if len(data) % 2:
        data += b'\0'
    s = sum(struct.unpack('!%dH' % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def ipv4_udp(sip, dip, length):
    """An IPv4/UDP packet of @length bytes (UDP checksum 0: none)."""
    udp_len = length - 20
    hdr = struct.pack('!BBHHHBBH4s4s', 0x45, 0, length, 0, 0x4000, 64, 17,
                      0, ip4(sip), ip4(dip))
    hdr = hdr[:10] + struct.pack('!H', csum(hdr)) + hdr[12:]
    udp = struct.pack('!HHHH', 9, 9, udp_len, 0)   # discard port
    return hdr + udp + bytes(udp_len - 8)


def frame(kind, size, dmac, smac, sip, dip, route=None):
    if kind == 'dpillar':
        r = json.loads(route)
        h = r['header']
        eth = mac(dmac) + mac(smac) + struct.pack('!H', DP_ETHERTYPE)
        dp = struct.pack('!BBBBHHIII', DP_VERSION, DP_T_DATA, h['ttl'],
                         h['flags'], 0x0800, h['rword'], r['src_id'],
                         r['dst_id'], h['waypoint'])
        # S2 plan mode: the destination's coordinates, which the relays
        # route by (the header's flags say they follow): struct
        # dpillar_coords, a count, 3 reserved bytes, a __be32 a space.
        x = h.get('coords', [])
        if x:
            dp += struct.pack('!B3x%dI' % len(x), len(x), *x)
        return eth + dp + ipv4_udp(sip, dip, max(size - ETH_HLEN - len(dp),
                                                 IP_UDP_MIN))
    eth = mac(dmac) + mac(smac) + struct.pack('!H', 0x0800)
    return eth + ipv4_udp(sip, dip, size - ETH_HLEN)


def s2plan_text(d, path=None):
    """dpsim's plan document of dpctl's plan JSON @d (the format of "dpsim
    plan --topo s2 --fabric plan", dp_s2plan_load()); with @path, a list of
    node ids, only the cables between consecutive ones."""
    on = None
    if path:
        on = {frozenset(c) for c in zip(path, path[1:])}
    out = ['# S2 plan (nodes %d, ports %d, spaces %d, seed %d): from dpctl '
           'plan%s' % (d['nodes'], d['ports'], d['spaces'], d['seed'],
                       ', the chain %s only' % ','.join(map(str, path))
                       if path else '')]
    for n in sorted(d['plan'], key=lambda n: n['node']):
        ports = ['-'] * d['ports']
        for e in n['ports']:
            if e['kind'] == 'cable' and (
                    on is None or frozenset((n['node'], e['peer'])) in on):
                ports[e['port']] = '%d/%d' % (e['peer'], e['peer_port'])
        out.append('node %d coords %s ports %s' % (
            n['node'], ','.join(map(str, n['coords'])), ' '.join(ports)))
    return '\n'.join(out) + '\n'


def dpsim_pairs(dpsim, d, tmp, path=None):
    """{(src, dst): (outcome, hops, path)} of "dpsim pairs" on the plan
    (s2plan_text(@d, @path))."""
    f = os.path.join(tmp, 'plan')
    with open(f, 'w') as fp:
        fp.write(s2plan_text(d, path))
    out = subprocess.run([dpsim, 'pairs', '--topo', 's2', '--plan', f],
                         check=True, capture_output=True, text=True).stdout
    res = {}
    for line in out.splitlines():
        w = line.split()
        res[(int(w[0]), int(w[1]))] = (w[2], int(w[3]), w[4])
    return res


def s2dst(dpsim, plan, src, hops):
    """The destination of s2dst (the docstring), or None.  Why the chain is
    checked: a plan-mode relay decides among the nodes it hears and their
    neighbours, and in the chain it hears its two chain neighbours only,
    so where the whole plan's path went on by a neighbour's neighbour the
    chain does not have, the chain's path differs or ends at a local
    minimum; and the replies of the setup's ping and route trace must come
    back along the chain.  Plan 64:4:2, seed 1: of its 2- and 4-hop pairs,
    3% route otherwise on their chain and 14% more get no reply there."""
    with open(plan) as f:
        d = json.load(f)
    with tempfile.TemporaryDirectory() as tmp:
        full = dpsim_pairs(dpsim, d, tmp)
        for (s, dst), (how, h, path) in sorted(full.items()):
            if s != src or how != 'delivered' or h != hops:
                continue
            ids = [int(x) for x in path.split(',')]
            chain = dpsim_pairs(dpsim, d, tmp, ids)
            if chain[(src, dst)] == (how, h, path) and all(
                    chain[(k, src)][0] == 'delivered' for k in ids[1:]):
                return dst
    return None


def table(path):
    rows = {}
    by_round = {}
    order = []
    with open(path) as f:
        for line in f:
            name, rnd, value = line.split()
            if name not in rows:
                order.append(name)
                rows[name] = []
                by_round[name] = {}
            rows[name].append(float(value))
            by_round[name][rnd] = float(value)
    med = {}
    print('%-34s %12s %12s %12s %3s' % ('contender', 'median', 'min', 'max',
                                        'n'))
    for name in order:
        v = rows[name]
        med[name] = statistics.median(v)
        print('%-34s %12.0f %12.0f %12.0f %3d' % (name, med[name], min(v),
                                                 max(v), len(v)))
    print()
    print('ratios of the medians:')
    for name in order:
        c = name.split('/')[0]
        if c in BASELINES:
            continue
        rest = name[len(c):]
        for base in ('bridge', 'ip_forward', 'ip_veth'):
            other = base + rest
            if other in med and med[other] > 0:
                print('  %-34s / %-30s = %.3f' % (name, other,
                                                  med[name] / med[other]))
    paired_ratios(order, by_round)
    hop_costs(med)
    wire_hop_costs(med)


def paired_ratios(order, by_round):
    """The ratio of a contender to its bridge (and ip_forward) within each
    round, the two measured a few seconds apart: a slow spell of the host
    that hits one round hits both, so these spread less than the ratio
    of the medians, whose rows come from different moments."""
    lines = []
    for name in order:
        c = name.split('/')[0]
        if c in BASELINES:
            continue
        rest = name[len(c):]
        for base in ('bridge', 'ip_forward'):
            other = by_round.get(base + rest)
            if not other:
                continue
            r = [v / other[k] for k, v in by_round[name].items()
                 if other.get(k, 0) > 0]
            if r:
                lines.append('  %-34s / %-22s %6.3f %6.3f %6.3f %3d' % (
                    name, base + rest, statistics.median(r), min(r), max(r),
                    len(r)))
    if lines:
        print()
        print('ratios within each round (median, min, max, rounds):')
        for line in lines:
            print(line)


def wire_hop_costs(med):
    """ns of one relay hop per contender, model and size over NICs: the
    generator, the cable and the last receive are in the wire row too."""
    rows = []
    for name, m in med.items():
        parts = name.split('/')
        if len(parts) != 3 or parts[0] == 'wire' or parts[2] == 'tcp':
            continue
        w = med.get('wire/%s/%s' % (parts[1], parts[2]))
        if w and m > 0:
            rows.append((parts[1], parts[2], parts[0], 1e9 / m,
                         (1 / m - 1 / w) * 1e9))
    if not rows:
        return
    cost = {(r[0], r[1], r[2]): r[4] for r in rows}
    print()
    print('ns per delivered frame (1e9/rate), and one relay hop: '
          '1e9/rate - 1e9/rate(wire)')
    for model, size, c, per, hop in rows:
        line = '  %-8s %-6s %-12s %8.0f ns/frame %8.0f ns/hop' % (
            model, size, c, per, hop)
        if c not in BASELINES:
            for base in ('bridge', 'ip_forward'):
                b = cost.get((model, size, base))
                if b and hop > 0:
                    line += '   %s/%s %.3f' % (base, c, b / hop)
        print(line)


def hop_costs(med):
    """ns of one relay hop per contender and size, from the 1- and 3-relay
    chains: the generator's and the receiver's share cancels out."""
    cost = {}
    for name, m1 in med.items():
        parts = name.split('/')
        if len(parts) != 3 or parts[1] != '1relay':
            continue
        m3 = med.get('%s/3relay/%s' % (parts[0], parts[2]))
        if m1 > 0 and m3:
            cost[(parts[0], parts[2])] = (1 / m3 - 1 / m1) / 2 * 1e9
    if not cost:
        return
    print()
    print('one relay hop, ns: (1/rate(3 relays) - 1/rate(1 relay)) / 2')
    for (c, size), ns in sorted(cost.items(), key=lambda x: (x[0][1], x[0][0])):
        line = '  %-12s %-6s %8.0f ns' % (c, size, ns)
        if c not in BASELINES:
            for base in ('bridge', 'ip_forward'):
                b = cost.get((base, size))
                if b and ns > 0:
                    line += '   %s/%s %.3f' % (base, c, b / ns)
        print(line)


def insn_load(path):
    """{NAME: {ROUND: value}} of a RESULTS file, and the names in order."""
    rows, order = {}, []
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) != 3:
                continue
            if w[0] not in rows:
                rows[w[0]] = {}
                order.append(w[0])
            rows[w[0]][w[1]] = float(w[2])
    return rows, order


# A chain's figure over the rounds of make bench (each a boot of its
# own): the least.  The work is fixed and the clock counts instructions,
# so what a round adds is extra work, never less: a build of the
# bridge's 3-relay chain cost 16,749-16,835 instructions per frame over
# seven builds (2026-11-30), five of them within 4 of the least, and the
# median of three builds moved its hop by up to 2%.  DP_BENCH_STAT=median
# gives the medians.
INSN_STAT = statistics.median if os.environ.get('DP_BENCH_STAT') == \
    'median' else min


def insn_ratios(rows, rnd=None):
    """{(label, contender, size, base): ratio} of one round (@rnd) or of
    INSN_STAT over the rounds: a topology's hop over the base's hop
    and its chain of the most relays over the base's; and {(contender,
    size): hop} with the hops."""
    def val(name):
        v = rows.get(name)
        if not v:
            return None
        if rnd is None:
            return INSN_STAT(v.values())
        return v.get(rnd)
    relays = {}
    for name in rows:
        c, r, size = name.split('/')
        relays.setdefault((c, size), set()).add(int(r[:-len('relay')]))
    hops, most = {}, {}
    for (c, size), rs in relays.items():
        lo, hi = min(rs), max(rs)
        a = val('%s/%drelay/%s' % (c, lo, size))
        b = val('%s/%drelay/%s' % (c, hi, size))
        if hi > lo and a is not None and b is not None:
            hops[(c, size)] = (b - a) / (hi - lo)
        if b is not None:
            most[(c, size)] = (hi, b)
    ratios = {}
    for (c, size), h in hops.items():
        if c in BASELINES:
            continue
        for base in ('bridge', 'ip_forward'):
            bh = hops.get((base, size))
            if bh and bh > 0:
                ratios[('hop', c, size, base)] = h / bh
            if (c, size) in most and (base, size) in most and \
                    most[(base, size)][0] == most[(c, size)][0]:
                ratios[('chain', c, size, base)] = \
                    most[(c, size)][1] / most[(base, size)][1]
    return ratios, hops


def insn_sort(key):
    c = key[1]
    order = ('dpillar', 'dcell', 'bcube', 'xdcent', 's2', 's2plan',
             'bridge', 'ip_forward')
    size = key[2].rstrip('B')
    return (int(size) if size.isdigit() else 0, key[0] != 'hop',
            order.index(c) if c in order else len(order), c, key[3])


# Issue 52's goal for every topology's relay hop, at every frame size: at
# most this share of a Linux bridge's hop, in instructions.
HOP_GOAL = 0.85


def insn_table(path):
    rows, order = insn_load(path)
    rounds = sorted({k for v in rows.values() for k in v})
    print('guest instructions per frame (trafgen\'s sending loop: the '
          'generator and every hop), median min max of %d rounds'
          % len(rounds))
    print('%-34s %10s %10s %10s %8s' % ('contender', 'median', 'min', 'max',
                                        'spread'))
    for name in order:
        v = list(rows[name].values())
        m = statistics.median(v)
        print('%-34s %10.1f %10.1f %10.1f %7.3f%%' % (
            name, m, min(v), max(v), (max(v) - min(v)) / m * 100))
    ratios, hops = insn_ratios(rows)
    relays = sorted({int(n.split('/')[1][:-len('relay')]) for n in rows})
    print()
    print('one relay hop, instructions: (cost(%d relays) - cost(%d)) / %d, '
          'each cost the %s over the rounds; '
          'hop / bridge hop, hop / ip_forward hop'
          % (relays[-1], relays[0], relays[-1] - relays[0],
             'median' if INSN_STAT is statistics.median else 'least')
          if len(relays) > 1 else 'one relay hop: needs two chain lengths')
    met = missed = 0
    for (c, size), h in sorted(hops.items(), key=lambda x: insn_sort(
            ('hop', x[0][0], x[0][1], ''))):
        line = '  %-6s %-12s %9.1f' % (size, c, h)
        for base in ('bridge', 'ip_forward'):
            r = ratios.get(('hop', c, size, base))
            if r is not None:
                line += '   /%s %.3f' % (base, r)
        r = ratios.get(('hop', c, size, 'bridge'))
        if r is not None:
            ok = r <= HOP_GOAL
            met, missed = met + ok, missed + (not ok)
            line += '   goal %.2f %s' % (HOP_GOAL, 'met' if ok else 'missed')
        print(line)
    if met + missed:
        print('goals (a relay hop at most %.2f of a bridge hop, issue 52): '
              '%d met, %d missed' % (HOP_GOAL, met, missed))
    chains = sorted((k for k in ratios if k[0] == 'chain'), key=insn_sort)
    if chains:
        print()
        print('chain of %d relays (generator, hops, receiver) / the '
              'same chain of the bridge, of ip_forward' % relays[-1])
        for k in chains:
            if k[3] != 'bridge':
                continue
            print('  %-6s %-12s   /bridge %.3f   /ip_forward %.3f' % (
                k[2], k[1], ratios[k],
                ratios.get(('chain', k[1], k[2], 'ip_forward'), 0)))
    # Repeatability: every ratio in every round against every other round.
    per = [insn_ratios(rows, r)[0] for r in rounds]
    worst = (0.0, None)
    for k in ratios:
        v = [p[k] for p in per if k in p]
        if len(v) > 1:
            d = (max(v) - min(v)) / min(v)
            if d > worst[0] or worst[1] is None:
                worst = (d, k)
    print()
    if worst[1] is None:
        print('repeatability: one round, nothing to compare')
    else:
        k = worst[1]
        print('repeatability: the %d ratios of %d rounds differ by at most '
              '%.3f%% (%s %s %s / %s)' % (len(ratios), len(rounds),
                                           worst[0] * 100, k[1], k[0], k[2],
                                           k[3]))


def insn_compare(a, b):
    ra, _ = insn_ratios(insn_load(a)[0])
    rb, _ = insn_ratios(insn_load(b)[0])
    print('%-34s %9s %9s %9s' % ('ratio', 'run A', 'run B', 'diff'))
    worst = (0.0, None)
    for k in sorted(set(ra) & set(rb), key=insn_sort):
        d = abs(ra[k] - rb[k]) / min(ra[k], rb[k])
        if d >= worst[0]:
            worst = (d, k)
        print('%-34s %9.4f %9.4f %8.3f%%' % (
            '%s %s %s / %s' % (k[1], k[0], k[2], k[3]), ra[k], rb[k],
            d * 100))
    if worst[1] is not None:
        k = worst[1]
        print('repeatability: the two runs\' %d ratios differ by at most '
              '%.3f%% (%s %s %s / %s)' % (len(set(ra) & set(rb)),
                                           worst[0] * 100, k[1], k[0], k[2],
                                           k[3]))


# make bench-nic (selftests/nic_tcp_cost.sh): TCP's busy guest ns per KiB,
# dp0 against plain IPv4 (and a bridge) on the same emulated NICs.  Raw
# lines: "ROW CONTENDER MODEL ROUND BUSY_NS BYTES NS_PER_KIB RETRANS_SND
# RETRANS_RCV"; "start ..." the fixed cost of a run (1 byte); "ROW -
# MODEL ROUND n/a" a row the model cannot run.
TCP_ROWS = ['hop-on', 'hop-off', 'relay', 'jumbo']
TCP_BASE = {'hop-on': ['ipv4'], 'hop-off': ['ipv4'],
            'relay': ['ipv4', 'bridge'], 'jumbo': ['ipv4']}
TCP_BASE_NAME = {'ipv4': 'IPv4', 'bridge': 'bridge'}


def tcp_goal(row, model, base):
    """The goal for baseline/dp0, None for none."""
    if base == 'bridge':
        return None
    if row == 'hop-on':
        return 0.9 if model in ('e1000', 'virtio-net-pci') else 0.75
    if row == 'relay':
        return 0.9
    if row == 'jumbo':
        return 0.95
    return 0.75


def tcpcost_table(path):
    runs, starts, na, models = {}, {}, {}, []
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) < 5:
                continue
            if w[2] not in models:
                models.append(w[2])
            if w[1] == '-':
                na[(w[0], w[2])] = ' '.join(w[5:]) or 'not run'
                continue
            if w[0] == 'start':
                starts.setdefault((w[1], w[2]), []).append(int(w[4]))
                continue
            key = (w[0], w[1], w[2])
            runs.setdefault(key, []).append(
                (int(w[3]), float(w[6]), int(w[7]), int(w[8])))

    def cell(key):
        v = sorted(runs.get(key, []))
        if not v:
            return None
        x = [r[1] for r in v]
        med = statistics.median(x)
        spread = (max(x) - min(x)) / min(x) * 100 if min(x) > 0 else 0
        return med, x, spread, [r[2] for r in v]

    def fmt(c):
        if c is None:
            return '-'
        return '%.1f (%s; %.2f%%)' % (
            c[0], ' '.join('%.1f' % x for x in c[1]), c[2])

    print('busy guest ns per KiB received (median, then each round, and the '
          'spread (max-min)/min); ratio = baseline/dp0 (dp0\'s speed '
          'against plain IP), the medians\' and per round; retrans: '
          'TcpRetransSegs of the sender per round')
    hdr = '%-15s %-7s %-6s  %-30s  %-30s  %-17s %-5s %-7s %s'
    print(hdr % ('model', 'row', 'base', 'dp0 ns/KiB (r1 r2; spread)',
                 'base ns/KiB (r1 r2; spread)', 'ratio (r1 r2)', 'goal',
                 'verdict', 'retrans dp0 / base'))
    met = missed = 0
    for model in models:
        for row in TCP_ROWS:
            if (row, model) in na:
                print(hdr % (model, row, '-', 'n/a: ' + na[(row, model)],
                             '', '', '', '', ''))
                continue
            d = cell((row, 'dp0', model))
            if d is None:
                continue
            for base in TCP_BASE[row]:
                b = cell((row, base, model))
                if b is None:
                    continue
                rat = b[0] / d[0]
                per = ' '.join('%.3f' % (bb / dd)
                               for bb, dd in zip(b[1], d[1]))
                g = tcp_goal(row, model, base)
                if g is None:
                    gs, v = '-', '-'
                elif rat >= g:
                    gs, v = '%.2f' % g, 'met'
                    met += 1
                else:
                    gs, v = '%.2f' % g, 'missed'
                    missed += 1
                print(hdr % (model, row, TCP_BASE_NAME[base], fmt(d), fmt(b),
                             '%.3f (%s)' % (rat, per), gs, v,
                             '%s / %s' % (' '.join(map(str, d[3])),
                                          ' '.join(map(str, b[3])))))
    print('goals: %d met, %d missed' % (met, missed))
    if starts:
        print('fixed cost of a run (1 byte s -> r: connect, length, '
              'answer, close; the first after a build pays for more), '
              'busy us: ' + ', '.join(
                  '%s %s %s' % (m, c, '/'.join('%.0f' % (x / 1000) for x in v))
                  for (c, m), v in sorted(starts.items(),
                                          key=lambda kv: (kv[0][1], kv[0][0]))))


# make bench-nic's TCP transfer (selftests/nic_tcp_cost.sh): a fixed
# amount of data, all of it read by the receiver, with no process started
# inside the measurement.  tcpsink PORT: in the receiver's namespace, for
# ever: accept a connection, read its 8-byte length N, read N bytes, answer
# one byte, close.  tcpsend: in the sender's namespace, for every line
# "DST PORT N" on stdin: connect, send N bytes (after the length) in
# writes of CHUNK bytes, wait for the answer, close; then print "ok N"
# (or "error WHY") and flush.  The shell reads the CPU's busy time before
# it writes the line and after it reads the answer.
TCP_CHUNK = 128 * 1024		# iperf3's default write


def tcpsink(port):
    import os
    import socket
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(('0.0.0.0', port))
    ls.listen(4)
    buf = bytearray(TCP_CHUNK)
    # DP_TCP_RCVLOWAT=1: a read returns when all it asks for is there, so
    # the receiver wakes once per chunk whatever the timing of the
    # segments (selftests/nic_tcp_split.sh).  SO_RCVLOWAT is set to each
    # read's size: TCP wakes a reader by the socket's mark, not by what
    # the read asks for (with the mark at a whole chunk, a read of the
    # 8-byte length never woke).
    lowat = os.environ.get('DP_TCP_RCVLOWAT') == '1'
    mark = [0]

    def want(c, n):
        if lowat and mark[0] != n:
            c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVLOWAT, n)
            mark[0] = n
        return n
    while True:
        c, _ = ls.accept()
        mark[0] = 0
        try:
            head = b''
            while len(head) < 8:
                got = c.recv(want(c, 8 - len(head)))
                if not got:
                    break
                head += got
            if len(head) < 8:
                c.close()
                continue
            left = struct.unpack('!Q', head)[0]
            while left > 0:
                n = c.recv_into(buf, want(c, min(left, TCP_CHUNK)))
                if n == 0:
                    break
                left -= n
            if left == 0:
                c.sendall(b'k')
        except OSError:
            pass
        c.close()


def insn_marker():
    """insn-plugin.so's marker (tools/insn-plugin): a function of this
    process that executes xchg %bx,%bx (66 87 db) and returns, so that a
    running process marks a window without starting one (the function's
    call costs some thousand instructions of Python on this CPU)."""
    import ctypes
    import mmap
    m = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE |
                  mmap.PROT_EXEC)
    m.write(b'\x66\x87\xdb\xc3')
    f = ctypes.CFUNCTYPE(None)(ctypes.addressof(ctypes.c_char.from_buffer(m)))
    f.mapping = m
    return f


def tcpsend():
    import os
    import socket
    import time
    data = memoryview(bytes(TCP_CHUNK))
    # DP_INSN_MARK=1: a marker right before the connection and right
    # after the receiver's answer (selftests/nic_tcp_split.sh).
    mark = insn_marker() if os.environ.get('DP_INSN_MARK') == '1' else None
    cork = os.environ.get('DP_TCP_CORK') == '1'
    for line in sys.stdin:
        w = line.split()
        if len(w) == 2 and w[0] == 'idle':
            # The background: two markers SECS apart, nothing sent.
            if mark:
                mark()
            time.sleep(float(w[1]))
            if mark:
                mark()
            print('ok idle', flush=True)
            continue
        if len(w) != 3:
            continue
        dst, port, n = w[0], int(w[1]), int(w[2])
        try:
            if mark:
                mark()
                t0 = time.monotonic_ns()
            c = socket.create_connection((dst, port), timeout=60)
            # DP_TCP_CORK=1: only full segments until the last byte is
            # written, whatever the timing of the ACKs (Nagle's partial
            # segment at the end of a write otherwise goes out or waits
            # as an ACK is there or not).
            if cork:
                c.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 1)
            c.sendall(struct.pack('!Q', n))
            left = n
            while left > 0:
                k = min(left, TCP_CHUNK)
                c.sendall(data[:k])
                left -= k
            if cork:
                c.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 0)
            ok = c.recv(1) == b'k'
            if mark:
                t1 = time.monotonic_ns()
                mark()
            c.close()
            # With the markers, also the guest's clock over the transfer
            # (ns): on icount shift 0 the instructions of all vCPUs plus
            # the jumps of the clock while all of them were idle.
            print(('ok %d' % n + (' %d' % (t1 - t0) if mark else ''))
                  if ok else 'error no answer', flush=True)
        except OSError as e:
            print('error %s' % e, flush=True)


def sink():
    import socket
    import time
    socks = []
    for fam, addr in ((socket.AF_INET, '0.0.0.0'), (socket.AF_INET6, '::')):
        s = socket.socket(fam, socket.SOCK_DGRAM)
        if fam == socket.AF_INET6:
            s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1)
        s.bind((addr, 9))
        socks.append(s)
    while True:
        time.sleep(3600)


# The split by role (selftests/nic_tcp_split.sh): its raw lines "relay
# MODEL OFFL CONTENDER ROUND RUN BYTES I0 I1 I2 ... RETRANS K0 K1 K2"
# (I: each vCPU's instructions over the run; RETRANS the 20th field).
SPLIT_ROLES = ('s', 'r', 'd', 'sum')
SPLIT_GOAL = 0.01


def split_load(path):
    runs = {}
    order = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) < 23 or w[0] != 'relay':
                continue
            k = (w[1], w[2], w[3])
            if k not in runs:
                runs[k] = []
                order.append(k)
            kib = int(w[6]) / 1024
            i = [int(x) for x in w[7:10]]
            # The clock's jumps (ns): tcpsend's guest ns over the
            # transfer less all vCPUs' instructions (icount shift 0);
            # None from a raw file without it.
            jump = int(w[23]) - sum(i) if len(w) > 23 and int(w[23]) else None
            runs[k].append(([x / kib for x in i] + [sum(i) / kib], int(w[19]),
                            jump))
    return runs, order


def split_spread(v):
    return (max(v) - min(v)) / min(v) if v and min(v) > 0 else 0.0


def split_table(paths):
    boots = [split_load(p) for p in paths]
    order = []
    for _, o in boots:
        order += [k for k in o if k not in order]
    print('instructions per KiB, each run of each boot (boots apart by |), '
          'the widest spread within a boot, the spread over all runs and '
          'that of the boots\' medians; retrans per run')
    print('%-7s %-4s %-8s %-4s %-44s %7s %7s %7s %s' % (
        'model', 'offl', 'contender', 'role', 'runs', 'boot', 'all',
        'medians', 'retrans'))
    inb = allb = medb = n = 0
    worst = (0.0, None)
    for k in order:
        for j, role in enumerate(SPLIT_ROLES):
            per = [[r[0][j] for r in b[0].get(k, [])] for b in boots]
            flat = [x for p in per for x in p]
            sb = max(split_spread(p) for p in per)
            sa = split_spread(flat)
            sm = split_spread([split_median(p) for p in per if p])
            rt = ' | '.join('/'.join(str(r[1]) for r in b[0].get(k, []))
                            for b in boots)
            print('%-7s %-4s %-8s %-4s %-44s %6.2f%% %6.2f%% %6.2f%% %s' % (
                k[0], k[1], k[2], role,
                ' | '.join('/'.join('%.0f' % x for x in p) for p in per),
                sb * 100, sa * 100, sm * 100, rt if role == 's' else ''))
            if role == 'sum':
                continue
            n += 1
            inb += sb <= SPLIT_GOAL
            allb += sa <= SPLIT_GOAL
            medb += sm <= SPLIT_GOAL
            if sa >= worst[0]:
                worst = (sa, '%s %s %s %s' % (k + (role,)))
    jumps = ['%s %s %s %s' % (k + (' | '.join('/'.join(
        '-' if r[2] is None else '%.1f' % (r[2] / 1e6)
        for r in b[0].get(k, [])) for b in boots),)) for k in order]
    print('the clock\'s jumps in each transfer (ms of guest time with all '
          'three vCPUs idle: the guest\'s clock less the instructions):')
    for j in jumps:
        print('  ' + j)
    runs = sum(len(r) for b in boots for r in b[0].values())
    print('repeatability: %d of %d per-role figures within %.0f%% within '
          'each boot, %d of %d over all %d boots (%d transfers), %d of %d '
          'by the boots\' medians; widest over all %.2f%% (%s)' % (
              inb, n, SPLIT_GOAL * 100, allb, n, len(boots), runs, medb, n,
              worst[0] * 100, worst[1]))
    split_ratios(boots, order)


def split_median(v):
    v = sorted(v)
    h = len(v) // 2
    return v[h] if len(v) % 2 else (v[h - 1] + v[h]) / 2


def split_ratios(boots, order):
    """dp0 (and dp0-nic) over plain IPv4, per model, offloads and role:
    each boot's ratio of its medians, their spread, and that of all
    runs' medians."""
    rows = []
    for k in order:
        if k[2] == 'ipv4':
            continue
        base = (k[0], k[1], 'ipv4')
        if base not in order:
            continue
        for j, role in enumerate(SPLIT_ROLES):
            per = []
            for b in boots:
                a = [r[0][j] for r in b[0].get(k, [])]
                c = [r[0][j] for r in b[0].get(base, [])]
                if a and c:
                    per.append(split_median(a) / split_median(c))
            if not per:
                continue
            rows.append((k, role, per))
    if not rows:
        return
    print('ratio over ipv4 (a contender\'s median instructions per KiB over '
          'ipv4\'s, per boot), the spread between boots:')
    n = inb = 0
    worst = (0.0, None)
    for k, role, per in rows:
        sp = split_spread(per)
        print('%-7s %-4s %-8s %-4s %-30s %6.2f%%' % (
            k[0], k[1], k[2], role, ' | '.join('%.4f' % x for x in per),
            sp * 100))
        n += 1
        inb += sp <= SPLIT_GOAL
        if sp >= worst[0]:
            worst = (sp, '%s %s %s %s' % (k + (role,)))
    print('ratio repeatability: %d of %d ratios (roles and sums) within '
          '%.0f%% between boots; widest %.2f%% (%s)' % (
              inb, n, SPLIT_GOAL * 100, worst[0] * 100, worst[1]))


# The plugin's profile of each window (insn-plugin.c, prof=; bench.sh's
# SPLIT_PROF=1): DIR has nic-split-raw.txt, insn-prof.txt and the
# guest's kallsyms.txt.  The k-th window of the raw file (check, idle,
# start, warm, relay lines) ends at marker 2k, whose "prof 2k" section
# has its blocks.
SPLIT_WINDOWS = ('check', 'idle', 'start', 'warm', 'relay')


def prof_syms(path):
    import bisect
    addrs, names = [], []
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) < 3 or w[1] not in 'tTwW':
                continue
            a = int(w[0], 16)
            if a == 0:
                continue
            addrs.append(a)
            names.append(w[2] + (' ' + w[3] if len(w) > 3 else ''))
    order = sorted(range(len(addrs)), key=lambda i: addrs[i])
    addrs = [addrs[i] for i in order]
    names = [names[i] for i in order]

    def name(a):
        if a < 1 << 63:
            return '[user]'
        i = bisect.bisect_right(addrs, a) - 1
        return names[i] if i >= 0 else '?'
    return name


def prof_load(path, name, want):
    """{seq: {(vcpu, symbol): instructions}} for the SEQs in WANT."""
    prof = {}
    cur = None
    with open(path) as f:
        for line in f:
            w = line.split()
            if w[0] == 'prof':
                seq = int(w[1])
                cur = prof.setdefault(seq, {}) if seq in want else None
                continue
            if cur is None:
                continue
            k = (int(w[0]), name(int(w[1], 16)))
            cur[k] = cur.get(k, 0) + int(w[2])
    return prof


def split_prof(d, top=25):
    windows = []
    with open(d + '/nic-split-raw.txt') as f:
        for line in f:
            w = line.split()
            if w and w[0] in SPLIT_WINDOWS:
                windows.append(w)
    relay = {2 * (i + 1): w for i, w in enumerate(windows)
             if w[0] == 'relay'}
    idle = {2 * (i + 1): w for i, w in enumerate(windows)
            if w[0] == 'idle'}
    name = prof_syms(d + '/kallsyms.txt')
    prof = prof_load(d + '/insn-prof.txt', name, set(relay) | set(idle))
    for seq, w in sorted(idle.items()):
        p = prof.get(seq, {})
        print('%s idle window (2 s of guest time): the %d symbols of most '
              'instructions per vCPU' % (w[1], top))
        for v in range(3):
            rows = sorted(((x, kk[1]) for kk, x in p.items() if kk[0] == v),
                          reverse=True)
            print('  vCPU %d (%s) total %d' % (v, 'srd'[v],
                                              sum(x for x, _ in rows)))
            for x, sym in rows[:top]:
                print('    %-44s %d' % (sym[:44], x))
    groups = {}
    for seq, w in sorted(relay.items()):
        groups.setdefault((w[1], w[2], w[3]), []).append(seq)
    for k, seqs in groups.items():
        runs = [prof.get(q, {}) for q in seqs]
        kib = int(relay[seqs[0]][6]) / 1024
        print('%s %s %s: instructions per KiB by vCPU (role) and symbol, '
              'runs %s; the %d that differ most between runs' % (
                  k[0], k[1], k[2], ' / '.join(
                      '%s.%s' % (relay[q][4], relay[q][5]) for q in seqs),
                  top))
        keys = set()
        for r in runs:
            keys |= set(r)
        for v in range(3):
            tot = [sum(x for (c, _), x in r.items() if c == v) / kib
                   for r in runs]
            print('  vCPU %d (%s) total %s' % (v, 'srd'[v], ' / '.join(
                '%.0f' % t for t in tot)))
            rows = []
            for kk in keys:
                if kk[0] != v:
                    continue
                x = [r.get(kk, 0) / kib for r in runs]
                rows.append((max(x) - min(x), kk[1], x))
            rows.sort(reverse=True)
            for dx, sym, x in rows[:top]:
                print('    %-44s %s  (%.1f)' % (sym[:44], ' / '.join(
                    '%.1f' % y for y in x), dx))
    return 0


def main(argv):
    if len(argv) == 2 and argv[1] == 'sink':
        sink()
    if len(argv) >= 7 and argv[1] == 'frame':
        data = frame(argv[2], int(argv[3]), argv[4], argv[5], argv[6],
                     argv[7], argv[8] if len(argv) > 8 else None)
        print('{ ' + ', '.join('0x%02x' % b for b in data) + ' }')
        return 0
    if len(argv) == 3 and argv[1] == 'insn':
        insn_table(argv[2])
        return 0
    if len(argv) in (3, 4) and argv[1] == 'splitprof':
        return split_prof(argv[2], int(argv[3]) if len(argv) == 4 else 25)
    if len(argv) >= 3 and argv[1] == 'split':
        split_table(argv[2:])
        return 0
    if len(argv) == 4 and argv[1] == 'compare':
        insn_compare(argv[2], argv[3])
        return 0
    if len(argv) == 3 and argv[1] == 'tcpsink':
        tcpsink(int(argv[2]))
        return 0
    if len(argv) == 2 and argv[1] == 'tcpsend':
        tcpsend()
        return 0
    if len(argv) == 3 and argv[1] == 'tcpcost':
        tcpcost_table(argv[2])
        return 0
    if len(argv) == 3 and argv[1] == 'table':
        table(argv[2])
        return 0
    if len(argv) >= 3 and argv[1] == 's2plan':
        with open(argv[2]) as f:
            sys.stdout.write(s2plan_text(json.load(f),
                                         [int(x) for x in argv[3:]]))
        return 0
    if len(argv) == 6 and argv[1] == 's2dst':
        dst = s2dst(argv[2], argv[3], int(argv[4]), int(argv[5]))
        if dst is None:
            return 1
        print(dst)
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
