// SPDX-License-Identifier: GPL-2.0
/*
 * topo_dpillar.c - DPillar: addressing, wiring, SRoute and FTRoute.
 *
 * An (n, k) DPillar has h = n/2, k server columns H_0..H_{k-1} and k switch
 * columns S_0..S_{k-1} on a cycle.  A server is (C, L), label
 * L = v_{k-1}..v_0 with v_i < h; its node id is C * h^k + L with
 * L = sum(v_i * h^i).  A switch of S_c joins the h servers of H_c and the h
 * servers of H_{c+1} whose labels agree on every symbol except symbol c.
 * Port 0 of (C, L) is on S_C, port 1 on S_{C-1}.
 *
 * Routing follows Algorithms 1 and 2 of the DPillar paper, with these
 * decisions (all checked exhaustively by tools/dpsim/tests):
 *
 * - Direct delivery: the destination is delivered to directly whenever it
 *   shares a switch with us.  The paper's test (read with "<= 1") misses
 *   one case: a server of our own column whose label differs only in
 *   symbol C-1 sits on our port-1 switch.  We include it; it only shortens
 *   paths and keeps the bound.
 * - Initial helix direction: the paper defaults to D = +1.  dp_route_init()
 *   computes the failure-free path length both ways (at most k + k/2 cheap
 *   steps each) and keeps the shorter, ties clockwise.
 * - Ring phase: shorter way, clockwise if (Cd - Cs) mod k <= floor(k/2).
 * - FTRoute: a blocked helix hop first tries a Prop. IV.1 tunnel (IV.3 is
 *   the same rule in the counter-clockwise direction), then a Prop. IV.2
 *   u-turn if the direction was never changed, else the packet is dropped.
 *   A packet that started counter-clockwise is handled by symmetry.
 *   The tunnel middle may re-pick the waypoint among the servers the
 *   proposition allows when the chosen one is unreachable.  The ring
 *   reverses once; unlike a literal reading of Algorithm 2 (which drops in
 *   the ring if *the helix* direction was ever changed) the ring has its
 *   own flag: the ring phase keeps label Ld, so a reversed ring never meets
 *   the helix again and one reversal cannot loop.
 * - Tunnels are limited to DPP_FT_MAX_TUNNELS per packet.  The paper proves
 *   loop freedom for one failure only; with several failures a packet can
 *   tunnel again at every turn.  The budget makes every path finite.
 */
#include <linux/dpillar.h>

#include "topo_dpillar.h"

/* x / h^i */
static inline u32 dpp_div(const struct dp_topo *t, u32 x, u32 i)
{
	struct dp_rdiv r = {
		.m = dpp(t)->rpow_m[i],
		.sh1 = dpp(t)->rpow_sh[i][0],
		.sh2 = dpp(t)->rpow_sh[i][1],
	};

	return dp_rdiv(x, r);
}

static inline u32 dpp_col(const struct dp_topo *t, u32 id)
{
	return dpp_div(t, id, dpp(t)->k);
}

static inline u32 dpp_node(const struct dp_topo *t, u32 c, u32 l)
{
	return c * dpp(t)->nlabels + l;
}

/* Symbol i of label l. */
static inline u32 dpp_sym(const struct dp_topo *t, u32 l, u32 i)
{
	u32 q = dpp_div(t, l, i);

	return q - dpp_div(t, q, 1) * dpp(t)->h;
}

static inline u32 dpp_set(const struct dp_topo *t, u32 l, u32 i, u32 v)
{
	return l - dpp_sym(t, l, i) * dpp(t)->pow[i] + v * dpp(t)->pow[i];
}

/* Label without symbol i, as a base-h number of the other symbols. */
static inline u32 dpp_strip(const struct dp_topo *t, u32 l, u32 i)
{
	return dpp_div(t, l, i + 1) * dpp(t)->pow[i] +
	       (l - dpp_div(t, l, i) * dpp(t)->pow[i]);
}

/* Do labels a and b agree on every symbol except symbol i? */
static inline bool dpp_same_except(const struct dp_topo *t, u32 a, u32 b,
				   u32 i)
{
	return dpp_div(t, a, i + 1) == dpp_div(t, b, i + 1) &&
	       a - dpp_div(t, a, i) * dpp(t)->pow[i] ==
	       b - dpp_div(t, b, i) * dpp(t)->pow[i];
}

static inline u32 dpp_cw(const struct dp_topo *t, u32 c)
{
	return c + 1 == dpp(t)->k ? 0 : c + 1;
}

static inline u32 dpp_ccw(const struct dp_topo *t, u32 c)
{
	return c ? c - 1 : dpp(t)->k - 1;
}

static inline u32 dpp_step(const struct dp_topo *t, u32 c, bool cw)
{
	return cw ? dpp_cw(t, c) : dpp_ccw(t, c);
}

/* Bit p set when server (c, l) reaches (c2, l2) through its port p. */
static u32 dpp_ports_to(const struct dp_topo *t, u32 c, u32 l, u32 c2, u32 l2)
{
	u32 cm = dpp_ccw(t, c);
	u32 mask = 0;

	if (c2 == c && l2 == l)
		return 0;
	if ((c2 == c || c2 == dpp_cw(t, c)) && dpp_same_except(t, l, l2, c))
		mask |= 1U << DPP_PORT_CW;
	if ((c2 == c || c2 == cm) && dpp_same_except(t, l, l2, cm))
		mask |= 1U << DPP_PORT_CCW;
	return mask;
}

/* First port in @mask through which @peer is reachable, or -1. */
static int dpp_pick_port(const struct dp_view *r, u32 self, u32 mask,
			 u32 peer)
{
	u32 p;

	for (p = 0; p < DPP_NPORTS; p++)
		if ((mask & (1U << p)) && dp_view_reachable(r, self, p, peer))
			return (int)p;
	return -1;
}

/*
 * The longest path FTRoute can take, which is the TTL packets get.  With
 * B = DPP_FT_MAX_TUNNELS: every helix hop sets one label symbol and moves
 * one column, so a helix segment in one direction is at most k hops; a
 * tunnel (2 hops) or the u-turn (1 hop) starts a new segment, so there are
 * at most B + 2 segments; the ring keeps label Ld and is at most k/2 hops,
 * or k/2 + k after its one reversal, bounded by 2k.  Together (B + 2)k +
 * 2B + 1 + 2k = 8k + 9 for B = 4.  dpsim checks every path it walks
 * against it ("max_hops" never above "ttl").  A hostile header state is
 * only checked one hop at a time (KUnit's dpt_route_any_flags: it routes
 * to a real neighbour or drops); what bounds its path is the TTL itself.
 */
static u32 dpp_max_hops(u32 k)
{
	return (DPP_FT_MAX_TUNNELS + 2) * k + 2 * DPP_FT_MAX_TUNNELS + 1 +
	       2 * k;
}

static u32 dpp_dist_rel(u32 k, u32 m, u32 r);
static u32 dpp_sp_bound(u32 diam, u32 b);
static void dpp_sp_tab_init(struct dp_topo *t);

