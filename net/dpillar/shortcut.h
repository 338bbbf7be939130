/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shortcut discovery (the S2 paper's broadcast-confirm, section 5), for
 * S2 and as every other topology's discovery fallback (dp_sc_fallback():
 * where its routing gives up on a data frame, which then travels as
 * SHORTCUT_DATA).  A server where greedy routing toward a destination is
 * stuck (a local minimum, the topology's dp_topo_ops.discover_drop) floods a
 * SHORTCUT_PROBE over its live links; the destination answers the first
 * copy it gets, and the SHORTCUT_REPLY walks the probe's way back, every
 * server on it learning "toward the destination: this neighbour, d hops".
 * Routing takes those shortcuts through the view's coordinate questions
 * (dp_view_coords.shortcut), and the S2 routing core keeps the packets
 * that follow them loop-free (the proof is in topo_s2.c, dp_s2_route()).
 *
 * State per device is fixed tables, DP_SC_ENTRIES shortcuts, the
 * DP_SC_SEEN probes passed on last and a budget per port (and per
 * neighbour slot of a switch port): bounded, never sized by the fabric.
 *
 * Budgets.  One neighbour must not spend what the others need: besides
 * the node's own rate limits, each neighbour has a budget a second for
 * the probes of its that are passed on (DP_SC_NEIGH_FLOOD), the probes
 * for us that are answered (DP_SC_NEIGH_REPLY) and the discoveries its
 * frames start where they stop at a local minimum (DP_SC_NEIGH_DISCOVER),
 * and holds at most DP_SC_SEEN_NEIGH slots of the seen table.  An S2
 * port is a cable with one neighbour slot (s2_port_info()), so the
 * budgets are kept per port, in struct dp_shortcuts: nothing per
 * neighbour is allocated.  On a switch port (the discovery fallback's),
 * each neighbour's are in its slot (struct dp_neigh.sc_budget), and the
 * port's are shared by frames from no live neighbour there.
 */
#ifndef _DPILLAR_SHORTCUT_H
#define _DPILLAR_SHORTCUT_H

#include <linux/ratelimit.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/dpillar.h>
#include <linux/dpillar_packet.h>

#define DP_SC_ENTRIES		64	/* shortcuts (and discoveries) kept */
#define DP_SC_SEEN		256	/* probes remembered, for the replies */
/*
 * Slots of the seen table one neighbour's probes may hold at once: while
 * they are all fresh, its next probe is refused (shortcut.c,
 * dp_sc_seen_scan()), never remembered in place of one of its own.  A
 * probe forgotten before DP_SC_SEEN_MS would look new when its copies
 * come back by other neighbours, and pass on their budgets: one
 * neighbour's flood would spend the node's (DP_SC_FLOOD_BURST) through
 * the others'.  At least a second of its budget, so that the budget
 * decides within a second.
 */
#define DP_SC_SEEN_NEIGH	64
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
/* Budgets of one neighbour, a second each (struct dp_sc_budget). */
#define DP_SC_NEIGH_FLOOD	50	/* its probes passed on */
#define DP_SC_NEIGH_REPLY	10	/* its probes for us answered */
#define DP_SC_NEIGH_DISCOVER	5	/* discoveries its frames start */
/*
 * All its probes looked at, copies included, before the seen table is
 * scanned: a neighbour passes each discovery on once per port (to the
 * switch's group), so its copies come at the rate its first copies do.
 */
#define DP_SC_NEIGH_RX		(4 * DP_SC_NEIGH_FLOOD)
static_assert(DP_SC_SEEN_NEIGH >= DP_SC_NEIGH_FLOOD);
static_assert(DP_SC_SEEN >= 2 * DP_SC_SEEN_NEIGH);
/* In a budget's port argument: not a neighbour's, this node's own. */
#define DP_SC_NO_PORT		0xff

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
 * @own_use: this server's own packets took it (or started its discovery)
 *	since the refresh work last looked
 * @nb_use: a neighbour's did: the last one's port and MAC address are
 *	@user_port and @user_mac, whose budget its refresh spends
 * @user_port: see @nb_use
 * @user_mac: see @nb_use
 *
 * Lookups that route no frame (genetlink's ROUTE_GET, a probe's estimate)
 * change nothing: an unprivileged reader cannot keep a shortcut in use,
 * and with it its refresh floods.
 */
struct dp_sc_ent {
	u32 dst;
	u32 peer;
	u8 port;
	u8 dist;
	bool origin;
	bool asking;
	bool own_use;
	bool nb_use;
	u8 user_port;
	unsigned long learned;
	unsigned long used;
	unsigned long asked;
	u64 user_mac;
};

/**
 * struct dp_sc_seen - a probe passed on (or started) here
 * @origin: the server that started the discovery
 * @target: the destination it looks for
 * @seq: the origin's sequence number
 * @prev: the neighbour it came from (DP_NODE_NONE: started here)
 * @port: our port it came in by (DP_SC_NO_PORT: started here)
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

enum dp_sc_budget_kind {
	DP_SC_B_RX,
	DP_SC_B_FLOOD,
	DP_SC_B_REPLY,
	DP_SC_B_DISCOVER,
	DP_SC_B_KINDS
};

/**
 * struct dp_sc_budget - what one port's neighbour spent this second
 * @start: jiffies when the second began
 * @used: per enum dp_sc_budget_kind
 */
struct dp_sc_budget {
	unsigned long start;
	u16 used[DP_SC_B_KINDS];
};

struct dp_shortcuts {
	spinlock_t lock;	/* everything below */
	u16 seq;
	struct ratelimit_state discover_rs;
	struct ratelimit_state flood_rs;
	struct ratelimit_state resolve_rs;
	struct delayed_work refresh;
	struct dp_sc_ent ent[DP_SC_ENTRIES];
	struct dp_sc_seen seen[DP_SC_SEEN];
	/* The times below in jiffies; KUnit's fixtures make them long. */
	unsigned long budget_period;	/* of the budgets: HZ */
	unsigned long seen_life;	/* of the seen table: DP_SC_SEEN_MS */
	unsigned long wait;		/* a discovery's: DP_SC_WAIT_MS */
	unsigned long idle;		/* a shortcut's: DP_SC_IDLE_MS */
	unsigned long refresh_period;	/* DP_SC_REFRESH_MS */
	struct dp_sc_budget neigh[DPILLAR_PORTS_MAX];
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
bool dp_sc_lookup(const void *ctx, u32 self, u32 dst, u32 max_dist,
		  u32 *port, u32 *peer, u32 *dist);
void dp_sc_discover(struct dp_priv *dp, u32 dst, u32 in_port, u64 in_mac);
void dp_sc_resolve(struct dp_priv *dp, u32 dst);
void dp_sc_coords_resolve(struct dp_priv *dp, u32 node);
bool dp_sc_coords_route(struct dp_priv *dp, struct dp_route_state *st,
			bool resolve);
enum dp_stat dp_sc_rcv(struct dp_priv *dp, u32 port_idx, struct sk_buff *skb);
bool dp_sc_snapshot(struct dp_priv *dp, u32 i, struct dp_sc_snap *snap);
bool dp_sc_fallback(const struct dp_priv *dp);
enum dp_stat dp_sc_data_rcv(struct dp_priv *dp, struct sk_buff *skb);

#endif /* _DPILLAR_SHORTCUT_H */
