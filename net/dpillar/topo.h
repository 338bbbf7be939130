/* SPDX-License-Identifier: GPL-2.0 */
/*
 * topo.h - topology core of dpillar: the boundary between the generic
 * module (device, ports, Hello, data path, netlink) and the fabrics it
 * carries, one file per topology (topo_dpillar.c, ...).
 *
 * This code is shared, unchanged, by the kernel module and by the userspace
 * simulator tools/dpsim.  It takes no locks, uses no floating point and no
 * 64-bit division, and keeps no mutable global state: everything lives in
 * a struct dp_topo filled once by dp_topo_init() and in the per-packet
 * struct dp_route_state.  It allocates nothing but the optional tables
 * dp_topo_alloc() gives a topology, once, before any reader sees it.
 *
 * Nothing in this header belongs to one topology.  A topology supplies a
 * struct dp_topo_ops (documented member by member below) and registers it
 * in topo.c; Documentation/networking/dpillar-design.rst, "Adding a topology",
 * walks through it.
 */
#ifndef _DP_TOPO_H
#define _DP_TOPO_H

#include <linux/dpillar.h>

#include "portable.h"
#include "topologies.h"
#include "params.h"

/*
 * The UAPI enum dpillar_topo, under the routing core's names: equal by
 * construction (DP_TOPO_ENUM, topologies.h).  Every kind has its value,
 * built or not, so that a build without the fixtures still names them
 * (and refuses them at init).
 */
enum dp_topo_kind {
	DP_TOPOLOGY_LIST(DP_TOPO_ENUM, DP_TOPO_ENUM)
	DP_TOPO_KIND_MAX = DPILLAR_TOPO_MAX,
};

#define DP_MAX_PORTS		16	/* most ports of a node, any topology */
#define DP_COORDS_MAX		8	/* coordinates of a node (S2's spaces) */
#define DP_ADDR_TEXT_MAX	160
#define DP_NODE_NONE		0xffffffffU	/* never a valid id */
#define DP_TTL_MAX		255	/* the wire header's TTL is a u8 */
/* Longest proven path of a topology that renews the TTL (ttl_renew). */
#define DP_HOPS_MAX		65535U
#define DP_PHASE_MAX		16	/* phase numbers 0..DP_PHASE_MAX-1 */
#define DP_DROP_MAX		16	/* drop reasons 0..DP_DROP_MAX-1 */
#define DP_DETOUR_SLOTS		5	/* detour counters a topology names */
#define DP_TOPO_PRIV_BYTES	512	/* a topology's own precomputed tables */

/*
 * Parameters of a fabric, as the operator gives them (rtnetlink, dpctl,
 * dpsim): DP_PARAM_LIST's fields.  Each topology reads the ones it has and
 * rejects the others when set: zero means "not given".  The coordinates
 * (S2 plan mode: the paper's Algorithm 3 coordinates from a plan, which no
 * node can derive for another) are this node's own, one per space; 0
 * coordinates: derived mode.
 */
struct dp_topo_params {
	u32 kind;	/* enum dp_topo_kind */

	/* u32 n, k, ...; u32 ncoords, coords[DP_COORDS_MAX] */
	DP_PARAM_LIST(DP_PARAM_FIELD_U32, DP_PARAM_FIELD_COORDS)
};

/* Each parameter's index and attributes, by its word: DP_PARAM_ID_n. */
enum {
	DP_PARAM_LIST(DP_PARAM_ENUM_ID, DP_PARAM_ENUM_ID)
	DP_PARAM_COUNT
};

enum {
	DP_PARAM_LIST(DP_PARAM_ENUM_ATTR, DP_PARAM_ENUM_ATTR)
};

/**
 * struct dp_param - one line of DP_PARAM_LIST.
 * @name: its word ("spaces").
 * @ifla: its rtnetlink attribute, IFLA_DPILLAR_*.
 * @genl: its generic netlink attribute, DPILLAR_A_DEV_*.
 * @off: where struct dp_topo_params keeps it (with DP_PARAM_COORDS: of
 *	the array, whose count is the u32 before it).
 * @flags: DP_PARAM_ZERO, DP_PARAM_COORDS.
 * @min: its least value (DP_PARAM_COORDS: least count).
 * @max: its greatest, DP_PARAM_NOMAX for none.
 */
struct dp_param {
	const char *name;
	u16 ifla;
	u16 genl;
	u16 off;
	u8 flags;
	u32 min;
	u32 max;
};

/* DP_PARAM_LIST as data, indexed by DP_PARAM_ID_*. */
extern const struct dp_param dp_params[DP_PARAM_COUNT];

/* The parameter named @word, or NULL. */
const struct dp_param *dp_param_by_name(const char *word);

/* What a port of a node plugs into (struct dp_port_info.kind). */
enum dp_port_kind {
	DP_PORT_UNUSED = 0,	/* left free by the topology (growth) */
	DP_PORT_SWITCH,		/* a dumb switch shared with nneigh others */
	DP_PORT_CABLE,		/* a cable to exactly one peer */
};

/*
 * One port of one node, as the topology wires it.  @nneigh sizes that
 * port's neighbour table: the other members of a switch, 1 for a cable, 0
 * for an unused port; never anything that grows with the fabric.  @sw is
 * the switch's index in 0..switches-1 (DP_NODE_NONE for a cable or an
 * unused port); @sw_level and @sw_id name it for people (DPillar: switch
 * column and the id within it).
 */
struct dp_port_info {
	u8 kind;		/* enum dp_port_kind */
	u32 nneigh;
	u32 sw;
	u32 sw_level;
	u32 sw_id;
};

