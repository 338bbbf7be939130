#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A hostile S2 plan-mode neighbour: shortcut probes and forged frames.

  dp_s2flood.py [options] IFNAME@IFNS=NETNS:PORT:NODE

Sends on IFNAME (in network namespace IFNS: the hostile neighbour's own
port) to the server NODE in NETNS, whose port device PORT is at the other
end, as the neighbour would: from IFNAME's MAC, naming --self as the
sender (the node id its Hellos give), so that every frame passes the
checks of a live neighbour (dpillar-design.rst, "Shortcut discovery").

  --secs S      flood for S seconds (default 5), as fast as it can, three
                frames in turn: a SHORTCUT_PROBE for another node with a
                fresh (origin, seq) and random coordinates (to be passed
                on), one for NODE itself from a random origin (to be
                answered, its origin's coordinates cached), and a DATA
                frame to a random node with the coordinates flag and
                random coordinates (to stop at a local minimum and start
                a discovery)
  --poison ORIGIN  instead: one SHORTCUT_PROBE for NODE naming ORIGIN,
                with the coordinates of --coords (default random ones),
                and exit
  --coords C0,C1,...  the poison's coordinates (another node's, so that
                routing toward them visibly goes elsewhere)
  --self ID     the sender's node id (required)
  --nodes N     node ids 0..N-1 (default 16)
  --spaces L    coordinates per node (default 2)
  --seed X      the random generator's seed (default 1)

Prints "sent N frames in S s: R/s".
"""
import random
import struct
import sys
import time

from dp_framefuzz import ETH_P_DPILLAR, HDR, NODE_NONE, SC, targets

T_DATA, T_SC_PROBE = 1, 5
S2_COORDS_FLAG = 0x20
TTL = 16
ETH_P_IP = 0x0800


def coords(r, n):
    return struct.pack("!B3x%dI" % n, n, *(r.getrandbits(32)
                                           for _ in range(n)))


def main():
    opts = {"--secs": "5", "--poison": "", "--coords": "", "--self": "",
            "--nodes": "16", "--spaces": "2", "--seed": "1"}
    args = sys.argv[1:]
    while args and args[0] in opts:
        opts[args[0]] = args[1]
        args = args[2:]
    if len(args) != 1 or not opts["--self"]:
        sys.exit(__doc__)
    me = int(opts["--self"])
    nodes, spaces = int(opts["--nodes"]), int(opts["--spaces"])
    r = random.Random(int(opts["--seed"]))
    tg = targets(args)[0]
    eth = tg["mac"] + tg["own"] + struct.pack("!H", ETH_P_DPILLAR)
    victim = tg["node"]

    def node():
        return r.randrange(nodes)

    def probe(origin, target, seq, x=b""):
        return eth + HDR.pack(1, T_SC_PROBE, TTL, 0, 0, seq, origin, target,
                              NODE_NONE) + SC.pack(me, 1, bytes(3)) + \
            (x or coords(r, spaces))

    if opts["--poison"]:
        x = [int(c) for c in opts["--coords"].split(",") if c]
        x = struct.pack("!B3x%dI" % len(x), len(x), *x) if x else b""
        tg["sock"].send(probe(int(opts["--poison"]), victim,
                              r.getrandbits(16), x))
        print("sent 1 frames in 0 s: 0/s")
        return 0
    data_ip = bytes([0x45]) + bytes(19)
    sent, seq = 0, 0
    start = time.monotonic()
    end = start + float(opts["--secs"])
    while time.monotonic() < end:
        for _ in range(8):
            seq = (seq + 1) & 0xFFFF
            k = sent % 3
            if k == 0:
                f = probe(node(), node(), seq)
            elif k == 1:
                f = probe(node(), victim, seq)
            else:
                f = eth + HDR.pack(1, T_DATA, TTL, S2_COORDS_FLAG, ETH_P_IP,
                                   0, node(), node(), NODE_NONE) + \
                    coords(r, spaces) + data_ip
            try:
                tg["sock"].send(f)
            except OSError:
                pass
            sent += 1
    secs = time.monotonic() - start
    print("sent %d frames in %.1f s: %d/s" % (sent, secs, sent / secs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
