// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "dpillar": neighbour tables.  NEIGH_GET dumps
 * them as neigh.c snapshots them, NEIGH_NTF reports their changes.
 */

#include <linux/jiffies.h>
#include <linux/netdevice.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "genl.h"

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

int dp_genl_neigh_dump_start(struct netlink_callback *cb)
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

int dp_genl_neigh_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
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
		if (!dp_topo_hold(dp)) {
			NL_SET_ERR_MSG(cb->extack,
				       "Device is being reconfigured: try again");
			err = -EBUSY;
			break;
		}
		err = dp_genl_neigh_dump_dev(skb, cb, dp, ctx);
		dp_topo_put(dp);
		if (err)
			break;
		ctx->dev_pos = pos;
	}
	rcu_read_unlock();
	return dp_genl_dump_ret(skb, err);
}
