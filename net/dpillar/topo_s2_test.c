// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the Space Shuffle core (topo_s2.c) on the kernel's build
 * of the code: derived coordinates (a permutation onto the slots, every
 * two nodes at least 1/(3N) apart), the greediest decision on hand-made
 * candidates, and greediest routing on every pair of small ring networks
 * built here from derived coordinates, where the loop-freedom invariant of
 * topo_s2.h is checked hop by hop.  tools/dpsim/tests/test_s2.c and
 * "dpsim paths --topo s2" check the same on larger networks.
 */

#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "hello_tlv.h"
#include "test_lib.h"
#include "topo_s2.h"

static int s2t_cmp(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static void s2t_derived(struct kunit *test)
{
	u32 *c = kunit_kcalloc(test, 600, sizeof(u32), GFP_KERNEL);
	u8 *seen = kunit_kzalloc(test, 600, GFP_KERNEL);
	u32 n, i, sp;

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	for (n = 1; n <= 600; n += (n < 40 ? 1 : 37)) {
		u32 gap = dp_s2_min_gap(n);

		KUNIT_EXPECT_GE(test, (u64)gap * 3 * n, 1ULL << 32);
		for (sp = 0; sp < 3; sp++) {
			memset(seen, 0, n);
			for (i = 0; i < n; i++) {
				u32 s = dp_s2_slot(n + 5, n, i, sp);

				KUNIT_ASSERT_LT(test, s, n);
				KUNIT_EXPECT_EQ(test, seen[s], 0);
				seen[s] = 1;
				KUNIT_EXPECT_EQ(test,
						dp_s2_slot_node(n + 5, n, s, sp),
						i);
				c[i] = dp_s2_coord(n + 5, n, i, sp);
			}
			sort(c, n, sizeof(u32), s2t_cmp, NULL);
			for (i = 0; n > 1 && i < n; i++)
				KUNIT_EXPECT_GE_MSG(test,
						    dp_s2_cd(c[i], c[(i + 1) % n]),
						    gap, "n %u space %u", n, sp);
		}
	}
	KUNIT_EXPECT_EQ(test, dp_s2_coord(1, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, dp_s2_coord(1, 5, 5, 0), 0);
	KUNIT_EXPECT_EQ(test, dp_s2_slot(1, DP_S2_NODES_MAX + 1, 3, 0), 0);
}

/* dp_s2_home() against a scan of every node (the wrap included). */
static void s2t_home(struct kunit *test)
{
	u32 n, j, v, r = 777;

	for (n = 1; n <= 60; n++)
		for (j = 0; j < 40; j++) {
			u32 best = 0, bd = 0xffffffffU, x, sp = j % 4;

			r = r * 1103515245U + 12345U;
			x = j < 3 ? (u32)0 - j : r;
			for (v = 0; v < n; v++) {
				u32 c = dp_s2_cd(dp_s2_coord(3, n, v, sp), x);

				if (c < bd) {
					bd = c;
					best = v;
				}
			}
			KUNIT_EXPECT_EQ_MSG(test, dp_s2_home(3, n, x, sp), best,
					    "n %u x %u", n, x);
		}
}

static void s2t_decision(struct kunit *test)
{
	static const u32 self[1] = { 0x40000000U }, dst[1] = { 0 };
	static const u32 a[1] = { 0x30000000U }, b[1] = { 0x50000000U };
	static const u32 w[1] = { 0x08000000U }, z[1] = { 0x20000000U };
	struct dp_s2_cand c[4] = {
		{ a, 0, false }, { b, 1, false }, { w, 1, true }, { z, 0, true },
	};
	u32 best;

	KUNIT_EXPECT_EQ(test, dp_s2_greedy(self, dst, 1, c, 4,
					   DP_S2_RULE_1HOP, &best), 0);
	KUNIT_EXPECT_EQ(test, best, 0x30000000U);
	KUNIT_EXPECT_EQ(test, dp_s2_greedy(self, dst, 1, c, 4,
					   DP_S2_RULE_2HOP_PAPER, &best), 1);
	KUNIT_EXPECT_EQ(test, best, 0x08000000U);
	KUNIT_EXPECT_EQ(test, dp_s2_greedy(self, dst, 1, c, 4,
					   DP_S2_RULE_2HOP_SIM, &best), 0);
	KUNIT_EXPECT_EQ(test, best, 0x20000000U);
	KUNIT_EXPECT_EQ(test, dp_s2_greedy(dst, dst, 1, c, 4,
					   DP_S2_RULE_2HOP_PAPER, &best), -1);
	/* hostile via: out of range, or a 2-hop entry */
	c[2].via = 9;
	c[3].via = 2;
	KUNIT_EXPECT_EQ(test, dp_s2_greedy(self, dst, 1, c, 4,
					   DP_S2_RULE_2HOP_PAPER, &best), 0);
	KUNIT_EXPECT_EQ(test, dp_s2_first_hop(self, dst, 1, c, 2, 77), 0);
}

#define S2T_N	24
#define S2T_L	3
#define S2T_P	(2 * S2T_L)	/* ports: two ring neighbours per space */

struct s2t_net {
	u32 x[S2T_N][S2T_L];
	u32 nb[S2T_N][S2T_P];
	struct dp_s2_cand c[S2T_P * (S2T_P + 1)];
};

/* What @cur learns from Hellos: 1-hop candidates first, then 2-hop. */
static u32 s2t_cands(struct s2t_net *g, u32 cur)
{
	u32 i, j, n = 0;

	for (i = 0; i < S2T_P; i++) {
		g->c[n].x = g->x[g->nb[cur][i]];
		g->c[n].via = i;
		g->c[n++].two_hop = false;
	}
	for (i = 0; i < S2T_P; i++)
		for (j = 0; j < S2T_P; j++) {
			g->c[n].x = g->x[g->nb[g->nb[cur][i]][j]];
			g->c[n].via = i;
			g->c[n++].two_hop = true;
		}
	return n;
}

/* Route @u to @v with @rule, checking the invariant of topo_s2.h. */
static void s2t_walk(struct kunit *test, struct s2t_net *g, u32 rule, u32 u,
		     u32 v)
{
	u32 cur = u, hops = 0, visited = 0;

	while (cur != v && hops <= S2T_N) {
		u32 n = s2t_cands(g, cur);
		int k = dp_s2_greedy(g->x[cur], g->x[v], S2T_L, g->c, n, rule,
				     NULL);

		KUNIT_EXPECT_FALSE(test, visited & (1U << cur));
		visited |= 1U << cur;
		KUNIT_ASSERT_GE(test, k, 0);
		if (rule != DP_S2_RULE_2HOP_PAPER)
			KUNIT_EXPECT_LT(test,
					dp_s2_mcd(g->x[g->nb[cur][k]], g->x[v],
						  S2T_L),
					dp_s2_mcd(g->x[cur], g->x[v], S2T_L));
		cur = g->nb[cur][k];
		hops++;
	}
	KUNIT_EXPECT_EQ_MSG(test, cur, v, "rule %u %u->%u", rule, u, v);
}

/*
 * A ring network of S2T_N nodes on derived coordinates: cabled to its two
 * ring neighbours in every space (slot +- 1), no spare cables.  Every pair,
 * every rule: the route reaches the destination, never revisits a node,
 * and for the MCD-reducing rules every hop reduces the MCD.
 */
static void s2t_routing(struct kunit *test)
{
	struct s2t_net *g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);
	u32 seed = 11, u, v, sp, rule;

	KUNIT_ASSERT_NOT_NULL(test, g);
	for (u = 0; u < S2T_N; u++)
		for (sp = 0; sp < S2T_L; sp++) {
			u32 s = dp_s2_slot(seed, S2T_N, u, sp);

			g->x[u][sp] = dp_s2_coord(seed, S2T_N, u, sp);
			g->nb[u][2 * sp] =
				dp_s2_slot_node(seed, S2T_N,
						(s + S2T_N - 1) % S2T_N, sp);
			g->nb[u][2 * sp + 1] =
				dp_s2_slot_node(seed, S2T_N, (s + 1) % S2T_N,
						sp);
		}
	for (rule = 0; rule < DP_S2_RULE_COUNT; rule++)
		for (u = 0; u < S2T_N; u++)
			for (v = 0; v < S2T_N; v++)
				s2t_walk(test, g, rule, u, v);
}

/* MCD of node @id to node @dst with the fabric's derived coordinates. */
static u32 s2t_mcd_ids(const struct dp_topo *t, u32 id, u32 dst)
{
	u32 x[DP_S2_SPACES_MAX], y[DP_S2_SPACES_MAX], i;

	for (i = 0; i < t->p.spaces; i++) {
		x[i] = dp_s2_coord(t->p.seed, t->nodes, id, i);
		y[i] = dp_s2_coord(t->p.seed, t->nodes, dst, i);
	}
	return dp_s2_mcd(x, y, t->p.spaces);
}

/* One pair, failure-free, under selector @sel. */
static void s2t_ops_walk(struct kunit *test, const struct dp_topo *t,
			 u32 sel, u32 u, u32 v)
{
	struct dp_route_state st;
	struct dp_hop hop;
	u32 at = u, hops = 0, m;

	dp_route_init(t, u, v, sel, 0, &st);
	while (at != v) {
		m = s2t_mcd_ids(t, at, v);
		KUNIT_ASSERT_EQ(test, dp_route(t, at, &st, NULL, &hop), 0);
		KUNIT_ASSERT_LE(test, ++hops, t->max_hops);
		at = hop.next;
		if (sel)	/* 1hop, 2hop-sim: strictly closer */
			KUNIT_EXPECT_LT(test, s2t_mcd_ids(t, at, v), m);
	}
}

/*
 * The module's S2 topology (dp_s2_ops): every used port's cable is seen
 * from both ends (port_neigh and peer_port agree), and failure-free
 * routing between every pair arrives within t->max_hops, under each
 * rule, with a strictly decreasing MCD for 1hop and 2hop-sim.
 */
static void s2t_ops(struct kunit *test)
{
	static const struct { u32 nodes, ports, spaces, seed; } fab[] = {
		{ 16, 4, 2, 7 }, { 8, 4, 2, 7 }, { 30, 6, 2, 1 },
		{ 25, 7, 3, 3 }, { 3, 2, 1, 0 },
	};
	const char *why = NULL;
	struct dp_topo t;
	u32 f;

	for (f = 0; f < ARRAY_SIZE(fab); f++) {
		struct dp_topo_params p = {
			.kind = DP_TOPO_S2, .nodes = fab[f].nodes,
			.n = fab[f].ports, .spaces = fab[f].spaces,
			.seed = fab[f].seed,
		};
		u32 u, v, port, sel;

		KUNIT_ASSERT_EQ_MSG(test, dp_topo_init(&t, &p, &why), 0, "%s",
				    why);
		KUNIT_EXPECT_EQ(test, t.ff_hops, fab[f].nodes);
		KUNIT_EXPECT_EQ(test, t.max_hops, 2 * fab[f].nodes - 1);
		for (u = 0; u < t.nodes; u++) {
			for (port = 0; port < t.nports; port++) {
				u32 peer = dp_port_neigh(&t, u, port, 0);
				int pp;

				if (peer == DP_NODE_NONE)
					continue;
				KUNIT_EXPECT_NE(test, peer, u);
				pp = dp_peer_port(&t, u, port, peer);
				KUNIT_ASSERT_GE(test, pp, 0);
				KUNIT_EXPECT_EQ(test,
						dp_port_neigh(&t, peer, pp, 0), u);
			}
		}
		for (sel = 0; sel < dp_sel_count(&t); sel++)
			for (u = 0; u < t.nodes; u++)
				for (v = 0; v < t.nodes; v++)
					if (u != v)
						s2t_ops_walk(test, &t, sel, u, v);
	}
}

/* MCD of node @id to the point @y. */
static u32 s2t_mcd_pt(const struct dp_topo *t, u32 id, const u32 *y)
{
	u32 x[DP_S2_SPACES_MAX], i;

	for (i = 0; i < t->p.spaces; i++)
		x[i] = dp_s2_coord(t->p.seed, t->nodes, id, i);
	return dp_s2_mcd(x, y, t->p.spaces);
}

/*
 * One key frame from @u to the key id @kid (point @y) under selector
 * @sel, failure-free: it ends (at_dst: deliver) within t->max_hops at a
 * home of the key in one of the spaces; the MCD to the point strictly
 * decreases under 1hop and 2hop-sim.
 */
static void s2t_key_walk(struct kunit *test, const struct dp_topo *t,
			 u32 kid, const u32 *y, u32 sel, u32 u)
{
	struct dp_route_state st;
	struct dp_hop hop;
	u32 at = u, hops = 0, m, sp;
	bool home = false;

	dp_key_route_init(t, u, kid, sel, &st);
	KUNIT_ASSERT_TRUE(test, dp_dst_is_key(t, st.flags));
	for (;;) {
		m = s2t_mcd_pt(t, at, y);
		if (dp_route(t, at, &st, NULL, &hop))
			break;
		KUNIT_ASSERT_LE(test, ++hops, t->max_hops);
		at = hop.next;
		if (sel)	/* 1hop, 2hop-sim: strictly closer */
			KUNIT_EXPECT_LT(test, s2t_mcd_pt(t, at, y), m);
	}
	KUNIT_EXPECT_EQ(test, hop.reason, DP_DROP_ROUTE_AT_DST);
	for (sp = 0; sp < t->p.spaces; sp++)
		if (dp_s2_home(t->p.seed, t->nodes, y[sp], sp) == at)
			home = true;
	KUNIT_EXPECT_TRUE_MSG(test, home, "key %08x from %u ends at %u",
			      kid, u, at);
}

/*
 * Key frames (dp_key_route_init()): from every node, under every rule,
 * greediest routing toward a key id's point ends at a node that is the
 * key's home (dp_s2_home()) in one of the first d spaces, the paper's
 * retrieve property (s2t_key_walk()).  A key frame with a hashed first
 * hop or a waypoint is a header no node sends.
 */
static void s2t_keys(struct kunit *test)
{
	static const struct { u32 nodes, ports, spaces, seed; } fab[] = {
		{ 16, 4, 2, 7 }, { 30, 6, 2, 1 }, { 25, 7, 3, 3 },
		{ 3, 2, 1, 0 },
	};
	u32 f, k, u, sel, y[DP_S2_SPACES_MAX];
	struct dp_route_state st;
	const char *why = NULL;
	struct dp_topo t;
	struct dp_hop hop;

	for (f = 0; f < ARRAY_SIZE(fab); f++) {
		struct dp_topo_params p = {
			.kind = DP_TOPO_S2, .nodes = fab[f].nodes,
			.n = fab[f].ports, .spaces = fab[f].spaces,
			.seed = fab[f].seed,
		};

		KUNIT_ASSERT_EQ_MSG(test, dp_topo_init(&t, &p, &why), 0, "%s",
				    why);
		KUNIT_ASSERT_TRUE(test, dp_topo_has_keys(&t));
		for (k = 0; k < 48; k++) {
			u32 kid = k < 2 ? k * 0xffffffffU : dp_fmix32(k);

			dp_s2_key_point(kid, t.p.spaces, y);
			for (sel = 0; sel < dp_sel_count(&t); sel++)
				for (u = 0; u < t.nodes; u++)
					s2t_key_walk(test, &t, kid, y, sel, u);
		}
		/* Hostile key headers: a hashed first hop, a waypoint. */
		dp_key_route_init(&t, 0, 5, 0, &st);
		st.flags |= 0x04;
		KUNIT_EXPECT_EQ(test, dp_route(&t, 1, &st, NULL, &hop), -1);
		KUNIT_EXPECT_STREQ(test, dp_drop_reason_name(&t, hop.reason),
				   "bad_state");
		dp_key_route_init(&t, 0, 5, 0, &st);
		st.waypoint = 1;
		KUNIT_EXPECT_EQ(test, dp_route(&t, 1, &st, NULL, &hop), -1);
		KUNIT_EXPECT_STREQ(test, dp_drop_reason_name(&t, hop.reason),
				   "bad_state");
		/* A frame to a node is not a key frame. */
		dp_route_init(&t, 0, 1, 0, 0, &st);
		KUNIT_EXPECT_FALSE(test, dp_dst_is_key(&t, st.flags));
	}
	/* The key's id is the FNV-1a hash of its bytes ("a": 0xe40c292c). */
	KUNIT_EXPECT_EQ(test, dp_s2_key_hash((const u8 *)"a", 1), 0xe40c292cU);
}

/* Parameters the module refuses, each with its extack message. */
static void s2t_ops_init(struct kunit *test)
{
	struct dp_topo_params p = { .kind = DP_TOPO_S2, .nodes = 16, .n = 4,
				    .spaces = 2 };
	const char *why = NULL;
	struct dp_topo t;

	p.nodes = 16385;
	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &p, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "nodes out of range (3..16384)");
	p.nodes = 16;
	p.n = 3;
	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &p, &why), -EINVAL);
	p.n = 17;
	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &p, &why), -EINVAL);
	p.n = 4;
	p.k = 2;
	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &p, &why), -EINVAL);
	p.k = 0;
	p.spaces = 0;
	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &p, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "Missing spaces");
	p.spaces = 2;
	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &p, &why), 0);
}

