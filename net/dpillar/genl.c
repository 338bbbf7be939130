// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "dpillar" (include/uapi/linux/dpillar.h,
 * Documentation/netlink/specs/dpillar.yaml): devices with their ports and
 * counters, neighbour tables, routing decisions, and the "events" group.
 *
 * Reads run under rcu_read_lock only, like the data path they look at, so
 * the family is parallel_ops; DEV_SET takes RTNL, as changelink does.
 */

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "compat.h"
#include "dpillar.h"
#include "topo_dpillar.h"	/* ROUTE_DIR, DPillar's own attribute */

enum dp_genl_mcgrp {
	DP_GENL_MCGRP_EVENTS,
};

static const struct genl_multicast_group dp_genl_mcgrps[] = {
	[DP_GENL_MCGRP_EVENTS] = { .name = DPILLAR_MCGRP_EVENTS },
};

static struct genl_family dp_genl_family;

/*
 * Counters as DPILLAR_A_STATS_* attributes: ethtool -S order.  The
 * detour slots and the routing drop reasons are the topology's; the UAPI
 * names them as DPillar's (see dpillar.h).
 */
#define DP_GENL_STATS_CNT(stat)		((stat) + DPILLAR_A_STATS_RX_FRAMES)
#define DP_GENL_STATS_ROUTE(reason) \
	((reason) - DP_DROP_ROUTE_BAD_ADDR + DPILLAR_A_STATS_ROUTE_DROP_BAD_ADDR)
/* Routing drop reasons the STATS nest has room for. */
#define DP_GENL_STATS_ROUTES \
	(DPILLAR_A_STATS_MAX - DPILLAR_A_STATS_ROUTE_DROP_BAD_ADDR + 2)

/* ---- policies ----------------------------------------------------------- */

static const struct nla_policy
dp_genl_dev_get_policy[DPILLAR_A_DEV_IFNAME + 1] = {
	[DPILLAR_A_DEV_IFINDEX]	= NLA_POLICY_MIN(NLA_U32, 1),
	[DPILLAR_A_DEV_IFNAME]	= { .type = NLA_NUL_STRING,
				    .len = IFNAMSIZ - 1 },
};

#define DP_GENL_READ_ONLY { .type = NLA_REJECT, \
			    .reject_message = "Attribute is read-only" }

/* The bounds of the rtnetlink policy (device.c), which shares the checks. */
static const struct nla_policy
dp_genl_dev_set_policy[DPILLAR_A_DEV_IP6_PREFIX + 1] = {
	[DPILLAR_A_DEV_IFINDEX]	= NLA_POLICY_MIN(NLA_U32, 1),
	[DPILLAR_A_DEV_IFNAME]	= { .type = NLA_NUL_STRING,
				    .len = IFNAMSIZ - 1 },
	[DPILLAR_A_DEV_TOPO]	= DP_GENL_READ_ONLY,
	[DPILLAR_A_DEV_N]	= DP_GENL_READ_ONLY,
	[DPILLAR_A_DEV_K]	= DP_GENL_READ_ONLY,
	[DPILLAR_A_DEV_NODES]	= DP_GENL_READ_ONLY,
	[DPILLAR_A_DEV_NODE_ID]	= DP_GENL_READ_ONLY,
	[DPILLAR_A_DEV_ADDR]	= DP_GENL_READ_ONLY,
	[DPILLAR_A_DEV_HELLO_MS] = NLA_POLICY_RANGE(NLA_U32,
						    DPILLAR_HELLO_MS_MIN,
						    DPILLAR_HELLO_MS_MAX),
	[DPILLAR_A_DEV_DEAD_MS]	= NLA_POLICY_RANGE(NLA_U32,
						   DPILLAR_HELLO_MS_MIN + 1,
						   DPILLAR_DEAD_MS_MAX),
	[DPILLAR_A_DEV_IP4_PREFIX] = { .type = NLA_BE32 },
	[DPILLAR_A_DEV_IP4_PREFIXLEN] = NLA_POLICY_MAX(NLA_U8, 31),
	[DPILLAR_A_DEV_IP6_PREFIX] =
		NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
};

