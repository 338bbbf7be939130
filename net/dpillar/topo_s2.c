// SPDX-License-Identifier: GPL-2.0
/*
 * topo_s2.c - Space Shuffle (S2) coordinates and greediest routing.
 *
 * See topo_s2.h.  No allocation, no locks, no floating point, no 64-bit
 * division: the slot width is one u32 division per call.
 */
#include "topo_s2.h"

u32 dp_s2_mcd(const u32 *x, const u32 *y, u32 d)
{
	u32 i, m = 0xffffffffU;

	for (i = 0; i < d; i++) {
		u32 c = dp_s2_cd(x[i], y[i]);

		if (c < m)
			m = c;
	}
	return m;
}
EXPORT_SYMBOL_IF_KUNIT(dp_s2_mcd);

static u32 dp_s2_round(u32 seed, u32 space, u32 r, u32 v)
{
	return dp_fmix32(v ^ dp_fmix32(seed ^ (space << 8) ^ r ^
					 0x9e3779b9U));
}

/* Bits of the Feistel domain: even, 2^bits >= nodes (so < 4 * nodes). */
static u32 dp_s2_bits(u32 nodes)
{
	u32 b = 2;

	while (b < 32 && (1U << b) < nodes)
		b += 2;
	return b;
}

/*
 * A seeded permutation of [0, 2^bits): four Feistel rounds on two halves
 * of bits/2 bits (each round is a bijection whatever its function is).
 * @inv runs it backwards.
 */
static u32 dp_s2_feistel(u32 seed, u32 space, u32 bits, u32 v, bool inv)
{
	u32 h = bits / 2, mask = (1U << h) - 1;
	u32 l = v >> h, r = v & mask;
	int i;

	for (i = 0; i < 4; i++) {
		u32 rr = inv ? 3 - i : i;

		if (!inv) {
			u32 t = r;

			r = (l ^ dp_s2_round(seed, space, rr, r)) & mask;
			l = t;
		} else {
			u32 t = l;

			l = (r ^ dp_s2_round(seed, space, rr, l)) & mask;
			r = t;
		}
	}
	return (l << h) | r;
}

/*
 * Cycle walking restricts the permutation to [0, nodes): apply it until
 * the value falls inside.  It ends (the cycle through @id comes back to
 * @id, which is inside), after fewer than 4 steps on average since the
 * domain is below 4 * nodes, and after at most 2^bits - nodes steps.
 */
static u32 dp_s2_perm(u32 seed, u32 nodes, u32 v, u32 space, bool inv)
{
	u32 bits = dp_s2_bits(nodes);

	if (!nodes || nodes > DP_S2_NODES_MAX || v >= nodes)
		return 0;	/* outside the contract: any valid slot */

	do
		v = dp_s2_feistel(seed, space, bits, v, inv);
	while (v >= nodes);
	return v;
}

u32 dp_s2_slot(u32 seed, u32 nodes, u32 id, u32 space)
{
	return dp_s2_perm(seed, nodes, id, space, false);
}
EXPORT_SYMBOL_IF_KUNIT(dp_s2_slot);

u32 dp_s2_slot_node(u32 seed, u32 nodes, u32 slot, u32 space)
{
	return dp_s2_perm(seed, nodes, slot, space, true);
}
EXPORT_SYMBOL_IF_KUNIT(dp_s2_slot_node);

u32 dp_s2_min_gap(u32 nodes)
{
	u32 q;

	if (!nodes || nodes > DP_S2_NODES_MAX)
		return 0;
	q = 0xffffffffU / (3 * nodes);

	/* ceil(2^32 / 3n) is floor((2^32 - 1) / 3n) + 1 unless 3n | 2^32 */
	return q + 1;
}
EXPORT_SYMBOL_IF_KUNIT(dp_s2_min_gap);

/*
 * Slot s spans [s * w, (s + 1) * w) with w = floor((2^32 - 1) / nodes);
 * the node sits at s * w + j with 0 <= j <= w - gap.  Two nodes in
 * neighbouring slots are then at least w - (w - gap) = gap apart, and the
 * last slot ends at nodes * w <= 2^32 - 1, at least w before the first
 * slot's start wraps round: the least distance is gap >= 2^32 / (3n).
 * w >= 3 * gap - 3 for nodes >= 1, so the offset range is not empty for
 * nodes <= DP_S2_NODES_MAX.
 */
