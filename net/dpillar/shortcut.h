/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shortcut discovery (the S2 paper's broadcast-confirm, section 5): a
 * server where greedy routing toward a destination is stuck (a local
 * minimum, the topology's dp_topo_ops.discover_drop) floods a
 * SHORTCUT_PROBE over its live links; the destination answers the first
 * copy it gets, and the SHORTCUT_REPLY walks the probe's way back, every
 * server on it learning "toward the destination: this neighbour, d hops".
 * Routing takes those shortcuts through the view (dp_view.shortcut), and
 * the S2 routing core keeps the packets that follow them loop-free (the
 * proof is in topo_s2.c, dp_s2_route()).
 *
 * State per device is two fixed tables, DP_SC_ENTRIES shortcuts and the
 * DP_SC_SEEN probes seen last: bounded, never sized by the fabric.
 */
#ifndef _DPILLAR_SHORTCUT_H
#define _DPILLAR_SHORTCUT_H

#include <linux/ratelimit.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#define DP_SC_ENTRIES		64	/* shortcuts (and discoveries) kept */
#define DP_SC_SEEN		64	/* probes remembered, for the replies */
/* A shortcut not used for this long is forgotten. */
#define DP_SC_IDLE_MS		10000
/*
 * The server that discovered a shortcut discovers it again, in the
 * background, when it is still in use after this long: a broken server
 * further along the old path is then routed around too.
 */
#define DP_SC_REFRESH_MS	2000
/* How long a discovery waits for its reply before another may start. */
#define DP_SC_WAIT_MS		1000
/* How long a probe is remembered: its reply must come back by then. */
#define DP_SC_SEEN_MS		2000
#define DP_SC_DISCOVER_BURST	20	/* discoveries started per second */
#define DP_SC_FLOOD_BURST	200	/* probes passed on per second */
/* Discoveries started to resolve coordinates (coords.c), per second. */
#define DP_SC_RESOLVE_BURST	20

struct dp_priv;

/**
 * struct dp_sc_ent - a shortcut toward @dst, or a discovery for it
 * @dst: the destination; DP_NODE_NONE when the slot is free
 * @peer: the neighbour to send to (valid when @dist)
 * @port: our port it is on
 * @dist: hops from here to @dst along the shortcut; 0 while none is known
 * @origin: this server discovered it (and refreshes it)
 * @asking: a discovery started at @asked waits for its reply
 * @learned: jiffies when the shortcut was learned
 * @used: jiffies of the last packet sent along it (or of the discovery)
 * @asked: jiffies when this server last started a discovery for @dst
 */
struct dp_sc_ent {
	u32 dst;
	u32 peer;
	u8 port;
	u8 dist;
	bool origin;
	bool asking;
	unsigned long learned;
	unsigned long used;
	unsigned long asked;
};

/**
 * struct dp_sc_seen - a probe passed on (or started) here
 * @origin: the server that started the discovery
 * @target: the destination it looks for
 * @seq: the origin's sequence number
 * @prev: the neighbour it came from (DP_NODE_NONE: started here)
 * @port: our port it came in by
 * @replied: its reply came by (each discovery is answered once)
 * @at: jiffies when it came; DP_SC_SEEN_MS later the entry is stale
 */
struct dp_sc_seen {
	u32 origin;
	u32 target;
	u16 seq;
	u32 prev;
	u8 port;
	bool replied;
	unsigned long at;
};

struct dp_shortcuts {
	spinlock_t lock;	/* everything below */
	u16 seq;
	u32 seen_next;
	struct ratelimit_state discover_rs;
	struct ratelimit_state flood_rs;
	struct ratelimit_state resolve_rs;
	struct delayed_work refresh;
	struct dp_sc_ent ent[DP_SC_ENTRIES];
	struct dp_sc_seen seen[DP_SC_SEEN];
};

/* One shortcut as genetlink reports it (dp_sc_snapshot()). */
struct dp_sc_snap {
	u32 dst;
	u32 peer;
	u32 port;
	u32 dist;		/* 0: a discovery, no shortcut yet */
	bool origin;
	u32 age_ms;		/* since it was learned (or asked) */
	u32 idle_ms;		/* since it was last used */
};

void dp_sc_init(struct dp_priv *dp);
void dp_sc_stop(struct dp_priv *dp);
bool dp_sc_type(u8 type);
bool dp_sc_lookup(const void *ctx, u32 self, u32 dst, u32 max_dist,
		  u32 *port, u32 *peer, u32 *dist);
void dp_sc_discover(struct dp_priv *dp, u32 dst);
void dp_sc_resolve(struct dp_priv *dp, u32 dst);
void dp_sc_rcv(struct dp_priv *dp, u32 port_idx, struct sk_buff *skb);
bool dp_sc_snapshot(struct dp_priv *dp, u32 i, struct dp_sc_snap *snap);

#endif /* _DPILLAR_SHORTCUT_H */
