// SPDX-License-Identifier: GPL-2.0
/*
 * Hello protocol and neighbour tables.
 *
 * Every port sends a Hello on its switch segment or cable every hello
 * interval.  The topology says how many nodes share what the port plugs
 * into (struct dp_port_info), so each port's table is an array indexed
 * arithmetically (dp_port_neigh_index()), sized by the port and not by the
 * fabric.  A Hello from a node that cannot be on that switch or cable is a
 * cabling error: counted and ignored.
 *
 * A Hello carries TLVs after its fixed part (struct dpillar_tlv): today
 * the sender's ports that are up, which the routing view offers to
 * topologies that route on their neighbours' link state.  A neighbour not heard
 * for the dead interval, or behind a port without carrier, is unreachable;
 * routing asks dp_reachable() and so sees a failure at once.
 *
 * Where the cabling cannot be derived (t->learn_peers: S2 plan mode) each
 * port is a cable with one slot, and the slot's node id is learned: the
 * first valid sender heard takes it and keeps it while alive, another
 * one meanwhile is miswired; a dead interval later a new one may take it.
 * S2 plan-mode Hellos also carry the coordinates no node can derive: the
 * sender's, and those of the neighbours it lists (TLV 4).
 */

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/pkt_sched.h>
#include <linux/skbuff.h>

#include "dpillar.h"

/* Every port joins this group while bound (dp_port_add()). */
const u8 dp_hello_mac[ETH_ALEN] __aligned(2) = DPILLAR_HELLO_MAC;

/* The routing core's oracle.  Runs under rcu_read_lock (BH). */
bool dp_reachable(const void *ctx, u32 self, u32 port_idx, u32 peer)
{
	const struct dp_priv *dp = ctx;
	const struct dp_neigh *nb;
	struct dp_port *port;

	nb = dp_neigh_find(dp, self, port_idx, peer, &port);
	return nb && dp_port_up(port) && dp_neigh_alive(dp, nb);
}
EXPORT_SYMBOL_IF_KUNIT(dp_reachable);

/* The view's ports_up: what @peer, our neighbour on @port_idx, reported. */
static bool dp_view_ports_up(const void *ctx, u32 self, u32 port_idx,
			     u32 peer, u32 *mask)
{
	const struct dp_priv *dp = ctx;
	const struct dp_neigh *nb;
	struct dp_port *port;

	nb = dp_neigh_find(dp, self, port_idx, peer, &port);
	if (!nb || !test_bit(DP_NEIGH_HAS_PORTS_UP, &nb->flags))
		return false;
	*mask = READ_ONCE(nb->ports_up);
	return true;
}

/*
 * The view's peer_neighs: the ids @peer, our live neighbour on @port_idx,
 * listed in its last Hello (none once it is silent).
 */
static u32 dp_view_peer_neighs(const void *ctx, u32 self, u32 port_idx,
			       u32 peer, u32 *ids, u32 max)
{
	const struct dp_priv *dp = ctx;
	const struct dp_neigh *nb;
	struct dp_port *port;
	u32 i, n;

	nb = dp_neigh_find(dp, self, port_idx, peer, &port);
	if (!nb || !dp_port_up(port) || !dp_neigh_alive(dp, nb))
		return 0;
	n = min_t(u32, READ_ONCE(nb->nneighs), DPILLAR_TLV_NEIGHS_MAX);
	n = min(n, max);
	for (i = 0; i < n; i++)
		ids[i] = READ_ONCE(nb->neighs[i]);
	return n;
}

/* Up to @max of the @n coordinates at @src into @x, as one read each. */
static u32 dp_coords_copy(u32 *x, const u32 *src, u32 n, u32 max)
{
	u32 i;

	n = min(n, max);
	for (i = 0; i < n; i++)
		x[i] = READ_ONCE(src[i]);
	return n;
}

/*
 * The live neighbour @node on our port @port_idx whose coordinates its
 * Hellos gave (S2 plan mode: only neigh[0] has them), NULL if none.
 */
static const struct dp_neigh_coords *
dp_view_coords_of(const struct dp_priv *dp, u32 self, u32 port_idx, u32 node)
{
	const struct dp_neigh *nb;
	struct dp_port *port;

	nb = dp_neigh_find(dp, self, port_idx, node, &port);
	if (!nb || nb != &port->neigh[0] || !dp_port_up(port) ||
	    !dp_neigh_alive(dp, nb))
		return NULL;
	return &port->coords;
}

