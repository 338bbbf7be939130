/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * dpillar wire format.  Every dpillar frame is
 *
 *   Ethernet header (ethertype DPILLAR_ETHERTYPE, 0x88B5)
 *   struct dpillar_hdr (20 bytes)
 *   payload: an IPv4/IPv6 packet (DATA) or struct dpillar_hello (HELLO),
 *            then the Hello's TLVs
 *
 * All multi-byte fields are big-endian.  The header is a multiple of 4
 * bytes, so an IP header behind it keeps the alignment it has behind a
 * plain Ethernet header.
 */
#ifndef _UAPI_LINUX_DPILLAR_PACKET_H
#define _UAPI_LINUX_DPILLAR_PACKET_H

#include <linux/types.h>

#define DPILLAR_VERSION		1

/* Destination MAC of Hellos: a locally administered group address, which
 * bridges and ordinary switches flood (unlike 01:80:C2:00:00:0x).
 */
#define DPILLAR_HELLO_MAC	{ 0x03, 0x44, 0x50, 0x00, 0x00, 0x01 }

#define DPILLAR_NODE_NONE	0xffffffffU

enum dpillar_packet_type {
	DPILLAR_T_DATA = 1,	/* an IP packet in transit */
	DPILLAR_T_HELLO = 2,	/* neighbour discovery, never forwarded */
	/*
	 * A path probe (struct dpillar_probe after the header), routed
	 * exactly like a DATA frame with the same routing state: the server
	 * where its TTL runs out, the one that cannot route it and its
	 * destination each answer with a PROBE_REPLY to its source, routed
	 * like data.  A PROBE_REPLY is never answered.
	 */
	DPILLAR_T_PROBE = 3,
	DPILLAR_T_PROBE_REPLY = 4,
	/*
	 * S2's shortcut discovery (struct dpillar_shortcut after the
	 * header), sent hop by hop, never routed.  A server where greedy
	 * routing toward @dst is stuck (a local minimum) floods a
	 * SHORTCUT_PROBE (@src: itself, @dst: the destination, @rword: its
	 * sequence number) to its live neighbours, each of which passes
	 * the first copy on.  The destination answers the first copy with
	 * a SHORTCUT_REPLY (@src: itself, @dst: the prober), sent back
	 * along the probe's way; every server it crosses learns a shortcut
	 * toward the destination.
	 */
	DPILLAR_T_SHORTCUT_PROBE = 5,
	DPILLAR_T_SHORTCUT_REPLY = 6,
	/*
	 * A DATA frame that follows discovered shortcuts (the fallback of
	 * the topologies that have no discovery of their own, where their
	 * routing gives up): @flags 0, @waypoint DPILLAR_NODE_NONE, @rword
	 * the most hops it may still take after the one it is on.  Each
	 * server forwards it along a shortcut of its own no longer than
	 * that and writes the shortcut's length less one, or drops it; so
	 * @rword strictly decreases and the frame cannot loop.  Its
	 * destination delivers it as DATA.
	 */
	DPILLAR_T_SHORTCUT_DATA = 7,
	/* 8..255: reserved for later control messages */
};

/**
 * struct dpillar_hdr - the header after the Ethernet header
 * @version: DPILLAR_VERSION; frames of other versions are dropped
 * @type: enum dpillar_packet_type
 * @ttl: hops left; a relay drops the frame instead of sending it with 0.
 *	Routing is loop-free by construction: an expiry is a bug signal.
 *	Where a topology's proven bound exceeds 255 hops (S2 above 255
 *	nodes) the topology's own state carries more: a relay renews the
 *	TTL from a count in @flags and @rword (S2: flag 0x40, one unit for
 *	254 hops) instead of dropping; nowhere else does the TTL change.
 * @flags: 8 bits of routing state owned by the topology (DPillar: helix
 *	direction, direction changed, ring reversed, ring direction,
 *	tunnels taken)
 * @proto: ethertype of the payload of a DATA frame (ETH_P_IP, ETH_P_IPV6)
 * @rword: 16 bits of routing state owned by the topology (a path word, a
 *	probe id); 0 where the topology has none.  The first version of the
 *	format sent zero here and ignored it on receive, so frames of either
 *	version are understood by both.
 * @src: node id of the sender
 * @dst: node id of the destination (DPILLAR_NODE_NONE in a Hello)
 * @waypoint: node id a detour is heading for, or DPILLAR_NODE_NONE.  A
 *	detour around a failure is not a second header: the frame is routed
 *	to the waypoint, which clears this field, then on toward @dst.
 */
