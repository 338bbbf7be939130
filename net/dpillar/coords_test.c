// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of coordinate resolution (S2 plan mode, coords.c): the
 * cache (lookup, replacement, idle ageing, the LRU bound), lookups through
 * the routing view, and the coordinates shortcut discovery carries
 * (shortcut.c), good and hostile, entering through the port rx_handler as
 * they do from the wire.  The ports' lower devices keep what is sent to
 * them, so the probes and replies sent are checked too.  Last, the
 * discovery fallback on DPillar's switch ports (dpf_*): budgets per
 * neighbour, SHORTCUT_DATA along a shortcut.
 */

#include <kunit/skbuff.h>
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <linux/jiffies.h>

#include "genl.h"
#include "test_lib.h"
#include "topo_s2.h"

#define DPC_NODES	40
#define DPC_PORTS	4
#define DPC_L		2
#define DPC_SC_LEN	(DP_HDR_LEN + sizeof(struct dpillar_shortcut))
#define DPC_CO_LEN(n)	(sizeof(struct dpillar_coords) + 4 * (n))

struct dpc {
	struct dpt_dev *d;
	struct dp_priv *dp;
	u32 peer[DPC_PORTS];	/* the node cabled to each port */
	u32 far[2];		/* two nodes neither us nor a neighbour */
};

/* What the ports sent; the test's device while it runs (tests are serial). */
static struct sk_buff_head dpc_sent;
static struct dpc *dpc_cur;
/* The test's node: the first with a cable on every port. */
static u32 dpc_self;
/* Not DP_NODE_NONE: the sender frames name instead of the port's peer. */
static u32 dpc_sender;

static u32 dpc_x(u32 node, u32 s)
{
	return node << 24 | s << 16 | 0x5a5a;
}

static void dpc_mac(u32 node, u32 port, u8 *mac)
{
	mac[0] = 0x02;
	mac[1] = 0xc0;
	mac[2] = 0;
	mac[3] = port;
	mac[4] = node >> 8;
	mac[5] = node;
}

static netdev_tx_t dpc_xmit(struct sk_buff *skb, struct net_device *dev)
{
	skb_queue_tail(&dpc_sent, skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops dpc_lower_ops = {
	.ndo_start_xmit = dpc_xmit,
};

static bool dpc_is_peer(const struct dpc *c, u32 node)
{
	u32 p;

	for (p = 0; p < DPC_PORTS; p++)
		if (c->peer[p] == node)
			return true;
	return false;
}

/* Far longer than a test: a time that never runs out while it runs. */
#define DPC_LONG	(1000 * HZ)

static void dpc_long_rs(struct ratelimit_state *rs, int burst)
{
	ratelimit_state_init(rs, DPC_LONG, burst);
	ratelimit_set_flags(rs, RATELIMIT_MSG_ON_RELEASE);	/* as dp_sc_init() */
}

/*
 * The fixtures' clock: every time the code under test keeps runs out
 * only when a test says so.  The host may stall the guest anywhere in a
 * test (seen beside a busy host on the debug kernel: a neighbour dead,
 * 300 ms after it was heard, between two frames), and a test must assert
 * the same however long each step took.  So the neighbours' dead
 * interval, the period of the neighbours' budgets and of the node's rate
 * limits, how long a probe is remembered, a discovery's wait for its
 * reply, a shortcut's idle time and its refresh period (a reply to a
 * test's own probe never starts the refresh work under the test) are
 * DPC_LONG; a test that needs one of them over sets the time it is
 * measured from (a budget's start, an entry's last use), never sleeps.
 * The coordinate cache's times are constants of 20 s and more
 * (coords.h): a test that sets an entry's times keeps 10 s from either
 * edge.
 */
static void dpc_clock(struct dp_priv *dp)
{
	struct dp_shortcuts *sc = &dp->sc;

	WRITE_ONCE(dp->dead_jiffies, DPC_LONG);
	sc->budget_period = DPC_LONG;
	sc->seen_life = DPC_LONG;
	sc->wait = DPC_LONG;
	sc->idle = DPC_LONG;
	sc->refresh_period = DPC_LONG;
	dpc_long_rs(&sc->flood_rs, DP_SC_FLOOD_BURST);
	dpc_long_rs(&sc->discover_rs, DP_SC_DISCOVER_BURST);
	dpc_long_rs(&sc->resolve_rs, DP_SC_RESOLVE_BURST);
}

/*
 * dp0 of node dpc_self in an S2 fabric of @nodes, with its own
 * coordinates when @plan, every port's neighbour alive and the ports'
 * transmissions kept in dpc_sent, on the fixtures' clock (dpc_clock()).
 * The cabling is the derived one, which plan mode learns the same
 * (dp_neigh_node(): the node its Hellos named).
 */
static struct dpc *dpc_dev(struct kunit *test, u32 nodes, bool plan)
{
	struct dp_topo_params prm = {
		.kind = DP_TOPO_S2, .n = DPC_PORTS, .nodes = nodes,
		.spaces = DPC_L, .seed = 5,
	};
	struct dp_topo t;
	struct dpc *c;
	u32 p, v, nfar = 0;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, dp_topo_init(&t, &prm, NULL), 0);
	for (dpc_self = 0; dpc_self < nodes; dpc_self++) {
		for (p = 0; p < DPC_PORTS; p++) {
			c->peer[p] = dp_port_neigh(&t, dpc_self, p, 0);
			if (c->peer[p] == DP_NODE_NONE)
				break;
		}
		if (p == DPC_PORTS)
			break;
	}
	KUNIT_ASSERT_LT(test, dpc_self, nodes);
	for (v = 0; v < nodes && nfar < 2; v++)
		if (v != dpc_self && !dpc_is_peer(c, v))
			c->far[nfar++] = v;
	KUNIT_ASSERT_EQ(test, nfar, 2);
	if (plan) {
		prm.ncoords = DPC_L;
		for (v = 0; v < DPC_L; v++)
			prm.coords[v] = dpc_x(dpc_self, v);
	}
	c->d = dpt_dev_create_topo(test, &prm, dpc_self);
	c->dp = c->d->dp;
	dpc_cur = c;
	dpc_clock(c->dp);
	/* Plan mode learns its cabling. */
	KUNIT_ASSERT_EQ(test, c->dp->topo.learn_peers, plan);
	for (p = 0; p < DPC_PORTS; p++) {
		struct dp_port *port = c->d->port[p];
		struct dp_neigh *nb;
		int idx;
		u8 mac[ETH_ALEN];

		dpt_port_capture(test, c->d->lower[p], &dpc_lower_ops);

		idx = dp_port_neigh_index(&c->dp->topo, dpc_self, p,
					  c->peer[p]);
		KUNIT_ASSERT_GE(test, idx, 0);
		nb = &port->neigh[idx];
		dpc_mac(c->peer[p], p, mac);
		nb->node = c->peer[p];	/* as its Hello named it */
		atomic64_set(&nb->mac, ether_addr_to_u64(mac));
		WRITE_ONCE(nb->last_heard, jiffies);
	}
	return c;
}

static void dpc_coords_of(u32 node, u32 *x)
{
	u32 s;

	for (s = 0; s < DPC_L; s++)
		x[s] = dpc_x(node, s);
}

/*
 * A shortcut frame from our neighbour on @port: @type, header @src to
 * @dst, sequence @seq, @hops; then struct dpillar_coords with @count and
 * @nx coordinates of node @xnode (@count < 0: no trailer at all), the
 * whole cut (or padded with zeros) to @len bytes (0: as built), the first
 * @linear bytes in the linear area.
 */
static void dpc_rx(struct kunit *test, struct dpc *c, u32 port, u8 type,
		   u32 src, u32 dst, u16 seq, u8 hops, int count, u32 xnode,
		   u32 nx, unsigned int len, unsigned int linear)
{
	u8 buf[DPC_SC_LEN + DPC_CO_LEN(DP_COORDS_MAX + 8) + 16] = {};
	struct dpillar_hdr *h = (void *)buf;
	struct dpillar_shortcut *sp = (void *)(h + 1);
	struct dpillar_coords *pc = (void *)(sp + 1);
	unsigned int built = DPC_SC_LEN;
	rx_handler_result_t ret;
	struct sk_buff *skb;
	u8 mac[ETH_ALEN];
	u32 i;

	KUNIT_ASSERT_LE(test, DPC_CO_LEN(nx), sizeof(buf) - DPC_SC_LEN);
	dpt_hdr(h, type, src, dst);
	h->rword = htons(seq);
	sp->sender = htonl(dpc_sender != DP_NODE_NONE ? dpc_sender :
			   c->peer[port]);
	sp->hops = hops;
	if (count >= 0) {
		pc->count = count;
		for (i = 0; i < nx; i++)
			pc->x[i] = htonl(dpc_x(xnode, i));
		built += DPC_CO_LEN(nx);
	}
	len = len ?: built;
	KUNIT_ASSERT_LE(test, len, sizeof(buf));
	dpc_mac(c->peer[port], port, mac);
	skb = dpt_frame(test, c->d, port, mac, DPILLAR_ETHERTYPE, buf, len,
			linear ?: len);
	ret = dpt_rx(&skb);
	KUNIT_EXPECT_EQ(test, ret, RX_HANDLER_CONSUMED);
	if (ret != RX_HANDLER_CONSUMED)
		kfree_skb(skb);
}

/*
 * The next frame sent must be @type from @src to @dst on @port, to the
 * neighbour's MAC, carrying @n coordinates of node @xnode (@n 0: none).
 */
static void dpc_expect_sent(struct kunit *test, struct dpc *c, u32 port,
			    u8 type, u32 src, u32 dst, u8 hops, u32 n,
			    u32 xnode)
{
	struct sk_buff *skb = skb_dequeue(&dpc_sent);
	const struct dpillar_coords *pc;
	const struct dpillar_shortcut *sp;
	const struct dpillar_hdr *h;
	const struct ethhdr *eth;
	u8 mac[ETH_ALEN];
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_PTR_EQ(test, skb->dev, c->d->lower[port]);
	KUNIT_ASSERT_EQ(test, skb->len,
			ETH_HLEN + DPC_SC_LEN + (n ? DPC_CO_LEN(n) : 0));
	eth = (const struct ethhdr *)skb->data;
	dpc_mac(c->peer[port], port, mac);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(eth->h_dest, mac));
	h = (const struct dpillar_hdr *)(eth + 1);
	sp = (const struct dpillar_shortcut *)(h + 1);
	KUNIT_EXPECT_EQ(test, h->type, type);
	KUNIT_EXPECT_EQ(test, ntohl(h->src), src);
	KUNIT_EXPECT_EQ(test, ntohl(h->dst), dst);
	KUNIT_EXPECT_EQ(test, ntohl(sp->sender), dpc_self);
	KUNIT_EXPECT_EQ(test, sp->hops, hops);
	KUNIT_EXPECT_EQ(test, sp->reserved[0], 0);
	if (n) {
		pc = (const struct dpillar_coords *)(sp + 1);
		KUNIT_EXPECT_EQ(test, pc->count, n);
		for (i = 0; i < n; i++)
			KUNIT_EXPECT_EQ(test, ntohl(pc->x[i]), dpc_x(xnode, i));
	}
	kfree_skb(skb);
}

