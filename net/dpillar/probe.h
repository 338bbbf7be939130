/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Path probes (DPILLAR_T_PROBE, DPILLAR_T_PROBE_REPLY): a frame routed
 * exactly like data, answered by the server where its TTL runs out, by
 * the one that cannot route it and by its destination.  ROUTE_TRACE
 * (dpctl route trace) and in-kernel users (path selection) send them.
 *
 * Probe ids: those with DPILLAR_PROBE_ID_KERNEL set belong to the
 * in-kernel user, whose replies go to the handler it set in
 * dp_probes.kernel_reply (path selection's, pathsel.c: probe.c calls
 * nothing of the files that use it); the others to the waiting
 * requests of dp_probe_roundtrip(), at most DP_PROBE_SLOTS per device
 * at a time (no allocation per request).
 */
#ifndef _DPILLAR_PROBE_H
#define _DPILLAR_PROBE_H

#include <linux/completion.h>
#include <linux/netdevice.h>
#include <linux/ratelimit.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/dpillar_packet.h>

#include "topo.h"

#define DP_PROBE_SLOTS		16
/*
 * Replies a server sends per second at most, in two budgets.  Path
 * selection's (full-TTL probes with DPILLAR_PROBE_ID_KERNEL ids) come in
 * from every source that sends to this server: each probes each of its
 * candidates (DP_PATHS_MAX at most; XDCent/BCube: k + 1) once per dead
 * interval.  16 sources x 4 candidates every 300 ms (the default) are 214
 * a second: DP_PROBE_PATHSEL_BURST leaves a margin of 4.8 (or room for 64
 * such sources at 3.3 rounds a second).  Everything else (the probes
 * users ask for with route trace and route probe, TTL expiries, any
 * probe a neighbour makes up with another id or TTL) shares
 * DP_PROBE_REPLY_BURST and cannot starve path selection, nor the other
 * way round.  A reply with the neighbour table (DPILLAR_PROBE_F_NEIGHS,
 * about 1 KB where a plain reply is some 70 bytes) also spends one of
 * DP_PROBE_NEIGHS_BURST: a probe forged with another server's source
 * makes this one send at most some 20 KB a second toward it, as plain
 * replies do (200 of them), where the table alone would let it send 15
 * times that.  A sweep (dpctl fabric) asks each server once.
 */
#define DP_PROBE_REPLY_BURST	200
#define DP_PROBE_PATHSEL_BURST	1024
#define DP_PROBE_NEIGHS_BURST	20
/*
 * Each sender's share of DP_PROBE_REPLY_BURST and of DP_PROBE_NEIGHS_BURST
 * (a quarter), a second: a sender being the probe's source node id on the
 * port it came in by.  One neighbour flooding requests gets its share and
 * leaves the rest of each budget to the others (dpctl fabric asks each
 * server once a sweep, route trace once a hop).  The senders' token
 * buckets are DP_PROBE_SENDERS slots of a table hashed by (source, port)
 * with a seed of the device's; a slot taken by another sender that was
 * heard within the last second is not taken over: that request is held to
 * the device's budgets alone.  Path selection's probes (its own budget,
 * DP_PROBE_PATHSEL_BURST, whose fan-in is every source's) have no share,
 * unless they ask for a table.
 */
#define DP_PROBE_SENDER_BURST	(DP_PROBE_REPLY_BURST / 4)
#define DP_PROBE_SENDER_NEIGHS	(DP_PROBE_NEIGHS_BURST / 4)
#define DP_PROBE_SENDERS	64

struct dp_priv;

/**
 * struct dp_probe_result - one answered probe
 * @reporter: node id of the server that answered
 * @status: enum dpillar_probe_status
 * @reason: the topology's routing drop reason of a NOROUTE answer
 * @hops: the hops the probe took to the reporter
 * @detours: relays that routed it around a failure
 * @detours_unknown: @detours means nothing: no server could compute the
 *	failure-free route to compare with (S2 plan mode)
 * @rtt_ns: from sending the probe to receiving the reply
 */
struct dp_probe_result {
	u32 reporter;
	u8 status;
	u8 reason;
	u8 hops;
	u8 detours;
	bool detours_unknown;
	u64 rtt_ns;
};

