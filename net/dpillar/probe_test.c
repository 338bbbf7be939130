// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of path probes (probe.c) and path selection (pathsel.c): the
 * answers a target sends under its reply budgets, and which replies the
 * prober takes.  An XDCent (3,1,2) fabric in the hash mode (candidate
 * paths); every neighbour alive, the ports' transmissions kept in
 * dpp_sent.
 */

#include <kunit/test.h>
#include <linux/etherdevice.h>

#include "test_lib.h"
#include "topo_xdcent.h"

static struct sk_buff_head dpp_sent;

static netdev_tx_t dpp_xmit(struct sk_buff *skb, struct net_device *dev)
{
	skb_queue_tail(&dpp_sent, skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops dpp_lower_ops = {
	.ndo_start_xmit = dpp_xmit,
};

static void dpp_mac(u32 node, u8 *mac)
{
	mac[0] = 0x02;
	mac[1] = 0xd0;
	mac[2] = 0;
	mac[3] = node >> 16;
	mac[4] = node >> 8;
	mac[5] = node;
}

static void dpp_stop(void *arg)
{
	dp_pathsel_stop(arg);
}

/* dp0 of node 0 of XDCent (3,1,2), hash mode, every neighbour alive. */
static struct dpt_dev *dpp_dev(struct kunit *test)
{
	struct dp_topo_params prm = { .kind = DP_TOPO_XDCENT, .n = 3, .k = 1,
				      .level = 2 };
	struct dpt_dev *d = dpt_dev_create_topo(test, &prm, 0);
	struct dp_priv *dp = d->dp;
	u32 p, i;

	dp->mode = XDC_SEL_HASH;
	/* Hundreds of frames under TCG: the neighbours stay alive. */
	dp->dead_jiffies = 3600 * HZ;
	for (p = 0; p < dp->nports; p++) {
		struct dp_port *port = d->port[p];

		dpt_port_capture(test, d->lower[p], &dpp_lower_ops);
		for (i = 0; i < port->nneigh; i++) {
			struct dp_neigh *nb = &port->neigh[i];
			u8 mac[ETH_ALEN];

			nb->node = dp_port_neigh(&dp->topo, 0, p, i);
			if (nb->node == DP_NODE_NONE)
				continue;
			dpp_mac(nb->node, mac);
			atomic64_set(&nb->mac, ether_addr_to_u64(mac));
			WRITE_ONCE(nb->last_heard, jiffies);
		}
	}
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, dpp_stop, dp),
			0);
	return d;
}

/* A probe or reply from node @src to @dst, received on port 0. */
static void dpp_rx(struct kunit *test, struct dpt_dev *d, u8 type, u32 src,
		   u32 dst, const struct dpillar_probe *pp)
{
	u8 buf[DP_HDR_LEN + sizeof(*pp)];
	struct dpillar_hdr *h = (void *)buf;
	rx_handler_result_t ret;
	struct sk_buff *skb;
	u8 mac[ETH_ALEN];

	dpt_hdr(h, type, src, dst);
	h->proto = 0;
	h->ttl = pp->ttl;
	memcpy(h + 1, pp, sizeof(*pp));
	dpp_mac(dp_port_neigh(&d->dp->topo, 0, 0, 0), mac);
	skb = dpt_frame(test, d, 0, mac, DPILLAR_ETHERTYPE, buf, sizeof(buf),
			sizeof(buf));
	ret = dpt_rx(&skb);
	KUNIT_EXPECT_EQ(test, ret, RX_HANDLER_CONSUMED);
	if (ret != RX_HANDLER_CONSUMED)
		kfree_skb(skb);
}

/* Take the sent frames of @type, their probe bodies in @pp (up to @max). */
static u32 dpp_take(u8 type, struct dpillar_probe *pp, u32 max)
{
	struct sk_buff *skb;
	u32 n = 0;

	while ((skb = skb_dequeue(&dpp_sent))) {
		const struct dpillar_hdr *h = (void *)(skb->data + ETH_HLEN);

		if (skb->len >= ETH_HLEN + DP_HDR_LEN + sizeof(*pp) &&
		    h->type == type) {
			if (n < max)
				memcpy(&pp[n], h + 1, sizeof(*pp));
			n++;
		}
		kfree_skb(skb);
	}
	return n;
}

