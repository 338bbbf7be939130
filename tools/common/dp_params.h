/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dp_params.h - a fabric's parameter words (net/dpillar/params.h's
 * DP_PARAM_LIST) from text, for every tool: dpctl and the ip plugin
 * (through dp_linkargs.c), dpsim and dpns3.  No netlink, no messages:
 * each tool says what is wrong in its own words.
 */
#ifndef DP_PARAMS_H
#define DP_PARAMS_H

#include "topo.h"

/* A u32, decimal or 0x hex: 0, or -1 when @s is not one. */
int parse_u32(const char *s, unsigned int *out);
/*
 * Comma-separated coordinates (decimal or 0x hex u32s, never octal) into
 * @x (DP_COORDS_MAX of them): how many, 0 when @s is not such a list.
 */
unsigned int coords_parse(const char *s, unsigned int *x);
/*
 * Parameter @d's value @val, within the list's range, into @p (a
 * coordinates parameter: its array and count).  0, or -1 when @val is
 * not a value of @d.
 */
int dp_param_set(const struct dp_param *d, const char *val,
		 struct dp_topo_params *p);
/*
 * A parameter given (bit i of @gave: dp_params[i]) that @ops cannot take
 * and another topology owns (its table entry has "only"): the owner's
 * message, the kernel's ("Only S2 has coords"), else NULL.  The words
 * shared by several topologies (n, k, level) are left to the topology's
 * init, whose message says which it takes.
 */
const char *dp_params_foreign(const struct dp_topo_ops *ops, u32 gave);

#endif
