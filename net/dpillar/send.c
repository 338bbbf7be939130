// SPDX-License-Identifier: GPL-2.0
/*
 * The bottom of the data plane: the end of a frame (counted, sent or
 * dropped) and putting it on a port (send.h).  Every other file of the
 * data plane (tx.c, rx.c, probe.c, shortcut.c, the Hellos) builds on
 * these and nothing here calls up into them.
 *
 * Which ports get our super-packets and partial checksums whole is
 * decided per frame by dp_port_whole():
 *
 *  - A software device with nothing beneath it (veth, dummy, tap) takes
 *    the skb as it is; if the operator turned its offloads off, the core
 *    segments it with dp_gso_segment() (gso.c).  Not a veth whose peer is
 *    stacked on hardware or enslaved to a device that is (a bridge or
 *    Open vSwitch with a NIC): the frame would reach that NIC whole, the
 *    common container and VM setup (issue 53, item 6); a peer that is
 *    another dpillar device's port is fine, that device completes its
 *    own.  Only the peer's master is looked at, not what lies behind
 *    further veths on it.
 *  - Anything else, a NIC (a device with a parent bus device) or a
 *    device stacked on other devices (VLAN, bond, team, macvlan, a bridge
 *    with ports), gets complete frames: dp_send_complete() segments and
 *    checksums in software before dev_queue_xmit().  NIC drivers and the
 *    NIC models behind them locate the IP header right behind the
 *    Ethernet header or switch on skb->protocol; no NIC parses ours.  The
 *    core cannot be trusted to do this for us: for a device with
 *    NETIF_F_HW_CSUM, harmonize_features() keeps TSO whatever the
 *    ethertype (can_checksum_protocol()), and the driver then misparses
 *    the frame (e1000e logs "checksum_partial proto=88b5!"; over e1000,
 *    e1000e and vmxnet3 TCP moved no data; igb_tso() and ixgbe_tso()
 *    read the IP header where ours is).
 *
 * Except, when the operator asks for it (the device's nic_offload), on a
 * port whose NIC is qualified (dp_nic_offload_qualified()): there a TCP
 * super-packet or partial checksum goes to the NIC whole, our header
 * presented as part of the link-layer header (dp_nic_offload_prep()).
 */

#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/string.h>
#include <linux/tcp.h>
#ifdef DP_HAVE_NET_GSO_H
#include <net/gso.h>
#endif

#include "dpillar.h"
#include "send.h"

/* ---- the end of a frame ------------------------------------------------- */

/*
 * The core's drop reason closest to each of our drop counters, for
 * "perf trace -e skb:kfree_skb" and dropwatch.  A module cannot register
 * a drop-reason subsystem of its own (the subsystem ids are an enum of
 * the kernel's), so the exact reason stays in our counters.
 */
static const u16 dp_drop_reasons[DP_STAT_MAX] = {
	[DP_STAT_DROP_SHORT]	= SKB_DROP_REASON_PKT_TOO_SMALL,
	[DP_STAT_DROP_VERSION]	= SKB_DROP_REASON_UNHANDLED_PROTO,
	[DP_STAT_DROP_TYPE]	= SKB_DROP_REASON_UNHANDLED_PROTO,
	[DP_STAT_DROP_ADDR]	= SKB_DROP_REASON_IP_INADDRERRORS,
	[DP_STAT_DROP_TTL]	= SKB_DROP_REASON_IP_INHDR,
	[DP_STAT_DROP_PROTO]	= SKB_DROP_REASON_UNHANDLED_PROTO,
	[DP_STAT_DROP_INNER]	= SKB_DROP_REASON_HDR_TRUNC,
	[DP_STAT_DROP_DOWN]	= SKB_DROP_REASON_DEV_READY,
	[DP_STAT_DROP_NOROUTE]	= SKB_DROP_REASON_IP_INNOROUTES,
	[DP_STAT_DROP_NONEIGH]	= SKB_DROP_REASON_NEIGH_FAILED,
	[DP_STAT_DROP_MTU]	= SKB_DROP_REASON_PKT_TOO_BIG,
	[DP_STAT_DROP_NOMEM]	= SKB_DROP_REASON_NOMEM,
	[DP_STAT_DROP_OTHERHOST] = SKB_DROP_REASON_OTHERHOST,
	[DP_STAT_HELLO_BAD]	= SKB_DROP_REASON_HDR_TRUNC,
	[DP_STAT_DROP_VLAN]	= SKB_DROP_REASON_UNHANDLED_PROTO,
	[DP_STAT_HELLO_NOT_GROUP] = SKB_DROP_REASON_OTHERHOST,
	[DP_STAT_TX_NOT_FABRIC]	= SKB_DROP_REASON_IP_OUTNOROUTES,
	[DP_STAT_TX_PROTO]	= SKB_DROP_REASON_UNHANDLED_PROTO,
	[DP_STAT_TX_NOROUTE]	= SKB_DROP_REASON_IP_OUTNOROUTES,
};