static const struct nla_policy
dp_genl_neigh_get_policy[DPILLAR_A_NEIGH_PORT + 1] = {
	[DPILLAR_A_NEIGH_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[DPILLAR_A_NEIGH_PORT]	= NLA_POLICY_MAX(NLA_U32,
						 DPILLAR_PORTS_MAX - 1),
};

static const struct nla_policy
dp_genl_route_get_policy[DPILLAR_A_ROUTE_DST_IP6 + 1] = {
	[DPILLAR_A_ROUTE_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[DPILLAR_A_ROUTE_IFNAME] = { .type = NLA_NUL_STRING,
				     .len = IFNAMSIZ - 1 },
	[DPILLAR_A_ROUTE_DST]	= { .type = NLA_U32 },
	[DPILLAR_A_ROUTE_DST_IP4] = { .type = NLA_BE32 },
	[DPILLAR_A_ROUTE_DST_IP6] =
		NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
};

/* ---- helpers ------------------------------------------------------------ */

static bool dp_genl_is_dp(const struct net_device *dev)
{
	return dev->rtnl_link_ops == &dp_link_ops;
}

/*
 * The dpillar device a request names: by ifindex, else by name (@a_ifname
 * 0: the attribute set has none), in @net.  Under rcu_read_lock.
 */
static struct net_device *dp_genl_dev_find(struct net *net, struct nlattr **tb,
					   int a_ifindex, int a_ifname,
					   struct netlink_ext_ack *extack)
{
	struct nlattr *name = a_ifname ? tb[a_ifname] : NULL;
	struct net_device *dev;
	struct nlattr *attr;

	if (tb[a_ifindex]) {
		attr = tb[a_ifindex];
		dev = dev_get_by_index_rcu(net, nla_get_u32(attr));
	} else if (name) {
		attr = name;
		dev = dev_get_by_name_rcu(net, nla_data(attr));
	} else {
		NL_SET_ERR_MSG(extack, "Missing device: give its ifindex or name");
		NL_SET_ERR_ATTR_MISS(extack, NULL, a_ifindex);
		return ERR_PTR(-EINVAL);
	}
	if (!dev) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "No such device");
		return ERR_PTR(-ENODEV);
	}
	if (attr != name && name && nla_strcmp(name, dev->name)) {
		NL_SET_ERR_MSG_ATTR(extack, name,
				    "Ifindex and name give different devices");
		return ERR_PTR(-EINVAL);
	}
	if (!dp_genl_is_dp(dev)) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "Not a dpillar device");
		return ERR_PTR(-EOPNOTSUPP);
	}
	return dev;
}

static int dp_genl_put_addr(struct sk_buff *skb, int type,
			    const struct dp_priv *dp, u32 id)
{
	char text[DP_ADDR_TEXT_MAX];

	if (dp_addr_format(&dp->topo, id, text, sizeof(text)) < 0)
		return -EINVAL;
	return nla_put_string(skb, type, text);
}

static int dp_genl_put_mac(struct sk_buff *skb, int type, u64 mac)
{
	u8 addr[ETH_ALEN];

	u64_to_ether_addr(mac, addr);
	return nla_put(skb, type, ETH_ALEN, addr);
}

/* Dump state, in cb->ctx. */
struct dp_genl_dump_ctx {
	int filter;		/* ifindex; 0: every dpillar device */
	u32 filter_port;	/* U32_MAX: every port */
	u32 dev_pos;		/* matching devices done */
	/* NEIGH_GET: where in the device being dumped */
	int ifindex;
	u32 port;
	u32 slot;		/* entry of the port's table (dp_neigh_snapshot()) */
	u32 gen;		/* the device's dp->gen when we got there */
	u32 changes;		/* generation changes seen on resuming */
};

static struct dp_genl_dump_ctx *dp_genl_dump_ctx(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct dp_genl_dump_ctx) >
		     sizeof_field(struct netlink_callback, ctx));
	return (struct dp_genl_dump_ctx *)cb->ctx;
}

static bool dp_genl_dump_match(const struct net_device *dev,
			       const struct dp_genl_dump_ctx *ctx)
{
	return dp_genl_is_dp(dev) && (!ctx->filter || dev->ifindex == ctx->filter);
}

