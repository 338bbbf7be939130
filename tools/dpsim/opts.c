// SPDX-License-Identifier: GPL-2.0
/*
 * opts.c - dpsim's command line: the usage texts, the one option table of
 * every command and topology, and its parser.
 *
 * One table, two front ends: the arithmetic one over the routing core
 * (DPillar, DCell, XDCent/BCube, S2's derived mode in bench) and S2's
 * (--topo s2: its graph commands, s2sim.c, and the core's ft and plan on
 * the fabrics the kernel builds, s2fabric.c).  Each option says which reads it;
 * getopt gets the options of one front end, in that front end's order
 * (getopt lists the matches of an ambiguous abbreviation in table order,
 * and those messages are part of the interface scripts see).  The two
 * read some names differently (--mode, --nodes, --fail-links, --from,
 * --seed): each front end's handler below says how.
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "dpsim.h"
#include "s2sim.h"
#include "topo_s2.h"

static const char usage_text[] =
"usage: dpsim COMMAND [--topo NAME] [options]\n"
"       dpsim -V | --version\n"
"\n"
"commands:\n"
"  paths -n N -k K [--pairs P] [--seed S] [--json] [--shortest]\n"
"        [--sources S] [--mode MODE] [--disjoint]\n"
"      failure-free routing over all pairs (small networks, or when P is\n"
"      0) or P random pairs; --shortest adds true shortest paths by BFS\n"
"      from S sampled sources (default 4; every source once when S is at\n"
"      least the node count); --disjoint: are the K candidate paths of\n"
"      path selection of those pairs valid and internally disjoint (in\n"
"      servers and switches; in servers only)?  With a mode that has no\n"
"      candidates (XDCent's rot), its flow hashes 0..K-1\n"
"  ft -n N -k K { --failed F | --populate PCT [--order grow|random] }\n"
"        [--fail-links L] [--pairs P] [--sources S] [--seed S] [--ttl T]\n"
"        [--mode MODE] [--discover] [--json] [--progress]\n"
"      F random failed servers, L failed server-switch links, P random\n"
"      live pairs (default 100000, from S sources, default 1000) routed\n"
"      around them; --populate: only the first PCT% of the servers in\n"
"      the growth order (or a random order) exist.  A BFS per source says\n"
"      which pairs are connected and their shortest live path;\n"
"      --discover: where the topology's routing drops a packet, model\n"
"      shortcut discovery as a generic fallback (a flood from that\n"
"      server, the reply installing a shortcut on a shortest live path\n"
"      with a strictly decreasing hop count) and count its cost\n"
"      --progress: \"S of N sources\" on stderr (without it, only when\n"
"      stderr is a terminal; a BFS of a million servers takes 0.1 s)\n"
"  route -n N -k K --from ADDR --to ADDR [--fail ADDR[/PORT],...] [--ttl T]\n"
"        [--mode MODE] [--hash H | --all-hashes] [--json|--dot]\n"
"      hop-by-hop path of the flow whose hash is H (default 0);\n"
"      addresses are C:v_{k-1}.....v_0 or #<node id>; --fail takes failed\n"
"      servers, and ADDR/PORT for a failed link; --all-hashes: every\n"
"      distinct path a flow may take (the routing word has 16 bits), with\n"
"      how many of the 65536 words take it (JSON); --dot: the fabric with\n"
"      the path and the failures, as Graphviz DOT\n"
"  pairs -n N -k K [--fail ADDR[/PORT],...] [--mode MODE] [--discover]\n"
"      every ordered pair of live servers: SRC DST delivered|dropped|bad_hop\n"
"      HOPS PATH; exit 1 when a hop went to a non-neighbour (a bug)\n"
"      (PATH comma-separated), one line each; --discover: the kernel's\n"
"      discovery fallback (the default mode of every topology but S2)\n"
"      carries on where the topology drops, along a shortest live path\n"
"  plan -n N -k K [--order grow] [--csv|--json|--dot]\n"
"      switch (column, id) on each port of every server; --order grow:\n"
"      the recommended order in which to populate a growing fabric;\n"
"      --dot: servers, switches and cables as Graphviz DOT (dot -Tsvg)\n"
"  bench [-n N -k K] [--runs R] [--json] [--decisions N --mode MODE]\n"
"      ns per routing decision, each mode (median of R runs, default 7);\n"
"      --decisions: only N failure-free decisions of MODE, for callgrind\n"
"      (tools/dpsim/bench-callgrind.sh counts their instructions);\n"
"      --topo s2: derived mode, -n PORTS --nodes N --spaces L [--seed S]\n"
"\n"
"  -j, --json   JSON instead of text (the commands that have it)\n"
"  --topo NAME  the topology (default dpillar); --topo s2 (Space Shuffle)\n"
"               has its own commands and options: dpsim help --topo s2\n"
"  --mode MODE  the topology's routing mode; DPillar: shortest (default),\n"
"               paper (SRoute/FTRoute, the shorter helix direction), cw,\n"
"               ccw (the paper's, helix direction fixed); --sel and --dir\n"
"               are the same option\n"
"  --ttl T      default: the topology's proven path bound\n"
"  -i I, --level I  XDCent's top level i (--topo xdcent)\n"
"\n"
"exit status: 0 ok, 1 runtime failure, 2 usage error\n";

static const char s2_usage[] =
"usage: dpsim COMMAND --topo s2 --nodes N -n P --spaces L [--seed S] [-j]\n"
"       dpsim COMMAND --topo s2 { --file F.Topo |\n"
"                 --switches N --ports P [--servers S] [--spaces L]\n"
"                 [--coords balanced|random|derived] [--seed S]\n"
"                 [--wiring random|derived] } [--json]\n"
"       dpsim COMMAND --topo s2 { --mode plan --nodes N --ports P --spaces L\n"
"                 [--seed S] [--grow M] | --plan FILE } [--json|--csv]\n"
"  --nodes N -n P --spaces L: the kernel's fabric in dpctl's words (dpctl\n"
"                       plan topo s2 nodes N n P spaces L): derived mode,\n"
"                       every port a cable, seed 0 unless --seed; the\n"
"                       same as --switches N --ports P --servers 0\n"
"                       --wiring derived --seed 0.  -n is --ports, -j\n"
"                       --json\n"
"  --switches N --ports P: the paper's graph, S of the P ports to servers\n"
"                       (default 2, fewer when --spaces needs the ports:\n"
"                       2 a space), seed 1 unless --seed\n"
"  --mode plan: a kernel plan (S2 plan mode): N nodes of P cable ports,\n"
"                       Algorithm 3 coordinates, rings and random cables\n"
"                       (--grow M: then M nodes added, section 3.3);\n"
"                       --plan FILE: the plan \"plan --mode plan\" printed\n"
"  --wiring derived: the kernel's fabric (derived coordinates, ring and\n"
"                       extra-ring cables by port: net/dpillar/topo_s2.c;\n"
"                       --servers defaults to 0)\n"
"commands:\n"
"  paths [--d D]        every ordered switch pair: BFS, 1-hop greedy, 2-hop\n"
"                       greedy (paper's wording), 2-hop-sim (the authors'\n"
"                       simulator: only via MCD-reducing neighbours)\n"
"  ft --fail-links F [--rule R]  routing success with a fraction F of\n"
"                       failed links, without and with shortcut discovery;\n"
"                       derived and plan mode: the core's ft (dpsim --help)\n"
"                       with F of the cables as failed links, as many\n"
"                       random pairs as ordered pairs, --discover\n"
"  keys [--keys K] [--d D]  key-based routing: store/retrieve hops, load\n"
"  plan [--grow M] [--dot]  the cabling and coordinates (.Topo format;\n"
"                       plan mode: the kernel plan, as dpctl plan prints it:\n"
"                       per node its coordinates, per port its peer and\n"
"                       the peer's port, after --grow the cables removed\n"
"                       and added; derived mode: the core's plan, as\n"
"                       dpctl plan topo s2 prints it, no --grow);\n"
"                       --dot: switches and cables as Graphviz DOT (the\n"
"                       core's drawing in derived and plan mode)\n"
"  locate --key KEY [--from A|all]  the key's coordinates and home switch\n"
"                       per space; from A (every switch: all), the path of\n"
"                       the key's retrieve (greediest routing to the key's\n"
"                       point until no candidate is closer), as the kernel\n"
"                       routes a packet to the key address\n"
"  pairs [--fail A,A-B..]  every ordered pair of live switches with those\n"
"                       switches and cables failed: delivered or dropped\n"
"                       (stuck), hops and path, as the kernel routes\n"
"                       (--multipath: the outcome over every flow hash,\n"
"                       delivered, dropped or mixed)\n"
"  route --from A --to B [--hash H] [--fail A,A-B..] [--dot]  one flow's\n"
"                       path (switch ids from 0) around those failures;\n"
"                       --dot: drawn on the network, failures dashed;\n"
"                       H != 0: the first hop hashed over the neighbours\n"
"                       that reduce the MCD (the paper's Algorithm 2);\n"
"                       --json (derived, plan mode): the core's route\n"
"                       JSON, as for the other topologies\n"
"  compare [--fail-links F]  plan mode: every ordered pair through the\n"
"                       kernel's routing core (dp_walk on the plan's table)\n"
"                       and through this simulator's greedy, each rule and\n"
"                       (multipath) 2hop with 3 flow hashes (Algorithm 2):\n"
"                       the paths must be equal (exit 1 otherwise)\n"
"  --rule 1hop|2hop|2hop-sim (default 2hop); switch hops throughout\n"
"  (server-to-server hops are switch hops + 2)\n";

int usage(FILE *f, enum dpsim_fe fe, int status)
{
	fputs(fe == FE_S2 ? s2_usage : usage_text, f);
	return status;
}

int bad_usage(const char *fmt, const char *arg)
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
	OPT_TTL, OPT_DIR, OPT_RUNS, OPT_TOPO, OPT_POPULATE, OPT_ORDER,
	OPT_HASH, OPT_ALL_HASHES, OPT_DECISIONS, OPT_LEVEL, OPT_DOT,
	OPT_DISCOVER, OPT_NODES, OPT_SPACES, OPT_PROGRESS, OPT_DISJOINT,
	/* S2's graph front end only */
	OPT_FILE, OPT_SWITCHES, OPT_PORTS, OPT_SERVERS, OPT_COORDS,
	OPT_WIRING, OPT_D, OPT_RULE, OPT_KEYS, OPT_KEY, OPT_GROW,
	OPT_MULTIPATH, OPT_PLAN,
};

