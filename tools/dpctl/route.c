// SPDX-License-Identifier: GPL-2.0
/*
 * dpctl route get: the first hop this server's routing takes toward a
 * destination and the whole path it predicts, printed like "dpsim route".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dp_print.h"
#include "dpctl.h"
#include "genl.h"
#include "dp_json.h"

const char route_help[] =
	"dpctl route get DEST... [dev DEV] [hash H] [timeout MS]\n"
	"    DEST := { C:v.v.v | #NODE-ID | NODE-ID | IPv4 | IPv6 }\n"
	"    first hop and predicted path of the flow whose hash is H\n"
	"    (default 0), the routing mode and the equal-cost first hops it\n"
	"    picks among; DEV may be left out when there is only one\n"
	"    dpillar device; several DESTs are answered in turn; MS: the\n"
	"    wait for a destination's coordinates being resolved (S2 plan\n"
	"    mode, 1..5000, default 2000)\n"
	"dpctl route trace DEST [dev DEV] [hash H] [timeout MS]\n"
	"    the path probes of flow H really take: probes with TTL 1, 2, ...\n"
	"    answered by the server where each ran out, could not be routed\n"
	"    or arrived; each hop's round trip time; MS: the wait for each\n"
	"    reply (default 1000)\n"
	"dpctl route probe DEST [dev DEV] [timeout MS]\n"
	"    one probe down each candidate path of path selection toward\n"
	"    DEST (XDCent and BCube in mode hash): alive (the destination\n"
	"    answered, no relay detoured it), its hops, detours and round\n"
	"    trip time, and whether path selection avoids it now\n";

struct hop {
	u32 id, port, phase;
	bool has_port;
	char addr[DP_ADDR_TEXT_MAX];
};

#define ROUTE_HOPS_MAX 256
#define ROUTE_CHOICES_MAX 64

struct route_reply {
	const struct nlattr *tb[DPILLAR_A_ROUTE_MAX + 1];
	char dst_addr[DP_ADDR_TEXT_MAX], next_addr[DP_ADDR_TEXT_MAX];
	char mac[18];
	u32 dst, next, port, phase, dir, mode, hash;
	u32 nhops, nchoices;
	u32 choices[ROUTE_CHOICES_MAX];
	struct hop hops[ROUTE_HOPS_MAX];
};

static u32 tb_u32(const struct nlattr *const *tb, int type)
{
	return tb[type] ? mnl_attr_get_u32(tb[type]) : 0;
}

static void tb_str(const struct nlattr *const *tb, int type, char *buf,
		   size_t len)
{
	snprintf(buf, len, "%s", tb[type] ? mnl_attr_get_str(tb[type]) : "?");
}

static int route_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a, *hb[DPILLAR_A_HOP_MAX + 1];
	struct route_reply *r = data;
	const u8 *m;

	nl_parse(nlh, GENL_HDRLEN_ALIGNED, r->tb, DPILLAR_A_ROUTE_MAX);
	r->dst = tb_u32(r->tb, DPILLAR_A_ROUTE_DST);
	r->next = tb_u32(r->tb, DPILLAR_A_ROUTE_NEXT);
	r->port = tb_u32(r->tb, DPILLAR_A_ROUTE_PORT);
	r->phase = tb_u32(r->tb, DPILLAR_A_ROUTE_PHASE);
	r->dir = tb_u32(r->tb, DPILLAR_A_ROUTE_DIR);
	r->mode = tb_u32(r->tb, DPILLAR_A_ROUTE_MODE);
	r->hash = tb_u32(r->tb, DPILLAR_A_ROUTE_HASH);
	tb_str(r->tb, DPILLAR_A_ROUTE_DST_ADDR, r->dst_addr,
	       sizeof(r->dst_addr));
	tb_str(r->tb, DPILLAR_A_ROUTE_NEXT_ADDR, r->next_addr,
	       sizeof(r->next_addr));
	a = r->tb[DPILLAR_A_ROUTE_NEXT_MAC];
	if (a && mnl_attr_get_payload_len(a) == 6) {
		m = mnl_attr_get_payload(a);
		snprintf(r->mac, sizeof(r->mac), "%02x:%02x:%02x:%02x:%02x:%02x",
			 m[0], m[1], m[2], m[3], m[4], m[5]);
	}
	mnl_attr_for_each(a, nlh, GENL_HDRLEN_ALIGNED) {
		struct hop *h;

		if (mnl_attr_get_type(a) == DPILLAR_A_ROUTE_CHOICE &&
		    mnl_attr_get_payload_len(a) == 4 &&
		    r->nchoices < ROUTE_CHOICES_MAX)
			r->choices[r->nchoices++] = mnl_attr_get_u32(a);
		if (mnl_attr_get_type(a) != DPILLAR_A_ROUTE_HOP ||
		    r->nhops >= ROUTE_HOPS_MAX)
			continue;
		h = &r->hops[r->nhops++];
		nl_parse_nested(a, hb, DPILLAR_A_HOP_MAX);
		h->id = tb_u32(hb, DPILLAR_A_HOP_NODE_ID);
		h->port = tb_u32(hb, DPILLAR_A_HOP_PORT);
		h->has_port = hb[DPILLAR_A_HOP_PORT];
		h->phase = tb_u32(hb, DPILLAR_A_HOP_PHASE);
		tb_str(hb, DPILLAR_A_HOP_ADDR, h->addr, sizeof(h->addr));
	}
	return MNL_CB_OK;
}

static const char *dir_name(u32 dir)
{
	return dir == DPILLAR_ROUTE_DIR_CW ? "cw" :
	       dir == DPILLAR_ROUTE_DIR_CCW ? "ccw" : "none";
}

/*
 * JSON: the first hop, then "path" (addresses, this server first, as in
 * "dpsim route --json"), "path_ids" and "phases" (one per hop).
 */
