// SPDX-License-Identifier: GPL-2.0
/*
 * dpctl link: create, delete and list dpillar devices over rtnetlink.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/dpillar.h>

#include "dpctl.h"
#include "genl.h"
#include "fabric.h"
#include "dp_json.h"
#include "nl.h"
#include "topo.h"

/* Open an rtnetlink socket, or say why not. */
static int rtnl_open(struct nl_ctx *ctx)
{
	if (nl_open(ctx, NETLINK_ROUTE)) {
		perror("dpctl: netlink");
		return -1;
	}
	return 0;
}

/* Start an rtnetlink link request, about @ifname when given. */
static struct nlmsghdr *link_msg(struct nl_ctx *ctx, int type, int flags,
				 const char *ifname)
{
	struct nlmsghdr *nlh = nl_msg(ctx, type, flags);
	struct ifinfomsg *ifi;

	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	if (ifname)
		mnl_attr_put_strz(nlh, IFLA_IFNAME, ifname);
	return nlh;
}

const char link_help[] =
	"dpctl link add DEV TOPOLOGY port0 IF port1 IF ... [SETTINGS]\n"
	"dpctl link add DEV [SETTINGS]\n"
	"dpctl link set DEV [SETTINGS] [portN IF ...]\n"
	"dpctl link del DEV\n"
	"dpctl link show [DEV]\n"
	"    " TOPO_HELP
	"    " SETTINGS_HELP
	"    topo is the fabric's topology (default dpillar).  addr is the\n"
	"    server's address: \"#<node id>\" in any topology, or DPillar's\n"
	"    column C, then the label symbols v_{k-1}...v_0, e.g. 2:3.0.1\n"
	"    when k = 3.  level is XDCent's top level i (topo xdcent).\n"
	"    S2: N nodes of PORTS ports, L spaces; coordinates and cabling\n"
	"    derived from the seed (dpctl plan --topo s2); id I is its node\n"
	"    id (the same as addr).  coords (plan mode): this node's own L\n"
	"    coordinates from a plan (dpctl plan topo s2 ... mode plan),\n"
	"    each a u32 (decimal or 0x hex); the cabling is then learned\n"
	"    from the Hellos.  Without a topology, the device is\n"
	"    unconfigured (as ip link add DEV type dpillar): attach NICs with\n"
	"    ip link set NIC master DEV, configure it with dpctl set.  portN\n"
	"    none: port N has no NIC yet (absent); dpctl up -W attaches it,\n"
	"    or link set DEV portN IF (port N must have no NIC).\n";

unsigned int coords_get(const struct nlattr *attr, unsigned int *x)
{
	unsigned int len;

	if (!attr)
		return 0;
	len = mnl_attr_get_payload_len(attr);
	if (!len || len % 4 || len > DP_COORDS_MAX * 4)
		return 0;
	memcpy(x, mnl_attr_get_payload(attr), len);
	return len / 4;
}

void coords_text(const unsigned int *x, unsigned int n, char *buf,
		 size_t len)
{
	size_t pos;
	unsigned int i;

	if (!n) {
		snprintf(buf, len, "derived");
		return;
	}
	pos = snprintf(buf, len, "plan");
	for (i = 0; i < n && pos < len; i++)
		pos += snprintf(buf + pos, len - pos, "%s%u", i ? "," : " ",
				x[i]);
}

void coords_json(const unsigned int *x, unsigned int n)
{
	unsigned int i;

	if (!n)
		return;
	json_open_arr("coords");
	for (i = 0; i < n; i++)
		json_uint(NULL, x[i]);
	json_close_arr();
}

static void param_json(void *ctx, const struct dp_param *d, u32 v,
		       const u32 *coords, u32 ncoords)
{
	u32 i;

	(void)ctx;
	if (!ncoords) {
		json_uint(d->name, v);
		return;
	}
	json_open_arr(d->name);
	for (i = 0; i < ncoords; i++)
		json_uint(NULL, coords[i]);
	json_close_arr();
}

