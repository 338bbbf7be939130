// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_hello: the Hello TLV parser (net/dpillar/hello_tlv.c) on any bytes,
 * as dp_hello_rcv() calls it: the Hello's tlv_len field (the first two
 * input bytes) says how many TLV bytes follow, and only a Hello that
 * carries them all gets parsed.  The TLVs are copied to a buffer of
 * exactly that size, so that ASan sees any read past them.  The result
 * is compared with a second, naive parser written from the wire format's
 * description (include/uapi/linux/dpillar_packet.h).
 */
#include "fuzz.h"
#include "hello_tlv.h"

/* The reference: the format's rules, one by one, nothing clever. */
static bool ref_parse(const u8 *b, size_t len, struct dp_hello_info *hi)
{
	size_t off = 0, nc_len = 0;

	memset(hi, 0, sizeof(*hi));
	if (len > DPILLAR_HELLO_TLV_MAX)
		return false;
	while (off < len) {
		size_t type, vlen, total;

		if (off + 4 > len)
			return false;		/* a TLV header cut short */
		type = (size_t)b[off] << 8 | b[off + 1];
		vlen = (size_t)b[off + 2] << 8 | b[off + 3];
		if (off + 4 + vlen > len)
			return false;		/* a value past the end */
		if (type == DPILLAR_TLV_PORTS_UP) {
			if (vlen != 4 || hi->has_ports_up)
				return false;
			hi->ports_up = (u32)b[off + 4] << 24 |
				       (u32)b[off + 5] << 16 |
				       (u32)b[off + 6] << 8 | b[off + 7];
			hi->has_ports_up = true;
		} else if (type == DPILLAR_TLV_COORDS ||
			   type == DPILLAR_TLV_NEIGHS) {
			bool co = type == DPILLAR_TLV_COORDS;
			size_t max = co ? DPILLAR_TLV_COORDS_MAX :
					  DPILLAR_TLV_NEIGHS_MAX;
			u32 *out = co ? hi->coords : hi->neighs;
			size_t i;

			if ((co && (!vlen || hi->ncoords)) ||
			    (!co && hi->has_neighs) || vlen % 4 ||
			    vlen / 4 > max)
				return false;
			for (i = 0; i < vlen / 4; i++)
				out[i] = (u32)b[off + 4 + 4 * i] << 24 |
					 (u32)b[off + 5 + 4 * i] << 16 |
					 (u32)b[off + 6 + 4 * i] << 8 |
					 b[off + 7 + 4 * i];
			if (co)
				hi->ncoords = (u8)(vlen / 4);
			else
				hi->nneighs = (u8)(vlen / 4);
			hi->has_neighs |= !co;
		} else if (type == DPILLAR_TLV_NEIGH_COORDS) {
			if (hi->neigh_coords)
				return false;	/* twice */
			hi->neigh_coords = b + off + 4;
			nc_len = vlen;
		}
		total = 4 + vlen;
		off += (total + 3) / 4 * 4;	/* padding to 4 */
	}
	/* One coordinate per space for each id listed, no more, no less. */
	if (hi->neigh_coords && nc_len != 4 * (size_t)hi->nneighs * hi->ncoords)
		return false;
	return true;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct dp_hello_info hi, ref;
	size_t tlv_len;
	bool ok, rok;
	u8 *buf;

	if (size < 2)
		return 0;
	tlv_len = (size_t)data[0] << 8 | data[1];
	/* dp_hello_rcv(): too long, or not all in the frame: dropped. */
	if (tlv_len > DPILLAR_HELLO_TLV_MAX || tlv_len > size - 2)
		return 0;
	buf = malloc(tlv_len ? tlv_len : 1);
	FZ_CHECK(buf);
	memcpy(buf, data + 2, tlv_len);
	ok = dp_hello_parse(buf, (u32)tlv_len, &hi);
	rok = ref_parse(buf, tlv_len, &ref);
	FZ_CHECK(ok == rok);
	if (ok) {
		FZ_CHECK(hi.has_ports_up == ref.has_ports_up);
		FZ_CHECK(hi.ports_up == ref.ports_up);
		FZ_CHECK(hi.has_ports_up || !hi.ports_up);
		FZ_CHECK(hi.ncoords == ref.ncoords &&
			 hi.nneighs == ref.nneighs &&
			 hi.has_neighs == ref.has_neighs);
		FZ_CHECK(!memcmp(hi.coords, ref.coords, sizeof(hi.coords)));
		FZ_CHECK(!memcmp(hi.neighs, ref.neighs, sizeof(hi.neighs)));
		FZ_CHECK(hi.neigh_coords == ref.neigh_coords);
		if (hi.neigh_coords) {
			const u8 *p = ref.neigh_coords;
			size_t i, c;

			for (i = 0; i < hi.nneighs; i++)
				for (c = 0; c < hi.ncoords; c++, p += 4)
					FZ_CHECK(dp_hello_neigh_coord(&hi, i, c) ==
						 ((u32)p[0] << 24 | (u32)p[1] << 16 |
						  (u32)p[2] << 8 | p[3]));
		}
	}
	/* Whatever the length passed in, never more than it is read. */
	ok = dp_hello_parse(buf, (u32)(size - 2 > tlv_len ? tlv_len : size - 2),
			    &hi);
	(void)ok;
	free(buf);
	return 0;
}
