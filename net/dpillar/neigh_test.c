// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the Hello protocol's receive side and the neighbour
 * tables (neigh.c): learning, miswiring, malformed Hellos, aging and the
 * reachability oracle the router asks.  Hellos enter through the port
 * rx_handler, as they do from the wire.
 */

#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/prandom.h>

#include "route.h"
#include "test_lib.h"
#include "topo_dpillar.h"
#include "topo_s2.h"
#include "topo_walk.h"

static void dpt_mac_of(u32 node, u8 *mac)
{
	mac[0] = 0x02;	/* locally administered unicast */
	mac[1] = 0xd0;
	mac[2] = node >> 24;
	mac[3] = node >> 16;
	mac[4] = node >> 8;
	mac[5] = node;
}

/*
 * Port of @peer on the switch our @port plugs into (topo_dpillar_test.c
 * too).
 */
static u32 dpt_peer_port_of(const struct dp_topo *t, u32 self, u32 port,
			    u32 peer)
{
	return dp_peer_port(t, self, port, peer);
}

#define DPT_TLV_BYTES	128

static const u8 dpt_hello_group[ETH_ALEN] __aligned(2) = DPILLAR_HELLO_MAC;
/* Where dpt_hello_tlv() sends: the group, unless a test says otherwise. */
static const u8 *dpt_hello_dst = dpt_hello_group;

/*
 * A Hello from @src's port @sport (MAC @mac) arriving on our @port, cut to
 * @len bytes, its tlv_len field @tlv_len and @ntlv bytes of TLVs after it.
 */
static void dpt_hello_tlv(struct kunit *test, struct dpt_dev *d, u32 port,
			  u32 src, u32 sport, const u8 *mac, unsigned int len,
			  u16 tlv_len, const u8 *tlv, unsigned int ntlv)
{
	u8 buf[DP_HDR_LEN + sizeof(struct dpillar_hello) + DPT_TLV_BYTES];
	struct dpillar_hello *hello = (void *)(buf + DP_HDR_LEN);
	unsigned int size = DP_HDR_LEN + sizeof(*hello) + ntlv;
	rx_handler_result_t ret;
	struct sk_buff *skb;

	KUNIT_ASSERT_LE(test, ntlv, DPT_TLV_BYTES);
	dpt_hdr((struct dpillar_hdr *)buf, DPILLAR_T_HELLO, src,
		DPILLAR_NODE_NONE);
	memset(hello, 0, sizeof(*hello));
	hello->port = sport;
	hello->tlv_len = htons(tlv_len);
	hello->interval_ms = htonl(DP_HELLO_MS_DEFAULT);
	if (ntlv)
		memcpy(hello + 1, tlv, ntlv);
	skb = dpt_frame(test, d, port, mac, DPILLAR_ETHERTYPE, buf,
			min_t(unsigned int, len, size), size);
	/* To the Hello group, as dp_hello_send() sends them. */
	ether_addr_copy(eth_hdr(skb)->h_dest, dpt_hello_dst);
	skb->pkt_type = is_multicast_ether_addr(dpt_hello_dst) ?
			PACKET_MULTICAST : PACKET_HOST;
	ret = dpt_rx(&skb);
	KUNIT_EXPECT_EQ(test, ret, RX_HANDLER_CONSUMED);
	if (ret != RX_HANDLER_CONSUMED)
		kfree_skb(skb);	/* still ours */
}

/* A Hello of the first wire version: 8 bytes, no TLVs. */
static void dpt_hello(struct kunit *test, struct dpt_dev *d, u32 port,
		      u32 src, u32 sport, const u8 *mac, unsigned int len)
{
	dpt_hello_tlv(test, d, port, src, sport, mac, len, 0, NULL, 0);
}

static void dpt_hello_ok(struct kunit *test, struct dpt_dev *d, u32 port,
			 u32 src)
{
	u8 mac[ETH_ALEN];

	dpt_mac_of(src, mac);
	dpt_hello(test, d, port, src,
		  dpt_peer_port_of(&d->dp->topo, d->dp->self, port, src), mac,
		  ~0U);
}

static bool dpt_reach(struct dpt_dev *d, u32 port, u32 peer)
{
	bool ret;

	rcu_read_lock();
	ret = dp_reachable(&d->dp->vctx, d->dp->self, port, peer);
	rcu_read_unlock();
	return ret;
}

/* (4,3) node 1:0.1.0, unless a test needs another fabric. */
static struct dpt_dev *dpt_neigh_dev(struct kunit *test, u32 n, u32 k)
{
	struct dp_topo_params prm = { .kind = DP_TOPO_DPILLAR, .n = n, .k = k };
	struct dp_topo t;

	KUNIT_ASSERT_EQ(test, dp_topo_init(&t, &prm, NULL), 0);
	return dpt_dev_create(test, n, k, dpp(&t)->nlabels + dpp(&t)->h);
}

/* Neighbours of our port @port. */
static u32 dpt_nneigh(const struct dpt_dev *d, u32 port)
{
	struct dp_port_info pi;

	dp_port_info(&d->dp->topo, d->dp->self, port, &pi);
	return pi.nneigh;
}

static void dpt_neigh_learn(struct kunit *test)
{
	struct dpt_dev *d = dpt_neigh_dev(test, 4, 3);
	const struct dp_topo *t = &d->dp->topo;
	u32 self = d->dp->self, port, i, peer, learned = 0, id;
	u8 mac[ETH_ALEN];

	for (port = 0; port < DPP_NPORTS; port++) {
		for (i = 0; i < dpt_nneigh(d, port); i++) {
			peer = dp_port_neigh(t, self, port, i);
			KUNIT_EXPECT_FALSE(test, dpt_reach(d, port, peer));
		}
	}
	for (port = 0; port < DPP_NPORTS; port++) {
		for (i = 0; i < dpt_nneigh(d, port); i++) {
			peer = dp_port_neigh(t, self, port, i);
			dpt_hello_ok(test, d, port, peer);
			learned++;
			dpt_mac_of(peer, mac);
			KUNIT_EXPECT_EQ(test,
					atomic64_read(&d->port[port]->neigh[i].mac),
					ether_addr_to_u64(mac));
			KUNIT_EXPECT_TRUE(test, dpt_reach(d, port, peer));
		}
	}
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), learned);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_MISWIRED), 0);
	/* Only the switch's servers, on the right port. */
	for (id = 0; id < t->nodes; id++) {
		for (port = 0; port < DPP_NPORTS; port++) {
			if (dp_port_neigh_index(t, self, port, id) < 0)
				KUNIT_EXPECT_FALSE(test, dpt_reach(d, port, id));
		}
	}
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 0, self));
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 0, t->nodes));
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 0, DP_NODE_NONE));
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, DPP_NPORTS,
					   dp_port_neigh(t, self, 0, 0)));
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, ~0U,
					   dp_port_neigh(t, self, 0, 0)));
}

static void dpt_neigh_miswired(struct kunit *test)
{
	struct dpt_dev *d = dpt_neigh_dev(test, 4, 3);
	const struct dp_topo *t = &d->dp->topo;
	u32 self = d->dp->self, id, sport, wrong = 0, i, peer;
	u8 mac[ETH_ALEN];

	/* Every server that is not on our port-0 switch, from either port. */
	for (id = 0; id < t->nodes; id++) {
		if (dp_port_neigh_index(t, self, 0, id) >= 0)
			continue;
		dpt_mac_of(id, mac);
		for (sport = 0; sport < DPP_NPORTS; sport++) {
			dpt_hello(test, d, 0, id, sport, mac, ~0U);
			wrong++;
		}
	}
	/* Our own Hello looped back to us. */
	dpt_mac_of(self, mac);
	dpt_hello(test, d, 0, self, 0, mac, ~0U);
	wrong++;
	/* A neighbour claiming its other port, or a port it does not have. */
	peer = dp_port_neigh(t, self, 0, 0);
	dpt_mac_of(peer, mac);
	dpt_hello(test, d, 0, peer, !dpt_peer_port_of(t, self, 0, peer), mac,
		  ~0U);
	dpt_hello(test, d, 0, peer, DPP_NPORTS, mac, ~0U);
	dpt_hello(test, d, 0, peer, 0xff, mac, ~0U);
	wrong += 3;
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_MISWIRED), wrong);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 0);
	for (i = 0; i < dpt_nneigh(d, 0); i++)
		KUNIT_EXPECT_EQ(test, atomic64_read(&d->port[0]->neigh[i].mac), 0);
}

/*
 * k = 2: two servers can share both of their switches.  A Hello sent from
 * the peer's port on our port-1 switch must not be learned on port 0.
 */
static void dpt_neigh_miswired_k2(struct kunit *test)
{
	struct dpt_dev *d = dpt_neigh_dev(test, 4, 2);
	const struct dp_topo *t = &d->dp->topo;
	u32 self = d->dp->self, i, peer, both = 0, sport;
	u8 mac[ETH_ALEN];

	for (i = 0; i < dpt_nneigh(d, 0); i++) {
		peer = dp_port_neigh(t, self, 0, i);
		if (dp_port_neigh_index(t, self, 1, peer) < 0)
			continue;
		both++;
		dpt_mac_of(peer, mac);
		/* The peer's port that plugs into our port-1 switch. */
		sport = dpt_peer_port_of(t, self, 1, peer);
		if (sport == dpt_peer_port_of(t, self, 0, peer))
			continue;
		dpt_hello(test, d, 0, peer, sport, mac, ~0U);
		KUNIT_EXPECT_FALSE(test, dpt_reach(d, 0, peer));
		dpt_hello(test, d, 1, peer, sport, mac, ~0U);
		KUNIT_EXPECT_TRUE(test, dpt_reach(d, 1, peer));
	}
	KUNIT_EXPECT_GT(test, both, 0);
	KUNIT_EXPECT_GT(test, dpt_stat(d, DP_STAT_HELLO_MISWIRED), 0);
}

