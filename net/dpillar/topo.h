/* SPDX-License-Identifier: GPL-2.0 */
/*
 * topo.h - topology core of dpillar: addressing, wiring and routing.
 *
 * This code is shared, unchanged, by the kernel module and by the userspace
 * simulator tools/dpsim.  It allocates nothing, takes no locks, uses no
 * floating point and no 64-bit division, and keeps no mutable global state:
 * everything lives in a struct dp_topo filled once by dp_topo_init() and in
 * the per-packet struct dp_route_state.
 *
 * Each topology kind supplies a struct dp_topo_ops; only DPillar exists now.
 */
#ifndef _DP_TOPO_H
#define _DP_TOPO_H

#include "dp_shim.h"

/* Values equal the UAPI enum dpillar_topo (DPILLAR_TOPO_DPILLAR = 1). */
enum dp_topo_kind {
	DP_TOPO_DPILLAR = 1,
};

#define DP_MAX_K		32	/* array bound; see dp_topo_init() */
#define DP_ADDR_TEXT_MAX	160
#define DP_NODE_NONE		0xffffffffU	/* never a valid id */

/* DPillar parameter range accepted by dp_topo_init(). */
#define DP_DPILLAR_N_MIN	4
#define DP_DPILLAR_N_MAX	256	/* so that a label symbol fits a u8 */

/*
 * Ports of a DPillar server.  Port 0 plugs into a switch of S_C (shared
 * with the clockwise column H_{C+1}), port 1 into a switch of S_{C-1}
 * (shared with the counter-clockwise column H_{C-1}).
 */
#define DP_PORT_CW		0
#define DP_PORT_CCW		1
#define DP_NPORTS		2

/*
 * Recommended initial TTL (hop limit) for the caller, which decrements it.
 * The longest failure-free path is k + k/2 hops.  Fault-tolerant paths are
 * bounded by the tunnel budget below: at most B + 2 helix segments of <= k
 * hops, B tunnels of 2 hops, one u-turn and a ring of <= 2k hops.  dpsim
 * measured at most 26 hops for (12,4) with 300 failed servers and 28 with
 * 300 failed links (Documentation/networking/dpillar-evaluation.rst); the
 * bound (B + 2)k + 2B + 1 + 2k = 8k + 9 for B = 4 gives 41 for k = 4 and 57
 * for k = 6.  64 covers every k <= 6; for larger k use at least 8k + 9.
 */
#define DP_DEFAULT_TTL		64

/*
 * Fault-tolerant routing: at most this many Prop. IV.1/IV.3 tunnels per
 * packet.  Each tunnel deliberately sets one label symbol to a wrong value,
 * which costs up to one more turn around the pillar; without a budget two
 * or more failures can make a packet circle until its TTL expires.  Must
 * fit DP_RS_TUNNELS_MASK.
 */
#ifndef DP_FT_MAX_TUNNELS	/* overridable for experiments (dpsim) */
#define DP_FT_MAX_TUNNELS	4
#endif

struct dp_topo;

/*
 * Per-packet routing state, carried in the wire header.  The common part is
 * topology independent: the destination, an optional waypoint and 8 flag
 * bits whose meaning belongs to the topology.
 *
 * @dst:      final destination node id.
 * @waypoint: DP_NODE_NONE, or the node a detour tunnel is heading for.
 *            A tunnel (Prop. IV.1/IV.3 of the DPillar paper) is *not* a
 *            second header: the packet is routed to the waypoint, which
 *            clears this field on arrival and routing resumes toward @dst.
 * @flags:    DPillar meaning:
 *   DP_RS_CCW       helix direction D: clear = clockwise (+1), set =
 *                   counter-clockwise (-1).  Needed because D cannot be
 *                   recomputed hop by hop (Algorithm 1 takes it as input).
 *   DP_RS_UTURN     D was changed once (Prop. IV.2); forbids a second
 *                   u-turn, which could loop.
 *   DP_RS_RING_REV  the ring phase direction was reversed once around a
 *                   failure; a second blocked ring hop drops the packet.
 *   DP_RS_RING_CCW  with DP_RS_RING_REV: the ring direction now in force.
 *                   Needed because after a reversal the packet goes the
 *                   long way round, and recomputing "the shorter way" at
 *                   the next server would send it back into the failure.
 *   bits 4..7       number of tunnels taken so far (<= DP_FT_MAX_TUNNELS),
 *                   which bounds detours and so makes routing loop-free.
 */
struct dp_route_state {
	u32 dst;
	u32 waypoint;
	u8 flags;
};

#define DP_RS_CCW		0x01
#define DP_RS_UTURN		0x02
#define DP_RS_RING_REV		0x04
#define DP_RS_RING_CCW		0x08
#define DP_RS_TUNNELS_SHIFT	4
#define DP_RS_TUNNELS_MASK	0xf0

/* Initial helix direction for dp_route_init_dir(). */
enum dp_dir {
	DP_DIR_AUTO = 0,	/* whichever gives the shorter SRoute path */
	DP_DIR_CW = 1,		/* paper's default D = +1 */
	DP_DIR_CCW = 2,		/* D = -1 */
};

