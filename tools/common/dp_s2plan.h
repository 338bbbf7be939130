/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dp_s2plan.h - Space Shuffle plans: the paper's Algorithm 3 balanced
 * random coordinates, ring and random cabling, incremental growth
 * (section 3.3), port by port, and the plan document that dpctl plan and
 * dpsim plan print (S2 plan mode: a kernel node is given its coordinates
 * and cabled as the plan says; nothing else is derived).
 *
 * The generator is the one dpsim's s2sim.c routes on, so the plan a
 * kernel fabric is built from and the graph the simulator measures are
 * the same, cable for cable.
 */
#ifndef _DP_S2PLAN_H
#define _DP_S2PLAN_H

#include <stdio.h>

#include "topo.h"
#include "dp_print.h"

/* xorshift64: the simulator's random numbers (seeded, reproducible). */
struct dp_s2rng {
	u64 s;
};

void dp_s2rng_seed(struct dp_s2rng *r, u32 seed);
u32 dp_s2rng_next(struct dp_s2rng *r);
/* Uniform in 0..@n-1 (multiply-shift: no division). */
u32 dp_s2rng_below(struct dp_s2rng *r, u32 n);

/* The generator's seed salt of growth ("grow"), after the first nodes. */
#define DP_S2PLAN_GROW_SALT	0x67726f77U

/*
 * A fabric in the making: @n nodes placed and cabled out of room for
 * @max, @spaces coordinates each (@x[id * @spaces + s]), @ports ports each
 * (@peer[id * @ports + p] the node on port p, DP_NODE_NONE: unused;
 * @pport[..] the peer's port of that cable).
 */
struct dp_s2gen {
	u32 n, max, spaces, ports, seed;
	u32 *x;
	u32 *peer;
	u8 *pport;
};

/* One cable: node @a port @ap to node @b port @bp. */
struct dp_s2cable {
	u32 a, ap, b, bp;
};

int dp_s2gen_alloc(struct dp_s2gen *g, u32 max, u32 spaces, u32 ports);
void dp_s2gen_free(struct dp_s2gen *g);
/* @dst allocated like @src and holding the same fabric. */
int dp_s2gen_copy(struct dp_s2gen *dst, const struct dp_s2gen *src);

/* Cables of @v in use. */
u32 dp_s2gen_deg(const struct dp_s2gen *g, u32 v);
bool dp_s2gen_linked(const struct dp_s2gen *g, u32 a, u32 b);
/*
 * Cable @a to @b on the lowest free port of each: 1, or 0 when a == b or
 * they are cabled already, -1 when one has no free port.
 */
int dp_s2gen_link(struct dp_s2gen *g, u32 a, u32 b);
void dp_s2gen_unlink(struct dp_s2gen *g, u32 a, u32 b);

/*
 * Algorithm 3 for node @v in space @sp, given nodes 0..v-1: a random
 * point of the largest gap, at least 1/(3v) from both of its ends.
 */
void dp_s2gen_place(struct dp_s2gen *g, struct dp_s2rng *r, u32 v, u32 sp);
/*
 * Cable nodes 0..n-1 (coordinates set): the ring of every space in its
 * order, then spare ports paired at random (the paper's section 3.1).
 */
void dp_s2gen_cable(struct dp_s2gen *g, struct dp_s2rng *r);
/*
 * Add @m nodes (room for them needed), the paper's section 3.3: each
 * takes in every space a point of the largest gap (Algorithm 3); the
 * cable between the gap's ends goes unless they are still ring
 * neighbours in another space, a full neighbour frees a port by dropping
 * one of its non-ring cables at random, and the new node is cabled to
 * both ends; its ports left over go to random nodes with a free port.
 * *@removed and *@added count the cables touched.
 */
void dp_s2gen_grow(struct dp_s2gen *g, struct dp_s2rng *r, u32 m,
		   u32 *removed, u32 *added);

/* Ring neighbours (node, space, side) not cabled to their node: 0. */
u32 dp_s2gen_ring_missing(const struct dp_s2gen *g);

/*
 * A kernel plan: @nodes nodes of @ports ports, @spaces spaces, balanced
 * coordinates and cabling from @seed; with @grow, then @grow nodes more
 * (seed ^ DP_S2PLAN_GROW_SALT), *@before the fabric before (may be NULL
 * without growth).  The kernel's limits apply: 3 <= nodes + grow <= 255,
 * 1 <= spaces <= DP_S2_SPACES_MAX, 2 * spaces <= ports <= DP_MAX_PORTS.
 * 0, or -EINVAL with *@why, or -ENOMEM.
 */
int dp_s2plan_make(struct dp_s2gen *g, struct dp_s2gen *before, u32 nodes,
		   u32 ports, u32 spaces, u32 seed, u32 grow,
		   const char **why);

/*
 * Grow the plan @g by @grow nodes as dp_s2plan_make() does (the seed
 * salted with DP_S2PLAN_GROW_SALT), *@before (may be NULL) a copy of it
 * before.  0, -EINVAL above 255 nodes, -ENOMEM (@g unchanged then).
 */
int dp_s2plan_grow(struct dp_s2gen *g, struct dp_s2gen *before, u32 grow);

/*
 * Cables of @before that @after lacks (@rm) and of @after that @before
 * lacks (@add), each with its ports, a before b; counts returned in
 * *@nrm and *@nadd (arrays of @after->max * @after->ports / 2 entries).
 */
void dp_s2plan_diff(const struct dp_s2gen *before,
		    const struct dp_s2gen *after, struct dp_s2cable *rm,
		    u32 *nrm, struct dp_s2cable *add, u32 *nadd);

/*
 * The plan document: per node its coordinates (exact u32, c/2^32) and
 * per port its peer and the peer's port; after growth (@before not
 * NULL), the cables removed and added.  Text, CSV or JSON.
 */
int dp_s2plan_print(FILE *f, const struct dp_s2gen *g,
		    const struct dp_s2gen *before, enum dp_plan_fmt fmt);

/*
 * Read the text document back (dp_s2plan_print's DP_PLAN_TEXT; the
 * removed/added lines are skipped).  0, or -EINVAL with *@why (line in
 * *@line), or -ENOMEM.
 */
int dp_s2plan_load(FILE *f, struct dp_s2gen *g, const char **why,
		   u32 *line);

#endif /* _DP_S2PLAN_H */
