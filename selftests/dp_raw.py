#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Raw netlink and packet helper for the dpillar selftests.

dpctl only builds well-formed requests; the tests also need malformed ones
(wrong attribute types, raw ifindexes, foreign namespaces) and raw frames.

  dp_raw.py newlink NAME [ATTR=TYPE:VALUE ...] [ports=IFINDEX,...]
                         [netns=/run/netns/X]
      ATTR in topo n k column label node_id nodes; TYPE in u8 u16 u32 u64
      bytes (hex, dot separated, e.g. bytes:01.00.02).  Prints the kernel's
      extack message on failure and exits 1 (0 on success).
  dp_raw.py send IFNAME DSTMAC ETHERTYPE HEXPAYLOAD[,HEXPAYLOAD...] [COUNT]
      Sends COUNT raw Ethernet frames on IFNAME, unpadded (veth does not
      need the 60-byte minimum, so runt frames reach the receiver).
  dp_raw.py -
      A batch: one command per line on stdin (the arguments above, or
      "setns /run/netns/X": the following commands run in that network
      namespace), one answer per line on stdout, flushed: "ok" or
      "error: ..." (what the command prints on stderr).  A python start
      costs seconds in a TCG guest: a test keeps one process and feeds it.
"""
import ctypes
import io
import os
import socket
import struct
import sys

import dp_genl

NETLINK_EXT_ACK = 11
NLM_F_REQUEST, NLM_F_ACK, NLM_F_CREATE, NLM_F_EXCL = 1, 4, 0x400, 0x200
NLMSG_ERROR = 2
RTM_NEWLINK = 16
IFLA_IFNAME, IFLA_LINKINFO, IFLA_NET_NS_FD = 3, 18, 28
IFLA_INFO_KIND, IFLA_INFO_DATA = 1, 2
NLA_F_NESTED = 0x8000
DP_ATTR = {"topo": 1, "n": 2, "k": 3, "column": 4, "label": 5, "ports": 6,
           "node_id": 7, "nodes": 8}
IFLA_DPILLAR_PORT = 1


def nla(atype, payload):
    hdr = struct.pack("=HH", 4 + len(payload), atype)
    pad = b"\0" * ((4 - len(payload) % 4) % 4)
    return hdr + payload + pad


def typed(spec):
    kind, _, val = spec.partition(":")
    if kind == "bytes":
        return bytes(int(x, 16) for x in val.split(".") if x)
    fmt = {"u8": "=B", "u16": "=H", "u32": "=I", "u64": "=Q"}[kind]
    return struct.pack(fmt, int(val, 0))


def newlink(argv):
    name, data, extra = argv[0], b"", b""
    for arg in argv[1:]:
        key, _, val = arg.partition("=")
        if key == "ports":
            inner = b"".join(nla(IFLA_DPILLAR_PORT, struct.pack("=I", int(i)))
                             for i in val.split(",") if i)
            data += nla(DP_ATTR["ports"] | NLA_F_NESTED, inner)
        elif key == "netns":
            fd = os.open(val, os.O_RDONLY)
            extra += nla(IFLA_NET_NS_FD, struct.pack("=I", fd))
        else:
            data += nla(DP_ATTR[key], typed(val))
    info = nla(IFLA_INFO_KIND, b"dpillar\0") + \
        nla(IFLA_INFO_DATA | NLA_F_NESTED, data)
    body = struct.pack("=BxHiII", 0, 0, 0, 0, 0) + \
        nla(IFLA_IFNAME, name.encode() + b"\0") + extra + \
        nla(IFLA_LINKINFO | NLA_F_NESTED, info)
    flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL
    msg = struct.pack("=IHHII", 16 + len(body), RTM_NEWLINK, flags, 1, 0) + body
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
    s.setsockopt(270, NETLINK_EXT_ACK, 1)
    s.bind((0, 0))
    s.send(msg)
    reply = s.recv(65536)
    s.close()
    if extra:
        os.close(fd)
    _, mtype, mflags, _, _ = struct.unpack_from("=IHHII", reply)
    if mtype != NLMSG_ERROR:
        print("error: unexpected reply type %d" % mtype, file=sys.stderr)
        return 1
    err = struct.unpack_from("=i", reply, 16)[0]
    if err == 0:
        return 0
    text = dp_genl.Genl.extack(reply, mflags)
    print("error: %s: %s" % (os.strerror(-err), text), file=sys.stderr)
    return 1


def send(argv):
    ifname, dst, etype, payload = argv[:4]
    count = int(argv[4]) if len(argv) > 4 else 1
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((ifname, 0))
    src = s.getsockname()[4]
    head = bytes.fromhex(dst.replace(":", "")) + src + \
        struct.pack("!H", int(etype, 0))
    for _ in range(count):
        for p in payload.split(","):
            s.send(head + bytes.fromhex(p))
    return 0


def setns(argv):
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(argv[0], os.O_RDONLY)
    rc = libc.setns(fd, 0x40000000)  # CLONE_NEWNET
    os.close(fd)
    if rc != 0:
        print("error: setns %s: %s" % (argv[0],
              os.strerror(ctypes.get_errno())), file=sys.stderr)
        return 1
    return 0


CMDS = {"newlink": newlink, "send": send, "setns": setns}


def batch():
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        err, sys.stderr = sys.stderr, io.StringIO()
        try:
            cmd = CMDS.get(words[0])
            if not cmd or len(words) < 2:
                print("error: unknown command: %s" % line.strip(),
                      file=sys.stderr)
                rc = 1
            else:
                rc = cmd(words[1:])
        except (OSError, ValueError, KeyError, IndexError) as e:
            print("error: %s: %s" % (words[0], e), file=sys.stderr)
            rc = 1
        text, sys.stderr = sys.stderr.getvalue(), err
        if rc == 0:
            print("ok", flush=True)
        else:
            print(" ".join(text.split()) or "error", flush=True)
    return 0


def main():
    if sys.argv[1:] == ["-"]:
        return batch()
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    cmd = CMDS.get(sys.argv[1])
    if not cmd:
        print(__doc__, file=sys.stderr)
        return 2
    return cmd(sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
