/* SPDX-License-Identifier: GPL-2.0 */
/*
 * s2sim.h - dpsim's commands on S2 as a graph (s2sim.c): the paper's
 * graph model (generated, an authors' .Topo file, a baseline's graph),
 * or the kernel's derived wiring or plan (s2fabric.c) routed through the
 * core.  main() dispatches to them from its one command table (dpsim.c)
 * with --topo s2, with the options every topology takes; ft, plan and
 * route --json of a fabric the kernel builds go to the core's commands.
 */
#ifndef _DPSIM_S2SIM_H
#define _DPSIM_S2SIM_H

#include "dpsim.h"

struct s2run;		/* the graph a command works on */
typedef int s2_cmd_fn(struct s2run *r, const struct opts *o);

s2_cmd_fn s2_paths, s2_ft, s2_pairs, s2_route, s2_keys, s2_plan,
	  s2_compare, s2_locate;

/* Build the graph of @o and run @fn on it; the exit status. */
int s2_run(s2_cmd_fn *fn, const struct opts *o);
/*
 * The simulator's rule named @name, S2's routing mode (--mode 1hop,
 * 2hop, 2hop-sim), or -1.
 */
int s2_rule_parse(const char *name);

#endif
