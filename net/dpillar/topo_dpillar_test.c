// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of DPillar (topo_dpillar.c): its parameters, sizes and TTL,
 * addressing and its text form, wiring, SRoute and FTRoute, and the
 * shortest mode.  The same properties as the userspace tests in
 * tools/dpsim/tests, checked here on the kernel's build of the code
 * (KASAN, UBSAN) on small fabrics, most of them exhaustively.  Packets
 * are walked by topo_walk.c, the failure set and walker dpsim uses too;
 * the DPillar-specific checks read topo_dpillar.h.  The topology core's
 * own suite is topo_test.c's.
 */

#include <kunit/test.h>
#include <linux/moduleparam.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/dpillar.h>

#include "topo.h"
#include "topo_dpillar.h"
#include "topo_walk.h"
#include "test_lib.h"

struct dpt_nk {
	u32 n, k;
};

/* Small fabrics: every pair (and every single failure) is cheap enough. */
static const struct dpt_nk dpt_small[] = {
	{ 4, 2 }, { 4, 3 }, { 4, 4 }, { 6, 2 }, { 6, 3 }, { 8, 3 },
};

/* Exhaustive single-failure runs grow as nodes^3: the smaller ones. */
static const struct dpt_nk dpt_tiny[] = {
	{ 4, 2 }, { 4, 3 }, { 4, 4 }, { 6, 2 }, { 6, 3 },
};

static void dpt_nk_desc(const struct dpt_nk *p, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "(%u,%u)", p->n, p->k);
}

KUNIT_ARRAY_PARAM(dpt_small, dpt_small, dpt_nk_desc);
KUNIT_ARRAY_PARAM(dpt_tiny, dpt_tiny, dpt_nk_desc);

/* ---- dp_topo_init() and the sizes ---------------------------------------- */

struct dpt_init_case {
	u32 kind, n, k;
	const char *why;	/* NULL: accepted */
};

#define DPT_TOO_MANY "too many servers: k*(n/2)^k exceeds 2^32 - 1"

static const struct dpt_init_case dpt_init_cases[] = {
	{ 1, 48, 5, NULL },
	{ 1, 4, 2, NULL },
	{ 1, 256, 2, NULL },
	{ 1, 256, 3, NULL },
	{ 1, 4, 27, NULL },
	{ 1, 4, 28, DPT_TOO_MANY },
	{ 1, 256, 5, DPT_TOO_MANY },
	{ 1, 48, 7, DPT_TOO_MANY },
	{ 1, 4, 33, DPT_TOO_MANY },
	{ 1, 4, 0xffffffff, DPT_TOO_MANY },
	{ 1, 13, 3, "n must be even" },
	{ 1, 2, 3, "n out of range (4..256)" },
	{ 1, 0, 3, "Missing n" },
	{ 1, 258, 3, "n out of range (4..256)" },
	{ 1, 0xfffffffe, 3, "n out of range (4..256)" },
	{ 1, 12, 1, "k must be >= 2" },
	{ 1, 12, 0, "Missing k" },
	{ 0, 12, 3, "unknown topology kind" },
	{ DP_TOPO_KIND_MAX + 1, 12, 3, "unknown topology kind" },
};

static void dpt_init_desc(const struct dpt_init_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "kind %u (%u,%u) %s", c->kind,
		 c->n, c->k, c->why ? "rejected" : "accepted");
}

KUNIT_ARRAY_PARAM(dpt_init, dpt_init_cases, dpt_init_desc);

static void dpt_topo_init_limits(struct kunit *test)
{
	const struct dpt_init_case *c = test->param_value;
	const char *why = NULL;
	struct dp_port_info pi;
	struct dp_topo t;
	int err;

	memset(&t, 0xa5, sizeof(t));
	err = dpt_init(&t, c->kind, c->n, c->k, &why);
	if (!c->why) {
		KUNIT_ASSERT_EQ(test, err, 0);
		KUNIT_EXPECT_PTR_EQ(test, t.ops, &dp_dpillar_ops);
		KUNIT_EXPECT_EQ(test, dpp(&t)->h, c->n / 2);
		KUNIT_EXPECT_EQ(test, t.nodes, c->k * dpp(&t)->pow[c->k]);
		KUNIT_EXPECT_EQ(test, t.switches,
				c->k * dpp(&t)->pow[c->k - 1]);
		KUNIT_EXPECT_EQ(test, t.nports, DPP_NPORTS);
		dp_port_info(&t, 0, DPP_PORT_CW, &pi);
		KUNIT_EXPECT_EQ(test, pi.nneigh, c->n - 1);
		KUNIT_EXPECT_LT(test, t.nodes - 1, DP_NODE_NONE);
		KUNIT_EXPECT_EQ(test, t.p.n, c->n);
		KUNIT_EXPECT_EQ(test, t.p.k, c->k);
		KUNIT_EXPECT_EQ(test, t.ff_hops, c->k + c->k / 2);
		/*
		 * The bounds of topo_dpillar.c, the larger of the two modes:
		 * paper (B + 2)k + 2B + 1 + 2k, shortest (2b + 1)D + b.
		 */
		KUNIT_EXPECT_EQ(test, t.max_hops,
				max((DPP_FT_MAX_TUNNELS + 4) * c->k +
				    2 * DPP_FT_MAX_TUNNELS + 1,
				    (2 * dpp(&t)->budget + 1) * dpp(&t)->diam +
				    dpp(&t)->budget));
		KUNIT_EXPECT_EQ(test, dp_topo_ttl(&t), t.max_hops);
		KUNIT_EXPECT_LE(test, t.max_hops, DP_TTL_MAX);
		return;
	}
	KUNIT_EXPECT_EQ(test, err, -EINVAL);
	KUNIT_ASSERT_NOT_NULL(test, why);
	KUNIT_EXPECT_STREQ(test, why, c->why);
	/* A failed init leaves nothing half-filled behind. */
	KUNIT_EXPECT_NULL(test, t.ops);
	KUNIT_EXPECT_EQ(test, t.nodes, 0);
	/* @why is optional. */
	KUNIT_EXPECT_EQ(test, dpt_init(&t, c->kind, c->n, c->k, NULL),
			-EINVAL);
}

