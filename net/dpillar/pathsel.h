/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Path selection (the XDCent paper's PathSelection): for the destinations
 * this server sends to, probe each candidate path of the topology
 * (dp_route_npaths()) once per interval, and send a flow whose path failed
 * its last probe over the next candidate that passed.  A fixed table of
 * DP_PATHSEL_SLOTS destinations per device: nothing grows with the fabric.
 */
#ifndef _DPILLAR_PATHSEL_H
#define _DPILLAR_PATHSEL_H

#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/dpillar_packet.h>

#include "topo.h"

#define DP_PATHSEL_SLOTS	32	/* destinations followed at a time */
/* Intervals without traffic after which a destination is forgotten. */
#define DP_PATHSEL_IDLE	10

struct dp_priv;

/**
 * struct dp_pathsel_ent - one destination followed
 * @dst: its node id; DP_NODE_NONE when the slot is free
 * @npaths: its candidate paths (dp_route_npaths())
 * @failed: bit m: candidate m failed its last probe (no answer from the
 *	destination in an interval, or an answer after a detour)
 * @sent: bit m: candidate m was probed this round
 * @answered: bit m: and its answer came
 * @used: jiffies of the last packet sent to it
 * @stamp: candidate m's probe this round: a random value its reply must
 *	echo (forged replies cannot guess it)
 */
struct dp_pathsel_ent {
	u32 dst;
	u8 npaths;
	u8 failed;
	u8 sent;
	u8 answered;
	unsigned long used;
	u64 stamp[DP_PATHS_MAX];
};

struct dp_pathsel {
	spinlock_t lock;	/* @round, the entries (@used: also BH) */
	u16 round;
	struct delayed_work work;
	struct dp_pathsel_ent ent[DP_PATHSEL_SLOTS];
};

void dp_pathsel_init(struct dp_priv *dp);
void dp_pathsel_start(struct dp_priv *dp);
void dp_pathsel_stop(struct dp_priv *dp);
void dp_pathsel_route_init(struct dp_priv *dp, u32 dst, u32 hash,
			   struct dp_route_state *st);
void dp_pathsel_work(struct work_struct *work);
bool dp_pathsel_state(struct dp_priv *dp, u32 dst, u32 m, bool *failed);

#endif /* _DPILLAR_PATHSEL_H */
