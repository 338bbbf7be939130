// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the receive path (rx.c, dp_handle_frame()): header
 * parsing and every drop on malformed or misdirected frames, delivery,
 * relaying decisions, and a fuzz run in which every frame must end in
 * exactly one counter.  No test transmits: relayed frames find no route.
 */

#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/prandom.h>

#include "test_lib.h"
#include "topo_dpillar.h"

static const u8 dpt_peer_mac[ETH_ALEN] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x42 };

/* (4,3), we are 1:0.1.0; the frames come from 2:1.1.1. */
static struct dpt_dev *dpt_rx_dev(struct kunit *test, u32 *self, u32 *peer)
{
	struct dp_topo_params prm = { .kind = DP_TOPO_DPILLAR, .n = 4, .k = 3 };
	struct dp_topo t;

	KUNIT_ASSERT_EQ(test, dp_topo_init(&t, &prm, NULL), 0);
	KUNIT_ASSERT_EQ(test, dp_addr_parse(&t, "1:0.1.0", self, NULL), 0);
	KUNIT_ASSERT_EQ(test, dp_addr_parse(&t, "2:1.1.1", peer, NULL), 0);
	return dpt_dev_create(test, 4, 3, *self);
}

/* Receive @len bytes of @buf on port 0; the frame must be consumed. */
static void dpt_rx_consumed(struct kunit *test, struct dpt_dev *d,
			    const void *buf, unsigned int len,
			    unsigned int linear)
{
	struct sk_buff *skb = dpt_frame(test, d, 0, dpt_peer_mac,
					DPILLAR_ETHERTYPE, buf, len, linear);
	rx_handler_result_t ret = dpt_rx(&skb);

	KUNIT_EXPECT_EQ(test, ret, RX_HANDLER_CONSUMED);
	if (ret != RX_HANDLER_CONSUMED)
		kfree_skb(skb);	/* still ours */
}

/* A frame of @buf for us, handed to the stack. */
static void dpt_rx_another(struct kunit *test, struct dpt_dev *d,
			   const void *buf, unsigned int len)
{
	struct sk_buff *skb = dpt_frame(test, d, 0, dpt_peer_mac,
					DPILLAR_ETHERTYPE, buf, len, len);

	KUNIT_EXPECT_EQ(test, dpt_rx(&skb), RX_HANDLER_ANOTHER);
	kfree_skb(skb);
}

static void dpt_rx_other_ethertype(struct kunit *test)
{
	u8 buf[64] = { 0x45 };
	struct sk_buff *skb, *orig;
	u32 self, peer;
	struct dpt_dev *d = dpt_rx_dev(test, &self, &peer);

	orig = dpt_frame(test, d, 0, dpt_peer_mac, ETH_P_IP, buf, sizeof(buf),
			 sizeof(buf));
	skb = orig;
	KUNIT_EXPECT_EQ(test, dpt_rx(&skb), RX_HANDLER_PASS);
	KUNIT_EXPECT_PTR_EQ(test, skb, orig);
	KUNIT_EXPECT_EQ(test, skb->len, sizeof(buf));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_RX_FRAMES), 0);
	kfree_skb(skb);
}

static void dpt_rx_short(struct kunit *test)
{
	struct dpillar_hdr h;
	u32 self, peer, len;
	struct dpt_dev *d = dpt_rx_dev(test, &self, &peer);

	dpt_hdr(&h, DPILLAR_T_DATA, peer, self);
	for (len = 0; len < DP_HDR_LEN; len++)
		dpt_rx_consumed(test, d, &h, len, len);
	/* Short, with part of it in a fragment. */
	dpt_rx_consumed(test, d, &h, DP_HDR_LEN - 1, 4);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_RX_FRAMES), DP_HDR_LEN + 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_SHORT), DP_HDR_LEN + 1);
}

static void dpt_rx_bad_version(struct kunit *test)
{
	static const u8 versions[] = { 0, 2, 0x81, 0xff };
	struct dpillar_hdr h;
	u32 self, peer, i;
	struct dpt_dev *d = dpt_rx_dev(test, &self, &peer);

	for (i = 0; i < ARRAY_SIZE(versions); i++) {
		dpt_hdr(&h, DPILLAR_T_HELLO, peer, self);
		h.version = versions[i];
		dpt_rx_consumed(test, d, &h, sizeof(h), sizeof(h));
	}
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_VERSION),
			ARRAY_SIZE(versions));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_BAD), 0);
}

