// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "dpillar" (include/uapi/linux/dpillar.h,
 * Documentation/netlink/specs/dpillar.yaml): devices with their ports and
 * counters (genl_dev.c), neighbour tables (genl_neigh.c), routing
 * decisions (genl_route.c), and the "events" group.  Here: the family, its
 * policies and ops, the device a request names, and what the objects share.
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

#include "genl.h"
#include "settings.h"

static const struct genl_multicast_group dp_genl_mcgrps[] = {
	[DP_GENL_MCGRP_EVENTS] = { .name = DPILLAR_MCGRP_EVENTS },
};

/* ---- policies ----------------------------------------------------------- */

/*
 * The spec's request policies, written out because the generated ops are
 * genl_split_ops (6.2+); scripts/spec-check.sh compares them, with maxattr,
 * to what ynl-gen-c renders from the spec.
 */

static const struct nla_policy
dp_genl_dev_get_policy[DPILLAR_A_DEV_IFNAME + 1] = {
	[DPILLAR_A_DEV_IFINDEX]	= NLA_POLICY_MIN(NLA_U32, 1),
	[DPILLAR_A_DEV_IFNAME]	= { .type = NLA_NUL_STRING,
				    .len = IFNAMSIZ - 1 },
};

#define DP_GENL_READ_ONLY { .type = NLA_REJECT, \
			    .reject_message = "Attribute is read-only" }

/* The bounds of the rtnetlink policy (rtnl.c), which shares the checks. */
static const struct nla_policy
dp_genl_dev_set_policy[DPILLAR_A_DEV_MAX + 1] = {
	[DPILLAR_A_DEV_IFINDEX]	= NLA_POLICY_MIN(NLA_U32, 1),
	[DPILLAR_A_DEV_IFNAME]	= { .type = NLA_NUL_STRING,
				    .len = IFNAMSIZ - 1 },
	/* The topology and the address: only while down (dp_topo_change()). */
	[DPILLAR_A_DEV_TOPO]	= NLA_POLICY_RANGE(NLA_U32, DPILLAR_TOPO_DPILLAR,
						   DPILLAR_TOPO_MAX),
	[DPILLAR_A_DEV_NODE_ID]	= DP_GENL_READ_ONLY,
	/* DP_ADDR_TEXT_MAX - 1, as the spec has it (dp_genl_register()). */
	[DPILLAR_A_DEV_ADDR]	= { .type = NLA_NUL_STRING, .len = 159 },
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
	[DPILLAR_A_DEV_PORT]	= DP_GENL_READ_ONLY,
	[DPILLAR_A_DEV_STATS]	= DP_GENL_READ_ONLY,
	[DPILLAR_A_DEV_MODE]	= NLA_POLICY_MAX(NLA_U32, DPILLAR_MODE_MAX),
	[DPILLAR_A_DEV_KEY6_PREFIX] =
		NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[DPILLAR_A_DEV_FALLBACK] = NLA_POLICY_MAX(NLA_U8, 1),
	[DPILLAR_A_DEV_NIC_OFFLOAD] = NLA_POLICY_MAX(NLA_U8, 1),
	/*
	 * The topology's parameters (their list, topo.h), as the spec has
	 * them: the node count is read-only but for S2, where it is one.
	 */
	DP_PARAM_POLICY_GENL
};