static void route_json(const struct dp_dev *d, const struct dp_topo *t,
		       const struct route_reply *r)
{
	char buf[DP_ADDR_TEXT_MAX];
	u32 i;

	json_open_obj(NULL);
	json_str("dev", d->ifname);
	json_str("src", d->addr);
	json_uint("src_id", d->node_id);
	json_str("dst", r->dst_addr);
	json_uint("dst_id", r->dst);
	json_str("mode", dp_sel_name(t, r->mode));
	json_uint("hash", r->hash);
	json_open_arr("choices");
	for (i = 0; i < r->nchoices; i++) {
		dp_addr_format(t, r->choices[i], buf, sizeof(buf));
		json_str(NULL, buf);
	}
	json_close_arr();
	if (r->nhops || r->tb[DPILLAR_A_ROUTE_SHORTCUT]) {
		json_str("next", r->next_addr);
		json_uint("next_id", r->next);
		if (*r->mac)
			json_str("next_lladdr", r->mac);
		json_uint("port", r->port);
		json_str("phase", dp_phase_name(t, r->phase));
		if (r->dir)
			json_str("dir", dir_name(r->dir));
	}
	/* Along a discovered shortcut: the fallback's (dpillar-design.rst). */
	if (r->tb[DPILLAR_A_ROUTE_SHORTCUT])
		json_uint("shortcut", tb_u32(r->tb, DPILLAR_A_ROUTE_SHORTCUT));
	json_bool("delivered", !r->nhops || r->tb[DPILLAR_A_ROUTE_SHORTCUT] ||
		  r->hops[r->nhops - 1].id == r->dst);
	json_uint("hops", r->tb[DPILLAR_A_ROUTE_HOPS] ?
		  tb_u32(r->tb, DPILLAR_A_ROUTE_HOPS) : r->nhops);
	json_open_arr("path");
	json_str(NULL, d->addr);
	for (i = 0; i < r->nhops; i++)
		json_str(NULL, r->hops[i].addr);
	json_close_arr();
	json_open_arr("path_ids");
	json_uint(NULL, d->node_id);
	for (i = 0; i < r->nhops; i++)
		json_uint(NULL, r->hops[i].id);
	json_close_arr();
	json_open_arr("phases");
	for (i = 0; i < r->nhops; i++)
		json_str(NULL, dp_phase_name(t, r->hops[i].phase));
	json_close_arr();
	json_open_arr("ports");
	for (i = 0; i < r->nhops; i++)
		json_uint(NULL, r->hops[i].port);
	json_close_arr();
	json_close_obj();
}

