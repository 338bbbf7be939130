#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Forged Hellos against a live neighbour, and the events they raise.

  dp_spoof.py IFNAME SRC_NODE COUNT

Listens to the dpillar "events" group, sends on IFNAME (the far end of
a dpillar port) a Hello from node SRC_NODE with MAC 02:5f:00:00:00:01 for
each port number 0 and 1 (the right one is learned, the other is
miswired), then COUNT more with a new MAC each, and prints how many
NEIGH_NTF events named a rejected MAC (DPILLAR_A_NEIGH_REJECTED_MAC) in
the 2 s after.
"""
import socket
import struct
import sys
import time

import dp_genl
from dp_genl import attrs, nla

CTRL_ATTR_MCAST_GROUPS, CTRL_ATTR_MCAST_GRP_NAME = 7, 1
CTRL_ATTR_MCAST_GRP_ID = 2
NETLINK_ADD_MEMBERSHIP = 1
NEIGH_NTF, A_NEIGH_REJECTED_MAC = 5, 10
HELLO_GROUP = bytes.fromhex("034450000001")


def events_group(g):
    msgs, err, _ = g.request(dp_genl.GENL_ID_CTRL, dp_genl.CTRL_CMD_GETFAMILY,
                             0, nla(dp_genl.CTRL_ATTR_FAMILY_NAME,
                                    b"dpillar\0"))
    for atype, val in attrs(msgs[0]):
        if atype != CTRL_ATTR_MCAST_GROUPS:
            continue
        for _, grp in attrs(val):
            kv = dict(attrs(grp))
            if kv.get(CTRL_ATTR_MCAST_GRP_NAME, b"").rstrip(b"\0") == \
                    b"events":
                return struct.unpack("=I", kv[CTRL_ATTR_MCAST_GRP_ID])[0]
    sys.exit("no events group")


def hello(src, port):
    hdr = struct.pack("!BBBxHHIII", 1, 2, 1, 0, 0, src, 0xffffffff,
                      0xffffffff)
    return hdr + struct.pack("!BxHI", port, 0, 100)


def main():
    ifname, src, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    g = dp_genl.Genl()
    ev = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                       dp_genl.NETLINK_GENERIC)
    ev.bind((0, 0))
    ev.setsockopt(dp_genl.SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
                  events_group(g))
    tx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    tx.bind((ifname, 0))
    for i in range(count + 1):
        mac = bytes([0x02, 0x5f, 0, 0, 0, 1 + i])
        for port in (0, 1):
            tx.send(HELLO_GROUP + mac + b"\x88\xb5" + hello(src, port))
        if i == 0:
            time.sleep(0.05)
    ev.settimeout(0.2)
    n, end = 0, time.time() + 2
    while time.time() < end:
        try:
            data = ev.recv(1 << 16)
        except socket.timeout:
            continue
        off = 0
        while off + 20 <= len(data):
            mlen = struct.unpack_from("=I", data, off)[0]
            if data[off + 16] == NEIGH_NTF and any(
                    a == A_NEIGH_REJECTED_MAC
                    for a, _ in attrs(data[off + 20:off + mlen])):
                n += 1
            off += (mlen + 3) & ~3
    print(n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
