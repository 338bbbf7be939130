// SPDX-License-Identifier: GPL-2.0
/*
 * opts.c - dpsim's command line: one option table for every command and
 * topology, the usage text generated from it, one getopt over it, and
 * one checked parser for every number.
 *
 * Every option means one thing for every topology and command: --mode
 * is the topology's routing mode (S2's: 2hop, 1hop, 2hop-sim), --from
 * and --to its addresses (S2's: the node id, as the kernel's), and
 * --fail-links a count of failed links, --fail-frac a fraction of the
 * fabric's.  S2's fabric sources (--fabric derived|plan|graph, --plan,
 * --file) pick what the commands run on, not how the options read.  A
 * row says which topologies have it (@scope): an option a topology lacks
 * is a usage error that says which has it (opts_check()), as the
 * kernel's "Only S2 has ..." (dp_params_foreign()).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "dp_params.h"
#include "dpsim.h"
#include "s2sim.h"
#include "topo_s2.h"

enum {
	OPT_PAIRS = 256, OPT_SEED, OPT_JSON, OPT_CSV, OPT_SHORTEST,
	OPT_SOURCES, OPT_FAILED, OPT_FAIL_LINKS, OPT_FROM, OPT_TO, OPT_FAIL,
	OPT_TTL, OPT_MODE, OPT_RUNS, OPT_TOPO, OPT_POPULATE, OPT_ORDER,
	OPT_HASH, OPT_ALL_HASHES, OPT_DECISIONS, OPT_LEVEL, OPT_DOT,
	OPT_DISCOVER, OPT_NO_DISCOVER, OPT_NODES, OPT_SPACES, OPT_PROGRESS,
	OPT_DISJOINT, OPT_FILE, OPT_SWITCHES, OPT_PORTS, OPT_SERVERS,
	OPT_COORDS, OPT_D, OPT_KEYS, OPT_KEY, OPT_GROW,
	OPT_MULTIPATH, OPT_PLAN, OPT_FAIL_FRAC, OPT_FABRIC, OPT_HELP,
	OPT_SEEDS, OPT_PATHS, OPT_HOSTS, OPT_FAIL_SWITCHES, OPT_FCT,
	OPT_SIZES,
	/* OPT_PARAM + i: --WORD of dp_params[i] (param_opt()) */
	OPT_PARAM = 1024,
};

/*
 * Which topologies have an option: every one (A), S2 only (S), every one
 * but S2 (C: S2's commands have no use for it).
 */
#define C	1u
#define S	2u
#define A	(C | S)

/*
 * What an option stores: a flag (true), its text, or a number checked by
 * parse_num() (0..@max, or 1..@max when @nonzero) into a u32 or u64.
 * K_NONE: read after the options are parsed (its text in opt_text[]).
 */
enum opt_kind { K_NONE, K_FLAG, K_TEXT, K_U32, K_U64 };

#define U32MAX	0xffffffffULL

/*
 * The one option table: getopt's (in this order: an ambiguous
 * abbreviation lists its matches in it) and the usage's.  @shrt: the
 * short option, if any; @name: the long one, NULL for none.
 */