/* A dump callback's return: more to come (skb->len), done (0) or error. */
static int dp_genl_dump_ret(struct sk_buff *skb, int err)
{
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

/* ---- DEV_GET ------------------------------------------------------------ */

static size_t dp_genl_port_size(void)
{
	return nla_total_size(0) +			/* DEV_PORT */
	       nla_total_size(sizeof(u32)) * 7 +	/* u32 attributes */
	       nla_total_size(IFNAMSIZ);		/* PORT_IFNAME */
}

static size_t dp_genl_dev_size(void)
{
	return nla_total_size(sizeof(u32)) * 8 +	/* u32 attributes */
	       nla_total_size(IFNAMSIZ) +		/* IFNAME */
	       nla_total_size(DP_ADDR_TEXT_MAX) +	/* ADDR */
	       nla_total_size(sizeof(__be32)) +		/* IP4_PREFIX */
	       nla_total_size(sizeof(u8)) +		/* IP4_PREFIXLEN */
	       nla_total_size(sizeof(struct in6_addr)) + /* IP6_PREFIX */
	       DPILLAR_PORTS_MAX * dp_genl_port_size() +
	       nla_total_size(0) +			/* STATS */
	       nla_total_size_64bit(sizeof(u64)) *
	       (DP_STAT_MAX + DP_GENL_STATS_ROUTES - 1);
}

/* One DEV_PORT nest. */
static int dp_genl_put_port(struct sk_buff *skb, const struct dp_priv *dp,
			    u32 index, const struct dp_port_snap *snap)
{
	const struct net_device *lower = snap->lower;
	struct dp_port_info pi;
	struct nlattr *nest;

	dp_port_info(&dp->topo, dp->self, index, &pi);
	nest = nla_nest_start(skb, DPILLAR_A_DEV_PORT);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, DPILLAR_A_PORT_INDEX, index) ||
	    (lower &&
	     (nla_put_u32(skb, DPILLAR_A_PORT_IFINDEX, lower->ifindex) ||
	      nla_put_string(skb, DPILLAR_A_PORT_IFNAME, lower->name))) ||
	    nla_put_u32(skb, DPILLAR_A_PORT_STATE, snap->state) ||
	    nla_put_u32(skb, DPILLAR_A_PORT_SWITCH_COLUMN, pi.sw_level) ||
	    nla_put_u32(skb, DPILLAR_A_PORT_SWITCH_ID, pi.sw_id) ||
	    nla_put_u32(skb, DPILLAR_A_PORT_NEIGHS, pi.nneigh) ||
	    nla_put_u32(skb, DPILLAR_A_PORT_REACHABLE, snap->reachable)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int dp_genl_put_stats(struct sk_buff *skb, const struct dp_priv *dp)
{
	u64 cnt[DP_STAT_MAX], route[DP_DROP_MAX], rxb, txb;
	struct nlattr *nest;
	int i;

	/* The UAPI lists the counters in the order of enum dp_stat ... */
	BUILD_BUG_ON(DP_GENL_STATS_CNT(DP_STAT_RX_FRAMES) !=
		     DPILLAR_A_STATS_RX_FRAMES);
	BUILD_BUG_ON(DP_GENL_STATS_CNT(DP_STAT_DROP_SHORT) !=
		     DPILLAR_A_STATS_DROP_SHORT);
	BUILD_BUG_ON(DP_GENL_STATS_CNT(DP_STAT_HELLO_MISWIRED) !=
		     DPILLAR_A_STATS_HELLO_MISWIRED);
	BUILD_BUG_ON(DP_GENL_STATS_CNT(DP_STAT_TX_NOT_FABRIC) !=
		     DPILLAR_A_STATS_TX_NOT_FABRIC);
	BUILD_BUG_ON(DP_GENL_STATS_CNT(DP_STAT_DETOUR1) !=
		     DPILLAR_A_STATS_ROUTE_TUNNEL_HOPS);
	BUILD_BUG_ON(DP_GENL_STATS_CNT(DP_STAT_MAX - 1) !=
		     DPILLAR_A_STATS_ROUTE_RING_REVERSALS);
	/* ... then the routing drops in the order of enum dp_route_drop. */
	BUILD_BUG_ON(DP_GENL_STATS_CNT(DP_STAT_MAX) !=
		     DP_GENL_STATS_ROUTE(DP_DROP_ROUTE_BAD_ADDR));
	BUILD_BUG_ON(DP_GENL_STATS_ROUTE(DPP_DROP_RING) !=
		     DPILLAR_A_STATS_ROUTE_DROP_RING);
	BUILD_BUG_ON(DP_GENL_STATS_ROUTE(DPP_DROP_BUDGET) !=
		     DPILLAR_A_STATS_ROUTE_DROP_BUDGET);
	BUILD_BUG_ON(DP_GENL_STATS_ROUTE(DPP_DROP_COUNT - 1) !=
		     DPILLAR_A_STATS_MAX);
	BUILD_BUG_ON(DP_GENL_STATS_ROUTES > DP_DROP_MAX);

	dp_stats_sum(dp, cnt, route, &rxb, &txb);
	nest = nla_nest_start(skb, DPILLAR_A_DEV_STATS);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < DP_STAT_MAX; i++)
		if (nla_put_u64_64bit(skb, DP_GENL_STATS_CNT(i), cnt[i],
				      DPILLAR_A_STATS_PAD))
			goto cancel;
	/*
	 * Reason 0 is "no drop": not a counter.  A topology with more
	 * reasons than the UAPI has attributes for shows them in ethtool -S
	 * only, until the UAPI grows.
	 */
	for (i = DP_DROP_ROUTE_BAD_ADDR;
	     i < min_t(int, dp->topo.ops->ndrops, DP_GENL_STATS_ROUTES); i++)
		if (nla_put_u64_64bit(skb, DP_GENL_STATS_ROUTE(i), route[i],
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
	    (dp->topo.p.n && nla_put_u32(skb, DPILLAR_A_DEV_N, dp->topo.p.n)) ||
	    (dp->topo.p.k && nla_put_u32(skb, DPILLAR_A_DEV_K, dp->topo.p.k)) ||
	    nla_put_u32(skb, DPILLAR_A_DEV_NODES, dp->topo.nodes) ||
	    nla_put_u32(skb, DPILLAR_A_DEV_NODE_ID, dp->self) ||
	    dp_genl_put_addr(skb, DPILLAR_A_DEV_ADDR, dp, dp->self) ||
	    nla_put_u32(skb, DPILLAR_A_DEV_HELLO_MS, READ_ONCE(dp->hello_ms)) ||
	    nla_put_u32(skb, DPILLAR_A_DEV_DEAD_MS, READ_ONCE(dp->dead_ms)) ||
	    nla_put_be32(skb, DPILLAR_A_DEV_IP4_PREFIX, prefix->ip4) ||
	    nla_put_u8(skb, DPILLAR_A_DEV_IP4_PREFIXLEN, prefix->ip4_plen) ||
	    nla_put_in6_addr(skb, DPILLAR_A_DEV_IP6_PREFIX, &prefix->ip6))
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

static int dp_genl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct net_device *dev;
	struct sk_buff *msg;
	int err;

	msg = genlmsg_new(dp_genl_dev_size(), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	rcu_read_lock();
	dev = dp_genl_dev_find(genl_info_net(info), info->attrs,
			       DPILLAR_A_DEV_IFINDEX, DPILLAR_A_DEV_IFNAME,
			       info->extack);
	if (IS_ERR(dev)) {
		rcu_read_unlock();
		err = PTR_ERR(dev);
		goto err_free;
	}
	err = dp_genl_dev_fill(msg, netdev_priv(dev), info->snd_portid,
			       info->snd_seq, 0, NULL);
	rcu_read_unlock();
	if (err)
		goto err_free;
	return genlmsg_reply(msg, info);

err_free:
	nlmsg_free(msg);
	return err;
}

/*
 * A dump may name one device: resolve it once, into the dump state.  The
 * core parsed and validated the request before the start callback.
 */
static int dp_genl_dump_start_dev(struct netlink_callback *cb, int a_ifindex,
				  int a_ifname)
{
	struct dp_genl_dump_ctx *ctx = dp_genl_dump_ctx(cb);
	struct nlattr **tb = dp_compat_dump_attrs(cb);
	struct net_device *dev;
	int err = 0;

	ctx->filter_port = U32_MAX;
	if (!tb[a_ifindex] && !(a_ifname && tb[a_ifname]))
		return 0;
	rcu_read_lock();
	dev = dp_genl_dev_find(sock_net(cb->skb->sk), tb, a_ifindex, a_ifname,
			       cb->extack);
	if (IS_ERR(dev))
		err = PTR_ERR(dev);
	else
		ctx->filter = dev->ifindex;
	rcu_read_unlock();
	return err;
}

static int dp_genl_dev_dump_start(struct netlink_callback *cb)
{
	return dp_genl_dump_start_dev(cb, DPILLAR_A_DEV_IFINDEX,
				      DPILLAR_A_DEV_IFNAME);
}

static int dp_genl_dev_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct dp_genl_dump_ctx *ctx = dp_genl_dump_ctx(cb);
	struct net *net = sock_net(skb->sk);
	struct net_device *dev;
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
		err = dp_genl_dev_fill(skb, netdev_priv(dev),
				       NETLINK_CB(cb->skb).portid,
				       cb->nlh->nlmsg_seq, NLM_F_MULTI, cb);
		if (err)
			break;
		ctx->dev_pos = pos;
	}
	rcu_read_unlock();
	return dp_genl_dump_ret(skb, err);
}