static void dpt_rx_dev_down(struct kunit *test)
{
	u8 buf[DP_HDR_LEN + sizeof(struct iphdr)] = {};
	struct dpillar_hdr *h = (void *)buf;
	u32 self, peer;
	struct dpt_dev *d = dpt_rx_dev(test, &self, &peer);

	/*
	 * dev_close() while ndo_stop() runs: no longer running, IFF_UP
	 * still set (it is cleared after ndo_stop() returns).  A frame
	 * taken then would fill the tables dp_stop() is emptying.
	 */
	clear_bit(__LINK_STATE_START, &d->dev->state);
	dpt_hdr(h, DPILLAR_T_DATA, peer, self);
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	dpt_hdr(h, DPILLAR_T_HELLO, peer, DPILLAR_NODE_NONE);
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_DOWN), 2);
	/* And once it is down. */
	d->dev->flags &= ~IFF_UP;
	dpt_hdr(h, DPILLAR_T_DATA, peer, self);
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_DOWN), 3);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DELIVERED), 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 0);
}

static void dpt_rx_bad_type(struct kunit *test)
{
	/*
	 * 3 and 4 are path probes, 5 to 7 shortcut discovery and the data
	 * on its shortcuts: 8 is nobody's.
	 */
	static const u8 types[] = { 0, 8, 0x80, 0xff };
	u8 buf[DP_HDR_LEN + sizeof(struct iphdr)] = {};
	struct dpillar_hdr *h = (void *)buf;
	u32 self, peer, i;
	struct dpt_dev *d = dpt_rx_dev(test, &self, &peer);

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		dpt_hdr(h, types[i], peer, self);
		dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	}
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_TYPE), ARRAY_SIZE(types));
}

/* Unicast to another MAC (a switch flooded it): only its owner routes it. */
static void dpt_rx_other_host(struct kunit *test)
{
	u8 buf[DP_HDR_LEN + sizeof(struct iphdr)] = {};
	struct dpillar_hdr *h = (void *)buf;
	rx_handler_result_t ret;
	struct sk_buff *skb;
	u32 self, peer;
	struct dpt_dev *d = dpt_rx_dev(test, &self, &peer);

	dpt_hdr(h, DPILLAR_T_DATA, peer, self);
	buf[DP_HDR_LEN] = 0x45;
	skb = dpt_frame(test, d, 0, dpt_peer_mac, DPILLAR_ETHERTYPE, buf,
			sizeof(buf), sizeof(buf));
	skb->pkt_type = PACKET_OTHERHOST;
	ret = dpt_rx(&skb);
	KUNIT_EXPECT_EQ(test, ret, RX_HANDLER_CONSUMED);
	if (ret != RX_HANDLER_CONSUMED)
		kfree_skb(skb);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_OTHERHOST), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DELIVERED), 0);
}

/*
 * A VLAN tag taken off by the NIC (or by the stack's skb_vlan_untag()) for
 * a VLAN nobody configured: not our segment.  Neither delivered as if
 * untagged nor relayed, where the tag would be put back on.  Both a frame
 * for us and one in transit, each with a Hello too.
 */
static void dpt_rx_vlan(struct kunit *test)
{
	u8 buf[DP_HDR_LEN + sizeof(struct iphdr)] = {};
	struct dpillar_hdr *h = (void *)buf;
	u32 self, peer, dst[2];
	struct dpt_dev *d = dpt_rx_dev(test, &self, &peer);
	int i;

	dst[0] = self;
	dst[1] = peer;
	for (i = 0; i < 3; i++) {
		rx_handler_result_t ret;
		struct sk_buff *skb;

		if (i < 2)
			dpt_hdr(h, DPILLAR_T_DATA, peer, dst[i]);
		else
			dpt_hdr(h, DPILLAR_T_HELLO, peer, DPILLAR_NODE_NONE);
		buf[DP_HDR_LEN] = 0x45;
		skb = dpt_frame(test, d, 0, dpt_peer_mac, DPILLAR_ETHERTYPE,
				buf, sizeof(buf), sizeof(buf));
		__vlan_hwaccel_put_tag(skb, htons(ETH_P_8021Q), 100 + i);
		ret = dpt_rx(&skb);
		KUNIT_EXPECT_EQ(test, ret, RX_HANDLER_CONSUMED);
		if (ret != RX_HANDLER_CONSUMED)
			kfree_skb(skb);
	}
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_VLAN), 3);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DELIVERED), 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_FORWARDED), 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX) +
			      dpt_stat(d, DP_STAT_HELLO_BAD), 0);
}

static void dpt_rx_bad_addr(struct kunit *test)
{
	u8 buf[DP_HDR_LEN + sizeof(struct iphdr)] = {};
	struct dpillar_hdr *h = (void *)buf;
	u32 self, peer, nodes;
	struct dpt_dev *d = dpt_rx_dev(test, &self, &peer);

	nodes = d->dp->topo.nodes;
	dpt_hdr(h, DPILLAR_T_DATA, nodes, self);
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	dpt_hdr(h, DPILLAR_T_DATA, DPILLAR_NODE_NONE, self);
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	dpt_hdr(h, DPILLAR_T_DATA, peer, nodes);
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	dpt_hdr(h, DPILLAR_T_DATA, peer, DPILLAR_NODE_NONE);
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	dpt_hdr(h, DPILLAR_T_DATA, peer, self);
	h->waypoint = htonl(nodes);
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_ADDR), 5);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DELIVERED), 0);
}

