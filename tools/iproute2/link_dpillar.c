// SPDX-License-Identifier: GPL-2.0
/*
 * link_dpillar.so: the "dpillar" link type for iproute2's ip.
 *
 *   ip link add dp0 type dpillar [TOPOLOGY NICS] [SETTINGS]
 *   ip link set dp0 type dpillar [TOPOLOGY] [SETTINGS]
 *   ip [-j] -d link show dp0	(kind dpillar)
 *   ip [-j] -d link show NIC	(a port: kind dpillar_slave)
 *   ip link help dpillar
 *
 * The words are dpctl's (tools/common/dp_linkargs.c, the one parser); the
 * attributes are the link type's (include/uapi/linux/dpillar.h).  ip
 * looks up the port kind as link_dpillar_slave.so, a link to this file.
 * Only the two struct link_util are exported: everything else is hidden,
 * so that our matches() never binds to ip's (the opposite convention).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <linux/if_link.h>
#include <linux/dpillar.h>
#include <libmnl/libmnl.h>

#include "iproute2.h"
#include "dp_linkargs.h"

#define DP_EXPORT __attribute__((visibility("default")))

const char dp_prog[] = "dpillar", dp_help[] = "ip link help dpillar";

/* The kind of the existing device @ifindex ("dpillar"'s topology). */
static int topo_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *info[IFLA_INFO_MAX + 1] = { NULL };
	const struct nlattr *tb[IFLA_MAX + 1] = { NULL };
	const struct nlattr *dp[IFLA_DPILLAR_MAX + 1] = { NULL };
	const struct nlattr *a;
	u32 *kind = data;

	mnl_attr_for_each(a, nlh, sizeof(struct ifinfomsg))
		if (mnl_attr_get_type(a) <= IFLA_MAX)
			tb[mnl_attr_get_type(a)] = a;
	if (!tb[IFLA_LINKINFO])
		return MNL_CB_OK;
	mnl_attr_for_each_nested(a, tb[IFLA_LINKINFO])
		if (mnl_attr_get_type(a) <= IFLA_INFO_MAX)
			info[mnl_attr_get_type(a)] = a;
	if (!info[IFLA_INFO_KIND] || !info[IFLA_INFO_DATA] ||
	    strcmp(mnl_attr_get_str(info[IFLA_INFO_KIND]), "dpillar"))
		return MNL_CB_OK;
	mnl_attr_for_each_nested(a, info[IFLA_INFO_DATA])
		if (mnl_attr_get_type(a) <= IFLA_DPILLAR_MAX)
			dp[mnl_attr_get_type(a)] = a;
	if (dp[IFLA_DPILLAR_TOPO] &&
	    !mnl_attr_validate(dp[IFLA_DPILLAR_TOPO], MNL_TYPE_U32))
		*kind = mnl_attr_get_u32(dp[IFLA_DPILLAR_TOPO]);
	return MNL_CB_OK;
}

/*
 * The topology of device @ifindex, whose mode names "ip link set DEV type
 * dpillar mode NAME" means; NULL when it has none (numbers only).
 */
static const struct dp_topo_ops *dev_topo_ops(int ifindex)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifi;
	u32 kind = DPILLAR_TOPO_UNSPEC;
	int ret;

	nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl)
		return NULL;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
		goto out;
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = 1;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		goto out;
	ret = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	if (ret > 0)
		mnl_cb_run(buf, ret, 1, mnl_socket_get_portid(nl), topo_cb,
			   &kind);
out:
	mnl_socket_close(nl);
	return kind == DPILLAR_TOPO_UNSPEC ? NULL : dp_topo_ops_by_kind(kind);
}

/*
 * Most bytes the words can add to ip's request: the topology's u32s, the
 * coordinates, the address, the ports and TOPO_ARGS_SETTINGS / 2 settings
 * (the longest, a 16-byte prefix).
 */
#define DP_ARGS_ROOM	(8 * MNL_ATTR_HDRLEN + 8 * 4 + \
			 MNL_ATTR_HDRLEN + DP_MAX_PORTS * (MNL_ATTR_HDRLEN + 4) + \
			 MNL_ATTR_HDRLEN + MNL_ALIGN(DP_COORDS_MAX * 4) + \
			 MNL_ATTR_HDRLEN + MNL_ALIGN(DP_ADDR_TEXT_MAX) + \
			 TOPO_ARGS_SETTINGS / 2 * (2 * MNL_ATTR_HDRLEN + 16))