/* @n probes for us from @src, ids from @id, each with the full TTL. */
static u32 dpp_probes(struct kunit *test, struct dpt_dev *d, u32 src, u16 id,
		      u32 n)
{
	struct dpillar_probe pp = {};
	u32 i;

	pp.ttl = dp_topo_ttl(&d->dp->topo);
	for (i = 0; i < n; i++) {
		pp.id = htons(id + i);
		pp.seq = htons(i);
		dpp_rx(test, d, DPILLAR_T_PROBE, src, 0, &pp);
	}
	return dpp_take(DPILLAR_T_PROBE_REPLY, NULL, 0);
}

/*
 * The reply budgets' window, and the period the senders' shares refill
 * in: one second that does not end in the test.
 */
static void dpp_freeze(struct dpt_dev *d)
{
	d->dp->probes.reply_rs.interval = 3600 * HZ;
	d->dp->probes.pathsel_rs.interval = 3600 * HZ;
	d->dp->probes.neighs_rs.interval = 3600 * HZ;
	d->dp->probes.sender_period = 3600 * HZ;
}

/*
 * @n probes for us (@flags), from @nsrc sources in turn (the highest node
 * ids), user ids from @id, full TTL: the replies sent.
 */
static u32 dpp_probes_from(struct kunit *test, struct dpt_dev *d, u32 nsrc,
			   u16 id, u8 flags, u32 n)
{
	struct dpillar_probe pp = {};
	u32 i;

	pp.ttl = dp_topo_ttl(&d->dp->topo);
	pp.flags = flags;
	for (i = 0; i < n; i++) {
		pp.id = htons(id + i);
		pp.seq = htons(i);
		dpp_rx(test, d, DPILLAR_T_PROBE,
		       d->dp->topo.nodes - 1 - i % nsrc, 0, &pp);
	}
	return dpp_take(DPILLAR_T_PROBE_REPLY, NULL, 0);
}

/* 16 sources, 4 candidates each, every 300 ms: in one second. */
#define DPP_FANIN	(16 * 4 * 4)

/* @got answers of a budget of @burst: all of them, none over. */
static void dpp_expect_budget(struct kunit *test, u32 got, u32 burst)
{
	KUNIT_EXPECT_EQ(test, got, burst);
}

/*
 * Probes users ask for (ROUTE_TRACE, ROUTE_PROBE) spend the target's
 * budget for them; path selection's fan-in is still answered, all of it.
 */
static void dpp_budget_user_first(struct kunit *test)
{
	struct dpt_dev *d = dpp_dev(test);
	u32 src = d->dp->topo.nodes - 1;

	dpp_freeze(d);
	/* eight senders: their shares are more than the budget */
	dpp_expect_budget(test, dpp_probes_from(test, d, 8, 1, 0, 300),
			  DP_PROBE_REPLY_BURST);
	dpp_expect_budget(test, dpp_probes(test, d, src,
					   DPILLAR_PROBE_ID_KERNEL, DPP_FANIN),
			  DPP_FANIN);
}

/* ... and the other way round. */
static void dpp_budget_pathsel_first(struct kunit *test)
{
	struct dpt_dev *d = dpp_dev(test);
	u32 src = d->dp->topo.nodes - 1;

	dpp_freeze(d);
	dpp_expect_budget(test, dpp_probes(test, d, src,
					   DPILLAR_PROBE_ID_KERNEL, DPP_FANIN),
			  DPP_FANIN);
	dpp_expect_budget(test, dpp_probes_from(test, d, 8, 1, 0, 300),
			  DP_PROBE_REPLY_BURST);
}

/*
 * One sender (a source on a port) flooding probes gets its share of each
 * budget, counted probe_sender_limit beyond it, and leaves the rest to
 * the others: another source's probes and table requests are answered.
 * Path selection's probes are not held to the share.
 */
