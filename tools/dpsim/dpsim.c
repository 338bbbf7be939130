// SPDX-License-Identifier: GPL-2.0
/*
 * dpsim - userspace simulator of dpillar routing.
 *
 * Links the kernel module's routing core (net/dpillar/topo.c, the
 * topologies behind it, and the failure set + walker of topo_walk.c)
 * unchanged.  Routing is pure arithmetic, so even a (48,5) DPillar (~40
 * million servers) is simulated without building its graph; only failures
 * are kept, in bitmaps.  Every command takes --topo NAME (default
 * dpillar); only the selector names (--dir/--sel) and the address syntax
 * depend on the topology.
 *
 * One front end: the options of every command and topology are one table
 * (opts.c), parsed once into one struct opts, each meaning one thing for
 * every topology; main() dispatches through one command table (cmds[]
 * below) to a command's core form (here, over dp_walk()).  With --topo
 * s2, the fabric source picks where a command runs, not how its options
 * read: ft, plan and route --json of a fabric the kernel builds (derived
 * or plan mode, s2fabric.c) are the core's forms, run on that fabric;
 * the others, and the paper's graph model (.Topo files, generated
 * graphs), run on S2's graph (s2sim.c).
 *
 * Exit status: 0 ok, 1 runtime failure, 2 usage error.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "version.h"
#include "dp_json.h"
#include "dp_print.h"
#include "dp_grow.h"
#include "dpsim.h"
#include "sim.h"
#include "s2sim.h"

#define ALL_PAIRS_MAX	30000000ULL	/* route every pair up to this many */
#define HIST_MAX	256

/*
 * The parameters the topology's table marks DP_PARAM_REQUIRED (-n and -k
 * of DPillar, DCell, XDCent, BCube): nonzero here.  0, or 1 after saying
 * which are.
 */
static int need_params(const struct dp_topo_ops *ops,
		       const struct dp_topo_params *p)
{
	const struct dp_topo_param *q;
	char need[64] = "";
	bool missing = false;
	u32 i, nreq = 0;
	size_t at = 0;

	for (i = 0; i < ops->nparams; i++) {
		q = &ops->params[i];
		if (!(q->flags & DP_PARAM_REQUIRED))
			continue;
		missing |= !dp_topo_param_u32(p, q);
		at += snprintf(need + at, at < sizeof(need) ?
			       sizeof(need) - at : 0, "%s%s%s",
			       nreq++ ? " and " : "",
			       q->name[1] ? "--" : "-", q->name);
	}
	if (!missing)
		return 0;
	fprintf(stderr, "dpsim: %s %s required\n", need,
		nreq > 1 ? "are" : "is");
	return 1;
}

/* The selector of --sel/--dir on @t, and the default TTL. */
static int need_sel(struct opts *o, const struct dp_topo *t)
{
	int sel;

	o->sel = 0;
	if (o->sel_text) {
		sel = dp_sel_parse(t, o->sel_text);
		if (sel < 0)
			return bad_usage("bad --sel/--dir '%s' for this "
					 "topology", o->sel_text);
		o->sel = (u32)sel;
	}
	/* the proven bound: the walker spends the wire's TTL within it */
	if (!o->ttl)
		o->ttl = t->max_hops;
	return 0;
}

/*
 * The parameters given as --WORD (struct opts.tparams) that @ops's
 * table lacks: a usage error, as the kernel's extack for dpctl.  0, or
 * EXIT_USAGE after saying which.
 */
int params_taken(const struct dp_topo_ops *ops, u32 given)
{
	u32 i, j;

	for (i = 0; i < DP_PARAM_COUNT; i++) {
		if (!(given & (1U << i)))
			continue;
		for (j = 0; j < ops->nparams; j++)
			if (ops->params[j].id == i)
				break;
		if (j == ops->nparams) {
			fprintf(stderr, "dpsim: --%s: %s has no %s\n",
				dp_params[i].name, ops->name,
				dp_params[i].name);
			return EXIT_USAGE;
		}
	}
	return 0;
}

/*
 * Build the topology of --topo, -n, -k, then resolve what depends on it:
 * the selector name (--sel/--dir) and the default TTL.
 */
static int need_topo(struct opts *o, struct dp_topo *t)
{
	const struct dp_topo_ops *ops = dp_topo_ops_by_name(o->topo);
	struct dp_topo_params p = o->tparams;
	const char *why = NULL;

	if (!ops) {
		fprintf(stderr, "dpsim: unknown topology '%s'\n", o->topo);
		return EXIT_USAGE;
	}
	if (params_taken(ops, o->tparams_given))
		return EXIT_USAGE;
	p.kind = ops->kind;
	p.n = o->n;
	p.k = o->k;
	p.level = o->level;
	/* S2's derived mode: -n ports, --nodes, --spaces, --seed */
	p.nodes = o->nodes;
	p.spaces = o->spaces;
	p.seed = (u32)o->seed;
	/* Those of another topology's table are not this one's. */
	dp_topo_params_keep(ops, &p);
	if (need_params(ops, &p))
		return EXIT_USAGE;
	if (dp_topo_init(t, &p, &why)) {
		fprintf(stderr, "dpsim: bad topology (%u,%u): %s\n", o->n, o->k,
			why);
		return EXIT_USAGE;
	}
	/*
	 * The topology's tables (S2 derived mode), as the kernel's device
	 * has them: the same routes, cheaper.  Without memory it derives;
	 * the process's exit frees them.
	 */
	dp_topo_alloc(t);
	return need_sel(o, t);
}

static const char *describe(const struct dp_topo *t)
{
	static char buf[64];

	dp_topo_describe(t, buf, sizeof(buf));
	return buf;
}

/* ---- shortest paths by BFS over the implicit server/switch graph ---- */

struct bfs {
	u8 *dist;		/* 255 = unseen */
	u8 *swseen;		/* bit per switch */
	u32 *queue;
};

static int bfs_alloc(const struct dp_topo *t, struct bfs *b)
{
	b->dist = malloc(t->nodes);
	b->swseen = malloc((t->switches + 7) / 8);
	b->queue = malloc((size_t)t->nodes * sizeof(u32));
	return b->dist && b->swseen && b->queue ? 0 : -ENOMEM;
}

static void bfs_free(struct bfs *b)
{
	free(b->dist);
	free(b->swseen);
	free(b->queue);
}

/* Sum and max of server-hop distances from @src to every other server. */
static void bfs_run(const struct dp_topo *t, struct bfs *b, u32 src,
		    u64 *sum, u64 *sq, u32 *max)
{
	u32 head = 0, tail = 0, p, i, sw, peer, id;
	struct dp_port_info pi;

	memset(b->dist, 255, t->nodes);
	memset(b->swseen, 0, (t->switches + 7) / 8);
	b->dist[src] = 0;
	b->queue[tail++] = src;
	*sum = 0;
	*sq = 0;
	*max = 0;
	while (head < tail) {
		id = b->queue[head++];
		for (p = 0; p < t->nports; p++) {
			dp_port_info(t, id, p, &pi);
			sw = pi.sw;
			if (sw < t->switches) {
				/* each switch is expanded once */
				if (b->swseen[sw >> 3] & (1U << (sw & 7)))
					continue;
				b->swseen[sw >> 3] |= (u8)(1U << (sw & 7));
			}
			for (i = 0; i < pi.nneigh; i++) {
				peer = dp_port_neigh(t, id, p, i);
				if (!dp_addr_valid(t, peer) ||
				    b->dist[peer] != 255)
					continue;
				b->dist[peer] = b->dist[id] + 1;
				*sum += b->dist[peer];
				*sq += (u64)b->dist[peer] * b->dist[peer];
				if (b->dist[peer] > *max)
					*max = b->dist[peer];
				b->queue[tail++] = peer;
			}
		}
	}
}

/* ---- paths ---- */

/* Population standard deviation of @cnt values from their sum and squares. */
static double stdev(u64 sum, u64 sq, u64 cnt)
{
	double m, v;

	if (!cnt)
		return 0;
	m = (double)sum / cnt;
	v = (double)sq / cnt - m * m;
	return v > 0 ? sqrt(v) : 0;
}

/* A JSON result's start: the object and the fabric it is about. */
static void json_fabric_begin(const struct dp_topo *t)
{
	json_init(false);
	json_open_obj(NULL);
	json_uint("n", t->p.n);
	json_uint("k", t->p.k);
	json_uint("servers", t->nodes);
	json_uint("switches", t->switches);
}

/*
 * The flow hash paths and ft give the pair (s, d): fixed per pair, so
 * every measure of one run (all pairs, the BFS sources' walks, the
 * failure-free twin) routes a pair's flow the same way, and spread over
 * the pairs, so a mode that hashes flows over parallel paths (XDCent and
 * BCube "hash") is measured over its paths, not on path 0.
 */
static u32 pair_hash(u32 s, u32 d)
{
	return (u32)(s * 2654435761U) ^ d;
}

/* What paths measures: the mode's walks, then (--shortest) BFS's. */
struct paths_res {
	u64 hist[HIST_MAX], sum, sq, pairs, bad;
	u32 maxh, bound;
	bool all;
	/* --shortest: BFS from the sources, and the mode from them */
	u64 ssum, ssq, scount, msum, mbad, hops_seen, csum;
	double pcount;
	u32 smax, nsrc;
	/* --disjoint: pairs with candidates, valid, disjoint; full ports */
	u64 dpairs, dvalid, dnode, dserver, dfull, dfull_node;
	u32 dk;
	/* hops of candidate m over the pairs where it is valid */
	u64 dhops[DP_PATHS_MAX], dcount[DP_PATHS_MAX];
	u32 dmaxh[DP_PATHS_MAX];
};

/*
 * --disjoint.  Candidate @m of the pair as path selection takes it
 * (dp_route_path_init()), or flow hash @m of the mode when it has no
 * candidates, walked failure-free into @path; false when it is not
 * delivered within the TTL bound (max_hops) over real cables, or visits
 * a server twice.
 */
static bool disjoint_walk(const struct dp_topo *t, const struct opts *o,
			  u32 s, u32 d, u32 m, bool cand, u32 *path, u32 *len)
{
	struct dp_route_state st;
	struct dp_hop hop;
	u32 self = s, j;

	if (cand)
		dp_route_path_init(t, s, d, m, &st);
	else
		dp_route_init(t, s, d, o->sel, m, &st);
	*len = 0;
	path[(*len)++] = s;
	while (self != d) {
		if (*len > t->max_hops || *len >= DP_TTL_MAX ||
		    dp_route(t, self, &st, NULL, &hop) ||
		    dp_port_neigh_index(t, self, hop.port, hop.next) < 0)
			return false;
		for (j = 0; j < *len; j++)
			if (path[j] == hop.next)
				return false;
		self = hop.next;
		path[(*len)++] = self;
	}
	return true;
}

/* Does @x have a cable on every port? */
static bool disjoint_full(const struct dp_topo *t, u32 x)
{
	struct dp_port_info pi;
	u32 p;

	for (p = 0; p < t->nports; p++) {
		dp_port_info(t, x, p, &pi);
		if (pi.kind == DP_PORT_UNUSED)
			return false;
	}
	return true;
}

/*
 * The pair's K paths (K: its candidates in the mode, else in the
 * default mode): valid, and internally disjoint in servers and switches
 * (node) or in servers (server)?  @seen, @swseen: stamps per server and
 * switch.
 */
static void disjoint_pair(const struct dp_topo *t, const struct opts *o,
			  u32 s, u32 d, u32 *seen, u32 *swseen, u32 stamp,
			  struct paths_res *res)
{
	u32 path[DP_TTL_MAX + 1], len, k, m, h, p;
	bool cand = true, valid = true, node = true, server = true, full;
	struct dp_port_info pi;

	k = dp_route_npaths(t, s, d, o->sel);
	if (!k) {
		cand = false;
		k = dp_route_npaths(t, s, d, 0);
	}
	if (!k)
		return;
	if (k > res->dk)
		res->dk = k;
	res->dpairs++;
	for (m = 0; m < k; m++) {
		if (!disjoint_walk(t, o, s, d, m, cand, path, &len)) {
			valid = false;
			continue;
		}
		res->dhops[m] += len - 1;
		res->dcount[m]++;
		if (len - 1 > res->dmaxh[m])
			res->dmaxh[m] = len - 1;
		for (h = 0; h + 1 < len; h++) {
			if (h) {
				if (seen[path[h]] == stamp)
					server = false;
				seen[path[h]] = stamp;
			}
			for (p = 0; p < t->nports; p++)
				if (dp_port_neigh_index(t, path[h], p,
							path[h + 1]) >= 0)
					break;
			dp_port_info(t, path[h], p, &pi);
			if (pi.sw >= t->switches)
				continue;	/* a cable (DCell) */
			if (swseen[pi.sw] == stamp)
				node = false;
			swseen[pi.sw] = stamp;
		}
	}
	full = disjoint_full(t, s) && disjoint_full(t, d);
	res->dvalid += valid;
	res->dserver += valid && server;
	res->dnode += valid && server && node;
	res->dfull += full;
	res->dfull_node += full && valid && server && node;
}

/*
 * Every pair (all) or res->pairs random ones, routed failure-free by the
 * mode: the hop histogram, and the pairs not delivered within the bound.
 */
static void paths_walk(const struct dp_topo *t, const struct opts *o,
		       struct rng *r, struct paths_res *res)
{
	struct dp_walk w = { 0 };
	u32 s, d, h, *seen = NULL, *swseen = NULL;
	u64 i;

	if (o->disjoint) {
		seen = calloc(t->nodes, sizeof(u32));
		swseen = calloc(t->switches + 1, sizeof(u32));
		if (!seen || !swseen) {
			fprintf(stderr, "dpsim: out of memory\n");
			exit(1);
		}
	}

	for (i = 0; i < res->pairs; i++) {
		if (res->all) {
			s = (u32)(i / (t->nodes - 1));
			d = (u32)(i % (t->nodes - 1));
		} else {
			s = rng_below(r, t->nodes);
			d = rng_below(r, t->nodes - 1);
		}
		if (d >= s)
			d++;
		dp_walk(t, s, d, o->sel, pair_hash(s, d), NULL,
			4 * res->bound, &w);
		if (!w.delivered || w.bad_hop || w.hops > res->bound)
			res->bad++;
		h = w.hops < HIST_MAX ? w.hops : HIST_MAX - 1;
		res->hist[h]++;
		res->sum += w.hops;
		res->sq += (u64)w.hops * w.hops;
		if (w.hops > res->maxh)
			res->maxh = w.hops;
		if (o->disjoint)
			disjoint_pair(t, o, s, d, seen, swseen, (u32)i + 1,
				      res);
	}
	free(seen);
	free(swseen);
}

/*
 * The routing mode from @src to every destination, each as long as BFS
 * says?  And how many equal-cost next hops it had on the way (every 64th
 * destination).
 */
static void paths_mode_from(const struct dp_topo *t, const struct opts *o,
			    const struct bfs *b, u32 src, struct dp_walk *mw,
			    struct paths_res *res)
{
	struct dp_route_state st;
	u32 d, j, ch[64];

	for (d = 0; d < t->nodes; d++) {
		if (d == src)
			continue;
		dp_walk(t, src, d, o->sel, pair_hash(src, d), NULL, t->max_hops,
			mw);
		res->msum += mw->hops;
		if (!mw->delivered || mw->hops != b->dist[d])
			res->mbad++;
		if (d % 64)
			continue;
		for (j = 0; j + 1 < mw->path_len; j++) {
			dp_route_init(t, src, d, o->sel, pair_hash(src, d), &st);
			res->csum += dp_route_choices(t, mw->path[j], &st, NULL,
						      ch, 64);
			res->hops_seen++;
		}
	}
}

/* Shortest paths from @src to each server, counted along BFS's layers. */
static void paths_count(const struct dp_topo *t, const struct bfs *b,
			u32 src, double *npaths, struct paths_res *res)
{
	struct dp_port_info pi;
	u32 q, p, j, nb, d;

	memset(npaths, 0, (size_t)t->nodes * sizeof(double));
	npaths[src] = 1;
	/* the queue holds every server, by distance */
	for (q = 0; q < t->nodes; q++) {
		u32 v = b->queue[q];

		for (p = 0; p < t->nports; p++) {
			dp_port_info(t, v, p, &pi);
			for (j = 0; j < pi.nneigh; j++) {
				nb = dp_port_neigh(t, v, p, j);
				if (nb < t->nodes &&
				    b->dist[nb] == b->dist[v] + 1)
					npaths[nb] += npaths[v];
			}
		}
	}
	for (d = 0; d < t->nodes; d++)
		if (d != src)
			res->pcount += npaths[d];
}

