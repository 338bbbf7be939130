// SPDX-License-Identifier: GPL-2.0
/*
 * topo_xdcent.c - XDCent(n, k, i) and BCube(n, k): addressing, wiring,
 * XDCRouting hop by hop with a path word, parallel paths and hop-by-hop
 * fault tolerance.  One code for both topologies ("xdcent", "bcube").
 *
 * A server is a_top ... a_0, base-n digits, node id sum a_j n^j.  Ports
 * 0..b-1 are BCube levels: the level-j switch joins the n servers that
 * differ only in digit j.  BCube(n, k) is b = k + 1 such levels, top = k.
 * XDCent(n, k, i) is b = k BCube levels, top = i, and a spare port k: with
 * t the number of trailing digits equal to n-1, it is on a level-(k + t)
 * switch joining the n servers that differ only in digit k + t, or free
 * when k + t > i (the n^k servers kept for growth).  Level L >= k has
 * n^(i-L) (n^k - n^(k-1)) switches.  XDCent(n, k, k-1) is BCube_{k-1}.
 * (The paper's text is garbled OCR; this is the reading of
 * READING-NOTES.md, checked by tools/dpsim/tests/test_xdcent.c: every port
 * is wired to the peer port of its members, counts equal the formulas.)
 *
 * XDCRouting (the paper's Algorithm 1, recursive) toward target T with
 * path word w (w_{k-1} ... w_0, w_0 != n-1): L = the highest digit where
 * self and T differ.  L < b: a BCube step corrects one differing digit.
 * L >= k: the gate x' = self with digits L-1..L-k set to w and the digits
 * below to n-1 (so x' has exactly L-k trailing n-1 digits: its spare port
 * is on the level-L switch); at x' cross to digit L of T, else route to
 * x' first (its highest differing digit is below L).  Computed hop by hop
 * from (self, T, w): every node of the recursive path resolves the same
 * gates, since a BCube step changes no digit >= b and a crossing fixes
 * digit L for good.  The BCube digits are corrected in a rotation r, r-1,
 * ..., 0, b-1, ..., r+1 (r = b-1: highest first, the paper's order).  The
 * longest path, f(L) = 2 f(L-1) + 1 with f(b-1) = b, is
 * F = 2^(i-k+1) (k+1) - 1 for XDCent (Theorem 2) and k + 1 for BCube.
 *
 * Parallel paths (BuildParallelPathSet).  Node connectivity (max-flow,
 * tools/dpsim/eval-xdcent-paths.py) is k + 1 between two servers whose
 * spare ports are both cabled, and at most k when one is free (n^k
 * servers): the paper's "k + 1 for any two servers" holds for the first
 * only.  The disjoint paths ("pM", xdc_disjoint(); internally disjoint in
 * servers and switches) for a pair of equal spare level l:
 * - A BCube pair (same digits from b up): BCube's k paths in the
 *   sub-cell (below), and one through both spare ports: cross at src to
 *   the copy with digit l + 1, correct the BCube digits there, cross back
 *   into dst (a destination entry set at the source).
 * - Highest differing digit k and l = k (the sub-cell of the digits
 *   above k is an XDCent(n, k, k), n >= 3): let D be the differing BCube
 *   digits, j0 the highest, and BCube's parallel path j correct digit j
 *   first (or a detour on it when not in D).  Path 0 crosses at src, then
 *   takes BCube path j0 in dst's copy; path 1 takes BCube path j0 in
 *   src's copy to the gate with dst's digits and crosses into dst; path
 *   j != j0 takes BCube path j with a crossing at its first server.  Each
 *   is plain XDCRouting with a path word and a rotation; the paths of two
 *   copies are disjoint as BCube's are, and their crossings (gates src,
 *   dst, first servers) differ.  With D empty: the direct crossing and k
 *   detours.  Digit 0 of a first server is never n-1 (n >= 3).
 * Explicit paths (xdc_dj_build()), a list of moves (one digit set per hop)
 * rebuilt from (source, destination, M) by the source and by every relay:
 * - Highest differing digit L above k, the digit L-k of neither src nor
 *   dst n-1 (n >= 3): a cell of the digits L..L-k is XDCent(n, k, k) of
 *   sub-cells of the digits below L-k, whose I* (digits below L-k all
 *   n-1) is a level-L gate.  XDCent(n, k, k)'s paths above run on the
 *   cells (xdc_dj_macro()): disjoint in cells and cell-level switches, a
 *   cell between the ends is one path's.  In the two ends, the fan of src
 *   and of dst (xdc_fan(): k + 1 strands, disjoint, to a port on each of
 *   the levels L-k .. L-1 and to I*) take each path to the port of its
 *   first move and from its last move into dst.
 * - A BCube pair of two spare levels la < lb (lb - k <= la), path k:
 *   through both spare ports, every server between with digit la or lb
 *   changed, so outside the cell of BCube's k paths (xdc_dj_spare()).
 * - Highest differing digit k, an end that is no level-k gate (digit 0
 *   n-1, its spare port leaves the cell), n >= 3 (xdc_dj_cellk()): its
 *   crossing goes out through its spare port, across the cell there and
 *   back into its twin; a BCube path with no gate on it side-steps
 *   digit 0 (xdc_dj_cmoves()).  When dst's twin in src's copy has
 *   another spare level (k >= 2, dst its copy's I*), path 1 goes out and
 *   back from the twin in a third copy instead, crossing into it from
 *   the last server of BCube path j0 before the twin, or, when that is
 *   src or no gate, from a side step of digit 0 (xdc_dj_cthird()).
 *   Above k, an end whose cell's I* is no gate and no cell next to it
 *   serves: the same on the cells, out and back from the I*
 *   (xdc_dj_cross_out()).
 * - Above k, such an end cell that cannot cross out and back (L-k >= k):
 *   the cell next to it, entered over level L-k from two of its servers
 *   as max-flow's paths do; its fan has two strands of level L-k and
 *   none to I* (xdc_fan()'s two: the strand of level L-2k goes to another
 *   copy's I*, the I* of its own copy is the second; when the end's digit
 *   L-2k is n-1, the same k digits lower, both strands crossing the
 *   digits between; at L = 2k the end itself and its BCube ports,
 *   xdc_fan0(); at L = 2k + 1 with k = 2 and digit 1 n-1, three
 *   strands in the end's sub-cell of digits 2..0, xdc_fan1()).
 * - L = k + 1 when neither serves (src a level-k gate whose digits
 *   1..k-1 are n-1, dst its cell's I* with digit 1 n-1; xdc_dj_top1()):
 *   k strands from dst over its BCube ports to level-L gates of its
 *   copy, path k out and back from dst's twin; in src's copy each path
 *   sets a digit of its own first and keeps it to its gate's twin.
 * - k = 1, the pairs the cases above leave out (xdc_dj_k1()): path 0 in
 *   the sub-cell C of the differing digits, path 1 out of it through the
 *   ends' spare ports (xdc_k1_out()); an end whose spare port is in C
 *   first reaches another server of C whose port leaves it, over level 0
 *   or through a third copy at L = 1, by xdc_fan() above (xdc_k1_fan()).
 * - n = 2, k = 2, at k (xdc_dj_n2()): the servers 00, 10 and 01 of a
 *   copy's 4-cycle of digits 1, 0 cross over level 2 or out and back over
 *   level 3, one per path, each end's strands round its cycle.  At
 *   k + 1 (xdc_dj_n2_up()), the same on the halves of digit 3: 001 and
 *   101 cross over level 3, 011 out and back over level 4, each end's
 *   strands from a table (xdc_n2_up); at k + 2 on the halves of digit 4
 *   with 0011, 1011 and 0111 (xdc_n2_up4); at k + 1 an end 0111 takes
 *   path 2 out over level 5 and back over level 4 into the other half
 *   (xdc_dj_n2_e5()).  An end 011 (spare level 4) at or
 *   below k (xdc_dj_n2_e4()): path 2 from the other end over the other
 *   cycle's 101 into the cell with the other digit 3 and out and back
 *   from its 011 into the end.  An end 0111 (spare level 5) at or below
 *   k (xdc_dj_n2_lo5()): path 2 out over level 5, across digit 4 there,
 *   back over level 5 and into the end's cell over level 4 at 0011, to
 *   the other end from a table (xdc_n2_lo5, as paths 0 and 1 at k).
 * - n = 2, k = 3, at k and k + 1 (xdc_dj_n2k3()): each path from a table
 *   of the digits it flips (xdc_n2k3, xdc_n2k3_up: least total length by
 *   max-flow), indexed by the ends' digits 2..0 or 3..0, neither ending
 *   in 11; an end ending in 011 (spare level 5) there from xdc_n2k3_e5,
 *   and at k + 2 (the halves of digit 5 joined by the level-5 switches
 *   of their four servers ending in 011 only) path m crossing at the one
 *   with digits 4, 3 = m, each end's strand to it from a fan of four in
 *   its half (xdc_n2k3_fan; xdc_dj_n2k3_5(); tools/dpsim/
 *   xdcent-n2k3-tables.py prints the two tables).
 * - k = 2, n >= 3, an end E that is the I* of its sub-cell of digits
 *   2..0 (spare level 5), the other F in its sub-cell of digits 0..4,
 *   at or below k, or above with F's digit 3 n-1 (at 2k its digit 2 too;
 *   xdc_dj_i5()): path 2 out over level 5, across in the copy of digit 5
 *   there and back into E's twin with digit 3 (or 4) changed, the I* of
 *   a cell no other path enters, from there into F's cell and over F's
 *   spare port or its copy of digit 2 that no other path enters; paths
 *   0 and 1 over E's two BCube ports, across levels 2, 3 (and 4) into
 *   F's copy of digit 2 and into F from two sides of it.
 * State: word b n^k + M (outside the words), the source as waypoint, no
 * flags.  A relay not on the path drops it (bad_state); one that cannot
 * take the next move goes on with XDCRouting (path M's earlier word), paid
 * as a word switch; the path has at most F hops, so the bound below holds.
 * Not built (k >= 2; for k = 2 but those of xdc_dj_i5(), whose end's
 * run of n-1 digits ends at digit 2): at k, an end whose run of n-1
 * digits passes digit k (no copy's twin has its spare level); above k,
 * an end cell with no level-L gate that neither crosses out and back nor
 * has a two-strand fan (its digits L-2k, L-3k, ... all n-1 but at L = 5
 * with k = 2, or at L = 2k the end is its sub-cell's I*), and, when
 * L-k < k, pairs of two such cells that xdc_dj_top1() does not take;
 * BCube pairs with one spare level inside the other's run of n-1 digits;
 * n = 2 but with k = 2 at or below k + 2 and with k = 3 at k .. k + 2
 * (neither end ending in 111).
 * Other pairs keep the earlier construction, mode "rot": path m of 0..k uses
 * the rotation r = b-1 - (m mod b) and, when src and dst differ at a
 * level L >= k, the path word w_j = (dst's digit L-k+j + m) mod n (w_0 mod
 * n-1): the words of two paths differ in every digit, so do their gates,
 * and path 0's gate already carries the destination's digits (the second
 * half of the recursion is short: (4,2,3) averages 4.80 hops against 6.12
 * for the paper's fixed w = 0).  For a BCube pair, path m starts with
 * BCube's detour on digit r when src and dst agree there, which makes the
 * BCube paths node-disjoint, switches included (all pairs of BCube(3,1),
 * (4,2), (3,3)).  Coverage, pairs whose k + 1 paths are internally
 * disjoint among those with k + 1 (tools/dpsim/eval-xdcent-paths.py
 * --table, Documentation/networking/dpillar-evaluation.rst): 100% for
 * XDCent (3,2,2), (4,2,2), (4,3,3), (5,2,2), (3,2,3), (4,2,3), (3,3,4)
 * against 0, 12.8, 0, 8.1, 3.6, 4.1, 0.7% for "rot"; every k = 1 size
 * tested ((3,1,2), (3,1,3), (3,1,4), (4,1,3), ...), (3,2,4), (4,2,4),
 * (3,3,5), (2,2,2), (2,2,3), (2,2,4), (2,2,5), (3,2,5), (2,3,4), (2,3,5).
 * Routing mode "hash" (the default)
 * picks one path per flow hash, so one flow stays on one path and flows
 * of a pair spread.
 *
 * Fault tolerance, hop by hop, with the header only (our design; the
 * paper's PathSelection probes from the source instead):
 * - BCube step: take the first differing digit in rotation order whose
 *   next hop is reachable; the digit a sideways hop changed comes last.
 *   Any order reaches the same segment target in at most b hops.
 * - A dead crossing (gate's spare port), or a segment whose target is a
 *   gate and is blocked, switches the path word to the next valid one
 *   (new gates), at most W times.
 * - A blocked segment toward the destination (every differing digit's
 *   next hop dead) takes a sideways hop: one digit changed to any value
 *   whose server is reachable, at most S times; that digit is corrected
 *   last.
 * - When one digit differs and no other digit can go sideways (k = 1):
 *   enter through the destination's spare switch, or leave through our
 *   own spare port (xdc_dst_entry(), xdc_spare_sideways()), each paid as
 *   a sideways hop.
 * - Bound: between two of these events the packet follows failure-free
 *   XDCRouting from wherever it is, at most F hops; a sideways hop is one
 *   hop, a switch none.  So a path has at most (S + W + 1) F + S hops
 *   whatever the failures and whatever a hostile header says (its counts
 *   only lower S and W); S = W = the largest of 3..0 that keeps this
 *   within 255, but S = 0 and W = 1 where S = W = 0 would be taken and
 *   2 F fits (84 < F <= 127: k = 1 and k = 2 at i = 6, k = 3 at i = 7,
 *   ...: the explicit disjoint paths need a word switch to fall back
 *   on), and F > 255 is refused.  That is t->max_hops.
 */
#include <linux/dpillar.h>

#include "topo_xdcent.h"

static inline u32 xdc_div(const struct dp_topo *t, u32 x, u32 j)
{
	return dp_rdiv(x, xdc(t)->rp[j]);
}

/*
 * Inline in this file: every decision and every neighbour lookup (twice
 * a hop) reads a few digits, and a call per digit was the largest single
 * function of a BCube relay's profile (make bench).
 */
static inline u32 xdc_dig(const struct dp_topo *t, u32 id, u32 j)
{
	u32 q = xdc_div(t, id, j);

	if (j == xdc(t)->top)
		return q;
	return q - xdc_div(t, id, j + 1) * xdc(t)->n;
}

u32 xdc_digit(const struct dp_topo *t, u32 id, u32 j)
{
	return xdc_dig(t, id, j);
}
EXPORT_SYMBOL_IF_KUNIT(xdc_digit);

static inline u32 xdc_set_dig(const struct dp_topo *t, u32 id, u32 j, u32 v)
{
	return id - xdc_dig(t, id, j) * xdc(t)->pw[j] + v * xdc(t)->pw[j];
}

u32 xdc_set_digit(const struct dp_topo *t, u32 id, u32 j, u32 v)
{
	return xdc_set_dig(t, id, j, v);
}
EXPORT_SYMBOL_IF_KUNIT(xdc_set_digit);

u32 xdc_spare_level(const struct dp_topo *t, u32 id)
{
	const struct xdc_priv *d = xdc(t);
	u32 lvl = d->k, q;

	/*
	 * Trailing n-1 digits, at most top + 1 of them: one division by n
	 * each, asked on every lookup of a spare port's neighbour.
	 */
	while (lvl - d->k <= d->top) {
		q = dp_rdiv(id, d->rp[1]);
		if (id - q * d->n != d->n - 1)
			break;
		id = q;
		lvl++;
	}
	return lvl;
}
EXPORT_SYMBOL_IF_KUNIT(xdc_spare_level);

bool xdc_word_valid(const struct dp_topo *t, u32 w)
{
	if (w >= xdc(t)->nwords)
		return false;
	return !xdc(t)->spare ||
	       w - dp_rdiv(w, xdc(t)->rp[1]) * xdc(t)->n != xdc(t)->n - 1;
}
EXPORT_SYMBOL_IF_KUNIT(xdc_word_valid);

/* Highest digit up to @hi where @a and @b differ (they agree above), or 0. */
static u32 xdc_top_diff(const struct dp_topo *t, u32 a, u32 b, u32 hi)
{
	u32 j;

	for (j = hi; j > 0; j--)
		if (xdc_div(t, a, j) != xdc_div(t, b, j))
			return j;
	return 0;
}

/*
 * The low @cnt digits of @x < nodes into @xa, a_0 first, one division by
 * n each (xdc_dig() takes two per digit); @cnt <= top + 1, digits < 256.
 */
static void xdc_split(const struct dp_topo *t, u32 x, u8 *xa, u32 cnt)
{
	/* Locals: a store to a u8 may alias them, they would be reloaded. */
	const struct dp_rdiv rn = xdc(t)->rp[1];
	u32 j, q, n = xdc(t)->n;

	for (j = 0; j < cnt; j++) {
		q = dp_rdiv(x, rn);
		xa[j] = (u8)(x - q * n);
		x = q;
	}
}

/*
 * An explicit disjoint path (xdc_dj_build()): one move a hop, the digit
 * the hop sets (a port: the digit below b, else the spare port) and its
 * new value.  On the stack of route_init and of a relay's decision.
 */
#define XDC_DJ_MAX	96	/* moves: a longer path is not built */
#define XDC_DJ_T	0xff	/* a fan's strand to the sub-cell's I* */
#define XDC_DJ_Q2	0xfd	/* a two-strand fan's second level m+1 */

struct xdc_dj {
	u32 len;
	u8 j[XDC_DJ_MAX];
	u8 v[XDC_DJ_MAX];
};

void xdc_parallel(const struct dp_topo *t, u32 src, u32 dst, u32 m, u32 *w,
		  u32 *r)
{
	const struct xdc_priv *d = xdc(t);
	u32 j, lvl, base;

	*r = d->b - 1 - m % d->b;
	*w = 0;
	if (!d->spare)
		return;
	lvl = src < t->nodes && dst < t->nodes ?
	      xdc_top_diff(t, src, dst, d->top) : 0;
	for (j = 0; j < d->k; j++) {
		base = lvl >= d->k ? xdc_dig(t, dst, lvl - d->k + j) : 0;
		if (j)
			*w += ((base + m) % d->n) * d->pw[j];
		else
			*w += ((base + m) % (d->n - 1));
	}
}
EXPORT_SYMBOL_IF_KUNIT(xdc_parallel);