/* An IPv4 or IPv6 packet for us, header in the linear area or not. */
static void dpt_rx_deliver_one(struct kunit *test, struct dpt_dev *d,
			       u32 src, u32 self, u16 proto,
			       unsigned int inner, unsigned int linear)
{
	struct dpillar_hdr *h;
	rx_handler_result_t ret;
	struct sk_buff *skb;
	u8 *buf, last = 0;

	buf = kunit_kzalloc(test, DP_HDR_LEN + inner, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	h = (void *)buf;
	dpt_hdr(h, DPILLAR_T_DATA, src, self);
	h->proto = htons(proto);
	buf[DP_HDR_LEN] = proto == ETH_P_IP ? 0x45 : 0x60;
	buf[DP_HDR_LEN + inner - 1] = 0x5a;
	skb = dpt_frame(test, d, 1, dpt_peer_mac, DPILLAR_ETHERTYPE, buf,
			DP_HDR_LEN + inner, linear);
	ret = dpt_rx(&skb);
	if (ret == RX_HANDLER_PASS)
		kfree_skb(skb);
	KUNIT_ASSERT_EQ(test, ret, RX_HANDLER_ANOTHER);
	KUNIT_EXPECT_PTR_EQ(test, skb->dev, d->dev);
	KUNIT_EXPECT_EQ(test, ntohs(skb->protocol), proto);
	KUNIT_EXPECT_EQ(test, skb->len, inner);
	KUNIT_EXPECT_EQ(test, (int)skb->pkt_type, PACKET_HOST);
	KUNIT_EXPECT_PTR_EQ(test, (void *)skb_network_header(skb),
			    (void *)skb->data);
	KUNIT_EXPECT_EQ(test, skb->data[0], buf[DP_HDR_LEN]);
	KUNIT_EXPECT_EQ(test, skb_copy_bits(skb, inner - 1, &last, 1), 0);
	KUNIT_EXPECT_EQ(test, last, 0x5a);
	kfree_skb(skb);
}

static void dpt_rx_deliver(struct kunit *test)
{
	u32 self, peer;
	struct dpt_dev *d = dpt_rx_dev(test, &self, &peer);
	unsigned int n4 = sizeof(struct iphdr), n6 = sizeof(struct ipv6hdr);

	dpt_rx_deliver_one(test, d, peer, self, ETH_P_IP, n4, ~0U);
	dpt_rx_deliver_one(test, d, peer, self, ETH_P_IP, 1400, ~0U);
	dpt_rx_deliver_one(test, d, peer, self, ETH_P_IPV6, n6, ~0U);
	/* Header and IP header split over the linear area and a page. */
	dpt_rx_deliver_one(test, d, peer, self, ETH_P_IP, 1400, 0);
	dpt_rx_deliver_one(test, d, peer, self, ETH_P_IP, 1400, 7);
	dpt_rx_deliver_one(test, d, peer, self, ETH_P_IPV6, 1400, DP_HDR_LEN + 3);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DELIVERED), 6);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_RX_FRAMES), 6);
	KUNIT_EXPECT_EQ(test, dpt_stat_outcomes(d), 6);
}

static void dpt_rx_bad_inner(struct kunit *test)
{
	u8 buf[DP_HDR_LEN + sizeof(struct ipv6hdr)] = {};
	struct dpillar_hdr *h = (void *)buf;
	u32 self, peer;
	struct dpt_dev *d = dpt_rx_dev(test, &self, &peer);

	dpt_hdr(h, DPILLAR_T_DATA, peer, self);
	h->proto = htons(ETH_P_ARP);
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	h->proto = 0;
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_PROTO), 2);

	h->proto = htons(ETH_P_IP);
	dpt_rx_consumed(test, d, buf, DP_HDR_LEN, DP_HDR_LEN);
	dpt_rx_consumed(test, d, buf, DP_HDR_LEN + sizeof(struct iphdr) - 1,
			DP_HDR_LEN);
	h->proto = htons(ETH_P_IPV6);
	dpt_rx_consumed(test, d, buf, DP_HDR_LEN + sizeof(struct ipv6hdr) - 1,
			DP_HDR_LEN + 8);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_INNER), 3);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DELIVERED), 0);
}

static void dpt_rx_relay_ttl(struct kunit *test)
{
	u8 buf[DP_HDR_LEN + sizeof(struct iphdr)] = {};
	struct dpillar_hdr *h = (void *)buf;
	u32 self, peer;
	struct dpt_dev *d = dpt_rx_dev(test, &self, &peer);

	/* To 0:0.0.0, through us. */
	dpt_hdr(h, DPILLAR_T_DATA, peer, 0);
	h->ttl = 1;
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	h->ttl = 0;
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_TTL), 2);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_FORWARDED), 0);
}

