// SPDX-License-Identifier: GPL-2.0
/*
 * The dpillar header's codec (hdr.h): the coordinates block a frame may
 * carry behind its header (struct dpillar_coords), written and read.
 * The bottom of the data plane with send.c: nothing here calls up into
 * the files that build on it.
 */

#include <linux/skbuff.h>

#include "dpillar.h"
#include "hdr.h"

/*
 * struct dpillar_coords on the wire, the one codec of every frame that
 * carries one (data, probes, shortcut discovery).  dp_coords_put() writes
 * @n (1 .. DP_COORDS_MAX) coordinates at @c, whose room the caller made
 * (struct_size(c, x, n) bytes).
 */
void dp_coords_put(struct dpillar_coords *c, const u32 *x, u32 n)
{
	u32 i;

	c->count = n;
	memset(c->reserved, 0, sizeof(c->reserved));
	for (i = 0; i < n; i++)
		c->x[i] = htonl(x[i]);
}

/*
 * Read the struct dpillar_coords at offset @off of @skb into @x and *@n
 * (dp_coords_read()), pulled into the linear area first, as far as the
 * block says it takes (skb->data may move).  Returns the bytes it takes,
 * or -1 when it is cut short or its count is 0 or above DP_COORDS_MAX;
 * whether the count fits the fabric is the caller's check.
 */
int dp_coords_pull(struct sk_buff *skb, unsigned int off, u32 *x, u32 *n)
{
	unsigned int need = sizeof(struct dpillar_coords);
	int len;

	*n = 0;
	for (;;) {
		if (!pskb_may_pull(skb, off + need))
			return -1;
		len = dp_coords_read((const struct dpillar_coords *)
				     (skb->data + off),
				     skb_headlen(skb) - off, x, n);
		if (len < 0 || (unsigned int)len <= skb_headlen(skb) - off)
			return len;
		need = len;
	}
}
EXPORT_SYMBOL_IF_KUNIT(dp_coords_pull);

/*
 * Read the coordinates a routed frame carries behind its header (struct
 * dpillar_coords: the destination's, S2 plan mode) into @st, once
 * dp_coords_rx() found the topology's coordinates flag (struct
 * dp_topo_coords_ext.flag, dp_topo_coords_flag()) set in the header at
 * skb->data (pulled).  Returns the bytes they take, or -1 for a
 * malformed frame: truncated, or a count no fabric has.  Whether the
 * count fits this fabric is routing's check (no_coords).
 */
int __dp_coords_rx(const struct dp_topo *t, struct sk_buff *skb,
		   struct dp_route_state *st)
{
	u32 n;
	int len;

	st->ncoords = 0;
	len = dp_coords_pull(skb, DP_HDR_LEN, st->coords, &n);
	st->ncoords = n;
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(__dp_coords_rx);

/*
 * Put @st's coordinates in front of the payload at skb->data, where the
 * header goes next; nothing when it has none.  The caller made the room
 * (skb_cow_head()).
 */
bool dp_coords_push(struct sk_buff *skb, const struct dp_route_state *st)
{
	struct dpillar_coords *c;

	if (!st->ncoords)
		return true;
	if (st->ncoords > DP_COORDS_MAX ||
	    skb_headroom(skb) < struct_size(c, x, st->ncoords))
		return false;
	c = skb_push(skb, struct_size(c, x, st->ncoords));
	dp_coords_put(c, st->coords, st->ncoords);
	return true;
}
