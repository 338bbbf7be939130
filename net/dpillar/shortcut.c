// SPDX-License-Identifier: GPL-2.0
/*
 * Shortcut discovery (shortcut.h): the tables, the flood and the reply.
 *
 * Who calls in, and from where:
 * - dp_sc_lookup(): the routing core through the view, wherever a frame
 *   is routed (the receive softirq, the transmit path, genetlink), under
 *   rcu_read_lock;
 * - dp_sc_route_fail(): dp_route_out() through dp_priv.route_fail, where
 *   the topology gave up on a frame (a discovery after its discover_drop,
 *   or the fallback's way on), BHs off and under rcu_read_lock;
 * - dp_sc_discover(): the refresh work, BHs off and under rcu_read_lock;
 * - dp_sc_rcv() (SHORTCUT_PROBE, SHORTCUT_REPLY) and dp_sc_data_rcv()
 *   (SHORTCUT_DATA to relay): the receive handler (softirq,
 *   rcu_read_lock);
 * - dp_sc_snapshot(): genetlink dumps.
 * The lock is only ever taken with BHs off.
 *
 * Hostile frames: a probe or reply is taken only from a live neighbour,
 * on the port it is heard on, with the MAC it is heard from; a reply only
 * for a probe this server passed on, once, and not from the port the
 * probe came in by.  A forged reply can at worst install a shortcut that
 * does not lead to its destination: packets on it are then dropped
 * (route_shortcut_lost), never looped (dp_s2_route()).  Floods are
 * bounded four ways: each server passes on the first copy of a probe
 * only, at most DP_SC_FLOOD_BURST probes a second and DP_SC_NEIGH_FLOOD
 * of each neighbour's, and a probe's hop count may not reach the
 * topology's TTL.  One neighbour cannot spend the others' share of the
 * answers, the discoveries or the seen table either (shortcut.h).
 *
 * S2 plan mode (coords.h): a probe carries its origin's coordinates and a
 * reply its destination's (struct dpillar_coords after struct
 * dpillar_shortcut), which relays pass on as they came.  The destination
 * caches the origin's, every server that takes the reply (the origin
 * too) the destination's.  A frame without them, or with another count
 * than the device's spaces, is a bad one.  Derived mode sends none and
 * ignores any.  They go to the coordinate cache only: the shortcuts and
 * their loop-freedom do not depend on them.
 */

#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/netdevice.h>
#include <linux/pkt_sched.h>
#include <linux/skbuff.h>

#include "dpillar.h"
#include "hdr.h"
#include "relay.h"
#include "send.h"

/* Room for the Ethernet header and a lower device's own. */
#define DP_SC_HEADROOM	(ETH_HLEN + 64)
#define DP_SC_LEN	(DP_HDR_LEN + sizeof(struct dpillar_shortcut))

/*
 * The port a frame from the wire came in by (its lower device is still
 * skb->dev until it is sent on), and in *@mac the address it came from;
 * DP_SC_NO_PORT (and 0) for this node's own: whose budget a discovery it
 * starts is spent from (dp_sc_budget_of()).
 */
static u32 dp_sc_in_port(struct dp_priv *dp, const struct sk_buff *skb,
			 u64 *mac)
{
	u32 i;

	*mac = 0;
	for (i = 0; skb->dev && skb->dev != dp->dev && i < dp->nports; i++) {
		struct dp_port *port = dp_port_rcu(dp, i);

		if (port && port->dev == skb->dev) {
			if (skb_mac_header_was_set(skb))
				*mac = ether_addr_to_u64(eth_hdr(skb)->h_source);
			return i;
		}
	}
	return DP_SC_NO_PORT;
}

static void dp_sc_clear(struct dp_shortcuts *sc)
{
	u32 i;

	for (i = 0; i < DP_SC_ENTRIES; i++)
		sc->ent[i].dst = DP_NODE_NONE;
	for (i = 0; i < DP_SC_SEEN; i++)
		sc->seen[i].origin = DP_NODE_NONE;
}

static bool dp_sc_idle(const struct dp_shortcuts *sc,
		       const struct dp_sc_ent *e, unsigned long now)
{
	return time_after(now, e->used + sc->idle);
}

static struct dp_sc_ent *dp_sc_find(struct dp_shortcuts *sc, u32 dst)
{
	u32 i;

	for (i = 0; i < DP_SC_ENTRIES; i++)
		if (sc->ent[i].dst == dst)
			return &sc->ent[i];
	return NULL;
}

/* A slot for @dst: its own, else a free one, else the longest unused. */
static struct dp_sc_ent *dp_sc_get(struct dp_shortcuts *sc, u32 dst,
				   unsigned long now)
{
	struct dp_sc_ent *e = dp_sc_find(sc, dst), *old = &sc->ent[0];
	u32 i;

	if (e)
		return e;
	for (i = 0; i < DP_SC_ENTRIES && !e; i++) {
		if (sc->ent[i].dst == DP_NODE_NONE)
			e = &sc->ent[i];
		else if (time_before(sc->ent[i].used, old->used))
			old = &sc->ent[i];
	}
	e = e ?: old;
	memset(e, 0, sizeof(*e));
	e->dst = dst;
	e->peer = DP_NODE_NONE;
	e->learned = now;
	e->used = now;
	return e;
}

static struct dp_sc_seen *dp_sc_seen_find(struct dp_shortcuts *sc,
					  u32 origin, u16 seq,
					  unsigned long now)
{
	unsigned long life = sc->seen_life;
	u32 i;

	for (i = 0; i < DP_SC_SEEN; i++) {
		struct dp_sc_seen *s = &sc->seen[i];

		if (s->origin == origin && s->seq == seq &&
		    time_before(now, s->at + life))
			return s;
	}
	return NULL;
}