static const struct dpsim_opt {
	const char *name;
	char shrt;
	int id;
	u8 scope;
	u8 kind;
	bool nonzero;
	u64 max;
	size_t off;
	const char *arg;
	const char *help;
} opt_table[] = {
#define O(name, shrt, id, scope, kind, nz, max, f, arg, help) \
	{ name, shrt, id, scope, kind, nz, max, offsetof(struct opts, f), \
	  arg, help }
#define X(name, shrt, id, scope, arg, help) \
	{ name, shrt, id, scope, K_NONE, false, 0, 0, arg, help }
	X("help", 'h', OPT_HELP, A, NULL, "this text"),
	O("topo", 0, OPT_TOPO, A, K_TEXT, false, 0, topo, "NAME",
	  "the topology (default dpillar; s2: Space Shuffle)"),
	O("json", 'j', OPT_JSON, A, K_FLAG, false, 0, json, NULL,
	  "JSON instead of text (the commands that have it)"),
	O("csv", 0, OPT_CSV, A, K_FLAG, false, 0, csv, NULL, "plan as CSV"),
	O("dot", 0, OPT_DOT, A, K_FLAG, false, 0, dot, NULL,
	  "route, plan: Graphviz DOT"),
	O(NULL, 'n', 'n', A, K_U32, false, U32MAX, n, "N",
	  "the topology's n (S2: ports a node, default 10)"),
	O(NULL, 'k', 'k', C, K_U32, false, U32MAX, k, "K", "the topology's k"),
	O("level", 'i', OPT_LEVEL, C, K_U32, false, U32MAX, level, "I",
	  "XDCent's top level i"),
	X("mode", 0, OPT_MODE, A, "MODE",
	  "routing mode (dpctl's; S2: 2hop 1hop 2hop-sim)"),
	X("sel", 0, OPT_MODE, A, "MODE", "the same as --mode"),
	X("dir", 0, OPT_MODE, A, "MODE", "the same as --mode"),
	O("seed", 0, OPT_SEED, A, K_U64, false, ~0ULL, seed, "S",
	  "random seed (default 1; S2 --nodes: 0, the kernel's)"),
	O("pairs", 0, OPT_PAIRS, C, K_U64, false, 1ULL << 40, pairs, "P",
	  "random pairs (paths: 0 for every pair)"),
	O("sources", 0, OPT_SOURCES, C, K_U32, true, 1U << 20, sources, "S",
	  "sources of the pairs / of the BFS"),
	O("shortest", 0, OPT_SHORTEST, C, K_FLAG, false, 0, shortest, NULL,
	  "paths: true shortest paths by BFS too"),
	O("disjoint", 0, OPT_DISJOINT, C, K_FLAG, false, 0, disjoint, NULL,
	  "paths: are the candidate paths disjoint?"),
	O("failed", 0, OPT_FAILED, C, K_U32, false, U32MAX, failed, "F",
	  "ft, flows: F random failed servers"),
	O("fail-links", 0, OPT_FAIL_LINKS, A, K_U32, false, U32MAX, fail_links,
	  "L", "ft, flows, compare: L random failed links"),
	X("fail-frac", 0, OPT_FAIL_FRAC, A, "F",
	  "ft, flows, compare: a fraction F (0..1) of the links failed"),
	O("fail-switches", 0, OPT_FAIL_SWITCHES, C, K_U32, false, U32MAX,
	  fail_switches, "W", "flows: W random switches down"),
	O("populate", 0, OPT_POPULATE, C, K_U32, true, 100, populate, "PCT",
	  "ft, flows: only PCT% (1..100) of the servers exist"),
	O("seeds", 0, OPT_SEEDS, A, K_U32, true, 1000, nseeds, "N",
	  "flows: N runs (seeds S..S+N-1), mean and 95% CI"),
	O("paths", 0, OPT_PATHS, A, K_U32, true, DP_PATHS_MAX, subflows, "K",
	  "flows: K subflows a flow (default 1)"),
	O("hosts", 0, OPT_HOSTS, A, K_U32, true, 64, hosts, "H",
	  "flows: H hosts behind each server (dpns3's --hosts)"),
	O("fct", 0, OPT_FCT, A, K_FLAG, false, 0, fct, NULL,
	  "flows: completion times, max-min rates as flows finish"),
	O("sizes", 0, OPT_SIZES, A, K_TEXT, false, 0, sizes_text, "LIST",
	  "flows --fct: flow i's size LIST[i mod n] (default 1)"),
	X("order", 0, OPT_ORDER, C, "grow|random",
	  "plan, ft --populate: the order of growth"),
	O("ttl", 0, OPT_TTL, C, K_U32, true, 100000, ttl, "T",
	  "hop limit (default: the topology's proven bound)"),
	O("discover", 0, OPT_DISCOVER, A, K_FLAG, false, 0, discover_set, NULL,
	  "ft: the discovery fallback in every mode too"),
	O("no-discover", 0, OPT_NO_DISCOVER, A, K_FLAG, false, 0, no_discover,
	  NULL, "ft, pairs: no discovery fallback (the papers' routing)"),
	O("progress", 0, OPT_PROGRESS, C, K_FLAG, false, 0, progress, NULL,
	  "ft: \"S of N sources\" on stderr; diameter: each batch"),
	X("from", 0, OPT_FROM, A, "ADDR",
	  "route: the source's address (locate: or all)"),
	X("to", 0, OPT_TO, A, "ADDR", "route: the destination's address (S2: node id)"),
	O("fail", 0, OPT_FAIL, A, K_TEXT, false, 0, fail, "LIST",
	  "failed servers, links: ADDR[/PORT],... (S2: also A-B)"),
	O("hash", 0, OPT_HASH, A, K_U32, false, U32MAX, hash, "H",
	  "route: the flow's hash (default 0)"),
	O("all-hashes", 0, OPT_ALL_HASHES, C, K_FLAG, false, 0, all_hashes,
	  NULL, "route: every path a flow may take"),
	O("runs", 0, OPT_RUNS, A, K_U32, true, 1000, runs, "R",
	  "bench: runs (default 7)"),
	O("decisions", 0, OPT_DECISIONS, A, K_U32, true, 1U << 30, decisions,
	  "N", "bench: only N decisions of --mode (callgrind)"),
	O("nodes", 0, OPT_NODES, S, K_U32, false, U32MAX, nodes, "N",
	  "N nodes (the kernel's fabric: derived, --fabric plan)"),
	O("spaces", 0, OPT_SPACES, S, K_U32, false, U32MAX, spaces, "L",
	  "L coordinate spaces"),
	O("switches", 0, OPT_SWITCHES, S, K_U32, false, U32MAX, nodes, "N",
	  "the paper's graph of N switches"),
	O("ports", 0, OPT_PORTS, S, K_U32, false, U32MAX, n, "P",
	  "ports a switch (default 10), the same as -n"),
	O("servers", 0, OPT_SERVERS, S, K_U32, false, U32MAX, servers, "S",
	  "server ports of the P (default 2; derived, plan: 0)"),
	O("file", 0, OPT_FILE, S, K_TEXT, false, 0, file, "F.Topo",
	  "the authors' graph file, or a baseline's (graphs.py)"),
	O("coords", 0, OPT_COORDS, S, K_TEXT, false, 0, coords,
	  "balanced|random|derived", "the graph's coordinates"),
	X("fabric", 0, OPT_FABRIC, S, "derived|plan|graph",
	  "the kernel's derived or plan mode, the paper's graph"),
	O("plan", 0, OPT_PLAN, S, K_TEXT, false, 0, plan_file, "FILE",
	  "a kernel plan (as plan --fabric plan prints it)"),
	O("grow", 0, OPT_GROW, S, K_U32, false, U32MAX, grow, "M",
	  "plan: M nodes added"),
	O("d", 0, OPT_D, S, K_U32, false, U32MAX, d, "D",
	  "spaces routed on (default: all)"),
	O("keys", 0, OPT_KEYS, S, K_U32, false, U32MAX, keys, "K",
	  "keys: K keys (default 100000)"),
	O("key", 0, OPT_KEY, S, K_TEXT, false, 0, key, "KEY",
	  "locate: the key"),
	O("multipath", 0, OPT_MULTIPATH, S, K_FLAG, false, 0, multipath, NULL,
	  "pairs: the outcome over every flow hash"),
#undef O
#undef X
};

