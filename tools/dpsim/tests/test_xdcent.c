// SPDX-License-Identifier: GPL-2.0
/*
 * test_xdcent.c - exhaustive and randomized checks of XDCent and BCube
 * (topo_xdcent.c) against references written here from the definitions
 * (READING-NOTES.md): the wiring from digit arrays, XDCRouting as the
 * recursion of the paper's Algorithm 1, shortest paths by BFS; parallel
 * paths, hop-by-hop fault tolerance, and ABT under server failures.
 *
 * Prints one line per check and a final "N passed, N failed" line; exits
 * non-zero when a check failed.  "test_xdcent abt" prints the ABT table
 * (the evaluation's plot) instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>

#include "sim.h"
#include "topo_xdcent.h"
#include "topo_xdcent_test.h"
#include "tresult.h"

/* XDCent(n, k, i) when i >= 0, else BCube(n, k). */
static void mk(struct dp_topo *t, u32 n, u32 k, int i)
{
	struct dp_topo_params p = {
		.kind = i >= 0 ? DP_TOPO_XDCENT : DP_TOPO_BCUBE,
		.n = n, .k = k, .level = i >= 0 ? (u32)i : 0,
	};
	const char *why = NULL;

	if (dp_topo_init(t, &p, &why)) {
		fprintf(stderr, "init (%u,%u,%d): %s\n", n, k, i, why);
		exit(1);
	}
}

/* ---- references, from the definitions, by plain division ---- */

struct ref {
	u32 n, k, b, top;	/* k: the spare port's number (XDCent) */
	bool spare;
	u64 pw[40];
};

static void ref_init(struct ref *r, u32 n, u32 k, int i)
{
	u32 j;

	r->n = n;
	r->spare = i >= 0;
	r->k = k;
	r->b = r->spare ? k : k + 1;
	r->top = r->spare ? (u32)i : k;
	r->pw[0] = 1;
	for (j = 1; j < 40; j++)
		r->pw[j] = r->pw[j - 1] * n;
}

static u32 rd(const struct ref *r, u64 id, u32 j)
{
	return (u32)(id / r->pw[j] % r->n);
}

static u64 rset(const struct ref *r, u64 id, u32 j, u32 v)
{
	return id - rd(r, id, j) * r->pw[j] + v * r->pw[j];
}

/* The level of the switch on @port (the notes' rule), or -1 when free. */
static int ref_level(const struct ref *r, u64 id, u32 port)
{
	u32 tr = 0;

	if (port < r->b)
		return (int)port;
	while (tr <= r->top && rd(r, id, tr) == r->n - 1)
		tr++;
	return r->k + tr <= r->top ? (int)(r->k + tr) : -1;
}

static u32 ref_topdiff(const struct ref *r, u64 a, u64 b)
{
	u32 j = r->top;

	while (j > 0 && rd(r, a, j) == rd(r, b, j))
		j--;
	return j;
}

/* The paper's Algorithm 1, recursive; appends to path[*len]. */
static void ref_route(const struct ref *r, u64 cur, u64 dst, u64 w, u32 rot,
		      u32 *path, u32 *len)
{
	u32 L, j, i;
	u64 g, c;

	if (cur == dst)
		return;
	L = ref_topdiff(r, cur, dst);
	if (L < r->b) {
		for (i = 0, j = rot; i < r->b; i++, j = j ? j - 1 : r->b - 1) {
			if (rd(r, cur, j) != rd(r, dst, j)) {
				cur = rset(r, cur, j, rd(r, dst, j));
				path[(*len)++] = (u32)cur;
			}
		}
		return;
	}
	g = cur;
	for (j = 0; j < r->k; j++)
		g = rset(r, g, L - r->k + j, rd(r, w, j));
	for (j = 0; j < L - r->k; j++)
		g = rset(r, g, j, r->n - 1);
	ref_route(r, cur, g, w, rot, path, len);
	c = rset(r, g, L, rd(r, dst, L));
	path[(*len)++] = (u32)c;
	ref_route(r, c, dst, w, rot, path, len);
}

/* ---- wiring ---- */

