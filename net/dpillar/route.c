// SPDX-License-Identifier: GPL-2.0
/*
 * One hop of a frame: the topology's decision (topo.c), turned into a
 * neighbour's MAC address and a port, or into the reason it cannot go on.
 *
 * Between the files that receive and originate frames (tx.c, rx.c,
 * probe.c) and the bottom layer that writes and sends them (hdr.c,
 * send.c).  Its result
 * is its own type, enum dp_out: a caller maps a failure to the counter of
 * its direction with dp_out_stat().
 */

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/hash.h>

#include "dpillar.h"
#include "hdr.h"
#include "route.h"
#include "send.h"

/* Why routing gave up, on top of the drop itself. */
static void dp_count_route_reason(struct dp_priv *dp, u8 reason)
{
	struct dp_pcpu_stats *s;

	if (reason >= DP_DROP_MAX)
		return;
	s = get_cpu_ptr(dp->stats);
	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->route[reason]);
	u64_stats_update_end(&s->syncp);
	put_cpu_ptr(dp->stats);
}

/* The entry of the route memo for @st, on this CPU. */
static struct dp_rmemo *dp_rmemo_of(struct dp_priv *dp,
				    const struct dp_route_state *st)
{
	u32 key = st->dst ^ ((u32)st->word << 16) ^ st->waypoint ^ st->flags;

	return &this_cpu_ptr(dp->rmemo)->e[hash_32(key, DP_RMEMO_BITS)];
}

/*
 * Two routing states are the same, the frame's coordinates (S2 plan mode)
 * included, all of them: an entry's key and a frame's, or a frame's
 * before and after its decision.
 */
static inline bool dp_rmemo_same_key(const struct dp_route_state *a,
				     const struct dp_route_state *b)
{
	u32 i;

	if (a->dst != b->dst || a->waypoint != b->waypoint ||
	    a->word != b->word || a->flags != b->flags ||
	    a->ncoords != b->ncoords)
		return false;
	/* A word at a time: memcmp() is a call, and bytes (lib/string.c) */
	for (i = 0; i < a->ncoords; i++)
		if (a->coords[i] != b->coords[i])
			return false;
	return true;
}

/*
 * The memo's hit path, inline (dp_rmemo_hit()): each call is a
 * translation-block lookup under TCG and some ten instructions of
 * saved registers besides (make bench).
 */
static inline bool dp_rmemo_same_state(const struct dp_rmemo *e,
				       u32 gen, u32 self,
				       const struct dp_route_state *st)
{
	return e->gen == gen && e->self == self &&
	       dp_rmemo_same_key(&e->st, st);
}

/* What both kinds of entry hold: the key and the hop, its neighbour slot. */
static void dp_rmemo_fill(struct dp_rmemo *e, u32 gen, u32 self,
			  const struct dp_route_state *st,
			  const struct dp_hop *hop, u32 slot, bool multi)
{
	e->gen = gen;
	e->self = self;
	e->st = *st;
	e->port = hop->port;
	e->next = hop->next;
	e->slot = slot;
	e->phase = hop->phase;
	e->multi = multi;
}

/* Our port @idx is bound and up, as a multi entry saw it. */
static inline bool dp_rmemo_port_up(const struct dp_priv *dp,
				    u32 idx)
{
	const struct dp_port *port = rcu_dereference(dp->ports[idx]);

	return port && dp_port_up(port);
}

/*
 * A multi entry's hop, while every answer its decision had is still the
 * view's: the neighbour generation is the entry's, no neighbour's life
 * can have changed by time yet, and the ports it asked about are up or
 * down as they were (struct dp_rmemo).  *@portp and *@nbp: the hop's
 * port and neighbour slot.
 */
static inline bool
dp_rmemo_take_multi(struct dp_priv *dp, const struct dp_rmemo *e,
		    struct dp_hop *hop, struct dp_port **portp,
		    struct dp_neigh **nbp)
{
	unsigned long ports, up = 0;
	struct dp_port *port;

