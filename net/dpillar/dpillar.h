/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dpillar: private definitions of the kernel module.  The functions each
 * file offers the others, and the inlines every layer shares: the
 * device's (the topology hold, the prefixes, the counters), the ports',
 * the neighbour tables' and the routing view's.  The types they work on
 * are in dpillar_types.h; the data path's inlines in the headers of their
 * own files: hdr.h (the dpillar header), send.h (onto a port), route.h
 * (one hop) and relay.h (the relay of every frame type).
 */
#ifndef _DPILLAR_H
#define _DPILLAR_H

#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/netlink.h>
#include <linux/rcupdate.h>
#include <linux/rtnetlink.h>

#include "dpillar_types.h"

/*
 * A genetlink request that reads the topology without RTNL (DEV_GET,
 * NEIGH_GET, ROUTE_*; a route trace sleeps) holds it: a topology change
 * refuses while anyone does, and a request that comes during one gets
 * false (try again).  Dekker's pattern with dp_topo_change(): each side
 * writes its flag, then reads the other's, with a full barrier between.
 */
static inline bool dp_topo_hold(struct dp_priv *dp)
{
	atomic_inc(&dp->topo_users);
	/* Our count before their flag: pairs with smp_mb() in the change. */
	smp_mb__after_atomic();
	/* Acquire: a change that finished is seen whole. */
	if (!smp_load_acquire(&dp->topo_changing))
		return true;
	atomic_dec(&dp->topo_users);
	return false;
}

static inline void dp_topo_put(struct dp_priv *dp)
{
	/* Our reads of the topology before the count drops. */
	smp_mb__before_atomic();
	atomic_dec(&dp->topo_users);
}

static inline bool dp_configured(const struct dp_priv *dp)
{
	return dp_topo_configured(&dp->topo);
}

/* Readers: the transmit path (BH), genetlink (RCU) and rtnetlink (RTNL). */
static inline const struct dp_prefix *dp_prefix(const struct dp_priv *dp)
{
	return rcu_dereference_check(dp->prefix, rcu_read_lock_bh_held() ||
				     lockdep_rtnl_is_held());
}

/*
 * NL_SET_ERR_MSG() only takes literals; the topology core hands back its
 * reasons as pointers to static strings, which outlive the request too.
 */
static inline void dp_extack(struct netlink_ext_ack *extack,
			     const struct nlattr *attr, const char *msg)
{
	if (!extack)
		return;
	extack->_msg = msg;
	extack->bad_attr = attr;
}

static inline void dp_count(struct dp_priv *dp, enum dp_stat stat)
{
	struct dp_pcpu_stats *s = get_cpu_ptr(dp->stats);

	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->cnt[stat]);
	u64_stats_update_end(&s->syncp);
	put_cpu_ptr(dp->stats);
}

/* A packet sent (DP_STAT_TX) or delivered (DP_STAT_DELIVERED), with bytes. */
static inline void dp_count_bytes(struct dp_priv *dp, enum dp_stat stat,
				  unsigned int len)
{
	struct dp_pcpu_stats *s = get_cpu_ptr(dp->stats);

	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->cnt[stat]);
	u64_stats_add(stat == DP_STAT_TX ? &s->tx_bytes : &s->rx_bytes, len);
	u64_stats_update_end(&s->syncp);
	put_cpu_ptr(dp->stats);
}

/* netdev.c */
void dp_setup(struct net_device *dev);
extern const char dp_stat_names[DP_STAT_MAX][ETH_GSTRING_LEN];
/* Counter names of @dp in ethtool -S order: dp_stat_names, then route_*. */
int dp_stat_count(const struct dp_priv *dp);
void dp_stat_name(const struct dp_priv *dp, int i, char *buf);
void dp_stats_sum(const struct dp_priv *dp, u64 *cnt, u64 *route,
		  u64 *rx_bytes, u64 *tx_bytes);

/* rtnl.c */
extern struct rtnl_link_ops dp_link_ops;

/*
 * The two port lookups of the data path, inline: every layer uses them
 * (routing, sending, Hellos, probes, discovery), and a call into port.c
 * for each would tie those files to the one that binds and releases
 * ports (scripts/callgraph.py).
 */

/*
 * Whether @port's lower device is running with a carrier: netif_running()
 * and netif_carrier_ok(), both bits of one read of dev->state (the
 * compiler left netif_carrier_ok() a call on the route memo's hit path).
 */
static inline bool dp_port_up(const struct dp_port *port)
{
	unsigned long state = READ_ONCE(port->dev->state);

	return (state & (BIT(__LINK_STATE_START) |
			 BIT(__LINK_STATE_NOCARRIER))) ==
	       BIT(__LINK_STATE_START);
}

