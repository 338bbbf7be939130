/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generic netlink family "dpillar", private to its files: genl.c (the
 * family, the device a request names, what the objects share), genl_dev.c,
 * genl_neigh.c, genl_route.c and genl_shortcut.c (one object each), and
 * notify.c (the notifications, below the others).
 */
#ifndef _DPILLAR_GENL_H
#define _DPILLAR_GENL_H

#include <linux/netdevice.h>
#include <net/genetlink.h>

#include "compat.h"
#include "dpillar.h"

enum dp_genl_mcgrp {
	DP_GENL_MCGRP_EVENTS,
};

extern struct genl_family dp_genl_family;

/*
 * The device a doit command names, which pre_doit looked up and holds a
 * reference on until post_doit.
 */
static inline struct net_device *dp_genl_dev(const struct genl_info *info)
{
	return info->user_ptr[0];
}

static inline struct dp_priv *dp_genl_dp(const struct genl_info *info)
{
	return netdev_priv(dp_genl_dev(info));
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

static inline struct dp_genl_dump_ctx *
dp_genl_dump_ctx(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct dp_genl_dump_ctx) >
		     sizeof_field(struct netlink_callback, ctx));
	return (struct dp_genl_dump_ctx *)cb->ctx;
}

bool dp_genl_dump_match(const struct net_device *dev,
			const struct dp_genl_dump_ctx *ctx);
int dp_genl_dump_ret(struct sk_buff *skb, int err);
int dp_genl_dump_start_dev(struct netlink_callback *cb, int a_ifindex,
			   int a_ifname);
int dp_genl_put_addr(struct sk_buff *skb, int type, const struct dp_priv *dp,
		     u32 id);
int dp_genl_put_mac(struct sk_buff *skb, int type, u64 mac);

/* notify.c: what a dump and a notification share */
size_t dp_genl_port_size(void);
int dp_genl_put_port(struct sk_buff *skb, const struct dp_priv *dp,
		     u32 index, const struct dp_port_snap *snap);
int dp_genl_neigh_fill(struct sk_buff *skb, const struct dp_priv *dp,
		       const struct dp_neigh_snap *n, u32 portid, u32 seq,
		       int flags, u8 cmd, struct netlink_callback *cb);

/* genl_dev.c */
int dp_genl_dev_get_doit(struct sk_buff *skb, struct genl_info *info);
int dp_genl_dev_dump_start(struct netlink_callback *cb);
int dp_genl_dev_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int dp_genl_dev_set_doit(struct sk_buff *skb, struct genl_info *info);
/*
 * DEV_SET's last attribute (its policy's and maxattr in genl.c, which
 * spec-check reads literally): the size of the attributes it gets, which
 * the topologies' parameters must fit.
 */
#define DP_GENL_DEV_SET_MAX	DPILLAR_A_DEV_MAX

/* genl_neigh.c */
int dp_genl_neigh_dump_start(struct netlink_callback *cb);
int dp_genl_neigh_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

/* genl_shortcut.c */
int dp_genl_shortcut_dump_start(struct netlink_callback *cb);
int dp_genl_shortcut_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

/* genl_route.c */
int dp_genl_route_get_doit(struct sk_buff *skb, struct genl_info *info);
int dp_genl_route_trace_doit(struct sk_buff *skb, struct genl_info *info);
int dp_genl_route_probe_doit(struct sk_buff *skb, struct genl_info *info);
int dp_genl_route_neighs_doit(struct sk_buff *skb, struct genl_info *info);
#if IS_ENABLED(CONFIG_KUNIT)
/*
 * ROUTE_GET's answer for @dst (its attributes into @skb), under
 * rcu_read_lock, for the KUnit tests.
 */
int dp_genl_route_fill(struct sk_buff *skb, struct dp_priv *dp, u32 dst,
		       u32 hash, bool may_resolve, const struct nlattr *dst_attr,
		       struct netlink_ext_ack *extack);
#endif

#endif /* _DPILLAR_GENL_H */
