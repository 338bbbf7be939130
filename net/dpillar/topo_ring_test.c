// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of Ring(n) (topo_ring.c), the test fixture topology:
 * parameters, addresses, the wiring against "port 0 to the next server's
 * port 1", every pair failure-free on the shorter way, every single
 * failure delivered by the one turn, two cuts dropped ("cut") and never
 * looped, and every header state within max_hops.
 */

#include <kunit/test.h>

#include "topo.h"
#include "topo_ring.h"
#include "topo_walk.h"
#include "test_lib.h"

static const u32 rgt_sizes[] = { 3, 4, 5, 6, 9 };

static void rgt_n_desc(const u32 *n, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "Ring(%u)", *n);
}

KUNIT_ARRAY_PARAM(rgt_sizes, rgt_sizes, rgt_n_desc);

static void rgt_mk(struct kunit *test, struct dp_topo *t, u32 n)
{
	struct dp_topo_params p = { .kind = DP_TOPO_RING, .n = n };
	const char *why = NULL;

	KUNIT_ASSERT_EQ_MSG(test, dp_topo_init(t, &p, &why), 0, "%u: %s", n,
			    why);
}

static void rgt_init(struct kunit *test)
{
	struct dp_topo_params p = { .kind = DP_TOPO_RING, .n = RING_N_MAX };
	const char *why = NULL;
	struct dp_topo t;

	KUNIT_ASSERT_EQ(test, dp_topo_init(&t, &p, &why), 0);
	KUNIT_EXPECT_EQ(test, t.max_hops, 254U);
	KUNIT_EXPECT_EQ(test, t.ff_hops, 64U);
	KUNIT_EXPECT_EQ(test, t.nports, 2U);
	p.n = RING_N_MIN;
	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &p, &why), 0);
	p.n = RING_N_MAX + 1;
	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &p, &why), -EINVAL);
	p.n = RING_N_MIN - 1;
	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &p, &why), -EINVAL);
	p.n = 0;
	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &p, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "Missing n");
	p.n = 6;
	p.k = 2;
	KUNIT_EXPECT_EQ(test, dp_topo_init(&t, &p, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "Ring takes only n");
}

static void rgt_addr(struct kunit *test)
{
	static const char *const bad[] = { "", "6", "x", "1.0", "-1", "1 " };
	char buf[DP_ADDR_TEXT_MAX];
	const char *why;
	struct dp_topo t;
	u32 id, back, i;

	rgt_mk(test, &t, 6);
	for (id = 0; id < t.nodes; id++) {
		KUNIT_ASSERT_GT(test, dp_addr_format(&t, id, buf, sizeof(buf)),
				0);
		KUNIT_ASSERT_EQ(test, dp_addr_parse(&t, buf, &back, &why), 0);
		KUNIT_EXPECT_EQ(test, back, id);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, dp_addr_parse(&t, bad[i], &id, &why),
				    -EINVAL, "\"%s\"", bad[i]);
}

static void rgt_wiring(struct kunit *test)
{
	struct dp_port_info pi;
	struct dp_topo t;
	u32 id, next;

	rgt_mk(test, &t, *(const u32 *)test->param_value);
	for (id = 0; id < t.nodes; id++) {
		next = (id + 1) % t.nodes;
		dp_port_info(&t, id, RING_PORT_NEXT, &pi);
		KUNIT_EXPECT_EQ(test, pi.kind, (u8)DP_PORT_CABLE);
		KUNIT_EXPECT_EQ(test, dp_port_neigh(&t, id, RING_PORT_NEXT, 0),
				next);
		KUNIT_EXPECT_EQ(test, dp_port_neigh(&t, next, RING_PORT_PREV, 0),
				id);
		KUNIT_EXPECT_EQ(test, dp_peer_port(&t, id, RING_PORT_NEXT, next),
				RING_PORT_PREV);
		KUNIT_EXPECT_EQ(test, dp_peer_port(&t, next, RING_PORT_PREV, id),
				RING_PORT_NEXT);
		KUNIT_EXPECT_EQ(test, dp_port_neigh_index(&t, id, RING_PORT_NEXT,
							  id), -1);
		KUNIT_EXPECT_EQ(test, dp_port_neigh(&t, id, RING_PORT_NEXT, 1),
				DP_NODE_NONE);
	}
}