static bool xdc_dj_usable(const struct dp_topo *t);
static bool xdc_dj_build(const struct dp_topo *t, u32 src, u32 dst, u32 m,
			 struct xdc_dj *p);

/* Detour value of digit @j of @a: another one, not n-1 for digit 0. */
static u32 xdc_detour_val(const struct xdc_priv *d, const u8 *a, u32 j)
{
	return j ? (a[j] + 1) % d->n : (a[0] + 1) % (d->n - 1);
}

bool xdc_disjoint(const struct dp_topo *t, u32 src, u32 dst, u32 m,
		  struct dp_route_state *st)
{
	const struct xdc_priv *d = xdc(t);
	u8 sa[XDC_MAX_DIGITS], da[XDC_MAX_DIGITS];
	u32 j, j0 = 0, e = 0, b = d->b, k = d->k, w, r, v, ls, lvl;
	struct xdc_dj dj;

	if (!d->spare || d->top < k || src >= t->nodes || dst >= t->nodes ||
	    src == dst)
		return false;
	ls = xdc_spare_level(t, src);
	if (ls > d->top || xdc_spare_level(t, dst) > d->top)
		return false;	/* a free spare port */
	lvl = xdc_top_diff(t, src, dst, d->top);
	m %= d->npaths;
	if (xdc_spare_level(t, dst) != ls || lvl > k ||
	    (lvl == k && (ls != k || d->n < 3)))
		goto built;	/* two levels, or above k */
	if (lvl < b) {
		/*
		 * A BCube pair: paths 0..k-1 are BCube's, in the sub-cell;
		 * path k leaves through src's spare port (level ls: src is
		 * its own gate with its digits ls-1..ls-k as the word) to
		 * the next copy, corrects the BCube digits there and enters
		 * dst through its spare port: a destination entry set at the
		 * source (the waypoint, then dst's entry word), paid as a
		 * sideways hop.
		 */
		if (m < k || !d->side_budget)
			return false;
		w = 0;
		for (j = k; j-- > 0;)
			w = w * d->n + xdc_dig(t, src, ls - k + j);
		v = xdc_dig(t, src, ls) + 1;
		st->waypoint = xdc_set_dig(t, dst, ls, v == d->n ? 0 : v);
		st->word = (u16)((b - 1) * d->nwords + w);
		st->flags = 1 << XDC_FL_SIDE_SHIFT;
		return true;
	}
	/*
	 * Digits 0..k, in the sub-cell of the digits above k: an
	 * XDCent(n, k, k) where both are their own level-k gates.
	 */
	if (lvl != k || ls != k || d->n < 3)
		return false;
	xdc_split(t, src, sa, k + 1);
	xdc_split(t, dst, da, k + 1);
	for (j = 0; j < b; j++) {
		if (sa[j] != da[j]) {
			j0 = j;
			e++;
		}
	}
	w = src - xdc_div(t, src, k) * d->pw[k];	/* src's BCube digits */
	st->waypoint = DP_NODE_NONE;
	st->flags = 0;
	r = e ? j0 : b - 1;
	if (m == 0 || (m == 1 && e)) {
		/*
		 * Path 0 crosses at src (gate src itself), then BCube path
		 * j0 in dst's copy; path 1 takes BCube path j0 in src's copy
		 * to the gate with dst's digits, and crosses to dst.
		 */
		if (m)
			w = dst - xdc_div(t, dst, k) * d->pw[k];
		st->word = (u16)(r * d->nwords + w);
		return true;
	}
	/*
	 * The others: one per digit j but j0, BCube's parallel path j with
	 * a crossing at its first server u: u's digits are the path word,
	 * so src corrects digit j (or a detour when the two agree there),
	 * crosses at u and corrects the rest in the rotation from j - 1,
	 * which puts a detoured digit j back last.  u's digit 0 is never
	 * n-1: a valid word.
	 */
	j = e ? (j0 + b - (m - 1)) % b : m - 1;
	v = sa[j] != da[j] ? da[j] : xdc_detour_val(d, sa, j);
	w = w - sa[j] * d->pw[j] + v * d->pw[j];
	r = j ? j - 1 : b - 1;
	st->word = (u16)(r * d->nwords + w);
	return true;
built:
	/*
	 * An explicit path (xdc_dj_build()): BCube's paths 0..k-1 stay
	 * the words' (the caller's detours), path k through both spare
	 * ports; above k every path.
	 */
	if ((lvl < b && m < k) || !xdc_dj_usable(t) ||
	    !xdc_dj_build(t, src, dst, m, &dj))
		return false;
	st->word = (u16)(b * d->nwords + m);
	st->waypoint = src;
	st->flags = 0;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(xdc_disjoint);

u32 xdc_gate(const struct dp_topo *t, u32 self, u32 lvl, u32 w)
{
	const struct xdc_priv *d = xdc(t);
	u32 low = self - xdc_div(t, self, lvl) * d->pw[lvl];

	return self - low + w * d->pw[lvl - d->k] + d->pw[lvl - d->k] - 1;
}
EXPORT_SYMBOL_IF_KUNIT(xdc_gate);

static int xdc_init_common(struct dp_topo *t, const struct dp_topo_params *p,
			   bool spare, const char **why)
{
	struct xdc_priv *d = (struct xdc_priv *)t->priv;
	u32 n = p->n, j, lvl, f, s;
	u64 v, sw;

	DP_BUILD_CHECK(sizeof(struct xdc_priv) <= sizeof(t->priv));
	if (p->spaces || p->nodes || p->seed || (!spare && p->level)) {
		*why = spare ? "XDCent takes only n, k and level" :
			       "BCube takes only n and k";
		return -EINVAL;
	}
	if (!n || !p->k || (spare && !p->level)) {
		*why = !n ? "Missing n" : !p->k ? "Missing k" :
		       "Missing level (XDCent's i)";
		return -EINVAL;
	}
	if (n < XDC_N_MIN || n > XDC_N_MAX) {
		*why = "n out of range (2..256)";
		return -EINVAL;
	}
	memset(d, 0, sizeof(*d));
	d->n = n;
	d->spare = spare;
	if (spare) {
		if (p->k > DP_MAX_PORTS - 1) {
			*why = "k out of range (1..15)";
			return -EINVAL;
		}
		if (p->level + 1 < p->k) {
			*why = "level (XDCent's i) must be at least k - 1";
			return -EINVAL;
		}
		d->k = p->k;
		d->b = p->k;
		d->top = p->level;
	} else {
		if (p->k > DP_MAX_PORTS - 1) {
			*why = "k out of range (1..15)";
			return -EINVAL;
		}
		d->k = p->k + 1;	/* no spare port: k + 1 BCube levels */
		d->b = p->k + 1;
		d->top = p->k;
	}
	if (d->top + 1 > XDC_MAX_DIGITS) {
		*why = "too many levels: paths would exceed 255 hops";
		return -EINVAL;
	}
	v = 1;
	for (j = 0; j <= d->top + 1; j++) {
		if (v > 0xffffffffULL) {
			*why = "too many servers: n^(i+1) exceeds 2^32 - 1";
			return -EINVAL;
		}
		d->pw[j] = (u32)v;
		if (j <= d->top)
			d->rp[j] = dp_rdiv_init((u32)v);
		v *= n;
	}
	/* Longest failure-free path: f(b-1) = b, f(L) = 2 f(L-1) + 1. */
	f = d->b;
	for (lvl = d->b; lvl <= d->top; lvl++) {
		f = 2 * f + 1;
		if (f > DP_TTL_MAX) {
			*why = "too many levels above k: paths would exceed 255 hops";
			return -EINVAL;
		}
	}
	/* The path word r * n^k + w must fit the 16-bit routing word. */
	d->nwords = spare ? d->pw[d->k] : 1;
	if ((u64)d->b * d->nwords > 0x10000ULL) {
		*why = "k * n^k above 65536: the path word does not fit 16 bits";
		return -EINVAL;
	}
	d->rw = dp_rdiv_init(d->nwords);
	d->npaths = spare ? d->k + 1 : d->b;
	/* Switches: b levels of n^top, then n^(top-t-1) (n-1) per level. */
	sw = 0;
	for (lvl = 0; lvl <= d->top + 1; lvl++) {
		if (sw > 0xffffffffULL) {
			*why = "too many switches";
			return -EINVAL;
		}
		d->off[lvl] = (u32)sw;
		if (lvl < d->b)
			sw += d->pw[d->top];
		else if (lvl <= d->top)
			sw += (u64)d->pw[d->top - (lvl - d->k) - 1] * (n - 1);
	}
	for (s = XDC_BUDGET_MAX; s > 0; s--)
		if ((2 * s + 1) * f + s <= DP_TTL_MAX)
			break;
	d->side_budget = s;
	d->switch_budget = spare ? s : 0;
	/* S = W = 0 (F > 84): one word switch still fits when 2 F does */
	if (spare && !s && 2 * f <= DP_TTL_MAX)
		d->switch_budget = 1;
	t->nodes = d->pw[d->top + 1];
	t->switches = d->off[d->top + 1];
	t->nports = spare ? d->k + 1 : d->b;
	t->ff_hops = f;
	t->max_hops = (d->side_budget + d->switch_budget + 1) * f +
		      d->side_budget;
	t->nsels = XDC_SEL_PATH0 + d->npaths;	/* "pM": M < npaths */
	return 0;
}

static int xdc_init(struct dp_topo *t, const struct dp_topo_params *p,
		    const char **why)
{
	return xdc_init_common(t, p, true, why);
}

static int bcube_init(struct dp_topo *t, const struct dp_topo_params *p,
		      const char **why)
{
	return xdc_init_common(t, p, false, why);
}

static int xdc_describe(const struct dp_topo *t, char *buf, u32 len)
{
	const struct xdc_priv *d = xdc(t);
	u32 pos = 0;

	dp_put_str(buf, len, &pos, d->spare ? "XDCent (" : "BCube (");
	dp_put_u32(buf, len, &pos, d->n);
	dp_put_char(buf, len, &pos, ',');
	dp_put_u32(buf, len, &pos, d->spare ? d->k : d->k - 1);
	if (d->spare) {
		dp_put_char(buf, len, &pos, ',');
		dp_put_u32(buf, len, &pos, d->top);
	}
	dp_put_char(buf, len, &pos, ')');
	return dp_put_end(buf, len, pos);
}

/* Text form "a_top.....a_0", e.g. "0.2.1". */
static int xdc_addr_format(const struct dp_topo *t, u32 id, char *buf,
			   u32 len)
{
	u32 pos = 0, j;

	for (j = xdc(t)->top + 1; j-- > 0;) {
		dp_put_u32(buf, len, &pos, xdc_dig(t, id, j));
		if (j)
			dp_put_char(buf, len, &pos, '.');
	}
	return dp_put_end(buf, len, pos);
}

static int xdc_addr_parse(const struct dp_topo *t, const char *text, u32 *id,
			  const char **why)
{
	const struct xdc_priv *d = xdc(t);
	const char *p = text;
	u32 nd = 0, v, acc = 0;

	if (!p || !*p) {
		*why = "empty address";
		return -EINVAL;
	}
	for (;;) {
		if (dp_parse_dec(&p, 0xffffffffU, &v)) {
			*why = "address must look like a_i.....a_0 (decimal)";
			return -EINVAL;
		}
		if (nd == d->top + 1) {
			*why = "address has too many digits";
			return -EINVAL;
		}
		if (v >= d->n) {
			*why = "address digit out of range (< n)";
			return -EINVAL;
		}
		acc = acc * d->n + v;	/* < n^(top+1): no overflow */
		nd++;
		if (!*p)
			break;
		if (*p != '.') {
			*why = "address must look like a_i.....a_0 (decimal)";
			return -EINVAL;
		}
		p++;
	}
	if (nd != d->top + 1) {
		*why = "address must have one digit per level";
		return -EINVAL;
	}
	*id = acc;
	return 0;
}

/* The level of the switch on @port of @id, or DP_NODE_NONE when free. */
static u32 xdc_port_level(const struct dp_topo *t, u32 id, u32 port)
{
	u32 lvl;

	if (port < xdc(t)->b)
		return port;
	if (!xdc(t)->spare || port != xdc(t)->k)
		return DP_NODE_NONE;
	lvl = xdc_spare_level(t, id);
	return lvl <= xdc(t)->top ? lvl : DP_NODE_NONE;
}

static void xdc_port_info(const struct dp_topo *t, u32 id, u32 port,
			  struct dp_port_info *pi)
{
	const struct xdc_priv *d = xdc(t);
	u32 lvl = xdc_port_level(t, id, port), tr, h, hh, idx;

	if (lvl == DP_NODE_NONE) {
		pi->kind = DP_PORT_UNUSED;
		pi->nneigh = 0;
		pi->sw = DP_NODE_NONE;
		pi->sw_level = port;
		pi->sw_id = DP_NODE_NONE;
		return;
	}
	if (lvl < d->b) {
		/* The digits other than L, in order. */
		idx = (lvl < d->top ? xdc_div(t, id, lvl + 1) * d->pw[lvl] : 0) +
		      (id - xdc_div(t, id, lvl) * d->pw[lvl]);
	} else {
		/* a_t (n-1 values), then the digits above t but L. */
		tr = lvl - d->k;
		h = lvl < d->top ? xdc_div(t, id, lvl + 1) : 0;
		hh = xdc_div(t, id, tr + 1) - xdc_div(t, id, lvl) * d->pw[lvl - tr - 1];
		idx = (h * d->pw[lvl - tr - 1] + hh) * (d->n - 1) +
		      xdc_dig(t, id, tr);
	}
	pi->kind = DP_PORT_SWITCH;
	pi->nneigh = d->n - 1;
	pi->sw = d->off[lvl] + idx;
	pi->sw_level = lvl;
	pi->sw_id = idx;
}

static u32 xdc_port_neigh(const struct dp_topo *t, u32 id, u32 port, u32 idx)
{
	u32 lvl = xdc_port_level(t, id, port), a;

	if (lvl == DP_NODE_NONE || idx >= xdc(t)->n - 1)
		return DP_NODE_NONE;
	a = xdc_dig(t, id, lvl);
	return xdc_set_dig(t, id, lvl, idx < a ? idx : idx + 1);
}

int dp_xdcent_port_neigh_index(const struct dp_topo *t, u32 id, u32 port,
			       u32 peer)
{
	const struct xdc_priv *d = xdc(t);
	u32 lvl, a, v, base;

	if (peer >= t->nodes || peer == id)
		return -1;
	lvl = xdc_port_level(t, id, port);
	if (lvl == DP_NODE_NONE)
		return -1;
	/*
	 * Asked of every next hop (the view) and on transmit: the members
	 * of the switch are base + v n^L, v < n, base us with digit L
	 * cleared, so one division by n^L finds v (was two digits of each).
	 */
	a = xdc_dig(t, id, lvl);
	base = id - a * d->pw[lvl];
	if (peer < base)
		return -1;
	v = dp_rdiv(peer - base, d->rp[lvl]);
	if (v >= d->n || base + v * d->pw[lvl] != peer)
		return -1;
	return (int)(v < a ? v : v - 1);
}
EXPORT_SYMBOL_IF_KUNIT(dp_xdcent_port_neigh_index);

/* Members of one switch plug into it with the same port number. */
static int xdc_peer_port(const struct dp_topo *t, u32 id, u32 port, u32 peer)
{
	return dp_xdcent_port_neigh_index(t, id, port, peer) < 0 ? -1 : (int)port;
}

/*
 * The path of a new packet.  "paper": w = 0, highest digit first.
 * "near": the earlier parallel path 0 without detour, the shortest of
 * them.  "pM": disjoint path M (xdc_disjoint()) where the pair has them,
 * else the earlier parallel path M, as "rot" takes path (hash mod k+1):
 * when src and dst differ below b only (a BCube pair) and agree in digit
 * r, the path starts with BCube's detour: digit r is changed first and
 * put back last (a sideways hop, counted as one), which is what makes
 * BCube's paths node-disjoint.  "hash": for a BCube pair, among the
 * rotations that start on a differing digit (the shortest paths) the flow
 * hash picks one; for the others, path "pM" with M = hash mod k+1.
 */
void dp_xdcent_route_init(const struct dp_topo *t, u32 src, u32 dst, u32 sel,
			  u32 hash, struct dp_route_state *st)
{
	const struct xdc_priv *d = xdc(t);
	u8 sa[XDC_MAX_DIGITS], da[XDC_MAX_DIGITS];
	u32 w, r, m, j, nd = 0;
	/* Without a level above the BCube ones every pair is a BCube pair. */
	bool bpair = src < t->nodes && dst < t->nodes && src != dst &&
		     (d->b > d->top ||
		      xdc_top_diff(t, src, dst, d->top) < d->b);

	st->dst = dst;
	st->waypoint = DP_NODE_NONE;
	st->flags = 0;
	if (sel == XDC_SEL_PAPER) {
		w = 0;
		r = d->b - 1;
	} else if (sel == XDC_SEL_NEAR) {
		xdc_parallel(t, src, dst, 0, &w, &r);
	} else if (sel >= XDC_SEL_ROT || !bpair) {
		m = (sel >= XDC_SEL_PATH0 ? sel - XDC_SEL_PATH0 : hash) %
		    d->npaths;
		if (sel != XDC_SEL_ROT && xdc_disjoint(t, src, dst, m, st))
			return;
		xdc_parallel(t, src, dst, m, &w, &r);
		if (sel >= XDC_SEL_ROT && bpair && d->side_budget &&
		    xdc_dig(t, src, r) == xdc_dig(t, dst, r))
			st->flags = (u8)(r + 1);
	} else {
		/* Every BCube digit of both, twice: split them once. */
		xdc_split(t, src, sa, d->b);
		xdc_split(t, dst, da, d->b);
		for (j = 0; j < d->b; j++)
			nd += sa[j] != da[j];
		m = hash % nd;
		for (r = d->b; r-- > 0;)
			if (sa[r] != da[r] && !m--)
				break;
		xdc_parallel(t, src, dst, d->b - 1 - r, &w, &j);
	}
	st->word = (u16)(r * d->nwords + w);
}
EXPORT_SYMBOL_IF_KUNIT(dp_xdcent_route_init);

/*
 * Path selection spreads the flows of mode "hash" over the k + 1 parallel
 * paths "p0" .. "pk" (the paper's PathSelection over BuildParallelPathSet);
 * the other modes pin one path.
 */
static u32 xdc_npaths(const struct dp_topo *t, u32 src, u32 dst, u32 sel)
{
	(void)src;
	(void)dst;
	return sel == XDC_SEL_HASH ? xdc(t)->npaths : 0;
}

static void xdc_path_init(const struct dp_topo *t, u32 src, u32 dst, u32 m,
			  struct dp_route_state *st)
{
	dp_xdcent_route_init(t, src, dst, XDC_SEL_PATH0 + m, 0, st);
}

static inline int xdc_drop(struct dp_hop *hop, u8 reason)
{
	hop->reason = reason;
	return -1;
}

static inline void xdc_hop(struct dp_hop *hop, u32 next, u32 port, u8 phase)
{
	hop->next = next;
	hop->port = port;
	hop->phase = phase;
	hop->reason = DP_DROP_ROUTE_NONE;
}

/*
 * Resolve the recursion from @self toward @dst with path word @w: true
 * when @self is the gate of the top level and crosses to *@next (digit
 * *@level set), else false with *@seg the target of the BCube segment we
 * are in (it differs from @self in digits below b only).
 */
static bool xdc_resolve(const struct dp_topo *t, u32 self, u32 dst, u32 w,
			u32 *seg, u32 *next, u32 *level)
{
	const struct xdc_priv *d = xdc(t);
	u32 target = dst, lvl = d->top, g;

	/*
	 * Without a level above the BCube ones (BCube, XDCent(n, k, k-1))
	 * there is no gate: looking for one was a sixth of a BCube decision.
	 */
	if (d->b > d->top) {
		*seg = dst;
		return false;
	}
	for (;;) {
		lvl = xdc_top_diff(t, self, target, lvl);
		if (lvl < d->b) {
			*seg = target;
			return false;
		}
		g = xdc_gate(t, self, lvl, w);
		if (g == self) {
			*next = xdc_set_dig(t, self, lvl,
					    xdc_dig(t, target, lvl));
			*level = lvl;
			return true;
		}
		/* The gate is us from digit lvl up: look below. */
		target = g;
		lvl--;
	}
}

/* @x with digits 0..@c-1 set to n-1 (@c <= top). */
static u32 xdc_low_max(const struct dp_topo *t, u32 x, u32 c)
{
	return xdc_div(t, x, c) * xdc(t)->pw[c] + xdc(t)->pw[c] - 1;
}

/* Digits 0..@c-1 of @x, as a number (@c <= top). */
static u32 xdc_low(const struct dp_topo *t, u32 x, u32 c)
{
	return x - xdc_div(t, x, c) * xdc(t)->pw[c];
}

static bool xdc_dj_put(struct xdc_dj *p, u32 j, u32 v)
{
	if (p->len >= XDC_DJ_MAX)
		return false;
	p->j[p->len] = (u8)j;
	p->v[p->len] = (u8)v;
	p->len++;
	return true;
}

/*
 * Failure-free XDCRouting from @a to @b with word 0 and rotation b-1,
 * appended to @p: inside the smallest sub-cell holding both, so a route
 * between two servers of a cell no other path enters meets no other path.
 */
static bool xdc_dj_route(const struct dp_topo *t, u32 a, u32 b,
			 struct xdc_dj *p)
{
	const struct xdc_priv *d = xdc(t);
	u32 seg, next, lvl, h, i, j = 0;