/*
 * The view's coords: ours when @node is @self, else those of @node, our
 * live neighbour on @port_idx, as its last Hello gave them.
 */
static u32 dp_view_coords(const void *ctx, u32 self, u32 port_idx, u32 node,
			  u32 *x, u32 max)
{
	const struct dp_priv *dp = ctx;
	const struct dp_neigh_coords *nc;

	if (node == self)
		return dp_coords_copy(x, dp->topo.p.coords,
				      dp->topo.p.ncoords, max);
	nc = dp_view_coords_of(dp, self, port_idx, node);
	if (!nc)
		return 0;
	return dp_coords_copy(x, nc->x, READ_ONCE(nc->ncoords), max);
}

/*
 * The view's peer_neigh_coords: those of entry @idx of the list
 * dp_view_peer_neighs() gives for @peer (its DPILLAR_TLV_NEIGH_COORDS).
 */
static u32 dp_view_peer_neigh_coords(const void *ctx, u32 self, u32 port_idx,
				     u32 peer, u32 idx, u32 *x, u32 max)
{
	const struct dp_priv *dp = ctx;
	const struct dp_neigh_coords *nc;

	nc = dp_view_coords_of(dp, self, port_idx, peer);
	if (!nc || idx >= min_t(u32, READ_ONCE(nc->nneighs),
				DPILLAR_TLV_NEIGHS_MAX))
		return 0;
	return dp_coords_copy(x, nc->neighs[idx], READ_ONCE(nc->ncoords),
			      max);
}

/*
 * The view's cable_peer: the node heard on the cable of our port
 * @port_idx, if it is alive (the topology's peer, where it is derived).
 */
static u32 dp_view_cable_peer(const void *ctx, u32 self, u32 port_idx)
{
	const struct dp_priv *dp = ctx;
	struct dp_port *port = dp_port_rcu(dp, port_idx);
	struct dp_port_info pi;
	u32 peer;

	if (!port || port->nneigh != 1 || self != dp->self)
		return DP_NODE_NONE;
	/* Learned peers: every port is a cable (S2 plan mode). */
	if (!dp->topo.learn_peers) {
		dp_port_info(&dp->topo, self, port_idx, &pi);
		if (pi.kind != DP_PORT_CABLE)
			return DP_NODE_NONE;
	}
	peer = dp_neigh_node(dp, port, 0);
	if (peer == DP_NODE_NONE || !dp_port_up(port) ||
	    !dp_neigh_alive(dp, &port->neigh[0]))
		return DP_NODE_NONE;
	return peer;
}

/* What routing may know of the fabric around us (struct dp_view). */
void dp_view_init(struct dp_priv *dp)
{
	dp->view.reachable = dp_reachable;
	dp->view.cable_peer = dp_view_cable_peer;
	dp->view.ports_up = dp_view_ports_up;
	dp->view.peer_neighs = dp_view_peer_neighs;
	dp->view.shortcut = dp_sc_lookup;
	dp->view.coords = dp_view_coords;
	dp->view.peer_neigh_coords = dp_view_peer_neigh_coords;
	dp->view.ctx = dp;
}

/* Neighbours of @port reachable now. */
u32 dp_port_reachable(const struct dp_priv *dp, const struct dp_port *port)
{
	u32 i, n = 0;

	if (!dp_port_up(port))
		return 0;
	for (i = 0; i < port->nneigh; i++)
		n += dp_neigh_alive(dp, &port->neigh[i]);
	return n;
}

/* The locks of a new port's Hello state (miswired record, slot claims). */
void dp_port_miswired_init(struct dp_port *port)
{
	spin_lock_init(&port->miswired_lock);
	spin_lock_init(&port->learn_lock);
}
EXPORT_SYMBOL_IF_KUNIT(dp_port_miswired_init);

/*
 * Copy the last miswired sender of @port into @mis; false when there is
 * none heard within the dead interval.
 */
bool dp_port_miswired_get(const struct dp_priv *dp, struct dp_port *port,
			  struct dp_miswired *mis)
{
	spin_lock_bh(&port->miswired_lock);
	*mis = port->miswired;
	spin_unlock_bh(&port->miswired_lock);
	return dp_heard_alive(dp, mis->mac, mis->heard, jiffies);
}
EXPORT_SYMBOL_IF_KUNIT(dp_port_miswired_get);