void params_json(const struct dp_topo_ops *ops,
		 const struct dp_topo_params *p)
{
	u32 i;

	dp_params_show(ops, p, false, param_json, NULL);
	for (i = 0; ops && i < ops->nparams; i++)
		if (ops->params[i].flags & DP_PARAM_COORDS)
			json_str("coords_mode", p->ncoords ? "plan" : "derived");
}

/*
 * link add DEV [TOPOLOGY ADDR PORTS] [SETTINGS]: without a topology, an
 * unconfigured device (as "ip link add DEV type dpillar").
 */
int link_add(int argc, char **argv)
{
	struct nlattr *linkinfo, *data;
	struct nlmsghdr *nlh;
	struct topo_args a;
	struct nl_ctx ctx;
	const char *dev;
	int ret;
	u32 i;

	if (argc < 1)
		return usage_error("link add: missing device name");
	dev = argv[0];
	if (strlen(dev) >= IFNAMSIZ)
		return usage_error("link add: device name \"%s\" too long", dev);
	ret = topo_args_parse("link add", argc - 1, argv + 1, true, &a);
	if (ret)
		return ret;
	if (a.given || a.nports) {
		ret = topo_args_check("link add", &a, true);
		if (ret)
			return ret;
	}
	ret = topo_args_check_new("link add", &a, a.nports);
	if (ret)
		return ret;

	if (rtnl_open(&ctx))
		return EXIT_KERNEL;
	nlh = link_msg(&ctx, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, dev);
	linkinfo = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "dpillar");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	if (a.given) {
		topo_args_put_link(nlh, &a);
	}
	for (i = 0; i < a.nsettings; i += 2) {
		ret = put_setting(nlh, &dp_link_settings, a.ops, a.settings[i],
				  a.settings[i + 1]);
		if (ret == EXIT_USAGE) {
			nl_close(&ctx);
			return ret;
		}
	}
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, linkinfo);

	ret = nl_talk(&ctx, nlh, NULL, NULL, "link add") ? EXIT_KERNEL : EXIT_OK;
	nl_close(&ctx);
	return ret;
}

static int link_set(int argc, char **argv)
{
	unsigned int ifindex[DPILLAR_PORTS_MAX] = {}, nports = 0, p;
	struct nlattr *linkinfo, *data, *ports;
	const struct dp_topo_ops *ops;
	struct nlmsghdr *nlh;
	struct nl_ctx ctx;
	int ret;

	if (argc < 3 || !(argc & 1))
		return usage_error("link set: expected DEV and KEY VALUE pairs");
	if (rtnl_open(&ctx))
		return EXIT_KERNEL;
	ops = settings_ops(argv[0], argc - 1, argv + 1);
	nlh = link_msg(&ctx, RTM_NEWLINK, 0, argv[0]);
	linkinfo = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "dpillar");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	for (argc--, argv++; argc > 0; argc -= 2, argv += 2) {
		/* portN IF: attach IF to port N, which has no NIC. */
		if (!strncmp(argv[0], "port", 4) && argv[0][4] &&
		    !parse_u32(argv[0] + 4, &p)) {
			if (p >= DPILLAR_PORTS_MAX) {
				nl_close(&ctx);
				return usage_error("link set: invalid port \"%s\"",
						   argv[0]);
			}
			ifindex[p] = if_nametoindex(argv[1]);
			if (!ifindex[p]) {
				fprintf(stderr, "dpctl: link set: %s: device \"%s\" does not exist\n",
					argv[0], argv[1]);
				nl_close(&ctx);
				return EXIT_KERNEL;
			}
			if (p + 1 > nports)
				nports = p + 1;
			continue;
		}
		ret = put_setting(nlh, &dp_link_settings, ops, argv[0], argv[1]);
		if (ret != 1) {
			nl_close(&ctx);
			return ret ? ret : usage_error("link set: unknown setting \"%s\"",
						       argv[0]);
		}
	}
	if (nports) {
		ports = mnl_attr_nest_start(nlh, IFLA_DPILLAR_PORTS);
		for (p = 0; p < nports; p++)
			mnl_attr_put_u32(nlh, IFLA_DPILLAR_PORT, ifindex[p]);
		mnl_attr_nest_end(nlh, ports);
	}
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, linkinfo);
	ret = nl_talk(&ctx, nlh, NULL, NULL, "link set") ? EXIT_KERNEL : EXIT_OK;
	nl_close(&ctx);
	return ret;
}

