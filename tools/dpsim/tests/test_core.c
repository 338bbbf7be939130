// SPDX-License-Identifier: GPL-2.0
/*
 * test_core.c - exhaustive and randomized checks of the routing core.
 *
 * Prints one line per check and a final "N passed, N failed" line; exits
 * non-zero when a check failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>

#include "sim.h"
#include "topo_dpillar.h"
#include "tresult.h"


static const u32 small[][2] = {
	{ 4, 2 }, { 4, 3 }, { 4, 4 }, { 6, 2 }, { 6, 3 }, { 8, 3 },
};

#define NSMALL (sizeof(small) / sizeof(small[0]))

/* Fabrics where the exact distance is checked against BFS, all pairs. */
static const u32 sp_small[][2] = {
	{ 4, 2 }, { 4, 3 }, { 4, 4 }, { 4, 5 }, { 4, 6 }, { 6, 2 },
	{ 6, 3 }, { 6, 4 }, { 8, 2 }, { 8, 3 }, { 10, 2 }, { 10, 3 },
	{ 12, 2 }, { 12, 3 }, { 16, 2 },
};

#define NSP (sizeof(sp_small) / sizeof(sp_small[0]))

static int init(struct dp_topo *t, u32 kind, u32 n, u32 k, const char **why)
{
	struct dp_topo_params p = { .kind = kind, .n = n, .k = k };

	return dp_topo_init(t, &p, why);
}

static void mk(struct dp_topo *t, u32 n, u32 k)
{
	const char *why = NULL;

	if (init(t, DP_TOPO_DPILLAR, n, k, &why)) {
		fprintf(stderr, "init (%u,%u): %s\n", n, k, why);
		exit(1);
	}
}

static void test_init_limits(void)
{
	static const struct {
		u32 kind, n, k;
		int ok;
		const char *why;
	} c[] = {
		{ 1, 48, 5, 1, NULL },
		{ 1, 48, 4, 1, NULL },
		{ 1, 4, 2, 1, NULL },
		{ 1, 256, 2, 1, NULL },
		{ 1, 256, 3, 1, NULL },		/* 3 * 128^3 = 6.3M */
		{ 1, 4, 27, 1, NULL },		/* 27 * 2^27 = 3.6G */
		{ 1, 4, 28, 0, "too many servers: k*(n/2)^k exceeds 2^32 - 1" },
		{ 1, 256, 5, 0, "too many servers: k*(n/2)^k exceeds 2^32 - 1" },
		{ 1, 48, 7, 0, "too many servers: k*(n/2)^k exceeds 2^32 - 1" },
		{ 1, 4, 33, 0, "too many servers: k*(n/2)^k exceeds 2^32 - 1" },
		{ 1, 4, 0xffffffff, 0, "too many servers: k*(n/2)^k exceeds 2^32 - 1" },
		{ 1, 13, 3, 0, "n must be even" },
		{ 1, 2, 3, 0, "n out of range (4..256)" },
		{ 1, 0, 3, 0, "Missing n" },
		{ 1, 258, 3, 0, "n out of range (4..256)" },
		{ 1, 12, 1, 0, "k must be >= 2" },
		{ 1, 12, 0, 0, "Missing k" },
		{ 0, 12, 3, 0, "unknown topology kind" },
		{ DP_TOPO_KIND_MAX + 1, 12, 3, 0, "unknown topology kind" },
	};
	struct dp_topo t;
	unsigned int i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		const char *why = NULL;
		int err = init(&t, c[i].kind, c[i].n, c[i].k, &why);
		bool ok;

		if (c[i].ok)
			ok = !err && t.nodes == c[i].k * dpp(&t)->pow[c[i].k] &&
			     dpp(&t)->h == c[i].n / 2 && t.ops &&
			     t.ff_hops == c[i].k + c[i].k / 2 &&
			     t.max_hops == dp_topo_ttl(&t) &&
			     t.max_hops <= DP_TTL_MAX;
		else
			ok = err == -EINVAL && why && !strcmp(why, c[i].why);
		result(ok, "dp_topo_init(kind %u, n %u, k %u) %s%s%s", c[i].kind,
		       c[i].n, c[i].k, c[i].ok ? "accepted" : "rejected: ",
		       c[i].ok ? "" : c[i].why, ok ? "" : " (UNEXPECTED)");
	}
	mk(&t, 48, 5);
	result(t.nodes == 39813120 && t.switches == 5 * 331776,
	       "(48,5): %u servers, %u switches", t.nodes, t.switches);
	mk(&t, 4, 27);
	result(t.nodes - 1 < DP_NODE_NONE, "(4,27): max id %u < DP_NODE_NONE",
	       t.nodes - 1);
}

