// SPDX-License-Identifier: GPL-2.0
/*
 * The dpillar device (dp0): the host's layer-3 interface to the fabric.
 * Its setup (dp_link_ops.setup), its net_device_ops, and its counters:
 * their names, their sum over the CPUs, ndo_get_stats64 and ethtool -S.
 */

#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/if_arp.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

#include "compat.h"
#include "dpillar.h"

const char dp_stat_names[DP_STAT_MAX][ETH_GSTRING_LEN] = {
	[DP_STAT_RX_FRAMES]	= "rx_frames",
	[DP_STAT_DELIVERED]	= "delivered",
	[DP_STAT_FORWARDED]	= "forwarded",
	[DP_STAT_TX]		= "tx",
	[DP_STAT_HELLO_TX]	= "hello_tx",
	[DP_STAT_HELLO_RX]	= "hello_rx",
	[DP_STAT_DROP_SHORT]	= "drop_short",
	[DP_STAT_DROP_VERSION]	= "drop_version",
	[DP_STAT_DROP_TYPE]	= "drop_type",
	[DP_STAT_DROP_ADDR]	= "drop_addr",
	[DP_STAT_DROP_TTL]	= "drop_ttl",
	[DP_STAT_DROP_PROTO]	= "drop_proto",
	[DP_STAT_DROP_INNER]	= "drop_inner",
	[DP_STAT_DROP_DOWN]	= "drop_down",
	[DP_STAT_DROP_NOROUTE]	= "drop_noroute",
	[DP_STAT_DROP_NONEIGH]	= "drop_noneigh",
	[DP_STAT_DROP_MTU]	= "drop_mtu",
	[DP_STAT_DROP_NOMEM]	= "drop_nomem",
	[DP_STAT_DROP_OTHERHOST] = "drop_otherhost",
	[DP_STAT_HELLO_MISWIRED] = "hello_miswired",
	[DP_STAT_HELLO_BAD]	= "hello_bad",
	[DP_STAT_TX_NOT_FABRIC]	= "tx_not_fabric",
	[DP_STAT_TX_PROTO]	= "tx_proto",
	[DP_STAT_TX_NOROUTE]	= "tx_noroute",
	/* The topology names the detours it counts (dp_stat_name()). */
	[DP_STAT_DETOUR1]	= "route_detour1",
	[DP_STAT_DETOUR2]	= "route_detour2",
	[DP_STAT_DETOUR3]	= "route_detour3",
	[DP_STAT_DETOUR4]	= "route_detour4",
	[DP_STAT_DETOUR5]	= "route_detour5",
	[DP_STAT_DROP_VLAN]	= "drop_vlan",
	[DP_STAT_HELLO_NOT_GROUP] = "hello_not_group",
	[DP_STAT_HELLO_MAC_CHANGE] = "hello_mac_change",
	[DP_STAT_SC_DISCOVER]	= "shortcut_discover",
	[DP_STAT_SC_LEARNED]	= "shortcut_learned",
	[DP_STAT_SC_BAD]	= "shortcut_bad",
	[DP_STAT_SC_LIMIT]	= "shortcut_limit",
	[DP_STAT_COORDS_RESOLVE] = "coords_resolve",
	[DP_STAT_COORDS_LEARNED] = "coords_learned",
	[DP_STAT_TX_RESOLVING]	= "tx_resolving",
	[DP_STAT_PROBE_REPLY_BAD] = "probe_reply_bad",
	[DP_STAT_TX_COMPLETE_FAIL] = "tx_complete_fail",
	[DP_STAT_SC_NEIGH_LIMIT] = "shortcut_neigh_limit",
	[DP_STAT_SC_REPLY_LIMIT] = "shortcut_reply_limit",
	[DP_STAT_COORDS_EXPIRED] = "coords_expired",
	[DP_STAT_TX_PORT_DROP]	= "tx_port_drop",
	[DP_STAT_PROBE_LIMIT]	= "probe_limit",
	[DP_STAT_SC_DATA]	= "shortcut_data",
	[DP_STAT_SC_DATA_LOST]	= "shortcut_data_lost",
	[DP_STAT_HELLO_MAC_TAKEN] = "hello_mac_taken",
	[DP_STAT_PROBE_SENDER_LIMIT] = "probe_sender_limit",
	[DP_STAT_TX_NIC_OFFLOAD] = "tx_nic_offload",
};

