/* SPDX-License-Identifier: GPL-2.0 */
/*
 * s2sim.h - dpsim's Space Shuffle graph commands (s2sim.c): S2 built as
 * a graph (an authors' .Topo file, generated: the paper's graph model;
 * or the kernel's derived wiring or plan, s2fabric.c, routed through the
 * core) and routed on it.  main() dispatches to them from its one
 * command table (dpsim.c) with --topo s2; ft and plan of a fabric the
 * kernel builds go to the core's commands instead.
 */
#ifndef _DPSIM_S2SIM_H
#define _DPSIM_S2SIM_H

#include "dpsim.h"

struct s2run;		/* the graph a command works on */
typedef int s2_cmd_fn(struct s2run *r, const struct opts *o);

s2_cmd_fn s2_paths, s2_ft, s2_pairs, s2_route, s2_keys, s2_plan,
	  s2_compare, s2_locate;

/*
 * Build the graph of @o and run @fn on it (NULL: not an S2 command, the
 * usage); the exit status.
 */
int s2_run(s2_cmd_fn *fn, const struct opts *o);
/* The simulator's rule named @name (1hop, 2hop, 2hop-sim), or -1. */
int s2_rule_parse(const char *name);
/* The name of rule @rule: the core's routing mode of that name. */
const char *s2_rule_name(u32 rule);

#endif
