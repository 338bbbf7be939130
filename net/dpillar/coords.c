// SPDX-License-Identifier: GPL-2.0
/*
 * Coordinate resolution for S2 plan mode (coords.h): lookup and the
 * cache.  Starting a discovery for what is not known is the discovery's
 * (dp_sc_coords_route(), shortcut.c), which calls down into this file and
 * is never called from it.
 *
 * Who calls in, and from where:
 * - dp_coords_lookup() and dp_coords_find_any(): the transmit path (BHs
 *   off, rcu_read_lock_bh) and the receive softirq (rcu_read_lock);
 * - dp_coords_learn(): the receive softirq (shortcut.c);
 * - dp_coords_init()/dp_coords_stop(): device setup, ndo_stop, ndo_uninit.
 * The lock is only ever taken with BHs off, and nothing is called with it
 * held.
 *
 * What is cached comes from the wire (a probe's or a reply's struct
 * dpillar_coords, from a live neighbour): it is used to address frames,
 * never to route them through this node or to decide who is a neighbour.
 * A wrong entry misdirects the packets of this node to that destination
 * (routing drops them, the TTL bounds them) until a newer discovery
 * replaces it, started by the first send that finds it
 * DP_COORDS_REFRESH_MS old, or it is forgotten, DP_COORDS_LIFE_MS -
 * DP_COORDS_REFRESH_MS after that send (coords.h).
 */

#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/log2.h>

#include "dpillar.h"

/*
 * A refresh's reply has the rest of the life to come: DP_COORDS_LIFE_MS
 * - DP_COORDS_REFRESH_MS after the entry fell due.
 */
#define DP_COORDS_WAIT_MS	(DP_COORDS_LIFE_MS - DP_COORDS_REFRESH_MS)

static u32 dp_coords_hash(u32 node)
{
	BUILD_BUG_ON(!is_power_of_2(DP_COORDS_BUCKETS));
	return hash_32(node, ilog2(DP_COORDS_BUCKETS));
}

static void dp_coords_clear(struct dp_coords_cache *c)
{
	u32 i;

	/* Slot numbers and the chains' end fit the links' u8. */
	BUILD_BUG_ON(DP_COORDS_CACHE > DP_COORDS_NIL);
	/* Refreshed two thirds into its life, which ends before idleness. */
	BUILD_BUG_ON(3 * DP_COORDS_REFRESH_MS != 2 * DP_COORDS_LIFE_MS ||
		     DP_COORDS_LIFE_MS > DP_COORDS_IDLE_MS);
	memset(c->head, DP_COORDS_NIL, sizeof(c->head));
	for (i = 0; i < DP_COORDS_CACHE; i++) {
		c->ent[i].node = DP_NODE_NONE;
		c->ent[i].next = DP_COORDS_NIL;
	}
}

static bool dp_coords_idle(const struct dp_coords_ent *e, unsigned long now)
{
	return time_after_eq(now, e->used + msecs_to_jiffies(DP_COORDS_IDLE_MS));
}

/* Its confirmation was due and did not come in time: forgotten. */
static bool dp_coords_old(const struct dp_coords_ent *e, unsigned long now)
{
	return e->due && time_after_eq(now, e->expires);
}

/* Idle or old: a free place for a new entry, a miss for a lookup. */
static bool dp_coords_gone(const struct dp_coords_ent *e, unsigned long now)
{
	return dp_coords_idle(e, now) || dp_coords_old(e, now);
}

static struct dp_coords_ent *dp_coords_find(struct dp_coords_cache *c,
					    u32 node)
{
	u32 i;

	for (i = c->head[dp_coords_hash(node)]; i != DP_COORDS_NIL;
	     i = c->ent[i].next)
		if (c->ent[i].node == node)
			return &c->ent[i];
	return NULL;
}

/* Take slot @e out of its chain: it is free then. */
static void dp_coords_unlink(struct dp_coords_cache *c,
			     struct dp_coords_ent *e)
{
	u8 slot = e - c->ent, *link = &c->head[dp_coords_hash(e->node)];

	while (*link != DP_COORDS_NIL) {
		if (*link == slot) {
			*link = e->next;
			break;
		}
		link = &c->ent[*link].next;
	}
	e->node = DP_NODE_NONE;
	e->next = DP_COORDS_NIL;
}