	for (h = 0; a != b; h++) {
		if (h >= t->ff_hops)
			return false;
		if (xdc_resolve(t, a, b, 0, &seg, &next, &lvl)) {
			j = lvl;
		} else {
			for (i = 0; i < d->b; i++) {
				j = d->b - 1 - i;
				if (xdc_dig(t, a, j) != xdc_dig(t, seg, j))
					break;
			}
			if (i == d->b)
				return false;
			next = xdc_set_dig(t, a, j, xdc_dig(t, seg, j));
		}
		if (!xdc_dj_put(p, j, xdc_dig(t, next, j)))
			return false;
		a = next;
	}
	return true;
}

/* BCube moves from @x to @y's digits below b, highest first. */
static bool xdc_dj_bcube(const struct dp_topo *t, u32 *x, u32 y,
			 struct xdc_dj *p)
{
	u32 j, a;

	for (j = xdc(t)->b; j-- > 0;) {
		a = xdc_dig(t, y, j);
		if (xdc_dig(t, *x, j) == a)
			continue;
		if (!xdc_dj_put(p, j, a))
			return false;
		*x = xdc_set_dig(t, *x, j, a);
	}
	return true;
}

/*
 * Moves @from.. of @p lead from @x somewhere: make them lead back from
 * there to @x (the old value of each digit, in reverse order).
 */
static void xdc_dj_reverse(const struct dp_topo *t, u32 x, struct xdc_dj *p,
			   u32 from)
{
	u32 i, old;
	u8 c;

	for (i = from; i < p->len; i++) {
		old = xdc_dig(t, x, p->j[i]);
		x = xdc_set_dig(t, x, p->j[i], p->v[i]);
		p->v[i] = (u8)old;
	}
	for (i = 0; from + i < p->len - 1 - i; i++) {
		c = p->j[from + i];
		p->j[from + i] = p->j[p->len - 1 - i];
		p->j[p->len - 1 - i] = c;
		c = p->v[from + i];
		p->v[from + i] = p->v[p->len - 1 - i];
		p->v[p->len - 1 - i] = c;
	}
}

/*
 * xdc_fan()'s two-strand fan of @x in its sub-cell of digits 0..k-1 (all
 * BCube levels) when x's digit 0 is n-1: x's run of n-1 digits has length
 * r, 1 <= r < k, and x is the strand of level k+r itself.  The others
 * leave over its k BCube ports: port j < r sets digit j to 0 (level k+j),
 * port j > r sets digit j to a value not x's nor n-1, then digits r..j-1
 * to n-1 (level k+j), port r sets digit r to another value, then digit 0
 * to 0 (the second level k).  Strand j's servers have digit j changed and
 * the digits above j x's, so no two strands meet.
 */
static bool xdc_fan0(const struct dp_topo *t, u32 x, u32 want,
		     struct xdc_dj *p, u32 *end)
{
	const struct xdc_priv *d = xdc(t);
	u32 r, j, h, v;

	for (r = 0; r < d->k && xdc_dig(t, x, r) == d->n - 1; r++)
		;
	if (!r || r >= d->k)
		return false;
	if (want == d->k + r) {
		*end = x;
		return true;
	}
	if (want == XDC_DJ_Q2) {
		j = r;
		v = (xdc_dig(t, x, r) + 1) % d->n;
	} else if (want >= d->k && want < 2 * d->k) {
		j = want - d->k;
		v = (xdc_dig(t, x, j) + 1) % d->n;
		if (v == d->n - 1)
			v = 0;
	} else {
		return false;
	}
	x = xdc_set_dig(t, x, j, v);
	if (p && !xdc_dj_put(p, j, v))
		return false;
	if (want == XDC_DJ_Q2) {
		x = xdc_set_dig(t, x, 0, 0);	/* x's digit 0 is n-1 */
		if (p && !xdc_dj_put(p, 0, 0))
			return false;
	}
	for (h = r; h < j; h++) {
		if (xdc_dig(t, x, h) == d->n - 1)
			continue;
		x = xdc_set_dig(t, x, h, d->n - 1);
		if (p && !xdc_dj_put(p, h, d->n - 1))
			return false;
	}
	*end = x;
	return true;
}

/*
 * xdc_fan()'s two-strand fan of @x in its sub-cell of digits 0..2 for
 * k = 2, q = 3, x's digit 1 n-1 (so no qq): strands to two servers of
 * level 3 (digit 0 n-1, digit 1 not) and one of level 4 (digits 1, 0
 * n-1, digit 2 not).  x's digit 0 n-1 (x is the level-4 one; its digit 2
 * is not n-1, else x is I*): digit 1 := 0 (level 3, the strand of level
 * 3), and digit 0 := 0, 1 := 1, 0 := n-1 (XDC_DJ_Q2).  Else the strand of
 * level 3 sets digit 1 := 0 and digit 0 := n-1; with x's digit 2 not n-1
 * digit 0 := n-1 is the level-4 server and XDC_DJ_Q2 crosses level 2 to
 * digit 2 = w first (digit 1 := 1, 0 := n-1); with it n-1 the two swap
 * (level 4 over digit 2 = w, XDC_DJ_Q2 through I*).  The strands differ
 * in digit 2 or digit 1 but at x.
 */
static bool xdc_fan1(const struct dp_topo *t, u32 x, u32 want,
		     struct xdc_dj *p, u32 *end)
{
	u32 n = xdc(t)->n, a2 = xdc_dig(t, x, 2), a0 = xdc_dig(t, x, 0);
	u32 w = a2 ? 0 : 1, c = 0, h;
	u8 j[3], v[3];

	if (xdc_dig(t, x, 1) != n - 1 || (a0 == n - 1 && a2 == n - 1))
		return false;
#define XDC_FAN1(jj, vv) do { j[c] = (jj); v[c++] = (u8)(vv); } while (0)
	if (want == 3) {
		XDC_FAN1(1, 0);
		if (a0 != n - 1)
			XDC_FAN1(0, n - 1);
	} else if (want == 4 && a0 != n - 1) {
		if (a2 == n - 1)
			XDC_FAN1(2, w);
		XDC_FAN1(0, n - 1);
	} else if (want == XDC_DJ_Q2) {
		if (a0 == n - 1)
			XDC_FAN1(0, 0);
		else if (a2 != n - 1)
			XDC_FAN1(2, w);
		else
			XDC_FAN1(0, n - 1);
		XDC_FAN1(1, 1);
		if (a0 == n - 1 || a2 != n - 1)
			XDC_FAN1(0, n - 1);
	} else if (want != 4) {
		return false;
	}
#undef XDC_FAN1
	for (h = 0; h < c; h++) {
		x = xdc_set_dig(t, x, j[h], v[h]);
		if (p && !xdc_dj_put(p, j[h], v[h]))
			return false;
	}
	*end = x;
	return true;
}

/*
 * A fan's step: strand end *@e crosses digit @mm to @v and routes to its
 * copy's I*; the moves into @p (when not NULL, the strand wanted).
 */
static bool xdc_fan_move(const struct dp_topo *t, u32 *e, u32 mm, u32 v,
			 struct xdc_dj *p)
{
	u32 y = xdc_set_dig(t, *e, mm, v), tgt = xdc_low_max(t, y, mm);

	if (p && (!xdc_dj_put(p, mm, v) || !xdc_dj_route(t, y, tgt, p)))
		return false;
	*e = tgt;
	return true;
}

/* The fan's strand labelled @want, or k + 1 when none. */
static u32 xdc_fan_find(const u8 *lab, u32 k, u32 want)
{
	u32 q;

	for (q = 0; q <= k && lab[q] != want; q++)
		;
	return q;
}

/*
 * The fan of @x in its sub-cell of digits 0..@m (m >= -1): k + 1 strands,
 * disjoint but at x, in the sub-cell, one ending at a server with a port
 * on each level m+1 .. m+k (label: the level) and one at I*, the server
 * with digits 0..m all n-1 (label XDC_DJ_T).  By induction on m: the fan
 * of m-1 in x's copy (digit m) has levels m .. m+k-1 and I* of the copy;
 * its strand of level m crosses to the copy with digit m = n-1 (0 when
 * x's digit m is n-1) and routes there to that copy's I*.  The copy with
 * digit m = n-1 holds the sub-cell's I*, the other one's I* has spare
 * level m+k.  No other strand enters that copy.  Sets *@end to the end of
 * the strand labelled @want and appends its moves to @p (when not NULL).
 * @two (n >= 3, m + 1 = q >= k): two strands of level q (labels q and
 * XDC_DJ_Q2) and none to I*, for a cell whose I* is no level-(q + k)
 * gate.  From step qq = q - k on, a strand crosses to a copy whose digit
 * is neither x's nor n-1, so its I* has a spare port; at qq the I* of
 * x's own copy (x's digit qq is not n-1) becomes the second strand of
 * level q.  When x's digit q - k is n-1, qq is k lower (while that digit
 * is n-1 too), and at each step qq + k, qq + 2k, ... both strands of
 * that level cross digit qq + s k (n-1 in x) into two copies; with no
 * such qq, xdc_fan0() for q = k.
 */
static bool xdc_fan(const struct dp_topo *t, u32 x, int m, bool two,
		    u32 want, struct xdc_dj *p, u32 *end)
{
	const struct xdc_priv *d = xdc(t);
	u32 e[DP_MAX_PORTS], q, o, star = 0, pass, v, r, dbl, nl;
	int mm, qq = m + 1 - (int)d->k, nc;
	u8 lab[DP_MAX_PORTS];

	if (two && d->n < 3)
		return false;
	/* two: the chain's start, the highest qq = m+1 - s k, digit not n-1 */
	while (two && qq >= 0 && xdc_dig(t, x, (u32)qq) == d->n - 1)
		qq -= (int)d->k;
	if (two && qq < 0 && m == 2 && d->k == 2)
		return xdc_fan1(t, x, want, p, end);
	if (two && qq < 0)
		return m + 1 == (int)d->k && xdc_fan0(t, x, want, p, end);
	for (pass = 0; pass < 2; pass++) {
		for (q = 0; q <= d->k; q++) {
			e[q] = x;
			lab[q] = q < d->k ? (u8)q : XDC_DJ_T;
		}
		nc = qq + (int)d->k;
		for (mm = 0; mm <= m; mm++) {
			dbl = two && mm == nc;
			if (dbl)
				nc += (int)d->k;
			for (r = 0; r <= dbl; r++) {
				q = xdc_fan_find(lab, d->k, r ? XDC_DJ_Q2 : (u32)mm);
				if (q > d->k)
					return false;
				v = xdc_dig(t, x, mm) != d->n - 1 ? d->n - 1 : 0;
				if (two && mm >= qq) {
					/* another copy, whose I* has a spare port */
					v = (xdc_dig(t, x, mm) + 1 + r) % d->n;
					v = v == d->n - 1 ? r : v;
				}
				if (!xdc_fan_move(t, &e[q], mm, v,
						  pass && q == star ? p : NULL))
					return false;
				if (r)
					continue;	/* Q2 stays Q2, level mm + k */
				/*
				 * At qq (two) the I* of x's copy, x's digit
				 * qq not n-1, becomes level mm + k and the
				 * strand the second one; else a strand into
				 * the copy with digit n-1 is the new I*'s.
				 */
				nl = two && mm == qq ? XDC_DJ_Q2 :
				     v == d->n - 1 ? XDC_DJ_T : (u32)mm + d->k;
				for (o = 0; o <= d->k && nl != (u32)mm + d->k; o++)
					if (lab[o] == XDC_DJ_T)
						lab[o] = (u8)(mm + d->k);
				lab[q] = (u8)nl;
			}
		}
		star = xdc_fan_find(lab, d->k, want);
		if (star > d->k)
			return false;
		*end = e[star];
		if (!p)
			break;
	}
	return true;
}

/*
 * The moves of XDCent(n, k, k)'s disjoint path @m (xdc_disjoint()) on the
 * digits L..L-k of @src and @dst: digit L crossed, digits L-1..L-k as
 * BCube's.  Into @mj, @mv; returns their number (at most k + 2).
 */
static u32 xdc_dj_macro(const struct dp_topo *t, u32 src, u32 dst, u32 L,
			u32 m, u8 *mj, u8 *mv)
{
	const struct xdc_priv *d = xdc(t);
	u8 sa[DP_MAX_PORTS], da[DP_MAX_PORTS], cur[DP_MAX_PORTS];
	u32 j, i, k = d->k, base = L - k, j0 = 0, e = 0, r, c = 0, dl;

	for (j = 0; j < k; j++) {
		sa[j] = (u8)xdc_dig(t, src, base + j);
		da[j] = (u8)xdc_dig(t, dst, base + j);
		cur[j] = sa[j];
		if (sa[j] != da[j]) {
			j0 = j;
			e++;
		}
	}
	dl = xdc_dig(t, dst, L);
	r = e ? j0 : k - 1;
	if (m == 0) {
		mj[c] = (u8)L;
		mv[c++] = (u8)dl;
	} else if (m != 1 || !e) {
		/* BCube's path j: digit j first (a detour when equal). */
		j = e ? (j0 + k - (m - 1)) % k : m - 1;
		cur[j] = sa[j] != da[j] ? da[j] : (u8)xdc_detour_val(d, sa, j);
		mj[c] = (u8)(base + j);
		mv[c++] = cur[j];
		mj[c] = (u8)L;
		mv[c++] = (u8)dl;
		r = j ? j - 1 : k - 1;
	}
	for (i = 0, j = r; i < k; i++) {
		if (cur[j] != da[j]) {
			mj[c] = (u8)(base + j);
			mv[c++] = da[j];
			cur[j] = da[j];
		}
		j = j ? j - 1 : k - 1;
	}
	if (m == 1 && e) {
		mj[c] = (u8)L;
		mv[c++] = (u8)dl;
	}
	return c;
}

/* A server of @x's sub-cell (digits 0..L-k-1) with a port on level @lvl. */
static u32 xdc_dj_exit(const struct dp_topo *t, u32 x, u32 lvl, u32 L)
{
	const struct xdc_priv *d = xdc(t);

	if (lvl < d->k || xdc_spare_level(t, x) == lvl)
		return x;
	if (lvl == L)
		return xdc_low_max(t, x, L - d->k);
	x = xdc_low_max(t, x, lvl - d->k);
	if (xdc_dig(t, x, lvl - d->k) == d->n - 1)
		x = xdc_set_dig(t, x, lvl - d->k, 0);
	return x;
}

/*
 * From @x to @x with digit @L := @dl, @x's sub-cell of digits below
 * L - k has I* @x: over the level-L switch when @x is a level-L gate,
 * else out through its spare port (level l > L, digit l := digit l +
 * @alt) into the next cell, XDCRouting there to the server with digit
 * L = @dl, and back over level l: that server's twin has the same spare
 * level (checked by xdc_dj_xk_ok(); not when the run of n-1 digits
 * reaches digit L).
 */
static bool xdc_dj_xk_ok(const struct dp_topo *t, u32 x, u32 L, u32 dl)
{
	u32 l = xdc_spare_level(t, x);

	return l == L || (l > L && l <= xdc(t)->top &&
			  xdc_spare_level(t, xdc_set_dig(t, x, L, dl)) == l);
}

static bool xdc_dj_xk(const struct dp_topo *t, u32 x, u32 L, u32 dl,
		      u32 alt, struct xdc_dj *p)
{
	u32 l = xdc_spare_level(t, x), v, y;

	if (l == L)
		return xdc_dj_put(p, L, dl);
	if (!xdc_dj_xk_ok(t, x, L, dl))
		return false;
	v = (xdc_dig(t, x, l) + alt) % xdc(t)->n;
	y = xdc_set_dig(t, x, l, v);
	return xdc_dj_put(p, l, v) &&
	       xdc_dj_route(t, y, xdc_set_dig(t, y, L, dl), p) &&
	       xdc_dj_put(p, l, xdc_dig(t, x, l));
}

#define XDC_DJ_OUT	0xfe	/* a crossing out and back (xdc_dj_xk()) */
#define XDC_DJ_TWO_SRC	1	/* xdc_dj_walk(): src's fan has two level q */
#define XDC_DJ_TWO_DST	2	/* and dst's */

/*
 * XDCent(n, k, k)'s disjoint path @m when an end is no level-k gate (its
 * digit 0 is n-1: its spare port leaves the cell), n >= 3, on the digits
 * @sa, @da (0..k-1) of the two ends: moves into @mj, @mv (j < k: digit
 * j := v; k: the crossing at a gate; XDC_DJ_OUT: at a non-gate, out and
 * back through the cell next to it, v the digit's offset there), at most
 * k + 3; 0 when not built.  xdc_disjoint()'s construction for two gates
 * with each crossing that needs a gate moved to one: path 0 crosses at
 * src and takes BCube path j0 in dst's copy; path 1 takes BCube path j0
 * in src's copy and crosses into dst (out through the cell next to dst's
 * spare port, another one: offset 2); path j != j0 takes BCube path j
 * and crosses at its first server after src that is a gate and not
 * dst's twin.  A BCube path with none (digit 0 n-1 all along) first sets
 * digit 0 to w, a value no other path's servers have in digit 0 (n-1,
 * src's, dst's, path 0's detour), crosses there, and puts digit 0 right
 * in dst's copy (path 0: at once, where BCube's path 0 is; the others in
 * their turn).  The two cells outside are the two paths'; in the cell,
 * the paths' servers are BCube's disjoint paths split between the two
 * copies, or have digit 0 = w.
 */
static u32 xdc_dj_cmoves(const struct xdc_priv *d, const u8 *sa,
			 const u8 *da, u32 m, u8 *mj, u8 *mv)
{
	u8 cu[XDC_MAX_DIGITS];
	u32 k = d->k, n = d->n, j, j0 = 0, e = 0, i, h, c, v, w, g = 0, cnt = 0;

	for (j = 0; j < k; j++) {
		cu[j] = sa[j];
		if (sa[j] != da[j]) {
			j0 = j;
			e++;
		}
	}
	if (m <= 1 && (m == 0 || e)) {
		if (m == 0) {
			mj[cnt] = sa[0] != n - 1 ? (u8)k : XDC_DJ_OUT;
			mv[cnt++] = 1;
		}
		/* BCube path j0: digits j0, j0 - 1, ..., 0, k - 1, ... */
		for (i = 0, j = j0; i < k; i++, j = j ? j - 1 : k - 1) {
			if (cu[j] == da[j])
				continue;
			mj[cnt] = (u8)j;
			mv[cnt++] = da[j];
			cu[j] = da[j];
		}
		if (m == 1) {
			mj[cnt] = da[0] != n - 1 ? (u8)k : XDC_DJ_OUT;
			mv[cnt++] = 2;
		}
		return cnt;
	}
	j = e ? (j0 + k - (m - 1)) % k : m - 1;
	v = sa[j] != da[j] ? da[j] : xdc_detour_val(d, sa, j);
	/*
	 * BCube path j's servers after src (move c: the c-th, 1 the
	 * first): cross after the first that is a gate and not dst's twin.
	 */
	cu[j] = (u8)v;
	c = 1;
	if (cu[0] != n - 1 && memcmp(cu, da, k))
		g = 1;
	for (i = 0, h = j ? j - 1 : k - 1; i < k && !g;
	     i++, h = h ? h - 1 : k - 1) {
		if (cu[h] == da[h])
			continue;
		cu[h] = da[h];
		c++;
		if (cu[0] != n - 1 && memcmp(cu, da, k))
			g = c;
	}
	memcpy(cu, sa, k);
	w = n;
	if (!g) {
		/* w: not n-1, src's, dst's, nor path 0's detour digit 0 */
		for (w = 0; w < n - 1; w++)
			if (w != sa[0] && w != da[0] &&
			    (sa[0] != da[0] || w != xdc_detour_val(d, sa, 0)))
				break;
		if (w >= n - 1)
			return 0;
		g = 1;
	}
	mj[cnt] = (u8)j;
	mv[cnt++] = (u8)(w < n && !j ? w : v);
	cu[j] = (u8)v;
	if (w < n && j) {
		mj[cnt] = 0;
		mv[cnt++] = (u8)w;
		cu[0] = (u8)w;
	} else if (w < n) {
		/* path 0: cross at digit 0 = w, then digit 0 := v */
		mj[cnt] = (u8)k;
		mv[cnt++] = 0;
		mj[cnt] = 0;
		mv[cnt++] = (u8)v;
		g = 0;
	}
	for (i = 0, c = 1, h = j ? j - 1 : k - 1; ; i++) {
		if (c == g) {
			mj[cnt] = (u8)k;
			mv[cnt++] = 0;
			g = 0;
		}
		if (i == k)
			break;
		if (cu[h] != da[h]) {
			mj[cnt] = (u8)h;
			mv[cnt++] = da[h];
			cu[h] = da[h];
			c++;
		}
		h = h ? h - 1 : k - 1;
	}
	return cnt;
}

/*
 * xdc_dj_cellk()'s path 1 into the third copy (digit k = @a) where BCube
 * path j0 has no gate before dst's twin but src: only digit 0 differs
 * (j0 = 0, src's digit 0 not n-1), or src's digit 0 is n-1 (digit 0 is
 * not in D).  From *@x (src), digit j0 first (to w, neither src's digit
 * 0 nor n-1, when j0 is 0), then digit 0 to w when it is n-1, a gate
 * whose servers have digit j0 another than every other path's (they set
 * digit j0 later, if at all, and cross first); across into the third
 * copy, BCube moves to dst's twin there and out and back into @dst.  No
 * other path enters that copy nor the cell next to the twin's spare port
 * (level 2k; src's, when it crosses out and back, is below 2k).
 */
static noinline bool xdc_dj_cthird(const struct dp_topo *t, u32 *x, u32 dst,
				   u32 a, const u8 *sa, const u8 *da,
				   struct xdc_dj *p)
{
	const struct xdc_priv *d = xdc(t);
	u32 k = d->k, j0 = 0, j, w = sa[0] ? 0 : 1;