/*
 * Every long option: @core, read by the core front end (in table
 * order); @s2, its place in S2's (1-based, 0: not an S2 option).
 */
static const struct dpsim_opt {
	const char *name;
	int has_arg;
	int id;
	bool core;
	u8 s2;
} opt_table[] = {
	{ "help", no_argument, 'h', true, 27 },
	{ "pairs", required_argument, OPT_PAIRS, true, 0 },
	{ "seed", required_argument, OPT_SEED, true, 9 },
	{ "json", no_argument, OPT_JSON, true, 21 },
	{ "csv", no_argument, OPT_CSV, true, 22 },
	{ "dot", no_argument, OPT_DOT, true, 23 },
	{ "shortest", no_argument, OPT_SHORTEST, true, 0 },
	{ "disjoint", no_argument, OPT_DISJOINT, true, 0 },
	{ "sources", required_argument, OPT_SOURCES, true, 0 },
	{ "failed", required_argument, OPT_FAILED, true, 0 },
	{ "fail-links", required_argument, OPT_FAIL_LINKS, true, 12 },
	{ "from", required_argument, OPT_FROM, true, 16 },
	{ "to", required_argument, OPT_TO, true, 17 },
	{ "fail", required_argument, OPT_FAIL, true, 19 },
	{ "ttl", required_argument, OPT_TTL, true, 0 },
	{ "dir", required_argument, OPT_DIR, true, 0 },
	{ "sel", required_argument, OPT_DIR, true, 0 },
	{ "mode", required_argument, OPT_DIR, true, 25 },
	{ "populate", required_argument, OPT_POPULATE, true, 0 },
	{ "order", required_argument, OPT_ORDER, true, 0 },
	{ "hash", required_argument, OPT_HASH, true, 18 },
	{ "all-hashes", no_argument, OPT_ALL_HASHES, true, 0 },
	{ "decisions", required_argument, OPT_DECISIONS, true, 0 },
	{ "topo", required_argument, OPT_TOPO, true, 1 },
	{ "runs", required_argument, OPT_RUNS, true, 0 },
	{ "level", required_argument, OPT_LEVEL, true, 0 },
	{ "discover", no_argument, OPT_DISCOVER, true, 0 },
	{ "progress", no_argument, OPT_PROGRESS, true, 0 },
	{ "nodes", required_argument, OPT_NODES, true, 24 },
	{ "spaces", required_argument, OPT_SPACES, true, 6 },
	{ "file", required_argument, OPT_FILE, false, 2 },
	{ "switches", required_argument, OPT_SWITCHES, false, 3 },
	{ "ports", required_argument, OPT_PORTS, false, 4 },
	{ "servers", required_argument, OPT_SERVERS, false, 5 },
	{ "coords", required_argument, OPT_COORDS, false, 7 },
	{ "wiring", required_argument, OPT_WIRING, false, 8 },
	{ "d", required_argument, OPT_D, false, 10 },
	{ "rule", required_argument, OPT_RULE, false, 11 },
	{ "keys", required_argument, OPT_KEYS, false, 13 },
	{ "key", required_argument, OPT_KEY, false, 14 },
	{ "grow", required_argument, OPT_GROW, false, 15 },
	{ "multipath", no_argument, OPT_MULTIPATH, false, 20 },
	{ "plan", required_argument, OPT_PLAN, false, 26 },
};

