#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A misbehaving server's forged shortcut probes (dpillar-design.rst, "The
discovery fallback"), sent from its own ports.

  dp_scforge.py [options] --self ID --nodes N IFNAME...

Run in the server's network namespace: IFNAME are its port devices, and
every frame leaves from that port's own MAC with the server's own id as
its origin and sender, so that it passes every check a live neighbour's
probe passes: a SHORTCUT_PROBE to the Hello group (how a server passes a
probe on to a switch), a fresh sequence number each, a random target.

  --count C   C probes per port, then exit (default: --secs)
  --secs S    for S seconds (default 3)
  --rate R    at most R frames a second in all (default: as fast as they
              go)
  --self ID   the server's own node id (required)
  --nodes N   node ids 0..N-1 (required): the targets
  --seed X    the random generator's seed (default 1)

Prints "sent N frames in S s: R/s".
"""
import random
import socket
import sys
import time

from dp_framefuzz import ETH_P_DPILLAR, HDR, HELLO_GROUP, NODE_NONE, SC

T_SC_PROBE = 5
TTL = 16


def main():
    opts = {"--count": "", "--secs": "3", "--rate": "", "--self": "",
            "--nodes": "", "--seed": "1"}
    args = sys.argv[1:]
    while args and args[0] in opts:
        opts[args[0]] = args[1]
        args = args[2:]
    if not args or not opts["--self"] or not opts["--nodes"]:
        sys.exit(__doc__)
    me, nodes = int(opts["--self"]), int(opts["--nodes"])
    r = random.Random(int(opts["--seed"]))
    socks = []
    for ifname in args:
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        s.bind((ifname, 0))
        with open("/sys/class/net/%s/address" % ifname) as f:
            own = bytes.fromhex(f.read().strip().replace(":", ""))
        socks.append((s, HELLO_GROUP + own +
                      ETH_P_DPILLAR.to_bytes(2, "big")))

    def target():
        t = r.randrange(nodes - 1)
        return t + (t >= me)

    sent, seq = 0, 0
    start = time.monotonic()
    end = start + float(opts["--secs"])
    count = int(opts["--count"]) if opts["--count"] else 0
    rate = float(opts["--rate"]) if opts["--rate"] else 0
    while (sent < count * len(socks)) if count else time.monotonic() < end:
        if rate and sent > (time.monotonic() - start) * rate:
            time.sleep(0.001)
            continue
        for s, eth in socks:
            seq = (seq + 1) & 0xFFFF
            f = eth + HDR.pack(1, T_SC_PROBE, TTL, 0, 0, seq, me, target(),
                               NODE_NONE) + SC.pack(me, 1, bytes(3))
            try:
                s.send(f)
            except OSError:
                pass
            sent += 1
    secs = max(time.monotonic() - start, 1e-6)
    print("sent %d frames in %.1f s: %d/s" % (sent, secs, sent / secs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
