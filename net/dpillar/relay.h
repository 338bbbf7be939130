/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The relay of a frame for another server, whatever its type: struct
 * dp_relay_ops and dp_relay(), compiled into each file that receives a
 * type it relays (rx.c, shortcut.c, probe.c).
 */
#ifndef _DPILLAR_RELAY_H
#define _DPILLAR_RELAY_H

#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include "dpillar.h"
#include "hdr.h"
#include "route.h"
#include "send.h"

/*
 * A relay: what every frame from a port for another server goes through,
 * whatever its type (DATA, PROBE and PROBE_REPLY, SHORTCUT_DATA), in one
 * place: the type's checks (@check, @rx) and its routing state
 * (dp_hdr_state()), a private header (skb_cow_head()), the TTL
 * (dp_ttl_relay(), renewal included), nothing of its way in
 * (dp_relay_scrub()), the next hop (@hop, the type's part, then the
 * topology's: dp_route_out()) and the counters (forwarded, or the reason
 * of its drop, which dp_relay() returns to the receive handler, as every
 * type's receive path does, and the handler makes).  A frame type differs
 * only in its struct dp_relay_ops, a constant that dp_relay(), always
 * inline, is compiled with where the type is received (rx.c for DATA,
 * shortcut.c for SHORTCUT_DATA, probe.c for probes): its callbacks are
 * direct calls or inline, no frame pays for another type's (make bench;
 * out of line, the compiler keeps one copy whose callbacks are indirect
 * calls, retpolines: dpillar-evaluation.rst, "Each __always_inline of
 * the hit path, one by one"),
 * and a probe goes from rx.c to probe.c to route.c, as it did before the
 * relay was one.
 */
struct dp_relay_ops {
	/*
	 * Optional, before anything is read or written: the type's checks
	 * of its header.  DP_STAT_FORWARDED: go on; else the counter of its
	 * drop, which dp_relay() returns (a relayed frame's one drop).
	 */
	enum dp_stat (*check)(struct dp_priv *dp, struct sk_buff *skb);
	/*
	 * Optional, its routing state @st read (dp_hdr_state(), which
	 * returned @ext, 0 or more: a malformed block of coordinates is
	 * every type's drop_short): the type's checks of both.
	 * DP_STAT_FORWARDED: relay it on; DP_STAT_MAX: taken here
	 * (answered, consumed); else the counter of its drop, as @check's.
	 */
	enum dp_stat (*rx)(struct dp_priv *dp, struct sk_buff *skb,
			   struct dp_route_state *st, int ext, void *ctx);
	/*
	 * Optional: the TTL ran out.  True: consumed (a probe is answered);
	 * false, or none: dropped, drop_ttl.
	 */
	bool (*ttl_out)(struct dp_priv *dp, struct sk_buff *skb, void *ctx);
	/*
	 * Optional: the type's own part of the next hop, before the
	 * topology's.  DP_OUT_ROUTE: the topology routes it (dp_route_out(),
	 * as every frame without this hook); else as dp_route_out()'s: sent
	 * (DP_OUT_SENT, the skb is gone) or why not (the skb is still the
	 * relay's, dropped for dp_out_stat(out, @noroute)).
	 */
	enum dp_out (*hop)(struct dp_priv *dp, struct sk_buff *skb,
			   struct dp_route_state *st, void *ctx);
	/* Optional: after such a drop (a probe is answered). */
	void (*lost)(struct dp_priv *dp, enum dp_out out, void *ctx);
	/*
	 * DP_OUT_HOME (a key frame whose home is here) is delivered by the
	 * caller (DP_STAT_DELIVERED); without @home, a drop, @noroute.
	 */
	bool home;
	/* The drop counter of a frame routing gave up on. */
	enum dp_stat noroute;
};

/*
 * A relayed frame leaves with nothing of its way in, as IP forwarding and
 * the bridge do: no receive timestamp (with any socket asking for
 * timestamps, e.g. chrony's, every received skb has one; an fq qdisc on
 * the way out reads it as a departure time, a realtime stamp far past its
 * horizon, and drops the frame), no mark and no priority of the receiving
 * host's, and no CHECKSUM_COMPLETE of a frame whose header the hop
 * rewrites (skb_forward_csum()).  dp_relay() only; this node's own frames
 * keep their socket's.
 */