static void dpc_expect_cached(struct kunit *test, struct dpc *c, u32 node)
{
	u32 x[DP_COORDS_MAX] = {}, s;

	KUNIT_ASSERT_TRUE_MSG(test, dp_coords_cached(c->dp, node, x),
			      "node %u", node);
	for (s = 0; s < DPC_L; s++)
		KUNIT_EXPECT_EQ(test, x[s], dpc_x(node, s));
}

static u32 dpc_cache_count(struct dpc *c)
{
	u32 i, n = 0;

	for (i = 0; i < DP_COORDS_CACHE; i++)
		n += c->dp->coords.ent[i].node != DP_NODE_NONE;
	return n;
}

static void dpc_learn(struct dpc *c, u32 node)
{
	u32 x[DP_COORDS_MAX];

	dpc_coords_of(node, x);
	dp_coords_learn(c->dp, node, x, DPC_L, true);
}

/* Lookup as the transmit path does it: BHs off, under RCU. */
static bool dpc_lookup(struct dpc *c, u32 node, u32 *x)
{
	bool ok;

	local_bh_disable();
	rcu_read_lock();
	ok = dp_coords_lookup(c->dp, node, x);
	rcu_read_unlock();
	local_bh_enable();
	return ok;
}

/* Route toward st->dst as the transmit path does: BHs off, under RCU. */
static bool dpc_route(struct dpc *c, struct dp_route_state *st)
{
	bool ok;

	local_bh_disable();
	rcu_read_lock();
	ok = dp_sc_coords_route(c->dp, st, true);
	rcu_read_unlock();
	local_bh_enable();
	return ok;
}

static void dpc_resolve(struct dpc *c, u32 node)
{
	local_bh_disable();
	rcu_read_lock();
	dp_sc_coords_resolve(c->dp, node);
	rcu_read_unlock();
	local_bh_enable();
}

/* Insert, replace, look up; what is not one coordinate per space is not. */
static void dpc_cache_basic(struct kunit *test)
{
	struct dpc *c = dpc_dev(test, DPC_NODES, true);
	u32 x[DP_COORDS_MAX] = {}, y[DP_COORDS_MAX], far = c->far[0];

	KUNIT_EXPECT_FALSE(test, dp_coords_cached(c->dp, far, x));
	KUNIT_EXPECT_FALSE(test, dpc_lookup(c, far, x));
	dpc_learn(c, far);
	dpc_expect_cached(test, c, far);
	KUNIT_EXPECT_TRUE(test, dpc_lookup(c, far, x));
	KUNIT_EXPECT_EQ(test, x[1], dpc_x(far, 1));
	/* The newest replaces it. */
	dpc_coords_of(far + 1, y);
	dp_coords_learn(c->dp, far, y, DPC_L, true);
	KUNIT_EXPECT_TRUE(test, dp_coords_cached(c->dp, far, x));
	KUNIT_EXPECT_EQ(test, x[0], dpc_x(far + 1, 0));
	KUNIT_EXPECT_EQ(test, dpc_cache_count(c), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_COORDS_LEARNED), 2);
	/* Ignored: another count, ourselves, no valid node. */
	dp_coords_learn(c->dp, c->far[1], y, DPC_L - 1, true);
	dp_coords_learn(c->dp, c->far[1], y, DPC_L + 1, true);
	dp_coords_learn(c->dp, dpc_self, y, DPC_L, true);
	dp_coords_learn(c->dp, DPC_NODES, y, DPC_L, true);
	dp_coords_learn(c->dp, DP_NODE_NONE, y, DPC_L, true);
	KUNIT_EXPECT_EQ(test, dpc_cache_count(c), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_COORDS_LEARNED), 2);
	KUNIT_EXPECT_FALSE(test, dpc_lookup(c, DPC_NODES, x));
	/* Our own. */
	KUNIT_EXPECT_TRUE(test, dpc_lookup(c, dpc_self, x));
	KUNIT_EXPECT_EQ(test, x[0], dpc_x(dpc_self, 0));
	KUNIT_EXPECT_EQ(test, x[1], dpc_x(dpc_self, 1));
	/* dp0 going down forgets them. */
	dp_coords_stop(c->dp);
	KUNIT_EXPECT_FALSE(test, dp_coords_cached(c->dp, far, x));
	KUNIT_EXPECT_EQ(test, dpc_cache_count(c), 0);
}

/* Derived mode has nothing to cache or resolve. */
static void dpc_cache_derived(struct kunit *test)
{
	struct dpc *c = dpc_dev(test, DPC_NODES, false);
	u32 x[DP_COORDS_MAX];

	dpc_learn(c, c->far[0]);
	KUNIT_EXPECT_EQ(test, dpc_cache_count(c), 0);
	KUNIT_EXPECT_FALSE(test, dpc_lookup(c, c->far[0], x));
	KUNIT_EXPECT_FALSE(test, dpc_lookup(c, dpc_self, x));
	dpc_resolve(c, c->far[0]);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_COORDS_RESOLVE), 0);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpc_sent), 0);
}

static struct dp_coords_ent *dpc_ent(struct dpc *c, u32 node)
{
	u32 i;

	for (i = 0; i < DP_COORDS_CACHE; i++)
		if (c->dp->coords.ent[i].node == node)
			return &c->dp->coords.ent[i];
	return NULL;
}

/* An entry unused for DP_COORDS_IDLE_MS is gone, its slot free. */
static void dpc_cache_ageing(struct kunit *test)
{
	struct dpc *c = dpc_dev(test, DPC_NODES, true);
	unsigned long idle = msecs_to_jiffies(DP_COORDS_IDLE_MS);
	struct dp_coords_ent *e;
	u32 x[DP_COORDS_MAX];

	dpc_learn(c, c->far[0]);
	dpc_learn(c, c->far[1]);
	e = dpc_ent(c, c->far[0]);
	KUNIT_ASSERT_NOT_NULL(test, e);
	e->used = jiffies - idle + 10 * HZ;	/* not yet */
	dpc_expect_cached(test, c, c->far[0]);
	e->used = jiffies - idle - 1;
	KUNIT_EXPECT_FALSE(test, dp_coords_cached(c->dp, c->far[0], x));
	KUNIT_EXPECT_FALSE(test, dpc_lookup(c, c->far[0], x));
	KUNIT_EXPECT_EQ(test, dpc_cache_count(c), 1);
	dpc_expect_cached(test, c, c->far[1]);
	/* Learned again: there again. */
	dpc_learn(c, c->far[0]);
	KUNIT_EXPECT_EQ(test, dpc_cache_count(c), 2);
	dpc_expect_cached(test, c, c->far[0]);
}