static void dpt_topo_sizes(struct kunit *test)
{
	struct dp_topo t;

	dpt_mk(test, &t, 48, 5);
	KUNIT_EXPECT_EQ(test, t.nodes, 39813120);
	KUNIT_EXPECT_EQ(test, t.switches, 5 * 331776);
	dpt_mk(test, &t, 4, 27);
	KUNIT_EXPECT_EQ(test, t.nodes - 1, 3623878655U);
}

/* ---- addressing and text forms ------------------------------------------- */

static bool dpt_addr_roundtrip(const struct dp_topo *t, u32 id)
{
	char buf[DP_ADDR_TEXT_MAX];
	u8 sym[DPP_MAX_K];
	u32 col, back, nsym;
	const char *why;
	int len;

	if (dp_addr_to_label(t, id, &col, sym, &nsym) || nsym != t->p.k)
		return false;
	if (dp_addr_from_label(t, col, sym, nsym, &back, &why) || back != id)
		return false;
	len = dp_addr_format(t, id, buf, sizeof(buf));
	if (len <= 0 || len != strlen(buf))
		return false;
	if (dp_addr_parse(t, buf, &back, &why) || back != id)
		return false;
	/* "#<node id>", which every topology takes */
	snprintf(buf, sizeof(buf), "#%u", id);
	if (dp_addr_parse(t, buf, &back, &why) || back != id)
		return false;
	return dp_addr_valid(t, id);
}

static void dpt_addr_roundtrip_all(struct kunit *test)
{
	const struct dpt_nk *p = test->param_value;
	struct dp_topo t;
	u32 id, bad = 0, first = 0;

	dpt_mk(test, &t, p->n, p->k);
	for (id = 0; id < t.nodes; id++) {
		if (!dpt_addr_roundtrip(&t, id) && !bad++)
			first = id;
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "first bad id %u", first);
	KUNIT_EXPECT_FALSE(test, dp_addr_valid(&t, t.nodes));
	KUNIT_EXPECT_FALSE(test, dp_addr_valid(&t, DP_NODE_NONE));
}

static void dpt_addr_roundtrip_large(struct kunit *test)
{
	char buf[DP_ADDR_TEXT_MAX];
	struct rnd_state rnd;
	struct dp_topo t;
	u32 i, id, bad = 0;

	dpt_mk(test, &t, 48, 5);
	prandom_seed_state(&rnd, 42);
	KUNIT_EXPECT_TRUE(test, dpt_addr_roundtrip(&t, 0));
	KUNIT_EXPECT_TRUE(test, dpt_addr_roundtrip(&t, t.nodes - 1));
	for (i = 0; i < 20000; i++) {
		id = prandom_u32_state(&rnd) % t.nodes;
		bad += !dpt_addr_roundtrip(&t, id);
	}
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_EQ(test, dp_addr_format(&t, t.nodes - 1, buf, sizeof(buf)),
			16);
	KUNIT_EXPECT_STREQ(test, buf, "4:23.23.23.23.23");
}