#define NOPTS	(sizeof(opt_table) / sizeof(opt_table[0]))

static const char usage_head[] =
"usage: dpsim COMMAND [--topo NAME] [options]\n"
"       dpsim -V | --version\n"
"\n"
"commands:\n"
"  paths -n N -k K [--pairs P] [--seed S] [--json] [--shortest]\n"
"        [--sources S] [--mode MODE] [--disjoint]\n"
"      failure-free routing over all pairs (small networks, or when P is\n"
"      0) or P random pairs; --shortest adds true shortest paths by BFS\n"
"      from S sampled sources (default 4); --disjoint: are the K\n"
"      candidate paths of path selection valid and internally disjoint?\n"
"  diameter -n N -k K [--sources S] [--seed S] [--progress]\n"
"      the exact diameter of the server graph (server hops, a switch one\n"
"      hop, as paths --shortest): eccentricity upper bounds (Takes and\n"
"      Kosters' BoundingDiameters) from BFS run S at a time (default and\n"
"      most 256), until no\n"
"      server's bound exceeds the largest eccentricity found; prints it,\n"
"      a pair that far apart and the BFS it took (the time on stderr)\n"
"  ft -n N -k K { --failed F | --populate PCT [--order grow|random] }\n"
"        [--fail-links L | --fail-frac F] [--pairs P] [--sources S]\n"
"        [--seed S] [--ttl T] [--mode MODE] [--no-discover|--discover]\n"
"        [--json] [--progress]\n"
"      F random failed servers, L failed links (or a fraction F of the\n"
"      fabric's: a server-switch link, a server-server cable), P random\n"
"      live pairs (default 100000, from S sources, default 1000) routed\n"
"      around them, against a BFS of the live fabric.  As the kernel, a\n"
"      packet the topology's default mode drops goes on by the discovery\n"
"      fallback (a flood, the reply installing a shortcut on a shortest\n"
"      live path), and its cost is counted; --no-discover: the papers'\n"
"      routing alone; --discover: the fallback in every mode\n"
"  flows -n N -k K [--seeds N] [--paths K] [--hosts H] [--seed S] [--fct]\n"
"        [--failed F] [--fail-links L | --fail-frac F] [--fail-switches W]\n"
"        [--populate PCT [--order grow|random]] [--mode MODE] [--no-discover]\n"
"        [--sizes LIST]\n"
"      a random permutation (every live server, or host, sends one flow\n"
"      and receives one; dpns3's draw and flow hash) routed by the mode,\n"
"      failures as ft's (and W switches down), with its discovery\n"
"      fallback; the max-min fair aggregate over directed links of\n"
"      capacity 1, percent of every flow at line rate, and mean hops;\n"
"      --seeds N: seeds S..S+N-1, mean and 95% CI (Student t); --paths K:\n"
"      K subflows a flow, on the mode's candidate paths (XDCent, BCube)\n"
"      else under K flow hashes; --topo s2 --nodes N -n P --spaces L:\n"
"      run i on the fabric of seed S+i (default 0), permutation S+i+1;\n"
"      --fct: every flow of size 1 (--sizes: flow i of LIST[i mod n]),\n"
"      1/K of it a subflow, all from time 0, max-min rates recomputed as\n"
"      subflows finish: completion mean, p50, p99 and all-flow in units\n"
"      of size 1 / link rate\n"
"  route -n N -k K --from ADDR --to ADDR [--fail ADDR[/PORT],...] [--ttl T]\n"
"        [--mode MODE] [--hash H | --all-hashes] [--json|--dot]\n"
"      hop-by-hop path of the flow whose hash is H; addresses are the\n"
"      topology's (DPillar's C:v_{k-1}.....v_0, S2's the node id) or\n"
"      #<node id>\n"
"  pairs -n N -k K [--fail ADDR[/PORT],...] [--mode MODE]\n"
"        [--no-discover|--discover]\n"
"      every ordered pair of live servers: SRC DST delivered|dropped|bad_hop\n"
"      HOPS PATH (exit 1 on a hop to a non-neighbour); as the kernel, the\n"
"      discovery fallback carries on where the default mode drops (but\n"
"      for S2, which has its own); --no-discover: without it\n"
"  plan -n N -k K [--order grow] [--csv|--json|--dot]\n"
"      switch (column, id) on each port of every server; --order grow:\n"
"      the order in which to populate a growing fabric\n"
"  bench [-n N -k K] [--runs R] [--json] [--decisions N --mode MODE]\n"
"      ns per routing decision, each mode (median of R runs, default 7);\n"
"      --topo s2: derived mode, -n PORTS --nodes N --spaces L [--seed S]\n"
"\n"
"with --topo s2 (modes 2hop, 1hop, 2hop-sim; addresses: node ids from\n"
"0), the same commands run on one of its fabrics:\n"
"      --nodes N -n P --spaces L [--seed S]: the kernel's derived fabric\n"
"          (dpctl plan topo s2 nodes N n P spaces L), seed 0 unless --seed\n"
"      --switches N --ports P [--servers S] [--spaces L] [--coords C]\n"
"          [--fabric graph|derived] [--seed S]: the paper's graph model\n"
"          (its random cabling, any size), or the kernel's cabling\n"
"      --file F.Topo: the authors' graph; or --file G, a baseline's graph\n"
"          (tools/ns3/graphs.py: SWDC greedy, Jellyfish ksp), ft only\n"
"          (its hops' 10th/90th percentiles too), and keys on SWDC\n"
"      --fabric plan --nodes N --ports P --spaces L [--grow M] |\n"
"          --plan FILE: a kernel plan\n"
"and has these too (switch hops):\n"
"  paths [--d D]        every ordered switch pair: BFS and greedy routing\n"
"  ft --fail-links L | --fail-frac F [--mode M] [--no-discover]  success\n"
"                       with those links failed, without and with shortcut\n"
"                       discovery (the kernel's fabrics: the core's ft)\n"
"  keys [--keys K] [--d D]  key-based routing: store/retrieve hops, load\n"
"  plan [--grow M] [--dot|--json|--csv]  the cabling and coordinates\n"
"  locate --key KEY [--from A|all]  the key's home switches, its path\n"
"  pairs [--fail A,A/P,A-B..] [--multipath]  every ordered pair of live\n"
"                       switches, as the kernel routes\n"
"  route --from A --to B [--hash H] [--fail A,A/P,A-B..] [--dot|--json]\n"
"                       one flow's path (switch ids from 0)\n"
"  compare [--fail-links L | --fail-frac F]  plan mode: the core's paths\n"
"                       equal the simulator's (exit 1 otherwise)\n";