static void dpt_neigh_bad_hello(struct kunit *test)
{
	static const u8 zero[ETH_ALEN], bcast[ETH_ALEN] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	struct dpt_dev *d = dpt_neigh_dev(test, 4, 3);
	const struct dp_topo *t = &d->dp->topo;
	u32 self = d->dp->self, peer, sport;
	u8 mac[ETH_ALEN], mcast[ETH_ALEN];
	unsigned int len;

	peer = dp_port_neigh(t, self, 0, 1);
	sport = dpt_peer_port_of(t, self, 0, peer);
	dpt_mac_of(peer, mac);
	/* Truncated Hello payloads. */
	for (len = DP_HDR_LEN; len < DP_HDR_LEN + sizeof(struct dpillar_hello);
	     len++)
		dpt_hello(test, d, 0, peer, sport, mac, len);
	/* Source not a node of this fabric. */
	dpt_hello(test, d, 0, t->nodes, sport, mac, ~0U);
	dpt_hello(test, d, 0, DPILLAR_NODE_NONE, sport, mac, ~0U);
	/* Source MAC that cannot be a neighbour's. */
	dpt_hello(test, d, 0, peer, sport, zero, ~0U);
	dpt_hello(test, d, 0, peer, sport, bcast, ~0U);
	ether_addr_copy(mcast, mac);
	mcast[0] |= 1;
	dpt_hello(test, d, 0, peer, sport, mcast, ~0U);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_BAD),
			sizeof(struct dpillar_hello) + 5);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 0);
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 0, peer));
	/* Then the real one. */
	dpt_hello(test, d, 0, peer, sport, mac, ~0U);
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 0, peer));
}

static void dpt_neigh_aging(struct kunit *test)
{
	struct dpt_dev *d = dpt_neigh_dev(test, 6, 3);
	const struct dp_topo *t = &d->dp->topo;
	u32 self = d->dp->self, a, b;
	struct dp_neigh *nb;

	a = dp_port_neigh(t, self, 0, 0);
	b = dp_port_neigh(t, self, 0, 3);
	dpt_hello_ok(test, d, 0, a);
	dpt_hello_ok(test, d, 0, b);
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 0, a));
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 0, b));

	/* Not heard for the dead interval: unreachable, others unaffected. */
	nb = &d->port[0]->neigh[dp_port_neigh_index(t, self, 0, a)];
	WRITE_ONCE(nb->last_heard, jiffies - d->dp->dead_jiffies);
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 0, a));
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 0, b));
	WRITE_ONCE(nb->last_heard, jiffies - d->dp->dead_jiffies + HZ);
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 0, a));
	/* jiffies wrap: far in the past is as dead as just expired. */
	WRITE_ONCE(nb->last_heard, jiffies - (MAX_JIFFY_OFFSET / 2));
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 0, a));
	/* Heard again: alive again, the MAC kept. */
	dpt_hello_ok(test, d, 0, a);
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 0, a));

	/* A longer dead interval revives it, a zero one kills everyone. */
	WRITE_ONCE(nb->last_heard, jiffies - 2 * d->dp->dead_jiffies);
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 0, a));
	WRITE_ONCE(d->dp->dead_jiffies, 3 * d->dp->dead_jiffies);
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 0, a));
	WRITE_ONCE(d->dp->dead_jiffies, 0);
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 0, a));
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 0, b));
}

static void dpt_neigh_mac_change(struct kunit *test)
{
	struct dpt_dev *d = dpt_neigh_dev(test, 4, 3);
	const struct dp_topo *t = &d->dp->topo;
	u32 self = d->dp->self, peer, sport;
	u8 mac[ETH_ALEN], forged[ETH_ALEN];
	struct dp_neigh *nb;
	unsigned long warned;
	int idx, i;

	peer = dp_port_neigh(t, self, 1, 2);
	idx = dp_port_neigh_index(t, self, 1, peer);
	nb = &d->port[1]->neigh[idx];
	sport = dpt_peer_port_of(t, self, 1, peer);
	dpt_mac_of(peer, mac);
	dpt_hello(test, d, 1, peer, sport, mac, ~0U);
	/*
	 * Another host forges the live neighbour's Hellos: its MAC stays,
	 * each attempt is counted, one warning per dead interval.
	 */
	ether_addr_copy(forged, mac);
	forged[5] ^= 0x55;
	for (i = 0; i < 5; i++)
		dpt_hello(test, d, 1, peer, sport, forged, ~0U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&nb->mac), ether_addr_to_u64(mac));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_MAC_CHANGE), 5);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 1);
	warned = READ_ONCE(d->port[1]->mac_change_warned);
	KUNIT_EXPECT_NE(test, warned, 0);
	/* The real one still refreshes it. */
	dpt_hello(test, d, 1, peer, sport, mac, ~0U);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 2);
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 1, peer));

	/* The peer's NIC was replaced: the old MAC goes dead first. */
	WRITE_ONCE(nb->last_heard, jiffies - d->dp->dead_jiffies);
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 1, peer));
	dpt_hello(test, d, 1, peer, sport, forged, ~0U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&nb->mac),
			ether_addr_to_u64(forged));
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 1, peer));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 3);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_MAC_CHANGE), 5);
}

/*
 * One MAC, one live entry per port: a host that sends Hellos claiming a
 * second id on its switch with its one MAC is refused (counted), the
 * first entry stays live; once the first is dead (a server re-addressed)
 * the second claim takes, and then the first id is the one refused.
 * Another port's table is another switch: not concerned.
 */
static void dpt_neigh_mac_taken(struct kunit *test)
{
	struct dpt_dev *d = dpt_neigh_dev(test, 4, 3);
	const struct dp_topo *t = &d->dp->topo;
	u32 self = d->dp->self, a, b, c, sa, sb;
	struct dp_neigh *na, *nb;
	u8 mac[ETH_ALEN];
	int i;

	a = dp_port_neigh(t, self, 0, 0);
	b = dp_port_neigh(t, self, 0, 1);
	KUNIT_ASSERT_NE(test, a, b);
	na = &d->port[0]->neigh[dp_port_neigh_index(t, self, 0, a)];
	nb = &d->port[0]->neigh[dp_port_neigh_index(t, self, 0, b)];
	sa = dpt_peer_port_of(t, self, 0, a);
	sb = dpt_peer_port_of(t, self, 0, b);
	dpt_mac_of(a, mac);
	dpt_hello(test, d, 0, a, sa, mac, ~0U);
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 0, a));

	/* a's MAC claims b: refused while a lives, a kept. */
	for (i = 0; i < 3; i++)
		dpt_hello(test, d, 0, b, sb, mac, ~0U);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_MAC_TAKEN), 3);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_MAC_CHANGE), 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_MISWIRED), 0);
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 0, b));
	KUNIT_EXPECT_EQ(test, atomic64_read(&nb->mac), 0);
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 0, a));
	KUNIT_EXPECT_EQ(test, atomic64_read(&na->mac), ether_addr_to_u64(mac));
	KUNIT_EXPECT_NE(test, READ_ONCE(d->port[0]->mac_change_warned), 0);
	/* a's own Hellos still refresh it. */
	dpt_hello(test, d, 0, a, sa, mac, ~0U);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 2);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_MAC_TAKEN), 3);

	/* The same MAC on another port: another switch, learned there. */
	c = dp_port_neigh(t, self, 1, 0);
	dpt_hello(test, d, 1, c, dpt_peer_port_of(t, self, 1, c), mac, ~0U);
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 1, c));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 3);

	/* a dead (re-addressed as b): b's claim takes the entry. */
	WRITE_ONCE(na->last_heard, jiffies - d->dp->dead_jiffies);
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 0, a));
	dpt_hello(test, d, 0, b, sb, mac, ~0U);
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 0, b));
	KUNIT_EXPECT_EQ(test, atomic64_read(&nb->mac), ether_addr_to_u64(mac));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 4);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_MAC_TAKEN), 3);

	/* Now a's id, its entry dead with that MAC, is the one refused. */
	dpt_hello(test, d, 0, a, sa, mac, ~0U);
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 0, a));
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 0, b));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_MAC_TAKEN), 4);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 4);
}

/* Hellos to this server's MAC or another group: not a neighbour's. */
static void dpt_neigh_hello_not_group(struct kunit *test)
{
	static const u8 other_group[ETH_ALEN] __aligned(2) = {
		0x03, 0x44, 0x50, 0x00, 0x00, 0x02 };
	struct dpt_dev *d = dpt_neigh_dev(test, 4, 3);
	const struct dp_topo *t = &d->dp->topo;
	u32 self = d->dp->self, peer;

	peer = dp_port_neigh(t, self, 0, 1);
	dpt_hello_dst = d->lower[0]->dev_addr;
	dpt_hello_ok(test, d, 0, peer);
	dpt_hello_dst = other_group;
	dpt_hello_ok(test, d, 0, peer);
	dpt_hello_dst = dpt_hello_group;
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_NOT_GROUP), 2);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 0);
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 0, peer));
	dpt_hello_ok(test, d, 0, peer);
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 0, peer));
}