/* Walk every pair under @fs (NULL: none); how many were delivered. */
static u32 rgt_pairs(struct kunit *test, const struct dp_topo *t,
		     const struct dp_fail_set *fs, u32 hash)
{
	struct dp_walk w = { 0 };
	u32 s, d, dist, n = 0;

	for (s = 0; s < t->nodes; s++) {
		for (d = 0; d < t->nodes; d++) {
			if (s == d || (fs && (dp_fail_node(fs, s) ||
					      dp_fail_node(fs, d))))
				continue;
			dp_walk(t, s, d, 0, hash, fs, t->max_hops, &w);
			KUNIT_ASSERT_FALSE(test, w.bad_hop);
			KUNIT_ASSERT_FALSE(test, w.looped);
			KUNIT_ASSERT_LE(test, w.hops, t->max_hops);
			n += w.delivered;
			if (!w.delivered)
				KUNIT_EXPECT_EQ(test, w.reason,
						(u8)RING_DROP_CUT);
			if (fs)
				continue;
			/* the shorter way, the hash's at the antipode */
			dist = (d + t->nodes - s) % t->nodes;
			dist = min(dist, t->nodes - dist);
			KUNIT_EXPECT_EQ(test, w.hops, dist);
		}
	}
	return n;
}

static void rgt_routing(struct kunit *test)
{
	u32 n = *(const u32 *)test->param_value, all, x, y;
	struct dp_fail_set fs;
	struct dp_topo t;

	rgt_mk(test, &t, n);
	all = n * (n - 1);
	KUNIT_EXPECT_EQ(test, rgt_pairs(test, &t, NULL, 0), all);
	KUNIT_EXPECT_EQ(test, rgt_pairs(test, &t, NULL, 1), all);
	dpt_fail_init(test, &fs, &t);
	/* one cable, one server: every live pair delivered */
	for (x = 0; x < n; x++) {
		dp_fail_clear(&fs);
		dp_fail_set_link(&fs, x, RING_PORT_NEXT);
		dp_fail_set_link(&fs, (x + 1) % n, RING_PORT_PREV);
		KUNIT_EXPECT_EQ(test, rgt_pairs(test, &t, &fs, 1), all);
		dp_fail_clear(&fs);
		dp_fail_set_node(&fs, x);
		KUNIT_EXPECT_EQ(test, rgt_pairs(test, &t, &fs, 0),
				(n - 1) * (n - 2));
	}
	/* two cables: the two arcs cannot reach each other */
	for (x = 0; x < n; x++) {
		for (y = x + 1; y < n; y++) {
			dp_fail_clear(&fs);
			dp_fail_set_link(&fs, x, RING_PORT_NEXT);
			dp_fail_set_link(&fs, y, RING_PORT_NEXT);
			KUNIT_EXPECT_EQ(test, rgt_pairs(test, &t, &fs, 0),
					(y - x) * (y - x - 1) +
					(n - y + x) * (n - y + x - 1));
		}
	}
}

/* Any header state (direction, turned, stray bits) ends within max_hops. */
static void rgt_hostile_state(struct kunit *test)
{
	struct dp_route_state st = { 0 };
	struct dp_fail_set fs;
	struct dp_view v;
	struct dp_hop hop;
	struct dp_topo t;
	u32 self, fl, d, hops;

	rgt_mk(test, &t, 9);
	dpt_fail_init(test, &fs, &t);
	dp_fail_set_link(&fs, 4, RING_PORT_NEXT);
	dp_fail_view(&fs, &v);
	for (fl = 0; fl < 256; fl++) {
		for (d = 0; d < t.nodes + 2; d++) {
			self = fl % t.nodes;
			st.dst = d;
			st.flags = (u8)fl;
			st.waypoint = d ^ fl;
			st.word = (u16)(fl * 257);
			for (hops = 0; hops <= t.max_hops; hops++) {
				if (dp_route(&t, self, &st, fl & 4 ? &v : NULL,
					     &hop))
					break;
				KUNIT_ASSERT_GE(test,
						dp_port_neigh_index(&t, self,
								    hop.port,
								    hop.next),
						0);
				self = hop.next;
				if (self == st.dst)
					break;
			}
			KUNIT_EXPECT_LE(test, hops, t.max_hops);
		}
	}
}

static struct kunit_case rgt_cases[] = {
	KUNIT_CASE(rgt_init),
	KUNIT_CASE(rgt_addr),
	KUNIT_CASE_PARAM(rgt_wiring, rgt_sizes_gen_params),
	KUNIT_CASE_PARAM(rgt_routing, rgt_sizes_gen_params),
	KUNIT_CASE(rgt_hostile_state),
	{}
};

static struct kunit_suite rgt_suite = {
	.name = "dpillar_ring",
	.test_cases = rgt_cases,
};

kunit_test_suites(&rgt_suite);