/*
 * DP_COORDS_CACHE entries whatever the fabric's size: a new node takes
 * the least recently used slot, a send makes an entry recent (a reader's
 * lookup does not), and every entry stays reachable through its hash
 * chain.
 */
static void dpc_cache_bound(struct kunit *test)
{
	struct dpc *c = dpc_dev(test, 255, true);
	struct dp_route_state st = {};
	unsigned long now = jiffies;
	u32 v, i, learned = 0, oldest, second;

	for (v = 0; learned < DP_COORDS_CACHE; v++)
		if (v != dpc_self) {
			dpc_learn(c, v);
			learned++;
		}
	KUNIT_EXPECT_EQ(test, dpc_cache_count(c), DP_COORDS_CACHE);
	/* Slot i was used i jiffies after slot 0. */
	for (i = 0; i < DP_COORDS_CACHE; i++)
		c->dp->coords.ent[i].used = now - 2 * DP_COORDS_CACHE + i;
	oldest = c->dp->coords.ent[0].node;
	second = c->dp->coords.ent[1].node;
	dpc_expect_cached(test, c, second);	/* a reader's: still old */
	st.dst = oldest;
	KUNIT_EXPECT_TRUE(test, dpc_route(c, &st));	/* recent now */
	dpc_learn(c, 250);
	KUNIT_EXPECT_EQ(test, dpc_cache_count(c), DP_COORDS_CACHE);
	dpc_expect_cached(test, c, 250);
	dpc_expect_cached(test, c, oldest);
	KUNIT_EXPECT_NULL(test, dpc_ent(c, second));
	/* The whole id space through it: the bound holds, chains intact. */
	for (v = 0; v < 255; v++)
		if (v != dpc_self)
			dpc_learn(c, v);
	KUNIT_EXPECT_EQ(test, dpc_cache_count(c), DP_COORDS_CACHE);
	for (i = 0; i < DP_COORDS_CACHE; i++)
		dpc_expect_cached(test, c, c->dp->coords.ent[i].node);
}

/* The view's 1-hop and 2-hop coordinates (neigh.c's, here stubs). */
static u32 dpc_view_coords(const void *ctx, u32 self, u32 port, u32 node,
			   u32 *x, u32 max)
{
	u32 s;

	if (port >= DPC_PORTS || node != dpc_cur->peer[port] || max < DPC_L)
		return 0;
	for (s = 0; s < DPC_L; s++)
		x[s] = dpc_x(node, s);
	return DPC_L;
}

/* Our port 0's neighbour hears us and far[0]. */
static u32 dpc_view_peer_neighs(const void *ctx, u32 self, u32 port,
				u32 peer, u32 *ids, u32 max)
{
	if (port || peer != dpc_cur->peer[0] || max < 2)
		return 0;
	ids[0] = dpc_self;
	ids[1] = dpc_cur->far[0];
	return 2;
}

static u32 dpc_view_peer_neigh_coords(const void *ctx, u32 self, u32 port,
				      u32 peer, u32 idx, u32 *x, u32 max)
{
	u32 ids[2], s;

	if (dpc_view_peer_neighs(ctx, self, port, peer, ids, 2) <= idx ||
	    max < DPC_L)
		return 0;
	for (s = 0; s < DPC_L; s++)
		x[s] = dpc_x(ids[idx], s);
	return DPC_L;
}

static void dpc_lookup_view(struct kunit *test)
{
	struct dpc *c = dpc_dev(test, DPC_NODES, true);
	struct dp_view *v = &c->dp->view;
	u32 x[DP_COORDS_MAX] = {}, far = c->far[0];
	struct dp_view_coords *vc;
	struct dp_neigh *nb;

	vc = kunit_kzalloc(test, sizeof(*vc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, vc);
	vc->node_coords = dpc_view_coords;
	vc->peer_neigh_coords = dpc_view_peer_neigh_coords;
	v->coords = vc;
	v->peer_neighs = dpc_view_peer_neighs;
	KUNIT_EXPECT_TRUE(test, dpc_lookup(c, c->peer[2], x));
	KUNIT_EXPECT_EQ(test, x[1], dpc_x(c->peer[2], 1));
	KUNIT_EXPECT_TRUE(test, dpc_lookup(c, far, x));
	KUNIT_EXPECT_EQ(test, x[0], dpc_x(far, 0));
	KUNIT_EXPECT_FALSE(test, dpc_lookup(c, c->far[1], x));
	/* Nothing came from the wire. */
	KUNIT_EXPECT_EQ(test, dpc_cache_count(c), 0);
	/* A silent neighbour tells nothing, nor do its neighbours. */
	nb = &c->d->port[0]->neigh[dp_port_neigh_index(&c->dp->topo, dpc_self,
						       0, c->peer[0])];
	WRITE_ONCE(nb->last_heard, jiffies - c->dp->dead_jiffies);
	KUNIT_EXPECT_FALSE(test, dpc_lookup(c, far, x));
	WRITE_ONCE(nb->last_heard, jiffies);
	KUNIT_EXPECT_TRUE(test, dpc_lookup(c, far, x));
	/* A view without a member knows nothing of that part. */
	vc->peer_neigh_coords = NULL;
	KUNIT_EXPECT_FALSE(test, dpc_lookup(c, far, x));
	vc->node_coords = NULL;
	KUNIT_EXPECT_FALSE(test, dpc_lookup(c, c->peer[2], x));
	/* Nor does a view without the coordinate questions. */
	vc->node_coords = dpc_view_coords;
	v->coords = NULL;
	KUNIT_EXPECT_FALSE(test, dpc_lookup(c, c->peer[2], x));
	/* The cache still answers. */
	dpc_learn(c, far);
	KUNIT_EXPECT_TRUE(test, dpc_lookup(c, far, x));
	KUNIT_EXPECT_EQ(test, x[1], dpc_x(far, 1));
}

/* A probe for us: we cache the prober's, our reply carries ours. */
static void dpc_probe_target(struct kunit *test)
{
	struct dpc *c = dpc_dev(test, DPC_NODES, true);
	u32 far = c->far[0];

	dpc_rx(test, c, 1, DPILLAR_T_SHORTCUT_PROBE, far, dpc_self, 7, 2,
	       DPC_L, far, DPC_L, 0, 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_BAD), 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_COORDS_LEARNED), 1);
	dpc_expect_cached(test, c, far);
	dpc_expect_sent(test, c, 1, DPILLAR_T_SHORTCUT_REPLY, dpc_self, far, 1,
			DPC_L, dpc_self);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpc_sent), 0);
	/* The same probe by a longer way: a copy, not answered. */
	dpc_rx(test, c, 2, DPILLAR_T_SHORTCUT_PROBE, far, dpc_self, 7, 3,
	       DPC_L, far, DPC_L, 0, 0);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpc_sent), 0);
	/* Ethernet padding after the coordinates, some in a fragment. */
	dpc_rx(test, c, 0, DPILLAR_T_SHORTCUT_PROBE, c->far[1], dpc_self, 8, 1,
	       DPC_L, c->far[1], DPC_L, DPC_SC_LEN + DPC_CO_LEN(DPC_L) + 14,
	       DPC_SC_LEN + 2);
	dpc_expect_cached(test, c, c->far[1]);
	dpc_expect_sent(test, c, 0, DPILLAR_T_SHORTCUT_REPLY, dpc_self,
			c->far[1], 1, DPC_L, dpc_self);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_BAD), 0);
}

/*
 * Probes for us whose coordinates are missing, of another count, or cut
 * short: counted as shortcut_bad, nothing cached, nothing answered.
 */