/*
 * S2 above 255 nodes (topo_s2.c, s2_ttl_renew()): a frame at TTL 1 with a
 * renewal count (flag 0x40, the word) is renewed and routed, not dropped
 * for its TTL; without a count, or with more than a sender gives (11 at
 * 2,880 nodes), it is.  (A fabric of at most 255 nodes renews nothing:
 * topo_s2_test.c, s2t_small_unchanged.)
 */
static void dpt_rx_relay_ttl_renew(struct kunit *test)
{
	struct dp_topo_params prm = { .kind = DP_TOPO_S2, .nodes = 2880,
				      .n = 12, .spaces = 4, .seed = 1 };
	u8 buf[DP_HDR_LEN + sizeof(struct iphdr)] = {};
	struct dpillar_hdr *h = (void *)buf;
	struct dpt_dev *d = dpt_dev_create_topo(test, &prm, 0);

	dpt_hdr(h, DPILLAR_T_DATA, 5, 100);
	h->ttl = 1;
	h->flags = 0x40;
	h->rword = htons(2);
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	/* renewed; no neighbour heard here, so no next hop */
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_TTL), 0);
	KUNIT_EXPECT_EQ(test, dpt_stat_outcomes(d), 1);
	h->flags = 0;
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	h->flags = 0x40;
	h->rword = htons(12);
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_TTL), 2);
}

/* Nobody heard: a frame to relay finds no next hop, and says why. */
static void dpt_rx_relay_noroute(struct kunit *test)
{
	u8 buf[DP_HDR_LEN + sizeof(struct iphdr)] = {};
	struct dpillar_hdr *h = (void *)buf;
	u32 self, peer, r;
	u64 reasons = 0;
	struct dpt_dev *d = dpt_rx_dev(test, &self, &peer);

	dpt_hdr(h, DPILLAR_T_DATA, peer, 0);
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	/* Bad flags from the wire: any combination only routes or drops. */
	h->flags = 0xff;
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_NOROUTE), 2);
	for (r = 0; r < DP_DROP_MAX; r++)
		reasons += dpt_route_stat(d, r);
	KUNIT_EXPECT_EQ(test, reasons, 2);
	KUNIT_EXPECT_EQ(test, dpt_route_stat(d, DPP_DROP_NOPATH), 0);
	KUNIT_EXPECT_EQ(test, dpt_route_stat(d, DP_DROP_ROUTE_BAD_ADDR), 0);
}

/*
 * SHORTCUT_DATA, the discovery fallback's frames (shortcut.c): delivered
 * at their destination like DATA; in transit, one more hop along a
 * shortcut of this node's within the frame's hop budget, and this node
 * has none: lost, as are bad headers; TTL 1 expires.  A device in a
 * paper mode has no fallback: the type is not one of its own.
 */
static void dpt_rx_shortcut_data(struct kunit *test)
{
	u8 buf[DP_HDR_LEN + sizeof(struct iphdr)] = {};
	struct dpillar_hdr *h = (void *)buf;
	u32 self, peer;
	struct dpt_dev *d = dpt_rx_dev(test, &self, &peer);

	dpt_hdr(h, DPILLAR_T_SHORTCUT_DATA, peer, self);
	dpt_rx_another(test, d, buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DELIVERED), 1);

	dpt_hdr(h, DPILLAR_T_SHORTCUT_DATA, peer, 0);
	h->rword = htons(5);
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	h->rword = 0;			/* spent before the destination */
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	h->rword = htons(5);
	h->flags = 1;			/* a topology's state: not here */
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	h->flags = 0;
	h->waypoint = htonl(self);
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	h->waypoint = htonl(DPILLAR_NODE_NONE);
	h->proto = htons(ETH_P_ARP);
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_SC_DATA_LOST), 5);
	h->proto = htons(ETH_P_IP);
	h->ttl = 1;
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_TTL), 1);

	WRITE_ONCE(d->dp->mode, DPP_SEL_AUTO);	/* the paper's */
	h->ttl = DPT_TTL;
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_TYPE), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_FORWARDED), 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_SC_DATA), 0);
	KUNIT_EXPECT_EQ(test, dpt_stat_outcomes(d), 8);
}

/*
 * The discovery fallback turned off (dp->fallback, "fallback off"), in the
 * default mode: SHORTCUT_DATA is then a type this device does not take,
 * for us or in transit, as in a paper mode, and so are the discovery
 * frames; a data frame the topology gives up on starts no discovery.
 * Turned on again, the same frames are delivered, and discovered for.
 */