/* ---- DEV_SET ------------------------------------------------------------ */

static int dp_genl_dev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	const struct dp_settings_attrs attrs = {
		.hello_ms	= tb[DPILLAR_A_DEV_HELLO_MS],
		.dead_ms	= tb[DPILLAR_A_DEV_DEAD_MS],
		.ip4_prefix	= tb[DPILLAR_A_DEV_IP4_PREFIX],
		.ip4_plen	= tb[DPILLAR_A_DEV_IP4_PREFIXLEN],
		.ip6_prefix	= tb[DPILLAR_A_DEV_IP6_PREFIX],
	};
	struct net_device *dev;
	int err;

	rtnl_lock();
	rcu_read_lock();
	dev = dp_genl_dev_find(genl_info_net(info), tb, DPILLAR_A_DEV_IFINDEX,
			       DPILLAR_A_DEV_IFNAME, info->extack);
	rcu_read_unlock();
	/* RTNL keeps the device. */
	if (IS_ERR(dev)) {
		err = PTR_ERR(dev);
		goto out;
	}
	err = dp_settings_change(netdev_priv(dev), &attrs, info->extack);
	/* RTM_NEWLINK with the new IFLA_INFO_DATA, as after changelink. */
	if (!err)
		call_netdevice_notifiers(NETDEV_CHANGEINFODATA, dev);
out:
	rtnl_unlock();
	return err;
}

/* ---- NEIGH_GET and NEIGH_NTF -------------------------------------------- */

static size_t dp_genl_neigh_size(void)
{
	return nla_total_size(sizeof(u32)) * 6 +	/* u32 attributes */
	       nla_total_size(DP_ADDR_TEXT_MAX) +	/* ADDR */
	       nla_total_size(ETH_ALEN);		/* MAC */
}

