// SPDX-License-Identifier: GPL-2.0
/*
 * dpsim - userspace simulator of dpillar routing.
 *
 * Links the kernel module's routing core (net/dpillar/topo.c and
 * topo_dpillar.c) unchanged.  Routing is pure arithmetic, so even a (48,5)
 * DPillar (~40 million servers) is simulated without building its graph;
 * only failures are kept, in bitmaps.
 *
 * Exit status: 0 ok, 1 runtime failure, 2 usage error.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "dp_print.h"
#include "sim.h"

#define EXIT_USAGE	2
#define ALL_PAIRS_MAX	30000000ULL	/* route every pair up to this many */
#define HIST_MAX	256

static const char usage_text[] =
"usage: dpsim COMMAND [options]\n"
"\n"
"commands:\n"
"  paths -n N -k K [--pairs P] [--seed S] [--json] [--shortest]\n"
"        [--sources S] [--dir auto|cw|ccw]\n"
"      failure-free SRoute over all pairs (small networks, or when P is 0)\n"
"      or P random pairs; --shortest adds true shortest paths by BFS from\n"
"      S sampled sources (default 4)\n"
"  ft -n N -k K --failed F [--fail-links L] [--pairs P] [--seed S]\n"
"        [--ttl T] [--dir auto|cw|ccw] [--json]\n"
"      F random failed servers, L failed server-switch links, P random\n"
"      live pairs (default 100000) routed with FTRoute\n"
"  route -n N -k K --from ADDR --to ADDR [--fail ADDR[/PORT],...] [--ttl T]\n"
"        [--dir auto|cw|ccw] [--json]\n"
"      hop-by-hop path; addresses are C:v_{k-1}.....v_0; --fail takes\n"
"      failed servers, and ADDR/PORT for a failed server-switch link\n"
"  plan -n N -k K [--csv|--json]\n"
"      switch (column, id) on each port of every server\n"
"  bench [-n N -k K] [--runs R] [--json]\n"
"      ns per SRoute / FTRoute decision (median of R runs, default 7)\n"
"\n"
"exit status: 0 ok, 1 runtime failure, 2 usage error\n";

struct opts {
	u32 n, k;
	u64 pairs;
	bool pairs_set;
	u64 seed;
	bool json, csv, shortest;
	u32 sources;
	u32 failed, fail_links;
	bool failed_set;
	const char *from, *to, *fail;
	u32 ttl;
	enum dp_dir dir;
	u32 runs;
};

static int usage(FILE *f, int status)
{
	fputs(usage_text, f);
	return status;
}

static int bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "dpsim: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n(dpsim --help for usage)\n");
	return EXIT_USAGE;
}

static bool parse_u64(const char *s, u64 max, u64 *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > max)
		return false;
	*out = v;
	return true;
}

enum {
	OPT_PAIRS = 256, OPT_SEED, OPT_JSON, OPT_CSV, OPT_SHORTEST,
	OPT_SOURCES, OPT_FAILED, OPT_FAIL_LINKS, OPT_FROM, OPT_TO, OPT_FAIL,
	OPT_TTL, OPT_DIR, OPT_RUNS,
};

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "pairs", required_argument, NULL, OPT_PAIRS },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "shortest", no_argument, NULL, OPT_SHORTEST },
	{ "sources", required_argument, NULL, OPT_SOURCES },
	{ "failed", required_argument, NULL, OPT_FAILED },
	{ "fail-links", required_argument, NULL, OPT_FAIL_LINKS },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "fail", required_argument, NULL, OPT_FAIL },
	{ "ttl", required_argument, NULL, OPT_TTL },
	{ "dir", required_argument, NULL, OPT_DIR },
	{ "runs", required_argument, NULL, OPT_RUNS },
	{ NULL, 0, NULL, 0 },
};