#define NOPTS	(sizeof(opt_table) / sizeof(opt_table[0]))

/* getopt's table for @fe: its options, in its order, then the end. */
static void getopt_table(enum dpsim_fe fe, struct option *lo)
{
	u32 i, n = 0;

	memset(lo, 0, (NOPTS + 1) * sizeof(*lo));
	for (i = 0; i < NOPTS; i++) {
		const struct dpsim_opt *d = &opt_table[i];
		struct option *to;

		if (fe == FE_S2 ? !d->s2 : !d->core)
			continue;
		to = &lo[fe == FE_S2 ? d->s2 - 1u : n];
		to->name = d->name;
		to->has_arg = d->has_arg;
		to->val = d->id;
		n++;
	}
}

/*
 * The core front end's numbers: range-checked as they come, @fmt the
 * complaint; the field is a u64 when @wide, else a u32.
 */
static const struct num_opt {
	int id;
	const char *fmt;
	u64 max;
	bool nonzero;
	bool wide;
	size_t off;
} core_nums[] = {
#define N32(id, fmt, max, nz, f) { id, fmt, max, nz, false, offsetof(struct opts, f) }
#define N64(id, fmt, max, f) { id, fmt, max, false, true, offsetof(struct opts, f) }
	N32('n', "bad -n '%s'", 0xffffffffU, false, n),
	N32('k', "bad -k '%s'", 0xffffffffU, false, k),
	N32('i', "bad --level '%s'", 0xffffffffU, false, level),
	N32(OPT_LEVEL, "bad --level '%s'", 0xffffffffU, false, level),
	N32(OPT_NODES, "bad --nodes '%s'", 0xffffffffU, false, nodes),
	N32(OPT_SPACES, "bad --spaces '%s'", 0xffffffffU, false, spaces),
	N64(OPT_PAIRS, "bad --pairs '%s'", 1ULL << 40, pairs),
	N64(OPT_SEED, "bad --seed '%s'", ~0ULL, seed),
	N32(OPT_SOURCES, "bad --sources '%s'", 1U << 20, true, sources),
	N32(OPT_HASH, "bad --hash '%s'", 0xffffffffU, false, hash),
	N32(OPT_DECISIONS, "bad --decisions '%s'", 1U << 30, true, decisions),
	N32(OPT_POPULATE, "bad --populate '%s' (1..100)", 100, true, populate),
	N32(OPT_FAILED, "bad --failed '%s'", 0xffffffffU, false, failed),
	N32(OPT_FAIL_LINKS, "bad --fail-links '%s'", 0xffffffffU, false,
	    fail_links),
	N32(OPT_TTL, "bad --ttl '%s'", 100000, true, ttl),
	N32(OPT_RUNS, "bad --runs '%s'", 1000, true, runs),
#undef N32
#undef N64
};

