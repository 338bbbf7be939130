// SPDX-License-Identifier: GPL-2.0
/*
 * dpctl show, stats, set: a device's fabric, ports, counters and settings
 * over the "dpillar" generic netlink family.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dpctl.h"
#include "genl.h"
#include "dp_json.h"
#include "table.h"

const char show_help[] =
	"dpctl show [DEV]\n"
	"    fabric, address, node id, timers, prefixes and ports of DEV\n"
	"    (default: every dpillar device)\n";
const char stats_help[] =
	"dpctl stats [DEV] [all | prometheus]\n"
	"    counters (ethtool -S names); non-zero ones unless \"all\";\n"
	"    \"prometheus\": every counter, port and device in Prometheus' text\n"
	"    format (node_exporter's textfile collector: dpillar-admin-guide.rst)\n";
const char set_help[] =
	"dpctl set DEV [TOPOLOGY] [SETTINGS]\n"
	"    " TOPO_HELP
	"    " SETTINGS_HELP
	"    A TOPOLOGY (with the server's address) configures a device made\n"
	"    without one (ip link add DEV type dpillar), or changes it: only\n"
	"    while DEV is down.  Its NICs stay on their port numbers.\n";

/* Arguments of show and stats: [DEV] [@word] */
static int dev_args(const char *what, int argc, char **argv,
		    const char **dev, const char *word, bool *has_word)
{
	int i;

	*dev = NULL;
	for (i = 0; i < argc; i++) {
		if (word && !*has_word && matches(argv[i], word))
			*has_word = true;
		else if (!*dev)
			*dev = argv[i];
		else
			return usage_error("%s: unexpected \"%s\"", what, argv[i]);
	}
	return EXIT_OK;
}

/* Open the family, run fn over DEV (or every device), frame the JSON. */
static int dev_cmd(const char *dev, void (*fn)(const struct dp_dev *d,
					       void *data), void *data)
{
	struct nl_ctx ctx;
	int err;

	if (genl_open(&ctx, false))
		return EXIT_KERNEL;
	if (opts.json)
		json_list_begin(opts.pretty);
	err = dev_each(&ctx, dev, fn, data);
	nl_close(&ctx);
	if (opts.json)
		json_list_end();
	return err;
}

/* The device's routing mode by its topology's name for it. */
static const char *mode_name(const struct dp_dev *d)
{
	static char num[16];
	const char *why;
	struct dp_topo t;

	if (!dev_topo(d, &t, &why) && d->mode < dp_sel_count(&t))
		return dp_sel_name(&t, d->mode);
	snprintf(num, sizeof(num), "%u", d->mode);
	return num;
}

static void show_json(const struct dp_dev *d, const char *ip4,
		      const char *ip6, const char *pfx4, const char *pfx6)
{
	const struct dp_topo_ops *ops = dp_topo_ops_by_kind(d->topo);
	u32 i;

	json_open_obj(NULL);
	json_str("ifname", d->ifname);
	json_uint("ifindex", d->ifindex);
	/* A newer kernel's topology: its number, which is all we know. */
	if (ops)
		json_str("topo", ops->name);
	else if (d->topo == DPILLAR_TOPO_UNSPEC)
		json_str("topo", "none");
	else
		json_uint("topo", d->topo);
	params_json(ops, &d->p);
	json_uint("nodes", d->p.nodes);
	/* Unconfigured: no address, node id or fabric IPs to show. */
	if (d->topo != DPILLAR_TOPO_UNSPEC) {
		json_str("addr", d->addr);
		json_uint("node_id", d->node_id);
		if (*ip4)
			json_str("ip4", ip4);
		json_str("ip6", ip6);
	}
	json_str("ip4_prefix", pfx4);
	json_str("ip6_prefix", pfx6);
	if (!IN6_IS_ADDR_UNSPECIFIED(&d->pfx.key6)) {
		char k6[FABRIC_IP6_TEXT];

		fabric_key6_text(&d->pfx, k6);
		json_str("key6_prefix", k6);
	}
	json_uint("hello_ms", d->hello_ms);
	json_uint("dead_ms", d->dead_ms);
	json_str("mode", mode_name(d));
	if (d->has_fallback)
		json_bool("fallback", d->fallback);
	if (d->has_nic_offload)
		json_bool("nic_offload", d->nic_offload);
	json_open_arr("ports");
	for (i = 0; i < d->nports; i++) {
		const struct dpctl_port *p = &d->ports[i];

		json_open_obj(NULL);
		json_uint("port", p->index);
		if (*p->ifname) {
			json_str("ifname", p->ifname);
			json_uint("ifindex", p->ifindex);
		}
		json_str("state", port_state_name(p->state));
		json_uint("switch_col", p->sw_col);
		json_uint("switch_id", p->sw_id);
		json_uint("neighs", p->neighs);
		json_uint("reachable", p->reachable);
		if (p->has_nic_offload)
			json_bool("nic_offload", p->nic_offload);
		json_close_obj();
	}
	json_close_arr();
	json_close_obj();
}

