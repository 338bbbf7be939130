// SPDX-License-Identifier: GPL-2.0
/*
 * topo_dcell.c - DCell(n, k): addressing, BuildDCells wiring, DCellRouting
 * and DFR (local reroute, local link state, jump-up).
 *
 * A DCell_0 is n servers on one mini-switch; a DCell_l is g_l = t_{l-1} + 1
 * DCell_{l-1}s, every two of them joined by one cable; t_l = g_l * t_{l-1}.
 * A server is [a_k, ..., a_0] (a_0 < n, a_l < g_l), node id
 * uid = a_0 + sum_{l >= 1} a_l * t_{l-1}.  Port 0 is on the mini-switch of
 * the n servers with the same uid / n (switch index uid / n), port l
 * (1..k) is a cable: in a DCell_l, sub-cells i < j are joined by
 * [i, j - 1] <-> [j, i], the second index being the uid inside the
 * sub-cell (BuildDCells).
 *
 * DCellRouting (the paper's Figure 3) is recursive; here it is computed
 * hop by hop from (self, target) alone: find the highest level l where
 * self and the target differ; if l = 0 the target is on our mini-switch;
 * else take the link (n1, n2) joining the two DCell_{l-1}s; if we are n1,
 * cross it, else n1 becomes the target and we go down a level.  Every node
 * of the recursive path computes the rest of that same path, so the walk
 * equals the recursion (checked on every pair of small cells by dpsim's
 * tests and KUnit), at most 2^(k+1) - 1 hops.
 *
 * DFR.  The excerpt stops at local reroute; the rules below are ours.
 * - Local link state: a server sees its mini-switch peers in the Hello
 *   table (view->reachable) and the cables they have up (their PORTS_UP
 *   TLV, view->ports_up).  So the failure of the next cable of level l is
 *   seen by every server of the DCell_0 holding its near end n1, not only
 *   by n1: the server that would send the packet to n1 over the switch
 *   reroutes instead (n1 down, its port l down, or, at n1, the far end
 *   not heard on the cable).
 * - Local reroute: a failure at level l between sub-cells s (ours) and d
 *   of a DCell_l picks a proxy sub-cell q != s, d of the same DCell_l and
 *   a proxy node in it, the waypoint; from the proxy DCellRouting goes to
 *   the destination from q to d, entering d at another node.  The proxy
 *   is, in this order: the far end of our own level-l cable; the far end
 *   of the level-l cable of a live mini-switch peer that reports that
 *   port up (one switch hop more); else the entry node in q of the link
 *   from s to q, for the first q after d (cyclically) whose exit node in
 *   s is not in the DCell_0 remembered as down.
 * - Jump-up: the DCell_0 of the far end of the link last rerouted around
 *   is remembered in the routing word (a tag, see topo_dcell.h).  A
 *   second failure toward the same DCell_0 means the whole rack may be
 *   down: at level 1 the failure is taken as one of the
 *   next level up in the DCellRouting recursion (the link whose near end
 *   is in that rack), and the proxy is picked at that level, avoiding exit
 *   nodes in the rack; at a higher level the proxy must enter d in another
 *   DCell_0 when one can.  When there is no level up (the rack holds the
 *   target) a plain reroute tries another entry while the budget lasts.
 *   When no proxy exists at a level, the reroute also jumps up one level.
 * - Budget: at most B reroutes per packet, counted in the header flags.
 *   Between two reroutes the packet follows DCellRouting toward a fixed
 *   target (the waypoint, then the destination), so the path has at most
 *   2B + 1 DCellRouting segments (one more for a waypoint found in a
 *   hostile header) of at most 2^(k+1) - 1 hops each: the TTL bound is
 *   (2B + 2)(2^(k+1) - 1).  B is the largest that keeps it within 255,
 *   at most 7 (3 flag bits): B = 7 for k <= 3 (TTL 48, 112, 240), B = 3
 *   for k = 4 (TTL 248).  Loop-free by construction, whatever the
 *   failures.
 * - Cable entry (mode "dfr", the default; not in mode "paper", which
 *   drops with dst_down here).  A destination on our own mini-switch
 *   that we cannot hear (its port 0 or the switch is down) may still be
 *   alive on its cables.  The packet then takes entry level l = 1: its
 *   target becomes the destination's level-l cable peer P_l (derived from
 *   dst and l, so the header needs only l, flag bits 3-5), and at P_l the
 *   last hop crosses that cable.  From a rack mate of the destination the
 *   DCellRouting path to P_l uses the destination's own cable, so the
 *   next pass meets the dead switch hop and takes an ordinary reroute
 *   around it.  When P_l cannot cross (cable down) or P_l itself is an
 *   unheard switch peer, the next level is tried (1, 2, .., k, 1, ..).
 *   Setting or changing the entry level takes one reroute from the
 *   budget, and a header's entry level counts only when it has taken a
 *   reroute.
 * - Loop-freedom and the TTL with cable entry: every change of target
 *   (a reroute's waypoint, an entry level) is paid from the budget, except
 *   reaching the waypoint (at most once per reroute, plus once for a
 *   hostile header's) and reaching P_l, after which the target is the
 *   destination one cable away: that crossing is the only hop toward it
 *   (or an entry change follows, taking no hop).  So with E events
 *   after the first entry, at most 2E + 1 DCellRouting segments plus the
 *   one crossing: within (2B + 2)(2^(k+1) - 1), the same bound; a hostile
 *   header with an entry level has spent one of B already.
 *
 * Parallel paths (path selection's candidates in mode "dfr", ours: the
 * paper proves k + 1 as a bandwidth, Theorem 6, and builds no paths).  A
 * server has k + 1 ports, so k + 1 internally disjoint paths use each
 * port of both ends once; disjoint means, as for XDCent and BCube, no
 * shared server and no shared switch between the ends (a path through a
 * DCell_0 takes its mini-switch; the ends' own switches are each one
 * path's, over the end's port 0).  Candidate 0 is DCellRouting.  With l
 * the highest level where src and dst differ (dcl_path_build()):
 * - Candidate m > l leaves src by its level-m cable and enters dst by
 *   dst's, DCellRouting between the far ends, which lie in two other
 *   DCell_{m-1}s of the DCell_m of both ends: the path stays in those
 *   two, and candidates m' > m in DCell_{m'-1}s outside that DCell_m.
 * - Candidates 1..l stay in the DCell_l of both ends, src in sub-cell a,
 *   dst in b.  DCellRouting is symmetric, and from a neighbour of an end
 *   its next hop is that end, so candidate 0 meets one neighbour of each
 *   end, the first and the last, and nothing of a or b but its own
 *   DCellRouting segments.  The other l ports of src each lead in one
 *   hop to an exit node of a (src itself for port l, the level-p cable
 *   peer for a port p < l, a rack mate for port 0) whose level-l cable
 *   goes to a sub-cell c, never b (the one exit to b is candidate 0's);
 *   those of dst to entry nodes of b from sub-cells e, never a.  Exit
 *   and entry nodes differ, so do their sub-cells.  An exit is paired
 *   with the entry from the same sub-cell, else with an unpaired one in
 *   port order; each path crosses over DCellRouting between the cable's
 *   far ends, inside c (or c and e), sub-cells no other path touches.
 *   The rack mate of port 0 is, when one exists, the one whose cable
 *   goes where an unpaired entry comes from (then one sub-cell), and
 *   candidate m takes src's port m, or port 0 when m is candidate 0's.
 * With F = 2^(k+1) - 1, DCellRouting's longest path, a parallel path
 * has at most 2^(m+1) + 1 hops for m > l, 2^(l+1) + 3 for m <= l: the
 * segment between the cable ends is at most 2^(l+1) - 1, and the other
 * four hops at most.  With k = 1 (l = 1, sub-cells are DCell_0s) at most
 * 5: an exit over port 0 is paired with an entry from its own DCell_0
 * (the rack mate, or dst's, can always be picked so), one switch hop
 * between.  So at most F + 4 (k = 1: 5): ff_hops, and within 2F.  A
 * relay rebuilds the path from (source, dst, M) in the header and routes
 * to the next waypoint; a next hop it cannot reach turns the packet to
 * DFR with one reroute paid: at most 2F + 2B F hops, within the TTL
 * (2B + 2) F.
 */