/* Count a drop and free the frame with the matching core reason. */
void dp_drop(struct dp_priv *dp, struct sk_buff *skb, enum dp_stat stat)
{
	u16 reason = stat < DP_STAT_MAX ? dp_drop_reasons[stat] : 0;

	dp_count(dp, stat);
	kfree_skb_reason(skb, reason ?: SKB_DROP_REASON_NOT_SPECIFIED);
}

/* ---- onto a port -------------------------------------------------------- */

/*
 * Bumped whenever any device is stacked or unstacked, registered or
 * unregistered (dp_netdev_event()): the ports' cached dp_port_whole()
 * answers are then worked out again.
 */
atomic_t dp_stack_gen = ATOMIC_INIT(1);

/* Hardware beneath, or other devices: not a plain software device. */
static bool dp_dev_plain(const struct net_device *dev)
{
	return !dev->dev.parent && list_empty(&dev->adj_list.lower);
}

static int dp_lower_not_plain(struct net_device *lower,
			      struct netdev_nested_priv *priv)
{
	return !dp_dev_plain(lower);
}

/* The walk behind dp_port_whole(); under RCU. */
static bool dp_dev_whole(struct net_device *dev)
{
	struct netdev_nested_priv priv = {};
	struct net_device *peer, *master;

	if (!dp_dev_plain(dev))
		return false;
	if (!dev->netdev_ops->ndo_get_peer_dev)
		return true;
	peer = dev->netdev_ops->ndo_get_peer_dev(dev);
	if (!peer)
		return true;
	if (!dp_dev_plain(peer))
		return false;
	master = netdev_master_upper_dev_get_rcu(peer);
	if (!master || master->rtnl_link_ops == &dp_link_ops)
		return true;
	return !netdev_walk_all_lower_dev_rcu(master, dp_lower_not_plain,
					      &priv);
}

/*
 * Whether @port's device carries our super-packets and partial checksums
 * whole: a software device that no hardware or other device is beneath,
 * nor behind its peer.  Worked out again after any change of stacking
 * anywhere (dp_stack_gen), under RCU without RTNL: a stale answer for a
 * device being stacked this very moment costs one frame, and the core
 * still segments for a device that lacks the features.
 */
static bool dp_port_whole(struct dp_port *port)
{
	unsigned int gen = atomic_read(&dp_stack_gen), c = READ_ONCE(port->whole);
	bool whole;

	if (c >> 1 == (gen & (UINT_MAX >> 1)))
		return c & 1;
	whole = dp_dev_whole(port->dev);
	WRITE_ONCE(port->whole, gen << 1 | whole);
	return whole;
}

/*
 * Send the frame as complete frames: segmented, checksums filled in.
 * Consumes the skb.  The Ethernet header is in place and skb->dev is the
 * port, which dp_gso_segment() reads for the header length.  A frame that
 * cannot be completed (a malformed super-packet or partial checksum from
 * a neighbour's cable, or no memory) is dropped and counted both on the
 * port (tx_dropped) and on dp0 (tx_complete_fail): the port's counter
 * alone would not say that dpillar dropped it, nor why.
 */
