// SPDX-License-Identifier: GPL-2.0
/*
 * test_dcell.c - exhaustive and randomized checks of DCell (topo_dcell.c)
 * against references written here from the paper: BuildDCells as a loop
 * over the cells, DCellRouting as the recursion of its Figure 3, and
 * shortest paths by BFS.
 *
 * Prints one line per check and a final "N passed, N failed" line; exits
 * non-zero when a check failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>

#include "sim.h"
#include "topo_dcell.h"
#include "tresult.h"


static void mk(struct dp_topo *t, u32 n, u32 k)
{
	struct dp_topo_params p = { .kind = DP_TOPO_DCELL, .n = n, .k = k };
	const char *why = NULL;

	if (dp_topo_init(t, &p, &why)) {
		fprintf(stderr, "init dcell (%u,%u): %s\n", n, k, why);
		exit(1);
	}
}

/* ---- references ---- */

struct ref {
	u32 n, k;
	u64 t[DCL_MAX_K + 1];
	u32 *peer;		/* peer[id * (k + 1) + l], l >= 1 */
};

/* BuildDCells: in every DCell_l, sub-cells i < j: [i, j-1] <-> [j, i]. */
static bool ref_build(struct ref *r, u32 n, u32 k)
{
	u64 base, i, j, a, b;
	bool ok = true;
	u32 l;

	r->n = n;
	r->k = k;
	r->t[0] = n;
	for (l = 1; l <= k; l++)
		r->t[l] = r->t[l - 1] * (r->t[l - 1] + 1);
	r->peer = malloc(sizeof(u32) * r->t[k] * (k + 1));
	for (i = 0; i < r->t[k] * (k + 1); i++)
		r->peer[i] = DP_NODE_NONE;
	for (l = 1; l <= k; l++) {
		for (base = 0; base < r->t[k]; base += r->t[l]) {
			for (i = 0; i <= r->t[l - 1]; i++) {
				for (j = i + 1; j <= r->t[l - 1]; j++) {
					a = base + i * r->t[l - 1] + (j - 1);
					b = base + j * r->t[l - 1] + i;
					/* every port is used exactly once */
					if (r->peer[a * (k + 1) + l] != DP_NODE_NONE ||
					    r->peer[b * (k + 1) + l] != DP_NODE_NONE)
						ok = false;
					r->peer[a * (k + 1) + l] = (u32)b;
					r->peer[b * (k + 1) + l] = (u32)a;
				}
			}
		}
	}
	for (i = 0; i < r->t[k]; i++)
		for (l = 1; l <= k; l++)
			if (r->peer[i * (k + 1) + l] == DP_NODE_NONE)
				ok = false;
	return ok;
}

/* Figure 3: path from @s to @d appended to @path (s excluded). */
static void ref_route(const struct ref *r, u64 s, u64 d, u32 *path,
		      u32 *len)
{
	u64 base, si, di, n1, n2;
	u32 l;

	if (s == d)
		return;
	for (l = r->k; l > 0; l--)
		if (s / r->t[l - 1] != d / r->t[l - 1])
			break;
	if (!l) {
		path[(*len)++] = (u32)d;
		return;
	}
	base = s / r->t[l] * r->t[l];
	si = (s - base) / r->t[l - 1];
	di = (d - base) / r->t[l - 1];
	if (si < di) {
		n1 = base + si * r->t[l - 1] + di - 1;
		n2 = base + di * r->t[l - 1] + si;
	} else {
		n1 = base + si * r->t[l - 1] + di;
		n2 = base + di * r->t[l - 1] + si - 1;
	}
	ref_route(r, s, n1, path, len);
	path[(*len)++] = (u32)n2;
	ref_route(r, n2, d, path, len);
}

/* BFS distances from @src over live nodes and links of @fs (or none). */
static void ref_bfs(const struct dp_topo *t, const struct dp_fail_set *fs,
		    u32 src, u8 *dist, u32 *queue)
{
	u32 head = 0, tail = 0, id, p, i, nb;
	struct dp_port_info pi;

	memset(dist, 255, t->nodes);
	dist[src] = 0;
	queue[tail++] = src;
	while (head < tail) {
		id = queue[head++];
		for (p = 0; p < t->nports; p++) {
			dp_port_info(t, id, p, &pi);
			for (i = 0; i < pi.nneigh; i++) {
				nb = dp_port_neigh(t, id, p, i);
				if (dist[nb] != 255 ||
				    (fs && !dp_fail_reachable(fs, id, p, nb)))
					continue;
				dist[nb] = dist[id] + 1;
				queue[tail++] = nb;
			}
		}
	}
}

