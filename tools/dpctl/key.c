// SPDX-License-Identifier: GPL-2.0
/*
 * dpctl key: Space Shuffle key-based routing.  "key locate" hashes a key
 * to its 32-bit key id and coordinates (dp_s2_key_hash(),
 * dp_s2_key_point()) and names its home node in every space, with the
 * module's own code: with derived coordinates (seed, node count) the home
 * is computed, not looked up (dp_s2_home).  From a source node it also
 * walks the key frame's greedy path as the kernel routes it (the
 * failure-free view), and prints the key's IPv6 address under the key
 * prefix: an application sends there to reach the key's home.
 */
#include <stdio.h>
#include <string.h>

#include "dpctl.h"
#include "dp_json.h"
#include "genl.h"
#include "topo_s2.h"

const char key_help[] =
	"dpctl key locate KEY { dev DEV | spaces L nodes N seed S [ports P] }\n"
	"                 [from NODE] [mode MODE] [key6 PREFIX]\n"
	"    the key id of KEY (its 32-bit hash), its coordinates in each of\n"
	"    the L spaces of an S2 fabric of N nodes with derived coordinates\n"
	"    of seed S, and its home node in each space (the node closest to\n"
	"    the key on that ring).  With a source (from NODE, or DEV's own\n"
	"    node) and the port count P, the path greediest routing takes\n"
	"    from it to the key and the node it ends at, where the kernel\n"
	"    delivers a packet sent to the key address (KEY6 prefix + key\n"
	"    id, printed when the prefix is known: key6 PREFIX or DEV's).\n"
	"    dev DEV reads the fabric, the mode and the key prefix from DEV.\n"
	"    See dpillar-design.rst, \"Sending to a key\"\n";

/*
 * @p: the S2 fabric, from the words of S2's parameter table (params.h,
 * topo_s2.c: spaces, nodes, seed, n; "ports" is n, as dpsim's --ports) or
 * from DEV; @gave: which of them were given (bits of dp_params[]).
 */
struct key_args {
	struct dp_topo_params p;
	u32 gave, from, mode;
	bool have_from;
	struct fabric_pfx pfx;
	const char *dev, *mode_name;
};

static int key_parse(int argc, char **argv, struct key_args *a)
{
	const struct dp_topo_ops *s2 = dp_topo_ops_by_name("s2");
	const char *const *names = s2->sel_names;
	const struct dp_param *d;
	int i, err;

	a->p.kind = DP_TOPO_S2;
	for (i = 1; i < argc; i += 2) {
		const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		u32 *p = NULL;

		if (!v)
			return usage_error("%s needs a value", k);
		d = dp_param_parse(strcmp(k, "ports") ? k : "n", v, &a->p, &err);
		if (err)
			return err;
		if (d && !(d->flags & DP_PARAM_COORDS) &&
		    dp_topo_param_by_ifla(s2, d->ifla)) {
			a->gave |= 1U << (d - dp_params);
			continue;
		}
		if (d)
			return usage_error("key locate: S2's derived fabric takes no %s",
					   k);
		if (matches(k, "from"))
			p = &a->from, a->have_from = true;
		else if (matches(k, "dev"))
			a->dev = v;
		else if (matches(k, "mode"))
			a->mode_name = v;
		else if (!strcmp(k, "key6")) {
			char buf[INET6_ADDRSTRLEN + 4], *slash;

			snprintf(buf, sizeof(buf), "%s", v);
			slash = strchr(buf, '/');
			if (slash && strcmp(slash, "/96"))
				return usage_error("the key prefix is a /96, not \"%s\"",
						   v);
			if (slash)
				*slash = 0;
			if (inet_pton(AF_INET6, buf, &a->pfx.key6) != 1 ||
			    a->pfx.key6.s6_addr32[3])
				return usage_error("invalid key prefix \"%s\"", v);
		} else
			return usage_error("key locate: unknown \"%s\"", k);
		if (p && parse_u32(v, p))
			return usage_error("%s needs a number", k);
	}
	if (a->mode_name) {
		for (i = 0; names[i] && strcmp(names[i], a->mode_name); i++)
			;
		if (!names[i] && (parse_u32(a->mode_name, &a->mode) ||
				  a->mode >= (u32)i))
			return usage_error("unknown S2 mode \"%s\"", a->mode_name);
		if (names[i])
			a->mode = i;
	}
	return 0;
}

/* Fabric, mode, key prefix and source from device @a->dev. */
static int key_from_dev(struct key_args *a)
{
	struct nl_ctx ctx;
	struct dp_dev d;
	struct dp_topo t;
	int err;

	if (genl_open(&ctx, false))
		return EXIT_KERNEL;
	err = dev_find(&ctx, a->dev, &d, &t);
	nl_close(&ctx);
	if (err)
		return err;
	if (d.topo != DPILLAR_TOPO_S2) {
		fprintf(stderr, "dpctl: %s is not an S2 device\n", d.ifname);
		return EXIT_USAGE;
	}
	/*
	 * A key's homes are the nodes closest to its point: with plan-mode
	 * coordinates only the whole plan knows them, not the device.
	 */
	if (d.p.ncoords) {
		fprintf(stderr, "dpctl: %s is in plan mode: a key's homes and path need every node's coordinates (dpsim locate --topo s2 --plan FILE --key KEY)\n",
			d.ifname);
		return EXIT_USAGE;
	}
	a->p = d.p;
	a->p.kind = DP_TOPO_S2;	/* d.p: the device's words, not its kind */
	a->gave = ~0U;
	if (!a->have_from)
		a->from = d.node_id, a->have_from = true;
	if (!a->mode_name)
		a->mode = d.mode;
	if (IN6_IS_ADDR_UNSPECIFIED(&a->pfx.key6))
		a->pfx.key6 = d.pfx.key6;
	return EXIT_OK;
}

