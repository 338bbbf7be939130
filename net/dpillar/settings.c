// SPDX-License-Identifier: GPL-2.0
/*
 * A device's topology, address and settings (settings.h): the
 * IFLA_DPILLAR_* attributes that give them, parsed and checked for
 * rtnetlink's newlink and changelink (rtnl.c) and genetlink's DEV_SET
 * (genl_dev.c, which maps its own attributes onto them); the settings
 * changed while the device runs; the topology and address changed while
 * it is down; and the topology's parameters put into a message.
 */

#include <linux/delay.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/ipv6.h>
#include <net/netlink.h>

#include "dpillar.h"
#include "route.h"
#include "settings.h"

int dp_require(struct nlattr *data[], int type, const char *msg,
	       struct netlink_ext_ack *extack)
{
	if (data[type])
		return 0;
	dp_extack(extack, NULL, msg);
	return -EINVAL;
}

static u32 dp_get_u32_or0(struct nlattr *data[], int type)
{
	return data[type] ? nla_get_u32(data[type]) : 0;
}

/*
 * Our address: the text of IFLA_DPILLAR_ADDR (any topology), or column
 * and label (topologies that have that form); exactly one of the two.
 */
static int dp_parse_addr(struct nlattr *data[], const struct dp_topo *topo,
			 u32 *self, struct netlink_ext_ack *extack)
{
	struct nlattr *addr = data[IFLA_DPILLAR_ADDR];
	const char *why = NULL;
	int err;

	if (addr && (data[IFLA_DPILLAR_COLUMN] || data[IFLA_DPILLAR_LABEL])) {
		NL_SET_ERR_MSG_ATTR(extack, addr,
				    "Give the address as text or as column and label, not both");
		return -EINVAL;
	}
	if (!addr && !data[IFLA_DPILLAR_COLUMN] && !data[IFLA_DPILLAR_LABEL]) {
		NL_SET_ERR_MSG(extack, "Missing address");
		return -EINVAL;
	}
	if (addr) {
		err = dp_addr_parse(topo, nla_data(addr), self, &why);
		if (err)
			dp_extack(extack, addr, why);
		return err;
	}
	err = dp_require(data, IFLA_DPILLAR_COLUMN, "Missing column", extack) ?:
	      dp_require(data, IFLA_DPILLAR_LABEL, "Missing label", extack);
	if (err)
		return err;
	err = dp_addr_from_label(topo, nla_get_u32(data[IFLA_DPILLAR_COLUMN]),
				 nla_data(data[IFLA_DPILLAR_LABEL]),
				 nla_len(data[IFLA_DPILLAR_LABEL]), self, &why);
	if (err)
		dp_extack(extack, data[IFLA_DPILLAR_LABEL], why);
	return err;
}

/*
 * Plan mode: the node's own coordinates (DP_PARAM_COORDS), a native-endian
 * u32 per space (their length is bounded by the policy).  Their count is
 * checked against the spaces here when spaces are given (without them
 * the topology says "Missing spaces").
 */
static int dp_parse_coords(const struct nlattr *attr,
			   struct dp_topo_params *prm,
			   struct netlink_ext_ack *extack)
{
	u32 len;

	len = nla_len(attr);
	if (len % sizeof(u32) || len > sizeof(prm->coords)) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "coords must be whole u32s (a multiple of 4 bytes)");
		return -EINVAL;
	}
	prm->ncoords = len / sizeof(u32);
	if (prm->spaces && prm->ncoords != prm->spaces) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "coords must give one coordinate per space");
		return -EINVAL;
	}
	memcpy(prm->coords, nla_data(attr), len);
	return 0;
}

/*
 * The parameters every topology lists (struct dp_topo_ops.params), read
 * into @prm in the order of the registry and of their tables.  One that
 * the topology of @prm lacks is an error where its owner says so
 * (dp_topo_param.only), else it is read and the topology's init rejects
 * it.
 */
static int dp_parse_params(struct nlattr *data[], struct dp_topo_params *prm,
			   struct netlink_ext_ack *extack)
{
	const struct dp_topo_ops *mine = dp_topo_ops_by_kind(prm->kind);
	const struct dp_topo_param *q;
	u32 kind = 0, i = 0;
	int err;