struct dpillar_hdr {
	__u8 version;
	__u8 type;
	__u8 ttl;
	__u8 flags;
	__be16 proto;
	__be16 rword;
	__be32 src;
	__be32 dst;
	__be32 waypoint;
} __attribute__((packed));

/**
 * struct dpillar_hello - payload of a HELLO frame
 * @port: the sender's port the Hello left by
 * @reserved: sent as zero, ignored on receive
 * @tlv_len: bytes of TLVs after this struct (struct dpillar_tlv each).
 *	The first version sent zero here (a reserved field), so an 8-byte
 *	Hello has no TLVs; bytes past @tlv_len (Ethernet padding) are not
 *	TLVs.
 * @interval_ms: the sender's Hello interval
 */
struct dpillar_hello {
	__u8 port;
	__u8 reserved;
	__be16 tlv_len;
	__be32 interval_ms;
} __attribute__((packed));

/**
 * struct dpillar_tlv - one field of a Hello, after struct dpillar_hello
 * @type: enum dpillar_tlv_type
 * @len: bytes of value after this header; the next TLV starts at the
 *	next multiple of 4 (DPILLAR_TLV_ALIGN) from this TLV's start.
 *
 * A receiver skips types it does not know (silently, not counted), and
 * drops the whole Hello, counted as hello_bad, when a TLV runs past
 * @tlv_len, a known type has the wrong length or appears twice, or
 * @tlv_len exceeds DPILLAR_HELLO_TLV_MAX.  The last TLV needs no padding.
 */
struct dpillar_tlv {
	__be16 type;
	__be16 len;
} __attribute__((packed));

#define DPILLAR_TLV_ALIGN	4
#define DPILLAR_HELLO_TLV_MAX	1024	/* most TLV bytes a Hello may carry */
#define DPILLAR_TLV_COORDS_MAX	8	/* coordinates in DPILLAR_TLV_COORDS */
#define DPILLAR_TLV_NEIGHS_MAX	16	/* ids in DPILLAR_TLV_NEIGHS */

enum dpillar_tlv_type {
	/* __be32 bitmap: the sender's ports that are up (bit p = port p) */
	DPILLAR_TLV_PORTS_UP = 1,
	/* __be32 each: the sender's coordinates, one per space (S2) */
	DPILLAR_TLV_COORDS = 2,
	/*
	 * __be32 each: the node ids the sender hears now, in its port order
	 * (S2's 2-hop neighbours; at most DPILLAR_TLV_NEIGHS_MAX)
	 */
	DPILLAR_TLV_NEIGHS = 3,
	/*
	 * __be32 each: the coordinates of the nodes DPILLAR_TLV_NEIGHS
	 * lists, in its order, DPILLAR_TLV_COORDS' count per node (S2 plan
	 * mode, where a node cannot derive its 2-hop neighbours'
	 * coordinates from their ids)
	 */
	DPILLAR_TLV_NEIGH_COORDS = 4,
	/* 5..: reserved */
};

/**
 * struct dpillar_probe - payload of a PROBE and a PROBE_REPLY frame
 * @status: 0 in a PROBE; in a reply, enum dpillar_probe_status
 *	(<linux/dpillar.h>)
 * @reason: in a NOROUTE reply, the topology's routing drop reason
 *	(ethtool -S route_* order, from 1); else 0
 * @id: chosen by the prober, echoed.  Ids with DPILLAR_PROBE_ID_KERNEL
 *	set belong to in-kernel users (path selection), the others to
 *	netlink requests.
 * @seq: chosen by the prober, echoed
 * @ttl: the TTL the prober sent the probe with, echoed
 * @hops: in a reply, the hops the probe took to the reporter
 * @reporter: in a reply, the node id of the server that answered
 * @detours: servers (its source included) that routed the probe around
 *	a failure: a next hop other than the failure-free fabric's; echoed
 * @flags: DPILLAR_PROBE_F_*; the first version sent zero here (a reserved
 *	byte) and ignores it on receive, so such a server answers a probe
 *	asking for its neighbours without them
 * @reserved: sent as zero, ignored on receive
 * @stamp: the prober's own value, echoed.  Linux sends a random one per
 *	probe and takes a reply only when it echoes it (ids and sequence
 *	numbers are easy to guess).
 */
