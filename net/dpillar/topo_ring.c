// SPDX-License-Identifier: GPL-2.0
/*
 * topo_ring.c - Ring(n), a test fixture: n servers in a ring, no switches.
 *
 * Server i (0 <= i < n; its address is its index, "3") has two cable
 * ports: port 0 goes to port 1 of server i + 1 (mod n), port 1 to port 0
 * of server i - 1.  Nothing here is a fabric to deploy: the ring exists to
 * show that a topology is added by its own files, a line of the list and a
 * UAPI number, and that the generic module, dpctl and dpsim take it from
 * its ops table alone (topo_ring.h says how it is built).
 *
 * Routing goes the shorter way round; at the antipode of an even ring,
 * the flow hash picks the way.  If the next hop is not reachable (its
 * cable or the server is down), the packet turns back once: it flips its
 * direction and sets the "turned" bit of the header's flags, and a packet
 * that has turned and meets a dead next hop again is dropped ("cut").
 *
 * Loop freedom and the path bound.  Every hop moves one step in the
 * header's direction, and the direction changes only together with
 * setting the turned bit, which is never cleared: a path is at most two
 * runs, each in one fixed direction.  A run of one direction reaches any
 * node, the destination included, within n - 1 steps, where the packet is
 * delivered and routing stops: so each run is at most n - 1 hops, and a
 * path, hostile header states (any direction, turned or not) included, at
 * most 2(n - 1) hops.  That is max_hops, and RING_N_MAX keeps it at most
 * 254, below the TTL's 255.  Failure-free, a path is the ring distance,
 * at most floor(n / 2) hops (ff_hops).  One cut cable or one dead server
 * other than the destination leaves a path round the other way, which the
 * turn finds: a j-hop run toward the cut, j hops back and the n - d hops of
 * the other way (d: the distance the first way), j < d <= n / 2.
 */
#include <linux/dpillar.h>

#include "topo_ring.h"

static int ring_init(struct dp_topo *t, const struct dp_topo_params *p,
		     const char **why)
{
	if (p->k || p->level || p->spaces || p->nodes || p->seed ||
	    p->ncoords) {
		*why = "Ring takes only n";
		return -EINVAL;
	}
	if (p->n < RING_N_MIN || p->n > RING_N_MAX) {
		*why = !p->n ? "Missing n" : "n out of range (3..128)";
		return -EINVAL;
	}
	t->nodes = p->n;
	t->switches = 0;
	t->nports = 2;
	t->ff_hops = p->n / 2;
	t->max_hops = 2 * (p->n - 1);
	return 0;
}

static int ring_describe(const struct dp_topo *t, char *buf, u32 len)
{
	u32 pos = 0;

	dp_put_str(buf, len, &pos, "Ring (");
	dp_put_u32(buf, len, &pos, t->nodes);
	dp_put_char(buf, len, &pos, ')');
	return dp_put_end(buf, len, pos);
}

static int ring_addr_format(const struct dp_topo *t, u32 id, char *buf,
			    u32 len)
{
	u32 pos = 0;

	(void)t;
	dp_put_u32(buf, len, &pos, id);
	return dp_put_end(buf, len, pos);
}

static int ring_addr_parse(const struct dp_topo *t, const char *text,
			   u32 *id, const char **why)
{
	const char *p = text;

	if (!p || dp_parse_dec(&p, t->nodes - 1, id) || *p) {
		*why = "address must be a server's index below n";
		return -EINVAL;
	}
	return 0;
}

/* The server on @port of @id. */
static u32 ring_peer(const struct dp_topo *t, u32 id, u32 port)
{
	if (port == RING_PORT_NEXT)
		return id + 1 == t->nodes ? 0 : id + 1;
	return id ? id - 1 : t->nodes - 1;
}

static void ring_port_info(const struct dp_topo *t, u32 id, u32 port,
			   struct dp_port_info *pi)
{
	(void)t;
	(void)id;
	(void)port;
	pi->kind = DP_PORT_CABLE;
	pi->nneigh = 1;
	pi->sw = DP_NODE_NONE;
	pi->sw_level = 0;
	pi->sw_id = DP_NODE_NONE;
}

static u32 ring_port_neigh(const struct dp_topo *t, u32 id, u32 port,
			   u32 idx)
{
	if (port > RING_PORT_PREV || idx)
		return DP_NODE_NONE;
	return ring_peer(t, id, port);
}