/* Text: the first hop, then the path in "dpsim route"'s own lines. */
static void route_text(const struct dp_dev *d, const struct dp_topo *t,
		       const struct route_reply *r)
{
	u32 i, from = d->node_id;
	char name[64], buf[DP_ADDR_TEXT_MAX];

	if (r->tb[DPILLAR_A_ROUTE_SHORTCUT]) {
		printf("%s (id %u) dev %s port %u next %s (id %u)%s%s shortcut %u hops\n",
		       r->dst_addr, r->dst, d->ifname, r->port, r->next_addr,
		       r->next, *r->mac ? " mac " : "", r->mac,
		       tb_u32(r->tb, DPILLAR_A_ROUTE_SHORTCUT));
		printf("mode %s hash %u\n", dp_sel_name(t, r->mode), r->hash);
		printf("the topology gives up here: the discovery fallback takes a discovered shortcut\n");
		return;
	}
	if (!r->nhops) {
		printf("%s (id %u) is this server\n", r->dst_addr, r->dst);
		return;
	}
	printf("%s (id %u) dev %s port %u next %s (id %u)%s%s phase %s",
	       r->dst_addr, r->dst, d->ifname, r->port, r->next_addr, r->next,
	       *r->mac ? " mac " : "", r->mac, dp_phase_name(t, r->phase));
	if (r->dir)
		printf(" dir %s", dir_name(r->dir));
	printf("\nmode %s hash %u", dp_sel_name(t, r->mode), r->hash);
	if (r->nchoices) {
		printf(" choices %u:", r->nchoices);
		for (i = 0; i < r->nchoices; i++) {
			dp_addr_format(t, r->choices[i], buf, sizeof(buf));
			printf(" %s%s", buf, i ? "" : " (taken)");
		}
	}
	printf("\n");
	dp_topo_describe(t, name, sizeof(name));
	printf("%s: route %s -> %s\n", name, d->addr, r->dst_addr);
	for (i = 0; i < r->nhops; i++) {
		dp_hop_print(stdout, t, i + 1, from, r->hops[i].id,
			     r->hops[i].phase);
		from = r->hops[i].id;
	}
	printf("delivered in %u hops\n", r->nhops);
}

/* One destination of route get: 0 or an exit status. */
static int route_one(struct nl_ctx *ctx, struct dp_dev *d,
		     const struct dp_topo *t, const char *text,
		     const unsigned int *hash, unsigned int timeout)
{
	static struct route_reply r;
	struct nlmsghdr *nlh;
	struct dest dst;
	u32 id;
	int err;

	err = dest_parse(text, &dst);
	if (err)
		return err;
	memset(&r, 0, sizeof(r));
	nlh = genl_msg(ctx, DPILLAR_CMD_ROUTE_GET, 0);
	mnl_attr_put_u32(nlh, DPILLAR_A_ROUTE_IFINDEX, d->ifindex);
	if (hash)
		mnl_attr_put_u32(nlh, DPILLAR_A_ROUTE_HASH, *hash);
	/* the kernel's default (2000 ms) unless given */
	if (timeout)
		mnl_attr_put_u32(nlh, DPILLAR_A_ROUTE_TIMEOUT_MS, timeout);
	/* IP addresses: the kernel maps them, as for a packet it sends. */
	if (dst.kind == DEST_IP4) {
		mnl_attr_put(nlh, DPILLAR_A_ROUTE_DST_IP4, 4, &dst.ip4);
	} else if (dst.kind == DEST_IP6) {
		mnl_attr_put(nlh, DPILLAR_A_ROUTE_DST_IP6, 16, &dst.ip6);
	} else {
		err = dest_node(&dst, t, &d->pfx, text, &id);
		if (err)
			return err;
		mnl_attr_put_u32(nlh, DPILLAR_A_ROUTE_DST, id);
	}
	if (nl_talk(ctx, nlh, route_cb, &r, "route get"))
		return EXIT_KERNEL;
	if (opts.json)
		route_json(d, t, &r);
	else
		route_text(d, t, &r);
	return 0;
}