static void dp_send_complete(const struct dp_port *port, struct sk_buff *skb)
{
	struct net_device *dev = skb->dev;
	struct sk_buff *segs, *next;

	if (!skb_is_gso(skb)) {
		if (skb_checksum_help(skb))
			goto drop;
		dp_port_queue(port, skb);
		return;
	}
	/*
	 * No checksum and no segmentation feature: both done here.  No
	 * scatter-gather either: every byte must be read for its checksum
	 * anyway, and skb_segment() then copies and sums in one pass into
	 * linear segments (one descriptor each), where frags would cost a
	 * second pass.
	 */
	segs = skb_gso_segment(skb, dev->features & NETIF_F_HIGHDMA);
	if (IS_ERR_OR_NULL(segs))
		goto drop;
	consume_skb(skb);
	skb_list_walk_safe(segs, skb, next) {
		skb_mark_not_on_list(skb);
		dp_port_queue(port, skb);
	}
	return;
drop:
	dev_core_stats_tx_dropped_inc(dev);
	dp_count(port->dp, DP_STAT_TX_COMPLETE_FAIL);
	kfree_skb(skb);
}

/* ---- NIC offloads on qualified ports ------------------------------------ */

/*
 * The NIC drivers whose hardware takes a frame's segmentation and
 * checksums by the offsets the driver writes into the descriptors, not
 * by parsing the frame from its ethertype: so a frame whose link-layer
 * header is ours plus Ethernet is segmented and checksummed as a plain
 * IP frame would be.  e1000 (Intel 8254x): e1000_tso() and
 * e1000_tx_csum() write skb_network_offset(), skb_transport_offset() and
 * the checksum offsets into the context descriptor and key only on
 * vlan_get_protocol(skb); QEMU's e1000 model segments by that descriptor
 * too (tested: selftests/nic_tcp_test.sh).  Not here though believed
 * alike, untested: igb, ixgbe (their MACLEN field, 7 bits, takes our 34
 * bytes).  Never: e1000e and vmxnet3, whose QEMU models parse the frame
 * from its ethertype (net_tx_pkt) and send a super-packet as one giant
 * frame or with wrong checksums; a driver absent from this list.  Nor
 * virtio_net, whose driver passes the offsets on whatever the ethertype
 * (virtio_net_hdr_from_skb()): a Linux host's tun marks a guest's
 * super-packet SKB_GSO_DODGY, and the tap or NIC it leaves the host by
 * (no NETIF_F_GSO_ROBUST) has validate_xmit_skb() check it by the GSO
 * callback of its ethertype, which for ours the host lacks: dropped
 * (selftests/dp_tapgso.py shows it on a host).
 */
static const char * const dp_nic_offload_drivers[] = {
	"e1000",
};

#ifdef DPILLAR_TEST_TOPOLOGIES
/*
 * The tests' builds only (never DKMS or the packages): every NIC counts
 * as qualified, so that a test sees an unqualified one (e1000e) fail on
 * this path.  Read when a port is added.
 */
static bool nic_offload_unqualified;
module_param(nic_offload_unqualified, bool, 0644);
MODULE_PARM_DESC(nic_offload_unqualified,
		 "Tests only: treat every NIC as qualified for nic_offload (sends bad frames)");
#endif

/*
 * Whether @dev is a NIC whose driver is qualified for our TCP frames'
 * offloads: a device on a bus (a parent device), nothing stacked beneath
 * it, its driver on the list.  Under RTNL, when it becomes a port: a
 * netdev's driver does not change while the netdev exists (unbinding the
 * driver unregisters it).
 */
bool dp_nic_offload_qualified(const struct net_device *dev)
{
	const struct device_driver *drv;

	if (!dev->dev.parent || !list_empty(&dev->adj_list.lower))
		return false;
	drv = dev->dev.parent->driver;
	if (!drv || !drv->name)
		return false;
#ifdef DPILLAR_TEST_TOPOLOGIES
	if (READ_ONCE(nic_offload_unqualified))
		return true;
#endif
	return match_string(dp_nic_offload_drivers,
			    ARRAY_SIZE(dp_nic_offload_drivers), drv->name) >= 0;
}

/* The GSO types a TCP super-packet may carry beside TCPV4 or TCPV6. */
#define DP_NIC_GSO_TCP_FLAGS	(SKB_GSO_DODGY | SKB_GSO_TCP_ECN | \
				 SKB_GSO_TCP_FIXEDID)