/*
 * A flood of miswired Hellos, each from another server and MAC: one event
 * (one generation bump) per dead interval and port; the record shows the
 * most recent sender and the count, so a later real cabling error shows.
 */
static void dpt_neigh_miswired_flood(struct kunit *test)
{
	struct dpt_dev *d = dpt_neigh_dev(test, 4, 3);
	const struct dp_topo *t = &d->dp->topo;
	u32 self = d->dp->self, id, n = 0, last = 0, gen;
	struct dp_miswired mis;
	u8 mac[ETH_ALEN];

	gen = atomic_read(&d->dp->gen);
	for (id = 0; id < t->nodes; id++) {
		if (dp_port_neigh_index(t, self, 0, id) >= 0 || id == self)
			continue;
		dpt_mac_of(id, mac);
		mac[1] = n;	/* a new source MAC each time */
		dpt_hello(test, d, 0, id, 0, mac, ~0U);
		last = id;
		n++;
	}
	KUNIT_ASSERT_GT(test, n, 2);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_MISWIRED), n);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->dp->gen) - gen, 1);
	KUNIT_ASSERT_TRUE(test, dp_port_miswired_get(d->dp, d->port[0], &mis));
	KUNIT_EXPECT_EQ(test, mis.node, last);
	KUNIT_EXPECT_EQ(test, mis.count, n);
	/* The same sender with a new MAC each time: no more events either. */
	for (id = 0; id < 5; id++) {
		mac[1] = 0x80 + id;
		dpt_hello(test, d, 0, last, 0, mac, ~0U);
	}
	n += 5;
	KUNIT_EXPECT_EQ(test, atomic_read(&d->dp->gen) - gen, 1);

	/* A dead interval later, the next one raises an event again. */
	spin_lock_bh(&d->port[0]->miswired_lock);
	d->port[0]->miswired.ntf -= d->dp->dead_jiffies;
	spin_unlock_bh(&d->port[0]->miswired_lock);
	dpt_hello(test, d, 0, last, 1, mac, ~0U);
	KUNIT_EXPECT_EQ(test, atomic_read(&d->dp->gen) - gen, 2);
	KUNIT_ASSERT_TRUE(test, dp_port_miswired_get(d->dp, d->port[0], &mis));
	KUNIT_EXPECT_EQ(test, mis.count, n + 1);
	KUNIT_EXPECT_EQ(test, mis.sport, 1);
}

/* The oracle follows the port: carrier, running, detached. */
static void dpt_neigh_port_state(struct kunit *test)
{
	struct dpt_dev *d = dpt_neigh_dev(test, 4, 3);
	const struct dp_topo *t = &d->dp->topo;
	u32 self = d->dp->self, a, b;

	a = dp_port_neigh(t, self, 0, 0);
	b = dp_port_neigh(t, self, 1, 0);
	dpt_hello_ok(test, d, 0, a);
	dpt_hello_ok(test, d, 1, b);
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 0, a));
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 1, b));

	dpt_port_set(d, 0, true, false);
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 0, a));
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 1, b));
	dpt_port_set(d, 0, false, true);
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 0, a));
	dpt_port_set(d, 0, true, true);
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 0, a));

	/* Detached (its NIC unregistered): the slot is NULL. */
	RCU_INIT_POINTER(d->dp->ports[1], NULL);
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 1, b));
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 0, a));
	RCU_INIT_POINTER(d->dp->ports[1], d->port[1]);
}

/* Append a TLV at @buf + *@pos, padded to DPILLAR_TLV_ALIGN. */
static void dpt_tlv(u8 *buf, unsigned int *pos, u16 type, u16 len,
		    const void *val, unsigned int vlen)
{
	struct dpillar_tlv tlv = { .type = htons(type), .len = htons(len) };

	memcpy(buf + *pos, &tlv, sizeof(tlv));
	memcpy(buf + *pos + sizeof(tlv), val, vlen);
	*pos += ALIGN(sizeof(tlv) + vlen, DPILLAR_TLV_ALIGN);
}

/* What the routing view reports of @peer's ports (false: nothing). */
static bool dpt_ports_up(struct dpt_dev *d, u32 port, u32 peer, u32 *mask)
{
	bool ret;

	rcu_read_lock();
	ret = d->dp->view.ports_up(&d->dp->vctx, d->dp->self, port, peer, mask);
	rcu_read_unlock();
	return ret;
}

/*
 * A Hello with TLVs: the ports-up bitmap reaches the routing view, unknown
 * types are skipped, bytes past tlv_len (Ethernet padding) are not TLVs,
 * and a later first-version Hello (no TLVs) clears what the last one said.
 */
static void dpt_neigh_hello_tlv(struct kunit *test)
{
	struct dpt_dev *d = dpt_neigh_dev(test, 4, 3);
	const struct dp_topo *t = &d->dp->topo;
	u32 self = d->dp->self, peer, sport, mask = 0;
	__be32 up = htonl(0x2), other = htonl(0xdeadbeef);
	u8 tlv[DPT_TLV_BYTES] = {}, mac[ETH_ALEN];
	unsigned int pos = 0;
	int ngen;

	peer = dp_port_neigh(t, self, 0, 1);
	sport = dpt_peer_port_of(t, self, 0, peer);
	dpt_mac_of(peer, mac);
	ngen = atomic_read(&d->dp->rmemo_ngen);
	/* An unknown type of odd length first: its padding is skipped. */
	dpt_tlv(tlv, &pos, 0x7fff, 3, &other, 3);
	dpt_tlv(tlv, &pos, DPILLAR_TLV_PORTS_UP, 4, &up, 4);
	/* Trailing bytes outside tlv_len: a TLV header that would be bad. */
	dpt_hello_tlv(test, d, 0, peer, sport, mac, ~0U, pos, tlv, pos + 8);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_BAD), 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 1);
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 0, peer));
	KUNIT_EXPECT_TRUE(test, dpt_ports_up(d, 0, peer, &mask));
	KUNIT_EXPECT_EQ(test, mask, 0x2);
	/* No such neighbour on port 1: nothing known. */
	KUNIT_EXPECT_FALSE(test, dpt_ports_up(d, 1, peer, &mask));
	/* It came alive: news for the route memo's multi entries. */
	KUNIT_EXPECT_NE(test, atomic_read(&d->dp->rmemo_ngen), ngen);
	ngen = atomic_read(&d->dp->rmemo_ngen);

	/* The last TLV needs no padding. */
	pos = 0;
	dpt_tlv(tlv, &pos, DPILLAR_TLV_PORTS_UP, 4, &up, 4);
	dpt_tlv(tlv, &pos, 0x7ffe, 1, &other, 1);
	dpt_hello_tlv(test, d, 0, peer, sport, mac, ~0U, pos - 3, tlv,
		      pos - 3);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_BAD), 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 2);
	/* The same ports up again: nothing new, the memo stays. */
	KUNIT_EXPECT_EQ(test, atomic_read(&d->dp->rmemo_ngen), ngen);

	/* A first-version Hello: learned, and no ports-up news. */
	dpt_hello_ok(test, d, 0, peer);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 3);
	KUNIT_EXPECT_FALSE(test, dpt_ports_up(d, 0, peer, &mask));
	/* ports_up now unknown: an answer changed */
	KUNIT_EXPECT_NE(test, atomic_read(&d->dp->rmemo_ngen), ngen);
}

/* Malformed TLVs drop the whole Hello, counted, and teach nothing. */
static void dpt_neigh_hello_bad_tlv(struct kunit *test)
{
	struct dpt_dev *d = dpt_neigh_dev(test, 4, 3);
	const struct dp_topo *t = &d->dp->topo;
	u32 self = d->dp->self, peer, sport, bad = 0;
	u8 tlv[DPT_TLV_BYTES] = {}, mac[ETH_ALEN];
	__be32 up = htonl(1);
	unsigned int pos;

	peer = dp_port_neigh(t, self, 0, 1);
	sport = dpt_peer_port_of(t, self, 0, peer);
	dpt_mac_of(peer, mac);

	/* tlv_len beyond the frame, and beyond the protocol's limit. */
	dpt_hello_tlv(test, d, 0, peer, sport, mac, ~0U, 8, tlv, 4);
	dpt_hello_tlv(test, d, 0, peer, sport, mac, ~0U,
		      DPILLAR_HELLO_TLV_MAX + 4, tlv, DPT_TLV_BYTES);
	bad += 2;
	/* A TLV header cut by tlv_len (1..3 bytes of it). */
	for (pos = 1; pos < sizeof(struct dpillar_tlv); pos++, bad++)
		dpt_hello_tlv(test, d, 0, peer, sport, mac, ~0U, pos, tlv, 8);
	/* A value that runs past tlv_len. */
	pos = 0;
	dpt_tlv(tlv, &pos, DPILLAR_TLV_PORTS_UP, 4, &up, 4);
	dpt_hello_tlv(test, d, 0, peer, sport, mac, ~0U, pos - 1, tlv, pos);
	bad++;
	/* A known type of the wrong length. */
	pos = 0;
	dpt_tlv(tlv, &pos, DPILLAR_TLV_PORTS_UP, 2, &up, 2);
	dpt_hello_tlv(test, d, 0, peer, sport, mac, ~0U, pos, tlv, pos);
	bad++;
	/* A known type twice. */
	pos = 0;
	dpt_tlv(tlv, &pos, DPILLAR_TLV_PORTS_UP, 4, &up, 4);
	dpt_tlv(tlv, &pos, DPILLAR_TLV_PORTS_UP, 4, &up, 4);
	dpt_hello_tlv(test, d, 0, peer, sport, mac, ~0U, pos, tlv, pos);
	bad++;
	/* A length that would wrap a 16-bit offset. */
	pos = 0;
	dpt_tlv(tlv, &pos, 0x7fff, 0xffff, &up, 0);
	dpt_hello_tlv(test, d, 0, peer, sport, mac, ~0U, pos, tlv, pos);
	bad++;

	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_BAD), bad);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 0);
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 0, peer));
}