/*
 * NIC @ifindex to port @port of @dev, which must have none (changelink's
 * port list: 0 for the ports before it, which are left as they are).
 */
int link_attach(const char *dev, unsigned int port, unsigned int ifindex,
		const char *what)
{
	struct nlattr *linkinfo, *data, *ports;
	struct nlmsghdr *nlh;
	struct nl_ctx ctx;
	unsigned int i;
	int ret;

	if (rtnl_open(&ctx))
		return EXIT_KERNEL;
	nlh = link_msg(&ctx, RTM_NEWLINK, 0, dev);
	linkinfo = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "dpillar");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	ports = mnl_attr_nest_start(nlh, IFLA_DPILLAR_PORTS);
	for (i = 0; i <= port; i++)
		mnl_attr_put_u32(nlh, IFLA_DPILLAR_PORT, i == port ? ifindex : 0);
	mnl_attr_nest_end(nlh, ports);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, linkinfo);
	ret = nl_talk(&ctx, nlh, NULL, NULL, what) ? EXIT_KERNEL : EXIT_OK;
	nl_close(&ctx);
	return ret;
}

struct link_info {
	const char *ifname;
	unsigned int ifindex;
	unsigned int operstate;
	bool carrier;
	bool is_dpillar;
	const struct nlattr *data[IFLA_DPILLAR_MAX + 1];
};

static unsigned int dp_u32(const struct link_info *li, int type);

/* An on/off setting's word; NULL from a module without it. */
static const char *link_onoff(const struct link_info *li, int type)
{
	const struct nlattr *a = li->data[type];

	if (!a || mnl_attr_get_payload_len(a) != 1)
		return NULL;
	return mnl_attr_get_u8(a) ? "on" : "off";
}

/* The routing mode by the topology's name for it, else its number. */
static const char *link_mode_name(const struct dp_topo_ops *ops,
				  const struct link_info *li, char *buf,
				  size_t len)
{
	u32 m = dp_u32(li, IFLA_DPILLAR_MODE), i;

	for (i = 0; ops && ops->sel_names && ops->sel_names[i]; i++)
		if (i == m)
			return ops->sel_names[i];
	snprintf(buf, len, "%u", m);
	return buf;
}

static int parse_link(const struct nlmsghdr *nlh, struct link_info *li)
{
	const struct nlattr *tb[IFLA_MAX + 1];
	const struct nlattr *info[IFLA_INFO_MAX + 1];
	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);

	memset(li, 0, sizeof(*li));
	nl_parse(nlh, sizeof(*ifi), tb, IFLA_MAX);
	li->ifindex = ifi->ifi_index;
	li->ifname = tb[IFLA_IFNAME] ? mnl_attr_get_str(tb[IFLA_IFNAME]) : "?";
	li->operstate = tb[IFLA_OPERSTATE] ? mnl_attr_get_u8(tb[IFLA_OPERSTATE]) : 0;
	li->carrier = tb[IFLA_CARRIER] && mnl_attr_get_u8(tb[IFLA_CARRIER]);
	if (!tb[IFLA_LINKINFO])
		return 0;
	nl_parse_nested(tb[IFLA_LINKINFO], info, IFLA_INFO_MAX);
	if (!info[IFLA_INFO_KIND] ||
	    strcmp(mnl_attr_get_str(info[IFLA_INFO_KIND]), "dpillar"))
		return 0;
	li->is_dpillar = true;
	if (info[IFLA_INFO_DATA])
		nl_parse_nested(info[IFLA_INFO_DATA], li->data, IFLA_DPILLAR_MAX);
	return 0;
}

static unsigned int dp_u32(const struct link_info *li, int type)
{
	return li->data[type] ? mnl_attr_get_u32(li->data[type]) : 0;
}

