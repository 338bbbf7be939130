// SPDX-License-Identifier: GPL-2.0
/*
 * Path probes: a PROBE frame is routed hop by hop exactly as a DATA frame
 * with the same routing state would be (dp_route_out()), so the servers
 * that answer it are the servers a packet really crosses.  The server
 * where its TTL runs out answers TTL (traceroute's time exceeded), one
 * that cannot route it NOROUTE with the topology's reason, its
 * destination REACHED.  Replies are routed back like data, are never
 * answered, and each server sends at most DP_PROBE_PATHSEL_BURST a second
 * to path selection and DP_PROBE_REPLY_BURST to everything else
 * (probe.h).  A reply is taken only when it echoes the random stamp of
 * the outstanding probe it answers: (id, seq) alone are easy to guess.
 * A probe with DPILLAR_PROBE_F_NEIGHS asks its destination for its
 * neighbour table (ROUTE_NEIGHS, dpctl fabric): the REACHED reply carries
 * it, within the same budget.
 */

#include <linux/etherdevice.h>
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/skbuff.h>

#include "dpillar.h"
#include "hdr.h"
#include "relay.h"
#include "route.h"
#include "send.h"

/* Room for the Ethernet header and a lower device's own. */
#define DP_PROBE_HEADROOM	(ETH_HLEN + 64)
#define DP_PROBE_LEN		(DP_HDR_LEN + sizeof(struct dpillar_probe))

/*
 * S2 plan mode: a probe or reply carries its destination's coordinates
 * behind the header (struct dpillar_coords, as data does: t->ext_len
 * bytes) and its sender's behind struct dpillar_probe, so that whichever
 * server answers it (TTL, NOROUTE, REACHED) can route the reply back.
 * Elsewhere t->ext_len is 0 and the frame is the header and the probe.
 */
static unsigned int dp_probe_len(const struct dp_priv *dp)
{
	return DP_PROBE_LEN + 2 * dp->topo.ext_len;
}

static struct dpillar_probe *dp_probe_body(const struct dp_priv *dp,
					   const struct sk_buff *skb)
{
	return (struct dpillar_probe *)(skb->data + DP_HDR_LEN +
					dp->topo.ext_len);
}

/*
 * The sender's coordinates behind the probe (plan mode), host order: how
 * many, 0 when there are none of the fabric's count.
 */
static u32 dp_probe_src_coords(const struct dp_priv *dp, struct sk_buff *skb,
			       u32 *x)
{
	u32 n;

	if (!dp->topo.ext_len ||
	    dp_coords_pull(skb, DP_PROBE_LEN + dp->topo.ext_len, x, &n) < 0 ||
	    n != dp->topo.p.ncoords)
		return 0;
	return n;
}

void dp_probe_init(struct dp_priv *dp)
{
	struct dp_probes *pr = &dp->probes;
	int i;

	spin_lock_init(&pr->lock);
	ratelimit_state_init(&pr->reply_rs, HZ, DP_PROBE_REPLY_BURST);
	ratelimit_state_init(&pr->pathsel_rs, HZ, DP_PROBE_PATHSEL_BURST);
	ratelimit_state_init(&pr->neighs_rs, HZ, DP_PROBE_NEIGHS_BURST);
	/* Never print "callbacks suppressed": the drops are the point. */
	ratelimit_set_flags(&pr->reply_rs, RATELIMIT_MSG_ON_RELEASE);
	ratelimit_set_flags(&pr->pathsel_rs, RATELIMIT_MSG_ON_RELEASE);
	ratelimit_set_flags(&pr->neighs_rs, RATELIMIT_MSG_ON_RELEASE);
	for (i = 0; i < DP_PROBE_SLOTS; i++)
		init_completion(&pr->slot[i].done);
	spin_lock_init(&pr->senders_lock);
	pr->sender_period = HZ;
	pr->sender_seed = get_random_u32();
}

/*
 * The device is being unregistered (ndo_uninit): wake every waiting
 * request, which then gives up, and take no new one.  The requests hold a
 * reference on the device, so @dp outlives them.
 */
void dp_probe_flush(struct dp_priv *dp)
{
	struct dp_probes *pr = &dp->probes;
	int i;

	spin_lock_bh(&pr->lock);
	pr->dead = true;
	for (i = 0; i < DP_PROBE_SLOTS; i++)
		if (pr->slot[i].busy)
			complete(&pr->slot[i].done);
	spin_unlock_bh(&pr->lock);
}