/*
 * One pass over the seen table for a probe (@origin, @seq) received from
 * @sender on @port, under sc->lock: its earlier copy while fresh (this one
 * then came a longer way), else how many fresh slots that neighbour holds
 * (at DP_SC_SEEN_NEIGH its probe is refused: one neighbour's probes cannot
 * push out everyone else's before their replies come) and the slot the
 * probe would take: a free or stale one, else, when @evict (this node's
 * own discoveries, DP_SC_DISCOVER_BURST a second), the oldest; else none.
 * A probe passed on never pushes out a fresh entry: its copies, still on
 * their way, would be taken for new probes and flooded again, a storm
 * that outlives its cause (issue 53, item 3).  One pass, not one per
 * question: a flooding neighbour makes this run for every probe that
 * passes its budget, in softirq.
 */
struct dp_sc_scan {
	struct dp_sc_seen *copy;
	struct dp_sc_seen *slot;
	u32 port_fresh;
};

static void dp_sc_seen_scan(struct dp_shortcuts *sc, u32 origin, u16 seq,
			    u32 port, u32 sender, unsigned long now, bool evict,
			    struct dp_sc_scan *r)
{
	unsigned long life = sc->seen_life;
	struct dp_sc_seen *old = &sc->seen[0];
	u32 i;

	r->copy = NULL;
	r->slot = NULL;
	r->port_fresh = 0;
	for (i = 0; i < DP_SC_SEEN; i++) {
		struct dp_sc_seen *s = &sc->seen[i];

		if (s->origin == DP_NODE_NONE ||
		    !time_before(now, s->at + life)) {
			r->slot = r->slot ?: s;
			continue;
		}
		if (s->origin == origin && s->seq == seq) {
			r->copy = s;
			return;
		}
		r->port_fresh += s->port == port && s->prev == sender;
		if (time_before(s->at, old->at))
			old = s;
	}
	if (!r->slot && evict)
		r->slot = old;
}

/*
 * The budget a frame from our port @port_idx spends (shortcut.h), from the
 * neighbour @peer or, when that is DP_NODE_NONE, the one heard from the
 * MAC address @mac (0: not known): on a port with one neighbour slot (a
 * cable) the port's, on a switch port that neighbour's slot's (struct
 * dp_neigh.sc_budget: one member of a switch does not spend its switch
 * mates'); what comes from no live neighbour there shares the port's.
 * NULL for this node's own frames (DP_SC_NO_PORT).  Under rcu_read_lock
 * and sc->lock.
 */
static struct dp_sc_budget *dp_sc_budget_of(struct dp_priv *dp, u32 port_idx,
					    u32 peer, u64 mac)
{
	struct dp_port *port;
	struct dp_neigh *nb;
	u32 i;

	if (port_idx >= ARRAY_SIZE(dp->sc.neigh))
		return NULL;
	port = port_idx < dp->nports ? dp_port_rcu(dp, port_idx) : NULL;
	if (!port || port->nneigh <= 1)
		return &dp->sc.neigh[port_idx];
	if (peer != DP_NODE_NONE) {
		nb = dp_neigh_find(dp, dp->self, port_idx, peer, &port);
		if (nb && dp_neigh_alive(dp, nb))
			return &nb->sc_budget;
	}
	/* Only a frame that stopped here, once per discovery it may start. */
	for (i = 0; mac && peer == DP_NODE_NONE && i < port->nneigh; i++) {
		nb = &port->neigh[i];
		if (atomic64_read(&nb->mac) == mac && dp_neigh_alive(dp, nb))
			return &nb->sc_budget;
	}
	return &dp->sc.neigh[port_idx];
}

/*
 * Spend one of @kind from the neighbour's budget @b (dp_sc_budget_of()),
 * DP_SC_NEIGH_* a budget_period; false when it is spent.  This node's own
 * (@b NULL) has none here.  Under sc->lock.
 */
static bool dp_sc_budget(struct dp_shortcuts *sc, struct dp_sc_budget *b,
			 enum dp_sc_budget_kind kind, unsigned long now)
{
	static const u16 burst[DP_SC_B_KINDS] = {
		[DP_SC_B_RX] = DP_SC_NEIGH_RX,
		[DP_SC_B_FLOOD] = DP_SC_NEIGH_FLOOD,
		[DP_SC_B_REPLY] = DP_SC_NEIGH_REPLY,
		[DP_SC_B_DISCOVER] = DP_SC_NEIGH_DISCOVER,
	};

	if (!b)
		return true;
	/* A new period, or the first (start still 0, before boot's jiffies). */
	if (time_after_eq(now, b->start + sc->budget_period) ||
	    time_before(now, b->start)) {
		b->start = now;
		memset(b->used, 0, sizeof(b->used));
	}
	if (b->used[kind] >= burst[kind])
		return false;
	b->used[kind]++;
	return true;
}

static void dp_sc_remember(struct dp_sc_seen *s, u32 origin, u32 target,
			   u16 seq, u32 prev, u8 port, unsigned long now)
{
	s->origin = origin;
	s->target = target;
	s->seq = seq;
	s->prev = prev;
	s->port = port;
	s->replied = false;
	s->at = now;
}

/*
 * @e is in use by a frame of the neighbour at @mac on our port @in_port,
 * or (DP_SC_NO_PORT) of this node's own: whose budget its refresh spends
 * (dp_sc_refresh_work()).  Under sc->lock.
 */
static void dp_sc_note_use(struct dp_sc_ent *e, u32 in_port, u64 mac)
{
	if (in_port == DP_SC_NO_PORT) {
		e->own_use = true;
		return;
	}
	e->nb_use = true;
	e->user_port = in_port;
	e->user_mac = mac;
}

/*
 * This server's own shortcut toward @dst, if it is at most @max_dist long,
 * still in use and its next hop reachable.  @skb: the frame that takes
 * it, which keeps it in use on its sender's account; NULL for a lookup
 * that routes no frame, which changes nothing.
 */