static const char usage_tail[] =
"\n"
"numbers are decimal or 0x hex, within the option's range; exit status:\n"
"0 ok, 1 runtime failure, 2 usage error\n";

static int bad_num(const char *name, const char *s, const char *why,
		   u64 min, u64 max);

/*
 * Whether parameter @d of DP_PARAM_LIST gets a --WORD option of its own:
 * not when a row of opt_table[] already has its word, as a long name or
 * as the short option of a one-letter word (-n, -k).  Those rows read it
 * their way (--seed is also the random seed, --coords S2's graph); any
 * other word of the list, as a parameter added to it, is read by
 * param_store() with no line of dpsim's.
 */
static bool param_opt(const struct dp_param *d)
{
	u32 i;

	for (i = 0; i < NOPTS; i++)
		if ((opt_table[i].name && !strcmp(opt_table[i].name, d->name)) ||
		    (opt_table[i].shrt && !d->name[1] &&
		     opt_table[i].shrt == d->name[0]))
			return false;
	return true;
}

/* --WORD V of parameter @d: 0, or EXIT_USAGE after a message. */
static int param_store(const struct dp_param *d, const char *arg,
		       struct opts *o)
{
	char name[40];

	if (!dp_param_set(d, arg, &o->tparams)) {
		o->tparams_given |= 1U << (d - dp_params);
		return 0;
	}
	snprintf(name, sizeof(name), "--%s", d->name);
	if (d->flags & DP_PARAM_COORDS) {
		fprintf(stderr, "dpsim: bad %s '%s': %u to %u numbers, comma separated\n(dpsim --help for usage)\n",
			name, arg, d->min, d->max);
		return EXIT_USAGE;
	}
	return bad_num(name, arg, NULL, d->min, d->max);
}

