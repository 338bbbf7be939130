/* SPDX-License-Identifier: GPL-2.0 */
/*
 * topo_dcell.h - DCell(n, k): private header of topo_dcell.c, also read
 * by its tests (KUnit topo_dcell_test.c, tools/dpsim/tests).
 */
#ifndef _DP_TOPO_DCELL_H
#define _DP_TOPO_DCELL_H

#include "topo.h"

/*
 * Parameter range.  The node count t_k must fit a u32, which already
 * limits k to 4 (DCell(2,5) has about 10^13 servers) and n to 255 for
 * k = 3 (t_3 of n = 256 is above 2^32).
 */
#define DCL_N_MIN		2
#define DCL_N_MAX		1024
#define DCL_MAX_K		4

/* Port 0 is the DCell_0 mini-switch; port l (1..k) the level-l cable. */
#define DCL_PORT_SWITCH		0

/*
 * Per-packet state (struct dp_route_state):
 * flags bits 0-2: local reroutes taken so far (the DFR budget, see
 *	struct dcl_priv.budget); bits 3-5: the cable entry level (0: none,
 *	else 1..k: the packet goes to the destination's level-l cable peer
 *	first, see topo_dcell.c), honoured only when a reroute was taken;
 *	bit 6: routing mode "paper" (no cable entry); bit 7 is ignored.
 * word: 0, or a tag of the DCell_0 (1 + its index modulo 0x7fff) holding
 *	the far end of the link the packet was last rerouted around (the
 *	jump-up memory).
 * waypoint: the proxy of a local reroute.
 * A parallel path (path selection's candidate M in 1..k, topo_dcell.c):
 *	word DCL_WORD_PATH | M, waypoint the source, flags 0.
 */
#define DCL_RS_REROUTES_MASK	0x07
#define DCL_MAX_REROUTES	7	/* what the flags can count */
#define DCL_RS_ENTRY_SHIFT	3
#define DCL_RS_ENTRY_MASK	0x38
#define DCL_RS_PAPER		0x40
#define DCL_WORD_PATH		0x8000	/* above every rack tag */
#define DCL_PATH_WPS		6	/* waypoints of a parallel path */
/* Routing modes (route_init's sel): see dcl_sel_names. */
#define DCL_SEL_DFR		0
#define DCL_SEL_PAPER		1
#define DCL_SEL_PATH0		2	/* "pM": parallel path M pinned */

/* Phases after the generic ones. */
enum dcl_phase {
	DCL_PHASE_DCELL = DP_PHASE_TOPO,	/* DCellRouting */
	DCL_PHASE_PROXY,	/* toward the proxy of a local reroute */
	DCL_PHASE_REROUTE,	/* first hop of a local reroute */
	DCL_PHASE_JUMPUP,	/* first hop of a jump-up reroute */
	DCL_PHASE_ENTRY,	/* first hop toward a cable entry */
	DCL_PHASE_COUNT,
};

/* Drop reasons after the generic ones. */
enum dcl_drop {
	DCL_DROP_DST_DOWN = DP_DROP_TOPO,	/* dst in our DCell_0, not heard */
	DCL_DROP_BUDGET,	/* failure ahead, reroute budget spent */
	DCL_DROP_NO_PROXY,	/* failure ahead, no proxy sub-cell usable */
	DCL_DROP_COUNT,
};

/* Precomputed tables, in struct dp_topo.priv. */
struct dcl_priv {
	u32 n, k;
	u32 budget;		/* reroutes a packet may take */
	u32 t[DCL_MAX_K + 1];	/* t[l]: servers of a DCell_l, t[0] = n */
	u32 g[DCL_MAX_K + 1];	/* g[l] = t[l-1] + 1, g[0] = 1 */
	struct dp_rdiv rt[DCL_MAX_K + 1];	/* x / t[l] */
};

static inline const struct dcl_priv *dcl(const struct dp_topo *t)
{
	return (const struct dcl_priv *)t->priv;
}

/* Digit a_l of node @id (a_0 < n, a_l < g_l). */
u32 dcl_digit(const struct dp_topo *t, u32 id, u32 l);
/* The peer of @id's level-@l cable (1 <= l <= k), BuildDCells. */
u32 dcl_cable_peer(const struct dp_topo *t, u32 id, u32 l);
/*
 * The cable joining sub-cells @i != @j (each a DCell_{l-1}) of the DCell_l
 * whose first node is @base: *@n1 in sub-cell @i, *@n2 in sub-cell @j.
 */
void dcl_link(const struct dp_topo *t, u32 base, u32 l, u32 i, u32 j,
	      u32 *n1, u32 *n2);

#endif /* _DP_TOPO_DCELL_H */