/* ---- tests ---- */

static void test_init(void)
{
	static const struct { u32 n, k; bool ok; u32 nodes; } c[] = {
		{ 2, 1, true, 6 }, { 4, 1, true, 20 }, { 2, 2, true, 42 },
		{ 4, 2, true, 420 }, { 5, 2, true, 930 }, { 6, 2, true, 1806 },
		{ 4, 3, true, 176820 }, { 5, 3, true, 865830 },
		{ 6, 3, true, 3263442 }, { 2, 4, true, 3263442 },
		{ 3, 4, true, 599882556 }, { 1, 2, false, 0 },
		{ 0, 2, false, 0 }, { 4, 0, false, 0 }, { 4, 4, false, 0 },
		{ 2, 5, false, 0 }, { 1025, 1, false, 0 },
		{ 1024, 1, true, 1049600 }, { 256, 3, false, 0 },
	};
	struct dp_topo_params p = { .kind = DP_TOPO_DCELL };
	const char *why;
	struct dp_topo t;
	u32 i;
	int err;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		p.n = c[i].n;
		p.k = c[i].k;
		why = NULL;
		err = dp_topo_init(&t, &p, &why);
		result(c[i].ok ? !err && t.nodes == c[i].nodes &&
		       t.max_hops <= DP_TTL_MAX && t.nports == c[i].k + 1 :
		       err == -EINVAL && why,
		       "dcell init (%u,%u): %s (t_k %u, ttl %u)", c[i].n,
		       c[i].k, err ? why : "ok", t.nodes, t.max_hops);
	}
	p.n = 4;
	p.k = 2;
	p.level = 1;
	result(dp_topo_init(&t, &p, &why) == -EINVAL,
	       "dcell init refuses a level");
}

static void test_addr(u32 n, u32 k)
{
	char buf[DP_ADDR_TEXT_MAX], bad[64];
	struct dp_topo t;
	const char *why;
	u32 id, back, errs = 0;

	mk(&t, n, k);
	for (id = 0; id < t.nodes; id++) {
		dp_addr_format(&t, id, buf, sizeof(buf));
		if (dp_addr_parse(&t, buf, &back, &why) || back != id)
			errs++;
	}
	result(!errs, "dcell (%u,%u) address round trip of %u ids", n, k,
	       t.nodes);
	/* a digit out of range at every level, and malformed text */
	snprintf(bad, sizeof(bad), "%u", dcl(&t)->g[k]);
	for (id = 0; id < k; id++)
		strcat(bad, ".0");
	errs = !dp_addr_parse(&t, bad, &back, &why) ? 1 : 0;
	for (bad[0] = 0, id = 0; id < k; id++)
		strcat(bad, "0.");
	snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad), "%u", n);
	errs += !dp_addr_parse(&t, bad, &back, &why);
	errs += !dp_addr_parse(&t, "0", &back, &why) && k;
	errs += !dp_addr_parse(&t, "0.0.0.0.0.0", &back, &why);
	errs += !dp_addr_parse(&t, "0..0", &back, &why);
	errs += !dp_addr_parse(&t, "", &back, &why);
	errs += !dp_addr_parse(&t, "0.x", &back, &why);
	errs += !dp_addr_parse(&t, "99999999999.0", &back, &why);
	result(!errs, "dcell (%u,%u) bad addresses refused", n, k);
}

