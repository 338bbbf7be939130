/* SPDX-License-Identifier: GPL-2.0 */
/*
 * topo_ring.h - Ring(n): private header of topo_ring.c, also read by its
 * KUnit suite (topo_ring_test.c).
 *
 * A test fixture, not a fabric to deploy: n servers in a ring, two cable
 * ports each, no switches.  It proves that a topology is added by its own
 * files, its line of the list (net/dpillar/topologies.h) and its UAPI
 * number (Documentation/networking/dpillar-design.rst, "Adding a
 * topology"); the module carries it, a DP_TEST_TOPO, only when built with
 * DPILLAR_TEST_TOPOLOGIES=y.
 */
#ifndef _DP_TOPO_RING_H
#define _DP_TOPO_RING_H

#include "topo.h"

/* n: 3 servers at least (2 would cable one pair twice); 2(n-1) <= 255. */
#define RING_N_MIN		3
#define RING_N_MAX		128

/* Port 0 is cabled to the next server's port 1 (id + 1 mod n). */
#define RING_PORT_NEXT		0
#define RING_PORT_PREV		1

/*
 * Per-packet state (struct dp_route_state): flags bit 0, the direction
 * (0: toward id + 1, out of port 0; 1: toward id - 1, out of port 1);
 * bit 1, the packet has turned back once (set with the direction's flip,
 * never cleared).  word and waypoint are unused (0, DP_NODE_NONE).
 */
#define RING_RS_PREV		0x01
#define RING_RS_TURNED		0x02

enum ring_phase {
	RING_PHASE_RING = DP_PHASE_TOPO,	/* on round the ring */
	RING_PHASE_TURN,	/* first hop after turning back */
	RING_PHASE_COUNT,
};

enum ring_drop {
	RING_DROP_CUT = DP_DROP_TOPO,	/* both ways dead, or turned already */
	RING_DROP_COUNT,
};

#endif /* _DP_TOPO_RING_H */