/* ---- S2 plan mode: learned cables, coordinates in the Hellos ---- */

#define DPT_S2_SPACES	2
#define DPT_S2_SELF	3

static const u32 dpt_s2_own[DPT_S2_SPACES] = { 0x10000000, 0x90000000 };

/* Node @self of a 16-node S2 fabric, 4 ports, 2 spaces; @plan: plan mode. */
static struct dpt_dev *dpt_s2_dev(struct kunit *test, bool plan)
{
	struct dp_topo_params prm = {
		.kind = DP_TOPO_S2, .nodes = 16, .n = 4,
		.spaces = DPT_S2_SPACES, .seed = 7,
	};
	struct dpt_dev *d;

	if (plan) {
		prm.ncoords = DPT_S2_SPACES;
		memcpy(prm.coords, dpt_s2_own, sizeof(dpt_s2_own));
	}
	d = dpt_dev_create_topo(test, &prm, DPT_S2_SELF);
	KUNIT_ASSERT_EQ(test, dp_s2_plan_mode(&d->dp->topo), plan);
	KUNIT_ASSERT_EQ(test, d->dp->topo.learn_peers, plan);
	return d;
}

/* Node @id's coordinates in these tests' plan (any distinct values). */
static u32 dpt_s2_x(u32 id, u32 space)
{
	return 0x01000000U * (id + 1) + 0x00100000U * (space + 1);
}

/* @n big-endian u32s of @v into @b. */
static void dpt_be32s(__be32 *b, const u32 *v, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		b[i] = htonl(v[i]);
}

/*
 * An S2 Hello from @src's port @sport on our @port: its coordinates
 * @x (@nx of them, none: no TLV), the @n ids @ids it hears and, unless
 * @nnc is negative, a TLV 4 of @nnc entries of the listed ids' plan
 * coordinates (dpt_s2_x(), @nx each).
 */
static void dpt_s2_hello(struct kunit *test, struct dpt_dev *d, u32 port,
			 u32 src, u32 sport, const u32 *x, u32 nx,
			 const u32 *ids, u32 n, int nnc)
{
	__be32 v[DPILLAR_TLV_NEIGHS_MAX * DPT_S2_SPACES];
	u32 nc[DPILLAR_TLV_NEIGHS_MAX * DPT_S2_SPACES], i, c;
	u8 tlv[DPT_TLV_BYTES] = {}, mac[ETH_ALEN];
	unsigned int pos = 0;

	KUNIT_ASSERT_LE(test, nnc, DPILLAR_TLV_NEIGHS_MAX);
	dpt_mac_of(src, mac);
	if (nx) {
		dpt_be32s(v, x, nx);
		dpt_tlv(tlv, &pos, DPILLAR_TLV_COORDS, nx * 4, v, nx * 4);
	}
	dpt_be32s(v, ids, n);
	dpt_tlv(tlv, &pos, DPILLAR_TLV_NEIGHS, n * 4, v, n * 4);
	if (nnc >= 0) {
		for (i = 0; i < nnc; i++)
			for (c = 0; c < nx; c++)
				nc[i * nx + c] = dpt_s2_x(i < n ? ids[i] : i, c);
		dpt_be32s(v, nc, nnc * nx);
		dpt_tlv(tlv, &pos, DPILLAR_TLV_NEIGH_COORDS, nnc * nx * 4, v,
			nnc * nx * 4);
	}
	KUNIT_ASSERT_LE(test, pos, DPT_TLV_BYTES);
	dpt_hello_tlv(test, d, port, src, sport, mac, ~0U, pos, tlv, pos);
}

/* A well-formed plan-mode Hello from @src, hearing @ids. */
static void dpt_s2_hello_ok(struct kunit *test, struct dpt_dev *d, u32 port,
			    u32 src, u32 sport, const u32 *ids, u32 n)
{
	u32 x[DPT_S2_SPACES], c;

	for (c = 0; c < DPT_S2_SPACES; c++)
		x[c] = dpt_s2_x(src, c);
	dpt_s2_hello(test, d, port, src, sport, x, DPT_S2_SPACES, ids, n, n);
}

/* What the routing view says of coordinates: dp_view_coords.node_coords. */
static u32 dpt_view_coords(struct dpt_dev *d, u32 port, u32 node, u32 *x)
{
	u32 n;

	rcu_read_lock();
	n = d->dp->view.coords->node_coords(&d->dp->vctx, d->dp->self, port,
					    node, x, DP_COORDS_MAX);
	rcu_read_unlock();
	return n;
}

static u32 dpt_view_pnc(struct dpt_dev *d, u32 port, u32 peer, u32 idx,
			u32 *x)
{
	u32 n;

	rcu_read_lock();
	n = d->dp->view.coords->peer_neigh_coords(&d->dp->vctx, d->dp->self,
						  port, peer, idx, x,
						  DP_COORDS_MAX);
	rcu_read_unlock();
	return n;
}

static u32 dpt_view_cable_peer(struct dpt_dev *d, u32 port)
{
	u32 peer;

	rcu_read_lock();
	peer = d->dp->view.cable_peer(&d->dp->vctx, d->dp->self, port);
	rcu_read_unlock();
	return peer;
}

static int dpt_snap(struct dpt_dev *d, u32 port, u32 idx,
		    struct dp_neigh_snap *snap)
{
	int ret;

	rcu_read_lock();
	ret = dp_neigh_snapshot(d->dp, d->port[port], idx, snap);
	rcu_read_unlock();
	return ret;
}

/* Expect @node's plan coordinates in @x (@n of them). */
static void dpt_expect_x(struct kunit *test, const u32 *x, u32 n, u32 node)
{
	u32 c;

	KUNIT_EXPECT_EQ(test, n, DPT_S2_SPACES);
	for (c = 0; c < n && c < DPT_S2_SPACES; c++)
		KUNIT_EXPECT_EQ(test, x[c], dpt_s2_x(node, c));
}

/*
 * Plan mode: a cable's peer is whoever sends on it.  Its id, port and
 * coordinates, and its neighbours' ids and coordinates (TLV 4), reach the
 * routing view and the neighbour table.
 */
static void dpt_neigh_plan_learn(struct kunit *test)
{
	struct dpt_dev *d = dpt_s2_dev(test, true);
	static const u32 ids[] = { 9, 12 };
	u32 x[DP_COORDS_MAX], peer_ids[DP_MAX_PORTS], n;
	struct dp_neigh_snap snap;

	/* Nothing heard: no peer, nothing to report. */
	KUNIT_EXPECT_EQ(test, dpt_view_cable_peer(d, 0), DP_NODE_NONE);
	KUNIT_EXPECT_EQ(test, dpt_snap(d, 0, 0, &snap), -ENODATA);
	KUNIT_EXPECT_EQ(test, dpt_view_coords(d, 0, 5, x), 0);
	/* Our own coordinates, whatever the port. */
	n = dpt_view_coords(d, 3, DPT_S2_SELF, x);
	KUNIT_EXPECT_EQ(test, n, DPT_S2_SPACES);
	KUNIT_EXPECT_EQ(test, x[0], dpt_s2_own[0]);
	KUNIT_EXPECT_EQ(test, x[1], dpt_s2_own[1]);

	dpt_s2_hello_ok(test, d, 0, 5, 2, ids, ARRAY_SIZE(ids));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_BAD), 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_MISWIRED), 0);
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 0, 5));
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 1, 5));
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 0, 6));
	KUNIT_EXPECT_EQ(test, dpt_view_cable_peer(d, 0), 5);
	KUNIT_EXPECT_EQ(test, dpt_view_cable_peer(d, 1), DP_NODE_NONE);
	dpt_expect_x(test, x, dpt_view_coords(d, 0, 5, x), 5);
	KUNIT_EXPECT_EQ(test, dpt_view_coords(d, 1, 5, x), 0);

	rcu_read_lock();
	n = d->dp->view.peer_neighs(&d->dp->vctx, DPT_S2_SELF, 0, 5, peer_ids,
				    DP_MAX_PORTS);
	rcu_read_unlock();
	KUNIT_ASSERT_EQ(test, n, ARRAY_SIZE(ids));
	KUNIT_EXPECT_EQ(test, peer_ids[0], ids[0]);
	KUNIT_EXPECT_EQ(test, peer_ids[1], ids[1]);
	dpt_expect_x(test, x, dpt_view_pnc(d, 0, 5, 0, x), ids[0]);
	dpt_expect_x(test, x, dpt_view_pnc(d, 0, 5, 1, x), ids[1]);
	KUNIT_EXPECT_EQ(test, dpt_view_pnc(d, 0, 5, 2, x), 0);
	KUNIT_EXPECT_EQ(test, dpt_view_pnc(d, 0, 6, 0, x), 0);

	/* NEIGH_GET: the learned id and the port its Hello named. */
	KUNIT_ASSERT_EQ(test, dpt_snap(d, 0, 0, &snap), 0);
	KUNIT_EXPECT_EQ(test, snap.node, 5);
	KUNIT_EXPECT_EQ(test, snap.peer_port, 2);
	KUNIT_EXPECT_EQ(test, snap.state, DPILLAR_NEIGH_STATE_REACHABLE);

	/* A Hello without TLV 4: the 2-hop coordinates are not known. */
	dpt_s2_hello(test, d, 0, 5, 2, dpt_s2_own, DPT_S2_SPACES, ids, 2, -1);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 2);
	KUNIT_EXPECT_EQ(test, dpt_view_pnc(d, 0, 5, 0, x), 0);
	KUNIT_EXPECT_EQ(test, dpt_view_coords(d, 0, 5, x), DPT_S2_SPACES);
	KUNIT_EXPECT_EQ(test, x[1], dpt_s2_own[1]);

	/* Silent for the dead interval: gone from the view, still listed. */
	WRITE_ONCE(d->port[0]->neigh[0].last_heard,
		   jiffies - d->dp->dead_jiffies);
	KUNIT_EXPECT_EQ(test, dpt_view_cable_peer(d, 0), DP_NODE_NONE);
	KUNIT_EXPECT_EQ(test, dpt_view_coords(d, 0, 5, x), 0);
	KUNIT_ASSERT_EQ(test, dpt_snap(d, 0, 0, &snap), 0);
	KUNIT_EXPECT_EQ(test, snap.node, 5);
	KUNIT_EXPECT_EQ(test, snap.state, DPILLAR_NEIGH_STATE_UNREACHABLE);
}