/* --shortest: BFS from the sources (every one when there are few). */
static int paths_shortest(const struct dp_topo *t, const struct opts *o,
			  struct rng *r, struct paths_res *res)
{
	struct dp_walk mw = { 0 };
	double *npaths = NULL;
	u64 one, onesq;
	struct bfs b;
	u32 src, mx;

	if (bfs_alloc(t, &b)) {
		bfs_free(&b);
		fprintf(stderr, "dpsim: out of memory for BFS\n");
		return 1;
	}
	/* paths per pair, by counting along the BFS layers */
	if (t->nodes <= DP_GROW_MAX_NODES / 8)
		npaths = malloc((size_t)t->nodes * sizeof(double));
	mw.path = calloc(t->max_hops + 1, sizeof(u32));
	mw.path_max = t->max_hops + 1;
	/* every source once when there are no more of them */
	for (res->nsrc = 0; res->nsrc < o->sources && res->nsrc < t->nodes;
	     res->nsrc++) {
		src = o->sources >= t->nodes ? res->nsrc :
		      rng_below(r, t->nodes);
		bfs_run(t, &b, src, &one, &onesq, &mx);
		res->ssum += one;
		res->ssq += onesq;
		res->scount += t->nodes - 1;
		if (mx > res->smax)
			res->smax = mx;
		paths_mode_from(t, o, &b, src, &mw, res);
		if (npaths)
			paths_count(t, &b, src, npaths, res);
	}
	free(mw.path);
	free(npaths);
	bfs_free(&b);
	return 0;
}

static void paths_json(const struct dp_topo *t, const struct opts *o,
		       const struct paths_res *res)
{
	u64 pairs = res->pairs;
	u32 h;

	json_fabric_begin(t);
	json_uint("pairs", pairs);
	json_bool("all_pairs", res->all);
	json_str("dir", dp_sel_name(t, o->sel));
	json_double("avg_hops", pairs ? (double)res->sum / pairs : 0.0, 4);
	json_uint("max_hops", res->maxh);
	json_uint("bound", res->bound);
	json_uint("failures", res->bad);
	json_open_arr("histogram");
	for (h = 0; h <= res->maxh; h++)
		json_uint(NULL, res->hist[h]);
	json_close_arr();
	if (o->shortest) {
		json_uint("shortest_sources", res->nsrc);
		json_double("shortest_avg", (double)res->ssum / res->scount, 4);
		json_uint("shortest_max", res->smax);
		json_double("shortest_stdev",
			    stdev(res->ssum, res->ssq, res->scount), 4);
		json_double("mode_from_sources_avg",
			    (double)res->msum / res->scount, 4);
		json_uint("mode_not_shortest", res->mbad);
		json_double("choices_per_hop", res->hops_seen ?
			    (double)res->csum / res->hops_seen : 0, 3);
		json_double("shortest_paths_per_pair",
			    res->pcount / res->scount, 3);
	}
	if (o->disjoint) {
		json_open_obj("disjoint");
		json_uint("paths_per_pair", res->dk);
		json_uint("pairs", res->dpairs);
		json_uint("valid", res->dvalid);
		json_uint("node_disjoint", res->dnode);
		json_uint("server_disjoint", res->dserver);
		json_uint("full_pairs", res->dfull);
		json_uint("full_node_disjoint", res->dfull_node);
		json_open_arr("candidate_avg_hops");
		for (h = 0; h < res->dk; h++)
			json_double(NULL, res->dcount[h] ?
				    (double)res->dhops[h] / res->dcount[h] : 0,
				    4);
		json_close_arr();
		json_open_arr("candidate_max_hops");
		for (h = 0; h < res->dk; h++)
			json_uint(NULL, res->dmaxh[h]);
		json_close_arr();
		json_close_obj();
	}
	json_double("stdev_hops", stdev(res->sum, res->sq, pairs), 4);
	json_close_obj();
	json_end();
}

static void paths_text(const struct dp_topo *t, const struct opts *o,
		       const struct paths_res *res)
{
	u64 pairs = res->pairs;
	u32 h;

	printf("%s: %u servers, %u switches\n", describe(t), t->nodes,
	       t->switches);
	printf("routing (mode %s) over %llu %s pairs\n",
	       dp_sel_name(t, o->sel), (unsigned long long)pairs,
	       res->all ? "(all)" : "random");
	printf("  avg hops %.4f, max hops %u, bound %s = %u"
	       " (avg is %.1f%% below the bound)\n",
	       pairs ? (double)res->sum / pairs : 0.0, res->maxh,
	       t->kind == DP_TOPO_DPILLAR ? "k+floor(k/2)" : "failure-free",
	       res->bound, pairs ? 100.0 * (1.0 - (double)res->sum / pairs /
					    res->bound) : 0.0);
	printf("  histogram (hops: pairs)\n");
	for (h = 0; h <= res->maxh; h++)
		printf("    %2u: %llu (%.2f%%)\n", h,
		       (unsigned long long)res->hist[h],
		       100.0 * res->hist[h] / pairs);
	if (o->shortest) {
		printf("shortest paths (BFS from %u sources): avg %.4f,"
		       " max %u, stdev %.4f\n", res->nsrc,
		       (double)res->ssum / res->scount, res->smax,
		       stdev(res->ssum, res->ssq, res->scount));
		printf("mode %s from those sources to every server: "
		       "avg %.4f, %llu paths not shortest\n",
		       dp_sel_name(t, o->sel), (double)res->msum / res->scount,
		       (unsigned long long)res->mbad);
		printf("  equal-cost next hops per hop %.3f (every 64th"
		       " destination); shortest paths per pair %.3f"
		       "\n", res->hops_seen ?
		       (double)res->csum / res->hops_seen : 0,
		       res->pcount / res->scount);
	}
	if (t->kind != DP_TOPO_DPILLAR)
		printf("  stdev hops %.4f\n", stdev(res->sum, res->sq, pairs));
	if (o->disjoint && !res->dpairs)
		printf("disjoint paths: the mode has no candidate paths\n");
	else if (o->disjoint)
		printf("disjoint paths (%u per pair, %s) over %llu pairs:"
		       " valid %llu, internally disjoint in servers and switches"
		       " %llu (%.1f%%), in servers %llu (%.1f%%); pairs whose"
		       " ends have every port cabled %llu, of them disjoint in"
		       " servers and switches %llu (%.1f%%)\n", res->dk,
		       dp_route_npaths(t, 0, 1, o->sel) ? "path selection's" :
		       "the mode's flow hashes",
		       (unsigned long long)res->dpairs,
		       (unsigned long long)res->dvalid,
		       (unsigned long long)res->dnode,
		       100.0 * res->dnode / res->dpairs,
		       (unsigned long long)res->dserver,
		       100.0 * res->dserver / res->dpairs,
		       (unsigned long long)res->dfull,
		       (unsigned long long)res->dfull_node,
		       res->dfull ? 100.0 * res->dfull_node / res->dfull : 0.0);
	if (o->disjoint && res->dpairs) {
		printf("  hops per candidate (avg/max over its valid pairs):");
		for (h = 0; h < res->dk; h++)
			printf(" %u: %.4f/%u", h, res->dcount[h] ?
			       (double)res->dhops[h] / res->dcount[h] : 0.0,
			       res->dmaxh[h]);
		printf("\n");
	}
	if (res->bad)
		printf("FAILURES: %llu pairs not delivered within the "
		       "bound\n", (unsigned long long)res->bad);
}

static int cmd_paths(struct opts *o)
{
	struct paths_res *res;
	struct rng r = { o->seed };
	struct dp_topo t;
	int err;

	err = need_topo(o, &t);
	if (err)
		return err;
	res = calloc(1, sizeof(*res));
	if (!res) {
		fprintf(stderr, "dpsim: out of memory\n");
		return 1;
	}
	res->bound = t.ff_hops;
	res->all = o->pairs_set ? o->pairs == 0 :
		   (u64)t.nodes * (t.nodes - 1) <= ALL_PAIRS_MAX;
	if (res->all && (u64)t.nodes * (t.nodes - 1) > ALL_PAIRS_MAX * 100) {
		fprintf(stderr, "dpsim: too many pairs for all-pairs; use "
			"--pairs\n");
		free(res);
		return EXIT_USAGE;
	}
	res->pairs = res->all ? (u64)t.nodes * (t.nodes - 1) :
		     o->pairs_set ? o->pairs : 100000;
	paths_walk(&t, o, &r, res);
	err = o->shortest ? paths_shortest(&t, o, &r, res) : 0;
	if (!err && o->json)
		paths_json(&t, o, res);
	else if (!err)
		paths_text(&t, o, res);
	err = err ? err : res->bad ? 1 : 0;
	free(res);
	return err;
}

/* ---- ft ---- */

static u32 random_live(const struct dp_fail_set *fs, struct rng *r)
{
	u32 id;

	do {
		id = rng_below(r, fs->t->nodes);
	} while (dp_fail_node(fs, id));
	return id;
}

/*
 * The servers of a partially built fabric: the first @pct percent of the
 * growth order (or of a random order) are present, the others are failed
 * servers to routing.
 */
static int populate(const struct dp_topo *t, struct dp_fail_set *fs,
		    const struct opts *o, struct rng *r)
{
	u64 keep = (u64)t->nodes * o->populate / 100;
	u32 *order, i, j, tmp;
	int err = 0;

	order = malloc((size_t)t->nodes * sizeof(*order));
	if (!order)
		return -ENOMEM;
	if (o->order_random) {
		for (i = 0; i < t->nodes; i++)
			order[i] = i;
		for (i = t->nodes - 1; i > 0; i--) {
			j = rng_below(r, i + 1);
			tmp = order[i];
			order[i] = order[j];
			order[j] = tmp;
		}
	} else {
		err = dp_grow_order(t, order);
	}
	for (i = (u32)keep; !err && i < t->nodes; i++)
		dp_fail_set_node(fs, order[i]);
	free(order);
	return err;
}

/* A server's shortcut table holds this many (the kernel's DP_SC_ENTRIES). */
#define DISC_SC_ENTRIES	64
#define DISC_HASH_BITS	22

/*
 * ft --discover: the model of shortcut discovery (net/dpillar/shortcut.c)
 * as a fallback for every topology.  Where the topology's routing drops a
 * packet (any of its own drop reasons), that server floods a probe: every
 * live server passes the first copy on over each of its live ports but
 * the one it came in by (one frame per port: a switch port's frame
 * reaches every member), the destination answers, and the reply walks
 * back along a shortest live path, each server on it installing "toward
 * dst: this neighbour, d hops".  The packet then follows those entries,
 * d strictly decreasing at every hop (loop-free, as dp_s2_route() keeps
 * them), while its TTL lasts.  A server that already holds a shortcut for
 * the destination floods nothing.  Idealised: no frame is lost, the
 * probe's first copy takes a shortest path, and the kernel's rate limits
 * and table size do not bite (tables above DISC_SC_ENTRIES are counted).
 */
struct disc_model {
	u8 *dist;		/* BFS distances from the destination */
	u32 *queue;
	u8 *sw;
	u8 *liveports;		/* live used ports per server */
	u64 *keys;		/* (server, dst) + 1 of the installed entries */
	u32 *entries;		/* entries per server */
	u32 *path;		/* the walk, for the server that dropped */
	u32 path_max;
	bool full;		/* the key table filled up: counts too low */
	u64 delivered, hops, bfs_hops, miss_ttl, miss_unreached;
	u64 discoveries, frames, flood_frames, reply_frames;
};

struct ft_result {
	u64 pairs, connected, delivered, delivered_conn, dropped, looped;
	u64 bad, too_long, sum, sum0, sumbfs, detoured;
	u64 drops[DP_DROP_MAX];
	u64 detours[DP_DETOUR_SLOTS];
	double stretch;
	u32 maxh;
	bool bfs;
	struct disc_model *dm;
};

/* Record entry (@id, @dst); true when it is new. */
static bool disc_insert(struct disc_model *dm, u32 id, u32 dst)
{
	u64 key = ((u64)id << 32 | dst) + 1, mask = (1ULL << DISC_HASH_BITS) - 1;
	u64 h = (key * 0x9e3779b97f4a7c15ULL) >> (64 - DISC_HASH_BITS), n;

	for (n = 0; n <= mask; n++, h = (h + 1) & mask) {
		if (dm->keys[h] == key)
			return false;
		if (!dm->keys[h]) {
			if (n > 64) {	/* too crowded: stop counting */
				dm->full = true;
				return false;
			}
			dm->keys[h] = key;
			dm->entries[id]++;
			return true;
		}
	}
	dm->full = true;
	return false;
}

static bool disc_has(const struct disc_model *dm, u32 id, u32 dst)
{
	u64 key = ((u64)id << 32 | dst) + 1, mask = (1ULL << DISC_HASH_BITS) - 1;
	u64 h = (key * 0x9e3779b97f4a7c15ULL) >> (64 - DISC_HASH_BITS), n;

	for (n = 0; n <= mask && dm->keys[h]; n++, h = (h + 1) & mask)
		if (dm->keys[h] == key)
			return true;
	return false;
}

/*
 * The next server after @u on a shortest live path, by the BFS distances
 * @dist toward its root (the first by port order), DP_NODE_NONE when
 * none (the root itself, or not reached).
 */
static u32 bfs_step(const struct dp_topo *t, const struct dp_fail_set *fs,
		    const u8 *dist, u32 u)
{
	struct dp_port_info pi;
	u32 p, i, v;

	for (p = 0; p < t->nports; p++) {
		dp_port_info(t, u, p, &pi);
		for (i = 0; i < pi.nneigh; i++) {
			v = dp_port_neigh(t, u, p, i);
			if (v < t->nodes && dist[v] + 1 == dist[u] &&
			    dp_fail_reachable(fs, u, p, v))
				return v;
		}
	}
	return DP_NODE_NONE;
}

/*
 * The packet of @w, dropped at its last server x on its way to @d: is
 * there a shortcut (or a discovery finding one) that delivers it within
 * @ttl?  Returns its total hop count, or 0 (a miss, counted).
 */
static u32 disc_fallback(const struct dp_topo *t, const struct dp_fail_set *fs,
			 struct disc_model *dm, const struct dp_walk *w,
			 u32 d, u32 ttl)
{
	u32 x = w->path[w->path_len - 1], u, v, sum = 0, live = 0;

	sim_bfs(t, fs, d, dm->dist, dm->queue, dm->sw);
	if (dm->dist[x] == SIM_FAR) {
		dm->miss_unreached++;
		return 0;
	}
	if (w->hops + dm->dist[x] > ttl) {
		dm->miss_ttl++;
		return 0;
	}
	if (!disc_has(dm, x, d)) {
		/* the flood: x's component, each server once */
		for (u = 0; u < t->nodes; u++) {
			if (dm->dist[u] == SIM_FAR || u == d)
				continue;
			sum += dm->liveports[u] - (u != x && dm->liveports[u]);
			live++;
		}
		dm->discoveries++;
		dm->flood_frames += sum;
		dm->reply_frames += dm->dist[x];
		dm->frames += sum + dm->dist[x];
		/* the reply installs the path, distances decreasing */
		for (u = x; u != d; u = v) {
			disc_insert(dm, u, d);
			v = bfs_step(t, fs, dm->dist, u);
			if (v == DP_NODE_NONE)
				break;	/* cannot happen: BFS said so */
		}
	}
	(void)live;
	dm->delivered++;
	return w->hops + dm->dist[x];
}

/* State and cost of the fallback, once the pairs are walked. */
struct disc_stats {
	u64 entries;
	u32 max, over;
	double mean, per_failure;
};