static void test_wiring(u32 n, u32 k)
{
	struct dp_port_info pi;
	struct dp_topo t;
	struct ref r;
	u32 id, l, i, nb, errs = 0;
	bool built;

	mk(&t, n, k);
	built = ref_build(&r, n, k);
	result(built, "dcell (%u,%u) BuildDCells reference uses every port once",
	       n, k);
	for (id = 0; id < t.nodes; id++) {
		for (l = 0; l <= k; l++) {
			dp_port_info(&t, id, l, &pi);
			if (!l) {
				if (pi.kind != DP_PORT_SWITCH ||
				    pi.nneigh != n - 1 || pi.sw != id / n)
					errs++;
				for (i = 0; i < n - 1; i++) {
					nb = dp_port_neigh(&t, id, 0, i);
					if (nb / n != id / n || nb == id ||
					    dp_port_neigh_index(&t, id, 0, nb) !=
					    (int)i ||
					    dp_peer_port(&t, id, 0, nb) != 0)
						errs++;
				}
				continue;
			}
			nb = dp_port_neigh(&t, id, l, 0);
			if (pi.kind != DP_PORT_CABLE || pi.nneigh != 1 ||
			    nb != r.peer[id * (k + 1) + l] ||
			    dp_port_neigh(&t, nb, l, 0) != id ||
			    dp_peer_port(&t, id, l, nb) != (int)l ||
			    dp_port_neigh_index(&t, id, l, nb) != 0 ||
			    dp_port_neigh_index(&t, id, l, (nb + 1) %
						t.nodes) >= 0)
				errs++;
		}
		/* a node is no neighbour of itself, nor one out of range */
		if (dp_port_neigh_index(&t, id, 0, id) >= 0 ||
		    dp_port_neigh_index(&t, id, 1, t.nodes) >= 0)
			errs++;
	}
	result(!errs, "dcell (%u,%u) wiring equals BuildDCells, symmetric: %u errors",
	       n, k, errs);
	free(r.peer);
}

static void test_routing(u32 n, u32 k)
{
	struct dp_walk w = { 0 };
	struct dp_topo t;
	struct ref r;
	u32 *path = malloc(sizeof(u32) * 64), len, s, d, i, maxh = 0;
	u64 pairs = 0, errs = 0;

	mk(&t, n, k);
	ref_build(&r, n, k);
	w.path = malloc(sizeof(u32) * 256);
	w.path_max = 256;
	for (s = 0; s < t.nodes; s++) {
		for (d = 0; d < t.nodes; d++) {
			if (s == d)
				continue;
			len = 0;
			ref_route(&r, s, d, path, &len);
			dp_walk(&t, s, d, 0, 0, NULL, t.max_hops, &w);
			pairs++;
			if (!w.delivered || w.bad_hop || w.hops != len) {
				errs++;
				continue;
			}
			for (i = 0; i < len; i++)
				if (w.path[i + 1] != path[i])
					errs++;
			if (len > maxh)
				maxh = len;
		}
	}
	result(!errs, "dcell (%u,%u) DCellRouting hop by hop equals the recursion on all %llu pairs (%llu differ)",
	       n, k, (unsigned long long)pairs, (unsigned long long)errs);
	result(maxh == (2U << k) - 1 && t.ff_hops == (k == 1 ? 5 : maxh + 4),
	       "dcell (%u,%u) longest DCellRouting path %u = 2^(k+1)-1 (ff_hops %u: a parallel path's)",
	       n, k, maxh, t.ff_hops);
	free(w.path);
	free(path);
	free(r.peer);
}

static void test_paper_example(void)
{
	struct dp_topo t;
	struct dp_walk w = { 0 };
	u32 s, d, queue[42];
	const char *why;
	u8 dist[42];

	mk(&t, 2, 2);
	dp_addr_parse(&t, "0.2.1", &s, &why);
	dp_addr_parse(&t, "1.2.1", &d, &why);
	dp_walk(&t, s, d, 0, 0, NULL, t.max_hops, &w);
	ref_bfs(&t, NULL, s, dist, queue);
	result(w.delivered && w.hops == 7 && dist[d] == 3,
	       "dcell (2,2) paper example [0,2,1]->[1,2,1]: DCellRouting %u hops, BFS %u",
	       w.hops, dist[d]);
}

struct ft {
	u64 walks, delivered, connected, dropped, looped, bad, too_long;
	u64 hops, bfs_hops;
	u64 drops[DP_DROP_MAX];
	u32 maxh;
};

