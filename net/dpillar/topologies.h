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
 * (topologies.mk reads this file: make cannot include a C header, while
 * the compilers can read no make list, and a generated header would need
 * a rule in every one of those builds).  So it is kept to one line per
 * topology that topologies.mk's sed understands, each ending with a
 * backslash, the last line a comment.
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

#endif /* _DP_TOPOLOGIES_H */