	for (j = 0; j < k; j++)
		if (sa[j] != da[j])
			j0 = j;
	if (!xdc_dj_put(p, j0, j0 ? da[j0] : w))
		return false;
	*x = xdc_set_dig(t, *x, j0, j0 ? da[j0] : w);
	if (xdc_dig(t, *x, 0) == d->n - 1) {
		if (!xdc_dj_put(p, 0, w))
			return false;
		*x = xdc_set_dig(t, *x, 0, w);
	}
	if (!xdc_dj_put(p, k, a))
		return false;
	*x = xdc_set_dig(t, *x, k, a);
	if (!xdc_dj_bcube(t, x, dst, p) ||
	    !xdc_dj_xk(t, *x, k, xdc_dig(t, dst, k), 2, p))
		return false;
	*x = dst;
	return true;
}

/*
 * Highest differing digit k, one end or both not a level-k gate:
 * xdc_dj_cmoves() on the servers (sub-cells of no digit).  Both ends'
 * crossings must be possible, or no path of the pair is built.
 */
static bool xdc_dj_cellk(const struct dp_topo *t, u32 src, u32 dst, u32 m,
			 struct xdc_dj *p)
{
	const struct xdc_priv *d = xdc(t);
	u8 sa[XDC_MAX_DIGITS], da[XDC_MAX_DIGITS], mj[DP_MAX_PORTS + 4];
	u8 mv[DP_MAX_PORTS + 4];
	u32 k = d->k, dk, x, c, cnt, a = d->n, e = 0, z = src;

	if (!xdc_dj_xk_ok(t, src, k, xdc_dig(t, dst, k))) {
		src = dst;	/* the paths of (dst, src), reversed */
		dst = z;
	}
	dk = xdc_dig(t, dst, k);
	x = src;
	if (!xdc_dj_xk_ok(t, src, k, dk))
		return false;
	xdc_split(t, src, sa, k);
	xdc_split(t, dst, da, k);
	for (c = 0; c < k; c++)
		e += sa[c] != da[c];
	if (!xdc_dj_xk_ok(t, xdc_set_dig(t, dst, k, xdc_dig(t, src, k)), k,
			  dk)) {
		/*
		 * dst's twin in src's copy has another spare level (dst is
		 * its copy's I*, src's copy digit k n-1): path 1 crosses
		 * from the last server of BCube path j0 before that twin, a
		 * gate when the last digit it sets is digit 0 (src's is not
		 * n-1) and not src (two digits differ), into a third copy,
		 * sets digit 0 there and crosses out and back from the twin
		 * in it.  No other path enters that copy.  When that server
		 * is src or no gate, xdc_dj_cthird() side-steps digit 0.
		 */
		for (a = 0; a < d->n - 1; a++)
			if (a != dk && a != xdc_dig(t, src, k))
				break;
		if (k < 2 || a >= d->n - 1 ||
		    !xdc_dj_xk_ok(t, xdc_set_dig(t, dst, k, a), k, dk))
			return false;
	} else if (src != z) {
		return false;
	}
	if (a < d->n && m == 1 && (e < 2 || sa[0] == d->n - 1)) {
		if (!xdc_dj_cthird(t, &x, dst, a, sa, da, p))
			return false;
		goto out;
	}
	cnt = xdc_dj_cmoves(d, sa, da, m, mj, mv);
	for (c = 0; c < cnt; c++) {
		if (a < d->n && m == 1 && c + 2 == cnt) {
			if (mj[c] || !c || !xdc_dj_put(p, k, a))
				return false;
			x = xdc_set_dig(t, x, k, a);
		}
		if (mj[c] == XDC_DJ_OUT) {
			if (!xdc_dj_xk(t, x, k, dk, mv[c], p))
				return false;
			x = xdc_set_dig(t, x, k, dk);
			continue;
		}
		if (mj[c] == k)
			mv[c] = (u8)dk;
		if (!xdc_dj_put(p, mj[c], mv[c]))
			return false;
		x = xdc_set_dig(t, x, mj[c], mv[c]);
	}
out:
	if (x != dst)
		return false;
	if (src != z)
		xdc_dj_reverse(t, src, p, 0);
	return true;
}

/*
 * The paths of a crossing above k from its cells' moves (cnt of them,
 * mj/mv as xdc_dj_macro() or xdc_dj_cmoves() give them, mj in real
 * levels): src's fan to the first move's port (labelled lab0), each
 * move from the server where the last one landed (XDC_DJ_OUT: out and
 * back through the next cell, xdc_dj_xk()), the last one landing where
 * dst's fan of lab1 ends, then that fan reversed into dst.  The walk of
 * xdc_dj_cross() and xdc_dj_cross_out().
 */
static bool xdc_dj_walk(const struct dp_topo *t, u32 src, u32 dst, u32 L,
			const u8 *mj, const u8 *mv, u32 cnt, u32 lab0,
			u32 lab1, u32 two, struct xdc_dj *p)
{
	u32 q = L - xdc(t)->k, dl = xdc_dig(t, dst, L), c, cur, y, tgt, from;
	int im = (int)q - 1;

	if (!xdc_fan(t, src, im, two & XDC_DJ_TWO_SRC, lab0, p, &cur))
		return false;
	for (c = 0; c < cnt; c++) {
		if (c + 1 == cnt && c) {
			if (!xdc_fan(t, dst, im, two & XDC_DJ_TWO_DST, lab1, NULL, &y))
				return false;
			tgt = cur - xdc_low(t, cur, q) + xdc_low(t, y, q);
		} else if (!c) {
			tgt = cur;
		} else {
			tgt = xdc_dj_exit(t, cur, mj[c] == XDC_DJ_OUT ? L :
					  mj[c], L);
		}
		if (!xdc_dj_route(t, cur, tgt, p))
			return false;
		if (mj[c] == XDC_DJ_OUT) {
			if (!xdc_dj_xk(t, tgt, L, dl, mv[c], p))
				return false;
			cur = xdc_set_dig(t, tgt, L, dl);
			continue;
		}
		if (!xdc_dj_put(p, mj[c], mv[c]))
			return false;
		cur = xdc_set_dig(t, tgt, mj[c], mv[c]);
	}
	from = p->len;
	if (!xdc_fan(t, dst, im, two & XDC_DJ_TWO_DST, lab1, p, &y) || y != cur)
		return false;
	xdc_dj_reverse(t, dst, p, from);
	return true;
}

/*
 * Can both ends of a crossing above k cross from their cell's I*, a
 * level-L gate or out and back (xdc_dj_xk_ok())?
 */
static bool xdc_dj_out_ok(const struct dp_topo *t, u32 src, u32 dst, u32 L)
{
	u32 q = L - xdc(t)->k, dl = xdc_dig(t, dst, L);
	u32 twin = xdc_set_dig(t, dst, L, xdc_dig(t, src, L));

	return xdc_dj_xk_ok(t, xdc_low_max(t, src, q), L, dl) &&
	       xdc_dj_xk_ok(t, xdc_low_max(t, twin, q), L, dl);
}

/*
 * Above k with an end whose cell's I* is no level-L gate (its digit
 * L - k is n-1), where xdc_dj_cross() cannot take the cell next to it:
 * xdc_dj_cmoves() on the cells (the crossing out and back from the I*
 * of the end's cell, through the level-L cell next to its spare port),
 * the fans in the two ends as xdc_dj_cross() has them.  The caller checked
 * that both ends cross (xdc_dj_out_ok()).
 */
static bool xdc_dj_cross_out(const struct dp_topo *t, u32 src, u32 dst,
			     u32 L, u32 m, struct xdc_dj *p)
{
	const struct xdc_priv *d = xdc(t);
	u8 sa[XDC_MAX_DIGITS], da[XDC_MAX_DIGITS], mj[DP_MAX_PORTS + 4];
	u8 mv[DP_MAX_PORTS + 4];
	u32 c, cnt, lab0, lab1, q = L - d->k, j;
	u32 dl = xdc_dig(t, dst, L);

	for (j = 0; j < d->k; j++) {
		sa[j] = (u8)xdc_dig(t, src, q + j);
		da[j] = (u8)xdc_dig(t, dst, q + j);
	}
	cnt = xdc_dj_cmoves(d, sa, da, m, mj, mv);
	if (!cnt)
		return false;
	for (c = 0; c < cnt; c++) {
		if (mj[c] == d->k)
			mj[c] = (u8)L;
		else if (mj[c] != XDC_DJ_OUT)
			mj[c] = (u8)(mj[c] + q);
		if (mj[c] == L)
			mv[c] = (u8)dl;
	}
	lab0 = mj[0] == L || mj[0] == XDC_DJ_OUT ? XDC_DJ_T : mj[0];
	lab1 = mj[cnt - 1] == L || mj[cnt - 1] == XDC_DJ_OUT ? XDC_DJ_T :
	       mj[cnt - 1];
	return xdc_dj_walk(t, src, dst, L, mj, mv, cnt, lab0, lab1, 0, p);
}

/* Digit @j of *@x := @v, the move appended to @p. */
static bool xdc_dj_mv(const struct dp_topo *t, u32 *x, u32 j, u32 v,
		      struct xdc_dj *p)
{
	*x = xdc_set_dig(t, *x, j, v);
	return xdc_dj_put(p, j, v);
}

/*
 * xdc_dj_top1()'s pairs: L = k + 1 (k >= 2, n >= 3), @s a level-k gate
 * whose digits 1..k-1 are n-1, @e's digits 0 and 1 n-1 (spare level
 * above L, cabled: xdc_dj_build() checked it), its twin in s's copy of
 * the same spare level (e's run of n-1 digits does not reach digit L).
 */
static bool xdc_dj_top1_ok(const struct dp_topo *t, u32 s, u32 e, u32 L)
{
	const struct xdc_priv *d = xdc(t);
	u32 j;

	if (d->k < 2 || d->n < 3 || L != d->k + 1 ||
	    xdc_dig(t, s, 0) == d->n - 1 || xdc_dig(t, e, 0) != d->n - 1 ||
	    xdc_dig(t, e, 1) != d->n - 1)
		return false;
	for (j = 1; j < d->k; j++)
		if (xdc_dig(t, s, j) != d->n - 1)
			return false;
	return xdc_dj_xk_ok(t, xdc_set_dig(t, e, L, xdc_dig(t, s, L)), L,
			    xdc_dig(t, e, L));
}

/*
 * Above k at L = k + 1 where neither the cell next to an end nor a
 * crossing out and back from src's cell's I* serves (xdc_dj_cross():
 * src's cell of digit 0 has an I* whose run of n-1 digits reaches k, dst
 * is its cell's I*).  The copies of digit L are XDCent(n, k, k); T, dst's
 * digits below L, has spare level above L.  In dst's copy, k strands from
 * dst over its BCube ports end at level-L gates (digit 0 n-1, digit 1
 * not): E1 = T[1 := 0] (port 1), E0 = T[1 := 1] (port 0: digit 0 := 0,
 * digit 1 := 1, digit 0 := n-1), Ej = T[j := v_j, 1 := 0] (port j, v_j
 * neither T's digit j nor n-1); path k leaves through dst's spare port.
 * In src's copy, path m's strand sets a digit of its own first (path k
 * digit 0 := w, neither src's nor n-1; path 1 digit 1 := 0; path j digit
 * j := v_j; path 0 none), crosses digit k to T's there (path 0 at src,
 * through another copy and back when src's digit k is T's), sets digit
 * 1 (path 0 to 1, path j to 0) and goes to its E by BCube moves, digit 0
 * last: its servers keep the digit it set (w, 1 = 0, j = v_j, 1 = 1),
 * which no other strand's has.  Across level L from E; path k from T's
 * twin in src's copy out and back into dst (xdc_dj_xk()).
 */
static noinline bool xdc_dj_top1(const struct dp_topo *t, u32 src, u32 dst,
				 u32 L, u32 m, struct xdc_dj *p)
{
	const struct xdc_priv *d = xdc(t);
	u32 k = d->k, n = d->n, x, y, e, c, tk, v = 0, j = m, z = src, from;

	if (!xdc_dj_top1_ok(t, src, dst, L)) {
		src = dst;	/* the paths of (dst, src), reversed */
		dst = z;
		if (!xdc_dj_top1_ok(t, src, dst, L))
			return false;
	}
	x = src;
	c = xdc_dig(t, src, k);
	tk = xdc_dig(t, dst, k);
	if (m > 1 && m < k) {
		while (v == xdc_dig(t, dst, m))
			v++;
		e = xdc_set_dig(t, xdc_set_dig(t, dst, m, v), 1, 0);
	} else {
		e = m < k ? xdc_set_dig(t, dst, 1, !m) : dst;
		j = m == k ? 0 : m;
		v = m == k ? !xdc_dig(t, src, 0) : 0;
	}
	if (m && !xdc_dj_mv(t, &x, j, v, p))
		return false;
	if (!m && c == tk && !xdc_dj_mv(t, &x, k, (c + 1) % n, p))
		return false;
	if (!m && c == tk && !xdc_dj_mv(t, &x, 1, 1, p))
		return false;
	if ((c != tk || !m) && !xdc_dj_mv(t, &x, k, tk, p))
		return false;
	if (((!m && c != tk) || (m > 1 && m < k)) &&
	    !xdc_dj_mv(t, &x, 1, !m, p))
		return false;
	y = xdc_set_dig(t, e, L, xdc_dig(t, src, L));
	if (!xdc_dj_bcube(t, &x, y, p) || x != y)
		return false;
	if (m == k) {
		if (!xdc_dj_xk(t, x, L, xdc_dig(t, dst, L), 1, p))
			return false;
	} else {
		if (!xdc_dj_put(p, L, xdc_dig(t, dst, L)))
			return false;
		from = p->len;
		x = dst;
		if (!m && !(xdc_dj_mv(t, &x, 0, 0, p) &&
			    xdc_dj_mv(t, &x, 1, 1, p) &&
			    xdc_dj_mv(t, &x, 0, n - 1, p)))
			return false;
		if (m && !xdc_dj_mv(t, &x, j, v, p))
			return false;
		if (m > 1 && !xdc_dj_mv(t, &x, 1, 0, p))
			return false;
		if (x != e)
			return false;
		xdc_dj_reverse(t, dst, p, from);
	}
	if (src != z)
		xdc_dj_reverse(t, src, p, 0);
	return true;
}

/*
 * Above k (highest differing digit L > k, both of a cell whose I* is a
 * level-L gate): XDCent(n, k, k)'s construction on the digits L..L-k of
 * cells (xdc_dj_macro()), each cell a sub-cell of the digits below L-k.
 * Its paths are disjoint in cells and cell-level switches: a cell other
 * than the two ends is one path's, which routes in it from where it came
 * in to a port of the next move.  In the two ends, the fans of src and
 * dst (xdc_fan(), m = L-k-1) give each path its own way from src to the
 * port of its first move, and from its last move into dst: the level-L
 * port is I*, which both fans reach, and a path's last move lands at the
 * server where dst's strand of that level ends.
 */
static bool xdc_dj_cross(const struct dp_topo *t, u32 src, u32 dst, u32 L,
			 u32 m, struct xdc_dj *p)
{
	const struct xdc_priv *d = xdc(t);
	u8 mj[DP_MAX_PORTS + 4], mv[DP_MAX_PORTS + 4];
	u32 cnt, lab0, lab1, q = L - d->k, x, two = 0;
	bool sg = xdc_dig(t, src, q) != d->n - 1;
	bool dg = xdc_dig(t, dst, q) != d->n - 1;

	/*
	 * A cell whose I* is no gate (digit q = L-k is n-1): the paths of
	 * the cell next to it with digit q = x (a virtual end), reached
	 * over level q from two servers of the end cell (q < k: every
	 * server has that port; src is not I*, so two; q >= k, where out
	 * and back fails: the two strands of level q of xdc_fan()'s two in
	 * place of its I* and q strands): the paths' nodes all have digit q
	 * not n-1, so the cells with digit q = n-1 that the ends' other
	 * moves pass are theirs only.
	 */
	if ((!sg || !dg) && q >= d->k) {
		if (xdc_dj_out_ok(t, src, dst, L))
			return xdc_dj_cross_out(t, src, dst, L, m, p);
		two = !sg ? XDC_DJ_TWO_SRC : 0;
		two |= !dg ? XDC_DJ_TWO_DST : 0;
	} else if ((!sg && xdc_low(t, src, q) == d->pw[q] - 1) ||
		   (!dg && xdc_low(t, dst, q) == d->pw[q] - 1)) {
		if (!xdc_dj_out_ok(t, src, dst, L))
			return xdc_dj_top1(t, src, dst, L, m, p);
		return xdc_dj_cross_out(t, src, dst, L, m, p);
	}
	x = sg ? xdc_dig(t, src, q) : dg ? xdc_dig(t, dst, q) : 0;
	cnt = xdc_dj_macro(t, sg ? src : xdc_set_dig(t, src, q, x),
			   dg ? dst : xdc_set_dig(t, dst, q, x), L, m, mj, mv);
	lab0 = mj[0] == L ? XDC_DJ_T : mj[0];
	lab1 = mj[cnt - 1] == L ? XDC_DJ_T : mj[cnt - 1];
	if (!sg) {
		if (mj[0] == q) {
			/* straight on, from I* or the second level q */
			lab0 = two ? XDC_DJ_Q2 : XDC_DJ_T;
		} else {
			/* through src's cell with digit q = x first */
			memmove(mj + 2, mj + 1, cnt - 1);
			memmove(mv + 2, mv + 1, cnt - 1);
			mj[1] = (u8)(mj[0] == L ? L : q);
			mv[1] = (u8)(mj[0] == L ? mv[0] : x);
			if (mj[0] == L) {
				mj[0] = (u8)q;
				mv[0] = (u8)x;
				lab0 = q;
			}
			cnt++;
		}
	}
	if (!dg) {
		if (mj[cnt - 1] == q) {
			mv[cnt - 1] = (u8)(d->n - 1);
			lab1 = two ? XDC_DJ_Q2 : XDC_DJ_T;
		} else if (mj[cnt - 1] == L) {
			mj[cnt] = (u8)q;
			mv[cnt++] = (u8)(d->n - 1);
			lab1 = q;
		} else {
			mj[cnt] = mj[cnt - 1];
			mv[cnt] = mv[cnt - 1];
			mj[cnt - 1] = (u8)q;
			mv[cnt - 1] = (u8)(d->n - 1);
			cnt++;
		}
	}
	return xdc_dj_walk(t, src, dst, L, mj, mv, cnt, lab0, lab1, two, p);
}

/*
 * A BCube pair (same digits from b up) of two spare levels la < lb, path
 * k: through a's spare port (digit la := u), BCube's moves to b's digits,
 * b's spare level there (digit lb := w), BCube's moves back to a's, digit
 * la back, BCube's moves to b's, and into b through its spare switch.
 * Every server between has digit la or lb changed: none is in the cell,
 * where BCube's k paths are.  The crossing at lb needs b's spare level
 * with digit la changed: la is not in b's run of trailing n-1 digits
 * (lb - k <= la), and u is not n-1 where la ends that run.
 */
static bool xdc_dj_spare(const struct dp_topo *t, u32 a, u32 b,
			 struct xdc_dj *p)
{
	const struct xdc_priv *d = xdc(t);
	u32 la = xdc_spare_level(t, a), lb = xdc_spare_level(t, b), u, w, x;

