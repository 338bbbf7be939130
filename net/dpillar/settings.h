/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A device's topology, address and settings as requests give them
 * (settings.c): what rtnetlink's link ops (rtnl.c) and genetlink's
 * DEV_SET (genl_dev.c) share.
 */
#ifndef _DPILLAR_SETTINGS_H
#define _DPILLAR_SETTINGS_H

#include "dpillar.h"

/**
 * struct dp_settings_attrs - the settings that may change while the device
 *	runs, as the attributes of one request (rtnetlink or genetlink);
 *	%NULL: not in the request
 * @hello_ms: the Hello interval
 * @dead_ms: the dead interval
 * @ip4_prefix: the IPv4 prefix
 * @ip4_plen: its length
 * @ip6_prefix: the IPv6 /96
 * @mode: the routing mode
 * @key6_prefix: the IPv6 /96 of key addresses
 * @fallback: the discovery fallback, on or off
 * @nic_offload: NIC offloads on qualified ports, on or off
 */
struct dp_settings_attrs {
	const struct nlattr *hello_ms;
	const struct nlattr *dead_ms;
	const struct nlattr *ip4_prefix;
	const struct nlattr *ip4_plen;
	const struct nlattr *ip6_prefix;
	const struct nlattr *mode;
	const struct nlattr *key6_prefix;
	const struct nlattr *fallback;
	const struct nlattr *nic_offload;
};

/* The settings that may change while the device runs. */
struct dp_settings {
	u32 hello_ms, dead_ms, mode;
	bool fallback, nic_offload;
	struct dp_prefix prefix;	/* rcu unused: a copy */
};

int dp_require(struct nlattr *data[], int type, const char *msg,
	       struct netlink_ext_ack *extack);
int dp_parse_topo(struct nlattr *data[], struct dp_topo *topo,
		  u32 *self, struct netlink_ext_ack *extack);
bool dp_has_topo(struct nlattr *data[], bool ports);
void dp_settings_get(const struct dp_priv *dp, struct dp_settings *s);
void dp_settings_default(struct dp_settings *s);
void dp_settings_attrs_ifla(struct nlattr *data[],
			    struct dp_settings_attrs *a);
int dp_settings_parse(const struct dp_settings_attrs *a,
		      const struct dp_topo *topo, struct dp_settings *s,
		      struct netlink_ext_ack *extack);
int dp_settings_apply(struct dp_priv *dp, const struct dp_settings *s);
int dp_settings_change(struct dp_priv *dp, const struct dp_settings_attrs *a,
		       struct netlink_ext_ack *extack);
int dp_topo_change(struct dp_priv *dp, struct nlattr *data[],
		   const struct dp_settings_attrs *a,
		   struct netlink_ext_ack *extack);
int dp_topo_put_params(struct sk_buff *skb, const struct dp_topo *t,
		       bool genl);

#endif /* _DPILLAR_SETTINGS_H */
