/* SPDX-License-Identifier: GPL-2.0 */
/*
 * topo_s2.h - Space Shuffle (S2): the coordinate arithmetic and the
 * greediest routing decision, shared by the kernel and tools/dpsim.
 *
 * An S2 node has L coordinates, one per ring space, as u32 fixed point:
 * coordinate c means c / 2^32, so the ring's wrap-around is the u32
 * wrap-around and the circular distance needs no branch on the sign.
 *
 * Nothing here knows the fabric: the caller passes the coordinates of the
 * candidates it knows (its 1-hop neighbours and, through each of them, the
 * 2-hop neighbours it heard in their Hellos).  That is what keeps the
 * kernel's state per node bounded by ports^2 and never by the node count:
 * a relay needs the destination's coordinates (carried, or derived from
 * (seed, id) with dp_s2_coord()) and its own Hello tables, nothing else.
 * The one exception is optional: in derived mode the module's topology
 * keeps every node's peers and coordinates (topo_s2.c, struct s2_tab; at
 * most 1 MiB a device), what it could derive, to decide at a fraction of
 * the derivation's cost; without them it derives.
 */
#ifndef _DP_TOPO_S2_H
#define _DP_TOPO_S2_H

#include "topo.h"

#define DP_S2_SPACES_MAX	8	/* L: ports are at most DP_MAX_PORTS */
#define DP_S2_NODES_MAX		16777216U	/* 2^24: derived coordinates */
/*
 * Most nodes of a fabric whose path bound fits the wire's u8 TTL: its
 * frames carry no hop budget beyond the TTL, as before the renewal.
 */
#define DP_S2_TTL_NODES_MAX	255U
/*
 * Most nodes of a fabric the module routes (derived mode): above
 * DP_S2_TTL_NODES_MAX the TTL is renewed from a budget in S2's own header
 * bits (topo_s2.c, s2_ttl_renew()).  Slots fit a u16, the bound
 * (2 * nodes + 254 at most) DP_HOPS_MAX, and the Feistel domain 14 bits.
 */
#define DP_S2_ROUTE_NODES_MAX	16384U

/* Circular distance of two fixed-point coordinates (at most 2^31). */
static inline u32 dp_s2_cd(u32 a, u32 b)
{
	u32 d = a - b, e = b - a;

	return d < e ? d : e;
}

/* Minimum circular distance over the first @d spaces. */
u32 dp_s2_mcd(const u32 *x, const u32 *y, u32 d);

/*
 * Derived balanced coordinates: the coordinate of node @id (< @nodes) in
 * space @space, from (@seed, @nodes, @id, @space) alone.  Each space is a
 * seeded permutation of the node ids onto @nodes equal slots of the ring,
 * and a seeded offset inside the slot that keeps every two nodes at least
 * dp_s2_min_gap(nodes) apart: the paper's balance property (no two
 * coordinates closer than 1/(3N) in any space).  Needs 1 <= @nodes <=
 * DP_S2_NODES_MAX and @id < @nodes (0 is returned otherwise).
 */
u32 dp_s2_coord(u32 seed, u32 nodes, u32 id, u32 space);
/* The slot (ring position 0..nodes-1) of @id in @space. */
u32 dp_s2_slot(u32 seed, u32 nodes, u32 id, u32 space);
/* The inverse: the node in slot @slot of @space. */
u32 dp_s2_slot_node(u32 seed, u32 nodes, u32 slot, u32 space);
/* ceil(2^32 / (3 * nodes)): the least distance of derived coordinates. */
u32 dp_s2_min_gap(u32 nodes);
/*
 * With derived coordinates, the node closest to @x in @space (a key's
 * home there), in constant time: no table of the nodes' coordinates.
 */
u32 dp_s2_home(u32 seed, u32 nodes, u32 x, u32 space);

/* Routing rules of dp_s2_greedy(). */
enum dp_s2_rule {
	DP_S2_RULE_1HOP = 0,	/* the paper's Algorithm 1: 1-hop only */
	DP_S2_RULE_2HOP_SIM,	/* 2-hop, only via MCD-reducing 1-hop (the
				 * authors' simulator; strictly loop-free)
				 */
	DP_S2_RULE_2HOP_PAPER,	/* 2-hop as the paper words it */
	DP_S2_RULE_COUNT,
};

/*
 * One candidate of a decision: a 1-hop neighbour (@via == its own index
 * among the 1-hop candidates) or a 2-hop neighbour reached through the
 * 1-hop candidate @via.  @x points at its L coordinates.
 */