static void dpt_addr_text(struct kunit *test)
{
	char buf[DP_ADDR_TEXT_MAX], small[5];
	u8 sym[DPP_MAX_K];
	const char *why;
	struct dp_topo t;
	u32 id, col, nsym;

	dpt_mk(test, &t, 8, 3);
	KUNIT_ASSERT_EQ(test, dp_addr_parse(&t, "2:3.0.1", &id, &why), 0);
	KUNIT_EXPECT_EQ(test, id, 2 * 64 + 3 * 16 + 0 * 4 + 1);
	dpp_addr_split(&t, id, &col, sym);
	KUNIT_EXPECT_EQ(test, col, 2);
	KUNIT_EXPECT_EQ(test, sym[0], 1);
	KUNIT_EXPECT_EQ(test, sym[1], 0);
	KUNIT_EXPECT_EQ(test, sym[2], 3);
	KUNIT_EXPECT_EQ(test, dp_addr_format(&t, id, buf, sizeof(buf)), 7);
	KUNIT_EXPECT_STREQ(test, buf, "2:3.0.1");

	/* Truncation like snprintf(): full length back, always terminated. */
	memset(small, 'x', sizeof(small));
	KUNIT_EXPECT_EQ(test, dp_addr_format(&t, id, small, sizeof(small)), 7);
	KUNIT_EXPECT_STREQ(test, small, "2:3.");
	KUNIT_EXPECT_EQ(test, dp_addr_format(&t, id, small, 1), 7);
	KUNIT_EXPECT_EQ(test, small[0], '\0');
	small[0] = 'x';
	KUNIT_EXPECT_EQ(test, dp_addr_format(&t, id, small, 0), 7);
	KUNIT_EXPECT_EQ(test, small[0], 'x');

	buf[0] = 'x';
	KUNIT_EXPECT_EQ(test, dp_addr_format(&t, t.nodes, buf, sizeof(buf)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, buf[0], '\0');

	KUNIT_ASSERT_EQ(test, dpp_addr_parse_raw("7:1.2.3.200", &col, sym,
						 &nsym, &why), 0);
	KUNIT_EXPECT_EQ(test, col, 7);
	KUNIT_EXPECT_EQ(test, nsym, 4);
	KUNIT_EXPECT_EQ(test, sym[0], 200);
	KUNIT_EXPECT_EQ(test, sym[3], 1);
	KUNIT_EXPECT_EQ(test, dp_addr_from_label(&t, 0, sym, 3, &id, &why),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "label symbol out of range (must be < n/2)");
	KUNIT_EXPECT_EQ(test, dpp_addr_parse_raw("4294967295:0", &col, sym,
						 &nsym, NULL), 0);
	KUNIT_EXPECT_EQ(test, col, 0xffffffffU);
	KUNIT_EXPECT_EQ(test, dpp_addr_parse_raw(NULL, &col, sym, &nsym, &why),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "empty address");

	/* "#<node id>": any id of the fabric, nothing else */
	KUNIT_EXPECT_EQ(test, dp_addr_parse(&t, "#191", &id, &why), 0);
	KUNIT_EXPECT_EQ(test, id, 191);
	KUNIT_EXPECT_EQ(test, dp_addr_parse(&t, "#192", &id, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "no such node id in this fabric");
	KUNIT_EXPECT_EQ(test, dp_addr_parse(&t, "#1 ", &id, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "#<node id> wants a decimal node id");
}

struct dpt_bad_text {
	const char *text, *why;
};

#define DPT_SEP "label must be decimal symbols separated by '.'"
#define DPT_SYM "label symbol out of range (must be < n/2)"
#define DPT_COLON "address must look like C:v.v.v (missing ':')"
#define DPT_FIRST "address must look like C:v.v.v (column first)"

static const struct dpt_bad_text dpt_bad_texts[] = {
	{ "", "empty address" },
	{ "3:0.0.0", "column out of range" },
	{ "2:0.0", "label must have k symbols" },
	{ "2:0.0.0.0", "label must have k symbols" },
	{ "2:0.4.0", DPT_SYM },
	{ "2:0.256.0", DPT_SYM },
	{ "2:0.99999999999.0", DPT_SYM },
	{ "2:0..0", DPT_SEP },
	{ "2:0.0.", DPT_SEP },
	{ "2:", DPT_SEP },
	{ "2:0.0.0 ", DPT_SEP },
	{ "2:0.0.0\n", DPT_SEP },
	{ "2:-1.0.0", DPT_SEP },
	{ "2:+1.0.0", DPT_SEP },
	{ "2:0x1.0.0", DPT_SEP },
	{ "2", DPT_COLON },
	{ "2.0.0.0", DPT_COLON },
	{ "2::0.0.0", DPT_SEP },
	{ ":0.0.0", DPT_FIRST },
	{ " 2:0.0.0", DPT_FIRST },
	{ "x:0.0.0", DPT_FIRST },
	{ "4294967296:0.0.0", "column out of range" },
	{ "99999999999:0.0.0", "column out of range" },
	{ "0:0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0",
	  "label has too many symbols" },
	{ "#4294967296", "#<node id> wants a decimal node id" },
	{ "#", "#<node id> wants a decimal node id" },
	{ "#-1", "#<node id> wants a decimal node id" },
};

static void dpt_bad_text_desc(const struct dpt_bad_text *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%.60s\"", c->text);
	/* KTAP descriptions end at a newline. */
	strreplace(desc, '\n', '~');
}

KUNIT_ARRAY_PARAM(dpt_bad_text, dpt_bad_texts, dpt_bad_text_desc);

static void dpt_addr_parse_rejects(struct kunit *test)
{
	const struct dpt_bad_text *c = test->param_value;
	const char *why = NULL;
	struct dp_topo t;
	u32 id = 12345;

	dpt_mk(test, &t, 8, 3);
	KUNIT_EXPECT_EQ(test, dp_addr_parse(&t, c->text, &id, &why), -EINVAL);
	KUNIT_ASSERT_NOT_NULL(test, why);
	KUNIT_EXPECT_STREQ(test, why, c->why);
	KUNIT_EXPECT_EQ(test, id, 12345);
	KUNIT_EXPECT_EQ(test, dp_addr_parse(&t, c->text, &id, NULL), -EINVAL);
}

/* ---- wiring -------------------------------------------------------------- */

static void dpt_wiring(struct kunit *test)
{
	const struct dpt_nk *p = test->param_value;
	u32 id, port, i, peer, sw, pow, *cnt;
	u32 bad = 0, asym = 0, uneven = 0;
	struct dp_port_info pi, ppi;
	struct dp_topo t;
	int q;

	dpt_mk(test, &t, p->n, p->k);
	dp_port_info(&t, 0, DPP_PORT_CW, &pi);
	KUNIT_EXPECT_EQ(test, pi.nneigh, p->n - 1);
	pow = dpp(&t)->pow[p->k - 1];
	cnt = kunit_kcalloc(test, t.switches * 2, sizeof(*cnt), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cnt);
	for (id = 0; id < t.nodes; id++) {
		for (port = 0; port < DPP_NPORTS; port++) {
			dp_port_info(&t, id, port, &pi);
			if (pi.kind != DP_PORT_SWITCH || pi.nneigh != p->n - 1 ||
			    pi.sw_level >= p->k || pi.sw_id >= pow ||
			    pi.sw != pi.sw_level * pow + pi.sw_id ||
			    pi.sw >= t.switches) {
				bad++;
				continue;
			}
			/* Port 0: the H_sc side of S_sc, port 1: H_sc+1. */
			sw = pi.sw;
			cnt[sw * 2 + port]++;
			for (i = 0; i < pi.nneigh; i++) {
				peer = dp_port_neigh(&t, id, port, i);
				if (peer >= t.nodes || peer == id ||
				    dp_port_neigh_index(&t, id, port, peer) != i) {
					bad++;
					continue;
				}
				q = dp_peer_port(&t, id, port, peer);
				if (q < 0) {
					asym++;
					continue;
				}
				dp_port_info(&t, peer, q, &ppi);
				if (ppi.sw != pi.sw ||
				    ppi.sw_level != pi.sw_level ||
				    ppi.sw_id != pi.sw_id ||
				    dp_port_neigh_index(&t, peer, q, id) < 0)
					asym++;
			}
			if (dp_port_neigh_index(&t, id, port, id) != -1 ||
			    dp_port_neigh_index(&t, id, port, t.nodes) != -1 ||
			    dp_port_neigh_index(&t, id, port, DP_NODE_NONE) != -1 ||
			    dp_port_neigh(&t, id, port, p->n - 1) != DP_NODE_NONE)
				bad++;
		}
		cond_resched();
	}
	for (sw = 0; sw < t.switches; sw++)
		if (cnt[sw * 2] != dpp(&t)->h || cnt[sw * 2 + 1] != dpp(&t)->h)
			uneven++;
	KUNIT_EXPECT_EQ_MSG(test, bad, 0,
			    "switch out of range, bad neighbour or index");
	KUNIT_EXPECT_EQ_MSG(test, asym, 0, "neighbour lists not symmetric");
	KUNIT_EXPECT_EQ_MSG(test, uneven, 0,
			    "a switch without h servers of H_c and h of H_c+1");
}

/* The text form of the wiring example of dpillar-design.rst, (4,3). */
static void dpt_wiring_example(struct kunit *test)
{
	char buf[DP_ADDR_TEXT_MAX];
	struct dp_port_info pi;
	struct dp_topo t;
	bool found = false;
	u32 id, peer, i;

	dpt_mk(test, &t, 4, 3);
	KUNIT_ASSERT_EQ(test, dp_addr_parse(&t, "2:1.0.1", &id, NULL), 0);
	dp_port_info(&t, id, DPP_PORT_CCW, &pi);
	KUNIT_EXPECT_EQ(test, pi.sw_level, 1);
	dp_port_info(&t, id, DPP_PORT_CW, &pi);
	KUNIT_EXPECT_EQ(test, pi.sw_level, 2);
	/* Port 0 of column 2 reaches column 0 (= 2 + 1 mod 3), symbol 2. */
	for (i = 0; i < pi.nneigh; i++) {
		peer = dp_port_neigh(&t, id, DPP_PORT_CW, i);
		dp_addr_format(&t, peer, buf, sizeof(buf));
		if (!strcmp(buf, "0:0.0.1"))
			found = true;
	}
	KUNIT_EXPECT_TRUE(test, found);
}

/* ---- routing ------------------------------------------------------------- */

/*
 * Route one packet hop by hop (topo_walk.c).  @f == NULL: SRoute, else
 * FTRoute with @f's view.  Every hop must go to a neighbour on the chosen
 * port, and with failures to a live one over live links (w->bad_hop).
 */
static void dpt_walk(const struct dp_topo *t, u32 src, u32 dst, u32 sel,
		     const struct dp_fail_set *f, u32 ttl, struct dp_walk *w)
{
	memset(w, 0, sizeof(*w));
	dp_walk(t, src, dst, sel, 0, f, ttl, w);
}

/* Failure-free: every pair, both directions, within k + k/2 hops. */
static void dpt_sroute_all_pairs(struct kunit *test)
{
	const struct dpt_nk *p = test->param_value;
	struct dp_walk w, wc, wcc;
	u32 s, d, bound, bad = 0, notmin = 0, maxcw = 0;
	u32 bs = 0, bd = 0;
	struct dp_topo t;

	dpt_mk(test, &t, p->n, p->k);
	bound = p->k + p->k / 2;
	KUNIT_EXPECT_EQ(test, t.ff_hops, bound);
	for (s = 0; s < t.nodes; s++) {
		for (d = 0; d < t.nodes; d++) {
			if (s == d)
				continue;
			dpt_walk(&t, s, d, DPP_SEL_AUTO, NULL, 4 * bound, &w);
			dpt_walk(&t, s, d, DPP_SEL_CW, NULL, 4 * bound, &wc);
			dpt_walk(&t, s, d, DPP_SEL_CCW, NULL, 4 * bound, &wcc);
			if (!w.delivered || !wc.delivered || !wcc.delivered ||
			    w.hops > bound || wc.hops > bound ||
			    wcc.hops > bound) {
				if (!bad++) {
					bs = s;
					bd = d;
				}
			}
			if (w.hops != min(wc.hops, wcc.hops))
				notmin++;
			maxcw = max(maxcw, wc.hops);
		}
		cond_resched();
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "e.g. %u -> %u: not delivered in %u hops",
			    bs, bd, bound);
	KUNIT_EXPECT_EQ_MSG(test, notmin, 0,
			    "auto direction not the shorter of D=+1, D=-1");
	/* The paper's bound is tight for D = +1 (k = 2 stays below it). */
	if (p->k > 2)
		KUNIT_EXPECT_EQ(test, maxcw, bound);
}

/*
 * dp_route_init()'s direction choice predicts path lengths with
 * dpp_sroute_len() (static in topo_dpillar.c, visible to KUnit): the
 * prediction must equal the walked length for both directions.
 */
static void dpt_sroute_len_predicts(struct kunit *test)
{
	const struct dpt_nk *p = test->param_value;
	u32 s, d, c, cd, l, ld, i, diff, bad = 0, bs = 0, bd = 0;
	const struct dpp_priv *dp;
	struct dp_walk w;
	struct dp_topo t;
	int cw;

	dpt_mk(test, &t, p->n, p->k);
	dp = dpp(&t);
	for (s = 0; s < t.nodes; s++) {
		for (d = 0; d < t.nodes; d++) {
			if (s == d)
				continue;
			c = s / dp->nlabels;
			cd = d / dp->nlabels;
			l = s % dp->nlabels;
			ld = d % dp->nlabels;
			diff = 0;
			for (i = 0; i < dp->k; i++, l /= dp->h, ld /= dp->h)
				if (l % dp->h != ld % dp->h)
					diff |= 1U << i;
			for (cw = 0; cw < 2; cw++) {
				dpt_walk(&t, s, d,
					 cw ? DPP_SEL_CW : DPP_SEL_CCW,
					 NULL, 100, &w);
				if (!w.delivered ||
				    dpp_sroute_len(&t, c, diff, cd, cw) != w.hops) {
					if (!bad++) {
						bs = s;
						bd = d;
					}
				}
			}
		}
		cond_resched();
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "e.g. %u -> %u", bs, bd);
}

static void dpt_route_drops(struct kunit *test)
{
	struct dp_route_state st;
	struct dp_hop hop;
	struct dp_topo t;

	dpt_mk(test, &t, 4, 3);
	dp_route_init(&t, 1, 1, DPP_SEL_AUTO, 0, &st);
	KUNIT_EXPECT_EQ(test, dp_route(&t, 1, &st, NULL, &hop), -1);
	KUNIT_EXPECT_EQ(test, hop.reason, DP_DROP_ROUTE_AT_DST);

	dp_route_init(&t, 1, t.nodes, DPP_SEL_AUTO, 0, &st);
	KUNIT_EXPECT_EQ(test, dp_route(&t, 1, &st, NULL, &hop), -1);
	KUNIT_EXPECT_EQ(test, hop.reason, DP_DROP_ROUTE_BAD_ADDR);

	dp_route_init(&t, 1, 2, DPP_SEL_AUTO, 0, &st);
	KUNIT_EXPECT_EQ(test, dp_route(&t, t.nodes, &st, NULL, &hop), -1);
	KUNIT_EXPECT_EQ(test, hop.reason, DP_DROP_ROUTE_BAD_ADDR);

	/* A waypoint outside the fabric, as a corrupted header may carry. */
	dp_route_init(&t, 0, t.nodes - 1, DPP_SEL_AUTO, 0, &st);
	st.waypoint = t.nodes + 5;
	KUNIT_EXPECT_EQ(test, dp_route(&t, 0, &st, NULL, &hop), -1);
	KUNIT_EXPECT_EQ(test, hop.reason, DP_DROP_ROUTE_BAD_ADDR);

	KUNIT_EXPECT_STREQ(test, dp_drop_reason_name(&t, DPP_DROP_RING),
			   "ring_blocked");
	KUNIT_EXPECT_STREQ(test, dp_drop_reason_name(&t, DPP_DROP_COUNT),
			   "unknown");
	KUNIT_EXPECT_STREQ(test, dp_phase_name(&t, DPP_PHASE_TUNNEL), "tunnel");
	KUNIT_EXPECT_STREQ(test, dp_phase_name(&t, 0xff), "unknown");
}

/* Every flag combination a header can carry routes or drops cleanly. */
static void dpt_route_any_flags(struct kunit *test)
{
	struct dp_route_state st;
	struct dp_hop hop;
	struct dp_topo t;
	u32 s, d, bad = 0;
	int flags, err;

	dpt_mk(test, &t, 6, 3);
	for (s = 0; s < t.nodes; s += 7) {
		for (d = 0; d < t.nodes; d += 5) {
			if (s == d)
				continue;
			for (flags = 0; flags < 256; flags++) {
				dp_route_init(&t, s, d, DPP_SEL_AUTO, 0, &st);
				st.flags = flags;
				err = dp_route(&t, s, &st, NULL, &hop);
				if (!err &&
				    (hop.port >= DPP_NPORTS ||
				     dp_port_neigh_index(&t, s, hop.port,
							 hop.next) < 0))
					bad++;
				if (err && hop.reason >= DPP_DROP_COUNT)
					bad++;
			}
		}
	}
	KUNIT_EXPECT_EQ(test, bad, 0);
}

struct dpt_ft_stats {
	u32 walks, delivered, looped, bad, dropped, unexpected, maxhops;
	u32 ex_s, ex_d;	/* an example of a loop, bad hop or unexpected drop */
};

/* Every live pair, with the TTL packets get: a longer path is a loop. */
static void dpt_ft_pairs(const struct dp_topo *t, const struct dp_fail_set *f,
			 u32 sel, struct dpt_ft_stats *st)
{
	struct dp_walk w;
	u32 s, d;

	for (s = 0; s < t->nodes; s++) {
		if (dp_fail_node(f, s))
			continue;
		for (d = 0; d < t->nodes; d++) {
			if (s == d || dp_fail_node(f, d))
				continue;
			dpt_walk(t, s, d, sel, f, dp_topo_ttl(t), &w);
			st->walks++;
			if (w.delivered) {
				st->delivered++;
				st->maxhops = max(st->maxhops, w.hops);
				continue;
			}
			if (w.looped) {
				st->looped++;
			} else if (w.bad_hop) {
				st->bad++;
			} else {
				st->dropped++;
				/* A drop must name a failure it met. */
				if (w.reason != DP_DROP_ROUTE_NONE &&
				    w.reason != DPP_DROP_NOPATH &&
				    w.reason != DP_DROP_ROUTE_BAD_ADDR &&
				    w.reason != DP_DROP_ROUTE_AT_DST &&
				    w.reason < DPP_DROP_COUNT)
					continue;
				st->unexpected++;
			}
			st->ex_s = s;
			st->ex_d = d;
		}
	}
}

static void dpt_ft_check(struct kunit *test, const struct dp_topo *t,
			 const char *what, const struct dpt_ft_stats *st)
{
	kunit_info(test, "(%u,%u) %s: %u walks, %u delivered, %u dropped, max %u hops\n",
		   t->p.n, t->p.k, what, st->walks, st->delivered, st->dropped,
		   st->maxhops);
	KUNIT_EXPECT_EQ_MSG(test, st->looped, 0, "%s: loop, e.g. %u -> %u",
			    what, st->ex_s, st->ex_d);
	KUNIT_EXPECT_EQ_MSG(test, st->bad, 0, "%s: bad hop, e.g. %u -> %u",
			    what, st->ex_s, st->ex_d);
	KUNIT_EXPECT_EQ_MSG(test, st->unexpected, 0,
			    "%s: drop without reason, e.g. %u -> %u", what,
			    st->ex_s, st->ex_d);
	/* The bound of topo_dpillar.c: (B + 2)k + 2B + 1 + 2k = 8k + 9. */
	KUNIT_EXPECT_LE(test, st->maxhops, t->max_hops);
	KUNIT_EXPECT_LE(test, st->maxhops, 8 * t->p.k + 9);
}

/* Without failures FTRoute takes exactly the SRoute path. */
static void dpt_ftroute_no_failure(struct kunit *test)
{
	const struct dpt_nk *p = test->param_value;
	struct dp_walk a, b;
	struct dp_fail_set f;
	struct dp_topo t;
	u32 s, d, bad = 0;

	dpt_mk(test, &t, p->n, p->k);
	dpt_fail_init(test, &f, &t);
	for (s = 0; s < t.nodes; s++) {
		for (d = 0; d < t.nodes; d++) {
			if (s == d)
				continue;
			dpt_walk(&t, s, d, DPP_SEL_AUTO, NULL, 100, &a);
			dpt_walk(&t, s, d, DPP_SEL_AUTO, &f, 100, &b);
			if (!b.delivered || a.hops != b.hops)
				bad++;
		}
		cond_resched();
	}
	KUNIT_EXPECT_EQ(test, bad, 0);
}

/*
 * fail_stride=N: the single-failure cases fail every Nth server (and its
 * links) instead of every one.  make check's debug kernel passes 4: under
 * KASAN and lockdep each failure walks the same code, and the exhaustive
 * run (a few minutes there) buys nothing a quarter of it does not; dpsim's
 * checks walk every single failure on the host with the same routing core.
 */
static unsigned int fail_stride = 1;
module_param(fail_stride, uint, 0444);
MODULE_PARM_DESC(fail_stride,
		 "single-failure cases: fail every Nth server (default 1: all)");

/*
 * Walk every live pair with mode @sel under every single failed server
 * (into @srv), then every single failed link (into @link), or every
 * fail_stride-th server and its links.
 */
static void dpt_single_failures(struct kunit *test, const struct dp_topo *t,
				u32 sel, struct dpt_ft_stats *srv,
				struct dpt_ft_stats *link)
{
	struct dp_fail_set f;
	u32 x, port;

	dpt_fail_init(test, &f, t);
	memset(srv, 0, sizeof(*srv));
	memset(link, 0, sizeof(*link));
	for (x = 0; x < t->nodes; x += max(fail_stride, 1U)) {
		dp_fail_clear(&f);
		dp_fail_set_node(&f, x);
		dpt_ft_pairs(t, &f, sel, srv);
		for (port = 0; port < t->nports; port++) {
			dp_fail_clear(&f);
			dp_fail_set_link(&f, x, port);
			dpt_ft_pairs(t, &f, sel, link);
		}
		cond_resched();
	}
}

/*
 * Every single failed server, then every single failed link: no loop, no
 * bad hop, and every pair still delivered.
 */
static void dpt_ftroute_single_failures(struct kunit *test)
{
	const struct dpt_nk *p = test->param_value;
	struct dpt_ft_stats srv, link;
	struct dp_topo t;

	dpt_mk(test, &t, p->n, p->k);
	dpt_single_failures(test, &t, DPP_SEL_AUTO, &srv, &link);
	dpt_ft_check(test, &t, "every single failed server", &srv);
	/* One failure never disconnects a pair (the paper's guarantee). */
	KUNIT_EXPECT_EQ(test, srv.delivered, srv.walks);
	dpt_ft_check(test, &t, "every single failed link", &link);
	KUNIT_EXPECT_EQ(test, link.delivered, link.walks);
}

/* Random sets of up to 12 failed servers and 6 failed links. */
static void dpt_ftroute_random_failures(struct kunit *test)
{
	const struct dpt_nk *p = test->param_value;
	struct dpt_ft_stats st;
	struct rnd_state rnd;
	struct dp_fail_set f;
	struct dp_topo t;
	u32 set, i, nf, nl, x;

	dpt_mk(test, &t, p->n, p->k);
	dpt_fail_init(test, &f, &t);
	prandom_seed_state(&rnd, 1000 * p->n + p->k);
	memset(&st, 0, sizeof(st));
	for (set = 0; set < 12; set++) {
		dp_fail_clear(&f);
		nf = 1 + prandom_u32_state(&rnd) % min(12U, t.nodes / 2);
		nl = prandom_u32_state(&rnd) % 7;
		for (i = 0; i < nf; i++)
			dp_fail_set_node(&f, prandom_u32_state(&rnd) % t.nodes);
		for (i = 0; i < nl; i++) {
			x = prandom_u32_state(&rnd) % (t.nodes * t.nports);
			dp_fail_set_link(&f, x / t.nports, x % t.nports);
		}
		dpt_ft_pairs(&t, &f, set & 1 ? DPP_SEL_CW : DPP_SEL_AUTO, &st);
		cond_resched();
	}
	dpt_ft_check(test, &t, "12 random failure sets", &st);
}

/* ---- the TTL at the extremes --------------------------------------------- */

/*
 * The TTL is the proven path bound of each parameter set, never above what
 * the header holds: the larger of DPillar's two modes' at the ends of its
 * ranges, and the k that would exceed it is refused for its size first.
 */
static void dpt_topo_ttl_extremes(struct kunit *test)
{
	static const struct dpt_nk ok[] = {
		{ 4, 2 }, { 256, 2 }, { 256, 3 }, { 4, 27 }, { 6, 16 },
		{ 48, 5 }, { 48, 6 }, { 4, 10 },
	};
	struct dp_topo_params prm = { .kind = DP_TOPO_DPILLAR };
	struct dp_topo t;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		prm.n = ok[i].n;
		prm.k = ok[i].k;
		KUNIT_ASSERT_EQ(test, dp_topo_init(&t, &prm, NULL), 0);
		KUNIT_EXPECT_EQ(test, dp_topo_ttl(&t),
				max(8 * ok[i].k + 9,
				    (2 * dpp(&t)->budget + 1) * dpp(&t)->diam +
				    dpp(&t)->budget));
		/* The shortest mode keeps at least one detour. */
		KUNIT_EXPECT_GE(test, dpp(&t)->budget, 1);
		KUNIT_EXPECT_LE(test, dp_topo_ttl(&t), DP_TTL_MAX);
		KUNIT_EXPECT_LE(test, t.ff_hops, t.max_hops);
	}
	/* (4,10): the issue's 68-hop detour fits; a fixed TTL of 64 did not. */
	prm.n = 4;
	prm.k = 10;
	KUNIT_ASSERT_EQ(test, dp_topo_init(&t, &prm, NULL), 0);
	KUNIT_EXPECT_GE(test, dp_topo_ttl(&t), 68);
	/* (4,28) is refused for its size: its bound (233) would still fit. */
	prm.k = 28;
	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &prm, NULL), -EINVAL);
	/* Parameters another topology owns are refused, not ignored. */
	prm.k = 3;
	prm.spaces = 2;
	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &prm, NULL), -EINVAL);
}