static void dpc_probe_hostile(struct kunit *test)
{
	struct dpc *c = dpc_dev(test, DPC_NODES, true);
	static const struct {
		int count;
		u32 nx;
		int len;	/* < 0: that much shorter than built */
	} bad[] = {
		{ -1, 0, 0 },				/* none */
		{ -1, 0, DPC_SC_LEN + 14 },		/* padding only */
		{ 0, 0, DPC_SC_LEN + DPC_CO_LEN(DPC_L) },	/* count 0 */
		{ DPC_L - 1, DPC_L - 1, 0 },
		{ DPC_L + 1, DPC_L + 1, 0 },
		{ DPC_L, DPC_L, -1 },			/* a byte short */
		{ DPC_L, 0, 0 },			/* the count only */
		{ DPC_L, DPC_L, DPC_SC_LEN + 2 },	/* half a count */
		{ 255, DP_COORDS_MAX + 8, 0 },
		{ DP_COORDS_MAX + 1, DP_COORDS_MAX + 1, 0 },
	};
	u32 far = c->far[0], i, len;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		len = bad[i].len > 0 ? bad[i].len : 0;
		if (bad[i].len < 0)
			len = DPC_SC_LEN + DPC_CO_LEN(bad[i].nx) + bad[i].len;
		dpc_rx(test, c, 0, DPILLAR_T_SHORTCUT_PROBE, far, dpc_self,
		       20 + i, 1, bad[i].count, far, bad[i].nx, len, 0);
		/* The same, with all but the header in a fragment. */
		dpc_rx(test, c, 0, DPILLAR_T_SHORTCUT_PROBE, far, dpc_self,
		       40 + i, 1, bad[i].count, far, bad[i].nx, len,
		       DP_HDR_LEN);
	}
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_BAD),
			2 * ARRAY_SIZE(bad));
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_COORDS_LEARNED), 0);
	KUNIT_EXPECT_EQ(test, dpc_cache_count(c), 0);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpc_sent), 0);
	/*
	 * A good one is answered; the same from the port's MAC naming a
	 * sender the port's Hellos do not (learned cabling) is bad.
	 */
	dpc_rx(test, c, 1, DPILLAR_T_SHORTCUT_PROBE, far, dpc_self, 60, 1,
	       DPC_L, far, DPC_L, 0, 0);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpc_sent), 1);
	skb_queue_purge(&dpc_sent);
	dpc_sender = c->far[1];	/* the right MAC, another node's id */
	dpc_rx(test, c, 1, DPILLAR_T_SHORTCUT_PROBE, far, dpc_self, 61, 1,
	       DPC_L, far, DPC_L, 0, 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_BAD),
			2 * ARRAY_SIZE(bad) + 1);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpc_sent), 0);
}

/* Derived mode sends no coordinates and ignores any that come. */
static void dpc_probe_derived(struct kunit *test)
{
	struct dpc *c = dpc_dev(test, DPC_NODES, false);
	u32 far = c->far[0];

	dpc_rx(test, c, 1, DPILLAR_T_SHORTCUT_PROBE, far, dpc_self, 7, 2,
	       DPC_L, far, DPC_L, 0, 0);
	dpc_rx(test, c, 2, DPILLAR_T_SHORTCUT_PROBE, c->far[1], dpc_self, 8, 2,
	       -1, 0, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_BAD), 0);
	KUNIT_EXPECT_EQ(test, dpc_cache_count(c), 0);
	dpc_expect_sent(test, c, 1, DPILLAR_T_SHORTCUT_REPLY, dpc_self, far, 1,
			0, 0);
	dpc_expect_sent(test, c, 2, DPILLAR_T_SHORTCUT_REPLY, dpc_self,
			c->far[1], 1, 0, 0);
}

/*
 * A resolve floods a probe with our coordinates, once while it waits; the
 * reply's coordinates are cached at the origin.
 */
static void dpc_resolve_origin(struct kunit *test)
{
	struct dpc *c = dpc_dev(test, DPC_NODES, true);
	u32 x[DP_COORDS_MAX] = {}, far = c->far[0], p, v, started;

	dpc_resolve(c, far);
	dpc_resolve(c, far);
	local_bh_disable();
	rcu_read_lock();
	dp_sc_discover(c->dp, far, DP_SC_NO_PORT, 0);
	rcu_read_unlock();
	local_bh_enable();
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_COORDS_RESOLVE), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_DISCOVER), 0);
	for (p = 0; p < DPC_PORTS; p++)
		dpc_expect_sent(test, c, p, DPILLAR_T_SHORTCUT_PROBE, dpc_self,
				far, 0, DPC_L, dpc_self);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpc_sent), 0);
	KUNIT_EXPECT_FALSE(test, dpc_lookup(c, far, x));
	/* A reply whose coordinates are bad is not taken ... */
	dpc_rx(test, c, 1, DPILLAR_T_SHORTCUT_REPLY, far, dpc_self,
	       c->dp->sc.seq, 3, DPC_L + 1, far, DPC_L + 1, 0, 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_BAD), 1);
	KUNIT_EXPECT_FALSE(test, dpc_lookup(c, far, x));
	/* ... the good one is. */
	dpc_rx(test, c, 1, DPILLAR_T_SHORTCUT_REPLY, far, dpc_self,
	       c->dp->sc.seq, 3, DPC_L, far, DPC_L, 0, 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_LEARNED), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_COORDS_LEARNED), 1);
	KUNIT_EXPECT_TRUE(test, dpc_lookup(c, far, x));
	KUNIT_EXPECT_EQ(test, x[0], dpc_x(far, 0));
	KUNIT_EXPECT_EQ(test, x[1], dpc_x(far, 1));
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpc_sent), 0);
	/*
	 * Resolving is rate limited, DP_SC_RESOLVE_BURST an interval: a new
	 * interval (the first resolve above spent one of the fixture's).
	 */
	dpc_long_rs(&c->dp->sc.resolve_rs, DP_SC_RESOLVE_BURST);
	started = 0;
	for (v = 0; v < DPC_NODES; v++)
		if (v != dpc_self && v != far) {
			dpc_resolve(c, v);
			started++;
		}
	KUNIT_ASSERT_GT(test, started, DP_SC_RESOLVE_BURST);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_COORDS_RESOLVE),
			1 + DP_SC_RESOLVE_BURST);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_LIMIT),
			started - DP_SC_RESOLVE_BURST);
	skb_queue_purge(&dpc_sent);
}

/*
 * A relay passes the probe on with its origin's coordinates (caching
 * nothing), and caches the destination's from the reply it passes back.
 */
static void dpc_relay(struct kunit *test)
{
	struct dpc *c = dpc_dev(test, DPC_NODES, true);
	u32 from = c->far[0], to = c->far[1], p;

	dpc_rx(test, c, 0, DPILLAR_T_SHORTCUT_PROBE, from, to, 9, 2, DPC_L,
	       from, DPC_L, 0, 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_COORDS_LEARNED), 0);
	KUNIT_EXPECT_EQ(test, dpc_cache_count(c), 0);
	for (p = 1; p < DPC_PORTS; p++)
		dpc_expect_sent(test, c, p, DPILLAR_T_SHORTCUT_PROBE, from, to,
				3, DPC_L, from);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpc_sent), 0);
	dpc_rx(test, c, 2, DPILLAR_T_SHORTCUT_REPLY, to, from, 9, 2, DPC_L,
	       to, DPC_L, 0, 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_LEARNED), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_COORDS_LEARNED), 1);
	dpc_expect_cached(test, c, to);
	KUNIT_EXPECT_NULL(test, dpc_ent(c, from));
	dpc_expect_sent(test, c, 0, DPILLAR_T_SHORTCUT_REPLY, to, from, 3,
			DPC_L, to);
	/* A second reply for the same probe: bad, not cached again. */
	dpc_rx(test, c, 3, DPILLAR_T_SHORTCUT_REPLY, to, from, 9, 2, DPC_L,
	       from, DPC_L, 0, 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_BAD), 1);
	dpc_expect_cached(test, c, to);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpc_sent), 0);
}

/*
 * One neighbour's fresh probes: DP_SC_NEIGH_FLOOD of them are passed on,
 * the rest counted; another neighbour's probe is still passed on (the
 * node's DP_SC_FLOOD_BURST is not spent by the first).
 */
static void dpc_neigh_flood(struct kunit *test)
{
	struct dpc *c = dpc_dev(test, DPC_NODES, true);
	u32 from = c->far[0], to = c->far[1], i, n = DP_SC_FLOOD_BURST + 10;

	for (i = 0; i < n; i++) {
		dpc_rx(test, c, 0, DPILLAR_T_SHORTCUT_PROBE, from, to, 1000 + i,
		       1, DPC_L, from, DPC_L, 0, 0);
		skb_queue_purge(&dpc_sent);
	}
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_NEIGH_LIMIT),
			n - DP_SC_NEIGH_FLOOD);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_LIMIT), 0);
	dpc_rx(test, c, 1, DPILLAR_T_SHORTCUT_PROBE, from, to, 7, 1, DPC_L,
	       from, DPC_L, 0, 0);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpc_sent), DPC_PORTS - 1);
	skb_queue_purge(&dpc_sent);
}