	if (la > lb) {
		if (!xdc_dj_spare(t, b, a, p))
			return false;
		xdc_dj_reverse(t, b, p, 0);
		return true;
	}
	if (lb - d->k > la)
		return false;
	u = (xdc_dig(t, a, la) + 1) % d->n;
	if (u == d->n - 1 && la == lb - d->k)
		u = 0;
	w = (xdc_dig(t, b, lb) + 1) % d->n;
	if (u == xdc_dig(t, a, la))
		return false;
	x = xdc_set_dig(t, a, la, u);
	if (!xdc_dj_put(p, la, u) ||
	    !xdc_dj_bcube(t, &x, xdc_set_dig(t, b, la, u), p) ||
	    !xdc_dj_put(p, lb, w))
		return false;
	x = xdc_set_dig(t, x, lb, w);
	if (!xdc_dj_bcube(t, &x, a, p) ||
	    !xdc_dj_put(p, la, xdc_dig(t, a, la)))
		return false;
	x = xdc_set_dig(t, x, la, xdc_dig(t, a, la));
	if (!xdc_dj_bcube(t, &x, b, p) ||
	    !xdc_dj_put(p, lb, xdc_dig(t, b, lb)))
		return false;
	return xdc_set_dig(t, x, lb, xdc_dig(t, b, lb)) == b;
}

/*
 * k = 1 (every server has two ports): for the pairs the constructions
 * above leave out, n >= 3.  A value of a digit that is neither @a nor n-1.
 */
static u32 xdc_k1_other(u32 a)
{
	return a ? 0 : 1;
}

/*
 * From @h to @o (k = 1, both spare ports cabled, on levels lh >= lo above
 * the highest digit where they differ), appended to @p: out through h's
 * spare port into the copy with digit lh another, to its level-lh gate
 * with digit lh-1 = w_lh, back over level lh, then down level by level, at
 * each level j from lh-1 to lo+1 XDCRouting to the gate with digit j-1 =
 * w_j and across to h's digit j, and last XDCRouting to o's twin over
 * its spare switch (digit lo = w_{lo+1}) and into o.  Every w_j is
 * neither h's digit j-1 nor n-1, so every server between the two ends
 * has a digit from lo up that is not h's: none is in the sub-cell of
 * the digits below lo that holds h and o.
 */
static bool xdc_k1_out(const struct dp_topo *t, u32 h, u32 o,
		       struct xdc_dj *p)
{
	const struct xdc_priv *d = xdc(t);
	u32 lh = xdc_spare_level(t, h), lo = xdc_spare_level(t, o), x, y, u, w;
	u32 j;

	if (lh < lo || lo < 1 || lh > d->top)
		return false;
	u = (xdc_dig(t, h, lh) + 1) % d->n;
	x = xdc_set_dig(t, h, lh, u);
	if (!xdc_dj_put(p, lh, u))
		return false;
	if (lh == lo)
		return xdc_dj_route(t, x, xdc_set_dig(t, o, lh, u), p) &&
		       xdc_dj_put(p, lh, xdc_dig(t, o, lh));
	w = xdc_k1_other(xdc_dig(t, h, lh - 1));
	y = xdc_low_max(t, xdc_set_dig(t, x, lh - 1, w), lh - 1);
	if (!xdc_dj_route(t, x, y, p) ||
	    !xdc_dj_put(p, lh, xdc_dig(t, h, lh)))
		return false;
	x = xdc_set_dig(t, y, lh, xdc_dig(t, h, lh));
	for (j = lh - 1; j > lo; j--) {
		w = xdc_k1_other(xdc_dig(t, h, j - 1));
		y = xdc_set_dig(t, x, j - 1, w);
		if (!xdc_dj_route(t, x, y, p) ||
		    !xdc_dj_put(p, j, xdc_dig(t, h, j)))
			return false;
		x = xdc_set_dig(t, y, j, xdc_dig(t, h, j));
	}
	return xdc_dj_route(t, x, xdc_set_dig(t, o, lo, w), p) &&
	       xdc_dj_put(p, lo, xdc_dig(t, o, lo));
}

/* xdc_k1_out() from @a to @b, the higher spare level first. */
static bool xdc_k1_via(const struct dp_topo *t, u32 a, u32 b,
		       struct xdc_dj *p)
{
	u32 from = p->len;

	if (xdc_spare_level(t, a) >= xdc_spare_level(t, b))
		return xdc_k1_out(t, a, b, p);
	if (!xdc_k1_out(t, b, a, p))
		return false;
	xdc_dj_reverse(t, b, p, from);
	return true;
}

/*
 * xdc_dj_k1() above level 1: @s's spare port in C (level <= @L), @d's
 * leaving it (d's digits below L all n-1), s's copy (digit L) or d's the
 * one with digit L = n-1.  In s's copy, xdc_fan() of the digits below L
 * takes the two paths apart.  When d's copy is it (d is C's I*, spare
 * level above L + 1), the fan's strands end at a level-L gate, path 0's,
 * which crosses into d's copy and routes to d, and at the I* of s's copy
 * (spare level L + 1), path 1's, which goes out from there.  When s's
 * copy is it (its I* has no port out of C), the fan has two strands of
 * level L: path 0 crosses into d's copy to d, path 1 into a third copy
 * (digit L neither n-1 nor d's) and routes to its I* (level L + 1, as
 * d's spare port) to go out.  The copies are each one path's.
 */
static bool xdc_k1_fan(const struct dp_topo *t, u32 s, u32 d, u32 L, u32 m,
		       struct xdc_dj *p)
{
	u32 n = xdc(t)->n, v = xdc_dig(t, d, L), e, l0, l1 = XDC_DJ_Q2;
	bool two = xdc_dig(t, s, L) == n - 1;

	if (two == (v == n - 1))
		return false;
	if (two) {
		/* path 1, the longer way after the fan, takes its shorter strand */
		if (!xdc_fan(t, s, (int)L - 1, true, L, p, &e))
			return false;
		l0 = p->len;
		p->len = 0;
		if (!xdc_fan(t, s, (int)L - 1, true, XDC_DJ_Q2, p, &e))
			return false;
		if (p->len > l0)
			l1 = L;
		p->len = 0;
	}
	if (!xdc_fan(t, s, (int)L - 1, two,
		     !m ? (l1 == L ? XDC_DJ_Q2 : L) : two ? l1 : XDC_DJ_T,
		     p, &e))
		return false;
	if (m && !two)
		return xdc_k1_via(t, e, d, p);
	if (m)
		v = xdc_k1_other(v);
	e = xdc_set_dig(t, e, L, v);
	if (!xdc_dj_put(p, L, v))
		return false;
	if (!m)
		return xdc_dj_route(t, e, d, p);
	return xdc_dj_route(t, e, xdc_low_max(t, e, L), p) &&
	       xdc_k1_via(t, xdc_low_max(t, e, L), d, p);
}

/*
 * k = 1, n >= 3, both spare ports cabled, highest differing digit @L
 * (the sub-cell C of digits 0..L holds both): path 0 inside C, path 1
 * through both spare ports outside it (xdc_k1_out()), so the two meet in
 * neither servers nor switches.  Both spare ports leaving C (levels above
 * L): path 0 XDCRouting in C (a BCube pair's: the caller's word).  At L
 * = 1 with one end's spare port in C (level 1: @s is a level-1 gate,
 * digit 0 not n-1) and the other's leaving it (its digit 0 n-1): when
 * s's digit 1 is not n-1, path 0 crosses at s into d's copy and sets
 * digit 0, path 1 leaves s over level 0 for s's copy's I* (its spare
 * port on level 2) and goes out from there; when it is n-1 (s's copy's
 * I* has no level-2 port), path 0 sets digit 0 to w, crosses at w and
 * sets digit 0 to n-1, path 1 crosses at s into a third copy (digit 1
 * neither n-1 nor d's) and goes out from its I*.  The other way round
 * (d's spare port in C): the paths of (d, s), reversed.
 */
static noinline bool xdc_dj_k1(const struct dp_topo *t, u32 s, u32 d, u32 m,
			       struct xdc_dj *p)
{
	const struct xdc_priv *x = xdc(t);
	u32 L = xdc_top_diff(t, s, d, x->top), ls = xdc_spare_level(t, s);
	u32 ld = xdc_spare_level(t, d), n = x->n, a, w, e, z = s;
	bool ok;

	p->len = 0;
	if (x->k != 1 || n < 3 || m > 1 || ls > x->top || ld > x->top)
		return false;
	if (ls > L && ld > L) {
		if (m)
			return xdc_k1_via(t, s, d, p);
		return x->b <= L && xdc_dj_route(t, s, d, p);
	}
	if (ls <= L && ld <= L)
		return false;
	if (ld <= L) {
		s = d;		/* the paths of (d, s), reversed */
		d = z;
	}
	if (L > 1) {
		ok = xdc_k1_fan(t, s, d, L, m, p);
		goto out;
	}
	/* s: digit 0 not n-1, spare level 1; d: digit 0 n-1, level >= 2 */
	a = xdc_dig(t, s, 1);
	if (a != n - 1 && !m) {
		ok = xdc_dj_put(p, 1, xdc_dig(t, d, 1)) &&
		     xdc_dj_put(p, 0, n - 1);
	} else if (a != n - 1) {
		e = xdc_set_dig(t, s, 0, n - 1);
		ok = xdc_dj_put(p, 0, n - 1) && xdc_k1_via(t, e, d, p);
	} else if (!m) {
		w = xdc_k1_other(xdc_dig(t, s, 0));
		ok = xdc_dj_put(p, 0, w) &&
		     xdc_dj_put(p, 1, xdc_dig(t, d, 1)) &&
		     xdc_dj_put(p, 0, n - 1);
	} else {
		a = xdc_k1_other(xdc_dig(t, d, 1));
		e = xdc_set_dig(t, xdc_set_dig(t, s, 1, a), 0, n - 1);
		ok = xdc_dj_put(p, 1, a) && xdc_dj_put(p, 0, n - 1) &&
		     xdc_k1_via(t, e, d, p);
	}
out:
	if (ok && s != z)
		xdc_dj_reverse(t, s, p, 0);
	return ok;
}

/*
 * n = 2, k = 2: from @x round the 4-cycle of its digits 1, 0 (two BCube
 * levels, a switch a cable) to the server of its copy whose digits 1, 0
 * are @lo; the opposite one through 11, the digit that is 0 in x first.
 */
static bool xdc_dj_n2_strand(const struct dp_topo *t, u32 x, u32 lo,
			     struct xdc_dj *p)
{
	u32 a = xdc_low(t, x, 2), j;

