/* SPDX-License-Identifier: GPL-2.0 */
/*
 * topo_walk.h - failure sets and a packet walker over the routing core:
 * the one copy of the test oracle that dpsim and the KUnit tests share.
 *
 * A failure set is two caller-allocated bitmaps (dp_fail_bytes()): failed
 * nodes, and failed node-port links.  Its view (dp_fail_view()) answers
 * routing the way a Hello table would in a fabric with those failures.
 * The walker routes one packet hop by hop, as the relays would, and
 * checks every hop against the wiring and the failures.
 */
#ifndef _DP_TOPO_WALK_H
#define _DP_TOPO_WALK_H

#include "topo.h"

struct dp_fail_set {
	const struct dp_topo *t;
	u8 *node;		/* bit per node id */
	u8 *link;		/* bit per (id * t->nports + port) */
	u32 nfailed;
	u32 nlinks;
};

/* Bytes of the @node and @link bitmaps for @t. */
size_t dp_fail_node_bytes(const struct dp_topo *t);
size_t dp_fail_link_bytes(const struct dp_topo *t);
/* Use @node and @link (zeroed here) as the failure set of @t. */
void dp_fail_init(struct dp_fail_set *fs, const struct dp_topo *t, u8 *node,
		  u8 *link);
void dp_fail_clear(struct dp_fail_set *fs);
bool dp_fail_node(const struct dp_fail_set *fs, u32 id);
bool dp_fail_link(const struct dp_fail_set *fs, u32 id, u32 port);
void dp_fail_set_node(struct dp_fail_set *fs, u32 id);
void dp_fail_set_link(struct dp_fail_set *fs, u32 id, u32 port);
/* struct dp_view.reachable over a failure set (ctx: the set). */
bool dp_fail_reachable(const void *ctx, u32 self, u32 port, u32 peer);
/*
 * A full view of the set: reachable, cable_peer, ports_up, peer_neighs,
 * and the coordinate questions from the fabric's table where it has one.
 */
void dp_fail_view(const struct dp_fail_set *fs, struct dp_view *v);

struct dp_walk {
	bool delivered;
	bool looped;		/* TTL expired */
	bool bad_hop;		/* hop to a non-neighbour or a failed element */
	u8 reason;		/* drop reason when not delivered */
	u32 hops;
	u32 detours[DP_DETOUR_SLOTS];	/* hops per detour slot */
	u32 *path;		/* optional: nodes visited, src first */
	u8 *phase;		/* optional: phase of hop i (path[i]->path[i+1]) */
	u32 path_max;		/* capacity of path/phase */
	u32 path_len;
	struct dp_route_state st;	/* the state after the last hop */
};

/*
 * Route one packet from @src to @dst as the relays would, at most @ttl
 * hops, and, when @ttl is at most t->max_hops, within the header's TTL as
 * the relays spend and renew it (dp_ttl_relay(): the sender's
 * dp_topo_ttl(), one less a relay): a frame whose TTL runs out is
 * "looped" too.  @fs == NULL: failure-free routing, else routing with the set's
 * view.  @sel, @hash: as dp_route_init().
 */
void dp_walk(const struct dp_topo *t, u32 src, u32 dst, u32 sel, u32 hash,
	     const struct dp_fail_set *fs, u32 ttl, struct dp_walk *w);

#endif /* _DP_TOPO_WALK_H */
