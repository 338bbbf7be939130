// SPDX-License-Identifier: GPL-2.0
/*
 * dpctl plan, dpctl addr: the wiring plan and address conversions of a
 * fabric, offline given n and k, else of a device's fabric.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "dp_grow.h"
#include "dp_print.h"
#include "dp_s2plan.h"
#include "dpctl.h"
#include "genl.h"
#include "dp_json.h"

const char plan_help[] =
	"dpctl plan { [topo NAME] -n N -k K | dev DEV } [order] [--csv|--dot]\n"
	"dpctl plan topo s2 -n PORTS nodes N spaces L [seed S] [--csv]\n"
	"dpctl plan topo s2 -n PORTS nodes N spaces L seed S mode plan [grow M]\n"
	"           [--csv]\n"
	"    the switch (column/id) on each port of every server, as\n"
	"    \"dpsim plan\" prints it; with \"order\", the order in which to\n"
	"    populate a fabric that grows (DPillar), as \"dpsim plan --order\n"
	"    grow\" prints it; S2 \"mode plan\": a kernel plan (Algorithm 3\n"
	"    coordinates and random cabling from the seed): per node its\n"
	"    coordinates (for \"dpctl link add ... coords\") and per port its\n"
	"    peer and the peer's port; \"grow M\": that plan after M nodes\n"
	"    more, and the cables to remove and to add, as \"dpsim plan\n"
	"    --topo s2 --fabric plan\" prints it\n";
const char addr_help[] =
	"dpctl addr { C:v.v.v | #NODE-ID | NODE-ID | IPv4 | IPv6 }\n"
	"           [ [topo NAME] -n N -k K | dev DEV ]\n"
	"    the address, node id, IPv4, IPv6 and port switches of a server\n"
	"    (default prefixes 10.0.0.0/8 and fd64:7069:6c6c:6172::/96\n"
	"    offline, the device's with dev DEV or when DEV is the only one)\n";

/* The fabric named on the command line. */
struct fabric_args {
	struct dp_topo_params p;	/* the words of DP_PARAM_LIST */
	u32 gave;			/* bit i: dp_params[i] given */
	u32 grow;			/* S2 plan mode: nodes to add */
	bool plan_mode;			/* S2 "mode plan" */
	const char *dev;
	const struct dp_topo_ops *ops;	/* topo NAME; NULL: dpillar */
};

/* Whether @f has parameter @w of DP_PARAM_LIST (0 is a value of some). */
#define FABRIC_GAVE(f, w)	((f)->gave & (1U << DP_PARAM_ID_##w))

/*
 * Take "topo NAME", "dev DEV", "grow M", "mode plan|derived" or a
 * parameter word of the fabric (DP_PARAM_LIST: "n N", "-n N", "k K",
 * "i I", "level I", "nodes N", ...) from the front of the arguments.
 * Returns the number of words taken (0: not ours) or -1.
 */
static int fabric_arg(struct fabric_args *f, int argc, char **argv)
{
	const struct dp_param *d;
	const char *key = argv[0];
	int err;

	if (!strcmp(key, "dev")) {
		if (argc < 2)
			return usage_error("dev needs a device name"), -1;
		f->dev = argv[1];
		return 2;
	}
	if (!strcmp(key, "topo") || !strcmp(key, "--topo")) {
		if (argc < 2)
			return usage_error("topo needs a topology name"), -1;
		f->ops = dp_topo_ops_by_name(argv[1]);
		if (!f->ops)
			return usage_error("unknown topology \"%s\"",
					   argv[1]), -1;
		return 2;
	}
	/* -n, --level: dpsim's spelling works here too */
	if (*key == '-')
		key++;
	if (*key == '-' && strlen(key) > 2)
		key++;
	if (!strcmp(key, "mode")) {
		if (argc < 2 || (strcmp(argv[1], "plan") &&
				 strcmp(argv[1], "derived")))
			return usage_error("mode takes plan or derived"), -1;
		f->plan_mode = !strcmp(argv[1], "plan");
		return 2;
	}
	if (!strcmp(key, "grow")) {
		if (argc < 2 || parse_u32(argv[1], &f->grow))
			return usage_error("grow needs a number"), -1;
		return 2;
	}
	if (!dp_param_by_name(strcmp(key, "i") ? key : "level"))
		return 0;
	if (argc < 2)
		return usage_error("%s needs a value", argv[0]), -1;
	d = dp_param_parse(key, argv[1], &f->p, &err);
	if (!d)
		return -1;
	f->gave |= 1U << (d - dp_params);
	return 2;
}

/*
 * The required parameters of the topology named (its table's
 * DP_PARAM_REQUIRED ones: dpillar's n and k) as options joined by @sep,
 * "-n and -k", into @need; *@given: whether any of them was given.
 * Returns how many are required when some but not all were given, else 0.
 */