/*
 * A neighbour whose budget comes back every period (a flood at any rate)
 * still passes on at most DP_SC_SEEN_NEIGH probes while they are fresh,
 * and the copies of its first probes that come back by another port are
 * known as copies: neither passed on again nor spending that port's
 * budget.  (Forgotten, they looked new and passed on the other
 * neighbours' budgets: the flood spent the node's through them.)
 */
static void dpc_seen_full(struct kunit *test)
{
	struct dpc *c = dpc_dev(test, DPC_NODES, true);
	struct dp_shortcuts *sc = &c->dp->sc;
	u32 from = c->far[0], to = c->far[1], i, n = 3 * DP_SC_SEEN_NEIGH;

	for (i = 0; i < n; i++) {
		/* A new budget period for every probe. */
		sc->neigh[0].start = jiffies - sc->budget_period;
		dpc_rx(test, c, 0, DPILLAR_T_SHORTCUT_PROBE, from, to, 4000 + i,
		       1, DPC_L, from, DPC_L, 0, 0);
		skb_queue_purge(&dpc_sent);
	}
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_NEIGH_LIMIT),
			n - DP_SC_SEEN_NEIGH);
	/* The copy of the first, by port 1: a copy, nothing sent. */
	dpc_rx(test, c, 1, DPILLAR_T_SHORTCUT_PROBE, from, to, 4000, 2, DPC_L,
	       from, DPC_L, 0, 0);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpc_sent), 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_NEIGH_LIMIT),
			n - DP_SC_SEEN_NEIGH);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_LIMIT), 0);
	KUNIT_EXPECT_EQ(test, sc->neigh[1].used[DP_SC_B_FLOOD], 0);
}

/*
 * Only probes passed on are remembered: a neighbour's flood of fresh
 * (origin, seq) over its budget does not push out the probe another
 * passed on before, whose reply is then still taken.
 */
static void dpc_seen_kept(struct kunit *test)
{
	struct dpc *c = dpc_dev(test, DPC_NODES, true);
	u32 from = c->far[0], to = c->far[1], i;

	dpc_rx(test, c, 1, DPILLAR_T_SHORTCUT_PROBE, from, to, 9, 1, DPC_L,
	       from, DPC_L, 0, 0);
	for (i = 0; i < 3 * DP_SC_SEEN; i++) {
		dpc_rx(test, c, 0, DPILLAR_T_SHORTCUT_PROBE, to, from, 2000 + i,
		       1, DPC_L, to, DPC_L, 0, 0);
		skb_queue_purge(&dpc_sent);
	}
	dpc_rx(test, c, 2, DPILLAR_T_SHORTCUT_REPLY, to, from, 9, 2, DPC_L,
	       to, DPC_L, 0, 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_LEARNED), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_BAD), 0);
	dpc_expect_sent(test, c, 1, DPILLAR_T_SHORTCUT_REPLY, to, from, 3,
			DPC_L, to);
}

/*
 * Probes for us: DP_SC_NEIGH_REPLY of one neighbour's are answered, the
 * rest counted and neither answered nor cached; another neighbour's is.
 */
static void dpc_reply_limit(struct kunit *test)
{
	struct dpc *c = dpc_dev(test, DPC_NODES, true);
	u32 i, n = DP_SC_NEIGH_REPLY + 5, v;

	for (i = 0, v = 0; i < n; v++) {
		if (v == dpc_self)
			continue;
		dpc_rx(test, c, 0, DPILLAR_T_SHORTCUT_PROBE, v, dpc_self,
		       3000 + i, 1, DPC_L, v, DPC_L, 0, 0);
		i++;
	}
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpc_sent), DP_SC_NEIGH_REPLY);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_REPLY_LIMIT),
			n - DP_SC_NEIGH_REPLY);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_COORDS_LEARNED),
			DP_SC_NEIGH_REPLY);
	skb_queue_purge(&dpc_sent);
	dpc_rx(test, c, 1, DPILLAR_T_SHORTCUT_PROBE, c->far[0], dpc_self, 77,
	       1, DPC_L, c->far[0], DPC_L, 0, 0);
	dpc_expect_sent(test, c, 1, DPILLAR_T_SHORTCUT_REPLY, dpc_self,
			c->far[0], 1, DPC_L, dpc_self);
}

/*
 * A probe names any origin: its coordinates fill a free place only, and
 * never replace what a reply taught.
 */
static void dpc_probe_no_replace(struct kunit *test)
{
	struct dpc *c = dpc_dev(test, DPC_NODES, true);
	u32 far = c->far[0];

	dpc_learn(c, far);
	/* far's id, far[1]'s coordinates */
	dpc_rx(test, c, 1, DPILLAR_T_SHORTCUT_PROBE, far, dpc_self, 7, 2,
	       DPC_L, c->far[1], DPC_L, 0, 0);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpc_sent), 1);
	dpc_expect_cached(test, c, far);
	skb_queue_purge(&dpc_sent);
}

/*
 * A probe is passed on to every neighbour but the one it came from: its
 * reply cannot come from there, and one that does is forged.
 */
static void dpc_reply_same_port(struct kunit *test)
{
	struct dpc *c = dpc_dev(test, DPC_NODES, true);
	u32 from = c->far[0], to = c->far[1];

	dpc_rx(test, c, 0, DPILLAR_T_SHORTCUT_PROBE, from, to, 9, 2, DPC_L,
	       from, DPC_L, 0, 0);
	skb_queue_purge(&dpc_sent);
	dpc_rx(test, c, 0, DPILLAR_T_SHORTCUT_REPLY, to, from, 9, 2, DPC_L,
	       from, DPC_L, 0, 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_BAD), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_LEARNED), 0);
	KUNIT_EXPECT_NULL(test, dpc_ent(c, to));
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpc_sent), 0);
}

/*
 * What this node sends to stays while it sends (issue 55, item 11): an
 * entry sent to, then unused for longer than DP_COORDS_LIFE_MS (within
 * DP_COORDS_IDLE_MS), still answers the next send, which starts its
 * refresh in the background (nothing forgotten, nothing dropped); a
 * reader's lookups (route get without CAP_NET_ADMIN) do not make it
 * recently used.
 */
static void dpc_cache_kept(struct kunit *test)
{
	struct dpc *c = dpc_dev(test, DPC_NODES, true);
	unsigned long life = msecs_to_jiffies(DP_COORDS_LIFE_MS), used;
	struct dp_route_state st = { .dst = c->far[0] };
	struct dp_coords_ent *e;

	dpc_learn(c, c->far[0]);
	e = dpc_ent(c, c->far[0]);
	KUNIT_ASSERT_NOT_NULL(test, e);
	/* Learned past its life ago, sent to a second after. */
	e->learned = jiffies - life - 5 * HZ;
	e->used = e->learned + HZ;
	used = e->used;
	dpc_expect_cached(test, c, c->far[0]);
	KUNIT_EXPECT_EQ(test, e->used, used);
	KUNIT_EXPECT_TRUE(test, dpc_route(c, &st));
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_COORDS_EXPIRED), 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_COORDS_RESOLVE), 1);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpc_sent), DPC_PORTS);
	KUNIT_EXPECT_TRUE(test, time_after(e->used, used));
	skb_queue_purge(&dpc_sent);
}

/*
 * An entry is confirmed again once DP_COORDS_REFRESH_MS old: the first
 * send that finds it that old uses it and resolves it again in the
 * background, and DP_COORDS_LIFE_MS - DP_COORDS_REFRESH_MS after that
 * send, with no reply, it is gone (coords_expired), however recently
 * used.  A reply's coordinates confirm it.
 */
