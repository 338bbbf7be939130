// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "dpillar": routing decisions.  ROUTE_GET asks the
 * data path's routing for the first hop toward a destination and predicts
 * the rest of the path.
 */

#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "genl.h"

/* Equal-cost first hops listed in a reply, at most (DPillar: 2n - 2). */
#define DP_GENL_CHOICES_MAX	64

static size_t dp_genl_route_size(u32 ttl)
{
	size_t hop = nla_total_size(0) +		/* ROUTE_HOP */
		     nla_total_size(sizeof(u32)) * 3 +	/* u32 attributes */
		     nla_total_size(DP_ADDR_TEXT_MAX);	/* HOP_ADDR */

	return nla_total_size(sizeof(u32)) * 8 +	/* u32 attributes */
	       nla_total_size(sizeof(u32)) * DP_GENL_CHOICES_MAX +
	       nla_total_size(DP_ADDR_TEXT_MAX) * 2 +	/* DST_ADDR, NEXT_ADDR */
	       nla_total_size(ETH_ALEN) +		/* NEXT_MAC */
	       ttl * hop;
}

/* The destination node of a request: exactly one of DST, DST_IP4, DST_IP6. */
static int dp_genl_route_dst(const struct dp_priv *dp, struct nlattr **tb,
			     struct nlattr **dst_attr, u32 *dst,
			     struct netlink_ext_ack *extack)
{
	static const int types[] = {
		DPILLAR_A_ROUTE_DST, DPILLAR_A_ROUTE_DST_IP4,
		DPILLAR_A_ROUTE_DST_IP6,
	};
	struct nlattr *attr = NULL;
	struct in6_addr ip6;
	unsigned int i;
	bool ok;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		if (!tb[types[i]])
			continue;
		if (attr) {
			NL_SET_ERR_MSG_ATTR(extack, tb[types[i]],
					    "Give exactly one destination: dst, dst-ip4 or dst-ip6");
			return -EINVAL;
		}
		attr = tb[types[i]];
	}
	if (!attr) {
		NL_SET_ERR_MSG(extack,
			       "Missing destination: dst, dst-ip4 or dst-ip6");
		NL_SET_ERR_ATTR_MISS(extack, NULL, DPILLAR_A_ROUTE_DST);
		return -EINVAL;
	}
	*dst_attr = attr;

	switch (nla_type(attr)) {
	case DPILLAR_A_ROUTE_DST:
		*dst = nla_get_u32(attr);
		if (!dp_addr_valid(&dp->topo, *dst)) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "Node id is not in this fabric");
			return -EINVAL;
		}
		return 0;
	case DPILLAR_A_ROUTE_DST_IP4:
		ok = dp_ip4_to_node(dp, nla_get_in_addr(attr), dst);
		break;
	default:
		ip6 = nla_get_in6_addr(attr);
		ok = dp_ip6_to_node(dp, &ip6, dst);
		break;
	}
	if (!ok) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "Address is not a server of this fabric");
		return -ENETUNREACH;
	}
	return 0;
}

static int dp_genl_put_hop(struct sk_buff *skb, const struct dp_priv *dp,
			   const struct dp_hop *hop)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, DPILLAR_A_ROUTE_HOP);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, DPILLAR_A_HOP_NODE_ID, hop->next) ||
	    dp_genl_put_addr(skb, DPILLAR_A_HOP_ADDR, dp, hop->next) ||
	    nla_put_u32(skb, DPILLAR_A_HOP_PORT, hop->port) ||
	    nla_put_u32(skb, DPILLAR_A_HOP_PHASE, hop->phase)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * Plan mode: the destination's coordinates, as a packet of ours gets
 * them (tx.c).  Unknown ones start a resolution when @may_resolve: it
 * floods the fabric and spends the node's resolve budget, so only for a
 * caller with CAP_NET_ADMIN.  0, -EAGAIN (resolving) or -EPERM (unknown,
 * not resolved).  Under rcu_read_lock, process context.
 */