static void dpp_sender_share(struct kunit *test)
{
	struct dpt_dev *d = dpp_dev(test);
	u32 src = d->dp->topo.nodes - 1;

	dpp_freeze(d);
	dpp_expect_budget(test, dpp_probes(test, d, src, 1, 300),
			  DP_PROBE_SENDER_BURST);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_PROBE_SENDER_LIMIT),
			300 - DP_PROBE_SENDER_BURST);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_PROBE_LIMIT), 0);
	/* the next source, user probes: all of its share */
	KUNIT_EXPECT_EQ(test, dpp_probes(test, d, src - 1, 1,
					 DP_PROBE_SENDER_BURST),
			DP_PROBE_SENDER_BURST);
	/* path selection's, from the flooding source: the fan-in's */
	dpp_expect_budget(test, dpp_probes(test, d, src,
					   DPILLAR_PROBE_ID_KERNEL, DPP_FANIN),
			  DPP_FANIN);
}

/*
 * Table requests: a flood from one sender gets DP_PROBE_SENDER_NEIGHS
 * tables; every other source asking once still gets its table, up to the
 * device's DP_PROBE_NEIGHS_BURST.
 */
static void dpp_sender_neighs(struct kunit *test)
{
	struct dpt_dev *d = dpp_dev(test);
	u32 src = d->dp->topo.nodes - 1, i, got = 0;

	KUNIT_ASSERT_GT(test, src,
			DP_PROBE_NEIGHS_BURST - DP_PROBE_SENDER_NEIGHS);
	dpp_freeze(d);
	dpp_expect_budget(test, dpp_probes_from(test, d, 1, 1,
						DPILLAR_PROBE_F_NEIGHS, 100),
			  DP_PROBE_SENDER_NEIGHS);
	for (i = 1; i <= DP_PROBE_NEIGHS_BURST - DP_PROBE_SENDER_NEIGHS; i++) {
		struct dpillar_probe pp = {};

		pp.ttl = dp_topo_ttl(&d->dp->topo);
		pp.flags = DPILLAR_PROBE_F_NEIGHS;
		pp.id = htons(1000 + i);
		dpp_rx(test, d, DPILLAR_T_PROBE, src - i, 0, &pp);
		got += dpp_take(DPILLAR_T_PROBE_REPLY, NULL, 0);
	}
	KUNIT_EXPECT_EQ(test, got,
			DP_PROBE_NEIGHS_BURST - DP_PROBE_SENDER_NEIGHS);
}

/*
 * Path selection takes a reply only when it echoes the stamp of the probe
 * it answers: one with the right (id, seq) and another stamp is a forgery
 * and changes nothing.
 */
static void dpp_pathsel_forged(struct kunit *test)
{
	struct dpt_dev *d = dpp_dev(test);
	struct dp_priv *dp = d->dp;
	struct dpillar_probe pp[DP_PATHS_MAX], r;
	struct dp_route_state st;
	u32 dst = dp->topo.nodes - 1, n;
	bool failed = true;

	n = dp_route_npaths(&dp->topo, 0, dst, XDC_SEL_HASH);
	KUNIT_ASSERT_GT(test, n, 1);
	/* A packet to @dst: it is followed from now on. */
	local_bh_disable();
	dp_pathsel_route_init(dp, dst, 0, &st);
	local_bh_enable();
	dp_pathsel_work(&dp->pathsel.work.work);
	cancel_delayed_work_sync(&dp->pathsel.work);
	KUNIT_ASSERT_EQ(test, dpp_take(DPILLAR_T_PROBE, pp, n), n);
	KUNIT_ASSERT_TRUE(test, dp_pathsel_state(dp, dst, 0, &failed));
	KUNIT_EXPECT_FALSE(test, failed);

	/* Candidate 0 "failed", says a forged reply. */
	r = pp[0];
	r.status = DPILLAR_PROBE_STATUS_NOROUTE;
	r.reporter = htonl(1);
	r.stamp ^= cpu_to_be64(1);
	dpp_rx(test, d, DPILLAR_T_PROBE_REPLY, 1, 0, &r);
	KUNIT_ASSERT_TRUE(test, dp_pathsel_state(dp, dst, 0, &failed));
	KUNIT_EXPECT_FALSE(test, failed);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_PROBE_REPLY_BAD), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DELIVERED), 0);

	/* The real answer is still taken: candidate 1 did fail. */
	r = pp[1];
	r.status = DPILLAR_PROBE_STATUS_NOROUTE;
	r.reporter = htonl(1);
	dpp_rx(test, d, DPILLAR_T_PROBE_REPLY, 1, 0, &r);
	KUNIT_ASSERT_TRUE(test, dp_pathsel_state(dp, dst, 1, &failed));
	KUNIT_EXPECT_TRUE(test, failed);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DELIVERED), 1);
	/* Once: the same answer again is a duplicate. */
	dpp_rx(test, d, DPILLAR_T_PROBE_REPLY, 1, 0, &r);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_PROBE_REPLY_BAD), 2);
	KUNIT_EXPECT_EQ(test, dpt_stat_outcomes(d),
			dpt_stat(d, DP_STAT_RX_FRAMES));
}

