/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Coordinate resolution for S2 plan mode (Documentation/networking/
 * dpillar-design.rst, "Resolving coordinates (plan mode)").  A plan-mode node
 * cannot derive another node's coordinates from its id, yet every frame it
 * sends carries its destination's.  dp_coords_lookup() answers from what is
 * known here: our own coordinates, those of the live 1-hop and 2-hop
 * neighbours (their Hellos, through the routing view), then a small cache of
 * coordinates learned from shortcut discoveries (shortcut.c).  On a miss the
 * sender's dp_sc_coords_route() (shortcut.c) floods a SHORTCUT_PROBE for
 * the node: the probe carries our coordinates and the node's reply its own,
 * which every server the reply crosses caches.
 *
 * The cache holds DP_COORDS_CACHE entries whatever the fabric's size: an
 * entry unused for DP_COORDS_IDLE_MS is forgotten, and a new one takes the
 * place of the least recently used.  What the wire teaches may be forged
 * (any neighbour can send a probe naming any origin), so an entry is
 * confirmed again once it is DP_COORDS_REFRESH_MS old: the first send
 * that finds it that old uses it and starts a resolution in the
 * background (whose reply replaces it), and from that send on it has
 * DP_COORDS_LIFE_MS - DP_COORDS_REFRESH_MS for the reply to come, else it
 * is gone.  An entry that is not sent to waits for its next send: what
 * this node used a moment ago is still there when it sends again, within
 * DP_COORDS_IDLE_MS.  Only a sender that may resolve (a packet of this
 * host, a probe, an administrator's lookup) counts as a use: a reader
 * cannot keep an entry it would not refresh.  A probe's coordinates only
 * fill a free place, never replace a live entry (a reply's do), and are
 * due for their confirmation from their learning: used or not, they are
 * gone DP_COORDS_LIFE_MS - DP_COORDS_REFRESH_MS later unless a reply
 * replaced them.
 */
#ifndef _DPILLAR_COORDS_H
#define _DPILLAR_COORDS_H

#include <linux/spinlock.h>
#include <linux/types.h>

#include "topo.h"

#define DP_COORDS_CACHE		128	/* coordinates cached per device */
#define DP_COORDS_IDLE_MS	60000	/* an entry unused this long is gone */
#define DP_COORDS_LIFE_MS	30000	/* refresh due + the wait for its reply */
#define DP_COORDS_REFRESH_MS	20000	/* resolved again when used this old */
#define DP_COORDS_BUCKETS	64	/* hash chains (power of two) */
#define DP_COORDS_NIL		0xff	/* end of a chain, a free slot's link */

/**
 * struct dp_coords_ent - one cached node's coordinates
 * @node: the node; DP_NODE_NONE when the slot is free
 * @n: coordinates in @x (the device's spaces when it was learned)
 * @next: the next slot of @node's hash chain, DP_COORDS_NIL at the end
 * @due: its confirmation is due (a probe's from its learning, a reply's
 *	from the first send that found it DP_COORDS_REFRESH_MS old): it is
 *	gone at @expires unless a reply replaces it
 * @used: jiffies of the last send that found it, or of its learning
 * @learned: jiffies of its learning: lookups leave it alone
 * @expires: jiffies when it is gone, when @due
 * @x: the coordinates, host order
 */
struct dp_coords_ent {
	u32 node;
	u8 n;
	u8 next;
	bool due;
	unsigned long used;
	unsigned long learned;
	unsigned long expires;
	u32 x[DP_COORDS_MAX];
};

/*
 * The cache: a fixed array, its slots chained by the hash of their node
 * (@head), so that a lookup on the transmit path reads one short chain.
 */
struct dp_coords_cache {
	spinlock_t lock;	/* everything below */
	u8 head[DP_COORDS_BUCKETS];
	struct dp_coords_ent ent[DP_COORDS_CACHE];
};

struct dp_priv;

void dp_coords_init(struct dp_priv *dp);
void dp_coords_stop(struct dp_priv *dp);
bool dp_coords_lookup(struct dp_priv *dp, u32 node, u32 *x);
void dp_coords_learn(struct dp_priv *dp, u32 node, const u32 *x, u32 n,
		     bool replace);
bool dp_coords_find_any(struct dp_priv *dp, u32 node, u32 *x, bool use,
			bool *refresh);
bool dp_coords_cached(struct dp_priv *dp, u32 node, u32 *x);

#endif /* _DPILLAR_COORDS_H */