static void check_wiring(u32 n, u32 k, int i)
{
	struct dp_topo t;
	struct ref r;
	u64 expect_sw = 0, freecnt = 0, nodes;
	u32 id, p, m, peer, L, bad = 0, *swmember, cnt[40] = { 0 }, lv;
	struct dp_port_info pi, pj;
	int lev;

	mk(&t, n, k, i);
	ref_init(&r, n, k, i);
	nodes = r.pw[r.top + 1];
	/* Counts: n^top per BCube level, n^(i-L) (n^k - n^(k-1)) above. */
	for (L = 0; L <= r.top; L++) {
		if (L < r.b)
			expect_sw += r.pw[r.top];
		else
			expect_sw += r.pw[r.top - L] * (r.pw[k] - r.pw[k - 1]);
	}
	swmember = calloc(t.switches ? t.switches : 1, sizeof(u32));
	for (id = 0; id < t.nodes; id++) {
		for (p = 0; p < t.nports; p++) {
			dp_port_info(&t, id, p, &pi);
			lev = ref_level(&r, id, p);
			if (lev < 0) {
				freecnt++;
				if (pi.kind != DP_PORT_UNUSED || pi.nneigh)
					bad++;
				continue;
			}
			if (pi.kind != DP_PORT_SWITCH || pi.nneigh != n - 1 ||
			    pi.sw_level != (u32)lev || pi.sw >= t.switches) {
				bad++;
				continue;
			}
			swmember[pi.sw]++;
			cnt[lev]++;
			for (m = 0; m < n - 1; m++) {
				peer = dp_port_neigh(&t, id, p, m);
				/* members differ only in digit lev */
				if (peer >= t.nodes || peer == id ||
				    rset(&r, id, lev, rd(&r, peer, lev)) != peer ||
				    dp_port_neigh_index(&t, id, p, peer) != (int)m ||
				    dp_peer_port(&t, id, p, peer) != (int)p) {
					bad++;
					continue;
				}
				dp_port_info(&t, peer, p, &pj);
				if (pj.sw != pi.sw || ref_level(&r, peer, p) != lev)
					bad++;
			}
		}
	}
	for (m = 0; m < t.switches; m++)
		if (swmember[m] != n)
			bad++;
	for (lv = 0; lv <= r.top; lv++)
		if (cnt[lv] != (lv < r.b ? nodes :
				r.pw[r.top - lv] * (r.pw[k] - r.pw[k - 1]) * n))
			bad++;
	free(swmember);
	result(!bad && t.nodes == nodes && t.switches == expect_sw &&
	       (!r.spare || freecnt == r.pw[k]) && (r.spare || !freecnt),
	       "%s (%u,%u%s%d): %u servers, %u switches = formula %llu, %llu free ports (%s), every member on one switch with the same port (%u bad)",
	       r.spare ? "XDCent" : "BCube", n, k, r.spare ? "," : "",
	       r.spare ? i : 0, t.nodes, t.switches,
	       (unsigned long long)expect_sw, (unsigned long long)freecnt,
	       r.spare ? "n^k expected" : "none expected", bad);
}

/* XDCent(n, k, k-1) is BCube_{k-1}: same ports, same members. */
static void check_bcube_equiv(u32 n, u32 k)
{
	struct dp_topo x, b;
	u32 id, p, m, bad = 0;

	mk(&x, n, k, (int)k - 1);
	mk(&b, n, k - 1, -1);
	for (id = 0; id < x.nodes; id++)
		for (p = 0; p < b.nports; p++)
			for (m = 0; m < n - 1; m++)
				if (dp_port_neigh(&x, id, p, m) !=
				    dp_port_neigh(&b, id, p, m))
					bad++;
	result(!bad && x.nodes == b.nodes,
	       "XDCent(%u,%u,%u) is BCube(%u,%u) (%u differences)", n, k,
	       k - 1, n, k - 1, bad);
}

/* ---- routing against the recursion ---- */

/* Walk with path word @w and rotation @rot; -1 on a bad hop. */
static int walk_word(const struct dp_topo *t, const struct dp_view *v,
		     u32 src, u32 dst, u32 w, u32 rot, u32 *path, u32 *len,
		     u32 ttl)
{
	struct dp_route_state st;
	struct dp_hop hop;
	u32 self = src;

	/* "paper": no waypoint, no flags (an explicit path has a waypoint) */
	dp_route_init(t, src, dst, XDC_SEL_PAPER, 0, &st);
	st.word = (u16)(rot * xdc(t)->nwords + w);
	*len = 0;
	while (self != dst) {
		if (*len >= ttl || dp_route(t, self, &st, v, &hop))
			return 1;
		if (dp_port_neigh_index(t, self, hop.port, hop.next) < 0)
			return -1;
		self = hop.next;
		path[(*len)++] = self;
	}
	return 0;
}

