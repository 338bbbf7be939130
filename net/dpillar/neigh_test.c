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

#include "test_lib.h"

static void dpt_mac_of(u32 node, u8 *mac)
{
	mac[0] = 0x02;	/* locally administered unicast */
	mac[1] = 0xd0;
	mac[2] = node >> 24;
	mac[3] = node >> 16;
	mac[4] = node >> 8;
	mac[5] = node;
}

/* Port of @peer on the switch our @port plugs into (topo_test.c too). */
static u32 dpt_peer_port_of(const struct dp_topo *t, u32 self, u32 port,
			    u32 peer)
{
	u32 sc, sid;

	dp_port_switch(t, self, port, &sc, &sid);
	return peer / t->nlabels == sc ? DP_PORT_CW : DP_PORT_CCW;
}

/* A Hello from @src's port @sport (MAC @mac) arriving on our @port. */
static void dpt_hello(struct kunit *test, struct dpt_dev *d, u32 port,
		      u32 src, u32 sport, const u8 *mac, unsigned int len)
{
	u8 buf[DP_HDR_LEN + sizeof(struct dpillar_hello)];
	struct dpillar_hello *hello = (void *)(buf + DP_HDR_LEN);
	rx_handler_result_t ret;
	struct sk_buff *skb;

	dpt_hdr((struct dpillar_hdr *)buf, DPILLAR_T_HELLO, src,
		DPILLAR_NODE_NONE);
	memset(hello, 0, sizeof(*hello));
	hello->port = sport;
	hello->interval_ms = htonl(DP_HELLO_MS_DEFAULT);
	skb = dpt_frame(test, d, port, mac, DPILLAR_ETHERTYPE, buf,
			min_t(unsigned int, len, sizeof(buf)), sizeof(buf));
	ret = dpt_rx(&skb);
	KUNIT_EXPECT_EQ(test, ret, RX_HANDLER_CONSUMED);
	if (ret != RX_HANDLER_CONSUMED)
		kfree_skb(skb);	/* still ours */
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
	ret = dp_reachable(d->dp, d->dp->self, port, peer);
	rcu_read_unlock();
	return ret;
}

/* (4,3) node 1:0.1.0, unless a test needs another fabric. */
static struct dpt_dev *dpt_neigh_dev(struct kunit *test, u32 n, u32 k)
{
	struct dp_topo t;

	KUNIT_ASSERT_EQ(test, dp_topo_init(&t, DP_TOPO_DPILLAR, n, k, NULL), 0);
	return dpt_dev_create(test, n, k, t.nlabels + t.h);
}

static void dpt_neigh_learn(struct kunit *test)
{
	struct dpt_dev *d = dpt_neigh_dev(test, 4, 3);
	const struct dp_topo *t = &d->dp->topo;
	u32 self = d->dp->self, port, i, peer, learned = 0, id;
	u8 mac[ETH_ALEN];

	for (port = 0; port < DP_NPORTS; port++) {
		for (i = 0; i < dp_port_neigh_count(t); i++) {
			peer = dp_port_neigh(t, self, port, i);
			KUNIT_EXPECT_FALSE(test, dpt_reach(d, port, peer));
		}
	}
	for (port = 0; port < DP_NPORTS; port++) {
		for (i = 0; i < dp_port_neigh_count(t); i++) {
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
		for (port = 0; port < DP_NPORTS; port++) {
			if (dp_port_neigh_index(t, self, port, id) < 0)
				KUNIT_EXPECT_FALSE(test, dpt_reach(d, port, id));
		}
	}
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 0, self));
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 0, t->nodes));
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, 0, DP_NODE_NONE));
	KUNIT_EXPECT_FALSE(test, dpt_reach(d, DP_NPORTS,
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
		for (sport = 0; sport < DP_NPORTS; sport++) {
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
	dpt_hello(test, d, 0, peer, DP_NPORTS, mac, ~0U);
	dpt_hello(test, d, 0, peer, 0xff, mac, ~0U);
	wrong += 3;
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_MISWIRED), wrong);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 0);
	for (i = 0; i < dp_port_neigh_count(t); i++)
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

	for (i = 0; i < dp_port_neigh_count(t); i++) {
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
	u8 mac[ETH_ALEN];
	int idx;

	peer = dp_port_neigh(t, self, 1, 2);
	idx = dp_port_neigh_index(t, self, 1, peer);
	sport = dpt_peer_port_of(t, self, 1, peer);
	dpt_mac_of(peer, mac);
	dpt_hello(test, d, 1, peer, sport, mac, ~0U);
	/* The peer's NIC was replaced. */
	mac[5] ^= 0x55;
	dpt_hello(test, d, 1, peer, sport, mac, ~0U);
	KUNIT_EXPECT_EQ(test, atomic64_read(&d->port[1]->neigh[idx].mac),
			ether_addr_to_u64(mac));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 2);
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

static struct kunit_case dpt_neigh_cases[] = {
	KUNIT_CASE(dpt_neigh_learn),
	KUNIT_CASE(dpt_neigh_miswired),
	KUNIT_CASE(dpt_neigh_miswired_k2),
	KUNIT_CASE(dpt_neigh_bad_hello),
	KUNIT_CASE(dpt_neigh_aging),
	KUNIT_CASE(dpt_neigh_mac_change),
	KUNIT_CASE(dpt_neigh_port_state),
	{}
};

static struct kunit_suite dpt_neigh_suite = {
	.name = "dpillar_neigh",
	.test_cases = dpt_neigh_cases,
};

kunit_test_suites(&dpt_neigh_suite);