	if ((a ^ lo) == 3) {
		j = a & 1;	/* digit 1 when a is 01, digit 0 when 10 */
		return xdc_dj_put(p, j, 1) && xdc_dj_put(p, j ^ 1, 0);
	}
	if (a == lo)
		return true;
	j = (a ^ lo) == 1 ? 0 : 1;
	return xdc_dj_put(p, j, (lo >> j) & 1);
}

/*
 * n = 2, k = 2, highest differing digit 2 (top >= 3), neither end with
 * digits 1, 0 both 1 (00 and 10 are level-2 gates, 01 has a level-3
 * port): in each copy of digit 2, a 4-cycle of digits 1, 0, the
 * servers 00 and 10 cross into the other copy over level 2 and 01 out
 * of the cell over level 3.  Path 0 crosses at 00, path 1 at 10, path 2
 * out and back from 01 (xdc_dj_xk()), each end's strands to them round
 * its cycle (xdc_dj_n2_strand()): they meet only at the end, and the
 * server 11 is on one of them at most; the cell out there is path 2's.
 * Every pair of (2,2,3) at k with k + 1 (max-flow).
 */
static bool xdc_dj_n2(const struct dp_topo *t, u32 src, u32 dst, u32 m,
		      struct xdc_dj *p)
{
	const struct xdc_priv *d = xdc(t);
	u32 lo = m == 0 ? 0 : m == 1 ? 2 : 1, x, from;

	if (d->n != 2 || d->k != 2 || d->top < 3 || m > 2 ||
	    xdc_low(t, src, 2) == 3 || xdc_low(t, dst, 2) == 3 ||
	    !xdc_dj_n2_strand(t, src, lo, p))
		return false;
	x = src - xdc_low(t, src, 2) + lo;
	if (m < 2 ? !xdc_dj_put(p, 2, xdc_dig(t, dst, 2)) :
	    !xdc_dj_xk(t, x, 2, xdc_dig(t, dst, 2), 1, p))
		return false;
	from = p->len;
	if (!xdc_dj_n2_strand(t, dst, lo, p))
		return false;
	xdc_dj_reverse(t, dst, p, from);
	return true;
}

/*
 * n = 2, k = 2, highest differing digit 3 (top >= 4): in each half of
 * the cell of digits 3..0 (digit 3 fixed; two 4-cycles of digits 1, 0
 * joined over level 2 at 000 and 010), the servers 001 and 101 cross
 * into the other half over level 3 and 011 out of the cell over level 4.
 * xdc_n2_up[a][m]: the strand from the server with digits 2..0 @a to
 * path m's one (001, 101, 011), the digits it flips in turn; the three
 * of a meet only at a.  The server 111 has no level-4 port: its paths 0
 * and 1 only, when its spare level is 5 (xdc_dj_n2_e5() for path 2).
 */
static const char xdc_n2_up[8][3][5] = {
	{ "0", "20", "10" }, { "", "020", "1" }, { "10", "201", "0" },
	{ "1", "0120", "" }, { "20", "0", "120" }, { "020", "", "1020" },
	{ "120", "01", "20" }, { "0120", "1", "" },
};

/*
 * The same one level up (highest differing digit 4, top >= 5): in each
 * half of digit 4 (an XDCent (2,2,3), its halves of digit 3 joined over
 * level 3 at 001 and 101), 0011 and 1011 cross over level 4 and 0111 out
 * and back over level 5; no strands from 1111 (its spare level above 5).
 * Disjoint strands of least total length (max-flow at least cost).
 */
static const char xdc_n2_up4[15][3][7] = {
	{ "10", "031", "201" }, { "1", "31", "0120" }, { "0", "1031", "20" },
	{ "", "131", "020" }, { "120", "2031", "01" },
	{ "0120", "30120", "1" }, { "20", "12031", "0" },
	{ "020", "102031", "" }, { "031", "10", "2031" },
	{ "31", "1", "02031" }, { "1031", "0", "20131" },
	{ "131", "", "012031" }, { "2031", "120", "031" },
	{ "02031", "1020", "31" }, { "12031", "20", "0131" },
};

/* n = 2: from *@x the digits of @s flipped in turn (a level each). */
static bool xdc_dj_flips(const struct dp_topo *t, u32 *x, const char *s,
			 struct xdc_dj *p)
{
	u32 j, v;

	for (; *s; s++) {
		j = *s - '0';
		v = !xdc_dig(t, *x, j);
		if (!xdc_dj_put(p, j, v))
			return false;
		*x = xdc_set_dig(t, *x, j, v);
	}
	return true;
}

/* The strand of path @m from @x (xdc_n2_up, @L = 3, or xdc_n2_up4). */
static bool xdc_dj_n2_strand3(const struct dp_topo *t, u32 x, u32 m, u32 L,
			      struct xdc_dj *p)
{
	return xdc_dj_flips(t, &x, L == 3 ? xdc_n2_up[xdc_low(t, x, 3)][m] :
			    xdc_n2_up4[xdc_low(t, x, 4)][m], p);
}

/*
 * Path 2 of xdc_dj_n2_up() at L = 3 from @e, digits 3..0 0111 (spare
 * level 5), to @f (digit 3 = 1): out over level 5, across digit 4 in
 * the copy of digit 5 there, back over level 5 into the cell with the
 * other digit 4, to its 1011 and over level 4 into f's half at 1011,
 * round it into f (xdc_n2_up).  Only this path leaves e's cell of
 * digits 3..0, and it enters it at f's half only.
 */
static bool xdc_dj_n2_e5(const struct dp_topo *t, u32 e, u32 f,
			 struct xdc_dj *p)
{
	u32 y = xdc_set_dig(t, e, 5, !xdc_dig(t, e, 5)), z, w, from;

