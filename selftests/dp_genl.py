#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Raw generic netlink requests to the dpillar family, for the selftests.

dpctl and ynl only build well-formed requests; the tests also send wrong
attribute types, out-of-range values and unknown attributes, and need the
kernel's exact answer.  One request per line on stdin (one python start
for a whole batch: it costs seconds in a TCG guest):

  CMD do|dump|dump-uniq [ATTR=TYPE:VALUE ...]

CMD is a command number or name (dev-get dev-set neigh-get route-get);
ATTR a number or a name of the command's attribute set; TYPE u8 u16 u32
u64 be32 str bytes (hex, dot separated) or none (empty payload).  Prints
one line per request: "ok N" (N reply messages; dump-uniq adds "M unique":
how many of them differ) or "error ERRNO: EXTACK".
"""
import errno
import socket
import struct
import sys

NETLINK_GENERIC = 16
NETLINK_EXT_ACK = 11
SOL_NETLINK = 270
NLM_F_REQUEST, NLM_F_ACK, NLM_F_DUMP = 1, 4, 0x300
NLM_F_CAPPED, NLM_F_ACK_TLVS = 0x100, 0x200
NLMSG_ERROR, NLMSG_DONE = 2, 3
GENL_ID_CTRL, CTRL_CMD_GETFAMILY = 0x10, 3
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 1, 2

CMDS = {"dev-get": 1, "dev-set": 2, "neigh-get": 3, "route-get": 4}
ATTRS = {
    "dev-get": ["ifindex", "ifname", "topo", "n", "k", "nodes", "node-id",
                "addr", "hello-ms", "dead-ms", "ip4-prefix", "ip4-prefixlen",
                "ip6-prefix", "port", "stats", "mode", "level", "spaces",
                "seed"],
    "neigh-get": ["ifindex", "port", "node-id", "addr", "mac", "state",
                  "last-heard-ms", "peer-port"],
    "route-get": ["ifindex", "ifname", "dst", "dst-ip4", "dst-ip6",
                  "dst-addr", "next", "next-addr", "next-mac", "port",
                  "phase", "dir", "hops", "hop"],
}
ATTRS["dev-set"] = ATTRS["dev-get"]


def nla(atype, payload):
    pad = b"\0" * ((4 - len(payload) % 4) % 4)
    return struct.pack("=HH", 4 + len(payload), atype) + payload + pad


def attrs(buf, off=0):
    """(type, payload) of each attribute of @buf from @off on; the type
    without its nested/byte-order flags.  Stops at a malformed length."""
    while off + 4 <= len(buf):
        alen, atype = struct.unpack_from("=HH", buf, off)
        if alen < 4:
            break
        yield atype & 0x3fff, buf[off + 4:off + alen]
        off += (alen + 3) & ~3


def typed(spec):
    kind, _, val = spec.partition(":")
    if kind == "none":
        return b""
    if kind == "str":
        return val.encode() + b"\0"
    if kind == "bytes":
        return bytes(int(x, 16) for x in val.split(".") if x)
    if kind == "be32":
        return struct.pack("!I", int(val, 0))
    fmt = {"u8": "=B", "u16": "=H", "u32": "=I", "u64": "=Q"}[kind]
    return struct.pack(fmt, int(val, 0))


class Genl:
    def __init__(self):
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                               NETLINK_GENERIC)
        self.s.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.s.bind((0, 0))
        self.s.settimeout(10)	# a lost answer fails the case, not hangs
        self.seq = 0

    def request(self, family, cmd, flags, attrs):
        self.seq += 1
        body = struct.pack("=BBH", cmd, 1, 0) + attrs
        self.s.send(struct.pack("=IHHII", 16 + len(body), family,
                                flags | NLM_F_REQUEST | NLM_F_ACK,
                                self.seq, 0) + body)
        msgs = []
        while True:
            data = self.s.recv(1 << 16)
            off = 0
            while off + 16 <= len(data):
                mlen, mtype, mflags, _, _ = struct.unpack_from("=IHHII",
                                                               data, off)
                if mlen < 16:
                    return msgs, -errno.EPROTO, "short message"
                if mtype == NLMSG_ERROR:
                    err = struct.unpack_from("=i", data, off + 16)[0]
                    return msgs, err, self.extack(data[off:off + mlen],
                                                  mflags)
                if mtype == NLMSG_DONE:
                    # A dump ends here, without an ACK; its error (and
                    # extack) is in the DONE message itself.
                    err = struct.unpack_from("=i", data, off + 16)[0]
                    return msgs, err, self.tlv_msg(data[off:off + mlen], 20)
                else:
                    msgs.append(data[off + 20:off + mlen])
                off += (mlen + 3) & ~3

    @classmethod
    def extack(cls, msg, mflags):
        if not mflags & NLM_F_ACK_TLVS:
            return ""
        return cls.tlv_msg(msg, 20 + (16 if mflags & NLM_F_CAPPED else
                                      struct.unpack_from("=I", msg, 20)[0]))

    @staticmethod
    def tlv_msg(msg, off):
        """NLMSGERR_ATTR_MSG among the TLVs from @off on."""
        for atype, val in attrs(msg, off):
            if atype == 1:  # NLMSGERR_ATTR_MSG
                return val.rstrip(b"\0").decode()
        return ""

    def family(self, name):
        msgs, err, text = self.request(
            GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0,
            nla(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0"))
        if err or not msgs:
            sys.exit("family %s: %s %s" % (name, errno.errorcode.get(-err),
                                          text))
        for atype, val in attrs(msgs[0]):
            if atype == CTRL_ATTR_FAMILY_ID:
                return struct.unpack_from("=H", val)[0]
        sys.exit("family %s: no id" % name)


def main():
    g = Genl()
    fam = g.family("dpillar")
    for line in sys.stdin:
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        name, mode = words[0], words[1]
        cmd = CMDS.get(name) or int(name, 0)
        attrs = b""
        for w in words[2:]:
            key, _, val = w.partition("=")
            names = ATTRS.get(name, [])
            atype = names.index(key) + 1 if key in names else int(key, 0)
            attrs += nla(atype, typed(val))
        flags = NLM_F_DUMP if mode.startswith("dump") else 0
        try:
            msgs, err, text = g.request(fam, cmd, flags, attrs)
        except socket.timeout:
            print("error TIMEOUT: no answer")
            continue
        if err:
            # 95 has two names; the kernel's is EOPNOTSUPP.
            name = "EOPNOTSUPP" if -err == errno.EOPNOTSUPP else \
                errno.errorcode.get(-err, str(err))
            print("error %s: %s" % (name, text))
        elif mode == "dump-uniq":
            # Paging must neither repeat nor skip a message.
            print("ok %d %d unique" % (len(msgs), len(set(msgs))))
        else:
            print("ok %d" % len(msgs))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
