/* SPDX-License-Identifier: GPL-2.0 */
/*
 * topo_xdcent.h - XDCent(n, k, i) and BCube(n, k): private header of
 * topo_xdcent.c, also read by its tests (KUnit, tools/dpsim/tests).
 */
#ifndef _DP_TOPO_XDCENT_H
#define _DP_TOPO_XDCENT_H

#include "topo.h"

#define XDC_N_MIN		2
#define XDC_N_MAX		256
#define XDC_MAX_DIGITS		24	/* digits a_0..a_23: more give paths over 255 */

/*
 * Per-packet state (struct dp_route_state):
 * word: r * n^k + w for XDCent, r for BCube: w is the path word (k digits
 *	base n, w_0 != n-1), r the BCube rotation (digits are corrected in
 *	the order r, r-1, ..., 0, b-1, ..., r+1 where b is the number of
 *	BCube levels).  init rejects parameters where it does not fit 16
 *	bits; a word out of range off the wire is dropped (bad_state).
 *	b * n^k + M (M < k + 1): XDCent's explicit disjoint path M
 *	(topo_xdcent.c), the waypoint is its source and flags are 0.
 * flags bits 0-3: 1 + the digit a sideways hop changed (it is corrected
 *	last), 0 for none; bits 4-5: sideways hops taken; bits 6-7: path
 *	word switches taken.  Both counts only grow, bounded by
 *	struct xdc_priv.side_budget and .switch_budget.
 * waypoint: DP_NODE_NONE, or a member of the destination's spare switch
 *	(a destination entry, topo_xdcent.c, set by a relay or at the
 *	source for a BCube pair's path through the spare ports), only with
 *	a sideways hop paid; else bad_state.  A waypoint that cannot be
 *	reached is given up, paid as one more sideways hop.  With an
 *	explicit path's word: the path's source.
 */
#define XDC_FL_DEFER_MASK	0x0f
#define XDC_FL_SIDE_SHIFT	4
#define XDC_FL_SIDE_MASK	0x30
#define XDC_FL_SWITCH_SHIFT	6
#define XDC_FL_SWITCH_MASK	0xc0
#define XDC_BUDGET_MAX		3	/* what two flag bits count */

/* Routing modes (route_init's sel): see xdc_sel_names. */
#define XDC_SEL_HASH		0
#define XDC_SEL_PAPER		1
#define XDC_SEL_NEAR		2
#define XDC_SEL_ROT		3	/* the earlier parallel paths */
#define XDC_SEL_PATH0		4

enum xdc_phase {
	XDC_PHASE_BCUBE = DP_PHASE_TOPO,	/* one digit corrected, port < b */
	XDC_PHASE_CROSS,	/* through a gate's spare port (level >= k) */
	XDC_PHASE_SIDEWAYS,	/* a digit changed away from the target */
	XDC_PHASE_SWITCHED,	/* first hop after a path word switch */
	XDC_PHASE_COUNT,
};

enum xdc_drop {
	XDC_DROP_BAD_STATE = DP_DROP_TOPO,	/* word or waypoint invalid */
	XDC_DROP_BUDGET,	/* blocked, sideways and switch budget spent */
	XDC_DROP_COUNT,
};

/* Precomputed tables, in struct dp_topo.priv. */
struct xdc_priv {
	u32 n;
	u32 k;		/* XDCent's k: port k is the spare port */
	u32 b;		/* BCube levels: ports 0..b-1 (k, or BCube's k + 1) */
	u32 top;	/* highest digit (XDCent's i, BCube's k) */
	bool spare;	/* XDCent: port k joins levels >= k */
	u32 nwords;	/* n^k path word values (1 for BCube) */
	u32 npaths;	/* parallel paths: k + 1 (BCube: k + 1 too) */
	u32 side_budget, switch_budget;
	u32 pw[XDC_MAX_DIGITS + 1];	/* n^j for j <= top + 1 */
	u32 off[XDC_MAX_DIGITS + 1];	/* first switch index of level L */
	struct dp_rdiv rp[XDC_MAX_DIGITS];	/* x / n^j for j <= top */
	struct dp_rdiv rw;	/* x / nwords */
};

static inline const struct xdc_priv *xdc(const struct dp_topo *t)
{
	return (const struct xdc_priv *)t->priv;
}

/* Digit @j of @id. */
u32 xdc_digit(const struct dp_topo *t, u32 id, u32 j);
/* @id with digit @j set to @v. */
u32 xdc_set_digit(const struct dp_topo *t, u32 id, u32 j, u32 v);
/* Level of the switch on @id's spare port (k + trailing n-1 digits). */
u32 xdc_spare_level(const struct dp_topo *t, u32 id);
/* Is @w (< n^k) a valid path word (w_0 != n-1)? */
bool xdc_word_valid(const struct dp_topo *t, u32 w);
/*
 * The path word and rotation of parallel path @m (0..npaths-1) from @src
 * to @dst: the word is the destination's digits below its highest
 * differing digit L (L-1..L-k) plus m in every digit.
 */
void xdc_parallel(const struct dp_topo *t, u32 src, u32 dst, u32 m, u32 *w,
		  u32 *r);
/*
 * The routing state of disjoint path @m (taken modulo npaths) from @src
 * to @dst, when the pair has one of the construction (a path word, or an
 * explicit path; see topo_xdcent.c): true with *@st set but for dst, else
 * false and *@st untouched.
 */
bool xdc_disjoint(const struct dp_topo *t, u32 src, u32 dst, u32 m,
		  struct dp_route_state *st);
/* The gate of level @L >= k for @self and path word @w. */
u32 xdc_gate(const struct dp_topo *t, u32 self, u32 L, u32 w);

#endif /* _DP_TOPO_XDCENT_H */