/*
 * route get DEST... [dev DEV] [hash H] [timeout MS]: several destinations
 * are answered in turn (with -j one array of objects, one per destination,
 * in the order asked, as "ip -j route get" prints its one), for scripts
 * that ask for many.  MS bounds the kernel's wait for a destination's
 * coordinates it resolves (S2 plan mode; its default when not given).
 */
static int route_get(int argc, char **argv)
{
	const char *dev = NULL, **texts;
	unsigned int hash = 0, timeout = 0;
	bool have_hash = false;
	struct nl_ctx ctx;
	struct dp_topo t;
	struct dp_dev d;
	int i, n = 0, err;

	texts = calloc(argc > 0 ? argc : 1, sizeof(*texts));
	if (!texts)
		return EXIT_KERNEL;
	for (; argc > 0; argc--, argv++) {
		if (matches(argv[0], "dev") && argc > 1) {
			dev = argv[1];
			argc--;
			argv++;
		} else if (!strcmp(argv[0], "hash") && argc > 1) {
			if (parse_u32(argv[1], &hash)) {
				free(texts);
				return usage_error("route get: invalid hash "
						   "\"%s\"", argv[1]);
			}
			have_hash = true;
			argc--;
			argv++;
		} else if (!strcmp(argv[0], "timeout") && argc > 1) {
			if (parse_u32(argv[1], &timeout) || !timeout ||
			    timeout > 5000) {
				free(texts);
				return usage_error("route get: invalid timeout "
						   "\"%s\" (1..5000 ms)",
						   argv[1]);
			}
			argc--;
			argv++;
		} else {
			texts[n++] = argv[0];
		}
	}
	if (!n) {
		free(texts);
		return usage_error("route get: missing destination");
	}
	for (i = 0; i < n; i++) {
		err = dest_parse(texts[i], &(struct dest){ 0 });
		if (err) {
			free(texts);
			return err;
		}
	}
	if (genl_open(&ctx, false)) {
		free(texts);
		return EXIT_KERNEL;
	}
	err = dev_find(&ctx, dev, &d, &t);
	if (!err) {
		/* -j: the array is closed even when a destination fails */
		if (opts.json)
			json_list_begin(opts.pretty);
		for (i = 0; !err && i < n; i++)
			err = route_one(&ctx, &d, &t, texts[i],
					have_hash ? &hash : NULL, timeout);
		if (opts.json)
			json_list_end();
	}
	nl_close(&ctx);
	free(texts);
	return err;
}

/* ---- route trace -------------------------------------------------------- */

struct trace_probe {
	u32 ttl, status, reporter, reason, rtt_us, hops, detours, path;
	u32 failed;	/* ~0U: path selection does not follow the dst */
	bool has_reporter;
	bool has_detours;	/* false: unknown (S2 plan mode) */
	char addr[DP_ADDR_TEXT_MAX];
};

struct trace_reply {
	char dst_addr[DP_ADDR_TEXT_MAX];
	u32 dst, n;
	struct trace_probe p[ROUTE_HOPS_MAX];
};

