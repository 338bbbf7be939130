// SPDX-License-Identifier: GPL-2.0
/*
 * The dpillar device (dp0): the host's layer-3 interface to the fabric, and
 * the "dpillar" rtnetlink link type that creates it.
 */

#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/rtnetlink.h>

#include "compat.h"
#include "dpillar.h"

void dp_count_drop(struct dp_priv *dp, enum dp_drop_reason reason)
{
	struct dp_pcpu_stats *s = this_cpu_ptr(dp->stats);
	unsigned long flags;

	flags = u64_stats_update_begin_irqsave(&s->syncp);
	u64_stats_inc(&s->drops[reason]);
	u64_stats_update_end_irqrestore(&s->syncp, flags);
}

static netdev_tx_t dp_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct dp_priv *dp = netdev_priv(dev);

	/* No data plane yet: account for the packet and drop it. */
	dp_count_drop(dp, DP_DROP_TX_NOFWD);
	kfree_skb(skb);
	return NETDEV_TX_OK;
}

static int dp_open(struct net_device *dev)
{
	dp_update_carrier(netdev_priv(dev));
	return 0;
}

static int dp_stop(struct net_device *dev)
{
	netif_carrier_off(dev);
	return 0;
}

static void dp_get_stats64(struct net_device *dev,
			   struct rtnl_link_stats64 *tot)
{
	struct dp_priv *dp = netdev_priv(dev);
	int cpu;

	for_each_possible_cpu(cpu) {
		const struct dp_pcpu_stats *s = per_cpu_ptr(dp->stats, cpu);
		u64 rxp, rxb, txp, txb, rxd, txd;
		unsigned int start;

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			rxp = u64_stats_read(&s->rx_packets);
			rxb = u64_stats_read(&s->rx_bytes);
			txp = u64_stats_read(&s->tx_packets);
			txb = u64_stats_read(&s->tx_bytes);
			rxd = u64_stats_read(&s->drops[DP_DROP_NOFWD]);
			txd = u64_stats_read(&s->drops[DP_DROP_TX_NOFWD]);
		} while (u64_stats_fetch_retry(&s->syncp, start));

		tot->rx_packets += rxp;
		tot->rx_bytes += rxb;
		tot->tx_packets += txp;
		tot->tx_bytes += txb;
		tot->rx_dropped += rxd;
		tot->tx_dropped += txd;
	}
}

static int dp_dev_init(struct net_device *dev)
{
	struct dp_priv *dp = netdev_priv(dev);
	int cpu;

	dp->stats = alloc_percpu(struct dp_pcpu_stats);
	if (!dp->stats)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(dp->stats, cpu)->syncp);
	return 0;
}

/* Runs for every way the device goes away: dellink, netns exit, rmmod. */
static void dp_dev_uninit(struct net_device *dev)
{
	struct dp_priv *dp = netdev_priv(dev);
	u32 i;

	for (i = 0; i < dp->nports; i++) {
		struct dp_port *port = rtnl_dereference(dp->ports[i]);

		if (port)
			dp_port_del(port);
	}
}

static void dp_dev_free(struct net_device *dev)
{
	struct dp_priv *dp = netdev_priv(dev);

	free_percpu(dp->stats);
}

static const struct net_device_ops dp_netdev_ops = {
	.ndo_init		= dp_dev_init,
	.ndo_uninit		= dp_dev_uninit,
	.ndo_open		= dp_open,
	.ndo_stop		= dp_stop,
	.ndo_start_xmit		= dp_xmit,
	.ndo_get_stats64	= dp_get_stats64,
};

static void dp_setup(struct net_device *dev)
{
	struct dp_priv *dp = netdev_priv(dev);

	dp->dev = dev;
	dev->netdev_ops = &dp_netdev_ops;
	dev->needs_free_netdev = true;
	dev->priv_destructor = dp_dev_free;

	/* A layer-3 device: the fabric address comes from the IP address. */
	dev->type = ARPHRD_NONE;
	dev->flags = IFF_POINTOPOINT | IFF_NOARP;
	dev->hard_header_len = 0;
	dev->addr_len = 0;
	dev->needed_headroom = ETH_HLEN + DP_HDR_LEN;
	dev->mtu = ETH_DATA_LEN - DP_HDR_LEN;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = ETH_DATA_LEN - DP_HDR_LEN;
	dev->tx_queue_len = 0;
	dev->priv_flags |= IFF_NO_QUEUE;
	dp_compat_set_lltx(dev);
	/* The ports cannot follow the device into another namespace. */
	dp_compat_set_netns_immutable(dev);
}

