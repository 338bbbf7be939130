/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The only place where dpillar deals with differences between the kernels
 * it is built for (Debian's 6.1 and 6.12 today).  Test for the feature, not
 * the version, where the headers allow it: distribution kernels backport.
 */
#ifndef _DPILLAR_COMPAT_H
#define _DPILLAR_COMPAT_H

#include <linux/netdevice.h>

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

#endif /* _DPILLAR_COMPAT_H */
