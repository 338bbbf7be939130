/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dpsim.h - dpsim's one front end: the options of every command and
 * topology (opts.c parses them with one table into one struct opts, each
 * meaning one thing for every topology), and the command table main()
 * dispatches through (dpsim.c).  S2's graph model (s2sim.c) is where
 * --topo s2's commands run on a graph, with the same struct opts.
 */
#ifndef _DPSIM_DPSIM_H
#define _DPSIM_DPSIM_H

#include <stdio.h>

#include "topo.h"
#include "topo_s2.h"
#include "dp_s2plan.h"

#define EXIT_USAGE	2

/*
 * Every option of every command and topology (opts.c's one table says
 * which topologies have which).  -n is S2's ports (--ports), --nodes and
 * --switches are S2's switches.
 */
struct opts {
	u32 n, k, level;
	/*
	 * The fabric's parameters that have no option of their own above
	 * (opt_table[]): --WORD V for each other word of DP_PARAM_LIST
	 * (net/dpillar/params.h), checked against the list's range, as
	 * dpctl link add takes them.  The topology starts from these.
	 */
	struct dp_topo_params tparams;
	u32 tparams_given;	/* bit i: dp_params[i] given so */
	u64 pairs;
	bool pairs_set;
	u64 seed;
	bool json, csv, shortest, dot;
	bool disjoint;		/* paths --disjoint */
	u32 sources;
	u32 failed;
	bool failed_set;
	/*
	 * Failed links: --fail-links L, a count, or --fail-frac F, the
	 * fraction F of the fabric's links (rounded), for every topology.
	 */
	u32 fail_links;
	bool fail_links_set, fail_frac_set;
	double fail_frac;
	const char *from, *to, *fail;	/* addresses; S2's: node ids */
	u32 ttl;		/* 0: dp_topo_ttl() */
	const char *topo;	/* --topo NAME */
	/* --mode / --sel / --dir NAME, NULL: default (S2: also @rule) */
	const char *sel_text;
	u32 sel;		/* its value, once the topology is known */
	u32 runs;
	u32 populate;		/* --populate PCT, 0: every server */
	bool order_random;	/* --order random */
	bool order;		/* plan --order */
	bool sources_set;
	u32 hash;		/* route --hash */
	bool all_hashes;	/* route --all-hashes */
	u32 decisions;		/* bench --decisions N (callgrind) */
	/*
	 * ft, pairs: the kernel's discovery fallback, where the kernel has
	 * it (the topology's default mode), unless --no-discover; in every
	 * mode with --discover (@discover_set).
	 */
	bool discover, discover_set, no_discover;
	bool progress;		/* ft --progress (default: stderr a tty) */
	/* flows: --seeds N, --paths K (subflows), --hosts H, --fail-switches */
	u32 nseeds, subflows, hosts, fail_switches;
	bool fct;		/* flows --fct: flow completion times */
	/* flows --sizes LIST: flow i's size LIST[i mod n], default 1 */
	const char *sizes_text;
	double sizes[64];
	u32 nsizes;
	u32 nodes, spaces;	/* S2: --nodes/--switches, --spaces */

	/* --topo s2 only: its fabric (s2fabric.c), its graph (s2sim.c) */
	const char *file;	/* --file F.Topo */
	u32 servers, d, keys;
	u32 rule;		/* --mode: the graph model's rule of its name */
	const char *coords;
	const char *fabric;	/* --fabric WORD, NULL: not given */
	bool wiring_derived;	/* --fabric derived (or --nodes alone) */
	/*
	 * Given on the command line: --servers and --seed (their defaults
	 * depend on the fabric), --nodes (the kernel's word: its derived
	 * fabric, as dpctl plan topo s2 nodes N draws it).
	 */
	bool servers_set, seed_set, nodes_set;
	bool plan_mode;		/* --fabric plan: a kernel plan (dp_s2plan.h) */
	const char *plan_file;	/* --plan FILE: a plan document */
	const char *key;	/* locate --key */
	bool multipath;		/* pairs --multipath */
	bool from_all;		/* locate --from all */
	u32 grow;		/* --grow M */
	u32 from_id, to_id;	/* S2: --from, --to; 0xffffffff: not given */
};

/*
 * An S2 fabric the kernel builds (s2fabric.c): derived mode (--fabric
 * derived) or plan mode (--fabric plan, --plan FILE), as the routing core's
 * topology @t.  The core's commands (ft, plan) run on it with S2's
 * options, and S2's graph commands route it through the core.
 */
struct s2fabric {
	struct dp_topo t;	/* when @on */
	struct dp_s2gen pg;	/* plan mode: the plan (grown) */
	struct dp_s2gen before;	/* plan mode with --grow: before growth */
	struct dp_s2_plan pl;	/* plan mode: @pg as the core's table */
	u32 spaces;
	bool plan, on;
};

/* Does @o name a fabric the kernel builds (derived or plan mode)? */
bool s2_kernel_fabric(const struct opts *o);
/*
 * Plan mode: the plan of @o (generated or read, then grown by --grow)
 * into @f (zeroed); 0 or an exit status after the message.
 */
int s2_fabric_plan(struct s2fabric *f, const struct opts *o);
/*
 * The core's topology on @f: its plan (s2_fabric_plan() first), else the
 * derived fabric of @o; once.  0 or an exit status after the message
 * (@who: the command, for a plan the core does not take).
 */
int s2_fabric_topo(struct s2fabric *f, const struct opts *o,
		   const char *who);
/* Both, into @f. */
int s2_fabric_open(struct s2fabric *f, const struct opts *o,
		   const char *who);
void s2_fabric_free(struct s2fabric *f);
/*
 * Are @ports less @o's servers enough cable ports for @spaces, and at
 * most @max?  True, or false after saying why on stderr.
 */
bool s2_sizes_ok(const struct opts *o, u32 nodes, u32 spaces, u32 max);


/*
 * Parse argv (argv[0] the command) into @o: 0, -1 for --help, or an exit
 * status after the message.
 */
int parse_opts(int argc, char **argv, struct opts *o);
/* The usage on @f; returns @status. */
int usage(FILE *f, int status);
/*
 * The one parser of a number (decimal or 0x hex, @min..@max): 0, or
 * EXIT_USAGE after a message naming the option @name.
 */
int parse_num(const char *name, const char *s, u64 min, u64 max, u64 *out);
/*
 * The parameters given as --WORD (bits of struct opts.tparams_given)
 * that @ops's table lacks: 0, or EXIT_USAGE after saying which (dpsim.c).
 */
int params_taken(const struct dp_topo_ops *ops, u32 given);
/*
 * pairs' line of one pair, every topology's: "SRC DST @outcome @hops
 * PATH", addresses in @t's text form (NULL: node ids, S2's graph) and
 * PATH (@len nodes, the source first) comma-separated.
 */
void pairs_line(const struct dp_topo *t, u32 s, u32 d, const char *outcome,
		u32 hops, const u32 *path, u32 len);
/* "dpsim: " @fmt (with @arg) and a hint on stderr; returns EXIT_USAGE. */
int bad_usage(const char *fmt, const char *arg);

#endif /* _DPSIM_DPSIM_H */