/* Why a hop was taken (struct dp_hop.phase). */
enum dp_phase {
	DP_PHASE_NONE = 0,
	DP_PHASE_DIRECT,	/* last hop: destination shares a switch */
	DP_PHASE_HELIX,		/* helix phase, Algorithm 1 */
	DP_PHASE_RING,		/* ring phase, Algorithm 1 */
	DP_PHASE_TUNNEL,	/* hop toward a waypoint (Prop. IV.1/IV.3) */
	DP_PHASE_UTURN,		/* helix direction changed (Prop. IV.2) */
	DP_PHASE_RING_REV,	/* ring direction reversed around a failure */
	DP_PHASE_COUNT,
};

/*
 * Why routing dropped a packet (struct dp_hop.reason).  Distinct from the
 * kernel device's own drop counters: these name routing decisions only.
 */
enum dp_route_drop {
	DP_DROP_ROUTE_NONE = 0,
	DP_DROP_ROUTE_BAD_ADDR,	/* self or dst not a node of this fabric */
	DP_DROP_ROUTE_AT_DST,	/* called with self == dst */
	DP_DROP_ROUTE_RING,	/* ring blocked in both directions */
	DP_DROP_ROUTE_UTURN,	/* helix blocked, u-turn found no server */
	DP_DROP_ROUTE_HELIX,	/* helix blocked after the u-turn */
	DP_DROP_ROUTE_TUNNEL,	/* waypoint unreachable from tunnel middle */
	DP_DROP_ROUTE_BUDGET,	/* blocked, tunnel budget spent, u-turn used */
	DP_DROP_ROUTE_NOPATH,	/* failure-free routing found no hop (bug) */
	DP_DROP_ROUTE_COUNT,
};

/*
 * Reachability oracle supplied by the caller (kernel: neighbour table fed
 * by Hellos; simulator: failure set).  Returns true when @self can deliver
 * a frame to @peer through its port @port right now.
 */
struct dp_reach {
	bool (*reachable)(const void *ctx, u32 self, u32 port, u32 peer);
	const void *ctx;
};

/* One routing decision. */
struct dp_hop {
	u32 next;	/* next server */
	u32 port;	/* our port that reaches it */
	u8 phase;	/* enum dp_phase */
	u8 reason;	/* enum dp_route_drop when the packet is dropped */
};

struct dp_topo_ops {
	const char *name;
	int (*init)(struct dp_topo *t, u32 n, u32 k, const char **why);
	int (*addr_from_symbols)(const struct dp_topo *t, u32 column,
				 const u8 *sym, u32 nsym, u32 *id,
				 const char **why);
	void (*addr_to_symbols)(const struct dp_topo *t, u32 id, u32 *column,
				u8 *sym);
	void (*port_switch)(const struct dp_topo *t, u32 id, u32 port,
			    u32 *sw_col, u32 *sw_id);
	u32 (*port_neigh)(const struct dp_topo *t, u32 id, u32 port, u32 idx);
	int (*port_neigh_index)(const struct dp_topo *t, u32 id, u32 port,
				u32 peer);
	void (*route_init)(const struct dp_topo *t, u32 src, u32 dst,
			   enum dp_dir dir, struct dp_route_state *st);
	/* @r == NULL: failure-free routing (every neighbour reachable). */
	int (*route)(const struct dp_topo *t, u32 self,
		     struct dp_route_state *st, const struct dp_reach *r,
		     struct dp_hop *hop);
};

/*
 * Division by an invariant u32 (Granlund-Montgomery, as the kernel's
 * reciprocal_div.h): exact for every u32 dividend, a multiply and shifts
 * instead of a divide instruction on the per-packet path.
 */
struct dp_rdiv {
	u32 m;
	u8 sh1, sh2;
};

/* One fabric's parameters, filled by dp_topo_init(). */
struct dp_topo {
	const struct dp_topo_ops *ops;
	u32 kind, n, k, h;	/* h = n/2 */
	u32 nlabels;		/* h^k */
	u32 nodes;		/* k * h^k */
	u32 switches;		/* k * h^(k-1) */
	u32 nsym;		/* symbols in an address label (k) */
	u32 nports;		/* ports per server (2) */
	u32 port_neighs;	/* other servers on one port's switch (n-1) */
	u32 pow[DP_MAX_K + 1];	/* pow[i] = h^i */
	struct dp_rdiv rpow[DP_MAX_K + 1];	/* x / pow[i] */
};

/*
 * Validate (n, k) and fill *t.  On error returns -EINVAL and sets *why to a
 * static message suitable for a netlink extack.
 *
 * DPillar accepts: n even, 4 <= n <= 256 (a symbol fits a u8), k >= 2, and
 * k * (n/2)^k <= 2^32 - 1, i.e. the node count fits a u32 and the largest
 * id, nodes - 1 <= 0xfffffffe, so 0xffffffff (DP_NODE_NONE) is never an
 * id.  This implies k <= 27.  (48,5) has 39,813,120 servers.
 */