/*
 * Plan mode: while the cable's peer is alive another id's Hello on it is
 * miswired (counted, ignored, reported); once it is dead a new id takes
 * the cable, and nothing of the old peer stays.
 */
static void dpt_neigh_plan_miswired(struct kunit *test)
{
	struct dpt_dev *d = dpt_s2_dev(test, true);
	static const u32 ids[] = { 9 };
	struct dp_neigh_snap snap;
	struct dp_miswired mis;
	u32 x[DP_COORDS_MAX];
	int gen;

	dpt_s2_hello_ok(test, d, 1, 5, 0, ids, 1);
	dpt_s2_hello_ok(test, d, 1, 6, 3, NULL, 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_MISWIRED), 1);
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 1, 5));
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 1, 6));
	KUNIT_EXPECT_EQ(test, dpt_view_cable_peer(d, 1), 5);
	dpt_expect_x(test, x, dpt_view_coords(d, 1, 5, x), 5);
	KUNIT_ASSERT_TRUE(test, dp_port_miswired_get(d->dp, d->port[1], &mis));
	KUNIT_EXPECT_EQ(test, mis.node, 6);
	KUNIT_EXPECT_EQ(test, mis.sport, 3);
	/* Our own Hello looped back, a port the sender cannot have. */
	dpt_s2_hello_ok(test, d, 1, DPT_S2_SELF, 0, NULL, 0);
	dpt_s2_hello_ok(test, d, 1, 5, 4, NULL, 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_MISWIRED), 3);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 1);
	/* The same id on another cable is learned there too. */
	dpt_s2_hello_ok(test, d, 2, 5, 1, NULL, 0);
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 2, 5));

	/* Dead: the next sender takes the cable, with its coordinates. */
	WRITE_ONCE(d->port[1]->neigh[0].last_heard,
		   jiffies - d->dp->dead_jiffies);
	gen = atomic_read(&d->dp->gen);
	dpt_s2_hello_ok(test, d, 1, 6, 3, NULL, 0);
	/* 5's loss reported, then 6 as reachable: two events. */
	KUNIT_EXPECT_EQ(test, atomic_read(&d->dp->gen) - gen, 2);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 3);
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 1, 6));
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 1, 5));
	KUNIT_EXPECT_EQ(test, dpt_view_cable_peer(d, 1), 6);
	dpt_expect_x(test, x, dpt_view_coords(d, 1, 6, x), 6);
	KUNIT_EXPECT_EQ(test, dpt_view_coords(d, 1, 5, x), 0);
	KUNIT_EXPECT_EQ(test, dpt_view_pnc(d, 1, 6, 0, x), 0);
	KUNIT_ASSERT_EQ(test, dpt_snap(d, 1, 0, &snap), 0);
	KUNIT_EXPECT_EQ(test, snap.node, 6);
	KUNIT_EXPECT_EQ(test, snap.peer_port, 3);
	/* And now the old peer is the miswired one. */
	dpt_s2_hello_ok(test, d, 1, 5, 0, NULL, 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_MISWIRED), 4);
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 1, 6));
}

/*
 * Plan mode: a Hello whose coordinates are missing or not one per space,
 * or whose TLV 4 does not hold exactly the listed ids' coordinates, is
 * malformed: counted, and teaches nothing.
 */
static void dpt_neigh_plan_bad(struct kunit *test)
{
	struct dpt_dev *d = dpt_s2_dev(test, true);
	static const u32 ids[] = { 9, 12 };
	u32 x[DPT_S2_SPACES + 1] = { 1, 2, 3 };

	dpt_s2_hello(test, d, 0, 5, 0, x, 0, ids, 2, -1);
	dpt_s2_hello(test, d, 0, 5, 0, x, 1, ids, 2, 2);
	dpt_s2_hello(test, d, 0, 5, 0, x, 3, ids, 2, 2);
	/* TLV 4 one entry short, one entry long, or for no list at all. */
	dpt_s2_hello(test, d, 0, 5, 0, x, DPT_S2_SPACES, ids, 2, 1);
	dpt_s2_hello(test, d, 0, 5, 0, x, DPT_S2_SPACES, ids, 2, 3);
	dpt_s2_hello(test, d, 0, 5, 0, x, DPT_S2_SPACES, ids, 0, 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_BAD), 6);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 0);
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 0, 5));
	KUNIT_EXPECT_EQ(test, dpt_view_cable_peer(d, 0), DP_NODE_NONE);
	/* Then a good one. */
	dpt_s2_hello(test, d, 0, 5, 0, x, DPT_S2_SPACES, ids, 2, 2);
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 0, 5));
}

/*
 * Derived mode: TLV 4 is parsed (a malformed one drops the Hello, as any
 * known TLV) but ignored, coordinates are checked against the derived
 * ones and the cabling is the topology's, as before plan mode.
 */
static void dpt_neigh_derived_tlv4(struct kunit *test)
{
	struct dpt_dev *d = dpt_s2_dev(test, false);
	const struct dp_topo *t = &d->dp->topo;
	u32 self = DPT_S2_SELF, peer, sport, other, x[DPT_S2_SPACES], c;
	u32 got[DP_COORDS_MAX], ids[1];
	struct dp_neigh_snap snap;

	peer = dp_port_neigh(t, self, 0, 0);
	KUNIT_ASSERT_NE(test, peer, DP_NODE_NONE);
	sport = dp_peer_port(t, self, 0, peer);
	for (c = 0; c < DPT_S2_SPACES; c++)
		x[c] = dp_s2_coord(t->p.seed, t->nodes, peer, c);
	ids[0] = self;
	dpt_s2_hello(test, d, 0, peer, sport, x, DPT_S2_SPACES, ids, 1, 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_BAD), 0);
	KUNIT_EXPECT_TRUE(test, dpt_reach(d, 0, peer));
	KUNIT_EXPECT_EQ(test, dpt_view_cable_peer(d, 0), peer);
	/* Nothing stored from it: derived coordinates need no view. */
	KUNIT_EXPECT_EQ(test, dpt_view_coords(d, 0, peer, got), 0);
	KUNIT_EXPECT_EQ(test, dpt_view_pnc(d, 0, peer, 0, got), 0);
	KUNIT_EXPECT_EQ(test, dpt_view_coords(d, 0, self, got), 0);
	KUNIT_ASSERT_EQ(test, dpt_snap(d, 0, 0, &snap), 0);
	KUNIT_EXPECT_EQ(test, snap.node, peer);
	KUNIT_EXPECT_EQ(test, snap.peer_port, sport);
	/* A bad TLV 4 is still a bad Hello. */
	dpt_s2_hello(test, d, 0, peer, sport, x, DPT_S2_SPACES, ids, 1, 2);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_BAD), 1);
	/* Another node on that cable is miswired, alive peer or not. */
	other = (peer + 1) % t->nodes;
	if (other == self)
		other = (other + 1) % t->nodes;
	for (c = 0; c < DPT_S2_SPACES; c++)
		x[c] = dp_s2_coord(t->p.seed, t->nodes, other, c);
	WRITE_ONCE(d->port[0]->neigh[0].last_heard,
		   jiffies - d->dp->dead_jiffies);
	dpt_s2_hello(test, d, 0, other, sport, x, DPT_S2_SPACES, NULL, 0, 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_MISWIRED), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 1);
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 0, other));
}

/*
 * What a plan-mode node sends: its own coordinates, its live learned
 * peers in port order and their coordinates in the same order, which
 * parse back (hello_tlv.c) into what it heard.
 */
