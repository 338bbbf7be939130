// SPDX-License-Identifier: GPL-2.0
/*
 * The data plane's top, transmit side: dp0's ndo_start_xmit, an IP packet
 * of this host into the fabric.  Its destination's node id (or key id)
 * from the fabric's prefixes, its routing state, its header, and its
 * first hop (route.c); a packet to a key whose home is this node goes
 * back to the stack as received on dp0.  The frames from the ports are
 * rx.c's (dpillar-design.rst, "The boundary": the files call each other
 * one way).
 *
 * There is no per-destination state.  Every server computes the next hop
 * from the header's routing state with the topology core, and the only
 * lookup is the neighbour array that maps that hop to a MAC address.
 */

#include <linux/icmpv6.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/icmp.h>
#include <net/ipv6.h>

#include "dpillar.h"
#include "hdr.h"
#include "route.h"
#include "send.h"

/*
 * Map a destination IP address to a node id of this fabric: false when the
 * address is outside the fabric's prefix or names no server.
 */
bool dp_ip4_to_node(const struct dp_priv *dp, __be32 daddr, u32 *node)
{
	const struct dp_prefix *p = dp_prefix(dp);
	u32 mask = p->ip4_plen ? ~0U << (32 - p->ip4_plen) : 0;
	u32 addr = ntohl(daddr);

	if ((addr & mask) != ntohl(p->ip4))
		return false;
	*node = addr & ~mask;
	return *node < dp->topo.nodes;
}
EXPORT_SYMBOL_IF_KUNIT(dp_ip4_to_node);

bool dp_ip6_to_node(const struct dp_priv *dp, const struct in6_addr *daddr,
		    u32 *node)
{
	if (memcmp(daddr, &dp_prefix(dp)->ip6, 12))
		return false;
	*node = ntohl(daddr->s6_addr32[3]);
	return *node < dp->topo.nodes;
}
EXPORT_SYMBOL_IF_KUNIT(dp_ip6_to_node);

/*
 * A destination under the device's key prefix (a /96; none when ::): its
 * low 32 bits are the key id that the frame carries as its dst.
 */
static bool dp_ip6_to_key(const struct dp_priv *dp,
			  const struct in6_addr *daddr, u32 *key)
{
	const struct dp_prefix *p = dp_prefix(dp);

	if (!dp_topo_has_keys(&dp->topo) || ipv6_addr_any(&p->key6) ||
	    memcmp(daddr, &p->key6, 12))
		return false;
	*key = ntohl(daddr->s6_addr32[3]);
	return true;
}

/* The node a packet of this host goes to; never this server itself. */
static bool dp_ip_to_node(const struct dp_priv *dp, struct sk_buff *skb,
			  u32 *node)
{
	bool ok;

	if (skb->protocol == htons(ETH_P_IP))
		ok = dp_ip4_to_node(dp, ip_hdr(skb)->daddr, node);
	else
		ok = dp_ip6_to_node(dp, &ipv6_hdr(skb)->daddr, node);
	return ok && *node != dp->self;
}

static void dp_unreachable(struct sk_buff *skb)
{
	if (skb->protocol == htons(ETH_P_IP))
		icmp_ndo_send(skb, ICMP_DEST_UNREACH, ICMP_HOST_UNREACH, 0);
	else
		icmpv6_ndo_send(skb, ICMPV6_DEST_UNREACH, ICMPV6_ADDR_UNREACH, 0);
}

/*
 * A packet this node sent to a key of which it is itself the home: hand
 * it back to the stack as received on dp0, as a frame from the fabric
 * would be (dp_deliver()), so that the key address's route for packets
 * from dp0 (dpillar-design.rst, "Sending to a key") takes it.
 */
