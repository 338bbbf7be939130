/* SPDX-License-Identifier: GPL-2.0 */
/*
 * topologies.h - the one list of the topologies of the routing core.
 *
 * A line per topology, DP_TOPO(KIND, name, file): KIND names its value of
 * the UAPI's enum dpillar_topo (DPILLAR_TOPO_<KIND>) and of enum
 * dp_topo_kind (DP_TOPO_<KIND>); name is its ops table, dp_<name>_ops;
 * file is its source, topo_<file>.c, whose non-static per-packet entry
 * points are dp_<file>_route_init(), dp_<file>_route() and
 * dp_<file>_port_neigh_index() (XDCent and BCube: one file, two kinds).
 * DP_TEST_TOPO marks a test fixture: in every userspace tool, in the
 * module only when built with DPILLAR_TEST_TOPOLOGIES=y.
 *
 * Everything else is generated from this list: enum dp_topo_kind, the
 * declarations of the ops tables and entry points and the per-packet
 * dispatch (topo.h), the registry dp_topologies[] (topo.c), and the
 * objects the module, its KUnit suites and the tools build
 * (topologies.mk reads this file: make can read a C header with sed, while
 * a header generated from a make list would need a rule in every one of
 * those builds, DKMS's included).  So the list is kept to one line per
 * topology that topologies.mk's sed understands, each ending with a
 * backslash, the last line a comment: adding or removing a topology is
 * one line.
 */
#ifndef _DP_TOPOLOGIES_H
#define _DP_TOPOLOGIES_H

#define DP_TOPOLOGY_LIST(DP_TOPO, DP_TEST_TOPO)	\
	DP_TOPO(DPILLAR, dpillar, dpillar)		\
	DP_TOPO(DCELL, dcell, dcell)			\
	DP_TOPO(BCUBE, bcube, xdcent)			\
	DP_TOPO(XDCENT, xdcent, xdcent)			\
	DP_TOPO(S2, s2, s2)				\
	DP_TEST_TOPO(RING, ring, ring)			\
	/* the end of the list */

/*
 * What is made of the list (used in topo.h, topo.c): X-macros that take a
 * line's three words whether they use them or not, which checkpatch's
 * macro checks do not fit; scripts/checkpatch.sh turns those off for this
 * file only, so the X-macros live here and nowhere else.
 *
 * The test fixtures: in every userspace build, in the module only when
 * built with DPILLAR_TEST_TOPOLOGIES=y (Kbuild), so that an operator's
 * module never offers them.  DP_TOPOLOGIES_BUILT(X) is X(KIND, name,
 * file) for every topology this build carries; DP_TOPOLOGY_LIST(X, X)
 * names them all.
 */
#if !defined(__KERNEL__) || defined(DPILLAR_TEST_TOPOLOGIES)
#define DP_HAVE_TEST_TOPOLOGIES
#endif
#define DP_TOPO_SKIP(KIND, name, file)
#ifdef DP_HAVE_TEST_TOPOLOGIES
#define DP_TOPOLOGIES_BUILT(X) DP_TOPOLOGY_LIST(X, X)
#else
#define DP_TOPOLOGIES_BUILT(X) DP_TOPOLOGY_LIST(X, DP_TOPO_SKIP)
#endif

/* enum dp_topo_kind: the UAPI's values. */
#define DP_TOPO_ENUM(KIND, name, file) DP_TOPO_##KIND = DPILLAR_TOPO_##KIND,

/* The registry dp_topologies[], indexed by kind. */
#define DP_TOPO_REGISTER(KIND, name, file) [DP_TOPO_##KIND] = &dp_##name##_ops,

/* The ops table and the per-packet entry points of its file. */
#define DP_TOPO_DECLARE(KIND, name, file)				\
	extern const struct dp_topo_ops dp_##name##_ops;		\
	void dp_##file##_route_init(const struct dp_topo *t, u32 src,	\
				    u32 dst, u32 sel, u32 hash,		\
				    struct dp_route_state *st);		\
	int dp_##file##_route(const struct dp_topo *t, u32 self,	\
			      struct dp_route_state *st,		\
			      const struct dp_view *v, struct dp_hop *hop); \
	int dp_##file##_port_neigh_index(const struct dp_topo *t, u32 id, \
					 u32 port, u32 peer);

/*
 * The cases of the per-packet dispatch (topo.h, "The per-packet
 * dispatch"): each calls the kind's entry point directly, with the
 * arguments of the function it is expanded in.
 */
#define DP_TOPO_CASE_ROUTE_INIT(KIND, name, file)			\
	case DP_TOPO_##KIND:						\
		dp_##file##_route_init(t, src, dst, sel, hash, st);	\
		return;
#define DP_TOPO_CASE_ROUTE(KIND, name, file)				\
	case DP_TOPO_##KIND:						\
		return dp_##file##_route(t, self, st, v, hop);
#define DP_TOPO_CASE_NEIGH_INDEX(KIND, name, file)			\
	case DP_TOPO_##KIND:						\
		return dp_##file##_port_neigh_index(t, id, port, peer);

/*
 * The entry points of each topology this build carries, for the KUnit
 * check of the dispatch (topo_test.c): a struct dp_topo_ops with only
 * those, its kind and its name.
 */
#define DP_TOPO_ENTRY(KIND, topo, file)					\
	{ .name = #topo, .kind = DP_TOPO_##KIND,			\
	  .route_init = dp_##file##_route_init,				\
	  .route = dp_##file##_route,					\
	  .port_neigh_index = dp_##file##_port_neigh_index },

#endif /* _DP_TOPOLOGIES_H */