/* Every live pair under @fs; "connected" by BFS over the live fabric. */
static void ft_all(const struct dp_topo *t, const struct dp_fail_set *fs,
		   u32 sel, struct ft *f)
{
	u8 *dist = malloc(t->nodes);
	u32 *queue = malloc(sizeof(u32) * t->nodes);
	struct dp_walk w = { 0 };
	u32 s, d;

	for (s = 0; s < t->nodes; s++) {
		if (dp_fail_node(fs, s))
			continue;
		ref_bfs(t, fs, s, dist, queue);
		for (d = 0; d < t->nodes; d++) {
			if (d == s || dp_fail_node(fs, d))
				continue;
			f->walks++;
			if (dist[d] != 255)
				f->connected++;
			dp_walk(t, s, d, sel, 0, fs, 1000, &w);
			if (w.hops > t->max_hops)
				f->too_long++;
			if (w.delivered) {
				f->delivered++;
				f->hops += w.hops;
				f->bfs_hops += dist[d];
				if (w.hops > f->maxh)
					f->maxh = w.hops;
			} else if (w.looped) {
				f->looped++;
			} else if (w.bad_hop) {
				f->bad++;
			} else {
				f->dropped++;
				f->drops[w.reason < DP_DROP_MAX ? w.reason : 0]++;
			}
		}
	}
	free(dist);
	free(queue);
}

static void ft_report(const struct dp_topo *t, const char *what,
		      const struct ft *f, bool want_all)
{
	char drops[256] = "";
	size_t pos = 0;
	int i;

	for (i = 1; i < DP_DROP_MAX; i++)
		if (f->drops[i])
			pos += snprintf(drops + pos, sizeof(drops) - pos,
					" %s=%llu", dp_drop_reason_name(t, i),
					(unsigned long long)f->drops[i]);
	result(!f->looped && !f->bad && !f->too_long &&
	       (!want_all || f->delivered == f->walks),
	       "dcell (%u,%u) DFR %s: %llu walks, %llu connected, %llu delivered, %llu dropped%s, %llu looped, %llu bad hops, max %u hops (ttl %u), stretch vs BFS %.3f",
	       t->p.n, t->p.k, what, (unsigned long long)f->walks,
	       (unsigned long long)f->connected,
	       (unsigned long long)f->delivered,
	       (unsigned long long)f->dropped, drops,
	       (unsigned long long)f->looped, (unsigned long long)f->bad,
	       f->maxh, t->max_hops,
	       f->bfs_hops ? (double)f->hops / f->bfs_hops : 0.0);
}

/*
 * Single failure @l of server @id, alone in @fs: its switch link for 0,
 * its level-@l cable for 1..k, the server itself for k + 1.  False for a
 * cable seen from its other end (each cable once).
 */
static bool fail_single(const struct dp_topo *t, struct dp_fail_set *fs,
			u32 id, u32 l)
{
	if (l && l <= t->p.k && dp_port_neigh(t, id, l, 0) < id)
		return false;
	dp_fail_clear(fs);
	if (l > t->p.k)
		dp_fail_set_node(fs, id);
	else
		dp_fail_set_link(fs, id, l);
	return true;
}

static void test_ft_single(u32 n, u32 k)
{
	struct dp_fail_set fs;
	struct dp_topo t;
	struct ft f;
	u32 id, l;

	mk(&t, n, k);
	fs_init(&fs, &t);
	memset(&f, 0, sizeof(f));
	for (id = 0; id < t.nodes; id++) {
		fail_single(&t, &fs, id, k + 1);
		ft_all(&t, &fs, 0, &f);
	}
	ft_report(&t, "every single failed server, all pairs", &f, true);
	memset(&f, 0, sizeof(f));
	for (id = 0; id < t.nodes; id++)
		for (l = 1; l <= k; l++)
			if (fail_single(&t, &fs, id, l))
				ft_all(&t, &fs, 0, &f);
	ft_report(&t, "every single failed cable, all pairs", &f, true);
	/* server-to-switch links: only what a rule can reach is asserted */
	memset(&f, 0, sizeof(f));
	for (id = 0; id < t.nodes; id++) {
		fail_single(&t, &fs, id, 0);
		ft_all(&t, &fs, 0, &f);
	}
	ft_report(&t, "every single failed switch link, all pairs", &f, true);
	/* a mini-switch down, its servers alive: cable entry reaches them */
	memset(&f, 0, sizeof(f));
	for (id = 0; id < t.nodes; id += n) {
		dp_fail_clear(&fs);
		for (l = 0; l < n; l++)
			dp_fail_set_link(&fs, id + l, 0);
		ft_all(&t, &fs, 0, &f);
	}
	ft_report(&t, "every single failed mini-switch, all pairs", &f, true);
	fs_free(&fs);
}

/*
 * Mode "paper" (no cable entry) keeps the former outcome: a server whose
 * switch link is down is unreachable over its switch (dst_down).
 */