static inline void dp_relay_scrub(struct sk_buff *skb)
{
	skb_forward_csum(skb);
	skb_set_delivery_time(skb, 0, 0);
	skb->mark = 0;
	skb->priority = 0;
}

/**
 * dp_relay - the one relay of every frame type (softirq, RCU)
 * @dp: the device
 * @skb: the frame from a port, its header at skb->data, addresses checked
 * @ops: its type's (struct dp_relay_ops), a constant
 * @ctx: the type's hooks' context
 *
 * Return: the receive paths' verdict, which the receive handler acts on
 * (dp_handle_frame(), its one drop): DP_STAT_MAX when the frame was
 * taken (relayed, or consumed by a hook); DP_STAT_DELIVERED when it is
 * to be delivered here (@ops->home: a key frame whose home is here);
 * else the counter of its drop, the skb still the caller's.
 */
static __always_inline enum dp_stat
dp_relay(struct dp_priv *dp, struct sk_buff *skb,
	 const struct dp_relay_ops *ops, void *ctx)
{
	/*
	 * Filled by dp_hdr_state() before any use, its coordinates up to
	 * ncoords, the only ones read: not zeroed first, as the kernels
	 * built with CONFIG_INIT_STACK_ALL_ZERO (Debian's) do to every
	 * local, by a rep stos of its 44 bytes per frame.
	 */
	struct dp_route_state st __uninitialized;
	struct dpillar_hdr *h;
	enum dp_stat why;
	enum dp_out out;
	int ext;

	why = ops->check ? ops->check(dp, skb) : DP_STAT_FORWARDED;
	if (unlikely(why != DP_STAT_FORWARDED))
		return why;
	/* The one reading of its header into routing state, every type's. */
	ext = dp_hdr_state(&dp->topo, skb, &st);
	if (unlikely(ext < 0))
		return DP_STAT_DROP_SHORT;
	why = ops->rx ? ops->rx(dp, skb, &st, ext, ctx) : DP_STAT_FORWARDED;
	if (unlikely(why != DP_STAT_FORWARDED))
		return why;	/* taken (DP_STAT_MAX), or dropped */
	/* Our copy of the header is about to change: make it private. */
	if (skb_cow_head(skb, ETH_HLEN))
		return DP_STAT_DROP_NOMEM;
	h = (struct dpillar_hdr *)skb->data;
	/*
	 * TTL 1 or 0 is dropped, unless the topology renews it from a
	 * budget in its own header bits (S2 above 255 nodes: topo_s2.c);
	 * the renewed state goes out with the hop (dp_route_out()).
	 * Counted, not logged: any neighbour can send TTL 1, and a message
	 * per frame says nothing drop_ttl does not.
	 */
	if (!dp_ttl_relay(&dp->topo, &st, &h->ttl)) {
		if (ops->ttl_out && ops->ttl_out(dp, skb, ctx))
			return DP_STAT_MAX;
		return DP_STAT_DROP_TTL;
	}
	dp_relay_scrub(skb);
	out = ops->hop ? ops->hop(dp, skb, &st, ctx) : DP_OUT_ROUTE;
	/*
	 * The topology's next hop, sent: DP_OUT_SENT (the skb is gone),
	 * DP_OUT_HOME (a key frame whose home is here: the caller delivers
	 * it), else why not (the skb is still the relay's).
	 */
	if (out == DP_OUT_ROUTE)
		out = dp_route_out(dp, skb, &st);
	if (likely(out == DP_OUT_SENT)) {
		dp_count(dp, DP_STAT_FORWARDED);
		return DP_STAT_MAX;
	}
	if (ops->home && out == DP_OUT_HOME)
		return DP_STAT_DELIVERED;
	/* Answered before the caller drops it (a probe's answer is new). */
	if (ops->lost)
		ops->lost(dp, out, ctx);
	return dp_out_stat(out, ops->noroute);
}

#endif /* _DPILLAR_RELAY_H */
