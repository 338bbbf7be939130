/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * dpillar: server-centric data-center fabric (DPillar and related
 * topologies), userspace API.
 *
 * Link type "dpillar" (rtnetlink, IFLA_INFO_KIND "dpillar"): a virtual
 * device that binds a server's physical NICs as ports of the fabric.
 */
#ifndef _UAPI_LINUX_DPILLAR_H
#define _UAPI_LINUX_DPILLAR_H

#include <linux/types.h>

/*
 * Ethertype of dpillar frames on the wire.  0x88B5 is one of the two
 * ethertypes IEEE 802 reserves for local experimental use; dpillar fabrics
 * are closed data-center segments, so no registered value is needed.
 */
#define DPILLAR_ETHERTYPE	0x88B5

/*
 * Topology of a fabric (IFLA_DPILLAR_TOPO).  Numbered for good: a value is
 * never reused.  A topology also has its line in the routing core's list
 * (net/dpillar/topologies.h), which names it here by DPILLAR_TOPO_<KIND>.
 */
enum dpillar_topo {
	DPILLAR_TOPO_UNSPEC = 0,
	DPILLAR_TOPO_DPILLAR = 1,	/* DPillar (n, k): 2 ports per server */
	DPILLAR_TOPO_DCELL = 2,	/* DCell (n, k): k + 1 ports per server */
	DPILLAR_TOPO_BCUBE = 3,	/* BCube (n, k): k + 1 ports per server */
	DPILLAR_TOPO_XDCENT = 4,	/* XDCent (n, k, i): k + 1 ports per server */
	/* Space Shuffle (nodes, n ports, L spaces, seed): derived coordinates */
	DPILLAR_TOPO_S2 = 5,
	DPILLAR_TOPO_RING = 6,	/* Ring (n): a test fixture (test modules only) */

	__DPILLAR_TOPO_MAX,
	DPILLAR_TOPO_MAX = __DPILLAR_TOPO_MAX - 1,
};

/*
 * Limits of the DPillar parameters.  n is the switch port count and must
 * be even; the server count N = k * (n/2)^k must fit a 32-bit node id with
 * 0xffffffff left free as "no node".
 */
#define DPILLAR_N_MIN		4
#define DPILLAR_N_MAX		256
#define DPILLAR_K_MIN		2
#define DPILLAR_LABEL_MAX	32	/* most label symbols of any topology */
#define DPILLAR_PORTS_MAX	16	/* most ports of any topology */
#define DPILLAR_MODE_MAX	15	/* routing mode numbers: 0..15 */

/*
 * Hello and dead intervals, in milliseconds.  A neighbour not heard for the
 * dead interval is unreachable; the dead interval must exceed the Hello
 * interval.
 */
#define DPILLAR_HELLO_MS_MIN	10
#define DPILLAR_HELLO_MS_MAX	10000
#define DPILLAR_DEAD_MS_MAX	30000

/*
 * IFLA_INFO_DATA attributes of the "dpillar" link type.
 *
 * A node's address is given as text in IFLA_DPILLAR_ADDR, in the
 * topology's own form (DPillar "C:v_{k-1}.....v_0") or, for every
 * topology, "#<node id>".  DPillar also takes it as IFLA_DPILLAR_COLUMN
 * and IFLA_DPILLAR_LABEL (the symbols as one byte each, v_0 first, so its
 * length is k); a request gives exactly one form, else it is rejected with
 * an extack message.  Replies carry IFLA_DPILLAR_ADDR for every topology
 * and, for DPillar, COLUMN and LABEL too; N and K only where the topology
 * has such parameters.
 *
 * Destination IP to node id is stateless: an IPv4 address inside
 * IFLA_DPILLAR_IP4_PREFIX/IFLA_DPILLAR_IP4_PREFIXLEN has the node id as its
 * host part (default 10.0.0.0/8), an IPv6 address inside the /96
 * IFLA_DPILLAR_IP6_PREFIX has it as its low 32 bits (default
 * fd64:7069:6c6c:6172::/96, "dpillar" in ASCII).
 *
 * S2 derives every node's coordinates from nodes, seed and the id, unless
 * the node is given its own in IFLA_DPILLAR_COORDS (plan mode: a plan's
 * coordinates, "dpctl plan"): one u32 per space, host byte order, the
 * point c / 2^32 of the unit ring; its cabling is then learned from the
 * Hellos.  Only S2 takes it, and only with as many values as spaces.
 *
 * IFLA_DPILLAR_PORTS nests one IFLA_DPILLAR_PORT (u32 ifindex) per port, in
 * port order.  A DPillar server has exactly two ports: port 0 plugs into a
 * switch of column S_C, port 1 into a switch of column S_{C-1}.  Ifindex
 * 0 is a port without a NIC (absent, as one whose NIC went away): newlink
 * takes one entry per port of the topology, any (or all) of them 0, and
 * attaches the others; replies show an absent port as 0.  In changelink
 * (without topology attributes, which refuse a port list) the list
 * attaches NICs that come later: entry i, an ifindex, attaches that NIC
 * to port i, which must have none; 0 leaves port i as it is, and so do
 * the ports after a shorter list.  Checked whole before anything changes
 * (an extack message on each refusal); each attach is notified as
 * "ip link set NIC master DEV"'s is (PORT_NTF).
 */