/* Returns 0, or an exit status (usage error, or -1 for --help). */
static int parse_opts(int argc, char **argv, struct opts *o)
{
	u64 v;
	int c;

	memset(o, 0, sizeof(*o));
	o->seed = 1;
	o->sources = 4;
	o->ttl = DP_DEFAULT_TTL;
	o->dir = DP_DIR_AUTO;
	o->runs = 7;
	optind = 1;
	while ((c = getopt_long(argc, argv, "hn:k:", long_opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			return -1;
		case 'n':
			if (!parse_u64(optarg, 0xffffffffU, &v))
				return bad_usage("bad -n '%s'", optarg);
			o->n = (u32)v;
			break;
		case 'k':
			if (!parse_u64(optarg, 0xffffffffU, &v))
				return bad_usage("bad -k '%s'", optarg);
			o->k = (u32)v;
			break;
		case OPT_PAIRS:
			if (!parse_u64(optarg, 1ULL << 40, &o->pairs))
				return bad_usage("bad --pairs '%s'", optarg);
			o->pairs_set = true;
			break;
		case OPT_SEED:
			if (!parse_u64(optarg, ~0ULL, &o->seed))
				return bad_usage("bad --seed '%s'", optarg);
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_CSV:
			o->csv = true;
			break;
		case OPT_SHORTEST:
			o->shortest = true;
			break;
		case OPT_SOURCES:
			if (!parse_u64(optarg, 1U << 20, &v) || !v)
				return bad_usage("bad --sources '%s'", optarg);
			o->sources = (u32)v;
			break;
		case OPT_FAILED:
			if (!parse_u64(optarg, 0xffffffffU, &v))
				return bad_usage("bad --failed '%s'", optarg);
			o->failed = (u32)v;
			o->failed_set = true;
			break;
		case OPT_FAIL_LINKS:
			if (!parse_u64(optarg, 0xffffffffU, &v))
				return bad_usage("bad --fail-links '%s'",
						 optarg);
			o->fail_links = (u32)v;
			break;
		case OPT_FROM:
			o->from = optarg;
			break;
		case OPT_TO:
			o->to = optarg;
			break;
		case OPT_FAIL:
			o->fail = optarg;
			break;
		case OPT_TTL:
			if (!parse_u64(optarg, 100000, &v) || !v)
				return bad_usage("bad --ttl '%s'", optarg);
			o->ttl = (u32)v;
			break;
		case OPT_DIR:
			if (!strcmp(optarg, "auto"))
				o->dir = DP_DIR_AUTO;
			else if (!strcmp(optarg, "cw"))
				o->dir = DP_DIR_CW;
			else if (!strcmp(optarg, "ccw"))
				o->dir = DP_DIR_CCW;
			else
				return bad_usage("bad --dir '%s'", optarg);
			break;
		case OPT_RUNS:
			if (!parse_u64(optarg, 1000, &v) || !v)
				return bad_usage("bad --runs '%s'", optarg);
			o->runs = (u32)v;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		return bad_usage("unexpected argument '%s'", argv[optind]);
	return 0;
}

static int need_topo(const struct opts *o, struct dp_topo *t)
{
	const char *why = NULL;

	if (!o->n || !o->k) {
		fprintf(stderr, "dpsim: -n and -k are required\n");
		return EXIT_USAGE;
	}
	if (dp_topo_init(t, DP_TOPO_DPILLAR, o->n, o->k, &why)) {
		fprintf(stderr, "dpsim: bad topology (%u,%u): %s\n", o->n, o->k,
			why);
		return EXIT_USAGE;
	}
	return 0;
}

static const char *dir_name(enum dp_dir d)
{
	return d == DP_DIR_CW ? "cw" : d == DP_DIR_CCW ? "ccw" : "auto";
}

static u32 bound_of(const struct dp_topo *t)
{
	return t->k + t->k / 2;
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
		    u64 *sum, u32 *max)
{
	u32 head = 0, tail = 0, p, i, sc, sid, sw, peer, id;
	u32 nb = dp_port_neigh_count(t);

	memset(b->dist, 255, t->nodes);
	memset(b->swseen, 0, (t->switches + 7) / 8);
	b->dist[src] = 0;
	b->queue[tail++] = src;
	*sum = 0;
	*max = 0;
	while (head < tail) {
		id = b->queue[head++];
		for (p = 0; p < DP_NPORTS; p++) {
			dp_port_switch(t, id, p, &sc, &sid);
			sw = sc * t->pow[t->k - 1] + sid;
			if (b->swseen[sw >> 3] & (1U << (sw & 7)))
				continue;
			b->swseen[sw >> 3] |= (u8)(1U << (sw & 7));
			for (i = 0; i < nb; i++) {
				peer = dp_port_neigh(t, id, p, i);
				if (b->dist[peer] != 255)
					continue;
				b->dist[peer] = b->dist[id] + 1;
				*sum += b->dist[peer];
				if (b->dist[peer] > *max)
					*max = b->dist[peer];
				b->queue[tail++] = peer;
			}
		}
	}
}

/* ---- paths ---- */

static int cmd_paths(const struct opts *o)
{
	struct dp_topo t;
	struct walk w = { 0 };
	struct rng r = { o->seed };
	u64 hist[HIST_MAX] = { 0 }, sum = 0, pairs, i, bad = 0;
	u32 maxh = 0, s, d, bound, h;
	bool all;
	int err;

	err = need_topo(o, &t);
	if (err)
		return err;
	bound = bound_of(&t);
	all = o->pairs_set ? o->pairs == 0 :
	      (u64)t.nodes * (t.nodes - 1) <= ALL_PAIRS_MAX;
	if (all && (u64)t.nodes * (t.nodes - 1) > ALL_PAIRS_MAX * 100) {
		fprintf(stderr, "dpsim: too many pairs for all-pairs; use "
			"--pairs\n");
		return EXIT_USAGE;
	}
	pairs = all ? (u64)t.nodes * (t.nodes - 1) :
		o->pairs_set ? o->pairs : 100000;
	for (i = 0; i < pairs; i++) {
		if (all) {
			s = (u32)(i / (t.nodes - 1));
			d = (u32)(i % (t.nodes - 1));
			if (d >= s)
				d++;
		} else {
			s = rng_below(&r, t.nodes);
			d = rng_below(&r, t.nodes - 1);
			if (d >= s)
				d++;
		}
		walk_route(&t, s, d, o->dir, NULL, 4 * bound, &w);
		if (!w.delivered || w.bad_hop || w.hops > bound)
			bad++;
		h = w.hops < HIST_MAX ? w.hops : HIST_MAX - 1;
		hist[h]++;
		sum += w.hops;
		if (w.hops > maxh)
			maxh = w.hops;
	}

	u64 ssum = 0, scount = 0;
	u32 smax = 0, nsrc = 0;

	if (o->shortest) {
		struct bfs b;

		if (bfs_alloc(&t, &b)) {
			bfs_free(&b);
			fprintf(stderr, "dpsim: out of memory for BFS\n");
			return 1;
		}
		for (nsrc = 0; nsrc < o->sources; nsrc++) {
			u64 one;
			u32 mx;

			bfs_run(&t, &b, rng_below(&r, t.nodes), &one, &mx);
			ssum += one;
			scount += t.nodes - 1;
			if (mx > smax)
				smax = mx;
		}
		bfs_free(&b);
	}

	if (o->json) {
		printf("{\"n\": %u, \"k\": %u, \"servers\": %u, \"switches\": %u"
		       ", \"pairs\": %llu, \"all_pairs\": %s, \"dir\": \"%s\""
		       ", \"avg_hops\": %.4f, \"max_hops\": %u, \"bound\": %u"
		       ", \"failures\": %llu, \"histogram\": [",
		       t.n, t.k, t.nodes, t.switches,
		       (unsigned long long)pairs, all ? "true" : "false",
		       dir_name(o->dir), pairs ? (double)sum / pairs : 0.0,
		       maxh, bound, (unsigned long long)bad);
		for (h = 0; h <= maxh; h++)
			printf("%s%llu", h ? ", " : "",
			       (unsigned long long)hist[h]);
		printf("]");
		if (o->shortest)
			printf(", \"shortest_sources\": %u, \"shortest_avg\": "
			       "%.4f, \"shortest_max\": %u", nsrc,
			       (double)ssum / scount, smax);
		printf("}\n");
	} else {
		printf("DPillar (%u,%u): %u servers, %u switches\n", t.n, t.k,
		       t.nodes, t.switches);
		printf("SRoute (direction %s) over %llu %s pairs\n",
		       dir_name(o->dir), (unsigned long long)pairs,
		       all ? "(all)" : "random");
		printf("  avg hops %.4f, max hops %u, bound k+floor(k/2) = %u"
		       " (avg is %.1f%% below the bound)\n",
		       pairs ? (double)sum / pairs : 0.0, maxh, bound,
		       pairs ? 100.0 * (1.0 - (double)sum / pairs / bound) :
		       0.0);
		printf("  histogram (hops: pairs)\n");
		for (h = 0; h <= maxh; h++)
			printf("    %2u: %llu (%.2f%%)\n", h,
			       (unsigned long long)hist[h],
			       100.0 * hist[h] / pairs);
		if (o->shortest)
			printf("shortest paths (BFS from %u sources): avg %.4f,"
			       " max %u\n", nsrc, (double)ssum / scount, smax);
		if (bad)
			printf("FAILURES: %llu pairs not delivered within the "
			       "bound\n", (unsigned long long)bad);
	}
	return bad ? 1 : 0;
}

/* ---- ft ---- */

static u32 random_live(const struct fail_set *fs, struct rng *r)
{
	u32 id;

	do {
		id = rng_below(r, fs->t->nodes);
	} while (fs_node(fs, id));
	return id;
}

static int cmd_ft(const struct opts *o)
{
	struct dp_topo t;
	struct fail_set fs;
	struct walk w = { 0 }, w0 = { 0 };
	struct rng r = { o->seed };
	u64 pairs = o->pairs_set ? o->pairs : 100000, i;
	u64 delivered = 0, dropped = 0, looped = 0, bad = 0, sum = 0, sum0 = 0;
	u64 drops[DP_DROP_ROUTE_COUNT] = { 0 };
	u64 tunnels = 0, uturns = 0, ringrev = 0, detoured = 0;
	double stretch = 0;
	u32 maxh = 0, s, d, j;
	int err;

	err = need_topo(o, &t);
	if (err)
		return err;
	if (!o->failed_set)
		return bad_usage("ft needs --failed F%s", "");
	if ((u64)o->failed + 2 > t.nodes)
		return bad_usage("--failed must leave two live servers%s", "");
	if (fs_init(&fs, &t)) {
		fprintf(stderr, "dpsim: out of memory\n");
		return 1;
	}
	fs_random(&fs, &r, o->failed, o->fail_links);
	for (i = 0; i < pairs; i++) {
		s = random_live(&fs, &r);
		do {
			d = random_live(&fs, &r);
		} while (d == s);
		walk_route(&t, s, d, o->dir, &fs, o->ttl, &w);
		if (w.bad_hop) {
			bad++;
		} else if (w.looped) {
			looped++;
		} else if (!w.delivered) {
			dropped++;
			drops[w.reason < DP_DROP_ROUTE_COUNT ? w.reason : 0]++;
		} else {
			walk_route(&t, s, d, o->dir, NULL, 100, &w0);
			delivered++;
			sum += w.hops;
			sum0 += w0.hops;
			stretch += (double)w.hops / w0.hops;
			if (w.hops > maxh)
				maxh = w.hops;
			tunnels += w.tunnels;
			uturns += w.uturns;
			ringrev += w.ring_revs;
			if (w.tunnels || w.uturns || w.ring_revs ||
			    w.hops != w0.hops)
				detoured++;
		}
	}
	fs_free(&fs);

	double avg = delivered ? (double)sum / delivered : 0;
	double avg0 = delivered ? (double)sum0 / delivered : 0;
	double avgs = delivered ? stretch / delivered : 0;

	if (o->json) {
		printf("{\"n\": %u, \"k\": %u, \"servers\": %u, \"switches\": %u"
		       ", \"failed\": %u, \"failed_links\": %u, \"pairs\": %llu"
		       ", \"dir\": \"%s\", \"ttl\": %u, \"delivered\": %llu"
		       ", \"dropped\": %llu, \"looped\": %llu"
		       ", \"bad_hops\": %llu, \"avg_hops\": %.4f"
		       ", \"max_hops\": %u, \"avg_sroute_hops\": %.4f"
		       ", \"avg_stretch\": %.4f, \"bound\": %u"
		       ", \"detoured\": %llu, \"tunnels\": %llu"
		       ", \"uturns\": %llu, \"ring_reversals\": %llu"
		       ", \"drops\": {",
		       t.n, t.k, t.nodes, t.switches, o->failed, o->fail_links,
		       (unsigned long long)pairs, dir_name(o->dir), o->ttl,
		       (unsigned long long)delivered,
		       (unsigned long long)dropped,
		       (unsigned long long)looped, (unsigned long long)bad,
		       avg, maxh, avg0, avgs, bound_of(&t),
		       (unsigned long long)detoured,
		       (unsigned long long)tunnels,
		       (unsigned long long)uturns,
		       (unsigned long long)ringrev);
		for (j = 1; j < DP_DROP_ROUTE_COUNT; j++)
			printf("%s\"%s\": %llu", j > 1 ? ", " : "",
			       dp_drop_reason_name(j),
			       (unsigned long long)drops[j]);
		printf("}}\n");
	} else {
		printf("DPillar (%u,%u): %u servers, %u switches; %u failed "
		       "servers, %u failed links\n", t.n, t.k, t.nodes,
		       t.switches, o->failed, o->fail_links);
		printf("FTRoute (direction %s, ttl %u) over %llu random live "
		       "pairs\n", dir_name(o->dir), o->ttl,
		       (unsigned long long)pairs);
		printf("  delivered %llu (%.3f%%), dropped %llu, looped (TTL "
		       "expired) %llu\n", (unsigned long long)delivered,
		       100.0 * delivered / pairs, (unsigned long long)dropped,
		       (unsigned long long)looped);
		for (j = 1; j < DP_DROP_ROUTE_COUNT; j++)
			if (drops[j])
				printf("    dropped %s: %llu\n",
				       dp_drop_reason_name(j),
				       (unsigned long long)drops[j]);
		printf("  avg hops %.4f (failure-free %.4f), max hops %u, avg "
		       "stretch %.4f\n", avg, avg0, maxh, avgs);
		printf("  detoured %llu pairs: %llu tunnels, %llu u-turns, "
		       "%llu ring reversals\n", (unsigned long long)detoured,
		       (unsigned long long)tunnels,
		       (unsigned long long)uturns,
		       (unsigned long long)ringrev);
		if (bad)
			printf("FAILURES: %llu hops to a failed or non-"
			       "neighbour server\n", (unsigned long long)bad);
	}
	return bad ? 1 : 0;
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

static int cmd_route(const struct opts *o)
{
	struct dp_topo t;
	struct fail_set fs;
	struct walk w = { 0 };
	char a[DP_ADDR_TEXT_MAX], b[DP_ADDR_TEXT_MAX];
	u32 src, dst, id, i, max;
	int err;

	err = need_topo(o, &t);
	if (err)
		return err;
	if (!o->from || !o->to)
		return bad_usage("route needs --from and --to%s", "");
	err = parse_addr(&t, o->from, &src);
	if (!err)
		err = parse_addr(&t, o->to, &dst);
	if (err)
		return err;
	if (fs_init(&fs, &t)) {
		fprintf(stderr, "dpsim: out of memory\n");
		return 1;
	}
	if (o->fail) {
		char *list = strdup(o->fail), *tok, *save = NULL;

		for (tok = strtok_r(list, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			/* ADDR: a failed server; ADDR/P: its link on port P */
			char *slash = strchr(tok, '/');
			unsigned long port = 0;

			if (slash) {
				*slash = 0;
				port = strtoul(slash + 1, NULL, 10);
				if (port >= t.nports) {
					free(list);
					fs_free(&fs);
					return bad_usage("bad port in --fail '%s'",
							 o->fail);
				}
			}
			err = parse_addr(&t, tok, &id);
			if (err) {
				free(list);
				fs_free(&fs);
				return err;
			}
			if (slash)
				fs_fail_link(&fs, id, (u32)port);
			else
				fs_fail_node(&fs, id);
		}
		free(list);
	}
	if (fs_node(&fs, src) || fs_node(&fs, dst)) {
		fprintf(stderr, "dpsim: source or destination is failed\n");
		fs_free(&fs);
		return 1;
	}
	max = o->ttl + 1;
	w.path = calloc(max, sizeof(*w.path));
	w.phase = calloc(max, 1);
	w.path_max = max;
	walk_route(&t, src, dst, o->dir, &fs, o->ttl, &w);
	if (o->json) {
		printf("{\"delivered\": %s, \"hops\": %u, \"path\": [",
		       w.delivered ? "true" : "false", w.hops);
		for (i = 0; i < w.path_len; i++) {
			dp_addr_format(&t, w.path[i], a, sizeof(a));
			printf("%s\"%s\"", i ? ", " : "", a);
		}
		printf("], \"phases\": [");
		for (i = 0; i + 1 < w.path_len; i++)
			printf("%s\"%s\"", i ? ", " : "",
			       dp_phase_name(w.phase[i]));
		printf("], \"reason\": \"%s\", \"looped\": %s, \"bad_hop\": "
		       "%s}\n", w.looped ? "ttl_expired" :
		       dp_drop_reason_name(w.reason),
		       w.looped ? "true" : "false",
		       w.bad_hop ? "true" : "false");
	} else {
		dp_addr_format(&t, src, a, sizeof(a));
		dp_addr_format(&t, dst, b, sizeof(b));
		printf("DPillar (%u,%u): route %s -> %s, %u failed servers\n",
		       t.n, t.k, a, b, fs.nfailed);
		for (i = 0; i + 1 < w.path_len; i++)
			dp_hop_print(stdout, &t, i + 1, w.path[i], w.path[i + 1],
				     w.phase[i]);
		if (w.delivered)
			printf("delivered in %u hops\n", w.hops);
		else if (w.looped)
			printf("NOT delivered: TTL %u expired\n", o->ttl);
		else if (w.bad_hop)
			printf("NOT delivered: bad hop (bug)\n");
		else
			printf("dropped after %u hops: %s\n", w.hops,
			       dp_drop_reason_name(w.reason));
	}
	free(w.path);
	free(w.phase);
	fs_free(&fs);
	return w.bad_hop ? 1 : 0;
}

/* ---- plan ---- */

static int cmd_plan(const struct opts *o)
{
	struct dp_topo t;
	int err;

	err = need_topo(o, &t);
	if (err)
		return err;
	if (o->csv && o->json)
		return bad_usage("--csv and --json are exclusive%s", "");
	return dp_plan_print(stdout, &t, o->csv ? DP_PLAN_CSV :
			     o->json ? DP_PLAN_JSON : DP_PLAN_TEXT);
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
	const struct fail_set *fs = ctx;

	(void)self;
	(void)port;
	return !fs_node(fs, peer);
}

struct bench_case {
	u32 self;
	struct dp_route_state st;
};

/* Median ns per call of @what (0 init, 1 sroute, 2 ftroute). */
static double bench_one(const struct dp_topo *t, const struct bench_case *bc,
			const struct dp_reach *reach, int what, u32 runs)
{
	double *res = calloc(runs, sizeof(double));
	volatile u32 sink = 0;
	struct dp_route_state st;
	struct dp_hop hop;
	u32 run, rep, i, reps = 16;
	double t0, med;

	for (run = 0; run < runs; run++) {
		t0 = now_ns();
		for (rep = 0; rep < reps; rep++) {
			for (i = 0; i < BENCH_N; i++) {
				if (what == 0) {
					dp_route_init(t, bc[i].self,
						      bc[i].st.dst, &st);
					sink += st.flags;
					continue;
				}
				st = bc[i].st;
				if (what == 1)
					dp_sroute(t, bc[i].self, &st, &hop);
				else
					dp_ftroute(t, bc[i].self, &st, reach,
						   &hop);
				sink += hop.next;
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

static int cmd_bench(const struct opts *o)
{
	struct opts oo = *o;
	struct dp_topo t;
	struct fail_set fs;
	struct rng r = { o->seed };
	struct bench_case *bc, *bf;
	struct dp_reach reach = { .reachable = bench_reachable, .ctx = &fs };
	struct walk w = { 0 };
	double ns_init, ns_s, ns_f, ns_fd;
	u32 i, s, d, nfail;
	int err;

	if (!oo.n && !oo.k) {
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
	/*
	 * Decisions at random points of random paths: route a random pair
	 * failure-free and take a random intermediate server with its state.
	 */
	w.path = calloc(64, sizeof(u32));
	w.path_max = 64;
	for (i = 0; i < BENCH_N; i++) {
		s = rng_below(&r, t.nodes);
		do {
			d = rng_below(&r, t.nodes);
		} while (d == s);
		walk_route(&t, s, d, DP_DIR_AUTO, NULL, 64, &w);
		bc[i].self = w.path[rng_below(&r, w.path_len - 1)];
		dp_route_init(&t, s, d, &bc[i].st);
	}
	free(w.path);
	ns_init = bench_one(&t, bc, NULL, 0, o->runs);
	ns_s = bench_one(&t, bc, NULL, 1, o->runs);
	ns_f = bench_one(&t, bc, &reach, 2, o->runs);
	/* 1% failed servers; decisions at the source of live pairs. */
	nfail = t.nodes / 100;
	fs_random(&fs, &r, nfail, 0);
	for (i = 0; i < BENCH_N; i++) {
		s = random_live(&fs, &r);
		do {
			d = random_live(&fs, &r);
		} while (d == s);
		dp_route_init(&t, s, d, &bf[i].st);
		bf[i].self = s;
	}
	ns_fd = bench_one(&t, bf, &reach, 2, o->runs);
	fs_free(&fs);
	free(bc);
	free(bf);
	if (o->json) {
		printf("{\"n\": %u, \"k\": %u, \"servers\": %u, \"runs\": %u, "
		       "\"ns_route_init\": %.2f, \"ns_sroute\": %.2f, "
		       "\"ns_ftroute\": %.2f, \"ns_ftroute_failures\": %.2f, "
		       "\"failed\": %u}\n", t.n, t.k, t.nodes, o->runs,
		       ns_init, ns_s, ns_f, ns_fd, nfail);
	} else {
		printf("DPillar (%u,%u), %u decisions x 16, median of %u "
		       "runs:\n", t.n, t.k, BENCH_N, o->runs);
		printf("  dp_route_init (auto direction): %6.2f ns\n", ns_init);
		printf("  dp_sroute:                      %6.2f ns\n", ns_s);
		printf("  dp_ftroute, no failures:        %6.2f ns\n", ns_f);
		printf("  dp_ftroute, %u failed (1%%):  %6.2f ns "
		       "(at the source)\n", nfail, ns_fd);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o;
	const char *cmd;
	int err;

	if (argc < 2)
		return usage(stderr, EXIT_USAGE);
	cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") ||
	    !strcmp(cmd, "help"))
		return usage(stdout, 0);
	err = parse_opts(argc - 1, argv + 1, &o);
	if (err == -1)
		return usage(stdout, 0);
	if (err)
		return err;
	if (!strcmp(cmd, "paths"))
		return cmd_paths(&o);
	if (!strcmp(cmd, "ft"))
		return cmd_ft(&o);
	if (!strcmp(cmd, "route"))
		return cmd_route(&o);
	if (!strcmp(cmd, "plan"))
		return cmd_plan(&o);
	if (!strcmp(cmd, "bench"))
		return cmd_bench(&o);
	fprintf(stderr, "dpsim: unknown command '%s'\n", cmd);
	return usage(stderr, EXIT_USAGE);
}