/*
 * A slot for a node not cached: a free one, else an idle or old one, else
 * the LRU.
 */
static struct dp_coords_ent *dp_coords_victim(struct dp_coords_cache *c,
					      unsigned long now)
{
	struct dp_coords_ent *old = &c->ent[0];
	u32 i;

	for (i = 0; i < DP_COORDS_CACHE; i++) {
		struct dp_coords_ent *e = &c->ent[i];

		if (e->node == DP_NODE_NONE)
			return e;
		if (dp_coords_gone(e, now)) {
			old = e;
			break;
		}
		if (time_before(e->used, old->used))
			old = e;
	}
	dp_coords_unlink(c, old);
	return old;
}

/*
 * The coordinates of @node from the cache only, into @x (room for
 * DP_COORDS_MAX): true when cached, for the device's spaces, neither idle
 * nor old (an old entry is gone, counted coords_expired).  When @use (a
 * sender that may resolve), the entry is recently used, and one
 * DP_COORDS_REFRESH_MS old is due for its confirmation from now on;
 * *@refresh then says it is due: time to resolve it again.  A hit never
 * makes it younger, and a lookup that is no use (a reader's) changes
 * nothing.
 */
static bool dp_coords_get(struct dp_priv *dp, u32 node, u32 *x, bool use,
			  bool *refresh)
{
	struct dp_coords_cache *c = &dp->coords;
	u32 n = dp->topo.p.ncoords;
	unsigned long now = jiffies;
	struct dp_coords_ent *e;
	bool ok = false, expired = false;

	*refresh = false;
	spin_lock_bh(&c->lock);
	e = dp_coords_find(c, node);
	if (e && dp_coords_gone(e, now)) {
		expired = !dp_coords_idle(e, now);
		dp_coords_unlink(c, e);
	} else if (e && e->n == n) {
		memcpy(x, e->x, n * sizeof(*x));
		if (use) {
			e->used = now;
			if (!e->due &&
			    time_after_eq(now, e->learned +
					  msecs_to_jiffies(DP_COORDS_REFRESH_MS))) {
				e->due = true;
				e->expires = now + msecs_to_jiffies(DP_COORDS_WAIT_MS);
			}
			*refresh = e->due;
		}
		ok = true;
	}
	spin_unlock_bh(&c->lock);
	if (expired)
		dp_count(dp, DP_STAT_COORDS_EXPIRED);
	return ok;
}

bool dp_coords_cached(struct dp_priv *dp, u32 node, u32 *x)
{
	bool refresh;

	return dp_coords_get(dp, node, x, false, &refresh);
}
EXPORT_SYMBOL_IF_KUNIT(dp_coords_cached);

/*
 * @node among our live 1-hop and 2-hop neighbours, with the coordinates
 * their Hellos gave (the view's coordinate questions, struct
 * dp_view_coords; a NULL member: that part is not known).
 */
static bool dp_coords_neigh(struct dp_priv *dp, u32 node, u32 *x)
{
	const struct dp_view *v = &dp->view;
	const struct dp_view_coords *vc = v->coords;
	u32 n = dp->topo.p.ncoords, ids[DPILLAR_TLV_NEIGHS_MAX];
	u32 p, idx, i, cnt;

	if (!vc)
		return false;
	for (p = 0; p < dp->nports; p++) {
		struct dp_port *port = dp_port_rcu(dp, p);

		if (!port || !dp_port_up(port))
			continue;
		for (idx = 0; idx < port->nneigh; idx++) {
			u32 peer = dp_neigh_node(dp, port, idx);

			if (peer == DP_NODE_NONE ||
			    !dp_neigh_reachable(dp, dp->self, p, peer))
				continue;
			if (peer == node) {
				if (vc->node_coords &&
				    vc->node_coords(v->ctx, dp->self, p, node,
						    x, n) == n)
					return true;
				continue;
			}
			if (!v->peer_neighs || !vc->peer_neigh_coords)
				continue;
			cnt = v->peer_neighs(v->ctx, dp->self, p, peer, ids,
					     ARRAY_SIZE(ids));
			for (i = 0; i < cnt; i++)
				if (ids[i] == node &&
				    vc->peer_neigh_coords(v->ctx, dp->self, p,
							  peer, i, x, n) == n)
					return true;
		}
	}
	return false;
}