/*
 * Neighbour @idx of @port as it stands now; false for a learned slot
 * (t->learn_peers) that has heard nobody yet: no node to report.
 */
static bool dp_neigh_snapshot_slot(const struct dp_priv *dp,
				   const struct dp_port *port, u32 idx,
				   struct dp_neigh_snap *snap)
{
	const struct dp_neigh *nb = &port->neigh[idx];

	snap->port = port->index;
	snap->node = dp_neigh_node(dp, port, idx);
	if (dp->topo.learn_peers && snap->node == DP_NODE_NONE)
		return false;
	snap->mac = atomic64_read(&nb->mac);
	snap->heard = READ_ONCE(nb->last_heard);
	snap->state = dp_port_up(port) && dp_neigh_alive(dp, nb) ?
		      DPILLAR_NEIGH_STATE_REACHABLE :
		      DPILLAR_NEIGH_STATE_UNREACHABLE;
	if (!snap->mac)
		snap->peer_port = -1;
	else if (dp->topo.learn_peers)	/* what its Hellos said */
		snap->peer_port = READ_ONCE(nb->peer_port);
	else
		snap->peer_port = dp_peer_port(&dp->topo, dp->self,
					       port->index, snap->node);
	snap->miswired_count = 0;
	snap->rejected_mac = 0;
	return true;
}

/* The miswired sender @mis heard on @port, as an entry of its table. */
void dp_neigh_snapshot_miswired(const struct dp_port *port,
				const struct dp_miswired *mis,
				struct dp_neigh_snap *snap)
{
	snap->port = port->index;
	snap->node = mis->node;
	snap->mac = mis->mac;
	snap->heard = mis->heard;
	snap->state = DPILLAR_NEIGH_STATE_MISWIRED;
	snap->peer_port = mis->sport;
	snap->miswired_count = mis->count;
	snap->rejected_mac = 0;
}

/*
 * Entry @idx of @port's neighbour table as genetlink reports it: the
 * neighbours in table order, then the port's miswired sender.  0 with
 * @snap filled; -ENODATA when the entry has nothing to report (a learned
 * slot that heard nobody yet, no miswired sender heard within the dead
 * interval); -ENOENT past the last entry.
 * Under rcu_read_lock.
 */