static int fabric_required(const struct fabric_args *f,
			   const struct dp_topo_params *p, const char *sep,
			   bool *given, char *need, size_t len)
{
	const struct dp_topo_ops *ops = dp_topo_ops_by_kind(p->kind);
	unsigned int i, nreq = 0, ngiven = 0;
	const struct dp_topo_param *q;
	size_t at = 0;
	bool gave;

	*need = '\0';
	for (i = 0; i < ops->nparams; i++) {
		q = &ops->params[i];
		if (!(q->flags & DP_PARAM_REQUIRED))
			continue;
		gave = f->gave & (1U << q->id);
		at += snprintf(need + at, at < len ? len - at : 0, "%s%s%s",
			       nreq ? sep : "", q->name[1] ? "--" : "-",
			       q->name);
		nreq++;
		ngiven += gave;
	}
	*given = ngiven;
	return ngiven && ngiven < nreq ? (int)nreq : 0;
}

/*
 * Offline with the topology's required parameters (n and k), else from the
 * device.  Returns an exit status.
 */
static int fabric_resolve(const struct fabric_args *f, struct dp_topo *t,
			  struct fabric_pfx *pfx)
{
	struct dp_topo_params p = f->p;
	bool s2 = f->ops && f->ops->kind == DP_TOPO_S2;
	const char *foreign = dp_params_foreign(f->ops ?: dp_topo_ops_by_kind(DP_TOPO_DPILLAR),
						f->gave);
	char need[64];
	struct nl_ctx ctx;
	struct dp_dev d;
	const char *why;
	bool given;
	int err;

	if (foreign)
		return usage_error("%s", foreign);
	if (s2 && FABRIC_GAVE(f, n) && !FABRIC_GAVE(f, k) && p.nodes &&
	    p.spaces) {
		fabric_pfx_default(pfx);
		p.kind = DP_TOPO_S2;
		if (dp_topo_init(t, &p, &why))
			return usage_error("bad s2 fabric: %s", why);
		return EXIT_OK;
	}
	if (s2 || p.nodes || p.spaces || p.seed)
		return usage_error("s2 takes -n PORTS nodes N spaces L [seed S]");
	p.kind = f->ops ? f->ops->kind : DP_TOPO_DPILLAR;
	err = fabric_required(f, &p, " and ", &given, need, sizeof(need));
	if (given && err)
		return usage_error("give %s%s", err > 1 ? "both " : "",
				   need);
	if (given && f->dev) {
		fabric_required(f, &p, "/", &given, need, sizeof(need));
		return usage_error("give %s or dev, not both", need);
	}
	if (f->ops && f->dev)
		return usage_error("give topo or dev, not both");
	if (given) {
		fabric_pfx_default(pfx);
		if (dp_topo_init(t, &p, &why))
			return usage_error("bad topology (%u,%u): %s", p.n,
					   p.k, why);
		return EXIT_OK;
	}
	if (genl_open(&ctx, false))
		return EXIT_KERNEL;
	err = dev_find(&ctx, f->dev, &d, t);
	nl_close(&ctx);
	*pfx = d.pfx;
	return err;
}

/*
 * S2 plan mode: the kernel plan of the fabric named (tools/common
 * dp_s2plan.c, the generator dpsim routes on), grown by f->grow nodes.
 */
static int plan_s2(const struct fabric_args *f, enum dp_plan_fmt fmt,
		   bool other)
{
	struct dp_s2gen g, before = { 0 };
	const char *why = "";
	int err;

	if (!f->ops || f->ops->kind != DP_TOPO_S2 || !f->plan_mode)
		return usage_error("plan: mode plan and grow are S2's: topo s2 ... mode plan");
	if (f->dev || FABRIC_GAVE(f, k) || f->p.level)
		return usage_error("plan: mode plan takes -n PORTS nodes N spaces L seed S");
	if (!FABRIC_GAVE(f, n) || !f->p.nodes || !f->p.spaces ||
	    !FABRIC_GAVE(f, seed))
		return usage_error("plan: mode plan needs -n PORTS, nodes, spaces and seed");
	if (other)
		return usage_error("plan: mode plan prints a plan, not an order or a picture");
	err = dp_s2plan_make(&g, f->grow ? &before : NULL, f->p.nodes, f->p.n,
			     f->p.spaces, f->p.seed, f->grow, &why);
	if (err == -ENOMEM)
		return fprintf(stderr, "dpctl: plan: out of memory\n"), EXIT_KERNEL;
	if (err)
		return usage_error("bad s2 plan: %s", why);
	err = dp_s2plan_print(stdout, &g, f->grow ? &before : NULL, fmt);
	dp_s2gen_free(&g);
	dp_s2gen_free(&before);
	return err ? EXIT_KERNEL : EXIT_OK;
}

