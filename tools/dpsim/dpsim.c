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
 * Exit status: 0 ok, 1 runtime failure, 2 usage error.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "dp_print.h"
#include "sim.h"

#define EXIT_USAGE	2
#define ALL_PAIRS_MAX	30000000ULL	/* route every pair up to this many */
#define HIST_MAX	256

static const char usage_text[] =
"usage: dpsim COMMAND [--topo NAME] [options]\n"
"\n"
"commands:\n"
"  paths -n N -k K [--pairs P] [--seed S] [--json] [--shortest]\n"
"        [--sources S] [--dir auto|cw|ccw]\n"
"      failure-free SRoute over all pairs (small networks, or when P is 0)\n"
"      or P random pairs; --shortest adds true shortest paths by BFS from\n"
"      S sampled sources (default 4; every source once when S is at\n"
"      least the node count)\n"
"  ft -n N -k K --failed F [--fail-links L] [--pairs P] [--seed S]\n"
"        [--ttl T] [--dir auto|cw|ccw] [--json]\n"
"      F random failed servers, L failed server-switch links, P random\n"
"      live pairs (default 100000) routed with FTRoute\n"
"  route -n N -k K --from ADDR --to ADDR [--fail ADDR[/PORT],...] [--ttl T]\n"
"        [--dir auto|cw|ccw] [--json]\n"
"      hop-by-hop path; addresses are C:v_{k-1}.....v_0 or #<node id>;\n"
"      --fail takes failed servers, and ADDR/PORT for a failed link\n"
"  pairs -n N -k K [--fail ADDR[/PORT],...]\n"
"      every ordered pair of live servers: SRC DST delivered|dropped|bad_hop\n"
"      HOPS PATH; exit 1 when a hop went to a non-neighbour (a bug)\n"
"      (PATH comma-separated), one line each\n"
"  plan -n N -k K [--csv|--json]\n"
"      switch (column, id) on each port of every server\n"
"  bench [-n N -k K] [--runs R] [--json]\n"
"      ns per SRoute / FTRoute decision (median of R runs, default 7)\n"
"\n"
"  --topo NAME  the topology (default dpillar)\n"
"  --sel NAME   the topology's route selector; DPillar: auto|cw|ccw, the\n"
"               initial helix direction (--dir is the same option)\n"
"  --ttl T      default: the topology's proven path bound\n"
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
	u32 ttl;		/* 0: dp_topo_ttl() */
	const char *topo;	/* --topo NAME */
	const char *sel_text;	/* --sel / --dir NAME, NULL: default */
	u32 sel;		/* its value, once the topology is known */
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
	OPT_TTL, OPT_DIR, OPT_RUNS, OPT_TOPO,
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
	{ "sel", required_argument, NULL, OPT_DIR },
	{ "topo", required_argument, NULL, OPT_TOPO },
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
	o->topo = "dpillar";
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
			/* checked by need_topo(): the names are the topology's */
			o->sel_text = optarg;
			break;
		case OPT_TOPO:
			o->topo = optarg;
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

/*
 * Build the topology of --topo, -n, -k, then resolve what depends on it:
 * the selector name (--sel/--dir) and the default TTL.
 */
