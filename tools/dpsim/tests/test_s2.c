// SPDX-License-Identifier: GPL-2.0
/*
 * test_s2.c - checks of the Space Shuffle core (topo_s2.c): derived
 * coordinates are a permutation onto the slots with the 1/(3N) balance
 * property for every N up to 2000 and a few large ones, the slot inverse,
 * and the greediest decision on hand-made cases (rule differences, local
 * minimum, first-hop multipath over MCD-reducing neighbours only).
 *
 * Prints one line per check and a final "N passed, N failed" line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>

#include "topo_s2.h"
#include "tresult.h"


static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* Balance and bijectivity of the derived coordinates of N nodes. */
static bool check_derived(u32 seed, u32 n, u32 space)
{
	u32 *c = calloc(n, sizeof(u32)), *seen = calloc(n, sizeof(u32));
	u32 gap = dp_s2_min_gap(n);
	bool ok = true;

	for (u32 i = 0; i < n && ok; i++) {
		u32 s = dp_s2_slot(seed, n, i, space);

		if (s >= n || seen[s]++ ||
		    dp_s2_slot_node(seed, n, s, space) != i)
			ok = false;
		c[i] = dp_s2_coord(seed, n, i, space);
	}
	qsort(c, n, sizeof(u32), cmp_u32);
	for (u32 i = 0; i < n && ok && n > 1; i++)
		if (dp_s2_cd(c[i], c[(i + 1) % n]) < gap)
			ok = false;
	/* gap * 3n >= 2^32: at least 1/(3N) */
	if ((u64)gap * 3 * n < (1ULL << 32))
		ok = false;
	free(c);
	free(seen);
	return ok;
}

static void test_derived(void)
{
	u32 bad = 0, n;

	for (n = 1; n <= 2000; n++)
		if (!check_derived(n * 7 + 1, n, n % 8))
			bad++;
	result(!bad, "derived coordinates: a permutation of the slots, every two nodes >= 1/(3N) apart, N = 1..2000 (%u bad)",
	       bad);
	result(check_derived(42, 100000, 3) && check_derived(7, 1U << 20, 0),
	       "derived coordinates: N = 100000 and 2^20");
	result(dp_s2_coord(1, 100, 5, 0) != dp_s2_coord(2, 100, 5, 0) ||
	       dp_s2_coord(1, 100, 5, 1) != dp_s2_coord(2, 100, 5, 1),
	       "derived coordinates depend on the seed");
}

static void test_greedy(void)
{
	/* one space; self at 0.25 (MCD 0.25), destination at 0 */
	static const u32 self[1] = { 0x40000000U }, dst[1] = { 0 };
	static const u32 a[1] = { 0x30000000U }, b[1] = { 0x50000000U };
	static const u32 w[1] = { 0x08000000U }, z[1] = { 0x20000000U };
	struct dp_s2_cand c[4] = {
		{ a, 0, false },
		{ b, 1, false },	/* does not reduce the MCD */
		{ w, 1, true },		/* behind b */
		{ z, 0, true },		/* behind a */
	};
	u32 best;
	int k;

	k = dp_s2_greedy(self, dst, 1, c, 4, DP_S2_RULE_1HOP, &best);
	result(k == 0 && best == 0x30000000U, "1-hop: the neighbour with the least MCD (%d)", k);
	k = dp_s2_greedy(self, dst, 1, c, 4, DP_S2_RULE_2HOP_PAPER, &best);
	result(k == 1 && best == 0x08000000U, "2-hop (paper): via any neighbour, to the best 2-hop node (%d)", k);
	k = dp_s2_greedy(self, dst, 1, c, 4, DP_S2_RULE_2HOP_SIM, &best);
	result(k == 0 && best == 0x20000000U, "2-hop (simulator): only via a neighbour that reduces the MCD (%d)", k);
	k = dp_s2_greedy(dst, dst, 1, c, 4, DP_S2_RULE_2HOP_PAPER, &best);
	result(k == -1 && best == 0, "at the destination: a local minimum (%d)", k);
	c[0].x = b;
	c[3].x = b;
	k = dp_s2_greedy(self, dst, 1, c, 4, DP_S2_RULE_2HOP_SIM, &best);
	result(k == -1, "no candidate reduces the MCD: a local minimum (%d)", k);
	c[2].via = 7;
	k = dp_s2_greedy(self, dst, 1, c, 4, DP_S2_RULE_2HOP_PAPER, &best);
	result(k == -1, "a 2-hop candidate with a bad via is ignored (%d)", k);
}

static void test_first_hop(void)
{
	static const u32 self[1] = { 0x40000000U }, dst[1] = { 0 };
	static const u32 a[1] = { 0x30000000U }, b[1] = { 0x50000000U };
	static const u32 e[1] = { 0x38000000U };
	struct dp_s2_cand c[3] = { { a, 0, false }, { b, 1, false },
				   { e, 2, false } };
	u32 cnt[3] = { 0 }, h;

	for (h = 0; h < 3000; h++) {
		int k = dp_s2_first_hop(self, dst, 1, c, 3, h);

		if (k >= 0 && k < 3)
			cnt[k]++;
	}
	result(cnt[1] == 0 && cnt[0] > 1300 && cnt[2] > 1300,
	       "first hop: flows spread over the MCD-reducing neighbours only (%u %u %u)",
	       cnt[0], cnt[1], cnt[2]);
	result(dp_s2_first_hop(self, dst, 1, c, 3, 5) ==
	       dp_s2_first_hop(self, dst, 1, c, 3, 5),
	       "first hop: one flow, one neighbour");
}