enum {
	IFLA_DPILLAR_UNSPEC,
	IFLA_DPILLAR_TOPO,	/* u32, enum dpillar_topo; default DPILLAR */
	IFLA_DPILLAR_N,		/* u32, switch port count n (DPillar) */
	IFLA_DPILLAR_K,		/* u32, number of columns k (DPillar) */
	IFLA_DPILLAR_COLUMN,	/* u32, this server's column (DPillar) */
	IFLA_DPILLAR_LABEL,	/* binary, u8 symbols v_0 .. v_{k-1} (DPillar) */
	IFLA_DPILLAR_PORTS,	/* nested, IFLA_DPILLAR_PORT list; 0: absent */
	IFLA_DPILLAR_NODE_ID,	/* u32, read-only: this server's node id */
	IFLA_DPILLAR_NODES,	/* u32, read-only: servers in the fabric */
	IFLA_DPILLAR_HELLO_MS,	/* u32, Hello interval (changeable) */
	IFLA_DPILLAR_DEAD_MS,	/* u32, neighbour dead interval (changeable) */
	IFLA_DPILLAR_IP4_PREFIX,	/* be32, IPv4 prefix of the fabric */
	IFLA_DPILLAR_IP4_PREFIXLEN,	/* u8, its length */
	IFLA_DPILLAR_IP6_PREFIX,	/* binary, 16 bytes: IPv6 /96 prefix */
	IFLA_DPILLAR_ADDR,	/* string, this node's address (any topology) */
	IFLA_DPILLAR_MODE,	/* u32, routing mode of the packets this node
				 * sends (changeable); the topology's mode
				 * number, DPillar: enum dpillar_mode
				 */
	IFLA_DPILLAR_LEVEL,	/* u32, top level i (XDCent) */
	IFLA_DPILLAR_SPACES,	/* u32, virtual spaces L (S2) */
	IFLA_DPILLAR_SEED,	/* u32, seed of derived coordinates (S2) */
	IFLA_DPILLAR_KEY6_PREFIX,	/* binary, 16 bytes: IPv6 /96 key prefix
					 * (S2, changeable; all zero: none)
					 */
	IFLA_DPILLAR_COORDS,	/* binary, 4..32 bytes: this node's
				 * coordinates, a native-endian u32 per
				 * space (S2 plan mode; absent: derived)
				 */
	IFLA_DPILLAR_FALLBACK,	/* u8 0/1, the discovery fallback
				 * (changeable; default 1): in force only
				 * in the topology's default routing mode,
				 * and never in S2's (its discovery is its
				 * own)
				 */
	IFLA_DPILLAR_NIC_OFFLOAD,	/* u8 0/1 (changeable; default 0):
					 * TCP super-packets and partial
					 * checksums handed whole to the ports
					 * whose NIC driver is qualified
					 * (DPILLAR_A_PORT_NIC_OFFLOAD)
					 */

	__IFLA_DPILLAR_MAX,
	IFLA_DPILLAR_MAX = __IFLA_DPILLAR_MAX - 1,
};

enum {
	IFLA_DPILLAR_PORT_UNSPEC,
	IFLA_DPILLAR_PORT,	/* u32, ifindex of the lower device; 0: none */

	__IFLA_DPILLAR_PORT_MAX,
	IFLA_DPILLAR_PORT_MAX = __IFLA_DPILLAR_PORT_MAX - 1,
};

