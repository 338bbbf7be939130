// SPDX-License-Identifier: GPL-2.0
/*
 * Offloads of dpillar frames: segmentation on the way out, aggregation
 * (GRO) on the way in.
 *
 * dp0 takes TCP and UDP super-packets and partial checksums from the
 * stack (NETIF_F_GSO_SOFTWARE, NETIF_F_HW_CSUM): a super-packet is routed
 * once at the source and crosses every relay as one skb wherever the
 * cables carry such skbs.  Which ports do is send.c's decision
 * (dp_port_xmit()); where a port does not, or the operator turned its
 * offloads off (ethtool -K tx off / gso off), the frame is segmented by
 * dp_gso_segment(), which the core finds by our ethertype as it finds
 * MPLS's and NSH's (skb_mac_gso_segment()).
 *
 * Every segment gets a copy of the dpillar header, which holds nothing
 * that differs between them.
 */

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/flow_dissector.h>
#include <net/gro.h>
#include <net/protocol.h>
#ifdef DP_HAVE_NET_GSO_H
#include <net/gso.h>
#endif
#ifdef DP_HAVE_NET_RPS_H
#include <net/rps.h>
#endif

#include "dpillar.h"
#include "hdr.h"

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

/*
 * GRO.  A NIC computes no receive hash for an unknown ethertype, and RPS
 * hashes what the flow dissector finds, which for our ethertype is
 * nothing: every frame of every flow would be received, relayed and
 * delivered on one CPU.  So while RPS is on (rps_cpus of some queue),
 * every data frame that reaches GRO gets the hash of its inner flow
 * here, before RPS picks a CPU by it.  An L4 hash where the flow has
 * ports (RFS and the sockets' flow steering may use it as they use a
 * NIC's), else an L3 one, as __skb_get_hash() sets them.
 */
#ifdef CONFIG_RPS
VISIBLE_IF_KUNIT void dp_gro_hash(struct sk_buff *skb, __be16 proto,
				  int nhoff)
{
	struct flow_keys keys;

	memset(&keys, 0, sizeof(keys));
	/* Offsets from skb->data, as GRO's; the rest is read past headlen. */
	if (__skb_flow_dissect(NULL, skb, &flow_keys_dissector, &keys,
			       skb->data, proto, nhoff, skb_headlen(skb), 0))
		skb_set_hash(skb, flow_hash_from_keys(&keys),
			     flow_keys_have_l4(&keys) ? PKT_HASH_TYPE_L4 :
			     PKT_HASH_TYPE_L3);
}
EXPORT_SYMBOL_IF_KUNIT(dp_gro_hash);
#endif

/*
 * Aggregate the data frames of one flow as the NIC delivers them: two
 * frames are of one flow when their dpillar headers are equal byte for
 * byte (source, destination, routing state, TTL) and the inner protocol's
 * GRO says so.  The aggregate is received as one GSO skb and delivered to
 * dp0 whole.  Frames to relay, Hellos, probes, frames carrying
 * coordinates (S2 plan mode) and frames of a device that is not our port
 * (a VLAN on the NIC) are not aggregated.
 */
static struct sk_buff *dp_gro_receive(struct list_head *head,
				      struct sk_buff *skb)
{
	const struct packet_offload *ptype;
	const struct dpillar_hdr *h;
	const struct dp_port *port;
	struct sk_buff *pp = NULL;
	unsigned int off, hlen;
	struct sk_buff *p;
	int flush = 1;

	off = skb_gro_offset(skb);
	hlen = off + DP_HDR_LEN;
	h = skb_gro_header(skb, hlen, off);
	if (unlikely(!h))
		goto out;
	/*
	 * SHORTCUT_DATA (the discovery fallback, shortcut.c) is data too: at
	 * its destination it is delivered as DATA is, and a TCP stream that
	 * only the fallback carries deserves the same aggregation.
	 */
	if (h->version != DPILLAR_VERSION ||
	    (h->type != DPILLAR_T_DATA &&
	     h->type != DPILLAR_T_SHORTCUT_DATA) ||
	    (h->proto != htons(ETH_P_IP) && h->proto != htons(ETH_P_IPV6)))
		goto out;
	if (rcu_access_pointer(skb->dev->rx_handler) != dp_handle_frame)
		goto out;
	port = rcu_dereference(skb->dev->rx_handler_data);
	if (!port || (h->flags & dp_topo_coords_flag(&port->dp->topo)))
		goto out;
#ifdef CONFIG_RPS
	if (static_branch_unlikely(&rps_needed))
		dp_gro_hash(skb, h->proto, hlen);
#endif
	/*
	 * A frame whose checksum nobody checked (CHECKSUM_NONE: what the
	 * Intel, VMware and virtio NICs give for an unknown ethertype) is
	 * aggregated too.  The inner protocol's GRO sums its payload once
	 * (skb_gro_checksum_validate()) and the aggregate reaches TCP as
	 * checked (tcp_gro_complete()); without GRO, TCP would sum every
	 * segment itself (tcp_rcv_established()), so the pass only moves and
	 * the per-packet saving is left: 15-17% of the guest instructions
	 * per byte of a TCP stream on three NIC models (dpillar-design.rst,
	 * "Offloads"; selftests/nic_cost.sh).
	 *
	 * Only what this node delivers is aggregated.  A relay that
	 * aggregated would have to cut the aggregate again toward a NIC, and
	 * complete every segment's checksum in software (no NIC offloads it
	 * behind our header): a pass over every byte that forwarding frame
	 * by frame never makes.  Measured under TCG with e1000e, every node
	 * aggregating, the relay too: 72-86 Mbit/s; GRO off: 108-113
	 * (dpillar-design.rst, "Offloads").
	 */
	if (ntohl(h->dst) != READ_ONCE(port->dp->self) ||
	    dp_dst_is_key(&port->dp->topo, h->flags))
		goto out;
	ptype = gro_find_receive_by_type(h->proto);
	if (!ptype)
		goto out;

	flush = 0;
	list_for_each_entry(p, head, list) {
		if (!NAPI_GRO_CB(p)->same_flow)
			continue;
		if (memcmp(p->data + off, h, DP_HDR_LEN))
			NAPI_GRO_CB(p)->same_flow = 0;
	}
	skb_gro_pull(skb, DP_HDR_LEN);
	skb_gro_postpull_rcsum(skb, h, DP_HDR_LEN);
	pp = call_gro_receive(ptype->callbacks.gro_receive, head, skb);
out:
	skb_gro_flush_final(skb, pp, flush);
	return pp;
}

/* The aggregate is complete: let the inner protocol finish its headers. */
static int dp_gro_complete(struct sk_buff *skb, int nhoff)
{
	const struct dpillar_hdr *h = (void *)(skb->data + nhoff);
	struct packet_offload *ptype;

	ptype = gro_find_complete_by_type(h->proto);
	if (!ptype)
		return -ENOENT;
	return ptype->callbacks.gro_complete(skb, nhoff + DP_HDR_LEN);
}

static struct packet_offload dp_packet_offload __read_mostly = {
	.type = cpu_to_be16(DPILLAR_ETHERTYPE),
	.priority = 15,
	.callbacks = {
		.gso_segment = dp_gso_segment,
		.gro_receive = dp_gro_receive,
		.gro_complete = dp_gro_complete,
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
