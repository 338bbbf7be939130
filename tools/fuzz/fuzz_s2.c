// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_s2: the Space Shuffle core (topo_s2.c) on hostile input: the
 * candidates a node builds from neighbours' Hellos (any coordinates, any
 * via index, 2-hop entries before 1-hop ones), any destination, any rule,
 * and derived coordinates for any (seed, nodes, id, space).
 *
 * Checks: a decision is -1 or the index of a 1-hop candidate; with the
 * MCD-reducing rules that candidate's MCD is below self's; the first hop
 * reduces the MCD; a slot is below the node count and its inverse gives
 * the id back; and the module's derived cabling of a fabric of up to
 * DP_S2_ROUTE_NODES_MAX nodes (its nibble tables up to 255 nodes, its
 * hashed rounds above) is the generic permutation's: the peer on port 2r
 * or 2r + 1 is the node before or after in ring r's slot order; up to
 * FZ_TAB_NODES nodes, its tables (dp_topo_alloc()) give the same wiring
 * and the same decision toward any node.
 */
#include "fuzz.h"
#include "topo_s2.h"

#define FZ_CANDS 40
/* Fabrics small enough to fill their tables on every input. */
#define FZ_TAB_NODES 300

/* The module's cabling of one node against dp_s2_slot()'s rings. */
static void fz_cabling(struct fz_in *in)
{
	struct dp_topo_params p = { .kind = DP_TOPO_S2 };
	struct dp_route_state st, st2;
	struct dp_hop h = { 0 }, h2 = { 0 };
	struct dp_topo t, tt;
	u32 id, port, r, s, peer, want, q, dst;
	bool tab;

	p.nodes = 3 + fz_u16(in) % (DP_S2_ROUTE_NODES_MAX - 2);
	p.spaces = 1 + fz_u8(in) % DP_S2_SPACES_MAX;
	p.n = 2 * p.spaces + fz_u8(in) % (DP_MAX_PORTS - 2 * p.spaces + 1);
	p.seed = fz_u32(in);
	if (dp_topo_init(&t, &p, NULL))
		return;
	FZ_CHECK(t.max_hops >= t.ff_hops && t.max_hops <= DP_HOPS_MAX);
	FZ_CHECK((t.max_hops > DP_TTL_MAX) == (p.nodes > 255));
	id = fz_u32(in) % p.nodes;
	for (port = 0; port < 2 * (p.n / 2); port++) {
		peer = dp_port_neigh(&t, id, port, 0);
		r = port / 2;
		/* rings past the spaces: spaces DP_S2_SPACES_MAX + r - L */
		q = r < p.spaces ? r : DP_S2_SPACES_MAX + r - p.spaces;
		s = dp_s2_slot(p.seed, p.nodes, id, q);
		s = port & 1 ? (s + 1) % p.nodes : (s + p.nodes - 1) % p.nodes;
		want = dp_s2_slot_node(p.seed, p.nodes, s, q);
		/* a peer already cabled on a lower port leaves it unused */
		FZ_CHECK(peer == want || peer == DP_NODE_NONE);
		if (peer != DP_NODE_NONE)
			FZ_CHECK(dp_peer_port(&t, id, port, peer) >= 0);
	}
	if (p.nodes > FZ_TAB_NODES)
		return;
	FZ_CHECK(!dp_topo_init(&tt, &p, NULL));
	tab = dp_topo_alloc(&tt);
	FZ_CHECK(tab);
	for (port = 0; tab && port < p.n; port++) {
		peer = dp_port_neigh(&t, id, port, 0);
		FZ_CHECK(dp_port_neigh(&tt, id, port, 0) == peer);
		if (peer != DP_NODE_NONE)
			FZ_CHECK(dp_peer_port(&tt, id, port, peer) ==
				 dp_peer_port(&t, id, port, peer));
	}
	dst = fz_u32(in) % p.nodes;
	if (tab && dst != id) {
		dp_route_init(&t, id, dst, fz_u8(in) % 3, fz_u16(in), &st);
		st2 = st;
		FZ_CHECK(dp_route(&t, id, &st, NULL, &h) ==
			 dp_route(&tt, id, &st2, NULL, &h2));
		FZ_CHECK(h.next == h2.next && h.port == h2.port &&
			 h.phase == h2.phase && h.reason == h2.reason &&
			 !memcmp(&st, &st2, sizeof(st)));
	}
	dp_topo_free(&tt);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fz_in in = { data, size };
	u32 xs[FZ_CANDS + 2][DP_S2_SPACES_MAX];
	struct dp_s2_cand c[FZ_CANDS];
	u32 d = fz_u8(&in) % (DP_S2_SPACES_MAX + 1);
	u32 rule = fz_u8(&in) % (DP_S2_RULE_COUNT + 1);
	u32 n = fz_u8(&in) % (FZ_CANDS + 1), i, j, best, seed, nodes, id;
	int k;

	for (i = 0; i < FZ_CANDS + 2; i++)
		for (j = 0; j < DP_S2_SPACES_MAX; j++)
			xs[i][j] = fz_u32(&in);
	for (i = 0; i < n; i++) {
		u8 b = fz_u8(&in);

		c[i].x = xs[i + 2];
		c[i].two_hop = b & 1;
		c[i].via = b & 2 ? fz_u8(&in) : b >> 2;
	}
	k = dp_s2_greedy(xs[0], xs[1], d, c, n, rule, &best);
	FZ_CHECK(k == -1 || ((u32)k < n && !c[k].two_hop));
	if (k >= 0 && (rule == DP_S2_RULE_1HOP ||
		       rule == DP_S2_RULE_2HOP_SIM))
		FZ_CHECK(dp_s2_mcd(c[k].x, xs[1], d) <
			 dp_s2_mcd(xs[0], xs[1], d));
	if (k >= 0)
		FZ_CHECK(best < dp_s2_mcd(xs[0], xs[1], d));
	k = dp_s2_first_hop(xs[0], xs[1], d, c, n, fz_u32(&in));
	FZ_CHECK(k == -1 || ((u32)k < n && !c[k].two_hop &&
			     dp_s2_mcd(c[k].x, xs[1], d) <
			     dp_s2_mcd(xs[0], xs[1], d)));

	seed = fz_u32(&in);
	nodes = fz_u32(&in) % (DP_S2_NODES_MAX + 2);
	id = fz_u32(&in) % (nodes + 1);
	if (nodes && nodes <= DP_S2_NODES_MAX && id < nodes) {
		u32 sp = fz_u8(&in), s = dp_s2_slot(seed, nodes, id, sp);

		FZ_CHECK(s < nodes);
		FZ_CHECK(dp_s2_slot_node(seed, nodes, s, sp) == id);
	}
	(void)dp_s2_coord(seed, nodes, id, fz_u8(&in));
	(void)dp_s2_min_gap(nodes);
	fz_cabling(&in);
	return 0;
}
