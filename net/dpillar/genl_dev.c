// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "dpillar": devices.  DEV_GET with the ports and
 * the counters, DEV_SET of the Hello timers and the prefixes, and PORT_NTF.
 */

#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/ipv6.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "genl.h"
#include "settings.h"

/*
 * Counters as DPILLAR_A_STATS_* attributes: ethtool -S order.  The
 * detour slots and the routing drop reasons are the topology's; the UAPI
 * names them as DPillar's (see dpillar_types.h).
 */
static inline int dp_genl_stats_cnt(int stat)
{
	if (stat <= DP_STAT_DETOUR3)
		return stat + DPILLAR_A_STATS_RX_FRAMES;
	if (stat <= DP_STAT_DETOUR5)
		return stat - DP_STAT_DETOUR4 + DPILLAR_A_STATS_ROUTE_DETOURS;
	return stat - DP_STAT_DROP_VLAN + DPILLAR_A_STATS_DROP_VLAN;
}

/*
 * Routing drop reasons 1 .. DP_GENL_STATS_RUN1 have the UAPI's first run
 * of counters (BAD_ADDR .. NOPATH), the next one a counter that came
 * later (DROP_DETOURS).  That is how DPillar numbers its reasons, which
 * topo_dpillar.c checks; the other topologies' count in the same slots.
 */
#define DP_GENL_STATS_RUN1	(DPILLAR_A_STATS_ROUTE_DROP_NOPATH -	\
				 DPILLAR_A_STATS_ROUTE_DROP_BAD_ADDR +	\
				 DP_DROP_ROUTE_BAD_ADDR)

static inline int dp_genl_stats_route(int reason)
{
	if (reason <= DP_GENL_STATS_RUN1)
		return reason - DP_DROP_ROUTE_BAD_ADDR +
		       DPILLAR_A_STATS_ROUTE_DROP_BAD_ADDR;
	return reason - DP_GENL_STATS_RUN1 - 1 +
	       DPILLAR_A_STATS_ROUTE_DROP_DETOURS;
}

/* Routing drop reasons the STATS nest has room for (with reason 0). */
#define DP_GENL_STATS_ROUTES	(DP_GENL_STATS_RUN1 + 2)

/* ---- DEV_GET ------------------------------------------------------------ */

static size_t dp_genl_dev_size(void)
{
	return nla_total_size(sizeof(u32)) * 12 +	/* u32 attributes */
	       nla_total_size(IFNAMSIZ) +		/* IFNAME */
	       nla_total_size(DP_ADDR_TEXT_MAX) +	/* ADDR */
	       nla_total_size(sizeof(__be32)) +		/* IP4_PREFIX */
	       nla_total_size(sizeof(u8)) * 3 +		/* IP4_PREFIXLEN, FALLBACK,
							 * NIC_OFFLOAD
							 */
	       nla_total_size(sizeof(struct in6_addr)) * 2 + /* IP6, KEY6 */
	       nla_total_size(sizeof(u32) * DP_COORDS_MAX) +	/* COORDS */
	       DPILLAR_PORTS_MAX * dp_genl_port_size() +
	       nla_total_size(0) +			/* STATS */
	       nla_total_size_64bit(sizeof(u64)) *
	       (DP_STAT_MAX + DP_GENL_STATS_ROUTES - 1);
}