	z = xdc_set_dig(t, y, 4, !xdc_dig(t, y, 4));
	if (xdc_spare_level(t, e) != 5 || !xdc_dj_put(p, 5, xdc_dig(t, y, 5)) ||
	    !xdc_dj_route(t, y, z, p) || !xdc_dj_put(p, 5, xdc_dig(t, e, 5)))
		return false;
	z = xdc_set_dig(t, z, 5, xdc_dig(t, e, 5));
	w = z - xdc_low(t, z, 4) + 11;
	if (!xdc_dj_route(t, z, w, p) || !xdc_dj_put(p, 4, xdc_dig(t, e, 4)))
		return false;
	from = p->len;
	if (!xdc_dj_n2_strand3(t, f, 2, 3, p))
		return false;
	xdc_dj_reverse(t, f, p, from);
	return true;
}

/*
 * n = 2, k = 2, highest differing digit @L = 3 (top >= 4) or 4 (top >=
 * 5), neither end with digits L-1..0 all 1 (but 0111 at L = 3, spare
 * level 5: xdc_dj_n2_e5() for path 2): path m from src round its
 * half to its exit (xdc_n2_up, xdc_n2_up4), across to the same server
 * of dst's half (path 2 out and back through the cell next to it,
 * xdc_dj_xk(): only it enters that cell) and round dst's half into dst.
 * The halves' strands are disjoint, the crossings differ.
 */
static bool xdc_dj_n2_up(const struct dp_topo *t, u32 src, u32 dst, u32 m,
			 u32 L, struct xdc_dj *p)
{
	const struct xdc_priv *d = xdc(t);
	u32 lo = m == 0 ? 1 : m == 1 ? 5 : 3, all = 7, x, from;

	if (L == 4) {
		lo = m == 0 ? 3 : m == 1 ? 11 : 7;
		all = 15;
	}
	if (d->n != 2 || d->k != 2 || (L != 3 && L != 4) || d->top <= L ||
	    m > 2)
		return false;
	if (L == 3 && (xdc_low(t, src, 3) == 7 || xdc_low(t, dst, 3) == 7)) {
		if ((xdc_spare_level(t, src) != 5 &&
		     xdc_spare_level(t, dst) != 5) ||
		    xdc_low(t, src, 3) == xdc_low(t, dst, 3))
			return false;
		if (m == 2) {
			x = xdc_low(t, src, 3) == 7 ? src : dst;
			if (!xdc_dj_n2_e5(t, x, src ^ dst ^ x, p))
				return false;
			if (x == dst)
				xdc_dj_reverse(t, dst, p, 0);
			return true;
		}
		all = 8;	/* 0111's paths 0 and 1 in the table */
	}
	if (xdc_low(t, src, L) == all || xdc_low(t, dst, L) == all ||
	    !xdc_dj_n2_strand3(t, src, m, L, p))
		return false;
	x = src - xdc_low(t, src, L) + lo;
	if (m < 2 ? !xdc_dj_put(p, L, xdc_dig(t, dst, L)) :
	    !xdc_dj_xk(t, x, L, xdc_dig(t, dst, L), 1, p))
		return false;
	from = p->len;
	if (!xdc_dj_n2_strand3(t, dst, m, L, p))
		return false;
	xdc_dj_reverse(t, dst, p, from);
	return true;
}

/*
 * n = 2, k = 2 (top >= 4): from @a (digits 2..0 not 111, and not 001 or
 * 011) to the server of its cell with digits 2..0 011 (spare level 4),
 * outside a's 4-cycle of digits 1, 0 and the one of 011 but for a's
 * strand: over level 2 to the cycle with digit 2 = 1 (when a's is 0),
 * round it to 101, over level 3 into the cell with the other digit 3,
 * there to 011 and out and back over level 4 (xdc_dj_xk()) into 011.
 */
static bool xdc_dj_n2_out(const struct dp_topo *t, u32 a, struct xdc_dj *p)
{
	u32 x = a, lo;

	if (!xdc_dig(t, x, 2)) {
		if (xdc_dig(t, x, 0) || !xdc_dj_put(p, 2, 1))
			return false;
		x = xdc_set_dig(t, x, 2, 1);
	}
	lo = xdc_low(t, x, 3);
	if (lo == 7 || (lo != 5 && !xdc_dj_put(p, 0, 1)) ||
	    (lo == 6 && !xdc_dj_put(p, 1, 0)))
		return false;
	x = xdc_set_dig(t, x - lo + 5, 3, !xdc_dig(t, x, 3));
	return xdc_dj_put(p, 3, xdc_dig(t, x, 3)) &&
	       xdc_dj_route(t, x, x - 2, p) &&
	       xdc_dj_xk(t, x - 2, 3, xdc_dig(t, a, 3), 1, p);
}

/*
 * n = 2, k = 2 (top >= 4), an end @e with digits 2..0 011 (spare level
 * 4), the other @f in its cell: path 2 from f out to e (xdc_dj_n2_out()),
 * so BCube's paths in the 4-cycle of e are the others when f is in it
 * (a BCube pair, f with digit 0 = 0: its spare level 2), or, when f has
 * digit 2 = 1 (at k), path 0 leaves e over digit 1, 0 and level 2 into
 * f's cycle at 100, path 1 over digit 0 and level 2 at 110, each round
 * f's cycle to f on a side of it path 2's strand (to 101) is not on.
 * The path is built from e or f, and reversed when that is dst.
 */
static bool xdc_dj_n2_e4(const struct dp_topo *t, u32 src, u32 dst, u32 m,
			 u32 lvl, struct xdc_dj *p)
{
	const struct xdc_priv *d = xdc(t);
	u32 e = xdc_low(t, src, 3) == 3 ? src : dst, f = src ^ dst ^ e, lo, a;
	bool ok;

	p->len = 0;
	lo = xdc_low(t, f, 3);
	if (d->n != 2 || d->k != 2 || d->top < 4 || m > 2 ||
	    xdc_low(t, e, 3) != 3 || lvl > 2 || (lvl < 2 && m != 2))
		return false;
	if (m == 2) {
		a = f;
		ok = xdc_dj_n2_out(t, f, p);
	} else {
		/* e to 100 (path 0, over 001, 000) or 110 (path 1, over 010) */
		a = e;
		ok = lvl == 2 && lo != 7 && (m || xdc_dj_put(p, 1, 0)) &&
		     xdc_dj_put(p, 0, 0) && xdc_dj_put(p, 2, 1);
		if (ok && lo == 5)
			ok = xdc_dj_put(p, 0, 1) && (!m || xdc_dj_put(p, 1, 0));
		else if (ok && lo != (m ? 6 : 4))
			ok = xdc_dj_put(p, 1, lo == 6);
	}
	if (ok && a == dst)
		xdc_dj_reverse(t, dst, p, 0);
	return ok;
}

/*
 * n = 2, k = 2 (top >= 5), an end @e with digits 3..0 0111 (spare level
 * 5, no port into its cell C of digits 2..0 but over levels 0 and 1) and
 * the other @f in C (highest differing digit 2 or below).  Paths 0 and 1
 * leave e over levels 0 and 1 (xdc_n2_lo5: the digits they flip, path 1
 * to 001 through the half of digit 3 = 1); for a BCube pair they are
 * BCube's in the 4-cycle of digits 1, 0 with digit 2 = 1, which holds e,
 * and only path 2 is built.  Path 2 (XDC_N2_OUT5, then xdc_n2_lo5[.][2]):
 * out over level 5, across digit 4 in the copy of digit 5 there (through
 * 0011 over level 4), back over level 5 into the cell with the other
 * digit 4, to its 0011 and over level 4 into C's, then in C, or through
 * the half of digit 3 = 1 into 101, to f (never into e's cycle but at f
 * = 100).  Disjoint strands of least total length (max-flow at least
 * cost), no server with digits 3..0 1111 (its spare level depends on the
 * digits above).  Every pair of (2,2,5) with such an end at or below k
 * with k + 1 (56 of 1,740 left before).
 */
#define XDC_N2_OUT5	"502040205020"
static const char xdc_n2_lo5[7][3][8] = {
	{ "021", "102", "410" }, { "0210", "130203", "41" },
	{ "02", "1021", "40" }, { "020", "10201", "4" },
	{ "", "", "4102" }, { "", "", "4130203" }, { "", "", "402" },
};

static bool xdc_dj_n2_lo5(const struct dp_topo *t, u32 src, u32 dst, u32 m,
			  u32 lvl, struct xdc_dj *p)
{
	const struct xdc_priv *d = xdc(t);
	u32 e, f, lo, x;

	p->len = 0;
	if (d->n != 2 || d->k != 2 || d->top < 5 || m > 2 || lvl > 2)
		return false;
	e = xdc_low(t, src, 4) == 7 ? src : dst;
	f = src ^ dst ^ e;
	x = e;
	if (xdc_low(t, e, 4) != 7 || (lvl < 2 && m != 2))
		return false;
	lo = xdc_low(t, f, 3);
	if ((m == 2 && !xdc_dj_flips(t, &x, XDC_N2_OUT5, p)) ||
	    !xdc_dj_flips(t, &x, xdc_n2_lo5[lo][m], p) || x != f)
		return false;
	if (e == dst)
		xdc_dj_reverse(t, dst, p, 0);
	return true;
}

/*
 * n = 2, k = 3, highest differing digit 3 (top >= 4), both ends' digits
 * 2..0 among 000, 010, 100, 110 (level-3 gates) and 001, 101 (spare
 * level 4; 011 and 111 have their spare port above level 4): each copy
 * of digit 3 is a 3-cube of digits 2..0 (a switch is a cable).  Path m
 * flips the digits of xdc_n2k3[a][b][m] in turn from src, a from src's
 * digits 1, 0 (00, 10, 01), b dst's digits 2..0 (000, 010, 100, 110,
 * 001, 101) with digit 2 flipped when src's is 1: flipping digit 2 of
 * every server maps the pair's paths to those of the other pair, as no
 * move on them is over a spare port whose level digit 2 sets.  Each
 * path crosses digit 3 once, at a gate or out over level 4 and back
 * (4 0 3 0 4); disjoint paths of least total length (max-flow at least
 * cost).  Every pair of (2,3,4) at k with k + 1.
 */
static const char xdc_n2k3[3][6][4][10] = {
	{ { "3", "131", "232", "0403040" },
	  { "13", "31", "012032", "230210" },
	  { "23", "32", "012031", "130120" },
	  { "132", "231", "01203", "30210" },
	  { "30", "1301", "2302", "040304" },
	  { "230", "302", "12301", "0240304" } },
	{ { "13", "31", "012032", "230120" },
	  { "3", "131", "232", "012030210" },
	  { "132", "231", "01203", "30120" },
	  { "23", "32", "021031", "130120" },
	  { "130", "301", "23102", "0140304" },
	  { "1302", "2130", "3021", "01240304" } },
	{ { "03", "1031", "2032", "403040" },
	  { "031", "103", "21032", "4030410" },
	  { "032", "203", "12031", "4023040" },
	  { "0312", "1023", "2031", "42030410" },
	  { "030", "10301", "20302", "40304" },
	  { "0302", "2030", "103201", "402304" } },
};

/*
 * The same at k + 1 (highest differing digit 4), on the halves of digit
 * 4 (two 3-cubes joined over level 3), whose servers with digits 1, 0 01
 * cross over level 4: xdc_n2k3_up[src's digits 1, 0][dst's digits 3..0
 * not ending in 11 (0000, 0001, 0010, 0100, ...), digits 3, 2 flipped
 * where src's are 1][m].  Every pair of (2,3,4) at k + 1 with k + 1.
 */
static const char xdc_n2k3_up[3][12][4][12] = {
	{ { "040", "30403", "2304032", "120141201" },
	  { "04", "102142", "304030", "2304031201" },
	  { "0410", "304013", "10214102", "23040321" },
	  { "041021", "102140", "230403", "304032" },
	  { "042", "12014", "3040320", "230401301" },
	  { "04120", "1201401", "2304013", "3040312" },
	  { "3040", "041031", "230402", "10214023" },
	  { "13014", "32042", "0410301", "2040230" },
	  { "04013", "1301410", "2040132", "3204021" },
	  { "23040", "30402", "0401231", "1021403" },
	  { "2304", "3042", "04013021", "10214030" },
	  { "041023", "230410", "304012", "10214031" } },
	{ { "0140", "310403", "12304032", "20141201" },
	  { "014", "20142", "3104030", "12304031021" },
	  { "01410", "2014102", "3104013", "123040321" },
	  { "20140", "0141021", "1230403", "3104032" },
	  { "0142", "2014", "12304030", "3104031021" },
	  { "014120", "201401", "12304013", "31040312" },
	  { "31040", "0141031", "1230402", "2014023" },
	  { "3104", "014030", "231042", "1204013201" },
	  { "014013", "301410", "13204021", "21040132" },
	  { "123040", "201403", "301402", "01401231" },
	  { "12304", "30142", "2014030", "014012301" },
	  { "0140231", "1304012", "2104103", "3021410" } },
	{ { "40", "241201", "03204032", "10301403" },
	  { "4", "242", "103014030", "03204031021" },
	  { "410", "24102", "032040321", "103014013" },
	  { "240", "41021", "0304032", "120130403" },
	  { "24", "42", "0304012301", "1021304030" },
	  { "2401", "4120", "03040312", "1021304013" },
	  { "24023", "41031", "0320402", "1030140" },
	  { "032042", "103014", "240320", "401301" },
	  { "4013", "240132", "03204021", "10301410" },
	  { "2403", "030402", "401231", "10213040" },
	  { "02304", "24030", "1030142", "4031021" },
	  { "24103", "40132", "0304021", "102130410" } },
};

/*
 * n = 2, k = 3 (top >= 5), the pairs of the cell of digits 5..0 that
 * xdc_n2k3 and xdc_n2k3_up leave out, neither end ending in 111 (its
 * spare port above level 5).  At k + 2 (highest differing digit 5) the
 * only cables between the halves of digit 5 are the level-5 switches of
 * their four servers ending in 011 (a cut of k + 1): path m crosses at
 * the one with digits 4, 3 = m, each end's strand to it from a fan of
 * the end's half (xdc_n2k3_fan[the end's digits 2..0][m ^ its digits 4,
 * 3]: four disjoint strands in the half, one to each of those servers,
 * of least total length by max-flow; flipping digit 4 or 3 of every
 * server maps a half to itself).  At k and k + 1 with an end ending in
 * 011 (spare level 5): path m from that end flips the digits of
 * xdc_n2k3_e5[the other's digits 2..0, at k + 1 plus 7 and 7 more when
 * the ends' digits 3 differ][m] (max-flow at least cost from 000011 in
 * the cell of digits 5..0, any end mapped to it by flipping digits 5..3).
 */
static const char xdc_n2k3_fan[7][4][9] = {
	{ "2012", "130", "041", "3041" },
	{ "1", "201230", "41", "03041" },
	{ "0", "30", "210241", "13041" },
	{ "", "030", "141", "20312041" },
	{ "201", "1302", "0421", "30241" },
	{ "12", "02130", "241", "401230" },
	{ "02", "302", "10241", "231041" },
};

static const char xdc_n2k3_e5[21][4][11] = {
	{ "103", "031", "21032", "5030510" },
	{ "0130", "140304", "210302", "503051" },
	{ "03", "1031", "2032", "503050" },
	{ "030", "10301", "20302", "50305" },
	{ "1203", "0132", "2031", "50305120" },
	{ "10302", "02310", "2140304", "5030521" },
	{ "032", "203", "10231", "5030520" },
	{ "140", "21402", "0310403", "5141501" },
	{ "14", "2142", "514151", "01304030" },
	{ "1401", "214012", "514150", "01304013" },
	{ "141", "21412", "51415", "013040310" },
	{ "1402", "2140", "01230403", "51415021" },
	{ "142", "214", "5141521", "012304030" },
	{ "14012", "21401", "5141520", "012304013" },
	{ "1403", "013040", "214032", "51415031" },
	{ "14030", "01304", "2103042", "501304151" },
	{ "14031", "0130410", "2140132", "5141503" },
	{ "140130", "031041", "21030412", "50130415" },
	{ "14032", "21403", "0231040", "514152031" },
	{ "140302", "012304", "214030", "5031041521" },
	{ "140231", "214103", "01230410", "51415032" },
};

static bool xdc_dj_n2k3_5(const struct dp_topo *t, u32 src, u32 dst, u32 m,
			  u32 lvl, struct xdc_dj *p)
{
	u32 e, f, x, from;

	if (xdc(t)->top < 5 || xdc_low(t, src, 3) == 7 ||
	    xdc_low(t, dst, 3) == 7)
		return false;
	if (lvl == 5) {
		x = src;
		if (!xdc_dj_flips(t, &x, xdc_n2k3_fan[xdc_low(t, src, 3)]
				  [m ^ (xdc_low(t, src, 5) >> 3)], p) ||
		    !xdc_dj_put(p, 5, xdc_dig(t, dst, 5)))
			return false;
		from = p->len;
		x = dst;
		if (!xdc_dj_flips(t, &x, xdc_n2k3_fan[xdc_low(t, dst, 3)]
				  [m ^ (xdc_low(t, dst, 5) >> 3)], p))
			return false;
		xdc_dj_reverse(t, dst, p, from);
		return true;
	}
	e = xdc_low(t, src, 3) == 3 ? src : dst;
	f = src ^ dst ^ e;
	x = e;
	if (!xdc_dj_flips(t, &x, xdc_n2k3_e5[xdc_low(t, f, 3) + (lvl == 3 ? 0 :
			  xdc_dig(t, e, 3) == xdc_dig(t, f, 3) ? 7 : 14)][m],
			  p) || x != f)
		return false;
	if (e == dst)
		xdc_dj_reverse(t, dst, p, 0);
	return true;
}

static bool xdc_dj_n2k3(const struct dp_topo *t, u32 src, u32 dst, u32 m,
			u32 lvl, struct xdc_dj *p)
{
	/*
	 * digits 2..0 -> column of xdc_n2k3 (6: none), 3..0 -> of
	 * xdc_n2k3_up (12: none), 1..0 -> row (3: none)
	 */
	static const u8 col[8] = { 0, 4, 1, 6, 2, 5, 3, 6 };
	static const u8 col4[16] = { 0, 1, 2, 12, 3, 4, 5, 12, 6, 7, 8, 12,
				     9, 10, 11, 12 };
	static const u8 row[4] = { 0, 2, 1, 3 };
	const struct xdc_priv *d = xdc(t);
	u32 a, b, x = src;

	p->len = 0;
	if (d->n != 2 || d->k != 3 || d->top < 4 || m > 3 || lvl < 3 ||
	    lvl > 5)
		return false;
	if (lvl == 5 || xdc_low(t, src, 3) == 3 || xdc_low(t, dst, 3) == 3)
		return xdc_dj_n2k3_5(t, src, dst, m, lvl, p);
	a = xdc_low(t, src, lvl);
	b = lvl == 3 ? col[xdc_low(t, dst, 3) ^ (a & 4)] :
	    col4[xdc_low(t, dst, 4) ^ (a & 12)];
	a = row[a & 3];
	if (a > 2 || b >= (lvl == 3 ? 6 : 12))
		return false;
	return xdc_dj_flips(t, &x, lvl == 3 ? xdc_n2k3[a][b][m] :
			    xdc_n2k3_up[a][b][m], p) && x == dst;
}

/*
 * k = 2, n >= 3 (top >= 5), an end @e whose digits 2..0 are n-1 and digit
 * 3 not (spare level 5: its cell C of digits 2..0 has it as I*, no
 * level-2 gate, and no copy's twin has its spare level), the other @f in
 * C (highest differing digit 2 or below).  Path 2 goes out over level 5,
 * XDCRouting in the copy of digit 5 there to e's twin with digit j := v,
 * back over level 5 into that twin e' (spare level 5 as e), the I* of
 * C', C's twin of digit j (the mirror), and from there: when f's spare
 * level is 3 or 4 (its digit 0 n-1), j is that level and path 2 routes in
 * C' to f's twin and crosses into f; else (f's spare level 2) j = 3, it
 * routes in C' to the level-3 gate (t, g, n-1), t a copy of digit 2 that
 * is neither f's nor e's (n-1), crosses into C there, sets digits 1, 0 to
 * f's in copy t and crosses level 2 into f.  Paths 0 and 1 (at k; below
 * it BCube's in e's copy of digit 2, which path 2 does not enter) leave e
 * over its level-0 and level-1 ports, to a level-2 gate of e's copy each,
 * across into f's copy (digit 0 := a, or digit 1 := b then digit 0), and
 * into f from two sides of it: through f's row and column switches (f's
 * digit 0 n-1), or through its column and row (digit 1 not n-1) or row
 * and level-2 switch, by the value of a and b (f's digit 0 or 1, or
 * another one not n-1).  The copies of digit 2 are e's, f's and t; in
 * f's the two paths' servers differ in digit 1 or 0 from each other's.
 */
static u32 xdc_other(u32 v)
{
	return v ? 0 : 1;	/* neither v nor n-1 (n >= 3) */
}

static bool xdc_dj_i5(const struct dp_topo *t, u32 src, u32 dst, u32 m,
		      u32 lvl, struct xdc_dj *p)
{
	const struct xdc_priv *d = xdc(t);
	u32 n = d->n, e, f, f2, f1, f0, x, j, v, y, h;
	bool ok;

	p->len = 0;
	if (n < 3 || d->k != 2 || d->top < 5 || m > 2 || lvl > 4)
		return false;
	e = xdc_low(t, src, 3) == d->pw[3] - 1 ? src : dst;
	f = src == e ? dst : src;
	x = e;
	if (xdc_low(t, e, 3) != d->pw[3] - 1 ||
	    xdc_low(t, f, 3) == d->pw[3] - 1 ||
	    xdc_dig(t, e, 3) == n - 1 ||
	    (lvl >= 3 && xdc_dig(t, f, 3) != n - 1) ||
	    (lvl == 4 && xdc_dig(t, f, 2) != n - 1))
		return false;
	f2 = xdc_dig(t, f, 2);
	f1 = xdc_dig(t, f, 1);
	f0 = xdc_dig(t, f, 0);
	if (lvl < 2 && (m != 2 || f0 == n - 1))
		return false;
	if (m == 2) {
		j = f0 == n - 1 && f1 == n - 1 ? 4 : 3;
		v = j == 4 ? (xdc_dig(t, e, 4) + 1) % n :
		    xdc_other(xdc_dig(t, e, 3));
		y = xdc_set_dig(t, e, 5, (xdc_dig(t, e, 5) + 1) % n);
		x = xdc_set_dig(t, e, j, v);
		if (lvl == 4)	/* and digit 4 := f's */
			x = xdc_set_dig(t, x, 4, xdc_dig(t, f, 4));
		ok = xdc_dj_put(p, 5, xdc_dig(t, y, 5)) &&
		     xdc_dj_route(t, y, xdc_set_dig(t, x, 5,
						    xdc_dig(t, y, 5)), p) &&
		     xdc_dj_put(p, 5, xdc_dig(t, e, 5));
		if (ok && f0 == n - 1 && (lvl < 3 || f2 != n - 1)) {
			ok = xdc_dj_route(t, x, xdc_set_dig(t, f, j, v), p) &&
			     xdc_dj_put(p, j, xdc_dig(t, f, j));
		} else if (ok) {
			/* through copy t of f's cell, into f over level 2 */
			y = x - xdc_low(t, x, 3) +
			    (f2 ? 0 : d->pw[2]) +
			    (f1 != n - 1 ? f1 : 0) * n + n - 1;
			ok = xdc_dj_route(t, x, y, p) &&
			     xdc_dj_put(p, 3, xdc_dig(t, f, 3));
			x = xdc_set_dig(t, y, 3, xdc_dig(t, f, 3));
			ok = ok && xdc_dj_bcube(t, &x, f0 != n - 1 ? f :
						xdc_set_dig(t, f, 0, 0), p) &&
			     xdc_dj_put(p, 2, f2) &&
			     (f0 != n - 1 || xdc_dj_put(p, 0, n - 1));
		}
	} else if (lvl >= 3) {
		/*
		 * Into f's cell at (n-1, y, n-1) over level 3: path 1 from
		 * e's column, path 0 from its row and column y; at lvl 4
		 * (f's copy of digit 2 is n-1) first across level 4 from
		 * (m, n-1, n-1) of e's cell into its twin of f's digit 4
		 * (path 0 over e's row and (0, n-1, 0), path 1 over its
		 * column and (1, 0, 0)) and there to (n-1, y, n-1) (path 0
		 * over (n-1, n-1, 0), path 1 over (1, y, 0)).  Then across
		 * into f's copy of digit 2 at digit 0 = v, to f from two
		 * sides.
		 */
		y = f1 != n - 1 ? f1 : 0;
		y = m ? y : xdc_other(y);
		v = f0 == n - 1 ? 0 : (f1 != n - 1) == (m == 1) ?
		    xdc_other(f0) : f0;
		ok = true;
#define XDC_I5(jj, vv) (ok = ok && xdc_dj_mv(t, &x, (jj), (vv), p))
		if (lvl == 4 && m) {
			XDC_I5(1, 0);
			XDC_I5(0, 0);
			XDC_I5(2, 1);
			XDC_I5(1, n - 1);
		} else if (lvl == 4) {
			XDC_I5(0, 0);
			XDC_I5(2, 0);
		}
		if (lvl == 4) {
			XDC_I5(0, n - 1);
			XDC_I5(4, xdc_dig(t, f, 4));
		}
		if (lvl == 4 || !m)
			XDC_I5(0, 0);
		if (lvl == 4 && !m)
			XDC_I5(2, n - 1);
		XDC_I5(1, y);
		if (lvl == 4 && m)
			XDC_I5(2, n - 1);
		if (lvl == 4 || !m)
			XDC_I5(0, n - 1);
		XDC_I5(3, n - 1);
		if (f2 != n - 1) {
			XDC_I5(0, v);
			XDC_I5(2, f2);
		}
#undef XDC_I5
		/* digit 0 first but path 0 when f's digit 1 is n-1 */
		for (h = 0; ok && h < 2; h++) {
			j = m || f1 != n - 1 ? h : 1 - h;
			if (xdc_dig(t, x, j) != xdc_dig(t, f, j))
				ok = xdc_dj_mv(t, &x, j, xdc_dig(t, f, j), p);
		}
		ok = ok && x == f;
	} else if (f0 != n - 1) {
		/* row and column (f1 not n-1), or level 2 and row */
		if (m)
			ok = xdc_dj_mv(t, &x, 1, f1 != n - 1 ? f1 : 0, p) &&
			     xdc_dj_mv(t, &x, 0, f1 != n - 1 ?
					xdc_other(f0) : f0, p);
		else
			ok = xdc_dj_mv(t, &x, 0, f1 != n - 1 ? f0 :
					xdc_other(f0), p);
		ok = ok && xdc_dj_mv(t, &x, 2, f2, p) &&
		     xdc_dj_bcube(t, &x, f, p);
	} else {
		/* f's row and column: digit 0 := 0, across, then to f */
		ok = (!m || xdc_dj_mv(t, &x, 1, xdc_other(f1), p)) &&
		     xdc_dj_mv(t, &x, 0, 0, p) && xdc_dj_mv(t, &x, 2, f2, p) &&
		     (m || f1 == n - 1 || xdc_dj_mv(t, &x, 1, f1, p)) &&
		     xdc_dj_mv(t, &x, 0, n - 1, p) &&
		     (!m || xdc_dj_mv(t, &x, 1, f1, p));
	}
	if (ok && e == dst)
		xdc_dj_reverse(t, dst, p, 0);
	return ok;
}

/*
 * Explicit paths need a state outside the words (b n^k + M, with the
 * source as waypoint) and one word switch to fall back on (a relay that
 * cannot take the next move goes on with XDCRouting, paid as a switch).
 */
static bool xdc_dj_usable(const struct dp_topo *t)
{
	const struct xdc_priv *d = xdc(t);

	return d->spare && d->switch_budget &&
	       (u32)d->b * d->nwords + d->npaths <= 0x10000;
}

/* The constructions before xdc_dj_k1()'s, at most ff_hops long. */
static bool xdc_dj_any(const struct dp_topo *t, u32 src, u32 dst, u32 lvl,
		       u32 m, struct xdc_dj *p)
{
	const struct xdc_priv *d = xdc(t);
	bool ok;

	/* an end 0111 (n = 2) or the I* of digits 2..0 (spare level 5) */
	if (xdc_dj_i5(t, src, dst, m, lvl, p) ||
	    xdc_dj_n2_lo5(t, src, dst, m, lvl, p))
		return p->len <= t->ff_hops;
	p->len = 0;
	if (lvl < d->b) {
		/* one spare level: xdc_disjoint()'s words */
		ok = m == d->k &&
		     xdc_spare_level(t, src) != xdc_spare_level(t, dst) &&
		     (xdc_dj_spare(t, src, dst, p) ||
		      xdc_dj_n2_e4(t, src, dst, m, lvl, p));
	} else if (lvl == d->k) {
		ok = d->n >= 3 ? xdc_dj_cellk(t, src, dst, m, p) :
		     xdc_dj_n2(t, src, dst, m, p) ||
		     xdc_dj_n2_e4(t, src, dst, m, lvl, p) ||
		     xdc_dj_n2k3(t, src, dst, m, lvl, p);
	} else {
		ok = lvl > d->k && d->n >= 3 ?
		     xdc_dj_cross(t, src, dst, lvl, m, p) :
		     xdc_dj_n2_up(t, src, dst, m, lvl, p) ||
		     xdc_dj_n2k3(t, src, dst, m, lvl, p);
	}
	return ok && p->len <= t->ff_hops;
}

/*
 * Disjoint path @m of @src -> @dst where the words cannot give it (see
 * the comment at the top); true with its moves in *@p, at most ff_hops.
 * k = 1: xdc_dj_k1()'s two paths where those before do not build both
 * (the other path built first: two builds where they do, three at most).
 */
static bool xdc_dj_build(const struct dp_topo *t, u32 src, u32 dst, u32 m,
			 struct xdc_dj *p)
{
	const struct xdc_priv *d = xdc(t);
	u32 lvl, c;

	p->len = 0;
	if (src >= t->nodes || dst >= t->nodes || src == dst ||
	    xdc_spare_level(t, src) > d->top ||
	    xdc_spare_level(t, dst) > d->top)
		return false;
	lvl = xdc_top_diff(t, src, dst, d->top);
	/* path m; with k = 1 above the BCube digits, path 1 - m first */
	for (c = d->k == 1 && lvl >= d->b ? 0 : 1; c < 2; c++)
		if (!xdc_dj_any(t, src, dst, lvl, c ? m : 1 - m, p))
			break;
	if (c == 2)
		return true;
	return xdc_dj_k1(t, src, dst, m, p) && p->len <= t->ff_hops;
}

/*
 * A hop of an explicit path (state b n^k + M, source in the waypoint, no
 * flags): rebuilt from (source, dst, M), found where we are on it, the
 * next move taken.  A header no sender builds (no such path, or we are
 * not on it) is bad_state.  A next hop we cannot reach: the path's word
 * (xdc_parallel()) with one word switch paid, and XDCRouting from here
 * (1: route again).  Bound: the path has at most F hops, so up to there
 * and then (S + W - 1 + 1) F + S at most: within max_hops.
 */
static int xdc_dj_hop(const struct dp_topo *t, u32 self,
		      struct dp_route_state *st, const struct dp_view *v,
		      struct dp_hop *hop)
{
	const struct xdc_priv *d = xdc(t);
	u32 m = st->word - d->b * d->nwords, src = st->waypoint, x, h, port;
	u32 w, r;
	struct xdc_dj p;

