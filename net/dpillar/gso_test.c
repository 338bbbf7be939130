// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the way out toward a NIC (gso.c, dp_port_xmit()): a port
 * with a parent device gets complete frames, so a TCP super-packet leaves
 * it as segments, and one that cannot be segmented is dropped and counted
 * (tx_complete_fail, dp0's and the port's tx_dropped), nothing sent; what
 * a port does not take is counted (tx_port_drop).  The
 * ports' lower devices keep what is sent to them in dpg_sent.
 *
 * Not tested: a partial checksum that skb_checksum_help() cannot complete
 * (csum_start or csum_offset outside the linear data).  The core WARNs
 * once for it, which the guest rig takes for a kernel splat; the drop and
 * the counter are the same code as the segmentation failure's.
 */

#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <net/checksum.h>

#include "send.h"
#include "test_lib.h"

static struct sk_buff_head dpg_sent;

static netdev_tx_t dpg_xmit(struct sk_buff *skb, struct net_device *dev)
{
	skb_queue_tail(&dpg_sent, skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops dpg_lower_ops = {
	.ndo_start_xmit = dpg_xmit,
};

/* Never registered: only its address is read (dp_port_whole()). */
static struct device dpg_bus_dev;

static void dpg_unparent(void *arg)
{
	struct net_device *lower = arg;

	lower->dev.parent = NULL;
}

/*
 * dp0 of DPillar (4,2) node 0 whose port 0 is a NIC as dp_port_whole()
 * sees one (a parent device), transmitting at once into dpg_sent.
 */
static struct dpt_dev *dpg_dev(struct kunit *test)
{
	struct dpt_dev *d = dpt_dev_create(test, 4, 2, 0);
	struct net_device *lower = d->lower[0];

	dpt_port_capture(test, lower, &dpg_lower_ops);
	lower->dev.parent = &dpg_bus_dev;
	KUNIT_ASSERT_EQ(test,
			kunit_add_action_or_reset(test, dpg_unparent, lower),
			0);
	return d;
}

#define DPG_MSS		1000
#define DPG_SEGS	3
#define DPG_HDRS	(ETH_HLEN + DP_HDR_LEN + sizeof(struct iphdr) + \
			 sizeof(struct tcphdr))

/*
 * A TCP/IPv4 super-packet of DPG_SEGS full segments from node 0 to @dst,
 * as dp_send_on() hands it to dp_port_xmit() toward port 0: Ethernet
 * header pushed, network header at the dpillar header, partial checksum.
 */
static struct sk_buff *dpg_tcp_gso(struct kunit *test, struct dpt_dev *d,
				   u32 dst, unsigned int gso_type)
{
	unsigned int len = DPG_MSS * DPG_SEGS;
	struct dpillar_hdr *h;
	struct sk_buff *skb;
	struct tcphdr *th;
	struct iphdr *iph;
	struct ethhdr *eth;

	skb = alloc_skb(NET_SKB_PAD + DPG_HDRS + len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, NET_SKB_PAD);
	eth = skb_put(skb, ETH_HLEN);
	eth_broadcast_addr(eth->h_dest);
	ether_addr_copy(eth->h_source, d->lower[0]->dev_addr);
	eth->h_proto = htons(DPILLAR_ETHERTYPE);
	h = skb_put(skb, DP_HDR_LEN);
	dpt_hdr(h, DPILLAR_T_DATA, 0, dst);
	iph = skb_put_zero(skb, sizeof(*iph));
	iph->version = 4;
	iph->ihl = 5;
	iph->ttl = 64;
	iph->protocol = IPPROTO_TCP;
	iph->tot_len = htons(sizeof(*iph) + sizeof(*th) + len);
	iph->saddr = htonl(0x0a000001);
	iph->daddr = htonl(0x0a000002);
	iph->check = ip_fast_csum(iph, iph->ihl);
	th = skb_put_zero(skb, sizeof(*th));
	th->source = htons(40000);
	th->dest = htons(5201);
	th->doff = sizeof(*th) / 4;
	th->ack = 1;
	th->check = ~csum_tcpudp_magic(iph->saddr, iph->daddr, 0, IPPROTO_TCP,
				       0);
	memset(skb_put(skb, len), 0x5a, len);

	skb_reset_mac_header(skb);
	skb_set_network_header(skb, ETH_HLEN);
	skb_set_transport_header(skb, (u8 *)th - skb->data);
	skb->protocol = htons(DPILLAR_ETHERTYPE);
	skb->dev = d->lower[0];
	skb->ip_summed = CHECKSUM_PARTIAL;
	skb->csum_start = skb_transport_header(skb) - skb->head;
	skb->csum_offset = offsetof(struct tcphdr, check);
	skb_shinfo(skb)->gso_size = DPG_MSS;
	skb_shinfo(skb)->gso_segs = DPG_SEGS;
	skb_shinfo(skb)->gso_type = gso_type;
	return skb;
}

/* dp_port_xmit() toward port 0 as the data path calls it (softirq, RCU). */
static void dpg_port_xmit(struct dpt_dev *d, struct sk_buff *skb)
{
	local_bh_disable();
	rcu_read_lock();
	dp_port_xmit(d->port[0], skb);
	rcu_read_unlock();
	local_bh_enable();
}

/* tx_dropped as dp0's and the port's ndo_get_stats64 sum them. */
static u64 dpg_tx_dropped(struct net_device *dev)
{
	struct rtnl_link_stats64 st;

	dev_get_stats(dev, &st);
	return st.tx_dropped;
}

/* A super-packet leaves a NIC port as complete frames. */
static void dpg_complete_segments(struct kunit *test)
{
	struct dpt_dev *d = dpg_dev(test);
	struct sk_buff *skb;
	u32 n = 0;

	dpg_port_xmit(d, dpg_tcp_gso(test, d, 1, SKB_GSO_TCPV4));
	while ((skb = skb_dequeue(&dpg_sent))) {
		const struct dpillar_hdr *h = (void *)(skb->data + ETH_HLEN);
		u8 ip_summed = skb->ip_summed;

		KUNIT_EXPECT_FALSE(test, skb_is_gso(skb));
		KUNIT_EXPECT_NE(test, ip_summed, CHECKSUM_PARTIAL);
		KUNIT_EXPECT_EQ(test, skb->len, DPG_HDRS + DPG_MSS);
		KUNIT_EXPECT_EQ(test, h->type, DPILLAR_T_DATA);
		KUNIT_EXPECT_EQ(test, ntohl(h->dst), 1);
		kfree_skb(skb);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, DPG_SEGS);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_TX_COMPLETE_FAIL), 0);
	KUNIT_EXPECT_EQ(test, dpg_tx_dropped(d->dev), 0);
	KUNIT_EXPECT_EQ(test, dpg_tx_dropped(d->lower[0]), 0);
}