static const struct nla_policy dp_port_policy[IFLA_DPILLAR_PORT_MAX + 1] = {
	[IFLA_DPILLAR_PORT]	= { .type = NLA_U32 },
};

static const struct nla_policy dp_policy[IFLA_DPILLAR_MAX + 1] = {
	[IFLA_DPILLAR_TOPO]	= NLA_POLICY_RANGE(NLA_U32, DPILLAR_TOPO_DPILLAR,
						   DPILLAR_TOPO_MAX),
	[IFLA_DPILLAR_N]	= { .type = NLA_U32 },
	[IFLA_DPILLAR_K]	= { .type = NLA_U32 },
	[IFLA_DPILLAR_COLUMN]	= { .type = NLA_U32 },
	[IFLA_DPILLAR_LABEL]	= { .type = NLA_BINARY,
				    .len = DPILLAR_LABEL_MAX },
	[IFLA_DPILLAR_PORTS]	= NLA_POLICY_NESTED(dp_port_policy),
	[IFLA_DPILLAR_NODE_ID]	= { .type = NLA_REJECT,
				    .reject_message = "Node id is read-only" },
	[IFLA_DPILLAR_NODES]	= { .type = NLA_REJECT,
				    .reject_message = "Node count is read-only" },
};

static int dp_require(struct nlattr *data[], int type, const char *msg,
		      struct netlink_ext_ack *extack)
{
	if (data[type])
		return 0;
	dp_extack(extack, NULL, msg);
	return -EINVAL;
}

/*
 * Checks that need no device: the topology parameters and our address.
 * Fills @topo and @self for the caller.
 */
static int dp_parse_topo(struct nlattr *data[], struct dp_topo *topo,
			 u32 *self, struct netlink_ext_ack *extack)
{
	const char *why = NULL;
	u32 kind = DPILLAR_TOPO_DPILLAR;
	int err;

	if (!data) {
		NL_SET_ERR_MSG(extack, "Missing dpillar parameters");
		return -EINVAL;
	}
	err = dp_require(data, IFLA_DPILLAR_N, "Missing n", extack) ?:
	      dp_require(data, IFLA_DPILLAR_K, "Missing k", extack) ?:
	      dp_require(data, IFLA_DPILLAR_COLUMN, "Missing column", extack) ?:
	      dp_require(data, IFLA_DPILLAR_LABEL, "Missing label", extack) ?:
	      dp_require(data, IFLA_DPILLAR_PORTS, "Missing ports", extack);
	if (err)
		return err;

	if (data[IFLA_DPILLAR_TOPO])
		kind = nla_get_u32(data[IFLA_DPILLAR_TOPO]);

	err = dp_topo_init(topo, kind, nla_get_u32(data[IFLA_DPILLAR_N]),
			   nla_get_u32(data[IFLA_DPILLAR_K]), &why);
	if (err) {
		dp_extack(extack, NULL, why);
		return err;
	}

	err = dp_addr_from_symbols(topo, nla_get_u32(data[IFLA_DPILLAR_COLUMN]),
				   nla_data(data[IFLA_DPILLAR_LABEL]),
				   nla_len(data[IFLA_DPILLAR_LABEL]), self, &why);
	if (err) {
		dp_extack(extack, data[IFLA_DPILLAR_LABEL], why);
		return err;
	}
	return 0;
}

static int dp_validate(struct nlattr *tb[], struct nlattr *data[],
		       struct netlink_ext_ack *extack)
{
	struct dp_topo topo;
	u32 self;

	if (tb[IFLA_ADDRESS]) {
		NL_SET_ERR_MSG(extack, "A dpillar device has no link address");
		return -EINVAL;
	}
	return dp_parse_topo(data, &topo, &self, extack);
}

/* Resolve the nested port list to devices, in port order. */
static int dp_parse_ports(struct net *net, const struct dp_topo *topo,
			  struct nlattr *nest, struct net_device **lower,
			  struct netlink_ext_ack *extack)
{
	u32 want = topo->nports, n = 0, i;
	struct nlattr *attr;
	int rem;