/*
 * IFLA_INFO_SLAVE_DATA of a port, a lower device enslaved to a dpillar
 * device (IFLA_INFO_SLAVE_KIND "dpillar"; "ip -d link show PORT"):
 * read-only.
 */
enum {
	IFLA_DPILLAR_SLAVE_UNSPEC,
	IFLA_DPILLAR_SLAVE_PORT,	/* u32, its port number */
	IFLA_DPILLAR_SLAVE_STATE,	/* u32, enum dpillar_port_state */
	IFLA_DPILLAR_SLAVE_NEIGHS,	/* u32, neighbour slots of the port */
	IFLA_DPILLAR_SLAVE_REACHABLE,	/* u32, of them reachable now */

	__IFLA_DPILLAR_SLAVE_MAX,
	IFLA_DPILLAR_SLAVE_MAX = __IFLA_DPILLAR_SLAVE_MAX - 1,
};

/*
 * Generic netlink family "dpillar" (Documentation/netlink/specs/dpillar.yaml
 * describes it; a test keeps the two in sync).
 *
 * A device is named by DPILLAR_A_DEV_IFINDEX or DPILLAR_A_DEV_IFNAME in the
 * caller's network namespace.  DEV_GET dumps every dpillar device of the
 * namespace; NEIGH_GET dumps one message per neighbour slot (per port, as
 * many as the topology puts on that port, DPILLAR_A_PORT_NEIGHS: n-1 for
 * DPillar; plus a miswired sender of a port, kept while it is heard);
 * ROUTE_GET asks this server's routing for the next hop and the whole path
 * it predicts toward a destination; DEV_SET changes the Hello timers and the
 * address prefixes (CAP_NET_ADMIN in the user namespace owning the
 * device's network namespace, as changelink).  Group "events" carries NEIGH_NTF
 * (a neighbour became reachable or unreachable, or a miswired Hello was
 * heard) and PORT_NTF (a port's state changed).
 */
#define DPILLAR_FAMILY_NAME	"dpillar"
#define DPILLAR_FAMILY_VERSION	1
#define DPILLAR_MCGRP_EVENTS	"events"

enum dpillar_port_state {
	DPILLAR_PORT_STATE_UP = 1,	/* carrier and administratively up */
	DPILLAR_PORT_STATE_DOWN,	/* no carrier, or down */
	DPILLAR_PORT_STATE_ABSENT,	/* its device went away */
};

enum dpillar_neigh_state {
	DPILLAR_NEIGH_STATE_REACHABLE = 1,	/* Hello heard within dead */
	DPILLAR_NEIGH_STATE_UNREACHABLE,	/* never heard, or silent */
	DPILLAR_NEIGH_STATE_MISWIRED,	/* heard, but not cabled to this switch */
};

/*
 * Why a routing hop was taken: ROUTE_PHASE and HOP_PHASE carry the
 * topology's phase number.  DIRECT (1) means the same in every topology
 * (0 is "none"); the values from 2 on are DPillar's, listed here.  Another
 * topology numbers its own phases from 2, and dpctl names them by the
 * device's topology.
 */
enum dpillar_route_phase {
	DPILLAR_ROUTE_PHASE_DIRECT = 1,	/* destination shares a switch */
	DPILLAR_ROUTE_PHASE_HELIX,
	DPILLAR_ROUTE_PHASE_RING,
	DPILLAR_ROUTE_PHASE_TUNNEL,	/* detour toward a waypoint */
	DPILLAR_ROUTE_PHASE_UTURN,	/* helix direction changed */
	DPILLAR_ROUTE_PHASE_RING_REV,	/* ring direction reversed */
	DPILLAR_ROUTE_PHASE_SHORTEST,	/* one hop closer to the destination */
	DPILLAR_ROUTE_PHASE_WAYPOINT,	/* one hop closer to the waypoint */
	DPILLAR_ROUTE_PHASE_DETOUR,	/* stuck: a local detour */
	DPILLAR_ROUTE_PHASE_FAR_DETOUR,	/* stuck: toward a far waypoint */
};

/*
 * DPillar's routing modes (IFLA_DPILLAR_MODE, DPILLAR_A_DEV_MODE): exact
 * shortest paths with flow spreading (the default), or the paper's
 * SRoute/FTRoute with the shorter helix direction, or with the direction
 * fixed.  Each packet carries its mode; relays follow it.
 */
