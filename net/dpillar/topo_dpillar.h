/* SPDX-License-Identifier: GPL-2.0 */
/*
 * topo_dpillar.h - DPillar's own definitions: what its ports, flag bits,
 * phases and drop reasons mean.  Only topo_dpillar.c and the tests that
 * check DPillar itself include this; the generic module does not.
 */
#ifndef _DP_TOPO_DPILLAR_H
#define _DP_TOPO_DPILLAR_H

#include "topo.h"

#define DPP_MAX_K		32	/* array bound; see dpp_init() */

/* DPillar parameter range accepted by dpp_init(). */
#define DPP_N_MIN		4
#define DPP_N_MAX		256	/* so that a label symbol fits a u8 */

/*
 * Ports of a DPillar server.  Port 0 plugs into a switch of S_C (shared
 * with the clockwise column H_{C+1}), port 1 into a switch of S_{C-1}
 * (shared with the counter-clockwise column H_{C-1}).
 */
#define DPP_PORT_CW		0
#define DPP_PORT_CCW		1
#define DPP_NPORTS		2

/*
 * Fault-tolerant routing: at most this many Prop. IV.1/IV.3 tunnels per
 * packet.  Each tunnel deliberately sets one label symbol to a wrong value,
 * which costs up to one more turn around the pillar; without a budget two
 * or more failures can make a packet circle until its TTL expires.  Must
 * fit DPP_RS_TUNNELS_MASK.
 */
#ifndef DPP_FT_MAX_TUNNELS	/* overridable for experiments (dpsim) */
#define DPP_FT_MAX_TUNNELS	4
#endif

/*
 * struct dp_route_state.flags, DPillar meaning.  Bit 7 says which routing
 * the packet is under; the source chooses (its device's mode, route_init's
 * @sel) and every relay follows the packet's choice, so a fabric whose
 * servers run different modes still routes consistently.
 *
 * Paper mode (DPP_RS_SHORTEST clear), SRoute/FTRoute:
 *   DPP_RS_CCW       helix direction D: clear = clockwise (+1), set =
 *                    counter-clockwise (-1).  Needed because D cannot be
 *                    recomputed hop by hop (Algorithm 1 takes it as input).
 *   DPP_RS_UTURN     D was changed once (Prop. IV.2); forbids a second
 *                    u-turn, which could loop.
 *   DPP_RS_RING_REV  the ring phase direction was reversed once around a
 *                    failure; a second blocked ring hop drops the packet.
 *   DPP_RS_RING_CCW  with DPP_RS_RING_REV: the ring direction now in force.
 *                    Needed because after a reversal the packet goes the
 *                    long way round, and recomputing "the shorter way" at
 *                    the next server would send it back into the failure.
 *   bits 4..6        number of tunnels taken so far (<= DPP_FT_MAX_TUNNELS),
 *                    which bounds detours and so makes routing loop-free.
 *   The routing word is not used (sent as 0, ignored).
 *
 * Shortest mode (DPP_RS_SHORTEST set):
 *   bits 0..3        detours taken so far (<= the topology's budget,
 *                    struct dpp_priv.budget), which bounds the path.
 *   DPP_RS_LOCAL     the last detour was a local one: the next is far.
 *   The routing word carries 16 bits of the flow hash, which picks among
 *   the equal-cost next hops at every relay (no reordering within a flow).
 */
#define DPP_RS_CCW		0x01
#define DPP_RS_UTURN		0x02
#define DPP_RS_RING_REV		0x04
#define DPP_RS_RING_CCW		0x08
#define DPP_RS_TUNNELS_SHIFT	4
#define DPP_RS_TUNNELS_MASK	0x70
#define DPP_RS_SHORTEST		0x80
#define DPP_RS_DETOURS_MASK	0x0f
#define DPP_RS_LOCAL		0x10

/* Most detours a shortest-mode packet may take; see dpp_sp_bound(). */
#define DPP_SP_MAX_DETOURS	15

/*
 * route_init's @sel: the routing mode and, for the paper's routing, the
 * initial helix direction.  A device's routing mode is one of these.
 */
enum dpp_sel {
	DPP_SEL_SHORTEST = 0,	/* exact shortest paths, flow spreading */
	DPP_SEL_AUTO = 1,	/* paper: the direction with the shorter SRoute */
	DPP_SEL_CW = 2,		/* paper, D = +1 (the paper's default) */
	DPP_SEL_CCW = 3,	/* paper, D = -1 */
	DPP_SEL_COUNT,
};

/* Phases after the generic ones (values equal enum dpillar_route_phase). */
enum dpp_phase {
	DPP_PHASE_HELIX = DP_PHASE_TOPO,	/* helix phase, Algorithm 1 */
	DPP_PHASE_RING,		/* ring phase, Algorithm 1 */
	DPP_PHASE_TUNNEL,	/* hop toward a waypoint (Prop. IV.1/IV.3) */
	DPP_PHASE_UTURN,	/* helix direction changed (Prop. IV.2) */
	DPP_PHASE_RING_REV,	/* ring direction reversed around a failure */
	DPP_PHASE_SHORTEST,	/* shortest mode: one hop closer to dst */
	DPP_PHASE_WAYPOINT,	/* shortest mode: one hop closer to waypoint */
	DPP_PHASE_DETOUR,	/* shortest mode: stuck, hop to a neighbour
				 * whose switch-mate is the new waypoint
				 */
	DPP_PHASE_FAR,		/* shortest mode: stuck, first hop toward a
				 * far waypoint chosen by the flow hash
				 */
	DPP_PHASE_COUNT,
};

