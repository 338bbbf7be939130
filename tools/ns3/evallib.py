# SPDX-License-Identifier: GPL-2.0
"""What the ns-3 evaluations (eval-s2.sh, eval-fabric.sh) share: imported
by their tables' Python, which runs in tools/ns3."""


def waterfill(fl):
    """Max-min fair (water-filling) aggregate of the flows @fl, each the
    list of the links it crosses (any hashable names), every link of
    capacity 1; in links.  The link whose flows get the least share is
    filled first, those flows are frozen at it, and so on."""
    n, cap, on = {}, {}, {}
    for i, ls in enumerate(fl):
        for l in ls:
            n[l] = n.get(l, 0) + 1
            cap[l] = 1.0
            on.setdefault(l, []).append(i)
    left, total = set(range(len(fl))), 0.0
    while left:
        l = min((l for l in n if n[l]), key=lambda l: cap[l] / n[l])
        share = cap[l] / n[l]
        # a flow on l twice (a detour around failures) frozen once
        for i in [i for i in dict.fromkeys(on[l]) if i in left]:
            left.discard(i)
            total += share
            for m in fl[i]:
                cap[m] -= share
                n[m] -= 1
    return total