enum dpillar_mode {
	DPILLAR_MODE_SHORTEST = 0,
	DPILLAR_MODE_PAPER,
	DPILLAR_MODE_PAPER_CW,
	DPILLAR_MODE_PAPER_CCW,
};

/* DPillar's helix direction (ROUTE_DIR, sent for DPillar devices only). */
enum dpillar_route_dir {
	DPILLAR_ROUTE_DIR_CW = 1,	/* helix clockwise (D = +1) */
	DPILLAR_ROUTE_DIR_CCW,		/* D = -1 */
};

enum {
	DPILLAR_A_PORT_INDEX = 1,	/* u32: port number in the topology */
	DPILLAR_A_PORT_IFINDEX,		/* u32 */
	DPILLAR_A_PORT_IFNAME,		/* string */
	DPILLAR_A_PORT_STATE,		/* u32, enum dpillar_port_state */
	DPILLAR_A_PORT_SWITCH_COLUMN,	/* u32: level of its switch (DPillar:
					 * the switch column)
					 */
	DPILLAR_A_PORT_SWITCH_ID,	/* u32: switch id within that level */
	DPILLAR_A_PORT_NEIGHS,		/* u32: neighbours on this port: a
					 * switch's other members (DPillar
					 * n - 1), 1 for a cable, 0 unused
					 */
	DPILLAR_A_PORT_REACHABLE,	/* u32: of them, reachable now */
	DPILLAR_A_PORT_NIC_OFFLOAD,	/* u8: 1 when the port's NIC takes
					 * our TCP frames' offloads (its
					 * driver qualified and the device's
					 * NIC_OFFLOAD on), else 0
					 */

	__DPILLAR_A_PORT_MAX,
	DPILLAR_A_PORT_MAX = __DPILLAR_A_PORT_MAX - 1
};

/*
 * Counters of a device, u64 each: the events and drop reasons of
 * "ethtool -S", then the routing drops by reason.
 *
 * ROUTE_TUNNEL_HOPS, ROUTE_UTURNS and ROUTE_RING_REVERSALS are the
 * topology's detour slots 1..3, and ROUTE_DROP_BAD_ADDR .. ROUTE_DROP_NOPATH
 * its routing drop reasons 1..8; ROUTE_DETOURS and ROUTE_WAYPOINT_HOPS are
 * slots 4 and 5, ROUTE_DROP_DETOURS reason 9 (added with DPillar's
 * shortest mode, hence after the others).  The names are DPillar's; another
 * topology counts its own detours and reasons in the same attributes,
 * under its own names ("ethtool -S" shows them; dpctl names the drop
 * reasons by the device's topology).  A topology with more than 8
 * reasons shows the rest in "ethtool -S" only.
 */