/*
 * The answer this server sends for a probe it could not route on (@out,
 * from dp_route_out() with the state @again it was given): NONEIGH, or
 * NOROUTE with the topology's reason, which only this failure path asks
 * routing for once more.
 */
static void dp_probe_local(struct dp_priv *dp, enum dp_out out,
			   struct dp_route_state *again,
			   struct dp_probe_result *local)
{
	struct dp_hop hop;

	local->reporter = dp->self;
	local->rtt_ns = 0;
	local->reason = 0;
	local->hops = 0;
	local->detours = 0;
	local->detours_unknown = !dp_probe_detours_known(dp);
	local->status = DPILLAR_PROBE_STATUS_NONEIGH;
	if (out == DP_OUT_NOROUTE &&
	    dp_route(&dp->topo, dp->self, again, &dp->view, &hop)) {
		local->status = DPILLAR_PROBE_STATUS_NOROUTE;
		local->reason = hop.reason;
	}
}

/*
 * Route a PROBE or PROBE_REPLY built at skb->data from @st and send it.
 * On a local failure, @local (if any) gets the answer this server would
 * have sent.  Under rcu_read_lock with BHs off, as dp_probe_send() and
 * dp_probe_answer() call it.  Consumes the skb.
 */
static int dp_probe_out(struct dp_priv *dp, struct sk_buff *skb,
			struct dp_route_state *st,
			struct dp_probe_result *local)
{
	struct dp_route_state again = *st;
	enum dp_out out;

	out = dp_route_out(dp, skb, st);
	if (out == DP_OUT_SENT)
		return 0;
	if (local)
		dp_probe_local(dp, out, &again, local);
	dp_drop(dp, skb, dp_out_stat(out, DP_STAT_DROP_NOROUTE));
	return -EHOSTUNREACH;
}

/*
 * A probe or reply toward @st->dst; in plan mode @st carries the
 * destination's coordinates (dp_route_set_coords()), which go behind the
 * header, and ours go behind the probe.
 */
static struct sk_buff *dp_probe_alloc(struct dp_priv *dp, u8 type, u8 ttl,
				      const struct dp_route_state *st,
				      unsigned int room,
				      struct dpillar_probe **p)
{
	const struct dp_topo *t = &dp->topo;
	struct dpillar_hdr *h;
	struct sk_buff *skb;

	if (t->ext_len && st->ncoords != t->p.ncoords)
		return NULL;
	skb = alloc_skb(DP_PROBE_HEADROOM + dp_probe_len(dp) + room, GFP_ATOMIC);
	if (!skb) {
		/*
		 * The counters are the softirq's too: a caller in process
		 * context (genetlink, path selection's work) has BHs on here.
		 */
		local_bh_disable();
		dp_count(dp, DP_STAT_DROP_NOMEM);
		local_bh_enable();
		return NULL;
	}
	skb_reserve(skb, DP_PROBE_HEADROOM);
	h = skb_put_zero(skb, dp_probe_len(dp));
	h->version = DPILLAR_VERSION;
	h->type = type;
	h->ttl = ttl;
	h->src = htonl(dp->self);
	h->dst = htonl(st->dst);
	*p = dp_probe_body(dp, skb);
	if (t->ext_len) {
		dp_coords_put((struct dpillar_coords *)(h + 1), st->coords,
			      st->ncoords);
		dp_coords_put((struct dpillar_coords *)(*p + 1), t->p.coords,
			      t->p.ncoords);
	}
	return skb;
}

/*
 * Whether this server routes @st around a failure: its next hop is not
 * the one it would take in the failure-free fabric.  Asked for probes
 * only, before dp_probe_hop() routes them for real, so that the data
 * path pays nothing for it.  A detour a mode plans from the start (the
 * sideways first hop of an XDCent/BCube parallel path) is no failure.
 * Where the failure-free route cannot be computed (S2 plan mode: greedy
 * routing needs the neighbours' coordinates, which only the view has),
 * nothing tells a detour: none is counted, and the prober reports the
 * count as unknown (dp_probe_detours_known()).
 */
