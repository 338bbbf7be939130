// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "dpillar": S2's shortcut table.  SHORTCUT_GET
 * dumps it as shortcut.c snapshots it: a table that changes with every
 * discovery, so a dump is a view of each slot as it was when reached.
 */

#include <linux/netdevice.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "genl.h"

static int dp_genl_shortcut_fill(struct sk_buff *skb, const struct dp_priv *dp,
				 const struct dp_sc_snap *sn, u32 portid,
				 u32 seq)
{
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &dp_genl_family, NLM_F_MULTI,
			  DPILLAR_CMD_SHORTCUT_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, DPILLAR_A_SHORTCUT_IFINDEX, dp->dev->ifindex) ||
	    nla_put_u32(skb, DPILLAR_A_SHORTCUT_DST, sn->dst) ||
	    dp_genl_put_addr(skb, DPILLAR_A_SHORTCUT_DST_ADDR, dp, sn->dst) ||
	    nla_put_u32(skb, DPILLAR_A_SHORTCUT_HOPS, sn->dist) ||
	    nla_put_u32(skb, DPILLAR_A_SHORTCUT_AGE_MS, sn->age_ms) ||
	    nla_put_u32(skb, DPILLAR_A_SHORTCUT_IDLE_MS, sn->idle_ms))
		goto cancel;
	if (sn->dist &&
	    (nla_put_u32(skb, DPILLAR_A_SHORTCUT_PORT, sn->port) ||
	     nla_put_u32(skb, DPILLAR_A_SHORTCUT_NEXT, sn->peer)))
		goto cancel;
	if (sn->origin && nla_put_flag(skb, DPILLAR_A_SHORTCUT_ORIGIN))
		goto cancel;
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

int dp_genl_shortcut_dump_start(struct netlink_callback *cb)
{
	return dp_genl_dump_start_dev(cb, DPILLAR_A_SHORTCUT_IFINDEX, 0);
}

int dp_genl_shortcut_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct dp_genl_dump_ctx *ctx = dp_genl_dump_ctx(cb);
	u32 portid = NETLINK_CB(cb->skb).portid;
	struct net *net = sock_net(skb->sk);
	u32 seq = cb->nlh->nlmsg_seq;
	struct net_device *dev;
	struct dp_sc_snap sn;
	u32 pos = 0;
	int err = 0;

	rcu_read_lock();
	for_each_netdev_rcu(net, dev) {
		struct dp_priv *dp;

		if (!dp_genl_dump_match(dev, ctx))
			continue;
		if (pos++ < ctx->dev_pos)
			continue;
		dp = netdev_priv(dev);
		if (ctx->ifindex != dev->ifindex) {
			ctx->ifindex = dev->ifindex;
			ctx->slot = 0;
		}
		/* The addresses are the topology's text. */
		if (!dp_topo_hold(dp)) {
			NL_SET_ERR_MSG(cb->extack,
				       "Device is being reconfigured: try again");
			err = -EBUSY;
			break;
		}
		for (; ctx->slot < DP_SC_ENTRIES; ctx->slot++) {
			if (!dp_sc_snapshot(dp, ctx->slot, &sn))
				continue;
			err = dp_genl_shortcut_fill(skb, dp, &sn, portid, seq);
			if (err)
				break;
		}
		dp_topo_put(dp);
		if (err)
			break;
		ctx->dev_pos = pos;
	}
	rcu_read_unlock();
	return dp_genl_dump_ret(skb, err);
}