/*
 * The counters of ethtool -S and of the genetlink STATS nest: the
 * DP_STAT_MAX counters of enum dp_stat, then the topology's routing drop
 * reasons but 0 ("no drop").
 */
int dp_stat_count(const struct dp_priv *dp)
{
	return DP_STAT_MAX + dp->topo.ops->ndrops - 1;
}

/* Name of counter @i (< dp_stat_count()) into @buf (ETH_GSTRING_LEN). */
void dp_stat_name(const struct dp_priv *dp, int i, char *buf)
{
	const char *name = NULL;

	if (i >= DP_STAT_DETOUR1 && i <= DP_STAT_DETOUR5)
		name = dp_detour_name(&dp->topo, i - DP_STAT_DETOUR1 + 1);
	else if (i >= DP_STAT_MAX)
		name = dp_drop_reason_name(&dp->topo, i - DP_STAT_MAX + 1);
	if (name)
		snprintf(buf, ETH_GSTRING_LEN, "route_%s", name);
	else
		strscpy_pad(buf, dp_stat_names[i], ETH_GSTRING_LEN);
}

/* Sum the per-CPU counters into @cnt (DP_STAT_MAX), @route and bytes. */
void dp_stats_sum(const struct dp_priv *dp, u64 *cnt, u64 *route,
		  u64 *rx_bytes, u64 *tx_bytes)
{
	int cpu, i;

	memset(cnt, 0, sizeof(u64) * DP_STAT_MAX);
	memset(route, 0, sizeof(u64) * DP_DROP_MAX);
	*rx_bytes = 0;
	*tx_bytes = 0;
	for_each_possible_cpu(cpu) {
		const struct dp_pcpu_stats *s = per_cpu_ptr(dp->stats, cpu);
		u64 c[DP_STAT_MAX], r[DP_DROP_MAX], rxb, txb;
		unsigned int start;

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			for (i = 0; i < DP_STAT_MAX; i++)
				c[i] = u64_stats_read(&s->cnt[i]);
			for (i = 0; i < DP_DROP_MAX; i++)
				r[i] = u64_stats_read(&s->route[i]);
			rxb = u64_stats_read(&s->rx_bytes);
			txb = u64_stats_read(&s->tx_bytes);
		} while (u64_stats_fetch_retry(&s->syncp, start));

		for (i = 0; i < DP_STAT_MAX; i++)
			cnt[i] += c[i];
		for (i = 0; i < DP_DROP_MAX; i++)
			route[i] += r[i];
		*rx_bytes += rxb;
		*tx_bytes += txb;
	}
}

/* What dp0 hands the ports unsegmented and not checksummed (gso.c). */
#define DP_DEV_OFFLOADS	(NETIF_F_SG | NETIF_F_HW_CSUM | NETIF_F_HIGHDMA | \
			 NETIF_F_GSO_SOFTWARE)

static void dp_get_stats64(struct net_device *dev,
			   struct rtnl_link_stats64 *tot)
{
	const struct dp_priv *dp = netdev_priv(dev);
	u64 c[DP_STAT_MAX], r[DP_DROP_MAX];
	int i;