/* A per-packet entry point (topologies.h): the dispatch calls it directly. */
int dp_ring_port_neigh_index(const struct dp_topo *t, u32 id, u32 port,
			     u32 peer)
{
	if (port > RING_PORT_PREV || peer >= t->nodes || peer == id ||
	    ring_peer(t, id, port) != peer)
		return -1;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(dp_ring_port_neigh_index);

/* The next server's port 1 takes our port 0's cable, and back. */
static int ring_peer_port(const struct dp_topo *t, u32 id, u32 port,
			  u32 peer)
{
	if (dp_ring_port_neigh_index(t, id, port, peer) < 0)
		return -1;
	return port == RING_PORT_NEXT ? RING_PORT_PREV : RING_PORT_NEXT;
}

void dp_ring_route_init(const struct dp_topo *t, u32 src, u32 dst, u32 sel,
			u32 hash, struct dp_route_state *st)
{
	/* Steps the way of port 0, src to dst; the other way is n - d. */
	u32 d = dst >= src ? dst - src : dst + t->nodes - src;

	(void)sel;
	st->dst = dst;
	st->waypoint = DP_NODE_NONE;
	st->word = 0;
	if (2 * d == t->nodes)
		st->flags = hash & 1 ? RING_RS_PREV : 0;
	else
		st->flags = 2 * d > t->nodes ? RING_RS_PREV : 0;
}
EXPORT_SYMBOL_IF_KUNIT(dp_ring_route_init);

static int ring_hop(struct dp_hop *hop, u32 next, u32 port, u8 phase)
{
	hop->next = next;
	hop->port = port;
	hop->phase = phase;
	hop->reason = DP_DROP_ROUTE_NONE;
	return 0;
}

int dp_ring_route(const struct dp_topo *t, u32 self,
		  struct dp_route_state *st, const struct dp_view *v,
		  struct dp_hop *hop)
{
	u32 port, next;

	if (self >= t->nodes || st->dst >= t->nodes) {
		hop->reason = DP_DROP_ROUTE_BAD_ADDR;
		return -1;
	}
	if (self == st->dst) {
		hop->reason = DP_DROP_ROUTE_AT_DST;
		return -1;
	}
	port = st->flags & RING_RS_PREV ? RING_PORT_PREV : RING_PORT_NEXT;
	next = ring_peer(t, self, port);
	if (dp_view_reachable(v, self, port, next))
		return ring_hop(hop, next, port, next == st->dst ?
				DP_PHASE_DIRECT : RING_PHASE_RING);
	/* The one turn of the bound above. */
	if (st->flags & RING_RS_TURNED) {
		hop->reason = RING_DROP_CUT;
		return -1;
	}
	port ^= 1;
	next = ring_peer(t, self, port);
	if (!dp_view_reachable(v, self, port, next)) {
		hop->reason = RING_DROP_CUT;
		return -1;
	}
	st->flags ^= RING_RS_PREV;
	st->flags |= RING_RS_TURNED;
	return ring_hop(hop, next, port, RING_PHASE_TURN);
}
EXPORT_SYMBOL_IF_KUNIT(dp_ring_route);

static const struct dp_phase_desc ring_phases[RING_PHASE_COUNT] = {
	[DP_PHASE_NONE]		= { "none" },
	[DP_PHASE_DIRECT]	= { "direct" },
	[RING_PHASE_RING]	= { "ring" },
	[RING_PHASE_TURN]	= { "turn", 1 },
};

static const char *const ring_drops[RING_DROP_COUNT] = {
	[DP_DROP_ROUTE_NONE]	= "none",
	[DP_DROP_ROUTE_BAD_ADDR] = "bad_addr",
	[DP_DROP_ROUTE_AT_DST]	= "at_dst",
	[RING_DROP_CUT]		= "cut",
};

/* Hops that turned back (ethtool -S: route_turns). */
static const char *const ring_detours[DP_DETOUR_SLOTS] = { "turns" };

/* One routing mode: the shorter way (@sel is ignored). */
static const char *const ring_sel_names[] = { "shortest", NULL };

/* The one parameter: the server count, always given and shown. */
static const struct dp_topo_param ring_params[] = {
	DP_TOPO_PARAM(n, DP_PARAM_REQUIRED, NULL),
};

const struct dp_topo_ops dp_ring_ops = {
	.name = "ring",
	.kind = DP_TOPO_RING,
	.phases = ring_phases,
	.nphases = RING_PHASE_COUNT,
	.drops = ring_drops,
	.ndrops = RING_DROP_COUNT,
	.fallback_drops = 1U << RING_DROP_CUT,
	.detours = ring_detours,
	.sel_names = ring_sel_names,
	.fixture = true,
	.params = ring_params,
	.nparams = ARRAY_SIZE(ring_params),
	.init = ring_init,
	.describe = ring_describe,
	.addr_parse = ring_addr_parse,
	.addr_format = ring_addr_format,
	.port_info = ring_port_info,
	.port_neigh = ring_port_neigh,
	.port_neigh_index = dp_ring_port_neigh_index,
	.peer_port = ring_peer_port,
	.route_init = dp_ring_route_init,
	.route = dp_ring_route,
};
EXPORT_SYMBOL_IF_KUNIT(dp_ring_ops);
