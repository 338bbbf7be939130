// SPDX-License-Identifier: GPL-2.0
/* dpctl: the "dpillar" generic netlink family and its devices. */
#include <errno.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>

#include "dpctl.h"
#include "dp_json.h"
#include "genl.h"
#include "table.h"

struct family {
	unsigned int id, mcgrp;
};

static int mcgrp_cb(const struct nlattr *grps, struct family *f)
{
	const struct nlattr *grp, *tb[CTRL_ATTR_MCAST_GRP_MAX + 1];

	mnl_attr_for_each_nested(grp, grps) {
		nl_parse_nested(grp, tb, CTRL_ATTR_MCAST_GRP_MAX);
		if (tb[CTRL_ATTR_MCAST_GRP_NAME] && tb[CTRL_ATTR_MCAST_GRP_ID] &&
		    !strcmp(mnl_attr_get_str(tb[CTRL_ATTR_MCAST_GRP_NAME]),
			    DPILLAR_MCGRP_EVENTS))
			f->mcgrp = mnl_attr_get_u32(tb[CTRL_ATTR_MCAST_GRP_ID]);
	}
	return MNL_CB_OK;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[CTRL_ATTR_MAX + 1];
	struct family *f = data;

	nl_parse(nlh, GENL_HDRLEN_ALIGNED, tb, CTRL_ATTR_MAX);
	if (tb[CTRL_ATTR_FAMILY_ID])
		f->id = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	if (tb[CTRL_ATTR_MCAST_GROUPS])
		mcgrp_cb(tb[CTRL_ATTR_MCAST_GROUPS], f);
	return MNL_CB_OK;
}

static struct nlmsghdr *genl_put(struct nl_ctx *ctx, int type, int cmd,
				 int version, int flags)
{
	struct nlmsghdr *nlh = nl_msg(ctx, type, flags);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));

	g->cmd = cmd;
	g->version = version;
	return nlh;
}

int genl_open(struct nl_ctx *ctx, bool events)
{
	struct family f = { 0, 0 };
	struct nlmsghdr *nlh;
	int err;

	if (nl_open(ctx, NETLINK_GENERIC)) {
		perror("dpctl: netlink");
		return -1;
	}
	nlh = genl_put(ctx, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, 0);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, DPILLAR_FAMILY_NAME);
	err = nl_talk_quiet(ctx, nlh, family_cb, &f, "family", ENOENT);
	if (err == -ENOENT || (!err && !f.id)) {
		fprintf(stderr, "dpctl: generic netlink family \"%s\" not found "
			"(is the dpillar module loaded?)\n", DPILLAR_FAMILY_NAME);
		err = -1;
	} else if (!err && events && !f.mcgrp) {
		fprintf(stderr, "dpctl: family \"%s\" has no \"%s\" group\n",
			DPILLAR_FAMILY_NAME, DPILLAR_MCGRP_EVENTS);
		err = -1;
	} else if (!err && events &&
		   mnl_socket_setsockopt(ctx->sock, NETLINK_ADD_MEMBERSHIP,
					 &f.mcgrp, sizeof(f.mcgrp)) < 0) {
		perror("dpctl: joining the events group");
		err = -1;
	}
	if (err) {
		nl_close(ctx);
		return -1;
	}
	ctx->family = f.id;
	return 0;
}

struct nlmsghdr *genl_msg(struct nl_ctx *ctx, int cmd, int flags)
{
	return genl_put(ctx, ctx->family, cmd, DPILLAR_FAMILY_VERSION, flags);
}

unsigned int dev_index(const char *name)
{
	unsigned int i = if_nametoindex(name);

	if (!i)
		fprintf(stderr, "dpctl: %s: no such device\n", name);
	return i;
}

static u32 get_u32(const struct nlattr *a)
{
	return a ? mnl_attr_get_u32(a) : 0;
}

static void get_str(const struct nlattr *a, char *buf, size_t len)
{
	snprintf(buf, len, "%s", a ? mnl_attr_get_str(a) : "?");
}

