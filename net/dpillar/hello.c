// SPDX-License-Identifier: GPL-2.0
/*
 * The Hello protocol.
 *
 * Every port sends a Hello on its switch segment or cable every hello
 * interval, to the group address dp_hello_mac; what a receiver learns
 * from it goes into its neighbour tables (neigh.c).
 *
 * A Hello carries TLVs after its fixed part (struct dpillar_tlv, parsed by
 * hello_tlv.c): the sender's ports that are up, which the routing view
 * offers to topologies that route on their neighbours' link state; for a
 * topology that routes on coordinates (its coordinates extension,
 * dp_topo_ops.coords) the sender's coordinates and its cable neighbours,
 * and in S2 plan mode also the coordinates no node can derive: those of
 * the neighbours it lists (TLV 4).
 */

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/pkt_sched.h>
#include <linux/skbuff.h>

#include "dpillar.h"
#include "send.h"

/* Every port joins this group while bound (dp_port_add()). */
const u8 dp_hello_mac[ETH_ALEN] __aligned(2) = DPILLAR_HELLO_MAC;
EXPORT_SYMBOL_IF_KUNIT(dp_hello_mac);

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
 * The most the coordinate TLVs add (struct dp_topo_coords_ext.hello):
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
 * dp_topo_coords_ext.hello; the caller tested dp_topo_ops.coords): ours
 * (derived ones, which a receiver checks, or in plan mode the plan's) and
 * the neighbours we hear now, in port order: the receiver's 2-hop
 * neighbours; in plan mode also their coordinates, which the receiver
 * cannot derive (DPILLAR_TLV_NEIGH_COORDS, in the same order).  Bounded by the port
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

	nc = t->ops->coords->hello(t, dp->self, x, DP_COORDS_MAX);
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
	if (dp->topo.ops->coords)
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
 * Whether the coordinates of @src's Hello fit ours (struct
 * dp_topo_coords_ext.hello_ok; TLV 4's were checked by the parser against
 * the list and their count).  Topologies without the coordinates
 * extension ignore the TLVs.
 */
static bool dp_hello_coords_ok(const struct dp_priv *dp, u32 src,
			       const struct dp_hello_info *hi)
{
	const struct dp_topo *t = &dp->topo;

	return !t->ops->coords ||
	       t->ops->coords->hello_ok(t, src, hi->coords, hi->ncoords);
}

/*
 * A Hello received on @port; skb->data is at the dpillar header.  Return:
 * DP_STAT_MAX when it was taken (consumed here), else the counter of its
 * drop, which the receive handler makes (dp_handle_frame(): a frame's one
 * drop).
 */
enum dp_stat dp_hello_rcv(struct dp_priv *dp, struct dp_port *port,
			  struct sk_buff *skb)
{
	const struct dpillar_hello *hello;
	const struct dpillar_hdr *h;
	struct dp_hello_info hi;
	u32 src, tlv_len;
	int idx;
	u64 mac;

	/* Hellos go to the group address; a unicast one is not for us. */
	if (skb->pkt_type == PACKET_OTHERHOST)
		return DP_STAT_DROP_OTHERHOST;
	/*
	 * Nor is one unicast to this server, nor one to any other group:
	 * a neighbour is one every server on the segment hears.
	 */
	if (!ether_addr_equal(eth_hdr(skb)->h_dest, dp_hello_mac))
		return DP_STAT_HELLO_NOT_GROUP;
	/* Unconfigured: the fabric has no node yet, the sender included. */
	if (!dp_configured(dp))
		return DP_STAT_DROP_ADDR;
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
		dp_neigh_miswired(dp, port, src, hello->port, mac);
		goto out;
	}
	dp_neigh_heard(dp, port, idx, src, mac, hello->port, &hi);
out:
	consume_skb(skb);
	return DP_STAT_MAX;
bad:
	return DP_STAT_HELLO_BAD;
}