int dp_neigh_snapshot(const struct dp_priv *dp, struct dp_port *port,
		      u32 idx, struct dp_neigh_snap *snap)
{
	struct dp_miswired mis;

	if (idx < port->nneigh)
		return dp_neigh_snapshot_slot(dp, port, idx, snap) ? 0 :
								    -ENODATA;
	if (idx > port->nneigh)
		return -ENOENT;
	if (!dp_port_miswired_get(dp, port, &mis))
		return -ENODATA;
	dp_neigh_snapshot_miswired(port, &mis, snap);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(dp_neigh_snapshot);

/*
 * At most once per dead interval, per @last (a port's timestamp, 0:
 * never): true when the caller may raise its event now, and @last is
 * set.  Lock-free; of two CPUs racing, one wins.
 */
static bool dp_port_ratelimit(const struct dp_priv *dp, unsigned long *last)
{
	unsigned long now = jiffies ?: 1, prev = READ_ONCE(*last);

	if (prev && time_before(now, prev + READ_ONCE(dp->dead_jiffies)))
		return false;
	return cmpxchg(last, prev, now) == prev;
}

/*
 * Record a miswired Hello: the most recent one stays on record, with the
 * count of those heard since the port last had none for the dead
 * interval, so that a real cabling error is never hidden behind an
 * earlier sender.  True when the caller may raise an event and bump the
 * dump generation: at most once per dead interval and port, however many
 * senders (or forged source MACs) there are.
 */
static bool dp_port_miswired_set(const struct dp_priv *dp,
				 struct dp_port *port, u32 src, u8 sport,
				 u64 mac, struct dp_miswired *mis)
{
	struct dp_miswired *m = &port->miswired;
	unsigned long now = jiffies;
	bool news;

	spin_lock(&port->miswired_lock);
	if (!dp_heard_alive(dp, m->mac, m->heard, now))
		m->count = 0;
	if (m->count < U32_MAX)
		m->count++;
	m->mac = mac;
	m->node = src;
	m->sport = sport;
	m->heard = now;
	news = !m->ntf_valid ||
	       !time_before(now, m->ntf + READ_ONCE(dp->dead_jiffies));
	if (news) {
		m->ntf = now;
		m->ntf_valid = true;
	}
	*mis = *m;
	spin_unlock(&port->miswired_lock);
	return news;
}

/*
 * Report the neighbours of @port that were reachable and are no longer:
 * silent for the dead interval, or the port lost its carrier.  Runs every
 * Hello interval, BH off, under rcu_read_lock.
 */
static void dp_neigh_scan(struct dp_priv *dp, struct dp_port *port)
{
	bool up = dp_port_up(port);
	u32 i;

	for (i = 0; i < port->nneigh; i++) {
		struct dp_neigh *nb = &port->neigh[i];

		if (!test_bit(DP_NEIGH_REPORTED, &nb->flags) ||
		    (up && dp_neigh_alive(dp, nb)))
			continue;
		if (test_and_clear_bit(DP_NEIGH_REPORTED, &nb->flags)) {
			atomic_inc(&dp->gen);
			dp_genl_neigh_ntf(dp, port, i, false, GFP_ATOMIC);
		}
	}
}

/*
 * Bit p set: our port p works: it is bound and up, and some neighbour is
 * heard on it.  A port whose switch is down keeps its carrier but reaches
 * nobody; our neighbours' routing must not count on it.
 */
static u32 dp_ports_up(const struct dp_priv *dp)
{
	u32 i, mask = 0;

	for (i = 0; i < dp->nports; i++) {
		const struct dp_port *port = rcu_dereference(dp->ports[i]);

		if (port && dp_port_reachable(dp, port))
			mask |= BIT(i);
	}
	return mask;
}

/* Append one TLV with a __be32 value. */
static void dp_hello_put_be32(struct sk_buff *skb, u16 type, u32 val)
{
	struct dpillar_tlv *tlv = skb_put(skb, sizeof(*tlv));
	__be32 v = htonl(val);

	tlv->type = htons(type);
	tlv->len = htons(sizeof(v));
	skb_put_data(skb, &v, sizeof(v));
}

#define DP_HELLO_TLV_LEN	(sizeof(struct dpillar_tlv) + sizeof(__be32))
/*
 * The most the coordinate TLVs add (struct dp_topo_ops.hello_coords):
 * coordinates, neighbour list and (plan mode) the neighbours' coordinates.
 */
#define DP_HELLO_COORDS_LEN		(3 * sizeof(struct dpillar_tlv) +	\
				 sizeof(__be32) * (DPILLAR_TLV_COORDS_MAX + \
						   DPILLAR_TLV_NEIGHS_MAX + \
						   DPILLAR_TLV_NEIGHS_MAX * \
						   DPILLAR_TLV_COORDS_MAX))
static_assert(DP_HELLO_TLV_LEN + DP_HELLO_COORDS_LEN <= DPILLAR_HELLO_TLV_MAX);
static_assert(DP_COORDS_MAX <= DPILLAR_TLV_COORDS_MAX);
static_assert(DP_MAX_PORTS <= DPILLAR_TLV_NEIGHS_MAX);

/* Append @n u32s as __be32, one read each (a neighbour's may change). */
static void dp_hello_put_u32s(struct sk_buff *skb, const u32 *x, u32 n)
{
	__be32 *v = skb_put(skb, n * sizeof(*v));
	u32 i;

	for (i = 0; i < n; i++)
		v[i] = htonl(READ_ONCE(x[i]));
}

/*
 * The neighbour on port @i to list in our Hello: a live one at the other
 * end of a cable, and in plan mode one whose coordinates we have (so that
 * TLV 4 has them all).
 */
static u32 dp_hello_cable_neigh(const struct dp_priv *dp, u32 i,
				const struct dp_port **pp)
{
	const struct dp_port *port = rcu_dereference(dp->ports[i]);

	if (!port || port->nneigh != 1 || !dp_port_reachable(dp, port))
		return DP_NODE_NONE;
	if (dp_topo_plan_mode(&dp->topo) &&
	    READ_ONCE(port->coords.ncoords) != dp->topo.p.ncoords)
		return DP_NODE_NONE;
	*pp = port;
	return dp_neigh_node(dp, port, 0);
}