#include <linux/dpillar.h>

#include "topo_dcell.h"

static inline u32 dcl_div(const struct dp_topo *t, u32 x, u32 l)
{
	return dp_rdiv(x, dcl(t)->rt[l]);
}

/* The uid of @id inside its DCell_l. */
static inline u32 dcl_low(const struct dp_topo *t, u32 id, u32 l)
{
	return id - dcl_div(t, id, l) * dcl(t)->t[l];
}

u32 dcl_digit(const struct dp_topo *t, u32 id, u32 l)
{
	u32 q;

	if (!l)
		return dcl_low(t, id, 0);
	q = dcl_div(t, id, l - 1);
	return q - dcl_div(t, id, l) * dcl(t)->g[l];
}
EXPORT_SYMBOL_IF_KUNIT(dcl_digit);

void dcl_link(const struct dp_topo *t, u32 base, u32 l, u32 i, u32 j,
	      u32 *n1, u32 *n2)
{
	u32 ts = dcl(t)->t[l - 1];

	if (i < j) {
		*n1 = base + i * ts + (j - 1);
		*n2 = base + j * ts + i;
	} else {
		*n1 = base + i * ts + j;
		*n2 = base + j * ts + (i - 1);
	}
}
EXPORT_SYMBOL_IF_KUNIT(dcl_link);

u32 dcl_cable_peer(const struct dp_topo *t, u32 id, u32 l)
{
	u32 a = dcl_digit(t, id, l);
	u32 u = dcl_low(t, id, l - 1);
	u32 base = id - dcl_low(t, id, l);
	u32 ts = dcl(t)->t[l - 1];

	/* We are [a, u]: [a, u] <-> [u + 1, a] if u >= a, else [u, a - 1]. */
	if (u >= a)
		return base + (u + 1) * ts + a;
	return base + u * ts + (a - 1);
}
EXPORT_SYMBOL_IF_KUNIT(dcl_cable_peer);

static inline bool dcl_same_rack(const struct dp_topo *t, u32 a, u32 b)
{
	return dcl_div(t, a, 0) == dcl_div(t, b, 0);
}

/*
 * Highest level where @a and @b differ: 0 when on one mini-switch.  This
 * and dcl_resolve() inline in each caller: no frame on a decision's.
 */
static __always_inline u32 dcl_top_level(const struct dp_topo *t, u32 a,
					 u32 b)
{
	u32 l;

	for (l = dcl(t)->k; l > 0; l--)
		if (dcl_div(t, a, l - 1) != dcl_div(t, b, l - 1))
			return l;
	return 0;
}

