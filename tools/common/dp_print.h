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
	DP_PLAN_JSON,		/* one line */
	DP_PLAN_JSON_PRETTY,	/* the same object, one port per line */
};

/* The switch (column, id) on each port of every server.  Returns ferror(). */
int dp_plan_print(FILE *f, const struct dp_topo *t, enum dp_plan_fmt fmt);

/*
 * Line @i (from 1) of a path: hop @from -> @to, taken in @phase (enum
 * dp_phase), on the port of @from whose switch @to is on (port 0 when
 * both are).
 */
void dp_hop_print(FILE *f, const struct dp_topo *t, u32 i, u32 from, u32 to,
		  u8 phase);

#endif /* _DP_PRINT_H */
