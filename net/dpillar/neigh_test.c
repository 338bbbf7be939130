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
#include "topo_dpillar.h"

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
	return dp_peer_port(t, self, port, peer);
}

#define DPT_TLV_BYTES	64

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
	ret = dp_reachable(d->dp, d->dp->self, port, peer);
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
	ret = d->dp->view.ports_up(d->dp, d->dp->self, port, peer, mask);
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

	peer = dp_port_neigh(t, self, 0, 1);
	sport = dpt_peer_port_of(t, self, 0, peer);
	dpt_mac_of(peer, mac);
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

	/* The last TLV needs no padding. */
	pos = 0;
	dpt_tlv(tlv, &pos, DPILLAR_TLV_PORTS_UP, 4, &up, 4);
	dpt_tlv(tlv, &pos, 0x7ffe, 1, &other, 1);
	dpt_hello_tlv(test, d, 0, peer, sport, mac, ~0U, pos - 3, tlv,
		      pos - 3);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_BAD), 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 2);

	/* A first-version Hello: learned, and no ports-up news. */
	dpt_hello_ok(test, d, 0, peer);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_HELLO_RX), 3);
	KUNIT_EXPECT_FALSE(test, dpt_ports_up(d, 0, peer, &mask));
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

static struct kunit_case dpt_neigh_cases[] = {
	KUNIT_CASE(dpt_neigh_learn),
	KUNIT_CASE(dpt_neigh_miswired),
	KUNIT_CASE(dpt_neigh_miswired_k2),
	KUNIT_CASE(dpt_neigh_bad_hello),
	KUNIT_CASE(dpt_neigh_aging),
	KUNIT_CASE(dpt_neigh_mac_change),
	KUNIT_CASE(dpt_neigh_hello_not_group),
	KUNIT_CASE(dpt_neigh_miswired_flood),
	KUNIT_CASE(dpt_neigh_port_state),
	KUNIT_CASE(dpt_neigh_hello_tlv),
	KUNIT_CASE(dpt_neigh_hello_bad_tlv),
	{}
};

static struct kunit_suite dpt_neigh_suite = {
	.name = "dpillar_neigh",
	.test_cases = dpt_neigh_cases,
};

kunit_test_suites(&dpt_neigh_suite);