	/* Pairs with dp_rmemo_neigh_changed() */
	if ((u32)atomic_read_acquire(&dp->rmemo_ngen) != e->ngen ||
	    (e->has_exp && !time_before(jiffies, e->expires)))
		return false;
	/*
	 * Which of those ports are up now, against the entry's (a subset
	 * of @ports: dp_vctx_reach()), one comparison: a lowest set bit
	 * cleared a turn, not find_next_bit()'s masks.
	 */
	for (ports = e->ports; ports; ports &= ports - 1)
		if (dp_rmemo_port_up(dp, __ffs(ports)))
			up |= ports & -ports;
	if (up != e->ports_up)
		return false;
	port = e->port < dp->nports ? rcu_dereference(dp->ports[e->port]) :
	       NULL;
	if (!port || e->slot >= port->nneigh)
		return false;
	hop->next = e->next;
	hop->port = e->port;
	hop->phase = e->phase;
	hop->reason = DP_DROP_ROUTE_NONE;
	*portp = port;
	*nbp = &port->neigh[e->slot];
	return true;
}

/*
 * @e's hop, when its neighbour's answers are still those the decision
 * had: the view's reachable and ports_up, read again from the slot
 * (view.c).  Its port and slot in *@portp and *@nbp, for dp_route_out()'s
 * MAC.
 */
static inline bool
dp_rmemo_take(struct dp_priv *dp, const struct dp_rmemo *e,
	      struct dp_hop *hop, struct dp_port **portp,
	      struct dp_neigh **nbp)
{
	struct dp_neigh *nb;
	struct dp_port *port;
	u32 up;

	port = e->port < dp->nports ? rcu_dereference(dp->ports[e->port]) :
	       NULL;
	if (!port || e->slot >= port->nneigh)
		return false;
	nb = &port->neigh[e->slot];
	if (dp->topo.learn_peers && dp_neigh_node(dp, port, e->slot) != e->next)
		return false;
	/* The answers as the view gives them: dp_neigh_reach/up() */
	if ((e->asked & DP_ASKED_REACH) &&
	    e->reach != dp_neigh_reach(dp, port, nb))
		return false;
	if ((e->asked & DP_ASKED_UP) &&
	    (e->up_known != dp_neigh_up(nb, &up) || e->up != up))
		return false;
	hop->next = e->next;
	hop->port = e->port;
	hop->phase = e->phase;
	hop->reason = DP_DROP_ROUTE_NONE;
	*portp = port;
	*nbp = nb;
	return true;
}

/*
 * Keep the hop just decided as a multi entry (struct dp_rmemo), when the
 * decision asked nothing an entry cannot check again (a shortcut) and saw
 * no port both up and down; @ngen: the neighbour generation read before
 * the decision.
 */
static void dp_rmemo_keep_multi(struct dp_priv *dp, struct dp_rmemo *e,
				u32 gen, u32 ngen,
				const struct dp_route_state *st,
				const struct dp_view_memo *m,
				const struct dp_hop *hop)
{
	struct dp_neigh *nb;
	struct dp_port *port;

	if (m->uncached || m->port_mixed || hop->port > U8_MAX)
		return;
	nb = dp_neigh_find(dp, dp->self, hop->port, hop->next, &port);
	if (!nb || nb - port->neigh > U16_MAX)
		return;
	dp_rmemo_fill(e, gen, dp->self, st, hop, nb - port->neigh, true);
	e->ngen = ngen;
	e->ports = m->ports;
	e->ports_up = m->ports_up;
	e->has_exp = m->has_exp;
	e->expires = m->expires;
}

/*
 * Keep the hop just decided from @st (unchanged by the decision, @st0
 * before it): as a single entry when the decision asked about its
 * neighbour and nothing else, and found it reachable; else as a multi
 * entry (dp_rmemo_keep_multi()).
 */
static void dp_rmemo_keep(struct dp_priv *dp, struct dp_rmemo *e, u32 gen,
			  u32 ngen, const struct dp_route_state *st0,
			  const struct dp_route_state *st,
			  const struct dp_view_memo *m,
			  const struct dp_hop *hop)
{
	if (!dp_rmemo_same_key(st, st0))
		return;
	if (m->lookups != 1 || m->other || m->mixed || !m->valid || !m->nb ||
	    !(m->asked & DP_ASKED_REACH) || !m->reach ||
	    m->self != dp->self || m->port != hop->port ||
	    m->peer != hop->next || m->nb - m->p->neigh > U16_MAX) {
		dp_rmemo_keep_multi(dp, e, gen, ngen, st, m, hop);
		return;
	}
	dp_rmemo_fill(e, gen, m->self, st, hop, m->nb - m->p->neigh, false);
	e->asked = m->asked;
	e->reach = m->reach;
	e->up_known = m->up_known;
	e->up = m->up;
}

