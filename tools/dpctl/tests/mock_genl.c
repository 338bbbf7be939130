// SPDX-License-Identifier: GPL-2.0
/*
 * A fake "dpillar" generic netlink family for test-offline.sh: preloaded
 * (LD_PRELOAD), it answers dpctl's requests with canned replies, so the
 * parsing and printing of show, stats, neigh, route get, set and monitor
 * are tested without the kernel module.  MOCK_NOFAM: no family;
 * MOCK_TWO: two devices; MOCK_UNREACH: route get fails with an extack;
 * MOCK_EPERM: set fails with an extack; MOCK_RTNL: an rtnetlink socket
 * whose "link add" request is printed on stderr; MOCK_NOKIND: with MOCK_RTNL,
 * "link add" fails as without the module (EOPNOTSUPP, "Unknown device
 * type").  (4,3) fabric, this server 0:0.0.0.
 * MOCK_S2=derived|plan: the device is S2 node 3 of 16, 4 ports, 2 spaces,
 * seed 7, with (plan) coords 268435456,4000000000.
 * MOCK_FALLBACK=on|off: the device reports its discovery fallback so
 * (unset: it does not, as a module without one).
 * MOCK_TOPO="KIND N K LEVEL" (or KIND_N_K_LEVEL): the device is node 0
 * of that fabric.
 * MOCK_FABRIC=FILE: ROUTE_NEIGHS answers for node D with the lines
 * "D PORT PEER PEER_PORT STATE" of FILE (MOCK_NPORTS ports, all up);
 * MOCK_SILENT=D: node D's probe times out; MOCK_OLD=D: node D answers
 * without a table (a module without DPILLAR_PROBE_F_NEIGHS); MOCK_TRUNC:
 * every table says it was truncated.
 */
#include <string.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/rtnetlink.h>
#include <linux/if_link.h>
#include <linux/dpillar.h>
#include <net/if.h>
#include <arpa/inet.h>

static char out[65536];
static size_t outlen;
#define FAM 0x20
static int nevents;
static unsigned int myport;