static void show_one(const struct dp_dev *d, void *data)
{
	const struct dp_topo_ops *ops = dp_topo_ops_by_kind(d->topo);
	char ip4[INET_ADDRSTRLEN] = "", ip6[INET6_ADDRSTRLEN];
	char pfx4[FABRIC_IP4_TEXT], pfx6[FABRIC_IP6_TEXT];
	char words[64 + 12 * DP_COORDS_MAX];
	struct table t;
	u32 i;

	(void)data;
	fabric_ip4(&d->pfx, d->node_id, ip4);
	fabric_ip6(&d->pfx, d->node_id, ip6);
	fabric_pfx_text(&d->pfx, pfx4, pfx6);
	if (d->topo == DPILLAR_TOPO_UNSPEC) {
		ip4[0] = '\0';
		snprintf(ip6, sizeof(ip6), "-");
	}
	if (opts.json) {
		show_json(d, ip4, ip6, pfx4, pfx6);
		return;
	}
	dp_params_text(words, sizeof(words), ops, &d->p, false, " ", ",");
	if (d->topo == DPILLAR_TOPO_UNSPEC)
		printf("%s: dpillar unconfigured (dpctl set %s TOPOLOGY)\n",
		       d->ifname, d->ifname);
	else
		printf("%s: %s%s (%u servers) addr %s id %u\n", d->ifname,
		       ops ? ops->name : "unknown", words, d->p.nodes, d->addr,
		       d->node_id);
	printf("    hello %ums dead %ums mode %s%s%s\n", d->hello_ms,
	       d->dead_ms, mode_name(d), !d->has_fallback ? "" :
	       d->fallback ? " fallback on" : " fallback off",
	       d->has_nic_offload && d->nic_offload ? " nic_offload on" : "");
	printf("    inet %s prefix %s\n", *ip4 ? ip4 : "-", pfx4);
	printf("    inet6 %s prefix %s\n", ip6, pfx6);
	if (!IN6_IS_ADDR_UNSPECIFIED(&d->pfx.key6)) {
		char k6[FABRIC_IP6_TEXT];

		fabric_key6_text(&d->pfx, k6);
		printf("    key6 prefix %s\n", k6);
	}
	table_init(&t, "PORT DEV STATE SWITCH REACHABLE");
	for (i = 0; i < d->nports; i++) {
		const struct dpctl_port *p = &d->ports[i];

		table_row(&t, "%u\t%s\t%s\t%u/%u\t%u/%u", p->index,
			  *p->ifname ? p->ifname : "-",
			  port_state_name(p->state), p->sw_col, p->sw_id,
			  p->reachable, p->neighs);
	}
	table_print(&t, "    ");
	if (d->has_nic_offload && d->nic_offload) {
		bool any = false;

		printf("    nic_offload in use on:");
		for (i = 0; i < d->nports; i++) {
			if (!d->ports[i].nic_offload)
				continue;
			printf(" %s", d->ports[i].ifname);
			any = true;
		}
		printf("%s\n", any ? "" : " none (no qualified NIC)");
	}
}