static int dp_genl_neigh_fill(struct sk_buff *skb, const struct dp_priv *dp,
			      const struct dp_neigh_snap *n, u32 portid,
			      u32 seq, int flags, u8 cmd,
			      struct netlink_callback *cb)
{
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &dp_genl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (cb)
		genl_dump_check_consistent(cb, hdr);
	if (nla_put_u32(skb, DPILLAR_A_NEIGH_IFINDEX, dp->dev->ifindex) ||
	    nla_put_u32(skb, DPILLAR_A_NEIGH_PORT, n->port) ||
	    nla_put_u32(skb, DPILLAR_A_NEIGH_NODE_ID, n->node) ||
	    dp_genl_put_addr(skb, DPILLAR_A_NEIGH_ADDR, dp, n->node) ||
	    nla_put_u32(skb, DPILLAR_A_NEIGH_STATE, n->state))
		goto cancel;
	if (n->mac &&
	    (dp_genl_put_mac(skb, DPILLAR_A_NEIGH_MAC, n->mac) ||
	     nla_put_u32(skb, DPILLAR_A_NEIGH_LAST_HEARD_MS,
			 jiffies_to_msecs(jiffies - n->heard))))
		goto cancel;
	if (n->peer_port >= 0 &&
	    nla_put_u32(skb, DPILLAR_A_NEIGH_PEER_PORT, n->peer_port))
		goto cancel;
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* The rest of one port's table, from ctx->slot on. */
static int dp_genl_neigh_dump_port(struct sk_buff *skb,
				   struct netlink_callback *cb,
				   struct dp_priv *dp, struct dp_port *port,
				   struct dp_genl_dump_ctx *ctx)
{
	u32 portid = NETLINK_CB(cb->skb).portid;
	u32 seq = cb->nlh->nlmsg_seq;
	struct dp_neigh_snap n;
	int err;

	for (;; ctx->slot++) {
		err = dp_neigh_snapshot(dp, port, ctx->slot, &n);
		if (err == -ENOENT)
			return 0;
		if (err)	/* an entry with nothing to report now */
			continue;
		err = dp_genl_neigh_fill(skb, dp, &n, portid, seq, NLM_F_MULTI,
					 DPILLAR_CMD_NEIGH_GET, cb);
		if (err)
			return err;
	}
}

/* The rest of one device's tables, from ctx->port and ctx->slot on. */
static int dp_genl_neigh_dump_dev(struct sk_buff *skb,
				  struct netlink_callback *cb,
				  struct dp_priv *dp,
				  struct dp_genl_dump_ctx *ctx)
{
	int err;

	for (; ctx->port < dp->nports; ctx->port++, ctx->slot = 0) {
		struct dp_port *port;

		if (ctx->filter_port != U32_MAX &&
		    ctx->port != ctx->filter_port)
			continue;
		port = dp_port_rcu(dp, ctx->port);
		if (!port)
			continue;
		err = dp_genl_neigh_dump_port(skb, cb, dp, port, ctx);
		if (err)
			return err;
	}
	return 0;
}

static int dp_genl_neigh_dump_start(struct netlink_callback *cb)
{
	struct dp_genl_dump_ctx *ctx = dp_genl_dump_ctx(cb);
	struct nlattr **tb = dp_compat_dump_attrs(cb);
	int err;

	err = dp_genl_dump_start_dev(cb, DPILLAR_A_NEIGH_IFINDEX, 0);
	if (err)
		return err;
	if (tb[DPILLAR_A_NEIGH_PORT])
		ctx->filter_port = nla_get_u32(tb[DPILLAR_A_NEIGH_PORT]);
	return 0;
}

static int dp_genl_neigh_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	struct dp_genl_dump_ctx *ctx = dp_genl_dump_ctx(cb);
	struct net *net = sock_net(skb->sk);
	struct net_device *dev;
	u32 pos = 0, base;
	int err = 0;

	rcu_read_lock();
	/*
	 * The list of devices, and the table of the device we stopped in
	 * (port added or removed, neighbour up or down) must not have changed
	 * since the previous part of the dump.
	 */
	base = READ_ONCE(net->dev_base_seq);
	cb->seq = base + ctx->changes;
	for_each_netdev_rcu(net, dev) {
		struct dp_priv *dp;
		u32 gen;

		if (!dp_genl_dump_match(dev, ctx))
			continue;
		if (pos++ < ctx->dev_pos)
			continue;
		dp = netdev_priv(dev);
		gen = atomic_read(&dp->gen);
		if (ctx->ifindex != dev->ifindex) {
			ctx->ifindex = dev->ifindex;
			ctx->port = 0;
			ctx->slot = 0;
			ctx->gen = gen;
		} else if (ctx->gen != gen) {
			ctx->gen = gen;
			cb->seq = base + ++ctx->changes;
		}
		err = dp_genl_neigh_dump_dev(skb, cb, dp, ctx);
		if (err)
			break;
		ctx->dev_pos = pos;
	}
	rcu_read_unlock();
	return dp_genl_dump_ret(skb, err);
}

