#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A hostile fabric neighbour against path probes (dpillar.rst, "Path
probes"): probes that spend a server's reply budget, and forged replies.

  dp_probeforge.py flood [options] IFNAME[@IFNS]=NETNS:PORT:NODE
  dp_probeforge.py reply [options] IFNAME[@IFNS]=NETNS:PORT:NODE

IFNAME (in network namespace IFNS) is the far end of server NODE's port
device PORT in NETNS (the switch's end of its cable); frames go to that
port's MAC from IFNAME's.

flood: PROBE frames for NODE, as fast as they go, each from --src with a
    fresh user id (DPILLAR_PROBE_ID_KERNEL clear) and sequence number:
    NODE is their destination and answers each from its budget for
    everything but path selection, which they exhaust.
reply: forged PROBE_REPLY frames for NODE, as if --src had answered
    probes of NODE's: status REACHED, reporter --src, every id 0..--ids-1
    (the ids a device's netlink probes take first) with every sequence
    number of --seq (a netlink probe's is its TTL: ROUTE_PROBE sends the
    fabric's full TTL), in turn, each with a random stamp: the right
    (id, seq) among them, never the right stamp.

Options:
  --secs S   send for S seconds (default 5)
  --src ID   the node id the frames claim to come from (required)
  --ttl T    the header's TTL, and a probe's own (default 16)
  --ids N    reply: ids 0..N-1 (default 64)
  --seq A-B  reply: sequence numbers A..B (default 1-64)
  --seed X   the random generator's seed (default 1)
  --flags F  flood: the probe's flags byte (default 0; 1 is
             DPILLAR_PROBE_F_NEIGHS: each probe asks for NODE's
             neighbour table, as dpctl fabric's do)

Prints "sending" when the first frame is about to go, then at the end
"sent N frames in S s: R/s" (and how many sends failed, if any).
"""
import random
import signal
import struct
import sys
import time

from dp_framefuzz import ETH_P_DPILLAR, HDR, NODE_NONE, PROBE, targets

T_PROBE, T_REPLY = 3, 4
STATUS_REACHED = 1
ID_KERNEL = 0x8000


def main():
    opts = {"--secs": "5", "--src": "", "--ttl": "16", "--ids": "64",
            "--seq": "1-64", "--seed": "1", "--flags": "0"}
    args = sys.argv[1:]
    mode = args.pop(0) if args else ""
    while args and args[0] in opts and len(args) > 1:
        opts[args[0]] = args[1]
        args = args[2:]
    if mode not in ("flood", "reply") or len(args) != 1 or not opts["--src"]:
        sys.exit(__doc__)
    src, ttl = int(opts["--src"]), int(opts["--ttl"])
    nids = int(opts["--ids"])
    flags = bytes([int(opts["--flags"], 0), 0, 0])
    lo, _, hi = opts["--seq"].partition("-")
    seqs = range(int(lo), int(hi or lo) + 1)
    r = random.Random(int(opts["--seed"]))
    tg = targets(args)[0]
    eth = tg["mac"] + tg["own"] + struct.pack("!H", ETH_P_DPILLAR)
    victim, sock = tg["node"], tg["sock"]

    def frame(i):
        if mode == "flood":
            return eth + HDR.pack(1, T_PROBE, ttl, 0, 0, 0, src, victim,
                                  NODE_NONE) + \
                PROBE.pack(0, 0, i & (ID_KERNEL - 1), r.getrandbits(16),
                           ttl, 0, 0, 0, flags, r.getrandbits(64))
        return eth + HDR.pack(1, T_REPLY, ttl, 0, 0, 0, src, victim,
                              NODE_NONE) + \
            PROBE.pack(STATUS_REACHED, 0, i % nids,
                       seqs[i // nids % len(seqs)], ttl, 2, src, 0, bytes(3),
                       r.getrandbits(64))

    # Stopped early (the caller's kill): the figures are still printed.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    # For the caller to wait on: python's start is seconds on a debug
    # kernel under TCG, longer than what the caller waits for.
    print("sending", flush=True)
    n, errs, first, t0 = 0, 0, "", time.monotonic()
    end = t0 + float(opts["--secs"])
    try:
        while time.monotonic() < end:
            for _ in range(64):
                try:
                    sock.send(frame(n))
                except OSError as e:
                    # A full queue: the next one.  Counted, so that a
                    # flood that never left is not taken for one.
                    errs += 1
                    first = first or str(e)
                n += 1
    finally:
        report(n, errs, first, t0)
    return 0


def report(n, errs, first, t0):
    secs = time.monotonic() - t0
    print("sent %d frames in %.1f s: %d/s%s" %
          (n - errs, secs, (n - errs) / secs,
           ", %d not sent (%s)" % (errs, first) if errs else ""),
          flush=True)


if __name__ == "__main__":
    sys.exit(main())
