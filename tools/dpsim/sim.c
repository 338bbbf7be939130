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

int fs_init(struct fail_set *fs, const struct dp_topo *t)
{
	size_t nb = ((size_t)t->nodes + 7) / 8;

	fs->t = t;
	fs->node = calloc(nb, 1);
	fs->link = calloc(2 * nb, 1);
	fs->nfailed = 0;
	fs->nlinks = 0;
	if (!fs->node || !fs->link) {
		fs_free(fs);
		return -ENOMEM;
	}
	return 0;
}

void fs_free(struct fail_set *fs)
{
	free(fs->node);
	free(fs->link);
	fs->node = NULL;
	fs->link = NULL;
}

void fs_clear(struct fail_set *fs)
{
	size_t nb = ((size_t)fs->t->nodes + 7) / 8;

	memset(fs->node, 0, nb);
	memset(fs->link, 0, 2 * nb);
	fs->nfailed = 0;
	fs->nlinks = 0;
}

bool fs_node(const struct fail_set *fs, u32 id)
{
	return fs->node[id >> 3] & (1U << (id & 7));
}

bool fs_link(const struct fail_set *fs, u32 id, u32 port)
{
	u64 b = (u64)id * 2 + port;

	return fs->link[b >> 3] & (1U << (b & 7));
}

void fs_fail_node(struct fail_set *fs, u32 id)
{
	if (!fs_node(fs, id)) {
		fs->node[id >> 3] |= (u8)(1U << (id & 7));
		fs->nfailed++;
	}
}

void fs_fail_link(struct fail_set *fs, u32 id, u32 port)
{
	u64 b = (u64)id * 2 + port;

	if (!fs_link(fs, id, port)) {
		fs->link[b >> 3] |= (u8)(1U << (b & 7));
		fs->nlinks++;
	}
}

void fs_random(struct fail_set *fs, struct rng *r, u32 nodes, u32 links)
{
	u32 n = fs->t->nodes;

	if (nodes > n)
		nodes = n;
	while (fs->nfailed < nodes)
		fs_fail_node(fs, rng_below(r, n));
	if (links > 2 * (n - fs->nfailed))
		links = 2 * (n - fs->nfailed);
	while (fs->nlinks < links) {
		u32 id = rng_below(r, n);

		if (!fs_node(fs, id))
			fs_fail_link(fs, id, rng_below(r, 2));
	}
}

u32 peer_port(const struct dp_topo *t, u32 self, u32 port, u32 peer)
{
	u32 sc, sid;

	/* Switch S_sc joins port 0 of column sc and port 1 of column sc+1. */
	dp_port_switch(t, self, port, &sc, &sid);
	return peer / t->nlabels == sc ? DP_PORT_CW : DP_PORT_CCW;
}

bool fs_reachable(const void *ctx, u32 self, u32 port, u32 peer)
{
	const struct fail_set *fs = ctx;

	if (peer >= fs->t->nodes || fs_node(fs, peer) || fs_link(fs, self, port))
		return false;
	if (dp_port_neigh_index(fs->t, self, port, peer) < 0)
		return false;
	return !fs_link(fs, peer, peer_port(fs->t, self, port, peer));
}

void walk_route(const struct dp_topo *t, u32 src, u32 dst, enum dp_dir dir,
		const struct fail_set *fs, u32 ttl, struct walk *w)
{
	struct dp_reach reach = { .reachable = fs_reachable, .ctx = fs };
	struct dp_route_state st;
	struct dp_hop hop;
	u32 self = src;
	int err;

	w->delivered = false;
	w->looped = false;
	w->bad_hop = false;
	w->reason = DP_DROP_ROUTE_NONE;
	w->hops = 0;
	w->tunnels = 0;
	w->uturns = 0;
	w->ring_revs = 0;
	w->path_len = 0;
	if (w->path && w->path_max)
		w->path[w->path_len++] = src;
	dp_route_init_dir(t, src, dst, dir, &st);
	while (self != dst) {
		if (w->hops >= ttl) {
			w->looped = true;
			return;
		}
		if (fs)
			err = dp_ftroute(t, self, &st, &reach, &hop);
		else
			err = dp_sroute(t, self, &st, &hop);
		if (err) {
			w->reason = hop.reason;
			return;
		}
		if (hop.port >= DP_NPORTS ||
		    dp_port_neigh_index(t, self, hop.port, hop.next) < 0)
			w->bad_hop = true;
		else if (fs && (fs_node(fs, hop.next) ||
				!fs_reachable(fs, self, hop.port, hop.next)))
			w->bad_hop = true;
		if (w->bad_hop)
			return;
		if (w->phase && w->path_len > 0 && w->path_len <= w->path_max)
			w->phase[w->path_len - 1] = hop.phase;
		if (w->path && w->path_len < w->path_max)
			w->path[w->path_len++] = hop.next;
		w->tunnels = (st.flags & DP_RS_TUNNELS_MASK) >>
			     DP_RS_TUNNELS_SHIFT;
		if (hop.phase == DP_PHASE_UTURN)
			w->uturns++;
		if (hop.phase == DP_PHASE_RING_REV)
			w->ring_revs++;
		self = hop.next;
		w->hops++;
	}
	w->delivered = true;
}