	while ((q = dp_topo_param_next(&kind, &i))) {
		if (!data[q->ifla])
			continue;
		if (q->only && !(mine && dp_topo_param_by_ifla(mine, q->ifla))) {
			dp_extack(extack, data[q->ifla], q->only);
			return -EINVAL;
		}
		if (!(q->flags & DP_PARAM_COORDS)) {
			dp_topo_param_set_u32(prm, q, nla_get_u32(data[q->ifla]));
			continue;
		}
		/* Read once, though two topologies may list it. */
		if (prm->ncoords)
			continue;
		err = dp_parse_coords(data[q->ifla], prm, extack);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Checks that need no device: the topology parameters and our address.
 * Fills @topo and @self for the caller.
 */
int dp_parse_topo(struct nlattr *data[], struct dp_topo *topo,
		  u32 *self, struct netlink_ext_ack *extack)
{
	struct dp_topo_params prm = {};
	const char *why = NULL;
	int err;

	if (!data) {
		NL_SET_ERR_MSG(extack, "Missing dpillar parameters");
		return -EINVAL;
	}
	prm.kind = dp_get_u32_or0(data, IFLA_DPILLAR_TOPO) ?:
		   DPILLAR_TOPO_DPILLAR;
	err = dp_parse_params(data, &prm, extack);
	if (err)
		return err;
	/* The topology names what is missing ("Missing n"). */
	err = dp_topo_init(topo, &prm, &why);
	if (err) {
		dp_extack(extack, NULL, why);
		return err;
	}
	return dp_parse_addr(data, topo, self, extack);
}

/*
 * Whether a request gives a topology: any of its parameters, an address
 * or (@ports: newlink's view) a port list.  Without one, newlink creates
 * an unconfigured device; changelink attaches the NICs a port list gives.
 */
bool dp_has_topo(struct nlattr *data[], bool ports)
{
	static const int topo_attrs[] = {
		IFLA_DPILLAR_TOPO, IFLA_DPILLAR_COLUMN, IFLA_DPILLAR_LABEL,
		IFLA_DPILLAR_ADDR,
	};
	const struct dp_topo_param *q;
	u32 i, kind = 0;

	if (!data)
		return false;
	if (ports && data[IFLA_DPILLAR_PORTS])
		return true;
	for (i = 0; i < ARRAY_SIZE(topo_attrs); i++)
		if (data[topo_attrs[i]])
			return true;
	i = 0;
	while ((q = dp_topo_param_next(&kind, &i)))
		if (data[q->ifla])
			return true;
	return false;
}

void dp_settings_get(const struct dp_priv *dp, struct dp_settings *s)
{
	s->hello_ms = READ_ONCE(dp->hello_ms);
	s->dead_ms = READ_ONCE(dp->dead_ms);
	s->mode = READ_ONCE(dp->mode);
	s->fallback = READ_ONCE(dp->fallback);
	s->nic_offload = READ_ONCE(dp->nic_offload);
	rcu_read_lock();
	s->prefix = *dp_prefix(dp);
	rcu_read_unlock();
}

void dp_settings_default(struct dp_settings *s)
{
	static const struct in6_addr ip6 = {
		.s6_addr = { 0xfd, 0x64, 0x70, 0x69, 0x6c, 0x6c, 0x61, 0x72 },
	};

	memset(s, 0, sizeof(*s));
	s->hello_ms = DP_HELLO_MS_DEFAULT;
	s->dead_ms = DP_DEAD_MS_DEFAULT;
	s->fallback = true;
	s->prefix.ip4 = htonl(0x0a000000);	/* 10.0.0.0/8 */
	s->prefix.ip4_plen = 8;
	s->prefix.ip6 = ip6;
}

/* The changeable settings among the IFLA_DPILLAR_* attributes. */
void dp_settings_attrs_ifla(struct nlattr *data[],
			    struct dp_settings_attrs *a)
{
	a->hello_ms = data[IFLA_DPILLAR_HELLO_MS];
	a->dead_ms = data[IFLA_DPILLAR_DEAD_MS];
	a->ip4_prefix = data[IFLA_DPILLAR_IP4_PREFIX];
	a->ip4_plen = data[IFLA_DPILLAR_IP4_PREFIXLEN];
	a->ip6_prefix = data[IFLA_DPILLAR_IP6_PREFIX];
	a->mode = data[IFLA_DPILLAR_MODE];
	a->key6_prefix = data[IFLA_DPILLAR_KEY6_PREFIX];
	a->fallback = data[IFLA_DPILLAR_FALLBACK];
	a->nic_offload = data[IFLA_DPILLAR_NIC_OFFLOAD];
}

/*
 * Merge @a into @s and check the result as a whole.  The attributes are
 * already checked one by one by the policy (rtnetlink or genetlink, with
 * the same bounds).
 */
int dp_settings_parse(const struct dp_settings_attrs *a,
		      const struct dp_topo *topo, struct dp_settings *s,
		      struct netlink_ext_ack *extack)
{
	u32 mask;

	if (a->mode) {
		s->mode = nla_get_u32(a->mode);
		if (s->mode >= dp_sel_count(topo)) {
			NL_SET_ERR_MSG_ATTR(extack, a->mode,
					    "No such routing mode in this topology");
			return -EINVAL;
		}
	}

	/*
	 * The discovery fallback is taken in any mode and topology, and is
	 * in force only where dp_sc_fallback() says (the default mode of a
	 * topology without a discovery of its own).  Refusing it in a
	 * paper mode or on S2 would make the order of two independent
	 * settings matter, and lose an operator's "off" on the way through
	 * a paper mode or another topology.  The policy bounds it to 0..1.
	 */
	if (a->fallback)
		s->fallback = nla_get_u8(a->fallback);
	/*
	 * NIC offloads: taken whatever the ports are; in force only on the
	 * ports whose NIC is qualified (send.c), now or added later.  Off
	 * by default: nothing checks that a neighbour receives what a NIC
	 * made of our frames, so the operator vouches for the NICs.  The
	 * policy bounds it to 0..1.
	 */
	if (a->nic_offload)
		s->nic_offload = nla_get_u8(a->nic_offload);

	if (a->hello_ms)
		s->hello_ms = nla_get_u32(a->hello_ms);
	if (a->dead_ms)
		s->dead_ms = nla_get_u32(a->dead_ms);
	if (a->ip4_prefix)
		s->prefix.ip4 = nla_get_be32(a->ip4_prefix);
	if (a->ip4_plen)
		s->prefix.ip4_plen = nla_get_u8(a->ip4_plen);
	if (a->ip6_prefix)
		nla_memcpy(&s->prefix.ip6, a->ip6_prefix,
			   sizeof(s->prefix.ip6));
	if (a->key6_prefix)
		nla_memcpy(&s->prefix.key6, a->key6_prefix,
			   sizeof(s->prefix.key6));

	if (s->dead_ms <= s->hello_ms) {
		NL_SET_ERR_MSG_ATTR(extack, a->dead_ms ?: a->hello_ms,
				    "Dead interval must be longer than the Hello interval");
		return -EINVAL;
	}
	mask = s->prefix.ip4_plen ? ~0U << (32 - s->prefix.ip4_plen) : 0;
	if (ntohl(s->prefix.ip4) & ~mask) {
		NL_SET_ERR_MSG_ATTR(extack, a->ip4_prefix ?: a->ip4_plen,
				    "IPv4 prefix has host bits set");
		return -EINVAL;
	}
	if (s->prefix.ip6.s6_addr32[3]) {
		NL_SET_ERR_MSG_ATTR(extack, a->ip6_prefix,
				    "IPv6 prefix is a /96: its low 32 bits must be zero");
		return -EINVAL;
	}
	/*
	 * Key addresses (tx.c): a /96 whose low 32 bits are a key id, for
	 * topologies with key-based routing; :: turns it off.
	 */
	if (a->key6_prefix && !ipv6_addr_any(&s->prefix.key6) &&
	    !dp_topo_has_keys(topo)) {
		NL_SET_ERR_MSG_ATTR(extack, a->key6_prefix,
				    "This topology has no key-based routing");
		return -EINVAL;
	}
	if (s->prefix.key6.s6_addr32[3]) {
		NL_SET_ERR_MSG_ATTR(extack, a->key6_prefix,
				    "Key prefix is a /96: its low 32 bits must be zero");
		return -EINVAL;
	}
	if (!ipv6_addr_any(&s->prefix.key6) &&
	    !memcmp(&s->prefix.key6, &s->prefix.ip6, 12)) {
		NL_SET_ERR_MSG_ATTR(extack, a->key6_prefix ?: a->ip6_prefix,
				    "Key prefix must differ from the node prefix");
		return -EINVAL;
	}
	return 0;
}

/* Under RTNL; fails only to allocate, and then changes nothing. */
int dp_settings_apply(struct dp_priv *dp, const struct dp_settings *s)
{
	struct dp_prefix *p, *old;

	p = kmemdup(&s->prefix, sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	old = rcu_replace_pointer(dp->prefix, p, lockdep_rtnl_is_held());
	if (old)
		kfree_rcu(old, rcu);

	WRITE_ONCE(dp->hello_ms, s->hello_ms);
	WRITE_ONCE(dp->dead_ms, s->dead_ms);
	WRITE_ONCE(dp->dead_jiffies, msecs_to_jiffies(s->dead_ms));
	dp_rmemo_neigh_changed(dp);	/* every neighbour's life */
	WRITE_ONCE(dp->mode, s->mode);
	/*
	 * Off while traffic flows: the next frame the topology gives up on
	 * is dropped, and SHORTCUT_DATA from a neighbour still using a
	 * shortcut through us is a type we no longer take (rx.c).  The
	 * shortcuts already learned stay until they idle out, unused.
	 */
	WRITE_ONCE(dp->fallback, s->fallback);
	WRITE_ONCE(dp->nic_offload, s->nic_offload);
	return 0;
}

/*
 * Change the settings of a running device: changelink and the genetlink
 * DEV_SET, both under RTNL, which orders them.  All or nothing.
 */
int dp_settings_change(struct dp_priv *dp, const struct dp_settings_attrs *a,
		       struct netlink_ext_ack *extack)
{
	struct dp_settings set;
	int err;

	dp_settings_get(dp, &set);
	err = dp_settings_parse(a, &dp->topo, &set, extack);
	if (err)
		return err;
	return dp_settings_apply(dp, &set);
}

/* Up to DP_TOPO_DRAIN_MS for the genetlink readers of the topology. */
#define DP_TOPO_DRAIN_MS	200

static void dp_topo_drain(struct dp_priv *dp)
{
	unsigned long end = jiffies + msecs_to_jiffies(DP_TOPO_DRAIN_MS);

	while (atomic_read(&dp->topo_users) && time_before(jiffies, end))
		usleep_range(500, 1000);
}

/*
 * Give @dp a topology and an address ("dpctl set", genetlink DEV_SET, and
 * changelink): @data holds them as IFLA_DPILLAR_* attributes (DEV_SET maps
 * its own onto them), @a the settings that come along.  All or nothing
 * but for the NICs, which are bound again.  Under RTNL.
 *
 * Only while the device is down (as bonding changes its mode): no packet
 * is sent, no Hello timer or path selection runs, and the receive path
 * only sees ports that are released first.  The NICs stay attached to
 * the same port numbers; their neighbour tables are sized by the topology,
 * so each is released and bound again.  A NIC on a port the new topology
 * does not have must be released (nomaster) first.
 */
int dp_topo_change(struct dp_priv *dp, struct nlattr *data[],
		   const struct dp_settings_attrs *a,
		   struct netlink_ext_ack *extack)
{
	struct net_device *lower[DPILLAR_PORTS_MAX] = {};
	struct dp_settings set;
	struct dp_topo *topo;
	char desc[64];
	u32 self, i;
	int err;

	ASSERT_RTNL();
	if (netif_running(dp->dev)) {
		NL_SET_ERR_MSG(extack,
			       "Device must be down to change its topology or address");
		return -EBUSY;
	}
	if (data[IFLA_DPILLAR_PORTS]) {
		NL_SET_ERR_MSG_ATTR(extack, data[IFLA_DPILLAR_PORTS],
				    "Ports are attached by a request of their own, not with a change of topology");
		return -EOPNOTSUPP;
	}
	topo = kmalloc(sizeof(*topo), GFP_KERNEL);
	if (!topo)
		return -ENOMEM;
	err = dp_parse_topo(data, topo, &self, extack);
	if (err)
		goto out;
	dp_settings_get(dp, &set);
	/* Mode numbers are the topology's own: the default, unless given. */
	if (topo->kind != dp->topo.kind)
		set.mode = 0;
	err = dp_settings_parse(a, topo, &set, extack);
	if (err)
		goto out;
	for (i = topo->nports; i < dp->nports; i++) {
		if (rtnl_dereference(dp->ports[i])) {
			NL_SET_ERR_MSG(extack,
				       "A NIC is attached to a port the new topology does not have: release it first (nomaster)");
			err = -EBUSY;
			goto out;
		}
	}

	WRITE_ONCE(dp->topo_changing, true);
	/* Our flag before their count: pairs with dp_topo_hold(). */
	smp_mb();
	/*
	 * No reader gets in from here on; those in finish.  A dump's step
	 * holds the topology for one message, so dumps run in a loop (any
	 * user may) no longer keep a change out; only a route trace,
	 * which waits for its probes (DP_PROBE_REQ_MS at most), may
	 * outlast the wait, bounded so that RTNL is not held for long.
	 */
	dp_topo_drain(dp);
	if (atomic_read(&dp->topo_users)) {
		NL_SET_ERR_MSG(extack,
			       "A genetlink request (route trace?) is using the topology: try again");
		err = -EBUSY;
		goto out_done;
	}
	err = dp_settings_apply(dp, &set);
	if (err)
		goto out_done;

	for (i = 0; i < dp->nports; i++) {
		struct dp_port *port = rtnl_dereference(dp->ports[i]);

		if (port) {
			lower[i] = port->dev;
			dp_port_del(port);
		}
	}
	/* No receive path or genetlink reader sees the old topology now. */
	synchronize_net();
	/*
	 * So its tables go with it, and the new one gets its own before any
	 * reader can see it (the receive path from the first port added
	 * below, genetlink once topo_changing is clear, RTNL's after us):
	 * readers never see t->alloc change.  Without memory it routes as
	 * well, deriving what the tables hold.  The copy carries the
	 * pointer; kfree(topo) below frees only the struct.
	 */
	dp_topo_free(&dp->topo);
	dp_topo_alloc(topo);
	dp->topo = *topo;
	dp->self = self;
	dp->nports = topo->nports;
	dp_rmemo_flush(dp);
	for (i = 0; i < DPILLAR_PORTS_MAX; i++) {
		int ret;

		if (!lower[i])
			continue;
		ret = dp_port_add(dp, lower[i], i, extack);
		if (ret) {
			/* Only allocation fails here: the port is absent. */
			err = err ?: ret;
			dp_port_ntf(dp, i, lower[i],
				    DPILLAR_PORT_STATE_ABSENT);
		}
	}
	dp_update_mtu(dp);
	dp_update_carrier(dp);
	dp_topo_describe(&dp->topo, desc, sizeof(desc));
	netdev_info(dp->dev, "topology %s, node %u\n", desc, dp->self);
out_done:
	/* Release: a reader that sees the flag clear sees the new topology. */
	smp_store_release(&dp->topo_changing, false);
out:
	kfree(topo);
	return err;
}

/*
 * The topology's parameters (struct dp_topo_ops.params), as rtnetlink
 * (@genl false) or the genl family shows them: the one walk both fills
 * share, so that no fill names a topology.
 */
int dp_topo_put_params(struct sk_buff *skb, const struct dp_topo *t,
		       bool genl)
{
	const struct dp_topo_param *prm;
	u32 i, v;

	for (i = 0; i < t->ops->nparams; i++) {
		prm = &t->ops->params[i];
		if (prm->flags & DP_PARAM_HIDDEN)
			continue;
		if (prm->flags & DP_PARAM_COORDS) {
			if (t->p.ncoords &&
			    nla_put(skb, genl ? prm->genl : prm->ifla,
				    t->p.ncoords * sizeof(u32), t->p.coords))
				return -EMSGSIZE;
			continue;
		}
		v = dp_topo_param_u32(&t->p, prm);
		if ((v || (prm->flags & DP_PARAM_ZERO)) &&
		    nla_put_u32(skb, genl ? prm->genl : prm->ifla, v))
			return -EMSGSIZE;
	}
	return 0;
}