static bool addr_roundtrip(const struct dp_topo *t, u32 id)
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
	if (len <= 0 || (u32)len != strlen(buf))
		return false;
	if (dp_addr_parse(t, buf, &back, &why) || back != id)
		return false;
	snprintf(buf, sizeof(buf), "#%u", id);
	if (dp_addr_parse(t, buf, &back, &why) || back != id)
		return false;
	return dp_addr_valid(t, id);
}

/*
 * Extensions, not members (issue 54; KUnit's dpt_core_no_extension): a
 * topology without the coordinates or keys extension gets nothing of
 * them at the generic path's points, whatever the flags or parameters
 * say; S2, with both, gets them.
 */
static void test_no_extension(void)
{
	static const u32 x[2] = { 100, 200 };
	const struct dp_topo_ops *ops;
	struct dp_route_state st;
	static struct dp_topo t;
	u32 kind;
	bool ok;

	for (kind = 1; kind <= DP_TOPO_KIND_MAX; kind++) {
		ops = dp_topo_ops_by_kind(kind);
		if (!ops)
			continue;
		memset(&t, 0, sizeof(t));
		t.ops = ops;
		t.kind = kind;
		t.p.ncoords = 2;
		memset(&st, 0, sizeof(st));
		st.flags = 0x12;
		if (ops->coords)
			ok = dp_topo_coords_flag(&t) && dp_topo_plan_mode(&t) &&
			     dp_route_set_coords(&t, &st, x, 2) &&
			     st.ncoords == 2;
		else
			ok = !dp_topo_coords_flag(&t) &&
			     !dp_topo_plan_mode(&t) &&
			     !dp_route_set_coords(&t, &st, x, 2) &&
			     st.flags == 0x12 && !st.ncoords &&
			     !dp_table_coords(&t, 0, st.coords, 2);
		ok = ok && dp_topo_has_keys(&t) == !!ops->keys &&
		     (ops->keys || !dp_dst_is_key(&t, 0xff));
		result(ok, "%s: extensions:%s%s%s, none reached without", ops->name,
		       ops->coords ? " coords" : "", ops->keys ? " keys" : "",
		       ops->coords || ops->keys ? "" : " none");
	}
}