/**
 * struct dp_probe_neighs - a server's neighbour table as a reply carries it
 * @ports_up: bit p, its port p is bound and has carrier
 * @nports: its ports
 * @count: entries of @n
 * @trunc: it had more than DPILLAR_PROBE_NEIGHS_MAX
 * @valid: the reply carried a table (a server that does not know
 *	DPILLAR_PROBE_F_NEIGHS answers without one)
 * @n: the entries, as struct dpillar_probe_neigh says, host order
 */
struct dp_probe_neighs {
	u32 ports_up;
	u8 nports;
	u8 count;
	bool trunc;
	bool valid;
	struct dp_probe_neigh_ent {
		u32 node;
		u8 port;
		u8 peer_port;
		u8 state;
	} n[DPILLAR_PROBE_NEIGHS_MAX];
};

/* The wire size of a table of @count entries. */
static inline unsigned int dp_probe_neighs_len(unsigned int count)
{
	return sizeof(struct dpillar_probe_neighs) +
	       count * sizeof(struct dpillar_probe_neigh);
}

/*
 * A request waiting for the reply to probe @id, @seq, which must echo
 * @stamp, a random value (under dp_probes.lock); @neighs, when set,
 * takes the table the reply carries.
 */
struct dp_probe_slot {
	struct completion done;
	u64 sent_ns;
	u64 stamp;
	u16 id;
	u16 seq;
	bool busy;
	bool answered;
	struct dp_probe_result res;
	struct dp_probe_neighs *neighs;
};

/**
 * struct dp_probe_sender - one sender's share of the reply budgets
 * @src: the probes' source node id
 * @port: the port they came in by
 * @last: jiffies of the last refill; the slot is free when 0
 * @replies: tokens of DP_PROBE_SENDER_BURST, in 1/@period units
 * @tables: tokens of DP_PROBE_SENDER_NEIGHS, the same units
 */
struct dp_probe_sender {
	u32 src;
	u32 port;
	unsigned long last;
	u32 replies;
	u32 tables;
};

struct dp_probes {
	spinlock_t lock;	/* the slots, @dead and @next_id */
	bool dead;		/* the device is being unregistered */
	u16 next_id;
	struct ratelimit_state reply_rs;	/* DP_PROBE_REPLY_BURST */
	struct ratelimit_state pathsel_rs;		/* DP_PROBE_PATHSEL_BURST */
	struct ratelimit_state neighs_rs;	/* DP_PROBE_NEIGHS_BURST */
	/*
	 * Replies to DPILLAR_PROBE_ID_KERNEL ids (softirq): true when one
	 * answers a probe outstanding.  Set before the device has a port,
	 * never changed after.
	 */
	bool (*kernel_reply)(struct dp_priv *dp,
			     const struct dpillar_probe *p);
	struct dp_probe_slot slot[DP_PROBE_SLOTS];
	spinlock_t senders_lock;	/* @sender */
	/* the senders' refill period, jiffies: HZ (KUnit freezes it) */
	u32 sender_period;
	u32 sender_seed;
	struct dp_probe_sender sender[DP_PROBE_SENDERS];
};

void dp_probe_init(struct dp_priv *dp);
void dp_probe_flush(struct dp_priv *dp);
/* A frame type of probe.c's (the receive path asks per frame: inline). */
static inline bool dp_probe_type(u8 type)
{
	return type == DPILLAR_T_PROBE || type == DPILLAR_T_PROBE_REPLY;
}

enum dp_stat dp_probe_rcv(struct dp_priv *dp, u32 port, struct sk_buff *skb);
bool dp_probe_detours_known(const struct dp_priv *dp);
int dp_probe_send(struct dp_priv *dp, const struct dp_route_state *st,
		  u8 ttl, u16 id, u16 seq, u64 stamp,
		  struct dp_probe_result *local);
int dp_probe_roundtrip(struct dp_priv *dp, const struct dp_route_state *st,
		       u8 ttl, unsigned long timeout,
		       struct dp_probe_result *res);
int dp_probe_roundtrip_neighs(struct dp_priv *dp,
			      const struct dp_route_state *st, u8 ttl,
			      unsigned long timeout,
			      struct dp_probe_result *res,
			      struct dp_probe_neighs *nb);
bool dp_probe_neighs_add(struct dpillar_probe_neighs *h, u8 port,
			 u8 peer_port, u8 state, u32 node);
int dp_probe_neighs_parse(const void *data, unsigned int len,
			  struct dp_probe_neighs *nb);
unsigned int dp_probe_neighs_fill(struct dp_priv *dp,
				  struct dpillar_probe_neighs *h);

#endif /* _DPILLAR_PROBE_H */