/* Port @index of @dp, NULL when none is bound.  Under rcu_read_lock. */
static inline struct dp_port *dp_port_rcu(const struct dp_priv *dp, u32 index)
{
	return rcu_dereference(dp->ports[index]);
}

/* port.c */
int dp_port_add(struct dp_priv *dp, struct net_device *lower, u32 index,
		struct netlink_ext_ack *extack);
int dp_add_slave(struct net_device *dev, struct net_device *lower,
		 struct netlink_ext_ack *extack);
int dp_del_slave(struct net_device *dev, struct net_device *lower);
int dp_ports_check(struct dp_priv *dp, struct net_device **lower,
		   struct nlattr **attr, struct netlink_ext_ack *extack);
int dp_ports_attach(struct dp_priv *dp, struct net_device **lower,
		    struct netlink_ext_ack *extack);
void dp_port_del(struct dp_port *port);
struct dp_port *dp_port_get_rtnl(const struct net_device *dev);
enum dpillar_port_state dp_port_state(const struct dp_port *port);
void dp_port_snapshot(const struct dp_priv *dp, u32 index,
		      struct dp_port_snap *snap);
void dp_port_ntf(struct dp_priv *dp, u32 index,
		 const struct net_device *lower, enum dpillar_port_state state);
void dp_update_carrier(struct dp_priv *dp);
void dp_update_mtu(struct dp_priv *dp);
int dp_netdev_event(struct notifier_block *nb, unsigned long event,
		    void *ptr);

/* neigh.c */
/* A sender last heard at @heard, if ever (@mac != 0), is still alive. */
static inline bool dp_heard_alive(const struct dp_priv *dp, u64 mac,
				  unsigned long heard, unsigned long now)
{
	return mac && time_before(now, heard + READ_ONCE(dp->dead_jiffies));
}

static inline bool dp_neigh_alive(const struct dp_priv *dp,
				  const struct dp_neigh *nb)
{
	return dp_heard_alive(dp, atomic64_read(&nb->mac),
			      READ_ONCE(nb->last_heard), jiffies);
}

/*
 * The node id of neighbour slot @idx of @port: the topology's, or where
 * the peers are learned (t->learn_peers) the one its Hellos named;
 * DP_NODE_NONE when none was ever heard there.  Lock-free: a slot taken
 * over by a new node sets @mac to 0 first (dp_neigh_claim()).
 */
static inline u32 dp_neigh_node(const struct dp_priv *dp,
				const struct dp_port *port, u32 idx)
{
	const struct dp_neigh *nb = &port->neigh[idx];

	if (!dp->topo.learn_peers)
		return dp_port_neigh(&dp->topo, dp->self, port->index, idx);
	return atomic64_read(&nb->mac) ? READ_ONCE(nb->node) : DP_NODE_NONE;
}

/*
 * The entry of @peer in the table of @self's port @port_idx, NULL when no
 * such port is bound or @peer is not on it (where the peers are learned:
 * not the node its slot last heard); *@port gets the port (or NULL).
 * Under rcu_read_lock.  Plain inline: forcing it (__always_inline, until
 * 2026-11-29) changed a relay hop by less than the instrument's spread
 * between boots (dpillar-evaluation.rst, "What the route memo and
 * __always_inline pay").
 */
static inline struct dp_neigh *
dp_neigh_find(const struct dp_priv *dp, u32 self, u32 port_idx, u32 peer,
	      struct dp_port **port)
{
	int idx;

	*port = port_idx < dp->nports ?
		rcu_dereference(dp->ports[port_idx]) : NULL;
	if (!*port)
		return NULL;
	idx = dp_port_neigh_index(&dp->topo, self, port_idx, peer);
	if (idx < 0 || (u32)idx >= (*port)->nneigh)
		return NULL;
	if (dp->topo.learn_peers && dp_neigh_node(dp, *port, idx) != peer)
		return NULL;
	return &(*port)->neigh[idx];
}

/*
 * The view's two answers about a neighbour slot (@nb on @port, NULL for
 * none): reachable (dp_reachable()), and the ports_up it reported
 * (dp_view_ports_up(): known or not, *@up 0 when not).  One place for
 * both because the route memo (dp_rmemo_take()) reads them again and
 * compares: it is exact only while it reads what the decision read.
 * Forced inline, as dp_port_up(): on the memo's hit path, where the
 * compiler left them calls.
 */
static inline bool dp_neigh_reach(const struct dp_priv *dp,
				  const struct dp_port *port,
				  const struct dp_neigh *nb)
{
	return nb && dp_port_up(port) && dp_neigh_alive(dp, nb);
}

static inline bool dp_neigh_up(const struct dp_neigh *nb, u32 *up)
{
	bool known = nb && test_bit(DP_NEIGH_HAS_PORTS_UP, &nb->flags);

	*up = known ? READ_ONCE(nb->ports_up) : 0;
	return known;
}

