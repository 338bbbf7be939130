// SPDX-License-Identifier: GPL-2.0
/*
 * Notifications of the generic netlink family "dpillar" (PORT_NTF,
 * NEIGH_NTF), and the two messages a notification shares with a dump.
 *
 * Below every other file that talks genetlink: the layers that see an
 * event (port.c for a port's state, neigh.c for a neighbour's) take the
 * snapshot of what changed and hand it here, and the dumps of genl_dev.c
 * and genl_neigh.c fill their entries with the same functions.  Nothing
 * here calls back into those layers, so a port or a neighbour never
 * depends on the netlink code above it.
 */

#include <linux/jiffies.h>
#include <linux/netdevice.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "genl.h"

/* Whether anyone listens to the events of @dp's namespace. */
bool dp_notify_listened(const struct dp_priv *dp)
{
	return genl_has_listeners(&dp_genl_family, dev_net(dp->dev),
				  DP_GENL_MCGRP_EVENTS);
}

/* ---- a port ------------------------------------------------------------- */

size_t dp_genl_port_size(void)
{
	return nla_total_size(0) +			/* DEV_PORT */
	       nla_total_size(sizeof(u32)) * 7 +	/* u32 attributes */
	       nla_total_size(sizeof(u8)) +		/* PORT_NIC_OFFLOAD */
	       nla_total_size(IFNAMSIZ);		/* PORT_IFNAME */
}

/* One DEV_PORT nest. */
int dp_genl_put_port(struct sk_buff *skb, const struct dp_priv *dp,
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
	    nla_put_u32(skb, DPILLAR_A_PORT_REACHABLE, snap->reachable) ||
	    (lower &&
	     nla_put_u8(skb, DPILLAR_A_PORT_NIC_OFFLOAD, snap->nic_offload))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * PORT_NTF: port @index of @dp changed state, as @snap says (taken by the
 * caller with the device and state of the event: the port may be gone
 * already).  Under RTNL.
 */
void dp_notify_port(struct dp_priv *dp, u32 index,
		    const struct dp_port_snap *snap)
{
	struct net *net = dev_net(dp->dev);
	struct sk_buff *skb;
	void *hdr;

	skb = genlmsg_new(nla_total_size(sizeof(u32)) +
			  nla_total_size(IFNAMSIZ) + dp_genl_port_size(),
			  GFP_KERNEL);
	if (!skb)
		return;
	hdr = genlmsg_put(skb, 0, 0, &dp_genl_family, 0, DPILLAR_CMD_PORT_NTF);
	if (!hdr)
		goto err_free;
	if (nla_put_u32(skb, DPILLAR_A_DEV_IFINDEX, dp->dev->ifindex) ||
	    nla_put_string(skb, DPILLAR_A_DEV_IFNAME, dp->dev->name) ||
	    dp_genl_put_port(skb, dp, index, snap))
		goto err_free;
	genlmsg_end(skb, hdr);
	genlmsg_multicast_netns(&dp_genl_family, net, skb, 0,
				DP_GENL_MCGRP_EVENTS, GFP_KERNEL);
	return;

err_free:
	nlmsg_free(skb);
}

/* ---- a neighbour -------------------------------------------------------- */

static size_t dp_genl_neigh_size(void)
{
	return nla_total_size(sizeof(u32)) * 7 +	/* u32 attributes */
	       nla_total_size(DP_ADDR_TEXT_MAX) +	/* ADDR */
	       nla_total_size(ETH_ALEN) * 2;		/* MAC, REJECTED_MAC */
}

/* One NEIGH_GET entry or NEIGH_NTF (@cmd), of @n. */
int dp_genl_neigh_fill(struct sk_buff *skb, const struct dp_priv *dp,
		       const struct dp_neigh_snap *n, u32 portid, u32 seq,
		       int flags, u8 cmd, struct netlink_callback *cb)
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

/*
 * NEIGH_NTF of @n: a neighbour became reachable or unreachable, a Hello
 * in a live neighbour's name came from another MAC, or a miswired sender
 * was heard (neigh.c says which in @n).  Under RCU.
 */
void dp_notify_neigh(struct dp_priv *dp, const struct dp_neigh_snap *n,
		     gfp_t gfp)
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
