// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of DCell (topo_dcell.c) on the kernel's build of the code:
 * addressing, wiring against BuildDCells written here as a loop over the
 * cells, DCellRouting hop by hop against the recursion of the paper's
 * Figure 3 on every pair of small cells, DFR under every single
 * failure, and the k + 1 disjoint parallel paths of every pair.
 * tools/dpsim/tests/test_dcell.c checks the same on larger cells.
 */

#include <kunit/test.h>
#include <linux/slab.h>

#include "topo.h"
#include "topo_dcell.h"
#include "topo_walk.h"
#include "test_lib.h"

struct dct_nk {
	u32 n, k;
};

static const struct dct_nk dct_small[] = {
	{ 2, 1 }, { 3, 1 }, { 4, 1 }, { 2, 2 }, { 3, 2 },
};

static void dct_nk_desc(const struct dct_nk *p, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "(%u,%u)", p->n, p->k);
}

/* Every single failure, every pair: nodes^3 walks. */
static const struct dct_nk dct_tiny[] = {
	{ 2, 1 }, { 3, 1 }, { 4, 1 }, { 2, 2 },
};

KUNIT_ARRAY_PARAM(dct_small, dct_small, dct_nk_desc);
KUNIT_ARRAY_PARAM(dct_tiny, dct_tiny, dct_nk_desc);

static void dct_mk(struct kunit *test, struct dp_topo *t, u32 n, u32 k)
{
	struct dp_topo_params p = { .kind = DP_TOPO_DCELL, .n = n, .k = k };
	const char *why = NULL;

	KUNIT_ASSERT_EQ_MSG(test, dp_topo_init(t, &p, &why), 0, "(%u,%u): %s",
			    n, k, why);
}

/* t_l of DCell(n, .) without the module's tables. */
static u32 dct_t(u32 n, u32 l)
{
	u32 t = n;

	while (l--)
		t = t * (t + 1);
	return t;
}

static void dct_init(struct kunit *test)
{
	struct dp_topo_params p = { .kind = DP_TOPO_DCELL };
	const char *why = NULL;
	struct dp_topo t;

	p.n = 4;
	p.k = 2;
	KUNIT_ASSERT_EQ(test, dp_topo_init(&t, &p, &why), 0);
	KUNIT_EXPECT_EQ(test, t.nodes, 420U);
	KUNIT_EXPECT_EQ(test, t.nports, 3U);
	KUNIT_EXPECT_EQ(test, t.switches, 105U);
	KUNIT_EXPECT_EQ(test, t.ff_hops, 11U);	/* DCellRouting's 7 + 4 */
	KUNIT_EXPECT_LE(test, t.max_hops, (u32)DP_TTL_MAX);
	p.n = 6;
	p.k = 3;
	KUNIT_ASSERT_EQ(test, dp_topo_init(&t, &p, &why), 0);
	KUNIT_EXPECT_EQ(test, t.nodes, 3263442U);
	p.n = 2;
	p.k = 4;
	KUNIT_ASSERT_EQ(test, dp_topo_init(&t, &p, &why), 0);
	KUNIT_EXPECT_LE(test, t.max_hops, (u32)DP_TTL_MAX);
	/* refused: sizes above 2^32, n < 2, k = 0, foreign parameters */
	p.n = 4;
	p.k = 4;
	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &p, &why), -EINVAL);
	p.n = 1;
	p.k = 2;
	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &p, &why), -EINVAL);
	p.n = 4;
	p.k = 0;
	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &p, &why), -EINVAL);
	p.k = 2;
	p.spaces = 2;
	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &p, &why), -EINVAL);
}

static void dct_addr(struct kunit *test)
{
	const struct dct_nk *nk = test->param_value;
	char buf[DP_ADDR_TEXT_MAX];
	const char *why;
	struct dp_topo t;
	u32 id, back;

	dct_mk(test, &t, nk->n, nk->k);
	for (id = 0; id < t.nodes; id++) {
		KUNIT_ASSERT_GT(test, dp_addr_format(&t, id, buf, sizeof(buf)),
				0);
		KUNIT_ASSERT_EQ_MSG(test, dp_addr_parse(&t, buf, &back, &why),
				    0, "%s: %s", buf, why);
		KUNIT_ASSERT_EQ(test, back, id);
	}
}