/*
 * A super-packet that cannot be segmented (a TCP segment that says it is
 * UDP's: tcp4_gso_segment() refuses it, as a neighbour's malformed frame
 * would be refused) is dropped, counted once on dp0 and on the port, and
 * nothing reaches the NIC.
 */
static void dpg_complete_fail(struct kunit *test)
{
	struct dpt_dev *d = dpg_dev(test);

	dpg_port_xmit(d, dpg_tcp_gso(test, d, 1, SKB_GSO_UDP_L4));
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpg_sent), 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_TX_COMPLETE_FAIL), 1);
	KUNIT_EXPECT_EQ(test, dpg_tx_dropped(d->dev), 1);
	KUNIT_EXPECT_EQ(test, dpg_tx_dropped(d->lower[0]), 1);
	/* Not a frame from the wire: no receive outcome either. */
	KUNIT_EXPECT_EQ(test, dpt_stat_outcomes(d), 0);
}

/*
 * A port that does not take what it is given (here: down, so
 * dev_queue_xmit() drops it with -ENETDOWN) counts every frame lost
 * there in tx_port_drop and in dp0's tx_dropped: each segment of a
 * super-packet once, and nothing as tx_complete_fail.
 */
static void dpg_port_drop(struct kunit *test)
{
	struct dpt_dev *d = dpg_dev(test);

	d->lower[0]->flags &= ~IFF_UP;
	dpg_port_xmit(d, dpg_tcp_gso(test, d, 1, SKB_GSO_TCPV4));
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpg_sent), 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_TX_PORT_DROP), DPG_SEGS);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_TX_COMPLETE_FAIL), 0);
	KUNIT_EXPECT_EQ(test, dpg_tx_dropped(d->dev), DPG_SEGS);
}

