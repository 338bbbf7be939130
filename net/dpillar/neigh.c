// SPDX-License-Identifier: GPL-2.0
/*
 * Neighbour tables: what the Hellos (hello.c) taught a node about the
 * nodes on its switches and cables.
 *
 * The topology says how many nodes share what a port plugs into (struct
 * dp_port_info), so each port's table is an array indexed arithmetically
 * (dp_port_neigh_index()), sized by the port and not by the fabric.  A
 * neighbour not heard for the dead interval, or behind a port without
 * carrier, is unreachable; routing asks dp_reachable() (view.c) and so
 * sees a failure at once.  A Hello from a node that cannot be on that
 * switch or cable is a cabling error: counted, recorded as the port's
 * miswired sender and reported, never entered.
 *
 * Any host can send a Hello in any name: a live neighbour's MAC is kept
 * against another one (dp_neigh_heard()), and a MAC brings at most one
 * entry of a port to life (dp_neigh_take()), so that one host cannot
 * hold the per-neighbour budgets of every absent id on its switch.
 *
 * Where the cabling cannot be derived (t->learn_peers: S2 plan mode) each
 * port is a cable with one slot, and the slot's node id is learned: the
 * first valid sender heard takes it and keeps it while alive, another
 * one meanwhile is miswired; a dead interval later a new one may take it.
 *
 * Every change an operator may want to see is reported with NEIGH_NTF
 * (notify.c) and bumps dp->gen, which a NEIGH_GET dump checks.
 */

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include "dpillar.h"

/*
 * NEIGH_NTF for entry @idx of @port: the message says the transition,
 * @reachable, whatever the entry says by now.  Under RCU.
 */
static void dp_neigh_ntf(struct dp_priv *dp, struct dp_port *port, u32 idx,
			 bool reachable)
{
	struct dp_neigh_snap n;

	if (!dp_notify_listened(dp) || dp_neigh_snapshot(dp, port, idx, &n))
		return;
	n.state = reachable ? DPILLAR_NEIGH_STATE_REACHABLE :
			      DPILLAR_NEIGH_STATE_UNREACHABLE;
	dp_notify_neigh(dp, &n, GFP_ATOMIC);
}

/* Neighbours of @port reachable now. */
u32 dp_port_reachable(const struct dp_priv *dp, const struct dp_port *port)
{
	u32 i, n = 0;

	if (!dp_port_up(port))
		return 0;
	for (i = 0; i < port->nneigh; i++)
		n += dp_neigh_alive(dp, &port->neigh[i]);
	return n;
}

/* The locks of a new port's Hello state (miswired record, slot claims). */
void dp_port_miswired_init(struct dp_port *port)
{
	spin_lock_init(&port->miswired_lock);
	spin_lock_init(&port->learn_lock);
}
EXPORT_SYMBOL_IF_KUNIT(dp_port_miswired_init);

/*
 * Copy the last miswired sender of @port into @mis; false when there is
 * none heard within the dead interval.
 */
bool dp_port_miswired_get(const struct dp_priv *dp, struct dp_port *port,
			  struct dp_miswired *mis)
{
	spin_lock_bh(&port->miswired_lock);
	*mis = port->miswired;
	spin_unlock_bh(&port->miswired_lock);
	return dp_heard_alive(dp, mis->mac, mis->heard, jiffies);
}
EXPORT_SYMBOL_IF_KUNIT(dp_port_miswired_get);

/*
 * Neighbour @idx of @port as it stands now; false for a learned slot
 * (t->learn_peers) that has heard nobody yet: no node to report.
 */
static bool dp_neigh_snapshot_slot(const struct dp_priv *dp,
				   const struct dp_port *port, u32 idx,
				   struct dp_neigh_snap *snap)
{
	const struct dp_neigh *nb = &port->neigh[idx];

	snap->port = port->index;
	snap->node = dp_neigh_node(dp, port, idx);
	if (dp->topo.learn_peers && snap->node == DP_NODE_NONE)
		return false;
	snap->mac = atomic64_read(&nb->mac);
	snap->heard = READ_ONCE(nb->last_heard);
	snap->state = dp_neigh_reach(dp, port, nb) ?
		      DPILLAR_NEIGH_STATE_REACHABLE :
		      DPILLAR_NEIGH_STATE_UNREACHABLE;
	if (!snap->mac)
		snap->peer_port = -1;
	else if (dp->topo.learn_peers)	/* what its Hellos said */
		snap->peer_port = READ_ONCE(nb->peer_port);
	else
		snap->peer_port = dp_peer_port(&dp->topo, dp->self,
					       port->index, snap->node);
	snap->miswired_count = 0;
	snap->rejected_mac = 0;
	return true;
}