/*
 * Per-packet routing state, carried in the wire header (struct
 * dpillar_hdr: dst, waypoint, flags, rword).  @dst and @waypoint are
 * generic; @flags and @word belong to the topology.
 *
 * @dst:      final destination node id.
 * @waypoint: DP_NODE_NONE, or a node the packet is routed to first.  A
 *            detour is *not* a second header: the waypoint clears this
 *            field on arrival and routing resumes toward @dst.
 * @word:     16 bits of topology state (e.g. a path word, a probe id).
 *            Frames of the first wire version carry 0 here.
 * @flags:    8 bits of topology state (e.g. a direction, a detour budget).
 * @ncoords:  the destination's coordinates the frame carries (S2 plan
 *            mode: routing cannot derive them from @dst), 0: none.  Set
 *            to 0 by every route_init; the sender fills them in.
 * @coords:   those coordinates, host order.
 */
struct dp_route_state {
	u32 dst;
	u32 waypoint;
	u16 word;
	u8 flags;
	u8 ncoords;
	u32 coords[DP_COORDS_MAX];
};

/*
 * Why a hop was taken (struct dp_hop.phase).  0 and 1 are the same for
 * every topology; a topology numbers its own phases from DP_PHASE_TOPO.
 */
enum {
	DP_PHASE_NONE = 0,
	DP_PHASE_DIRECT = 1,	/* last hop: the destination is a neighbour */
	DP_PHASE_TOPO = 2,
};

/*
 * Why routing dropped a packet (struct dp_hop.reason).  0..2 are generic;
 * a topology numbers its own reasons from DP_DROP_TOPO.  Distinct from the
 * kernel device's drop counters: these name routing decisions only.
 */
enum {
	DP_DROP_ROUTE_NONE = 0,
	DP_DROP_ROUTE_BAD_ADDR = 1,	/* self, dst or waypoint not a node */
	DP_DROP_ROUTE_AT_DST = 2,	/* called with self == dst */
	DP_DROP_TOPO = 3,
};

/* One routing decision. */
struct dp_hop {
	u32 next;	/* next node */
	u32 port;	/* our port that reaches it */
	u8 phase;	/* DP_PHASE_* or the topology's */
	u8 reason;	/* DP_DROP_ROUTE_* or the topology's, when dropped */
};

/**
 * struct dp_view_coords - the view's coordinate questions: what a topology
 * with the coordinates extension (struct dp_topo_ops.coords, S2) may ask
 * beyond the core view.  Reached by struct dp_view.coords; no other
 * topology reads it.  A NULL member, or a NULL dp_view.coords, means "not
 * known here", as in the core view.
 *
 * @shortcut: a path toward @dst that @self discovered (S2's shortcut
 *	table): true with the @port and @peer of its first hop, reachable
 *	now, and its length *@dist (1 .. @max_dist, hops from @self to
 *	@dst); false when @self knows none that short.
 * @node_coords: coordinates routing cannot derive (S2 plan mode): those
 *	of @self itself when @node == @self (@port ignored), else those of
 *	@node, our neighbour on @port, as its last Hello gave them
 *	(DPILLAR_TLV_COORDS).  Up to @max into @x; returns how many, 0 when
 *	not known (or not alive).
 * @peer_neigh_coords: the coordinates of entry @idx of the list
 *	dp_view.peer_neighs returns for @peer (its Hello's
 *	DPILLAR_TLV_NEIGH_COORDS), up to @max into @x; returns how many, 0
 *	when not known.
 */
struct dp_view_coords {
	bool (*shortcut)(const void *ctx, u32 self, u32 dst, u32 max_dist,
			 u32 *port, u32 *peer, u32 *dist);
	u32 (*node_coords)(const void *ctx, u32 self, u32 port, u32 node,
			   u32 *x, u32 max);
	u32 (*peer_neigh_coords)(const void *ctx, u32 self, u32 port,
				 u32 peer, u32 idx, u32 *x, u32 max);
};

/*
 * What routing may know about the fabric around @self, supplied by the
 * caller: the kernel backs it with its Hello tables (neigh.c), dpsim and
 * the tests with a failure set (topo_walk.c).  Only @reachable is
 * required; a NULL member means "not known here" and routing must do
 * without it.  Every question gets @ctx.
 *
 * @reachable:  true when @self can deliver a frame to @peer through its
 *              port @port right now.
 * @cable_peer: the node heard at the other end of the cable on @port,
 *              DP_NODE_NONE when none (topologies that learn their peers).
 * @ports_up:   the ports-up bitmap @peer (our neighbour on @port) reported
 *              in its last Hello; false when it reported none.
 * @peer_neighs: up to @max node ids that @peer, our neighbour on @port,
 *              reported as its own neighbours; returns how many.
 * @coords:     optional, the coordinate questions (struct
 *              dp_view_coords), asked only by a topology with the
 *              coordinates extension (struct dp_topo_ops.coords).
 */
struct dp_view {
	bool (*reachable)(const void *ctx, u32 self, u32 port, u32 peer);
	u32 (*cable_peer)(const void *ctx, u32 self, u32 port);
	bool (*ports_up)(const void *ctx, u32 self, u32 port, u32 peer,
			 u32 *mask);
	u32 (*peer_neighs)(const void *ctx, u32 self, u32 port, u32 peer,
			   u32 *ids, u32 max);
	const struct dp_view_coords *coords;
	const void *ctx;
};

/*
 * A routing phase of a topology: its name ("helix"), and whether a hop in
 * it is part of a detour around a failure (@detour: 0, or the 1-based slot
 * of struct dp_topo_ops.detours).  Every hop taken in such a phase counts
 * once, at the node that takes it: DPillar's "tunnel_hops" counts both
 * hops of a tunnel, its one-hop u-turns and ring reversals once each.
 */
struct dp_phase_desc {
	const char *name;
	u8 detour;
};

struct dp_topo;

