// SPDX-License-Identifier: GPL-2.0
/*
 * dpillar ports: the physical NICs a server plugs into its two switches.
 *
 * A port is claimed with an rx_handler (so nothing else, bridge or bond,
 * can take it) and linked as a lower device of the dpillar device.  All
 * changes happen under RTNL; the receive path only reads port pointers
 * under RCU.
 *
 * A bound port is a member of the Hello group (DPILLAR_HELLO_MAC): a NIC
 * that filters multicast would otherwise drop every Hello.  The membership
 * is an entry in the port's multicast list, which the core keeps across
 * admin down/up, carrier and MTU changes and pushes to the hardware filter
 * on every open (dev_set_rx_mode()); it goes with the port in dp_port_del().
 */

#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

#include "dpillar.h"
#include "send.h"

static bool dp_is_port(const struct net_device *dev)
{
	return rcu_access_pointer(dev->rx_handler) == dp_handle_frame;
}

struct dp_port *dp_port_get_rtnl(const struct net_device *dev)
{
	return dp_is_port(dev) ? rtnl_dereference(dev->rx_handler_data) : NULL;
}

enum dpillar_port_state dp_port_state(const struct dp_port *port)
{
	if (!port)
		return DPILLAR_PORT_STATE_ABSENT;
	return dp_port_up(port) ? DPILLAR_PORT_STATE_UP :
				  DPILLAR_PORT_STATE_DOWN;
}

/*
 * Port @index of @dp as it stands now, for genetlink.  Under rcu_read_lock
 * or RTNL, which also keep @snap->lower valid.
 */
void dp_port_snapshot(const struct dp_priv *dp, u32 index,
		      struct dp_port_snap *snap)
{
	const struct dp_port *port = rcu_dereference_rtnl(dp->ports[index]);

	snap->lower = port ? port->dev : NULL;
	snap->state = dp_port_state(port);
	snap->reachable = port ? dp_port_reachable(dp, port) : 0;
	snap->nic_offload = port && port->nic_ok && READ_ONCE(dp->nic_offload);
}
EXPORT_SYMBOL_IF_KUNIT(dp_port_snapshot);

/* The device carries traffic while any port does. */
void dp_update_carrier(struct dp_priv *dp)
{
	bool up = false;
	u32 i;

	ASSERT_RTNL();
	for (i = 0; i < dp->nports; i++) {
		struct dp_port *port = rtnl_dereference(dp->ports[i]);

		if (port && dp_port_up(port))
			up = true;
	}
	if (up && netif_running(dp->dev))
		netif_carrier_on(dp->dev);
	else
		netif_carrier_off(dp->dev);
}

/*
 * A frame relayed through this server leaves by any port, so the fabric
 * MTU can be at most the smallest port MTU less the dpillar header (and
 * the destination's coordinates, in S2 plan mode): that is max_mtu.
 * dp0's MTU follows max_mtu down and, while it sits at the old ceiling,
 * up (jumbo-frame ports, a port's MTU restored); an MTU the operator set
 * below the ceiling is only ever lowered to fit.
 */
void dp_update_mtu(struct dp_priv *dp)
{
	unsigned int max = 0, old = dp->dev->max_mtu;
	unsigned int hlen = DP_HDR_LEN + dp->topo.ext_len;
	u32 i;

	ASSERT_RTNL();
	for (i = 0; i < dp->nports; i++) {
		struct dp_port *port = rtnl_dereference(dp->ports[i]);
		unsigned int mtu;

		if (!port)
			continue;
		mtu = port->dev->mtu > hlen ? port->dev->mtu - hlen : 0;
		if (!max || mtu < max)
			max = mtu;
	}
	if (!max)
		return;	/* no port left: keep what the device has */
	dp->dev->max_mtu = max(max, dp->dev->min_mtu);
	if (dp->dev->mtu > dp->dev->max_mtu || dp->dev->mtu == old)
		dev_set_mtu(dp->dev, dp->dev->max_mtu);
}

static int dp_port_check(struct dp_priv *dp, struct net_device *lower,
			 struct netlink_ext_ack *extack)
{
	if (lower->flags & IFF_LOOPBACK) {
		NL_SET_ERR_MSG(extack, "Port cannot be a loopback device");
		return -EINVAL;
	}
	if (lower->type != ARPHRD_ETHER || lower->addr_len != ETH_ALEN) {
		NL_SET_ERR_MSG(extack, "Port must be an Ethernet device");
		return -EINVAL;
	}
	if (lower == dp->dev) {
		NL_SET_ERR_MSG(extack, "Device cannot be its own port");
		return -EINVAL;
	}
	if (dp_is_port(lower)) {
		NL_SET_ERR_MSG(extack, "Device is already a dpillar port");
		return -EBUSY;
	}
	if (netdev_master_upper_dev_get(lower) ||
	    rtnl_dereference(lower->rx_handler)) {
		NL_SET_ERR_MSG(extack,
			       "Device is already a port of another device");
		return -EBUSY;
	}
	if (!net_eq(dev_net(lower), dev_net(dp->dev))) {
		NL_SET_ERR_MSG(extack,
			       "Port must be in the device's network namespace");
		return -EINVAL;
	}
	return 0;
}

