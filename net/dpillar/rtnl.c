// SPDX-License-Identifier: GPL-2.0
/*
 * The "dpillar" rtnetlink link type (dp_link_ops), which creates dp0: its
 * attribute policy, validate, newlink and changelink (their topology and
 * settings are settings.c's), and the link messages of the device and of
 * its ports (fill_info, fill_slave_info).  The device itself is netdev.c's.
 */

#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/ipv6.h>
#include <net/rtnetlink.h>

#include "dpillar.h"
#include "settings.h"

static const struct nla_policy dp_port_policy[IFLA_DPILLAR_PORT_MAX + 1] = {
	[IFLA_DPILLAR_PORT]	= { .type = NLA_U32 },
};

static const struct nla_policy dp_policy[IFLA_DPILLAR_MAX + 1] = {
	[IFLA_DPILLAR_TOPO]	= NLA_POLICY_RANGE(NLA_U32, DPILLAR_TOPO_DPILLAR,
						   DPILLAR_TOPO_MAX),
	[IFLA_DPILLAR_COLUMN]	= { .type = NLA_U32 },
	[IFLA_DPILLAR_LABEL]	= { .type = NLA_BINARY,
				    .len = DPILLAR_LABEL_MAX },
	[IFLA_DPILLAR_PORTS]	= NLA_POLICY_NESTED(dp_port_policy),
	[IFLA_DPILLAR_NODE_ID]	= { .type = NLA_REJECT,
				    .reject_message = "Node id is read-only" },
	[IFLA_DPILLAR_HELLO_MS]	= NLA_POLICY_RANGE(NLA_U32, DPILLAR_HELLO_MS_MIN,
						   DPILLAR_HELLO_MS_MAX),
	[IFLA_DPILLAR_DEAD_MS]	= NLA_POLICY_RANGE(NLA_U32,
						   DPILLAR_HELLO_MS_MIN + 1,
						   DPILLAR_DEAD_MS_MAX),
	[IFLA_DPILLAR_IP4_PREFIX] = { .type = NLA_BE32 },
	[IFLA_DPILLAR_IP4_PREFIXLEN] = NLA_POLICY_MAX(NLA_U8, 31),
	[IFLA_DPILLAR_IP6_PREFIX] = NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[IFLA_DPILLAR_ADDR]	= { .type = NLA_NUL_STRING,
				    .len = DP_ADDR_TEXT_MAX - 1 },
	/* The topology's modes: checked against it in dp_settings_parse(). */
	[IFLA_DPILLAR_MODE]	= NLA_POLICY_MAX(NLA_U32, DPILLAR_MODE_MAX),
	[IFLA_DPILLAR_KEY6_PREFIX] =
		NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[IFLA_DPILLAR_FALLBACK]	= NLA_POLICY_MAX(NLA_U8, 1),
	[IFLA_DPILLAR_NIC_OFFLOAD] = NLA_POLICY_MAX(NLA_U8, 1),
	/*
	 * The topology's parameters (their list, topo.h): the node count is
	 * read-only but for S2, where it is one; the coordinates are whole
	 * u32s, one per space (dp_parse_coords()).
	 */
	DP_PARAM_POLICY_IFLA
};

static int dp_validate(struct nlattr *tb[], struct nlattr *data[],
		       struct netlink_ext_ack *extack)
{
	if (tb[IFLA_ADDRESS]) {
		NL_SET_ERR_MSG(extack, "A dpillar device has no link address");
		return -EINVAL;
	}
	return 0;
}

/*
 * Resolve the nested port list to devices, in port order, @attr[i] the
 * entry of port i: ifindex 0 is a port without a NIC (yet), @lower[i]
 * NULL.  newlink (@exact) gives an entry for each of the topology's
 * @want ports; changelink up to that many, the ports after its list left
 * as they are.
 */
static int dp_parse_ports(struct net *net, u32 want, bool exact,
			  struct nlattr *nest, struct net_device **lower,
			  struct nlattr **attr, struct netlink_ext_ack *extack)
{
	struct nlattr *a;
	u32 n = 0, i;
	int rem;