static void test_ft_paper(u32 n, u32 k, u64 want_dst_down)
{
	struct dp_fail_set fs;
	struct dp_topo t;
	struct ft f;
	u32 id;

	mk(&t, n, k);
	fs_init(&fs, &t);
	memset(&f, 0, sizeof(f));
	for (id = 0; id < t.nodes; id++) {
		dp_fail_clear(&fs);
		dp_fail_set_link(&fs, id, 0);
		ft_all(&t, &fs, DCL_SEL_PAPER, &f);
	}
	ft_report(&t, "mode paper, every single failed switch link", &f, false);
	result(f.drops[DCL_DROP_DST_DOWN] == want_dst_down &&
	       f.delivered + want_dst_down == f.walks,
	       "dcell (%u,%u) mode paper: %llu dst_down as before cable entry (%llu)",
	       n, k, (unsigned long long)f.drops[DCL_DROP_DST_DOWN],
	       (unsigned long long)want_dst_down);
	fs_free(&fs);
}

static void test_ft_random(u32 n, u32 k, const char *what, u32 pct_nodes,
			   u32 pct_cables, bool rack, u32 sets)
{
	struct rng r = { 77 + pct_nodes * 100 + pct_cables + rack };
	struct dp_fail_set fs;
	struct dp_topo t;
	struct ft f;
	u32 i, j, id, l, cables;

	mk(&t, n, k);
	fs_init(&fs, &t);
	memset(&f, 0, sizeof(f));
	cables = t.nodes * k / 2;
	for (i = 0; i < sets; i++) {
		dp_fail_clear(&fs);
		for (j = 0; j < t.nodes * pct_nodes / 100; j++) {
			do {
				id = rng_below(&r, t.nodes);
			} while (dp_fail_node(&fs, id));
			dp_fail_set_node(&fs, id);
		}
		for (j = 0; j < cables * pct_cables / 100; j++) {
			do {
				id = rng_below(&r, t.nodes);
				l = 1 + rng_below(&r, k);
			} while (dp_fail_link(&fs, id, l) ||
				 dp_fail_link(&fs, dp_port_neigh(&t, id, l, 0),
					      l));
			dp_fail_set_link(&fs, id, l);
		}
		if (rack) {
			id = rng_below(&r, t.nodes / n) * n;
			for (j = 0; j < n; j++)
				dp_fail_set_node(&fs, id + j);
		}
		ft_all(&t, &fs, 0, &f);
	}
	ft_report(&t, what, &f, false);
	fs_free(&fs);
}

/* Any header state: a hop to a real neighbour on the port named, or a drop. */
static void test_hostile(u32 n, u32 k)
{
	struct dp_route_state st;
	struct dp_fail_set fs;
	struct rng r = { 5 };
	struct dp_view v;
	struct dp_hop hop;
	struct dp_topo t;
	u32 i, fl, self, errs = 0, walks = 0, longest = 0, hops;
	static const u32 words[] = {
		0, 1, 2, 3, 0xffff, 0x8000, 0x8001, 0x8002, 0x8003, 0x8004,
	};

	mk(&t, n, k);
	fs_init(&fs, &t);
	fs_random(&fs, &r, t.nodes / 10, t.nodes / 10);
	dp_fail_view(&fs, &v);
	for (i = 0; i < 2000; i++) {
		for (fl = 0; fl < 256; fl++) {
			self = rng_below(&r, t.nodes);
			st.dst = rng_below(&r, t.nodes);
			if (st.dst == self)
				continue;
			/* half of the odd ones with no flags: parallel paths */
			st.flags = (u8)((i & 2) && (fl & 1) ? 0 : fl);
			st.word = (u16)words[fl % 10];
			st.waypoint = fl % 3 ? rng_below(&r, t.nodes + 2) :
				      DP_NODE_NONE;
			/* walk it to the end, hop by hop */
			for (hops = 0; hops <= t.max_hops; hops++) {
				if (dp_route(&t, self, &st, i & 1 ? &v : NULL,
					     &hop))
					break;
				if (hop.port >= t.nports ||
				    dp_port_neigh_index(&t, self, hop.port,
							hop.next) < 0) {
					errs++;
					break;
				}
				self = hop.next;
				if (self == st.dst)
					break;
			}
			walks++;
			if (hops > longest)
				longest = hops;
			if (hops > t.max_hops)
				errs++;
		}
	}
	result(!errs, "dcell (%u,%u) %u walks from hostile header states: %u errors, longest %u hops (ttl %u)",
	       n, k, walks, errs, longest, t.max_hops);
	fs_free(&fs);
}