/* A number of core_nums: 1 when @c is none, else 0 or an exit status. */
static int core_num(int c, const char *arg, struct opts *o)
{
	const struct num_opt *d;
	u64 v;

	for (d = core_nums; d < core_nums + sizeof(core_nums) /
	     sizeof(core_nums[0]); d++) {
		if (d->id != c)
			continue;
		if (!parse_u64(arg, d->max, &v) || (d->nonzero && !v))
			return bad_usage(d->fmt, arg);
		if (d->wide)
			*(u64 *)((char *)o + d->off) = v;
		else
			*(u32 *)((char *)o + d->off) = (u32)v;
		/* "given", where the default depends on the fabric */
		o->pairs_set |= c == OPT_PAIRS;
		o->sources_set |= c == OPT_SOURCES;
		o->failed_set |= c == OPT_FAILED;
		return 0;
	}
	return 1;
}

/*
 * The options that only store: a flag, the argument's text, or (S2) its
 * number as strtoul or atof read it.  @off: the field in the struct the
 * front end fills (struct opts, struct s2opts).
 */
enum field_kind { F_FLAG, F_TEXT, F_ULONG, F_DOUBLE };

static const struct field_opt {
	int id;
	enum field_kind kind;
	size_t off;
} core_fields[] = {
#define CF(id, kind, f) { id, kind, offsetof(struct opts, f) }
	CF('j', F_FLAG, json),	/* dpctl's spelling of --json */
	CF(OPT_JSON, F_FLAG, json),
	CF(OPT_CSV, F_FLAG, csv),
	CF(OPT_DOT, F_FLAG, dot),
	CF(OPT_SHORTEST, F_FLAG, shortest),
	CF(OPT_DISJOINT, F_FLAG, disjoint),
	CF(OPT_ALL_HASHES, F_FLAG, all_hashes),
	CF(OPT_DISCOVER, F_FLAG, discover),
	CF(OPT_PROGRESS, F_FLAG, progress),
	CF(OPT_FROM, F_TEXT, from),
	CF(OPT_TO, F_TEXT, to),
	CF(OPT_FAIL, F_TEXT, fail),
	/* checked by need_topo(): the names are the topology's */
	CF(OPT_DIR, F_TEXT, sel_text),
	CF(OPT_TOPO, F_TEXT, topo),
#undef CF
}, s2_fields[] = {
	/* S2's numbers: strtoul, as its scripts have always been read */
#define SF(id, kind, f) { id, kind, offsetof(struct s2opts, f) }
	SF(OPT_SWITCHES, F_ULONG, switches),
	SF(OPT_NODES, F_ULONG, switches),
	SF(OPT_PORTS, F_ULONG, ports),
	SF('n', F_ULONG, ports),	/* dpctl's "n PORTS", bench's -n */
	SF(OPT_SERVERS, F_ULONG, servers),
	SF(OPT_SPACES, F_ULONG, spaces),
	SF(OPT_SEED, F_ULONG, seed),
	SF(OPT_D, F_ULONG, d),
	SF(OPT_KEYS, F_ULONG, keys),
	SF(OPT_GROW, F_ULONG, grow),
	SF(OPT_HASH, F_ULONG, hash),
	SF(OPT_TO, F_ULONG, to),
	SF(OPT_FAIL_LINKS, F_DOUBLE, fail_links),
	SF(OPT_FILE, F_TEXT, file),
	SF(OPT_COORDS, F_TEXT, coords),
	SF(OPT_KEY, F_TEXT, key),
	SF(OPT_FAIL, F_TEXT, fail),
	SF(OPT_PLAN, F_TEXT, plan_file),
	SF(OPT_MULTIPATH, F_FLAG, multipath),
	SF(OPT_JSON, F_FLAG, json),
	SF('j', F_FLAG, json),
	SF(OPT_CSV, F_FLAG, csv),
	SF(OPT_DOT, F_FLAG, dot),
#undef SF
};