/* Drop reasons after the generic ones. */
enum dpp_drop {
	DPP_DROP_RING = DP_DROP_TOPO,	/* ring blocked in both directions */
	DPP_DROP_UTURN,		/* helix blocked, u-turn found no server */
	DPP_DROP_HELIX,		/* helix blocked after the u-turn */
	DPP_DROP_TUNNEL,	/* waypoint unreachable from tunnel middle */
	DPP_DROP_BUDGET,	/* blocked, tunnel budget spent, u-turn used */
	DPP_DROP_NOPATH,	/* failure-free routing found no hop (bug) */
	DPP_DROP_DETOURS,	/* shortest mode: stuck, detour budget spent */
	DPP_DROP_COUNT,
};

/*
 * The largest k of a fabric: k * 2^k servers (h = 2) must fit a u32, so
 * k <= 27.  DPP_MAX_K stays the bound of a label's text form.
 */
#define DPP_FABRIC_K_MAX	27

/*
 * Shortest mode's table of next-hop classes (struct dpp_priv.sp_tab),
 * kept for k <= DPP_SP_TAB_K: k * 2^k bytes, which must fit the 512
 * bytes of struct dp_topo.priv with the rest.
 */
#define DPP_SP_TAB_K		5

/*
 * Precomputed tables, in struct dp_topo.priv: filled once by dpp_init(),
 * read-only afterwards, so lockless readers need nothing more than the
 * struct dp_topo they already hold.
 */
struct dpp_priv {
	u32 n, k, h;		/* h = n/2 */
	u32 nlabels;		/* h^k */
	u32 pow[DPP_FABRIC_K_MAX + 1];	/* pow[i] = h^i */
	/* x / pow[i]: struct dp_rdiv split, which would pad to 8 bytes */
	u32 rpow_m[DPP_FABRIC_K_MAX + 1];
	u8 rpow_sh[DPP_FABRIC_K_MAX + 1][2];
	u32 kmask;		/* k low bits: a set of symbols or columns */
	u32 diam;		/* exact diameter: the longest dpp_dist() */
	u32 budget;		/* shortest mode's detour budget */
	/*
	 * x / h for x < 2^31 (labels: k * h^k < 2^32 and k >= 2) as
	 * (x * hdiv_m) >> hdiv_sh, one multiply and one shift: m =
	 * ceil(2^(31+l) / h), l = ceil(log2 h), exact by Granlund and
	 * Montgomery's Theorem 4.2 (m * h <= 2^(31+l) + 2^l).
	 */
	u64 hdiv_m;
	u32 hdiv_sh;
	/*
	 * Shortest mode: id / h^k as (id * cdiv_m) >> cdiv_sh for every id
	 * of the fabric, by the same theorem, when dpp_init() finds it
	 * exact; cdiv_sh = 0: use dpp_col().
	 */
	u64 cdiv_m;
	u32 cdiv_sh;
	/*
	 * Shortest mode, k <= DPP_SP_TAB_K (else unused): which classes of
	 * neighbours are one hop closer (dpp_sp_mask()), for a target m
	 * columns clockwise of us whose label differs from ours in the
	 * symbols r, relative to our column (bit 0: symbol c).  Index
	 * (m << k) | r; bits 0..2 port 0's classes, 3..5 port 1's.
	 */
	u8 sp_tab[DPP_SP_TAB_K << DPP_SP_TAB_K];
};

static inline const struct dpp_priv *dpp(const struct dp_topo *t)
{
	return (const struct dpp_priv *)t->priv;
}

/* A server's (column, label) and back; @sym gets k symbols, v_0 first. */
void dpp_addr_split(const struct dp_topo *t, u32 id, u32 *column, u8 *sym);
/*
 * Topology-independent parser (for dpctl, before n is known): "C:a.b.c"
 * into @column and @sym = v_0..v_{nsym-1} (reversed: the text is most
 * significant first).  @sym must hold DPP_MAX_K entries.  Symbols must be
 * <= 255; at most DPP_MAX_K symbols; no spaces.
 */
int dpp_addr_parse_raw(const char *text, u32 *column, u8 *sym, u32 *nsym,
		       const char **why);

/*
 * Exact hop distance between two servers, O(k), no table; proven in
 * topo_dpillar.c and checked against BFS by dpsim and KUnit.
 */
u32 dpp_dist(const struct dp_topo *t, u32 a, u32 b);

#ifdef __KERNEL__
#if IS_ENABLED(CONFIG_KUNIT)
/* Internals of topo_dpillar.c that its KUnit tests check directly. */
u32 dpp_sroute_len(const struct dp_topo *t, u32 c, u32 diff, u32 cd, bool cw);
u32 dpp_sp_mask_test(const struct dp_topo *t, u32 self, u32 tgt, bool tab);
#endif
#endif

#endif /* _DP_TOPO_DPILLAR_H */