static void check_routing(u32 n, u32 k, int i)
{
	struct dp_topo t;
	struct ref r;
	u32 src, dst, w, rot, len, rlen, *path, *rpath, maxlen = 0;
	u64 runs = 0, bad = 0, bound;

	mk(&t, n, k, i);
	ref_init(&r, n, k, i);
	path = malloc(sizeof(u32) * 512);
	rpath = malloc(sizeof(u32) * 512);
	for (src = 0; src < t.nodes; src++)
		for (dst = 0; dst < t.nodes; dst++)
			for (w = 0; w < xdc(&t)->nwords; w++) {
				if (!xdc_word_valid(&t, w))
					continue;
				for (rot = 0; rot < r.b; rot++) {
					runs++;
					if (walk_word(&t, NULL, src, dst, w, rot,
						      path, &len, 512)) {
						bad++;
						continue;
					}
					rlen = 0;
					ref_route(&r, src, dst, w, rot, rpath,
						  &rlen);
					if (len != rlen ||
					    memcmp(path, rpath, len * 4))
						bad++;
					if (len > maxlen)
						maxlen = len;
				}
			}
	bound = r.spare ? (1ULL << (r.top - k + 1)) * (k + 1) - 1 : k + 1;
	result(!bad, "%s (%u,%u,%d): hop-by-hop = the recursion for all %llu (src, dst, w, rotation) (%llu differ)",
	       r.spare ? "XDCent" : "BCube", n, k, i, (unsigned long long)runs,
	       (unsigned long long)bad);
	/* n = 2 leaves one value of w_0: the bound is not reached. */
	result((maxlen == bound || (n == 2 && maxlen < bound)) &&
	       t.ff_hops == bound,
	       "%s (%u,%u,%d): max path over all pairs and words %u, bound %llu (2^(i-k+1)(k+1)-1)%s",
	       r.spare ? "XDCent" : "BCube", n, k, i, maxlen,
	       (unsigned long long)bound, maxlen == bound ? " reached" :
	       " not reached (n = 2)");
	free(path);
	free(rpath);
}

/* Average hops: default mode (hash), paper (w = 0), best w, BFS. */
static void averages(u32 n, u32 k, int i, bool expect_bfs)
{
	struct dp_topo t;
	u32 src, dst, w, rot, len, best, *path, *queue;
	u64 sum_hash = 0, sum_paper = 0, sum_h0 = 0, sum_best = 0, sum_bfs = 0, pairs = 0;
	u8 *dist, *swseen;
	struct dp_walk wk = { 0 };

	mk(&t, n, k, i);
	path = malloc(sizeof(u32) * 512);
	queue = malloc(sizeof(u32) * t.nodes);
	dist = malloc(t.nodes);
	swseen = malloc(t.switches / 8 + 1);
	for (src = 0; src < t.nodes; src++) {
		sim_bfs(&t, NULL, src, dist, queue, swseen);
		for (dst = 0; dst < t.nodes; dst++) {
			if (dst == src)
				continue;
			pairs++;
			sum_bfs += dist[dst];
			dp_walk(&t, src, dst, XDC_SEL_HASH, src * 7 + dst, NULL,
				255, &wk);
			sum_hash += wk.hops;
			dp_walk(&t, src, dst, XDC_SEL_NEAR, 0, NULL, 255, &wk);
			sum_h0 += wk.hops;
			dp_walk(&t, src, dst, XDC_SEL_PAPER, 0, NULL, 255, &wk);
			sum_paper += wk.hops;
			best = 255;
			for (w = 0; w < xdc(&t)->nwords; w++) {
				if (!xdc_word_valid(&t, w))
					continue;
				for (rot = 0; rot < xdc(&t)->b; rot++) {
					walk_word(&t, NULL, src, dst, w, rot,
						  path, &len, 255);
					if (len < best)
						best = len;
				}
			}
			sum_best += best;
		}
	}
	printf("  averages %s (%u,%u,%d): hash %.4f, near (w from dst) %.4f, paper (w=0) %.4f, best w %.4f, BFS %.4f over %llu pairs\n",
	       i >= 0 ? "XDCent" : "BCube", n, k, i,
	       (double)sum_hash / pairs, (double)sum_h0 / pairs,
	       (double)sum_paper / pairs,
	       (double)sum_best / pairs, (double)sum_bfs / pairs,
	       (unsigned long long)pairs);
	result(sum_bfs <= sum_best && sum_best <= sum_h0 &&
	       sum_h0 <= sum_paper &&
	       (!expect_bfs || (sum_hash == sum_bfs && sum_paper == sum_bfs)),
	       "%s (%u,%u,%d): BFS <= best w <= near <= paper%s", i >= 0 ? "XDCent" :
	       "BCube", n, k, i, expect_bfs ? ", routing = BFS" : "");
	free(path);
	free(queue);
	free(dist);
	free(swseen);
}

/* The switch between neighbours @a and @b, or DP_NODE_NONE. */
static u32 hop_switch(const struct dp_topo *t, u32 a, u32 b)
{
	struct dp_port_info pi;
	u32 p;

	for (p = 0; p < t->nports; p++) {
		if (dp_port_neigh_index(t, a, p, b) < 0)
			continue;
		dp_port_info(t, a, p, &pi);
		return pi.sw;
	}
	return DP_NODE_NONE;
}

/* The highest digit where @a and @b differ (0 when none above 0). */
static u32 xdc_top_digit(const struct dp_topo *t, u32 a, u32 b)
{
	u32 j;

	for (j = xdc(t)->top; j > 0; j--)
		if (xdc_digit(t, a, j) != xdc_digit(t, b, j))
			break;
	return j;
}

