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
      route dp0's own.  The frame is the same size for every contender:
      the dpillar frame's IP packet is 20 bytes shorter.
  dp_bench.py sink
      binds UDP port 9 (IPv4 and IPv6) with the smallest receive buffer and
      never reads: the receiver of a chain drops the crafted packets at
      the socket instead of answering each with an ICMP port unreachable
      (whose route lookups, and the replies' way back through the relays,
      were a tenth of the profile)
  dp_bench.py table RESULTS
      RESULTS has lines "NAME ROUND VALUE"; prints per NAME the median,
      min and max, then the ratios of each topology's rows (dpillar,
      dcell, bcube, xdcent, s2) to the bridge and ip_forward rows of the
      same chain and size (of the medians, and the median of the ratios
      within each round), and the cost of one
      relay hop per contender and size from its 1- and 3-relay rates
      (bench.sh), or, for names CONTENDER/MODEL/SIZE next to a
      wire/MODEL/SIZE row (nic_bench.sh: the same NICs without a relay),
      1/rate - 1/rate(wire).
"""

import json
import statistics
import struct
import sys

ETH_HLEN = 14
DP_HLEN = 20
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
        return eth + dp + ipv4_udp(sip, dip, size - ETH_HLEN - DP_HLEN)
    eth = mac(dmac) + mac(smac) + struct.pack('!H', 0x0800)
    return eth + ipv4_udp(sip, dip, size - ETH_HLEN)


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


def main(argv):
    if len(argv) == 2 and argv[1] == 'sink':
        sink()
    if len(argv) >= 7 and argv[1] == 'frame':
        data = frame(argv[2], int(argv[3]), argv[4], argv[5], argv[6],
                     argv[7], argv[8] if len(argv) > 8 else None)
        print('{ ' + ', '.join('0x%02x' % b for b in data) + ' }')
        return 0
    if len(argv) == 3 and argv[1] == 'table':
        table(argv[2])
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
