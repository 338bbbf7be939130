// SPDX-License-Identifier: GPL-2.0
/*
 * GSO of dpillar frames.  dp0 takes TCP and UDP super-packets from the
 * stack (NETIF_F_GSO_SOFTWARE): a super-packet is routed once at the
 * source and crosses every relay as one skb wherever the cables carry
 * such skbs (veth, and the same host).  It is cut into frames only where
 * a port cannot carry it: a NIC's segmentation offloads know no dpillar
 * header, so the core segments the skb in software before the NIC's
 * ndo_start_xmit and finds this callback by our ethertype, as it does
 * MPLS's and NSH's (skb_mac_gso_segment()).  Every frame gets a copy of
 * the dpillar header, which holds nothing that differs between them.
 */

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/protocol.h>
#ifdef DP_HAVE_NET_GSO_H
#include <net/gso.h>
#endif

#include "dpillar.h"

/*
 * The bytes in front of the IP packet: the header, and the coordinates
 * that follow it when its flags say so (S2 plan mode).  Which flag says
 * so is the fabric's: the port the frame leaves by belongs to one (we are
 * its rx_handler).  -1 for a malformed frame.  Under rcu_read_lock
 * (skb_mac_gso_segment()).
 */
static int dp_gso_hdr_len(struct sk_buff *skb)
{
	const struct dp_port *port;
	struct dp_route_state st;
	int ext;

	if (rcu_access_pointer(skb->dev->rx_handler) != dp_handle_frame)
		return DP_HDR_LEN;
	port = rcu_dereference(skb->dev->rx_handler_data);
	if (!port)
		return DP_HDR_LEN;
	ext = dp_coords_rx(&port->dp->topo, skb, &st);
	return ext < 0 ? -1 : DP_HDR_LEN + ext;
}

/* Called with skb->data at the dpillar header (the Ethernet header pulled). */
static struct sk_buff *dp_gso_segment(struct sk_buff *skb,
				      netdev_features_t features)
{
	struct sk_buff *segs = ERR_PTR(-EINVAL);
	unsigned int outer_hlen = skb_mac_header_len(skb);
	u16 mac_offset = skb->mac_header;
	u16 mac_len = skb->mac_len;
	__be16 proto;
	int hlen;

	if (unlikely(!pskb_may_pull(skb, DP_HDR_LEN)))
		goto out;
	proto = ((struct dpillar_hdr *)skb->data)->proto;
	if (proto != htons(ETH_P_IP) && proto != htons(ETH_P_IPV6))
		goto out;
	hlen = dp_gso_hdr_len(skb);
	if (hlen < 0)
		goto out;

	__skb_pull(skb, hlen);
	skb_reset_mac_header(skb);
	skb->mac_len = 0;
	skb->protocol = proto;
	/*
	 * A generic checksum offload (csum_start/csum_offset) still works
	 * behind our header; a protocol-aware one looks for IP right after
	 * the Ethernet header, so the segments are checksummed here then.
	 */
	segs = skb_mac_gso_segment(skb, features &
				   (NETIF_F_SG | NETIF_F_HW_CSUM));
	if (IS_ERR_OR_NULL(segs)) {
		skb_gso_error_unwind(skb, htons(DPILLAR_ETHERTYPE), hlen,
				     mac_offset, mac_len);
		goto out;
	}

	for (skb = segs; skb; skb = skb->next) {
		skb->protocol = htons(DPILLAR_ETHERTYPE);
		__skb_push(skb, hlen + outer_hlen);
		skb_reset_mac_header(skb);
		skb_set_network_header(skb, outer_hlen);
		skb->mac_len = mac_len;
	}
out:
	return segs;
}

static struct packet_offload dp_packet_offload __read_mostly = {
	.type = cpu_to_be16(DPILLAR_ETHERTYPE),
	.priority = 15,
	.callbacks = {
		.gso_segment = dp_gso_segment,
	},
};

void dp_gso_register(void)
{
	dev_add_offload(&dp_packet_offload);
}

void dp_gso_unregister(void)
{
	/* Waits for the callers still inside (synchronize_net()). */
	dev_remove_offload(&dp_packet_offload);
}

/*
 * Whether the frame at skb->data (the dpillar header, its Ethernet
 * header not pushed yet) fits a port of MTU @mtu: every segment of a
 * GSO skb.  The network header is the inner IP header on the way out of
 * dp0 and the dpillar header on a relay; both count.
 */
bool dp_fits_mtu(const struct sk_buff *skb, unsigned int mtu)
{
	unsigned int before = skb_network_header(skb) - skb->data;

	if (!skb_is_gso(skb))
		return skb->len <= mtu;
	return before < mtu && skb_gso_validate_network_len(skb, mtu - before);
}
