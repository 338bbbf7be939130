// SPDX-License-Identifier: GPL-2.0
/*
 * route_dump.c - a digest of every route the routing core takes on a set
 * of small fabrics: every topology, every routing mode, several flow
 * hashes, without a view, with a view and no failure, and with random
 * failed servers and links.  Built against two versions of the core
 * (tests/route-equal.sh), it shows that a change to the routing code
 * (a cheaper decision) changed no path, hop phase, drop or equal-cost
 * choice.  Uses only the core's stable interface (topo.h, topo_walk.h)
 * so that it builds against older trees too.
 *
 * Output: one line per (fabric, mode, failure set): the pairs routed and
 * a 64-bit digest of their walks; the last line counts them.
 * "route_dump -v" prints every walk instead of digesting it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

struct fabric {
	struct dp_topo_params p;
	u32 pairs;	/* 0: every ordered pair, else this many at random */
};

#define DPL(n_, k_, m_) { { .kind = DP_TOPO_DPILLAR, .n = n_, .k = k_ }, m_ }
#define DCL(n_, k_, m_) { { .kind = DP_TOPO_DCELL, .n = n_, .k = k_ }, m_ }
#define BCB(n_, k_, m_) { { .kind = DP_TOPO_BCUBE, .n = n_, .k = k_ }, m_ }
#define XDC(n_, k_, i_, m_) \
	{ { .kind = DP_TOPO_XDCENT, .n = n_, .k = k_, .level = i_ }, m_ }
#define S2(N_, n_, L_, s_, m_) { { .kind = DP_TOPO_S2, .nodes = N_, .n = n_, \
				   .spaces = L_, .seed = s_ }, m_ }

static const struct fabric fabrics[] = {
	DPL(4, 2, 0), DPL(4, 3, 0), DPL(6, 3, 0), DPL(8, 3, 0), DPL(4, 5, 0),
	DPL(6, 4, 0), DPL(10, 3, 0), DPL(12, 4, 40000), DPL(16, 5, 40000),
	DCL(4, 1, 0), DCL(3, 2, 0), DCL(4, 2, 0), DCL(2, 3, 40000),
	BCB(4, 1, 0), BCB(3, 2, 0), BCB(4, 3, 0),
	XDC(4, 2, 1, 0), XDC(3, 3, 2, 0), XDC(4, 3, 2, 0),
	S2(40, 4, 2, 1, 0), S2(120, 6, 3, 7, 4000), S2(250, 8, 4, 3, 2000),
	/* above 255 nodes: hashed Feistel rounds, the TTL renewal */
	S2(1000, 8, 4, 5, 1000), S2(3000, 12, 5, 9, 500),
};

/*
 * The topology's tables (dp_topo_alloc(), S2 derived mode), where the
 * core has them: weak references, so that the dump still builds against
 * a core from before them (route-equal.sh's base), where they are NULL.
 * ROUTE_DUMP_DERIVE set: routes without them, so that route-equal.sh
 * compares the core both ways with the base.
 */
bool dp_topo_alloc(struct dp_topo *t) __attribute__((weak));
void dp_topo_free(struct dp_topo *t) __attribute__((weak));

static bool verbose;