/*
 * The TLVs of a topology that routes on coordinates (struct
 * dp_topo_ops.hello_coords): ours (derived ones, which a receiver checks,
 * or in plan mode the plan's) and the neighbours we hear now, in port
 * order: the receiver's 2-hop neighbours; in plan mode also their
 * coordinates, which the receiver cannot derive
 * (DPILLAR_TLV_NEIGH_COORDS, in the same order).  Bounded by the port
 * count, never by the fabric.  Returns the bytes added.
 */
VISIBLE_IF_KUNIT u32 dp_hello_put_coords(struct dp_priv *dp,
					 struct sk_buff *skb)
{
	const struct dp_port *lport[DPILLAR_TLV_NEIGHS_MAX];
	const struct dp_topo *t = &dp->topo;
	bool plan = dp_topo_plan_mode(t);
	u32 ids[DPILLAR_TLV_NEIGHS_MAX];
	u32 x[DP_COORDS_MAX];
	struct dpillar_tlv *tlv;
	u32 start = skb->len;
	u32 i, n = 0, nc;
	__be32 v;

	nc = t->ops->hello_coords(t, dp->self, x, DP_COORDS_MAX);
	tlv = skb_put(skb, sizeof(*tlv));
	tlv->type = htons(DPILLAR_TLV_COORDS);
	tlv->len = htons(nc * sizeof(v));
	dp_hello_put_u32s(skb, x, nc);
	for (i = 0; i < dp->nports && n < DPILLAR_TLV_NEIGHS_MAX; i++) {
		ids[n] = dp_hello_cable_neigh(dp, i, &lport[n]);
		if (ids[n] != DP_NODE_NONE)
			n++;
	}
	tlv = skb_put(skb, sizeof(*tlv));
	tlv->type = htons(DPILLAR_TLV_NEIGHS);
	tlv->len = htons(n * sizeof(v));
	dp_hello_put_u32s(skb, ids, n);
	if (plan) {
		tlv = skb_put(skb, sizeof(*tlv));
		tlv->type = htons(DPILLAR_TLV_NEIGH_COORDS);
		tlv->len = htons(n * nc * sizeof(v));
		for (i = 0; i < n; i++)
			dp_hello_put_u32s(skb, lport[i]->coords.x, nc);
	}
	return skb->len - start;
}
EXPORT_SYMBOL_IF_KUNIT(dp_hello_put_coords);

static void dp_hello_send(struct dp_priv *dp, struct dp_port *port)
{
	struct net_device *dev = port->dev;
	struct dpillar_hello *hello;
	struct dpillar_hdr *h;
	struct sk_buff *skb;
	u32 tlv_len;

	skb = alloc_skb(LL_RESERVED_SPACE(dev) + DP_HDR_LEN + sizeof(*hello) +
			DP_HELLO_TLV_LEN + DP_HELLO_COORDS_LEN, GFP_ATOMIC);
	if (!skb)
		return;
	/* Room for both headers in front of the Hello. */
	skb_reserve(skb, LL_RESERVED_SPACE(dev) + DP_HDR_LEN);

	hello = skb_put_zero(skb, sizeof(*hello));
	hello->port = port->index;
	tlv_len = DP_HELLO_TLV_LEN;
	hello->interval_ms = htonl(READ_ONCE(dp->hello_ms));
	dp_hello_put_be32(skb, DPILLAR_TLV_PORTS_UP, dp_ports_up(dp));
	if (dp->topo.ops->hello_coords)
		tlv_len += dp_hello_put_coords(dp, skb);
	hello->tlv_len = htons(tlv_len);

	h = skb_push(skb, DP_HDR_LEN);
	memset(h, 0, DP_HDR_LEN);
	h->version = DPILLAR_VERSION;
	h->type = DPILLAR_T_HELLO;
	h->ttl = 1;
	h->src = htonl(dp->self);
	h->dst = htonl(DPILLAR_NODE_NONE);
	h->waypoint = htonl(DPILLAR_NODE_NONE);
	skb_reset_network_header(skb);

	skb->dev = dev;
	skb->protocol = htons(DPILLAR_ETHERTYPE);
	skb->priority = TC_PRIO_CONTROL;
	if (dev_hard_header(skb, dev, DPILLAR_ETHERTYPE, dp_hello_mac,
			    dev->dev_addr, skb->len) < 0) {
		kfree_skb(skb);
		return;
	}
	dev_queue_xmit(skb);
	dp_count(dp, DP_STAT_HELLO_TX);
}