static void dct_addr_text(struct kunit *test)
{
	static const char *const bad[] = {
		"", "0", "0.0", "0.0.0.0", "7.0.0", "0.3.0", "0.0.2", "0..0",
		"0.0.", ".0.0", "0.0.x", "-1.0.0", "99999999999.0.0", "0.0.0 ",
	};
	char buf[DP_ADDR_TEXT_MAX];
	const char *why;
	struct dp_topo t;
	u32 id, i;

	dct_mk(test, &t, 2, 2);
	KUNIT_ASSERT_EQ(test, dp_addr_parse(&t, "0.2.1", &id, &why), 0);
	KUNIT_EXPECT_EQ(test, id, 5U);
	KUNIT_ASSERT_EQ(test, dp_addr_parse(&t, "6.2.1", &id, &why), 0);
	KUNIT_EXPECT_EQ(test, id, 41U);
	dp_addr_format(&t, 36, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "6.0.0");
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, dp_addr_parse(&t, bad[i], &id, &why),
				    -EINVAL, "'%s' accepted", bad[i]);
}

/* BuildDCells: in each DCell_l, sub-cells i < j joined by [i,j-1]-[j,i]. */
static void dct_wiring(struct kunit *test)
{
	const struct dct_nk *nk = test->param_value;
	u32 base, i, j, a, b, l, id, ts, tl, used = 0, nb;
	struct dp_port_info pi;
	struct dp_topo t;

	dct_mk(test, &t, nk->n, nk->k);
	for (l = 1; l <= nk->k; l++) {
		ts = dct_t(nk->n, l - 1);
		tl = dct_t(nk->n, l);
		for (base = 0; base < t.nodes; base += tl) {
			for (i = 0; i <= ts; i++) {
				for (j = i + 1; j <= ts; j++) {
					a = base + i * ts + j - 1;
					b = base + j * ts + i;
					KUNIT_ASSERT_EQ(test,
							dp_port_neigh(&t, a, l, 0), b);
					KUNIT_ASSERT_EQ(test,
							dp_port_neigh(&t, b, l, 0), a);
					KUNIT_ASSERT_EQ(test,
							dp_peer_port(&t, a, l, b),
							(int)l);
					used += 2;
				}
			}
		}
	}
	/* every cable port used once: k ports of every server */
	KUNIT_EXPECT_EQ(test, used, t.nodes * nk->k);
	for (id = 0; id < t.nodes; id++) {
		dp_port_info(&t, id, 0, &pi);
		KUNIT_EXPECT_EQ(test, pi.kind, (u8)DP_PORT_SWITCH);
		KUNIT_EXPECT_EQ(test, pi.sw, id / nk->n);
		for (i = 0; i < nk->n - 1; i++) {
			nb = dp_port_neigh(&t, id, 0, i);
			KUNIT_EXPECT_EQ(test, nb / nk->n, id / nk->n);
			KUNIT_EXPECT_EQ(test, dp_port_neigh_index(&t, id, 0, nb),
					(int)i);
		}
		KUNIT_EXPECT_LT(test, dp_port_neigh_index(&t, id, 0, id), 0);
		for (l = 1; l <= nk->k; l++) {
			dp_port_info(&t, id, l, &pi);
			KUNIT_EXPECT_EQ(test, pi.kind, (u8)DP_PORT_CABLE);
			nb = dp_port_neigh(&t, id, l, 0);
			KUNIT_EXPECT_LT(test, dp_port_neigh_index(&t, id, l,
								  (nb + 1) % t.nodes), 0);
		}
	}
}

/* Figure 3, recursively: the path from @s to @d after @s. */
static void dct_ref(u32 n, u32 k, u32 s, u32 d, u32 *path, u32 *len)
{
	u32 l, base, si, di, n1, n2, ts;

	if (s == d)
		return;
	for (l = k; l > 0; l--)
		if (s / dct_t(n, l - 1) != d / dct_t(n, l - 1))
			break;
	if (!l) {
		path[(*len)++] = d;
		return;
	}
	ts = dct_t(n, l - 1);
	base = s / dct_t(n, l) * dct_t(n, l);
	si = (s - base) / ts;
	di = (d - base) / ts;
	n1 = base + si * ts + (si < di ? di - 1 : di);
	n2 = base + di * ts + (si < di ? si : si - 1);
	dct_ref(n, k, s, n1, path, len);
	path[(*len)++] = n2;
	dct_ref(n, k, n2, d, path, len);
}

