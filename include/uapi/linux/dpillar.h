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

#define DPILLAR_GENL_NAME	"dpillar"

/* Topology of a fabric (IFLA_DPILLAR_TOPO). */
enum dpillar_topo {
	DPILLAR_TOPO_UNSPEC,
	DPILLAR_TOPO_DPILLAR,	/* DPillar (n, k): 2 ports per server */

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
#define DPILLAR_PORTS_MAX	8	/* most ports of any topology */

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
 * A server's DPillar address is (column C, label v_{k-1} ... v_0), written
 * "C:v_{k-1}.....v_0".  IFLA_DPILLAR_LABEL carries the symbols as one byte
 * each, v_0 first, so its length is k.
 *
 * Destination IP to node id is stateless: an IPv4 address inside
 * IFLA_DPILLAR_IP4_PREFIX/IFLA_DPILLAR_IP4_PREFIXLEN has the node id as its
 * host part (default 10.0.0.0/8), an IPv6 address inside the /96
 * IFLA_DPILLAR_IP6_PREFIX has it as its low 32 bits (default
 * fd64:7069:6c6c:6172::/96, "dpillar" in ASCII).
 *
 * IFLA_DPILLAR_PORTS nests one IFLA_DPILLAR_PORT (u32 ifindex) per port, in
 * port order.  A DPillar server has exactly two ports: port 0 plugs into a
 * switch of column S_C, port 1 into a switch of column S_{C-1}.
 */
enum {
	IFLA_DPILLAR_UNSPEC,
	IFLA_DPILLAR_TOPO,	/* u32, enum dpillar_topo; default DPILLAR */
	IFLA_DPILLAR_N,		/* u32, switch port count n */
	IFLA_DPILLAR_K,		/* u32, number of columns k */
	IFLA_DPILLAR_COLUMN,	/* u32, this server's column */
	IFLA_DPILLAR_LABEL,	/* binary, u8 symbols v_0 .. v_{k-1} */
	IFLA_DPILLAR_PORTS,	/* nested, IFLA_DPILLAR_PORT list */
	IFLA_DPILLAR_NODE_ID,	/* u32, read-only: this server's node id */
	IFLA_DPILLAR_NODES,	/* u32, read-only: servers in the fabric */
	IFLA_DPILLAR_HELLO_MS,	/* u32, Hello interval (changeable) */
	IFLA_DPILLAR_DEAD_MS,	/* u32, neighbour dead interval (changeable) */
	IFLA_DPILLAR_IP4_PREFIX,	/* be32, IPv4 prefix of the fabric */
	IFLA_DPILLAR_IP4_PREFIXLEN,	/* u8, its length */
	IFLA_DPILLAR_IP6_PREFIX,	/* binary, 16 bytes: IPv6 /96 prefix */

	__IFLA_DPILLAR_MAX,
	IFLA_DPILLAR_MAX = __IFLA_DPILLAR_MAX - 1,
};

enum {
	IFLA_DPILLAR_PORT_UNSPEC,
	IFLA_DPILLAR_PORT,	/* u32, ifindex of the lower device */

	__IFLA_DPILLAR_PORT_MAX,
	IFLA_DPILLAR_PORT_MAX = __IFLA_DPILLAR_PORT_MAX - 1,
};

#endif /* _UAPI_LINUX_DPILLAR_H */