static bool dp_sc_find_short(struct dp_priv *dp, u32 dst, u32 max_dist,
			     const struct sk_buff *skb, u32 *port, u32 *peer,
			     u32 *dist)
{
	u32 in_port = DP_SC_NO_PORT;
	struct dp_shortcuts *sc = &dp->sc;
	unsigned long now = jiffies;
	struct dp_sc_ent *e;
	bool ok = false;
	u64 mac = 0;

	if (skb)
		in_port = dp_sc_in_port(dp, skb, &mac);
	spin_lock_bh(&sc->lock);
	e = dp_sc_find(sc, dst);
	if (e && e->dist && e->dist <= max_dist && !dp_sc_idle(sc, e, now) &&
	    dp_neigh_reachable(dp, dp->self, e->port, e->peer)) {
		*port = e->port;
		*peer = e->peer;
		*dist = e->dist;
		if (skb) {
			e->used = now;
			dp_sc_note_use(e, in_port, mac);
		}
		ok = true;
	}
	spin_unlock_bh(&sc->lock);
	return ok;
}

/*
 * The view's shortcut (struct dp_view): dp_sc_find_short() of the device
 * the view belongs to.  Other servers' tables are not known here.
 */
bool dp_sc_lookup(const void *ctx, u32 self, u32 dst, u32 max_dist,
		  u32 *port, u32 *peer, u32 *dist)
{
	/* The view's context is const for routing's sake; the table is ours. */
	struct dp_priv *dp = dp_vctx_dev(ctx);
	const struct dp_vctx *c = ctx;

	dp_vctx_uncached(ctx);
	return self == dp->self &&
	       dp_sc_find_short(dp, dst, max_dist, c->skb, port, peer, dist);
}

/*
 * Coordinates a discovery frame carries (S2 plan mode): @n of them in @x,
 * host order; @n 0: none.
 */
struct dp_sc_coords {
	u32 n;
	u32 x[DP_COORDS_MAX];
};

/* Ours, for the probes we start and the replies we send. */
static void dp_sc_own_coords(const struct dp_priv *dp, struct dp_sc_coords *c)
{
	c->n = 0;
	if (dp_topo_plan_mode(&dp->topo) && dp->topo.p.ncoords <= DP_COORDS_MAX) {
		c->n = dp->topo.p.ncoords;
		memcpy(c->x, dp->topo.p.coords, c->n * sizeof(c->x[0]));
	}
}

/* Send a probe or reply to the neighbour at @mac on @port. */
static void dp_sc_send(struct dp_priv *dp, struct dp_port *port, u64 mac,
		       u8 type, u32 src, u32 dst, u16 seq, u8 hops, u8 ttl,
		       const struct dp_sc_coords *c)
{
	unsigned int len = DP_SC_LEN;
	struct dpillar_shortcut *p;
	struct dpillar_coords *pc;
	struct dpillar_hdr *h;
	struct sk_buff *skb;

	if (c->n)
		len += struct_size(pc, x, c->n);
	skb = alloc_skb(DP_SC_HEADROOM + len, GFP_ATOMIC);
	if (!skb) {
		dp_count(dp, DP_STAT_DROP_NOMEM);
		return;
	}
	skb_reserve(skb, DP_SC_HEADROOM);
	h = skb_put_zero(skb, len);
	h->version = DPILLAR_VERSION;
	h->type = type;
	h->ttl = ttl;
	h->rword = htons(seq);
	h->src = htonl(src);
	h->dst = htonl(dst);
	h->waypoint = htonl(DPILLAR_NODE_NONE);
	p = (struct dpillar_shortcut *)(h + 1);
	p->sender = htonl(dp->self);
	p->hops = hops;
	if (c->n)
		dp_coords_put((struct dpillar_coords *)(p + 1), c->x, c->n);
	skb->priority = TC_PRIO_CONTROL;
	dp_send_on(port, skb, mac);
}

/*
 * Pass a probe on out of every port but the one it came in by (@in_port)
 * where a live neighbour other than its origin is heard: one frame per
 * port, to the switch's group (the Hello group, which every port joins),
 * so that one discovery crosses each cable at most once each way and
 * sends at most the fabric's port count of frames (issue 53, item 3); a
 * cable's one neighbour gets it unicast.  The origin, on a switch, hears
 * its own probe and ignores it.
 */
static void dp_sc_flood(struct dp_priv *dp, u32 origin, u32 target, u16 seq,
			u8 hops, u8 ttl, u32 in_port,
			const struct dp_sc_coords *c)
{
	u32 i, idx;

	for (i = 0; i < dp->nports; i++) {
		struct dp_port *port = dp_port_rcu(dp, i);
		u64 to = 0;

		if (!port || i == in_port || !dp_port_up(port))
			continue;
		for (idx = 0; idx < port->nneigh && !to; idx++) {
			const struct dp_neigh *nb = &port->neigh[idx];
			u32 peer = dp_neigh_node(dp, port, idx);

			if (peer != DP_NODE_NONE && peer != origin &&
			    dp_neigh_alive(dp, nb))
				to = port->nneigh > 1 ?
				     ether_addr_to_u64(dp_hello_mac) :
				     atomic64_read(&nb->mac);
		}
		if (to)
			dp_sc_send(dp, port, to, DPILLAR_T_SHORTCUT_PROBE,
				   origin, target, seq, hops, ttl, c);
	}
}

/*
 * Flood a probe for @dst, unless a discovery for @dst waits for its reply
 * or the rate limit @rs (or, for a frame from the neighbour on our port
 * @in_port, that neighbour's budget: the one at the MAC address @in_mac)
 * says no; count @stat when one starts.
 */
