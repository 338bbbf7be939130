/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The only place where dpillar deals with differences between the kernels
 * it is built for (Debian's 6.1 and 6.12 today).  Test for the feature, not
 * the version, where the headers allow it: distribution kernels backport.
 */
#ifndef _DPILLAR_COMPAT_H
#define _DPILLAR_COMPAT_H

#include <linux/netdevice.h>
#include <linux/netlink.h>
#include <net/genetlink.h>

/* 6.12 turned NETIF_F_LLTX into dev->lltx. */
static inline void dp_compat_set_lltx(struct net_device *dev)
{
#ifdef NETIF_F_LLTX
	dev->features |= NETIF_F_LLTX;
#else
	dev->lltx = true;
#endif
}

/* NETIF_F_NETNS_LOCAL became dev->netns_local, then dev->netns_immutable. */
static inline void dp_compat_set_netns_immutable(struct net_device *dev)
{
#ifdef NETIF_F_NETNS_LOCAL
	dev->features |= NETIF_F_NETNS_LOCAL;
#else
	dev->netns_immutable = true;
#endif
}

/*
 * Formatted extack messages came with 6.3 (NL_SET_ERR_MSG_FMT): "@what:
 * @reason".  Before, @reason alone, which must be a static string.
 */
static inline void dp_compat_set_err_reason(struct netlink_ext_ack *extack,
					    const char *what,
					    const char *reason)
{
#ifdef NL_SET_ERR_MSG_FMT
	NL_SET_ERR_MSG_FMT(extack, "%s: %s", what, reason);
#else
	if (extack)
		extack->_msg = reason;
#endif
}

/*
 * 6.2 split the generic netlink ops (struct genl_split_ops): a family's
 * pre_doit and post_doit get the split form since, and a dump's parsed
 * request moved into a struct genl_info.  No header symbol tells the two
 * apart: Kbuild looks for the struct (DP_HAVE_GENL_SPLIT_OPS).
 */
#ifdef DP_HAVE_GENL_SPLIT_OPS
#define dp_compat_genl_ops genl_split_ops
#else
#define dp_compat_genl_ops genl_ops
#endif

static inline struct nlattr **dp_compat_dump_attrs(struct netlink_callback *cb)
{
#ifdef DP_HAVE_GENL_SPLIT_OPS
	return genl_info_dump(cb)->attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/*
 * The KUnit test module imports what EXPORT_SYMBOL_IF_KUNIT() exports.
 * 6.13 made symbol namespaces string literals: MODULE_IMPORT_NS(NS) became
 * MODULE_IMPORT_NS("NS"), and no header symbol tells the two apart.  Both
 * expand to this modinfo tag, which is what modpost and the module loader
 * check.
 */
#define DP_MODULE_IMPORT_KUNIT_NS() \
	MODULE_INFO(import_ns, "EXPORTED_FOR_KUNIT_TESTING")

#endif /* _DPILLAR_COMPAT_H */