/*
 * A long legitimate path is delivered with the TTL packets get: in (4,10)
 * with two failures next to the destination, 68 hops (four tunnels, as
 * dpsim's own test shows), more than the fixed TTL of 64 once was.  The
 * same walk with 64 runs out: the test tells the two apart.
 */
static void dpt_topo_ttl_long_path(struct kunit *test)
{
	static const char *const fail[] = {
		"1:1.1.0.0.1.1.0.0.0.1", "1:1.1.0.0.1.1.0.0.1.1",
	};
	struct dp_topo_params prm = { .kind = DP_TOPO_DPILLAR, .n = 4, .k = 10 };
	struct dp_fail_set f;
	struct dp_topo t;
	struct dp_walk w;
	u32 src, dst, id;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, dp_topo_init(&t, &prm, NULL), 0);
	KUNIT_ASSERT_EQ(test, dp_addr_parse(&t, "2:1.0.0.1.0.1.1.0.0.0", &src,
					    NULL), 0);
	KUNIT_ASSERT_EQ(test, dp_addr_parse(&t, "2:1.1.0.0.1.1.0.0.0.1", &dst,
					    NULL), 0);
	dpt_fail_init(test, &f, &t);
	for (i = 0; i < ARRAY_SIZE(fail); i++) {
		KUNIT_ASSERT_EQ(test, dp_addr_parse(&t, fail[i], &id, NULL), 0);
		dp_fail_set_node(&f, id);
	}
	/* The paper's FTRoute: four tunnels, 68 hops. */
	dpt_walk(&t, src, dst, DPP_SEL_AUTO, &f, dp_topo_ttl(&t), &w);
	KUNIT_EXPECT_TRUE(test, w.delivered);
	KUNIT_EXPECT_FALSE(test, w.bad_hop);
	KUNIT_EXPECT_EQ(test, w.hops, 68);
	KUNIT_EXPECT_GT(test, w.hops, 64);
	KUNIT_EXPECT_LE(test, w.hops, dp_topo_ttl(&t));
	dpt_walk(&t, src, dst, DPP_SEL_AUTO, &f, 64, &w);
	KUNIT_EXPECT_FALSE(test, w.delivered);
	KUNIT_EXPECT_TRUE(test, w.looped);
	/* The shortest mode's detours take this pair in fewer hops. */
	dpt_walk(&t, src, dst, DPP_SEL_SHORTEST, &f, dp_topo_ttl(&t), &w);
	KUNIT_EXPECT_TRUE(test, w.delivered);
	KUNIT_EXPECT_FALSE(test, w.bad_hop);
	KUNIT_EXPECT_LT(test, w.hops, 68);
}