/* Append a TLV of @n big-endian u32s; returns the new length. */
static u32 s2t_tlv(u8 *b, u32 pos, u16 type, const u32 *v, u32 n)
{
	u32 i;

	b[pos] = type >> 8;
	b[pos + 1] = type;
	b[pos + 2] = (n * 4) >> 8;
	b[pos + 3] = n * 4;
	for (i = 0; i < n; i++) {
		b[pos + 4 + 4 * i] = v[i] >> 24;
		b[pos + 5 + 4 * i] = v[i] >> 16;
		b[pos + 6 + 4 * i] = v[i] >> 8;
		b[pos + 7 + 4 * i] = v[i];
	}
	return pos + 4 + 4 * n;
}

/*
 * Hello TLVs 2 (coordinates) and 3 (neighbour list): parsed in order;
 * the 2-hop table is bounded (at most DPILLAR_TLV_NEIGHS_MAX ids per
 * neighbour, so ports^2 per node): one id more, an empty coordinate list,
 * a length not a multiple of 4 or a TLV given twice drops the Hello.
 */
static void s2t_tlv_parse(struct kunit *test)
{
	u32 v[DPILLAR_TLV_NEIGHS_MAX + 1], i, pos;
	struct dp_hello_info hi;
	u8 *b = kunit_kzalloc(test, DPILLAR_HELLO_TLV_MAX, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, b);
	BUILD_BUG_ON(DPILLAR_TLV_NEIGHS_MAX < DP_MAX_PORTS);
	BUILD_BUG_ON(DPILLAR_TLV_COORDS_MAX < DP_S2_SPACES_MAX);
	for (i = 0; i < ARRAY_SIZE(v); i++)
		v[i] = 0x01020304U * (i + 1);
	pos = s2t_tlv(b, 0, DPILLAR_TLV_COORDS, v, 3);
	pos = s2t_tlv(b, pos, DPILLAR_TLV_NEIGHS, v, DPILLAR_TLV_NEIGHS_MAX);
	KUNIT_ASSERT_TRUE(test, dp_hello_parse(b, pos, &hi));
	KUNIT_EXPECT_EQ(test, hi.ncoords, 3);
	KUNIT_EXPECT_EQ(test, hi.coords[2], v[2]);
	KUNIT_EXPECT_TRUE(test, hi.has_neighs);
	KUNIT_EXPECT_EQ(test, hi.nneighs, DPILLAR_TLV_NEIGHS_MAX);
	KUNIT_EXPECT_EQ(test, hi.neighs[DPILLAR_TLV_NEIGHS_MAX - 1],
			v[DPILLAR_TLV_NEIGHS_MAX - 1]);

	/* one neighbour past the bound */
	pos = s2t_tlv(b, 0, DPILLAR_TLV_NEIGHS, v, DPILLAR_TLV_NEIGHS_MAX + 1);
	KUNIT_EXPECT_FALSE(test, dp_hello_parse(b, pos, &hi));
	/* an empty neighbour list is a node that hears nobody yet */
	pos = s2t_tlv(b, 0, DPILLAR_TLV_NEIGHS, v, 0);
	KUNIT_EXPECT_TRUE(test, dp_hello_parse(b, pos, &hi));
	KUNIT_EXPECT_TRUE(test, hi.has_neighs);
	KUNIT_EXPECT_EQ(test, hi.nneighs, 0);
	/* twice */
	pos = s2t_tlv(b, pos, DPILLAR_TLV_NEIGHS, v, 1);
	KUNIT_EXPECT_FALSE(test, dp_hello_parse(b, pos, &hi));
	/* no coordinates, too many, twice */
	pos = s2t_tlv(b, 0, DPILLAR_TLV_COORDS, v, 0);
	KUNIT_EXPECT_FALSE(test, dp_hello_parse(b, pos, &hi));
	pos = s2t_tlv(b, 0, DPILLAR_TLV_COORDS, v, DPILLAR_TLV_COORDS_MAX + 1);
	KUNIT_EXPECT_FALSE(test, dp_hello_parse(b, pos, &hi));
	pos = s2t_tlv(b, 0, DPILLAR_TLV_COORDS, v, 1);
	pos = s2t_tlv(b, pos, DPILLAR_TLV_COORDS, v, 1);
	KUNIT_EXPECT_FALSE(test, dp_hello_parse(b, pos, &hi));
	/* a length that is not whole u32s */
	pos = s2t_tlv(b, 0, DPILLAR_TLV_NEIGHS, v, 1);
	b[3] = 3;
	KUNIT_EXPECT_FALSE(test, dp_hello_parse(b, pos, &hi));
}

