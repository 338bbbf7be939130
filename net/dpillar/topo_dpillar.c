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
#include "topo_dpillar.h"

/* x / h^i */
static inline u32 dpp_div(const struct dp_topo *t, u32 x, u32 i)
{
	return dp_rdiv(x, dpp(t)->rpow[i]);
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

static int dpp_init(struct dp_topo *t, const struct dp_topo_params *prm,
		    const char **why)
{
	struct dpp_priv *d = (struct dpp_priv *)t->priv;
	u32 n = prm->n, k = prm->k;
	u64 p = 1, nodes;
	u32 i;

	/* DPillar's tables must fit struct dp_topo.priv. */
	DP_BUILD_CHECK(sizeof(struct dpp_priv) <= sizeof(t->priv));
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
	if (k > DPP_MAX_K) {
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
		d->rpow[i] = dp_rdiv_init((u32)p);
		p *= d->h;
	}
	nodes = (u64)k * d->pow[k];
	if (nodes > 0xffffffffULL) {
		*why = "too many servers: k*(n/2)^k exceeds 2^32 - 1";
		return -EINVAL;
	}
	d->nlabels = d->pow[k];
	t->nodes = (u32)nodes;
	t->switches = k * d->pow[k - 1];
	t->nports = DPP_NPORTS;
	t->ff_hops = k + k / 2;
	/* k <= 27 here (the node count fits a u32): at most 225 hops. */
	t->max_hops = dpp_max_hops(k);
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

static int dpp_port_neigh_index(const struct dp_topo *t, u32 id, u32 port,
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
	if (dpp_port_neigh_index(t, id, port, peer) < 0)
		return -1;
	/* Switch S_sc joins port 0 of column sc and port 1 of column sc+1. */
	return dpp_col(t, peer) == dpp_port_col(t, dpp_col(t, id), port) ?
	       DPP_PORT_CW : DPP_PORT_CCW;
}

/* @sel: enum dpp_sel.  DPillar spreads no flows: @hash is unused. */
void dp_dpillar_route_init(const struct dp_topo *t, u32 src, u32 dst,
			   u32 sel, u32 hash, struct dp_route_state *st)
{
	(void)hash;
	st->dst = dst;
	st->waypoint = DP_NODE_NONE;
	st->word = 0;
	st->flags = 0;
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

int dp_dpillar_route(const struct dp_topo *t, u32 self,
		     struct dp_route_state *st, const struct dp_view *r,
		     struct dp_hop *hop)
{
	u32 dst = st->dst;
	u32 c, l, cd, ld, mask;
	int p;

	if (self >= t->nodes || dst >= t->nodes)
		return dpp_drop(hop, DP_DROP_ROUTE_BAD_ADDR);
	if (self == dst)
		return dpp_drop(hop, DP_DROP_ROUTE_AT_DST);
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

static const struct dp_phase_desc dpp_phases[DPP_PHASE_COUNT] = {
	[DP_PHASE_NONE]		= { "none" },
	[DP_PHASE_DIRECT]	= { "direct" },
	[DPP_PHASE_HELIX]	= { "helix" },
	[DPP_PHASE_RING]	= { "ring" },
	[DPP_PHASE_TUNNEL]	= { "tunnel", 1 },
	[DPP_PHASE_UTURN]	= { "uturn", 2 },
	[DPP_PHASE_RING_REV]	= { "ring_reverse", 3 },
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
};

/* Hops of each kind of detour (ethtool -S: route_<name>). */
static const char *const dpp_detours[DP_DETOUR_SLOTS] = {
	"tunnel_hops", "uturns", "ring_reversals",
};

static const char *const dpp_sel_names[] = {
	[DPP_SEL_AUTO] = "auto", [DPP_SEL_CW] = "cw", [DPP_SEL_CCW] = "ccw",
	NULL,
};

const struct dp_topo_ops dp_dpillar_ops = {
	.name = "dpillar",
	.kind = DP_TOPO_DPILLAR,
	.phases = dpp_phases,
	.nphases = DPP_PHASE_COUNT,
	.drops = dpp_drops,
	.ndrops = DPP_DROP_COUNT,
	.detours = dpp_detours,
	.sel_names = dpp_sel_names,
	.init = dpp_init,
	.describe = dpp_describe,
	.addr_parse = dpp_addr_parse,
	.addr_format = dpp_addr_format,
	.port_info = dpp_port_info,
	.port_neigh = dpp_port_neigh,
	.port_neigh_index = dpp_port_neigh_index,
	.peer_port = dpp_peer_port,
	.route_init = dp_dpillar_route_init,
	.route = dp_dpillar_route,
	.addr_to_label = dpp_addr_to_label,
	.addr_from_label = dpp_addr_from_label,
};
EXPORT_SYMBOL_IF_KUNIT(dp_dpillar_ops);