static void test_addressing(void)
{
	struct dp_topo t;
	struct rng r = { 42 };
	char buf[DP_ADDR_TEXT_MAX], small_buf[5];
	u8 sym[DPP_MAX_K];
	u32 i, id, col, nsym;
	const char *why;
	bool ok;
	int len;

	for (i = 0; i < NSMALL; i++) {
		mk(&t, small[i][0], small[i][1]);
		ok = true;
		for (id = 0; id < t.nodes; id++)
			ok &= addr_roundtrip(&t, id);
		ok &= !dp_addr_valid(&t, t.nodes) &&
		      !dp_addr_valid(&t, DP_NODE_NONE);
		result(ok, "(%u,%u) id<->symbols<->text round trip, all %u ids",
		       t.p.n, t.p.k, t.nodes);
	}
	mk(&t, 48, 5);
	ok = addr_roundtrip(&t, 0) && addr_roundtrip(&t, t.nodes - 1);
	for (i = 0; i < 100000; i++)
		ok &= addr_roundtrip(&t, rng_below(&r, t.nodes));
	result(ok, "(48,5) round trip, 100000 random ids + both ends");
	dp_addr_format(&t, t.nodes - 1, buf, sizeof(buf));
	result(!strcmp(buf, "4:23.23.23.23.23"), "(48,5) last id is %s", buf);

	mk(&t, 8, 3);
	ok = !dp_addr_parse(&t, "2:3.0.1", &id, &why) &&
	     id == 2 * 64 + 3 * 16 + 0 * 4 + 1;
	dpp_addr_split(&t, id, &col, sym);
	ok &= col == 2 && sym[0] == 1 && sym[1] == 0 && sym[2] == 3;
	len = dp_addr_format(&t, id, buf, sizeof(buf));
	ok &= len == 7 && !strcmp(buf, "2:3.0.1");
	result(ok, "(8,3) \"2:3.0.1\" = id %u, v_0 = 1, v_2 = 3", id);
	len = dp_addr_format(&t, id, small_buf, sizeof(small_buf));
	result(len == 7 && !strcmp(small_buf, "2:3."),
	       "dp_addr_format truncates like snprintf (\"%s\", %d)", small_buf,
	       len);
	len = dp_addr_format(&t, t.nodes, buf, sizeof(buf));
	result(len == -EINVAL && buf[0] == 0, "dp_addr_format rejects id %u",
	       t.nodes);

	{
		static const struct {
			const char *text, *why;
		} bad[] = {
			{ "", "empty address" },
			{ "3:0.0.0", "column out of range" },
			{ "2:0.0", "label must have k symbols" },
			{ "2:0.0.0.0", "label must have k symbols" },
			{ "2:0.4.0", "label symbol out of range (must be < n/2)" },
			{ "2:0.256.0", "label symbol out of range (must be < n/2)" },
			{ "2:0..0", "label must be decimal symbols separated by '.'" },
			{ "2:0.0.", "label must be decimal symbols separated by '.'" },
			{ "2:0.0.0 ", "label must be decimal symbols separated by '.'" },
			{ "2:-1.0.0", "label must be decimal symbols separated by '.'" },
			{ "2", "address must look like C:v.v.v (missing ':')" },
			{ "2.0.0.0", "address must look like C:v.v.v (missing ':')" },
			{ ":0.0.0", "address must look like C:v.v.v (column first)" },
			{ "x:0.0.0", "address must look like C:v.v.v (column first)" },
			{ "99999999999:0.0.0", "column out of range" },
			{ "#192", "no such node id in this fabric" },
			{ "#", "#<node id> wants a decimal node id" },
			{ "#1x", "#<node id> wants a decimal node id" },
			{ "#-1", "#<node id> wants a decimal node id" },
		};

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			why = NULL;
			ok = dp_addr_parse(&t, bad[i].text, &id, &why) ==
			     -EINVAL && why && !strcmp(why, bad[i].why);
			result(ok, "parse \"%s\" rejected: %s", bad[i].text,
			       why ? why : "(accepted!)");
		}
	}
	ok = !dp_addr_parse(&t, "#191", &id, &why) && id == 191;
	result(ok, "(8,3) \"#191\" = the last id");
	ok = !dpp_addr_parse_raw("7:1.2.3.200", &col, sym, &nsym, &why) &&
	     col == 7 && nsym == 4 && sym[0] == 200 && sym[3] == 1;
	result(ok, "dpp_addr_parse_raw(\"7:1.2.3.200\") reverses symbols");
	ok = dpp_addr_parse_raw("0:0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0."
			       "0.0.0.0.0.0.0.0.0.0", &col, sym, &nsym, &why) ==
	     -EINVAL;
	result(ok, "dpp_addr_parse_raw rejects 33 symbols");
	ok = dp_addr_from_label(&t, 0, sym, 3, &id, &why) == -EINVAL &&
	     !strcmp(why, "label symbol out of range (must be < n/2)");
	result(ok, "dp_addr_from_label rejects symbol 200 in (8,3)");
}

