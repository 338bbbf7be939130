// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the topology core (topo.c, topo.h), whatever the
 * topology: the registry and the check of the ops tables (every
 * registered one, and broken copies of one refused), the per-packet
 * dispatch against the ops, the "#<id>" address form and the dispatch of
 * the others, the "none" topology of an unconfigured device, and the
 * reciprocal division the topologies route with.  DPillar stands in
 * where a topology is needed; its own suites are topo_dpillar_test.c's,
 * each other topology's topo_<file>_test.c's.
 */

#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/dpillar.h>

#include "topo.h"
#include "topo_dpillar.h"
#include "test_lib.h"

/* ---- the "none" topology and reciprocal division ------------------------- */

/*
 * "none", an unconfigured device's topology: no node, every port unused,
 * every address and route refused, the names of the generic reasons.
 */
static void dpt_topo_none(struct kunit *test)
{
	struct dp_route_state st;
	struct dp_port_info pi;
	const char *why = NULL;
	char buf[32];
	struct dp_hop hop;
	struct dp_topo *tn = kunit_kzalloc(test, sizeof(*tn), GFP_KERNEL);
	u32 id = 7, p;

	KUNIT_ASSERT_NOT_NULL(test, tn);
	dp_topo_init_none(tn);
	KUNIT_EXPECT_FALSE(test, dp_topo_configured(tn));
	KUNIT_EXPECT_EQ(test, tn->kind, 0);
	KUNIT_EXPECT_EQ(test, tn->nodes, 0);
	KUNIT_EXPECT_EQ(test, tn->nports, DP_MAX_PORTS);
	KUNIT_EXPECT_FALSE(test, dp_addr_valid(tn, 0));
	KUNIT_EXPECT_EQ(test, dp_addr_parse(tn, "#0", &id, &why), -EINVAL);
	KUNIT_EXPECT_EQ(test, dp_addr_parse(tn, "0:0.0", &id, &why),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "device has no topology yet");
	KUNIT_EXPECT_EQ(test, id, 7);
	KUNIT_EXPECT_EQ(test, dp_addr_format(tn, 0, buf, sizeof(buf)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, dp_addr_to_label(tn, 0, &p, NULL, NULL),
			-EOPNOTSUPP);
	for (p = 0; p < DP_MAX_PORTS; p++) {
		dp_port_info(tn, DP_NODE_NONE, p, &pi);
		KUNIT_EXPECT_EQ(test, pi.kind, DP_PORT_UNUSED);
		KUNIT_EXPECT_EQ(test, pi.nneigh, 0);
		KUNIT_EXPECT_EQ(test, dp_port_neigh_index(tn, DP_NODE_NONE,
							  p, 0), -1);
	}
	dp_route_init(tn, 0, 1, 0, 0, &st);
	KUNIT_EXPECT_EQ(test, dp_route(tn, 0, &st, NULL, &hop), -1);
	KUNIT_EXPECT_STREQ(test, dp_drop_reason_name(tn, hop.reason),
			   "bad_addr");
	KUNIT_EXPECT_EQ(test, dp_route_npaths(tn, 0, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, dp_sel_count(tn), 1);
	KUNIT_EXPECT_GT(test, dp_topo_describe(tn, buf, sizeof(buf)), 0);
	KUNIT_EXPECT_STREQ(test, buf, "unconfigured");
	/* A registered topology is configured. */
	dpt_mk(test, tn, 4, 2);
	KUNIT_EXPECT_TRUE(test, dp_topo_configured(tn));
}

static void dpt_rdiv_exact(struct kunit *test)
{
	static const u32 ds[] = { 1, 2, 3, 5, 6, 7, 24, 128, 331776, 7962624,
				  0x7fffffff, 0x80000000U, 0x80000001U,
				  0xfffffffeU, 0xffffffffU };
	static const u32 xs[] = { 0, 1, 2, 0x7fffffff, 0x80000000U,
				  0xfffffffeU, 0xffffffffU };
	struct rnd_state rnd;
	u32 i, j, x, d, bad = 0, bad_x = 0, bad_d = 0;
	struct dp_rdiv rd;

	prandom_seed_state(&rnd, 7);
	for (i = 0; i < ARRAY_SIZE(ds) + 300; i++) {
		d = i < ARRAY_SIZE(ds) ? ds[i] :
		    prandom_u32_state(&rnd) >> (prandom_u32_state(&rnd) % 32);
		d = max(d, 1U);
		rd = dp_rdiv_init(d);
		for (j = 0; j < ARRAY_SIZE(xs) + 300; j++) {
			x = j < ARRAY_SIZE(xs) ? xs[j] :
			    prandom_u32_state(&rnd);
			if (dp_rdiv(x, rd) != x / d ||
			    (d > 1 && dp_rdiv(d * (x / d), rd) != x / d) ||
			    (d > 1 && x / d &&
			     dp_rdiv(d * (x / d) - 1, rd) != x / d - 1)) {
				bad++;
				bad_x = x;
				bad_d = d;
			}
		}
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "e.g. %u / %u", bad_x, bad_d);
}

/* ---- the framework itself: ops tables, dispatch, addresses ---- */

/* Every registered topology passes the ops check and is found both ways. */
static void dpt_core_registry(struct kunit *test)
{
	const struct dp_topo_ops *ops;
	const char *why = NULL;
	u32 kind, found = 0;

	KUNIT_EXPECT_NULL(test, dp_topo_ops_by_kind(0));
	KUNIT_EXPECT_NULL(test, dp_topo_ops_by_kind(DP_TOPO_KIND_MAX + 1));
	KUNIT_EXPECT_NULL(test, dp_topo_ops_by_name("nonesuch"));
	for (kind = 1; kind <= DP_TOPO_KIND_MAX; kind++) {
		ops = dp_topo_ops_by_kind(kind);
		if (!ops)
			continue;
		found++;
		KUNIT_EXPECT_EQ_MSG(test, dp_topo_ops_check(ops, &why), 0,
				    "%s: %s", ops->name, why);
		KUNIT_EXPECT_EQ(test, ops->kind, kind);
		KUNIT_EXPECT_PTR_EQ(test, dp_topo_ops_by_name(ops->name), ops);
	}
	KUNIT_EXPECT_EQ(test, found, DP_TOPO_KIND_MAX);
}

/*
 * Extensions, not members (issue 54): a topology without the coordinates
 * or keys extension (every one but S2) gets nothing of them at the points
 * the generic path would use them, whatever a frame's flags or the
 * parameters say: no header flag of carried coordinates, no coordinates
 * put in a frame, no plan mode, no key frames.  S2, with both, gets them.
 */
static void dpt_core_no_extension(struct kunit *test)
{
	static const u32 x[2] = { 100, 200 };
	const struct dp_topo_ops *ops;
	struct dp_route_state st;
	u32 kind, without = 0;
	struct dp_topo *t;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	for (kind = 1; kind <= DP_TOPO_KIND_MAX; kind++) {
		ops = dp_topo_ops_by_kind(kind);
		if (!ops)
			continue;
		t->ops = ops;
		t->kind = kind;
		t->p.ncoords = 2;	/* as if given: only S2 takes them */
		memset(&st, 0, sizeof(st));
		st.flags = 0x12;
		if (ops->coords) {
			KUNIT_EXPECT_NE(test, dp_topo_coords_flag(t), 0);
			KUNIT_EXPECT_TRUE(test, dp_topo_plan_mode(t));
			KUNIT_EXPECT_TRUE(test, dp_route_set_coords(t, &st, x, 2));
		} else {
			without++;
			KUNIT_EXPECT_EQ_MSG(test, dp_topo_coords_flag(t), 0,
					    "%s", ops->name);
			KUNIT_EXPECT_FALSE_MSG(test, dp_topo_plan_mode(t),
					       "%s", ops->name);
			KUNIT_EXPECT_FALSE_MSG(test,
					       dp_route_set_coords(t, &st, x, 2),
					       "%s", ops->name);
			KUNIT_EXPECT_EQ_MSG(test, st.flags, 0x12, "%s",
					    ops->name);
			KUNIT_EXPECT_EQ_MSG(test, st.ncoords, 0, "%s",
					    ops->name);
			KUNIT_EXPECT_EQ_MSG(test,
					    dp_table_coords(t, 0, st.coords, 2),
					    0, "%s", ops->name);
		}
		KUNIT_EXPECT_EQ_MSG(test, dp_topo_has_keys(t), !!ops->keys,
				    "%s", ops->name);
		if (!ops->keys)
			KUNIT_EXPECT_FALSE_MSG(test, dp_dst_is_key(t, 0xff),
					       "%s", ops->name);
	}
	KUNIT_EXPECT_EQ(test, without, DP_TOPO_KIND_MAX - 1);
}

/*
 * The per-packet dispatch (DP_TOPO_CASE_* in topo.h) calls a kind's entry
 * points directly, by the list (topologies.h): they must be the ones the
 * kind's registered ops table names, or the kernel would route by other
 * code than the ops check, dpsim and the walks here see.
 */
static const struct dp_topo_ops dpt_entries[] = {
	DP_TOPOLOGIES_BUILT(DP_TOPO_ENTRY)
};

static void dpt_core_dispatch(struct kunit *test)
{
	const struct dp_topo_ops *ops, *e;
	u32 i;

	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(dpt_entries), DP_TOPO_KIND_MAX);
	for (i = 0; i < ARRAY_SIZE(dpt_entries); i++) {
		e = &dpt_entries[i];
		ops = dp_topo_ops_by_kind(e->kind);
		KUNIT_ASSERT_NOT_NULL(test, ops);
		KUNIT_EXPECT_STREQ(test, ops->name, e->name);
		KUNIT_EXPECT_TRUE_MSG(test, ops->route_init == e->route_init,
				      "%s: route_init", e->name);
		KUNIT_EXPECT_TRUE_MSG(test, ops->route == e->route,
				      "%s: route", e->name);
		KUNIT_EXPECT_TRUE_MSG(test,
				      ops->port_neigh_index == e->port_neigh_index,
				      "%s: port_neigh_index", e->name);
	}
}

/* How to break a copy of a good ops table. */
enum dpt_break {
	DPT_NO_NAME, DPT_BAD_KIND, DPT_NO_INIT, DPT_NO_ROUTE, DPT_NO_ROUTE_INIT,
	DPT_NO_ADDR_PARSE, DPT_NO_PEER_PORT, DPT_HALF_LABEL, DPT_FEW_PHASES,
	DPT_MANY_PHASES, DPT_PHASE0_NAME, DPT_FEW_DROPS, DPT_DROP1_NAME,
	DPT_NO_DETOURS, DPT_DETOUR_SLOT, DPT_HALF_HELLO_COORDS,
	DPT_COORDS_NO_FLAG, DPT_HALF_KEYS, DPT_PARAM_KIND, DPT_PARAM_ATTR, DPT_FALLBACK_GENERIC,
	DPT_FALLBACK_BEYOND, DPT_FALLBACK_DISCOVER, DPT_BREAK_MAX,
};

static void dpt_core_ops_check_rejects(struct kunit *test)
{
	static const struct dp_phase_desc bad_phases[] = {
		{ "direct" }, { "none" },
	};
	static const char *const bad_drops[] = { "none", "nope", "at_dst" };
	static const struct dp_phase_desc slot4[] = {
		{ "none" }, { "direct" }, { "odd", DP_DETOUR_SLOTS + 1 },
	};
	/* A parameter that would overwrite the kind, one past the UAPI. */
	static const struct dp_topo_param kind_param[] = {
		{ "kind", IFLA_DPILLAR_N, DPILLAR_A_DEV_N,
		  offsetof(struct dp_topo_params, kind), 0, DP_PARAM_ID_n },
	};
	static const struct dp_topo_param attr_param[] = {
		{ "n", IFLA_DPILLAR_MAX + 1, DPILLAR_A_DEV_N,
		  offsetof(struct dp_topo_params, n), 0, DP_PARAM_ID_n },
	};
	/* Extensions missing a member they need. */
	const struct dp_topo_coords_ext half_hello = {
		.hello_ok = dp_s2_ops.coords->hello_ok, .flag = 0x20,
	};
	const struct dp_topo_coords_ext no_flag = {
		.hello = dp_s2_ops.coords->hello,
		.hello_ok = dp_s2_ops.coords->hello_ok,
	};
	static const struct dp_topo_key_ext half_keys = {
		.dst_is_key = dp_s2_dst_is_key,
	};
	struct dp_topo_ops ops;
	const char *why;
	int b;

	for (b = 0; b < DPT_BREAK_MAX; b++) {
		ops = dp_dpillar_ops;
		switch (b) {
		case DPT_NO_NAME:
			ops.name = NULL;
			break;
		case DPT_BAD_KIND:
			ops.kind = DP_TOPO_KIND_MAX + 1;
			break;
		case DPT_NO_INIT:
			ops.init = NULL;
			break;
		case DPT_NO_ROUTE:
			ops.route = NULL;
			break;
		case DPT_NO_ROUTE_INIT:
			ops.route_init = NULL;
			break;
		case DPT_NO_ADDR_PARSE:
			ops.addr_parse = NULL;
			break;
		case DPT_NO_PEER_PORT:
			ops.peer_port = NULL;
			break;
		case DPT_HALF_LABEL:
			ops.addr_from_label = NULL;
			break;
		case DPT_FEW_PHASES:
			ops.nphases = 1;
			break;
		case DPT_MANY_PHASES:
			ops.nphases = DP_PHASE_MAX + 1;
			break;
		case DPT_PHASE0_NAME:
			ops.phases = bad_phases;
			ops.nphases = ARRAY_SIZE(bad_phases);
			break;
		case DPT_FEW_DROPS:
			ops.ndrops = DP_DROP_TOPO - 1;
			break;
		case DPT_DROP1_NAME:
			ops.drops = bad_drops;
			ops.ndrops = ARRAY_SIZE(bad_drops);
			break;
		case DPT_NO_DETOURS:
			ops.detours = NULL;
			break;
		case DPT_DETOUR_SLOT:
			ops.phases = slot4;
			ops.nphases = ARRAY_SIZE(slot4);
			break;
		case DPT_HALF_HELLO_COORDS:
			ops.coords = &half_hello;
			break;
		case DPT_COORDS_NO_FLAG:
			ops.coords = &no_flag;
			break;
		case DPT_HALF_KEYS:
			ops.keys = &half_keys;
			break;
		case DPT_PARAM_KIND:
			ops.params = kind_param;
			ops.nparams = ARRAY_SIZE(kind_param);
			break;
		case DPT_PARAM_ATTR:
			ops.params = attr_param;
			ops.nparams = ARRAY_SIZE(attr_param);
			break;
		case DPT_FALLBACK_GENERIC:	/* bad_addr is no failure */
			ops.fallback_drops |= 1U << DP_DROP_ROUTE_BAD_ADDR;
			break;
		case DPT_FALLBACK_BEYOND:
			ops.fallback_drops |= 1U << ops.ndrops;
			break;
		case DPT_FALLBACK_DISCOVER:	/* its own discovery, not both */
			ops.discover_drop = DPP_DROP_RING;
			break;
		}
		why = NULL;
		KUNIT_EXPECT_EQ_MSG(test, dp_topo_ops_check(&ops, &why), -EINVAL,
				    "break %d accepted", b);
		KUNIT_EXPECT_NOT_NULL_MSG(test, why, "break %d: no reason", b);
	}
	/* The unbroken copy passes: each case above failed for its reason. */
	ops = dp_dpillar_ops;
	KUNIT_EXPECT_EQ(test, dp_topo_ops_check(&ops, &why), 0);
}

/*
 * Text addresses: "#<id>" in the core for every topology, the rest in the
 * topology; a failed parse leaves the caller's id alone.
 */
static void dpt_core_addr_dispatch(struct kunit *test)
{
	static const char *const bad[] = {
		"", "#", "#x", "#1x", "# 1", "#1 ", "#-1", "#+1", "#24",
		"#4294967295", "#4294967296", "#99999999999",
	};
	struct dp_topo t;
	char buf[DP_ADDR_TEXT_MAX];
	const char *why;
	unsigned int i;
	u32 id;

	dpt_mk(test, &t, 4, 3);		/* 24 servers */
	KUNIT_EXPECT_EQ(test, dp_addr_parse(&t, "#0", &id, NULL), 0);
	KUNIT_EXPECT_EQ(test, id, 0);
	KUNIT_EXPECT_EQ(test, dp_addr_parse(&t, "#23", &id, NULL), 0);
	KUNIT_EXPECT_EQ(test, id, 23);
	KUNIT_EXPECT_EQ(test, dp_addr_parse(&t, "#007", &id, NULL), 0);
	KUNIT_EXPECT_EQ(test, id, 7);
	/* The topology's own form reaches the topology. */
	KUNIT_EXPECT_EQ(test, dp_addr_parse(&t, "2:1.1.1", &id, NULL), 0);
	KUNIT_EXPECT_EQ(test, id, 2 * 8 + 7);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		id = 12345;
		why = NULL;
		KUNIT_EXPECT_EQ_MSG(test, dp_addr_parse(&t, bad[i], &id, &why),
				    -EINVAL, "\"%s\"", bad[i]);
		KUNIT_EXPECT_EQ_MSG(test, id, 12345, "\"%s\"", bad[i]);
		KUNIT_EXPECT_NOT_NULL(test, why);
	}
	KUNIT_EXPECT_EQ(test, dp_addr_parse(&t, NULL, &id, NULL), -EINVAL);
	/* Format: the topology's form; an id outside the fabric is "". */
	KUNIT_EXPECT_EQ(test, dp_addr_format(&t, 23, buf, sizeof(buf)), 7);
	KUNIT_EXPECT_STREQ(test, buf, "2:1.1.1");
	KUNIT_EXPECT_EQ(test, dp_addr_format(&t, 24, buf, sizeof(buf)),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, buf, "");
	KUNIT_EXPECT_EQ(test, dp_addr_format(&t, DP_NODE_NONE, buf,
					     sizeof(buf)), -EINVAL);
	/* Truncated like snprintf: the full length, always terminated. */
	KUNIT_EXPECT_EQ(test, dp_addr_format(&t, 23, buf, 4), 7);
	KUNIT_EXPECT_STREQ(test, buf, "2:1");
}

static struct kunit_case dpt_core_cases[] = {
	KUNIT_CASE(dpt_core_registry),
	KUNIT_CASE(dpt_core_dispatch),
	KUNIT_CASE(dpt_core_no_extension),
	KUNIT_CASE(dpt_core_ops_check_rejects),
	KUNIT_CASE(dpt_core_addr_dispatch),
	KUNIT_CASE(dpt_topo_none),
	KUNIT_CASE(dpt_rdiv_exact),
	{}
};

static struct kunit_suite dpt_core_suite = {
	.name = "dpillar_topo_core",
	.test_cases = dpt_core_cases,
};

kunit_test_suites(&dpt_core_suite);