static const struct nla_policy
dp_genl_neigh_get_policy[DPILLAR_A_NEIGH_PORT + 1] = {
	[DPILLAR_A_NEIGH_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[DPILLAR_A_NEIGH_PORT]	= NLA_POLICY_MAX(NLA_U32,
						 DPILLAR_PORTS_MAX - 1),
};

static const struct nla_policy
dp_genl_shortcut_get_policy[DPILLAR_A_SHORTCUT_IFINDEX + 1] = {
	[DPILLAR_A_SHORTCUT_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
};

/* ROUTE_GET's (its wait for a resolution), ROUTE_TRACE's and ROUTE_PROBE's */
static const struct nla_policy
dp_genl_route_trace_policy[DPILLAR_A_ROUTE_TIMEOUT_MS + 1] = {
	[DPILLAR_A_ROUTE_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[DPILLAR_A_ROUTE_IFNAME] = { .type = NLA_NUL_STRING,
				     .len = IFNAMSIZ - 1 },
	[DPILLAR_A_ROUTE_DST]	= { .type = NLA_U32 },
	[DPILLAR_A_ROUTE_DST_IP4] = { .type = NLA_BE32 },
	[DPILLAR_A_ROUTE_DST_IP6] =
		NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[DPILLAR_A_ROUTE_HASH]	= { .type = NLA_U32 },
	[DPILLAR_A_ROUTE_TIMEOUT_MS] = NLA_POLICY_RANGE(NLA_U32, 1, 5000),
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

int dp_genl_put_addr(struct sk_buff *skb, int type, const struct dp_priv *dp,
		     u32 id)
{
	char text[DP_ADDR_TEXT_MAX];

	if (dp_addr_format(&dp->topo, id, text, sizeof(text)) < 0)
		return -EINVAL;
	return nla_put_string(skb, type, text);
}

int dp_genl_put_mac(struct sk_buff *skb, int type, u64 mac)
{
	u8 addr[ETH_ALEN];

	u64_to_ether_addr(mac, addr);
	return nla_put(skb, type, ETH_ALEN, addr);
}

bool dp_genl_dump_match(const struct net_device *dev,
			const struct dp_genl_dump_ctx *ctx)
{
	return dp_genl_is_dp(dev) && (!ctx->filter || dev->ifindex == ctx->filter);
}

/* A dump callback's return: more to come (skb->len), done (0) or error. */
int dp_genl_dump_ret(struct sk_buff *skb, int err)
{
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

/*
 * A dump may name one device: resolve it once, into the dump state.  The
 * core parsed and validated the request before the start callback.
 */
int dp_genl_dump_start_dev(struct netlink_callback *cb, int a_ifindex,
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

/* ---- pre_doit and post_doit ------------------------------------------- */

/* ops->internal_flags: what pre_doit prepares for a doit. */
#define DP_GENL_NEED_DEV	BIT(0)	/* the device: dp_genl_dev() */
#define DP_GENL_NEED_RTNL	BIT(1)	/* RTNL, held across the doit */
#define DP_GENL_NEED_TOPO	BIT(2)	/* the topology: dp_topo_hold() */

/*
 * The reference's tracker: a pointer, or nothing without
 * CONFIG_NET_DEV_REFCNT_TRACKER.
 */
static netdevice_tracker *dp_genl_tracker(struct genl_info *info)
{
	BUILD_BUG_ON(sizeof(netdevice_tracker) > sizeof(info->user_ptr[1]));
	return (netdevice_tracker *)&info->user_ptr[1];
}

/*
 * Look the device up once for the doit, and hold it, so that no RCU
 * section has to span the reply's allocation.  The family is parallel_ops:
 * a doit that changes the device asks for RTNL, taken before the lookup as
 * changelink has it.
 */
static int dp_genl_pre_doit(const struct dp_compat_genl_ops *ops,
			    struct sk_buff *skb, struct genl_info *info)
{
	bool rtnl = ops->internal_flags & DP_GENL_NEED_RTNL;
	struct net_device *dev;

	/* A doit names its device by the first two attributes of its set. */
	BUILD_BUG_ON((int)DPILLAR_A_ROUTE_IFINDEX != DPILLAR_A_DEV_IFINDEX);
	BUILD_BUG_ON((int)DPILLAR_A_ROUTE_IFNAME != DPILLAR_A_DEV_IFNAME);

	if (!(ops->internal_flags & DP_GENL_NEED_DEV))
		return 0;
	if (rtnl)
		rtnl_lock();
	rcu_read_lock();
	dev = dp_genl_dev_find(genl_info_net(info), info->attrs,
			       DPILLAR_A_DEV_IFINDEX, DPILLAR_A_DEV_IFNAME,
			       info->extack);
	if (!IS_ERR(dev))
		netdev_hold(dev, dp_genl_tracker(info), GFP_ATOMIC);
	rcu_read_unlock();
	if (IS_ERR(dev)) {
		if (rtnl)
			rtnl_unlock();
		return PTR_ERR(dev);
	}
	if ((ops->internal_flags & DP_GENL_NEED_TOPO) &&
	    !dp_topo_hold(netdev_priv(dev))) {
		NL_SET_ERR_MSG(info->extack,
			       "Device is being reconfigured: try again");
		netdev_put(dev, dp_genl_tracker(info));
		if (rtnl)
			rtnl_unlock();
		return -EBUSY;
	}
	info->user_ptr[0] = dev;
	return 0;
}

static void dp_genl_post_doit(const struct dp_compat_genl_ops *ops,
			      struct sk_buff *skb, struct genl_info *info)
{
	struct net_device *dev = info->user_ptr[0];

	if (dev && (ops->internal_flags & DP_GENL_NEED_TOPO))
		dp_topo_put(netdev_priv(dev));
	if (dev)
		netdev_put(dev, dp_genl_tracker(info));
	if (ops->internal_flags & DP_GENL_NEED_RTNL)
		rtnl_unlock();
}

/* ---- the family --------------------------------------------------------- */

static const struct genl_ops dp_genl_ops[] = {
	{
		.cmd		= DPILLAR_CMD_DEV_GET,
		.internal_flags	= DP_GENL_NEED_DEV | DP_GENL_NEED_TOPO,
		.doit		= dp_genl_dev_get_doit,
		.start		= dp_genl_dev_dump_start,
		.dumpit		= dp_genl_dev_dumpit,
		.policy		= dp_genl_dev_get_policy,
		.maxattr	= DPILLAR_A_DEV_IFNAME,
	},
	{
		.cmd		= DPILLAR_CMD_DEV_SET,
		/*
		 * The rule of changelink (rtnetlink): CAP_NET_ADMIN in the
		 * user namespace owning the device's network namespace.
		 */
		.flags		= GENL_UNS_ADMIN_PERM,
		.internal_flags	= DP_GENL_NEED_DEV | DP_GENL_NEED_RTNL,
		.doit		= dp_genl_dev_set_doit,
		.policy		= dp_genl_dev_set_policy,
		.maxattr	= DPILLAR_A_DEV_MAX,
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
		.internal_flags	= DP_GENL_NEED_DEV | DP_GENL_NEED_TOPO,
		.doit		= dp_genl_route_get_doit,
		.policy		= dp_genl_route_trace_policy,
		.maxattr	= DPILLAR_A_ROUTE_TIMEOUT_MS,
	},
	{
		.cmd		= DPILLAR_CMD_ROUTE_TRACE,
		/* Sends frames into the fabric: an administrator's tool. */
		.flags		= GENL_UNS_ADMIN_PERM,
		.internal_flags	= DP_GENL_NEED_DEV | DP_GENL_NEED_TOPO,
		.doit		= dp_genl_route_trace_doit,
		.policy		= dp_genl_route_trace_policy,
		.maxattr	= DPILLAR_A_ROUTE_TIMEOUT_MS,
	},
	{
		.cmd		= DPILLAR_CMD_ROUTE_PROBE,
		/* Sends frames into the fabric: an administrator's tool. */
		.flags		= GENL_UNS_ADMIN_PERM,
		.internal_flags	= DP_GENL_NEED_DEV | DP_GENL_NEED_TOPO,
		.doit		= dp_genl_route_probe_doit,
		.policy		= dp_genl_route_trace_policy,
		.maxattr	= DPILLAR_A_ROUTE_TIMEOUT_MS,
	},
	{
		.cmd		= DPILLAR_CMD_ROUTE_NEIGHS,
		/* Sends frames into the fabric: an administrator's tool. */
		.flags		= GENL_UNS_ADMIN_PERM,
		.internal_flags	= DP_GENL_NEED_DEV | DP_GENL_NEED_TOPO,
		.doit		= dp_genl_route_neighs_doit,
		.policy		= dp_genl_route_trace_policy,
		.maxattr	= DPILLAR_A_ROUTE_TIMEOUT_MS,
	},
	{
		.cmd		= DPILLAR_CMD_SHORTCUT_GET,
		.start		= dp_genl_shortcut_dump_start,
		.dumpit		= dp_genl_shortcut_dumpit,
		.policy		= dp_genl_shortcut_get_policy,
		.maxattr	= DPILLAR_A_SHORTCUT_IFINDEX,
	},
};

/*
 * resv_start_op stays 0: a new family, so the reserved header field and
 * a policy are enforced for every command.
 */
struct genl_family dp_genl_family __ro_after_init = {
	.name		= DPILLAR_FAMILY_NAME,
	.version	= DPILLAR_FAMILY_VERSION,
	.netnsok	= true,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.pre_doit	= dp_genl_pre_doit,
	.post_doit	= dp_genl_post_doit,
	.ops		= dp_genl_ops,
	.n_ops		= ARRAY_SIZE(dp_genl_ops),
	.mcgrps		= dp_genl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(dp_genl_mcgrps),
};

int __init dp_genl_register(void)
{
	BUILD_BUG_ON(DP_ADDR_TEXT_MAX - 1 != 159);
	BUILD_BUG_ON(DP_GENL_DEV_SET_MAX + 1 !=
		     ARRAY_SIZE(dp_genl_dev_set_policy));
	return genl_register_family(&dp_genl_family);
}

void dp_genl_unregister(void)
{
	genl_unregister_family(&dp_genl_family);
}