static const char *operstate_name(unsigned int s)
{
	static const char *const names[] = {
		"UNKNOWN", "NOTPRESENT", "DOWN", "LOWERLAYERDOWN",
		"TESTING", "DORMANT", "UP",
	};

	return s < sizeof(names) / sizeof(names[0]) ? names[s] : "UNKNOWN";
}

/*
 * The addresses this server answers to: the node id placed in the fabric's
 * prefixes ("-" when the id does not fit the IPv4 host part).
 */
/* The device's IP prefixes: its attributes, else the module's defaults. */
static void link_pfx(const struct link_info *li, struct fabric_pfx *pfx)
{
	const struct nlattr *p4 = li->data[IFLA_DPILLAR_IP4_PREFIX];
	const struct nlattr *l4 = li->data[IFLA_DPILLAR_IP4_PREFIXLEN];
	const struct nlattr *p6 = li->data[IFLA_DPILLAR_IP6_PREFIX];

	fabric_pfx_default(pfx);
	if (p4 && l4 && mnl_attr_get_payload_len(p4) == 4) {
		memcpy(&pfx->ip4, mnl_attr_get_payload(p4), 4);
		pfx->ip4_len = mnl_attr_get_u8(l4);
	}
	if (p6 && mnl_attr_get_payload_len(p6) == 16)
		memcpy(&pfx->ip6, mnl_attr_get_payload(p6), 16);
}

/*
 * The addresses this server answers to: the node id placed in the fabric's
 * prefixes ("-" when the id does not fit the IPv4 host part).
 */
static void fabric_ips(const struct link_info *li, unsigned int id,
		       char *ip4, char *ip6)
{
	struct fabric_pfx pfx;

	link_pfx(li, &pfx);
	fabric_ip4(&pfx, id, ip4);
	fabric_ip6(&pfx, id, ip6);
}

static void print_link(const struct link_info *li)
{
	unsigned int id = dp_u32(li, IFLA_DPILLAR_NODE_ID);
	struct dp_topo_params prm = {
		.kind = li->data[IFLA_DPILLAR_TOPO] ?
			dp_u32(li, IFLA_DPILLAR_TOPO) : DPILLAR_TOPO_DPILLAR,
	};
	const struct dp_topo_ops *ops = dp_topo_ops_by_kind(prm.kind);

	/* What the topology's table has (the node count: S2's only). */
	dp_params_get(&prm, li->data, false);
	dp_topo_params_keep(ops, &prm);
	char addr[DP_ADDR_TEXT_MAX] = "?";
	const struct nlattr *port;
	struct dp_topo topo;
	const char *why;
	unsigned int idx = 0;

	char ip4[INET_ADDRSTRLEN] = "-", ip6[INET6_ADDRSTRLEN] = "-";
	const char *fallback = link_onoff(li, IFLA_DPILLAR_FALLBACK);
	const char *nic_off = link_onoff(li, IFLA_DPILLAR_NIC_OFFLOAD);
	char mode[16];

	if (!dp_topo_init(&topo, &prm, &why))
		dp_addr_format(&topo, id, addr, sizeof(addr));
	fabric_ips(li, id, ip4, ip6);

	if (opts.json) {
		json_open_obj(NULL);
		json_str("ifname", li->ifname);
		json_uint("ifindex", li->ifindex);
		json_str("topo", ops ? ops->name : "unknown");
		params_json(ops, &prm);
		json_str("addr", addr);
		json_uint("node_id", id);
		json_uint("nodes", dp_u32(li, IFLA_DPILLAR_NODES));
		json_str("ip4", ip4);
		json_str("ip6", ip6);
		json_uint("hello_ms", dp_u32(li, IFLA_DPILLAR_HELLO_MS));
		json_uint("dead_ms", dp_u32(li, IFLA_DPILLAR_DEAD_MS));
		json_str("mode", link_mode_name(ops, li, mode, sizeof(mode)));
		if (fallback)
			json_bool("fallback", !strcmp(fallback, "on"));
		if (nic_off)
			json_bool("nic_offload", !strcmp(nic_off, "on"));
		json_str("operstate", operstate_name(li->operstate));
		json_bool("carrier", li->carrier);
		json_open_arr("ports");
	} else {
		char lv[64 + 12 * DP_COORDS_MAX];

		dp_params_text(lv, sizeof(lv), ops, &prm, false, " ", ",");
		printf("%u: %s: %s%s addr %s id %u of %u state %s%s\n",
		       li->ifindex, li->ifname, ops ? ops->name : "unknown",
		       lv, addr, id,
		       dp_u32(li, IFLA_DPILLAR_NODES),
		       operstate_name(li->operstate),
		       li->carrier ? "" : " NO-CARRIER");
		printf("    inet %s inet6 %s hello %ums dead %ums mode %s%s%s%s%s\n",
		       ip4, ip6, dp_u32(li, IFLA_DPILLAR_HELLO_MS),
		       dp_u32(li, IFLA_DPILLAR_DEAD_MS),
		       link_mode_name(ops, li, mode, sizeof(mode)),
		       fallback ? " fallback " : "", fallback ? fallback : "",
		       nic_off ? " nic_offload " : "", nic_off ? nic_off : "");
	}
	if (li->data[IFLA_DPILLAR_PORTS]) {
		mnl_attr_for_each_nested(port, li->data[IFLA_DPILLAR_PORTS]) {
			unsigned int ifindex = mnl_attr_get_u32(port);
			char name[IF_NAMESIZE] = "-";

			if (ifindex && !if_indextoname(ifindex, name))
				strcpy(name, "?");
			if (opts.json) {
				json_open_obj(NULL);
				json_uint("port", idx);
				json_uint("ifindex", ifindex);
				json_str("ifname", name);
				json_close_obj();
			} else {
				printf("    port%u %s%s\n", idx, name,
				       ifindex ? "" : " (detached)");
			}
			idx++;
		}
	}
	if (opts.json) {
		json_close_arr();
		json_close_obj();
	}
}