u32 dp_s2_coord(u32 seed, u32 nodes, u32 id, u32 space)
{
	u32 w, span, j;

	if (!nodes || nodes > DP_S2_NODES_MAX || id >= nodes)
		return 0;
	w = 0xffffffffU / nodes;
	span = w - dp_s2_min_gap(nodes) + 1;
	j = dp_s2_round(seed, space, 0x5e, id) % span;

	return dp_s2_slot(seed, nodes, id, space) * w + j;
}
EXPORT_SYMBOL_IF_KUNIT(dp_s2_coord);

int dp_s2_greedy(const u32 *self, const u32 *dst, u32 d,
		 const struct dp_s2_cand *c, u32 n, u32 rule, u32 *best)
{
	u32 ms = dp_s2_mcd(self, dst, d);
	u32 i, m = ms;
	int pick = -1;

	for (i = 0; i < n; i++) {
		u32 mc;

		if (c[i].two_hop) {
			if (rule == DP_S2_RULE_1HOP)
				continue;
			if (c[i].via >= n || c[c[i].via].two_hop)
				continue;
			if (rule == DP_S2_RULE_2HOP_SIM &&
			    dp_s2_mcd(c[c[i].via].x, dst, d) >= ms)
				continue;
		}
		mc = dp_s2_mcd(c[i].x, dst, d);
		if (mc < m) {
			m = mc;
			pick = c[i].two_hop ? (int)c[i].via : (int)i;
		}
	}
	if (best)
		*best = m;
	return pick;
}
EXPORT_SYMBOL_IF_KUNIT(dp_s2_greedy);

int dp_s2_first_hop(const u32 *self, const u32 *dst, u32 d,
		    const struct dp_s2_cand *c, u32 n, u32 hash)
{
	u32 ms = dp_s2_mcd(self, dst, d);
	u32 i, cnt = 0, k;

	for (i = 0; i < n; i++)
		if (!c[i].two_hop && dp_s2_mcd(c[i].x, dst, d) < ms)
			cnt++;
	if (!cnt)
		return -1;
	k = dp_fmix32(hash) % cnt;
	for (i = 0; i < n; i++)
		if (!c[i].two_hop && dp_s2_mcd(c[i].x, dst, d) < ms && !k--)
			return i;
	return -1;
}
EXPORT_SYMBOL_IF_KUNIT(dp_s2_first_hop);

void dp_s2_key_coords(const u8 *key, u32 len, u32 d, u32 *x)
{
	u32 h = 0x811c9dc5U, i;

	for (i = 0; i < len; i++) {
		h ^= key[i];
		h *= 0x01000193U;
	}
	for (i = 0; i < d; i++)
		x[i] = dp_fmix32(h ^ dp_fmix32(0x6b657900U + i));
}
EXPORT_SYMBOL_IF_KUNIT(dp_s2_key_coords);

/*
 * Derived coordinates put node slot(id) inside [slot * w, slot * w + w -
 * gap], so a point x in [s * w, (s + 1) * w) is less than w from the node
 * of slot s and more than w from any slot two or more away: the closest
 * node is in slot s - 1, s or s + 1 (the last slot also owns the few
 * points past nodes * w).  Ties go to the lower id.
 */
u32 dp_s2_home(u32 seed, u32 nodes, u32 x, u32 space)
{
	u32 w, s, i, best = 0, bd = 0xffffffffU;

	if (!nodes || nodes > DP_S2_NODES_MAX)
		return 0;
	w = 0xffffffffU / nodes;
	s = x / w;
	if (s >= nodes)
		s = nodes - 1;
	for (i = 0; i < 3; i++) {
		u32 id = dp_s2_slot_node(seed, nodes,
					 (s + nodes - 1 + i) % nodes, space);
		u32 c = dp_s2_cd(dp_s2_coord(seed, nodes, id, space), x);

		if (c < bd || (c == bd && id < best)) {
			bd = c;
			best = id;
		}
	}
	return best;
}
EXPORT_SYMBOL_IF_KUNIT(dp_s2_home);