static void dp_sc_start(struct dp_priv *dp, u32 dst, struct ratelimit_state *rs,
			enum dp_stat stat, u32 in_port, u64 in_mac)
{
	struct dp_shortcuts *sc = &dp->sc;
	unsigned long wait = sc->wait, now = jiffies;
	bool started = false, limited = false, spent = false;
	struct dp_sc_coords c;
	struct dp_sc_scan scan;
	struct dp_sc_ent *e;
	u16 seq = 0;

	/* Not while dp_stop() empties the tables (IFF_UP is still set). */
	if (!netif_running(dp->dev) || !dp_addr_valid(&dp->topo, dst) ||
	    dst == dp->self)
		return;
	spin_lock_bh(&sc->lock);
	e = dp_sc_find(sc, dst);
	if (e && e->asking && time_before(now, e->asked + wait))
		goto unlock;
	/* The neighbour's first: its frames must not spend the node's. */
	if (!dp_sc_budget(sc, dp_sc_budget_of(dp, in_port, DP_NODE_NONE, in_mac),
			  DP_SC_B_DISCOVER, now)) {
		spent = true;
		goto unlock;
	}
	if (!__ratelimit(rs)) {
		limited = true;
		goto unlock;
	}
	e = dp_sc_get(sc, dst, now);
	e->origin = true;
	e->asking = true;
	e->asked = now;
	/* The refreshes of what it finds are on the same account. */
	dp_sc_note_use(e, in_port, in_mac);
	seq = ++sc->seq;
	/* Our own probe coming back by another way is then a copy. */
	dp_sc_seen_scan(sc, dp->self, seq, DP_SC_NO_PORT, DP_NODE_NONE, now,
			true, &scan);
	dp_sc_remember(scan.copy ?: scan.slot, dp->self, dst, seq,
		       DP_NODE_NONE, DP_SC_NO_PORT, now);
	started = true;
unlock:
	spin_unlock_bh(&sc->lock);
	if (limited)
		dp_count(dp, DP_STAT_SC_LIMIT);
	if (spent)
		dp_count(dp, DP_STAT_SC_NEIGH_LIMIT);
	if (!started)
		return;
	dp_count(dp, stat);
	dp_sc_own_coords(dp, &c);
	dp_sc_flood(dp, dp->self, dst, seq, 0, dp_topo_ttl(&dp->topo),
		    DP_SC_NO_PORT, &c);
}

/*
 * Greedy routing toward @dst is stuck here, for a frame of the neighbour
 * at @in_mac on our port @in_port (DP_SC_NO_PORT: this node's own;
 * dp_sc_in_port() finds both): flood a probe
 * for it, unless a discovery for @dst waits for its reply or the rate
 * limit, or the neighbour's budget, says no.  The frame is dropped (the
 * topology's discover_drop), so one frame starts at most one discovery,
 * and a neighbour at most DP_SC_NEIGH_DISCOVER a second.  BHs off, under
 * rcu_read_lock.
 */
void dp_sc_discover(struct dp_priv *dp, u32 dst, u32 in_port, u64 in_mac)
{
	dp_sc_start(dp, dst, &dp->sc.discover_rs, DP_STAT_SC_DISCOVER,
		    in_port, in_mac);
}
EXPORT_SYMBOL_IF_KUNIT(dp_sc_discover);

/*
 * The coordinates of @dst are not known here (S2 plan mode, coords.c):
 * discover it, so that its reply brings them.  The same discovery as at
 * a local minimum, with a rate limit of its own: resolving new
 * destinations does not hold back the shortcuts around stuck packets.
 * BHs off, under rcu_read_lock.
 */
void dp_sc_resolve(struct dp_priv *dp, u32 dst)
{
	dp_sc_start(dp, dst, &dp->sc.resolve_rs, DP_STAT_COORDS_RESOLVE,
		    DP_SC_NO_PORT, 0);
}

/*
 * dp_coords_lookup() found nothing for @node (coords.c): start a
 * discovery for it, unless one waits for its reply or the rate limit
 * says no.  In plan mode only.
 */
void dp_sc_coords_resolve(struct dp_priv *dp, u32 node)
{
	if (dp_topo_plan_mode(&dp->topo))
		dp_sc_resolve(dp, node);
}
EXPORT_SYMBOL_IF_KUNIT(dp_sc_coords_resolve);

/*
 * A sender's part in plan mode: @st gets its destination's coordinates
 * (coords.c's, dp_route_set_coords()), or false, and a resolution starts
 * when @resolve (it floods the fabric: a packet of this host, a probe, or
 * a lookup by a caller allowed to send frames).  Under rcu_read_lock with
 * BHs off, as dp_coords_lookup().
 */
bool dp_sc_coords_route(struct dp_priv *dp, struct dp_route_state *st,
			bool resolve)
{
	u32 x[DP_COORDS_MAX];
	bool refresh;

	if (!dp_coords_find_any(dp, st->dst, x, resolve, &refresh)) {
		if (resolve)
			dp_sc_coords_resolve(dp, st->dst);
		return false;
	}
	/*
	 * Resolved again in the background, due for its confirmation: its
	 * reply replaces what a forged frame may have put there, and sends
	 * carry on meanwhile.  A reader's lookup (!@resolve) neither uses
	 * the entry nor refreshes it.
	 */
	if (refresh && resolve)
		dp_sc_coords_resolve(dp, st->dst);
	return dp_route_set_coords(&dp->topo, st, x, dp->topo.p.ncoords);
}
EXPORT_SYMBOL_IF_KUNIT(dp_sc_coords_route);

/*
 * The origin re-discovers the shortcuts it still uses once they are
 * DP_SC_REFRESH_MS old, so that a failure further along one is routed
 * around too (only the origin sees its packets' drops as a local
 * minimum; the servers after it would drop them as shortcut_lost).
 * Each refresh is on the account of the frames that used the shortcut
 * since the last pass: this node's own, else the last neighbour's, whose
 * budget it spends (DP_SC_NEIGH_DISCOVER a second, shared with the
 * discoveries its frames start): a neighbour that keeps shortcuts in use
 * cannot make this node flood at its own full rate (issue 53, item 1).
 */
