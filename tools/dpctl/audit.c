// SPDX-License-Identifier: GPL-2.0
/*
 * dpctl fabric: the whole fabric seen from this server.  Each server is
 * asked for its neighbour table with one probe (ROUTE_NEIGHS, paced), and
 * every cable is compared with the plan: the neighbours the topology puts
 * on each port of each server (dp_port_neigh(), what "dpctl plan"
 * prints).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/dpillar.h>

#include "dpctl.h"
#include "genl.h"
#include "nl.h"
#include "dp_json.h"
#include "neigh.h"

const char fabric_help[] =
	"dpctl fabric [dev DEV] [timeout MS] [pace MS]\n"
	"    every server of the fabric asked in turn for its neighbour\n"
	"    table (one probe each, answered within the reply budget of\n"
	"    route trace; CAP_NET_ADMIN): which servers answered, their\n"
	"    ports and neighbours, and every cable that differs from the\n"
	"    plan (\"dpctl plan\"): a port that hears a server the plan does\n"
	"    not put there and none it does (miswired), hears nobody\n"
	"    (missing) or should be unused (extra).  MS: the wait for each\n"
	"    reply (default 1000); pace: the pause between two servers\n"
	"    (default 10).  Exit status 0 when every server answered and\n"
	"    every cable matches the plan\n";

#define FAB_NEIGHS_MAX	128	/* DPILLAR_PROBE_NEIGHS_MAX */

struct fab_neigh {
	u32 port, node, peer_port, state;
	bool has_peer_port;
};

struct fab_node {
	bool answered, self, trunc;
	u32 status;		/* DPILLAR_PROBE_STATUS_*, 0: no probe */
	u32 hops, nports, ports_up, n;
	struct fab_neigh nb[FAB_NEIGHS_MAX];
};

static u32 attr_u32(const struct nlattr *const *tb, int type)
{
	return tb[type] ? mnl_attr_get_u32(tb[type]) : 0;
}

static int fab_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a, *tb[DPILLAR_A_ROUTE_MAX + 1];
	const struct nlattr *nt[DPILLAR_A_NEIGH_MAX + 1];
	const struct nlattr *pb[DPILLAR_A_PROBE_MAX + 1];
	struct fab_node *f = data;
	bool table;

	nl_parse(nlh, GENL_HDRLEN_ALIGNED, tb, DPILLAR_A_ROUTE_MAX);
	table = tb[DPILLAR_A_ROUTE_NODE_PORTS];
	f->nports = attr_u32(tb, DPILLAR_A_ROUTE_NODE_PORTS);
	f->ports_up = attr_u32(tb, DPILLAR_A_ROUTE_NODE_PORTS_UP);
	f->trunc = tb[DPILLAR_A_ROUTE_NEIGHS_TRUNC];
	if (tb[DPILLAR_A_ROUTE_PROBE]) {
		nl_parse_nested(tb[DPILLAR_A_ROUTE_PROBE], pb,
				DPILLAR_A_PROBE_MAX);
		f->status = attr_u32(pb, DPILLAR_A_PROBE_STATUS);
		f->hops = attr_u32(pb, DPILLAR_A_PROBE_HOPS);
	} else {
		f->self = table;	/* this server: no probe */
	}
	/* A server without ROUTE_NEIGHS answers the probe, no table. */
	f->answered = table;
	mnl_attr_for_each(a, nlh, GENL_HDRLEN_ALIGNED) {
		struct fab_neigh *e;

		if (mnl_attr_get_type(a) != DPILLAR_A_ROUTE_NEIGH ||
		    f->n >= FAB_NEIGHS_MAX)
			continue;
		nl_parse_nested(a, nt, DPILLAR_A_NEIGH_MAX);
		e = &f->nb[f->n++];
		e->port = attr_u32(nt, DPILLAR_A_NEIGH_PORT);
		e->node = attr_u32(nt, DPILLAR_A_NEIGH_NODE_ID);
		e->state = attr_u32(nt, DPILLAR_A_NEIGH_STATE);
		e->has_peer_port = nt[DPILLAR_A_NEIGH_PEER_PORT];
		e->peer_port = attr_u32(nt, DPILLAR_A_NEIGH_PEER_PORT);
	}
	return MNL_CB_OK;
}

enum fab_problem { FAB_OK, FAB_MISWIRED, FAB_MISSING, FAB_EXTRA };

static const char *const fab_problem_name[] = {
	"ok", "miswired", "missing", "extra",
};

/*
 * Port @p of answered server @s against the plan: the neighbours it
 * hears alive (@nreach) and the miswired sender it heard last (@mis),
 * the neighbours the plan puts there (@nplan).  A cable differs when it
 * hears none of its planned neighbours: a server the plan does not put
 * there (miswired), or nobody (missing); or when the plan has nothing on
 * the port and it hears someone (extra).  A planned neighbour not heard
 * on a port that hears others is the fault of that neighbour's cable,
 * reported there.
 */