/*
 * A fabric with failed cables and a shortcut table per node, as the
 * view's reachable and shortcut see them.  @hostile: every node answers
 * any shortcut request with a random port and a random length, reachable
 * or not: the routing core must stay loop-free whatever the tables say.
 */
struct s2t_sc {
	const struct dp_topo *t;
	bool dead[32][DP_MAX_PORTS];
	u32 dst;			/* the destination the table is for */
	u32 port[32], dist[32];		/* dist 0: no shortcut */
	bool hostile;
	u32 rnd;
};

static bool s2t_sc_reachable(const void *ctx, u32 self, u32 port, u32 peer)
{
	const struct s2t_sc *c = ctx;

	return self < 32 && port < DP_MAX_PORTS && !c->dead[self][port];
}

static bool s2t_sc_shortcut(const void *ctx, u32 self, u32 dst, u32 max,
			    u32 *port, u32 *peer, u32 *dist)
{
	struct s2t_sc *c = (struct s2t_sc *)ctx;

	if (c->hostile) {
		c->rnd = c->rnd * 1103515245U + 12345U;
		*port = (c->rnd >> 8) % c->t->nports;
		*peer = dp_port_neigh(c->t, self, *port, 0);
		*dist = 1 + (c->rnd >> 16) % (max ? max : 1);
		return max && *peer != DP_NODE_NONE;
	}
	if (dst != c->dst || !c->dist[self] || c->dist[self] > max)
		return false;
	*port = c->port[self];
	*peer = dp_port_neigh(c->t, self, *port, 0);
	*dist = c->dist[self];
	return true;
}

/* What a discovery from @p installs: a BFS path from @p to c->dst. */
static bool s2t_sc_install(struct s2t_sc *c, u32 p)
{
	u32 from[32], via[32], q[32], head = 0, tail = 0, u, port, n;

	memset(c->dist, 0, sizeof(c->dist));
	for (u = 0; u < 32; u++)
		from[u] = DP_NODE_NONE;
	from[p] = p;
	q[tail++] = p;
	while (head < tail && from[c->dst] == DP_NODE_NONE) {
		u = q[head++];
		for (port = 0; port < c->t->nports; port++) {
			u32 w = dp_port_neigh(c->t, u, port, 0);

			if (w == DP_NODE_NONE || c->dead[u][port] ||
			    from[w] != DP_NODE_NONE)
				continue;
			from[w] = u;
			via[w] = port;
			q[tail++] = w;
		}
	}
	if (from[c->dst] == DP_NODE_NONE)
		return false;
	/* The reply walks back: each node learns its next hop, its length. */
	for (u = c->dst, n = 0; u != p; u = from[u]) {
		c->port[from[u]] = via[u];
		c->dist[from[u]] = ++n;
	}
	return true;
}

/*
 * Shortcut phase of dp_s2_route(): 16 nodes of 4 ports, a quarter of the
 * cables failed.  With the tables one discovery installs, every pair
 * whose greedy path is stuck while the destination is connected arrives,
 * along greedy then the BFS path.  With hostile tables and random
 * headers, every walk ends (arrival or drop) within t->max_hops and each
 * hop of the phase strictly lowers the word: the loop-freedom invariant
 * of dp_s2_route().
 */