struct show_ctx {
	const char *dev;
	unsigned int found;
};

static int show_cb(const struct nlmsghdr *nlh, void *data)
{
	struct show_ctx *sc = data;
	struct link_info li;

	if (nlh->nlmsg_type != RTM_NEWLINK)
		return MNL_CB_OK;
	parse_link(nlh, &li);
	if (!li.is_dpillar || (sc->dev && strcmp(sc->dev, li.ifname)))
		return MNL_CB_OK;
	sc->found++;
	print_link(&li);
	return MNL_CB_OK;
}

static int link_show(int argc, char **argv)
{
	struct show_ctx sc = { .dev = argc > 0 ? argv[0] : NULL };
	struct nlmsghdr *nlh;
	struct nl_ctx ctx;
	int err;

	if (argc > 1)
		return usage_error("link show: unexpected \"%s\"", argv[1]);
	if (rtnl_open(&ctx))
		return EXIT_KERNEL;
	nlh = link_msg(&ctx, RTM_GETLINK, sc.dev ? 0 : NLM_F_DUMP, sc.dev);
	if (opts.json)
		json_list_begin(opts.pretty);
	err = nl_talk(&ctx, nlh, show_cb, &sc, sc.dev ? sc.dev : "link show");
	nl_close(&ctx);
	if (opts.json)
		json_list_end();
	if (err)
		return EXIT_KERNEL;
	if (sc.dev && !sc.found) {
		fprintf(stderr, "dpctl: %s: not a dpillar device\n", sc.dev);
		return EXIT_KERNEL;
	}
	return EXIT_OK;
}

static int check_cb(const struct nlmsghdr *nlh, void *data)
{
	struct link_info li;

	parse_link(nlh, &li);
	*(bool *)data = li.is_dpillar;
	return MNL_CB_OK;
}

struct fabric_ctx {
	struct link_info li;
	struct fabric_pfx *pfx;
	u32 *id;
	unsigned int *ports;
	unsigned int nports;
	bool found;
};