/*
 * NIC offloads (send.c, dp_nic_offload_prep()): port 0's NIC qualified
 * and the device's nic_offload on, its features @features.
 */
static struct dpt_dev *dpg_offload_dev(struct kunit *test,
				       netdev_features_t features)
{
	struct dpt_dev *d = dpg_dev(test);

	d->port[0]->nic_ok = true;
	WRITE_ONCE(d->dp->nic_offload, true);
	d->lower[0]->features = features;
	return d;
}

/* The frame is Ethernet, our header, IPv4 and TCP, as the NIC sees it. */
static void dpg_expect_ip(struct kunit *test, struct sk_buff *skb)
{
	const struct ethhdr *eth = (const struct ethhdr *)skb->data;
	__be16 proto = skb->protocol;

	KUNIT_EXPECT_EQ(test, ntohs(eth->h_proto), DPILLAR_ETHERTYPE);
	KUNIT_EXPECT_EQ(test, ntohs(proto), ETH_P_IP);
	KUNIT_EXPECT_EQ(test, skb_network_offset(skb), ETH_HLEN + DP_HDR_LEN);
	KUNIT_EXPECT_EQ(test, skb_transport_offset(skb),
			ETH_HLEN + DP_HDR_LEN + (int)sizeof(struct iphdr));
	KUNIT_EXPECT_EQ(test, ((struct dpillar_hdr *)(eth + 1))->type,
			DPILLAR_T_DATA);
}

/*
 * A qualified NIC with TSO gets the super-packet whole, presented as an
 * IP frame whose link-layer header is Ethernet plus ours; counted in
 * tx_nic_offload.
 */
static void dpg_offload_whole(struct kunit *test)
{
	struct dpt_dev *d = dpg_offload_dev(test, NETIF_F_SG |
					    NETIF_F_HW_CSUM | NETIF_F_TSO);
	struct sk_buff *skb;

	dpg_port_xmit(d, dpg_tcp_gso(test, d, 1, SKB_GSO_TCPV4));
	KUNIT_ASSERT_EQ(test, skb_queue_len(&dpg_sent), 1);
	skb = skb_dequeue(&dpg_sent);
	KUNIT_EXPECT_TRUE(test, skb_is_gso(skb));
	KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->gso_size, DPG_MSS);
	KUNIT_EXPECT_EQ(test, skb->len, DPG_HDRS + DPG_MSS * DPG_SEGS);
	dpg_expect_ip(test, skb);
	kfree_skb(skb);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_TX_NIC_OFFLOAD), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_TX_COMPLETE_FAIL), 0);
}

/*
 * A qualified NIC without the features (the operator's ethtool -K): the
 * core segments and checksums by the IP and TCP callbacks, not ours, and
 * every segment is a valid frame with our header copied.
 */
