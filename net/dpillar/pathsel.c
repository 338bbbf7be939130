// SPDX-License-Identifier: GPL-2.0
/*
 * Path selection, see pathsel.h.  The probe interval is the neighbour dead
 * interval: a path is given up on the time scale a neighbour is.  Each
 * round sends one probe (probe.c) down every candidate path of every
 * destination followed.  A candidate fails when its probe comes back from
 * anyone but the destination, reaches it only because a relay routed it
 * around a failure (the hop-by-hop fault tolerance would keep a broken
 * path "working", but longer), or is not answered before the next round.
 * A flow whose candidate failed moves to the next one that did not, and
 * back once its own passes again.  So traffic leaves a failed path at most
 * two intervals after the failure: one until the next probe, one to wait
 * for its answer (a detour or a dead end is known at once).
 *
 * Probe ids: DPILLAR_PROBE_ID_KERNEL | slot << 3 | candidate, the round
 * as the sequence number: a late or stale answer matches nothing.  Each
 * probe carries a random stamp, kept in the entry: an answer that does
 * not echo it is a forgery (it would steer flows), and is not taken.
 * The targets answer these probes from a budget of their own
 * (DP_PROBE_PATHSEL_BURST, probe.h), which the probes users ask for cannot
 * spend.
 */

#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/netdevice.h>
#include <linux/random.h>

#include "dpillar.h"

#define DP_PATHSEL_ID_SHIFT	3	/* DP_PATHS_MAX candidates below */

static_assert(DP_PATHS_MAX <= (1 << DP_PATHSEL_ID_SHIFT));
static_assert((DP_PATHSEL_SLOTS << DP_PATHSEL_ID_SHIFT) <= DPILLAR_PROBE_ID_KERNEL);

static struct dp_pathsel_ent *dp_pathsel_slot(struct dp_priv *dp, u32 dst)
{
	return &dp->pathsel.ent[hash_32(dst, ilog2(DP_PATHSEL_SLOTS))];
}

static unsigned long dp_pathsel_interval(const struct dp_priv *dp)
{
	return msecs_to_jiffies(READ_ONCE(dp->dead_ms)) ?: 1;
}

static void dp_pathsel_clear(struct dp_pathsel_ent *e)
{
	WRITE_ONCE(e->dst, DP_NODE_NONE);
	WRITE_ONCE(e->failed, 0);
	e->sent = 0;
	e->answered = 0;
}

static bool dp_pathsel_reply(struct dp_priv *dp, const struct dpillar_probe *p);

/*
 * Nothing is followed, with no work queued: at setup and after a stop.
 * The replies to our probes come back through probe.c's kernel_reply,
 * after dp_probe_init() and before the device has a port.
 */
void dp_pathsel_init(struct dp_priv *dp)
{
	struct dp_pathsel *ps = &dp->pathsel;
	u32 i;

	spin_lock_init(&ps->lock);
	INIT_DELAYED_WORK(&ps->work, dp_pathsel_work);
	for (i = 0; i < DP_PATHSEL_SLOTS; i++)
		dp_pathsel_clear(&ps->ent[i]);
	dp->probes.kernel_reply = dp_pathsel_reply;
}

/* ndo_open: start the rounds. */
void dp_pathsel_start(struct dp_priv *dp)
{
	queue_delayed_work(system_power_efficient_wq, &dp->pathsel.work,
			   dp_pathsel_interval(dp));
}

/* ndo_stop and ndo_uninit: stop them and forget every destination. */
void dp_pathsel_stop(struct dp_priv *dp)
{
	struct dp_pathsel *ps = &dp->pathsel;
	u32 i;

	cancel_delayed_work_sync(&ps->work);
	spin_lock_bh(&ps->lock);
	for (i = 0; i < DP_PATHSEL_SLOTS; i++)
		dp_pathsel_clear(&ps->ent[i]);
	spin_unlock_bh(&ps->lock);
}
EXPORT_SYMBOL_IF_KUNIT(dp_pathsel_stop);

/*
 * Start following @dst in slot @e (transmit path, BH).  A slot another
 * destination holds is taken over only once that one has been idle for
 * two intervals, so that two busy destinations do not evict each other at
 * every packet: the newcomer is then routed without path selection.
 */