static int trace_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a, *tb[DPILLAR_A_ROUTE_MAX + 1];
	const struct nlattr *pb[DPILLAR_A_PROBE_MAX + 1];
	struct trace_reply *r = data;

	nl_parse(nlh, GENL_HDRLEN_ALIGNED, tb, DPILLAR_A_ROUTE_MAX);
	r->dst = tb_u32(tb, DPILLAR_A_ROUTE_DST);
	tb_str(tb, DPILLAR_A_ROUTE_DST_ADDR, r->dst_addr, sizeof(r->dst_addr));
	mnl_attr_for_each(a, nlh, GENL_HDRLEN_ALIGNED) {
		struct trace_probe *p;

		if (mnl_attr_get_type(a) != DPILLAR_A_ROUTE_PROBE ||
		    r->n >= ROUTE_HOPS_MAX)
			continue;
		p = &r->p[r->n++];
		nl_parse_nested(a, pb, DPILLAR_A_PROBE_MAX);
		p->ttl = tb_u32(pb, DPILLAR_A_PROBE_TTL);
		p->status = tb_u32(pb, DPILLAR_A_PROBE_STATUS);
		p->has_reporter = pb[DPILLAR_A_PROBE_REPORTER];
		p->reporter = tb_u32(pb, DPILLAR_A_PROBE_REPORTER);
		p->reason = tb_u32(pb, DPILLAR_A_PROBE_REASON);
		p->rtt_us = tb_u32(pb, DPILLAR_A_PROBE_RTT_US);
		tb_str(pb, DPILLAR_A_PROBE_REPORTER_ADDR, p->addr,
		       sizeof(p->addr));
		p->hops = tb_u32(pb, DPILLAR_A_PROBE_HOPS);
		p->has_detours = pb[DPILLAR_A_PROBE_DETOURS];
		p->detours = tb_u32(pb, DPILLAR_A_PROBE_DETOURS);
		p->path = tb_u32(pb, DPILLAR_A_PROBE_PATH);
		p->failed = pb[DPILLAR_A_PROBE_FAILED] ?
			    tb_u32(pb, DPILLAR_A_PROBE_FAILED) : ~0U;
	}
	return MNL_CB_OK;
}

static const char *probe_status_name(u32 status)
{
	switch (status) {
	case DPILLAR_PROBE_STATUS_REACHED:
		return "reached";
	case DPILLAR_PROBE_STATUS_TTL:
		return "ttl";
	case DPILLAR_PROBE_STATUS_NOROUTE:
		return "noroute";
	case DPILLAR_PROBE_STATUS_NONEIGH:
		return "noneigh";
	case DPILLAR_PROBE_STATUS_TIMEOUT:
		return "timeout";
	}
	return "unknown";
}

/*
 * JSON: one object (in the command's array), "hops" an array of objects,
 * one per probe; "path" (addresses, this server first, as route get's)
 * the servers that answered, and "delivered".
 */
static void trace_json(const struct dp_dev *d, const struct dp_topo *t,
		       const struct trace_reply *r)
{
	const struct trace_probe *last = r->n ? &r->p[r->n - 1] : NULL;
	u32 i;

	json_open_obj(NULL);
	json_str("dev", d->ifname);
	json_str("src", d->addr);
	json_uint("src_id", d->node_id);
	json_str("dst", r->dst_addr);
	json_uint("dst_id", r->dst);
	json_bool("delivered", last && last->status == DPILLAR_PROBE_STATUS_REACHED);
	json_open_arr("hops");
	for (i = 0; i < r->n; i++) {
		const struct trace_probe *p = &r->p[i];

		json_open_obj(NULL);
		json_uint("ttl", p->ttl);
		json_str("status", probe_status_name(p->status));
		if (p->has_reporter) {
			json_str("addr", p->addr);
			json_uint("id", p->reporter);
			json_uint("rtt_us", p->rtt_us);
			if (p->has_detours)
				json_uint("detours", p->detours);
		}
		if (p->status == DPILLAR_PROBE_STATUS_NOROUTE)
			json_str("reason", dp_drop_reason_name(t, p->reason));
		json_close_obj();
	}
	json_close_arr();
	json_open_arr("path_ids");
	json_uint(NULL, d->node_id);
	for (i = 0; i < r->n; i++)
		if (r->p[i].has_reporter &&
		    r->p[i].status != DPILLAR_PROBE_STATUS_NOROUTE &&
		    r->p[i].status != DPILLAR_PROBE_STATUS_NONEIGH)
			json_uint(NULL, r->p[i].reporter);
	json_close_arr();
	json_close_obj();
}