int dp_topo_init(struct dp_topo *t, u32 kind, u32 n, u32 k, const char **why);

/*
 * Node id: id = column * h^k + label, label = sum(v_i * h^i), v_0 least
 * significant.  Ids are dense: 0 .. nodes-1.
 */
int dp_addr_from_symbols(const struct dp_topo *t, u32 column, const u8 *sym,
			 u32 nsym, u32 *id, const char **why);
/* @sym gets k entries v_0..v_{k-1}; @id must be valid. */
void dp_addr_to_symbols(const struct dp_topo *t, u32 id, u32 *column,
			u8 *sym);
bool dp_addr_valid(const struct dp_topo *t, u32 id);

/*
 * Text form "C:v_{k-1}.....v_0" (most significant symbol first, decimal,
 * dot separated), e.g. "2:3.0.1" for k = 3.  dp_addr_format() returns the
 * length of the full text like snprintf() (truncating, always
 * NUL-terminating when len > 0), or -EINVAL for an invalid id (buf gets "").
 * dp_addr_parse() returns 0 or -EINVAL (+ *why).
 */
int dp_addr_format(const struct dp_topo *t, u32 id, char *buf, u32 len);
int dp_addr_parse(const struct dp_topo *t, const char *text, u32 *id,
		  const char **why);
/*
 * Topology-independent parser (for dpctl, before n is known): "C:a.b.c"
 * into @column and @sym = v_0..v_{nsym-1} (reversed: the text is most
 * significant first).  @sym must hold DP_MAX_K entries.  Symbols must be
 * <= 255; at most DP_MAX_K symbols; no spaces.
 */
int dp_addr_parse_raw(const char *text, u32 *column, u8 *sym, u32 *nsym,
		      const char **why);

/*
 * Wiring.  dp_port_switch(): the switch on @port of server @id: its column
 * and its id within the column (0 .. h^(k-1)-1: the label with symbol c
 * removed, as a base-h number of the remaining symbols in order).
 * dp_port_neigh(): the n-1 other servers on that switch, idx in
 * 0 .. dp_port_neigh_count()-1, in a fixed arithmetic order: the switch's
 * n servers are ordered (c, symbol c = 0..h-1) then (c+1, symbol c =
 * 0..h-1), and @id itself is skipped.  dp_port_neigh_index() is the
 * inverse: the index of @peer in that list, or -1 if @peer is not on that
 * switch (or is @id itself, or invalid).
 */
void dp_port_switch(const struct dp_topo *t, u32 id, u32 port, u32 *sw_col,
		    u32 *sw_id);
u32 dp_port_neigh_count(const struct dp_topo *t);
u32 dp_port_neigh(const struct dp_topo *t, u32 id, u32 port, u32 idx);
int dp_port_neigh_index(const struct dp_topo *t, u32 id, u32 port, u32 peer);

/*
 * Routing.  dp_route_init() prepares the state of a new packet from @src to
 * @dst; it picks the helix direction giving the shorter failure-free path
 * (ties: clockwise, the paper's default).  dp_route_init_dir() forces it.
 *
 * dp_sroute() is the failure-free Algorithm 1; dp_ftroute() is the
 * fault-tolerant Algorithm 2 using @r.  Both return 0 and fill *hop
 * (updating *st in place), or -1 with hop->reason = DP_DROP_ROUTE_*.
 * Precondition: self != st->dst (the caller delivers locally first).
 */
void dp_route_init(const struct dp_topo *t, u32 src, u32 dst,
		   struct dp_route_state *st);
void dp_route_init_dir(const struct dp_topo *t, u32 src, u32 dst,
		       enum dp_dir dir, struct dp_route_state *st);
int dp_sroute(const struct dp_topo *t, u32 self, struct dp_route_state *st,
	      struct dp_hop *hop);
int dp_ftroute(const struct dp_topo *t, u32 self, struct dp_route_state *st,
	       const struct dp_reach *r, struct dp_hop *hop);

const char *dp_drop_reason_name(u8 reason);
const char *dp_phase_name(u8 phase);

/* Reciprocal of @d (d >= 1) and x / d with it. */
struct dp_rdiv dp_rdiv_init(u32 d);

static inline u32 dp_rdiv(u32 x, struct dp_rdiv r)
{
	u32 t = (u32)(((u64)x * r.m) >> 32);

	return (t + ((x - t) >> r.sh1)) >> r.sh2;
}

/* DPillar implementation (topo_dpillar.c). */
extern const struct dp_topo_ops dp_dpillar_ops;

#ifdef __KERNEL__
#if IS_ENABLED(CONFIG_KUNIT)
/* Internals of topo_dpillar.c that its KUnit tests check directly. */
u32 dpp_sroute_len(const struct dp_topo *t, u32 c, u32 diff, u32 cd, bool cw);
#endif
#endif

#endif /* _DP_TOPO_H */
