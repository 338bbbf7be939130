#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make check's capture step: tshark with the Wireshark dissector
(tools/wireshark/dpillar.lua) on

  1. hand-made frames (tools/wireshark/frames.py): well-formed ones and
     malformed ones, each with the expert info it must get;
  2. with --capture DIR, what selftests/s2_test.sh captured in a guest
     (DPILLAR_S2_CAPTURE=1: DIR/{src,dst}-pP.pcap, DIR/expect,
     DIR/trace.json): every frame type, each decoded field checked
     against what the test knows (node ids, ports, types, TTLs, the
     coordinates, the inner IP addresses, route trace's answers), and the
     tcpdump filters of Documentation/networking/dpillar-admin-guide.rst
     ("Capturing frames") counted against tshark;
  3. every frame of both cut short at several lengths (editcap -s).

No Lua error anywhere (a script that fails to load, or a dissector that
raises one, fails the step).  Last line "N passed, N failed".

    capture-check.py [--lua FILE] [--capture DIR]
"""
import argparse
import ipaddress
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tools", "wireshark"))
import frames  # noqa: E402  (tools/wireshark/frames.py)

EXPERTS = ("dpillar.truncated", "dpillar.bad_version", "dpillar.bad_type",
           "dpillar.bad_proto", "dpillar.bad_tlv", "dpillar.unknown_tlv",
           "dpillar.bad_coords", "dpillar.bad_payload",
           "dpillar.ttl_zero")
STATUS = {"reached": 1, "ttl": 2, "noroute": 3, "noneigh": 4}
NONE = 4294967295

passed = failed = 0


def ok(cond, what, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print(f"ok: {what}")
    else:
        failed += 1
        print(f"FAIL: {what}{': ' + detail if detail else ''}")
    return cond


def tshark(lua, pcap, *opts):
    """The packets of pcap, each a dict: field name -> [shown values]."""
    r = subprocess.run(["tshark", "-n", "-X", f"lua_script:{lua}", "-r", pcap,
                        *opts, "-T", "pdml"], capture_output=True, text=True)
    # tshark's own warning as root is no error; anything about Lua is.
    err = [ln for ln in r.stderr.splitlines() if "Running as user" not in ln]
    ok(r.returncode == 0 and not any("lua" in ln.lower() for ln in err),
       f"tshark loads {os.path.basename(lua)} and reads "
       f"{os.path.basename(pcap)}", "; ".join(err) or f"rc {r.returncode}")
    pkts = []
    if r.returncode != 0 or not r.stdout:
        return pkts
    for pkt in ET.fromstring(r.stdout).iter("packet"):
        d = {}
        for f in pkt.iter():
            name = f.get("name") or ""
            if name:
                d.setdefault(name, []).append(f.get("show", ""))
            elif "Lua Error" in (f.get("show") or ""):
                d.setdefault("_ws.lua.error", []).append(f.get("show"))
        pkts.append(d)
    return pkts


def no_lua_errors(pkts, what):
    bad = [i + 1 for i, p in enumerate(pkts) if "_ws.lua.error" in p]
    ok(not bad, f"{what}: no Lua error in {len(pkts)} frames",
       f"frames {bad[:10]}: {pkts[bad[0] - 1]['_ws.lua.error'][0]}"
       if bad else "")
    missing = [i + 1 for i, p in enumerate(pkts) if "dpillar" not in p]
    ok(pkts and not missing, f"{what}: the dissector took every frame",
       f"frames {missing[:10]}" if pkts else "no frame decoded")


def ints(p, name):
    return [int(v, 0) for v in p.get(name, [])]


def one(p, name):
    v = ints(p, name)
    return v[0] if v else None


def crafted(lua, tmp):
    pcap, exp = os.path.join(tmp, "crafted.pcap"), os.path.join(tmp, "exp")
    sys.argv = ["frames.py", pcap, exp]
    frames.main()
    want = [ln.split()[1] for ln in open(exp)]
    pkts = tshark(lua, pcap, "-o", "dpillar.topology:S2")
    no_lua_errors(pkts, "hand-made frames")
    bad = []
    for i, (p, w) in enumerate(zip(pkts, want), 1):
        got = sorted(e for e in EXPERTS if e in p)
        if got != ([] if w == "-" else [w]):
            bad.append(f"frame {i}: want {w}, got {got or '-'}")
    if not ok(len(pkts) == len(want) and not bad,
              f"hand-made frames: {len(want)} frames, each with exactly its "
              "expert info (or none)", "; ".join(bad) or f"{len(pkts)} frames"):
        return pcap
    # The well-formed ones' fields (frames.py: 1 a detour, 3 a NOROUTE
    # reply, 4 path selection's reply).
    got = [(one(pkts[0], "dpillar.waypoint"), 7 in ints(pkts[0], "dpillar.node")),
           (one(pkts[2], "dpillar.probe.status"),
            one(pkts[2], "dpillar.probe.reason")),
           (one(pkts[3], "dpillar.probe.id_kernel"),
            one(pkts[3], "dpillar.probe.reporter"))]
    ok(got == [(7, True), (3, 2), (1, 5)], "hand-made frames: waypoint, "
       "dpillar.node, NOROUTE reason, in-kernel probe id", str(got))
    return pcap


def addresses(lua, tmp):
    """DPillar's address form C:v_{k-1}...v_0 beside the node ids, from the
    preferences (the frames do not say n and k): a data frame 1:3.17.0.22
    (id 383062 in DPillar (48,4), dpctl addr's) -> #5 via 0:0.0.0.1, and
    a probe reply whose reporter is 3:23.23.23.23 (the last server)."""
    pcap = os.path.join(tmp, "addr.pcap")
    frs = [frames.ETH + frames.hdr(1, src=383062, dst=5, wp=1),
           frames.ETH + frames.hdr(4, src=7, dst=1327103) +
           frames.probe(status=3, reason=2, reporter=1327103)]
    with open(pcap, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(frs, 1):
            f.write(struct.pack("<IIII", i, 0, len(fr), len(fr)) + fr)
    pkts = tshark(lua, pcap, "-o", "dpillar.topology:DPillar",
                  "-o", "dpillar.n:48", "-o", "dpillar.k:4")
    no_lua_errors(pkts, "DPillar addresses")
    got = [p.get("dpillar.addr", []) for p in pkts]
    ok(got == [["1:3.17.0.22", "0:0.0.0.5", "0:0.0.0.1"],
               ["0:0.0.0.7", "3:23.23.23.23", "3:23.23.23.23"]],
       "DPillar (48,4): dpillar.addr of src, dst, waypoint, reporter",
       str(got))
    info = []
    for col in ("_ws.col.info", "_ws.col.Info"):	# Wireshark >= 4.2, older
        r = subprocess.run(["tshark", "-n", "-X", f"lua_script:{lua}",
                            "-r", pcap, "-o", "dpillar.topology:DPillar",
                            "-o", "dpillar.n:48", "-o", "dpillar.k:4",
                            "-T", "fields", "-e", col],
                           capture_output=True, text=True)
        info = r.stdout.splitlines()
        if r.returncode == 0 and any(info):
            break
    ok(len(info) == 2 and
       info[0].startswith("Data 1:3.17.0.22 -> 0:0.0.0.5 via 0:0.0.0.1 ") and
       "NOROUTE from 3:23.23.23.23" in info[1],
       "DPillar (48,4): the Info column names addresses", str(info))
    src = pkts[0].get("dpillar.src", []) if pkts else []
    ok(src == ["383062"], "dpillar.src stays the node id", str(src))
    # without the preferences, ids alone (auto cannot know DPillar's n, k)
    pkts = tshark(lua, pcap)
    ok(bool(pkts) and not any("dpillar.addr" in p for p in pkts),
       "no dpillar.addr without the topology's n and k")


def load_expect(d):
    e = {"coords": {}, "peer": {}}
    for ln in open(os.path.join(d, "expect")):
        w = ln.split()
        if w[0] in ("src", "dst"):
            e[w[0]] = int(w[1])
        elif w[0] in ("ip4", "ip6"):	# as tshark shows them
            e[w[0]] = [str(ipaddress.ip_address(a)) for a in w[1:3]]
        elif w[0] == "coords":
            e["coords"][int(w[1])] = [int(x) for x in w[2].split(",")]
        elif w[0] == "cable":	# "cable A/P B/Q"
            (a, ap), (b, bp) = (map(int, x.split("/")) for x in w[1:3])
            e["peer"][(a, ap)] = (b, bp)
            e["peer"][(b, bp)] = (a, ap)
    e["trace"] = json.load(open(os.path.join(d, "trace.json")))[0]
    return e


def guest_capture(lua, d, tmp):
    if not ok(os.path.isfile(os.path.join(d, "expect")) and
              os.path.isfile(os.path.join(d, "trace.json")),
              f"the guest's capture: {d}/expect, trace.json",
              "missing: did s2_test.sh's capture case run?"):
        return None
    e = load_expect(d)
    s, dd = e["src"], e["dst"]
    files = sorted(f for f in os.listdir(d) if re.match(r"(src|dst)-p\d+\.pcap$", f))
    ok(files, f"capture files in {d}")
    if not files:
        return None
    merged = os.path.join(tmp, "guest.pcapng")
    # -I none: one interface per file, in order (frame.interface_id).
    subprocess.run(["mergecap", "-a", "-I", "none", "-w", merged,
                    *(os.path.join(d, f) for f in files)], check=True)
    pkts = tshark(lua, merged)
    no_lua_errors(pkts, "guest capture")
    for p in pkts:
        f = files[one(p, "frame.interface_id") or 0]
        m = re.match(r"(src|dst)-p(\d+)", f)
        p["node"] = s if m.group(1) == "src" else dd
        p["port"] = int(m.group(2))
    types = {one(p, "dpillar.type") for p in pkts}
    ok(types >= set(range(1, 7)), "every frame type captured (1-6)",
       f"got {sorted(types)}")
    cs, cd = e["coords"][s], e["coords"][dd]

    # Hellos: a node's own carry its port, id, coordinates and a
    # neighbour list naming the peer; the peer's name the peer and its port.
    hellos = [p for p in pkts if one(p, "dpillar.type") == 2]
    bad = []
    for p in hellos:
        me, port = p["node"], p["port"]
        peer = e["peer"].get((me, port))
        src, hp = one(p, "dpillar.src"), one(p, "dpillar.hello.port")
        want = (me, port) if src == me else peer
        co = ints(p, "dpillar.tlv.coord")
        nb = ints(p, "dpillar.tlv.neigh")
        nco = [x for n in nb for x in e["coords"].get(n, [None])]
        if (src, hp) != want or one(p, "dpillar.ttl") != 1 or \
           ints(p, "dpillar.tlv.neigh_coord") != nco or \
           one(p, "dpillar.dst") != NONE or co != e["coords"].get(src) or \
           not (one(p, "dpillar.tlv.ports_up") or 0) >> hp & 1 or \
           (peer and (peer[0] if src == me else me) not in nb):
            bad.append(f"node {me} port {port}: src {src} port {hp} "
                       f"coords {co} neighs {nb}")
    ok(hellos and not bad, f"{len(hellos)} Hellos: ids, ports, TTL 1, "
       "coordinates, ports up, neighbours and their coordinates",
       "; ".join(bad[:5]))

    # Data: IPv4 and IPv6 both ways, the destination's coordinates behind
    # the header, the inner addresses; relays took TTL off on the way.
    for fam, ipf in (("ip4", "ip"), ("ip6", "ipv6")):
        a, b = e[fam]
        for (x, y, xa, ya, co) in ((s, dd, a, b, cd), (dd, s, b, a, cs)):
            fr = [p for p in pkts if one(p, "dpillar.type") == 1 and
                  p.get(ipf + ".src") == [xa] and p.get(ipf + ".dst") == [ya]]
            sent = [one(p, "dpillar.ttl") for p in fr if p["node"] == x]
            got = [one(p, "dpillar.ttl") for p in fr if p["node"] == y]
            bad = [p for p in fr if one(p, "dpillar.src") != x or
                   one(p, "dpillar.dst") != y or
                   ints(p, "dpillar.coords.x") != co or
                   one(p, "dpillar.s2.coords") != 1]
            ok(sent and got and not bad and min(sent) - max(got) >= 2,
               f"{fam} data {x} -> {y} ({xa} -> {ya}): ids, coordinates "
               f"{co}, sent with TTL {sorted(set(sent))}, arrived with "
               f"{sorted(set(got))} (2+ relays)",
               f"{len(fr)} frames, {len(bad)} wrong")

    # Path probes: one sent per TTL route trace used, each answered by
    # the reporter it names with its status.
    tr = e["trace"]
    probes = [p for p in pkts if one(p, "dpillar.type") == 3 and
              p["node"] == s and one(p, "dpillar.src") == s]
    ttls = {one(p, "dpillar.probe.ttl") for p in probes}
    want = {h["ttl"] for h in tr["hops"]}
    bad = [p for p in probes if one(p, "dpillar.dst") != dd or
           ints(p, "dpillar.coords.x") != cd + cs or
           one(p, "dpillar.probe.status") != 0]
    ok(probes and ttls == want and not bad,
       f"probes {s} -> {dd}: TTLs {sorted(ttls)} (route trace's "
       f"{sorted(want)}), destination's then sender's coordinates",
       f"{len(bad)} wrong")
    replies = {(one(p, "dpillar.probe.ttl"), one(p, "dpillar.probe.status"),
                one(p, "dpillar.probe.reporter"), one(p, "dpillar.src"))
               for p in pkts if one(p, "dpillar.type") == 4 and
               p["node"] == s and one(p, "dpillar.dst") == s}
    want = {(h["ttl"], STATUS.get(h["status"]), h.get("id"), h.get("id"))
            for h in tr["hops"]}
    ok(replies >= want, f"probe replies to {s}: (ttl, status, reporter, src) "
       f"{sorted(want)} as route trace says", f"got {sorted(replies)}")

    # Shortcut discovery: the source floods a probe with its coordinates,
    # the destination answers with its own.
    sc = [(p["node"], one(p, "dpillar.type"), one(p, "dpillar.src"),
           one(p, "dpillar.dst"), one(p, "dpillar.shortcut.sender"),
           ints(p, "dpillar.coords.x"))
          for p in pkts if one(p, "dpillar.type") in (5, 6)]
    ok((s, 5, s, dd, s, cs) in sc and (dd, 5, s, dd) in
       {x[:4] for x in sc if x[5] == cs},
       f"shortcut probe {s} -> {dd}: sent by {s}, came to {dd}, "
       f"coordinates {cs}", str(sc[:6]))
    ok((dd, 6, dd, s, dd, cd) in sc and (s, 6, dd, s) in
       {x[:4] for x in sc if x[5] == cd},
       f"shortcut reply {dd} -> {s}: sent by {dd}, came to {s}, "
       f"coordinates {cd}", str(sc[:6]))

    # dpillar-admin-guide.rst's tcpdump filters select what tshark says they do.
    def count(flt):
        r = subprocess.run(["tcpdump", "-n", "-q", "-r", merged, flt],
                           capture_output=True, text=True)
        # one line a frame; lines that start with blanks continue one
        return sum(1 for ln in r.stdout.splitlines()
                   if ln and not ln[0].isspace())
    for t in range(1, 7):
        n = sum(1 for p in pkts if one(p, "dpillar.type") == t)
        ok(count(f"ether proto 0x88b5 and ether[15] == {t}") == n,
           f"tcpdump 'ether proto 0x88b5 and ether[15] == {t}': {n} frames")
    for off, f in ((22, "dpillar.src"), (26, "dpillar.dst")):
        n = sum(1 for p in pkts if one(p, f) == dd)
        ok(count(f"ether proto 0x88b5 and ether[{off}:4] == {dd}") == n,
           f"tcpdump 'ether proto 0x88b5 and ether[{off}:4] == {dd}' "
           f"({f}): {n} frames")
    # Cut short: every frame but the Hellos, and a few Hellos.
    keep = [str(i) for i, p in enumerate(pkts, 1)
            if one(p, "dpillar.type") != 2 or i % 100 == 1][:400]
    # (editcap takes at most 512 selections)
    sub = os.path.join(tmp, "guest-some.pcapng")
    subprocess.run(["editcap", "-r", merged, sub, *keep], check=True)
    return sub


def truncated(lua, tmp, sources):
    cut = []
    for src in sources:
        for n in (15, 24, 34, 36, 40, 44, 50, 58, 66, 80):
            out = os.path.join(tmp, f"cut-{n}-{os.path.basename(src)}")
            subprocess.run(["editcap", "-F", "pcapng", "-s", str(n), src, out],
                           check=True)
            cut.append(out)
    merged = os.path.join(tmp, "cut.pcapng")
    subprocess.run(["mergecap", "-a", "-w", merged, *cut], check=True)
    pkts = tshark(lua, merged)
    no_lua_errors(pkts, "frames cut short (editcap -s 15 .. 80)")
    n = sum(1 for p in pkts if "dpillar.truncated" in p)
    ok(n > 0, f"frames cut short: {n} say dpillar.truncated")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lua", default=os.path.join(REPO, "tools", "wireshark",
                                                  "dpillar.lua"))
    ap.add_argument("--capture")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        sources = [crafted(a.lua, tmp)]
        addresses(a.lua, tmp)
        if a.capture:
            m = guest_capture(a.lua, a.capture, tmp)
            if m:
                sources.append(m)
        truncated(a.lua, tmp, sources)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
