/* SPDX-License-Identifier: GPL-2.0 */
/* dpctl: the "dpillar" generic netlink family and its devices. */
#ifndef DPCTL_GENL_H
#define DPCTL_GENL_H

#include <net/if.h>
#include <linux/dpillar.h>
#include <linux/genetlink.h>

#include "fabric.h"
#include "nl.h"

/*
 * Open a generic netlink socket and resolve the family (ctx->family); with
 * @events, also join its "events" multicast group.  Prints why not and
 * returns -1 on failure.
 */
int genl_open(struct nl_ctx *ctx, bool events);
/* Start a DPILLAR_CMD_* request. */
struct nlmsghdr *genl_msg(struct nl_ctx *ctx, int cmd, int flags);
struct table;
/*
 * Send the dump request @nlh and print its answers: rows @cb adds to @t
 * (a table of the columns @header), or with -j one JSON array of the
 * objects @cb writes.  Closes @ctx.  Returns EXIT_OK or EXIT_KERNEL.
 */
int genl_dump_rows(struct nl_ctx *ctx, struct nlmsghdr *nlh, struct table *t,
		   const char *header, mnl_cb_t cb, void *data,
		   const char *what);
/* Attribute offset of a generic netlink message. */
#define GENL_HDRLEN_ALIGNED MNL_ALIGN(sizeof(struct genlmsghdr))

/* A port as DPILLAR_A_DEV_PORT tells it. */
struct dpctl_port {
	u32 index, ifindex, state, sw_col, sw_id, neighs, reachable;
	/* Its NIC takes our TCP offloads now; not told by an older module. */
	bool has_nic_offload, nic_offload;
	char ifname[IF_NAMESIZE];	/* "": no device */
};

/* A device as DEV_GET (or PORT_NTF) tells it. */
struct dp_dev {
	char ifname[IF_NAMESIZE];
	u32 ifindex, topo, node_id, hello_ms, dead_ms, mode;
	/* The fabric's parameters (DP_PARAM_LIST), p.kind unset; p.nodes
	 * the fabric's node count, which every device reports.
	 */
	struct dp_topo_params p;
	/* The discovery fallback; not shown by a module without it. */
	bool has_fallback, fallback;
	/* NIC offloads on qualified ports; likewise. */
	bool has_nic_offload, nic_offload;
	char addr[DP_ADDR_TEXT_MAX];
	struct fabric_pfx pfx;
	u32 nports;
	struct dpctl_port ports[DPILLAR_PORTS_MAX];
	const struct nlattr *stats;	/* valid during the callback only */
};

void dev_parse(const struct nlmsghdr *nlh, struct dp_dev *d);

/* Resolve a device name, or print "DEV: no such device" and return 0. */
unsigned int dev_index(const char *name);

/*
 * DEV_GET for @name, or a dump of every dpillar device when NULL, calling
 * @fn for each.  Returns EXIT_OK or EXIT_KERNEL (after a message).
 */
int dev_each(struct nl_ctx *ctx, const char *name,
	     void (*fn)(const struct dp_dev *d, void *data), void *data);
/*
 * Device @name, or the only dpillar device when @name is NULL, into *d
 * (with its fabric in *t).  Returns EXIT_OK, or EXIT_KERNEL / EXIT_USAGE
 * after a message.
 */
int dev_find(struct nl_ctx *ctx, const char *name, struct dp_dev *d,
	     struct dp_topo *t);
/*
 * The topology of device @name (for the names of its routing modes), or
 * NULL after a message.
 */
const struct dp_topo_ops *dev_topo_ops(const char *name);
/*
 * The topology of device @dev when the KEY VALUE pairs @argv name a
 * routing mode by name, else NULL.
 */
const struct dp_topo_ops *settings_ops(const char *dev, int argc,
				       char **argv);
/* The fabric of device @d: 0, or -EINVAL with *@why. */
int dev_topo(const struct dp_dev *d, struct dp_topo *t, const char **why);

#endif