/* Is a routing mode given by its name (which the topology defines)? */
static bool mode_by_name(const struct topo_args *a)
{
	unsigned int i, v;

	for (i = 0; i < a->nsettings; i += 2)
		if (!strcmp(a->settings[i], "mode") &&
		    parse_u32(a->settings[i + 1], &v))
			return true;
	return false;
}

/* ip link add/set DEV type dpillar WORDS: their attributes into @n. */
static int dp_parse_opt(struct link_util *lu, int argc, char **argv,
			struct nlmsghdr *n)
{
	const bool create = n->nlmsg_flags & NLM_F_CREATE;
	const char *cmd = create ? "link add" : "link set";
	const struct ifinfomsg *ifi = NLMSG_DATA(n);
	const struct dp_topo_ops *ops = NULL;
	struct topo_args a;
	unsigned int i;

	/* Ports by name, as dpctl link add takes them (add only). */
	if (topo_args_parse(cmd, argc, argv, create, &a))
		return -1;
	if (a.addr && strlen(a.addr) >= DP_ADDR_TEXT_MAX) {
		usage_error("%s: address \"%s\" too long", cmd, a.addr);
		return -1;
	}
	if (a.given || a.nports) {
		if (topo_args_check(cmd, &a, create))
			return -1;
		ops = a.ops;	/* mode names are the new topology's */
	} else if (create) {
		/* As dpctl link add: the default topology's mode names. */
		ops = a.ops;
	} else if (ifi->ifi_index && mode_by_name(&a)) {
		ops = dev_topo_ops(ifi->ifi_index);
	}
	/* What the kernel refuses in a new device, refused here first. */
	if (create && topo_args_check_new(cmd, &a, a.nports))
		return -1;
	if (NLMSG_ALIGN(n->nlmsg_len) + DP_ARGS_ROOM >
	    NLMSG_LENGTH(sizeof(*ifi)) + IPLINK_REQ_ATTRS) {
		fprintf(stderr, "dpillar: no room left in ip's request\n");
		return -1;
	}
	if (a.given)
		topo_args_put_link(n, &a);
	for (i = 0; i < a.nsettings; i += 2)
		if (put_setting(n, &dp_link_settings, ops, a.settings[i],
				a.settings[i + 1]) != 1)
			return -1;
	return 0;
}

static u32 rta_u32(struct rtattr *tb[], int type)
{
	return tb[type] && RTA_PAYLOAD(tb[type]) >= 4 ?
	       *(u32 *)RTA_DATA(tb[type]) : 0;
}

static void print_u32(struct rtattr *tb[], int type, const char *key)
{
	char fmt[32];

	if (!tb[type])
		return;
	snprintf(fmt, sizeof(fmt), "%s %%u ", key);
	print_color_uint(PRINT_ANY, COLOR_NONE, key, fmt, rta_u32(tb, type));
}

static void print_str(const char *key, const char *val)
{
	char fmt[32];

	snprintf(fmt, sizeof(fmt), "%s %%s ", key);
	print_color_string(PRINT_ANY, COLOR_NONE, key, fmt, val);
}

/* A /96 prefix attribute as "PFX/96". */
static void print_ip6(struct rtattr *tb[], int type, const char *key)
{
	char a[INET6_ADDRSTRLEN], buf[INET6_ADDRSTRLEN + 4];

	if (!tb[type] || RTA_PAYLOAD(tb[type]) != 16)
		return;
	inet_ntop(AF_INET6, RTA_DATA(tb[type]), a, sizeof(a));
	snprintf(buf, sizeof(buf), "%s/96", a);
	print_str(key, buf);
}

/* The routing mode by the topology's name for it, else its number. */
static void print_mode(const struct dp_topo_ops *ops, struct rtattr *tb[])
{
	u32 m = rta_u32(tb, IFLA_DPILLAR_MODE), i;
	char num[16];

	if (!tb[IFLA_DPILLAR_MODE])
		return;
	for (i = 0; ops && ops->sel_names && ops->sel_names[i]; i++) {
		if (i == m) {
			print_str("mode", ops->sel_names[i]);
			return;
		}
	}
	snprintf(num, sizeof(num), "%u", m);
	print_str("mode", num);
}