static void dpc_cache_life(struct kunit *test)
{
	struct dpc *c = dpc_dev(test, DPC_NODES, true);
	unsigned long wait = msecs_to_jiffies(DP_COORDS_LIFE_MS -
					      DP_COORDS_REFRESH_MS), at;
	struct dp_route_state st = { .dst = c->far[0] };
	u32 x[DP_COORDS_MAX];
	struct dp_coords_ent *e;

	dpc_learn(c, c->far[0]);
	e = dpc_ent(c, c->far[0]);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_FALSE(test, e->due);
	at = jiffies - msecs_to_jiffies(DP_COORDS_REFRESH_MS) - 1;
	e->learned = at;
	/* A reader's lookup: not due. */
	dpc_expect_cached(test, c, c->far[0]);
	KUNIT_EXPECT_EQ(test, e->learned, at);
	KUNIT_EXPECT_FALSE(test, e->due);
	/* A send finds it, uses it and resolves it again. */
	KUNIT_EXPECT_TRUE(test, dpc_route(c, &st));
	KUNIT_EXPECT_TRUE(test, e->due);
	KUNIT_EXPECT_TRUE(test, time_in_range(e->expires, jiffies,
					      jiffies + wait));
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_COORDS_RESOLVE), 1);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpc_sent), DPC_PORTS);
	skb_queue_purge(&dpc_sent);
	/* The reply: confirmed, young again. */
	dpc_learn(c, c->far[0]);
	KUNIT_EXPECT_FALSE(test, e->due);
	KUNIT_EXPECT_TRUE(test, dpc_route(c, &st));
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_COORDS_RESOLVE), 1);
	/* Due again, and no reply in time: gone, however recently used. */
	e->learned = at;
	KUNIT_EXPECT_TRUE(test, dpc_route(c, &st));
	skb_queue_purge(&dpc_sent);
	e->expires = jiffies;
	e->used = jiffies;
	KUNIT_EXPECT_FALSE(test, dp_coords_cached(c->dp, c->far[0], x));
	KUNIT_EXPECT_FALSE(test, dpc_lookup(c, c->far[0], x));
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_COORDS_EXPIRED), 1);
	KUNIT_EXPECT_NULL(test, dpc_ent(c, c->far[0]));
}

/*
 * What a probe taught (its origin's coordinates, which any neighbour can
 * name) is due for its confirmation from its learning: the first send to
 * that node uses it and resolves it again at once, and it is gone
 * DP_COORDS_LIFE_MS - DP_COORDS_REFRESH_MS after its learning, used or
 * not.  A reply's is not resolved again on its first use.
 */
static void dpc_probe_learned_old(struct kunit *test)
{
	struct dpc *c = dpc_dev(test, DPC_NODES, true);
	unsigned long wait = msecs_to_jiffies(DP_COORDS_LIFE_MS -
					      DP_COORDS_REFRESH_MS);
	struct dp_route_state st = { .dst = c->far[0] };
	u32 x[DP_COORDS_MAX];
	struct dp_coords_ent *e;

	/* A reply's: fresh, a send does not resolve it. */
	dpc_learn(c, c->far[1]);
	st.dst = c->far[1];
	KUNIT_EXPECT_TRUE(test, dpc_route(c, &st));
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_COORDS_RESOLVE), 0);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpc_sent), 0);

	/* A probe for us from far[0]: answered, far[0]'s cached. */
	dpc_rx(test, c, 1, DPILLAR_T_SHORTCUT_PROBE, c->far[0], dpc_self, 7,
	       2, DPC_L, c->far[0], DPC_L, 0, 0);
	skb_queue_purge(&dpc_sent);
	e = dpc_ent(c, c->far[0]);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_TRUE(test, e->due);
	KUNIT_EXPECT_EQ(test, e->expires, e->learned + wait);
	/* Its first use sends with it and resolves it again. */
	st.dst = c->far[0];
	KUNIT_EXPECT_TRUE(test, dpc_route(c, &st));
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_COORDS_RESOLVE), 1);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpc_sent), DPC_PORTS);
	KUNIT_EXPECT_EQ(test, e->expires, e->learned + wait);
	skb_queue_purge(&dpc_sent);
	/* No answer: it is gone the rest of its life later. */
	e->expires = jiffies;
	KUNIT_EXPECT_FALSE(test, dp_coords_cached(c->dp, c->far[0], x));
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_COORDS_EXPIRED), 1);
}

/*
 * Discoveries for the frames of one neighbour: DP_SC_NEIGH_DISCOVER of
 * them, the rest counted; this node's own and another neighbour's still
 * start.
 */
static void dpc_discover_neigh(struct kunit *test)
{
	struct dpc *c = dpc_dev(test, DPC_NODES, true);
	u32 v, tried = 0;

	local_bh_disable();
	rcu_read_lock();
	for (v = 0; v < DPC_NODES && tried < DP_SC_DISCOVER_BURST + 2; v++) {
		if (v == dpc_self || v == c->far[0] || v == c->far[1])
			continue;
		dp_sc_discover(c->dp, v, 0, 0);
		tried++;
	}
	rcu_read_unlock();
	local_bh_enable();
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_DISCOVER),
			DP_SC_NEIGH_DISCOVER);
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_NEIGH_LIMIT),
			tried - DP_SC_NEIGH_DISCOVER);
	local_bh_disable();
	rcu_read_lock();
	dp_sc_discover(c->dp, c->far[0], DP_SC_NO_PORT, 0);
	dp_sc_discover(c->dp, c->far[1], 1, 0);
	rcu_read_unlock();
	local_bh_enable();
	KUNIT_EXPECT_EQ(test, dpt_stat(c->d, DP_STAT_SC_DISCOVER),
			DP_SC_NEIGH_DISCOVER + 2);
	skb_queue_purge(&dpc_sent);
}

/* ---- the discovery fallback on a switch port (DPillar) ------------------ */

/*
 * dp0 of 1:0.1.0 in DPillar (4,3), every neighbour of both ports alive
 * with the MAC dpc_mac() gives it, the ports' transmissions kept in
 * dpc_sent, on the fixtures' clock (dpc_clock()).  Each port is a switch
 * with 3 neighbours: the budgets there are per neighbour slot.
 */
static struct dpt_dev *dpf_dev(struct kunit *test)
{
	struct dp_topo_params prm = { .kind = DP_TOPO_DPILLAR, .n = 4, .k = 3 };
	struct dpt_dev *d;
	struct dp_topo t;
	u32 self, p, i;

	KUNIT_ASSERT_EQ(test, dp_topo_init(&t, &prm, NULL), 0);
	KUNIT_ASSERT_EQ(test, dp_addr_parse(&t, "1:0.1.0", &self, NULL), 0);
	d = dpt_dev_create_topo(test, &prm, self);
	dpc_clock(d->dp);
	KUNIT_ASSERT_TRUE(test, dp_sc_fallback(d->dp));
	for (p = 0; p < 2; p++) {
		struct dp_port *port = d->port[p];
		u8 mac[ETH_ALEN];

		dpt_port_capture(test, d->lower[p], &dpc_lower_ops);
		KUNIT_ASSERT_EQ(test, port->nneigh, 3);
		for (i = 0; i < port->nneigh; i++) {
			struct dp_neigh *nb = &port->neigh[i];

			dpc_mac(dp_neigh_node(d->dp, port, i), p, mac);
			atomic64_set(&nb->mac, ether_addr_to_u64(mac));
			WRITE_ONCE(nb->last_heard, jiffies);
		}
	}
	return d;
}

/* Neighbour slot @i of port @p: its node id. */
static u32 dpf_peer(struct dpt_dev *d, u32 p, u32 i)
{
	return dp_neigh_node(d->dp, d->port[p], i);
}

/* @buf (@len bytes) from neighbour slot @i of port @p, consumed. */
static void dpf_rx(struct kunit *test, struct dpt_dev *d, u32 p, u32 i,
		   const void *buf, unsigned int len)
{
	struct sk_buff *skb;
	rx_handler_result_t ret;
	u8 mac[ETH_ALEN];

	dpc_mac(dpf_peer(d, p, i), p, mac);
	skb = dpt_frame(test, d, p, mac, DPILLAR_ETHERTYPE, buf, len, len);
	ret = dpt_rx(&skb);
	KUNIT_EXPECT_EQ(test, ret, RX_HANDLER_CONSUMED);
	if (ret != RX_HANDLER_CONSUMED)
		kfree_skb(skb);
}

/* A SHORTCUT_PROBE from neighbour slot @i of port @p, sent by it. */
static void dpf_probe(struct kunit *test, struct dpt_dev *d, u32 p, u32 i,
		      u32 origin, u32 target, u16 seq)
{
	u8 buf[DPC_SC_LEN] = {};
	struct dpillar_hdr *h = (void *)buf;
	struct dpillar_shortcut *sp = (void *)(h + 1);

	dpt_hdr(h, DPILLAR_T_SHORTCUT_PROBE, origin, target);
	h->rword = htons(seq);
	sp->sender = htonl(dpf_peer(d, p, i));
	sp->hops = 1;
	dpf_rx(test, d, p, i, buf, sizeof(buf));
}

/*
 * Two neighbours on one switch port: one spending its whole flood budget
 * (and more) leaves the other's untouched.  With a budget per port, as
 * S2's cables have, the second neighbour's probe was refused.
 */