/* The port of @a toward its neighbour @b. */
static u32 port_to(const struct dp_topo *t, u32 a, u32 b)
{
	u32 p;

	for (p = 0; p < t->nports; p++)
		if (dp_port_neigh_index(t, a, p, b) >= 0)
			return p;
	return DP_NODE_NONE;
}

/*
 * The k + 1 parallel paths (path selection's candidates, "pM") of every
 * pair, or of @sample random pairs: candidate 0 is mode dfr's state,
 * candidate m mode pM's; each delivered failure-free over real links
 * within ff_hops; the k + 1 leave src by k + 1 ports and enter dst by
 * k + 1, and are internally disjoint in servers and switches (a cable is
 * no switch).  @want_avg: the mean hops of candidates 0..k, as
 * dpillar-evaluation.rst has them (dpsim paths --disjoint); NULL: not
 * checked.
 */
static void test_paths(u32 n, u32 k, u64 sample, const char *want_avg)
{
	struct dp_route_state a, b;
	struct dp_walk w = { 0 };
	struct rng r = { 11 };
	struct dp_topo t;
	struct dp_port_info pi;
	u32 *seen, *swseen, s, d, m, h, p, sports, dports, stamp = 0;
	u64 pairs = 0, errs = 0, state = 0, bad = 0, joint = 0, ports = 0;
	u64 hops[DCL_MAX_K + 1] = { 0 }, i, total;
	u32 maxh = 0, npaper = 0;
	char avg[128] = "";
	size_t pos = 0;
	bool ok, same;

	mk(&t, n, k);
	seen = calloc(t.nodes, sizeof(u32));
	swseen = calloc(t.switches, sizeof(u32));
	w.path = malloc(sizeof(u32) * 256);
	w.path_max = 256;
	total = sample ? sample : (u64)t.nodes * (t.nodes - 1);
	for (i = 0; i < total; i++) {
		if (sample) {
			s = rng_below(&r, t.nodes);
			d = rng_below(&r, t.nodes - 1);
			d += d >= s;
		} else {
			s = (u32)(i / (t.nodes - 1));
			d = (u32)(i % (t.nodes - 1));
			d += d >= s;
		}
		pairs++;
		npaper += dp_route_npaths(&t, s, d, DCL_SEL_PAPER) != 0;
		if (dp_route_npaths(&t, s, d, DCL_SEL_DFR) != k + 1) {
			errs++;
			continue;
		}
		stamp++;
		ok = true;
		sports = 0;
		dports = 0;
		for (m = 0; m <= k; m++) {
			memset(&a, 0, sizeof(a));
			memset(&b, 0, sizeof(b));
			dp_route_path_init(&t, s, d, m, &a);
			dp_route_init(&t, s, d, m ? DCL_SEL_PATH0 + m :
				      DCL_SEL_DFR, 0, &b);
			same = !memcmp(&a, &b, sizeof(a));
			b.ncoords = 0;
			dp_route_init(&t, s, d, DCL_SEL_PATH0 + m, 0, &b);
			same &= !memcmp(&a, &b, sizeof(a));
			state += !same;
			dp_walk(&t, s, d, DCL_SEL_PATH0 + m, 0, NULL, t.max_hops,
				&w);
			if (!w.delivered || w.bad_hop || w.hops > t.ff_hops ||
			    w.path_len != w.hops + 1) {
				bad++;
				ok = false;
				continue;
			}
			hops[m] += w.hops;
			if (w.hops > maxh)
				maxh = w.hops;
			sports |= 1U << port_to(&t, s, w.path[1]);
			dports |= 1U << port_to(&t, d, w.path[w.hops - 1]);
			for (h = 0; h < w.hops; h++) {
				if (h) {
					ok &= seen[w.path[h]] != stamp;
					seen[w.path[h]] = stamp;
				}
				p = port_to(&t, w.path[h], w.path[h + 1]);
				dp_port_info(&t, w.path[h], p, &pi);
				if (pi.kind != DP_PORT_SWITCH)
					continue;
				ok &= swseen[pi.sw] != stamp;
				swseen[pi.sw] = stamp;
			}
		}
		joint += !ok;
		ports += sports != (2U << k) - 1 || dports != (2U << k) - 1;
	}
	for (m = 0; m <= k; m++)
		pos += snprintf(avg + pos, sizeof(avg) - pos, " %.4f",
				(double)hops[m] / (pairs - errs));
	result(!errs && !state && !bad && !joint && !ports && !npaper,
	       "dcell (%u,%u) parallel paths of %llu %s pairs: %u each (mode paper none: %u with), states as modes dfr/pM (%llu differ), %llu not delivered within ff_hops = %u, %llu not internally disjoint in servers and switches, %llu not on every port of both ends; longest %u hops, mean per candidate%s",
	       n, k, (unsigned long long)pairs, sample ? "random" : "(all)",
	       k + 1, npaper, (unsigned long long)state,
	       (unsigned long long)bad, t.ff_hops,
	       (unsigned long long)joint, (unsigned long long)ports, maxh,
	       avg);
	if (want_avg)
		result(!strcmp(avg, want_avg),
		       "dcell (%u,%u) mean hops per candidate%s as documented (%s)",
		       n, k, avg, want_avg);
	free(w.path);
	free(seen);
	free(swseen);
}