/*
 * An on/off setting (the discovery fallback, NIC offloads): "NAME on|off"
 * as the words that set it, a boolean in JSON (as dpctl -j has it);
 * nothing from a module without it.  @quiet_off: a setting off by
 * default (nic_offload) is in the text only when on, as dpctl show has
 * it.
 */
static void print_onoff(struct rtattr *tb[], int type, const char *name,
			bool quiet_off)
{
	struct rtattr *a = tb[type];
	bool on;

	if (!a || RTA_PAYLOAD(a) != 1)
		return;
	on = *(__u8 *)RTA_DATA(a);
	print_color_bool(PRINT_JSON, COLOR_NONE, name, NULL, on);
	/* A setting off by default says so in text only when on. */
	if (quiet_off && !on)
		return;
	print_color_string(PRINT_FP, COLOR_NONE, NULL, "%s ", name);
	print_color_string(PRINT_FP, COLOR_NONE, NULL, "%s ",
			   on ? "on" : "off");
}

/* One word of dp_params_show(): "spaces 2 ", "coords 1,2 ". */
static void print_param(void *ctx, const struct dp_param *d, u32 v,
			const u32 *coords, u32 ncoords)
{
	char fmt[32];
	u32 i;

	(void)ctx;
	snprintf(fmt, sizeof(fmt), "%s %%u ", d->name);
	if (!ncoords) {
		print_color_uint(PRINT_ANY, COLOR_NONE, d->name, fmt, v);
		return;
	}
	open_json_array(PRINT_JSON, d->name);
	print_color_string(PRINT_FP, COLOR_NONE, NULL, "%s ", d->name);
	for (i = 0; i < ncoords; i++)
		print_color_uint(PRINT_ANY, COLOR_NONE, NULL,
				 i + 1 < ncoords ? "%u," : "%u ", coords[i]);
	close_json_array(PRINT_JSON, NULL);
}

/* The lower devices in port order ("-": a detached port). */
static void print_ports(struct rtattr *tb[])
{
	struct rtattr *p = tb[IFLA_DPILLAR_PORTS], *port;
	int rem, n = 0;

	if (!p)
		return;
	open_json_array(PRINT_JSON, "ports");
	print_color_string(PRINT_FP, COLOR_NONE, NULL, "%s", "ports ");
	for (port = RTA_DATA(p), rem = RTA_PAYLOAD(p); RTA_OK(port, rem);
	     port = RTA_NEXT(port, rem)) {
		u32 ifindex = RTA_PAYLOAD(port) >= 4 ?
			      *(u32 *)RTA_DATA(port) : 0;

		print_color_string(PRINT_ANY, COLOR_IFNAME, NULL,
				   n++ ? ",%s" : "%s",
				   ifindex ? ll_index_to_name(ifindex) : "-");
	}
	print_color_string(PRINT_FP, COLOR_NONE, NULL, "%s", n ? " " : "- ");
	close_json_array(PRINT_JSON, NULL);
}

