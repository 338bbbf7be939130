/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fabric arithmetic that needs no kernel: IP addresses <-> node ids, the
 * destinations users type, and the device settings.
 */
#ifndef DPCTL_FABRIC_H
#define DPCTL_FABRIC_H

#include <netinet/in.h>
#include <arpa/inet.h>
#include <libmnl/libmnl.h>

#include "topo.h"
#include "dp_linkargs.h"

/* The fabric's IP prefixes (the module's defaults until told otherwise). */
struct fabric_pfx {
	struct in_addr ip4;
	unsigned int ip4_len;
	struct in6_addr ip6;	/* a /96 */
	struct in6_addr key6;	/* a /96 of key addresses (S2); :: none */
};

void fabric_pfx_default(struct fabric_pfx *p);
/* "10.0.0.0/8", "fd64:7069:6c6c:6172::/96" */
void fabric_pfx_text(const struct fabric_pfx *p, char *ip4,
		     char *ip6);
/*
 * Node @id inside the prefixes.  fabric_ip4() returns false (and leaves
 * @buf alone) when the id does not fit the IPv4 host part.
 */
bool fabric_ip4(const struct fabric_pfx *p, u32 id, char *buf);
void fabric_ip6(const struct fabric_pfx *p, u32 id, char *buf);
/* The key prefix "PFX/96" and the key address of key id @kid under it. */
void fabric_key6_text(const struct fabric_pfx *p, char *buf);
void fabric_key6(const struct fabric_pfx *p, u32 kid, char *buf);

#define FABRIC_IP4_TEXT (INET_ADDRSTRLEN + 4)
#define FABRIC_IP6_TEXT (INET6_ADDRSTRLEN + 4)

/*
 * A destination as typed: fabric address (the topology's text form or
 * "#<node id>"), node id, IPv4 or IPv6.
 */
struct dest {
	enum { DEST_ADDR, DEST_ID, DEST_IP4, DEST_IP6 } kind;
	u32 id;			/* DEST_ID */
	const char *text;	/* DEST_ADDR: parsed once the fabric is known */
	struct in_addr ip4;
	struct in6_addr ip6;
};

/*
 * Returns 0, or EXIT_USAGE after saying what is wrong with @text (which
 * must outlive @d).  Before the fabric is known only the syntax is
 * checked.
 */
int dest_parse(const char *text, struct dest *d);
/*
 * The node id of @d in fabric @t with prefixes @p; EXIT_USAGE (after a
 * message) when it is not a node of the fabric.
 */
int dest_node(const struct dest *d, const struct dp_topo *t,
	      const struct fabric_pfx *p, const char *text, u32 *id);

/*
 * Coordinates as an attribute's payload (native-endian u32s, as the kernel
 * reports them) into @x; returns how many, 0 when absent or malformed.
 */
unsigned int coords_get(const struct nlattr *attr, unsigned int *x);
/* "derived" or "plan C0,C1,...": the mode of an S2 node, for show. */
void coords_text(const unsigned int *x, unsigned int n, char *buf,
		 size_t len);
/* The JSON "coords" array of a plan-mode node (nothing when derived). */
void coords_json(const unsigned int *x, unsigned int n);
/*
 * The fabric's parameters as dp_params_show() gives them, in JSON; a
 * topology with coordinates also says "coords_mode", plan or derived.
 */
void params_json(const struct dp_topo_ops *ops,
		 const struct dp_topo_params *p);

/*
 * Device @dev's prefixes and node id, and (when @ports) the ifindex of each
 * port (0: detached).  EXIT_OK, else EXIT_KERNEL after a message.
 */
int link_fabric(const char *dev, struct fabric_pfx *pfx, u32 *id,
		unsigned int *ports, unsigned int *nports);

#endif