static struct nlmsghdr *put(const struct nlmsghdr *req, int type, int cmd, int flags)
{
	struct nlmsghdr *n = mnl_nlmsg_put_header(out + outlen);
	n->nlmsg_type = type; n->nlmsg_seq = req->nlmsg_seq; n->nlmsg_pid = req->nlmsg_seq ? myport : 0; n->nlmsg_flags = flags;
	if (cmd >= 0) { struct genlmsghdr *g = mnl_nlmsg_put_extra_header(n, sizeof(*g)); g->cmd = cmd; g->version = 1; }
	return n;
}
static void done(struct nlmsghdr *n) { outlen += n->nlmsg_len; }
static void ack(const struct nlmsghdr *req, int err, const char *msg)
{
	struct nlmsghdr *n = put(req, NLMSG_ERROR, -1, msg ? NLM_F_ACK_TLVS | NLM_F_CAPPED : NLM_F_CAPPED);
	struct nlmsgerr *e = mnl_nlmsg_put_extra_header(n, sizeof(*e));
	e->error = err; e->msg = *req;
	if (msg) mnl_attr_put_strz(n, NLMSGERR_ATTR_MSG, msg);
	done(n);
}
static void dump_done(const struct nlmsghdr *req)
{
	struct nlmsghdr *n = put(req, NLMSG_DONE, -1, NLM_F_MULTI);
	int *z = mnl_nlmsg_put_extra_header(n, sizeof(int)); *z = 0; done(n);
}
static void port(struct nlmsghdr *n, int i, const char *name, int state, int col, int id, int reach)
{
	struct nlattr *p = mnl_attr_nest_start(n, DPILLAR_A_DEV_PORT);
	mnl_attr_put_u32(n, DPILLAR_A_PORT_INDEX, i);
	if (name) { mnl_attr_put_u32(n, DPILLAR_A_PORT_IFINDEX, 1); mnl_attr_put_strz(n, DPILLAR_A_PORT_IFNAME, name); }
	mnl_attr_put_u32(n, DPILLAR_A_PORT_STATE, state);
	mnl_attr_put_u32(n, DPILLAR_A_PORT_SWITCH_COLUMN, col);
	mnl_attr_put_u32(n, DPILLAR_A_PORT_SWITCH_ID, id);
	mnl_attr_put_u32(n, DPILLAR_A_PORT_NEIGHS, 3);
	mnl_attr_put_u32(n, DPILLAR_A_PORT_REACHABLE, reach);
	mnl_attr_nest_end(n, p);
}
static void dev(const struct nlmsghdr *req, int flags)
{
	struct nlmsghdr *n = put(req, FAM, DPILLAR_CMD_DEV_GET, flags);
	uint32_t ip4 = htonl(0x0a000000); uint8_t ip6[16] = {0xfd,0x64,0x70,0x69,0x6c,0x6c,0x61,0x72};
	mnl_attr_put_u32(n, DPILLAR_A_DEV_IFINDEX, 1);
	mnl_attr_put_strz(n, DPILLAR_A_DEV_IFNAME, "dp0");
	const char *s2 = getenv("MOCK_S2"), *topo = getenv("MOCK_TOPO");
	unsigned int kind, tn, tk, tl;
	if (topo && sscanf(topo, "%u%*[ _]%u%*[ _]%u%*[ _]%u", &kind, &tn, &tk, &tl) == 4) {
		mnl_attr_put_u32(n, DPILLAR_A_DEV_TOPO, kind);
		mnl_attr_put_u32(n, DPILLAR_A_DEV_N, tn);
		mnl_attr_put_u32(n, DPILLAR_A_DEV_K, tk);
		mnl_attr_put_u32(n, DPILLAR_A_DEV_LEVEL, tl);
		mnl_attr_put_u32(n, DPILLAR_A_DEV_NODE_ID, 0);
		mnl_attr_put_strz(n, DPILLAR_A_DEV_ADDR, "self");
	} else if (s2) {
		uint32_t x[2] = { 0x10000000, 4000000000u };
		mnl_attr_put_u32(n, DPILLAR_A_DEV_TOPO, DPILLAR_TOPO_S2);
		mnl_attr_put_u32(n, DPILLAR_A_DEV_N, 4);
		mnl_attr_put_u32(n, DPILLAR_A_DEV_SPACES, 2);
		mnl_attr_put_u32(n, DPILLAR_A_DEV_SEED, 7);
		if (!strcmp(s2, "plan")) mnl_attr_put(n, DPILLAR_A_DEV_COORDS, sizeof(x), x);
		mnl_attr_put_u32(n, DPILLAR_A_DEV_NODES, 16);
		mnl_attr_put_u32(n, DPILLAR_A_DEV_NODE_ID, 3);
		mnl_attr_put_strz(n, DPILLAR_A_DEV_ADDR, "3");
	} else {
	mnl_attr_put_u32(n, DPILLAR_A_DEV_TOPO, 1);
	mnl_attr_put_u32(n, DPILLAR_A_DEV_N, 4);
	mnl_attr_put_u32(n, DPILLAR_A_DEV_K, 3);
	mnl_attr_put_u32(n, DPILLAR_A_DEV_NODES, 24);
	mnl_attr_put_u32(n, DPILLAR_A_DEV_NODE_ID, 0);
	mnl_attr_put_strz(n, DPILLAR_A_DEV_ADDR, "0:0.0.0");
	}
	mnl_attr_put_u32(n, DPILLAR_A_DEV_HELLO_MS, 100);
	mnl_attr_put_u32(n, DPILLAR_A_DEV_DEAD_MS, 300);
	mnl_attr_put(n, DPILLAR_A_DEV_IP4_PREFIX, 4, &ip4);
	mnl_attr_put_u8(n, DPILLAR_A_DEV_IP4_PREFIXLEN, 8);
	mnl_attr_put(n, DPILLAR_A_DEV_IP6_PREFIX, 16, ip6);
	const char *fb = getenv("MOCK_FALLBACK");
	if (fb) mnl_attr_put_u8(n, DPILLAR_A_DEV_FALLBACK, !strcmp(fb, "on"));
	port(n, 0, "eth0", 1, 0, 0, 3);
	port(n, 1, NULL, 3, 2, 0, 0);
	struct nlattr *s = mnl_attr_nest_start(n, DPILLAR_A_DEV_STATS);
	for (int t = DPILLAR_A_STATS_RX_FRAMES; t <= DPILLAR_A_STATS_MAX; t++)
		mnl_attr_put_u64(n, t, t % 5 ? 0 : t * 10);
	mnl_attr_nest_end(n, s);
	done(n);
}
static void neigh(const struct nlmsghdr *req, int cmd, int flags, int p, int id, const char *a, int st, int heard)
{
	struct nlmsghdr *n = put(req, FAM, cmd, flags);
	uint8_t mac[6] = {0x52,0x54,0,0x12,0x34,id};
	mnl_attr_put_u32(n, DPILLAR_A_NEIGH_IFINDEX, 1);
	mnl_attr_put_u32(n, DPILLAR_A_NEIGH_PORT, p);
	mnl_attr_put_u32(n, DPILLAR_A_NEIGH_NODE_ID, id);
	mnl_attr_put_strz(n, DPILLAR_A_NEIGH_ADDR, a);
	mnl_attr_put_u32(n, DPILLAR_A_NEIGH_STATE, st);
	if (heard) { mnl_attr_put(n, DPILLAR_A_NEIGH_MAC, 6, mac); mnl_attr_put_u32(n, DPILLAR_A_NEIGH_LAST_HEARD_MS, 42); mnl_attr_put_u32(n, DPILLAR_A_NEIGH_PEER_PORT, 1); }
	done(n);
}
static void shortcut(const struct nlmsghdr *req, int dst, const char *a, int port, int next, int hops, int origin)
{
	struct nlmsghdr *n = put(req, FAM, DPILLAR_CMD_SHORTCUT_GET, NLM_F_MULTI);
	mnl_attr_put_u32(n, DPILLAR_A_SHORTCUT_IFINDEX, 1);
	mnl_attr_put_u32(n, DPILLAR_A_SHORTCUT_DST, dst);
	mnl_attr_put_strz(n, DPILLAR_A_SHORTCUT_DST_ADDR, a);
	if (hops) { mnl_attr_put_u32(n, DPILLAR_A_SHORTCUT_PORT, port); mnl_attr_put_u32(n, DPILLAR_A_SHORTCUT_NEXT, next); }
	mnl_attr_put_u32(n, DPILLAR_A_SHORTCUT_HOPS, hops);
	if (origin) mnl_attr_put(n, DPILLAR_A_SHORTCUT_ORIGIN, 0, NULL);
	mnl_attr_put_u32(n, DPILLAR_A_SHORTCUT_AGE_MS, 1500);
	mnl_attr_put_u32(n, DPILLAR_A_SHORTCUT_IDLE_MS, 20);
	done(n);
}
static void hop(struct nlmsghdr *n, int id, const char *a, int port, int ph)
{
	struct nlattr *h = mnl_attr_nest_start(n, DPILLAR_A_ROUTE_HOP);
	mnl_attr_put_u32(n, DPILLAR_A_HOP_NODE_ID, id);
	mnl_attr_put_strz(n, DPILLAR_A_HOP_ADDR, a);
	mnl_attr_put_u32(n, DPILLAR_A_HOP_PORT, port);
	mnl_attr_put_u32(n, DPILLAR_A_HOP_PHASE, ph);
	mnl_attr_nest_end(n, h);
}


