// SPDX-License-Identifier: GPL-2.0
/*
 * topo_walk.c - failure sets and the packet walker (topo_walk.h).  Built
 * into dpsim and into the KUnit test module, never into dpillar.ko.
 */
#include "topo_walk.h"

/*
 * A fabric whose table (t->table: S2 plan mode) the tools and tests have
 * and the kernel never does.  The topology answers the cabling from it
 * (port_neigh(), peer_port()) and the coordinates (the coordinates
 * extension's table, dp_table_coords()): the walker's view answers the
 * coordinates as the Hello tables would, and the hops are checked
 * against its cabling.
 */
static bool dp_walk_table(const struct dp_topo *t)
{
	return t->table && t->ops->coords && t->ops->coords->table;
}

/* The node cabled to port @port of @id (entry @idx of its list). */
static u32 dp_walk_neigh(const struct dp_topo *t, u32 id, u32 port, u32 idx)
{
	return dp_port_neigh(t, id, port, idx);
}

/* The port of @peer that @id's port @port is cabled to, or -1. */
static int dp_walk_peer_port(const struct dp_topo *t, u32 id, u32 port,
			     u32 peer)
{
	return dp_peer_port(t, id, port, peer);
}

/* Entries of @id's port @port: the table's one cable, or the topology's. */
static u32 dp_walk_nneigh(const struct dp_topo *t, u32 id, u32 port)
{
	struct dp_port_info pi;

	if (dp_walk_table(t))
		return 1;
	dp_port_info(t, id, port, &pi);
	return pi.nneigh;
}

size_t dp_fail_node_bytes(const struct dp_topo *t)
{
	return ((size_t)t->nodes + 7) / 8;
}

size_t dp_fail_link_bytes(const struct dp_topo *t)
{
	return ((size_t)t->nodes * t->nports + 7) / 8;
}

void dp_fail_init(struct dp_fail_set *fs, const struct dp_topo *t, u8 *node,
		  u8 *link)
{
	fs->t = t;
	fs->node = node;
	fs->link = link;
	dp_fail_clear(fs);
}

void dp_fail_clear(struct dp_fail_set *fs)
{
	memset(fs->node, 0, dp_fail_node_bytes(fs->t));
	memset(fs->link, 0, dp_fail_link_bytes(fs->t));
	fs->nfailed = 0;
	fs->nlinks = 0;
}

bool dp_fail_node(const struct dp_fail_set *fs, u32 id)
{
	if (!fs->node)
		return false;	/* a set without bitmaps: nothing failed */
	return fs->node[id >> 3] & (1U << (id & 7));
}

static u64 dp_fail_link_bit(const struct dp_fail_set *fs, u32 id, u32 port)
{
	return (u64)id * fs->t->nports + port;
}

bool dp_fail_link(const struct dp_fail_set *fs, u32 id, u32 port)
{
	u64 b = dp_fail_link_bit(fs, id, port);

	if (!fs->link)
		return false;
	return fs->link[b >> 3] & (1U << (b & 7));
}

void dp_fail_set_node(struct dp_fail_set *fs, u32 id)
{
	if (!dp_fail_node(fs, id)) {
		fs->node[id >> 3] |= (u8)(1U << (id & 7));
		fs->nfailed++;
	}
}

void dp_fail_set_link(struct dp_fail_set *fs, u32 id, u32 port)
{
	u64 b = dp_fail_link_bit(fs, id, port);

	if (!dp_fail_link(fs, id, port)) {
		fs->link[b >> 3] |= (u8)(1U << (b & 7));
		fs->nlinks++;
	}
}

bool dp_fail_reachable(const void *ctx, u32 self, u32 port, u32 peer)
{
	const struct dp_fail_set *fs = ctx;
	int pp;

	if (!dp_addr_valid(fs->t, peer) || dp_fail_node(fs, peer) ||
	    dp_fail_link(fs, self, port))
		return false;
	pp = dp_walk_peer_port(fs->t, self, port, peer);
	return pp >= 0 && !dp_fail_link(fs, peer, (u32)pp);
}

