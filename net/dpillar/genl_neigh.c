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

static size_t dp_genl_neigh_size(void)
{
	return nla_total_size(sizeof(u32)) * 7 +	/* u32 attributes */
	       nla_total_size(DP_ADDR_TEXT_MAX) +	/* ADDR */
	       nla_total_size(ETH_ALEN) * 2;		/* MAC, REJECTED_MAC */
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
	if (n->state == DPILLAR_NEIGH_STATE_MISWIRED &&
	    nla_put_u32(skb, DPILLAR_A_NEIGH_MISWIRED_COUNT,
			n->miswired_count))
		goto cancel;
	if (n->rejected_mac &&
	    dp_genl_put_mac(skb, DPILLAR_A_NEIGH_REJECTED_MAC, n->rejected_mac))
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

/* ---- NEIGH_NTF ---------------------------------------------------------- */

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

/*
 * Neighbour @idx of @port is alive, and a Hello in its name came from
 * another MAC, @mac, which was ignored: its entry as it stands, with the
 * rejected MAC.  The caller rate-limits.  Under RCU.
 */
void dp_genl_mac_change_ntf(struct dp_priv *dp, struct dp_port *port,
			    u32 idx, u64 mac, gfp_t gfp)
{
	struct dp_neigh_snap n;

	if (!dp_genl_neigh_listened(dp) ||
	    dp_neigh_snapshot(dp, port, idx, &n))
		return;
	n.rejected_mac = mac;
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