static void dp_genl_neigh_notify(struct dp_priv *dp,
				 const struct dp_neigh_snap *n, gfp_t gfp)
{
	struct net *net = dev_net(dp->dev);
	struct sk_buff *skb;

	skb = genlmsg_new(dp_genl_neigh_size(), gfp);
	if (!skb)
		return;
	if (dp_genl_neigh_fill(skb, dp, n, 0, 0, 0, DPILLAR_CMD_NEIGH_NTF,
			       NULL)) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_multicast_netns(&dp_genl_family, net, skb, 0,
				DP_GENL_MCGRP_EVENTS, gfp);
}

static bool dp_genl_neigh_listened(const struct dp_priv *dp)
{
	return genl_has_listeners(&dp_genl_family, dev_net(dp->dev),
				  DP_GENL_MCGRP_EVENTS);
}

/*
 * Neighbour @idx of @port became reachable or unreachable: the message
 * says the transition, whatever its entry says by now.  Under RCU.
 */
void dp_genl_neigh_ntf(struct dp_priv *dp, struct dp_port *port,
		       u32 idx, bool reachable, gfp_t gfp)
{
	struct dp_neigh_snap n;

	if (!dp_genl_neigh_listened(dp) ||
	    dp_neigh_snapshot(dp, port, idx, &n))
		return;
	n.state = reachable ? DPILLAR_NEIGH_STATE_REACHABLE :
			      DPILLAR_NEIGH_STATE_UNREACHABLE;
	dp_genl_neigh_notify(dp, &n, gfp);
}

/* A new miswired sender @mis on @port.  Under RCU. */
void dp_genl_miswired_ntf(struct dp_priv *dp, const struct dp_port *port,
			  const struct dp_miswired *mis, gfp_t gfp)
{
	struct dp_neigh_snap n;

	if (!dp_genl_neigh_listened(dp))
		return;
	dp_neigh_snapshot_miswired(port, mis, &n);
	dp_genl_neigh_notify(dp, &n, gfp);
}

/* ---- PORT_NTF ----------------------------------------------------------- */

/*
 * Port @index of @dp changed state; @lower is its device (going away when
 * ABSENT).  Under RTNL.
 */
void dp_genl_port_ntf(struct dp_priv *dp, u32 index,
		      const struct net_device *lower,
		      enum dpillar_port_state state)
{
	struct net *net = dev_net(dp->dev);
	struct dp_port_snap snap;
	struct sk_buff *skb;
	void *hdr;

	if (!genl_has_listeners(&dp_genl_family, net, DP_GENL_MCGRP_EVENTS))
		return;
	skb = genlmsg_new(nla_total_size(sizeof(u32)) +
			  nla_total_size(IFNAMSIZ) + dp_genl_port_size(),
			  GFP_KERNEL);
	if (!skb)
		return;
	hdr = genlmsg_put(skb, 0, 0, &dp_genl_family, 0, DPILLAR_CMD_PORT_NTF);
	if (!hdr)
		goto err_free;
	/* The device and state of the event: the port may be gone already. */
	dp_port_snapshot(dp, index, &snap);
	snap.lower = lower;
	snap.state = state;
	if (nla_put_u32(skb, DPILLAR_A_DEV_IFINDEX, dp->dev->ifindex) ||
	    nla_put_string(skb, DPILLAR_A_DEV_IFNAME, dp->dev->name) ||
	    dp_genl_put_port(skb, dp, index, &snap))
		goto err_free;
	genlmsg_end(skb, hdr);
	genlmsg_multicast_netns(&dp_genl_family, net, skb, 0,
				DP_GENL_MCGRP_EVENTS, GFP_KERNEL);
	return;

err_free:
	nlmsg_free(skb);
}

/* ---- ROUTE_GET ---------------------------------------------------------- */

static size_t dp_genl_route_size(u32 ttl)
{
	size_t hop = nla_total_size(0) +		/* ROUTE_HOP */
		     nla_total_size(sizeof(u32)) * 3 +	/* u32 attributes */
		     nla_total_size(DP_ADDR_TEXT_MAX);	/* HOP_ADDR */

	return nla_total_size(sizeof(u32)) * 6 +	/* u32 attributes */
	       nla_total_size(DP_ADDR_TEXT_MAX) * 2 +	/* DST_ADDR, NEXT_ADDR */
	       nla_total_size(ETH_ALEN) +		/* NEXT_MAC */
	       ttl * hop;
}