/* The parameters param_opt() gives an option, for the usage. */
static void usage_params(FILE *f)
{
	const struct dp_param *d;
	bool head = false;
	char buf[64];

	for (d = dp_params; d < dp_params + DP_PARAM_COUNT; d++) {
		if (!param_opt(d))
			continue;
		if (!head)
			fprintf(f, "\nthe fabric's other parameters (dpctl link add's words):\n");
		head = true;
		snprintf(buf, sizeof(buf), "--%s %s", d->name,
			 d->flags & DP_PARAM_COORDS ? "X,..." : "V");
		fprintf(f, "  %-22s %u..%u%s\n", buf, d->min, d->max,
			d->flags & DP_PARAM_COORDS ? " numbers" : "");
	}
}

/* The options of @scope (every topology: A). */
static void usage_opts(FILE *f, const char *title, u8 scope)
{
	const struct dpsim_opt *d;
	char buf[64];
	int at;

	fprintf(f, "\n%s\n", title);
	for (d = opt_table; d < opt_table + NOPTS; d++) {
		if (d->scope != scope)
			continue;
		at = 0;
		if (d->shrt)
			at += snprintf(buf + at, sizeof(buf) - at, "-%c%s",
				       d->shrt, d->name ? ", " : "");
		if (d->name)
			at += snprintf(buf + at, sizeof(buf) - at, "--%s",
				       d->name);
		if (d->arg)
			snprintf(buf + at, sizeof(buf) - at, " %s", d->arg);
		if (strlen(buf) > 22)
			fprintf(f, "  %s\n  %-22s %s\n", buf, "", d->help);
		else
			fprintf(f, "  %-22s %s\n", buf, d->help);
	}
}