/* Does @x have all k + 1 ports cabled (its spare port not free)? */
static bool full_degree(const struct dp_topo *t, u32 x)
{
	return !xdc(t)->spare || xdc_spare_level(t, x) <= xdc(t)->top;
}

struct pset {
	u64 valid, node, server;
};

/*
 * The @np paths of @sel (pinned "pM" when @sel is XDC_SEL_PATH0: the
 * paths path selection probes; else hashes 0..np-1 of @sel) from @src to
 * @dst: each delivered with real cables only (dp_walk's bad_hop) and no
 * server twice; internally disjoint in servers and switches (node), in
 * servers only (server).  @seen, @swseen: scratch, stamped with @stamp.
 */
static void pset_check(const struct dp_topo *t, u32 src, u32 dst, u32 sel,
		       u32 np, u32 *seen, u32 *swseen, u32 stamp,
		       struct pset *ps)
{
	bool valid = true, node = true, server = true;
	u32 path[256], m, h, sw, j;
	struct dp_walk wk;

	for (m = 0; m < np; m++) {
		wk.path = path;
		wk.phase = NULL;
		wk.path_max = 256;
		if (sel == XDC_SEL_PATH0)
			dp_walk(t, src, dst, sel + m, 0, NULL, 255, &wk);
		else
			dp_walk(t, src, dst, sel, m, NULL, 255, &wk);
		if (!wk.delivered || wk.bad_hop)
			valid = false;
		for (h = 0; h < wk.path_len; h++)
			for (j = 0; j < h; j++)
				if (path[j] == path[h])
					valid = false;
		for (h = 0; h + 1 < wk.path_len; h++) {
			if (h && h + 1 < wk.path_len) {
				if (seen[path[h]] == stamp)
					server = false;
				seen[path[h]] = stamp;
			}
			sw = hop_switch(t, path[h], path[h + 1]);
			if (sw == DP_NODE_NONE) {
				valid = false;
				continue;
			}
			if (swseen[sw] == stamp)
				node = false;
			swseen[sw] = stamp;
		}
	}
	ps->valid += valid;
	ps->node += valid && node && server;
	ps->server += valid && server;
}

/*
 * The k + 1 parallel paths of every pair: valid, loop-free, internally
 * disjoint?  Node connectivity (tools/dpsim/eval-xdcent-paths.py, by
 * max-flow) is k + 1 exactly for the pairs of servers whose spare ports
 * are both cabled ("full"), k or less for the others: @expect_full, the
 * paths must be node-disjoint for every full pair, @expect_all for every
 * pair (BCube).  The earlier construction (mode "rot") is counted beside.
 */