/*
 * The route memo's part of dp_route_hop(): true when the entry of @st
 * gives its hop (*@hop, the hop's port and neighbour slot in *@portp and
 * *@nbp); else *@ep is the entry the decision may fill (NULL: none) and
 * *@genp its generation.  The memo is per CPU: used with BHs off (the
 * receive softirq, the transmit path) outside interrupts.
 */
static inline bool dp_rmemo_hit(struct dp_priv *dp,
				const struct dp_route_state *st,
				struct dp_hop *hop,
				struct dp_port **portp,
				struct dp_neigh **nbp,
				struct dp_rmemo **ep, u32 *genp)
{
	struct dp_rmemo *e;
	u32 gen;

	*ep = NULL;
	/*
	 * BHs off and not an interrupt (netpoll's transmit can be one,
	 * over a softirq of this CPU that is writing an entry).
	 */
	if (!in_softirq() || in_hardirq() || in_nmi() ||
	    st->ncoords > DP_COORDS_MAX || !dp->rmemo)
		return false;
	/* Pairs with dp_rmemo_flush(): this generation, its topology */
	gen = smp_load_acquire(&dp->rmemo_gen);
	e = dp_rmemo_of(dp, st);
	if (dp_rmemo_same_state(e, gen, dp->self, st) &&
	    (e->multi ? dp_rmemo_take_multi(dp, e, hop, portp, nbp) :
	     dp_rmemo_take(dp, e, hop, portp, nbp))) {
		this_cpu_inc(dp->rmemo->hits);
		return true;
	}
	*ep = e;
	*genp = gen;
	return false;
}

/*
 * The topology's decision on a miss of the memo (dp_rmemo_hit()), kept
 * in its entry @e (of generation @gen; NULL: none) when it can be.
 */
static int dp_route_decide(struct dp_priv *dp, struct dp_route_state *st,
			   struct dp_vctx *c, struct dp_hop *hop,
			   struct dp_rmemo *e, u32 gen)
{
	struct dp_route_state st0;
	struct dp_view v;
	u32 ngen = 0;
	int ret;

	if (e) {
		/* Before the decision: see dp_rmemo_neigh_changed() */
		ngen = (u32)atomic_read_acquire(&dp->rmemo_ngen);
		st0 = *st;
	}
	v = dp->view;
	v.ctx = c;
	ret = dp_route(&dp->topo, dp->self, st, &v, hop);
	if (!ret && e)
		dp_rmemo_keep(dp, e, gen, ngen, &st0, st, c->memo, hop);
	return ret;
}

/**
 * dp_route_hop - the topology's decision for one frame, through the memo
 * @dp: the device
 * @st: the frame's routing state; the decision may change it
 * @c: the view's context for this frame, with its memo (struct dp_vctx)
 * @hop: the result
 *
 * dp_route() on @dp's view, or the route memo's hop when the decision
 * would be the same (struct dp_rmemo), its slot then in @c's memo.
 * The memo is per CPU: used with BHs off (the receive softirq, the
 * transmit path) outside interrupts.  A frame's coordinates (S2 plan
 * mode) are part of its entry's state.  dp_route_out() does the same,
 * without the view's memo on a hit.
 *
 * Return: dp_route()'s.
 */
int dp_route_hop(struct dp_priv *dp, struct dp_route_state *st,
		 struct dp_vctx *c, struct dp_hop *hop)
{
	struct dp_rmemo *e;
	struct dp_port *port;
	struct dp_neigh *nb;
	u32 gen = 0;

	if (dp_rmemo_hit(dp, st, hop, &port, &nb, &e, &gen)) {
		dp_view_memo_slot(c->memo, dp->self, hop->port, hop->next,
				  port, nb);
		return 0;
	}
	return dp_route_decide(dp, st, c, hop, e, gen);
}
EXPORT_SYMBOL_IF_KUNIT(dp_route_hop);