static void dpt_neigh_plan_send(struct kunit *test)
{
	struct dpt_dev *d = dpt_s2_dev(test, true);
	struct dp_hello_info hi;
	struct sk_buff *skb;
	u32 len, i, c;

	dpt_s2_hello_ok(test, d, 0, 5, 1, NULL, 0);
	dpt_s2_hello_ok(test, d, 3, 11, 0, NULL, 0);
	dpt_s2_hello_ok(test, d, 2, 8, 2, NULL, 0);
	/* Port 2's peer is dead: not listed. */
	WRITE_ONCE(d->port[2]->neigh[0].last_heard,
		   jiffies - d->dp->dead_jiffies);

	skb = alloc_skb(DPILLAR_HELLO_TLV_MAX, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	rcu_read_lock();
	len = dp_hello_put_coords(d->dp, skb);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, len, skb->len);
	KUNIT_EXPECT_TRUE(test, dp_hello_parse(skb->data, skb->len, &hi));
	KUNIT_EXPECT_EQ(test, hi.ncoords, DPT_S2_SPACES);
	KUNIT_EXPECT_EQ(test, hi.coords[0], dpt_s2_own[0]);
	KUNIT_EXPECT_EQ(test, hi.coords[1], dpt_s2_own[1]);
	KUNIT_EXPECT_TRUE(test, hi.has_neighs);
	KUNIT_ASSERT_EQ(test, hi.nneighs, 2);
	KUNIT_EXPECT_EQ(test, hi.neighs[0], 5);
	KUNIT_EXPECT_EQ(test, hi.neighs[1], 11);
	KUNIT_ASSERT_NOT_NULL(test, hi.neigh_coords);
	for (i = 0; i < hi.nneighs; i++)
		for (c = 0; c < DPT_S2_SPACES; c++)
			KUNIT_EXPECT_EQ(test, dp_hello_neigh_coord(&hi, i, c),
					dpt_s2_x(hi.neighs[i], c));
	kfree_skb(skb);
}

/*
 * The kernel's view drives the plan-mode routing core: toward node 9,
 * heard only as a 2-hop neighbour through node 5 (TLV 4 gave its
 * coordinates), greedy routing takes port 0 to 5 rather than port 1 to
 * 6, the closest 1-hop neighbour; without TLV 4 it cannot see 9.
 */
static void dpt_neigh_plan_route(struct kunit *test)
{
	struct dpt_dev *d = dpt_s2_dev(test, true);
	const struct dp_topo *t = &d->dp->topo;
	static const u32 ids[] = { 9 };
	u32 x5[DPT_S2_SPACES] = { dpt_s2_x(5, 0), dpt_s2_x(5, 1) };
	struct dp_route_state st;
	struct dp_hop hop;
	u32 c;
	int ret;

	dpt_s2_hello_ok(test, d, 0, 5, 1, ids, 1);
	dpt_s2_hello_ok(test, d, 1, 6, 1, NULL, 0);
	for (c = 0; c < 2; c++) {
		if (c)	/* the same Hello from 5 without TLV 4 */
			dpt_s2_hello(test, d, 0, 5, 1, x5, DPT_S2_SPACES, ids,
				     1, -1);
		dp_route_init(t, DPT_S2_SELF, 9, 0, 0, &st);
		st.flags |= dp_topo_coords_flag(t);
		st.ncoords = DPT_S2_SPACES;
		st.coords[0] = dpt_s2_x(9, 0);
		st.coords[1] = dpt_s2_x(9, 1);
		rcu_read_lock();
		ret = dp_route(t, DPT_S2_SELF, &st, &d->dp->view, &hop);
		rcu_read_unlock();
		KUNIT_ASSERT_EQ(test, ret, 0);
		KUNIT_EXPECT_EQ(test, hop.port, c ? 1 : 0);
		KUNIT_EXPECT_EQ(test, hop.next, c ? 6 : 5);
	}
}

/*
 * The view memo counts the neighbours a decision looked up, for the route
 * memo (which keeps only a decision that asked about one); the count
 * saturates (issue 53, item 9): a DPillar (256, k) decision walks up to
 * 258 candidates, and a u8 that wrapped to 1 would make such a decision
 * look like a one-neighbour one.
 */
static void dpt_neigh_memo_saturates(struct kunit *test)
{
	struct dpt_dev *d = dpt_dev_create(test, 4, 2, 0);
	struct dp_view_memo m = { .valid = false };
	struct dp_vctx c = { .dp = d->dp, .memo = &m };
	struct dp_port *port;
	u32 i;

	rcu_read_lock();
	for (i = 0; i < 300; i++)	/* a new neighbour each time */
		dp_vctx_find(&c, 0, i & 1, (i % 4) + 1, &port);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, m.lookups, U8_MAX);
}

/*
 * One random change to neighbour slot @i of port @p (dpt_rmemo_exact()),
 * and the route memo told as neigh.c tells it (dp_rmemo_neigh_changed()):
 * a slot that comes alive, a Hello that says something new.  A death by
 * time is told too, though nothing tells it in the module: the test
 * cannot move time on, so it moves the Hello back instead, which time
 * never does; dpt_rmemo_expiry() lets a neighbour die by real time.  A
 * port's carrier is never told: the memo reads it again.
 */
static void dpt_rmemo_change(struct dpt_dev *d, u32 p, u32 i, u32 what)
{
	struct dp_neigh *nb = &d->port[p]->neigh[i];
	u64 mac = 0x020000000000ULL | (p << 8) | i;
	bool news = false, has;
	u32 up;

	switch (what % 6) {
	case 0:	/* dead: unheard for longer than dead_ms */
		WRITE_ONCE(nb->last_heard, jiffies - 2 * d->dp->dead_jiffies);
		news = true;
		break;
	case 1:	/* alive */
		news = !dp_neigh_alive(d->dp, nb) ||
		       atomic64_read(&nb->mac) != mac;
		atomic64_set(&nb->mac, mac);
		WRITE_ONCE(nb->last_heard, jiffies);
		break;
	case 2:	/* a Hello listing its ports up: any two bits */
	case 3:
		up = (what >> 3) & 3;
		has = test_bit(DP_NEIGH_HAS_PORTS_UP, &nb->flags);
		news = !has || READ_ONCE(nb->ports_up) != up;
		WRITE_ONCE(nb->ports_up, up);
		set_bit(DP_NEIGH_HAS_PORTS_UP, &nb->flags);
		break;
	case 4:	/* a Hello without the list */
		news = test_and_clear_bit(DP_NEIGH_HAS_PORTS_UP, &nb->flags);
		break;
	default: /* our port down or up */
		dpt_port_set(d, p, true, (what >> 3) & 1);
		break;
	}
	if (news)
		dp_rmemo_neigh_changed(d->dp);
}

/*
 * The seed of dpt_rmemo_exact()'s changes and frames: 0 (the default) is a
 * random one, printed, which this parameter gives again (selftests/kunit.sh:
 * DPILLAR_KUNIT_SEED).
 */
static unsigned int rmemo_seed;
module_param(rmemo_seed, uint, 0444);
MODULE_PARM_DESC(rmemo_seed,
		 "dpt_rmemo_exact: seed of its random changes (default 0: a random one)");

/*
 * The route memo (route.c, struct dp_rmemo) never changes a hop.  On a
 * device of DPillar (4,3), BCube (4,1), DCell (3,1), XDCent (3,1,2) and
 * S2 (32 nodes of 4 ports, derived), with every neighbour alive
 * at first, 3,000 times: a frame of a random destination, mode and flow
 * hash (of 8, so that states repeat) is routed through the memo
 * (dp_route_hop(), BHs off as on the data path), then one neighbour
 * changes (the hop's, half the time), then the same state is routed
 * through the memo again and by dp_route() on the device's view: the
 * same result, hop and state.  And in DPillar, BCube and S2 the memo was
 * taken.  @calm: every other time nothing changes, and no flow hash (the
 * hashed first hop changes the state, which is never kept; a relay's
 * frames have none): S2's entries are multi entries, which any news of
 * any neighbour ends (struct dp_rmemo), so that a change every time
 * leaves few to take.  @seed: of @rnd, with @prm's kind and @calm, the
 * same draws every iteration whatever the routing gives.
 *
 * The two routings compared are of one jiffy, else they are done again:
 * time runs (a death by time ends a multi entry at its @expires), and in
 * a starved guest (a debug kernel's vCPU, niced, on a busy host) it can
 * jump by more than the dead interval between the memo's answer and the
 * core's, which then finds dead a neighbour the memo's decision found
 * alive a moment before (seen: one debug run in five, S2, the memo's hop
 * where the core dropped the frame).  The memo is exact at the time it is
 * asked, which is what is checked.
 */