static void port_parse(const struct nlattr *nest, struct dpctl_port *p)
{
	const struct nlattr *tb[DPILLAR_A_PORT_MAX + 1];

	nl_parse_nested(nest, tb, DPILLAR_A_PORT_MAX);
	p->index = get_u32(tb[DPILLAR_A_PORT_INDEX]);
	p->ifindex = get_u32(tb[DPILLAR_A_PORT_IFINDEX]);
	p->state = get_u32(tb[DPILLAR_A_PORT_STATE]);
	p->sw_col = get_u32(tb[DPILLAR_A_PORT_SWITCH_COLUMN]);
	p->sw_id = get_u32(tb[DPILLAR_A_PORT_SWITCH_ID]);
	p->neighs = get_u32(tb[DPILLAR_A_PORT_NEIGHS]);
	p->reachable = get_u32(tb[DPILLAR_A_PORT_REACHABLE]);
	if (tb[DPILLAR_A_PORT_NIC_OFFLOAD] &&
	    mnl_attr_get_payload_len(tb[DPILLAR_A_PORT_NIC_OFFLOAD]) == 1) {
		p->has_nic_offload = true;
		p->nic_offload = mnl_attr_get_u8(tb[DPILLAR_A_PORT_NIC_OFFLOAD]);
	}
	/* No name (nor ifindex): the port's device went away. */
	if (tb[DPILLAR_A_PORT_IFNAME])
		get_str(tb[DPILLAR_A_PORT_IFNAME], p->ifname, sizeof(p->ifname));
}

void dev_parse(const struct nlmsghdr *nlh, struct dp_dev *d)
{
	const struct nlattr *tb[DPILLAR_A_DEV_MAX + 1], *a;

	memset(d, 0, sizeof(*d));
	fabric_pfx_default(&d->pfx);
	nl_parse(nlh, GENL_HDRLEN_ALIGNED, tb, DPILLAR_A_DEV_MAX);
	d->ifindex = get_u32(tb[DPILLAR_A_DEV_IFINDEX]);
	get_str(tb[DPILLAR_A_DEV_IFNAME], d->ifname, sizeof(d->ifname));
	d->topo = tb[DPILLAR_A_DEV_TOPO] ? get_u32(tb[DPILLAR_A_DEV_TOPO]) :
		  DPILLAR_TOPO_DPILLAR;
	dp_params_get(&d->p, tb, true);
	d->node_id = get_u32(tb[DPILLAR_A_DEV_NODE_ID]);
	/* None while unconfigured. */
	if (tb[DPILLAR_A_DEV_ADDR])
		get_str(tb[DPILLAR_A_DEV_ADDR], d->addr, sizeof(d->addr));
	d->hello_ms = get_u32(tb[DPILLAR_A_DEV_HELLO_MS]);
	d->dead_ms = get_u32(tb[DPILLAR_A_DEV_DEAD_MS]);
	d->mode = get_u32(tb[DPILLAR_A_DEV_MODE]);
	a = tb[DPILLAR_A_DEV_FALLBACK];
	if (a && mnl_attr_get_payload_len(a) == 1) {
		d->has_fallback = true;
		d->fallback = mnl_attr_get_u8(a);
	}
	a = tb[DPILLAR_A_DEV_NIC_OFFLOAD];
	if (a && mnl_attr_get_payload_len(a) == 1) {
		d->has_nic_offload = true;
		d->nic_offload = mnl_attr_get_u8(a);
	}
	a = tb[DPILLAR_A_DEV_IP4_PREFIX];
	if (a && mnl_attr_get_payload_len(a) == 4)
		memcpy(&d->pfx.ip4, mnl_attr_get_payload(a), 4);
	if (tb[DPILLAR_A_DEV_IP4_PREFIXLEN])
		d->pfx.ip4_len = mnl_attr_get_u8(tb[DPILLAR_A_DEV_IP4_PREFIXLEN]);
	a = tb[DPILLAR_A_DEV_IP6_PREFIX];
	if (a && mnl_attr_get_payload_len(a) == 16)
		memcpy(&d->pfx.ip6, mnl_attr_get_payload(a), 16);
	a = tb[DPILLAR_A_DEV_KEY6_PREFIX];
	if (a && mnl_attr_get_payload_len(a) == 16)
		memcpy(&d->pfx.key6, mnl_attr_get_payload(a), 16);
	d->stats = tb[DPILLAR_A_DEV_STATS];
	/* DEV_PORT repeats: walk the message, not the table. */
	mnl_attr_for_each(a, nlh, GENL_HDRLEN_ALIGNED) {
		if (mnl_attr_get_type(a) != DPILLAR_A_DEV_PORT ||
		    d->nports >= DPILLAR_PORTS_MAX)
			continue;
		port_parse(a, &d->ports[d->nports++]);
	}
}