static void dpg_offload_core_segments(struct kunit *test)
{
	struct dpt_dev *d = dpg_offload_dev(test, 0);
	struct sk_buff *skb;
	struct iphdr *ip;
	u32 n = 0;

	/*
	 * TCP's pseudo-header sum over the whole super-packet's length
	 * (__tcp_v4_send_check()), which tcp_gso_segment() adjusts to each
	 * segment's.
	 */
	skb = dpg_tcp_gso(test, d, 1, SKB_GSO_TCPV4);
	ip = (struct iphdr *)(skb->data + ETH_HLEN + DP_HDR_LEN);
	tcp_hdr(skb)->check = ~csum_tcpudp_magic(ip->saddr, ip->daddr,
						 skb->len - skb_transport_offset(skb),
						 IPPROTO_TCP, 0);
	dpg_port_xmit(d, skb);
	while ((skb = skb_dequeue(&dpg_sent))) {
		const struct iphdr *iph;
		u8 ip_summed = skb->ip_summed;
		unsigned int off, len;
		__sum16 sum;

		KUNIT_EXPECT_FALSE(test, skb_is_gso(skb));
		KUNIT_EXPECT_NE(test, ip_summed, CHECKSUM_PARTIAL);
		KUNIT_EXPECT_EQ(test, skb->len, DPG_HDRS + DPG_MSS);
		dpg_expect_ip(test, skb);
		KUNIT_ASSERT_EQ(test, skb_linearize(skb), 0);
		iph = (const struct iphdr *)(skb->data + ETH_HLEN + DP_HDR_LEN);
		KUNIT_EXPECT_EQ(test, ntohs(iph->tot_len),
				skb->len - ETH_HLEN - DP_HDR_LEN);
		sum = ip_fast_csum(iph, iph->ihl);
		KUNIT_EXPECT_EQ(test, (__force u16)sum, 0);
		off = skb_transport_offset(skb);
		len = skb->len - off;
		sum = csum_tcpudp_magic(iph->saddr, iph->daddr, len,
					IPPROTO_TCP,
					skb_checksum(skb, off, len, 0));
		KUNIT_EXPECT_EQ(test, (__force u16)sum, 0);
		kfree_skb(skb);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, DPG_SEGS);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_TX_NIC_OFFLOAD), 1);
}

/*
 * Everything else takes the software path as before: an unqualified
 * NIC, the setting off, a frame that is not TCP's (here UDP_L4, which
 * our segmentation refuses as in dpg_complete_fail), one carrying
 * coordinates.
 */
static void dpg_offload_refused(struct kunit *test)
{
	static const struct {
		const char *what;
		bool nic_ok, on;
		unsigned int gso_type;
	} cases[] = {
		{ "unqualified NIC", false, true, SKB_GSO_TCPV4 },
		{ "setting off", true, false, SKB_GSO_TCPV4 },
		{ "UDP_L4", true, true, SKB_GSO_UDP_L4 },
	};
	const struct dp_topo_coords_ext coords = { .flag = 0x80 };
	const struct dp_topo_ops ops = { .coords = &coords };
	const struct dp_topo t = { .ops = &ops };
	struct dpillar_hdr *h;
	struct sk_buff *skb;
	struct dpt_dev *d;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		d = dpg_offload_dev(test, NETIF_F_SG | NETIF_F_HW_CSUM |
				    NETIF_F_TSO);
		d->port[0]->nic_ok = cases[i].nic_ok;
		WRITE_ONCE(d->dp->nic_offload, cases[i].on);
		dpg_port_xmit(d, dpg_tcp_gso(test, d, 1, cases[i].gso_type));
		while ((skb = skb_dequeue(&dpg_sent))) {
			__be16 proto = skb->protocol;

			KUNIT_EXPECT_FALSE_MSG(test, skb_is_gso(skb), "%s",
					       cases[i].what);
			KUNIT_EXPECT_EQ_MSG(test, ntohs(proto),
					    DPILLAR_ETHERTYPE, "%s",
					    cases[i].what);
			kfree_skb(skb);
		}
		KUNIT_EXPECT_EQ_MSG(test,
				    dpt_stat(d, DP_STAT_TX_NIC_OFFLOAD), 0,
				    "%s", cases[i].what);
	}

	/*
	 * Coordinates behind our header (S2 plan mode): not taken, though
	 * the same frame without them is.
	 */
	skb = dpg_tcp_gso(test, d, 1, SKB_GSO_TCPV4);
	h = (struct dpillar_hdr *)(skb->data + ETH_HLEN);
	h->flags |= coords.flag;
	KUNIT_EXPECT_FALSE(test, dp_nic_offload_prep(&t, skb));
	h->flags &= ~coords.flag;
	KUNIT_EXPECT_TRUE(test, dp_nic_offload_prep(&t, skb));
	kfree_skb(skb);
}