static int fabric_cb(const struct nlmsghdr *nlh, void *data)
{
	struct fabric_ctx *fc = data;
	const struct nlattr *port;

	if (nlh->nlmsg_type != RTM_NEWLINK)
		return MNL_CB_OK;
	parse_link(nlh, &fc->li);
	if (!fc->li.is_dpillar)
		return MNL_CB_OK;
	fc->found = true;
	*fc->id = dp_u32(&fc->li, IFLA_DPILLAR_NODE_ID);
	link_pfx(&fc->li, fc->pfx);
	fc->nports = 0;
	if (fc->li.data[IFLA_DPILLAR_PORTS])
		mnl_attr_for_each_nested(port, fc->li.data[IFLA_DPILLAR_PORTS])
			if (fc->nports < DPILLAR_PORTS_MAX)
				fc->ports[fc->nports++] = mnl_attr_get_u32(port);
	return MNL_CB_OK;
}

int link_fabric(const char *dev, struct fabric_pfx *pfx, u32 *id,
		unsigned int *ports, unsigned int *nports)
{
	unsigned int buf[DPILLAR_PORTS_MAX];
	struct fabric_ctx fc = {
		.pfx = pfx, .id = id, .ports = ports ? ports : buf,
	};
	struct nlmsghdr *nlh;
	struct nl_ctx ctx;
	int err;

	if (rtnl_open(&ctx))
		return EXIT_KERNEL;
	nlh = link_msg(&ctx, RTM_GETLINK, 0, dev);
	err = nl_talk(&ctx, nlh, fabric_cb, &fc, dev);
	nl_close(&ctx);
	if (err)
		return EXIT_KERNEL;
	if (!fc.found) {
		fprintf(stderr, "dpctl: %s: not a dpillar device\n", dev);
		return EXIT_KERNEL;
	}
	if (nports)
		*nports = fc.nports;
	return EXIT_OK;
}

int link_del(int argc, char **argv)
{
	struct nlmsghdr *nlh;
	struct nl_ctx ctx;
	bool is_dp = false;
	int ret = EXIT_KERNEL;

	if (argc != 1)
		return usage_error("link del: expected exactly one device");
	if (rtnl_open(&ctx))
		return EXIT_KERNEL;
	/* Refuse to delete anything that is not ours: operators fat-finger. */
	nlh = link_msg(&ctx, RTM_GETLINK, 0, argv[0]);
	if (nl_talk(&ctx, nlh, check_cb, &is_dp, argv[0]))
		goto out;
	if (!is_dp) {
		fprintf(stderr, "dpctl: %s: not a dpillar device\n", argv[0]);
		goto out;
	}
	nlh = link_msg(&ctx, RTM_DELLINK, 0, argv[0]);
	if (!nl_talk(&ctx, nlh, NULL, NULL, "link del"))
		ret = EXIT_OK;
out:
	nl_close(&ctx);
	return ret;
}

const char showconf_help[] =
	"dpctl showconf DEV\n"
	"    DEV as a configuration file, the one \"dpctl up DEV -c FILE\"\n"
	"    reads: its topology, address, ports and every setting (as wg\n"
	"    showconf).  dpctl showconf dp0 >/etc/dpillar/dp0.conf keeps a\n"
	"    device made by hand for the next boot.\n";