static int dpp_init(struct dp_topo *t, const struct dp_topo_params *prm,
		    const char **why)
{
	struct dpp_priv *d = (struct dpp_priv *)t->priv;
	u32 n = prm->n, k = prm->k;
	u64 p = 1, nodes;
	struct dp_rdiv r;

	/*
	 * The UAPI's routing drop counters (DPILLAR_A_STATS_ROUTE_DROP_*)
	 * are named for DPillar's reasons: the generic fill (genl_dev.c)
	 * puts reason r in the r-th, and DETOURS, added later, apart.
	 */
	DP_BUILD_CHECK(DPP_DROP_RING - DP_DROP_ROUTE_BAD_ADDR ==
		       DPILLAR_A_STATS_ROUTE_DROP_RING -
		       DPILLAR_A_STATS_ROUTE_DROP_BAD_ADDR);
	DP_BUILD_CHECK(DPP_DROP_BUDGET - DP_DROP_ROUTE_BAD_ADDR ==
		       DPILLAR_A_STATS_ROUTE_DROP_BUDGET -
		       DPILLAR_A_STATS_ROUTE_DROP_BAD_ADDR);
	DP_BUILD_CHECK(DPP_DROP_NOPATH - DP_DROP_ROUTE_BAD_ADDR ==
		       DPILLAR_A_STATS_ROUTE_DROP_NOPATH -
		       DPILLAR_A_STATS_ROUTE_DROP_BAD_ADDR);
	DP_BUILD_CHECK(DPP_DROP_DETOURS - DPP_DROP_NOPATH == 1);
	DP_BUILD_CHECK(DPP_DROP_COUNT - DPP_DROP_DETOURS == 1);
	u32 i;

	/* DPillar's tables must fit struct dp_topo.priv. */
	DP_BUILD_CHECK(sizeof(struct dpp_priv) <= sizeof(t->priv));
	DP_BUILD_CHECK((DPP_FT_MAX_TUNNELS << DPP_RS_TUNNELS_SHIFT) <=
		       DPP_RS_TUNNELS_MASK);
	DP_BUILD_CHECK(DPP_SP_MAX_DETOURS <= DPP_RS_DETOURS_MASK);
	if (prm->level || prm->spaces || prm->nodes || prm->seed) {
		*why = "DPillar takes only n and k";
		return -EINVAL;
	}
	if (!n || !k) {
		*why = !n ? "Missing n" : "Missing k";
		return -EINVAL;
	}
	if (n & 1) {
		*why = "n must be even";
		return -EINVAL;
	}
	if (n < DPP_N_MIN || n > DPP_N_MAX) {
		*why = "n out of range (4..256)";
		return -EINVAL;
	}
	if (k < 2) {
		*why = "k must be >= 2";
		return -EINVAL;
	}
	if (k > DPP_FABRIC_K_MAX) {
		*why = "too many servers: k*(n/2)^k exceeds 2^32 - 1";
		return -EINVAL;
	}
	d->n = n;
	d->k = k;
	d->h = n / 2;
	for (i = 0; i <= k; i++) {
		if (p > 0xffffffffULL) {
			*why = "too many servers: k*(n/2)^k exceeds 2^32 - 1";
			return -EINVAL;
		}
		d->pow[i] = (u32)p;
		r = dp_rdiv_init((u32)p);
		d->rpow_m[i] = r.m;
		d->rpow_sh[i][0] = r.sh1;
		d->rpow_sh[i][1] = r.sh2;
		p *= d->h;
	}
	nodes = (u64)k * d->pow[k];
	if (nodes > 0xffffffffULL) {
		*why = "too many servers: k*(n/2)^k exceeds 2^32 - 1";
		return -EINVAL;
	}
	d->nlabels = d->pow[k];
	for (i = 0; (1U << i) < d->h; i++)
		;
	d->hdiv_sh = 31 + i;
	d->hdiv_m = dp_div64((1ULL << d->hdiv_sh) + d->h - 1, d->h);
	/*
	 * The column divisor d = h^k as hdiv above, s = 31 + ceil(log2 d),
	 * m = ceil(2^s / d) = (2^s + e) / d with 0 <= e < d.  For id =
	 * q * d + r: id * m / 2^s = q + r / d + id * e / (d * 2^s), whose
	 * floor is q when id * e < 2^s (then r + id * e / 2^s < d), so
	 * nodes * e < 2^s makes it exact for every id.  No overflow: d >
	 * 2^(s-32) gives m <= 2^32, so id * m < 2^64.  Checked here, not
	 * assumed: it holds whenever nodes < 2^31.
	 */
	for (i = 0; (1ULL << i) < d->pow[k]; i++)
		;
	d->cdiv_sh = 31 + i;
	d->cdiv_m = dp_div64((1ULL << d->cdiv_sh) + d->pow[k] - 1, d->pow[k]);
	if (nodes * (d->cdiv_m * d->pow[k] - (1ULL << d->cdiv_sh)) >=
	    1ULL << d->cdiv_sh)
		d->cdiv_sh = 0;
	d->kmask = k == 32 ? ~0U : (1U << k) - 1;
	t->nodes = (u32)nodes;
	t->switches = k * d->pow[k - 1];
	t->nports = DPP_NPORTS;
	t->ff_hops = k + k / 2;
	/*
	 * Distance only grows with the symbols to set, so the diameter is
	 * the farthest column with every symbol different.
	 */
	d->diam = 0;
	for (i = 0; i < k; i++)
		if (dpp_dist_rel(k, i, d->kmask) > d->diam)
			d->diam = dpp_dist_rel(k, i, d->kmask);
	d->budget = (DP_TTL_MAX - d->diam) / (2 * d->diam + 1);
	if (d->budget > DPP_SP_MAX_DETOURS)
		d->budget = DPP_SP_MAX_DETOURS;
	/*
	 * k <= 27 here (the node count fits a u32): the paper's bound is at
	 * most 225 hops, the shortest mode's at most 255 by its budget.  The
	 * TTL covers both modes: relays route either.
	 */
	t->max_hops = dpp_max_hops(k);
	if (dpp_sp_bound(d->diam, d->budget) > t->max_hops)
		t->max_hops = dpp_sp_bound(d->diam, d->budget);
	if (k <= DPP_SP_TAB_K)
		dpp_sp_tab_init(t);
	return 0;
}

static int dpp_describe(const struct dp_topo *t, char *buf, u32 len)
{
	u32 pos = 0;

	dp_put_str(buf, len, &pos, "DPillar (");
	dp_put_u32(buf, len, &pos, dpp(t)->n);
	dp_put_char(buf, len, &pos, ',');
	dp_put_u32(buf, len, &pos, dpp(t)->k);
	dp_put_char(buf, len, &pos, ')');
	return dp_put_end(buf, len, pos);
}

static int dpp_addr_from_label(const struct dp_topo *t, u32 column,
			       const u8 *sym, u32 nsym, u32 *id,
			       const char **why)
{
	u32 l = 0, i;

	if (nsym != dpp(t)->k) {
		*why = "label must have k symbols";
		return -EINVAL;
	}
	if (column >= dpp(t)->k) {
		*why = "column out of range";
		return -EINVAL;
	}
	for (i = 0; i < nsym; i++) {
		if (sym[i] >= dpp(t)->h) {
			*why = "label symbol out of range (must be < n/2)";
			return -EINVAL;
		}
		l += sym[i] * dpp(t)->pow[i];
	}
	*id = dpp_node(t, column, l);
	return 0;
}

void dpp_addr_split(const struct dp_topo *t, u32 id, u32 *column, u8 *sym)
{
	u32 c = dpp_col(t, id);
	u32 l = id - c * dpp(t)->nlabels;
	u32 i;

	*column = c;
	for (i = 0; i < dpp(t)->k; i++) {
		sym[i] = (u8)(l % dpp(t)->h);
		l /= dpp(t)->h;
	}
}
EXPORT_SYMBOL_IF_KUNIT(dpp_addr_split);

static int dpp_addr_to_label(const struct dp_topo *t, u32 id, u32 *column,
			     u8 *sym, u32 *nsym)
{
	dpp_addr_split(t, id, column, sym);
	*nsym = dpp(t)->k;
	return 0;
}

/* Text form "C:v_{k-1}.....v_0", e.g. "2:3.0.1" for k = 3. */
static int dpp_addr_format(const struct dp_topo *t, u32 id, char *buf,
			   u32 len)
{
	u8 sym[DPP_MAX_K];
	u32 column, pos = 0, i;

	dpp_addr_split(t, id, &column, sym);
	dp_put_u32(buf, len, &pos, column);
	dp_put_char(buf, len, &pos, ':');
	for (i = dpp(t)->k; i-- > 0;) {
		dp_put_u32(buf, len, &pos, sym[i]);
		if (i)
			dp_put_char(buf, len, &pos, '.');
	}
	return dp_put_end(buf, len, pos);
}

