// SPDX-License-Identifier: GPL-2.0
/*
 * topo_s2.c - Space Shuffle (S2) coordinates and greediest routing.
 *
 * See topo_s2.h.  No locks, no floating point, no 64-bit division: the
 * slot width is one u32 division per call.  No allocation but derived
 * mode's tables (struct s2_tab), once, by dp_topo_alloc().
 */
#include <linux/dpillar.h>

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

u32 dp_s2_key_hash(const u8 *key, u32 len)
{
	u32 h = 0x811c9dc5U, i;

	for (i = 0; i < len; i++) {
		h ^= key[i];
		h *= 0x01000193U;
	}
	return h;
}
EXPORT_SYMBOL_IF_KUNIT(dp_s2_key_hash);

void dp_s2_key_point(u32 kid, u32 d, u32 *x)
{
	u32 i;

	for (i = 0; i < d; i++)
		x[i] = dp_fmix32(kid ^ dp_fmix32(0x6b657900U + i));
}
EXPORT_SYMBOL_IF_KUNIT(dp_s2_key_point);

void dp_s2_key_coords(const u8 *key, u32 len, u32 d, u32 *x)
{
	dp_s2_key_point(dp_s2_key_hash(key, len), d, x);
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

/*
 * The S2 topology in the module (struct dp_topo_ops), derived mode: a node
 * is (nodes N, n ports, L spaces, seed, id).  Its coordinates are
 * dp_s2_coord(seed, N, id, space) and so is its cabling, so that every
 * node knows every cable it should have and any destination's coordinates
 * without a table:
 *
 * - Ring r has a slot order: for r < L it is space r's (the coordinates'
 *   order, the paper's ring of that space); rings L..n/2-1 are extra
 *   seeded permutations (spaces DP_S2_SPACES_MAX + r - L of the same
 *   generator) that stand for the paper's random pairing of spare ports:
 *   a union of random Hamiltonian cycles, a random regular graph that a
 *   node can derive.  An odd last port is unused.
 * - Port 2r is cabled to the node's predecessor in ring r, port 2r + 1 to
 *   its successor.  A peer already cabled on a lower port leaves the port
 *   unused (the paper's multigraph has no parallel cables either); both
 *   ends agree, since they meet first in the same ring, once (N >= 3).
 *
 * Plan mode (the paper's Algorithm 3 coordinates and random cabling from
 * a plan, topo_s2.h): a node is given its own coordinates and knows
 * nothing else of the fabric.  Each port is a cable to whichever node its
 * Hellos name (t->learn_peers), routing takes the neighbours' and 2-hop
 * neighbours' coordinates from the view (their Hellos), and a frame
 * carries its destination's coordinates (st->coords, S2_FL_COORDS): the
 * decisions and the proofs are derived mode's, with coordinates heard
 * instead of computed.
 */
struct s2_priv {
	u32 nodes, spaces, seed, ports, rings;
	bool plan;		/* plan mode: t->p.coords are ours */
	/*
	 * Derived mode's arithmetic, precomputed by s2_init() so that a
	 * decision (which derives some two hundred slots and coordinates)
	 * pays neither the Feistel rounds' hashing nor the divisions; read
	 * only afterwards, like every topology's priv.  A fabric of at most
	 * DP_S2_TTL_NODES_MAX < 256 nodes has a Feistel domain of at most 8
	 * bits (dp_s2_bits()) and a round's input is a half of at most 4
	 * bits: ftab[r][i] holds dp_s2_round(seed, ring r's space, i, v) &
	 * 15 for v = 0..15, a nibble each, and a round is a shift and a mask
	 * (rows r < rings = n / 2 <= DP_MAX_PORTS / 2, as s2_init() checks
	 * n).  A larger fabric (up to DP_S2_ROUTE_NODES_MAX, halves of up to
	 * 7 bits) would need 128-entry rows that do not fit the priv: its
	 * rounds hash, dp_s2_round() itself, whose inner hash of (seed,
	 * space, round) is rkey[r][i], so the same permutation, the same
	 * cabling and coordinates as dp_s2_coord() and the tools'.  okey[s]
	 * is dp_s2_round()'s inner hash for round 0x5e of space s
	 * (dp_s2_coord()'s offset), w and span dp_s2_coord()'s slot width
	 * and offset range.
	 */
	u32 fbits, fmask, w, span;
	u32 okey[DP_S2_SPACES_MAX];
	u64 ftab[DP_MAX_PORTS / 2][4];
	u32 rkey[DP_MAX_PORTS / 2][4];
	/*
	 * The hop budget (s2_init()): @ext, the fabric's bound exceeds the
	 * wire's u8 TTL and frames carry a renewal count (S2_FL_EXT) of at
	 * most @ext_max; @sc_budget, the most hops of the shortcut phase
	 * (s2_sc_budget()).
	 */
	bool ext;
	u32 ext_max;
	u32 sc_budget;
};

static const struct s2_priv *s2p(const struct dp_topo *t)
{
	return (const struct s2_priv *)t->priv;
}

/*
 * Derived mode's whole fabric, every node's peers and coordinates, so
 * that a decision reads them instead of deriving them: some hundred
 * permutations (each a few Feistel evaluations, cycle walking) and as
 * many offset hashes and divisions a decision, from a few dozen loads.
 * One block from dp_topo_alloc() (s2_alloc()), filled from s2_priv by
 * the functions the derivation uses, so the same values; read-only
 * afterwards, shared by every node routed with the topology (dpsim) and
 * every lockless reader (the kernel), like priv.  Without it (t->alloc
 * NULL: not asked for, no memory, plan mode) routing derives them as
 * before.  nodes * (2 * ports + 4 * spaces) bytes: at most 1 MiB
 * (DP_S2_ROUTE_NODES_MAX nodes, 16 ports, 8 spaces), 158 KiB at 2,880
 * nodes, 16 ports, 6 spaces, 8,000 bytes at 250 nodes, 8 ports, 4.
 *
 * @coord: coord[id * spaces + sp], dp_s2_coord(seed, nodes, id, sp):
 *	a node's coordinates side by side, as an MCD reads them.
 * @peer: peer[id * ports + p], the peer on port p of id (s2_peers(),
 *	duplicates and the odd last port unused), S2_TAB_NONE when unused.
 *	Ids are below DP_S2_ROUTE_NODES_MAX, a u16.
 */
struct s2_tab {
	const u32 *coord;
	const u16 *peer;
};

#define S2_TAB_NONE	0xffffU

static const struct s2_tab *s2t(const struct dp_topo *t)
{
	return (const struct s2_tab *)t->alloc;
}

static void s2_tables_init(struct s2_priv *d);

enum {
	S2_PHASE_GREEDY = DP_PHASE_TOPO,	/* toward a 1-hop neighbour */
	S2_PHASE_GREEDY2,	/* via a 1-hop toward a 2-hop neighbour */
	S2_PHASE_MULTIPATH,	/* first hop hashed over MCD-reducing ones */
	S2_PHASE_SHORTCUT,	/* along a discovered shortcut */
	S2_PHASE_COUNT,
};

enum {
	S2_DROP_LOCAL_MIN = DP_DROP_TOPO,	/* no neighbour is closer */
	S2_DROP_BAD_STATE,	/* a header no S2 node sends */
	S2_DROP_SHORTCUT_LOST,	/* on a shortcut, and this node knows none */
	S2_DROP_NO_COORDS,	/* plan mode: coordinates it needs unknown */
	S2_DROP_COUNT,
};

/*
 * Route state flags: the rule (selector), the first-hop mark, the
 * shortcut phase (S2_FL_SHORTCUT: the word is then the most hops the
 * packet may still take, each along a discovered shortcut), and the key
 * mark: the header's dst is a 32-bit key id, not a node (key frames take
 * no hashed first hop and no shortcut: S2_FL_KEY_KNOWN); and, in plan
 * mode only, S2_FL_COORDS: the destination's coordinates follow.
 */
#define S2_FL_SEL_MASK	0x03
#define S2_FL_FIRST	0x04
#define S2_FL_SHORTCUT	0x08
#define S2_FL_KNOWN	(S2_FL_SEL_MASK | S2_FL_FIRST | S2_FL_SHORTCUT)
#define S2_FL_KEY	0x10
#define S2_FL_KEY_KNOWN	(S2_FL_SEL_MASK | S2_FL_KEY)
/* Plan mode: the destination's coordinates follow the header. */
#define S2_FL_COORDS	0x20
/*
 * A fabric above 255 nodes only (s2_priv.ext): the word is the frame's
 * renewal count E in the greedy phase, node or key frame (s2_init() has
 * the budget, s2_ttl_renew() the renewal).  Never with S2_FL_FIRST (the
 * word is then the flow hash) or S2_FL_SHORTCUT (the shortcut budget):
 * such a header is dropped.  A smaller fabric never sets it and drops a
 * frame that has it, as it always did.
 */
#define S2_FL_EXT	0x40

/* Selectors (route_init's sel, dpctl "mode"): index = value. */
#define S2_SEL_COUNT	3
static const char *const s2_sel_names[S2_SEL_COUNT + 1] = {
	"2hop", "1hop", "2hop-sim", NULL,
};

static u32 s2_rule(u32 sel)
{
	static const u8 rules[S2_SEL_COUNT] = {
		DP_S2_RULE_2HOP_PAPER, DP_S2_RULE_1HOP, DP_S2_RULE_2HOP_SIM,
	};

	return sel < S2_SEL_COUNT ? rules[sel] : DP_S2_RULE_COUNT;
}

static int s2_init(struct dp_topo *t, const struct dp_topo_params *p,
		   const char **why)
{
	struct s2_priv *d = (struct s2_priv *)t->priv;

	DP_BUILD_CHECK(sizeof(*d) <= sizeof(t->priv));
	if (p->k || p->level) {
		*why = "S2 takes nodes, n (ports), spaces and seed, not k or level";
		return -EINVAL;
	}
	if (!p->nodes || !p->n || !p->spaces) {
		*why = !p->nodes ? "Missing nodes" : !p->n ? "Missing n" :
		       "Missing spaces";
		return -EINVAL;
	}
	if (p->nodes < 3 || p->nodes > DP_S2_ROUTE_NODES_MAX) {
		*why = "nodes out of range (3..16384)";
		return -EINVAL;
	}
	if (p->spaces > DP_S2_SPACES_MAX) {
		*why = "spaces out of range (1..8)";
		return -EINVAL;
	}
	if (p->n > DP_MAX_PORTS || p->n < 2 * p->spaces) {
		*why = "n (ports) must be at least 2 * spaces and at most 16";
		return -EINVAL;
	}
	if (p->ncoords && p->ncoords != p->spaces) {
		*why = "coords must give one coordinate per space";
		return -EINVAL;
	}
	d->nodes = p->nodes;
	d->spaces = p->spaces;
	d->seed = p->seed;
	d->ports = p->n;
	d->rings = p->n / 2;
	d->plan = p->ncoords;
	s2_tables_init(d);
	t->learn_peers = d->plan;
	t->ext_len = d->plan ? 4 + 4 * p->spaces : 0;	/* dpillar_coords */
	t->nodes = p->nodes;
	t->switches = 0;
	t->nports = p->n;
	/*
	 * Path bound: every hop of the rules 1hop and 2hop-sim goes to a node
	 * strictly closer (MCD) to the destination, so no node is visited
	 * twice: at most nodes - 1 hops.  The paper's 2hop rule keeps that
	 * bound while the Hello data agree (topo_s2.h).  The hashed first hop
	 * (S2_FL_FIRST, honoured once, wherever a hostile header sets it)
	 * adds one hop before a path that never revisits a node: nodes hops
	 * in all.  Up to 255 nodes the wire's u8 TTL counts that, and the
	 * frames are what they always were; above, the hop budget is wider
	 * (below).  With stale or lying 2-hop lists the budget still bounds
	 * the packet.
	 *
	 * A packet stuck at a local minimum may go on along a discovered
	 * shortcut (dp_s2_route()), of at most max_hops - ff_hops hops
	 * (s2_sc_budget()): nodes - 1, a simple path, up to 128 nodes, where
	 * the TTL covers both parts (2 * nodes - 1); from 129 to 255 nodes the
	 * TTL is the wire's 255 and shortcuts longer than 255 - nodes hops
	 * are not taken.
	 */
	t->ff_hops = p->nodes;
	if (p->nodes <= DP_S2_TTL_NODES_MAX) {
		t->max_hops = 2 * p->nodes - 1;
		if (t->max_hops > DP_TTL_MAX)
			t->max_hops = DP_TTL_MAX;
		d->sc_budget = t->max_hops - t->ff_hops;
		return 0;
	}
	/*
	 * Above 255 nodes a greedy path alone may be longer than the u8 TTL
	 * can count: the frame carries a renewal count E (S2_FL_EXT, the
	 * word; s2_ttl_renew()) and its hop budget in the greedy phase is
	 *
	 *	Q = ttl + 254 * E,	E <= ext_max (else the frame is dropped)
	 *
	 * (E = 0 without S2_FL_EXT).  A relay forwards a greedy frame only
	 * when Q >= 2: with ttl >= 2, or ttl <= 1 and E >= 1, renewed to
	 * (ttl + 254, E - 1), the same Q; it then lowers the TTL, so the next
	 * node gets Q - 1.  The routing keeps E in the greedy phase and never
	 * raises it, except once: consuming S2_FL_FIRST (never set again, and
	 * never with S2_FL_EXT) sets E = ext_max, the sender's budget.  With
	 * G = 255 + 254 * ext_max, a frame arriving anywhere, any header,
	 * has Q <= G, so at most G - 1 greedy-phase hops follow (after a
	 * first hop from ttl T, the next Q is at most T - 1 + 254 * ext_max
	 * <= G - 1); a sender's frame takes at most G (its own hop, then Q
	 * <= G at the next node).  The shortcut phase takes at most
	 * sc_budget = nodes - 1 hops, bounded by its word as below the 255
	 * nodes (dp_s2_route()), and its TTL is renewed from that word
	 * (s2_ttl_renew()).  So max_hops = G + nodes - 1, whatever the
	 * header, and no counter can be reset: loop freedom and the bound
	 * hold as for a small fabric, with a wider budget.
	 *
	 * ext_max = ceil(nodes / 254) - 1 gives G >= nodes + 1: a
	 * failure-free greedy path (at most ff_hops = nodes hops) leaves
	 * every node on it with Q >= 2, that where it enters the shortcut
	 * phase included, so no frame of a real path runs out.  2,880 nodes:
	 * ext_max 11, G 3,049, max_hops 5,928.
	 */
	d->ext = true;
	d->ext_max = (p->nodes + DP_TTL_MAX - 2) / (DP_TTL_MAX - 1) - 1;
	d->sc_budget = p->nodes - 1;
	t->max_hops = DP_TTL_MAX + (DP_TTL_MAX - 1) * d->ext_max +
		      d->sc_budget;
	return 0;
}

static int s2_describe(const struct dp_topo *t, char *buf, u32 len)
{
	const struct s2_priv *d = s2p(t);
	u32 pos = 0;

	dp_put_str(buf, len, &pos, d->plan ? "S2 plan (nodes " : "S2 (nodes ");
	dp_put_u32(buf, len, &pos, d->nodes);
	dp_put_str(buf, len, &pos, ", ports ");
	dp_put_u32(buf, len, &pos, d->ports);
	dp_put_str(buf, len, &pos, ", spaces ");
	dp_put_u32(buf, len, &pos, d->spaces);
	if (!d->plan) {
		dp_put_str(buf, len, &pos, ", seed ");
		dp_put_u32(buf, len, &pos, d->seed);
	}
	dp_put_char(buf, len, &pos, ')');
	return dp_put_end(buf, len, pos);
}

/* An S2 address is the node id in decimal. */
static int s2_addr_parse(const struct dp_topo *t, const char *text, u32 *id,
			 const char **why)
{
	const char *p = text;
	u32 v;

	if (!p || dp_parse_dec(&p, 0xffffffffU, &v) || *p) {
		*why = "address must be a node id (decimal)";
		return -EINVAL;
	}
	if (v >= t->nodes) {
		*why = "node id out of range (0..nodes-1)";
		return -EINVAL;
	}
	*id = v;
	return 0;
}

static int s2_addr_format(const struct dp_topo *t, u32 id, char *buf,
			  u32 len)
{
	u32 pos = 0;

	(void)t;
	dp_put_u32(buf, len, &pos, id);
	return dp_put_end(buf, len, pos);
}

/* The slot order of ring @r: a coordinate space, or a cabling ring. */
static u32 s2_ring_space(const struct s2_priv *d, u32 r)
{
	return r < d->spaces ? r : DP_S2_SPACES_MAX + r - d->spaces;
}

/*
 * dp_s2_feistel() of ring @r by the tables (struct s2_priv): the same
 * four rounds on the same halves, each round's function read from ftab
 * instead of hashed, so the same permutation.  One nibble of round i:
 * the half @x's entry of ftab[r][i].
 */
static inline u32 s2_round(const u64 *f, u32 i, u32 x)
{
	return (u32)(f[i] >> (4 * x));
}

/*
 * A fabric above DP_S2_TTL_NODES_MAX: the rounds hashed, dp_s2_round()
 * with its inner hash precomputed (rkey), then the same four rounds.
 */
static u32 s2_feistel_wide(const struct s2_priv *d, u32 r, u32 v, bool inv)
{
	u32 h = d->fbits / 2, mask = d->fmask, left = v >> h;
	u32 right = v & mask;
	const u32 *k = d->rkey[r];

	if (!inv) {
		left = (left ^ dp_fmix32(right ^ k[0])) & mask;
		right = (right ^ dp_fmix32(left ^ k[1])) & mask;
		left = (left ^ dp_fmix32(right ^ k[2])) & mask;
		right = (right ^ dp_fmix32(left ^ k[3])) & mask;
	} else {
		right = (right ^ dp_fmix32(left ^ k[3])) & mask;
		left = (left ^ dp_fmix32(right ^ k[2])) & mask;
		right = (right ^ dp_fmix32(left ^ k[1])) & mask;
		left = (left ^ dp_fmix32(right ^ k[0])) & mask;
	}
	return (left << h) | right;
}

static u32 s2_feistel(const struct s2_priv *d, u32 r, u32 v)
{
	u32 h = d->fbits / 2, mask = d->fmask, left = v >> h;
	u32 right = v & mask;
	const u64 *f = d->ftab[r];

	if (d->fbits > 8)
		return s2_feistel_wide(d, r, v, false);
	left = (left ^ s2_round(f, 0, right)) & mask;
	right = (right ^ s2_round(f, 1, left)) & mask;
	left = (left ^ s2_round(f, 2, right)) & mask;
	right = (right ^ s2_round(f, 3, left)) & mask;
	return (left << h) | right;
}

/* The inverse of s2_feistel(): its rounds backwards. */
static u32 s2_feistel_inv(const struct s2_priv *d, u32 r, u32 v)
{
	u32 h = d->fbits / 2, mask = d->fmask, left = v >> h;
	u32 right = v & mask;
	const u64 *f = d->ftab[r];

	if (d->fbits > 8)
		return s2_feistel_wide(d, r, v, true);
	right = (right ^ s2_round(f, 3, left)) & mask;
	left = (left ^ s2_round(f, 2, right)) & mask;
	right = (right ^ s2_round(f, 1, left)) & mask;
	left = (left ^ s2_round(f, 0, right)) & mask;
	return (left << h) | right;
}

/* dp_s2_perm() of ring @r, by the tables: @v < d->nodes. */
static u32 s2_perm(const struct s2_priv *d, u32 r, u32 v, bool inv)
{
	if (v >= d->nodes)
		return 0;	/* dp_s2_perm()'s answer outside its contract */
	do
		v = inv ? s2_feistel_inv(d, r, v) : s2_feistel(d, r, v);
	while (v >= d->nodes);
	return v;
}

/* dp_s2_coord(seed, nodes, @id, @sp) by the tables. */
static u32 s2_coord(const struct s2_priv *d, u32 id, u32 sp)
{
	if (id >= d->nodes)
		return 0;
	return s2_perm(d, sp, id, false) * d->w +
	       dp_fmix32(id ^ d->okey[sp]) % d->span;
}

/* Fill the tables of struct s2_priv: s2_init(), nodes and rings set. */
static void s2_tables_init(struct s2_priv *d)
{
	u32 r, i, v, sp;

	DP_BUILD_CHECK(DP_S2_TTL_NODES_MAX < 256);
	DP_BUILD_CHECK(DP_S2_ROUTE_NODES_MAX <= 65536);	/* u16 slots */
	d->fbits = dp_s2_bits(d->nodes);	/* <= 8 iff nodes < 256 */
	d->fmask = (1U << (d->fbits / 2)) - 1;
	d->w = 0xffffffffU / d->nodes;
	d->span = d->w - dp_s2_min_gap(d->nodes) + 1;
	for (r = 0; r < d->rings; r++) {
		sp = s2_ring_space(d, r);
		for (i = 0; i < 4; i++) {
			/* dp_s2_round(seed, sp, i, v) = dp_fmix32(v ^ rkey) */
			d->rkey[r][i] = dp_fmix32(d->seed ^ (sp << 8) ^ i ^
						  0x9e3779b9U);
			d->ftab[r][i] = 0;
			if (d->fbits > 8)
				continue;
			for (v = 0; v < 16; v++)
				d->ftab[r][i] |=
				    (u64)(dp_s2_round(d->seed, sp, i, v) & 15)
				    << (4 * v);
		}
	}
	/* dp_s2_round(seed, sp, 0x5e, id) is dp_fmix32(id ^ okey[sp]) */
	for (sp = 0; sp < d->spaces; sp++)
		d->okey[sp] = dp_fmix32(d->seed ^ (sp << 8) ^ 0x5e ^
					0x9e3779b9U);
}

/* The node at the other end of port @port's ring cable, ignoring dups. */
static u32 s2_ring_peer(const struct s2_priv *d, u32 id, u32 port)
{
	u32 r = port / 2;
	u32 s = s2_perm(d, r, id, false);

	s = port & 1 ? (s + 1 == d->nodes ? 0 : s + 1) :
		       (s ? s - 1 : d->nodes - 1);
	return s2_perm(d, r, s, true);
}

/*
 * The peers of all ports of @id at once (DP_NODE_NONE: unused), the
 * per-packet form: n ring lookups and n^2 / 2 compares.
 */
static void s2_peers(const struct s2_priv *d, u32 id, u32 *peer)
{
	u32 p, q;

	for (p = 0; p < d->ports; p++) {
		peer[p] = p < 2 * d->rings ? s2_ring_peer(d, id, p) :
					     DP_NODE_NONE;
		for (q = 0; q < p && peer[p] != DP_NODE_NONE; q++)
			if (peer[q] == peer[p])
				peer[p] = DP_NODE_NONE;
	}
}

/*
 * The same from the slots @slot of @id in each ring (s2_perm()): slot
 * s - 1 and s + 1 of ring r are the peers of ports 2r and 2r + 1.  A
 * slot equal to @self_slot's in that ring is @self (each ring's order is
 * a bijection), which costs no inverse permutation; @self_slot may be
 * NULL.
 */
static void s2_peers_slots(const struct s2_priv *d, const u16 *slot,
			   const u16 *self_slot, u32 self, u32 *peer)
{
	u32 p, q, s, r;

	for (p = 0; p < d->ports; p++) {
		peer[p] = DP_NODE_NONE;
		if (p >= 2 * d->rings)
			continue;
		r = p / 2;
		s = slot[r];
		s = p & 1 ? (s + 1 == d->nodes ? 0 : s + 1) :
			    (s ? s - 1 : d->nodes - 1);
		peer[p] = self_slot && s == self_slot[r] ? self :
			  s2_perm(d, r, s, true);
		for (q = 0; q < p; q++)
			if (peer[q] == peer[p])
				peer[p] = DP_NODE_NONE;
	}
}

/* The slot of the peer on port @p of a node whose slots are @slot. */
static u32 s2_port_slot(const struct s2_priv *d, const u16 *slot, u32 p)
{
	u32 s = slot[p / 2];

	return p & 1 ? (s + 1 == d->nodes ? 0 : s + 1) :
		       (s ? s - 1 : d->nodes - 1);
}

/* The peer on port @port of @id, or DP_NODE_NONE for an unused port. */
static u32 s2_port_peer(const struct s2_priv *d, u32 id, u32 port)
{
	u32 peer, q;

	if (port >= 2 * d->rings)
		return DP_NODE_NONE;
	peer = s2_ring_peer(d, id, port);
	for (q = 0; q < port; q++)
		if (s2_ring_peer(d, id, q) == peer)
			return DP_NODE_NONE;
	return peer;
}

/*
 * Plan mode: every port is a cable to a peer the Hellos name (the kernel,
 * t->learn_peers), or the one the fabric's table gives (the tools).
 */
static const struct dp_s2_plan *s2_table(const struct dp_topo *t)
{
	const struct dp_s2_plan *pl = t->table;

	return pl && pl->nodes == t->nodes && pl->ports == t->nports &&
	       pl->spaces == s2p(t)->spaces ? pl : NULL;
}

/* The peer on port @port of @id in plan mode: DP_NODE_NONE if unknown. */
static u32 s2_plan_peer(const struct dp_topo *t, u32 id, u32 port)
{
	const struct dp_s2_plan *pl = s2_table(t);

	if (!pl || id >= pl->nodes || port >= pl->ports)
		return DP_NODE_NONE;
	return pl->peer[id * pl->ports + port];
}

/* s2_port_peer() of @t, from the tables when it has them. */
static u32 s2_derived_peer(const struct dp_topo *t, u32 id, u32 port)
{
	const struct s2_tab *tb = s2t(t);
	u32 peer;

	if (!tb || id >= t->nodes || port >= t->nports)
		return s2_port_peer(s2p(t), id, port);
	peer = tb->peer[id * t->nports + port];
	return peer == S2_TAB_NONE ? DP_NODE_NONE : peer;
}

static void s2_port_info(const struct dp_topo *t, u32 id, u32 port,
			 struct dp_port_info *pi)
{
	bool used;

	if (s2p(t)->plan)
		used = !s2_table(t) ||
		       s2_plan_peer(t, id, port) != DP_NODE_NONE;
	else
		used = s2_derived_peer(t, id, port) != DP_NODE_NONE;
	pi->kind = used ? DP_PORT_CABLE : DP_PORT_UNUSED;
	pi->nneigh = used;
	pi->sw = DP_NODE_NONE;
	pi->sw_level = port / 2;	/* the ring (derived mode) */
	pi->sw_id = port & 1;		/* 0: predecessor, 1: successor */
}

static u32 s2_port_neigh(const struct dp_topo *t, u32 id, u32 port, u32 idx)
{
	if (idx)
		return DP_NODE_NONE;
	if (s2p(t)->plan)
		return s2_plan_peer(t, id, port);
	return s2_derived_peer(t, id, port);
}

int dp_s2_port_neigh_index(const struct dp_topo *t, u32 id, u32 port,
			   u32 peer)
{
	if (peer >= t->nodes)
		return -1;
	if (s2p(t)->plan && !s2_table(t))
		return peer != id ? 0 : -1;	/* learned from its Hellos */
	return s2_port_neigh(t, id, port, 0) == peer ? 0 : -1;
}
EXPORT_SYMBOL_IF_KUNIT(dp_s2_port_neigh_index);

static int s2_peer_port(const struct dp_topo *t, u32 id, u32 port, u32 peer)
{
	const struct s2_priv *d = s2p(t);
	u32 pp[DP_MAX_PORTS], q;

	if (peer >= t->nodes || s2_port_neigh(t, id, port, 0) != peer)
		return -1;
	if (d->plan) {
		for (q = 0; q < d->ports; q++)
			if (s2_plan_peer(t, peer, q) == id)
				return q;
		return -1;
	}
	if (s2t(t)) {
		for (q = 0; q < d->ports; q++)
			if (s2t(t)->peer[peer * d->ports + q] == id)
				return q;
		return -1;
	}
	s2_peers(d, peer, pp);
	for (q = 0; q < d->ports; q++)
		if (pp[q] == id)
			return q;
	return -1;
}

int dp_s2_plan_attach(struct dp_topo *t, const struct dp_s2_plan *plan)
{
	if (t->kind != DP_TOPO_S2 || !s2p(t)->plan || !plan ||
	    plan->nodes != t->nodes || plan->ports != t->nports ||
	    plan->spaces != s2p(t)->spaces || !plan->coords || !plan->peer)
		return -EINVAL;
	t->table = plan;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(dp_s2_plan_attach);

/*
 * A fabric above 255 nodes: @st gets the sender's renewal count, its hop
 * budget (s2_init()).  The only place the count is set: by a sender, or
 * once where the hashed first hop is spent (dp_s2_route()).
 */
static void s2_give_budget(const struct s2_priv *d, struct dp_route_state *st)
{
	st->flags |= S2_FL_EXT;
	st->word = d->ext_max;
}

void dp_s2_route_init(const struct dp_topo *t, u32 src, u32 dst, u32 sel,
		      u32 hash, struct dp_route_state *st)
{
	(void)src;
	st->dst = dst;
	st->waypoint = DP_NODE_NONE;
	st->flags = sel < S2_SEL_COUNT ? sel : 0;
	/* 16 bits of the flow hash for the first hop; 0: plain greedy */
	st->word = (u16)hash;
	if (st->word) {
		st->flags |= S2_FL_FIRST;
	} else if (s2p(t)->ext) {
		/* plain greedy above 255 nodes: the sender's hop budget */
		s2_give_budget(s2p(t), st);
	}
}
EXPORT_SYMBOL_IF_KUNIT(dp_s2_route_init);

/* A key frame to the key id @key: plain greedy (no hashed first hop). */
void dp_s2_key_route_init(const struct dp_topo *t, u32 src, u32 key,
			  u32 sel, struct dp_route_state *st)
{
	(void)src;
	st->dst = key;
	st->waypoint = DP_NODE_NONE;
	st->flags = (sel < S2_SEL_COUNT ? sel : 0) | S2_FL_KEY;
	st->word = 0;
	if (s2p(t)->ext)
		s2_give_budget(s2p(t), st);	/* above 255 nodes */
}
EXPORT_SYMBOL_IF_KUNIT(dp_s2_key_route_init);

bool dp_s2_dst_is_key(const struct dp_topo *t, u8 flags)
{
	(void)t;
	return flags & S2_FL_KEY;
}
EXPORT_SYMBOL_IF_KUNIT(dp_s2_dst_is_key);

/* MCD of node @id to the coordinates @xd, derived space by space. */
static u32 s2_mcd_id(const struct s2_priv *d, u32 id, const u32 *xd)
{
	u32 sp, m = 0xffffffffU;

	for (sp = 0; sp < d->spaces; sp++) {
		u32 c = dp_s2_cd(s2_coord(d, id, sp), xd[sp]);

		if (c < m)
			m = c;
	}
	return m;
}

/*
 * The slots of @id in rings 0..@rings-1 into @slot, but ring @known_r's,
 * which is @known_s (none: @known_r >= @rings).  Slots are below nodes <=
 * DP_S2_ROUTE_NODES_MAX, a u16.
 */
static void s2_slots(const struct s2_priv *d, u32 id, u16 *slot, u32 rings,
		     u32 known_r, u32 known_s)
{
	u32 r;

	for (r = 0; r < rings; r++)
		slot[r] = (u16)(r == known_r ? known_s :
			       s2_perm(d, r, id, false));
}

/* s2_mcd_id() of @id whose slots (s2_slots()) are @slot. */
static u32 s2_mcd_slots(const struct s2_priv *d, u32 id, const u16 *slot,
			const u32 *xd)
{
	u32 sp, m = 0xffffffffU;

	for (sp = 0; sp < d->spaces; sp++) {
		u32 c = dp_s2_cd(slot[sp] * d->w +
				 dp_fmix32(id ^ d->okey[sp]) % d->span,
				 xd[sp]);

		if (c < m)
			m = c;
	}
	return m;
}

/* MCD to @xd of node @id (< nodes), its coordinates read from @tb. */
static u32 s2_mcd_tab(const struct s2_priv *d, const struct s2_tab *tb,
		      u32 id, const u32 *xd)
{
	return dp_s2_mcd(tb->coord + id * d->spaces, xd, d->spaces);
}

/*
 * What one decision at @self knows, gathered once: the point @xd it heads
 * for, self's MCD to it, and each port's live peer (DP_NODE_NONE: none,
 * or its coordinates are not known) with that peer's MCD.  @tb: derived
 * mode's tables (struct s2_tab), or NULL: derive (then @slot, @pslot).
 */
struct s2_ctx {
	const struct dp_topo *t;
	const struct s2_priv *d;
	const struct s2_tab *tb;
	const struct dp_view *v;
	const u32 *xd;
	u32 self;
	u32 ms;
	u32 peer[DP_MAX_PORTS];
	u32 mc1[DP_MAX_PORTS];
	/*
	 * Derived mode: the slots of self and of each port's peer in every
	 * ring (s2_slots()), derived once and shared by the coordinates
	 * and the cabling of both: each is a permutation of the node ids
	 * (s2_perm()), what a decision spends most on.
	 */
	u16 slot[DP_MAX_PORTS / 2];
	u16 pslot[DP_MAX_PORTS][DP_MAX_PORTS / 2];
};

/* MCD to @xd of coordinates a view returned (@n of them), or none. */
static bool s2_heard_mcd(const struct s2_priv *d, const u32 *x, u32 n,
			 const u32 *xd, u32 *mc)
{
	if (n != d->spaces)
		return false;
	*mc = dp_s2_mcd(x, xd, d->spaces);
	return true;
}

/*
 * Fill @c for a decision at @self toward @xd; false when @self's own
 * coordinates are not known (plan mode without them in the view).
 */
static bool s2_ctx_init(struct s2_ctx *c, const struct dp_topo *t, u32 self,
			const u32 *xd, const struct dp_view *v)
{
	const struct s2_priv *d = s2p(t);
	u32 x[DP_S2_SPACES_MAX], p, n;

	c->t = t;
	c->d = d;
	c->tb = d->plan ? NULL : s2t(t);
	c->v = v;
	c->xd = xd;
	c->self = self;
	if (d->plan) {
		n = v && v->coords && v->coords->node_coords ?
		    v->coords->node_coords(v->ctx, self, 0, self, x,
					   DP_S2_SPACES_MAX) : 0;
		if (!s2_heard_mcd(d, x, n, xd, &c->ms))
			return false;
		for (p = 0; p < d->ports; p++)
			c->peer[p] = v->cable_peer ?
				     dp_view_ask_cable_peer(v, self, p) :
				     DP_NODE_NONE;
	} else if (c->tb) {
		c->ms = s2_mcd_tab(d, c->tb, self, xd);
		for (p = 0; p < d->ports; p++) {
			n = c->tb->peer[self * d->ports + p];
			c->peer[p] = n == S2_TAB_NONE ? DP_NODE_NONE : n;
		}
	} else {
		s2_slots(d, self, c->slot, d->rings, d->rings, 0);
		c->ms = s2_mcd_slots(d, self, c->slot, xd);
		s2_peers_slots(d, c->slot, NULL, self, c->peer);
	}
	for (p = 0; p < d->ports; p++) {
		u32 peer = c->peer[p];

		c->mc1[p] = 0xffffffffU;
		c->peer[p] = DP_NODE_NONE;
		if (peer == DP_NODE_NONE || peer >= d->nodes || peer == self ||
		    !dp_view_reachable(v, self, p, peer))
			continue;
		if (c->tb) {
			c->mc1[p] = s2_mcd_tab(d, c->tb, peer, xd);
		} else if (!d->plan) {
			/* its slot in the ring of port p is next to ours */
			s2_slots(d, peer, c->pslot[p], d->rings, p / 2,
				 s2_port_slot(d, c->slot, p));
			c->mc1[p] = s2_mcd_slots(d, peer, c->pslot[p], xd);
		} else {
			n = v->coords->node_coords(v->ctx, self, p, peer, x,
						   DP_S2_SPACES_MAX);
			if (!s2_heard_mcd(d, x, n, xd, &c->mc1[p]))
				continue;
		}
		c->peer[p] = peer;
	}
	return true;
}

/*
 * The MCDs to c->xd of the 2-hop candidates through the peer on @port, in
 * the order its Hello lists them (derived mode without a view: its
 * derived cabling); 0xffffffff for an entry that is no candidate (self,
 * not a node, coordinates unknown).  Returns how many.
 */
static u32 s2_two_hop_mcds(const struct s2_ctx *c, u32 port, u32 *mc)
{
	const struct s2_priv *d = c->d;
	const struct dp_view *v = c->v;
	u32 ids[DP_MAX_PORTS], x[DP_S2_SPACES_MAX], peer = c->peer[port];
	u16 slot[DP_S2_SPACES_MAX];
	u8 via[DP_MAX_PORTS];
	u32 i, n, k;

	if ((v && !v->peer_neighs) || (!v && d->plan))
		return 0;	/* a view that knows no 2-hop neighbours */
	if (v) {
		n = dp_view_ask_peer_neighs(v, c->self, port, peer, ids,
					    DP_MAX_PORTS);
	} else if (c->tb) {
		/* the peer's row, unused ports left out, as below */
		const u16 *row = c->tb->peer + peer * d->ports;

		for (i = 0, n = 0; i < d->ports; i++)
			if (row[i] != S2_TAB_NONE)
				ids[n++] = row[i];
	} else {
		/* derived: the peer's slots are known (s2_ctx_init()) */
		s2_peers_slots(d, c->pslot[port], c->slot, c->self, ids);
		for (i = 0, n = 0; i < d->ports; i++) {
			if (ids[i] == DP_NODE_NONE)
				continue;
			via[n] = (u8)i;
			ids[n++] = ids[i];
		}
	}
	if (n > DP_MAX_PORTS)
		n = DP_MAX_PORTS;
	for (i = 0; i < n; i++) {
		mc[i] = 0xffffffffU;
		if (ids[i] == c->self || ids[i] >= d->nodes)
			continue;
		if (c->tb) {
			mc[i] = s2_mcd_tab(d, c->tb, ids[i], c->xd);
			continue;
		}
		if (!d->plan && v) {
			mc[i] = s2_mcd_id(d, ids[i], c->xd);
			continue;
		}
		if (!d->plan) {
			/* its slot in the ring it is cabled by is known */
			s2_slots(d, ids[i], slot, d->spaces, via[i] / 2,
				 s2_port_slot(d, c->pslot[port], via[i]));
			mc[i] = s2_mcd_slots(d, ids[i], slot, c->xd);
			continue;
		}
		k = v->coords && v->coords->peer_neigh_coords ?
		    v->coords->peer_neigh_coords(v->ctx, c->self, port, peer,
						 i, x, DP_S2_SPACES_MAX) : 0;
		if (!s2_heard_mcd(d, x, k, c->xd, &mc[i]))
			mc[i] = 0xffffffffU;
	}
	return n;
}

/*
 * The least MCD to c->xd over the 2-hop candidates through the peer on
 * @port, from the tables (derived mode without a view): what
 * s2_two_hop_mcds() gives, folded into one minimum, since
 * s2_greedy_pick() only needs whether a candidate of this port beats
 * its best so far, and by how much.  Self, the one entry
 * s2_two_hop_mcds() leaves out, is not skipped: its MCD is c->ms, never
 * below the best so far, so it changes no decision.
 */
static u32 s2_two_hop_min_tab(const struct s2_ctx *c, u32 port)
{
	const struct s2_priv *d = c->d;
	const u16 *row = c->tb->peer + c->peer[port] * d->ports;
	u32 i, sp, m = 0xffffffffU;

	for (i = 0; i < d->ports; i++) {
		const u32 *x;

		if (row[i] == S2_TAB_NONE)
			continue;
		x = c->tb->coord + row[i] * d->spaces;
		for (sp = 0; sp < d->spaces; sp++) {
			u32 cd = dp_s2_cd(x[sp], c->xd[sp]);

			if (cd < m)
				m = cd;
		}
	}
	return m;
}

/* The 1-hop neighbours strictly closer than self (Algorithm 2's set). */
static u32 s2_closer(const struct s2_ctx *c)
{
	u32 p, cnt = 0;

	for (p = 0; p < c->d->ports; p++)
		cnt += c->peer[p] != DP_NODE_NONE && c->mc1[p] < c->ms;
	return cnt;
}

/* The port of the @k-th (from 0) of them, in port order. */
static u32 s2_closer_port(const struct s2_ctx *c, u32 k)
{
	u32 p;

	for (p = 0; p < c->d->ports; p++)
		if (c->peer[p] != DP_NODE_NONE && c->mc1[p] < c->ms && !k--)
			break;
	return p;
}

static int s2_drop(struct dp_hop *hop, u8 reason)
{
	hop->reason = reason;
	return -1;
}

/* The most hops a packet may take along shortcuts (s2_init()). */
static u32 s2_sc_budget(const struct dp_topo *t)
{
	return s2p(t)->sc_budget;
}

/*
 * Whether @st's renewal count is one this fabric could have given: only
 * with S2_FL_EXT in a fabric that has it, never with S2_FL_FIRST or
 * S2_FL_SHORTCUT, at most ext_max.  Frames without the flag count 0.
 */
static bool s2_ext_ok(const struct s2_priv *d, const struct dp_route_state *st)
{
	if (!(st->flags & S2_FL_EXT))
		return true;
	return d->ext && !(st->flags & (S2_FL_FIRST | S2_FL_SHORTCUT)) &&
	       st->word <= d->ext_max;
}

/*
 * dp_topo_ops.ttl_renew: a frame at TTL 1 or 0 in a fabric above 255
 * nodes (s2_init() has the bound and its proof).  In the greedy phase
 * one unit of the renewal count buys 254 hops: (ttl, E) becomes (ttl +
 * 254, E - 1), which keeps Q = ttl + 254 * E, so Q still falls by one a
 * hop.  In the shortcut phase the word (hops the phase may still take,
 * strictly falling, below s2_sc_budget()) bounds the frame by itself:
 * the TTL becomes word + 1 (at most 255), which lets the frame take
 * those hops and no more.  Anything else (no count, a count this fabric
 * never gives, a shortcut with nothing left) is not renewed: dropped.
 */
static bool s2_ttl_renew(const struct dp_topo *t, struct dp_route_state *st,
			 u8 *ttl)
{
	const struct s2_priv *d = s2p(t);

	if (!d->ext || *ttl > 1)
		return false;
	if (st->flags & S2_FL_SHORTCUT) {
		if (st->flags & (S2_FL_FIRST | S2_FL_EXT | S2_FL_KEY) ||
		    !st->word || st->word >= d->sc_budget)
			return false;
		*ttl = st->word < DP_TTL_MAX ? st->word + 1 : DP_TTL_MAX;
		return true;
	}
	if (!(st->flags & S2_FL_EXT) || !s2_ext_ok(d, st) || !st->word)
		return false;
	st->word--;
	*ttl += DP_TTL_MAX - 1;
	return true;
}

/*
 * The next hop along a shortcut of this node's (the view's shortcut
 * table) at most @max_dist hops long: the packet enters, or stays in, the
 * shortcut phase, and may take at most dist - 1 more hops after this one.
 */
static bool s2_shortcut(const struct dp_topo *t, u32 self,
			struct dp_route_state *st, const struct dp_view *v,
			u32 max_dist, struct dp_hop *hop)
{
	u32 port, peer, dist;

	if (!v || !v->coords || !v->coords->shortcut || !max_dist ||
	    !v->coords->shortcut(v->ctx, self, st->dst, max_dist, &port,
				 &peer, &dist) ||
	    !dist || dist > max_dist || port >= t->nports ||
	    !dp_addr_valid(t, peer) || peer == self)
		return false;
	/*
	 * The coordinates flag stays: the block stays behind the header
	 * (plan mode), and a flag that left it would have the next hop read
	 * the block as the IP header.
	 */
	st->flags = (st->flags & (S2_FL_SEL_MASK | S2_FL_COORDS)) |
		    S2_FL_SHORTCUT;
	st->word = dist - 1;
	hop->next = peer;
	hop->port = port;
	hop->phase = peer == st->dst ? DP_PHASE_DIRECT : S2_PHASE_SHORTCUT;
	return true;
}

/*
 * The greediest decision over @c: the live 1-hop neighbours in port
 * order, then (rules 2hop and 2hop-sim) each one's 2-hop list, ties to
 * the first, as dp_s2_greedy() and dpsim decide.  Returns the port to
 * send on (*@phase greedy or greedy2), or -1 when no candidate is
 * strictly closer to c->xd than self.
 */
static int s2_greedy_pick(const struct s2_ctx *c, u32 rule, u8 *phase)
{
	u32 mc[DP_MAX_PORTS], m = c->ms, p, i, n;
	int pick = -1;

	*phase = S2_PHASE_GREEDY;
	for (p = 0; p < c->d->ports; p++) {
		if (c->peer[p] != DP_NODE_NONE && c->mc1[p] < m) {
			m = c->mc1[p];
			pick = p;
		}
	}
	for (p = 0; p < c->d->ports && rule != DP_S2_RULE_1HOP; p++) {
		if (c->peer[p] == DP_NODE_NONE ||
		    (rule == DP_S2_RULE_2HOP_SIM && c->mc1[p] >= c->ms))
			continue;
		if (c->tb && !c->v) {
			/* the loop below over the same candidates, as one */
			n = s2_two_hop_min_tab(c, p);
			if (n < m) {
				m = n;
				pick = p;
				*phase = S2_PHASE_GREEDY2;
			}
			continue;
		}
		n = s2_two_hop_mcds(c, p, mc);
		for (i = 0; i < n; i++) {
			if (mc[i] < m) {
				m = mc[i];
				pick = p;
				*phase = S2_PHASE_GREEDY2;
			}
		}
	}
	return pick;
}

/*
 * One hop of a key frame (S2_FL_KEY): st->dst is a 32-bit key id, whose
 * coordinates every relay derives with dp_s2_key_point() (no table), and
 * the frame goes greedily toward them with the frame's rule, as a frame
 * to a node does.  The node where no live candidate is strictly closer
 * is the end: -1 with DP_DROP_ROUTE_AT_DST, which the caller takes as
 * "deliver here".  With every ring neighbour of the first d spaces live
 * that node is a home of the key in some space (the paper's Lemma,
 * section 4.4: greediest routing's retrieve); around a failure it is the
 * closest node greedy routing can reach, where the packet is delivered
 * rather than lost.
 *
 * Loop freedom is the node case's (dp_s2_route(), topo_s2.h): no part of
 * it needs the destination to be a node.  With 1hop and 2hop-sim the MCD
 * to the key's point strictly decreases at every hop; with the paper's
 * 2hop rule the picked MCD m never increases and strictly decreases
 * within two hops.  No hashed first hop (a key frame with S2_FL_FIRST is
 * dropped), so the end depends on the source and the key alone, which
 * is what dpctl key locate and dpsim compute; the path is at most
 * nodes - 1 hops, within the TTL (above 255 nodes, within the budget the
 * renewal count adds: s2_init()).
 */
static int s2_route_key(const struct dp_topo *t, u32 self,
			struct dp_route_state *st, const struct dp_view *v,
			struct dp_hop *hop)
{
	u32 xd[DP_S2_SPACES_MAX], rule = s2_rule(st->flags & S2_FL_SEL_MASK);
	const struct s2_priv *d = s2p(t);
	struct s2_ctx c;
	u8 phase;
	int pick;

	if (self >= d->nodes)
		return s2_drop(hop, DP_DROP_ROUTE_BAD_ADDR);
	if (st->waypoint != DP_NODE_NONE ||
	    (st->flags & ~(S2_FL_KEY_KNOWN | S2_FL_EXT)) ||
	    rule == DP_S2_RULE_COUNT || !s2_ext_ok(d, st))
		return s2_drop(hop, S2_DROP_BAD_STATE);
	dp_s2_key_point(st->dst, d->spaces, xd);
	if (!s2_ctx_init(&c, t, self, xd, v))
		return s2_drop(hop, S2_DROP_NO_COORDS);
	pick = s2_greedy_pick(&c, rule, &phase);
	if (pick < 0)
		return s2_drop(hop, DP_DROP_ROUTE_AT_DST);	/* home */
	hop->next = c.peer[pick];
	hop->port = pick;
	hop->phase = phase;
	return 0;
}

/*
 * The destination's point: derived from its id, or in plan mode the
 * coordinates the frame carries (false without them: no node can route
 * it).
 */
static bool s2_dst_point(const struct dp_topo *t,
			 const struct dp_route_state *st, u32 *xd)
{
	const struct s2_priv *d = s2p(t);
	u32 i;

	if (d->plan && (!(st->flags & S2_FL_COORDS) ||
			st->ncoords != d->spaces))
		return false;
	if (!d->plan && s2t(t) && st->dst < d->nodes) {
		memcpy(xd, s2t(t)->coord + st->dst * d->spaces,
		       d->spaces * sizeof(*xd));
		return true;
	}
	for (i = 0; i < d->spaces; i++)
		xd[i] = d->plan ? st->coords[i] :
				  s2_coord(d, st->dst, i);
	return true;
}

/*
 * One hop of greediest routing, as dp_s2_greedy() decides it (the same
 * candidates in the same order as dpsim's: live 1-hop neighbours in port
 * order, then each one's neighbours as its Hello lists them, ties to the
 * first), streamed so that no table is kept: in derived mode each
 * coordinate is derived from its id when compared, in plan mode it comes
 * from the view (Hellos) and the destination's from the frame.
 *
 * Loop freedom: with the rules 1hop and 2hop-sim every hop goes to a
 * neighbour whose MCD to the destination is strictly below ours (2hop-sim
 * only goes via a 1-hop neighbour that is itself closer), whatever the
 * Hello data say, so no node is visited twice.  The first hop, when
 * hashed, also goes to a strictly closer neighbour.  The paper's 2hop
 * rule (the default, as in dpsim) is loop-free while the Hello data agree
 * (topo_s2.h has the proof); with a stale 2-hop list the TTL
 * (t->max_hops) bounds the packet.  In plan mode "strictly below ours"
 * compares coordinates a neighbour announced with our own: a neighbour
 * that lies about its coordinates can break the argument, never the TTL.
 *
 * A packet at a local minimum (no live candidate closer than this node)
 * takes this node's shortcut toward the destination, when the view has
 * one (the kernel discovers them: shortcut.c); else it is dropped and
 * counted, route_local_min, and the kernel starts a discovery.  From then
 * on it is in the shortcut phase (S2_FL_SHORTCUT, never cleared): every
 * node forwards it along a shortcut of its own no longer than the word,
 * and sets the word to that shortcut's length minus one, or drops it
 * (route_shortcut_lost).  Loop freedom and the path bound, whatever the
 * tables and the header say: the first shortcut is at most
 * s2_sc_budget() hops long, a header arriving in the phase must have a
 * word below it, and the word strictly decreases with every hop of the
 * phase, so the phase ends within s2_sc_budget() hops; the greedy phase
 * before it takes at most t->ff_hops, and no node sets the flag back:
 * t->max_hops in all.  Above 255 nodes the same holds with the greedy
 * phase's hops counted by the TTL and the renewal count together
 * (S2_FL_EXT, s2_init() has the proof): the count is only spent, never
 * raised but once, when the hashed first hop consumes S2_FL_FIRST, and a
 * header with a count above ext_max, or with it beside S2_FL_FIRST or
 * S2_FL_SHORTCUT, is dropped.  While the tables along a shortcut are the ones one
 * reply installed, the phase follows that reply's path, a simple path:
 * each node's shortcut is one hop shorter than its predecessor's.
 */
int dp_s2_route(const struct dp_topo *t, u32 self, struct dp_route_state *st,
		const struct dp_view *v, struct dp_hop *hop)
{
	const struct s2_priv *d = s2p(t);
	u32 xd[DP_S2_SPACES_MAX], rule, known;
	struct s2_ctx c;
	int pick;
	u8 phase;

	hop->phase = DP_PHASE_NONE;
	hop->reason = DP_DROP_ROUTE_NONE;
	known = S2_FL_KNOWN | (d->plan ? S2_FL_COORDS : 0) |
		(d->ext ? S2_FL_EXT : 0);
	if (st->flags & S2_FL_KEY)
		return s2_route_key(t, self, st, v, hop);
	if (!dp_addr_valid(t, self) || !dp_addr_valid(t, st->dst))
		return s2_drop(hop, DP_DROP_ROUTE_BAD_ADDR);
	if (self == st->dst)
		return s2_drop(hop, DP_DROP_ROUTE_AT_DST);
	rule = s2_rule(st->flags & S2_FL_SEL_MASK);
	if (st->waypoint != DP_NODE_NONE || (st->flags & ~known) ||
	    rule == DP_S2_RULE_COUNT ||
	    (st->flags & (S2_FL_FIRST | S2_FL_SHORTCUT)) ==
	    (S2_FL_FIRST | S2_FL_SHORTCUT) || !s2_ext_ok(d, st) ||
	    ((st->flags & S2_FL_SHORTCUT) && st->word >= s2_sc_budget(t)))
		return s2_drop(hop, S2_DROP_BAD_STATE);
	if (st->flags & S2_FL_SHORTCUT)
		return s2_shortcut(t, self, st, v, st->word, hop) ? 0 :
		       s2_drop(hop, S2_DROP_SHORTCUT_LOST);

	if (!s2_dst_point(t, st, xd) || !s2_ctx_init(&c, t, self, xd, v))
		return s2_drop(hop, S2_DROP_NO_COORDS);
	/* Algorithm 2: the flow's first hop among the closer neighbours. */
	if (st->flags & S2_FL_FIRST) {
		u32 cnt = s2_closer(&c), hash = st->word, p;

		st->flags &= ~S2_FL_FIRST;
		if (d->ext) {
			/*
			 * The hash is spent: the word becomes the sender's
			 * renewal count, once (s2_init()'s bound).
			 */
			s2_give_budget(d, st);
		}
		if (cnt) {
			p = s2_closer_port(&c, dp_fmix32(hash) % cnt);
			hop->next = c.peer[p];
			hop->port = p;
			hop->phase = c.peer[p] == st->dst ? DP_PHASE_DIRECT :
				     S2_PHASE_MULTIPATH;
			return 0;
		}
	}
	pick = s2_greedy_pick(&c, rule, &phase);
	if (pick < 0)
		return s2_shortcut(t, self, st, v, s2_sc_budget(t), hop) ? 0 :
		       s2_drop(hop, S2_DROP_LOCAL_MIN);
	hop->next = c.peer[pick];
	hop->port = pick;
	hop->phase = c.peer[pick] == st->dst ? DP_PHASE_DIRECT : phase;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(dp_s2_route);

/* The next hops the flow hash chooses among at the first hop. */
static u32 s2_route_choices(const struct dp_topo *t, u32 self,
			    const struct dp_route_state *st,
			    const struct dp_view *v, u32 *ids, u32 max)
{
	const struct s2_priv *d = s2p(t);
	u32 xd[DP_S2_SPACES_MAX], p, cnt = 0;
	struct s2_ctx c;

	if (!(st->flags & S2_FL_FIRST) || !dp_addr_valid(t, self) ||
	    !dp_addr_valid(t, st->dst) || self == st->dst)
		return 0;
	if (!s2_dst_point(t, st, xd) || !s2_ctx_init(&c, t, self, xd, v))
		return 0;
	for (p = 0; p < d->ports; p++) {
		if (c.peer[p] == DP_NODE_NONE || c.mc1[p] >= c.ms)
			continue;
		if (cnt < max)
			ids[cnt] = c.peer[p];
		cnt++;
	}
	return cnt;
}

static const struct dp_phase_desc s2_phases[S2_PHASE_COUNT] = {
	[DP_PHASE_NONE]		= { "none" },
	[DP_PHASE_DIRECT]	= { "direct" },
	[S2_PHASE_GREEDY]	= { "greedy" },
	[S2_PHASE_GREEDY2]	= { "greedy2" },
	[S2_PHASE_MULTIPATH]	= { "multipath" },
	[S2_PHASE_SHORTCUT]	= { "shortcut", 1 },
};

static const char *const s2_detours[DP_DETOUR_SLOTS] = {
	"shortcut_hops",
};

static const char *const s2_drops[S2_DROP_COUNT] = {
	[DP_DROP_ROUTE_NONE]	= "none",
	[DP_DROP_ROUTE_BAD_ADDR] = "bad_addr",
	[DP_DROP_ROUTE_AT_DST]	= "at_dst",
	[S2_DROP_LOCAL_MIN]	= "local_min",
	[S2_DROP_BAD_STATE]	= "bad_state",
	[S2_DROP_SHORTCUT_LOST]	= "shortcut_lost",
	[S2_DROP_NO_COORDS]	= "no_coords",
};

/*
 * S2's parameters.  The device shows the spaces and the seed always (seed
 * 0 is a seed), the node's own coordinates in plan mode only, and as the
 * node count the fabric's (IFLA_DPILLAR_NODES), as for every topology,
 * where it is read-only.
 */
static const struct dp_topo_param s2_params[] = {
	DP_TOPO_PARAM(n, DP_PARAM_NEEDED, NULL),
	DP_TOPO_PARAM(nodes, DP_PARAM_HIDDEN | DP_PARAM_NEEDED,
		      "Node count is read-only"),
	DP_TOPO_PARAM(spaces, DP_PARAM_NEEDED,
		      "Only S2 has spaces and a seed"),
	DP_TOPO_PARAM(seed, 0,
		      "Only S2 has spaces and a seed"),
	DP_TOPO_PARAM(coords, 0,
		      "Only S2 has coords"),
};

/* Our coordinates for our Hellos: the plan's, or derived from our id. */
static u32 s2_hello_coords(const struct dp_topo *t, u32 self, u32 *x,
			   u32 max)
{
	u32 i, n = t->p.spaces < max ? t->p.spaces : max;

	for (i = 0; i < n; i++)
		x[i] = dp_s2_plan_mode(t) ? t->p.coords[i] :
		       dp_s2_coord(t->p.seed, t->nodes, self, i);
	return n;
}

/*
 * Every node derives every node's coordinates from (seed, nodes, id): a
 * Hello whose coordinates differ comes from a node configured with another
 * seed or size, and routing toward it would not be greedy.  In plan mode
 * they cannot be checked, only counted: one per space.
 */
static bool s2_hello_coords_ok(const struct dp_topo *t, u32 src,
			       const u32 *x, u32 n)
{
	u32 i;

	if (n != t->p.spaces)
		return false;
	if (dp_s2_plan_mode(t))
		return true;
	for (i = 0; i < n; i++)
		if (x[i] != dp_s2_coord(t->p.seed, t->nodes, src, i))
			return false;
	return true;
}

/* The plan's coordinates of @node (the tools' and tests' table). */
static u32 s2_table_coords(const struct dp_topo *t, u32 node, u32 *x,
			   u32 max)
{
	const struct dp_s2_plan *pl = s2_table(t);
	u32 i, n;

	if (!pl || node >= pl->nodes)
		return 0;
	n = pl->spaces < max ? pl->spaces : max;
	for (i = 0; i < n; i++)
		x[i] = pl->coords[node * pl->spaces + i];
	return n;
}

/*
 * dp_topo_ops.alloc: derived mode's tables (struct s2_tab), filled by the
 * derivation itself, s2_coord() and s2_peers(), so a table answers what
 * the derivation would.  Plan mode has nothing to derive: none.  About
 * nodes * (spaces + 4 * rings) permutations (a ring cable costs one each
 * way), once: 10 ms at the largest fabric in userspace on a loaded VM,
 * under RTNL in the kernel, never on the packet path.
 */
static void *s2_alloc(const struct dp_topo *t)
{
	const struct s2_priv *d = s2p(t);
	u32 peer[DP_MAX_PORTS], id, i;
	struct s2_tab *tb;
	u32 *coord;
	u16 *row;

	DP_BUILD_CHECK(DP_S2_ROUTE_NODES_MAX <= S2_TAB_NONE);
	if (d->plan || d->nodes > DP_S2_ROUTE_NODES_MAX)
		return NULL;
	/* the coordinates first: the u16 peers after them stay aligned */
	tb = dp_alloc(sizeof(*tb) + d->nodes *
		      (d->spaces * sizeof(u32) + d->ports * sizeof(u16)));
	if (!tb)
		return NULL;
	coord = (u32 *)(tb + 1);
	row = (u16 *)(coord + d->nodes * d->spaces);
	tb->coord = coord;
	tb->peer = row;
	for (id = 0; id < d->nodes; id++) {
		for (i = 0; i < d->spaces; i++)
			*coord++ = s2_coord(d, id, i);
		s2_peers(d, id, peer);
		for (i = 0; i < d->ports; i++)
			*row++ = peer[i] == DP_NODE_NONE ? S2_TAB_NONE :
				 (u16)peer[i];
	}
	return tb;
}

/* The coordinates extension (struct dp_topo_coords_ext). */
static const struct dp_topo_coords_ext s2_coords_ext = {
	.hello = s2_hello_coords,
	.hello_ok = s2_hello_coords_ok,
	.table = s2_table_coords,
	.flag = S2_FL_COORDS,
};

/* The keys extension (struct dp_topo_key_ext). */
static const struct dp_topo_key_ext s2_key_ext = {
	.route_init = dp_s2_key_route_init,
	.dst_is_key = dp_s2_dst_is_key,
};

const struct dp_topo_ops dp_s2_ops = {
	.name = "s2",
	.kind = DP_TOPO_S2,
	.phases = s2_phases,
	.nphases = S2_PHASE_COUNT,
	.drops = s2_drops,
	.ndrops = S2_DROP_COUNT,
	.detours = s2_detours,
	.sel_names = s2_sel_names,
	.discover_drop = S2_DROP_LOCAL_MIN,
	.params = s2_params,
	.nparams = ARRAY_SIZE(s2_params),
	.init = s2_init,
	.describe = s2_describe,
	.addr_parse = s2_addr_parse,
	.addr_format = s2_addr_format,
	.port_info = s2_port_info,
	.port_neigh = s2_port_neigh,
	.port_neigh_index = dp_s2_port_neigh_index,
	.peer_port = s2_peer_port,
	.route_init = dp_s2_route_init,
	.route = dp_s2_route,
	.route_choices = s2_route_choices,
	.ttl_renew = s2_ttl_renew,
	.alloc = s2_alloc,
	.coords = &s2_coords_ext,
	.keys = &s2_key_ext,
};
EXPORT_SYMBOL_IF_KUNIT(dp_s2_ops);