/* The miswired sender @mis heard on @port, as an entry of its table. */
void dp_neigh_snapshot_miswired(const struct dp_port *port,
				const struct dp_miswired *mis,
				struct dp_neigh_snap *snap)
{
	snap->port = port->index;
	snap->node = mis->node;
	snap->mac = mis->mac;
	snap->heard = mis->heard;
	snap->state = DPILLAR_NEIGH_STATE_MISWIRED;
	snap->peer_port = mis->sport;
	snap->miswired_count = mis->count;
	snap->rejected_mac = 0;
}

/*
 * Entry @idx of @port's neighbour table as genetlink reports it: the
 * neighbours in table order, then the port's miswired sender.  0 with
 * @snap filled; -ENODATA when the entry has nothing to report (a learned
 * slot that heard nobody yet, no miswired sender heard within the dead
 * interval); -ENOENT past the last entry.
 * Under rcu_read_lock.
 */
int dp_neigh_snapshot(const struct dp_priv *dp, struct dp_port *port,
		      u32 idx, struct dp_neigh_snap *snap)
{
	struct dp_miswired mis;

	if (idx < port->nneigh)
		return dp_neigh_snapshot_slot(dp, port, idx, snap) ? 0 :
								    -ENODATA;
	if (idx > port->nneigh)
		return -ENOENT;
	if (!dp_port_miswired_get(dp, port, &mis))
		return -ENODATA;
	dp_neigh_snapshot_miswired(port, &mis, snap);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(dp_neigh_snapshot);

/*
 * At most once per dead interval, per @last (a port's timestamp, 0:
 * never): true when the caller may raise its event now, and @last is
 * set.  Lock-free; of two CPUs racing, one wins.
 */
static bool dp_port_ratelimit(const struct dp_priv *dp, unsigned long *last)
{
	unsigned long now = jiffies ?: 1, prev = READ_ONCE(*last);

	if (prev && time_before(now, prev + READ_ONCE(dp->dead_jiffies)))
		return false;
	return cmpxchg(last, prev, now) == prev;
}

/*
 * Record a miswired Hello: the most recent one stays on record, with the
 * count of those heard since the port last had none for the dead
 * interval, so that a real cabling error is never hidden behind an
 * earlier sender.  True when the caller may raise an event and bump the
 * dump generation: at most once per dead interval and port, however many
 * senders (or forged source MACs) there are.
 */
static bool dp_port_miswired_set(const struct dp_priv *dp,
				 struct dp_port *port, u32 src, u8 sport,
				 u64 mac, struct dp_miswired *mis)
{
	struct dp_miswired *m = &port->miswired;
	unsigned long now = jiffies;
	bool news;

	spin_lock(&port->miswired_lock);
	if (!dp_heard_alive(dp, m->mac, m->heard, now))
		m->count = 0;
	if (m->count < U32_MAX)
		m->count++;
	m->mac = mac;
	m->node = src;
	m->sport = sport;
	m->heard = now;
	news = !m->ntf_valid ||
	       !time_before(now, m->ntf + READ_ONCE(dp->dead_jiffies));
	if (news) {
		m->ntf = now;
		m->ntf_valid = true;
	}
	*mis = *m;
	spin_unlock(&port->miswired_lock);
	return news;
}

/*
 * Report the neighbours of @port that were reachable and are no longer:
 * silent for the dead interval, or the port lost its carrier.  Runs every
 * Hello interval, BH off, under rcu_read_lock.
 */
void dp_neigh_scan(struct dp_priv *dp, struct dp_port *port)
{
	bool up = dp_port_up(port);
	u32 i;

	for (i = 0; i < port->nneigh; i++) {
		struct dp_neigh *nb = &port->neigh[i];

		if (!test_bit(DP_NEIGH_REPORTED, &nb->flags) ||
		    (up && dp_neigh_alive(dp, nb)))
			continue;
		if (test_and_clear_bit(DP_NEIGH_REPORTED, &nb->flags)) {
			atomic_inc(&dp->gen);
			dp_neigh_ntf(dp, port, i, false);
		}
	}
}

/*
 * Is @peer's port @peer_port on the switch or cable our port @port plugs
 * into (a Hello's sender, or a neighbour's cable)?  The ports must agree,
 * not just the neighbour lists: in a DPillar k = 2 fabric two servers can
 * share both of their switches.  Where the peers are learned
 * (t->learn_peers) nothing says which port of the peer a cable reaches:
 * any port it can have.
 */
bool dp_peer_on_switch(const struct dp_priv *dp, u32 port, u32 peer,
		       u32 peer_port)
{
	int pp;

	if (dp->topo.learn_peers)
		return peer_port < dp->topo.nports;
	pp = dp_peer_port(&dp->topo, dp->self, port, peer);
	return pp >= 0 && (u32)pp == peer_port;
}

/*
 * NEIGH_NTF: neighbour @idx of @port is alive, and a Hello in its name
 * came from another MAC, @mac, which was ignored: its entry as it stands,
 * with the rejected MAC.  The caller rate-limits.  Under RCU.
 */
static void dp_neigh_mac_change_ntf(struct dp_priv *dp, struct dp_port *port,
				    u32 idx, u64 mac)
{
	struct dp_neigh_snap n;

	if (!dp_notify_listened(dp) || dp_neigh_snapshot(dp, port, idx, &n))
		return;
	n.rejected_mac = mac;
	dp_notify_neigh(dp, &n, GFP_ATOMIC);
}

/* A live neighbour's MAC address kept against a Hello from another one. */
static void dp_neigh_mac_change_warn(const struct dp_priv *dp,
				     const struct dp_port *port, u32 src,
				     u64 old, u64 mac)
{
	char addr[DP_ADDR_TEXT_MAX];
	u8 o[ETH_ALEN], n[ETH_ALEN];

	dp_addr_format(&dp->topo, src, addr, sizeof(addr));
	u64_to_ether_addr(old, o);
	u64_to_ether_addr(mac, n);
	netdev_warn(dp->dev, "port %u (%s): Hello from %s with MAC %pM while %pM is alive: ignored\n",
		    port->index, port->dev->name, addr, n, o);
}

/* Whether @hi lists other ids than @nb has (dp_neigh_set_neighs()). */
static bool dp_neigh_neighs_differ(const struct dp_neigh *nb,
				   const struct dp_hello_info *hi)
{
	u32 i;

	if (hi->nneighs != READ_ONCE(nb->nneighs))
		return true;
	for (i = 0; i < hi->nneighs; i++)
		if (READ_ONCE(nb->neighs[i]) != hi->neighs[i])
			return true;
	return false;
}

static void dp_neigh_set_neighs(struct dp_neigh *nb,
				const struct dp_hello_info *hi)
{
	u32 i;

	/* Shrink first: a reader never sees a count past the new ids. */
	if (hi->nneighs < READ_ONCE(nb->nneighs))
		WRITE_ONCE(nb->nneighs, hi->nneighs);
	for (i = 0; i < hi->nneighs; i++)
		WRITE_ONCE(nb->neighs[i], hi->neighs[i]);
	WRITE_ONCE(nb->nneighs, hi->nneighs);
}

/*
 * S2 plan mode: keep the coordinates of a Hello from the cable neighbour
 * of @port, the sender's own and those of the ids it listed (none known
 * when it sent no TLV 4).  Lock-free like dp_neigh_set_neighs(), counts
 * shrunk first: a torn read mixes two true lists (struct
 * dp_neigh_coords).
 */
/* Whether @hi gives other coordinates than @port has. */
static bool dp_neigh_coords_differ(const struct dp_port *port,
				   const struct dp_hello_info *hi)
{
	const struct dp_neigh_coords *nc = &port->coords;
	u32 i, c, n = hi->neigh_coords ? hi->nneighs : 0;

	if (n != READ_ONCE(nc->nneighs) || hi->ncoords != READ_ONCE(nc->ncoords))
		return true;
	for (c = 0; c < hi->ncoords; c++)
		if (READ_ONCE(nc->x[c]) != hi->coords[c])
			return true;
	for (i = 0; i < n; i++)
		for (c = 0; c < hi->ncoords; c++)
			if (READ_ONCE(nc->neighs[i][c]) !=
			    dp_hello_neigh_coord(hi, i, c))
				return true;
	return false;
}

static void dp_neigh_set_coords(struct dp_port *port,
				const struct dp_hello_info *hi)
{
	struct dp_neigh_coords *nc = &port->coords;
	u32 i, c, n = hi->neigh_coords ? hi->nneighs : 0;

	if (n < READ_ONCE(nc->nneighs))
		WRITE_ONCE(nc->nneighs, n);
	if (hi->ncoords != READ_ONCE(nc->ncoords))
		WRITE_ONCE(nc->ncoords, 0);
	for (c = 0; c < hi->ncoords; c++)
		WRITE_ONCE(nc->x[c], hi->coords[c]);
	for (i = 0; i < n; i++)
		for (c = 0; c < hi->ncoords; c++)
			WRITE_ONCE(nc->neighs[i][c],
				   dp_hello_neigh_coord(hi, i, c));
	WRITE_ONCE(nc->ncoords, hi->ncoords);
	WRITE_ONCE(nc->nneighs, n);
}

/*
 * Where the peers are learned (t->learn_peers): may @src, heard from
 * @mac, use slot @idx of @port?  Yes when the slot is its own (the MAC
 * rule then applies as anywhere); when it is free or its node is dead,
 * @src takes it over with @mac, and the old node's loss is reported if it
 * had not been yet.  No while another node is alive there: a miswired
 * cable (or a forged Hello), counted by the caller.  A claim is made
 * under the port's learn_lock, so that of two new senders racing for a
 * slot one wins and the other finds it alive.
 */
bool dp_neigh_claim(struct dp_priv *dp, struct dp_port *port, u32 idx,
		    u32 src, u64 mac)
{
	struct dp_neigh *nb = &port->neigh[idx];
	bool ok;

	if (dp_neigh_node(dp, port, idx) == src)
		return true;
	if (dp_neigh_alive(dp, nb))
		return false;
	/* Dead, and not yet scanned (dp_neigh_scan()): its loss first. */
	if (test_and_clear_bit(DP_NEIGH_REPORTED, &nb->flags)) {
		atomic_inc(&dp->gen);
		dp_neigh_ntf(dp, port, idx, false);
	}
	spin_lock(&port->learn_lock);
	ok = !dp_neigh_alive(dp, nb);
	if (ok) {
		/*
		 * No MAC while the id changes, and nothing of the old node
		 * kept.  Readers take no barrier: one that sees the new MAC
		 * with the old id sends a frame over this cable, to the
		 * one host there is at its end, which is where it would go.
		 */
		atomic64_set(&nb->mac, 0);
		smp_wmb();	/* MAC cleared before the id changes */
		WRITE_ONCE(nb->nneighs, 0);
		if (!idx) {
			WRITE_ONCE(port->coords.nneighs, 0);
			WRITE_ONCE(port->coords.ncoords, 0);
		}
		WRITE_ONCE(nb->node, src);
		WRITE_ONCE(nb->last_heard, jiffies);
		smp_wmb();	/* the new id before the MAC that makes it live */
		atomic64_set(&nb->mac, mac);
		dp_rmemo_neigh_changed(dp);
	} else {
		ok = dp_neigh_node(dp, port, idx) == src;
	}
	spin_unlock(&port->learn_lock);
	return ok;
}

/**
 * dp_neigh_miswired - a Hello from a node that cannot be on @port's switch
 * @dp: the device
 * @port: the port it came in by
 * @src: the node it names
 * @sport: the sender's port it names
 * @mac: the sender's MAC address
 *
 * Counted, recorded as the port's miswired sender, and (at most once per
 * dead interval and port) logged and reported.  Softirq, under RCU.
 */
void dp_neigh_miswired(struct dp_priv *dp, struct dp_port *port, u32 src,
		       u8 sport, u64 mac)
{
	struct dp_miswired mis;
	char addr[DP_ADDR_TEXT_MAX];

	dp_count(dp, DP_STAT_HELLO_MISWIRED);
	if (!dp_port_miswired_set(dp, port, src, sport, mac, &mis))
		return;
	dp_addr_format(&dp->topo, src, addr, sizeof(addr));
	net_warn_ratelimited("%s: port %u (%s): Hello from %s port %u, %s (%u heard)\n",
			     dp->dev->name, port->index, port->dev->name, addr,
			     sport, dp->topo.learn_peers ?
			     "which is not this cable's live peer" :
			     "which is not cabled to this switch",
			     mis.count);
	atomic_inc(&dp->gen);
	if (dp_notify_listened(dp)) {
		struct dp_neigh_snap n;

		dp_neigh_snapshot_miswired(port, &mis, &n);
		dp_notify_neigh(dp, &n, GFP_ATOMIC);
	}
}

/*
 * The slot of @port other than @idx that @mac holds alive, or
 * port->nneigh when none does.  O(nneigh): asked only when slot @idx is
 * about to become live (dp_neigh_heard()), under the port's learn_lock.
 */
static u32 dp_neigh_mac_holder(const struct dp_priv *dp,
			       const struct dp_port *port, u32 idx, u64 mac,
			       unsigned long now)
{
	u32 i;

	for (i = 0; i < port->nneigh; i++) {
		const struct dp_neigh *nb = &port->neigh[i];

		if (i != idx && atomic64_read(&nb->mac) == mac &&
		    dp_heard_alive(dp, mac, READ_ONCE(nb->last_heard), now))
			return i;
	}
	return port->nneigh;
}

/*
 * What a Hello from the node of entry @idx of @port says, taken: the
 * entry is alive from here on.  Its MAC is already set.  True when it
 * says something the view answers differently from now on (its ports
 * up, its neighbours, their coordinates): the caller tells the route
 * memo (dp_rmemo_neigh_changed()).
 */
static bool dp_neigh_set(struct dp_priv *dp, struct dp_port *port, u32 idx,
			 u8 sport, const struct dp_hello_info *hi)
{
	struct dp_neigh *nb = &port->neigh[idx];
	bool plan = dp_topo_plan_mode(&dp->topo) && !idx, news;
	unsigned long heard = READ_ONCE(nb->last_heard);

	news = READ_ONCE(nb->ports_up) != hi->ports_up ||
	       test_bit(DP_NEIGH_HAS_PORTS_UP, &nb->flags) !=
	       hi->has_ports_up || dp_neigh_neighs_differ(nb, hi) ||
	       (plan && dp_neigh_coords_differ(port, hi));
	dp_count(dp, DP_STAT_HELLO_RX);
	WRITE_ONCE(nb->ports_up, hi->ports_up);
	WRITE_ONCE(nb->peer_port, sport);
	dp_neigh_set_neighs(nb, hi);
	if (plan)
		dp_neigh_set_coords(port, hi);
	if (hi->has_ports_up)
		set_bit(DP_NEIGH_HAS_PORTS_UP, &nb->flags);
	else
		clear_bit(DP_NEIGH_HAS_PORTS_UP, &nb->flags);
	smp_wmb();	/* its MAC and what it says before the time: alive */
	WRITE_ONCE(nb->last_heard, jiffies);
	/*
	 * A decision may have found it dead just before (it died unheard
	 * as this Hello came in): the memo must hear of its new life.  A
	 * decision that read the old time read the time of day before it
	 * (dp_vctx_reach()), so no later than now.
	 */
	smp_mb();
	if (!time_before(jiffies, heard + READ_ONCE(dp->dead_jiffies)))
		news = true;
	return news;
}

/*
 * A Hello from @src refused: its MAC, @mac, holds entry @holder of @port,
 * alive.  Counted; logged at most once per dead interval and port (the
 * same limit as dp_neigh_mac_change_warn()'s).
 */
static void dp_neigh_mac_taken(struct dp_priv *dp, struct dp_port *port,
			       u32 src, u64 mac, u32 holder)
{
	char addr[DP_ADDR_TEXT_MAX], held[DP_ADDR_TEXT_MAX];
	u8 m[ETH_ALEN];

	dp_count(dp, DP_STAT_HELLO_MAC_TAKEN);
	if (!dp_port_ratelimit(dp, &port->mac_change_warned))
		return;
	dp_addr_format(&dp->topo, src, addr, sizeof(addr));
	dp_addr_format(&dp->topo, dp_neigh_node(dp, port, holder), held,
		       sizeof(held));
	u64_to_ether_addr(mac, m);
	netdev_warn(dp->dev, "port %u (%s): Hello from %s with MAC %pM, which live neighbour %s has: ignored\n",
		    port->index, port->dev->name, addr, m, held);
}

/*
 * Entry @idx of @port, not alive when its Hello came, comes alive with
 * @mac, unless @mac holds another live entry of the port: one MAC, one
 * live entry per port.  The per-neighbour budgets (shortcut.c) are per
 * entry, and a host claiming every dead or absent id on its switch would
 * otherwise have one of each per id; a real server has one entry per
 * switch.  One re-addressed (a new node id, the same NIC) takes its new
 * entry once its old one is dead: at most one dead interval after its
 * last Hello in the old id.  A NIC replaced (a new MAC, the same id) is
 * learned as before (dp_neigh_heard()).
 *
 * Only a change of state costs this O(nneigh) scan, never a live
 * neighbour's refresh.  Under the port's learn_lock, held until
 * last_heard makes the entry alive, so that of two entries claimed at
 * once by one MAC (on two CPUs) one wins.  False, counted, when the
 * Hello is refused.
 */
static bool dp_neigh_take(struct dp_priv *dp, struct dp_port *port, u32 idx,
			  u32 src, u64 mac, u8 sport,
			  const struct dp_hello_info *hi)
{
	struct dp_neigh *nb = &port->neigh[idx];
	unsigned long now = jiffies;
	u32 holder = port->nneigh;
	bool ok = true;
	u64 old;

	spin_lock(&port->learn_lock);
	old = atomic64_read(&nb->mac);
	if (dp_heard_alive(dp, old, READ_ONCE(nb->last_heard), now))
		ok = old == mac;	/* alive meanwhile, by another Hello */
	else
		holder = dp_neigh_mac_holder(dp, port, idx, mac, now);
	if (ok && holder == port->nneigh) {
		if (old != mac)
			atomic64_set(&nb->mac, mac);
		dp_neigh_set(dp, port, idx, sport, hi);
		dp_rmemo_neigh_changed(dp);	/* it comes alive */
	}
	spin_unlock(&port->learn_lock);
	if (!ok)
		dp_count(dp, DP_STAT_HELLO_MAC_CHANGE);
	else if (holder < port->nneigh)
		dp_neigh_mac_taken(dp, port, src, mac, holder);
	return ok && holder == port->nneigh;
}

/**
 * dp_neigh_heard - a valid Hello from the node of entry @idx of @port
 * @dp: the device
 * @port: the port it came in by
 * @idx: the node's entry in @port's table
 * @src: the node
 * @mac: the sender's MAC address
 * @sport: the sender's port, as its Hello says
 * @hi: what its TLVs say
 *
 * The entry takes what the Hello says, unless another MAC address is
 * alive in it (a forged Hello, or a NIC replaced less than a dead interval
 * ago: counted, logged and reported at most once per dead interval and
 * port), or the entry is not alive and the MAC holds another live entry
 * of @port (dp_neigh_take(): counted, logged at most once per dead
 * interval and port); a neighbour heard again is reported reachable.
 * Softirq, under RCU.
 */
void dp_neigh_heard(struct dp_priv *dp, struct dp_port *port, u32 idx,
		    u32 src, u64 mac, u8 sport, const struct dp_hello_info *hi)
{
	struct dp_neigh *nb = &port->neigh[idx];
	u64 old;

	old = atomic64_read(&nb->mac);
	if (!dp_heard_alive(dp, old, READ_ONCE(nb->last_heard), jiffies)) {
		/* Never heard, or dead: it comes alive, maybe. */
		if (!dp_neigh_take(dp, port, idx, src, mac, sport, hi))
			return;
	} else if (old == mac) {
		if (dp_neigh_set(dp, port, idx, sport, hi))
			dp_rmemo_neigh_changed(dp);
	} else {
		/*
		 * Any host on the segment can send a Hello: the first MAC
		 * heard stays while it is alive, so that a forged Hello
		 * cannot redirect a live neighbour's traffic.  A server whose
		 * NIC was replaced is heard again after the dead interval.
		 */
		dp_count(dp, DP_STAT_HELLO_MAC_CHANGE);
		if (dp_port_ratelimit(dp, &port->mac_change_warned)) {
			dp_neigh_mac_change_warn(dp, port, src, old, mac);
			dp_neigh_mac_change_ntf(dp, port, idx, mac);
		}
		return;
	}
	/* Ordered after last_heard: test_and_set_bit() is a full barrier. */
	if (!test_and_set_bit(DP_NEIGH_REPORTED, &nb->flags)) {
		atomic_inc(&dp->gen);
		dp_neigh_ntf(dp, port, idx, true);
	}
}