static void dp_sc_refresh_work(struct work_struct *work)
{
	struct dp_priv *dp = container_of(to_delayed_work(work),
					  struct dp_priv, sc.refresh);
	struct dp_shortcuts *sc = &dp->sc;
	unsigned long period = sc->refresh_period, now = jiffies;
	/* whose: the account, the port above the MAC's 48 bits */
	u32 dst[DP_SC_ENTRIES], n = 0, i;
	u64 whose[DP_SC_ENTRIES];
	bool more = false;

	spin_lock_bh(&sc->lock);
	for (i = 0; i < DP_SC_ENTRIES; i++) {
		struct dp_sc_ent *e = &sc->ent[i];
		bool own = e->own_use, nb = e->nb_use;

		e->own_use = false;
		e->nb_use = false;
		if (e->dst == DP_NODE_NONE || !e->origin || !e->dist ||
		    dp_sc_idle(sc, e, now))
			continue;
		more = true;
		if (!time_after_eq(now, e->learned + period) ||
		    !time_before(now, e->used + period) || (!own && !nb))
			continue;
		dst[n] = e->dst;
		whose[n++] = own ? (u64)DP_SC_NO_PORT << 48 :
			     (u64)e->user_port << 48 | e->user_mac;
	}
	spin_unlock_bh(&sc->lock);
	/*
	 * The fallback turned off (or a paper mode set) while this node
	 * used shortcuts: no flood for them, not even the last refresh
	 * before they go unused (the work runs on until they idle out).
	 */
	if (!dp->topo.ops->discover_drop && !dp_sc_fallback(dp))
		n = 0;

	local_bh_disable();
	rcu_read_lock();
	for (i = 0; i < n; i++)
		dp_sc_discover(dp, dst[i], whose[i] >> 48,
			       whose[i] & GENMASK_ULL(47, 0));
	rcu_read_unlock();
	local_bh_enable();
	if (more)
		queue_delayed_work(system_power_efficient_wq, &sc->refresh,
				   period);
}

static bool dp_sc_route_fail(struct dp_priv *dp, struct sk_buff *skb,
			     const struct dp_route_state *st, u8 reason);

void dp_sc_init(struct dp_priv *dp)
{
	struct dp_shortcuts *sc = &dp->sc;

	spin_lock_init(&sc->lock);
	/* Never print "callbacks suppressed": shortcut_limit counts them. */
	ratelimit_state_init(&sc->discover_rs, HZ, DP_SC_DISCOVER_BURST);
	ratelimit_set_flags(&sc->discover_rs, RATELIMIT_MSG_ON_RELEASE);
	ratelimit_state_init(&sc->flood_rs, HZ, DP_SC_FLOOD_BURST);
	ratelimit_set_flags(&sc->flood_rs, RATELIMIT_MSG_ON_RELEASE);
	ratelimit_state_init(&sc->resolve_rs, HZ, DP_SC_RESOLVE_BURST);
	ratelimit_set_flags(&sc->resolve_rs, RATELIMIT_MSG_ON_RELEASE);
	sc->budget_period = HZ;
	sc->seen_life = msecs_to_jiffies(DP_SC_SEEN_MS);
	sc->wait = msecs_to_jiffies(DP_SC_WAIT_MS);
	sc->idle = msecs_to_jiffies(DP_SC_IDLE_MS);
	sc->refresh_period = msecs_to_jiffies(DP_SC_REFRESH_MS);
	INIT_DELAYED_WORK(&sc->refresh, dp_sc_refresh_work);
	dp_sc_clear(sc);
	dp->route_fail = dp_sc_route_fail;
}

/*
 * dp0 went down (it left the fabric) or is going away, and no port
 * handler runs any more: forget every shortcut.
 */
void dp_sc_stop(struct dp_priv *dp)
{
	cancel_delayed_work_sync(&dp->sc.refresh);
	spin_lock_bh(&dp->sc.lock);
	dp_sc_clear(&dp->sc);
	spin_unlock_bh(&dp->sc.lock);
}
EXPORT_SYMBOL_IF_KUNIT(dp_sc_stop);

/*
 * @sender is a live neighbour on our port @port_idx, and sent @skb from
 * the MAC it is heard from.
 */
static bool dp_sc_from_neigh(struct dp_priv *dp, u32 port_idx, u32 sender,
			     const struct sk_buff *skb)
{
	const struct dp_neigh *nb;
	struct dp_port *port;

	if (!dp_addr_valid(&dp->topo, sender) || sender == dp->self)
		return false;
	nb = dp_neigh_find(dp, dp->self, port_idx, sender, &port);
	return dp_neigh_reach(dp, port, nb) &&
	       atomic64_read(&nb->mac) ==
	       ether_addr_to_u64(eth_hdr(skb)->h_source);
}

/*
 * A probe: answer the first copy, or pass it on, within the budgets of
 * the neighbour it came from and the node's; only a probe answered or
 * passed on is remembered, so that probes refused cannot push out those
 * whose replies are awaited.
 */