/* Store option @c of @tab (@n rows) in @base: 0, or 1 when it has none. */
static int set_field(const struct field_opt *tab, size_t n, int c,
		     const char *arg, void *base)
{
	char *f;

	for (; n; n--, tab++) {
		if (tab->id != c)
			continue;
		f = (char *)base + tab->off;
		if (tab->kind == F_FLAG)
			*(bool *)f = true;
		else if (tab->kind == F_TEXT)
			*(const char **)f = arg;
		else if (tab->kind == F_ULONG)
			*(u32 *)f = strtoul(arg, NULL, 0);
		else
			*(double *)f = atof(arg);
		return 0;
	}
	return 1;
}

#define SET_FIELD(tab, c, arg, base) \
	set_field(tab, sizeof(tab) / sizeof(tab[0]), c, arg, base)

/* One option of the core front end: 0, -1 (--help) or an exit status. */
static int core_opt(int c, const char *arg, struct opts *o)
{
	int err = core_num(c, arg, o);

	if (err != 1)
		return err;
	if (!SET_FIELD(core_fields, c, arg, o))
		return 0;
	switch (c) {
	case 'h':
		return -1;
	case OPT_ORDER:
		/* plan --order; ft --order grow|random */
		o->order = true;
		if (!strcmp(arg, "random"))
			o->order_random = true;
		else if (strcmp(arg, "grow"))
			return bad_usage("bad --order '%s' (grow, random)", arg);
		return 0;
	default:
		return EXIT_USAGE;
	}
}

