#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every dpillar netlink request, taken apart attribute by attribute.

  dp_nlhostile.py root|unpriv DEV PORT_A PORT_B

For each request of the genetlink family (DEV_GET, DEV_SET, NEIGH_GET,
ROUTE_GET, ROUTE_TRACE, ROUTE_PROBE, SHORTCUT_GET) and of rtnetlink (newlink and changelink of kind "dpillar"), a
valid base request is sent with each attribute of its set (and one past
the set) missing, duplicated, oversized (300 bytes), empty, and at the
edges of its range (0, 0xffffffff).  DEV names the dpillar device to ask
about and change; PORT_A and PORT_B two free Ethernet devices for newlink
(each device created is deleted again).  Then newlink with names that
register_netdevice() refuses ("dp:0", "a%d%d": the leak of issue 18).
Then S2's coords (plan mode) at every length around their bounds (4..32
bytes, one u32 per space), for another topology, and through DEV_SET on
an S2 device made for it (dpz1, down), which must take the valid ones.
Then the discovery fallback (a u8 0/1) on DEV through DEV_SET and
changelink: 0 and 1 taken and reported by DEV_GET, 2 and 0xff refused
with ERANGE, a u32 refused by genetlink's strict policy.
Attribute numbers come from the UAPI header by name (the integrator
renumbers what helpers append).

root: every rejection must carry an extack message (but EPERM, and the
invalid names, which the core refuses without one; and on 6.1 a dump's
ENODEV/EOPNOTSUPP, which its start callback has no extack for), and
nothing may hang.
unpriv: every change (DEV_SET, newlink, changelink) and every probe
(ROUTE_TRACE, ROUTE_PROBE) must be refused with EPERM, and reading still
works.

