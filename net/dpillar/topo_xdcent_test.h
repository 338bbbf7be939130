/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pairs XDCent's explicit disjoint paths are built for, from the
 * digits alone (topo_xdcent.c, "Explicit paths"): the oracle of the two
 * suites that check them, KUnit's (topo_xdcent_test.c) and dpsim's
 * (tools/dpsim/tests/test_xdcent.c), written once for both.
 */
#ifndef _DPILLAR_TOPO_XDCENT_TEST_H
#define _DPILLAR_TOPO_XDCENT_TEST_H

#include "topo_xdcent.h"

/*
 * An end of a pair above k (highest differing digit @hi) that the
 * explicit paths take: its cell's I* is a level-@hi gate (digit @hi - k
 * not n-1), or @hi - k < k and it is not that I* (two servers of its cell
 * reach level @hi - k).
 */
static inline bool xdc_test_gate_end(const struct dp_topo *t, u32 x, u32 hi)
{
	u32 q = hi - xdc(t)->k, j;

	if (xdc_digit(t, x, q) != xdc(t)->n - 1)
		return true;
	if (q >= xdc(t)->k)
		return false;
	for (j = 0; j < q; j++)
		if (xdc_digit(t, x, j) != xdc(t)->n - 1)
			return true;
	return false;
}

/*
 * @x, whose digits above @hi are the pair's, crosses to digit @hi = @v
 * from its cell's I* (digits below @hi - k all n-1): a level-@hi gate,
 * or out through its cabled spare port and back into the twin with
 * digit @hi = @v, which has the same spare level.
 */
static inline bool xdc_test_twin(const struct dp_topo *t, u32 x, u32 hi,
				 u32 v)
{
	u32 q = hi - xdc(t)->k, j, l;

	for (j = 0; j < q; j++)
		x = xdc_set_digit(t, x, j, xdc(t)->n - 1);
	l = xdc_spare_level(t, x);
	return l == hi ||
	       (l <= xdc(t)->top &&
		xdc_spare_level(t, xdc_set_digit(t, x, hi, v)) == l);
}

/*
 * A pair (k >= 2) whose end @e crosses from no server of its own and
 * whose other end @o does: at k, @e its copy's I* with digit k not n-1
 * and @o in the copy of digit k n-1, crossing into e's (a third copy,
 * xdc_dj_cellk()); at k + 1, @o a level-k gate whose digits 1..k-1 are
 * n-1 and @e's digits 0 and 1 n-1, crossing out and back into o's copy
 * (xdc_dj_top1()).
 */
static inline bool xdc_test_third(const struct dp_topo *t, u32 o, u32 e,
				  u32 hi)
{
	u32 k = xdc(t)->k, n = xdc(t)->n, j;

	if (k < 2 || (hi != k && hi != k + 1))
		return false;
	if (hi == k) {
		for (j = 0; j < k; j++)
			if (xdc_digit(t, e, j) != n - 1)
				return false;
		return xdc_digit(t, e, k) != n - 1 &&
		       xdc_digit(t, o, k) == n - 1 &&
		       xdc_test_twin(t, o, k, xdc_digit(t, e, k));
	}
	if (xdc_digit(t, o, 0) == n - 1 || xdc_digit(t, e, 0) != n - 1 ||
	    xdc_digit(t, e, 1) != n - 1)
		return false;
	for (j = 1; j < k; j++)
		if (xdc_digit(t, o, j) != n - 1)
			return false;
	return xdc_test_twin(t, e, hi, xdc_digit(t, o, hi));
}

/*
 * An end of a pair above k (highest differing digit @hi, q = @hi - k >=
 * k) that the two-strand fan takes when no out-and-back serves: its
 * cell's I* is a level-@hi gate, or one of its digits q - k, q - 2k, ...
 * is not n-1 (counted down from q - k while they are n-1), or q = k and
 * its run of trailing n-1 digits is 1 .. k-1 long, or q = 3 with k = 2
 * and x not its sub-cell's I* (xdc_fan1()).
 */
static inline bool xdc_test_fan2_end(const struct dp_topo *t, u32 x, u32 hi)
{
	u32 k = xdc(t)->k, n = xdc(t)->n, q = hi - k, r;
	int j;

	if (xdc_digit(t, x, q) != n - 1)
		return true;
	for (j = (int)q - (int)k; j >= 0; j -= (int)k)
		if (xdc_digit(t, x, (u32)j) != n - 1)
			return true;
	if (q == 3 && k == 2)	/* xdc_fan1(): digit 1 n-1, x not I* */
		return xdc_digit(t, x, 0) != n - 1 ||
		       xdc_digit(t, x, 2) != n - 1;
	if (q != k)
		return false;
	for (r = 0; r < k && xdc_digit(t, x, r) == n - 1; r++)
		;
	return r >= 1 && r < k;
}