static void dpt_rx_fallback_off(struct kunit *test)
{
	u8 buf[DP_HDR_LEN + sizeof(struct iphdr)] = {};
	struct dpillar_hdr *h = (void *)buf;
	u32 self, peer;
	struct dpt_dev *d = dpt_rx_dev(test, &self, &peer);

	KUNIT_ASSERT_TRUE(test, dp_sc_fallback(d->dp));
	WRITE_ONCE(d->dp->fallback, false);
	KUNIT_EXPECT_FALSE(test, dp_sc_fallback(d->dp));
	dpt_hdr(h, DPILLAR_T_SHORTCUT_DATA, peer, self);
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	dpt_hdr(h, DPILLAR_T_SHORTCUT_DATA, peer, 0);
	h->rword = htons(5);
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	dpt_hdr(h, DPILLAR_T_SHORTCUT_PROBE, peer, 0);
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_TYPE), 3);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DELIVERED), 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_SC_DATA_LOST), 0);

	/* No neighbour is reachable: routing gives up on it. */
	dpt_hdr(h, DPILLAR_T_DATA, peer, 0);
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_NOROUTE), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_SC_DISCOVER), 0);

	WRITE_ONCE(d->dp->fallback, true);
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_NOROUTE), 2);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_SC_DISCOVER), 1);
	dpt_hdr(h, DPILLAR_T_SHORTCUT_DATA, peer, self);
	dpt_rx_another(test, d, buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DELIVERED), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_TYPE), 3);
	KUNIT_EXPECT_EQ(test, dpt_stat_outcomes(d), 6);
}

/* A shared skb is not modified: the handler works on its own clone. */
static void dpt_rx_shared_skb(struct kunit *test)
{
	u8 buf[DP_HDR_LEN + sizeof(struct iphdr)] = {};
	struct dpillar_hdr *h = (void *)buf;
	struct sk_buff *skb, *orig;
	u32 self, peer;
	struct dpt_dev *d = dpt_rx_dev(test, &self, &peer);

	dpt_hdr(h, DPILLAR_T_DATA, peer, 0);
	orig = dpt_frame(test, d, 0, dpt_peer_mac, DPILLAR_ETHERTYPE, buf,
			 sizeof(buf), sizeof(buf));
	skb = skb_get(orig);
	KUNIT_EXPECT_EQ(test, dpt_rx(&skb), RX_HANDLER_CONSUMED);
	KUNIT_EXPECT_EQ(test, refcount_read(&orig->users), 1);
	KUNIT_EXPECT_EQ(test, orig->len, sizeof(buf));
	KUNIT_EXPECT_EQ(test, ((struct dpillar_hdr *)orig->data)->ttl,
			DPT_TTL);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_NOROUTE), 1);
	kfree_skb(orig);
}

/*
 * Random frames, mostly almost valid: each one is counted exactly once
 * as an outcome, and the handler never keeps a frame it does not deliver.
 * The ports are down, so nothing can be relayed (there is no qdisc).
 */
static void dpt_rx_fuzz(struct kunit *test)
{
	/*
	 * No path probes: an answered probe adds the outcome of its reply to
	 * the one of the frame (the guest suites cover probes).
	 */
	static const u8 types[] = { DPILLAR_T_DATA, DPILLAR_T_HELLO, 0,
				    DPILLAR_T_SHORTCUT_DATA };
	static const u16 protos[] = { ETH_P_IP, ETH_P_IPV6, ETH_P_ARP, 0 };
	const unsigned int frames = 3000;
	u8 buf[DP_HDR_LEN + 48], mac[ETH_ALEN];
	struct dpillar_hdr *h = (void *)buf;
	struct rnd_state rnd;
	u32 self, peer, i, nodes, len, r;
	unsigned int delivered = 0;
	struct sk_buff *skb;
	struct dpt_dev *d = dpt_rx_dev(test, &self, &peer);

	nodes = d->dp->topo.nodes;
	dpt_port_set(d, 0, false, true);
	dpt_port_set(d, 1, true, false);
	prandom_seed_state(&rnd, 2024);
	for (i = 0; i < frames; i++) {
		prandom_bytes_state(&rnd, buf, sizeof(buf));
		r = prandom_u32_state(&rnd);
		if (r & 1) {	/* mostly well-formed */
			h->version = (r & 0x30) ? DPILLAR_VERSION : h->version;
			h->type = types[(r >> 6) & 3];
			h->proto = htons(protos[(r >> 8) & 3]);
			h->src = htonl(prandom_u32_state(&rnd) % (nodes + 2));
			h->dst = htonl((r & 0x400) ? self :
				       prandom_u32_state(&rnd) % (nodes + 2));
			h->waypoint = htonl((r & 0x800) ? DPILLAR_NODE_NONE :
					    prandom_u32_state(&rnd) % (nodes + 2));
		}
		len = prandom_u32_state(&rnd) % (sizeof(buf) + 1);
		eth_random_addr(mac);
		if (r & 0x1000)
			mac[0] |= 1;	/* multicast source */
		skb = dpt_frame(test, d, r >> 31, mac, DPILLAR_ETHERTYPE, buf,
				len, prandom_u32_state(&rnd) % (len + 1));
		if (dpt_rx(&skb) == RX_HANDLER_ANOTHER) {
			delivered++;
			kfree_skb(skb);
		}
		if (!(i % 256))
			cond_resched();
	}
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_RX_FRAMES), frames);
	KUNIT_EXPECT_EQ(test, dpt_stat_outcomes(d), frames);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DELIVERED), delivered);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_FORWARDED), 0);
	KUNIT_EXPECT_GT(test, delivered, 0);
	kunit_info(test, "%u frames: %llu short, %llu bad version, %llu bad type, %llu bad addr, Hellos ok/miswired/bad %llu/%llu/%llu, %u delivered, %llu no route\n",
		   frames, dpt_stat(d, DP_STAT_DROP_SHORT),
		   dpt_stat(d, DP_STAT_DROP_VERSION),
		   dpt_stat(d, DP_STAT_DROP_TYPE), dpt_stat(d, DP_STAT_DROP_ADDR),
		   dpt_stat(d, DP_STAT_HELLO_RX),
		   dpt_stat(d, DP_STAT_HELLO_MISWIRED),
		   dpt_stat(d, DP_STAT_HELLO_BAD), delivered,
		   dpt_stat(d, DP_STAT_DROP_NOROUTE));
}