/* struct dp_topo_param.flags, a topology's own (with the list's) */
#define DP_PARAM_HIDDEN	0x04	/* given, not shown: the device shows the
				 * fabric's own value (the node count)
				 */
#define DP_PARAM_REQUIRED 0x08	/* dpctl and dpsim refuse to go on without
				 * it ("n, k, addr are required"); else
				 * @init says what is missing
				 */
#define DP_PARAM_NEEDED	0x10	/* a device needs it, but its topology's
				 * own checks say so (S2: "s2 needs nodes,
				 * n, spaces, id"; dpsim builds plan mode's
				 * fabric from a file): the tools' help shows
				 * it as a required word (topo_help())
				 */

/**
 * struct dp_topo_param - a parameter a topology takes: a line of
 * DP_PARAM_LIST (struct dp_param, dp_params[@id]) with the topology's
 * flags.  The device's parsing (rtnetlink and genl DEV_SET) and its two
 * fills walk the topologies' tables, so that a new parameter is a line of
 * the list and one of its topology's table, never a test of the kind in
 * the generic module or the tools.
 * @name: as the list's.
 * @ifla: as the list's.
 * @genl: as the list's.
 * @off: as the list's.
 * @flags: the list's flags and DP_PARAM_HIDDEN, DP_PARAM_REQUIRED,
 *	DP_PARAM_NEEDED.
 *	Without DP_PARAM_ZERO, 0 means "not given" and is not shown.
 * @only: optional, the error (an extack) when a topology without this
 *	parameter is given it ("Only S2 has coords").  NULL: it is read
 *	whatever the topology, whose @init rejects it with its own message
 *	(the parameters several topologies share: n, k, level).
 * @id: its DP_PARAM_ID_*.
 *
 * Every parameter changes the same way, with the topology, while the
 * device is down.
 */
struct dp_topo_param {
	const char *name;
	u16 ifla;
	u16 genl;
	u16 off;
	u8 flags;
	u8 id;
	const char *only;
};

/* The u32 parameter @prm of @p (not a DP_PARAM_COORDS one). */
static inline u32 dp_topo_param_u32(const struct dp_topo_params *p,
				    const struct dp_topo_param *prm)
{
	return *(const u32 *)((const char *)p + prm->off);
}

static inline void dp_topo_param_set_u32(struct dp_topo_params *p,
					 const struct dp_topo_param *prm,
					 u32 v)
{
	*(u32 *)((char *)p + prm->off) = v;
}

/**
 * struct dp_topo_coords_ext - the coordinates extension: what a topology
 * that routes on coordinates (S2) adds to the core contract, reached by
 * struct dp_topo_ops.coords.  A topology without it leaves that pointer
 * NULL; the generic path tests the pointer, and nothing else, at each
 * point it would use the extension: on receive (the header's flag,
 * dp_topo_coords_flag(): dp_coords_rx(), GRO, the offload path), before
 * sending (dp_route_set_coords(), the coordinate TLVs of a Hello and their
 * check on receipt) and where the tools answer the view from a table
 * (dp_table_coords()).  Routing reaches the neighbours' coordinates
 * through struct dp_view.coords.
 *
 * @flag: the bit of the header's flags that says the destination's
 *	coordinates follow the header (struct dpillar_coords; S2 plan mode);
 *	not 0.  The caller sets it with dp_route_set_coords() and keeps it in
 *	st->flags when it receives such a frame; routing checks it against
 *	st->ncoords.
 * @hello: the coordinates of @self that its Hellos carry
 *	(DPILLAR_TLV_COORDS), up to @max into @x; returns how many.  A Hello
 *	also lists the neighbours heard on the cable ports
 *	(DPILLAR_TLV_NEIGHS), and where the coordinates cannot be derived
 *	(dp_topo_plan_mode()) theirs too (DPILLAR_TLV_NEIGH_COORDS).
 *	Without the extension, Hellos carry none of these TLVs.
 * @hello_ok: whether the @n coordinates @x that the Hello of @src carried
 *	fit @t (derived ones are those of @src; ones no node can derive are
 *	only counted).  A Hello that does not fit comes from a node
 *	configured otherwise and is ignored.
 * @table: optional, the tools and tests only: the coordinates of @node in
 *	the fabric's table (struct dp_topo.table, attached by the topology),
 *	up to @max into @x; returns how many, 0 without a table.  The
 *	walker's view answers the neighbours' coordinates from it, as the
 *	kernel's Hello tables do, and the sender's resolution (coords.c).
 */
struct dp_topo_coords_ext {
	u32 (*hello)(const struct dp_topo *t, u32 self, u32 *x, u32 max);
	bool (*hello_ok)(const struct dp_topo *t, u32 src, const u32 *x,
			 u32 n);
	u32 (*table)(const struct dp_topo *t, u32 node, u32 *x, u32 max);
	u8 flag;
};

/**
 * struct dp_topo_key_ext - the keys extension: key-based routing (S2),
 * reached by struct dp_topo_ops.keys; NULL for a topology without keys,
 * which is all the generic path tests (dp_topo_has_keys(),
 * dp_dst_is_key() per received frame, dp_key_route_init() when sending).
 *
 * @route_init: the state of a new packet from @src to the 32-bit key
 *	@key (routing mode @sel), which travels in @st->dst in place of a
 *	node id.  Routing takes the packet to the key's home, where
 *	dp_topo_ops.route returns -1 with DP_DROP_ROUTE_AT_DST: the caller
 *	delivers it there.
 * @dst_is_key: whether @flags (off the wire) mark a key frame, whose dst
 *	is a key and not a node id.
 */
struct dp_topo_key_ext {
	void (*route_init)(const struct dp_topo *t, u32 src, u32 key, u32 sel,
			   struct dp_route_state *st);
	bool (*dst_is_key)(const struct dp_topo *t, u8 flags);
};

