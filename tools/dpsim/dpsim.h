/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dpsim.h - dpsim's one front end: the options of every command and
 * topology (opts.c parses them with one table), and the command table
 * main() dispatches through (dpsim.c).  S2's graph commands (s2sim.c)
 * take the same struct opts.
 */
#ifndef _DPSIM_DPSIM_H
#define _DPSIM_DPSIM_H

#include <stdio.h>

#include "topo.h"
#include "topo_s2.h"
#include "dp_s2plan.h"

#define EXIT_USAGE	2

/*
 * Which front end reads a command line: S2's graph commands (s2sim.c)
 * when it names --topo s2 and the command has an S2 form, else the
 * arithmetic one over the routing core (dpsim.c).  One option table:
 * each option says which reads it (dpsim --help).
 */
enum dpsim_fe { FE_CORE, FE_S2 };

/*
 * Every option of every command and topology (opts.c's one table says
 * which front end reads which).  Some fields are read by both: -n is
 * S2's ports (--ports), --nodes and --switches are S2's switches.
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
	u32 failed, fail_links;
	bool failed_set;
	const char *from, *to, *fail;
	u32 ttl;		/* 0: dp_topo_ttl() */
	const char *topo;	/* --topo NAME */
	const char *sel_text;	/* --mode / --sel / --dir NAME, NULL: default */
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
	u32 nodes, spaces;	/* S2: --nodes/--switches, --spaces */

	/* --topo s2 only: the graph commands (s2sim.c), s2fabric.c */
	const char *file;	/* --file F.Topo */
	u32 servers, d, rule, keys;
	const char *coords;
	bool wiring_derived;
	/*
	 * Given on the command line: --servers and --seed (their defaults
	 * depend on the fabric), --nodes (the kernel's word: its derived
	 * fabric, as dpctl plan topo s2 nodes N draws it).
	 */
	bool servers_set, seed_set, nodes_set;
	double fail_frac;	/* --fail-links F, a fraction */
	bool plan_mode;		/* --mode plan: a kernel plan (dp_s2plan.h) */
	const char *plan_file;	/* --plan FILE: a plan document */
	const char *key;	/* locate --key */
	bool multipath;		/* pairs --multipath */
	bool from_all;		/* locate --from all */
	u32 grow;		/* --grow M */
	u32 from_id, to_id;	/* --from, --to; 0xffffffff: not given */
	enum dpsim_fe fe;	/* which front end reads them */
};

/*
 * An S2 fabric the kernel builds (s2fabric.c): derived mode (--wiring
 * derived) or plan mode (--mode plan, --plan FILE), as the routing core's
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
 * Parse argv (argv[0] the command) into @o, and say which front end
 * reads it (@o->fe: S2's with --topo s2 when the command has an S2 form,
 * @s2_cmd).  0, -1 for --help, or an exit status after the message.
 */
int parse_opts(int argc, char **argv, struct opts *o, bool s2_cmd);
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
/* "dpsim: " @fmt (with @arg) and a hint on stderr; returns EXIT_USAGE. */
int bad_usage(const char *fmt, const char *arg);

#endif /* _DPSIM_DPSIM_H */