static int need_topo(struct opts *o, struct dp_topo *t)
{
	const struct dp_topo_ops *ops = dp_topo_ops_by_name(o->topo);
	struct dp_topo_params p = { 0 };
	const char *why = NULL;
	int sel;

	if (!ops) {
		fprintf(stderr, "dpsim: unknown topology '%s'\n", o->topo);
		return EXIT_USAGE;
	}
	if (!o->n || !o->k) {
		fprintf(stderr, "dpsim: -n and -k are required\n");
		return EXIT_USAGE;
	}
	p.kind = ops->kind;
	p.n = o->n;
	p.k = o->k;
	if (dp_topo_init(t, &p, &why)) {
		fprintf(stderr, "dpsim: bad topology (%u,%u): %s\n", o->n, o->k,
			why);
		return EXIT_USAGE;
	}
	o->sel = 0;
	if (o->sel_text) {
		sel = dp_sel_parse(t, o->sel_text);
		if (sel < 0)
			return bad_usage("bad --sel/--dir '%s' for this "
					 "topology", o->sel_text);
		o->sel = (u32)sel;
	}
	if (!o->ttl)
		o->ttl = dp_topo_ttl(t);
	return 0;
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

static int cmd_paths(struct opts *o)
{
	struct dp_topo t;
	struct dp_walk w = { 0 };
	struct rng r = { o->seed };
	u64 hist[HIST_MAX] = { 0 }, sum = 0, sq = 0, pairs, i, bad = 0;
	u32 maxh = 0, s, d, bound, h;
	bool all;
	int err;

	err = need_topo(o, &t);
	if (err)
		return err;
	bound = t.ff_hops;
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
		dp_walk(&t, s, d, o->sel, 0, NULL, 4 * bound, &w);
		if (!w.delivered || w.bad_hop || w.hops > bound)
			bad++;
		h = w.hops < HIST_MAX ? w.hops : HIST_MAX - 1;
		hist[h]++;
		sum += w.hops;
		sq += (u64)w.hops * w.hops;
		if (w.hops > maxh)
			maxh = w.hops;
	}

	u64 ssum = 0, ssq = 0, scount = 0;
	u32 smax = 0, nsrc = 0;

	if (o->shortest) {
		struct bfs b;

		if (bfs_alloc(&t, &b)) {
			bfs_free(&b);
			fprintf(stderr, "dpsim: out of memory for BFS\n");
			return 1;
		}
		for (nsrc = 0; nsrc < o->sources; nsrc++) {
			u64 one, onesq;
			u32 mx;

			/* every source once when there are no more of them */
			bfs_run(&t, &b, o->sources >= t.nodes ? nsrc :
				rng_below(&r, t.nodes), &one, &onesq, &mx);
			ssum += one;
			ssq += onesq;
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
		       t.p.n, t.p.k, t.nodes, t.switches,
		       (unsigned long long)pairs, all ? "true" : "false",
		       dp_sel_name(&t, o->sel), pairs ? (double)sum / pairs : 0.0,
		       maxh, bound, (unsigned long long)bad);
		for (h = 0; h <= maxh; h++)
			printf("%s%llu", h ? ", " : "",
			       (unsigned long long)hist[h]);
		printf("]");
		if (o->shortest)
			printf(", \"shortest_sources\": %u, \"shortest_avg\": "
			       "%.4f, \"shortest_max\": %u, \"shortest_stdev\": "
			       "%.4f", nsrc, (double)ssum / scount, smax,
			       stdev(ssum, ssq, scount));
		printf(", \"stdev_hops\": %.4f}\n", stdev(sum, sq, pairs));
	} else {
		printf("%s: %u servers, %u switches\n", describe(&t),
		       t.nodes, t.switches);
		printf("SRoute (direction %s) over %llu %s pairs\n",
		       dp_sel_name(&t, o->sel), (unsigned long long)pairs,
		       all ? "(all)" : "random");
		printf("  avg hops %.4f, max hops %u, bound %s = %u"
		       " (avg is %.1f%% below the bound)\n",
		       pairs ? (double)sum / pairs : 0.0, maxh,
		       t.kind == DP_TOPO_DPILLAR ? "k+floor(k/2)" :
		       "failure-free", bound,
		       pairs ? 100.0 * (1.0 - (double)sum / pairs / bound) :
		       0.0);
		printf("  histogram (hops: pairs)\n");
		for (h = 0; h <= maxh; h++)
			printf("    %2u: %llu (%.2f%%)\n", h,
			       (unsigned long long)hist[h],
			       100.0 * hist[h] / pairs);
		if (o->shortest)
			printf("shortest paths (BFS from %u sources): avg %.4f,"
			       " max %u, stdev %.4f\n", nsrc,
			       (double)ssum / scount, smax,
			       stdev(ssum, ssq, scount));
		if (t.kind != DP_TOPO_DPILLAR)
			printf("  stdev hops %.4f\n", stdev(sum, sq, pairs));
		if (bad)
			printf("FAILURES: %llu pairs not delivered within the "
			       "bound\n", (unsigned long long)bad);
	}
	return bad ? 1 : 0;
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

static int cmd_ft(struct opts *o)
{
	struct dp_topo t;
	struct dp_fail_set fs;
	struct dp_walk w = { 0 }, w0 = { 0 };
	struct rng r = { o->seed };
	u64 pairs = o->pairs_set ? o->pairs : 100000, i;
	u64 delivered = 0, dropped = 0, looped = 0, bad = 0, sum = 0, sum0 = 0;
	u64 drops[DP_DROP_MAX] = { 0 };
	u64 detours[DP_DETOUR_SLOTS] = { 0 }, detoured = 0, too_long = 0;
	double stretch = 0;
	u32 maxh = 0, s, d, j, ndrops;
	bool det;
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
		dp_walk(&t, s, d, o->sel, 0, &fs, o->ttl, &w);
		if (w.delivered && w.hops > dp_topo_ttl(&t)) {
			/*
			 * Only with --ttl above the topology's bound: the
			 * kernel's TTL would have expired, and the proven
			 * bound is wrong.
			 */
			too_long++;
			looped++;
		} else if (w.bad_hop) {
			bad++;
		} else if (w.looped) {
			looped++;
		} else if (!w.delivered) {
			dropped++;
			drops[w.reason < DP_DROP_MAX ? w.reason : 0]++;
		} else {
			dp_walk(&t, s, d, o->sel, 0, NULL, dp_topo_ttl(&t),
				&w0);
			delivered++;
			sum += w.hops;
			sum0 += w0.hops;
			stretch += (double)w.hops / w0.hops;
			if (w.hops > maxh)
				maxh = w.hops;
			det = w.hops != w0.hops;
			for (j = 0; j < DP_DETOUR_SLOTS; j++) {
				detours[j] += w.detours[j];
				det |= w.detours[j] != 0;
			}
			if (det)
				detoured++;
		}
	}
	fs_free(&fs);
	ndrops = t.ops->ndrops;

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
		       ", \"detoured\": %llu",
		       t.p.n, t.p.k, t.nodes, t.switches, o->failed,
		       o->fail_links, (unsigned long long)pairs,
		       dp_sel_name(&t, o->sel), o->ttl,
		       (unsigned long long)delivered,
		       (unsigned long long)dropped,
		       (unsigned long long)looped, (unsigned long long)bad,
		       avg, maxh, avg0, avgs, t.ff_hops,
		       (unsigned long long)detoured);
		/* detour hops, per slot, under the topology's names */
		for (j = 0; j < DP_DETOUR_SLOTS; j++)
			if (dp_detour_name(&t, j + 1))
				printf(", \"%s\": %llu",
				       dp_detour_name(&t, j + 1),
				       (unsigned long long)detours[j]);
		printf(", \"drops\": {");
		for (j = 1; j < ndrops; j++)
			printf("%s\"%s\": %llu", j > 1 ? ", " : "",
			       dp_drop_reason_name(&t, j),
			       (unsigned long long)drops[j]);
		printf("}}\n");
	} else {
		printf("%s: %u servers, %u switches; %u failed "
		       "servers, %u failed links\n", describe(&t), t.nodes,
		       t.switches, o->failed, o->fail_links);
		printf("FTRoute (direction %s, ttl %u) over %llu random live "
		       "pairs\n", dp_sel_name(&t, o->sel), o->ttl,
		       (unsigned long long)pairs);
		printf("  delivered %llu (%.3f%%), dropped %llu, looped (TTL "
		       "expired) %llu\n", (unsigned long long)delivered,
		       100.0 * delivered / pairs, (unsigned long long)dropped,
		       (unsigned long long)looped);
		for (j = 1; j < ndrops; j++)
			if (drops[j])
				printf("    dropped %s: %llu\n",
				       dp_drop_reason_name(&t, j),
				       (unsigned long long)drops[j]);
		printf("  avg hops %.4f (failure-free %.4f), max hops %u, avg "
		       "stretch %.4f\n", avg, avg0, maxh, avgs);
		printf("  detoured %llu pairs; detour hops:",
		       (unsigned long long)detoured);
		for (det = false, j = 0; j < DP_DETOUR_SLOTS; j++) {
			if (!dp_detour_name(&t, j + 1))
				continue;
			printf("%s %s %llu", det ? "," : "",
			       dp_detour_name(&t, j + 1),
			       (unsigned long long)detours[j]);
			det = true;
		}
		printf("\n");
		if (bad)
			printf("FAILURES: %llu hops to a failed or non-"
			       "neighbour server\n", (unsigned long long)bad);
		if (too_long)
			printf("FAILURES: %llu paths longer than the "
			       "topology's bound of %u hops\n",
			       (unsigned long long)too_long, dp_topo_ttl(&t));
	}
	return bad || too_long ? 1 : 0;
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
 * Every ordered pair of live servers, one line each, routed under the
 * failures of --fail: "SRC DST delivered|dropped HOPS PATH" (addresses
 * in the topology's text form, PATH comma-separated, src first).  For
 * tests that compare a running fabric with dpsim pair by pair.
 */
static int cmd_pairs(struct opts *o)
{
	struct dp_walk w = { 0 };
	char a[DP_ADDR_TEXT_MAX];
	struct dp_fail_set fs;
	struct dp_topo t;
	u32 s, d, i, bad = 0;
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
	w.path_max = o->ttl + 1;
	w.path = calloc(w.path_max, sizeof(*w.path));
	if (!err && !w.path)
		err = 1;
	for (s = 0; !err && w.path && s < t.nodes; s++) {
		for (d = 0; d < t.nodes; d++) {
			if (s == d || dp_fail_node(&fs, s) ||
			    dp_fail_node(&fs, d))
				continue;
			dp_walk(&t, s, d, o->sel, 0, &fs, o->ttl, &w);
			if (w.bad_hop)
				bad++;
			dp_addr_format(&t, s, a, sizeof(a));
			printf("%s ", a);
			dp_addr_format(&t, d, a, sizeof(a));
			printf("%s %s %u ", a, w.bad_hop ? "bad_hop" :
			       w.delivered ? "delivered" : "dropped", w.hops);
			for (i = 0; i < w.path_len; i++) {
				dp_addr_format(&t, w.path[i], a, sizeof(a));
				printf("%s%s", i ? "," : "", a);
			}
			printf("\n");
		}
	}
	free(w.path);
	fs_free(&fs);
	return err ? err : bad ? 1 : 0;
}

static int cmd_route(struct opts *o)
{
	struct dp_topo t;
	struct dp_fail_set fs;
	struct dp_walk w = { 0 };
	char a[DP_ADDR_TEXT_MAX], b[DP_ADDR_TEXT_MAX];
	u32 src, dst, i, max;
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
	err = parse_fail(&t, &fs, o->fail);
	if (err) {
		fs_free(&fs);
		return err;
	}
	if (dp_fail_node(&fs, src) || dp_fail_node(&fs, dst)) {
		fprintf(stderr, "dpsim: source or destination is failed\n");
		fs_free(&fs);
		return 1;
	}
	max = o->ttl + 1;
	w.path = calloc(max, sizeof(*w.path));
	w.phase = calloc(max, 1);
	w.path_max = max;
	dp_walk(&t, src, dst, o->sel, 0, &fs, o->ttl, &w);
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
			       dp_phase_name(&t, w.phase[i]));
		printf("], \"reason\": \"%s\", \"looped\": %s, \"bad_hop\": "
		       "%s}\n", w.looped ? "ttl_expired" :
		       dp_drop_reason_name(&t, w.reason),
		       w.looped ? "true" : "false",
		       w.bad_hop ? "true" : "false");
	} else {
		dp_addr_format(&t, src, a, sizeof(a));
		dp_addr_format(&t, dst, b, sizeof(b));
		printf("%s: route %s -> %s, %u failed servers\n",
		       describe(&t), a, b, fs.nfailed);
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
			       dp_drop_reason_name(&t, w.reason));
	}
	free(w.path);
	free(w.phase);
	fs_free(&fs);
	return w.bad_hop ? 1 : 0;
}