/* ip -d link show DEV: the words that would make it, then what it is. */
static void dp_print_opt(struct link_util *lu, FILE *f, struct rtattr *tb[])
{
	const struct dp_topo_ops *ops;
	const struct dp_topo_param *nodes;
	struct dp_topo_params p = { 0 };
	char ip4[INET_ADDRSTRLEN + 4], a[INET_ADDRSTRLEN];
	char addr[DP_ADDR_TEXT_MAX];
	u32 kind;

	if (!tb)
		return;
	kind = rta_u32(tb, IFLA_DPILLAR_TOPO);
	ops = kind ? dp_topo_ops_by_kind(kind) : NULL;
	print_str("topo", kind ? (ops ? ops->name : "unknown") : "none");
	/*
	 * The topology's words, the node count among them where its table
	 * has it (struct rtattr is struct nlattr's layout).
	 */
	nodes = dp_topo_param_at(ops, offsetof(struct dp_topo_params, nodes));
	dp_params_get(&p, (const struct nlattr *const *)tb, false);
	dp_params_show(ops, &p, true, print_param, NULL);
	if (kind && tb[IFLA_DPILLAR_ADDR]) {
		snprintf(addr, sizeof(addr), "%.*s",
			 (int)RTA_PAYLOAD(tb[IFLA_DPILLAR_ADDR]),
			 (const char *)RTA_DATA(tb[IFLA_DPILLAR_ADDR]));
		print_str("addr", addr);
	}
	if (kind) {
		print_u32(tb, IFLA_DPILLAR_NODE_ID, "node_id");
		if (!nodes)
			print_u32(tb, IFLA_DPILLAR_NODES, "nodes");
	}
	print_u32(tb, IFLA_DPILLAR_HELLO_MS, "hello");
	print_u32(tb, IFLA_DPILLAR_DEAD_MS, "dead");
	if (tb[IFLA_DPILLAR_IP4_PREFIX] && tb[IFLA_DPILLAR_IP4_PREFIXLEN] &&
	    RTA_PAYLOAD(tb[IFLA_DPILLAR_IP4_PREFIX]) == 4) {
		inet_ntop(AF_INET, RTA_DATA(tb[IFLA_DPILLAR_IP4_PREFIX]), a,
			  sizeof(a));
		snprintf(ip4, sizeof(ip4), "%s/%u", a,
			 *(__u8 *)RTA_DATA(tb[IFLA_DPILLAR_IP4_PREFIXLEN]));
		print_str("ip4", ip4);
	}
	print_ip6(tb, IFLA_DPILLAR_IP6_PREFIX, "ip6");
	print_mode(ops, tb);
	print_onoff(tb, IFLA_DPILLAR_FALLBACK, "fallback", false);
	print_onoff(tb, IFLA_DPILLAR_NIC_OFFLOAD, "nic_offload", true);
	print_ip6(tb, IFLA_DPILLAR_KEY6_PREFIX, "key6");
	print_ports(tb);
}

static void dp_print_help(struct link_util *lu, int argc, char **argv,
			  FILE *f)
{
	help_put("Usage: ip link add DEV type dpillar [TOPOLOGY NICS] [SETTINGS]\n"
	      "       ip link set DEV type dpillar [TOPOLOGY] [SETTINGS]\n"
	      "       ip link set NIC master DEV\n"
	      "\n"
	      TOPO_HELP
	      "NICS := port0 NIC port1 NIC ...  (NIC none: the port absent)\n"
	      SETTINGS_HELP
	      "\n"
	      "Without a TOPOLOGY the device is unconfigured: a NIC set to\n"
	      "master DEV takes its lowest free port, and ip link set DEV\n"
	      "type dpillar TOPOLOGY configures it (or changes it, while DEV\n"
	      "is down).  dpctl(8) shows the fabric: neighbours, routes,\n"
	      "counters.\n", f);
}

DP_EXPORT struct link_util dpillar_link_util = {
	.id		= "dpillar",
	.maxattr	= IFLA_DPILLAR_MAX,
	.parse_opt	= dp_parse_opt,
	.print_opt	= dp_print_opt,
	.print_help	= dp_print_help,
};

/* A port: IFLA_INFO_SLAVE_DATA, read-only. */
static int dp_slave_parse_opt(struct link_util *lu, int argc, char **argv,
			      struct nlmsghdr *n)
{
	usage_error("a port has no settings (\"%s\")", argv[0]);
	return -1;
}

static void dp_slave_print_opt(struct link_util *lu, FILE *f,
			       struct rtattr *tb[])
{
	if (!tb)
		return;
	print_u32(tb, IFLA_DPILLAR_SLAVE_PORT, "port");
	if (tb[IFLA_DPILLAR_SLAVE_STATE])
		print_str("state", port_state_name(rta_u32(tb,
					IFLA_DPILLAR_SLAVE_STATE)));
	print_u32(tb, IFLA_DPILLAR_SLAVE_NEIGHS, "neighs");
	print_u32(tb, IFLA_DPILLAR_SLAVE_REACHABLE, "reachable");
}

static void dp_slave_print_help(struct link_util *lu, int argc, char **argv,
				FILE *f)
{
	fputs("Usage: ip link set NIC master DEV	(DEV: type dpillar)\n"
	      "       ip -d link show NIC\n"
	      "A port has no settings; ip -d shows its port number, state,\n"
	      "neighbour slots and how many of them are reachable.\n", f);
}

DP_EXPORT struct link_util dpillar_slave_link_util = {
	.id		= "dpillar_slave",
	.maxattr	= IFLA_DPILLAR_SLAVE_MAX,
	.parse_opt	= dp_slave_parse_opt,
	.print_opt	= dp_slave_print_opt,
	.print_help	= dp_slave_print_help,
};