static struct kunit_case dpt_topo_cases[] = {
	KUNIT_CASE_PARAM(dpt_topo_init_limits, dpt_init_gen_params),
	KUNIT_CASE(dpt_topo_sizes),
	KUNIT_CASE(dpt_topo_ttl_extremes),
	KUNIT_CASE(dpt_topo_ttl_long_path),
	{}
};

static struct kunit_suite dpt_topo_suite = {
	.name = "dpillar_topo",
	.test_cases = dpt_topo_cases,
};

static struct kunit_case dpt_addr_cases[] = {
	KUNIT_CASE_PARAM(dpt_addr_roundtrip_all, dpt_small_gen_params),
	KUNIT_CASE(dpt_addr_roundtrip_large),
	KUNIT_CASE(dpt_addr_text),
	KUNIT_CASE_PARAM(dpt_addr_parse_rejects, dpt_bad_text_gen_params),
	{}
};

static struct kunit_suite dpt_addr_suite = {
	.name = "dpillar_addr",
	.test_cases = dpt_addr_cases,
};

static struct kunit_case dpt_wiring_cases[] = {
	KUNIT_CASE_PARAM(dpt_wiring, dpt_small_gen_params),
	KUNIT_CASE(dpt_wiring_example),
	{}
};

static struct kunit_suite dpt_wiring_suite = {
	.name = "dpillar_wiring",
	.test_cases = dpt_wiring_cases,
};

