/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hello_tlv.h - the parser of a Hello's TLVs (struct dpillar_tlv), the
 * one part of the Hello that a hostile frame controls byte by byte.  Like
 * the topology core it builds in the kernel and in userspace (portable.h),
 * so that tools/fuzz runs it under libFuzzer.
 */
#ifndef _DP_HELLO_TLV_H
#define _DP_HELLO_TLV_H

#include "portable.h"
#include <linux/dpillar_packet.h>

/* The TLVs of a Hello, parsed (dp_hello_parse()). */
struct dp_hello_info {
	u32 ports_up;
	bool has_ports_up;
	u8 ncoords;		/* DPILLAR_TLV_COORDS: 0 when absent */
	u8 nneighs;		/* DPILLAR_TLV_NEIGHS */
	bool has_neighs;
	u32 coords[DPILLAR_TLV_COORDS_MAX];
	u32 neighs[DPILLAR_TLV_NEIGHS_MAX];
	/*
	 * DPILLAR_TLV_NEIGH_COORDS: @nneighs x @ncoords big-endian u32s
	 * (the listed ids' coordinates, in their order) at @neigh_coords,
	 * inside the parsed buffer: not copied, to keep this struct small on
	 * the receive path's stack (up to 512 bytes).  NULL when absent.
	 */
	const u8 *neigh_coords;
};

/* Coordinate @c of entry @i of @hi's DPILLAR_TLV_NEIGH_COORDS. */
u32 dp_hello_neigh_coord(const struct dp_hello_info *hi, u32 i, u32 c);

/*
 * Parse @len bytes of TLVs at @tlv into @hi; false when the Hello must be
 * dropped (see hello_tlv.c).
 */
bool dp_hello_parse(const u8 *tlv, u32 len, struct dp_hello_info *hi);

#endif /* _DP_HELLO_TLV_H */