One line per case ("ok ..." or "FAIL ..."), then "N cases, F failed";
exit 1 when any failed.
"""
import errno
import os
import re
import socket
import struct
import sys

import dp_genl
from dp_genl import nla

NLM_F_REQUEST, NLM_F_ACK = 1, 4
NLM_F_CREATE, NLM_F_EXCL, NLM_F_DUMP = 0x400, 0x200, 0x300
NLMSG_ERROR, NLMSG_DONE = 2, 3
RTM_NEWLINK, RTM_DELLINK = 16, 17
IFLA_IFNAME, IFLA_LINKINFO = 3, 18
IFLA_INFO_KIND, IFLA_INFO_DATA = 1, 2
NLA_F_NESTED = 0x8000

U32_EDGES = (0, 1, 0x7fffffff, 0xffffffff)
UAPI = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                    "include", "uapi", "linux", "dpillar.h")


def uapi_consts(path=UAPI):
    """Name -> value of every enumerator of the UAPI header."""
    text = re.sub(r"/\*.*?\*/", " ", open(path).read(), flags=re.S)
    out = {}
    for body in re.findall(r"\benum\b[^{;]*\{(.*?)\}", text, flags=re.S):
        nxt = 0
        for item in body.split(","):
            name, _, val = (x.strip() for x in item.partition("="))
            if not name:
                continue
            if val.endswith("- 1"):     # X_MAX = __X_MAX - 1
                nxt = out[val[:-3].strip()] - 1
            elif val:
                nxt = int(val, 0)
            out[name] = nxt
            nxt += 1
    return out


C = uapi_consts()


def ifindex(name):
    return socket.if_nametoindex(name)


class Rtnl:
    def __init__(self):
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                               socket.NETLINK_ROUTE)
        self.s.setsockopt(270, dp_genl.NETLINK_EXT_ACK, 1)
        self.s.bind((0, 0))
        self.s.settimeout(10)
        self.seq = 0

    def request(self, mtype, flags, body):
        self.seq += 1
        self.s.send(struct.pack("=IHHII", 16 + len(body), mtype,
                                flags | NLM_F_REQUEST | NLM_F_ACK,
                                self.seq, 0) + body)
        while True:
            data = self.s.recv(1 << 16)
            _, t, mflags, seq, _ = struct.unpack_from("=IHHII", data)
            if t == NLMSG_ERROR and seq == self.seq:
                err = struct.unpack_from("=i", data, 16)[0]
                return err, dp_genl.Genl.extack(data, mflags)

    def link(self, name, data, create, kind=True):
        info = nla(IFLA_INFO_KIND, b"dpillar\0") if kind else b""
        if data is not None:
            info += nla(IFLA_INFO_DATA | NLA_F_NESTED, data)
        body = struct.pack("=BxHiII", 0, 0, 0, 0, 0) + \
            nla(IFLA_IFNAME, name.encode() + b"\0") + \
            nla(IFLA_LINKINFO | NLA_F_NESTED, info)
        return self.request(RTM_NEWLINK,
                            NLM_F_CREATE | NLM_F_EXCL if create else 0, body)

    def dellink(self, name):
        body = struct.pack("=BxHiII", 0, 0, 0, 0, 0) + \
            nla(IFLA_IFNAME, name.encode() + b"\0")
        return self.request(RTM_DELLINK, 0, body)


def u32(v):
    return struct.pack("=I", v)


def variants(base, nattrs):
    """(label, attrs) of every hostile form of @base (a list of (type,
    payload)): each attribute 1..nattrs+1 missing, duplicated, oversized,
    empty and at the u32 edges."""
    have = dict(base)
    for a in range(1, nattrs + 2):
        if a in have:
            yield "missing %d" % a, [x for x in base if x[0] != a]
            yield "duplicated %d" % a, base + [(a, have[a])]
        rest = [x for x in base if x[0] != a]
        yield "oversized %d" % a, rest + [(a, b"\x41" * 300)]
        yield "empty %d" % a, rest + [(a, b"")]
        for v in U32_EDGES:
            yield "%d=%#x" % (a, v), rest + [(a, u32(v))]
        yield "%d=u8" % a, rest + [(a, b"\x07")]


def enc(attrs):
    return b"".join(nla(a, p) for a, p in attrs)


class Run:
    def __init__(self, mode):
        self.mode = mode
        self.n = self.failed = 0
        # 6.1 hands a dump's start callback no extack to fill (later
        # kernels do): its own rejections (no such device, not dpillar)
        # come without a message there.
        rel = os.uname().release
        self.dump_no_extack = rel.startswith("6.1.") or rel == "6.1"

    def case(self, what, err, text, change, dump=False):
        self.n += 1
        why = None
        if err == -errno.ETIMEDOUT:
            why = "no answer"
        elif self.mode == "unpriv" and change:
            if err != -errno.EPERM:
                why = "a change not refused with EPERM"
        elif err and err != -errno.EPERM and not text and \
                not (dump and self.dump_no_extack and
                     err in (-errno.ENODEV, -errno.EOPNOTSUPP)):
            why = "rejected without an extack message"
        name = errno.errorcode.get(-err, str(err)) if err else "0"
        if why:
            self.failed += 1
            print("FAIL %s: %s %s (%s)" % (what, name, text, why))
        elif os.environ.get("V"):
            print("ok   %s: %s %s" % (what, name, text))
        sys.stdout.flush()


def genl_cases(run, g, fam, dev):
    a_dev = [(C["DPILLAR_A_DEV_IFINDEX"], u32(dev))]
    a_route = [(C["DPILLAR_A_ROUTE_IFINDEX"], u32(dev)),
               (C["DPILLAR_A_ROUTE_DST"], u32(1))]
    probe = a_route + [(C["DPILLAR_A_ROUTE_TIMEOUT_MS"], u32(50))]
    dev_max, route_max = C["DPILLAR_A_DEV_MAX"], C["DPILLAR_A_ROUTE_MAX"]
    cmds = [
        ("dev-get", C["DPILLAR_CMD_DEV_GET"], 0, dev_max, a_dev, False),
        ("dev-set", C["DPILLAR_CMD_DEV_SET"], 0, dev_max,
         a_dev + [(C["DPILLAR_A_DEV_HELLO_MS"], u32(200)),
                  (C["DPILLAR_A_DEV_DEAD_MS"], u32(800))], True),
        ("neigh-get", C["DPILLAR_CMD_NEIGH_GET"], NLM_F_DUMP,
         C["DPILLAR_A_NEIGH_MAX"],
         [(C["DPILLAR_A_NEIGH_IFINDEX"], u32(dev)),
          (C["DPILLAR_A_NEIGH_PORT"], u32(0))], False),
        ("route-get", C["DPILLAR_CMD_ROUTE_GET"], 0, route_max, a_route,
         False),
        # Probes: admin only; 50 ms per probe, and DEV has no neighbour.
        ("route-trace", C["DPILLAR_CMD_ROUTE_TRACE"], 0, route_max, probe,
         True),
        ("route-probe", C["DPILLAR_CMD_ROUTE_PROBE"], 0, route_max, probe,
         True),
        ("shortcut-get", C["DPILLAR_CMD_SHORTCUT_GET"], NLM_F_DUMP,
         C["DPILLAR_A_SHORTCUT_MAX"],
         [(C["DPILLAR_A_SHORTCUT_IFINDEX"], u32(dev))], False),
    ]
    for name, cmd, flags, nattrs, base, change in cmds:
        for label, attrs in variants(base, nattrs):
            try:
                _, err, text = g.request(fam, cmd, flags, enc(attrs))
            except socket.timeout:
                err, text = -errno.ETIMEDOUT, ""
            run.case("%s %s" % (name, label), err, text, change,
                     dump=bool(flags))


def rtnl_cases(run, r, dev_name, pa, pb):
    ports = nla(C["IFLA_DPILLAR_PORTS"] | NLA_F_NESTED,
                nla(C["IFLA_DPILLAR_PORT"], u32(pa)) +
                nla(C["IFLA_DPILLAR_PORT"], u32(pb)))
    base = [(C["IFLA_DPILLAR_N"], u32(4)), (C["IFLA_DPILLAR_K"], u32(2)),
            (C["IFLA_DPILLAR_COLUMN"], u32(0)),
            (C["IFLA_DPILLAR_LABEL"], b"\x00\x01")]
    no_ports = "oversized %d" % C["IFLA_DPILLAR_PORTS"]
    for label, attrs in variants(base, C["IFLA_DPILLAR_MAX"]):
        data = enc(attrs) + (ports if label != no_ports else b"")
        try:
            err, text = r.link("dpz0", data, True)
        except socket.timeout:
            err, text = -errno.ETIMEDOUT, ""
        if err == 0:
            r.dellink("dpz0")
        run.case("newlink %s" % label, err, text, True)
    # The port list itself: empty, one, three, junk inside.
    for label, p in (("ports empty", b""), ("ports one", nla(1, u32(pa))),
                     ("ports three", nla(1, u32(pa)) + nla(1, u32(pb)) +
                      nla(1, u32(pa))),
                     ("ports junk", nla(2, u32(pa)) + nla(1, u32(pb))),
                     ("ports 0xffffffff", nla(1, u32(0xffffffff)) +
                      nla(1, u32(pb)))):
        err, text = r.link("dpz0", enc(base) +
                           nla(C["IFLA_DPILLAR_PORTS"] | NLA_F_NESTED, p),
                           True)
        if err == 0:
            r.dellink("dpz0")
        run.case("newlink %s" % label, err, text, True)
    # changelink: only settings may change, each within its range.
    hello, dead = C["IFLA_DPILLAR_HELLO_MS"], C["IFLA_DPILLAR_DEAD_MS"]
    for label, attrs in variants([(hello, u32(200)), (dead, u32(800))],
                                 C["IFLA_DPILLAR_MAX"]):
        try:
            err, text = r.link(dev_name, enc(attrs), False)
        except socket.timeout:
            err, text = -errno.ETIMEDOUT, ""
        run.case("changelink %s" % label, err, text, True)
    r.link(dev_name, enc([(hello, u32(100)), (dead, u32(2000))]), False)
    # Names register_netdevice() refuses before ndo_init: each request
    # leaked 40 bytes before the fix (kmemleak tells, after the test).
    for name in ("dp:0", "a%d%d", "dp/0") * 10:
        err, text = r.link(name, enc(base) + ports, True)
        if err == 0:
            r.dellink(name)
        run.n += 1
        want = -errno.EPERM if run.mode == "unpriv" else -errno.EINVAL
        if err != want:
            run.failed += 1
            print("FAIL newlink name %s: %d %s" % (name, err, text))


# Lengths of coords around their bounds: 4..32 bytes, whole u32s.
COORD_LENS = (0, 1, 3, 4, 5, 6, 8, 12, 31, 32, 33, 36, 64, 300)


def coords(nbytes):
    return bytes((0x9e + i * 37) & 0xff for i in range(nbytes))


def expect(run, what, err, text, want):
    """A case with a known answer (root only: unpriv wants EPERM)."""
    if run.mode != "root":
        return run.case(what, err, text, True)
    run.n += 1
    if err != want:
        run.failed += 1
        print("FAIL %s: %d %s (want %d)" % (what, err, text, want))
    elif err and not text:
        run.failed += 1
        print("FAIL %s: %d without an extack message" % (what, err))
    elif os.environ.get("V"):
        print("ok   %s: %d %s" % (what, err, text))


def s2_attrs(prefix, spaces=1):
    """S2, nodes 16, n 2 (two ports), @spaces, node 3: the dev or IFLA
    attributes (@prefix) that make it."""
    return [(C[prefix + "TOPO"], u32(C["DPILLAR_TOPO_S2"])),
            (C[prefix + "NODES"], u32(16)), (C[prefix + "N"], u32(2)),
            (C[prefix + "SPACES"], u32(spaces)),
            (C[prefix + "ADDR"], b"3\0")]


def reported(run, g, fam, dev, want, what):
    """DEV_GET of @dev reports coords @want exactly (None: absent)."""
    if run.mode != "root":
        return
    msgs, err, _ = g.request(fam, C["DPILLAR_CMD_DEV_GET"], 0,
                             enc([(C["DPILLAR_A_DEV_IFINDEX"], u32(dev))]))
    got = [p for m in msgs for t, p in dp_genl.attrs(m)
           if t == C["DPILLAR_A_DEV_COORDS"]]
    run.n += 1
    if err or got != ([want] if want else []):
        run.failed += 1
        print("FAIL dev-get %s: coords %r, want %r (err %d)" %
              (what, got, want, err))


def coords_cases(run, g, fam, r, pa, pb):
    """S2 plan mode's coords: rtnetlink newlink, then DEV_SET."""
    ports = nla(C["IFLA_DPILLAR_PORTS"] | NLA_F_NESTED,
                nla(C["IFLA_DPILLAR_PORT"], u32(pa)) +
                nla(C["IFLA_DPILLAR_PORT"], u32(pb)))
    ifla = C["IFLA_DPILLAR_COORDS"]
    for n in COORD_LENS:
        err, text = r.link("dpz0", enc(s2_attrs("IFLA_DPILLAR_") +
                                       [(ifla, coords(n))]) + ports, True)
        if err == 0:
            r.dellink("dpz0")
        expect(run, "newlink s2 coords %d bytes" % n, err, text,
               0 if n == 4 else -errno.ERANGE if n < 4 or n > 32
               else -errno.EINVAL)
    # Another topology: refused whatever the length.
    dp_base = [(C["IFLA_DPILLAR_N"], u32(4)), (C["IFLA_DPILLAR_K"], u32(2)),
               (C["IFLA_DPILLAR_ADDR"], b"0:0.1\0"), (ifla, coords(8))]
    err, text = r.link("dpz0", enc(dp_base) + ports, True)
    if err == 0:
        r.dellink("dpz0")
    expect(run, "newlink dpillar with coords", err, text, -errno.EINVAL)
    # DEV_SET on an S2 device in derived mode (down): plan mode and back.
    err, text = r.link("dpz1", enc(s2_attrs("IFLA_DPILLAR_")) + ports, True)
    expect(run, "newlink s2 derived", err, text, 0)
    if err:
        return
    dev = ifindex("dpz1")
    a = C["DPILLAR_A_DEV_COORDS"]
    reported(run, g, fam, dev, None, "derived")
    for spaces in (1, 2):
        for n in COORD_LENS:
            attrs = [(C["DPILLAR_A_DEV_IFINDEX"], u32(dev))] + \
                s2_attrs("DPILLAR_A_DEV_", spaces) + [(a, coords(n))]
            _, err, text = g.request(fam, C["DPILLAR_CMD_DEV_SET"], 0,
                                     enc(attrs))
            # n 2 is too few ports for 2 spaces: the topology refuses.
            ok = spaces == 1 and n == 4
            expect(run, "dev-set s2 spaces %d coords %d bytes" % (spaces, n),
                   err, text, 0 if ok else -errno.ERANGE
                   if n < 4 or n > 32 else -errno.EINVAL)
            if ok:
                reported(run, g, fam, dev, coords(n), "plan")
    # Coords alone (no topology) and on the running device: refused.
    for label, attrs in (("coords alone", [(a, coords(4))]),
                         ("coords of another topology",
                          [(C["DPILLAR_A_DEV_TOPO"],
                            u32(C["DPILLAR_TOPO_DPILLAR"])),
                           (C["DPILLAR_A_DEV_N"], u32(4)),
                           (C["DPILLAR_A_DEV_K"], u32(2)),
                           (C["DPILLAR_A_DEV_ADDR"], b"0:0.1\0"),
                           (a, coords(4))])):
        _, err, text = g.request(fam, C["DPILLAR_CMD_DEV_SET"], 0,
                                 enc([(C["DPILLAR_A_DEV_IFINDEX"],
                                       u32(dev))] + attrs))
        expect(run, "dev-set %s" % label, err, text, -errno.EINVAL)
    r.dellink("dpz1")