static int dcl_init(struct dp_topo *t, const struct dp_topo_params *prm,
		    const char **why)
{
	struct dcl_priv *d = (struct dcl_priv *)t->priv;
	u32 n = prm->n, k = prm->k, l, f;
	u64 tl;

	DP_BUILD_CHECK(sizeof(struct dcl_priv) <= sizeof(t->priv));
	if (prm->level || prm->spaces || prm->nodes || prm->seed) {
		*why = "DCell takes only n and k";
		return -EINVAL;
	}
	if (!n || !k) {
		*why = !n ? "Missing n" : "Missing k";
		return -EINVAL;
	}
	if (n < DCL_N_MIN || n > DCL_N_MAX) {
		*why = "n out of range (2..1024)";
		return -EINVAL;
	}
	if (k > DCL_MAX_K) {
		*why = "too many servers: t_k exceeds 2^32 - 1";
		return -EINVAL;
	}
	d->n = n;
	d->k = k;
	d->t[0] = n;
	d->g[0] = 1;
	d->rt[0] = dp_rdiv_init(n);
	for (l = 1; l <= k; l++) {
		tl = (u64)d->t[l - 1] * (d->t[l - 1] + 1);
		if (tl > 0xffffffffULL) {
			*why = "too many servers: t_k exceeds 2^32 - 1";
			return -EINVAL;
		}
		d->g[l] = d->t[l - 1] + 1;
		d->t[l] = (u32)tl;
		d->rt[l] = dp_rdiv_init(d->t[l]);
	}
	t->nodes = d->t[k];
	t->switches = d->t[k] / n;
	t->nports = k + 1;
	/* DCellRouting's longest path F, and a parallel path's (above) */
	f = (2U << k) - 1;
	t->ff_hops = k == 1 ? 5 : f + 4;
	/* The budget rule above: at most 255 hops. */
	d->budget = (DP_TTL_MAX / f - 2) / 2;
	if (d->budget > DCL_MAX_REROUTES)
		d->budget = DCL_MAX_REROUTES;
	t->max_hops = (2 * d->budget + 2) * f;
	t->nsels = DCL_SEL_PATH0 + k + 1;	/* "pM": M <= k */
	return 0;
}

static int dcl_describe(const struct dp_topo *t, char *buf, u32 len)
{
	u32 pos = 0;

	dp_put_str(buf, len, &pos, "DCell (");
	dp_put_u32(buf, len, &pos, dcl(t)->n);
	dp_put_char(buf, len, &pos, ',');
	dp_put_u32(buf, len, &pos, dcl(t)->k);
	dp_put_char(buf, len, &pos, ')');
	return dp_put_end(buf, len, pos);
}

/* Text form "a_k.....a_0", e.g. "0.2.1" in DCell(2,2). */
static int dcl_addr_format(const struct dp_topo *t, u32 id, char *buf,
			   u32 len)
{
	u32 pos = 0, l;

	for (l = dcl(t)->k + 1; l-- > 0;) {
		dp_put_u32(buf, len, &pos, dcl_digit(t, id, l));
		if (l)
			dp_put_char(buf, len, &pos, '.');
	}
	return dp_put_end(buf, len, pos);
}

static int dcl_addr_parse(const struct dp_topo *t, const char *text, u32 *id,
			  const char **why)
{
	u32 a[DCL_MAX_K + 1], nd = 0, v, l, uid;
	const char *p = text;
	int err;

	if (!p || !*p) {
		*why = "empty address";
		return -EINVAL;
	}
	for (;;) {
		err = dp_parse_dec(&p, 0xffffffffU, &v);
		if (err) {
			*why = "address must look like a_k.....a_0 (decimal)";
			return -EINVAL;
		}
		if (nd == dcl(t)->k + 1) {
			*why = "address has more than k+1 digits";
			return -EINVAL;
		}
		a[nd++] = v;
		if (!*p)
			break;
		if (*p != '.') {
			*why = "address must look like a_k.....a_0 (decimal)";
			return -EINVAL;
		}
		p++;
	}
	if (nd != dcl(t)->k + 1) {
		*why = "address must have k+1 digits";
		return -EINVAL;
	}
	/* a[0] is a_k; a[k] is a_0. */
	uid = 0;
	for (l = 0; l <= dcl(t)->k; l++) {
		v = a[dcl(t)->k - l];
		if (v >= (l ? dcl(t)->g[l] : dcl(t)->n)) {
			*why = l ? "address digit a_l out of range (< t_{l-1} + 1)" :
			       "address digit a_0 out of range (< n)";
			return -EINVAL;
		}
		uid += v * (l ? dcl(t)->t[l - 1] : 1);
	}
	*id = uid;
	return 0;
}

static void dcl_port_info(const struct dp_topo *t, u32 id, u32 port,
			  struct dp_port_info *pi)
{
	if (port == DCL_PORT_SWITCH) {
		pi->kind = DP_PORT_SWITCH;
		pi->nneigh = dcl(t)->n - 1;
		pi->sw = dcl_div(t, id, 0);
		pi->sw_level = 0;
		pi->sw_id = pi->sw;
		return;
	}
	pi->kind = DP_PORT_CABLE;
	pi->nneigh = 1;
	pi->sw = DP_NODE_NONE;
	pi->sw_level = port;
	pi->sw_id = DP_NODE_NONE;
}

