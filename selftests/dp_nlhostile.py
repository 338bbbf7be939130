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
    cmds = [
        ("dev-get", 1, 0, 15, [(1, u32(dev))], False),
        ("dev-set", 2, 0, 15, [(1, u32(dev)), (9, u32(200)),
                               (10, u32(800))], True),
        ("neigh-get", 3, NLM_F_DUMP, 9, [(1, u32(dev)), (2, u32(0))], False),
        ("route-get", 4, 0, 14, [(1, u32(dev)), (3, u32(1))], False),
        # Probes: admin only; 50 ms per probe, and DEV has no neighbour.
        ("route-trace", 7, 0, 17, [(1, u32(dev)), (3, u32(1)),
                                   (17, u32(50))], True),
        ("route-probe", 8, 0, 17, [(1, u32(dev)), (3, u32(1)),
                                   (17, u32(50))], True),
        ("shortcut-get", 9, NLM_F_DUMP, 9, [(1, u32(dev))], False),
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
    ports = nla(6 | NLA_F_NESTED, nla(1, u32(pa)) + nla(1, u32(pb)))
    base = [(2, u32(4)), (3, u32(2)), (4, u32(0)), (5, b"\x00\x01")]
    for label, attrs in variants(base, 15):
        data = enc(attrs) + (ports if label != "oversized 6" else b"")
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
        err, text = r.link("dpz0", enc(base) + nla(6 | NLA_F_NESTED, p), True)
        if err == 0:
            r.dellink("dpz0")
        run.case("newlink %s" % label, err, text, True)
    # changelink: only settings may change, each within its range.
    for label, attrs in variants([(9, u32(200)), (10, u32(800))], 15):
        try:
            err, text = r.link(dev_name, enc(attrs), False)
        except socket.timeout:
            err, text = -errno.ETIMEDOUT, ""
        run.case("changelink %s" % label, err, text, True)
    r.link(dev_name, enc([(9, u32(100)), (10, u32(2000))]), False)
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


def main():
    mode, dev_name, a, b = sys.argv[1:5]
    run = Run(mode)
    g = dp_genl.Genl()
    genl_cases(run, g, g.family("dpillar"), ifindex(dev_name))
    rtnl_cases(run, Rtnl(), dev_name, ifindex(a), ifindex(b))
    print("%d cases, %d failed" % (run.n, run.failed))
    return 1 if run.failed else 0


if __name__ == "__main__":
    sys.exit(main())