static int dpp_init(struct kunit *test)
{
	skb_queue_head_init(&dpp_sent);
	return 0;
}

/* A frame of @type from @src to @dst with TTL @ttl, received on port 0. */
static unsigned int dpp_relay_frame(struct dpt_dev *d, u8 *buf, u8 type,
				    u32 src, u32 dst, u8 ttl)
{
	struct dpillar_hdr *h = (void *)buf;
	struct dpillar_probe *pp = (void *)(h + 1);

	memset(buf, 0, DP_HDR_LEN + sizeof(*pp) + 20);
	dpt_hdr(h, type, src, dst);
	h->ttl = ttl;
	if (dp_probe_type(type)) {
		h->proto = 0;
		pp->ttl = dp_topo_ttl(&d->dp->topo);
	} else if (type == DPILLAR_T_SHORTCUT_DATA) {
		h->rword = htons(5);	/* no shortcut here: on as DATA */
	}
	return DP_HDR_LEN + sizeof(*pp) + 20;
}

/*
 * The one relay (relay.h, dp_relay(); issue 54) for every type it carries:
 * DATA, PROBE, PROBE_REPLY and SHORTCUT_DATA (no shortcut here: it goes
 * on as DATA).  Each, received as a clone (its header shared) with a
 * timestamp, a mark, a priority and CHECKSUM_COMPLETE, leaves once with
 * its TTL one lower, none of those (issue 53, item 5) and the original's
 * header untouched (copy-on-write), and is counted forwarded.  At TTL 1
 * each is dropped for its TTL, but a probe, which is answered (TTL
 * status).  Before the relay was one, probes kept CHECKSUM_COMPLETE.
 */