static void s2t_shortcut(struct kunit *test)
{
	struct dp_topo_params p = { .kind = DP_TOPO_S2, .nodes = 16, .n = 4,
				    .spaces = 2, .seed = 7 };
	struct s2t_sc *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	u32 u, v, port, stuck = 0, saved = 0, walks = 0;
	static const struct dp_view_coords vc = {
		.shortcut = s2t_sc_shortcut,
	};
	struct dp_view view = {
		.reachable = s2t_sc_reachable,
		.coords = &vc,
	};
	struct dp_route_state st;
	const char *why = NULL;
	struct dp_topo t;
	struct dp_hop hop;

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ_MSG(test, dp_topo_init(&t, &p, &why), 0, "%s", why);
	c->t = &t;
	c->rnd = 5;
	view.ctx = c;
	for (u = 0; u < t.nodes; u++)
		for (port = 0; port < t.nports; port++) {
			u32 w = dp_port_neigh(&t, u, port, 0);
			int pp = dp_peer_port(&t, u, port, w);

			c->rnd = c->rnd * 1103515245U + 12345U;
			if (w == DP_NODE_NONE || w < u || pp < 0 ||
			    (c->rnd >> 16) % 4)
				continue;
			c->dead[u][port] = true;
			c->dead[w][pp] = true;
		}

	for (u = 0; u < t.nodes; u++)
		for (v = 0; v < t.nodes; v++) {
			u32 at = u, hops = 0;

			if (u == v)
				continue;
			c->dst = v;
			memset(c->dist, 0, sizeof(c->dist));
			dp_route_init(&t, u, v, 1, 0, &st);	/* 1hop */
			while (at != v && !dp_route(&t, at, &st, &view, &hop))
				at = hop.next;
			if (at == v)
				continue;
			KUNIT_ASSERT_EQ(test, hop.reason, t.ops->discover_drop);
			stuck++;
			if (!s2t_sc_install(c, at))
				continue;	/* not connected */
			dp_route_init(&t, u, v, 1, 0, &st);
			for (at = u; at != v; at = hop.next) {
				KUNIT_ASSERT_EQ_MSG(test,
						    dp_route(&t, at, &st, &view,
							     &hop), 0,
						    "%u -> %u at %u", u, v, at);
				KUNIT_ASSERT_LE(test, ++hops, t.max_hops);
			}
			saved++;
		}
	kunit_info(test, "%u pairs stuck at a local minimum, %u of them connected and delivered by the shortcut\n",
		   stuck, saved);
	KUNIT_EXPECT_GT(test, saved, 0);

	c->hostile = true;
	for (u = 0; u < t.nodes; u++)
		for (v = 0; v < t.nodes; v++) {
			u32 at = u, hops = 0, word = 0;
			bool phase = false;

			if (u == v)
				continue;
			c->rnd = c->rnd * 1103515245U + 12345U;
			dp_route_init(&t, u, v, 1 + c->rnd % 2, c->rnd >> 20,
				      &st);
			if (c->rnd & 0x100) {	/* a header off the wire */
				st.flags = (st.flags & 0x03) | 0x08;
				/* around the budget: the edge is a drop */
				st.word = (c->rnd >> 9) %
					  (t.max_hops - t.ff_hops + 2);
			}
			while (at != v && !dp_route(&t, at, &st, &view, &hop)) {
				if (phase)
					KUNIT_ASSERT_LT(test, st.word, word);
				phase = st.flags & 0x08;
				word = st.word;
				at = hop.next;
				KUNIT_ASSERT_LE(test, ++hops, t.max_hops);
			}
			walks++;
		}
	kunit_info(test, "%u hostile walks ended\n", walks);
}

/*
 * Plan mode against derived mode: a plan whose table holds exactly the
 * derived coordinates and cabling must route every packet as derived
 * mode does, hop by hop, when both see the fabric through the same view
 * (the plan-mode core reading coordinates from the view and the frame,
 * the derived one computing them).  The view is the table's, with one
 * failed node: what Hellos would report.
 */
struct s2t_pv {
	const struct dp_s2_plan *pl;
	u32 failed;
};

static bool s2t_pv_reachable(const void *ctx, u32 self, u32 port, u32 peer)
{
	const struct s2t_pv *c = ctx;

	return self < c->pl->nodes && port < c->pl->ports &&
	       c->pl->peer[self * c->pl->ports + port] == peer &&
	       peer != DP_NODE_NONE && peer != c->failed &&
	       self != c->failed;
}

static u32 s2t_pv_cable_peer(const void *ctx, u32 self, u32 port)
{
	const struct s2t_pv *c = ctx;
	u32 peer;

	if (self >= c->pl->nodes || port >= c->pl->ports)
		return DP_NODE_NONE;
	peer = c->pl->peer[self * c->pl->ports + port];
	return s2t_pv_reachable(ctx, self, port, peer) ? peer : DP_NODE_NONE;
}

static u32 s2t_pv_copy(const struct s2t_pv *c, u32 id, u32 *x, u32 max)
{
	u32 i;

	if (id >= c->pl->nodes || max < c->pl->spaces)
		return 0;
	for (i = 0; i < c->pl->spaces; i++)
		x[i] = c->pl->coords[id * c->pl->spaces + i];
	return c->pl->spaces;
}

static u32 s2t_pv_coords(const void *ctx, u32 self, u32 port, u32 node,
			 u32 *x, u32 max)
{
	if (node != self && !s2t_pv_reachable(ctx, self, port, node))
		return 0;
	return s2t_pv_copy(ctx, node, x, max);
}

/* @peer's live neighbours in its port order, as its Hello lists them. */
static u32 s2t_pv_neighs(const void *ctx, u32 self, u32 port, u32 peer,
			 u32 *ids, u32 max)
{
	const struct s2t_pv *c = ctx;
	u32 q, n = 0;

	if (!s2t_pv_reachable(ctx, self, port, peer))
		return 0;
	for (q = 0; q < c->pl->ports && n < max; q++)
		if (s2t_pv_cable_peer(ctx, peer, q) != DP_NODE_NONE)
			ids[n++] = c->pl->peer[peer * c->pl->ports + q];
	return n;
}

static u32 s2t_pv_neigh_coords(const void *ctx, u32 self, u32 port,
			       u32 peer, u32 idx, u32 *x, u32 max)
{
	u32 ids[DP_MAX_PORTS], n;

	n = s2t_pv_neighs(ctx, self, port, peer, ids, DP_MAX_PORTS);
	return idx < n ? s2t_pv_copy(ctx, ids[idx], x, max) : 0;
}

/* A shortcut of every node to every destination: its first live cable. */
static bool s2t_pv_sc(const void *ctx, u32 self, u32 dst, u32 max,
		      u32 *port, u32 *peer, u32 *dist)
{
	const struct s2t_pv *c = ctx;
	u32 q;

	for (q = 0; q < c->pl->ports; q++) {
		*peer = s2t_pv_cable_peer(ctx, self, q);
		if (*peer != DP_NODE_NONE && max) {
			*port = q;
			*dist = max;
			return true;
		}
	}
	return false;
}

/*
 * Plan mode in the shortcut phase: the frame's coordinates block stays
 * behind the header, so the coordinates flag must stay with it at every
 * hop (a relay that cleared it sent the block on as the IP header), and
 * the next relay, reading the block, routes on.
 */
static void s2t_plan_shortcut(struct kunit *test, const struct dp_topo *tp,
			      const struct s2t_pv *c, struct dp_view *view)
{
	const struct dp_view_coords *saved = view->coords;
	struct dp_view_coords vc = *saved;
	u32 x[DP_S2_SPACES_MAX], u, v, at, hops;
	u8 flag = dp_topo_coords_flag(tp);
	struct dp_route_state st;
	struct dp_hop hop;

	vc.shortcut = s2t_pv_sc;
	view->coords = &vc;
	for (u = 0; u < tp->nodes; u++) {
		if (u == c->failed)
			continue;
		v = (u + 1) % tp->nodes;
		if (v == c->failed)
			continue;
		dp_route_init(tp, u, v, 0, 0, &st);
		KUNIT_ASSERT_TRUE(test, dp_route_set_coords(tp, &st, x,
							    s2t_pv_copy(c, v, x, 8)));
		KUNIT_ASSERT_TRUE(test, st.flags & flag);
		/* A frame a relay put in the shortcut phase, 3 hops left. */
		st.flags = (st.flags & ~0x04) | 0x08;
		st.word = 3;
		for (at = u, hops = 0; at != v && hops < 3; hops++) {
			if (dp_route(tp, at, &st, view, &hop))
				break;
			KUNIT_EXPECT_TRUE_MSG(test, st.flags & flag,
					      "%u -> %u: flag lost at %u",
					      u, v, at);
			KUNIT_EXPECT_TRUE(test, st.flags & 0x08);
			at = hop.next;
		}
		KUNIT_EXPECT_GT(test, hops, 0);
	}
	view->coords = saved;
}