/*
 * Frames of the first wire version, as 7215587 sent them: captured with an
 * AF_PACKET socket on the veth between port 0 of 0:0.0 and port 1 of
 * 1:0.0 in a (4,2) fabric on a 6.12 guest, while 0:0.0 pinged 1:0.0 (ping
 * -s 8 -p 5a).  Ethernet headers cut off.  Its header's "reserved" is now
 * the routing word and its Hello's reserved bytes are tlv_len: zero in
 * both, so these frames must mean what they meant.
 */
static const u8 dpt_v1_hello[] = {	/* from 1:0.0 (node 4), port 1 */
	0x01, 0x02, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x04, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0x01, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x64,
};

static const u8 dpt_v1_data[] = {	/* 0:0.0 -> 1:0.0, TTL 64, ICMP echo */
	0x01, 0x01, 0x40, 0x00, 0x08, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04,
	0xff, 0xff, 0xff, 0xff, 0x45, 0x00, 0x00, 0x24,
	0x5f, 0xb9, 0x40, 0x00, 0x40, 0x01, 0xc7, 0x1c,
	0x0a, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x04,
	0x08, 0x00, 0x9d, 0x2d, 0x00, 0xcf, 0x00, 0x03,
	0x5a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static const u8 dpt_v1_hello_dst[ETH_ALEN] __aligned(2) = {
	0x03, 0x44, 0x50, 0x00, 0x00, 0x01 };
static const u8 dpt_v1_mac_a[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x0a };
static const u8 dpt_v1_mac_b[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x0b };

static void dpt_rx_v1_frames(struct kunit *test)
{
	struct dpt_dev *a = dpt_dev_create(test, 4, 2, 0);
	struct dpt_dev *b = dpt_dev_create(test, 4, 2, 4);
	rx_handler_result_t ret;
	struct sk_buff *skb;
	bool reach;

	/* 0:0.0 hears 1:0.0's Hello on its port 0 and learns it. */
	skb = dpt_frame(test, a, 0, dpt_v1_mac_b, DPILLAR_ETHERTYPE,
			dpt_v1_hello, sizeof(dpt_v1_hello),
			sizeof(dpt_v1_hello));
	/* Sent to the Hello group, as every version sends them. */
	ether_addr_copy(eth_hdr(skb)->h_dest, dpt_v1_hello_dst);
	skb->pkt_type = PACKET_MULTICAST;
	KUNIT_EXPECT_EQ(test, dpt_rx(&skb), RX_HANDLER_CONSUMED);
	KUNIT_EXPECT_EQ(test, dpt_stat(a, DP_STAT_HELLO_RX), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(a, DP_STAT_HELLO_BAD), 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(a, DP_STAT_HELLO_MISWIRED), 0);
	rcu_read_lock();
	reach = dp_reachable(&a->dp->vctx, 0, 0, 4);
	rcu_read_unlock();
	KUNIT_EXPECT_TRUE(test, reach);

	/* 1:0.0 gets 0:0.0's echo request on its port 1 and delivers it. */
	skb = dpt_frame(test, b, 1, dpt_v1_mac_a, DPILLAR_ETHERTYPE,
			dpt_v1_data, sizeof(dpt_v1_data), sizeof(dpt_v1_data));
	ret = dpt_rx(&skb);
	if (ret != RX_HANDLER_ANOTHER && ret != RX_HANDLER_CONSUMED)
		kfree_skb(skb);
	KUNIT_ASSERT_EQ(test, ret, RX_HANDLER_ANOTHER);
	KUNIT_EXPECT_EQ(test, ntohs(skb->protocol), ETH_P_IP);
	KUNIT_EXPECT_EQ(test, skb->len, sizeof(dpt_v1_data) - DP_HDR_LEN);
	KUNIT_EXPECT_EQ(test, dpt_stat(b, DP_STAT_DELIVERED), 1);
	kfree_skb(skb);
}

/* The routing drop counter named @name (the topology's reasons). */
static u64 dpt_route_named(const struct dpt_dev *d, const char *name)
{
	u8 r;

	for (r = 0; r < DP_DROP_MAX; r++)
		if (!strcmp(dp_drop_reason_name(&d->dp->topo, r), name))
			return dpt_route_stat(d, r);
	return 0;
}

/*
 * A data frame from node 5 to @dst, IPv4 inside; with @count coordinates
 * (1 and 2, ...) behind the header when @count, the S2 flag 0x20 set.
 * Returns its length in @buf.
 */
static unsigned int dpt_plan_frame(u8 *buf, u32 dst, u8 count)
{
	struct dpillar_hdr *h = (void *)buf;
	struct dpillar_coords *c = (void *)(h + 1);
	unsigned int off = DP_HDR_LEN;
	u8 i;

	dpt_hdr(h, DPILLAR_T_DATA, 5, dst);
	h->proto = htons(ETH_P_IP);
	if (count) {
		h->flags = 0x20;
		c->count = count;
		for (i = 0; i < count; i++)
			c->x[i] = htonl(i + 1);
		off += sizeof(*c) + count * sizeof(__be32);
	}
	buf[off] = 0x45;
	return off + sizeof(struct iphdr);
}

/*
 * S2 plan mode: a frame carries its destination's coordinates behind the
 * header.  Delivered with them stripped (the block split over a page
 * too); a block of no coordinates, too many, or cut short is drop_short;
 * relayed without them it is route_no_coords, with them it is routed (no
 * neighbour here: a local minimum); a derived-mode node takes the flag
 * for a forged header (route_bad_state).
 */
static void dpt_rx_plan(struct kunit *test)
{
	struct dp_topo_params prm = { .kind = DP_TOPO_S2, .nodes = 16, .n = 4,
				      .spaces = 2, .ncoords = 2,
				      .coords = { 100, 200 } };
	u8 buf[DP_HDR_LEN + 4 + 9 * 4 + sizeof(struct iphdr)] = {};
	struct dpt_dev *d = dpt_dev_create_topo(test, &prm, 3), *dd;
	unsigned int len, hl = DP_HDR_LEN + 4 + 2 * 4;
	struct sk_buff *skb;

	len = dpt_plan_frame(buf, 3, 2);
	skb = dpt_frame(test, d, 1, dpt_peer_mac, DPILLAR_ETHERTYPE, buf, len,
			len);
	KUNIT_ASSERT_EQ(test, dpt_rx(&skb), RX_HANDLER_ANOTHER);
	KUNIT_EXPECT_EQ(test, skb->len, sizeof(struct iphdr));
	KUNIT_EXPECT_EQ(test, skb->data[0], 0x45);
	kfree_skb(skb);
	skb = dpt_frame(test, d, 1, dpt_peer_mac, DPILLAR_ETHERTYPE, buf, len,
			DP_HDR_LEN + 2);
	KUNIT_ASSERT_EQ(test, dpt_rx(&skb), RX_HANDLER_ANOTHER);
	KUNIT_EXPECT_EQ(test, skb->len, sizeof(struct iphdr));
	kfree_skb(skb);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DELIVERED), 2);

	len = dpt_plan_frame(buf, 3, 2);
	buf[DP_HDR_LEN] = 0;		/* count 0 */
	dpt_rx_consumed(test, d, buf, len, len);
	len = dpt_plan_frame(buf, 3, 9);	/* more than any fabric */
	dpt_rx_consumed(test, d, buf, len, len);
	len = dpt_plan_frame(buf, 7, 2);	/* cut short, to relay */
	dpt_rx_consumed(test, d, buf, hl - 1, hl - 1);
	dpt_rx_consumed(test, d, buf, DP_HDR_LEN + 2, DP_HDR_LEN + 2);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_SHORT), 4);

	len = dpt_plan_frame(buf, 7, 0);	/* no coordinates */
	dpt_rx_consumed(test, d, buf, len, len);
	KUNIT_EXPECT_EQ(test, dpt_route_named(d, "no_coords"), 1);
	len = dpt_plan_frame(buf, 7, 1);	/* fewer than spaces */
	dpt_rx_consumed(test, d, buf, len, len);
	KUNIT_EXPECT_EQ(test, dpt_route_named(d, "no_coords"), 2);
	len = dpt_plan_frame(buf, 7, 2);
	dpt_rx_consumed(test, d, buf, len, len);
	KUNIT_EXPECT_EQ(test, dpt_route_named(d, "local_min"), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_NOROUTE), 3);
	KUNIT_EXPECT_EQ(test, dpt_stat_outcomes(d), dpt_stat(d, DP_STAT_RX_FRAMES));

	prm.ncoords = 0;
	dd = dpt_dev_create_topo(test, &prm, 3);
	len = dpt_plan_frame(buf, 7, 2);
	skb = dpt_frame(test, dd, 1, dpt_peer_mac, DPILLAR_ETHERTYPE, buf, len,
			len);
	KUNIT_EXPECT_EQ(test, dpt_rx(&skb), RX_HANDLER_CONSUMED);
	KUNIT_EXPECT_EQ(test, dpt_route_named(dd, "bad_state"), 1);
}

