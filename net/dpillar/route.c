// SPDX-License-Identifier: GPL-2.0
/*
 * One hop of a frame: the topology's decision (topo.c), turned into a
 * neighbour's MAC address and a port, or into the reason it cannot go on.
 *
 * Between the files that receive and originate frames (fwd.c, probe.c)
 * and the bottom layer that writes and sends them (frame.c).  Its result
 * is its own type, enum dp_out: a caller maps a failure to the counter of
 * its direction with dp_out_stat().
 */

#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include "dpillar.h"

/* Why routing gave up, on top of the drop itself. */
static void dp_count_route_reason(struct dp_priv *dp, u8 reason)
{
	struct dp_pcpu_stats *s;

	if (reason >= DP_DROP_MAX)
		return;
	s = get_cpu_ptr(dp->stats);
	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->route[reason]);
	u64_stats_update_end(&s->syncp);
	put_cpu_ptr(dp->stats);
}

/**
 * dp_route_out - route a frame one hop and send it
 * @dp: the device
 * @skb: the frame, its dpillar header at skb->data; the routing fields
 *       are written from @st
 * @st: the routing state it leaves with
 *
 * The one routing decision of every frame a node sends or relays (data,
 * probes).  When the topology gives up at what it calls a local minimum
 * (dp_topo_ops.discover_drop), a shortcut discovery starts toward the
 * destination (shortcut.c), from the budget of the port the frame came
 * in by: the frame itself is still dropped.  A topology without one has
 * the discovery fallback instead (dp_sc_fallback()): a data frame it
 * gives up on goes on along a shortcut when this node knows one, and
 * starts a discovery when not.
 *
 * Return: DP_OUT_SENT (the skb is gone), else what happened instead
 * (enum dp_out; the skb is still the caller's).
 */
enum dp_out dp_route_out(struct dp_priv *dp, struct sk_buff *skb,
			 struct dp_route_state *st)
{
	struct dp_view_memo memo = { .valid = false };
	struct dp_vctx c = { .dp = dp, .memo = &memo };
	struct dp_view v = dp->view;
	const struct dpillar_hdr *h;
	struct dp_neigh *nb;
	struct dp_port *port;
	struct dp_hop hop;
	u64 mac, in_mac;
	u32 in_port;
	u8 detour;

	/* This packet's view: the device's, with a memo (struct dp_vctx). */
	v.ctx = &c;
	if (dp_route(&dp->topo, dp->self, st, &v, &hop)) {
		h = (const struct dpillar_hdr *)skb->data;
		if (hop.reason == DP_DROP_ROUTE_AT_DST &&
		    h->type == DPILLAR_T_DATA &&
		    dp_dst_is_key(&dp->topo, st->flags))
			return DP_OUT_HOME;
		dp_count_route_reason(dp, hop.reason);
		if (hop.reason && hop.reason == dp->topo.ops->discover_drop) {
			in_port = dp_sc_in_port(dp, skb, &in_mac);
			dp_sc_discover(dp, st->dst, in_port, in_mac);
		/* Any reason of the topology's: not bad_addr or at_dst. */
		} else if (hop.reason >= DP_DROP_TOPO &&
			   h->type == DPILLAR_T_DATA &&
			   !dp_dst_is_key(&dp->topo, st->flags) &&
			   dp_sc_fallback(dp)) {
			return dp_sc_data_out(dp, skb, st->dst);
		}
		return DP_OUT_NOROUTE;
	}
	/* Every hop of a detour around a failure is counted (topo.h). */
	detour = dp_phase_detour(&dp->topo, hop.phase);
	if (detour)
		dp_count(dp, DP_STAT_DETOUR1 + detour - 1);
	nb = dp_vctx_find(&c, dp->self, hop.port, hop.next, &port);
	mac = nb ? atomic64_read(&nb->mac) : 0;
	if (!mac)
		return DP_OUT_NONEIGH;
	if (!dp_fits_mtu(skb, port->dev->mtu))
		return DP_OUT_MTU;
	dp_hdr_set_state(skb, st);
	dp_send_on(port, skb, mac);
	return DP_OUT_SENT;
}
