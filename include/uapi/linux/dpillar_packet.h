/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * dpillar wire format.  Every dpillar frame is
 *
 *   Ethernet header (ethertype DPILLAR_ETHERTYPE, 0x88B5)
 *   struct dpillar_hdr (20 bytes)
 *   payload: an IPv4/IPv6 packet (DATA) or struct dpillar_hello (HELLO)
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
	/* 3..255: reserved for later control messages */
};

/**
 * struct dpillar_hdr - the header after the Ethernet header
 * @version: DPILLAR_VERSION; frames of other versions are dropped
 * @type: enum dpillar_packet_type
 * @ttl: hops left; a relay drops the frame instead of sending it with 0.
 *	Routing is loop-free by construction: an expiry is a bug signal.
 * @flags: routing state of the topology (DPillar: helix direction,
 *	direction changed, ring reversed, ring direction, tunnels taken)
 * @proto: ethertype of the payload of a DATA frame (ETH_P_IP, ETH_P_IPV6)
 * @reserved: sent as zero, ignored on receive
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
	__be16 reserved;
	__be32 src;
	__be32 dst;
	__be32 waypoint;
} __attribute__((packed));

/**
 * struct dpillar_hello - payload of a HELLO frame
 * @port: the sender's port the Hello left by
 * @reserved: sent as zero, ignored on receive
 * @interval_ms: the sender's Hello interval
 */
struct dpillar_hello {
	__u8 port;
	__u8 reserved[3];
	__be32 interval_ms;
} __attribute__((packed));

#endif /* _UAPI_LINUX_DPILLAR_PACKET_H */