/*
 * A topology without the coordinates extension (DPillar) never reads a
 * coordinates block: a data frame for us with every flag bit set, S2's
 * 0x20 among them, is delivered whole behind its header (its IP header
 * is not taken for a block, whose count 0x45 no fabric has).
 */
static void dpt_rx_no_coords_ext(struct kunit *test)
{
	u8 buf[DP_HDR_LEN + sizeof(struct iphdr)] = {};
	struct dpillar_hdr *h = (void *)buf;
	struct sk_buff *skb;
	struct dpt_dev *d;
	u32 self, peer;

	d = dpt_rx_dev(test, &self, &peer);
	KUNIT_ASSERT_NULL(test, d->dp->topo.ops->coords);
	dpt_hdr(h, DPILLAR_T_DATA, peer, self);
	h->proto = htons(ETH_P_IP);
	h->flags = 0xff;
	buf[DP_HDR_LEN] = 0x45;
	skb = dpt_frame(test, d, 1, dpt_peer_mac, DPILLAR_ETHERTYPE, buf,
			sizeof(buf), sizeof(buf));
	KUNIT_ASSERT_EQ(test, dpt_rx(&skb), RX_HANDLER_ANOTHER);
	KUNIT_EXPECT_EQ(test, skb->len, sizeof(struct iphdr));
	KUNIT_EXPECT_EQ(test, skb->data[0], 0x45);
	kfree_skb(skb);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DELIVERED), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_SHORT), 0);
}