/* Route @u -> @v on @t; the hops into @path (next, port, phase). */
static u32 s2t_pv_walk(const struct dp_topo *t, const struct s2t_pv *c,
		       const struct dp_view *view, u32 sel, u32 hash, u32 u,
		       u32 v, u32 *path, u8 *reason)
{
	struct dp_route_state st;
	u32 x[DP_S2_SPACES_MAX], at = u, n = 0;
	struct dp_hop hop;

	dp_route_init(t, u, v, sel, hash, &st);
	if (t->ext_len)
		dp_route_set_coords(t, &st, x, s2t_pv_copy(c, v, x, 8));
	*reason = 0;
	while (at != v && n < t->max_hops) {
		if (dp_route(t, at, &st, view, &hop)) {
			*reason = hop.reason;
			break;
		}
		path[n++] = hop.next << 12 | hop.port << 4 | hop.phase;
		at = hop.next;
	}
	return n;
}

/* Every live pair, rule and three flow hashes: the same hops on both. */
static void s2t_plan_pairs(struct kunit *test, const struct dp_topo *td,
			   const struct dp_topo *tp, const struct s2t_pv *c,
			   const struct dp_view *view, u32 *pa, u32 *pb)
{
	u32 sel, h, u, v, na, nb;
	u8 ra, rb;

	for (sel = 0; sel < dp_sel_count(tp); sel++) {
		for (h = 0; h < 3; h++) {
			for (u = 0; u < tp->nodes; u++) {
				for (v = 0; v < tp->nodes; v++) {
					if (u == v || u == c->failed ||
					    v == c->failed)
						continue;
					na = s2t_pv_walk(td, c, view, sel,
							 h * 977, u, v, pa, &ra);
					nb = s2t_pv_walk(tp, c, view, sel,
							 h * 977, u, v, pb, &rb);
					KUNIT_ASSERT_EQ(test, na, nb);
					KUNIT_ASSERT_EQ(test, ra, rb);
					KUNIT_ASSERT_EQ(test,
							memcmp(pa, pb, na * 4),
							0);
				}
			}
		}
	}
}

static void s2t_plan(struct kunit *test)
{
	static const struct { u32 nodes, ports, spaces, seed; } fab[] = {
		{ 16, 4, 2, 7 }, { 30, 6, 2, 1 }, { 25, 7, 3, 3 },
	};
	static const struct dp_view_coords pv_coords = {
		.node_coords = s2t_pv_coords,
		.peer_neigh_coords = s2t_pv_neigh_coords,
	};
	u32 *coords = kunit_kcalloc(test, 64 * 8, sizeof(u32), GFP_KERNEL);
	u32 *peer = kunit_kcalloc(test, 64 * 16, sizeof(u32), GFP_KERNEL);
	u32 *pa = kunit_kcalloc(test, DP_TTL_MAX, sizeof(u32), GFP_KERNEL);
	u32 *pb = kunit_kcalloc(test, DP_TTL_MAX, sizeof(u32), GFP_KERNEL);
	struct dp_topo *td = kunit_kzalloc(test, sizeof(*td), GFP_KERNEL);
	struct dp_topo *tp = kunit_kzalloc(test, sizeof(*tp), GFP_KERNEL);
	const char *why = NULL;
	struct dp_s2_plan pl;
	struct dp_view view;
	struct s2t_pv c;
	u32 f, u, v, i;

	KUNIT_ASSERT_NOT_NULL(test, coords);
	KUNIT_ASSERT_NOT_NULL(test, peer);
	KUNIT_ASSERT_NOT_NULL(test, pa);
	KUNIT_ASSERT_NOT_NULL(test, pb);
	KUNIT_ASSERT_NOT_NULL(test, td);
	KUNIT_ASSERT_NOT_NULL(test, tp);
	for (f = 0; f < ARRAY_SIZE(fab); f++) {
		struct dp_topo_params p = {
			.kind = DP_TOPO_S2, .nodes = fab[f].nodes,
			.n = fab[f].ports, .spaces = fab[f].spaces,
			.seed = fab[f].seed,
		};

		KUNIT_ASSERT_EQ(test, dp_topo_init(td, &p, &why), 0);
		p.ncoords = p.spaces;
		KUNIT_ASSERT_EQ_MSG(test, dp_topo_init(tp, &p, &why), 0,
				    "%s", why);
		KUNIT_EXPECT_TRUE(test, tp->learn_peers);
		KUNIT_EXPECT_EQ(test, tp->ext_len, 4 + 4 * p.spaces);
		KUNIT_EXPECT_EQ(test, td->ext_len, 0);
		/* Learned cabling: any other node may be heard on a port. */
		KUNIT_EXPECT_EQ(test, dp_port_neigh(tp, 0, 0, 0),
				DP_NODE_NONE);
		KUNIT_EXPECT_EQ(test, dp_port_neigh_index(tp, 0, 1, 5), 0);
		KUNIT_EXPECT_EQ(test, dp_port_neigh_index(tp, 0, 1, 0), -1);
		for (u = 0; u < p.nodes; u++) {
			for (i = 0; i < p.spaces; i++)
				coords[u * p.spaces + i] =
					dp_s2_coord(p.seed, p.nodes, u, i);
			for (i = 0; i < p.n; i++)
				peer[u * p.n + i] = dp_port_neigh(td, u, i, 0);
		}
		pl = (struct dp_s2_plan){ .nodes = p.nodes, .spaces = p.spaces,
					  .ports = p.n, .coords = coords,
					  .peer = peer };
		KUNIT_ASSERT_EQ(test, dp_s2_plan_attach(tp, &pl), 0);
		KUNIT_EXPECT_EQ(test, dp_s2_plan_attach(td, &pl), -EINVAL);
		for (u = 0; u < p.nodes; u++)
			for (i = 0; i < p.n; i++) {
				KUNIT_EXPECT_EQ(test, dp_port_neigh(tp, u, i, 0),
						dp_port_neigh(td, u, i, 0));
				v = dp_port_neigh(td, u, i, 0);
				if (v != DP_NODE_NONE)
					KUNIT_EXPECT_EQ(test,
							dp_peer_port(tp, u, i, v),
							dp_peer_port(td, u, i, v));
			}

		c = (struct s2t_pv){ .pl = &pl, .failed = p.nodes / 2 };
		view = (struct dp_view){
			.reachable = s2t_pv_reachable,
			.cable_peer = s2t_pv_cable_peer,
			.peer_neighs = s2t_pv_neighs,
			.coords = &pv_coords,
			.ctx = &c,
		};
		s2t_plan_pairs(test, td, tp, &c, &view, pa, pb);
		s2t_plan_shortcut(test, tp, &c, &view);
	}
}

/*
 * Plan mode's hostile and incomplete inputs: a frame without the
 * destination's coordinates, or with the wrong count, is no_coords at
 * every node; the coordinates flag in derived mode is a header no node
 * sends; a view that does not know this node's own coordinates routes
 * nothing; the parameters must give one coordinate per space.
 */