	nla_for_each_nested(attr, nest, rem) {
		if (nla_type(attr) != IFLA_DPILLAR_PORT) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "Unknown attribute in port list");
			return -EINVAL;
		}
		if (n == want) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "Too many ports for this topology");
			return -EINVAL;
		}
		lower[n] = __dev_get_by_index(net, nla_get_u32(attr));
		if (!lower[n]) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "Port device does not exist");
			return -ENODEV;
		}
		for (i = 0; i < n; i++) {
			if (lower[i] == lower[n]) {
				NL_SET_ERR_MSG_ATTR(extack, attr,
						    "Ports must be distinct devices");
				return -EINVAL;
			}
		}
		n++;
	}
	if (n != want) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "Too few ports for this topology");
		return -EINVAL;
	}
	return 0;
}

static int dp_newlink(struct net *src_net, struct net_device *dev,
		      struct nlattr *tb[], struct nlattr *data[],
		      struct netlink_ext_ack *extack)
{
	struct net_device *lower[DPILLAR_PORTS_MAX];
	struct dp_priv *dp = netdev_priv(dev);
	u32 i;
	int err;

	err = dp_parse_topo(data, &dp->topo, &dp->self, extack);
	if (err)
		return err;
	/*
	 * Ports are named by ifindex in the namespace the request came from,
	 * and must live where the device lives: a port elsewhere could be
	 * moved or deleted behind our back without us being able to follow.
	 */
	if (!net_eq(src_net, dev_net(dev))) {
		NL_SET_ERR_MSG(extack,
			       "Device must be created in its ports' network namespace");
		return -EINVAL;
	}
	err = dp_parse_ports(src_net, &dp->topo, data[IFLA_DPILLAR_PORTS],
			     lower, extack);
	if (err)
		return err;
	dp->nports = dp->topo.nports;

	err = register_netdevice(dev);
	if (err)
		return err;

	for (i = 0; i < dp->nports; i++) {
		err = dp_port_add(dp, lower[i], i, extack);
		if (err)
			goto err_unregister;
	}
	dp_update_mtu(dp);
	dp_update_carrier(dp);
	return 0;

err_unregister:
	/* ndo_uninit releases the ports already bound. */
	unregister_netdevice(dev);
	return err;
}

static size_t dp_get_size(const struct net_device *dev)
{
	const struct dp_priv *dp = netdev_priv(dev);

	return nla_total_size(sizeof(u32)) * 6 +	/* TOPO..COLUMN, ids */
	       nla_total_size(dp->topo.k) +		/* LABEL */
	       nla_total_size(0) +			/* PORTS */
	       nla_total_size(sizeof(u32)) * dp->nports;
}

static int dp_fill_info(struct sk_buff *skb, const struct net_device *dev)
{
	const struct dp_priv *dp = netdev_priv(dev);
	u8 sym[DP_MAX_K];
	struct nlattr *nest;
	u32 column, i;

	dp_addr_to_symbols(&dp->topo, dp->self, &column, sym);
	if (nla_put_u32(skb, IFLA_DPILLAR_TOPO, dp->topo.kind) ||
	    nla_put_u32(skb, IFLA_DPILLAR_N, dp->topo.n) ||
	    nla_put_u32(skb, IFLA_DPILLAR_K, dp->topo.k) ||
	    nla_put_u32(skb, IFLA_DPILLAR_COLUMN, column) ||
	    nla_put(skb, IFLA_DPILLAR_LABEL, dp->topo.k, sym) ||
	    nla_put_u32(skb, IFLA_DPILLAR_NODE_ID, dp->self) ||
	    nla_put_u32(skb, IFLA_DPILLAR_NODES, dp->topo.nodes))
		return -EMSGSIZE;

	nest = nla_nest_start(skb, IFLA_DPILLAR_PORTS);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < dp->nports; i++) {
		struct dp_port *port = rtnl_dereference(dp->ports[i]);

		/* A detached port shows as ifindex 0, keeping port order. */
		if (nla_put_u32(skb, IFLA_DPILLAR_PORT,
				port ? port->dev->ifindex : 0)) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(skb, nest);
	return 0;
}

struct rtnl_link_ops dp_link_ops __read_mostly = {
	.kind		= "dpillar",
	.priv_size	= sizeof(struct dp_priv),
	.setup		= dp_setup,
	.maxtype	= IFLA_DPILLAR_MAX,
	.policy		= dp_policy,
	.validate	= dp_validate,
	.newlink	= dp_newlink,
	.get_size	= dp_get_size,
	.fill_info	= dp_fill_info,
};