static void dpp_relay_one(struct kunit *test)
{
	u8 buf[DP_HDR_LEN + sizeof(struct dpillar_probe) + 20];
	static const u8 types[] = { DPILLAR_T_DATA, DPILLAR_T_PROBE,
				    DPILLAR_T_PROBE_REPLY,
				    DPILLAR_T_SHORTCUT_DATA };
	struct dpt_dev *d = dpp_dev(test);
	u32 src = dp_port_neigh(&d->dp->topo, 0, 0, 0);
	u32 dst = d->dp->topo.nodes - 1;
	const struct dpillar_hdr *h;
	struct dpillar_probe ans;
	struct sk_buff *orig, *skb;
	rx_handler_result_t ret;
	unsigned int len;
	u8 mac[ETH_ALEN];
	u32 i;

	KUNIT_ASSERT_NE(test, src, DP_NODE_NONE);
	/* The default mode: the discovery fallback's, SHORTCUT_DATA's. */
	WRITE_ONCE(d->dp->mode, 0);
	KUNIT_ASSERT_TRUE(test, dp_sc_fallback(d->dp));
	dpp_mac(src, mac);
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		len = dpp_relay_frame(d, buf, types[i], src, dst, 10);
		orig = dpt_frame(test, d, 0, mac, DPILLAR_ETHERTYPE, buf, len,
				 len);
		skb = skb_clone(orig, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, skb);
		skb->tstamp = ktime_get_real();
		skb->mark = 0x2a;
		skb->priority = 7;
		skb->ip_summed = CHECKSUM_COMPLETE;
		skb->csum = (__force __wsum)0x1234;
		ret = dpt_rx(&skb);
		KUNIT_EXPECT_EQ(test, ret, RX_HANDLER_CONSUMED);
		if (ret != RX_HANDLER_CONSUMED)
			kfree_skb(skb);
		h = (const void *)orig->data;
		KUNIT_EXPECT_EQ_MSG(test, h->ttl, 10, "type %u", types[i]);
		kfree_skb(orig);
		skb = skb_dequeue(&dpp_sent);
		KUNIT_ASSERT_NOT_NULL_MSG(test, skb, "type %u not relayed",
					  types[i]);
		h = (const void *)(skb->data + ETH_HLEN);
		KUNIT_EXPECT_EQ_MSG(test, h->ttl, 9, "type %u", types[i]);
		KUNIT_EXPECT_EQ_MSG(test, h->type,
				    types[i] == DPILLAR_T_SHORTCUT_DATA ?
				    DPILLAR_T_DATA : types[i],
				    "type %u", types[i]);
		KUNIT_EXPECT_EQ(test, skb->tstamp, 0);
		KUNIT_EXPECT_EQ(test, skb->mark, 0);
		KUNIT_EXPECT_EQ(test, skb->priority, 0);
		KUNIT_EXPECT_NE_MSG(test, (int)skb->ip_summed,
				    CHECKSUM_COMPLETE, "type %u", types[i]);
		kfree_skb(skb);
		KUNIT_EXPECT_NULL(test, skb_peek(&dpp_sent));
	}
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_FORWARDED), 4);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_TTL), 0);

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		len = dpp_relay_frame(d, buf, types[i], src, dst, 1);
		skb = dpt_frame(test, d, 0, mac, DPILLAR_ETHERTYPE, buf, len,
				len);
		ret = dpt_rx(&skb);
		KUNIT_EXPECT_EQ(test, ret, RX_HANDLER_CONSUMED);
		if (ret != RX_HANDLER_CONSUMED)
			kfree_skb(skb);
		if (types[i] == DPILLAR_T_PROBE) {
			KUNIT_ASSERT_EQ(test, dpp_take(DPILLAR_T_PROBE_REPLY,
						       &ans, 1), 1);
			KUNIT_EXPECT_EQ(test, ans.status,
					DPILLAR_PROBE_STATUS_TTL);
		}
		KUNIT_EXPECT_NULL_MSG(test, skb_peek(&dpp_sent), "type %u",
				      types[i]);
	}
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_DROP_TTL), 3);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_FORWARDED), 4);
	/* Every frame ended counted, but the probe answered for its TTL. */
	KUNIT_EXPECT_EQ(test, dpt_stat_outcomes(d) + 1,
			dpt_stat(d, DP_STAT_RX_FRAMES));
}

/* The reply to one probe for us from @src with @flags (caller frees). */
static struct sk_buff *dpp_one_reply(struct kunit *test, struct dpt_dev *d,
				     u32 src, u8 flags)
{
	struct dpillar_probe pp = {};
	struct sk_buff *skb, *got = NULL;

	pp.ttl = dp_topo_ttl(&d->dp->topo);
	pp.id = htons(7);
	pp.flags = flags;
	dpp_rx(test, d, DPILLAR_T_PROBE, src, 0, &pp);
	while ((skb = skb_dequeue(&dpp_sent))) {
		const struct dpillar_hdr *h = (void *)(skb->data + ETH_HLEN);

		if (!got && skb->len >= ETH_HLEN + DP_HDR_LEN + sizeof(pp) &&
		    h->type == DPILLAR_T_PROBE_REPLY)
			got = skb;
		else
			kfree_skb(skb);
	}
	return got;
}

#define DPP_TABLE_OFF	(ETH_HLEN + DP_HDR_LEN + sizeof(struct dpillar_probe))