int do_show(int argc, char **argv)
{
	const char *dev;
	int err = dev_args("show", argc, argv, &dev, NULL, NULL);

	return err ? err : dev_cmd(dev, show_one, NULL);
}

/* ---- stats ---- */

/* UAPI counter names: those of "ethtool -S". */
static const char *const stat_names[DPILLAR_A_STATS_MAX + 1] = {
	[DPILLAR_A_STATS_RX_FRAMES] = "rx_frames",
	[DPILLAR_A_STATS_DELIVERED] = "delivered",
	[DPILLAR_A_STATS_FORWARDED] = "forwarded",
	[DPILLAR_A_STATS_TX] = "tx",
	[DPILLAR_A_STATS_HELLO_TX] = "hello_tx",
	[DPILLAR_A_STATS_HELLO_RX] = "hello_rx",
	[DPILLAR_A_STATS_DROP_SHORT] = "drop_short",
	[DPILLAR_A_STATS_DROP_VERSION] = "drop_version",
	[DPILLAR_A_STATS_DROP_TYPE] = "drop_type",
	[DPILLAR_A_STATS_DROP_ADDR] = "drop_addr",
	[DPILLAR_A_STATS_DROP_TTL] = "drop_ttl",
	[DPILLAR_A_STATS_DROP_PROTO] = "drop_proto",
	[DPILLAR_A_STATS_DROP_INNER] = "drop_inner",
	[DPILLAR_A_STATS_DROP_DOWN] = "drop_down",
	[DPILLAR_A_STATS_DROP_NOROUTE] = "drop_noroute",
	[DPILLAR_A_STATS_DROP_NONEIGH] = "drop_noneigh",
	[DPILLAR_A_STATS_DROP_MTU] = "drop_mtu",
	[DPILLAR_A_STATS_DROP_NOMEM] = "drop_nomem",
	[DPILLAR_A_STATS_DROP_OTHERHOST] = "drop_otherhost",
	[DPILLAR_A_STATS_HELLO_MISWIRED] = "hello_miswired",
	[DPILLAR_A_STATS_HELLO_BAD] = "hello_bad",
	[DPILLAR_A_STATS_TX_NOT_FABRIC] = "tx_not_fabric",
	[DPILLAR_A_STATS_TX_PROTO] = "tx_proto",
	[DPILLAR_A_STATS_TX_NOROUTE] = "tx_noroute",
	[DPILLAR_A_STATS_ROUTE_TUNNEL_HOPS] = "route_tunnel_hops",
	[DPILLAR_A_STATS_ROUTE_UTURNS] = "route_uturns",
	[DPILLAR_A_STATS_ROUTE_RING_REVERSALS] = "route_ring_reversals",
	[DPILLAR_A_STATS_ROUTE_DETOURS] = "route_detours",
	[DPILLAR_A_STATS_ROUTE_WAYPOINT_HOPS] = "route_waypoint_hops",
	[DPILLAR_A_STATS_ROUTE_DROP_DETOURS] = "route_detour_budget",
	[DPILLAR_A_STATS_DROP_VLAN] = "drop_vlan",
	[DPILLAR_A_STATS_HELLO_NOT_GROUP] = "hello_not_group",
	[DPILLAR_A_STATS_HELLO_MAC_CHANGE] = "hello_mac_change",
	[DPILLAR_A_STATS_SHORTCUT_DISCOVER] = "shortcut_discover",
	[DPILLAR_A_STATS_SHORTCUT_LEARNED] = "shortcut_learned",
	[DPILLAR_A_STATS_SHORTCUT_BAD] = "shortcut_bad",
	[DPILLAR_A_STATS_SHORTCUT_LIMIT] = "shortcut_limit",
	[DPILLAR_A_STATS_COORDS_RESOLVE] = "coords_resolve",
	[DPILLAR_A_STATS_COORDS_LEARNED] = "coords_learned",
	[DPILLAR_A_STATS_TX_RESOLVING] = "tx_resolving",
	[DPILLAR_A_STATS_PROBE_REPLY_BAD] = "probe_reply_bad",
	[DPILLAR_A_STATS_TX_COMPLETE_FAIL] = "tx_complete_fail",
	[DPILLAR_A_STATS_SHORTCUT_NEIGH_LIMIT] = "shortcut_neigh_limit",
	[DPILLAR_A_STATS_SHORTCUT_REPLY_LIMIT] = "shortcut_reply_limit",
	[DPILLAR_A_STATS_COORDS_EXPIRED] = "coords_expired",
	[DPILLAR_A_STATS_TX_PORT_DROP] = "tx_port_drop",
	[DPILLAR_A_STATS_PROBE_LIMIT] = "probe_limit",
	[DPILLAR_A_STATS_SHORTCUT_DATA] = "shortcut_data",
	[DPILLAR_A_STATS_SHORTCUT_DATA_LOST] = "shortcut_data_lost",
	[DPILLAR_A_STATS_HELLO_MAC_TAKEN] = "hello_mac_taken",
	[DPILLAR_A_STATS_PROBE_SENDER_LIMIT] = "probe_sender_limit",
	[DPILLAR_A_STATS_TX_NIC_OFFLOAD] = "tx_nic_offload",
};