int do_plan(int argc, char **argv)
{
	struct fabric_args f = { .gave = 0 };
	struct fabric_pfx pfx;
	struct dp_topo t;
	bool csv = false, order = false, dot = false;
	int used, err;

	while (argc > 0) {
		used = fabric_arg(&f, argc, argv);
		if (used < 0)
			return EXIT_USAGE;
		if (!used && (!strcmp(argv[0], "--csv") ||
			      !strcmp(argv[0], "csv"))) {
			csv = true;
			used = 1;
		} else if (!used && (!strcmp(argv[0], "--dot") ||
				     !strcmp(argv[0], "dot"))) {
			dot = true;
			used = 1;
		} else if (!used && !strcmp(argv[0], "order")) {
			order = true;
			used = 1;
		} else if (!used && !strcmp(argv[0], "--order")) {
			/* dpsim's "--order grow" */
			if (argc < 2 || strcmp(argv[1], "grow"))
				return usage_error("plan: --order takes grow");
			order = true;
			used = 2;
		}
		if (!used)
			return usage_error("plan: unexpected \"%s\"", argv[0]);
		argc -= used;
		argv += used;
	}
	if (!FABRIC_GAVE(&f, n) && !FABRIC_GAVE(&f, k) && !f.dev)
		return usage_error("plan: give -n N -k K, or dev DEV");
	if (csv + opts.json + dot > 1)
		return usage_error("plan: --csv, -j and --dot are exclusive");
	if (dot && order)
		return usage_error("plan: --dot draws the fabric, not its order");
	if (f.plan_mode || f.grow)
		return plan_s2(&f, csv ? DP_PLAN_CSV : !opts.json ? DP_PLAN_TEXT :
			       opts.pretty ? DP_PLAN_JSON_PRETTY : DP_PLAN_JSON,
			       order || dot);
	err = fabric_resolve(&f, &t, &pfx);
	if (err)
		return err;
	if (order) {
		err = dp_grow_print(stdout, &t, csv ? DP_PLAN_CSV :
				    !opts.json ? DP_PLAN_TEXT : opts.pretty ?
				    DP_PLAN_JSON_PRETTY : DP_PLAN_JSON);
		if (err)
			fprintf(stderr, "dpctl: plan order: %s\n",
				strerror(-err));
		return err ? EXIT_USAGE : EXIT_OK;
	}
	if (dot)
		return dp_plan_dot(stdout, &t, NULL, 0, NULL, NULL) ?
		       EXIT_KERNEL : EXIT_OK;
	return dp_plan_print(stdout, &t, csv ? DP_PLAN_CSV : !opts.json ?
			     DP_PLAN_TEXT : opts.pretty ? DP_PLAN_JSON_PRETTY :
			     DP_PLAN_JSON);
}

int do_addr(int argc, char **argv)
{
	char addr[DP_ADDR_TEXT_MAX], ip4[INET_ADDRSTRLEN] = "";
	char ip6[INET6_ADDRSTRLEN];
	struct fabric_args f = { .gave = 0 };
	const char *text = NULL;
	struct fabric_pfx pfx;
	struct dp_topo t;
	struct dp_port_info pi;
	struct dest d;
	u32 id, p;
	int used, err;

	while (argc > 0) {
		used = fabric_arg(&f, argc, argv);
		if (used < 0)
			return EXIT_USAGE;
		if (!used && !text)
			text = argv[0];
		else if (!used)
			return usage_error("addr: unexpected \"%s\"", argv[0]);
		used = used ? used : 1;
		argc -= used;
		argv += used;
	}
	if (!text)
		return usage_error("addr: missing address, node id or IP");
	if (f.plan_mode || f.grow)
		return usage_error("addr: mode plan and grow are plan's");
	err = dest_parse(text, &d);
	if (!err)
		err = fabric_resolve(&f, &t, &pfx);
	if (!err)
		err = dest_node(&d, &t, &pfx, text, &id);
	if (err)
		return err;
	dp_addr_format(&t, id, addr, sizeof(addr));
	fabric_ip4(&pfx, id, ip4);
	fabric_ip6(&pfx, id, ip6);
	if (opts.json) {
		json_list_begin(opts.pretty);
		json_open_obj(NULL);
		json_uint("n", t.p.n);
		json_uint("k", t.p.k);
		json_str("addr", addr);
		json_uint("node_id", id);
		if (*ip4)
			json_str("ip4", ip4);
		json_str("ip6", ip6);
		json_open_arr("ports");
	} else {
		printf("addr %s id %u inet %s inet6 %s\n", addr, id,
		       *ip4 ? ip4 : "-", ip6);
	}
	for (p = 0; p < t.nports; p++) {
		dp_port_info(&t, id, p, &pi);
		if (opts.json) {
			json_open_obj(NULL);
			json_uint("port", p);
			if (pi.kind == DP_PORT_SWITCH) {
				json_uint("switch_col", pi.sw_level);
				json_uint("switch_id", pi.sw_id);
			} else {
				json_str("kind", pi.kind == DP_PORT_CABLE ?
					 "cable" : "unused");
			}
			json_close_obj();
		} else if (pi.kind == DP_PORT_SWITCH) {
			printf("    port%u switch %u/%u\n", p, pi.sw_level,
			       pi.sw_id);
		} else {
			printf("    port%u %s\n", p, pi.kind == DP_PORT_CABLE ?
			       "cable" : "unused");
		}
	}
	if (opts.json) {
		json_close_arr();
		json_close_obj();
		json_list_end();
	}
	return EXIT_OK;
}