static int dpg_init(struct kunit *test)
{
	skb_queue_head_init(&dpg_sent);
	return 0;
}

/*
 * dp0 takes no netpoll (netconsole): its transmit path takes BH spinlocks
 * that a netpoll transmit with IRQs off would deadlock on (issue 53,
 * item 7); netpoll_setup() refuses a device with this flag.
 */
static void dpg_no_netpoll(struct kunit *test)
{
	struct dpt_dev *d = dpt_dev_create(test, 4, 2, 0);

	KUNIT_EXPECT_TRUE(test, d->dev->priv_flags & IFF_DISABLE_NETPOLL);
}

#ifdef CONFIG_RPS
/*
 * A data frame as GRO sees it (skb->data at the dpillar header) with an
 * IPv4 packet of @proto behind it, ports 40000 -> 5201 where it has them.
 */
static struct sk_buff *dpg_gro_frame(struct kunit *test, u8 proto)
{
	struct sk_buff *skb;
	struct iphdr *iph;
	__be16 *ports;

	skb = alloc_skb(NET_SKB_PAD + 128, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, NET_SKB_PAD);
	dpt_hdr(skb_put(skb, DP_HDR_LEN), DPILLAR_T_DATA, 1, 0);
	iph = skb_put_zero(skb, sizeof(*iph));
	iph->version = 4;
	iph->ihl = 5;
	iph->ttl = 64;
	iph->protocol = proto;
	iph->tot_len = htons(sizeof(*iph) + 8);
	iph->saddr = htonl(0x0a000001);
	iph->daddr = htonl(0x0a000002);
	iph->check = ip_fast_csum(iph, iph->ihl);
	ports = skb_put_zero(skb, 8);
	ports[0] = htons(40000);
	ports[1] = htons(5201);
	skb->protocol = htons(DPILLAR_ETHERTYPE);
	/* The flow dissector takes its netns from the device. */
	skb->dev = init_net.loopback_dev;
	return skb;
}

/*
 * Issue 53, item 11: GRO's hash for RPS is an L4 hash only where the
 * inner flow has ports (TCP, UDP), an L3 one otherwise (ICMP, 253), as
 * __skb_get_hash() would set them; RFS takes an L4 hash as the socket's.
 */
static void dpg_gro_hash_type(struct kunit *test)
{
	static const struct {
		u8 proto;
		bool l4;
	} cases[] = {
		{ IPPROTO_TCP, true },
		{ IPPROTO_UDP, true },
		{ IPPROTO_ICMP, false },
		{ 253, false },	/* experimental: no ports */
	};
	struct sk_buff *skb;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		skb = dpg_gro_frame(test, cases[i].proto);
		rcu_read_lock();
		dp_gro_hash(skb, htons(ETH_P_IP), DP_HDR_LEN);
		rcu_read_unlock();
		KUNIT_EXPECT_NE_MSG(test, skb->hash, 0U, "proto %u",
				    cases[i].proto);
		KUNIT_EXPECT_FALSE(test, (bool)skb->sw_hash);
		KUNIT_EXPECT_EQ_MSG(test, (bool)skb->l4_hash, cases[i].l4,
				    "proto %u", cases[i].proto);
		kfree_skb(skb);
	}
}
#endif

static void dpg_exit(struct kunit *test)
{
	skb_queue_purge(&dpg_sent);
}

static struct kunit_case dpg_cases[] = {
	KUNIT_CASE(dpg_complete_segments),
	KUNIT_CASE(dpg_complete_fail),
	KUNIT_CASE(dpg_port_drop),
	KUNIT_CASE(dpg_offload_whole),
	KUNIT_CASE(dpg_offload_core_segments),
	KUNIT_CASE(dpg_offload_refused),
	KUNIT_CASE(dpg_no_netpoll),
#ifdef CONFIG_RPS
	KUNIT_CASE(dpg_gro_hash_type),
#endif
	{}
};

static struct kunit_suite dpg_suite = {
	.name = "dpillar_gso",
	.init = dpg_init,
	.exit = dpg_exit,
	.test_cases = dpg_cases,
};

kunit_test_suites(&dpg_suite);