/**
 * struct dp_topo_ops - one topology: the core contract, in groups
 * (identity and names, instance, address, wiring, route, failure), and
 * one pointer per optional extension.  Every callback not marked optional
 * is required: dp_topo_ops_check() rejects a table without it, and a KUnit
 * test runs that check on every registered topology.  Callbacks get a
 * struct dp_topo filled by @init and ids already checked against
 * t->nodes unless said otherwise.
 *
 * Identity and names:
 *
 * @name: the topology's name in dpctl and dpsim ("dpillar").
 * @kind: its enum dp_topo_kind (the UAPI's enum dpillar_topo).
 * @phases: names of the phases 0..@nphases-1; [0] and [1] must be "none"
 *	and "direct" (DP_PHASE_NONE, DP_PHASE_DIRECT).
 * @nphases: at most DP_PHASE_MAX.
 * @drops: names of the routing drop reasons 0..@ndrops-1; [0..2] must be
 *	"none", "bad_addr", "at_dst".
 * @ndrops: at most DP_DROP_MAX.
 * @detours: optional, names of the DP_DETOUR_SLOTS detour counters the
 *	phases' @detour fields count into (kernel: "route_<name>" in
 *	ethtool -S); NULL entries are unused slots.
 * @sel_names: optional, NULL-terminated names of the values of
 *	@route_init's @sel (dpsim --sel, dpctl route get sel); index = value.
 * @fixture: a test fixture (DP_TEST_TOPOLOGIES): the tools take it, but
 *	do not offer it where they list the topologies (completion words).
 * @params: the topology's parameters (struct dp_topo_param), in the
 *	order netlink shows them, after the kind.  Those not listed are 0
 *	in a fabric of this topology (@init rejects them).
 * @nparams: entries of @params.
 *
 * Instance:
 *
 * @init: check @p and fill @t: t->nodes, t->switches, t->nports,
 *	t->ff_hops, t->max_hops and the topology's tables in t->priv.  On
 *	error return -EINVAL and set *@why to a static message (an extack).
 *	t->max_hops is the longest path the routing can produce, failures
 *	and detours included, which must be proven in the topology's
 *	comments; above DP_TTL_MAX the parameters must be rejected, unless
 *	the topology has @ttl_renew (then at most DP_HOPS_MAX).
 * @alloc: optional, tables too big for t->priv that make routing cheaper
 *	(S2 derived mode: every node's peers and coordinates, which each
 *	decision otherwise derives by the dozen): allocated with dp_alloc()
 *	as one block, which dp_topo_free() releases with dp_free(), and
 *	filled from @t alone; NULL when this instance has none or the
 *	allocation failed.  Every callback must answer the same with and
 *	without them (t->alloc NULL): they only cache what @init's state
 *	derives.  See dp_topo_alloc().
 *
 * Address:
 *
 * @describe: "DPillar (4,2)", like snprintf.
 * @addr_parse: the topology's text form of an address (not "#<id>",
 *	which the core handles).  0, or -EINVAL with *@why.
 * @addr_format: the text form of @id, like snprintf (always terminated
 *	when @len > 0).
 * @addr_to_label: optional, for topologies whose UAPI address is also a
 *	column and byte symbols (IFLA_DPILLAR_COLUMN/LABEL): @sym gets
 *	*@nsym entries, least significant first.
 * @addr_from_label: optional, the inverse; 0 or -EINVAL with *@why.
 *
 * Wiring:
 *
 * @port_info: how port @port (< t->nports) of @id is wired.
 * @port_neigh: the @idx-th node (idx < port_info.nneigh) expected on port
 *	@port of @id, in a fixed order, or DP_NODE_NONE where the topology
 *	learns it from Hellos.
 * @port_neigh_index: the inverse: @peer's index in that table, or -1 when
 *	@peer cannot be on that port.  @peer is not checked by the caller.
 * @peer_port: the port of @peer that plugs into the switch or cable of
 *	port @port of @id, or -1.  @peer is not checked by the caller.
 *
 * Route:
 *
 * @route_init: state of a new packet from @src to @dst.  @sel: 0 for the
 *	topology's default, else a topology choice (DPillar: the helix
 *	direction; a path word); @hash: the flow hash, for topologies that
 *	spread flows.
 * @route: one hop from @self, updating @st.  @v == NULL: failure-free.
 *	0 with *@hop filled, or -1 with hop->reason set.  Must never trust
 *	@st (it comes off the wire): any flags, word or waypoint must give
 *	a hop to a real neighbour or a drop, and the path must stay within
 *	t->max_hops.  Precondition: self != st->dst.
 * @route_choices: optional, the next hops @route chooses among from
 *	@self for @st right now (equal cost and reachable), for diagnostics:
 *	up to @max node ids into @ids; returns how many there are.  0 where
 *	the routing makes no choice.
 * @npaths: optional, path selection (pathsel.c): how many parallel
 *	candidate paths from @src to @dst the routing mode @sel spreads flows
 *	over, which the source probes and moves flows between; 0 (or no
 *	member) when @sel pins one path or the topology has no such set.
 *	At most DP_PATHS_MAX.
 * @path_init: with @npaths, the routing state of candidate @m (< what
 *	@npaths returned) from @src to @dst, as @route_init would set it.
 * @route_dir: optional, the direction of the route @st starts, as route
 *	get shows it (DPILLAR_A_ROUTE_DIR, enum dpillar_route_dir), or -1
 *	when it has none (DPillar's shortest mode, and every other
 *	topology).  Not on the data path.
 * @ttl_renew: optional, a hop budget wider than the wire's u8 TTL, for a
 *	topology whose proven bound t->max_hops exceeds DP_TTL_MAX (S2
 *	above 255 nodes); without it @init must keep t->max_hops within
 *	DP_TTL_MAX.  A relay calls it (dp_ttl_relay()) with the frame's
 *	state @st, as it came off the wire, when the frame's TTL *@ttl is
 *	1 or 0 and would be dropped.  It may renew the TTL (*@ttl at least
 *	2 afterwards, true) by spending budget that @st carries in the
 *	topology's own header bits, which it must then lower in @st (the
 *	relay writes @st back with the hop), or return false: the frame is
 *	dropped.  Must never trust @st: whatever the flags and word, the
 *	renewals must keep every path within t->max_hops, which the
 *	topology proves in its comments.  Never called for a fabric whose
 *	t->max_hops is at most DP_TTL_MAX, where the TTL alone bounds a
 *	frame, so that such a fabric's frames are what they were before
 *	renewal existed.
 *
 * Failure (when routing gives up: the device's route_fail hook, which
 * shortcut.c sets; no member is called, they only name drop reasons):
 *
 * @discover_drop: optional (0: none), the drop reason (>= DP_DROP_TOPO)
 *	after which the caller may discover a path toward the destination
 *	and offer it to @route through the view's shortcut question
 *	(struct dp_view_coords.shortcut; S2's local minimum: kernel
 *	shortcut.c).
 * @fallback_drops: the drop reasons (1 << reason, each >= DP_DROP_TOPO and
 *	below @ndrops, never @discover_drop) that say a real failure stopped
 *	the frame, after which the discovery fallback may carry it on
 *	(kernel: dp_sc_fallback()); a reason that only a malformed header
 *	can give (XDCent's bad_state) or a bug (DPillar's nopath) is not
 *	one: any host on a switch could make a relay flood with it.
 *
 * Extensions (optional, NULL: the topology has none, and the generic path
 * tests only the pointer):
 *
 * @coords: routing on coordinates (struct dp_topo_coords_ext: S2).
 * @keys: key-based routing (struct dp_topo_key_ext: S2).
 */