void dp_hello_work(struct work_struct *work)
{
	struct dp_priv *dp = container_of(to_delayed_work(work),
					  struct dp_priv, hello_work);
	u32 i;

	/*
	 * BH off: the per-CPU counters are also written from the receive
	 * softirq, and u64_stats writers must not nest on 32-bit.
	 */
	local_bh_disable();
	rcu_read_lock();
	for (i = 0; i < dp->nports; i++) {
		struct dp_port *port = rcu_dereference(dp->ports[i]);

		if (!port)
			continue;
		/* Unconfigured: no address to announce yet. */
		if (dp_configured(dp) && dp_port_up(port))
			dp_hello_send(dp, port);
		dp_neigh_scan(dp, port);
	}
	rcu_read_unlock();
	local_bh_enable();
	/* ndo_stop cancels this work before the device can go away. */
	queue_delayed_work(system_power_efficient_wq, &dp->hello_work,
			   msecs_to_jiffies(READ_ONCE(dp->hello_ms)));
}

/*
 * Is @peer's port @peer_port on the switch or cable our port @port plugs
 * into (a Hello's sender, or a neighbour's cable)?  The ports must agree,
 * not just the neighbour lists: in a DPillar k = 2 fabric two servers can
 * share both of their switches.  Where the peers are learned
 * (t->learn_peers) nothing says which port of the peer a cable reaches:
 * any port it can have.
 */
bool dp_peer_on_switch(const struct dp_priv *dp, u32 port, u32 peer,
		       u32 peer_port)
{
	int pp;

	if (dp->topo.learn_peers)
		return peer_port < dp->topo.nports;
	pp = dp_peer_port(&dp->topo, dp->self, port, peer);
	return pp >= 0 && (u32)pp == peer_port;
}

/* A live neighbour's MAC address kept against a Hello from another one. */
static void dp_hello_mac_change_warn(const struct dp_priv *dp,
				     const struct dp_port *port, u32 src,
				     u64 old, u64 mac)
{
	char addr[DP_ADDR_TEXT_MAX];
	u8 o[ETH_ALEN], n[ETH_ALEN];

	dp_addr_format(&dp->topo, src, addr, sizeof(addr));
	u64_to_ether_addr(old, o);
	u64_to_ether_addr(mac, n);
	netdev_warn(dp->dev, "port %u (%s): Hello from %s with MAC %pM while %pM is alive: ignored\n",
		    port->index, port->dev->name, addr, n, o);
}

/*
 * Whether the coordinates of @src's Hello fit ours (struct
 * dp_topo_ops.hello_coords_ok; TLV 4's were checked by the parser against
 * the list and their count).  Topologies without coordinates ignore the
 * TLVs.
 */
static bool dp_hello_coords_ok(const struct dp_priv *dp, u32 src,
			       const struct dp_hello_info *hi)
{
	const struct dp_topo *t = &dp->topo;

	return !t->ops->hello_coords_ok ||
	       t->ops->hello_coords_ok(t, src, hi->coords, hi->ncoords);
}

static void dp_neigh_set_neighs(struct dp_neigh *nb,
				const struct dp_hello_info *hi)
{
	u32 i;

	/* Shrink first: a reader never sees a count past the new ids. */
	if (hi->nneighs < READ_ONCE(nb->nneighs))
		WRITE_ONCE(nb->nneighs, hi->nneighs);
	for (i = 0; i < hi->nneighs; i++)
		WRITE_ONCE(nb->neighs[i], hi->neighs[i]);
	WRITE_ONCE(nb->nneighs, hi->nneighs);
}

/*
 * S2 plan mode: keep the coordinates of a Hello from the cable neighbour
 * of @port, the sender's own and those of the ids it listed (none known
 * when it sent no TLV 4).  Lock-free like dp_neigh_set_neighs(), counts
 * shrunk first: a torn read mixes two true lists (struct
 * dp_neigh_coords).
 */
