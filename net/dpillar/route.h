/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One hop of a frame (route.c): the topology's decision turned into a
 * neighbour and a port and sent, or the reason it cannot go on (enum
 * dp_out, dpillar_types.h), which a caller maps to its own direction's
 * counter (dp_out_stat()).
 */
#ifndef _DPILLAR_ROUTE_H
#define _DPILLAR_ROUTE_H

#include "dpillar.h"

/*
 * The drop counter of a frame dp_route_out() did not send: @noroute is the
 * caller's for a frame routing gave up on (tx_noroute for dp0's packets,
 * drop_noroute for relayed frames).
 */
static inline enum dp_stat dp_out_stat(enum dp_out out, enum dp_stat noroute)
{
	switch (out) {
	case DP_OUT_NONEIGH:
		return DP_STAT_DROP_NONEIGH;
	case DP_OUT_MTU:
		return DP_STAT_DROP_MTU;
	default:
		return noroute;
	}
}

/* route.c */
enum dp_out dp_route_out(struct dp_priv *dp, struct sk_buff *skb,
			 struct dp_route_state *st);
int dp_route_hop(struct dp_priv *dp, struct dp_route_state *st,
		 struct dp_vctx *c, struct dp_hop *hop);
void dp_rmemo_flush(struct dp_priv *dp);

#endif /* _DPILLAR_ROUTE_H */
