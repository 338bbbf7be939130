// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of XDCent and BCube (topo_xdcent.c) on the kernel's build of
 * the code: counts, wiring against the definition (members of a switch
 * differ in one digit, every port of a switch with the same number),
 * XDCRouting hop by hop against the recursion of the paper's Algorithm 1
 * for every pair, path word and rotation, every single failed server,
 * hostile routing state, and the k + 1 disjoint parallel paths.
 * tools/dpsim/tests/test_xdcent.c checks the same and more on larger
 * instances.
 */

#include <kunit/test.h>
#include <linux/slab.h>

#include "topo.h"
#include "topo_xdcent.h"
#include "topo_xdcent_test.h"
#include "topo_walk.h"
#include "test_lib.h"

struct xct_p {
	u32 kind, n, k, i;
};

static const struct xct_p xct_small[] = {
	{ DP_TOPO_XDCENT, 3, 2, 2 }, { DP_TOPO_XDCENT, 2, 2, 3 },
	{ DP_TOPO_XDCENT, 3, 1, 2 }, { DP_TOPO_BCUBE, 3, 1, 0 },
	{ DP_TOPO_BCUBE, 4, 1, 0 }, { DP_TOPO_BCUBE, 2, 2, 0 },
};

static void xct_desc(const struct xct_p *p, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s(%u,%u,%u)",
		 p->kind == DP_TOPO_XDCENT ? "xdcent" : "bcube", p->n, p->k,
		 p->i);
}

KUNIT_ARRAY_PARAM(xct_small, xct_small, xct_desc);

static void xct_mk(struct kunit *test, struct dp_topo *t, const struct xct_p *x)
{
	struct dp_topo_params p = {
		.kind = x->kind, .n = x->n, .k = x->k, .level = x->i,
	};
	const char *why = NULL;

	KUNIT_ASSERT_EQ_MSG(test, dp_topo_init(t, &p, &why), 0, "%s", why);
}

static void xct_init(struct kunit *test)
{
	static const struct xct_p x322 = { DP_TOPO_XDCENT, 3, 2, 2 };
	static const struct xct_p x423 = { DP_TOPO_XDCENT, 4, 2, 3 };
	static const struct xct_p b41 = { DP_TOPO_BCUBE, 4, 1, 0 };
	struct dp_topo_params p = { .kind = DP_TOPO_XDCENT, .n = 3, .k = 2 };
	const char *why = NULL;
	struct dp_topo t;

	xct_mk(test, &t, &x322);
	KUNIT_EXPECT_EQ(test, t.nodes, 27U);
	KUNIT_EXPECT_EQ(test, t.switches, 24U);
	KUNIT_EXPECT_EQ(test, t.nports, 3U);
	KUNIT_EXPECT_EQ(test, t.ff_hops, 5U);
	xct_mk(test, &t, &x423);
	KUNIT_EXPECT_EQ(test, t.nodes, 256U);
	KUNIT_EXPECT_EQ(test, t.switches, 188U);
	KUNIT_EXPECT_EQ(test, t.ff_hops, 11U);
	KUNIT_EXPECT_LE(test, t.max_hops, (u32)DP_TTL_MAX);
	xct_mk(test, &t, &b41);
	KUNIT_EXPECT_EQ(test, t.nodes, 16U);
	KUNIT_EXPECT_EQ(test, t.switches, 8U);
	KUNIT_EXPECT_EQ(test, t.nports, 2U);
	/* "pM" only for the k + 1 = 2 parallel paths BCube(4,1) has */
	KUNIT_EXPECT_EQ(test, dp_sel_count(&t), XDC_SEL_PATH0 + 2U);
	KUNIT_EXPECT_EQ(test, dp_sel_parse(&t, "p1"), XDC_SEL_PATH0 + 1);
	KUNIT_EXPECT_EQ(test, dp_sel_parse(&t, "p2"), -1);
	/* refused: no level, level below k - 1, paths over 255 hops */
	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &p, &why), -EINVAL);
	p.k = 3;
	p.level = 1;
	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &p, &why), -EINVAL);
	p.n = 2;
	p.k = 1;
	p.level = 20;
	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &p, &why), -EINVAL);
	p.kind = DP_TOPO_BCUBE;
	p.level = 2;
	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &p, &why), -EINVAL);
}