/**
 * dp_nic_offload_prep - present a frame to a NIC's offloads
 * @t: the fabric (which header flag says coordinates follow)
 * @skb: the frame, its Ethernet header at skb->data and the dpillar
 *	header behind it
 *
 * Only a TCP super-packet or TCP partial checksum of IPv4 or IPv6 with
 * its headers in the linear area, exactly Ethernet, our header (no
 * coordinates), the IP header (IPv6: no extension header) and TCP, is
 * taken: the network header is set at the IP header, the transport
 * header at TCP, skb->protocol to the IP version (what drivers key on,
 * vlan_get_protocol()), so that the core (netif_skb_features(),
 * validate_xmit_skb()) and the driver see an IP frame whose link-layer
 * header is Ethernet plus ours.  Where the NIC lacks a feature the core
 * segments or checksums it itself, by the IP and TCP callbacks, and each
 * segment gets a copy of every byte in front of TCP's payload, as the
 * NIC's segmentation gives.  Our header holds nothing that differs
 * between segments (no length, checksum or id), so a copy of it is
 * right on every one.  From here on taps (af_packet), tc and netfilter's
 * egress hook see the frame as IP (its bytes are unchanged; a packet
 * socket of type SOCK_DGRAM gets the IP packet).
 *
 * Return: true when the frame was made so; false (nothing changed) for
 * any other frame, which takes the software path.
 */
VISIBLE_IF_KUNIT bool dp_nic_offload_prep(const struct dp_topo *t,
					  struct sk_buff *skb)
{
	unsigned int nh = ETH_HLEN + DP_HDR_LEN, th, gso;
	const struct dpillar_hdr *h;
	const struct tcphdr *tcp;
	__be16 proto;
	int start;

	if (skb->ip_summed != CHECKSUM_PARTIAL || skb->encapsulation ||
	    skb->csum_offset != offsetof(struct tcphdr, check))
		return false;
	/* TCP behind at least our header and an IPv4 header, all linear. */
	start = skb_checksum_start_offset(skb);
	if (start < (int)(nh + sizeof(struct iphdr)) ||
	    skb_headlen(skb) < start + sizeof(*tcp))
		return false;
	th = start;
	h = (const struct dpillar_hdr *)(skb->data + ETH_HLEN);
	if (h->flags & dp_topo_coords_flag(t))
		return false;
	proto = h->proto;
	gso = skb_shinfo(skb)->gso_type & ~DP_NIC_GSO_TCP_FLAGS;
	if (proto == htons(ETH_P_IP)) {
		const struct iphdr *iph = (const void *)(skb->data + nh);

		if (iph->version != 4 ||
		    iph->ihl * 4 != th - nh || iph->protocol != IPPROTO_TCP ||
		    (skb_is_gso(skb) && gso != SKB_GSO_TCPV4))
			return false;
	} else if (proto == htons(ETH_P_IPV6)) {
		const struct ipv6hdr *ip6 = (const void *)(skb->data + nh);

		if (th != nh + sizeof(*ip6) || ip6->version != 6 ||
		    ip6->nexthdr != IPPROTO_TCP ||
		    (skb_is_gso(skb) && gso != SKB_GSO_TCPV6))
			return false;
	} else {
		return false;
	}
	tcp = (const struct tcphdr *)(skb->data + th);
	if (tcp->doff < 5 || skb_headlen(skb) < th + tcp->doff * 4)
		return false;

	skb_set_network_header(skb, nh);
	skb_set_transport_header(skb, th);
	skb->mac_len = nh;
	skb->protocol = proto;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(dp_nic_offload_prep);

/*
 * dp_port_xmit() of a super-packet or a frame with a partial checksum:
 * whole to a qualified NIC when the operator asked (nic_offload) and it
 * is a TCP frame; whole to a software port; completed here toward any
 * other.
 */
void dp_port_xmit_incomplete(struct dp_port *port, struct sk_buff *skb)
{
	if (port->nic_ok && READ_ONCE(port->dp->nic_offload) &&
	    dp_nic_offload_prep(&port->dp->topo, skb)) {
		dp_count(port->dp, DP_STAT_TX_NIC_OFFLOAD);
	} else if (!dp_port_whole(port)) {
		dp_send_complete(port, skb);
		return;
	}
	dp_port_queue(port, skb);
}
EXPORT_SYMBOL_IF_KUNIT(dp_port_xmit_incomplete);
