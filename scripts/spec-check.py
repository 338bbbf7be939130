#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check that include/uapi/linux/dpillar.h and genl.c match the netlink spec.

Constants: the kernel's own generator (ynl-gen-c.py --mode uapi) renders the
spec as a UAPI header; every constant it defines for the family
(enumerators and #defines) must appear in our header with the same value,
and every constant of our generic netlink enums must appear in the
rendering.  The rtnetlink link attributes (IFLA_DPILLAR_*) and limits are
not part of the spec.

Policies (--policies): ynl-gen-c.py --mode kernel renders the spec's ops
table and request policies.  We cannot build that code: its ops are struct
genl_split_ops, which 6.1 lacks (ovpn, which uses generated code, is
6.16+), so net/dpillar/genl.c has its own struct genl_ops table.  For every
generated op (command, do or dump) our op with that .cmd and a .doit or
.dumpit must have the same maxattr, and its policy the same entries, each
reduced to (type, min, max, len) with names evaluated from our UAPI header.
Ours says NLA_BE32 where the spec says big-endian (the 6.12 generator
writes NLA_U32), and may reject the attributes a command does not take
with DP_GENL_READ_ONLY (an NLA_REJECT with a message).

A binary attribute with both min-len and max-len (a length range: S2's
coords) is more than the 6.12 generator renders ("not implemented, yet"):
--strip-ranges writes the copy of the spec it is given, without those
two checks, and --policies compares our entry for such an attribute with
NLA_POLICY_RANGE(NLA_BINARY, min-len, max-len) read from the spec itself.

usage: spec-check.py GENERATED_HEADER OUR_HEADER
       spec-check.py --policies [-v] GENERATED_SOURCE GENL_C OUR_HEADER SPEC
       spec-check.py --strip-ranges SPEC OUT
"""
import os
import re
import sys

import yaml

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
                except ValueError:
                    # "__X_MAX - 1": not an ABI value (abi() drops it),
                    # but a bound a policy may name (DPILLAR_TOPO_MAX)
                    try:
                        nxt = evaluate(val, out)
                    except ValueError:
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


def check_constants(gen_header, our_header):
    gen = abi(constants(gen_header))
    ours = abi(constants(our_header))
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


# ---- policies --------------------------------------------------------------

READ_ONLY = "DP_GENL_READ_ONLY"  # genl.c: NLA_REJECT with a message
IFNAMSIZ = 16                     # <linux/if.h>
IN6_ADDR = 16                     # sizeof(struct in6_addr)


def evaluate(expr, consts):
    """The value of a bound: numbers, UAPI names, IFNAMSIZ, sizeof, + - *."""
    expr = re.sub(r"sizeof\s*\(\s*struct\s+in6_addr\s*\)", str(IN6_ADDR),
                  expr)

    def value(m):
        if m.group(0) == "IFNAMSIZ":
            return str(IFNAMSIZ)
        if consts.get(m.group(0)) is None:
            raise ValueError(f"unknown name {m.group(0)}")
        return str(evaluate(str(consts[m.group(0)]), consts))

    expr = re.sub(r"\b[A-Za-z_]\w*", value, expr)
    if not re.fullmatch(r"[\w\s()+*-]+", expr):
        raise ValueError(f"cannot evaluate {expr.strip()}")
    return eval(expr)


def policy_entry(text, consts):
    """One nla_policy initializer as (type, min, max, len), or READ_ONLY."""
    text = " ".join(text.split())
    if text == READ_ONLY:
        return READ_ONLY
    m = re.fullmatch(r"NLA_POLICY_(MIN|MAX|RANGE|EXACT_LEN)\((.*)\)", text)
    if m:
        kind, args = m.group(1), m.group(2).split(",")
        if kind == "EXACT_LEN":
            return ("NLA_EXACT_LEN", None, None, evaluate(args[0], consts))
        bounds = [evaluate(a, consts) for a in args[1:]]
        return (args[0].strip(),
                bounds[0] if kind in ("MIN", "RANGE") else None,
                bounds[-1] if kind in ("MAX", "RANGE") else None, None)
    m = re.fullmatch(r"\{(.*)\}", text)
    if not m:
        raise ValueError(f"cannot parse {text}")
    fields = {}
    for field in filter(str.strip, m.group(1).split(",")):
        name, _, val = field.strip().lstrip(".").partition("=")
        fields[name.strip()] = val.strip()
    if not set(fields) <= {"type", "min", "max", "len"}:
        raise ValueError(f"cannot parse {text}")
    return (fields.get("type"),) + tuple(
        evaluate(fields[f], consts) if f in fields else None
        for f in ("min", "max", "len"))


def policies(text):
    """Policy name -> (size expression, {attribute: initializer text})."""
    out = {}
    for name, size, body in re.findall(
            r"struct\s+nla_policy\s+(\w+)\s*\[([^\]]*)\]\s*=\s*"
            r"\{(.*?)\}\s*;", text, flags=re.S):
        keys = list(re.finditer(r"\[\s*(\w+)\s*\]\s*=", body))
        ends = [k.start() for k in keys[1:]] + [len(body)]
        out[name] = (size, {k.group(1): body[k.end():end].strip().rstrip(",")
                            for k, end in zip(keys, ends)})
    return out


def ops(text):
    """Every entry of the genl_ops or genl_split_ops tables: {field: value}."""
    out = []
    for body in re.findall(r"struct\s+genl_(?:split_)?ops\s+\w+\s*\[\]"
                           r"\s*=\s*\{(.*?)\}\s*;", text, flags=re.S):
        for entry in re.findall(r"\{([^{}]*)\}", body):
            out.append({f: v.strip() for f, v in
                        re.findall(r"\.(\w+)\s*=\s*([^,]+)", entry)})
    return out


def spec_attrs(spec):
    """(C name, attribute) of every attribute of the spec."""
    for aset in spec["attribute-sets"]:
        prefix = aset.get("name-prefix", f"{spec['name']}-a-{aset['name']}-")
        for attr in aset["attributes"]:
            yield (prefix + attr["name"]).upper().replace("-", "_"), attr


def big_endian(spec_path):
    """C names of the spec's attributes with byte-order: big-endian."""
    spec = yaml.safe_load(open(spec_path))
    return {name for name, attr in spec_attrs(spec)
            if attr.get("byte-order") == "big-endian"}


def is_range(attr):
    checks = attr.get("checks", {})
    return (attr.get("type") == "binary" and "min-len" in checks
            and "max-len" in checks)


def binary_ranges(spec_path):
    """C name -> policy entry of the binary attributes with a length range."""
    spec = yaml.safe_load(open(spec_path))
    return {name: ("NLA_BINARY", attr["checks"]["min-len"],
                   attr["checks"]["max-len"], None)
            for name, attr in spec_attrs(spec) if is_range(attr)}


def strip_ranges(spec_path, out_path):
    """Write the spec without the length ranges the generator cannot render."""
    spec = yaml.safe_load(open(spec_path))
    for _, attr in spec_attrs(spec):
        if is_range(attr):
            del attr["checks"]["min-len"], attr["checks"]["max-len"]
            if not attr["checks"]:
                del attr["checks"]
    # The generator wants the SPDX comment of the original's first line.
    with open(spec_path) as f:
        spdx = f.readline()
    with open(out_path, "w") as f:
        f.write(spdx)
        yaml.safe_dump(spec, f, sort_keys=False)
    return 0


def show(entry):
    if entry is None:
        return "absent"
    if entry == READ_ONLY:
        return "read-only"
    names = ("min", "max", "len")
    return " ".join([entry[0]] + [f"{n}={v}" for n, v in zip(names, entry[1:])
                                  if v is not None])


def compare_policy(where, gen, ours, consts, be, ranges, verbose):
    """Mismatch lines between two {attribute: initializer} policies."""
    errors = []
    for attr in sorted(set(gen) | set(ours), key=lambda a: consts.get(a, -1)):
        try:
            spec = gen.get(attr) and policy_entry(gen[attr], consts)
            mine = ours.get(attr) and policy_entry(ours[attr], consts)
        except ValueError as e:
            errors.append(f"{where}: {attr}: {e}")
            continue
        if spec and attr in ranges:     # rendered from the stripped copy
            spec = ranges[attr]
        if spec and attr in be:    # the 6.12 generator says NLA_U32
            spec = (spec[0].replace("NLA_U", "NLA_BE"),) + spec[1:]
        if mine == READ_ONLY and spec is None:
            line = "read-only (rejected with a message)"
        elif mine == spec:
            line = show(mine)
        else:
            hint = ""
            if "NLA_BE" in show(mine) + show(spec):
                hint = " (spec: %sbig-endian)" % ("" if attr in be else "not ")
            errors.append(f"{where}: {attr}: genl.c {show(mine)}, "
                          f"spec {show(spec)}{hint}")
            continue
        if verbose:
            print(f"spec-check: {where}: {attr}: {line}")
    return errors


def param_policies(genl_c):
    """DP_PARAM_POLICY_GENL as genl.c's policy entries: the parameters'
    list, DP_PARAM_LIST of params.h, written out as params.h expands it
    (U: a u32 with its range, C: whole u32s, min..max of them)."""
    here = os.path.dirname(genl_c)
    params_h = os.path.join(here, "params.h")
    text = strip_comments(open(params_h).read()).replace("\\\n", " ")
    m = re.search(r"#define\s+DP_PARAM_LIST\(U,\s*C\)(.*)", text)
    out = []
    for kind, attr, lo, hi in re.findall(
            r"\b([UC])\(\s*\w+\s*,\s*(\w+)\s*,\s*([^,]+),\s*([^,]+),",
            m.group(1)):
        lo, hi = lo.strip(), hi.strip()
        if kind == "C":
            out.append(f"[DPILLAR_A_DEV_{attr}] = NLA_POLICY_RANGE("
                       f"NLA_BINARY, ({lo}) * 4, ({hi}) * 4),")
        elif hi != "DP_PARAM_NOMAX" and lo != "0":
            out.append(f"[DPILLAR_A_DEV_{attr}] = NLA_POLICY_RANGE("
                       f"NLA_U32, {lo}, {hi}),")
        elif hi != "DP_PARAM_NOMAX":
            out.append(f"[DPILLAR_A_DEV_{attr}] = NLA_POLICY_MAX("
                       f"NLA_U32, {hi}),")
        elif lo != "0":
            out.append(f"[DPILLAR_A_DEV_{attr}] = NLA_POLICY_MIN("
                       f"NLA_U32, {lo}),")
        else:
            out.append(f"[DPILLAR_A_DEV_{attr}] = {{ .type = NLA_U32 }},")
    return " ".join(out), {**constants(os.path.join(here, "topo.h")),
                           **constants(params_h)}


def check_policies(gen_source, genl_c, our_header, spec, verbose):
    consts = constants(our_header)
    be = big_endian(spec)
    ranges = binary_ranges(spec)
    gen_text = strip_comments(open(gen_source).read())
    our_text = strip_comments(open(genl_c).read())
    if "DP_PARAM_POLICY_GENL" in our_text:
        params, topo_consts = param_policies(genl_c)
        our_text = our_text.replace("DP_PARAM_POLICY_GENL", params)
        consts = {**topo_consts, **consts}
    gen_pol, our_pol = policies(gen_text), policies(our_text)
    gen_ops, our_ops = ops(gen_text), ops(our_text)
    errors, entries, seen = [], 0, set()
    for op in gen_ops:
        kind = "do" if "doit" in op else "dump"
        where = f"{op['cmd']} {kind}"
        mine = [o for o in our_ops if o.get("cmd") == op["cmd"]
                and kind + "it" in o]
        if len(mine) != 1:
            errors.append(f"{where}: {len(mine)} ops in genl.c, spec 1")
            continue
        mine = mine[0]
        seen.add((op["cmd"], kind))
        if mine.get("policy") not in our_pol:
            errors.append(f"{where}: policy {mine.get('policy')} not found")
            continue
        size, ours = our_pol[mine["policy"]]
        try:
            maxattr = evaluate(mine["maxattr"], consts)
            if maxattr != evaluate(op["maxattr"], consts):
                errors.append(f"{where}: maxattr genl.c {mine['maxattr']}, "
                              f"spec {op['maxattr']}")
            if evaluate(size, consts) != maxattr + 1:
                errors.append(f"{where}: {mine['policy']}[{size}] does not "
                              f"match maxattr {mine['maxattr']}")
        except (KeyError, ValueError) as e:
            errors.append(f"{where}: maxattr: {e}")
        gen = gen_pol[op["policy"]][1]
        entries += len(set(gen) | set(ours))
        errors += compare_policy(where, gen, ours, consts, be, ranges,
                                 verbose)
    for o in our_ops:
        for kind in ("do", "dump"):
            if kind + "it" in o and (o.get("cmd"), kind) not in seen:
                errors.append(f"{o.get('cmd')} {kind}: in genl.c, "
                              "not in the spec")
    for e in errors:
        print("spec-check:", e)
    print(f"spec-check: {entries} policy entries of {len(gen_ops)} ops "
          f"compared, {len(errors)} mismatches")
    return 1 if errors else 0


def main():
    args = sys.argv[1:]
    if args[:1] == ["--policies"]:
        verbose = "-v" in args
        return check_policies(*[a for a in args[1:] if a != "-v"], verbose)
    if args[:1] == ["--strip-ranges"]:
        return strip_ranges(*args[1:])
    return check_constants(*args)


if __name__ == "__main__":
    sys.exit(main())