	dp_stats_sum(dp, c, r, &tot->rx_bytes, &tot->tx_bytes);
	tot->rx_packets = c[DP_STAT_DELIVERED];
	tot->tx_packets = c[DP_STAT_TX];
	for (i = DP_STAT_DROP_SHORT; i <= DP_STAT_HELLO_BAD; i++)
		tot->rx_dropped += c[i];
	tot->rx_dropped += c[DP_STAT_DROP_VLAN] + c[DP_STAT_HELLO_NOT_GROUP] +
			   c[DP_STAT_PROBE_REPLY_BAD] + c[DP_STAT_SC_DATA_LOST];
	/*
	 * Miswired Hellos are a cabling report, and frames flooded to us for
	 * another server are the switch's business, not lost traffic.
	 */
	tot->rx_dropped -= c[DP_STAT_HELLO_MISWIRED] +
			   c[DP_STAT_DROP_OTHERHOST];
	for (i = DP_STAT_TX_NOT_FABRIC; i <= DP_STAT_TX_NOROUTE; i++)
		tot->tx_dropped += c[i];
	tot->tx_dropped += c[DP_STAT_TX_RESOLVING] +
			   c[DP_STAT_TX_COMPLETE_FAIL] +
			   c[DP_STAT_TX_PORT_DROP];
}

/* ethtool -S: every counter, then the routing drops by reason. */
static int dp_get_sset_count(struct net_device *dev, int sset)
{
	return sset == ETH_SS_STATS ? dp_stat_count(netdev_priv(dev)) :
				      -EOPNOTSUPP;
}

static void dp_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	const struct dp_priv *dp = netdev_priv(dev);
	int i;

	if (sset != ETH_SS_STATS)
		return;
	for (i = 0; i < dp_stat_count(dp); i++, data += ETH_GSTRING_LEN)
		dp_stat_name(dp, i, data);
}

static void dp_get_ethtool_stats(struct net_device *dev,
				 struct ethtool_stats *stats, u64 *data)
{
	const struct dp_priv *dp = netdev_priv(dev);
	u64 r[DP_DROP_MAX], rxb, txb;

	dp_stats_sum(dp, data, r, &rxb, &txb);
	/* Reason 0 is "no drop": not a counter. */
	memcpy(data + DP_STAT_MAX, r + 1,
	       sizeof(u64) * (dp->topo.ops->ndrops - 1));
}

static void dp_get_drvinfo(struct net_device *dev,
			   struct ethtool_drvinfo *info)
{
	strscpy(info->driver, "dpillar", sizeof(info->driver));
}

static const struct ethtool_ops dp_ethtool_ops = {
	.get_drvinfo		= dp_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_sset_count		= dp_get_sset_count,
	.get_strings		= dp_get_strings,
	.get_ethtool_stats	= dp_get_ethtool_stats,
};

static int dp_open(struct net_device *dev)
{
	struct dp_priv *dp = netdev_priv(dev);

	dp_update_carrier(dp);
	queue_delayed_work(system_power_efficient_wq, &dp->hello_work, 0);
	dp_pathsel_start(dp);
	return 0;
}

static int dp_stop(struct net_device *dev)
{
	struct dp_priv *dp = netdev_priv(dev);

	cancel_delayed_work_sync(&dp->hello_work);
	dp_pathsel_stop(dp);
	dp_sc_stop(dp);
	dp_coords_stop(dp);
	netif_carrier_off(dev);
	return 0;
}

static int dp_dev_init(struct net_device *dev)
{
	struct dp_priv *dp = netdev_priv(dev);
	int cpu;

	/*
	 * On failure register_netdevice() runs no destructor: newlink frees
	 * the prefixes it installed.
	 */
	dp->stats = alloc_percpu(struct dp_pcpu_stats);
	if (!dp->stats)
		return -ENOMEM;
	/* Zeroed: generation 0, which no frame takes (dp_rmemo_flush()). */
	dp->rmemo = alloc_percpu(struct dp_rmemo_tab);
	if (!dp->rmemo) {
		free_percpu(dp->stats);
		dp->stats = NULL;
		return -ENOMEM;
	}
	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(dp->stats, cpu)->syncp);
	return 0;
}