static void dp_neigh_set_coords(struct dp_port *port,
				const struct dp_hello_info *hi)
{
	struct dp_neigh_coords *nc = &port->coords;
	u32 i, c, n = hi->neigh_coords ? hi->nneighs : 0;

	if (n < READ_ONCE(nc->nneighs))
		WRITE_ONCE(nc->nneighs, n);
	if (hi->ncoords != READ_ONCE(nc->ncoords))
		WRITE_ONCE(nc->ncoords, 0);
	for (c = 0; c < hi->ncoords; c++)
		WRITE_ONCE(nc->x[c], hi->coords[c]);
	for (i = 0; i < n; i++)
		for (c = 0; c < hi->ncoords; c++)
			WRITE_ONCE(nc->neighs[i][c],
				   dp_hello_neigh_coord(hi, i, c));
	WRITE_ONCE(nc->ncoords, hi->ncoords);
	WRITE_ONCE(nc->nneighs, n);
}

/*
 * Where the peers are learned (t->learn_peers): may @src, heard from
 * @mac, use slot @idx of @port?  Yes when the slot is its own (the MAC
 * rule then applies as anywhere); when it is free or its node is dead,
 * @src takes it over with @mac, and the old node's loss is reported if it
 * had not been yet.  No while another node is alive there: a miswired
 * cable (or a forged Hello), counted by the caller.  A claim is made
 * under the port's learn_lock, so that of two new senders racing for a
 * slot one wins and the other finds it alive.
 */
static bool dp_neigh_claim(struct dp_priv *dp, struct dp_port *port, u32 idx,
			   u32 src, u64 mac)
{
	struct dp_neigh *nb = &port->neigh[idx];
	bool ok;

	if (dp_neigh_node(dp, port, idx) == src)
		return true;
	if (dp_neigh_alive(dp, nb))
		return false;
	/* Dead, and not yet scanned (dp_neigh_scan()): its loss first. */
	if (test_and_clear_bit(DP_NEIGH_REPORTED, &nb->flags)) {
		atomic_inc(&dp->gen);
		dp_genl_neigh_ntf(dp, port, idx, false, GFP_ATOMIC);
	}
	spin_lock(&port->learn_lock);
	ok = !dp_neigh_alive(dp, nb);
	if (ok) {
		/*
		 * No MAC while the id changes, and nothing of the old node
		 * kept.  Readers take no barrier: one that sees the new MAC
		 * with the old id sends a frame over this cable, to the
		 * one host there is at its end, which is where it would go.
		 */
		atomic64_set(&nb->mac, 0);
		smp_wmb();	/* MAC cleared before the id changes */
		WRITE_ONCE(nb->nneighs, 0);
		if (!idx) {
			WRITE_ONCE(port->coords.nneighs, 0);
			WRITE_ONCE(port->coords.ncoords, 0);
		}
		WRITE_ONCE(nb->node, src);
		WRITE_ONCE(nb->last_heard, jiffies);
		smp_wmb();	/* the new id before the MAC that makes it live */
		atomic64_set(&nb->mac, mac);
	} else {
		ok = dp_neigh_node(dp, port, idx) == src;
	}
	spin_unlock(&port->learn_lock);
	return ok;
}