static enum dp_stat dp_sc_probe_rcv(struct dp_priv *dp, u32 port_idx,
				    u32 sender, const struct dpillar_hdr *h,
				    const struct dpillar_shortcut *p,
				    const struct dp_sc_coords *c)
{
	struct dp_sc_coords own;
	u32 origin = ntohl(h->src), target = ntohl(h->dst);
	struct dp_shortcuts *sc = &dp->sc;
	bool mine = target == dp->self, copy;
	enum dp_stat why = DP_STAT_MAX;
	unsigned long now = jiffies;
	u16 seq = ntohs(h->rword);
	struct dp_sc_budget *budget;
	struct dp_sc_scan scan;
	struct dp_port *port;
	u64 mac;

	if (origin == dp->self)
		return DP_STAT_MAX;	/* our own, back by another way */
	if (p->hops >= dp_topo_ttl(&dp->topo))
		return DP_STAT_SC_BAD;
	if (!mine && h->ttl <= 1)
		return DP_STAT_DROP_TTL;
	spin_lock(&sc->lock);
	/* What it may cost, before the scan of the seen table costs it. */
	budget = dp_sc_budget_of(dp, port_idx, sender, 0);
	copy = false;
	if (!dp_sc_budget(sc, budget, DP_SC_B_RX, now)) {
		why = DP_STAT_SC_NEIGH_LIMIT;
		goto unlock;
	}
	dp_sc_seen_scan(sc, origin, seq, port_idx, sender, now, false, &scan);
	copy = scan.copy;
	if (copy)
		goto unlock;
	if (!scan.slot) {
		why = DP_STAT_SC_LIMIT;	/* every entry fresh: none pushed out */
		goto unlock;
	}
	if (mine && !dp_sc_budget(sc, budget, DP_SC_B_REPLY, now))
		why = DP_STAT_SC_REPLY_LIMIT;
	else if (!mine && (!dp_sc_budget(sc, budget, DP_SC_B_FLOOD, now) ||
			   scan.port_fresh >= DP_SC_SEEN_NEIGH))
		why = DP_STAT_SC_NEIGH_LIMIT;
	else if (!mine && !__ratelimit(&sc->flood_rs))
		why = DP_STAT_SC_LIMIT;
	if (why != DP_STAT_MAX)
		goto unlock;
	dp_sc_remember(scan.slot, origin, target, seq, sender, port_idx, now);
	/* The destination answers once: the first copy's way. */
	scan.slot->replied = mine;
unlock:
	spin_unlock(&sc->lock);
	if (copy || why != DP_STAT_MAX)
		return why;	/* a copy that came a longer way: no drop */
	if (mine) {
		/*
		 * Where the reply will go: answer to the prober's place.  Any
		 * neighbour can name any origin: what a probe says only fills
		 * a free place of the cache (coords.h).
		 */
		dp_coords_learn(dp, origin, c->x, c->n, false);
		mac = dp_neigh_mac(dp, port_idx, sender, &port);
		if (!mac)
			return DP_STAT_DROP_NONEIGH;
		dp_sc_own_coords(dp, &own);
		dp_sc_send(dp, port, mac, DPILLAR_T_SHORTCUT_REPLY, dp->self,
			   origin, seq, 1, dp_topo_ttl(&dp->topo), &own);
		return DP_STAT_MAX;
	}
	dp_sc_flood(dp, origin, target, seq, p->hops + 1, h->ttl - 1,
		    port_idx, c);
	return DP_STAT_MAX;
}

/*
 * A reply, from the neighbour @sender that is @p->hops from the
 * destination: learn the shortcut, and pass the reply on toward the
 * origin by the way its probe came.
 */
static enum dp_stat dp_sc_reply_rcv(struct dp_priv *dp, u32 port_idx,
				    u32 sender, const struct dpillar_hdr *h,
				    const struct dpillar_shortcut *p,
				    const struct dp_sc_coords *c)
{
	u32 target = ntohl(h->src), origin = ntohl(h->dst);
	u32 prev = DP_NODE_NONE, out_port = DP_SC_NO_PORT;
	struct dp_shortcuts *sc = &dp->sc;
	unsigned long now = jiffies;
	u16 seq = ntohs(h->rword);
	struct dp_sc_seen *s;
	struct dp_sc_ent *e;
	struct dp_port *port;
	bool learned = false;
	u64 mac;

	if (!p->hops || p->hops >= dp_topo_ttl(&dp->topo) ||
	    target == dp->self)
		return DP_STAT_SC_BAD;
	spin_lock(&sc->lock);
	s = dp_sc_seen_find(sc, origin, seq, now);
	/*
	 * Not from the port the probe came in by: it was passed on to every
	 * other, never back there (dp_sc_flood()).
	 */
	if (s && s->target == target && !s->replied && s->port != port_idx) {
		s->replied = true;
		prev = s->prev;
		out_port = s->port;
		/* The newest discovery wins: it saw the fabric last. */
		e = dp_sc_get(sc, target, now);
		e->peer = sender;
		e->port = port_idx;
		e->dist = p->hops;
		e->learned = now;
		e->used = now;
		if (origin == dp->self) {
			e->origin = true;
			e->asking = false;
		}
		learned = true;
	}
	spin_unlock(&sc->lock);
	if (!learned)
		return DP_STAT_SC_BAD;	/* late, a second time, or forged */
	dp_count(dp, DP_STAT_SC_LEARNED);
	/* A server on the reply's way may send to the destination too. */
	dp_coords_learn(dp, target, c->x, c->n, true);
	if (origin == dp->self) {
		queue_delayed_work(system_power_efficient_wq, &sc->refresh,
				   sc->refresh_period);
		return DP_STAT_MAX;
	}
	if (!dp_neigh_reachable(dp, dp->self, out_port, prev))
		return DP_STAT_DROP_NONEIGH;
	mac = dp_neigh_mac(dp, out_port, prev, &port);
	if (!mac)
		return DP_STAT_DROP_NONEIGH;
	dp_sc_send(dp, port, mac, DPILLAR_T_SHORTCUT_REPLY, target, origin,
		   seq, p->hops + 1, dp_topo_ttl(&dp->topo), c);
	return DP_STAT_MAX;
}

/*
 * The coordinates after struct dpillar_shortcut into @c: in plan mode
 * exactly one per space (a shorter frame, or another count, is a bad
 * one; what follows them is the Ethernet padding); none in derived mode.
 * Pulls them into the linear area: skb->data may move.
 */