/*
 * Every single failed server, cable, switch link: every candidate m >= 1
 * of every live pair, walked with the failures' view, goes on by DFR
 * where its next hop fails (one reroute paid), and is delivered within
 * the TTL bound as DFR's own walks are (test_ft_single()).
 */
static void test_paths_ft(u32 n, u32 k)
{
	struct dp_fail_set fs;
	struct dp_topo t;
	struct ft f;
	u32 id, l, m;

	mk(&t, n, k);
	fs_init(&fs, &t);
	memset(&f, 0, sizeof(f));
	for (id = 0; id < t.nodes; id++) {
		for (l = 0; l <= k + 1; l++) {
			if (!fail_single(&t, &fs, id, l))
				continue;
			for (m = 1; m <= k; m++)
				ft_all(&t, &fs, DCL_SEL_PATH0 + m, &f);
		}
	}
	ft_report(&t, "parallel paths 1..k, every single failed server, cable or switch link, all pairs",
		  &f, true);
	fs_free(&fs);
}

int main(int argc, char **argv)
{
	static const u32 small[][2] = {
		{ 2, 1 }, { 3, 1 }, { 4, 1 }, { 6, 1 }, { 2, 2 }, { 3, 2 },
		{ 4, 2 }, { 2, 3 },
	};
	static const u32 ft[][2] = { { 3, 1 }, { 4, 1 }, { 2, 2 }, { 3, 2 } };
	u32 i;

	(void)argv;
	test_init();
	for (i = 0; i < sizeof(small) / sizeof(small[0]); i++) {
		test_addr(small[i][0], small[i][1]);
		test_wiring(small[i][0], small[i][1]);
		if (small[i][1] < 3 || argc > 1)
			test_routing(small[i][0], small[i][1]);
	}
	test_paper_example();
	for (i = 0; i < sizeof(ft) / sizeof(ft[0]); i++)
		test_ft_single(ft[i][0], ft[i][1]);
	test_ft_paper(4, 1, 600);
	test_ft_paper(2, 2, 1764);
	if (argc > 1)
		test_ft_single(4, 2);	/* 74 M walks: by hand */
	test_ft_random(4, 2, "2% servers, 20 sets", 2, 0, false, 20);
	test_ft_random(4, 2, "5% servers, 20 sets", 5, 0, false, 20);
	test_ft_random(4, 2, "5% cables, 20 sets", 0, 5, false, 20);
	test_ft_random(4, 2, "a whole DCell_0, 20 sets", 0, 0, true, 20);
	test_paths(2, 1, 0, NULL);
	test_paths(3, 1, 0, " 2.0909 4.2727");
	test_paths(2, 2, 0, " 3.7317 6.9419 6.2520");
	test_paths(3, 2, 0, " 4.6387 8.1710 6.9050");
	test_paths(2, 3, 200000, NULL);
	test_paths(3, 3, 20000, NULL);
	test_paths(2, 4, 5000, NULL);
	test_paths_ft(3, 1);
	test_paths_ft(2, 2);
	test_hostile(2, 2);
	test_hostile(4, 2);
	test_hostile(2, 3);
	printf("%u passed, %u failed\n", npass, nfailed);
	return nfailed ? 1 : 0;
}