static int dp_genl_route_coords(struct dp_priv *dp, struct dp_route_state *st,
				bool may_resolve)
{
	bool ok;

	/* The cache and discovery are the softirq's too: BHs off. */
	local_bh_disable();
	ok = dp_sc_coords_route(dp, st, may_resolve);
	local_bh_enable();
	if (ok)
		return 0;
	return may_resolve ? -EAGAIN : -EPERM;
}

/*
 * The topology gave up here for @reason: where the data path's discovery
 * fallback would carry the packet on along a shortcut of this server's
 * (dp_route_out(), dp_sc_data_out()), its first hop and length.  The
 * lookup is the device view's, which changes nothing (an unprivileged
 * request cannot keep a shortcut in use).  0 when filled, 1 when there is
 * none, or -EMSGSIZE.
 */
static int dp_genl_route_shortcut(struct sk_buff *skb, struct dp_priv *dp,
				  u32 dst, u8 reason)
{
	u32 port_idx, peer, dist;
	struct dp_port *port;
	u64 mac;

	if (!dp_topo_discover_drop(&dp->topo, reason) || !dp_sc_fallback(dp) ||
	    !dp_sc_lookup(&dp->vctx, dp->self, dst, dp_topo_ttl(&dp->topo),
			  &port_idx, &peer, &dist))
		return 1;
	mac = dp_neigh_mac(dp, port_idx, peer, &port);
	if (nla_put_u32(skb, DPILLAR_A_ROUTE_NEXT, peer) ||
	    dp_genl_put_addr(skb, DPILLAR_A_ROUTE_NEXT_ADDR, dp, peer) ||
	    (mac && dp_genl_put_mac(skb, DPILLAR_A_ROUTE_NEXT_MAC, mac)) ||
	    nla_put_u32(skb, DPILLAR_A_ROUTE_PORT, port_idx) ||
	    nla_put_u32(skb, DPILLAR_A_ROUTE_SHORTCUT, dist) ||
	    nla_put_u32(skb, DPILLAR_A_ROUTE_HOPS, dist))
		return -EMSGSIZE;
	return 0;
}

/*
 * The first hop as the data path would take it now (dp_route_out()), then
 * the rest of the path as the servers on it would route with nothing
 * failed (S2 plan mode: the first hop only).  Under rcu_read_lock.
 */
VISIBLE_IF_KUNIT int dp_genl_route_fill(struct sk_buff *skb,
					struct dp_priv *dp, u32 dst, u32 hash,
					bool may_resolve,
					const struct nlattr *dst_attr,
					struct netlink_ext_ack *extack)
{
	u32 choice[DP_GENL_CHOICES_MAX], nchoice, i, hops = 0;
	u32 mode = READ_ONCE(dp->mode);
	struct dp_route_state st;
	struct dp_port *port;
	struct dp_hop hop;
	int err, dir;
	u64 mac;

	/* The UAPI's phases are the topology's (checked in its file). */
	BUILD_BUG_ON((int)DP_PHASE_DIRECT != DPILLAR_ROUTE_PHASE_DIRECT);

	if (nla_put_u32(skb, DPILLAR_A_ROUTE_DST, dst) ||
	    dp_genl_put_addr(skb, DPILLAR_A_ROUTE_DST_ADDR, dp, dst) ||
	    nla_put_u32(skb, DPILLAR_A_ROUTE_MODE, mode) ||
	    nla_put_u32(skb, DPILLAR_A_ROUTE_HASH, hash))
		return -EMSGSIZE;
	if (dst == dp->self)
		return 0;