/* The destination node of a request: exactly one of DST, DST_IP4, DST_IP6. */
static int dp_genl_route_dst(const struct dp_priv *dp, struct nlattr **tb,
			     struct nlattr **dst_attr, u32 *dst,
			     struct netlink_ext_ack *extack)
{
	static const int types[] = {
		DPILLAR_A_ROUTE_DST, DPILLAR_A_ROUTE_DST_IP4,
		DPILLAR_A_ROUTE_DST_IP6,
	};
	struct nlattr *attr = NULL;
	struct in6_addr ip6;
	unsigned int i;
	bool ok;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		if (!tb[types[i]])
			continue;
		if (attr) {
			NL_SET_ERR_MSG_ATTR(extack, tb[types[i]],
					    "Give exactly one destination: dst, dst-ip4 or dst-ip6");
			return -EINVAL;
		}
		attr = tb[types[i]];
	}
	if (!attr) {
		NL_SET_ERR_MSG(extack,
			       "Missing destination: dst, dst-ip4 or dst-ip6");
		NL_SET_ERR_ATTR_MISS(extack, NULL, DPILLAR_A_ROUTE_DST);
		return -EINVAL;
	}
	*dst_attr = attr;

	switch (nla_type(attr)) {
	case DPILLAR_A_ROUTE_DST:
		*dst = nla_get_u32(attr);
		if (!dp_addr_valid(&dp->topo, *dst)) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "Node id is not in this fabric");
			return -EINVAL;
		}
		return 0;
	case DPILLAR_A_ROUTE_DST_IP4:
		ok = dp_ip4_to_node(dp, nla_get_in_addr(attr), dst);
		break;
	default:
		ip6 = nla_get_in6_addr(attr);
		ok = dp_ip6_to_node(dp, &ip6, dst);
		break;
	}
	if (!ok) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "Address is not a server of this fabric");
		return -ENETUNREACH;
	}
	return 0;
}

static int dp_genl_put_hop(struct sk_buff *skb, const struct dp_priv *dp,
			   const struct dp_hop *hop)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, DPILLAR_A_ROUTE_HOP);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, DPILLAR_A_HOP_NODE_ID, hop->next) ||
	    dp_genl_put_addr(skb, DPILLAR_A_HOP_ADDR, dp, hop->next) ||
	    nla_put_u32(skb, DPILLAR_A_HOP_PORT, hop->port) ||
	    nla_put_u32(skb, DPILLAR_A_HOP_PHASE, hop->phase)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * The first hop as the data path would take it now (dp_route_out()), then
 * the rest of the path as the servers on it would route with nothing
 * failed.  Under rcu_read_lock.
 */
static int dp_genl_route_fill(struct sk_buff *skb, struct dp_priv *dp,
			      u32 dst, const struct nlattr *dst_attr,
			      struct netlink_ext_ack *extack)
{
	struct dp_route_state st;
	struct dp_port *port;
	struct dp_hop hop;
	u32 hops = 0;
	u64 mac;

	/* The UAPI's phases are the topology's: DPillar's enum dpp_phase. */
	BUILD_BUG_ON((int)DP_PHASE_DIRECT != DPILLAR_ROUTE_PHASE_DIRECT);
	BUILD_BUG_ON((int)DPP_PHASE_HELIX != DPILLAR_ROUTE_PHASE_HELIX);
	BUILD_BUG_ON((int)DPP_PHASE_RING != DPILLAR_ROUTE_PHASE_RING);
	BUILD_BUG_ON((int)DPP_PHASE_TUNNEL != DPILLAR_ROUTE_PHASE_TUNNEL);
	BUILD_BUG_ON((int)DPP_PHASE_UTURN != DPILLAR_ROUTE_PHASE_UTURN);
	BUILD_BUG_ON((int)DPP_PHASE_RING_REV != DPILLAR_ROUTE_PHASE_RING_REV);
	BUILD_BUG_ON((int)DPP_PHASE_COUNT - 1 != DPILLAR_ROUTE_PHASE_RING_REV);

	if (nla_put_u32(skb, DPILLAR_A_ROUTE_DST, dst) ||
	    dp_genl_put_addr(skb, DPILLAR_A_ROUTE_DST_ADDR, dp, dst))
		return -EMSGSIZE;
	if (dst == dp->self)
		return 0;

	/* No packet, so no flow hash: the flow of hash 0. */
	dp_route_init(&dp->topo, dp->self, dst, 0, 0, &st);
	if (dp_route(&dp->topo, dp->self, &st, &dp->view, &hop)) {
		dp_compat_set_err_reason(extack, "No route",
					 dp_drop_reason_name(&dp->topo,
							     hop.reason));
		NL_SET_BAD_ATTR(extack, dst_attr);
		return -EHOSTUNREACH;
	}
	mac = dp_neigh_mac(dp, hop.port, hop.next, &port);

	if (nla_put_u32(skb, DPILLAR_A_ROUTE_NEXT, hop.next) ||
	    dp_genl_put_addr(skb, DPILLAR_A_ROUTE_NEXT_ADDR, dp, hop.next) ||
	    (mac && dp_genl_put_mac(skb, DPILLAR_A_ROUTE_NEXT_MAC, mac)) ||
	    nla_put_u32(skb, DPILLAR_A_ROUTE_PORT, hop.port) ||
	    nla_put_u32(skb, DPILLAR_A_ROUTE_PHASE, hop.phase))
		return -EMSGSIZE;
	if (dp->topo.kind == DP_TOPO_DPILLAR &&
	    nla_put_u32(skb, DPILLAR_A_ROUTE_DIR,
			st.flags & DPP_RS_CCW ? DPILLAR_ROUTE_DIR_CCW :
						DPILLAR_ROUTE_DIR_CW))
		return -EMSGSIZE;