static enum fab_problem fab_port(const struct dp_topo *t, u32 s, u32 p,
				 const struct fab_node *f,
				 const struct fab_neigh **mis, u32 *nplan)
{
	struct dp_port_info pi;
	u32 i, nreach = 0, nmis = 0;

	*nplan = 0;
	if (p < t->nports) {
		dp_port_info(t, s, p, &pi);
		for (i = 0; i < pi.nneigh; i++)
			*nplan += dp_port_neigh(t, s, p, i) != DP_NODE_NONE;
	}
	*mis = NULL;
	for (i = 0; i < f->n; i++) {
		if (f->nb[i].port != p)
			continue;
		if (f->nb[i].state == DPILLAR_NEIGH_STATE_MISWIRED) {
			*mis = &f->nb[i];
			nmis++;
		} else {
			nreach++;
		}
	}
	if (!*nplan)
		return nreach + nmis ? FAB_EXTRA : FAB_OK;
	if (nreach)
		return FAB_OK;
	return nmis ? FAB_MISWIRED : FAB_MISSING;
}

/* "switch L/ID (N servers)" or "A port P": what the plan puts on @p. */
static void fab_plan_text(const struct dp_topo *t, u32 s, u32 p, char *buf,
			  size_t len)
{
	char addr[DP_ADDR_TEXT_MAX];
	struct dp_port_info pi;
	u32 peer;

	dp_port_info(t, s, p, &pi);
	if (pi.kind == DP_PORT_SWITCH) {
		snprintf(buf, len, "switch %u/%u (%u servers)", pi.sw_level,
			 pi.sw_id, pi.nneigh + 1);
		return;
	}
	peer = pi.nneigh ? dp_port_neigh(t, s, p, 0) : DP_NODE_NONE;
	if (peer == DP_NODE_NONE) {
		snprintf(buf, len, "unused");
		return;
	}
	dp_addr_format(t, peer, addr, sizeof(addr));
	snprintf(buf, len, "%s port %d", addr, dp_peer_port(t, s, p, peer));
}

static const char *fab_status(const struct fab_node *f)
{
	static const char *const names[] = {
		[DPILLAR_PROBE_STATUS_REACHED] = "reached",
		[DPILLAR_PROBE_STATUS_TTL] = "ttl",
		[DPILLAR_PROBE_STATUS_NOROUTE] = "noroute",
		[DPILLAR_PROBE_STATUS_NONEIGH] = "noneigh",
		[DPILLAR_PROBE_STATUS_TIMEOUT] = "timeout",
	};

	if (f->self)
		return "self";
	if (f->status < sizeof(names) / sizeof(names[0]) && names[f->status])
		return names[f->status];
	return "error";
}

static void fab_json_neigh(const struct dp_topo *t, const char *key,
			   u32 node, int port)
{
	char addr[DP_ADDR_TEXT_MAX];

	json_open_obj(key);
	dp_addr_format(t, node, addr, sizeof(addr));
	json_str("addr", addr);
	json_uint("node_id", node);
	if (port >= 0)
		json_uint("port", port);
	json_close_obj();
}

/* One server: its line (or object) and its cables that differ. */
static u32 fab_print(const struct dp_topo *t, u32 s, const struct fab_node *f)
{
	char addr[DP_ADDR_TEXT_MAX], a2[DP_ADDR_TEXT_MAX];
	char plan[DP_ADDR_TEXT_MAX + 32];
	const struct fab_neigh *mis;
	u32 p, i, nplan, nreach = 0, nmis = 0, differ = 0;
	enum fab_problem pr;

	dp_addr_format(t, s, addr, sizeof(addr));
	for (i = 0; i < f->n; i++) {
		if (f->nb[i].state == DPILLAR_NEIGH_STATE_MISWIRED)
			nmis++;
		else
			nreach++;
	}
	if (opts.json) {
		json_open_obj(NULL);
		json_str("addr", addr);
		json_uint("node_id", s);
		json_bool("answered", f->answered);
		json_str("status", fab_status(f));
		if (f->status && !f->self)
			json_uint("hops", f->hops);
		if (f->answered) {
			json_uint("ports", f->nports);
			json_open_arr("ports_up");
			for (p = 0; p < f->nports && p < 32; p++)
				if (f->ports_up & (1U << p))
					json_uint(NULL, p);
			json_close_arr();
			json_bool("truncated", f->trunc);
			json_open_arr("neighbours");
			for (i = 0; i < f->n; i++) {
				const struct fab_neigh *e = &f->nb[i];

				json_open_obj(NULL);
				json_uint("port", e->port);
				dp_addr_format(t, e->node, a2, sizeof(a2));
				json_str("addr", a2);
				json_uint("node_id", e->node);
				if (e->has_peer_port)
					json_uint("peer_port", e->peer_port);
				json_str("state", neigh_state_name(e->state));
				json_close_obj();
			}
			json_close_arr();
			json_open_arr("differ");
		}
	} else if (!f->answered && f->status == DPILLAR_PROBE_STATUS_REACHED) {
		/* A module that does not know DPILLAR_PROBE_F_NEIGHS */
		printf("server %s id %u: no table (reached; its module has "
		       "no ROUTE_NEIGHS)\n", addr, s);
	} else if (!f->answered) {
		printf("server %s id %u: no answer (%s)\n", addr, s,
		       fab_status(f));
	} else {
		printf("server %s id %u: %s, ports up ", addr, s,
		       f->self ? "this server" : "answered");
		for (p = 0, i = 0; p < f->nports && p < 32; p++)
			if (f->ports_up & (1U << p))
				printf("%s%u", i++ ? "," : "", p);
		printf("%s of %u, neighbours %u, miswired %u%s\n",
		       i ? "" : "none", f->nports, nreach, nmis,
		       f->trunc ? " (table truncated)" : "");
	}
	if (!f->answered)
		goto out;
	for (p = 0; p < f->nports; p++) {
		/*
		 * A truncated table (more than 128 entries: BCube, DPillar
		 * with big switches) lacks the tail of its last port and
		 * the ports after it: nothing to compare there.
		 */
		if (f->trunc && f->n && p >= f->nb[f->n - 1].port)
			break;
		pr = t->learn_peers ? FAB_OK : fab_port(t, s, p, f, &mis,
							&nplan);
		if (pr == FAB_OK)
			continue;
		differ++;
		if (p < t->nports)
			fab_plan_text(t, s, p, plan, sizeof(plan));
		else
			snprintf(plan, sizeof(plan), "unused");
		if (opts.json) {
			json_open_obj(NULL);
			json_uint("port", p);
			json_str("problem", fab_problem_name[pr]);
			json_str("plan", plan);
			if (mis)
				fab_json_neigh(t, "heard", mis->node,
					       mis->peer_port);
			json_close_obj();
			continue;
		}
		printf("    cable %s port%u: %s: plan %s", addr, p,
		       fab_problem_name[pr], plan);
		if (mis) {
			dp_addr_format(t, mis->node, a2, sizeof(a2));
			printf(", heard %s port %u", a2, mis->peer_port);
		}
		printf("\n");
	}
	if (opts.json)
		json_close_arr();
out:
	if (opts.json)
		json_close_obj();
	return differ;
}

