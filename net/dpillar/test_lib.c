// SPDX-License-Identifier: GPL-2.0
/*
 * Fixtures of the KUnit tests (see test_lib.h), and the test module's
 * identity: dpillar_test.ko is the *_test.c files (Kbuild) and this
 * file.
 */

#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/gfp.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/rtnetlink.h>
#include <net/sch_generic.h>

#include "compat.h"
#include "test_lib.h"

static void dpt_dev_free(void *arg)
{
	struct dpt_dev *d = arg;
	u32 i;

	/* A reply learned by a test queues the shortcut refresh. */
	if (d->dp)
		dp_sc_stop(d->dp);
	for (i = 0; i < DP_MAX_PORTS; i++) {
		if (d->lower[i]) {
			RCU_INIT_POINTER(d->lower[i]->rx_handler_data, NULL);
			free_netdev(d->lower[i]);
		}
		kvfree(d->port[i]);
	}
	if (d->dev) {
		/* ndo_init's allocations; nothing registered the device. */
		d->dev->priv_destructor(d->dev);
		free_netdev(d->dev);
	}
}

struct dpt_dev *dpt_dev_create(struct kunit *test, u32 n, u32 k, u32 self)
{
	struct dp_topo_params prm = {
		.kind = DP_TOPO_DPILLAR, .n = n, .k = k,
	};

	return dpt_dev_create_topo(test, &prm, self);
}

struct dpt_dev *dpt_dev_create_topo(struct kunit *test,
				    const struct dp_topo_params *prm, u32 self)
{
	struct dp_prefix *prefix;
	struct dpt_dev *d;
	struct dp_priv *dp;
	const char *why = NULL;
	u32 i;

	d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, dpt_dev_free, d),
			0);

	d->dev = alloc_netdev(dp_link_ops.priv_size, "dpt0", NET_NAME_USER,
			      dp_link_ops.setup);
	KUNIT_ASSERT_NOT_NULL(test, d->dev);
	KUNIT_ASSERT_EQ(test, d->dev->netdev_ops->ndo_init(d->dev), 0);
	d->dp = netdev_priv(d->dev);
	dp = d->dp;
	KUNIT_ASSERT_EQ_MSG(test, dp_topo_init(&dp->topo, prm, &why), 0,
			    "%s", why);
	KUNIT_ASSERT_TRUE(test, dp_addr_valid(&dp->topo, self));
	dp->self = self;
	dp->nports = dp->topo.nports;
	dp->hello_ms = DP_HELLO_MS_DEFAULT;
	dp->dead_ms = DP_DEAD_MS_DEFAULT;
	dp->dead_jiffies = msecs_to_jiffies(DP_DEAD_MS_DEFAULT);
	prefix = kzalloc(sizeof(*prefix), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, prefix);
	prefix->ip4 = htonl(0x0a000000);
	prefix->ip4_plen = 8;
	/* Freed with the device, by its destructor. */
	rcu_assign_pointer(dp->prefix, prefix);
	/* What dev_open() sets: IFF_UP, and running (netif_running()). */
	d->dev->flags |= IFF_UP;
	set_bit(__LINK_STATE_START, &d->dev->state);

	for (i = 0; i < dp->nports; i++) {
		struct dp_port_info pi;
		struct dp_port *port;

		d->lower[i] = alloc_netdev(0, i ? "dptp1" : "dptp0",
					   NET_NAME_USER, ether_setup);
		KUNIT_ASSERT_NOT_NULL(test, d->lower[i]);
		eth_hw_addr_random(d->lower[i]);
		dp_port_info(&dp->topo, self, i, &pi);
		port = kvzalloc(struct_size(port, neigh, pi.nneigh), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, port);
		d->port[i] = port;
		port->nneigh = pi.nneigh;
		port->dp = dp;
		port->index = i;
		port->dev = d->lower[i];
		dp_port_miswired_init(port);
		rcu_assign_pointer(d->lower[i]->rx_handler_data, port);
		rcu_assign_pointer(dp->ports[i], port);
		dpt_port_set(d, i, true, true);
	}
	return d;
}

void dpt_port_set(struct dpt_dev *d, u32 port, bool running, bool carrier)
{
	struct net_device *dev = d->lower[port];

	/* What dev_open() would set; the device is never opened. */
	if (running)
		set_bit(__LINK_STATE_START, &dev->state);
	else
		clear_bit(__LINK_STATE_START, &dev->state);
	/* Unregistered: only the flag changes, no link event. */
	if (carrier)
		netif_carrier_on(dev);
	else
		netif_carrier_off(dev);
}

static u64 dpt_sum(const struct dpt_dev *d, size_t off)
{
	unsigned int start;
	u64 sum = 0, v;
	int cpu;

	for_each_possible_cpu(cpu) {
		const struct dp_pcpu_stats *s = per_cpu_ptr(d->dp->stats, cpu);
		const u64_stats_t *c = (const void *)s + off;

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			v = u64_stats_read(c);
		} while (u64_stats_fetch_retry(&s->syncp, start));
		sum += v;
	}
	return sum;
}