/*
 * Only a real failure starts the fallback's discovery: a header no sender
 * builds (XDCent's bad_state, a path word out of range) is dropped and
 * counted, and floods nothing (issue 53, item 2); the same frame with a
 * real word, which finds no live neighbour, discovers.
 */
static void dpt_rx_fallback_bad_state(struct kunit *test)
{
	struct dp_topo_params prm = { .kind = DP_TOPO_XDCENT, .n = 3, .k = 1,
				      .level = 2 };
	u8 buf[DP_HDR_LEN + sizeof(struct iphdr)] = {};
	struct dpillar_hdr *h = (void *)buf;
	struct dpt_dev *d = dpt_dev_create_topo(test, &prm, 0);

	KUNIT_ASSERT_TRUE(test, dp_sc_fallback(d->dp));
	dpt_hdr(h, DPILLAR_T_DATA, 1, 5);
	h->rword = htons(0xffff);
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	KUNIT_EXPECT_EQ(test, dpt_route_named(d, "bad_state"), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_SC_DISCOVER), 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_NOROUTE), 1);

	h->rword = 0;
	dpt_rx_consumed(test, d, buf, sizeof(buf), sizeof(buf));
	KUNIT_EXPECT_EQ(test, dpt_route_named(d, "bad_state"), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_SC_DISCOVER), 1);
}

static struct kunit_case dpt_rx_cases[] = {
	KUNIT_CASE(dpt_rx_v1_frames),
	KUNIT_CASE(dpt_rx_other_ethertype),
	KUNIT_CASE(dpt_rx_short),
	KUNIT_CASE(dpt_rx_bad_version),
	KUNIT_CASE(dpt_rx_dev_down),
	KUNIT_CASE(dpt_rx_bad_type),
	KUNIT_CASE(dpt_rx_other_host),
	KUNIT_CASE(dpt_rx_vlan),
	KUNIT_CASE(dpt_rx_bad_addr),
	KUNIT_CASE(dpt_rx_deliver),
	KUNIT_CASE(dpt_rx_bad_inner),
	KUNIT_CASE(dpt_rx_relay_ttl),
	KUNIT_CASE(dpt_rx_relay_ttl_renew),
	KUNIT_CASE(dpt_rx_relay_noroute),
	KUNIT_CASE(dpt_rx_shared_skb),
	KUNIT_CASE(dpt_rx_shortcut_data),
	KUNIT_CASE(dpt_rx_fallback_off),
	KUNIT_CASE(dpt_rx_fallback_bad_state),
	KUNIT_CASE(dpt_rx_fuzz),
	KUNIT_CASE(dpt_rx_plan),
	KUNIT_CASE(dpt_rx_no_coords_ext),
	{}
};

static struct kunit_suite dpt_rx_suite = {
	.name = "dpillar_rx",
	.test_cases = dpt_rx_cases,
};

kunit_test_suites(&dpt_rx_suite);
