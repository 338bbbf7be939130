/* SPDX-License-Identifier: GPL-2.0 */
/* dpctl: neighbour entries, as NEIGH_GET and NEIGH_NTF carry them. */
#ifndef DPCTL_NEIGH_H
#define DPCTL_NEIGH_H

#include <stdbool.h>
#include <net/if.h>

#include "topo.h"

struct dp_neigh {
	char dev[IF_NAMESIZE];
	u32 ifindex, port, node_id, state, last_heard_ms, peer_port;
	bool has_mac, has_heard, has_peer_port;
	char addr[DP_ADDR_TEXT_MAX];
	char mac[18];
};

struct nlmsghdr;

void neigh_parse(const struct nlmsghdr *nlh, struct dp_neigh *n);
const char *neigh_state_name(u32 state);
/* The members of a JSON object for @n (the caller opens and closes it). */
void neigh_json(const struct dp_neigh *n);

#endif