	/* No packet: the flow of the hash asked for (default 0). */
	dp_route_init(&dp->topo, dp->self, dst, mode, hash, &st);
	err = dp->topo.ext_len ? dp_genl_route_coords(dp, &st, may_resolve) : 0;
	if (err == -EAGAIN)
		NL_SET_ERR_MSG(extack,
			       "Destination's coordinates not known yet: resolving, try again");
	else if (err)
		NL_SET_ERR_MSG(extack,
			       "Destination's coordinates not known; resolving them sends frames (CAP_NET_ADMIN)");
	if (err) {
		NL_SET_BAD_ATTR(extack, dst_attr);
		return err;
	}
	nchoice = dp_route_choices(&dp->topo, dp->self, &st, &dp->view,
				   choice, ARRAY_SIZE(choice));
	for (i = 0; i < nchoice && i < ARRAY_SIZE(choice); i++)
		if (nla_put_u32(skb, DPILLAR_A_ROUTE_CHOICE, choice[i]))
			return -EMSGSIZE;
	if (dp_route(&dp->topo, dp->self, &st, &dp->view, &hop)) {
		err = dp_genl_route_shortcut(skb, dp, dst, hop.reason);
		if (err <= 0)
			return err;
		dp_compat_set_err_reason(extack, "No route",
					 dp_drop_reason_name(&dp->topo,
							     hop.reason));
		NL_SET_BAD_ATTR(extack, dst_attr);
		return -EHOSTUNREACH;
	}
	mac = dp_neigh_mac(dp, hop.port, hop.next, &port);

	if (nla_put_u32(skb, DPILLAR_A_ROUTE_NEXT, hop.next) ||
	    dp_genl_put_addr(skb, DPILLAR_A_ROUTE_NEXT_ADDR, dp, hop.next) ||
	    (mac && dp_genl_put_mac(skb, DPILLAR_A_ROUTE_NEXT_MAC, mac)) ||
	    nla_put_u32(skb, DPILLAR_A_ROUTE_PORT, hop.port) ||
	    nla_put_u32(skb, DPILLAR_A_ROUTE_PHASE, hop.phase))
		return -EMSGSIZE;
	/* Where the topology's route has a direction (DPillar's helix). */
	dir = dp_route_dir(&dp->topo, &st);
	if (dir >= 0 && nla_put_u32(skb, DPILLAR_A_ROUTE_DIR, dir))
		return -EMSGSIZE;

	for (;;) {
		if (dp_genl_put_hop(skb, dp, &hop))
			return -EMSGSIZE;
		if (++hops == dp_topo_ttl(&dp->topo) && hop.next != dst) {
			NL_SET_ERR_MSG(extack, "Path longer than the TTL");
			NL_SET_BAD_ATTR(extack, dst_attr);
			return -ELOOP;
		}
		/*
		 * Plan mode: no server can compute another's decisions (it
		 * knows only its own neighbours): the first hop is all;
		 * route trace follows the rest.
		 */
		if (hop.next == dst || dp->topo.learn_peers)
			break;
		/* NULL oracle: every server and link is up. */
		if (dp_route(&dp->topo, hop.next, &st, NULL, &hop)) {
			dp_compat_set_err_reason(extack,
						 "No route beyond the first hop",
						 dp_drop_reason_name(&dp->topo,
								     hop.reason));
			NL_SET_BAD_ATTR(extack, dst_attr);
			return -EHOSTUNREACH;
		}
	}
	return nla_put_u32(skb, DPILLAR_A_ROUTE_HOPS, hops);
}
EXPORT_SYMBOL_IF_KUNIT(dp_genl_route_fill);

/* ROUTE_TRACE's wait for each reply: default and most, in ms. */
#define DP_TRACE_TIMEOUT_MS	1000
/* Probes unanswered in a row after which the trace gives up. */
#define DP_TRACE_LOST_MAX	3
/*
 * The most one ROUTE_TRACE or ROUTE_PROBE request sleeps, in ms, whatever
 * the fabric answers.  genl_rcv() holds genetlink's cb_lock for reading
 * meanwhile: a family being registered waits for it, and every genetlink
 * request on the host behind that.  Past it the reply holds the probes
 * made so far (a trace's last one unanswered).
 */
#define DP_PROBE_REQ_MS		5000