/* S2's option names (--mode, --wiring, --rule): 0 or an exit status. */
static int s2_name_opt(int c, const char *arg, struct s2opts *o)
{
	int rule;

	switch (c) {
	case OPT_WIRING:
		if (strcmp(arg, "derived") && strcmp(arg, "random")) {
			fprintf(stderr, "dpsim: unknown wiring '%s'\n", arg);
			return EXIT_USAGE;
		}
		o->wiring_derived = !strcmp(arg, "derived");
		break;
	case OPT_DIR:
		if (strcmp(arg, "plan")) {
			fprintf(stderr, "dpsim: --mode takes plan (derived: --wiring derived)\n");
			return EXIT_USAGE;
		}
		o->plan_mode = true;
		break;
	case OPT_RULE:
		rule = s2_rule_parse(arg);
		if (rule < 0) {
			fprintf(stderr, "dpsim: unknown rule '%s'\n", arg);
			return EXIT_USAGE;
		}
		o->rule = (u32)rule;
		break;
	}
	return 0;
}

/* One option of S2's front end: 0, -1 (--help) or an exit status. */
static int s2_opt(int c, const char *arg, struct s2opts *o)
{
	o->servers_set |= c == OPT_SERVERS;
	o->seed_set |= c == OPT_SEED;
	o->wiring_set |= c == OPT_WIRING;
	o->nodes_set |= c == OPT_NODES;
	if (!SET_FIELD(s2_fields, c, arg, o))
		return 0;
	switch (c) {
	case OPT_TOPO:	/* read by main() */
		return 0;
	case OPT_FROM:
		o->from_all = !strcmp(arg, "all");
		o->from = strtoul(arg, NULL, 0);
		return 0;
	case OPT_WIRING:
	case OPT_DIR:
	case OPT_RULE:
		return s2_name_opt(c, arg, o);
	case 'h':
		return -1;
	default:
		return usage(stderr, FE_S2, EXIT_USAGE);
	}
}