static void trace_text(const struct dp_dev *d, const struct dp_topo *t,
		       const struct trace_reply *r)
{
	u32 i;

	printf("trace %s (id %u) -> %s (id %u) dev %s\n", d->addr, d->node_id,
	       r->dst_addr, r->dst, d->ifname);
	for (i = 0; i < r->n; i++) {
		const struct trace_probe *p = &r->p[i];

		if (!p->has_reporter) {
			printf("%3u  *\n", p->ttl);
			continue;
		}
		printf("%3u  %s (id %u)  %u.%03u ms", p->ttl, p->addr,
		       p->reporter, p->rtt_us / 1000, p->rtt_us % 1000);
		if (p->status == DPILLAR_PROBE_STATUS_NOROUTE)
			printf("  no route: %s",
			       dp_drop_reason_name(t, p->reason));
		else if (p->status == DPILLAR_PROBE_STATUS_NONEIGH)
			printf("  next hop's MAC unknown");
		else if (p->status == DPILLAR_PROBE_STATUS_REACHED)
			printf("  reached");
		printf("\n");
	}
}

static bool probe_alive(const struct trace_probe *p, const char *dst)
{
	return p->status == DPILLAR_PROBE_STATUS_REACHED && !p->detours &&
	       !strcmp(p->addr, dst);
}

static const char *probe_failed_name(const struct trace_probe *p)
{
	return p->failed == ~0U ? "not followed" : p->failed ? "avoided" :
	       "in use";
}

/* route probe: one line, or object, per candidate path. */
static void probe_text(const struct dp_dev *d, const struct dp_topo *t,
		       const struct trace_reply *r)
{
	u32 i;

	printf("probe %s (id %u) -> %s (id %u) dev %s: %u candidate paths\n",
	       d->addr, d->node_id, r->dst_addr, r->dst, d->ifname, r->n);
	for (i = 0; i < r->n; i++) {
		const struct trace_probe *p = &r->p[i];

		printf("path %u  %-7s", p->path,
		       probe_alive(p, r->dst_addr) ? "alive" : "failed");
		if (!p->has_reporter)
			printf("  no answer");
		else if (p->status == DPILLAR_PROBE_STATUS_REACHED &&
			 p->has_detours)
			printf("  %u hops, %u detours, %u.%03u ms", p->hops,
			       p->detours, p->rtt_us / 1000, p->rtt_us % 1000);
		else if (p->status == DPILLAR_PROBE_STATUS_REACHED)
			printf("  %u hops, - detours, %u.%03u ms", p->hops,
			       p->rtt_us / 1000, p->rtt_us % 1000);
		else
			printf("  %s at %s (id %u) after %u hops%s%s",
			       probe_status_name(p->status), p->addr,
			       p->reporter, p->hops,
			       p->status == DPILLAR_PROBE_STATUS_NOROUTE ?
			       ": " : "",
			       p->status == DPILLAR_PROBE_STATUS_NOROUTE ?
			       dp_drop_reason_name(t, p->reason) : "");
		printf("  path selection: %s\n", probe_failed_name(p));
	}
}

static void probe_json(const struct dp_dev *d, const struct dp_topo *t,
		       const struct trace_reply *r)
{
	u32 i;

	json_open_obj(NULL);
	json_str("dev", d->ifname);
	json_str("src", d->addr);
	json_uint("src_id", d->node_id);
	json_str("dst", r->dst_addr);
	json_uint("dst_id", r->dst);
	json_open_arr("paths");
	for (i = 0; i < r->n; i++) {
		const struct trace_probe *p = &r->p[i];

		json_open_obj(NULL);
		json_uint("path", p->path);
		json_bool("alive", probe_alive(p, r->dst_addr));
		json_str("status", probe_status_name(p->status));
		if (p->has_reporter) {
			json_str("addr", p->addr);
			json_uint("id", p->reporter);
			json_uint("hops", p->hops);
			if (p->has_detours)
				json_uint("detours", p->detours);
			json_uint("rtt_us", p->rtt_us);
		}
		if (p->status == DPILLAR_PROBE_STATUS_NOROUTE)
			json_str("reason", dp_drop_reason_name(t, p->reason));
		if (p->failed != ~0U)
			json_bool("avoided", p->failed);
		json_close_obj();
	}
	json_close_arr();
	json_close_obj();
}

/*
 * route trace DEST [dev DEV] [hash H] [timeout MS], and route probe
 * (@probe) with the same arguments.
 */