static void test_wiring(u32 n, u32 k)
{
	struct dp_topo t;
	u32 *cnt, id, p, i, sw, peer, pow;
	struct dp_port_info pi, ppi;
	bool ok = true, sym_ok = true, cnt_ok = true;
	int q;

	mk(&t, n, k);
	pow = dpp(&t)->pow[k - 1];
	cnt = calloc((size_t)t.switches * 2, sizeof(*cnt));
	for (id = 0; id < t.nodes; id++) {
		for (p = 0; p < DPP_NPORTS; p++) {
			dp_port_info(&t, id, p, &pi);
			if (pi.kind != DP_PORT_SWITCH || pi.nneigh != n - 1 ||
			    pi.sw_level >= k || pi.sw_id >= pow ||
			    pi.sw != pi.sw_level * pow + pi.sw_id ||
			    pi.sw >= t.switches) {
				ok = false;
				continue;
			}
			sw = pi.sw;
			/* p == 0: we are the H_sc side, else the H_sc+1 side */
			cnt[sw * 2 + p]++;
			for (i = 0; i < pi.nneigh; i++) {
				peer = dp_port_neigh(&t, id, p, i);
				if (peer >= t.nodes || peer == id ||
				    dp_port_neigh_index(&t, id, p, peer) !=
				    (int)i) {
					ok = false;
					continue;
				}
				/* peer sees us on the same switch */
				q = dp_peer_port(&t, id, p, peer);
				if (q < 0) {
					sym_ok = false;
					continue;
				}
				dp_port_info(&t, peer, (u32)q, &ppi);
				if (ppi.sw != pi.sw ||
				    ppi.sw_level != pi.sw_level ||
				    ppi.sw_id != pi.sw_id ||
				    dp_port_neigh_index(&t, peer, (u32)q, id) < 0)
					sym_ok = false;
			}
			if (dp_port_neigh_index(&t, id, p, id) != -1 ||
			    dp_port_neigh_index(&t, id, p, t.nodes) != -1 ||
			    dp_port_neigh(&t, id, p, n - 1) != DP_NODE_NONE)
				ok = false;
		}
	}
	for (sw = 0; sw < t.switches; sw++)
		if (cnt[sw * 2] != dpp(&t)->h || cnt[sw * 2 + 1] != dpp(&t)->h)
			cnt_ok = false;
	/* a server never shares both switches with anyone unless k == 2 */
	result(ok, "(%u,%u) wiring: %u switches, n-1 neighbours per port, "
	       "index inverse", n, k, t.switches);
	result(sym_ok, "(%u,%u) wiring: neighbour lists symmetric", n, k);
	result(cnt_ok, "(%u,%u) wiring: each switch has h servers of H_c on "
	       "port 0 and h of H_c+1 on port 1", n, k);
	free(cnt);
}

static void test_sroute(u32 n, u32 k)
{
	struct dp_topo t;
	struct dp_walk w = { 0 }, wc = { 0 }, wcc = { 0 };
	u32 s, d, bound, maxh = 0, maxcw = 0, bad = 0, notmin = 0;
	u64 sum = 0, sumcw = 0, pairs = 0, atbound = 0;

	mk(&t, n, k);
	bound = k + k / 2;
	if (t.ff_hops != bound)
		bad++;
	for (s = 0; s < t.nodes; s++) {
		for (d = 0; d < t.nodes; d++) {
			if (s == d)
				continue;
			dp_walk(&t, s, d, DPP_SEL_AUTO, 0, NULL, 4 * bound,
				&w);
			dp_walk(&t, s, d, DPP_SEL_CW, 0, NULL, 4 * bound, &wc);
			dp_walk(&t, s, d, DPP_SEL_CCW, 0, NULL, 4 * bound,
				&wcc);
			if (!w.delivered || !wc.delivered || !wcc.delivered ||
			    w.hops > bound || wc.hops > bound ||
			    wcc.hops > bound)
				bad++;
			if (w.hops != (wc.hops < wcc.hops ? wc.hops : wcc.hops))
				notmin++;
			pairs++;
			sum += w.hops;
			sumcw += wc.hops;
			if (w.hops > maxh)
				maxh = w.hops;
			if (wc.hops > maxcw)
				maxcw = wc.hops;
			if (wc.hops == bound)
				atbound++;
		}
	}
	result(!bad, "(%u,%u) SRoute all %llu pairs delivered, no loop, valid "
	       "hops, <= k+k/2 = %u; D=+1 (paper): max %u avg %.3f%s; auto D: "
	       "max %u avg %.3f", n, k, (unsigned long long)pairs, bound,
	       maxcw, (double)sumcw / pairs,
	       maxcw == bound ? " (bound reached)" : " (bound NOT reached)",
	       maxh, (double)sum / pairs);
	result(!notmin, "(%u,%u) auto direction = shorter of D=+1, D=-1 for "
	       "every pair", n, k);
	(void)atbound;
}