static bool dp_probe_detours(struct dp_priv *dp,
			     const struct dp_route_state *st)
{
	struct dp_route_state live = *st, ff = *st;
	struct dp_hop hl, hf;

	if (!dp_probe_detours_known(dp) ||
	    dp_route(&dp->topo, dp->self, &live, &dp->view, &hl))
		return false;	/* no hop at all: answered as NOROUTE */
	if (dp_route(&dp->topo, dp->self, &ff, NULL, &hf))
		return false;	/* no failure-free hop to compare with */
	return hl.next != hf.next;
}

/**
 * dp_probe_detours_known - whether probes count detours in this fabric
 * @dp: the device
 *
 * Not in S2 plan mode (the destination's coordinates travel with the
 * frame, t->ext_len): its failure-free route needs the routing view, so
 * no server can compare, and ROUTE_TRACE/ROUTE_PROBE leave DETOURS out.
 *
 * Return: whether probes count detours.
 */
bool dp_probe_detours_known(const struct dp_priv *dp)
{
	return !dp->topo.ext_len;
}

/*
 * Plan mode: the destination's coordinates for a probe this server
 * sends.  Unknown ones start a resolution, and the probe is answered
 * here as NOROUTE for want of them (route_no_coords's reason).
 */
static bool dp_probe_coords(struct dp_priv *dp, struct dp_route_state *st,
			    struct dp_probe_result *local)
{
	struct dp_hop hop;
	bool ok;

	if (st->ncoords)
		return true;
	/* RCU for the neighbour tables, BHs off for the cache */
	local_bh_disable();
	rcu_read_lock();
	ok = dp_sc_coords_route(dp, st, true);
	rcu_read_unlock();
	local_bh_enable();
	if (ok)
		return true;
	if (!local)
		return false;
	memset(local, 0, sizeof(*local));
	local->detours_unknown = true;	/* plan mode */
	local->reporter = dp->self;
	local->status = DPILLAR_PROBE_STATUS_NOROUTE;
	/* The routing core names the reason: no coordinates carried. */
	if (dp_route(&dp->topo, dp->self, st, NULL, &hop))
		local->reason = hop.reason;
	return false;
}

/**
 * __dp_probe_send - send one probe
 * @dp: the device
 * @st: the routing state it starts with (dp_route_init(), or a caller's
 *	own choice of selector, word and flags); @st->dst is the destination
 * @ttl: hops it may take, 1 .. dp_topo_ttl()
 * @id: probe id (DPILLAR_PROBE_ID_KERNEL set: an in-kernel user's)
 * @seq: echoed in the reply
 * @stamp: echoed in the reply
 * @flags: DPILLAR_PROBE_F_*
 * @local: when this server cannot route it, the answer it would get
 *
 * Callable from process or softirq context.
 *
 * Return: 0 when sent, -EHOSTUNREACH when routing failed here (@local
 * filled), -ENETDOWN, -ENOMEM.
 */
static int __dp_probe_send(struct dp_priv *dp,
			   const struct dp_route_state *st, u8 ttl, u16 id,
			   u16 seq, u64 stamp, u8 flags,
			   struct dp_probe_result *local)
{
	struct dp_route_state s = *st;
	struct dpillar_probe *p;
	struct sk_buff *skb;
	int err;

	/* Not while dp_stop() empties the tables (IFF_UP is still set). */
	if (!netif_running(dp->dev))
		return -ENETDOWN;
	if (dp->topo.ext_len && !dp_probe_coords(dp, &s, local))
		return -EHOSTUNREACH;
	skb = dp_probe_alloc(dp, DPILLAR_T_PROBE, ttl, &s, 0, &p);
	if (!skb)
		return -ENOMEM;
	p->flags = flags;
	p->id = htons(id);
	p->seq = htons(seq);
	p->ttl = ttl;
	p->stamp = cpu_to_be64(stamp);
	/*
	 * The neighbour tables are read with rcu_dereference(), as in the
	 * receive path: rcu_read_lock, and BHs off for dev_queue_xmit()'s
	 * callers' sake (process context: genetlink, path selection's work).
	 */
	local_bh_disable();
	rcu_read_lock();
	p->detours = dp_probe_detours(dp, &s);
	err = dp_probe_out(dp, skb, &s, local);
	rcu_read_unlock();
	local_bh_enable();
	return err;
}