static bool dpt_rmemo_exact_one(struct kunit *test,
				const struct dp_topo_params *prm, u32 self,
				bool calm, u32 seed)
{
	struct dpt_dev *d = dpt_dev_create_topo(test, prm, self);
	struct dp_priv *dp = d->dp;
	const struct dp_topo *t = &dp->topo;
	u32 n, p, i, r, dst, hits = 0, taken = 0, cpu, ticks = 0;
	u32 tries, hit, rp, ri;
	struct dp_route_state st, st1, st2;
	struct dp_hop h1, h2, h3;
	struct rnd_state rnd;
	unsigned long j;
	int r1, r2, r3;

	prandom_seed_state(&rnd, ((u64)seed << 32) | (prm->kind << 1) | calm);
	for (p = 0; p < dp->nports; p++)
		for (i = 0; i < d->port[p]->nneigh; i++)
			dpt_rmemo_change(d, p, i, 1);
	for (n = 0; n < 3000; n++) {
		struct dp_view_memo m1 = {};
		struct dp_vctx c1 = { .dp = dp, .memo = &m1 };

		r = prandom_u32_state(&rnd);
		dst = prandom_u32_state(&rnd) % t->nodes;
		rp = prandom_u32_state(&rnd);
		ri = prandom_u32_state(&rnd);
		if (dst == self)
			continue;
		dp_route_init(t, self, dst, r % dp_sel_count(t),
			      calm ? 0 : (r >> 8) & 7, &st);
		st1 = st;
		local_bh_disable();
		rcu_read_lock();
		r1 = dp_route_hop(dp, &st1, &c1, &h1);
		rcu_read_unlock();
		local_bh_enable();
		r = prandom_u32_state(&rnd);
		if (!r1 && (r & 1)) {
			p = h1.port;
			i = dp_port_neigh_index(t, self, p, h1.next);
		} else {
			p = rp % dp->nports;
			i = ri % d->port[p]->nneigh;
		}
		if (!calm)
			dpt_rmemo_change(d, p, i, r >> 1);
		else if (r & 2)
			dpt_rmemo_change(d, p, i, r >> 2);
		for (tries = 0; ; tries++) {
			struct dp_view_memo m2 = {};
			struct dp_vctx c2 = { .dp = dp, .memo = &m2 };

			j = jiffies;
			st1 = st;
			st2 = st;
			local_bh_disable();
			rcu_read_lock();
			hit = this_cpu_read(dp->rmemo->hits);
			r2 = dp_route_hop(dp, &st1, &c2, &h2);
			hit = this_cpu_read(dp->rmemo->hits) - hit;
			r3 = dp_route(t, self, &st2, &dp->view, &h3);
			rcu_read_unlock();
			local_bh_enable();
			if (!time_after(jiffies, j))
				break;
			ticks++;
			KUNIT_ASSERT_LT_MSG(test, tries, 1000,
					    "seed %u: a tick every two routings",
					    seed);
		}
		KUNIT_EXPECT_EQ_MSG(test, r2, r3, "%u to %u", n, dst);
		if (r2 != r3 || (!r3 && (h2.next != h3.next ||
					 h2.port != h3.port))) {
			kunit_info(test, "seed %u topology %u calm %d: %u to %u: st %x/%x r1 %d h1 %u:%u, r2 %d (memo %u) h2 %u:%u ph %u, r3 %d h3 %u:%u reason %u, change %u.%u %u, jiffies %lu, ngen %d",
				   seed, prm->kind, calm, n, dst, st.flags,
				   st.word, r1, h1.port, h1.next, r2, hit,
				   h2.port, h2.next, h2.phase, r3, h3.port,
				   h3.next, h3.reason, p, i,
				   (calm ? r >> 2 : r >> 1) % 6, j,
				   atomic_read(&dp->rmemo_ngen));
			KUNIT_FAIL(test, "seed %u: the memo changed a hop",
				   seed);
			return false;
		}
		KUNIT_EXPECT_EQ(test, st1.dst, st2.dst);
		KUNIT_EXPECT_EQ(test, st1.waypoint, st2.waypoint);
		KUNIT_EXPECT_EQ(test, st1.word, st2.word);
		KUNIT_EXPECT_EQ(test, st1.flags, st2.flags);
		if (r3)
			continue;
		KUNIT_EXPECT_EQ(test, h2.phase, h3.phase);
		taken++;
	}
	for_each_possible_cpu(cpu)
		hits += per_cpu_ptr(dp->rmemo, cpu)->hits;
	kunit_info(test, "topology %u%s: %u hops, %u from the memo, %u ticks between the two routings",
		   prm->kind, calm ? " calm" : "", taken, hits, ticks);
	return taken && hits > taken / 5;
}

static void dpt_rmemo_exact(struct kunit *test)
{
	struct dp_topo_params dpillar = { .kind = DP_TOPO_DPILLAR, .n = 4,
					  .k = 3 };
	struct dp_topo_params bcube = { .kind = DP_TOPO_BCUBE, .n = 4,
					.k = 1 };
	struct dp_topo_params dcell = { .kind = DP_TOPO_DCELL, .n = 3,
					.k = 1 };
	struct dp_topo_params xdcent = { .kind = DP_TOPO_XDCENT, .n = 3,
					 .k = 1, .level = 2 };
	struct dp_topo_params s2 = { .kind = DP_TOPO_S2, .nodes = 32, .n = 4,
				     .spaces = 2, .seed = 1 };
	u32 seed = rmemo_seed ?: get_random_u32() | 1;

	kunit_info(test, "seed %u (dpillar_test rmemo_seed=%u gives it again)",
		   seed, seed);
	/* and the memo is taken: in most of the second routings of a state */
	KUNIT_EXPECT_TRUE(test,
			  dpt_rmemo_exact_one(test, &dpillar, 9, false, seed));
	KUNIT_EXPECT_TRUE(test,
			  dpt_rmemo_exact_one(test, &bcube, 5, false, seed));
	dpt_rmemo_exact_one(test, &dcell, 5, false, seed);
	dpt_rmemo_exact_one(test, &xdcent, 5, false, seed);
	/*
	 * S2's greedy step asks about every neighbour: multi entries, exact
	 * under a change every time, and taken when not every time.
	 */
	dpt_rmemo_exact_one(test, &s2, 5, false, seed);
	KUNIT_EXPECT_TRUE(test, dpt_rmemo_exact_one(test, &s2, 5, true, seed));
}

/* Room for the states dpt_rmemo_relay() collects at one node. */
#define DPT_RELAY_STATES	4096

/*
 * One frame from @src to @dst (mode @sel, flow hash @hash) routed hop by
 * hop on view @v as the relays route it: the states it arrives at @self
 * with (or leaves it with, the sender's) appended to @out, up to @max.
 */
static void dpt_relay_walk(const struct dp_topo *t, const struct dp_view *v,
			   u32 self, u32 src, u32 dst, u32 sel, u32 hash,
			   struct dp_route_state *out, u32 *n, u32 max)
{
	struct dp_route_state st;
	struct dp_hop hop;
	u32 cur, i;

	dp_route_init(t, src, dst, sel, hash, &st);
	for (cur = src, i = 0; cur != dst && i <= t->max_hops; i++) {
		if (cur == self && *n < max)
			out[(*n)++] = st;
		if (dp_route(t, cur, &st, v, &hop))
			return;
		cur = hop.next;
	}
}

/*
 * The routing states frames arrive at @self with (and those it sends
 * with), into @out: every pair of live nodes of @t in every mode (the
 * shortest with four flow hashes), on the view of failure set @f.
 * Returns how many (at most @max).
 */
static u32 dpt_relay_states(const struct dp_topo *t,
			    const struct dp_fail_set *f, u32 self,
			    struct dp_route_state *out, u32 max)
{
	u32 src, dst, sel, h, n = 0;
	struct dp_view v;

	dp_fail_view(f, &v);
	for (src = 0; src < t->nodes; src++) {
		for (dst = 0; dst < t->nodes; dst++) {
			if (src == dst || dp_fail_node(f, src) ||
			    dp_fail_node(f, dst))
				continue;
			for (sel = 0; sel < dp_sel_count(t); sel++)
				for (h = 0; h < (sel ? 1 : 4); h++)
					dpt_relay_walk(t, &v, self, src, dst,
						       sel, h * 0x9e3779b9,
						       out, &n, max);
		}
	}
	return n;
}

/*
 * @st routed at @d's node through the memo twice (the first may keep
 * it, the second may take it) and by dp_route() on the device's view,
 * all three of one jiffy (else again, as in dpt_rmemo_exact_one()): the
 * same result, hop and state.  *@hits: the memo's hits meanwhile; *@ok:
 * the core gave a hop.
 */
static bool dpt_rmemo_relay_one(struct kunit *test, struct dpt_dev *d,
				const struct dp_route_state *st, u32 *hits,
				bool *ok)
{
	struct dp_priv *dp = d->dp;
	struct dp_route_state s1, s2, s3;
	struct dp_hop h1, h2, h3;
	u32 tries, hit;
	unsigned long j;
	int r1, r2, r3;

	for (tries = 0; ; tries++) {
		struct dp_view_memo m1 = {}, m2 = {};
		struct dp_vctx c1 = { .dp = dp, .memo = &m1 };
		struct dp_vctx c2 = { .dp = dp, .memo = &m2 };

		j = jiffies;
		s1 = *st;
		s2 = *st;
		s3 = *st;
		local_bh_disable();
		rcu_read_lock();
		hit = this_cpu_read(dp->rmemo->hits);
		r1 = dp_route_hop(dp, &s1, &c1, &h1);
		r2 = dp_route_hop(dp, &s2, &c2, &h2);
		hit = this_cpu_read(dp->rmemo->hits) - hit;
		r3 = dp_route(&dp->topo, dp->self, &s3, &dp->view, &h3);
		rcu_read_unlock();
		local_bh_enable();
		if (!time_after(jiffies, j))
			break;
		KUNIT_ASSERT_LT(test, tries, 1000);
	}
	*hits += hit;
	*ok = !r3;
	if (r1 == r3 && r2 == r3 &&
	    (r3 || (h1.next == h3.next && h1.port == h3.port &&
		    h2.next == h3.next && h2.port == h3.port &&
		    h2.phase == h3.phase)) &&
	    !memcmp(&s1, &s3, sizeof(s3)) && !memcmp(&s2, &s3, sizeof(s3)))
		return true;
	KUNIT_FAIL(test,
		   "at %u, state %u/%x/%x/%u: memo %d %u:%u %x/%u, then %d %u:%u %x/%u (%u taken); core %d %u:%u %x/%u reason %u",
		   dp->self, st->dst, st->flags, st->word, st->waypoint,
		   r1, h1.port, h1.next, s1.flags, s1.waypoint,
		   r2, h2.port, h2.next, s2.flags, s2.waypoint, hit,
		   r3, h3.port, h3.next, s3.flags, s3.waypoint, h3.reason);
	return false;
}

