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

u32 peer_port(const struct dp_topo *t, u32 self, u32 port)
{
	u32 sc, sid;

	dp_port_switch(t, self, port, &sc, &sid);
	/* Switch S_sc: port 0 of column sc, port 1 of column sc + 1. */
	return self / t->nlabels == sc ? (port == DP_PORT_CW ? 0 : 1) :
	       (peer_port_col_is(t, sc, 0) ? 0 : 1);
}