static void check_parallel(u32 n, u32 k, int i, bool expect_full,
			   bool expect_all)
{
	struct dp_topo t;
	u32 src, dst, m, np, *seen, *swseen, stamp = 0, hi;
	u64 pairs = 0, full = 0, full_node = 0, cons = 0, cons_node = 0;
	u64 dj = 0, dj_node = 0, left[3] = { 0 };
	struct pset nw = { 0 }, old = { 0 };
	struct dp_route_state st;
	u32 path[256];
	struct dp_walk wk = { 0 };
	bool ok, isfull;

	mk(&t, n, k, i);
	np = xdc(&t)->npaths;
	seen = calloc(t.nodes, sizeof(u32));
	swseen = calloc(t.switches, sizeof(u32));
	for (src = 0; src < t.nodes; src++) {
		for (dst = 0; dst < t.nodes; dst++) {
			if (dst == src)
				continue;
			pairs++;
			isfull = full_degree(&t, src) && full_degree(&t, dst);
			full += isfull;
			m = nw.node;
			pset_check(&t, src, dst, XDC_SEL_PATH0, np, seen,
				   swseen, ++stamp, &nw);
			full_node += isfull && nw.node != m;
			/* not disjoint with k+1: a BCube pair, at k, above */
			if (i >= 0 && isfull && nw.node == m) {
				hi = xdc_top_digit(&t, src, dst);
				left[hi < xdc(&t)->k ? 0 :
				     hi == xdc(&t)->k ? 1 : 2]++;
			}
			if (i >= 0 && xdc_test_dj_case(&t, src, dst)) {
				dj++;
				dj_node += nw.node != m;
			}
			/* Where xdc_disjoint() builds them: disjoint. */
			if (i >= 0 &&
			    xdc_disjoint(&t, src, dst, np - 1, &st)) {
				cons++;
				cons_node += nw.node != m;
			}
			if (i >= 0)
				pset_check(&t, src, dst, XDC_SEL_ROT, np, seen,
					   swseen, ++stamp, &old);
		}
	}
	printf("  parallel paths %s (%u,%u,%d): %u paths per pair, %llu pairs, %llu with k+1 cabled ports at both ends: node-disjoint (servers and switches) %llu (%.1f%%; %llu of the %llu, %.1f%%), server-disjoint %llu (%.1f%%), valid %llu",
	       i >= 0 ? "XDCent" : "BCube", n, k, i, np,
	       (unsigned long long)pairs, (unsigned long long)full,
	       (unsigned long long)nw.node, 100.0 * nw.node / pairs,
	       (unsigned long long)full_node, (unsigned long long)full,
	       100.0 * full_node / full,
	       (unsigned long long)nw.server, 100.0 * nw.server / pairs,
	       (unsigned long long)nw.valid);
	if (i >= 0)
		printf("; earlier (rot): node-disjoint %llu (%.1f%%), server-disjoint %llu (%.1f%%), valid %llu",
		       (unsigned long long)old.node, 100.0 * old.node / pairs,
		       (unsigned long long)old.server,
		       100.0 * old.server / pairs,
		       (unsigned long long)old.valid);
	if (i >= 0)
		printf("; not disjoint with k+1: BCube pairs %llu, at k %llu, above k %llu",
		       (unsigned long long)left[0], (unsigned long long)left[1],
		       (unsigned long long)left[2]);
	printf("; built by xdc_disjoint() %llu, disjoint %llu\n",
	       (unsigned long long)cons, (unsigned long long)cons_node);
	result(cons_node == cons,
	       "%s (%u,%u,%d): the paths xdc_disjoint() builds are disjoint (%llu/%llu)",
	       i >= 0 ? "XDCent" : "BCube", n, k, i,
	       (unsigned long long)cons_node, (unsigned long long)cons);
	if (i >= 0)
		result(dj_node == dj,
		       "XDCent (%u,%u,%d): node-disjoint for every pair of xdc_test_dj_case() (%llu/%llu)",
		       n, k, i, (unsigned long long)dj_node,
		       (unsigned long long)dj);
	result(nw.valid == pairs && (!expect_full || full_node == full) &&
	       (!expect_all || nw.node == pairs),
	       "%s (%u,%u,%d): parallel paths valid%s (%llu/%llu)",
	       i >= 0 ? "XDCent" : "BCube", n, k, i,
	       expect_all ? ", node-disjoint for every pair" :
	       expect_full ? ", node-disjoint for every pair with k+1 ports" :
	       "", (unsigned long long)(expect_all ? nw.node : full_node),
	       (unsigned long long)(expect_all ? pairs : full));
	/*
	 * The flow hash: above the BCube levels it takes parallel path
	 * (hash mod k+1); for a BCube pair differing in d digits, hashes
	 * 0..d-1 take d different shortest paths (first hops differ).
	 */
	{
		struct dp_route_state a, b;
		u32 d, j, hops, first;
		u64 seenmask;

		ok = true;
		for (src = 0; src < t.nodes; src++) {
			for (dst = 0; dst < t.nodes; dst++) {
				if (dst == src)
					continue;
				for (d = 0, j = 0; j <= xdc(&t)->top; j++)
					d += xdc_digit(&t, src, j) !=
					     xdc_digit(&t, dst, j);
				for (j = xdc(&t)->top; j >= xdc(&t)->b; j--)
					if (xdc_digit(&t, src, j) !=
					    xdc_digit(&t, dst, j))
						break;
				if (j >= xdc(&t)->b) {
					for (m = 0; m < np; m++) {
						dp_route_init(&t, src, dst,
							      XDC_SEL_HASH, m, &a);
						dp_route_init(&t, src, dst,
							      XDC_SEL_PATH0 + m,
							      0, &b);
						if (a.word != b.word ||
						    a.flags != b.flags ||
						    a.waypoint != b.waypoint)
							ok = false;
					}
					continue;
				}
				seenmask = 0;
				for (m = 0; m < d; m++) {
					wk.path = path;
					wk.phase = NULL;
					wk.path_max = 256;
					dp_walk(&t, src, dst, XDC_SEL_HASH, m,
						NULL, 255, &wk);
					hops = wk.hops;
					first = path[1];
					if (hops != d)
						ok = false;
					seenmask |= 1ULL << (first % 64);
				}
				if ((u32)__builtin_popcountll(seenmask) != d)
					ok = false;
			}
		}
		result(ok, "%s (%u,%u,%d): flow hashes spread a BCube pair over its d shortest disjoint paths, others over the %u parallel paths",
		       i >= 0 ? "XDCent" : "BCube", n, k, i, np);
	}
	free(swseen);
	free(seen);
}