struct ft_stats {
	u64 walks, delivered, looped, bad, dropped, too_long;
	u64 drops[DP_DROP_MAX];
	u32 maxhops, bound;
};

/*
 * Every live pair, walked with a TTL far above the topology's proven
 * bound t->max_hops (the TTL packets get), so that a longer path shows up
 * as too_long rather than as a TTL expiry.
 */
static void ft_pairs(const struct dp_topo *t, const struct dp_fail_set *fs,
		     u32 sel, struct ft_stats *st)
{
	struct dp_walk w = { 0 };
	u32 s, d;

	st->bound = t->max_hops;
	for (s = 0; s < t->nodes; s++) {
		if (dp_fail_node(fs, s))
			continue;
		for (d = 0; d < t->nodes; d++) {
			if (s == d || dp_fail_node(fs, d))
				continue;
			dp_walk(t, s, d, sel, 0, fs, 1000, &w);
			st->walks++;
			if (w.hops > t->max_hops)
				st->too_long++;
			if (w.delivered) {
				st->delivered++;
				if (w.hops > st->maxhops)
					st->maxhops = w.hops;
			} else if (w.looped) {
				st->looped++;
			} else if (w.bad_hop) {
				st->bad++;
			} else {
				st->dropped++;
				st->drops[w.reason < DP_DROP_MAX ?
					  w.reason : 0]++;
			}
		}
	}
}

static void ft_report(const struct dp_topo *t, const char *what,
		      const struct ft_stats *st)
{
	char drops[256] = "";
	size_t pos = 0;
	int i;

	for (i = 1; i < DP_DROP_MAX; i++)
		if (st->drops[i])
			pos += snprintf(drops + pos, sizeof(drops) - pos,
					" %s=%llu", dp_drop_reason_name(t, i),
					(unsigned long long)st->drops[i]);
	result(!st->looped && !st->bad && !st->drops[0] &&
	       !st->drops[DPP_DROP_NOPATH] &&
	       !st->drops[DP_DROP_ROUTE_BAD_ADDR] &&
	       !st->drops[DP_DROP_ROUTE_AT_DST] && !st->too_long,
	       "(%u,%u) FTRoute %s: %llu walks, %llu delivered, %llu dropped%s, %llu looped, %llu bad hops, max %u hops (bound %u, %llu above)",
	       t->p.n, t->p.k, what,
	       (unsigned long long)st->walks,
	       (unsigned long long)st->delivered,
	       (unsigned long long)st->dropped, drops,
	       (unsigned long long)st->looped, (unsigned long long)st->bad,
	       st->maxhops, st->bound, (unsigned long long)st->too_long);
}

static void test_ft_single(u32 n, u32 k)
{
	struct dp_topo t;
	struct dp_fail_set fs;
	struct ft_stats st;
	u32 f, p;

	mk(&t, n, k);
	fs_init(&fs, &t);
	memset(&st, 0, sizeof(st));
	for (f = 0; f < t.nodes; f++) {
		dp_fail_clear(&fs);
		dp_fail_set_node(&fs, f);
		ft_pairs(&t, &fs, DPP_SEL_AUTO, &st);
	}
	ft_report(&t, "every single failed server", &st);
	memset(&st, 0, sizeof(st));
	for (f = 0; f < t.nodes; f++) {
		for (p = 0; p < t.nports; p++) {
			dp_fail_clear(&fs);
			dp_fail_set_link(&fs, f, p);
			ft_pairs(&t, &fs, DPP_SEL_AUTO, &st);
		}
	}
	ft_report(&t, "every single failed link", &st);
	fs_free(&fs);
}

static void test_ft_random(u32 n, u32 k, u32 sets, u32 nfail, u32 nlinks)
{
	struct dp_topo t;
	struct dp_fail_set fs;
	struct ft_stats st;
	struct rng r = { 1000 * n + k };
	char what[96];
	u32 i;

	mk(&t, n, k);
	fs_init(&fs, &t);
	memset(&st, 0, sizeof(st));
	for (i = 0; i < sets; i++) {
		dp_fail_clear(&fs);
		fs_random(&fs, &r, 1 + rng_below(&r, nfail),
			  nlinks ? rng_below(&r, nlinks + 1) : 0);
		ft_pairs(&t, &fs, i & 1 ? DPP_SEL_CW : DPP_SEL_AUTO, &st);
	}
	snprintf(what, sizeof(what), "%u random sets of 1..%u servers + "
		 "0..%u links", sets, nfail, nlinks);
	ft_report(&t, what, &st);
	fs_free(&fs);
}

