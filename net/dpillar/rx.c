// SPDX-License-Identifier: GPL-2.0
/*
 * The data plane's top, receive side: the ports' rx_handler, in softirq.
 * A frame for this node is delivered to dp0, a DATA or SHORTCUT_DATA
 * frame for another server relayed (relay.h); the other frame types go
 * to their protocol (hello.c, probe.c, shortcut.c).  One hop is decided
 * in route.c, a frame sent in send.c (dpillar-design.rst, "The
 * boundary": the files call each other one way).
 *
 * There is no per-destination state.  Every server computes the next hop
 * from the header's routing state with the topology core, and the only
 * lookup is the neighbour array that maps that hop to a MAC address.
 */

#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include "dpillar.h"
#include "hdr.h"
#include "relay.h"
#include "route.h"
#include "send.h"

/*
 * A data frame for us: strip the header and hand the packet to dp0.
 * DP_STAT_DELIVERED when it was (RX_HANDLER_ANOTHER), else the counter
 * of its drop, which the receive handler makes.
 */
static enum dp_stat dp_deliver(struct dp_priv *dp, struct sk_buff *skb)
{
	__be16 proto = ((struct dpillar_hdr *)skb->data)->proto;
	struct dp_route_state st;
	unsigned int min, hlen;
	int ext;

	if (proto == htons(ETH_P_IP))
		min = sizeof(struct iphdr);
	else if (proto == htons(ETH_P_IPV6))
		min = sizeof(struct ipv6hdr);
	else
		return DP_STAT_DROP_PROTO;
	ext = dp_coords_rx(&dp->topo, skb, &st);
	if (ext < 0)
		return DP_STAT_DROP_SHORT;
	hlen = DP_HDR_LEN + ext;
	if (!pskb_may_pull(skb, hlen + min))
		return DP_STAT_DROP_INNER;
	/* skb_pull_rcsum() without its call: hlen is pulled (above). */
	__skb_pull(skb, hlen);
	skb_postpull_rcsum(skb, skb->data - hlen, hlen);
	skb_reset_network_header(skb);
	skb_reset_mac_header(skb);
	skb->mac_len = 0;
	skb->protocol = proto;
	skb->dev = dp->dev;
	skb->pkt_type = PACKET_HOST;
	dp_count_bytes(dp, DP_STAT_DELIVERED, skb->len);
	return DP_STAT_DELIVERED;
}

static const struct dp_relay_ops dp_relay_data_ops = {
	/*
	 * No hooks: its routing state (coordinates included when it carries
	 * them) and the topology's next hop; a key frame may end here.
	 */
	.home = true,
	.noroute = DP_STAT_DROP_NOROUTE,
};

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
static enum dp_stat dp_relay_sc_check(struct dp_priv *dp, struct sk_buff *skb)
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
 * carries it or discovers on its sender's account.  The routing stays in
 * the relay so that shortcut.c never calls back into route.c
 * (scripts/callgraph.py).
 */
