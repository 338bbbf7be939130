#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check that include/uapi/linux/dpillar.h matches the netlink spec.

The kernel's own generator (ynl-gen-c.py --mode uapi) renders the spec as a
UAPI header; every constant it defines for the family (enumerators and
#defines) must appear in our header with the same value, and every constant
of our generic netlink enums must appear in the rendering.  The rtnetlink
link attributes (IFLA_DPILLAR_*) and limits are not part of the spec.

usage: spec-check.py GENERATED_HEADER OUR_HEADER
"""
import re
import sys

# Our enums that belong to the generic netlink family.
GENL_PREFIXES = ("DPILLAR_A_", "DPILLAR_CMD_", "DPILLAR_PORT_STATE_",
                 "DPILLAR_NEIGH_STATE_", "DPILLAR_ROUTE_PHASE_",
                 "DPILLAR_ROUTE_DIR_", "DPILLAR_TOPO_", "DPILLAR_FAMILY_",
                 "DPILLAR_MCGRP_")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def constants(path):
    """name -> value of every enumerator and simple #define in a header."""
    text = strip_comments(open(path).read())
    out = {}
    for m in re.finditer(r"^#define[ \t]+(\w+)[ \t]+(\S.*)$", text, flags=re.M):
        out[m.group(1)] = m.group(2).strip()
    for body in re.findall(r"\benum\b[^{;]*\{(.*?)\}", text, flags=re.S):
        nxt = 0
        for item in body.split(","):
            item = item.strip()
            if not item:
                continue
            name, _, val = item.partition("=")
            name, val = name.strip(), val.strip()
            if val:
                try:
                    nxt = int(val, 0)
                except ValueError:   # "__X_MAX - 1": not an ABI value
                    out[name] = None
                    continue
            out[name] = nxt
            nxt += 1
    return out


def abi(consts):
    """Drop the renderings' bookkeeping (__*_MAX, *_MAX) and guards."""
    return {n: v for n, v in consts.items()
            if not n.startswith("_") and not n.endswith("_MAX")
            and not n.endswith("_H")}


def main():
    gen = abi(constants(sys.argv[1]))
    ours = abi(constants(sys.argv[2]))
    errors = []
    for name, val in sorted(gen.items()):
        if name not in ours:
            errors.append(f"{name} = {val}: in the spec, not in the header")
        elif ours[name] != val:
            errors.append(f"{name}: spec says {val}, header {ours[name]}")
    for name in sorted(ours):
        if name.startswith(GENL_PREFIXES) and name not in gen:
            errors.append(f"{name}: in the header, not in the spec")
    for e in errors:
        print("spec-check:", e)
    print(f"spec-check: {len(gen)} constants of the spec compared, "
          f"{len(errors)} mismatches")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
