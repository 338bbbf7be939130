/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim.h - shared helpers of dpsim and its tests: random numbers, and
 * heap-allocated failure sets over the core's topo_walk.h (which also
 * holds the packet walker, shared with the KUnit tests).
 */
#ifndef _DPSIM_SIM_H
#define _DPSIM_SIM_H

#include "topo.h"
#include "topo_walk.h"

/* splitmix64 */
struct rng {
	u64 s;
};

u64 rng_next(struct rng *r);
/* uniform in [0, n), n > 0 */
u32 rng_below(struct rng *r, u32 n);

/* A struct dp_fail_set with calloc()ed bitmaps; 0 or -ENOMEM. */
int fs_init(struct dp_fail_set *fs, const struct dp_topo *t);
void fs_free(struct dp_fail_set *fs);
/* Random distinct failures (nodes, then links of live nodes). */
void fs_random(struct dp_fail_set *fs, struct rng *r, u32 nodes, u32 links);

/* BFS distances from @src in the live graph of @fs (NULL: no failures). */
#define SIM_FAR 255	/* not reached */
void sim_bfs(const struct dp_topo *t, const struct dp_fail_set *fs, u32 src,
	     u8 *dist, u32 *queue, u8 *swseen);

#endif /* _DPSIM_SIM_H */