static void dct_routing(struct kunit *test)
{
	const struct dct_nk *nk = test->param_value;
	u32 path[32], len, s, d, i, maxh = 0;
	struct dp_walk w = { };
	struct dp_topo t;

	dct_mk(test, &t, nk->n, nk->k);
	w.path = kunit_kcalloc(test, 64, sizeof(u32), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w.path);
	w.path_max = 64;
	for (s = 0; s < t.nodes; s++) {
		for (d = 0; d < t.nodes; d++) {
			if (s == d)
				continue;
			len = 0;
			dct_ref(nk->n, nk->k, s, d, path, &len);
			dp_walk(&t, s, d, 0, 0, NULL, t.max_hops, &w);
			KUNIT_ASSERT_TRUE(test, w.delivered);
			KUNIT_ASSERT_EQ_MSG(test, w.hops, len, "%u -> %u", s, d);
			for (i = 0; i < len; i++)
				KUNIT_ASSERT_EQ(test, w.path[i + 1], path[i]);
			maxh = max(maxh, len);
		}
	}
	KUNIT_EXPECT_EQ(test, maxh, (2U << nk->k) - 1);
	/* ff_hops: a parallel path's bound (dct_paths()) */
	KUNIT_EXPECT_EQ(test, t.ff_hops, nk->k == 1 ? 5 : maxh + 4);
}

static void dct_paper_example(struct kunit *test)
{
	struct dp_walk w = { };
	struct dp_topo t;
	const char *why;
	u32 s, d;

	dct_mk(test, &t, 2, 2);
	KUNIT_ASSERT_EQ(test, dp_addr_parse(&t, "0.2.1", &s, &why), 0);
	KUNIT_ASSERT_EQ(test, dp_addr_parse(&t, "1.2.1", &d, &why), 0);
	dp_walk(&t, s, d, 0, 0, NULL, t.max_hops, &w);
	KUNIT_EXPECT_TRUE(test, w.delivered);
	KUNIT_EXPECT_EQ(test, w.hops, 7U);
}

/* Every live pair delivered, within the TTL, under the failures of @f. */
static void dct_all_delivered(struct kunit *test, const struct dp_topo *t,
			      const struct dp_fail_set *f, const char *what,
			      u32 which)
{
	struct dp_walk w = { };
	u32 s, d;

	for (s = 0; s < t->nodes; s++) {
		for (d = 0; d < t->nodes; d++) {
			if (s == d || dp_fail_node(f, s) || dp_fail_node(f, d))
				continue;
			dp_walk(t, s, d, 0, 0, f, t->max_hops, &w);
			KUNIT_ASSERT_TRUE_MSG(test, w.delivered,
					      "%s %u: %u -> %u %s%s", what,
					      which, s, d,
					      dp_drop_reason_name(t, w.reason),
					      w.looped ? " ttl" : "");
		}
	}
}

static void dct_dfr_single(struct kunit *test)
{
	const struct dct_nk *nk = test->param_value;
	struct dp_fail_set f;
	struct dp_topo t;
	u32 id, l;

	dct_mk(test, &t, nk->n, nk->k);
	dpt_fail_init(test, &f, &t);
	for (id = 0; id < t.nodes; id++) {
		dp_fail_clear(&f);
		dp_fail_set_node(&f, id);
		dct_all_delivered(test, &t, &f, "failed server", id);
		for (l = 1; l <= nk->k; l++) {
			dp_fail_clear(&f);
			dp_fail_set_link(&f, id, l);
			dct_all_delivered(test, &t, &f, "failed cable of", id);
		}
		/* its switch link: reached through its cables (cable entry) */
		dp_fail_clear(&f);
		dp_fail_set_link(&f, id, 0);
		dct_all_delivered(test, &t, &f, "failed switch link of", id);
	}
	/* a mini-switch down, its servers alive */
	for (id = 0; id < t.nodes; id += nk->n) {
		dp_fail_clear(&f);
		for (l = 0; l < nk->n; l++)
			dp_fail_set_link(&f, id + l, 0);
		dct_all_delivered(test, &t, &f, "failed mini-switch at", id);
	}
	/* a whole DCell_0 down: (2,2) and (4,1) still connect the rest */
	for (id = 0; id < t.nodes; id += nk->n) {
		dp_fail_clear(&f);
		for (l = 0; l < nk->n; l++)
			dp_fail_set_node(&f, id + l);
		if (nk->k >= 2)
			dct_all_delivered(test, &t, &f, "failed rack at", id);
	}
}