/*
 * A probe asking for the neighbour table (DPILLAR_PROBE_F_NEIGHS) gets it
 * in the REACHED reply: every live neighbour in port and table order, with
 * its port, then a port's miswired sender; a probe without the flag gets
 * a reply without a table.
 */
static void dpp_neighs_reply(struct kunit *test)
{
	struct dpt_dev *d = dpp_dev(test);
	struct dp_priv *dp = d->dp;
	const struct dp_topo *t = &dp->topo;
	u32 src = t->nodes - 1, p, i, e = 0, stranger = 5;
	struct dp_probe_neighs *nb;
	const struct dpillar_probe *pp;
	struct dp_port *port0 = d->port[0];
	struct sk_buff *skb;

	nb = kunit_kzalloc(test, sizeof(*nb), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, nb);
	/* A node that is not on port 0's switch, heard there. */
	while (dp_port_neigh_index(t, 0, 0, stranger) >= 0)
		stranger++;
	spin_lock_bh(&port0->miswired_lock);
	port0->miswired.mac = 0x020000000042ULL;
	port0->miswired.heard = jiffies;
	port0->miswired.node = stranger;
	port0->miswired.sport = 1;
	port0->miswired.count = 1;
	spin_unlock_bh(&port0->miswired_lock);

	skb = dpp_one_reply(test, d, src, DPILLAR_PROBE_F_NEIGHS);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	pp = (const void *)(skb->data + ETH_HLEN + DP_HDR_LEN);
	KUNIT_EXPECT_EQ(test, pp->status, DPILLAR_PROBE_STATUS_REACHED);
	KUNIT_EXPECT_EQ(test, pp->flags, DPILLAR_PROBE_F_NEIGHS);
	KUNIT_ASSERT_EQ(test, dp_probe_neighs_parse(skb->data + DPP_TABLE_OFF,
						    skb->len - DPP_TABLE_OFF,
						    nb), 0);
	kfree_skb(skb);
	KUNIT_EXPECT_TRUE(test, nb->valid);
	KUNIT_EXPECT_FALSE(test, nb->trunc);
	KUNIT_EXPECT_EQ(test, nb->nports, dp->nports);
	for (p = 0; p < dp->nports; p++) {
		for (i = 0; i < d->port[p]->nneigh; i++) {
			u32 node = dp_port_neigh(t, 0, p, i);

			if (node == DP_NODE_NONE)
				continue;
			KUNIT_ASSERT_LT(test, e, (u32)nb->count);
			KUNIT_EXPECT_EQ(test, nb->n[e].port, p);
			KUNIT_EXPECT_EQ(test, nb->n[e].node, node);
			KUNIT_EXPECT_EQ(test, nb->n[e].state,
					DPILLAR_NEIGH_STATE_REACHABLE);
			KUNIT_EXPECT_EQ(test, (int)nb->n[e].peer_port,
					dp_peer_port(t, 0, p, node));
			e++;
		}
		if (!p) {	/* port 0's miswired sender, after its table */
			KUNIT_ASSERT_LT(test, e, (u32)nb->count);
			KUNIT_EXPECT_EQ(test, nb->n[e].port, 0);
			KUNIT_EXPECT_EQ(test, nb->n[e].node, stranger);
			KUNIT_EXPECT_EQ(test, nb->n[e].peer_port, 1);
			KUNIT_EXPECT_EQ(test, nb->n[e].state,
					DPILLAR_NEIGH_STATE_MISWIRED);
			e++;
		}
	}
	KUNIT_EXPECT_EQ(test, e, (u32)nb->count);

	skb = dpp_one_reply(test, d, src, 0);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	pp = (const void *)(skb->data + ETH_HLEN + DP_HDR_LEN);
	KUNIT_EXPECT_EQ(test, pp->flags, 0);
	KUNIT_EXPECT_LT(test, skb->len - DPP_TABLE_OFF,
			sizeof(struct dpillar_probe_neighs));
	kfree_skb(skb);
}

/*
 * Tables answered within their own budget (and the budget of every other
 * user's probe): a flood of forged requests gets DP_PROBE_NEIGHS_BURST
 * tables a second, no more.
 */