static int dp_genl_put_stats(struct sk_buff *skb, const struct dp_priv *dp)
{
	u64 cnt[DP_STAT_MAX], route[DP_DROP_MAX], rxb, txb;
	struct nlattr *nest;
	int i;

	/* The UAPI lists the counters in the order of enum dp_stat ... */
	BUILD_BUG_ON(dp_genl_stats_cnt(DP_STAT_RX_FRAMES) !=
		     DPILLAR_A_STATS_RX_FRAMES);
	BUILD_BUG_ON(dp_genl_stats_cnt(DP_STAT_DROP_SHORT) !=
		     DPILLAR_A_STATS_DROP_SHORT);
	BUILD_BUG_ON(dp_genl_stats_cnt(DP_STAT_HELLO_MISWIRED) !=
		     DPILLAR_A_STATS_HELLO_MISWIRED);
	BUILD_BUG_ON(dp_genl_stats_cnt(DP_STAT_TX_NOT_FABRIC) !=
		     DPILLAR_A_STATS_TX_NOT_FABRIC);
	BUILD_BUG_ON(dp_genl_stats_cnt(DP_STAT_DETOUR1) !=
		     DPILLAR_A_STATS_ROUTE_TUNNEL_HOPS);
	BUILD_BUG_ON(dp_genl_stats_cnt(DP_STAT_DETOUR3) !=
		     DPILLAR_A_STATS_ROUTE_RING_REVERSALS);
	/* ... then the routing drops in the order of enum dp_route_drop ... */
	BUILD_BUG_ON(dp_genl_stats_cnt(DP_STAT_DETOUR3) + 1 !=
		     dp_genl_stats_route(DP_DROP_ROUTE_BAD_ADDR));
	BUILD_BUG_ON(dp_genl_stats_route(DP_DROP_ROUTE_AT_DST) !=
		     DPILLAR_A_STATS_ROUTE_DROP_AT_DST);
	BUILD_BUG_ON(dp_genl_stats_route(DP_GENL_STATS_RUN1) !=
		     DPILLAR_A_STATS_ROUTE_DROP_NOPATH);
	/*
	 * ... then what came later: detour slots 4, 5, reason 9, and the
	 * drops and Hello counters of the hardened Hello.
	 */
	BUILD_BUG_ON(dp_genl_stats_cnt(DP_STAT_DETOUR4) !=
		     DPILLAR_A_STATS_ROUTE_DETOURS);
	BUILD_BUG_ON(dp_genl_stats_cnt(DP_STAT_DETOUR5) !=
		     DPILLAR_A_STATS_ROUTE_WAYPOINT_HOPS);
	BUILD_BUG_ON(dp_genl_stats_route(DP_GENL_STATS_ROUTES - 1) !=
		     DPILLAR_A_STATS_ROUTE_DROP_DETOURS);
	BUILD_BUG_ON(dp_genl_stats_cnt(DP_STAT_DROP_VLAN) !=
		     DPILLAR_A_STATS_DROP_VLAN);
	BUILD_BUG_ON(dp_genl_stats_cnt(DP_STAT_MAX - 1) !=
		     DPILLAR_A_STATS_MAX);
	BUILD_BUG_ON(DP_GENL_STATS_ROUTES > DP_DROP_MAX);

	dp_stats_sum(dp, cnt, route, &rxb, &txb);
	nest = nla_nest_start(skb, DPILLAR_A_DEV_STATS);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < DP_STAT_MAX; i++)
		if (nla_put_u64_64bit(skb, dp_genl_stats_cnt(i), cnt[i],
				      DPILLAR_A_STATS_PAD))
			goto cancel;
	/*
	 * Reason 0 is "no drop": not a counter.  A topology with more
	 * reasons than the UAPI has attributes for shows them in ethtool -S
	 * only, until the UAPI grows.
	 */
	for (i = DP_DROP_ROUTE_BAD_ADDR;
	     i < min_t(int, dp->topo.ops->ndrops, DP_GENL_STATS_ROUTES); i++)
		if (nla_put_u64_64bit(skb, dp_genl_stats_route(i), route[i],
				      DPILLAR_A_STATS_PAD))
			goto cancel;
	nla_nest_end(skb, nest);
	return 0;

cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/* Under rcu_read_lock: the ports and the prefixes. */
static int dp_genl_dev_fill(struct sk_buff *skb, const struct dp_priv *dp,
			    u32 portid, u32 seq, int flags,
			    struct netlink_callback *cb)
{
	const struct net_device *dev = dp->dev;
	const struct dp_prefix *prefix;
	void *hdr;
	u32 i;