/* A Hello received on @port; skb->data is at the dpillar header. */
void dp_hello_rcv(struct dp_priv *dp, struct dp_port *port, struct sk_buff *skb)
{
	const struct dpillar_hello *hello;
	const struct dpillar_hdr *h;
	struct dp_hello_info hi;
	struct dp_neigh *nb;
	u32 src, tlv_len;
	u64 mac, old;
	int idx;

	/* Hellos go to the group address; a unicast one is not for us. */
	if (skb->pkt_type == PACKET_OTHERHOST) {
		dp_drop(dp, skb, DP_STAT_DROP_OTHERHOST);
		return;
	}
	/*
	 * Nor is one unicast to this server, nor one to any other group:
	 * a neighbour is one every server on the segment hears.
	 */
	if (!ether_addr_equal(eth_hdr(skb)->h_dest, dp_hello_mac)) {
		dp_drop(dp, skb, DP_STAT_HELLO_NOT_GROUP);
		return;
	}
	/* Unconfigured: the fabric has no node yet, the sender included. */
	if (!dp_configured(dp)) {
		dp_drop(dp, skb, DP_STAT_DROP_ADDR);
		return;
	}
	if (!pskb_may_pull(skb, DP_HDR_LEN + sizeof(*hello)))
		goto bad;
	tlv_len = ntohs(((const struct dpillar_hello *)
			 (skb->data + DP_HDR_LEN))->tlv_len);
	if (tlv_len > DPILLAR_HELLO_TLV_MAX ||
	    !pskb_may_pull(skb, DP_HDR_LEN + sizeof(*hello) + tlv_len))
		goto bad;
	h = (const struct dpillar_hdr *)skb->data;
	hello = (const struct dpillar_hello *)(h + 1);
	if (!dp_hello_parse((const u8 *)(hello + 1), tlv_len, &hi))
		goto bad;
	src = ntohl(h->src);
	mac = ether_addr_to_u64(eth_hdr(skb)->h_source);
	if (!dp_addr_valid(&dp->topo, src) || !is_valid_ether_addr(eth_hdr(skb)->h_source))
		goto bad;

	if (!dp_hello_coords_ok(dp, src, &hi))
		goto bad;

	idx = dp_port_neigh_index(&dp->topo, dp->self, port->index, src);
	if (idx < 0 || (u32)idx >= port->nneigh ||
	    !dp_peer_on_switch(dp, port->index, src, hello->port) ||
	    (dp->topo.learn_peers &&
	     !dp_neigh_claim(dp, port, idx, src, mac))) {
		struct dp_miswired mis;
		char addr[DP_ADDR_TEXT_MAX];

		dp_count(dp, DP_STAT_HELLO_MISWIRED);
		if (!dp_port_miswired_set(dp, port, src, hello->port, mac,
					  &mis))
			goto out;
		dp_addr_format(&dp->topo, src, addr, sizeof(addr));
		net_warn_ratelimited("%s: port %u (%s): Hello from %s port %u, %s (%u heard)\n",
				     dp->dev->name, port->index,
				     port->dev->name, addr, hello->port,
				     dp->topo.learn_peers ?
				     "which is not this cable's live peer" :
				     "which is not cabled to this switch",
				     mis.count);
		atomic_inc(&dp->gen);
		dp_genl_miswired_ntf(dp, port, &mis, GFP_ATOMIC);
		goto out;
	}

	nb = &port->neigh[idx];
	old = atomic64_read(&nb->mac);
	if (old != mac) {
		/*
		 * Any host on the segment can send a Hello: the first MAC
		 * heard stays while it is alive, so that a forged Hello
		 * cannot redirect a live neighbour's traffic.  A server whose
		 * NIC was replaced is heard again after the dead interval.
		 */
		if (dp_heard_alive(dp, old, READ_ONCE(nb->last_heard),
				   jiffies)) {
			dp_count(dp, DP_STAT_HELLO_MAC_CHANGE);
			if (dp_port_ratelimit(dp, &port->mac_change_warned)) {
				dp_hello_mac_change_warn(dp, port, src, old,
							 mac);
				dp_genl_mac_change_ntf(dp, port, idx, mac,
						       GFP_ATOMIC);
			}
			goto out;
		}
		atomic64_set(&nb->mac, mac);
	}
	dp_count(dp, DP_STAT_HELLO_RX);
	WRITE_ONCE(nb->ports_up, hi.ports_up);
	WRITE_ONCE(nb->peer_port, hello->port);
	dp_neigh_set_neighs(nb, &hi);
	if (dp_topo_plan_mode(&dp->topo) && !idx)
		dp_neigh_set_coords(port, &hi);
	if (hi.has_ports_up)
		set_bit(DP_NEIGH_HAS_PORTS_UP, &nb->flags);
	else
		clear_bit(DP_NEIGH_HAS_PORTS_UP, &nb->flags);
	WRITE_ONCE(nb->last_heard, jiffies);
	/* Ordered after last_heard: test_and_set_bit() is a full barrier. */
	if (!test_and_set_bit(DP_NEIGH_REPORTED, &nb->flags)) {
		atomic_inc(&dp->gen);
		dp_genl_neigh_ntf(dp, port, idx, true, GFP_ATOMIC);
	}
out:
	consume_skb(skb);
	return;
bad:
	dp_drop(dp, skb, DP_STAT_HELLO_BAD);
}