static void s2t_plan_bad(struct kunit *test)
{
	struct dp_topo_params p = { .kind = DP_TOPO_S2, .nodes = 16, .n = 4,
				    .spaces = 2, .ncoords = 1 };
	u32 x[2] = { 1, 2 };
	const char *why = NULL;
	struct dp_route_state st;
	struct dp_topo t, td;
	struct dp_hop hop;

	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &p, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "coords must give one coordinate per space");
	p.ncoords = 0;
	KUNIT_ASSERT_EQ(test, dp_topo_init(&td, &p, &why), 0);
	p.ncoords = 2;
	KUNIT_ASSERT_EQ(test, dp_topo_init(&t, &p, &why), 0);

	dp_route_init(&t, 3, 9, 0, 0, &st);
	KUNIT_EXPECT_NE(test, dp_route(&t, 3, &st, NULL, &hop), 0);
	KUNIT_EXPECT_STREQ(test, dp_drop_reason_name(&t, hop.reason),
			   "no_coords");
	KUNIT_ASSERT_TRUE(test, dp_route_set_coords(&t, &st, x, 2));
	st.ncoords = 1;
	KUNIT_EXPECT_NE(test, dp_route(&t, 3, &st, NULL, &hop), 0);
	KUNIT_EXPECT_STREQ(test, dp_drop_reason_name(&t, hop.reason),
			   "no_coords");
	/* carried, but the view knows not even this node's coordinates */
	st.ncoords = 2;
	KUNIT_EXPECT_NE(test, dp_route(&t, 3, &st, NULL, &hop), 0);
	KUNIT_EXPECT_STREQ(test, dp_drop_reason_name(&t, hop.reason),
			   "no_coords");

	/* derived mode carries none: the flag is a forged header */
	dp_route_init(&td, 3, 9, 0, 0, &st);
	KUNIT_EXPECT_TRUE(test, dp_route_set_coords(&td, &st, x, 2));
	KUNIT_EXPECT_NE(test, dp_route(&td, 3, &st, NULL, &hop), 0);
	KUNIT_EXPECT_STREQ(test, dp_drop_reason_name(&td, hop.reason),
			   "bad_state");
	KUNIT_EXPECT_FALSE(test, dp_route_set_coords(&td, &st, x, 9));
}

/*
 * Fabrics of at most 255 nodes are unchanged by the renewal (S2_FL_EXT,
 * s2_ttl_renew()): every decision, and the header state it leaves
 * (flags, word), of sampled pairs and key frames, node and data frames,
 * under every rule, with and without a flow hash, folded (FNV-1a) into
 * one number.  The numbers are those of the code before the renewal
 * existed (commit 7f590b7, the same loop compiled in user space), so a
 * frame of such a fabric is byte for byte what an older node sends.
 */
static u32 s2t_fold(u32 h, u32 v)
{
	return (h ^ v) * 0x01000193U;
}

/* One frame: @k 0 plain, 1 with a flow hash, 2 to a key. */
static u32 s2t_golden_walk(const struct dp_topo *t, u32 u, u32 v, u32 sel,
			   u32 k, u32 h)
{
	struct dp_route_state st;
	struct dp_hop hop;
	u32 at, hops;

	if (k == 2)
		dp_key_route_init(t, u, u * 0x9e3779b9U + v, sel, &st);
	else
		dp_route_init(t, u, v, sel, k ? u * 131 + v + 1 : 0, &st);
	h = s2t_fold(h, st.flags);
	h = s2t_fold(h, st.word);
	for (at = u, hops = 0; hops < t->max_hops && (k == 2 || at != v);
	     hops++) {
		if (dp_route(t, at, &st, NULL, &hop))
			return s2t_fold(h, 0xdead0000U | hop.reason);
		h = s2t_fold(h, hop.next);
		h = s2t_fold(h, hop.port);
		h = s2t_fold(h, hop.phase);
		h = s2t_fold(h, st.flags);
		h = s2t_fold(h, st.word);
		at = hop.next;
	}
	return h;
}

/* With @tables, routed from derived mode's tables (dp_topo_alloc()). */
static u32 s2t_golden(u32 nodes, u32 n, u32 spaces, u32 seed, bool tables)
{
	struct dp_topo_params p = { .kind = DP_TOPO_S2, .nodes = nodes,
				    .n = n, .spaces = spaces, .seed = seed };
	u32 h = 0x811c9dc5U, u, v, sel, k;
	struct dp_topo t;

	if (dp_topo_init(&t, &p, NULL) || (tables && !dp_topo_alloc(&t)))
		return 0;
	h = s2t_fold(h, t.max_hops);
	h = s2t_fold(h, dp_topo_ttl(&t));
	for (u = 0; u < nodes; u += 3)
		for (v = (u * 7) % nodes; v < nodes; v += 5)
			for (sel = 0; sel < 3; sel++)
				for (k = 0; k < 3; k++)
					if (k == 2 || u != v)
						h = s2t_golden_walk(&t, u, v,
								    sel, k, h);
	dp_topo_free(&t);
	return h;
}

static void s2t_small_unchanged(struct kunit *test)
{
	struct dp_topo_params p = { .kind = DP_TOPO_S2, .nodes = 255, .n = 12,
				    .spaces = 4, .seed = 1 };
	struct dp_route_state st = { .flags = 0x40, .word = 3 };
	struct dp_topo t;
	u8 ttl = 1;

	KUNIT_EXPECT_EQ(test, s2t_golden(16, 4, 2, 7, false), 0x878455cdU);
	KUNIT_EXPECT_EQ(test, s2t_golden(200, 8, 3, 11, false), 0x60de4cb6U);
	KUNIT_EXPECT_EQ(test, s2t_golden(255, 12, 4, 1, false), 0x6b5941b0U);
	/* the same walks from derived mode's tables (dp_topo_alloc()) */
	KUNIT_EXPECT_EQ(test, s2t_golden(16, 4, 2, 7, true), 0x878455cdU);
	KUNIT_EXPECT_EQ(test, s2t_golden(200, 8, 3, 11, true), 0x60de4cb6U);
	KUNIT_EXPECT_EQ(test, s2t_golden(255, 12, 4, 1, true), 0x6b5941b0U);
	/* no renewal: TTL 1 is dropped, whatever the header says */
	KUNIT_ASSERT_EQ(test, dp_topo_init(&t, &p, NULL), 0);
	KUNIT_EXPECT_EQ(test, t.max_hops, 255U);
	KUNIT_EXPECT_FALSE(test, dp_ttl_relay(&t, &st, &ttl));
	KUNIT_EXPECT_EQ(test, st.word, 3);
}

/*
 * The paper's scale (its 48-port, 2,880-switch fabric, within the
 * module's 16 ports): 2,880 nodes accepted, the bound of s2_init(), the
 * derived cabling that of the generic permutation (dp_s2_slot(), the
 * tools' builder), and sampled pairs routed to delivery within the bound
 * as the relays do it (dp_walk(): the u8 TTL spent and renewed), every
 * hop strictly closer under 1hop and 2hop-sim.
 */
#define S2T_BIG		2880U
#define S2T_BIG_EXT	11U	/* ceil(2880 / 254) - 1 */
#define S2T_BIG_G	(255U + 254U * S2T_BIG_EXT)

static void s2t_big_init(struct kunit *test, struct dp_topo *t, u32 n,
			 u32 spaces, u32 seed)
{
	struct dp_topo_params p = { .kind = DP_TOPO_S2, .nodes = S2T_BIG,
				    .n = n, .spaces = spaces, .seed = seed };
	const char *why = NULL;

	KUNIT_ASSERT_EQ_MSG(test, dp_topo_init(t, &p, &why), 0, "%s", why);
}

static void s2t_big(struct kunit *test)
{
	static const struct { u32 n, spaces, seed; } fab[] = {
		{ 12, 4, 1 }, { 16, 6, 2 },
	};
	struct dp_topo_params p = { .kind = DP_TOPO_S2, .nodes = 16385,
				    .n = 12, .spaces = 4 };
	u32 f, i, u, v, port, sel, walks = 0, sum = 0, maxh = 0;
	struct dp_fail_set none;
	const char *why = NULL;
	struct dp_topo t;
	struct dp_walk w;

	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &p, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "nodes out of range (3..16384)");
	p.nodes = 16384;
	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &p, &why), 0);
	for (f = 0; f < ARRAY_SIZE(fab); f++) {
		s2t_big_init(test, &t, fab[f].n, fab[f].spaces, fab[f].seed);
		KUNIT_EXPECT_EQ(test, t.nodes, S2T_BIG);
		KUNIT_EXPECT_EQ(test, t.ff_hops, S2T_BIG);
		KUNIT_EXPECT_EQ(test, t.max_hops, S2T_BIG_G + S2T_BIG - 1);
		KUNIT_EXPECT_EQ(test, dp_topo_ttl(&t), (u32)DP_TTL_MAX);
		for (u = 0; u < S2T_BIG; u += 97) {
			for (port = 0; port < t.nports; port++) {
				u32 peer = dp_port_neigh(&t, u, port, 0);
				u32 r = port / 2, s;
				int pp;

				if (peer == DP_NODE_NONE)
					continue;
				pp = dp_peer_port(&t, u, port, peer);
				KUNIT_ASSERT_GE(test, pp, 0);
				KUNIT_EXPECT_EQ(test,
						dp_port_neigh(&t, peer, pp, 0),
						u);
				if (r >= fab[f].spaces)
					continue;
				/* ring r is space r's slot order */
				s = dp_s2_slot(fab[f].seed, S2T_BIG, u, r);
				s = port & 1 ? (s + 1) % S2T_BIG :
					       (s + S2T_BIG - 1) % S2T_BIG;
				KUNIT_EXPECT_EQ(test, peer,
						dp_s2_slot_node(fab[f].seed,
								S2T_BIG, s,
								r));
			}
		}
		dpt_fail_init(test, &none, &t);
		for (i = 0; i < 150; i++) {
			u = (i * 7919U + f) % S2T_BIG;
			v = (i * 104729U + 13) % S2T_BIG;
			if (u == v)
				continue;
			for (sel = 0; sel < dp_sel_count(&t); sel++)
				s2t_ops_walk(test, &t, sel, u, v);
			/* hashed first hop, failure-free and through a view */
			dp_walk(&t, u, v, 0, i * 0x9e3779b9U + 1, NULL,
				t.max_hops, &w);
			KUNIT_EXPECT_TRUE_MSG(test, w.delivered, "%u -> %u",
					      u, v);
			KUNIT_EXPECT_LE(test, w.hops, t.ff_hops);
			dp_walk(&t, u, v, 1, 0, &none, t.max_hops, &w);
			KUNIT_EXPECT_TRUE_MSG(test, w.delivered, "%u -> %u",
					      u, v);
			walks++;
			sum += w.hops;
			if (w.hops > maxh)
				maxh = w.hops;
		}
	}
	kunit_info(test, "2880 nodes: %u pairs delivered, %u hops mean x100, %u max\n",
		   walks, walks ? 100 * sum / walks : 0, maxh);
}

