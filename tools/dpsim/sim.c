// SPDX-License-Identifier: GPL-2.0
/*
 * sim.c - shared helpers of dpsim and its tests.
 */
#include <stdlib.h>

#include "sim.h"

u64 rng_next(struct rng *r)
{
	u64 z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

u32 rng_below(struct rng *r, u32 n)
{
	/* Lemire's multiply-shift; bias < n / 2^64, negligible here. */
	return (u32)(((unsigned __int128)rng_next(r) * n) >> 64);
}

int fs_init(struct dp_fail_set *fs, const struct dp_topo *t)
{
	u8 *node = calloc(dp_fail_node_bytes(t), 1);
	u8 *link = calloc(dp_fail_link_bytes(t), 1);

	if (!node || !link) {
		free(node);
		free(link);
		fs->node = NULL;
		fs->link = NULL;
		return -ENOMEM;
	}
	dp_fail_init(fs, t, node, link);
	return 0;
}

void fs_free(struct dp_fail_set *fs)
{
	free(fs->node);
	free(fs->link);
	fs->node = NULL;
	fs->link = NULL;
}

void fs_random(struct dp_fail_set *fs, struct rng *r, u32 nodes, u32 links)
{
	const struct dp_topo *t = fs->t;
	u32 n = t->nodes;

	if (nodes > n)
		nodes = n;
	while (fs->nfailed < nodes)
		dp_fail_set_node(fs, rng_below(r, n));
	if ((u64)links > (u64)t->nports * (n - fs->nfailed))
		links = t->nports * (n - fs->nfailed);
	while (fs->nlinks < links) {
		u32 id = rng_below(r, n);

		if (!dp_fail_node(fs, id))
			dp_fail_set_link(fs, id, rng_below(r, t->nports));
	}
}

/*
 * Hop distances from @src over the live graph of @fs (every node and link
 * when @fs is NULL): the reference the routing core is checked against.
 * A switch is expanded once: whoever reaches it first reaches all its
 * live members in one more hop.  @swseen has a bit per switch.
 */
void sim_bfs(const struct dp_topo *t, const struct dp_fail_set *fs, u32 src,
	     u8 *dist, u32 *queue, u8 *swseen)
{
	u32 head = 0, tail = 0, p, i, peer, id, sw;
	struct dp_port_info pi;

	memset(dist, SIM_FAR, t->nodes);
	memset(swseen, 0, ((size_t)t->switches + 7) / 8);
	if (fs && dp_fail_node(fs, src))
		return;
	dist[src] = 0;
	queue[tail++] = src;
	while (head < tail) {
		id = queue[head++];
		for (p = 0; p < t->nports; p++) {
			if (fs && dp_fail_link(fs, id, p))
				continue;
			dp_port_info(t, id, p, &pi);
			sw = pi.sw;
			if (sw < t->switches) {
				if (swseen[sw >> 3] & (1U << (sw & 7)))
					continue;
				swseen[sw >> 3] |= (u8)(1U << (sw & 7));
			}
			for (i = 0; i < pi.nneigh; i++) {
				peer = dp_port_neigh(t, id, p, i);
				if (!dp_addr_valid(t, peer) ||
				    dist[peer] != SIM_FAR)
					continue;
				if (fs && !dp_fail_reachable(fs, id, p, peer))
					continue;
				dist[peer] = dist[id] + 1;
				queue[tail++] = peer;
			}
		}
	}
}