/* How often ROUTE_GET and ROUTE_TRACE look again for coordinates. */
#define DP_GENL_RESOLVE_POLL_MS	10
/*
 * ROUTE_GET's and ROUTE_TRACE's wait for a resolution they started, by
 * default: two of the discovery's waits for its reply (DP_SC_WAIT_MS), so
 * that a lost flood is started again once.  TIMEOUT_MS sets it, up to
 * DP_PROBE_REQ_MS.
 */
#define DP_GENL_RESOLVE_WAIT_MS	(2 * DP_SC_WAIT_MS)

/*
 * The wait for the next reply: the request's per-reply wait, cut to what
 * is left of the request's time (@end, jiffies); 0 when none is left.
 */
static unsigned long dp_genl_probe_wait(u32 timeout_ms, unsigned long end)
{
	unsigned long now = jiffies;

	if (time_after_eq(now, end))
		return 0;
	return min(msecs_to_jiffies(timeout_ms), end - now);
}

/* A reply with @nprobes probe nests (dp_genl_put_probe()). */
static size_t dp_genl_trace_size(u32 nprobes)
{
	size_t probe = nla_total_size(0) +
		       nla_total_size(sizeof(u32)) * 9 +
		       nla_total_size(DP_ADDR_TEXT_MAX);

	return nla_total_size(sizeof(u32)) * 3 +
	       nla_total_size(DP_ADDR_TEXT_MAX) + nprobes * probe;
}

/*
 * One probe's nest: @ttl it was sent with, its answer @res (@timedout:
 * none came), and for ROUTE_PROBE (@path >= 0) the candidate path and
 * what path selection holds of it.
 */
static int dp_genl_put_probe(struct sk_buff *skb, struct dp_priv *dp,
			     u32 ttl, bool timedout,
			     const struct dp_probe_result *res, u32 dst,
			     int path)
{
	struct nlattr *nest;
	bool failed;

	nest = nla_nest_start(skb, DPILLAR_A_ROUTE_PROBE);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, DPILLAR_A_PROBE_TTL, ttl) ||
	    nla_put_u32(skb, DPILLAR_A_PROBE_STATUS, timedout ?
			DPILLAR_PROBE_STATUS_TIMEOUT : res->status))
		goto cancel;
	if (!timedout &&
	    (nla_put_u32(skb, DPILLAR_A_PROBE_REPORTER, res->reporter) ||
	     dp_genl_put_addr(skb, DPILLAR_A_PROBE_REPORTER_ADDR, dp,
			      res->reporter) ||
	     nla_put_u32(skb, DPILLAR_A_PROBE_REASON, res->reason) ||
	     nla_put_u32(skb, DPILLAR_A_PROBE_RTT_US,
			 min_t(u64, div_u64(res->rtt_ns, NSEC_PER_USEC),
			       U32_MAX)) ||
	     nla_put_u32(skb, DPILLAR_A_PROBE_HOPS, res->hops) ||
	     /* unknown (S2 plan mode): left out */
	     (!res->detours_unknown &&
	      nla_put_u32(skb, DPILLAR_A_PROBE_DETOURS, res->detours))))
		goto cancel;
	if (path >= 0 && nla_put_u32(skb, DPILLAR_A_PROBE_PATH, path))
		goto cancel;
	if (path >= 0 && dp_pathsel_state(dp, dst, path, &failed) &&
	    nla_put_u32(skb, DPILLAR_A_PROBE_FAILED, failed))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/*
 * What ROUTE_TRACE and ROUTE_PROBE start with: the destination, the wait
 * per reply and the flow hash from the request, and a reply with them
 * whose probes the caller adds (@maxprobes of them at most).
 */