/* ROUTE_NEIGHS for the request's DST from MOCK_FABRIC (see the top). */
static void route_neighs(const struct nlmsghdr *req)
{
	const char *file = getenv("MOCK_FABRIC"), *silent = getenv("MOCK_SILENT");
	const char *np = getenv("MOCK_NPORTS");
	unsigned int dst = 0, node, port, peer, pp, st, self = getenv("MOCK_S2") ? 3 : 0;
	const struct nlattr *a;
	char line[128];
	FILE *f;

	mnl_attr_for_each(a, req, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == DPILLAR_A_ROUTE_DST) dst = mnl_attr_get_u32(a);
	struct nlmsghdr *n = put(req, FAM, DPILLAR_CMD_ROUTE_NEIGHS, 0);
	mnl_attr_put_u32(n, DPILLAR_A_ROUTE_DST, dst);
	if (dst != self) {
		int quiet = silent && (unsigned int)atoi(silent) == dst;
		struct nlattr *pr = mnl_attr_nest_start(n, DPILLAR_A_ROUTE_PROBE);
		mnl_attr_put_u32(n, DPILLAR_A_PROBE_TTL, 11);
		mnl_attr_put_u32(n, DPILLAR_A_PROBE_STATUS, quiet ? DPILLAR_PROBE_STATUS_TIMEOUT : DPILLAR_PROBE_STATUS_REACHED);
		if (!quiet) { mnl_attr_put_u32(n, DPILLAR_A_PROBE_REPORTER, dst); mnl_attr_put_u32(n, DPILLAR_A_PROBE_HOPS, 2); }
		mnl_attr_nest_end(n, pr);
		if (quiet) { done(n); ack(req, 0, NULL); return; }
		if (getenv("MOCK_OLD") && (unsigned int)atoi(getenv("MOCK_OLD")) == dst) { done(n); ack(req, 0, NULL); return; }
	}
	mnl_attr_put_u32(n, DPILLAR_A_ROUTE_NODE_PORTS, np ? atoi(np) : 2);
	mnl_attr_put_u32(n, DPILLAR_A_ROUTE_NODE_PORTS_UP, (1U << (np ? atoi(np) : 2)) - 1);
	if (getenv("MOCK_TRUNC")) mnl_attr_put(n, DPILLAR_A_ROUTE_NEIGHS_TRUNC, 0, NULL);
	f = file ? fopen(file, "r") : NULL;
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%u %u %u %u %u", &node, &port, &peer, &pp, &st) != 5 || node != dst) continue;
		struct nlattr *e = mnl_attr_nest_start(n, DPILLAR_A_ROUTE_NEIGH);
		mnl_attr_put_u32(n, DPILLAR_A_NEIGH_PORT, port);
		mnl_attr_put_u32(n, DPILLAR_A_NEIGH_NODE_ID, peer);
		mnl_attr_put_u32(n, DPILLAR_A_NEIGH_STATE, st);
		mnl_attr_put_u32(n, DPILLAR_A_NEIGH_PEER_PORT, pp);
		mnl_attr_nest_end(n, e);
	}
	if (f) fclose(f);
	done(n); ack(req, 0, NULL);
}