	nla_for_each_nested(a, nest, rem) {
		u32 ifindex;

		if (nla_type(a) != IFLA_DPILLAR_PORT) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "Unknown attribute in port list");
			return -EINVAL;
		}
		if (n == want) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "Too many ports for this topology");
			return -EINVAL;
		}
		attr[n] = a;
		ifindex = nla_get_u32(a);
		lower[n] = NULL;
		if (!ifindex) {
			n++;
			continue;
		}
		lower[n] = __dev_get_by_index(net, ifindex);
		if (!lower[n]) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "Port device does not exist");
			return -ENODEV;
		}
		for (i = 0; i < n; i++) {
			if (lower[i] == lower[n]) {
				NL_SET_ERR_MSG_ATTR(extack, a,
						    "Ports must be distinct devices");
				return -EINVAL;
			}
		}
		n++;
	}
	if (exact && n != want) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "Too few ports for this topology");
		return -EINVAL;
	}
	return 0;
}

static int dp_newlink(struct net *src_net, struct net_device *dev,
		      struct nlattr *tb[], struct nlattr *data[],
		      struct netlink_ext_ack *extack)
{
	struct net_device *lower[DPILLAR_PORTS_MAX];
	struct nlattr *attr[DPILLAR_PORTS_MAX];
	struct dp_priv *dp = netdev_priv(dev);
	struct dp_settings_attrs attrs;
	struct dp_settings set;
	u32 i;
	int err;

	/*
	 * "ip link add dp0 type dpillar": no topology, an unconfigured
	 * device (topology "none", dpillar.rst) that dpctl set configures.
	 */
	if (!dp_has_topo(data, true)) {
		dp_topo_init_none(&dp->topo);
		dp->self = DP_NODE_NONE;
	} else {
		err = dp_parse_topo(data, &dp->topo, &dp->self, extack) ?:
		      dp_require(data, IFLA_DPILLAR_PORTS, "Missing ports",
				 extack);
		if (err)
			return err;
	}
	dp_settings_default(&set);
	memset(&attrs, 0, sizeof(attrs));
	if (data)
		dp_settings_attrs_ifla(data, &attrs);
	err = dp_settings_parse(&attrs, &dp->topo, &set, extack);
	if (err)
		return err;
	/*
	 * Ports are named by ifindex in the namespace the request came from,
	 * and must live where the device lives: a port elsewhere could be
	 * moved or deleted behind our back without us being able to follow.
	 */
	if (dp_configured(dp) && !net_eq(src_net, dev_net(dev))) {
		NL_SET_ERR_MSG(extack,
			       "Device must be created in its ports' network namespace");
		return -EINVAL;
	}
	memset(lower, 0, sizeof(lower));
	if (dp_configured(dp)) {
		err = dp_parse_ports(src_net, dp->topo.nports, true,
				     data[IFLA_DPILLAR_PORTS], lower, attr,
				     extack);
		if (err)
			return err;
	}
	dp->nports = dp->topo.nports;
	err = dp_settings_apply(dp, &set);
	if (err)
		return err;

	/*
	 * register_netdevice() can fail before ndo_init (an invalid name such
	 * as "dp:0" or "a%d%d"), in ndo_init, or after it; only the last runs
	 * the destructor, which clears the pointer it frees.  Whatever is
	 * left is ours: the device was never visible, so no reader is either.
	 */
	/*
	 * The topology's tables (dp_topo_alloc()), before the device is
	 * visible: no reader sees t->alloc change.  dp_dev_free() frees
	 * them, and the failure below what the destructor did not.
	 */
	dp_topo_alloc(&dp->topo);
	err = register_netdevice(dev);
	if (err) {
		kfree(rcu_replace_pointer(dp->prefix, NULL, true));
		dp_topo_free(&dp->topo);
		return err;
	}