/*
 * The route memo on what a relay routes, around a failed neighbour
 * (dpillar_ft.sh: a relay server fails, the flows around it relay as
 * dpsim says).  DPillar (4,3), each node in turn with the first
 * neighbour of each of its ports failed (unheard: dead), one port after
 * the other on the same device, so that the memo keeps the entries of
 * the last failure; the states its frames arrive with under that
 * failure (dpt_relay_states(): tunnels, their waypoints, u-turns, ring
 * reversals, the shortest mode's detours), each routed as
 * dpt_rmemo_relay_one() says, in four rounds that keep the memo too: the
 * neighbour dead, alive again, dead again, and dead with the second
 * neighbour of that port dead too.  And the memo is taken.
 */
static void dpt_rmemo_relay(struct kunit *test)
{
	struct dp_topo_params prm = { .kind = DP_TOPO_DPILLAR, .n = 4,
				      .k = 3 };
	u32 self, nodes = 1, fp, n, k, i, round, hits = 0, taken = 0;
	struct dp_route_state *sts;
	const struct dp_topo *t;
	struct dp_fail_set f;
	struct dpt_dev *d;
	bool ok;

	sts = kunit_kcalloc(test, DPT_RELAY_STATES, sizeof(*sts), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sts);
	for (self = 0; self < nodes; self++) {
		d = dpt_dev_create_topo(test, &prm, self);
		t = &d->dp->topo;
		nodes = t->nodes;
		dpt_fail_init(test, &f, t);
		for (fp = 0; fp < t->nports; fp++) {
			for (k = 0; k < d->dp->nports; k++)
				for (i = 0; i < d->port[k]->nneigh; i++)
					dpt_rmemo_change(d, k, i, 1);
			dp_fail_clear(&f);
			dp_fail_set_node(&f, dp_port_neigh(t, self, fp, 0));
			n = dpt_relay_states(t, &f, self, sts,
					     DPT_RELAY_STATES);
			KUNIT_ASSERT_LT(test, n, DPT_RELAY_STATES);
			for (round = 0; round < 4; round++) {
				/* dead, alive, dead, and a second one dead */
				dpt_rmemo_change(d, fp, 0, round == 1);
				if (round == 3)
					dpt_rmemo_change(d, fp, 1, 0);
				for (k = 0; k < n; k++) {
					if (!dpt_rmemo_relay_one(test, d, &sts[k],
								 &hits, &ok))
						return;
					taken += ok;
				}
			}
		}
	}
	kunit_info(test, "%u hops, %u from the memo (of two routings each)",
		   taken, hits);
	KUNIT_EXPECT_GT(test, hits, taken / 4);
}

/*
 * A multi entry of the route memo ends when a neighbour its decision
 * found alive dies by time, with no event (struct dp_rmemo's @expires).
 * S2 (32 nodes of 4 ports, derived), a dead interval of 2 jiffies: the
 * neighbours heard HZ ahead, but the one of the hop to some destination
 * heard now; a state is routed through the memo twice (the second from
 * the entry), then the hop's neighbour goes unheard until it is dead,
 * and the same state routed through the memo gives what dp_route()
 * gives, another hop.  Each pair of routings is of one jiffy, as in
 * dpt_rmemo_exact_one().
 */
static void dpt_rmemo_expiry(struct kunit *test)
{
	struct dp_topo_params s2 = { .kind = DP_TOPO_S2, .nodes = 32, .n = 4,
				     .spaces = 2, .seed = 1 };
	struct dpt_dev *d = dpt_dev_create_topo(test, &s2, 5);
	struct dp_priv *dp = d->dp;
	const struct dp_topo *t = &dp->topo;
	struct dp_route_state st, st1;
	u32 p, dst, hits, tries;
	struct dp_hop h1, h2, h3;
	struct dp_neigh *nb;
	unsigned long j;
	int r1, r2, r3;

	for (p = 0; p < dp->nports; p++)
		if (d->port[p]->nneigh)
			dpt_rmemo_change(d, p, 0, 1);
	/* A destination whose hop is not the destination itself */
	for (dst = 0; dst < t->nodes; dst++) {
		if (dst == 5)
			continue;
		dp_route_init(t, 5, dst, 0, 0, &st);
		st1 = st;
		rcu_read_lock();
		r1 = dp_route(t, 5, &st1, &dp->view, &h1);
		rcu_read_unlock();
		if (!r1 && h1.next != dst)
			break;
	}
	KUNIT_ASSERT_LT(test, dst, t->nodes);
	nb = &d->port[h1.port]->neigh[0];
	dp->dead_jiffies = 2;
	dp_rmemo_neigh_changed(dp);	/* as settings.c does */
	for (p = 0; p < dp->nports; p++)
		if (p != h1.port && d->port[p]->nneigh)
			WRITE_ONCE(d->port[p]->neigh[0].last_heard,
				   jiffies + HZ);
	/*
	 * Heard now, and the two routings before the next jiffy (else again,
	 * the memo told: a stalled guest may have let it die meanwhile).
	 */
	for (tries = 0; ; tries++) {
		struct dp_view_memo m1 = {}, m2 = {};
		struct dp_vctx c1 = { .dp = dp, .memo = &m1 };
		struct dp_vctx c2 = { .dp = dp, .memo = &m2 };

		j = jiffies;
		WRITE_ONCE(nb->last_heard, j);
		dp_rmemo_neigh_changed(dp);
		local_bh_disable();
		rcu_read_lock();
		hits = this_cpu_read(dp->rmemo->hits);
		st1 = st;
		r1 = dp_route_hop(dp, &st1, &c1, &h1);
		st1 = st;
		r2 = dp_route_hop(dp, &st1, &c2, &h2);
		hits = this_cpu_read(dp->rmemo->hits) - hits;
		rcu_read_unlock();
		local_bh_enable();
		if (!time_after(jiffies, j))
			break;
		KUNIT_ASSERT_LT(test, tries, 100);
	}
	KUNIT_ASSERT_EQ(test, r1, 0);
	KUNIT_ASSERT_EQ(test, r2, 0);
	KUNIT_EXPECT_EQ(test, h2.next, h1.next);
	KUNIT_EXPECT_EQ(test, hits, 1);
	/* The hop's neighbour dies by time alone. */
	for (tries = 0; dp_neigh_alive(dp, nb) && tries < 100; tries++)
		schedule_timeout_uninterruptible(1);
	KUNIT_ASSERT_FALSE(test, dp_neigh_alive(dp, nb));
	/* The memo and the core at one jiffy (dpt_rmemo_exact_one()) */
	for (tries = 0; ; tries++) {
		struct dp_view_memo m3 = {};
		struct dp_vctx c3 = { .dp = dp, .memo = &m3 };

		j = jiffies;
		local_bh_disable();
		rcu_read_lock();
		st1 = st;
		r2 = dp_route_hop(dp, &st1, &c3, &h2);
		st1 = st;
		r3 = dp_route(t, 5, &st1, &dp->view, &h3);
		rcu_read_unlock();
		local_bh_enable();
		if (!time_after(jiffies, j))
			break;
		KUNIT_ASSERT_LT(test, tries, 100);
	}
	KUNIT_EXPECT_EQ(test, r2, r3);
	if (!r3) {
		KUNIT_EXPECT_EQ(test, h2.next, h3.next);
		KUNIT_EXPECT_EQ(test, h2.port, h3.port);
		KUNIT_EXPECT_NE(test, h3.next, h1.next);
	}
}

static struct kunit_case dpt_neigh_cases[] = {
	KUNIT_CASE(dpt_neigh_learn),
	KUNIT_CASE(dpt_rmemo_exact),
	KUNIT_CASE(dpt_rmemo_expiry),
	KUNIT_CASE(dpt_rmemo_relay),
	KUNIT_CASE(dpt_neigh_miswired),
	KUNIT_CASE(dpt_neigh_miswired_k2),
	KUNIT_CASE(dpt_neigh_bad_hello),
	KUNIT_CASE(dpt_neigh_aging),
	KUNIT_CASE(dpt_neigh_mac_change),
	KUNIT_CASE(dpt_neigh_mac_taken),
	KUNIT_CASE(dpt_neigh_hello_not_group),
	KUNIT_CASE(dpt_neigh_miswired_flood),
	KUNIT_CASE(dpt_neigh_port_state),
	KUNIT_CASE(dpt_neigh_hello_tlv),
	KUNIT_CASE(dpt_neigh_hello_bad_tlv),
	KUNIT_CASE(dpt_neigh_plan_learn),
	KUNIT_CASE(dpt_neigh_plan_miswired),
	KUNIT_CASE(dpt_neigh_plan_bad),
	KUNIT_CASE(dpt_neigh_derived_tlv4),
	KUNIT_CASE(dpt_neigh_plan_send),
	KUNIT_CASE(dpt_neigh_plan_route),
	KUNIT_CASE(dpt_neigh_memo_saturates),
	{}
};

static struct kunit_suite dpt_neigh_suite = {
	.name = "dpillar_neigh",
	.test_cases = dpt_neigh_cases,
};

kunit_test_suites(&dpt_neigh_suite);