static void dpf_neigh_budgets(struct kunit *test)
{
	struct dpt_dev *d = dpf_dev(test);
	u32 origin = dpf_peer(d, 1, 0), target = dpf_peer(d, 1, 2), i;
	u32 over = 3;

	for (i = 0; i < DP_SC_NEIGH_FLOOD + over; i++)
		dpf_probe(test, d, 0, 0, origin, target, 100 + i);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_SC_NEIGH_LIMIT), over);
	skb_queue_purge(&dpc_sent);
	dpf_probe(test, d, 0, 1, origin, target, 500);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_SC_NEIGH_LIMIT), over);
	/* passed on to the 2 others of port 0's switch and port 1's 3 */
	KUNIT_EXPECT_GT(test, skb_queue_len(&dpc_sent), 0);
	skb_queue_purge(&dpc_sent);
}

/*
 * One probe passed on is one frame per other port, to the switch's group
 * (issue 53, item 3): not one per neighbour (3 on each of these
 * switches).  A neighbour's copies past DP_SC_NEIGH_RX a second are
 * refused before the seen table is scanned.
 */
static void dpf_flood_group(struct kunit *test)
{
	struct dpt_dev *d = dpf_dev(test);
	u32 origin = dpf_peer(d, 1, 0), target = dpf_peer(d, 1, 2), i;
	const struct ethhdr *eth;
	struct sk_buff *skb;

	dpf_probe(test, d, 0, 0, origin, target, 7);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&dpc_sent), 1);
	skb = skb_dequeue(&dpc_sent);
	eth = (const struct ethhdr *)skb->data;
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(eth->h_dest, dp_hello_mac));
	KUNIT_EXPECT_PTR_EQ(test, skb->dev, d->lower[1]);
	kfree_skb(skb);
	/* Its copies, and more: the first DP_SC_NEIGH_RX are looked at. */
	for (i = 0; i < DP_SC_NEIGH_RX + 2; i++)
		dpf_probe(test, d, 0, 1, origin, target, 7);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_SC_NEIGH_LIMIT), 2);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpc_sent), 0);
}

/*
 * A seen table full of fresh probes pushes none out for a probe passed
 * on (issue 53, item 3): four neighbours fill it, DP_SC_SEEN_NEIGH each,
 * a fifth's new probe is refused (shortcut_limit), and a copy of the
 * first probe, still on its way, is known as a copy: not flooded again.
 * Pushed out, it looked new, and every copy of every probe in flight
 * could start the flood over: a storm that outlived the flood.
 */
static void dpf_seen_no_push(struct kunit *test)
{
	struct dpt_dev *d = dpf_dev(test);
	struct dp_shortcuts *sc = &d->dp->sc;
	static const u32 slot[][2] = { { 0, 0 }, { 0, 1 }, { 0, 2 }, { 1, 0 } };
	u32 origin = dpf_peer(d, 1, 2), target = dpf_peer(d, 1, 1), i, j;
	u16 seq = 1000;

	/* more probes passed on than the node's DP_SC_FLOOD_BURST */
	dpc_long_rs(&sc->flood_rs, 100000);
	for (j = 0; j < ARRAY_SIZE(slot); j++) {
		struct dp_neigh *nb = &d->port[slot[j][0]]->neigh[slot[j][1]];

		for (i = 0; i < DP_SC_SEEN_NEIGH; i++) {
			nb->sc_budget.start = jiffies - sc->budget_period;
			dpf_probe(test, d, slot[j][0], slot[j][1], origin, target,
				  seq++);
			skb_queue_purge(&dpc_sent);
		}
	}
	KUNIT_ASSERT_EQ(test, DP_SC_SEEN, ARRAY_SIZE(slot) * DP_SC_SEEN_NEIGH);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_SC_NEIGH_LIMIT), 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_SC_LIMIT), 0);
	dpf_probe(test, d, 1, 1, origin, target, seq++);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_SC_LIMIT), 1);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpc_sent), 0);
	/* The first probe again, by another way: a copy. */
	dpf_probe(test, d, 1, 1, origin, target, 1000);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpc_sent), 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_SC_LIMIT), 1);
	skb_queue_purge(&dpc_sent);
}

/* A shortcut to @dst of 3 hops through @next, our neighbour on port 0. */
static void dpf_sc_learned(struct dpt_dev *d, u32 dst, u32 next)
{
	struct dp_shortcuts *sc = &d->dp->sc;

	spin_lock_bh(&sc->lock);
	sc->ent[0].dst = dst;
	sc->ent[0].peer = next;
	sc->ent[0].port = 0;
	sc->ent[0].dist = 3;
	sc->ent[0].learned = jiffies;
	sc->ent[0].used = jiffies;
	spin_unlock_bh(&sc->lock);
}

/*
 * SHORTCUT_DATA in transit along a shortcut this node holds: sent on to
 * the shortcut's next hop with the hop budget its length leaves (one
 * less), the TTL spent; a frame whose budget that shortcut exceeds never
 * takes it: it goes back to the topology's routing from here (a DATA
 * frame; issue 53, item 11), the TTL spent.
 */
static void dpf_sc_data(struct kunit *test)
{
	struct dpt_dev *d = dpf_dev(test);
	u8 buf[DP_HDR_LEN + sizeof(struct iphdr)] = {};
	struct dpillar_hdr *h = (void *)buf;
	const struct dpillar_hdr *out;
	u32 dst = 0, next = dpf_peer(d, 0, 1);
	struct sk_buff *skb;
	const struct ethhdr *eth;
	u8 mac[ETH_ALEN];

	while (dst == d->dp->self || dst == next)
		dst++;
	dpf_sc_learned(d, dst, next);

	dpt_hdr(h, DPILLAR_T_SHORTCUT_DATA, dpf_peer(d, 1, 0), dst);
	h->rword = htons(5);
	dpf_rx(test, d, 1, 0, buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_FORWARDED), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_SC_DATA), 1);
	skb = skb_dequeue(&dpc_sent);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	eth = (const struct ethhdr *)skb->data;
	out = (const struct dpillar_hdr *)(eth + 1);
	dpc_mac(next, 0, mac);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(eth->h_dest, mac));
	KUNIT_EXPECT_EQ(test, out->type, DPILLAR_T_SHORTCUT_DATA);
	KUNIT_EXPECT_EQ(test, ntohs(out->rword), 2);
	KUNIT_EXPECT_EQ(test, out->ttl, DPT_TTL - 1);
	KUNIT_EXPECT_EQ(test, ntohl(out->dst), dst);
	kfree_skb(skb);

	h->rword = htons(2);		/* the shortcut is 3 hops */
	dpf_rx(test, d, 1, 0, buf, sizeof(buf));
	h->rword = htons(5);
	h->ttl = 3;			/* 2 hops left after this one */
	dpf_rx(test, d, 1, 0, buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_SC_DATA_LOST), 0);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_SC_DATA), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_FORWARDED), 3);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&dpc_sent), 2);
	while ((skb = skb_dequeue(&dpc_sent))) {
		out = (const struct dpillar_hdr *)(skb->data + ETH_HLEN);
		KUNIT_EXPECT_EQ(test, out->type, DPILLAR_T_DATA);
		KUNIT_EXPECT_EQ(test, ntohl(out->dst), dst);
		KUNIT_EXPECT_LT(test, out->ttl, DPT_TTL);
		kfree_skb(skb);
	}
}

/*
 * Where the topology gives up for a real failure and this node knows a
 * shortcut, the discovery fallback carries the packet on (issue 53, item
 * 10): ROUTE_GET names the shortcut's first hop and length instead of
 * "no route", and a packet of ours leaves as SHORTCUT_DATA with the
 * topology's reason not counted as a drop.  Every neighbour is dead but
 * two on port 0, which report no other port up: shortest routing cannot
 * go on through them (the flow of hash 0 gives up here; another flow's
 * first try may differ), a shortcut learned through one of them can.
 */