/* The computed peer of a cable, if it is alive and the cable is up. */
static u32 dp_fail_cable_peer(const void *ctx, u32 self, u32 port)
{
	const struct dp_fail_set *fs = ctx;
	u32 peer = dp_walk_neigh(fs->t, self, port, 0);
	struct dp_port_info pi;

	dp_port_info(fs->t, self, port, &pi);
	if ((pi.kind != DP_PORT_CABLE && !dp_walk_table(fs->t)) ||
	    !dp_fail_reachable(fs, self, port, peer))
		return DP_NODE_NONE;
	return peer;
}

/* Does @id reach any neighbour through its port @port? */
static bool dp_fail_port_works(const struct dp_fail_set *fs, u32 id, u32 port)
{
	u32 i, nb, nn;

	if (dp_fail_link(fs, id, port))
		return false;
	nn = dp_walk_nneigh(fs->t, id, port);
	for (i = 0; i < nn; i++) {
		nb = dp_walk_neigh(fs->t, id, port, i);
		if (nb != DP_NODE_NONE && dp_fail_reachable(fs, id, port, nb))
			return true;
	}
	return false;
}

/*
 * What a live neighbour would report, as the kernel's Hello does: its
 * ports whose link is up and on which it hears some neighbour.
 */
static bool dp_fail_ports_up(const void *ctx, u32 self, u32 port, u32 peer,
			     u32 *mask)
{
	const struct dp_fail_set *fs = ctx;
	u32 p;

	if (!dp_fail_reachable(fs, self, port, peer))
		return false;
	*mask = 0;
	for (p = 0; p < fs->t->nports; p++)
		if (dp_fail_port_works(fs, peer, p))
			*mask |= 1U << p;
	return true;
}

/* A live neighbour's own live neighbours, port by port. */
static u32 dp_fail_peer_neighs(const void *ctx, u32 self, u32 port, u32 peer,
			       u32 *ids, u32 max)
{
	const struct dp_fail_set *fs = ctx;
	u32 p, i, nb, nn, n = 0;

	if (!dp_fail_reachable(fs, self, port, peer))
		return 0;
	for (p = 0; p < fs->t->nports; p++) {
		nn = dp_walk_nneigh(fs->t, peer, p);
		for (i = 0; i < nn && n < max; i++) {
			nb = dp_walk_neigh(fs->t, peer, p, i);
			if (nb != DP_NODE_NONE &&
			    dp_fail_reachable(fs, peer, p, nb))
				ids[n++] = nb;
		}
	}
	return n;
}

/*
 * Plan mode: self's own coordinates, or those a live neighbour on @port
 * sent in its Hello (as the failures allow: none from a failed one).
 */
static u32 dp_fail_coords(const void *ctx, u32 self, u32 port, u32 node,
			  u32 *x, u32 max)
{
	const struct dp_fail_set *fs = ctx;

	if (self >= fs->t->nodes)
		return 0;
	if (node != self && (port >= fs->t->nports ||
			     dp_walk_neigh(fs->t, self, port, 0) != node ||
			     !dp_fail_reachable(fs, self, port, node)))
		return 0;
	return dp_table_coords(fs->t, node, x, max);
}

/* The coordinates of entry @idx of dp_fail_peer_neighs()'s list. */
static u32 dp_fail_peer_neigh_coords(const void *ctx, u32 self, u32 port,
				     u32 peer, u32 idx, u32 *x, u32 max)
{
	const struct dp_fail_set *fs = ctx;
	u32 ids[DP_MAX_PORTS], n;

	n = dp_fail_peer_neighs(fs, self, port, peer, ids, DP_MAX_PORTS);
	if (idx >= n)
		return 0;
	return dp_table_coords(fs->t, ids[idx], x, max);
}