	/*
	 * A port whose NIC is not there (yet) is absent, as one whose NIC
	 * went away: "ip link set NIC master DEV" or changelink's port
	 * list attaches it later.  Every port may be: the device, its
	 * address and routes are in place before the first NIC comes.
	 */
	for (i = 0; i < dp->nports; i++) {
		if (!lower[i])
			continue;
		err = dp_port_add(dp, lower[i], i, extack);
		if (err)
			goto err_unregister;
	}
	dp_update_mtu(dp);
	dp_update_carrier(dp);
	return 0;

err_unregister:
	/* ndo_uninit releases the ports already bound. */
	unregister_netdevice(dev);
	return err;
}

static int dp_changelink(struct net_device *dev, struct nlattr *tb[],
			 struct nlattr *data[],
			 struct netlink_ext_ack *extack)
{
	struct net_device *lower[DPILLAR_PORTS_MAX] = {};
	struct nlattr *attr[DPILLAR_PORTS_MAX] = {};
	struct dp_priv *dp = netdev_priv(dev);
	struct dp_settings_attrs attrs;
	struct dp_settings set;
	int err;

	if (!data)
		return 0;
	dp_settings_attrs_ifla(data, &attrs);
	/* A topology or an address: what dpctl set does through DEV_SET. */
	if (dp_has_topo(data, false))
		return dp_topo_change(dp, data, &attrs, extack);
	if (!data[IFLA_DPILLAR_PORTS])
		return dp_settings_change(dp, &attrs, extack);

	/*
	 * NICs for ports that have none (dpctl up -W, as each NIC comes):
	 * entry i, an ifindex, attaches that NIC to port i; 0 leaves the
	 * port as it is.  Everything is checked before anything changes;
	 * only memory can then fail the settings (dp_settings_apply()),
	 * before the ports, or a port, whose attach is undone whole.
	 */
	dp_settings_get(dp, &set);
	err = dp_settings_parse(&attrs, &dp->topo, &set, extack) ?:
	      dp_parse_ports(dev_net(dev), dp->nports, false,
			     data[IFLA_DPILLAR_PORTS], lower, attr, extack) ?:
	      dp_ports_check(dp, lower, attr, extack) ?:
	      dp_settings_apply(dp, &set);
	if (err)
		return err;
	return dp_ports_attach(dp, lower, extack);
}

static size_t dp_get_size(const struct net_device *dev)
{
	const struct dp_priv *dp = netdev_priv(dev);

	return nla_total_size(sizeof(u32)) * 13 +	/* u32 attributes */
	       nla_total_size(sizeof(u8)) * 3 +		/* IP4_PREFIXLEN, FALLBACK,
							 * NIC_OFFLOAD
							 */
	       nla_total_size(sizeof(struct in6_addr)) * 2 + /* IP6, KEY6 */
	       nla_total_size(DPILLAR_LABEL_MAX) +	/* LABEL */
	       nla_total_size(sizeof(dp->topo.p.coords)) + /* COORDS */
	       nla_total_size(DP_ADDR_TEXT_MAX) +	/* ADDR */
	       nla_total_size(0) +			/* PORTS */
	       nla_total_size(sizeof(u32)) * dp->nports;
}

