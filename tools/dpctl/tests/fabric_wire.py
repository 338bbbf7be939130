#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
The neighbour tables of a fabric cabled as "dpctl plan" says, but for two
port ends swapped (each plugged into what the other's plan puts there),
as the kernel would fill them: a port hears every other port end on its
switch or cable; one the plan puts on the same switch or cable is
reachable (state 1), the others miswired (state 3, the last one heard
kept).  For the mock's ROUTE_NEIGHS (MOCK_FABRIC): lines
"NODE PORT PEER PEER_PORT STATE".

Usage: fabric_wire.py DPCTL ID:PORT ID:PORT PLAN-ARGS...  ("- -": no swap)
"""
import csv
import subprocess
import sys

dpctl, swap_a, swap_b, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
plan = subprocess.run([dpctl, "plan", *args, "--csv"], capture_output=True,
                      text=True, check=True).stdout.splitlines()

# address -> node id
ids = {}
node = 0
while True:
    r = subprocess.run([dpctl, "addr", *args, str(node)], capture_output=True,
                       text=True)
    if r.returncode:
        break
    ids[r.stdout.split()[1]] = node
    node += 1

seg = {}    # (id, port) -> the switch or cable the plan plugs it into
rows = list(csv.reader(plan))
if rows[0][0] == "server":
    for s, p, col, sw in rows[1:]:
        if col != "4294967295":
            seg[(ids[s], int(p))] = ("switch", col, sw)
else:
    for kind, lvl, sw, a, ap, b, bp in rows[1:]:
        if kind == "switch":
            seg[(ids[a], int(ap))] = ("switch", lvl, sw)
        else:
            seg[(ids[a], int(ap))] = seg[(ids[b], int(bp))] = \
                ("cable", a, ap)


def end(text):
    n, p = text.split(":")
    return (int(n), int(p))


phys = dict(seg)
if swap_a != "-":
    a, b = end(swap_a), end(swap_b)
    assert seg[a] != seg[b], "swap two ends of different switches or cables"
    phys[a], phys[b] = seg[b], seg[a]

members = {}
for e, g in phys.items():
    members.setdefault(g, []).append(e)
for e in sorted(phys):
    mis = None
    for x in sorted(members[phys[e]]):
        if x == e:
            continue
        if seg[x] == seg[e]:
            print(e[0], e[1], x[0], x[1], 1)
        else:
            mis = x
    if mis:
        print(e[0], e[1], mis[0], mis[1], 3)
print(len(ids), file=sys.stderr)