enum {
	DPILLAR_A_STATS_PAD = 1,
	DPILLAR_A_STATS_RX_FRAMES,
	DPILLAR_A_STATS_DELIVERED,
	DPILLAR_A_STATS_FORWARDED,
	DPILLAR_A_STATS_TX,
	DPILLAR_A_STATS_HELLO_TX,
	DPILLAR_A_STATS_HELLO_RX,
	DPILLAR_A_STATS_DROP_SHORT,
	DPILLAR_A_STATS_DROP_VERSION,
	DPILLAR_A_STATS_DROP_TYPE,
	DPILLAR_A_STATS_DROP_ADDR,
	DPILLAR_A_STATS_DROP_TTL,
	DPILLAR_A_STATS_DROP_PROTO,
	DPILLAR_A_STATS_DROP_INNER,
	DPILLAR_A_STATS_DROP_DOWN,
	DPILLAR_A_STATS_DROP_NOROUTE,
	DPILLAR_A_STATS_DROP_NONEIGH,
	DPILLAR_A_STATS_DROP_MTU,
	DPILLAR_A_STATS_DROP_NOMEM,
	DPILLAR_A_STATS_DROP_OTHERHOST,
	DPILLAR_A_STATS_HELLO_MISWIRED,
	DPILLAR_A_STATS_HELLO_BAD,
	DPILLAR_A_STATS_TX_NOT_FABRIC,
	DPILLAR_A_STATS_TX_PROTO,
	DPILLAR_A_STATS_TX_NOROUTE,
	DPILLAR_A_STATS_ROUTE_TUNNEL_HOPS,
	DPILLAR_A_STATS_ROUTE_UTURNS,
	DPILLAR_A_STATS_ROUTE_RING_REVERSALS,
	DPILLAR_A_STATS_ROUTE_DROP_BAD_ADDR,
	DPILLAR_A_STATS_ROUTE_DROP_AT_DST,
	DPILLAR_A_STATS_ROUTE_DROP_RING,
	DPILLAR_A_STATS_ROUTE_DROP_UTURN,
	DPILLAR_A_STATS_ROUTE_DROP_HELIX,
	DPILLAR_A_STATS_ROUTE_DROP_TUNNEL,
	DPILLAR_A_STATS_ROUTE_DROP_BUDGET,
	DPILLAR_A_STATS_ROUTE_DROP_NOPATH,
	DPILLAR_A_STATS_ROUTE_DETOURS,		/* detour slot 4 */
	DPILLAR_A_STATS_ROUTE_WAYPOINT_HOPS,	/* detour slot 5 */
	DPILLAR_A_STATS_ROUTE_DROP_DETOURS,	/* routing drop reason 9 */
	DPILLAR_A_STATS_DROP_VLAN,	/* VLAN-tagged frame, no VLAN device */
	DPILLAR_A_STATS_HELLO_NOT_GROUP,	/* Hello not sent to the group */
	DPILLAR_A_STATS_HELLO_MAC_CHANGE,	/* live neighbour's MAC kept */
	DPILLAR_A_STATS_SHORTCUT_DISCOVER,	/* S2: discoveries started */
	DPILLAR_A_STATS_SHORTCUT_LEARNED,	/* S2: shortcuts learned */
	DPILLAR_A_STATS_SHORTCUT_BAD,	/* S2: discovery frame not taken */
	DPILLAR_A_STATS_SHORTCUT_LIMIT,	/* S2: over the rate limits */
	DPILLAR_A_STATS_COORDS_RESOLVE,	/* S2 plan: discoveries to resolve */
	DPILLAR_A_STATS_COORDS_LEARNED,	/* S2 plan: coordinates cached */
	DPILLAR_A_STATS_TX_RESOLVING,	/* S2 plan: dropped, coords unknown */
	DPILLAR_A_STATS_PROBE_REPLY_BAD,	/* probe reply for no probe of
						 * ours (late, forged stamp)
						 */
	DPILLAR_A_STATS_TX_COMPLETE_FAIL,	/* not segmented/checksummed
						 * in software before a NIC
						 */
	DPILLAR_A_STATS_SHORTCUT_NEIGH_LIMIT,	/* S2: over a neighbour's
						 * flood or discovery budget
						 */
	DPILLAR_A_STATS_SHORTCUT_REPLY_LIMIT,	/* S2: probe for us over its
						 * neighbour's reply budget
						 */
	DPILLAR_A_STATS_COORDS_EXPIRED,	/* S2 plan: cached coordinates
					 * forgotten for their age
					 */
	DPILLAR_A_STATS_TX_PORT_DROP,	/* handed to a port that did not
					 * take it (queue full, port down)
					 */
	DPILLAR_A_STATS_PROBE_LIMIT,	/* path probe not answered: the
					 * reply budget of its kind spent
					 */
	DPILLAR_A_STATS_SHORTCUT_DATA,	/* data frames the discovery
					 * fallback sent or relayed along a
					 * shortcut
					 */
	DPILLAR_A_STATS_SHORTCUT_DATA_LOST, /* SHORTCUT_DATA frame dropped:
					     * malformed, or neither a
					     * shortcut here nor the
					     * topology had a hop
					     */
	DPILLAR_A_STATS_HELLO_MAC_TAKEN,	/* Hello refused: its MAC has
						 * another live neighbour
						 * entry on that port
						 */
	DPILLAR_A_STATS_PROBE_SENDER_LIMIT,	/* path probe not answered:
						 * its sender's share of the
						 * reply budgets spent
						 */
	DPILLAR_A_STATS_TX_NIC_OFFLOAD,	/* TCP super-packets and partial
					 * checksums handed whole to a
					 * qualified NIC (NIC_OFFLOAD)
					 */

	__DPILLAR_A_STATS_MAX,
	DPILLAR_A_STATS_MAX = __DPILLAR_A_STATS_MAX - 1
};