/* The name of counter @type; the routing drops are named as in ethtool. */
static const char *stat_name(const struct dp_topo *t, int type, char *buf,
			     size_t len)
{
	const char *detour;

	/* The detour slots and routing drops are named by the topology. */
	if (t && type >= DPILLAR_A_STATS_ROUTE_TUNNEL_HOPS &&
	    type <= DPILLAR_A_STATS_ROUTE_RING_REVERSALS &&
	    (detour = dp_detour_name(t, type -
				     DPILLAR_A_STATS_ROUTE_TUNNEL_HOPS + 1)))
		snprintf(buf, len, "route_%s", detour);
	else if (t && type >= DPILLAR_A_STATS_ROUTE_DETOURS &&
		 type <= DPILLAR_A_STATS_ROUTE_WAYPOINT_HOPS &&
		 (detour = dp_detour_name(t, type -
					  DPILLAR_A_STATS_ROUTE_DETOURS + 4)))
		snprintf(buf, len, "route_%s", detour);
	else if (t && type >= DPILLAR_A_STATS_ROUTE_DROP_BAD_ADDR &&
		 type <= DPILLAR_A_STATS_ROUTE_DROP_NOPATH)
		snprintf(buf, len, "route_%s", dp_drop_reason_name(t, type -
			 DPILLAR_A_STATS_ROUTE_DROP_BAD_ADDR +
			 DP_DROP_ROUTE_BAD_ADDR));
	else if (t && type == DPILLAR_A_STATS_ROUTE_DROP_DETOURS)
		snprintf(buf, len, "route_%s", dp_drop_reason_name(t,
			 DPILLAR_A_STATS_ROUTE_DROP_NOPATH -
			 DPILLAR_A_STATS_ROUTE_DROP_BAD_ADDR +
			 DP_DROP_ROUTE_BAD_ADDR + 1));	/* reason 9 */
	else if (type <= DPILLAR_A_STATS_MAX && stat_names[type])
		snprintf(buf, len, "%s", stat_names[type]);
	else
		snprintf(buf, len, "counter_%d", type);	/* a newer kernel's */
	return buf;
}