/*
 * Something a multi entry of the route memo (struct dp_rmemo) relies on
 * has changed: a neighbour slot's node, MAC or what its Hello said, a
 * port bound or released, the dead interval.  After the change: a
 * decision that read the old state read the old generation before it.
 */
static inline void dp_rmemo_neigh_changed(struct dp_priv *dp)
{
	smp_mb__before_atomic();	/* the change, then the generation */
	atomic_inc(&dp->rmemo_ngen);
}

/* Remember in @m the slot found for (@self, @port_idx, @peer). */
static inline void dp_view_memo_slot(struct dp_view_memo *m, u32 self,
				     u32 port_idx, u32 peer,
				     struct dp_port *port, struct dp_neigh *nb)
{
	m->self = self;
	m->port = port_idx;
	m->peer = peer;
	m->p = port;
	m->nb = nb;
	m->valid = true;
}

/* The device a view callback's @ctx (a struct dp_vctx) stands for. */
static inline struct dp_priv *dp_vctx_dev(const void *ctx)
{
	return ((const struct dp_vctx *)ctx)->dp;
}

/*
 * dp_neigh_find() through a view's context: the memo's slot when it is
 * the one asked for, else looked up (and remembered, on a packet's view).
 */
static inline struct dp_neigh *dp_vctx_find(const struct dp_vctx *c,
					    u32 self, u32 port_idx, u32 peer,
					    struct dp_port **port)
{
	struct dp_view_memo *m = c->memo;
	struct dp_neigh *nb;

	if (m && m->valid && m->self == self && m->port == port_idx &&
	    m->peer == peer) {
		*port = m->p;
		return m->nb;
	}
	nb = dp_neigh_find(c->dp, self, port_idx, peer, port);
	if (m) {
		/* Saturates: a DPillar (256, k) walks up to 258 candidates. */
		if (m->lookups < U8_MAX)
			m->lookups++;
		dp_view_memo_slot(m, self, port_idx, peer, *port, nb);
	}
	return nb;
}

/*
 * The answers the view gives (view.c), noted on a packet's view for the
 * route memo; dp_vctx_other() for any question but these two.
 */
static inline void dp_vctx_note_reach(const struct dp_vctx *c, bool reach)
{
	struct dp_view_memo *m = c->memo;

	if (!m)
		return;
	if ((m->asked & DP_ASKED_REACH) && m->reach != reach)
		m->mixed = true;
	m->asked |= DP_ASKED_REACH;
	m->reach = reach;
}

static inline void dp_vctx_note_up(const struct dp_vctx *c, bool known,
				   u32 up)
{
	struct dp_view_memo *m = c->memo;

	if (!m)
		return;
	if ((m->asked & DP_ASKED_UP) &&
	    (m->up_known != known || m->up != up))
		m->mixed = true;
	m->asked |= DP_ASKED_UP;
	m->up_known = known;
	m->up = up;
}

static inline void dp_vctx_other(const void *ctx)
{
	const struct dp_vctx *c = ctx;

	if (c->memo)
		c->memo->other = true;
}

/* A question no entry of the route memo checks again (a shortcut's). */
static inline void dp_vctx_uncached(const void *ctx)
{
	const struct dp_vctx *c = ctx;

	if (c->memo) {
		c->memo->other = true;
		c->memo->uncached = true;
	}
}

/* @m's first jiffy of change: @t, if before what it had. */
static inline void dp_view_memo_expires(struct dp_view_memo *m,
					unsigned long t)
{
	if (!m->has_exp || time_before(t, m->expires)) {
		m->expires = t;
		m->has_exp = true;
	}
}

/*
 * dp_neigh_reach() of @nb on our port @port_idx (@port), as every view
 * question asks it, noted on a packet's view for a multi entry of the
 * route memo: the port and whether it was up, and when the answer may
 * change by time alone.  Alive: when it is unheard for the dead
 * interval.  Heard once and dead: when jiffies wrap round to make it
 * look alive (time_before()), at most a quarter of the range ahead, so
 * that every time noted lies within half of it.  Without a MAC only an
 * event makes it alive (dp_rmemo_neigh_changed()).
 */
