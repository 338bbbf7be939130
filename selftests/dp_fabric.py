#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Helpers of the fabric suites (plan_fabric.sh and its users, s2_test.sh):
one netns per server, named PREFIX<name> (a node id, or an address).

usage: dp_fabric.py ports PREFIX up|down K ADDR...
           lo and p0..pK of each server up or down (down: lo stays up)
       dp_fabric.py ping PREFIX IPS WANT ROUNDS
           ping every ordered pair of live servers over IPv4 and IPv6 (raw
           ICMP sockets, a few rounds) and compare with WANT, a file of
           "SRC DST delivered|dropped" lines (a pair answers when both
           SRC DST and DST SRC are delivered); IPS has "ADDR IPV4 IPV6"
           lines (a fourth word, where there is one, names the server's
           netns instead of ADDR: plan_fabric.sh's PREFIX<node id>).
           Prints mismatches; exit 0 when every pair's outcome (both
           families) is as wanted.
       dp_fabric.py plan PREFIX DIR [direct] < PLAN.json
           the fabric of "dpctl -j plan" (any topology) as an ip batch
           file: DIR/sw.batch (run in the switches' netns, once the
           servers' namespaces PREFIX<node id> exist) a bridge per switch
           (s<level>_<id>)
           and per cable (a patch panel c<i>, so that a cable can fail on
           the switch side) and a veth per server port (p<port> in the
           server, v<id>p<port> in SWNS; an unused port's end is left
           out of any bridge); DIR/servers has "ID ADDR PORTS" lines,
           DIR/switches "BRIDGE ID..." (a switch's members) and
           DIR/cables "ID/PORT ID/PORT" (line i: bridge c<i>), DIR/unused
           "ID/PORT" (the ports no cable or switch takes).  With "direct",
           a cable is one veth straight between its two servers'
           namespaces (p<port> at both ends, no bridge: plan_fabric.sh's
           PF_DIRECT).  S2's plan mode ("... mode plan [grow M]", a
           schema of its own) adds DIR/coords ("ID C1,C2..."), and
           DIR/removed, DIR/added (growth's cables)
       dp_fabric.py dp0up PREFIX [--replace] ID,IPV4,IPV6...
           in each server's netns PREFIX<ID>, over rtnetlink: dp0 up, its
           IPV4/32 and IPV6/128 (nodad), routes 10.0.0.0/8 and
           fd64:7069:6c6c:6172::/96 on dp0: what an "ip -b" per server
           did, in one process (plan_fabric.sh's pf_dp0); --replace:
           addresses and routes that may be there already replaced
       dp_fabric.py keys PREFIX WANT ADDR...
           key addresses (S2): a UDP listener on [::]:7407 in each server
           ADDR; for each "SRC KEYADDR HOME" line of WANT, SRC sends a
           datagram to KEYADDR, the server whose listener gets it answers
           with its ADDR to SRC's fabric address.  Prints mismatches
           (who got it, who answered); exit 0 when every datagram landed
           on HOME, only there, and the answer came back.
"""
import ctypes
import fcntl
import json
import os
import select
import socket
import struct
import sys
import time

libc = ctypes.CDLL(None, use_errno=True)


def csum(b):
    if len(b) & 1:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    s = (s >> 16) + (s & 0xffff)
    s += s >> 16
    return ~s & 0xffff


def ports(prefix, argv):
    up, k = argv[0] == "up", int(argv[1])
    for a in argv[2:]:
        fd = os.open("/run/netns/" + prefix + a, os.O_RDONLY)
        if libc.setns(fd, 0x40000000) != 0:
            sys.exit("setns %s%s failed" % (prefix, a))
        os.close(fd)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            for ifn in ([b"lo"] if up else []) + [b"p%d" % p for p in range(k + 1)]:
                req = fcntl.ioctl(s, 0x8913, struct.pack("16sH22x", ifn, 0))
                fl = struct.unpack("16sH22x", req)[1]
                fl = fl | 1 if up else fl & ~1
                fcntl.ioctl(s, 0x8914, struct.pack("16sH22x", ifn, fl))
    return 0


def ping(prefix, argv):
    ips, nsname = {}, {}
    for line in open(argv[0]):
        w = line.split()
        ips[w[0]] = (w[1], w[2])
        nsname[w[0]] = w[3] if len(w) > 3 else w[0]
    want = {}
    for line in open(argv[1]):
        s, d, w = line.split()[:3]
        want.setdefault(s, {})[d] = w == "delivered"
    # An echo needs both ways: where routing is not symmetric (a failure
    # in DCell's paper mode), a reply comes only when the way back is
    # delivered too.
    want = {s: {d: w and want.get(d, {}).get(s, True)
                for d, w in dsts.items()} for s, dsts in want.items()}
    rounds = int(argv[2])

    bad = 0
    for src, dsts in want.items():
        netns(prefix, nsname[src])
        s4 = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
        s6 = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_ICMPV6)
        order = sorted(dsts)
        got = {(d, f): False for d in order for f in (4, 6)}
        back = {}
        for i, d in enumerate(order):
            back[(4, ips[d][0])] = d
            back[(6, socket.inet_pton(socket.AF_INET6, ips[d][1]))] = d
        for r in range(rounds):
            for i, d in enumerate(order):
                if not got[(d, 4)]:
                    hdr = struct.pack("!BBHHH", 8, 0, 0, 0x4443, i) + b"dpill"
                    hdr = hdr[:2] + struct.pack("!H", csum(hdr)) + hdr[4:]
                    try:
                        s4.sendto(hdr, (ips[d][0], 0))
                    except OSError:
                        pass
                if not got[(d, 6)]:
                    try:
                        s6.sendto(struct.pack("!BBHHH", 128, 0, 0, 0x4443, i) +
                                  b"dpill", (ips[d][1], 0))
                    except OSError:
                        pass
            end = time.monotonic() + (0.4 if r < rounds - 1 else 1.0)
            while time.monotonic() < end:
                rd, _, _ = select.select([s4, s6], [], [], max(0, end - time.monotonic()))
                for so in rd:
                    pkt, addr = so.recvfrom(2048)
                    if so is s4:
                        ihl = (pkt[0] & 15) * 4
                        if len(pkt) > ihl and pkt[ihl] == 0:
                            d = back.get((4, addr[0]))
                            if d:
                                got[(d, 4)] = True
                    elif pkt and pkt[0] == 129:
                        d = back.get((6, socket.inet_pton(socket.AF_INET6,
                                                          addr[0].split("%")[0])))
                        if d:
                            got[(d, 6)] = True
            if all(got[(d, f)] == dsts[d] or not dsts[d] and not got[(d, f)]
                   for d in order for f in (4, 6)) and all(
                   got[(d, 4)] and got[(d, 6)] for d in order if dsts[d]):
                break
        for d in order:
            for f in (4, 6):
                if got[(d, f)] != dsts[d]:
                    bad += 1
                    if bad <= 10:
                        print("%s -> %s IPv%d: %s, dpsim: %s" % (src, d, f,
                              "replied" if got[(d, f)] else "no reply",
                              "delivered" if dsts[d] else "dropped"))
        s4.close()
        s6.close()
    print("%d pairs x 2 families compared, %d differ" %
          (sum(len(v) for v in want.values()), bad))
    return 1 if bad else 0


def netns(prefix, a):
    fd = os.open("/run/netns/" + prefix + a, os.O_RDONLY)
    if libc.setns(fd, 0x40000000) != 0:
        sys.exit("setns %s%s failed" % (prefix, a))
    os.close(fd)


def keys(prefix, argv):
    lis = {}
    for a in argv[1:]:
        netns(prefix, a)
        so = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
        so.bind(("::", 7407))
        lis[so] = a
    bad = n = 0
    for line in open(argv[0]):
        src, kaddr, home = line.split()[:3]
        netns(prefix, src)
        tx = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
        tx.bind(("::", 0))
        tok = b"key %d" % n
        n += 1
        got, answer = [], None
        for _ in range(3):
            try:
                tx.sendto(tok, (kaddr, 7407))
            except OSError:
                pass
            end = time.monotonic() + 1.5
            while time.monotonic() < end and answer is None:
                rd, _, _ = select.select(list(lis) + [tx], [], [],
                                         max(0, end - time.monotonic()))
                for so in rd:
                    pkt, addr = so.recvfrom(2048)
                    if so is tx:
                        answer = pkt.decode(errors="replace")
                    elif pkt == tok:
                        got.append(lis[so])
                        so.sendto(lis[so].encode(), addr)
            if answer is not None:
                # A late duplicate elsewhere would show here too.
                rd, _, _ = select.select(list(lis), [], [], 0.05)
                for so in rd:
                    if so.recvfrom(2048)[0] == tok:
                        got.append(lis[so])
                break
        tx.close()
        if got != [home] or answer != home:
            bad += 1
            if bad <= 10:
                print("%s -> %s: received by %s, answer from %s, expected %s"
                      % (src, kaddr, ",".join(got) or "nobody", answer, home))
    print("%d (source, key) sent, %d not on their home" % (n, bad))
    return 1 if bad or not n else 0


def rtnl(so, seq, mtype, body, attrs, flags=0x400 | 0x200):
    """One rtnetlink request (NLM_F_REQUEST | ACK, and by default CREATE |
    EXCL); raises OSError with the kernel's error."""
    for t, v in attrs:
        body += struct.pack("HH", 4 + len(v), t) + v + b"\0" * (-len(v) % 4)
    so.send(struct.pack("IHHII", 16 + len(body), mtype, 0x1 | 0x4 | flags,
                        seq, 0) + body)
    while True:
        r = so.recv(65536)
        while r:
            ln, t, _, sq, _ = struct.unpack("IHHII", r[:16])
            if t == 2 and sq == seq:  # NLMSG_ERROR: the ack
                err = struct.unpack("i", r[16:20])[0]
                if err:
                    raise OSError(-err, os.strerror(-err))
                return
            r = r[(ln + 3) & ~3:]


def dp0up(prefix, argv):
    RTM_NEWLINK, RTM_NEWADDR, RTM_NEWROUTE = 16, 20, 24
    seq = 0
    # --replace: addresses and routes that may still be there (dp0 taken
    # down and up again) replaced rather than refused (NLM_F_REPLACE)
    mk = 0x400 | 0x200
    if argv[:1] == ["--replace"]:
        argv, mk = argv[1:], 0x400 | 0x100
    for w in argv:
        i, v4, v6 = w.split(",")
        netns(prefix, i)
        so = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
        so.bind((0, 0))
        try:
            ifi = socket.if_nametoindex("dp0")
            seq += 1  # ifinfomsg: up (IFF_UP in flags and change)
            rtnl(so, seq, RTM_NEWLINK,
                 struct.pack("BxHiII", 0, 0, ifi, 1, 1), [], 0)
            for fam, a, plen, net, nlen in (
                    (socket.AF_INET, v4, 32, "10.0.0.0", 8),
                    (socket.AF_INET6, v6, 128, "fd64:7069:6c6c:6172::", 96)):
                b = socket.inet_pton(fam, a)
                # ifaddrmsg; IFA_ADDRESS, IFA_LOCAL, IFA_FLAGS (nodad)
                nodad = 0x02 if fam == socket.AF_INET6 else 0
                seq += 1
                rtnl(so, seq, RTM_NEWADDR,
                     struct.pack("BBBBI", fam, plen, nodad, 0, ifi),
                     [(1, b), (2, b), (8, struct.pack("I", nodad))], mk)
                # rtmsg: main table, proto boot, scope link (IPv4, as
                # "ip route add ... dev" without a gateway) or universe,
                # unicast; RTA_DST, RTA_OIF
                seq += 1
                rtnl(so, seq, RTM_NEWROUTE,
                     struct.pack("BBBBBBBBI", fam, nlen, 0, 0, 254, 3,
                                 253 if fam == socket.AF_INET else 0, 1, 0),
                     [(1, socket.inet_pton(fam, net)),
                      (4, struct.pack("I", ifi))], mk)
        except OSError as e:
            sys.exit("dp0up %s%s: %s" % (prefix, i, e))
        so.close()
    return 0


def sw_bridge(sw, name):
    """Bridge @name of the switches' batch @sw: a switch, or a cable."""
    sw.append("link add %s type bridge stp_state 0 forward_delay 0"
              " mcast_snooping 0" % name)
    sw.append("link set %s up" % name)


def sw_port(sw, prefix, i, p, b):
    """Server @i's port @p: the veth p<p> in its namespace, v<i>p<p> in
    the switches' (in bridge @b, or in none when @b is None)."""
    sw.append("link add v%dp%d type veth peer name p%d netns %s%d"
              % (i, p, p, prefix, i))
    sw.append("link set v%dp%d %sup" % (i, p, "master %s " % b if b else ""))


def plan(prefix, argv):
    out = argv[0]
    direct = argv[1:2] == ["direct"]
    d = json.load(sys.stdin)
    addr, used, sw, br, members, cables = {}, set(), [], set(), {}, []
    if "plan" in d:
        return plan_s2plan(prefix, out, direct, d)

    def bridge(name):
        if name not in br:
            br.add(name)
            sw_bridge(sw, name)

    def port(i, a, p, b):
        addr[i] = a
        used.add((i, p))
        if b and b[0] == "s":
            members.setdefault(b, []).append(i)
        sw_port(sw, prefix, i, p, b)

    if "ports" in d:
        for e in d["ports"]:
            b = None
            if e["switch_col"] != 0xffffffff:
                b = "s%d_%d" % (e["switch_col"], e["switch_id"])
                bridge(b)
            port(e["id"], e["server"], e["port"], b)
    else:
        for s in d["switches"]:
            b = "s%d_%d" % (s["level"], s["switch"])
            bridge(b)
            for m in s["members"]:
                port(m["id"], m["server"], m["port"], b)
        for i, c in enumerate(d["cables"]):
            if direct:
                addr[c["a_id"]], addr[c["b_id"]] = c["a"], c["b"]
                used.update({(c["a_id"], c["a_port"]), (c["b_id"], c["b_port"])})
                sw.append(direct_cable(prefix, c["a_id"], c["a_port"],
                                       c["b_id"], c["b_port"]))
            else:
                bridge("c%d" % i)
                port(c["a_id"], c["a"], c["a_port"], "c%d" % i)
                port(c["b_id"], c["b"], c["b_port"], "c%d" % i)
            cables.append("%d/%d %d/%d\n" % (c["a_id"], c["a_port"],
                                              c["b_id"], c["b_port"]))
    # every server has as many ports as the one with the most (S2: n)
    nports = d["n"] if d.get("topo") == "s2" else 1 + max(p for _, p in used)
    unused = []
    for i in sorted(addr):
        for p in range(nports):
            if (i, p) not in used:
                port(i, addr[i], p, None)
                unused.append("%d/%d\n" % (i, p))
    with open(out + "/unused", "w") as f:
        f.writelines(unused)
    with open(out + "/sw.batch", "w") as f:
        f.writelines(line + "\n" for line in sw)
    with open(out + "/servers", "w") as f:
        f.writelines("%d %s %d\n" % (i, addr[i], nports) for i in sorted(addr))
    with open(out + "/switches", "w") as f:
        f.writelines("%s %s\n" % (b, " ".join(map(str, m)))
                     for b, m in members.items())
    with open(out + "/cables", "w") as f:
        f.writelines(cables)
    return 0 if len(addr) == d["servers"] else 1


def direct_cable(prefix, a, ap, b, bp):
    """A cable as one veth straight between two servers' namespaces (p<port>
    at both ends; plan_fabric.sh's PF_DIRECT)."""
    return ("link add p%d netns %s%d type veth peer name p%d netns %s%d"
            % (ap, prefix, a, bp, prefix, b))


def plan_s2plan(prefix, out, direct, d):
    """The fabric of "dpctl -j plan topo s2 ... mode plan" (a schema of its
    own: each node's coordinates and ports, and with "grow M" the cables
    the growth removes and adds): the files plan() writes (its cables in
    the order of the nodes and their ports, a cable once, from its lower
    node), and DIR/coords ("ID C1,C2...": a node's coordinates, as
    "dpctl link add ... coords" takes them), DIR/removed and DIR/added
    ("ID/PORT ID/PORT", growth)."""
    sw, cables, unused, coords, nodes = [], [], [], [], []
    nports = d["ports"]
    for n in d["plan"]:
        i = n["node"]
        nodes.append(i)
        coords.append("%d %s\n" % (i, ",".join(map(str, n["coords"]))))
        for e in n["ports"]:
            p = e["port"]
            if e["kind"] == "cable":
                if i < e["peer"]:
                    cables.append("%d/%d %d/%d\n" % (i, p, e["peer"],
                                                      e["peer_port"]))
                    if direct:
                        sw.append(direct_cable(prefix, i, p, e["peer"],
                                               e["peer_port"]))
                    else:
                        c = "c%d" % (len(cables) - 1)
                        sw_bridge(sw, c)
                        sw_port(sw, prefix, i, p, c)
                        sw_port(sw, prefix, e["peer"], e["peer_port"], c)
            else:
                unused.append("%d/%d\n" % (i, p))
                sw_port(sw, prefix, i, p, None)
    files = {"sw.batch": [s + "\n" for s in sw],
             "servers": ["%d %d %d\n" % (i, i, nports) for i in nodes],
             "switches": [], "cables": cables, "unused": unused,
             "coords": coords,
             "removed": ["%d/%d %d/%d\n" % (c["a"], c["a_port"], c["b"],
                                              c["b_port"])
                         for c in d.get("removed", [])],
             "added": ["%d/%d %d/%d\n" % (c["a"], c["a_port"], c["b"],
                                            c["b_port"])
                       for c in d.get("added", [])]}
    for name, lines in files.items():
        with open(out + "/" + name, "w") as f:
            f.writelines(lines)
    return 0 if len(nodes) == d["nodes"] and cables else 1


if __name__ == "__main__":
    cmds = {"ports": ports, "ping": ping, "keys": keys, "plan": plan,
            "dp0up": dp0up}
    if len(sys.argv) < 3 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    sys.exit(cmds[sys.argv[1]](sys.argv[2], sys.argv[3:]))