int dpp_addr_parse_raw(const char *text, u32 *column, u8 *sym, u32 *nsym,
		       const char **why)
{
	u8 tmp[DPP_MAX_K];
	const char *p = text;
	u32 n = 0, v, i;
	int err;

	if (!p || !*p) {
		*why = "empty address";
		return -EINVAL;
	}
	err = dp_parse_dec(&p, 0xffffffffU, column);
	if (err) {
		*why = err == -ERANGE ? "column out of range" :
		       "address must look like C:v.v.v (column first)";
		return -EINVAL;
	}
	if (*p != ':') {
		*why = "address must look like C:v.v.v (missing ':')";
		return -EINVAL;
	}
	p++;
	for (;;) {
		err = dp_parse_dec(&p, 255, &v);
		if (err == -ERANGE) {
			*why = "label symbol out of range (must be < n/2)";
			return -EINVAL;
		}
		if (err) {
			*why = "label must be decimal symbols separated by '.'";
			return -EINVAL;
		}
		if (n == DPP_MAX_K) {
			*why = "label has too many symbols";
			return -EINVAL;
		}
		tmp[n++] = (u8)v;
		if (*p == '\0')
			break;
		if (*p != '.') {
			*why = "label must be decimal symbols separated by '.'";
			return -EINVAL;
		}
		p++;
	}
	/* Text is most significant first; sym[] is v_0 first. */
	for (i = 0; i < n; i++)
		sym[i] = tmp[n - 1 - i];
	*nsym = n;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(dpp_addr_parse_raw);

static int dpp_addr_parse(const struct dp_topo *t, const char *text, u32 *id,
			  const char **why)
{
	u8 sym[DPP_MAX_K];
	u32 column, nsym;
	int err;

	err = dpp_addr_parse_raw(text, &column, sym, &nsym, why);
	if (err)
		return err;
	return dpp_addr_from_label(t, column, sym, nsym, id, why);
}

static inline u32 dpp_port_col(const struct dp_topo *t, u32 c, u32 port)
{
	return port == DPP_PORT_CW ? c : dpp_ccw(t, c);
}

/*
 * Both ports are on switches of n ports.  The switch of S_sc has id
 * dpp_strip(label, sc) within its column: the label with symbol sc
 * removed, as a base-h number of the remaining symbols in order.
 */
static void dpp_port_info(const struct dp_topo *t, u32 id, u32 port,
			  struct dp_port_info *pi)
{
	u32 c = dpp_col(t, id);
	u32 l = id - c * dpp(t)->nlabels;
	u32 sc = dpp_port_col(t, c, port);

	pi->kind = DP_PORT_SWITCH;
	pi->nneigh = dpp(t)->n - 1;
	pi->sw_level = sc;
	pi->sw_id = dpp_strip(t, l, sc);
	pi->sw = sc * dpp(t)->pow[dpp(t)->k - 1] + pi->sw_id;
}

/*
 * A switch of S_sc orders its n servers: (sc, l[sc := j]) for j < h, then
 * (sc+1, l[sc := j - h]).  Our own slot is skipped in the neighbour list.
 */
static inline u32 dpp_self_slot(const struct dp_topo *t, u32 l, u32 sc,
				u32 port)
{
	return (port == DPP_PORT_CW ? 0 : dpp(t)->h) + dpp_sym(t, l, sc);
}

static u32 dpp_port_neigh(const struct dp_topo *t, u32 id, u32 port, u32 idx)
{
	u32 c = dpp_col(t, id);
	u32 l = id - c * dpp(t)->nlabels;
	u32 sc = dpp_port_col(t, c, port);
	u32 j;

	if (idx >= dpp(t)->n - 1)
		return DP_NODE_NONE;
	j = idx < dpp_self_slot(t, l, sc, port) ? idx : idx + 1;
	if (j < dpp(t)->h)
		return dpp_node(t, sc, dpp_set(t, l, sc, j));
	return dpp_node(t, dpp_cw(t, sc), dpp_set(t, l, sc, j - dpp(t)->h));
}

int dp_dpillar_port_neigh_index(const struct dp_topo *t, u32 id, u32 port,
				u32 peer)
{
	u32 c = dpp_col(t, id);
	u32 l = id - c * dpp(t)->nlabels;
	u32 sc = dpp_port_col(t, c, port);
	u32 pc, pl, j, self;

	pc = dpp_col(t, peer);
	pl = peer - pc * dpp(t)->nlabels;
	if (!dpp_same_except(t, l, pl, sc))
		return -1;
	if (pc == sc)
		j = dpp_sym(t, pl, sc);
	else if (pc == dpp_cw(t, sc))
		j = dpp(t)->h + dpp_sym(t, pl, sc);
	else
		return -1;
	self = dpp_self_slot(t, l, sc, port);
	if (j == self)
		return -1;
	return (int)(j < self ? j : j - 1);
}
EXPORT_SYMBOL_IF_KUNIT(dp_dpillar_port_neigh_index);

/*
 * Failure-free hop count from column c to (cd, ld) with helix direction
 * cw, where bit i of @diff says our label differs from ld in symbol i.
 * Mirrors dp_dpillar_route() with r == NULL, on the difference mask only: a
 * helix hop clears one bit, and "labels agree except symbol i" is
 * "diff has no bit but i".  Exhaustively checked against the real walk.
 */
VISIBLE_IF_KUNIT u32 dpp_sroute_len(const struct dp_topo *t, u32 c, u32 diff,
				    u32 cd, bool cw)
{
	u32 hops = 0, dist, cm;

	for (;;) {
		cm = dpp_ccw(t, c);
		if (c == cd && !diff)
			return hops;
		if (((cd == c || cd == dpp_cw(t, c)) && !(diff & ~(1U << c))) ||
		    ((cd == c || cd == cm) && !(diff & ~(1U << cm))))
			return hops + 1;
		if (!diff) {
			dist = cd >= c ? cd - c : cd + dpp(t)->k - c;
			if (dist > dpp(t)->k - dist)
				dist = dpp(t)->k - dist;
			return hops + dist;
		}
		diff &= ~(1U << (cw ? c : cm));
		c = cw ? dpp_cw(t, c) : cm;
		hops++;
	}
}
EXPORT_SYMBOL_IF_KUNIT(dpp_sroute_len);

/* The switch of our port @port is joined by @peer's port 0 or 1. */
static int dpp_peer_port(const struct dp_topo *t, u32 id, u32 port, u32 peer)
{
	if (dp_dpillar_port_neigh_index(t, id, port, peer) < 0)
		return -1;
	/* Switch S_sc joins port 0 of column sc and port 1 of column sc+1. */
	return dpp_col(t, peer) == dpp_port_col(t, dpp_col(t, id), port) ?
	       DPP_PORT_CW : DPP_PORT_CCW;
}

/*
 * @sel: enum dpp_sel.  Shortest mode carries the flow hash's low 16 bits
 * in the routing word (the paper's routing spreads no flows).
 */
void dp_dpillar_route_init(const struct dp_topo *t, u32 src, u32 dst,
			   u32 sel, u32 hash, struct dp_route_state *st)
{
	st->dst = dst;
	st->waypoint = DP_NODE_NONE;
	st->word = 0;
	st->flags = 0;
	if (sel == DPP_SEL_SHORTEST || sel >= DPP_SEL_COUNT) {
		st->flags = DPP_RS_SHORTEST;
		st->word = (u16)(hash ^ (hash >> 16));
		return;
	}
	if (sel == DPP_SEL_CCW) {
		st->flags = DPP_RS_CCW;
	} else if (sel == DPP_SEL_AUTO && src < t->nodes && dst < t->nodes &&
		   src != dst) {
		u32 c = dpp_col(t, src), cd = dpp_col(t, dst);
		u32 l = src - c * dpp(t)->nlabels, ld = dst - cd * dpp(t)->nlabels;
		u32 diff = 0, i, q, qd;

		if (l == ld)
			return;
		for (i = 0; i < dpp(t)->k; i++) {
			q = dpp_div(t, l, 1);
			qd = dpp_div(t, ld, 1);
			if (l - q * dpp(t)->h != ld - qd * dpp(t)->h)
				diff |= 1U << i;
			l = q;
			ld = qd;
		}
		if (dpp_sroute_len(t, c, diff, cd, false) <
		    dpp_sroute_len(t, c, diff, cd, true))
			st->flags = DPP_RS_CCW;
	}
}
EXPORT_SYMBOL_IF_KUNIT(dp_dpillar_route_init);

static inline void dpp_hop(struct dp_hop *hop, u32 next, u32 port, u8 phase)
{
	hop->next = next;
	hop->port = port;
	hop->phase = phase;
	hop->reason = DP_DROP_ROUTE_NONE;
}

static inline int dpp_drop(struct dp_hop *hop, u8 reason)
{
	hop->next = DP_NODE_NONE;
	hop->port = 0;
	hop->phase = DP_PHASE_NONE;
	hop->reason = reason;
	return -1;
}

/*
 * Candidate values for a symbol whose current value is @cur and wanted
 * value @want, excluding @cur: @want first (when it differs), then the
 * others in increasing order from cur + 1.  Returns the i-th, i < h - 1.
 */
static inline u32 dpp_cand(const struct dp_topo *t, u32 cur, u32 want, u32 i)
{
	u32 off = i + 1, dw;

	if (want != cur) {
		if (i == 0)
			return want;
		dw = want > cur ? want - cur : want + dpp(t)->h - cur;
		off = i;
		if (off >= dw)
			off++;
	}
	off += cur;
	return off >= dpp(t)->h ? off - dpp(t)->h : off;
}

/* Ring phase: label is ld, walk the columns toward cd. */
static int dpp_ring(const struct dp_topo *t, u32 self, u32 c, u32 cd, u32 ld,
		    struct dp_route_state *st, const struct dp_view *r,
		    struct dp_hop *hop)
{
	u32 next, dist;
	bool cw;

	if (st->flags & DPP_RS_RING_REV) {
		cw = !(st->flags & DPP_RS_RING_CCW);
	} else {
		dist = cd >= c ? cd - c : cd + dpp(t)->k - c;
		cw = dist <= dpp(t)->k / 2;
	}
	next = dpp_node(t, dpp_step(t, c, cw), ld);
	if (dp_view_reachable(r, self, cw ? DPP_PORT_CW : DPP_PORT_CCW, next)) {
		dpp_hop(hop, next, cw ? DPP_PORT_CW : DPP_PORT_CCW,
			DPP_PHASE_RING);
		return 0;
	}
	if (!r)
		return dpp_drop(hop, DPP_DROP_NOPATH);
	if (st->flags & DPP_RS_RING_REV)
		return dpp_drop(hop, DPP_DROP_RING);
	cw = !cw;
	next = dpp_node(t, dpp_step(t, c, cw), ld);
	if (!dp_view_reachable(r, self, cw ? DPP_PORT_CW : DPP_PORT_CCW, next))
		return dpp_drop(hop, DPP_DROP_RING);
	st->flags |= DPP_RS_RING_REV | (cw ? 0 : DPP_RS_RING_CCW);
	dpp_hop(hop, next, cw ? DPP_PORT_CW : DPP_PORT_CCW, DPP_PHASE_RING_REV);
	return 0;
}

/*
 * Prop. IV.1 (cw) / IV.3 (ccw): the helix hop to u = (c+D, l[sy :=
 * ld[sy]]) is blocked.  Tunnel through v = (c+D, l[sy := a]), a != ld[sy],
 * reachable, to w = (c+2D, v.l[sy2 := b]), b != l[sy2], so that the rest
 * of the helix avoids both us and u.
 */
static bool dpp_tunnel(const struct dp_topo *t, u32 self, u32 c, u32 l,
		       u32 ld, bool cw, const struct dp_view *r, u32 *v,
		       u32 *w)
{
	u32 port = cw ? DPP_PORT_CW : DPP_PORT_CCW;
	u32 sy = cw ? c : dpp_ccw(t, c);
	u32 nc = dpp_step(t, c, cw);
	u32 sy2 = cw ? nc : dpp_ccw(t, nc);
	u32 want = dpp_sym(t, ld, sy);
	u32 cur2 = dpp_sym(t, l, sy2);
	u32 b = dpp_cand(t, cur2, dpp_sym(t, ld, sy2), 0);
	u32 i, a, lv;

	/* a != ld[sy]; our own symbol first, as the paper's example does */
	for (i = 0; i + 1 < dpp(t)->h; i++) {
		a = dpp_cand(t, want, dpp_sym(t, l, sy), i);
		lv = dpp_set(t, l, sy, a);
		*v = dpp_node(t, nc, lv);
		if (dp_view_reachable(r, self, port, *v)) {
			*w = dpp_node(t, dpp_step(t, nc, cw),
				      dpp_set(t, lv, sy2, b));
			return true;
		}
	}
	return false;
}

/* Helix phase: l != ld. */
static int dpp_helix(const struct dp_topo *t, u32 self, u32 c, u32 l,
		     u32 ld, struct dp_route_state *st,
		     const struct dp_view *r, struct dp_hop *hop)
{
	bool cw = !(st->flags & DPP_RS_CCW);
	u32 port = cw ? DPP_PORT_CW : DPP_PORT_CCW;
	u32 sy = cw ? c : dpp_ccw(t, c);
	u32 next, v, w, i, cur, want, tun;

	next = dpp_node(t, dpp_step(t, c, cw),
			dpp_set(t, l, sy, dpp_sym(t, ld, sy)));
	if (dp_view_reachable(r, self, port, next)) {
		dpp_hop(hop, next, port, DPP_PHASE_HELIX);
		return 0;
	}
	if (!r)
		return dpp_drop(hop, DPP_DROP_NOPATH);

	tun = (st->flags & DPP_RS_TUNNELS_MASK) >> DPP_RS_TUNNELS_SHIFT;
	if (tun < DPP_FT_MAX_TUNNELS &&
	    dpp_tunnel(t, self, c, l, ld, cw, r, &v, &w)) {
		st->flags += 1U << DPP_RS_TUNNELS_SHIFT;
		st->waypoint = w;
		dpp_hop(hop, v, port, DPP_PHASE_TUNNEL);
		return 0;
	}
	if (st->flags & DPP_RS_UTURN)
		return dpp_drop(hop, tun < DPP_FT_MAX_TUNNELS ?
				DPP_DROP_HELIX : DPP_DROP_BUDGET);

	/* Prop. IV.2: u-turn to (c-D, l[sy := b]) with b != l[sy]. */
	cw = !cw;
	port = cw ? DPP_PORT_CW : DPP_PORT_CCW;
	sy = cw ? c : dpp_ccw(t, c);
	cur = dpp_sym(t, l, sy);
	want = dpp_sym(t, ld, sy);
	for (i = 0; i + 1 < dpp(t)->h; i++) {
		next = dpp_node(t, dpp_step(t, c, cw),
				dpp_set(t, l, sy, dpp_cand(t, cur, want, i)));
		if (dp_view_reachable(r, self, port, next)) {
			st->flags ^= DPP_RS_CCW;
			st->flags |= DPP_RS_UTURN;
			dpp_hop(hop, next, port, DPP_PHASE_UTURN);
			return 0;
		}
	}
	return dpp_drop(hop, DPP_DROP_UTURN);
}

/*
 * Middle of a tunnel: the waypoint must share a switch with us.  If it is
 * unreachable, any other server Prop. IV.1/IV.3 allows will do: the one in
 * the next column on the same switch whose label differs from ours in the
 * symbol that switch varies.
 */
static int dpp_tunnel_mid(const struct dp_topo *t, u32 self, u32 c, u32 l,
			  u32 ld, struct dp_route_state *st,
			  const struct dp_view *r, struct dp_hop *hop)
{
	bool cw = !(st->flags & DPP_RS_CCW);
	u32 port = cw ? DPP_PORT_CW : DPP_PORT_CCW;
	u32 wc = dpp_col(t, st->waypoint);
	u32 wl = st->waypoint - wc * dpp(t)->nlabels;
	u32 mask = dpp_ports_to(t, c, l, wc, wl);
	u32 sy, cur, want, i, w;
	int p;

	if (!mask)
		return dpp_drop(hop, DPP_DROP_TUNNEL);
	p = dpp_pick_port(r, self, mask, st->waypoint);
	if (p >= 0) {
		dpp_hop(hop, st->waypoint, (u32)p, DPP_PHASE_TUNNEL);
		return 0;
	}
	if (wc != dpp_step(t, c, cw))
		return dpp_drop(hop, DPP_DROP_TUNNEL);
	sy = cw ? c : dpp_ccw(t, c);
	cur = dpp_sym(t, l, sy);
	want = dpp_sym(t, ld, sy);
	for (i = 0; i + 1 < dpp(t)->h; i++) {
		w = dpp_node(t, wc,
			     dpp_set(t, l, sy, dpp_cand(t, cur, want, i)));
		if (dp_view_reachable(r, self, port, w)) {
			st->waypoint = w;
			dpp_hop(hop, w, port, DPP_PHASE_TUNNEL);
			return 0;
		}
	}
	return dpp_drop(hop, DPP_DROP_TUNNEL);
}

/*
 * ---- Shortest mode: exact distances, flow spreading, detours ----
 *
 * The exact distance.  Put the 2k columns on a cycle of positions: server
 * column H_c at 2c, switch column S_c at 2c + 1.  A hop from (c, l) goes
 * through one switch of S_c (port 0) or S_{c-1} (port 1) and either
 * crosses it to the next server column or comes back to column c; it may
 * set symbol j of the label when it goes through S_j (and must change it
 * when it comes back, or it would not move).  No other hop changes symbol
 * j.  So a path from (c1, l1) to (c2, l2) is a walk on the cycle from 2c1
 * to 2c2 that visits every switch position 2j + 1 with l1[j] != l2[j]
 * (the set D), and its hop count is half the walk's length: a crossing
 * moves 2 positions, a bounce goes 1 out and 1 back.  Conversely every
 * such walk is a path: set each symbol of D at any visit (a bounce at a
 * switch of D comes first there, so the symbol still differs), keep the
 * others.  A shortest walk only turns at the farthest switches of D it
 * must reach (turning anywhere else can be cut short), so, with positions
 * relative to c1 and m = (c2 - c1) mod k:
 *
 *  - clockwise family: the walk ends going clockwise over the arc from c1
 *    to c2 (switches 0..m-1 relative, crossed anyway).  The switches of D
 *    in m..k-1 (the gap) are covered by overshooting past c2 up to some
 *    g_i and coming back (2(g_i - m) + 1 hops), and/or by first going
 *    counter-clockwise from c1 down to g_{i+1} and back (2(k - g_{i+1}) - 1
 *    hops), split anywhere between two consecutive gap switches; or by one
 *    whole turn (m + k).  Going out and back twice on the same side is
 *    never shorter than once.
 *  - counter-clockwise family: the mirror image, base k - m, gap 0..m-1.
 *
 * The distance is the least of these, O(k) per pair with no table; dpsim
 * and KUnit check it against BFS for every pair of many small fabrics.
 */
/*
 * One family of walks: @base hops over the arc, and the switches of @gap
 * (relative indices in lo..hi-1) covered by going out and back past one
 * end, past the other, split between two consecutive gap switches, or by
 * one more whole turn (k hops).  The least of them and @best.
 */
static u32 dpp_arc(u32 base, u32 gap, u32 lo, u32 hi, u32 k, u32 best)
{
	u32 cost, g;

	if (!gap)
		return base < best ? base : best;
	if (base + k < best)
		best = base + k;
	cost = base + 2 * (hi - dp_ctz(gap)) - 1;
	if (cost < best)
		best = cost;
	while (gap) {
		g = dp_ctz(gap);
		gap &= gap - 1;
		cost = base + 2 * (g - lo) + 1;
		if (gap)
			cost += 2 * (hi - dp_ctz(gap)) - 1;
		if (cost < best)
			best = cost;
	}
	return best;
}

static u32 dpp_dist_rel(u32 k, u32 m, u32 r)
{
	u32 low = (1U << m) - 1;	/* m < k <= DPP_MAX_K: no overflow */
	/* clockwise: m hops, gap m..k-1 */
	u32 best = dpp_arc(m, r & ~low, m, k, k, ~0U);

	/* counter-clockwise (the mirror image): k - m hops, gap 0..m-1 */
	return m ? dpp_arc(k - m, r & low, 0, m, k, best) : best;
}

/* Bit i set where labels a and b differ in symbol i. */
static u32 dpp_diff(const struct dp_topo *t, u32 a, u32 b)
{
	u32 mask = 0, bit, qa, qb, h = dpp(t)->h;

	for (bit = 1; a != b; bit <<= 1) {
		qa = dpp_div(t, a, 1);
		qb = dpp_div(t, b, 1);
		if (a - qa * h != b - qb * h)
			mask |= bit;
		a = qa;
		b = qb;
	}
	return mask;
}

/* Distance from column c, with @diff the symbols still to set, to tc. */
static u32 dpp_dist_cm(const struct dp_topo *t, u32 c, u32 diff, u32 tc)
{
	u32 k = dpp(t)->k;
	u32 m = tc >= c ? tc - c : tc + k - c;

	/* rotate so that switch column c is bit 0 */
	if (c)
		diff = ((diff >> c) | (diff << (k - c))) & dpp(t)->kmask;
	return dpp_dist_rel(k, m, diff);
}

u32 dpp_dist(const struct dp_topo *t, u32 a, u32 b)
{
	u32 ca = dpp_col(t, a), cb = dpp_col(t, b);

	return dpp_dist_cm(t, ca, dpp_diff(t, a - ca * dpp(t)->nlabels,
					   b - cb * dpp(t)->nlabels), cb);
}
EXPORT_SYMBOL_IF_KUNIT(dpp_dist);

/*
 * A class of neighbours of (c, l), all at one distance from the target:
 * through @port, in column @col, with label l where symbol @j is @val, or
 * (@wrong) any value but @val.  A hop that comes back to column c with a
 * symbol that was right, or wrong again, is never closer, so three classes
 * per port cover every neighbour that can be.
 */
struct dpp_cls {
	u32 col, j, val, n;
	u8 port;
	bool wrong;
};

/*
 * Where we are, toward which target.  @q: our label ([i][0]) and the
 * target's ([i][1]) divided by h^i, for i = 0..@known; from symbol @known
 * up the labels are equal (@q[@known] is the same on both sides), so
 * symbol j < @known of either is q[j] - q[j + 1] * h.
 */
struct dpp_at {
	u32 self, c, l;		/* us */
	u32 tgt, tc, tl, diff;	/* target, its column, label, symbols to set */
	u32 known;
	u32 q[DPP_FABRIC_K_MAX + 1][2];
};

/*
 * Column of @id, shortest mode's fast path: one multiply and one shift
 * where struct dpp_priv.cdiv_sh says it is exact for every id of the
 * fabric (see dpp_init()), else dpp_col().
 */
static inline u32 dpp_col_fast(const struct dp_topo *t, u32 id)
{
	const struct dpp_priv *d = dpp(t);

	if (likely(d->cdiv_sh))
		return (u32)((id * d->cdiv_m) >> d->cdiv_sh);
	return dpp_col(t, id);
}

/*
 * Where @self stands toward @tgt.  Inline in the shortest mode's common
 * case (dpp_sp()), out of line elsewhere (dpp_at_init()): under a
 * binary translator such as QEMU's TCG every call and return ends a
 * translated block, and a relay makes this one per packet.
 */
static inline void __dpp_at_init(const struct dp_topo *t,
				 struct dpp_at *a, u32 self, u32 tgt)
{
	const struct dpp_priv *d = dpp(t);
	u32 h = d->h, diff = 0, bit = 1, *q;
	u32 sh = d->hdiv_sh;
	u64 m = d->hdiv_m, x, y, qx, qy;	/* 64 bits: no extending */

	a->self = self;
	a->c = dpp_col_fast(t, self);
	a->l = self - a->c * d->nlabels;
	a->tgt = tgt;
	a->tc = dpp_col_fast(t, tgt);
	a->tl = tgt - a->tc * d->nlabels;
	/*
	 * dpp_diff(), keeping the quotients on the way: the next hop sets
	 * one symbol, which they give without dividing again.  With x =
	 * qx * h + sx and y = qy * h + sy (sx, sy the symbols, qx = x / h),
	 * x - y - (qx - qy) * h = sx - sy, and |sx - sy| < h, so the symbols
	 * differ iff x - y != (qx - qy) * h, also modulo 2^64 (u64 here):
	 * one multiply per symbol to compare them instead of two.
	 */
	x = a->l;
	y = a->tl;
	for (q = a->q[0]; x != y; q += 2, bit <<= 1) {
		q[0] = (u32)x;
		q[1] = (u32)y;
		qx = (x * m) >> sh;
		qy = (y * m) >> sh;
		if (x - y != (qx - qy) * h)
			diff |= bit;
		x = qx;
		y = qy;
	}
	q[0] = (u32)x;
	q[1] = (u32)y;
	a->diff = diff;
	a->known = (u32)(q - a->q[0]) / 2;
}

static void dpp_at_init(const struct dp_topo *t, struct dpp_at *a, u32 self,
			u32 tgt)
{
	__dpp_at_init(t, a, self, tgt);
}

static inline void dpp_cls_add(struct dpp_cls *cls, u32 *ncls, u32 *total,
			       u32 col, u32 j, u32 val, u32 port, u32 n)
{
	struct dpp_cls *x = &cls[(*ncls)++];

	x->col = col;
	x->j = j;
	x->val = val;
	x->port = (u8)port;
	x->wrong = n > 1;
	x->n = n;
	*total += n;
}

/*
 * Which classes of our neighbours through @port are at distance @want:
 * bit 0 the next column with symbol j right, bit 1 the next column with
 * it wrong, bit 2 our column with it set right (j: the symbol the port's
 * switch varies).
 */
static u32 dpp_classes_mask(const struct dp_topo *t, const struct dpp_at *a,
			    u32 port, u32 want)
{
	bool cw = port == DPP_PORT_CW;
	u32 j = cw ? a->c : dpp_ccw(t, a->c);
	u32 nc = dpp_step(t, a->c, cw);
	u32 bit = 1U << j, mask = 0;

	if (dpp_dist_cm(t, nc, a->diff & ~bit, a->tc) == want)
		mask |= 1;
	if (dpp_dist_cm(t, nc, a->diff | bit, a->tc) == want)
		mask |= 2;
	if ((a->diff & bit) &&
	    dpp_dist_cm(t, a->c, a->diff & ~bit, a->tc) == want)
		mask |= 4;
	return mask;
}

/* The classes of @mask (dpp_classes_mask()) through @port, in order. */
static void dpp_classes_add(const struct dp_topo *t, const struct dpp_at *a,
			    u32 port, u32 mask, struct dpp_cls *cls,
			    u32 *ncls, u32 *total)
{
	bool cw = port == DPP_PORT_CW;
	u32 j, nc, tv;

	if (!mask)
		return;
	j = cw ? a->c : dpp_ccw(t, a->c);
	nc = dpp_step(t, a->c, cw);
	tv = dpp_sym(t, a->tl, j);
	if (mask & 1)
		dpp_cls_add(cls, ncls, total, nc, j, tv, port, 1);
	if (mask & 2)
		dpp_cls_add(cls, ncls, total, nc, j, tv, port,
			    dpp(t)->h - 1);
	if (mask & 4)
		dpp_cls_add(cls, ncls, total, a->c, j, tv, port, 1);
}

/* The classes of our neighbours through @port at distance @want. */
static void dpp_classes(const struct dp_topo *t, const struct dpp_at *a,
			u32 port, u32 want, struct dpp_cls *cls, u32 *ncls,
			u32 *total)
{
	dpp_classes_add(t, a, port, dpp_classes_mask(t, a, port, want), cls,
			ncls, total);
}

/*
 * The classes one hop closer to @a's target, bits 0..2 through port 0
 * and 3..5 through port 1 (dpp_classes_mask() each), 0 at the target.
 * Distances do not change when every column turns by the same amount, so
 * they depend only on the target's column relative to ours and on the
 * symbols to set relative to our column: for k <= DPP_SP_TAB_K a table
 * lookup replaces the seven O(k) distance evaluations.
 */
static u32 dpp_sp_mask_dist(const struct dp_topo *t, const struct dpp_at *a)
{
	u32 d = dpp_dist_cm(t, a->c, a->diff, a->tc);

	if (!d)
		return 0;
	return dpp_classes_mask(t, a, DPP_PORT_CW, d - 1) |
	       dpp_classes_mask(t, a, DPP_PORT_CCW, d - 1) << 3;
}

static inline u32 dpp_sp_mask(const struct dp_topo *t,
			      const struct dpp_at *a)
{
	u32 k = dpp(t)->k, c = a->c, diff = a->diff, m;

	if (k > DPP_SP_TAB_K)
		return dpp_sp_mask_dist(t, a);
	m = a->tc >= c ? a->tc - c : a->tc + k - c;
	if (c)
		diff = ((diff >> c) | (diff << (k - c))) & dpp(t)->kmask;
	return dpp(t)->sp_tab[(m << k) | diff];
}

#ifdef __KERNEL__
#if IS_ENABLED(CONFIG_KUNIT)
/* dpp_sp_mask() from @self toward @tgt: by table, or by distances. */
u32 dpp_sp_mask_test(const struct dp_topo *t, u32 self, u32 tgt, bool tab)
{
	struct dpp_at a;

	dpp_at_init(t, &a, self, tgt);
	return tab ? dpp_sp_mask(t, &a) : dpp_sp_mask_dist(t, &a);
}
EXPORT_SYMBOL_IF_KUNIT(dpp_sp_mask_test);
#endif
#endif

/* Fill struct dpp_priv.sp_tab: k <= DPP_SP_TAB_K, the rest of @t set. */
static void dpp_sp_tab_init(struct dp_topo *t)
{
	struct dpp_priv *d = (struct dpp_priv *)t->priv;
	struct dpp_at a = { 0 };
	u32 m, r;

	for (m = 0; m < d->k; m++) {
		for (r = 0; r <= d->kmask; r++) {
			/* us in column 0: relative is absolute */
			a.tc = m;
			a.diff = r;
			d->sp_tab[(m << d->k) | r] = dpp_sp_mask_dist(t, &a);
		}
	}
}

/* Member @i of class @x, for a server whose label is @l. */
static u32 dpp_cls_node(const struct dp_topo *t, const struct dpp_cls *x,
			u32 l, u32 i)
{
	u32 v = x->val;

	if (x->wrong)
		v = i < x->val ? i : i + 1;
	return dpp_node(t, x->col, dpp_set(t, l, x->j, v));
}

/* Mixes the flow hash with a server id (murmur3's finaliser). */
static inline u32 dpp_mix(u32 a, u32 b)
{
	return dp_fmix32(a * 0x9e3779b1U ^ b);
}

/* x scaled to 0..n-1, without a division. */
static inline u32 dpp_scale(u32 x, u32 n)
{
	return (u32)(((u64)x * n) >> 32);
}

/*
 * Can @nb, our neighbour on @port at distance @dn from @tgt, go on?  Its
 * Hello lists its ports that are up: a neighbour whose every next hop
 * closer to @tgt is behind a port that is down would only send the packet
 * back (a trap).  Unknown counts as yes.
 */
static noinline bool dpp_sp_viable_slow(const struct dp_topo *t,
					const struct dpp_at *a, u32 nb, u32 up)
{
	u32 q, ncls, total, dn, tgt = a->tgt;
	struct dpp_cls cls[3];
	struct dpp_at na;

	/* @nb is one hop closer than we are */
	dn = dpp_dist_cm(t, a->c, a->diff, a->tc) - 1;
	dpp_at_init(t, &na, nb, tgt);
	for (q = 0; q < DPP_NPORTS; q++) {
		if (!(up & (1U << q)))
			continue;
		ncls = 0;
		total = 0;
		dpp_classes(t, &na, q, dn - 1, cls, &ncls, &total);
		if (total)
			return true;
	}
	return false;
}

/*
 * The test itself inline: in the common case @nb reports both its ports
 * up, and that answer needs no call beyond the view's (see
 * __dpp_at_init()); dpp_sp_viable_slow() looks at its next hops.
 */
static inline bool dpp_sp_viable(const struct dp_topo *t,
				 const struct dp_view *v,
				 const struct dpp_at *a, u32 port,
				 u32 nb)
{
	u32 up;

	if (nb == a->tgt || !v || !v->ports_up ||
	    !dp_view_ask_ports_up(v, a->self, port, nb, &up) ||
	    (up & 3) == 3)
		return true;
	return dpp_sp_viable_slow(t, a, nb, up);
}

/*
 * The classes of a mask of dpp_sp_mask() counted by size: entry m is the
 * number of classes of one in m (bits 0, 2, 3 and 5) plus 16 times the
 * number of classes of h - 1 (bits 1 and 4), so that dpp_sp_first() sums
 * them with one load instead of six shifts and masks.
 */
static const u8 dpp_cls_count[64] = {
	0x00, 0x01, 0x10, 0x11, 0x01, 0x02, 0x11, 0x12,
	0x01, 0x02, 0x11, 0x12, 0x02, 0x03, 0x12, 0x13,
	0x10, 0x11, 0x20, 0x21, 0x11, 0x12, 0x21, 0x22,
	0x11, 0x12, 0x21, 0x22, 0x12, 0x13, 0x22, 0x23,
	0x01, 0x02, 0x11, 0x12, 0x02, 0x03, 0x12, 0x13,
	0x02, 0x03, 0x12, 0x13, 0x03, 0x04, 0x13, 0x14,
	0x11, 0x12, 0x21, 0x22, 0x12, 0x13, 0x22, 0x23,
	0x12, 0x13, 0x22, 0x23, 0x13, 0x14, 0x23, 0x24,
};

/*
 * The first neighbour dpp_sp_next() would try for the classes @mask:
 * class sizes 1, h - 1, 1 per port, in the order dpp_classes_add() puts
 * them, the flow hash picking the index.  True, with *@hop, when it is
 * reachable and can go on; false sends the caller to the full walk.
 */
static inline bool dpp_sp_first(const struct dp_topo *t,
				const struct dpp_at *a, u32 mask,
				u32 word, const struct dp_view *v,
				struct dp_hop *hop)
{
	u32 big = dpp(t)->h - 1, total, idx, b, bit, j, tv, val, col, next;
	u32 port, sz, cur, rest, cnt;

	/* bits 1 and 4: the classes of h - 1 ("wrong"), the others of 1 */
	cnt = dpp_cls_count[mask & 63];
	total = (cnt & 15) + (cnt >> 4) * big;
	if (!total)
		return false;
	idx = dpp_scale(dpp_mix(word, a->self), total);
	/*
	 * The classes in @mask, lowest bit first, until idx falls in one:
	 * idx < total, the sum of their sizes, so @rest is never 0 here.
	 */
	for (rest = mask;; rest &= rest - 1) {
		b = dp_ctz(rest);
		bit = 1U << b;
		sz = bit & 0x12 ? big : 1;
		if (idx < sz)
			break;
		idx -= sz;
	}
	port = b < 3 ? DPP_PORT_CW : DPP_PORT_CCW;
	j = b < 3 ? a->c : dpp_ccw(t, a->c);
	col = bit & 0x24 ? a->c : b < 3 ? dpp_cw(t, a->c) : dpp_ccw(t, a->c);
	if (j < a->known) {
		cur = a->q[j][0] - a->q[j + 1][0] * dpp(t)->h;
		tv = a->q[j][1] - a->q[j + 1][1] * dpp(t)->h;
	} else {
		cur = dpp_sym(t, a->l, j);
		tv = cur;
	}
	val = tv;
	/* a class of one is never "wrong" (dpp_cls_add()) */
	if ((bit & 0x12) && big > 1)
		val = idx < tv ? idx : idx + 1;
	/* our label with symbol j set to val: dpp_set() */
	next = dpp_node(t, col, a->l + (val - cur) * dpp(t)->pow[j]);
	if (!dp_view_reachable(v, a->self, port, next))
		return false;
	if (v && v->ports_up && !dpp_sp_viable(t, v, a, port, next))
		return false;
	dpp_hop(hop, next, port, DPP_PHASE_SHORTEST);
	return true;
}

/*
 * The neighbours one hop closer to @tgt, all of them, in the order the
 * flow hash gives (it picks where to start): the ones reachable that can
 * go on.  With @hop, the first of them is the hop and 1 is returned; else
 * up to @max of them go to @ids and their number is returned.
 */
static u32 dpp_sp_next(const struct dp_topo *t, const struct dpp_at *a,
		       u32 word, const struct dp_view *v, u32 *ids, u32 max,
		       struct dp_hop *hop)
{
	u32 ncls = 0, total = 0, i, x, r, idx, next, n = 0;
	u32 self = a->self, mask = dpp_sp_mask(t, a);
	struct dpp_cls cls[6];

	/*
	 * The common case first: the hop the flow hash picks is reachable
	 * and can go on.  Find it from @mask alone, which is what the loop
	 * below tries first, and build no classes.
	 */
	if (hop && dpp_sp_first(t, a, mask, word, v, hop))
		return 1;
	dpp_classes_add(t, a, DPP_PORT_CW, mask & 7, cls, &ncls, &total);
	dpp_classes_add(t, a, DPP_PORT_CCW, mask >> 3, cls, &ncls, &total);
	if (!total)
		return 0;
	idx = dpp_scale(dpp_mix(word, self), total);
	for (i = 0; i < total; i++, idx = idx + 1 == total ? 0 : idx + 1) {
		for (r = idx, x = 0; r >= cls[x].n; x++)
			r -= cls[x].n;
		next = dpp_cls_node(t, &cls[x], a->l, r);
		if (!dp_view_reachable(v, self, cls[x].port, next) ||
		    !dpp_sp_viable(t, v, a, cls[x].port, next))
			continue;
		if (hop) {
			dpp_hop(hop, next, cls[x].port, DPP_PHASE_SHORTEST);
			return 1;
		}
		if (n < max)
			ids[n] = next;
		n++;
	}
	return n;
}

static bool dpp_sp_closer(const struct dp_topo *t, u32 self, u32 tgt,
			  u32 word, const struct dp_view *v, struct dp_hop *hop)
{
	struct dpp_at a;

	dpp_at_init(t, &a, self, tgt);
	return dpp_sp_next(t, &a, word, v, NULL, 0, hop);
}

/*
 * Is @id no use as a waypoint: us, or a neighbour we reach ourselves (had
 * it been closer, we would have gone there)?  A neighbour we do not reach
 * may be behind our own dead port, so it stays.
 */
static bool dpp_is_ours(const struct dp_topo *t, const struct dpp_at *a,
			const struct dp_view *v, u32 id)
{
	u32 c = dpp_col(t, id);
	u32 mask = dpp_ports_to(t, a->c, a->l, c, id - c * dpp(t)->nlabels);

	return id == a->self ||
	       (mask && dpp_pick_port(v, a->self, mask, id) >= 0);
}

/*
 * A member of class @x (of @na's neighbours) that is not one of ours,
 * starting from a hash-chosen one; DP_NODE_NONE when there is none.
 */
static u32 dpp_cls_pick_far(const struct dp_topo *t, const struct dpp_at *a,
			    const struct dp_view *v, const struct dpp_at *na,
			    const struct dpp_cls *x, u32 word)
{
	u32 i, idx = dpp_scale(dpp_mix(word, na->self), x->n), m;

	for (i = 0; i < x->n; i++, idx = idx + 1 == x->n ? 0 : idx + 1) {
		m = dpp_cls_node(t, x, na->l, idx);
		if (!dpp_is_ours(t, a, v, m))
			return m;
	}
	return DP_NODE_NONE;
}

/*
 * Stuck: no reachable neighbour is closer to @tgt.  Look one switch
 * further: among reachable neighbours N, and N's neighbours M on N's
 * other switch that we do not reach ourselves, take the M
 * closest to @tgt (ties: the first from a hash-chosen start), and go to N
 * with M as the waypoint.  N's Hello says which of its ports are up; we
 * do not know whether M is alive: if it is not, N is stuck in turn and
 * spends another detour.
 */
static bool dpp_sp_local(const struct dp_topo *t, u32 self, u32 tgt,
			 u32 word, const struct dp_view *v, u32 *wp,
			 struct dp_hop *hop)
{
	u32 nn = dpp(t)->n - 1, all = 2 * nn, best = DP_NODE_NONE;
	u32 i, idx, p, nb, q, dn, ncls, total, x, m, up, want;
	struct dpp_cls cls[3];
	int shared;
	struct dpp_at a, na;

	dpp_at_init(t, &a, self, tgt);
	idx = dpp_scale(dpp_mix(word, self ^ 0x5bd1e995U), all);
	for (i = 0; i < all; i++, idx = idx + 1 == all ? 0 : idx + 1) {
		p = idx < nn ? DPP_PORT_CW : DPP_PORT_CCW;
		nb = dpp_port_neigh(t, self, p, idx < nn ? idx : idx - nn);
		if (nb == tgt || !dp_view_reachable(v, self, p, nb))
			continue;
		dpp_at_init(t, &na, nb, tgt);
		dn = dpp_dist_cm(t, na.c, na.diff, na.tc);
		if (!dn || dn - 1 >= best)
			continue;
		if (!v->ports_up || !dp_view_ask_ports_up(v, self, p, nb, &up))
			up = ~0U;
		/*
		 * Not through the switch we reach N by: it works, so its
		 * members we do not reach are down.
		 */
		shared = dpp_peer_port(t, self, p, nb);
		for (q = 0; q < DPP_NPORTS; q++) {
			if (!(up & (1U << q)) || (int)q == shared)
				continue;
			/* closer to @tgt than N first, then sideways */
			for (want = dn - 1; want <= dn && want < best; want++) {
				ncls = 0;
				total = 0;
				dpp_classes(t, &na, q, want, cls, &ncls,
					    &total);
				for (x = 0; x < ncls; x++) {
					m = dpp_cls_pick_far(t, &a, v, &na,
							     &cls[x], word);
					if (m == DP_NODE_NONE)
						continue;
					best = want;
					*wp = m;
					dpp_hop(hop, nb, p, DPP_PHASE_DETOUR);
					break;
				}
			}
		}
	}
	return best != DP_NODE_NONE;
}

/*
 * Stuck next to @tgt: it shares a switch with us but we do not reach it
 * there.  Its port on that switch may be all that is dead, so aim at its
 * other switch: the waypoint is the member of that switch nearest to us
 * that we can make a hop toward (ties: the first from a hash-chosen
 * start), from which @tgt is one hop.  False when there is none, or we
 * are on both of its switches.
 */
static bool dpp_sp_other_switch(const struct dp_topo *t, u32 self, u32 tgt,
				u32 word, const struct dp_view *v, u32 *wp,
				struct dp_hop *hop)
{
	u32 c = dpp_col(t, self), l = self - c * dpp(t)->nlabels;
	u32 tc = dpp_col(t, tgt), tl = tgt - tc * dpp(t)->nlabels;
	u32 mask = dpp_ports_to(t, tc, tl, c, l), nn = dpp(t)->n - 1;
	u32 q, i, idx, m, d, best = DP_NODE_NONE;
	struct dp_hop h;

	for (q = 0; q < DPP_NPORTS; q++) {
		if (mask & (1U << q))
			continue;
		idx = dpp_scale(dpp_mix(word, tgt), nn);
		for (i = 0; i < nn; i++, idx = idx + 1 == nn ? 0 : idx + 1) {
			m = dpp_port_neigh(t, tgt, q, idx);
			if (m == self)
				continue;
			d = dpp_dist(t, self, m);
			if (d >= best || !dpp_sp_closer(t, self, m, word, v, &h))
				continue;
			best = d;
			*wp = m;
			*hop = h;
		}
	}
	return best != DP_NODE_NONE;
}

/*
 * A far waypoint, from hash @x: our label with two symbols set at random,
 * in our column or a neighbouring one, so at most about four hops away:
 * far enough to leave most dead ends, near enough to cost little.  The
 * second half of the budget draws from the whole fabric instead.
 */
static u32 dpp_sp_far(const struct dp_topo *t, u32 self, u32 x)
{
	u32 c = dpp_col(t, self), l = self - c * dpp(t)->nlabels;
	u32 k = dpp(t)->k, h = dpp(t)->h;

	l = dpp_set(t, l, dpp_scale(x, k), dpp_scale(dpp_mix(x, 1), h));
	l = dpp_set(t, l, dpp_scale(dpp_mix(x, 2), k),
		    dpp_scale(dpp_mix(x, 3), h));
	switch (dpp_scale(dpp_mix(x, 4), 3)) {
	case 1:
		c = dpp_cw(t, c);
		break;
	case 2:
		c = dpp_ccw(t, c);
		break;
	}
	return dpp_node(t, c, l);
}

/*
 * Shortest mode.  Each hop goes to a reachable neighbour one hop closer to
 * the target (the waypoint if there is one, else the destination); the
 * flow hash in the routing word chooses among the equal ones.  When none
 * is reachable the packet is stuck and takes a detour, if its budget
 * allows: a local one (dpp_sp_local()) where one exists, else a far
 * waypoint chosen by the flow hash.  Stuck again on the way to a
 * waypoint, or right after a local detour, it goes far: local detours
 * alone can go round in a small circle of dead ends.
 *
 * Bound, with D = the diameter and B = the budget: the target changes only
 * when a detour sets a waypoint (at most B times) or a waypoint is reached
 * (the target becomes the destination again).  So a packet has at most
 * 2B + 1 targets in turn, and toward each every hop but a local detour's
 * first is one hop closer: at most D of them.  Hence at most
 * (2B + 1) D + B hops (dpp_sp_bound()), which must fit the TTL.
 */
static int dpp_sp_slow(const struct dp_topo *t, u32 self,
		       struct dp_route_state *st, const struct dp_view *v,
		       struct dp_hop *hop, struct dpp_at *dst_at);

static inline int dpp_sp(const struct dp_topo *t, u32 self,
			 struct dp_route_state *st,
			 const struct dp_view *v, struct dp_hop *hop)
{
	u32 cm, mask = 0;
	struct dpp_at a;
	int p;

	/*
	 * Algorithm 1, line 1, as dp_dpillar_route() tests it for the
	 * paper's routing, but on the symbols to set, which the rest needs
	 * anyway: "labels agree except symbol i" is "diff has no bit but i".
	 */
	__dpp_at_init(t, &a, self, st->dst);
	cm = dpp_ccw(t, a.c);
	if ((a.tc == a.c || a.tc == dpp_cw(t, a.c)) &&
	    !(a.diff & ~(1U << a.c)))
		mask |= 1U << DPP_PORT_CW;
	if ((a.tc == a.c || a.tc == cm) && !(a.diff & ~(1U << cm)))
		mask |= 1U << DPP_PORT_CCW;
	if (mask) {
		p = dpp_pick_port(v, self, mask, st->dst);
		if (p >= 0) {
			st->waypoint = DP_NODE_NONE;
			dpp_hop(hop, st->dst, (u32)p, DP_PHASE_DIRECT);
			return 0;
		}
	}
	/* the common case: no waypoint, the hash's hop reachable */
	if (st->waypoint == DP_NODE_NONE &&
	    dpp_sp_first(t, &a, dpp_sp_mask(t, &a), st->word, v, hop))
		return 0;
	return dpp_sp_slow(t, self, st, v, hop, &a);
}

/*
 * The rest of dpp_sp(), out of line so that the common case stays small:
 * a waypoint, a hop other than the hash's first choice, detours.  @dst_at:
 * where we are toward the destination.
 */
static noinline int dpp_sp_slow(const struct dp_topo *t, u32 self,
				struct dp_route_state *st,
				const struct dp_view *v, struct dp_hop *hop,
				struct dpp_at *dst_at)
{
	u32 used = st->flags & DPP_RS_DETOURS_MASK, wp, x;
	struct dpp_at *a = dst_at, wp_at;
	bool to_wp = false;

	if (st->waypoint != DP_NODE_NONE) {
		if (st->waypoint >= t->nodes)
			return dpp_drop(hop, DP_DROP_ROUTE_BAD_ADDR);
		if (st->waypoint == self) {
			st->waypoint = DP_NODE_NONE;
		} else {
			dpp_at_init(t, &wp_at, self, st->waypoint);
			a = &wp_at;
			to_wp = true;
		}
	}
	if (dpp_sp_next(t, a, st->word, v, NULL, 0, hop)) {
		if (to_wp)
			hop->phase = DPP_PHASE_WAYPOINT;
		return 0;
	}
	if (!v)
		return dpp_drop(hop, DPP_DROP_NOPATH);
	while (used < dpp(t)->budget) {
		used++;
		st->flags = (st->flags & ~DPP_RS_DETOURS_MASK) | used;
		if (!to_wp && !(st->flags & DPP_RS_LOCAL) &&
		    dpp_dist(t, self, st->dst) == 1 &&
		    dpp_sp_other_switch(t, self, st->dst, st->word + used, v,
					&wp, hop)) {
			st->flags |= DPP_RS_LOCAL;
			st->waypoint = wp;
			hop->phase = DPP_PHASE_DETOUR;
			return 0;
		}
		if (!to_wp && !(st->flags & DPP_RS_LOCAL) &&
		    dpp_sp_local(t, self, st->dst, st->word + used, v, &wp,
				 hop)) {
			st->flags |= DPP_RS_LOCAL;
			st->waypoint = wp == st->dst ? DP_NODE_NONE : wp;
			return 0;
		}
		st->flags &= ~DPP_RS_LOCAL;
		x = dpp_mix(st->word + used, self ^ st->dst);
		wp = 2 * used <= dpp(t)->budget ? dpp_sp_far(t, self, x) :
		     dpp_scale(x, t->nodes);
		if (wp == self)
			wp = wp + 1 == t->nodes ? 0 : wp + 1;
		st->waypoint = wp == st->dst ? DP_NODE_NONE : wp;
		if (dpp_sp_closer(t, self, wp, st->word, v, hop)) {
			hop->phase = DPP_PHASE_FAR;
			return 0;
		}
	}
	return dpp_drop(hop, DPP_DROP_DETOURS);
}

/*
 * The equal-cost next hops of a shortest-mode packet: every reachable
 * neighbour one hop closer to its target that can go on, in the order the
 * flow hash walks them (the first is the one taken).
 */
static u32 dpp_route_choices(const struct dp_topo *t, u32 self,
			     const struct dp_route_state *st,
			     const struct dp_view *v, u32 *ids, u32 max)
{
	u32 tgt = st->dst;
	struct dpp_at a;

	if (!(st->flags & DPP_RS_SHORTEST))
		return 0;
	if (st->waypoint < t->nodes && st->waypoint != self)
		tgt = st->waypoint;
	dpp_at_init(t, &a, self, tgt);
	return dpp_sp_next(t, &a, st->word, v, ids, max, NULL);
}

/* Longest shortest-mode path with @b detours; see dpp_sp(). */
static u32 dpp_sp_bound(u32 diam, u32 b)
{
	return (2 * b + 1) * diam + b;
}

/* The paper's routing, SRoute and FTRoute: dp_dpillar_route()'s other half. */
static noinline int dpp_paper(const struct dp_topo *t, u32 self,
			      struct dp_route_state *st,
			      const struct dp_view *r, struct dp_hop *hop)
{
	u32 dst = st->dst;
	u32 c, l, cd, ld, mask;
	int p;

	c = dpp_col(t, self);
	l = self - c * dpp(t)->nlabels;
	cd = dpp_col(t, dst);
	ld = dst - cd * dpp(t)->nlabels;

	/* Algorithm 1, line 1: the destination shares a switch with us. */
	mask = dpp_ports_to(t, c, l, cd, ld);
	if (mask) {
		p = dpp_pick_port(r, self, mask, dst);
		if (p >= 0) {
			st->waypoint = DP_NODE_NONE;
			dpp_hop(hop, dst, (u32)p, DP_PHASE_DIRECT);
			return 0;
		}
	}
	if (st->waypoint != DP_NODE_NONE) {
		if (st->waypoint >= t->nodes)
			return dpp_drop(hop, DP_DROP_ROUTE_BAD_ADDR);
		if (st->waypoint != self)
			return dpp_tunnel_mid(t, self, c, l, ld, st, r, hop);
		st->waypoint = DP_NODE_NONE;
	}
	if (l == ld)
		return dpp_ring(t, self, c, cd, ld, st, r, hop);
	return dpp_helix(t, self, c, l, ld, st, r, hop);
}

/*
 * The shortest mode, the default, inline here: its common case (no
 * waypoint, the hash's hop reachable) makes no call but the view's, as
 * a relay makes it once per packet (see __dpp_at_init()).  The paper's
 * mode and the shortest mode's other cases (dpp_sp_slow()) out of line,
 * so that the common case does not pay for their registers and stack.
 */
int dp_dpillar_route(const struct dp_topo *t, u32 self,
		     struct dp_route_state *st, const struct dp_view *r,
		     struct dp_hop *hop)
{
	if (self >= t->nodes || st->dst >= t->nodes)
		return dpp_drop(hop, DP_DROP_ROUTE_BAD_ADDR);
	if (self == st->dst)
		return dpp_drop(hop, DP_DROP_ROUTE_AT_DST);
	if (st->flags & DPP_RS_SHORTEST)
		return dpp_sp(t, self, st, r, hop);
	return dpp_paper(t, self, st, r, hop);
}
EXPORT_SYMBOL_IF_KUNIT(dp_dpillar_route);

static const struct dp_phase_desc dpp_phases[DPP_PHASE_COUNT] = {
	[DP_PHASE_NONE]		= { "none" },
	[DP_PHASE_DIRECT]	= { "direct" },
	[DPP_PHASE_HELIX]	= { "helix" },
	[DPP_PHASE_RING]	= { "ring" },
	[DPP_PHASE_TUNNEL]	= { "tunnel", 1 },
	[DPP_PHASE_UTURN]	= { "uturn", 2 },
	[DPP_PHASE_RING_REV]	= { "ring_reverse", 3 },
	[DPP_PHASE_SHORTEST]	= { "shortest" },
	[DPP_PHASE_WAYPOINT]	= { "waypoint", 5 },
	[DPP_PHASE_DETOUR]	= { "detour", 4 },
	[DPP_PHASE_FAR]		= { "far_detour", 4 },
};

static const char *const dpp_drops[DPP_DROP_COUNT] = {
	[DP_DROP_ROUTE_NONE]	= "none",
	[DP_DROP_ROUTE_BAD_ADDR] = "bad_addr",
	[DP_DROP_ROUTE_AT_DST]	= "at_dst",
	[DPP_DROP_RING]		= "ring_blocked",
	[DPP_DROP_UTURN]	= "uturn_blocked",
	[DPP_DROP_HELIX]	= "helix_blocked",
	[DPP_DROP_TUNNEL]	= "tunnel_blocked",
	[DPP_DROP_BUDGET]	= "tunnel_budget",
	[DPP_DROP_NOPATH]	= "no_path",
	[DPP_DROP_DETOURS]	= "detour_budget",
};

/* Hops of each kind of detour (ethtool -S: route_<name>). */
static const char *const dpp_detours[DP_DETOUR_SLOTS] = {
	"tunnel_hops", "uturns", "ring_reversals",
	"detours", "waypoint_hops",
};

static const char *const dpp_sel_names[] = {
	[DPP_SEL_SHORTEST] = "shortest", [DPP_SEL_AUTO] = "paper",
	[DPP_SEL_CW] = "cw", [DPP_SEL_CCW] = "ccw", NULL,
};

/* The helix direction of the paper's modes; the shortest mode has none. */
static int dpp_route_dir(const struct dp_topo *t,
			 const struct dp_route_state *st)
{
	/* Route get shows DPillar's phases and modes by the UAPI's numbers. */
	DP_BUILD_CHECK((int)DPP_PHASE_HELIX == DPILLAR_ROUTE_PHASE_HELIX);
	DP_BUILD_CHECK((int)DPP_PHASE_RING == DPILLAR_ROUTE_PHASE_RING);
	DP_BUILD_CHECK((int)DPP_PHASE_TUNNEL == DPILLAR_ROUTE_PHASE_TUNNEL);
	DP_BUILD_CHECK((int)DPP_PHASE_UTURN == DPILLAR_ROUTE_PHASE_UTURN);
	DP_BUILD_CHECK((int)DPP_PHASE_RING_REV == DPILLAR_ROUTE_PHASE_RING_REV);
	DP_BUILD_CHECK((int)DPP_PHASE_SHORTEST == DPILLAR_ROUTE_PHASE_SHORTEST);
	DP_BUILD_CHECK((int)DPP_PHASE_WAYPOINT == DPILLAR_ROUTE_PHASE_WAYPOINT);
	DP_BUILD_CHECK((int)DPP_PHASE_DETOUR == DPILLAR_ROUTE_PHASE_DETOUR);
	DP_BUILD_CHECK((int)DPP_PHASE_FAR == DPILLAR_ROUTE_PHASE_FAR_DETOUR);
	DP_BUILD_CHECK((int)DPP_PHASE_COUNT - 1 ==
		       DPILLAR_ROUTE_PHASE_FAR_DETOUR);
	DP_BUILD_CHECK((int)DPP_SEL_SHORTEST == DPILLAR_MODE_SHORTEST);
	DP_BUILD_CHECK((int)DPP_SEL_AUTO == DPILLAR_MODE_PAPER);
	DP_BUILD_CHECK((int)DPP_SEL_CW == DPILLAR_MODE_PAPER_CW);
	DP_BUILD_CHECK((int)DPP_SEL_CCW == DPILLAR_MODE_PAPER_CCW);

	(void)t;
	if (st->flags & DPP_RS_SHORTEST)
		return -1;
	return st->flags & DPP_RS_CCW ? DPILLAR_ROUTE_DIR_CCW :
					DPILLAR_ROUTE_DIR_CW;
}

/* What the device shows of the fabric: both are always given. */
static const struct dp_topo_param dpp_params[] = {
	DP_TOPO_PARAM(n, DP_PARAM_REQUIRED, NULL),
	DP_TOPO_PARAM(k, DP_PARAM_REQUIRED, NULL),
};

const struct dp_topo_ops dp_dpillar_ops = {
	.name = "dpillar",
	.kind = DP_TOPO_DPILLAR,
	.phases = dpp_phases,
	.nphases = DPP_PHASE_COUNT,
	.drops = dpp_drops,
	.ndrops = DPP_DROP_COUNT,
	/* Failures; nopath is a bug of failure-free routing, never one. */
	.fallback_drops = 1U << DPP_DROP_RING | 1U << DPP_DROP_UTURN |
			  1U << DPP_DROP_HELIX | 1U << DPP_DROP_TUNNEL |
			  1U << DPP_DROP_BUDGET | 1U << DPP_DROP_DETOURS,
	.detours = dpp_detours,
	.sel_names = dpp_sel_names,
	.params = dpp_params,
	.nparams = ARRAY_SIZE(dpp_params),
	.route_dir = dpp_route_dir,
	.init = dpp_init,
	.describe = dpp_describe,
	.addr_parse = dpp_addr_parse,
	.addr_format = dpp_addr_format,
	.port_info = dpp_port_info,
	.port_neigh = dpp_port_neigh,
	.port_neigh_index = dp_dpillar_port_neigh_index,
	.peer_port = dpp_peer_port,
	.route_init = dp_dpillar_route_init,
	.route = dp_dpillar_route,
	.route_choices = dpp_route_choices,
	.addr_to_label = dpp_addr_to_label,
	.addr_from_label = dpp_addr_from_label,
};
EXPORT_SYMBOL_IF_KUNIT(dp_dpillar_ops);