static struct kunit_case dpt_sroute_cases[] = {
	KUNIT_CASE_PARAM(dpt_sroute_all_pairs, dpt_small_gen_params),
	KUNIT_CASE_PARAM(dpt_sroute_len_predicts, dpt_small_gen_params),
	KUNIT_CASE(dpt_route_drops),
	KUNIT_CASE(dpt_route_any_flags),
	{}
};

static struct kunit_suite dpt_sroute_suite = {
	.name = "dpillar_sroute",
	.test_cases = dpt_sroute_cases,
};

static struct kunit_case dpt_ftroute_cases[] = {
	KUNIT_CASE_PARAM(dpt_ftroute_no_failure, dpt_small_gen_params),
	KUNIT_CASE_PARAM_ATTR(dpt_ftroute_single_failures, dpt_tiny_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE_PARAM_ATTR(dpt_ftroute_random_failures, dpt_small_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	{}
};

static struct kunit_suite dpt_ftroute_suite = {
	.name = "dpillar_ftroute",
	.test_cases = dpt_ftroute_cases,
};

/* ---- shortest mode: exact distance, shortest paths, failures ---- */

/* Hop distances from @src by BFS over the wiring (the reference). */
static void dpt_bfs(const struct dp_topo *t, u32 src, u8 *dist, u32 *queue)
{
	struct dp_port_info pi;
	u32 head = 0, tail = 0, id, p, i, nb;

	memset(dist, 0xff, t->nodes);
	dist[src] = 0;
	queue[tail++] = src;
	while (head < tail) {
		id = queue[head++];
		for (p = 0; p < t->nports; p++) {
			dp_port_info(t, id, p, &pi);
			for (i = 0; i < pi.nneigh; i++) {
				nb = dp_port_neigh(t, id, p, i);
				if (nb >= t->nodes || dist[nb] != 0xff)
					continue;
				dist[nb] = dist[id] + 1;
				queue[tail++] = nb;
			}
		}
	}
}

/*
 * dpp_dist() equals BFS for every pair, the diameter is the largest, and
 * the shortest mode's failure-free path is exactly that long, for a few
 * flow hashes.
 */
static void dpt_sp_paths(struct kunit *test)
{
	const struct dpt_nk *p = test->param_value;
	u32 s, d, h, bad_dist = 0, bad_walk = 0, diam = 0;
	struct dp_topo t;
	struct dp_walk w;
	u32 *queue;
	u8 *dist;

	dpt_mk(test, &t, p->n, p->k);
	dist = kunit_kzalloc(test, t.nodes, GFP_KERNEL);
	queue = kunit_kcalloc(test, t.nodes, sizeof(*queue), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, dist);
	KUNIT_ASSERT_NOT_NULL(test, queue);
	for (s = 0; s < t.nodes; s++) {
		dpt_bfs(&t, s, dist, queue);
		for (d = 0; d < t.nodes; d++) {
			diam = max_t(u32, diam, dist[d]);
			if (dpp_dist(&t, s, d) != dist[d])
				bad_dist++;
			if (d == s)
				continue;
			for (h = 0; h < 2; h++) {
				dp_walk(&t, s, d, DPP_SEL_SHORTEST,
					h * 0x9e3779b9U, NULL, t.max_hops, &w);
				if (!w.delivered || w.bad_hop ||
				    w.hops != dist[d])
					bad_walk++;
			}
		}
		cond_resched();
	}
	KUNIT_EXPECT_EQ(test, bad_dist, 0);
	KUNIT_EXPECT_EQ(test, bad_walk, 0);
	KUNIT_EXPECT_EQ(test, diam, dpp(&t)->diam);
}

/*
 * Every single failed server, then every single failed link: in shortest
 * mode every pair is still delivered (one failure disconnects none), with
 * no loop, no bad hop and no path above the bound.
 */
static void dpt_sp_single_failures(struct kunit *test)
{
	const struct dpt_nk *p = test->param_value;
	struct dpt_ft_stats st[2];
	struct dp_topo t;
	int i;

	dpt_mk(test, &t, p->n, p->k);
	dpt_single_failures(test, &t, DPP_SEL_SHORTEST, &st[0], &st[1]);
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_EQ(test, st[i].looped + st[i].bad +
				st[i].unexpected, 0);
		KUNIT_EXPECT_EQ(test, st[i].delivered, st[i].walks);
		KUNIT_EXPECT_LE(test, st[i].maxhops, t.max_hops);
	}
}

/*
 * The fast path's sizes, up to DPP_SP_TAB_K (k = 5): small, as every
 * pair costs about 50 us in the debug guest ((6,4) alone took 12 s).
 */
static const struct dpt_nk dpt_tab[] = {
	{ 4, 2 }, { 4, 3 }, { 6, 3 }, { 4, 5 },
};

KUNIT_ARRAY_PARAM(dpt_tab, dpt_tab, dpt_nk_desc);

/*
 * Shortest mode's fast path equals its slow path for every pair: the
 * table of next-hop classes (k <= DPP_SP_TAB_K) equals the classes the
 * distances give, and the hop taken (found from the classes alone) is
 * the first of the equal-cost hops the full walk over them lists, for
 * two flow hashes, without a view and with a view of no failure.
 */
static void dpt_sp_fast_path(struct kunit *test)
{
	const struct dpt_nk *p = test->param_value;
	u32 s, d, h, ids[8], n, bad_tab = 0, bad_hop = 0;
	struct dp_route_state st;
	struct dp_fail_set f;
	struct dp_view view;
	struct dp_topo t;
	struct dp_hop hop;
	int v;

	dpt_mk(test, &t, p->n, p->k);
	dpt_fail_init(test, &f, &t);
	dp_fail_view(&f, &view);
	for (s = 0; s < t.nodes; s++) {
		for (d = 0; d < t.nodes; d++) {
			if (dpp_sp_mask_test(&t, s, d, true) !=
			    dpp_sp_mask_test(&t, s, d, false))
				bad_tab++;
			if (d == s)
				continue;
			for (h = 0; h < 2; h++) {
				for (v = 0; v < 2; v++) {
					dp_route_init(&t, s, d, DPP_SEL_SHORTEST,
						      h * 0x9e3779b9U, &st);
					n = dp_route_choices(&t, s, &st,
							     v ? &view : NULL,
							     ids, 8);
					if (dp_route(&t, s, &st, v ? &view : NULL,
						     &hop) ||
					    (hop.phase != DP_PHASE_DIRECT &&
					     (!n || hop.next != ids[0])))
						bad_hop++;
				}
			}
		}
		cond_resched();
	}
	KUNIT_EXPECT_EQ(test, bad_tab, 0);
	KUNIT_EXPECT_EQ(test, bad_hop, 0);
}

static struct kunit_case dpt_shortest_cases[] = {
	KUNIT_CASE_PARAM(dpt_sp_paths, dpt_small_gen_params),
	KUNIT_CASE_PARAM_ATTR(dpt_sp_fast_path, dpt_tab_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE_PARAM_ATTR(dpt_sp_single_failures, dpt_tiny_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	{}
};

static struct kunit_suite dpt_shortest_suite = {
	.name = "dpillar_shortest",
	.test_cases = dpt_shortest_cases,
};

kunit_test_suites(&dpt_topo_suite, &dpt_addr_suite, &dpt_wiring_suite,
		  &dpt_sroute_suite, &dpt_ftroute_suite, &dpt_shortest_suite);