def fallback_cases(run, g, fam, r, dev_name, dev):
    """The discovery fallback, a u8 0/1: DEV_SET and changelink take 0
    and 1 (DEV_GET reports them), refuse the rest; DEV is left on."""
    a, ifla = C["DPILLAR_A_DEV_FALLBACK"], C["IFLA_DPILLAR_FALLBACK"]
    a_dev = [(C["DPILLAR_A_DEV_IFINDEX"], u32(dev))]
    get = enc(a_dev)
    for v, want in ((0, 0), (1, 0), (2, -errno.ERANGE),
                    (0xff, -errno.ERANGE)):
        _, err, text = g.request(fam, C["DPILLAR_CMD_DEV_SET"], 0,
                                 enc(a_dev + [(a, bytes([v]))]))
        expect(run, "dev-set fallback %d" % v, err, text, want)
        if not err and run.mode == "root":
            msgs, err, _ = g.request(fam, C["DPILLAR_CMD_DEV_GET"], 0, get)
            got = [p for m in msgs for t, p in dp_genl.attrs(m) if t == a]
            run.n += 1
            if err or got != [bytes([v])]:
                run.failed += 1
                print("FAIL dev-get fallback: %r, want %r (err %d)" %
                      (got, [bytes([v])], err))
        err, text = r.link(dev_name, enc([(ifla, bytes([v]))]), False)
        expect(run, "changelink fallback %d" % v, err, text, want)
    # Genetlink is strict: a u32 where the u8 belongs is refused.
    _, err, text = g.request(fam, C["DPILLAR_CMD_DEV_SET"], 0,
                             enc(a_dev + [(a, u32(0))]))
    expect(run, "dev-set fallback as a u32", err, text, -errno.EINVAL)


def main():
    mode, dev_name, a, b = sys.argv[1:5]
    run = Run(mode)
    g = dp_genl.Genl()
    genl_cases(run, g, g.family("dpillar"), ifindex(dev_name))
    r = Rtnl()
    rtnl_cases(run, r, dev_name, ifindex(a), ifindex(b))
    coords_cases(run, g, g.family("dpillar"), r, ifindex(a), ifindex(b))
    fallback_cases(run, g, g.family("dpillar"), r, dev_name,
                   ifindex(dev_name))
    print("%d cases, %d failed" % (run.n, run.failed))
    return 1 if run.failed else 0


if __name__ == "__main__":
    sys.exit(main())