	if (m >= d->npaths || st->flags || !xdc_dj_usable(t) ||
	    !xdc_dj_build(t, src, st->dst, m, &p))
		return xdc_drop(hop, XDC_DROP_BAD_STATE);
	for (h = 0, x = src; h < p.len && x != self; h++)
		x = xdc_set_dig(t, x, p.j[h], p.v[h]);
	if (x != self || h == p.len)
		return xdc_drop(hop, XDC_DROP_BAD_STATE);
	x = xdc_set_dig(t, self, p.j[h], p.v[h]);
	port = p.j[h] < d->b ? p.j[h] : d->k;
	if (port == d->k && xdc_port_level(t, self, port) != p.j[h])
		return xdc_drop(hop, XDC_DROP_BAD_STATE);	/* no such cable */
	if (dp_view_reachable(v, self, port, x)) {
		xdc_hop(hop, x, port, x == st->dst ? DP_PHASE_DIRECT :
			port < d->b ? XDC_PHASE_BCUBE : XDC_PHASE_CROSS);
		return 0;
	}
	xdc_parallel(t, src, st->dst, m, &w, &r);
	st->word = (u16)(r * d->nwords + w);
	st->waypoint = DP_NODE_NONE;
	st->flags = 1 << XDC_FL_SWITCH_SHIFT;
	return 1;
}

/* The next valid path word after @w, cyclically. */
static u32 xdc_next_word(const struct dp_topo *t, u32 w)
{
	do {
		if (++w == xdc(t)->nwords)
			w = 0;
	} while (!xdc_word_valid(t, w));
	return w;
}

/*
 * The entry word of @dst: its digits L-1..L-k, L its spare level, with
 * which the level-L gate of every other member of its spare switch is
 * that member itself (its digits below L are dst's): from there the
 * crossing lands on dst.  Always valid (digit L-k is not n-1).  0, or -1
 * when dst's spare port is free.
 */
static int xdc_entry_word(const struct dp_topo *t, u32 dst, u32 *w)
{
	const struct xdc_priv *d = xdc(t);
	u32 lvl = xdc_spare_level(t, dst), j;

	if (!d->spare || lvl > d->top)
		return -1;
	*w = 0;
	for (j = d->k; j-- > 0;)
		*w = *w * d->n + xdc_dig(t, dst, lvl - d->k + j);
	return 0;
}

/*
 * Destination entry: the destination, one digit away on a switch where
 * we reach other members, does not answer there (its link to that
 * switch is down), so go in through its spare switch: waypoint T, the
 * member of that switch whose digit L is dst's + 1, reached with a word
 * other than dst's entry word (so that no gate on the way is dst itself);
 * at T the word becomes the entry word and T's gate is T: one crossing to
 * dst.  Paid as a sideways hop.  Bound: the entry takes no hop, and the
 * segment from T is one hop (or a blocked crossing: a counted event), so
 * with E >= 1 entries among the S sideways events a path has at most
 * (S + W + 1) F + (S - E) + 1 hops, within the bound; a header carrying
 * a waypoint must have paid a sideways hop (else bad_state).
 * 1 when the waypoint is set (route again), 0 when not applicable, -1
 * when applicable but impossible.
 */
static int xdc_dst_entry(const struct dp_topo *t, u32 self,
			 struct dp_route_state *st, const struct dp_view *v,
			 u32 seg, u32 r, u32 side)
{
	const struct xdc_priv *d = xdc(t);
	u32 j, val, a, we, wo, lvl, peer;
	bool heard = false;

	if (!d->spare || seg != st->dst || st->waypoint != DP_NODE_NONE)
		return 0;
	for (j = 0; j < d->b; j++)
		if (xdc_dig(t, self, j) != xdc_dig(t, seg, j))
			break;
	a = xdc_dig(t, self, j);
	for (val = 0; val < d->n && !heard; val++)
		if (val != a && val != xdc_dig(t, seg, j))
			heard = dp_view_reachable(v, self, j,
						  xdc_set_dig(t, self, j, val));
	if (!heard || xdc_entry_word(t, st->dst, &we))
		return 0;
	wo = xdc_next_word(t, we);
	if (wo == we)
		return -1;
	lvl = xdc_spare_level(t, st->dst);
	val = xdc_dig(t, st->dst, lvl) + 1;
	peer = xdc_set_dig(t, st->dst, lvl, val == d->n ? 0 : val);
	st->waypoint = peer;
	st->word = (u16)(r * d->nwords + wo);
	st->flags = (st->flags & ~(XDC_FL_DEFER_MASK | XDC_FL_SIDE_MASK)) |
		    ((side + 1) << XDC_FL_SIDE_SHIFT);
	return 1;
}

/*
 * The last resort of a blocked segment toward the destination, when no
 * BCube digit can move (XDCent with k = 1 has one BCube level: a dead
 * port-0 link between two servers of one switch leaves no sideways
 * digit): a sideways hop through our spare port, to U (digit L = our
 * spare level changed), with a new path word whose level-L gate is not U
 * itself, else U's route would cross straight back to us.  U and the
 * destination differ in digit L and in digits below b, so from U the
 * route goes to U's gate, crosses back at level L to a server other than
 * us (its digits L-1..L-k are the word's) and corrects the rest.  The
 * word: the destination's digits L-1..L-k when valid and not ours (the
 * landing is then the destination itself when its spare level is L), else
 * the next valid word after ours.  Counted as a sideways hop: the bound
 * (S + W + 1) F + S holds as for the others (one hop, then failure-free
 * XDCRouting toward a fixed target).  0 with *@hop, or -1.
 */
static int xdc_spare_sideways(const struct dp_topo *t, u32 self,
			      struct dp_route_state *st,
			      const struct dp_view *v, u32 target, u32 r,
			      u32 side, struct dp_hop *hop)
{
	const struct xdc_priv *d = xdc(t);
	u32 lvl = xdc_port_level(t, self, d->k), own, w, val, next, j;

	if (!d->spare || lvl == DP_NODE_NONE)
		return -1;
	own = 0;
	w = 0;
	for (j = d->k; j-- > 0;) {
		own = own * d->n + xdc_dig(t, self, lvl - d->k + j);
		w = w * d->n + xdc_dig(t, target, lvl - d->k + j);
	}
	if (w == own || !xdc_word_valid(t, w))
		w = xdc_next_word(t, own);
	if (w == own)
		return -1;	/* one valid word (n = 2, k = 1): no other gate */
	for (val = 0; val < d->n; val++) {
		if (val == xdc_dig(t, self, lvl))
			continue;
		next = xdc_set_dig(t, self, lvl, val);
		if (!dp_view_reachable(v, self, d->k, next))
			continue;
		st->word = (u16)(r * d->nwords + w);
		st->flags = (st->flags & ~(XDC_FL_DEFER_MASK | XDC_FL_SIDE_MASK)) |
			    ((side + 1) << XDC_FL_SIDE_SHIFT);
		xdc_hop(hop, next, d->k, XDC_PHASE_SIDEWAYS);
		return 0;
	}
	return -1;
}

int dp_xdcent_route(const struct dp_topo *t, u32 self,
		    struct dp_route_state *st, const struct dp_view *v,
		    struct dp_hop *hop)
{
	const struct xdc_priv *d = xdc(t);
	u32 r, w, seg, next, lvl, i, j, defer, side, sw, val, a, nd, target;
	u8 phase = XDC_PHASE_BCUBE;
	bool agree, first;

	if (self >= t->nodes || st->dst >= t->nodes)
		return xdc_drop(hop, DP_DROP_ROUTE_BAD_ADDR);
	if (self == st->dst)
		return xdc_drop(hop, DP_DROP_ROUTE_AT_DST);
	if (d->spare && st->word >= d->b * d->nwords) {
		/* An explicit path; left for XDCRouting on a failure. */
		int rc = xdc_dj_hop(t, self, st, v, hop);

		if (rc != 1)
			return rc;
		phase = XDC_PHASE_SWITCHED;
	}
restart:
	r = dp_rdiv(st->word, d->rw);
	w = st->word - r * d->nwords;
	if (r >= d->b || !xdc_word_valid(t, w))
		return xdc_drop(hop, XDC_DROP_BAD_STATE);
	/*
	 * A deferred digit is a sideways hop's: without a sideways budget
	 * route_init never sets one, and one off the wire would stretch
	 * every segment past the bound (fuzz_route, XDCent (7,2,7)).
	 */
	defer = d->side_budget ? st->flags & XDC_FL_DEFER_MASK : 0;
	side = (st->flags & XDC_FL_SIDE_MASK) >> XDC_FL_SIDE_SHIFT;
	sw = (st->flags & XDC_FL_SWITCH_MASK) >> XDC_FL_SWITCH_SHIFT;
	/*
	 * Only a destination entry, paid as a sideways hop within the
	 * budget, sets one: a waypoint with no sideways budget (S = 0 when
	 * F > 84) would add a second F-hop segment past the bound
	 * (fuzz_route, XDCent (21,2,6)).
	 */
	if (st->waypoint != DP_NODE_NONE) {
		if (!d->spare || !side || side > d->side_budget ||
		    st->waypoint >= t->nodes)
			return xdc_drop(hop, XDC_DROP_BAD_STATE);
		if (st->waypoint == self) {
			st->waypoint = DP_NODE_NONE;
			if (!xdc_entry_word(t, st->dst, &w))
				st->word = (u16)(r * d->nwords + w);
		}
	}
	target = st->waypoint != DP_NODE_NONE ? st->waypoint : st->dst;
	/*
	 * Each pass returns, takes one word switch or gives the waypoint
	 * up: at most W + 2.
	 */
	for (;;) {
		if (xdc_resolve(t, self, target, w, &seg, &next, &lvl)) {
			if (dp_view_reachable(v, self, d->k, next)) {
				xdc_hop(hop, next, d->k, next == st->dst ?
					DP_PHASE_DIRECT : phase ==
					XDC_PHASE_SWITCHED ? phase :
					XDC_PHASE_CROSS);
				return 0;
			}
		} else {
			/* A detour opened by route_init: digit defer-1 first. */
			j = defer - 1;
			if (defer && defer <= d->b && !side &&
			    xdc_dig(t, self, j) == xdc_dig(t, seg, j)) {
				a = xdc_dig(t, self, j) + 1;
				next = xdc_set_dig(t, self, j,
						   a == d->n ? 0 : a);
				if (dp_view_reachable(v, self, j, next)) {
					st->flags = (st->flags &
						     ~XDC_FL_SIDE_MASK) |
						    (1 << XDC_FL_SIDE_SHIFT);
					xdc_hop(hop, next, j,
						XDC_PHASE_SIDEWAYS);
					return 0;
				}
			}
			/* Rotation order from r, the deferred digit last. */
			for (i = 0, j = r; i <= d->b; i++) {
				if (i == d->b) {
					if (!defer || defer > d->b)
						break;
					j = defer - 1;
				} else if (j + 1 == defer) {
					goto rot;
				}
				a = xdc_dig(t, seg, j);
				if (xdc_dig(t, self, j) != a) {
					next = xdc_set_dig(t, self, j, a);
					if (dp_view_reachable(v, self, j,
							      next)) {
						xdc_hop(hop, next, j,
							next == st->dst ?
							DP_PHASE_DIRECT : phase);
						return 0;
					}
				}
rot:
				j = j ? j - 1 : d->b - 1;
			}
			if (seg == target && target == st->waypoint &&
			    side < d->side_budget) {
				/*
				 * The waypoint is dead or cut off: give it
				 * up for the destination, paid as a sideways
				 * hop, with the next path word when a switch
				 * is left (else the same word).
				 */
				st->waypoint = DP_NODE_NONE;
				target = st->dst;
				side++;
				st->flags = (st->flags & ~XDC_FL_SIDE_MASK) |
					    (side << XDC_FL_SIDE_SHIFT);
				if (sw >= d->switch_budget)
					continue;
			} else if (seg == target || sw >= d->switch_budget) {
				goto sideways;
			}
		}
		if (sw >= d->switch_budget)
			return xdc_drop(hop, XDC_DROP_BUDGET);
		sw++;
		w = xdc_next_word(t, w);
		st->word = (u16)(r * d->nwords + w);
		st->flags = (st->flags & ~XDC_FL_SWITCH_MASK) |
			    (sw << XDC_FL_SWITCH_SHIFT);
		phase = XDC_PHASE_SWITCHED;
	}
sideways:
	if (side >= d->side_budget)
		return xdc_drop(hop, XDC_DROP_BUDGET);
	/*
	 * A digit that agrees with the segment target first, then any.  When
	 * one digit differs, a sideways hop along it stays on the switch
	 * whose member we cannot reach: our spare port first (below).
	 */
	nd = 0;
	for (j = 0; j < d->b; j++)
		nd += xdc_dig(t, self, j) != xdc_dig(t, seg, j);
	for (i = 0; i < 2 * d->b; i++) {
		j = i < d->b ? i : i - d->b;
		if (i == d->b && nd == 1) {
			a = xdc_dst_entry(t, self, st, v, seg, r, side);
			if (a == 1)
				goto restart;
			if (!a && !xdc_spare_sideways(t, self, st, v, target,
						      r, side, hop))
				return 0;
		}
		a = xdc_dig(t, self, j);
		agree = a == xdc_dig(t, seg, j);
		first = i < d->b;
		if (agree != first)
			continue;
		for (val = 0; val < d->n; val++) {
			if (val == a || val == xdc_dig(t, seg, j))
				continue;
			next = xdc_set_dig(t, self, j, val);
			if (!dp_view_reachable(v, self, j, next))
				continue;
			st->flags = (st->flags & ~(XDC_FL_DEFER_MASK |
						   XDC_FL_SIDE_MASK)) |
				    (j + 1) | ((side + 1) << XDC_FL_SIDE_SHIFT);
			xdc_hop(hop, next, j, XDC_PHASE_SIDEWAYS);
			return 0;
		}
	}
	if (!xdc_spare_sideways(t, self, st, v, target, r, side, hop))
		return 0;
	return xdc_drop(hop, XDC_DROP_BUDGET);
}
EXPORT_SYMBOL_IF_KUNIT(dp_xdcent_route);

static const struct dp_phase_desc xdc_phases[XDC_PHASE_COUNT] = {
	[DP_PHASE_NONE]		= { "none" },
	[DP_PHASE_DIRECT]	= { "direct" },
	[XDC_PHASE_BCUBE]	= { "bcube" },
	[XDC_PHASE_CROSS]	= { "cross" },
	[XDC_PHASE_SIDEWAYS]	= { "sideways", 1 },
	[XDC_PHASE_SWITCHED]	= { "switched", 2 },
};

static const char *const xdc_drops[XDC_DROP_COUNT] = {
	[DP_DROP_ROUTE_NONE]	= "none",
	[DP_DROP_ROUTE_BAD_ADDR] = "bad_addr",
	[DP_DROP_ROUTE_AT_DST]	= "at_dst",
	[XDC_DROP_BAD_STATE]	= "bad_state",
	[XDC_DROP_BUDGET]	= "budget",
};

static const char *const xdc_detours[DP_DETOUR_SLOTS] = {
	"sideways_hops", "word_switches",
};

/*
 * Routing modes: "hash" spreads flows over the parallel paths, "paper"
 * is path word 0 with the highest digit corrected first, "near" the
 * shortest of the earlier parallel paths (path word from the
 * destination's digits), "rot" spreads flows over the earlier parallel
 * paths (the construction before the disjoint ones, kept to reproduce
 * it), "pM" pins parallel path M (modulo k + 1).
 */
static const char *const xdc_sel_names[] = {
	"hash", "paper", "near", "rot", "p0", "p1", "p2", "p3", "p4", "p5", "p6",
	"p7", "p8", "p9", "p10", "p11", "p12", NULL,
};

/*
 * What the device shows of the fabric: n and k always, the top level
 * where XDCent has one (BCube's is 0: not given, not shown).
 */
static const struct dp_topo_param xdc_params[] = {
	DP_TOPO_PARAM(n, DP_PARAM_REQUIRED, NULL),
	DP_TOPO_PARAM(k, DP_PARAM_REQUIRED, NULL),
	DP_TOPO_PARAM(level, 0, NULL),
};

/* Everything but the name, kind and parameter check is shared. */
#define XDC_OPS_COMMON					\
	.phases = xdc_phases,				\
	.nphases = XDC_PHASE_COUNT,			\
	.drops = xdc_drops,				\
	.ndrops = XDC_DROP_COUNT,			\
	/* bad_state: a header no sender builds */	\
	.fallback_drops = 1U << XDC_DROP_BUDGET,	\
	.detours = xdc_detours,				\
	.sel_names = xdc_sel_names,			\
	.describe = xdc_describe,			\
	.addr_parse = xdc_addr_parse,			\
	.addr_format = xdc_addr_format,			\
	.port_info = xdc_port_info,			\
	.port_neigh = xdc_port_neigh,			\
	.port_neigh_index = dp_xdcent_port_neigh_index,	\
	.peer_port = xdc_peer_port,			\
	.route_init = dp_xdcent_route_init,		\
	.route = dp_xdcent_route,			\
	.npaths = xdc_npaths,				\
	.path_init = xdc_path_init,			\
	.params = xdc_params,				\
	.nparams = ARRAY_SIZE(xdc_params)

const struct dp_topo_ops dp_xdcent_ops = {
	.name = "xdcent",
	.kind = DP_TOPO_XDCENT,
	.init = xdc_init,
	XDC_OPS_COMMON,
};
EXPORT_SYMBOL_IF_KUNIT(dp_xdcent_ops);

const struct dp_topo_ops dp_bcube_ops = {
	.name = "bcube",
	.kind = DP_TOPO_BCUBE,
	.init = bcube_init,
	XDC_OPS_COMMON,
};
EXPORT_SYMBOL_IF_KUNIT(dp_bcube_ops);