	hdr = genlmsg_put(skb, portid, seq, &dp_genl_family, flags,
			  DPILLAR_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (cb)
		genl_dump_check_consistent(cb, hdr);

	prefix = dp_prefix(dp);
	if (nla_put_u32(skb, DPILLAR_A_DEV_IFINDEX, dev->ifindex) ||
	    nla_put_string(skb, DPILLAR_A_DEV_IFNAME, dev->name) ||
	    nla_put_u32(skb, DPILLAR_A_DEV_TOPO, dp->topo.kind) ||
	    dp_topo_put_params(skb, &dp->topo, true) ||
	    nla_put_u32(skb, DPILLAR_A_DEV_NODES, dp->topo.nodes) ||
	    nla_put_u32(skb, DPILLAR_A_DEV_NODE_ID, dp->self) ||
	    /* An unconfigured device has TOPO 0 and no address. */
	    (dp_configured(dp) &&
	     dp_genl_put_addr(skb, DPILLAR_A_DEV_ADDR, dp, dp->self)) ||
	    nla_put_u32(skb, DPILLAR_A_DEV_HELLO_MS, READ_ONCE(dp->hello_ms)) ||
	    nla_put_u32(skb, DPILLAR_A_DEV_DEAD_MS, READ_ONCE(dp->dead_ms)) ||
	    nla_put_be32(skb, DPILLAR_A_DEV_IP4_PREFIX, prefix->ip4) ||
	    nla_put_u8(skb, DPILLAR_A_DEV_IP4_PREFIXLEN, prefix->ip4_plen) ||
	    nla_put_in6_addr(skb, DPILLAR_A_DEV_IP6_PREFIX, &prefix->ip6) ||
	    nla_put_u32(skb, DPILLAR_A_DEV_MODE, READ_ONCE(dp->mode)) ||
	    nla_put_u8(skb, DPILLAR_A_DEV_FALLBACK, READ_ONCE(dp->fallback)) ||
	    nla_put_u8(skb, DPILLAR_A_DEV_NIC_OFFLOAD,
		       READ_ONCE(dp->nic_offload)) ||
	    (!ipv6_addr_any(&prefix->key6) &&
	     nla_put_in6_addr(skb, DPILLAR_A_DEV_KEY6_PREFIX, &prefix->key6)))
		goto cancel;

	for (i = 0; i < dp->nports; i++) {
		struct dp_port_snap snap;

		dp_port_snapshot(dp, i, &snap);
		if (dp_genl_put_port(skb, dp, i, &snap))
			goto cancel;
	}
	if (dp_genl_put_stats(skb, dp))
		goto cancel;
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

int dp_genl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	int err;

	msg = genlmsg_new(dp_genl_dev_size(), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	rcu_read_lock();
	err = dp_genl_dev_fill(msg, dp_genl_dp(info), info->snd_portid,
			       info->snd_seq, 0, NULL);
	rcu_read_unlock();
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

int dp_genl_dev_dump_start(struct netlink_callback *cb)
{
	return dp_genl_dump_start_dev(cb, DPILLAR_A_DEV_IFINDEX,
				      DPILLAR_A_DEV_IFNAME);
}

int dp_genl_dev_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct dp_genl_dump_ctx *ctx = dp_genl_dump_ctx(cb);
	struct net *net = sock_net(skb->sk);
	struct net_device *dev;
	struct dp_priv *dp;
	u32 pos = 0;
	int err = 0;

	rcu_read_lock();
	/* Devices come and go: positions are only stable with the list. */
	cb->seq = READ_ONCE(net->dev_base_seq);
	for_each_netdev_rcu(net, dev) {
		if (!dp_genl_dump_match(dev, ctx))
			continue;
		if (pos++ < ctx->dev_pos)
			continue;
		dp = netdev_priv(dev);
		if (!dp_topo_hold(dp)) {
			NL_SET_ERR_MSG(cb->extack,
				       "Device is being reconfigured: try again");
			err = -EBUSY;
			break;
		}
		err = dp_genl_dev_fill(skb, dp, NETLINK_CB(cb->skb).portid,
				       cb->nlh->nlmsg_seq, NLM_F_MULTI, cb);
		dp_topo_put(dp);
		if (err)
			break;
		ctx->dev_pos = pos;
	}
	rcu_read_unlock();
	return dp_genl_dump_ret(skb, err);
}

/* ---- DEV_SET ------------------------------------------------------------ */

/* Under RTNL, as changelink. */
int dp_genl_dev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct net_device *dev = dp_genl_dev(info);
	struct nlattr **tb = info->attrs;
	const struct dp_settings_attrs attrs = {
		.hello_ms	= tb[DPILLAR_A_DEV_HELLO_MS],
		.dead_ms	= tb[DPILLAR_A_DEV_DEAD_MS],
		.ip4_prefix	= tb[DPILLAR_A_DEV_IP4_PREFIX],
		.ip4_plen	= tb[DPILLAR_A_DEV_IP4_PREFIXLEN],
		.ip6_prefix	= tb[DPILLAR_A_DEV_IP6_PREFIX],
		.mode		= tb[DPILLAR_A_DEV_MODE],
		.key6_prefix	= tb[DPILLAR_A_DEV_KEY6_PREFIX],
		.fallback	= tb[DPILLAR_A_DEV_FALLBACK],
		.nic_offload	= tb[DPILLAR_A_DEV_NIC_OFFLOAD],
	};
	/*
	 * The topology and address, as the IFLA_DPILLAR_* that name them;
	 * the parameters as the topologies' tables pair their attributes.
	 */
	struct nlattr *data[IFLA_DPILLAR_MAX + 1] = {
		[IFLA_DPILLAR_TOPO]	= tb[DPILLAR_A_DEV_TOPO],
		[IFLA_DPILLAR_ADDR]	= tb[DPILLAR_A_DEV_ADDR],
	};
	const struct dp_topo_param *q;
	u32 i = 0, kind = 0;
	int err;

	while ((q = dp_topo_param_next(&kind, &i)))
		if (q->genl <= DP_GENL_DEV_SET_MAX)
			data[q->ifla] = tb[q->genl];
	for (i = 0; i <= IFLA_DPILLAR_MAX && !data[i]; i++)
		;
	if (i <= IFLA_DPILLAR_MAX)
		err = dp_topo_change(netdev_priv(dev), data, &attrs,
				     info->extack);
	else
		err = dp_settings_change(netdev_priv(dev), &attrs,
					 info->extack);
	/* RTM_NEWLINK with the new IFLA_INFO_DATA, as after changelink. */
	if (!err)
		call_netdevice_notifiers(NETDEV_CHANGEINFODATA, dev);
	return err;
}