static int route_probing(int argc, char **argv, bool probe)
{
	const char *what = probe ? "route probe" : "route trace";
	const char *dev = NULL, *text = NULL;
	unsigned int hash = 0, timeout = 0;
	bool have_hash = false;
	static struct trace_reply r;
	struct nlmsghdr *nlh;
	struct nl_ctx ctx;
	struct dp_topo t;
	struct dest dst;
	struct dp_dev d;
	int err;
	u32 id;

	for (; argc > 0; argc--, argv++) {
		if (matches(argv[0], "dev") && argc > 1) {
			dev = argv[1];
		} else if (!strcmp(argv[0], "hash") && argc > 1) {
			if (parse_u32(argv[1], &hash))
				return usage_error("%s: invalid hash \"%s\"",
						   what, argv[1]);
			have_hash = true;
		} else if (!strcmp(argv[0], "timeout") && argc > 1) {
			if (parse_u32(argv[1], &timeout) || !timeout ||
			    timeout > 5000)
				return usage_error("%s: invalid timeout "
						   "\"%s\" (1..5000 ms)",
						   what, argv[1]);
		} else if (!text) {
			text = argv[0];
			continue;
		} else {
			return usage_error("%s: one destination, \"%s\" "
					   "is one too many", what, argv[0]);
		}
		argc--;
		argv++;
	}
	if (!text)
		return usage_error("%s: missing destination", what);
	err = dest_parse(text, &dst);
	if (err)
		return err;
	if (genl_open(&ctx, false))
		return EXIT_KERNEL;
	err = dev_find(&ctx, dev, &d, &t);
	if (err)
		goto out;
	nlh = genl_msg(&ctx, probe ? DPILLAR_CMD_ROUTE_PROBE :
		       DPILLAR_CMD_ROUTE_TRACE, 0);
	mnl_attr_put_u32(nlh, DPILLAR_A_ROUTE_IFINDEX, d.ifindex);
	if (have_hash)
		mnl_attr_put_u32(nlh, DPILLAR_A_ROUTE_HASH, hash);
	if (timeout)
		mnl_attr_put_u32(nlh, DPILLAR_A_ROUTE_TIMEOUT_MS, timeout);
	if (dst.kind == DEST_IP4) {
		mnl_attr_put(nlh, DPILLAR_A_ROUTE_DST_IP4, 4, &dst.ip4);
	} else if (dst.kind == DEST_IP6) {
		mnl_attr_put(nlh, DPILLAR_A_ROUTE_DST_IP6, 16, &dst.ip6);
	} else {
		err = dest_node(&dst, &t, &d.pfx, text, &id);
		if (err)
			goto out;
		mnl_attr_put_u32(nlh, DPILLAR_A_ROUTE_DST, id);
	}
	memset(&r, 0, sizeof(r));
	if (nl_talk(&ctx, nlh, trace_cb, &r, what)) {
		err = EXIT_KERNEL;
		goto out;
	}
	if (opts.json) {
		json_list_begin(opts.pretty);
		if (probe)
			probe_json(&d, &t, &r);
		else
			trace_json(&d, &t, &r);
		json_list_end();
	} else if (probe) {
		probe_text(&d, &t, &r);
	} else {
		trace_text(&d, &t, &r);
	}
	if (probe) {
		/* Success: some candidate path is alive. */
		err = EXIT_KERNEL;
		for (id = 0; id < r.n; id++)
			if (probe_alive(&r.p[id], r.dst_addr))
				err = 0;
		goto out;
	}
	/* Like traceroute: the exit status says whether it arrived. */
	if (!r.n || r.p[r.n - 1].status != DPILLAR_PROBE_STATUS_REACHED)
		err = EXIT_KERNEL;
out:
	nl_close(&ctx);
	return err;
}


static int route_trace(int argc, char **argv)
{
	return route_probing(argc, argv, false);
}

static int route_probe(int argc, char **argv)
{
	return route_probing(argc, argv, true);
}

static const struct cmd route_cmds[] = {
	{ "get", route_get, NULL },
	{ "trace", route_trace, NULL },
	{ "probe", route_probe, NULL },
	{ NULL, NULL, NULL },
};

int do_route(int argc, char **argv)
{
	return run_cmd("route", route_help, route_cmds, argc, argv, NULL);
}
