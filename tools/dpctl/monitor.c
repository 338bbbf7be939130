// SPDX-License-Identifier: GPL-2.0
/* dpctl monitor: neighbour and port events as the kernel sends them. */
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "dpctl.h"
#include "genl.h"
#include "dp_json.h"
#include "neigh.h"

const char monitor_help[] =
	"dpctl monitor [DEV]\n"
	"    print neighbour (up, down, miswired) and port events, one line\n"
	"    (with -j one JSON object) each, until interrupted; with -t each\n"
	"    starts with the local time it was received\n";

struct monitor {
	unsigned int family;
	unsigned int ifindex;	/* 0: every device */
};

static const char *neigh_event(u32 state)
{
	switch (state) {
	case DPILLAR_NEIGH_STATE_REACHABLE:
		return "up";
	case DPILLAR_NEIGH_STATE_UNREACHABLE:
		return "down";
	}
	return neigh_state_name(state);
}

/* As "ip -ts monitor": 2026-11-22T02:45:01.123456, local time. */
static void event_time(char *buf, size_t size)
{
	struct timeval tv;
	struct tm tm;
	size_t n;

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	n = strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, size - n, ".%06ld", (long)tv.tv_usec);
}

/* JSON: one object a line, "event" first, then "time" with -t. */
static void event_begin(const char *event)
{
	char when[40];

	if (opts.timestamp)
		event_time(when, sizeof(when));
	if (!opts.json) {
		if (opts.timestamp)
			printf("[%s] ", when);
		return;
	}
	json_init(opts.pretty);
	json_open_obj(NULL);
	json_str("event", event);
	if (opts.timestamp)
		json_str("time", when);
}

static void event_end(void)
{
	if (opts.json) {
		json_close_obj();
		json_end();
	}
	fflush(stdout);
}

static void monitor_neigh(const struct nlmsghdr *nlh, const struct monitor *m)
{
	struct dp_neigh n;

	neigh_parse(nlh, &n);
	if (m->ifindex && n.ifindex != m->ifindex)
		return;
	event_begin("neigh");
	if (opts.json) {
		neigh_json(&n);
	} else {
		printf("neigh %s %s port %u %s (id %u)", neigh_event(n.state),
		       n.dev, n.port, n.addr, n.node_id);
		if (n.has_mac)
			printf(" mac %s", n.mac);
		if (n.has_peer_port)
			printf(" peer-port %u", n.peer_port);
		putchar('\n');
	}
	event_end();
}

static void monitor_port(const struct nlmsghdr *nlh, const struct monitor *m)
{
	const struct dpctl_port *p;
	struct dp_dev d;

	dev_parse(nlh, &d);
	if ((m->ifindex && d.ifindex != m->ifindex) || !d.nports)
		return;
	p = &d.ports[0];
	event_begin("port");
	if (opts.json) {
		json_str("dev", d.ifname);
		json_uint("ifindex", d.ifindex);
		json_uint("port", p->index);
		if (*p->ifname)
			json_str("ifname", p->ifname);
		json_str("state", port_state_name(p->state));
		json_uint("reachable", p->reachable);
		json_uint("neighs", p->neighs);
	} else {
		printf("port %s port %u %s %s\n", d.ifname, p->index,
		       *p->ifname ? p->ifname : "-", port_state_name(p->state));
	}
	event_end();
}

static int monitor_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	const struct monitor *m = data;

	if (nlh->nlmsg_type != m->family ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*g))
		return MNL_CB_OK;
	if (g->cmd == DPILLAR_CMD_NEIGH_NTF)
		monitor_neigh(nlh, m);
	else if (g->cmd == DPILLAR_CMD_PORT_NTF)
		monitor_port(nlh, m);
	return MNL_CB_OK;
}

int do_monitor(int argc, char **argv)
{
	struct monitor m = { 0, 0 };
	struct nl_ctx ctx;
	int err;

	if (argc > 0 && matches(argv[0], "dev") && argc > 1) {
		argc--;
		argv++;
	}
	if (argc > 1)
		return usage_error("monitor: unexpected \"%s\"", argv[1]);
	if (argc == 1) {
		m.ifindex = dev_index(argv[0]);
		if (!m.ifindex)
			return EXIT_KERNEL;
	}
	if (genl_open(&ctx, true))
		return EXIT_KERNEL;
	m.family = ctx.family;
	err = nl_listen(&ctx, monitor_cb, &m);
	nl_close(&ctx);
	return err < 0 ? EXIT_KERNEL : EXIT_OK;
}
