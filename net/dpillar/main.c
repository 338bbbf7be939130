// SPDX-License-Identifier: GPL-2.0
/*
 * dpillar: a server-centric data-center fabric layer.
 *
 * Servers with two NICs, wired to plain layer-2 switches in a DPillar
 * topology, relay traffic for each other.  See
 * Documentation/networking/dpillar.rst.
 */

#include <linux/module.h>
#include <linux/netdevice.h>
#include <net/genetlink.h>
#include <net/rtnetlink.h>

#include "dpillar.h"

static struct notifier_block dp_notifier = {
	.notifier_call = dp_netdev_event,
};

static int __init dp_init(void)
{
	int err;

	/*
	 * Devices send events to the genetlink family, and the notifier must
	 * see ports: both before the first device can exist.
	 */
	err = dp_genl_register();
	if (err)
		return err;
	err = register_netdevice_notifier(&dp_notifier);
	if (err)
		goto err_genl;
	/* Before the first device: dp0 hands GSO skbs to the ports. */
	dp_gso_register();
	err = rtnl_link_register(&dp_link_ops);
	if (err)
		goto err_gso;
	return 0;

err_gso:
	dp_gso_unregister();
	unregister_netdevice_notifier(&dp_notifier);
err_genl:
	dp_genl_unregister();
	return err;
}

static void __exit dp_exit(void)
{
	/* Deletes every dpillar device, releasing its ports. */
	rtnl_link_unregister(&dp_link_ops);
	dp_gso_unregister();
	unregister_netdevice_notifier(&dp_notifier);
	dp_genl_unregister();
}

module_init(dp_init);
module_exit(dp_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("DPillar server-centric data-center fabric");
#ifdef DPILLAR_MODVERSION
MODULE_VERSION(DPILLAR_MODVERSION);
#endif
MODULE_ALIAS_RTNL_LINK("dpillar");
MODULE_ALIAS_GENL_FAMILY(DPILLAR_FAMILY_NAME);