static void fab_sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int do_fabric(int argc, char **argv)
{
	unsigned int timeout = 0, pace = 10;
	u32 s, answered = 0, differ = 0;
	const char *dev = NULL;
	char desc[64];
	static struct fab_node f;
	struct nlmsghdr *nlh;
	struct nl_ctx ctx;
	struct dp_topo t;
	struct dp_dev d;
	int err;

	for (; argc > 0; argc -= 2, argv += 2) {
		if (is_help(argv[0])) {
			fputs(fabric_help, stdout);
			return EXIT_OK;
		}
		if (argc < 2)
			return usage_error("fabric: \"%s\" needs a value",
					   argv[0]);
		if (matches(argv[0], "dev")) {
			dev = argv[1];
		} else if (!strcmp(argv[0], "timeout")) {
			if (parse_u32(argv[1], &timeout) || !timeout ||
			    timeout > 5000)
				return usage_error("fabric: invalid timeout "
						   "\"%s\" (1..5000 ms)",
						   argv[1]);
		} else if (!strcmp(argv[0], "pace")) {
			if (parse_u32(argv[1], &pace) || pace > 10000)
				return usage_error("fabric: invalid pace "
						   "\"%s\" (0..10000 ms)",
						   argv[1]);
		} else {
			return usage_error("fabric: unexpected \"%s\"",
					   argv[0]);
		}
	}
	if (genl_open(&ctx, false))
		return EXIT_KERNEL;
	err = dev_find(&ctx, dev, &d, &t);
	if (err)
		goto out;
	dp_topo_describe(&t, desc, sizeof(desc));
	if (opts.json)
		json_list_begin(opts.pretty);
	else
		printf("fabric %s: %s, %u servers, seen from %s%s\n", d.ifname,
		       desc, t.nodes, d.addr, t.learn_peers ?
		       " (plan mode: no plan to compare with)" : "");
	for (s = 0; s < t.nodes; s++) {
		if (s && pace)
			fab_sleep_ms(pace);
		memset(&f, 0, sizeof(f));
		nlh = genl_msg(&ctx, DPILLAR_CMD_ROUTE_NEIGHS, 0);
		mnl_attr_put_u32(nlh, DPILLAR_A_ROUTE_IFINDEX, d.ifindex);
		mnl_attr_put_u32(nlh, DPILLAR_A_ROUTE_DST, s);
		if (timeout)
			mnl_attr_put_u32(nlh, DPILLAR_A_ROUTE_TIMEOUT_MS,
					 timeout);
		/* One server's error (its reply lost, EBUSY) is its line. */
		if (nl_talk(&ctx, nlh, fab_cb, &f, "fabric") &&
		    !f.status) {
			if (s == d.node_id) {
				err = EXIT_KERNEL;
				break;
			}
		}
		answered += f.answered;
		differ += fab_print(&t, s, &f);
	}
	if (opts.json) {
		json_list_end();
	} else if (!err) {
		printf("%u of %u servers answered; %u cables differ from the "
		       "plan\n", answered, t.nodes, differ);
	}
	if (!err && (answered != t.nodes || differ))
		err = EXIT_KERNEL;
out:
	nl_close(&ctx);
	return err;
}
