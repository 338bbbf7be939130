// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_route: the routing core of every topology against hostile route
 * state, as the relays run it (net/dpillar/rx.c, route.c).
 *
 * The input picks a fabric (topology, parameters), the server the frame
 * arrives at, the wire's routing state (dst, waypoint, flags and routing
 * word, any values, or a sender's dp_route_init() state, or for S2 a
 * key frame's dp_key_route_init() state, as is or with bits flipped) and
 * a reachability view (which neighbour each server hears on each port,
 * asymmetric, any density, the ports-up reports and S2's shortcut
 * tables).  S2 in plan mode (coordinates a node cannot derive) learns its
 * cables and hears coordinates through the view: one consistent set of
 * coordinates and cables drawn from the input, and the frame carries its
 * destination's, true or any values.
 * The frame is then relayed hop by hop exactly as dp_handle_frame() and
 * dp_relay() would: addresses checked (any dst on a key frame), delivered
 * at dst (a key frame: where routing says at_dst), else one dp_route()
 * per server.  Every hop must go to a real neighbour on the
 * chosen port that the view says is reachable, with a known phase; every
 * drop must name a known reason; and the path must end within the
 * topology's proven bound (t->max_hops, the TTL a sender puts on), from
 * any starting state.  With a nonzero last input byte the header's TTL
 * is modelled too, as the relays spend and renew it (dp_ttl_relay(): a
 * sender's dp_topo_ttl(), or that byte as a hostile TTL): S2 above 255
 * nodes, whose bound is wider than the u8, renews it from its own header
 * bits, and whatever they say the path must stay within t->max_hops.  An endless loop inside dp_route() is libFuzzer's
 * timeout.  Any violation aborts, which libFuzzer reports as a crash.
 */
#include "fuzz.h"
#include "topo.h"

struct fz_view {
	const struct dp_topo *t;
	u32 seed;
	u8 link_fail;	/* out of 256: a link seen down */
	u8 node_fail;	/* out of 256: a server silent on every port */
	u8 ports_up;	/* out of 256: a neighbour reports its ports-up */
	u8 shortcut;	/* out of 256: a server knows a shortcut (S2) */
};

/* S2 plan mode: the peer on @port of @self, one per port, any graph. */
static u32 fz_cable(const struct fz_view *fv, u32 self, u32 port)
{
	u32 peer = fz_mix(fv->seed ^ 0x77777777, self, port, 0) %
		   fv->t->nodes;

	return peer == self || port >= fv->t->nports ? DP_NODE_NONE : peer;
}

static bool fz_reachable(const void *ctx, u32 self, u32 port, u32 peer)
{
	const struct fz_view *fv = ctx;

	/* As the Hello table: only the port's own neighbours are known. */
	if (port >= fv->t->nports || !dp_addr_valid(fv->t, self) ||
	    dp_port_neigh_index(fv->t, self, port, peer) < 0 ||
	    (fv->t->learn_peers && fz_cable(fv, self, port) != peer))
		return false;
	if ((fz_mix(fv->seed ^ 0x5a5a5a5a, peer, 0, 0) & 255) < fv->node_fail)
		return false;
	return (fz_mix(fv->seed, self, port, peer) & 255) >= fv->link_fail;
}

static bool fz_ports_up(const void *ctx, u32 self, u32 port, u32 peer,
			u32 *mask)
{
	const struct fz_view *fv = ctx;
	u32 h = fz_mix(fv->seed ^ 0xa5a5a5a5, self, port, peer);

	if ((h & 255) >= fv->ports_up)
		return false;
	*mask = fz_mix(h, peer, port, self);	/* any bits, even unused ports */
	return true;
}

/*
 * A shortcut table as hostile as replies could make it: any reachable
 * neighbour, any length the caller allows (the kernel's dp_sc_lookup()
 * also answers only with a reachable next hop).
 */
static bool fz_shortcut(const void *ctx, u32 self, u32 dst, u32 max_dist,
			u32 *port, u32 *peer, u32 *dist)
{
	const struct fz_view *fv = ctx;
	u32 h = fz_mix(fv->seed ^ 0x3c3c3c3c, self, dst, max_dist);

	if ((h & 255) >= fv->shortcut || !max_dist ||
	    !dp_addr_valid(fv->t, self))
		return false;
	*port = (h >> 8) % fv->t->nports;
	*peer = dp_port_neigh(fv->t, self, *port, 0);
	*dist = 1 + (h >> 16) % max_dist;
	return *peer != DP_NODE_NONE && fz_reachable(fv, self, *port, *peer);
}

/* Plan mode: a node's coordinates, the same wherever they are heard. */
static u32 fz_xs(const struct fz_view *fv, u32 node, u32 *x, u32 max)
{
	u32 i;

	if (max < fv->t->p.spaces)
		return 0;
	for (i = 0; i < fv->t->p.spaces; i++)
		x[i] = fz_mix(fv->seed ^ 0xc00c0000, node, i, 0);
	return fv->t->p.spaces;
}

static u32 fz_cable_peer(const void *ctx, u32 self, u32 port)
{
	const struct fz_view *fv = ctx;
	u32 peer = fz_cable(fv, self, port);

	return peer != DP_NODE_NONE && fz_reachable(fv, self, port, peer) ?
	       peer : DP_NODE_NONE;
}

static u32 fz_coords(const void *ctx, u32 self, u32 port, u32 node, u32 *x,
		     u32 max)
{
	if (node != self && !fz_reachable(ctx, self, port, node))
		return 0;
	return fz_xs(ctx, node, x, max);
}

/* What @peer's Hello lists: the peers it hears, in its port order. */
static u32 fz_peer_neighs(const void *ctx, u32 self, u32 port, u32 peer,
			  u32 *ids, u32 max)
{
	const struct fz_view *fv = ctx;
	u32 q, n = 0;

	if (!fz_reachable(fv, self, port, peer))
		return 0;
	for (q = 0; q < fv->t->nports && n < max; q++)
		if (fz_cable_peer(fv, peer, q) != DP_NODE_NONE)
			ids[n++] = fz_cable(fv, peer, q);
	return n;
}

static u32 fz_peer_neigh_coords(const void *ctx, u32 self, u32 port,
				u32 peer, u32 idx, u32 *x, u32 max)
{
	u32 ids[DP_MAX_PORTS], n;

	n = fz_peer_neighs(ctx, self, port, peer, ids, DP_MAX_PORTS);
	return idx < n ? fz_xs(ctx, ids[idx], x, max) : 0;
}

/* The view's coordinate questions: the shortcuts; plan mode all three. */
static const struct dp_view_coords fz_view_sc = {
	.shortcut = fz_shortcut,
};

static const struct dp_view_coords fz_view_plan = {
	.shortcut = fz_shortcut,
	.node_coords = fz_coords,
	.peer_neigh_coords = fz_peer_neigh_coords,
};

/* The relay's address check (dp_addr_ok()): a key frame's dst is a key. */
static bool fz_addr_ok(const struct dp_topo *t, const struct dp_route_state *st)
{
	return (dp_dst_is_key(t, st->flags) || dp_addr_valid(t, st->dst)) &&
	       (st->waypoint == DP_NODE_NONE || dp_addr_valid(t, st->waypoint));
}

/* A node id from 4 input bytes: mostly valid ones, some edges. */
static u32 fz_node(const struct dp_topo *t, struct fz_in *in)
{
	u32 v = fz_u32(in);

	switch (v >> 29) {
	case 0:
		return DP_NODE_NONE;
	case 1:
		return v;		/* anything */
	case 2:
		return t->nodes - 1 + (v & 3);	/* around the edge */
	default:
		return v % t->nodes;
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fz_in in = { data, size };
	struct dp_topo_params p = { 0 };
	struct dp_route_state st;
	struct fz_view fv;
	struct dp_view v = { 0 };
	const char *why = NULL;
	struct dp_topo t;
	u32 self, hops = 0;
	bool view, sender = false, wire_model;
	u8 mode, wire;

	mode = fz_u8(&in);
	view = mode & 1;	/* else failure-free routing (v == NULL) */
	p.kind = 1 + fz_u8(&in) % DP_TOPO_KIND_MAX;
	p.n = fz_u8(&in) % 33;
	p.k = fz_u8(&in) % 33;
	if (p.kind == DP_TOPO_XDCENT)
		p.level = fz_u8(&in) % 33;	/* XDCent's i */
	if (p.kind == DP_TOPO_S2) {
		/* nodes, n ports, spaces, seed; k must be 0 */
		p.k = 0;
		/* high bit: above 255 nodes (a TTL renewed on the way) */
		p.nodes = fz_u16(&in);
		p.nodes = p.nodes & 0x8000 ? (p.nodes & 0x7fff) % 3200 :
					     p.nodes % 300;
		p.spaces = fz_u8(&in) % 10;
		p.seed = fz_u32(&in);
		/* plan mode: any own coordinates (the view has the real ones) */
		if (mode & 0x40) {
			p.ncoords = p.spaces;
			for (u32 i = 0; i < p.spaces && i < DP_COORDS_MAX; i++)
				p.coords[i] = fz_u32(&in);
		}
	}
	if (dp_topo_init(&t, &p, &why))
		return 0;
	FZ_CHECK(t.max_hops > 0 && t.max_hops <=
		 (t.ops->ttl_renew ? DP_HOPS_MAX : DP_TTL_MAX));
	FZ_CHECK(dp_topo_ttl(&t) <= DP_TTL_MAX);
	FZ_CHECK(t.ff_hops <= t.max_hops);

	self = fz_u32(&in) % t.nodes;
	st.dst = fz_node(&t, &in);
	st.waypoint = fz_node(&t, &in);
	st.word = fz_u16(&in);
	st.flags = fz_u8(&in);
	/*
	 * Mode bit 1: a sender's state (dp_xmit()), with a selector and a
	 * flow hash from the input, then bits of the input flipped in its
	 * flags and word as a hostile relay on the way could.
	 */
	if (mode & 2 && (dp_addr_valid(&t, st.dst) ||
			 (mode & 0x20 && dp_topo_has_keys(&t)))) {
		u16 word = st.word;
		u8 flags = st.flags;

		sender = true;

		/* Mode bit 5: a frame to a key (S2), dst any 32 bits. */
		if (mode & 0x20 && dp_topo_has_keys(&t))
			dp_key_route_init(&t, self, st.dst, mode >> 2 & 3, &st);
		else
			dp_route_init(&t, self, st.dst, mode >> 2 & 3,
				      fz_u32(&in), &st);
		if (mode & 0x10) {
			st.word ^= word;
			st.flags ^= flags;
		}
	}
	fv.t = &t;
	fv.seed = fz_u32(&in);
	fv.link_fail = fz_u8(&in);
	fv.node_fail = fz_u8(&in);
	fv.ports_up = fz_u8(&in);
	fv.shortcut = fz_u8(&in);
	v.reachable = fz_reachable;
	v.ports_up = fz_ports_up;
	v.coords = &fz_view_sc;
	v.ctx = &fv;
	if (t.learn_peers) {
		u32 x[DP_COORDS_MAX], n = fz_xs(&fv, st.dst, x, DP_COORDS_MAX);

		v.cable_peer = fz_cable_peer;
		v.coords = &fz_view_plan;
		v.peer_neighs = fz_peer_neighs;
		/*
		 * Mode bit 7: the sender's coordinates of the destination;
		 * and bit 4 flips them as a hostile relay could.
		 */
		if (mode & 0x80 && dp_route_set_coords(&t, &st, x, n) &&
		    mode & 0x10)
			st.coords[0] ^= fz_u32(&in);
	}

	/* last: the header's TTL (0: not modelled, the route alone) */
	wire = fz_u8(&in);
	wire_model = sender || wire;
	if (sender)
		wire = (u8)dp_topo_ttl(&t);

	for (;;) {
		struct dp_hop hop = { 0 };
		u32 from = self;

		bool key = dp_dst_is_key(&t, st.flags);

		if (!fz_addr_ok(&t, &st))
			break;		/* DP_STAT_DROP_ADDR */
		if (self == st.dst && !key)
			break;		/* delivered */
		/* The relay's TTL step (the sender sends without one). */
		if (wire_model && (hops || !sender) &&
		    !dp_ttl_relay(&t, &st, &wire))
			break;		/* DP_STAT_DROP_TTL */
		/* A relay's TTL, at most the sender's bound, never runs out. */
		FZ_CHECK(hops < t.max_hops);
		if (dp_route(&t, self, &st, view ? &v : NULL,
			     &hop)) {
			FZ_CHECK(hop.reason > 0 && hop.reason < t.ops->ndrops);
			/* A key frame's at_dst is its home: delivered. */
			FZ_CHECK(key || hop.reason != DP_DROP_ROUTE_AT_DST);
			break;
		}
		FZ_CHECK(hop.port < t.nports);
		FZ_CHECK(dp_addr_valid(&t, hop.next));
		FZ_CHECK(hop.next != from);
		FZ_CHECK(dp_port_neigh_index(&t, from, hop.port, hop.next) >= 0);
		/* learned cabling: no node knows another's ports */
		FZ_CHECK(t.learn_peers ||
			 dp_peer_port(&t, from, hop.port, hop.next) >= 0);
		FZ_CHECK(hop.phase < t.ops->nphases);
		if (view)
			FZ_CHECK(fz_reachable(&fv, from, hop.port, hop.next));
		self = hop.next;
		hops++;
	}
	return 0;
}