struct dp_s2_cand {
	const u32 *x;
	u32 via;
	bool two_hop;
};

/*
 * The greediest decision at a node whose coordinates are @self, toward
 * @dst, over @n candidates (1-hop ones first or not: order only breaks
 * ties, the first wins).  Returns the index (a 1-hop candidate's @via) of
 * the 1-hop neighbour to forward to, or -1 when no candidate brings the
 * packet strictly closer than @self (a local minimum: a failure, or self
 * is the home of a key).  *@best gets the best MCD found.
 *
 * Loop freedom, every rule, provided 1-hop candidates come before 2-hop
 * ones in @c and each 2-hop candidate's link to its @via is live:
 * - 1HOP and 2HOP_SIM: every hop goes to a neighbour whose MCD to @dst is
 *   strictly below self's, so the MCD strictly decreases along the path
 *   and no node is visited twice.
 * - 2HOP_PAPER: call m(u) the MCD of the candidate u picks (m(u) <
 *   MCD(u)).  If u picked a 1-hop x, the next node's own pick has
 *   m(x) < MCD(x) = m(u).  If u picked a 2-hop w via v, then w is a 1-hop
 *   candidate of v with MCD m(u), listed before v's 2-hop candidates and
 *   ties keep the first, so m(v) <= m(u), and m(v) == m(u) only when v
 *   picks a 1-hop node of MCD m(u), whose own pick is below m(u).  So m
 *   never increases and strictly decreases within any two hops; the pick
 *   at a node depends on the node alone, so a node visited twice (at
 *   least two hops apart) would have two different m: impossible.
 * With stale Hello data (a 2-hop link that has just failed) the second
 * argument fails; the kernel's TTL bounds such a path.
 */
int dp_s2_greedy(const u32 *self, const u32 *dst, u32 d,
		 const struct dp_s2_cand *c, u32 n, u32 rule, u32 *best);

/*
 * Multipath at the first hop (the paper's Algorithm 2): among the 1-hop
 * candidates whose MCD to @dst is below self's, the one @hash selects.
 * -1 when there is none.
 */
int dp_s2_first_hop(const u32 *self, const u32 *dst, u32 d,
		    const struct dp_s2_cand *c, u32 n, u32 hash);

/*
 * A key's coordinates: L hashes of the key bytes.  The key bytes hash to
 * a 32-bit key id (FNV-1a, dp_s2_key_hash()) and the id to one
 * coordinate per space (a murmur3 finaliser per space, dp_s2_key_point()),
 * so a key's coordinates depend on its 32-bit id alone: that id is what a
 * key frame carries (the header's dst) and what the low 32 bits of a key
 * address under the device's key prefix are.
 */
u32 dp_s2_key_hash(const u8 *key, u32 len);
void dp_s2_key_point(u32 kid, u32 d, u32 *x);
void dp_s2_key_coords(const u8 *key, u32 len, u32 d, u32 *x);

/*
 * Plan mode: the paper's Algorithm 3 coordinates and random cabling from
 * a plan (dpsim plan, dpctl plan), which no node can derive for another.
 * A node is given its own coordinates (struct dp_topo_params.coords), its
 * cable ports' peers are learned from their Hellos (t->learn_peers), the
 * 1-hop and 2-hop neighbours' coordinates come through the view
 * (struct dp_view_coords: node_coords, peer_neigh_coords), and a frame
 * carries its destination's coordinates (dp_route_state.coords; on the
 * wire struct dpillar_coords behind the header, S2 flag 0x20).  No relay
 * needs a table of the fabric.
 */
static inline bool dp_s2_plan_mode(const struct dp_topo *t)
{
	return t->kind == DP_TOPO_S2 && t->p.ncoords;
}

/*
 * A plan-mode fabric's whole table, for the tools and the tests (struct
 * dp_topo.table; the kernel never has one): @coords[id * @spaces + s]
 * the coordinates of node id, @peer[id * @ports + p] the node cabled to
 * its port p (DP_NODE_NONE: unused).
 */
struct dp_s2_plan {
	u32 nodes;
	u32 spaces;
	u32 ports;
	const u32 *coords;
	const u32 *peer;
};

/*
 * Give plan-mode topology @t the whole fabric's table (the tools and
 * tests only): port_neigh() and peer_port() answer from it, and the
 * walker's view (topo_walk.c) too.  @plan must outlive @t's use.
 * -EINVAL when @t is not in plan mode or the sizes differ.
 */
int dp_s2_plan_attach(struct dp_topo *t, const struct dp_s2_plan *plan);

#endif /* _DP_TOPO_S2_H */