int usage(FILE *f, int status)
{
	fputs(usage_head, f);
	usage_opts(f, "options (every topology):", A);
	usage_opts(f, "options of every topology but S2 (not --topo s2):", C);
	usage_opts(f, "options of S2 only (--topo s2):", S);
	usage_params(f);
	fputs(usage_tail, f);
	return status;
}

int bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "dpsim: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n(dpsim --help for usage)\n");
	return EXIT_USAGE;
}

/* "-n" or "--name" into @buf: the option as the user spelt it. */
static const char *opt_name(const struct dpsim_opt *d, bool is_long,
			    char *buf, size_t size)
{
	if (is_long)
		snprintf(buf, size, "--%s", d->name);
	else
		snprintf(buf, size, "-%c", d->shrt);
	return buf;
}

static int bad_num(const char *name, const char *s, const char *why,
		   u64 min, u64 max)
{
	fprintf(stderr, "dpsim: bad %s '%s': ", name, s);
	if (why)
		fprintf(stderr, "%s\n", why);
	else
		fprintf(stderr, "out of range %llu..%llu\n",
			(unsigned long long)min, (unsigned long long)max);
	fprintf(stderr, "(dpsim --help for usage)\n");
	return EXIT_USAGE;
}

/*
 * The one parser of a number: decimal or 0x hex, nothing before or
 * after it, no sign, @min..@max.  0, or EXIT_USAGE after a message that
 * names the option @name.
 */
int parse_num(const char *name, const char *s, u64 min, u64 max, u64 *out)
{
	unsigned long long v;
	char *end;

	if (!s || !*s)
		return bad_num(name, s ? s : "", "not a number", 0, 0);
	if (!isdigit((unsigned char)*s))
		return bad_num(name, s, "not a number", 0, 0);
	errno = 0;
	v = strtoull(s, &end, 0);
	if (end == s || *end)
		return bad_num(name, s, "not a number", 0, 0);
	if (errno == ERANGE || v > max || v < min)
		return bad_num(name, s, NULL, min, max);
	*out = v;
	return 0;
}

/* A fraction 0..1 (--fail-frac): as parse_num(). */
static int parse_frac(const char *name, const char *s, double *out)
{
	char *end;
	double v;

	if (!s || (!isdigit((unsigned char)*s) && *s != '.'))
		return bad_num(name, s ? s : "", "not a number", 0, 0);
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end)
		return bad_num(name, s, "not a number", 0, 0);
	if (errno == ERANGE || !isfinite(v) || v < 0 || v > 1)
		return bad_num(name, s, "out of range 0..1", 0, 0);
	*out = v;
	return 0;
}

/* Store option @d's @arg as its row says: 0 or an exit status. */
static int opt_store(const struct dpsim_opt *d, const char *name,
		     const char *arg, struct opts *o)
{
	char *f = (char *)o + d->off;
	u64 v;
	int err;

	switch (d->kind) {
	case K_FLAG:
		*(bool *)f = true;
		return 0;
	case K_TEXT:
		*(const char **)f = arg;
		return 0;
	case K_U32:
	case K_U64:
		err = parse_num(name, arg, d->nonzero ? 1 : 0, d->max, &v);
		if (err)
			return err;
		if (d->kind == K_U64)
			*(u64 *)f = v;
		else
			*(u32 *)f = (u32)v;
		return 0;
	}
	return 0;
}

/* What holds when an option is not given. */
static void opts_defaults(struct opts *o)
{
	memset(o, 0, sizeof(*o));
	o->seed = 1;
	o->sources = 4;
	o->topo = "dpillar";
	o->runs = 7;
	o->nseeds = 1;
	o->subflows = 1;
	o->coords = "balanced";
	o->servers = 2;		/* S2's paper's graph; s2_words() */
	o->rule = DP_S2_RULE_2HOP_PAPER;
	o->keys = 100000;
	o->from_id = 0xffffffffU;
	o->to_id = 0xffffffffU;
}

/* The parse: the options given, and the text of those read after it. */
struct parse_state {
	/* by row, every row of the option's id: given, its last argument */
	const struct dpsim_opt *given[NOPTS];
	const char *text[NOPTS];
	bool spelt[NOPTS];	/* by its long name */
};

static bool given(const struct parse_state *ps, int id)
{
	u32 i;

	for (i = 0; i < NOPTS; i++)
		if (opt_table[i].id == id && ps->given[i])
			return true;
	return false;
}