/* Every member of every switch: one digit differs, same port, same switch. */
static void xct_wiring(struct kunit *test)
{
	const struct xct_p *x = test->param_value;
	struct dp_port_info pi, pj;
	struct dp_topo t;
	u32 id, p, m, peer, j, diff;

	xct_mk(test, &t, x);
	for (id = 0; id < t.nodes; id++) {
		for (p = 0; p < t.nports; p++) {
			dp_port_info(&t, id, p, &pi);
			if (pi.kind == DP_PORT_UNUSED)
				continue;
			KUNIT_ASSERT_EQ(test, pi.nneigh, x->n - 1);
			for (m = 0; m < pi.nneigh; m++) {
				peer = dp_port_neigh(&t, id, p, m);
				KUNIT_ASSERT_LT(test, peer, t.nodes);
				diff = 0;
				for (j = 0; j <= xdc(&t)->top; j++)
					diff += xdc_digit(&t, id, j) !=
						xdc_digit(&t, peer, j);
				KUNIT_EXPECT_EQ(test, diff, 1U);
				KUNIT_EXPECT_EQ(test,
						dp_port_neigh_index(&t, id, p, peer),
						(int)m);
				KUNIT_EXPECT_EQ(test, dp_peer_port(&t, id, p, peer),
						(int)p);
				dp_port_info(&t, peer, p, &pj);
				KUNIT_EXPECT_EQ(test, pj.sw, pi.sw);
			}
		}
	}
}

/* The recursion of Algorithm 1; appends to path[*len]. */
static void xct_ref(const struct dp_topo *t, u32 cur, u32 dst, u32 w, u32 r,
		    u32 *path, u32 *len)
{
	const struct xdc_priv *d = xdc(t);
	u32 lvl, j, i, g, c;

	if (cur == dst)
		return;
	for (lvl = d->top; lvl > 0; lvl--)
		if (xdc_digit(t, cur, lvl) != xdc_digit(t, dst, lvl))
			break;
	if (lvl < d->b) {
		for (i = 0, j = r; i < d->b; i++, j = j ? j - 1 : d->b - 1) {
			if (xdc_digit(t, cur, j) != xdc_digit(t, dst, j)) {
				cur = xdc_set_digit(t, cur, j,
						    xdc_digit(t, dst, j));
				path[(*len)++] = cur;
			}
		}
		return;
	}
	g = cur;
	for (j = 0; j < d->k; j++)
		g = xdc_set_digit(t, g, lvl - d->k + j, w / d->pw[j] % d->n);
	for (j = 0; j < lvl - d->k; j++)
		g = xdc_set_digit(t, g, j, d->n - 1);
	xct_ref(t, cur, g, w, r, path, len);
	c = xdc_set_digit(t, g, lvl, xdc_digit(t, dst, lvl));
	path[(*len)++] = c;
	xct_ref(t, c, dst, w, r, path, len);
}

static void xct_routing(struct kunit *test)
{
	const struct xct_p *x = test->param_value;
	struct dp_route_state st;
	u32 s, d, w, r, len, rlen, self, *path, *rpath;
	struct dp_hop hop;
	struct dp_topo t;

	xct_mk(test, &t, x);
	path = kunit_kcalloc(test, 256, sizeof(u32), GFP_KERNEL);
	rpath = kunit_kcalloc(test, 256, sizeof(u32), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, path);
	KUNIT_ASSERT_NOT_NULL(test, rpath);
	for (s = 0; s < t.nodes; s++)
		for (d = 0; d < t.nodes; d++)
			for (w = 0; w < xdc(&t)->nwords; w++) {
				if (!xdc_word_valid(&t, w))
					continue;
				for (r = 0; r < xdc(&t)->b; r++) {
					dp_route_init(&t, s, d, XDC_SEL_PAPER, 0,
						      &st);
					st.word = r * xdc(&t)->nwords + w;
					st.flags = 0;
					for (self = s, len = 0; self != d;) {
						KUNIT_ASSERT_LT(test, len, t.ff_hops);
						KUNIT_ASSERT_EQ(test,
								dp_route(&t, self, &st, NULL, &hop),
								0);
						self = hop.next;
						path[len++] = self;
					}
					rlen = 0;
					xct_ref(&t, s, d, w, r, rpath, &rlen);
					KUNIT_ASSERT_EQ(test, len, rlen);
					KUNIT_ASSERT_EQ(test,
							memcmp(path, rpath, len * sizeof(u32)),
							0);
				}
			}
}

