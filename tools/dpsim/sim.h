/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim.h - shared helpers of dpsim and its tests: random numbers, failure
 * sets and a packet walker that applies the routing core hop by hop.
 */
#ifndef _DPSIM_SIM_H
#define _DPSIM_SIM_H

#include "topo.h"

/* splitmix64 */
struct rng {
	u64 s;
};

u64 rng_next(struct rng *r);
/* uniform in [0, n), n > 0 */
u32 rng_below(struct rng *r, u32 n);

/* Failed servers and failed server-port links, as bitmaps. */
struct fail_set {
	const struct dp_topo *t;
	u8 *node;		/* bit per node id */
	u8 *link;		/* bit per (id * 2 + port) */
	u32 nfailed;
	u32 nlinks;
};

int fs_init(struct fail_set *fs, const struct dp_topo *t);
void fs_free(struct fail_set *fs);
void fs_clear(struct fail_set *fs);
bool fs_node(const struct fail_set *fs, u32 id);
bool fs_link(const struct fail_set *fs, u32 id, u32 port);
void fs_fail_node(struct fail_set *fs, u32 id);
void fs_fail_link(struct fail_set *fs, u32 id, u32 port);
/* Random distinct failures (nodes, then links of live nodes). */
void fs_random(struct fail_set *fs, struct rng *r, u32 nodes, u32 links);
/* dp_reach oracle over a fail_set (ctx = struct fail_set *). */
bool fs_reachable(const void *ctx, u32 self, u32 port, u32 peer);
/* Port of @peer on the switch that @self's @port plugs into. */
u32 peer_port(const struct dp_topo *t, u32 self, u32 port, u32 peer);

struct walk {
	bool delivered;
	bool looped;		/* TTL expired */
	bool bad_hop;		/* hop to a non-neighbour or a failed element */
	u8 reason;		/* drop reason when not delivered */
	u32 hops;
	u32 tunnels, uturns, ring_revs;
	u32 *path;		/* optional: servers visited, src first */
	u8 *phase;		/* optional: phase of hop i (path[i]->path[i+1]) */
	u32 path_max;		/* capacity of path/phase */
	u32 path_len;
};

/*
 * Route one packet from @src to @dst.  @fs == NULL: failure-free SRoute,
 * else FTRoute with the fail_set oracle.  @dir: initial helix direction.
 */
void walk_route(const struct dp_topo *t, u32 src, u32 dst, enum dp_dir dir,
		const struct fail_set *fs, u32 ttl, struct walk *w);

#endif /* _DPSIM_SIM_H */