static void stats_one(const struct dp_dev *d, void *data)
{
	bool all = *(bool *)data;
	const struct nlattr *a;
	unsigned int shown = 0;
	struct dp_topo topo;
	const struct dp_topo *t;
	const char *why;
	char name[64];

	/* the routing drops are named by the device's topology */
	t = dev_topo(d, &topo, &why) ? NULL : &topo;

	if (opts.json) {
		json_open_obj(NULL);
		json_str("ifname", d->ifname);
		json_uint("ifindex", d->ifindex);
		json_open_obj("stats");
	} else {
		printf("%s:\n", d->ifname);
	}
	if (d->stats) {
		mnl_attr_for_each_nested(a, d->stats) {
			int type = mnl_attr_get_type(a);
			u64 v;

			if (type == DPILLAR_A_STATS_PAD ||
			    mnl_attr_get_payload_len(a) != sizeof(v))
				continue;
			v = mnl_attr_get_u64(a);
			stat_name(t, type, name, sizeof(name));
			if (opts.json) {
				json_uint(name, v);
			} else if (v || all) {
				printf("    %s: %llu\n", name,
				       (unsigned long long)v);
				shown++;
			}
		}
	}
	if (opts.json) {
		json_close_obj();
		json_close_obj();
	} else if (!shown) {
		printf("    (every counter is zero)\n");
	}
}

/*
 * Prometheus' text exposition format (0.0.4): every sample of a metric in
 * one group under its HELP and TYPE lines, whatever the device, so the
 * samples of every device are gathered first, then printed by metric.
 * Counters are the kernel's, named as ethtool -S names them (so a newer
 * kernel's counter needs no new dpctl); every one is printed, zeros too,
 * because a series that appears late breaks rate().
 */
struct prom_sample {
	char metric[80];
	char labels[160];
	unsigned long long v;
	unsigned int seq;	/* arrival order: stable within a metric */
	bool counter;		/* PROM_PFX <ethtool -S name> PROM_SFX */
};

#define PROM_PFX "dpillar_"
#define PROM_SFX "_total"

struct prom_set {
	struct prom_sample *s;
	size_t n, cap;
	int err;
};

static void prom_add(struct prom_set *ps, const char *metric, bool counter,
		     unsigned long long v, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void prom_add(struct prom_set *ps, const char *metric, bool counter,
		     unsigned long long v, const char *fmt, ...)
{
	struct prom_sample *e;
	va_list ap;

	if (ps->err)
		return;
	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? 2 * ps->cap : 256;
		void *p = realloc(ps->s, cap * sizeof(*ps->s));

		if (!p) {
			ps->err = 1;
			return;
		}
		ps->s = p;
		ps->cap = cap;
	}
	e = &ps->s[ps->n];
	snprintf(e->metric, sizeof(e->metric), "%s", metric);
	va_start(ap, fmt);
	vsnprintf(e->labels, sizeof(e->labels), fmt, ap);
	va_end(ap);
	e->v = v;
	e->counter = counter;
	e->seq = ps->n++;
}

/* A label value: interface names may hold '"' or '\\' (IFNAMSIZ). */
static const char *prom_esc(const char *in, char *buf, size_t len)
{
	size_t o = 0;

	for (; *in && o + 3 < len; in++) {
		if (*in == '"' || *in == '\\')
			buf[o++] = '\\';
		buf[o++] = *in;
	}
	buf[o] = '\0';
	return buf;
}