static bool dp_sc_pull_coords(struct dp_priv *dp, struct sk_buff *skb,
			      struct dp_sc_coords *c)
{
	c->n = 0;
	if (!dp_topo_plan_mode(&dp->topo))
		return true;
	return dp_coords_pull(skb, DP_SC_LEN, c->x, &c->n) >= 0 &&
	       c->n == dp->topo.p.ncoords;
}

/*
 * A SHORTCUT_PROBE or _REPLY from the port @port_idx (softirq, RCU).
 * Return: DP_STAT_MAX when it was taken (consumed here), else the counter
 * of its drop, which the receive handler makes (dp_handle_frame()).
 */
enum dp_stat dp_sc_rcv(struct dp_priv *dp, u32 port_idx, struct sk_buff *skb)
{
	const struct dpillar_shortcut *p;
	const struct dpillar_hdr *h;
	struct dp_sc_coords c;
	enum dp_stat why;
	u32 sender;

	if (!dp->topo.ops->discover_drop && !dp_sc_fallback(dp))
		return DP_STAT_DROP_TYPE;	/* this device sends none */
	if (!pskb_may_pull(skb, DP_SC_LEN))
		return DP_STAT_DROP_SHORT;
	if (!dp_sc_pull_coords(dp, skb, &c))
		return DP_STAT_SC_BAD;
	h = (const struct dpillar_hdr *)skb->data;
	p = (const struct dpillar_shortcut *)(h + 1);
	sender = ntohl(p->sender);
	if (!dp_sc_from_neigh(dp, port_idx, sender, skb))
		return DP_STAT_SC_BAD;
	if (h->type == DPILLAR_T_SHORTCUT_PROBE)
		why = dp_sc_probe_rcv(dp, port_idx, sender, h, p, &c);
	else
		why = dp_sc_reply_rcv(dp, port_idx, sender, h, p, &c);
	if (why == DP_STAT_MAX)
		consume_skb(skb);
	return why;
}

/*
 * Slot @i of the shortcut table, for dumps: false when it holds nothing
 * (free, or unused for DP_SC_IDLE_MS).
 */
bool dp_sc_snapshot(struct dp_priv *dp, u32 i, struct dp_sc_snap *snap)
{
	struct dp_shortcuts *sc = &dp->sc;
	unsigned long now = jiffies;
	const struct dp_sc_ent *e;
	bool ok = false;

	if (i >= DP_SC_ENTRIES)
		return false;
	spin_lock_bh(&sc->lock);
	e = &sc->ent[i];
	if (e->dst != DP_NODE_NONE && !dp_sc_idle(sc, e, now)) {
		snap->dst = e->dst;
		snap->peer = e->peer;
		snap->port = e->port;
		snap->dist = e->dist;
		snap->origin = e->origin;
		snap->age_ms = jiffies_to_msecs(now - e->learned);
		snap->idle_ms = jiffies_to_msecs(now - e->used);
		ok = true;
	}
	spin_unlock_bh(&sc->lock);
	return ok;
}

/*
 * The discovery fallback (dpillar-design.rst, "The discovery fallback").
 * A topology without a discovery of its own (no discover_drop) gets this
 * one, in its default routing mode (sel 0) only: the other modes are the
 * papers' (and their diagnostic variants), which must reproduce the
 * papers' figures, drops included.  A relay applies its own device's
 * mode, which a fabric sets alike on every server.  The operator may
 * turn it off (dp->fallback, "fallback off"): the topology's own fault
 * tolerance then decides alone, with no discovery flood, e.g. in a
 * fabric built in random order, where the floods would become the
 * routing.
 */
bool dp_sc_fallback(const struct dp_priv *dp)
{
	return !dp->topo.ops->discover_drop && !READ_ONCE(dp->mode) &&
	       READ_ONCE(dp->fallback);
}
EXPORT_SYMBOL_IF_KUNIT(dp_sc_fallback);

/*
 * Send the SHORTCUT_DATA frame @skb (its header at skb->data, the TTL it
 * leaves with already in it) along this server's shortcut toward @dst,
 * at most @max_dist hops long: the frame may then take at most dist - 1
 * more after this one, which its rword says.  False, the skb still the
 * caller's, when there is none or the frame does not fit the port.  The
 * fallback's first hop (dp_sc_data_out()) and the relay's next one
 * (dp_sc_data_hop(), SHORTCUT_DATA's struct dp_relay_ops).
 */
static bool dp_sc_data_send(struct dp_priv *dp, struct sk_buff *skb, u32 dst,
			    u32 max_dist)
{
	struct dpillar_hdr *h = (struct dpillar_hdr *)skb->data;
	u32 port_idx, peer, dist;
	struct dp_port *port;
	u64 mac;

	if (!dp_sc_find_short(dp, dst, max_dist, skb, &port_idx, &peer, &dist))
		return false;
	mac = dp_neigh_mac(dp, port_idx, peer, &port);
	if (!mac || !dp_fits_mtu(skb, port->dev->mtu))
		return false;
	h->type = DPILLAR_T_SHORTCUT_DATA;
	h->flags = 0;
	h->rword = htons(dist - 1);
	h->waypoint = htonl(DPILLAR_NODE_NONE);
	dp_count(dp, DP_STAT_SC_DATA);
	dp_send_on(port, skb, mac);
	return true;
}

/*
 * SHORTCUT_DATA, on a device with the fallback: a header a topology's
 * routing state could hide in (flags, a waypoint) is a bad one, and so is
 * any inner protocol but IP.  Its state (no coordinates, no flags) only
 * serves the TTL step: it is the DATA relays' (dp_ttl_relay()), so that
 * a fabric whose TTL is renewed would renew it by the same rule, and
 * since such a frame carries no budget in topology bits, none does: it
 * spends one a hop, as it always did in the fabrics that have the
 * fallback (their bound is within the u8, where nothing is renewed).
 */