static void dp_pathsel_follow(struct dp_priv *dp, struct dp_pathsel_ent *e,
			      u32 dst, u32 npaths)
{
	unsigned long idle = 2 * dp_pathsel_interval(dp);

	if (READ_ONCE(e->dst) != DP_NODE_NONE &&
	    !time_after(jiffies, READ_ONCE(e->used) + idle))
		return;
	spin_lock(&dp->pathsel.lock);
	if (e->dst == DP_NODE_NONE ||
	    time_after(jiffies, READ_ONCE(e->used) + idle)) {
		dp_pathsel_clear(e);
		e->npaths = npaths;
		WRITE_ONCE(e->used, jiffies);
		WRITE_ONCE(e->dst, dst);
	}
	spin_unlock(&dp->pathsel.lock);
}

/**
 * dp_pathsel_route_init - the routing state of a packet this server sends
 * @dp: the device
 * @dst: its destination
 * @hash: its flow hash
 * @st: filled
 *
 * dp_route_init() with the device's mode, unless the topology has
 * candidate paths for it, @dst is followed and some candidate failed:
 * then candidate hash % npaths if it did not fail, else the next one that
 * did not.  Transmit path, BH.  The entry is read without the lock: a
 * slot taken over at the same time only makes this packet take another
 * valid path.
 */
void dp_pathsel_route_init(struct dp_priv *dp, u32 dst, u32 hash,
			   struct dp_route_state *st)
{
	u32 sel = READ_ONCE(dp->mode), n, m, i;
	struct dp_pathsel_ent *e;
	unsigned long now;
	u8 failed;

	n = dp_route_npaths(&dp->topo, dp->self, dst, sel);
	if (!n)
		goto plain;
	e = dp_pathsel_slot(dp, dst);
	if (READ_ONCE(e->dst) != dst) {
		dp_pathsel_follow(dp, e, dst, n);
		goto plain;
	}
	/* Written once a tick at most: the line stays shared between CPUs. */
	now = jiffies;
	if (READ_ONCE(e->used) != now)
		WRITE_ONCE(e->used, now);
	failed = READ_ONCE(e->failed);
	/* None failed, or all: the mode's own choice (and hop by hop FT). */
	if (!failed || (failed & GENMASK(n - 1, 0)) == GENMASK(n - 1, 0))
		goto plain;
	m = hash % n;
	for (i = 0; i < n && (failed & BIT(m)); i++)
		m = m + 1 == n ? 0 : m + 1;
	dp_route_path_init(&dp->topo, dp->self, dst, m, st);
	return;
plain:
	dp_route_init(&dp->topo, dp->self, dst, sel, hash, st);
}
EXPORT_SYMBOL_IF_KUNIT(dp_pathsel_route_init);

/*
 * An answer to a probe of ours (probe.c, softirq).  False when it answers
 * no probe outstanding: late, a duplicate, or a forged stamp.
 */
static bool dp_pathsel_reply(struct dp_priv *dp, const struct dpillar_probe *p)
{
	u16 id = ntohs(p->id);
	u32 m = id & (BIT(DP_PATHSEL_ID_SHIFT) - 1);
	struct dp_pathsel *ps = &dp->pathsel;
	struct dp_pathsel_ent *e;
	bool taken = false;

	e = &ps->ent[(id >> DP_PATHSEL_ID_SHIFT) & (DP_PATHSEL_SLOTS - 1)];
	spin_lock(&ps->lock);
	if (ntohs(p->seq) != ps->round || m >= e->npaths ||
	    !(e->sent & BIT(m)) || (e->answered & BIT(m)) ||
	    be64_to_cpu(p->stamp) != e->stamp[m])
		goto out;
	taken = true;
	e->answered |= BIT(m);
	if (p->status == DPILLAR_PROBE_STATUS_REACHED &&
	    ntohl(p->reporter) == e->dst && !p->detours) {
		WRITE_ONCE(e->failed, e->failed & ~BIT(m));
	} else {
		WRITE_ONCE(e->failed, e->failed | BIT(m));
	}
out:
	spin_unlock(&ps->lock);
	return taken;
}