static void dp_key_deliver_self(struct dp_priv *dp, struct sk_buff *skb)
{
	__skb_pull(skb, DP_HDR_LEN);
	skb_reset_network_header(skb);
	skb_reset_mac_header(skb);
	skb->mac_len = 0;
	skb->dev = dp->dev;
	skb->pkt_type = PACKET_HOST;
	dp_count_bytes(dp, DP_STAT_DELIVERED, skb->len);
	netif_rx(skb);
}

static netdev_tx_t dp_xmit_rcu(struct sk_buff *skb, struct net_device *dev)
{
	struct dp_priv *dp = netdev_priv(dev);
	struct dp_route_state st;
	struct dpillar_hdr *h;
	unsigned int len = skb->len;
	enum dp_stat why;
	enum dp_out out;
	u32 dst, hash;
	bool key;

	if (skb->protocol == htons(ETH_P_IP)) {
		if (!pskb_network_may_pull(skb, sizeof(struct iphdr)))
			goto drop_proto;
	} else if (skb->protocol == htons(ETH_P_IPV6)) {
		if (!pskb_network_may_pull(skb, sizeof(struct ipv6hdr)))
			goto drop_proto;
	} else {
		goto drop_proto;
	}
	key = skb->protocol == htons(ETH_P_IPV6) &&
	      dp_ip6_to_key(dp, &ipv6_hdr(skb)->daddr, &dst);
	if (!key && !dp_ip_to_node(dp, skb, &dst)) {
		dp_unreachable(skb);
		why = DP_STAT_TX_NOT_FABRIC;
		goto drop;
	}

	/* The flow hash of the IP packet, for topologies that spread flows. */
	hash = skb_get_hash(skb);
	if (key)
		dp_key_route_init(&dp->topo, dp->self, dst,
				  READ_ONCE(dp->mode), &st);
	else
		dp_pathsel_route_init(dp, dst, hash, &st);
	/* S2 plan mode: the destination's coordinates travel with it. */
	if (!key && dp->topo.ext_len && !dp_sc_coords_route(dp, &st, true)) {
		why = DP_STAT_TX_RESOLVING;
		goto drop;
	}
	if (skb_cow_head(skb, ETH_HLEN + DP_HDR_LEN + dp->topo.ext_len)) {
		why = DP_STAT_DROP_NOMEM;
		goto drop;
	}
	skb_scrub_packet(skb, false);
	dp_coords_push(skb, &st);
	h = skb_push(skb, DP_HDR_LEN);
	h->version = DPILLAR_VERSION;
	h->type = DPILLAR_T_DATA;
	/* The topology's proven path bound: a real path never runs out. */
	h->ttl = dp_topo_ttl(&dp->topo);
	h->proto = skb->protocol;
	h->src = htonl(dp->self);
	h->dst = htonl(dst);

	out = dp_route_out(dp, skb, &st);
	if (out == DP_OUT_HOME) {
		dp_key_deliver_self(dp, skb);
		return NETDEV_TX_OK;
	}
	if (out != DP_OUT_SENT) {
		why = dp_out_stat(out, DP_STAT_TX_NOROUTE);
		goto drop;
	}
	dp_count_bytes(dp, DP_STAT_TX, len);
	return NETDEV_TX_OK;

drop_proto:
	why = DP_STAT_TX_PROTO;
drop:
	dp_drop(dp, skb, why);
	return NETDEV_TX_OK;
}

/*
 * ndo_start_xmit of dp0: an IP packet of this host enters the fabric.
 * The ports, the neighbour tables and path selection are read with
 * rcu_dereference(), which wants rcu_read_lock(): __dev_queue_xmit()
 * holds only rcu_read_lock_bh(), and a packet socket or a qdisc on dp0
 * sends with no other lock (IP's output path happens to hold one).
 */
netdev_tx_t dp_xmit(struct sk_buff *skb, struct net_device *dev)
{
	netdev_tx_t ret;

	rcu_read_lock();
	ret = dp_xmit_rcu(skb, dev);
	rcu_read_unlock();
	return ret;
}