/* S2's coords as the request carries them: " coords C0,C1" (u32s). */
static void coords_log(const struct nlattr *a)
{
	const uint32_t *x = mnl_attr_get_payload(a);
	unsigned int len = mnl_attr_get_payload_len(a), i;

	if (len % 4) { fprintf(stderr, " coords of %u bytes", len); return; }
	fprintf(stderr, " coords");
	for (i = 0; i < len / 4; i++) fprintf(stderr, "%c%u", i ? ',' : ' ', x[i]);
}

/*
 * MOCK_RTNL: the socket is rtnetlink (its message types overlap generic
 * netlink's); print what "link add" asks for on stderr and accept it.
 */
static void rtnl_newlink(const struct nlmsghdr *req)
{
	const struct nlattr *a, *b, *c;

	mnl_attr_for_each(a, req, sizeof(struct ifinfomsg)) {
		if (mnl_attr_get_type(a) == IFLA_IFNAME)
			fprintf(stderr, "newlink %s", mnl_attr_get_str(a));
		if (mnl_attr_get_type(a) != IFLA_LINKINFO)
			continue;
		mnl_attr_for_each_nested(b, a) {
			if (mnl_attr_get_type(b) != IFLA_INFO_DATA)
				continue;
			mnl_attr_for_each_nested(c, b) {
				switch (mnl_attr_get_type(c)) {
				case IFLA_DPILLAR_TOPO: fprintf(stderr, " topo %u", mnl_attr_get_u32(c)); break;
				case IFLA_DPILLAR_N: fprintf(stderr, " n %u", mnl_attr_get_u32(c)); break;
				case IFLA_DPILLAR_K: fprintf(stderr, " k %u", mnl_attr_get_u32(c)); break;
				case IFLA_DPILLAR_ADDR: fprintf(stderr, " addr %s", mnl_attr_get_str(c)); break;
				case IFLA_DPILLAR_NODES: fprintf(stderr, " nodes %u", mnl_attr_get_u32(c)); break;
				case IFLA_DPILLAR_SPACES: fprintf(stderr, " spaces %u", mnl_attr_get_u32(c)); break;
				case IFLA_DPILLAR_SEED: fprintf(stderr, " seed %u", mnl_attr_get_u32(c)); break;
				case IFLA_DPILLAR_COORDS: coords_log(c); break;
				case IFLA_DPILLAR_COLUMN: fprintf(stderr, " column"); break;
				case IFLA_DPILLAR_LABEL: fprintf(stderr, " label"); break;
				case IFLA_DPILLAR_PORTS: fprintf(stderr, " ports"); break;
				case IFLA_DPILLAR_FALLBACK: fprintf(stderr, " fallback %u", mnl_attr_get_payload_len(c) == 1 ? mnl_attr_get_u8(c) : 99); break;
				case IFLA_DPILLAR_NIC_OFFLOAD: fprintf(stderr, " nic_offload %u", mnl_attr_get_payload_len(c) == 1 ? mnl_attr_get_u8(c) : 99); break;
				default: fprintf(stderr, " attr%u", mnl_attr_get_type(c)); break;
				}
			}
		}
	}
	fprintf(stderr, "\n");
	ack(req, 0, NULL);
}