/*
 * dp_coords_lookup(), a use of the cache's answer when @use
 * (dp_coords_get()), and *@refresh when that answer is due for its
 * confirmation: time to resolve it again (the sender's part,
 * dp_sc_coords_route(), shortcut.c).
 */
bool dp_coords_find_any(struct dp_priv *dp, u32 node, u32 *x, bool use,
			bool *refresh)
{
	const struct dp_topo *t = &dp->topo;

	*refresh = false;
	if (!dp_topo_plan_mode(t) || t->p.ncoords > DP_COORDS_MAX ||
	    !dp_addr_valid(t, node))
		return false;
	if (node == dp->self) {
		memcpy(x, t->p.coords, t->p.ncoords * sizeof(*x));
		return true;
	}
	return dp_coords_neigh(dp, node, x) ||
	       dp_coords_get(dp, node, x, use, refresh);
}
EXPORT_SYMBOL_IF_KUNIT(dp_coords_find_any);

/*
 * The coordinates of @node (S2 plan mode) into @x, room for
 * DP_COORDS_MAX, dp->topo.p.ncoords of them: ours, a live neighbour's or
 * a 2-hop neighbour's as their Hellos gave them, else the cache's.  False
 * when none of them knows, or not in plan mode.  A reader's lookup: the
 * cache's entry is not used by it.  BHs off, under RCU.
 */
bool dp_coords_lookup(struct dp_priv *dp, u32 node, u32 *x)
{
	bool refresh;

	return dp_coords_find_any(dp, node, x, false, &refresh);
}
EXPORT_SYMBOL_IF_KUNIT(dp_coords_lookup);

/*
 * Cache @n coordinates @x of @node, learned from a discovery frame: when
 * @replace (a reply's, which its destination wrote) the newest replaces
 * what was cached; else (a probe's, whose origin any neighbour can name)
 * only a free place is filled, a live entry kept.  Ignored unless in plan
 * mode, for another valid node, one coordinate per space.  A probe's are
 * due for their confirmation at once.
 */
void dp_coords_learn(struct dp_priv *dp, u32 node, const u32 *x, u32 n,
		     bool replace)
{
	struct dp_coords_cache *c = &dp->coords;
	unsigned long now = jiffies;
	struct dp_coords_ent *e;
	u32 h;

	if (!dp_topo_plan_mode(&dp->topo) || n != dp->topo.p.ncoords ||
	    n > DP_COORDS_MAX || !dp_addr_valid(&dp->topo, node) ||
	    node == dp->self)
		return;
	spin_lock_bh(&c->lock);
	e = dp_coords_find(c, node);
	if (e && !replace && !dp_coords_gone(e, now)) {
		spin_unlock_bh(&c->lock);
		return;
	}
	if (!e) {
		e = dp_coords_victim(c, now);
		h = dp_coords_hash(node);
		e->node = node;
		e->next = c->head[h];
		c->head[h] = e - c->ent;
	}
	e->n = n;
	memcpy(e->x, x, n * sizeof(*x));
	e->used = now;
	e->learned = now;
	/*
	 * A probe's are due for their confirmation at once: the first send
	 * to @node uses them and resolves them again, and what a forged
	 * probe put here is gone DP_COORDS_LIFE_MS - DP_COORDS_REFRESH_MS
	 * after its learning, used or not.  A reply's are confirmed.
	 */
	e->due = !replace;
	e->expires = now + msecs_to_jiffies(DP_COORDS_WAIT_MS);
	spin_unlock_bh(&c->lock);
	dp_count(dp, DP_STAT_COORDS_LEARNED);
}
EXPORT_SYMBOL_IF_KUNIT(dp_coords_learn);

void dp_coords_init(struct dp_priv *dp)
{
	spin_lock_init(&dp->coords.lock);
	dp_coords_clear(&dp->coords);
}

/* dp0 went down (it left the fabric) or is going away: forget them all. */
void dp_coords_stop(struct dp_priv *dp)
{
	spin_lock_bh(&dp->coords.lock);
	dp_coords_clear(&dp->coords);
	spin_unlock_bh(&dp->coords.lock);
}
EXPORT_SYMBOL_IF_KUNIT(dp_coords_stop);
