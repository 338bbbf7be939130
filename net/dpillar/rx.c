// SPDX-License-Identifier: GPL-2.0
/*
 * The data plane's top, receive side: the ports' rx_handler, in softirq.
 * It checks what every frame must pass and hands each type to its
 * receive path, which returns its verdict: DATA relayed here (relay.h,
 * inline: the hot path), SHORTCUT_DATA and shortcut discovery in
 * shortcut.c, path probes in probe.c, the Hellos in hello.c.  A frame
 * for this node is delivered to dp0 here, and a frame is dropped here
 * only, whatever path dropped it.  One hop is decided in route.c, a
 * frame sent in send.c (dpillar-design.rst, "The boundary": the files
 * call each other one way).
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
 * The header's ids are the fabric's: a node's dst, or a key's, which a
 * data frame to a key has (dp_dst_is_key(): asked only when the dst is
 * not a node's, since asking costs S2 a call per frame), src and
 * waypoint.
 */
static bool dp_addr_ok(const struct dp_priv *dp, const struct dpillar_hdr *h)
{
	u32 wp = ntohl(h->waypoint);

	return (dp_addr_valid(&dp->topo, ntohl(h->dst)) ||
		(h->type == DPILLAR_T_DATA &&
		 dp_dst_is_key(&dp->topo, h->flags))) &&
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

/*
 * The checks of a frame sent over the fabric, every type but the Hello:
 * a type this device takes, sent to us, with the fabric's ids.
 * DP_STAT_FORWARDED: go on; else the counter of its drop.
 */
static enum dp_stat dp_rx_check(const struct dp_priv *dp,
				const struct sk_buff *skb,
				const struct dpillar_hdr *h)
{
	if (h->type != DPILLAR_T_DATA && !dp_rx_type_ok(dp, h->type))
		return DP_STAT_DROP_TYPE;
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
	     !ether_addr_equal(eth_hdr(skb)->h_dest, dp_hello_mac)))
		return DP_STAT_DROP_OTHERHOST;
	if (!dp_addr_ok(dp, h))
		return DP_STAT_DROP_ADDR;
	return DP_STAT_FORWARDED;
}

/* rx_handler of the ports: softirq, under rcu_read_lock. */
rx_handler_result_t dp_handle_frame(struct sk_buff **pskb)
{
	struct sk_buff *skb = *pskb;
	const struct dpillar_hdr *h;
	struct dp_port *port;
	struct dp_priv *dp;
	enum dp_stat why;
	u8 type;

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
	/* Every type but the Hello, which stays on its link. */
	if (h->type != DPILLAR_T_HELLO) {
		why = dp_rx_check(dp, skb, h);
		if (why != DP_STAT_FORWARDED)
			goto drop;
	}
	/*
	 * Each type to its receive path, which returns its verdict:
	 * DP_STAT_MAX when it took the frame, DP_STAT_DELIVERED when it is
	 * for us (delivered below), else the counter of its drop (made
	 * below).  DATA first, relayed here (dp_relay(), inline: the hot
	 * path); SHORTCUT_DATA and discovery in shortcut.c, path probes in
	 * probe.c, the Hellos in hello.c.
	 */
	type = h->type;
	if (type == DPILLAR_T_DATA) {
		/* A key frame (its dst a key id) is routed by its key. */
		if (ntohl(h->dst) != dp->self ||
		    dp_dst_is_key(&dp->topo, h->flags))
			why = dp_relay(dp, skb, &dp_relay_data_ops, NULL);
		else
			why = DP_STAT_DELIVERED;
	} else if (type == DPILLAR_T_SHORTCUT_DATA) {
		if (ntohl(h->dst) != dp->self)
			why = dp_sc_data_rcv(dp, skb);
		else
			why = DP_STAT_DELIVERED;
	} else if (type == DPILLAR_T_SHORTCUT_PROBE ||
		   type == DPILLAR_T_SHORTCUT_REPLY) {
		why = dp_sc_rcv(dp, port->index, skb);
	} else if (type == DPILLAR_T_PROBE || type == DPILLAR_T_PROBE_REPLY) {
		why = dp_probe_rcv(dp, port->index, skb);
	} else {	/* HELLO: dp_rx_check() let no other type by */
		why = dp_hello_rcv(dp, port, skb);
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