int dp_port_add(struct dp_priv *dp, struct net_device *lower, u32 index,
		struct netlink_ext_ack *extack)
{
	struct dp_port_info pi;
	struct dp_port *port;
	int err;

	ASSERT_RTNL();
	err = dp_port_check(dp, lower, extack);
	if (err)
		return err;

	dp_port_info(&dp->topo, dp->self, index, &pi);
	/*
	 * Sized by what this port plugs into, never by the fabric, but that
	 * can still be large (a DCell level-0 switch of 1024 servers: ~107
	 * KB, an order-5 page): vmalloc when the pages are not there.
	 */
	port = kvzalloc(struct_size(port, neigh, pi.nneigh), GFP_KERNEL);
	if (!port)
		return -ENOMEM;
	port->nneigh = pi.nneigh;
	port->dp = dp;
	port->index = index;
	port->dev = lower;
	port->nic_ok = dp_nic_offload_qualified(lower);
	port->ntf_state = dp_port_state(port);
	dp_port_miswired_init(port);
	netdev_hold(lower, &port->dev_tracker, GFP_KERNEL);

	err = netdev_master_upper_dev_link(lower, dp->dev, NULL, NULL, extack);
	if (err)
		goto err_put;

	err = dev_mc_add(lower, dp_hello_mac);
	if (err) {
		NL_SET_ERR_MSG(extack, "Cannot join the Hello multicast group");
		goto err_unlink;
	}

	err = netdev_rx_handler_register(lower, dp_handle_frame, port);
	if (err) {
		NL_SET_ERR_MSG(extack, "Cannot claim the port's receive path");
		goto err_mc;
	}

	dp->dev->needed_headroom = max_t(unsigned short,
					 dp->dev->needed_headroom,
					 LL_RESERVED_SPACE(lower) + DP_HDR_LEN +
					 DP_HDR_EXT_MAX);
	rcu_assign_pointer(dp->ports[index], port);
	atomic_inc(&dp->gen);
	dp_rmemo_neigh_changed(dp);
	return 0;

err_mc:
	dev_mc_del(lower, dp_hello_mac);
err_unlink:
	netdev_upper_dev_unlink(lower, dp->dev);
err_put:
	netdev_put(lower, &port->dev_tracker);
	kvfree(port);
	return err;
}

void dp_port_del(struct dp_port *port)
{
	struct dp_priv *dp = port->dp;

	ASSERT_RTNL();
	RCU_INIT_POINTER(dp->ports[port->index], NULL);
	atomic_inc(&dp->gen);
	dp_rmemo_neigh_changed(dp);
	netdev_rx_handler_unregister(port->dev);
	dev_mc_del(port->dev, dp_hello_mac);
	netdev_upper_dev_unlink(port->dev, dp->dev);
	netdev_put(port->dev, &port->dev_tracker);
	/* Readers in the receive path may still hold the port. */
	kvfree_rcu(port, rcu);
}

/**
 * dp_port_ntf - PORT_NTF: port @index changed state
 * @dp: the device
 * @index: the port
 * @lower: its device (going away when @state is ABSENT)
 * @state: the state of the event, whatever the port says by now
 *
 * Under RTNL.
 */
void dp_port_ntf(struct dp_priv *dp, u32 index,
		 const struct net_device *lower, enum dpillar_port_state state)
{
	struct dp_port_snap snap;

	if (!dp_notify_listened(dp))
		return;
	/* The device and state of the event: the port may be gone already. */
	dp_port_snapshot(dp, index, &snap);
	snap.lower = lower;
	snap.state = state;
	dp_notify_port(dp, index, &snap);
}

/* Let go of @port, which leaves its slot absent (the device stays). */
static void dp_port_release(struct dp_port *port)
{
	struct net_device *lower = port->dev;
	struct dp_priv *dp = port->dp;
	u32 index = port->index;

	dp_port_del(port);
	dp_update_mtu(dp);
	dp_update_carrier(dp);
	dp_port_ntf(dp, index, lower, DPILLAR_PORT_STATE_ABSENT);
}

/*
 * After dp_port_add() of port @index: the device's MTU and carrier follow
 * the new port, which is reported (PORT_NTF) as it stands.
 */
static void dp_port_attached(struct dp_priv *dp, u32 index)
{
	struct dp_port *port = rtnl_dereference(dp->ports[index]);

	dp_update_mtu(dp);
	dp_update_carrier(dp);
	netdev_info(dp->dev, "port %u (%s) attached\n", index, port->dev->name);
	dp_port_ntf(dp, index, port->dev, port->ntf_state);
}

/*
 * "ip link set dev NIC master DEV" (ndo_add_slave): NIC becomes DEV's
 * lowest-numbered port that has no NIC.  A port is the switch it plugs
 * into, fixed by the topology and the server's address, so a NIC the
 * device lost (driver reload, netns move, "nomaster") is attached again
 * in the slot it left; NICs attached in port order fill the ports in
 * that order.  The NIC's MAC may differ from the one it had: neighbours
 * learn the new one from its Hellos.  A NIC for a given port, whatever
 * the others have: changelink's port list (dp_ports_attach()).
 */