static void dpf_route_shortcut(struct kunit *test)
{
	struct dpt_dev *d = dpf_dev(test);
	u32 other = dpf_peer(d, 0, 0), next = dpf_peer(d, 0, 1);
	struct netlink_ext_ack extack = {};
	struct dp_priv *dp = d->dp;
	const struct dpillar_hdr *h;
	struct dp_route_state st;
	const struct nlattr *a;
	struct sk_buff *skb;
	u8 mac[ETH_ALEN];
	struct iphdr *iph;
	struct dp_hop hop;
	u32 dst, p, i;
	u8 reason = 0;
	int err;

	for (p = 0; p < dp->nports; p++) {
		for (i = 0; i < d->port[p]->nneigh; i++) {
			struct dp_neigh *nb = &d->port[p]->neigh[i];

			if (p || i > 1) {
				atomic64_set(&nb->mac, 0);
				continue;
			}
			/* No port up beyond the one it reaches us by. */
			WRITE_ONCE(nb->ports_up, 0);
			set_bit(DP_NEIGH_HAS_PORTS_UP, &nb->flags);
		}
	}
	/* A destination the topology gives up on for a failure. */
	rcu_read_lock();
	for (dst = 0; dst < dp->topo.nodes; dst++) {
		if (dst == dp->self || dst == other || dst == next)
			continue;
		dp_route_init(&dp->topo, dp->self, dst, dp->mode, 0, &st);
		err = dp_route(&dp->topo, dp->self, &st, &dp->view, &hop);
		if (err && dp_topo_discover_drop(&dp->topo, hop.reason)) {
			reason = hop.reason;
			break;
		}
	}
	rcu_read_unlock();
	KUNIT_ASSERT_LT(test, dst, dp->topo.nodes);

	/* No shortcut yet: no route, with the topology's reason. */
	skb = kunit_zalloc_skb(test, NLMSG_GOODSIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	rcu_read_lock();
	err = dp_genl_route_fill(skb, dp, dst, 0, false, NULL, &extack);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, err, -EHOSTUNREACH);

	dpf_sc_learned(d, dst, next);

	skb_trim(skb, 0);
	rcu_read_lock();
	err = dp_genl_route_fill(skb, dp, dst, 0, false, NULL, &extack);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, err, 0);
	a = nla_find((const struct nlattr *)skb->data, skb->len,
		     DPILLAR_A_ROUTE_SHORTCUT);
	KUNIT_EXPECT_TRUE(test, a && nla_get_u32(a) == 3);
	a = nla_find((const struct nlattr *)skb->data, skb->len,
		     DPILLAR_A_ROUTE_NEXT);
	KUNIT_EXPECT_TRUE(test, a && nla_get_u32(a) == next);
	a = nla_find((const struct nlattr *)skb->data, skb->len,
		     DPILLAR_A_ROUTE_PORT);
	KUNIT_EXPECT_TRUE(test, a && nla_get_u32(a) == 0);

	/* A packet of ours to it: on along the shortcut, no drop counted. */
	skb = alloc_skb(LL_MAX_HEADER + sizeof(*iph), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, LL_MAX_HEADER);
	skb_reset_network_header(skb);
	iph = skb_put_zero(skb, sizeof(*iph));
	iph->version = 4;
	iph->ihl = 5;
	iph->ttl = 64;
	iph->protocol = IPPROTO_UDP;
	iph->tot_len = htons(sizeof(*iph));
	iph->saddr = htonl(0x0a000000 | dp->self);
	iph->daddr = htonl(0x0a000000 | dst);
	skb->protocol = htons(ETH_P_IP);
	skb->dev = d->dev;
	/* The flow of the hash ROUTE_GET asked for (0). */
	skb_set_hash(skb, 0, PKT_HASH_TYPE_L4);
	local_bh_disable();
	rcu_read_lock();
	KUNIT_EXPECT_EQ(test, d->dev->netdev_ops->ndo_start_xmit(skb, d->dev),
			NETDEV_TX_OK);
	rcu_read_unlock();
	local_bh_enable();
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_SC_DATA), 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_TX_NOROUTE), 0);
	KUNIT_EXPECT_EQ(test, dpt_route_stat(d, reason), 0);
	skb = skb_dequeue(&dpc_sent);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	h = (struct dpillar_hdr *)(skb->data + ETH_HLEN);
	dpc_mac(next, 0, mac);
	KUNIT_EXPECT_TRUE(test, ether_addr_equal(skb->data, mac));
	KUNIT_EXPECT_EQ(test, h->type, DPILLAR_T_SHORTCUT_DATA);
	KUNIT_EXPECT_EQ(test, ntohl(h->dst), dst);
	kfree_skb(skb);
}

/*
 * Refreshes are on the account of the frames that used the shortcuts
 * (issue 53, item 1): shortcuts this node discovered and that only a
 * neighbour's frames keep in use are refreshed within that neighbour's
 * discovery budget, the rest counted; one its own frames use is refreshed
 * whatever the neighbour spent.  A lookup that routes no frame (the
 * device's view: ROUTE_GET) keeps nothing in use (item 8).
 */
static void dpf_refresh_account(struct kunit *test)
{
	struct dpt_dev *d = dpf_dev(test);
	struct dp_shortcuts *sc = &d->dp->sc;
	unsigned long period = sc->refresh_period;
	u8 buf[DP_HDR_LEN + sizeof(struct iphdr)] = {};
	struct dpillar_hdr *h = (void *)buf;
	u32 next = dpf_peer(d, 0, 1), dst, n = 0, i;
	u32 want = DP_SC_NEIGH_DISCOVER + 3, port, peer, dist;
	unsigned long used;
	bool found;

	spin_lock_bh(&sc->lock);
	for (dst = 0; dst < d->dp->topo.nodes && n < want + 1; dst++) {
		struct dp_sc_ent *e = &sc->ent[n];

		if (dst == d->dp->self || dst == next)
			continue;
		e->dst = dst;
		e->peer = next;
		e->port = 0;
		e->dist = 2;
		e->origin = true;
		e->learned = jiffies - 2 * period;
		e->used = jiffies - HZ;
		n++;
	}
	spin_unlock_bh(&sc->lock);
	KUNIT_ASSERT_EQ(test, n, want + 1);

	/* ROUTE_GET's lookup (under RCU, as genetlink's): nothing changes. */
	used = sc->ent[0].used;
	rcu_read_lock();
	found = d->dp->view.coords->shortcut(&d->dp->vctx, d->dp->self,
					     sc->ent[0].dst, 5, &port, &peer,
					     &dist);
	rcu_read_unlock();
	KUNIT_EXPECT_TRUE(test, found);
	KUNIT_EXPECT_EQ(test, sc->ent[0].used, used);
	KUNIT_EXPECT_FALSE(test, sc->ent[0].own_use || sc->ent[0].nb_use);

	/* One neighbour's frames in transit keep the first @want in use. */
	for (i = 0; i < want; i++) {
		dpt_hdr(h, DPILLAR_T_SHORTCUT_DATA, dpf_peer(d, 1, 1),
			sc->ent[i].dst);
		h->rword = htons(5);
		dpf_rx(test, d, 1, 0, buf, sizeof(buf));
	}
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_SC_DATA), want);
	/* and this node's own the last one */
	sc->ent[want].own_use = true;
	sc->ent[want].used = jiffies;
	skb_queue_purge(&dpc_sent);

	sc->refresh.work.func(&sc->refresh.work);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_SC_DISCOVER),
			DP_SC_NEIGH_DISCOVER + 1);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_SC_NEIGH_LIMIT), 3);
	KUNIT_EXPECT_EQ(test, dpt_stat(d, DP_STAT_SC_LIMIT), 0);
	skb_queue_purge(&dpc_sent);
}

static int dpc_init(struct kunit *test)
{
	skb_queue_head_init(&dpc_sent);
	dpc_sender = DP_NODE_NONE;
	return 0;
}

static void dpc_exit(struct kunit *test)
{
	skb_queue_purge(&dpc_sent);
	dpc_cur = NULL;
}

static struct kunit_case dpc_cases[] = {
	KUNIT_CASE(dpc_cache_basic),
	KUNIT_CASE(dpc_cache_derived),
	KUNIT_CASE(dpc_cache_ageing),
	KUNIT_CASE(dpc_cache_bound),
	KUNIT_CASE(dpc_lookup_view),
	KUNIT_CASE(dpc_probe_target),
	KUNIT_CASE(dpc_probe_hostile),
	KUNIT_CASE(dpc_probe_derived),
	KUNIT_CASE(dpc_resolve_origin),
	KUNIT_CASE(dpc_relay),
	KUNIT_CASE(dpc_neigh_flood),
	KUNIT_CASE(dpc_seen_kept),
	KUNIT_CASE(dpc_seen_full),
	KUNIT_CASE(dpc_reply_limit),
	KUNIT_CASE(dpc_probe_no_replace),
	KUNIT_CASE(dpc_reply_same_port),
	KUNIT_CASE(dpc_cache_kept),
	KUNIT_CASE(dpc_cache_life),
	KUNIT_CASE(dpc_probe_learned_old),
	KUNIT_CASE(dpc_discover_neigh),
	KUNIT_CASE(dpf_neigh_budgets),
	KUNIT_CASE(dpf_sc_data),
	KUNIT_CASE(dpf_route_shortcut),
	KUNIT_CASE(dpf_flood_group),
	KUNIT_CASE(dpf_seen_no_push),
	KUNIT_CASE(dpf_refresh_account),
	{}
};

static struct kunit_suite dpc_suite = {
	.name = "dpillar_coords",
	.init = dpc_init,
	.exit = dpc_exit,
	.test_cases = dpc_cases,
};

kunit_test_suites(&dpc_suite);
