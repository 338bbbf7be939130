#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What a Linux host does with a virtio-net guest's offloaded frames.

QEMU's virtio-net on a host tap (run-vm.sh --nic MODEL:HUB/Q, NIC_TAP)
writes each frame the guest sends to the tap with the guest's
struct virtio_net_hdr in front: a super-packet (gso_type, gso_size) or a
partial checksum (VIRTIO_NET_HDR_F_NEEDS_CSUM, csum_start, csum_offset).
This plays QEMU for two taps on a bridge, as run-vm.sh cables them, and
writes into tap A what a guest's virtio-net would send for a TCP frame:

  - plain IPv4, a 10,000-byte super-packet;
  - dpillar's ethertype (88b5), our 20-byte header, then the same IPv4
    TCP super-packet (what nic_offload would hand virtio-net);
  - dpillar's ethertype, one 1,400-byte segment with a partial checksum;

then reads what the bridge hands tap B, with tap B's offloads as QEMU
sets them for a guest that takes checksum offload and TSO (TUNSETOFFLOAD
CSUM|TSO4|TSO6|TSO_ECN), or none (--offloads 0), and tap B's TX dropped
counter around each frame.  The host's kernel is what is tested: no
module, no guest.  Needs root and /dev/net/tun; makes and removes its own
network namespace (dptapgso-PID).

Usage: selftests/dp_tapgso.py [--offloads N]
"""
import argparse
import fcntl
import os
import select
import struct
import subprocess
import sys

TUNSETIFF, TUNSETOFFLOAD = 0x400454ca, 0x400454d0
IFF_TAP, IFF_NO_PI, IFF_VNET_HDR = 0x2, 0x1000, 0x4000
TUN_F_ALL = 1 | 2 | 4 | 8	# CSUM, TSO4, TSO6, TSO_ECN
F_NEEDS_CSUM, GSO_NONE, GSO_TCPV4 = 1, 0, 1
VNET = struct.Struct('<BBHHHH')	# flags gso_type hdr_len gso_size start off
ETH, DP, IP, TCP = 14, 20, 20, 20


def sh(*a):
    return subprocess.run(a, check=True, capture_output=True,
                          text=True).stdout


def tap(name, offloads):
    fd = os.open('/dev/net/tun', os.O_RDWR | os.O_NONBLOCK)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack(
        '16sH', name.encode(), IFF_TAP | IFF_NO_PI | IFF_VNET_HDR))
    fcntl.ioctl(fd, TUNSETOFFLOAD, offloads)
    return fd


def csum16(b):
    if len(b) % 2:
        b += b'\0'
    s = sum(struct.unpack('!%dH' % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s


def frame(dpillar, paylen):
    """An Ethernet frame of one TCP packet, its checksum partial."""
    payload = bytes((i * 7) & 0xff for i in range(paylen))
    ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, IP + TCP + paylen, 1,
                     0x4000, 64, 6, 0, bytes([10, 0, 0, 1]),
                     bytes([10, 0, 0, 2]))
    ip = ip[:10] + struct.pack('!H', 0xffff - csum16(ip)) + ip[12:]
    # As TCP leaves it for the offload: the pseudo-header's sum.
    ph = csum16(ip[12:20] + struct.pack('!BBH', 0, 6, TCP + paylen))
    tcp = struct.pack('!HHIIBBHHH', 5001, 5002, 1, 0, 5 << 4, 0x18,
                      65535, ph, 0)
    eth = bytes.fromhex('020000000002020000000001')
    if dpillar:
        # struct dpillar_hdr: version 1, DATA, TTL 64, no flags, proto
        # IPv4, rword 0, src 1, dst 2, waypoint 0.
        hdr = struct.pack('!BBBBHHIII', 1, 1, 64, 0, 0x0800, 0, 1, 2, 0)
        return eth + b'\x88\xb5' + hdr + ip + tcp + payload, ETH + DP
    return eth + b'\x08\x00' + ip + tcp + payload, ETH


def tx_dropped(dev):
    out = sh('ip', '-s', 'link', 'show', dev).split('\n')
    i = [n for n, line in enumerate(out) if line.strip().startswith('TX:')]
    return int(out[i[0] + 1].split()[3])


def send(a, b, name, dpillar, gso, paylen):
    f, nh = frame(dpillar, paylen)
    th = nh + IP
    vh = VNET.pack(F_NEEDS_CSUM, GSO_TCPV4 if gso else GSO_NONE,
                   th + TCP, 1448 if gso else 0, th, 16)
    before = tx_dropped('tapB')
    os.write(a, vh + f)
    got = []
    while select.select([b], [], [], 0.5)[0]:
        g = os.read(b, 70000)
        # Ours only (the host's own IPv6 chatter crosses too).
        if g[VNET.size + 6:VNET.size + 12] == f[6:12]:
            got.append(g)
    out = []
    for g in got:
        fl, gt, _, gs, cs, _ = VNET.unpack(g[:VNET.size])
        d = g[VNET.size:]
        s = '%d bytes' % len(d)
        if gt != GSO_NONE:
            s += ' gso_size %d' % gs
        if fl & F_NEEDS_CSUM:
            s += ' NEEDS_CSUM at %d' % cs
        else:
            t = d[th:]
            ok = csum16(d[nh + 12:nh + 20] +
                        struct.pack('!BBH', 0, 6, len(t)) + t) == 0xffff
            s += ' checksum %s' % ('right' if ok else 'WRONG')
        if len(got) == 1:
            c = th + 16	# TCP's checksum, which the host may fill in
            s += ', %s' % ('as sent' if d[:c] + d[c + 2:] == f[:c] + f[c + 2:]
                           else 'CHANGED')
        out.append(s)
    what = 'nothing'
    if len(out) == 1:
        what = out[0]
    elif out:
        what = '%d segments (%s)' % (len(out), ', '.join(
            '%d x %s' % (out.count(x), x) for x in dict.fromkeys(out)))
    print('%s, %d bytes: tap B got %s; tap B TX dropped +%d' % (
        name, len(f), what, tx_dropped('tapB') - before))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--offloads', type=int, default=TUN_F_ALL,
                    help="tap B's TUNSETOFFLOAD (default 15)")
    ap.add_argument('--in-netns', action='store_true', help=argparse.SUPPRESS)
    args = ap.parse_args()
    if not args.in_netns:
        ns = 'dptapgso-%d' % os.getpid()
        sh('ip', 'netns', 'add', ns)
        try:
            return subprocess.run(['ip', 'netns', 'exec', ns, sys.executable,
                                   __file__, '--in-netns', '--offloads',
                                   str(args.offloads)]).returncode
        finally:
            sh('ip', 'netns', 'del', ns)
    a = tap('tapA', TUN_F_ALL)
    b = tap('tapB', args.offloads)
    sh('ip', 'link', 'add', 'br0', 'type', 'bridge', 'stp_state', '0')
    for d in ('tapA', 'tapB'):
        sh('ip', 'link', 'set', d, 'master', 'br0', 'up')
    sh('ip', 'link', 'set', 'br0', 'up')
    print('kernel %s, tap B offloads %d' % (os.uname().release,
                                            args.offloads))
    send(a, b, 'IPv4 super-packet', False, True, 10000)
    send(a, b, 'dpillar super-packet', True, True, 10000)
    send(a, b, 'dpillar partial checksum', True, False, 1400)
    return 0


if __name__ == '__main__':
    sys.exit(main())