/*
 * S2's defaults that depend on the other options.  --nodes N (without a
 * plan) is the kernel's derived fabric in the kernel's words, as dpctl
 * plan topo s2 nodes N n P spaces L: --wiring derived, seed 0 (the
 * kernel's).  The kernel's fabrics have no server ports (its nodes are
 * the servers): --servers 0.  The paper's graph keeps 2 servers a switch,
 * fewer when --spaces needs the ports (2 a space).
 */
static void s2_defaults(struct s2opts *o)
{
	if (o->nodes_set && !o->plan_mode && !o->plan_file && !o->file &&
	    !o->wiring_set) {
		o->wiring_derived = true;
		if (!o->seed_set)
			o->seed = 0;
	}
	if (o->servers_set)
		return;
	if (o->wiring_derived || o->plan_mode || o->plan_file)
		o->servers = 0;
	else if (o->spaces && o->ports >= 2 * o->spaces &&
		 o->ports - 2 * o->spaces < o->servers)
		o->servers = o->ports - 2 * o->spaces;
}

/* What holds when an option is not given. */
static void opts_defaults(struct opts *o)
{
	memset(o, 0, sizeof(*o));
	o->seed = 1;
	o->sources = 4;
	o->topo = "dpillar";
	o->runs = 7;
	o->s2.coords = "balanced";
	o->s2.ports = 10;
	o->s2.servers = 2;	/* the paper's graph; s2_defaults() */
	o->s2.rule = DP_S2_RULE_2HOP_PAPER;
	o->s2.keys = 100000;
	o->s2.seed = 1;
	o->s2.from = 0xffffffffU;
	o->s2.to = 0xffffffffU;
}

int parse_opts(int argc, char **argv, struct opts *o, enum dpsim_fe fe)
{
	struct option lo[NOPTS + 1];
	int c, err;

	opts_defaults(o);
	getopt_table(fe, lo);
	optind = 1;
	while ((c = getopt_long(argc, argv, fe == FE_S2 ? "hjn:" : "hjn:k:i:",
				lo, NULL)) != -1) {
		err = fe == FE_S2 ? s2_opt(c, optarg, &o->s2) :
		      core_opt(c, optarg, o);
		if (err)
			return err;
	}
	if (fe == FE_S2) {
		/* S2 has always ignored words that are not options */
		if (strcmp(o->s2.coords, "balanced") &&
		    strcmp(o->s2.coords, "random") &&
		    strcmp(o->s2.coords, "derived")) {
			fprintf(stderr, "dpsim: unknown coords '%s'\n",
				o->s2.coords);
			return EXIT_USAGE;
		}
		s2_defaults(&o->s2);
		return 0;
	}
	if (optind < argc)
		return bad_usage("unexpected argument '%s'", argv[optind]);
	return 0;
}

bool argv_topo_s2(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if ((!strcmp(argv[i], "--topo") && i + 1 < argc &&
		     !strcmp(argv[i + 1], "s2")) || !strcmp(argv[i], "--topo=s2"))
			return true;
	return false;
}
