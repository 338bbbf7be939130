// SPDX-License-Identifier: GPL-2.0
/*
 * The dpillar device (dp0): the host's layer-3 interface to the fabric, and
 * the "dpillar" rtnetlink link type that creates it.
 */

#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/if_arp.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/ipv6.h>
#include <net/rtnetlink.h>

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
	dp_psel_start(dp);
	return 0;
}

static int dp_stop(struct net_device *dev)
{
	struct dp_priv *dp = netdev_priv(dev);

	cancel_delayed_work_sync(&dp->hello_work);
	dp_psel_stop(dp);
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
	dp_psel_stop(dp);
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

static void dp_setup(struct net_device *dev)
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
	dp_psel_init(dp);
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

static const struct nla_policy dp_port_policy[IFLA_DPILLAR_PORT_MAX + 1] = {
	[IFLA_DPILLAR_PORT]	= { .type = NLA_U32 },
};

static const struct nla_policy dp_policy[IFLA_DPILLAR_MAX + 1] = {
	[IFLA_DPILLAR_TOPO]	= NLA_POLICY_RANGE(NLA_U32, DPILLAR_TOPO_DPILLAR,
						   DPILLAR_TOPO_MAX),
	[IFLA_DPILLAR_N]	= { .type = NLA_U32 },
	[IFLA_DPILLAR_K]	= { .type = NLA_U32 },
	[IFLA_DPILLAR_LEVEL]	= { .type = NLA_U32 },
	[IFLA_DPILLAR_COLUMN]	= { .type = NLA_U32 },
	[IFLA_DPILLAR_LABEL]	= { .type = NLA_BINARY,
				    .len = DPILLAR_LABEL_MAX },
	[IFLA_DPILLAR_PORTS]	= NLA_POLICY_NESTED(dp_port_policy),
	[IFLA_DPILLAR_NODE_ID]	= { .type = NLA_REJECT,
				    .reject_message = "Node id is read-only" },
	/* Read-only but for S2, where it is a parameter (dp_parse_topo()). */
	[IFLA_DPILLAR_NODES]	= { .type = NLA_U32 },
	[IFLA_DPILLAR_SPACES]	= NLA_POLICY_RANGE(NLA_U32, 1, 8),
	[IFLA_DPILLAR_SEED]	= { .type = NLA_U32 },
	[IFLA_DPILLAR_HELLO_MS]	= NLA_POLICY_RANGE(NLA_U32, DPILLAR_HELLO_MS_MIN,
						   DPILLAR_HELLO_MS_MAX),
	[IFLA_DPILLAR_DEAD_MS]	= NLA_POLICY_RANGE(NLA_U32,
						   DPILLAR_HELLO_MS_MIN + 1,
						   DPILLAR_DEAD_MS_MAX),
	[IFLA_DPILLAR_IP4_PREFIX] = { .type = NLA_BE32 },
	[IFLA_DPILLAR_IP4_PREFIXLEN] = NLA_POLICY_MAX(NLA_U8, 31),
	[IFLA_DPILLAR_IP6_PREFIX] = NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[IFLA_DPILLAR_ADDR]	= { .type = NLA_NUL_STRING,
				    .len = DP_ADDR_TEXT_MAX - 1 },
	/* The topology's modes: checked against it in dp_settings_parse(). */
	[IFLA_DPILLAR_MODE]	= NLA_POLICY_MAX(NLA_U32, DPILLAR_MODE_MAX),
	[IFLA_DPILLAR_KEY6_PREFIX] =
		NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	/* Whole u32s, one per space: checked in dp_parse_coords(). */
	[IFLA_DPILLAR_COORDS]	= NLA_POLICY_RANGE(NLA_BINARY, sizeof(u32),
						   DP_COORDS_MAX * sizeof(u32)),
	[IFLA_DPILLAR_FALLBACK]	= NLA_POLICY_MAX(NLA_U8, 1),
};

static int dp_require(struct nlattr *data[], int type, const char *msg,
		      struct netlink_ext_ack *extack)
{
	if (data[type])
		return 0;
	dp_extack(extack, NULL, msg);
	return -EINVAL;
}

static u32 dp_get_u32_or0(struct nlattr *data[], int type)
{
	return data[type] ? nla_get_u32(data[type]) : 0;
}

/*
 * Our address: the text of IFLA_DPILLAR_ADDR (any topology), or column
 * and label (topologies that have that form); exactly one of the two.
 */
static int dp_parse_addr(struct nlattr *data[], const struct dp_topo *topo,
			 u32 *self, struct netlink_ext_ack *extack)
{
	struct nlattr *addr = data[IFLA_DPILLAR_ADDR];
	const char *why = NULL;
	int err;

	if (addr && (data[IFLA_DPILLAR_COLUMN] || data[IFLA_DPILLAR_LABEL])) {
		NL_SET_ERR_MSG_ATTR(extack, addr,
				    "Give the address as text or as column and label, not both");
		return -EINVAL;
	}
	if (!addr && !data[IFLA_DPILLAR_COLUMN] && !data[IFLA_DPILLAR_LABEL]) {
		NL_SET_ERR_MSG(extack, "Missing address");
		return -EINVAL;
	}
	if (addr) {
		err = dp_addr_parse(topo, nla_data(addr), self, &why);
		if (err)
			dp_extack(extack, addr, why);
		return err;
	}
	err = dp_require(data, IFLA_DPILLAR_COLUMN, "Missing column", extack) ?:
	      dp_require(data, IFLA_DPILLAR_LABEL, "Missing label", extack);
	if (err)
		return err;
	err = dp_addr_from_label(topo, nla_get_u32(data[IFLA_DPILLAR_COLUMN]),
				 nla_data(data[IFLA_DPILLAR_LABEL]),
				 nla_len(data[IFLA_DPILLAR_LABEL]), self, &why);
	if (err)
		dp_extack(extack, data[IFLA_DPILLAR_LABEL], why);
	return err;
}

/*
 * Plan mode: the node's own coordinates (DP_PARAM_COORDS), a native-endian
 * u32 per space (their length is bounded by the policy).  Their count is
 * checked against the spaces here when spaces are given (without them
 * the topology says "Missing spaces").
 */
static int dp_parse_coords(const struct nlattr *attr,
			   struct dp_topo_params *prm,
			   struct netlink_ext_ack *extack)
{
	u32 len;

	len = nla_len(attr);
	if (len % sizeof(u32) || len > sizeof(prm->coords)) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "coords must be whole u32s (a multiple of 4 bytes)");
		return -EINVAL;
	}
	prm->ncoords = len / sizeof(u32);
	if (prm->spaces && prm->ncoords != prm->spaces) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "coords must give one coordinate per space");
		return -EINVAL;
	}
	memcpy(prm->coords, nla_data(attr), len);
	return 0;
}

