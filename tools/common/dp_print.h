/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dp_print.h - text output shared by dpsim and dpctl, so that the two
 * tools print a wiring plan and a path the same way, to the byte.
 */
#ifndef _DP_PRINT_H
#define _DP_PRINT_H

#include <stdio.h>

#include "topo.h"

enum dp_plan_fmt {
	DP_PLAN_TEXT,		/* "# ..." header, "ADDR PORT COL ID" rows */
	DP_PLAN_CSV,
	DP_PLAN_JSON,		/* one line (dp_json.h) */
	DP_PLAN_JSON_PRETTY,	/* the same object, indented */
};

/*
 * The switch (dp_port_info sw_level, sw_id: DPillar's column and id) on
 * each port of every node; 4294967295 for a cable or an unused port.
 * Returns ferror().
 */
int dp_plan_print(FILE *f, const struct dp_topo *t, enum dp_plan_fmt fmt);

/*
 * A fabric as a Graphviz graph (DOT, undirected): servers as boxes,
 * switches as ellipses ("LEVEL/ID"), cables and server-switch links as
 * edges.  When @path (@path_len nodes) is given its hops are drawn bold
 * and red, numbered from 1; @failed (with @ctx), when not NULL, says
 * which servers (port -1) and links (server, port) are down: grey and
 * dashed.  Layout by topology: DPillar's columns left to right (dot),
 * DCell as a circle (circo), BCube and XDCent by switch level (dot).
 * Returns ferror().
 */
int dp_plan_dot(FILE *f, const struct dp_topo *t, const u32 *path,
		u32 path_len,
		bool (*failed)(const void *ctx, u32 id, int port),
		const void *ctx);

/* The first port of @from whose neighbour table holds @to, or -1. */
int dp_hop_port(const struct dp_topo *t, u32 from, u32 to);

/*
 * Line @i (from 1) of a path: hop @from -> @to, taken in @phase (named by
 * the topology), on the first port of @from whose neighbour table holds
 * @to.
 */
void dp_hop_print(FILE *f, const struct dp_topo *t, u32 i, u32 from, u32 to,
		  u8 phase);

#endif /* _DP_PRINT_H */