struct each {
	void (*fn)(const struct dp_dev *d, void *data);
	void *data;
	unsigned int found;
};

static int each_cb(const struct nlmsghdr *nlh, void *data)
{
	struct each *e = data;
	struct dp_dev d;

	dev_parse(nlh, &d);
	e->found++;
	e->fn(&d, e->data);
	return MNL_CB_OK;
}

int dev_each(struct nl_ctx *ctx, const char *name,
	     void (*fn)(const struct dp_dev *d, void *data), void *data)
{
	struct each e = { fn, data, 0 };
	struct nlmsghdr *nlh;
	unsigned int ifindex = 0;

	if (name) {
		ifindex = dev_index(name);
		if (!ifindex)
			return EXIT_KERNEL;
	}
	nlh = genl_msg(ctx, DPILLAR_CMD_DEV_GET, name ? 0 : NLM_F_DUMP);
	if (name)
		mnl_attr_put_u32(nlh, DPILLAR_A_DEV_IFINDEX, ifindex);
	if (nl_talk(ctx, nlh, each_cb, &e, name ? name : "device dump"))
		return EXIT_KERNEL;
	return EXIT_OK;
}

struct find {
	struct dp_dev *d;
	unsigned int found;
};

static void find_cb(const struct dp_dev *d, void *data)
{
	struct find *f = data;

	if (!f->found++)
		*f->d = *d;
}

int dev_topo(const struct dp_dev *d, struct dp_topo *t, const char **why)
{
	struct dp_topo_params p = d->p;

	/* An unconfigured device: no nodes, no routing (topology "none"). */
	if (d->topo == DPILLAR_TOPO_UNSPEC) {
		dp_topo_init_none(t);
		return 0;
	}
	p.kind = d->topo;
	/* Every device reports the node count; S2 alone is given it. */
	dp_topo_params_keep(dp_topo_ops_by_kind(d->topo), &p);
	return dp_topo_init(t, &p, why);
}

const struct dp_topo_ops *settings_ops(const char *dev, int argc,
				       char **argv)
{
	unsigned int v;
	int i;

	/* Only a mode by name ("2hop" is one) needs the device's topology. */
	for (i = 0; i + 1 < argc; i += 2)
		if (!strcmp(argv[i], "mode") && parse_u32(argv[i + 1], &v))
			return dev_topo_ops(dev);
	return NULL;
}

const struct dp_topo_ops *dev_topo_ops(const char *name)
{
	struct nl_ctx ctx;
	struct dp_topo t;
	struct dp_dev d;
	int err;

	if (genl_open(&ctx, false))
		return NULL;
	err = dev_find(&ctx, name, &d, &t);
	nl_close(&ctx);
	return err ? NULL : t.ops;
}

int dev_find(struct nl_ctx *ctx, const char *name, struct dp_dev *d,
	     struct dp_topo *t)
{
	struct find f = { d, 0 };
	const char *why;
	int err;

	err = dev_each(ctx, name, find_cb, &f);
	if (err)
		return err;
	if (f.found != 1) {
		fprintf(stderr, "dpctl: %s; name one with \"dev DEV\"\n",
			f.found ? "more than one dpillar device" :
			"no dpillar device");
		return f.found ? EXIT_USAGE : EXIT_KERNEL;
	}
	d->stats = NULL;
	if (dev_topo(d, t, &why)) {
		fprintf(stderr, "dpctl: %s: unexpected fabric (%u,%u): %s\n",
			d->ifname, d->p.n, d->p.k, why);
		return EXIT_KERNEL;
	}
	return EXIT_OK;
}

int genl_dump_rows(struct nl_ctx *ctx, struct nlmsghdr *nlh, struct table *t,
		   const char *header, mnl_cb_t cb, void *data,
		   const char *what)
{
	int err;

	if (opts.json)
		json_list_begin(opts.pretty);
	else
		table_init(t, header);
	err = nl_talk(ctx, nlh, cb, data, what);
	nl_close(ctx);
	if (opts.json) {
		json_list_end();
	} else if (!err) {
		table_print(t, "");
	}
	return err ? EXIT_KERNEL : EXIT_OK;
}
