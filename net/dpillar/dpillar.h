/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dpillar: private definitions of the kernel module.
 */
#ifndef _DPILLAR_H
#define _DPILLAR_H

#include <linux/netdevice.h>
#include <linux/netlink.h>
#include <linux/u64_stats_sync.h>
#include <linux/dpillar.h>

#include "topo.h"

/*
 * Size the wire header will take in front of every IP packet.  The frame
 * format itself is defined with the data plane; the device already
 * reserves the room so that the MTU it advertises does not shrink later.
 */
#define DP_HDR_LEN	16

/* Why a frame was dropped: one counter each. */
enum dp_drop_reason {
	DP_DROP_NOFWD,		/* dpillar frame, forwarding not available */
	DP_DROP_TX_NOFWD,	/* packet from the stack, same reason */
	DP_DROP_MAX,
};

struct dp_pcpu_stats {
	u64_stats_t rx_packets;
	u64_stats_t rx_bytes;
	u64_stats_t tx_packets;
	u64_stats_t tx_bytes;
	u64_stats_t drops[DP_DROP_MAX];
	struct u64_stats_sync syncp;
};

struct dp_priv;

/* One lower device bound to the fabric. */
struct dp_port {
	struct net_device *dev;
	struct dp_priv *dp;
	netdevice_tracker dev_tracker;
	u32 index;		/* port number in the topology */
	struct rcu_head rcu;
};

struct dp_priv {
	struct net_device *dev;
	struct dp_topo topo;
	u32 self;		/* our node id */
	u32 nports;
	struct dp_port __rcu *ports[DPILLAR_PORTS_MAX];
	struct dp_pcpu_stats __percpu *stats;
};

/*
 * NL_SET_ERR_MSG() only takes literals; the topology core hands back its
 * reasons as pointers to static strings, which outlive the request too.
 */
static inline void dp_extack(struct netlink_ext_ack *extack,
			     const struct nlattr *attr, const char *msg)
{
	if (!extack)
		return;
	extack->_msg = msg;
	extack->bad_attr = attr;
}

extern struct rtnl_link_ops dp_link_ops;

/* port.c */
int dp_port_add(struct dp_priv *dp, struct net_device *lower, u32 index,
		struct netlink_ext_ack *extack);
void dp_port_del(struct dp_port *port);
struct dp_port *dp_port_get_rtnl(const struct net_device *dev);
void dp_update_carrier(struct dp_priv *dp);
void dp_update_mtu(struct dp_priv *dp);
int dp_netdev_event(struct notifier_block *nb, unsigned long event,
		    void *ptr);

/* device.c */
void dp_count_drop(struct dp_priv *dp, enum dp_drop_reason reason);

#endif /* _DPILLAR_H */
