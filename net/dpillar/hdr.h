/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The dpillar header of a frame (hdr.c, the header's codec): the
 * coordinates block behind it, and the routing state it carries, read
 * into a struct dp_route_state (dp_hdr_state()) and written back
 * (dp_hdr_set_state()).  For the files that receive and route frames.
 */
#ifndef _DPILLAR_HDR_H
#define _DPILLAR_HDR_H

#include <linux/skbuff.h>

#include "dpillar.h"

/* struct dpillar_coords on the wire (data, probes, shortcut discovery). */
void dp_coords_put(struct dpillar_coords *c, const u32 *x, u32 n);
int dp_coords_pull(struct sk_buff *skb, unsigned int off, u32 *x, u32 *n);
int __dp_coords_rx(const struct dp_topo *t, struct sk_buff *skb,
		   struct dp_route_state *st);
bool dp_coords_push(struct sk_buff *skb, const struct dp_route_state *st);

/*
 * What every relayed frame passes through, inline (dpillar-evaluation.rst,
 * "The relay data path by the wall clock": under TCG each call and return
 * is a translation-block lookup, and these were a tenth of a relay hop's
 * own samples in the profiles of DPILLAR_ICOUNT=off make bench).
 */

/**
 * dp_coords_read - read a coordinates block in the linear area
 * @c: the block (struct dpillar_coords), @avail bytes of it linear
 * @avail: the bytes at @c that may be read
 * @x: its coordinates, host order (up to DP_COORDS_MAX)
 * @n: how many
 *
 * The one reader of struct dpillar_coords on the wire: the receive
 * path's, inline (dp_coords_rx()), and dp_coords_pull()'s, which pulls
 * the bytes it says it needs first.  Whether the count fits the fabric
 * is the caller's check.
 *
 * Return: the bytes the block takes; read (into @x and *@n) when it is
 * at most @avail, else the bytes to pull before reading it again; -1
 * when its count is 0 or above DP_COORDS_MAX.
 */
static inline int dp_coords_read(const struct dpillar_coords *c,
				 unsigned int avail, u32 *x, u32 *n)
{
	unsigned int len;
	u32 i, count;

	if (avail < sizeof(*c))
		return sizeof(*c);
	count = c->count;
	if (!count || count > DP_COORDS_MAX)
		return -1;
	len = struct_size(c, x, count);
	if (len > avail)
		return len;
	for (i = 0; i < count; i++)
		x[i] = ntohl(c->x[i]);
	*n = count;
	return len;
}

/*
 * __dp_coords_rx(), with its test of the header's flag inline: a frame
 * without coordinates (every topology but S2 in plan mode) makes no call,
 * and neither does one whose block is in the linear area already
 * (dp_coords_read(); __dp_coords_rx() pulls it in otherwise).
 */
static inline int dp_coords_rx(const struct dp_topo *t, struct sk_buff *skb,
			       struct dp_route_state *st)
{
	const struct dpillar_hdr *h = (const struct dpillar_hdr *)skb->data;
	unsigned int avail;
	int len;
	u32 n;

	if (likely(!(h->flags & dp_topo_coords_flag(t)))) {
		st->ncoords = 0;
		return 0;
	}
	avail = skb_headlen(skb) - DP_HDR_LEN;
	len = dp_coords_read((const struct dpillar_coords *)(h + 1), avail,
			     st->coords, &n);
	if (len < 0 || (unsigned int)len > avail)
		return __dp_coords_rx(t, skb, st);
	st->ncoords = n;
	return len;
}

/**
 * dp_hdr_state - the routing state a received frame's header carries
 * @t: the fabric
 * @skb: the frame, its dpillar header at skb->data (pulled)
 * @st: filled: the destination, waypoint, flags, routing word and the
 *      coordinates behind the header (dp_coords_rx())
 *
 * The one reading of a header into a struct dp_route_state, for every
 * frame a node routes on (a relayed data frame, a probe); the reverse is
 * dp_hdr_set_state().  skb->data may move (the coordinates are pulled).
 *
 * Return: as dp_coords_rx(): the bytes of the coordinates, 0, or -1 for
 * a malformed frame.
 */
static inline int dp_hdr_state(const struct dp_topo *t, struct sk_buff *skb,
			       struct dp_route_state *st)
{
	int ext = dp_coords_rx(t, skb, st);
	const struct dpillar_hdr *h = (const struct dpillar_hdr *)skb->data;

	st->dst = ntohl(h->dst);
	st->waypoint = ntohl(h->waypoint);
	st->flags = h->flags;
	st->word = ntohs(h->rword);
	return ext;
}

/*
 * Write @st's routing fields (what a hop may change) into the header at
 * skb->data, which the caller made private (skb_cow_head()).
 */
static inline void dp_hdr_set_state(struct sk_buff *skb,
				    const struct dp_route_state *st)
{
	struct dpillar_hdr *h = (struct dpillar_hdr *)skb->data;

	h->flags = st->flags;
	h->rword = htons(st->word);
	h->waypoint = htonl(st->waypoint);
}

#endif /* _DPILLAR_HDR_H */