/* Every single failed server, then every failed link: all pairs, all modes. */
static void check_single(u32 n, u32 k, int i)
{
	struct dp_topo t;
	struct dp_fail_set fs;
	struct dp_walk wk = { 0 };
	u32 f, p, src, dst, sel, *queue, nsel;
	u64 tries = 0, deliv = 0, conn = 0, loops = 0, bad = 0;
	u8 *dist, *swseen;
	int pass;

	mk(&t, n, k, i);
	fs_init(&fs, &t);
	queue = malloc(sizeof(u32) * t.nodes);
	dist = malloc(t.nodes);
	swseen = malloc(t.switches / 8 + 1);
	nsel = XDC_SEL_PATH0 + xdc(&t)->npaths;
	for (pass = 0; pass < 2; pass++) {
		tries = deliv = conn = loops = bad = 0;
		for (f = 0; f < t.nodes; f++) {
			for (p = 0; p < (pass ? t.nports : 1); p++) {
				dp_fail_clear(&fs);
				if (pass) {
					struct dp_port_info pi;

					dp_port_info(&t, f, p, &pi);
					if (pi.kind == DP_PORT_UNUSED)
						continue;
					dp_fail_set_link(&fs, f, p);
				} else {
					dp_fail_set_node(&fs, f);
				}
				for (src = 0; src < t.nodes; src++) {
					if (dp_fail_node(&fs, src))
						continue;
					sim_bfs(&t, &fs, src, dist, queue,
						swseen);
					for (dst = 0; dst < t.nodes; dst++) {
						if (dst == src ||
						    dp_fail_node(&fs, dst))
							continue;
						for (sel = 0; sel < nsel; sel++) {
							if (sel == 0)
								continue;
							tries++;
							conn += dist[dst] != SIM_FAR;
							dp_walk(&t, src, dst, sel, 0,
								&fs, t.max_hops,
								&wk);
							deliv += wk.delivered;
							loops += wk.looped;
							bad += wk.bad_hop;
						}
					}
				}
			}
		}
		result(deliv == conn && !loops && !bad,
		       "%s (%u,%u,%d): every single failed %s, all pairs, every mode: %llu/%llu delivered (connected %llu), %llu looped, %llu bad hops",
		       i >= 0 ? "XDCent" : "BCube", n, k, i,
		       pass ? "link" : "server", (unsigned long long)deliv,
		       (unsigned long long)tries, (unsigned long long)conn,
		       (unsigned long long)loops, (unsigned long long)bad);
	}
	fs_free(&fs);
	free(queue);
	free(dist);
	free(swseen);
}

static void check_random(u32 n, u32 k, int i, u32 pct, u32 trials)
{
	struct dp_topo t;
	struct dp_fail_set fs;
	struct dp_walk wk = { 0 };
	struct rng rg = { .s = 42 + pct };
	u32 tr, src, dst, *queue;
	u64 deliv = 0, conn = 0, loops = 0, bad = 0, hops = 0, shortest = 0;
	u8 *dist, *swseen;

	mk(&t, n, k, i);
	fs_init(&fs, &t);
	queue = malloc(sizeof(u32) * t.nodes);
	dist = malloc(t.nodes);
	swseen = malloc(t.switches / 8 + 1);
	for (tr = 0; tr < trials; tr++) {
		dp_fail_clear(&fs);
		fs_random(&fs, &rg, t.nodes * pct / 100, 0);
		for (src = 0; src < t.nodes; src++) {
			if (dp_fail_node(&fs, src))
				continue;
			sim_bfs(&t, &fs, src, dist, queue, swseen);
			for (dst = 0; dst < t.nodes; dst++) {
				if (dst == src || dp_fail_node(&fs, dst) ||
				    dist[dst] == SIM_FAR)
					continue;
				conn++;
				dp_walk(&t, src, dst, XDC_SEL_HASH,
					src * 131 + dst, &fs, t.max_hops, &wk);
				deliv += wk.delivered;
				loops += wk.looped;
				bad += wk.bad_hop;
				if (wk.delivered) {
					hops += wk.hops;
					shortest += dist[dst];
				}
			}
		}
	}
	result(!loops && !bad && deliv * 100 >= conn * 95,
	       "XDCent (%u,%u,%d): %u%% random failed servers, %u trials: delivered %llu of %llu connected pairs (%.2f%%), stretch %.3f, %llu looped, %llu bad hops",
	       n, k, i, pct, trials, (unsigned long long)deliv,
	       (unsigned long long)conn, 100.0 * deliv / conn,
	       (double)hops / shortest, (unsigned long long)loops,
	       (unsigned long long)bad);
	fs_free(&fs);
	free(queue);
	free(dist);
	free(swseen);
}