	for (;;) {
		if (dp_genl_put_hop(skb, dp, &hop))
			return -EMSGSIZE;
		if (++hops == dp_topo_ttl(&dp->topo) && hop.next != dst) {
			NL_SET_ERR_MSG(extack, "Path longer than the TTL");
			NL_SET_BAD_ATTR(extack, dst_attr);
			return -ELOOP;
		}
		if (hop.next == dst)
			break;
		/* NULL oracle: every server and link is up. */
		if (dp_route(&dp->topo, hop.next, &st, NULL, &hop)) {
			dp_compat_set_err_reason(extack,
						 "No route beyond the first hop",
						 dp_drop_reason_name(&dp->topo,
								     hop.reason));
			NL_SET_BAD_ATTR(extack, dst_attr);
			return -EHOSTUNREACH;
		}
	}
	return nla_put_u32(skb, DPILLAR_A_ROUTE_HOPS, hops);
}

static int dp_genl_route_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *dst_attr = NULL;
	struct net_device *dev;
	struct dp_priv *dp;
	struct sk_buff *msg;
	void *hdr;
	u32 dst, ttl;
	int err;

	/*
	 * The reply is sized by the topology's path bound, from 11 hops up
	 * to DP_TTL_MAX: look the device up once to learn it.  Its topology
	 * cannot change; a device re-created in between makes -EMSGSIZE.
	 */
	rcu_read_lock();
	dev = dp_genl_dev_find(genl_info_net(info), info->attrs,
			       DPILLAR_A_ROUTE_IFINDEX, DPILLAR_A_ROUTE_IFNAME,
			       info->extack);
	ttl = IS_ERR(dev) ? 0 : dp_topo_ttl(&((struct dp_priv *)
					      netdev_priv(dev))->topo);
	rcu_read_unlock();
	if (IS_ERR(dev))
		return PTR_ERR(dev);

	msg = genlmsg_new(dp_genl_route_size(ttl), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &dp_genl_family, 0,
				DPILLAR_CMD_ROUTE_GET);
	if (!hdr) {
		err = -EMSGSIZE;
		goto err_free;
	}

	rcu_read_lock();
	dev = dp_genl_dev_find(genl_info_net(info), info->attrs,
			       DPILLAR_A_ROUTE_IFINDEX, DPILLAR_A_ROUTE_IFNAME,
			       info->extack);
	if (IS_ERR(dev)) {
		err = PTR_ERR(dev);
		goto err_unlock;
	}
	dp = netdev_priv(dev);
	err = dp_genl_route_dst(dp, info->attrs, &dst_attr, &dst,
				info->extack) ?:
	      dp_genl_route_fill(msg, dp, dst, dst_attr, info->extack);
	if (err)
		goto err_unlock;
	rcu_read_unlock();

	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err_unlock:
	rcu_read_unlock();
err_free:
	nlmsg_free(msg);
	return err;
}

/* ---- the family --------------------------------------------------------- */

static const struct genl_ops dp_genl_ops[] = {
	{
		.cmd		= DPILLAR_CMD_DEV_GET,
		.doit		= dp_genl_dev_get_doit,
		.start		= dp_genl_dev_dump_start,
		.dumpit		= dp_genl_dev_dumpit,
		.policy		= dp_genl_dev_get_policy,
		.maxattr	= DPILLAR_A_DEV_IFNAME,
	},
	{
		.cmd		= DPILLAR_CMD_DEV_SET,
		.flags		= GENL_ADMIN_PERM,
		.doit		= dp_genl_dev_set_doit,
		.policy		= dp_genl_dev_set_policy,
		.maxattr	= DPILLAR_A_DEV_IP6_PREFIX,
	},
	{
		.cmd		= DPILLAR_CMD_NEIGH_GET,
		.start		= dp_genl_neigh_dump_start,
		.dumpit		= dp_genl_neigh_dumpit,
		.policy		= dp_genl_neigh_get_policy,
		.maxattr	= DPILLAR_A_NEIGH_PORT,
	},
	{
		.cmd		= DPILLAR_CMD_ROUTE_GET,
		.doit		= dp_genl_route_get_doit,
		.policy		= dp_genl_route_get_policy,
		.maxattr	= DPILLAR_A_ROUTE_DST_IP6,
	},
};

/*
 * resv_start_op stays 0: a new family, so the reserved header field and
 * a policy are enforced for every command.
 */
static struct genl_family dp_genl_family __ro_after_init = {
	.name		= DPILLAR_FAMILY_NAME,
	.version	= DPILLAR_FAMILY_VERSION,
	.netnsok	= true,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.ops		= dp_genl_ops,
	.n_ops		= ARRAY_SIZE(dp_genl_ops),
	.mcgrps		= dp_genl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(dp_genl_mcgrps),
};

int __init dp_genl_register(void)
{
	return genl_register_family(&dp_genl_family);
}

void dp_genl_unregister(void)
{
	genl_unregister_family(&dp_genl_family);
}