/* ---- plan ---- */

static int cmd_plan(struct opts *o)
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
 * Median ns per call of @what (0 route_init, 1 failure-free route, 2 route
 * with the view @v).
 */
static double bench_one(const struct dp_topo *t, const struct bench_case *bc,
			const struct dp_view *v, int what, u32 runs)
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
						      bc[i].st.dst, 0, 0, &st);
					sink += st.flags;
					continue;
				}
				st = bc[i].st;
				dp_route(t, bc[i].self, &st,
					 what == 1 ? NULL : v, &hop);
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

static int cmd_bench(struct opts *o)
{
	struct opts oo = *o;
	struct dp_topo t;
	struct dp_fail_set fs;
	struct rng r = { o->seed };
	struct bench_case *bc, *bf;
	struct dp_view view = { .reachable = bench_reachable, .ctx = &fs };
	struct dp_walk w = { 0 };
	double ns_init, ns_s, ns_f, ns_fd;
	u32 i, s, d, nfail;
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
		dp_walk(&t, s, d, 0, 0, NULL, 64, &w);
		bc[i].self = w.path[rng_below(&r, w.path_len - 1)];
		dp_route_init(&t, s, d, 0, 0, &bc[i].st);
	}
	free(w.path);
	ns_init = bench_one(&t, bc, NULL, 0, o->runs);
	ns_s = bench_one(&t, bc, NULL, 1, o->runs);
	ns_f = bench_one(&t, bc, &view, 2, o->runs);
	/* 1% failed servers; decisions at the source of live pairs. */
	nfail = t.nodes / 100;
	fs_random(&fs, &r, nfail, 0);
	for (i = 0; i < BENCH_N; i++) {
		s = random_live(&fs, &r);
		do {
			d = random_live(&fs, &r);
		} while (d == s);
		dp_route_init(&t, s, d, 0, 0, &bf[i].st);
		bf[i].self = s;
	}
	ns_fd = bench_one(&t, bf, &view, 2, o->runs);
	fs_free(&fs);
	free(bc);
	free(bf);
	if (o->json) {
		printf("{\"n\": %u, \"k\": %u, \"servers\": %u, \"runs\": %u, "
		       "\"ns_route_init\": %.2f, \"ns_sroute\": %.2f, "
		       "\"ns_ftroute\": %.2f, \"ns_ftroute_failures\": %.2f, "
		       "\"failed\": %u}\n", t.p.n, t.p.k, t.nodes, o->runs,
		       ns_init, ns_s, ns_f, ns_fd, nfail);
	} else {
		printf("%s, %u decisions x 16, median of %u "
		       "runs:\n", describe(&t), BENCH_N, o->runs);
		printf("  dp_route_init (default sel):    %6.2f ns\n", ns_init);
		printf("  dp_route, failure-free:         %6.2f ns\n", ns_s);
		printf("  dp_route + view, no failures:   %6.2f ns\n", ns_f);
		printf("  dp_route + view, %u failed (1%%):  %6.2f ns "
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
	if (!strcmp(cmd, "pairs"))
		return cmd_pairs(&o);
	fprintf(stderr, "dpsim: unknown command '%s'\n", cmd);
	return usage(stderr, EXIT_USAGE);
}