/* @li as "KEY VALUE" lines, or an error when dpctl up could not redo it. */
static int print_conf(const struct link_info *li)
{
	u32 kind = dp_u32(li, IFLA_DPILLAR_TOPO);
	const struct dp_topo_ops *ops = dp_topo_ops_by_kind(kind);
	const struct nlattr *addr = li->data[IFLA_DPILLAR_ADDR], *port;
	char t4[FABRIC_IP4_TEXT], t6[FABRIC_IP6_TEXT], mode[16];
	struct dp_topo_params prm = { .kind = kind };
	char words[64 + 12 * DP_COORDS_MAX];
	char names[DPILLAR_PORTS_MAX][IF_NAMESIZE];
	struct fabric_pfx pfx;
	unsigned int i, idx = 0;

	if (kind == DPILLAR_TOPO_UNSPEC || !ops || !addr) {
		fprintf(stderr, "dpctl: %s: unconfigured (no topology): nothing for dpctl up\n",
			li->ifname);
		return EXIT_KERNEL;
	}
	if (li->data[IFLA_DPILLAR_PORTS]) {
		mnl_attr_for_each_nested(port, li->data[IFLA_DPILLAR_PORTS]) {
			unsigned int ifindex = mnl_attr_get_u32(port);

			if (idx >= DPILLAR_PORTS_MAX)
				break;
			if (!ifindex || !if_indextoname(ifindex, names[idx])) {
				fprintf(stderr, "dpctl: %s: port%u is detached: nothing for dpctl up\n",
					li->ifname, idx);
				return EXIT_KERNEL;
			}
			idx++;
		}
	}
	printf("# %s (dpctl showconf): dpctl up %s -c FILE recreates it\n",
	       li->ifname, li->ifname);
	printf("topo %s\n", ops->name);
	/* The words that make it: its table's, the node count among them. */
	dp_params_get(&prm, li->data, false);
	dp_params_text(words, sizeof(words), ops, &prm, true, "\n", ",");
	printf("%s\n", words + 1);
	printf("addr %s\n", mnl_attr_get_str(addr));
	for (i = 0; i < idx; i++)
		printf("%s%s", i ? " " : "ports ", names[i]);
	if (idx)
		printf("\n");
	link_pfx(li, &pfx);
	fabric_pfx_text(&pfx, t4, t6);
	printf("hello %u\ndead %u\nmode %s\nip4 %s\nip6 %s\n",
	       dp_u32(li, IFLA_DPILLAR_HELLO_MS),
	       dp_u32(li, IFLA_DPILLAR_DEAD_MS),
	       link_mode_name(ops, li, mode, sizeof(mode)), t4, t6);
	if (li->data[IFLA_DPILLAR_KEY6_PREFIX] &&
	    mnl_attr_get_payload_len(li->data[IFLA_DPILLAR_KEY6_PREFIX]) == 16) {
		memcpy(&pfx.key6,
		       mnl_attr_get_payload(li->data[IFLA_DPILLAR_KEY6_PREFIX]), 16);
		fabric_key6_text(&pfx, t6);
		printf("key6 %s\n", t6);
	}
	/* Off only, as key6 when set: a file without it means the default. */
	if (link_onoff(li, IFLA_DPILLAR_FALLBACK) &&
	    !strcmp(link_onoff(li, IFLA_DPILLAR_FALLBACK), "off"))
		printf("fallback off\n");
	/* On only: off is the default. */
	if (link_onoff(li, IFLA_DPILLAR_NIC_OFFLOAD) &&
	    !strcmp(link_onoff(li, IFLA_DPILLAR_NIC_OFFLOAD), "on"))
		printf("nic_offload on\n");
	return EXIT_OK;
}

static int showconf_cb(const struct nlmsghdr *nlh, void *data)
{
	struct link_info li;

	if (nlh->nlmsg_type != RTM_NEWLINK)
		return MNL_CB_OK;
	parse_link(nlh, &li);
	*(int *)data = li.is_dpillar ? print_conf(&li) : -1;
	return MNL_CB_OK;
}

int do_showconf(int argc, char **argv)
{
	struct nlmsghdr *nlh;
	struct nl_ctx ctx;
	int ret = -1, err;

	if (argc != 1)
		return usage_error("showconf: expected exactly one device");
	if (rtnl_open(&ctx))
		return EXIT_KERNEL;
	nlh = link_msg(&ctx, RTM_GETLINK, 0, argv[0]);
	err = nl_talk(&ctx, nlh, showconf_cb, &ret, argv[0]);
	nl_close(&ctx);
	if (err)
		return EXIT_KERNEL;
	if (ret < 0) {
		fprintf(stderr, "dpctl: %s: not a dpillar device\n", argv[0]);
		return EXIT_KERNEL;
	}
	return ret;
}

static const struct cmd link_cmds[] = {
	{ "add", link_add, NULL },
	{ "set", link_set, NULL },
	{ "delete", link_del, NULL },
	{ "show", link_show, NULL },
	{ "list", link_show, NULL },
	{ NULL, NULL, NULL },
};

int do_link(int argc, char **argv)
{
	return run_cmd("link", link_help, link_cmds, argc, argv, link_show);
}