struct dp_topo_ops {
	/* identity and names */
	const char *name;
	u32 kind;
	const struct dp_phase_desc *phases;
	u8 nphases;
	const char * const *drops;
	u8 ndrops;
	const char * const *detours;
	const char * const *sel_names;
	bool fixture;
	const struct dp_topo_param *params;
	u8 nparams;

	/* instance */
	int (*init)(struct dp_topo *t, const struct dp_topo_params *p,
		    const char **why);
	void *(*alloc)(const struct dp_topo *t);

	/* address */
	int (*describe)(const struct dp_topo *t, char *buf, u32 len);
	int (*addr_parse)(const struct dp_topo *t, const char *text, u32 *id,
			  const char **why);
	int (*addr_format)(const struct dp_topo *t, u32 id, char *buf,
			   u32 len);
	int (*addr_to_label)(const struct dp_topo *t, u32 id, u32 *column,
			     u8 *sym, u32 *nsym);
	int (*addr_from_label)(const struct dp_topo *t, u32 column,
			       const u8 *sym, u32 nsym, u32 *id,
			       const char **why);

	/* wiring */
	void (*port_info)(const struct dp_topo *t, u32 id, u32 port,
			  struct dp_port_info *pi);
	u32 (*port_neigh)(const struct dp_topo *t, u32 id, u32 port, u32 idx);
	int (*port_neigh_index)(const struct dp_topo *t, u32 id, u32 port,
				u32 peer);
	int (*peer_port)(const struct dp_topo *t, u32 id, u32 port, u32 peer);

	/* route */
	void (*route_init)(const struct dp_topo *t, u32 src, u32 dst, u32 sel,
			   u32 hash, struct dp_route_state *st);
	int (*route)(const struct dp_topo *t, u32 self,
		     struct dp_route_state *st, const struct dp_view *v,
		     struct dp_hop *hop);
	u32 (*route_choices)(const struct dp_topo *t, u32 self,
			     const struct dp_route_state *st,
			     const struct dp_view *v, u32 *ids, u32 max);
	u32 (*npaths)(const struct dp_topo *t, u32 src, u32 dst, u32 sel);
	void (*path_init)(const struct dp_topo *t, u32 src, u32 dst, u32 m,
			  struct dp_route_state *st);
	int (*route_dir)(const struct dp_topo *t,
			 const struct dp_route_state *st);
	bool (*ttl_renew)(const struct dp_topo *t, struct dp_route_state *st,
			  u8 *ttl);

	/* failure */
	u8 discover_drop;
	u16 fallback_drops;

	/* extensions */
	const struct dp_topo_coords_ext *coords;
	const struct dp_topo_key_ext *keys;
};

/* One fabric, filled by dp_topo_init(). */
struct dp_topo {
	const struct dp_topo_ops *ops;
	struct dp_topo_params p;	/* as given */
	u32 kind;
	u32 nodes;		/* ids are dense: 0 .. nodes-1 */
	u32 switches;		/* switch indices: 0 .. switches-1 */
	u32 nports;		/* ports of a node (the most, if they differ) */
	u32 ff_hops;		/* longest failure-free path */
	u32 max_hops;		/* proven path bound: the TTL packets get */
	/*
	 * Routing modes this instance offers: @ops->sel_names[0 ..
	 * nsels - 1] (XDCent and BCube: "pM" only for the M < k + 1
	 * parallel paths there are); 0: every name.
	 */
	u32 nsels;
	/*
	 * The cabling is not derivable (S2 plan mode): each cable port's
	 * peer is whoever the Hellos on it say (port_neigh() returns
	 * DP_NODE_NONE, port_neigh_index() 0 for any other valid node,
	 * peer_port() -1), unless @table gives the whole fabric.
	 */
	bool learn_peers;
	/*
	 * Bytes every routed frame (data, probe) carries between the
	 * header and its payload: the destination's coordinates, struct
	 * dpillar_coords (S2 plan mode); 0 for the other fabrics.
	 */
	u32 ext_len;
	/*
	 * Optional, never in the kernel: the whole fabric's table, for the
	 * tools and the tests (S2 plan mode: struct dp_s2_plan), which
	 * then answer port_neigh(), peer_port() and the walker's view from
	 * it.  The routing callbacks never read it: they see only the view.
	 */
	const void *table;
	/*
	 * Optional: the topology's tables that do not fit @priv
	 * (dp_topo_ops.alloc), NULL without.  Whole-fabric and read-only,
	 * like @priv, so every node routed with this struct (dpsim) and
	 * every lockless reader (the kernel) shares them.  Owned by whoever
	 * called dp_topo_alloc(), which must call dp_topo_free() once no
	 * reader can see @t any more; a struct copy carries the pointer,
	 * not a copy of the tables, so exactly one of the copies is freed.
	 */
	void *alloc;
	u64 priv[DP_TOPO_PRIV_BYTES / 8];	/* the topology's own */
};