/* The argument of option @id, the last given; NULL: not given. */
static const char *text_of(const struct parse_state *ps, int id)
{
	u32 i;

	for (i = 0; i < NOPTS; i++)
		if (opt_table[i].id == id)
			return ps->text[i];
	return NULL;
}

/*
 * An address of S2 (--from, --to): its node id, as the kernel's
 * (s2_addr_parse()), or #id as any topology's (dp_addr_parse()); 0 or
 * an exit status.
 */
static int s2_addr(const char *name, const char *t, u32 *out)
{
	u64 v;
	int err;

	if (!t)
		return 0;
	err = parse_num(name, t + (*t == '#'), 0, U32MAX - 1, &v);
	if (!err)
		*out = (u32)v;
	return err;
}

/*
 * The options a topology lacks: a usage error that says who has it.
 * @s2: the topology is S2.  0 or EXIT_USAGE.
 */
static int opts_scope(const struct parse_state *ps, bool s2)
{
	const struct dpsim_opt *d;
	char name[32];
	u32 i;

	for (i = 0; i < NOPTS; i++) {
		d = ps->given[i];
		if (d != &opt_table[i] || (d->scope & (s2 ? S : C)))
			continue;
		opt_name(d, ps->spelt[i], name, sizeof(name));
		return bad_usage(s2 ? "%s: S2 (--topo s2) has no such option" :
				 "%s: only S2 has it (--topo s2)", name);
	}
	return 0;
}

/*
 * What S2's values are (the words its modes, fabrics and addresses take),
 * and its defaults that depend on the other options: the same options,
 * checked against S2 as need_topo() checks the other topologies'.
 * --mode is the routing mode (the kernel's: 2hop, 1hop, 2hop-sim; the
 * graph model's rule of that name).  --nodes N
 * (without --fabric, a plan or a file) is the kernel's derived fabric in
 * the kernel's words, as dpctl plan topo s2 nodes N n P spaces L: seed 0
 * (the kernel's).  The kernel's fabrics have no server ports (its nodes
 * are the servers): --servers 0.  The paper's graph keeps 2 servers a
 * switch, fewer when --spaces needs the ports (2 a space).
 */
static int s2_words(struct opts *o, const struct parse_state *ps)
{
	const char *t;
	int rule, err;

	if (o->sel_text) {
		rule = s2_rule_parse(o->sel_text);
		if (rule < 0)
			return bad_usage("bad --mode '%s': S2's modes are 2hop, 1hop, 2hop-sim (a kernel plan: --fabric plan)",
					 o->sel_text);
		o->rule = (u32)rule;
	}
	t = text_of(ps, OPT_FABRIC);
	if (t && strcmp(t, "derived") && strcmp(t, "plan") &&
	    strcmp(t, "graph"))
		return bad_usage("bad --fabric '%s' (derived, plan, graph)", t);
	o->fabric = t;
	o->plan_mode = t && !strcmp(t, "plan");
	o->wiring_derived = t && !strcmp(t, "derived");
	if (strcmp(o->coords, "balanced") && strcmp(o->coords, "random") &&
	    strcmp(o->coords, "derived"))
		return bad_usage("bad --coords '%s' (balanced, random, derived)",
				 o->coords);
	o->from_all = o->from && !strcmp(o->from, "all");
	err = o->from_all ? 0 : s2_addr("--from", o->from, &o->from_id);
	if (!err)
		err = s2_addr("--to", o->to, &o->to_id);
	if (err)
		return err;
	if (o->seed > U32MAX)
		return bad_usage("bad --seed '%s': S2's seeds are 32 bits",
				 text_of(ps, OPT_SEED) ? : "");
	if (!given(ps, 'n') && !given(ps, OPT_PORTS))
		o->n = 10;
	o->servers_set = given(ps, OPT_SERVERS);
	o->seed_set = given(ps, OPT_SEED);
	o->nodes_set = given(ps, OPT_NODES);
	if (o->nodes_set && !t && !o->plan_file && !o->file) {
		o->wiring_derived = true;
		if (!o->seed_set)
			o->seed = 0;
	}
	if (o->servers_set)
		return 0;
	if (o->wiring_derived || o->plan_mode || o->plan_file)
		o->servers = 0;
	else if (o->spaces && o->n >= 2 * o->spaces &&
		 o->n - 2 * o->spaces < o->servers)
		o->servers = o->n - 2 * o->spaces;
	return 0;
}