static enum dp_out dp_relay_sc_hop(struct dp_priv *dp, struct sk_buff *skb,
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

static const struct dp_relay_ops dp_relay_sc_ops = {
	.check = dp_relay_sc_check,
	.hop = dp_relay_sc_hop,
	.noroute = DP_STAT_SC_DATA_LOST,
};

/*
 * Out of line: its instance of dp_relay() in dp_handle_frame() beside
 * data's would make the compiler call what it inlines for data alone
 * (dp_ttl_relay(), dp_count()).
 */
static noinline enum dp_stat dp_relay_sc(struct dp_priv *dp,
					 struct sk_buff *skb)
{
	return dp_relay(dp, skb, &dp_relay_sc_ops, NULL);
}

/* A data frame to a key has a key id as its dst, not a node id. */
static inline bool dp_hdr_to_key(const struct dp_priv *dp,
				 const struct dpillar_hdr *h)
{
	return h->type == DPILLAR_T_DATA && dp_dst_is_key(&dp->topo, h->flags);
}

/*
 * The header's ids are the fabric's: a node's dst (asked first: a key
 * frame's dst is a key id, and asking for one costs S2 a call per
 * frame), src and waypoint.
 */
static bool dp_addr_ok(const struct dp_priv *dp, const struct dpillar_hdr *h)
{
	u32 wp = ntohl(h->waypoint);

	return (dp_addr_valid(&dp->topo, ntohl(h->dst)) ||
		dp_hdr_to_key(dp, h)) &&
	       dp_addr_valid(&dp->topo, ntohl(h->src)) &&
	       (wp == DPILLAR_NODE_NONE || dp_addr_valid(&dp->topo, wp));
}

/*
 * The frame types taken from a port besides DATA and HELLO: path probes,
 * shortcut discovery, and SHORTCUT_DATA where the fallback runs.
 */
static bool dp_rx_type_ok(const struct dp_priv *dp, u8 type)
{
	switch (type) {
	case DPILLAR_T_PROBE:
	case DPILLAR_T_PROBE_REPLY:
	case DPILLAR_T_SHORTCUT_PROBE:
	case DPILLAR_T_SHORTCUT_REPLY:
		return true;
	case DPILLAR_T_SHORTCUT_DATA:
		return dp_sc_fallback(dp);
	default:
		return false;
	}
}

/* rx_handler of the ports: softirq, under rcu_read_lock. */
rx_handler_result_t dp_handle_frame(struct sk_buff **pskb)
{
	struct sk_buff *skb = *pskb;
	const struct dpillar_hdr *h;
	struct dp_port *port;
	struct dp_priv *dp;
	enum dp_stat why;

	if (skb->protocol != htons(DPILLAR_ETHERTYPE))
		return RX_HANDLER_PASS;

	port = rcu_dereference(skb->dev->rx_handler_data);
	dp = port->dp;
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb) {
		dp_count(dp, DP_STAT_DROP_NOMEM);
		return RX_HANDLER_CONSUMED;
	}
	*pskb = skb;
	dp_count(dp, DP_STAT_RX_FRAMES);

	/*
	 * A VLAN tag the NIC stripped, for a VLAN no device was configured
	 * for (else the stack had handed the frame to that device): the
	 * frame is not on our segment's untagged network, and relaying it
	 * would put the tag back on (dev_queue_xmit() inserts skb->vlan_tci).
	 * A tag still in the frame makes its ethertype 802.1Q: not ours.
	 */
	if (skb_vlan_tag_present(skb)) {
		why = DP_STAT_DROP_VLAN;
		goto drop;
	}
	if (!pskb_may_pull(skb, DP_HDR_LEN)) {
		why = DP_STAT_DROP_SHORT;
		goto drop;
	}
	h = (const struct dpillar_hdr *)skb->data;
	if (h->version != DPILLAR_VERSION) {
		why = DP_STAT_DROP_VERSION;
		goto drop;
	}
	/*
	 * A server whose dp0 is down has left the fabric.  netif_running(),
	 * not IFF_UP: __dev_close_many() clears __LINK_STATE_START before
	 * ndo_stop() and IFF_UP only after it, and a frame taken while
	 * dp_stop() empties the tables would fill them again (shortcuts,
	 * coordinates, the refresh work) behind its back.
	 */
	if (!netif_running(dp->dev)) {
		why = DP_STAT_DROP_DOWN;
		goto drop;
	}
	if (h->type == DPILLAR_T_HELLO) {
		why = dp_hello_rcv(dp, port, skb);
		if (why == DP_STAT_MAX)
			return RX_HANDLER_CONSUMED;
		goto drop;
	}
	if (h->type != DPILLAR_T_DATA && !dp_rx_type_ok(dp, h->type)) {
		why = DP_STAT_DROP_TYPE;
		goto drop;
	}
	/*
	 * A switch floods a frame whose destination MAC it does not know (a
	 * neighbour's port just went down, its entry aged out), and a port in
	 * promiscuous mode sees everything.  Only the server the frame was
	 * sent to may route it: a copy relayed by everyone else would
	 * multiply, and carries routing state meant for another server.
	 * A shortcut probe passed on to a switch goes to its group, the
	 * Hellos' (dp_sc_flood()): every server there takes its copy.
	 */
	if (skb->pkt_type != PACKET_HOST &&
	    (h->type != DPILLAR_T_SHORTCUT_PROBE ||
	     skb->pkt_type != PACKET_MULTICAST ||
	     !ether_addr_equal(eth_hdr(skb)->h_dest, dp_hello_mac))) {
		why = DP_STAT_DROP_OTHERHOST;
		goto drop;
	}
	if (!dp_addr_ok(dp, h)) {
		why = DP_STAT_DROP_ADDR;
		goto drop;
	}
	/*
	 * Each type to its receive path, the relayed one first: DATA here
	 * (delivered, else relayed), SHORTCUT_DATA here too (the same
	 * delivery), path probes in probe.c, relayed as data is
	 * (dp_relay()), and discovery in shortcut.c.  Each returns its
	 * verdict: DP_STAT_MAX when it took the frame, else the counter of
	 * its drop, made here.
	 */
	switch (h->type) {
	case DPILLAR_T_DATA:
		if (ntohl(h->dst) != dp->self || dp_hdr_to_key(dp, h))
			why = dp_relay(dp, skb, &dp_relay_data_ops, NULL);
		else
			why = DP_STAT_DELIVERED;
		break;
	case DPILLAR_T_SHORTCUT_DATA:
		if (ntohl(h->dst) != dp->self)
			why = dp_relay_sc(dp, skb);
		else
			why = DP_STAT_DELIVERED;
		break;
	case DPILLAR_T_PROBE:
	case DPILLAR_T_PROBE_REPLY:
		why = dp_probe_rcv(dp, port->index, skb);
		break;
	default:	/* SHORTCUT_PROBE, SHORTCUT_REPLY */
		why = dp_sc_rcv(dp, port->index, skb);
		break;
	}
	if (why == DP_STAT_MAX)
		return RX_HANDLER_CONSUMED;
	/* For us (a key frame whose home is here too): to dp0. */
	if (why == DP_STAT_DELIVERED) {
		why = dp_deliver(dp, skb);
		/* Let the stack receive it again, now from dp0. */
		if (why == DP_STAT_DELIVERED)
			return RX_HANDLER_ANOTHER;
	}

drop:
	dp_drop(dp, skb, why);
	return RX_HANDLER_CONSUMED;
}
EXPORT_SYMBOL_IF_KUNIT(dp_handle_frame);