enum {
	DPILLAR_A_DEV_IFINDEX = 1,	/* u32 */
	DPILLAR_A_DEV_IFNAME,		/* string */
	DPILLAR_A_DEV_TOPO,		/* u32, enum dpillar_topo */
	DPILLAR_A_DEV_N,		/* u32; absent if the topology has no n */
	DPILLAR_A_DEV_K,		/* u32; absent if the topology has no k */
	DPILLAR_A_DEV_NODES,		/* u32: servers in the fabric */
	DPILLAR_A_DEV_NODE_ID,		/* u32: this server */
	DPILLAR_A_DEV_ADDR,		/* string, the topology's text form
					 * (DPillar "C:v_{k-1}.....v_0")
					 */
	DPILLAR_A_DEV_HELLO_MS,		/* u32 */
	DPILLAR_A_DEV_DEAD_MS,		/* u32 */
	DPILLAR_A_DEV_IP4_PREFIX,	/* be32 */
	DPILLAR_A_DEV_IP4_PREFIXLEN,	/* u8 */
	DPILLAR_A_DEV_IP6_PREFIX,	/* binary, 16 bytes: the /96 prefix */
	DPILLAR_A_DEV_PORT,		/* nest, DPILLAR_A_PORT_*, one per port */
	DPILLAR_A_DEV_STATS,		/* nest, DPILLAR_A_STATS_* */
	DPILLAR_A_DEV_MODE,		/* u32: routing mode (IFLA_DPILLAR_MODE) */
	DPILLAR_A_DEV_LEVEL,		/* u32: top level i (XDCent); absent
					 * if the topology has none
					 */
	DPILLAR_A_DEV_SPACES,		/* u32: virtual spaces L (S2) */
	DPILLAR_A_DEV_SEED,		/* u32: coordinate seed (S2) */
	DPILLAR_A_DEV_KEY6_PREFIX,	/* binary, 16 bytes: /96 key prefix
					 * (S2); absent when none
					 */
	DPILLAR_A_DEV_COORDS,		/* binary, 4..32 bytes: this node's
					 * coordinates, a u32 per space (S2
					 * plan mode, IFLA_DPILLAR_COORDS);
					 * absent in derived mode
					 */
	DPILLAR_A_DEV_FALLBACK,		/* u8 0/1: the discovery fallback
					 * (IFLA_DPILLAR_FALLBACK)
					 */
	DPILLAR_A_DEV_NIC_OFFLOAD,	/* u8 0/1: NIC offloads on qualified
					 * ports (IFLA_DPILLAR_NIC_OFFLOAD)
					 */

	__DPILLAR_A_DEV_MAX,
	DPILLAR_A_DEV_MAX = __DPILLAR_A_DEV_MAX - 1
};

enum {
	DPILLAR_A_NEIGH_IFINDEX = 1,	/* u32: the dpillar device */
	DPILLAR_A_NEIGH_PORT,		/* u32: our port index */
	DPILLAR_A_NEIGH_NODE_ID,	/* u32 */
	DPILLAR_A_NEIGH_ADDR,		/* string */
	DPILLAR_A_NEIGH_MAC,		/* binary, 6 bytes; absent: never heard */
	DPILLAR_A_NEIGH_STATE,		/* u32, enum dpillar_neigh_state */
	DPILLAR_A_NEIGH_LAST_HEARD_MS,	/* u32: ms since its last Hello */
	DPILLAR_A_NEIGH_PEER_PORT,	/* u32: its port it sent from */
	DPILLAR_A_NEIGH_MISWIRED_COUNT,	/* u32: miswired Hellos heard on the
					 * port since it last had none for the
					 * dead interval (MISWIRED entries)
					 */
	DPILLAR_A_NEIGH_REJECTED_MAC,	/* binary, 6 bytes: NEIGH_NTF of a
					 * live neighbour, a Hello from this
					 * other MAC was ignored
					 */

	__DPILLAR_A_NEIGH_MAX,
	DPILLAR_A_NEIGH_MAX = __DPILLAR_A_NEIGH_MAX - 1
};

enum {
	DPILLAR_A_HOP_NODE_ID = 1,	/* u32: the server reached */
	DPILLAR_A_HOP_ADDR,		/* string */
	DPILLAR_A_HOP_PORT,		/* u32: port it was reached through */
	DPILLAR_A_HOP_PHASE,		/* u32: the topology's phase number
					 * (enum dpillar_route_phase: DPillar)
					 */

	__DPILLAR_A_HOP_MAX,
	DPILLAR_A_HOP_MAX = __DPILLAR_A_HOP_MAX - 1
};