/*
 * The renewal across the u8 TTL (s2_ttl_renew()), as a relay runs it
 * (dp_ttl_relay()): a frame sent with TTL 2 and one unit of the count
 * goes on past the second relay, and the budget Q = ttl + 254 * count
 * falls by exactly one a hop; without the unit it is dropped there.
 * Hostile counts are not renewed, nor shortcut words with nothing left.
 */
static u32 s2t_q(const struct dp_route_state *st, u8 ttl)
{
	return ttl + (st->flags & 0x40 ? 254U * st->word : 0);
}

/* Walk from @u to @v with wire TTL @ttl and count @e: hops, or ~0 drop. */
static u32 s2t_renew_walk(struct kunit *test, const struct dp_topo *t, u32 u,
			  u32 v, u8 ttl, u16 e, u32 *renewals)
{
	struct dp_route_state st;
	struct dp_hop hop;
	u32 at = u, hops = 0, q;

	dp_route_init(t, u, v, 1, 0, &st);
	KUNIT_EXPECT_EQ(test, st.flags & 0x40, 0x40);
	KUNIT_EXPECT_EQ(test, st.word, S2T_BIG_EXT);
	st.word = e;
	*renewals = 0;
	while (at != v) {
		if (hops) {
			u16 before = st.word;

			q = s2t_q(&st, ttl);
			if (!dp_ttl_relay(t, &st, &ttl))
				return ~0U;
			KUNIT_EXPECT_EQ(test, s2t_q(&st, ttl), q - 1);
			*renewals += st.word != before;
		}
		KUNIT_ASSERT_EQ(test, dp_route(t, at, &st, NULL, &hop), 0);
		at = hop.next;
		hops++;
	}
	return hops;
}

static void s2t_big_renew(struct kunit *test)
{
	struct dp_route_state st;
	u32 u, v, hops, ren, tried = 0;
	struct dp_topo t;
	struct dp_hop hop;
	u8 ttl;

	s2t_big_init(test, &t, 12, 4, 1);
	for (u = 0, v = 1; tried < 20 && v < S2T_BIG; u += 13, v += 31) {
		struct dp_walk w;

		dp_walk(&t, u, v, 1, 0, NULL, t.max_hops, &w);
		if (!w.delivered || w.hops < 3)
			continue;
		tried++;
		hops = s2t_renew_walk(test, &t, u, v, 2, 1, &ren);
		KUNIT_EXPECT_EQ_MSG(test, hops, w.hops, "%u -> %u", u, v);
		KUNIT_EXPECT_EQ(test, ren, 1U);
		hops = s2t_renew_walk(test, &t, u, v, 2, 0, &ren);
		KUNIT_EXPECT_EQ_MSG(test, hops, ~0U, "%u -> %u", u, v);
	}
	KUNIT_EXPECT_EQ(test, tried, 20U);

	/* the renewal itself, against hostile states */
	st = (struct dp_route_state){ .flags = 0x40, .word = S2T_BIG_EXT };
	ttl = 1;
	KUNIT_EXPECT_TRUE(test, t.ops->ttl_renew(&t, &st, &ttl));
	KUNIT_EXPECT_EQ(test, ttl, 255);
	KUNIT_EXPECT_EQ(test, st.word, S2T_BIG_EXT - 1);
	ttl = 0;
	st.word = 1;
	KUNIT_EXPECT_TRUE(test, t.ops->ttl_renew(&t, &st, &ttl));
	KUNIT_EXPECT_EQ(test, ttl, 254);
	KUNIT_EXPECT_EQ(test, st.word, 0);
	ttl = 1;
	KUNIT_EXPECT_FALSE(test, t.ops->ttl_renew(&t, &st, &ttl));
	st.word = S2T_BIG_EXT + 1;	/* more than a sender gives */
	KUNIT_EXPECT_FALSE(test, t.ops->ttl_renew(&t, &st, &ttl));
	st = (struct dp_route_state){ .flags = 0x44, .word = 5 };  /* FIRST */
	KUNIT_EXPECT_FALSE(test, t.ops->ttl_renew(&t, &st, &ttl));
	st = (struct dp_route_state){ .flags = 0x04, .word = 5 };
	KUNIT_EXPECT_FALSE(test, t.ops->ttl_renew(&t, &st, &ttl));
	st = (struct dp_route_state){ .flags = 0x00, .word = 5 };
	KUNIT_EXPECT_FALSE(test, t.ops->ttl_renew(&t, &st, &ttl));
	/* shortcut phase: renewed to the word's remaining hops */
	st = (struct dp_route_state){ .flags = 0x08, .word = 5 };
	KUNIT_EXPECT_TRUE(test, t.ops->ttl_renew(&t, &st, &ttl));
	KUNIT_EXPECT_EQ(test, ttl, 6);
	KUNIT_EXPECT_EQ(test, st.word, 5);
	ttl = 1;
	st.word = 1000;
	KUNIT_EXPECT_TRUE(test, t.ops->ttl_renew(&t, &st, &ttl));
	KUNIT_EXPECT_EQ(test, ttl, 255);
	ttl = 1;
	st.word = 0;
	KUNIT_EXPECT_FALSE(test, t.ops->ttl_renew(&t, &st, &ttl));
	st.word = S2T_BIG - 1;		/* not below the shortcut budget */
	KUNIT_EXPECT_FALSE(test, t.ops->ttl_renew(&t, &st, &ttl));
	st = (struct dp_route_state){ .flags = 0x48, .word = 5 };
	KUNIT_EXPECT_FALSE(test, t.ops->ttl_renew(&t, &st, &ttl));
	/* a count beside FIRST or SHORTCUT is no state a node sends */
	st = (struct dp_route_state){ .dst = 7, .waypoint = DP_NODE_NONE,
				      .flags = 0x44, .word = 5 };
	KUNIT_EXPECT_NE(test, dp_route(&t, 3, &st, NULL, &hop), 0);
	KUNIT_EXPECT_STREQ(test, dp_drop_reason_name(&t, hop.reason),
			   "bad_state");
}

/*
 * A hostile view at 2,880 nodes: every neighbour's Hello claims the
 * destination as its own neighbour (the paper's 2hop rule then follows
 * the lie, round and round), or every node offers a shortcut as long as
 * the word allows.  The frame loops on the greedy phase's budget, or
 * takes a shortcut phase of up to 2,879 hops: either way far past the
 * u8 TTL, by renewals, and never past t->max_hops.  Random headers
 * (any flags, word and TTL) end within t->max_hops too.
 */
struct s2t_liar {
	const struct dp_topo *t;
	u32 dst;
};

static bool s2t_liar_reachable(const void *ctx, u32 self, u32 port, u32 peer)
{
	const struct s2t_liar *c = ctx;

	/* the destination is never heard: the frame cannot arrive */
	return peer != c->dst && dp_port_neigh(c->t, self, port, 0) == peer;
}