/* DEV_SET: print the topology it carries on stderr ("set" with TOPOLOGY). */
static void devset_log(const struct nlmsghdr *req)
{
	const struct nlattr *a;

	fprintf(stderr, "devset");
	mnl_attr_for_each(a, req, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case DPILLAR_A_DEV_TOPO: fprintf(stderr, " topo %u", mnl_attr_get_u32(a)); break;
		case DPILLAR_A_DEV_N: fprintf(stderr, " n %u", mnl_attr_get_u32(a)); break;
		case DPILLAR_A_DEV_K: fprintf(stderr, " k %u", mnl_attr_get_u32(a)); break;
		case DPILLAR_A_DEV_NODES: fprintf(stderr, " nodes %u", mnl_attr_get_u32(a)); break;
		case DPILLAR_A_DEV_SPACES: fprintf(stderr, " spaces %u", mnl_attr_get_u32(a)); break;
		case DPILLAR_A_DEV_SEED: fprintf(stderr, " seed %u", mnl_attr_get_u32(a)); break;
		case DPILLAR_A_DEV_ADDR: fprintf(stderr, " addr %s", mnl_attr_get_str(a)); break;
		case DPILLAR_A_DEV_MODE: fprintf(stderr, " mode %u", mnl_attr_get_u32(a)); break;
		case DPILLAR_A_DEV_COORDS: coords_log(a); break;
		case DPILLAR_A_DEV_FALLBACK: fprintf(stderr, " fallback %u", mnl_attr_get_payload_len(a) == 1 ? mnl_attr_get_u8(a) : 99); break;
		case DPILLAR_A_DEV_NIC_OFFLOAD: fprintf(stderr, " nic_offload %u", mnl_attr_get_payload_len(a) == 1 ? mnl_attr_get_u8(a) : 99); break;
		default: break;
		}
	}
	fprintf(stderr, "\n");
}