static void disc_stats(const struct dp_topo *t, const struct dp_fail_set *fs,
		       const struct disc_model *dm, struct disc_stats *ds)
{
	u32 u, live = 0;

	for (u = 0; u < t->nodes; u++) {
		if (dp_fail_node(fs, u))
			continue;
		live++;
		ds->entries += dm->entries[u];
		if (dm->entries[u] > ds->max)
			ds->max = dm->entries[u];
		ds->over += dm->entries[u] > DISC_SC_ENTRIES;
	}
	ds->mean = live ? (double)ds->entries / live : 0;
	ds->per_failure = fs->nfailed + fs->nlinks ?
			  (double)dm->frames / (fs->nfailed + fs->nlinks) : 0;
}

static void disc_print(const struct disc_model *dm,
		       const struct disc_stats *ds)
{
	printf("  discovery fallback: delivered %llu more (avg hops %.4f vs "
	       "shortest live path %.4f); missed: ttl %llu, unreached %llu\n",
	       (unsigned long long)dm->delivered,
	       dm->delivered ? (double)dm->hops / dm->delivered : 0,
	       dm->delivered ? (double)dm->bfs_hops / dm->delivered : 0,
	       (unsigned long long)dm->miss_ttl,
	       (unsigned long long)dm->miss_unreached);
	printf("    %llu discoveries, %llu frames (flood %llu, reply %llu), "
	       "%.1f per discovery, %.1f per failed server or link\n",
	       (unsigned long long)dm->discoveries,
	       (unsigned long long)dm->frames,
	       (unsigned long long)dm->flood_frames,
	       (unsigned long long)dm->reply_frames,
	       dm->discoveries ? (double)dm->frames / dm->discoveries : 0,
	       ds->per_failure);
	printf("    shortcut entries: %llu, %.3f per live server, max %u, %u "
	       "servers above %u%s\n", (unsigned long long)ds->entries,
	       ds->mean, ds->max, ds->over, DISC_SC_ENTRIES,
	       dm->full ? " (lower bounds: the model's table filled)" : "");
}

static int disc_init(const struct dp_topo *t, const struct dp_fail_set *fs,
		     u32 ttl, struct disc_model *dm)
{
	struct dp_port_info pi;
	u32 u, p;

	memset(dm, 0, sizeof(*dm));
	dm->path_max = ttl + 1;
	dm->dist = malloc(t->nodes);
	dm->queue = malloc((size_t)t->nodes * sizeof(u32));
	dm->sw = malloc(((size_t)t->switches + 7) / 8);
	dm->liveports = calloc(t->nodes, 1);
	dm->keys = calloc(1ULL << DISC_HASH_BITS, sizeof(u64));
	dm->entries = calloc(t->nodes, sizeof(u32));
	dm->path = malloc((size_t)dm->path_max * sizeof(u32));
	if (!dm->dist || !dm->queue || !dm->sw || !dm->liveports ||
	    !dm->keys || !dm->entries || !dm->path)
		return -ENOMEM;
	for (u = 0; u < t->nodes; u++) {
		if (dp_fail_node(fs, u))
			continue;
		for (p = 0; p < t->nports; p++) {
			dp_port_info(t, u, p, &pi);
			if (pi.kind != DP_PORT_UNUSED && !dp_fail_link(fs, u, p))
				dm->liveports[u]++;
		}
	}
	return 0;
}

static void disc_free(struct disc_model *dm)
{
	free(dm->dist);
	free(dm->queue);
	free(dm->sw);
	free(dm->liveports);
	free(dm->keys);
	free(dm->entries);
	free(dm->path);
}

/* One pair: the walk, its failure-free twin, and what BFS says. */
static void ft_pair(const struct dp_topo *t, const struct dp_fail_set *fs,
		    const struct opts *o, u32 s, u32 d, u32 bfs_dist,
		    struct ft_result *res)
{
	struct dp_walk w = { 0 }, w0 = { 0 };
	bool det, conn = bfs_dist != SIM_FAR;
	u32 j, hash = pair_hash(s, d);

	res->pairs++;
	if (conn)
		res->connected++;
	if (res->dm) {
		w.path = res->dm->path;
		w.path_max = res->dm->path_max;
	}
	dp_walk(t, s, d, o->sel, hash, fs, o->ttl, &w);
	/* the fallback: only where the topology's own rules gave up */
	if (res->dm && conn && !w.delivered && !w.looped && !w.bad_hop &&
	    dp_topo_discover_drop(t, w.reason) && w.path_len) {
		j = disc_fallback(t, fs, res->dm, &w, d, o->ttl);
		if (j) {
			res->dm->hops += j;
			res->dm->bfs_hops += bfs_dist;
			w.delivered = true;
			w.hops = j;
		}
	}
	if (w.delivered && w.hops > dp_topo_ttl(t)) {
		/* only with --ttl above the bound: the bound is wrong */
		res->too_long++;
		res->looped++;
	} else if (w.bad_hop) {
		res->bad++;
	} else if (w.looped) {
		res->looped++;
	} else if (!w.delivered) {
		res->dropped++;
		res->drops[w.reason < DP_DROP_MAX ? w.reason : 0]++;
	} else {
		dp_walk(t, s, d, o->sel, hash, NULL, dp_topo_ttl(t), &w0);
		res->delivered++;
		if (conn) {
			res->delivered_conn++;
			res->sumbfs += bfs_dist;
		}
		res->sum += w.hops;
		res->sum0 += w0.hops;
		res->stretch += (double)w.hops / w0.hops;
		if (w.hops > res->maxh)
			res->maxh = w.hops;
		det = w.hops != w0.hops;
		for (j = 0; j < DP_DETOUR_SLOTS; j++) {
			res->detours[j] += w.detours[j];
			det |= w.detours[j] != 0;
		}
		if (det)
			res->detoured++;
	}
}

/*
 * ft's progress on stderr, with --progress or when stderr is a terminal:
 * "dpsim: ft: S of N sources (P%)", rewritten in place on a terminal at
 * most every half second, a line a second otherwise.  The last line (every
 * source done) stays with --progress; on a terminal without it, the line
 * is erased once ft is done.  A BFS of a fabric of a million servers takes
 * about 0.1 s: --failed on DPillar (48,4) runs for minutes at the default
 * 1000 sources.
 */
struct progress {
	bool on, tty, keep, shown;
	struct timespec last;
};

static void progress_init(struct progress *p, const struct opts *o)
{
	p->tty = isatty(STDERR_FILENO);
	p->keep = o->progress;
	p->on = o->progress || p->tty;
	p->shown = false;
	clock_gettime(CLOCK_MONOTONIC, &p->last);
}