/*
 * ROUTE_GET takes the device and exactly one of DST (node id), DST_IP4 or
 * DST_IP6 (mapped with the device's prefixes, as for a sent packet).  The
 * reply names the first hop (NEXT, PORT, PHASE, DIR for DPillar, NEXT_MAC)
 * as this server's routing would take it now, and the whole path: this
 * server's live neighbour table for the first hop, a failure-free fabric
 * beyond.
 */
enum {
	DPILLAR_A_ROUTE_IFINDEX = 1,	/* u32 */
	DPILLAR_A_ROUTE_IFNAME,		/* string */
	DPILLAR_A_ROUTE_DST,		/* u32 node id */
	DPILLAR_A_ROUTE_DST_IP4,	/* be32 */
	DPILLAR_A_ROUTE_DST_IP6,	/* binary, 16 bytes */
	DPILLAR_A_ROUTE_DST_ADDR,	/* string (reply) */
	DPILLAR_A_ROUTE_NEXT,		/* u32 node id of the first hop */
	DPILLAR_A_ROUTE_NEXT_ADDR,	/* string */
	DPILLAR_A_ROUTE_NEXT_MAC,	/* binary, 6 bytes */
	DPILLAR_A_ROUTE_PORT,		/* u32: our port toward it */
	DPILLAR_A_ROUTE_PHASE,		/* u32: the topology's phase number
					 * (enum dpillar_route_phase: DPillar)
					 */
	DPILLAR_A_ROUTE_DIR,		/* u32, enum dpillar_route_dir;
					 * DPillar only
					 */
	DPILLAR_A_ROUTE_HOPS,		/* u32: length of the path */
	DPILLAR_A_ROUTE_HOP,		/* nest, DPILLAR_A_HOP_*, in order */
	DPILLAR_A_ROUTE_MODE,		/* u32: the device's routing mode */
	DPILLAR_A_ROUTE_HASH,		/* u32: the flow hash to route (request,
					 * optional, default 0; echoed)
					 */
	DPILLAR_A_ROUTE_CHOICE,		/* u32 node id, one per equal-cost
					 * first hop the flow hash picks from
					 * (shortest mode)
					 */
	DPILLAR_A_ROUTE_PROBE,		/* nest of PROBE attributes, one per
					 * probe of ROUTE_TRACE, in TTL order
					 */
	DPILLAR_A_ROUTE_TIMEOUT_MS,	/* u32: ROUTE_TRACE's wait for each
					 * reply (request, default 1000);
					 * ROUTE_GET's and ROUTE_TRACE's
					 * for a resolution (S2 plan mode,
					 * default 2000)
					 */

	DPILLAR_A_ROUTE_SHORTCUT,	/* u32 (reply): the topology gives
					 * up here and the discovery
					 * fallback carries the packet along
					 * this server's shortcut of that
					 * many hops: next is its first hop
					 */
	DPILLAR_A_ROUTE_NODE_PORTS,	/* u32 (ROUTE_NEIGHS reply): the
					 * destination's ports
					 */
	DPILLAR_A_ROUTE_NODE_PORTS_UP,	/* u32 (ROUTE_NEIGHS reply): bit p,
					 * its port p bound with carrier
					 */
	DPILLAR_A_ROUTE_NEIGH,		/* nest of NEIGH attributes (PORT,
					 * NODE_ID, ADDR, STATE, PEER_PORT),
					 * one per neighbour the destination
					 * hears (ROUTE_NEIGHS reply)
					 */
	DPILLAR_A_ROUTE_NEIGHS_TRUNC,	/* flag (ROUTE_NEIGHS reply): the
					 * destination had more entries than
					 * a reply carries
					 */
	__DPILLAR_A_ROUTE_MAX,
	DPILLAR_A_ROUTE_MAX = __DPILLAR_A_ROUTE_MAX - 1
};

/*
 * What answered a path probe: the status of a PROBE_REPLY frame
 * (<linux/dpillar_packet.h>) and of PROBE_STATUS.
 */
enum dpillar_probe_status {
	DPILLAR_PROBE_STATUS_REACHED = 1,	/* the destination answered */
	DPILLAR_PROBE_STATUS_TTL,		/* the TTL ran out at the reporter */
	DPILLAR_PROBE_STATUS_NOROUTE,		/* the reporter found no next hop */
	DPILLAR_PROBE_STATUS_NONEIGH,		/* next hop chosen, its MAC unknown */
	DPILLAR_PROBE_STATUS_TIMEOUT,		/* no reply came (never on the wire) */
};