static inline bool dp_vctx_reach(const struct dp_vctx *c, u32 port_idx,
				 const struct dp_port *port,
				 const struct dp_neigh *nb)
{
	struct dp_view_memo *m = c->memo;
	unsigned long now, end, heard;
	bool up, alive;
	u64 mac;

	if (!nb)
		return false;
	up = dp_port_up(port);
	if (m && port_idx < BITS_PER_TYPE(m->ports)) {
		if ((m->ports & BIT(port_idx)) &&
		    !!(m->ports_up & BIT(port_idx)) != up)
			m->port_mixed = true;
		m->ports |= BIT(port_idx);
		if (up)
			m->ports_up |= BIT(port_idx);
	} else if (m) {
		m->port_mixed = true;
	}
	if (!up)
		return false;
	now = jiffies;
	smp_rmb();	/* the time first: see dp_neigh_set()'s last check */
	mac = atomic64_read(&nb->mac);
	heard = READ_ONCE(nb->last_heard);
	end = heard + READ_ONCE(c->dp->dead_jiffies);
	alive = mac && time_before(now, end);	/* dp_heard_alive() */
	if (m && mac) {
		if (!alive)
			end = now + min(end + (ULONG_MAX >> 1) + 1 - now,
					ULONG_MAX >> 2);
		dp_view_memo_expires(m, end);
	}
	return alive;
}

/*
 * The MAC address @peer was last heard from on our port @port_idx, 0 when
 * never (or no such port); *@port gets the port.  Under rcu_read_lock.
 */
static inline u64 dp_neigh_mac(const struct dp_priv *dp, u32 port_idx,
			       u32 peer, struct dp_port **port)
{
	const struct dp_neigh *nb = dp_neigh_find(dp, dp->self, port_idx,
						  peer, port);

	return nb ? atomic64_read(&nb->mac) : 0;
}

u32 dp_port_reachable(const struct dp_priv *dp, const struct dp_port *port);
void dp_port_miswired_init(struct dp_port *port);
bool dp_port_miswired_get(const struct dp_priv *dp, struct dp_port *port,
			  struct dp_miswired *mis);
int dp_neigh_snapshot(const struct dp_priv *dp, struct dp_port *port,
		      u32 idx, struct dp_neigh_snap *snap);
void dp_neigh_snapshot_miswired(const struct dp_port *port,
				const struct dp_miswired *mis,
				struct dp_neigh_snap *snap);
bool dp_peer_on_switch(const struct dp_priv *dp, u32 port, u32 peer,
		       u32 peer_port);
void dp_neigh_scan(struct dp_priv *dp, struct dp_port *port);
bool dp_neigh_claim(struct dp_priv *dp, struct dp_port *port, u32 idx,
		    u32 src, u64 mac);
void dp_neigh_miswired(struct dp_priv *dp, struct dp_port *port, u32 src,
		       u8 sport, u64 mac);
struct dp_hello_info;
void dp_neigh_heard(struct dp_priv *dp, struct dp_port *port, u32 idx,
		    u32 src, u64 mac, u8 sport, const struct dp_hello_info *hi);

/* view.c */
/* The view's reachable (@ctx: a struct dp_vctx, never the device). */
bool dp_reachable(const void *ctx, u32 self, u32 port, u32 peer);

/* dp_reachable() for the module's own callers, which hold the device. */
static inline bool dp_neigh_reachable(const struct dp_priv *dp, u32 self,
				      u32 port, u32 peer)
{
	return dp_reachable(&dp->vctx, self, port, peer);
}

void dp_view_init(struct dp_priv *dp);

/* hello.c */
extern const u8 dp_hello_mac[ETH_ALEN];
void dp_hello_work(struct work_struct *work);
enum dp_stat dp_hello_rcv(struct dp_priv *dp, struct dp_port *port,
			  struct sk_buff *skb);
#if IS_ENABLED(CONFIG_KUNIT)
/*
 * The coordinate TLVs (struct dp_topo_coords_ext.hello) appended to @skb,
 * for the KUnit tests; @dp's topology must have the extension.
 */
u32 dp_hello_put_coords(struct dp_priv *dp, struct sk_buff *skb);
#endif

/* tx.c */
bool dp_ip4_to_node(const struct dp_priv *dp, __be32 daddr, u32 *node);
bool dp_ip6_to_node(const struct dp_priv *dp, const struct in6_addr *daddr,
		    u32 *node);
netdev_tx_t dp_xmit(struct sk_buff *skb, struct net_device *dev);

/* rx.c */
rx_handler_result_t dp_handle_frame(struct sk_buff **pskb);

/* gso.c */
void dp_gso_register(void);
void dp_gso_unregister(void);
#if IS_ENABLED(CONFIG_KUNIT) && defined(CONFIG_RPS)
/*
 * The receive hash GRO gives a data frame for RPS, from its inner flow
 * (@proto at @nhoff from skb->data), for the KUnit tests.
 */
void dp_gro_hash(struct sk_buff *skb, __be16 proto, int nhoff);
#endif

/* genl.c */
int dp_genl_register(void);
void dp_genl_unregister(void);
/* notify.c */
bool dp_notify_listened(const struct dp_priv *dp);
void dp_notify_neigh(struct dp_priv *dp, const struct dp_neigh_snap *n,
		     gfp_t gfp);
void dp_notify_port(struct dp_priv *dp, u32 index,
		    const struct dp_port_snap *snap);

#endif /* _DPILLAR_H */
