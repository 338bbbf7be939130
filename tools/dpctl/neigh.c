// SPDX-License-Identifier: GPL-2.0
/* dpctl neigh: the neighbour tables of dpillar devices. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dpctl.h"
#include "genl.h"
#include "dp_json.h"
#include "neigh.h"
#include "table.h"

const char neigh_help[] =
	"dpctl neigh [DEV] [port P]\n"
	"    one row per switch peer of each port: address, node id, MAC,\n"
	"    state (reachable, unreachable, miswired) and ms since its Hello\n";

const char *neigh_state_name(u32 state)
{
	switch (state) {
	case DPILLAR_NEIGH_STATE_REACHABLE:
		return "reachable";
	case DPILLAR_NEIGH_STATE_UNREACHABLE:
		return "unreachable";
	case DPILLAR_NEIGH_STATE_MISWIRED:
		return "miswired";
	}
	return "unknown";
}

void neigh_parse(const struct nlmsghdr *nlh, struct dp_neigh *n)
{
	const struct nlattr *tb[DPILLAR_A_NEIGH_MAX + 1], *a;

	memset(n, 0, sizeof(*n));
	nl_parse(nlh, GENL_HDRLEN_ALIGNED, tb, DPILLAR_A_NEIGH_MAX);
	if (tb[DPILLAR_A_NEIGH_IFINDEX])
		n->ifindex = mnl_attr_get_u32(tb[DPILLAR_A_NEIGH_IFINDEX]);
	if (!n->ifindex || !if_indextoname(n->ifindex, n->dev))
		snprintf(n->dev, sizeof(n->dev), "if%u", n->ifindex);
	if (tb[DPILLAR_A_NEIGH_PORT])
		n->port = mnl_attr_get_u32(tb[DPILLAR_A_NEIGH_PORT]);
	if (tb[DPILLAR_A_NEIGH_NODE_ID])
		n->node_id = mnl_attr_get_u32(tb[DPILLAR_A_NEIGH_NODE_ID]);
	if (tb[DPILLAR_A_NEIGH_STATE])
		n->state = mnl_attr_get_u32(tb[DPILLAR_A_NEIGH_STATE]);
	snprintf(n->addr, sizeof(n->addr), "%s", tb[DPILLAR_A_NEIGH_ADDR] ?
		 mnl_attr_get_str(tb[DPILLAR_A_NEIGH_ADDR]) : "?");
	a = tb[DPILLAR_A_NEIGH_MAC];
	if (a && mnl_attr_get_payload_len(a) == 6) {
		const u8 *m = mnl_attr_get_payload(a);

		n->has_mac = true;
		snprintf(n->mac, sizeof(n->mac),
			 "%02x:%02x:%02x:%02x:%02x:%02x",
			 m[0], m[1], m[2], m[3], m[4], m[5]);
	}
	if (tb[DPILLAR_A_NEIGH_LAST_HEARD_MS]) {
		n->has_heard = true;
		n->last_heard_ms =
			mnl_attr_get_u32(tb[DPILLAR_A_NEIGH_LAST_HEARD_MS]);
	}
	if (tb[DPILLAR_A_NEIGH_PEER_PORT]) {
		n->has_peer_port = true;
		n->peer_port = mnl_attr_get_u32(tb[DPILLAR_A_NEIGH_PEER_PORT]);
	}
}

void neigh_json(const struct dp_neigh *n)
{
	json_str("dev", n->dev);
	json_uint("ifindex", n->ifindex);
	json_uint("port", n->port);
	json_str("addr", n->addr);
	json_uint("node_id", n->node_id);
	if (n->has_mac)
		json_str("lladdr", n->mac);
	json_str("state", neigh_state_name(n->state));
	if (n->has_heard)
		json_uint("last_heard_ms", n->last_heard_ms);
	if (n->has_peer_port)
		json_uint("peer_port", n->peer_port);
}

struct neigh_list {
	struct table t;
	bool has_port;
	u32 port;
	unsigned int ifindex;
};

static int neigh_cb(const struct nlmsghdr *nlh, void *data)
{
	struct neigh_list *l = data;
	char heard[16] = "-", peer[16] = "-";
	struct dp_neigh n;

	neigh_parse(nlh, &n);
	/* Filter here too: the kernel may not. */
	if ((l->ifindex && n.ifindex != l->ifindex) ||
	    (l->has_port && n.port != l->port))
		return MNL_CB_OK;
	if (opts.json) {
		json_open_obj(NULL);
		neigh_json(&n);
		json_close_obj();
		return MNL_CB_OK;
	}
	if (n.has_heard)
		snprintf(heard, sizeof(heard), "%ums", n.last_heard_ms);
	if (n.has_peer_port)
		snprintf(peer, sizeof(peer), "%u", n.peer_port);
	table_row(&l->t, "%s\t%u\t%s\t%u\t%s\t%s\t%s\t%s", n.dev, n.port,
		  n.addr, n.node_id, n.has_mac ? n.mac : "-",
		  neigh_state_name(n.state), heard, peer);
	return MNL_CB_OK;
}

int do_neigh(int argc, char **argv)
{
	struct neigh_list l = { .has_port = false };
	const char *dev = NULL;
	struct nlmsghdr *nlh;
	struct nl_ctx ctx;
	int err;

	for (; argc > 0; argc--, argv++) {
		if (matches(argv[0], "port") && argc > 1) {
			if (parse_u32(argv[1], &l.port) ||
			    l.port >= DPILLAR_PORTS_MAX)
				return usage_error("neigh: invalid port \"%s\"",
						   argv[1]);
			l.has_port = true;
			argc--;
			argv++;
		} else if (matches(argv[0], "dev") && argc > 1 && !dev) {
			dev = argv[1];
			argc--;
			argv++;
		} else if (!dev) {
			dev = argv[0];
		} else {
			return usage_error("neigh: unexpected \"%s\"", argv[0]);
		}
	}
	if (dev) {
		l.ifindex = dev_index(dev);
		if (!l.ifindex)
			return EXIT_KERNEL;
	}
	if (genl_open(&ctx, false))
		return EXIT_KERNEL;
	nlh = genl_msg(&ctx, DPILLAR_CMD_NEIGH_GET, NLM_F_DUMP);
	if (dev)
		mnl_attr_put_u32(nlh, DPILLAR_A_NEIGH_IFINDEX, l.ifindex);
	if (l.has_port)
		mnl_attr_put_u32(nlh, DPILLAR_A_NEIGH_PORT, l.port);
	if (opts.json)
		json_list_begin(opts.pretty);
	else
		table_init(&l.t, "DEV PORT ADDRESS ID MAC STATE HEARD PEER-PORT");
	err = nl_talk(&ctx, nlh, neigh_cb, &l, dev ? dev : "neigh");
	nl_close(&ctx);
	if (opts.json) {
		json_list_end();
	} else if (!err) {
		table_print(&l.t, "");
	}
	return err ? EXIT_KERNEL : EXIT_OK;
}