static void test_keys(void)
{
	u32 x[4], y[4];

	dp_s2_key_coords((const u8 *)"alpha", 5, 4, x);
	dp_s2_key_coords((const u8 *)"alpha", 5, 4, y);
	result(x[0] == y[0] && x[3] == y[3] && x[0] != x[1],
	       "key coordinates: deterministic, differ per space");
}

/* dp_s2_home() against a scan of every node's derived coordinate. */
static void test_home(void)
{
	static const u32 sizes[] = { 1, 2, 3, 7, 16, 100, 997, 4096 };
	u32 bad = 0, checked = 0, r = 12345;

	for (u32 i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		u32 n = sizes[i];

		for (u32 j = 0; j < 300; j++) {
			u32 best = 0, bd = 0xffffffffU, x, sp = j % 5;

			r = r * 1103515245U + 12345U;
			x = j < 4 ? (u32)0 - j : r;	/* the wrap too */
			for (u32 v = 0; v < n; v++) {
				u32 c = dp_s2_cd(dp_s2_coord(9, n, v, sp), x);

				if (c < bd) {
					bd = c;
					best = v;
				}
			}
			checked++;
			if (dp_s2_home(9, n, x, sp) != best)
				bad++;
		}
	}
	result(!bad, "key home in constant time equals the scan of every node (%u points, %u bad)",
	       checked, bad);
}

/*
 * Derived mode's tables (dp_topo_alloc()) answer what the derivation
 * does: the wiring of every port and the decisions, every rule, flow
 * hashes or none, node and key frames, at sampled (self, dst) pairs
 * (tests/route-equal.sh compares whole walks); small fabrics, the
 * hashed rounds above 255 nodes, an odd last port, the largest.
 */
static void test_tables(void)
{
	static const u32 fab[][4] = {	/* nodes, ports, spaces, seed */
		{ 3, 2, 1, 0 }, { 4, 5, 2, 1 }, { 40, 4, 2, 1 },
		{ 250, 8, 4, 3 }, { 256, 16, 8, 4 }, { 1000, 7, 3, 5 },
		{ 16384, 16, 8, 6 },
	};
	u32 bad = 0, wiring = 0, hops = 0, r = 777;

	for (u32 f = 0; f < sizeof(fab) / sizeof(fab[0]); f++) {
		struct dp_topo_params p = { .kind = DP_TOPO_S2,
					    .nodes = fab[f][0], .n = fab[f][1],
					    .spaces = fab[f][2],
					    .seed = fab[f][3] };
		struct dp_topo t0, t1;
		u32 n = p.nodes, step = n > 1000 ? 97 : 1;

		if (dp_topo_init(&t0, &p, NULL) || dp_topo_init(&t1, &p, NULL) ||
		    !dp_topo_alloc(&t1) || t0.alloc) {
			bad++;
			continue;
		}
		for (u32 id = 0; id < n; id += step) {
			for (u32 port = 0; port < p.n; port++) {
				struct dp_port_info a, b;
				u32 q = dp_port_neigh(&t0, id, port, 0);

				dp_port_info(&t0, id, port, &a);
				dp_port_info(&t1, id, port, &b);
				wiring++;
				if (q != dp_port_neigh(&t1, id, port, 0) ||
				    a.kind != b.kind || a.nneigh != b.nneigh ||
				    (q != DP_NODE_NONE &&
				     dp_peer_port(&t0, id, port, q) !=
				     dp_peer_port(&t1, id, port, q)))
					bad++;
			}
		}
		for (u32 j = 0; j < 3000; j++) {
			struct dp_route_state s0, s1;
			struct dp_hop h0 = { 0 }, h1 = { 0 };
			u32 self, dst, sel = j % 3;
			int r0, r1;

			r = r * 1103515245U + 12345U;
			self = (r >> 8) % n;
			r = r * 1103515245U + 12345U;
			dst = (r >> 8) % n;
			if (self == dst)
				continue;
			if (j % 5 == 1)	/* a key frame: dst is a key id */
				dp_key_route_init(&t0, self, r, sel, &s0);
			else
				dp_route_init(&t0, self, dst, sel, j & 4 ? r : 0,
					      &s0);
			s1 = s0;
			r0 = dp_route(&t0, self, &s0, NULL, &h0);
			r1 = dp_route(&t1, self, &s1, NULL, &h1);
			hops++;
			if (r0 != r1 || h0.next != h1.next ||
			    h0.port != h1.port || h0.phase != h1.phase ||
			    h0.reason != h1.reason ||
			    memcmp(&s0, &s1, sizeof(s0)))
				bad++;
		}
		dp_topo_free(&t1);
		if (t1.alloc)
			bad++;
	}
	result(!bad, "S2 tables: the same wiring and decisions as the derivation (%u ports, %u decisions, %u bad)",
	       wiring, hops, bad);
}

int main(void)
{
	test_tables();
	test_home();
	test_derived();
	test_greedy();
	test_first_hop();
	test_keys();
	printf("%u passed, %u failed\n", npass, nfailed);
	return nfailed ? 1 : 0;
}