/*
 * Mode "paper" keeps the rules without cable entry: a server whose switch
 * link is down is dropped (dst_down) by its rack mates; mode "dfr" goes
 * around through one of its cables, starting with the level-1 one.
 */
static void dct_cable_entry(struct kunit *test)
{
	struct dp_fail_set f;
	struct dp_walk w = { };
	struct dp_topo t;
	u32 path[64], i;
	bool crossed = false;

	dct_mk(test, &t, 2, 2);
	dpt_fail_init(test, &f, &t);
	w.path = path;
	w.path_max = 64;
	/* 1 -> 0: rack mates, 0's switch link down */
	dp_fail_set_link(&f, 0, 0);
	dp_walk(&t, 1, 0, DCL_SEL_PAPER, 0, &f, t.max_hops, &w);
	KUNIT_EXPECT_FALSE(test, w.delivered);
	KUNIT_EXPECT_EQ(test, w.reason, (u8)DCL_DROP_DST_DOWN);
	dp_walk(&t, 1, 0, DCL_SEL_DFR, 0, &f, t.max_hops, &w);
	KUNIT_ASSERT_TRUE(test, w.delivered);
	KUNIT_ASSERT_GE(test, w.hops, 2U);
	/* the last hop is 0's level-1 cable */
	KUNIT_EXPECT_EQ(test, w.path[w.hops - 1], dcl_cable_peer(&t, 0, 1));
	for (i = 0; i < w.hops; i++)
		crossed |= w.path[i] == 0;
	KUNIT_EXPECT_FALSE(test, crossed);
	/* and that cable down too: the level-2 one */
	dp_fail_set_link(&f, 0, 1);
	dp_walk(&t, 1, 0, DCL_SEL_DFR, 0, &f, t.max_hops, &w);
	KUNIT_ASSERT_TRUE(test, w.delivered);
	KUNIT_EXPECT_EQ(test, w.path[w.hops - 1], dcl_cable_peer(&t, 0, 2));
	/* all three ports down: disconnected, dropped within the budget */
	dp_fail_set_link(&f, 0, 2);
	dp_walk(&t, 1, 0, DCL_SEL_DFR, 0, &f, t.max_hops, &w);
	KUNIT_EXPECT_FALSE(test, w.delivered);
	KUNIT_EXPECT_FALSE(test, w.looped);
	KUNIT_EXPECT_EQ(test, w.reason, (u8)DCL_DROP_BUDGET);
}

/* The port of @a that @b is on (a neighbour), or t->nports. */
static u32 dct_port_to(const struct dp_topo *t, u32 a, u32 b)
{
	u32 p;

	for (p = 0; p < t->nports; p++)
		if (dp_port_neigh_index(t, a, p, b) >= 0)
			break;
	return p;
}

/*
 * The k + 1 parallel paths of every pair (path selection's candidates:
 * dp_route_npaths() in mode dfr, none in mode paper), each the state of
 * mode pM, delivered failure-free within ff_hops, leave src and enter
 * dst by k + 1 ports and are internally disjoint in servers and switches
 * (tools/dpsim/tests/test_dcell.c checks larger cells).
 */