/*
 * n = 2, k = 2, both spare ports cabled, highest differing digit @hi:
 * at k, both ends of spare level 2 or 3 (xdc_dj_n2()); with top >= 4, at
 * k + 1 neither end with digits 2..0 111 but 0111 (spare level 5,
 * xdc_dj_n2_e5()), with top >= 5 at k + 2 neither
 * with digits 3..0 1111 (xdc_dj_n2_up()), and at or
 * below k an end 011 (spare level 4) and the other with digit 2 = 1 at k
 * (not 111), in its cycle with digit 0 = 0 below k (xdc_dj_n2_e4());
 * with top >= 5, at or below k an end 0111 (spare level 5) and any other
 * (xdc_dj_n2_lo5()).
 */
static inline bool xdc_test_n2(const struct dp_topo *t, u32 s, u32 d,
			       u32 hi)
{
	u32 top = xdc(t)->top, ls = 0, ld = 0, o, j;

	for (j = 3; j-- > 0;) {
		ls = ls * 2 + xdc_digit(t, s, j);
		ld = ld * 2 + xdc_digit(t, d, j);
	}
	if (hi == 2 && top >= 3 && xdc_spare_level(t, s) <= 3 &&
	    xdc_spare_level(t, d) <= 3)
		return true;
	if (top < 4)
		return false;
	if (hi <= 2 && top >= 5 &&
	    ((ls == 7 && !xdc_digit(t, s, 3)) ||
	     (ld == 7 && !xdc_digit(t, d, 3))))
		return true;
	if (hi == 3)	/* 111 only as 0111 (spare level 5) */
		return (ls != 7 || xdc_spare_level(t, s) == 5) &&
		       (ld != 7 || xdc_spare_level(t, d) == 5) &&
		       (ls != 7 || ld != 7);
	if (hi == 4)	/* digits 3..0 not 1111 */
		return top >= 5 && (ls != 7 || xdc_digit(t, s, 3) != 1) &&
		       (ld != 7 || xdc_digit(t, d, 3) != 1);
	if (hi > 2 || (ls != 3 && ld != 3))
		return false;
	o = ls == 3 ? ld : ls;
	return hi == 2 ? o >= 4 && o <= 6 : o == 0 || o == 2;
}

/*
 * The pairs with explicit disjoint paths (n >= 3, both spare ports
 * cabled): highest differing digit k or above with both ends as
 * xdc_test_gate_end() says (above k), or each end's I* crossing into the
 * other's copy (xdc_test_twin()), or one end as xdc_test_third() says,
 * or else, at 2k and above, both ends as
 * xdc_test_fan2_end() says, or a BCube pair of two spare levels
 * la < lb with lb - k <= la (la not inside the other's run of trailing
 * n-1 digits).  At k, the pairs of two level-k gates are those of the
 * path words, with the explicit ones here: all of them disjoint.  With
 * k = 1, every pair (xdc_dj_k1() builds those the others leave out).
 * With n = 2, k = 2: xdc_test_n2(); k = 3: at k, k + 1 and k + 2,
 * neither end with digits 2..0 111 (spare level 6 or none;
 * xdc_dj_n2k3(), xdc_dj_n2k3_5()).
 */
static inline bool xdc_test_dj_case(const struct dp_topo *t, u32 s, u32 d)
{
	u32 k = xdc(t)->k, n = xdc(t)->n, top = xdc(t)->top, hi, ls, ld;

	ls = xdc_spare_level(t, s);
	ld = xdc_spare_level(t, d);
	if (ls > top || ld > top)
		return false;
	for (hi = top; hi > 0; hi--)
		if (xdc_digit(t, s, hi) != xdc_digit(t, d, hi))
			break;
	if (n < 3 && k == 3)	/* xdc_dj_n2k3(): k .. k + 2, not ending in 111 */
		return hi >= 3 && hi <= 5 && ls <= 5 && ld <= 5;
	if (n < 3)
		return k == 2 && xdc_test_n2(t, s, d, hi);
	if (k == 1)
		return true;
	if (hi > k && xdc_test_gate_end(t, s, hi) &&
	    xdc_test_gate_end(t, d, hi))
		return true;
	if (hi >= k && xdc_test_twin(t, s, hi, xdc_digit(t, d, hi)) &&
	    xdc_test_twin(t, d, hi, xdc_digit(t, s, hi)))
		return true;
	if (xdc_test_third(t, s, d, hi) || xdc_test_third(t, d, s, hi))
		return true;
	if (hi >= k)
		return hi >= 2 * k && xdc_test_fan2_end(t, s, hi) &&
		       xdc_test_fan2_end(t, d, hi);
	if (ls == ld)
		return false;
	return ls < ld ? ld - k <= ls : ls - k <= ld;
}

#endif /* _DPILLAR_TOPO_XDCENT_TEST_H */