u64 dpt_stat(const struct dpt_dev *d, enum dp_stat stat)
{
	return dpt_sum(d, offsetof(struct dp_pcpu_stats, cnt) +
			  stat * sizeof(u64_stats_t));
}

u64 dpt_route_stat(const struct dpt_dev *d, u8 reason)
{
	return dpt_sum(d, offsetof(struct dp_pcpu_stats, route) +
			  reason * sizeof(u64_stats_t));
}

void dpt_port_capture(struct kunit *test, struct net_device *lower,
		      const struct net_device_ops *ops)
{
	typeof(noop_qdisc) *q;

	q = kunit_kzalloc(test, sizeof(*q), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, q);
	rcu_assign_pointer(netdev_get_tx_queue(lower, 0)->qdisc, q);
	lower->netdev_ops = ops;
	lower->flags |= IFF_UP;
}

u64 dpt_stat_outcomes(const struct dpt_dev *d)
{
	u64 sum = dpt_stat(d, DP_STAT_DELIVERED) +
		  dpt_stat(d, DP_STAT_FORWARDED) +
		  dpt_stat(d, DP_STAT_HELLO_RX) +
		  dpt_stat(d, DP_STAT_HELLO_MAC_TAKEN);
	int i;

	/* The receive drops, as dp_get_stats64() sums them. */
	for (i = DP_STAT_DROP_SHORT; i <= DP_STAT_HELLO_BAD; i++)
		sum += dpt_stat(d, i);
	/*
	 * ... and those appended after the detour counters; not the events
	 * that are no frame's end (discoveries started, shortcuts and
	 * coordinates learned, our own packets dropped on the way out).
	 */
	for (i = DP_STAT_DROP_VLAN; i <= DP_STAT_HELLO_MAC_CHANGE; i++)
		sum += dpt_stat(d, i);
	return sum + dpt_stat(d, DP_STAT_SC_BAD) +
	       dpt_stat(d, DP_STAT_PROBE_REPLY_BAD) +
	       dpt_stat(d, DP_STAT_SC_DATA_LOST);
}

struct sk_buff *dpt_frame(struct kunit *test, struct dpt_dev *d, u32 port,
			  const u8 *src_mac, u16 proto, const void *payload,
			  unsigned int len, unsigned int linear)
{
	struct sk_buff *skb;
	struct ethhdr *eth;

	linear = min(linear, len);
	skb = alloc_skb(NET_SKB_PAD + ETH_HLEN + linear, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reserve(skb, NET_SKB_PAD);
	eth = skb_put(skb, ETH_HLEN);
	ether_addr_copy(eth->h_dest, d->lower[port]->dev_addr);
	ether_addr_copy(eth->h_source, src_mac);
	eth->h_proto = htons(proto);
	skb_put_data(skb, payload, linear);
	if (len > linear) {
		struct page *page = alloc_page(GFP_KERNEL);

		if (!page)
			kfree_skb(skb);
		KUNIT_ASSERT_NOT_NULL(test, page);
		memcpy(page_address(page), payload + linear, len - linear);
		skb_add_rx_frag(skb, 0, page, 0, len - linear, PAGE_SIZE);
	}
	skb_reset_mac_header(skb);
	skb_pull(skb, ETH_HLEN);
	skb_reset_network_header(skb);
	skb->protocol = htons(proto);
	skb->dev = d->lower[port];
	skb->pkt_type = PACKET_HOST;
	return skb;
}

void dpt_hdr(struct dpillar_hdr *h, u8 type, u32 src, u32 dst)
{
	memset(h, 0, sizeof(*h));
	h->version = DPILLAR_VERSION;
	h->type = type;
	h->ttl = DPT_TTL;
	h->proto = htons(ETH_P_IP);
	h->src = htonl(src);
	h->dst = htonl(dst);
	h->waypoint = htonl(DPILLAR_NODE_NONE);
}

rx_handler_result_t dpt_rx(struct sk_buff **pskb)
{
	rx_handler_result_t ret;

	local_bh_disable();
	rcu_read_lock();
	ret = dp_handle_frame(pskb);
	rcu_read_unlock();
	local_bh_enable();
	return ret;
}

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests of the dpillar module");
DP_MODULE_IMPORT_KUNIT_NS();

void dpt_fail_init(struct kunit *test, struct dp_fail_set *f,
		   const struct dp_topo *t)
{
	u8 *node = kunit_kzalloc(test, dp_fail_node_bytes(t), GFP_KERNEL);
	u8 *link = kunit_kzalloc(test, dp_fail_link_bytes(t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, node);
	KUNIT_ASSERT_NOT_NULL(test, link);
	dp_fail_init(f, t, node, link);
}

int dpt_init(struct dp_topo *t, u32 kind, u32 n, u32 k, const char **why)
{
	struct dp_topo_params p = { .kind = kind, .n = n, .k = k };

	return dp_topo_init(t, &p, why);
}

void dpt_mk(struct kunit *test, struct dp_topo *t, u32 n, u32 k)
{
	const char *why = NULL;

	KUNIT_ASSERT_EQ_MSG(test, dpt_init(t, DP_TOPO_DPILLAR, n, k, &why),
			    0, "(%u,%u): %s", n, k, why);
}