/* The walker's coordinate questions, answered from the table. */
static const struct dp_view_coords dp_fail_view_coords = {
	.node_coords = dp_fail_coords,
	.peer_neigh_coords = dp_fail_peer_neigh_coords,
};

void dp_fail_view(const struct dp_fail_set *fs, struct dp_view *v)
{
	memset(v, 0, sizeof(*v));
	v->reachable = dp_fail_reachable;
	v->cable_peer = dp_fail_cable_peer;
	v->ports_up = dp_fail_ports_up;
	v->peer_neighs = dp_fail_peer_neighs;
	if (dp_walk_table(fs->t))
		v->coords = &dp_fail_view_coords;
	v->ctx = fs;
}

/* Is @hop a real, live neighbour of @self on the port it names? */
static bool dp_walk_hop_ok(const struct dp_topo *t, u32 self,
			   const struct dp_hop *hop,
			   const struct dp_fail_set *fs)
{
	if (hop->port >= t->nports)
		return false;
	if (dp_walk_table(t)) {
		if (dp_walk_neigh(t, self, hop->port, 0) != hop->next)
			return false;	/* not the table's cabling */
	} else if (dp_port_neigh_index(t, self, hop->port, hop->next) < 0) {
		return false;
	}
	return !fs || dp_fail_reachable(fs, self, hop->port, hop->next);
}

void dp_walk(const struct dp_topo *t, u32 src, u32 dst, u32 sel, u32 hash,
	     const struct dp_fail_set *fs, u32 ttl, struct dp_walk *w)
{
	bool table = dp_walk_table(t);
	struct dp_fail_set none = { .t = t };
	struct dp_view view;
	struct dp_hop hop;
	u32 self = src;
	u8 slot, wire;

	w->delivered = false;
	w->looped = false;
	w->bad_hop = false;
	w->reason = DP_DROP_ROUTE_NONE;
	w->hops = 0;
	memset(w->detours, 0, sizeof(w->detours));
	w->path_len = 0;
	if (w->path && w->path_max)
		w->path[w->path_len++] = src;
	/* plan mode learns everything from the view: one, even failure-free */
	if (!fs && table)
		fs = &none;
	if (fs)
		dp_fail_view(fs, &view);
	dp_route_init(t, src, dst, sel, hash, &w->st);
	if (table && dst < t->nodes) {
		u32 x[DP_COORDS_MAX];

		/* the sender's coordinate resolution (kernel coords.c) */
		dp_route_set_coords(t, &w->st, x,
				    dp_table_coords(t, dst, x, DP_COORDS_MAX));
	}
	/*
	 * The header's TTL, as the sender sets it and each relay spends and
	 * renews it, unless the caller asks for more hops than the proven
	 * bound (to check the routing's own bound, with no TTL to hide a
	 * loop).  Up to DP_TTL_MAX the TTL is the bound: it changes nothing.
	 */
	wire = (u8)dp_topo_ttl(t);
	while (self != dst) {
		if (w->hops >= ttl ||
		    (w->hops && ttl <= t->max_hops &&
		     !dp_ttl_relay(t, &w->st, &wire))) {
			w->looped = true;
			return;
		}
		if (dp_route(t, self, &w->st, fs ? &view : NULL, &hop)) {
			w->reason = hop.reason;
			return;
		}
		if (!dp_walk_hop_ok(t, self, &hop, fs)) {
			w->bad_hop = true;
			return;
		}
		if (w->phase && w->path_len > 0 && w->path_len <= w->path_max)
			w->phase[w->path_len - 1] = hop.phase;
		if (w->path && w->path_len < w->path_max)
			w->path[w->path_len++] = hop.next;
		slot = dp_phase_detour(t, hop.phase);
		if (slot)
			w->detours[slot - 1]++;
		self = hop.next;
		w->hops++;
	}
	w->delivered = true;
}