/* The registered topologies. */
const struct dp_topo_ops *dp_topo_ops_by_kind(u32 kind);
const struct dp_topo_ops *dp_topo_ops_by_name(const char *name);
/* @ops's parameter whose rtnetlink attribute is @ifla, or NULL. */
const struct dp_topo_param *dp_topo_param_by_ifla(const struct dp_topo_ops *ops,
						  u32 ifla);
/* Every registered topology's parameters in turn; see topo.c. */
const struct dp_topo_param *dp_topo_param_next(u32 *kind, u32 *i);

/*
 * For the tools, which read a topology's words by walking its table:
 * @ops's parameter kept at offset @off of struct dp_topo_params, or NULL
 * (also when @ops is NULL).
 */
static inline const struct dp_topo_param *
dp_topo_param_at(const struct dp_topo_ops *ops, u16 off)
{
	u32 i;

	for (i = 0; ops && i < ops->nparams; i++)
		if (ops->params[i].off == off)
			return &ops->params[i];
	return NULL;
}

/*
 * Forget in @p what @ops (NULL: an unknown topology) cannot take but
 * another topology owns (its table entry has @only): a device reports,
 * and a command line may carry, the whole struct.  The shared parameters
 * (@only NULL) stay, for @init to judge.
 */
static inline void dp_topo_params_keep(const struct dp_topo_ops *ops,
				       struct dp_topo_params *p)
{
	const struct dp_topo_param *prm;
	u32 kind = 0, i = 0;

	while ((prm = dp_topo_param_next(&kind, &i))) {
		if (!prm->only || dp_topo_param_at(ops, prm->off))
			continue;
		if (prm->flags & DP_PARAM_COORDS)
			p->ncoords = 0;
		else
			dp_topo_param_set_u32(p, prm, 0);
	}
}

/* 0, or -EINVAL with *why naming the first missing or bad member. */
int dp_topo_ops_check(const struct dp_topo_ops *ops, const char **why);

/*
 * Validate @p and fill *t.  On error returns -EINVAL and sets *why to a
 * static message suitable for a netlink extack.
 */
int dp_topo_init(struct dp_topo *t, const struct dp_topo_params *p,
		 const char **why);
/*
 * Give @t (filled by dp_topo_init()) its topology's tables
 * (dp_topo_ops.alloc), at init time and before any reader can see @t:
 * t->alloc is never written while @t is in use, so readers need no
 * barrier.  True when @t has them; false (topologies without, or no
 * memory) leaves @t routing as well, only at a higher cost.  Not on the
 * packet path (it may sleep in the kernel).  dp_topo_init() on a @t that
 * has tables would lose them: dp_topo_free() first.
 */
bool dp_topo_alloc(struct dp_topo *t);
/* Release what dp_topo_alloc() gave @t, if anything; @t stays usable. */
void dp_topo_free(struct dp_topo *t);
int dp_topo_describe(const struct dp_topo *t, char *buf, u32 len);
/*
 * The "none" topology (kind 0, DPILLAR_TOPO_UNSPEC): a device not
 * configured yet.  No nodes, DP_MAX_PORTS empty ports, no routing.
 */
void dp_topo_init_none(struct dp_topo *t);
bool dp_topo_configured(const struct dp_topo *t);

/*
 * The initial TTL of a packet: the proven path bound, or DP_TTL_MAX where
 * the bound is wider than the wire's u8 and the topology renews the TTL
 * on the way (dp_topo_ops.ttl_renew).
 */
static inline u32 dp_topo_ttl(const struct dp_topo *t)
{
	return t->max_hops < DP_TTL_MAX ? t->max_hops : DP_TTL_MAX;
}

/*
 * The TTL step of the relay (dp_relay(), relay.h: every frame type)
 * and of the tools' walker, before the frame's one routing decision:
 * false when the frame must be dropped (its TTL is out and the topology
 * renews none), else its TTL *@ttl is lowered by one.  A frame is relayed only with a TTL of 2 or
 * more, so it never leaves with 0.  Renewal (dp_topo_ops.ttl_renew) is
 * asked only in a fabric whose bound exceeds the u8, so every other
 * fabric's relay behaves, and writes its frames, as it always did.
 */
static inline bool dp_ttl_relay(const struct dp_topo *t,
				struct dp_route_state *st, u8 *ttl)
{
	if (*ttl <= 1 &&
	    (t->max_hops <= DP_TTL_MAX || !t->ops->ttl_renew ||
	     !t->ops->ttl_renew(t, st, ttl) || *ttl <= 1))
		return false;
	(*ttl)--;
	return true;
}

static inline bool dp_addr_valid(const struct dp_topo *t, u32 id)
{
	return id < t->nodes;
}

/*
 * The header flag of carried coordinates (struct dp_topo_coords_ext.flag),
 * 0 for a topology without the coordinates extension: the receive and
 * send points' one test (a frame's flags & this).
 */