struct dpillar_probe {
	__u8 status;
	__u8 reason;
	__be16 id;
	__be16 seq;
	__u8 ttl;
	__u8 hops;
	__be32 reporter;
	__u8 detours;
	__u8 flags;
	__u8 reserved[2];
	__be64 stamp;
} __attribute__((packed));

#define DPILLAR_PROBE_ID_KERNEL	0x8000

/*
 * Probe flags.  NEIGHS in a PROBE: its destination, answering REACHED,
 * puts its neighbour table in the reply (struct dpillar_probe_neighs
 * after the probe and, in S2 plan mode, the sender's coordinates) and
 * sets NEIGHS in the reply.  Servers on the way, and the reporter of a
 * TTL or NOROUTE answer, ignore it.
 */
#define DPILLAR_PROBE_F_NEIGHS	0x01

/**
 * struct dpillar_probe_neigh - one entry of a reply's neighbour table
 * @port: the reporter's port it is heard on
 * @peer_port: the port the neighbour sends from
 * @state: DPILLAR_NEIGH_STATE_REACHABLE (a neighbour the topology puts
 *	there, alive) or DPILLAR_NEIGH_STATE_MISWIRED (the last node heard
 *	there that the topology does not put there, within the dead
 *	interval); <linux/dpillar.h>
 * @reserved: sent as zero, ignored on receive
 * @node: the neighbour's node id
 */
struct dpillar_probe_neigh {
	__u8 port;
	__u8 peer_port;
	__u8 state;
	__u8 reserved;
	__be32 node;
} __attribute__((packed));

/*
 * Entries in one reply at most: with the header, 8 + 8 * 128 bytes, which
 * fit a 1500-byte MTU behind every other part of a reply (S2 plan mode's
 * coordinates included).
 */
#define DPILLAR_PROBE_NEIGHS_MAX	128
/* struct dpillar_probe_neighs.flags: the table had more entries. */
#define DPILLAR_PROBE_NEIGHS_TRUNC	0x01

/**
 * struct dpillar_probe_neighs - a destination's neighbour table, in a reply
 * @nports: the reporter's ports
 * @count: entries that follow (at most DPILLAR_PROBE_NEIGHS_MAX)
 * @flags: DPILLAR_PROBE_NEIGHS_TRUNC
 * @reserved: sent as zero, ignored on receive
 * @ports_up: bit p: the reporter's port p is bound and has carrier
 * @n: @count entries, in port order
 *
 * A receiver drops the reply (counted as a short frame) when @count
 * entries do not fit the frame or exceed DPILLAR_PROBE_NEIGHS_MAX.
 */
struct dpillar_probe_neighs {
	__u8 nports;
	__u8 count;
	__u8 flags;
	__u8 reserved;
	__be32 ports_up;
	struct dpillar_probe_neigh n[];
} __attribute__((packed));

/**
 * struct dpillar_shortcut - payload of the SHORTCUT_PROBE and REPLY frames
 * @sender: node id of the server that sent this copy (the previous hop)
 * @hops: in a probe, the hops it took from the prober; in a reply, the
 *	hops from its sender to the destination (1 when the destination
 *	sent it)
 * @reserved: sent as zero, ignored on receive
 */
struct dpillar_shortcut {
	__be32 sender;
	__u8 hops;
	__u8 reserved[3];
} __attribute__((packed));

/**
 * struct dpillar_coords - a node's coordinates carried in a frame
 * @count: coordinates that follow (1..DPILLAR_TLV_COORDS_MAX)
 * @reserved: sent as zero, ignored on receive
 * @x: @count coordinates, one per space
 *
 * S2 plan mode, where no node can derive another's coordinates from its
 * id: a DATA, PROBE or PROBE_REPLY frame whose header flags carry the
 * topology's "coordinates follow" bit (S2: 0x20) has the destination's
 * coordinates here, between struct dpillar_hdr and the payload.  After
 * struct dpillar_shortcut: the prober's coordinates in a SHORTCUT_PROBE,
 * the destination's in a SHORTCUT_REPLY.
 */
struct dpillar_coords {
	__u8 count;
	__u8 reserved[3];
	__be32 x[];
} __attribute__((packed));

#endif /* _UAPI_LINUX_DPILLAR_PACKET_H */