/* Runs for every way the device goes away: dellink, netns exit, rmmod. */
static void dp_dev_uninit(struct net_device *dev)
{
	struct dp_priv *dp = netdev_priv(dev);
	u32 i;

	cancel_delayed_work_sync(&dp->hello_work);
	dp_pathsel_stop(dp);
	dp_probe_flush(dp);
	for (i = 0; i < dp->nports; i++) {
		struct dp_port *port = rtnl_dereference(dp->ports[i]);

		if (port)
			dp_port_del(port);
	}
	/* After the ports: no receive handler can queue the work again. */
	dp_sc_stop(dp);
	dp_coords_stop(dp);
}

static void dp_dev_free(struct net_device *dev)
{
	struct dp_priv *dp = netdev_priv(dev);

	free_percpu(dp->stats);
	free_percpu(dp->rmemo);
	/* Unregistered, or never registered: no reader is left. */
	kfree(rcu_replace_pointer(dp->prefix, NULL, true));
	dp_topo_free(&dp->topo);
}

static const struct net_device_ops dp_netdev_ops = {
	.ndo_init		= dp_dev_init,
	.ndo_uninit		= dp_dev_uninit,
	.ndo_open		= dp_open,
	.ndo_stop		= dp_stop,
	.ndo_start_xmit		= dp_xmit,
	.ndo_get_stats64	= dp_get_stats64,
	.ndo_add_slave		= dp_add_slave,
	.ndo_del_slave		= dp_del_slave,
};

void dp_setup(struct net_device *dev)
{
	struct dp_priv *dp = netdev_priv(dev);

	BUILD_BUG_ON(sizeof(struct dpillar_hdr) != 20);
	BUILD_BUG_ON(sizeof(struct dpillar_hdr) % 4);
	BUILD_BUG_ON(sizeof(struct dpillar_hello) != 8);
	BUILD_BUG_ON(sizeof(struct dpillar_tlv) != 4);
	BUILD_BUG_ON(DPILLAR_NODE_NONE != DP_NODE_NONE);
	BUILD_BUG_ON(DPILLAR_PORTS_MAX != DP_MAX_PORTS);
	BUILD_BUG_ON(DP_MAX_PORTS > 32);	/* the PORTS_UP TLV is a u32 */

	dp->dev = dev;
	dp_topo_init_none(&dp->topo);
	dp->self = DP_NODE_NONE;
	dp->rmemo_gen = 1;
	/* dp_settings_default()'s, from the start: the tests' devices too. */
	dp->fallback = true;
	dp_view_init(dp);
	INIT_DELAYED_WORK(&dp->hello_work, dp_hello_work);
	dp_probe_init(dp);
	dp_pathsel_init(dp);
	dp_sc_init(dp);
	dp_coords_init(dp);
	dev->netdev_ops = &dp_netdev_ops;
	dev->ethtool_ops = &dp_ethtool_ops;
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
	/*
	 * No netpoll (netconsole) on dp0: its transmit can come in a hard
	 * interrupt or with IRQs off, where path selection's and the
	 * shortcuts' BH spinlocks would deadlock against a softirq of this
	 * CPU and local_bh_enable() WARNs.  Netconsole on a port works.
	 */
	dev->priv_flags |= IFF_DISABLE_NETPOLL;
	/*
	 * Super-packets and checksums left to the hardware go through whole:
	 * a relay forwards one skb instead of forty, and the port segments
	 * and checksums only where its NIC cannot (gso.c).
	 */
	dev->features |= DP_DEV_OFFLOADS;
	dev->hw_features |= DP_DEV_OFFLOADS;
	/*
	 * dp0 carries IP with no link-layer header: a VLAN device on it would
	 * put a tag where nothing reads one (the ports' VLANs are theirs).
	 */
	dev->features |= NETIF_F_VLAN_CHALLENGED;
	dp_compat_set_lltx(dev);
	/* The ports cannot follow the device into another namespace. */
	dp_compat_set_netns_immutable(dev);
}