/*
 * One probe of ROUTE_TRACE: sent with TTL, answered by REPORTER with
 * STATUS (enum dpillar_probe_status), REASON (routing drop reason of a
 * NOROUTE reply, ethtool -S route_* order from 1) after RTT_US
 * microseconds.  A TIMEOUT has TTL and STATUS only.  One probe of
 * ROUTE_PROBE: candidate PATH of path selection, sent with the full TTL;
 * the reply also says how many HOPS it took and how many servers routed it
 * around a failure (DETOURS), and FAILED what path selection holds of the
 * path now.  DETOURS is absent where the count is unknown: in S2 plan mode
 * no server can compute the failure-free route to compare with.
 */

enum {
	DPILLAR_A_PROBE_TTL = 1,	/* u32 */
	DPILLAR_A_PROBE_STATUS,		/* u32 */
	DPILLAR_A_PROBE_REPORTER,	/* u32 node id (absent: timeout) */
	DPILLAR_A_PROBE_REPORTER_ADDR,	/* string */
	DPILLAR_A_PROBE_REASON,		/* u32 */
	DPILLAR_A_PROBE_RTT_US,		/* u32 */
	DPILLAR_A_PROBE_PATH,		/* u32: ROUTE_PROBE's candidate path */
	DPILLAR_A_PROBE_HOPS,		/* u32: hops to the reporter */
	DPILLAR_A_PROBE_DETOURS,	/* u32: servers that took a detour
					 * (absent: unknown, S2 plan mode)
					 */
	DPILLAR_A_PROBE_FAILED,		/* u32 0/1: path selection avoids the
					 * path now (absent: the destination
					 * is not followed)
					 */

	__DPILLAR_A_PROBE_MAX,
	DPILLAR_A_PROBE_MAX = __DPILLAR_A_PROBE_MAX - 1
};

/*
 * SHORTCUT_GET (dump): S2's shortcut table, one message per destination a
 * shortcut is known or being discovered for.  The request may name one
 * device (IFINDEX).  HOPS 0 and no PORT/NEXT: a discovery waits for its
 * reply.
 */
enum {
	DPILLAR_A_SHORTCUT_IFINDEX = 1,	/* u32: the dpillar device */
	DPILLAR_A_SHORTCUT_DST,		/* u32: destination node id */
	DPILLAR_A_SHORTCUT_DST_ADDR,	/* string, the topology's text form */
	DPILLAR_A_SHORTCUT_PORT,	/* u32: our port toward NEXT */
	DPILLAR_A_SHORTCUT_NEXT,	/* u32: next hop node id */
	DPILLAR_A_SHORTCUT_HOPS,	/* u32: hops to DST along it */
	DPILLAR_A_SHORTCUT_ORIGIN,	/* flag: discovered by this server */
	DPILLAR_A_SHORTCUT_AGE_MS,	/* u32: since learned (or asked) */
	DPILLAR_A_SHORTCUT_IDLE_MS,	/* u32: since last used */

	__DPILLAR_A_SHORTCUT_MAX,
	DPILLAR_A_SHORTCUT_MAX = __DPILLAR_A_SHORTCUT_MAX - 1
};

enum {
	DPILLAR_CMD_DEV_GET = 1,
	DPILLAR_CMD_DEV_SET,
	DPILLAR_CMD_NEIGH_GET,
	DPILLAR_CMD_ROUTE_GET,
	DPILLAR_CMD_NEIGH_NTF,		/* NEIGH attributes */
	DPILLAR_CMD_PORT_NTF,		/* DEV_IFINDEX, DEV_IFNAME, DEV_PORT */
	DPILLAR_CMD_ROUTE_TRACE,	/* ROUTE attributes: probes a path */
	DPILLAR_CMD_ROUTE_PROBE,	/* ROUTE attributes: probes each
					 * candidate path
					 */
	DPILLAR_CMD_SHORTCUT_GET,	/* SHORTCUT attributes (dump) */
	DPILLAR_CMD_ROUTE_NEIGHS,	/* ROUTE attributes: one probe asks
					 * the destination for its neighbour
					 * table (this server's own: no probe)
					 */

	__DPILLAR_CMD_MAX,
	DPILLAR_CMD_MAX = __DPILLAR_CMD_MAX - 1
};

#endif /* _UAPI_LINUX_DPILLAR_H */