static int dp_genl_probe_start(struct genl_info *info, u8 cmd, u32 maxprobes,
			       size_t extra, u32 *dst, u32 *timeout_ms,
			       u32 *hash, struct sk_buff **msgp, void **hdrp)
{
	struct dp_priv *dp = dp_genl_dp(info);
	struct nlattr **tb = info->attrs;
	struct nlattr *dst_attr = NULL;
	struct sk_buff *msg;
	void *hdr;
	int err;

	*timeout_ms = DP_TRACE_TIMEOUT_MS;
	if (tb[DPILLAR_A_ROUTE_TIMEOUT_MS])
		*timeout_ms = nla_get_u32(tb[DPILLAR_A_ROUTE_TIMEOUT_MS]);
	*hash = 0;
	if (tb[DPILLAR_A_ROUTE_HASH])
		*hash = nla_get_u32(tb[DPILLAR_A_ROUTE_HASH]);
	rcu_read_lock();
	err = dp_genl_route_dst(dp, tb, &dst_attr, dst, info->extack);
	rcu_read_unlock();
	if (err)
		return err;
	/* ROUTE_NEIGHS (@extra) answers for this server too. */
	if (*dst == dp->self && !extra) {
		NL_SET_ERR_MSG_ATTR(info->extack, dst_attr,
				    "Destination is this server");
		return -EINVAL;
	}
	if (!(dp->dev->flags & IFF_UP)) {
		NL_SET_ERR_MSG(info->extack, "Device is down");
		return -ENETDOWN;
	}

	msg = genlmsg_new(dp_genl_trace_size(maxprobes) + extra, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &dp_genl_family, 0, cmd);
	if (!hdr ||
	    nla_put_u32(msg, DPILLAR_A_ROUTE_DST, *dst) ||
	    dp_genl_put_addr(msg, DPILLAR_A_ROUTE_DST_ADDR, dp, *dst) ||
	    nla_put_u32(msg, DPILLAR_A_ROUTE_MODE, READ_ONCE(dp->mode)) ||
	    nla_put_u32(msg, DPILLAR_A_ROUTE_HASH, *hash)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	*msgp = msg;
	*hdrp = hdr;
	return 0;
}

/* A probe that could not even be sent: the request fails (extack). */
static int dp_genl_probe_err(struct genl_info *info, int err)
{
	if (err == -EBUSY)
		NL_SET_ERR_MSG(info->extack,
			       "Too many probes outstanding on this device");
	else
		NL_SET_ERR_MSG(info->extack,
			       "Probe failed (device down or going away)");
	return err;
}

/*
 * S2 plan mode: ROUTE_TRACE's first probe needs the destination's
 * coordinates.  Unknown ones are resolved first, as for ROUTE_GET (the
 * request has CAP_NET_ADMIN, GENL_UNS_ADMIN_PERM): the discovery started
 * once and looked at every DP_GENL_RESOLVE_POLL_MS until it answers or
 * @wait_ms pass (@end, the request's bound, first), rather than a trace
 * that stops at once as NOROUTE (route_no_coords) and a caller left to
 * repeat it.  Still unknown then, the trace's first probe says so.
 */
static void dp_genl_trace_coords(struct dp_priv *dp, u32 dst, u32 hash,
				 u32 wait_ms, unsigned long end)
{
	unsigned long until = jiffies + msecs_to_jiffies(wait_ms);
	struct dp_route_state st;
	bool ok;

	if (time_after(until, end))
		until = end;
	for (;;) {
		/* RCU for the neighbour tables, BHs off for the cache */
		local_bh_disable();
		rcu_read_lock();
		dp_pathsel_route_init(dp, dst, hash, &st);
		ok = dp_sc_coords_route(dp, &st, true);
		rcu_read_unlock();
		local_bh_enable();
		if (ok || !time_before(jiffies, until) ||
		    msleep_interruptible(DP_GENL_RESOLVE_POLL_MS))
			return;
	}
}

/*
 * ROUTE_TRACE: probes with TTL 1, 2, ... toward the destination, each
 * routed as this server's data of the flow hash would be (path selection
 * included: the trace makes it follow the destination), until one
 * reaches it or cannot be routed, DP_TRACE_LOST_MAX in a row go
 * unanswered, the topology's TTL is used up, or DP_PROBE_REQ_MS have
 * passed.  Sleeps (parallel_ops).
 */
int dp_genl_route_trace_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct dp_priv *dp = dp_genl_dp(info);
	u32 maxttl = dp_topo_ttl(&dp->topo);
	unsigned long end = jiffies + msecs_to_jiffies(DP_PROBE_REQ_MS), wait;
	u32 timeout_ms, hash, dst, ttl, lost = 0;
	struct dp_probe_result res;
	struct dp_route_state st;
	struct sk_buff *msg;
	bool timedout;
	void *hdr;
	int err;

	err = dp_genl_probe_start(info, DPILLAR_CMD_ROUTE_TRACE, maxttl, 0,
				  &dst, &timeout_ms, &hash, &msg, &hdr);
	if (err)
		return err;
	if (dp->topo.ext_len)
		dp_genl_trace_coords(dp, dst, hash,
				     info->attrs[DPILLAR_A_ROUTE_TIMEOUT_MS] ?
				     timeout_ms : DP_GENL_RESOLVE_WAIT_MS, end);
	for (ttl = 1; ttl <= maxttl; ttl++) {
		wait = dp_genl_probe_wait(timeout_ms, end);
		if (!wait)
			break;
		/* The flow's path as dp_xmit() picks it: path selection's. */
		local_bh_disable();
		dp_pathsel_route_init(dp, dst, hash, &st);
		local_bh_enable();
		err = dp_probe_roundtrip(dp, &st, ttl, wait, &res);
		if (err && err != -ETIMEDOUT)
			goto err_free;
		timedout = err == -ETIMEDOUT;
		err = dp_genl_put_probe(msg, dp, ttl, timedout, &res, dst, -1);
		if (err)
			goto err_free;
		if (timedout) {
			if (++lost == DP_TRACE_LOST_MAX)
				break;
			continue;
		}
		lost = 0;
		if (res.status != DPILLAR_PROBE_STATUS_TTL)
			break;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err_free:
	nlmsg_free(msg);
	return err == -EMSGSIZE ? err : dp_genl_probe_err(info, err);
}

/*
 * ROUTE_PROBE: one probe with the full TTL down each candidate path of
 * path selection (pathsel.c) toward the destination, in turn, with what path
 * selection holds of each.  EOPNOTSUPP where the topology and mode have no
 * candidate paths.  Sleeps (parallel_ops), DP_PROBE_REQ_MS at most.
 */
int dp_genl_route_probe_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct dp_priv *dp = dp_genl_dp(info);
	unsigned long end = jiffies + msecs_to_jiffies(DP_PROBE_REQ_MS), wait;
	u32 ttl = dp_topo_ttl(&dp->topo);
	u32 timeout_ms, hash, dst, n, m;
	struct dp_probe_result res;
	struct dp_route_state st;
	struct sk_buff *msg;
	void *hdr;
	int err;

	err = dp_genl_probe_start(info, DPILLAR_CMD_ROUTE_PROBE, DP_PATHS_MAX,
				  0, &dst, &timeout_ms, &hash, &msg, &hdr);
	if (err)
		return err;
	n = dp_route_npaths(&dp->topo, dp->self, dst, READ_ONCE(dp->mode));
	if (!n) {
		nlmsg_free(msg);
		NL_SET_ERR_MSG(info->extack,
			       "No candidate paths in this topology and routing mode");
		return -EOPNOTSUPP;
	}
	for (m = 0; m < n; m++) {
		wait = dp_genl_probe_wait(timeout_ms, end);
		if (!wait)
			break;
		dp_route_path_init(&dp->topo, dp->self, dst, m, &st);
		err = dp_probe_roundtrip(dp, &st, ttl, wait, &res);
		if (err && err != -ETIMEDOUT)
			goto err_free;
		err = dp_genl_put_probe(msg, dp, ttl, err == -ETIMEDOUT, &res,
					dst, m);
		if (err)
			goto err_free;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err_free:
	nlmsg_free(msg);
	return err == -EMSGSIZE ? err : dp_genl_probe_err(info, err);
}

/* ROUTE_NEIGHS' table attributes, for a full table. */
static size_t dp_genl_neighs_size(void)
{
	size_t entry = nla_total_size(0) +
		       nla_total_size(sizeof(u32)) * 4 +
		       nla_total_size(DP_ADDR_TEXT_MAX);

	return nla_total_size(sizeof(u32)) * 2 + nla_total_size(0) +
	       DPILLAR_PROBE_NEIGHS_MAX * entry;
}

/* The table @nb (valid) as ROUTE_NEIGHS' reply attributes. */
static int dp_genl_put_neighs(struct sk_buff *skb, const struct dp_priv *dp,
			      const struct dp_probe_neighs *nb)
{
	struct nlattr *nest;
	u32 i;

	if (nla_put_u32(skb, DPILLAR_A_ROUTE_NODE_PORTS, nb->nports) ||
	    nla_put_u32(skb, DPILLAR_A_ROUTE_NODE_PORTS_UP, nb->ports_up) ||
	    (nb->trunc && nla_put_flag(skb, DPILLAR_A_ROUTE_NEIGHS_TRUNC)))
		return -EMSGSIZE;
	for (i = 0; i < nb->count; i++) {
		const struct dp_probe_neigh_ent *e = &nb->n[i];

		nest = nla_nest_start(skb, DPILLAR_A_ROUTE_NEIGH);
		if (!nest ||
		    nla_put_u32(skb, DPILLAR_A_NEIGH_PORT, e->port) ||
		    nla_put_u32(skb, DPILLAR_A_NEIGH_NODE_ID, e->node) ||
		    dp_genl_put_addr(skb, DPILLAR_A_NEIGH_ADDR, dp, e->node) ||
		    nla_put_u32(skb, DPILLAR_A_NEIGH_STATE, e->state) ||
		    (e->peer_port != U8_MAX &&
		     nla_put_u32(skb, DPILLAR_A_NEIGH_PEER_PORT, e->peer_port)))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

/* This server's own table, as a probe's reply would carry it. */
static int dp_genl_neighs_self(struct dp_priv *dp, struct dp_probe_neighs *nb)
{
	struct dpillar_probe_neighs *h;
	unsigned int len;
	int err;

	h = kmalloc(dp_probe_neighs_len(DPILLAR_PROBE_NEIGHS_MAX), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	rcu_read_lock();
	len = dp_probe_neighs_fill(dp, h);
	rcu_read_unlock();
	err = dp_probe_neighs_parse(h, len, nb);
	kfree(h);
	return err;
}

/*
 * ROUTE_NEIGHS: one probe with the full TTL toward the destination,
 * routed as the topology routes the flow hash (path selection left out),
 * asking it for its neighbour table
 * (DPILLAR_PROBE_F_NEIGHS): the probe's answer, and the table when the
 * destination sent one.  For this server itself, its own table and no
 * probe.  Sleeps (parallel_ops), the request's wait at most.
 */
int dp_genl_route_neighs_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct dp_priv *dp = dp_genl_dp(info);
	u32 ttl = dp_topo_ttl(&dp->topo);
	u32 timeout_ms, hash, dst;
	struct dp_probe_neighs *nb;
	struct dp_probe_result res;
	struct dp_route_state st;
	struct sk_buff *msg;
	void *hdr;
	int err;

	err = dp_genl_probe_start(info, DPILLAR_CMD_ROUTE_NEIGHS, 1,
				  dp_genl_neighs_size(), &dst, &timeout_ms,
				  &hash, &msg, &hdr);
	if (err)
		return err;
	nb = kzalloc(sizeof(*nb), GFP_KERNEL);
	if (!nb) {
		err = -ENOMEM;
		goto err_free;
	}
	if (dst == dp->self) {
		err = dp_genl_neighs_self(dp, nb);
		if (err)
			goto err_free;
	} else {
		/*
		 * The routing's own path, not path selection's: a sweep of
		 * the fabric must not make it follow every destination.
		 */
		dp_route_init(&dp->topo, dp->self, dst, READ_ONCE(dp->mode),
			      hash, &st);
		err = dp_probe_roundtrip_neighs(dp, &st, ttl,
						msecs_to_jiffies(timeout_ms),
						&res, nb);
		if (err && err != -ETIMEDOUT)
			goto err_probe;
		err = dp_genl_put_probe(msg, dp, ttl, err == -ETIMEDOUT, &res,
					dst, -1);
		if (err)
			goto err_free;
	}
	if (nb->valid) {
		err = dp_genl_put_neighs(msg, dp, nb);
		if (err)
			goto err_free;
	}
	kfree(nb);
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err_probe:
	kfree(nb);
	nlmsg_free(msg);
	return dp_genl_probe_err(info, err);
err_free:
	kfree(nb);
	nlmsg_free(msg);
	return err;
}

int dp_genl_route_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct dp_priv *dp = dp_genl_dp(info);
	struct nlattr *dst_attr = NULL;
	struct sk_buff *msg;
	unsigned long end;
	bool may_resolve;
	u32 dst, hash, wait_ms;
	void *hdr;
	int err;

	hash = info->attrs[DPILLAR_A_ROUTE_HASH] ?
	       nla_get_u32(info->attrs[DPILLAR_A_ROUTE_HASH]) : 0;
	wait_ms = info->attrs[DPILLAR_A_ROUTE_TIMEOUT_MS] ?
		  nla_get_u32(info->attrs[DPILLAR_A_ROUTE_TIMEOUT_MS]) :
		  DP_GENL_RESOLVE_WAIT_MS;
	/*
	 * ROUTE_GET is read-only for everyone; only the caller who may send
	 * frames (DEV_SET's permission) starts a resolution on a miss.
	 */
	may_resolve = netlink_ns_capable(skb, genl_info_net(info)->user_ns,
					 CAP_NET_ADMIN);
	/*
	 * The reply is sized by the topology's path bound, from 11 hops up
	 * to DP_TTL_MAX; a device's topology never changes.
	 */
	msg = genlmsg_new(dp_genl_route_size(dp_topo_ttl(&dp->topo)),
			  GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &dp_genl_family, 0,
				DPILLAR_CMD_ROUTE_GET);
	if (!hdr) {
		err = -EMSGSIZE;
		goto err_free;
	}

	rcu_read_lock();
	err = dp_genl_route_dst(dp, info->attrs, &dst_attr, &dst, info->extack);
	rcu_read_unlock();
	if (err)
		goto err_free;
	end = jiffies + msecs_to_jiffies(wait_ms);
	for (;;) {
		rcu_read_lock();
		err = dp_genl_route_fill(msg, dp, dst, hash, may_resolve,
					 dst_attr, info->extack);
		rcu_read_unlock();
		/*
		 * S2 plan mode, a destination being resolved (a resolution
		 * only this caller's permission starts): the answer once its
		 * reply has come, within the request's wait (TIMEOUT_MS,
		 * default DP_GENL_RESOLVE_WAIT_MS), rather than EAGAIN and a
		 * caller left to repeat the request.  The discovery pending,
		 * asking again floods nothing (dp_sc_start()); one whose
		 * reply did not come in DP_SC_WAIT_MS is started again, within
		 * the resolve budget.  genl_rcv() holds cb_lock for reading
		 * meanwhile, as for ROUTE_TRACE (DP_PROBE_REQ_MS at most).
		 */
		if (err != -EAGAIN || !time_before(jiffies, end) ||
		    msleep_interruptible(DP_GENL_RESOLVE_POLL_MS))
			break;
		nlmsg_trim(msg, hdr);
		info->extack->_msg = NULL;
		info->extack->bad_attr = NULL;
	}
	if (err)
		goto err_free;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err_free:
	nlmsg_free(msg);
	return err;
}