/* A probe without flags: see __dp_probe_send(). */
int dp_probe_send(struct dp_priv *dp, const struct dp_route_state *st,
		  u8 ttl, u16 id, u16 seq, u64 stamp,
		  struct dp_probe_result *local)
{
	return __dp_probe_send(dp, st, ttl, id, seq, stamp, 0, local);
}

/**
 * dp_probe_neighs_add - append one entry to a reply's neighbour table
 * @h: the table, with room for DPILLAR_PROBE_NEIGHS_MAX entries
 * @port: the reporter's port
 * @peer_port: the neighbour's port
 * @state: DPILLAR_NEIGH_STATE_REACHABLE or _MISWIRED
 * @node: the neighbour
 *
 * Return: false when the table is full (DPILLAR_PROBE_NEIGHS_TRUNC set).
 */
bool dp_probe_neighs_add(struct dpillar_probe_neighs *h, u8 port,
			 u8 peer_port, u8 state, u32 node)
{
	struct dpillar_probe_neigh *e;

	if (h->count >= DPILLAR_PROBE_NEIGHS_MAX) {
		h->flags |= DPILLAR_PROBE_NEIGHS_TRUNC;
		return false;
	}
	e = &h->n[h->count++];
	e->port = port;
	e->peer_port = peer_port;
	e->state = state;
	e->reserved = 0;
	e->node = htonl(node);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(dp_probe_neighs_add);

/**
 * dp_probe_neighs_parse - read the neighbour table of a reply
 * @data: struct dpillar_probe_neighs
 * @len: bytes from @data to the end of the frame (Ethernet padding
 *	included)
 * @nb: filled, @nb->valid set
 *
 * Return: 0, or -EINVAL when the table is shorter than its count says,
 * its count exceeds DPILLAR_PROBE_NEIGHS_MAX, it has more than
 * DPILLAR_PORTS_MAX ports or an entry names a port past them.
 */
int dp_probe_neighs_parse(const void *data, unsigned int len,
			  struct dp_probe_neighs *nb)
{
	const struct dpillar_probe_neighs *h = data;
	u32 i;

	if (len < sizeof(*h) || h->count > DPILLAR_PROBE_NEIGHS_MAX ||
	    len < dp_probe_neighs_len(h->count) ||
	    h->nports > DPILLAR_PORTS_MAX)
		return -EINVAL;
	for (i = 0; i < h->count; i++) {
		const struct dpillar_probe_neigh *e = &h->n[i];

		if (e->port >= h->nports)
			return -EINVAL;
		nb->n[i].port = e->port;
		nb->n[i].peer_port = e->peer_port;
		nb->n[i].state = e->state;
		nb->n[i].node = ntohl(e->node);
	}
	nb->nports = h->nports;
	nb->count = h->count;
	nb->trunc = h->flags & DPILLAR_PROBE_NEIGHS_TRUNC;
	nb->ports_up = ntohl(h->ports_up);
	nb->valid = true;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(dp_probe_neighs_parse);

/**
 * dp_probe_neighs_fill - this server's neighbour table, as a reply carries it
 * @dp: the device
 * @h: room for DPILLAR_PROBE_NEIGHS_MAX entries
 *
 * Per port, the neighbours alive now and the last miswired sender heard
 * within the dead interval (NEIGH_GET's entries less the silent ones).
 * Under rcu_read_lock.
 *
 * Return: the table's size in bytes.
 */
unsigned int dp_probe_neighs_fill(struct dp_priv *dp,
				  struct dpillar_probe_neighs *h)
{
	struct dp_neigh_snap n;
	struct dp_port *port;
	u32 i, idx, up = 0;
	int err;

	memset(h, 0, sizeof(*h));
	h->nports = dp->nports;
	for (i = 0; i < dp->nports; i++) {
		port = dp_port_rcu(dp, i);
		if (!port)
			continue;
		if (dp_port_up(port))
			up |= BIT(i);
		for (idx = 0; ; idx++) {
			err = dp_neigh_snapshot(dp, port, idx, &n);
			if (err == -ENOENT)
				break;
			if (err || n.state == DPILLAR_NEIGH_STATE_UNREACHABLE)
				continue;
			dp_probe_neighs_add(h, i, n.peer_port < 0 ? U8_MAX :
					    n.peer_port, n.state, n.node);
		}
	}
	h->ports_up = htonl(up);
	return dp_probe_neighs_len(h->count);
}

/*
 * A reply for this server: wake the request waiting for it, if any, with
 * the neighbour table it carries when the request asked for one.  False
 * when it answers no outstanding probe, or its table is malformed
 * (counted probe_reply_bad).
 */
static bool dp_probe_reply_rcv(struct dp_priv *dp, struct sk_buff *skb)
{
	const struct dpillar_probe *p = dp_probe_body(dp, skb);
	struct dp_probes *pr = &dp->probes;
	u16 id = ntohs(p->id);
	struct dp_probe_slot *s;
	bool taken = false, table;
	u32 off = dp_probe_len(dp);

	if (id & DPILLAR_PROBE_ID_KERNEL) {
		taken = pr->kernel_reply && pr->kernel_reply(dp, p);
		goto out;
	}
	/*
	 * A server that does not know the flag echoes it with no table
	 * behind: fewer bytes than a table's header (Ethernet padding).
	 */
	table = (p->flags & DPILLAR_PROBE_F_NEIGHS) &&
		skb->len >= off + sizeof(struct dpillar_probe_neighs);
	if (table) {
		if (skb_linearize(skb))
			goto out;
		p = dp_probe_body(dp, skb);
	}
	s = &pr->slot[id % DP_PROBE_SLOTS];
	spin_lock(&pr->lock);
	/*
	 * Late, duplicate or forged replies find no waiting request: a
	 * forger who guesses (id, seq) does not know the stamp.
	 */
	if (s->busy && !s->answered && s->id == id &&
	    s->seq == ntohs(p->seq) && s->stamp == be64_to_cpu(p->stamp)) {
		if (s->neighs && table &&
		    dp_probe_neighs_parse(skb->data + off, skb->len - off,
					  s->neighs)) {
			spin_unlock(&pr->lock);
			goto out;
		}
		taken = true;
		s->answered = true;
		s->res.reporter = ntohl(p->reporter);
		s->res.status = p->status;
		s->res.reason = p->reason;
		s->res.hops = p->hops;
		s->res.detours = p->detours;
		s->res.detours_unknown = !dp_probe_detours_known(dp);
		s->res.rtt_ns = ktime_get_ns() - s->sent_ns;
		complete(&s->done);
	}
	spin_unlock(&pr->lock);
out:
	if (!taken)
		dp_count(dp, DP_STAT_PROBE_REPLY_BAD);
	return taken;
}

/*
 * The budget that pays for answering @pp: path selection's for its probes
 * (an in-kernel id, sent with the full TTL), the other one for the rest.
 */
static struct ratelimit_state *dp_probe_budget(struct dp_priv *dp,
					       const struct dpillar_probe *pp)
{
	if ((ntohs(pp->id) & DPILLAR_PROBE_ID_KERNEL) &&
	    pp->ttl == dp_topo_ttl(&dp->topo))
		return &dp->probes.pathsel_rs;
	return &dp->probes.reply_rs;
}

/*
 * One token of a sender's bucket @tokens of @rate a second, refilled for
 * the @elapsed jiffies (at most @period) since the last refill: whether
 * there was one.  Tokens are kept in 1/@period units, so that a refill
 * loses nothing to rounding.
 */
static bool dp_probe_token(u32 *tokens, u32 rate, u32 period, u32 elapsed)
{
	*tokens = min(*tokens + elapsed * rate, rate * period);
	if (*tokens < period)
		return false;
	*tokens -= period;
	return true;
}

/*
 * Whether the sender of a probe from @src that came in by @port has a
 * reply left in its share this second, and a table (@neighs) when it asks
 * for one.  Its slot in the hashed table is its own, else free, else one
 * whose sender has been silent for a second (its buckets are full again,
 * nobody loses): taken over.  Another sender's, still busy: no share is
 * charged, the device's budgets still bound the reply.  A frame's source
 * can be forged, so the port is in the key: a neighbour that forges
 * another server's source spends the share of that source on its own
 * port, not on the port the real server's requests come by (it may share
 * that port: a switch).  A neighbour forging many sources takes many
 * slots and is bounded by the device's budgets only, as before the
 * shares.  Softirq (process context with BHs off for our own probes).
 */
static bool dp_probe_sender_ok(struct dp_priv *dp, u32 src, u32 port,
			       bool neighs)
{
	struct dp_probes *pr = &dp->probes;
	u32 period = pr->sender_period;
	struct dp_probe_sender *s;
	unsigned long now = jiffies;
	u32 elapsed;
	bool ok;

	s = &pr->sender[jhash_2words(src, port, pr->sender_seed) &
			(DP_PROBE_SENDERS - 1)];
	spin_lock_bh(&pr->senders_lock);
	if (!s->last || s->src != src || s->port != port) {
		if (s->last && time_before(now, s->last + period)) {
			spin_unlock_bh(&pr->senders_lock);
			return true;
		}
		s->src = src;
		s->port = port;
		s->replies = DP_PROBE_SENDER_BURST * period;
		s->tables = DP_PROBE_SENDER_NEIGHS * period;
		s->last = now;
	}
	elapsed = min_t(unsigned long, now - s->last, period);
	/* jiffies 0 marks a free slot: a refill at 0 is one tick later */
	s->last = now ?: 1;
	ok = dp_probe_token(&s->replies, DP_PROBE_SENDER_BURST, period,
			    elapsed);
	if (neighs && !dp_probe_token(&s->tables, DP_PROBE_SENDER_NEIGHS,
				      period, elapsed))
		ok = false;
	spin_unlock_bh(&pr->senders_lock);
	return ok;
}

/*
 * Answer the probe @ph, @pp that came in by our port @port with @status
 * (rate-limited: the sender's share, then the device's budget); in plan
 * mode toward the @nx coordinates @x it carried for its sender.
 */
static void dp_probe_answer(struct dp_priv *dp, const struct dpillar_hdr *ph,
			    const struct dpillar_probe *pp, u32 port,
			    const u32 *x, u32 nx, u8 status, u8 reason)
{
	bool neighs = status == DPILLAR_PROBE_STATUS_REACHED &&
		      (pp->flags & DPILLAR_PROBE_F_NEIGHS);
	struct ratelimit_state *budget = dp_probe_budget(dp, pp);
	struct dp_route_state st;
	struct dpillar_probe *p;
	struct sk_buff *skb;
	u32 src = ntohl(ph->src);

	if ((budget != &dp->probes.pathsel_rs || neighs) &&
	    !dp_probe_sender_ok(dp, src, port, neighs)) {
		dp_count(dp, DP_STAT_PROBE_SENDER_LIMIT);
		return;
	}
	if (!__ratelimit(budget) ||
	    (neighs && !__ratelimit(&dp->probes.neighs_rs))) {
		dp_count(dp, DP_STAT_PROBE_LIMIT);
		return;
	}
	dp_route_init(&dp->topo, dp->self, src, READ_ONCE(dp->mode), 0, &st);
	if (dp->topo.ext_len &&
	    !dp_route_set_coords(&dp->topo, &st, x, nx))
		return;
	skb = dp_probe_alloc(dp, DPILLAR_T_PROBE_REPLY,
			     dp_topo_ttl(&dp->topo), &st,
			     neighs ? dp_probe_neighs_len(DPILLAR_PROBE_NEIGHS_MAX)
				    : 0, &p);
	if (!skb)
		return;
	*p = *pp;
	/* NEIGHS in a reply: its table follows (at the frame's tail). */
	p->flags = neighs ? DPILLAR_PROBE_F_NEIGHS : 0;
	if (neighs) {
		struct dpillar_probe_neighs *h;
		unsigned int max = dp_probe_neighs_len(DPILLAR_PROBE_NEIGHS_MAX);

		h = skb_put(skb, max);
		skb_trim(skb, skb->len - max + dp_probe_neighs_fill(dp, h));
	}
	p->status = status;
	p->reason = reason;
	/* Sent with TTL p->ttl, it arrived here with ph->ttl (forged: 0). */
	p->hops = ph->ttl <= pp->ttl ? pp->ttl - ph->ttl + 1 : 0;
	p->reporter = htonl(dp->self);
	/* Our own probe, routed back through us (a u-turn): no wire. */
	if (src == dp->self) {
		dp_probe_reply_rcv(dp, skb);
		consume_skb(skb);
		return;
	}
	dp_probe_out(dp, skb, &st, NULL);
}

/*
 * A probe or reply in transit goes through the relay of every frame type
 * (dp_relay(), relay.h: its copy-on-write, TTL, clearing and counters)
 * with these for its type; a probe that cannot go on is answered.  What
 * the relay keeps of it for those answers: its header and probe as
 * received, the prober's coordinates, and its routing state before the
 * hop, to tell why there was none.
 */
struct dp_probe_relay {
	struct dpillar_hdr h;
	struct dpillar_probe p;
	struct dp_route_state again;
	u32 x[DP_COORDS_MAX];
	u32 nx;
	u32 port;	/* ours it came in by */
};

/*
 * Checked; taken here when it is for us (a probe answered, a reply handed
 * to its requester), else what its answers need kept (@ctx) and its
 * routing state: relayed.
 */
static enum dp_stat dp_probe_relay_rx(struct dp_priv *dp, struct sk_buff *skb,
				      struct dp_route_state *st, int ext,
				      void *ctx)
{
	struct dp_probe_relay *pr = ctx;
	const struct dpillar_hdr *h;
	u32 x[DP_COORDS_MAX], nx;

	/*
	 * Plan mode: both coordinates, of the right count; elsewhere none
	 * (a coordinates flag there is a forged frame).
	 */
	if (ext != (int)dp->topo.ext_len ||
	    !pskb_may_pull(skb, dp_probe_len(dp)) ||
	    (dp->topo.ext_len && (st->ncoords != dp->topo.p.ncoords ||
				  !dp_probe_src_coords(dp, skb, x))))
		return DP_STAT_DROP_SHORT;
	h = (const struct dpillar_hdr *)skb->data;
	if (ntohl(h->dst) != dp->self) {
		/* What an answer needs, before routing rewrites the frame. */
		pr->h = *h;
		pr->p = *dp_probe_body(dp, skb);
		pr->nx = dp_probe_src_coords(dp, skb, pr->x);
		return DP_STAT_FORWARDED;
	}
	nx = dp_probe_src_coords(dp, skb, x);
	if (h->type == DPILLAR_T_PROBE) {
		dp_probe_answer(dp, h, dp_probe_body(dp, skb), pr->port, x,
				nx, DPILLAR_PROBE_STATUS_REACHED, 0);
		dp_count(dp, DP_STAT_DELIVERED);
	} else if (dp_probe_reply_rcv(dp, skb)) {
		dp_count(dp, DP_STAT_DELIVERED);
	}
	consume_skb(skb);
	return DP_STAT_MAX;
}

/* The TTL ran out: a probe's runs out by design, a reply's is a bug. */
static bool dp_probe_relay_ttl_out(struct dp_priv *dp, struct sk_buff *skb,
				   void *ctx)
{
	struct dp_probe_relay *pr = ctx;

	if (pr->h.type != DPILLAR_T_PROBE)
		return false;
	dp_probe_answer(dp, &pr->h, &pr->p, pr->port, pr->x, pr->nx,
			DPILLAR_PROBE_STATUS_TTL, 0);
	consume_skb(skb);
	return true;
}

/* The next hop, data's (DP_OUT_ROUTE); a probe counts its detour first. */
static enum dp_out dp_probe_relay_hop(struct dp_priv *dp, struct sk_buff *skb,
				      struct dp_route_state *st, void *ctx)
{
	struct dp_probe_relay *pr = ctx;

	if (pr->h.type == DPILLAR_T_PROBE) {
		pr->again = *st;
		if (dp_probe_detours(dp, st))
			dp_probe_body(dp, skb)->detours++;
	}
	return DP_OUT_ROUTE;
}

/* A probe routing could not send on (dropped): answered with why. */
static void dp_probe_relay_lost(struct dp_priv *dp, enum dp_out out,
				void *ctx)
{
	struct dp_probe_relay *pr = ctx;
	struct dp_probe_result local;

	if (pr->h.type != DPILLAR_T_PROBE)
		return;
	dp_probe_local(dp, out, &pr->again, &local);
	dp_probe_answer(dp, &pr->h, &pr->p, pr->port, pr->x, pr->nx,
			local.status, local.reason);
}

static const struct dp_relay_ops dp_probe_relay_ops = {
	.rx = dp_probe_relay_rx,
	.ttl_out = dp_probe_relay_ttl_out,
	.hop = dp_probe_relay_hop,
	.lost = dp_probe_relay_lost,
	.noroute = DP_STAT_DROP_NOROUTE,
};

/**
 * dp_probe_rcv - a PROBE or PROBE_REPLY from a port
 * @dp: the device
 * @port: the index of the port it came in by
 * @skb: the frame, dpillar header at skb->data, addresses checked
 *
 * Softirq, under rcu_read_lock.
 *
 * Return: DP_STAT_MAX when it was taken (relayed, answered, consumed),
 * else the counter of its drop, which the receive handler makes
 * (dp_handle_frame()).
 */
enum dp_stat dp_probe_rcv(struct dp_priv *dp, u32 port, struct sk_buff *skb)
{
	struct dp_probe_relay pr;

	pr.port = port;

	return dp_relay(dp, skb, &dp_probe_relay_ops, &pr);
}

/**
 * dp_probe_roundtrip - send a probe and wait for its answer
 * @dp: the device; the caller holds a reference on it
 * @st: the routing state the probe starts with
 * @ttl: hops it may take
 * @timeout: jiffies to wait for the reply
 * @res: the answer
 *
 * Process context; sleeps.
 *
 * Return: 0 (@res filled: a reply, or this server's own NOROUTE/NONEIGH
 * answer with RTT 0), -ETIMEDOUT, -EBUSY (DP_PROBE_SLOTS requests already
 * wait), -ENODEV (the device is going away), -EINTR, -ENETDOWN or
 * -ENOMEM.
 */
int dp_probe_roundtrip(struct dp_priv *dp, const struct dp_route_state *st,
		       u8 ttl, unsigned long timeout,
		       struct dp_probe_result *res)
{
	return dp_probe_roundtrip_neighs(dp, st, ttl, timeout, res, NULL);
}

/**
 * dp_probe_roundtrip_neighs - dp_probe_roundtrip(), asking for a table
 * @dp: the device; the caller holds a reference on it
 * @st: the routing state the probe starts with
 * @ttl: hops it may take
 * @timeout: jiffies to wait for the reply
 * @res: the answer
 * @nb: NULL, or the destination's neighbour table: the probe carries
 *	DPILLAR_PROBE_F_NEIGHS, and @nb->valid says whether the reply
 *	carried one
 *
 * Return: as dp_probe_roundtrip().
 */
int dp_probe_roundtrip_neighs(struct dp_priv *dp,
			      const struct dp_route_state *st, u8 ttl,
			      unsigned long timeout,
			      struct dp_probe_result *res,
			      struct dp_probe_neighs *nb)
{
	struct dp_probes *pr = &dp->probes;
	struct dp_probe_slot *s = NULL;
	bool local = false;
	long left;
	u16 id;
	int i, err;

	spin_lock_bh(&pr->lock);
	for (i = 0; i < DP_PROBE_SLOTS && !pr->dead; i++) {
		id = pr->next_id++ & ~DPILLAR_PROBE_ID_KERNEL;
		s = &pr->slot[id % DP_PROBE_SLOTS];
		if (!s->busy)
			break;
		s = NULL;
	}
	if (s) {
		s->busy = true;
		s->answered = false;
		s->id = id;
		s->seq = ttl;
		s->stamp = get_random_u64();
		s->sent_ns = ktime_get_ns();
		s->neighs = nb;
		if (nb)
			nb->valid = false;
		reinit_completion(&s->done);
	}
	err = pr->dead ? -ENODEV : -EBUSY;
	spin_unlock_bh(&pr->lock);
	if (!s)
		return err;

	err = __dp_probe_send(dp, st, ttl, id, ttl, s->stamp,
			      nb ? DPILLAR_PROBE_F_NEIGHS : 0, res);
	if (err == -EHOSTUNREACH) {
		local = true;	/* this server answered it: @res */
		err = 0;
	} else if (!err) {
		left = wait_for_completion_interruptible_timeout(&s->done,
								 timeout);
		if (left < 0)
			err = -EINTR;
	}

	spin_lock_bh(&pr->lock);
	if (!err && !local) {
		if (s->answered)
			*res = s->res;
		else
			err = pr->dead ? -ENODEV : -ETIMEDOUT;
	}
	s->busy = false;
	s->neighs = NULL;	/* no late reply writes to it */
	spin_unlock_bh(&pr->lock);
	return err;
}