/* Probe candidate @m of the destination in slot @i, in round @round. */
static void dp_pathsel_probe(struct dp_priv *dp, u32 i, u32 dst, u32 m,
			     u16 round)
{
	struct dp_pathsel_ent *e = &dp->pathsel.ent[i];
	struct dp_probe_result local;
	struct dp_route_state st;
	u64 stamp;
	int err;

	spin_lock_bh(&dp->pathsel.lock);
	if (e->dst != dst || dp->pathsel.round != round) {
		spin_unlock_bh(&dp->pathsel.lock);
		return;
	}
	/* Before sending: the answer may come back before we return. */
	e->sent |= BIT(m);
	stamp = get_random_u64();
	e->stamp[m] = stamp;
	spin_unlock_bh(&dp->pathsel.lock);

	dp_route_path_init(&dp->topo, dp->self, dst, m, &st);
	err = dp_probe_send(dp, &st, dp_topo_ttl(&dp->topo),
			    DPILLAR_PROBE_ID_KERNEL | i << DP_PATHSEL_ID_SHIFT | m,
			    round, stamp, &local);
	if (!err)
		return;
	spin_lock_bh(&dp->pathsel.lock);
	if (e->dst == dst && dp->pathsel.round == round) {
		e->sent &= ~BIT(m);
		/* This server itself cannot take that path. */
		if (err == -EHOSTUNREACH)
			WRITE_ONCE(e->failed, e->failed | BIT(m));
	}
	spin_unlock_bh(&dp->pathsel.lock);
}

/*
 * One round: a candidate probed last round and not answered has failed;
 * destinations idle for DP_PATHSEL_IDLE intervals are forgotten; every
 * candidate of the others is probed.
 */
void dp_pathsel_work(struct work_struct *work)
{
	struct dp_priv *dp = container_of(to_delayed_work(work),
					  struct dp_priv, pathsel.work);
	unsigned long idle = DP_PATHSEL_IDLE * dp_pathsel_interval(dp);
	u32 dst[DP_PATHSEL_SLOTS], np[DP_PATHSEL_SLOTS], i, m;
	struct dp_pathsel *ps = &dp->pathsel;
	struct dp_pathsel_ent *e;
	u16 round;

	spin_lock_bh(&ps->lock);
	round = ++ps->round;
	for (i = 0; i < DP_PATHSEL_SLOTS; i++) {
		e = &ps->ent[i];
		dst[i] = e->dst;
		if (e->dst == DP_NODE_NONE)
			continue;
		if (time_after(jiffies, READ_ONCE(e->used) + idle)) {
			dp_pathsel_clear(e);
			dst[i] = DP_NODE_NONE;
			continue;
		}
		WRITE_ONCE(e->failed, e->failed | (e->sent & ~e->answered));
		e->sent = 0;
		e->answered = 0;
		np[i] = e->npaths;
	}
	spin_unlock_bh(&ps->lock);

	for (i = 0; i < DP_PATHSEL_SLOTS; i++)
		for (m = 0; dst[i] != DP_NODE_NONE && m < np[i]; m++)
			dp_pathsel_probe(dp, i, dst[i], m, round);
	queue_delayed_work(system_power_efficient_wq, &ps->work,
			   dp_pathsel_interval(dp));
}
EXPORT_SYMBOL_IF_KUNIT(dp_pathsel_work);

/**
 * dp_pathsel_state - what path selection knows of candidate @m toward @dst
 * @dp: the device
 * @dst: the destination
 * @m: the candidate
 * @failed: whether it failed its last probe
 *
 * Any context but hard IRQ.
 *
 * Return: whether @dst is followed and @m is one of its candidates
 * (@failed set only then).
 */
bool dp_pathsel_state(struct dp_priv *dp, u32 dst, u32 m, bool *failed)
{
	struct dp_pathsel_ent *e = dp_pathsel_slot(dp, dst);
	bool found;

	spin_lock_bh(&dp->pathsel.lock);
	found = e->dst == dst && m < e->npaths;
	if (found)
		*failed = e->failed & BIT(m);
	spin_unlock_bh(&dp->pathsel.lock);
	return found;
}
EXPORT_SYMBOL_IF_KUNIT(dp_pathsel_state);
