/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dp_grow.h - the recommended order in which to populate a DPillar that
 * grows (dpctl plan order, dpsim plan --order, dpsim ft --populate).
 */
#ifndef _DP_GROW_H
#define _DP_GROW_H

#include <stdio.h>

#include "topo.h"
#include "dp_print.h"

/* Largest fabric dp_grow_order() takes (it keeps a few bytes per server). */
#define DP_GROW_MAX_NODES	(1U << 24)

/*
 * Fill @order (t->nodes entries) with every node id, the first to
 * populate first.  0, -EOPNOTSUPP for a topology without an order,
 * -E2BIG above DP_GROW_MAX_NODES, -ENOMEM.
 */
int dp_grow_order(const struct dp_topo *t, u32 *order);

/* Print the order: rank and address per line (text, CSV or JSON). */
int dp_grow_print(FILE *f, const struct dp_topo *t, enum dp_plan_fmt fmt);

#endif /* _DP_GROW_H */
