/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The end of a frame (send.c): put on a port, its Ethernet header in
 * front (dp_send_on()), whole or completed first (dp_port_xmit()), or
 * dropped with its counter (dp_drop()).  The bottom of the data plane:
 * what every file that sends or drops a frame builds on.
 */
#ifndef _DPILLAR_SEND_H
#define _DPILLAR_SEND_H

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#ifdef DP_HAVE_NET_GSO_H
#include <net/gso.h>
#endif

#include "dpillar.h"

void dp_drop(struct dp_priv *dp, struct sk_buff *skb, enum dp_stat stat);
void dp_port_xmit_incomplete(struct dp_port *port, struct sk_buff *skb);
extern atomic_t dp_stack_gen;
bool dp_nic_offload_qualified(const struct net_device *dev);
#if IS_ENABLED(CONFIG_KUNIT)
bool dp_nic_offload_prep(const struct dp_topo *t, struct sk_buff *skb);
#endif

/*
 * What every relayed frame passes through, inline (dpillar-evaluation.rst,
 * "The relay data path by the wall clock": under TCG each call and return
 * is a translation-block lookup, and these were a tenth of a relay hop's
 * own samples in the profiles of DPILLAR_ICOUNT=off make bench).
 */

/*
 * dev_queue_xmit() toward @port, counting what the port did not take.
 * The frame was already counted sent (tx_packets) or forwarded, so a
 * full queue or a port going down would otherwise lose it silently.
 * NET_XMIT_CN counts too: noop_qdisc (a port going down) and the AQM
 * qdiscs say it when they dropped a frame.
 */
static inline void dp_port_queue(const struct dp_port *port,
				 struct sk_buff *skb)
{
	if (unlikely(dev_queue_xmit(skb) != NET_XMIT_SUCCESS))
		dp_count(port->dp, DP_STAT_TX_PORT_DROP);
}

/*
 * Whether the frame at skb->data (the dpillar header, its Ethernet
 * header not pushed yet) fits a port of MTU @mtu: every segment of a
 * GSO skb.  The network header is the inner IP header on the way out of
 * dp0 and the dpillar header on a relay; both count.
 */
static inline bool dp_fits_mtu(const struct sk_buff *skb, unsigned int mtu)
{
	unsigned int before;

	if (likely(!skb_is_gso(skb)))
		return skb->len <= mtu;
	before = skb_network_header(skb) - skb->data;
	return before < mtu && skb_gso_validate_network_len(skb, mtu - before);
}

/*
 * dev_queue_xmit() of a frame whose Ethernet header is in place, toward
 * @port, whose device skb->dev is; consumes the skb.  A complete frame
 * (no GSO, no partial checksum: every relayed frame off a NIC) goes
 * straight to the port, the others through dp_port_xmit_incomplete().
 */
static inline void dp_port_xmit(struct dp_port *port, struct sk_buff *skb)
{
	if (unlikely(skb_is_gso(skb) || skb->ip_summed == CHECKSUM_PARTIAL))
		dp_port_xmit_incomplete(port, skb);
	else
		dp_port_queue(port, skb);
}

/*
 * Put the Ethernet header toward @mac in front of the dpillar header at
 * skb->data and send the frame out of @port.  Consumes the skb.
 */
static inline void dp_send_on(struct dp_port *port, struct sk_buff *skb,
			      u64 mac)
{
	struct ethhdr *eth;
	__be64 dst;

	/*
	 * Every sender made the room (skb_cow_head(), its allocation):
	 * __skb_push() spares skb_push()'s call, which stays for a sender
	 * that did not (its skb_under_panic(), as before).
	 */
	if (likely(skb_headroom(skb) >= ETH_HLEN))
		eth = __skb_push(skb, ETH_HLEN);
	else
		eth = skb_push(skb, ETH_HLEN);
	/*
	 * u64_to_ether_addr() without its loop of six byte stores: the
	 * address in the top six bytes of a big-endian word, copied.
	 */
	dst = cpu_to_be64(mac << 16);
	memcpy(eth->h_dest, &dst, ETH_ALEN);
	ether_addr_copy(eth->h_source, port->dev->dev_addr);
	eth->h_proto = htons(DPILLAR_ETHERTYPE);
	skb_reset_mac_header(skb);
	skb_set_network_header(skb, ETH_HLEN);
	skb->dev = port->dev;
	skb->protocol = htons(DPILLAR_ETHERTYPE);
	dp_port_xmit(port, skb);
}

#endif /* _DPILLAR_SEND_H */