/* Hostile state: every word and flags value stays within max_hops. */
static void check_hostile(u32 n, u32 k, int i)
{
	struct dp_topo t;
	struct dp_route_state st;
	struct dp_hop hop;
	u32 word, fl, self, hops, src, dst, over = 0, badhop = 0;
	struct rng rg = { .s = 11 };
	struct dp_fail_set fs;
	struct dp_view v;
	u64 runs = 0;

	mk(&t, n, k, i);
	/* some failed servers and links: the detours' states too */
	fs_init(&fs, &t);
	fs_random(&fs, &rg, t.nodes / 10, t.nodes / 10);
	dp_fail_view(&fs, &v);
	for (src = 0; src < t.nodes; src += 5) {
		for (dst = 1; dst < t.nodes; dst += 7) {
			if (src == dst)
				continue;
			for (word = 0; word < 0x10000; word += 37) {
				for (fl = 0; fl < 256; fl += 3) {
					st.dst = dst;
					/* a destination entry's waypoint, any */
					st.waypoint = fl % 4 == 1 ?
						(word + fl) % (t.nodes + 2) :
						DP_NODE_NONE;
					st.word = (u16)word;
					st.flags = (u8)fl;
					self = src;
					runs++;
					for (hops = 0; self != dst; hops++) {
						if (hops > t.max_hops) {
							over++;
							break;
						}
						if (dp_route(&t, self, &st,
							     fl & 2 ? &v : NULL,
							     &hop))
							break;
						if (dp_port_neigh_index(&t, self,
									hop.port,
									hop.next) < 0) {
							badhop++;
							break;
						}
						self = hop.next;
					}
				}
			}
		}
	}
	fs_free(&fs);
	result(!over && !badhop,
	       "XDCent (%u,%u,%d): %llu hostile (word, flags) states: %u over max_hops %u, %u hops to non-neighbours",
	       n, k, i, (unsigned long long)runs, over, t.max_hops, badhop);
}

/*
 * ABT (aggregate bottleneck throughput, BCube's metric): every live
 * server sends one flow to every other live server over its routing path
 * (mode hash, flow hash from the pair); every server-switch link carries
 * 1 unit each way, shared equally by the flows crossing it; ABT = flows x
 * the bottleneck flow's share = flows / the most loaded directed link.
 * Normalized by the live server count, so 1.0 is one link's worth of
 * traffic per server.
 */
static double abt(const struct dp_topo *t, const struct dp_fail_set *fs,
		  u32 *load)
{
	u32 src, dst, h, maxl = 0, live = 0, port, prev;
	u64 flows = 0;
	u32 path[256];
	u8 phase[256];
	struct dp_walk wk;

	memset(load, 0, sizeof(u32) * t->nodes * t->nports * 2);
	for (src = 0; src < t->nodes; src++) {
		if (dp_fail_node(fs, src))
			continue;
		live++;
		for (dst = 0; dst < t->nodes; dst++) {
			if (dst == src || dp_fail_node(fs, dst))
				continue;
			wk.path = path;
			wk.phase = phase;
			wk.path_max = 256;
			dp_walk(t, src, dst, XDC_SEL_HASH, src * 131 + dst, fs,
				t->max_hops, &wk);
			if (!wk.delivered)
				continue;
			flows++;
			for (h = 0; h + 1 < wk.path_len; h++) {
				prev = path[h];
				/* the port both ends use: same switch level */
				for (port = 0; port < t->nports; port++)
					if (dp_port_neigh_index(t, prev, port,
								path[h + 1]) >= 0)
						break;
				load[(prev * t->nports + port) * 2]++;
				load[(path[h + 1] * t->nports + port) * 2 + 1]++;
			}
		}
	}
	for (h = 0; h < t->nodes * t->nports * 2; h++)
		if (load[h] > maxl)
			maxl = load[h];
	return maxl ? (double)flows / maxl / live : 0;
}

static void abt_table(u32 n, u32 k, int i)
{
	static const u32 pcts[] = { 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20 };
	struct dp_topo t;
	struct dp_fail_set fs;
	struct rng rg = { .s = 7 };
	u32 *load, p, tr;
	double s;

	mk(&t, n, k, i);
	fs_init(&fs, &t);
	load = malloc(sizeof(u32) * t.nodes * t.nports * 2);
	printf("# ABT per live server, %s (%u,%u,%d), mean of 5 random failure sets\n# failed_pct abt\n",
	       i >= 0 ? "XDCent" : "BCube", n, k, i);
	for (p = 0; p < sizeof(pcts) / sizeof(pcts[0]); p++) {
		s = 0;
		for (tr = 0; tr < 5; tr++) {
			dp_fail_clear(&fs);
			fs_random(&fs, &rg, t.nodes * pcts[p] / 100, 0);
			s += abt(&t, &fs, load);
		}
		printf("%u %.4f\n", pcts[p], s / 5);
	}
	free(load);
	fs_free(&fs);
}

/*
 * The pairs of an end E that is the I* of its sub-cell of the digits
 * 0..k (all n-1; spare level 2k + 1 when digit k + 1 is not, as in
 * (3,2,5)), cabled, with every other cabled server F of E's sub-cell of
 * the digits 0..@hi (highest differing digit at most @hi), both orders:
 * node-disjoint paths for every one (n >= 3: max-flow gives them k + 1).
 * xdc_dj_i5()'s pairs (k = 2, at or below 2k); before it 6,228 of the
 * 8,604 of (3,2,5), 81,696 of 97,824 of (4,2,5) and, within digits
 * 0..3 (1 s, not 12), 75,800 of 124,600 of (5,2,5).
 */
