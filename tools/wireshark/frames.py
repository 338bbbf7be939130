#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write a pcap of hand-made dpillar frames: one well-formed frame of each
kind the guest capture may lack (a DPillar detour, a NOROUTE reply, a
first-version Hello) and the malformed ones a neighbour could send, each
with the expert info the dissector must give it.

    frames.py OUT.pcap EXPECT

EXPECT gets one line per frame: its number and the expert info's field
name ("-" for none), which scripts/capture-check.sh compares with tshark.
"""
import struct
import sys

ETH = bytes.fromhex("020000000002" "020000000001") + struct.pack("!H", 0x88B5)
HELLO_MAC = bytes.fromhex("034450000001")
NONE = 0xFFFFFFFF


def hdr(typ, ttl=9, flags=0, proto=0, rword=0, src=1, dst=2, wp=NONE, ver=1):
    return struct.pack("!BBBBHHIII", ver, typ, ttl, flags, proto, rword,
                       src, dst, wp)


def coords(*x, count=None):
    return struct.pack("!B3x", len(x) if count is None else count) + \
        b"".join(struct.pack("!I", v) for v in x)


def tlv(typ, value, pad=True):
    b = struct.pack("!HH", typ, len(value)) + value
    return b + b"\0" * (-len(b) % 4 if pad else 0)


def hello(tlvs, port=1, tlv_len=None):
    return struct.pack("!BBHI", port, 0,
                       len(tlvs) if tlv_len is None else tlv_len, 100) + tlvs


def u32s(*v):
    return b"".join(struct.pack("!I", x) for x in v)


def probe(status=0, reason=0, pid=1, seq=1, ttl=3, hops=0, reporter=0,
          flags=0):
    return struct.pack("!BBHHBBIBB2xQ", status, reason, pid, seq, ttl, hops,
                       reporter, 0, flags, 0x1122334455667788)


def neighs(*entries, nports=2, up=3, count=None):
    """struct dpillar_probe_neighs: entries (port, peer_port, state, node)"""
    return struct.pack("!BBBxI", nports, len(entries) if count is None
                       else count, 0, up) + \
        b"".join(struct.pack("!BBBxI", *e) for e in entries)


IP4 = bytes.fromhex("4500001c0001000040017ccf0a0000010a000002"
                    "0800f7ff00000000")

FRAMES = [
    # well-formed
    ("-", ETH + hdr(1, flags=0x11, proto=0x0800, wp=7) + IP4),
    ("-", HELLO_MAC + ETH[6:] + hdr(2, ttl=1, dst=NONE) + hello(b"")),
    ("-", ETH + hdr(4, dst=1, src=5) + probe(status=3, reason=2,
                                            reporter=5, hops=2)),
    ("-", ETH + hdr(4, dst=1, src=5) + probe(status=1, pid=0x8001,
                                            reporter=5, hops=2)),
    # a reply with the destination's neighbour table (DPILLAR_PROBE_F_NEIGHS)
    ("-", ETH + hdr(4, dst=1, src=5) +
     probe(status=1, reporter=5, hops=2, flags=1) +
     neighs((0, 0, 1, 4), (1, 1, 1, 6), (1, 0, 3, 9))),
    # malformed
    ("dpillar.truncated", ETH + hdr(1)[:12]),
    ("dpillar.bad_version", ETH + hdr(1, ver=2, proto=0x0800) + IP4),
    ("dpillar.bad_type", ETH + hdr(9)),
    ("dpillar.bad_proto", ETH + hdr(1, proto=0x1234) + IP4),
    ("dpillar.truncated", ETH + hdr(1, proto=0x0800)),
    ("dpillar.bad_payload", ETH + hdr(1, proto=0x0800) + IP4[:10]),
    ("dpillar.ttl_zero", ETH + hdr(1, ttl=0, proto=0x0800) + IP4),
    ("dpillar.truncated", ETH + hdr(2, ttl=1, dst=NONE) + b"\1\0"),
    ("dpillar.bad_tlv", ETH + hdr(2, ttl=1, dst=NONE) +
     hello(tlv(1, u32s(3)), tlv_len=2000)),
    ("dpillar.bad_tlv", ETH + hdr(2, ttl=1, dst=NONE) +
     hello(tlv(1, u32s(3)), tlv_len=200)),
    ("dpillar.bad_tlv", ETH + hdr(2, ttl=1, dst=NONE) +
     hello(tlv(99, bytes(1100)))),
    ("dpillar.bad_tlv", ETH + hdr(2, ttl=1, dst=NONE) +
     hello(tlv(1, u32s(3)) + tlv(1, u32s(3)))),
    ("dpillar.bad_tlv", ETH + hdr(2, ttl=1, dst=NONE) +
     hello(tlv(1, b"\1\2"))),
    ("dpillar.bad_tlv", ETH + hdr(2, ttl=1, dst=NONE) +
     hello(struct.pack("!HH", 2, 40) + u32s(1, 2))),
    ("dpillar.bad_tlv", ETH + hdr(2, ttl=1, dst=NONE) +
     hello(tlv(2, u32s(1, 2)) + tlv(3, u32s(4)) + tlv(4, u32s(5)))),
    ("dpillar.bad_tlv", ETH + hdr(2, ttl=1, dst=NONE) + hello(tlv(2, b""))),
    ("dpillar.unknown_tlv", ETH + hdr(2, ttl=1, dst=NONE) +
     hello(tlv(77, b"abc") + tlv(1, u32s(3)))),
    ("dpillar.bad_coords", ETH + hdr(1, flags=0x20, proto=0x0800) +
     coords(1, 2, count=9)),
    ("dpillar.bad_coords", ETH + hdr(1, flags=0x20, proto=0x0800) +
     coords(count=0) + IP4),
    ("dpillar.truncated", ETH + hdr(3, flags=0x20) + coords(1, 2)[:9]),
    ("dpillar.truncated", ETH + hdr(3) + probe()[:10]),
    ("dpillar.truncated", ETH + hdr(4, dst=1, src=5) +
     probe(status=1, reporter=5, flags=1) + neighs((0, 0, 1, 4), count=3)),
    ("dpillar.truncated", ETH + hdr(5) + b"\0\0\0\1"),
    ("dpillar.bad_coords", ETH + hdr(6) + struct.pack("!IB3x", 3, 1) +
     coords(1, count=12)),
    ("dpillar.truncated", ETH + hdr(5) + struct.pack("!IB3x", 3, 1) +
     coords(1, 2, 3)[:10]),
]


def main():
    out, expect = sys.argv[1], sys.argv[2]
    with open(out, "wb") as f, open(expect, "w") as e:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, (want, fr) in enumerate(FRAMES, 1):
            f.write(struct.pack("<IIII", i, 0, len(fr), len(fr)) + fr)
            e.write(f"{i} {want}\n")


if __name__ == "__main__":
    main()