static inline u8 dp_topo_coords_flag(const struct dp_topo *t)
{
	return t->ops && t->ops->coords ? t->ops->coords->flag : 0;
}

/*
 * Whether this node was given coordinates no other node can derive (S2
 * plan mode): then its frames carry their destination's (struct
 * dp_topo_coords_ext.flag), resolved by the sender, and its Hellos its
 * neighbours' (struct dp_topo_coords_ext.hello).
 */
static inline bool dp_topo_plan_mode(const struct dp_topo *t)
{
	return t->ops->coords && t->p.ncoords;
}

/* See struct dp_topo_ops.route_dir: -1 without it. */
static inline int dp_route_dir(const struct dp_topo *t,
			       const struct dp_route_state *st)
{
	return t->ops->route_dir ? t->ops->route_dir(t, st) : -1;
}

/* See struct dp_topo_coords_ext.table: 0 without it. */
static inline u32 dp_table_coords(const struct dp_topo *t, u32 node, u32 *x,
				  u32 max)
{
	return t->table && t->ops->coords && t->ops->coords->table ?
	       t->ops->coords->table(t, node, x, max) : 0;
}

/* Key-based routing (struct dp_topo_ops.keys): S2 only. */
static inline bool dp_topo_has_keys(const struct dp_topo *t)
{
	return t->ops->keys;
}

bool dp_s2_dst_is_key(const struct dp_topo *t, u8 flags);
void dp_s2_key_route_init(const struct dp_topo *t, u32 src, u32 key, u32 sel,
			  struct dp_route_state *st);

/*
 * A frame whose header's dst is a key, not a node id.  Per frame, so
 * compared against S2's, the one topology with keys, before an indirect
 * call.
 */
static inline bool dp_dst_is_key(const struct dp_topo *t, u8 flags)
{
	return dp_topo_has_keys(t) &&
	       INDIRECT_CALL_1(t->ops->keys->dst_is_key, dp_s2_dst_is_key, t,
			       flags);
}

/*
 * A real failure stopped the frame with @reason, after which a discovery
 * may find it a way on: the topology's own (@discover_drop) or the
 * fallback's (@fallback_drops).
 */
static inline bool dp_topo_discover_drop(const struct dp_topo *t, u8 reason)
{
	return reason < DP_DROP_MAX &&
	       ((t->ops->fallback_drops >> reason & 1) ||
		(reason && reason == t->ops->discover_drop));
}

static inline void dp_key_route_init(const struct dp_topo *t, u32 src,
				     u32 key, u32 sel,
				     struct dp_route_state *st)
{
	st->ncoords = 0;
	INDIRECT_CALL_1(t->ops->keys->route_init, dp_s2_key_route_init, t,
			src, key, sel, st);
}

/*
 * Text forms.  dp_addr_parse() takes the topology's form or "#<node id>";
 * 0, or -EINVAL (+ *why).  dp_addr_format() returns the length of the
 * full text like snprintf() (truncating, always NUL-terminating when
 * len > 0), or -EINVAL for an invalid id (buf gets "").
 */
int dp_addr_parse(const struct dp_topo *t, const char *text, u32 *id,
		  const char **why);
int dp_addr_format(const struct dp_topo *t, u32 id, char *buf, u32 len);
/* -EOPNOTSUPP where the topology has no column/label form. */
int dp_addr_to_label(const struct dp_topo *t, u32 id, u32 *column, u8 *sym,
		     u32 *nsym);
int dp_addr_from_label(const struct dp_topo *t, u32 column, const u8 *sym,
		       u32 nsym, u32 *id, const char **why);

/* Wiring: see struct dp_topo_ops. */
void dp_port_info(const struct dp_topo *t, u32 id, u32 port,
		  struct dp_port_info *pi);
u32 dp_port_neigh(const struct dp_topo *t, u32 id, u32 port, u32 idx);
/* dp_port_neigh_index(): inline, at the end of this file. */
int dp_peer_port(const struct dp_topo *t, u32 id, u32 port, u32 peer);

/*
 * Routing.  dp_route() with @v NULL is the failure-free routing.  The
 * per-packet dispatch calls the topologies built in directly (a switch on
 * the kind, DP_TOPO_CASE_ROUTE below), so that a kernel with retpolines
 * pays no indirect call for them.
 */
void dp_route_init(const struct dp_topo *t, u32 src, u32 dst, u32 sel,
		   u32 hash, struct dp_route_state *st);
/* dp_route(): inline, at the end of this file. */

/*
 * A sender's part in plan mode: the destination's @n coordinates travel
 * in the frame (struct dp_topo_coords_ext.flag).  False, and @st left
 * alone, when the topology carries none or @n is out of range.
 */
bool dp_route_set_coords(const struct dp_topo *t, struct dp_route_state *st,
			 const u32 *x, u32 n);

/* See struct dp_topo_ops.route_choices; 0 without it. */
u32 dp_route_choices(const struct dp_topo *t, u32 self,
		     const struct dp_route_state *st, const struct dp_view *v,
		     u32 *ids, u32 max);

/* Candidate paths for path selection: see struct dp_topo_ops.npaths. */
#define DP_PATHS_MAX	8
u32 dp_route_npaths(const struct dp_topo *t, u32 src, u32 dst, u32 sel);
void dp_route_path_init(const struct dp_topo *t, u32 src, u32 dst, u32 m,
			struct dp_route_state *st);

/* Names for diagnostics: "unknown" when out of range. */
const char *dp_phase_name(const struct dp_topo *t, u8 phase);
const char *dp_drop_reason_name(const struct dp_topo *t, u8 reason);
/* The detour slot (1..DP_DETOUR_SLOTS) a hop in @phase counts in, or 0. */
static inline u8 dp_phase_detour(const struct dp_topo *t, u8 phase)
{
	return phase < t->ops->nphases ? t->ops->phases[phase].detour : 0;
}