static u64 fnv(u64 h, u32 x)
{
	u32 i;

	for (i = 0; i < 4; i++) {
		h ^= (x >> (8 * i)) & 0xff;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* Fold one walk, and the equal-cost choices at its source, into @h. */
static u64 walk_one(const struct dp_topo *t, u32 s, u32 d, u32 sel, u32 hash,
		    const struct dp_fail_set *fs, struct dp_walk *w, u64 h)
{
	struct dp_route_state st;
	struct dp_view view;
	u32 ids[64], n, i;

	dp_walk(t, s, d, sel, hash, fs, t->max_hops, w);
	h = fnv(h, s);
	h = fnv(h, d);
	h = fnv(h, hash);
	h = fnv(h, w->delivered | w->looped << 1 | w->bad_hop << 2);
	h = fnv(h, w->reason);
	h = fnv(h, w->hops);
	h = fnv(h, w->st.flags | w->st.word << 8);
	for (i = 0; i < w->path_len; i++) {
		h = fnv(h, w->path[i]);
		if (i + 1 < w->path_len)
			h = fnv(h, w->phase[i]);
	}
	dp_route_init(t, s, d, sel, hash, &st);
	if (fs)
		dp_fail_view(fs, &view);
	n = dp_route_choices(t, s, &st, fs ? &view : NULL, ids, 64);
	h = fnv(h, n);
	for (i = 0; i < n && i < 64; i++)
		h = fnv(h, ids[i]);
	if (verbose) {
		printf("  %u>%u sel %u hash %#x %s r%u h%u:", s, d, sel, hash,
		       w->delivered ? "ok" : "drop", w->reason, w->hops);
		for (i = 0; i < w->path_len; i++)
			printf(" %u", w->path[i]);
		printf(" |");
		for (i = 0; i < n && i < 64; i++)
			printf(" %u", ids[i]);
		printf("\n");
	}
	return h;
}

/* The flow hashes of a pair: fixed ones and pair-dependent ones. */
static u32 pair_hash(u32 s, u32 d, u32 j)
{
	static const u32 fixed[] = { 0, 0xffffffffU };

	if (j < 2)
		return fixed[j];
	return dp_fmix32(s * 0x9e3779b1U ^ d ^ (j << 24));
}

#define NHASH 4

int main(int argc, char **argv)
{
	u64 total = 0, configs = 0;
	u32 f, sel, nsel, cfg, s, d, j, x;
	struct dp_fail_set fs;
	struct dp_walk w = { 0 };
	char name[DP_ADDR_TEXT_MAX];

	verbose = argc > 1 && !strcmp(argv[1], "-v");
	for (f = 0; f < sizeof(fabrics) / sizeof(fabrics[0]); f++) {
		const struct fabric *fb = &fabrics[f];
		const char *why = "";
		struct dp_topo t;

		if (dp_topo_init(&t, &fb->p, &why)) {
			fprintf(stderr, "route_dump: fabric %u: %s\n", f, why);
			return 1;
		}
		if (dp_topo_alloc && !getenv("ROUTE_DUMP_DERIVE"))
			dp_topo_alloc(&t);
		dp_topo_describe(&t, name, sizeof(name));
		if (fs_init(&fs, &t))
			return 1;
		free(w.path);
		free(w.phase);
		w.path_max = t.max_hops + 1;
		w.path = calloc(w.path_max, sizeof(*w.path));
		w.phase = calloc(w.path_max, sizeof(*w.phase));
		if (!w.path || !w.phase)
			return 1;
		nsel = dp_sel_count(&t);
		for (sel = 0; sel < nsel; sel++) {
			/*
			 * 0: no view; 1: a view, nothing failed; 2, 3: 3% and
			 * 12% of the servers and as many links failed.
			 */
			for (cfg = 0; cfg < 4; cfg++) {
				struct rng r = { 1000 * f + 10 * sel + cfg };
				u64 h = 0xcbf29ce484222325ULL, n = 0;
				u32 nf = cfg < 2 ? 0 : t.nodes * (cfg == 2 ? 3 : 12) / 100;

				dp_fail_clear(&fs);
				fs_random(&fs, &r, nf, nf);
				if (verbose)
					printf("%s mode %s set %u\n", name,
					       dp_sel_name(&t, sel), cfg);
				for (x = 0; fb->pairs && x < fb->pairs; x++) {
					s = rng_below(&r, t.nodes);
					d = rng_below(&r, t.nodes);
					if (s == d || dp_fail_node(&fs, s) ||
					    dp_fail_node(&fs, d))
						continue;
					h = walk_one(&t, s, d, sel,
						     pair_hash(s, d, x % NHASH),
						     cfg ? &fs : NULL, &w, h);
					n++;
				}
				for (s = 0; !fb->pairs && s < t.nodes; s++) {
					for (d = 0; d < t.nodes; d++) {
						if (s == d || dp_fail_node(&fs, s) ||
						    dp_fail_node(&fs, d))
							continue;
						for (j = 0; j < NHASH; j++)
							h = walk_one(&t, s, d, sel,
								     pair_hash(s, d, j),
								     cfg ? &fs : NULL,
								     &w, h);
						n += NHASH;
					}
				}
				printf("%s mode %s set %u: %llu walks, digest %016llx\n",
				       name, dp_sel_name(&t, sel), cfg,
				       (unsigned long long)n, (unsigned long long)h);
				total += n;
				configs++;
			}
		}
		fs_free(&fs);
		if (dp_topo_free)
			dp_topo_free(&t);
	}
	free(w.path);
	free(w.phase);
	printf("%llu configurations, %llu walks\n", (unsigned long long)configs,
	       (unsigned long long)total);
	return 0;
}