static u32 s2t_liar_neighs(const void *ctx, u32 self, u32 port, u32 peer,
			   u32 *ids, u32 max)
{
	const struct s2t_liar *c = ctx;

	if (!max)
		return 0;
	ids[0] = c->dst;
	return 1;
}

static bool s2t_liar_shortcut(const void *ctx, u32 self, u32 dst,
			      u32 max_dist, u32 *port, u32 *peer, u32 *dist)
{
	const struct s2t_liar *c = ctx;
	u32 p;

	for (p = 0; p < c->t->nports; p++) {
		*peer = dp_port_neigh(c->t, self, (p + self) % c->t->nports,
				      0);
		if (*peer != DP_NODE_NONE && *peer != c->dst) {
			*port = (p + self) % c->t->nports;
			*dist = max_dist;
			return true;
		}
	}
	return false;
}

/* Relay from @at with @st and wire TTL @ttl; hops until drop or arrival. */
static u32 s2t_relay_walk(struct kunit *test, const struct dp_topo *t,
			  u32 at, struct dp_route_state *st, u8 ttl,
			  bool sender, const struct dp_view *v, bool *ttl_out)
{
	struct dp_hop hop;
	u32 hops = 0;

	*ttl_out = false;
	for (;;) {
		bool key = dp_dst_is_key(t, st->flags);

		if (!dp_addr_valid(t, at) ||
		    (!key && !dp_addr_valid(t, st->dst)) ||
		    (!key && at == st->dst))
			break;
		if ((hops || !sender) && !dp_ttl_relay(t, st, &ttl)) {
			*ttl_out = true;
			break;
		}
		KUNIT_ASSERT_LT(test, hops, t->max_hops);
		if (dp_route(t, at, st, v, &hop))
			break;
		KUNIT_ASSERT_NE(test, hop.next, DP_NODE_NONE);
		at = hop.next;
		hops++;
	}
	return hops;
}

static void s2t_big_hostile(struct kunit *test)
{
	struct s2t_liar c;
	struct dp_view v = {
		.reachable = s2t_liar_reachable,
		.peer_neighs = s2t_liar_neighs,
		.ctx = &c,
	};
	static const struct dp_view_coords vsc = {
		.shortcut = s2t_liar_shortcut,
	};
	struct dp_view vs = {
		.reachable = s2t_liar_reachable,
		.coords = &vsc,
		.ctx = &c,
	};
	u32 i, hops, rnd = 1, loops = 0, longest = 0;
	struct dp_route_state st;
	struct dp_topo t;
	bool out;

	s2t_big_init(test, &t, 12, 4, 1);
	c.t = &t;

	/* the sender's budget, spent going round: exactly G hops */
	for (i = 0; i < 8; i++) {
		c.dst = (i * 977U + 5) % S2T_BIG;
		dp_route_init(&t, i * 31, c.dst, 0, i, &st);
		hops = s2t_relay_walk(test, &t, i * 31, &st, dp_topo_ttl(&t),
				      true, &v, &out);
		if (!out)
			continue;	/* the lie led to it after all */
		loops++;
		KUNIT_EXPECT_EQ(test, hops, S2T_BIG_G);
	}
	KUNIT_EXPECT_GT(test, loops, 0U);

	/* a shortcut phase as long as a header may ask, by renewals */
	c.dst = 2000;
	st = (struct dp_route_state){ .dst = c.dst, .waypoint = DP_NODE_NONE,
				      .flags = 0x08, .word = S2T_BIG - 2 };
	hops = s2t_relay_walk(test, &t, 0, &st, 1, false, &vs, &out);
	kunit_info(test, "hostile shortcut phase: %u hops\n", hops);
	KUNIT_EXPECT_EQ(test, hops, S2T_BIG - 2);

	/* any header, any TTL, the two liars or none */
	for (i = 0; i < 300; i++) {
		const struct dp_view *vv;

		rnd = rnd * 1103515245U + 12345U;
		c.dst = (rnd >> 8) % S2T_BIG;
		st.dst = rnd & 0x10000000 ? c.dst : rnd * 0x9e3779b9U;
		st.waypoint = rnd & 0x20000000 ? DP_NODE_NONE : 5;
		rnd = rnd * 1103515245U + 12345U;
		st.flags = rnd >> 24;
		st.word = rnd & 0x100 ? (rnd >> 9) % 16 :
			  rnd & 0x200 ? (rnd >> 10) % S2T_BIG : rnd >> 16;
		vv = i % 3 == 0 ? NULL : i % 3 == 1 ? &v : &vs;
		hops = s2t_relay_walk(test, &t, (rnd >> 4) % S2T_BIG, &st,
				      rnd & 0xff, false, vv, &out);
		if (hops > longest)
			longest = hops;
	}
	kunit_info(test, "300 hostile headers: the longest walk %u hops (bound %u)\n",
		   longest, t.max_hops);
}

static void s2t_free_topo(void *t)
{
	dp_topo_free(t);
}

/*
 * Derived mode's tables (dp_topo_alloc(), kvmalloc here) against the
 * derivation at the paper's scale: every port's wiring of every node,
 * and sampled decisions of every rule, node and key frames, flow hash
 * or none; dp_topo_free() leaves none.
 */
static void s2t_tables(struct kunit *test)
{
	struct dp_topo *t0, *t1;
	u32 id, port, j, r = 777, bad = 0;

	t0 = kunit_kzalloc(test, 2 * sizeof(*t0), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t0);
	t1 = t0 + 1;
	s2t_big_init(test, t0, 16, 6, 2);
	s2t_big_init(test, t1, 16, 6, 2);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, s2t_free_topo,
							t1), 0);
	KUNIT_ASSERT_TRUE(test, dp_topo_alloc(t1));
	KUNIT_EXPECT_NULL(test, t0->alloc);
	for (id = 0; id < S2T_BIG; id++) {
		for (port = 0; port < 16; port++) {
			u32 q = dp_port_neigh(t0, id, port, 0);

			if (q != dp_port_neigh(t1, id, port, 0) ||
			    (q != DP_NODE_NONE &&
			     dp_peer_port(t0, id, port, q) !=
			     dp_peer_port(t1, id, port, q)))
				bad++;
		}
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "ports wired otherwise");
	for (j = 0; j < 3000; j++) {
		struct dp_route_state s0, s1;
		struct dp_hop h0 = {}, h1 = {};
		u32 self, dst;

		r = r * 1103515245U + 12345U;
		self = (r >> 8) % S2T_BIG;
		r = r * 1103515245U + 12345U;
		dst = (r >> 8) % S2T_BIG;
		if (self == dst)
			continue;
		if (j % 5 == 1)
			dp_key_route_init(t0, self, r, j % 3, &s0);
		else
			dp_route_init(t0, self, dst, j % 3, j & 4 ? r : 0,
				      &s0);
		s1 = s0;
		if (dp_route(t0, self, &s0, NULL, &h0) !=
		    dp_route(t1, self, &s1, NULL, &h1) ||
		    h0.next != h1.next || h0.port != h1.port ||
		    h0.phase != h1.phase || h0.reason != h1.reason ||
		    memcmp(&s0, &s1, sizeof(s0)))
			bad++;
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "decisions differ");
	dp_topo_free(t1);
	KUNIT_EXPECT_NULL(test, t1->alloc);
}

static struct kunit_case s2t_cases[] = {
	KUNIT_CASE(s2t_ops),
	KUNIT_CASE(s2t_ops_init),
	KUNIT_CASE(s2t_keys),
	KUNIT_CASE(s2t_tlv_parse),
	KUNIT_CASE(s2t_derived),
	KUNIT_CASE(s2t_home),
	KUNIT_CASE(s2t_decision),
	KUNIT_CASE(s2t_routing),
	KUNIT_CASE(s2t_shortcut),
	KUNIT_CASE(s2t_plan),
	KUNIT_CASE(s2t_plan_bad),
	KUNIT_CASE(s2t_small_unchanged),
	KUNIT_CASE(s2t_big),
	KUNIT_CASE(s2t_big_renew),
	KUNIT_CASE(s2t_big_hostile),
	KUNIT_CASE(s2t_tables),
	{}
};

static struct kunit_suite s2t_suite = {
	.name = "dpillar_s2",
	.test_cases = s2t_cases,
};

kunit_test_suites(&s2t_suite);
