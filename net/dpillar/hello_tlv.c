// SPDX-License-Identifier: GPL-2.0
/*
 * The TLVs of a Hello (hello_tlv.h): shared, unchanged, by the kernel
 * module and the userspace fuzz targets (tools/fuzz).
 */

#include "hello_tlv.h"

#define DP_TLV_HDR	4	/* sizeof(struct dpillar_tlv) */

/*
 * The wire's big-endian fields, read byte by byte: TLVs are 4-aligned in
 * the frame, not in memory.
 */
static u16 dp_be16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static u32 dp_be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

/*
 * A TLV of 1..@max big-endian u32s into @out; false for an empty one, a
 * length that is not a multiple of 4 or too many values.
 */
static bool dp_tlv_u32s(const u8 *v, u32 vlen, u32 max, u32 *out, u8 *n)
{
	u32 i;

	if (vlen % sizeof(u32) || vlen / sizeof(u32) > max)
		return false;
	for (i = 0; i < vlen / sizeof(u32); i++)
		out[i] = dp_be32(v + i * sizeof(u32));
	*n = i;
	return true;
}

static u32 dp_tlv_align(u32 len)
{
	return (len + DPILLAR_TLV_ALIGN - 1) & ~(u32)(DPILLAR_TLV_ALIGN - 1);
}

u32 dp_hello_neigh_coord(const struct dp_hello_info *hi, u32 i, u32 c)
{
	return dp_be32(hi->neigh_coords + (i * hi->ncoords + c) * sizeof(u32));
}
EXPORT_SYMBOL_IF_KUNIT(dp_hello_neigh_coord);

/*
 * Parse the TLVs of a Hello (@len bytes at @tlv) into @hi.  False, for a
 * counted drop of the whole Hello, when a TLV runs past @len, a known type
 * has the wrong length or comes twice; unknown types are skipped, so that
 * a later version can add fields.  The last TLV needs no padding.
 * DPILLAR_TLV_NEIGH_COORDS must hold exactly the coordinates of the ids
 * listed (DPILLAR_TLV_COORDS' count each), whatever the TLVs' order.
 */
bool dp_hello_parse(const u8 *tlv, u32 len, struct dp_hello_info *hi)
{
	u32 off = 0, nc_len = 0;

	memset(hi, 0, sizeof(*hi));
	if (len > DPILLAR_HELLO_TLV_MAX)
		return false;
	while (off < len) {
		/* struct dpillar_tlv, by bytes: type, then length. */
		const u8 *t = tlv + off, *v;
		u32 vlen;

		if (len - off < DP_TLV_HDR)
			return false;
		vlen = dp_be16(t + 2);
		if (vlen > len - off - DP_TLV_HDR)
			return false;
		v = t + DP_TLV_HDR;
		switch (dp_be16(t)) {
		case DPILLAR_TLV_PORTS_UP:
			if (vlen != sizeof(u32) || hi->has_ports_up)
				return false;
			hi->ports_up = dp_be32(v);
			hi->has_ports_up = true;
			break;
		case DPILLAR_TLV_COORDS:
			/* at least one coordinate */
			if (!vlen || hi->ncoords ||
			    !dp_tlv_u32s(v, vlen, DPILLAR_TLV_COORDS_MAX,
					 hi->coords, &hi->ncoords))
				return false;
			break;
		case DPILLAR_TLV_NEIGHS:
			/* may be empty: a node that hears nobody yet */
			if (hi->has_neighs ||
			    !dp_tlv_u32s(v, vlen, DPILLAR_TLV_NEIGHS_MAX,
					 hi->neighs, &hi->nneighs))
				return false;
			hi->has_neighs = true;
			break;
		case DPILLAR_TLV_NEIGH_COORDS:
			if (hi->neigh_coords)
				return false;
			hi->neigh_coords = v;
			nc_len = vlen;	/* checked once every count is known */
			break;
		default:
			break;
		}
		off += dp_tlv_align(DP_TLV_HDR + vlen);
	}
	/* At most DPILLAR_TLV_NEIGHS_MAX x DPILLAR_TLV_COORDS_MAX values. */
	return !hi->neigh_coords ||
	       nc_len == (u32)hi->nneighs * hi->ncoords * sizeof(u32);
}
EXPORT_SYMBOL_IF_KUNIT(dp_hello_parse);