/*
 * Forget every entry: the topology or our id changed.  Under RTNL; a
 * frame routed meanwhile keeps what it read (its entry has the old
 * generation, which no frame takes after this).
 */
void dp_rmemo_flush(struct dp_priv *dp)
{
	u32 gen = dp->rmemo_gen + 1;

	/* After the new topology and id: see dp_route_hop() */
	smp_store_release(&dp->rmemo_gen, gen ?: 1);
}

/*
 * dp_route_out() of a frame the topology did not route (@hop's reason):
 * a key frame home here, or what the protocol above routing makes of the
 * failure (dp_priv.route_fail: a shortcut discovery, or the discovery
 * fallback's way on); else its reason counted.  A frame carried on is no
 * drop: its reason is counted only when it is dropped (issue 53, item 10).
 */
static enum dp_out dp_route_fail(struct dp_priv *dp, struct sk_buff *skb,
				 const struct dp_route_state *st,
				 const struct dp_hop *hop)
{
	const struct dpillar_hdr *h = (const struct dpillar_hdr *)skb->data;

	if (hop->reason == DP_DROP_ROUTE_AT_DST &&
	    h->type == DPILLAR_T_DATA &&
	    dp_dst_is_key(&dp->topo, st->flags))
		return DP_OUT_HOME;
	if (dp->route_fail && dp->route_fail(dp, skb, st, hop->reason))
		return DP_OUT_SENT;
	dp_count_route_reason(dp, hop->reason);
	return DP_OUT_NOROUTE;
}

/**
 * dp_route_out - route a frame one hop and send it
 * @dp: the device
 * @skb: the frame, its dpillar header at skb->data; the routing fields
 *       are written from @st
 * @st: the routing state it leaves with
 *
 * The one routing decision of every frame a node sends or relays (data,
 * probes).  When the topology gives up, the device's dp_priv.route_fail
 * may carry the frame on (shortcut.c: where the topology gives up at
 * what it calls a local minimum, dp_topo_ops.discover_drop, a shortcut
 * discovery starts toward the destination and the frame is still
 * dropped; a topology without one has the discovery fallback instead,
 * dp_sc_fallback(): a data frame it gives up on goes on along a shortcut
 * when this node knows one, and starts a discovery when not).
 *
 * Return: DP_OUT_SENT (the skb is gone), else what happened instead
 * (enum dp_out; the skb is still the caller's).
 */
enum dp_out dp_route_out(struct dp_priv *dp, struct sk_buff *skb,
			 struct dp_route_state *st)
{
	struct dp_rmemo *e;
	struct dp_neigh *nb;
	struct dp_port *port;
	struct dp_hop hop;
	u32 gen = 0;
	u64 mac;
	u8 detour;

	/*
	 * The memo's hop, with its port and slot; else the decision, on
	 * this packet's view: the device's, with a memo (struct dp_vctx).
	 */
	if (!dp_rmemo_hit(dp, st, &hop, &port, &nb, &e, &gen)) {
		struct dp_view_memo memo = { .valid = false };
		struct dp_vctx c = { .dp = dp, .memo = &memo, .skb = skb };

		if (dp_route_decide(dp, st, &c, &hop, e, gen))
			return dp_route_fail(dp, skb, st, &hop);
		nb = dp_vctx_find(&c, dp->self, hop.port, hop.next, &port);
	}
	/* Every hop of a detour around a failure is counted (topo.h). */
	detour = dp_phase_detour(&dp->topo, hop.phase);
	if (detour)
		dp_count(dp, DP_STAT_DETOUR1 + detour - 1);
	mac = nb ? atomic64_read(&nb->mac) : 0;
	if (!mac)
		return DP_OUT_NONEIGH;
	/*
	 * The hop's state into the header, then the frame onto the port,
	 * if it fits (else the caller drops it, header and all).
	 */
	dp_hdr_set_state(skb, st);
	if (!dp_fits_mtu(skb, port->dev->mtu))
		return DP_OUT_MTU;
	dp_send_on(port, skb, mac);
	return DP_OUT_SENT;
}