/* The unmodified failure-free path when no failure touches it. */
static void test_ft_equals_sroute(u32 n, u32 k)
{
	struct dp_topo t;
	struct dp_fail_set fs;
	struct dp_walk a = { 0 }, b = { 0 };
	u32 s, d, bad = 0;

	mk(&t, n, k);
	fs_init(&fs, &t);
	for (s = 0; s < t.nodes; s++)
		for (d = 0; d < t.nodes; d++) {
			if (s == d)
				continue;
			dp_walk(&t, s, d, DPP_SEL_AUTO, 0, NULL, 100, &a);
			dp_walk(&t, s, d, DPP_SEL_AUTO, 0, &fs, 100, &b);
			if (!b.delivered || a.hops != b.hops)
				bad++;
		}
	result(!bad, "(%u,%u) FTRoute without failures = SRoute", n, k);
	fs_free(&fs);
}

static void test_rdiv(void)
{
	static const u32 ds[] = { 1, 2, 3, 5, 6, 7, 24, 128, 331776, 7962624,
				  0x7fffffff, 0x80000000U, 0x80000001U,
				  0xfffffffeU, 0xffffffffU };
	static const u32 xs[] = { 0, 1, 2, 0x7fffffff, 0x80000000U,
				  0xfffffffeU, 0xffffffffU };
	struct rng r = { 7 };
	struct dp_rdiv rd;
	u32 i, j, x, d, bad = 0;

	for (i = 0; i < sizeof(ds) / sizeof(ds[0]) + 2000; i++) {
		d = i < sizeof(ds) / sizeof(ds[0]) ? ds[i] :
		    (u32)rng_next(&r) >> rng_below(&r, 32);
		if (!d)
			d = 1;
		rd = dp_rdiv_init(d);
		for (j = 0; j < sizeof(xs) / sizeof(xs[0]) + 5000; j++) {
			x = j < sizeof(xs) / sizeof(xs[0]) ? xs[j] :
			    (u32)rng_next(&r);
			if (dp_rdiv(x, rd) != x / d)
				bad++;
			if (d > 1 && dp_rdiv(d * (x / d), rd) != x / d)
				bad++;
			if (d > 1 && x / d && dp_rdiv(d * (x / d) - 1, rd) !=
			    x / d - 1)
				bad++;
		}
	}
	result(!bad, "reciprocal division exact on 2015 divisors x 5007 "
	       "dividends (incl. edges around multiples)");
}

/* ---- shortest mode ---- */

struct bfs_buf {
	u8 *dist, *sw;
	u32 *queue;
};

static void bfs_buf_init(struct bfs_buf *b, const struct dp_topo *t)
{
	b->dist = malloc(t->nodes);
	b->queue = malloc((size_t)t->nodes * sizeof(u32));
	b->sw = malloc(((size_t)t->switches + 7) / 8);
	if (!b->dist || !b->queue || !b->sw) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
}

static void bfs_buf_free(struct bfs_buf *b)
{
	free(b->dist);
	free(b->queue);
	free(b->sw);
}

/* dpp_dist() equals BFS for every pair; the diameter is the largest. */
static void test_dist_bfs(u32 n, u32 k)
{
	struct dp_topo t;
	struct bfs_buf b;
	u32 s, d, bad = 0, diam = 0;

	mk(&t, n, k);
	bfs_buf_init(&b, &t);
	for (s = 0; s < t.nodes; s++) {
		sim_bfs(&t, NULL, s, b.dist, b.queue, b.sw);
		for (d = 0; d < t.nodes; d++) {
			if (dpp_dist(&t, s, d) != b.dist[d])
				bad++;
			if (b.dist[d] > diam)
				diam = b.dist[d];
		}
	}
	result(!bad && diam == dpp(&t)->diam,
	       "(%u,%u) exact distance = BFS for all %u^2 pairs (%u differ), diameter %u (computed %u)",
	       n, k, t.nodes, bad, diam, dpp(&t)->diam);
	bfs_buf_free(&b);
}