static void progress_show(struct progress *p, u32 done, u32 total)
{
	struct timespec now;
	double dt;

	if (!p->on)
		return;
	if (done == total && !p->keep) {
		if (p->shown)
			fputs("\r\033[K", stderr);
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	dt = (double)(now.tv_sec - p->last.tv_sec) +
	     (now.tv_nsec - p->last.tv_nsec) / 1e9;
	if (done < total && dt < (p->tty ? 0.5 : 1.0))
		return;
	p->last = now;
	p->shown = true;
	fprintf(stderr, "%sdpsim: ft: %u of %u sources (%u%%)%s",
		p->tty ? "\r" : "", done, total,
		(u32)((u64)done * 100 / (total ? total : 1)),
		p->tty && done < total ? "" : "\n");
}

/*
 * P pairs in groups of P / S per source (S = --sources, default 4 here
 * means 1000), so that one BFS per source in the failed fabric tells which
 * pairs are connected at all and their shortest live path.
 */
static int ft_run(const struct dp_topo *t, const struct dp_fail_set *fs,
		  const struct opts *o, struct rng *r, struct ft_result *res)
{
	u64 pairs = o->pairs_set ? o->pairs : 100000, i;
	u32 nsrc = o->sources_set ? o->sources : 1000, s = 0, d;
	u8 *dist = NULL, *sw = NULL;
	u32 *queue = NULL, groups;
	struct progress pr;
	u64 group;

	if (nsrc > pairs)
		nsrc = pairs ? (u32)pairs : 1;
	group = (pairs + nsrc - 1) / nsrc;
	groups = group ? (u32)((pairs + group - 1) / group) : 0;
	res->bfs = t->nodes <= DP_GROW_MAX_NODES;
	if (res->bfs) {
		dist = malloc(t->nodes);
		queue = malloc((size_t)t->nodes * sizeof(*queue));
		sw = malloc(((size_t)t->switches + 7) / 8);
		if (!dist || !queue || !sw) {
			free(dist);
			free(queue);
			free(sw);
			return -ENOMEM;
		}
	}
	progress_init(&pr, o);
	for (i = 0; i < pairs; i++) {
		if (i % group == 0) {
			progress_show(&pr, (u32)(i / group), groups);
			s = random_live(fs, r);
			if (res->bfs)
				sim_bfs(t, fs, s, dist, queue, sw);
		}
		do {
			d = random_live(fs, r);
		} while (d == s);
		ft_pair(t, fs, o, s, d, res->bfs ? dist[d] : 0, res);
	}
	progress_show(&pr, groups, groups);
	free(dist);
	free(queue);
	free(sw);
	return 0;
}

/*
 * The failures of ft: the servers --populate leaves out, then --failed
 * random servers and --fail-links links.  0 or an exit status.
 */
static int ft_failures(const struct dp_topo *t, struct dp_fail_set *fs,
		       const struct opts *o, struct rng *r)
{
	int err;

	if (o->populate) {
		err = populate(t, fs, o, r);
		if (err) {
			fprintf(stderr, "dpsim: no growth order here: %s\n",
				strerror(-err));
			return 1;
		}
		if (fs->nfailed + 2 > t->nodes)
			return bad_usage("--populate leaves fewer than two "
					 "servers%s", "");
	}
	fs_random(fs, r, fs->nfailed + o->failed, o->fail_links);
	return 0;
}

/* ft's averages, from its counts. */
struct ft_avg {
	double hops, hops0, stretch, bfs, pct;
};

static void ft_avg(const struct ft_result *res, struct ft_avg *a)
{
	a->hops = res->delivered ? (double)res->sum / res->delivered : 0;
	a->hops0 = res->delivered ? (double)res->sum0 / res->delivered : 0;
	a->stretch = res->delivered ? res->stretch / res->delivered : 0;
	a->bfs = res->delivered_conn ?
		 (double)res->sumbfs / res->delivered_conn : 0;
	a->pct = res->connected ?
		 100.0 * res->delivered_conn / res->connected : 0;
}

static void disc_json(const struct disc_model *dm,
		      const struct disc_stats *ds)
{
	json_open_obj("discover");
	json_uint("delivered", dm->delivered);
	json_uint("miss_ttl", dm->miss_ttl);
	json_uint("miss_unreached", dm->miss_unreached);
	json_double("avg_hops", dm->delivered ?
		    (double)dm->hops / dm->delivered : 0, 4);
	json_double("avg_bfs_hops", dm->delivered ?
		    (double)dm->bfs_hops / dm->delivered : 0, 4);
	json_uint("discoveries", dm->discoveries);
	json_uint("frames", dm->frames);
	json_uint("flood_frames", dm->flood_frames);
	json_uint("reply_frames", dm->reply_frames);
	json_double("frames_per_failure", ds->per_failure, 1);
	json_uint("entries", ds->entries);
	json_double("entries_per_server", ds->mean, 3);
	json_uint("entries_max", ds->max);
	json_uint("servers_over_table", ds->over);
	json_str("counts", dm->full ? "lower bounds" : "exact");
	json_close_obj();
}

static void ft_json(const struct dp_topo *t, const struct dp_fail_set *fs,
		    const struct opts *o, const struct ft_result *res,
		    const struct disc_stats *ds)
{
	struct ft_avg a;
	u32 j;

	ft_avg(res, &a);
	json_fabric_begin(t);
	json_uint("failed", fs->nfailed);
	json_uint("failed_links", fs->nlinks);
	json_uint("populate", o->populate);
	json_str("order", o->order_random ? "random" : "grow");
	json_uint("pairs", res->pairs);
	json_str("dir", dp_sel_name(t, o->sel));
	json_str("mode", dp_sel_name(t, o->sel));
	json_uint("ttl", o->ttl);
	json_uint("delivered", res->delivered);
	json_uint("dropped", res->dropped);
	json_uint("looped", res->looped);
	json_uint("bad_hops", res->bad);
	json_double("avg_hops", a.hops, 4);
	json_uint("max_hops", res->maxh);
	json_double("avg_sroute_hops", a.hops0, 4);
	json_double("avg_stretch", a.stretch, 4);
	json_uint("bound", t->ff_hops);
	json_uint("detoured", res->detoured);
	if (res->bfs) {
		json_uint("connected", res->connected);
		json_uint("delivered_connected", res->delivered_conn);
		json_double("delivered_connected_pct", a.pct, 5);
		json_double("avg_bfs_hops", a.bfs, 4);
	}
	for (j = 0; j < DP_DETOUR_SLOTS; j++)
		if (dp_detour_name(t, j + 1))
			json_uint(dp_detour_name(t, j + 1), res->detours[j]);
	json_open_obj("drops");
	for (j = 1; j < t->ops->ndrops; j++)
		json_uint(dp_drop_reason_name(t, j), res->drops[j]);
	json_close_obj();
	if (res->dm)
		disc_json(res->dm, ds);
	json_close_obj();
	json_end();
}

/* ft's text: drops by reason, then detour hops by kind. */
static void ft_text_counts(const struct dp_topo *t,
			   const struct ft_result *res, const struct ft_avg *a)
{
	bool det;
	u32 j;

	for (j = 1; j < t->ops->ndrops; j++)
		if (res->drops[j])
			printf("    dropped %s: %llu\n",
			       dp_drop_reason_name(t, j),
			       (unsigned long long)res->drops[j]);
	printf("  avg hops %.4f (failure-free %.4f), max hops %u, avg "
	       "stretch %.4f\n", a->hops, a->hops0, res->maxh, a->stretch);
	printf("  detoured %llu pairs; detour hops:",
	       (unsigned long long)res->detoured);
	for (det = false, j = 0; j < DP_DETOUR_SLOTS; j++) {
		if (!dp_detour_name(t, j + 1))
			continue;
		printf("%s %s %llu", det ? "," : "", dp_detour_name(t, j + 1),
		       (unsigned long long)res->detours[j]);
		det = true;
	}
	printf("\n");
}

static void ft_text(const struct dp_topo *t, const struct dp_fail_set *fs,
		    const struct opts *o, const struct ft_result *res,
		    const struct disc_stats *ds)
{
	struct ft_avg a;

	ft_avg(res, &a);
	printf("%s: %u servers, %u switches; %u failed servers, %u "
	       "failed links\n", describe(t), t->nodes, t->switches,
	       fs->nfailed, fs->nlinks);
	if (o->populate)
		printf("partially built: %u%% of the servers, in %s order\n",
		       o->populate, o->order_random ? "random" : "growth");
	printf("routing %s (ttl %u) over %llu random live pairs\n",
	       dp_sel_name(t, o->sel), o->ttl, (unsigned long long)res->pairs);
	printf("  delivered %llu (%.3f%%), dropped %llu, looped (TTL "
	       "expired) %llu\n", (unsigned long long)res->delivered,
	       100.0 * res->delivered / res->pairs,
	       (unsigned long long)res->dropped,
	       (unsigned long long)res->looped);
	if (res->bfs)
		printf("  connected pairs (BFS) %llu, delivered %llu "
		       "(%.5f%%), avg hops %.4f vs shortest live path "
		       "%.4f\n", (unsigned long long)res->connected,
		       (unsigned long long)res->delivered_conn, a.pct,
		       res->delivered_conn ? (double)res->sum /
		       res->delivered : 0, a.bfs);
	ft_text_counts(t, res, &a);
	if (res->dm)
		disc_print(res->dm, ds);
	if (res->bad)
		printf("FAILURES: %llu hops to a failed or non-neighbour "
		       "server\n", (unsigned long long)res->bad);
	if (res->too_long)
		printf("FAILURES: %llu paths longer than the topology's "
		       "bound of %u hops\n", (unsigned long long)res->too_long,
		       dp_topo_ttl(t));
}

/*
 * The links of @t that ft fails at random (fs_random(): a (node, port)
 * of the failure set): a node's link to a switch, and a cable between
 * two nodes once.  --fail-frac F is F of these.
 */
static u32 ft_links(const struct dp_topo *t)
{
	struct dp_port_info pi;
	u32 id, p, sw = 0, ends = 0;

	for (id = 0; id < t->nodes; id++)
		for (p = 0; p < t->nports; p++) {
			dp_port_info(t, id, p, &pi);
			if (pi.kind == DP_PORT_SWITCH)
				sw++;
			else if (pi.kind == DP_PORT_CABLE &&
				 dp_port_neigh(t, id, p, 0) != DP_NODE_NONE)
				ends++;
		}
	return sw + ends / 2;
}

/* ft on topology @t (need_topo(), or an S2 fabric: cmd_s2_ft()). */
static int ft_on(struct opts *o, const struct dp_topo *t)
{
	struct dp_fail_set fs;
	struct rng r = { o->seed };
	struct ft_result res = { 0 };
	struct disc_model dm;
	struct disc_stats ds = { 0 };
	int err = 0;

	if (!o->failed_set && !o->populate)
		return bad_usage("ft needs --failed F or --populate PCT%s", "");
	if ((u64)o->failed + 2 > t->nodes)
		return bad_usage("--failed must leave two live servers%s", "");
	if (o->fail_frac_set)
		o->fail_links = (u32)(o->fail_frac * ft_links(t) + 0.5);
	if (fs_init(&fs, t)) {
		fprintf(stderr, "dpsim: out of memory\n");
		return 1;
	}
	err = ft_failures(t, &fs, o, &r);
	/*
	 * The kernel's fallback is in force in the topology's default mode
	 * (dp_sc_fallback()); --discover models it in every mode.
	 */
	if (!err && o->discover && (o->discover_set || !o->sel)) {
		res.dm = &dm;
		if (disc_init(t, &fs, o->ttl, &dm))
			err = -ENOMEM;
	}
	if (!err && ft_run(t, &fs, o, &r, &res))
		err = -ENOMEM;
	if (err == -ENOMEM) {
		fprintf(stderr, "dpsim: out of memory\n");
		err = 1;
	}
	if (!err && res.dm)
		disc_stats(t, &fs, &dm, &ds);
	if (!err && o->json)
		ft_json(t, &fs, o, &res, &ds);
	else if (!err)
		ft_text(t, &fs, o, &res, &ds);
	if (res.dm)
		disc_free(&dm);
	fs_free(&fs);
	return err ? err : res.bad || res.too_long ? 1 : 0;
}

static int cmd_ft(struct opts *o)
{
	struct dp_topo t;
	int err = need_topo(o, &t);

	return err ? err : ft_on(o, &t);
}

/* ---- route ---- */

static int parse_addr(const struct dp_topo *t, const char *text, u32 *id)
{
	const char *why = NULL;

	if (dp_addr_parse(t, text, id, &why)) {
		fprintf(stderr, "dpsim: bad address '%s': %s\n", text, why);
		return EXIT_USAGE;
	}
	return 0;
}

/* One distinct path of route --all-hashes. */
struct hpath {
	u32 len, words;
	u32 *ids;
};

/* Every distinct path of src -> dst over the 65536 routing words. */
static int route_all_hashes(const struct dp_topo *t,
			    const struct dp_fail_set *fs, u32 src, u32 dst,
			    const struct opts *o, struct dp_walk *w)
{
	struct hpath *paths = NULL;
	char a[DP_ADDR_TEXT_MAX];
	u32 npaths = 0, h, i, j;
	int err = 0;

	for (h = 0; h < 65536 && !err; h++) {
		dp_walk(t, src, dst, o->sel, h, fs, o->ttl, w);
		if (w->bad_hop) {
			err = 1;
			break;
		}
		for (i = 0; i < npaths; i++)
			if (paths[i].len == w->path_len &&
			    !memcmp(paths[i].ids, w->path,
				    w->path_len * sizeof(u32)))
				break;
		if (i == npaths) {
			struct hpath *np = realloc(paths, (npaths + 1) *
						   sizeof(*paths));

			if (!np) {
				err = 1;
				break;
			}
			paths = np;
			paths[i].len = w->path_len;
			paths[i].words = 0;
			paths[i].ids = malloc(w->path_len * sizeof(u32));
			if (!paths[i].ids) {
				err = 1;
				break;
			}
			memcpy(paths[i].ids, w->path,
			       w->path_len * sizeof(u32));
			npaths++;
		}
		paths[i].words++;
	}
	if (!err) {
		json_init(false);
		json_open_obj(NULL);
		json_open_arr("paths");
		for (i = 0; i < npaths; i++) {
			json_open_obj(NULL);
			json_uint("words", paths[i].words);
			json_open_arr("path");
			for (j = 0; j < paths[i].len; j++) {
				dp_addr_format(t, paths[i].ids[j], a,
					       sizeof(a));
				json_str(NULL, a);
			}
			json_close_arr();
			json_close_obj();
		}
		json_close_arr();
		json_close_obj();
		json_end();
	}
	for (i = 0; i < npaths; i++)
		free(paths[i].ids);
	free(paths);
	return err;
}

/*
 * --fail ADDR[/PORT],...: failed servers, and ADDR/PORT for a failed link.
 * 0 or an exit status.
 */
static int parse_fail(const struct dp_topo *t, struct dp_fail_set *fs,
		      const char *spec)
{
	char *list, *tok, *save = NULL, *slash;
	unsigned long port;
	u32 id;
	int err = 0;

	if (!spec)
		return 0;
	list = strdup(spec);
	if (!list)
		return 1;
	for (tok = strtok_r(list, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		slash = strchr(tok, '/');
		port = 0;
		if (slash) {
			*slash = 0;
			port = strtoul(slash + 1, NULL, 10);
			if (port >= t->nports) {
				err = bad_usage("bad port in --fail '%s'", spec);
				break;
			}
		}
		err = parse_addr(t, tok, &id);
		if (err)
			break;
		if (slash)
			dp_fail_set_link(fs, id, (u32)port);
		else
			dp_fail_set_node(fs, id);
	}
	free(list);
	return err;
}

/* ---- pairs ---- */

/*
 * pairs --discover: the kernel's discovery fallback (net/dpillar/
 * shortcut.c, dp_sc_fallback()): a topology without a discovery of its
 * own, in its default mode, carries a data frame it gives up on at
 * server x along the shortcut a discovery from x installs, when the TTL
 * left there allows it.  In a quiet fabric the probe's first copy comes
 * by a shortest live path, which the reply installs; so the frame is
 * delivered when x reaches the destination within the TTL, along a
 * shortest live path (the first one by port order here: the kernel's may
 * be another as long).  Appends that path to @w; false when there is
 * none within the TTL.
 */
struct pairs_disc {
	u8 *dist;
	u32 *queue;
	u8 *sw;
};

static bool pairs_fallback(const struct dp_topo *t, const struct dp_fail_set *fs,
			   struct pairs_disc *pd, u32 d, u32 ttl,
			   struct dp_walk *w)
{
	u32 x = w->path[w->path_len - 1], u, v;

	sim_bfs(t, fs, d, pd->dist, pd->queue, pd->sw);
	if (pd->dist[x] == SIM_FAR || w->hops + pd->dist[x] > ttl ||
	    w->path_len + pd->dist[x] > w->path_max)
		return false;
	for (u = x; u != d; u = v) {
		v = bfs_step(t, fs, pd->dist, u);
		if (v == DP_NODE_NONE)
			return false;	/* cannot happen: BFS said so */
		w->path[w->path_len++] = v;
		w->hops++;
	}
	w->delivered = true;
	return true;
}

/* Node @id's address: in @t's text form, or (NULL) its id. */
static void put_addr(const struct dp_topo *t, u32 id)
{
	char a[DP_ADDR_TEXT_MAX];

	if (!t) {
		printf("%u", id);
		return;
	}
	dp_addr_format(t, id, a, sizeof(a));
	fputs(a, stdout);
}

void pairs_line(const struct dp_topo *t, u32 s, u32 d, const char *outcome,
		u32 hops, const u32 *path, u32 len)
{
	u32 i;

	put_addr(t, s);
	putchar(' ');
	put_addr(t, d);
	printf(" %s %u ", outcome, hops);
	for (i = 0; i < len; i++) {
		if (i)
			putchar(',');
		put_addr(t, path[i]);
	}
	putchar('\n');
}

/*
 * Every ordered pair of live servers, one line each, routed under the
 * failures of --fail: "SRC DST delivered|dropped HOPS PATH" (addresses
 * in the topology's text form, PATH comma-separated, src first).  For
 * tests that compare a running fabric with dpsim pair by pair.  As the
 * kernel (unless --no-discover), what its discovery fallback delivers
 * too (pairs_fallback()), where the kernel has it: not for S2 (its own
 * discovery: dpsim pairs --topo s2), not in a topology's other modes.
 */
static int cmd_pairs(struct opts *o)
{
	struct dp_walk w = { 0 };
	struct pairs_disc pd = { 0 };
	struct dp_fail_set fs;
	struct dp_topo t;
	u32 s, d, bad = 0;
	bool disc;
	int err;

	err = need_topo(o, &t);
	if (err)
		return err;
	if ((u64)t.nodes * t.nodes > ALL_PAIRS_MAX)
		return bad_usage("pairs: too many servers%s", "");
	if (fs_init(&fs, &t)) {
		fprintf(stderr, "dpsim: out of memory\n");
		return 1;
	}
	err = parse_fail(&t, &fs, o->fail);
	disc = o->discover && !t.ops->discover_drop && !o->sel;
	w.path_max = o->ttl + 1;
	w.path = calloc(w.path_max, sizeof(*w.path));
	if (disc) {
		pd.dist = calloc(t.nodes, 1);
		pd.queue = calloc(t.nodes, sizeof(*pd.queue));
		pd.sw = calloc(t.switches + 1, 1);
		if (!pd.dist || !pd.queue || !pd.sw)
			err = 1;
	}
	if (!err && !w.path)
		err = 1;
	for (s = 0; !err && w.path && s < t.nodes; s++) {
		for (d = 0; d < t.nodes; d++) {
			if (s == d || dp_fail_node(&fs, s) ||
			    dp_fail_node(&fs, d))
				continue;
			dp_walk(&t, s, d, o->sel, 0, &fs, o->ttl, &w);
			if (disc && !w.delivered && !w.bad_hop && !w.looped &&
			    dp_topo_discover_drop(&t, w.reason) && w.path_len)
				pairs_fallback(&t, &fs, &pd, d, o->ttl, &w);
			if (w.bad_hop)
				bad++;
			pairs_line(&t, s, d, w.bad_hop ? "bad_hop" :
				   w.delivered ? "delivered" : "dropped",
				   w.hops, w.path, w.path_len);
		}
	}
	free(pd.dist);
	free(pd.queue);
	free(pd.sw);
	free(w.path);
	fs_free(&fs);
	return err ? err : bad ? 1 : 0;
}

/* ---- flows: a flow-level model of a permutation (max-min fair) ---- */

/*
 * flows: every live endpoint (server, or with --hosts H each of a
 * server's H hosts, dpns3's --hosts) sends one flow and receives one, a
 * random permutation drawn as dpns3 draws it (Sattolo's one cycle over
 * the live endpoints, after the failures, from one splitmix64 stream of
 * --seed), each flow routed hop by hop by the routing core (dp_walk(),
 * the kernel's and dpns3's routing with the failures' view) under the
 * flow hash dpns3 gives its TCP connection, and the discovery fallback
 * where ft models it.  The max-min fair rates of the flows over the
 * directed links they cross (every link of capacity 1: a server's port
 * to its switch and back, a cable one way, a host's link up and down)
 * by progressive filling; printed as percent of every flow at line rate,
 * the unit of dpillar-evaluation.rst's "TCP throughput" table.
 */

/* dpns3's first ephemeral source port, and its sinks' port base. */
#define FLOWS_SPORT	49153
#define FLOWS_SINK_BASE	1024

/*
 * The flow hash dpns3 gives a packet of a connection (dpns3.cc
 * flow_hash(): murmur3's finaliser over the five-tuple, TCP), its
 * addresses 10.0.0.1 + server or 11.0.0.1 + host: the same paths.
 */
static u32 flows_hash(u32 saddr, u32 daddr, u16 sport, u16 dport)
{
	u32 h = dp_fmix32(saddr ^ 0x9e3779b9U);

	h = dp_fmix32(h ^ daddr);
	h = dp_fmix32(h ^ ((u32)sport << 16 | dport));
	return dp_fmix32(h ^ 6);
}

/*
 * Student's t, two-sided 95% (0.975 quantile) for @df degrees of
 * freedom: the table to 30, then the Cornish-Fisher expansion (within
 * 1e-4 there).
 */
static double flows_t975(u32 df)
{
	static const double tab[31] = { 0,
		12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646,
		2.3060, 2.2622, 2.2281, 2.2010, 2.1788, 2.1604, 2.1448,
		2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860, 2.0796,
		2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484,
		2.0452, 2.0423 };
	double z = 1.959964, n = df, z3 = z * z * z, z5 = z3 * z * z;

	if (!df)
		return 0;
	if (df <= 30)
		return tab[df];
	return z + (z3 + z) / (4 * n) +
	       (5 * z5 + 16 * z3 + 3 * z) / (96 * n * n) +
	       (3 * z5 * z * z + 19 * z5 + 17 * z3 - 15 * z) /
	       (384 * n * n * n);
}

/*
 * Mean of @x[0..@n-1] and the half width of its 95% confidence interval
 * (Student's t over the sample standard deviation; 0 for one value).
 */
static void flows_ci(const double *x, u32 n, double *mean, double *half)
{
	double m = 0, v = 0;
	u32 i;

	for (i = 0; i < n; i++)
		m += x[i];
	m = n ? m / n : 0;
	for (i = 0; i < n; i++)
		v += (x[i] - m) * (x[i] - m);
	*mean = m;
	*half = n > 1 ? flows_t975(n - 1) * sqrt(v / (n - 1) / n) : 0;
}

/* The heap of progressive filling: a link's share when pushed. */
struct wf_ent {
	double share;
	u32 link, ver;
};

static void wf_push(struct wf_ent *h, u32 *n, struct wf_ent e)
{
	u32 i = (*n)++, p;

	while (i && h[p = (i - 1) / 2].share > e.share) {
		h[i] = h[p];
		i = p;
	}
	h[i] = e;
}

static struct wf_ent wf_pop(struct wf_ent *h, u32 *n)
{
	struct wf_ent top = h[0], e = h[--*n];
	u32 i = 0, c;

	while ((c = 2 * i + 1) < *n) {
		if (c + 1 < *n && h[c + 1].share < h[c].share)
			c++;
		if (h[c].share >= e.share)
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = e;
	return top;
}

/*
 * Max-min fair rates (progressive filling) of @nf flows, flow i crossing
 * links @lk[@off[i]..@off[i+1]-1] (ids below @nl, a link crossed twice
 * counted twice, as tools/ns3/evallib.py waterfill()), every link of
 * capacity 1, into @rate; returns their sum.  The link whose unfrozen
 * flows get the least share of what is left is filled first, its flows
 * frozen at that share, and so on: O((L + F x hops) log) with a heap of
 * shares, stale entries skipped by a version per link.
 */
static double flows_waterfill(u32 nf, const u32 *off, const u32 *lk, u32 nl,
		       double *rate)
{
	u32 *cnt, *ver, *loff, *lfl, i, j, l, nh = 0, at;
	double *cap, total = 0, share;
	struct wf_ent *heap, e;
	bool *done;

	cnt = calloc(nl, sizeof(*cnt));
	ver = calloc(nl, sizeof(*ver));
	loff = calloc((size_t)nl + 1, sizeof(*loff));
	lfl = malloc(((size_t)off[nf] + 1) * sizeof(*lfl));
	cap = malloc(((size_t)nl + 1) * sizeof(*cap));
	heap = malloc(((size_t)nl + off[nf] + 1) * sizeof(*heap));
	done = calloc((size_t)nf + 1, sizeof(*done));
	if (!cnt || !ver || !loff || !lfl || !cap || !heap || !done) {
		fprintf(stderr, "dpsim: out of memory\n");
		exit(1);
	}
	for (i = 0; i < off[nf]; i++)
		cnt[lk[i]]++;
	/* each link's flows, by counting */
	for (l = 0; l < nl; l++)
		loff[l + 1] = loff[l] + cnt[l];
	for (i = 0; i < nf; i++) {
		rate[i] = 0;
		for (j = off[i]; j < off[i + 1]; j++)
			lfl[loff[lk[j]] + --cnt[lk[j]]] = i;
	}
	for (l = 0; l < nl; l++) {
		cnt[l] = loff[l + 1] - loff[l];
		cap[l] = 1.0;
		if (cnt[l])
			wf_push(heap, &nh, (struct wf_ent){ 1.0 / cnt[l], l, 0 });
	}
	while (nh) {
		e = wf_pop(heap, &nh);
		l = e.link;
		if (e.ver != ver[l] || !cnt[l])
			continue;
		share = cap[l] / cnt[l];
		for (at = loff[l]; at < loff[l + 1]; at++) {
			i = lfl[at];
			if (done[i])
				continue;
			done[i] = true;
			rate[i] = share;
			total += share;
			for (j = off[i]; j < off[i + 1]; j++) {
				u32 m = lk[j];

				cap[m] -= share;
				cnt[m]--;
				ver[m]++;
				if (m != l && cnt[m])
					wf_push(heap, &nh, (struct wf_ent){
						cap[m] > 0 ? cap[m] / cnt[m] : 0,
						m, ver[m] });
			}
		}
	}
	free(cnt);
	free(ver);
	free(loff);
	free(lfl);
	free(cap);
	free(heap);
	free(done);
	return total;
}

/* One run's figures; with --fct its completion times (flows_fct()). */
struct flows_res {
	u32 flows, down, delivered, subflows, sub_delivered, fallback;
	u32 acklost;
	u64 hops, hopped;
	double pct;
	bool fct;
	u32 completed, events, fills;
	double fct_mean, fct_p50, fct_p99, fct_max;
};

/* What a run routes with: the fabric, its failures, the buffers. */
struct flows_ctx {
	const struct dp_topo *t;
	const struct opts *o;
	struct dp_fail_set *fs;
	struct pairs_disc pd;
	struct dp_walk w, wr;	/* a connection's data path, its ACKs' */
	bool disc;
	u32 hosts, eps, nl, acklost;
	u32 csel[DP_PATHS_MAX];	/* the mode's name "pM" of candidate M */
	u32 ncsel;
	u32 *off, *lk, nsub, nlk, maxlk;
	bool *subok;		/* subflow i delivered */
	u32 (*chosen)[DP_TTL_MAX + 2];
	u32 nchosen;
};

static u32 flows_ep_node(const struct flows_ctx *c, u32 e)
{
	return c->hosts ? e / c->hosts : e;
}

static u32 flows_ep_addr(const struct flows_ctx *c, u32 e)
{
	return c->hosts ? 0x0b000001U + e : 0x0a000001U + e;
}

/* Append link @l to the subflow being built. */
static void flows_link(struct flows_ctx *c, u32 l)
{
	if (c->nlk == c->maxlk) {
		c->maxlk = c->maxlk ? 2 * c->maxlk : 1 << 16;
		c->lk = realloc(c->lk, (size_t)c->maxlk * sizeof(*c->lk));
		if (!c->lk) {
			fprintf(stderr, "dpsim: out of memory\n");
			exit(1);
		}
	}
	c->lk[c->nlk++] = l;
}

/*
 * The directed links of hop @a -> @b: out of @a's port to its switch and
 * into @b's port from it, or one cable's direction; a live port first.
 */
static void flows_hop_links(struct flows_ctx *c, u32 a, u32 b)
{
	const struct dp_topo *t = c->t;
	struct dp_port_info pi;
	u32 p, best = t->nports;
	int q;

	for (p = 0; p < t->nports; p++) {
		if (dp_port_neigh_index(t, a, p, b) < 0)
			continue;
		if (best == t->nports)
			best = p;
		if (dp_fail_reachable(c->fs, a, p, b)) {
			best = p;
			break;
		}
	}
	if (best == t->nports)
		return;		/* cannot happen: the walker checked it */
	dp_port_info(t, a, best, &pi);
	flows_link(c, 2 * (a * t->nports + best));
	if (pi.kind != DP_PORT_SWITCH)
		return;
	q = dp_peer_port(t, a, best, b);
	if (q >= 0)
		flows_link(c, 2 * (b * t->nports + (u32)q) + 1);
}

/*
 * One walk from @s to @d (mode @sel, hash @h) into @w, the fallback
 * where ft models it; true when delivered.
 */
static bool flows_walk1(struct flows_ctx *c, struct dp_walk *w, u32 s, u32 d,
			u32 sel, u32 h, bool *fell)
{
	*fell = false;
	dp_walk(c->t, s, d, sel, h, c->fs, c->o->ttl, w);
	if (c->disc && !w->delivered && !w->bad_hop && !w->looped &&
	    dp_topo_discover_drop(c->t, w->reason) && w->path_len &&
	    pairs_fallback(c->t, c->fs, &c->pd, d, c->o->ttl, w))
		*fell = true;
	return w->delivered && !w->bad_hop;
}

/*
 * A TCP connection from @s to @d: its data (mode @sel, hash @h, the path
 * in c->w) and its ACKs back (@sel, hash @rh: the reversed five-tuple's,
 * as dpns3 hashes them; c->wr), each with the fallback where ft models
 * it.  Delivered when both are: data without ACKs is a connection that
 * never opens (its SYN-ACK lost), counted in c->acklost.
 */
static bool flows_walk(struct flows_ctx *c, u32 s, u32 d, u32 sel, u32 h,
		       u32 rh, bool *fell)
{
	bool ok, back;

	ok = flows_walk1(c, &c->w, s, d, sel, h, fell);
	if (!ok)
		return false;
	ok = flows_walk1(c, &c->wr, d, s, sel, rh, &back);
	*fell |= back;
	c->acklost += !ok;
	return ok;
}

/* Is c->w's path one a subflow of this flow already took? */
static bool flows_seen(const struct flows_ctx *c)
{
	u32 i;

	for (i = 0; i < c->nchosen; i++)
		if (c->chosen[i][0] == c->w.path_len &&
		    !memcmp(&c->chosen[i][1], c->w.path,
			    c->w.path_len * sizeof(u32)))
			return true;
	return false;
}

/* Close subflow: its links from the walk (delivered) or none. */
static void flows_sub(struct flows_ctx *c, u32 es, u32 ed, bool ok,
		      bool fell, struct flows_res *res)
{
	u32 i;

	res->subflows++;
	c->subok[c->nsub] = ok;
	if (ok) {
		res->sub_delivered++;
		res->fallback += fell;
		if (c->hosts)
			flows_link(c, 2 * c->t->nodes * c->t->nports + 2 * es);
		for (i = 0; i + 1 < c->w.path_len; i++)
			flows_hop_links(c, c->w.path[i], c->w.path[i + 1]);
		if (c->hosts)
			flows_link(c, 2 * c->t->nodes * c->t->nports +
				   2 * ed + 1);
		if (c->w.hops) {
			res->hops += c->w.hops;
			res->hopped++;
		}
		if (c->nchosen < DP_PATHS_MAX * 2 &&
		    c->w.path_len <= DP_TTL_MAX + 1) {
			c->chosen[c->nchosen][0] = c->w.path_len;
			memcpy(&c->chosen[c->nchosen][1], c->w.path,
			       c->w.path_len * sizeof(u32));
			c->nchosen++;
		}
	}
	c->off[++c->nsub] = c->nlk;
}

/*
 * Flow @es -> @ed of --paths K subflows: the first under the flow hash
 * of dpns3's first connection (one path: the kernel's), then the
 * mode's candidate paths (path selection's set, dp_route_npaths(), as
 * paths --disjoint walks them) from the hash's on, each once, then
 * dpns3's further connections' hashes.
 */
static void flows_flow(struct flows_ctx *c, u32 es, u32 ed,
		       struct flows_res *res)
{
	const struct dp_topo *t = c->t;
	u32 s = flows_ep_node(c, es), d = flows_ep_node(c, ed);
	u32 k = c->o->subflows ? c->o->subflows : 1, j, i, np = 0, m, h0;
	u32 dport = FLOWS_SINK_BASE + es * k, got = 0, next_hash = 0;
	struct dp_route_state a, b;
	bool fell, ok, any = false;

	c->nchosen = 0;
	h0 = flows_hash(flows_ep_addr(c, es), flows_ep_addr(c, ed),
			FLOWS_SPORT, (u16)dport);
	if (s == d) {
		/* two hosts of one server: up and down only */
		for (j = 0; j < k; j++) {
			c->w.path_len = 1;
			c->w.path[0] = s;
			c->w.hops = 0;
			flows_sub(c, es, ed, true, false, res);
		}
		res->delivered++;
		return;
	}
	if (k > 1)
		np = dp_route_npaths(t, s, d, c->o->sel);
	if (np > c->ncsel)
		np = c->ncsel;
	ok = flows_walk(c, s, d, c->o->sel, h0,
			flows_hash(flows_ep_addr(c, ed), flows_ep_addr(c, es),
				   (u16)dport, FLOWS_SPORT), &fell);
	any |= ok;
	flows_sub(c, es, ed, ok, fell, res);
	got = next_hash = 1;
	for (i = 0; i < np && got < k; i++) {
		m = (h0 + i) % np;
		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		dp_route_init(t, s, d, c->csel[m], 0, &a);
		dp_route_path_init(t, s, d, m, &b);
		if (memcmp(&a, &b, sizeof(a)))
			continue;	/* no mode walks candidate m */
		ok = flows_walk(c, s, d, c->csel[m], 0, 0, &fell);
		if (ok && flows_seen(c))
			continue;
		any |= ok;
		flows_sub(c, es, ed, ok, fell, res);
		got++;
	}
	for (; got < k; got++, next_hash++) {
		ok = flows_walk(c, s, d, c->o->sel,
				flows_hash(flows_ep_addr(c, es),
					   flows_ep_addr(c, ed),
					   (u16)(FLOWS_SPORT + next_hash),
					   (u16)(dport + next_hash)),
				flows_hash(flows_ep_addr(c, ed),
					   flows_ep_addr(c, es),
					   (u16)(dport + next_hash),
					   (u16)(FLOWS_SPORT + next_hash)),
				&fell);
		any |= ok;
		flows_sub(c, es, ed, ok, fell, res);
	}
	res->delivered += any;
}

/* Flow @f's size: --sizes' LIST[@f mod n], else 1. */
static double flows_size(const struct opts *o, u32 f)
{
	return o->nsizes ? o->sizes[f % o->nsizes] : 1.0;
}

/* dpns3's quantile(): the value of rank ceil(@q x @n) of sorted @v. */
static double flows_quantile(const double *v, u32 n, double q)
{
	u32 i = (u32)ceil(q * n);

	return n ? v[i ? i - 1 : 0] : 0;
}

static int flows_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Are the rates of the @na subflows still sending (@act, @rate) still
 * max-min fair, now that the subflows whose links carry stamp @ev in
 * @stamp have finished?  They are when each has a bottleneck the
 * finished ones did not cross: a link its rates fill (within rounding)
 * where no subflow is faster; removing flows from elsewhere leaves every
 * such link full and the subflow the fastest there, and the max-min
 * allocation is the one where each flow has a bottleneck (Bertsekas and
 * Gallager).  With equal sizes this always holds: the first to finish
 * are the fastest, on nobody's bottleneck.  @load, @top: room for the
 * links.
 */
static bool flows_fct_still_fair(const struct flows_ctx *c, const u32 *act,
				 const double *rate, u32 na, const u32 *stamp,
				 u32 ev, double *load, double *top)
{
	u32 i, j, at, l;

	for (j = 0; j < na; j++)
		for (at = c->off[act[j]]; at < c->off[act[j] + 1]; at++)
			load[c->lk[at]] = top[c->lk[at]] = 0;
	for (j = 0; j < na; j++)
		for (at = c->off[act[j]]; at < c->off[act[j] + 1]; at++) {
			l = c->lk[at];
			load[l] += rate[j];
			if (rate[j] > top[l])
				top[l] = rate[j];
		}
	for (j = 0; j < na; j++) {
		i = act[j];
		for (at = c->off[i]; at < c->off[i + 1]; at++) {
			l = c->lk[at];
			if (stamp[l] != ev && load[l] >= 1 - 1e-9 &&
			    rate[j] >= top[l] * (1 - 1e-9))
				break;
		}
		if (at == c->off[i + 1])
			return false;
	}
	return true;
}

/*
 * --fct: flow completion.  Every flow of the permutation carries the
 * same size (--sizes: flow f LIST[f mod n]), its K subflows 1/K of it
 * each (dpns3's --bytes split over --paths connections), all starting
 * at 0.  The rates are the max-min fair ones of the subflows still
 * sending (flows_waterfill() over them), recomputed when one finishes
 * unless they are still fair (flows_fct_still_fair()): the next event
 * is the least remaining / rate.  A flow completes when its last
 * subflow does, never when one of them is undelivered (as a dpns3 flow
 * whose connection's packets are dropped); its delivered subflows take
 * their share until they finish.  Times in units of size 1 / link rate
 * (a flow alone on its path completes at 1), over the flows that
 * complete: mean, p50, p99 (dpns3's quantile()) and the last
 * (all-flow).  @rate: room for c->nsub rates.
 */
static int flows_fct(const struct flows_ctx *c, u32 nflows, u32 k,
		     double *rate, struct flows_res *res)
{
	u32 *act, *off2, *lk2, *stamp, na = 0, n2, i, j, f, x, at, nd = 0;
	double *rem, *fin, *done, *load, *top, now = 0, dt;
	bool fill = true;
	int err = 0;

	act = malloc(((size_t)c->nsub + 1) * sizeof(*act));
	off2 = malloc(((size_t)c->nsub + 1) * sizeof(*off2));
	lk2 = malloc(((size_t)c->nlk + 1) * sizeof(*lk2));
	rem = malloc(((size_t)c->nsub + 1) * sizeof(*rem));
	fin = malloc(((size_t)c->nsub + 1) * sizeof(*fin));
	done = malloc(((size_t)nflows + 1) * sizeof(*done));
	stamp = calloc((size_t)c->nl + 1, sizeof(*stamp));
	load = malloc(((size_t)c->nl + 1) * sizeof(*load));
	top = malloc(((size_t)c->nl + 1) * sizeof(*top));
	if (!act || !off2 || !lk2 || !rem || !fin || !done || !stamp ||
	    !load || !top) {
		fprintf(stderr, "dpsim: out of memory\n");
		err = 1;
		goto out;
	}
	res->fct = true;
	for (i = 0; i < c->nsub; i++) {
		fin[i] = c->subok[i] ? 0 : -1;
		rem[i] = flows_size(c->o, i / k) / k;
		/* a delivered subflow crosses a link: cannot be empty */
		if (c->subok[i] && c->off[i + 1] > c->off[i])
			act[na++] = i;
	}
	while (na) {
		if (fill) {
			off2[0] = 0;
			for (j = 0; j < na; j++) {
				i = act[j];
				memcpy(&lk2[off2[j]], &c->lk[c->off[i]],
				       (c->off[i + 1] - c->off[i]) *
				       sizeof(*lk2));
				off2[j + 1] = off2[j] + c->off[i + 1] -
					      c->off[i];
			}
			flows_waterfill(na, off2, lk2, c->nl, rate);
			res->fills++;
		}
		dt = -1;
		for (j = 0; j < na; j++)
			if (rate[j] > 0 && (dt < 0 || rem[act[j]] / rate[j] < dt))
				dt = rem[act[j]] / rate[j];
		if (dt < 0) {
			fprintf(stderr, "dpsim: flows --fct: no subflow has a "
				"rate\n");
			err = 1;
			goto out;
		}
		now += dt;
		res->events++;
		/* those within rounding of the first to finish finish too */
		for (j = 0, n2 = 0; j < na; j++) {
			i = act[j];
			rem[i] -= rate[j] * dt;
			if (rem[i] <= 1e-9 * flows_size(c->o, i / k) / k) {
				fin[i] = now;
				for (at = c->off[i]; at < c->off[i + 1]; at++)
					stamp[c->lk[at]] = res->events;
			} else {
				rate[n2] = rate[j];
				act[n2++] = i;
			}
		}
		na = n2;
		fill = !flows_fct_still_fair(c, act, rate, na, stamp,
					     res->events, load, top);
	}
	for (f = 0; f < nflows; f++) {
		double last = 0;

		for (x = 0; x < k; x++) {
			i = f * k + x;
			if (fin[i] < 0)
				break;
			if (fin[i] > last)
				last = fin[i];
		}
		if (x == k)
			done[nd++] = last;
	}
	qsort(done, nd, sizeof(*done), flows_cmp_double);
	res->completed = nd;
	for (f = 0; f < nd; f++)
		res->fct_mean += done[f];
	res->fct_mean = nd ? res->fct_mean / nd : 0;
	res->fct_p50 = flows_quantile(done, nd, 0.5);
	res->fct_p99 = flows_quantile(done, nd, 0.99);
	res->fct_max = flows_quantile(done, nd, 1.0);
out:
	free(act);
	free(off2);
	free(lk2);
	free(rem);
	free(fin);
	free(done);
	free(stamp);
	free(load);
	free(top);
	return err;
}

/*
 * --fail-switches S: S random switches (distinct) down, as every link
 * of a member to it failed: what a server sees of a dead switch.
 */
static void flows_fail_switches(const struct dp_topo *t,
				struct dp_fail_set *fs, u32 nsw,
				struct rng *r)
{
	struct dp_port_info pi;
	u8 *dead;
	u32 id, p, n = 0;

	if (!nsw || !t->switches)
		return;
	if (nsw > t->switches)
		nsw = t->switches;
	dead = calloc(t->switches, 1);
	if (!dead) {
		fprintf(stderr, "dpsim: out of memory\n");
		exit(1);
	}
	while (n < nsw) {
		id = rng_below(r, t->switches);
		n += !dead[id];
		dead[id] = 1;
	}
	for (id = 0; id < t->nodes; id++)
		for (p = 0; p < t->nports; p++) {
			dp_port_info(t, id, p, &pi);
			if (pi.kind == DP_PORT_SWITCH && pi.sw < t->switches &&
			    dead[pi.sw] && !dp_fail_link(fs, id, p))
				dp_fail_set_link(fs, id, p);
		}
	free(dead);
}

/* One run: the failures and the permutation of @seed, routed, filled. */
static int flows_one(const struct dp_topo *t, struct opts *o, u64 seed,
		     struct flows_res *res)
{
	struct flows_ctx c = { .t = t, .o = o };
	struct rng r = { seed };
	struct dp_fail_set fs;
	u32 *live = NULL, *to = NULL, nlive = 0, e, i, j, tmp, m;
	double *rate = NULL, total = 0;
	char name[16];
	int err = 0, sel;

	memset(res, 0, sizeof(*res));
	if (fs_init(&fs, t)) {
		fprintf(stderr, "dpsim: out of memory\n");
		return 1;
	}
	c.fs = &fs;
	err = ft_failures(t, &fs, o, &r);
	if (err)
		goto out;
	flows_fail_switches(t, &fs, o->fail_switches, &r);
	c.hosts = o->hosts;
	c.eps = c.hosts ? t->nodes * c.hosts : t->nodes;
	c.nl = 2 * t->nodes * t->nports + 2 * (c.hosts ? c.eps : 0);
	c.disc = o->discover && (o->discover_set || !o->sel);
	for (m = 0; m < DP_PATHS_MAX; m++) {
		snprintf(name, sizeof(name), "p%u", m);
		sel = dp_sel_parse(t, name);
		if (sel < 0)
			break;
		c.csel[c.ncsel++] = (u32)sel;
	}
	live = malloc((size_t)c.eps * sizeof(*live));
	to = malloc((size_t)c.eps * sizeof(*to));
	c.w.path_max = o->ttl + 1;
	c.w.path = calloc(c.w.path_max, sizeof(*c.w.path));
	c.wr.path_max = o->ttl + 1;
	c.wr.path = calloc(c.wr.path_max, sizeof(*c.wr.path));
	c.chosen = calloc(DP_PATHS_MAX * 2, sizeof(*c.chosen));
	c.pd.dist = calloc(t->nodes, 1);
	c.pd.queue = calloc(t->nodes, sizeof(*c.pd.queue));
	c.pd.sw = calloc(t->switches + 1, 1);
	if (!live || !to || !c.w.path || !c.wr.path || !c.chosen ||
	    !c.pd.dist || !c.pd.queue || !c.pd.sw) {
		fprintf(stderr, "dpsim: out of memory\n");
		err = 1;
		goto out;
	}
	/* dpns3's make_pairs(): Sattolo over the live endpoints */
	for (e = 0; e < c.eps; e++)
		if (!dp_fail_node(&fs, flows_ep_node(&c, e)))
			live[nlive++] = e;
	if (nlive < 2) {
		err = bad_usage("flows: fewer than two live servers%s", "");
		goto out;
	}
	memcpy(to, live, (size_t)nlive * sizeof(*to));
	for (i = nlive - 1; i > 0; i--) {
		j = rng_below(&r, i);
		tmp = to[i];
		to[i] = to[j];
		to[j] = tmp;
	}
	res->flows = nlive;
	res->down = c.eps - nlive;
	c.off = malloc(((size_t)nlive * (o->subflows ? o->subflows : 1) + 1) *
		       sizeof(*c.off));
	if (!c.off) {
		fprintf(stderr, "dpsim: out of memory\n");
		err = 1;
		goto out;
	}
	c.subok = malloc(((size_t)nlive * (o->subflows ? o->subflows : 1) + 1) *
			 sizeof(*c.subok));
	if (!c.subok) {
		fprintf(stderr, "dpsim: out of memory\n");
		err = 1;
		goto out;
	}
	c.off[0] = 0;
	for (i = 0; i < nlive; i++)
		flows_flow(&c, live[i], to[i], res);
	res->acklost = c.acklost;
	rate = malloc(((size_t)c.nsub + 1) * sizeof(*rate));
	if (!rate) {
		fprintf(stderr, "dpsim: out of memory\n");
		err = 1;
		goto out;
	}
	total = flows_waterfill(c.nsub, c.off, c.lk, c.nl, rate);
	res->pct = 100.0 * total / nlive;
	if (o->fct)
		err = flows_fct(&c, nlive, o->subflows ? o->subflows : 1, rate,
				res);
out:
	free(rate);
	free(c.subok);
	free(c.off);
	free(c.lk);
	free(live);
	free(to);
	free(c.w.path);
	free(c.wr.path);
	free(c.chosen);
	free(c.pd.dist);
	free(c.pd.queue);
	free(c.pd.sw);
	fs_free(&fs);
	return err;
}

/* flows' lines: the fabric, each seed, then the mean and its interval. */
static void flows_head(const struct dp_topo *t, const struct opts *o)
{
	printf("%s: %u servers, %u switches", describe(t), t->nodes,
	       t->switches);
	if (o->hosts)
		printf(", %u hosts each", o->hosts);
	printf("; mode %s, %u path%s a flow\n", dp_sel_name(t, o->sel),
	       o->subflows, o->subflows > 1 ? "s" : "");
	if (o->populate)
		printf("partially built: %u%% of the servers, in %s order\n",
		       o->populate, o->order_random ? "random" : "growth");
	if (o->failed || o->fail_links || o->fail_switches)
		printf("failed: %u servers, %u links, %u switches (discovery "
		       "fallback %s)\n", o->failed, o->fail_links,
		       o->fail_switches, o->discover &&
		       (o->discover_set || !o->sel) ? "on" : "off");
}

static void flows_seed_line(const char *pre, u64 seed,
			    const struct flows_res *r)
{
	printf("  %sseed %llu: %u flows, delivered %u", pre,
	       (unsigned long long)seed, r->flows, r->delivered);
	if (r->down)
		printf(" (%u endpoints down)", r->down);
	if (r->subflows != r->flows)
		printf(", subflows %u of %u", r->sub_delivered, r->subflows);
	if (r->fallback)
		printf(", %u by the fallback", r->fallback);
	if (r->acklost)
		printf(", %u without an ACK path", r->acklost);
	printf("; max-min %.2f%%, hops %.3f", r->pct,
	       r->hopped ? (double)r->hops / r->hopped : 0);
	if (r->fct)
		printf("; completed %u, mean %.3f, p50 %.3f, p99 %.3f, "
		       "all-flow %.3f", r->completed, r->fct_mean, r->fct_p50,
		       r->fct_p99, r->fct_max);
	printf("\n");
}

/*
 * --fct's last line: completion in size / link rate over the seeds,
 * each figure's mean and 95% interval; @x: room for @n values.
 */
static void flows_fct_summary(const struct flows_res *rs, u32 n, double *x)
{
	static const char *const name[] = { "mean", "p50", "p99", "all-flow" };
	u64 fl = 0, done = 0;
	double m, h;
	u32 i, f;

	printf("completion (size / link rate):");
	for (f = 0; f < 4; f++) {
		for (i = 0; i < n; i++)
			x[i] = f == 0 ? rs[i].fct_mean : f == 1 ? rs[i].fct_p50 :
			       f == 2 ? rs[i].fct_p99 : rs[i].fct_max;
		flows_ci(x, n, &m, &h);
		printf("%s %s %.3f", f ? "," : "", name[f], m);
		if (n > 1)
			printf(" +-%.3f", h);
	}
	if (n > 1)
		printf(" (95%% CI, t %.3f, %u seeds)", flows_t975(n - 1), n);
	for (i = 0; i < n; i++) {
		fl += rs[i].flows;
		done += rs[i].completed;
	}
	printf("; completed %llu of %llu flows\n", (unsigned long long)done,
	       (unsigned long long)fl);
}

static void flows_summary(const struct flows_res *rs, u32 n)
{
	double *x = calloc((size_t)n + 1, sizeof(*x)), m, h, hops = 0;
	u64 fl = 0, dl = 0;
	u32 i;

	if (!x)
		return;
	for (i = 0; i < n; i++) {
		x[i] = rs[i].pct;
		hops += rs[i].hopped ? (double)rs[i].hops / rs[i].hopped : 0;
		fl += rs[i].flows;
		dl += rs[i].delivered;
	}
	flows_ci(x, n, &m, &h);
	printf("max-min %.2f%%", m);
	if (n > 1)
		printf(" +-%.2f (95%% CI, t %.3f, %u seeds)", h,
		       flows_t975(n - 1), n);
	printf("; hops %.3f; delivered %llu of %llu flows\n", hops / n,
	       (unsigned long long)dl, (unsigned long long)fl);
	if (rs[0].fct)
		flows_fct_summary(rs, n, x);
	free(x);
}

/* --sizes LIST: positive sizes, comma-separated, for --fct. */
static int flows_sizes(struct opts *o)
{
	const char *p = o->sizes_text;
	char *end;
	double v;

	o->nsizes = 0;
	if (!p)
		return 0;
	if (!o->fct)
		return bad_usage("--sizes is for flows --fct%s", "");
	for (;;) {
		errno = 0;
		v = strtod(p, &end);
		if (end == p || errno || !(v > 0) || v > 1e12 ||
		    (*end && *end != ',') ||
		    o->nsizes == sizeof(o->sizes) / sizeof(o->sizes[0]))
			return bad_usage("--sizes '%s': up to 64 positive sizes, "
					 "comma-separated", o->sizes_text);
		o->sizes[o->nsizes++] = v;
		if (!*end)
			return 0;
		p = end + 1;
	}
}

static int flows_check(struct opts *o, const struct dp_topo *t)
{
	if (o->json || o->csv || o->dot)
		return bad_usage("flows prints text only (no --json, --csv, --dot)%s",
				 "");
	if (o->fail_frac_set)
		o->fail_links = (u32)(o->fail_frac * ft_links(t) + 0.5);
	if ((u64)o->failed + 2 > t->nodes)
		return bad_usage("--failed must leave two live servers%s", "");
	if (o->hosts && (u64)t->nodes * o->hosts > 1U << 24)
		return bad_usage("flows: too many hosts%s", "");
	return flows_sizes(o);
}

/* flows: --seeds N runs, run i of the permutation seed --seed S + i. */
static int cmd_flows(struct opts *o)
{
	u32 n = o->nseeds, i;
	struct flows_res *rs;
	struct dp_topo t;
	int err = need_topo(o, &t);

	if (!err)
		err = flows_check(o, &t);
	if (err)
		return err;
	rs = calloc(n, sizeof(*rs));
	if (!rs)
		return 1;
	flows_head(&t, o);
	for (i = 0; !err && i < n; i++) {
		err = flows_one(&t, o, o->seed + i, &rs[i]);
		if (!err)
			flows_seed_line("", o->seed + i, &rs[i]);
	}
	if (!err)
		flows_summary(rs, n);
	free(rs);
	return err;
}

/*
 * flows on an S2 fabric the kernel builds (derived or plan mode): run
 * i's fabric of seed --seed S + i (default 0, the kernel's), its
 * permutation of seed S + i + 1, as tools/ns3/eval-fabric.sh pairs
 * them (dpns3 --s2-seed S + i --seed S + i + 1).
 */
static int cmd_s2_flows(struct opts *o)
{
	u32 n = o->nseeds, i;
	char pre[40];
	u64 seed0 = o->seed;
	struct flows_res *rs;
	struct s2fabric f;
	int err = 0;

	rs = calloc(n, sizeof(*rs));
	if (!rs)
		return 1;
	for (i = 0; !err && i < n; i++) {
		o->seed = seed0 + i;
		err = s2_fabric_open(&f, o, "flows");
		if (!err && !i)
			err = need_sel(o, &f.t);
		if (!err)
			err = flows_check(o, &f.t);
		if (!err) {
			if (!i)
				flows_head(&f.t, o);
			err = flows_one(&f.t, o, seed0 + i + 1, &rs[i]);
		}
		if (!err) {
			snprintf(pre, sizeof(pre), "fabric seed %llu, ",
				 (unsigned long long)(seed0 + i));
			flows_seed_line(pre, seed0 + i + 1, &rs[i]);
		}
		s2_fabric_free(&f);
	}
	o->seed = seed0;
	if (!err)
		flows_summary(rs, n);
	free(rs);
	return err;
}

/* "[out, in]": the port of @from that reaches @to, and @to's port there. */
/* A picture is for a small fabric: say so instead of drawing a blot. */
#define DOT_MAX_NODES 1000
static bool dot_size_ok(const struct dp_topo *t)
{
	if (t->nodes <= DOT_MAX_NODES)
		return true;
	fprintf(stderr, "dpsim: --dot: %u servers is too many to draw "
		"(at most %u)\n", t->nodes, DOT_MAX_NODES);
	return false;
}

/* dp_plan_dot()'s question: is server @id (port -1) or its link down? */
static bool dot_failed(const void *ctx, u32 id, int port)
{
	const struct dp_fail_set *fs = ctx;

	return port < 0 ? dp_fail_node(fs, id) : dp_fail_link(fs, id, port);
}

/* A hop's port at both ends, [from's, to's] (-1: none). */
static void json_hop_ports(const struct dp_topo *t, u32 from, u32 to)
{
	int p = dp_hop_port(t, from, to);

	json_open_arr(NULL);
	json_int(NULL, p);
	json_int(NULL, p < 0 ? -1 : dp_peer_port(t, from, p, to));
	json_close_arr();
}

/*
 * route --json: the walk, each hop's ports, and the header it starts with
 * (S2 plan mode: its flags have the coordinates bit, and "coords" the
 * destination's coordinates that follow the header on the wire).
 */
static void route_json(const struct dp_topo *t, const struct opts *o,
		       u32 src, u32 dst, const struct dp_walk *w)
{
	char a[DP_ADDR_TEXT_MAX];
	struct dp_route_state st0;
	u32 i, x[DP_COORDS_MAX];

	/* The header a source puts on the flow: crafted-frame tools. */
	dp_route_init(t, src, dst, o->sel, o->hash, &st0);
	/*
	 * A plan-mode source resolves the destination's coordinates and
	 * sends them with every frame (kernel tx.c; dp_walk() does the
	 * same): a frame crafted without them is not routed.
	 */
	if (dst < t->nodes)
		dp_route_set_coords(t, &st0, x,
				    dp_table_coords(t, dst, x, DP_COORDS_MAX));
	json_init(false);
	json_open_obj(NULL);
	json_bool("delivered", w->delivered);
	json_uint("hops", w->hops);
	json_open_arr("path");
	for (i = 0; i < w->path_len; i++) {
		dp_addr_format(t, w->path[i], a, sizeof(a));
		json_str(NULL, a);
	}
	json_close_arr();
	json_open_arr("phases");
	for (i = 0; i + 1 < w->path_len; i++)
		json_str(NULL, dp_phase_name(t, w->phase[i]));
	json_close_arr();
	/* Each hop's port at both ends: what a cable chain needs. */
	json_open_arr("ports");
	for (i = 0; i + 1 < w->path_len; i++)
		json_hop_ports(t, w->path[i], w->path[i + 1]);
	json_close_arr();
	json_str("reason", w->looped ? "ttl_expired" :
		 dp_drop_reason_name(t, w->reason));
	json_bool("looped", w->looped);
	json_bool("bad_hop", w->bad_hop);
	json_uint("src_id", src);
	json_uint("dst_id", dst);
	json_open_obj("header");
	json_uint("ttl", dp_topo_ttl(t));
	json_uint("flags", st0.flags);
	json_uint("rword", st0.word);
	json_uint("waypoint", st0.waypoint);
	if (st0.ncoords) {
		json_open_arr("coords");
		for (i = 0; i < st0.ncoords; i++)
			json_uint(NULL, st0.coords[i]);
		json_close_arr();
	}
	json_close_obj();
	json_close_obj();
	json_end();
}

static void route_text(const struct dp_topo *t, const struct opts *o,
		       u32 src, u32 dst, const struct dp_fail_set *fs,
		       const struct dp_walk *w)
{
	char a[DP_ADDR_TEXT_MAX], b[DP_ADDR_TEXT_MAX];
	u32 i;

	dp_addr_format(t, src, a, sizeof(a));
	dp_addr_format(t, dst, b, sizeof(b));
	printf("%s: route %s -> %s, %u failed servers\n", describe(t), a, b,
	       fs->nfailed);
	for (i = 0; i + 1 < w->path_len; i++)
		dp_hop_print(stdout, t, i + 1, w->path[i], w->path[i + 1],
			     w->phase[i]);
	if (w->delivered)
		printf("delivered in %u hops\n", w->hops);
	else if (w->looped)
		printf("NOT delivered: TTL %u expired\n", o->ttl);
	else if (w->bad_hop)
		printf("NOT delivered: bad hop (bug)\n");
	else
		printf("dropped after %u hops: %s\n", w->hops,
		       dp_drop_reason_name(t, w->reason));
}

/*
 * route's ends and failures: --from, --to, --fail, and neither end
 * failed.  0 or an exit status (@fs is set up only when 0).
 */
static int route_setup(const struct dp_topo *t, const struct opts *o,
		       u32 *src, u32 *dst, struct dp_fail_set *fs)
{
	int err;

	if (!o->from || !o->to)
		return bad_usage("route needs --from and --to%s", "");
	err = parse_addr(t, o->from, src);
	if (!err)
		err = parse_addr(t, o->to, dst);
	if (err)
		return err;
	if (fs_init(fs, t)) {
		fprintf(stderr, "dpsim: out of memory\n");
		return 1;
	}
	err = parse_fail(t, fs, o->fail);
	if (!err && (dp_fail_node(fs, *src) || dp_fail_node(fs, *dst))) {
		fprintf(stderr, "dpsim: source or destination is failed\n");
		err = 1;
	}
	if (err)
		fs_free(fs);
	return err;
}

/* route on topology @t (need_topo(), or an S2 fabric: cmd_s2_route()). */
static int route_on(const struct dp_topo *t, struct opts *o)
{
	struct dp_fail_set fs;
	struct dp_walk w = { 0 };
	u32 src, dst, max;
	int err;

	err = route_setup(t, o, &src, &dst, &fs);
	if (err)
		return err;
	max = o->ttl + 1;
	w.path = calloc(max, sizeof(*w.path));
	w.phase = calloc(max, 1);
	w.path_max = max;
	if (o->all_hashes) {
		err = route_all_hashes(t, &fs, src, dst, o, &w);
	} else {
		dp_walk(t, src, dst, o->sel, o->hash, &fs, o->ttl, &w);
		/* the fabric, the failures and the path, in one picture */
		if (o->dot && (!dot_size_ok(t) ||
			       dp_plan_dot(stdout, t, w.path, w.path_len,
					   dot_failed, &fs)))
			err = 1;
		else if (o->json && !o->dot)
			route_json(t, o, src, dst, &w);
		else if (!o->dot)
			route_text(t, o, src, dst, &fs, &w);
		err = w.bad_hop || err;
	}
	free(w.path);
	free(w.phase);
	fs_free(&fs);
	return err;
}

static int cmd_route(struct opts *o)
{
	struct dp_topo t;
	int err = need_topo(o, &t);

	return err ? err : route_on(&t, o);
}

/* ---- plan ---- */

/*
 * plan on topology @t; @s2: an S2 fabric in plan mode (cmd_s2_plan()),
 * whose plan document (per node its coordinates, per port its peer) is
 * what the kernel's fabric is made of, else NULL.
 */
static int plan_on(struct opts *o, const struct dp_topo *t,
		   const struct s2fabric *s2)
{
	int err;

	if (o->csv + o->json + o->dot > 1)
		return bad_usage("--csv, --json and --dot are exclusive%s", "");
	if (o->dot && o->order)
		return bad_usage("--dot draws the fabric, not its order%s", "");
	if (o->dot)
		return dot_size_ok(t) ? dp_plan_dot(stdout, t, NULL, 0, NULL,
						     NULL) : 1;
	if (s2 && s2->plan && !o->order)
		return dp_s2plan_print(stdout, &s2->pg, s2->before.x ?
				       &s2->before : NULL, o->csv ?
				       DP_PLAN_CSV : o->json ? DP_PLAN_JSON :
				       DP_PLAN_TEXT) ? 1 : 0;
	if (o->order_random)
		return bad_usage("plan prints the growth order only (--order "
				 "grow)%s", "");
	if (o->order) {
		err = dp_grow_print(stdout, t, o->csv ? DP_PLAN_CSV :
				    o->json ? DP_PLAN_JSON : DP_PLAN_TEXT);
		if (err)
			fprintf(stderr, "dpsim: no growth order: %s\n",
				strerror(-err));
		return err ? 1 : 0;
	}
	return dp_plan_print(stdout, t, o->csv ? DP_PLAN_CSV :
			     o->json ? DP_PLAN_JSON : DP_PLAN_TEXT);
}

static int cmd_plan(struct opts *o)
{
	struct dp_topo t;
	int err = need_topo(o, &t);

	return err ? err : plan_on(o, &t, NULL);
}

/* ---- bench ---- */

#define BENCH_N 65536

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Cheap oracle like a kernel neighbour-table lookup: one bitmap test. */
static bool bench_reachable(const void *ctx, u32 self, u32 port, u32 peer)
{
	const struct dp_fail_set *fs = ctx;

	(void)self;
	(void)port;
	return !dp_fail_node(fs, peer);
}

struct bench_case {
	u32 self;
	struct dp_route_state st;
};

/*
 * One decision, out of line so that "valgrind --tool=callgrind
 * --toggle-collect=bench_decide" counts exactly the instructions of the
 * routing decisions (tools/dpsim/bench-callgrind.sh).
 */
static noinline u32
bench_decide(const struct dp_topo *t, const struct bench_case *bc,
	     const struct dp_view *v)
{
	struct dp_route_state st = bc->st;
	struct dp_hop hop;

	dp_route(t, bc->self, &st, v, &hop);
	return hop.next;
}

/*
 * Median ns per call of @what (0 route_init, 1 failure-free route, 2 route
 * with the view @v), for packets sent with selector @sel.
 */
static double bench_one(const struct dp_topo *t, const struct bench_case *bc,
			const struct dp_view *v, int what, u32 sel, u32 runs)
{
	double *res = calloc(runs, sizeof(double));
	volatile u32 sink = 0;
	struct dp_route_state st;
	u32 run, rep, i, reps = 16;
	double t0, med;

	for (run = 0; run < runs; run++) {
		t0 = now_ns();
		for (rep = 0; rep < reps; rep++) {
			for (i = 0; i < BENCH_N; i++) {
				if (what == 0) {
					dp_route_init(t, bc[i].self,
						      bc[i].st.dst, sel, i, &st);
					sink += st.flags;
					continue;
				}
				sink += bench_decide(t, &bc[i],
						     what == 1 ? NULL : v);
			}
		}
		res[run] = (now_ns() - t0) / ((double)reps * BENCH_N);
	}
	qsort(res, runs, sizeof(double), cmp_double);
	med = res[runs / 2];
	free(res);
	(void)sink;
	return med;
}

/*
 * Decisions at random points of random paths of mode @sel: route a random
 * pair failure-free and take a random intermediate server with the state
 * the packet has there.
 */
static void bench_cases(const struct dp_topo *t, u32 sel, struct rng *r,
			struct bench_case *bc)
{
	struct dp_walk w = { 0 };
	u32 i, s, d, j, at;

	w.path = calloc(t->max_hops + 1, sizeof(u32));
	w.path_max = t->max_hops + 1;
	for (i = 0; i < BENCH_N; i++) {
		s = rng_below(r, t->nodes);
		do {
			d = rng_below(r, t->nodes);
		} while (d == s);
		dp_walk(t, s, d, sel, i, NULL, t->max_hops, &w);
		at = rng_below(r, w.path_len - 1);
		dp_route_init(t, s, d, sel, i, &bc[i].st);
		/* replay to the chosen server: the state it sees */
		for (j = 0; j < at; j++) {
			struct dp_hop hop;

			dp_route(t, w.path[j], &bc[i].st, NULL, &hop);
		}
		bc[i].self = w.path[at];
	}
	free(w.path);
}

struct bench_res {
	double init, route, view, fail;
};

/*
 * Mode @sel: the decisions of bench_cases(), and with 1% failed servers
 * (@nfail) decisions at the source of live pairs.
 */
static void bench_mode(const struct dp_topo *t, struct dp_fail_set *fs,
		       u32 sel, u32 nfail, const struct opts *o, struct rng *r,
		       struct bench_case *bc, struct bench_case *bf,
		       struct bench_res *res)
{
	struct dp_view view = { .reachable = bench_reachable, .ctx = fs };
	u32 i, s, d;

	bench_cases(t, sel, r, bc);
	res->init = bench_one(t, bc, NULL, 0, sel, o->runs);
	res->route = bench_one(t, bc, NULL, 1, sel, o->runs);
	res->view = bench_one(t, bc, &view, 2, sel, o->runs);
	dp_fail_clear(fs);
	fs_random(fs, r, nfail, 0);
	for (i = 0; i < BENCH_N; i++) {
		s = random_live(fs, r);
		do {
			d = random_live(fs, r);
		} while (d == s);
		dp_route_init(t, s, d, sel, i, &bf[i].st);
		bf[i].self = s;
	}
	res->fail = bench_one(t, bf, &view, 2, sel, o->runs);
	dp_fail_clear(fs);
}

static void bench_json(const struct dp_topo *t, const struct opts *o,
		       u32 nfail, const struct bench_res *res, u32 nsel)
{
	u32 sel;

	json_fabric_begin(t);
	json_uint("runs", o->runs);
	json_uint("failed", nfail);
	json_open_arr("modes");
	for (sel = 0; sel < nsel; sel++) {
		json_open_obj(NULL);
		json_str("mode", dp_sel_name(t, sel));
		json_double("ns_route_init", res[sel].init, 2);
		json_double("ns_route", res[sel].route, 2);
		json_double("ns_route_view", res[sel].view, 2);
		json_double("ns_route_failures", res[sel].fail, 2);
		json_close_obj();
	}
	json_close_arr();
	json_close_obj();
	json_end();
}

static void bench_text(const struct dp_topo *t, const struct opts *o,
		       u32 nfail, const struct bench_res *res, u32 nsel)
{
	u32 sel;

	printf("%s, %u decisions x 16, median of %u runs:\n", describe(t),
	       BENCH_N, o->runs);
	for (sel = 0; sel < nsel; sel++) {
		printf("  mode %s:\n", dp_sel_name(t, sel));
		printf("    dp_route_init:                  %6.2f ns\n",
		       res[sel].init);
		printf("    dp_route, failure-free:         %6.2f ns\n",
		       res[sel].route);
		printf("    dp_route + view, no failures:   %6.2f ns\n",
		       res[sel].view);
		printf("    dp_route + view, %u failed (1%%): %6.2f ns "
		       "(at the source)\n", nfail, res[sel].fail);
	}
}

static int cmd_bench(struct opts *o)
{
	struct opts oo = *o;
	struct dp_topo t;
	struct dp_fail_set fs;
	struct rng r = { o->seed };
	struct bench_case *bc, *bf;
	struct bench_res res[2];
	u32 i, nfail, sel, nsel;
	volatile u32 sink = 0;
	int err;

	if (!oo.n && !oo.k && !strcmp(oo.topo, "dpillar")) {
		oo.n = 48;
		oo.k = 4;
	}
	err = need_topo(&oo, &t);
	if (err)
		return err;
	bc = calloc(BENCH_N, sizeof(*bc));
	bf = calloc(BENCH_N, sizeof(*bf));
	if (!bc || !bf || fs_init(&fs, &t)) {
		fprintf(stderr, "dpsim: out of memory\n");
		return 1;
	}
	if (o->decisions) {
		/* callgrind: exactly N failure-free decisions of --mode */
		bench_cases(&t, oo.sel, &r, bc);
		for (i = 0; i < o->decisions; i++)
			sink += bench_decide(&t, &bc[i % BENCH_N], NULL);
		(void)sink;
		printf("%u decisions, mode %s\n", o->decisions,
		       dp_sel_name(&t, oo.sel));
	} else {
		/* The default mode and the next (DPillar: shortest, paper). */
		nsel = dp_sel_count(&t) < 2 ? 1 : 2;
		nfail = t.nodes / 100;
		for (sel = 0; sel < nsel; sel++)
			bench_mode(&t, &fs, sel, nfail, o, &r, bc, bf,
				   &res[sel]);
		if (o->json)
			bench_json(&t, o, nfail, res, nsel);
		else
			bench_text(&t, o, nfail, res, nsel);
	}
	fs_free(&fs);
	free(bc);
	free(bf);
	return 0;
}

/* ---- S2 fabrics the kernel builds, through the core's commands ---- */

/*
 * ft on an S2 fabric the kernel builds (derived or plan mode): the
 * core's ft (ft_on(): dp_walk() over random live pairs, the failure set
 * of topo_walk.c), as for every other topology, with the same options
 * (--fail-links L or --fail-frac F of the cables, --mode, --seed); what
 * S2's ft has always been: every ordered pair of nodes routed (as many
 * random pairs, every node a source), and the discovery fallback in
 * every mode (a flood from where the packet stopped, the reply
 * installing a shortest live path) unless --no-discover.
 */
static int cmd_s2_ft(struct opts *o)
{
	struct s2fabric f;
	u32 nodes;
	int err = s2_fabric_open(&f, o, "ft");

	if (!err && o->d && o->d < f.spaces) {
		fprintf(stderr, "dpsim: ft: --d below the spaces is the paper's graph model (--file, or a generated graph), not the kernel's fabric\n");
		err = EXIT_USAGE;
	}
	if (!err) {
		nodes = f.t.nodes;
		o->failed_set = true;
		o->pairs = (u64)nodes * (nodes - 1);
		o->pairs_set = true;
		o->sources = nodes;
		o->sources_set = true;
		o->discover_set = o->discover;
		err = need_sel(o, &f.t);
	}
	if (!err)
		err = ft_on(o, &f.t);
	s2_fabric_free(&f);
	return err;
}

/*
 * route --json on an S2 fabric the kernel builds (derived or plan mode):
 * the core's route JSON (route_json(): path, ports at both ends, and
 * the header the source puts on the flow), for tools that craft a
 * flow's frames (make bench).  The text and the drawing stay S2's own
 * (switch hops: s2_test.sh compares them with the kernel), and so do
 * failures (S2's --fail syntax is not the core's).
 */
static int cmd_s2_route(struct opts *o)
{
	char from[16], to[16];
	struct s2fabric f;
	int err;

	if (!o->json || o->dot)
		return s2_run(s2_route, o);
	if (o->fail)
		return bad_usage("route --json on a kernel fabric takes no --fail%s",
				 "");
	err = s2_fabric_open(&f, o, "route");
	if (err)
		return err;
	/* the node ids opts.c read (decimal or 0x hex), as the core's #id */
	snprintf(from, sizeof(from), "#%u", o->from_id);
	snprintf(to, sizeof(to), "#%u", o->to_id);
	o->from = o->from_id != 0xffffffffU ? from : NULL;
	o->to = o->to_id != 0xffffffffU ? to : NULL;
	err = need_sel(o, &f.t);
	if (!err)
		err = route_on(&f.t, o);
	s2_fabric_free(&f);
	return err;
}

/*
 * plan on an S2 fabric the kernel builds: plan mode's plan document as
 * dpctl plan prints it, derived mode's cabling as dpctl plan topo s2
 * prints it (the core's plan, dp_plan_print()), --dot the core's drawing.
 */
static int cmd_s2_plan(struct opts *o)
{
	struct s2fabric f;
	int err;

	if (o->grow && !o->plan_file && !o->plan_mode) {
		fprintf(stderr, "dpsim: plan: --grow grows a plan (--fabric plan, --plan FILE) or the paper's graph, not the derived fabric\n");
		return EXIT_USAGE;
	}
	err = s2_fabric_open(&f, o, "plan");
	if (!err)
		err = plan_on(o, &f.t, &f);
	s2_fabric_free(&f);
	return err;
}

/* ---- diameter: exact, with few BFS ---- */

/*
 * The exact diameter (and radius) of the server graph, server hops as
 * paths --shortest counts them (a switch one hop), by the eccentricity
 * bounds of Takes and Kosters ("Determining the diameter of small world
 * networks", CIKM 2011, BoundingDiameters' upper bounds): a BFS from w
 * gives ecc(w) and, for every server v, ecc(v) <= ecc(w) + d(v, w).  The
 * diameter is found when no server's upper bound exceeds the largest
 * eccentricity computed.  The
 * BFS run DIAM_SRC at a time (one bit of DIAM_W words per source, every
 * level one pass over the servers; --sources S: S at a time); each
 * batch's sources are the servers of the largest upper bounds, spread
 * (no two adjacent).
 */
#define DIAM_W		4
#define DIAM_SRC	(64 * DIAM_W)
#define DIAM_INF	255

struct diam {
	const struct dp_topo *t;
	u32 n;
	u32 *off, *adj;		/* server neighbours (CSR) */
	u64 (*seen)[DIAM_W], (*front)[DIAM_W], (*next)[DIAM_W];
	u8 *ub;			/* upper bound of the eccentricity, DIAM_INF none */
	u8 *done;		/* BFS run from it */
	u32 *q0, *q1;
	u64 bfs, batches;
};

static int diam_adj(struct diam *d)
{
	const struct dp_topo *t = d->t;
	struct dp_port_info pi;
	u64 m = 0;
	u32 v, p, i, w;

	d->off = malloc(((size_t)d->n + 1) * sizeof(u32));
	if (!d->off)
		return -ENOMEM;
	for (v = 0; v < d->n; v++) {
		d->off[v] = (u32)m;
		if (!dp_addr_valid(t, v))
			continue;
		for (p = 0; p < t->nports; p++) {
			dp_port_info(t, v, p, &pi);
			m += pi.nneigh;
		}
		if (m > 0xffffffffULL)
			return -E2BIG;
	}
	d->off[d->n] = (u32)m;
	d->adj = malloc((m ? m : 1) * sizeof(u32));
	if (!d->adj)
		return -ENOMEM;
	m = 0;
	for (v = 0; v < d->n; v++) {
		if (!dp_addr_valid(t, v))
			continue;
		for (p = 0; p < t->nports; p++) {
			dp_port_info(t, v, p, &pi);
			for (i = 0; i < pi.nneigh; i++) {
				w = dp_port_neigh(t, v, p, i);
				d->adj[m++] = dp_addr_valid(t, w) ? w : v;
			}
		}
	}
	return 0;
}

/*
 * BFS from the @ns sources @src at once; their eccentricities into @ecc
 * (DIAM_INF: a server not reached, the graph is not connected).
 */
static void diam_bfs(struct diam *d, const u32 *src, u32 ns, u8 *ecc)
{
	u64 full[DIAM_W] = { 0 }, reach[DIAM_W], m[DIAM_W];
	u64 (*tmp)[DIAM_W];
	u32 v, e, j, lvl = 0, b;
	bool any;

	memset(d->seen, 0, (size_t)d->n * sizeof(*d->seen));
	memset(d->front, 0, (size_t)d->n * sizeof(*d->front));
	for (b = 0; b < ns; b++) {
		d->seen[src[b]][b / 64] |= 1ULL << (b % 64);
		d->front[src[b]][b / 64] |= 1ULL << (b % 64);
		full[b / 64] |= 1ULL << (b % 64);
		ecc[b] = 0;
	}
	do {
		any = false;
		memset(reach, 0, sizeof(reach));
		for (v = 0; v < d->n; v++) {
			bool left = false;

			for (j = 0; j < DIAM_W; j++) {
				m[j] = 0;
				left |= (d->seen[v][j] & full[j]) != full[j];
			}
			if (!left || d->off[v] == d->off[v + 1]) {
				memset(d->next[v], 0, sizeof(d->next[v]));
				continue;
			}
			for (e = d->off[v]; e < d->off[v + 1]; e++)
				for (j = 0; j < DIAM_W; j++)
					m[j] |= d->front[d->adj[e]][j];
			for (j = 0; j < DIAM_W; j++) {
				m[j] &= ~d->seen[v][j];
				d->next[v][j] = m[j];
				reach[j] |= m[j];
			}
		}
		lvl++;
		for (v = 0; v < d->n; v++)
			for (j = 0; j < DIAM_W; j++)
				d->seen[v][j] |= d->next[v][j];
		for (b = 0; b < ns; b++)
			if (reach[b / 64] & (1ULL << (b % 64))) {
				ecc[b] = (u8)lvl;
				any = true;
			}
		tmp = d->front;
		d->front = d->next;
		d->next = tmp;
	} while (any && lvl < DIAM_INF - 1);
	for (v = 0; v < d->n; v++) {
		if (!dp_addr_valid(d->t, v))
			continue;
		for (b = 0; b < ns; b++)
			if (!(d->seen[v][b / 64] & (1ULL << (b % 64))))
				ecc[b] = DIAM_INF;
	}
	d->bfs += ns;
	d->batches++;
}

/*
 * Upper bounds only, of every server from a batch's sources at once:
 * ub(v) = min(ub(v), min_w ecc(w) + d(v, w)), a BFS whose sources start
 * at their eccentricities (levels in increasing order).
 */
static void diam_upper(struct diam *d, const u32 *src, const u8 *ecc, u32 ns)
{
	u32 n0 = 0, n1, val, lo = DIAM_INF, i, e, v, w;

	for (i = 0; i < ns; i++)
		if (ecc[i] < lo)
			lo = ecc[i];
	for (val = lo; val < DIAM_INF - 1; val++) {
		for (i = 0; i < ns; i++)
			if (ecc[i] == val && d->ub[src[i]] >= val) {
				d->ub[src[i]] = (u8)val;
				d->q0[n0++] = src[i];
			}
		n1 = 0;
		for (i = 0; i < n0; i++) {
			v = d->q0[i];
			if (d->ub[v] != val)
				continue;
			for (e = d->off[v]; e < d->off[v + 1]; e++) {
				w = d->adj[e];
				if (d->ub[w] > val + 1) {
					d->ub[w] = (u8)(val + 1);
					d->q1[n1++] = w;
				}
			}
		}
		if (!n1) {
			bool more = false;

			for (i = 0; i < ns; i++)
				more |= ecc[i] > val;
			if (!more)
				break;
		}
		memcpy(d->q0, d->q1, (size_t)n1 * sizeof(u32));
		n0 = n1;
	}
}

static void diam_free(struct diam *d)
{
	free(d->off);
	free(d->adj);
	free(d->seen);
	free(d->front);
	free(d->next);
	free(d->ub);
	free(d->done);
	free(d->q0);
	free(d->q1);
}

static int cmd_diameter(struct opts *o)
{
	struct rng r = { o->seed };
	struct dp_topo t;
	struct diam d = { 0 };
	u32 src[DIAM_SRC], ns, v, i, lbmax = 0, ubmax, far = 0, arg = 0;
	u32 *order = NULL, nvalid = 0, left, batch;
	u8 ecc[DIAM_SRC], *mark = NULL;
	double t0 = now_ns();
	int err;

	if (o->sources_set && o->sources > DIAM_SRC) {
		fprintf(stderr, "dpsim: diameter: --sources 1 to %u (BFS a batch)\n",
			DIAM_SRC);
		return EXIT_USAGE;
	}
	batch = o->sources_set ? o->sources : DIAM_SRC;
	err = need_topo(o, &t);
	if (err)
		return err;
	d.t = &t;
	d.n = t.nodes;
	err = diam_adj(&d);
	d.seen = malloc((size_t)d.n * sizeof(*d.seen));
	d.front = malloc((size_t)d.n * sizeof(*d.front));
	d.next = malloc((size_t)d.n * sizeof(*d.next));
	d.ub = malloc(d.n);
	d.done = calloc(d.n, 1);
	d.q0 = malloc((size_t)d.n * sizeof(u32));
	d.q1 = malloc((size_t)d.n * sizeof(u32));
	order = malloc((size_t)d.n * sizeof(u32));
	mark = calloc(d.n, 1);
	if (err || !d.seen || !d.front || !d.next || !d.ub ||
	    !d.done || !d.q0 || !d.q1 || !order || !mark) {
		fprintf(stderr, "dpsim: out of memory for the diameter\n");
		err = 1;
		goto out;
	}
	memset(d.ub, DIAM_INF, d.n);
	/* a random order of the servers, for spread batches */
	for (v = 0; v < d.n; v++)
		if (dp_addr_valid(&t, v))
			order[nvalid++] = v;
	for (i = nvalid; i > 1; i--) {
		u32 j = rng_below(&r, i), x = order[i - 1];

		order[i - 1] = order[j];
		order[j] = x;
	}
	if (nvalid < 2) {
		fprintf(stderr, "dpsim: fewer than two servers\n");
		err = 1;
		goto out;
	}
	for (;;) {
		/*
		 * The largest upper bound left; the diameter is lbmax when
		 * no server's upper bound exceeds it.
		 */
		ubmax = 0;
		left = 0;
		for (i = 0; i < nvalid; i++) {
			if (d.ub[order[i]] > ubmax)
				ubmax = d.ub[order[i]];
			left += d.ub[order[i]] > lbmax;
		}
		if (o->progress && d.batches)
			fprintf(stderr, "batch %llu: BFS %llu, diameter >= %u, <= %u, servers above %u: %u\n",
				(unsigned long long)d.batches,
				(unsigned long long)d.bfs, lbmax, ubmax,
				lbmax, left);
		if (d.batches && ubmax <= lbmax)
			break;
		/*
		 * The batch: servers of the largest upper bounds first (the
		 * far ones, and those not yet bounded), no two adjacent.
		 */
		ns = 0;
		memset(mark, 0, d.n);
		for (u32 want = ubmax; want > lbmax && ns < batch; want--)
			for (i = 0; i < nvalid && ns < batch; i++) {
				u32 e;

				v = order[i];
				if (d.ub[v] != want || d.done[v] || mark[v])
					continue;
				src[ns++] = v;
				d.done[v] = 1;
				mark[v] = 1;
				for (e = d.off[v]; e < d.off[v + 1]; e++)
					mark[d.adj[e]] = 1;
			}
		if (!ns)
			break;	/* cannot happen: an unbounded server left */
		diam_bfs(&d, src, ns, ecc);
		for (i = 0; i < ns; i++) {
			if (ecc[i] == DIAM_INF) {
				fprintf(stderr, "dpsim: the graph is not connected\n");
				err = 1;
				goto out;
			}
			if (ecc[i] > lbmax) {
				lbmax = ecc[i];
				arg = src[i];
			}
		}
		diam_upper(&d, src, ecc, ns);
	}
	/* one more BFS: the pair, from the source of the largest */
	{
		struct bfs b;
		u64 s1, s2;
		u32 mx;

		if (bfs_alloc(&t, &b)) {
			bfs_free(&b);
			fprintf(stderr, "dpsim: out of memory for BFS\n");
			err = 1;
			goto out;
		}
		bfs_run(&t, &b, arg, &s1, &s2, &mx);
		for (v = 0; v < d.n; v++)
			if (b.dist[v] == mx) {
				far = v;
				break;
			}
		bfs_free(&b);
	}
	printf("%s: servers %u, diameter %u (", describe(&t), nvalid, lbmax);
	put_addr(&t, arg);
	printf(" -> ");
	put_addr(&t, far);
	printf("), BFS %llu in %llu batches\n", (unsigned long long)d.bfs,
	       (unsigned long long)d.batches);
	fprintf(stderr, "dpsim: diameter: %.1f s\n", (now_ns() - t0) / 1e9);
out:
	free(order);
	free(mark);
	diam_free(&d);
	return err;
}

/*
 * The commands: @core over the routing core (every topology through
 * dp_walk()); @s2core, the same core code on an S2 fabric the kernel
 * builds (derived or plan mode, s2_kernel_fabric()); @s2, the command on
 * S2's graph (--topo s2, s2sim.c: the paper's graph model, and the
 * kernel's fabrics routed through the core).  NULL: not there.
 */
static const struct dpsim_cmd {
	const char *name;
	int (*core)(struct opts *o);
	int (*s2core)(struct opts *o);
	s2_cmd_fn *s2;
} cmds[] = {
	{ "paths", cmd_paths, NULL, s2_paths },
	{ "diameter", cmd_diameter, NULL, NULL },
	{ "ft", cmd_ft, cmd_s2_ft, s2_ft },
	{ "route", cmd_route, cmd_s2_route, s2_route },
	{ "plan", cmd_plan, cmd_s2_plan, s2_plan },
	{ "bench", cmd_bench, NULL, NULL },
	{ "pairs", cmd_pairs, NULL, s2_pairs },
	{ "flows", cmd_flows, cmd_s2_flows, NULL },
	{ "keys", NULL, NULL, s2_keys },
	{ "locate", NULL, NULL, s2_locate },
	{ "compare", NULL, NULL, s2_compare },
};

static const struct dpsim_cmd *find_cmd(const char *name)
{
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct dpsim_cmd *c;
	struct opts o;
	const char *cmd;
	int err;

	if (argc < 2)
		return usage(stderr, EXIT_USAGE);
	cmd = argv[1];
	if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version") ||
	    !strcmp(cmd, "-Version")) {
		printf("dpsim (dpillar) %s\n", DP_VERSION);
		return 0;
	}
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") ||
	    !strcmp(cmd, "help"))
		return usage(stdout, 0);
	c = find_cmd(cmd);
	err = parse_opts(argc - 1, argv + 1, &o);
	if (err == -1)
		return usage(stdout, 0);
	if (err)
		return err;
	if (!c) {
		fprintf(stderr, "dpsim: unknown command '%s'\n", cmd);
		return usage(stderr, EXIT_USAGE);
	}
	/*
	 * Where the command runs, not how its options read: S2's fabric
	 * source picks the core (a fabric the kernel builds, for the
	 * commands the core has on it) or the graph model (s2sim.c).
	 */
	if (!strcmp(o.topo, "s2") && c->s2core && s2_kernel_fabric(&o))
		return c->s2core(&o);
	if (!strcmp(o.topo, "s2") && c->s2)
		return s2_run(c->s2, &o);
	/* bench: the core's routing of S2's derived fabric, no other */
	if (!strcmp(o.topo, "s2") && (o.plan_mode || o.plan_file || o.file ||
				      (o.fabric && !o.wiring_derived))) {
		fprintf(stderr, "dpsim: %s --topo s2: the kernel's derived fabric only (--nodes N -n P --spaces L)\n",
			cmd);
		return EXIT_USAGE;
	}
	if (!c->core) {
		fprintf(stderr, "dpsim: %s: only S2 has it (--topo s2)\n", cmd);
		return EXIT_USAGE;
	}
	return c->core(&o);
}