ssize_t mnl_socket_sendto(const struct mnl_socket *nl, const void *buf, size_t len)
{
	const struct nlmsghdr *req = buf; const struct genlmsghdr *g = mnl_nlmsg_get_payload(req);
	myport = mnl_socket_get_portid(nl); outlen = 0;
	if (getenv("MOCK_RTNL")) {
		if (req->nlmsg_type == RTM_NEWLINK && getenv("MOCK_NOKIND")) ack(req, -EOPNOTSUPP, "Unknown device type");
		else if (req->nlmsg_type == RTM_NEWLINK) rtnl_newlink(req); else ack(req, -EOPNOTSUPP, NULL);
		return len;
	}
	if (req->nlmsg_type == GENL_ID_CTRL) {
		if (getenv("MOCK_NOFAM")) { ack(req, -ENOENT, NULL); return len; }
		struct nlmsghdr *n = put(req, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY, 0);
		mnl_attr_put_u16(n, CTRL_ATTR_FAMILY_ID, FAM);
		struct nlattr *gs = mnl_attr_nest_start(n, CTRL_ATTR_MCAST_GROUPS);
		struct nlattr *g1 = mnl_attr_nest_start(n, 1);
		mnl_attr_put_strz(n, CTRL_ATTR_MCAST_GRP_NAME, "events");
		mnl_attr_put_u32(n, CTRL_ATTR_MCAST_GRP_ID, 7);
		mnl_attr_nest_end(n, g1); mnl_attr_nest_end(n, gs);
		done(n); ack(req, 0, NULL); return len;
	}
	switch (g->cmd) {
	case DPILLAR_CMD_DEV_GET:
		if (req->nlmsg_flags & NLM_F_DUMP) { dev(req, NLM_F_MULTI); if (getenv("MOCK_TWO")) dev(req, NLM_F_MULTI); dump_done(req); }
		else { dev(req, 0); ack(req, 0, NULL); }
		break;
	case DPILLAR_CMD_NEIGH_GET:
		neigh(req, DPILLAR_CMD_NEIGH_GET, NLM_F_MULTI, 0, 9, "1:0.0.1", 1, 1);
		neigh(req, DPILLAR_CMD_NEIGH_GET, NLM_F_MULTI, 0, 17, "2:0.0.1", 2, 0);
		neigh(req, DPILLAR_CMD_NEIGH_GET, NLM_F_MULTI, 1, 3, "0:0.1.1", 3, 1);
		dump_done(req); break;
	case DPILLAR_CMD_SHORTCUT_GET:
		shortcut(req, 11, "11", 2, 5, 3, 1);
		shortcut(req, 7, "7", 0, 0, 0, 1);
		shortcut(req, 12, "12", 1, 4, 2, 0);
		dump_done(req); break;
	case DPILLAR_CMD_ROUTE_GET: {
		if (getenv("MOCK_UNREACH")) { ack(req, -EHOSTUNREACH, "No route: ring_blocked"); break; }
		const struct nlattr *ta;
		/* The wait asked for, on stderr (route get ... timeout MS). */
		mnl_attr_for_each(ta, req, sizeof(struct genlmsghdr))
			if (mnl_attr_get_type(ta) == DPILLAR_A_ROUTE_TIMEOUT_MS) fprintf(stderr, "timeout-ms %u\n", mnl_attr_get_u32(ta));
		struct nlmsghdr *n = put(req, FAM, DPILLAR_CMD_ROUTE_GET, 0);
		mnl_attr_put_u32(n, DPILLAR_A_ROUTE_DST, 15);
		mnl_attr_put_strz(n, DPILLAR_A_ROUTE_DST_ADDR, "1:1.1.1");
		mnl_attr_put_u32(n, DPILLAR_A_ROUTE_NEXT, 20);
		mnl_attr_put_strz(n, DPILLAR_A_ROUTE_NEXT_ADDR, "2:1.0.0");
		mnl_attr_put_u32(n, DPILLAR_A_ROUTE_PORT, 1);
		mnl_attr_put_u32(n, DPILLAR_A_ROUTE_PHASE, 2);
		mnl_attr_put_u32(n, DPILLAR_A_ROUTE_DIR, 2);
		mnl_attr_put_u32(n, DPILLAR_A_ROUTE_MODE, DPILLAR_MODE_PAPER);
		mnl_attr_put_u32(n, DPILLAR_A_ROUTE_HASH, 0);
		hop(n, 20, "2:1.0.0", 1, 2); hop(n, 14, "1:1.1.0", 1, 2); hop(n, 15, "1:1.1.1", 1, 1);
		mnl_attr_put_u32(n, DPILLAR_A_ROUTE_HOPS, 3);
		done(n); ack(req, 0, NULL); break; }
	case DPILLAR_CMD_ROUTE_NEIGHS:
		route_neighs(req); break;
	case DPILLAR_CMD_DEV_SET:
		devset_log(req);
		if (getenv("MOCK_EPERM")) ack(req, -EINVAL, "Dead interval must exceed the Hello interval"); else ack(req, 0, NULL);
		break;
	}
	return len;
}
ssize_t mnl_socket_recvfrom(const struct mnl_socket *nl, void *buf, size_t bufsiz)
{
	(void)nl; (void)bufsiz;
	if (!outlen) {	/* monitor */
		struct nlmsghdr req = { .nlmsg_seq = 0, .nlmsg_pid = 0 };
		if (nevents++ >= 1) exit(0);
		neigh(&req, DPILLAR_CMD_NEIGH_NTF, 0, 0, 9, "1:0.0.1", 1, 1);
		neigh(&req, DPILLAR_CMD_NEIGH_NTF, 0, 0, 9, "1:0.0.1", 2, 0);
		struct nlmsghdr *n = put(&req, FAM, DPILLAR_CMD_PORT_NTF, 0);
		mnl_attr_put_u32(n, DPILLAR_A_DEV_IFINDEX, 1);
		mnl_attr_put_strz(n, DPILLAR_A_DEV_IFNAME, "dp0");
		port(n, 1, "eth1", 2, 2, 0, 0); done(n);
	}
	memcpy(buf, out, outlen); size_t l = outlen; outlen = 0; return l;
}
