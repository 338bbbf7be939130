// SPDX-License-Identifier: GPL-2.0
/*
 * The routing view (struct dp_view): what the topology core may ask about
 * the neighbourhood of this node while it decides a hop, read from the
 * neighbour tables (neigh.c) without a lock, under rcu_read_lock (BH).
 * The core (topo*.c) is shared with dpsim and the fuzzers, which answer
 * the same questions from their own models.
 */

#include <linux/netdevice.h>

#include "dpillar.h"

/* The routing core's oracle.  Runs under rcu_read_lock (BH). */
bool dp_reachable(const void *ctx, u32 self, u32 port_idx, u32 peer)
{
	const struct dp_vctx *c = ctx;
	const struct dp_neigh *nb;
	struct dp_port *port;

	bool reach;

	nb = dp_vctx_find(c, self, port_idx, peer, &port);
	reach = dp_vctx_reach(c, port_idx, port, nb);
	dp_vctx_note_reach(c, reach);
	return reach;
}
EXPORT_SYMBOL_IF_KUNIT(dp_reachable);

/* The view's ports_up: what @peer, our neighbour on @port_idx, reported. */
bool dp_view_ports_up(const void *ctx, u32 self, u32 port_idx, u32 peer,
		      u32 *mask)
{
	const struct dp_neigh *nb;
	struct dp_port *port;
	bool known;
	u32 up;

	nb = dp_vctx_find(ctx, self, port_idx, peer, &port);
	known = dp_neigh_up(nb, &up);
	dp_vctx_note_up(ctx, known, up);
	if (!known)
		return false;
	*mask = up;
	return true;
}

/*
 * The view's peer_neighs: the ids @peer, our live neighbour on @port_idx,
 * listed in its last Hello (none once it is silent).
 */
u32 dp_view_peer_neighs(const void *ctx, u32 self, u32 port_idx, u32 peer,
			u32 *ids, u32 max)
{
	const struct dp_priv *dp = dp_vctx_dev(ctx);
	const struct dp_neigh *nb;
	struct dp_port *port;
	u32 i, n;

	dp_vctx_other(ctx);
	nb = dp_neigh_find(dp, self, port_idx, peer, &port);
	if (!dp_vctx_reach(ctx, port_idx, port, nb))
		return 0;
	n = min_t(u32, READ_ONCE(nb->nneighs), DPILLAR_TLV_NEIGHS_MAX);
	n = min(n, max);
	for (i = 0; i < n; i++)
		ids[i] = READ_ONCE(nb->neighs[i]);
	return n;
}

/* Up to @max of the @n coordinates at @src into @x, as one read each. */
static u32 dp_coords_copy(u32 *x, const u32 *src, u32 n, u32 max)
{
	u32 i;

	n = min(n, max);
	for (i = 0; i < n; i++)
		x[i] = READ_ONCE(src[i]);
	return n;
}

/*
 * The live neighbour @node on our port @port_idx whose coordinates its
 * Hellos gave (S2 plan mode: only neigh[0] has them), NULL if none.
 */
static const struct dp_neigh_coords *
dp_view_coords_of(const struct dp_vctx *c, u32 self, u32 port_idx, u32 node)
{
	const struct dp_neigh *nb;
	struct dp_port *port;

	nb = dp_neigh_find(c->dp, self, port_idx, node, &port);
	if (!dp_vctx_reach(c, port_idx, port, nb) || nb != &port->neigh[0])
		return NULL;
	return &port->coords;
}

/*
 * The view's coords: ours when @node is @self, else those of @node, our
 * live neighbour on @port_idx, as its last Hello gave them.
 */
static u32 dp_view_coords(const void *ctx, u32 self, u32 port_idx, u32 node,
			  u32 *x, u32 max)
{
	const struct dp_priv *dp = dp_vctx_dev(ctx);
	const struct dp_neigh_coords *nc;

	dp_vctx_other(ctx);
	if (node == self)
		return dp_coords_copy(x, dp->topo.p.coords,
				      dp->topo.p.ncoords, max);
	nc = dp_view_coords_of(ctx, self, port_idx, node);
	if (!nc)
		return 0;
	return dp_coords_copy(x, nc->x, READ_ONCE(nc->ncoords), max);
}

/*
 * The view's peer_neigh_coords: those of entry @idx of the list
 * dp_view_peer_neighs() gives for @peer (its DPILLAR_TLV_NEIGH_COORDS).
 */
static u32 dp_view_peer_neigh_coords(const void *ctx, u32 self, u32 port_idx,
				     u32 peer, u32 idx, u32 *x, u32 max)
{
	const struct dp_neigh_coords *nc;

	dp_vctx_other(ctx);
	nc = dp_view_coords_of(ctx, self, port_idx, peer);
	if (!nc || idx >= min_t(u32, READ_ONCE(nc->nneighs),
				DPILLAR_TLV_NEIGHS_MAX))
		return 0;
	return dp_coords_copy(x, nc->neighs[idx], READ_ONCE(nc->ncoords),
			      max);
}

/*
 * The view's cable_peer: the node heard on the cable of our port
 * @port_idx, if it is alive (the topology's peer, where it is derived).
 */
u32 dp_view_cable_peer(const void *ctx, u32 self, u32 port_idx)
{
	const struct dp_priv *dp = dp_vctx_dev(ctx);
	struct dp_port *port = dp_port_rcu(dp, port_idx);
	struct dp_port_info pi;
	u32 peer;

	dp_vctx_other(ctx);
	if (!port || port->nneigh != 1 || self != dp->self)
		return DP_NODE_NONE;
	/* Learned peers: every port is a cable (S2 plan mode). */
	if (!dp->topo.learn_peers) {
		dp_port_info(&dp->topo, self, port_idx, &pi);
		if (pi.kind != DP_PORT_CABLE)
			return DP_NODE_NONE;
	}
	peer = dp_neigh_node(dp, port, 0);
	if (peer == DP_NODE_NONE ||
	    !dp_vctx_reach(ctx, port_idx, port, &port->neigh[0]))
		return DP_NODE_NONE;
	return peer;
}

/*
 * The coordinate questions (struct dp_view_coords), which only a topology
 * with the coordinates extension asks (S2): its shortcut table
 * (shortcut.c) and the coordinates the Hellos gave.
 */
static const struct dp_view_coords dp_view_coords_ops = {
	.shortcut = dp_sc_lookup,
	.node_coords = dp_view_coords,
	.peer_neigh_coords = dp_view_peer_neigh_coords,
};

/* What routing may know of the fabric around us (struct dp_view). */
void dp_view_init(struct dp_priv *dp)
{
	/*
	 * Four questions, the three coordinate ones behind a pointer, and
	 * the context.  A new question must call dp_vctx_uncached(), or
	 * dp_vctx_other() if every change of its answer but by time calls
	 * dp_rmemo_neigh_changed() and it asks about a neighbour's life
	 * through dp_vctx_reach(); else the route memo (struct dp_rmemo)
	 * must learn to check its answer again.
	 */
	BUILD_BUG_ON(sizeof(struct dp_view) != 6 * sizeof(void *));
	BUILD_BUG_ON(sizeof(struct dp_view_coords) != 3 * sizeof(void *));
	dp->view.reachable = dp_reachable;
	dp->view.cable_peer = dp_view_cable_peer;
	dp->view.ports_up = dp_view_ports_up;
	dp->view.peer_neighs = dp_view_peer_neighs;
	dp->view.coords = &dp_view_coords_ops;
	dp->vctx.dp = dp;
	dp->vctx.memo = NULL;
	dp->view.ctx = &dp->vctx;
}