/*
 * The key frame's walk from @a->from, failure-free, as the module routes
 * it: the node ids into @path (at most @max), returns how many (the
 * source included), or 0 if routing failed otherwise than at the home.
 */
static u32 key_walk(const struct key_args *a, u32 kid, u32 *path, u32 max,
		    const char **why)
{
	struct dp_route_state st;
	struct dp_topo t;
	struct dp_hop hop;
	u32 n = 0, at = a->from;

	if (dp_topo_init(&t, &a->p, why))
		return 0;
	if (at >= t.nodes) {
		*why = "from: no such node";
		return 0;
	}
	dp_key_route_init(&t, at, kid, a->mode, &st);
	path[n++] = at;
	while (!dp_route(&t, at, &st, NULL, &hop)) {
		if (n >= max || n > t.max_hops) {
			*why = "path longer than the fabric's bound";
			return 0;
		}
		at = hop.next;
		path[n++] = at;
	}
	if (hop.reason != DP_DROP_ROUTE_AT_DST) {
		*why = dp_drop_reason_name(&t, hop.reason);
		return 0;
	}
	return n;
}

static int key_locate(int argc, char **argv)
{
	struct key_args a = { 0 };
	u32 x[DP_S2_SPACES_MAX], path[DP_TTL_MAX + 1], sp, kid, n = 0, i;
	char addr[INET6_ADDRSTRLEN] = "";
	const char *key, *why = "";
	int err;

	if (argc < 1 || is_help(argv[0]))
		return fputs(key_help, argc < 1 ? stderr : stdout),
		       argc < 1 ? EXIT_USAGE : EXIT_OK;
	key = argv[0];
	err = key_parse(argc, argv, &a);
	if (!err && a.dev)
		err = key_from_dev(&a);
	if (err)
		return err;
	if (!a.p.spaces || a.p.spaces > DP_S2_SPACES_MAX)
		return usage_error("spaces must be 1..%u", DP_S2_SPACES_MAX);
	if (!a.p.nodes || a.p.nodes > DP_S2_NODES_MAX)
		return usage_error("nodes must be 1..%u", DP_S2_NODES_MAX);
	if (!(a.gave & 1U << DP_PARAM_ID_seed))
		return usage_error("key locate needs seed S");
	if (a.have_from && !a.p.n)
		return usage_error("key locate from NODE needs ports P");
	kid = dp_s2_key_hash((const u8 *)key, strlen(key));
	dp_s2_key_point(kid, a.p.spaces, x);
	if (!IN6_IS_ADDR_UNSPECIFIED(&a.pfx.key6))
		fabric_key6(&a.pfx, kid, addr);
	if (a.have_from) {
		n = key_walk(&a, kid, path, DP_TTL_MAX + 1, &why);
		if (!n) {
			fprintf(stderr, "dpctl: key locate from %u: %s\n",
				a.from, why);
			return EXIT_USAGE;
		}
	}
	if (opts.json) {
		json_list_begin(opts.pretty);
		json_open_obj(NULL);
		json_str("key", key);
		json_uint("id", kid);
		if (*addr)
			json_str("address", addr);
		json_open_arr("spaces");
	} else {
		printf("key %s id 0x%08x\n", key, kid);
		if (*addr)
			printf("  address %s\n", addr);
	}
	for (sp = 0; sp < a.p.spaces; sp++) {
		u32 home = dp_s2_home(a.p.seed, a.p.nodes, x[sp], sp);

		if (opts.json) {
			json_open_obj(NULL);
			json_uint("space", sp);
			json_uint("coord", x[sp]);
			json_uint("home", home);
			json_close_obj();
		} else {
			printf("  space %u coord %.6f (%u) home #%u\n", sp,
			       x[sp] / 4294967296.0, x[sp], home);
		}
	}
	if (opts.json) {
		json_close_arr();
		if (n) {
			json_uint("from", a.from);
			json_uint("home", path[n - 1]);
			json_open_arr("path");
			for (i = 0; i < n; i++)
				json_uint(NULL, path[i]);
			json_close_arr();
		}
		json_close_obj();
		json_list_end();
	} else if (n) {
		printf("  from #%u: home #%u, %u hops:", a.from, path[n - 1],
		       n - 1);
		for (i = 0; i < n; i++)
			printf(" #%u", path[i]);
		putchar('\n');
	}
	return EXIT_OK;
}

static const struct cmd key_cmds[] = {
	{ "locate", key_locate, key_help },
	{ NULL, NULL, NULL },
};

int do_key(int argc, char **argv)
{
	return run_cmd("key", key_help, key_cmds, argc, argv, NULL);
}