static enum dp_stat dp_sc_data_check(struct dp_priv *dp, struct sk_buff *skb)
{
	const struct dpillar_hdr *h = (const struct dpillar_hdr *)skb->data;

	/* No flags: no coordinates behind. */
	if (h->flags || h->waypoint != htonl(DPILLAR_NODE_NONE) ||
	    (h->proto != htons(ETH_P_IP) && h->proto != htons(ETH_P_IPV6)))
		return DP_STAT_SC_DATA_LOST;
	return DP_STAT_FORWARDED;
}

/*
 * SHORTCUT_DATA's next hop: along a shortcut of ours no longer than its
 * rword (and than its TTL allows).  Along shortcuts the path is loop-free
 * whatever the tables say: rword strictly decreases.  A relay that has
 * no such shortcut (it was evicted, or idled out while a late refresh had
 * not renewed it: issue 53, items 11 and 12) turns the frame back into a
 * DATA frame to be routed by the topology from here (DP_OUT_ROUTE: the
 * relay's dp_route_out()), as if it had started here, instead of
 * black-holing it; should that fail at a real failure again, the fallback
 * carries it or discovers on its sender's account (dp_sc_route_fail()).
 */
static enum dp_out dp_sc_data_hop(struct dp_priv *dp, struct sk_buff *skb,
				  struct dp_route_state *st, void *ctx)
{
	struct dpillar_hdr *h = (struct dpillar_hdr *)skb->data;
	u32 budget, dst = st->dst;

	/*
	 * No sender leaves a frame with no hops to take anywhere but at
	 * its destination (dp_sc_data_send()): a bad one.
	 */
	if (!st->word)
		return DP_OUT_NOROUTE;
	budget = min_t(u32, st->word, h->ttl);
	if (budget && dp_sc_data_send(dp, skb, dst, budget))
		return DP_OUT_SENT;
	h->type = DPILLAR_T_DATA;
	dp_route_init(&dp->topo, dp->self, dst, READ_ONCE(dp->mode),
		      ntohl(h->src) ^ dst, st);
	return DP_OUT_ROUTE;
}

static const struct dp_relay_ops dp_sc_data_ops = {
	.check = dp_sc_data_check,
	.hop = dp_sc_data_hop,
	.noroute = DP_STAT_SC_DATA_LOST,
};

/**
 * dp_sc_data_rcv - a SHORTCUT_DATA frame from a port, for another server
 * @dp: the device (dp_sc_fallback() true)
 * @skb: the frame, its header at skb->data, addresses checked
 *
 * Relayed as every frame type is (dp_relay(), relay.h), with the hooks
 * above; the receive handler delivers one for this node.  Softirq, RCU.
 * Its own instance of dp_relay(), here, and not in dp_handle_frame()
 * beside data's, which would make the compiler call what it inlines for
 * data alone (dp_ttl_relay(), dp_count()).
 *
 * Return: DP_STAT_MAX when it was taken (relayed), else the counter of
 * its drop, which the receive handler makes.
 */
enum dp_stat dp_sc_data_rcv(struct dp_priv *dp, struct sk_buff *skb)
{
	return dp_relay(dp, skb, &dp_sc_data_ops, NULL);
}

/**
 * dp_sc_data_out - carry on a data frame the topology gave up on
 * @dp: the device (dp_sc_fallback() true)
 * @skb: the DATA frame, its header at skb->data with the TTL it leaves
 *	with, from dp0 or relayed
 * @dst: its destination (a node, not a key)
 *
 * Along a shortcut of this server's when it knows one the TTL allows
 * (every later hop spends one of each: the rword stays below the TTL, so
 * the TTL never runs out on a shortcut); else a discovery toward @dst
 * starts, within the budgets of dp_sc_discover(), and the frame is
 * dropped: the next ones take the shortcut its reply installs.
 *
 * Return: DP_OUT_SENT (the skb is gone) or DP_OUT_NOROUTE.
 */
static enum dp_out dp_sc_data_out(struct dp_priv *dp, struct sk_buff *skb,
				  u32 dst)
{
	const struct dpillar_hdr *h = (const struct dpillar_hdr *)skb->data;
	u32 in_port;
	u64 in_mac;

	if (h->ttl && dp_sc_data_send(dp, skb, dst, h->ttl))
		return DP_OUT_SENT;
	in_port = dp_sc_in_port(dp, skb, &in_mac);
	dp_sc_discover(dp, dst, in_port, in_mac);
	return DP_OUT_NOROUTE;
}

/*
 * dp_route_out()'s hook (dp_priv.route_fail): the topology gave up on
 * @skb with @reason.  Where it gave up at what it calls a local minimum
 * (dp_topo_ops.discover_drop), a shortcut discovery starts toward the
 * destination, from the budget of the port the frame came in by: the
 * frame itself is still dropped.  Else, a failure the topology could not
 * route around (not bad_addr or at_dst, nor a header no sender builds):
 * a data frame goes on by the discovery fallback (dp_sc_data_out()).
 * True when the frame went on (the skb is gone).
 */
static bool dp_sc_route_fail(struct dp_priv *dp, struct sk_buff *skb,
			     const struct dp_route_state *st, u8 reason)
{
	const struct dpillar_hdr *h = (const struct dpillar_hdr *)skb->data;
	u32 in_port;
	u64 in_mac;

	if (reason && reason == dp->topo.ops->discover_drop) {
		in_port = dp_sc_in_port(dp, skb, &in_mac);
		dp_sc_discover(dp, st->dst, in_port, in_mac);
		return false;
	}
	return dp_topo_discover_drop(&dp->topo, reason) &&
	       h->type == DPILLAR_T_DATA &&
	       !dp_dst_is_key(&dp->topo, st->flags) &&
	       dp_sc_fallback(dp) &&
	       dp_sc_data_out(dp, skb, st->dst) == DP_OUT_SENT;
}