static int dp_fill_info(struct sk_buff *skb, const struct net_device *dev)
{
	const struct dp_priv *dp = netdev_priv(dev);
	u32 column, nsym = DPILLAR_LABEL_MAX, i;
	char addr[DP_ADDR_TEXT_MAX];
	u8 sym[DPILLAR_LABEL_MAX];
	struct dp_settings set;
	struct nlattr *nest;

	dp_settings_get(dp, &set);
	dp_addr_format(&dp->topo, dp->self, addr, sizeof(addr));
	if (nla_put_u32(skb, IFLA_DPILLAR_TOPO, dp->topo.kind) ||
	    dp_topo_put_params(skb, &dp->topo, false) ||
	    nla_put_string(skb, IFLA_DPILLAR_ADDR, addr))
		return -EMSGSIZE;
	/* Column and label, for the topologies that have that form. */
	if (!dp_addr_to_label(&dp->topo, dp->self, &column, sym, &nsym) &&
	    (nla_put_u32(skb, IFLA_DPILLAR_COLUMN, column) ||
	     nla_put(skb, IFLA_DPILLAR_LABEL, nsym, sym)))
		return -EMSGSIZE;
	if (nla_put_u32(skb, IFLA_DPILLAR_NODE_ID, dp->self) ||
	    nla_put_u32(skb, IFLA_DPILLAR_NODES, dp->topo.nodes) ||
	    nla_put_u32(skb, IFLA_DPILLAR_HELLO_MS, set.hello_ms) ||
	    nla_put_u32(skb, IFLA_DPILLAR_DEAD_MS, set.dead_ms) ||
	    nla_put_be32(skb, IFLA_DPILLAR_IP4_PREFIX, set.prefix.ip4) ||
	    nla_put_u8(skb, IFLA_DPILLAR_IP4_PREFIXLEN, set.prefix.ip4_plen) ||
	    nla_put(skb, IFLA_DPILLAR_IP6_PREFIX, sizeof(set.prefix.ip6),
		    &set.prefix.ip6) ||
	    nla_put_u32(skb, IFLA_DPILLAR_MODE, set.mode) ||
	    nla_put_u8(skb, IFLA_DPILLAR_FALLBACK, set.fallback) ||
	    nla_put_u8(skb, IFLA_DPILLAR_NIC_OFFLOAD, set.nic_offload) ||
	    (!ipv6_addr_any(&set.prefix.key6) &&
	     nla_put(skb, IFLA_DPILLAR_KEY6_PREFIX, sizeof(set.prefix.key6),
		     &set.prefix.key6)))
		return -EMSGSIZE;

	nest = nla_nest_start(skb, IFLA_DPILLAR_PORTS);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < dp->nports; i++) {
		struct dp_port *port = rtnl_dereference(dp->ports[i]);

		/* A detached port shows as ifindex 0, keeping port order. */
		if (nla_put_u32(skb, IFLA_DPILLAR_PORT,
				port ? port->dev->ifindex : 0)) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(skb, nest);
	return 0;
}

static size_t dp_get_slave_size(const struct net_device *dev,
				const struct net_device *slave_dev)
{
	return nla_total_size(sizeof(u32)) * 4;	/* PORT .. REACHABLE */
}

/*
 * A port's number and state, as the port's own link message shows them
 * (under RTNL or rcu_read_lock, as dp_port_snapshot() wants).  The port is
 * found in our table, not through the NIC's rx_handler_data: a NIC is
 * linked to us a moment before its receive path is ours.
 */
static int dp_fill_slave_info(struct sk_buff *skb,
			      const struct net_device *dev,
			      const struct net_device *slave_dev)
{
	const struct dp_priv *dp = netdev_priv(dev);
	const struct dp_port *port;
	struct dp_port_info pi;
	struct dp_port_snap snap;
	u32 i;

	for (i = 0; i < dp->nports; i++) {
		port = rcu_dereference_rtnl(dp->ports[i]);
		if (port && port->dev == slave_dev)
			break;
	}
	if (i == dp->nports)
		return 0;
	dp_port_snapshot(dp, i, &snap);
	dp_port_info(&dp->topo, dp->self, i, &pi);
	if (nla_put_u32(skb, IFLA_DPILLAR_SLAVE_PORT, i) ||
	    nla_put_u32(skb, IFLA_DPILLAR_SLAVE_STATE, snap.state) ||
	    nla_put_u32(skb, IFLA_DPILLAR_SLAVE_NEIGHS, pi.nneigh) ||
	    nla_put_u32(skb, IFLA_DPILLAR_SLAVE_REACHABLE, snap.reachable))
		return -EMSGSIZE;
	return 0;
}

struct rtnl_link_ops dp_link_ops __read_mostly = {
	.kind		= "dpillar",
	.priv_size	= sizeof(struct dp_priv),
	.setup		= dp_setup,
	.maxtype	= IFLA_DPILLAR_MAX,
	.policy		= dp_policy,
	.validate	= dp_validate,
	.newlink	= dp_newlink,
	.changelink	= dp_changelink,
	.get_size	= dp_get_size,
	.fill_info	= dp_fill_info,
	.get_slave_size	= dp_get_slave_size,
	.fill_slave_info = dp_fill_slave_info,
};
EXPORT_SYMBOL_IF_KUNIT(dp_link_ops);