static void stats_prom_one(const struct dp_dev *d, void *data)
{
	const struct dp_topo_ops *ops = dp_topo_ops_by_kind(d->topo);
	struct prom_set *ps = data;
	char dev[2 * IF_NAMESIZE + 1], nic[2 * IF_NAMESIZE + 1];
	char name[64], metric[80], topo[16];
	const struct nlattr *a;
	struct dp_topo tp;
	const struct dp_topo *t;
	const char *why;
	u32 i;

	t = dev_topo(d, &tp, &why) ? NULL : &tp;
	prom_esc(d->ifname, dev, sizeof(dev));
	if (ops)
		snprintf(topo, sizeof(topo), "%s", ops->name);
	else if (d->topo == DPILLAR_TOPO_UNSPEC)
		snprintf(topo, sizeof(topo), "none");
	else
		snprintf(topo, sizeof(topo), "%u", d->topo);
	prom_add(ps, "dpillar_device_info", false, 1,
		 "ifname=\"%s\",topo=\"%s\",addr=\"%s\",id=\"%u\"", dev,
		 topo, d->topo == DPILLAR_TOPO_UNSPEC ? "" : d->addr,
		 d->node_id);
	for (i = 0; i < d->nports; i++) {
		const struct dpctl_port *p = &d->ports[i];

		prom_esc(p->ifname, nic, sizeof(nic));
		prom_add(ps, "dpillar_port_up", false,
			 p->state == DPILLAR_PORT_STATE_UP,
			 "ifname=\"%s\",port=\"%u\",nic=\"%s\",state=\"%s\"",
			 dev, p->index, nic, port_state_name(p->state));
		prom_add(ps, "dpillar_port_neighbours_reachable", false,
			 p->reachable,
			 "ifname=\"%s\",port=\"%u\"", dev, p->index);
		prom_add(ps, "dpillar_port_neighbours", false, p->neighs,
			 "ifname=\"%s\",port=\"%u\"", dev, p->index);
	}
	if (!d->stats)
		return;
	mnl_attr_for_each_nested(a, d->stats) {
		int type = mnl_attr_get_type(a);

		if (type == DPILLAR_A_STATS_PAD ||
		    mnl_attr_get_payload_len(a) != sizeof(u64))
			continue;
		stat_name(t, type, name, sizeof(name));
		snprintf(metric, sizeof(metric), PROM_PFX "%s" PROM_SFX, name);
		prom_add(ps, metric, true, mnl_attr_get_u64(a),
			 "ifname=\"%s\"", dev);
	}
}

static int prom_cmp(const void *x, const void *y)
{
	const struct prom_sample *a = x, *b = y;
	int c = strcmp(a->metric, b->metric);

	return c ? c : (a->seq > b->seq) - (a->seq < b->seq);
}

/* The HELP text of @e; a counter's is its ethtool -S name. */
static const char *prom_help(const struct prom_sample *e, char *buf,
			     size_t len)
{
	const size_t pfx = sizeof(PROM_PFX) - 1, sfx = sizeof(PROM_SFX) - 1;
	static const char *const fixed[][2] = {
		{ "dpillar_device_info", "A dpillar device: its topology, address and node id" },
		{ "dpillar_port_up", "1 when the port's NIC is attached and up (state: up, down, absent)" },
		{ "dpillar_port_neighbours_reachable", "Neighbours heard from within the dead interval on the port's switch" },
		{ "dpillar_port_neighbours", "Neighbours the port's switch should have" },
	};
	size_t i, l = strlen(e->metric);

	if (e->counter) {
		snprintf(buf, len, "dpillar counter %.*s (dpctl stats, ethtool -S)",
			 (int)(l - pfx - sfx), e->metric + pfx);
		return buf;
	}
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (!strcmp(e->metric, fixed[i][0]))
			return fixed[i][1];
	return "";
}

static int stats_prom(const char *dev)
{
	struct prom_set ps = { 0 };
	char help[128];
	size_t i;
	int err;

	/* -j has nothing to frame here. */
	opts.json = false;
	err = dev_cmd(dev, stats_prom_one, &ps);
	if (!err && ps.err) {
		fprintf(stderr, "dpctl: stats: out of memory\n");
		err = EXIT_KERNEL;
	}
	if (!err) {
		qsort(ps.s, ps.n, sizeof(*ps.s), prom_cmp);
		for (i = 0; i < ps.n; i++) {
			const struct prom_sample *e = &ps.s[i];

			if (!i || strcmp(e->metric, ps.s[i - 1].metric)) {
				printf("# HELP %s %s\n", e->metric,
				       prom_help(e, help, sizeof(help)));
				printf("# TYPE %s %s\n", e->metric,
				       e->counter ? "counter" : "gauge");
			}
			printf("%s{%s} %llu\n", e->metric, e->labels, e->v);
		}
	}
	free(ps.s);
	return err;
}