static void dpp_neighs_budget(struct kunit *test)
{
	struct dpt_dev *d = dpp_dev(test);

	dpp_freeze(d);
	/* from eight sources: their shares are more than the budget */
	dpp_expect_budget(test, dpp_probes_from(test, d, 8, 1,
						DPILLAR_PROBE_F_NEIGHS, 300),
			  DP_PROBE_NEIGHS_BURST);
}

/* Building a table stops at the most a reply carries; parsing checks it. */
static void dpp_neighs_parse(struct kunit *test)
{
	unsigned int len = dp_probe_neighs_len(DPILLAR_PROBE_NEIGHS_MAX);
	struct dpillar_probe_neighs *h;
	const u8 reach = DPILLAR_NEIGH_STATE_REACHABLE;
	struct dp_probe_neighs *nb;
	u32 i;

	h = kunit_kzalloc(test, len, GFP_KERNEL);
	nb = kunit_kzalloc(test, sizeof(*nb), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_ASSERT_NOT_NULL(test, nb);
	h->nports = 2;
	h->ports_up = htonl(2);
	for (i = 0; i < DPILLAR_PROBE_NEIGHS_MAX; i++)
		KUNIT_EXPECT_TRUE(test, dp_probe_neighs_add(h, i & 1, 1, reach,
							    1000 + i));
	KUNIT_EXPECT_FALSE(test, dp_probe_neighs_add(h, 0, 1, reach, 9));
	KUNIT_EXPECT_EQ(test, h->count, DPILLAR_PROBE_NEIGHS_MAX);
	KUNIT_EXPECT_EQ(test, h->flags, DPILLAR_PROBE_NEIGHS_TRUNC);
	KUNIT_ASSERT_EQ(test, dp_probe_neighs_parse(h, len, nb), 0);
	KUNIT_EXPECT_TRUE(test, nb->trunc);
	KUNIT_EXPECT_EQ(test, nb->ports_up, 2);
	KUNIT_EXPECT_EQ(test, nb->n[5].port, 1);
	KUNIT_EXPECT_EQ(test, nb->n[5].node, 1005);
	/* Shorter than its count, or than its header */
	KUNIT_EXPECT_EQ(test, dp_probe_neighs_parse(h, len - 1, nb), -EINVAL);
	KUNIT_EXPECT_EQ(test, dp_probe_neighs_parse(h, 7, nb), -EINVAL);
	/* A count past the most, a port past its ports, too many ports */
	h->count = DPILLAR_PROBE_NEIGHS_MAX + 1;
	KUNIT_EXPECT_EQ(test, dp_probe_neighs_parse(h, len + 8, nb), -EINVAL);
	h->count = 3;
	h->n[2].port = 2;
	KUNIT_EXPECT_EQ(test, dp_probe_neighs_parse(h, len, nb), -EINVAL);
	h->n[2].port = 0;
	KUNIT_EXPECT_EQ(test, dp_probe_neighs_parse(h, len, nb), 0);
	h->nports = DPILLAR_PORTS_MAX + 1;
	KUNIT_EXPECT_EQ(test, dp_probe_neighs_parse(h, len, nb), -EINVAL);
}

static void dpp_exit(struct kunit *test)
{
	skb_queue_purge(&dpp_sent);
}

static struct kunit_case dpp_cases[] = {
	KUNIT_CASE(dpp_budget_user_first),
	KUNIT_CASE(dpp_budget_pathsel_first),
	KUNIT_CASE(dpp_sender_share),
	KUNIT_CASE(dpp_sender_neighs),
	KUNIT_CASE(dpp_pathsel_forged),
	KUNIT_CASE(dpp_relay_one),
	KUNIT_CASE(dpp_neighs_reply),
	KUNIT_CASE(dpp_neighs_budget),
	KUNIT_CASE(dpp_neighs_parse),
	{}
};

static struct kunit_suite dpp_suite = {
	.name = "dpillar_probe",
	.init = dpp_init,
	.exit = dpp_exit,
	.test_cases = dpp_cases,
};

kunit_test_suites(&dpp_suite);