/*
 * The parameters every topology lists (struct dp_topo_ops.params), read
 * into @prm in the order of the registry and of their tables.  One that
 * the topology of @prm lacks is an error where its owner says so
 * (dp_topo_param.only), else it is read and the topology's init rejects
 * it.
 */
static int dp_parse_params(struct nlattr *data[], struct dp_topo_params *prm,
			   struct netlink_ext_ack *extack)
{
	const struct dp_topo_ops *mine = dp_topo_ops_by_kind(prm->kind);
	const struct dp_topo_param *q;
	u32 kind = 0, i = 0;
	int err;

	while ((q = dp_topo_param_next(&kind, &i))) {
		if (!data[q->ifla])
			continue;
		if (q->only && !(mine && dp_topo_param_by_ifla(mine, q->ifla))) {
			dp_extack(extack, data[q->ifla], q->only);
			return -EINVAL;
		}
		if (!(q->flags & DP_PARAM_COORDS)) {
			dp_topo_param_set_u32(prm, q, nla_get_u32(data[q->ifla]));
			continue;
		}
		/* Read once, though two topologies may list it. */
		if (prm->ncoords)
			continue;
		err = dp_parse_coords(data[q->ifla], prm, extack);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Checks that need no device: the topology parameters and our address.
 * Fills @topo and @self for the caller.
 */
static int dp_parse_topo(struct nlattr *data[], struct dp_topo *topo,
			 u32 *self, struct netlink_ext_ack *extack)
{
	struct dp_topo_params prm = {};
	const char *why = NULL;
	int err;

	if (!data) {
		NL_SET_ERR_MSG(extack, "Missing dpillar parameters");
		return -EINVAL;
	}
	prm.kind = dp_get_u32_or0(data, IFLA_DPILLAR_TOPO) ?:
		   DPILLAR_TOPO_DPILLAR;
	err = dp_parse_params(data, &prm, extack);
	if (err)
		return err;
	/* The topology names what is missing ("Missing n"). */
	err = dp_topo_init(topo, &prm, &why);
	if (err) {
		dp_extack(extack, NULL, why);
		return err;
	}
	return dp_parse_addr(data, topo, self, extack);
}

/*
 * Whether a request gives a topology: any of its parameters, an address
 * or (@ports: newlink's view) a port list.  Without one, newlink creates
 * an unconfigured device; changelink attaches the NICs a port list gives.
 */
static bool dp_has_topo(struct nlattr *data[], bool ports)
{
	static const int topo_attrs[] = {
		IFLA_DPILLAR_TOPO, IFLA_DPILLAR_COLUMN, IFLA_DPILLAR_LABEL,
		IFLA_DPILLAR_ADDR,
	};
	const struct dp_topo_param *q;
	u32 i, kind = 0;

	if (!data)
		return false;
	if (ports && data[IFLA_DPILLAR_PORTS])
		return true;
	for (i = 0; i < ARRAY_SIZE(topo_attrs); i++)
		if (data[topo_attrs[i]])
			return true;
	i = 0;
	while ((q = dp_topo_param_next(&kind, &i)))
		if (data[q->ifla])
			return true;
	return false;
}

/* The settings that may change while the device runs. */
struct dp_settings {
	u32 hello_ms, dead_ms, mode;
	bool fallback;
	struct dp_prefix prefix;	/* rcu unused: a copy */
};

static void dp_settings_get(const struct dp_priv *dp, struct dp_settings *s)
{
	s->hello_ms = READ_ONCE(dp->hello_ms);
	s->dead_ms = READ_ONCE(dp->dead_ms);
	s->mode = READ_ONCE(dp->mode);
	s->fallback = READ_ONCE(dp->fallback);
	rcu_read_lock();
	s->prefix = *dp_prefix(dp);
	rcu_read_unlock();
}

static void dp_settings_default(struct dp_settings *s)
{
	static const struct in6_addr ip6 = {
		.s6_addr = { 0xfd, 0x64, 0x70, 0x69, 0x6c, 0x6c, 0x61, 0x72 },
	};

	memset(s, 0, sizeof(*s));
	s->hello_ms = DP_HELLO_MS_DEFAULT;
	s->dead_ms = DP_DEAD_MS_DEFAULT;
	s->fallback = true;
	s->prefix.ip4 = htonl(0x0a000000);	/* 10.0.0.0/8 */
	s->prefix.ip4_plen = 8;
	s->prefix.ip6 = ip6;
}

/* The changeable settings among the IFLA_DPILLAR_* attributes. */
static void dp_settings_attrs_ifla(struct nlattr *data[],
				   struct dp_settings_attrs *a)
{
	a->hello_ms = data[IFLA_DPILLAR_HELLO_MS];
	a->dead_ms = data[IFLA_DPILLAR_DEAD_MS];
	a->ip4_prefix = data[IFLA_DPILLAR_IP4_PREFIX];
	a->ip4_plen = data[IFLA_DPILLAR_IP4_PREFIXLEN];
	a->ip6_prefix = data[IFLA_DPILLAR_IP6_PREFIX];
	a->mode = data[IFLA_DPILLAR_MODE];
	a->key6_prefix = data[IFLA_DPILLAR_KEY6_PREFIX];
	a->fallback = data[IFLA_DPILLAR_FALLBACK];
}

/*
 * Merge @a into @s and check the result as a whole.  The attributes are
 * already checked one by one by the policy (rtnetlink or genetlink, with
 * the same bounds).
 */
static int dp_settings_parse(const struct dp_settings_attrs *a,
			     const struct dp_topo *topo, struct dp_settings *s,
			     struct netlink_ext_ack *extack)
{
	u32 mask;

	if (a->mode) {
		s->mode = nla_get_u32(a->mode);
		if (s->mode >= dp_sel_count(topo)) {
			NL_SET_ERR_MSG_ATTR(extack, a->mode,
					    "No such routing mode in this topology");
			return -EINVAL;
		}
	}

	/*
	 * The discovery fallback is taken in any mode and topology, and is
	 * in force only where dp_sc_fallback() says (the default mode of a
	 * topology without a discovery of its own).  Refusing it in a
	 * paper mode or on S2 would make the order of two independent
	 * settings matter, and lose an operator's "off" on the way through
	 * a paper mode or another topology.  The policy bounds it to 0..1.
	 */
	if (a->fallback)
		s->fallback = nla_get_u8(a->fallback);

	if (a->hello_ms)
		s->hello_ms = nla_get_u32(a->hello_ms);
	if (a->dead_ms)
		s->dead_ms = nla_get_u32(a->dead_ms);
	if (a->ip4_prefix)
		s->prefix.ip4 = nla_get_be32(a->ip4_prefix);
	if (a->ip4_plen)
		s->prefix.ip4_plen = nla_get_u8(a->ip4_plen);
	if (a->ip6_prefix)
		nla_memcpy(&s->prefix.ip6, a->ip6_prefix,
			   sizeof(s->prefix.ip6));
	if (a->key6_prefix)
		nla_memcpy(&s->prefix.key6, a->key6_prefix,
			   sizeof(s->prefix.key6));

	if (s->dead_ms <= s->hello_ms) {
		NL_SET_ERR_MSG_ATTR(extack, a->dead_ms ?: a->hello_ms,
				    "Dead interval must be longer than the Hello interval");
		return -EINVAL;
	}
	mask = s->prefix.ip4_plen ? ~0U << (32 - s->prefix.ip4_plen) : 0;
	if (ntohl(s->prefix.ip4) & ~mask) {
		NL_SET_ERR_MSG_ATTR(extack, a->ip4_prefix ?: a->ip4_plen,
				    "IPv4 prefix has host bits set");
		return -EINVAL;
	}
	if (s->prefix.ip6.s6_addr32[3]) {
		NL_SET_ERR_MSG_ATTR(extack, a->ip6_prefix,
				    "IPv6 prefix is a /96: its low 32 bits must be zero");
		return -EINVAL;
	}
	/*
	 * Key addresses (fwd.c): a /96 whose low 32 bits are a key id, for
	 * topologies with key-based routing; :: turns it off.
	 */
	if (a->key6_prefix && !ipv6_addr_any(&s->prefix.key6) &&
	    !dp_topo_has_keys(topo)) {
		NL_SET_ERR_MSG_ATTR(extack, a->key6_prefix,
				    "This topology has no key-based routing");
		return -EINVAL;
	}
	if (s->prefix.key6.s6_addr32[3]) {
		NL_SET_ERR_MSG_ATTR(extack, a->key6_prefix,
				    "Key prefix is a /96: its low 32 bits must be zero");
		return -EINVAL;
	}
	if (!ipv6_addr_any(&s->prefix.key6) &&
	    !memcmp(&s->prefix.key6, &s->prefix.ip6, 12)) {
		NL_SET_ERR_MSG_ATTR(extack, a->key6_prefix ?: a->ip6_prefix,
				    "Key prefix must differ from the node prefix");
		return -EINVAL;
	}
	return 0;
}

/* Under RTNL; fails only to allocate, and then changes nothing. */
static int dp_settings_apply(struct dp_priv *dp, const struct dp_settings *s)
{
	struct dp_prefix *p, *old;

	p = kmemdup(&s->prefix, sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	old = rcu_replace_pointer(dp->prefix, p, lockdep_rtnl_is_held());
	if (old)
		kfree_rcu(old, rcu);

	WRITE_ONCE(dp->hello_ms, s->hello_ms);
	WRITE_ONCE(dp->dead_ms, s->dead_ms);
	WRITE_ONCE(dp->dead_jiffies, msecs_to_jiffies(s->dead_ms));
	WRITE_ONCE(dp->mode, s->mode);
	/*
	 * Off while traffic flows: the next frame the topology gives up on
	 * is dropped, and SHORTCUT_DATA from a neighbour still using a
	 * shortcut through us is a type we no longer take (fwd.c).  The
	 * shortcuts already learned stay until they idle out, unused.
	 */
	WRITE_ONCE(dp->fallback, s->fallback);
	return 0;
}

/*
 * Change the settings of a running device: changelink and the genetlink
 * DEV_SET, both under RTNL, which orders them.  All or nothing.
 */
int dp_settings_change(struct dp_priv *dp, const struct dp_settings_attrs *a,
		       struct netlink_ext_ack *extack)
{
	struct dp_settings set;
	int err;

	dp_settings_get(dp, &set);
	err = dp_settings_parse(a, &dp->topo, &set, extack);
	if (err)
		return err;
	return dp_settings_apply(dp, &set);
}

/* Up to DP_TOPO_DRAIN_MS for the genetlink readers of the topology. */
#define DP_TOPO_DRAIN_MS	200

static void dp_topo_drain(struct dp_priv *dp)
{
	unsigned long end = jiffies + msecs_to_jiffies(DP_TOPO_DRAIN_MS);

	while (atomic_read(&dp->topo_users) && time_before(jiffies, end))
		usleep_range(500, 1000);
}

/*
 * Give @dp a topology and an address ("dpctl set", genetlink DEV_SET, and
 * changelink): @data holds them as IFLA_DPILLAR_* attributes (DEV_SET maps
 * its own onto them), @a the settings that come along.  All or nothing
 * but for the NICs, which are bound again.  Under RTNL.
 *
 * Only while the device is down (as bonding changes its mode): no packet
 * is sent, no Hello timer or path selection runs, and the receive path
 * only sees ports that are released first.  The NICs stay attached to
 * the same port numbers; their neighbour tables are sized by the topology,
 * so each is released and bound again.  A NIC on a port the new topology
 * does not have must be released (nomaster) first.
 */
int dp_topo_change(struct dp_priv *dp, struct nlattr *data[],
		   const struct dp_settings_attrs *a,
		   struct netlink_ext_ack *extack)
{
	struct net_device *lower[DPILLAR_PORTS_MAX] = {};
	struct dp_settings set;
	struct dp_topo *topo;
	char desc[64];
	u32 self, i;
	int err;

	ASSERT_RTNL();
	if (netif_running(dp->dev)) {
		NL_SET_ERR_MSG(extack,
			       "Device must be down to change its topology or address");
		return -EBUSY;
	}
	if (data[IFLA_DPILLAR_PORTS]) {
		NL_SET_ERR_MSG_ATTR(extack, data[IFLA_DPILLAR_PORTS],
				    "Ports are attached by a request of their own, not with a change of topology");
		return -EOPNOTSUPP;
	}
	topo = kmalloc(sizeof(*topo), GFP_KERNEL);
	if (!topo)
		return -ENOMEM;
	err = dp_parse_topo(data, topo, &self, extack);
	if (err)
		goto out;
	dp_settings_get(dp, &set);
	/* Mode numbers are the topology's own: the default, unless given. */
	if (topo->kind != dp->topo.kind)
		set.mode = 0;
	err = dp_settings_parse(a, topo, &set, extack);
	if (err)
		goto out;
	for (i = topo->nports; i < dp->nports; i++) {
		if (rtnl_dereference(dp->ports[i])) {
			NL_SET_ERR_MSG(extack,
				       "A NIC is attached to a port the new topology does not have: release it first (nomaster)");
			err = -EBUSY;
			goto out;
		}
	}

	WRITE_ONCE(dp->topo_changing, true);
	/* Our flag before their count: pairs with dp_topo_hold(). */
	smp_mb();
	/*
	 * No reader gets in from here on; those in finish.  A dump's step
	 * holds the topology for one message, so dumps run in a loop (any
	 * user may) no longer keep a change out; only a route trace,
	 * which waits for its probes (DP_PROBE_REQ_MS at most), may
	 * outlast the wait, bounded so that RTNL is not held for long.
	 */
	dp_topo_drain(dp);
	if (atomic_read(&dp->topo_users)) {
		NL_SET_ERR_MSG(extack,
			       "A genetlink request (route trace?) is using the topology: try again");
		err = -EBUSY;
		goto out_done;
	}
	err = dp_settings_apply(dp, &set);
	if (err)
		goto out_done;

	for (i = 0; i < dp->nports; i++) {
		struct dp_port *port = rtnl_dereference(dp->ports[i]);

		if (port) {
			lower[i] = port->dev;
			dp_port_del(port);
		}
	}
	/* No receive path or genetlink reader sees the old topology now. */
	synchronize_net();
	/*
	 * So its tables go with it, and the new one gets its own before any
	 * reader can see it (the receive path from the first port added
	 * below, genetlink once topo_changing is clear, RTNL's after us):
	 * readers never see t->alloc change.  Without memory it routes as
	 * well, deriving what the tables hold.  The copy carries the
	 * pointer; kfree(topo) below frees only the struct.
	 */
	dp_topo_free(&dp->topo);
	dp_topo_alloc(topo);
	dp->topo = *topo;
	dp->self = self;
	dp->nports = topo->nports;
	dp_rmemo_flush(dp);
	for (i = 0; i < DPILLAR_PORTS_MAX; i++) {
		int ret;

		if (!lower[i])
			continue;
		ret = dp_port_add(dp, lower[i], i, extack);
		if (ret) {
			/* Only allocation fails here: the port is absent. */
			err = err ?: ret;
			dp_port_ntf(dp, i, lower[i],
				    DPILLAR_PORT_STATE_ABSENT);
		}
	}
	dp_update_mtu(dp);
	dp_update_carrier(dp);
	dp_topo_describe(&dp->topo, desc, sizeof(desc));
	netdev_info(dp->dev, "topology %s, node %u\n", desc, dp->self);
out_done:
	/* Release: a reader that sees the flag clear sees the new topology. */
	smp_store_release(&dp->topo_changing, false);
out:
	kfree(topo);
	return err;
}

static int dp_validate(struct nlattr *tb[], struct nlattr *data[],
		       struct netlink_ext_ack *extack)
{
	if (tb[IFLA_ADDRESS]) {
		NL_SET_ERR_MSG(extack, "A dpillar device has no link address");
		return -EINVAL;
	}
	return 0;
}

/*
 * Resolve the nested port list to devices, in port order, @attr[i] the
 * entry of port i: ifindex 0 is a port without a NIC (yet), @lower[i]
 * NULL.  newlink (@exact) gives an entry for each of the topology's
 * @want ports; changelink up to that many, the ports after its list left
 * as they are.
 */
static int dp_parse_ports(struct net *net, u32 want, bool exact,
			  struct nlattr *nest, struct net_device **lower,
			  struct nlattr **attr, struct netlink_ext_ack *extack)
{
	struct nlattr *a;
	u32 n = 0, i;
	int rem;

	nla_for_each_nested(a, nest, rem) {
		u32 ifindex;

		if (nla_type(a) != IFLA_DPILLAR_PORT) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "Unknown attribute in port list");
			return -EINVAL;
		}
		if (n == want) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "Too many ports for this topology");
			return -EINVAL;
		}
		attr[n] = a;
		ifindex = nla_get_u32(a);
		lower[n] = NULL;
		if (!ifindex) {
			n++;
			continue;
		}
		lower[n] = __dev_get_by_index(net, ifindex);
		if (!lower[n]) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "Port device does not exist");
			return -ENODEV;
		}
		for (i = 0; i < n; i++) {
			if (lower[i] == lower[n]) {
				NL_SET_ERR_MSG_ATTR(extack, a,
						    "Ports must be distinct devices");
				return -EINVAL;
			}
		}
		n++;
	}
	if (exact && n != want) {
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
	struct nlattr *attr[DPILLAR_PORTS_MAX];
	struct dp_priv *dp = netdev_priv(dev);
	struct dp_settings_attrs attrs;
	struct dp_settings set;
	u32 i;
	int err;

	/*
	 * "ip link add dp0 type dpillar": no topology, an unconfigured
	 * device (topology "none", dpillar.rst) that dpctl set configures.
	 */
	if (!dp_has_topo(data, true)) {
		dp_topo_init_none(&dp->topo);
		dp->self = DP_NODE_NONE;
	} else {
		err = dp_parse_topo(data, &dp->topo, &dp->self, extack) ?:
		      dp_require(data, IFLA_DPILLAR_PORTS, "Missing ports",
				 extack);
		if (err)
			return err;
	}
	dp_settings_default(&set);
	memset(&attrs, 0, sizeof(attrs));
	if (data)
		dp_settings_attrs_ifla(data, &attrs);
	err = dp_settings_parse(&attrs, &dp->topo, &set, extack);
	if (err)
		return err;
	/*
	 * Ports are named by ifindex in the namespace the request came from,
	 * and must live where the device lives: a port elsewhere could be
	 * moved or deleted behind our back without us being able to follow.
	 */
	if (dp_configured(dp) && !net_eq(src_net, dev_net(dev))) {
		NL_SET_ERR_MSG(extack,
			       "Device must be created in its ports' network namespace");
		return -EINVAL;
	}
	memset(lower, 0, sizeof(lower));
	if (dp_configured(dp)) {
		err = dp_parse_ports(src_net, dp->topo.nports, true,
				     data[IFLA_DPILLAR_PORTS], lower, attr,
				     extack);
		if (err)
			return err;
	}
	dp->nports = dp->topo.nports;
	err = dp_settings_apply(dp, &set);
	if (err)
		return err;

	/*
	 * register_netdevice() can fail before ndo_init (an invalid name such
	 * as "dp:0" or "a%d%d"), in ndo_init, or after it; only the last runs
	 * the destructor, which clears the pointer it frees.  Whatever is
	 * left is ours: the device was never visible, so no reader is either.
	 */
	/*
	 * The topology's tables (dp_topo_alloc()), before the device is
	 * visible: no reader sees t->alloc change.  dp_dev_free() frees
	 * them, and the failure below what the destructor did not.
	 */
	dp_topo_alloc(&dp->topo);
	err = register_netdevice(dev);
	if (err) {
		kfree(rcu_replace_pointer(dp->prefix, NULL, true));
		dp_topo_free(&dp->topo);
		return err;
	}

	/*
	 * A port whose NIC is not there (yet) is absent, as one whose NIC
	 * went away: "ip link set NIC master DEV" or changelink's port
	 * list attaches it later.  Every port may be: the device, its
	 * address and routes are in place before the first NIC comes.
	 */
	for (i = 0; i < dp->nports; i++) {
		if (!lower[i])
			continue;
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

static int dp_changelink(struct net_device *dev, struct nlattr *tb[],
			 struct nlattr *data[],
			 struct netlink_ext_ack *extack)
{
	struct net_device *lower[DPILLAR_PORTS_MAX] = {};
	struct nlattr *attr[DPILLAR_PORTS_MAX] = {};
	struct dp_priv *dp = netdev_priv(dev);
	struct dp_settings_attrs attrs;
	struct dp_settings set;
	int err;

	if (!data)
		return 0;
	dp_settings_attrs_ifla(data, &attrs);
	/* A topology or an address: what dpctl set does through DEV_SET. */
	if (dp_has_topo(data, false))
		return dp_topo_change(dp, data, &attrs, extack);
	if (!data[IFLA_DPILLAR_PORTS])
		return dp_settings_change(dp, &attrs, extack);

	/*
	 * NICs for ports that have none (dpctl up -W, as each NIC comes):
	 * entry i, an ifindex, attaches that NIC to port i; 0 leaves the
	 * port as it is.  Everything is checked before anything changes;
	 * only memory can then fail the settings (dp_settings_apply()),
	 * before the ports, or a port, whose attach is undone whole.
	 */
	dp_settings_get(dp, &set);
	err = dp_settings_parse(&attrs, &dp->topo, &set, extack) ?:
	      dp_parse_ports(dev_net(dev), dp->nports, false,
			     data[IFLA_DPILLAR_PORTS], lower, attr, extack) ?:
	      dp_ports_check(dp, lower, attr, extack) ?:
	      dp_settings_apply(dp, &set);
	if (err)
		return err;
	return dp_ports_attach(dp, lower, extack);
}

static size_t dp_get_size(const struct net_device *dev)
{
	const struct dp_priv *dp = netdev_priv(dev);

	return nla_total_size(sizeof(u32)) * 13 +	/* u32 attributes */
	       nla_total_size(sizeof(u8)) * 2 +		/* IP4_PREFIXLEN, FALLBACK */
	       nla_total_size(sizeof(struct in6_addr)) * 2 + /* IP6, KEY6 */
	       nla_total_size(DPILLAR_LABEL_MAX) +	/* LABEL */
	       nla_total_size(sizeof(dp->topo.p.coords)) + /* COORDS */
	       nla_total_size(DP_ADDR_TEXT_MAX) +	/* ADDR */
	       nla_total_size(0) +			/* PORTS */
	       nla_total_size(sizeof(u32)) * dp->nports;
}

/*
 * The topology's parameters (struct dp_topo_ops.params), as rtnetlink
 * (@genl false) or the genl family shows them: the one walk both fills
 * share, so that no fill names a topology.
 */
int dp_topo_put_params(struct sk_buff *skb, const struct dp_topo *t,
		       bool genl)
{
	const struct dp_topo_param *prm;
	u32 i, v;

	for (i = 0; i < t->ops->nparams; i++) {
		prm = &t->ops->params[i];
		if (prm->flags & DP_PARAM_HIDDEN)
			continue;
		if (prm->flags & DP_PARAM_COORDS) {
			if (t->p.ncoords &&
			    nla_put(skb, genl ? prm->genl : prm->ifla,
				    t->p.ncoords * sizeof(u32), t->p.coords))
				return -EMSGSIZE;
			continue;
		}
		v = dp_topo_param_u32(&t->p, prm);
		if ((v || (prm->flags & DP_PARAM_ZERO)) &&
		    nla_put_u32(skb, genl ? prm->genl : prm->ifla, v))
			return -EMSGSIZE;
	}
	return 0;
}

static int dp_fill_info(struct sk_buff *skb, const struct net_device *dev)
{
	const struct dp_priv *dp = netdev_priv(dev);
	u32 column, nsym = DPILLAR_LABEL_MAX, i;
	char addr[DP_ADDR_TEXT_MAX];
	u8 sym[DPILLAR_LABEL_MAX];
	struct dp_settings set;
	struct nlattr *nest;

	dp_settings_get(dp, &set);
	dp_addr_format(&dp->topo, dp->self, addr, sizeof(addr));
	if (nla_put_u32(skb, IFLA_DPILLAR_TOPO, dp->topo.kind) ||
	    dp_topo_put_params(skb, &dp->topo, false) ||
	    nla_put_string(skb, IFLA_DPILLAR_ADDR, addr))
		return -EMSGSIZE;
	/* Column and label, for the topologies that have that form. */
	if (!dp_addr_to_label(&dp->topo, dp->self, &column, sym, &nsym) &&
	    (nla_put_u32(skb, IFLA_DPILLAR_COLUMN, column) ||
	     nla_put(skb, IFLA_DPILLAR_LABEL, nsym, sym)))
		return -EMSGSIZE;
	if (nla_put_u32(skb, IFLA_DPILLAR_NODE_ID, dp->self) ||
	    nla_put_u32(skb, IFLA_DPILLAR_NODES, dp->topo.nodes) ||
	    nla_put_u32(skb, IFLA_DPILLAR_HELLO_MS, set.hello_ms) ||
	    nla_put_u32(skb, IFLA_DPILLAR_DEAD_MS, set.dead_ms) ||
	    nla_put_be32(skb, IFLA_DPILLAR_IP4_PREFIX, set.prefix.ip4) ||
	    nla_put_u8(skb, IFLA_DPILLAR_IP4_PREFIXLEN, set.prefix.ip4_plen) ||
	    nla_put(skb, IFLA_DPILLAR_IP6_PREFIX, sizeof(set.prefix.ip6),
		    &set.prefix.ip6) ||
	    nla_put_u32(skb, IFLA_DPILLAR_MODE, set.mode) ||
	    nla_put_u8(skb, IFLA_DPILLAR_FALLBACK, set.fallback) ||
	    (!ipv6_addr_any(&set.prefix.key6) &&
	     nla_put(skb, IFLA_DPILLAR_KEY6_PREFIX, sizeof(set.prefix.key6),
		     &set.prefix.key6)))
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

static size_t dp_get_slave_size(const struct net_device *dev,
				const struct net_device *slave_dev)
{
	return nla_total_size(sizeof(u32)) * 4;	/* PORT .. REACHABLE */
}

/*
 * A port's number and state, as the port's own link message shows them
 * (under RTNL or rcu_read_lock, as dp_port_snapshot() wants).  The port is
 * found in our table, not through the NIC's rx_handler_data: a NIC is
 * linked to us a moment before its receive path is ours.
 */
static int dp_fill_slave_info(struct sk_buff *skb,
			      const struct net_device *dev,
			      const struct net_device *slave_dev)
{
	const struct dp_priv *dp = netdev_priv(dev);
	const struct dp_port *port;
	struct dp_port_info pi;
	struct dp_port_snap snap;
	u32 i;

	for (i = 0; i < dp->nports; i++) {
		port = rcu_dereference_rtnl(dp->ports[i]);
		if (port && port->dev == slave_dev)
			break;
	}
	if (i == dp->nports)
		return 0;
	dp_port_snapshot(dp, i, &snap);
	dp_port_info(&dp->topo, dp->self, i, &pi);
	if (nla_put_u32(skb, IFLA_DPILLAR_SLAVE_PORT, i) ||
	    nla_put_u32(skb, IFLA_DPILLAR_SLAVE_STATE, snap.state) ||
	    nla_put_u32(skb, IFLA_DPILLAR_SLAVE_NEIGHS, pi.nneigh) ||
	    nla_put_u32(skb, IFLA_DPILLAR_SLAVE_REACHABLE, snap.reachable))
		return -EMSGSIZE;
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
	.changelink	= dp_changelink,
	.get_size	= dp_get_size,
	.fill_info	= dp_fill_info,
	.get_slave_size	= dp_get_slave_size,
	.fill_slave_info = dp_fill_slave_info,
};
EXPORT_SYMBOL_IF_KUNIT(dp_link_ops);