static void check_istar(u32 n, u32 k, int i, u32 hi)
{
	struct dp_topo t;
	u32 e, f, a, b, np, *seen, *swseen, stamp = 0, j, low = 1, sub = 1;
	u64 pairs = 0;
	struct pset ps = { 0 };

	mk(&t, n, k, i);
	np = xdc(&t)->npaths;
	seen = calloc(t.nodes, sizeof(u32));
	swseen = calloc(t.switches, sizeof(u32));
	for (j = 0; j <= k; j++)
		low *= n;
	for (j = 0; j <= hi; j++)
		sub *= n;
	for (e = low - 1; e < t.nodes; e += low) {
		if (!full_degree(&t, e))
			continue;
		for (f = e - e % sub; f < e - e % sub + sub; f++) {
			if (f == e || !full_degree(&t, f))
				continue;
			for (j = 0; j < 2; j++) {
				a = j ? f : e;
				b = j ? e : f;
				pairs++;
				pset_check(&t, a, b, XDC_SEL_PATH0, np, seen,
					   swseen, ++stamp, &ps);
			}
		}
	}
	free(seen);
	free(swseen);
	result(pairs && ps.node == pairs,
	       "XDCent (%u,%u,%d): an end the I* of its sub-cell of digits 0..%u, the other within digits 0..%u: node-disjoint (%llu/%llu)",
	       n, k, i, k, hi, (unsigned long long)ps.node,
	       (unsigned long long)pairs);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "abt")) {
		abt_table(4, 2, 3);
		printf("\n\n");
		abt_table(4, 2, -1);
		return 0;
	}
	check_wiring(2, 1, 1);
	check_wiring(2, 1, 4);
	check_wiring(3, 1, 2);
	check_wiring(3, 2, 1);
	check_wiring(3, 2, 2);
	check_wiring(3, 2, 3);
	check_wiring(4, 2, 2);
	check_wiring(4, 2, 3);
	check_wiring(2, 3, 4);
	check_wiring(3, 3, 4);
	check_wiring(3, 1, -1);
	check_wiring(4, 2, -1);
	check_wiring(2, 3, -1);
	check_bcube_equiv(3, 2);
	check_bcube_equiv(4, 3);
	check_routing(3, 2, 2);
	check_routing(4, 2, 2);
	check_routing(3, 2, 3);
	check_routing(2, 2, 4);
	check_routing(3, 1, 3);
	check_routing(2, 3, 5);
	check_routing(3, 2, -1);
	check_routing(4, 1, -1);
	averages(3, 2, 2, false);
	averages(4, 2, 2, false);
	averages(3, 2, 3, false);
	averages(4, 2, 3, false);
	averages(3, 1, -1, true);
	averages(4, 2, -1, true);
	averages(3, 3, -1, true);
	check_parallel(3, 2, 2, true, false);
	check_parallel(4, 2, 2, true, false);
	check_parallel(4, 3, 3, true, false);
	check_parallel(3, 1, 1, true, false);
	check_parallel(5, 2, 2, true, false);
	check_parallel(3, 1, 2, true, false);
	check_parallel(3, 2, 3, true, false);
	check_parallel(3, 1, 3, true, false);
	check_parallel(3, 2, 4, true, false);
	check_parallel(3, 3, 5, true, false);
	check_parallel(3, 1, 4, true, false);
	check_parallel(4, 1, 3, true, false);
	check_parallel(2, 2, 2, false, false);
	check_parallel(2, 2, 3, false, false);
	check_parallel(2, 2, 4, false, false);
	check_parallel(2, 2, 5, false, false);
	check_parallel(2, 3, 4, true, false);
	check_parallel(2, 3, 5, true, false);
	check_parallel(2, 3, 6, false, false);
	check_parallel(3, 1, -1, false, true);
	check_parallel(4, 2, -1, false, true);
	check_parallel(3, 3, -1, false, true);
	check_istar(3, 2, 5, 4);
	check_istar(4, 2, 5, 4);
	check_istar(5, 2, 5, 3);
	check_single(3, 2, 2);
	check_single(4, 2, 2);
	check_single(3, 1, -1);
	check_single(4, 1, -1);
	check_single(2, 2, 3);
	check_single(2, 2, -1);
	check_single(3, 1, 2);
	check_single(4, 1, 2);
	check_single(3, 1, 3);
	check_random(4, 2, 3, 5, 5);
	check_random(4, 2, 3, 10, 5);
	check_hostile(3, 2, 2);
	check_hostile(4, 2, 3);
	check_hostile(3, 1, 2);
	printf("%u passed, %u failed\n", npass, nfailed);
	return nfailed ? 1 : 0;
}