static void dct_paths(struct kunit *test)
{
	const struct dct_nk *nk = test->param_value;
	u32 *seen, *swseen, s, d, m, h, p, sp, dp, stamp = 0, path[32];
	struct dp_route_state a, b;
	struct dp_port_info pi;
	struct dp_walk w = { };
	struct dp_topo t;
	bool ok;

	dct_mk(test, &t, nk->n, nk->k);
	seen = kunit_kcalloc(test, t.nodes, sizeof(u32), GFP_KERNEL);
	swseen = kunit_kcalloc(test, t.switches, sizeof(u32), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	KUNIT_ASSERT_NOT_NULL(test, swseen);
	w.path = path;
	w.path_max = ARRAY_SIZE(path);
	for (s = 0; s < t.nodes; s++) {
		for (d = 0; d < t.nodes; d++) {
			if (s == d)
				continue;
			KUNIT_ASSERT_EQ(test, dp_route_npaths(&t, s, d,
							      DCL_SEL_DFR),
					nk->k + 1);
			KUNIT_ASSERT_EQ(test, dp_route_npaths(&t, s, d,
							      DCL_SEL_PAPER),
					0U);
			stamp++;
			ok = true;
			sp = 0;
			dp = 0;
			for (m = 0; m <= nk->k; m++) {
				memset(&a, 0, sizeof(a));
				memset(&b, 0, sizeof(b));
				dp_route_path_init(&t, s, d, m, &a);
				dp_route_init(&t, s, d, DCL_SEL_PATH0 + m, 0,
					      &b);
				KUNIT_EXPECT_EQ(test, memcmp(&a, &b, sizeof(a)),
						0);
				dp_walk(&t, s, d, DCL_SEL_PATH0 + m, 0, NULL,
					t.max_hops, &w);
				KUNIT_ASSERT_TRUE(test, w.delivered);
				KUNIT_ASSERT_FALSE(test, w.bad_hop);
				KUNIT_ASSERT_LE(test, w.hops, t.ff_hops);
				sp |= 1U << dct_port_to(&t, s, path[1]);
				dp |= 1U << dct_port_to(&t, d, path[w.hops - 1]);
				for (h = 0; h < w.hops; h++) {
					if (h && seen[path[h]] == stamp)
						ok = false;
					seen[path[h]] = stamp;
					p = dct_port_to(&t, path[h], path[h + 1]);
					dp_port_info(&t, path[h], p, &pi);
					if (pi.kind != DP_PORT_SWITCH)
						continue;
					if (swseen[pi.sw] == stamp)
						ok = false;
					swseen[pi.sw] = stamp;
				}
			}
			KUNIT_EXPECT_TRUE_MSG(test, ok, "(%u,%u) %u -> %u",
					      nk->n, nk->k, s, d);
			KUNIT_EXPECT_EQ(test, sp, (2U << nk->k) - 1);
			KUNIT_EXPECT_EQ(test, dp, (2U << nk->k) - 1);
		}
		cond_resched();
	}
}

/* Any header state: a hop to a neighbour on the port named, or a drop. */
static void dct_hostile_state(struct kunit *test)
{
	struct dp_route_state st;
	struct dp_fail_set f;
	struct dp_view v;
	struct dp_hop hop;
	struct dp_topo t;
	u32 self, fl, hops, wp;

	dct_mk(test, &t, 2, 2);
	dpt_fail_init(test, &f, &t);
	dp_fail_set_node(&f, 3);
	dp_fail_set_link(&f, 10, 2);
	dp_fail_view(&f, &v);
	for (fl = 0; fl < 256; fl++) {
		for (wp = 0; wp < t.nodes + 2; wp += 5) {
			self = (fl * 7 + wp) % t.nodes;
			st.dst = (fl * 13 + 1) % t.nodes;
			if (self == st.dst || dp_fail_node(&f, self))
				continue;
			st.flags = (u8)fl;
			st.word = (u16)(fl * 257);
			st.waypoint = wp < t.nodes + 1 ? wp : DP_NODE_NONE;
			for (hops = 0; hops <= t.max_hops; hops++) {
				if (dp_route(&t, self, &st, fl & 1 ? &v : NULL,
					     &hop))
					break;
				KUNIT_ASSERT_LT(test, hop.port, t.nports);
				KUNIT_ASSERT_GE(test,
						dp_port_neigh_index(&t, self, hop.port,
								    hop.next), 0);
				self = hop.next;
				if (self == st.dst)
					break;
			}
			KUNIT_EXPECT_LE(test, hops, t.max_hops);
		}
	}
}

static struct kunit_case dct_cases[] = {
	KUNIT_CASE(dct_init),
	KUNIT_CASE_PARAM(dct_addr, dct_small_gen_params),
	KUNIT_CASE(dct_addr_text),
	KUNIT_CASE_PARAM(dct_wiring, dct_small_gen_params),
	KUNIT_CASE_PARAM(dct_routing, dct_small_gen_params),
	KUNIT_CASE(dct_paper_example),
	KUNIT_CASE_PARAM_ATTR(dct_dfr_single, dct_tiny_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE(dct_cable_entry),
	KUNIT_CASE(dct_hostile_state),
	KUNIT_CASE_PARAM(dct_paths, dct_small_gen_params),
	{}
};

static struct kunit_suite dct_suite = {
	.name = "dpillar_dcell",
	.test_cases = dct_cases,
};

kunit_test_suites(&dct_suite);