/* Name of detour slot @slot (1-based), NULL when unused. */
const char *dp_detour_name(const struct dp_topo *t, u8 slot);
/*
 * Route selectors (route_init's @sel; a device's routing mode): the value
 * of a name, or -1; how many there are (at least 1: the default, 0).
 */
int dp_sel_parse(const struct dp_topo *t, const char *name);
u32 dp_sel_count(const struct dp_topo *t);
const char *dp_sel_name(const struct dp_topo *t, u32 sel);

/* The view's reachability test, dispatched without an indirect call. */
static inline bool dp_view_reachable(const struct dp_view *v, u32 self,
				     u32 port, u32 peer)
{
	return !v || INDIRECT_CALL_1(v->reachable, DP_VIEW_REACHABLE,
				     v->ctx, self, port, peer);
}

/*
 * The view's other per-packet questions, called directly in the kernel
 * like reachable (no retpoline per hop); @v and the member must be set.
 */
static inline bool dp_view_ask_ports_up(const struct dp_view *v, u32 self,
					u32 port, u32 peer, u32 *mask)
{
	return INDIRECT_CALL_1(v->ports_up, DP_VIEW_PORTS_UP, v->ctx, self,
			       port, peer, mask);
}

static inline u32 dp_view_ask_peer_neighs(const struct dp_view *v, u32 self,
					  u32 port, u32 peer, u32 *ids,
					  u32 max)
{
	return INDIRECT_CALL_1(v->peer_neighs, DP_VIEW_PEER_NEIGHS, v->ctx,
			       self, port, peer, ids, max);
}

static inline u32 dp_view_ask_cable_peer(const struct dp_view *v, u32 self,
					 u32 port)
{
	return INDIRECT_CALL_1(v->cable_peer, DP_VIEW_CABLE_PEER, v->ctx, self,
			       port);
}

/*
 * Division by an invariant u32 (Granlund-Montgomery, as the kernel's
 * reciprocal_div.h): exact for every u32 dividend, a multiply and shifts
 * instead of a divide instruction on the per-packet path.
 */
struct dp_rdiv {
	u32 m;
	u8 sh1, sh2;
};

/* Reciprocal of @d (d >= 1) and x / d with it. */
struct dp_rdiv dp_rdiv_init(u32 d);

static inline u32 dp_rdiv(u32 x, struct dp_rdiv r)
{
	u32 t = (u32)(((u64)x * r.m) >> 32);

	return (t + ((x - t) >> r.sh1)) >> r.sh2;
}

/* murmur3's finaliser: a bijection of u32 that mixes every input bit. */
static inline u32 dp_fmix32(u32 h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bU;
	h ^= h >> 13;
	h *= 0xc2b2ae35U;
	h ^= h >> 16;
	return h;
}

/* u64 / u32 by shift and subtract: no 64-bit division, init time only. */
u64 dp_div64(u64 n, u32 d);

/* Append decimal @v / char @c at buf[*pos], counting what does not fit. */
void dp_put_u32(char *buf, u32 len, u32 *pos, u32 v);
void dp_put_char(char *buf, u32 len, u32 *pos, char c);
void dp_put_str(char *buf, u32 len, u32 *pos, const char *s);
/* Terminate the text built with dp_put_*(); returns its full length. */
int dp_put_end(char *buf, u32 len, u32 pos);
/* Parse a decimal number at *s (at least one digit) not above @max. */
int dp_parse_dec(const char **s, u32 max, u32 *out);

/*
 * The topologies (topologies.h): each one's ops table, and the per-packet
 * entry points of its file (XDCent's come twice, for BCube too).
 */
DP_TOPOLOGY_LIST(DP_TOPO_DECLARE, DP_TOPO_DECLARE)

/*
 * The per-packet dispatch: a switch on the kind, generated from the list
 * (DP_TOPO_CASE_*, topologies.h), that calls every topology this build
 * carries directly, so that a kernel with retpolines makes no indirect
 * call per packet, however many topologies there are (INDIRECT_CALL_4,
 * the kernel's widest, had room for four).  Such a kernel builds without
 * jump tables (gcc: -fno-jump-tables; clang makes none with retpolines),
 * so the switch is compares and direct calls.  t->ops comes from the
 * registry by t->kind (dp_topo_init()), and the KUnit suite
 * dpillar_topo_core checks that every registered ops table's entry points
 * are these; only the "none" topology (kind 0) takes the default, the
 * ops' own.
 */

/*
 * The per-hop calls, inline: under TCG a call and its return cost a guest
 * a translation-block lookup each, and the relay's profile
 * (DPILLAR_ICOUNT=off make bench) had these wrappers at 1-2% of a relay's
 * samples (dpillar-evaluation.rst, "The relay data path by the wall
 * clock").
 */
static inline int dp_port_neigh_index(const struct dp_topo *t, u32 id,
				      u32 port, u32 peer)
{
	if (port >= t->nports || !dp_addr_valid(t, id) ||
	    !dp_addr_valid(t, peer) || id == peer)
		return -1;
	switch (t->kind) {
	default:
		return t->ops->port_neigh_index(t, id, port, peer);
	DP_TOPOLOGIES_BUILT(DP_TOPO_CASE_NEIGH_INDEX)
	}
}

static inline int dp_route(const struct dp_topo *t, u32 self,
			   struct dp_route_state *st, const struct dp_view *v,
			   struct dp_hop *hop)
{
	switch (t->kind) {
	default:
		return t->ops->route(t, self, st, v, hop);
	DP_TOPOLOGIES_BUILT(DP_TOPO_CASE_ROUTE)
	}
}

#endif /* _DP_TOPO_H */