/* Every single failed server: every live pair delivered, every mode. */
static void xct_single(struct kunit *test)
{
	const struct xct_p *x = test->param_value;
	struct dp_fail_set fs;
	struct dp_walk wk = { };
	struct dp_topo t;
	u32 f, s, d, sel;

	xct_mk(test, &t, x);
	dpt_fail_init(test, &fs, &t);
	for (f = 0; f < t.nodes; f++) {
		dp_fail_clear(&fs);
		dp_fail_set_node(&fs, f);
		for (s = 0; s < t.nodes; s++)
			for (d = 0; d < t.nodes; d++) {
				if (s == d || s == f || d == f)
					continue;
				for (sel = 1; sel < XDC_SEL_PATH0 + t.nports;
				     sel++) {
					dp_walk(&t, s, d, sel, 0, &fs,
						t.max_hops, &wk);
					KUNIT_EXPECT_TRUE_MSG(test, wk.delivered,
							      "fail %u: %u -> %u sel %u",
							      f, s, d, sel);
					KUNIT_EXPECT_FALSE(test, wk.bad_hop);
				}
			}
	}
}

/*
 * Every single failed server-switch link of a server with another port in
 * use: every live pair delivered, every mode.  XDCent with k = 1 needs the
 * spare-port detours here: a dead port-0 link between two servers of one
 * switch leaves no sideways digit.
 */
static void xct_single_link(struct kunit *test)
{
	const struct xct_p *x = test->param_value;
	struct dp_port_info pi;
	struct dp_fail_set fs;
	struct dp_walk wk = { };
	struct dp_topo t;
	u32 f, p, s, d, sel, used;

	xct_mk(test, &t, x);
	dpt_fail_init(test, &fs, &t);
	for (f = 0; f < t.nodes; f++) {
		for (p = 0, used = 0; p < t.nports; p++) {
			dp_port_info(&t, f, p, &pi);
			used += pi.kind != DP_PORT_UNUSED;
		}
		if (used < 2)
			continue;	/* its only link: cut off */
		for (p = 0; p < t.nports; p++) {
			dp_port_info(&t, f, p, &pi);
			if (pi.kind == DP_PORT_UNUSED)
				continue;
			dp_fail_clear(&fs);
			dp_fail_set_link(&fs, f, p);
			for (s = 0; s < t.nodes; s++)
				for (d = 0; d < t.nodes; d++) {
					if (s == d)
						continue;
					for (sel = 1;
					     sel < XDC_SEL_PATH0 + t.nports;
					     sel++) {
						dp_walk(&t, s, d, sel, 0, &fs,
							t.max_hops, &wk);
						KUNIT_EXPECT_TRUE_MSG(test,
								      wk.delivered,
								      "link %u/%u: %u -> %u sel %u",
								      f, p, s, d,
								      sel);
						KUNIT_EXPECT_FALSE(test,
								   wk.bad_hop);
					}
				}
		}
	}
}

/* Any word, flags or waypoint: a neighbour or a drop, within max_hops. */
static void xct_hostile(struct kunit *test)
{
	static const struct xct_p x = { DP_TOPO_XDCENT, 3, 2, 2 };
	struct dp_route_state st;
	struct dp_hop hop;
	struct dp_topo t;
	u32 word, fl, self, hops;

	xct_mk(test, &t, &x);
	for (word = 0; word < 0x10000; word += 7) {
		for (fl = 0; fl < 256; fl += 5) {
			st.dst = 26;
			st.waypoint = fl & 1 ? 3 : DP_NODE_NONE;
			st.word = word;
			st.flags = fl;
			for (self = 0, hops = 0; self != st.dst; hops++) {
				KUNIT_ASSERT_LE(test, hops, t.max_hops);
				if (dp_route(&t, self, &st, NULL, &hop))
					break;
				KUNIT_ASSERT_GE(test,
						dp_port_neigh_index(&t, self, hop.port,
								    hop.next),
						0);
				self = hop.next;
			}
		}
	}
}

/*
 * A waypoint with no sideways budget: XDCent (21,2,6) has F = 95, so
 * S = 0 (and W = 1: max_hops = 2 F, one word switch for the explicit
 * disjoint paths to fall back on); a header with a waypoint (which only
 * a paid sideways hop sets) routed F hops to it and F more to the
 * destination when max_hops was F.  Found by fuzz_route; every flags
 * byte is tried.
 */
