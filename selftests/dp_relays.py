#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Do the relay counts seen match one path each way?

usage: dp_relays.py GOT FWD.json REV.json

GOT is "ADDR=COUNT ADDR=COUNT ..." (frames each server relayed); FWD.json
and REV.json are "dpsim route --all-hashes" outputs for the two
directions.  4 requests took one forward path and 4 replies one reverse
path (the flow hash picks them, and only the kernel knows it): exit 0 when
GOT is 4 per relay of some forward path plus 4 per relay of some reverse
path, else print the candidates and exit 1.  In Python because a failure
can give thousands of distinct paths, too many to pair up in bash.
"""
import json
import sys
from collections import Counter


def relays(path_file):
    with open(path_file) as f:
        paths = json.load(f)["paths"]
    return [Counter(p["path"][1:-1]) for p in paths]


def main():
    got = Counter()
    for item in sys.argv[1].split():
        addr, count = item.split("=")
        got[addr] = int(count)
    fwd = relays(sys.argv[2])
    rev = relays(sys.argv[3])
    want = {frozenset(r.items()) for r in rev}
    for f in fwd:
        rest = Counter(got)
        rest.subtract({s: 4 * n for s, n in f.items()})
        if any(v < 0 for v in rest.values()):
            continue
        rest = +rest
        if any(v % 4 for v in rest.values()):
            continue
        if frozenset((s, v // 4) for s, v in rest.items()) in want:
            print("# relays match one of %d forward and %d reverse paths"
                  % (len(fwd), len(rev)))
            return 0
    print("# relayed: %s" % " ".join("%s=%d" % kv for kv in sorted(got.items())))
    for name, paths in (("forward", fwd), ("reverse", rev)):
        for i, p in enumerate(paths[:8]):
            print("# dpsim %s path %d relays: %s" %
                  (name, i + 1, " ".join(sorted(p.elements())) or "none"))
        if len(paths) > 8:
            print("# ... %d %s paths in all" % (len(paths), name))
    return 1


if __name__ == "__main__":
    sys.exit(main())
