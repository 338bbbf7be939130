#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Random dpillar frames from a fabric neighbour's raw socket.

  dp_framefuzz.py [options] TARGET...

TARGET is IFNAME[@IFNS]=NETNS:PORT:NODE: send on IFNAME (in network
namespace IFNS, default this one: the switch's end of a server's cable,
or the neighbour's port) to the server in NETNS (/run/netns/NETNS) whose
port device PORT (p0, p1) is at the other end and whose node id is NODE.
Each frame goes to a target chosen at random.

Frames are built from the wire format (include/uapi/linux/
dpillar_packet.h), so that most of them pass the first checks of
dp_handle_frame() and reach the parsers behind them:

  random         any bytes after our ethertype, 0..MTU of them
  header         a header of random fields (valid node ids likely), then
                 random bytes
  data, transit  DATA for the target and through it: an IPv4 or IPv6
                 packet (ICMP echo, UDP) or random bytes, random routing
                 state (flags, rword, waypoint, TTL)
  coords         DATA and probes with the "coordinates follow" flag
                 (S2's 0x20, any flag bit) and a coordinates block of
                 random count and length
  probe, reply   PROBE and PROBE_REPLY with struct dpillar_probe
  hello          Hellos to the group address with TLVs: PORTS_UP, COORDS,
                 NEIGHS, NEIGH_COORDS, unknown types, duplicates, bad
                 lengths, a tlv_len that lies
  sc_probe, sc_reply  shortcut discovery frames, struct
                 dpillar_shortcut and a coordinates block
  sc_data        (--sc-data 1) data and transit frames as SHORTCUT_DATA,
                 flags mostly 0, a random hop budget
  mutant:KIND    a valid frame of KIND with one field set to an edge or
                 random value, or cut short, or grown, or one bit flipped

Destination MACs: mostly the target's (a Hello: the Hello group), else
broadcast, another group or another unicast address.  Frames run from 14
bytes (the Ethernet header alone) to the port's MTU.

Options:
  --secs S      send for S seconds (default 10)
  --frames N    stop after N frames (default: no limit)
  --rate R      at most R frames a second (default 400)
  --seed X      the random generator's seed (default 1): the same seed
                gives the same frames in the same order
  --nodes N     node ids of the fabric are 0..N-1 (default 8)
  --mtu M       the ports' MTU (default 1500)
  --sc-data 0|1 1: the targets take SHORTCUT_DATA (type 7: the discovery
                fallback, every topology but S2 in its default mode);
                sent as a kind of its own, not predicted drop_type
  --skip N      make the first N frames without sending them: with the
                same seed (and targets), --skip N --frames 1 sends frame N
                alone
  --progress FILE  rewritten every 64 frames, before they are sent, with
                the options that replay them ("--seed S --skip N --frames
                64"): after a crash, the frame that did it is among those
  --log FILE    every frame, one line each: "INDEX KIND TARGET HEX"

Prints the seed, then per kind the frames sent, then the drops the first
checks must have counted (lines "expect COUNTER N": the least each
counter grows by, fabric-wide), then "sent N frames in S s".
"""
import ctypes
import fcntl
import os
import random
import socket
import struct
import sys
import time

ETH_P_DPILLAR = 0x88B5
HELLO_GROUP = bytes.fromhex("034450000001")
BROADCAST = b"\xff" * 6
NODE_NONE = 0xFFFFFFFF
T_DATA, T_HELLO, T_PROBE, T_REPLY, T_SC_PROBE, T_SC_REPLY = 1, 2, 3, 4, 5, 6
T_SC_DATA = 7
HDR = struct.Struct("!BBBBHHIII")
HDR_FIELDS = [("version", 0, 1), ("type", 1, 1), ("ttl", 2, 1),
              ("flags", 3, 1), ("proto", 4, 2), ("rword", 6, 2),
              ("src", 8, 4), ("dst", 12, 4), ("waypoint", 16, 4)]
HELLO = struct.Struct("!BBHI")
HELLO_FIELDS = [("hello.port", 0, 1), ("hello.reserved", 1, 1),
                ("hello.tlv_len", 2, 2), ("hello.interval", 4, 4)]
PROBE = struct.Struct("!BBHHBBIB3sQ")
PROBE_FIELDS = [("probe.status", 0, 1), ("probe.reason", 1, 1),
                ("probe.id", 2, 2), ("probe.seq", 4, 2),
                ("probe.ttl", 6, 1), ("probe.hops", 7, 1),
                ("probe.reporter", 8, 4), ("probe.detours", 12, 1),
                ("probe.reserved", 13, 3), ("probe.stamp", 16, 8)]
SC = struct.Struct("!IB3s")
SC_FIELDS = [("sc.sender", 0, 4), ("sc.hops", 4, 1), ("sc.reserved", 5, 3)]
COORDS_FIELDS = [("coords.count", 0, 1), ("coords.reserved", 1, 3),
                 ("coords.x0", 4, 4)]
TLV_PORTS_UP, TLV_COORDS, TLV_NEIGHS, TLV_NEIGH_COORDS = 1, 2, 3, 4
TLV_MAX, COORDS_MAX, NEIGHS_MAX = 1024, 8, 16
ETH_P_IP, ETH_P_IPV6 = 0x0800, 0x86DD
SIOCGIFHWADDR = 0x8927
CLONE_NEWNET = 0x40000000
libc = ctypes.CDLL(None, use_errno=True)


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s >> 16) + (s & 0xFFFF)
    return ~s & 0xFFFF


def ip4(node):
    return struct.pack("!BBBB", 10, node >> 16 & 255, node >> 8 & 255,
                       node & 255)


def ip6(node):
    return bytes.fromhex("fd6470696c6c6172") + bytes(4) + \
        struct.pack("!I", node)


class Fuzz:
    def __init__(self, rng, nodes, mtu, targets, sc_data=False):
        self.r = rng
        self.nodes = nodes
        self.mtu = mtu
        self.targets = targets
        self.sc_data = sc_data
        self.kinds = {}
        self.expect = {}

    # ---- values --------------------------------------------------------
    def node(self, t):
        """A node id: mostly valid, sometimes the target, none or junk."""
        r = self.r.random()
        if r < 0.6:
            return self.r.randrange(self.nodes)
        if r < 0.75:
            return t["node"]
        if r < 0.85:
            return NODE_NONE
        return self.r.choice([self.nodes, self.nodes - 1 + (1 << 16),
                              0x7FFFFFFF, self.r.getrandbits(32)])

    def other(self, t):
        """A valid node id other than the target's (a fabric of 1: its)."""
        if self.nodes < 2:
            return t["node"]
        n = self.r.randrange(self.nodes - 1)
        return n + 1 if n >= t["node"] else n

    def edge(self, size, cur):
        r = self.r
        top = (1 << (8 * size)) - 1
        vals = [0, 1, top, top >> 1, (top >> 1) + 1, r.getrandbits(8 * size),
                cur ^ (1 << r.randrange(8 * size)), (cur + 1) & top,
                (cur - 1) & top]
        if size == 4:
            vals += [self.nodes, self.nodes - 1, NODE_NONE]
        if size == 2:
            vals += [TLV_MAX, TLV_MAX + 1, (cur + 4) & top, (cur - 4) & top]
        if size == 1:
            vals += [COORDS_MAX, COORDS_MAX + 1, T_DATA, T_SC_REPLY + 1]
        return r.choice(vals)

    def blob(self, n):
        return self.r.getrandbits(8 * n).to_bytes(n, "big") if n else b""

    def hdr(self, typ, t, ttl=None, flags=0, proto=0, rword=0, src=None,
            dst=None, wp=NODE_NONE):
        return HDR.pack(1, typ, self.r.randrange(2, 65) if ttl is None
                        else ttl, flags, proto, rword,
                        self.other(t) if src is None else src,
                        t["node"] if dst is None else dst, wp)

    def routing(self, t):
        """Random routing state: flags, rword, waypoint, ttl."""
        r = self.r
        wp = NODE_NONE if r.random() < 0.6 else self.node(t)
        return dict(ttl=r.choice([0, 1, 2, r.randrange(256)]),
                    flags=r.getrandbits(8) if r.random() < 0.7 else 0,
                    rword=r.getrandbits(16) if r.random() < 0.7 else 0,
                    wp=wp)

    def coords(self, count=None):
        r = self.r
        if count is None:
            count = r.choice([0, 1, 2, 3, COORDS_MAX, COORDS_MAX + 1, 255,
                              r.randrange(256)])
        n = count if r.random() < 0.8 else r.randrange(0, 12)
        return struct.pack("!B3s", count, b"\0\0\0") + b"".join(
            struct.pack("!I", r.getrandbits(32)) for _ in range(n))

    def inner(self, src, dst, proto):
        """An IPv4 ICMP echo or IPv6 UDP packet src -> dst, or junk."""
        r = self.r
        if r.random() < 0.15:
            return self.blob(r.randrange(0, 64))
        data = self.blob(r.randrange(0, 64))
        if proto == ETH_P_IP:
            icmp = struct.pack("!BBHHH", 8, 0, 0, 0x4650,
                               r.getrandbits(16)) + data
            icmp = icmp[:2] + struct.pack("!H", csum(icmp)) + icmp[4:]
            ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(icmp),
                             r.getrandbits(16), 0, 64, 1, 0, ip4(src),
                             ip4(dst))
            return ip[:10] + struct.pack("!H", csum(ip)) + ip[12:] + icmp
        s, d = ip6(src), ip6(dst)
        udp = struct.pack("!HHHH", 40000 + r.randrange(1000), 9,
                          8 + len(data), 0) + data
        c = csum(s + d + struct.pack("!IxxxB", len(udp), 17) + udp) or 0xFFFF
        udp = udp[:6] + struct.pack("!H", c) + udp[8:]
        return struct.pack("!IHBB16s16s", 0x60000000, len(udp), 17, 64, s,
                           d) + udp

    # ---- valid frames, each with its field map ---------------------------
    # A builder returns (dst MAC kind, payload, fields): fields are
    # (name, offset, size) of the payload, for the mutants.
    def v_data(self, t, transit=False):
        proto = self.r.choice([ETH_P_IP, ETH_P_IPV6])
        src = self.other(t)
        dst = self.other(t) if transit else t["node"]
        return "uni", self.hdr(T_DATA, t, proto=proto, src=src, dst=dst) + \
            self.inner(src, dst, proto), HDR_FIELDS

    def v_probe(self, t, typ=T_PROBE):
        r = self.r
        dst = t["node"] if r.random() < 0.5 else self.other(t)
        body = PROBE.pack(0 if typ == T_PROBE else r.randrange(6),
                          0, r.getrandbits(16), r.getrandbits(16),
                          r.randrange(1, 33), r.randrange(8),
                          self.other(t) if typ == T_REPLY else 0, 0,
                          b"\0\0\0", r.getrandbits(64))
        return "uni", self.hdr(typ, t, dst=dst) + body, HDR_FIELDS + [
            (n, o + HDR.size, s) for n, o, s in PROBE_FIELDS]

    def tlvs(self, t):
        """Valid TLVs: PORTS_UP, and sometimes the S2 ones."""
        r = self.r
        out = struct.pack("!HHI", TLV_PORTS_UP, 4, 3)
        if r.random() < 0.5:
            nc = r.randrange(1, COORDS_MAX + 1)
            out += struct.pack("!HH", TLV_COORDS, 4 * nc) + self.blob(4 * nc)
            nn = r.randrange(0, 5)
            out += struct.pack("!HH", TLV_NEIGHS, 4 * nn) + b"".join(
                struct.pack("!I", self.node(t)) for _ in range(nn))
            if r.random() < 0.5:
                out += struct.pack("!HH", TLV_NEIGH_COORDS, 4 * nn * nc) + \
                    self.blob(4 * nn * nc)
        return out

    def v_hello(self, t):
        tl = self.tlvs(t)
        hello = HELLO.pack(self.r.randrange(2), 0, len(tl), 100)
        return "group", self.hdr(T_HELLO, t, ttl=1, src=self.other(t),
                                 dst=NODE_NONE) + hello + tl, \
            HDR_FIELDS + [(n, o + HDR.size, s) for n, o, s in HELLO_FIELDS]

    def v_sc(self, t, typ):
        r = self.r
        body = SC.pack(self.other(t), r.randrange(1, 8), b"\0\0\0")
        base = HDR.size + SC.size
        return "uni", self.hdr(typ, t, ttl=r.randrange(1, 64),
                               src=self.other(t), dst=self.other(t),
                               rword=r.getrandbits(16)) + body + \
            self.coords(r.randrange(1, 4)), HDR_FIELDS + [
                (n, o + HDR.size, s) for n, o, s in SC_FIELDS] + [
                (n, o + base, s) for n, o, s in COORDS_FIELDS]

    def v_coords(self, t):
        """DATA with S2's coordinates flag and block."""
        r = self.r
        src, dst = self.other(t), r.choice([t["node"], self.other(t)])
        body = self.coords(r.randrange(1, 4))
        return "uni", self.hdr(T_DATA, t, flags=0x20, proto=ETH_P_IP,
                               src=src, dst=dst) + body + \
            self.inner(src, dst, ETH_P_IP), HDR_FIELDS + [
                (n, o + HDR.size, s) for n, o, s in COORDS_FIELDS]

    def valid(self, t):
        r = self.r
        kind = r.choice(["data", "transit", "probe", "reply", "hello",
                         "sc_probe", "sc_reply", "coords"])
        if kind == "data":
            return (kind,) + self.v_data(t)
        if kind == "transit":
            return (kind,) + self.v_data(t, True)
        if kind == "probe":
            return (kind,) + self.v_probe(t)
        if kind == "reply":
            return (kind,) + self.v_probe(t, T_REPLY)
        if kind == "hello":
            return (kind,) + self.v_hello(t)
        if kind == "coords":
            return (kind,) + self.v_coords(t)
        return (kind,) + self.v_sc(t, T_SC_PROBE if kind == "sc_probe"
                                   else T_SC_REPLY)

    # ---- fuzzed frames --------------------------------------------------
    def f_random(self, t):
        return "random", "uni", self.blob(self.r.randrange(0, self.mtu + 1))

    def f_header(self, t):
        r = self.r
        typ = r.choice([0, T_DATA, T_HELLO, T_PROBE, T_REPLY, T_SC_PROBE,
                        T_SC_REPLY, 7, r.getrandbits(8)])
        st = self.routing(t)
        h = HDR.pack(1 if r.random() < 0.9 else r.getrandbits(8), typ,
                     st["ttl"], st["flags"],
                     r.choice([0, ETH_P_IP, ETH_P_IPV6, r.getrandbits(16)]),
                     st["rword"], self.node(t), self.node(t), st["wp"])
        body = self.blob(r.choice([0, 1, 4, 8, 20, 24, 40,
                                   r.randrange(0, self.mtu - HDR.size + 1)]))
        return "header", "group" if typ == T_HELLO else "uni", h + body

    def f_data(self, t, transit):
        r = self.r
        st = self.routing(t)
        proto = r.choice([ETH_P_IP, ETH_P_IPV6, ETH_P_IP, r.getrandbits(16)])
        src = self.node(t)
        dst = self.node(t) if transit else t["node"]
        body = self.inner(src & 0xFFFFFF, dst & 0xFFFFFF, proto)
        if r.random() < 0.1:  # up to the MTU
            body += self.blob(r.randrange(0, self.mtu - HDR.size -
                                          len(body) + 1))
        typ, kind = T_DATA, "transit" if transit else "data"
        if self.sc_data and r.random() < 0.3:
            typ, kind = T_SC_DATA, "sc_data"
            if r.random() < 0.8:
                st["flags"], st["wp"] = 0, NODE_NONE
        return kind, "uni", \
            self.hdr(typ, t, st["ttl"], st["flags"], proto, st["rword"],
                     src, dst, st["wp"]) + body

    def f_coords(self, t):
        r = self.r
        st = self.routing(t)
        typ = r.choice([T_DATA, T_DATA, T_PROBE, T_REPLY])
        flags = st["flags"] | (0x20 if r.random() < 0.8 else 0)
        body = self.coords()
        if typ == T_DATA:
            body += self.inner(self.other(t), t["node"], ETH_P_IP)
        else:
            body += self.blob(r.choice([0, PROBE.size, r.randrange(40)]))
        return "coords", "uni", self.hdr(typ, t, st["ttl"], flags,
                                         ETH_P_IP if typ == T_DATA else 0,
                                         st["rword"], self.node(t),
                                         self.node(t), st["wp"]) + body

    def f_probe(self, t, typ):
        r = self.r
        st = self.routing(t)
        body = PROBE.pack(r.getrandbits(8), r.getrandbits(8),
                          r.getrandbits(16), r.getrandbits(16),
                          r.getrandbits(8), r.getrandbits(8), self.node(t),
                          r.getrandbits(8), self.blob(3), r.getrandbits(64))
        cut = r.random()
        if cut < 0.2:
            body = body[:r.randrange(len(body))]
        elif cut < 0.3:
            body += self.blob(r.randrange(64))
        return "probe" if typ == T_PROBE else "reply", "uni", \
            self.hdr(typ, t, st["ttl"], st["flags"], r.choice([0, 0, 0x800]),
                     st["rword"], self.node(t), self.node(t),
                     st["wp"]) + body

    def tlv_junk(self, t):
        """One TLV, well formed or not."""
        r = self.r
        typ = r.choice([TLV_PORTS_UP, TLV_COORDS, TLV_NEIGHS,
                        TLV_NEIGH_COORDS, 0, 5, r.getrandbits(16)])
        n = r.choice([0, 1, 2, 3, 4, 8, 4 * COORDS_MAX, 4 * COORDS_MAX + 4,
                      4 * NEIGHS_MAX, 4 * NEIGHS_MAX + 4, 4 * r.randrange(64),
                      r.randrange(300)])
        if typ == TLV_NEIGHS and n % 4 == 0 and r.random() < 0.5:
            val = b"".join(struct.pack("!I", self.node(t))
                           for _ in range(n // 4))
        else:
            val = self.blob(n)
        return struct.pack("!HH", typ, n) + val + b"\0" * (-n % 4)

    def f_hello(self, t):
        r = self.r
        tl = b"".join(self.tlv_junk(t) for _ in range(r.choice(
            [0, 1, 2, 3, 4, r.randrange(12)])))
        if r.random() < 0.3:
            tl = self.tlvs(t) + tl
        tlv_len = r.choice([len(tl), len(tl), len(tl) - r.randrange(1, 8),
                            len(tl) + r.randrange(1, 8), TLV_MAX,
                            TLV_MAX + 1, r.getrandbits(16)]) & 0xFFFF
        body = HELLO.pack(r.choice([0, 1, r.getrandbits(8)]),
                          r.getrandbits(8) if r.random() < 0.1 else 0,
                          tlv_len, r.choice([0, 1, 100, 0xFFFFFFFF,
                                             r.getrandbits(32)])) + tl
        body = body[:self.mtu - HDR.size]
        if r.random() < 0.1:
            body = body[:r.randrange(len(body) + 1)]
        how = "group" if r.random() < 0.9 else r.choice(["uni", "other",
                                                        "bcast"])
        return "hello", how, self.hdr(T_HELLO, t, r.choice([1, 0, 255]),
                                      r.getrandbits(8) if r.random() < 0.2
                                      else 0, 0, 0, self.node(t),
                                      r.choice([NODE_NONE, self.node(t)]),
                                      NODE_NONE) + body

    def f_sc(self, t, typ):
        r = self.r
        st = self.routing(t)
        body = SC.pack(self.node(t), r.getrandbits(8), self.blob(3))
        body += self.coords() if r.random() < 0.8 else b""
        if r.random() < 0.2:
            body = body[:r.randrange(len(body) + 1)]
        return "sc_probe" if typ == T_SC_PROBE else "sc_reply", "uni", \
            self.hdr(typ, t, st["ttl"], st["flags"], 0, st["rword"],
                     self.node(t), self.node(t), st["wp"]) + body

    def f_mutant(self, t):
        r = self.r
        kind, how, p, fields = self.valid(t)
        p = bytearray(p)
        what = r.random()
        if what < 0.7:
            name, off, size = r.choice(fields)
            if off + size <= len(p):
                cur = int.from_bytes(p[off:off + size], "big")
                p[off:off + size] = self.edge(size, cur).to_bytes(size,
                                                                  "big")
            field = name
        elif what < 0.8:
            p = p[:r.randrange(len(p))]
            field = "cut"
        elif what < 0.9:
            p += self.blob(r.randrange(1, 64))
            field = "grown"
        else:
            i = r.randrange(len(p))
            p[i] ^= 1 << r.randrange(8)
            field = "bitflip"
        return "mutant:" + kind, how, bytes(p[:self.mtu]), field

    def frame(self):
        """(kind, target, dst MAC, payload) of the next frame."""
        r = self.r
        t = r.choice(self.targets)
        x = r.random()
        field = None
        if x < 0.08:
            kind, how, p = self.f_random(t)
        elif x < 0.18:
            kind, how, p = self.f_header(t)
        elif x < 0.28:
            kind, how, p = self.f_data(t, r.random() < 0.5)
        elif x < 0.36:
            kind, how, p = self.f_coords(t)
        elif x < 0.44:
            kind, how, p = self.f_probe(t, r.choice([T_PROBE, T_REPLY]))
        elif x < 0.56:
            kind, how, p = self.f_hello(t)
        elif x < 0.64:
            kind, how, p = self.f_sc(t, r.choice([T_SC_PROBE, T_SC_REPLY]))
        else:
            kind, how, p, field = self.f_mutant(t)
        if r.random() < 0.05 and how in ("uni", "group"):
            how = r.choice(["other", "bcast", "mcast", "uni" if how ==
                            "group" else "group"])
        dst = {"uni": t["mac"], "group": HELLO_GROUP, "bcast": BROADCAST,
               "mcast": bytes.fromhex("01005e000001"),
               "other": bytes.fromhex("02fe") + self.blob(4)}[how]
        src = t["own"] if r.random() < 0.97 else r.choice(
            [bytes(6), BROADCAST, self.blob(6)])
        self.count(kind, field)
        return kind, t, dst + src + struct.pack("!H", ETH_P_DPILLAR) + p, \
            self.predict(how, p)

    def count(self, kind, field):
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        if field:
            k = "field:" + field
            self.kinds[k] = self.kinds.get(k, 0) + 1

    def predict(self, how, p):
        """The counter dp_handle_frame()'s first checks must bump, if any."""
        c = None
        if len(p) < HDR.size:
            c = "drop_short"
        elif p[0] != 1:
            c = "drop_version"
        elif p[1] == T_HELLO:
            if how == "other":
                c = "drop_otherhost"
            elif how != "group":
                c = "hello_not_group"
            elif len(p) < HDR.size + HELLO.size:
                c = "hello_bad"
            else:
                tl = struct.unpack_from("!H", p, HDR.size + 2)[0]
                if tl > TLV_MAX or HDR.size + HELLO.size + tl > len(p):
                    c = "hello_bad"
        elif p[1] == 0 or p[1] > (T_SC_DATA if self.sc_data else T_SC_REPLY):
            c = "drop_type"
        elif how != "uni" and (how != "group" or p[1] != T_SC_PROBE):
            # A shortcut probe is passed on to a switch's group, the
            # Hellos' (dpillar-design.rst, "The discovery fallback"):
            # taken there, then checked further on.
            c = "drop_otherhost"
        return c


def own_mac(sock, ifname):
    r = fcntl.ioctl(sock.fileno(), SIOCGIFHWADDR,
                    struct.pack("256s", ifname.encode()))
    return r[18:24]


def setns(path):
    fd = os.open(path, os.O_RDONLY)
    rc = libc.setns(fd, CLONE_NEWNET)
    os.close(fd)
    if rc:
        sys.exit("setns %s: %s" % (path, os.strerror(ctypes.get_errno())))


def targets(specs):
    """Open a packet socket per target; learn both ends' MACs."""
    out = []
    here = "/proc/self/ns/net"
    home = os.open(here, os.O_RDONLY)
    for spec in specs:
        ifname, _, rest = spec.partition("=")
        ifname, _, ifns = ifname.partition("@")
        ns, port, node = rest.split(":")
        if ifns:
            setns("/run/netns/" + ifns)
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        s.bind((ifname, 0))
        own = own_mac(s, ifname)
        setns("/run/netns/" + ns)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as q:
            mac = own_mac(q, port)
        if libc.setns(home, CLONE_NEWNET):
            sys.exit("setns back: %s" % os.strerror(ctypes.get_errno()))
        out.append(dict(name="%s/%s" % (ns, port), sock=s, own=own, mac=mac,
                        node=int(node)))
    os.close(home)
    return out


def main():
    opts = {"--secs": "10", "--frames": "0", "--rate": "400", "--seed": "1",
            "--nodes": "8", "--mtu": "1500", "--log": "", "--skip": "0",
            "--progress": "", "--sc-data": "0"}
    args, specs = sys.argv[1:], []
    while args:
        a = args.pop(0)
        if a in opts and args:
            opts[a] = args.pop(0)
        elif a.startswith("-"):
            print(__doc__, file=sys.stderr)
            return 2
        else:
            specs.append(a)
    if not specs:
        print(__doc__, file=sys.stderr)
        return 2
    seed = int(opts["--seed"], 0)
    secs, limit = float(opts["--secs"]), int(opts["--frames"])
    rate, skip = float(opts["--rate"]), int(opts["--skip"])
    tg = targets(specs)
    fz = Fuzz(random.Random(seed), int(opts["--nodes"]), int(opts["--mtu"]),
              tg, opts["--sc-data"] == "1")
    for _ in range(skip):
        fz.frame()
    fz.kinds.clear()
    log = open(opts["--log"], "w") if opts["--log"] else None
    prog = open(opts["--progress"], "w") if opts["--progress"] else None
    print("seed %d, %d targets, %g s, at most %g frames/s%s" %
          (seed, len(tg), secs, rate, ", from frame %d" % skip if skip
           else ""), flush=True)
    t0 = time.monotonic()
    n = errors = 0
    while True:
        now = time.monotonic() - t0
        if now >= secs or (limit and n >= limit):
            break
        ahead = n / rate - now
        if ahead > 0:
            time.sleep(ahead)
        if prog and n % 64 == 0:
            prog.seek(0)
            prog.write("--seed %d --skip %d --frames 64\n" % (seed, skip + n))
            prog.truncate()
            prog.flush()
        kind, t, f, want = fz.frame()
        if log:
            log.write("%d %s %s %s\n" % (skip + n, kind, t["name"], f.hex()))
            log.flush()
        try:
            t["sock"].send(f)
            if want:
                fz.expect[want] = fz.expect.get(want, 0) + 1
        except OSError as e:
            # Not sent (ENOBUFS ...): not expected either; a failure.
            errors += 1
            if errors == 1:
                print("send: %s" % e, file=sys.stderr)
        n += 1
    took = time.monotonic() - t0
    for f in (log, prog):
        if f:
            f.close()
    for k in sorted(fz.kinds):
        print("kind %-24s %d" % (k, fz.kinds[k]))
    for k in sorted(fz.expect):
        print("expect %s %d" % (k, fz.expect[k]))
    print("sent %d frames in %.1f s (%d send errors)" % (n, took, errors))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