/*
 * Shortest mode without failures: every pair, several flow hashes, each
 * path exactly as long as BFS says.
 */
static void test_sp_paths(u32 n, u32 k)
{
	struct dp_topo t;
	struct bfs_buf b;
	struct dp_walk w = { 0 };
	u32 s, d, h, bad = 0, walks = 0;

	mk(&t, n, k);
	bfs_buf_init(&b, &t);
	for (s = 0; s < t.nodes; s++) {
		sim_bfs(&t, NULL, s, b.dist, b.queue, b.sw);
		for (d = 0; d < t.nodes; d++) {
			if (d == s)
				continue;
			for (h = 0; h < 3; h++) {
				dp_walk(&t, s, d, DPP_SEL_SHORTEST,
					h * 0x9e3779b9U, NULL, t.max_hops, &w);
				walks++;
				if (!w.delivered || w.bad_hop ||
				    w.hops != b.dist[d])
					bad++;
			}
		}
	}
	result(!bad, "(%u,%u) shortest mode: %u walks, every one as long as BFS (%u not)",
	       n, k, walks, bad);
	bfs_buf_free(&b);
}

/*
 * Shortest mode under failures: every pair that BFS connects is delivered
 * (counted, and required where @must), never a loop, a bad hop or a path
 * above the bound.
 */
struct sp_ft {
	u64 connected, delivered, dropped, looped, bad, too_long;
	u64 hops, best;
};

static void sp_ft_pairs(const struct dp_topo *t, const struct dp_fail_set *fs,
			struct bfs_buf *b, u32 hash, struct sp_ft *st)
{
	struct dp_walk w = { 0 };
	u32 s, d;

	for (s = 0; s < t->nodes; s++) {
		if (dp_fail_node(fs, s))
			continue;
		sim_bfs(t, fs, s, b->dist, b->queue, b->sw);
		for (d = 0; d < t->nodes; d++) {
			if (s == d || b->dist[d] == SIM_FAR)
				continue;
			st->connected++;
			dp_walk(t, s, d, DPP_SEL_SHORTEST, hash ^ (s * 31 + d),
				fs, 1000, &w);
			if (w.hops > t->max_hops)
				st->too_long++;
			if (w.delivered) {
				st->delivered++;
				st->hops += w.hops;
				st->best += b->dist[d];
			} else if (w.looped) {
				st->looped++;
			} else if (w.bad_hop) {
				st->bad++;
			} else {
				st->dropped++;
			}
		}
	}
}

static void sp_ft_report(const struct dp_topo *t, const char *what,
			 const struct sp_ft *st, bool must)
{
	result(!st->looped && !st->bad && !st->too_long &&
	       (!must || st->delivered == st->connected),
	       "(%u,%u) shortest mode, %s: %llu connected pairs, %llu delivered, %llu dropped, %llu looped, %llu bad hops, %llu above the bound %u; avg %.4f hops vs BFS %.4f",
	       t->p.n, t->p.k, what, (unsigned long long)st->connected,
	       (unsigned long long)st->delivered,
	       (unsigned long long)st->dropped,
	       (unsigned long long)st->looped, (unsigned long long)st->bad,
	       (unsigned long long)st->too_long, t->max_hops,
	       st->delivered ? (double)st->hops / st->delivered : 0,
	       st->delivered ? (double)st->best / st->delivered : 0);
}

static void test_sp_ft_single(u32 n, u32 k)
{
	struct dp_topo t;
	struct dp_fail_set fs;
	struct bfs_buf b;
	struct sp_ft st;
	u32 f, p;

	mk(&t, n, k);
	fs_init(&fs, &t);
	bfs_buf_init(&b, &t);
	memset(&st, 0, sizeof(st));
	for (f = 0; f < t.nodes; f++) {
		dp_fail_clear(&fs);
		dp_fail_set_node(&fs, f);
		sp_ft_pairs(&t, &fs, &b, f, &st);
	}
	sp_ft_report(&t, "every single failed server", &st, true);
	memset(&st, 0, sizeof(st));
	for (f = 0; f < t.nodes; f++) {
		for (p = 0; p < t.nports; p++) {
			dp_fail_clear(&fs);
			dp_fail_set_link(&fs, f, p);
			sp_ft_pairs(&t, &fs, &b, f, &st);
		}
	}
	sp_ft_report(&t, "every single failed link", &st, true);
	bfs_buf_free(&b);
	fs_free(&fs);
}