static void xct_hostile_waypoint(struct kunit *test)
{
	static const struct xct_p x = { DP_TOPO_XDCENT, 21, 2, 6 };
	struct dp_route_state st;
	struct dp_hop hop;
	struct dp_topo t;
	u32 fl, self, hops;

	xct_mk(test, &t, &x);
	KUNIT_ASSERT_EQ(test, t.max_hops, 190);
	for (fl = 0; fl < 256; fl++) {
		st.dst = 759124944;
		st.waypoint = 466245132;
		st.word = 0x87;
		st.flags = fl;
		for (self = 670468061, hops = 0; self != st.dst; hops++) {
			KUNIT_ASSERT_LT_MSG(test, hops, t.max_hops,
					    "flags %#x", fl);
			if (dp_route(&t, self, &st, NULL, &hop))
				break;
			self = hop.next;
		}
	}
}

/* The switch between neighbours @a and @b. */
static u32 xct_switch(const struct dp_topo *t, u32 a, u32 b)
{
	struct dp_port_info pi;
	u32 p;

	for (p = 0; p + 1 < t->nports; p++)
		if (dp_port_neigh_index(t, a, p, b) >= 0)
			break;
	dp_port_info(t, a, p, &pi);
	return pi.sw;
}

/*
 * The k + 1 paths of @s -> @d delivered over real cables, internally
 * disjoint in servers and switches?  @seen, @swseen: stamps.
 */
static bool xct_pair_disjoint(struct kunit *test, const struct dp_topo *t,
			      u32 s, u32 d, u32 *seen, u32 *swseen, u32 stamp)
{
	struct dp_walk wk = { };
	u32 path[32], m, h, sw;
	bool ok = true;

	for (m = 0; m < xdc(t)->npaths; m++) {
		wk.path = path;
		wk.path_max = ARRAY_SIZE(path);
		dp_walk(t, s, d, XDC_SEL_PATH0 + m, 0, NULL, t->max_hops, &wk);
		KUNIT_EXPECT_TRUE(test, wk.delivered);
		KUNIT_EXPECT_FALSE(test, wk.bad_hop);
		for (h = 0; h + 1 < wk.path_len; h++) {
			if (h && seen[path[h]] == stamp)
				ok = false;
			seen[path[h]] = stamp;
			sw = xct_switch(t, path[h], path[h + 1]);
			if (swseen[sw] == stamp)
				ok = false;
			swseen[sw] = stamp;
		}
	}
	return ok;
}

/*
 * Every pair of each of @nsizes fabrics @sizes that @pick takes has
 * internally disjoint paths (xct_pair_disjoint()); @want[z] pairs are
 * taken in fabric z.
 */
static void xct_disjoint_pairs(struct kunit *test, const struct xct_p *sizes,
			       const u32 *want, u32 nsizes,
			       bool (*pick)(const struct dp_topo *t, u32 s,
					    u32 d))
{
	u32 *seen, *swseen, stamp, z, s, d, cnt;
	struct dp_topo t;
	bool ok;

	for (z = 0; z < nsizes; z++) {
		xct_mk(test, &t, &sizes[z]);
		seen = kunit_kcalloc(test, t.nodes, sizeof(u32), GFP_KERNEL);
		swseen = kunit_kcalloc(test, t.switches, sizeof(u32),
				       GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, seen);
		KUNIT_ASSERT_NOT_NULL(test, swseen);
		stamp = 0;
		cnt = 0;
		for (s = 0; s < t.nodes; s++) {
			for (d = 0; d < t.nodes; d++) {
				if (s == d || !pick(&t, s, d))
					continue;
				cnt++;
				ok = xct_pair_disjoint(test, &t, s, d, seen,
						       swseen, ++stamp);
				KUNIT_EXPECT_TRUE_MSG(test, ok,
						      "(%u,%u,%u) %u -> %u",
						      sizes[z].n, sizes[z].k,
						      sizes[z].i, s, d);
			}
			cond_resched();
		}
		KUNIT_EXPECT_EQ(test, cnt, want[z]);
	}
}

/* Both spare ports cabled: node connectivity k + 1. */
static bool xct_both_spares(const struct dp_topo *t, u32 s, u32 d)
{
	return xdc_spare_level(t, s) <= xdc(t)->top &&
	       xdc_spare_level(t, d) <= xdc(t)->top;
}

/*
 * The k + 1 parallel paths ("pM", path selection's candidates) of every
 * pair whose spare ports are both cabled are internally disjoint: node
 * connectivity is k + 1 for exactly those pairs
 * (tools/dpsim/eval-xdcent-paths.py); 306 ordered pairs of (3,2,2),
 * 5,112 of (3,2,3).
 */