int do_stats(int argc, char **argv)
{
	const char *dev = NULL;
	bool all = false, prom = false;
	int i;

	/* "prometheus" prints every counter: "all" with it is allowed. */
	for (i = 0; i < argc; i++) {
		if (!all && matches(argv[i], "all"))
			all = true;
		else if (!prom && matches(argv[i], "prometheus"))
			prom = true;
		else if (!dev)
			dev = argv[i];
		else
			return usage_error("stats: unexpected \"%s\"", argv[i]);
	}
	return prom ? stats_prom(dev) : dev_cmd(dev, stats_one, &all);
}

/* ---- set ---- */

static const struct setting_attrs dev_settings = {
	.hello = DPILLAR_A_DEV_HELLO_MS,
	.dead = DPILLAR_A_DEV_DEAD_MS,
	.ip4 = DPILLAR_A_DEV_IP4_PREFIX,
	.ip4_len = DPILLAR_A_DEV_IP4_PREFIXLEN,
	.ip6 = DPILLAR_A_DEV_IP6_PREFIX,
	.key6 = DPILLAR_A_DEV_KEY6_PREFIX,
	.mode = DPILLAR_A_DEV_MODE,
	.fallback = DPILLAR_A_DEV_FALLBACK,
	.nic_offload = DPILLAR_A_DEV_NIC_OFFLOAD,
};

static const struct topo_attrs dev_topo_attrs = {
	.topo = DPILLAR_A_DEV_TOPO, .addr = DPILLAR_A_DEV_ADDR, .genl = true,
};

/*
 * set DEV [TOPOLOGY] [SETTINGS]: the settings of a running device, or
 * (device down, or unconfigured) its topology and address too, as
 * "wg set" does for WireGuard.  The topology words are those of link add.
 */
int do_set(int argc, char **argv)
{
	const struct dp_topo_ops *ops;
	struct nlmsghdr *nlh;
	unsigned int ifindex;
	char scratch[MNL_SOCKET_BUFFER_SIZE];
	struct topo_args a;
	struct nl_ctx ctx;
	unsigned int i;
	int ret;

	if (argc < 3 || !(argc & 1))
		return usage_error("set: expected DEV and KEY VALUE pairs");
	ret = topo_args_parse("set", argc - 1, argv + 1, false, &a);
	if (ret)
		return ret;
	if (a.given) {
		ret = topo_args_check("set", &a, false);
		if (ret)
			return ret;
		/* Mode names are the new topology's. */
		ops = a.ops;
	} else {
		ops = settings_ops(argv[0], argc - 1, argv + 1);
	}
	/* Check every setting before asking the kernel anything. */
	nlh = mnl_nlmsg_put_header(scratch);
	for (i = 0; i < a.nsettings; i += 2) {
		ret = put_setting(nlh, &dev_settings, ops, a.settings[i],
				  a.settings[i + 1]);
		if (ret != 1)
			return ret;
	}
	ifindex = dev_index(argv[0]);
	if (!ifindex)
		return EXIT_KERNEL;
	if (genl_open(&ctx, false))
		return EXIT_KERNEL;
	nlh = genl_msg(&ctx, DPILLAR_CMD_DEV_SET, 0);
	mnl_attr_put_u32(nlh, DPILLAR_A_DEV_IFINDEX, ifindex);
	if (a.given)
		topo_args_put(nlh, &a, &dev_topo_attrs);
	for (i = 0; i < a.nsettings; i += 2)
		put_setting(nlh, &dev_settings, ops, a.settings[i],
			    a.settings[i + 1]);
	ret = nl_talk(&ctx, nlh, NULL, NULL, argv[0]) ? EXIT_KERNEL : EXIT_OK;
	nl_close(&ctx);
	return ret;
}