/*
 * The one check after the parse, every topology's: the options it
 * lacks, the words of those read after the parse, then S2's defaults.
 */
static int opts_check(struct opts *o, const struct parse_state *ps)
{
	bool s2 = !strcmp(o->topo, "s2");
	const char *t;
	int err;

	err = opts_scope(ps, s2);
	if (err)
		return err;
	o->sel_text = text_of(ps, OPT_MODE);
	o->from = text_of(ps, OPT_FROM);
	o->to = text_of(ps, OPT_TO);
	t = text_of(ps, OPT_FAIL_FRAC);
	if (t) {
		if (given(ps, OPT_FAIL_LINKS))
			return bad_usage("--fail-links and --fail-frac%s", "");
		err = parse_frac("--fail-frac", t, &o->fail_frac);
		if (err)
			return err;
		o->fail_frac_set = true;
	}
	o->fail_links_set = given(ps, OPT_FAIL_LINKS);
	t = text_of(ps, OPT_ORDER);
	if (t) {
		/* plan --order; ft --order grow|random */
		o->order = true;
		o->order_random = !strcmp(t, "random");
		if (!o->order_random && strcmp(t, "grow"))
			return bad_usage("bad --order '%s' (grow, random)", t);
	}
	o->pairs_set = given(ps, OPT_PAIRS);
	o->sources_set = given(ps, OPT_SOURCES);
	o->failed_set = given(ps, OPT_FAILED);
	if (o->discover_set && o->no_discover)
		return bad_usage("--discover and --no-discover%s", "");
	/* the kernel's default: the fallback on */
	o->discover = !o->no_discover;
	return s2 ? s2_words(o, ps) : 0;
}

int parse_opts(int argc, char **argv, struct opts *o)
{
	struct option lo[NOPTS + DP_PARAM_COUNT + 1];
	struct parse_state ps;
	char shorts[2 * NOPTS + 1], name[32];
	const struct dpsim_opt *d;
	u32 i, n = 0, ns = 0;
	int c, li, err;

	opts_defaults(o);
	memset(&ps, 0, sizeof(ps));
	memset(lo, 0, sizeof(lo));
	for (i = 0; i < NOPTS; i++) {
		d = &opt_table[i];
		if (d->name) {
			lo[n].name = d->name;
			lo[n].has_arg = d->arg ? required_argument :
				no_argument;
			lo[n].val = d->id;
			n++;
		}
		if (d->shrt) {
			shorts[ns++] = d->shrt;
			if (d->arg)
				shorts[ns++] = ':';
		}
	}
	for (i = 0; i < DP_PARAM_COUNT; i++) {
		if (!param_opt(&dp_params[i]))
			continue;
		lo[n].name = dp_params[i].name;
		lo[n].has_arg = required_argument;
		lo[n].val = OPT_PARAM + (int)i;
		n++;
	}
	shorts[ns] = 0;
	optind = 1;
	for (;;) {
		li = -1;
		c = getopt_long(argc, argv, shorts, lo, &li);
		if (c == -1)
			break;
		if (c == '?')
			return EXIT_USAGE;
		if (c >= OPT_PARAM) {
			err = param_store(&dp_params[c - OPT_PARAM], optarg, o);
			if (err)
				return err;
			continue;
		}
		/* the row: of the long name given, else of the short one */
		d = NULL;
		for (i = 0; i < NOPTS && !d; i++)
			if (li >= 0 ? opt_table[i].name &&
			    !strcmp(opt_table[i].name, lo[li].name) :
			    opt_table[i].shrt == c)
				d = &opt_table[i];
		if (!d)
			return EXIT_USAGE;
		if (d->id == OPT_HELP)
			return -1;
		opt_name(d, li >= 0, name, sizeof(name));
		/* the last of the names of one option wins (--sel, --mode) */
		for (i = 0; i < NOPTS; i++) {
			if (opt_table[i].id != d->id)
				continue;
			ps.given[i] = d;
			ps.text[i] = optarg;
		}
		ps.spelt[d - opt_table] = li >= 0;
		err = opt_store(d, name, optarg, o);
		if (err)
			return err;
	}
	if (optind < argc)
		return bad_usage("unexpected argument '%s'", argv[optind]);
	return opts_check(o, &ps);
}