static void xct_disjoint(struct kunit *test)
{
	static const struct xct_p sizes[] = {
		{ DP_TOPO_XDCENT, 3, 2, 2 }, { DP_TOPO_XDCENT, 3, 1, 1 },
		{ DP_TOPO_XDCENT, 3, 2, 3 },
	};
	static const u32 want[] = { 306, 30, 5112 };

	xct_disjoint_pairs(test, sizes, want, ARRAY_SIZE(sizes),
			   xct_both_spares);
}

/*
 * At k and above, and for BCube pairs of two spare levels, the explicit
 * paths (xdc_test_dj_case()): internally disjoint for every such pair,
 * 552 ordered pairs of (3,1,2), 4,824 of (3,2,3), 6,006 of (3,1,3): with
 * k = 1 every pair with both spare ports cabled (before them: 96 of the
 * 240 above k of (3,1,2) were; before the two-strand fans, an end cell
 * with no level-L gate when L-k >= k, the oracle had 342 and 3,240 of
 * (3,1,2) and (3,1,3); before xdc_dj_k1(), 510 and 5,688).
 */
static void xct_disjoint_above(struct kunit *test)
{
	static const struct xct_p sizes[] = {
		{ DP_TOPO_XDCENT, 3, 1, 2 }, { DP_TOPO_XDCENT, 3, 2, 3 },
		{ DP_TOPO_XDCENT, 3, 1, 3 },
	};
	static const u32 want[] = { 552, 4824, 6006 };

	xct_disjoint_pairs(test, sizes, want, ARRAY_SIZE(sizes),
			   xdc_test_dj_case);
}

/*
 * Walk @st from @self: a neighbour or a drop a hop, within max_hops.
 * Returns where it stopped.
 */
static u32 xct_walk_state(struct kunit *test, const struct dp_topo *t,
			  u32 self, struct dp_route_state *st)
{
	struct dp_hop hop;
	u32 hops;

	for (hops = 0; self != st->dst; hops++) {
		KUNIT_ASSERT_LE(test, hops, t->max_hops);
		if (dp_route(t, self, st, NULL, &hop))
			break;
		KUNIT_ASSERT_GE(test, dp_port_neigh_index(t, self, hop.port,
							  hop.next), 0);
		self = hop.next;
	}
	return self;
}

/*
 * An explicit path's state (b n^k + M, the source as waypoint) off the
 * wire, for any source, M, flags and relay: a neighbour or a drop a hop,
 * within max_hops; from the source with no flags, where the core builds
 * the path, delivered.
 */
static void xct_hostile_explicit(struct kunit *test)
{
	static const struct xct_p x = { DP_TOPO_XDCENT, 3, 1, 2 };
	static const u32 dsts[] = { 0, 13, 26 };
	struct dp_route_state st, ref;
	const struct xdc_priv *xd;
	u32 z, src, m, fl, start, end;
	struct dp_topo t;
	bool built;

	xct_mk(test, &t, &x);
	xd = xdc(&t);
	for (z = 0; z < ARRAY_SIZE(dsts) * t.nodes * (xd->npaths + 1); z++) {
		src = z / (xd->npaths + 1) % t.nodes;
		m = z % (xd->npaths + 1);
		st.dst = dsts[z / (xd->npaths + 1) / t.nodes];
		built = m < xd->npaths &&
			xdc_disjoint(&t, src, st.dst, m, &ref) &&
			ref.word >= xd->b * xd->nwords;
		for (fl = 0; fl < 2; fl++) {
			for (start = 0; start < t.nodes; start++) {
				st.waypoint = src;
				st.word = xd->b * xd->nwords + m;
				st.flags = fl ? 0x40 : 0;
				end = xct_walk_state(test, &t, start, &st);
				if (built && !fl && start == src)
					KUNIT_EXPECT_EQ(test, end, st.dst);
			}
		}
	}
}

static struct kunit_case xct_cases[] = {
	KUNIT_CASE(xct_init),
	KUNIT_CASE_PARAM(xct_wiring, xct_small_gen_params),
	KUNIT_CASE_PARAM(xct_routing, xct_small_gen_params),
	KUNIT_CASE_PARAM_ATTR(xct_single, xct_small_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE_PARAM_ATTR(xct_single_link, xct_small_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE(xct_hostile),
	KUNIT_CASE(xct_hostile_waypoint),
	KUNIT_CASE(xct_disjoint),
	KUNIT_CASE_ATTR(xct_disjoint_above, { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE(xct_hostile_explicit),
	{}
};

static struct kunit_suite xct_suite = {
	.name = "dpillar_xdcent",
	.test_cases = xct_cases,
};

kunit_test_suites(&xct_suite);