static void test_sp_ft_random(u32 n, u32 k, u32 sets, u32 nfail, u32 nlinks)
{
	struct dp_topo t;
	struct dp_fail_set fs;
	struct bfs_buf b;
	struct sp_ft st;
	struct rng r = { 7000 * n + k };
	char what[96];
	u32 i;

	mk(&t, n, k);
	fs_init(&fs, &t);
	bfs_buf_init(&b, &t);
	memset(&st, 0, sizeof(st));
	for (i = 0; i < sets; i++) {
		dp_fail_clear(&fs);
		fs_random(&fs, &r, 1 + rng_below(&r, nfail),
			  nlinks ? rng_below(&r, nlinks + 1) : 0);
		sp_ft_pairs(&t, &fs, &b, i, &st);
	}
	snprintf(what, sizeof(what), "%u random sets of 1..%u servers + 0..%u links",
		 sets, nfail, nlinks);
	sp_ft_report(&t, what, &st, false);
	bfs_buf_free(&b);
	fs_free(&fs);
}

/* Hostile state: any flags, word and waypoint give a neighbour or a drop. */
static void test_sp_hostile(u32 n, u32 k)
{
	struct dp_topo t;
	struct dp_fail_set fs;
	struct dp_view v;
	struct dp_route_state st;
	struct dp_hop hop;
	struct rng r = { 99 };
	u32 i, self, bad = 0;

	mk(&t, n, k);
	fs_init(&fs, &t);
	fs_random(&fs, &r, t.nodes / 10, t.nodes / 10);
	dp_fail_view(&fs, &v);
	for (i = 0; i < 200000; i++) {
		self = rng_below(&r, t.nodes);
		st.dst = rng_below(&r, t.nodes + 2);
		st.waypoint = i & 1 ? rng_below(&r, t.nodes + 2) :
			      DP_NODE_NONE;
		st.flags = (u8)rng_below(&r, 256);
		st.word = (u16)rng_below(&r, 65536);
		if (st.dst == self)
			continue;
		if (!dp_route(&t, self, &st, i & 2 ? &v : NULL, &hop) &&
		    (hop.port >= t.nports ||
		     dp_port_neigh_index(&t, self, hop.port, hop.next) < 0))
			bad++;
	}
	result(!bad, "(%u,%u) 200000 hostile route states: every hop to a neighbour (%u not)",
		n, k, bad);
	fs_free(&fs);
}

int main(void)
{
	u32 i;

	test_rdiv();
	test_init_limits();
	test_no_extension();
	test_addressing();
	for (i = 0; i < NSMALL; i++)
		test_wiring(small[i][0], small[i][1]);
	test_wiring(12, 4);
	for (i = 0; i < NSMALL; i++)
		test_sroute(small[i][0], small[i][1]);
	test_sroute(10, 3);
	test_sroute(4, 5);
	test_sroute(4, 6);
	for (i = 0; i < NSMALL; i++)
		test_ft_equals_sroute(small[i][0], small[i][1]);
	for (i = 0; i < NSMALL; i++)
		test_ft_single(small[i][0], small[i][1]);
	for (i = 0; i < NSMALL; i++)
		test_ft_random(small[i][0], small[i][1], 40, 12, 6);
	test_ft_random(12, 3, 6, 60, 20);
	for (i = 0; i < NSP; i++)
		test_dist_bfs(sp_small[i][0], sp_small[i][1]);
	for (i = 0; i < NSMALL; i++)
		test_sp_paths(small[i][0], small[i][1]);
	for (i = 0; i < NSMALL; i++)
		test_sp_ft_single(small[i][0], small[i][1]);
	for (i = 0; i < NSMALL; i++)
		test_sp_ft_random(small[i][0], small[i][1], 40, 12, 6);
	test_sp_ft_random(12, 3, 6, 60, 20);
	test_sp_hostile(12, 4);
	test_sp_hostile(4, 2);
	printf("%u passed, %u failed\n", npass, nfailed);
	return nfailed ? 1 : 0;
}