static u32 dcl_port_neigh(const struct dp_topo *t, u32 id, u32 port, u32 idx)
{
	u32 a0;

	if (port == DCL_PORT_SWITCH) {
		if (idx >= dcl(t)->n - 1)
			return DP_NODE_NONE;
		a0 = dcl_low(t, id, 0);
		return id - a0 + (idx < a0 ? idx : idx + 1);
	}
	if (port > dcl(t)->k || idx)
		return DP_NODE_NONE;
	return dcl_cable_peer(t, id, port);
}

int dp_dcell_port_neigh_index(const struct dp_topo *t, u32 id, u32 port,
			      u32 peer)
{
	u32 a0, b0;

	if (peer >= t->nodes || peer == id)
		return -1;
	if (port == DCL_PORT_SWITCH) {
		if (!dcl_same_rack(t, id, peer))
			return -1;
		a0 = dcl_low(t, id, 0);
		b0 = dcl_low(t, peer, 0);
		return (int)(b0 < a0 ? b0 : b0 - 1);
	}
	if (port > dcl(t)->k || dcl_cable_peer(t, id, port) != peer)
		return -1;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(dp_dcell_port_neigh_index);

/* A switch peer is on port 0 of the peer; a cable peer on the same level. */
static int dcl_peer_port(const struct dp_topo *t, u32 id, u32 port, u32 peer)
{
	return dp_dcell_port_neigh_index(t, id, port, peer) < 0 ? -1 : (int)port;
}

void dp_dcell_route_init(const struct dp_topo *t, u32 src, u32 dst, u32 sel,
			 u32 hash, struct dp_route_state *st)
{
	/*
	 * One path per pair, no flow spreading (path selection spreads
	 * flows over the parallel paths); @sel: cable entry or not, or a
	 * parallel path pinned ("p0" is mode "dfr").
	 */
	(void)hash;
	st->dst = dst;
	st->waypoint = DP_NODE_NONE;
	st->word = 0;
	st->flags = sel == DCL_SEL_PAPER ? DCL_RS_PAPER : 0;
	if (sel > DCL_SEL_PATH0 && sel - DCL_SEL_PATH0 <= dcl(t)->k &&
	    src != dst) {
		st->waypoint = src;
		st->word = (u16)(DCL_WORD_PATH | (sel - DCL_SEL_PATH0));
	}
}
EXPORT_SYMBOL_IF_KUNIT(dp_dcell_route_init);

/* One step of the DCellRouting recursion: the link (n1, n2) at a level. */
struct dcl_step {
	u32 level;
	u32 n1, n2;
};

/*
 * The DCellRouting recursion from @self toward @target: steps[0..*m-1],
 * levels decreasing.  Returns true when the first hop crosses our own
 * cable (steps[*m-1].n1 == self), false when it goes over the switch to
 * steps[*m-1].n1 (or to @target when *m == 0).
 */
static __always_inline bool dcl_resolve(const struct dp_topo *t, u32 self,
					u32 target, struct dcl_step *steps,
					u32 *m)
{
	u32 l, base, n1, n2;

	*m = 0;
	for (;;) {
		l = dcl_top_level(t, self, target);
		if (!l)
			return false;
		base = self - dcl_low(t, self, l);
		dcl_link(t, base, l, dcl_digit(t, self, l),
			 dcl_digit(t, target, l), &n1, &n2);
		steps[*m].level = l;
		steps[*m].n1 = n1;
		steps[*m].n2 = n2;
		(*m)++;
		if (n1 == self)
			return true;
		target = n1;
	}
}

static bool dcl_port_reported_up(const struct dp_view *v, u32 self, u32 peer,
				 u32 port)
{
	u32 mask;

	if (!v || !v->ports_up)
		return true;	/* not known here: assume up */
	if (!dp_view_ask_ports_up(v, self, DCL_PORT_SWITCH, peer, &mask))
		return true;	/* an old Hello without PORTS_UP */
	return mask & (1U << port);
}

/* The routing word's tag of the DCell_0 of @x: never 0. */
static u16 dcl_rack_tag(const struct dp_topo *t, u32 x)
{
	return (u16)(dcl_div(t, x, 0) % 0x7fff + 1);
}

/*
 * Would a proxy in sub-cell @q enter sub-cell @d of the DCell_l at @base in
 * another DCell_0 than @n2, the entry that failed?  Always false at level
 * 1, where sub-cells are DCell_0s.
 */
static bool dcl_other_rack(const struct dp_topo *t, u32 base, u32 l, u32 q,
			   u32 d, u32 n2)
{
	u32 e1, e2;

	if (l < 2)
		return false;
	dcl_link(t, base, l, q, d, &e1, &e2);
	return !dcl_same_rack(t, e2, n2);
}

/*
 * Pick the proxy of a reroute at level @l around the link whose far end
 * @n2 is in sub-cell @d: 0 with *@wp set, or -1 when there is none.  When
 * n2's DCell_0 is the one remembered in @word (a second failure toward it:
 * the rack may be down), pass 0 first takes only proxies that enter d in
 * another DCell_0; pass 1 takes any.
 */
static int dcl_pick_proxy(const struct dp_topo *t, u32 self, u32 l, u32 d,
			  u32 n2, u32 word, const struct dp_view *v, u32 *wp)
{
	u32 s = dcl_digit(t, self, l), base, q, i, e, n1, p, a0, gl, pass;
	bool other;

	base = self - dcl_low(t, self, l);
	gl = dcl(t)->g[l];
	a0 = dcl_low(t, self, 0);
	for (pass = l < 2 || word != dcl_rack_tag(t, n2); pass < 2; pass++) {
		/* Our own level-l cable, when it leads to another sub-cell. */
		p = dcl_cable_peer(t, self, l);
		q = dcl_digit(t, p, l);
		other = dcl_other_rack(t, base, l, q, d, n2);
		if (q != d && (pass || other) &&
		    dp_view_reachable(v, self, l, p)) {
			*wp = p;
			return 0;
		}
		/* A mini-switch peer's level-l cable, reported up. */
		for (i = 0; i < dcl(t)->n; i++) {
			if (i == a0)
				continue;
			e = self - a0 + i;
			p = dcl_cable_peer(t, e, l);
			q = dcl_digit(t, p, l);
			if (q == d ||
			    (!pass && !dcl_other_rack(t, base, l, q, d, n2)) ||
			    !dp_view_reachable(v, self, DCL_PORT_SWITCH, e) ||
			    !dcl_port_reported_up(v, self, e, l))
				continue;
			*wp = p;
			return 0;
		}
		if (l == 1)
			return -1;	/* every exit node is on our switch */
		/* Any other sub-cell whose exit node is off our switch. */
		for (i = 1, q = d + 1; i < gl; i++, q++) {
			if (q == gl)
				q = 0;
			if (q == s || q == d ||
			    (!pass && !dcl_other_rack(t, base, l, q, d, n2)))
				continue;
			dcl_link(t, base, l, s, q, &n1, &e);
			if (dcl_same_rack(t, self, n1) ||
			    word == dcl_rack_tag(t, n1))
				continue;
			*wp = e;
			return 0;
		}
	}
	return -1;
}

static inline int dcl_drop(struct dp_hop *hop, u8 reason)
{
	hop->reason = reason;
	return -1;
}

static inline void dcl_hop(struct dp_hop *hop, u32 next, u32 port, u8 phase)
{
	hop->next = next;
	hop->port = port;
	hop->phase = phase;
	hop->reason = DP_DROP_ROUTE_NONE;
}

/*
 * The first hop of DCellRouting from @self toward @target (self !=
 * target), dcl_resolve() without its steps: the port (a cable's level, or
 * 0 for the mini-switch), the neighbour in *@next.
 */
static u32 dcl_first_hop(const struct dp_topo *t, u32 self, u32 target,
			 u32 *next)
{
	u32 l, n1, n2;

	for (;;) {
		l = dcl_top_level(t, self, target);
		if (!l) {
			*next = target;
			return DCL_PORT_SWITCH;
		}
		dcl_link(t, self - dcl_low(t, self, l), l, dcl_digit(t, self, l),
			 dcl_digit(t, target, l), &n1, &n2);
		if (n1 == self) {
			*next = n2;
			return l;
		}
		target = n1;
	}
}

/* The rack mate of @x whose digit a_0 follows x's, cyclically. */
static u32 dcl_next_mate(const struct dp_topo *t, u32 x)
{
	u32 a0 = dcl_low(t, x, 0);

	return a0 + 1 == dcl(t)->n ? x - a0 : x + 1;
}

/*
 * The node one hop from the end @e of a parallel path inside the DCell_@l
 * of both ends, over e's port @p: e itself for p = l (its level-l cable
 * leaves the sub-cell), its level-p cable peer, or for p = 0 the rack
 * mate @mate.
 */
static u32 dcl_end(const struct dp_topo *t, u32 e, u32 p, u32 l, u32 mate)
{
	if (p == l)
		return e;
	return p ? dcl_cable_peer(t, e, p) : mate;
}

/* The sub-cell of the DCell_@l that dcl_end()'s level-l cable goes to. */
static u32 dcl_end_cell(const struct dp_topo *t, u32 e, u32 p, u32 l,
			u32 mate)
{
	return dcl_digit(t, dcl_cable_peer(t, dcl_end(t, e, p, l, mate), l), l);
}

/*
 * The rack mate of end @e (in sub-cell @sub of the DCell_@l at @base)
 * for its port 0: one whose level-l cable goes where the other end's
 * port i (@from <= i <= @l) reaches, @theirs[i], when none of @e's ports
 * 1..@l (@mine) goes there already (the path then crosses one sub-cell),
 * else the next (dcl_next_mate()).
 */
static u32 dcl_port0_mate(const struct dp_topo *t, u32 e, u32 base, u32 l,
			  u32 sub, const u32 *mine, const u32 *theirs,
			  u32 from)
{
	u32 i, j, near, far;
	bool used;

	for (i = from; i <= l; i++) {
		for (used = false, j = 1; j <= l; j++)
			used |= theirs[i] == mine[j];
		if (theirs[i] == DP_NODE_NONE || used)
			continue;
		dcl_link(t, base, l, sub, theirs[i], &near, &far);
		if (dcl_same_rack(t, near, e))
			return near;
	}
	return dcl_next_mate(t, e);
}

/*
 * Parallel path @m (1..k) of @src -> @dst (see the comment at the top):
 * its waypoints w[0 .. *nw - 1], from @src to @dst, each to the next by
 * DCellRouting; all those segments are one hop but the one ending at
 * w[*mid].  At most DCL_PATH_WPS waypoints.
 */
static void dcl_path_build(const struct dp_topo *t, u32 src, u32 dst, u32 m,
			   u32 *w, u32 *nw, u32 *mid)
{
	u32 cx[DCL_MAX_K + 1], ce[DCL_MAX_K + 1];	/* sub-cells by port */
	u32 l = dcl_top_level(t, src, dst), a, b, base, ps, pd, p, q, i, x, y;
	u32 x0 = DP_NODE_NONE, y0 = DP_NODE_NONE;
	u8 pair[DCL_MAX_K + 1];
	bool used;

	*nw = 0;
	w[(*nw)++] = src;
	if (m > l) {
		/* Out of the DCell_{m-1} of both ends and back. */
		w[(*nw)++] = dcl_cable_peer(t, src, m);
		*mid = *nw;
		w[(*nw)++] = dcl_cable_peer(t, dst, m);
		w[(*nw)++] = dst;
		return;
	}
	/*
	 * Inside the DCell_l of both ends, src in sub-cell a, dst in b.  The
	 * default route (candidate 0) leaves src by port ps and enters dst
	 * by port pd (DCellRouting is symmetric).  Every other port p of src
	 * leads to an exit node of a, dcl_end(src, p) (src itself for p = l,
	 * rack mate x0 for p = 0), whose level-l cable goes to sub-cell
	 * cx[p], never b; every other port q of dst to an entry node of b,
	 * its cable from ce[q], never a.
	 */
	a = dcl_digit(t, src, l);
	b = dcl_digit(t, dst, l);
	base = src - dcl_low(t, src, l);
	ps = dcl_first_hop(t, src, dst, &x);
	pd = dcl_first_hop(t, dst, src, &y);
	for (p = 1; p <= l; p++) {
		cx[p] = dcl_end_cell(t, src, p, l, x0);
		ce[p] = dcl_end_cell(t, dst, p, l, y0);
	}
	cx[ps] = DP_NODE_NONE;
	ce[pd] = DP_NODE_NONE;
	/* Port 0 of each end that has one free: src's first, then dst's. */
	if (ps) {
		x0 = dcl_port0_mate(t, src, base, l, a, cx, ce, 1);
		cx[0] = dcl_end_cell(t, src, 0, l, x0);
	}
	if (pd) {
		y0 = dcl_port0_mate(t, dst, base, l, b, ce, cx, 0);
		ce[0] = dcl_end_cell(t, dst, 0, l, y0);
	}
	/*
	 * Pair the exits with the entries: one from the same sub-cell
	 * first, then the others in port order, each path crossing
	 * sub-cells of its own (cx[p], ce[q]).
	 */
	for (q = 0; q <= l; q++)
		pair[q] = 0;
	for (p = 0; p <= l; p++)
		for (q = 0; q <= l && cx[p] != DP_NODE_NONE; q++)
			if (ce[q] == cx[p])
				pair[q] = (u8)(p + 1);
	for (p = 0, q = 0; p <= l; p++) {
		for (used = false, i = 0; i <= l; i++)
			used |= pair[i] == p + 1;
		if (cx[p] == DP_NODE_NONE || used)
			continue;
		while (q <= l && (ce[q] == DP_NODE_NONE || pair[q]))
			q++;
		if (q <= l)
			pair[q] = (u8)(p + 1);
	}
	p = m == ps ? 0 : m;
	for (q = 0; q <= l && pair[q] != p + 1; q++)
		;
	if (q > l)
		q = pd ? 0 : l;	/* not reached: every exit has a pair */
	x = dcl_end(t, src, p, l, x0);
	y = dcl_end(t, dst, q, l, y0);
	if (x != src)
		w[(*nw)++] = x;
	w[(*nw)++] = dcl_cable_peer(t, x, l);
	*mid = *nw;
	w[(*nw)++] = dcl_cable_peer(t, y, l);
	if (y != dst)
		w[(*nw)++] = y;
	w[(*nw)++] = dst;
}

/*
 * A hop of parallel path M (word DCL_WORD_PATH | M, the source in the
 * waypoint): rebuilt from (source, dst, M); from a waypoint to the next,
 * from anywhere else toward the end of the long segment.  A next hop we
 * cannot reach, or a header no sender builds: DFR from here with one
 * reroute paid (1: route again).  Bound: the path has at most ff_hops,
 * within 2F (F = 2^(k+1) - 1; see the comment at the top), DFR with
 * B - 1 reroutes at most 2B F more: within (2B + 2) F.
 */
static noinline int dcl_path_hop(const struct dp_topo *t, u32 self,
				 struct dp_route_state *st,
				 const struct dp_view *v, struct dp_hop *hop)
{
	u32 w[DCL_PATH_WPS], nw, mid, i, target, next, port;
	u32 m = st->word & ~DCL_WORD_PATH, src = st->waypoint;

	if (m && m <= dcl(t)->k && !st->flags && src < t->nodes &&
	    src != st->dst) {
		dcl_path_build(t, src, st->dst, m, w, &nw, &mid);
		target = w[mid];
		for (i = nw - 1; i-- > 0;) {
			if (w[i] == self) {
				target = w[i + 1];
				break;
			}
		}
		port = dcl_first_hop(t, self, target, &next);
		if (dp_view_reachable(v, self, port, next)) {
			dcl_hop(hop, next, port, next == st->dst ?
				DP_PHASE_DIRECT : DCL_PHASE_DCELL);
			return 0;
		}
	}
	st->word = 0;
	st->waypoint = DP_NODE_NONE;
	st->flags = 1;
	return 1;
}

/*
 * The cable entry event (see above): take entry level @entry + 1 (after k:
 * 1), paid from the budget.  0, or -1 with the drop reason set.
 */
static int dcl_next_entry(const struct dp_topo *t, struct dp_route_state *st,
			  u32 *entry, struct dp_hop *hop)
{
	u32 used = st->flags & DCL_RS_REROUTES_MASK;

	if (used >= dcl(t)->budget)
		return dcl_drop(hop, DCL_DROP_BUDGET);
	*entry = *entry >= dcl(t)->k ? 1 : *entry + 1;
	st->flags = (st->flags & ~(DCL_RS_REROUTES_MASK | DCL_RS_ENTRY_MASK)) |
		    (*entry << DCL_RS_ENTRY_SHIFT) | (used + 1);
	return 0;
}

/*
 * DCellRouting with DFR (the comment at the top) from @self, not @st's
 * destination, both valid; the first hop's phase @phase unless a rule
 * sets one.  Inlined in dp_dcell_route() (a call here cost a DFR
 * decision 8% more instructions, dpsim's bench-callgrind.sh); the
 * parallel path's hop, dcl_path_hop(), is not.
 */
static int dcl_route_dfr(const struct dp_topo *t, u32 self,
			 struct dp_route_state *st, const struct dp_view *v,
			 struct dp_hop *hop, u8 phase)
{
	struct dcl_step steps[DCL_MAX_K];
	u32 target, m, i, l, d, wp, used, entry, ep = DP_NODE_NONE;
	bool cross, failed, jump, paper;

	if (st->waypoint != DP_NODE_NONE) {
		if (st->waypoint >= t->nodes)
			return dcl_drop(hop, DP_DROP_ROUTE_BAD_ADDR);
		if (st->waypoint == self)
			st->waypoint = DP_NODE_NONE;
	}
	paper = st->flags & DCL_RS_PAPER;
	entry = (st->flags & DCL_RS_ENTRY_MASK) >> DCL_RS_ENTRY_SHIFT;
	/* Only an entry level paid for counts (the bound above). */
	if (paper || entry > dcl(t)->k ||
	    !(st->flags & DCL_RS_REROUTES_MASK))
		entry = 0;
	/*
	 * Each pass either returns or takes one reroute or entry level from
	 * the budget, so there are at most budget + 1 passes.
	 */
	for (;;) {
		target = st->dst;
		if (entry) {
			ep = dcl_cable_peer(t, st->dst, entry);
			if (ep != self)
				target = ep;
		}
		if (st->waypoint != DP_NODE_NONE)
			target = st->waypoint;
		if (phase == DCL_PHASE_DCELL && target != st->dst)
			phase = DCL_PHASE_PROXY;
		cross = dcl_resolve(t, self, target, steps, &m);
		if (cross) {
			l = steps[m - 1].level;
			if (dp_view_reachable(v, self, l, steps[m - 1].n2)) {
				dcl_hop(hop, steps[m - 1].n2, l, phase);
				return 0;
			}
			/* The entry cable itself is down: the next level. */
			if (entry && self == ep && target == st->dst) {
				if (dcl_next_entry(t, st, &entry, hop))
					return -1;
				phase = DCL_PHASE_ENTRY;
				continue;
			}
		} else {
			wp = m ? steps[m - 1].n1 : target;
			failed = !dp_view_reachable(v, self, DCL_PORT_SWITCH,
						    wp);
			if (!failed && m)
				failed = !dcl_port_reported_up(v, self, wp,
							       steps[m - 1].level);
			if (!failed) {
				if (wp == st->dst)
					phase = DP_PHASE_DIRECT;
				dcl_hop(hop, wp, DCL_PORT_SWITCH, phase);
				return 0;
			}
			if (!m) {
				if (target == st->dst && paper)
					return dcl_drop(hop, DCL_DROP_DST_DOWN);
				if (target == st->dst ||
				    (target == ep && st->waypoint == DP_NODE_NONE)) {
					/*
					 * The destination, or the entry
					 * peer, on our switch and not heard:
					 * reach the destination over a cable.
					 */
					if (dcl_next_entry(t, st, &entry, hop))
						return -1;
					phase = DCL_PHASE_ENTRY;
					continue;
				}
				/* A proxy on our switch we cannot hear. */
				st->waypoint = DP_NODE_NONE;
				continue;
			}
		}
		/* The link of steps[m - 1] is down: reroute. */
		used = st->flags & DCL_RS_REROUTES_MASK;
		if (used >= dcl(t)->budget)
			return dcl_drop(hop, DCL_DROP_BUDGET);
		i = m - 1;
		jump = false;
		if (steps[i].level == 1 &&
		    st->word == dcl_rack_tag(t, steps[i].n2)) {
			/*
			 * Twice toward this DCell_0: the rack is down.  When
			 * it holds the target there is no level to jump to:
			 * a plain reroute tries another entry while the budget
			 * lasts (servers of the rack may still be up).
			 */
			if (i) {
				i--;
				jump = true;
			}
		}
		for (;;) {
			l = steps[i].level;
			d = dcl_digit(t, steps[i].n2, l);
			if (!dcl_pick_proxy(t, self, l, d, steps[i].n2, st->word,
					    v, &wp))
				break;
			if (!i)
				return dcl_drop(hop, DCL_DROP_NO_PROXY);
			i--;
			jump = true;
		}
		st->word = dcl_rack_tag(t, steps[m - 1].n2);
		st->waypoint = wp;
		st->flags = (st->flags & ~DCL_RS_REROUTES_MASK) | (used + 1);
		if (phase != DCL_PHASE_ENTRY)
			phase = jump ? DCL_PHASE_JUMPUP : DCL_PHASE_REROUTE;
	}
}

int dp_dcell_route(const struct dp_topo *t, u32 self,
		   struct dp_route_state *st, const struct dp_view *v,
		   struct dp_hop *hop)
{
	u8 phase = DCL_PHASE_DCELL;

	if (self >= t->nodes || st->dst >= t->nodes)
		return dcl_drop(hop, DP_DROP_ROUTE_BAD_ADDR);
	if (self == st->dst)
		return dcl_drop(hop, DP_DROP_ROUTE_AT_DST);
	if (st->word & DCL_WORD_PATH) {
		if (!dcl_path_hop(t, self, st, v, hop))
			return 0;
		phase = DCL_PHASE_REROUTE;	/* DFR from here, paid */
	}
	return dcl_route_dfr(t, self, st, v, hop, phase);
}
EXPORT_SYMBOL_IF_KUNIT(dp_dcell_route);

/*
 * Path selection spreads the flows of mode "dfr" over the k + 1 parallel
 * paths: candidate 0 is DCellRouting, 1..k dcl_path_build()'s.
 */
static u32 dcl_npaths(const struct dp_topo *t, u32 src, u32 dst, u32 sel)
{
	(void)src;
	(void)dst;
	return sel == DCL_SEL_DFR ? dcl(t)->k + 1 : 0;
}

static void dcl_path_init(const struct dp_topo *t, u32 src, u32 dst, u32 m,
			  struct dp_route_state *st)
{
	dp_dcell_route_init(t, src, dst, DCL_SEL_PATH0 + m, 0, st);
}

static const struct dp_phase_desc dcl_phases[DCL_PHASE_COUNT] = {
	[DP_PHASE_NONE]		= { "none" },
	[DP_PHASE_DIRECT]	= { "direct" },
	[DCL_PHASE_DCELL]	= { "dcell" },
	[DCL_PHASE_PROXY]	= { "proxy", 1 },
	[DCL_PHASE_REROUTE]	= { "reroute", 2 },
	[DCL_PHASE_JUMPUP]	= { "jumpup", 3 },
	[DCL_PHASE_ENTRY]	= { "entry", 4 },
};

static const char *const dcl_drops[DCL_DROP_COUNT] = {
	[DP_DROP_ROUTE_NONE]	= "none",
	[DP_DROP_ROUTE_BAD_ADDR] = "bad_addr",
	[DP_DROP_ROUTE_AT_DST]	= "at_dst",
	[DCL_DROP_DST_DOWN]	= "dst_down",
	[DCL_DROP_BUDGET]	= "reroute_budget",
	[DCL_DROP_NO_PROXY]	= "no_proxy",
};

/* Hops of each kind of detour (ethtool -S: route_<name>). */
static const char *const dcl_detours[DP_DETOUR_SLOTS] = {
	"proxy_hops", "reroutes", "jump_ups", "cable_entries",
};

/*
 * Routing modes: "dfr", DCellRouting with DFR and cable entry (above);
 * "paper", the same without cable entry (the excerpt's local reroute and
 * our jump-up only: a destination unheard on its mini-switch is dropped).
 * Failure-free paths are the same in both.  "pM" pins parallel path M
 * (M <= k: t->nsels), the candidates path selection spreads the flows of
 * mode "dfr" over; "p0" is "dfr".
 */
static const char *const dcl_sel_names[] = {
	"dfr", "paper", "p0", "p1", "p2", "p3", "p4", NULL
};

/* What the device shows of the fabric: both are always given. */
static const struct dp_topo_param dcl_params[] = {
	DP_TOPO_PARAM(n, DP_PARAM_REQUIRED, NULL),
	DP_TOPO_PARAM(k, DP_PARAM_REQUIRED, NULL),
};

const struct dp_topo_ops dp_dcell_ops = {
	.name = "dcell",
	.kind = DP_TOPO_DCELL,
	.phases = dcl_phases,
	.nphases = DCL_PHASE_COUNT,
	.drops = dcl_drops,
	.ndrops = DCL_DROP_COUNT,
	.fallback_drops = 1U << DCL_DROP_DST_DOWN | 1U << DCL_DROP_BUDGET |
			  1U << DCL_DROP_NO_PROXY,
	.detours = dcl_detours,
	.sel_names = dcl_sel_names,
	.params = dcl_params,
	.nparams = ARRAY_SIZE(dcl_params),
	.init = dcl_init,
	.describe = dcl_describe,
	.addr_parse = dcl_addr_parse,
	.addr_format = dcl_addr_format,
	.port_info = dcl_port_info,
	.port_neigh = dcl_port_neigh,
	.port_neigh_index = dp_dcell_port_neigh_index,
	.peer_port = dcl_peer_port,
	.route_init = dp_dcell_route_init,
	.route = dp_dcell_route,
	.npaths = dcl_npaths,
	.path_init = dcl_path_init,
};
EXPORT_SYMBOL_IF_KUNIT(dp_dcell_ops);