int dp_add_slave(struct net_device *dev, struct net_device *lower,
		 struct netlink_ext_ack *extack)
{
	struct dp_priv *dp = netdev_priv(dev);
	int err;
	u32 i;

	ASSERT_RTNL();
	for (i = 0; i < dp->nports; i++)
		if (!rtnl_dereference(dp->ports[i]))
			break;
	if (i == dp->nports) {
		NL_SET_ERR_MSG(extack,
			       "Every port of the device has a NIC: release one first (nomaster)");
		return -EBUSY;
	}
	err = dp_port_add(dp, lower, i, extack);
	if (err)
		return err;
	dp_port_attached(dp, i);
	return 0;
}

/*
 * Whether dp_ports_attach() may attach @lower[i] to port i, for each i
 * below @dp->nports where @lower[i] is given (its entry @attr[i]): the
 * port has no NIC and the NIC could be a port (dp_port_check()).
 */
int dp_ports_check(struct dp_priv *dp, struct net_device **lower,
		   struct nlattr **attr, struct netlink_ext_ack *extack)
{
	struct dp_port *port;
	int err;
	u32 i;

	ASSERT_RTNL();
	for (i = 0; i < dp->nports; i++) {
		if (!lower[i])
			continue;
		if (rtnl_dereference(dp->ports[i])) {
			NL_SET_ERR_MSG_ATTR(extack, attr[i],
					    "Port already has a NIC: release it first (nomaster)");
			return -EBUSY;
		}
		port = dp_port_get_rtnl(lower[i]);
		if (port && port->dp == dp) {
			NL_SET_ERR_MSG_ATTR(extack, attr[i],
					    "NIC is already a port of this device");
			return -EBUSY;
		}
		err = dp_port_check(dp, lower[i], extack);
		if (err) {
			if (extack)
				extack->bad_attr = attr[i];
			return err;
		}
	}
	return 0;
}

/*
 * changelink's port list: NIC @lower[i] to port i wherever it is given,
 * after dp_ports_check().  All or nothing: a failure (memory, the upper
 * link) releases the ports this call attached, unreported; the others
 * are reported as "ip link set NIC master DEV" reports its port.
 */
int dp_ports_attach(struct dp_priv *dp, struct net_device **lower,
		    struct netlink_ext_ack *extack)
{
	int err;
	u32 i;

	ASSERT_RTNL();
	for (i = 0; i < dp->nports; i++) {
		if (!lower[i])
			continue;
		err = dp_port_add(dp, lower[i], i, extack);
		if (err)
			goto undo;
	}
	for (i = 0; i < dp->nports; i++)
		if (lower[i])
			dp_port_attached(dp, i);
	return 0;

undo:
	while (i--)
		if (lower[i])
			dp_port_del(rtnl_dereference(dp->ports[i]));
	return err;
}

/* "ip link set dev NIC nomaster" (ndo_del_slave): the port becomes absent. */
int dp_del_slave(struct net_device *dev, struct net_device *lower)
{
	struct dp_port *port = dp_port_get_rtnl(lower);

	ASSERT_RTNL();
	if (!port || port->dp != netdev_priv(dev))
		return -EINVAL;
	netdev_info(dev, "port %u (%s) released\n", port->index, lower->name);
	dp_port_release(port);
	return 0;
}

/* PORT_NTF when the port's state differs from the one last reported. */
static void dp_port_state_changed(struct dp_port *port)
{
	enum dpillar_port_state state = dp_port_state(port);

	if (port->ntf_state == state)
		return;
	port->ntf_state = state;
	dp_port_ntf(port->dp, port->index, port->dev, state);
}

int dp_netdev_event(struct notifier_block *nb, unsigned long event, void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct dp_port *port = dp_port_get_rtnl(dev);
	struct dp_priv *dp;

	/* Any device's: a port's peer may be stacked anew (send.c). */
	if (event == NETDEV_CHANGEUPPER || event == NETDEV_REGISTER ||
	    event == NETDEV_UNREGISTER)
		atomic_inc(&dp_stack_gen);
	if (!port)
		return NOTIFY_DONE;
	dp = port->dp;

	switch (event) {
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		dp_update_carrier(dp);
		dp_port_state_changed(port);
		break;
	case NETDEV_CHANGEMTU:
		dp_update_mtu(dp);
		break;
	case NETDEV_PRE_TYPE_CHANGE:
		/* A port must stay Ethernet: the fabric addresses it by MAC. */
		return notifier_from_errno(-EBUSY);
	case NETDEV_UNREGISTER:
		/*
		 * The NIC is going away or moving to another namespace: let
		 * go of it.  The device stays, without carrier if it was the
		 * last port, until the operator deletes it or attaches the
		 * NIC again ("ip link set NIC master DEV", dp_add_slave()).
		 */
		netdev_info(dp->dev, "port %u (%s) unregistered, detached\n",
			    port->index, dev->name);
		dp_port_release(port);
		break;
	}
	return NOTIFY_DONE;
}
